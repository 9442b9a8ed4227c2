"""Kill every scenario at many ticks, resume, and compare with the uninterrupted run.

    python benchmarks/faults.py [--kills-per-scenario 10] [--sigkill 3] [--seed 0]

In-process kills (the crash hook raises after a tick's commit and the store is dropped unclosed) run for every
scenario in data/scenarios/ at evenly spread ticks; `--sigkill N` also kills N scenarios from the outside with
a real `process_crash` fault (SIGKILL) and resumes them with `a2a resume`. Prints kills, resumes, mismatches.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from dataflow.runtime.crash_drill import kill_and_resume, outcome  # noqa: E402
from dataflow.driver import TurnRunner  # noqa: E402
from dataflow.runtime.loop import Runtime  # noqa: E402
from dataflow.runtime.store import WorkflowStore  # noqa: E402
from device.scenario import load_scenario  # noqa: E402


def in_process(runner: TurnRunner, path: Path, kills: int, tmp: Path) -> tuple[int, int, int, list[str]]:
    scenario = load_scenario(path)
    store = WorkflowStore(tmp / f"clean-{path.stem}.duckdb")
    clean = Runtime(store, runner).run_text(scenario.utterance, scenario=scenario)
    store.close()
    expected, length = outcome(clean), int(clean.clocks.completion_sim_s or 1)
    killed = resumed = 0
    mismatches = []
    for i in range(kills):
        at = 1 + (length * i) // max(kills, 1)
        drill = kill_and_resume(runner, scenario, at, tmp / f"{path.stem}-{i}-{at}.duckdb")
        killed, resumed = killed + drill.killed, resumed + drill.was_running
        if outcome(drill.report) != expected:
            mismatches.append(f"{path.name}@{at}")
    return killed, resumed, len(mismatches), mismatches


def a2a(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "dataflow.cli", *args], capture_output=True, text=True, cwd=ROOT, timeout=300)


def with_sigkill(path: Path, tmp: Path) -> tuple[bool, bool, bool]:
    """(killed, resumed, matches) for one scenario killed halfway from the outside."""
    clean = json.loads(a2a("run", "--scenario", str(path), "--db", str(tmp / f"c-{path.stem}.duckdb"), "--json").stdout)
    data = json.loads(path.read_text(encoding="utf-8"))
    half = max(1, int((clean["clocks"]["completion_sim_s"] or 2) // 2))
    data["faults"] = [*data.get("faults", []), {"kind": "process_crash", "at_tick": half}]
    crash = tmp / f"k-{path.stem}.json"
    crash.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    db = str(tmp / f"k-{path.stem}.duckdb")
    killed = a2a("run", "--scenario", str(crash), "--db", db, "--json").returncode == -9
    listed = json.loads(a2a("workflows", "list", "--json", "--db", db).stdout)
    done = a2a("resume", listed[0]["workflow_id"], "--db", db, "--json")
    report = json.loads(done.stdout)
    return killed, done.returncode == 0, outcome(report) == outcome(clean)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--kills-per-scenario", type=int, default=10)
    parser.add_argument("--sigkill", type=int, default=3, help="Scenarios also killed from the outside with SIGKILL.")
    args = parser.parse_args()
    scenarios = sorted((ROOT / "data/scenarios").glob("*.json"))
    runner = TurnRunner()
    started = time.perf_counter()
    kills = resumes = mismatched = 0
    bad: list[str] = []
    with tempfile.TemporaryDirectory() as tmp:
        for path in scenarios:
            k, r, m, names = in_process(runner, path, args.kills_per_scenario, Path(tmp))
            kills, resumes, mismatched = kills + k, resumes + r, mismatched + m
            bad += names
        print(f"in-process: {len(scenarios)} scenarios, {kills} kills, {resumes} resumes, {mismatched} mismatches "
              f"({time.perf_counter() - started:.1f} s)")
        sig = [with_sigkill(path, Path(tmp)) for path in scenarios[: args.sigkill]]
        print(f"SIGKILL: {len(sig)} runs, {sum(k for k, _, _ in sig)} killed, {sum(r for _, r, _ in sig)} resumed, "
              f"{sum(not m for _, _, m in sig)} mismatches")
    for name in bad[:20]:
        print("  mismatch:", name)


if __name__ == "__main__":
    main()
