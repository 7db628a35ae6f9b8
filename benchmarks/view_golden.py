"""A golden file of the engine's views, to prove a refactor leaves them byte for byte alone.

    python benchmarks/view_golden.py OUT.jsonl [--deals N]

Plays ``N`` random deals per profile (deterministic seeds, half of them eager, so wins,
forcing chains, R18e and R19 come up) and writes, for every state of every deal, the
``to_dict()`` JSON of both seats' views and of the spectator view (key order kept), the
views' fields by name, their derived properties, the public events, and the world the
engine rebuilds from each seat's view with the true hidden cards.  It also resigns deals
(by deal and by match) and abandons matches at random points through a
:class:`~gameweave.tables.table.Table` and writes what seats and spectators are shown.
Every line is hashed; lines of the first deals are written in full.  Compare two runs with
``cmp``.
"""

from __future__ import annotations

import argparse
import dataclasses
import hashlib
import json
import os
import random
import sys
from typing import Any

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src"))

from gameweave.engine import GameState, shuffled_deck  # noqa: E402
from gameweave.engine import view as view_mod  # noqa: E402
from gameweave.engine.conformance import choose_action  # noqa: E402
from gameweave.engine.view import seat_view, spectator_view  # noqa: E402


def _fields(v: Any) -> dict[str, str]:
    return {f.name: repr(getattr(v, f.name)) for f in dataclasses.fields(v)}


def _world(view: Any, st: GameState) -> list[Any]:
    build = getattr(view_mod, "state_from_view", None)
    opp, stock = st.hands[1 - view.seat], st.deck[st.stock_pos:]
    w = build(view, opp, stock) if build is not None else GameState.from_view(view, opp, stock)
    return [list(w.deck), w.opener, w.history, w.phase, w.hands, w.melds]


def _state_line(st: GameState) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for s in (0, 1):
        v = seat_view(st, s)
        out[f"seat{s}"] = json.dumps(v.to_dict())
        out[f"fields{s}"] = _fields(v)
        out[f"props{s}"] = [v.opponent, v.table, v.unseen()]
        out[f"world{s}"] = _world(v, st)
    sv = spectator_view(st)
    out["spectator"] = json.dumps(sv.to_dict())
    out["sfields"] = _fields(sv)
    return out


def _table_lines(rules: str, seed: int, rng: random.Random) -> list[dict[str, Any]]:
    import secrets

    from gameweave.tables import table as table_mod

    secrets.randbelow = lambda n: seed % n  # a deterministic first opener
    out = []
    for how in ("deal", "match", "abandon"):
        t, _ = table_mod.Table.create(opponent="friend", bot=None, format="first_to", target=3,
                                      deck=shuffled_deck(seed), salt="00", rules=rules)
        stop = rng.randrange(0, 60)
        n = 0
        while not t.state.is_over and n < stop:
            t.apply_action(t.state.to_act, choose_action(rng, t.state.legal_actions(), 0.5))
            n += 1
        if how == "abandon":
            t.abandoned = True
        elif not t.deal.over:
            t.resign(rng.randrange(2), how)
        else:
            t.resign(rng.randrange(2), "match")
        line: dict[str, Any] = {"how": how, "steps": n}
        for s in (0, 1):
            v = t._view(s)
            line[f"view{s}"] = json.dumps(v.to_dict())
            line[f"fields{s}"] = _fields(v)
            f = t.state_frame(s)
            line[f"frame{s}"] = json.dumps({k: f[k] for k in ("view", "choices", "progress")})
        f = t.spectator_frame()
        line["spectator"] = json.dumps({k: f[k] for k in ("view", "choices", "progress")})
        out.append(line)
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--deals", type=int, default=60)
    ap.add_argument("--full", type=int, default=2, help="deals per profile written in full")
    args = ap.parse_args()
    total = hashlib.sha256()
    lines = 0
    with open(args.out, "w") as fh:
        for rules in ("gameweave", "anglo-american", "classic"):
            for d in range(args.deals):
                rng = random.Random(f"{rules}/{d}")
                st = GameState.new(shuffled_deck(d * 7919 + 1), opener=d & 1, rules=rules)
                eager = 0.9 if d % 2 else 0.0
                step = 0
                while True:
                    text = json.dumps(_state_line(st), sort_keys=True)
                    h = hashlib.sha256(text.encode()).hexdigest()
                    total.update(h.encode())
                    lines += 1
                    fh.write(text + "\n" if d < args.full else f"{rules} {d} {step} {h}\n")
                    if st.is_over:
                        break
                    st.apply(choose_action(rng, st.legal_actions(), eager))
                    step += 1
                for line in _table_lines(rules, d, rng):
                    text = json.dumps(line, sort_keys=True)
                    h = hashlib.sha256(text.encode()).hexdigest()
                    total.update(h.encode())
                    lines += 1
                    fh.write(text + "\n" if d < args.full else f"{rules} {d} table {h}\n")
        fh.write(f"TOTAL {lines} {total.hexdigest()}\n")
    print(f"{lines} lines, total {total.hexdigest()}")


if __name__ == "__main__":
    main()
