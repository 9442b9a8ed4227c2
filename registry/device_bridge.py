"""The ODL bridge's data (`device_bridge.json`): fixed params of operations and device intent tokens.

Validated against the capability registry so the compiler can never emit a param or a token
that the registries do not define.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict

from registry.contracts import Scalar
from registry.device_contracts import CompiledStep, DeviceEvent
from registry.errors import RegistryError
from registry.loader import REGISTRY_DIR, Registry, _read_json, _validate
from registry.registry_models import Capability, Operation

BRIDGE_FILE = "device_bridge.json"


class DeviceBridge(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    version: str
    description: str = ""
    room_param_form: Literal["canonical_name", "room_id"]
    """How a room argument is sent to the device: the registry's canonical name (the app registers
    rooms by name) or its id."""
    fixed_params: dict[str, dict[str, Scalar]]
    """`capability_id.operation_id` -> params the operation itself fixes (on/off -> enabled)."""
    tokens: dict[str, str]
    """task method -> device intent token name."""
    token_end: str

    def params_fixed_by(self, capability_id: str, operation_id: str) -> dict[str, Scalar]:
        return self.fixed_params.get(f"{capability_id}.{operation_id}", {})

    def token_text(self, task_method: str, params: dict[str, Scalar]) -> str | None:
        """`<token>(k=v,...)<end>` from registry entries only; None when the method has no token."""
        token = self.tokens.get(task_method)
        if token is None:
            return None
        inner = ",".join(f"{k}={_token_value(v)}" for k, v in sorted(params.items()))
        return f"<{token}>({inner})<{self.token_end}>"


def _token_value(value: Scalar) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def check_bridge(bridge: DeviceBridge, registry: Registry) -> DeviceBridge:
    for key in bridge.fixed_params:
        cap_id, _, op_id = key.partition(".")
        cap = registry.capability_by_id.get(cap_id)
        if cap is None or cap.operation(op_id) is None:
            raise RegistryError(BRIDGE_FILE, f"fixed_params.{key}", "names no registered capability operation")
    for method in bridge.tokens:
        if method not in registry.task_methods:
            raise RegistryError(BRIDGE_FILE, f"tokens.{method}", "not a registered task method")
    return bridge


def operations_for_method(registry: Registry, task_method: str) -> list[tuple[str, Operation]]:
    """(capability_id, operation) pairs that compile to a task method."""
    return [(c.capability_id, op) for c in registry.capabilities.capabilities for op in c.operations if op.task_method == task_method]


def required_device_params(op: Operation) -> list[str]:
    """Device params the task cannot run without: required arguments, and levels with no default."""
    stand_ins = {spec.alternative_to for spec in op.arguments.values() if spec.alternative_to}
    return [op.param_map.get(name, name) for name, spec in op.arguments.items()
            if spec.required or (spec.type == "integer" and spec.default is None and not spec.alternative_to and name not in stand_ins)]


def running_task_method(cap: Capability) -> str:
    """The task method a running task of the capability reports under (its start, else its first operation)."""
    return (cap.operation("start") or cap.operations[0]).task_method


def finishing_evidence(cap: Capability) -> list[str]:
    """Terminal evidence that a task of the capability has ended (what "끝나면" waits for): every evidence
    of its operations except the open-ended `.running` marks (a clean completes, or is stopped)."""
    found = [e for op in cap.operations for e in op.terminal_evidence if not e.endswith(".running")]
    return list(dict.fromkeys(found))


@lru_cache(maxsize=4)
def _load(directory: Path) -> DeviceBridge:
    return _validate(DeviceBridge, _read_json(directory / BRIDGE_FILE), BRIDGE_FILE)


def load_device_bridge(registry: Registry, directory: Path = REGISTRY_DIR) -> DeviceBridge:
    """The bridge data, read once per process and checked against the registry."""
    return check_bridge(_load(directory), registry)


TERMINAL_EVENTS = frozenset({"COMPLETED", "FAILED", "BLOCKED", "TIMEOUT", "CANCELLED"})
"""Events that end a step: each must name a step of the workflow, and any evidence it carries must be declared."""


def evidence_refusal(registry: Registry, step: CompiledStep, event: DeviceEvent) -> str | None:
    """Why a terminal callback cannot end this step, if it cannot: COMPLETED must carry evidence, and any evidence it
    carries must be one the step's capability operation declares (a move is never completed by camera.photoSaved)."""
    if event.event_name not in TERMINAL_EVENTS:
        return None
    cap = registry.capability_by_id.get(step.capability_id or "")
    op = cap.operation(step.operation_id or "") if cap else None
    declared = list(op.terminal_evidence) if op else []
    if event.event_name == "COMPLETED" and not event.terminal_evidence:
        return f"COMPLETED for {event.step_id} carries no terminal evidence (declared: {', '.join(declared) or 'none'})"
    if event.terminal_evidence and event.terminal_evidence not in declared:
        return (f"{event.terminal_evidence!r} is not evidence {step.capability_id}.{step.operation_id} declares "
                f"({', '.join(declared) or 'none'})")
    return None
