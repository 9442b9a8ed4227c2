"""The base of every simulated activity: the `Signal`s an activity reports, one second at a time, and the
drive between rooms that moving activities share (`device/activities.py` holds the activities themselves)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from registry.device_contracts import DeviceTaskRequest

if TYPE_CHECKING:
    from device.simulator import Simulator


@dataclass(slots=True)
class Signal:
    kind: str
    """progress | evidence | problem | user_ended"""
    evidence: str | None = None
    output: dict[str, Any] = field(default_factory=dict)
    event_name: str | None = None
    reason_code: str | None = None
    final: bool = True
    """For evidence: the activity is over (False: it keeps running, e.g. a clean that lasts until stopped)."""


def evidence(name: str, output: dict[str, Any] | None = None, final: bool = True) -> Signal:
    return Signal("evidence", evidence=name, output=output or {}, final=final)


def problem(event_name: str, reason_code: str, output: dict[str, Any] | None = None) -> Signal:
    return Signal("problem", event_name=event_name, reason_code=reason_code, output=output or {})


def progress(note: str, output: dict[str, Any] | None = None) -> Signal:
    return Signal("progress", reason_code=note, output=output or {})


class Activity:
    """One running task; `step` is called once per simulated second until `done`."""

    def __init__(self, sim: "Simulator", request: DeviceTaskRequest):
        self.sim = sim
        self.world = sim.world
        self.request = request
        self.params = request.params
        self.elapsed = 0
        self.done = False

    def start(self) -> list[Signal]:
        return []

    def step(self) -> list[Signal]:
        raise NotImplementedError

    def cancel(self) -> None:
        self.done = True

    def drive_to(self, room: str) -> None:
        self.drive = Drive(self.sim, room)
        self.drive.start()

    def drive_on(self) -> tuple[list[Signal], bool]:
        """One second of `self.drive`: (signals, arrived). A problem on the way ends the activity."""
        if self.drive.arrived:
            return [], True
        signal = self.drive.step()
        if signal is not None and signal.kind == "problem":
            self.cancel()
            return [signal], False
        return ([signal] if signal else []), self.drive.arrived


class Timed(Activity):
    """Takes a fixed number of seconds, then reports its evidence."""

    duration_s = 1

    def step(self) -> list[Signal]:
        if self.elapsed >= self.duration():
            self.done = True
            return [self.finish()]
        return []

    def duration(self) -> int:
        return self.duration_s

    def finish(self) -> Signal:
        raise NotImplementedError


class Drive:
    """Driving between rooms at the registry's speed, draining the battery per metre."""

    def __init__(self, sim: "Simulator", target: str):
        self.sim, self.world, self.target = sim, sim.world, target
        self.origin = self.world.position or target
        self.distance = sim.registry.room_distance_m(self.origin, target)
        self.travelled = 0.0
        self.halfway_reported = False
        blocked = self.world.blocked_rooms
        self.blocked = target in blocked or (self.origin in blocked and self.origin != target)

    def start(self) -> None:
        # position stays the last room reached until arrival, so a failed or retried drive starts from there
        if self.distance > 0:
            self.world.docked = False

    def step(self) -> Signal | None:
        """None while driving; evidence-free arrival is signalled by `arrived`; a problem otherwise."""
        if self.distance <= 0 or self.travelled >= self.distance:
            self.world.position = self.target
            return None
        w = self.world
        metres = min(self.sim.speed, self.distance - self.travelled)
        w.battery = max(0.0, w.battery - self.sim.physics.battery_drain_per_m * metres)
        w.odometer_m += metres
        self.travelled += metres
        if w.battery <= 0:
            return problem("FAILED", "battery_empty", {"battery_percent": 0.0})
        if not self.halfway_reported and self.travelled >= self.distance / 2:
            self.halfway_reported = True
            if self.blocked:  # it turns back to where it came from
                return problem("BLOCKED", "path_blocked", {"room": self.sim.room_name(self.target)})
            return progress("halfway", {"travelled_m": round(self.travelled, 1), "distance_m": self.distance})
        if self.travelled >= self.distance:
            w.position = self.target
        return None

    @property
    def arrived(self) -> bool:
        return self.world.position == self.target and (self.distance <= 0 or self.travelled >= self.distance)
