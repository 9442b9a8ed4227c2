"""Experience Goal: ground the planner's experience_request in the effect catalog, then admit
or refuse it with the eight deterministic checks of DESIGN section 6.

Experience is sidecar metadata: it never changes the owner or the steps. A refused request
leaves the plan exactly as it was; the execution path simply carries no goal.
"""

from __future__ import annotations

from registry.plan_contracts import ExperienceRequest, PlanCheckReport, PlannerOutput
from registry.experience import AdmissionCheck, EffectCatalog, ExperienceAdmission, GoalContract
from registry.loader import Registry
from stages._clauses import ClauseAnalysis
from stages._matchers import compact

_CLOUD_EFFECT_BY_FAMILY = {"FRG": "public_answer_delivered", "DQR": "device_answer_delivered",
                           "SCH": "schedule_registered", "DEF": "conversation_reply_delivered"}


def _cloud_effect(step_route: str, text: str, catalog: EffectCatalog) -> str | None:
    """FRG answers name their topic when a cue says so (weather, news); other routes have one effect."""
    if step_route == "FRG":
        for effect in catalog.effects_of_skill("freshness_answer_composition"):
            if effect.cues and any(compact(c) in text for c in effect.cues):
                return effect.effect_id
    return _CLOUD_EFFECT_BY_FAMILY.get(step_route)


def _check(name: str, passed: bool, reason: str = "") -> AdmissionCheck:
    return AdmissionCheck(name=name, passed=passed, reason="" if passed else (reason or "failed"))


def grounded_experience_request(corrected_plan: PlannerOutput, clause_analyses: list[ClauseAnalysis], registry: Registry) -> ExperienceRequest:
    """The planner's experience_request with desired effects from the catalog only."""
    final_plan = corrected_plan  # before fail-closed: a refused goal must still say why
    proposed = final_plan.experience_request or ExperienceRequest(admission_status="not_admitted")
    catalog = registry.effects
    if catalog is None:
        return proposed
    whole = "".join(c.compact for c in clause_analyses)
    effects: list[str] = []
    temporal = proposed.temporal_relation
    for step in final_plan.steps:
        if step.action is not None:
            effect = catalog.effect_of(step.action.capability_id, step.action.operation_id)
            eid = effect.effect_id if effect else None
        elif temporal == "clock_delay" and step.route == "SCH":
            continue  # the delay is how the goal waits, not what the user wants
        else:
            eid = _cloud_effect(step.route, whole, catalog)
        if eid and eid not in effects:
            effects.append(eid)
    unprovided = list(dict.fromkeys(e for c in clause_analyses for e in catalog.unprovided_in(c.compact, whole)))
    # an unprovided outcome makes a goal only beside device work ("엄마 오면 사진 찍어줘");
    # a plain unsupported request ("리모컨 가져와") stays a single reply
    candidate = proposed.admission_status == "candidate" or (bool(unprovided) and any(s.action for s in final_plan.steps))
    if temporal is None and candidate:
        # no explicit wait: a goal waits on an awaited event it names, otherwise its steps follow one another
        if any(catalog.by_id()[e].awaitable for e in unprovided):
            temporal = "after_existing_event"
        elif final_plan.steps:
            temporal = "after_planned_step"
    anchor = None
    if temporal == "after_planned_step" and final_plan.steps:
        anchor = final_plan.steps[0].id
    elif temporal == "after_existing_event":
        anchor = next((h.capability_id for c in clause_analyses if c.role == "temporal" for h in c.capabilities), None)
    names = registry.lexicon["responses"]["capability_names"]
    summary = " -> ".join(names.get(s.action.capability_id, s.action.capability_id) if s.action else s.route for s in final_plan.steps)
    return ExperienceRequest(
        admission_status="candidate" if candidate else "not_admitted",
        request_kind="action_request" if any(s.action for s in final_plan.steps) else "information_request",
        delegated_outcome="delegated" if candidate else "",
        coordination_requirements=list(proposed.coordination_requirements) or (["waiting"] if unprovided else []),
        goal_summary=summary,
        desired_effects=effects if candidate else [],
        unsupported_terminal_outcomes=unprovided,
        temporal_relation=temporal if candidate else None,
        temporal_anchor_id=anchor if candidate else None,
    )


def _providers(plan: PlannerOutput, catalog) -> list:
    """The effect providers the plan's steps use (a device step's capability, a cloud step's skill)."""
    providers = []
    for step in plan.steps:
        if step.action is not None:
            effect = catalog.effect_of(step.action.capability_id, step.action.operation_id)
            providers += [p for p in (effect.providers if effect else []) if p.capability_id == step.action.capability_id]
        else:
            providers += [p for e in catalog.effects_of_skill(step.skill_id or "") for p in e.providers if p.skill_id == step.skill_id]
    return providers


def _consent_before(plan: PlannerOutput, catalog) -> bool:
    """Every step a consent policy covers comes after a step with the effect the policy requires first."""
    consent_ok = True
    for policy in catalog.consent_policies:
        if policy.requires_effect_before is None:
            continue
        for i, step in enumerate(plan.steps):
            if step.action and step.action.capability_id in policy.applies_to:
                before = [catalog.effect_of(s.action.capability_id, s.action.operation_id) for s in plan.steps[:i] if s.action]
                consent_ok &= any(e and e.effect_id == policy.requires_effect_before for e in before)
    return consent_ok


def _terminal_evidence(plan: PlannerOutput, catalog) -> bool:
    """Every device step's effect declares the terminal evidence that proves it."""
    return all(
        (e := catalog.effect_of(s.action.capability_id, s.action.operation_id)) is not None and e.terminal_evidence
        for s in plan.steps if s.action
    )


def experience_admission(
    grounded_experience_request: ExperienceRequest,
    corrected_plan: PlannerOutput,
    plan_check_report: PlanCheckReport,
    registry: Registry,
    trace_id: str,
    experience_live_tier: str,
) -> ExperienceAdmission:
    """Admit a candidate as a Goal contract, or refuse it saying which check failed."""
    req = grounded_experience_request
    final_plan = corrected_plan
    if req.admission_status != "candidate" or registry.effects is None:
        return ExperienceAdmission(status="not_admitted", proposed=req.admission_status, checks=[])
    catalog = registry.effects
    known = catalog.by_id()
    step_ids = [s.id for s in final_plan.steps]
    allowed_tiers = set(catalog.live_tiers.get(experience_live_tier, []))
    providers = _providers(final_plan, catalog)
    consent_ok, evidence_ok = _consent_before(final_plan, catalog), _terminal_evidence(final_plan, catalog)
    temporal_ok = {
        None: True,
        "after_planned_step": req.temporal_anchor_id in step_ids,
        "after_existing_event": req.temporal_anchor_id in registry.capability_by_id,
        "clock_delay": True,
    }.get(req.temporal_relation, False)
    checks = [
        _check(name="delegated_outcome", passed=bool(req.delegated_outcome) and bool(req.desired_effects or req.unsupported_terminal_outcomes)),
        _check(name="needs_coordination", passed=bool(req.coordination_requirements)),
        _check(name="temporal_relation_valid", passed=temporal_ok, reason="" if temporal_ok else f"{req.temporal_relation} without a valid anchor"),
        _check(name="effects_in_catalog", passed=all(e in known for e in req.desired_effects),
                       reason=", ".join(e for e in req.desired_effects if e not in known)),
        _check(name="effects_have_providers", passed=not req.unsupported_terminal_outcomes and all(known[e].providers for e in req.desired_effects if e in known),
                       reason=", ".join(f"{e}: {known[e].no_provider_reason}" for e in req.unsupported_terminal_outcomes if e in known)),
        _check(name="plan_steps_valid", passed=plan_check_report.ok and bool(step_ids), reason=plan_check_report.summary()),
        _check(name="consent_and_evidence", passed=consent_ok and evidence_ok,
                       reason="" if consent_ok and evidence_ok else ("consent step missing" if not consent_ok else "a step has no terminal evidence")),
        _check(name="live_tier_allows_providers", passed=all(p.tier in allowed_tiers for p in providers),
                       reason=", ".join(sorted({p.key for p in providers if p.tier not in allowed_tiers}))),
    ]
    admitted = all(c.passed for c in checks)
    goal = None
    if admitted:
        budget = dict(catalog.default_budget)
        goal = GoalContract(
            experience_id=f"exp-{trace_id[:12]}",
            goal_summary=req.goal_summary,
            success_criteria=list(req.desired_effects),
            plan_binding={"plan_id": final_plan.selected_flow_id, "step_ids": step_ids},
            decision_budget=budget,
            temporal_relation=req.temporal_relation,
            temporal_anchor_id=req.temporal_anchor_id,
        )
    return ExperienceAdmission(
        status="admitted" if admitted else "not_admitted", proposed="candidate", checks=checks, goal=goal,
        desired_effects=list(req.desired_effects), unsupported_terminal_outcomes=list(req.unsupported_terminal_outcomes),
        temporal_relation=req.temporal_relation,
    )
