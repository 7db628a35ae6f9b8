"""The action codec: actions as small ints with one text form (RULES §VII).

This module is the only place that knows how an action int is laid out; every other
layer uses the helpers below (``kind_of``, ``meld_cards``, ``table_of``, ``thrown_card``,
``force_of``, ``is_forcing``) and never does bit arithmetic on actions.

An action is a plain ``int`` ``payload << 3 | kind``:

=============  ======================================================================
kind           payload
=============  ======================================================================
``MELD`` 0     the 40-bit mask of the *whole resulting meld* (R12; gameweave)
``TURN`` 1     none: let the live card (if any) die and turn the stock (R10, R17)
``REFUSE`` 2   the force: 0 none, 1..99 the opponent's meld number (R15), or
               ``FORCE_ANY`` for a force that names no meld (R18e)
``THROW`` 3    ``card | force << 6`` (R13, R15)
``FORCE`` 4    none: force the refused turned card back onto its turner (R19)
``TABLE`` 5    a whole new table (R18): the ids of its melds in the uncapped meld
               table, plus one, 8 bits each, melds in order of their lowest card
=============  ======================================================================

Ids of the uncapped table are the same under every sequence cap, so one action int
means the same table in every profile.  A table of a deal in progress never holds more
than eleven cards, so at most three melds (24 bits); the codec accepts up to four, so that
a hypothetical table (a bot asking what a seat holding eleven could lay) still formats.

:func:`format_action` needs no profile; :func:`parse_action` takes the profile because
the same text means different things in different profiles (``meld 4h 5h 6h`` is one
meld in gameweave and a whole table where tables are rearranged; ``refuse force 2`` is
unparsable there).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple, TypeAlias
from collections.abc import Iterable

from .cards import CARD_NAMES, Mask, cards_of, parse_card
from .errors import UnparsableError
from .melds import meld_table

if TYPE_CHECKING:
    from .rules import Rules

Action: TypeAlias = int
"""An action int (see the module docstring)."""

KIND_MASK = 7
"""The low bits of an action that hold its kind."""
PAYLOAD_SHIFT = 3
"""Where an action's payload starts: ``action = payload << PAYLOAD_SHIFT | kind``."""
CARD_MASK = 0x3F
"""A throw's payload: ``card | force << THROW_FORCE_SHIFT - PAYLOAD_SHIFT``; this masks the card."""
THROW_FORCE_SHIFT = 9
"""A throw's force is ``action >> THROW_FORCE_SHIFT``.

These four constants are the layout for the engine's hot paths (``apply``, the legal
generators, ``apply_public``), which inline them instead of calling the helpers below;
nothing outside the engine uses them."""

MELD, TURN_KIND, REFUSE_KIND, THROW_KIND, FORCE_KIND, TABLE = range(6)
"""Action kinds (the low three bits of an action)."""
KIND_NAMES: tuple[str, ...] = ("meld", "turn", "refuse", "throw", "force", "meld")
"""``KIND_NAMES[kind]``: the §VII verb of each kind (a table is written ``meld``)."""

TURN: Action = TURN_KIND
"""The ``turn`` action."""
REFUSE: Action = REFUSE_KIND
"""The ``refuse`` action with no force."""
FORCE: Action = FORCE_KIND
"""The ``force`` action: force back a refused turned card (R19)."""

FORCE_ANY = 127
"""The force value of a force that names no meld (profiles that rearrange, R18e)."""
MAX_FORCE_NUMBER = 99
"""The highest meld number a gameweave ``force N`` may name."""

_ALL = meld_table(None)
_ID_OF: dict[int, int] = _ALL.ids
_MELDS: tuple[int, ...] = _ALL.melds
_SORT_KEY: dict[int, int] = {m: (m & -m).bit_length() << 8 | i + 1 for m, i in _ID_OF.items()}
"""meld -> (lowest card + 1) << 8 | (id + 1): sorting these orders a table's disjoint melds
by lowest card, and the low byte is the meld's slot in a table action."""


class Decoded(NamedTuple):
    """A decoded action.

    Attributes:
        kind: ``MELD, TURN_KIND, REFUSE_KIND, THROW_KIND, FORCE_KIND`` or ``TABLE``.
        melds: the resulting meld (a 1-tuple for ``MELD``) or table (``TABLE``), as
            40-bit masks in order of their lowest card; ``()`` otherwise.
        card: the thrown card (0..39), or -1.
        force: 0 (no force), a meld number 1..99, or ``FORCE_ANY``.
    """

    kind: int
    melds: tuple[Mask, ...]
    card: int
    force: int


# ---------------------------------------------------------------- builders
def meld_action(mask: Mask) -> Action:
    """The gameweave ``meld`` action whose resulting meld is ``mask`` (R12)."""
    return mask << 3


def table_action(melds: tuple[Mask, ...] | list[Mask]) -> Action:
    """The ``meld`` action of a whole new table (R18): ``melds`` are legal melds (any
    order).  Raises :class:`KeyError` if one is not a meld of the pack."""
    if len(melds) == 1:
        return (_ID_OF[melds[0]] + 1) << 3 | TABLE
    payload = 0
    shift = 0
    for k in sorted(map(_SORT_KEY.__getitem__, melds)):
        payload |= (k & 0xFF) << shift
        shift += 8
    return payload << 3 | TABLE


def refuse_action(force: int = 0) -> Action:
    """``refuse``; forcing onto meld number ``force`` (gameweave) or ``FORCE_ANY``."""
    return force << 3 | REFUSE_KIND


def throw_action(card: int, force: int = 0) -> Action:
    """``throw card`` (0..39); forcing as for :func:`refuse_action`."""
    return (card | force << 6) << 3 | THROW_KIND


# ---------------------------------------------------------------- decoders
def kind_of(action: Action) -> int:
    """The kind of an action (low three bits)."""
    return action & 7


def is_meld(action: Action) -> bool:
    """True for a ``meld`` action of either form (one meld, or a whole table)."""
    k = action & 7
    return k == MELD or k == TABLE


_TABLE_CACHE: dict[int, tuple[int, ...]] = {}


def table_of(action: Action) -> tuple[Mask, ...]:
    """The melds a ``meld`` action results in: a 1-tuple for a gameweave meld, the
    whole table for an R18 table; ``()`` for any other action."""
    k = action & 7
    if k == MELD:
        return (action >> 3,)
    if k != TABLE:
        return ()
    got = _TABLE_CACHE.get(action)
    if got is None:
        p = action >> 3
        out = []
        while p:
            out.append(_MELDS[(p & 0xFF) - 1])
            p >>= 8
        got = tuple(out)
        if len(_TABLE_CACHE) < 1 << 16:
            _TABLE_CACHE[action] = got
    return got


def meld_cards(action: Action) -> Mask:
    """The 40-bit mask of every card in a ``meld`` action's result (0 otherwise)."""
    k = action & 7
    if k == MELD:
        return action >> 3
    m = 0
    for x in table_of(action):
        m |= x
    return m


def thrown_card(action: Action) -> int:
    """The card a ``throw`` action throws, or -1 for any other action."""
    if action & 7 != THROW_KIND:
        return -1
    return (action >> 3) & 0x3F


def force_of(action: Action) -> int:
    """The force of a ``refuse``/``throw``: 0 none, 1..99 a meld number, ``FORCE_ANY``."""
    k = action & 7
    if k == REFUSE_KIND:
        return action >> 3
    if k == THROW_KIND:
        return action >> 9
    return 0


def is_forcing(action: Action) -> bool:
    """True if the action puts a card on the other seat: a forcing ``refuse`` or
    ``throw`` (R15) or a ``force`` back (R19)."""
    k = action & 7
    if k == FORCE_KIND:
        return True
    return (k == REFUSE_KIND or k == THROW_KIND) and force_of(action) != 0


def decode(action: Action) -> Decoded:
    """Split an action int into its parts (see :class:`Decoded`)."""
    k = action & 7
    return Decoded(k, table_of(action), thrown_card(action), force_of(action))


# ---------------------------------------------------------------- text
def _force_text(force: int) -> str:
    if force == 0:
        return ""
    if force == FORCE_ANY:
        return " force"
    return f" force {force}"


TABLE_SEPARATOR = " / "
"""What separates the melds of a table in §VII text (``meld 3h 4h 5h / 6c 6d 6h``)."""


def format_table(melds: Iterable[Mask]) -> str:
    """§VII text of a table of melds (each a card mask), in the order given, e.g.
    ``'3h 4h 5h / 6c 6d 6h'`` (R18); the empty string for no meld.  The one writer of
    the separator: every other surface that shows a table as text calls this."""
    return TABLE_SEPARATOR.join(" ".join(CARD_NAMES[c] for c in cards_of(m)) for m in melds)


def format_action(action: Action) -> str:
    """Canonical text of an action (§VII), e.g. ``'meld 4h 5h 6h'``,
    ``'meld 3h 4h 5h / 6c 6d 6h'``, ``'throw Ks force 1'``, ``'refuse force'``.

    Raises :class:`ValueError` for an int that is not an action.
    """
    if not isinstance(action, int) or action < 0:
        raise ValueError(f"not an action: {action!r}")
    k = action & 7
    if k == MELD:
        mask = action >> 3
        if mask <= 0 or mask >> 40:
            raise ValueError(f"not an action: {action!r}")
        return "meld " + " ".join(CARD_NAMES[c] for c in cards_of(mask))
    if k == TABLE:
        p = action >> 3
        if p == 0 or p >> 32:
            raise ValueError(f"not an action: {action!r}")
        ids = []
        while p:
            i = (p & 0xFF) - 1
            if not 0 <= i < len(_MELDS):
                raise ValueError(f"not an action: {action!r}")
            ids.append(i)
            p >>= 8
        melds = [_MELDS[i] for i in ids]
        if table_action(melds) != action or _overlap(melds):
            raise ValueError(f"not an action: {action!r}")
        return "meld " + format_table(melds)
    if action == TURN:
        return "turn"
    if action == FORCE:
        return "force"
    if k == REFUSE_KIND:
        force = action >> 3
        if force <= MAX_FORCE_NUMBER or force == FORCE_ANY:
            return "refuse" + _force_text(force)
    if k == THROW_KIND:
        card = (action >> 3) & 0x3F
        force = action >> 9
        if card < 40 and (force <= MAX_FORCE_NUMBER or force == FORCE_ANY):
            return f"throw {CARD_NAMES[card]}{_force_text(force)}"
    raise ValueError(f"not an action: {action!r}")


def _overlap(melds: list[int]) -> bool:
    seen = 0
    for m in melds:
        if seen & m:
            return True
        seen |= m
    return False


def _parse_force(words: list[str], text: str, numbered: bool) -> int:
    if not words:
        return 0
    if words[0].lower() == "force":
        if numbered:
            if len(words) == 2 and words[1].isascii() and words[1].isdigit() and len(words[1]) <= 2:
                n = int(words[1])
                if 1 <= n <= MAX_FORCE_NUMBER:
                    return n
            raise UnparsableError(f"cannot read {text!r}: expected 'force N' with N a meld number")
        if len(words) == 1:
            return FORCE_ANY
        raise UnparsableError(
            f"cannot read {text!r}: where melds are rearranged (R18e) a force names no meld number",
            reason="force_names_no_meld",
        )
    raise UnparsableError(f"cannot read {text!r}: only 'force' may follow the card")


def _parse_cards(words: list[str], text: str) -> int:
    mask = 0
    for w in words:
        bit = 1 << parse_card(w)
        if mask & bit:
            raise UnparsableError(f"cannot read {text!r}: {w} is listed twice")
        mask |= bit
    return mask


def parse_action(text: str, rules: Rules | None = None) -> Action:
    """Parse one action written in §VII notation under a profile (default gameweave);
    case-insensitive, melds and cards in any order.

    Returns the action int.  Raises :class:`UnparsableError` if the text is not an
    action of that profile at all (unknown word, bad card, a card listed twice, a group
    of a table that is no meld, ``/`` or ``force N`` where tables are rearranged or not,
    ``force`` where R19 does not apply, stray words).  Legality now is the state's
    business.
    """
    if not isinstance(text, str):
        raise UnparsableError(f"an action must be text, not {type(text).__name__}")
    rearranging = rules is not None and rules.rearranging
    words = text.split()
    if not words:
        raise UnparsableError("empty action")
    verb = words[0].lower()
    if verb == "turn":
        if len(words) != 1:
            raise UnparsableError(f"cannot read {text!r}: 'turn' takes nothing after it")
        return TURN
    if verb == "force":
        if rules is None or not rules.force_back:
            raise UnparsableError(
                f"cannot read {text!r}: forcing back (R19) belongs to the anglo-american profile",
                reason="no_force_back",
            )
        if len(words) != 1:
            raise UnparsableError(f"cannot read {text!r}: 'force' takes nothing after it")
        return FORCE
    if verb == "refuse":
        return refuse_action(_parse_force(words[1:], text, not rearranging))
    if verb == "throw":
        if len(words) < 2:
            raise UnparsableError(f"cannot read {text!r}: 'throw' needs a card, e.g. 'throw Ks'")
        card = parse_card(words[1])
        return throw_action(card, _parse_force(words[2:], text, not rearranging))
    if verb == "meld":
        body = text.strip()[4:]
        if not body.strip():
            raise UnparsableError(f"cannot read {text!r}: 'meld' needs the cards of the meld")
        if not rearranging:
            if "/" in body:
                raise UnparsableError(
                    f"cannot read {text!r}: '/' separates melds only in profiles that rearrange (R18)",
                    reason="no_rearranging",
                )
            return meld_action(_parse_cards(body.split(), text))
        melds: list[int] = []
        seen = 0
        for group in body.split("/"):
            words_g = group.split()
            if not words_g:
                raise UnparsableError(f"cannot read {text!r}: an empty meld between '/'")
            m = _parse_cards(words_g, text)
            if seen & m:
                raise UnparsableError(f"cannot read {text!r}: a card is listed twice")
            seen |= m
            if m not in _ID_OF:
                raise UnparsableError(
                    f"cannot read {text!r}: {' '.join(words_g)} is not a set or a sequence (R5, R6)"
                )
            melds.append(m)
        if seen.bit_count() > 11:
            raise UnparsableError(f"cannot read {text!r}: a table holds at most eleven cards (R16)")
        return table_action(melds)
    verbs = "turn, meld, refuse, throw or force" if rules is not None and rules.force_back else \
        "turn, meld, refuse or throw"
    raise UnparsableError(f"cannot read {text!r}: an action starts with {verbs}")
