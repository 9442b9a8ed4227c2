"""Mechanisms of the model stages: request packets, the ask -> validate -> one repair loop,
and the conversion of model-facing answers into the pipeline's contracts.

Nothing here talks to a network: the client is the `model_client` input of the DAG.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Callable, Generic, TypeVar

from pydantic import ValidationError

from registry.contracts import (
    CandidatePool,
    FamilyScores,
    FlowCatalog,
    HistoryEvidence,
    NormalizedText,
    PreclassifierHints,
    RankedFlows,
    ReplyabilityMeta,
    ReplyObjectMeta,
    TurnInput,
)
from registry.plan_contracts import Action, PlannerOutput, PlanViolation, StateCondition, Step, StepOutputCondition
from registry.errors import ModelUnavailable
from registry.loader import Registry
from registry.model_contracts import ModelClient, ModelCondition, ModelFacing, ModelPlannerOutput, ModelRequest, ModelStep, ModelTurn, compact_json
from registry.model_policy import ModelPolicy
from stages._clauses import ClauseAnalysis
from stages.boundaries import plan_violations

T = TypeVar("T")
Parse = Callable[[str], tuple[Any, list[str]]]

MAX_ERRORS = 8
"""A repair carries at most this many errors (the first ones)."""


# --- the ask / validate / repair loop ------------------------------------------------------


@dataclass(frozen=True)
class Asked(Generic[T]):
    """What asking the model produced: a valid value, or why there is none."""

    value: T | None
    attempts: int
    repaired_errors: list[Any] = field(default_factory=list)
    """The first answer's errors when a repair was needed (text, or PlanViolation for a plan)."""
    errors: list[Any] = field(default_factory=list)
    """The last answer's errors when no valid value came back."""
    unavailable: str | None = None
    rejected: T | None = None
    """The last answer when it parsed but broke a boundary (the fail-closed reply keeps a valid owner)."""

    @property
    def why(self) -> str:
        if self.unavailable:
            return f"model unavailable: {self.unavailable}"
        return "model output invalid after one repair: " + "; ".join(map(str, self.errors))


def model_request(stage: str, utterance: str, packet: dict[str, Any], schema: type[ModelFacing], policy: ModelPolicy) -> ModelRequest:
    """A first request: the stage's system prompt file and the packet as compact JSON."""
    return ModelRequest(
        stage=stage, utterance=utterance, system_instruction=policy.prompts[stage],
        contents=[ModelTurn(role="user", text=compact_json(packet))], response_schema=schema.__name__,
    )


def repair_request(request: ModelRequest, answer: str, errors: list[Any], policy: ModelPolicy) -> ModelRequest:
    """The one repair: the same conversation plus the answer and only its validation errors."""
    message = policy.prompts["repair"].replace("{errors}", "\n".join(f"- {e}" for e in errors[:MAX_ERRORS]))
    contents = [*request.contents, ModelTurn(role="model", text=answer), ModelTurn(role="user", text=message)]
    return request.model_copy(update={"contents": contents, "repair": True})


def ask(client: ModelClient, request: ModelRequest, parse: Parse, policy: ModelPolicy) -> Asked:
    """Call, validate; on errors one repair call carrying them; still invalid -> no value."""
    try:
        reply = client.generate(request)
    except ModelUnavailable as exc:
        return Asked(None, 1, unavailable=str(exc))
    value, errors = parse(reply.text)  # value may be set beside errors: parsed, but outside a boundary
    if not errors:
        return Asked(value, 1)
    try:
        second = client.generate(repair_request(request, reply.text, errors, policy))
    except ModelUnavailable as exc:
        return Asked(None, 2, repaired_errors=errors, errors=errors, unavailable=str(exc))
    value, again = parse(second.text)
    if again:
        return Asked(None, 2, repaired_errors=errors, errors=again, rejected=value)
    return Asked(value, 2, repaired_errors=errors)


def pydantic_errors(exc: ValidationError) -> list[str]:
    """`path: message` per error, the form a repair carries."""
    return [f"{'.'.join(map(str, e['loc'])) or '<root>'}: {e['msg']}" for e in exc.errors()[:MAX_ERRORS]]


def parse_as(schema: type[ModelFacing], text: str) -> tuple[Any, list[str]]:
    """The model's JSON text as the model-facing schema, or the errors."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        return None, [f"not valid JSON: {exc.msg} at line {exc.lineno} column {exc.colno}"]
    try:
        return schema.model_validate(data), []
    except ValidationError as exc:
        return None, pydantic_errors(exc)


# --- packets ---------------------------------------------------------------------------------


def evidence(hints: PreclassifierHints, policy: ModelPolicy) -> dict[str, Any]:
    """The compact evidence every model stage sees: lit axes, anchors, categories, strategy."""
    out: dict[str, Any] = {
        "axes": {k: round(v.strength, 2) for k, v in hints.axes.items() if v.strength >= policy.packet.axis_min_strength},
    }
    if hints.anchors:
        out["anchors"] = [f"{a.kind}:{a.target}={a.surface}" for a in hints.anchors[: policy.packet.max_anchors]]
    if len(hints.clauses) > 1:
        out["clauses"] = [[c.text, c.role] for c in hints.clauses]
    for key, value in (("unsupported_categories", hints.unsupported_request_categories), ("device_qna_topics", hints.device_qna_topics),
                       ("product_identity", hints.product_identity_anchors)):
        if value:
            out[key] = value
    if hints.stt_null_response_strategy != "none":
        out["stt_null_strategy"] = hints.stt_null_response_strategy
    return out


def guard_paths(registry: Registry) -> list[str]:
    """State paths a guard may read: those of the registry's guard templates."""
    return sorted({g.path for c in registry.capabilities.capabilities for g in c.guard_conditions.values() if g.kind == "state" and g.path})


def _argument_text(name: str, spec) -> str:
    text = f"{name}:{spec.type}"
    if spec.minimum is not None or spec.maximum is not None:
        text += f" {spec.minimum}..{spec.maximum}"
    return text + ("*" if spec.required else "")


def capability_excerpt(hints: PreclassifierHints, registry: Registry) -> dict[str, dict[str, list[str]]]:
    """Operations and arguments of the capabilities the utterance anchored (the model's device menu)."""
    ids = [a.target for a in hints.anchors if a.kind in ("execution", "settings", "state_query")]
    out = {}
    for cap_id in dict.fromkeys(ids):
        cap = registry.capability_by_id.get(cap_id)
        if cap is not None:
            out[cap_id] = {op.operation_id: [_argument_text(n, s) for n, s in op.arguments.items()] for op in cap.operations}
    return out


def planner_packet(
    normalized_text: NormalizedText, hints: PreclassifierHints, reply_object_meta: ReplyObjectMeta,
    replyability_meta: ReplyabilityMeta, history_evidence: HistoryEvidence, ranked_flows: RankedFlows,
    candidate_pool: CandidatePool, turn_input: TurnInput, registry: Registry, policy: ModelPolicy,
) -> dict[str, Any]:
    """The main planner's request: evidence, the filtered catalog, ranked flows, the device menu."""
    packet: dict[str, Any] = {"task": "main_planner", "utterance": normalized_text.original}
    if normalized_text.text != normalized_text.original:
        packet["normalized"] = normalized_text.text
    packet["evidence"] = evidence(hints, policy)
    packet["reply_object"] = [reply_object_meta.object_type, round(reply_object_meta.confidence, 2)]
    packet["replyability"] = [replyability_meta.replyability_type, round(replyability_meta.confidence, 2)]
    voice = turn_input.voice_context
    history = {k: v for k, v in (("continuation_route", history_evidence.continuation_route), ("missing_slots", history_evidence.missing_slots),
                                  ("open_slots", history_evidence.open_slot_state), ("pending_follow_up", voice.pending_follow_up_text)) if v}
    if history:
        packet["history"] = history
    packet["ranked_flows"] = [[f.flow_id, round(f.confidence, 2)] for f in ranked_flows.top_flows[: policy.packet.max_ranked_flows]]
    if ranked_flows.ranked_owner_selection:
        packet["ranked_owner"] = [ranked_flows.ranked_owner_selection, round(ranked_flows.owner_hint_strength, 2)]
    catalog = []
    skills = {s.skill_id: s for a in registry.skills.agents for s in a.skills}
    for flow_id in candidate_pool.flow_ids:
        flow = registry.flow_by_id[flow_id]
        entry = {"id": flow_id, "purpose": flow.purpose, "use": flow.when_to_use, "avoid": flow.when_not_to_use}
        if skills[flow.skill_id].slots:
            entry["slots"] = skills[flow.skill_id].slots
        catalog.append(entry)
    packet["catalog"] = catalog
    capabilities = capability_excerpt(hints, registry)
    if capabilities:
        packet["capabilities"] = capabilities
        packet["device_position"] = turn_input.device_context.position
        if any("room" in arg for ops in capabilities.values() for args in ops.values() for arg in args):
            packet["rooms"] = [r.canonical_name for r in registry.rooms.rooms]
        packet["guard_paths"] = guard_paths(registry)
    return packet


def ranked_packet(normalized_text: NormalizedText, hints: PreclassifierHints, flow_catalog: FlowCatalog,
                  family_scores: FamilyScores, policy: ModelPolicy) -> dict[str, Any]:
    """The ranked-flow selector's request: evidence, allowed families and the catalog menu."""
    return {
        "task": "ranked_flow_selector",
        "utterance": normalized_text.original,
        "evidence": evidence(hints, policy),
        "allowed_families": list(dict.fromkeys(f.route_family for f in flow_catalog.flows)),
        "family_scores": {f: s for f, s in sorted(family_scores.scores.items(), key=lambda kv: -kv[1])[:4]},
        "catalog": [{"id": f.flow_id, "purpose": f.purpose} for f in flow_catalog.flows],
    }


# --- model answers -> contracts ------------------------------------------------------------


def _scalar(text: str) -> Any:
    """A condition value given as text: a JSON number or boolean when it is one, else the text."""
    try:
        value = json.loads(text)
    except json.JSONDecodeError:
        return text
    return value if isinstance(value, (int, float, bool)) else text


def _arguments(step: ModelStep, registry: Registry, errors: list[str]) -> dict[str, Any]:
    cap = registry.capability_by_id.get(step.capability_id or "")
    op = cap.operation(step.operation_id or "") if cap else None
    args: dict[str, Any] = {}
    for arg in step.arguments:
        spec = op.arguments.get(arg.name) if op else None
        if spec is not None and spec.type == "integer":
            try:
                args[arg.name] = int(arg.value)
            except ValueError:
                errors.append(f"{step.id}: argument {arg.name}={arg.value!r} is not an integer")
        elif spec is not None and spec.type == "boolean":
            if arg.value.lower() not in ("true", "false"):
                errors.append(f"{step.id}: argument {arg.name}={arg.value!r} is not true or false")
            args[arg.name] = arg.value.lower() == "true"
        else:  # rooms and strings stay text; unknown names are reported by the plan checks
            args[arg.name] = arg.value
    return args


def _condition(step_id: str, cond: ModelCondition, errors: list[str]):
    if not cond.values:
        errors.append(f"{step_id}: condition has no value")
        return None
    if cond.operator in ("in", "not_in"):
        value: Any = [_scalar(v) for v in cond.values]
    elif len(cond.values) == 1:
        value = _scalar(cond.values[0])
    else:
        errors.append(f"{step_id}: operator {cond.operator} takes one value, got {len(cond.values)}")
        return None
    if cond.kind == "state":  # which paths may be read is a plan check (stages/checks.py)
        if not cond.path:
            errors.append(f"{step_id}: a state condition needs a path")
            return None
        return StateCondition(path=cond.path, operator=cond.operator, value=value)
    if not cond.step_id or not cond.field:
        errors.append(f"{step_id}: a step_output condition needs step_id and field")
        return None
    return StepOutputCondition(step_id=cond.step_id, field=cond.field, operator=cond.operator, value=value)


def plan_from_answer(answer: ModelPlannerOutput, registry: Registry) -> tuple[PlannerOutput | None, list[str]]:
    """The flat model answer as a PlannerOutput; conversion errors (argument types, conditions) listed."""
    errors: list[str] = [] if answer.selected_routes else ["selected_routes: must name at least the owner family"]
    steps = []
    for s in answer.steps:
        action = None
        if s.capability_id or s.operation_id:
            if not (s.capability_id and s.operation_id):
                errors.append(f"{s.id}: capability_id and operation_id come together")
            else:
                action = Action(capability_id=s.capability_id, operation_id=s.operation_id, arguments=_arguments(s, registry, errors))
        elif s.arguments:
            errors.append(f"{s.id}: arguments without a capability")
        condition = _condition(s.id, s.condition, errors) if s.condition else None
        steps.append(Step(
            id=s.id, route=s.route, purpose=s.purpose, skill_id=s.skill_id, depends_on=s.depends_on, input_from=s.input_from,
            output_key=s.output_key, execution_target=s.execution_target, wait_policy=s.wait_policy, action=action, condition=condition,
        ))
    if errors:
        return None, errors
    try:
        return PlannerOutput(**answer.model_dump(exclude={"steps"}), steps=steps), []
    except ValidationError as exc:
        return None, pydantic_errors(exc)


def _as_violations(errors: list[str]) -> list[PlanViolation]:
    return [PlanViolation(code="invalid_answer", detail=e) for e in errors]


def parse_plan(text: str, registry: Registry, candidate_pool: CandidatePool, clauses: list[ClauseAnalysis],
               turn_input: TurnInput) -> tuple[PlannerOutput | None, list[PlanViolation]]:
    """Parse, convert, then the hard boundaries: the plan checks (registry, structure, what the turn asked for)
    and this turn's menu. A plan that converts but breaks a boundary comes back beside its violations."""
    answer, errors = parse_as(ModelPlannerOutput, text)
    if errors:
        return None, _as_violations(errors)
    plan, errors = plan_from_answer(answer, registry)
    if errors:
        return None, _as_violations(errors)
    violations = plan_violations(plan, clauses, turn_input, registry)
    if plan.selected_flow_id not in candidate_pool.flow_ids:
        violations.append(PlanViolation(code="flow_not_in_turn", detail=(
            f"unknown flow for this turn: {plan.selected_flow_id!r} is not in its catalog {candidate_pool.flow_ids}")))
    return plan, violations[:MAX_ERRORS]
