"""Durable state: idempotent callbacks, unknown workflows, resume after a kill, schedules, path A,
and routing that does not pay for compilation."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from dataflow.cli.main import app
from dataflow.runtime.loop import Runtime, upcoming_fires
from dataflow.runtime.store import UnknownWorkflowError, WorkflowStore
from registry.device_contracts import DeviceEvent
from registry.errors import InputError
from registry.runtime_contracts import ScheduleRecord

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture()
def runtime(runner):
    store = WorkflowStore(":memory:")
    yield Runtime(store, runner)
    store.close()


def test_callbacks_are_idempotent_and_unknown_workflows_rejected(runtime):
    report = runtime.run_text("주방으로 가")
    store = runtime.store
    logged = store.events(report.workflow_id)
    again = DeviceEvent.model_validate({k: v for k, v in logged[-1].items() if k in DeviceEvent.model_fields} | {"output": {}})
    assert store.record_event(again) is False
    assert len(store.events(report.workflow_id)) == len(logged)
    stranger = again.model_copy(update={"workflow_id": "wf-unknown", "event_id": "wf-unknown:step_1:1"})
    with pytest.raises(UnknownWorkflowError):
        store.record_event(stranger)


def test_step_results_are_stored_by_step_and_output_key(runtime):
    report = runtime.run_text("거실로 가서 공기 상태 확인하고 필요하면 청정해줘", {"position": "안방"})
    results = runtime.store.results(report.workflow_id)
    keys = {r["step_id"]: r["output_key"] for r in runtime.store.steps(report.workflow_id)}
    assert results["step_2"]["level"] == report.steps[1].output["level"]
    assert keys["step_2"] == "air_quality_result"


def test_routing_does_not_compile(runner):
    rec = runner.route_text("거실로 가서 청정해줘")
    assert "compiled_workflow" not in rec.usage.stage_ms
    rec2, extra = runner.route_with(rec_turn(rec.text), ("compiled_workflow",))
    assert "compiled_workflow" in rec2.usage.stage_ms and extra["compiled_workflow"].submission is not None


def rec_turn(text):
    from registry.contracts import TurnInput

    return TurnInput(recognized_text=text)


def test_resume_after_a_kill(tmp_path):
    db = tmp_path / "w.duckdb"
    cmd = [sys.executable, "-m", "dataflow.cli", "run", "서재로 가", "--device-context", '{"position": "안방", "docked": false}',
           "--db", str(db), "--pace", "15"]
    # unbuffered: the "halfway" line must reach us while the robot is still driving
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
    workflow_id, seen = None, []
    deadline = time.time() + 90
    while time.time() < deadline:
        line = proc.stdout.readline()
        if not line:
            break
        seen.append(line)
        found = re.search(r"workflow (wf-[0-9a-f]+)", line)
        workflow_id = workflow_id or (found.group(1) if found else None)
        if "halfway" in line:
            proc.kill()  # SIGKILL: no cleanup, mid-drive
            break
    proc.wait(timeout=30)
    assert workflow_id and any("halfway" in line for line in seen), "".join(seen)
    store = WorkflowStore(db)
    assert store.workflow(workflow_id)["status"] == "running"
    before = {e["event_id"] for e in store.events(workflow_id)}
    assert before and not any(e["event_name"] == "COMPLETED" for e in store.events(workflow_id))
    store.close()
    result = CliRunner().invoke(app, ["resume", workflow_id, "--db", str(db), "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["status"] == "completed" and data["steps"][0]["terminal_evidence"] == "movement.arrived"
    assert data["resume"]["replayed"] == len(before) and data["resume"]["new"] > 0
    store = WorkflowStore(db)
    events = store.events(workflow_id)
    assert len({e["event_id"] for e in events}) == len(events)
    assert before <= {e["event_id"] for e in events}
    assert store.turn(store.workflow(workflow_id)["trace_id"])["completion_sim_s"] == data["clocks"]["completion_sim_s"]
    again = CliRunner().invoke(app, ["resume", workflow_id, "--db", str(db), "--json"])
    assert json.loads(again.stdout)["resume"] == {"replayed": 0, "new": 0}
    store.close()


def test_a_schedule_fires_on_the_simulated_clock(runtime):
    created = runtime.run_text("매일 오후 6시부터 7시까지 고정청정 예약해줘")
    assert created.status == "completed"
    (schedule,) = runtime.store.schedules()
    assert (schedule.function, schedule.start_time, schedule.end_time, schedule.repeat_days) == ("stationary_purify", "18:00", "19:00", ["daily"])
    fired = runtime.run_clock("17:58", "19:02")
    assert len(fired) == 1 and fired[0].status == "completed"
    events = runtime.store.events(fired[0].workflow_id)
    started = next(e for e in events if e["terminal_evidence"] == "purify.running")
    stopped = next(e for e in events if e["terminal_evidence"] == "purify.stopped")
    assert 18 * 3600 <= started["observed_at"] <= 18 * 3600 + 2
    assert 19 * 3600 <= stopped["observed_at"] <= 19 * 3600 + 2
    assert runtime.run_clock("17:58", "19:02") == []  # a fire is recorded once: the same window fires nothing again
    (next_day,) = runtime.run_clock("18:30", "18:10")  # through the night into the next day's 18:00
    started = next(e for e in runtime.store.events(next_day.workflow_id) if e["terminal_evidence"] == "purify.running")
    assert started["observed_at"] == pytest.approx(86400 + 18 * 3600, abs=2)
    assert next_day.status == "running"  # its stop at 19:00 lies beyond the window


def test_upcoming_fires_respect_repeat_days():
    weekly = ScheduleRecord(schedule_id="s1", workflow_id="w", kind="device_task", function="scanning_clean", start_time="10:00",
                            repeat_days=["wed"])
    once = ScheduleRecord(schedule_id="s2", workflow_id="w", kind="device_task", function="stationary_purify", start_time="09:30")
    fires = upcoming_fires([weekly, once], 0, 7 * 86400, weekday0=0)
    assert [(f[0], f[1].schedule_id) for f in fires] == [(9 * 3600 + 1800, "s2"), (2 * 86400 + 10 * 3600, "s1")]


def test_path_a_runs_a_valid_request_with_no_planner(registry):
    store = WorkflowStore(":memory:")
    rt = Runtime(store, registry=registry)
    report = rt.run_task({"taskMethod": "returnToStation"}, {"position": "안방", "docked": False})
    assert report.status == "completed" and report.steps[0].terminal_evidence == "docking.docked"
    assert rt.runner is None  # no planner was built
    night = rt.run_task({"taskMethod": "setNightMode", "params": {"enabled": True}})
    assert night.steps[0].capability_id == "night_mode" and night.steps[0].output["value"] is True


@pytest.mark.parametrize(("request_", "reason"), [
    ({"taskMethod": "flyTo"}, "unknown task method 'flyTo'"),
    ({"taskMethod": "setMoveTo"}, "missing param 'position'"),
    ({"taskMethod": "setNightMode"}, "missing param 'enabled'"),
    ({"taskMethod": "setMoveTo", "params": {"position": "주방", "speed": 3}}, "unknown param 'speed'"),
    ({"taskMethod": "setMoveTo", "params": {"position": "화장실"}}, "unknown room"),
    ({"taskMethod": "probeDocking"}, "internal"),
    ({"params": {}}, "taskMethod"),
    (["returnToStation"], "JSON object"),
])
def test_path_a_rejects_with_the_reason(registry, request_, reason):
    rt = Runtime(WorkflowStore(":memory:"), registry=registry)
    with pytest.raises(InputError, match=re.escape(reason)):
        rt.run_task(request_)


def test_cli_task_and_workflows(tmp_path):
    db = str(tmp_path / "w.duckdb")
    cli = CliRunner()
    ok = cli.invoke(app, ["task", '{"taskMethod": "returnToStation"}', "--device-context", '{"position": "주방", "docked": false}',
                          "--db", db, "--json"])
    assert ok.exit_code == 0, ok.output
    workflow_id = json.loads(ok.stdout)["workflow_id"]
    bad = cli.invoke(app, ["task", '{"taskMethod": "flyTo"}', "--db", db])
    assert bad.exit_code == 2 and "unknown task method" in bad.output and "Traceback" not in bad.output
    listed = cli.invoke(app, ["workflows", "list", "--db", db])
    assert workflow_id in listed.output
    shown = cli.invoke(app, ["workflows", "show", workflow_id, "--db", db, "--json"])
    data = json.loads(shown.stdout)
    assert data["status"] == "completed" and [e["event_name"] for e in data["events"]][-1] == "COMPLETED"
