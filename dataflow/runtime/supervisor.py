"""The Experience supervisor: the runtime's decision handler (DESIGN section 6, seed 003).

It is consulted only on decision events: FAILED, BLOCKED, PAUSED, TIMEOUT, NEEDS_USER_INPUT, a
terminal evidence that never arrived, a user change of goal, and (when every step has ended) an
effect a replan still owes. Normal events (QUEUED, RUNNING, PROGRESS, COMPLETED) never reach it,
and it never calls the planner: a replan is built from the registry through `supervision.json`.
Each answer is one of continue | wait | ask_user | retry_local | replan | complete | cancel.

Budget: every answer spends one decision and a replan also one replan. An answer that would keep
the workflow going is allowed only while a decision is left after it, so the last budgeted
decision always ends the workflow and the budget is never exceeded.

Which workflows it serves: all of them. An admitted goal brings its Goal contract (success
criteria, budget, temporal relation). A command that was not admitted brings nothing: the
supervisor then only re-achieves the effect of a step that failed (a moved station is searched
for), with the catalog's default budget, and no goal is stored or reported, so such a command
runs the same with Experience on or off.

Never: an action outside the registry, a room that is not registered, the same failure twice,
a consent or privacy block turned into an action (those become ask_user).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from dataflow.runtime.orchestrator import USER_GOAL_CHANGE
from dataflow.runtime.workflow_run import StepState, WorkflowRun
from dataflow.runtime.temporal import ANCHOR_NOT_RUNNING
from registry.plan_contracts import Action, StateCondition, Step
from registry.device_contracts import CompiledStep
from registry.experience import Effect, GoalContract
from registry.goal_contracts import DecisionBudget, GoalReport, GoalStatus
from registry.loader import Registry
from registry.runtime_contracts import Decision, DecisionPoint
from registry.supervision import Recovery, SupervisionPolicy, load_supervision_policy
from registry.templates import fill

EFFECT_MISSING = "EFFECT_MISSING"
USER_CHANGED_GOAL = "user_changed_goal"
_CONTINUING = frozenset({"continue", "wait", "retry_local", "replan"})


@dataclass
class Ledger:
    """What the supervisor knows of one workflow: its goal, its budget and what it has tried."""

    goal: GoalContract | None
    budget: DecisionBudget
    decisions: int = 0
    replans: int = 0
    failures: set[tuple[str, ...]] = field(default_factory=set)
    """(capability, operation, params, reason) of every failure seen: never repeated."""


def default_budget(registry: Registry) -> DecisionBudget:
    return DecisionBudget(**registry.effects.default_budget) if registry.effects else DecisionBudget()


class Supervisor:
    def __init__(self, registry: Registry, policy: SupervisionPolicy | None = None, budget: DecisionBudget | None = None):
        if registry.effects is None:
            raise ValueError("the supervisor needs the registry's effect catalog")
        self.registry = registry
        self.catalog = registry.effects
        self.policy = policy or load_supervision_policy(registry)
        self.budget = budget or default_budget(registry)
        """The budget of a workflow with no admitted goal (an admitted goal brings its own)."""
        self.ledgers: dict[str, Ledger] = {}
        self.calls = 0
        """How often a decision was asked for (normal events never ask)."""

    def attach(self, workflow_id: str, goal: GoalContract | None) -> Ledger:
        """Bind a workflow to its admitted goal (None: a command, default budget)."""
        budget = DecisionBudget(**goal.decision_budget) if goal is not None else self.budget
        self.ledgers[workflow_id] = Ledger(goal=goal, budget=budget)
        return self.ledgers[workflow_id]

    def ledger(self, workflow_id: str) -> Ledger:
        return self.ledgers.get(workflow_id) or self.attach(workflow_id, None)

    # -- the DecisionHandler seam ---------------------------------------------------------------

    def decide(self, point: DecisionPoint, run: WorkflowRun) -> Decision:
        self.calls += 1
        led = self.ledger(run.workflow_id)
        decision = self._choose(point, run, led)
        led.decisions += 1
        led.replans += decision.action == "replan"
        return decision

    def before_finish(self, run: WorkflowRun) -> tuple[str, str] | None:
        """(step id, reason) of a replaced step whose effect no replacement achieved, once every step has ended."""
        for sid in [s.step_id for s in run.compiled.steps if s.step_id in run.replaced]:
            st = run.states[sid]
            effect = self._effect_of(st.step)
            if effect is None or effect_state(effect, run, self.registry, self.policy) == "achieved":
                continue
            rec = self.policy.recoveries.get(st.reason_code or "")
            exhausted = rec is not None and not self._candidates(rec, st, run)
            return sid, rec.exhausted_reason if exhausted and rec else "effect_missing"
        return None

    # -- choosing -------------------------------------------------------------------------------

    def _choose(self, point: DecisionPoint, run: WorkflowRun, led: Ledger) -> Decision:
        last = led.decisions + 1 >= led.budget.max_decisions
        st = run.states.get(point.step_id)
        repeated = self._seen(point, st, led)
        if point.event_name == USER_GOAL_CHANGE:
            return Decision(action="cancel", reason="the user called the rest off", ask_text=self.policy.tell[USER_CHANGED_GOAL])
        states = effect_states(led.goal.success_criteria, run, self.registry, self.policy) if led.goal is not None else {}
        if states and "missing" not in states.values():
            return Decision(action="complete", reason="every success criterion has its terminal evidence")
        if point.event_name == EFFECT_MISSING:
            return self._recover(st, run, led, last, reason=st.reason_code if st else None)
        action = self.policy.actions_by_reason.get(point.reason_code or "", "cancel")
        if action == "ask_user":
            return Decision(action="ask_user", reason=f"{point.reason_code}: the user decides; the robot does not act on it",
                            ask_text=self.policy.ask[point.reason_code or ""] or None)
        if action == "replan":
            return self._recover(st, run, led, last, reason=point.reason_code)
        if action in _CONTINUING and last:
            return self._stop("budget_exhausted", f"{point.event_name} {point.reason_code}: no decision left to try again", led)
        if action == "retry_local":
            if not repeated and st is not None and self._may_retry(st):
                return Decision(action="retry_local", reason=f"{point.reason_code}: retry once, it changes nothing physical")
            return Decision(action="cancel", reason=f"{point.reason_code}: the same failure is not repeated")
        if action in ("continue", "wait"):
            return Decision(action=action, reason=f"{point.reason_code}: policy says {action}")
        if led.replans:  # a recovery was under way: say that it stops here
            return self._stop("recovery_stopped", f"{point.event_name} {point.reason_code}: the recovery stops here", led)
        return Decision(action="cancel", reason=f"{point.event_name} {point.reason_code or ''}: end with an honest report".strip())

    def _seen(self, point: DecisionPoint, st: StepState | None, led: Ledger) -> bool:
        task = st.step.device_task if st is not None else None
        key = (point.capability_id or "", task.operation_id if task else "",
               json.dumps(task.params if task else {}, sort_keys=True, ensure_ascii=False), point.reason_code or point.event_name)
        seen = key in led.failures
        led.failures.add(key)
        return seen

    def _may_retry(self, st: StepState) -> bool:
        """Only an action that changes nothing physical, and never after the device already retried it."""
        cap = self.registry.capability_by_id.get(st.step.capability_id or "")
        return (cap is not None and cap.kind in self.policy.retry_local.capability_kinds and not st.retried and st.attempt == 1)

    def _stop(self, tell_key: str, reason: str, led: Ledger, **values: Any) -> Decision:
        text = fill(self.policy.tell[tell_key], {**led.budget.model_dump(), **values})
        return Decision(action="cancel", reason=reason, ask_text=text)

    # -- recovery: a bounded search over registered rooms -----------------------------------------

    def _recover(self, st: StepState | None, run: WorkflowRun, led: Ledger, last: bool, reason: str | None) -> Decision:
        rec = self.policy.recoveries.get(reason or "")
        if st is None or rec is None or st.step.capability_id != rec.failed_capability_id:
            return Decision(action="cancel", reason=f"{reason}: no recovery in the catalog")
        candidates = self._candidates(rec, st, run)
        if not candidates:
            visited = self._visited(rec, st, run)
            names = [self.registry.room_by_id[r].canonical_name for r in self.registry.room_by_id if r in visited]
            return self._stop("station_search_exhausted", f"{reason}: every registered room was searched", led,
                              count=len(names), rooms=", ".join(names))
        if last:
            return self._stop("budget_exhausted", f"{reason}: no decision left for a replan", led)
        if led.replans >= led.budget.max_replans:
            return self._stop("replan_budget_exhausted", f"{reason}: no replan left", led)
        steps = self._search_steps(rec, st, candidates)
        rooms = ", ".join(self.registry.room_by_id[r].canonical_name for r in candidates)
        return Decision(action="replan", reason=f"{reason}: search the unvisited registered rooms in order ({rooms})", steps=steps)

    def _here(self, rec: Recovery, st: StepState) -> str | None:
        room = st.output.get(rec.room_output_field)
        return self.registry.resolve_room(str(room)) if room is not None else None

    def _visited(self, rec: Recovery, st: StepState, run: WorkflowRun) -> set[str]:
        """The room the failed provider looked in, and every room a probe of this run saw empty."""
        seen = {r for r in (self._here(rec, st),) if r}
        for other in run.states.values():
            out = other.output
            if (other.step.capability_id, other.step.operation_id) == (rec.probe.capability_id, rec.probe.operation_id) and \
                    other.status == "completed" and out.get(rec.probe.found_field) is False:
                room = self.registry.resolve_room(str(out.get(rec.room_output_field, "")))
                if room:
                    seen.add(room)
        return seen

    def _candidates(self, rec: Recovery, st: StepState, run: WorkflowRun) -> list[str]:
        """Unvisited registered rooms, nearest first from where the robot is (a greedy tour); none if it is nowhere known."""
        here = self._here(rec, st)
        if here is None:
            return []
        left = [r for r in self.registry.room_by_id if r not in self._visited(rec, st, run)]
        order = []
        while left:
            here = min(left, key=lambda r, h=here: (self.registry.room_distance_m(h, r), r))
            order.append(here)
            left.remove(here)
        return order

    def _search_steps(self, rec: Recovery, st: StepState, rooms: list[str]) -> list[Step]:
        """move -> probe per room while the target is not seen (a probe that sees it moves the belief), then the provider
        again once it was seen. Guards keep the rooms after a sighting from being visited."""
        believed = self.registry.room_by_id[self._here(rec, st) or rooms[0]].canonical_name
        not_seen = StateCondition(path=rec.belief_state, operator="eq", value=believed)
        names = self.registry.lexicon["responses"]["capability_names"]
        base = st.step.step_id
        steps: list[Step] = []
        prev: list[str] = []

        def step(suffix: str, ref, arguments: dict, condition) -> Step:
            sid = f"{base}_search_{suffix}"
            made = Step(id=sid, route="ODL", purpose=names.get(ref.capability_id, ref.capability_id), depends_on=list(prev),
                        output_key=f"{sid}_result", execution_target="device", wait_policy="completed", condition=condition,
                        action=Action(capability_id=ref.capability_id, operation_id=ref.operation_id, arguments=arguments))
            steps.append(made)
            prev[:] = [sid]
            return made

        for i, room in enumerate(rooms, 1):
            step(f"{i}_move", rec.move, {rec.move.room_argument: self.registry.room_by_id[room].canonical_name}, not_seen)
            step(f"{i}_probe", rec.probe, {}, not_seen)
        step("finish", rec.finish, {}, not_seen.model_copy(update={"operator": "ne"}))
        return steps

    def _effect_of(self, step: CompiledStep) -> Effect | None:
        if step.capability_id is None or step.operation_id is None:
            return None
        return self.catalog.effect_of(step.capability_id, step.operation_id)


# --- effects and their evidence (also for runs under another handler) -----------------------------


def _provides(st: StepState, effect: Effect, registry: Registry) -> bool:
    step = st.step
    if step.capability_id is not None and step.operation_id is not None:
        found = registry.effects.effect_of(step.capability_id, step.operation_id) if registry.effects else None
        return found is not None and found.effect_id == effect.effect_id
    return any(p.skill_id == step.skill_id for p in effect.providers if p.kind == "skill")


def step_evidence(st: StepState, run: WorkflowRun, policy: SupervisionPolicy) -> str | None:
    """A device step's terminal evidence, or the evidence a cloud step's result amounts to (supervision.json)."""
    if st.status != "completed":
        return None
    if st.step.execution_target == "device":
        return st.evidence
    rule = policy.cloud_evidence.get(st.step.route)
    result = run.cloud_results.get(st.step.step_id)
    if rule is None or result is None or result.status != "completed":
        return None
    if rule.requires_true and result.data.get(rule.requires_true) is not True:
        return None
    if rule.requires_data and result.data.get(rule.requires_data) is None:
        return None
    return rule.evidence


def effect_state(effect: Effect, run: WorkflowRun, registry: Registry, policy: SupervisionPolicy) -> str:
    """achieved (a step's terminal evidence proves it) | not_required (the user's own guard skipped every step of it)
    | missing. A guard a policy added (consent) does not make its effect unneeded."""
    steps = [st for st in run.states.values() if _provides(st, effect, registry)]
    if any(step_evidence(st, run, policy) in effect.terminal_evidence for st in steps):
        return "achieved"
    if steps and effect.consent_policy is None and all(st.status == "skipped" for st in steps):
        return "not_required"
    return "missing"


def effect_states(criteria: list[str], run: WorkflowRun, registry: Registry, policy: SupervisionPolicy) -> dict[str, str]:
    known = registry.effects.by_id() if registry.effects else {}
    return {e: effect_state(known[e], run, registry, policy) if e in known else "missing" for e in criteria}


def _goal_status(run: WorkflowRun, states: dict[str, str]) -> GoalStatus:
    if run.status == "running":
        return "active"
    if run.reason_code == ANCHOR_NOT_RUNNING:
        return "not_started"
    if run.status == "needs_user_input":
        return "waiting_user"
    if run.reason_code == USER_CHANGED_GOAL:
        return "cancelled"
    if states and all(s != "missing" for s in states.values()) and "achieved" in states.values():
        return "achieved"
    return "not_achieved"


def goal_report(goal: GoalContract, run: WorkflowRun, registry: Registry, policy: SupervisionPolicy) -> GoalReport:
    """The goal at the end (or in the middle) of its run: status, effects with and without evidence, budget spent."""
    states = effect_states(goal.success_criteria, run, registry, policy)
    return GoalReport(
        experience_id=goal.experience_id, goal_summary=goal.goal_summary, status=_goal_status(run, states),
        success_criteria=list(goal.success_criteria),
        effects_achieved=[e for e, s in states.items() if s == "achieved"],
        effects_missing=[e for e, s in states.items() if s == "missing"],
        effects_not_required=[e for e, s in states.items() if s == "not_required"],
        decisions_spent=len(run.decisions), replans_spent=sum(d["action"] == "replan" for d in run.decisions),
        budget=DecisionBudget(**goal.decision_budget),
        temporal_relation=goal.temporal_relation, temporal_anchor_id=goal.temporal_anchor_id,
    )
