"""Plans and their checks: actions and conditions, steps, slots, the planner's output, the second-pass verdict,
typed plan violations, and the labels of a set row (`Expect`), which are written in the same terms.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from registry.contracts import (
    ConditionValue,
    Confidence,
    Contract,
    ExecutionTarget,
    Family,
    Operator,
    Scalar,
    Slots,
    SttNullSubtype,
    TurnMode,
    WaitPolicy,
)


class Action(Contract):
    """A registered capability operation with its arguments."""

    capability_id: str
    operation_id: str
    arguments: dict[str, Scalar] = Field(default_factory=dict)


class StateCondition(Contract):
    """Guard on the robot's state at release time."""

    kind: Literal["state"] = "state"
    path: str
    """An allowed state path such as device.battery_percent."""
    operator: Operator
    value: ConditionValue


class StepOutputCondition(Contract):
    """Guard on the stored output of an earlier step."""

    kind: Literal["step_output"] = "step_output"
    step_id: str
    field: str
    operator: Operator
    value: ConditionValue


Condition = Annotated[StateCondition | StepOutputCondition, Field(discriminator="kind")]


class Step(Contract):
    """One typed step of a plan."""

    id: str
    route: Family
    purpose: str
    skill_id: str | None = None
    depends_on: list[str] = Field(default_factory=list)
    input_from: list[str] = Field(default_factory=list)
    output_key: str
    execution_target: ExecutionTarget
    wait_policy: WaitPolicy
    action: Action | None = None
    condition: Condition | None = None
    token_text: str | None = None
    device_task: dict[str, Any] | None = None


class ExpectedAction(BaseModel):
    """One labelled action of a set row (UTTERANCE_SETS.md)."""

    model_config = ConfigDict(frozen=True, extra="allow")
    capability_id: str
    operation_id: str
    arguments: dict[str, Any] = Field(default_factory=dict)
    conditional: bool = False


class Expect(BaseModel):
    """A set row's labels: every key optional, the known ones typed; unknown keys are kept and ignored."""

    model_config = ConfigDict(frozen=True, extra="allow")
    family: Family | None = None
    routes: list[Family] | None = None
    turn_mode: TurnMode | None = None
    skill: str | None = None
    actions: list[ExpectedAction] | None = None
    missing_slots: list[str] | None = None
    slots: dict[str, Any] | None = None
    unsupported_category: str | None = None
    stt_null_subtype: SttNullSubtype | None = None
    experience_admission: Literal["candidate", "not_admitted"] | None = None
    no_device_action: bool | None = None
    admitted: bool | None = None
    desired_effects: list[str] | None = None
    temporal_relation: str | None = None
    unsupported_terminal_outcomes: list[str] | None = None


class ExperienceRequest(Contract):
    """Sidecar metadata binding several steps to one delegated goal (DESIGN section 6)."""

    admission_status: Literal["not_admitted", "candidate"]
    request_kind: str = ""
    delegated_outcome: str = ""
    coordination_requirements: list[str] = Field(default_factory=list)
    goal_summary: str = ""
    desired_effects: list[str] = Field(default_factory=list)
    unsupported_terminal_outcomes: list[str] = Field(default_factory=list)
    temporal_relation: Literal["after_planned_step", "after_existing_event", "clock_delay"] | None = None
    temporal_anchor_id: str | None = None
    prerequisite_capability_id: str | None = None
    dispatch_allowed: Literal[False] = False


class PlannerOutput(Contract):
    """The main planner's contract (DESIGN step 12)."""

    turn_mode: TurnMode
    selected_routes: list[Family]
    selected_flow_id: str
    selected_agent: str
    selected_skill: str
    owner_selection: str
    steps: list[Step]
    missing_slots: list[str] = Field(default_factory=list)
    slots: Slots = Field(default_factory=Slots)
    family_confidence: Confidence
    runner_up_family: Family | None = None
    needs_second_pass: bool = False
    ambiguity_reason: str | None = None
    unsupported_categories: list[str] = Field(default_factory=list)
    stt_null_subtype: SttNullSubtype | None = None
    stt_null_target_scope: str | None = None
    stt_null_recoverability: Literal["none", "low", "medium"] | None = None
    ask_follow_up: str | None = None
    tts_response: str
    experience_request: ExperienceRequest | None = None


class SecondPassVerdict(Contract):
    """The pairwise family judge's answer."""

    ran: bool
    pair: tuple[Family, Family] | None = None
    question: str | None = None
    winner: Family | None = None
    reason: list[str] = Field(default_factory=list)


ViolationCode = Literal[
    # the owner: a plan that breaks one of these keeps no owner when it fails closed
    "unknown_agent", "unknown_skill", "unknown_flow", "owner_disagrees", "flow_not_in_turn",
    # the registry
    "unknown_capability", "unknown_operation", "unknown_argument", "unknown_room", "argument_out_of_range",
    "missing_argument", "action_off_device", "token_text_written", "device_step_without_action",
    # the plan's own structure
    "duplicate_step", "route_not_selected", "dependency_order", "condition_order", "unobservable_condition",
    # what the turn asked for
    "route_owns_no_device", "ungrounded_step", "weakens_protection",
    # a model answer that never became a plan
    "invalid_answer",
]
OWNER_VIOLATIONS: frozenset[str] = frozenset({"unknown_agent", "unknown_skill", "unknown_flow", "owner_disagrees", "flow_not_in_turn",
                                              "invalid_answer"})


class PlanViolation(Contract):
    """One boundary a plan breaks (stages/boundaries.py): the plan checks, the model's repair prompt and the
    compiler all speak these."""

    code: ViolationCode
    step_id: str | None = None
    detail: str

    def __str__(self) -> str:
        return f"{self.step_id}: {self.detail}" if self.step_id else self.detail


class PlanCheckReport(Contract):
    """Hard boundaries checked after the planner."""

    ok: bool
    violations: list[PlanViolation]
    fail_closed: bool

    @property
    def owner_valid(self) -> bool:
        """No violation touches the owner: a fail-closed reply may keep it."""
        return not any(v.code in OWNER_VIOLATIONS for v in self.violations)

    def summary(self) -> str:
        return "; ".join(map(str, self.violations))


class ScheduleShortCircuit(Contract):
    """Whether an open SCH slot-filling workflow owns this turn (DESIGN step 10)."""

    active: bool
    reason: str


class OwnerChoice(Contract):
    """The first pass's owner family (the `owner_choice` node) and what the later stages read from it."""

    family: Family
    order: list[Family]
    """Families by score, restricted to the candidate pool's families."""
    runner_up: Family | None = None
    confidence: Confidence
    margin: float
    """Score gap between the two best families (before the candidate-pool filter)."""
    continuation: bool = False
    """An open schedule workflow owns the turn."""
    clause_families: list[Family | None] = Field(default_factory=list)
    """The top family of each deciding clause (None for the others)."""
    needs_second_pass: bool = False
    ambiguity: str | None = None
    plan_runner_up: Family | None = None
    """The runner-up the plan carries: only while the margin is not already high."""


class PlanRequest(Contract):
    """What the one plan builder is asked to plan: from the owner choice, or from the second pass's correction."""

    family: Family
    clause_families: list[Family | None]
    """The family each clause's steps go to (None: a guard or time clause, planned with its neighbours)."""
    continuation: bool = False
    """The turn continues an open schedule slot filling."""
    confidence: Confidence
    runner_up: Family | None = None
    needs_second_pass: bool = False
    ambiguity: str | None = None
