"""The cloud side of robots that run as processes of their own (`a2a device`): one `DeviceLink` a robot.

A link stands where the in-process simulator stands for `a2a run`: the orchestrator talks to it through the
same seam (`RemoteSession`: submit, cancel, retry, notify a cloud step, the clock, the state guards read). What
the orchestrator asks of the robot becomes a numbered `DeviceCommand`, stored in the workflow store in the
transaction that decided it; the robot fetches the commands after the last one it applied (a long poll, or
the reply to any callback or heartbeat), so a reply lost on the wire or a service restart never loses a
command nor applies one twice. What the robot reports arrives as callbacks (bound to steps, idempotent on event
id, refused with the reason when a terminal event carries evidence its step does not declare) and heartbeats
(its tick, clock, state and busy workflows: the clock the orchestrator's waits and timeouts read).

After a restart `DeviceHub.recover` takes every running remote workflow over from the store (steps, results,
events, decisions, commands); the robot keeps running meanwhile and redelivers what did not get through.
"""

from __future__ import annotations

import time
from types import SimpleNamespace
from typing import Any, Callable

from dataflow.runtime.goal_store import load_goal
from dataflow.runtime.loop import Runtime, tick_budget
from dataflow.runtime.orchestrator import Orchestrator
from dataflow.runtime.workflow_run import StepState, WorkflowRun
from device.scenario import Scenario
from device.world import Physics
from registry.device_bridge import evidence_refusal
from registry.device_contracts import (
    AfterEvent,
    ClockDelay,
    CommandBatch,
    DeviceCallback,
    DeviceCommand,
    DeviceEvent,
    DeviceReport,
    StartAfter,
    WorkflowSubmission,
)
from registry.errors import InputError, UnknownWorkflowError
from registry.experience import GoalContract
from registry.inputs import device_context_of
from registry.record_contracts import DecisionRecord
from registry.runtime_contracts import CloudStepResult


class RemoteWorld:
    """The robot's state as its last heartbeat told it (what `device.<name>` guards read in the cloud)."""

    def __init__(self) -> None:
        self.state: dict[str, Any] = {}

    def state_value(self, name: str) -> Any:
        return self.state[name]


class _Tasks:
    """The TaskManager seam of a robot process: requests become commands, questions read the last heartbeat."""

    def __init__(self, link: "DeviceLink"):
        self.link = link

    def cancel(self, workflow_id: str, step_id: str | None = None, reason_code: str = "cancelled_by_cloud") -> list[DeviceEvent]:
        self.link.send("cancel", workflow_id, step_id=step_id, reason_code=reason_code)
        return []  # the robot reports the cancellations as callbacks

    def retry(self, workflow_id: str, step_id: str) -> list[DeviceEvent]:
        self.link.send("retry", workflow_id, step_id=step_id)
        return []

    def notify_step(self, workflow_id: str, step_id: str, status: str, output: dict[str, Any] | None = None) -> None:
        self.link.send("notify_step", workflow_id, step_id=step_id, status=status, output=dict(output or {}))

    def after_open(self, after: StartAfter | None, since_tick: int) -> bool:
        if after is None:
            return True
        if isinstance(after, ClockDelay):
            return self.link.clock_s >= after.not_before_s
        assert isinstance(after, AfterEvent)
        return any(method == after.task_method and ev in after.terminal_evidence and tick >= since_tick
                   for method, ev, tick in self.link.evidence_seen)

    def workflow_idle(self, workflow_id: str) -> bool:
        return workflow_id not in self.link.busy

    def running_capabilities(self) -> set[str]:
        return set(self.link.running)


class _Wire:
    """Callbacks reach the orchestrator as the robot posted them (the wire's faults are the robot process's)."""

    @staticmethod
    def transfer(events: list[DeviceEvent], tick: int) -> list[DeviceEvent]:
        return events


class RemoteSession:
    """What the orchestrator needs of a device session, for a robot in another process."""

    def __init__(self, link: "DeviceLink", physics: Physics):
        self.link = link
        self.tasks = _Tasks(link)
        self.channel = _Wire()
        self.sim = SimpleNamespace(world=link.world, physics=physics)

    @property
    def tick_count(self) -> int:
        return self.link.tick

    @property
    def clock_s(self) -> int:
        return int(self.link.clock_s)

    def submit(self, submission: WorkflowSubmission) -> list[DeviceEvent]:
        self.link.send("submit", submission.workflow_id, submission=submission.model_dump(mode="json"))
        return []

    def tick(self) -> list[DeviceEvent]:
        return []

    def quiet(self, workflow_id: str) -> bool:
        """Nothing of the workflow is busy on the robot and every command for it was applied."""
        return workflow_id not in self.link.busy and self.link.applied_seq >= self.link.last_seq.get(workflow_id, 0)


def adopt(orch: Orchestrator, workflow_id: str) -> WorkflowRun:
    """Take over a running workflow from the store into `orch`, as it stands (a service restarted while a robot process ran it):
    its steps with the extensions replans appended, their states, results, events and decisions. Nothing is
    submitted again; callbacks already stored count as applied."""
    row = orch.store.workflow(workflow_id)
    compiled, added = orch.store.compiled(workflow_id)
    stored = {s["step_id"]: s for s in orch.store.steps(workflow_id)}
    results = orch.store.results(workflow_id)
    states = {}
    for step in compiled.steps:
        st = states[step.step_id] = StepState(step=step)
        if step.step_id in stored:
            s = stored[step.step_id]
            st.status, st.reason_code, st.evidence, st.attempt = s["status"], s["reason_code"], s["terminal_evidence"], max(1, s["attempt"] or 1)
        st.output = {k: v for k, v in results.get(step.step_id, {}).items()
                     if k not in ("status", "terminal_evidence", "reason_code", "cloud_result")}
    record = DecisionRecord.model_validate_json(row["record_json"]) if row["record_json"] else None
    run = WorkflowRun(compiled=compiled, record=record, kind=row["kind"], states=states, submit_tick=int(row["submit_tick"]),
                      started_wall=time.perf_counter(), ack=row["ack"])
    run.cloud_results = {sid: CloudStepResult.model_validate(r["cloud_result"]) for sid, r in results.items() if "cloud_result" in r}
    for sid, r in run.cloud_results.items():
        states[sid].output = dict(r.data)
    run.decisions = [{k: d.get(k) for k in ("step_id", "event", "reason_code", "action", "reason")} for d in orch.store.decisions(workflow_id)]
    run.replaced = {d["step_id"] for d in run.decisions if d.get("action") == "replan"}
    run.added = added
    run.first_response_ms = (orch.store.turn(row["trace_id"]) or {}).get("first_response_ms") or 0.0
    orch.applied |= {e["event_id"] for e in orch.store.events(workflow_id)}
    orch.runs[workflow_id] = run
    return run


class DeviceLink:
    """One robot process as the cloud knows it: its commands, its last heartbeat, its orchestrator."""

    def __init__(self, device_id: str, runtime: Runtime, physics: Physics, on_command: Callable[[str], None]):
        self.device_id = device_id
        self.runtime = runtime
        self.store = runtime.store
        self.world = RemoteWorld()
        self.tick = 0
        self.clock_s = 0.0
        self.applied_seq = 0
        self.busy: set[str] = set()
        self.running: list[str] = []
        self.context: dict[str, Any] = {}
        """The robot's state as a device context (checked when it arrived); empty until a heartbeat."""
        self.evidence_seen: list[tuple[str, str, int]] = []
        self.last_seq: dict[str, int] = {}
        self.top_seq = self.store.last_device_command(device_id)
        """The last command stored for this robot (nothing to send while it has applied that one)."""
        self.boot = ""
        self.seen = False
        """A heartbeat arrived (before that the robot's state is unknown and turns use the caller's context)."""
        self.budgets: dict[str, int] = {}
        self.goals: dict[str, GoalContract | None] = {}
        self._on_command = on_command
        self.session = RemoteSession(self, physics)
        self.orch: Orchestrator = runtime._orchestrator(self.session, None)
        self.orch.on_end = lambda run: runtime._save_goal(run, self.goals.get(run.workflow_id))

    def send(self, kind: str, workflow_id: str, **fields: Any) -> None:
        seq = self.top_seq + 1
        self.store.add_device_command(self.device_id, seq, workflow_id, {"kind": kind, "workflow_id": workflow_id, **fields})
        self.last_seq[workflow_id] = self.top_seq = seq
        self._on_command(self.device_id)

    def commands(self, after: int | None = None) -> list[DeviceCommand]:
        after = self.applied_seq if after is None else max(after, self.applied_seq)
        if after >= self.top_seq:
            return []
        return [DeviceCommand.model_validate(c) for c in self.store.device_commands(self.device_id, after)]

    def heard(self, report: DeviceReport) -> None:
        """A heartbeat: the robot's clock and state. A stale one of the same robot process (out of order on the wire) never
        moves the clock back; a new process (another boot id) starts its ticks again. State the planner could not read
        (an unknown room, a number out of range) is refused with the reason and changes nothing."""
        if report.boot == self.boot and report.tick < self.tick:
            return
        context = {**report.state, "pm25_by_room": dict(report.pm25_by_room)}
        try:
            device_context_of(context, self.runtime.registry)
        except InputError as exc:
            raise InputError(f"report.state: {exc}") from None
        self.boot = report.boot
        self.seen = True
        self.tick, self.clock_s = report.tick, report.clock_s
        self.applied_seq = max(self.applied_seq, report.applied_seq)
        self.world.state = dict(report.state)
        self.context = context
        self.running = list(report.running_capabilities)
        self.busy = set(report.busy_workflows)

    def device_context(self, overrides: dict[str, Any] | None) -> dict[str, Any]:
        """The robot's state as a device context, the caller's fields on top."""
        return {**self.context, **(overrides or {})}

    def sweep(self) -> None:
        """Move every open workflow on by the robot's clock (waits, quiet steps) and end those over their budget.
        A workflow the robot reports busy (queued behind others, running, or a callback still on the wire) is
        not over budget: its own TaskManager times out what runs too long, and the cloud hears of it."""
        self.orch.absorb([])
        for wf, budget in list(self.budgets.items()):
            run = self.orch.runs.get(wf)
            if run is not None and wf not in self.busy:
                self.orch.expire(run, budget)
        self._forget_done()

    def _forget_done(self) -> None:
        for wf in [wf for wf, run in self.orch.runs.items() if run.done]:
            del self.orch.runs[wf]
            self.budgets.pop(wf, None)
            self.goals.pop(wf, None)


class DeviceHub:
    """Every robot process the service has heard of, and which one runs which workflow."""

    def __init__(self, runtime: Runtime, physics: Physics | None = None, on_command: Callable[[str], None] | None = None):
        self.runtime = runtime
        self.physics = physics or Physics()
        self.links: dict[str, DeviceLink] = {}
        self.owner: dict[str, str] = {}
        self.on_command = on_command or (lambda device_id: None)

    def link(self, device_id: str) -> DeviceLink:
        if device_id not in self.links:
            self.links[device_id] = DeviceLink(device_id, self.runtime, self.physics, self.on_command)
        return self.links[device_id]

    def recover(self) -> int:
        """Take over the running remote workflows a previous service process left; how many."""
        store = self.runtime.store
        taken = 0
        for wf, (device_id, last_seq) in sorted(store.remote_workflows().items()):
            self.owner[wf] = device_id  # finished ones too: a late or duplicated callback for them is still theirs
            row = store.workflow(wf)
            if row["status"] != "running":
                continue
            link = self.link(device_id)
            run = adopt(link.orch, wf)
            stored = load_goal(store, wf)
            link.goals[wf] = stored[0] if stored else None
            self.runtime.supervisor.attach(wf, link.goals[wf])
            link.budgets[wf] = tick_budget(run.compiled, self.physics.callback_grace_s)
            link.last_seq[wf] = last_seq
            taken += 1
        return taken

    def submit_turn(self, device_id: str, text: str, device_context: dict[str, Any] | None, voice_context: dict[str, Any] | None,
                    trace_id: str) -> tuple[DecisionRecord, WorkflowRun]:
        """Route a turn on the robot's own state and submit its workflow to that robot; it runs there from now on."""
        started = time.perf_counter()
        link = self.link(device_id)
        if not link.seen and not link.orch.runs:  # never heard of, and running nothing taken over after a restart
            raise InputError(f"device_id: robot {device_id!r} has not connected (start `a2a device --device-id {device_id}`)")
        runtime = self.runtime
        context = device_context_of(link.device_context(device_context), runtime.registry)
        record, compiled = runtime.plan(text, context, voice_context, sorted(link.running), trace_id)
        ack = record.tts_response if compiled.submission is not None else None
        goal = runtime.goal_of(record)
        link.goals[compiled.workflow_id] = goal
        self.owner[compiled.workflow_id] = device_id
        link.budgets[compiled.workflow_id] = tick_budget(compiled, self.physics.callback_grace_s)
        with runtime.store.transaction():
            run = runtime.begin(link.orch, compiled, record, goal, "turn", text, context, Scenario(), 0, started, ack)
        if run.done:
            link._forget_done()
        return record, run

    def _link_of(self, workflow_id: str) -> DeviceLink:
        device_id = self.owner.get(workflow_id)
        if device_id is None:
            if not self.runtime.store.has_workflow(workflow_id):
                raise UnknownWorkflowError(f"unknown workflow id {workflow_id!r}")
            raise InputError(f"workflow {workflow_id} does not run on a robot process")
        return self.link(device_id)

    def callback(self, workflow_id: str, callback: DeviceCallback) -> CommandBatch:
        """A robot's callback: refused with the reason (nothing changes), or applied once; the robot's pending commands."""
        if callback.workflow_id != workflow_id:
            raise InputError(f"workflow_id: the callback names {callback.workflow_id!r}, the path {workflow_id!r}")
        link = self._link_of(workflow_id)
        if callback.device_id is not None and callback.device_id != link.device_id:
            raise InputError(f"device_id: {workflow_id} runs on {link.device_id!r}, not {callback.device_id!r}")
        event = DeviceEvent.model_validate(callback.model_dump(exclude={"device_id", "report"}))
        why = self._refusal(link, event)
        if why is not None:
            raise InputError(why)
        if callback.report is not None:
            link.heard(callback.report)
        new = event.event_id not in link.orch.applied and not self.runtime.store.has_event(workflow_id, event.event_id)
        if event.terminal_evidence and new:
            link.evidence_seen.append((event.task_method, event.terminal_evidence, link.tick))
        link.orch.absorb([event])
        link.sweep()
        return CommandBatch(commands=link.commands(), accepted=new)

    def _refusal(self, link: DeviceLink, event: DeviceEvent) -> str | None:
        """Why the callback is not one of this workflow's: an unknown step, a cloud step, another task's method, or
        terminal evidence the step does not declare (checked on finished workflows too, from the store)."""
        run = link.orch.runs.get(event.workflow_id)
        if run is not None:
            step = run.states[event.step_id].step if event.step_id in run.states else None
        else:
            step = self.runtime.store.compiled(event.workflow_id)[0].step(event.step_id)
        if step is None:
            return f"step_id: {event.workflow_id} has no step {event.step_id!r}"
        if step.device_task is None:
            return f"step_id: {event.step_id} is a cloud step; no robot reports on it"
        if event.task_method != step.device_task.taskMethod:
            return f"task_method: {event.step_id} runs {step.device_task.taskMethod}, not {event.task_method!r}"
        return evidence_refusal(self.runtime.registry, step, event)

    def heartbeat(self, device_id: str, report: DeviceReport) -> CommandBatch:
        link = self.link(device_id)
        link.heard(report)
        link.sweep()
        return CommandBatch(commands=link.commands())
