"""Route-only turns in worker processes (`a2a serve --routers N`).

Routing is CPU-bound Python: in one process turns route one at a time on one core, behind the service's lock. A
router is a worker process with its own warm heuristic runner; turns that only route (no `execute`) go to the next
free one and never take the lock, so N routers use N cores while the service process keeps the HTTP side, the
workflow store and the robots. Each router costs a runner's memory and a few seconds to start; the service waits
for every router to be warm before it answers. Workers are spawned, not forked (the service has threads and an
open DuckDB file), and end with the service.

The service talks to a router over a socket pair, in length-prefixed frames, from the event loop itself: a turn
goes out as the row's JSON and comes back as the decision record's JSON, with no thread on the way. (A process
pool's executor, its management and feeder threads and pickling cost about 1.7 ms of the service's CPU a turn and
the GIL hand-offs between those threads most of the p95.) A router that dies is replaced; its turn is a 503.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import json
import multiprocessing
import os
import signal
import socket
import struct
import threading
import time
from typing import Any

from dataflow.rows import turn_from_row
from registry.errors import A2AError, InputError

_ASK = struct.Struct("!I")
"""A turn to a router: the JSON's length, then {"row": ..., "trace_id": ...}."""
_ANSWER = struct.Struct("!BI")
"""A router's answer: a status (below), the text's length, then the text (UTF-8)."""
_ROUTED, _REFUSED, _FAILED = 0, 1, 2
_WARM = b"\x01"
_START_SECONDS = 180.0


class RouterGone(A2AError):
    """A router process ended while it held a turn (it is being replaced)."""

    http_status = 503


def route_json(runner, row: dict[str, Any], trace_id: str) -> str:
    """One turn (a set row) routed: its decision record as JSON. Bad input raises InputError; the service routes
    with its own runner, a router with its warm one."""
    try:
        turn = turn_from_row(row, runner.registry)
    except ValueError as exc:  # the text itself (a lone surrogate)
        raise InputError(f"text: {exc}") from None
    return runner.route(turn, trace_id=trace_id).model_dump_json()


def _die_with(parent: int) -> None:
    """A router ends when the service does, even one killed with SIGKILL: Linux's parent-death signal where there is one,
    and a watch on the parent id everywhere."""
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1.0)
        os._exit(0)

    threading.Thread(target=watch, daemon=True).start()


def _answer(runner, ask: bytes) -> tuple[int, str]:
    try:
        message = json.loads(ask)
        return _ROUTED, route_json(runner, message["row"], message["trace_id"])
    except InputError as exc:
        return _REFUSED, str(exc)
    except Exception as exc:  # noqa: BLE001 - the router lives on; the service answers 500 with the reason
        return _FAILED, f"{type(exc).__name__}: {exc}"


def _serve(link: socket.socket, parent: int) -> None:
    """A router's life: warm a runner, say so, then answer turns until the service closes the link."""
    _die_with(parent)
    from dataflow.driver import TurnRunner

    runner = TurnRunner()
    link.sendall(_WARM)
    frames = link.makefile("rb")
    while len(head := frames.read(_ASK.size)) == _ASK.size:
        status, text = _answer(runner, frames.read(_ASK.unpack(head)[0]))
        data = text.encode("utf-8", "surrogatepass")
        link.sendall(_ANSWER.pack(status, len(data)) + data)


class _Router:
    """One router process and the service's end of its socket pair."""

    def __init__(self):
        self.link, child = socket.socketpair()
        self.process = multiprocessing.get_context("spawn").Process(target=_serve, args=(child, os.getpid()), daemon=True)
        self.process.start()
        child.close()
        self.streams: tuple[asyncio.StreamReader, asyncio.StreamWriter] | None = None

    def wait_warm(self) -> None:
        self.link.settimeout(_START_SECONDS)
        try:
            if self.link.recv(1) != _WARM:
                raise RuntimeError(f"router process {self.process.pid} ended while starting (exit {self.process.exitcode})")
        finally:
            self.link.settimeout(None)

    async def exchange(self, ask: bytes) -> tuple[int, str]:
        if self.streams is None:
            self.streams = await asyncio.open_unix_connection(sock=self.link)
        reader, writer = self.streams
        writer.write(_ASK.pack(len(ask)) + ask)
        status, size = _ANSWER.unpack(await reader.readexactly(_ANSWER.size))
        return status, (await reader.readexactly(size)).decode("utf-8", "surrogatepass")

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self.link.close()
        if self.process.is_alive():
            self.process.kill()


class RouterPool:
    """N router processes; `route` hands a turn to the next free one."""

    def __init__(self, routers: int):
        self.routers = [_Router() for _ in range(routers)]
        for router in self.routers:  # every worker started and warm before the service answers
            router.wait_warm()
        self._free: asyncio.Queue[_Router] | None = None
        self._replacing: set[asyncio.Task] = set()
        """Replacements under way (the loop holds tasks weakly: one nobody references may be collected mid-way)."""

    def _queue(self) -> asyncio.Queue[_Router]:
        if self._free is None:  # made in the service's running loop
            self._free = asyncio.Queue()
            for router in self.routers:
                self._free.put_nowait(router)
        return self._free

    async def route(self, row: dict[str, Any], trace_id: str) -> str:
        free = self._queue()
        router = await free.get()
        ask = json.dumps({"row": row, "trace_id": trace_id}).encode("ascii")
        # shielded: a client that goes away must not leave a half-read answer on the link
        status, text = await asyncio.shield(self._exchange(router, ask, free))
        if status == _REFUSED:
            raise InputError(text)
        if status == _FAILED:
            raise RuntimeError(f"router: {text}")
        return text

    async def _exchange(self, router: _Router, ask: bytes, free: asyncio.Queue[_Router]) -> tuple[int, str]:
        try:
            answer = await router.exchange(ask)
        except (OSError, asyncio.IncompleteReadError):
            task = asyncio.get_running_loop().create_task(self._replace(router, free))
            self._replacing.add(task)
            task.add_done_callback(self._replacing.discard)
            raise RouterGone(f"router process {router.process.pid} ended; it is being replaced") from None
        free.put_nowait(router)
        return answer

    async def _replace(self, router: _Router, free: asyncio.Queue[_Router]) -> None:
        router.close()

        def start() -> _Router:
            fresh = _Router()
            fresh.wait_warm()
            return fresh

        fresh = await asyncio.to_thread(start)
        self.routers[self.routers.index(router)] = fresh
        free.put_nowait(fresh)

    def close(self) -> None:
        for router in self.routers:
            router.close()
