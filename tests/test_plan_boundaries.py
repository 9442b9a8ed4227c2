"""Plan boundaries for every backend: a plan does only what the turn asked.

The heuristic's own plans keep them by construction (checked over the labelled sets in the figures); here
the model backends, through the real google-genai client against the fake Gemini server on 127.0.0.1,
and the boundary rules on hand-made plans.
"""

from __future__ import annotations

import pytest

from dataflow.driver import DriverConfig, TurnRunner, shared_kiwi
from dataflow.model_client import client_from_env
from registry.contracts import TurnInput
from registry.plan_contracts import Action, PlannerOutput, Step, StepOutputCondition
from tests.conftest import actions
from tests.fake_gemini import FakeGemini, planner_answer, valid_responder
from tests.test_model_backends import fast_policy

from stages.boundaries import claimed_effects, plan_violations


@pytest.fixture
def fake():
    server = FakeGemini()
    yield server
    server.close()


def gemini(fake: FakeGemini, registry) -> TurnRunner:
    client = client_from_env(env={"GEMINI_API_KEY": "test-key", "A2A_GEMINI_BASE_URL": fake.base_url}, policy=fast_policy())
    return TurnRunner(DriverConfig(planner_backend="gemini"), registry, model_client=client)


def device_step(step_id: str, capability: str, operation: str = "start", route: str = "ODL", **arguments) -> dict:
    return {"id": step_id, "route": route, "purpose": capability, "output_key": f"{capability}_result", "execution_target": "device",
            "wait_policy": "completed", "capability_id": capability, "operation_id": operation,
            "arguments": [{"name": k, "value": str(v)} for k, v in arguments.items()]}


def answering(**plan):
    """A responder whose planner answer is the packet's top flow with these fields (always the same, repair too)."""
    def respond(packet):
        return planner_answer(packet, **plan) if packet["task"] == "main_planner" else valid_responder(packet)
    return respond


def codes(rec) -> set[str]:
    return {v.code for v in rec.evidence.planner.violations}


# --- model plans -----------------------------------------------------------------------------


def test_a_weather_answer_that_moves_the_robot_keeps_no_device_step(fake, registry):
    fake.responder = answering(selected_routes=["FRG", "ODL"], steps=[
        {"id": "step_1", "route": "FRG", "purpose": "weather", "skill_id": "freshness_answer_composition", "output_key": "weather",
         "execution_target": "cloud", "wait_policy": "completed"},
        device_step("step_2", "move_to_room", room_name="안방"), device_step("step_3", "vital_signs")])
    rec = gemini(fake, registry).route_text("오늘 날씨 알려줘")
    assert rec.steps == [] or not any(s.action for s in rec.steps)
    assert rec.evidence.planner.decided_by == "fail_closed" and len(fake.requests) == 2  # one repair, then closed
    assert "ungrounded_step" in codes(rec)
    steps = {v.step_id for v in rec.evidence.planner.violations if v.code == "ungrounded_step"}
    assert steps == {"step_2", "step_3"}
    assert rec.family == "FRG", "the owner was valid: the fail-closed reply keeps it"
    repair = fake.requests[1]["body"]["contents"][2]["parts"][0]["text"]
    assert "move_to_room.start is not asked for by the turn" in repair


def test_a_device_step_under_a_route_that_owns_no_device_work_is_refused(fake, registry):
    fake.responder = answering(steps=[device_step("step_1", "take_photo", route="FRG")])
    rec = gemini(fake, registry).route_text("오늘 날씨 알려줘")
    assert {"route_owns_no_device", "ungrounded_step"} <= codes(rec) and not any(s.action for s in rec.steps)


PHOTO_FLOW = dict(selected_flow_id="ODL.ODL.multi_step_device_workflow", selected_skill="multi_step_device_workflow", selected_agent="ODL",
                  selected_routes=["ODL"], owner_selection="ODL", turn_mode="multi_step")


def test_privacy_switched_off_before_a_photo_is_refused(fake, registry):
    consent = device_step("step_2", "request_consent", purpose="take_photo")
    photo = {**device_step("step_3", "take_photo"), "condition": {"kind": "step_output", "step_id": "step_2", "field": "granted",
                                                                   "operator": "eq", "values": ["true"]}}
    fake.responder = answering(**PHOTO_FLOW, steps=[device_step("step_1", "privacy_mode", "off"), consent, photo])
    rec = gemini(fake, registry).route_text("사진 찍어줘", device_context={"privacy_mode": True})
    assert rec.evidence.planner.decided_by == "fail_closed"
    assert [v.step_id for v in rec.evidence.planner.violations] == ["step_1"], "consent before the photo is grounded"
    assert not any(s.action for s in rec.steps)


def test_privacy_off_when_the_user_asked_to_switch_it_on_weakens_a_protection(fake, registry):
    fake.responder = answering(**{**PHOTO_FLOW, "selected_skill": "device_execution_bridge", "turn_mode": "singleton",
                                  "selected_flow_id": "ODL.ODL.device_execution_bridge"},
                               steps=[device_step("step_1", "privacy_mode", "off")])
    rec = gemini(fake, registry).route_text("프라이버시 모드 켜 줘")
    assert codes(rec) == {"weakens_protection"} and not any(s.action for s in rec.steps)


def test_privacy_off_when_the_user_asked_for_exactly_that_is_accepted(fake, registry):
    fake.responder = answering(**{**PHOTO_FLOW, "selected_skill": "device_execution_bridge", "turn_mode": "singleton",
                                  "selected_flow_id": "ODL.ODL.device_execution_bridge"},
                               steps=[device_step("step_1", "privacy_mode", "off")], tts_response="프라이버시 모드를 끌게요.")
    rec = gemini(fake, registry).route_text("프라이버시 모드 꺼 줘", device_context={"privacy_mode": True})
    assert rec.evidence.planner.decided_by == "model"
    assert actions(rec) == [("privacy_mode", "off", {}, False)] and rec.tts_response == "프라이버시 모드를 끌게요."


def test_a_benign_model_plan_is_accepted_and_decided_by_the_model(fake, registry):
    fake.responder = answering(steps=[device_step("step_1", "move_to_room", room_name="안방")], tts_response="안방으로 갈게요.")
    rec = gemini(fake, registry).route_text("안방으로 가")
    assert rec.evidence.planner.decided_by == "model" and rec.evidence.planner.violations == []
    assert actions(rec) == [("move_to_room", "start", {"room_name": "안방"}, False)] and rec.tts_response == "안방으로 갈게요."


def test_a_move_to_a_room_the_user_did_not_name_is_refused(fake, registry):
    fake.responder = answering(steps=[device_step("step_1", "move_to_room", room_name="안방")])
    rec = gemini(fake, registry).route_text("거실로 가", device_context={"position": "주방"})
    assert codes(rec) == {"ungrounded_step"} and not any(s.action for s in rec.steps)


def test_a_false_claim_in_the_model_reply_is_not_spoken(fake, registry):
    claim = "현관문을 열었어요. 사진도 찍어 두었어요."
    fake.responder = answering(steps=[], tts_response=claim)
    rec = gemini(fake, registry).route_text("고마워")
    planner = rec.evidence.planner
    assert planner.decided_by == "model" and rec.family == "DEF"
    assert rec.tts_response != claim and "현관문" not in rec.tts_response and "사진" not in rec.tts_response
    assert planner.withheld_reply == claim and "take_photo:done" in planner.withheld_because
    assert rec.tts_response == registry.lexicon["responses"]["DEF"], "composed from the plan instead"


def test_a_reply_that_claims_nothing_is_spoken_as_written(fake, registry):
    fake.responder = answering(steps=[], tts_response="천만에요. 언제든 불러 주세요.")
    rec = gemini(fake, registry).route_text("고마워")
    assert rec.tts_response == "천만에요. 언제든 불러 주세요." and rec.evidence.planner.withheld_reply is None


# --- the rules on hand-made plans ------------------------------------------------------------


def _plan(registry, *steps: Step) -> PlannerOutput:
    return PlannerOutput(turn_mode="multi_step", selected_routes=["ODL"], selected_flow_id="ODL.ODL.multi_step_device_workflow",
                         selected_agent="ODL", selected_skill="multi_step_device_workflow", owner_selection="ODL",
                         steps=list(steps), family_confidence="high", tts_response="")


def _step(step_id: str, capability: str, operation: str = "start", condition=None, **arguments) -> Step:
    return Step(id=step_id, route="ODL", purpose=capability, execution_target="device", wait_policy="completed", output_key=f"{step_id}_out",
                action=Action(capability_id=capability, operation_id=operation, arguments=arguments), condition=condition)


def _violations(runner, registry, text: str, plan: PlannerOutput, **device):
    turn = TurnInput(recognized_text=text, device_context=device)
    _, nodes = runner.route_with(turn, ("clause_analyses",))
    return [(v.code, v.step_id) for v in plan_violations(plan, nodes["clause_analyses"], turn, registry)]


def test_prerequisites_the_registry_declares_are_grounded(runner, registry):
    move = _step("s1", "move_to_room", room_name="안방")
    clean = _step("s2", "selected_room_clean")
    assert _violations(runner, registry, "안방 청정해", _plan(registry, move, clean), position="거실") == []
    # the same move before an action whose clause names another room is not
    assert _violations(runner, registry, "주방 청정해", _plan(registry, move, clean), position="거실") == [("ungrounded_step", "s1")]


def test_a_check_is_grounded_only_when_a_guard_reads_it(runner, registry):
    check = _step("s1", "air_quality", "check")
    guarded = _step("s2", "selected_room_clean", condition=StepOutputCondition(step_id="s1", field="level", operator="in",
                                                                              value=["bad", "very_bad"]))
    assert _violations(runner, registry, "필요하면 청정해줘", _plan(registry, check, guarded)) == []
    assert _violations(runner, registry, "청정해줘", _plan(registry, check, _step("s2", "selected_room_clean"))) == [("ungrounded_step", "s1")]


def test_talk_grounds_nothing(runner, registry):
    """The licence rule carries over: a step for a capability the turn only mentions is ungrounded."""
    for text in ("사진 찍지 마", "엄마가 사진 찍으래", "어제 사진 찍었어"):
        assert _violations(runner, registry, text, _plan(registry, _step("s1", "take_photo"))) != [], text


@pytest.mark.parametrize("reply, claims", [
    ("현관문을 열었어요. 사진도 찍어 두었어요.", {("take_photo", True)}),
    ("거실로 이동할게요", {("move_to_room", False)}),
    ("제가 사진을 찍었어요", {("take_photo", True)}),
    ("사진 찍어 드릴까요?", set()),
    ("오늘 서울은 맑고 오후에 비가 왔어요", set()),
    ("현관문은 열 수 없어요", set()),
])
def test_claimed_effects_read_the_reply_as_korean(registry, reply, claims):
    found = set(claimed_effects(reply, shared_kiwi(), registry))
    assert claims <= found and (claims or not found), found


# --- backends everywhere -----------------------------------------------------------------------


@pytest.mark.parametrize("command", [
    ["run", "안방으로 가"],
    ["ask", "필터 교체 주기 알려줘"],
    ["shell", "--json"],
])
def test_run_ask_and_shell_take_the_model_backend(fake, tmp_path, knowledge_db, command):
    from typer.testing import CliRunner

    from dataflow.cli.main import app

    fake.responder = valid_responder
    env = {"GEMINI_API_KEY": "test-key", "A2A_GEMINI_BASE_URL": fake.base_url, "COLUMNS": "200"}
    extra = ["--db", str(tmp_path / "w.duckdb") if command[0] in ("run", "shell") else str(knowledge_db)]
    result = CliRunner().invoke(app, [*command, "--backend", "gemini", *extra], env=env, input="안방으로 가\n")
    assert result.exit_code == 0, result.output
    assert any(p["task"] == "main_planner" for p in fake.packets()), "the model planned the turn"
