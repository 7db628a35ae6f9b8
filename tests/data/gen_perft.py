"""Regenerate tests/data/perft.json: perft counts of three hand-built deals per rule
profile (ARCHITECTURE idea 8).

    .venv/bin/python tests/data/gen_perft.py

perft(deal, d) = the number of distinct legal action sequences of exactly d actions from
the start of the deal (a sequence that ends the deal earlier is not counted at depth d).
A deal may name a ``prefix``: actions played first (checked), perft then counts from the
position they reach -- used where a rule cannot arise within six actions of a deal's
start (R19's force back needs at least eight: the turner must meld, throw, and turn again).
The decks are built so that melds (R12, R18), forcing (R15, R18e) and, per profile, the
R18 rearranging and forced-``meld`` decisions and the R19 force back are reachable within
six actions; the JSON keeps each deck literally (40 cards, R8 order) with its profile and
opener (1/2).  Run this only when the rules change on purpose, and say why in the commit.
"""

from __future__ import annotations

import json
from pathlib import Path

from gameweave.engine import CARD_NAMES, GameState
from gameweave.engine.conformance import build_deck, perft

MAX_DEPTH = 6

DEALS = [
    # ---------------------------------------------------------------- gameweave (R12, R15)
    {
        "name": "forcing chain",
        "rules": "gameweave",
        "note": "A refuses 5c; B melds 3c 4c 5c and throws; A melds 5h 6h 7h and may force 6c or 2c",
        "opener": 1,
        "deck": build_deck("6h 7h 6c 2c Ad 2s 3d Jd Qs Kd", "3c 4c 5h 4h Ks 7s Js Qh 6d 7d", "5c"),
    },
    {
        "name": "six runs",
        "rules": "gameweave",
        "note": "A turns 5h holding 3h 4h 6h 7h (six sequences); B can take A's throw Ks and force 2h or Jh",
        "opener": 1,
        "deck": build_deck("3h 4h 6h 7h Ks Kc 2c 3d Qc Jd", "2h Jh Kd Kh Ac 2s 4s 5s 6c 7c", "5h 2d"),
    },
    {
        "name": "sets and runs, seat 2 opens",
        "rules": "gameweave",
        "note": "seat 2 opens and turns 5c holding 5d 5h 6c 7c; seat 1 holds 5s, 4c and Qd Qh",
        "opener": 2,
        "deck": build_deck("5d 5h 6c 7c Qc Qs 2s 3s 4d Kd", "5s 4c Qd Qh Ac Ad 2h 3h Jc Js", "5c 4h"),
    },
    # ---------------------------------------------------------------- classic (R18)
    {
        "name": "seed 004 split",
        "rules": "classic",
        "note": "A turns 5h holding 3h 4h 6h 6c; after 3h 4h 5h 6h, B turns and refuses 6d and A takes it "
                "only by splitting: 3h 4h 5h / 6c 6d 6h (R18)",
        "opener": 1,
        "deck": build_deck("3h 4h 6h 6c Ac 2s 3d Jd Qs Kd", "Ad As 2c 2d 3c 3s 4c 4d Jc Qc", "5h 6d"),
    },
    {
        "name": "forced meld after a throw",
        "rules": "classic",
        "note": "A melds 5c with a hand-only run (3c 4c 5c 6c / 3d 4d 5d 6d, R18a) and throws Qc; B melds "
                "Qc Qd Qs and throws 6h forcing it (R18e); A decides 'meld' and may win with 6h 7h Jh",
        "opener": 1,
        "deck": build_deck("3c 4c 6c 3d 4d 5d 6d Qc 7h Jh", "Qd Qs 6h Ad As 2c 2s Kc Kd Ks", "5c"),
    },
    {
        "name": "every set of three, seat 2 opens",
        "rules": "classic",
        "note": "seat 2 opens and turns 5c holding 5d 5h 5s 6c 7c: every set of three holding 5c, the four, "
                "the run 5c 6c 7c with the hand-only set 5d 5h 5s (R18b)",
        "opener": 2,
        "deck": build_deck("5d 5h 5s 6c 7c Qc Qs 2s 3s Kd", "4c 4h Qd Qh Ac Ad 2h 3h Jc Js", "5c 4d"),
    },
    # ---------------------------------------------------------------- anglo-american (R18, R19)
    {
        "name": "the 128-choice position",
        "rules": "anglo-american",
        "note": "A turns 6d holding Ac Ad Ah As 2d 3d 4d 5d 7d Jd: 128 tables (R18b)",
        "opener": 1,
        "deck": build_deck("Ac Ad Ah As 2d 3d 4d 5d 7d Jd", "2c 2h 2s 3c 3h 3s 4c 4h 4s 5c", "6d"),
    },
    {
        "name": "forced meld after a refusal",
        "rules": "anglo-american",
        "note": "A melds 5c with 3c 4c 6c and the hand-only 3d 4d 5d 6d, throws; B turns 6h and refuses it "
                "forcing it onto A's table by a re-partition (R18e); A decides 'meld'",
        "opener": 1,
        "deck": build_deck("3c 4c 6c 3d 4d 5d 6d 7h Jh Kc", "Ac Ad 2s 3s 4h Qc Qd Js Ks 7s", "5c 6h"),
    },
    {
        "name": "force back after a re-partition",
        "rules": "anglo-american",
        "note": "after 7 actions B (table 3c 4c 5c 6c / 3d 4d 5d 6d, hand 7h Jh) has turned 6h; if B refuses "
                "it A may force it back (R19), and B melds it (decision 'meld')",
        "opener": 1,
        "deck": build_deck("Ac 2s 3h 4s 7s Jd Qs Kc 5s 7d", "3c 4c 6c 3d 4d 5d 6d 7h Jh Ah", "5c Kh 6h"),
        "prefix": ["turn", "refuse", "meld 3c 4c 5c 6c / 3d 4d 5d 6d", "throw Ah", "turn", "refuse", "turn"],
    },
]


def start(deck, opener: int, rules: str, prefix=()) -> GameState:
    """The position perft counts from: the deal (opener seat number 1/2), ``prefix`` played."""
    st = GameState.new(deck, opener=opener - 1, rules=rules)
    for a in prefix:
        st.play(a)
    return st


def counts(deck, opener: int, rules: str = "gameweave", prefix=(), max_depth: int = MAX_DEPTH) -> list[int]:
    """perft at depths 1..max_depth for a deck (card ints), opener seat number 1/2, profile."""
    st = start(deck, opener, rules, prefix)
    return [perft(st, d) for d in range(1, max_depth + 1)]


def main() -> None:
    out = []
    for deal in DEALS:
        prefix = deal.get("prefix", [])
        row = {
            "name": deal["name"],
            "note": deal["note"],
            "rules": deal["rules"],
            "opener": deal["opener"],
            "deck": " ".join(CARD_NAMES[c] for c in deal["deck"]),
        }
        if prefix:
            row["prefix"] = prefix
        row["perft"] = counts(deal["deck"], deal["opener"], deal["rules"], prefix)
        out.append(row)
    path = Path(__file__).with_name("perft.json")
    path.write_text(json.dumps({"max_depth": MAX_DEPTH, "deals": out}, indent=2) + "\n", encoding="utf-8")
    for d in out:
        print(d["rules"], d["name"], d["perft"])


if __name__ == "__main__":
    main()
