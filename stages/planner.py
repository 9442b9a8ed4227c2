"""Steps 10-12: the active schedule short-circuit, the owner choice, the plan request and the heuristic planner,
and (after the judge, step 14) the second pass's correction: every plan comes from the one builder."""

from __future__ import annotations

from hamilton.function_modifiers import config

from registry.contracts import CandidatePool, FamilyScores, HistoryEvidence, PreclassifierHints, TurnInput
from registry.loader import Registry
from registry.plan_contracts import OwnerChoice, PlannerOutput, PlanRequest, ScheduleShortCircuit, SecondPassVerdict
from stages._assemble import PlanInputs, build_plan
from stages._clauses import ClauseAnalysis
from stages._plan import score_families
from stages.owner_choice import choose_owner, deciding_clauses


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


def owner_choice(
    clause_analyses: list[ClauseAnalysis],
    preclassifier_hints: PreclassifierHints,
    family_scores: FamilyScores,
    candidate_pool: CandidatePool,
    schedule_short_circuit: ScheduleShortCircuit,
    registry: Registry,
) -> OwnerChoice:
    """The first pass: the best family the candidate pool allows, or the first clause family of a multi-route turn."""
    allowed = {registry.flow_by_id[f].route_family for f in candidate_pool.flow_ids}
    deciding = deciding_clauses([c.role for c in clause_analyses], preclassifier_hints.clause_axes)
    clause_scores = {i: score_families(preclassifier_hints.clause_axes[i], registry).scores for i in deciding}
    return choose_owner(family_scores.scores, clause_scores, len(clause_analyses), allowed,
                        schedule_short_circuit.active, registry.weights)


def plan_request(owner_choice: OwnerChoice, clause_analyses: list[ClauseAnalysis]) -> PlanRequest:
    """What to plan: the owner family for every action clause, unless the clauses split over two families."""
    clause_families = owner_choice.clause_families
    if len(set(f for f in clause_families if f)) <= 1:
        clause_families = [owner_choice.family if c.role == "action" else None for c in clause_analyses]
    return PlanRequest(
        family=owner_choice.family, clause_families=clause_families, continuation=owner_choice.continuation,
        confidence=owner_choice.confidence, runner_up=owner_choice.plan_runner_up,
        needs_second_pass=owner_choice.needs_second_pass, ambiguity=owner_choice.ambiguity,
    )


def plan_inputs(
    clause_analyses: list[ClauseAnalysis],
    preclassifier_hints: PreclassifierHints,
    history_evidence: HistoryEvidence,
    turn_input: TurnInput,
    registry: Registry,
) -> PlanInputs:
    """What every plan of the turn is built from, besides its request."""
    return PlanInputs(clauses=clause_analyses, hints=preclassifier_hints, history=history_evidence,
                      turn_input=turn_input, registry=registry)


def local_planner_output(plan_request: PlanRequest, plan_inputs: PlanInputs) -> PlannerOutput:
    """The heuristic planner: the owner family from weighted evidence, a typed plan from the clauses. The model
    backends start from it and measure themselves against it."""
    return build_plan(plan_request, plan_inputs)


@config.when(planner_backend="heuristic")
def planner_output__heuristic(local_planner_output: PlannerOutput) -> PlannerOutput:
    """With the heuristic backend, the local plan is the plan."""
    return local_planner_output


def corrected_plan(planner_output: PlannerOutput, second_pass_verdict: SecondPassVerdict, plan_inputs: PlanInputs) -> PlannerOutput:
    """Once the judge has spoken, the plan of its winner (ranked flow center correction): the same builder."""
    winner = second_pass_verdict.winner
    if not second_pass_verdict.ran or winner is None or winner == planner_output.selected_routes[0]:
        return planner_output
    loser = planner_output.selected_routes[0]
    request = PlanRequest(
        family=winner, clause_families=[winner if c.role == "action" else None for c in plan_inputs.clauses],
        confidence="medium", runner_up=loser, needs_second_pass=True, ambiguity=f"second pass {loser}->{winner}",
    )
    return build_plan(request, plan_inputs)
