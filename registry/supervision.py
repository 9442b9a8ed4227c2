"""The supervisor's policy (`supervision.json`) and the report of a supervised goal.

The policy is data: which action a reason code asks for, when a local retry is allowed, which
recoveries a replan may plan (capabilities of the registry only, checked on load), how a cloud
step proves its effect, and the sentences the supervisor asks or tells. Code holds the loop.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Literal

from registry.contracts import Contract, DeviceContext
from registry.errors import RegistryError
from registry.loader import REGISTRY_DIR, Registry, _read_json, _validate
from registry.runtime_contracts import DecisionAction

POLICY_FILE = "supervision.json"
STATE_PREFIX = "device."


class ActionRef(Contract):
    """A capability operation of the registry."""

    capability_id: str
    operation_id: str


class ProbeRef(ActionRef):
    found_field: str
    """The probe output field that is True when the thing searched for is seen."""


class MoveRef(ActionRef):
    room_argument: str
    """The operation's argument naming the room."""


class Recovery(Contract):
    """A bounded search over registered rooms for something a failed provider could not find."""

    strategy: Literal["search_registered_rooms"]
    failed_capability_id: str
    """The provider whose failure this recovery answers; the replan re-achieves its effect."""
    probe: ProbeRef
    move: MoveRef
    finish: ActionRef
    belief_state: str
    """A device state path holding where the robot believes the target is; a positive probe updates it."""
    room_output_field: str
    """The failed step's output field naming the room where it looked."""
    exhausted_reason: str


class CloudEvidenceRule(Contract):
    """When a cloud step's result is the terminal evidence of its effect."""

    evidence: str
    requires_true: str | None = None
    """A result data field that must be True (a live source, an answer found)."""
    requires_data: str | None = None
    """A result data field that must be present (a stored schedule id)."""


class RetryPolicy(Contract):
    capability_kinds: list[Literal["execution", "settings", "state_query"]]
    note: str = ""


class SupervisionPolicy(Contract):
    version: str
    description: str = ""
    actions_by_reason: dict[str, DecisionAction]
    retry_local: RetryPolicy
    recoveries: dict[str, Recovery]
    cloud_evidence: dict[str, CloudEvidenceRule]
    ask: dict[str, str]
    tell: dict[str, str]


def _check_against(policy: SupervisionPolicy, registry: Registry) -> None:
    """Every capability a recovery may plan exists in the registry; every replan reason has a recovery."""
    for reason, action in policy.actions_by_reason.items():
        if action == "replan" and reason not in policy.recoveries:
            raise RegistryError(POLICY_FILE, f"actions_by_reason.{reason}", "replan needs a recovery of the same reason")
        if action == "ask_user" and reason not in policy.ask:
            raise RegistryError(POLICY_FILE, f"actions_by_reason.{reason}", "ask_user needs a question in `ask`")
    for reason, rec in policy.recoveries.items():
        for part, ref in (("probe", rec.probe), ("move", rec.move), ("finish", rec.finish)):
            cap = registry.capability_by_id.get(ref.capability_id)
            op = cap.operation(ref.operation_id) if cap else None
            if op is None:
                raise RegistryError(POLICY_FILE, f"recoveries.{reason}.{part}",
                                    f"{ref.capability_id}.{ref.operation_id} is not in the registry")
        if rec.move.room_argument not in registry.capability_by_id[rec.move.capability_id].operation(rec.move.operation_id).arguments:
            raise RegistryError(POLICY_FILE, f"recoveries.{reason}.move.room_argument", f"no argument {rec.move.room_argument!r}")
        if rec.failed_capability_id not in registry.capability_by_id:
            raise RegistryError(POLICY_FILE, f"recoveries.{reason}.failed_capability_id",
                                f"unknown capability {rec.failed_capability_id!r}")
        field = rec.belief_state.removeprefix(STATE_PREFIX)
        if not rec.belief_state.startswith(STATE_PREFIX) or field not in DeviceContext.model_fields:
            raise RegistryError(POLICY_FILE, f"recoveries.{reason}.belief_state", f"{rec.belief_state!r} is not a device state path")


def policy_from_dict(data: dict, registry: Registry) -> SupervisionPolicy:
    policy = _validate(SupervisionPolicy, data, POLICY_FILE)
    _check_against(policy, registry)
    return policy


@lru_cache(maxsize=4)
def _policy_data() -> dict:
    return _read_json(REGISTRY_DIR / POLICY_FILE)


def load_supervision_policy(registry: Registry) -> SupervisionPolicy:
    return policy_from_dict(_policy_data(), registry)
