"""The dense action ids of the research interfaces, and their names (docs/RESEARCH.md).

One fixed id space for every profile (:data:`NUM_ACTIONS` ids).  A force names its target
meld by its cards (a meld id), never by a meld number; an R18 table is built by several
``meld M`` steps, each putting one meld of the new table down in ascending meld-id order,
closed by ``done`` — so each table is exactly one sequence of ids and an id means the same
in every state.

**Names.**  Every id that stands for an engine action is written by the engine's codec
(:func:`~gameweave.engine.format_action`, §VII): ``turn``, ``refuse``, ``force``,
``throw Ks``, ``meld 4h 5h 6h``, and for the two forces whose target may follow
(:data:`A_REFUSE_FORCE`, :data:`A_THROW_FORCE`) the codec's force that names no meld
(``refuse force``, ``throw Ks force``; exactly the R18e action, and in gameweave the
force before its ``onto`` step).  Two ids are sub-steps the engine has no action for,
and this module alone names them (:data:`DONE_WORD`, :data:`ONTO_WORD`): ``done`` closes an R18 table
being built, ``onto <cards>`` names a gameweave force's target meld (R15).
"""

from __future__ import annotations

from ..engine import (
    FORCE, FORCE_ANY, REFUSE, TURN, force_of, format_action, format_cards, kind_of, meld_action,
    meld_table, refuse_action, table_of, throw_action, thrown_card,
)
from ..engine.actions import MELD, REFUSE_KIND, TABLE, THROW_KIND, TURN_KIND

MELDS: tuple[int, ...] = meld_table(None).melds
"""The 194 melds of the pack (uncapped meld table, R5/R6); a meld id is its index."""
MELD_ID: dict[int, int] = {m: i for i, m in enumerate(MELDS)}
"""``{meld mask: meld id}``."""
NUM_MELDS = len(MELDS)

A_TURN = 0
"""``turn`` (R10.2, R17)."""
A_REFUSE = 1
"""``refuse`` the turned card, no force (R11)."""
A_REFUSE_FORCE = 2
"""``refuse`` and force it onto the opponent (R15, R18e); the target follows if several fit."""
A_FORCE_BACK = 3
"""``force`` a refused turned card back onto its turner (R19, anglo-american)."""
A_DONE = 4
"""Close an R18 table being built with ``meld M`` steps."""
A_THROW = 5
"""``A_THROW + c``: throw card ``c`` (0..39), no force (R13)."""
A_THROW_FORCE = A_THROW + 40
"""``A_THROW_FORCE + c``: throw card ``c`` and force it (R15); the target follows if several fit."""
A_MELD = A_THROW_FORCE + 40
"""``A_MELD + m``: meld id ``m`` is a meld of the seat's table after melding the card: the
whole resulting meld in gameweave (R12); one meld of the new table under R18."""
A_ONTO = A_MELD + NUM_MELDS
"""``A_ONTO + m``: the force goes onto the opponent's meld whose cards are meld id ``m`` (R15)."""
NUM_ACTIONS = A_ONTO + NUM_MELDS
"""Distinct player action ids (473)."""
NUM_CHANCE_OUTCOMES = 40
"""Chance outcomes are card ints 0..39."""
MAX_GAME_LENGTH = 400
"""An upper bound on transitions (chance included) of one deal, for OpenSpiel."""

CHANCE = -1
TERMINAL = -4
"""``Deal.current_player()`` values besides seats 0/1 (OpenSpiel's conventions)."""

DONE_WORD = "done"
"""The name of :data:`A_DONE`, a sub-step no engine action stands for."""
ONTO_WORD = "onto"
"""``A_ONTO + m`` is named ``onto`` and the cards of meld ``m`` in hand order (R4), e.g.
``onto Jc Qc Kc``: a sub-step no engine action stands for (a gameweave force's target,
R15, which the engine writes as a meld number).  With :data:`DONE_WORD`, the whole
vocabulary the research layer writes itself."""


def engine_action_named(aid: int) -> int | None:
    """The engine action whose §VII text names the player id ``aid``, or None for the two
    sub-steps (:data:`A_DONE`, ``A_ONTO + m``).  A force whose target may follow is named
    as the force that names no meld (``FORCE_ANY``, R18e).  Raises :class:`ValueError`
    outside ``0..NUM_ACTIONS-1``."""
    if not 0 <= aid < NUM_ACTIONS:
        raise ValueError(f"not an action id: {aid!r}")
    if aid == A_TURN:
        return TURN
    if aid == A_REFUSE:
        return REFUSE
    if aid == A_REFUSE_FORCE:
        return refuse_action(FORCE_ANY)
    if aid == A_FORCE_BACK:
        return FORCE
    if aid == A_DONE or aid >= A_ONTO:
        return None
    if aid < A_THROW_FORCE:
        return throw_action(aid - A_THROW)
    if aid < A_MELD:
        return throw_action(aid - A_THROW_FORCE, FORCE_ANY)
    return meld_action(MELDS[aid - A_MELD])


def action_name(aid: int) -> str:
    """Text of a dense action id, e.g. ``'throw Ks force'``, ``'meld 4h 5h 6h'``,
    ``'onto Jc Qc Kc'``: the engine codec's text where the id stands for an engine action,
    else the sub-step's words (:data:`DONE_WORD`, :data:`ONTO_WORD`).  Raises :class:`ValueError`
    outside ``0..NUM_ACTIONS-1``."""
    action = engine_action_named(aid)
    if action is not None:
        return format_action(action)
    if aid == A_DONE:
        return DONE_WORD
    return f"{ONTO_WORD} {format_cards(MELDS[aid - A_ONTO])}"


# ---------------------------------------------------------------- engine action -> ids
_TABLE_IDS: dict[int, tuple[int, ...]] = {}


def table_ids(action: int) -> tuple[int, ...]:
    """The meld ids of an engine ``meld`` action's result (a meld or an R18 table),
    ascending (memoised: a pure function of the action int)."""
    got = _TABLE_IDS.get(action)
    if got is None:
        got = _TABLE_IDS[action] = tuple(sorted(MELD_ID[m] for m in table_of(action)))
    return got


PLAIN_THROWS: tuple[int, ...] = tuple(throw_action(c) for c in range(40))
"""The engine's plain ``throw c`` action per card (R13), indexed by card."""


def first_id(a: int) -> int:
    """The dense id that starts writing the engine action ``a`` (its only id, or the first
    ``meld M`` of an R18 table, or a force before its target): a pure function of ``a``."""
    k = kind_of(a)
    if k == TURN_KIND:
        return A_TURN
    if k == MELD:
        return A_MELD + MELD_ID[table_of(a)[0]]
    if k == TABLE:
        return A_MELD + table_ids(a)[0]
    if k == REFUSE_KIND:
        return A_REFUSE_FORCE if force_of(a) else A_REFUSE
    if k == THROW_KIND:
        return (A_THROW_FORCE if force_of(a) else A_THROW) + thrown_card(a)
    return A_FORCE_BACK


_FIRST_ID: dict[int, int] = {}
"""Memo of :func:`first_id` (engine action ints repeat across deals)."""


def first_ids(engine_legal: list[int]) -> list[int]:
    """The distinct first ids (:func:`first_id`) of the engine's legal actions, ascending:
    the legal ids of a seat with no sub-step pending."""
    memo = _FIRST_ID
    try:
        return sorted(set(map(memo.__getitem__, engine_legal)))
    except KeyError:  # an engine action not met before: memoise, then map
        for a in engine_legal:
            if a not in memo:
                memo[a] = first_id(a)
        return sorted(set(map(memo.__getitem__, engine_legal)))


__all__ = [
    "A_DONE", "A_FORCE_BACK", "A_MELD", "A_ONTO", "A_REFUSE", "A_REFUSE_FORCE", "A_THROW",
    "A_THROW_FORCE", "A_TURN", "CHANCE", "DONE_WORD", "MAX_GAME_LENGTH", "MELDS", "MELD_ID", "NUM_ACTIONS",
    "NUM_CHANCE_OUTCOMES", "NUM_MELDS", "ONTO_WORD", "PLAIN_THROWS", "TERMINAL", "action_name",
    "engine_action_named", "first_id", "first_ids", "table_ids",
]
