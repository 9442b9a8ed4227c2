"""Step 15: the hard plan checks (registry boundaries, grounding, agreement), and the fail-closed plan."""

from __future__ import annotations

from registry.contracts import TurnInput
from registry.plan_contracts import PlanCheckReport, PlannerOutput
from registry.loader import Registry
from stages._clauses import ClauseAnalysis
from stages.boundaries import plan_violations

_SAFE_FAMILY = "STT_NULL"


def plan_check_report(corrected_plan: PlannerOutput, clause_analyses: list[ClauseAnalysis], turn_input: TurnInput,
                      registry: Registry) -> PlanCheckReport:
    """Registry boundaries, internal agreement of the plan, and that it does only what the turn asked."""
    problems = plan_violations(corrected_plan, clause_analyses, turn_input, registry)
    return PlanCheckReport(ok=not problems, violations=problems, fail_closed=bool(problems))


def final_plan(corrected_plan: PlannerOutput, plan_check_report: PlanCheckReport, registry: Registry) -> PlannerOutput:
    """The checked plan, or a fail-closed reply with no step: the owner stays when its flow is valid."""
    if not plan_check_report.fail_closed:
        return corrected_plan
    owner_ok = registry.flow_by_id.get(corrected_plan.selected_flow_id) is not None and plan_check_report.owner_valid
    family = corrected_plan.selected_routes[0] if owner_ok else _SAFE_FAMILY
    skill = corrected_plan.selected_skill if owner_ok else registry.default_skill(_SAFE_FAMILY)
    return PlannerOutput(
        turn_mode="singleton", selected_routes=[family], selected_flow_id=registry.flow_id(family, skill),
        selected_agent=registry.agent_for_family(family), selected_skill=skill, owner_selection=family,
        steps=[], family_confidence="low", ambiguity_reason="fail_closed: " + plan_check_report.summary(),
        stt_null_subtype="GENERIC" if family == _SAFE_FAMILY else None,
        tts_response=registry.lexicon["responses"][
            "ungrounded_condition" if any(v.code == "unobservable_condition" for v in plan_check_report.violations)
            else "fail_closed"],
    )
