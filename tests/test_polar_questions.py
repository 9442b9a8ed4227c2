"""A yes-or-no asked as two alternatives with no conjunction and no question mark (청정 켜져 있어 꺼져 있어, 충전
중이야 아니야) is one question: a state of the robot asked this way is checked, and nothing is started, stopped or
changed. A room name with the copula, asked, asks where the robot is."""

import pytest

from registry.contracts import TurnInput
from stages.normalization import normalized_text

from tests.conftest import routed_in_the_living_room


_route = routed_in_the_living_room


@pytest.mark.parametrize("text,expected", [
    ("청정 켜져 있어 꺼져 있어", ("air_clean_operation", "check")),  # the opposite predicate (lexicon polar opposites)
    ("충전 중이야 아니야", ("battery_status", "check")),  # a denial alone after the sentence
    ("지금 켜져 있어 안 켜져 있어", ("air_clean_operation", "check")),  # the predicate negated
    ("습도 높아 낮아", ("temperature_humidity", "check")),  # 높다 is a state's predicate (request_frames)
    ("니 지금 충전 되고 있나 아이면 안 되고 있나", ("battery_status", "check")),  # 아이면: 경상도 아니면
])
def test_a_polar_pair_asks_the_state_and_changes_nothing(runner, text, expected):
    record, caps = _route(runner, text)
    assert record.family == "ODL" and caps == [expected]
    reading = record.evidence.clauses[0].speech_act
    assert reading.mood == "state_question" and reading.polarity == "affirmative" and "alternative" in reading.signals


def test_the_alternative_is_one_clause_and_its_predicate_is_not_the_question_s(runner):
    record, _ = _route(runner, "청정 켜져 있어 꺼져 있어")
    assert len(record.evidence.clauses) == 1
    assert not any("predicate:꺼지" in s for axis in record.evidence.axes.values() for s in axis.signals)


@pytest.mark.parametrize("text", [
    "배고파 졸려",  # two states of the speaker, not opposites
    "엄마 밖에 추워 더워",  # a person is asked
    "티비 켜져 있어 꺼져 있어",  # another appliance's state
    "청정 켜졌다 꺼졌다 난리야",  # told: it goes on and off
])
def test_no_state_of_the_robot_is_checked_when_it_is_not_asked(runner, text):
    assert _route(runner, text)[1] == []


@pytest.mark.parametrize("text", ["지금 거실이야 안방이야", "로봇 지금 안방이에요?", "너 지금 거실이야 아님 안방이야"])
def test_a_room_with_the_copula_asked_of_the_robot_asks_where_it_is(runner, text):
    record, caps = _route(runner, text)
    assert record.family == "ODL" and caps == [("current_location", "check")]


@pytest.mark.parametrize("text", ["나 지금 안방이야", "여기 거실이야", "엄마 지금 거실이야?"])
def test_a_room_told_or_asked_of_a_person_checks_nothing(runner, text):
    assert _route(runner, text)[1] == []


@pytest.mark.parametrize("text,expected", [
    ("충전 중이유 아니유", ("battery_status", "check")),  # 충청: -유 for -요 (lexicon dialect_words)
    ("충전 다 됐당가 안 됐당가?", ("battery_status", "check")),  # 전라: -당가 for -나
    ("청정 돌아가는 겨 안 돌아가는 겨", ("air_clean_operation", "check")),  # 겨 for 거야; 는 거 keeps the verb
    ("청정켜져있어꺼져있어", ("air_clean_operation", "check")),  # unspaced: a stem after an ending starts a word
])
def test_polar_pairs_in_dialect_and_unspaced_speech(runner, text, expected):
    assert _route(runner, text)[1] == [expected]


def test_the_subject_of_the_first_alternative_holds_for_the_second(runner):
    assert _route(runner, "우리 강아지 지금 거실이야 아니면 안방이야")[1] == []
    assert _route(runner, "너 지금 거실이야 아니면 안방이야")[1] == [("current_location", "check")]


def test_a_bare_command_after_a_state_is_not_its_alternative(runner):
    record, _ = _route(runner, "켜져 있어 꺼")
    assert not record.evidence.clauses[0].speech_act.signals.count("alternative")


@pytest.mark.parametrize("text", [
    "서재야 작은방이야 지금",  # Kiwi reads the first 야 as a particle (서재/NNG 야/JX)
    "안방이야 거실이야",
])
def test_two_rooms_offered_with_the_copula_ask_where_the_robot_is(runner, text):
    record, caps = _route(runner, text)
    assert record.family == "ODL" and caps == [("current_location", "check")]
    assert all(c.speech_act.mood != "statement" for c in record.evidence.clauses)


def test_two_values_offered_with_the_copula_particle_are_one_question(runner):
    record, _ = _route(runner, "바람 세기 강이야 약이야")
    clauses = record.evidence.clauses
    assert len(clauses) == 2 and all(c.speech_act.mood == "question" and "alternative" in c.speech_act.signals for c in clauses)


@pytest.mark.parametrize("text", ["민수야 영희야", "철수는 학생이야 영희는 선생님이야"])
def test_names_called_or_two_statements_are_no_alternatives(runner, text):
    record, caps = _route(runner, text)
    assert caps == [] and not any("alternative" in c.speech_act.signals for c in record.evidence.clauses)


@pytest.mark.parametrize("text,expected", [
    ("너 지금 서재야 아니야", ("current_location", "check")),  # 서재야 before 아니야: Kiwi reads 이야 as a particle
    ("배터리 꽉 찼어 아직이야", ("battery_status", "check")),  # 아직이야, not yet: the other answer (lexicon denials)
])
def test_a_state_asked_against_its_denial_is_checked(runner, text, expected):
    record, caps = _route(runner, text)
    assert record.family == "ODL" and caps == [expected], (record.family, caps)


def test_the_copula_read_as_a_particle_is_no_afterthought(runner, registry):
    """충전 다 됐어 아직이야: 아직이야 is a sentence of its own, not an adverb to move before 됐어 (빨리 와 거실로 is)."""
    assert normalized_text(TurnInput(recognized_text="충전 다 됐어 아직이야"), runner.kiwi, registry).text == "충전 다 됐어 아직이야"
    assert normalized_text(TurnInput(recognized_text="빨리 와 거실로"), runner.kiwi, registry).text == "빨리 거실로 와"
