"""Per-turn latency through the Hamilton driver and through a plain chain of the same stage functions.

    python benchmarks/turn_latency.py [--repeat 3]

Prints p50/p95 per turn for both and the driver overhead ratio (driver p50 / chain p50).
Targets on the 2-core reference machine (issue 10): p95 <= 3 ms per heuristic turn, ratio <= 1.5.
"""

from __future__ import annotations

import argparse
import statistics
import time
import uuid
from pathlib import Path

from dataflow.rows import read_set, turn_from_row
from dataflow.driver import TurnRunner


def plain_chain_for(dr):
    """The same stage functions the driver resolved for its config, called in topological order."""
    graph = dr.graph
    order, seen = [], set()

    def visit(node):
        if node.name in seen:
            return
        seen.add(node.name)
        for dep in node.dependencies:
            visit(dep)
        order.append(node)

    visit(graph.nodes["decision_record"])
    steps = [(n.name, n.callable, [d.name for d in n.dependencies]) for n in order if not n.user_defined]

    def run(inputs):
        values = dict(inputs)
        for name, fn, deps in steps:
            values[name] = fn(**{d: values[d] for d in deps if d in values})
        return values["decision_record"]

    return run


def pct(values, q):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--set", type=Path, default=Path(__file__).resolve().parents[1] / "data/utterances/core.jsonl")
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    runner = TurnRunner()
    chain = plain_chain_for(runner.driver)
    inputs = {"kiwi": runner.kiwi, "registry": runner.registry, **runner.config.model_dump()}
    turns = [turn_from_row(row) for _, row, err in read_set(args.set) if row and not err]
    for turn in turns[:20]:  # warm caches
        runner.route(turn)
        chain({**inputs, "turn_input": turn, "trace_id": "warm"})
    drv, chain_ms = [], []
    for _ in range(args.repeat):
        for turn in turns:
            t0 = time.perf_counter()
            runner.route(turn)
            t1 = time.perf_counter()
            chain({**inputs, "turn_input": turn, "trace_id": uuid.uuid4().hex})
            t2 = time.perf_counter()
            drv.append((t1 - t0) * 1000)
            chain_ms.append((t2 - t1) * 1000)
    print(f"turns: {len(drv)} ({len(turns)} rows x {args.repeat})")
    print(f"driver: p50 {pct(drv, .5):.3f} ms  p95 {pct(drv, .95):.3f} ms  mean {statistics.mean(drv):.3f} ms")
    print(f"chain:  p50 {pct(chain_ms, .5):.3f} ms  p95 {pct(chain_ms, .95):.3f} ms  mean {statistics.mean(chain_ms):.3f} ms")
    print(f"driver overhead ratio (p50): {pct(drv, .5) / pct(chain_ms, .5):.2f}  (target <= 1.5)")
    print(f"p95 target <= 3 ms: {'met' if pct(drv, .95) <= 3 else 'NOT met'}")


if __name__ == "__main__":
    main()
