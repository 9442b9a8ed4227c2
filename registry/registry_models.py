"""The registry files as pydantic models: capabilities with their operations, arguments and prerequisites,
unsupported categories, manual topics, skills and agents, rooms, and the evidence weights.

`registry/loader.py` reads the files into these models and builds the indexes the stages match against.
"""

from __future__ import annotations

from functools import cached_property

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from registry.contracts import FAMILIES, Family


CONSENT_CAPABILITY = "request_consent"
"""The capability that asks the user before a capability that requires consent."""


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class ArgumentSpec(_Model):
    type: Literal["room", "integer", "string", "boolean"]
    required: bool = False
    default: int | str | bool | None = None
    minimum: int | None = None
    maximum: int | None = None
    alternative_to: str | None = None
    """This argument may stand in for another ("delta" for "level": "한 단계 올려")."""


class Operation(_Model):
    operation_id: str
    task_method: str
    arguments: dict[str, ArgumentSpec] = Field(default_factory=dict)
    param_map: dict[str, str] = Field(default_factory=dict)
    """Planner argument name -> device task param name."""
    terminal_evidence: list[str]
    effect: str
    cues: list[str] = Field(default_factory=list)
    weakens_protection: bool = False
    """Switching this lowers a protection the user set up (privacy off, sensor off, sound back on): a plan may
    hold it only when the turn asked for exactly this operation (stages/boundaries.py)."""

    def unset(self, arguments: dict) -> str | None:
        """The argument a call must give and `arguments` does not: a required one, or one that others stand in for
        (level, or delta for it: 바람 좀 해 줘 says neither) when neither is given."""
        for name, spec in self.arguments.items():
            stand_ins = [n for n, s in self.arguments.items() if s.alternative_to == name]
            if (spec.required or stand_ins) and name not in arguments and not any(n in arguments for n in stand_ins):
                return name
        return None


class GuardTemplate(_Model):
    kind: Literal["state", "step_output"]
    operator: Literal["eq", "ne", "lt", "le", "gt", "ge", "in", "not_in"]
    value: Any
    path: str | None = None
    field: str | None = None


class Prerequisite(_Model):
    """A step a plan may add before this capability although the turn did not name it."""

    capability_id: str
    when: Literal["always", "room_named"]
    """always: every use needs it (consent before a photo); room_named: a move to a room the action's clause names."""


class Repeat(_Model):
    """A count said with a counter ("사진 두 장") repeats the action that many times, up to `maximum`."""

    counters: list[str]
    maximum: int = Field(ge=1, le=20)


class Capability(_Model):
    capability_id: str
    kind: Literal["execution", "settings", "state_query"]
    description: str
    operations: list[Operation]
    aliases: list[str]
    lemmas: list[str] = Field(default_factory=list)
    """Kiwi lemma/tag cues (e.g. a verb of motion) that anchor only with their companions; a run written
    lemma/tag+lemma/tag (어디/NP+이/VCP) anchors as an alias does, in whatever ending it is said; a first part
    {room}/NNG stands for any registered room name (거실이야 -> {room}/NNG+이/VCP)."""
    requires_room: bool = False
    internal: bool = False
    requires_consent: bool = False
    prerequisites: list[Prerequisite] = Field(default_factory=list)
    """What a plan may put before this capability on its behalf besides consent (see `steps_before`); anything else a
    turn did not ask for is ungrounded."""
    repeat: Repeat | None = None
    policies: list[str] = Field(default_factory=list)
    level_words: dict[str, int] = Field(default_factory=dict)
    argument_words: dict[str, dict[str, int]] = Field(default_factory=dict)
    """Words that set an argument ("반 바퀴" -> degrees 180)."""
    intensity_via: str | None = None
    """The setting that makes this action stronger or weaker ("청정 세게" -> fan_speed)."""
    scope_variants: dict[str, str] = Field(default_factory=dict)
    """Scope cue set (lexicon `scopes`) -> the capability this one means under it: purifying with an in-place
    cue anywhere in the turn (움직이지 말고 ... 청정만 해) is the stationary purify; with a whole-home cue, the
    scanning clean. A named room keeps the capability as it is (that turn moves first)."""
    subsumes: list[str] = Field(default_factory=list)
    """Capabilities this one already includes when both anchor in one clause ("모든 방 돌면서 청정")."""
    guard_conditions: dict[Literal["need", "negative", "positive"], GuardTemplate] = Field(default_factory=dict)
    op_hint_in_alias: dict[str, str] = Field(default_factory=dict)
    whole_request_aliases: list[str] = Field(default_factory=list)
    """Aliases that name the act in full (음소거: mute it): said bare, the word is the request's whole frame."""
    schedulable: bool
    timeout_s: int

    @model_validator(mode="after")
    def _operations_known(self) -> "Capability":
        ids = [op.operation_id for op in self.operations]
        if len(ids) != len(set(ids)):
            raise ValueError(f"duplicate operation ids {ids}")
        for alias, op_id in self.op_hint_in_alias.items():
            if op_id not in ids:
                raise ValueError(f"op_hint_in_alias[{alias!r}] names unknown operation {op_id!r}")
        if unknown := [a for a in self.whole_request_aliases if a not in self.aliases]:
            raise ValueError(f"whole_request_aliases {unknown} are not aliases of {self.capability_id}")
        return self

    def operation(self, operation_id: str) -> Operation | None:
        return next((op for op in self.operations if op.operation_id == operation_id), None)

    @property
    def steps_before(self) -> list[Prerequisite]:
        """Every prerequisite: the declared ones, and the consent step a capability that requires consent always gets."""
        consent = [Prerequisite(capability_id=CONSENT_CAPABILITY, when="always")] if self.requires_consent else []
        return [*consent, *self.prerequisites]


class UnsupportedCategory(_Model):
    category: str
    aliases: list[str]
    offer: str | None = None
    mechanism: str | None = None


class QnaTopic(_Model):
    topic: str
    aliases: list[str]
    shown_on_device: bool = False
    """What the robot itself shows (an error code, a warning light): said to be on display, it reports a problem
    (E1 떴어), where a topic like the electricity bill coming out (전기세 나왔어) does not."""


class AmbiguousAnchor(_Model):
    term: str
    capability_id: str
    default_scope: Literal["indoor", "outdoor"]
    weak: bool = False


class ClassificationHints(_Model):
    ambiguous_anchors: list[AmbiguousAnchor]
    indoor_scope_cues: list[str]
    outdoor_scope_cues: list[str]
    outside_cues: list[str] = Field(default_factory=list)
    """Words that place even an explicit indoor query outside (바깥 공기 괜찮나?): the robot does not measure there."""
    unknown_mode_pattern_suffix: str
    schedulable_default_function: str | None = None


class CapabilityRegistry(_Model):
    registry_version: str
    contract_version: str
    capabilities: list[Capability]
    unsupported_request_categories: list[UnsupportedCategory]
    device_qna_topics: list[QnaTopic]
    product_identity_anchors: list[str]
    classification_hints: ClassificationHints
    product_identity_runs: list[list[str]] = Field(default_factory=list)
    """Lemma runs (form/TAG, in order) that ask who made the robot or what it is, in a clause that names it."""
    product_identity_runs_note: str = ""

    @cached_property
    def shown_topics(self) -> frozenset[str]:
        """The manual topics the robot shows on itself (QnaTopic.shown_on_device)."""
        return frozenset(t.topic for t in self.device_qna_topics if t.shown_on_device)

    @model_validator(mode="after")
    def _unique(self) -> "CapabilityRegistry":
        ids = [c.capability_id for c in self.capabilities]
        dupes = {i for i in ids if ids.count(i) > 1}
        if dupes:
            raise ValueError(f"duplicate capability ids {sorted(dupes)}")
        known = set(ids)
        for cat in self.unsupported_request_categories:
            if cat.offer and cat.offer not in known:
                raise ValueError(f"category {cat.category} offers unknown capability {cat.offer}")
        for amb in self.classification_hints.ambiguous_anchors:
            if amb.capability_id not in known:
                raise ValueError(f"ambiguous anchor {amb.term} names unknown capability {amb.capability_id}")
        return self


class Skill(_Model):
    skill_id: str
    purpose: str
    when_to_use: str
    when_not_to_use: str
    required_capabilities: list[str]
    execution_mode: Literal["device", "cloud"]
    slots: list[str] = Field(default_factory=list)


class Agent(_Model):
    agent_id: str
    route_family: Family
    description: str
    skills: list[Skill]


class SkillRegistry(_Model):
    registry_version: str
    agents: list[Agent]


class Room(_Model):
    room_id: str
    names: list[str] = Field(min_length=1)
    distance_from_living_m: float = Field(ge=0)

    @property
    def canonical_name(self) -> str:
        return self.names[0]


class RoomRegistry(_Model):
    rooms: list[Room]
    station_room: str
    speed_m_per_s: float = Field(gt=0)


class LearnedOpening(_Model):
    """Where the learned tier opens beyond the gray zone: between replies, never toward an action."""

    families: list[str] = Field(default_factory=list)
    """Families whose plans hold no device step of their own: when the lexical winner and the learned winner are
    both among them, the learned terms count at any margin, scaled by `scale`."""
    min_probability: float = Field(0.7, ge=0.0, le=1.0)
    """The learned winner's probability that opens it."""
    scale: float = Field(1.0, ge=0.0)
    """Multiplies the learned terms when the opening (not the gray zone) lets them in."""
    unless: list[str] = Field(default_factory=list)
    """Axes that keep it shut: a licensed device anchor means the turn asks the robot to act, and a learned score
    never re-reads such a turn."""
    unless_for: dict[str, list[str]] = Field(default_factory=dict)
    """Axes (or `axis=signal`) that keep it shut toward one family: UNS answers a request, so the speaker's own
    act (has_unlicensed_speech_act=user: 불 꺼 줄께, a promise) never opens it by a learned score."""


class EvidenceWeights(_Model):
    version: str
    description: str = ""
    families: list[str]
    bias: dict[str, float]
    weights: dict[str, dict[str, float]]
    confidence: dict[str, float]
    second_pass: dict[str, Any]
    strengths: dict[str, float]
    learned_gray_margin: float = Field(2.0, ge=0.0)
    """The learned family axes light only when the lexical scores' top two are closer than this (a gray zone)."""
    learned_opening: LearnedOpening = Field(default_factory=lambda: LearnedOpening())
    learned_min_chars: int = Field(0, ge=0)
    """The learned model abstains on a text shorter than this (compact characters): a character model has no
    evidence in a lone particle or a two-syllable noun (는, 맘마), only its prior."""
    learned_closed_by: list[str] = Field(default_factory=list)
    """Axes that decide by mechanism, not by wording (a clock delay holding device steps, an open slot answer,
    a voice stop): while one is lit the learned tier stays closed."""
    closed_by_a_person_called: list[str] = Field(default_factory=list)
    """Axes of what a question or a request asks (a device question, a public lookup, a schedule, an unsupported
    act): a turn said to a person (엄마 오늘 미세먼지 어떻대?) asks none of it of the robot, so they leave it."""

    @model_validator(mode="after")
    def _families(self) -> "EvidenceWeights":
        unknown = (set(self.families) | set(self.bias) | set(self.weights) | set(self.learned_opening.families)) - set(FAMILIES)
        if unknown:
            raise ValueError(f"unknown families {sorted(unknown)}")
        return self
