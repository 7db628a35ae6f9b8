"""A conformance suite shipped with the engine (ARCHITECTURE idea 9).

:func:`check_invariants` asserts everything that must hold in any reachable state;
:func:`random_deal_check` plays random deals to the end, checking the invariants after
every action, that every applied action was legal, that views leak nothing (R21), and
that record -> replay gives the identical state (§VII).  :func:`build_deck` writes a
deck order (R8) from two hands and the top of the stock, which keeps hand-built tests
readable.

Standard library only.  Run it from a shell with ``gameweave conformance --rules
classic --seed 1 --deals 1000``.
"""

from __future__ import annotations

import json
import random
from typing import Any
from collections.abc import Callable, Iterable, Sequence

from .actions import REFUSE, format_action, is_forcing, is_meld, parse_action
from .cards import CARD_NAMES, FULL_MASK, format_cards, lowest_bit, mask_of, parse_cards
from .deck import deck_of
from .melds import MeldTable, meld_table
from . import native
from .record import GameRecord, snapshot
from .rules import GAMEWEAVE, Rules, find_profile
from .state import (
    HAND_SIZE, PH_FORCED, PH_OVER, PH_TAKE, PH_THROW, PH_TURN, PH_TURNED, PLAYING, STOCK_START,
    TABLAS, WIN_COUNT, WON, GameState,
)
from .view import seat_view

MAX_ACTIONS_PER_DEAL = 2000
"""A bound no deal can reach: every action consumes a stock card, moves a card to a
table, or is a throw/refuse that follows one of those.  Exceeding it means a loop."""


def _cards(spec: str | Iterable[int]) -> list[int]:
    return parse_cards(spec) if isinstance(spec, str) else list(spec)


def build_deck(
    opener_hand: str | Iterable[int],
    other_hand: str | Iterable[int],
    stock: str | Iterable[int] = (),
) -> tuple[int, ...]:
    """A 40-card deck order (R8) that deals ``opener_hand`` to the opener and
    ``other_hand`` to the other seat, with ``stock`` on top of the stock (first = top,
    card 21).  Every card not named goes to the bottom of the stock in hand order (R4).

    Hands and stock are card text (``"Ah 2h 3h"``, any case, R3) or card ints; each hand
    must have exactly ten cards.  Raises :class:`ValueError` if a hand is not ten
    cards or a card is named twice (and :class:`~gameweave.engine.UnparsableError`,
    also a ValueError, for bad card text).

    Example: ``GameState.new(build_deck("4h 5h Qs ...", "...", "6h"))``.
    """
    a, b, top = _cards(opener_hand), _cards(other_hand), _cards(stock)
    if len(a) != HAND_SIZE or len(b) != HAND_SIZE:
        raise ValueError(f"each hand must have {HAND_SIZE} cards (got {len(a)} and {len(b)})")
    named = a + b + top
    if len(set(named)) != len(named):
        dup = sorted({c for c in named if named.count(c) > 1})
        raise ValueError("cards named twice: " + " ".join(CARD_NAMES[c] for c in dup))
    rest = [c for c in range(40) if c not in set(named)]
    return tuple(deck_of(a, b, top + rest))


def _fail(state: GameState, msg: str) -> None:
    raise AssertionError(f"{msg}\n  in {state!r}, after {len(state.history)} actions: "
                         + json.dumps([format_action(a) for a in state.history[-6:]]))


def check_invariants(state: GameState, *, views: bool = True) -> None:
    """Assert every invariant of a reachable state; raise :class:`AssertionError` with a
    message naming the broken rule and the last actions.

    Checks: the 40 cards are conserved and no card is in two places (R1: hands, melds,
    the centre card, dead cards and the unturned stock partition the pack); every meld is
    legal (R5, R6) and melds are kept in §VII order; table counts match; table + hand is
    ten for each seat between turns and eleven for the seat that must throw (R16); phase,
    status, winner and centre card agree (R10-R17); legal actions are non-empty exactly
    while the deal is being played; tablas only with an empty stock (R17).  With
    ``views`` (default) also that neither seat's view (R21) names a card of the
    opponent's hand or of the unturned stock while the deal is played.  A deal ended
    outside play (resigned, :meth:`~GameState.concede`, or closed,
    :meth:`~GameState.close`: R20) is no state of play and fails them.
    """
    tab = meld_table(state.rules.max_sequence)
    _check_cards(state, tab)
    _check_tables(state, tab)
    legal = state.legal_actions()
    if state.phase == PH_OVER:
        _check_over(state, legal)
        return
    _check_playing(state, legal)
    if views:
        for s in (0, 1):
            _check_view(state, s)


def _check_cards(state: GameState, tab: MeldTable) -> None:
    """R1, R8: the deck is the pack, and hands, melds, the centre and forced cards, the
    dead cards and the unturned stock partition it; R5, R6, §VII: every meld is legal,
    within the profile's cap, in order of its lowest card."""
    if len(state.deck) != 40 or mask_of(state.deck) != FULL_MASK:
        _fail(state, "R8: the deck order is not the 40 cards of the pack")
    if not STOCK_START <= state.stock_pos <= 40:
        _fail(state, f"stock position {state.stock_pos} outside 20..40")
    if len(state.history) != len(state.actors):
        _fail(state, "history and actors differ in length")
    cap = state.rules.max_sequence
    places: list[tuple[str, int]] = [
        ("seat 1's hand", state.hands[0]), ("seat 2's hand", state.hands[1]),
        ("dead cards", state.dead), ("stock", mask_of(state.deck[state.stock_pos:])),
    ]
    for s in (0, 1):
        prev_low = -1
        for n, m in enumerate(state.melds[s], 1):
            if not tab.is_meld(m):
                _fail(state, f"R5/R6: seat {s + 1}'s meld {n} [{format_cards(m)}] is not a legal meld")
            low = lowest_bit(m).bit_length() - 1
            if low <= prev_low:
                _fail(state, f"§VII: seat {s + 1}'s melds are not in order of their lowest card")
            if cap is not None and m.bit_count() > cap:
                _fail(state, f"R6: seat {s + 1}'s meld {n} is longer than {cap}")
            prev_low = low
            places.append((f"seat {s + 1}'s meld {n}", m))
    for name, card in (("the centre", state.card), ("the forced card", state.forced)):
        if card >= 0:
            places.append((name, 1 << card))
    seen = 0
    for name, m in places:
        if seen & m:
            _fail(state, f"R1: {format_cards(seen & m)} in two places (one is {name})")
        seen |= m
    if seen != FULL_MASK:
        _fail(state, f"R1: cards lost: {format_cards(FULL_MASK & ~seen)}")


def _check_tables(state: GameState, tab: MeldTable) -> None:
    """Each seat's table mask, count and extensions (R15) match its melds; table + hand
    is ten, eleven for the seat that must throw and for the winner (R16)."""
    for s in (0, 1):
        tm = 0
        e = 0
        for m in state.melds[s]:
            tm |= m
            e |= tab.ext[m]
        if tm != state.table_cards[s]:
            _fail(state, f"seat {s + 1}: the table-cards mask is stale")
        t = tm.bit_count()
        if state.table_counts[s] != t:
            _fail(state, f"seat {s + 1}: table count {state.table_counts[s]} but {t} cards on the table")
        if state.extensions[s] != e:
            _fail(state, f"R15: seat {s + 1}'s extension mask is stale")
        size = t + state.hands[s].bit_count()
        want = HAND_SIZE + (1 if (state.phase == PH_THROW and state.to_act == s)
                            or (state.status == WON and state.winner == s) else 0)
        if size != want:
            _fail(state, f"R16: seat {s + 1} has table + hand = {size}, expected {want}")


def _check_over(state: GameState, legal: list[int]) -> None:
    """R16, R17: a finished deal is won by a seat with eleven melded cards and none in
    hand, or tablas with an empty stock; nobody acts, nothing is legal."""
    if state.status not in (WON, TABLAS) or state.to_act != -1 or state.card != -1:
        _fail(state, "a finished deal must be won or tablas, with nobody to act and no centre card")
    if legal:
        _fail(state, "legal actions after the deal is over")
    if state.status == WON:
        if state.winner not in (0, 1) or state.table_counts[state.winner] != WIN_COUNT:
            _fail(state, "R16: a won deal needs a winner with eleven melded cards")
        if state.hands[state.winner]:
            _fail(state, "R16: the winner still holds cards")
    elif state.winner != -1 or state.stock_pos != 40:
        _fail(state, "R17: tablas only once the stock is empty, with no winner")


_PHASE_CHECKS: dict[int, tuple[Callable[[GameState], bool], str]] = {
    PH_TURN: (lambda st: st.card == -1 and not st.history,
              "R10: decision 'turn' only opens the deal, with an empty centre"),
    PH_TAKE: (lambda st: st.card >= 0 and st.live_from == 1 - st.to_act,
              "R10: 'take_or_turn' needs a live card let go by the opponent"),
    PH_TURNED: (lambda st: st.card >= 0 and st.live_from == -1 and st.card == st.deck[st.stock_pos - 1],
                "R10: 'meld_or_refuse' needs the card just turned from the stock"),
    PH_THROW: (lambda st: st.card == -1 and bool(st.hands[st.to_act]),
               "R13: 'throw' needs an empty centre and a card to throw"),
    PH_FORCED: (lambda st: st.card == -1 and st.forced >= 0 and st.rules.rearranging,
                "R18e: decision 'meld' needs a forced card, nothing live, a profile that rearranges"),
}
"""Per decision: what must hold of the centre card (R10-R18e), and the message if not."""


def _check_playing(state: GameState, legal: list[int]) -> None:
    """A deal being played: a seat to act, no winner, distinct legal actions, nobody at
    eleven (R16), the centre card as the decision needs it, a forced card only in
    decision ``meld`` (R18e), the refused mark only on a card just refused (R19)."""
    if state.status != PLAYING or state.winner != -1 or state.to_act not in (0, 1):
        _fail(state, "a deal being played must have status 'playing', no winner, a seat to act")
    if not legal:
        _fail(state, "no legal action while the deal is being played")
    if len(set(legal)) != len(legal):
        _fail(state, "an action is listed twice among the legal actions")
    if max(state.table_counts) >= WIN_COUNT:
        _fail(state, "R16: a seat has eleven melded cards but the deal goes on")
    holds, message = _PHASE_CHECKS[state.phase]
    if not holds(state):
        _fail(state, message)
    if state.phase != PH_FORCED and state.forced != -1:
        _fail(state, "R18e: a forced card waits outside decision 'meld'")
    if state.refused and (state.phase != PH_TAKE or state.history[-1] != REFUSE):
        _fail(state, "R19: only a live card just refused is marked refused")


def _check_view(state: GameState, seat: int) -> None:
    """R21: the JSON of seat's view names no card of the opponent's hand or the stock."""
    hidden = state.hands[1 - seat] | mask_of(state.deck[state.stock_pos:])
    d = seat_view(state, seat).to_dict()
    if d["opponent_hand"] is not None:
        _fail(state, f"R21: seat {seat + 1}'s view shows the opponent's hand while playing")
    text = json.dumps(d)
    for c in range(40):
        if hidden >> c & 1 and f'"{CARD_NAMES[c]}"' in text:
            _fail(state, f"R21: seat {seat + 1}'s view names the hidden card {CARD_NAMES[c]}")
        if hidden >> c & 1 and f" {CARD_NAMES[c]}" in text:
            _fail(state, f"R21: seat {seat + 1}'s view names the hidden card {CARD_NAMES[c]}")


def same_state(a: GameState, b: GameState) -> bool:
    """True if two states are identical in every field that matters (deck, hands,
    melds, centre, dead cards, phase, status, history)."""
    return (
        a.rules == b.rules and a.deck == b.deck and a.opener == b.opener
        and a.hands == b.hands and a.melds == b.melds and a.table_counts == b.table_counts and a.table_cards == b.table_cards and a.forced == b.forced and a.refused == b.refused
        and a.stock_pos == b.stock_pos and a.to_act == b.to_act and a.phase == b.phase
        and a.card == b.card and a.live_from == b.live_from and a.dead == b.dead
        and a.status == b.status and a.winner == b.winner and a.history == b.history
        and a.actors == b.actors and snapshot(a) == snapshot(b)
    )


def choose_action(rng: random.Random, legal: Sequence[int], eager: float = 0.0) -> int:
    """A random action of ``legal`` (non-empty): with probability ``eager`` one that moves
    the deal on (a meld, R12, or a forcing throw or refusal, R15) when there is one,
    otherwise any, uniformly."""
    if eager and rng.random() < eager:
        keen = [x for x in legal if is_meld(x) or is_forcing(x)]
        if keen:
            return rng.choice(keen)
    return rng.choice(legal)


def play_random_deal(
    rng: random.Random,
    state: GameState | None = None,
    *,
    check: bool = True,
    checked_every: int = 3,
    eager: float = 0.0,
    rules: Rules | str = GAMEWEAVE,
    native_twin: bool = False,
) -> GameState:
    """Play one deal with random legal actions from ``rng`` to the end.

    Actions come from :func:`choose_action` with ``eager`` (0..1): the higher it is, the
    more often wins (R16) and forcing chains (R15) happen.

    With ``check``, :func:`check_invariants` runs before every action and at the end,
    and every ``checked_every``-th action goes through the checked path
    (``state.play(text)``) after a round trip through the notation (§VII).  Returns the
    finished state.  Raises :class:`AssertionError` if anything breaks, including a deal
    longer than :data:`MAX_ACTIONS_PER_DEAL`.  ``rules`` is the profile of a new deal
    when ``state`` is None.

    With ``native_twin`` (issue 21) the native core plays the same deal beside it
    (:func:`gameweave.engine.native.from_state`), and before every action and at the end
    its legal actions (same order) and every field of its state must equal the Python
    engine's; raises :class:`RuntimeError` if the native core is not available.
    """
    if state is None:
        state = GameState.new(seed=rng.randrange(1 << 32), opener=rng.randrange(2), rules=rules)
    twin = native.from_state(state) if native_twin else None
    n = 0
    while not state.is_over:
        if check:
            check_invariants(state, views=(n % 4 == 0))
        legal = state.legal_actions()
        if twin is not None:
            _same_as_native(state, twin, legal)
        a = choose_action(rng, legal, eager)
        if twin is not None:
            twin.apply(a)
        if check and n % checked_every == 0:
            text = format_action(a)
            if parse_action(text, state.rules) != a:
                _fail(state, f"§VII: {text!r} does not parse back to its action")
            state.play(text, seat=state.to_act)
        else:
            state.apply(a)
        n += 1
        if n > MAX_ACTIONS_PER_DEAL:
            _fail(state, "the deal does not end")
    if check:
        check_invariants(state)
    if twin is not None:
        _same_as_native(state, twin, [])
    return state


def _same_as_native(state: GameState, twin: Any, legal: list[int]) -> None:
    """Fail unless the native twin has the same legal actions, in order, and the same
    fields as ``state`` (issue 21: the native core is the Python engine compiled)."""
    if twin.legal_actions() != legal:
        _fail(state, "native core: other legal actions than the Python engine")
    if twin.snapshot() != native.snapshot(state):
        _fail(state, "native core: another state than the Python engine")


def perft(state: GameState, depth: int) -> int:
    """Number of distinct legal action sequences of exactly ``depth`` actions from
    ``state`` (ARCHITECTURE idea 8); ``state`` is not changed."""
    if depth == 0:
        return 1
    legal = state.legal_actions()
    if depth == 1:
        return len(legal)
    total = 0
    for a in legal:
        child = state.clone()
        child.apply(a)
        total += perft(child, depth - 1)
    return total


def random_deal_check(seed: int | str, n_deals: int, rules: Rules | str = GAMEWEAVE,
                      native_twin: bool = False) -> dict[str, Any]:
    """Play ``n_deals`` random deals (deterministic from ``seed``), checking invariants
    at each step (:func:`check_invariants`), that each deal ends, and that its record
    replays to the identical state (§VII).

    Deals are of profile ``rules`` (§V).  Every other deal is played eagerly (see :func:`play_random_deal`) so that wins and
    forcing chains are exercised as well as tablas.  Returns counts: ``{"deals",
    "actions", "won", "tablas", "forces", "max_actions"}`` (and ``"native": True`` when
    ``native_twin``: every deal also played and compared step by step on the native
    core, see :func:`play_random_deal`).  Raises :class:`AssertionError` on the first
    violation, :class:`RuntimeError` for ``native_twin`` without the native core.
    """
    rules = find_profile(rules)
    rng = random.Random(seed)
    out = {"deals": 0, "actions": 0, "won": 0, "tablas": 0, "forces": 0, "max_actions": 0}
    for i in range(n_deals):
        st = play_random_deal(rng, eager=0.9 if i % 2 else 0.0, rules=rules, native_twin=native_twin)
        rec = GameRecord.from_state(st)
        again = GameRecord.from_json(rec.to_json()).replay()
        if not same_state(st, again):
            _fail(st, "§VII: record -> replay does not give the identical state")
        out["deals"] += 1
        out["actions"] += len(st.history)
        out["max_actions"] = max(out["max_actions"], len(st.history))
        out["won" if st.status == WON else "tablas"] += 1
        out["forces"] += sum(1 for a in st.history if is_forcing(a))
    if native_twin:
        out["native"] = True
    return out
