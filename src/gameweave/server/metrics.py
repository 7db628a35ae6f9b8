"""Prometheus metrics of one node (``GET /metrics``, prometheus-client).

Each app has its own :class:`~prometheus_client.CollectorRegistry`, so several apps in
one process (tests) never share counters.  Every sample carries the label ``node``.
"""

from __future__ import annotations

from collections.abc import Callable

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from prometheus_client import CONTENT_TYPE_LATEST

RELOAD_REASONS = ("gap", "client_ahead", "attach", "token", "conflict", "resync", "dropped")
"""Why a live match was loaded again from the database (see :meth:`Metrics.reload`)."""

LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)
"""Histogram buckets (seconds) of the action round trip inside the server."""


class Metrics:
    """The node's metrics.

    Attributes:
        actions: accepted actions (``rate()`` gives actions/s).
        round_trip: seconds from a received action frame to its state frames queued.
        refusals: refused messages by error code (HTTP and WebSocket).
        bot_think: seconds a bot took to choose an action (in the thread pool).
        bot_moves: bot actions committed by this node.
        remote_events: events received from other nodes over Redis, by kind.
        match_reloads: loads of a live match from the database after its first load,
            by ``reason`` (:meth:`reload`).
    """

    def __init__(self, node: str, live_matches: Callable[[], float], sockets: Callable[[], float]):
        self.registry = CollectorRegistry(auto_describe=True)
        r = self.registry
        labels = ["node"]
        self.node = node
        live = Gauge("gameweave_live_matches", "Matches held in memory by this node", labels, registry=r)
        live.labels(node).set_function(live_matches)
        socks = Gauge("gameweave_sockets", "Open seat WebSockets on this node", labels, registry=r)
        socks.labels(node).set_function(sockets)
        self.actions = Counter("gameweave_actions", "Accepted actions (people and bots)", labels, registry=r).labels(node)
        self.round_trip = Histogram(
            "gameweave_action_round_trip_seconds", "From an action frame received to its state frames queued",
            labels, buckets=LATENCY_BUCKETS, registry=r,
        ).labels(node)
        self._refusals = Counter("gameweave_refusals", "Refused messages by error code", ["node", "code"], registry=r)
        self.bot_think = Histogram(
            "gameweave_bot_think_seconds", "Time a bot took to choose an action", labels,
            buckets=(0.001, 0.01, 0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10), registry=r,
        ).labels(node)
        self.bot_moves = Counter("gameweave_bot_moves", "Bot actions committed by this node", labels, registry=r).labels(node)
        self._remote = Counter("gameweave_remote_events", "Events received from other nodes", ["node", "kind"], registry=r)
        self._reloads = Counter("gameweave_match_reloads", "Loads of a live match from the database after its first load",
                                ["node", "reason"], registry=r)
        for reason in RELOAD_REASONS:  # every reason shows, at 0 until it happens
            self._reloads.labels(node, reason)
        self._rated = Counter("gameweave_rated_deals", "Rated deals this node tried to apply to the ratings",
                              ["node", "outcome"], registry=r)
        for outcome in ("applied", "already"):
            self._rated.labels(node, outcome)

    def rated_deal(self, outcome: str) -> None:
        """Count one application of a rated deal that ended (issue 20): ``applied`` (this
        node updated the ratings) or ``already`` (another node or an earlier call did,
        or it is not a rated deal between two accounts: nothing changed)."""
        self._rated.labels(self.node, outcome).inc()

    def refusal(self, code: str) -> None:
        """Count one refusal with error ``code``."""
        self._refusals.labels(self.node, code).inc()

    def remote(self, kind: str) -> None:
        """Count one event of ``kind`` received from another node."""
        self._remote.labels(self.node, kind).inc()

    def reload(self, reason: str) -> None:
        """Count one reload of a live match from the database (a first load is not one).
        ``reason``: ``gap`` (a missed event or a step that did not fit), ``client_ahead``
        (a client saw a newer version on another node), ``attach``/``token`` (a socket or
        a token needed a newer copy), ``conflict`` (another writer stored a step first),
        ``resync`` (after Redis came back), ``dropped`` (after a database error)."""
        self._reloads.labels(self.node, reason).inc()

    def render(self) -> tuple[bytes, str]:
        """The text exposition format and its content type."""
        return generate_latest(self.registry), CONTENT_TYPE_LATEST


__all__ = ["Metrics", "RELOAD_REASONS"]
