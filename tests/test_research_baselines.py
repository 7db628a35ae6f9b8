"""The baseline table (issue 21): every row's command in docs/RESEARCH.md is the script's
own and runs (at one deal, with a tiny training budget); the PPO example's command is its
own with its defaults, its loss gradient is the finite-difference one and a seed
reproduces its training; a policy plays the arena as a bot in every profile."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest

pytest.importorskip("pyspiel", reason="the research extra is not installed: pip install -e '.[research]'")
np = pytest.importorskip("numpy")

ROOT = Path(__file__).resolve().parents[1]
DOCS = (ROOT / "docs" / "RESEARCH.md").read_text()
TINY = {"reinforce": "--episodes 10 --eval-every 10 --eval-games 2",
        "ppo": "--updates 1 --envs 4 --steps 8 --minibatch 16"}


def _load(path: Path):
    spec = importlib.util.spec_from_file_location(path.stem, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


baselines = _load(ROOT / "benchmarks" / "baselines.py")
ppo = _load(ROOT / "examples" / "ppo_vector.py")


def _table_commands() -> list[str]:
    return re.findall(r"`(\.venv/bin/python benchmarks/baselines\.py [^`]+)`", DOCS)


def test_issue21_the_tables_commands_are_the_scripts_own_one_per_row() -> None:
    cmds = _table_commands()
    assert [c.split()[2] for c in cmds] == baselines.ROWS  # every row, in order, once
    for c in cmds:
        assert c in baselines.__doc__, c


@pytest.mark.parametrize("row", baselines.ROWS)
def test_issue21_each_rows_command_runs(row: str) -> None:
    [cmd] = [c for c in _table_commands() if c.split()[2] == row]
    argv = cmd.split()[2:]
    argv[argv.index("--deals") + 1] = "1"
    if row in TINY:
        argv += ["--train", TINY[row]]
    got = baselines.main([*argv, "--json"])
    bot = got["bots"][0]
    assert got["games"] == 2 and got["reference"] == "greedy" and got["seed"] == 21
    assert got["wins"][bot] + got["tablas"][bot] + got["losses"][bot] == 2


def test_issue21_the_docs_ppo_command_is_the_examples_own_and_its_defaults() -> None:
    cmd = re.search(r"\.venv/bin/python examples/ppo_vector\.py[^\n`]*", DOCS).group(0)
    assert cmd in ppo.__doc__
    flags = dict(re.findall(r"--([a-z-]+) (\S+)", cmd))
    src = (ROOT / "examples" / "ppo_vector.py").read_text().split("def main", 1)[1]
    for name, value in flags.items():
        default = re.search(rf'"--{name}", (?:type=\w+, )?default="?([^",)]+)"?', src).group(1)
        assert value == default, name


def test_issue21_ppo_gradient_is_the_finite_difference_of_its_loss() -> None:
    rng = np.random.default_rng(0)
    pol = ppo.MLPPolicy(rng, 8)
    for k in pol.p:
        pol.p[k] = rng.standard_normal(pol.p[k].shape) * 0.3  # float64 for the check
    n = 5
    x = rng.random((n, 783))
    mask = np.zeros((n, 473), bool)
    for i in range(n):
        mask[i, rng.choice(473, 6, replace=False)] = True
    a = np.array([np.flatnonzero(mask[i])[i % 6] for i in range(n)])
    logp0 = pol.forward(x, mask)[1][np.arange(n), a]
    batch = {"obs": x, "mask": mask, "act": a, "logp": logp0 + rng.normal(0, 0.3, n), "adv": rng.normal(size=n),
             "ret": rng.normal(size=n)}

    def loss() -> float:
        _h, logp, v = pol.forward(x, mask)
        ratio = np.exp(logp[np.arange(n), a] - batch["logp"])
        surrogate = np.minimum(ratio * batch["adv"], np.clip(ratio, 0.8, 1.2) * batch["adv"]).mean()
        entropy = -(np.exp(logp) * np.where(mask, logp, 0)).sum(1).mean()
        return float(-surrogate - 0.01 * entropy + 0.25 * ((v - batch["ret"]) ** 2).mean())

    g = pol.grads(batch, 0.2, 0.01, 0.5)
    for k, P in pol.p.items():
        for _ in range(3):
            idx = (3, int(rng.choice(np.flatnonzero(mask.any(0))))) if k == "Wp" else \
                tuple(int(i) for i in np.unravel_index(rng.integers(P.size), P.shape))
            old = P[idx]
            P[idx] = old + 1e-6
            up = loss()
            P[idx] = old - 1e-6
            down = loss()
            P[idx] = old
            assert (up - down) / 2e-6 == pytest.approx(g[k][idx], rel=1e-4, abs=1e-8), k


def test_issue21_ppo_training_is_reproducible_from_its_seed() -> None:
    args = ["--updates", "1", "--envs", "4", "--steps", "8", "--minibatch", "16", "--eval-deals", "0", "--seed", "3"]
    a, b = ppo.main(args)["policy"], ppo.main(args)["policy"]
    assert all(np.array_equal(a.p[k], b.p[k]) for k in a.p)
    assert not np.array_equal(a.p["Wp"], ppo.MLPPolicy(np.random.default_rng(3), 128).p["Wp"])  # it trained


@pytest.mark.parametrize("rules", ["gameweave", "anglo-american", "classic"])
def test_issue21_a_policy_plays_the_arena_as_a_bot(rules: str) -> None:
    """A policy that reads its observation plays legal actions only (the arena raises
    otherwise), through every sub-step (R18 tables, force targets), in every profile."""
    from gameweave.arena import run_arena
    from gameweave.bots import register
    from gameweave.research.policy import PolicyBot

    calls = []

    def policy(x: np.ndarray, legal: np.ndarray) -> int:
        calls.append(len(legal))
        return int(legal[int(x.sum() * 7) % len(legal)])

    register("obs-policy", lambda seed=None: PolicyBot(policy, seed=seed))
    games = run_arena("obs-policy", "greedy", 3, seed=5, rules=rules)
    decisions = sum(len(g.times[0]) for g in games)  # the policy bot's decisions with a choice
    assert len(games) == 6 and decisions > 0 and len(calls) >= decisions
    bot = PolicyBot(lambda x, legal: 10_000, seed=1)
    from gameweave.engine import GameState, seat_view

    st = GameState.new(seed=3, rules=rules)
    while len(st.legal_actions()) < 2:
        st.apply(st.legal_actions()[0])
    with pytest.raises(ValueError):  # an id that is not legal
        bot.choose(seat_view(st, st.to_act))
