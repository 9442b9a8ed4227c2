"""Plan boundaries: every rule a plan keeps, whichever backend wrote it, as typed violations.

The plan checks (stages/checks.py), the model's repair prompt (stages/_model.py) and the compiler
(stages/_compile.py) speak these. Three layers:

- the registry: owner, agents, skills, capabilities, operations, arguments, rooms;
- the plan's structure: step ids, order of dependencies and guards, observable conditions;
- the turn: every device step is grounded in what the turn asked for (a licensed frame of one of its
  clauses, or a prerequisite the registry declares for such a step), device steps sit under routes that own
  device work, and a step that weakens a protection only when the turn asked for exactly that operation.

Not a stage module: nothing here becomes a Hamilton node.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from registry.conditions import ALLOWED_STATE_PATHS
from registry.contracts import HistoryEvidence, TurnInput
from registry.plan_contracts import PlannerOutput, PlanViolation, StateCondition, Step, StepOutputCondition
from registry.loader import Registry
from registry.registry_models import Capability, Operation
from stages._clauses import QUESTION_MOODS, ClauseAnalysis
from stages._plan import tts
from stages.normalization import normalized_text
from stages.licensing import unsupported_frame
from stages.speech_acts import clause_candidates, speech_acts
from stages._predicates import final_predicate
from stages.speech_patterns import patterns

UNOBSERVABLE = "which nothing on the robot can observe"


def _v(code: str, detail: str, step_id: str | None = None) -> PlanViolation:
    return PlanViolation(code=code, detail=detail, step_id=step_id)  # type: ignore[arg-type]


# --- the registry --------------------------------------------------------------------------


def with_defaults(op: Operation, arguments: Mapping[str, Any]) -> dict[str, Any]:
    """The step's arguments with the operation's declared defaults filled in."""
    out = dict(arguments)
    for name, spec in op.arguments.items():
        if name not in out and spec.default is not None:
            out[name] = spec.default
    return out


def argument_problem(name: str, value: Any, op: Operation, where: str, registry: Registry) -> PlanViolation | None:
    """What is wrong with one argument of an action, if anything."""
    spec = op.arguments.get(name)
    if spec is None:
        return _v("unknown_argument", f"argument {name!r} not in {where}")
    if spec.type == "room" and registry.resolve_room(str(value)) is None:
        return _v("unknown_room", f"unknown room {value!r}")
    if spec.type == "integer" and (isinstance(value, bool) or not isinstance(value, int)):
        return _v("argument_out_of_range", f"{name}={value!r} is not an integer")
    if spec.type == "integer" and ((spec.minimum is not None and value < spec.minimum)
                                   or (spec.maximum is not None and value > spec.maximum)):
        return _v("argument_out_of_range", f"{name}={value!r} outside {spec.minimum}..{spec.maximum}")
    return None


def missing_arguments(op: Operation, arguments: Mapping[str, Any], where: str) -> list[PlanViolation]:
    return [_v("missing_argument", f"missing required argument {name!r} of {where}")
            for name, spec in op.arguments.items() if spec.required and name not in arguments]


def argument_violations(step_id: str, cap: Capability, op: Operation, arguments: Mapping[str, Any],
                        registry: Registry) -> list[PlanViolation]:
    """Names, types, ranges and rooms of an action's arguments (defaults count as given)."""
    where = f"{cap.capability_id}.{op.operation_id}"
    arguments = with_defaults(op, arguments)
    found = [argument_problem(name, value, op, where, registry) for name, value in arguments.items()]
    found += missing_arguments(op, arguments, where)
    return [v.model_copy(update={"step_id": step_id}) for v in found if v is not None]


def _unknown_act(cap_id: str, op_id: str, registry: Registry, step_id: str | None = None) -> list[PlanViolation]:
    """A capability or an operation the registry lacks (a step's action, or the act a question back waits on)."""
    cap = registry.capability_by_id.get(cap_id)
    if cap is None:
        return [_v("unknown_capability", f"unknown capability {cap_id!r} ({cap_id}.{op_id} is not in the registry)", step_id)]
    if cap.operation(op_id) is None:
        return [_v("unknown_operation", f"{cap_id} has no operation {op_id!r} ({cap_id}.{op_id} is not in the registry)", step_id)]
    return []


def step_violations(step: Step, earlier: set[str], registry: Registry, arguments: bool = True) -> list[PlanViolation]:
    """One step against the registry and the steps before it. The compiler checks the same but the arguments
    (`arguments=False`), which it checks itself once it has filled some (a consent's purpose) for the device."""
    out = [_v("dependency_order", f"depends on {dep}, which does not come before it", step.id)
           for dep in step.depends_on if dep not in earlier]
    if step.id in earlier:
        out.append(_v("duplicate_step", "step id used twice", step.id))
    cond = step.condition
    if isinstance(cond, StepOutputCondition) and cond.step_id not in earlier:
        out.append(_v("condition_order", f"condition reads {cond.step_id}, which does not come before it", step.id))
    if isinstance(cond, StateCondition) and cond.path not in ALLOWED_STATE_PATHS:
        out.append(_v("unobservable_condition", f"condition reads {cond.path}, {UNOBSERVABLE}", step.id))
    if step.skill_id and step.skill_id not in registry.skill_ids:
        out.append(_v("unknown_skill", f"unknown skill {step.skill_id!r}", step.id))
    if step.action is None:
        if step.execution_target == "device":
            out.append(_v("device_step_without_action", "a device step needs a registered action", step.id))
        return out
    cap_id, op_id = step.action.capability_id, step.action.operation_id
    cap = registry.capability_by_id.get(cap_id)
    op = cap.operation(op_id) if cap else None
    out += _unknown_act(cap_id, op_id, registry, step.id)
    if op is not None and arguments:
        out += argument_violations(step.id, cap, op, step.action.arguments, registry)
    if step.execution_target != "device":
        out.append(_v("action_off_device", "a capability action must run on the device", step.id))
    if step.token_text is not None:
        out.append(_v("token_text_written", "the planner may not write token_text", step.id))
    return out


def registry_violations(plan: PlannerOutput, registry: Registry) -> list[PlanViolation]:
    """The owner and every step inside the registries, and the plan's own order."""
    out: list[PlanViolation] = []
    if plan.selected_agent not in registry.agent_ids:
        out.append(_v("unknown_agent", f"unknown agent {plan.selected_agent!r}"))
    if plan.selected_skill not in registry.skill_ids:
        out.append(_v("unknown_skill", f"unknown skill {plan.selected_skill!r}"))
    flow = registry.flow_by_id.get(plan.selected_flow_id)
    if flow is None:
        out.append(_v("unknown_flow", f"unknown flow {plan.selected_flow_id!r}"))
    elif (flow.route_family, flow.agent_id, flow.skill_id) != (plan.selected_routes[0], plan.selected_agent, plan.selected_skill):
        out.append(_v("owner_disagrees", "selected_routes[0], selected_agent, selected_skill and selected_flow_id disagree"))
    if plan.slots.capability_id is not None:  # the act a question back waits on is the registry's too
        out += _unknown_act(plan.slots.capability_id, plan.slots.operation_id or "", registry)
    earlier: set[str] = set()
    for step in plan.steps:
        if step.route not in plan.selected_routes:
            out.append(_v("route_not_selected", f"route {step.route} not among selected routes", step.id))
        out += step_violations(step, earlier, registry)
        earlier.add(step.id)
    return out


# --- the turn ------------------------------------------------------------------------------


@dataclass(frozen=True)
class TurnGrounds:
    """What the turn asked for, read from its licensed clauses."""

    asked: frozenset[tuple[str, str]]
    """(capability, operation) of every licensed frame."""
    rooms_for: Mapping[str, frozenset[str]]
    """capability -> room ids its licensed clauses name."""
    rooms_named: frozenset[str]
    position: str | None

    @property
    def capabilities(self) -> frozenset[str]:
        return frozenset(cap for cap, _ in self.asked)


def turn_grounds(clauses: Iterable[ClauseAnalysis], turn_input: TurnInput, registry: Registry) -> TurnGrounds:
    asked: set[tuple[str, str]] = set()
    rooms_for: dict[str, set[str]] = {}
    named: set[str] = set()
    for c in clauses:
        named.update(c.rooms)
        for hit in c.capabilities:  # after licensing: only the hits the clause's speech act licenses
            asked.add((hit.capability_id, hit.operation_id))
            rooms_for.setdefault(hit.capability_id, set()).update(c.rooms)
    return TurnGrounds(frozenset(asked), {k: frozenset(v) for k, v in rooms_for.items()}, frozenset(named),
                       registry.resolve_room(turn_input.device_context.position or ""))


def _rooms_of(step: Step, registry: Registry) -> set[str]:
    cap = registry.capability_by_id[step.action.capability_id]
    op = cap.operation(step.action.operation_id)
    return {registry.resolve_room(str(v)) or str(v) for n, v in step.action.arguments.items()
            if op is not None and n in op.arguments and op.arguments[n].type == "room"}


def _grounded(step: Step, plan: PlannerOutput, grounds: TurnGrounds, registry: Registry) -> bool:
    cap_id = step.action.capability_id
    rooms = _rooms_of(step, registry)
    if cap_id in grounds.capabilities:  # asked for, in a room the turn named (or where the robot is)
        return rooms <= grounds.rooms_named | {grounds.position}
    for other in plan.steps:
        if other is step or other.action is None or other.action.capability_id not in grounds.capabilities:
            continue
        for pre in registry.capability_by_id[other.action.capability_id].steps_before:
            if pre.capability_id != cap_id:
                continue
            if pre.when == "always" or rooms <= grounds.rooms_for.get(other.action.capability_id, frozenset()):
                return True
    # a state check a guard of the plan reads, for a capability that declares guards
    cap = registry.capability_by_id[cap_id]
    return cap.kind == "state_query" and bool(cap.guard_conditions) and any(
        isinstance(s.condition, StepOutputCondition) and s.condition.step_id == step.id for s in plan.steps)


def turn_violations(plan: PlannerOutput, grounds: TurnGrounds, registry: Registry) -> list[PlanViolation]:
    """Device steps the turn did not ask for, under a route that owns no device work, or weakening a protection."""
    owners = registry.device_families
    out: list[PlanViolation] = []
    for step in plan.steps:
        if step.action is None or step.action.capability_id not in registry.capability_by_id:
            continue  # an unknown capability is a registry violation already
        cap = registry.capability_by_id[step.action.capability_id]
        op = cap.operation(step.action.operation_id)
        where = f"{cap.capability_id}.{step.action.operation_id}"
        if step.route not in owners:
            out.append(_v("route_owns_no_device", f"{where} under route {step.route}, which owns no device step", step.id))
        if not _grounded(step, plan, grounds, registry):
            out.append(_v("ungrounded_step", f"{where} is not asked for by the turn: no licensed frame, "
                                             "no prerequisite the registry declares for an asked step", step.id))
        elif op is not None and op.weakens_protection and (cap.capability_id, op.operation_id) not in grounds.asked:
            out.append(_v("weakens_protection", f"{where} weakens a protection the turn did not ask to lower", step.id))
    return out


def plan_violations(plan: PlannerOutput, clauses: Iterable[ClauseAnalysis], turn_input: TurnInput,
                    registry: Registry) -> list[PlanViolation]:
    """Every boundary of the plan, registry first."""
    return registry_violations(plan, registry) + turn_violations(plan, turn_grounds(clauses, turn_input, registry), registry)


# --- what the user hears -------------------------------------------------------------------

_ASKING_MOODS = frozenset({"request", "suggestion"})
"""Asking the user to do something claims nothing, unless it is told in the past (꺼 드렸어요)."""


def claimed_effects(reply: str, kiwi: Any, registry: Registry) -> list[tuple[str, bool]]:
    """(what, done) for every effect the reply text says the robot did (done) or will do: a capability frame
    or an unsupported category in an affirmative statement, or any action verb in the past with no subject of
    its own (현관문을 열었어요). Questions and requests to the user claim nothing."""
    nt = normalized_text(TurnInput(recognized_text=reply), kiwi, registry)
    if nt.rejected_reason:
        return []
    clauses = clause_candidates(nt, registry)
    p = patterns(registry)
    out: list[tuple[str, bool]] = []
    for c, act in zip(clauses, speech_acts(clauses, nt, HistoryEvidence(addressee_spoke_last=True), registry)):
        if act.polarity != "affirmative" or act.reported or act.mood in QUESTION_MOODS or (
                act.mood in _ASKING_MOODS and not act.past):
            continue
        subjects = [i for i, mo in enumerate(c.morphemes) if mo.tag == "JKS"]
        if any(i == 0 or (c.morphemes[i - 1].form, c.morphemes[i - 1].tag) not in p.speaker for i in subjects):
            continue  # 비가 왔어요: somebody or something else did it
        frames = [h.capability_id for h in c.capabilities]
        category = unsupported_frame(c, registry)
        if category is not None:
            frames.append(category)
        found = final_predicate(c, p)
        acted = found is not None and c.morphemes[found[0]].tag.startswith(("VV", "XSV"))
        if not frames and act.past and acted:
            frames.append("action:" + found[1][0])
        out += [(f, act.past) for f in dict.fromkeys(frames)]
    return out


def spoken_reply(plan: PlannerOutput, kiwi: Any, registry: Registry) -> tuple[PlannerOutput, list[str]]:
    """The plan with the text the user hears. A backend's reply text is spoken only when every effect it
    claims is one the plan holds and none is claimed done (before execution nothing has run); otherwise
    the reply is composed from the plan, and the claims that withheld the text are returned."""
    planned = {s.action.capability_id for s in plan.steps if s.action}
    false = [f"{what}:{'done' if done else 'promised'}" for what, done in claimed_effects(plan.tts_response, kiwi, registry)
             if done or what not in planned]
    if not false:
        return plan, []
    text, ask = tts(registry, plan.selected_routes[0], plan.steps, plan.selected_skill, plan.slots, plan.missing_slots,
                    plan.unsupported_categories, plan.stt_null_subtype, plan.stt_null_target_scope)
    return plan.model_copy(update={"tts_response": text, "ask_follow_up": plan.ask_follow_up or ask}), false
