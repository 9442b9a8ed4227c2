"""Typed contracts shared by every layer: the literals, the turn input and the evidence of the stages.

They live on the ground floor so the stages, the runtime and the device side all speak the same
shapes without importing each other. Plans and their checks are in `registry/plan_contracts.py`,
DQR answers in `registry/knowledge_contracts.py`, the decision record in `registry/record_contracts.py`.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, get_args

from pydantic import BaseModel, ConfigDict, Field, field_validator

Family = Literal["ODL", "SCH", "FRG", "DQR", "DEF", "UNS", "STT_NULL"]
"""The owner families, written once: everything else (FAMILIES, the registries' checks, route order) derives from it."""
FAMILIES: tuple[str, ...] = get_args(Family)
TurnMode = Literal["singleton", "multi_turn", "multi_step", "parallel"]
Confidence = Literal["high", "medium", "low"]
WaitPolicy = Literal["submitted", "completed", "event"]
ExecutionTarget = Literal["cloud", "device"]
SttNullSubtype = Literal["HARD", "GENERIC", "SOFT"]
Operator = Literal["eq", "ne", "lt", "le", "gt", "ge", "in", "not_in"]
Scalar = int | float | str | bool
ConditionValue = Scalar | list[Scalar]


class Contract(BaseModel):
    """Base of every contract: immutable and strict about unknown fields."""

    model_config = ConfigDict(frozen=True, extra="forbid")


# --- turn input ---------------------------------------------------------------------------


class Slots(Contract):
    """Schedule slots (UTTERANCE_SETS.md), and the device act a question back waits on (ODL: capability_id and
    operation_id, the argument it lacks in missing_slots)."""

    function: str | None = None
    start_time: str | None = None
    end_time: str | None = None
    repeat_days: list[str] | None = None
    duration_s: int | None = None
    message: str | None = None
    capability_id: str | None = None
    operation_id: str | None = None


class SlotState(Slots):
    """An open slot filling carried in voice_context.slot_state: the keys the stages read are typed; other keys a
    session remembers (capability_id, room, ...) are kept as they are."""

    model_config = ConfigDict(frozen=True, extra="allow")
    owner_route: Family | None = None
    skill: str = ""
    missing_slots: list[str] = Field(default_factory=list)
    slots: dict[str, Any] = Field(default_factory=dict)

    @field_validator("owner_route", mode="before")
    @classmethod
    def _no_owner(cls, value: Any) -> Any:
        return None if value == "" else value


class VoiceContext(Contract):
    """What the voice session remembers from earlier turns."""

    last_route: str = ""
    """Family that owned the previous turn ("" when none)."""
    slot_state: dict[str, Any] = Field(default_factory=dict)
    """Open slot filling: owner_route, skill, function, filled slots, missing_slots (typed by SlotState)."""
    active_workflow_summary: str = ""
    """Short summary of a running workflow, e.g. "sch: stationary_purify create"."""
    pending_follow_up_text: str = ""
    """The follow-up question the assistant asked last, if any."""
    history_hint_strength: Literal["none", "weak", "medium", "strong"] = "none"
    """How much the history should weigh on this turn."""

    @field_validator("slot_state")
    @classmethod
    def _typed_slot_state(cls, value: dict[str, Any]) -> dict[str, Any]:
        """Checked against SlotState (a misspelt or mistyped key is an error), kept as the plain dict the stages read."""
        return SlotState.model_validate(value).model_dump(exclude_unset=True)


class HistoryTurn(Contract):
    """One earlier turn of the conversation."""

    text: str
    route: str = ""


class WorkflowContext(Contract):
    """Workflows running on the robot when the turn arrives."""

    active_workflow_id: str | None = None
    running_capabilities: list[str] = Field(default_factory=list)
    """Capability ids of device tasks currently running (for "끝나면" waits)."""


Reading = Annotated[float, Field(ge=0, le=1000)]
"""A PM2.5 reading in ug/m3: finite, never negative, at most what the sensor reports."""


class DeviceContext(Contract):
    """The robot's state; defaults are PRODUCT.md's simulator start. Every number is finite and in range."""

    model_config = ConfigDict(frozen=True, extra="forbid", allow_inf_nan=False)

    position: str = "거실"
    """Room the robot is in (any registered room name or id)."""
    station_room: str = "거실"
    docked: bool = True
    battery_percent: float = Field(80.0, ge=0, le=100)
    charging: bool = False
    fan_level: int = Field(2, ge=1, le=4)
    night_mode: bool = False
    privacy_mode: bool = False
    manner_mode: bool = False
    mute: bool = False
    sensor_mode: bool = False
    volume: int = Field(7, ge=0, le=15)
    brightness: int = Field(3, ge=1, le=5)
    hepa_remaining_percent: float = Field(64.0, ge=0, le=100)
    prefilter_days_since_wash: int = Field(9, ge=0, le=3650)
    pm25_by_room: dict[str, Reading] = Field(
        default_factory=lambda: {
            "living_room": 22.0,
            "master_bedroom": 12.0,
            "kitchen": 48.0,
            "small_room": 30.0,
            "study": 9.0,
            "kids_room": 80.0,
        }
    )
    temperature_c: float = Field(23.5, ge=-40, le=60)
    humidity_percent: float = Field(41.0, ge=0, le=100)


class TurnInput(Contract):
    """Everything one turn starts from."""

    recognized_text: str

    @field_validator("recognized_text")
    @classmethod
    def _unicode(cls, value: str) -> str:
        """Text that UTF-8 cannot carry (a lone surrogate from undecodable bytes) is refused, not routed."""
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            raise ValueError("recognized_text is not valid Unicode (a lone surrogate)") from None
        return value
    voice_context: VoiceContext = Field(default_factory=VoiceContext)
    history_context: list[HistoryTurn] = Field(default_factory=list)
    workflow_context: WorkflowContext = Field(default_factory=WorkflowContext)
    device_context: DeviceContext = Field(default_factory=DeviceContext)


# --- normalization -----------------------------------------------------------------------


class Morpheme(Contract):
    """One Kiwi morpheme with its character offset in the normalized text."""

    form: str
    tag: str
    start: int
    length: int
    unknown: bool = False  # a word outside Kiwi's dictionary, its tag Kiwi's guess (브므, 스느: noises, not names)


class NormalizedText(Contract):
    """The cleaned utterance and its morphemes."""

    original: str
    text: str
    """Spacing and symbols normalized, Korean number words turned into digits."""
    compact: str
    """text without spaces (alias matching tolerates spacing slips)."""
    morphemes: list[Morpheme]
    truncated: bool = False
    rejected_reason: str | None = None
    """Set when nothing usable survives normalization (empty, binary, no letters)."""


# --- evidence --------------------------------------------------------------------------


class AnchorMatch(Contract):
    """A registry entry found in the utterance."""

    kind: Literal["execution", "settings", "state_query", "unsupported", "device_qna", "product_identity", "room", "unknown_mode"]
    target: str
    """capability_id, category, topic, room_id or the mode word."""
    surface: str
    """The text that matched."""
    via: Literal["alias", "lemma", "frame", "ambiguous", "pattern", "fuzzy", "carried"]
    """carried: a manner whose head noun the clause before said (바람이 약해 / 좀 세게 해 줘)."""
    strength: float
    clause: int = 0


class EvidenceAxis(Contract):
    """One evidence axis: a signal with a strength, never a verdict."""

    strength: float = Field(ge=0.0, le=1.0)
    signals: list[str] = Field(default_factory=list)


Mood = Literal["request", "suggestion", "stop", "state_question", "knowledge_question", "question", "statement", "wish",
               "exclamation", "fragment", "condition"]
Polarity = Literal["affirmative", "prohibited", "negated"]
Agent = Literal["robot", "user", "third_person"]
ACTING_MOODS: frozenset[str] = frozenset({"request", "suggestion"})
"""Moods that ask the robot to do something."""


class SpeechAct(Contract):
    """What one clause does, read from its morphemes: the licence a device action needs."""

    clause: int
    mood: Mood
    """request/suggestion to the robot, a voice stop (멈춰, 그만), a question about its state or about what it can do / how
    something works, a plain question, statement, wish, exclamation, fragment, or a guard/time clause."""
    polarity: Polarity = "affirmative"
    """prohibited: -지 마 / X 말고; negated: 안 해도 돼."""
    agent: Agent = "robot"
    """Who would act: the robot (default), the speaker (내가 갈게), a third person (엄마가 ...)."""
    reported: bool = False
    """Reported or quoted speech (-래, -라고 했어, quotation marks)."""
    past: bool = False
    """A past narrative (어제 청정했어, 방금 끝났어)."""
    target_owner: str | None = None
    """Another thing in the home the clause's capability words are about (tv, phone, car...); None = the robot."""
    quoted_until: int = 0
    """Compact-text offset in the clause before which words are quoted content, not the request."""
    displayed: bool = False
    """The quote is a message the device shows (못 찾는다고 떠, E3라고 나와): a report about the device."""
    means_of: str | None = None
    """The clause (-어서) is only the means of its sentence's act, which the robot cannot do (찍어서 해명해라 -> 해명하)."""
    licenses_action: bool = False
    """An affirmative request to the robot: execution and settings steps may come from this clause."""
    licenses_state_query: bool = False
    """A request or question about the robot's own state: state-query steps may come from this clause."""
    signals: list[str] = Field(default_factory=list)
    """The morphemes and patterns that decided each field."""

    @property
    def asks_for_an_act(self) -> bool:
        """A request or suggestion (해 줄 수 있어? asks for the act, not whether it is possible)."""
        return self.mood in ACTING_MOODS


class LearnedEvidence(Contract):
    """The learned family model's reading of the turn: evidence axes, never a licence."""

    probabilities: dict[str, float] = Field(default_factory=dict)
    """Calibrated probability per family ({} when the registry has no model)."""
    model: str | None = None
    """The model's content digest and what it was fitted on."""


class Clause(Contract):
    """One clause of the utterance after segmentation on connectives."""

    index: int
    text: str
    compact: str
    connective: str = ""
    """The connective that ended the clause ("고", "어서", "면", "다음", ",")."""
    role: Literal["action", "guard", "temporal", "fragment"] = "action"
    speech_act: SpeechAct | None = None
    """The clause's mood, polarity, agent, time and target, with the signals that lit them."""


class PreclassifierHints(Contract):
    """Registry anchors and the evidence axes derived from them (DESIGN step 3)."""

    clauses: list[Clause]
    anchors: list[AnchorMatch]
    axes: dict[str, EvidenceAxis]
    clause_axes: list[dict[str, EvidenceAxis]]
    """The same axes computed per clause (multi-route plans pick a family per clause)."""
    unsupported_request_categories: list[str]
    device_qna_topics: list[str]
    product_identity_anchors: list[str]
    stt_null_response_strategy: Literal["none", "scoped_probe", "clarify", "retry"]

    def strength(self, axis: str) -> float:
        """Strength of an axis, 0 when it did not light."""
        found = self.axes.get(axis)
        return found.strength if found else 0.0

    def flag(self, name: str) -> bool:
        """The derived DESIGN hint `has_*` / `looks_*` as a boolean."""
        return self.strength(name) > 0.0


class HistoryEvidence(Contract):
    """What the history contributes to this turn (supporting evidence only)."""

    continuation_route: str | None = None
    open_slot_state: dict[str, Any] = Field(default_factory=dict)
    missing_slots: list[str] = Field(default_factory=list)
    active_schedule_workflow: bool = False
    strength: float = 0.0
    addressee_spoke_last: bool = False
    """The one spoken to spoke last (the voice context holds the robot's earlier turn: a route, a follow-up question,
    an open slot): an opening 응 or 네 may answer it rather than somebody else."""


class AllowedRouteFamilies(Contract):
    """Families the evidence keeps alive (DESIGN step 4)."""

    families: list[Family]
    reasons: dict[str, list[str]]


class Flow(Contract):
    """One menu entry: a skill of an agent inside a route family."""

    flow_id: str
    route_family: Family
    agent_id: str
    skill_id: str
    purpose: str
    when_to_use: str
    when_not_to_use: str
    required_capabilities: list[str]
    execution_mode: Literal["device", "cloud"]


class FlowCatalog(Contract):
    """The flows the planner may choose from."""

    flows: list[Flow]

    def ids(self) -> set[str]:
        return {flow.flow_id for flow in self.flows}


class RankedFlow(Contract):
    flow_id: str
    confidence: float
    rationale: str


class RankedFlows(Contract):
    """Ordered flow candidates: a prior for the planner, never the final word."""

    top_flows: list[RankedFlow]
    candidate_agent_ids: list[str]
    candidate_skill_ids: list[str]
    ranked_owner_selection: str | None
    owner_hint_strength: float


ObjectType = Literal[
    "supported_device",
    "unsupported_execution_target",
    "public_entity",
    "outside_option",
    "device_knowledge",
    "workflow_target",
    "conversation",
    "unknown",
]


class ReplyObjectMeta(Contract):
    """What the first useful reply is about."""

    object_type: ObjectType
    role: str
    confidence: float
    reason_signals: list[str]


class ReplyabilityMeta(Contract):
    """Whether a bounded reply can start now."""

    replyability_type: Literal["bounded_reply_now", "whole_intent_repair", "uncertain"]
    confidence: float
    reason: list[str]


class CandidatePool(Contract):
    """Final agents and skills the planner may choose from, with where they came from."""

    agent_ids: list[str]
    skill_ids: list[str]
    flow_ids: list[str]
    source: Literal["ranked_flows", "preclassifier_fallback", "active_schedule_workflow"]


class FamilyScores(Contract):
    """The weighted evidence combination: why a family won."""

    scores: dict[str, float]
    contributions: dict[str, dict[str, float]]
    """family -> axis -> weight * strength (only non-zero terms)."""
    probabilities: dict[str, float]
