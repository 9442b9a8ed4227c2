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


@pytest.mark.parametrize("text, expected", [
    ("엄마가 터보로 해 줘라고 하셨어 터보로 해 줘", ["fan_speed.level"]),
    ("볼륨 3으로 해 줘라고 했는데 못 들었나 보네 볼륨 3으로 해 줘", ["sound_volume.level"]),
    ("애가 충전하러 가 줘라고 하잖아 충전하러 가", ["return_to_station.start"]),
])
def test_a_request_relayed_after_quoting_it_acts(runner, text, expected):
    """The words quoted are the very request the turn then makes: the quote is its reason, not talk that outweighs it,
    and the subject of the words reported is not the doer of the request after them."""
    record = _route(runner, text)
    got = [f"{cap}.{op}" for cap, op, _, _ in actions(record)]
    assert record.family == "ODL" and got == expected, (text, record.family, got)


@pytest.mark.parametrize("text", ["엄마가 터보로 해 줘라고 하셨어", "엄마가 거실 가라고 했어 안방 가 있을게"])
def test_a_request_only_quoted_or_not_relayed_to_the_robot_does_nothing(runner, text):
    assert actions(_route(runner, text)) == []


@pytest.mark.parametrize("text, expected", [
    ("센서 모드 켜 줘 에어컨은 내가 켤게", ["sensor_mode.on"]),
    ("센서 모드 켜 줘 창문은 내가 닫을게", ["sensor_mode.on"]),
])
def test_another_thing_the_speaker_will_see_to_is_their_own_part(runner, text, expected):
    """The speaker's promise about another thing of the home, said beside a licensed request, is no talk that
    outweighs it (stages._across_clauses.quiet_reasons)."""
    record = _route(runner, text)
    got = [f"{cap}.{op}" for cap, op, _, _ in actions(record)]
    assert record.family == "ODL" and got == expected, (text, record.family, got)


def test_a_stop_with_no_object_stops_what_the_reason_names(runner):
    record = _route(runner, "청정 이제 됐으니까 꺼 줘")
    assert [f"{cap}.{op}" for cap, op, _, _ in actions(record)] == ["selected_room_clean.stop"]


def test_a_premise_hands_on_no_act_to_start(runner):
    record = _route(runner, "사진 다 찍었으니까 꺼 줘")  # only a stop carries over: nothing is started
    assert actions(record) == [] and record.family != "ODL", (record.family, actions(record))


@pytest.mark.parametrize("text, expected", [
    ("음량 3으로 낮춰줘, 방송 중이야", ["sound_volume.level"]),  # what the speaker is busy with (other_targets busy_with)
    ("음소거 해줘, 방송에 소리 들어가", ["mute.on"]),
])
def test_what_the_speaker_is_busy_with_leaves_the_request_to_the_robot(runner, text, expected):
    record = _route(runner, text)
    assert record.family == "ODL" and [f"{cap}.{op}" for cap, op, _, _ in actions(record)] == expected


def test_what_is_played_nearby_still_owns_the_request(runner):
    record = _route(runner, "볼륨 좀 올려 줘, 뉴스 하나도 안 들려")
    assert actions(record) == [] and record.family == "UNS"


@pytest.mark.parametrize("text", ["야구 중계 소리가 안 들려, 좀 크게 해", "인강이 잘 안 들려요 소리 좀 높여 주세요"])
def test_a_broadcast_or_a_lecture_that_cannot_be_heard_owns_the_volume_asked(runner, text):
    record = _route(runner, text)
    assert actions(record) == [] and record.family == "UNS"
