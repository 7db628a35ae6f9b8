"""A reference move generator written from RULES.md, not from the engine (R5, R6, R10-R19):
the property tests compare the engine's legal actions and outcomes with it.

Cards are named by text, melds are checked by their definition (R5, R6) on lists of
cards, and the R18 tables are found by a different algorithm from the engine's (the engine
covers the lowest required card first; here every family of pairwise disjoint melds inside
the pool of cards is listed and the families that cover the required cards are kept).
"""

from __future__ import annotations

import itertools

from gameweave.engine import CARD_NAMES, GameState, format_action


def rank(c: int) -> int:
    return "A234567JQK".index(CARD_NAMES[c][0])


def suit(c: int) -> str:
    return CARD_NAMES[c][1]


def is_meld_by_definition(cards: list[int], cap: int | None = None) -> bool:
    """R5/R6 written out directly (no tables): 3-4 of one rank, or 3+ consecutive
    positions of one suit, at most ``cap`` long (R6's max_sequence; None = no cap)."""
    if len(cards) < 3 or len(set(cards)) != len(cards):
        return False
    ranks = sorted(rank(c) for c in cards)
    if len(set(ranks)) == 1:
        return len(cards) <= 4
    if cap is not None and len(cards) > cap:
        return False
    return len({suit(c) for c in cards}) == 1 and ranks == list(range(ranks[0], ranks[0] + len(ranks)))


def cards_in(mask: int) -> list[int]:
    return [c for c in range(40) if mask >> c & 1]


def in_hand_order(cards) -> list[int]:
    """R4: by rank position, then suit c < d < h < s."""
    return sorted(cards, key=lambda c: (rank(c), "cdhs".index(suit(c))))


def melds_within(pool: list[int], cap: int | None) -> list[frozenset]:
    """Every legal meld (R5, R6 with the cap) made of cards of ``pool``."""
    out = []
    by_rank: dict[int, list[int]] = {}
    by_suit: dict[str, list[int]] = {}
    for c in pool:
        by_rank.setdefault(rank(c), []).append(c)
        by_suit.setdefault(suit(c), []).append(c)
    for same in by_rank.values():
        for size in (3, 4):
            for combo in itertools.combinations(same, size):
                out.append(frozenset(combo))
    for same in by_suit.values():
        have = {rank(c): c for c in same}
        for lo in range(10):
            for hi in range(lo + 2, 10):
                if all(r in have for r in range(lo, hi + 1)):
                    run = [have[r] for r in range(lo, hi + 1)]
                    if is_meld_by_definition(run, cap):
                        out.append(frozenset(run))
    assert all(is_meld_by_definition(list(m), cap) for m in out)
    return out


def disjoint_families(melds: list[frozenset]):
    """Every family (set) of pairwise disjoint melds of ``melds``, each once."""
    def rec(i: int, used: frozenset, chosen: list):
        yield list(chosen)
        for j in range(i, len(melds)):
            if not melds[j] & used:
                chosen.append(melds[j])
                yield from rec(j + 1, used | melds[j], chosen)
                chosen.pop()
    yield from rec(0, frozenset(), [])


def table_text(table) -> str:
    """§VII canonical text of an R18 table: each meld in hand order, melds by lowest card."""
    ordered = sorted((in_hand_order(m) for m in table), key=lambda m: (rank(m[0]), "cdhs".index(suit(m[0]))))
    return "meld " + " / ".join(" ".join(CARD_NAMES[c] for c in m) for m in ordered)


def r18_tables(table_cards: list[int], card: int, hand: list[int], cap: int | None) -> set[str]:
    """R18a-c: every partition into legal melds of the table cards, the card and any hand
    cards (none to all), as §VII texts; each table once (R18b)."""
    required = frozenset(table_cards) | {card}
    out = set()
    for fam in disjoint_families(melds_within(list(required) + hand, cap)):
        covered = frozenset().union(*fam) if fam else frozenset()
        if required <= covered:
            out.add(table_text(fam))
    return out


def r18_forceable(table_cards: list[int], card: int, cap: int | None) -> bool:
    """R18e: some partition of the table plus that card alone is legal."""
    pool = frozenset(table_cards) | {card}
    return any(frozenset().union(*fam) == pool if fam else False
               for fam in disjoint_families(melds_within(list(pool), cap)))


def r12_meld_choices(state: GameState, seat: int, card: int) -> set[str]:
    """R12 (gameweave): additions, sets (first two in hand order), runs."""
    hand = in_hand_order(cards_in(state.hands[seat]))
    own = [cards_in(m) for m in state.melds[seat]]
    cap = state.rules.max_sequence
    out = set()
    for m in own:  # additions to one's own melds (R12)
        if is_meld_by_definition(m + [card], cap):
            out.add(" ".join(CARD_NAMES[c] for c in in_hand_order(m + [card])))
    same = [c for c in hand if rank(c) == rank(card)]  # sets: the first two in hand order
    if len(same) >= 2:
        out.add(" ".join(CARD_NAMES[c] for c in in_hand_order([card] + same[:2])))
    if len(same) == 3:
        out.add(" ".join(CARD_NAMES[c] for c in in_hand_order([card] + same)))
    by_rank = {rank(c): c for c in hand if suit(c) == suit(card)}
    by_rank[rank(card)] = card
    r = rank(card)
    for lo in range(0, r + 1):  # every run containing the card, the rest from the hand
        for hi in range(r, 10):
            if all(k in by_rank for k in range(lo, hi + 1)):
                run = [by_rank[k] for k in range(lo, hi + 1)]
                if is_meld_by_definition(run, cap):
                    out.add(" ".join(CARD_NAMES[c] for c in run))
    return {"meld " + x for x in out}


def reference_meld_choices(state: GameState, seat: int, card: int) -> set[str]:
    if not state.rules.rearranging:
        return r12_meld_choices(state, seat, card)
    return r18_tables(cards_in(state.table_mask(seat)), card, cards_in(state.hands[seat]),
                      state.rules.max_sequence)


def reference_forces(state: GameState, target: int, card: int) -> list[str]:
    """The force suffixes by which ``card`` can be put on ``target`` (R15 / R18e)."""
    cap = state.rules.max_sequence
    if state.rules.rearranging:
        return [" force"] if r18_forceable(cards_in(state.table_mask(target)), card, cap) else []
    return [f" force {n}" for n, m in enumerate(state.melds[target], 1)
            if is_meld_by_definition(cards_in(m) + [card], cap)]


def reference_force_back(state: GameState) -> bool:
    """R19: the live card is a turned card its turner refused (the last action was a plain
    ``refuse``), the profile forces back, and it fits a partition of the refuser's table."""
    last = format_action(state.history[-1]) if state.history else ""
    return (state.rules.name == "anglo-american" and last == "refuse"
            and r18_forceable(cards_in(state.table_mask(1 - state.to_act)), state.card,
                              state.rules.max_sequence))


def reference_legal(state: GameState) -> set[str]:
    """The legal actions of ``state`` as RULES R10-R19 describe them, written
    independently of the engine's move generator."""
    if state.decision is None:
        return set()
    seat, opp = state.to_act, 1 - state.to_act
    hand = cards_in(state.hands[seat])
    d = state.decision
    if d == "turn":
        return {"turn"}
    if d == "take_or_turn":
        out = reference_meld_choices(state, seat, state.card) | {"turn"}
        if reference_force_back(state):
            out.add("force")
        return out
    if d == "meld_or_refuse":
        return reference_meld_choices(state, seat, state.card) | {"refuse"} | {
            "refuse" + f for f in reference_forces(state, opp, state.card)}
    if d == "meld":  # R18e: a forced card cannot be refused
        assert state.rules.rearranging
        return reference_meld_choices(state, seat, state.forced)
    assert d == "throw"
    return {f"throw {CARD_NAMES[c]}" for c in hand} | {
        f"throw {CARD_NAMES[c]}" + f for c in hand for f in reference_forces(state, opp, c)}


def reference_outcome(before: GameState, text: str) -> tuple[str, int]:
    """(status, winner) after ``text`` is played in ``before``, by R16, R17, R18f, R19."""
    seat, opp = before.to_act, 1 - before.to_act
    words = text.split()
    if words[0] == "meld":
        listed = {parse_card_text(w) for w in words[1:] if w != "/"}
        if before.rules.rearranging:  # R18f: the whole new table is listed
            n = len(listed)
        else:  # R12: the table grows by the card and the hand cards it brings
            n = before.table_counts[seat] + 1 + len(listed & set(cards_in(before.hands[seat])))
        return ("won", seat) if n == 11 else ("playing", -1)
    if words[0] == "turn":
        return ("tablas", -1) if before.stock_count == 0 else ("playing", -1)
    if words[-1] != "force" and "force" in words:
        # gameweave: the forced card joins the named meld at once (R15); eleven wins (R16)
        return ("won", opp) if before.table_counts[opp] + 1 == 11 else ("playing", -1)
    if "force" in words:
        return ("playing", -1)  # R18e / R19: the forced seat decides 'meld' next
    # a plain refuse or throw: the card goes live for the opponent (R11, R13); with the
    # stock empty it is tablas unless they can meld it or force it back (R17, R19).  The
    # opponent's hand and table are those of ``before``.
    if before.stock_count:
        return ("playing", -1)
    card = before.card if words[0] == "refuse" else parse_card_text(words[1])
    can = reference_meld_choices(before, opp, card)
    back = (words[0] == "refuse" and before.rules.name == "anglo-american"
            and r18_forceable(cards_in(before.table_mask(seat)), card, before.rules.max_sequence))
    return ("playing", -1) if can or back else ("tablas", -1)


def parse_card_text(w: str) -> int:
    return CARD_NAMES.index(w[0].upper() + w[1].lower())
