"""Batch throughput: utterances per second with 1 and 2 worker processes, and peak memory.

    python benchmarks/batch_throughput.py [--rows 10000] [--workers 1 2] [--seed 7]

Samples a set of --rows rows from core.jsonl (with replacement, seeded), then routes it
- in this process (the local engine), and
- on the processes engine with each worker count, after the workers have started and built
  their runner (start-up is timed and printed apart, it is paid once per run).
Throughput counts routing plus bringing the records back to the parent as DecisionRecords.
Prints utterances/s, the speed-up over 1 worker, and the peak RSS of the parent and of each
worker. Targets on the 2-core reference machine: >= 500 utterances/s per core (heuristic
backend), >= 1.8x at 2 workers, peak RSS <= 500 MB per process.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from pathlib import Path

from dataflow.rows import read_set
from dataflow.driver import DriverConfig
from dataflow.workbench.engines import ProcessEngine, chunked, peak_rss_mb
from registry.record_contracts import DecisionRecord

ROOT = Path(__file__).resolve().parents[1]


def sample_rows(source: Path, n: int, seed: int) -> list:
    rows = [row for _, row, err in read_set(source) if row and not err]
    rng = random.Random(seed)
    picked = [dict(rng.choice(rows)) for _ in range(n)]
    for i, row in enumerate(picked):
        row["id"] = f"{row.get('id')}-s{i}"
    return [(i + 1, row, None) for i, row in enumerate(picked)]


def local_throughput(parsed) -> tuple[float, float]:
    from dataflow.rows import decide_rows
    from dataflow.driver import TurnRunner

    started = time.perf_counter()
    runner = TurnRunner()
    runner.route_text("warm up")
    start_s = time.perf_counter() - started
    t0 = time.perf_counter()
    decide_rows(runner, parsed)
    return len(parsed) / (time.perf_counter() - t0), start_s


def process_throughput(parsed, workers: int) -> dict:
    cfg = DriverConfig().model_dump()
    t0 = time.perf_counter()
    with ProcessEngine(workers, cfg) as engine:
        builds = engine.warm()
        start_s = time.perf_counter() - t0
        chunks = chunked(parsed, workers)
        t1 = time.perf_counter()
        parts = engine.route(chunks)
        records = [DecisionRecord.model_validate_json(line) for part in parts for line in part]
        elapsed = time.perf_counter() - t1
        rss = dict(engine.call(peak_rss_mb))
    assert len(records) == len(parsed)
    return {"workers": workers, "utt_per_s": len(parsed) / elapsed, "elapsed_s": elapsed, "startup_s": start_s,
            "runner_builds": dict(builds), "worker_peak_rss_mb": rss, "chunks": len(chunks)}


def _burn(n: int) -> int:
    total = 0
    for i in range(n):
        total += i * i
    return total


def machine_scaling(n: int = 15_000_000) -> float:
    """How much 2 processes of pure-Python arithmetic gain over 1 on this machine right now (the ceiling)."""
    import multiprocessing as mp

    with mp.get_context("spawn").Pool(2) as pool:
        pool.map(_burn, [10, 10])
        t = time.perf_counter()
        pool.map(_burn, [n])
        one = time.perf_counter() - t
        t = time.perf_counter()
        pool.map(_burn, [n, n])
        two = time.perf_counter() - t
    return 2 * one / two


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--set", type=Path, default=ROOT / "data/utterances/core.jsonl")
    ap.add_argument("--rows", type=int, default=10_000)
    ap.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--json", action="store_true", help="Also print the figures as one JSON line.")
    args = ap.parse_args()
    parsed = sample_rows(args.set, args.rows, args.seed)
    print(f"set: {args.rows} rows sampled from {args.set.name} (seed {args.seed})")
    ceiling = machine_scaling()
    print(f"machine scaling ceiling now (pure-Python arithmetic, 2 processes vs 1): {ceiling:.2f}x"
          + ("  (the cores are shared or throttled: read the speed-up against this)" if ceiling < 1.8 else ""))
    local, local_start = local_throughput(parsed)
    print(f"local engine (this process): {local:.0f} utt/s  (runner built in {local_start:.2f} s)")
    results = [process_throughput(parsed, w) for w in args.workers]
    base = next((r["utt_per_s"] for r in results if r["workers"] == 1), results[0]["utt_per_s"])
    for r in results:
        peak = max(r["worker_peak_rss_mb"].values())
        print(f"processes engine, {r['workers']} worker(s): {r['utt_per_s']:.0f} utt/s  speed-up {r['utt_per_s'] / base:.2f}x  "
              f"({r['elapsed_s']:.2f} s for {args.rows} rows in {r['chunks']} chunks; workers started in {r['startup_s']:.2f} s; "
              f"runner builds per worker {sorted(r['runner_builds'].values())}; worker peak RSS {peak:.0f} MB)")
    parent = peak_rss_mb()[1]
    print(f"parent peak RSS {parent:.0f} MB (includes the local-engine run's analyser and the 10,000 parsed records)")
    one = next((r for r in results if r["workers"] == 1), None)
    two = next((r for r in results if r["workers"] == 2), None)
    worst = max(max(r["worker_peak_rss_mb"].values()) for r in results)
    if one:
        print(f"target >= 500 utt/s per core: {'met' if one['utt_per_s'] >= 500 else 'NOT met'} ({one['utt_per_s']:.0f})")
    if one and two:
        ratio = two["utt_per_s"] / one["utt_per_s"]
        print(f"target >= 1.8x at 2 workers: {'met' if ratio >= 1.8 else 'NOT met'} ({ratio:.2f}x)")
    print(f"target peak RSS <= 500 MB per worker: {'met' if worst <= 500 else 'NOT met'} ({worst:.0f} MB)")
    if args.json:
        print(json.dumps({"local_utt_per_s": local, "parent_peak_rss_mb": parent, "machine_scaling": ceiling, "runs": results}))


if __name__ == "__main__":
    main()
