"""Load and validate the registry files; build the indexes the stages match against.

`from_files -> from_dicts -> Registry`: file reading stays in the outer layer, and a
validation error names the file and the field.
"""

from __future__ import annotations

import json
from functools import cached_property
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError

from registry.contracts import Flow, FlowCatalog
from registry.errors import RegistryError
from registry.experience import EffectCatalog
from registry.learned_model import LEARNED_FILE, LearnedFamilyModel
from registry.registry_models import Capability, CapabilityRegistry, EvidenceWeights, Room, RoomRegistry, SkillRegistry
from registry.frame_contracts import RequestFrames
from registry.product_contracts import ProductVocabulary
from registry.speech_contracts import SpeechActLexicon

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
            for scope, target in cap.scope_variants.items():
                if scope not in self.lexicon.get("scopes", {}) or target not in self.capability_by_id:
                    raise RegistryError(FILES["capabilities"], f"capabilities[{c_i}].scope_variants.{scope}",
                                        f"unknown scope {scope!r} (lexicon scopes) or capability {target!r}")
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
