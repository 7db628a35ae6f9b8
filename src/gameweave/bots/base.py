"""The bot interface: a bot decides from its seat's view and the legal actions only (R21).

A bot never receives a :class:`~gameweave.engine.GameState`; it gets a
:class:`~gameweave.engine.SeatView` (whose ``legal`` holds the legal action ints when the
seat is to act) and returns one of those ints.  Bots are made by name with
:func:`make_bot`; each takes an optional ``seed`` so that its choices are reproducible.
"""

from __future__ import annotations

import inspect
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..engine import SeatView


@dataclass(frozen=True)
class ActionEstimate:
    """A bot's estimate of one legal action, from its seat's view only (R21).

    Attributes:
        action: the action int (one of ``view.legal``; text by
            :func:`~gameweave.engine.format_action`).
        win, tablas, loss: estimated chances (0..1, summing to 1) that the deal ends won
            by the seat, in tablas (R17), or lost, if the seat plays ``action`` now.
        samples: how many simulated deals the estimate rests on (sampled worlds).
    """

    action: int
    win: float
    tablas: float
    loss: float
    samples: int

    @property
    def score(self) -> float:
        """Expected result ``win + tablas / 2`` (0..1): what hints and analysis call the
        *win chance* (a tablas counts half, as in the arena's score)."""
        return self.win + 0.5 * self.tablas


class Bot:
    """Base class.  Subclasses implement :meth:`decide` (called by :meth:`choose`).

    Attributes: ``name`` (registry name), ``seed`` (the seed; drawn at random when None) and
    ``rng`` (a private :class:`random.Random`; the built-in bots seed a fresh generator per
    decision with :func:`view_rng` instead, so they hold no mutable state).
    """

    name = "bot"

    def __init__(self, seed: int | None = None):
        if seed is None:
            seed = random.SystemRandom().randrange(1 << 62)
        self.seed = seed
        self.rng = random.Random(seed)

    def choose(self, view: SeatView) -> int:
        """Return one action int from ``view.legal`` (non-empty when the seat is to act).

        A lone legal action is returned at once; otherwise :meth:`decide` picks.
        Raises :class:`ValueError` if the view has no legal actions (not this seat's turn).
        """
        legal = view.legal
        if not legal:
            raise ValueError("no legal actions: it is not this seat's turn")
        if len(legal) == 1:
            return legal[0]
        return self.decide(view)

    def decide(self, view: SeatView) -> int:
        """Pick one of ``view.legal`` (at least two of them).  Subclasses implement it."""
        raise NotImplementedError

    def estimate(self, view: SeatView) -> list[ActionEstimate]:
        """One :class:`ActionEstimate` per action of ``view.legal``, in legal order, from
        the view only (R21): a pure function of (seed, view), like :meth:`choose`.

        The base implementation asks the default estimator
        (:func:`set_default_estimator`; the package sets
        :func:`gameweave.bots.estimate.estimate_actions`, which simulates every action on
        64 shared sampled worlds); search bots override it with their own sampler,
        playouts and budget.  Raises :class:`ValueError` when the view has no legal
        actions (not this seat's turn), :class:`NotImplementedError` when no default
        estimator is set."""
        if _DEFAULT_ESTIMATOR is None:
            raise NotImplementedError(f"{type(self).__name__} cannot estimate: no default estimator is set")
        return _DEFAULT_ESTIMATOR(view, self.seed)

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name}>"


def view_key(view: SeatView) -> str:
    """A text fingerprint of everything in a view that a decision may depend on (R21):
    equal views give equal keys.  Used to seed per-decision random generators."""
    return "|".join((
        str(view.seat), str(view.hand), str(view.melds), str(view.centre), str(view.live_from),
        str(view.stock_count), str(view.dead), str(view.hand_counts), str(view.forced),
        ";".join(f"{e.seat}{e.action}" for e in view.history),
    ))


def view_rng(seed: int | None, view: SeatView) -> random.Random:
    """A fresh :class:`random.Random` for one decision, seeded from the bot's ``seed`` and
    the view (:func:`view_key`): a decision is a pure function of (seed, view), and a bot
    instance keeps no mutable state between decisions, so it may serve many threads.
    With ``seed=None`` the bot draws a seed once, at construction."""
    return random.Random(f"{seed}#{view_key(view)}")


Estimator = Callable[[SeatView, int | None], list[ActionEstimate]]
"""``estimator(view, seed) -> estimates``: one :class:`ActionEstimate` per action of
``view.legal``, in legal order, from the view only (R21), a pure function of its arguments."""

_DEFAULT_ESTIMATOR: Estimator | None = None


def set_default_estimator(estimator: Estimator | None) -> None:
    """Set what :meth:`Bot.estimate` answers for bots that do not estimate themselves
    (``gameweave.bots`` sets :func:`~gameweave.bots.estimate.estimate_actions` when
    imported; the interface imports no implementation)."""
    global _DEFAULT_ESTIMATOR
    _DEFAULT_ESTIMATOR = estimator


class RandomBot(Bot):
    """``random``: uniform over the legal actions (deterministic for a seed and a view)."""

    name = "random"

    def decide(self, view: SeatView) -> int:
        return view_rng(self.seed, view).choice(view.legal)


BOTS: dict[str, Callable[..., Bot]] = {"random": RandomBot}
"""Registry: bot name -> class (or factory taking ``seed=`` and keyword options)."""


def register(name: str, factory: Callable[..., Bot]) -> None:
    """Add a bot to the registry under ``name``."""
    BOTS[name] = factory


def bot_names() -> list[str]:
    """Registered bot names, in registration order."""
    return list(BOTS)


PLUGIN_GROUP = "gameweave.bots"
"""Entry-point group of bots that live outside the core (``gameweave.research``'s
``ismcts``, which needs the ``[research]`` extra): ``name = "module:factory"``."""


def load_plugins() -> list[str]:
    """Register the bots of the :data:`PLUGIN_GROUP` entry points that import here, and
    return their names.  A plugin whose import fails (its extra is not installed) is
    skipped; the core never imports a third-party library for it."""
    from importlib.metadata import entry_points

    loaded: list[str] = []
    for ep in entry_points(group=PLUGIN_GROUP):
        if ep.name in BOTS:
            loaded.append(ep.name)
            continue
        try:
            factory = ep.load()
        except ImportError:
            continue
        register(ep.name, factory)
        loaded.append(ep.name)
    return loaded


def make_bot(name: str, seed: int | None = None, **options: Any) -> Bot:
    """Make a bot by name (case-insensitive), looking among the plugins
    (:func:`load_plugins`) for a name not registered yet.  Raises :class:`ValueError` for
    an unknown name, listing the known ones."""
    key = name.strip().lower()
    if key not in BOTS:
        load_plugins()
    factory = BOTS.get(key)
    if factory is None:
        raise ValueError(f"unknown bot {name!r} (known: {', '.join(BOTS)})")
    known = bot_options(factory)
    unknown = sorted(set(options) - set(known))
    if unknown and not _takes_any(factory):
        raise ValueError(f"{name} has no option {unknown[0]!r} (its options: {', '.join(known) or 'none'})")
    return factory(seed=seed, **options)


def bot_options(factory: Any) -> list[str]:
    """The option names a bot factory (a class or a function) takes by keyword, ``seed``
    aside."""
    try:
        params = inspect.signature(factory).parameters.values()
    except (TypeError, ValueError):
        return []
    return [p.name for p in params if p.kind in (p.KEYWORD_ONLY, p.POSITIONAL_OR_KEYWORD) and p.name != "seed"]


def _takes_any(factory: Any) -> bool:
    try:
        return any(p.kind is p.VAR_KEYWORD for p in inspect.signature(factory).parameters.values())
    except (TypeError, ValueError):
        return True
