"""Experience Goal: effect catalog, grounding and the deterministic admission checks."""

import copy
import json

import pytest

from dataflow.driver import DriverConfig, TurnRunner
from registry.plan_contracts import ExperienceRequest
from registry.errors import RegistryError
from registry.loader import FILES, REGISTRY_DIR, from_dicts
from stages.experience import experience_admission
from tests.conftest import actions


def _admission(record):
    return record.evidence.experience_admission


def test_catalog_agrees_with_capabilities_and_fits_a_prompt(registry):
    catalog = registry.effects
    for cap in registry.capability_by_id.values():
        for op in cap.operations:
            assert catalog.effect_of(cap.capability_id, op.operation_id).effect_id == op.effect
    no_provider = {e.effect_id for e in catalog.effects if not e.providers}
    assert no_provider == {"person_arrival_observed", "door_unlocked", "object_delivered"}
    assert len(catalog.prompt_excerpt()) <= 5000


def test_catalog_with_unknown_provider_is_rejected():
    data = {k: json.loads((REGISTRY_DIR / f).read_text(encoding="utf-8")) for k, f in FILES.items()}
    bad = copy.deepcopy(data)
    bad["effects"]["effects"][0]["providers"][0]["operation_id"] = "teleport"
    with pytest.raises(RegistryError, match="effect_catalog.v1.json"):
        from_dicts(bad)


def test_sequenced_guarded_goal_is_admitted_as_a_goal_contract(runner):
    rec = runner.route_text("거실로 가서 공기 상태 확인하고 필요하면 청정해줘")
    adm = _admission(rec)
    assert rec.experience_admission == "candidate" and rec.experience_status == "admitted"
    goal = adm.goal
    assert goal.success_criteria == ["target_location_reached", "air_quality_observed", "air_cleaning_active"]
    assert goal.plan_binding["step_ids"] == [s.id for s in rec.steps]
    assert goal.decision_budget == {"max_decisions": 3, "max_replans": 1}


@pytest.mark.parametrize("text", ["청정해줘", "지금 공기 어때?", "고마워", "필터 교체 주기 알려줘", "유튜브 틀어줘", "매일 오후 6시에 고정청정 예약해줘"])
def test_single_commands_chat_and_questions_are_not_admitted(runner, text):
    rec = runner.route_text(text)
    assert rec.experience_status == "not_admitted"
    assert _admission(rec).goal is None


def test_goal_with_no_provider_is_refused_and_nothing_runs(runner):
    rec = runner.route_text("엄마 오면 사진 찍어줘")
    adm = _admission(rec)
    assert adm.unsupported_terminal_outcomes == ["person_arrival_observed"]
    failed = {c.name for c in adm.checks if not c.passed}
    assert "effects_have_providers" in failed
    assert rec.experience_status == "not_admitted"
    assert rec.steps == []  # the ungrounded guard fails closed: no photo is taken on a guess


@pytest.mark.parametrize("text", ["싫으면 주방 가", "안 뭇으면 주방 가"])
def test_a_condition_naming_no_state_is_no_air_quality_check(runner, text):
    """싫으면 / 안 뭇으면 name nothing the robot observes and no word of how a state stands: no air-quality check is
    made up for them, the plan fails closed and the robot says it cannot tell."""
    rec = runner.route_text(text)
    assert rec.steps == [] or not any(s.action for s in rec.steps), rec.steps


@pytest.mark.parametrize("text,state", [("나쁘면 청정해", "air_quality"), ("공기 나빠지면 청정해 줘", "air_quality")])
def test_a_condition_on_how_a_state_stands_still_reads_the_default_state(runner, text, state):
    rec = runner.route_text(text)
    assert [s.action.capability_id for s in rec.steps if s.action][0] == state


def test_live_tier_refuses_goal_but_never_blocks_the_plan(registry):
    full = TurnRunner(DriverConfig(), registry).route_text("주방 가서 청정해")
    read_only = TurnRunner(DriverConfig(experience_live_tier="read_only"), registry).route_text("주방 가서 청정해")
    assert full.experience_status == "admitted" and read_only.experience_status == "not_admitted"
    failed = [c for c in _admission(read_only).checks if not c.passed]
    assert [c.name for c in failed] == ["live_tier_allows_providers"]
    # a false (or refused) admission never changes the normal command's plan
    assert actions(full) == actions(read_only)


def test_invented_effect_is_refused(runner, registry):
    rec = runner.route_text("주방 가서 청정해")
    plan = rec.steps
    from registry.plan_contracts import PlanCheckReport, PlannerOutput

    planner_out = PlannerOutput(
        turn_mode="multi_step", selected_routes=["ODL"], selected_flow_id="ODL.ODL.multi_step_device_workflow",
        selected_agent="ODL", selected_skill="multi_step_device_workflow", owner_selection="ODL", steps=plan,
        family_confidence="high", tts_response="",
    )
    invented = ExperienceRequest(admission_status="candidate", delegated_outcome="delegated", coordination_requirements=["sequencing"],
                                 desired_effects=["target_location_reached", "room_teleported"])
    adm = experience_admission(invented, planner_out, PlanCheckReport(ok=True, violations=[], fail_closed=False), registry, "t" * 32, "full")
    assert adm.status == "not_admitted"
    assert next(c for c in adm.checks if c.name == "effects_in_catalog").reason == "room_teleported"


def test_event_wait_is_grounded_on_a_capability(runner):
    rec = runner.route_text("청정이 끝나면 오늘 뉴스 요약해줘")
    req = rec.evidence.experience_request
    adm = _admission(rec)
    assert adm.desired_effects == ["news_summary_delivered"]
    assert rec.evidence.experience_admission.goal.temporal_relation == "after_existing_event"
    assert rec.evidence.experience_admission.goal.temporal_anchor_id == "selected_room_clean"
    assert req is not None
