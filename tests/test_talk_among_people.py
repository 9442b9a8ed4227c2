"""Talk among the people present: proposals of what they will do together, remarks on what something is, and the
sounds and parts of other things. None of it asks the robot for an act."""

import pytest

from registry.contracts import DeviceContext, TurnInput, VoiceContext
from tests.conftest import actions


def _route(runner, text):
    return runner.route(TurnInput(recognized_text=text, device_context=DeviceContext(position="안방")))


def _caps(runner, text):
    return [cap for cap, _, _, _ in actions(_route(runner, text))]


@pytest.mark.parametrize("text", ["거실 가서 티비 보자", "주방 가서 라면 끓여 먹자", "안방 가서 드라마 보자"])
def test_a_proposal_of_an_act_the_robot_cannot_do_is_a_plan_among_people(runner, text):
    """-자 on a verb that is none of the robot's registry words (먹, 끓이), or on looking at something played or at
    another thing (티비 보자, 드라마 보자), proposes what the people present will do: the move before it goes with them."""
    assert _caps(runner, text) == [], text


@pytest.mark.parametrize("text, cap", [("충전하러 가자", "return_to_station"), ("이제 청정 시작하자", "selected_room_clean"),
                                       ("거실 가서 좀 보자", "move_to_room"),
                                       ("방금 계단 뛰어 올라왔는데 심박 좀 재 보자", "vital_signs")])
def test_a_proposal_of_the_robots_own_act_still_asks_it(runner, text, cap):
    assert cap in _caps(runner, text), (text, _caps(runner, text))


def test_a_proposal_looks_nothing_up_where_a_wondering_question_does(runner):
    """내일 카페 가자 names a place of the world in a proposal, not a question about it; 내일 비 올까? asks the weather."""
    assert _route(runner, "내일 카페 가자").family == "DEF"
    assert _route(runner, "내일 비 올까?").family == "FRG"


def test_a_copula_closing_on_a_reason_tells_what_something_is(runner):
    """선풍기 바람도 뜨신 바람이라: a noun's copula with -라 at the end is a remark, not a fragment of a request to
    another appliance; 실례지만... trails off and stays a broken turn."""
    assert _route(runner, "용광로 앞에 서 있으면 선풍기 바람도 뜨신 바람이라").family == "DEF"
    assert _route(runner, "저... 실례지만...").family == "STT_NULL"


def test_a_necessity_followed_by_what_is_done_is_told(runner):
    """갈아야 되는데 계속 미루고 있어: the necessity is the premise of a verb after it, and the filter is the air
    conditioner's; 필터 언제 갈아야 돼? still asks the manual."""
    assert _route(runner, "작업실 에어컨 필터 갈아야 되는데 계속 미루고 있어").family == "DEF"
    assert _route(runner, "필터 언제 갈아야 돼?").family == "DQR"


@pytest.mark.parametrize("text", ["키보드 소리 좀 줄여 줄래", "네비 소리 좀 줄여 줘", "전화벨 소리 좀 줄여", "아기 모빌 소리 좀 키워 봐"])
def test_the_sound_of_another_thing_is_not_the_robots_volume(runner, text):
    assert _caps(runner, text) == [], text


def test_the_sound_said_alone_is_still_the_robots(runner):
    assert _caps(runner, "소리 좀 줄여 줘") == ["sound_volume"]


def test_a_turn_said_to_everyone_together_is_said_to_people(runner):
    """다 같이 (speech_acts vocatives groups) calls the people present; 한 바퀴 돌아 alone still turns the robot."""
    assert _caps(runner, "자 이제 다 같이 한 바퀴 돌아 보세요") == []
    assert _caps(runner, "한 바퀴 돌아") == ["rotate_in_place"]


@pytest.mark.parametrize("text", ["왼쪽으로 돌아 오른쪽으로 돌아 짝짝", "자 따라 해 보세요 오른쪽으로 돌아"])
def test_a_turn_toward_a_direction_is_no_turn_in_place(runner, text):
    """왼쪽으로 돌아: a noun with a goal particle before the bare verb of turning (request_frames goal_objects) must be
    one of the frame's objects, as an object must; a dance step or a drill asks the robot for nothing."""
    assert _caps(runner, text) == [], text


@pytest.mark.parametrize("text", ["시계 방향으로 돌아", "오른쪽으로 한 바퀴 돌아", "제자리에서 돌아", "반대로 돌아"])
def test_a_turn_in_place_with_its_way_named_still_turns(runner, text):
    assert _caps(runner, text) == ["rotate_in_place"], text


@pytest.mark.parametrize("text", ["불꽃놀이 사진 찍으러 한강 가자", "사진 찍으러 공원 가자", "할머니 댁 가서 사진 찍자",
                                  "친정 가서 사진 찍자"])
def test_going_out_to_a_place_of_the_world_is_the_peoples_outing(runner, text):
    """-자 with a verb of going, in its own clause or one joined on to it, to a place named before it that is none of
    the home's (a proper noun that is no registry word, a public place, or person_purposes away_places: 댁, 친정): the
    photo is what the outing is for, not a request to the robot."""
    assert _caps(runner, text) == [], text


def test_going_to_a_room_of_the_home_to_take_a_photo_still_asks(runner):
    assert "take_photo" in _caps(runner, "사진 찍으러 서재 가자")


@pytest.mark.parametrize("text", ["충전대로… 아 전화 왔다", "배터리… 아 맞다 나 약속 있지", "청정을 그… 아 졸려"])
def test_a_request_broken_off_before_a_remark_is_asked_again(runner, text):
    """The robot's words broken off by an ellipsis before a sentence opening on an interjection (is_broken_off_request,
    a decision by mechanism, and a repair for the pairwise judge): the remark after it does not make the turn talk."""
    record = _route(runner, text)
    assert record.family == "STT_NULL" and actions(record) == [], (text, record.family)


def test_a_pause_inside_a_request_still_acts(runner):
    assert "selected_room_clean" in _caps(runner, "거실… 청정해 줘")


@pytest.mark.parametrize("text", ["지금 거기 날씨 덥지? 온도 몇 도야?", "그쪽 공기는 어때? 미세먼지 심해?", "거기 습도 몇이야?"])
def test_the_air_of_a_place_away_is_not_the_robots_to_check(runner, text):
    """거기 / 그쪽 with no room named: the place of the person spoken to (a call, a message); the robot measures only
    where it stands, so nothing is checked (lexicon frg.remote_places)."""
    assert _caps(runner, text) == []


def test_there_after_a_room_or_asked_for_is_where_the_robot_goes(runner):
    """거기 after a room named in the turn, or in a request, is that room: the robot goes and checks."""
    assert _caps(runner, "서재 가 봐. 거기 공기 어때?") == ["move_to_room", "air_quality"]
    assert _caps(runner, "이동 끝나면 거기 습도 알려 줘") == ["temperature_humidity"]


def test_a_ringtone_or_a_speakerphone_is_the_phones_sound(runner):
    """벨소리 줄여 / 스피커폰 소리 키워: the sound of the phone (speech_acts other_targets.phone), not the robot's volume;
    a call going on as the reason (통화 중이야 소리 좀 줄여 줘) still asks the robot."""
    assert _caps(runner, "벨 소리 좀 줄여 놔 회의 들어가") == []
    assert _caps(runner, "스피커폰 볼륨 좀 올려 봐") == []
    assert _caps(runner, "통화 중이야 소리 좀 줄여 줘") == ["sound_volume"]



@pytest.mark.parametrize("text", ["너 지금 어디쯤이야? 아직 학교야?", "어디야 지금? 거의 다 왔어?", "지금 어디야? 점심은 먹었어?",
                                  "거기 춥지? 온도 몇 도야?"])  # (거기 in the clause before: the place of the one asked)
def test_where_are_you_asked_of_somebody_away_checks_nothing(runner, text):
    """지금 어디야? beside a question of a place people go (아직 학교야?), of arriving (거의 다 왔어?) or of a person's
    own act done (점심은 먹었어?) is a call or a message to somebody away (speech_acts away_questions): no location
    check. Alone, beside a room, or with the robot called, it is the robot's."""
    assert _caps(runner, text) == []
    assert _caps(runner, "지금 어디야?") == ["current_location"]
    assert _caps(runner, "너 지금 어디야? 안방이야?") == ["current_location"]
    assert _caps(runner, "로봇아 어디야? 언제 와?") == ["current_location"]


def test_a_time_said_to_a_person_answers_no_schedule_question_of_the_robots(runner):
    """엄마 몇 시에 온다 했지? 일곱 시?: while the robot waits for a schedule's time, a time said to a person called is
    theirs (evidence_weights closed_by_a_person_called: has_contextual_schedule_slot_fragment); said to the robot, or
    relayed (엄마가 일곱 시라던데), it still answers."""
    waiting = VoiceContext(last_route="SCH", pending_follow_up_text="몇 시에 시작할까요?", history_hint_strength="strong",
                           slot_state={"owner_route": "SCH", "skill": "schedule_device_task_create",
                                       "function": "stationary_purify", "missing_slots": ["start_time"]})
    for text in ("엄마 몇 시에 온다 했지? 일곱 시?", "여보 몇 시에 와? 일곱 시?"):
        assert runner.route_text(text, voice_context=waiting).family == "DEF", text
    answered = runner.route_text("일곱 시", voice_context=waiting)
    assert answered.family == "SCH" and answered.slots["start_time"] == "07:00"


@pytest.mark.parametrize("text", ["어제 바람이 얼마나 세게 불었는지 베란다 화분이 다 넘어갔어", "장마가 언제 끝나려나 빨래가 도통 안 마르네"])
def test_weather_in_a_story_or_a_sigh_is_talk_the_judge_does_not_turn_into_a_lookup(runner, text):
    """A weather word lights a public scope, but when the first pass puts the lookup far out of reach (second_pass
    public_override_max_gap) the judge does not ask whether a public target is alive."""
    record = _route(runner, text)
    assert record.family == "DEF" and not record.evidence.second_pass.ran, (record.family, record.evidence.second_pass)


@pytest.mark.parametrize("text", ["내일 비 와?", "오늘 날씨 어때"])
def test_a_weather_question_is_still_a_lookup(runner, text):
    assert _route(runner, text).family == "FRG"
