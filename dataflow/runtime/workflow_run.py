"""The state of one running workflow as the orchestrator keeps it: its steps' states, cloud results, decisions,
and the seam a decision handler answers through (`DecisionHandler`; `EndWithReport` is the plain default)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

from registry.device_contracts import CompiledStep, CompiledWorkflow
from registry.record_contracts import DecisionRecord
from registry.runtime_contracts import CloudStepResult, Decision, DecisionPoint, StepReport


class DecisionHandler(Protocol):
    def decide(self, point: DecisionPoint, run: "WorkflowRun") -> Decision: ...


class EndWithReport:
    """Stop what is left and report honestly (the runtime's default is the Experience supervisor, dataflow/runtime/supervisor.py)."""

    def decide(self, point: DecisionPoint, run: "WorkflowRun") -> Decision:
        return Decision(action="cancel", reason=f"no supervisor: end with a report ({point.event_name} {point.reason_code or ''})".strip())


@dataclass
class StepState:
    step: CompiledStep
    status: str = "pending"
    reason_code: str | None = None
    evidence: str | None = None
    attempt: int = 1
    output: dict[str, Any] = field(default_factory=dict)
    retried: bool = False

    def report(self) -> StepReport:
        return StepReport(step_id=self.step.step_id, capability_id=self.step.capability_id, route=self.step.route, status=self.status,
                          reason_code=self.reason_code, terminal_evidence=self.evidence, output=self.output)


@dataclass
class WorkflowRun:
    compiled: CompiledWorkflow
    record: DecisionRecord | None
    kind: str
    states: dict[str, StepState]
    submit_tick: int
    started_wall: float
    ack: str | None = None
    status: str = "running"
    reason_code: str | None = None
    cloud_results: dict[str, CloudStepResult] = field(default_factory=dict)
    first_response_ms: float | None = None
    finished_tick: int | None = None
    quiet_since: int | None = None
    response: str = ""
    decisions: list[dict[str, Any]] = field(default_factory=list)
    replaced: set[str] = field(default_factory=set)
    """Steps a replan took over: reported as they ended, not counted in the workflow's status."""
    added: set[str] = field(default_factory=set)
    """Steps a replan appended; those their guard skipped (a search's unneeded rooms) are left out of the answer."""
    extra_ticks: int = 0
    """Simulated seconds the appended steps may take on top of the workflow's first budget."""
    quiet: set[str] = field(default_factory=set)
    """Steps the answer leaves out (a workflow refused before it started speaks only its reason)."""

    @property
    def workflow_id(self) -> str:
        return self.compiled.workflow_id

    @property
    def done(self) -> bool:
        return self.status != "running"

    def inputs_of(self, st: StepState) -> dict[str, Any]:
        """What a cloud step reads from the steps before it (by output key): their cloud result or device output."""
        by_key = {s.step.output_key: s for s in self.states.values()}
        return {key: self.cloud_results.get(by_key[key].step.step_id) or by_key[key].output
                for key in st.step.input_from if key in by_key}

    def outputs(self) -> dict[str, dict[str, Any]]:
        """step_id -> what later guards read (device outputs and cloud results' data)."""
        outs = {sid: st.output for sid, st in self.states.items() if st.status == "completed" and st.step.execution_target == "device"}
        outs.update({sid: r.data for sid, r in self.cloud_results.items()})
        return outs
