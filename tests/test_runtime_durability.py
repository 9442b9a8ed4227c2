"""Nothing lost: a process killed at any tick resumes to the end the uninterrupted run reaches, user decisions
included; callbacks without declared evidence are refused; state and report agree.

The kill is a scenario fault (`process_crash`): from the outside with SIGKILL for the done-when cases, and in
one process (the crash hook raises, the store is dropped without a close) for the property test over every
scenario in data/scenarios/.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dataflow.runtime.crash_drill import SimulatedCrash, kill_and_resume, outcome, simulated_crash
from dataflow.runtime.loop import Runtime
from dataflow.runtime.store import WorkflowStore
from device.scenario import Scenario, load_scenario
from device.session import DeviceSession
from registry.contracts import DeviceContext, TurnInput
from registry.device_contracts import DeviceEvent

ROOT = Path(__file__).resolve().parents[1]
SCENARIOS = sorted((ROOT / "data/scenarios").glob("*.json"))


def a2a(*args: str, check: bool = True) -> subprocess.CompletedProcess:
    proc = subprocess.run([sys.executable, "-m", "dataflow.cli", *args], capture_output=True, text=True, cwd=ROOT, timeout=120)
    if check:
        assert proc.returncode == 0, proc.stderr[-2000:]
    return proc


def _with_crash(path: Path, tmp_path: Path, tick: int) -> Path:
    data = json.loads(path.read_text(encoding="utf-8"))
    data["faults"] = [*data.get("faults", []), {"kind": "process_crash", "at_tick": tick}]
    out = tmp_path / f"crash_{path.stem}.json"
    out.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return out


# --- from the outside, with SIGKILL ----------------------------------------------------------


def test_a_killed_run_resumes_to_the_users_call_off(tmp_path):
    """The done-when case: killed at tick 10, resumed, it ends cancelled/user_changed_goal as the uninterrupted run."""
    scenario = ROOT / "data/scenarios/goal_user_changes_goal.json"
    clean = json.loads(a2a("run", "--scenario", str(scenario), "--db", str(tmp_path / "clean.duckdb"), "--json").stdout)
    db = str(tmp_path / "w.duckdb")
    killed = a2a("run", "--scenario", str(_with_crash(scenario, tmp_path, 10)), "--db", db, "--json", check=False)
    assert killed.returncode == -9, "the process died hard"
    listed = json.loads(a2a("workflows", "list", "--json", "--db", db).stdout)
    assert [w["status"] for w in listed] == ["running"] and listed[0]["utterance"] == "주방 가서 청정하고 충전대로 복귀해"
    resumed = json.loads(a2a("resume", listed[0]["workflow_id"], "--db", db, "--json").stdout)
    assert (resumed["status"], resumed["reason_code"]) == ("cancelled", "user_changed_goal")
    assert outcome(resumed) == outcome(clean)
    stored = json.loads(a2a("workflows", "show", listed[0]["workflow_id"], "--db", db, "--json").stdout)
    assert [s["status"] for s in stored["steps"]] == [s["status"] for s in resumed["steps"]], "the store agrees with the report"


def test_a_scheduled_workflow_killed_while_purifying_stops_at_its_end_time(tmp_path):
    db = str(tmp_path / "s.duckdb")
    a2a("run", "매일 오후 6시부터 7시까지 고정청정 예약해줘", "--db", db)
    crash = tmp_path / "crash.json"
    crash.write_text(json.dumps({"name": "crash at 18:10", "faults": [{"kind": "process_crash", "at_tick": 15 * 60}]}), encoding="utf-8")
    killed = a2a("schedules", "run", "--start", "17:55", "--until", "19:05", "--scenario", str(crash), "--db", db, check=False)
    assert killed.returncode == -9
    fired = next(w for w in json.loads(a2a("workflows", "list", "--json", "--db", db).stdout) if w["kind"] == "schedule")
    assert fired["status"] == "running"
    resumed = json.loads(a2a("resume", fired["workflow_id"], "--db", db, "--json").stdout)
    assert resumed["status"] == "completed"
    assert [(s["status"], s["terminal_evidence"]) for s in resumed["steps"]] == [("completed", "purify.running"), ("completed", "purify.stopped")]


# --- callbacks carry declared evidence ---------------------------------------------------------


def test_terminal_callbacks_without_declared_evidence_are_refused(runner, tmp_path):
    store = WorkflowStore(tmp_path / "w.duckdb")
    runtime = Runtime(store, runner)
    record, extra = runner.route_with(TurnInput(recognized_text="안방으로 가"), ("compiled_workflow",))
    compiled = extra["compiled_workflow"]
    session = DeviceSession(runtime.registry, DeviceContext(), Scenario(), 0)
    orch = runtime._orchestrator(session, None)
    run = orch.start(compiled, record, "turn", time.perf_counter(), None, runtime._persist("안방으로 가", DeviceContext(), Scenario(), 0))
    wid = compiled.workflow_id

    def event(name: str, evidence: str | None, step: str = "step_1") -> DeviceEvent:
        return DeviceEvent(event_id=f"{wid}:{step}:forged-{name}-{evidence}", event_name=name, workflow_id=wid, step_id=step,
                           task_method="setMoveTo", terminal_evidence=evidence, observed_at=float(session.clock_s))

    logged = len(store.events(wid))
    for forged, why in ((event("COMPLETED", "camera.photoSaved"), "is not evidence move_to_room.start declares"),
                        (event("COMPLETED", None), "carries no terminal evidence"),
                        (event("FAILED", None, step="step_9"), "has no step 'step_9'")):
        orch.deliver(forged)
        assert orch.refused[-1] == (forged.event_id, orch.refused[-1][1]) and why in orch.refused[-1][1]
    assert run.states["step_1"].status != "completed" and len(store.events(wid)) == logged, "a refused callback changes nothing"
    orch.run_until_done(run, 2000)
    assert run.status == "completed" and run.states["step_1"].evidence == "movement.arrived"
    store.close()


# --- every scenario, killed anywhere ------------------------------------------------------------


_CLEAN: dict[str, tuple[tuple, float]] = {}


def _clean(runner, path: Path, tmp: Path) -> tuple[tuple, float]:
    """The uninterrupted run's outcome and length in ticks (once per scenario)."""
    if path.name not in _CLEAN:
        store = WorkflowStore(tmp / f"clean-{path.stem}.duckdb")
        scenario = load_scenario(path)
        report = Runtime(store, runner).run_text(scenario.utterance, scenario=scenario)
        store.close()
        _CLEAN[path.name] = (outcome(report), report.clocks.completion_sim_s or 1.0)
    return _CLEAN[path.name]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(index=st.integers(0, len(SCENARIOS) - 1), fraction=st.floats(0.0, 1.0))
def test_every_scenario_killed_at_any_tick_resumes_to_the_same_end(runner, tmp_path_factory, index, fraction):
    path = SCENARIOS[index]
    expected, ticks = _clean(runner, path, tmp_path_factory.getbasetemp())
    at = int(fraction * ticks)
    drill = kill_and_resume(runner, load_scenario(path), at, tmp_path_factory.mktemp("kill") / "w.duckdb")
    got = outcome(drill.report)
    assert got == expected, f"{path.name} killed at tick {at}"


def test_a_lost_callback_is_unconfirmed_in_the_store_as_in_the_report(runner, tmp_path):
    store = WorkflowStore(tmp_path / "w.duckdb")
    scenario = load_scenario(ROOT / "data/scenarios/callback_lost.json")
    report = Runtime(store, runner).run_text(scenario.utterance, scenario=scenario)
    assert report.status == "incomplete" and "unconfirmed" in [s.status for s in report.steps]
    stored = {s["step_id"]: s["status"] for s in store.steps(report.workflow_id)}
    assert stored == {s.step_id: s.status for s in report.steps}
    assert store.workflow(report.workflow_id)["status"] == "incomplete"
    store.close()


def test_a_kill_on_the_last_tick_leaves_the_goal_as_reported(runner, tmp_path):
    """The goal's final status is written with the workflow's end, in one transaction."""
    from dataflow.runtime.goal_store import load_goal

    text = "주방 가서 청정하고 충전대로 복귀해"
    store = WorkflowStore(tmp_path / "clean.duckdb")
    clean = Runtime(store, runner).run_text(text)
    store.close()
    assert clean.goal is not None and clean.status == "completed"
    last = int(clean.clocks.completion_sim_s)
    crash = Scenario.model_validate({"faults": [{"kind": "process_crash", "at_tick": last}]})
    store = WorkflowStore(tmp_path / "w.duckdb")
    runtime = Runtime(store, runner)
    runtime.die = simulated_crash
    with pytest.raises(SimulatedCrash):
        runtime.run_text(text, scenario=crash)
    store.close()
    store = WorkflowStore(tmp_path / "w.duckdb")
    (workflow,) = store.list_workflows(10, None)
    assert workflow["status"] == "completed"
    assert load_goal(store, workflow["workflow_id"])[1].status == clean.goal.status
    store.close()
