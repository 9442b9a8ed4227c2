"""Route-only turns in worker processes (`a2a serve --routers N`).

Routing is CPU-bound Python: in one process turns route one at a time on one core, behind the service's lock. A
router is a worker process with its own warm heuristic runner; turns that only route (no `execute`) go to the next
free one and never take the lock, so N routers use N cores while the service process keeps the HTTP side, the
workflow store and the robots. Each router costs a runner's memory and a few seconds to start; the service waits
for every router to be warm before it answers. Workers are spawned, not forked (the service has threads and an
open DuckDB file), and end with the service.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import multiprocessing
import os
import signal
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from dataflow.rows import turn_from_row
from registry.errors import InputError

_RUNNER = None


def _warm(parent: int) -> None:
    global _RUNNER
    _die_with(parent)
    from dataflow.driver import TurnRunner

    _RUNNER = TurnRunner()


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


def route_json(runner, row: dict[str, Any], trace_id: str) -> str:
    """One turn (a set row) routed: its decision record as JSON. Bad input raises InputError; the service routes
    with its own runner, a router with its warm one."""
    try:
        turn = turn_from_row(row, runner.registry)
    except ValueError as exc:  # the text itself (a lone surrogate)
        raise InputError(f"text: {exc}") from None
    return runner.route(turn, trace_id=trace_id).model_dump_json()


def _route_json(row: dict[str, Any], trace_id: str) -> str:
    return route_json(_RUNNER, row, trace_id)


def _ready() -> bool:
    return _RUNNER is not None


class RouterPool:
    """N router processes; `route` hands a turn to the next free one."""

    def __init__(self, routers: int):
        self.size = routers
        self.pool = ProcessPoolExecutor(routers, mp_context=multiprocessing.get_context("spawn"), initializer=_warm,
                                        initargs=(os.getpid(),))
        for done in [self.pool.submit(_ready) for _ in range(routers * 2)]:  # every worker started and warm
            done.result()

    async def route(self, row: dict[str, Any], trace_id: str) -> str:
        return await asyncio.get_running_loop().run_in_executor(self.pool, _route_json, row, trace_id)

    def close(self) -> None:
        self.pool.shutdown(wait=False, cancel_futures=True)
