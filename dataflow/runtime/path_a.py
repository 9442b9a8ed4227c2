"""Path A (DESIGN section 7): an app's structured request validated against the registry and run
with no planner. Unknown methods, unknown or missing params are rejected with the reason."""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError

from registry.plan_contracts import Action, Step
from registry.device_bridge import DeviceBridge, operations_for_method, required_device_params
from registry.device_contracts import StructuredTaskRequest
from registry.errors import InputError
from registry.loader import Registry
from stages.compilation import OPEN_ENDED_MARK


def parse_structured_request(data: Any) -> StructuredTaskRequest:
    if not isinstance(data, dict):
        raise InputError("a structured request is a JSON object like {\"taskMethod\": \"returnToStation\"}")
    try:
        return StructuredTaskRequest.model_validate(data)
    except ValidationError as exc:
        err = exc.errors()[0]
        raise InputError(f"{'.'.join(map(str, err['loc'])) or 'request'}: {err['msg']}") from None


def _match(request: StructuredTaskRequest, cap_id: str, op, bridge: DeviceBridge) -> tuple[dict[str, Any] | None, str]:
    """(planner arguments, "") when the params fit this operation, else (None, why not)."""
    fixed = bridge.params_fixed_by(cap_id, op.operation_id)
    by_param = {param: arg for arg, param in op.param_map.items()}
    args: dict[str, Any] = {}
    for name, value in request.params.items():
        if name in fixed:
            if fixed[name] != value:
                return None, f"{name}={value!r} does not fit {cap_id}.{op.operation_id}"
        elif name in by_param:
            args[by_param[name]] = value
        else:
            return None, f"unknown param {name!r} for {request.taskMethod} (known: {', '.join(sorted([*by_param, *fixed])) or 'none'})"
    missing = [p for p in [*fixed, *required_device_params(op)] if p not in request.params]
    if missing:
        return None, f"missing param {', '.join(repr(m) for m in missing)} for {request.taskMethod}"
    return args, ""


def structured_request_step(request: StructuredTaskRequest, registry: Registry, bridge: DeviceBridge) -> Step:
    """The one-step plan of a valid request; InputError with the reason otherwise."""
    candidates = operations_for_method(registry, request.taskMethod)
    if not candidates:
        known = ", ".join(sorted(m for m in registry.task_methods if not _internal(registry, m)))
        raise InputError(f"unknown task method {request.taskMethod!r}; known methods: {known}")
    reasons = []
    for cap_id, op in candidates:
        cap = registry.capability_by_id[cap_id]
        if cap.internal:
            reasons.append(f"{request.taskMethod} is internal to the robot and not open to apps")
            continue
        args, why = _match(request, cap_id, op, bridge)
        if args is None:
            reasons.append(why)
            continue
        open_ended = any(e.endswith(OPEN_ENDED_MARK) for e in op.terminal_evidence)
        return Step(id="step_1", route="ODL", purpose=registry.lexicon["responses"]["capability_names"].get(cap_id, cap_id),
                    output_key=f"{cap_id}_result", execution_target="device", wait_policy="event" if open_ended else "completed",
                    action=Action(capability_id=cap_id, operation_id=op.operation_id, arguments=args))
    raise InputError("; ".join(dict.fromkeys(reasons)))


def _internal(registry: Registry, method: str) -> bool:
    return all(registry.capability_by_id[c].internal for c, _ in operations_for_method(registry, method))
