"""PPO (clipped surrogate, GAE) in numpy on the batched environment, against a fixed bot.

Trains a masked softmax policy with a value head — one tanh layer of ``--hidden`` units
shared by both heads, 783 -> H -> 473 logits and 1 value — on
``gameweave.research.vector.ConquianVectorEnv`` (``--envs`` games in one call) against the
built-in ``--opponent`` (default ``greedy``, the baseline table's reference).  Half of
the games let the agent open the deal, half let the opponent open.  Illegal ids are
masked out of the softmax; the games' ``next-step`` auto-reset steps (whose action is
ignored) are left out of the update.  The reward is the deal's result (``+1`` won,
``-1`` lost, 0 tablas) plus the potential ``--shaping`` x (own table - opponent's
table) / 11 (both public, R21; potential-based, so it adds only the final table
difference to a deal's return), because most deals a weak policy plays end in tablas.
After ``--updates`` updates (each ``--envs`` x ``--steps`` agent steps, ``--epochs``
epochs of minibatches of ``--minibatch``, Adam at ``--lr``) the greedy policy (argmax) plays
``--eval-deals`` arena deals against ``--opponent`` (``gameweave.arena.run_arena``: each
deal twice with seats swapped, seed ``--eval-seed``) through
:class:`gameweave.research.policy.PolicyBot` and the arena's summary is printed, with
95 % Wilson intervals.  Deterministic for a seed (numpy's generator, the environments'
seeds); ``--save FILE.npz`` keeps the weights.

    .venv/bin/python examples/ppo_vector.py --rules gameweave --updates 150 --envs 64 --steps 64 --seed 0 --eval-deals 300 --eval-seed 21
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from gameweave.research.observer import INFO_SIZE
from gameweave.research.ids import NUM_ACTIONS
from gameweave.research.vector import ConquianVectorEnv

MY_TABLE, OPP_TABLE = 296, 297  # observation offsets of the table counts (/ 11), docs/RESEARCH.md


class MLPPolicy:
    """Masked softmax policy and value: ``h = tanh(x W1 + b1)``, logits ``h Wp + bp``,
    value ``h Wv + bv``; x (B, 783) float32."""

    def __init__(self, rng: np.random.Generator, hidden: int):
        self.p = {
            "W1": (rng.standard_normal((INFO_SIZE, hidden)) / np.sqrt(INFO_SIZE)).astype(np.float32),
            "b1": np.zeros(hidden, np.float32),
            "Wp": (rng.standard_normal((hidden, NUM_ACTIONS)) * 0.01).astype(np.float32),
            "bp": np.zeros(NUM_ACTIONS, np.float32),
            "Wv": (rng.standard_normal((hidden, 1)) * 0.01).astype(np.float32),
            "bv": np.zeros(1, np.float32),
        }
        self.m = {k: np.zeros_like(v) for k, v in self.p.items()}
        self.v = {k: np.zeros_like(v) for k, v in self.p.items()}
        self.t = 0

    def forward(self, x: np.ndarray, mask: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``(h (B, H), log-probabilities (B, 473) with illegal ids at about -1e9, value (B,))``."""
        p = self.p
        h = np.tanh(x @ p["W1"] + p["b1"])
        z = np.where(mask, h @ p["Wp"] + p["bp"], np.float32(-1e9))
        z = z - z.max(axis=1, keepdims=True)
        logp = z - np.log(np.exp(z).sum(axis=1, keepdims=True))
        return h, logp, (h @ p["Wv"] + p["bv"])[:, 0]

    def best(self, x: np.ndarray, legal: np.ndarray) -> int:
        """The legal id with the highest logit (the greedy policy the arena plays)."""
        h = np.tanh(x @ self.p["W1"] + self.p["b1"])
        return int(legal[int(np.argmax(h @ self.p["Wp"][:, legal] + self.p["bp"][legal]))])

    def grads(self, batch: dict[str, np.ndarray], clip: float, ent: float, vf: float) -> dict[str, np.ndarray]:
        """Gradients of the PPO loss (clipped surrogate - ent x entropy + vf x value error) on one minibatch."""
        x, mask, a, adv = batch["obs"], batch["mask"], batch["act"], batch["adv"]
        n = len(a)
        h, logp, v = self.forward(x, mask)
        prob = np.exp(logp)
        ratio = np.exp(logp[np.arange(n), a] - batch["logp"])
        active = ratio * adv <= np.clip(ratio, 1 - clip, 1 + clip) * adv  # the unclipped term is the min
        dlogit = prob * (np.where(active, adv * ratio, 0.0) / n)[:, None]  # d(-surrogate)/dz = -g (onehot - p)
        dlogit[np.arange(n), a] -= np.where(active, adv * ratio, 0.0) / n
        entropy = -(prob * np.where(mask, logp, 0.0)).sum(axis=1)
        dlogit += ent / n * prob * (np.where(mask, logp, 0.0) + entropy[:, None])  # d(-ent H)/dz
        dv = vf * (v - batch["ret"]) / n
        p = self.p
        dh = dlogit @ p["Wp"].T + dv[:, None] @ p["Wv"].T
        dpre = dh * (1 - h * h)
        return {"W1": x.T @ dpre, "b1": dpre.sum(0), "Wp": h.T @ dlogit, "bp": dlogit.sum(0),
                "Wv": h.T @ dv[:, None], "bv": dv.sum(keepdims=True)}

    def adam(self, g: dict[str, np.ndarray], lr: float, max_norm: float = 0.5) -> None:
        """One Adam step (beta 0.9 / 0.999) after clipping the global gradient norm to ``max_norm``."""
        norm = np.sqrt(sum(float((v * v).sum()) for v in g.values()))
        scale = min(1.0, max_norm / (norm + 1e-8))
        self.t += 1
        for k, gk in g.items():
            gk = gk.astype(np.float32) * scale
            self.m[k] = 0.9 * self.m[k] + 0.1 * gk
            self.v[k] = 0.999 * self.v[k] + 0.001 * gk * gk
            mh = self.m[k] / (1 - 0.9 ** self.t)
            vh = self.v[k] / (1 - 0.999 ** self.t)
            self.p[k] -= (lr * mh / (np.sqrt(vh) + 1e-8)).astype(np.float32)


class Games:
    """Two :class:`ConquianVectorEnv` halves (the agent opens in one, the opponent in the
    other), stepped as one batch of ``2 x half`` games."""

    def __init__(self, rules: str, opponent: str, half: int, seed: int):
        self.envs = [ConquianVectorEnv(num_envs=half, rules=rules, opponent=opponent, opener=o) for o in (0, 1)]
        got = [e.reset(seed=seed + 100_000 * i) for i, e in enumerate(self.envs)]
        self.obs = np.concatenate([g[0] for g in got])
        self.mask = np.concatenate([g[1]["action_mask"] for g in got]).astype(bool)
        self.half = half

    def step(self, actions: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Step every game; returns ``(rewards (N,), terminated (N,))`` and keeps the new obs and masks."""
        outs = [e.step(actions[i * self.half:(i + 1) * self.half]) for i, e in enumerate(self.envs)]
        self.obs = np.concatenate([o[0] for o in outs])
        self.mask = np.concatenate([o[4]["action_mask"] for o in outs]).astype(bool)
        return np.concatenate([o[1] for o in outs]), np.concatenate([o[2] for o in outs])


def potential(obs: np.ndarray, weight: float) -> np.ndarray:
    """The shaping potential: ``weight`` x (own table - opponent's table) / 11, from the observation."""
    return weight * (obs[:, MY_TABLE] - obs[:, OPP_TABLE])


def rollout(games: Games, pol: MLPPolicy, rng: np.random.Generator, steps: int, shaping: float,
            done_before: np.ndarray, stats: dict[str, int]) -> dict[str, np.ndarray]:
    """``steps`` batched steps; returns the update's samples (valid steps only) with GAE (gamma 1, lambda 0.95)."""
    n = len(games.obs)
    buf = {k: [] for k in ("obs", "mask", "act", "logp", "val", "rew", "term", "valid")}
    for _ in range(steps):
        _h, logp, val = pol.forward(games.obs, games.mask)
        act = np.argmax(logp + rng.gumbel(size=logp.shape), axis=1)  # a draw from the masked softmax
        phi = potential(games.obs, shaping)
        for k, v in (("obs", games.obs), ("mask", games.mask), ("act", act), ("logp", logp[np.arange(n), act]),
                     ("val", val), ("valid", ~done_before)):
            buf[k].append(v)
        rew, term = games.step(act)
        stats["won"] += int((rew > 0).sum())
        stats["lost"] += int((rew < 0).sum())
        stats["deals"] += int(term.sum())
        buf["rew"].append(rew + potential(games.obs, shaping) - phi)
        buf["term"].append(term)
        done_before[:] = term
    _h, _lp, last = pol.forward(games.obs, games.mask)
    val, rew, term = np.array(buf["val"]), np.array(buf["rew"]), np.array(buf["term"])
    adv = np.zeros_like(rew)
    gae = np.zeros(n)
    for t in range(steps - 1, -1, -1):
        nxt = last if t == steps - 1 else val[t + 1]
        delta = rew[t] + np.where(term[t], 0.0, nxt) - val[t]
        gae = delta + 0.95 * np.where(term[t], 0.0, gae)
        adv[t] = gae
    valid = np.array(buf["valid"]).reshape(-1)
    out = {k: np.array(buf[k]).reshape((steps * n,) + np.shape(buf[k][0])[1:])[valid]
           for k in ("obs", "mask", "act", "logp")}
    out["adv"] = adv.reshape(-1)[valid]
    out["ret"] = (adv + val).reshape(-1)[valid]
    return out


def train(args: argparse.Namespace) -> tuple[MLPPolicy, list[tuple[int, int, int, int, float]]]:
    """Run ``args.updates`` PPO updates; returns the policy and per update
    ``(update, deals, won, lost, seconds)`` of the training games."""
    rng = np.random.default_rng(args.seed)
    pol = MLPPolicy(rng, args.hidden)
    games = Games(args.rules, args.opponent, args.envs // 2, args.seed)
    done_before = np.zeros(len(games.obs), bool)
    log = []
    t0 = time.perf_counter()
    for u in range(1, args.updates + 1):
        stats = {"won": 0, "lost": 0, "deals": 0}
        data = rollout(games, pol, rng, args.steps, args.shaping, done_before, stats)
        data["adv"] = (data["adv"] - data["adv"].mean()) / (data["adv"].std() + 1e-8)
        for _ in range(args.epochs):
            order = rng.permutation(len(data["act"]))
            for s in range(0, len(order), args.minibatch):
                idx = order[s:s + args.minibatch]
                pol.adam(pol.grads({k: v[idx] for k, v in data.items()}, args.clip, args.ent, 0.5), args.lr)
        log.append((u, stats["deals"], stats["won"], stats["lost"], time.perf_counter() - t0))
        if u % max(1, args.updates // 10) == 0 or u == args.updates:
            print(f"update {u}: {stats['deals']} deals, won {stats['won']} lost {stats['lost']} "  # noqa: T201
                  f"against {args.opponent} while sampling ({time.perf_counter() - t0:.0f} s)", flush=True)
    return pol, log


def evaluate(pol: MLPPolicy, rules: str, opponent: str, deals: int, seed: int) -> dict:
    """The arena's summary (``gameweave.arena.summarize``) of the greedy policy against ``opponent``."""
    from gameweave.arena import report_lines, run_arena, summarize
    from gameweave.bots import register
    from gameweave.research.policy import PolicyBot

    register("ppo", lambda seed=None: PolicyBot(pol.best, seed=seed))
    summary = summarize("ppo", opponent, run_arena("ppo", opponent, deals, seed=seed, rules=rules), deals, rules=rules)
    print("\n".join(report_lines(summary)))  # noqa: T201
    return summary


def main(argv: list[str] | None = None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rules", default="gameweave")
    ap.add_argument("--opponent", default="greedy", help="the built-in opponent to train and evaluate against")
    ap.add_argument("--updates", type=int, default=150)
    ap.add_argument("--envs", type=int, default=64, help="games stepped together (even)")
    ap.add_argument("--steps", type=int, default=64, help="batched steps per update")
    ap.add_argument("--epochs", type=int, default=4)
    ap.add_argument("--minibatch", type=int, default=512)
    ap.add_argument("--hidden", type=int, default=128)
    ap.add_argument("--lr", type=float, default=1e-3)
    ap.add_argument("--clip", type=float, default=0.2)
    ap.add_argument("--ent", type=float, default=0.01, help="entropy bonus weight")
    ap.add_argument("--shaping", type=float, default=0.5, help="weight of the table-count potential")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--eval-deals", type=int, default=300, help="arena deals (x2 games) against --opponent; 0: none")
    ap.add_argument("--eval-seed", type=int, default=21)
    ap.add_argument("--save", default="", help="write the weights to this .npz")
    args = ap.parse_args(argv)
    if args.envs < 2 or args.envs % 2:
        ap.error("--envs must be an even number of at least 2")
    t0 = time.perf_counter()
    pol, log = train(args)
    seconds = time.perf_counter() - t0
    print(f"trained {args.updates} updates, {sum(r[1] for r in log)} deals in {seconds:.0f} s")  # noqa: T201
    if args.save:
        np.savez(args.save, **pol.p)
    summary = evaluate(pol, args.rules, args.opponent, args.eval_deals, args.eval_seed) if args.eval_deals else None
    return {"policy": pol, "log": log, "train_seconds": seconds, "summary": summary}


if __name__ == "__main__":
    main()
