"""Contracts of the cloud runtime: decision points (the seam a supervisor plugs into), cloud step
results, schedule records and the report of a run (what `a2a run --json` prints)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from registry.contracts import Contract
from registry.plan_contracts import Step
from registry.goal_contracts import GoalReport

WorkflowStatus = Literal[
    "running", "completed", "failed", "blocked", "paused", "timeout", "needs_user_input", "cancelled", "incomplete", "rejected",
]
"""incomplete: a step's terminal evidence never reached the cloud; rejected: nothing could be compiled or validated."""
DecisionAction = Literal["continue", "wait", "ask_user", "retry_local", "replan", "complete", "cancel"]


class DecisionPoint(Contract):
    """Opened by FAILED, BLOCKED, PAUSED, TIMEOUT, NEEDS_USER_INPUT, requires_cloud_decision or a missing terminal evidence."""

    workflow_id: str
    step_id: str
    capability_id: str | None = None
    event_id: str | None = None
    """None when no event arrived (terminal_evidence_missing)."""
    event_name: str
    reason_code: str | None = None
    observed_at: float
    step_status: str


class Decision(Contract):
    """A decision handler's answer. Until the Experience supervisor lands the runtime's default ends
    the workflow with an honest report (`cancel` of what is left)."""

    action: DecisionAction
    reason: str
    ask_text: str | None = None
    """For ask_user: the question to the user; for cancel and complete: what the user is told beside the step results."""
    steps: list[Step] = Field(default_factory=list)
    """For replan: steps appended to the workflow (ids must be new; they may depend on earlier steps)."""


class ScheduleRecord(Contract):
    """A schedule a SCH step registered."""

    schedule_id: str
    workflow_id: str
    kind: Literal["device_task", "alarm", "reminder", "timer"]
    function: str | None = None
    """A schedulable capability id (device_task)."""
    start_time: str | None = None
    """HH:MM."""
    end_time: str | None = None
    repeat_days: list[str] = Field(default_factory=list)
    """mon..sun or daily; empty: once."""
    duration_s: int | None = None
    message: str | None = None
    status: Literal["active", "cancelled"] = "active"
    created_clock_s: float = 0.0


class CloudStepResult(Contract):
    """What a route composer produced for a cloud step (stored by step_id and output_key)."""

    text: str
    data: dict[str, Any] = Field(default_factory=dict)
    """Structured output later steps read (e.g. condition_met for a guard; None when unknown)."""
    sources: list[str] = Field(default_factory=list)
    """Evidence the text was composed from (step ids, record fields, source ids)."""
    status: Literal["completed", "needs_user_input", "failed"] = "completed"
    reason_code: str | None = None
    schedule: ScheduleRecord | None = None
    """A schedule to persist (SCH create); the composer itself writes nothing."""
    cancel_schedules: list[str] = Field(default_factory=list)


class StepReport(Contract):
    step_id: str
    capability_id: str | None = None
    route: str
    status: str
    reason_code: str | None = None
    terminal_evidence: str | None = None
    output: dict[str, Any] = Field(default_factory=dict)


class Clocks(Contract):
    first_response_ms: float | None = None
    """Wall milliseconds from the turn's start to the first words the user hears."""
    completion_sim_s: float | None = None
    """Simulated seconds from submission to the workflow's end (terminal evidence or final decision)."""


class RunReport(Contract):
    """The result of one turn (or path A request) run end to end."""

    trace_id: str
    workflow_id: str
    status: WorkflowStatus
    reason_code: str | None = None
    steps: list[StepReport]
    response: str
    ack: str | None = None
    clocks: Clocks
    decisions: list[dict[str, Any]] = Field(default_factory=list)
    goal: GoalReport | None = None
    """The admitted Experience goal (None when the turn was not admitted: no Experience metadata)."""

    def cli_json(self) -> dict[str, Any]:
        """The shape `a2a run --json` prints."""
        return {
            "trace_id": self.trace_id, "workflow_id": self.workflow_id, "status": self.status, "reason_code": self.reason_code,
            "steps": [{"step_id": s.step_id, "capability_id": s.capability_id, "status": s.status, "reason_code": s.reason_code,
                       "terminal_evidence": s.terminal_evidence, "output": s.output} for s in self.steps],
            "response": self.response, "clocks": self.clocks.model_dump(),
            "decisions_spent": len(self.decisions), "decisions": self.decisions,
            **({"goal": self.goal.model_dump()} if self.goal is not None else {}),
        }
