"""A reason given before a request (-니까, and what is joined on to it) asks for nothing: the other thing or the act it
names is no request of the turn, and the request after it still acts. A reason with no request after it asks nothing."""

import pytest

from registry.contracts import DeviceContext, TurnInput
from tests.conftest import actions


def _route(runner, text):
    return runner.route(TurnInput(recognized_text=text, device_context=DeviceContext(position="안방")))


@pytest.mark.parametrize("text, expected", [
    ("에어컨 켰으니까 너는 바람 약으로 해 줘", ["fan_speed.level"]),
    ("창문 열어 놨으니까 청정은 꺼", ["selected_room_clean.stop"]),
    ("에어컨 끄고 잘 거니까 너 나이트 모드 켜 줘", ["night_mode.on"]),
    ("로봇청소기가 거실 돌고 있으니까 너는 안방으로 가 있어", ["move_to_room.start"]),
])
def test_another_thing_named_in_the_reason_leaves_the_request_to_the_robot(runner, text, expected):
    record = _route(runner, text)
    got = [f"{cap}.{op}" for cap, op, _, _ in actions(record)]
    assert record.family == "ODL" and got == expected, (text, record.family, got)
    assert record.evidence.clauses[0].speech_act.mood == "statement"  # the reason


@pytest.mark.parametrize("text", [
    "청정 켜 줄 거니까 걱정 마",        # a promise given as the reason of a comfort
    "청정 해 주니까 좋네",
])
def test_a_device_word_in_a_reason_starts_nothing(runner, text):
    record = _route(runner, text)
    assert actions(record) == [], (text, record.family, actions(record))


@pytest.mark.parametrize("text, category", [
    ("추우니까 창문 닫아 줘", "physical_manipulation"),   # the request after the reason is still the turn's
    ("더우니까 에어컨 좀 켜 줘", "other_appliance_control"),
])
def test_the_request_after_a_reason_is_still_read(runner, text, category):
    record = _route(runner, text)
    assert record.family == "UNS" and category in record.unsupported_categories, (text, record.family)
    assert actions(record) == []
