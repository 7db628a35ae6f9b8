"""Actions as small ints with one text form that parses back (RULES §VII).

An action is a plain ``int``:

* ``0 < a < TURN`` — ``meld``: ``a`` is the 40-bit mask of the *whole resulting meld*
  (for an addition, the old meld plus the taken card; R12).
* ``TURN`` — let the live card (if any) die and turn the top stock card (R10, R17).
* ``REFUSE | n`` — refuse the turned card; ``n`` = 0, or the opponent's meld number
  ``1..`` to force it onto (R11, R15).
* ``THROW | card << 8 | n`` — throw ``card``; ``n`` as for refuse (R13, R15).

:func:`format_action` and :func:`parse_action` are exact inverses on canonical text:
``format_action(parse_action(s)) == s`` for every canonical ``s``, and
``parse_action(format_action(a)) == a`` for every action.  Neither needs a state; whether
an action is *legal now* is the state's business.
"""

from __future__ import annotations

from typing import NamedTuple

from .cards import CARD_NAMES, cards_of, parse_card
from .errors import UnparsableError

KIND_SHIFT = 40
TURN = 1 << KIND_SHIFT
"""The ``turn`` action."""
REFUSE = 2 << KIND_SHIFT
"""The ``refuse`` action; ``REFUSE | n`` forces onto the opponent's meld ``n``."""
THROW = 3 << KIND_SHIFT
"""Base of ``throw`` actions; see :func:`throw_action`."""

MELD_KIND, TURN_KIND, REFUSE_KIND, THROW_KIND = 0, 1, 2, 3
KIND_NAMES = ("meld", "turn", "refuse", "throw")


class Decoded(NamedTuple):
    """A decoded action: ``kind`` (0 meld, 1 turn, 2 refuse, 3 throw), ``meld`` (40-bit
    mask or 0), ``card`` (the thrown card, or -1) and ``force`` (meld number or 0)."""

    kind: int
    meld: int
    card: int
    force: int


def meld_action(mask: int) -> int:
    """The ``meld`` action whose resulting meld is the 40-bit ``mask``."""
    return mask


def refuse_action(force: int = 0) -> int:
    """The ``refuse`` action, forcing onto the opponent's meld number ``force`` if > 0."""
    return REFUSE | force


def throw_action(card: int, force: int = 0) -> int:
    """The ``throw`` action for ``card`` (0..39), forcing onto meld ``force`` if > 0."""
    return THROW | (card << 8) | force


def action_kind(action: int) -> int:
    """0 meld, 1 turn, 2 refuse, 3 throw."""
    return action >> KIND_SHIFT


def decode(action: int) -> Decoded:
    """Split an action int into its parts (see :class:`Decoded`)."""
    kind = action >> KIND_SHIFT
    if kind == MELD_KIND:
        return Decoded(0, action, -1, 0)
    if kind == TURN_KIND:
        return Decoded(1, 0, -1, 0)
    if kind == REFUSE_KIND:
        return Decoded(2, 0, -1, action & 0xFF)
    return Decoded(3, 0, (action >> 8) & 0x3F, action & 0xFF)


def format_action(action: int) -> str:
    """Canonical text of an action (§VII), e.g. ``'meld 4h 5h 6h'``, ``'throw Ks force 1'``.

    Raises :class:`ValueError` for an int that is not an action.
    """
    kind = action >> KIND_SHIFT
    if kind == MELD_KIND:
        if action <= 0:
            raise ValueError(f"not an action: {action!r}")
        return "meld " + " ".join(CARD_NAMES[c] for c in cards_of(action))
    if action == TURN:
        return "turn"
    force = action & 0xFF
    tail = f" force {force}" if force else ""
    if kind == REFUSE_KIND and action == REFUSE | force:
        return "refuse" + tail
    if kind == THROW_KIND:
        card = (action >> 8) & 0x3F
        if card < 40 and action == throw_action(card, force):
            return f"throw {CARD_NAMES[card]}{tail}"
    raise ValueError(f"not an action: {action!r}")


def _parse_force(words: list[str], text: str) -> int:
    if not words:
        return 0
    if len(words) == 2 and words[0].lower() == "force" and words[1].isdigit():
        n = int(words[1])
        if 1 <= n <= 99:
            return n
    raise UnparsableError(f"cannot read {text!r}: expected 'force N' with N a meld number")


def parse_action(text: str) -> int:
    """Parse one action written in §VII notation; case-insensitive, cards in any order.

    Returns the action int.  Raises :class:`UnparsableError` if the text is not an action
    at all (unknown word, bad card, a card listed twice, stray words).  Whether it is
    legal now is not checked here.
    """
    if not isinstance(text, str):
        raise UnparsableError(f"an action must be text, not {type(text).__name__}")
    words = text.split()
    if not words:
        raise UnparsableError("empty action")
    verb = words[0].lower()
    if verb == "turn":
        if len(words) != 1:
            raise UnparsableError(f"cannot read {text!r}: 'turn' takes nothing after it")
        return TURN
    if verb == "refuse":
        return REFUSE | _parse_force(words[1:], text)
    if verb == "throw":
        if len(words) < 2:
            raise UnparsableError(f"cannot read {text!r}: 'throw' needs a card, e.g. 'throw Ks'")
        card = parse_card(words[1])
        return throw_action(card, _parse_force(words[2:], text))
    if verb == "meld":
        if "/" in words:
            raise UnparsableError(
                f"cannot read {text!r}: '/' separates melds only in profiles that rearrange (R18)"
            )
        if len(words) < 2:
            raise UnparsableError(f"cannot read {text!r}: 'meld' needs the cards of the meld")
        mask = 0
        for w in words[1:]:
            bit = 1 << parse_card(w)
            if mask & bit:
                raise UnparsableError(f"cannot read {text!r}: {w} is listed twice")
            mask |= bit
        return mask
    raise UnparsableError(
        f"cannot read {text!r}: an action starts with turn, meld, refuse or throw"
    )
