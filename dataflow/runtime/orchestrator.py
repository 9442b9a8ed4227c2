"""The cloud side of a running workflow: callbacks bound to steps, cloud steps through the route
composers, decision points, and the honest final report.

Normal events (QUEUED, RUNNING, PROGRESS, COMPLETED) only update state. FAILED, BLOCKED,
PAUSED, TIMEOUT, NEEDS_USER_INPUT, requires_cloud_decision, or a terminal evidence that never
arrives open a `DecisionPoint`, handed to a `DecisionHandler`. The default handler ends the
workflow with a report of what was done, what was not and why; the Experience supervisor
(dataflow/runtime/supervisor.py, the runtime's default) answers through the same seam (continue | wait |
ask_user | retry_local | replan | complete | cancel). A handler may also have
`before_finish(run) -> (step_id, reason) | None`: when every step has ended it names an effect the
workflow still owes, which opens an EFFECT_MISSING decision.
"""

from __future__ import annotations

import time
from typing import Any, Callable

from dataflow.runtime.composers import compose_cloud_step, describe_step
from dataflow.runtime.store import WorkflowStore
from dataflow.runtime.workflow_run import DecisionHandler, EndWithReport, StepState, WorkflowRun
from device.session import DeviceSession
from registry.conditions import evaluate
from registry.record_contracts import DecisionRecord
from registry.device_bridge import TERMINAL_EVENTS, DeviceBridge, evidence_refusal
from registry.device_contracts import (
    SATISFIED_STEP_STATUSES,
    TERMINAL_STEP_STATUSES,
    CompiledWorkflow,
    DeviceEvent,
)
from registry.errors import InputError
from registry.loader import Registry
from registry.runtime_contracts import (
    Clocks,
    CloudStepResult,
    Decision,
    DecisionPoint,
    RunReport,
)
from registry.templates import ResponseTemplates
from stages.compilation import compile_steps

_EVENT_STATUS = {"QUEUED": "queued", "RUNNING": "running", "COMPLETED": "completed", "FAILED": "failed", "BLOCKED": "blocked",
                 "PAUSED": "paused", "TIMEOUT": "timeout", "NEEDS_USER_INPUT": "needs_user_input"}
_CANCEL_STATUS = {"condition_false": "skipped", "dependency_not_completed": "not_dispatched", "decision_ended_workflow": "not_dispatched",
                  "user_cancelled": "cancelled"}
_RANK = {"pending": 0, "queued": 1, "running": 2, "paused": 2}
_END_STATUS = {"unconfirmed": "incomplete", "not_dispatched": "incomplete", "skipped": "completed"}
USER_GOAL_CHANGE = "USER_GOAL_CHANGE"
"""The decision event of a user calling off what is left of a workflow; its reason code is what the stopped steps carry."""


EventListener = Callable[[WorkflowRun, DeviceEvent, bool], None]


class Orchestrator:
    """Runs workflows on one device session; every state change is persisted in the store."""

    def __init__(self, registry: Registry, store: WorkflowStore, session: DeviceSession, templates: ResponseTemplates,
                 bridge: DeviceBridge, handler: DecisionHandler | None = None, listener: EventListener | None = None,
                 replaying: bool = False):
        self.registry, self.store, self.session = registry, store, session
        self.templates, self.bridge = templates, bridge
        self.handler = handler or EndWithReport()
        self.listener = listener
        self.replaying = replaying
        """Resuming: events already in the store are applied to memory again but not stored twice."""
        self.runs: dict[str, WorkflowRun] = {}
        self.applied: set[str] = set()
        self.duplicates = 0
        self.replayed = 0
        self.refused: list[tuple[str, str]] = []
        """(event id, why) of callbacks refused: a terminal event without evidence its step's capability declares."""
        self.after_tick: Callable[[int], None] | None = None
        """Called with the tick count once a tick is committed (the runtime's process faults)."""
        self.on_end: Callable[[WorkflowRun], None] | None = None
        """Called inside the transaction that ends a workflow (the runtime stores the goal's status with it)."""

    # -- starting ------------------------------------------------------------------------------

    def start(self, compiled: CompiledWorkflow, record: DecisionRecord | None, kind: str, started_wall: float,
              ack: str | None, persist: dict[str, Any] | None, refusal: tuple[str, str] | None = None) -> WorkflowRun:
        """Register (and unless resuming, persist) a workflow, then submit its device part; with a `refusal`
        (reason code, what the user is told) nothing is submitted and the workflow ends cancelled."""
        with self.store.transaction():
            return self._start(compiled, record, kind, started_wall, ack, persist, refusal)

    def _start(self, compiled: CompiledWorkflow, record: DecisionRecord | None, kind: str, started_wall: float,
               ack: str | None, persist: dict[str, Any] | None, refusal: tuple[str, str] | None = None) -> WorkflowRun:
        states = {s.step_id: StepState(step=s) for s in compiled.steps}
        run = WorkflowRun(compiled=compiled, record=record, kind=kind, states=states, submit_tick=self.session.tick_count,
                          started_wall=started_wall, ack=ack)
        self.runs[compiled.workflow_id] = run
        if persist is not None:
            self.store.create_workflow(compiled, kind=kind, record_json=record.model_dump_json() if record else None,
                                       submit_tick=run.submit_tick, ack=ack, **persist)
        if compiled.errors:
            for st in states.values():
                st.status, st.reason_code = "not_dispatched", "compile_error"
            self._end(run, "rejected", "compile_error", "; ".join(compiled.errors))
            return run
        if refusal is not None:
            for st in states.values():
                st.status, st.reason_code = "not_dispatched", refusal[0]
                self.store.update_step(run.workflow_id, st.step.step_id, st.status, st.reason_code, None, st.attempt,
                                       float(self.session.clock_s))
            run.quiet.update(states)
            self._end(run, "cancelled", refusal[0], refusal[1])
            return run
        if ack is not None or (compiled.steps and compiled.steps[0].execution_target == "device"):
            run.first_response_ms = self._wall_ms(run)
        if compiled.submission is not None:
            self._deliver_all(self.session.submit(compiled.submission))
        self._advance_cloud(run)
        self._maybe_finish(run)
        return run

    @staticmethod
    def _wall_ms(run: WorkflowRun) -> float:
        return round((time.perf_counter() - run.started_wall) * 1000, 3)

    # -- the clock ---------------------------------------------------------------------------

    def tick(self) -> None:
        self.absorb(self.session.tick())
        if self.after_tick is not None:
            self.after_tick(self.session.tick_count)

    def absorb(self, events: list[DeviceEvent]) -> None:
        """Apply callbacks, then move every open workflow on (cloud steps, waits, its end), in one transaction.
        A simulated robot calls it once a tick; a robot process (dataflow/runtime/remote.py) once a callback or heartbeat."""
        with self.store.transaction():
            self._deliver_all(events)
            for run in list(self.runs.values()):
                if not run.done:
                    self._advance_cloud(run)
                    self._maybe_finish(run)

    def run_until_done(self, run: WorkflowRun, max_ticks: int, pace: float | None = None) -> None:
        """Tick until the workflow ends; `pace` (simulated seconds per wall second) slows it down for people."""
        wall0, tick0 = time.perf_counter(), self.session.tick_count
        while not run.done:
            if self.expire(run, max_ticks):
                break
            self.tick()
            if pace:
                ahead = (self.session.tick_count - tick0) / pace - (time.perf_counter() - wall0)
                if ahead > 0:
                    time.sleep(ahead)

    def expire(self, run: WorkflowRun, max_ticks: int) -> bool:
        """End a workflow that outlived its budget of simulated seconds (what is left is unconfirmed); True if it did."""
        if run.done or self.session.tick_count - run.submit_tick < max_ticks + run.extra_ticks:
            return False
        with self.store.transaction():
            self._give_up(run, "workflow_step_limit")
        return True

    # -- callbacks ---------------------------------------------------------------------------

    def _deliver_all(self, events: list[DeviceEvent]) -> None:
        for event in events:
            self.deliver(event)

    def refusal(self, event: DeviceEvent) -> str | None:
        """Why a callback cannot be accepted, if it cannot: a terminal event must carry terminal evidence that its
        step's capability operation declares (a move is never completed by camera.photoSaved), and its step must exist."""
        run = self.runs.get(event.workflow_id)
        if run is None or event.event_name not in TERMINAL_EVENTS:
            return None
        st = run.states.get(event.step_id)
        if st is None:
            return f"{event.workflow_id} has no step {event.step_id!r}"
        return evidence_refusal(self.registry, st.step, event)

    def deliver(self, event: DeviceEvent) -> None:
        """Bind a callback to its workflow and step (idempotent on event id); a refused one changes nothing."""
        why = self.refusal(event)
        if why is not None:
            self.refused.append((event.event_id, why))
            return
        new = self.store.record_event(event)
        if not new and self.replaying:
            stored = self.store.stored_event_name(event.event_id)
            if stored != event.event_name:
                raise InputError(f"resume diverged: {event.event_id} was {stored}, replay gives {event.event_name}")
            self.replayed += 1
        if event.event_id in self.applied:
            self.duplicates += 1
            return
        self.applied.add(event.event_id)
        run = self.runs.get(event.workflow_id)
        if run is None or event.step_id not in run.states:
            return  # stored in the log; no live run of it in this process
        changed = self._apply(run, run.states[event.step_id], event)
        if self.listener:
            self.listener(run, event, new)
        if changed and event.opens_decision and not run.done:
            st = run.states[event.step_id]
            self._decide(run, DecisionPoint(workflow_id=run.workflow_id, step_id=event.step_id, capability_id=st.step.capability_id,
                                            event_id=event.event_id, event_name=event.event_name, reason_code=event.reason_code,
                                            observed_at=event.observed_at, step_status=st.status))

    def _apply(self, run: WorkflowRun, st: StepState, event: DeviceEvent) -> bool:
        """Update the step from an event; stale events (older attempt, or after a terminal state) change nothing."""
        if event.attempt < st.attempt or (event.attempt == st.attempt and st.status in TERMINAL_STEP_STATUSES):
            return False
        if event.attempt > st.attempt:
            st.attempt = event.attempt
            st.status = "pending"
        if event.event_name == "PROGRESS":
            if (event.reason_code or "").startswith("local_retry"):
                st.retried = True
            return False
        status = _CANCEL_STATUS.get(event.reason_code or "", "cancelled") if event.event_name == "CANCELLED" else _EVENT_STATUS[event.event_name]
        if status in ("queued", "running") and _RANK[status] <= _RANK.get(st.status, 0):
            return False  # out of order: never move a step backwards
        if st.status == "paused" and event.reason_code == "decision_ended_workflow":
            return False  # a paused step stays paused in the report: it ran, it did not finish
        st.status, st.reason_code = status, event.reason_code
        if event.terminal_evidence:
            st.evidence = event.terminal_evidence
        if event.output:
            st.output = dict(event.output)
        self.store.update_step(run.workflow_id, st.step.step_id, st.status, st.reason_code, st.evidence, st.attempt, event.observed_at)
        if status in TERMINAL_STEP_STATUSES:
            self.store.save_result(run.workflow_id, st.step.step_id, st.step.output_key,
                                   {"status": status, "terminal_evidence": st.evidence, "reason_code": st.reason_code, **st.output})
        return True

    # -- cloud steps ---------------------------------------------------------------------------

    def _advance_cloud(self, run: WorkflowRun) -> None:
        progressed = True
        while progressed and not run.done:
            progressed = False
            for st in run.states.values():
                if st.status != "pending" or st.step.execution_target != "cloud":
                    continue
                deps = [run.states[d].status for d in st.step.depends_on if d in run.states]
                if any(d in TERMINAL_STEP_STATUSES and d not in SATISFIED_STEP_STATUSES for d in deps):
                    self._set_cloud(run, st, "not_dispatched", "dependency_not_completed")
                    progressed = True
                    continue
                if any(d not in SATISFIED_STEP_STATUSES for d in deps):
                    continue
                if st.step.start_after is not None and not self.session.tasks.after_open(st.step.start_after, run.submit_tick):
                    continue  # waiting for a clock time or another task's terminal evidence
                if st.step.condition is not None:
                    verdict = evaluate(st.step.condition, self.session.sim.world.state_value, run.outputs())
                    if verdict is None:
                        self._set_cloud(run, st, "blocked", "condition_unresolvable")
                        self._decide(run, self._cloud_point(run, st, "BLOCKED"))
                        return
                    if not verdict:
                        self._set_cloud(run, st, "skipped", "condition_false")
                        progressed = True
                        continue
                self._run_cloud_step(run, st)
                progressed = True
                if st.status == "needs_user_input":
                    self._decide(run, self._cloud_point(run, st, "NEEDS_USER_INPUT"))
                    return

    def _cloud_point(self, run: WorkflowRun, st: StepState, name: str) -> DecisionPoint:
        return DecisionPoint(workflow_id=run.workflow_id, step_id=st.step.step_id, event_name=name, reason_code=st.reason_code,
                             observed_at=float(self.session.clock_s), step_status=st.status)

    def _run_cloud_step(self, run: WorkflowRun, st: StepState) -> None:
        stored = self.store.results(run.workflow_id).get(st.step.step_id) if self.replaying else None
        if stored and "cloud_result" in stored:
            result = CloudStepResult.model_validate(stored["cloud_result"])
        else:
            inputs = run.inputs_of(st)
            record = run.record or DecisionRecord(text="", trace_id=run.compiled.trace_id)
            result = compose_cloud_step(st.step, record, inputs, run.workflow_id, float(self.session.clock_s),
                                        self.store.schedules(), self.templates, self.registry)
        if result.schedule is not None:
            self.store.save_schedule(result.schedule)
        if result.cancel_schedules:
            self.store.cancel_schedules(result.cancel_schedules)
        run.cloud_results[st.step.step_id] = result
        st.output = dict(result.data)
        self.store.save_result(run.workflow_id, st.step.step_id, st.step.output_key,
                               {"status": result.status, "cloud_result": result.model_dump(mode="json")})
        self._set_cloud(run, st, result.status, result.reason_code)
        if run.first_response_ms is None:
            run.first_response_ms = self._wall_ms(run)

    def _set_cloud(self, run: WorkflowRun, st: StepState, status: str, reason: str | None) -> None:
        st.status, st.reason_code = status, reason
        self.store.update_step(run.workflow_id, st.step.step_id, status, reason, None, st.attempt, float(self.session.clock_s))
        self.session.tasks.notify_step(run.workflow_id, st.step.step_id, status, st.output)

    # -- decisions ------------------------------------------------------------------------------

    def _decide(self, run: WorkflowRun, point: DecisionPoint) -> None:
        decision = self.handler.decide(point, run)
        entry = {"step_id": point.step_id, "event": point.event_name, "reason_code": point.reason_code, "action": decision.action,
                 "reason": decision.reason}
        run.decisions.append(entry)
        if not self.store.decisions_for(run.workflow_id, point.step_id, point.event_id):
            self.store.record_decision(run.workflow_id, point.step_id, point.event_id, point.reason_code, decision.action, decision.reason)
        if decision.action in ("continue", "wait"):
            return
        if decision.action == "retry_local":
            self._deliver_all(self.session.channel.transfer(self.session.tasks.retry(run.workflow_id, point.step_id), self.session.tick_count))
            return
        if decision.action == "replan":
            run.replaced.add(point.step_id)
            self._extend(run, decision)
            return
        status = _END_STATUS.get(point.step_status, point.step_status)
        stop_reason = point.reason_code if point.event_name == USER_GOAL_CHANGE and point.reason_code else "decision_ended_workflow"
        if decision.action == "ask_user":
            self._stop_rest(run, stop_reason)
            self._end(run, "needs_user_input", point.reason_code, decision.ask_text)
        elif decision.action == "complete":
            self._stop_rest(run, stop_reason)
            self._end(run, self._final_status(run)[0], point.reason_code, decision.ask_text)
        else:
            self._stop_rest(run, stop_reason)
            self._end(run, status, point.reason_code, decision.ask_text)

    def user_changes_goal(self, run: WorkflowRun, reason_code: str = "user_changed_goal") -> None:
        """The user called off what is left of the workflow: a decision event like a failure."""
        if run.done:
            return
        open_steps = [st for st in run.states.values() if st.status not in TERMINAL_STEP_STATUSES]
        st = open_steps[0] if open_steps else next(iter(run.states.values()))
        with self.store.transaction():
            self._decide(run, DecisionPoint(workflow_id=run.workflow_id, step_id=st.step.step_id, capability_id=st.step.capability_id,
                                            event_name=USER_GOAL_CHANGE, reason_code=reason_code,
                                            observed_at=float(self.session.clock_s), step_status="cancelled"))

    def _extend(self, run: WorkflowRun, decision: Decision) -> None:
        extra = compile_steps(decision.steps, run.compiled.family, run.compiled.trace_id, self.registry, self.bridge,
                              workflow_id=run.workflow_id, known_steps=set(run.states))
        if extra.errors:
            raise InputError("replan rejected: " + "; ".join(extra.errors))
        run.compiled = run.compiled.model_copy(update={"steps": [*run.compiled.steps, *extra.steps]})
        for s in extra.steps:
            run.states[s.step_id] = StepState(step=s)
            run.added.add(s.step_id)
        stored = {row["step_id"] for row in self.store.steps(run.workflow_id)} if self.replaying else set()  # a resumed replan replays
        fresh = extra.model_copy(update={"steps": [s for s in extra.steps if s.step_id not in stored]})
        self.store.add_steps(fresh)
        if fresh.steps:
            self.store.add_extension(fresh)
        if extra.submission is not None:
            run.extra_ticks += sum(t.timeout_s * (t.max_local_retries + 1) for t in extra.submission.subTasks)
            self._deliver_all(self.session.submit(extra.submission))

    def _stop_rest(self, run: WorkflowRun, reason_code: str = "decision_ended_workflow") -> None:
        """Cancel the workflow's queued device tasks; steps that never ran are not dispatched."""
        self._deliver_all(self.session.channel.transfer(
            self.session.tasks.cancel(run.workflow_id, reason_code=reason_code), self.session.tick_count))
        for st in run.states.values():
            if st.status not in TERMINAL_STEP_STATUSES and st.status != "paused":
                st.status, st.reason_code = ("not_dispatched", reason_code) if st.status in ("pending", "queued") else (
                    "unconfirmed", st.reason_code or "terminal_evidence_missing")
                self.store.update_step(run.workflow_id, st.step.step_id, st.status, st.reason_code, st.evidence, st.attempt,
                                       float(self.session.clock_s))

    def _give_up(self, run: WorkflowRun, reason: str) -> None:
        pending = [st for st in run.states.values() if st.status not in TERMINAL_STEP_STATUSES]
        for st in pending:  # stored in the same transaction as the tick that decided it
            st.status, st.reason_code = "unconfirmed", reason
            self.store.update_step(run.workflow_id, st.step.step_id, st.status, st.reason_code, st.evidence, st.attempt,
                                   float(self.session.clock_s))
        first = pending[0] if pending else next(iter(run.states.values()))
        self._decide(run, DecisionPoint(workflow_id=run.workflow_id, step_id=first.step.step_id, capability_id=first.step.capability_id,
                                        event_name="TERMINAL_EVIDENCE_MISSING", reason_code=reason,
                                        observed_at=float(self.session.clock_s), step_status="unconfirmed"))
        if not run.done:
            self._end(run, "incomplete", reason)

    # -- finishing ----------------------------------------------------------------------------

    def _maybe_finish(self, run: WorkflowRun) -> None:
        if run.done:
            return
        if all(st.status in TERMINAL_STEP_STATUSES for st in run.states.values()):
            unmet = getattr(self.handler, "before_finish", None)
            owed = unmet(run) if unmet is not None else None
            if owed is not None:  # every step ended, yet an effect the workflow owes has no terminal evidence
                step_id, reason = owed
                st = run.states[step_id]
                self._decide(run, DecisionPoint(workflow_id=run.workflow_id, step_id=step_id, capability_id=st.step.capability_id,
                                                event_name="EFFECT_MISSING", reason_code=reason,
                                                observed_at=float(self.session.clock_s), step_status=st.status))
                if run.done or not all(st.status in TERMINAL_STEP_STATUSES for st in run.states.values()):
                    return
            status, reason = self._final_status(run)
            self._end(run, status, reason)
            return
        waiting_device = [st for st in run.states.values() if st.step.execution_target == "device" and st.status not in TERMINAL_STEP_STATUSES]
        if waiting_device and self.session.quiet(run.workflow_id):
            run.quiet_since = self.session.tick_count if run.quiet_since is None else run.quiet_since
            if self.session.tick_count - run.quiet_since >= self.session.sim.physics.callback_grace_s:
                self._give_up(run, "terminal_evidence_missing")
        else:
            run.quiet_since = None

    @staticmethod
    def _final_status(run: WorkflowRun) -> tuple[str, str | None]:
        for st in run.states.values():
            if st.status not in SATISFIED_STEP_STATUSES and st.step.step_id not in run.replaced:
                return _END_STATUS.get(st.status, st.status), st.reason_code
        return "completed", None

    def _end(self, run: WorkflowRun, status: str, reason: str | None, extra_text: str | None = None) -> None:
        run.status, run.reason_code = status, reason
        run.finished_tick = self.session.tick_count
        lines = []
        for st in run.states.values():
            if st.step.step_id in run.quiet or (st.status in ("skipped", "not_dispatched") and st.step.step_id in run.added):
                continue
            if st.step.execution_target == "cloud" and st.step.step_id in run.cloud_results:
                lines.append(run.cloud_results[st.step.step_id].text)
            else:
                line = describe_step(st.report(), self.templates, self.registry, retried=st.retried)
                if line:
                    lines.append(line)
        if extra_text:
            lines.append(extra_text)
        run.response = " ".join(x for x in lines if x) or self.templates.nothing_done
        if run.first_response_ms is None:
            run.first_response_ms = self._wall_ms(run)
        self.store.finish_workflow(run.workflow_id, status, reason, run.response, float(self.session.clock_s))
        self.store.record_turn(run.compiled.trace_id, run.workflow_id, run.first_response_ms, self.completion_sim_s(run))
        if self.on_end is not None:
            self.on_end(run)

    def completion_sim_s(self, run: WorkflowRun) -> float | None:
        return float(run.finished_tick - run.submit_tick) if run.finished_tick is not None else None

    def report(self, run: WorkflowRun) -> RunReport:
        turn = self.store.turn(run.compiled.trace_id) or {}
        return RunReport(
            trace_id=run.compiled.trace_id, workflow_id=run.workflow_id, status=run.status, reason_code=run.reason_code,  # type: ignore[arg-type]
            steps=[st.report() for st in run.states.values()], response=run.response, ack=run.ack,
            clocks=Clocks(first_response_ms=turn.get("first_response_ms", run.first_response_ms), completion_sim_s=self.completion_sim_s(run)),
            decisions=run.decisions,
        )
