"""A small asyncio TCP proxy for tests: put it between the nodes and a real server (Redis)
and cut it (every connection closed, new ones refused) without touching that server."""

from __future__ import annotations

import asyncio
import contextlib
import threading


class TcpProxy:
    """Forward ``127.0.0.1:<port>`` to ``target_host:target_port`` in a thread of its own.

    :meth:`cut` closes every open connection and stops listening (new connections are
    refused); :meth:`restore` listens again on the same port.  :meth:`freeze` keeps every
    connection open but forwards nothing (a network that went quiet, no FIN, no RST)
    until :meth:`thaw`.
    """

    def __init__(self, target_host: str, target_port: int, port: int = 0):
        self.target = (target_host, target_port)
        self.port = port
        self.loop = asyncio.new_event_loop()
        self._server: asyncio.AbstractServer | None = None
        self._conns: set[asyncio.StreamWriter] = set()
        self._flowing: asyncio.Event | None = None
        self._thread = threading.Thread(target=self.loop.run_forever, name="tcpproxy", daemon=True)
        self._thread.start()
        self._call(self._listen())

    def _call(self, coro):
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(10)

    async def _listen(self) -> None:
        if self._flowing is None:
            self._flowing = asyncio.Event()
            self._flowing.set()
        self._server = await asyncio.start_server(self._handle, "127.0.0.1", self.port, reuse_address=True)
        self.port = self._server.sockets[0].getsockname()[1]

    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            up_reader, up_writer = await asyncio.open_connection(*self.target)
        except OSError:
            writer.close()
            return
        self._conns.update((writer, up_writer))

        async def pipe(src: asyncio.StreamReader, dst: asyncio.StreamWriter) -> None:
            try:
                while data := await src.read(65536):
                    await self._flowing.wait()
                    dst.write(data)
                    await dst.drain()
            except (OSError, asyncio.CancelledError):
                pass
            finally:
                with contextlib.suppress(Exception):
                    dst.close()

        await asyncio.gather(pipe(reader, up_writer), pipe(up_reader, writer))
        self._conns.discard(writer)
        self._conns.discard(up_writer)

    async def _cut(self) -> None:
        if self._server is not None:
            self._server.close()
            self._server = None
        for w in list(self._conns):  # a graceful close (FIN), as a Redis server that stops
            with contextlib.suppress(Exception):
                w.close()
        self._conns.clear()

    def cut(self) -> None:
        """Close every connection and refuse new ones."""
        self._call(self._cut())

    def restore(self) -> None:
        """Listen again (on the same port)."""
        self._call(self._listen())

    def freeze(self) -> None:
        """Forward nothing (connections stay open) until :meth:`thaw`."""
        self.loop.call_soon_threadsafe(self._flowing.clear)

    def thaw(self) -> None:
        """Forward again what waits and what comes."""
        self.loop.call_soon_threadsafe(self._flowing.set)

    def close(self) -> None:
        """Cut and stop the thread."""
        self.cut()
        self.loop.call_soon_threadsafe(self.loop.stop)
        self._thread.join(5)
