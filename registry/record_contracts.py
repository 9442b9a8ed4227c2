"""The decision record: one line of decisions.jsonl and what `a2a route --json` prints, with the usage of a turn."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from registry.contracts import Clause, Confidence, Contract, EvidenceAxis, Family, ReplyabilityMeta, ReplyObjectMeta, TurnMode
from registry.experience import ExperienceAdmission
from registry.knowledge_contracts import KnowledgeAnswer
from registry.model_contracts import PlannerProvenance
from registry.plan_contracts import ExperienceRequest, PlanCheckReport, ScheduleShortCircuit, SecondPassVerdict, Step


class Usage(Contract):
    model_calls: int = 0
    prompt_tokens: int = 0
    output_tokens: int = 0
    model_ms: dict[str, float] = Field(default_factory=dict)
    """Model-call latency per model stage (main_planner, second_pass_judge, ...), retries included."""
    stage_ms: dict[str, float] = Field(default_factory=dict)
    total_ms: float = 0.0


class DecisionEvidence(Contract):
    """What decided the turn, as the stages' own contracts: the record is read by attribute, never by key.

    An error record (a turn that never reached the planner) carries the defaults."""

    normalized_text: str = ""
    truncated: bool = False
    rejected_reason: str | None = None
    clauses: list[Clause] = Field(default_factory=list)
    axes: dict[str, EvidenceAxis] = Field(default_factory=dict)
    """The turn's evidence axes, each with the signals that lit it."""
    clause_axes: list[dict[str, float]] = Field(default_factory=list)
    """Axis strengths per clause."""
    candidate_families: list[Family] = Field(default_factory=list)
    unsupported_request_categories: list[str] = Field(default_factory=list)
    device_qna_topics: list[str] = Field(default_factory=list)
    stt_null_response_strategy: Literal["none", "scoped_probe", "clarify", "retry"] = "none"
    family_scores: dict[str, float] = Field(default_factory=dict)
    family_contributions: dict[str, dict[str, float]] = Field(default_factory=dict)
    """family -> axis -> weight * strength: the "why" terms."""
    reply_object_meta: ReplyObjectMeta | None = None
    replyability_meta: ReplyabilityMeta | None = None
    candidate_pool_source: str | None = None
    schedule_short_circuit: ScheduleShortCircuit | None = None
    second_pass: SecondPassVerdict | None = None
    plan_checks: PlanCheckReport | None = None
    planner: PlannerProvenance | None = None
    stt_null_target_scope: str | None = None
    experience_request: ExperienceRequest | None = None
    experience_admission: ExperienceAdmission | None = None


class DecisionRecord(Contract):
    """One line of decisions.jsonl, and what `a2a route --json` prints."""

    id: str | None = None
    text: str
    trace_id: str
    selected_routes: list[str] = Field(default_factory=list)
    family: Family | None = None
    turn_mode: TurnMode | None = None
    selected_flow_id: str | None = None
    selected_agent: str | None = None
    selected_skill: str | None = None
    steps: list[Step] = Field(default_factory=list)
    missing_slots: list[str] = Field(default_factory=list)
    slots: dict[str, Any] = Field(default_factory=dict)
    family_confidence: Confidence | None = None
    runner_up_family: str | None = None
    needs_second_pass: bool = False
    second_pass_ran: bool = False
    unsupported_categories: list[str] = Field(default_factory=list)
    stt_null_subtype: str | None = None
    experience_admission: str | None = None
    """What the planner proposed: candidate | not_admitted."""
    experience_status: str | None = None
    """What the deterministic admission decided: admitted | not_admitted."""
    ask_follow_up: str | None = None
    tts_response: str | None = None
    stops_active_workflow: bool = False
    """A voice stop (멈춰, 그만, 정지): the runtime cancels the running workflow through the TaskManager."""
    answer: KnowledgeAnswer | None = None
    """The grounded answer of a DQR turn, when the run asked for answers (`a2a ask`, `a2a batch --answer`)."""
    evidence: DecisionEvidence = Field(default_factory=DecisionEvidence)
    usage: Usage = Field(default_factory=Usage)
    error: str | None = None
    warnings: list[str] = Field(default_factory=list)
    """What was ignored to route the turn (a set row's unknown context field or unregistered room)."""
