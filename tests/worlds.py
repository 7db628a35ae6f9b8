"""Test helpers (R21): a second state with the same view for a seat but other hidden cards.

Two ways, for two questions.  Another deck, replayed through the engine, so the view it
gives is the engine's own (does the view ignore hidden cards?): :func:`swapped_state`
swaps one of the opponent's cards with a stock card (the first swap that replays), and
:func:`hidden_variant` swaps some at random and shuffles the stock (the property tests').
From the view: :func:`other_world_state` builds the state with ``state_from_view``, as the
bots' samplers do, from another informed sample (do the bots answer from the view only?).
For the research layer, :func:`research_twins`: two research deals after one public
history, the second resampled for the seat to act."""

from __future__ import annotations

import random

from gameweave.bots.determinize import sample_informed, world_state
from gameweave.engine import GameState, IllegalActionError, seat_view


def other_world_state(st: GameState, seat: int, rng: random.Random) -> GameState | None:
    """A state with the same view for ``seat`` as ``st`` but a different opponent hand,
    built through ``state_from_view`` from another informed sample (``world_state``);
    None when 20 samples all dealt the true hand."""
    view = seat_view(st, seat)
    for _ in range(20):
        h, s = sample_informed(view, rng)
        if h != st.hands[1 - seat]:
            return world_state(view, h, s)
    return None


def swapped_state(st: GameState, seat: int) -> GameState | None:
    """A state with the same public history as ``st`` but a different hidden deal: one of
    the opponent's held cards swapped with an unturned stock card in the deck (R8), then
    the same actions replayed.  None when there is nothing to swap."""
    opp = 1 - seat
    deck = list(st.deck)
    held = [i for i in range(20) if st.hands[opp] >> deck[i] & 1]
    stock = list(range(st.stock_pos, 40))
    if not held or not stock:
        return None
    for i in held:
        for j in stock:
            swapped = deck[:]
            swapped[i], swapped[j] = swapped[j], swapped[i]
            other = GameState.new(swapped, opener=st.opener, rules=st.rules)
            try:
                for a in st.history:  # a swap that changes a past choice (R12, R18) is skipped
                    other.play(a)
            except IllegalActionError:
                continue
            return other
    return None


def hidden_variant(state: GameState, history: list, viewer: int, rng: random.Random) -> GameState | None:
    """The same deal with some of the opponent's hand cards swapped with unturned stock
    cards and the unturned stock shuffled, replayed; None if the replay breaks."""
    opp = 1 - viewer
    deck = list(state.deck)
    unturned = list(range(state.stock_pos, 40))
    hand_pos = [i for i in range(20) if state.hands[opp] >> deck[i] & 1]
    for i in rng.sample(hand_pos, rng.randint(0, len(hand_pos)) if unturned else 0):
        j = rng.choice(unturned)
        deck[i], deck[j] = deck[j], deck[i]
    rest = deck[state.stock_pos:]
    rng.shuffle(rest)
    deck[state.stock_pos:] = rest
    other = GameState.new(deck, opener=state.opener, rules=state.rules)
    try:
        for a in history:
            other.play(a)
    except IllegalActionError:
        return None  # the opponent's own choices depended on their hand (e.g. R12 first two)
    return None if other.is_over else other


def research_twins(rules: str, seed: int, steps: int, seat: int | None = None):
    """Two research deals (:class:`gameweave.research.deal.Deal`) after the same public
    history of ``steps`` random steps (chance included, from ``seed``) that differ only in
    the hidden cards of the seat to act — the opponent's hand and the stock order, by
    ``Deal.resample`` — as ``(deal, twin, seat to act)``; None if the deal ended, chance is
    to move, the seat to act is not ``seat`` (when given), or the resample dealt the same
    opponent hand."""
    from gameweave.research.deal import Deal

    rng = random.Random(seed)
    d = Deal(rules)
    for _ in range(steps):
        if d.is_terminal():
            return None
        if d.is_chance():
            d.apply(rng.choice(d.chance_outcomes())[0])
        else:
            d.apply(rng.choice(d.legal_actions()))
    if d.is_chance() or d.is_terminal() or (seat is not None and d.current_player() != seat):
        return None
    me = d.current_player()
    other = d.resample(me, random.Random(seed + 1))
    if other.state.hands[1 - me] == d.state.hands[1 - me]:
        return None
    return d, other, me
