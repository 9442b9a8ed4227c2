"""The on-device TaskManager: queue, dependency release, guards, waits, timeouts, local retry, cancel.

It owns every task of every submitted workflow, runs one waiting task at a time on the
simulator (a task submitted with executionMode queued_async lets the next one start beside
it), and reports each change as a `DeviceEvent` with a deterministic event id. Cloud steps
of mixed plans are known to it only through `notify_step` (their status and output), so a
device step can depend on them and a guard can read their output.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from device.activity_base import Activity, Signal
from device.running import ended_now, running_before
from device.simulator import Simulator
from registry.conditions import evaluate
from registry.device_contracts import (
    SATISFIED_STEP_STATUSES,
    TERMINAL_STEP_STATUSES,
    AfterEvent,
    ClockDelay,
    DeviceEvent,
    DeviceTaskRequest,
    StartAfter,
    WorkflowSubmission,
)
from registry.errors import InputError

_ROOM_FIELDS = frozenset({"position", "station_room"})
_PROBLEM_STATUS = {"FAILED": "failed", "BLOCKED": "blocked", "PAUSED": "paused", "TIMEOUT": "timeout",
                   "NEEDS_USER_INPUT": "needs_user_input", "CANCELLED": "cancelled"}


@dataclass(slots=True)
class TaskRecord:
    request: DeviceTaskRequest
    submitted_tick: int
    status: str = "queued"
    attempt: int = 1
    activity: Activity | None = None
    started_tick: int = 0
    seq: int = 0
    output: dict[str, Any] = field(default_factory=dict)
    evidence: str | None = None
    reason_code: str | None = None

    @property
    def key(self) -> tuple[str, str]:
        return self.request.cloud_workflow_id, self.request.cloud_step_id


class TaskManager:
    def __init__(self, sim: Simulator):
        self.sim = sim
        self.tasks: dict[tuple[str, str], TaskRecord] = {}
        self.order: list[TaskRecord] = []
        self.running: list[TaskRecord] = []
        self.background: list[Activity] = []
        """Activities whose step completed but that keep working (a clean running until stopped)."""
        self.external: dict[tuple[str, str], tuple[str, dict[str, Any]]] = {}
        self.evidence_seen: list[tuple[str, str, int]] = []
        """(task method, evidence, tick) of every evidence reported, for after_event waits."""
        self.before = running_before(sim.scenario.running_tasks, sim.registry, sim.world)
        """Tasks that were already running when the session began (their end is observed too)."""
        self._dirty = True

    # -- cloud-facing API -------------------------------------------------------------------

    def submit(self, submission: WorkflowSubmission) -> list[DeviceEvent]:
        """Queue every sub-task; a workflow may be extended by later submissions (a replan)."""
        events = []
        for request in submission.subTasks:
            key = (request.cloud_workflow_id, request.cloud_step_id)
            if request.cloud_workflow_id != submission.workflow_id:
                raise InputError(f"sub-task {request.cloud_step_id} names workflow {request.cloud_workflow_id}, not {submission.workflow_id}")
            if key in self.tasks:
                raise InputError(f"step {request.cloud_step_id} of {submission.workflow_id} was already submitted")
            task = TaskRecord(request=request, submitted_tick=self.sim.world.tick)
            self.tasks[key] = task
            self.order.append(task)
            events.append(self._event(task, "QUEUED"))
        self._dirty = True
        return events

    def notify_step(self, workflow_id: str, step_id: str, status: str, output: dict[str, Any] | None = None) -> None:
        """A cloud step's status and output (device steps may depend on it or read it)."""
        self.external[(workflow_id, step_id)] = (status, dict(output or {}))
        self._dirty = True

    def cancel(self, workflow_id: str, step_id: str | None = None, reason_code: str = "cancelled_by_cloud") -> list[DeviceEvent]:
        """Cancel a workflow's unfinished tasks (or one of them)."""
        events = []
        for task in self.order:
            if task.request.cloud_workflow_id != workflow_id or (step_id and task.request.cloud_step_id != step_id):
                continue
            if task.status in ("queued", "running", "paused"):
                if task.activity is not None:
                    task.activity.cancel()
                if task in self.running:
                    self.running.remove(task)
                events.append(self._finish(task, "CANCELLED", reason_code))
        self._dirty = True
        return events

    def retry(self, workflow_id: str, step_id: str) -> list[DeviceEvent]:
        """Queue a failed, blocked, paused or timed-out task again (a supervisor's retry_local)."""
        task = self.tasks.get((workflow_id, step_id))
        if task is None or task.status not in ("failed", "blocked", "paused", "timeout", "needs_user_input"):
            return []
        task.attempt += 1
        task.status, task.activity, task.reason_code = "queued", None, None
        self._dirty = True
        return [self._event(task, "QUEUED")]

    def step_status(self, workflow_id: str, step_id: str) -> str | None:
        task = self.tasks.get((workflow_id, step_id))
        return task.status if task else None

    def workflow_idle(self, workflow_id: str) -> bool:
        """Nothing of the workflow is queued, running or paused any more."""
        return all(t.status in TERMINAL_STEP_STATUSES for t in self.order if t.request.cloud_workflow_id == workflow_id)

    def running_capabilities(self) -> set[str]:
        """Capabilities with a task running now: this session's, those still working in the background, earlier ones."""
        caps = {t.request.capability_id for t in self.running}
        caps |= {a.request.capability_id for a in self.background if not a.done}
        return caps | {t.capability_id for t in self.before if not t.ended}

    # -- the clock ---------------------------------------------------------------------------

    def tick(self) -> list[DeviceEvent]:
        """One simulated second: physics, running tasks, timeouts, then release of waiting tasks."""
        self.sim.advance()
        events: list[DeviceEvent] = []
        if self.background:
            self._step_background()
        if self.before:
            ended = ended_now(self.before, self.sim.world)
            if ended:
                self.evidence_seen += ended
                self._dirty = True
        for task in list(self.running):
            events += self._step_task(task)
        if self._dirty or self._has_timed_waits():
            events += self._release()
        return events

    def _step_background(self) -> None:
        for activity in list(self.background):
            for signal in activity.step():
                if signal.evidence:
                    self.evidence_seen.append((activity.request.taskMethod, signal.evidence, self.sim.world.tick))
            if activity.done:
                self.background.remove(activity)

    def _step_task(self, task: TaskRecord) -> list[DeviceEvent]:
        events = []
        for signal in self.sim.step(task.activity, task.attempt):
            events += self._on_signal(task, signal)
            if task.status != "running":
                break
        if task.status == "running" and task.activity.done:
            events.append(self._finish(task, "FAILED", "ended_without_terminal_evidence", decision=True))
        elif task.status == "running" and self.sim.world.tick - task.started_tick >= task.request.timeout_s:
            task.activity.cancel()
            events.append(self._finish(task, "TIMEOUT", "timeout", decision=True, output={"timeout_s": task.request.timeout_s}))
        if task.status != "running" and task in self.running:
            self.running.remove(task)
            self._dirty = True
        return events

    def _on_signal(self, task: TaskRecord, signal: Signal) -> list[DeviceEvent]:
        if signal.evidence:
            self.evidence_seen.append((task.request.taskMethod, signal.evidence, self.sim.world.tick))
        if signal.kind == "progress":
            return [self._event(task, "PROGRESS", reason_code=signal.reason_code, output=signal.output)]
        if signal.kind == "evidence":
            if signal.evidence in task.request.completion_evidence:
                if not signal.final and not task.activity.done:
                    self.background.append(task.activity)
                return [self._finish(task, "COMPLETED", None, evidence=signal.evidence, output=signal.output)]
            return [self._event(task, "PROGRESS", reason_code="evidence", evidence=signal.evidence, output=signal.output)]
        if signal.kind == "user_ended":
            return [self._finish(task, "CANCELLED", signal.reason_code, evidence=signal.evidence, output=signal.output)]
        if signal.event_name == "FAILED" and signal.output.get("retryable") and task.attempt <= task.request.max_local_retries:
            retry = self._event(task, "PROGRESS", reason_code=f"local_retry:{signal.reason_code}", output=signal.output)
            task.attempt += 1
            task.status, task.activity = "queued", None
            self._dirty = True
            return [retry, self._event(task, "QUEUED")]
        return [self._finish(task, signal.event_name, signal.reason_code, decision=True, output=signal.output)]

    # -- release -----------------------------------------------------------------------------

    def _has_timed_waits(self) -> bool:
        return any(t.status == "queued" and t.request.start_after is not None for t in self.order)

    def _dep_state(self, task: TaskRecord) -> str:
        """ready | wait | broken (a dependency ended without completing)."""
        wf = task.request.cloud_workflow_id
        for dep in task.request.depends_on:
            other = self.tasks.get((wf, dep))
            if other is not None:
                status = other.status
                if status in SATISFIED_STEP_STATUSES or (status == "running" and other.request.executionMode == "queued_async"):
                    continue
            else:
                ext = self.external.get((wf, dep))
                if ext is None:
                    return "wait"
                status = ext[0]
                if status in SATISFIED_STEP_STATUSES:
                    continue
            if status in TERMINAL_STEP_STATUSES:
                return "broken"
            return "wait"
        return "ready"

    def _start_after_open(self, task: TaskRecord) -> bool:
        return self.after_open(task.request.start_after, task.submitted_tick)

    def after_open(self, after: StartAfter | None, since_tick: int) -> bool:
        """Whether a start_after wait is over: the clock time passed, or the awaited evidence arrived since `since_tick`
        (cloud steps of a workflow wait on the same condition)."""
        if after is None:
            return True
        if isinstance(after, ClockDelay):
            return self.sim.world.clock_s >= after.not_before_s
        assert isinstance(after, AfterEvent)
        return any(method == after.task_method and ev in after.terminal_evidence and tick >= since_tick
                   for method, ev, tick in self.evidence_seen)

    def _outputs(self, workflow_id: str) -> dict[str, dict[str, Any]]:
        outs = {step: out for (wf, step), (_, out) in self.external.items() if wf == workflow_id}
        outs.update({t.request.cloud_step_id: t.output for t in self.order if t.request.cloud_workflow_id == workflow_id and t.status == "completed"})
        return outs

    def _normalize(self, name: str, value: Any) -> Any:
        if name in _ROOM_FIELDS and isinstance(value, str):
            return self.sim.registry.resolve_room(value) or value
        return value

    def _release(self) -> list[DeviceEvent]:
        self._dirty = False
        events: list[DeviceEvent] = []
        for task in self.order:
            if task.status != "queued":
                continue
            state = self._dep_state(task)
            if state == "broken":
                events.append(self._finish(task, "CANCELLED", "dependency_not_completed"))
                self._dirty = True
                continue
            if state == "wait" or not self._start_after_open(task):
                continue
            if any(r.request.executionMode == "queued_wait" for r in self.running):
                break  # one waiting task at a time, in submission order
            cond = task.request.condition
            if cond is not None:
                verdict = evaluate(cond, self.sim.world.state_value, self._outputs(task.request.cloud_workflow_id), self._normalize)
                if verdict is None:
                    events.append(self._finish(task, "BLOCKED", "condition_unresolvable", decision=True))
                    self._dirty = True
                    continue
                if not verdict:
                    events.append(self._finish(task, "CANCELLED", "condition_false", status="skipped"))
                    self._dirty = True
                    continue
            activity, signals = self.sim.start(task.request)
            task.started_tick = self.sim.world.tick
            if activity is None:
                events += [self._finish(task, s.event_name, s.reason_code, decision=True, output=s.output) for s in signals[:1]]
                self._dirty = True
                continue
            task.activity, task.status = activity, "running"
            self.running.append(task)
            events.append(self._event(task, "RUNNING"))
            for signal in signals:
                events += self._on_signal(task, signal)
            if task.status != "running":
                self.running.remove(task)
                self._dirty = True
        return events

    # -- events ------------------------------------------------------------------------------

    def _event(self, task: TaskRecord, name: str, reason_code: str | None = None, evidence: str | None = None,
               output: dict[str, Any] | None = None, decision: bool = False) -> DeviceEvent:
        task.seq += 1
        wf, step = task.key
        return DeviceEvent(
            event_id=f"{wf}:{step}:{task.seq}", event_name=name, workflow_id=wf, step_id=step,  # type: ignore[arg-type]
            task_method=task.request.taskMethod, requires_cloud_decision=decision, reason_code=reason_code,
            terminal_evidence=evidence, observed_at=float(self.sim.world.clock_s), attempt=task.attempt, output=output or {},
        )

    def _finish(self, task: TaskRecord, name: str, reason_code: str | None, evidence: str | None = None,
                output: dict[str, Any] | None = None, decision: bool = False, status: str | None = None) -> DeviceEvent:
        task.status = status or ("completed" if name == "COMPLETED" else _PROBLEM_STATUS[name])
        task.reason_code, task.evidence = reason_code, evidence
        if output:
            task.output = dict(output)
        return self._event(task, name, reason_code, evidence, output, decision)
