"""Acts the turn's context completes (stages._context_acts): an answer to the robot's own question back completes the
device request it was asked for (the question keeps its act in the voice context, the answer gives the argument, and
nothing else reads as one), and a stop goes to what is running when the word said names it."""

from __future__ import annotations

import pytest

from dataflow.conversation import follow_up_voice_context
from dataflow.runtime.loop import Runtime
from dataflow.runtime.store import WorkflowStore
from device.scenario import RunningTask, Scenario
from registry.contracts import Slots, TurnInput, VoiceContext, WorkflowContext
from registry.plan_contracts import PlannerOutput
from stages.boundaries import plan_violations
from tests.conftest import actions


def _asked(runner, text: str) -> VoiceContext:
    record = runner.route_text(text)
    assert record.family == "ODL" and len(record.missing_slots) == 1 and actions(record) == []
    return follow_up_voice_context(record)


def _context(capability: str, operation: str, slot: str) -> VoiceContext:
    state = {"owner_route": "ODL", "capability_id": capability, "operation_id": operation, "missing_slots": [slot]}
    return VoiceContext(last_route="ODL", slot_state=state, pending_follow_up_text="?", history_hint_strength="strong")


def test_the_level_asked_back_is_set_by_the_answer_on_the_next_turn(runner):
    voice = _asked(runner, "바람 좀 해 줘")
    assert voice.slot_state["capability_id"] == "fan_speed" and voice.slot_state["missing_slots"] == ["level"]
    for answer, level in (("터보", 4), ("음… 약으로", 1), ("중으로 해 주십시오", 2), ("삼 단계로 해 줘", 3)):
        record = runner.route_text(answer, voice_context=voice)
        assert record.family == "ODL" and record.turn_mode == "multi_turn", answer
        assert actions(record) == [("fan_speed", "level", {"level": level}, False)], answer


def test_the_room_asked_back_is_where_the_robot_goes(runner):
    voice = _asked(runner, "화장실로 가 줘")
    assert (voice.slot_state["capability_id"], voice.slot_state["operation_id"]) == ("move_to_room", "start")
    for answer, room in (("서재", "서재"), ("아기방…이요", "아이방"), ("어… 그 서재?", "서재"), ("안방 말고 서재", "서재"),
                         ("서재…", "서재"), ("서재야", "서재"), ("큰방 큰방 말이다.", "안방")):
        record = runner.route_text(answer, voice_context=voice)
        assert record.family == "ODL" and actions(record) == [("move_to_room", "start", {"room_name": room}, False)], answer


@pytest.mark.parametrize("talk", ["안방에 엄마 있어?", "거실은 아까 했잖아", "자기야 택배 왔나 봐 나가 봐", "안방에서 자",
                                  "서재랑 안방", "와 밖에 바람 진짜 장난 아니네요", "안방은 엄마 방이야", "엄마는 안방이야"])
def test_talk_after_the_question_is_no_answer(runner, talk):
    for voice in (_context("move_to_room", "start", "room_name"), _context("fan_speed", "level", "level")):
        assert actions(runner.route_text(talk, voice_context=voice)) == [], talk


def test_a_level_the_operation_does_not_take_answers_nothing(runner):
    assert actions(runner.route_text("9단", voice_context=_context("fan_speed", "level", "level"))) == []


@pytest.mark.parametrize("state", [
    {"capability_id": "self_destruct", "operation_id": "start", "missing_slots": ["room_name"]},
    {"capability_id": "move_to_room", "operation_id": "explode", "missing_slots": ["room_name"]},
    {"capability_id": "move_to_room", "operation_id": "start", "missing_slots": ["level"]},
    {"capability_id": "move_to_room", "operation_id": "start", "missing_slots": ["room_name", "level"]},
])
def test_a_voice_context_naming_no_registered_act_completes_none(runner, state):
    voice = VoiceContext(last_route="ODL", slot_state={"owner_route": "ODL", **state}, history_hint_strength="strong")
    record = runner.route_text("서재", voice_context=voice)
    assert record.error is None and actions(record) == []


def test_an_act_asked_back_for_must_be_in_the_registry(runner, registry):
    plan = PlannerOutput(turn_mode="multi_turn", selected_routes=["ODL"], selected_flow_id="ODL.ODL.device_execution_bridge",
                         selected_agent="ODL", selected_skill="device_execution_bridge", owner_selection="ODL", steps=[],
                         missing_slots=["room_name"], family_confidence="high", tts_response="",
                         slots=Slots(capability_id="self_destruct", operation_id="start"))
    turn = TurnInput(recognized_text="가 줘")
    _, nodes = runner.route_with(turn, ("clause_analyses",))
    assert [v.code for v in plan_violations(plan, nodes["clause_analyses"], turn, registry)] == ["unknown_capability"]
    known = plan.model_copy(update={"slots": Slots(capability_id="move_to_room", operation_id="start")})
    assert plan_violations(known, nodes["clause_analyses"], turn, registry) == []


# --- a stop for what runs ----------------------------------------------------------------------


def _stops(runner, text: str, running: list[str]):
    return actions(runner.route(TurnInput(recognized_text=text, workflow_context=WorkflowContext(running_capabilities=running))))


def test_a_stop_goes_to_the_running_capability_its_word_names(runner):
    for text in ("청정 그만해", "청정 꺼"):
        assert _stops(runner, text, ["stationary_purify"]) == [("stationary_purify", "stop", {}, False)], text
        assert _stops(runner, text, []) == [("selected_room_clean", "stop", {}, False)], text  # nothing runs: the word's own
        assert _stops(runner, text, ["selected_room_clean", "stationary_purify"]) == [("selected_room_clean", "stop", {}, False)]
    # a word no running capability's name holds keeps its capability; an unknown id running is ignored
    assert _stops(runner, "고정청정 꺼", ["selected_room_clean"]) == [("stationary_purify", "stop", {}, False)]
    assert _stops(runner, "청정 그만해", ["teleport"]) == [("selected_room_clean", "stop", {}, False)]


def test_the_robot_stops_what_runs_and_never_says_it_stopped_what_did_not_run(runner):
    store = WorkflowStore(":memory:")
    try:
        runtime = Runtime(store, runner)
        report = runtime.run_text("청정 그만해", scenario=Scenario(running_tasks=[RunningTask(capability_id="stationary_purify")]))
        done = store.events(report.workflow_id)[-1]
        assert (done["task_method"], done["terminal_evidence"]) == ("stopStationaryPurify", "purify.stopped")
        assert '"was_running": true' in done["output_json"] and report.response == "고정청정을 멈췄어요."
        idle = runtime.run_text("청정 그만해", scenario=Scenario())
        assert "멈췄" not in idle.response and "하고 있지 않았어요" in idle.response
    finally:
        store.close()


def test_a_bare_voice_stop_stops_the_one_thing_running(runner):
    assert _stops(runner, "멈춰", ["stationary_purify"]) == [("stationary_purify", "stop", {}, False)]
    assert _stops(runner, "이제 그만", ["selected_room_clean"]) == [("selected_room_clean", "stop", {}, False)]
    # two things running, nothing running, or the stop said to a person: no act is guessed
    assert _stops(runner, "멈춰", ["stationary_purify", "scanning_clean"]) == []
    assert _stops(runner, "멈춰", []) == []
    assert _stops(runner, "엄마 그만해", ["stationary_purify"]) == []
    store = WorkflowStore(":memory:")
    try:
        report = Runtime(store, runner).run_text("멈춰", scenario=Scenario(running_tasks=[RunningTask(capability_id="stationary_purify")]))
        assert report.response == "고정청정을 멈췄어요."
    finally:
        store.close()
