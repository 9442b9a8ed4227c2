"""Load and validate the registry files; build the indexes the stages match against.

`from_files -> from_dicts -> Registry`: file reading stays in the outer layer, and a
validation error names the file and the field.
"""

from __future__ import annotations

import json
from functools import cached_property
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from registry.contracts import FAMILIES, Family, Flow, FlowCatalog
from registry.errors import RegistryError
from registry.experience import EffectCatalog
from registry.learned_model import LEARNED_FILE, LearnedFamilyModel
from registry.speech_contracts import ProductVocabulary, RequestFrames, SpeechActLexicon

REGISTRY_DIR = Path(__file__).resolve().parent
FILES = {
    "capabilities": "capability_registry.v2.json",
    "skills": "skill_registry.json",
    "rooms": "rooms.json",
    "lexicon": "lexicon.json",
    "weights": "evidence_weights.json",
    "effects": "effect_catalog.v1.json",
    "speech_acts": "speech_acts.json",
    "frames": "request_frames.json",
    "product": "product_vocabulary.json",
}


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
    """Kiwi lemma/tag cues (e.g. a verb of motion) that anchor only with their companions."""
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
    intensity_via: str | None = None
    """The setting that makes this action stronger or weaker ("청정 세게" -> fan_speed)."""
    subsumes: list[str] = Field(default_factory=list)
    """Capabilities this one already includes when both anchor in one clause ("모든 방 돌면서 청정")."""
    """Words that set an argument ("반 바퀴" -> degrees 180)."""
    guard_conditions: dict[Literal["need", "negative", "positive"], GuardTemplate] = Field(default_factory=dict)
    op_hint_in_alias: dict[str, str] = Field(default_factory=dict)
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
    learned_closed_by: list[str] = Field(default_factory=list)
    """Axes that decide by mechanism, not by wording (a clock delay holding device steps, an open slot answer,
    a voice stop): while one is lit the learned tier stays closed."""

    @model_validator(mode="after")
    def _families(self) -> "EvidenceWeights":
        unknown = (set(self.families) | set(self.bias) | set(self.weights) | set(self.learned_opening.families)) - set(FAMILIES)
        if unknown:
            raise ValueError(f"unknown families {sorted(unknown)}")
        return self


class Registry:
    """All registries plus derived indexes. Built once per process and passed into the DAG."""

    def __init__(
        self,
        capabilities: CapabilityRegistry,
        skills: SkillRegistry,
        rooms: RoomRegistry,
        lexicon: dict[str, Any],
        weights: EvidenceWeights,
        effects: EffectCatalog | None = None,
        speech_acts: SpeechActLexicon | None = None,
        frames: RequestFrames | None = None,
        learned: LearnedFamilyModel | None = None,
        product: ProductVocabulary | None = None,
    ):
        self.capabilities = capabilities
        self.skills = skills
        self.rooms = rooms
        self.lexicon = lexicon
        self.weights = weights
        self.effects = effects
        self.speech_acts = speech_acts or _default("speech_acts", SpeechActLexicon)
        self.frames = frames or _default("frames", RequestFrames)
        self.product = product or _default("product", ProductVocabulary)
        """Nouns naming this product, its parts and properties (questions about them go to the manual)."""
        self.learned = learned
        """The learned family model (evidence only), None when the registry has none."""
        self._check_cross_references()

    def _check_cross_references(self) -> None:
        for a_i, agent in enumerate(self.skills.agents):
            for s_i, skill in enumerate(agent.skills):
                for cap in skill.required_capabilities:
                    if cap not in self.capability_by_id:
                        raise RegistryError(
                            FILES["skills"],
                            f"agents[{a_i}].skills[{s_i}].required_capabilities",
                            f"unknown capability {cap!r}",
                        )
        for c_i, cap in enumerate(self.capabilities.capabilities):
            for p_i, pre in enumerate(cap.prerequisites):
                if pre.capability_id not in self.capability_by_id or pre.capability_id == cap.capability_id:
                    raise RegistryError(FILES["capabilities"], f"capabilities[{c_i}].prerequisites[{p_i}]",
                                        f"unknown or circular capability {pre.capability_id!r}")
        if self.effects is not None:
            self._check_effects(self.effects)
        known_categories = {c.category for c in self.capabilities.unsupported_request_categories}
        for i, frame in enumerate(self.frames.unsupported.categories):
            if frame.category not in known_categories:
                raise RegistryError(FILES["frames"], f"unsupported.categories[{i}]", f"unknown category {frame.category!r}")
        for cap_id in self.frames.capabilities:
            if cap_id not in self.capability_by_id:
                raise RegistryError(FILES["frames"], f"capabilities.{cap_id}", "unknown capability")
        if self.rooms.station_room not in self.room_by_id:
            raise RegistryError(FILES["rooms"], "station_room", f"unknown room {self.rooms.station_room!r}")

    def _check_effects(self, effects: EffectCatalog) -> None:
        """Every capability operation's effect is in the catalog with that provider, and back."""
        file = FILES["effects"]
        for c in self.capabilities.capabilities:
            for op in c.operations:
                effect = effects.effect_of(c.capability_id, op.operation_id)
                if effect is None or effect.effect_id != op.effect:
                    raise RegistryError(file, f"effects[{op.effect}]", f"missing provider {c.capability_id}.{op.operation_id}")
                if effect.terminal_evidence != op.terminal_evidence:
                    raise RegistryError(file, f"effects[{op.effect}].terminal_evidence", "differs from the capability registry")
        for e_i, effect in enumerate(effects.effects):
            for p_i, p in enumerate(effect.providers):
                where = f"effects[{e_i}].providers[{p_i}]"
                if p.kind == "capability_operation":
                    cap = self.capability_by_id.get(p.capability_id or "")
                    if cap is None or cap.operation(p.operation_id or "") is None:
                        raise RegistryError(file, where, f"unknown capability operation {p.key}")
                elif p.skill_id not in self.skill_ids or p.agent_id not in self.agent_ids:
                    raise RegistryError(file, where, f"unknown skill provider {p.key}")
                if p.tier not in effects.tiers:
                    raise RegistryError(file, where + ".tier", f"unknown tier {p.tier!r}")

    # -- capabilities -------------------------------------------------------------------

    @cached_property
    def capability_by_id(self) -> dict[str, Capability]:
        return {c.capability_id: c for c in self.capabilities.capabilities}

    @cached_property
    def task_methods(self) -> set[str]:
        return {op.task_method for c in self.capabilities.capabilities for op in c.operations}

    @cached_property
    def unsupported_categories(self) -> list[str]:
        return [c.category for c in self.capabilities.unsupported_request_categories]

    # -- skills and flows ---------------------------------------------------------------

    @cached_property
    def agent_ids(self) -> set[str]:
        return {a.agent_id for a in self.skills.agents}

    @cached_property
    def skill_ids(self) -> set[str]:
        return {s.skill_id for a in self.skills.agents for s in a.skills}

    @cached_property
    def flow_catalog(self) -> FlowCatalog:
        """The skill registry expanded as `{family}.{agent}.{skill}`."""
        flows = [
            Flow(
                flow_id=f"{agent.route_family}.{agent.agent_id}.{skill.skill_id}",
                route_family=agent.route_family,
                agent_id=agent.agent_id,
                skill_id=skill.skill_id,
                purpose=skill.purpose,
                when_to_use=skill.when_to_use,
                when_not_to_use=skill.when_not_to_use,
                required_capabilities=skill.required_capabilities,
                execution_mode=skill.execution_mode,
            )
            for agent in self.skills.agents
            for skill in agent.skills
        ]
        return FlowCatalog(flows=flows)

    @cached_property
    def device_families(self) -> frozenset[str]:
        """Families whose agent owns a skill that runs on the device: the only routes a device step may sit under."""
        return frozenset(a.route_family for a in self.skills.agents if any(s.execution_mode == "device" for s in a.skills))

    @cached_property
    def flow_by_id(self) -> dict[str, Flow]:
        return {f.flow_id: f for f in self.flow_catalog.flows}

    def agent_for_family(self, family: str) -> str:
        return next(a.agent_id for a in self.skills.agents if a.route_family == family)

    def default_skill(self, family: str) -> str:
        return next(a.skills[0].skill_id for a in self.skills.agents if a.route_family == family)

    def flow_id(self, family: str, skill_id: str) -> str:
        return f"{family}.{self.agent_for_family(family)}.{skill_id}"

    # -- rooms ----------------------------------------------------------------------------

    @cached_property
    def room_by_id(self) -> dict[str, Room]:
        return {r.room_id: r for r in self.rooms.rooms}

    @cached_property
    def room_names(self) -> list[tuple[str, str]]:
        """(compact name, room_id), longest names first, for matching."""
        pairs = [(name.replace(" ", ""), r.room_id) for r in self.rooms.rooms for name in r.names]
        pairs += [(r.room_id, r.room_id) for r in self.rooms.rooms]
        return sorted(pairs, key=lambda p: -len(p[0]))

    def resolve_room(self, name: str) -> str | None:
        """Room id for any registered name or id, None when unknown."""
        compact = name.replace(" ", "").lower()
        return next((room_id for alias, room_id in self.room_names if alias == compact), None)

    def room_distance_m(self, a: str, b: str) -> float:
        if a == b:
            return 0.0
        da, db = self.room_by_id[a].distance_from_living_m, self.room_by_id[b].distance_from_living_m
        return da + db if 0 not in (da, db) else max(da, db)


def _validate(model: type[BaseModel], data: Any, file: str) -> Any:
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        err = exc.errors()[0]
        field = ".".join(f"[{p}]" if isinstance(p, int) else str(p) for p in err["loc"]).replace(".[", "[") or "<root>"
        more = f" (and {len(exc.errors()) - 1} more)" if len(exc.errors()) > 1 else ""
        raise RegistryError(file, field, err["msg"] + more) from None


def _read_json(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise RegistryError(path.name, "<file>", f"not found at {path}") from None
    except json.JSONDecodeError as exc:
        raise RegistryError(path.name, f"line {exc.lineno} column {exc.colno}", exc.msg) from None


_LEXICON_SECTIONS = ("numbers", "clauses", "operations", "guards", "temporal", "schedule", "frg", "dqr", "conversation", "fragments", "cancel")


def from_dicts(data: dict[str, Any]) -> Registry:
    """Validate already-parsed registry documents (keys as in FILES)."""
    lexicon = data["lexicon"]
    missing = [s for s in _LEXICON_SECTIONS if s not in lexicon]
    if missing:
        raise RegistryError(FILES["lexicon"], missing[0], "section missing")
    return Registry(
        capabilities=_validate(CapabilityRegistry, data["capabilities"], FILES["capabilities"]),
        skills=_validate(SkillRegistry, data["skills"], FILES["skills"]),
        rooms=_validate(RoomRegistry, data["rooms"], FILES["rooms"]),
        lexicon=lexicon,
        weights=_validate(EvidenceWeights, data["weights"], FILES["weights"]),
        effects=_validate(EffectCatalog, data["effects"], FILES["effects"]) if "effects" in data else None,
        speech_acts=_validate(SpeechActLexicon, data["speech_acts"], FILES["speech_acts"]) if "speech_acts" in data else None,
        frames=_validate(RequestFrames, data["frames"], FILES["frames"]) if "frames" in data else None,
        product=_validate(ProductVocabulary, data["product"], FILES["product"]) if "product" in data else None,
    )


def _default(key: str, model: type[BaseModel]) -> Any:
    """An embedded registry document, for registries assembled from dicts without it."""
    return _validate(model, _read_json(REGISTRY_DIR / FILES[key]), FILES[key])


def from_files(directory: Path = REGISTRY_DIR, weights_file: Path | None = None) -> Registry:
    """Read the registry files of a directory (optionally another evidence-weights file)."""
    data = {key: _read_json(directory / name) for key, name in FILES.items()}
    if weights_file is not None:
        data["weights"] = _read_json(weights_file)
    registry = from_dicts(data)
    registry.learned = LearnedFamilyModel.load(directory / LEARNED_FILE)
    return registry


_DEFAULT: Registry | None = None


def load_registry() -> Registry:
    """The embedded registries, loaded once per process."""
    global _DEFAULT
    if _DEFAULT is None:
        _DEFAULT = from_files()
    return _DEFAULT
