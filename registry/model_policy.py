"""The model backends' policy (registry/model_policy.json) and the prompt files it names.

Read once at the edge and passed into the DAG as the `model_policy` input, so the model
stages stay pure functions of their inputs.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from pydantic import Field

from registry.contracts import Contract
from registry.errors import RegistryError
from registry.loader import REGISTRY_DIR, _read_json, _validate

POLICY_FILE = "model_policy.json"
PROMPT_NAMES = ("main_planner", "second_pass_judge", "object_typer", "replyability_judge", "ranked_flow_selector", "repair")


class TransportPolicy(Contract):
    timeout_ms: int = Field(gt=0)
    """Per attempt; google-genai's HttpOptions.timeout is in milliseconds."""
    attempts: int = Field(ge=1, le=10)
    """Including the first call; only timeouts, connection errors and retry_status_codes are retried."""
    initial_delay_s: float = Field(ge=0)
    max_delay_s: float = Field(ge=0)
    exp_base: float = Field(ge=1)
    jitter_s: float = Field(ge=0)
    retry_status_codes: list[int]


class HybridPolicy(Contract):
    model_for_confidence: list[str]
    """Heuristic confidence levels that send the main planner to the model."""


class ObjectTyperPolicy(Contract):
    gate_object_types: list[str]
    gate_below_confidence: float


class ReplyabilityPolicy(Contract):
    gate_types: list[str]


class PacketPolicy(Contract):
    max_ranked_flows: int = Field(ge=1)
    max_anchors: int = Field(ge=1)
    axis_min_strength: float = Field(ge=0, le=1)


class ModelPolicy(Contract):
    """Model choice, retries, the gates of the optional model stages, packet limits, prompts."""

    version: str
    description: str = ""
    default_model: str
    api_version: str
    temperature: float
    transport: TransportPolicy
    hybrid: HybridPolicy
    object_typer: ObjectTyperPolicy
    replyability_judge: ReplyabilityPolicy
    confidence_values: dict[str, float]
    packet: PacketPolicy
    prompts: dict[str, str]
    """Prompt name -> the prompt text (the JSON names files; the loader reads them)."""


def from_file(path: Path = REGISTRY_DIR / POLICY_FILE) -> ModelPolicy:
    """Read the policy and the prompt files it names (relative to the policy file)."""
    data = _read_json(path)
    prompts = data.get("prompts") if isinstance(data, dict) else None
    if not isinstance(prompts, dict):
        raise RegistryError(path.name, "prompts", "must map prompt names to files")
    missing = [name for name in PROMPT_NAMES if name not in prompts]
    if missing:
        raise RegistryError(path.name, f"prompts.{missing[0]}", "prompt missing")
    texts = {}
    for name, rel in prompts.items():
        try:
            texts[name] = (path.parent / rel).read_text(encoding="utf-8").strip()
        except (OSError, TypeError) as exc:
            raise RegistryError(path.name, f"prompts.{name}", f"cannot read {rel!r}: {exc}") from None
    return _validate(ModelPolicy, {**data, "prompts": texts}, path.name)


@lru_cache(maxsize=1)
def load_model_policy() -> ModelPolicy:
    """The embedded policy, read once per process."""
    return from_file()
