"""Batch engines: route a set's rows in this process, in local worker processes, on Dask or on Ray.

Every engine cuts the rows into chunks and routes each chunk with a `TurnRunner` that its
worker process builds once (Kiwi, registries and the Hamilton driver are slow to build), so
the decisions are those of the local engine; only trace ids and timings differ.

Point Dask or Ray at a real cluster with `address` (`tcp://scheduler:8786`, `ray://head:10001`);
the workers need this project installed (`pip install -e '.[dask]'` or `.[ray]`).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from typing import Any, Literal

from dataflow.rows import decide_rows
from dataflow.driver import DriverConfig, TurnRunner
from registry.record_contracts import DecisionRecord
from registry.errors import EngineError
from registry.loader import load_registry
from registry.registry_models import EvidenceWeights

Engine = Literal["local", "processes", "dask", "ray"]
ENGINES: tuple[str, ...] = ("local", "processes", "dask", "ray")
Parsed = Sequence[tuple[int, dict[str, Any] | None, str | None]]


_WORKER: TurnRunner | None = None
_WORKER_KEY: str | None = None
_BUILDS = 0


def _worker_runner(config: dict[str, Any], weights: dict[str, Any] | None = None) -> TurnRunner:
    """The runner of this worker process, built on its first chunk and kept (`weights`: a variant run's evidence weights)."""
    global _WORKER, _WORKER_KEY, _BUILDS
    key = repr(sorted(config.items())) + repr(weights)
    if _WORKER is None or _WORKER_KEY != key:
        registry = None
        if weights is not None:
            from dataflow.workbench.tuning import registry_with_weights

            registry = registry_with_weights(EvidenceWeights.model_validate(weights))
        _WORKER, _WORKER_KEY = TurnRunner(DriverConfig(**config), registry=registry), key
        _BUILDS += 1
    return _WORKER


def route_chunk(chunk: Parsed, config: dict[str, Any], weights: dict[str, Any] | None = None) -> list[str]:
    """Route one chunk in a worker; records travel back as JSON (cheaper than pickled models)."""
    return [rec.model_dump_json() for rec in decide_rows(_worker_runner(config, weights), chunk)]


def worker_builds() -> tuple[int, int]:
    """(pid, how many runners this worker process has built): one, however many chunks it routed."""
    return os.getpid(), _BUILDS


def chunked(rows: Parsed, workers: int, chunk_size: int | None = None) -> list[list]:
    size = chunk_size or max(8, min(500, len(rows) // max(1, workers * 8) or 1))
    return [list(rows[i : i + size]) for i in range(0, len(rows), size)]


def route_rows(
    parsed: Parsed,
    engine: Engine = "local",
    *,
    workers: int | None = None,
    address: str | None = None,
    config: DriverConfig | None = None,
    weights: EvidenceWeights | None = None,
    runner: TurnRunner | None = None,
    progress: Callable[[int], None] | None = None,
    chunk_size: int | None = None,
) -> list[DecisionRecord]:
    """Decision records for the parsed rows of a set, in input order, on the chosen engine
    (`weights`: other evidence weights than the registry's, for the runners the engine builds)."""
    config = config or (runner.config if runner else DriverConfig())
    variant = weights if weights is not None and weights != load_registry().weights else None
    if engine == "local":
        if runner is None and variant is not None:
            from dataflow.workbench.tuning import registry_with_weights

            runner = TurnRunner(config, registry=registry_with_weights(variant))
        return decide_rows(runner or TurnRunner(config), parsed, (lambda: progress(1)) if progress else None)
    workers = workers or os.cpu_count() or 1
    chunks = chunked(parsed, workers, chunk_size)
    cfg = config.model_dump()
    w = variant.model_dump() if variant is not None else None
    if engine == "processes":
        results = _processes(chunks, cfg, w, workers, progress)
    elif engine == "dask":
        results = _dask(chunks, cfg, w, workers, address, progress)
    elif engine == "ray":
        results = _ray(chunks, cfg, w, workers, address, progress)
    else:
        raise EngineError(f"unknown engine {engine!r}; one of {', '.join(ENGINES)}")
    return [DecisionRecord.model_validate_json(line) for part in results for line in part]


class ProcessEngine:
    """A pool of spawned worker processes, each building its runner once when it starts."""

    def __init__(self, workers: int, config: dict[str, Any], weights: dict[str, Any] | None = None):
        import multiprocessing as mp
        from concurrent.futures import ProcessPoolExecutor

        self.workers, self.config, self.weights = workers, config, weights
        # spawn: a clean interpreter per worker (no forked threads or half-built analysers)
        self.pool = ProcessPoolExecutor(max_workers=workers, mp_context=mp.get_context("spawn"),
                                        initializer=_worker_runner, initargs=(config, weights))

    def warm(self) -> list[tuple[int, int]]:
        """Wait until every worker has started and built its runner; (pid, builds) per worker."""
        seen: dict[int, int] = {}
        while len(seen) < self.workers:
            for pid, builds in self.pool.map(_pause_and_report, [0.2] * self.workers):
                seen[pid] = builds
        return sorted(seen.items())

    def route(self, chunks: list[list], progress: Callable[[int], None] | None = None) -> list[list[str]]:
        from concurrent.futures import as_completed

        results: list[list[str]] = [[] for _ in chunks]
        futures = {self.pool.submit(route_chunk, chunk, self.config, self.weights): i for i, chunk in enumerate(chunks)}
        for fut in as_completed(futures):
            i = futures[fut]
            results[i] = fut.result()
            if progress:
                progress(len(chunks[i]))
        return results

    def call(self, fn: Callable[[], Any]) -> list[Any]:
        """Run a no-argument function once per worker (e.g. to read its peak memory)."""
        return list(self.pool.map(_call, [fn] * self.workers, [0.2] * self.workers))

    def close(self) -> None:
        self.pool.shutdown()

    def __enter__(self) -> "ProcessEngine":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


def _pause_and_report(seconds: float) -> tuple[int, int]:
    import time

    time.sleep(seconds)  # keeps this worker busy so the next task lands on another one
    return worker_builds()


def _call(fn: Callable[[], Any], seconds: float) -> Any:
    import time

    time.sleep(seconds)
    return fn()


def peak_rss_mb() -> tuple[int, float]:
    """(pid, peak resident memory in MB) of the calling process.

    Reads VmHWM (this address space's high-water mark): getrusage's ru_maxrss survives execve,
    so a spawned worker would report its parent's peak.
    """
    try:
        with open("/proc/self/status", encoding="ascii") as fh:
            for line in fh:
                if line.startswith("VmHWM:"):
                    return os.getpid(), int(line.split()[1]) / 1024
    except OSError:
        pass
    import resource

    return os.getpid(), resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _processes(chunks, cfg, weights, workers, progress) -> list[list[str]]:
    with ProcessEngine(workers, cfg, weights) as engine:
        return engine.route(chunks, progress)


def dask_client(workers: int, address: str | None = None):
    """A Dask client: the cluster at `address`, or a local cluster of single-threaded worker processes."""
    try:
        from dask.distributed import Client, LocalCluster
    except ImportError:
        raise EngineError("the dask engine needs Dask: install the project's 'dask' extra (or pip install dask distributed)") from None
    if address:
        try:
            return Client(address, timeout="10s")
        except OSError as exc:
            raise EngineError(f"cannot reach the Dask scheduler at {address}: {exc}") from None
    cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address="127.0.0.1:0",
                           host="127.0.0.1", silence_logs=40)
    return Client(cluster)


def _dask(chunks, cfg, weights, workers, address, progress) -> list[list[str]]:
    from dask.distributed import as_completed

    client = dask_client(workers, address)
    try:
        futures = client.map(route_chunk, chunks, config=cfg, weights=weights, pure=False)
        index = {f.key: i for i, f in enumerate(futures)}
        results: list[list[str]] = [[] for _ in chunks]
        for fut in as_completed(futures):
            i = index[fut.key]
            results[i] = fut.result()
            if progress:
                progress(len(chunks[i]))
        return results
    finally:
        cluster = client.cluster
        client.close()
        if cluster is not None and not address:
            cluster.close()


def _ray(chunks, cfg, weights, workers, address, progress) -> list[list[str]]:
    try:
        import ray
    except ImportError:
        raise EngineError("the ray engine needs Ray: install the project's 'ray' extra (or pip install ray)") from None
    os.environ.setdefault("RAY_AUTH_MODE", "disabled")  # local runs: no auth token under $HOME
    started = False
    if not ray.is_initialized():
        ray.init(address=address, num_cpus=None if address else workers, include_dashboard=False,
                 log_to_driver=False, ignore_reinit_error=True)
        started = True
    try:
        @ray.remote(num_cpus=1)
        class Router:  # an actor per worker: the runner is built once in its process
            def route(self, chunk):
                return route_chunk(chunk, cfg, weights)

        actors = [Router.remote() for _ in range(max(1, workers))]
        pool = ray.util.ActorPool(actors)
        results = []
        for chunk, part in zip(chunks, pool.map(lambda actor, c: actor.route.remote(c), chunks)):
            results.append(part)
            if progress:
                progress(len(chunk))
        return results
    finally:
        if started:
            ray.shutdown()


def comparable(record: DecisionRecord) -> dict[str, Any]:
    """A record as engines are compared: without trace_id and usage (timings), with values derived
    from the trace id (e.g. experience ids) masked. Everything else must be identical."""
    import json

    text = record.model_dump_json(exclude={"trace_id", "usage"})
    if record.trace_id:
        text = text.replace(record.trace_id[:12], "<trace>")
    return json.loads(text)
