"""Steps 12 (boundaries) and 15: center correction after the judge, then the hard plan checks."""

from __future__ import annotations

from registry.conditions import ALLOWED_STATE_PATHS
from registry.contracts import (
    HistoryEvidence,
    PlanCheckReport,
    PlannerOutput,
    PreclassifierHints,
    SecondPassVerdict,
    TurnInput,
)
from registry.loader import Registry
from stages._clauses import ClauseAnalysis
from stages._assemble import plan_for_family

_SAFE_FAMILY = "STT_NULL"
_UNOBSERVABLE = "which nothing on the robot can observe"


def corrected_plan(
    planner_output: PlannerOutput,
    second_pass_verdict: SecondPassVerdict,
    clause_analyses: list[ClauseAnalysis],
    preclassifier_hints: PreclassifierHints,
    history_evidence: HistoryEvidence,
    turn_input: TurnInput,
    registry: Registry,
) -> PlannerOutput:
    """Once the family is final, align flow and skill with the catalog (ranked flow center correction)."""
    winner = second_pass_verdict.winner
    if not second_pass_verdict.ran or winner is None or winner == planner_output.selected_routes[0]:
        return planner_output
    loser = planner_output.selected_routes[0]
    return plan_for_family(
        winner, clause_analyses, [winner if c.role == "action" else None for c in clause_analyses],
        preclassifier_hints, history_evidence, turn_input, registry, continuation=False,
        confidence="medium", runner_up=loser, needs_second_pass=True,
        ambiguity=f"second pass {loser}->{winner}",
    )


def _violations(plan: PlannerOutput, registry: Registry) -> list[str]:
    problems: list[str] = []
    if plan.selected_agent not in registry.agent_ids:
        problems.append(f"unknown agent {plan.selected_agent!r}")
    if plan.selected_skill not in registry.skill_ids:
        problems.append(f"unknown skill {plan.selected_skill!r}")
    flow = registry.flow_by_id.get(plan.selected_flow_id)
    if flow is None:
        problems.append(f"unknown flow {plan.selected_flow_id!r}")
    elif (flow.route_family, flow.agent_id, flow.skill_id) != (plan.selected_routes[0], plan.selected_agent, plan.selected_skill):
        problems.append("selected_routes[0], selected_agent, selected_skill and selected_flow_id disagree")
    ids = [s.id for s in plan.steps]
    if len(ids) != len(set(ids)):
        problems.append("duplicate step ids")
    seen: set[str] = set()
    for step in plan.steps:
        if step.route not in plan.selected_routes:
            problems.append(f"{step.id}: route {step.route} not among selected routes")
        for dep in step.depends_on:
            if dep not in seen:
                problems.append(f"{step.id}: depends on {dep}, which does not come before it")
        if step.skill_id and step.skill_id not in registry.skill_ids:
            problems.append(f"{step.id}: unknown skill {step.skill_id!r}")
        if step.action is not None:
            cap = registry.capability_by_id.get(step.action.capability_id)
            if cap is None:
                problems.append(f"{step.id}: unknown capability {step.action.capability_id!r}")
            else:
                op = cap.operation(step.action.operation_id)
                if op is None:
                    problems.append(f"{step.id}: {cap.capability_id} has no operation {step.action.operation_id!r}")
                else:
                    for name, value in step.action.arguments.items():
                        spec = op.arguments.get(name)
                        if spec is None:
                            problems.append(f"{step.id}: argument {name!r} not in {cap.capability_id}.{op.operation_id}")
                        elif spec.type == "room" and registry.resolve_room(str(value)) is None:
                            problems.append(f"{step.id}: unknown room {value!r}")
                        elif spec.type == "integer" and (not isinstance(value, int) or (spec.minimum is not None and value < spec.minimum) or (spec.maximum is not None and value > spec.maximum)):
                            problems.append(f"{step.id}: {name}={value!r} outside {spec.minimum}..{spec.maximum}")
                    for name, spec in op.arguments.items():
                        if spec.required and name not in step.action.arguments:
                            problems.append(f"{step.id}: missing required argument {name!r}")
            if step.execution_target != "device":
                problems.append(f"{step.id}: a capability action must run on the device")
            if step.token_text is not None:
                problems.append(f"{step.id}: the planner may not write token_text")
        cond = step.condition
        if cond is not None and cond.kind == "step_output" and cond.step_id not in seen:
            problems.append(f"{step.id}: condition reads {cond.step_id}, which does not come before it")
        if cond is not None and cond.kind == "state" and cond.path not in ALLOWED_STATE_PATHS:
            problems.append(f"{step.id}: condition reads {cond.path}, {_UNOBSERVABLE}")
        seen.add(step.id)
    return problems


def plan_check_report(corrected_plan: PlannerOutput, registry: Registry) -> PlanCheckReport:
    """Registry boundaries and internal agreement of the plan."""
    problems = _violations(corrected_plan, registry)
    return PlanCheckReport(ok=not problems, violations=problems, fail_closed=bool(problems))


def final_plan(corrected_plan: PlannerOutput, plan_check_report: PlanCheckReport, registry: Registry) -> PlannerOutput:
    """The checked plan, or a fail-closed reply with no step: the owner stays when its flow is valid."""
    if not plan_check_report.fail_closed:
        return corrected_plan
    owner_ok = registry.flow_by_id.get(corrected_plan.selected_flow_id) is not None and not any(
        v.startswith(("unknown agent", "unknown skill", "unknown flow", "selected_routes[0]")) for v in plan_check_report.violations
    )
    family = corrected_plan.selected_routes[0] if owner_ok else _SAFE_FAMILY
    skill = corrected_plan.selected_skill if owner_ok else registry.default_skill(_SAFE_FAMILY)
    return PlannerOutput(
        turn_mode="singleton", selected_routes=[family], selected_flow_id=registry.flow_id(family, skill),
        selected_agent=registry.agent_for_family(family), selected_skill=skill, owner_selection=family,
        steps=[], family_confidence="low", ambiguity_reason="fail_closed: " + "; ".join(plan_check_report.violations),
        stt_null_subtype="GENERIC" if family == _SAFE_FAMILY else None,
        tts_response=registry.lexicon["responses"][
            "ungrounded_condition" if any(_UNOBSERVABLE in v for v in plan_check_report.violations) else "fail_closed"],
    )
