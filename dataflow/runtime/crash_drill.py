"""Kill a run at a tick and resume it, in one process: the property test and benchmarks/faults.py use this.

The crash hook raises (SimulatedCrash) after the tick's transaction is committed and the store is dropped with
nothing more written, which is what SIGKILL at that moment leaves behind; a fresh store then resumes. The
outside kill with a real SIGKILL is the `process_crash` fault run by `a2a run` (dataflow/runtime/loop.py).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from dataflow.runtime.loop import Runtime
from dataflow.runtime.store import WorkflowStore
from device.scenario import Scenario
from registry.runtime_contracts import RunReport


class SimulatedCrash(BaseException):
    """The in-process stand-in for SIGKILL (a BaseException: nothing on the way catches it)."""


def simulated_crash() -> None:
    """What `Runtime.die` does in a drill."""
    raise SimulatedCrash


def outcome(report: RunReport | dict[str, Any]) -> tuple:
    """What a kill must not change: status, reason, each step's status and evidence, the goal's status."""
    data = json.loads(report.model_dump_json()) if isinstance(report, RunReport) else report
    return (data["status"], data["reason_code"], [(s["step_id"], s["status"], s["terminal_evidence"]) for s in data["steps"]],
            (data.get("goal") or {}).get("status"))


@dataclass(frozen=True)
class Drill:
    killed: bool
    """The crash tick came before the run ended."""
    was_running: bool
    """The stored workflow was left running (a kill on its last tick leaves it finished)."""
    report: RunReport
    """The resumed run's report (a finished workflow's stored report)."""


def kill_and_resume(runner: Any, scenario: Scenario, at_tick: int, db: Path) -> Drill:
    """Run the scenario's utterance with a crash at `at_tick`, then resume what the store holds."""
    crash = Scenario.model_validate({"faults": [{"kind": "process_crash", "at_tick": at_tick}]}).faults[0]
    store = WorkflowStore(db)
    runtime = Runtime(store, runner)
    runtime.die = simulated_crash
    killed = False
    try:
        runtime.run_text(scenario.utterance, scenario=scenario.model_copy(update={"faults": [*scenario.faults, crash]}))
    except SimulatedCrash:
        killed = True
    store.close()
    store = WorkflowStore(db)
    try:
        workflows = store.list_workflows(10, None)
        if len(workflows) != 1:
            raise AssertionError(f"{len(workflows)} workflows stored in {db}")
        report, _ = Runtime(store, runner).resume(workflows[0]["workflow_id"])
        return Drill(killed, workflows[0]["status"] == "running", report)
    finally:
        store.close()
