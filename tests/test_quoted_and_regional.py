"""Quotes without a quotative particle, regional endings, titles and questions of where, read as Korean speakers mean
them: words somebody said are told, a promise of the speaker's asks nothing, a question of where the robot does
something asks how it works."""

import pytest

from registry.contracts import TurnInput
from tests.conftest import actions


def _acts(runner, text):
    record, extra = runner.route_with(TurnInput(recognized_text=text), ("clause_analyses",))
    return record, [c.act for c in extra["clause_analyses"] if c.act is not None]


@pytest.mark.parametrize("text", ["배터리는 2년이라 했지?", "아까 배터리는 2년이라 캤지예? 그라믄 본체는 몇 년인교?"])
def test_words_quoted_by_an_ending_and_a_reporting_verb_are_told_not_a_state_asked(runner, text):
    """-(이)라 + 하다 / 경상 카다 (캤지): what was said before, quoted without 라고; no battery check."""
    record, acts = _acts(runner, text)
    assert actions(record) == []
    assert acts[0].reported and not acts[0].licenses_state_query
    assert record.family in ("DQR", "DEF")


def test_a_past_told_with_a_polite_tail_after_a_connective_turns_nothing_on(runner):
    """나이트 모드는 켜 놨고요 (충청 켜 놨구유): -고 + 요 closes what the speaker already did."""
    record, acts = _acts(runner, "밤에 화면이 너무 어두워서 밝기 5로 해 달랬더니 안 된대유. 나이트 모드는 켜 놨구유.")
    assert actions(record) == []
    assert acts[-1].past and not acts[-1].licenses_action


@pytest.mark.parametrize("text", ["배터리가 15프로 밑으로 떨어지믄 지가 알아서 충전대로 찾아가는가?",
                                  "온도는 어디에서 재는 거예요? 집 전체 온도예요?", "프리필터는 어디서 말려"])
def test_a_regional_condition_or_a_question_of_where_it_does_something_asks_the_manual(runner, text):
    """-믄 is -면: a supposed case asked about; 어디서 재? asks how it measures, not the temperature now."""
    record = runner.route_text(text)
    assert record.family == "DQR"
    assert actions(record) == []


def test_where_asked_of_a_past_or_of_what_runs_now_is_no_manual_question(runner):
    assert runner.route_text("팽이가 뱅뱅 잘 돈다. 니 이거 어디서 샀노?").family == "DEF"
    record = runner.route_text("지금 어디서 청정하고 있어?")
    assert [(cap, op) for cap, op, _, _ in actions(record)] == [("air_clean_operation", "check")]


@pytest.mark.parametrize("text", ["사진 찍어 드리겠습니다", "청정 해 드리겠습니다", "삼춘 사진 한 장 찍어드리쿠다 요기 서봅서"])
def test_an_intention_on_an_offering_verb_is_the_speakers_promise(runner, text):
    """-어 드리겠습니다 (제주 -쿠다): the speaker offers to do it; nothing is asked of the robot."""
    record = runner.route_text(text)
    assert actions(record) == []
    assert record.family == "DEF"


def test_a_question_to_the_robot_with_an_intention_still_asks(runner):
    assert actions(runner.route_text("청정 해 주시겠습니까?"))


def test_a_title_then_an_adverb_calls_its_bearer_but_a_guest_is_told_of(runner):
    """매니저님 오늘 ... ?: a person called by title; 손님 곧 오니까: a guest, the robot still asked what follows."""
    assert runner.route_text("매니저님 오늘 저 몇 시에 끝나요?").family == "DEF"
    record = runner.route_text("손님 곧 오니까 주방 먼저 가서 청정하고 그다음에 거실 와서 청정해 줘")
    assert [cap for cap, _, _, _ in actions(record)] == ["move_to_room", "selected_room_clean", "move_to_room",
                                                         "selected_room_clean"]


def test_a_call_word_with_a_subject_particle_is_told_of_and_a_hearsay_reason_ends_its_clause(runner):
    """여보가 고기 굽는다길래: the spouse is talked about, and -길래 gives the reason for the request after it."""
    record = runner.route_text("여보가 고기 굽는다길래 풍량 터보로 올려 도")
    assert [(cap, op) for cap, op, _, _ in actions(record)] == [("fan_speed", "level")]
    assert runner.route_text("애가 덥다길래 바람 세게 해 줘").family == "ODL"
    assert actions(runner.route_text("엄마가 청정 하라길래 켰어")) == []


def test_a_regional_conjecture_ending_is_a_guess_told(runner):
    """잤나벼 (충청: 잤나 봐): a guess about the son, whose lamp asks nothing of anybody."""
    record = runner.route_text("아들내미가 공부방 불 켜놓고 잤나벼.")
    assert record.family == "DEF"


def test_pm_figures_named_in_latin_letters_are_the_dust_the_robot_measures(runner):
    record = runner.route_text("집 공기 지금 어때 PM2.5 수치로 말해줘")
    assert [(cap, op) for cap, op, _, _ in actions(record)] == [("air_quality", "check")]



def test_a_sentence_said_whole_before_a_reporting_verb_is_quoted(runner):
    """거실이야 안방이야 하면서: what the child says while playing, not a question of where the robot is."""
    assert actions(runner.route_text("애가 자꾸 거실이야 안방이야 하면서 숨바꼭질해")) == []


def test_a_check_asked_in_place_of_what_is_forbidden_is_the_request(runner):
    """사진 찍지 말고 그냥 공기만 봐 줘: X 하지 말고 Y acts on Y, a check as much as an action."""
    record = runner.route_text("사진 찍지 말고 그냥 공기만 봐 줘")
    assert [(cap, op) for cap, op, _, _ in actions(record)] == [("air_quality", "check")]


@pytest.mark.parametrize("text", ["나 심박 좀 재 봐 스트레스 받아서", "심박 좀 재 줘, 투석하고 왔더니 어지러워"])
def test_a_measurement_only_the_robot_takes_keeps_its_request_beside_a_reason(runner, text):
    """Nobody in the room measures a heart rate on request: the reason after it does not make it talk."""
    record = runner.route_text(text)
    assert [(cap, op) for cap, op, _, _ in actions(record)] == [("vital_signs", "start")]


def test_a_photo_asked_beside_a_remark_still_may_be_for_a_person(runner):
    assert actions(runner.route_text("사진 좀 찍어 줘, 지금 예쁘다")) == []


@pytest.mark.parametrize("text", ["배터리 몃퍼야", "배터리 30퍼야?"])
def test_a_typed_misspelling_and_a_shortened_percent_still_ask_the_battery(runner, text):
    record = runner.route_text(text)
    assert [(cap, op) for cap, op, _, _ in actions(record)] == [("battery_status", "check")]
    assert actions(runner.route_text("물 좀 퍼야 돼")) == []


@pytest.mark.parametrize("text", ["아까 매너 모드 말씀하셨는데, 그럼 그거 켜도 아침 알람은 제대로 울려요?",
                                  "아까 보증 1년이라 했잖아. 그럼 그거 언제부터 세는 거야?",
                                  "아까 필터 12개월마다 바꾼다고 했잖아 그럼 그거 얼마야"])
def test_a_question_opened_by_then_after_what_was_said_of_the_product_asks_the_manual(runner, text):
    record, acts = _acts(runner, text)
    assert record.family == "DQR" and actions(record) == []
    assert "follows_up_an_answer" in acts[-1].signals


def test_then_after_what_a_person_said_of_another_thing_follows_up_no_answer(runner):
    record, acts = _acts(runner, "어제 청정했잖아 그럼 오늘은 안 해도 되지?")
    assert actions(record) == [] and "follows_up_an_answer" not in acts[-1].signals


def test_whether_it_does_another_things_act_too_asked_in_a_nominal_ending_is_a_product_question(runner):
    """에어컨도 얘가 대신 켜 줌?: 도 and a question in the typed nominal ending (ㅁ) ask whether the robot does that too."""
    record = runner.route_text("에어컨도 얘가 대신 켜 줌?")
    assert record.family == "DQR" and actions(record) == []


@pytest.mark.parametrize("text,expected", [("배터리 얼마래요", ("battery_status", "check")),
                                           ("실내 미세먼지 수치가 얼마래요", ("air_quality", "check"))])
def test_a_question_word_before_a_hearsay_ending_asks_what_the_reading_says(runner, text, expected):
    """얼마래요: what the reading says is asked, nobody's words are quoted; 배터리 없대 still reports what was said."""
    assert [(cap, op) for cap, op, _, _ in actions(runner.route_text(text))] == [expected]
    assert actions(runner.route_text("배터리 없대")) == []
