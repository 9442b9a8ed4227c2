"""Contracts between the cloud runtime and the robot's TaskManager (DESIGN section 4).

`DeviceTaskRequest` and `WorkflowSubmission` are what the plan compiler produces and the
TaskManager consumes; `DeviceEvent` is the callback the TaskManager sends back. They live on
the ground floor because the compiler stage, the cloud runtime and the device all share them.
"""

from __future__ import annotations

import math
from typing import Annotated, Any, Literal

from pydantic import ConfigDict, Field, field_validator

from registry.contracts import Contract, ExecutionTarget, Family, Scalar, WaitPolicy
from registry.plan_contracts import Condition

CONTRACT_VERSION = "a2a-task-orchestration-v1"

EventName = Literal[
    "QUEUED", "RUNNING", "PROGRESS", "COMPLETED", "FAILED", "BLOCKED", "PAUSED", "TIMEOUT", "NEEDS_USER_INPUT", "CANCELLED",
]
EVENT_NAMES: tuple[str, ...] = EventName.__args__  # type: ignore[attr-defined]
NORMAL_EVENTS = frozenset({"QUEUED", "RUNNING", "PROGRESS", "COMPLETED"})
"""Events that only update state; every other event (or requires_cloud_decision) opens a decision."""
DECISION_EVENTS = frozenset({"FAILED", "BLOCKED", "PAUSED", "TIMEOUT", "NEEDS_USER_INPUT"})

ExecutionMode = Literal["queued_wait", "queued_async"]
"""queued_wait: dependants wait for this task's completion evidence; queued_async: they start once it runs."""

StepStatus = Literal[
    "pending", "queued", "running", "paused", "completed", "failed", "blocked", "timeout", "needs_user_input",
    "cancelled", "skipped", "not_dispatched", "unconfirmed",
]
"""skipped: its guard was false; not_dispatched: a dependency did not complete; unconfirmed: the device
finished (or went quiet) but no terminal evidence reached the cloud."""
TERMINAL_STEP_STATUSES = frozenset(
    {"completed", "failed", "blocked", "timeout", "needs_user_input", "cancelled", "skipped", "not_dispatched", "unconfirmed"}
)
SATISFIED_STEP_STATUSES = frozenset({"completed", "skipped"})
"""A dependant may run after these; after any other terminal status it is never dispatched."""


class ClockDelay(Contract):
    """Start no earlier than a simulated clock time (clock_delay, schedule end times)."""

    kind: Literal["clock_delay"] = "clock_delay"
    not_before_s: float = Field(ge=0)
    """Simulated seconds since the simulator's midnight of day 0."""


class AfterEvent(Contract):
    """Start only after a terminal callback of another task (after_existing_event)."""

    kind: Literal["after_event"] = "after_event"
    task_method: str
    """The running task whose callback is awaited."""
    terminal_evidence: list[str] = Field(min_length=1)
    """Any of these evidences releases the waiting task."""


StartAfter = Annotated[ClockDelay | AfterEvent, Field(discriminator="kind")]


class DeviceTaskRequest(Contract):
    """One sub-task of a workflow submission, as the on-device TaskManager consumes it."""

    taskMethod: str
    """A task method of the capability registry, never invented."""
    params: dict[str, Scalar] = Field(default_factory=dict)
    """Device params after the registry's param_map (room names as the registry's canonical name)."""
    cloud_workflow_id: str
    cloud_step_id: str
    executionMode: ExecutionMode
    wait_policy: WaitPolicy
    contract_version: Literal["a2a-task-orchestration-v1"] = CONTRACT_VERSION
    capability_id: str
    operation_id: str
    depends_on: list[str] = Field(default_factory=list)
    """Step ids (device or cloud) that must be satisfied before release."""
    condition: Condition | None = None
    """Guard evaluated at release time: on device state or on a stored step output."""
    completion_evidence: list[str] = Field(min_length=1)
    """Terminal evidence that completes this step (from the registry operation)."""
    timeout_s: int = Field(gt=0)
    """From the capability's timeout_s in the registry."""
    max_local_retries: int = Field(1, ge=0, le=3)
    start_after: StartAfter | None = None
    token_text: str | None = None
    """Device intent token, built only from registry entries (None when the registry defines none)."""


class WorkflowSubmission(Contract):
    """The one payload a workflow's device steps are submitted in (DESIGN section 4)."""

    method: Literal["submitWorkflow"] = "submitWorkflow"
    queue: Literal["workflow"] = "workflow"
    dispatch: Literal[True] = True
    forceTaskManager: Literal[True] = True
    workflow_id: str
    subTasks: list[DeviceTaskRequest]


class CompiledStep(Contract):
    """A plan step after compilation: a cloud step for a route composer, or a device task."""

    step_id: str
    route: Family
    execution_target: ExecutionTarget
    purpose: str
    skill_id: str | None = None
    capability_id: str | None = None
    operation_id: str | None = None
    depends_on: list[str] = Field(default_factory=list)
    input_from: list[str] = Field(default_factory=list)
    output_key: str
    condition: Condition | None = None
    wait_policy: WaitPolicy
    device_task: DeviceTaskRequest | None = None
    start_after: StartAfter | None = None
    """A wait before the step may start (a clock delay, another task's terminal evidence); the TaskManager holds a
    device step, the cloud runtime a cloud step, on the same condition."""


class CompiledWorkflow(Contract):
    """What the compiler makes of a final plan; `errors` non-empty means fail closed (nothing runs)."""

    workflow_id: str
    trace_id: str
    family: Family
    steps: list[CompiledStep]
    submission: WorkflowSubmission | None = None
    """None when the plan has no device step."""
    errors: list[str] = Field(default_factory=list)

    def step(self, step_id: str) -> CompiledStep | None:
        return next((s for s in self.steps if s.step_id == step_id), None)


class DeviceEvent(Contract):
    """A TaskManager callback."""

    model_config = ConfigDict(frozen=True, extra="forbid", allow_inf_nan=False)

    event_id: str = Field(min_length=1, max_length=200)
    """Unique and deterministic: `{workflow_id}:{step_id}:{sequence}`; the cloud is idempotent on it."""
    event_name: EventName
    workflow_id: str
    step_id: str
    task_method: str
    requires_cloud_decision: bool = False
    reason_code: str | None = None
    terminal_evidence: str | None = None
    observed_at: float = Field(ge=0, le=1e12)
    """Simulated seconds since the simulator's midnight of day 0."""
    attempt: int = Field(1, ge=1, le=100)
    output: dict[str, Any] = Field(default_factory=dict)
    """What the task reported (a state reading, the applied setting, the session outcome)."""

    @property
    def opens_decision(self) -> bool:
        return self.requires_cloud_decision or self.event_name in DECISION_EVENTS


class StructuredTaskRequest(Contract):
    """Path A: an app's structured request, validated against the registry with no planner."""

    taskMethod: str
    params: dict[str, Scalar] = Field(default_factory=dict)


# -- the wire between the cloud service and a robot process (`a2a serve` and `a2a device`) ---------------------

CommandKind = Literal["submit", "cancel", "retry", "notify_step"]


class DeviceCommand(Contract):
    """What the cloud asks of one robot, numbered per robot: the robot applies each sequence number once, in order,
    and says which it applied last, so a command repeated after a lost reply or a restart is never applied twice."""

    seq: int = Field(ge=1)
    kind: CommandKind
    workflow_id: str
    submission: WorkflowSubmission | None = None
    """submit: the sub-tasks to queue (a workflow, or a replan's extension of it)."""
    step_id: str | None = None
    """cancel (None: every unfinished task of the workflow), retry, notify_step."""
    reason_code: str | None = None
    status: str | None = None
    """notify_step: the cloud step's status."""
    output: dict[str, Any] = Field(default_factory=dict)


class DeviceReport(Contract):
    """A robot's heartbeat: its clock, the state the cloud's guards and planner read, and what it has done."""

    model_config = ConfigDict(frozen=True, extra="forbid", allow_inf_nan=False)

    boot: str = Field("", max_length=64)
    """The robot process's own id, new at every start: its ticks count from 0 again."""
    tick: int = Field(ge=0, le=2**53)
    clock_s: float = Field(ge=0, le=1e12)
    applied_seq: int = Field(0, ge=0, le=2**53)
    """The last command sequence number the robot applied (the cloud sends only later ones)."""
    state: dict[str, Scalar] = Field(default_factory=dict)
    """Each DeviceContext field the simulator reads (`device.<name>` in guards)."""
    pm25_by_room: dict[str, float] = Field(default_factory=dict)
    running_capabilities: list[str] = Field(default_factory=list)
    busy_workflows: list[str] = Field(default_factory=list)
    """Workflows with a task still queued, running or paused on the robot, or a callback not yet delivered."""


class DeviceCallback(DeviceEvent):
    """POST /v1/workflows/{id}/events: one TaskManager callback, with the robot's heartbeat when it sends one along."""

    reason_code: str | None = Field(None, max_length=64, pattern=r"^[A-Za-z0-9_.:-]+$")
    """A code, never text: what the robot says reaches the user only through the reply templates."""
    device_id: str | None = Field(None, max_length=64)
    report: DeviceReport | None = None

    @field_validator("output")
    @classmethod
    def _plain_output(cls, value: dict[str, Any]) -> dict[str, Any]:
        """Finite numbers, nested at most 8 deep (a reply repeats the output as JSON)."""
        def walk(v: Any, depth: int) -> None:
            if depth > 8:
                raise ValueError("nested more than 8 deep")
            if isinstance(v, float) and not math.isfinite(v):
                raise ValueError("numbers must be finite")
            for item in (v.values() if isinstance(v, dict) else v if isinstance(v, list) else ()):
                walk(item, depth + 1)
        walk(value, 0)
        return value


class CommandBatch(Contract):
    """The cloud's reply to a robot: every command after the one it last applied."""

    commands: list[DeviceCommand] = Field(default_factory=list)
    accepted: bool | None = None
    """For a callback: True when it was new, False when its event id was already stored (a duplicate)."""
