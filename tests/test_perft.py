"""Perft counts (ARCHITECTURE idea 8): the number of distinct legal action sequences of
exactly d actions from the start of hand-built deals, d = 1..6, three deals per rule
profile, pinned in tests/data/perft.json (regenerate with tests/data/gen_perft.py only
on purpose).

The deals are built so that melds (R12, R18) and forcing (R15, R18e) appear within six
actions, and per profile that rearranges the R18 decisions (a table re-partitioned, the
forced seat's ``meld``) and, for anglo-american, the R19 force back (from a recorded
prefix: it cannot arise before the eighth action of a deal); a change in the rules
engine that alters any choice anywhere shows up here.
"""

import json
from pathlib import Path

import pytest

from gameweave.engine import (
    PROFILE_NAMES, GameState, format_action, is_forcing, is_meld, kind_of, table_of,
    validate_deck,
)
from gameweave.engine.actions import FORCE_KIND
from gameweave.engine.conformance import perft

DATA = json.loads((Path(__file__).parent / "data" / "perft.json").read_text(encoding="utf-8"))


def start(deal: dict) -> GameState:
    st = GameState.new(deal["deck"], opener=deal["opener"] - 1, rules=deal["rules"])
    for a in deal.get("prefix", []):
        st.play(a)
    return st


def deal_named(name: str) -> dict:
    [deal] = [d for d in DATA["deals"] if d["name"] == name]
    return deal


def test_perft_file_has_three_literal_deals_per_profile_to_depth_six():
    assert DATA["max_depth"] == 6
    for rules in PROFILE_NAMES:
        assert len([d for d in DATA["deals"] if d["rules"] == rules]) == 3, rules
    for deal in DATA["deals"]:
        assert len(deal["deck"].split()) == 40
        validate_deck(deal["deck"])
        assert len(deal["perft"]) == 6


@pytest.mark.parametrize("deal", DATA["deals"], ids=lambda d: f"{d['rules']}: {d['name']}")
def test_r10_r19_perft_counts_match_the_pinned_numbers(deal):
    st = start(deal)
    assert [perft(st, d) for d in range(1, DATA["max_depth"] + 1)] == deal["perft"]


def kinds_within(deal: dict, depth: int = 6) -> set[str]:
    """What the legal actions of every position up to ``depth`` actions deep offer."""
    kinds: set[str] = set()
    frontier = [start(deal)]
    for _ in range(depth):
        nxt = []
        for st in frontier:
            if st.decision == "meld":
                kinds.add("forced meld")  # R18e: the forced seat's decision
            for a in st.legal_actions():
                text = format_action(a)
                kinds.add(text.split()[0])
                if is_forcing(a):
                    kinds.add("force back" if kind_of(a) == FORCE_KIND else "force")
                if is_meld(a) and st.rules.rearranging:
                    old = st.melds[st.to_act]
                    if any(m not in table_of(a) for m in old):
                        kinds.add("rearrange")  # R18: a table meld is re-partitioned
                    if len(table_of(a)) > 1 and sum(1 for m in table_of(a) if m not in old) > 1:
                        kinds.add("hand-only meld")  # R18a (the card lies in one of them)
                child = st.clone()
                child.apply(a)
                nxt.append(child)
        frontier = nxt
    return kinds


@pytest.mark.parametrize("rules", PROFILE_NAMES)
def test_r12_r15_r18_r19_perft_deals_reach_each_rule_within_six_actions(rules):
    deals = [d for d in DATA["deals"] if d["rules"] == rules]
    seen = [kinds_within(d) for d in deals]
    for deal, kinds in zip(deals, seen):
        assert {"meld", "throw", "refuse", "turn"} <= kinds, deal["name"]
    union = set().union(*seen)
    assert "force" in union
    if rules == "gameweave":
        assert not {"rearrange", "forced meld", "force back", "hand-only meld"} & union
    else:
        assert {"rearrange", "forced meld", "hand-only meld"} <= union
    assert ("force back" in union) == (rules == "anglo-american")


def test_perft_hand_count_forcing_chain_deal():
    # Deal "forcing chain": A (seat 1) holds 6h 7h 6c 2c Ad 2s 3d Jd Qs Kd, B holds
    # 3c 4c 5h 4h Ks 7s Js Qh 6d 7d, and 5c tops the stock.
    # depth 1: the deal opens with decision 'turn' -> 1 sequence ("turn").
    # depth 2: A sees 5c.  A cannot meld it (one five only; no 4c or 7c next to 6c) and
    #          B has no meld to force it onto -> only "refuse" -> 1.
    # depth 3: B may take the live 5c with 3c 4c (no other five: B holds only 5h) or let
    #          it die and turn -> "meld 3c 4c 5c", "turn" -> 2.
    # depth 4: after the meld B throws one of its 8 cards (A has no meld: no force) = 8;
    #          after "turn" B sees the next stock card, Ac (the unnamed cards fill the
    #          stock in hand order), which B can only refuse (B holds no ace, and 2c is
    #          A's) = 1 -> 9.
    deal = deal_named("forcing chain")
    assert [perft(start(deal), d) for d in (1, 2, 3, 4)] == [1, 1, 2, 9] == deal["perft"][:4]


def test_perft_hand_count_six_runs_deal():
    # Deal "six runs": A holds 3h 4h 6h 7h (and Ks Kc 2c 3d Qc Jd), 5h tops the stock.
    # depth 1: "turn" -> 1.
    # depth 2: every run of hearts containing 5h whose other cards A holds:
    #          3-4-5, 3-4-5-6, 3-4-5-6-7, 4-5-6, 4-5-6-7, 5-6-7 (6 melds) + "refuse" -> 7.
    # depth 3: after each meld A throws any hand card; hand left = 10 - cards used:
    #          8 + 7 + 6 + 8 + 7 + 8 = 44 (B has no meld: no force); after "refuse" B
    #          cannot meld 5h (holds 2h Jh only) -> "turn" only -> 44 + 1 = 45.
    deal = deal_named("six runs")
    assert [perft(start(deal), d) for d in (1, 2, 3)] == [1, 7, 45] == deal["perft"][:3]


def test_perft_hand_count_classic_seed_004_split_deal():
    # Deal "seed 004 split" (classic): A holds 3h 4h 6h 6c Ac 2s 3d Jd Qs Kd, B holds
    # Ad As 2c 2d 3c 3s 4c 4d Jc Qc; 5h then 6d top the stock.
    # depth 1: "turn" -> 1.
    # depth 2: tables holding 5h: the runs 3-4-5, 3-4-5-6, 4-5-6 (6c joins no heart run,
    #          and A has no other five; no meld of hand cards alone) + "refuse" -> 4.
    # depth 3: A throws a hand card: 8, 7, 8 cards left (B has no table: no force); after
    #          "refuse" B cannot meld 5h -> "turn" -> 8 + 7 + 8 + 1 = 24.
    deal = deal_named("seed 004 split")
    assert [perft(start(deal), d) for d in (1, 2, 3)] == [1, 4, 24] == deal["perft"][:3]


def test_perft_hand_count_classic_forced_meld_after_a_throw_deal():
    # Deal "forced meld after a throw" (classic): A holds 3c 4c 6c 3d 4d 5d 6d Qc 7h Jh
    # and turns 5c.
    # depth 2: 5c lies in a club run 3-4-5, 3-4-5-6 or 4-5-6 (3 ways); beside it the
    #          diamonds make no meld, 3-4-5, 3-4-5-6 or 4-5-6 (4 ways, R18a); no set of
    #          fives or sixes (two of each at most) -> 12 tables + "refuse" -> 13.
    # depth 3: cards left in hand after each table: 10 - clubs used (2, 3, 2) - diamonds
    #          used (0, 3, 4, 3) summed = 120 - 4*7 - 3*10 = 62 throws (B has no table);
    #          after "refuse" B cannot meld 5c -> "turn" -> 63.
    deal = deal_named("forced meld after a throw")
    assert [perft(start(deal), d) for d in (1, 2, 3)] == [1, 13, 63] == deal["perft"][:3]


def test_perft_hand_count_classic_every_set_of_three_deal():
    # Deal "every set of three, seat 2 opens" (classic): seat 2 holds 5d 5h 5s 6c 7c Qc Qs
    # 2s 3s Kd and turns 5c.
    # depth 2: 5c with two of 5d 5h 5s (3 sets, R18b: not only the first two), the set of
    #          four, the run 5c 6c 7c, and that run beside the hand-only set 5d 5h 5s
    #          -> 6 tables + "refuse" -> 7.
    # depth 3: hand left 8, 8, 8, 7, 8, 5 -> 44 throws (seat 1 has no table); after
    #          "refuse" seat 1 cannot meld 5c (holds 4c but no 3c or 6c) -> 45.
    deal = deal_named("every set of three, seat 2 opens")
    assert [perft(start(deal), d) for d in (1, 2, 3)] == [1, 7, 45] == deal["perft"][:3]


def test_perft_hand_count_anglo_american_128_choice_deal():
    # Deal "the 128-choice position" (anglo-american): depth 1 "turn"; depth 2 the 128
    # tables of RULES R18b (counted by hand in test_rules_r18) + "refuse" -> 129.
    deal = deal_named("the 128-choice position")
    assert [perft(start(deal), d) for d in (1, 2)] == [1, 129] == deal["perft"][:2]


def test_perft_hand_count_anglo_american_forced_meld_after_a_refusal_deal():
    # Deal "forced meld after a refusal" (anglo-american): A holds 3c 4c 6c 3d 4d 5d 6d 7h
    # Jh Kc; B holds Ac Ad 2s 3s 4h Qc Qd Js Ks 7s; 5c then 6h top the stock.
    # depth 2, 3: as in the classic deal above (12 tables + refuse; 62 throws + B's turn).
    # depth 4: B can meld none of A's throws (B holds one 3, 4, 7, J, K of another suit
    #          at most, no clubs or diamonds) -> 62 "turn"s; after refuse/turn B sees 6h
    #          and can only refuse (A has no table to force it on) -> 63.
    # depth 5: on the 62 lines B sees 6h: it can be forced (R18e) only onto the table
    #          3c 4c 5c 6c / 3d 4d 5d 6d (-> 3c 4c 5c / 3d 4d 5d / 6c 6d 6h), which leaves
    #          3 cards to throw: 3 lines x {refuse, refuse force} + 59 x {refuse} = 65;
    #          on the other line A may take 6h: 6c 6d 6h beside none or 3d 4d 5d, or
    #          6h 7h Jh beside none, 3-4-5, 3-4-5-6 or 4-5-6 of diamonds (6), or "turn";
    #          no force back (the refuser, B, has no table) -> 7.  65 + 7 = 72.
    deal = deal_named("forced meld after a refusal")
    assert [perft(start(deal), d) for d in (1, 2, 3, 4, 5)] == [1, 13, 63, 63, 72] == deal["perft"][:5]


def test_perft_hand_count_anglo_american_force_back_deal():
    # Deal "force back after a re-partition" (anglo-american), after its 7-action prefix:
    # B (table 3c 4c 5c 6c / 3d 4d 5d 6d, hand 7h Jh) has turned 6h.
    # depth 1: 3c 4c 5c / 3d 4d 5d / 6c 6d 6h, 3c 4c 5c 6c / 3d 4d 5d 6d / 6h 7h Jh (eleven,
    #          wins), "refuse" (A has no table: no force) -> 3.
    # depth 2: after the first table B throws 7h or Jh (2); the win ends the deal (0);
    #          after "refuse" A cannot meld 6h but may force it back (R19) or turn -> 4.
    # depth 3: A takes 7h with 7s 7d or turns (2); Jh: turn (1); after "force" B melds
    #          6h (the same 2 tables); after "turn" A sees Ad (first unnamed card) and
    #          can only refuse (1) -> 6.
    deal = deal_named("force back after a re-partition")
    assert [perft(start(deal), d) for d in (1, 2, 3)] == [3, 4, 6] == deal["perft"][:3]
