"""The one plan builder: a `PlanRequest` (owner family and clause families) becomes the planner contract.

The heuristic planner node, the model backends' local plan and the second pass's correction all call
`build_plan`. Not a stage module: nothing here becomes a Hamilton node.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from registry.contracts import HistoryEvidence, PreclassifierHints, Slots, TurnInput
from registry.loader import Registry
from registry.plan_contracts import PlannerOutput, PlanRequest, StepOutputCondition
from stages._clauses import ClauseAnalysis
from stages._plan import _Builder, admission, build_device_steps, schedule_plan, tts
from stages._context_acts import SLOT_ANSWER


@dataclass(frozen=True)
class PlanInputs:
    """What every plan is built from, besides the request: the licensed clauses and the turn's evidence."""

    clauses: list[ClauseAnalysis]
    hints: PreclassifierHints
    history: HistoryEvidence
    turn_input: TurnInput
    registry: Registry


@dataclass
class _Draft:
    """A plan while its steps are added: the routes it takes, its skill, slots and temporal relation."""

    routes: list[str] = field(default_factory=list)
    skill: str = ""
    slots: Slots | None = None
    missing: list[str] = field(default_factory=list)
    temporal: str | None = None


def build_plan(request: PlanRequest, inputs: PlanInputs) -> PlannerOutput:
    """Assemble the planner contract for the requested owner family."""
    clauses, registry = inputs.clauses, inputs.registry
    b = _Builder(registry=registry, device=inputs.turn_input.device_context,
                 utterance_compact="".join(c.compact for c in clauses))
    draft = _Draft(skill=registry.default_skill(request.family), temporal=_temporal_relation(clauses))
    if not _timed_device_steps(request, inputs, b, draft):
        if request.family == "SCH":
            draft.skill, draft.slots, draft.missing = schedule_plan(clauses, inputs.history, request.continuation, registry)
            b.add("SCH", draft.skill, skill_id=draft.skill)
            draft.routes = ["SCH"]
        elif request.family == "ODL" or (request.family in ("FRG", "SCH", "DEF", "DQR") and "ODL" in request.clause_families):
            _clause_groups(request, inputs, b, draft)
        else:
            _owner_and_lookups(request, inputs, b, draft)
    return _finish(request, inputs, b, draft)


def _timed_device_steps(request: PlanRequest, inputs: PlanInputs, b: _Builder, draft: _Draft) -> bool:
    """"30분 뒤에 청정 끄고 충전대로 가": the scheduler holds the device steps for the delay (the planner never
    counts the time itself). False when the turn is not such a delay."""
    clauses = inputs.clauses
    delay = next((c.times for c in clauses if c.times.relative), None)
    acting = [h for c in clauses if c.role == "action" for h in c.capabilities if h.kind in ("execution", "settings")]
    scheduling_words = any(c.cues.get("sch_scope") for c in clauses)
    if request.family != "SCH" or delay is None or len(acting) < 2 or scheduling_words or request.continuation:
        return False
    draft.skill = "schedule_timer_create"
    b.add("SCH", draft.skill, skill_id=draft.skill)
    build_device_steps(b, clauses, inputs.registry)
    draft.routes, draft.slots, draft.temporal = ["SCH", "ODL"], Slots(duration_s=_offset_seconds(delay.start_time)), "clock_delay"
    return True


def _clause_groups(request: PlanRequest, inputs: PlanInputs, b: _Builder, draft: _Draft) -> None:
    """Walk the clauses in order; consecutive clauses of one family share a step group."""
    group: list[ClauseAnalysis] = []
    group_family = None
    for c, cf in zip(inputs.clauses, request.clause_families):
        fam = cf or group_family or request.family
        if group and fam != group_family:
            _emit(b, group_family, group, inputs.history, inputs.registry, draft.routes)
            group = []
        group.append(c)
        group_family = fam
    if group:
        _emit(b, group_family, group, inputs.history, inputs.registry, draft.routes)
    if not b.steps:
        family, registry = request.family, inputs.registry
        draft.routes = [family]
        b.add(family, registry.default_skill(family), skill_id=registry.default_skill(family))
        # a move with no registered room ("화장실로 가줘") asks which room instead of pretending; the act asked back
        # is kept with the question (slots), for the answer to complete (stages._context_acts)
        if any(h.capability_id == "move_to_room" for c in inputs.clauses for h in c.capabilities):
            draft.missing, draft.slots = ["room_name"], Slots(capability_id="move_to_room", operation_id="start")
        elif b.unset:  # 바람 좀 해 줘: which level is asked back, no step that the device would refuse
            slot, capability_id, operation_id = b.unset[0]
            draft.missing, draft.slots = [slot], Slots(capability_id=capability_id, operation_id=operation_id)


def _owner_and_lookups(request: PlanRequest, inputs: PlanInputs, b: _Builder, draft: _Draft) -> None:
    """The owner's step, then one cloud step per other lookup family a clause holds (FRG, SCH, DQR)."""
    family, registry = request.family, inputs.registry
    draft.routes = [family]
    extra = [f for f in dict.fromkeys(request.clause_families) if f and f != family and f in ("FRG", "SCH", "DQR")]
    b.add(family, draft.skill, skill_id=draft.skill)
    for other in extra:
        if other == "SCH":
            scheduled = [c for c, f in zip(inputs.clauses, request.clause_families) if f == "SCH"]
            sk, draft.slots, draft.missing = schedule_plan(scheduled, inputs.history, False, registry)
        else:
            sk = registry.default_skill(other)
        b.add(other, sk, skill_id=sk)
        draft.routes.append(other)


def _finish(request: PlanRequest, inputs: PlanInputs, b: _Builder, draft: _Draft) -> PlannerOutput:
    """Route order, skill, turn mode, the STT_NULL repair, what the user hears and the experience request."""
    family, clauses, registry, hints = request.family, inputs.clauses, inputs.registry, inputs.hints
    routes = [family] + [r for r in draft.routes if r != family]  # the owner's route always comes first
    skill, temporal, missing = draft.skill, draft.temporal, draft.missing
    if family == "ODL":
        skill = "multi_step_device_workflow" if len([s for s in b.steps if s.action]) >= 2 else "device_execution_bridge"
    sequence_nouns = registry.lexicon["clauses"]["sequence_nouns"]
    if temporal is None and len(b.steps) >= 2 and any(c.connective in sequence_nouns for c in clauses[:-1]):
        temporal = "after_planned_step"
    answered = any(h.via == SLOT_ANSWER for c in clauses for h in c.capabilities)  # (어느 방으로 갈까요? 서재)
    turn_mode = "multi_step" if len(b.steps) >= 2 else "multi_turn" if missing or request.continuation or answered else "singleton"
    categories = list(hints.unsupported_request_categories) if family == "UNS" else []
    subtype = scope = recoverability = None
    if family == "STT_NULL":
        subtype = {"retry": "HARD", "scoped_probe": "SOFT"}.get(hints.stt_null_response_strategy, "GENERIC")
        scope = _weak_scope(hints)
        recoverability = {"HARD": "none", "GENERIC": "low", "SOFT": "medium"}[subtype]
    slots = draft.slots or Slots()
    voice_stop = any(c.act is not None and c.act.mood == "stop" for c in clauses)
    text, ask = tts(registry, family, b.steps, skill, slots, missing, categories, subtype, scope, voice_stop)
    experience = admission(b.steps, b.user_actions, b.guarded, temporal, routes) if (
        family in ("ODL", "FRG") or len(routes) > 1 or temporal) else None
    return PlannerOutput(
        turn_mode=turn_mode, selected_routes=routes, selected_flow_id=registry.flow_id(family, skill),
        selected_agent=registry.agent_for_family(family), selected_skill=skill, owner_selection=family,
        steps=b.steps, missing_slots=missing, slots=slots, family_confidence=request.confidence,
        runner_up_family=request.runner_up, needs_second_pass=request.needs_second_pass,
        ambiguity_reason=request.ambiguity, unsupported_categories=categories, stt_null_subtype=subtype,
        stt_null_target_scope=scope, stt_null_recoverability=recoverability, ask_follow_up=ask, tts_response=text,
        experience_request=experience,
    )


def _offset_seconds(offset: str | None) -> int | None:
    """'+HH:MM' -> seconds."""
    if not offset or not offset.startswith("+"):
        return None
    hours, minutes = offset[1:].split(":")
    return int(hours) * 3600 + int(minutes) * 60


def _temporal_relation(clauses: list[ClauseAnalysis]) -> str | None:
    """after_planned_step when a completion clause follows this plan's own actions, else the
    completion of something already running; a relative delay is a clock delay."""
    for i, c in enumerate(clauses):
        if c.role != "temporal":
            continue
        if c.times.relative:
            return "clock_delay"
        planned_before = any(p.role == "action" and p.capabilities for p in clauses[:i])
        return "after_planned_step" if planned_before else "after_existing_event"
    return None


def _weak_scope(hints: PreclassifierHints) -> str | None:
    if any(a.kind in ("execution", "settings", "state_query", "room") for a in hints.anchors):
        return "device"
    if hints.flag("has_schedule_time_semantics"):
        return "schedule"
    if hints.flag("has_frg_scope") or hints.flag("looks_title_like"):
        return "public"
    return None


def _emit(b: _Builder, family: str, group: list[ClauseAnalysis], history: HistoryEvidence, registry: Registry, routes: list[str]) -> None:
    if family == "ODL":
        before = len(b.steps)
        build_device_steps(b, group, registry)
        if len(b.steps) > before and "ODL" not in routes:
            routes.append("ODL")
        return
    if family == "SCH":
        skill, _, _ = schedule_plan(group, history, False, registry)
    else:
        skill = registry.default_skill(family)
    step = b.add(family, skill, skill_id=skill)
    if group[-1].role == "guard":
        b.pending_guard = StepOutputCondition(step_id=step.id, field="condition_met", operator="eq", value=True)
        b.guarded = True
    if family not in routes:
        routes.append(family)
