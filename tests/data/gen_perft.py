"""Regenerate tests/data/perft.json: perft counts of three hand-built deals (ARCHITECTURE idea 8).

    .venv/bin/python tests/data/gen_perft.py

perft(deal, d) = the number of distinct legal action sequences of exactly d actions from
the start of the deal (a sequence that ends the deal earlier is not counted at depth d).
The decks are built so that melds (R12) and forcing (R15) are reachable within six
actions; the JSON keeps each deck literally (40 cards, R8 order) with its opener (1/2).
Run this only when the rules change on purpose, and say why in the commit.
"""

from __future__ import annotations

import json
from pathlib import Path

from gameweave.engine import CARD_NAMES, GameState
from gameweave.engine.conformance import build_deck, perft

MAX_DEPTH = 6

DEALS = [
    {
        "name": "forcing chain",
        "note": "A refuses 5c; B melds 3c 4c 5c and throws; A melds 5h 6h 7h and may force 6c or 2c",
        "opener": 1,
        "deck": build_deck("6h 7h 6c 2c Ad 2s 3d Jd Qs Kd", "3c 4c 5h 4h Ks 7s Js Qh 6d 7d", "5c"),
    },
    {
        "name": "six runs",
        "note": "A turns 5h holding 3h 4h 6h 7h (six sequences); B can take A's throw Ks and force 2h or Jh",
        "opener": 1,
        "deck": build_deck("3h 4h 6h 7h Ks Kc 2c 3d Qc Jd", "2h Jh Kd Kh Ac 2s 4s 5s 6c 7c", "5h 2d"),
    },
    {
        "name": "sets and runs, seat 2 opens",
        "note": "seat 2 opens and turns 5c holding 5d 5h 6c 7c; seat 1 holds 5s, 4c and Qd Qh",
        "opener": 2,
        "deck": build_deck("5d 5h 6c 7c Qc Qs 2s 3s 4d Kd", "5s 4c Qd Qh Ac Ad 2h 3h Jc Js", "5c 4h"),
    },
]




def counts(deck, opener: int, max_depth: int = MAX_DEPTH) -> list[int]:
    """perft at depths 1..max_depth for a deck (card ints) and opener seat number 1/2."""
    st = GameState.new(deck, opener=opener - 1)
    return [perft(st, d) for d in range(1, max_depth + 1)]


def main() -> None:
    out = []
    for deal in DEALS:
        out.append({
            "name": deal["name"],
            "note": deal["note"],
            "rules": "gameweave",
            "opener": deal["opener"],
            "deck": " ".join(CARD_NAMES[c] for c in deal["deck"]),
            "perft": counts(deal["deck"], deal["opener"]),
        })
    path = Path(__file__).with_name("perft.json")
    path.write_text(json.dumps({"max_depth": MAX_DEPTH, "deals": out}, indent=2) + "\n", encoding="utf-8")
    for d in out:
        print(d["name"], d["perft"])


if __name__ == "__main__":
    main()
