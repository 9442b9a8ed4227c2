"""The simulated robot and home: physical constants (PRODUCT.md) and the mutable world state."""

from __future__ import annotations

from dataclasses import dataclass, field

from pydantic import Field

from registry.contracts import Contract, DeviceContext
from registry.loader import Registry


class Physics(Contract):
    """PRODUCT.md's product figures; travel speed and distances come from the room registry."""

    battery_drain_per_m: float = 0.2
    purify_drain_per_min: float = 0.5
    charge_s_per_percent: float = 30.0
    pm25_decay_per_min: tuple[float, float, float, float] = (0.12, 0.22, 0.32, 0.45)
    """Fraction of a room's PM2.5 removed per minute of purifying, by fan level 1..4."""
    pm25_drift_per_min: float = 0.05
    """ug/m3 a room gains per minute while nobody purifies it."""
    pm25_ceiling: float = 150.0
    hepa_wear_per_hour: float = 0.07
    """HEPA percent used per hour of purifying (about 12 months at 4 hours a day)."""
    level_bounds: tuple[float, float, float] = (15.0, 35.0, 75.0)
    """PM2.5 upper bounds of good, moderate, bad; above the last is very_bad."""
    clean_phase_s: int = 180
    """selected_room_clean with a dependant completes at good air or after this; scanning spends it per room."""
    rotation_deg_per_s: float = 30.0
    docking_s: int = 5
    probe_s: int = 3
    setting_s: int = 1
    query_s: int = 1
    greeting_s: int = 3
    photo_s: int = 2
    vital_finish_s: tuple[int, int] = (50, 70)
    vital_cancel_s: int = 20
    vital_absent_s: int = 60
    consent_answer_s: tuple[int, int] = (3, 10)
    consent_no_answer_s: int = 60
    night_max_fan: int = 2
    night_brightness: int = 1
    battery_block_below: float = 15.0
    scan_min_battery: float = 30.0
    callback_grace_s: int = Field(30, ge=1)
    """How long the cloud waits after the device went idle before it calls a terminal callback missing."""


LEVELS = ("good", "moderate", "bad", "very_bad")


def air_level(pm25: float, physics: Physics) -> str:
    for bound, level in zip(physics.level_bounds, LEVELS):
        if pm25 <= bound:
            return level
    return LEVELS[-1]


@dataclass(slots=True)
class World:
    """Everything the simulator integrates; positions are room ids."""

    clock0_s: int
    position: str | None
    station_room: str
    """Where the robot believes its station is."""
    actual_station_room: str | None
    """Where it really is (None: removed)."""
    docked: bool
    battery: float
    fan_level: int
    night_mode: bool
    privacy_mode: bool
    manner_mode: bool
    mute: bool
    sensor_mode: bool
    volume: int
    brightness: int
    hepa: float
    prefilter_days: int
    pm25: dict[str, float]
    temp_c: float
    humidity: float
    tick: int = 0
    purifying: str | None = None
    """None, "basic", "stationary" or "scanning"."""
    consents: dict[str, bool] = field(default_factory=dict)
    odometer_m: float = 0.0
    blocked_rooms: frozenset[str] = frozenset()

    @property
    def clock_s(self) -> int:
        return self.clock0_s + self.tick

    def state_value(self, name: str):
        """A DeviceContext-named field as the guards read it (`device.<name>`)."""
        return _STATE_READERS[name](self)


_STATE_READERS = {
    "position": lambda w: w.position,
    "station_room": lambda w: w.station_room,
    "docked": lambda w: w.docked,
    "battery_percent": lambda w: round(w.battery, 2),
    "charging": lambda w: w.docked and w.battery < 100,
    "fan_level": lambda w: w.fan_level,
    "night_mode": lambda w: w.night_mode,
    "privacy_mode": lambda w: w.privacy_mode,
    "manner_mode": lambda w: w.manner_mode,
    "mute": lambda w: w.mute,
    "sensor_mode": lambda w: w.sensor_mode,
    "volume": lambda w: w.volume,
    "brightness": lambda w: w.brightness,
    "hepa_remaining_percent": lambda w: round(w.hepa, 2),
    "prefilter_days_since_wash": lambda w: w.prefilter_days,
    "temperature_c": lambda w: w.temp_c,
    "humidity_percent": lambda w: w.humidity,
}
STATE_FIELDS = frozenset(_STATE_READERS)


def world_from_context(context: DeviceContext, registry: Registry, clock0_s: int,
                       actual_station_room: str | None = None, station_removed: bool = False,
                       blocked_rooms: frozenset[str] = frozenset()) -> World:
    """The simulator's start state from a device context (names resolved to room ids)."""
    position = registry.resolve_room(context.position) or registry.rooms.station_room
    station = registry.resolve_room(context.station_room) or registry.rooms.station_room
    actual = None if station_removed else (registry.resolve_room(actual_station_room) if actual_station_room else station)
    pm25 = {room_id: 0.0 for room_id in registry.room_by_id}
    for key, value in context.pm25_by_room.items():
        room_id = registry.resolve_room(key)
        if room_id is not None:
            pm25[room_id] = float(value)
    return World(
        clock0_s=clock0_s, position=position, station_room=station, actual_station_room=actual,
        docked=context.docked and position == actual, battery=float(context.battery_percent), fan_level=context.fan_level,
        night_mode=context.night_mode, privacy_mode=context.privacy_mode, manner_mode=context.manner_mode,
        mute=context.mute, sensor_mode=context.sensor_mode, volume=context.volume, brightness=context.brightness,
        hepa=context.hepa_remaining_percent, prefilter_days=context.prefilter_days_since_wash, pm25=pm25,
        temp_c=context.temperature_c, humidity=context.humidity_percent, blocked_rooms=blocked_rooms,
    )
