"""Fault scenarios as data: what the simulated home, user and callback transport do differently.

A scenario file is JSON (see data/scenarios/README.md). Faults are matched by task method,
never by plan step ids, so one scenario works for any plan that uses the method.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import Field, ValidationError

from registry.contracts import Contract
from registry.errors import InputError


class PathBlocked(Contract):
    """The way into (or out of) a room is blocked: a move touching it stops half way, BLOCKED path_blocked."""

    kind: Literal["path_blocked"] = "path_blocked"
    room: str
    """Any registered room name or id."""


class TaskFails(Contract):
    """A task fails; with `retryable` the TaskManager retries locally (bounded)."""

    kind: Literal["task_fails"] = "task_fails"
    task_method: str
    at_tick: int | None = Field(None, ge=0)
    """Absolute simulator tick; the task fails at that tick if it is running then (or when it starts later)."""
    after_s: int = Field(1, ge=0)
    """Otherwise: seconds after the task starts."""
    times: int = Field(1, ge=1)
    """How many attempts fail."""
    reason_code: str = "task_failed"
    retryable: bool = False


class TaskStalls(Contract):
    """A task starts but never reports its terminal evidence (the TaskManager times it out)."""

    kind: Literal["task_stalls"] = "task_stalls"
    task_method: str


class TaskPauses(Contract):
    """A running task is paused (robot lifted, user pressed pause): PAUSED with a reason."""

    kind: Literal["task_pauses"] = "task_pauses"
    task_method: str
    after_s: int = Field(1, ge=0)
    reason_code: str = "paused_on_device"


class CallbackLost(Contract):
    """A callback never reaches the cloud."""

    kind: Literal["callback_lost"] = "callback_lost"
    task_method: str
    event_name: str = "COMPLETED"


class CallbackDuplicated(Contract):
    """Callbacks arrive twice (with the same event id)."""

    kind: Literal["callback_duplicated"] = "callback_duplicated"
    task_method: str | None = None
    """None: every task."""
    copies: int = Field(2, ge=2, le=5)


class CallbacksOutOfOrder(Contract):
    """Callbacks are delayed by a random 0..window_ticks, so they arrive shuffled."""

    kind: Literal["callbacks_out_of_order"] = "callbacks_out_of_order"
    window_ticks: int = Field(5, ge=1, le=120)


class ProcessCrash(Contract):
    """The process running the workflow dies hard (SIGKILL: no cleanup, no flush) at this simulated tick,
    counted from the start of the session. Applied by the runtime, never on resume; `a2a resume` continues."""

    kind: Literal["process_crash"] = "process_crash"
    at_tick: int = Field(ge=0, le=10 * 86400)


Fault = Annotated[
    PathBlocked | TaskFails | TaskStalls | TaskPauses | CallbackLost | CallbackDuplicated | CallbacksOutOfOrder | ProcessCrash,
    Field(discriminator="kind"),
]


class UserUtterance(Contract):
    """Something the user says while the workflow runs; the cloud routes it like any turn."""

    after_s: int = Field(ge=0, le=86400)
    """Seconds after submission."""
    text: str = Field(min_length=1, max_length=400)


class SimulatedUser(Contract):
    """How the person in front of the robot behaves."""

    vital_signs: Literal["finish", "cancel", "absent"] = "finish"
    vital_signs_after_s: int | None = Field(None, ge=1, le=3600)
    """When the user finishes or cancels (default: a seeded 50-70 s for finish, 20 s for cancel)."""
    consent: Literal["granted", "denied", "no_answer"] = "granted"
    consent_after_s: int | None = Field(None, ge=1, le=600)
    changes_goal_after_s: int | None = Field(None, ge=0, le=86400)
    """The user calls the rest off this many seconds after submission (a user change of goal)."""
    says: list[UserUtterance] = Field(default_factory=list, max_length=20)
    """Turns spoken during the run (멈춰 at 20 s): each is routed, and a voice stop cancels the workflow."""


class RunningTask(Contract):
    """A task already running on the robot when the turn arrives (another workflow or the app started it)."""

    capability_id: str
    ends_after_s: int | None = Field(None, ge=1, le=86400)
    """When it ends on its own; None: it runs until something stops it."""
    ends_with: str | None = None
    """The terminal evidence it reports when it ends (default: the capability's first finishing evidence)."""


class ScenarioExpect(Contract):
    """What a run of the scenario's utterance should end as (checked by the tests)."""

    status: str
    reason_code: str | None = None
    step_statuses: dict[str, str] = Field(default_factory=dict)
    """capability_id -> step status, for the steps that matter."""
    response_excludes: list[str] = Field(default_factory=list)
    """Evidence ids whose success wording must not appear (never overclaim)."""
    goal_status: str | None = None
    """The admitted goal's status at the end (None: the turn is not admitted, no goal)."""
    effects_achieved: list[str] | None = None
    decisions_at_most: int | None = None
    """Supervisor decisions the run may spend."""
    response_includes: list[str] = Field(default_factory=list)
    """Keys of supervision.json's `tell`/`ask` whose fixed wording must appear (the user is told why)."""


class Scenario(Contract):
    """One simulated situation."""

    name: str = "default"
    description: str = ""
    start_clock: str = "09:00"
    """Simulated time of day at tick 0 (HH:MM)."""
    device_context: dict[str, Any] = Field(default_factory=dict)
    """Overrides of the default device context (what the cloud is told, too)."""
    actual_station_room: str | None = None
    """Where the station really is when someone moved it (the robot still believes device_context.station_room)."""
    station_removed: bool = False
    """The station is gone from every room (no probe sees it, no docking succeeds)."""
    running_tasks: list[RunningTask] = Field(default_factory=list)
    """Tasks already running when the turn arrives (what "청정이 끝나면" waits for)."""
    user: SimulatedUser = Field(default_factory=SimulatedUser)
    faults: list[Fault] = Field(default_factory=list)
    utterance: str | None = None
    """The turn the scenario is written for (tests and examples)."""
    expect: ScenarioExpect | None = None

    def faults_of(self, kind: type) -> list:
        return [f for f in self.faults if isinstance(f, kind)]


def start_clock_s(text: str) -> int:
    try:
        hh, mm = text.split(":")
        value = int(hh) * 3600 + int(mm) * 60
    except ValueError:
        raise InputError(f"start_clock {text!r}: use HH:MM") from None
    if not 0 <= value < 86400:
        raise InputError(f"start_clock {text!r}: use HH:MM between 00:00 and 23:59")
    return value


def scenario_from_dict(data: Any, source: str = "<scenario>") -> Scenario:
    try:
        scenario = Scenario.model_validate(data)
    except ValidationError as exc:
        err = exc.errors()[0]
        where = ".".join(str(p) for p in err["loc"]) or "<root>"
        raise InputError(f"{source}: {where}: {err['msg']}") from None
    start_clock_s(scenario.start_clock)
    return scenario


def load_scenario(path: Path) -> Scenario:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise InputError(f"scenario file not found: {path}") from None
    except json.JSONDecodeError as exc:
        raise InputError(f"{path}: not valid JSON ({exc.msg} at line {exc.lineno})") from None
    return scenario_from_dict(data, str(path))
