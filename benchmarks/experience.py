"""Experience figures: admission on the boundary set, and the supervisor on every fault scenario.

1. The boundary set (data/utterances/experience_boundary.jsonl) routed by the heuristic planner:
   admission precision and recall, false admissions of single commands, full-pass rate, and the
   cost of the two Experience stages per turn (they are sidecar nodes: their share of the turn).
2. Every scenario of data/scenarios run end to end: final status, decisions and replans spent
   against the budget, simulated completion time, wall time per run, and the supervisor's own
   time per decision.

Done-when (issue 4): precision = recall = 1.0, 0 false admissions; the station moved to 서재 is
found within the budget; with the station removed the run stops after at most 3 decisions.
Run: python benchmarks/experience.py
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from dataflow.workbench.batch import score  # noqa: E402

from dataflow.rows import decide_rows, read_set  # noqa: E402
from dataflow.driver import TurnRunner  # noqa: E402
from dataflow.runtime.loop import Runtime  # noqa: E402
from dataflow.runtime.store import WorkflowStore  # noqa: E402
from dataflow.runtime.supervisor import Supervisor  # noqa: E402
from device.scenario import load_scenario  # noqa: E402

_EXPERIENCE_NODES = ("grounded_experience_request", "experience_admission")


class TimedSupervisor(Supervisor):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.decide_s: list[float] = []

    def decide(self, point, run):
        started = time.perf_counter()
        try:
            return super().decide(point, run)
        finally:
            self.decide_s.append(time.perf_counter() - started)


def boundary(runner: TurnRunner) -> None:
    parsed = read_set(ROOT / "data/utterances/experience_boundary.jsonl")
    rows = [row for _, row, _ in parsed if row]
    records = decide_rows(runner, parsed)
    exp = score(rows, records)["experience"]
    adm = exp["admission"]
    print(f"boundary set: {exp['rows']} rows")
    print(f"  admission precision {adm['precision']:.3f}  recall {adm['recall']:.3f}  (tp {adm['tp']}, fp {adm['fp']}, fn {adm['fn']}, tn {adm['tn']})")
    print(f"  false admissions of single commands: {len(exp['false_admissions'])}  refused goals: {len(exp['missed_admissions'])}")
    print(f"  full-pass rate {exp['full_pass_rate']:.3f}  ({exp['full_pass_definition']})")
    share = [sum(r.usage.stage_ms.get(n, 0.0) for n in _EXPERIENCE_NODES) / r.usage.total_ms for r in records if r.usage.total_ms]
    ms = sorted(sum(r.usage.stage_ms.get(n, 0.0) for n in _EXPERIENCE_NODES) for r in records)
    print(f"  Experience stages per turn: median {ms[len(ms) // 2]:.3f} ms, max {ms[-1]:.3f} ms, "
          f"mean share of the turn {100 * sum(share) / len(share):.1f} %")


def scenarios(runner: TurnRunner) -> None:
    supervisor = TimedSupervisor(runner.registry)
    runtime = Runtime(WorkflowStore(":memory:"), runner, handler=supervisor)
    print(f"\n{'scenario':<36} {'status':<17} {'reason':<26} {'decisions':>9} {'replans':>7} {'goal':<13} {'sim s':>7} {'wall ms':>8}")
    for path in sorted((ROOT / "data/scenarios").glob("*.json")):
        scenario = load_scenario(path)
        started = time.perf_counter()
        report = runtime.run_text(scenario.utterance, scenario=scenario)
        wall = 1000 * (time.perf_counter() - started)
        budget = report.goal.budget if report.goal else supervisor.budget
        actions = [d["action"] for d in report.decisions]
        print(f"{path.stem:<36} {report.status:<17} {report.reason_code or '':<26} {len(actions):>4}/{budget.max_decisions:<4} "
              f"{actions.count('replan'):>3}/{budget.max_replans:<3} {report.goal.status if report.goal else '-':<13} "
              f"{report.clocks.completion_sim_s or 0:>7.0f} {wall:>8.1f}")
    per = sorted(supervisor.decide_s)
    if per:
        print(f"\nsupervisor: {len(per)} decisions, median {1e6 * per[len(per) // 2]:.0f} us, max {1e6 * per[-1]:.0f} us per decision; "
              f"decide() calls {supervisor.calls} (normal events never call it)")


def main() -> None:
    runner = TurnRunner()
    boundary(runner)
    scenarios(runner)


if __name__ == "__main__":
    main()
