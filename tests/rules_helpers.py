"""Helpers of the rules tests on hand-built deck orders (decks from
:func:`~gameweave.engine.conformance.build_deck`): cards written as text, checked play
with every invariant checked after each action, what a seat holds as text, and a deal
turned and refused to tablas."""

from __future__ import annotations

from collections.abc import Iterable

from gameweave.engine import GameState, format_cards, mask_of, parse_cards
from gameweave.engine.conformance import check_invariants
from deals import play_out


def m(text: str) -> int:
    """40-bit mask of cards written as text (R3): ``m("Ac 2c 3c")``."""
    return mask_of(parse_cards(text))


def run(st: GameState, actions: Iterable[str]) -> GameState:
    """Play checked actions (§VII text), checking every invariant after each one; returns ``st``."""
    for a in actions:
        st.play(a)
        check_invariants(st)
    return st


def melds(st: GameState, seat: int) -> list[str]:
    """The seat's melds on the table, as card text."""
    return [format_cards(x) for x in st.melds[seat]]


def hand(st: GameState, seat: int) -> str:
    """The seat's hand, as card text."""
    return format_cards(st.hands[seat])


def play_to_tablas(st: GameState) -> GameState:
    """Both seats turn and refuse (checked, as text) until the stock is gone: tablas
    (R17).  Returns ``st``."""
    return play_out(st, lambda d: "refuse" if d.state.decision == "meld_or_refuse" else "turn", checked=True)
