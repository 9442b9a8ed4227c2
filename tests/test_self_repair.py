"""Self-repair in passing (stages._self_repair): a no said with more after it corrects what came before. The word
of the same kind is replaced (a room, a level, a number, a device word); a request said again replaces the rest.
Alternatives, questions, the copula after a noun, 잠깐 (for a moment) and 취소 (cancel) are no corrections. A word that
only begins the word after it is a false start (stages.normalization._false_starts)."""

import pytest

from registry.contracts import DeviceContext, TurnInput
from tests.conftest import actions


def _steps(runner, text):
    record = runner.route(TurnInput(recognized_text=text, device_context=DeviceContext(position="거실")))
    return record, [(cap, op, args) for cap, op, args, _ in actions(record)]


@pytest.mark.parametrize("text, expected", [
    ("볼륨 5로 아 아니 8로 해 줘", [("sound_volume", "level", {"level": 8})]),
    ("안방 가 아 아니 아이방", [("move_to_room", "start", {"room_name": "아이방"})]),
    ("나이트 모드 아니 매너 모드 켜 줘.", [("manner_mode", "on", {})]),
    ("청정 켜 줘 아 아니 고정청정", [("stationary_purify", "start", {})]),
    ("풍량 강 아니 약으로 해 줘.", [("fan_speed", "level", {"level": 1})]),
    ("아니 잠깐만 거실 가 봐.", [("move_to_room", "start", {"room_name": "거실"})]),
    ("사진 찍어 아 아니다 한 바퀴 돌아 봐.", [("rotate_in_place", "start", {"degrees": 360})]),
])
def test_the_word_said_after_the_no_replaces_the_one_of_its_kind(runner, text, expected):
    assert _steps(runner, text)[1] == expected, text


def test_a_room_corrected_moves_only_to_the_room_said_last(runner):
    record, steps = _steps(runner, "주방 청정 아 아니 안방.")
    rooms = [args.get("room_name") for cap, _, args in steps if cap == "move_to_room"]
    assert rooms == ["안방"], steps
    assert record.text == "주방 청정 아 아니 안방."  # the record keeps what was said


@pytest.mark.parametrize("text", ["거실 아님 안방", "거실이야 아니면 안방이야", "공기 안 좋은 거 아니야? 청정 켜 줘",
                                  "초코야 그거 먹는 거 아니야 이리 와", "청정 잠깐 멈춰 봐", "예약 취소해 줘"])
def test_alternatives_and_a_question_with_no_are_no_corrections(runner, text):
    record = runner.route(TurnInput(recognized_text=text))
    assert record.evidence.normalized_text == text, record.evidence.normalized_text


def test_the_normalized_text_shows_the_repair(runner):
    record = runner.route(TurnInput(recognized_text="볼륨 5로 아 아니 8로 해 줘"))
    assert record.evidence.normalized_text == "볼륨 8로 해 줘"


@pytest.mark.parametrize("text, expected", [("청 정 해 줘", [("selected_room_clean", "start", {})]),
                                            ("음 소 거 해 줘", [("mute", "on", {})])])
def test_a_word_spelled_by_syllables_before_a_request_said_to_its_end_is_a_slip_of_spacing(runner, text, expected):
    """안 방 공 기 is broken recognition (nothing is done); 청 정 해 줘, a request said to its end after the word, is
    only spaced wrong."""
    steps = _steps(runner, text)[1]
    assert [(c, o) for c, o, _ in steps] == [(c, o) for c, o, _ in expected], (text, steps)


@pytest.mark.parametrize("text", ["안 방 공 기", "사 진", "충 전 대 으"])
def test_syllables_alone_are_broken_recognition(runner, text):
    record, steps = _steps(runner, text)
    assert steps == [] and record.family == "STT_NULL", (text, record.family)


@pytest.mark.parametrize("text", ["사진 한 장 찍어 줘 아 됐어.", "한 바퀴 돌아 봐 아니 됐다", "볼륨 10으로 해 줘 아니다 됐어",
                                  "인사해 봐라 음 관둬"])
def test_never_mind_after_a_request_takes_it_back(runner, text):
    """됐어 / 관둬 (speech_acts retractions) after a request is no request said again nor talk of its own: the
    request is taken back and asked again, like 아 아니다."""
    record, steps = _steps(runner, text)
    assert steps == [] and record.family == "STT_NULL"


def test_a_request_said_again_after_the_no_still_replaces_the_one_before(runner):
    assert _steps(runner, "사진 찍어 아 아니다 한 바퀴 돌아 봐")[1] == [("rotate_in_place", "start", {"degrees": 360})]


@pytest.mark.parametrize("text, expected, said", [
    ("나이트 모 모드 켜 줘", [("night_mode", "on", {})], "나이트 모드 켜 줘"),  # not an unknown mode 모
    ("주 주방 가서 청정해", [("move_to_room", "start", {"room_name": "주방"}), ("selected_room_clean", "start", {})],
     "주방 가서 청정해"),
])
def test_a_word_that_only_begins_the_next_is_a_false_start(runner, text, expected, said):
    record, steps = _steps(runner, text)
    assert steps == expected and record.evidence.normalized_text == said


@pytest.mark.parametrize("text", ["나 나가", "안 안아 줘", "풍량 강으로 해 줘 아 아니야"])
def test_a_pronoun_a_negator_or_a_filler_before_a_word_it_begins_is_a_word_of_its_own(runner, text):
    assert _steps(runner, text)[0].evidence.normalized_text == text


@pytest.mark.parametrize("text, expected", [("청정 그만둬", [("selected_room_clean", "stop", {})]),
                                            ("사진 찍어 줘 아 그만둬", [])])
def test_geumandwo_is_read_as_stopping_whatever_kiwi_makes_of_it(runner, text, expected):
    """Kiwi reads 그만둬 as 그만/MAG + 두/VV (put): lexicon dialect_words reads it as 그만해, which stops what it names
    and takes back a request before it."""
    assert _steps(runner, text)[1] == expected


def test_a_beginning_cut_off_twice_before_commas_is_dropped(runner):
    record = runner.route(TurnInput(recognized_text="배, 배, 배터리 얼마"))
    assert record.evidence.normalized_text == "배터리 얼마"


def test_a_word_said_whole_before_a_comma_is_no_false_start(runner):
    record = runner.route(TurnInput(recognized_text="청정 켜, 켜라고, 청정!"))
    assert [(s.action.capability_id, s.action.operation_id) for s in record.steps if s.action] == [("selected_room_clean", "start")]


@pytest.mark.parametrize("text, expected", [
    ("니 안방 가가 공기 쫌 깨끗하게 청정해라", ["move_to_room", "selected_room_clean"]),  # 가가: 가서, 쫌: 좀 (경상)
    ("청정 고고", ["selected_room_clean"]),  # go go: do it
])
def test_regional_and_slang_words_read_as_the_standard_ones(runner, text, expected):
    assert [cap for cap, _, _ in _steps(runner, text)[1]] == expected


def test_stressed_jom_in_a_wish_still_asks_nothing(runner):
    assert _steps(runner, "우리 집 공기 쫌 맑아지믄 좋겠다")[1] == []


def test_going_there_to_bring_a_person_is_still_no_request_in_regional_words(runner):
    assert _steps(runner, "안방 가가 할매 모시고 온나.")[1] == []  # 가가: 가서, 온나: 와라 (경상)
