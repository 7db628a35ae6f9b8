"""The guided first deal (issue 19): a real gameweave deal from a fixed deck order, in
which seat 1 (the person) is walked through taking a card, turning the stock, refusing,
a force and the eleventh card, against a guide (seat 2) that plays a fixed script.

The engine plays the deal and decides every rule: this module holds only data — the
deck (:data:`TUTORIAL_DECK`, R8 order), the script of the whole deal
(:data:`TUTORIAL_ACTIONS`, §VII text, both seats) and the guide's words for the points
where seat 1 decides (:data:`GUIDE`: catalogue keys ``tutorial.step.*`` with the cards
they name) — and reads a table's progress through it.  Hidden information (R21): a
point's steps name only cards seat 1 sees there (its hand, both tables, the centre, the
dead cards; tests/test_tutorial.py checks it), and :func:`tutorial_guide` never answers
for a point the deal has not reached, so the stock order never reaches the page.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from ..bots.scripted import ScriptedBot
from ..engine import GAMEWEAVE, GameState, parse_action, parse_cards
from .errors import TableError
from .secrets import secure_deck
from .table import Table

TUTORIAL_BOT = "tutorial"
"""The bot name of the guide, seat 2 of a guided deal (stored with the match; not one of
the bots the lobby offers, ``GET /api/bots``)."""

TUTORIAL_HANDS = ("6s 7s Kc Kd 2h 3h 5h 4c Qd Ad", "Qs Qh Kh 6h 2c 3d 4s 5c 7d Jc")
"""The two hands as dealt (seat 1's, seat 2's; one card at a time, seat 1 first, R8)."""

TUTORIAL_STOCK = "Ac Qc 7c 4h 2s Js Ah As 2d 3c 3s 4d 5d 5s 6c 6d 7h Jd Jh Ks"
"""The stock, top first (deck cards 21-40, R8)."""

TUTORIAL_ACTIONS: tuple[str, ...] = (
    "turn", "refuse",                        # 0-1   seat 1 turns Ac and refuses it (R10, R11)
    "turn", "meld Qc Qh Qs", "throw Kh",     # 2-4   the guide lets Ac die, turns Qc, melds, throws
    "meld Kc Kd Kh", "throw 4c",             # 5-6   seat 1 takes Kh into a set (R12), throws (R13)
    "turn", "refuse",                        # 7-8   the guide turns 7c and refuses it
    "turn", "meld 2h 3h 4h 5h",              # 9-10  seat 1 lets 7c die, turns 4h, melds a sequence
    "throw Qd force 1",                      # 11    and forces Qd onto the guide's queens (R15)
    "throw 6h force 1",                      # 12    the guide forces 6h back onto seat 1's hearts
    "throw Ad",                              # 13    seat 1: eight melded, 6s 7s in hand
    "turn", "refuse",                        # 14-15 the guide turns 2s and refuses it
    "turn", "meld 6s 7s Js",                 # 16-17 seat 1 turns Js: 6s 7s Js, eleven (R2, R16)
)
"""The whole deal, both seats, in order (§VII text, canonical): seat 1 wins with its
eleventh card at the last action."""


def _deck() -> tuple[int, ...]:
    one, two = (parse_cards(h) for h in TUTORIAL_HANDS)
    dealt = [c for pair in zip(one, two) for c in pair]
    return tuple(dealt + list(parse_cards(TUTORIAL_STOCK)))


TUTORIAL_DECK: tuple[int, ...] = _deck()
"""The deck order of the guided deal (R8: cards 1-20 dealt alternately, seat 1 first)."""

TUTORIAL_PERSON = 0
"""The seat index the person plays (seat 1, the opener)."""


@dataclass(frozen=True)
class GuideStep:
    """One step of the guide's words at a point where seat 1 decides.

    Attributes:
        key: the catalogue key of its text (``tutorial.step.<name>``).
        params: the text's parameters: a card (``"Kh"``) or cards (``("Kc", "Kd")``) in
            §VII notation, each one seat 1 sees at that point (R21).
        action: the §VII text of the move this step asks for (the only move the page
            enables), or None for a step read and passed with "next".
    """

    key: str
    params: Mapping[str, str | tuple[str, ...]] = field(default_factory=dict)
    action: str | None = None


def _step(name: str, action: str | None = None, **params: str | tuple[str, ...]) -> GuideStep:
    return GuideStep(f"tutorial.step.{name}", params, action)


GUIDE: Mapping[int, tuple[GuideStep, ...]] = {
    0: (_step("welcome"), _step("melds"), _step("turn", "turn")),
    1: (_step("refuse", "refuse", card="Ac"),),
    5: (_step("guide_melded", dead="Ac", card="Qc", meld=("Qc", "Qh", "Qs"), thrown="Kh"),
        _step("take", "meld Kc Kd Kh", card="Kh", cards=("Kc", "Kd"))),
    6: (_step("throw", "throw 4c", card="4c"),),
    9: (_step("dies", "turn", card="7c"),),
    10: (_step("sequence", "meld 2h 3h 4h 5h", card="4h", cards=("2h", "3h", "5h")),),
    11: (_step("force", "throw Qd force 1", card="Qd", meld=("Qc", "Qh", "Qs")),),
    13: (_step("forced", card="6h", meld=("2h", "3h", "4h", "5h")),
         _step("keep", "throw Ad", card="Ad", cards=("6s", "7s"))),
    16: (_step("turn_again", "turn", card="2s"),),
    17: (_step("win", "meld 6s 7s Js", card="Js", cards=("6s", "7s")),),
    18: (_step("done"),),
}
"""The guide's words, by the number of actions the deal has had (the points where seat 1
decides, and the end: 18, the deal won)."""

GUIDE_TOTAL = sum(len(steps) for steps in GUIDE.values())
"""How many steps the guide has in all."""


@cache
def _script_ints() -> tuple[int, ...]:
    return tuple(parse_action(a, GAMEWEAVE) for a in TUTORIAL_ACTIONS)


@cache
def _actors() -> tuple[int, ...]:
    """The seat index that plays each action of the script (the engine says, R10-R16)."""
    st = GameState.new(TUTORIAL_DECK, rules=GAMEWEAVE)
    seats = []
    for a in _script_ints():
        seats.append(st.to_act)
        st.apply(a)
    return tuple(seats)


def guide_script() -> dict[int, str]:
    """The guide's (seat 2's) part of :data:`TUTORIAL_ACTIONS`: ``{actions so far: §VII
    text}``, the script its :class:`~gameweave.bots.scripted.ScriptedBot` plays."""
    return {i: a for i, (a, s) in enumerate(zip(TUTORIAL_ACTIONS, _actors())) if s != TUTORIAL_PERSON}


def tutorial_bot(seed: int | None = None) -> ScriptedBot:
    """The guide: a :class:`~gameweave.bots.scripted.ScriptedBot` playing
    :func:`guide_script`, and the greedy bot wherever the deal left the script."""
    return ScriptedBot(guide_script(), seed=seed)


def new_tutorial(name: str | None = None, created_at: str = "") -> tuple[Table, str]:
    """A new guided deal: a gameweave match, first to one won deal, seat 1 (named
    ``name``) against the guide (:data:`TUTORIAL_BOT`), dealt from :data:`TUTORIAL_DECK`
    and marked as a test deal (the deck was chosen, not shuffled: no fair-shuffle claim).

    Returns ``(table, seat-1 token)``.  Raises :class:`TableError` ``bad_name`` for a bad
    ``name`` (:func:`~gameweave.tables.policy.check_name`)."""
    _deck_unused, salt = secure_deck()
    return Table.create(opponent="bot", bot=TUTORIAL_BOT, format="first_to", target=1, deck=TUTORIAL_DECK,
                        salt=salt, created_at=created_at, rules=GAMEWEAVE.name, test=True, name=name)


def is_tutorial(table: Table) -> bool:
    """True if ``table`` is a guided deal (its seat 2 is the guide)."""
    return table.opponent == "bot" and table.bot == TUTORIAL_BOT


def _numbers() -> dict[int, int]:
    """The 1-based number of each point's first step over the whole guide."""
    out, n = {}, 1
    for at in sorted(GUIDE):
        out[at] = n
        n += len(GUIDE[at])
    return out


def _wire(step: GuideStep, n: int) -> dict[str, Any]:
    params = {k: list(v) if isinstance(v, tuple) else v for k, v in step.params.items()}
    return {"n": n, "key": step.key, "params": params, "action": step.action}


def tutorial_guide(table: Table, at: int | None = None) -> dict[str, Any]:
    """What the guide says at point ``at`` of a guided deal (the number of actions the
    deal had; default: now, and never a point ahead of now).

    Returns ``{"at", "on_script", "finished", "total", "steps": [{"n", "key",
    "params", "action"}]}``: ``steps`` is empty where the guide has nothing to say (the
    guide's own turn), ``on_script`` False once the deal left the script (the person may
    then play on freely), ``finished`` True at the end of the script (the deal won).
    Raises :class:`TableError` ``not_a_tutorial`` for any other match and ``malformed``
    for a negative ``at``.
    """
    if not is_tutorial(table):
        raise TableError("not_a_tutorial", "this match is not a guided deal")
    if at is not None and (type(at) is not int or at < 0):
        raise TableError("malformed", "'at' must be a whole number, 0 or more")
    first = table.deals[0]
    played = first.state.history
    at = len(played) if at is None else min(at, len(played))
    on_script = (len(table.deals) == 1 and first.deck == TUTORIAL_DECK and first.resigned is None
                 and tuple(played[:at]) == _script_ints()[:at])
    steps = GUIDE.get(at, ()) if on_script else ()
    start = _numbers().get(at, 0)
    return {"at": at, "on_script": on_script, "finished": on_script and at == len(TUTORIAL_ACTIONS),
            "total": GUIDE_TOTAL, "steps": [_wire(s, start + i) for i, s in enumerate(steps)]}


__all__ = [
    "GUIDE", "GUIDE_TOTAL", "TUTORIAL_ACTIONS", "TUTORIAL_BOT", "TUTORIAL_DECK", "TUTORIAL_HANDS", "TUTORIAL_PERSON",
    "TUTORIAL_STOCK", "GuideStep", "guide_script", "is_tutorial", "new_tutorial", "tutorial_bot", "tutorial_guide",
]
