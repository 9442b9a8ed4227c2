"""The heuristic planner's mechanisms: family scoring over evidence axes, and plan assembly
from clause analyses (steps, guards, moves, consent, schedule slots)."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from registry.contracts import DeviceContext, EvidenceAxis, FamilyScores, HistoryEvidence, Slots
from registry.plan_contracts import Action, ExperienceRequest, StateCondition, Step, StepOutputCondition
from registry.loader import Registry
from registry.registry_models import CONSENT_CAPABILITY, GuardTemplate
from stages._clauses import ClauseAnalysis
from stages._matchers import matchers_for
from stages.ngram_model import LEARNED_PREFIX, learned_scale, lit_strengths



def score_families(axes: dict[str, EvidenceAxis], registry: Registry) -> FamilyScores:
    """bias + sum(weight * strength) per family, with each term kept for the record.

    The learned axes count as `learned_scale` says: in a gray zone, or between two reply families."""
    w = registry.weights
    lexical, learned = {}, {}
    for family in w.families:
        terms = {
            axis: round(weight * axes[axis].strength, 3)
            for axis, weight in w.weights.get(family, {}).items()
            if axis in axes and axes[axis].strength
        }
        lexical[family] = {a: t for a, t in terms.items() if not a.startswith(LEARNED_PREFIX)}
        learned[family] = {a: t for a, t in terms.items() if a.startswith(LEARNED_PREFIX)}
    base = {f: round(w.bias.get(f, 0.0) + sum(lexical[f].values()), 3) for f in w.families}
    scale = learned_scale(base, lit_strengths(axes), w)
    contributions = {f: {**lexical[f], **({a: round(t * scale, 3) for a, t in learned[f].items()} if scale else {})}
                     for f in w.families}
    scores = {f: round(w.bias.get(f, 0.0) + sum(contributions[f].values()), 3) for f in w.families}
    top = max(scores.values())
    exp = {f: math.exp(s - top) for f, s in scores.items()}
    total = sum(exp.values())
    return FamilyScores(scores=scores, contributions=contributions, probabilities={f: round(v / total, 4) for f, v in exp.items()})


@dataclass
class _Builder:
    registry: Registry
    device: DeviceContext
    steps: list[Step] = field(default_factory=list)
    user_actions: int = 0
    guarded: bool = False
    utterance_compact: str = ""
    pending_guard: StepOutputCondition | None = None
    """A guard set by an earlier cloud step (a lookup the device steps wait on)."""
    unset: list[tuple[str, str, str]] = field(default_factory=list)
    """(argument, capability, operation) an asked operation needs and the turn did not give (바람 좀 해 줘: which
    level): no step, ask back."""

    def next_id(self) -> str:
        return f"step_{len(self.steps) + 1}"

    def add(self, route: str, purpose: str, *, action: Action | None = None, skill_id: str | None = None,
            condition=None, output_key: str | None = None, depends_on: list[str] | None = None,
            input_from: list[str] | None = None) -> Step:
        step_id = self.next_id()
        prev = self.steps[-1] if self.steps else None
        deps = list(depends_on) if depends_on is not None else ([prev.id] if prev else [])
        if condition is not None and getattr(condition, "step_id", None) and condition.step_id not in deps:
            deps.append(condition.step_id)
        device = action is not None
        if device:
            cap = self.registry.capability_by_id[action.capability_id]
            long_running = cap.kind == "execution" and action.operation_id == "start" and "running" in " ".join(
                cap.operation(action.operation_id).terminal_evidence
            )
            wait = "event" if long_running else "completed"
        else:
            wait = "completed"
        key = output_key or (f"{action.capability_id}_result" if action else f"{route.lower()}_result")
        inputs = list(input_from) if input_from is not None else (
            [prev.output_key] if prev and not device and prev.execution_target == "cloud" else []
        )
        step = Step(
            id=step_id, route=route, purpose=purpose, skill_id=skill_id, depends_on=deps, input_from=inputs,
            output_key=key, execution_target="device" if device else "cloud", wait_policy=wait,
            action=action, condition=condition,
        )
        self.steps.append(step)
        return step


def _names(registry: Registry) -> dict[str, str]:
    return registry.lexicon["responses"]["capability_names"]


def _guard_condition(template: GuardTemplate, step_id: str | None):
    if template.kind == "state":
        return StateCondition(path=template.path or "", operator=template.operator, value=template.value)
    return StepOutputCondition(step_id=step_id or "", field=template.field or "", operator=template.operator, value=template.value)


GUARD_POLARITIES = ("consent", "need", "negative", "positive")
UNSTATED_CONDITION = "event.unstated_condition"
"""The path of a guard that names no state the robot observes (its plan is refused as unobservable)."""


def _guard_cue(c: ClauseAnalysis) -> str | None:
    """The polarity a guard's own words give (필요하면, 나쁘면, 좋으면, 동의하면), None when it says none."""
    return next((polarity for polarity in GUARD_POLARITIES if c.cues.get(f"guard_{polarity}")), None)


def rooms_referred(clauses: list[ClauseAnalysis], registry: Registry) -> list[list[str]]:
    """Each clause's rooms; a clause that names none but moves to a place word referring back (request_frames
    move_to_room anaphoric_places: 거기, 그쪽) has the room named last before it in the turn (애기방 공기 나쁘면 거기
    가서 청정해 줘: 애기방)."""
    frame = registry.frames.capabilities.get("move_to_room")
    back = frame.anaphoric_place_set if frame else frozenset()
    out: list[list[str]] = []
    last: list[str] = []
    for c in clauses:
        refers = not c.rooms and last and any(h.capability_id == "move_to_room" for h in c.capabilities) \
            and any((m.form, m.tag) in back for m in c.morphemes)
        out.append(last[-1:] if refers else list(c.rooms))
        last = list(c.rooms) or last
    return out


def build_device_steps(b: _Builder, clauses: list[ClauseAnalysis], registry: Registry) -> None:
    """ODL steps in clause order: moves before room-bound actions, guards on later steps, consent first."""
    position = registry.resolve_room(b.device.position) or registry.rooms.station_room
    guard = b.pending_guard
    guard_from_clause: ClauseAnalysis | None = None
    named: str | None = None  # the last state a clause before named (배터리 괜찮아 | 괜찮으면 ...: the guard's subject)
    for c, rooms in zip(clauses, rooms_referred(clauses, registry)):
        if c.role == "temporal":
            continue
        if c.role != "guard":
            ids = [h.capability_id for h in c.capabilities] + [x.split(":", 1)[0] for x in c.mentions]
            named = next((i for i in reversed(ids) if i in registry.capability_by_id
                          and registry.capability_by_id[i].guard_conditions), named)
        if c.role == "guard" and c.act is not None and c.act.agent != "robot" \
                and any(s.startswith("vocative") for s in c.act.signals):
            continue  # 시리야 하고 부르면 폰이 대답해, 로봇아 ...: a condition said to somebody else guards nothing of the robot's
        if c.role == "guard":
            guard_from_clause = c
            b.guarded = True
            guard = None  # resolved lazily at the next action so a needed check can be inserted first
            continue
        moves_in_clause = any(h.capability_id == "move_to_room" for h in c.capabilities)
        for hit in c.capabilities:
            cap = registry.capability_by_id[hit.capability_id]
            if hit.capability_id == "move_to_room" and not rooms:
                continue
            args: dict = dict(hit.arguments)
            if hit.capability_id == "move_to_room":
                args["room_name"] = registry.room_by_id[rooms[-1]].canonical_name
            if b.steps and b.steps[-1].action == Action(capability_id=cap.capability_id, operation_id=hit.operation_id, arguments=args):
                continue  # "충전대 가서 충전해", "찍어도 되는지 물어보고 된다 하면 찍어": one action said twice is one step
            unset = next((op.unset(args) for op in cap.operations if op.operation_id == hit.operation_id), None)
            last = b.steps[-1].action if b.steps else None
            if last is not None and unset is None and cap.kind == "settings" and not c.has_predicate \
                    and (last.capability_id, last.operation_id) == (cap.capability_id, hit.operation_id):
                b.steps[-1] = b.steps[-1].model_copy(update={"action": last.model_copy(update={"arguments": args})})
                continue  # 바람 세게 해 줘, 터보로: a setting said again without a verb refines the one asked
            if unset is not None:
                b.unset.append((unset, cap.capability_id, hit.operation_id))
                continue
            if guard_from_clause is not None and guard is None:
                guard = _resolve_guard(b, guard_from_clause, registry, named)
            rooms_for_action: list[str] = []
            if hit.capability_id == "move_to_room":
                target = rooms[-1]
                if target == position and any(h.capability_id != "move_to_room" for h in c.capabilities):
                    continue
                position = target
            elif cap.kind == "state_query" and rooms and "room_name" in cap.operations[0].arguments and not moves_in_clause:
                args["room_name"] = registry.room_by_id[rooms[0]].canonical_name
            elif cap.kind == "execution" and rooms and hit.operation_id == "start" and not cap.requires_room and not moves_in_clause:
                # an action in named rooms ("작은방이랑 서재 청정해") runs in each, moving there first
                rooms_for_action = rooms
            for room in rooms_for_action or [None]:
                if room is not None and room != position:
                    _move(b, registry, room, guard)
                    position = room
                for _ in range(repeat_count(c, cap)):
                    _add_action(b, registry, cap, hit.operation_id, args, guard)


def repeat_count(c: ClauseAnalysis, cap) -> int:
    """How many times the clause asks for the action: a number before one of its counters ("사진 2 장"), else once."""
    if cap.repeat is None:
        return 1
    for mo, following in zip(c.morphemes, c.morphemes[1:]):
        if mo.tag == "SN" and mo.form.isdigit() and following.form in cap.repeat.counters:
            return max(1, min(int(mo.form), cap.repeat.maximum))
    return 1


def _add_action(b: _Builder, registry: Registry, cap, operation_id: str, args: dict, guard) -> None:
    """One user action; a capability that needs consent gets a consent step of its own before it (the device
    spends a granted consent on the one action it was asked for)."""
    action = Action(capability_id=cap.capability_id, operation_id=operation_id, arguments=args)
    if cap.requires_consent:
        consent = _unspent_consent(b) or b.add(
            "ODL", _names(registry)[CONSENT_CAPABILITY], condition=guard,
            action=Action(capability_id=CONSENT_CAPABILITY, operation_id="start", arguments={"purpose": cap.capability_id}))
        guard = StepOutputCondition(step_id=consent.id, field="granted", operator="eq", value=True)
    b.add("ODL", _names(registry)[cap.capability_id], condition=guard, action=action)
    b.user_actions += 1


def _unspent_consent(b: _Builder) -> Step | None:
    """A consent step the user asked for ("동의 받고 사진 찍어") that no action has spent yet."""
    spent = {s.condition.step_id for s in b.steps if isinstance(s.condition, StepOutputCondition)}
    return next((s for s in reversed(b.steps) if s.action and s.action.capability_id == CONSENT_CAPABILITY and s.id not in spent), None)


def _move(b: _Builder, registry: Registry, room: str, guard) -> None:
    name = registry.room_by_id[room].canonical_name
    b.add("ODL", f"{_names(registry)['move_to_room']}: {name}", condition=guard,
          action=Action(capability_id="move_to_room", operation_id="start", arguments={"room_name": name}))


def _resolve_guard(b: _Builder, c: ClauseAnalysis, registry: Registry, named: str | None = None):
    """The typed condition of a guard clause; inserts the state query it reads when missing. Its subject: a state the
    guard names, else the last step's that has guard conditions, else the state a clause before named, else the
    default."""
    cue = _guard_cue(c)
    polarity = cue or "need"
    unprovided = registry.effects.unprovided_in(c.compact, b.utterance_compact) if registry.effects else []
    if unprovided:
        # "엄마 오면": no provider can observe this; the condition stays ungrounded and plan checks refuse it
        return StateCondition(path=f"event.{unprovided[0]}", operator="eq", value=True)
    if polarity == "consent":
        return None  # consent is the capability's own precondition: the consent step guards it
    subject = next((h.capability_id for h in c.capabilities if registry.capability_by_id[h.capability_id].guard_conditions), None)
    if subject is None:
        earlier = [s for s in b.steps if s.action and registry.capability_by_id[s.action.capability_id].guard_conditions]
        if earlier:
            subject = earlier[-1].action.capability_id
        elif named is not None:
            subject = named
        elif b.steps and b.steps[-1].execution_target == "cloud":
            return StepOutputCondition(step_id=b.steps[-1].id, field="condition_met", operator="eq", value=True)
        elif not c.anchors and cue is None:
            # 싫으면 주방 가 / 안 뭇으면 ...: a condition with no state word and no word of how a state stands says
            # nothing the robot can observe; it is no air quality to check (the plan checks refuse it)
            return StateCondition(path=UNSTATED_CONDITION, operator="eq", value=True)
        else:
            subject = matchers_for(registry).guard_default_subject
    cap = registry.capability_by_id[subject]
    template = cap.guard_conditions.get(polarity) or cap.guard_conditions.get("need")
    if template is None:
        return None
    if template.kind == "state":
        return _guard_condition(template, None)
    source = next((s for s in reversed(b.steps) if s.action and s.action.capability_id == subject), None)
    if source is None:
        args = {}
        if c.rooms and "room_name" in cap.operations[0].arguments:
            args["room_name"] = registry.room_by_id[c.rooms[0]].canonical_name
        source = b.add("ODL", _names(registry)[subject], action=Action(capability_id=subject, operation_id="check", arguments=args))
    return _guard_condition(template, source.id)




def schedule_plan(c_all: list[ClauseAnalysis], history: HistoryEvidence, continuation: bool, registry: Registry):
    """(skill, slots, missing) for a schedule turn, merging an open slot state when continuing."""
    m = matchers_for(registry)
    cues: dict[str, list[str]] = {}
    for c in c_all:
        for k, v in c.cues.items():
            cues.setdefault(k, []).extend(v)
    times = [c.times for c in c_all]
    start = next((t.start_time for t in times if t.start_time), None)
    end = next((t.end_time for t in times if t.end_time), None)
    repeat = next((t.repeat_days for t in times if t.repeat_days), None)
    duration = next((t.duration_s for t in times if t.duration_s), None)
    hits = [h for c in c_all for h in c.capabilities if h.kind == "execution" and h.capability_id != "move_to_room"]
    state = history.open_slot_state if continuation else {}
    prev = dict(state.get("slots", {}) or {})
    prev.update({k: state[k] for k in Slots.model_fields if k in state})
    cancel = bool(cues.get("sch_cancel") or cues.get("cancel")) and bool(cues.get("sch_nouns") or continuation)
    if cancel:
        return "schedule_cancel", Slots(), []
    quoted = any(m.quotative_split(c.text) for c in c_all)
    asks_list = cues.get("sch_list") or (cues.get("sch_reminder") and not quoted and not hits)
    if asks_list and cues.get("sch_nouns") and not start and not duration:
        return "schedule_list", Slots(), []
    if cues.get("sch_timer") or (duration and not start and not hits and not cues.get("sch_alarm")):
        skill = "schedule_timer_create"
    elif cues.get("sch_alarm"):
        skill = "schedule_alarm_create"
    elif continuation and state.get("skill") in registry.skill_ids and not hits:
        skill = state["skill"]
    elif hits:
        skill = "schedule_device_task_create"
    elif cues.get("sch_reminder"):
        skill = "schedule_reminder_create"
    else:
        skill = state.get("skill") if state.get("skill") in registry.skill_ids else "schedule_device_task_create"
    function = next((h.capability_id for h in hits if registry.capability_by_id[h.capability_id].schedulable), None)
    message = None
    if skill == "schedule_reminder_create":
        for c in c_all:
            message = _quoted_message(c, m) or message
    slots = {
        "function": function if skill == "schedule_device_task_create" else None,
        "start_time": start, "end_time": end, "repeat_days": repeat,
        "duration_s": duration if skill == "schedule_timer_create" else None, "message": message,
    }
    for key, value in prev.items():
        if slots.get(key) in (None, []) and value not in (None, "", []):
            slots[key] = value
    required = {
        "schedule_device_task_create": ["function", "start_time"],
        "schedule_alarm_create": ["start_time"],
        "schedule_reminder_create": ["message", "start_time"],
        "schedule_timer_create": ["duration_s"],
    }.get(skill, [])
    missing = [k for k in required if not slots.get(k)]
    if continuation and isinstance(state.get("missing_slots"), list):
        # slots the earlier turn did not list as missing were settled then, even if not echoed back
        missing = [k for k in missing if k in state["missing_slots"]]
    return skill, Slots(**slots), missing


def _quoted_message(c: ClauseAnalysis, m) -> str | None:
    """What to remind: the words before the quotative ("빨래 꺼내라고" -> "빨래 꺼내"), times left out."""
    split = m.quotative_split(c.text)
    if split is None:
        return None
    message = split[0]
    for sig in c.times.signals:
        message = message.replace(sig.split(":", 1)[1], "").strip()
    return message.strip() or None


def admission(steps: list[Step], b_user_actions: int, guarded: bool, temporal: str | None, routes: list[str]) -> ExperienceRequest:
    """DESIGN section 6's rule of thumb; the full admission checks live with the Experience runtime."""
    coordination = []
    if b_user_actions >= 2 or len([s for s in steps if s.route != "ODL" or s.action]) >= 2:
        coordination.append("sequencing")
    if guarded:
        coordination.append("conditional")
    if temporal:
        coordination.append("waiting")
    if len(set(routes)) > 1:
        coordination.append("cross_agent")
    candidate = bool(coordination) and (len(steps) >= 2 or bool(temporal))
    return ExperienceRequest(
        admission_status="candidate" if candidate else "not_admitted",
        coordination_requirements=coordination if candidate else [],
        temporal_relation=temporal if candidate else None,  # type: ignore[arg-type]
    )


def _act_name(capability_id: str, operation_id: str, names: dict, ops: dict) -> str:
    """A device step's name in the reply: the capability's, and what its operation adds (lexicon responses)."""
    name = names.get(capability_id, capability_id)
    return f"{name} {ops[operation_id]}" if operation_id in ops else name


def tts(registry: Registry, family: str, steps: list[Step], skill: str, slots: Slots, missing: list[str],
        categories: list[str], subtype: str | None, scope: str | None, voice_stop: bool = False) -> tuple[str, str | None]:
    r = registry.lexicon["responses"]
    names = r["capability_names"]
    if missing:
        ask = r["ask_slot"].get(missing[0], r["STT_NULL_GENERIC"])
        return ask, ask
    if family == "ODL":
        ops = {k: v for k, v in r.get("operation_names", {}).items() if k != "note"}  # (청정 꺼: 청정 중지 할게요)
        acts = ", ".join(_act_name(s.action.capability_id, s.action.operation_id, names, ops) for s in steps if s.action)
        if not acts:  # nothing planned: never claim an action the plan does not hold
            return (r["ODL_stop"], None) if voice_stop else (r["ODL_nothing"], r["ODL_nothing"])
        key = "ODL_conditional" if any(s.condition for s in steps) else "ODL"
        return r[key].format(actions=acts), None
    if family == "SCH":
        if skill == "schedule_cancel":
            return r["SCH_cancel"], None
        if skill == "schedule_list":
            return r["SCH_list"], None
        parts = [p for p in (names.get(slots.function or "", ""), slots.start_time, slots.end_time) if p]
        return r["SCH_created"].format(summary=" ".join(parts)), None
    if family == "UNS":
        cats = registry.capabilities.unsupported_request_categories
        offer = next((c.offer for c in cats if c.category in categories and c.offer), None)
        return (r["UNS_offer"].format(offer=names[offer]) if offer else r["UNS"]), None
    if family == "STT_NULL":
        key = f"STT_NULL_{subtype or 'GENERIC'}"
        text = r[key].format(scope=r["scope_names"].get(scope or "device", scope or ""))
        return text, text
    return r[family], None
