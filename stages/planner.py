"""Steps 10-12: the active schedule short-circuit and the heuristic main planner."""

from __future__ import annotations

from hamilton.function_modifiers import config

from registry.contracts import (
    CandidatePool,
    FamilyScores,
    HistoryEvidence,
    PreclassifierHints,
    ReplyabilityMeta,
    TurnInput,
)
from registry.plan_contracts import PlannerOutput, ScheduleShortCircuit
from registry.loader import Registry
from stages._clauses import ClauseAnalysis
from stages.owner_choice import choose_owner, deciding_clauses
from stages._assemble import plan_for_family
from stages._plan import score_families


def family_scores(preclassifier_hints: PreclassifierHints, registry: Registry) -> FamilyScores:
    """The weighted combination of evidence axes for the whole turn."""
    return score_families(preclassifier_hints.axes, registry)


def schedule_short_circuit(history_evidence: HistoryEvidence, preclassifier_hints: PreclassifierHints) -> ScheduleShortCircuit:
    """An open SCH slot filling keeps the turn unless it is a strong non-schedule anchor."""
    if not history_evidence.active_schedule_workflow:
        return ScheduleShortCircuit(active=False, reason="no_active_schedule_workflow")
    if preclassifier_hints.flag("has_contextual_schedule_slot_fragment"):
        return ScheduleShortCircuit(active=True, reason="slot_answer_in_active_schedule")
    if preclassifier_hints.flag("has_schedule_management_anchor"):
        return ScheduleShortCircuit(active=True, reason="schedule_cancel_or_list")
    return ScheduleShortCircuit(active=False, reason="strong_non_schedule_anchor")


@config.when(planner_backend="heuristic")
def planner_output__heuristic(
    clause_analyses: list[ClauseAnalysis],
    preclassifier_hints: PreclassifierHints,
    family_scores: FamilyScores,
    candidate_pool: CandidatePool,
    schedule_short_circuit: ScheduleShortCircuit,
    replyability_meta: ReplyabilityMeta,
    history_evidence: HistoryEvidence,
    turn_input: TurnInput,
    registry: Registry,
) -> PlannerOutput:
    """The heuristic planner: owner family from weighted evidence, a typed plan from the clauses."""
    allowed = {registry.flow_by_id[f].route_family for f in candidate_pool.flow_ids}
    deciding = deciding_clauses([c.role for c in clause_analyses], preclassifier_hints.clause_axes)
    clause_scores = {i: score_families(preclassifier_hints.clause_axes[i], registry).scores for i in deciding}
    choice = choose_owner(family_scores.scores, clause_scores, len(clause_analyses), allowed,
                          schedule_short_circuit.active, registry.weights)
    family, clause_families = choice.family, choice.clause_families
    if len(set(f for f in clause_families if f)) <= 1:
        clause_families = [family if c.role == "action" else None for c in clause_analyses]
    return plan_for_family(
        family, clause_analyses, clause_families, preclassifier_hints, history_evidence, turn_input, registry,
        choice.continuation, choice.confidence, choice.plan_runner_up, choice.needs_second_pass, choice.ambiguity,
    )
