"""The canonical effect catalog and the Experience contracts (DESIGN section 6).

Effects are the only vocabulary a delegated goal may use: a desired effect must exist here
and have an exact provider (a capability operation or a cloud skill); anything else is an
unsupported terminal outcome. Effects never create device actions: plan steps do.
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import Any, Literal

from pydantic import Field, ValidationError

from registry.contracts import Contract
from registry.errors import RegistryError

CATALOG_FILE = Path(__file__).resolve().parent / "effect_catalog.v1.json"


class Provider(Contract):
    kind: Literal["capability_operation", "skill"]
    tier: str
    capability_id: str | None = None
    operation_id: str | None = None
    agent_id: str | None = None
    skill_id: str | None = None

    @property
    def key(self) -> str:
        return f"{self.capability_id}.{self.operation_id}" if self.kind == "capability_operation" else f"{self.agent_id}.{self.skill_id}"


class Effect(Contract):
    effect_id: str
    description: str
    terminal_evidence: list[str]
    providers: list[Provider]
    consent_policy: str | None = None
    cues: list[str] = Field(default_factory=list)
    subject_cues: list[str] = Field(default_factory=list)
    no_provider_reason: str | None = None
    awaitable: bool = False
    """An event a goal waits for ("엄마 오면"): a goal that needs it relates to it after_existing_event."""


class ConsentPolicy(Contract):
    policy_id: str
    applies_to: list[str]
    description: str
    requires_effect_before: str | None = None
    blocking_state: str | None = None


class EffectCatalog(Contract):
    catalog_version: str
    description: str = ""
    tiers: dict[str, str]
    live_tiers: dict[str, list[str]]
    consent_policies: list[ConsentPolicy]
    default_budget: dict[str, int]
    effects: list[Effect]

    def by_id(self) -> dict[str, Effect]:
        return {e.effect_id: e for e in self.effects}

    def effect_of(self, capability_id: str, operation_id: str) -> Effect | None:
        return next((e for e in self.effects for p in e.providers
                     if p.capability_id == capability_id and p.operation_id == operation_id), None)

    def effects_of_skill(self, skill_id: str) -> list[Effect]:
        return [e for e in self.effects for p in e.providers if p.skill_id == skill_id]

    def unprovided_in(self, text: str, context: str = "") -> list[str]:
        """Effects with no provider that compact text waits on or asks for ("엄마 오면", "문 열어");
        the subject ("애들") may stand elsewhere in the utterance (context)."""
        found = []
        for effect in self.effects:
            if effect.providers or not effect.cues:
                continue
            cue = any(c.replace(" ", "") in text for c in effect.cues)
            subject = not effect.subject_cues or any(c.replace(" ", "") in text + context for c in effect.subject_cues)
            if cue and subject:
                found.append(effect.effect_id)
        return found

    def prompt_excerpt(self) -> str:
        """A compact JSON excerpt for model prompts: effect ids, providers, consent policies."""
        compact: dict[str, Any] = {
            "effects": {e.effect_id: [p.key for p in e.providers] or None for e in self.effects},
            "consent": {p.policy_id: p.applies_to for p in self.consent_policies},
            "rule": "desired_effects only from these keys; an effect with null providers goes to unsupported_terminal_outcomes",
        }
        return json.dumps(compact, ensure_ascii=False, separators=(",", ":"))


def load_effect_catalog(path: Path = CATALOG_FILE) -> EffectCatalog:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise RegistryError(path.name, "<file>", f"not found at {path}") from None
    except json.JSONDecodeError as exc:
        raise RegistryError(path.name, f"line {exc.lineno} column {exc.colno}", exc.msg) from None
    try:
        return EffectCatalog.model_validate(data)
    except ValidationError as exc:
        err = exc.errors()[0]
        raise RegistryError(path.name, ".".join(map(str, err["loc"])), err["msg"]) from None


@lru_cache(maxsize=1)
def default_effect_catalog() -> EffectCatalog:
    return load_effect_catalog()


# --- Experience contracts ---------------------------------------------------------------


class GoalContract(Contract):
    """An admitted delegated goal, stored with its workflow."""

    experience_id: str
    goal_summary: str
    success_criteria: list[str]
    """Effect ids; the goal is complete only when each has its terminal evidence."""
    plan_binding: dict[str, Any]
    """{plan_id, step_ids}: the planned steps that serve the goal."""
    decision_budget: dict[str, int]
    """{max_decisions, max_replans}."""
    temporal_relation: str | None = None
    temporal_anchor_id: str | None = None


class AdmissionCheck(Contract):
    name: str
    passed: bool
    reason: str = ""


class ExperienceAdmission(Contract):
    """The deterministic admission of a planner's experience_request."""

    status: Literal["admitted", "not_admitted"]
    proposed: Literal["candidate", "not_admitted"]
    checks: list[AdmissionCheck]
    goal: GoalContract | None = None
    desired_effects: list[str] = Field(default_factory=list)
    unsupported_terminal_outcomes: list[str] = Field(default_factory=list)
    temporal_relation: str | None = None
    """The grounded request's temporal relation (also for a refused candidate)."""
