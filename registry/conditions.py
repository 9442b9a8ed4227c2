"""Evaluating typed guards (DESIGN section 5), shared by the TaskManager and the cloud runtime.

`evaluate` answers True, False, or None when the guard cannot be grounded (unknown path, missing
output field, incomparable types): None means fail closed, never a guess.
"""

from __future__ import annotations

import operator
from typing import Any, Callable, Mapping

from registry.contracts import DeviceContext
from registry.plan_contracts import Condition, StateCondition

_COMPARE: dict[str, Callable[[Any, Any], bool]] = {
    "eq": operator.eq, "ne": operator.ne, "lt": operator.lt, "le": operator.le, "gt": operator.gt, "ge": operator.ge,
    "in": lambda a, b: a in b, "not_in": lambda a, b: a not in b,
}
STATE_PREFIX = "device."
ALLOWED_STATE_PATHS = frozenset(STATE_PREFIX + name for name in DeviceContext.model_fields if name != "pm25_by_room")
"""Guards may read the robot's scalar state; per-room air is read through an air_quality step."""


def compare(op: str, actual: Any, expected: Any) -> bool | None:
    if actual is None:
        return None
    if op in ("in", "not_in") and not isinstance(expected, list):
        return None
    if op in ("lt", "le", "gt", "ge") and (isinstance(actual, bool) or not isinstance(actual, (int, float))
                                           or isinstance(expected, bool) or not isinstance(expected, (int, float))):
        return None
    try:
        return bool(_COMPARE[op](actual, expected))
    except TypeError:
        return None


def evaluate(condition: Condition, read_state: Callable[[str], Any], outputs: Mapping[str, Mapping[str, Any]],
             normalize: Callable[[str, Any], Any] = lambda name, value: value) -> bool | None:
    """A state guard reads `read_state(name)` for `device.<name>`; a step-output guard reads outputs[step_id][field].
    `normalize(name, value)` maps both sides to one form (e.g. room names to room ids)."""
    if isinstance(condition, StateCondition):
        if not condition.path.startswith(STATE_PREFIX):
            return None
        name = condition.path[len(STATE_PREFIX):]
        try:
            actual = read_state(name)
        except KeyError:
            return None
        expected = condition.value
        actual = normalize(name, actual)
        expected = [normalize(name, v) for v in expected] if isinstance(expected, list) else normalize(name, expected)
        return compare(condition.operator, actual, expected)
    output = outputs.get(condition.step_id)
    if output is None or condition.field not in output:
        return None
    return compare(condition.operator, output[condition.field], condition.value)
