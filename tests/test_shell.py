"""`a2a shell`: turns read from stdin through one warm runner, the voice context carried from turn to turn."""

import json
import re

import pytest
from typer.testing import CliRunner

from dataflow.cli.main import app
from dataflow.conversation import follow_up_voice_context, labelled_row
from registry.contracts import VoiceContext

SCHEDULE = "고정청정 예약해줘\n매일 오후 6시\n"
WORKFLOW = "거실로 가서 공기 상태 확인하고 필요하면 청정해줘"


@pytest.fixture
def shell(runner, monkeypatch, tmp_path):
    """`a2a shell ARGS` with INPUT on stdin, on the session's warm runner (no driver built per test)."""
    monkeypatch.setattr("dataflow.cli.common.make_runner", lambda **options: runner)

    def invoke(input_text, *args):
        return CliRunner().invoke(app, ["shell", "--db", str(tmp_path / "w.duckdb"), *args], input=input_text,
                                  env={"COLUMNS": "200", "NO_COLOR": "1"})

    return invoke


def _records(result) -> list[dict]:
    return [json.loads(line) for line in result.stdout.splitlines() if line.strip()]


def _flat(text: str) -> str:
    """CLI output without rich's box drawing and line wrapping."""
    return re.sub(r"[\s│╭╮╰╯─]+", " ", text)


def test_done_when_a_schedule_with_a_missing_time_continues_on_the_next_line(shell):
    result = shell(SCHEDULE, "--json")
    assert result.exit_code == 0, result.output
    first, second = _records(result)
    assert first["family"] == "SCH" and first["missing_slots"] == ["start_time"]
    assert second["family"] == "SCH" and second["missing_slots"] == []
    assert {k: second["slots"][k] for k in ("function", "start_time", "repeat_days")} == {
        "function": "stationary_purify", "start_time": "18:00", "repeat_days": ["daily"]}


def test_a_level_asked_back_is_answered_on_the_next_line(shell):
    result = shell("바람 좀 해 줘\n터보\n", "--json")
    assert result.exit_code == 0, result.output
    first, second = _records(result)
    assert first["missing_slots"] == ["level"] and first["slots"] == {"capability_id": "fan_speed", "operation_id": "level"}
    assert [s["action"] for s in second["steps"] if s.get("action")] == [
        {"capability_id": "fan_speed", "operation_id": "level", "arguments": {"level": 4}}]


def test_a_saved_turn_scores_as_a_full_pass_in_a_batch(shell, tmp_path):
    set_path = tmp_path / "sets" / "shell.jsonl"
    result = shell(f"{SCHEDULE}:save {set_path}\n{WORKFLOW}\n:save {set_path}\n", "--json", "--device-context", '{"position": "안방"}')
    assert result.exit_code == 0, result.output
    rows = [json.loads(line) for line in set_path.read_text(encoding="utf-8").splitlines()]
    assert [r["text"] for r in rows] == ["매일 오후 6시", WORKFLOW]
    assert rows[0]["voice_context"]["slot_state"]["missing_slots"] == ["start_time"]  # the context the turn was routed with
    assert rows[0]["expect"]["slots"]["start_time"] == "18:00" and rows[1]["expect"]["actions"][2]["conditional"] is True
    run = tmp_path / "run"
    batch = CliRunner().invoke(app, ["batch", str(set_path), "--out", str(run)], env={"COLUMNS": "200"})
    assert batch.exit_code == 0, batch.output
    metrics = json.loads((run / "metrics.json").read_text(encoding="utf-8"))
    assert metrics["rows"] == 2 and metrics["errors"] == 0 and metrics["false_actions"] == 0
    assert metrics["family_accuracy"] == metrics["action_exact_match"] == metrics["missing_slots_accuracy"] == metrics["slot_accuracy"] == 1.0
    assert (run / "errors.jsonl").read_text(encoding="utf-8") == ""


def test_an_unknown_command_is_one_error_line_and_the_shell_goes_on(shell):
    result = shell(":nope\n\n거실로 가줘\n", "--json")
    assert result.exit_code == 0, result.output
    assert result.stderr.strip() == "error: unknown command ':nope' (:help lists them)"
    assert [r["family"] for r in _records(result)] == ["ODL"]


def test_bad_lines_never_end_the_session(shell):
    lines = b":json\n:save\n:run\n:trace\n\xff\xfe\n" + "거실로 가줘\n:save\n:trace out.bmp\n:quit\n청정해줘\n".encode()
    result = shell(lines, "--json")
    assert result.exit_code == 0, result.output
    assert "Traceback" not in result.output
    errors = result.stderr.splitlines()
    assert len(errors) == 7 and all(line.startswith("error: ") for line in errors)
    assert "not UTF-8" in errors[4] and ".png, .svg or .dot" in errors[6]
    assert [r["text"] for r in _records(result)] == ["거실로 가줘"]  # nothing after :quit


def test_reset_forgets_the_carried_context(shell):
    result = shell("고정청정 예약해줘\n:context\n:reset\n:context\n", "--json")
    assert result.exit_code == 0, result.output
    _, carried, cleared = _records(result)
    assert carried["slot_state"]["function"] == "stationary_purify" and carried["active_workflow_summary"].startswith("sch")
    assert cleared == VoiceContext().model_dump()


def test_run_executes_the_last_plan_on_the_simulator(shell):
    result = shell("거실로 가줘\n:run\n", "--json", "--seed", "3")
    assert result.exit_code == 0, result.output
    record, report = _records(result)
    assert record["family"] == "ODL"
    assert report["status"] == "completed" and report["steps"][0]["capability_id"] == "move_to_room"


def test_the_human_view_shows_family_steps_and_reply(shell):
    result = shell(f"{WORKFLOW}\n")
    assert result.exit_code == 0, result.output
    out = _flat(result.stdout)
    assert "ODL" in out and "confidence high" in out and "move_to_room.start" in out and "tts:" in out


@pytest.mark.parametrize("context, expected", [("{bad", "not valid JSON"), ('{"battery_percent": 500}', "battery_percent"),
                                               ('{"no_such_field": 1}', "unknown field")])
def test_a_bad_device_context_is_an_error_not_a_traceback(shell, context, expected):
    result = shell("거실로 가줘\n", "--device-context", context)
    assert result.exit_code == 2, result.output
    assert isinstance(result.exception, SystemExit)
    assert "Traceback" not in result.output and expected in _flat(result.output)


# --- the voice context a decision leaves (plain functions) ---------------------------------------


def test_an_open_slot_filling_is_carried_like_the_labelled_multi_turn_rows(runner):
    voice = follow_up_voice_context(runner.route_text("고정청정 예약해줘"))
    assert voice.last_route == "SCH" and voice.history_hint_strength == "strong"
    assert voice.slot_state == {"owner_route": "SCH", "skill": "schedule_device_task_create", "function": "stationary_purify",
                                "missing_slots": ["start_time"]}
    assert voice.active_workflow_summary == "sch schedule_device_task_create waiting for start_time"
    assert voice.pending_follow_up_text.startswith("언제 실행할까요?")


def test_a_finished_turn_leaves_only_its_route(runner):
    voice = follow_up_voice_context(runner.route_text("거실로 가줘"))
    assert voice == VoiceContext(last_route="ODL", history_hint_strength="weak")


def test_a_labelled_row_writes_actions_in_the_set_format(runner):
    record = runner.route_text(WORKFLOW)
    row = labelled_row(record, VoiceContext(), {}, "r1")
    assert "device_context" not in row and row["expect"]["family"] == "ODL" and "slots" not in row["expect"]
    assert row["expect"]["actions"][1] == {"capability_id": "air_quality", "operation_id": "check"}
