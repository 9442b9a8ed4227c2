"""Simulator speed and end-to-end execution time.

1. Ticks per second of the device session (TaskManager + physics) while a long task runs
   (a scanning clean, every room, every second) and while idle.
2. Wall time to execute every ODL row of data/utterances/core.jsonl end to end: route and
   compile through the driver, run on a fresh simulated robot, persist every event in DuckDB.

Targets (issue 3): >= 50,000 ticks/s; the whole core ODL set in under 10 s.
Run: python benchmarks/simulator.py [--set data/utterances/core.jsonl] [--ticks 200000]
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from dataflow.rows import read_set  # noqa: E402
from dataflow.driver import TurnRunner  # noqa: E402
from dataflow.runtime.loop import Runtime  # noqa: E402
from dataflow.runtime.store import WorkflowStore  # noqa: E402
from device.session import DeviceSession  # noqa: E402
from registry import load_registry  # noqa: E402
from registry.plan_contracts import Action, Step
from registry.device_bridge import load_device_bridge  # noqa: E402
from stages.compilation import compile_steps  # noqa: E402


def ticks_per_second(ticks: int) -> dict[str, float]:
    """Busy: scanning cleans back to back (driving and purifying every second); idle: a docked robot."""
    registry = load_registry()
    bridge = load_device_bridge(registry)
    scan = compile_steps([Step(id="step_1", route="ODL", purpose="scan", output_key="scan", execution_target="device",
                               wait_policy="completed", action=Action(capability_id="scanning_clean", operation_id="start"))],
                         "ODL", "bench", registry, bridge)
    busy_ticks, busy_s, seed = 0, 0.0, 0
    while busy_ticks < ticks:
        seed += 1
        session = DeviceSession(registry, seed=seed)
        session.submit(scan.submission)
        started = time.perf_counter()
        while not session.quiet(scan.workflow_id):
            session.tick()
        busy_s += time.perf_counter() - started
        busy_ticks += session.tick_count
    idle = DeviceSession(registry, seed=0)
    started = time.perf_counter()
    for _ in range(ticks):
        idle.tick()
    return {"busy (scanning cleans)": busy_ticks / busy_s, "idle": ticks / (time.perf_counter() - started)}


def core_odl(set_path: Path) -> dict[str, object]:
    rows = [row for _, row, err in read_set(set_path) if row and not err and (row.get("expect") or {}).get("family") == "ODL"]
    runner = TurnRunner()
    with tempfile.TemporaryDirectory() as tmp:
        store = WorkflowStore(Path(tmp) / "bench.duckdb")
        runtime = Runtime(store, runner)
        statuses: Counter[str] = Counter()
        sim_s = 0.0
        started = time.perf_counter()
        for row in rows:
            report = runtime.run_text(row["text"], row.get("device_context") or {}, voice_context=row.get("voice_context"))
            statuses[report.status] += 1
            sim_s += report.clocks.completion_sim_s or 0.0
        wall = time.perf_counter() - started
        events = store.con.execute("SELECT count(*) FROM events").fetchone()[0]
        store.close()
    return {"rows": len(rows), "wall_s": wall, "per_row_ms": 1000 * wall / max(1, len(rows)), "simulated_s": sim_s,
            "events_stored": events, "statuses": dict(statuses)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--set", type=Path, default=ROOT / "data/utterances/core.jsonl")
    parser.add_argument("--ticks", type=int, default=200_000)
    args = parser.parse_args()
    for label, rate in ticks_per_second(args.ticks).items():
        print(f"ticks/s {label:<22} {rate:>12,.0f}   (target >= 50,000)")
    result = core_odl(args.set)
    print(f"core ODL rows end to end: {result['rows']} rows in {result['wall_s']:.2f} s wall "
          f"({result['per_row_ms']:.1f} ms/row; target < 10 s), {result['simulated_s']:.0f} simulated s, "
          f"{result['events_stored']} events stored")
    print("statuses: " + json.dumps(result["statuses"], ensure_ascii=False))


if __name__ == "__main__":
    main()
