"""The whole DAG through the driver."""

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from dataflow.cli.main import app
from dataflow.driver import DriverConfig, TurnRunner, build_driver
from dataflow.schemas import schema_texts
from registry.contracts import DeviceContext, VoiceContext
from registry.errors import ConfigError
from tests.conftest import actions
from tests.fake_gemini import InProcessFake

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("config", DriverConfig.all_valid(), ids=str)
def test_driver_builds_for_every_valid_config(config, registry):
    dr = build_driver(config)
    assert "decision_record" in {v.name for v in dr.list_available_variables()}
    runner = TurnRunner(config, registry, model_client=InProcessFake() if config.uses_model else None)
    assert runner.route_text("고마워").family == "DEF"


def test_misspelt_config_fails_loudly():
    with pytest.raises(ConfigError, match="planner_backend"):
        DriverConfig.parse({"planner_backend": "heuristik"})


def test_done_when_guarded_multi_step(runner):
    rec = runner.route_text("거실로 가서 공기 상태 확인하고 필요하면 청정해줘", device_context=DeviceContext(position="안방"))
    assert rec.family == "ODL" and rec.turn_mode == "multi_step"
    assert rec.selected_flow_id == "ODL.ODL.multi_step_device_workflow"
    assert actions(rec) == [
        ("move_to_room", "start", {"room_name": "거실"}, False),
        ("air_quality", "check", {}, False),
        ("selected_room_clean", "start", {}, True),
    ]
    guard = rec.steps[2].condition
    assert guard.kind == "step_output" and guard.step_id == rec.steps[1].id and guard.value == ["bad", "very_bad"]
    assert rec.steps[2].depends_on == [rec.steps[1].id]


def test_done_when_unsupported(runner):
    rec = runner.route_text("유튜브 틀어줘")
    assert rec.family == "UNS" and rec.unsupported_categories == ["streaming_or_app_execution"]
    assert not any(s.action for s in rec.steps)


def test_done_when_schedule_continuation(runner):
    voice = VoiceContext(last_route="SCH", slot_state={"owner_route": "SCH", "skill": "schedule_device_task_create",
                                                       "function": "stationary_purify", "missing_slots": ["start_time"]})
    rec = runner.route_text("매일 오후 6시", voice_context=voice)
    assert rec.family == "SCH" and rec.selected_skill == "schedule_device_task_create"
    assert rec.slots["start_time"] == "18:00" and rec.slots["repeat_days"] == ["daily"]
    assert rec.missing_slots == [] and rec.turn_mode == "multi_turn"
    # the same fragment with no open workflow is not a schedule
    assert runner.route_text("매일 오후 6시").family != "ODL"


def test_battery_guard_is_a_condition_not_a_step(runner):
    rec = runner.route_text("배터리 충분하면 안방 가서 청정해")
    assert [a[0] for a in actions(rec)] == ["move_to_room", "selected_room_clean"]
    assert all(s.condition and s.condition.kind == "state" and s.condition.path == "device.battery_percent" for s in rec.steps)


def test_photo_needs_consent_first(runner):
    rec = runner.route_text("사진 찍어줘")
    assert [a[0] for a in actions(rec)] == ["request_consent", "take_photo"]
    assert rec.steps[1].condition.step_id == rec.steps[0].id


def test_clean_vs_vacuum_and_unknown_mode(runner):
    assert runner.route_text("청정해줘").family == "ODL"
    rec = runner.route_text("청소해줘")
    assert rec.family == "UNS" and rec.unsupported_categories == ["floor_cleaning"]
    party = runner.route_text("파티 모드 켜")
    assert party.family == "UNS" and party.unsupported_categories == ["unsupported_device_mode"]


def test_levels_from_words(runner):
    assert actions(runner.route_text("풍량 강으로 해줘")) == [("fan_speed", "level", {"level": 3}, False)]
    assert actions(runner.route_text("볼륨 다섯으로 해줘")) == [("sound_volume", "level", {"level": 5}, False)]
    assert actions(runner.route_text("밝기 2단계")) == [("screen_brightness", "level", {"level": 2}, False)]


def test_gray_zone_goes_through_second_pass(runner):
    rec = runner.route_text("드래곤 길들이기")
    assert rec.family in ("FRG", "STT_NULL", "DEF")
    assert rec.second_pass_ran


def test_record_has_stage_timings_and_trace(runner):
    rec = runner.route_text("고마워")
    assert len(rec.trace_id) == 32
    assert {"normalized_text", "preclassifier_hints", "planner_output", "decision_record"} <= set(rec.usage.stage_ms)
    assert rec.usage.total_ms > 0


def test_committed_schemas_match_the_code():
    for name, text in schema_texts().items():
        committed = ROOT / "schemas" / name
        assert committed.exists(), f"missing {committed}: run `a2a schema --out schemas`"
        assert committed.read_text(encoding="utf-8") == text, f"{name} is stale: run `a2a schema --out schemas`"


def test_cli_route_json_and_view():
    cli = CliRunner()
    out = cli.invoke(app, ["route", "유튜브 틀어줘", "--json"])
    assert out.exit_code == 0, out.output
    assert json.loads(out.output)["family"] == "UNS"
    view = cli.invoke(app, ["route", "거실로 가줘"])
    assert view.exit_code == 0 and "move_to_room" in view.output


def test_cli_graph_writes_dot(tmp_path):
    out = CliRunner().invoke(app, ["graph", "--out", str(tmp_path / "g.dot")])
    assert out.exit_code == 0, out.output
    dot = (tmp_path / "g.dot").read_text()
    assert "preclassifier_hints" in dot and "planner_output" in dot


def test_slot_answer_fills_only_what_the_earlier_turn_asked_for(runner):
    voice = VoiceContext(last_route="SCH", slot_state={"owner_route": "SCH", "skill": "schedule_reminder_create", "missing_slots": ["message"]})
    rec = runner.route_text("빨래 꺼내라고", voice_context=voice)
    assert rec.selected_skill == "schedule_reminder_create"
    assert rec.slots["message"] == "빨래 꺼내"  # a word merely ending like a quotative ("빨래") quotes nothing
    assert rec.missing_slots == []


@pytest.mark.parametrize("state,text,expected", [
    ({"capability_id": "move_to_room", "missing_slots": ["room_name"]}, "공부방", ("move_to_room", "start", {"room_name": "서재"})),
    ({"capability_id": "fan_speed", "missing_slots": ["level"]}, "강으로", ("fan_speed", "level", {"level": 3})),
])
def test_a_slot_answer_needs_no_operation_id_when_one_operation_takes_the_slot(runner, state, expected, text):
    """A voice context that names the capability and the slot it asked for but no operation (a client that leaves it
    out) is still the robot's open question: the one operation taking that slot is the one asked about."""
    voice = VoiceContext(last_route="ODL", pending_follow_up_text="어느 쪽으로 할까요?", history_hint_strength="strong",
                         slot_state={"owner_route": "ODL", **state})
    rec = runner.route_text(text, voice_context=voice)
    assert rec.family == "ODL"
    assert [(s.action.capability_id, s.action.operation_id, s.action.arguments) for s in rec.steps if s.action] == [expected]


def test_plain_unsupported_request_is_not_a_goal(runner):
    rec = runner.route_text("리모컨 가져와")
    assert rec.family == "UNS" and rec.experience_admission == "not_admitted"
