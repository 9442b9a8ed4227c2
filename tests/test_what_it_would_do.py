"""Questions about what the robot would do (on its own, in a case, even if) ask the manual; they check no state and
start nothing. The same words said as a request still act."""

import pytest

from registry.contracts import DeviceContext, TurnInput
from tests.conftest import actions


def _route(runner, text):
    return runner.route(TurnInput(recognized_text=text, device_context=DeviceContext(position="안방")))


@pytest.mark.parametrize("text", [
    "배터리가 다 떨어져도 충전대로 가?",               # Kiwi reads -어도 as 어 + 도 here; joined it supposes
    "배터리가 바닥이어도 스테이션 복귀는 되지?",
    "배터리 10프로 남았을 때도 거실까지 가?",           # (a case: already asked, a guard)
])
def test_a_question_asked_for_a_case_checks_no_state(runner, text):
    record = _route(runner, text)
    assert record.family == "DQR" and actions(record) == [], (text, record.family, actions(record))


def test_the_concessive_ending_read_in_two_pieces_is_one_clause(runner):
    record = _route(runner, "배터리가 다 떨어져도 충전대로 가?")
    assert len(record.evidence.clauses) == 1, [c.text for c in record.evidence.clauses]


@pytest.mark.parametrize("text", [
    "센서 모드 켜 두면 공기 나빠질 때 알아서 풍량 올려 줘?",
    "공기 나빠지면 자동으로 풍량 올려 줘?",
    "청정 끝나면 스스로 충전대로 돌아가 줘?",
])
def test_whether_it_does_something_on_its_own_is_asked_of_the_manual(runner, text):
    record = _route(runner, text)
    assert record.family == "DQR" and actions(record) == [], (text, record.family, actions(record))
    assert "asks_autonomy" in record.evidence.clauses[-1].speech_act.signals


@pytest.mark.parametrize("text, expected", [
    ("알아서 풍량 올려 줘", ["fan_speed.level"]),                     # no "?": asked of it, on its own judgment
    ("공기 나빠지면 알아서 풍량 올려 줘", ["air_quality.check", "fan_speed.level"]),
])
def test_on_its_own_said_as_a_request_still_acts(runner, text, expected):
    record = _route(runner, text)
    assert record.family == "ODL" and [f"{a[0]}.{a[1]}" for a in actions(record)] == expected, \
        (text, record.family, actions(record))


def test_a_benefactive_inside_a_question_not_known_asks_nothing(runner):
    record = _route(runner, "배터리 조금 남으면 안방까지 가 주는지 모르겠네")
    assert actions(record) == [] and record.family == "DQR", (record.family, actions(record))


def test_an_imperative_quoted_with_eo_rago_is_quoted(runner):
    record = _route(runner, "안방 청정해 줘라고만 해도 안방까지 알아서 가나요")
    assert actions(record) == [] and record.family == "DQR", (record.family, actions(record))
    assert any(s.startswith("quotative:") for s in record.evidence.clauses[0].speech_act.signals)


def test_on_its_own_in_a_clause_joined_to_the_request_asked_is_asked_too(runner):
    record = _route(runner, "알아서 거실 가서 청정해 줘?")
    assert record.family == "DQR" and actions(record) == [], (record.family, actions(record))
    assert _route(runner, "알아서 거실 가서 청정해 줘").family == "ODL"


@pytest.mark.parametrize("text", ["되는지 모르겠지만 풍량 강으로 해 줘", "뭔지 모르겠는데 공기 상태 좀 확인해 줘"])
def test_not_knowing_that_the_clause_goes_on_from_leaves_the_request(runner, text):
    assert _route(runner, text).family == "ODL", text


def test_a_request_after_a_condition_of_being_told_asks_how_it_answers(runner):
    record = _route(runner, "거실 가 줘라고 하면 가 줘?")
    assert record.family == "DQR" and actions(record) == [], (record.family, actions(record))


@pytest.mark.parametrize("text, level", [
    ("터보로 해 줘", 4), ("강풍으로 바꿔 줘", 3), ("약풍으로 해 줘", 1), ("미풍으로 틀어 줘", 1), ("시끄러워도 터보로 돌려 줘", 4),
])
def test_a_level_word_said_as_the_goal_sets_the_fan(runner, text, level):
    record = _route(runner, text)
    assert [(a[0], a[1], a[2].get("level")) for a in actions(record)] == [("fan_speed", "level", level)], (text, actions(record))


@pytest.mark.parametrize("text", ["우리 차 터보로 바꿨어", "강풍으로 창문이 깨졌대", "선풍기 터보로 돌려 줘", "터보로 돌리면 배터리 얼마나 가?"])
def test_a_level_word_of_something_else_or_asked_about_sets_nothing(runner, text):
    assert actions(_route(runner, text)) == [], text


@pytest.mark.parametrize("text, family", [
    ("거실 가 줍서게", "ODL"),                        # 제주 -ㅂ서: -세요
    ("이거 어떵 쓰는 거우꽈", "DQR"),                  # 어떵: 어떻게
    ("충전대로 혼자 가 주는지 몰르겄어유", "DQR"),      # 몰르겄어유: 모르겠어요
    ("풍냥 강으로 해 줘", "ODL"),                      # a recognizer's spelling of 풍량 (spelling_variants)
])
def test_regional_forms_read_as_the_standard_words(runner, text, family):
    record = _route(runner, text)
    assert record.family == family, (text, record.family)
    assert (actions(record) != []) == (family == "ODL"), (text, actions(record))


@pytest.mark.parametrize("text, expected", [
    ("바람 좀 세게 해 줘, 터보로", [("fan_speed", "level", {"level": 4})]),     # the level said after refines it
    ("볼륨 올려 줘, 10으로", [("sound_volume", "level", {"level": 10})]),
])
def test_a_setting_said_again_without_a_verb_refines_the_one_asked(runner, text, expected):
    assert [(a[0], a[1], a[2]) for a in actions(_route(runner, text))] == expected, text


def test_two_settings_asked_are_two_steps(runner):
    got = [(a[0], a[1]) for a in actions(_route(runner, "바람 세게 해 줘 그리고 볼륨 10으로 해 줘"))]
    assert got == [("fan_speed", "level"), ("sound_volume", "level")], got


@pytest.mark.parametrize("text, family", [
    ("turbo로 돌리면 battery 얼마나 가?", "DQR"),      # English nouns inside Korean read as the loanwords
    ("night mode 켜 두면 turbo 안 돼?", "DQR"),
])
def test_english_nouns_inside_korean_read_as_the_registry_words(runner, text, family):
    record = _route(runner, text)
    assert record.family == family and actions(record) == [], (text, record.family, actions(record))
    assert "터보" in record.evidence.normalized_text


def test_a_caller_named_in_regional_speech_is_somebody_else(runner):
    assert actions(_route(runner, "어멍 거실로 혼저 옵서")) == []


@pytest.mark.parametrize("text", ["고정청정 하고 있어?", "스캐닝 하고 있는 거야?", "지금 공기 정화하고 있는 거여"])
def test_whether_a_way_of_purifying_is_running_asks_its_state(runner, text):
    assert [(a[0], a[1]) for a in actions(_route(runner, text))] == [("air_clean_operation", "check")], text


def test_another_purifier_running_is_told_not_asked(runner):
    assert actions(_route(runner, "옆집 청정기 고정청정 중이래")) == []


@pytest.mark.parametrize("text", ["집 전체 청정 하면 방마다 몇 분씩 해 줘?", "언제 청정해 줘?"])
def test_a_request_form_that_asks_a_question_word_asks_it(runner, text):
    record = _route(runner, text)
    assert record.family == "DQR" and actions(record) == [], (text, record.family, actions(record))


def test_english_said_inside_korean_talk_is_another_language_not_breakage(runner):
    record = _route(runner, "My mom 은 맨날 fan 을 turbo 로 켜 놓고 자, I don't get it")
    assert record.family == "DEF" and actions(record) == [], (record.family, actions(record))
    assert _route(runner, "브 르 브므").family == "STT_NULL"  # (syllables of no language stay broken)


@pytest.mark.parametrize("text", ["거실로 갔", "청정했", "사진 찍었"])
def test_a_past_the_turn_stops_on_is_told_not_asked(runner, text):
    """Kiwi reads 갔 as 가 + the ending 어 + a dangling coda; joined it is the past, never a bare 가 asked."""
    record = _route(runner, text)
    assert actions(record) == [], (text, actions(record))
    assert record.evidence.clauses[-1].speech_act.past, text
