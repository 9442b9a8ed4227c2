"""A deterministic, tick-based simulator of the robot and the home (one tick = one simulated second).

`advance()` integrates the physics of PRODUCT.md (battery, charging, PM2.5, filter wear);
`start()` checks the capability's registry policies and creates the task's activity;
`step()` moves one activity by one second, applying the scenario's task faults.
Same registry, context, scenario and seed -> the same run, tick for tick.
"""

from __future__ import annotations

import random
from typing import Any, Callable

from device.activities import activity_for
from device.activity_base import Activity, Signal, problem
from device.scenario import Scenario, TaskFails, TaskPauses, TaskStalls, PathBlocked, start_clock_s
from device.world import Physics, World, air_level, world_from_context
from registry.contracts import DeviceContext
from registry.device_bridge import required_device_params
from registry.device_contracts import DeviceTaskRequest
from registry.errors import RegistryError
from registry.loader import FILES, Registry


def _policy_checks(physics: Physics) -> dict[str, Callable[[World, DeviceTaskRequest], str | None]]:
    """Registry policy name -> a check returning the blocking reason code, or None."""
    return {
        "battery_min_15": lambda w, r: "battery_low" if w.battery < physics.battery_block_below else None,
        "battery_min_30_start": lambda w, r: "battery_low" if w.battery < physics.scan_min_battery else None,
        "privacy_blocks_camera": lambda w, r: "privacy_mode_active" if w.privacy_mode else None,
        "consent_required": lambda w, r: None if w.consents.get(r.capability_id) else "consent_required",
    }


class Simulator:
    def __init__(self, registry: Registry, context: DeviceContext | None = None, scenario: Scenario | None = None,
                 seed: int = 0, physics: Physics | None = None):
        self.registry = registry
        self.scenario = scenario or Scenario()
        self.physics = physics or Physics()
        self.rng = random.Random(seed)
        self.speed = registry.rooms.speed_m_per_s
        blocked = frozenset(r for f in self.scenario.faults_of(PathBlocked) if (r := registry.resolve_room(f.room)))
        self.world: World = world_from_context(
            context or DeviceContext(), registry, start_clock_s(self.scenario.start_clock),
            actual_station_room=self.scenario.actual_station_room, station_removed=self.scenario.station_removed, blocked_rooms=blocked,
        )
        self._policies = _policy_checks(self.physics)
        for cap in registry.capabilities.capabilities:
            for name in cap.policies:
                if name not in self._policies:
                    raise RegistryError(FILES["capabilities"], f"{cap.capability_id}.policies", f"the simulator knows no policy {name!r}")
        self._decay = tuple(k / 60.0 for k in self.physics.pm25_decay_per_min)
        self._drift = self.physics.pm25_drift_per_min / 60.0
        self._purify_drain = self.physics.purify_drain_per_min / 60.0
        self._wear = self.physics.hepa_wear_per_hour / 3600.0
        self._charge = 1.0 / self.physics.charge_s_per_percent
        self._fails = self.scenario.faults_of(TaskFails)
        self._stalls = {f.task_method for f in self.scenario.faults_of(TaskStalls)}
        self._pauses = self.scenario.faults_of(TaskPauses)

    # -- physics --------------------------------------------------------------------------

    def advance(self) -> None:
        """One simulated second of physics."""
        w = self.world
        w.tick += 1
        pm25 = w.pm25
        purified = None
        if w.purifying is not None:
            w.battery = max(0.0, w.battery - self._purify_drain)
            w.hepa = max(0.0, w.hepa - self._wear)
            purified = w.position
            if purified is not None:
                pm25[purified] -= pm25[purified] * self._decay[w.fan_level - 1]
        ceiling, drift = self.physics.pm25_ceiling, self._drift
        for room, value in pm25.items():
            if room != purified and value < ceiling:
                pm25[room] = value + drift
        if w.docked and w.battery < 100.0:
            w.battery = min(100.0, w.battery + self._charge)

    # -- tasks ------------------------------------------------------------------------------

    def start(self, request: DeviceTaskRequest) -> tuple[Activity | None, list[Signal]]:
        """The task's activity, or None and the BLOCKED signal of the first policy that forbids it."""
        cap = self.registry.capability_by_id[request.capability_id]
        for name in cap.policies:
            reason = self._policies[name](self.world, request)
            if reason is not None:
                return None, [problem("BLOCKED", reason, self.state_excerpt(reason))]
        activity = activity_for(self, request)
        return activity, activity.start()

    def step(self, activity: Activity, attempt: int) -> list[Signal]:
        """One second of a running activity, with the scenario's task faults applied."""
        activity.elapsed += 1
        method = activity.request.taskMethod
        for fault in self._fails:
            if fault.task_method == method and attempt <= fault.times and (
                (fault.at_tick is not None and self.world.tick >= fault.at_tick)
                or (fault.at_tick is None and activity.elapsed >= fault.after_s)
            ):
                activity.cancel()
                return [problem("FAILED", fault.reason_code, {"retryable": fault.retryable})]
        for pause in self._pauses:
            if pause.task_method == method and activity.elapsed == pause.after_s:
                activity.cancel()
                return [problem("PAUSED", pause.reason_code)]
        if method in self._stalls:
            return []
        return activity.step()

    # -- readings -------------------------------------------------------------------------

    def room_name(self, room_id: str | None) -> str | None:
        return self.registry.room_by_id[room_id].canonical_name if room_id else None

    def air_report(self, room_id: str | None) -> dict[str, Any]:
        room_id = room_id or self.world.position
        pm25 = round(self.world.pm25[room_id], 1)
        return {"room": self.room_name(room_id), "pm25": pm25, "pm10": round(pm25 * 1.4, 1), "level": air_level(pm25, self.physics)}

    def state_excerpt(self, reason: str) -> dict[str, Any]:
        w = self.world
        if reason == "battery_low":
            return {"battery_percent": round(w.battery)}
        if reason == "privacy_mode_active":
            return {"privacy_mode": True}
        return {}

    def required_params(self, request: DeviceTaskRequest) -> list[str]:
        """Device params the operation needs (a level setting needs its level)."""
        return required_device_params(self.registry.capability_by_id[request.capability_id].operation(request.operation_id))
