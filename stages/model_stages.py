"""Model variants of steps 6-8 and 12-14 (DESIGN section 3), beside the deterministic defaults.

`planner_backend`: gemini (the model plans every turn), hybrid (the heuristic planner decides
when it is confident; the model only for low confidence, and the pairwise judge for a gray
pair), replay (as gemini, answers from a cassette). `object_typer_mode`,
`replyability_judge_mode` and `ranked_flow_selector` ("llm") add the optional model stages.
Every model answer is checked against the registries; an invalid one gets one repair call
carrying only the validation errors; invalid again, the planner fails closed and the optional
stages keep their deterministic value, each recording why. The client is an input.
"""

from __future__ import annotations

from typing import Any

from hamilton.function_modifiers import config

from registry.contracts import (
    CandidatePool,
    FamilyScores,
    FlowCatalog,
    HistoryEvidence,
    NormalizedText,
    PreclassifierHints,
    RankedFlow,
    RankedFlows,
    ReplyabilityMeta,
    ReplyObjectMeta,
    TurnInput,
)
from registry.plan_contracts import (
    PlanCheckReport,
    PlannerOutput,
    PlanViolation,
    ScheduleShortCircuit,
    SecondPassVerdict,
)
from registry.loader import Registry
from registry.model_contracts import (
    ModelClient,
    ModelJudgeAnswer,
    ModelObjectType,
    ModelPlannerOutput,
    ModelRankedFlows,
    ModelReplyability,
    PlannerDecision,
    PlannerProvenance,
)
from registry.model_policy import ModelPolicy
from stages import checks, judge, reply_meta, routing
from stages._clauses import ClauseAnalysis
from stages.boundaries import spoken_reply
from stages._model import Asked, ask, evidence, model_request, parse_as, parse_plan, planner_packet, ranked_packet

MODEL_BACKENDS = ["gemini", "hybrid", "replay"]


# --- main planner (step 12) ----------------------------------------------------------------


@config.when(planner_backend="heuristic")
def planner_provenance__heuristic(planner_output: PlannerOutput) -> PlannerProvenance:
    """The heuristic backend: the local planner always decides."""
    return PlannerProvenance(backend="heuristic", decided_by="heuristic", local_family=planner_output.selected_routes[0])


def _local(backend: str, decided_by: str, reason: str, local: PlannerOutput) -> PlannerDecision:
    provenance = PlannerProvenance(backend=backend, decided_by=decided_by, reason=reason, local_family=local.selected_routes[0])
    return PlannerDecision(output=local, provenance=provenance)


@config.when_in(planner_backend=MODEL_BACKENDS)
def planner_decision(
    local_planner_output: PlannerOutput,
    normalized_text: NormalizedText,
    preclassifier_hints: PreclassifierHints,
    reply_object_meta: ReplyObjectMeta,
    replyability_meta: ReplyabilityMeta,
    history_evidence: HistoryEvidence,
    schedule_short_circuit: ScheduleShortCircuit,
    ranked_flows: RankedFlows,
    candidate_pool: CandidatePool,
    clause_analyses: list[ClauseAnalysis],
    turn_input: TurnInput,
    registry: Registry,
    kiwi: Any,
    planner_backend: str,
    model_client: ModelClient,
    model_policy: ModelPolicy,
) -> PlannerDecision:
    """gemini/replay: the model plans every turn but the shortcuts; hybrid: prefer handling locally,
    the model only when the heuristic confidence is low. Checked, repaired once, else fail-closed."""
    backend, local = planner_backend, local_planner_output
    if schedule_short_circuit.active:  # step 10: an open slot filling keeps the turn
        return _local(backend, "schedule_short_circuit", schedule_short_circuit.reason, local)
    if normalized_text.rejected_reason:  # step 11: nothing a model could read
        return _local(backend, "local_shortcut", f"rejected text: {normalized_text.rejected_reason}", local)
    reason = "model backend"
    if backend == "hybrid":
        reason = f"heuristic confidence {local.family_confidence}"
        if local.family_confidence not in model_policy.hybrid.model_for_confidence:
            return _local(backend, "local", reason, local)
    packet = planner_packet(normalized_text, preclassifier_hints, reply_object_meta, replyability_meta, history_evidence,
                            ranked_flows, candidate_pool, turn_input, registry, model_policy)
    request = model_request("main_planner", normalized_text.original, packet, ModelPlannerOutput, model_policy)
    asked: Asked = ask(model_client, request, lambda text: parse_plan(text, registry, candidate_pool, clause_analyses, turn_input),
                       model_policy)
    common = dict(backend=backend, model_attempts=asked.attempts, local_family=local.selected_routes[0])
    if asked.value is not None:
        plan, withheld = spoken_reply(asked.value, kiwi, registry)
        provenance = PlannerProvenance(decided_by="model", reason=reason, validation_errors=[str(e) for e in asked.repaired_errors],
                                       violations=asked.repaired_errors, withheld_reply=asked.value.tts_response if withheld else None,
                                       withheld_because=withheld, **common)
        return PlannerDecision(output=plan, provenance=provenance)
    if asked.unavailable and backend == "hybrid":  # prefer local: the heuristic plan already passed its checks
        return PlannerDecision(output=local, provenance=PlannerProvenance(decided_by="local_fallback", reason=asked.why, **common))
    # the safe reply of the plan checks: a rejected answer keeps its owner only if that owner was valid;
    # with no parsed answer there is no owner (an empty flow id makes final_plan choose the safe family)
    rejected = asked.rejected or local.model_copy(update={"selected_flow_id": ""})
    violations = asked.errors or [PlanViolation(code="invalid_answer", detail=asked.why)]
    report = PlanCheckReport(ok=False, violations=violations, fail_closed=True)
    closed = checks.final_plan(rejected, report, registry)
    provenance = PlannerProvenance(decided_by="fail_closed", reason=asked.why, validation_errors=[str(e) for e in asked.errors],
                                   violations=violations, **common)
    return PlannerDecision(output=closed, provenance=provenance)


@config.when_in(planner_backend=MODEL_BACKENDS)
def planner_output__model(planner_decision: PlannerDecision) -> PlannerOutput:
    """The plan of whichever path decided."""
    return planner_decision.output


@config.when_in(planner_backend=MODEL_BACKENDS)
def planner_provenance__model(planner_decision: PlannerDecision) -> PlannerProvenance:
    """Which path decided, and why."""
    return planner_decision.provenance


# --- second pass family judge (steps 13-14) ------------------------------------------------


def _judge_answer(text: str, pair: tuple[str, str]) -> tuple[ModelJudgeAnswer | None, list[str]]:
    answer, errors = parse_as(ModelJudgeAnswer, text)
    if answer is not None and answer.winner not in pair:
        return None, [f"winner: {answer.winner} is not one of the pair {list(pair)}"]
    return answer, errors


@config.when_in(planner_backend=MODEL_BACKENDS)
def second_pass_verdict__model(
    planner_output: PlannerOutput,
    planner_provenance: PlannerProvenance,
    preclassifier_hints: PreclassifierHints,
    reply_object_meta: ReplyObjectMeta,
    replyability_meta: ReplyabilityMeta,
    family_scores: FamilyScores,
    normalized_text: NormalizedText,
    registry: Registry,
    model_client: ModelClient,
    model_policy: ModelPolicy,
) -> SecondPassVerdict:
    """The deterministic gate opens the pairwise question; the model answers it inside the pair."""
    if planner_provenance.decided_by == "fail_closed":
        return SecondPassVerdict(ran=False, reason=["planner failed closed: nothing to judge"])
    local = judge.second_pass_verdict(planner_output, preclassifier_hints, reply_object_meta, replyability_meta, family_scores, registry)
    if not local.ran or local.pair is None:
        return local
    packet = {
        "task": "second_pass_judge", "utterance": normalized_text.original, "pair": list(local.pair), "question": local.question,
        "first_pass": [planner_output.selected_routes[0], planner_output.family_confidence],
        "evidence": evidence(preclassifier_hints, model_policy),
        "reply_object": reply_object_meta.object_type, "replyability": replyability_meta.replyability_type,
    }
    request = model_request("second_pass_judge", normalized_text.original, packet, ModelJudgeAnswer, model_policy)
    asked = ask(model_client, request, lambda text: _judge_answer(text, local.pair), model_policy)
    if asked.value is None:  # the deterministic answer stands; neither side of a gray pair carries an action
        return local.model_copy(update={"reason": [*local.reason, f"model judge fallback: {asked.why}"]})
    return local.model_copy(update={"winner": asked.value.winner, "reason": [f"model: {asked.value.reason}"]})


# --- reply object typer and replyability judge (steps 7-8) ---------------------------------


def _ask_meta(stage: str, schema, guess: list, normalized_text: NormalizedText, hints: PreclassifierHints,
              client: ModelClient, policy: ModelPolicy) -> Asked:
    """One meta question: the utterance, the evidence and the deterministic guess."""
    packet = {"task": stage, "utterance": normalized_text.original, "evidence": evidence(hints, policy), "deterministic": guess}
    return ask(client, model_request(stage, normalized_text.original, packet, schema, policy), lambda text: parse_as(schema, text), policy)


@config.when(object_typer_mode="llm")
def reply_object_meta__llm(
    preclassifier_hints: PreclassifierHints, normalized_text: NormalizedText, model_client: ModelClient, model_policy: ModelPolicy
) -> ReplyObjectMeta:
    """The deterministic typing, refined by the model when its gate opens (weak or unknown object)."""
    local = reply_meta.reply_object_meta__deterministic(preclassifier_hints)
    gate = model_policy.object_typer
    if local.object_type not in gate.gate_object_types and local.confidence >= gate.gate_below_confidence:
        return local
    asked = _ask_meta("object_typer", ModelObjectType, [local.object_type, round(local.confidence, 2)], normalized_text,
                      preclassifier_hints, model_client, model_policy)
    if asked.value is None:
        return local.model_copy(update={"reason_signals": [*local.reason_signals, f"model typer fallback: {asked.why}"]})
    roles = {object_type: role for object_type, role, _ in reply_meta._OBJECT_RULES}
    return ReplyObjectMeta(object_type=asked.value.object_type, role=roles.get(asked.value.object_type, "unknown"),
                           confidence=model_policy.confidence_values[asked.value.confidence], reason_signals=[f"model: {asked.value.reason}"])


@config.when(replyability_judge_mode="llm")
def replyability_meta__llm(
    preclassifier_hints: PreclassifierHints, normalized_text: NormalizedText, model_client: ModelClient, model_policy: ModelPolicy
) -> ReplyabilityMeta:
    """The deterministic replyability, judged by the model when it is uncertain."""
    local = reply_meta.replyability_meta__deterministic(preclassifier_hints)
    if local.replyability_type not in model_policy.replyability_judge.gate_types:
        return local
    asked = _ask_meta("replyability_judge", ModelReplyability, [local.replyability_type, round(local.confidence, 2)], normalized_text,
                      preclassifier_hints, model_client, model_policy)
    if asked.value is None:
        return local.model_copy(update={"reason": [*local.reason, f"model judge fallback: {asked.why}"]})
    return ReplyabilityMeta(replyability_type=asked.value.replyability_type, confidence=model_policy.confidence_values[asked.value.confidence],
                            reason=[f"model: {asked.value.reason}"])


# --- ranked flow selector (step 6, inline_unified_router=false) ----------------------------


def _ranked_answer(text: str, catalog_ids: list[str]) -> tuple[ModelRankedFlows | None, list[str]]:
    answer, errors = parse_as(ModelRankedFlows, text)
    if answer is None:
        return None, errors
    ids = [f.flow_id for f in answer.top_flows]
    errors = [f"top_flows: {i!r} is not a catalog flow {catalog_ids}" for i in ids if i not in catalog_ids]
    if len(ids) != len(set(ids)):
        errors.append("top_flows: a flow is listed twice")
    if not ids:
        errors.append("top_flows: empty")
    return (answer, []) if not errors else (None, errors)


@config.when(inline_unified_router=False, ranked_flow_selector="llm")
def ranked_flows__llm(
    flow_catalog: FlowCatalog,
    family_scores: FamilyScores,
    preclassifier_hints: PreclassifierHints,
    normalized_text: NormalizedText,
    model_client: ModelClient,
    model_policy: ModelPolicy,
) -> RankedFlows:
    """A separate ranked-flow model over the filtered catalog; the deterministic order if it fails."""
    local = routing.ranked_flows__separate(flow_catalog, family_scores)
    if not flow_catalog.flows:
        return local
    catalog_ids = [f.flow_id for f in flow_catalog.flows]
    packet = ranked_packet(normalized_text, preclassifier_hints, flow_catalog, family_scores, model_policy)
    asked = ask(model_client, model_request("ranked_flow_selector", normalized_text.original, packet, ModelRankedFlows, model_policy),
                lambda text: _ranked_answer(text, catalog_ids), model_policy)
    if asked.value is None:
        top = [f.model_copy(update={"rationale": f"{f.rationale} (model selector fallback: {asked.why})"}) for f in local.top_flows]
        return local.model_copy(update={"top_flows": top})
    values = model_policy.confidence_values
    top = [RankedFlow(flow_id=f.flow_id, confidence=values[f.confidence], rationale=f"model: {f.rationale}") for f in asked.value.top_flows]
    by_id = {f.flow_id: f for f in flow_catalog.flows}
    order = [by_id[f.flow_id] for f in top] + [f for f in flow_catalog.flows if f.flow_id not in {t.flow_id for t in top}]
    return RankedFlows(
        top_flows=top,
        candidate_agent_ids=list(dict.fromkeys(f.agent_id for f in order)),
        candidate_skill_ids=list(dict.fromkeys(f.skill_id for f in order)),
        ranked_owner_selection=order[0].route_family,
        owner_hint_strength=top[0].confidence,
    )
