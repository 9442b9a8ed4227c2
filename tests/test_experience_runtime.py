"""Experience at run time: the supervisor's decisions, the station search, temporal relations, goals in DuckDB."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from dataflow.cli.main import app
from dataflow.runtime.goal_store import load_goal
from dataflow.runtime.loop import Runtime
from dataflow.runtime.store import WorkflowStore
from dataflow.runtime.supervisor import Supervisor
from device.scenario import Scenario, TaskFails, load_scenario
from registry.goal_contracts import DecisionBudget
from registry.supervision import load_supervision_policy

ROOT = Path(__file__).resolve().parents[1]
SCENARIOS = sorted((ROOT / "data/scenarios").glob("*.json"))


@pytest.fixture()
def store():
    s = WorkflowStore(":memory:")
    yield s
    s.close()


@pytest.fixture()
def runtime(runner, store):
    return Runtime(store, runner)


def _fixed(text: str) -> str:
    """The longest fixed part of a template (what must appear whatever the placeholders hold)."""
    return max(text.replace("}", "{").split("{")[::2], key=len).strip()


def _events(store, report, name=None):
    return [e for e in store.events(report.workflow_id) if name is None or e["event_name"] == name]


@pytest.mark.parametrize("path", [p for p in SCENARIOS if load_scenario(p).expect.decisions_at_most is not None], ids=lambda p: p.stem)
def test_scenario_goal_expectations(runtime, registry, path):
    scenario = load_scenario(path)
    expect = scenario.expect
    report = runtime.run_text(scenario.utterance, scenario=scenario)
    assert len(report.decisions) <= expect.decisions_at_most, report.decisions
    if expect.goal_status is None:
        assert report.goal is None
    else:
        assert report.goal.status == expect.goal_status, report.goal
        assert report.goal.decisions_spent <= report.goal.budget.max_decisions
    if expect.effects_achieved is not None:
        assert report.goal.effects_achieved == expect.effects_achieved
    policy = load_supervision_policy(registry)
    for key in expect.response_includes:
        assert _fixed({**policy.tell, **policy.ask}[key]) in report.response, (key, report.response)


def test_done_when_station_moved_to_study_is_found_within_budget_and_docks(tmp_path):
    result = CliRunner().invoke(app, ["run", "스테이션으로 돌아가", "--scenario", str(ROOT / "data/scenarios/station_moved.json"),
                                      "--db", str(tmp_path / "w.duckdb"), "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["status"] == "completed"
    assert data["steps"][-1]["capability_id"] == "return_to_station" and data["steps"][-1]["terminal_evidence"] == "docking.docked"
    assert data["steps"][-1]["output"]["room"] == "서재"
    assert data["decisions_spent"] == 1 <= 3 and [d["action"] for d in data["decisions"]] == ["replan"]
    assert "goal" not in data  # a single command is not admitted: no Experience metadata


def test_done_when_station_removed_stops_safely_and_says_why(runtime, store):
    scenario = load_scenario(ROOT / "data/scenarios/station_removed.json")
    report = runtime.run_text("스테이션으로 돌아가", scenario=scenario)
    assert (report.status, report.reason_code) == ("failed", "station_search_exhausted")
    assert [d["action"] for d in report.decisions] == ["replan", "cancel"] and len(report.decisions) <= 3
    assert not any(s.terminal_evidence == "docking.docked" for s in report.steps)
    assert "충전대를 찾지 못해" in report.response
    last = _events(store, report)[-1]
    # it stops: after the last probe nothing is started again
    assert not [e for e in _events(store, report, "RUNNING") if e["observed_at"] > last["observed_at"]]


def test_the_search_prefers_unvisited_rooms_and_never_repeats_one(runtime):
    scenario = load_scenario(ROOT / "data/scenarios/station_removed.json")
    report = runtime.run_text(scenario.utterance, scenario=scenario)
    moves = [s.output["room"] for s in report.steps if s.capability_id == "move_to_room" and s.status == "completed"]
    probes = [s.output["room"] for s in report.steps if s.capability_id == "docking_probe" and s.status == "completed"]
    failed_in = report.steps[0].output["room"]
    assert len(moves) == len(set(moves)) == 5 and failed_in not in moves
    assert probes == moves  # a probe in every room reached, none twice


def test_a_found_station_ends_the_search_early(runtime):
    scenario = Scenario(device_context={"position": "안방", "docked": False}, actual_station_room="주방")
    report = runtime.run_text("충전대로 돌아가", scenario=scenario)
    assert report.status == "completed" and report.steps[-1].terminal_evidence == "docking.docked"
    ran = [s for s in report.steps if s.status == "completed" and s.capability_id == "move_to_room"]
    assert [s.output["room"] for s in ran] == ["주방"]  # nearest first: 주방 is 6 m from 거실
    assert sum(s.status == "skipped" for s in report.steps) > 0
    assert "조건이 맞지 않아" not in report.response  # the rooms it did not need to visit are not news


def test_replans_are_bounded_by_the_budget(runner, store):
    no_replan = Supervisor(runner.registry, budget=DecisionBudget(max_decisions=3, max_replans=0))
    scenario = load_scenario(ROOT / "data/scenarios/station_moved.json")
    report = Runtime(store, runner, handler=no_replan).run_text(scenario.utterance, scenario=scenario)
    assert report.status == "failed" and [d["action"] for d in report.decisions] == ["cancel"]
    one_decision = Supervisor(runner.registry, budget=DecisionBudget(max_decisions=1, max_replans=1))
    report = Runtime(store, runner, handler=one_decision).run_text(scenario.utterance, scenario=scenario)
    assert [d["action"] for d in report.decisions] == ["cancel"]  # the last decision always ends the workflow
    assert "판단 한도" in report.response


def test_the_same_failure_is_never_retried_twice(runtime):
    scenario = Scenario(faults=[TaskFails(task_method="setFanSpeed", after_s=0, times=3, reason_code="timeout")])
    report = runtime.run_text("풍량 2단계로 맞춰줘", scenario=scenario)
    assert [d["action"] for d in report.decisions] == ["retry_local", "cancel"]
    moved = Scenario(faults=[TaskFails(task_method="setMoveTo", after_s=2, times=3, reason_code="timeout")])
    report = runtime.run_text("주방으로 가", scenario=moved)
    assert [d["action"] for d in report.decisions] == ["cancel"]  # a drive is physical: never retried by the cloud


def test_normal_events_spend_nothing_and_never_call_the_planner(runner, store):
    calls = []

    class CountingRunner:
        registry = runner.registry

        def route_with(self, *args, **kwargs):
            calls.append(args[0].recognized_text)
            return runner.route_with(*args, **kwargs)

    supervisor = Supervisor(runner.registry)
    runtime = Runtime(store, CountingRunner(), handler=supervisor)
    for text in ("주방 가서 청정하고 충전대로 복귀해", "거실로 가서 공기 상태 확인하고 필요하면 청정해줘", "30분 뒤에 청정 끄고 충전대로 돌아가",
                 "나이트모드 켜고 풍량 1단계로 낮춰"):
        report = runtime.run_text(text, {"position": "안방", "docked": False})
        assert report.decisions == [] and report.goal.decisions_spent == 0
    assert supervisor.calls == 0 and len(calls) == 4
    scenario = load_scenario(ROOT / "data/scenarios/station_moved.json")
    report = runtime.run_text(scenario.utterance, scenario=scenario)
    assert len(calls) == 5  # the replan came from the catalog, not from the planner
    opened = [e for e in store.events(report.workflow_id) if e["event_name"] in ("FAILED", "BLOCKED", "PAUSED", "TIMEOUT", "NEEDS_USER_INPUT")]
    assert supervisor.calls == len(opened) == 1


def test_after_existing_event_opens_the_news_only_after_the_clean_stopped(runtime, store):
    scenario = load_scenario(ROOT / "data/scenarios/goal_event_wait.json")
    report = runtime.run_text(scenario.utterance, scenario=scenario)
    news = store.steps(report.workflow_id)[0]
    assert news["route"] == "FRG" and news["status"] == "completed"
    start = 9 * 3600
    assert news["updated_sim_s"] >= start + 240  # air_clean.stopped at 240 s
    assert report.goal.temporal_relation == "after_existing_event" and report.goal.temporal_anchor_id == "selected_room_clean"
    # the user stopping the clean earlier releases the news earlier: it waits for the event, not for a time
    earlier = scenario.model_copy(update={"running_tasks": [scenario.running_tasks[0].model_copy(update={"ends_after_s": 30})]})
    report = runtime.run_text(scenario.utterance, scenario=earlier)
    assert start + 30 <= store.steps(report.workflow_id)[0]["updated_sim_s"] < start + 240


def test_after_existing_event_with_nothing_running_starts_nothing(runtime, store):
    report = runtime.run_text("하던 청정 끝나면 작은방 가서 또 청정해")
    assert (report.status, report.reason_code) == ("cancelled", "anchor_not_running")
    assert _events(store, report) == []  # nothing was even queued: the clean is never started in its place
    assert report.goal.status == "not_started" and "아무것도 시작하지 않았어요" in report.response


def test_after_existing_event_device_steps_wait_on_the_task_manager(runtime, store):
    scenario = load_scenario(ROOT / "data/scenarios/goal_event_wait_scan.json")
    report = runtime.run_text(scenario.utterance, scenario=scenario)
    running = _events(store, report, "RUNNING")
    assert running and min(e["observed_at"] for e in running) >= 9 * 3600 + 600


def test_clock_delay_is_kept_by_the_task_manager_with_or_without_experience(runner, store):
    for experience in (True, False):
        report = Runtime(store, runner, experience=experience).run_text("30분 뒤에 청정 끄고 충전대로 돌아가")
        running = _events(store, report, "RUNNING")
        assert [e["step_id"] for e in running] == ["step_2", "step_3"]
        assert min(e["observed_at"] for e in running) >= 9 * 3600 + 1800
        assert (report.goal is not None) == experience
        timer = [s for s in store.schedules() if s.workflow_id == report.workflow_id]
        assert timer and timer[0].kind == "timer" and timer[0].duration_s == 1800


def test_admitted_goal_is_stored_with_its_workflow(runtime, store):
    report = runtime.run_text("주방 가서 청정하고 충전대로 복귀해", {"position": "안방", "docked": False})
    goal, stored = load_goal(store, report.workflow_id)
    assert goal.success_criteria == ["target_location_reached", "air_cleaning_active", "docked_at_station"]
    assert goal.plan_binding["step_ids"] == ["step_1", "step_2", "step_3"]
    assert goal.decision_budget == {"max_decisions": 3, "max_replans": 1}
    assert stored.status == "achieved" and stored == report.goal
    assert runtime.stored_report(report.workflow_id).goal == report.goal
    single = runtime.run_text("주방으로 가")
    assert single.goal is None and load_goal(store, single.workflow_id) is None


def test_goal_complete_only_with_every_terminal_evidence(runtime):
    lost = load_scenario(ROOT / "data/scenarios/callback_lost.json")
    report = runtime.run_text(lost.utterance, scenario=lost)
    assert report.goal.status == "not_achieved" and "target_location_reached" in report.goal.effects_missing
    fine = runtime.run_text("거실로 가서 공기 상태 확인하고 필요하면 청정해줘", {"position": "안방"})
    assert fine.goal.status == "achieved"
    # the clean its guard skipped was not needed: neither achieved nor missing
    assert fine.goal.effects_not_required == ["air_cleaning_active"]


def test_cli_run_shows_goal_status_effects_and_decisions(tmp_path):
    db = str(tmp_path / "w.duckdb")
    result = CliRunner().invoke(app, ["run", "주방 가서 청정하고 충전대로 복귀해", "--scenario",
                                      str(ROOT / "data/scenarios/goal_station_moved.json"), "--db", db])
    assert result.exit_code == 0, result.output
    assert "achieved" in result.output and "decisions spent 1/3, replans 1/1" in result.output
    assert "docked_at_station achieved" in result.output
    listed = CliRunner().invoke(app, ["goals", "list", "--db", db])
    assert listed.exit_code == 0 and "achieved" in listed.output


def test_resume_keeps_the_goal(runner, tmp_path):
    db = tmp_path / "w.duckdb"
    store = WorkflowStore(db)
    report = Runtime(store, runner).run_text("주방 가서 청정하고 충전대로 복귀해", {"position": "안방", "docked": False})
    again, stats = Runtime(store, runner).resume(report.workflow_id)
    assert again.goal == report.goal and stats == {"replayed": 0, "new": 0}
    store.close()


class Killed(Exception):
    pass


def test_resume_in_the_middle_of_a_search_replays_the_same_decisions(runner, tmp_path):
    db = tmp_path / "w.duckdb"
    store = WorkflowStore(db)
    scenario = load_scenario(ROOT / "data/scenarios/goal_station_moved.json")

    def kill_mid_search(run, event, new):
        if event.step_id.endswith("_search_2_probe") and event.event_name == "COMPLETED":
            raise Killed  # the process dies between two callbacks

    with pytest.raises(Killed):
        Runtime(store, runner).run_text(scenario.utterance, scenario=scenario, listener=kill_mid_search)
    store.close()  # the killed process's memory is gone; only the database file remains
    store = WorkflowStore(db)
    workflow_id = store.list_workflows(1)[0]["workflow_id"]
    assert store.workflow(workflow_id)["status"] == "running"
    assert [d["action"] for d in store.decisions(workflow_id)] == ["replan"]
    report, stats = Runtime(store, runner).resume(workflow_id)
    assert report.status == "completed" and report.goal.status == "achieved"
    assert stats["replayed"] > 0 and stats["new"] > 0
    assert [d["action"] for d in store.decisions(workflow_id)] == ["replan"]  # the decision is not taken twice
    assert report.goal.decisions_spent == 1 and report.steps[-1].terminal_evidence == "docking.docked"
    store.close()


def test_a_bad_running_task_is_a_clear_error(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"running_tasks": [{"capability_id": "teleport"}]}', encoding="utf-8")
    result = CliRunner().invoke(app, ["run", "청정이 끝나면 뉴스 알려줘", "--scenario", str(bad), "--db", str(tmp_path / "w.duckdb")])
    assert result.exit_code == 2 and "unknown capability 'teleport'" in result.output and "Traceback" not in result.output
