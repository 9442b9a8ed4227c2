"""End to end: the done-when turns, every fault scenario of data/scenarios, and answers that never overclaim."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from dataflow.cli.main import app
from dataflow.runtime.loop import Runtime
from dataflow.runtime.store import WorkflowStore
from device.scenario import load_scenario
from registry.templates import load_response_templates

ROOT = Path(__file__).resolve().parents[1]
SCENARIOS = sorted((ROOT / "data/scenarios").glob("*.json"))


@pytest.fixture()
def runtime(runner):
    store = WorkflowStore(":memory:")
    yield Runtime(store, runner)
    store.close()


def _success_wordings(evidence_key: str) -> list[str]:
    """The fixed part (before the first placeholder) of the sentences that claim an evidence."""
    t = load_response_templates()
    texts = [v for k, v in t.evidence.items() if k == evidence_key or k.endswith("/" + evidence_key) or k.startswith(evidence_key + "/")
             or f"/{evidence_key}/" in k]
    parts = []
    for text in texts:
        fixed = max(text.replace("}", "{").split("{")[::2], key=len).strip()
        if len(fixed) >= 4:
            parts.append(fixed)
    return parts


def test_scenarios_cover_every_fault_kind():
    kinds = {f["kind"] for path in SCENARIOS for f in json.loads(path.read_text(encoding="utf-8")).get("faults", [])}
    assert {"path_blocked", "task_fails", "callback_lost", "callback_duplicated", "callbacks_out_of_order"} <= kinds
    names = {p.stem for p in SCENARIOS}
    assert {"station_moved", "low_battery_move", "vital_signs_user_cancels", "consent_denied"} <= names


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_each_fault_scenario_ends_as_it_should(runtime, path):
    scenario = load_scenario(path)
    report = runtime.run_text(scenario.utterance, scenario=scenario)
    expect = scenario.expect
    assert (report.status, report.reason_code if expect.reason_code else None) == (expect.status, expect.reason_code), report.response
    by_cap = {s.capability_id: s.status for s in report.steps}
    for cap, status in expect.step_statuses.items():
        assert by_cap.get(cap) == status, (cap, by_cap)
    for evidence in expect.response_excludes:
        assert _success_wordings(evidence), evidence
        for wording in _success_wordings(evidence):
            assert wording not in report.response, (evidence, wording, report.response)
    for step in report.steps:  # nothing is called done without its terminal evidence
        if step.status == "completed" and step.capability_id:
            assert step.terminal_evidence is not None


def test_duplicated_and_shuffled_callbacks_change_nothing(runtime):
    scenario = load_scenario(ROOT / "data/scenarios/callbacks_duplicated_out_of_order.json")
    faulty = runtime.run_text(scenario.utterance, scenario=scenario)
    clean = runtime.run_text(scenario.utterance)
    assert [(s.step_id, s.status, s.terminal_evidence) for s in faulty.steps] == [(s.step_id, s.status, s.terminal_evidence) for s in clean.steps]
    assert faulty.response == clean.response
    ids = [e["event_id"] for e in runtime.store.events(faulty.workflow_id)]
    assert len(ids) == len(set(ids))
    assert len(ids) == len(runtime.store.events(clean.workflow_id))


def test_done_when_guarded_move_check_clean(runtime):
    report = runtime.run_text("거실로 가서 공기 상태 확인하고 필요하면 청정해줘", {"position": "안방"})
    assert report.status == "completed"
    move, air, clean = report.steps
    assert (move.capability_id, move.terminal_evidence, move.output["room"]) == ("move_to_room", "movement.arrived", "거실")
    assert (air.capability_id, air.terminal_evidence) == ("air_quality", "state.reported")
    bad = air.output["level"] in ("bad", "very_bad")
    assert clean.status == ("completed" if bad else "skipped")
    assert (clean.terminal_evidence == "air_clean.running") == bad
    assert report.clocks.first_response_ms > 0 and report.clocks.completion_sim_s > 0
    assert runtime.store.turn(report.trace_id)["completion_sim_s"] == report.clocks.completion_sim_s


def test_the_clean_runs_only_when_the_reading_is_bad(runtime):
    report = runtime.run_text("거실로 가서 공기 상태 확인하고 필요하면 청정해줘",
                              {"position": "안방", "pm25_by_room": {"living_room": 60}})
    assert [s.status for s in report.steps] == ["completed", "completed", "completed"]
    assert report.steps[1].output["level"] == "bad" and report.steps[2].terminal_evidence == "air_clean.running"


def test_done_when_privacy_blocks_vital_signs_without_claiming_a_measurement(runtime):
    report = runtime.run_text("바이탈사인 측정해줘", {"privacy_mode": True})
    # the supervisor turns a privacy block into a question to the user, never into an action
    assert (report.status, report.reason_code) == ("needs_user_input", "privacy_mode_active")
    assert report.steps[0].status == "blocked" and [d["action"] for d in report.decisions] == ["ask_user"]
    for wording in _success_wordings("app.sessionEnded"):
        assert wording not in report.response
    assert report.steps[0].terminal_evidence is None


@pytest.mark.parametrize("text, photos", [("안방 가서 사진 찍고 거실 가서 사진 찍어", 2), ("사진 두 장 찍어줘", 2), ("사진 찍어줘", 1)])
def test_every_photo_gets_its_own_consent_and_is_taken(runtime, text, photos):
    """The device spends a granted consent on one photo: a second photo with a shared consent was blocked."""
    report = runtime.run_text(text)
    taken = [s for s in report.steps if s.capability_id == "take_photo"]
    asked = [s for s in report.steps if s.capability_id == "request_consent"]
    assert len(taken) == len(asked) == photos
    assert report.status == "completed" and all(s.status == "completed" for s in report.steps)


def test_done_when_low_battery_blocks_the_move(runtime):
    report = runtime.run_text("안방으로 가", {"battery_percent": 10})
    assert (report.status, report.reason_code) == ("blocked", "battery_low")
    assert "10%" in report.response


def test_cloud_routes_answer_from_evidence_only(runtime):
    frg = runtime.run_text("오늘 날씨 어때")
    assert frg.status == "completed" and frg.response == load_response_templates().cloud["FRG_offline"]
    guarded = runtime.run_text("밖에 미세먼지 나쁘면 청정해줘")
    assert guarded.status == "blocked" and guarded.reason_code == "condition_unresolvable"
    assert not any(e["event_name"] == "RUNNING" for e in runtime.store.events(guarded.workflow_id))
    dqr = runtime.run_text("필터 교체 주기를 알려줘")
    if dqr.steps and dqr.steps[0].route == "DQR":
        record_answer = json.loads(runtime.store.workflow(dqr.workflow_id)["record_json"]).get("answer")
        expected = (record_answer or {}).get("text") or load_response_templates().cloud["DQR_no_index"]
        assert dqr.response == expected


def test_cli_run_json_shape(tmp_path):
    result = CliRunner().invoke(app, ["run", "안방으로 가", "--device-context", '{"battery_percent": 10}', "--db", str(tmp_path / "w.duckdb"), "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert {"trace_id", "workflow_id", "status", "steps", "response", "clocks"} <= set(data)
    assert set(data["steps"][0]) >= {"step_id", "capability_id", "status", "reason_code", "terminal_evidence"}
    assert set(data["clocks"]) == {"first_response_ms", "completion_sim_s"}
    assert data["status"] == "blocked"


def test_cli_bad_input_is_a_clear_error(tmp_path):
    cli = CliRunner()
    db = str(tmp_path / "w.duckdb")
    bad_ctx = cli.invoke(app, ["run", "안방으로 가", "--device-context", '{"battery": 10}', "--db", db])
    assert bad_ctx.exit_code == 2 and "unknown field 'battery'" in bad_ctx.output
    missing = cli.invoke(app, ["run", "안방으로 가", "--scenario", str(tmp_path / "none.json"), "--db", db])
    assert missing.exit_code == 2 and "scenario file not found" in missing.output
    unknown = cli.invoke(app, ["workflows", "show", "wf-nope", "--db", db])
    assert unknown.exit_code == 2 and "unknown workflow id" in unknown.output
    for out in (bad_ctx, missing, unknown):
        assert "Traceback" not in out.output
