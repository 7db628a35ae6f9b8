"""Single-observer information-set MCTS over the seat's own decisions (``search`` option
``tree``; issue 11, round 3).

Each iteration samples one world consistent with the seat's view (the search's sampler:
R12 proof and weighted declines, :func:`~gameweave.bots.determinize.sample_informed`,
built by :func:`~gameweave.bots.determinize.world_state`, never from the real deal,
R21) and descends a tree whose nodes are the *seat's* information sets:

* A node is keyed by what the seat has observed since the root: every action of either
  seat is public (R11-R15, R18: takes, melds with their cards, throws, forces, refusals)
  and so is every turned card (R10), so the key is the sequence of ``(action, centre
  card)`` pairs applied since the root (hashed incrementally).  Two worlds that agree on
  it give the seat the same view, so the same legal actions: the availability count of
  every candidate of a node is the node's visit count (UCB1 with availability counts
  reduces to plain UCB1 here).
* At its own nodes the seat picks among :func:`~gameweave.bots.pimc.candidates`
  (``width`` 6: the greedy's best throws, one table per R18 card set, every non-meld
  action) by UCB1 with exploration constant ``c``; the greedy's choice gets a head start
  (one pseudo-visit worth ``prior / 2`` wins, as the halving search's head start).
* The opponent's moves and the turned cards are drawn in the world by the playout policy
  and become branches by their public outcome (the key).  A meld and the throw after it
  are consecutive own nodes with nothing observed in between (R12, R13).
* One new own node is expanded per iteration (trivial decisions, a single candidate, are
  stored but not counted); below it the deal is finished with the playout policy and
  scored 1 / 0.5 / 0 for win / tablas / loss (R17), backed up along the own nodes.
* ``reuse``: each sampled world serves that many consecutive iterations (default 1).
* ``depth`` (0 = unlimited) limits the tree to the seat's next ``depth`` non-trivial
  decisions (1 = root only: a flat UCB1 over fresh worlds).

The root action with most real visits is played (ties: more wins, then the greedy's).
A pure function of (seed, view) when the budget is a count of iterations.
"""

from __future__ import annotations

import math
import random
import time

from ..engine import GameState, SeatView, seat_view
from .determinize import world_state
from .greedy import choose_greedy
from .pimc import WorldSampler, candidates
from .playout import Policy

_ROOT = 0x5EED


class _Node:
    __slots__ = ("acts", "n", "w", "visits")

    def __init__(self, acts: tuple[int, ...], head: int, prior: float):
        self.acts = acts
        k = len(acts)
        self.n = [0] * k  # real visits per action
        self.w = [0.0] * k  # real result sum per action
        self.visits = 0  # node visits (= availability of each action)
        if head >= 0 and prior > 0:
            self.n[head] = 1
            self.w[head] = prior * 0.5
            self.visits = 1

    def select(self, c: float) -> int:
        n = self.n
        best = -1
        bu = -1.0
        logn = math.log(self.visits) if self.visits > 1 else 0.0
        for i, ni in enumerate(n):
            if ni == 0:
                return i
            u = self.w[i] / ni + c * math.sqrt(logn / ni)
            if u > bu:
                bu, best = u, i
        return best


def _new_node(st: GameState, seat: int, width: int, prior: float) -> _Node:
    v = seat_view(st, seat, history=())  # the candidates and the greedy never read the history
    acts = candidates(v, width)
    if len(acts) == 1:
        return _Node(acts, -1, 0.0)
    g = choose_greedy(v) if prior > 0 else -1
    if g >= 0 and g not in acts:
        acts = acts + (g,)
    return _Node(acts, acts.index(g) if g >= 0 else -1, prior)


def ismcts(view: SeatView, legal: tuple[int, ...], greedy: int, sample: WorldSampler,
           rng: random.Random, policy: Policy, iterations: int, c: float, prior: float = 2.0, width: int = 6,
           depth: int = 0, seconds: float | None = None, reuse: int = 1, max_steps: int = 400) -> int:
    """The root action chosen by ISMCTS (see the module docstring) among ``legal`` (the
    root candidates), ``greedy`` getting the head start; ``sample()`` draws a world
    ``(opponent hand, stock)``, ``policy`` plays both seats outside the tree.  Each world
    serves ``reuse`` consecutive iterations (1: a fresh world per iteration, plain
    ISMCTS; more: cheaper, as building a world costs about as much as a playout)."""
    seat = view.seat
    root = _Node(legal, legal.index(greedy), prior)
    tree: dict[int, _Node] = {}
    deadline = None if seconds is None else time.perf_counter() + seconds
    it = 0
    while True:
        if deadline is None:
            if it >= iterations:
                break
        elif it > 0 and time.perf_counter() >= deadline:
            break
        it += 1
        if (it - 1) % reuse == 0:
            base = world_state(view, *sample())
        st = base.clone()
        path: list[tuple[_Node, int]] = []
        node = root
        key = _ROOT
        in_tree = True
        expanded = False
        own = 1  # non-trivial own decisions in the path
        steps = 0
        apply = st.apply
        i = node.select(c)
        path.append((node, i))
        a = node.acts[i]
        apply(a)
        key = hash((key, a, st.card))
        while not st.is_over and steps < max_steps:
            steps += 1
            if in_tree and st.to_act == seat:
                nd = tree.get(key)
                if nd is None:
                    if expanded or (depth and own >= depth):
                        in_tree = False
                        apply(policy(st, rng))
                        continue
                    nd = tree[key] = _new_node(st, seat, width, prior)
                    if len(nd.acts) > 1:
                        expanded = True
                if len(nd.acts) == 1:
                    a = nd.acts[0]
                else:
                    if depth and own >= depth:
                        in_tree = False
                        apply(policy(st, rng))
                        continue
                    i = nd.select(c)
                    path.append((nd, i))
                    a = nd.acts[i]
                    own += 1
                apply(a)
                key = hash((key, a, st.card))
                continue
            a = policy(st, rng)
            apply(a)
            if in_tree:
                key = hash((key, a, st.card))
        if st.winner < 0:
            r = 0.5
        else:
            r = 1.0 if st.winner == seat else 0.0
        for nd, i in path:
            nd.visits += 1
            nd.n[i] += 1
            nd.w[i] += r
    head = legal.index(greedy)
    best = max(range(len(legal)), key=lambda j: (root.n[j] - (1 if j == head and prior > 0 else 0),
                                                 root.w[j], j == head))
    return legal[best]


__all__ = ["ismcts"]
