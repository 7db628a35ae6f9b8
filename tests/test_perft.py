"""Perft counts (ARCHITECTURE idea 8): the number of distinct legal action sequences of
exactly d actions from the start of three hand-built deals, d = 1..6, pinned in
tests/data/perft.json (regenerate with tests/data/gen_perft.py only on purpose).

The deals are built so that melds (R12) and forcing (R15) appear within six actions;
a change in the rules engine that alters any choice anywhere shows up here.
"""

import json
from pathlib import Path

import pytest

from gameweave.engine import GameState, format_action, validate_deck
from gameweave.engine.conformance import perft

DATA = json.loads((Path(__file__).parent / "data" / "perft.json").read_text(encoding="utf-8"))




def start(deal: dict) -> GameState:
    return GameState.new(deal["deck"], opener=deal["opener"] - 1, rules=deal["rules"])


def test_perft_file_has_three_literal_deals_to_depth_six():
    assert DATA["max_depth"] == 6 and len(DATA["deals"]) == 3
    for deal in DATA["deals"]:
        assert len(deal["deck"].split()) == 40
        validate_deck(deal["deck"])
        assert len(deal["perft"]) == 6


@pytest.mark.parametrize("deal", DATA["deals"], ids=lambda d: d["name"])
def test_r10_r17_perft_counts_match_the_pinned_numbers(deal):
    st = start(deal)
    assert [perft(st, d) for d in range(1, DATA["max_depth"] + 1)] == deal["perft"]


def test_r12_r15_perft_deals_reach_melds_and_forces_within_six_actions():
    for deal in DATA["deals"]:
        kinds = set()
        frontier = [start(deal)]
        for _ in range(6):
            nxt = []
            for st in frontier:
                for a in st.legal_actions():
                    text = format_action(a)
                    kinds.add("force" if " force " in text else text.split()[0])
                    child = st.clone()
                    child.apply(a)
                    nxt.append(child)
            frontier = nxt
        assert {"meld", "force", "throw", "refuse", "turn"} <= kinds, deal["name"]


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
    deal = DATA["deals"][0]
    assert deal["name"] == "forcing chain"
    st = start(deal)
    assert [perft(st, d) for d in (1, 2, 3, 4)] == [1, 1, 2, 9] == deal["perft"][:4]


def test_perft_hand_count_six_runs_deal():
    # Deal "six runs": A holds 3h 4h 6h 7h (and Ks Kc 2c 3d Qc Jd), 5h tops the stock.
    # depth 1: "turn" -> 1.
    # depth 2: every run of hearts containing 5h whose other cards A holds:
    #          3-4-5, 3-4-5-6, 3-4-5-6-7, 4-5-6, 4-5-6-7, 5-6-7 (6 melds) + "refuse" -> 7.
    # depth 3: after each meld A throws any hand card; hand left = 10 - cards used:
    #          8 + 7 + 6 + 8 + 7 + 8 = 44 (B has no meld: no force); after "refuse" B
    #          cannot meld 5h (holds 2h Jh only) -> "turn" only -> 44 + 1 = 45.
    deal = DATA["deals"][1]
    assert deal["name"] == "six runs"
    st = start(deal)
    assert [perft(st, d) for d in (1, 2, 3)] == [1, 7, 45] == deal["perft"][:3]
