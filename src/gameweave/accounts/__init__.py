"""Player accounts (issue 20): the rules of a username and a password, password hashing
and session ids — no storage and no HTTP here (``storage/accounts.py`` keeps them,
``server/routes/account.py`` serves them).

* A **username** is 3-20 characters, each a letter, a digit, ``_`` or ``-``, compared
  case-insensitively after Unicode NFKC normalisation (:func:`username_key`): ``Ana``,
  ``ana`` and ``ＡＮＡ`` are one name.
* A **password** has at least 8 characters, is not the username (in any case) and is not
  one of the common passwords shipped with the package (``common_passwords.txt``).
* Passwords are hashed with **argon2id** (``argon2-cffi``'s :class:`PasswordHasher`,
  its recommended parameters); a hash made with older parameters is rehashed at the next
  sign-in (:meth:`Passwords.needs_rehash`).
* A **session id** is 32 random bytes (URL-safe text) given to the browser once, in a
  cookie; only its SHA-256 is stored (:func:`session_hash`), so the database never holds
  what a cookie holds.

This layer imports the standard library and ``argon2`` only.
"""

from __future__ import annotations

import hashlib
import secrets
import unicodedata
from functools import cache
from pathlib import Path

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

USERNAME_MIN, USERNAME_MAX = 3, 20
"""Length of a username, in characters (after NFKC normalisation)."""

PASSWORD_MIN = 8
"""Least characters of a password."""

PASSWORD_MAX = 256
"""Most characters of a password (longer is refused: hashing is costly on purpose)."""

COMMON_PASSWORDS = Path(__file__).with_name("common_passwords.txt")
"""The common passwords refused at sign-up and at a change (one a line, lower case)."""


class AccountError(Exception):
    """A username or password that breaks the rules: ``code`` is the wire error code
    (``bad_username``, ``bad_password``), ``message`` an English sentence, ``params`` what
    the page's ``error.<code>`` message is filled with (``reason``)."""

    def __init__(self, code: str, message: str, reason: str):
        super().__init__(message)
        self.code, self.message, self.params = code, message, {"reason": reason}


def normal_username(name: str) -> str:
    """``name`` as it is kept and shown: NFKC-normalised, surrounding spaces removed.
    Raises :class:`AccountError` ``bad_username`` (reason ``length``, ``characters``, or
    ``mixed_scripts``: letters of two alphabets, as in a look-alike of another name)."""
    if not isinstance(name, str):
        raise AccountError("bad_username", "a username is text", "characters")
    text = unicodedata.normalize("NFKC", name).strip()
    if not USERNAME_MIN <= len(text) <= USERNAME_MAX:
        raise AccountError("bad_username", f"a username has {USERNAME_MIN} to {USERNAME_MAX} characters", "length")
    if not all(ch.isalnum() or ch in "_-" for ch in text):
        raise AccountError("bad_username", "a username holds letters, digits, '_' and '-' only", "characters")
    if len(_scripts(text)) > 1:  # "аlice" with a Cyrillic а beside "alice" (UTS #39's single-script rule)
        raise AccountError("bad_username", "a username's letters come from one alphabet", "mixed_scripts")
    return text


def _scripts(text: str) -> set[str]:
    """The scripts of the letters of ``text``, by the first word of each one's Unicode
    name (``LATIN``, ``CYRILLIC``, ``GREEK`` …; CJK ideographs, kana and hangul count as
    one, so Japanese and Korean names pass); digits, ``_`` and ``-`` belong to none."""
    out = set()
    for ch in text:
        if ch.isalpha():
            word = unicodedata.name(ch, "UNKNOWN").split()[0]
            out.add("CJK" if word in ("CJK", "HIRAGANA", "KATAKANA", "HANGUL") else word)
    return out


def username_key(name: str) -> str:
    """The key two usernames are compared by (unique in the database): NFKC, then
    case-folded, then NFKC again (``"ＡＮＡ"`` -> ``"ana"``).  Raises :class:`AccountError`
    like :func:`normal_username`."""
    return unicodedata.normalize("NFKC", normal_username(name).casefold())


@cache
def common_passwords() -> frozenset[str]:
    """The shipped list of common passwords, lower case."""
    lines = COMMON_PASSWORDS.read_text(encoding="utf-8").splitlines()
    return frozenset(w.strip().lower() for w in lines if w.strip() and not w.startswith("#"))


def check_password(password: str, username: str) -> None:
    """Refuse a password that breaks the rules (at sign-up and at a change): raises
    :class:`AccountError` ``bad_password`` with reason ``short``, ``long``, ``username``
    (it is the username, in any case) or ``common`` (on the shipped list)."""
    if not isinstance(password, str) or len(password) < PASSWORD_MIN:
        raise AccountError("bad_password", f"a password has at least {PASSWORD_MIN} characters", "short")
    if len(password) > PASSWORD_MAX:
        raise AccountError("bad_password", f"a password has at most {PASSWORD_MAX} characters", "long")
    folded = unicodedata.normalize("NFKC", password).casefold()
    if folded == unicodedata.normalize("NFKC", username).casefold():
        raise AccountError("bad_password", "the password cannot be the username", "username")
    if folded in common_passwords():
        raise AccountError("bad_password", "that password is among the most common ones", "common")


class Passwords:
    """argon2id hashing (``argon2-cffi``, its default parameters unless given).

    ``hash(p)`` -> an encoded hash; ``verify(h, p)`` -> True/False (never raises for a
    wrong password or a damaged hash); ``needs_rehash(h)`` -> True when ``h`` was made
    with other parameters than this hasher's; ``dummy_verify(p)`` spends the time of one
    verification, so that an unknown username answers as slowly as a wrong password."""

    def __init__(self, hasher: PasswordHasher | None = None):
        self.hasher = hasher or PasswordHasher()
        self._dummy = self.hasher.hash(secrets.token_hex(16))

    def hash(self, password: str) -> str:
        """The argon2id hash of ``password`` (salted, encoded with its parameters)."""
        return self.hasher.hash(password)

    def verify(self, encoded: str, password: str) -> bool:
        """True if ``password`` matches the hash ``encoded``."""
        try:
            return self.hasher.verify(encoded, password)
        except (VerificationError, InvalidHashError):
            return False

    def needs_rehash(self, encoded: str) -> bool:
        """True if ``encoded`` was made with parameters other than this hasher's."""
        try:
            return self.hasher.check_needs_rehash(encoded)
        except InvalidHashError:
            return True

    def dummy_verify(self, password: str) -> None:
        """Verify against a throw-away hash (the time of a real check, always False)."""
        self.verify(self._dummy, password)


def new_session_id() -> str:
    """A new session id for a cookie: 32 random bytes, URL-safe text (43 characters)."""
    return secrets.token_urlsafe(32)


def session_hash(session_id: str) -> str:
    """What the database keeps of a session id: its SHA-256, hex."""
    return hashlib.sha256(session_id.encode("utf-8", "replace")).hexdigest()


__all__ = ["AccountError", "COMMON_PASSWORDS", "PASSWORD_MAX", "PASSWORD_MIN", "Passwords", "USERNAME_MAX",
           "USERNAME_MIN", "check_password", "common_passwords", "new_session_id", "normal_username",
           "session_hash", "username_key"]
