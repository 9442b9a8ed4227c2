"""Step 17: the decision record (what `a2a route --json` prints and batch runs store)."""

from __future__ import annotations

from registry.contracts import (
    FamilyScores,
    PreclassifierHints,
    ReplyabilityMeta,
    ReplyObjectMeta,
    CandidatePool,
    NormalizedText,
)
from registry.plan_contracts import PlanCheckReport, PlannerOutput, SecondPassVerdict, ScheduleShortCircuit
from registry.record_contracts import DecisionEvidence, DecisionRecord
from registry.experience import ExperienceAdmission
from registry.model_contracts import PlannerProvenance
from registry.loader import Registry


def decision_record(
    final_plan: PlannerOutput,
    second_pass_verdict: SecondPassVerdict,
    preclassifier_hints: PreclassifierHints,
    normalized_text: NormalizedText,
    trace_id: str,
    experience_admission: ExperienceAdmission,
    decision_evidence: DecisionEvidence,
) -> DecisionRecord:
    """The turn's decision with the evidence that decided it; usage is filled by the runner."""
    plan = final_plan
    slots = {k: v for k, v in plan.slots.model_dump().items() if v not in (None, [])}
    return DecisionRecord(
        text=normalized_text.original,
        trace_id=trace_id,
        selected_routes=list(plan.selected_routes),
        family=plan.selected_routes[0],
        turn_mode=plan.turn_mode,
        selected_flow_id=plan.selected_flow_id,
        selected_agent=plan.selected_agent,
        selected_skill=plan.selected_skill,
        steps=plan.steps,
        missing_slots=plan.missing_slots,
        slots=slots,
        family_confidence=plan.family_confidence,
        runner_up_family=plan.runner_up_family,
        needs_second_pass=plan.needs_second_pass,
        second_pass_ran=second_pass_verdict.ran,
        unsupported_categories=plan.unsupported_categories,
        stt_null_subtype=plan.stt_null_subtype,
        experience_admission=experience_admission.proposed,
        experience_status=experience_admission.status,
        ask_follow_up=plan.ask_follow_up,
        tts_response=plan.tts_response,
        stops_active_workflow=plan.selected_routes[:1] == ["ODL"] and any(
            c.speech_act is not None and c.speech_act.mood == "stop" for c in preclassifier_hints.clauses),
        evidence=decision_evidence,
    )


def decision_evidence(
    final_plan: PlannerOutput,
    second_pass_verdict: SecondPassVerdict,
    plan_check_report: PlanCheckReport,
    preclassifier_hints: PreclassifierHints,
    family_scores: FamilyScores,
    reply_object_meta: ReplyObjectMeta,
    replyability_meta: ReplyabilityMeta,
    candidate_pool: CandidatePool,
    schedule_short_circuit: ScheduleShortCircuit,
    normalized_text: NormalizedText,
    registry: Registry,
    experience_admission: ExperienceAdmission,
    planner_provenance: PlannerProvenance | None = None,
) -> DecisionEvidence:
    """What decided the turn, as the stages' own contracts."""
    return DecisionEvidence(
        normalized_text=normalized_text.text,
        truncated=normalized_text.truncated,
        rejected_reason=normalized_text.rejected_reason,
        clauses=preclassifier_hints.clauses,
        axes=preclassifier_hints.axes,
        clause_axes=[{k: v.strength for k, v in axes.items()} for axes in preclassifier_hints.clause_axes],
        candidate_families=list(dict.fromkeys(registry.flow_by_id[f].route_family for f in candidate_pool.flow_ids)),
        unsupported_request_categories=preclassifier_hints.unsupported_request_categories,
        device_qna_topics=preclassifier_hints.device_qna_topics,
        stt_null_response_strategy=preclassifier_hints.stt_null_response_strategy,
        family_scores=family_scores.scores,
        family_contributions=family_scores.contributions,
        reply_object_meta=reply_object_meta,
        replyability_meta=replyability_meta,
        candidate_pool_source=candidate_pool.source,
        schedule_short_circuit=schedule_short_circuit,
        second_pass=second_pass_verdict,
        plan_checks=plan_check_report,
        planner=planner_provenance,
        stt_null_target_scope=final_plan.stt_null_target_scope,
        experience_request=final_plan.experience_request,
        experience_admission=experience_admission,
    )
