"""Contracts of the model backends: requests and replies, the client interface the stages call,
where a plan came from, and the model-facing response schemas.

The model-facing schemas exist because google-genai's `response_schema` conversion (Gemini
Developer API mode, google-genai 3.6) cannot express three shapes of `PlannerOutput`: `dict`
fields (they become `additionalProperties`, rejected outside Vertex), the discriminated
`Condition` union (`oneOf` + `discriminator`, not in its Schema type) and a non-string Literal
(`ExperienceRequest.dispatch_allowed`). The model answers in a flat variant derived from the
contract; `stages/_model.py` converts it back and checks it against the registries.
"""

from __future__ import annotations

import abc
import hashlib
import json
from functools import lru_cache
from typing import Any, Literal

from pydantic import Field, create_model

from registry.contracts import Confidence, Contract, Family, ObjectType, Operator
from registry.plan_contracts import PlannerOutput, PlanViolation, Step

ModelStage = Literal["main_planner", "second_pass_judge", "object_typer", "replyability_judge", "ranked_flow_selector"]
MODEL_STAGES: tuple[str, ...] = ("main_planner", "second_pass_judge", "object_typer", "replyability_judge", "ranked_flow_selector")


# --- transport ---------------------------------------------------------------------------


class ModelTurn(Contract):
    """One message of the conversation sent to the model."""

    role: Literal["user", "model"]
    text: str


class ModelRequest(Contract):
    """Everything one model call sends; its hash keys the record/replay cassette."""

    stage: ModelStage
    utterance: str
    """The turn's recognized text (for error messages; it is also inside the contents)."""
    system_instruction: str
    contents: list[ModelTurn]
    response_schema: str
    """Name of the model-facing pydantic schema in MODEL_SCHEMAS."""
    repair: bool = False
    """True for the one repair call that carries the validation errors."""

    def key(self, model: str) -> str:
        """sha256 over what reaches the model (model name, instruction, contents, schema)."""
        payload = {
            "model": model,
            "system_instruction": self.system_instruction,
            "contents": [t.model_dump() for t in self.contents],
            "response_schema": _schema_json(self.response_schema),
        }
        return hashlib.sha256(json.dumps(payload, ensure_ascii=False, sort_keys=True).encode("utf-8")).hexdigest()[:24]


class ModelReply(Contract):
    """The model's raw answer and its accounting."""

    text: str
    prompt_tokens: int = 0
    output_tokens: int = 0
    latency_ms: float = 0.0
    """Wall time of the call including retries and backoff."""


class ModelCall(Contract):
    """One call as the per-trace ledger keeps it."""

    stage: str
    repair: bool
    prompt_tokens: int
    output_tokens: int
    latency_ms: float
    failed: str | None = None
    """Why the call produced no answer (timeout, 429 after retries, ...)."""


class ModelClient(abc.ABC):
    """What the model stages call; passed into the DAG as the `model_client` input."""

    @abc.abstractmethod
    def generate(self, request: ModelRequest) -> ModelReply:
        """Answer one request; raise ModelUnavailable when no answer came back."""


# --- provenance ----------------------------------------------------------------------------


DecidedBy = Literal["heuristic", "local", "model", "fail_closed", "schedule_short_circuit", "local_shortcut", "local_fallback"]


class PlannerProvenance(Contract):
    """Which path produced the plan, and why (DESIGN step 17)."""

    backend: str
    decided_by: DecidedBy
    reason: str = ""
    model_attempts: int = 0
    """Model calls the planner made (0, 1, or 2 with the repair)."""
    validation_errors: list[str] = Field(default_factory=list)
    """The errors of the last invalid model answer (what the repair carried, or why it failed closed)."""
    violations: list[PlanViolation] = Field(default_factory=list)
    """The same errors typed: which plan boundary each broke (invalid_answer when the answer never became a plan)."""
    withheld_reply: str | None = None
    """The model's reply text when it was not spoken: it claimed an effect the plan does not hold."""
    withheld_because: list[str] = Field(default_factory=list)
    """The claims that withheld it ("take_photo:done")."""
    local_family: str | None = None
    """The heuristic planner's family for the same turn, kept for comparison."""


class PlannerDecision(Contract):
    """The planner's output together with its provenance."""

    output: PlannerOutput
    provenance: PlannerProvenance


# --- model-facing response schemas ---------------------------------------------------------

_NAMED_MAPS = ("properties", "$defs")


def _lean(schema: Any) -> Any:
    """Drop titles, defaults and `additionalProperties: false` (bytes the model is billed for; the
    Gemini Developer API does not take additionalProperties); validation stays strict here."""
    if isinstance(schema, list):
        return [_lean(item) for item in schema]
    if not isinstance(schema, dict):
        return schema
    out = {}
    for key, value in schema.items():
        if key in ("title", "default") or (key == "additionalProperties" and value is False):
            continue
        out[key] = {name: _lean(sub) for name, sub in value.items()} if key in _NAMED_MAPS else _lean(value)
    return out


class ModelFacing(Contract):
    """Base of the schemas the model answers in: the JSON Schema it exports is lean."""

    @classmethod
    def model_json_schema(cls, *args: Any, **kwargs: Any) -> dict[str, Any]:
        return _lean(super().model_json_schema(*args, **kwargs))


class ModelArgument(Contract):
    name: str
    value: str
    """As text; converted by the capability's declared argument type."""


class ModelCondition(Contract):
    """A guard: kind state (path) or step_output (step_id + field)."""

    kind: Literal["state", "step_output"]
    path: str | None = None
    step_id: str | None = None
    field: str | None = None
    operator: Operator
    values: list[str]
    """One value, or several for in / not_in; numbers and booleans as text."""


def _variant(name: str, source: type[Contract], doc: str, base: type[Contract], drop: tuple[str, ...] = (),
             replace: dict[str, Any] | None = None) -> Any:
    """A model-facing copy of a contract, derived from it (same fields, same order), with the
    shapes genai cannot send dropped or replaced; replacements for absent fields come last."""
    replace = replace or {}
    fields = {n: replace.get(n, (f.annotation, f)) for n, f in source.model_fields.items() if n not in drop}
    fields.update({n: spec for n, spec in replace.items() if n not in fields})
    return create_model(name, __base__=base, __doc__=doc, __module__=__name__, **fields)


ModelStep = _variant(
    "ModelStep", Step, "A plan step as the model writes it: the action flattened, no device token or task.", Contract,
    drop=("action", "token_text", "device_task"),
    replace={"condition": (ModelCondition | None, None), "capability_id": (str | None, None), "operation_id": (str | None, None),
             "arguments": (list[ModelArgument], Field(default_factory=list))},
)

ModelPlannerOutput = _variant(
    "ModelPlannerOutput", PlannerOutput, "The main planner's answer as the model writes it (no device tokens, no device tasks).",
    ModelFacing, drop=("experience_request",), replace={"steps": (list[ModelStep], ...)},
)


class ModelJudgeAnswer(ModelFacing):
    """The pairwise family judge's answer."""

    winner: Family
    reason: str


class ModelObjectType(ModelFacing):
    object_type: ObjectType
    confidence: Confidence
    reason: str


class ModelReplyability(ModelFacing):
    replyability_type: Literal["bounded_reply_now", "whole_intent_repair", "uncertain"]
    confidence: Confidence
    reason: str


class ModelRankedFlow(Contract):
    flow_id: str
    confidence: Confidence
    rationale: str


class ModelRankedFlows(ModelFacing):
    top_flows: list[ModelRankedFlow]


MODEL_SCHEMAS: dict[str, type[ModelFacing]] = {
    cls.__name__: cls
    for cls in (ModelPlannerOutput, ModelJudgeAnswer, ModelObjectType, ModelReplyability, ModelRankedFlows)
}


@lru_cache(maxsize=None)
def _schema_json(name: str) -> dict[str, Any]:
    return MODEL_SCHEMAS[name].model_json_schema()


def compact_json(data: Any) -> str:
    """The JSON text sent in requests: no spaces, Korean kept as is (fewer tokens)."""
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"))
