"""One validation for the contexts a turn starts from, on every command and every set row.

A context is a JSON object: unknown keys, wrong types, numbers that are not finite or outside the
product's ranges, and rooms the registry does not know are refused with the field named
(`device_context.position: unknown room '화성'`), never dropped silently and never a traceback.
"""

from __future__ import annotations

from typing import Any, TypeVar

from pydantic import ValidationError

from registry.contracts import Contract, DeviceContext, VoiceContext
from registry.errors import InputError

C = TypeVar("C", bound=Contract)
_ROOM_FIELDS = ("position", "station_room")


def _field_error(name: str, exc: ValidationError) -> InputError:
    err = exc.errors()[0]
    where = ".".join(map(str, err["loc"]))
    return InputError(f"{name}.{where}: {err['msg']}" if where else f"{name}: {err['msg']}")


def context_of(model: type[C], name: str, data: Any, warnings: list[str] | None = None) -> C:
    """A context contract from a JSON value: an object with known fields only. With a `warnings` list (set rows,
    which others write and which must run unchanged) unknown fields are left out and named there instead."""
    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise InputError(f"{name}: must be a JSON object, got {type(data).__name__}")
    unknown = sorted(str(k) for k in data if k not in model.model_fields)
    if unknown and warnings is None:
        raise InputError(f"{name}: unknown field {unknown[0]!r} (known: {', '.join(model.model_fields)})")
    if unknown:
        warnings += [f"{name}: ignored unknown field {k!r}" for k in unknown]
        data = {k: v for k, v in data.items() if k in model.model_fields}
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        raise _field_error(name, exc) from None


def voice_context_of(data: Any, warnings: list[str] | None = None) -> VoiceContext:
    return context_of(VoiceContext, "voice_context", data, warnings)


def device_context_of(data: Any, registry: Any = None, warnings: list[str] | None = None) -> DeviceContext:
    """Device context overrides on PRODUCT.md's defaults; with a registry, its rooms must be registered ones
    (with a `warnings` list, an unregistered room is named there and the turn still routes)."""
    context = context_of(DeviceContext, "device_context", data, warnings)
    if registry is not None:
        problems = [f"device_context.{name}: unknown room {getattr(context, name)!r}" for name in _ROOM_FIELDS
                    if registry.resolve_room(getattr(context, name)) is None]
        problems += [f"device_context.pm25_by_room: unknown room {room!r}" for room in context.pm25_by_room
                     if registry.resolve_room(room) is None]
        if problems and warnings is None:
            raise InputError(problems[0])
        if warnings is not None:
            warnings += problems
    return context
