"""What each task method does in the simulated world, one second at a time.

An activity reports `Signal`s: progress, evidence (terminal evidence of the registry, with the
task's output), a problem (FAILED, BLOCKED, PAUSED, NEEDS_USER_INPUT with a reason code) or a
user-ended session. The TaskManager turns signals into events; activities know nothing of
workflows.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from device.world import air_level
from device.activity_base import Activity, Signal, Timed, evidence, problem, progress
from registry.device_contracts import DeviceTaskRequest

if TYPE_CHECKING:
    from device.simulator import Simulator


class MoveTo(Activity):
    def start(self) -> list[Signal]:
        target = self.sim.registry.resolve_room(str(self.params.get("position", "")))
        if target is None:
            self.done = True
            return [problem("FAILED", "unknown_room", {"position": self.params.get("position")})]
        self.drive_to(target)
        return []

    def step(self) -> list[Signal]:
        out, arrived = self.drive_on()
        if arrived:
            self.done = True
            out.append(evidence("movement.arrived", {"room": self.sim.room_name(self.drive.target), "distance_m": self.drive.distance}))
        return out


class ReturnToStation(Activity):
    def start(self) -> list[Signal]:
        w = self.world
        if w.docked:
            self.done = True
            return [evidence("docking.docked", {"room": self.sim.room_name(w.position), "already_docked": True})]
        self.drive_to(w.station_room)
        self.docking_left = self.sim.physics.docking_s
        return []

    def step(self) -> list[Signal]:
        out, arrived = self.drive_on()
        if not arrived:
            return out
        self.docking_left -= 1
        if self.docking_left > 0:
            return []
        self.done = True
        w = self.world
        if w.actual_station_room != w.position:
            return [problem("FAILED", "station_not_found", {"room": self.sim.room_name(w.position)})]
        w.docked = True
        return [evidence("docking.docked", {"room": self.sim.room_name(w.position)})]


class BasicAirClear(Activity):
    """Purifies the selected room: open-ended (air_clean.running) or until good air / 3 minutes."""

    def start(self) -> list[Signal]:
        target = self.params.get("position")
        room = self.sim.registry.resolve_room(str(target)) if target is not None else self.world.position
        if room is None:
            self.done = True
            return [problem("FAILED", "unknown_room", {"position": target})]
        self.drive_to(room)
        self.until_done = "air_clean.completed" in self.request.completion_evidence
        self.cleaning_s = 0
        return []

    def step(self) -> list[Signal]:
        w = self.world
        out, arrived = self.drive_on()
        if not arrived:
            return out
        room = self.drive.target
        if not self.cleaning_s:
            w.purifying = "basic"
            self.cleaning_s = 1
            self.done = not self.until_done
            return [evidence("air_clean.running", self.sim.air_report(room), final=self.done)]
        if w.purifying != "basic":  # stopped by a later task
            self.done = True
            return [evidence("air_clean.stopped", {"room": self.sim.room_name(room)})]
        self.cleaning_s += 1
        level = air_level(w.pm25[room], self.sim.physics)
        if level == "good" or self.cleaning_s >= self.sim.physics.clean_phase_s:
            w.purifying = None
            self.done = True
            return [evidence("air_clean.completed", {**self.sim.air_report(room), "duration_s": self.cleaning_s})]
        return []


    def cancel(self) -> None:
        if not self.done and self.world.purifying == "basic":
            self.world.purifying = None
        self.done = True


class StopPurifying(Timed):
    """stopBasicAirClear / stopStationaryPurify."""

    def __init__(self, sim, request, mode: str, evidence_name: str):
        super().__init__(sim, request)
        self.mode, self.evidence_name = mode, evidence_name

    def finish(self) -> Signal:
        was = self.world.purifying == self.mode
        if was:
            self.world.purifying = None
        return evidence(self.evidence_name, {"was_running": was, "room": self.sim.room_name(self.world.position)})


class StationaryPurify(Timed):
    def finish(self) -> Signal:
        self.world.purifying = "stationary"
        return evidence("purify.running", {"room": self.sim.room_name(self.world.position)}, final=True)


class ScanningClean(Activity):
    """Visits every registered room and purifies each for clean_phase_s."""

    def start(self) -> list[Signal]:
        rooms = list(self.sim.registry.room_by_id)
        here = self.world.position
        self.rooms = ([here] if here in rooms else []) + [r for r in rooms if r != here]
        self.index = 0
        self.phase_s = 0
        self.drive_to(self.rooms[0])
        return []

    def step(self) -> list[Signal]:
        w = self.world
        out, arrived = self.drive_on()
        if not arrived:
            return out
        w.purifying = "scanning"
        self.phase_s += 1
        if self.phase_s < self.sim.physics.clean_phase_s:
            return []
        room = self.rooms[self.index]
        out = [progress("room_done", self.sim.air_report(room))]
        self.index += 1
        if self.index >= len(self.rooms):
            w.purifying = None
            self.done = True
            out.append(evidence("scan.completed", {"rooms": len(self.rooms)}))
            return out
        self.phase_s = 0
        self.drive_to(self.rooms[self.index])
        return out


    def cancel(self) -> None:
        if self.world.purifying == "scanning":
            self.world.purifying = None
        self.done = True


class Rotate(Timed):
    def duration(self) -> int:
        return max(1, math.ceil(int(self.params.get("degrees", 360)) / self.sim.physics.rotation_deg_per_s))

    def finish(self) -> Signal:
        return evidence("rotation.completed", {"degrees": int(self.params.get("degrees", 360))})


class ProbeDocking(Timed):
    def duration(self) -> int:
        return self.sim.physics.probe_s

    def finish(self) -> Signal:
        w = self.world
        visible = w.actual_station_room == w.position
        if visible:
            w.station_room = w.position  # a station it has seen is where returnToStation goes from now on
        return evidence("probe.result", {"station_visible": visible, "room": self.sim.room_name(w.position)})


class VitalSign(Activity):
    """A measurement session that ends when the simulated user finishes or cancels it."""

    def start(self) -> list[Signal]:
        user, ph = self.sim.scenario.user, self.sim.physics
        self.behaviour = user.vital_signs
        if self.behaviour == "finish":
            self.ends_at = user.vital_signs_after_s or self.sim.rng.randint(*ph.vital_finish_s)
        elif self.behaviour == "cancel":
            self.ends_at = user.vital_signs_after_s or ph.vital_cancel_s
        else:
            self.ends_at = ph.vital_absent_s
        return [progress("session_started")]

    def step(self) -> list[Signal]:
        if self.elapsed < self.ends_at:
            return []
        self.done = True
        if self.behaviour == "absent":
            return [problem("NEEDS_USER_INPUT", "user_not_present")]
        if self.behaviour == "cancel":
            return [Signal("user_ended", evidence="app.sessionEnded", output={"outcome": "cancelled"}, reason_code="user_cancelled")]
        rng = self.sim.rng
        return [evidence("app.sessionEnded", {"outcome": "completed", "heart_rate_bpm": rng.randint(62, 84),
                                              "respiration_rate": rng.randint(12, 18), "duration_s": self.elapsed})]


class CapturePhoto(Timed):
    def duration(self) -> int:
        return self.sim.physics.photo_s

    def finish(self) -> Signal:
        self.world.consents.pop("take_photo", None)  # one consent, one photo
        return evidence("camera.photoSaved", {"photo_id": f"photo-{self.world.tick}"})


class RequestConsent(Activity):
    def start(self) -> list[Signal]:
        user, ph = self.sim.scenario.user, self.sim.physics
        self.answer = user.consent
        self.purpose = str(self.params.get("purpose", ""))
        self.ends_at = ph.consent_no_answer_s if self.answer == "no_answer" else (
            user.consent_after_s or self.sim.rng.randint(*ph.consent_answer_s))
        return [progress("awaiting_user", {"purpose": self.purpose})]

    def step(self) -> list[Signal]:
        if self.elapsed < self.ends_at:
            return []
        self.done = True
        if self.answer == "no_answer":
            return [problem("NEEDS_USER_INPUT", "consent_no_answer", {"purpose": self.purpose})]
        granted = self.answer == "granted"
        if granted:
            self.world.consents[self.purpose] = True
        return [evidence("consent.granted" if granted else "consent.denied", {"granted": granted, "purpose": self.purpose})]


class Greeting(Timed):
    def duration(self) -> int:
        return self.sim.physics.greeting_s

    def finish(self) -> Signal:
        w = self.world
        return evidence("greeting.played", {"voice": "muted" if w.mute else "low" if w.manner_mode else "normal"})


class Setting(Timed):
    """setFanSpeed, setNightMode, ...: applies a setting within the modes' limits."""

    def __init__(self, sim, request, capability_id: str):
        super().__init__(sim, request)
        self.capability_id = capability_id

    def start(self) -> list[Signal]:
        self.missing = [p for p in self.sim.required_params(self.request) if p not in self.params]
        if not self.missing and "enabled" not in self.params and "level" not in self.params and "delta" not in self.params:
            self.missing = ["level"]
        return []

    def step(self) -> list[Signal]:
        if self.missing:
            self.done = True
            return [problem("FAILED", "missing_param", {"missing": self.missing})]
        return super().step()

    def duration(self) -> int:
        return self.sim.physics.setting_s

    def finish(self) -> Signal:
        w, ph, cap = self.world, self.sim.physics, self.capability_id
        out: dict[str, Any] = {"setting": cap}
        if "enabled" in self.params:
            value = bool(self.params["enabled"])
            setattr(w, cap, value)
            if cap == "night_mode" and value:
                w.fan_level = min(w.fan_level, ph.night_max_fan)
                w.brightness = ph.night_brightness
            out["value"] = value
            return evidence("setting.applied", out)
        if "level" in self.params:
            requested = int(self.params["level"])
        else:  # a relative change ("한 단계 올려"), kept inside the operation's range
            spec = self.sim.registry.capability_by_id[cap].operation("level").arguments["level"]
            current = getattr(w, _LEVEL_FIELDS[cap])
            requested = max(spec.minimum, min(spec.maximum, current + int(self.params["delta"])))
        applied, limited_by = requested, None
        if cap == "fan_speed" and w.night_mode and requested > ph.night_max_fan:
            applied, limited_by = ph.night_max_fan, "night_mode"
        if cap == "screen_brightness" and w.night_mode and requested > ph.night_brightness:
            applied, limited_by = ph.night_brightness, "night_mode"
        setattr(w, _LEVEL_FIELDS[cap], applied)
        out.update(value=applied, requested=requested, limited_by=limited_by)
        return evidence("setting.applied", out)


_LEVEL_FIELDS = {"fan_speed": "fan_level", "screen_brightness": "brightness", "sound_volume": "volume"}


class StateQuery(Timed):
    """get*: reports a reading as state.reported."""

    def __init__(self, sim, request, capability_id: str):
        super().__init__(sim, request)
        self.capability_id = capability_id

    def duration(self) -> int:
        return self.sim.physics.query_s

    def finish(self) -> Signal:
        w, sim = self.world, self.sim
        cap = self.capability_id
        if cap == "air_quality":
            target = self.params.get("position")
            room = sim.registry.resolve_room(str(target)) if target is not None else w.position
            out = sim.air_report(room or w.position)
            out["measured_here"] = room == w.position
        elif cap == "air_clean_operation":
            out = {"running": w.purifying is not None, "mode": w.purifying}
        elif cap == "battery_status":
            out = {"percent": round(w.battery, 1), "charging": w.docked and w.battery < 100}
        elif cap == "current_location":
            out = {"room": sim.room_name(w.position), "docked": w.docked}
        elif cap == "filter_status":
            out = {"hepa_remaining_percent": round(w.hepa, 1), "prefilter_days_since_wash": w.prefilter_days}
        else:
            out = {"temp_c": w.temp_c, "humidity": w.humidity}
        return evidence("state.reported", out)


def activity_for(sim: "Simulator", request: DeviceTaskRequest) -> Activity:
    """The behaviour of a registered task method (every method of the registry has one)."""
    method, cap = request.taskMethod, request.capability_id
    simple = {
        "setMoveTo": MoveTo, "returnToStation": ReturnToStation, "startBasicAirClear": BasicAirClear,
        "startStationaryPurify": StationaryPurify, "startScanningClean": ScanningClean, "rotateInPlace": Rotate,
        "probeDocking": ProbeDocking, "startVitalSign": VitalSign, "capturePhoto": CapturePhoto,
        "requestConsent": RequestConsent, "playGreeting": Greeting,
    }
    if method in simple:
        return simple[method](sim, request)
    if method == "stopBasicAirClear":
        return StopPurifying(sim, request, "basic", "air_clean.stopped")
    if method == "stopStationaryPurify":
        return StopPurifying(sim, request, "stationary", "purify.stopped")
    kind = sim.registry.capability_by_id[cap].kind
    if kind == "settings":
        return Setting(sim, request, cap)
    if kind == "state_query":
        return StateQuery(sim, request, cap)
    raise KeyError(method)
