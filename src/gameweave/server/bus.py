"""The nodes' shared bus on Redis (redis-py ``redis.asyncio``): fan-out of every
committed change, bot-seat leases, seat generations and presence.

What Redis keeps (all under ``<prefix>:``): nothing that is the record — the action log
stays in the database.  Redis carries

* ``<prefix>:events`` — one pub/sub channel; every node publishes one small JSON event
  after each commit (``action``, ``deal``, ``resign``, ``ready``, ``join``), each socket
  change (``hello``, ``bye``) and each quick phrase, and every node listens (its own
  events come back to it too);
* ``<prefix>:seq:<match_id>`` — the match's event counter: Redis numbers every event of
  a match as it publishes it (a Lua script: ``INCR`` then ``PUBLISH`` with ``"seq"``), so
  a node that sees a gap knows it missed one and catches up from the database;
* ``<prefix>:bot:<match_id>`` — the lease on a match's bot seat (and its clock): the
  node id, with an expiry (``PX``), renewed while that node plays the bot;
* ``<prefix>:seatgen:<match_id>:<seat>`` — a counter per seat: the newest ``hello``
  (highest generation) keeps the seat, on whichever node;
* ``<prefix>:presence:<match_id>:<seat>`` — a seat heard from lately (a TTL).

A lost event is never a lost action: events wait in an ordered outbox while Redis is
away and go out when it is back — once this node's subscription is confirmed again and
half a second more, so that the nodes coming back with it hear them (none is dropped;
if the outbox overflows, a ``resync`` event tells every node to check its matches); the
subscription is pinged, so a silent one is noticed; and after subscribing again (the
subscription confirmed first) a node checks every match it holds against the database.

The two hot paths, publishing and the subscription, each run on a redis-py connection of
their own (outside the pool, with no timer per reply): the events waiting go out as one
write and their replies are read back, and the subscription's replies are read by one
task while a watch pings it.  Through redis-py's pipeline object, its pool and its
5-second timer on every read, the bus cost about 0.6 ms of CPU per event on a 2-core
machine (one publish, two nodes hearing it); this way about 0.35 ms.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import deque
from typing import Any
from collections.abc import Awaitable, Callable

import orjson
import redis.asyncio as aioredis
from redis.exceptions import RedisError

log = logging.getLogger("gameweave.server")

_RENEW = """
if redis.call('get', KEYS[1]) == ARGV[1] then
  return redis.call('pexpire', KEYS[1], ARGV[2])
end
return 0
"""
_RELEASE = """
if redis.call('get', KEYS[1]) == ARGV[1] then
  return redis.call('del', KEYS[1])
end
return 0
"""
_PUBLISH_SEQ = """
local n = redis.call('incr', KEYS[1])
redis.call('pexpire', KEYS[1], ARGV[3])
redis.call('publish', ARGV[1], '{"seq":' .. n .. ',' .. string.sub(ARGV[2], 2))
return n
"""
"""Number a match's event and publish it: ``{"seq": n, …the event}``."""


MAX_CONNECTIONS = 32
"""Redis connections a node opens at most (one of them is the subscription)."""

OUTBOX_MAX = 20_000
"""Events that may wait for Redis; beyond it the oldest go and a ``resync`` follows."""

PUBLISH_BATCH = 200
"""Events sent in one round trip (a pipeline) at most."""

SEQ_TTL_MS = 7 * 24 * 3600 * 1000
"""Lifetime of a match's event counter after its last event."""

PING_EVERY_S = 1.0
"""The subscription is pinged after this many quiet seconds."""

SILENT_LIMIT_S = 3.0
"""A subscription that answers nothing (not even a ping) for this long is dropped."""

RETRY_S = (0.1, 0.2, 0.5)
"""Waits between attempts to reach Redis again (the last one repeats)."""

SEND_TIMEOUT_S = 5.0
"""A batch of events not answered within this time is given up (and sent again)."""

RESUBSCRIBE_GRACE_S = 0.5
"""After an outage, events wait this long past the node's new subscription (the others'
come back on the same schedule) before they are published again."""

PRESENCE_BATCH = 500
"""Matches whose presence keys one ``MGET`` reads at most (two keys each)."""

PEOPLE_MAX_AGE_S = 5.0
"""A waiting ``phrase`` older than this is not sent any more (a late one means nothing)."""


class BusError(Exception):
    """Redis could not be reached or refused a command."""


class Bus:
    """One node's connection to the shared Redis.

    Args:
        url: ``redis://host:port/db``.
        prefix: prefix of every key and the channel.
        node_id: this node's id (in events and leases).
    """

    def __init__(self, url: str, prefix: str, node_id: str):
        self.url = url
        self.prefix = prefix
        self.node_id = node_id
        self.channel = f"{prefix}:events"
        # a bounded pool that makes a burst of commands wait for a connection (a plain
        # pool refuses with MaxConnectionsError once it is exhausted)
        self.pool = aioredis.BlockingConnectionPool.from_url(
            url, max_connections=MAX_CONNECTIONS, timeout=10, socket_connect_timeout=3, health_check_interval=10,
        )
        self.redis = aioredis.Redis(connection_pool=self.pool)
        self._renew = self.redis.register_script(_RENEW)
        self._release = self.redis.register_script(_RELEASE)
        self._reader: asyncio.Task | None = None
        self._publisher: asyncio.Task | None = None
        self._outbox: deque[tuple[float, dict[str, Any]]] = deque()
        self._touches: dict[str, int] = {}  # presence key -> its lifetime in ms, sent with the next batch
        self._sending: dict[str, int] = {}  # the touches of the batch being sent
        self._pub: Any = None  # the publisher's own connection (outside the pool), made when first needed
        self._wake = asyncio.Event()
        self._subscribed = asyncio.Event()  # this node's subscription is confirmed (and since when)
        self._subscribed_at = 0.0
        self._overflowed = False
        self._closing = False

    # ------------------------------------------------------------------ lifecycle
    async def start(self, on_event: Callable[[dict[str, Any]], Awaitable[None]],
                    on_resync: Callable[[], Awaitable[None]]) -> None:
        """Check Redis answers, subscribe, and start delivering every event (this node's
        own ones too) to ``on_event``; after a lost subscription, once the new one is
        confirmed, ``on_resync`` is awaited (catch up from the database) before any
        further event.  Raises :class:`BusError` if Redis cannot be reached."""
        try:
            await self.redis.ping()
        except (RedisError, OSError) as exc:
            raise BusError(f"cannot reach Redis at {self.url}: {exc}") from None
        ready = asyncio.get_running_loop().create_future()
        self._reader = asyncio.create_task(self._read(on_event, on_resync, ready))
        self._publisher = asyncio.create_task(self._publish_loop())
        await asyncio.wait_for(ready, 10)

    async def _read(self, on_event, on_resync, ready: asyncio.Future) -> None:
        first, failures = True, 0
        while not self._closing:
            conn = self._connection()  # the subscription's own connection, outside the pool
            try:
                await self._subscribe(conn)
                self._subscribed_at = time.monotonic()
                self._subscribed.set()
                if first:
                    ready.set_result(None)
                else:
                    log.info("redis: subscribed again; checking every match against the database")
                    await on_resync()
                first, failures = False, 0
                await self._listen(conn, on_event)
            except asyncio.CancelledError:
                raise
            except (RedisError, OSError, TimeoutError) as exc:
                self._subscribed.clear()
                if self._closing:
                    return
                if failures == 0:
                    log.error("redis: subscription lost (%s); subscribing again", type(exc).__name__)
                await asyncio.sleep(RETRY_S[min(failures, len(RETRY_S) - 1)])
                failures += 1
            finally:
                await _drop(conn)

    async def _subscribe(self, conn) -> None:
        """Subscribe on ``conn`` and wait for Redis to confirm it (events published from
        then on reach this node).  Raises TimeoutError if no confirmation comes."""
        await conn.connect()
        await conn.send_packed_command(conn.pack_command("SUBSCRIBE", self.channel), check_health=False)
        deadline = time.monotonic() + SILENT_LIMIT_S
        while (left := deadline - time.monotonic()) > 0:
            reply = await conn.read_response(timeout=left, push_request=True)
            if isinstance(reply, list) and reply and reply[0] == b"subscribe":
                return
        raise TimeoutError("no subscription confirmation")

    async def _listen(self, conn, on_event) -> None:
        """Deliver events until the subscription fails or falls silent (no answer to a
        ping within :data:`SILENT_LIMIT_S`).  The replies are read by a task of their own
        with no timeout per reply (a timer per event cost more than the event); this
        watch pings after :data:`PING_EVERY_S` quiet seconds, and ends the subscription
        when nothing came for :data:`SILENT_LIMIT_S` (time spent handling an event, a
        catch-up, is not silence)."""
        state = _Heard(time.monotonic())
        pump = asyncio.create_task(self._pump(conn, on_event, state))
        pinged = state.at
        try:
            while not self._closing:
                done, _ = await asyncio.wait({pump}, timeout=PING_EVERY_S / 4)
                if done:
                    pump.result()  # its error, if any; else the bus is closing
                    return
                now = time.monotonic()
                if state.busy:
                    continue
                if now - state.at > SILENT_LIMIT_S:
                    raise TimeoutError("the subscription fell silent")
                if now - state.at >= PING_EVERY_S and now - pinged >= PING_EVERY_S:
                    pinged = now
                    await conn.send_packed_command(conn.pack_command("PING"), check_health=False)
        finally:
            pump.cancel()
            try:
                await pump
            except (asyncio.CancelledError, Exception):
                pass

    async def _pump(self, conn, on_event, state: _Heard) -> None:
        """Read the subscription's replies and hand each event to ``on_event``."""
        while not self._closing:
            reply = await conn.read_response(push_request=True)  # no socket_timeout: no timer per reply
            state.at = time.monotonic()
            if not isinstance(reply, list) or len(reply) != 3 or reply[0] != b"message":
                continue  # a pong, or a confirmation
            try:
                event = orjson.loads(reply[2])
            except ValueError:  # orjson.JSONDecodeError is one
                continue
            if not isinstance(event, dict):
                continue
            state.busy = True
            try:
                await on_event(event)
            except Exception as exc:  # one bad event must not stop the reader
                log.error("redis: event %s for match %s failed: %s", event.get("kind"), event.get("match"),
                          type(exc).__name__)
            finally:
                state.busy = False
                state.at = time.monotonic()  # busy with it (a catch-up) is not silent

    async def close(self) -> None:
        """Send what waits (for up to 2 s), stop listening and close the connections."""
        if self._publisher is not None and self._outbox:
            deadline = time.monotonic() + 2
            while self._outbox and time.monotonic() < deadline and not self._publisher.done():
                await asyncio.sleep(0.02)
        self._closing = True
        for task in (self._reader, self._publisher):
            if task is not None:
                task.cancel()
                try:
                    await task
                except (asyncio.CancelledError, Exception):
                    pass
        await _drop(self._pub)
        self._pub = None
        try:
            await self.redis.aclose()
            await self.pool.aclose()
        except Exception:
            pass

    async def ping(self) -> bool:
        """True if Redis answers now."""
        try:
            return bool(await asyncio.wait_for(self.redis.ping(), 2))
        except (TimeoutError, RedisError, OSError):
            return False

    # ------------------------------------------------------------------ events
    def publish(self, event: dict[str, Any]) -> None:
        """Queue ``event`` (a JSON object; ``node`` is added) for every node, in order;
        an event naming a ``match`` gets that match's next sequence number from Redis.
        Never blocks and never drops an event while Redis is away: the outbox sends it
        once Redis is back (see the module docstring)."""
        event["node"] = self.node_id
        self._outbox.append((time.monotonic(), event))
        if len(self._outbox) > OUTBOX_MAX:
            self._outbox.popleft()
            self._overflowed = True
        self._wake.set()

    async def flush(self, timeout: float = 5.0) -> bool:
        """Wait until every queued event is sent; False after ``timeout`` seconds."""
        deadline = time.monotonic() + timeout
        while self._outbox and time.monotonic() < deadline:
            await asyncio.sleep(0.01)
        return not self._outbox

    async def _publish_loop(self) -> None:
        failures = 0
        while not self._closing:
            if not self._outbox and not self._touches:
                self._wake.clear()
                await self._wake.wait()
                continue
            try:
                await self._send_batch()
                if failures:
                    log.info("redis: publishing again")
                failures = 0
            except asyncio.CancelledError:
                raise
            except (RedisError, OSError) as exc:
                if failures == 0:
                    log.error("redis: could not publish (%s); %d events wait", type(exc).__name__, len(self._outbox))
                await asyncio.sleep(RETRY_S[min(failures, len(RETRY_S) - 1)])
                failures += 1
                await self._resubscribed()

    async def _resubscribed(self) -> None:
        """After a failed batch, wait (when this node listens) until its subscription is
        confirmed again and :data:`RESUBSCRIBE_GRACE_S` have passed since: an event
        published while the nodes' subscriptions are still coming back would reach
        none of them (pub/sub keeps nothing), and the other nodes retry on the same
        schedule as this one."""
        if self._reader is None or self._closing:
            return
        await self._subscribed.wait()
        left = self._subscribed_at + RESUBSCRIBE_GRACE_S - time.monotonic()
        if left > 0:
            await asyncio.sleep(left)

    async def _send_batch(self) -> None:
        """Send the oldest waiting events in one pipeline; they leave the outbox only
        once Redis took them (a batch cut off midway is sent again: an event may then
        arrive twice, which a version check makes harmless)."""
        if self._overflowed:
            await self.redis.publish(self.channel, orjson.dumps({"kind": "resync", "node": self.node_id}))
            self._overflowed = False
        now = time.monotonic()
        while self._outbox and self._outbox[0][1].get("kind") == "phrase" and now - self._outbox[0][0] > PEOPLE_MAX_AGE_S:
            self._outbox.popleft()
        batch = [e for _t, e in list(self._outbox)[:PUBLISH_BATCH]]
        touches = self._touches
        if not batch and not touches:
            return
        self._touches, self._sending = {}, touches
        commands: list[tuple[Any, ...]] = [("SET", key, self.node_id, "PX", px) for key, px in touches.items()]
        for event in batch:
            text = orjson.dumps(event, option=orjson.OPT_NON_STR_KEYS)
            if isinstance(event.get("match"), str):
                commands.append(("EVAL", _PUBLISH_SEQ, 1, f"{self.prefix}:seq:{event['match']}", self.channel, text,
                                 SEQ_TTL_MS))
            else:
                commands.append(("PUBLISH", self.channel, text))
        try:
            await self._send(commands)
        except BaseException:  # sent again with the next attempt, but for a seat dropped meanwhile
            self._touches = {**self._sending, **self._touches}
            raise
        finally:
            self._sending = {}
        for _ in batch:
            self._outbox.popleft()

    def _connection(self) -> Any:
        """A connection of the bus's own (outside the pool), with no timeout per read or
        write (redis-py's default is 5 s each, a timer per reply): the subscription's
        watch and :data:`SEND_TIMEOUT_S` bound the waits instead."""
        return self.pool.connection_class(**{**self.pool.connection_kwargs, "socket_timeout": None})

    async def _send(self, commands: list[tuple[Any, ...]]) -> None:
        """Send ``commands`` in one write on the publisher's connection and read every
        reply (a pipeline without redis-py's pipeline object and pool round: the bus's
        hot path).  On any error the connection is dropped (its replies are no longer in
        step) and the error raised; the next call connects again."""
        conn = self._pub
        if conn is None:
            conn = self._pub = self._connection()
        try:
            async with asyncio.timeout(SEND_TIMEOUT_S):  # one timer for the batch, none per reply
                await conn.send_packed_command(conn.pack_commands(commands), check_health=False)
                for _ in commands:
                    await conn.read_response()
        except BaseException:
            self._pub = None
            await _drop(conn)
            raise

    # ------------------------------------------------------------------ leases
    def _lease_key(self, match_id: str) -> str:
        return f"{self.prefix}:bot:{match_id}"

    async def acquire(self, match_id: str, ttl: float) -> bool:
        """Take (or renew) this node's lease on the match's bot seat for ``ttl`` seconds;
        False while another node holds it (or Redis is unreachable)."""
        key, ms = self._lease_key(match_id), int(ttl * 1000)
        try:
            if await self.redis.set(key, self.node_id, nx=True, px=ms):
                return True
            return bool(await self._renew(keys=[key], args=[self.node_id, ms]))
        except (RedisError, OSError):
            return False

    async def release(self, match_id: str) -> None:
        """Give the lease back if this node holds it."""
        try:
            await self._release(keys=[self._lease_key(match_id)], args=[self.node_id])
        except (RedisError, OSError):
            pass

    async def lease_holder(self, match_id: str) -> str | None:
        """The node id holding the match's bot lease, or None."""
        value = await self.redis.get(self._lease_key(match_id))
        return value.decode() if isinstance(value, bytes) else value

    # ------------------------------------------------------------------ presence
    def _presence_key(self, match_id: str, seat: int) -> str:
        return f"{self.prefix}:presence:{match_id}:{seat}"

    def note_presence(self, match_id: str, seat: int, ttl: float) -> None:
        """:meth:`touch_presence` without a round trip of its own: the key is set with the
        next batch of events (at once when none waits; while Redis is away, when it is
        back).  Never blocks; one pending touch per seat."""
        self._touches[self._presence_key(match_id, seat)] = max(1, int(ttl * 1000))
        self._wake.set()

    def _forget_touch(self, key: str) -> None:
        self._touches.pop(key, None)
        self._sending.pop(key, None)

    async def touch_presence(self, match_id: str, seat: int, ttl: float) -> None:
        """Say that ``seat`` (0/1) of the match was heard from on this node now; the key
        lives ``ttl`` seconds (issue 10: online across nodes).  Silent if Redis is down."""
        self._forget_touch(self._presence_key(match_id, seat))
        try:
            await self.redis.set(self._presence_key(match_id, seat), self.node_id, px=max(1, int(ttl * 1000)))
        except (RedisError, OSError):
            pass

    async def drop_presence(self, match_id: str, seat: int) -> None:
        """Forget ``seat``'s presence (its socket closed here); a touch still waiting
        for it is forgotten too."""
        self._forget_touch(self._presence_key(match_id, seat))
        try:
            await self.redis.delete(self._presence_key(match_id, seat))
        except (RedisError, OSError):
            pass

    async def presence(self, match_id: str) -> tuple[bool, bool] | None:
        """``(seat 1 heard lately, seat 2 heard lately)`` on any node, or None if Redis
        cannot be reached."""
        got = await self.presences([match_id])
        return None if got is None else got[match_id]

    async def presences(self, match_ids: list[str]) -> dict[str, tuple[bool, bool]] | None:
        """:meth:`presence` of several matches in one round trip per
        :data:`PRESENCE_BATCH` of them (the presence sweep asks for every match with
        seats on other nodes at once): ``match_id -> (seat 1, seat 2)``, or None if Redis
        cannot be reached."""
        out: dict[str, tuple[bool, bool]] = {}
        try:
            for i in range(0, len(match_ids), PRESENCE_BATCH):
                part = match_ids[i:i + PRESENCE_BATCH]
                got = await self.redis.mget([self._presence_key(m, s) for m in part for s in (0, 1)])
                for j, m in enumerate(part):
                    out[m] = got[2 * j] is not None, got[2 * j + 1] is not None
        except (RedisError, OSError):
            return None
        return out

    # ------------------------------------------------------------------ seats
    async def seat_generation(self, match_id: str, seat: int) -> int:
        """A new, higher generation number for a ``hello`` of ``seat`` (0/1); the newest
        generation keeps the seat on every node.  0 if Redis is unreachable."""
        key = f"{self.prefix}:seatgen:{match_id}:{seat}"
        try:
            pipe = self.redis.pipeline()
            pipe.incr(key)
            pipe.expire(key, 7 * 24 * 3600)
            gen, _ = await pipe.execute()
            return int(gen)
        except (RedisError, OSError):
            return 0


class _Heard:
    """When the subscription last answered, and whether an event is being handled."""

    __slots__ = ("at", "busy")

    def __init__(self, at: float):
        self.at, self.busy = at, False


async def _drop(conn: Any) -> None:
    """Close one of the bus's own connections (None: nothing), whatever its state."""
    if conn is None:
        return
    try:
        await conn.disconnect(nowait=True)
    except Exception:
        pass


__all__ = ["Bus", "BusError"]
