"""Where and when a request acts: scope cues pick the capability's variant, completion clauses wait, and words
that only exist once broken recognition is joined license nothing."""

import pytest

from registry.contracts import DeviceContext, TurnInput
from tests.conftest import actions


def _caps(runner, text, position="안방"):
    record = runner.route(TurnInput(recognized_text=text, device_context=DeviceContext(position=position)))
    return record, [(cap, op) for cap, op, _, _ in actions(record)]


@pytest.mark.parametrize("text", ["움직이지 말고 거기서 청정만 해", "가만히 있으면서 공기 청정 좀 해 줘",
                                  "돌아다니지 말고 지금 있는 데서 청정해 줘"])
def test_an_in_place_cue_anywhere_in_the_turn_makes_purifying_stationary(runner, text):
    assert _caps(runner, text)[1] == [("stationary_purify", "start")]


@pytest.mark.parametrize("text", ["모든 방 다 청정해 줘", "집 전체 한번 싹 청정해 줘", "방 하나하나 다 들러서 청정 해 줘"])
def test_a_whole_home_cue_makes_purifying_the_scanning_clean(runner, text):
    assert _caps(runner, text)[1] == [("scanning_clean", "start")]


def test_a_named_room_keeps_the_move_and_the_room_clean(runner):
    assert _caps(runner, "거실 가서 청정해")[1] == [("move_to_room", "start"), ("selected_room_clean", "start")]


def test_a_scope_cue_without_a_request_plans_nothing(runner):
    assert _caps(runner, "집 전체 청소는 주말에 했어")[1] == []


@pytest.mark.parametrize("text", ["작은방 청정 다 하면 스테이션으로 복귀해", "서재 청정 다 하면 충전하러 가"])
def test_when_something_is_done_waits_for_it_and_checks_nothing(runner, text):
    record, caps = _caps(runner, text)
    assert caps == [("return_to_station", "start")]
    assert record.evidence.clauses[0].role == "temporal"


@pytest.mark.parametrize("text", ["안 방 공 기", "공 기 청 정"])
def test_words_spelled_only_by_joined_syllables_license_nothing(runner, text):
    """Bare syllables are broken recognition; a request said to its end after them is only spaced wrong (청 정 해 줘:
    tests/test_self_repair.py)."""
    record, caps = _caps(runner, text)
    assert caps == [] and record.family == "STT_NULL"


def test_joining_words_still_repairs_spacing(runner):
    assert _caps(runner, "공기 청정 해 줘")[1] == [("selected_room_clean", "start")]
    assert _caps(runner, "공기청정해줘")[1] == [("selected_room_clean", "start")]


def test_a_state_word_in_a_before_clause_is_a_time_not_a_question(runner):
    assert _caps(runner, "배터리 닳기 전에 얼른 충전하러 가")[1] == [("return_to_station", "start")]
    assert _caps(runner, "사진 찍기 전에 동의부터 받아")[1] == [("request_consent", "start"), ("take_photo", "start")]


@pytest.mark.parametrize("text,expected", [
    ("청정 고만 해라", [("selected_room_clean", "stop")]),
    ("음소거 풀고 인사해", [("mute", "off"), ("greet_user", "start")]),
])
def test_dialect_and_release_words_turn_things_off(runner, text, expected):
    assert _caps(runner, text)[1] == expected


@pytest.mark.parametrize("text,expected", [
    ("충전하러 가그래이", [("return_to_station", "start")]),
    ("청정 돌리그라", [("selected_room_clean", "start")]),
    ("안방 가쇼", [("move_to_room", "start")]),  # -쇼: -세요 (lexicon dialect_words)
    ("안방 공기 우떠요", [("air_quality", "check")]),  # 우떠요: 어때요
])
def test_a_dialect_imperative_glued_to_its_verb_is_still_a_request(runner, text, expected):
    record, caps = _caps(runner, text)
    assert caps == expected and record.evidence.normalized_text != text


def test_a_dialect_ending_changes_nothing_in_talk(runner):
    assert _caps(runner, "어제 청정 돌리그라 했는데 안 했어")[1] == []


@pytest.mark.parametrize("text,expected", [
    ("아 그 뭐냐, 안방으로 가 줘", [("move_to_room", "start")]),   # hesitation first, then the request
    ("그 뭐더라 음 화면 밝기 좀 낮춰 줘", [("screen_brightness", "level")]),
    ("안방 가서 어 그", []),                                        # trailing off after it: still cut off
])
def test_a_leading_hesitation_says_nothing_and_a_trailing_one_still_cuts_off(runner, text, expected):
    assert _caps(runner, text)[1] == expected, text


@pytest.mark.parametrize("text,expected", [
    ("나 밥 먹으러 주방 간다", []),                       # going there to eat: a person's going
    ("씻으러 안방 가", []),
    ("충전하러 가", [("return_to_station", "start")]),     # the robot's own purpose
    ("밥 먹으러 가야지 충전대로 가자", [("return_to_station", "start")]),  # a capability asked besides
])
def test_going_somewhere_to_do_what_only_a_person_does_is_a_persons_going(runner, text, expected):
    assert _caps(runner, text)[1] == expected, text


@pytest.mark.parametrize("text", ["사진 좀 찍어 줘 언니", "거실로 와 얘들아", "볼륨 좀 줄여 아빠", "청정 좀 해 줘 엄마",
                                  "청정 좀 해 줘 자기야", "가습기 좀 켜 줘 건조해 자기야", "작은방 불 꺼 전기세 많이 나와 은지야"])
def test_a_call_ending_the_turn_addresses_all_of_it_to_that_person(runner, text):
    record, caps = _caps(runner, text)
    assert caps == [] and record.family == "DEF", text


@pytest.mark.parametrize("text", ["사진 좀 찍어 줘 언니 오늘 생일이잖아", "볼륨 줄여 줘 엄마, 아빠 주무셔"])
def test_a_call_right_after_a_request_says_the_request_to_that_person(runner, text):
    assert _caps(runner, text)[1] == []


def test_a_call_after_a_written_full_stop_starts_a_sentence_of_its_own(runner):
    assert ("selected_room_clean", "start") in _caps(runner, "거실 청정해 줘. 엄마, 이리 와 봐")[1]


@pytest.mark.parametrize("text", ["아 배터리 다 됐네 폰", "화면 밝기 좀 올려 줘 핸드폰"])
def test_another_thing_named_last_owns_the_device_words_before_it(runner, text):
    assert _caps(runner, text)[1] == [], text


def test_a_call_of_the_robot_or_a_person_named_otherwise_still_asks_the_robot(runner):
    assert _caps(runner, "거실로 가 로봇아")[1] == [("move_to_room", "start")]
    assert _caps(runner, "사진 찍어 줘 엄마랑")[1] == [("request_consent", "start"), ("take_photo", "start")]  # with mum


@pytest.mark.parametrize("text", ["어무이가 거실 가 보라 카더라", "어제 청정 돌려부렀어", "벌써 안방 가 부렀네",
                                  "사진 찍어 뿌렀다", "어제 청정했수꽈", "거실 가지 마이소"])
def test_regional_quotations_pasts_and_prohibitions_ask_nothing(runner, text):
    """카더라 (하더라) reports, 부렀어 / 뿌렀다 (버렸어) and 했수꽈 (했습니까) are past, 마이소 (마세요) forbids:
    nothing is asked now."""
    assert _caps(runner, text)[1] == [], text


@pytest.mark.parametrize("text,expected", [
    ("배터리 얼마 없어 이따 다시 걸게", []),                       # little is left (of the phone's): told
    ("배터리 얼마 안 남았어", []),
    ("배터리 얼마 남았어", [("battery_status", "check")]),        # how much is left: asked
    ("배터리 얼마 없어?", [("battery_status", "check")]),
])
def test_a_question_word_before_a_negation_says_little_and_asks_nothing(runner, text, expected):
    assert _caps(runner, text)[1] == expected, text


@pytest.mark.parametrize("text,expected", [
    ("볼륨 줄여 줘, 애 안 깨게", [("sound_volume", "level")]),          # what the request is for
    ("프라이버시 모드 켜 줘 카메라 안 돌아가게", [("privacy_mode", "on")]),
    ("충전대로 가, 배터리 다 닳으면 안 되니까", [("return_to_station", "start")]),  # a reason said after it
    ("나이트 모드 켜, 애 재워야 돼", [("night_mode", "on")]),  # a necessity told, not asked (no 돼? about the robot)
])
def test_a_purpose_after_a_request_leaves_it_a_request(runner, text, expected):
    assert _caps(runner, text)[1] == expected, text


@pytest.mark.parametrize("text", ["오늘 아침에 청정 돌려 놓고 나갔었는데", "나가서 산책하자 날씨 좋은데"])
def test_a_premise_at_the_end_keeps_the_clauses_joined_to_it(runner, text):
    """Only a sentence of its own before a trailing premise (가, / 켜,) stays a request; a clause joined on by -고 / -서
    is part of the told premise."""
    record, caps = _caps(runner, text)
    assert caps == [] and record.family != "ODL", (text, record.family)


@pytest.mark.parametrize("text", ["오늘 야근해야 돼", "내일 일찍 일어나야 돼"])
def test_a_necessity_without_a_mark_or_a_device_word_is_told(runner, text):
    """-야 돼 heard without "?", with no question word and nothing of the product in it, is the speaker's own
    obligation told, not a question for the manual."""
    record, _ = _caps(runner, text)
    assert record.family == "DEF", (text, record.family)


def test_a_regional_imperative_of_the_same_verbs_still_asks(runner):
    assert _caps(runner, "청정 돌려 부러")[1] == [("selected_room_clean", "start")]


@pytest.mark.parametrize("text", ["사진 찍어 주께", "청정해주께", "내가 거실 갈께", "불 꺼 줄께", "지가 거실 가서 볼륨 줄여 볼게유"])
def test_a_promise_spelled_as_said_is_the_speakers_own_act(runner, text):
    """주께 / 갈께 are how 줄게 / 갈게 are said and often written: the speaker promises, nothing is asked."""
    record, caps = _caps(runner, text)
    assert caps == [] and record.family == "DEF", text


@pytest.mark.parametrize("text", ["어제 청정 돌려라 했는데 안 했어", "청정 돌려라 했잖아", "화면 꺼라 했는데 아직 켜져 있네"])
def test_a_command_followed_by_a_reporting_verb_is_quoted_talk(runner, text):
    record, caps = _caps(runner, text)
    assert caps == [] and any(c.speech_act is not None and c.speech_act.reported for c in record.evidence.clauses)


def test_a_wish_for_what_the_robot_does_for_me_asks_for_it(runner):
    record, caps = _caps(runner, "공기 정화 좀 해 주면 좋겠어")
    assert caps == [("selected_room_clean", "start")]
    assert _caps(runner, "공기 좀 깨끗했으면 좋겠다")[1] == []


def test_a_conditional_before_a_wish_predicate_is_one_wish_not_a_guard(runner):
    record, caps = _caps(runner, "휴대폰 배터리가 하루만 더 갔으면 좋겠어")
    assert caps == [] and record.family == "DEF" and len(record.evidence.clauses) == 1
    assert _caps(runner, "밤에 조용히 공기만 정화하려면 어떤 기능 쓰면 좋아?")[0].family == "DQR"


@pytest.mark.parametrize("text,family", [("아 짜증 나", "DEF"), ("폰 화면 밝기 자동으로 바뀌는 거 짜증 나", "DEF"),
                                         ("필터 끼웠는데 자꾸 에러 나", "DQR")])
def test_something_happening_is_told_not_asked_for(runner, text, family):
    record, caps = _caps(runner, text)
    assert caps == [] and record.family == family


def test_a_device_word_an_unsupported_request_acts_on_is_not_talk(runner):
    record, caps = _caps(runner, "이 사진 엄마한테 보내 줘")
    assert caps == [] and record.family == "UNS"


def test_looking_around_is_the_rotation_and_a_past_visit_is_not(runner):
    assert _caps(runner, "주위 한번 둘러봐")[1] == [("rotate_in_place", "start")]
    assert _caps(runner, "어제 시장 둘러봤어")[1] == []


@pytest.mark.parametrize("text,cap,delta", [
    ("화면 쪼매 어둡게 해라", "screen_brightness", -1),
    ("있잖아 목소리 좀 작게 해 줘", "sound_volume", -1),
    ("소리 좀 크게", "sound_volume", 1),
    ("바람 좀 약하게 해 줘", "fan_speed", -1),
])
def test_a_head_noun_made_to_be_one_of_its_manners_sets_the_capability(runner, text, cap, delta):
    record, _ = _caps(runner, text)
    assert [(c, args.get("delta")) for c, _, args, _ in actions(record)] == [(cap, delta)]


@pytest.mark.parametrize("text,cap,delta", [
    ("바람이 너무 약해 좀 세게 해 줘", "fan_speed", 1),
    ("소리가 잘 안 들려 좀 크게 해 봐", "sound_volume", 1),
    ("화면 너무 밝다 좀 어둡게 해", "screen_brightness", -1),
])
def test_a_manner_takes_the_head_noun_the_clause_before_said(runner, text, cap, delta):
    record, _ = _caps(runner, text)
    assert [(c, args.get("delta")) for c, _, args, _ in actions(record)] == [(cap, delta)]


@pytest.mark.parametrize("text", ["티비 소리가 너무 작아 좀 크게 해 봐", "소리가 너무 작아 크게 말해",
                                  "소리가 작으면 크게 해", "아까 바람이 약해서 세게 했어", "바람이 약해 좀 세게 불어라"])
def test_a_carried_head_licenses_only_an_affirmative_request_of_the_robots_own(runner, text):
    assert _caps(runner, text)[1] == []


def test_air_made_clean_in_any_words_is_purifying(runner):
    assert _caps(runner, "공기 좀 산뜻하게 할래?")[1] == [("selected_room_clean", "start")]


@pytest.mark.parametrize("text", ["tv 소리 좀 크게 해 줘", "엄마가 소리 좀 작게 하래", "공기가 맑게 느껴지네",
                                  "목소리가 너무 작아", "화면을 어둡게 하는 방법 알려줘"])
def test_a_manner_frame_in_talk_or_for_another_appliance_acts_on_nothing(runner, text):
    assert _caps(runner, text)[1] == []


@pytest.mark.parametrize("text,expected", [
    ("청정 좀 해 주면 안 돼?", [("selected_room_clean", "start")]),
    ("서재로 가 주면 안 될까", [("move_to_room", "start")]),
    ("사진 좀 찍어 주면 안 돼요", [("request_consent", "start"), ("take_photo", "start")]),
])
def test_asking_leave_for_an_act_done_for_me_is_a_polite_request(runner, text, expected):
    assert _caps(runner, text)[1] == expected


@pytest.mark.parametrize("text", ["청정 안 해 주면 안 돼?", "엄마가 청정 좀 해 주면 안 되냐고 물어봤어", "밤에 켜 두면 안 돼?"])
def test_asking_leave_keeps_its_negations_and_reports(runner, text):
    assert _caps(runner, text)[1] == []


def test_a_request_for_another_appliance_asked_as_leave_is_unsupported(runner):
    record, caps = _caps(runner, "세탁기 좀 돌려 주면 안 돼")
    assert caps == [] and record.family == "UNS"


def test_a_wish_for_an_act_done_for_me_is_framed_by_that_act(runner):
    assert _caps(runner, "서재 가 주면 좋겠어")[1] == [("move_to_room", "start")]


def test_a_particle_standing_as_its_own_word_is_the_verb_it_spells(runner):
    assert _caps(runner, "서재 가 줘")[1] == [("move_to_room", "start")]
    assert _caps(runner, "서재 가 있어 나 거기서 일할 거야")[1] == [("move_to_room", "start")]  # 있 the auxiliary
    assert _caps(runner, "서재가 좋아")[1] == []
    assert _caps(runner, "거실에 엄마 가 있어")[1] == []  # after a person: where she is


def test_off_said_last_after_a_word_of_the_robots_own_is_the_verb_not_the_bound_noun(runner):
    assert _caps(runner, "손님 가셨다 사생활 보호 꺼")[1] == [("privacy_mode", "off")]  # 꺼/NNB read as 끄 + 어
    assert _caps(runner, "엄마 꺼 어딨어")[1] == []  # mother's


@pytest.mark.parametrize("text", ["배터리 얼만 남았어", "배터리 얼마큼 남았어", "배터리 얼만큼 남았어"])
def test_a_spoken_how_much_asks_the_state(runner, text):
    assert _caps(runner, text)[1] == [("battery_status", "check")]


def test_a_person_with_a_plural_suffix_is_still_somebody_else(runner):
    record, caps = _caps(runner, "우리 반 애들은 다 충전식 선풍기 들고 다녀")
    assert caps == [] and record.family == "DEF"


def test_a_dialect_word_kiwi_would_split_is_read_as_its_standard_word(runner):
    assert _caps(runner, "그 정화 고마 해라")[1] == [("selected_room_clean", "stop")]
    assert actions(runner.route(TurnInput(recognized_text="고마워"))) == []


def test_where_a_place_described_by_a_clause_is_asks_about_the_place(runner):
    assert _caps(runner, "근처 주유소 싼 데 어디야")[1] == []


def test_a_question_word_cut_off_after_a_state_word_checks_nothing(runner):
    record, caps = _caps(runner, "배터리 얼")
    assert caps == [] and record.family == "STT_NULL"


def test_a_determiner_that_is_no_reference_back_keeps_the_appliance_named(runner):
    record, caps = _caps(runner, "온 문자 좀 읽어 줘")
    assert caps == [] and record.family == "UNS"
    assert "communication" not in _caps(runner, "그 거 좀 켜 줘")[0].unsupported_categories


def test_a_clause_joined_to_the_next_by_its_ending_is_not_left_open(runner):
    record, caps = _caps(runner, "이거 들여 놓고 나서 애기 기침이 좀 줄었어")
    assert caps == [] and record.family == "DEF"


@pytest.mark.parametrize("text", ["엄마는 알람 없이도 다섯 시면 일어나셔", "내가 알람 맞출게", "어제 알람 맞췄어"])
def test_a_schedule_word_in_somebody_elses_or_a_past_act_registers_nothing(runner, text):
    assert runner.route(TurnInput(recognized_text=text)).family != "SCH"


def test_a_manual_topic_owned_by_another_thing_is_no_product_question(runner):
    assert runner.route(TurnInput(recognized_text="정수기 필터 언제 갈아?")).family != "DQR"
    assert runner.route(TurnInput(recognized_text="주방 후드 필터 닦아야 되는데 귀찮아")).family == "DEF"
    # joined by 랑 (with), another thing is a partner of the robot's feature, not its owner
    assert runner.route(TurnInput(recognized_text="블루투스 스피커랑 페어링할 수 있어?")).family == "DQR"


@pytest.mark.parametrize("text", ["냉장고 E5 에러 뜨는데 이거 뭔 뜻이야?", "보일러에 E1 떴는데 AS 불러야 되나", "냉장고에 E5 떴어 뭐야"])
def test_an_error_code_shown_on_another_thing_is_that_things(runner, text):
    # "this" is the thing the clause names, and a code shown on it (보일러에) is its own, not the manual's
    assert runner.route(TurnInput(recognized_text=text)).family == "DEF"


@pytest.mark.parametrize("text", ["E1 떴는데 AS 불러야 되나", "이거 E5 뜨는데 뭔 뜻이야?", "이거 코웨이 공기청정기보다 성능 좋아?"])
def test_an_error_code_or_this_without_another_thing_owning_it_asks_the_manual(runner, text):
    assert runner.route(TurnInput(recognized_text=text)).family == "DQR"


@pytest.mark.parametrize("text", ["다이슨 청소기 필터는 어떻게 씻어?", "차 에어컨 필터는 몇 킬로마다 갈아?"])
def test_a_question_about_another_things_part_is_no_product_question(runner, text):
    record = runner.route(TurnInput(recognized_text=text))
    assert record.family not in ("DQR", "ODL") and not record.steps[0].action


@pytest.mark.parametrize("text", ["블루투스 연결도 돼요?", "공유기 이름이 두 개 뜨는데 어느 걸 골라야 돼?",
                                  "필터는 어떻게 씻어?", "니 방바닥 청소도 하나"])
def test_what_the_robot_does_with_another_thing_is_still_a_product_question(runner, text):
    assert runner.route(TurnInput(recognized_text=text)).family == "DQR"


@pytest.mark.parametrize("text", ["나이트 모드", "나이트 모 모드"])
def test_a_name_of_the_robots_own_mode_is_no_title_of_the_world(runner, text):
    record = runner.route(TurnInput(recognized_text=text))
    assert record.family != "FRG" and "looks_title_like" not in record.evidence.axes


@pytest.mark.parametrize("text", ["필터 잔여 수명 알려 줘", "배터리 남은 용량 알려 줘"])
def test_how_much_of_a_property_is_left_is_the_robots_state(runner, text):
    record = runner.route(TurnInput(recognized_text=text))
    assert record.family == "ODL" and [s.action.operation_id for s in record.steps if s.action] == ["check"]


@pytest.mark.parametrize("text", ["이거 밤에 틀어놓으면 시끄러워?", "이거 어느 나라에서 만든 제품이에요?", "이거 몇 kg이야"])
def test_this_in_a_question_to_the_robot_is_the_product(runner, text):
    assert runner.route(TurnInput(recognized_text=text)).family == "DQR"


@pytest.mark.parametrize("text", ["이거 어떻게", "이거 켜 줘", "그거 뭐야?"])
def test_this_with_nothing_else_said_stays_a_vague_reference(runner, text):
    record = runner.route(TurnInput(recognized_text=text))
    assert record.family == "STT_NULL" and actions(record) == []


def test_a_part_of_the_product_in_a_condition_makes_the_question_about_the_product(runner):
    assert runner.route(TurnInput(recognized_text="필터 0프로 되면 어떻게 돼")).family == "DQR"


@pytest.mark.parametrize("text", ["무드등 좀 어둡게 해 줄래", "에어컨 좀 시원하게 해 줘"])
def test_another_thing_made_to_be_so_is_an_other_appliance_request(runner, text):
    record, caps = _caps(runner, text)
    assert caps == [] and record.family == "UNS"


def test_a_light_verb_spaced_from_its_verbal_noun_carries_that_nouns_frame(runner):
    record, caps = _caps(runner, "방 청소 싹 해 놔라")
    assert caps == [] and "floor_cleaning" in record.unsupported_categories


def test_a_command_shown_on_a_screen_or_an_advert_is_what_it_says_not_a_request(runner):
    assert actions(runner.route(TurnInput(recognized_text="광고에 사진 한 장으로 추억을 남기세요 나오잖아"))) == []


@pytest.mark.parametrize("text", ["야 고마 해라, 장난치지 마라", "그만해 울지 마"])
def test_a_stop_said_with_a_prohibition_of_somebody_elses_act_is_no_voice_stop(runner, text):
    record = runner.route(TurnInput(recognized_text=text))
    assert record.family != "ODL" and actions(record) == []


def test_a_stop_on_its_own_is_still_a_voice_stop(runner):
    assert runner.route(TurnInput(recognized_text="그만 멈춰")).family == "ODL"


@pytest.mark.parametrize("text", ["TV 꺼", "세탁기 멈춰"])
def test_a_stop_aimed_at_another_thing_stops_nothing_of_the_robot(runner, text):
    record = runner.route(TurnInput(recognized_text=text))
    assert record.family == "UNS" and not record.stops_active_workflow


@pytest.mark.parametrize("text", ["거실 창문 좀 닫아 줄 수 있어?", "가스레인지 꺼 줘"])
def test_an_ability_asked_for_me_or_an_irregular_verb_still_meets_its_frame(runner, text):
    record = runner.route(TurnInput(recognized_text=text))
    assert record.family == "UNS" and actions(record) == []


def test_regional_polite_endings_are_read_as_their_standard_words(runner):
    assert _caps(runner, "저기 리빙룸 가서 공기청정 좀 하이소")[1] == [("move_to_room", "start"), ("selected_room_clean", "start")]
    assert _caps(runner, "목소리 좀 키워 주이소")[1] == [("sound_volume", "level")]


def test_an_adverb_made_from_a_manner_is_the_manner(runner):
    assert _caps(runner, "공기 좀 깨끗이 해 주세요")[1] == [("selected_room_clean", "start")]
    assert _caps(runner, "공기가 깨끗이 잘 유지되네")[1] == []


@pytest.mark.parametrize("text", ["오늘 바람 많이 불어?", "내일 비 와?", "밖에 눈 내려?", "오늘 밤에 눈 온다며?", "주말에 비 많이 올까?",
                                  "장마 언제 끝나?", "지금 경부고속도로 많이 밀려?"])
def test_the_weather_asked_about_is_public_information_not_the_fan_or_a_move(runner, text):
    """바람 is the fan and 오다 is come here, but wind that blows and snow that comes are the world (request_frames world_events)."""
    record, caps = _caps(runner, text)
    assert record.family == "FRG" and caps == []


def test_the_fan_and_talk_about_the_weather_stay_what_they_were(runner):
    assert _caps(runner, "바람 세게 해줘")[1] == [("fan_speed", "level")]
    assert _caps(runner, "비 오는데 청정 좀 해줘")[1] == [("selected_room_clean", "start")]
    record, caps = _caps(runner, "어제 바람 엄청 불었어")
    assert record.family == "DEF" and caps == []


@pytest.mark.parametrize("text", ["안방으로 가. 아 아니다, 취소", "거실로 가 아니 됐어", "사진 찍어 줘 아 아니다"])
def test_a_request_taken_back_in_the_same_turn_does_nothing(runner, text):
    """speech_acts retractions: a clause of only 아니다 / 취소 / 됐어 after a request retracts it."""
    assert _caps(runner, text)[1] == []


@pytest.mark.parametrize("text", ["주방 청정 아 아니", "거실로 가 줘 아 아니", "주방 가 아 아니"])
def test_a_request_taken_back_at_its_end_with_no_ending_before_does_nothing(runner, text):
    """lexicon clauses.retraction_cues said last after a space, with no ending to cut a clause: the words before are
    taken back all the same, and the turn is asked again."""
    record, caps = _caps(runner, text)
    assert caps == [] and record.family == "STT_NULL", (text, record.family, caps)


@pytest.mark.parametrize("text", ["사진 찍어 줘 아 아니다", "풍량 강으로 해 줘 아 아니야", "안방으로 가. 아 아니다, 취소",
                                  "거실 가 아 잠깐만", "볼륨 10으로 아니 잠깐만.", "배터리 확인해 아 잠시만"])
def test_a_request_taken_back_is_asked_again_not_talked_about(runner, text):
    """The words that take a request back are no talk of their own, and the request taken back is no talk of its
    device word either: what the speaker wants is asked again (STT_NULL), nothing is done. A 잠깐만 that takes the
    request back is no reply of its own (the request is asked again whether or not a full stop ends the turn)."""
    record, caps = _caps(runner, text)
    assert caps == [] and record.family == "STT_NULL", (text, record.family)


def test_enough_said_after_a_condition_takes_nothing_back(runner):
    """돼 / 되겠다 after -면 says what is enough (깔아 주면 돼), not 됐어 (never mind)."""
    record, _ = _caps(runner, "냉장고에 붙일 메모 저녁에 애들 오면 거실 청정 켜 놓고 창문 닫기 이렇게 쓰면 되겠다")
    assert record.family == "DEF"


def test_a_no_inside_the_request_or_a_correction_is_no_retraction(runner):
    assert _caps(runner, "청정 아니고 사진 찍어 줘")[1] != []
    assert _caps(runner, "거실 청정 아 아니 안방")[1] != []  # a room after the no corrects


def test_a_request_after_the_retraction_or_a_no_before_it_still_acts(runner):
    caps = [cap for cap, _ in _caps(runner, "청정해 줘. 아 아니다, 사진 찍어 줘")[1]]
    assert "take_photo" in caps and "selected_room_clean" not in caps
    assert _caps(runner, "아니다 그냥 안방으로 가")[1] == [("move_to_room", "start")]


@pytest.mark.parametrize("text", ["클로바, 음량 올려.", "헤이 기아, 공기 청정 모드 켜 줘.", "팅커벨, 볼륨 3으로.", "제트봇, 주방으로 가.",
                                  "티비야 볼륨 이십으로 해", "월패드, 엘리베이터 우리 층으로 좀 불러 줘"])
def test_another_assistant_device_or_name_called_first_is_who_is_asked(runner, text):
    """An assistant's name read as two morphemes (클로 + 바), any name after a wake word, a name or another thing
    before a comma, and 티비야 read as a copula: the turn is said to it, and the robot does nothing."""
    assert _caps(runner, text)[1] == []


def test_the_robot_called_or_a_room_before_a_comma_still_asks_the_robot(runner):
    assert _caps(runner, "헤이 로봇 청정해 줘")[1] != []
    assert _caps(runner, "거실, 청정해 줘")[1] != []
    assert _caps(runner, "진짜야 청정해 줘")[1] != []


@pytest.mark.parametrize("text", ["내일 손님 오시기 전에 거실 청정 한번 돌리자. 아침에 당신이 좀 챙겨",
                                  "애들 재우고 나서 안방 청정 돌리자, 지금 돌리면 시끄러워.", "이따가 청정 돌리자"])
def test_a_suggestion_put_later_is_a_plan_among_people(runner, text):
    """speech_acts later_cues / now_cues: -자 put later, with nothing said to be now, asks nothing of the robot now."""
    assert _caps(runner, text)[1] == []


@pytest.mark.parametrize("text", ["손님 오기 전에 지금 얼른 청정 좀 돌리자", "청정하자"])
def test_a_suggestion_for_now_still_asks(runner, text):
    assert ("selected_room_clean", "start") in _caps(runner, text)[1]


@pytest.mark.parametrize("text", ["센서 모드 켜 볼까 했는데 밤에 돌아다닐까 봐 안 켰어", "청정 돌릴까 해"])
def test_what_the_speaker_thought_of_doing_asks_nothing(runner, text):
    assert _caps(runner, text)[1] == []


def test_a_name_kiwi_splits_before_its_vocative_particle_said_last_is_a_call(runner):
    """태민아 read as 태 + 민 + 아/JKV after a request: the request is said to 태민 (몇 달이여? is no call)."""
    assert _caps(runner, "게임 소리 다 들린다! 음소거 좀 해 태민아")[1] == []
    record, _ = _caps(runner, "우리 때 받은 설명서엔 필터를 아홉 달에 갈라 했는데 요새는 몇 달이여?")
    assert record.family == "DQR"


@pytest.mark.parametrize("text", ["동그랗게 원을 그리며 빙글빙글 돌아요 손뼉을 치며 빙글빙글 돌아요",
                                  "빙글빙글 돌아라 한 바퀴 돌아라 손뼉 치고 멈춰라", "나는 경찰이고 너는 도둑이야. 손 들어! 벽 쪽으로 가!",
                                  "다 같이 손잡고 빙글빙글 돌아요"])  # 손잡다: a body verb (Kiwi tags it VV-R)
def test_a_turn_that_asks_to_move_a_body_part_is_said_to_people(runner, text):
    """speech_acts body_parts / body_verbs: a game, a song or an exercise; the robot has no hands to clap."""
    record, caps = _caps(runner, text)
    assert caps == [] and record.family == "DEF"


def test_turning_in_place_with_no_body_part_still_asks_the_robot(runner):
    assert _caps(runner, "제자리에서 한 바퀴 돌아 봐")[1] == [("rotate_in_place", "start")]


@pytest.mark.parametrize("text,expected", [("애기 안 깨게 소리 줄여 줘", [("sound_volume", "level")]), ("청정 안 해도 돼", [])])
def test_a_negator_in_what_the_request_brings_about_does_not_negate_it(runner, text, expected):
    """안 깨게 (so that it does not wake): the negation is the result asked for; 애기 bare is the subject, no call."""
    assert _caps(runner, text)[1] == expected


@pytest.mark.parametrize("text", ["배터리", "온도", "공 공 공기", "지금 위치"])
def test_a_state_named_alone_is_broken_off_and_asks_back(runner, text):
    record, caps = _caps(runner, text)
    assert record.family == "STT_NULL" and record.stt_null_subtype == "SOFT" and caps == []


@pytest.mark.parametrize("text,expected", [("배터리?", "battery_status"), ("배터리 얼마", "battery_status"),
                                           ("공기 상태 어때", "air_quality")])
def test_a_state_asked_of_is_still_checked(runner, text, expected):
    assert _caps(runner, text)[1] == [(expected, "check")]


@pytest.mark.parametrize("text", ["다시 한 번만 해 봐", "똑같이 해", "저렇게 해 봐"])
def test_a_count_or_a_pointed_way_names_nothing_to_do(runner, text):
    """한 번 counts times and 똑같이 points at a way shown before: the request has no target (조용히 해 has its act)."""
    record, caps = _caps(runner, text)
    assert caps == [] and "no_target" in record.evidence.axes["looks_fragmentary"].signals


@pytest.mark.parametrize("text", ["그대로 해 봐", "조금 더 해 봐", "아까처럼 해 주세요"])
def test_a_request_with_nothing_to_do_asks_back(runner, text):
    """A request that points, compares or asks for more and names nothing to act on is a sentence without its target:
    looks_fragmentary as strongly as a word searched for (뭐였더라), so the turn asks back instead of chatting."""
    record, caps = _caps(runner, text)
    assert record.family == "STT_NULL" and caps == [], record.family
    assert record.evidence.axes["looks_fragmentary"].strength >= 0.85


@pytest.mark.parametrize("text, expected", [("안방 공기 괜찮아요 아니면 안 좋아요", [("air_quality", "check")]),
                                            ("배터리 충분해 아니면 부족해?", [("battery_status", "check")])])
def test_a_state_asked_as_two_alternatives_is_checked_once(runner, text, expected):
    """The other half of an alternative state question (아니면 안 좋아요) is the same state asked, negated or not: no
    talk of its own, and 괜찮아요 in it is the state asked, not a reply said."""
    record, caps = _caps(runner, text)
    assert record.family == "ODL" and caps == expected, (text, record.family, caps)


@pytest.mark.parametrize("text, expected", [
    ("볼륨 3으로 해 줘 어", [("sound_volume", "level")]),            # hesitation after a closed sentence is a sound
    ("지금 위치 어디야 어 어", [("current_location", "check")]),     # ... not a clause that breaks the turn
    ("청정을 시작하십시오", [("selected_room_clean", "start")]),      # -(으)십시오: Kiwi's 시/EP + ᆸ시오/EF asks
    ("거실로 이동하십시오", [("move_to_room", "start")]),
    ("지금 작은방이야?", [("current_location", "check")]),            # {room}+이/VCP for a room Kiwi splits (작 은 방)
    ("지금 서재야?", [("current_location", "check")]),
])
def test_requests_read_whole_whatever_the_recognizer_and_kiwi_make_of_them(runner, text, expected):
    assert _caps(runner, text)[1] == expected, text


@pytest.mark.parametrize("text", ["작은방 가서 청정 음", "거실로 가서 어"])
def test_a_hesitation_after_an_open_clause_still_trails_it_off(runner, text):
    record, caps = _caps(runner, text)
    assert caps == [] and record.family == "STT_NULL", (text, record.family, caps)


@pytest.mark.parametrize("text,expected", [
    ("터보 말고 중으로 해 시끄러워", ("fan_speed", "level", {"level": 2})),
    ("볼륨 10 말고 5로 해 줘", ("sound_volume", "level", {"level": 5})),
])
def test_a_level_set_aside_hands_its_capability_to_the_level_said_next(runner, text, expected):
    """X 말고 Y: the next clause names only another level of the capability the first set aside (터보 is fan_speed's
    alone): the same setting, another value."""
    assert [a[:3] for a in actions(runner.route(TurnInput(recognized_text=text)))] == [expected]


@pytest.mark.parametrize("text", ["티비 말고 중으로 해", "최대 말고 중간으로 해", "강아지 말고 중으로 해", "중국집 말고 약으로 해"])
def test_nothing_set_aside_of_one_capability_hands_nothing(runner, text):
    # 티비 names no level; 최대 is a level word of three capabilities; 강 in 강아지 and 중 in 중국집 are no words of their own
    assert actions(runner.route(TurnInput(recognized_text=text))) == []


def test_this_after_an_unsupported_act_told_is_that_act_not_the_product(runner):
    """카드 결제 승인 ... 이거 뭐지: the 이거 of a clause that names an act the robot does not do (a payment) is that
    act's, not the product at hand."""
    assert runner.route(TurnInput(recognized_text="은행 문자 왔네 카드 결제 승인 삼만 이천 원 이거 뭐지")).family not in ("DQR", "ODL")


@pytest.mark.parametrize("text", ["에어컨도 켜 줄 수 있어?", "티비도 틀 수 있어?"])
def test_whether_the_robot_can_work_another_thing_is_still_asked_of_the_manual(runner, text):
    assert runner.route(TurnInput(recognized_text=text)).family == "DQR"
