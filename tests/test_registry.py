import copy
import json

import pytest

from registry.errors import RegistryError
from registry.loader import FILES, REGISTRY_DIR, from_dicts


def _data():
    return {k: json.loads((REGISTRY_DIR / f).read_text(encoding="utf-8")) for k, f in FILES.items()}


def test_every_product_capability_is_registered_with_task_methods(registry):
    expected = {
        "move_to_room": "setMoveTo", "return_to_station": "returnToStation", "selected_room_clean": "startBasicAirClear",
        "stationary_purify": "startStationaryPurify", "scanning_clean": "startScanningClean", "rotate_in_place": "rotateInPlace",
        "docking_probe": "probeDocking", "vital_signs": "startVitalSign", "take_photo": "capturePhoto",
        "request_consent": "requestConsent", "greet_user": "playGreeting", "fan_speed": "setFanSpeed",
        "night_mode": "setNightMode", "privacy_mode": "setPrivacyMode", "manner_mode": "setMannerMode", "mute": "setMute",
        "screen_brightness": "setScreenBrightness", "sound_volume": "setVolume", "sensor_mode": "setSensorMode",
        "air_quality": "getAirQuality", "air_clean_operation": "getAirCleanerOperation", "battery_status": "getBatteryStatus",
        "current_location": "getCurrentPosition", "filter_status": "getFilterStatus", "temperature_humidity": "getTemperatureHumidity",
    }
    assert set(registry.capability_by_id) == set(expected)
    for cap_id, method in expected.items():
        assert registry.capability_by_id[cap_id].operations[0].task_method == method
    assert {c for c, cap in registry.capability_by_id.items() if cap.schedulable} == {"stationary_purify", "scanning_clean"}


def test_flow_catalog_is_expanded_from_skills(registry):
    ids = registry.flow_catalog.ids()
    assert "SCH.SCH.schedule_reminder_create" in ids
    assert "ODL.ODL.device_execution_bridge" in ids
    assert "FRG.FRG.freshness_answer_composition" in ids
    assert all(f.flow_id == f"{f.route_family}.{f.agent_id}.{f.skill_id}" for f in registry.flow_catalog.flows)


def test_rooms_resolve_by_any_name(registry):
    assert registry.resolve_room("부엌") == "kitchen"
    assert registry.resolve_room("공부방") == "study"
    assert registry.resolve_room("큰 방") == "master_bedroom"
    assert registry.resolve_room("화장실") is None
    assert registry.room_distance_m("kitchen", "study") == 18


def test_invalid_registry_error_names_file_and_field():
    data = _data()
    bad = copy.deepcopy(data)
    bad["capabilities"]["capabilities"][3]["kind"] = "teleport"
    with pytest.raises(RegistryError) as exc:
        from_dicts(bad)
    assert "capability_registry.v2.json" in str(exc.value)
    assert "capabilities[3].kind" in str(exc.value)


def test_skill_requiring_unknown_capability_is_rejected():
    data = _data()
    data["skills"]["agents"][0]["skills"][0]["required_capabilities"] = ["hover"]
    with pytest.raises(RegistryError, match="skill_registry.json: agents\\[0\\].skills\\[0\\].required_capabilities"):
        from_dicts(data)


def test_unknown_family_in_weights_is_rejected():
    data = _data()
    data["weights"]["bias"]["XYZ"] = 1.0
    with pytest.raises(RegistryError, match="evidence_weights.json"):
        from_dicts(data)
