"""Forms of spoken and typed Korean that carry a request or take it away: letters typed alone (ㄱㄱ), a command
before an exclamation of how the speaker feels, a body verb that only qualifies a noun, keys struck at random."""

import pytest

from registry.contracts import TurnInput
from stages.normalization import normalized_text
from tests.conftest import actions, routed_in_the_living_room

_route = routed_in_the_living_room


def test_letters_typed_alone_survive_normalization(runner, registry):
    nt = normalized_text(TurnInput(recognized_text="고정청정 ㄱㄱ ㅋㅋ"), runner.kiwi, registry)
    assert "ㅋㅋ" in nt.text  # NFKC would turn them into conjoining jamo that nothing reads


def test_go_go_after_no_capability_asks_nothing_of_the_robot(runner):
    assert _route(runner, "떡볶이 ㄱㄱ")[1] == []


@pytest.mark.parametrize("text", ["보일러 꺼, 더워 죽겠네", "선풍기 틀어, 아 진짜 덥다"])
def test_a_command_before_an_exclamation_of_feeling_stays_a_command(runner, text):
    record, caps = _route(runner, text)  # the exclamation gives the reason; the command is not read as part of it
    first = record.evidence.clauses[0].speech_act
    assert first.mood == "request" and "request_before_remark" in first.signals and caps == []


def test_another_devices_command_before_an_exclamation_is_unsupported(runner):
    record, caps = _route(runner, "보일러 꺼, 더워 죽겠네")
    assert record.family == "UNS" and record.unsupported_categories == ["other_appliance_control"] and caps == []


def test_a_body_verb_that_qualifies_a_noun_is_nobodys_move(runner):
    record, _ = _route(runner, "할머니 심장 뛰는 거 좀 재 줘")
    assert all(not s.startswith("body_act") for c in record.evidence.clauses for s in c.speech_act.signals)


def test_keys_struck_at_random_are_no_title(runner):
    record, caps = _route(runner, "ㅂㅈ 어ㅏ 이")
    assert record.family == "STT_NULL" and caps == []


@pytest.mark.parametrize("text", ["빠빠빠", "바바바 바"])
def test_a_syllable_said_three_times_over_is_a_sound_no_title(runner, text):
    """빠빠빠 빠방: Kiwi tags a run of one syllable as a proper noun; said three times over it is a sound made, no name
    of the world to look up (해리포터 still is)."""
    record, caps = _route(runner, text)
    assert record.family == "STT_NULL" and caps == [], record.family
    assert _route(runner, "해리포터")[0].family == "FRG"


@pytest.mark.parametrize("text", ["치지직 치직", "크흠 큼", "딴 따단 딴", "오 오 오", "뚜르르 뚜르르"])
def test_short_words_echoing_one_sound_are_a_noise_written_down(runner, text):
    """치지직 치직 / 크흠 큼: words that all open on one sound, a non-word among them or interjections only, are a noise
    or a hum the recognizer wrote down: a hard recognition failure, no conversation (잘 자, 좋아 좋아, 고 고마워 are)."""
    record, caps = _route(runner, text)
    assert record.family == "STT_NULL" and record.stt_null_subtype == "HARD" and caps == [], (record.family, record.stt_null_subtype)


@pytest.mark.parametrize("text", ["잘 자", "좋아 좋아", "고 고마워", "가자 가자"])
def test_words_that_open_alike_are_still_talk(runner, text):
    assert _route(runner, text)[0].family == "DEF"


@pytest.mark.parametrize("text,expected", [
    ("고정청정 ㄱㄱ", [("stationary_purify", "start")]),  # ㄱㄱ: go go, said after what is asked (like 고고)
    ("나이트 모드 ㄱㄱ", [("night_mode", "on")]),
    ("공기청정기 켜 줘", [("selected_room_clean", "start")]),  # the robot is the purifier: switching it on purifies
    ("로봇아 공기청정기 켜 줘", [("selected_room_clean", "start")]),  # the robot called first: still itself
    ("자기야 잠깐만. 로봇아 공기청정기 켜 줘", [("selected_room_clean", "start")]),  # a person, then the robot called
    ("청정기 좀 꺼", [("selected_room_clean", "stop")]),
    ("공기 청정기 잠깐 멈춰 줘", [("selected_room_clean", "stop")]),
    ("공청기 좀 켜", [("selected_room_clean", "start")]),  # 공청기: the spoken short form of 공기청정기
    ("퓨리파이어 팬 스피드 미디엄으로 세팅해 줘", [("fan_speed", "level")]),  # English words spoken in Hangul
    ("팬 스피드 로우로 해 줘", [("fan_speed", "level")]),
    ("나이트 모드 턴 오프", [("night_mode", "off")]),
    ("고정청정 취소해 줘", [("stationary_purify", "stop")]),  # cancelling what runs stops it (캔슬 is 취소)
    ("소리 좀 키워라, 안 들린다", [("sound_volume", "level")]),  # -어라 on the verb of a head and level verb commands
])
def test_typed_letters_the_purifier_itself_and_english_in_hangul_ask_for_the_act(runner, text, expected):
    record, caps = _route(runner, text)
    assert record.family == "ODL" and caps == expected


@pytest.mark.parametrize("text", [
    "큐브 공기청정기 켜 줘",          # another purifier, by its brand
    "작은방에 있는 공기청정기 꺼 줘",   # the one in another room (공기청정 read inside the noun licenses nothing)
    "헤이 구글 공기청정기 켜 줘",      # another assistant asked
    "여보 공기청정기 좀 켜 줘",        # a person asked
    "로봇아 엄마 공기청정기 켜 줘",     # the robot called, then somebody's purifier named
    "공기청정기 켜지 마",             # prohibited
    "청정기야 스테이션으로 복귀해 줄래?",  # called, then asked something else
])
def test_the_purifier_named_otherwise_starts_no_purifying(runner, text):
    assert not [cap for cap in _route(runner, text)[1] if cap[0] == "selected_room_clean"]


def test_this_in_a_product_question_that_names_more_is_the_robot_asked_about(runner):
    record, caps = _route(runner, "우리 집 거실 50제곱미터인데 이거 하나면 충분해")
    assert record.family == "DQR" and caps == []


@pytest.mark.parametrize("text,unresolved", [
    ("이거 어떻게 된 거야", True), ("그거 언제 돼?", True), ("새로 산 필터가", True),
    ("우리 집 거실 50제곱미터인데 이거 하나면 충분해", False)])  # (asked as a question, 이거 is the product: no vague axis)
def test_a_pointing_word_with_nothing_else_named_or_a_fragment_stays_unresolved(runner, text, unresolved):
    record, _ = _route(runner, text)  # what lets a sure learned reading of a product question past the pointing
    axis = record.evidence.axes.get("has_vague_reference")
    assert axis is not None and ("unresolved" in axis.signals) == unresolved


def test_cancelling_a_schedule_of_it_stays_a_schedule_cancel(runner):
    record, caps = _route(runner, "고정청정 예약 취소해 줘")
    assert record.family == "SCH" and record.selected_skill == "schedule_cancel" and caps == []


def test_one_number_among_short_words_is_a_word_a_count_is_not(runner):
    """하나 해 줘 (normalized 1 해 줘) is no word spelled out by syllables; 하나 둘 셋 넷 after a move is a count said."""
    assert _route(runner, "옛날이야기 하나 해 줘")[0].family == "DEF"
    record, caps = _route(runner, "팔 쭉 펴고 오른쪽으로 돌아 하나 둘 셋 넷")
    assert caps == [], caps


@pytest.mark.parametrize("text, level", [("풍량강 으로 올리라", 3), ("풍량약으로 해 줘", 1)])
def test_a_setting_written_together_with_its_level_is_the_two_words(runner, registry, text, level):
    """Recognition drops the space between a setting's name and its level (풍량강): Kiwi keeps that as one unknown
    noun, so the space is put back from the registry's names and level words."""
    nt = normalized_text(TurnInput(recognized_text=text), runner.kiwi, registry)
    assert nt.text.startswith("풍량 "), nt.text
    record, caps = _route(runner, text)
    assert caps == [("fan_speed", "level")] and actions(record)[0][2].get("level") == level, actions(record)


def test_an_instrument_turned_down_is_not_the_robot(runner):
    record, caps = _route(runner, "디지털 피아노 볼륨 좀 줄여 줘")
    assert caps == [] and record.family == "UNS", record.family


@pytest.mark.parametrize("text, expected", [("네일 사진 찍으려고요", "네일 사진"), ("세일 언제까지야", "세일"),
                                            ("세 시간 돌려 줘", "3 시간"), ("십 일 뒤에", "10 일")])
def test_days_and_seconds_take_no_native_number(runner, registry, text, expected):
    """네일 (nail) and 세일 (sale) are no count of days: days, weeks, seconds and percents are counted in Sino-Korean
    numbers (lexicon numbers sino_only_counters), hours in native ones."""
    assert expected in normalized_text(TurnInput(recognized_text=text), runner.kiwi, registry).text


def test_an_answer_word_is_one_only_written_as_a_word(runner):
    """네일 말리게 ...: 네 written on to 일 is a syllable of 네일 (nail), no answer to somebody; 네, / 네네 still answer."""
    record, _ = _route(runner, "네일 말리게 오 분 타이머 맞춰 줘")
    assert record.family == "SCH" and record.selected_skill == "schedule_timer_create", record.family
    assert _route(runner, "네, 매너 모드로 해 놔. 회의 중이야")[1] == []


@pytest.mark.parametrize("text", ["주사위를 굴려서 6이 나오면 한 바퀴 더 돌아서 출발점으로 와야 해", "네일아트 받으러 가야 돼"])
def test_what_has_to_be_done_told_is_neither_asked_nor_bidden(runner, text):
    """-어야 해 / -어야 돼 without a mark, a question word or a product noun (a verb alone, 가, names no product) tells
    what has to be done: 해 there is no imperative and the reading asks nothing. (The learned model, fitted on
    product questions that end so, 필터 몇 프로 남으면 갈아야 돼, may still open the game rule to the manual.)"""
    record, caps = _route(runner, text)
    last = record.evidence.clauses[-1].speech_act
    assert caps == [] and last.mood == "statement" and "necessity_told" in last.signals, (record.family, caps)
    assert "has_device_knowledge_question" not in record.evidence.axes
    assert _route(runner, "네일아트 받으러 가야 돼")[0].family == "DEF"


def test_a_piece_trailed_off_before_an_interjection_is_broken_off(runner):
    """청정을 그… 아 졸려: the speaker trailed off (an ellipsis as said) and turned to something else; the piece is no
    argument of 졸려, so the turn is a broken request to ask back about. A pause without an interjection after it
    (거실… 청정해 줘) still joins what follows."""
    record, caps = _route(runner, "청정을 그… 아 졸려")
    assert record.family == "STT_NULL" and caps == [], record.family
    assert _route(runner, "거실… 청정해 줘")[1] == [("selected_room_clean", "start")]


@pytest.mark.parametrize("text", ["필터 그… 교체 아니고…", "충전대로 어 거기… 됐어"])
def test_a_piece_halted_on_a_hesitation_then_told_past_is_broken_off(runner, text):
    """카메라 그… 사진 아니고…: the speaker halted on a hesitation (어, a determiner with no noun) at an ellipsis and
    then told something: the robot's word before it was never asked for, so the turn asks back. Asked after the
    halt (거실 어… 가서 청정해 줘), the request holds its words."""
    record, caps = _route(runner, text)
    assert record.family == "STT_NULL" and caps == [], (record.family, caps)
    assert _route(runner, "안방 어… 가서 청정해 줘")[1] == [("move_to_room", "start"), ("selected_room_clean", "start")]


@pytest.mark.parametrize("text, joined", [("배 터 리 얼마나 남았어?", "배터리 얼마나 남았어?"), ("필 터 상 태", "필터상태")])
def test_a_word_spelled_syllable_by_syllable_is_the_word(runner, registry, text, joined):
    """One-syllable words that spell, whole and exactly, one of the robot's words or a room are that word; syllables
    that spell nothing stay shards (가 나 다 라)."""
    assert normalized_text(TurnInput(recognized_text=text), runner.kiwi, registry).text == joined
    assert normalized_text(TurnInput(recognized_text="가 나 다 라"), runner.kiwi, registry).text == "가 나 다 라"
    assert _route(runner, "배 터 리 얼마나 남았어?")[1] == [("battery_status", "check")]


def test_a_word_spelled_apart_and_a_setting_run_together_are_both_mended(runner, registry):
    """The two spacing repairs are independent: one turn may need both (배 터 리 ... 풍량강 ...)."""
    nt = normalized_text(TurnInput(recognized_text="배 터 리 얼마나 남았어? 풍량강 으로 올리라"), runner.kiwi, registry)
    assert nt.text.startswith("배터리 ") and "풍량 강" in nt.text, nt.text


@pytest.mark.parametrize("text, expected", [("서재로 가 보오", "move_to_room"), ("안방으로 가오", "move_to_room"),
                                            ("청정 좀 하오", "selected_room_clean")])
def test_the_old_polite_imperative_in_o_asks_like_the_plain_one(runner, text, expected):
    """하오체 (가 보오, 하오: speech_acts request_endings 오/EF) asks as 가 봐 and 해 do; said of the speaker (나도 거실로
    가오) or of a person it tells, as they would."""
    assert [a[0] for a in actions(runner.route_text(text))] == [expected]
    assert actions(runner.route_text("나도 거실로 가오")) == []


@pytest.mark.parametrize("text", ["그 집 로봇은 말을 안 들어서 반품했다매?", "너 오늘 서재 간다매"])
def test_hearsay_in_dama_is_told_like_damyeo(runner, text):
    """-다매 (spoken -다며: speech_acts quotatives) asks back what somebody said; it asks the robot and the manual nothing."""
    record = runner.route_text(text)
    assert record.family == "DEF" and actions(record) == [], record.family


@pytest.mark.parametrize("text", ["방마다 몇 분씩 있다 가는 거예요? 집 전체 청정 말이에요",
                                  "그거 끝나면 어디로 가? 선택 공간 청정 말이야"])
def test_what_a_question_was_about_said_after_it_asks_no_act(runner, text):
    """X 말이야 after a question says what the question was about (speech_acts afterthought_markers): it asks what
    the question asked and requests nothing of its own."""
    record, caps = _route(runner, text)
    assert caps == [] and "clarifies_the_question" in record.evidence.clauses[-1].speech_act.signals, record.family


def test_a_verb_of_knowing_told_alone_knows_and_asks_nothing(runner):
    """습도 재는 건 알겠는데: 알다 told without a wish or a question knows; only 알고 싶어 or 알 수 있을까 asks to know."""
    record, caps = _route(runner, "습도 재는 건 알겠는데, 겨울엔 제습도 해 줘?")
    assert caps == [] and "curiosity" not in record.evidence.clauses[0].speech_act.signals
    assert "curiosity" in _route(runner, "배터리 얼마나 남았는지 알고 싶어")[0].evidence.clauses[0].speech_act.signals


@pytest.mark.parametrize("text", ["안방으로 가 줘 이거 맞춤법 맞아?", "거실 청정 켜 이거 오타 없지?"])
def test_a_turn_about_its_own_words_only_mentions_them(runner, text):
    """띄어쓰기 / 맞춤법 / 오타 (speech_acts mention_cues): the turn asks about how its words are written."""
    assert _route(runner, text)[1] == []


@pytest.mark.parametrize("text", ["로봇 놀이 하자 너는 로봇 나는 주인 거실로 가", "내가 명령할게 너는 안방으로 가 봐",
                                  "네가 로봇인 척 해 봐 청정 시작해"])
def test_commands_in_a_game_of_pretend_are_played_not_asked(runner, text):
    """놀이 하자 / 명령할게 / 척 해 (speech_acts recitation_cues): from the game's setting up on, commands are played."""
    assert _route(runner, text)[1] == []


@pytest.mark.parametrize("text", ["산책 가려는데 비 와?", "장 보러 나가려고 하는데 미세먼지 심해?"])
def test_the_speakers_own_going_said_as_background_is_no_move(runner, text):
    """가려는데 / 나가려고 하는데 (speech_acts plan_endings): what the speaker means to do is the background of what is
    asked; the move it names is theirs, so the question is about the world, not the robot."""
    record, caps = _route(runner, text)
    assert caps == [] and "has_device_knowledge_question" not in record.evidence.axes, record.family
    assert "move_to_room:user" in record.evidence.axes["has_unlicensed_capability_mention"].signals
    assert _route(runner, "산책 가려는데 비 와?")[0].family == "FRG"
    assert _route(runner, "안방 가 줘")[1] == [("move_to_room", "start")]


def test_a_device_act_waited_on_leaves_the_turn_to_the_request_after_it(runner):
    """청정 끝나면 X 알려 줘: the act a temporal clause waits on is the condition; a request for public information after
    it owns the turn (waited_on), while a bare 알려 줘 leaves the device act the turn's only anchor."""
    record, _ = _route(runner, "공기 청정 끝나고 나면 내일 미세먼지 예보 좀 읽어 줘")
    assert record.family == "FRG" and "waited_on" in record.evidence.axes, record.family
    assert "has_execution_capability_anchor" in record.evidence.clause_axes[0]  # the clause keeps its own for the record
    record, _ = _route(runner, "청정 끝나면 알려 줘")
    assert "waited_on" not in record.evidence.axes

