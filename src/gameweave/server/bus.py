"""The nodes' shared bus on Redis (redis-py ``redis.asyncio``): fan-out of every
committed change, bot-seat leases and seat generations.

What Redis keeps (all under ``<prefix>:``): nothing that is the record — the action log
stays in the database.  Redis carries

* ``<prefix>:events`` — one pub/sub channel; every node publishes one small JSON event
  after each commit (``action``, ``deal``, ``join``) and each socket change (``hello``,
  ``bye``), and every node listens;
* ``<prefix>:bot:<match_id>`` — the lease on a match's bot seat: the node id, with an
  expiry (``PX``), renewed while that node plays the bot;
* ``<prefix>:seatgen:<match_id>:<seat>`` — a counter per seat: the newest ``hello``
  (highest generation) keeps the seat, on whichever node.

A lost event is never a lost action: a node that sees a version gap, or reconnects to
Redis, catches up from the database.
"""

from __future__ import annotations

import asyncio
import json
import logging
from typing import Any
from collections.abc import Awaitable, Callable

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


MAX_CONNECTIONS = 32
"""Redis connections a node opens at most (one of them is the subscription)."""


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
        # a bounded pool that makes a burst of publishes wait for a connection (a plain
        # pool refuses with MaxConnectionsError once it is exhausted)
        self.pool = aioredis.BlockingConnectionPool.from_url(
            url, max_connections=MAX_CONNECTIONS, timeout=10, socket_connect_timeout=3, health_check_interval=10,
        )
        self.redis = aioredis.Redis(connection_pool=self.pool)
        self._renew = self.redis.register_script(_RENEW)
        self._release = self.redis.register_script(_RELEASE)
        self._reader: asyncio.Task | None = None
        self._closing = False

    # ------------------------------------------------------------------ lifecycle
    async def start(self, on_event: Callable[[dict[str, Any]], Awaitable[None]],
                    on_resync: Callable[[], Awaitable[None]]) -> None:
        """Check Redis answers, subscribe, and start delivering other nodes' events to
        ``on_event``; after a lost connection ``on_resync`` is awaited (catch up from the
        database).  Raises :class:`BusError` if Redis cannot be reached."""
        try:
            await self.redis.ping()
        except (RedisError, OSError) as exc:
            raise BusError(f"cannot reach Redis at {self.url}: {exc}") from None
        ready = asyncio.get_running_loop().create_future()
        self._reader = asyncio.create_task(self._read(on_event, on_resync, ready))
        await asyncio.wait_for(ready, 10)

    async def _read(self, on_event, on_resync, ready: asyncio.Future) -> None:
        first = True
        while not self._closing:
            pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
            try:
                await pubsub.subscribe(self.channel)
                if first:
                    ready.set_result(None)
                else:
                    log.info("redis: subscribed again; catching up from the database")
                    await on_resync()
                first = False
                async for msg in pubsub.listen():
                    if msg.get("type") != "message":
                        continue
                    try:
                        event = json.loads(msg["data"])
                    except ValueError:
                        continue
                    if not isinstance(event, dict) or event.get("node") == self.node_id:
                        continue
                    try:
                        await on_event(event)
                    except Exception as exc:  # one bad event must not stop the reader
                        log.error("redis: event %s for match %s failed: %s", event.get("kind"),
                                  event.get("match"), type(exc).__name__)
            except asyncio.CancelledError:
                raise
            except (RedisError, OSError) as exc:
                if self._closing:
                    return
                log.error("redis: subscription lost (%s); retrying in 1 s", type(exc).__name__)
                await asyncio.sleep(1.0)
            finally:
                try:
                    await pubsub.aclose()
                except Exception:
                    pass

    async def close(self) -> None:
        """Stop listening and close the connections."""
        self._closing = True
        if self._reader is not None:
            self._reader.cancel()
            try:
                await self._reader
            except (asyncio.CancelledError, Exception):
                pass
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
    async def publish(self, event: dict[str, Any]) -> None:
        """Publish ``event`` (a JSON object; ``node`` is added) to every other node.
        A failure is logged, not raised: the database already holds the change, and the
        other nodes catch up from it on their next gap or resubscription."""
        event["node"] = self.node_id
        try:
            await self.redis.publish(self.channel, json.dumps(event, separators=(",", ":")))
        except (RedisError, OSError) as exc:
            log.error("redis: could not publish a %s event: %s", event.get("kind"), type(exc).__name__)

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

    async def touch_presence(self, match_id: str, seat: int, ttl: float) -> None:
        """Say that ``seat`` (0/1) of the match was heard from on this node now; the key
        lives ``ttl`` seconds (issue 10: online across nodes).  Silent if Redis is down."""
        try:
            await self.redis.set(self._presence_key(match_id, seat), self.node_id, px=max(1, int(ttl * 1000)))
        except (RedisError, OSError):
            pass

    async def drop_presence(self, match_id: str, seat: int) -> None:
        """Forget ``seat``'s presence (its socket closed here)."""
        try:
            await self.redis.delete(self._presence_key(match_id, seat))
        except (RedisError, OSError):
            pass

    async def presence(self, match_id: str) -> tuple[bool, bool] | None:
        """``(seat 1 heard lately, seat 2 heard lately)`` on any node, or None if Redis
        cannot be reached."""
        try:
            got = await self.redis.mget([self._presence_key(match_id, 0), self._presence_key(match_id, 1)])
        except (RedisError, OSError):
            return None
        return got[0] is not None, got[1] is not None

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


__all__ = ["Bus", "BusError"]
