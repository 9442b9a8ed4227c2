"""Plan assembly for a chosen owner family: the heuristic planner and center correction share it.

Not a stage module: nothing here becomes a Hamilton node.
"""

from __future__ import annotations

from registry.contracts import HistoryEvidence, PreclassifierHints, Slots, TurnInput
from registry.plan_contracts import PlannerOutput, StepOutputCondition
from registry.loader import Registry
from stages._clauses import ClauseAnalysis
from stages._plan import _Builder, admission, build_device_steps, schedule_plan, tts


def plan_for_family(
    family: str,
    clauses: list[ClauseAnalysis],
    clause_families: list[str | None],
    preclassifier_hints: PreclassifierHints,
    history_evidence: HistoryEvidence,
    turn_input: TurnInput,
    registry: Registry,
    continuation: bool,
    confidence: str,
    runner_up: str | None,
    needs_second_pass: bool,
    ambiguity: str | None,
) -> PlannerOutput:
    """Assemble the planner contract for an owner family (also used by center correction)."""
    b = _Builder(registry=registry, device=turn_input.device_context, utterance_compact="".join(c.compact for c in clauses))
    routes: list[str] = []
    skill = registry.default_skill(family)
    slots_out, missing = None, []
    temporal = _temporal_relation(clauses)
    sequence_temporal = any(c.connective in registry.lexicon["clauses"]["sequence_nouns"] for c in clauses[:-1])
    delay = next((c.times for c in clauses if c.times.relative), None)
    acting = [h for c in clauses if c.role == "action" for h in c.capabilities if h.kind in ("execution", "settings")]
    scheduling_words = any(c.cues.get("sch_scope") for c in clauses)
    if family == "SCH" and delay is not None and len(acting) >= 2 and not scheduling_words and not continuation:
        # "30분 뒤에 청정 끄고 충전대로 가": the scheduler holds the device steps for the delay;
        # the planner never counts the time itself
        seconds = _offset_seconds(delay.start_time)
        skill = "schedule_timer_create"
        b.add("SCH", skill, skill_id=skill)
        build_device_steps(b, clauses, registry)
        routes = ["SCH", "ODL"]
        slots_out = Slots(duration_s=seconds)
        temporal = "clock_delay"
    elif family == "SCH":
        skill, slots_out, missing = schedule_plan(clauses, history_evidence, continuation, registry)
        b.add("SCH", skill, skill_id=skill)
        routes = ["SCH"]
    elif family == "ODL" or (family in ("FRG", "SCH", "DEF", "DQR") and "ODL" in clause_families):
        # walk clauses in order; consecutive clauses of one family share a step group
        group: list[ClauseAnalysis] = []
        group_family = None
        for c, cf in zip(clauses, clause_families):
            fam = cf or group_family or family
            if group and fam != group_family:
                _emit(b, group_family, group, history_evidence, registry, routes)
                group = []
            group.append(c)
            group_family = fam
        if group:
            _emit(b, group_family, group, history_evidence, registry, routes)
        if not b.steps:
            routes = [family]
            b.add(family, registry.default_skill(family), skill_id=registry.default_skill(family))
            # a move with no registered room ("화장실로 가줘") asks which room instead of pretending
            if any(h.capability_id == "move_to_room" for c in clauses for h in c.capabilities):
                missing = ["room_name"]
    else:
        routes = [family]
        extra = [f for f in dict.fromkeys(clause_families) if f and f != family and f in ("FRG", "SCH", "DQR")]
        b.add(family, skill, skill_id=skill)
        for other in extra:
            if other == "SCH":
                sk, slots_out, missing = schedule_plan([c for c, f in zip(clauses, clause_families) if f == "SCH"], history_evidence, False, registry)
            else:
                sk = registry.default_skill(other)
            b.add(other, sk, skill_id=sk)
            routes.append(other)
    routes = [family] + [r for r in routes if r != family]  # the owner's route always comes first
    device_steps = [s for s in b.steps if s.action]
    if family == "ODL":
        skill = "multi_step_device_workflow" if len(device_steps) >= 2 else "device_execution_bridge"
    if temporal is None and sequence_temporal and len(b.steps) >= 2:
        temporal = "after_planned_step"
    if len(b.steps) >= 2:
        turn_mode = "multi_step"
    elif missing or continuation:
        turn_mode = "multi_turn"
    else:
        turn_mode = "singleton"
    categories = list(preclassifier_hints.unsupported_request_categories) if family == "UNS" else []
    subtype = scope = recoverability = None
    if family == "STT_NULL":
        strategy = preclassifier_hints.stt_null_response_strategy
        subtype = {"retry": "HARD", "scoped_probe": "SOFT"}.get(strategy, "GENERIC")
        scope = _weak_scope(preclassifier_hints)
        recoverability = {"HARD": "none", "GENERIC": "low", "SOFT": "medium"}[subtype]
    slots_final = slots_out or Slots()
    voice_stop = any(c.act is not None and c.act.mood == "stop" for c in clauses)
    text, ask = tts(registry, family, b.steps, skill, slots_final, missing, categories, subtype, scope, voice_stop)
    experience = admission(b.steps, b.user_actions, b.guarded, temporal, routes) if (
        family in ("ODL", "FRG") or len(routes) > 1 or temporal) else None
    return PlannerOutput(
        turn_mode=turn_mode,
        selected_routes=routes,
        selected_flow_id=registry.flow_id(family, skill),
        selected_agent=registry.agent_for_family(family),
        selected_skill=skill,
        owner_selection=family,
        steps=b.steps,
        missing_slots=missing,
        slots=slots_final,
        family_confidence=confidence,
        runner_up_family=runner_up,
        needs_second_pass=needs_second_pass,
        ambiguity_reason=ambiguity,
        unsupported_categories=categories,
        stt_null_subtype=subtype,
        stt_null_target_scope=scope,
        stt_null_recoverability=recoverability,
        ask_follow_up=ask,
        tts_response=text,
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
