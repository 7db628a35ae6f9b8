"""Self-play REINFORCE with a masked linear softmax policy (numpy), through the PettingZoo env.

The policy scores each legal action id ``a`` as ``W[a] . x + b[a]`` where ``x`` is the
seat's information-state tensor (docs/RESEARCH.md); illegal ids are masked out before
the softmax.  Both seats share the policy (self-play); after each deal every decision of
a seat is pushed along ``(reward - baseline) * grad log pi`` (REINFORCE with a running
baseline).  Every ``--eval-every`` deals the greedy policy (argmax) plays ``--eval-games``
deals against uniform ``random`` (seats alternating) and the score is logged with a 95 %
Wilson interval on the win share of decided deals; the curve is saved as a PNG.

    .venv/bin/python examples/train_selfplay.py --rules gameweave --episodes 6000 --eval-every 1500 --eval-games 400 --seed 0 --out curve.png
"""

from __future__ import annotations

import argparse
import math
import random
import time

import numpy as np

from gameweave.research import core
from gameweave.research import pettingzoo as gpz


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """95 % Wilson score interval of a proportion k/n."""
    if n == 0:
        return 0.0, 1.0
    p = k / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return c - h, c + h


class MaskedLinearPolicy:
    """Softmax over the legal ids of ``W @ x + b`` (W: NUM_ACTIONS x INFO_SIZE)."""

    def __init__(self, rng: np.random.Generator):
        self.W = np.zeros((core.NUM_ACTIONS, core.INFO_SIZE), np.float32)
        self.b = np.zeros(core.NUM_ACTIONS, np.float32)
        self.rng = rng

    def probs(self, x: np.ndarray, legal: np.ndarray) -> np.ndarray:
        z = self.W[legal] @ x + self.b[legal]
        z = z - z.max()
        e = np.exp(z)
        return e / e.sum()

    def sample(self, x: np.ndarray, legal: np.ndarray) -> tuple[int, np.ndarray, int]:
        p = self.probs(x, legal)
        i = int(self.rng.choice(len(legal), p=p))
        return int(legal[i]), p, i

    def best(self, x: np.ndarray, legal: np.ndarray) -> int:
        return int(legal[int(np.argmax(self.W[legal] @ x + self.b[legal]))])

    def update(self, steps: list, advantage: float, lr: float) -> None:
        for x, legal, p, i in steps:
            g = -p
            g[i] += 1.0
            g *= lr * advantage
            self.W[legal] += np.outer(g, x).astype(np.float32)
            self.b[legal] += g.astype(np.float32)


def self_play_episode(env, policy: MaskedLinearPolicy, seed: int) -> tuple[dict, dict]:
    env.reset(seed=seed)
    steps: dict[str, list] = {a: [] for a in gpz.AGENTS}
    final = {a: 0.0 for a in gpz.AGENTS}
    for agent in env.agent_iter():
        obs, r, term, trunc, _info = env.last()
        if term or trunc:
            final[agent] = r
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        a, p, i = policy.sample(obs["observation"], legal)
        steps[agent].append((obs["observation"], legal, p, i))
        env.step(a)
    return steps, final


def shaped(env, rewards: dict, weight: float) -> dict:
    """The deal's result plus ``weight`` x (own table - opponent's table) / 11: melded
    cards are public (R21), and tablas (most random deals) then still teach something."""
    st = env.deal.state
    out = {}
    for i, a in enumerate(gpz.AGENTS):
        out[a] = rewards.get(a, 0.0) + weight * (st.table_counts[i] - st.table_counts[1 - i]) / 11
    return out


def evaluate(rules: str, policy: MaskedLinearPolicy, games: int, seed: int) -> tuple[int, int, int]:
    """(wins, tablas, losses) of the greedy policy against uniform random, seats alternating."""
    env = gpz.env(rules=rules)
    rng = random.Random(seed)
    w = t = lo = 0
    for g in range(games):
        me = gpz.AGENTS[g % 2]
        env.reset(seed=seed * 100_003 + g)
        final = 0.0
        for agent in env.agent_iter():
            obs, r, term, trunc, _info = env.last()
            if term or trunc:
                if agent == me:
                    final = r
                env.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            a = policy.best(obs["observation"], legal) if agent == me else int(rng.choice(legal))
            env.step(a)
        if final > 0:
            w += 1
        elif final < 0:
            lo += 1
        else:
            t += 1
    return w, t, lo


def main(argv: list[str] | None = None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rules", default="gameweave")
    ap.add_argument("--episodes", type=int, default=6000)
    ap.add_argument("--minutes", type=float, default=9.0, help="stop training after this long")
    ap.add_argument("--eval-every", type=int, default=1500)
    ap.add_argument("--eval-games", type=int, default=400)
    ap.add_argument("--lr", type=float, default=0.05)
    ap.add_argument("--shaping", type=float, default=0.5, help="weight of the table-count term of the reward")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", default="selfplay_curve.png")
    args = ap.parse_args(argv)
    policy = MaskedLinearPolicy(np.random.default_rng(args.seed))
    env = gpz.env(rules=args.rules)
    baseline = {a: 0.0 for a in gpz.AGENTS}
    curve = []
    t0 = time.perf_counter()

    def log(ep: int) -> None:
        w, t, lo = evaluate(args.rules, policy, args.eval_games, args.seed + 1 + len(curve))
        lo_ci, hi_ci = wilson(w, w + lo)
        curve.append((ep, w, t, lo, lo_ci, hi_ci))
        print(f"episode {ep}: vs random {w} won, {t} tablas, {lo} lost of {args.eval_games}; "  # noqa: T201
              f"win share {w / max(1, w + lo):.3f} [{lo_ci:.3f}, {hi_ci:.3f}]  ({time.perf_counter() - t0:.0f} s)",
              flush=True)

    log(0)
    ep = 0
    while ep < args.episodes and time.perf_counter() - t0 < args.minutes * 60:
        steps, rewards = self_play_episode(env, policy, args.seed * 1_000_003 + ep)
        rewards = shaped(env, rewards, args.shaping)
        for a in gpz.AGENTS:
            r = rewards.get(a, 0.0)
            policy.update(steps[a], r - baseline[a], args.lr)
            baseline[a] += 0.01 * (r - baseline[a])
        ep += 1
        if ep % args.eval_every == 0:
            log(ep)
    if not curve or curve[-1][0] != ep:
        log(ep)
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    xs = [c[0] for c in curve]
    share = [c[1] / max(1, c[1] + c[3]) for c in curve]
    fig, ax = plt.subplots(figsize=(6, 4))
    ax.plot(xs, share, marker="o", label="win share vs random (decided deals)")
    ax.fill_between(xs, [c[4] for c in curve], [c[5] for c in curve], alpha=0.25, label="95 % Wilson interval")
    ax.axhline(0.5, color="grey", linestyle="--", linewidth=1)
    ax.set_xlabel("self-play deals")
    ax.set_ylabel("win share")
    ax.set_title(f"Conquian ({args.rules}): masked linear policy,\nREINFORCE self-play", fontsize=10)
    ax.legend(loc="lower right")
    fig.tight_layout()
    fig.savefig(args.out)
    plt.close(fig)
    print(f"saved {args.out}; {ep} deals in {time.perf_counter() - t0:.0f} s")  # noqa: T201
    return {"episodes": ep, "curve": curve, "out": args.out, "policy": policy}


if __name__ == "__main__":
    main()
