"""Typed errors of the engine.

Both are :class:`ValueError` subclasses so that callers who only care about "bad input"
can catch ``ValueError``; callers who must tell the two apart (the CLI, the server)
catch them separately.  Whenever one is raised the state is left unchanged.
"""

from __future__ import annotations


class GameweaveError(ValueError):
    """Base class of every input error the engine raises.

    Attributes: ``reason``, a short code for programs (e.g. ``not_in_hand``,
    ``cannot_force``, ``deal_over``), or ``None``; ``str(error)`` is the message for
    people, which never repeats the action text.
    """

    def __init__(self, message: str = "", *, reason: str | None = None) -> None:
        super().__init__(message)
        self.reason = reason


class UnparsableError(GameweaveError):
    """Text that is not a card, an action, a record or a profile name at all (R3, §VII).

    Attributes: ``text``, the word that could not be read, where one word is to blame
    (reason ``not_a_card``: the word that should be a card, R3), else None."""

    def __init__(self, message: str = "", *, reason: str | None = None, text: str | None = None) -> None:
        super().__init__(message, reason=reason)
        self.text = text


class IllegalActionError(GameweaveError):
    """A well-formed action that the rules do not allow in the current state (R10-R17)."""


class UnknownProfileError(GameweaveError):
    """A rule profile name that does not exist, or is not playable yet (§V)."""


class OptionError(GameweaveError):
    """A match or profile option with a value the rules do not allow (§V, R20), e.g.
    ``tablas_stake=triple`` or ``target=0``."""
