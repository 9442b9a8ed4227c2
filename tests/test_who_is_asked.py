"""Whom a request is for when the turn sets somebody or something aside (X 말고 Y), names the robot after another
assistant, or only calls a person; and which of the robot's states a quantity question asks after."""

import pytest

from registry.contracts import DeviceContext, TurnInput
from tests.conftest import actions, routed_in_the_living_room


_route = routed_in_the_living_room


@pytest.mark.parametrize("text,expected", [
    ("시리 말고 로봇아 청정해 주세요", [("selected_room_clean", "start")]),  # Kiwi reads 로봇아 whole
    ("알렉사 말고 청정기야 풍량 강으로 해 줘", [("fan_speed", "level")]),
    ("빅스비 말고 청정해 줘", [("selected_room_clean", "start")]),  # the assistant is what is set aside
    ("빅스비 말고 너한테 말한 거야, 볼륨 줄여.", [("sound_volume", "level")]),
    ("티비 말고 너 소리 줄여", [("sound_volume", "level")]),
    ("에어컨 말고 너 바람 세게 해", [("fan_speed", "level")]),
])
def test_what_x_malgo_sets_aside_leaves_the_request_to_the_robot(runner, text, expected):
    record, caps = _route(runner, text)
    assert record.family == "ODL" and caps == expected


def test_an_assistant_called_before_the_exclusion_still_owns_the_request(runner):
    record, caps = _route(runner, "하이 빅스비 거실 공기청정기 말고 안방 에어컨 켜 줘")
    assert caps == [] and record.family == "UNS"


def test_the_robot_named_after_another_assistant_takes_its_own_request(runner):
    record, caps = _route(runner, "오케이 구글 볼륨 올려 로봇 너는 볼륨 내려")
    speech = [c.speech_act for c in record.evidence.clauses]
    assert speech[0].agent == "third_person" and speech[1].agent == "robot"


def test_a_person_set_aside_leaves_the_you_after_it_a_person(runner):
    assert _route(runner, "민수야 말고 너 거실로 가")[1] == []


def test_the_robot_named_as_the_doer_makes_another_thing_in_the_remark_no_owner(runner):
    record, caps = _route(runner, "카톡 왔나 보네 너 소리 켜 줘")
    assert record.family == "ODL" and caps == [("mute", "off")]
    assert _route(runner, "카톡 왔나 보네 소리 켜 줘")[1] == []  # whose sound is not said: the app's


@pytest.mark.parametrize("text,family", [
    ("민수야", "STT_NULL"), ("여보", "STT_NULL"), ("할머니", "STT_NULL"),  # a call and nothing else asks nothing
    ("공기 공기 공기", "STT_NULL"), ("배터리 배터리", "STT_NULL"),  # a state word said over and over names it alone
    ("사용 온도가 몇 도에서 몇 도까지야?", "DQR"), ("배터리 몇 시간까지 가", "DQR"),  # a range with its counter: the manual
])
def test_turns_that_ask_no_device_step(runner, text, family):
    record, caps = _route(runner, text)
    assert caps == [] and record.family == family


@pytest.mark.parametrize("text", ["필터 지금 몇 프로 남았어요", "지금 헤파 필터 몇 프로 남았어"])
def test_a_quantity_asked_of_the_filter_is_the_filter_status(runner, text):
    record, caps = _route(runner, text)
    assert record.family == "ODL" and caps == [("filter_status", "check")]


def test_a_quantity_asked_without_a_subject_stays_the_battery(runner):
    assert _route(runner, "몇 프로 남았어")[1] == [("battery_status", "check")]


def test_a_quantity_of_another_things_filter_checks_nothing(runner):
    assert _route(runner, "정수기 필터 몇 프로 남았어")[1] == []


def test_its_own_running_asked_without_a_question_mark_is_a_state_question(runner):
    record, caps = _route(runner, "지금 청정 돌아가고 있는 거야")
    assert record.family == "ODL" and caps == [("air_clean_operation", "check")]
    assert _route(runner, "엄마 청정 돌아가고 있어")[1] == []  # told to mom


def test_another_assistants_command_is_not_the_robots_to_refuse_when_the_robot_is_asked_too(runner):
    record, caps = _route(runner, "오케이 구글 불 꺼 그리고 로봇 너는 청정해")
    assert record.family == "ODL" and caps == [("selected_room_clean", "start")]
    assert _route(runner, "오케이 구글 불 꺼")[0].family == "UNS"  # asked alone, it is still declined


def test_a_grade_threshold_asks_the_manual_not_the_forecast(runner):
    assert _route(runner, "초미세먼지 몇부터 나쁨이야")[0].family == "DQR"
    assert _route(runner, "오늘 미세먼지 어때")[0].family == "FRG"


def test_a_state_left_by_a_change_is_told_or_asked_never_requested(runner):
    record, caps = _route(runner, "청정 켜져 있는 거예요")
    assert record.family == "ODL" and caps == [("air_clean_operation", "check")]
    assert _route(runner, "불 켜져 있어")[1] == []  # the light is on: nobody asks for anything


def test_two_nouns_with_the_same_copula_ending_offer_alternatives(runner):
    record, _ = _route(runner, "너 삼성 거야 엘지 거야")
    assert [c.speech_act.mood for c in record.evidence.clauses] == ["question", "question"]
    statement, _ = _route(runner, "철수는 학생이야 영희는 선생님이야")
    assert all(c.speech_act.mood == "statement" for c in statement.evidence.clauses)


def test_a_condition_said_to_somebody_else_guards_nothing_of_the_robots(runner):
    record = runner.route(TurnInput(recognized_text="시리야 하고 부르면 폰이 대답해 로봇아 너는 거실로 와",
                                    device_context=DeviceContext(position="안방")))
    assert [(cap, op, guarded) for cap, op, _, guarded in actions(record)] == [("move_to_room", "start", False)]


@pytest.mark.parametrize("text", ["청정 켜져 있어", "안방 청정 중이야?"])
def test_its_own_operation_asked_is_checked(runner, text):
    assert _route(runner, text)[1] == [("air_clean_operation", "check")]


def test_another_parts_state_is_not_the_purifiers_operation(runner):
    assert _route(runner, "카메라 항상 켜져 있는 거야")[1] == []


@pytest.mark.parametrize("text", ["이거 왜 이래", "이거 왜 이래 또"])
def test_this_with_only_words_that_point_asks_about_nothing_named(runner, text):
    record, caps = _route(runner, text)
    assert caps == [] and record.family == "STT_NULL" and record.stt_null_subtype == "GENERIC"


def test_this_with_a_word_of_its_own_still_asks_about_the_product(runner):
    assert _route(runner, "이거 밤에 틀어 놓으면 시끄러워?")[0].family == "DQR"


def test_the_robots_app_on_a_phone_is_the_robots(runner):
    assert _route(runner, "휴대폰 앱으로는 뭘 할 수 있는지 궁금한데")[0].family == "DQR"
    assert _route(runner, "정수기 필터 언제 갈아")[0].family != "DQR"  # another thing's part


def test_the_air_a_request_acts_on_is_not_also_checked(runner):
    record = runner.route(TurnInput(recognized_text="작은방 가서 공기 좀 싹 정화해 줘", device_context=DeviceContext(position="거실")))
    assert [(cap, op) for cap, op, _, _ in actions(record)] == [("move_to_room", "start"), ("selected_room_clean", "start")]
    assert _route(runner, "공기 확인하고 청정해 줘")[1] == [("air_quality", "check"), ("selected_room_clean", "start")]
    # an adjective's -게 says how the air is to be made, it asks nothing about it either
    assert _route(runner, "공기를 깨끗하게 청정해 주세요")[1] == [("selected_room_clean", "start")]


def test_the_speaker_s_own_act_is_no_doer_for_the_hearer_s(runner):
    record, caps = _route(runner, "거실 불은 내가 끌게, 너는 야간 모드로 바꿔")
    assert caps == [("night_mode", "on")]
    assert _route(runner, "엄마 내가 불 끌게 너는 자")[1] == []  # the person called is the 너


def test_a_need_denied_as_the_reason_leaves_the_request_affirmative(runner):
    assert _route(runner, "화면은 나한테 필요 없으니까 밝기 1로 낮춰 줘")[1] == [("screen_brightness", "level")]
    assert _route(runner, "청정 필요 없어")[1] == []


@pytest.mark.parametrize("text,expected", [
    ("로봇아 필터 상태 알려 줘", [("filter_status", "check")]),  # Kiwi reads 로봇/NNG 아/NNG: 아 is no subject
    ("로봇아 필터 얼마나 남았어", [("filter_status", "check")]),
])
def test_the_robot_called_before_a_state_is_not_whose_state_it_is(runner, text, expected):
    record, caps = _route(runner, text)
    assert record.family == "ODL" and caps == expected


@pytest.mark.parametrize("text,expected", [
    ("원장님, 사진은 찍지 마시고요. 로봇아 화면 밝기 2로 해 줘.", [("screen_brightness", "level")]),
    ("민수야 사진 찍지 마 로봇아 청정 켜", [("selected_room_clean", "start")]),
    ("로봇아 청정 켜 민수야 사진 찍지 마", [("selected_room_clean", "start")]),
])
def test_what_a_turn_says_to_a_person_called_by_name_is_theirs_beside_the_robots_request(runner, text, expected):
    record, caps = _route(runner, text)
    assert record.family == "ODL" and caps == expected


@pytest.mark.parametrize("text,expected", [
    ("엄마 잠깐만요. 로봇아 지금 어디 있어?", [("current_location", "check")]),
    ("여보 됐어 내가 할게 로봇아 배터리 몇 프로야", [("battery_status", "check")]),  # -ᆯ게 read as a connective
    ("여보 로봇아 배터리 몇 퍼센트 남았어", [("battery_status", "check")]),  # 로봇아 read as one noun
])
def test_a_state_question_to_the_robot_called_after_a_person_is_the_robots(runner, text, expected):
    record, caps = _route(runner, text)
    assert record.family == "ODL" and caps == expected


@pytest.mark.parametrize("text", ["엄마 잠깐만요. 지금 어디 있어?", "여보 배터리 몇 퍼센트 남았어", "민수야 배터리 몇 프로야"])
def test_a_state_question_to_a_person_called_stays_theirs(runner, text):
    assert _route(runner, text)[1] == []


@pytest.mark.parametrize("text", ["민수야 사진 찍지 마", "로봇아 민수야 사진 찍지 마", "민수야 필터 상태 알려 줘"])
def test_a_person_called_with_no_request_to_the_robot_licenses_nothing(runner, text):
    assert _route(runner, text)[1] == []


@pytest.mark.parametrize("text", ["프리필터 씻을 때 됐어 안 됐어", "프리필터 씻을 때 됐어?"])
def test_a_due_state_asked_either_way_is_checked(runner, text):
    """An alternative offered asks as a question mark does, and the manual topic the state question names is no
    talk of it."""
    record, caps = _route(runner, text)
    assert record.family == "ODL" and caps == [("filter_status", "check")]


@pytest.mark.parametrize("text", ["필터 잔여 수명을 알려 주세요.", "필터가 얼마나 남았어", "필터의 상태 좀 알려 줘",
                                  "헤파 필터 몇 프로 남았는지 알려 줘"])
def test_what_is_left_of_the_filter_asked_in_any_wording_is_its_state(runner, text):
    """A head of the filter's frame and, later in the clause, a word for what is left of it (request_frames
    filter_status due_runs); the quantity asked of the filter is no battery question beside it."""
    record, caps = _route(runner, text)
    assert record.family == "ODL" and caps == [("filter_status", "check")]


@pytest.mark.parametrize("text", ["정수기 필터가 얼마나 남았지", "필터 남은 거 버려"])
def test_what_is_left_of_another_things_filter_or_of_spare_ones_is_no_state_asked(runner, text):
    assert _route(runner, text)[1] == []


@pytest.mark.parametrize("text", ["공기청정 지금 돌아가?", "공기 청정 지금 돌아가요 안 돌아가요"])
def test_an_acts_word_asked_with_a_running_verb_asks_whether_it_runs(runner, text):
    """공기청정 is the act's word, not 청정 of a state alias; asked of with a predicate the operation state's frame
    names (request_frames air_clean_operation predicates), it is that state query."""
    record, caps = _route(runner, text)
    assert record.family == "ODL" and caps == [("air_clean_operation", "check")]


@pytest.mark.parametrize("text", ["공기청정 돼?", "공기청정 지금 돌아가는데 왜 냄새 나지"])
def test_an_acts_word_asked_of_otherwise_checks_nothing(runner, text):
    assert _route(runner, text)[1] == []


@pytest.mark.parametrize("text", ["팀장님 볼륨 좀 줄여 주세요 통화 소리가 안 들려요", "민수 씨 볼륨 좀 줄여 줘",
                                  "김 대리님 화면 밝기 좀 낮춰 주실래요"])
def test_a_titled_person_heading_the_turn_is_the_one_asked(runner, text):
    """님 / 씨 (vocatives person_suffixes) on the turn's first noun, with no particle after it, call its bearer."""
    assert _route(runner, text)[1] == []


def test_a_titled_person_as_the_subject_is_no_call(runner):
    record, caps = _route(runner, "원장님이 그러는데 청정 켜 줘")
    assert caps == [("selected_room_clean", "start")]


@pytest.mark.parametrize("text", ["로봇아 필터 상태 확인하는 방법 좀 알려 줘", "배터리 확인하는 방법 알려 줘"])
def test_how_one_checks_a_state_is_the_manuals_and_checks_nothing(runner, text):
    record, caps = _route(runner, text)
    assert record.family == "DQR" and caps == []


@pytest.mark.parametrize("text", ["필터 갈 때 됐나?", "필터 상태 우떻노? 갈 때 됐나?"])
def test_whether_the_filter_is_due_asked_of_the_robot_checks_it(runner, text):
    """A state question whose frame (filter_status due_runs) asks the robot's own state: the manual topic it names is
    no manual question (언제 갈아야 돼 is; 우떻노 is 경상 어떻노, lexicon dialect_words)."""
    record, caps = _route(runner, text)
    assert record.family == "ODL" and caps == [("filter_status", "check")]


@pytest.mark.parametrize("text", ["필터 언제 갈아야 돼?", "야 이거 필터 갈 때 됐는지 우떻게 아나?"])
def test_when_or_how_one_knows_the_filter_is_due_is_the_manuals(runner, text):
    record, caps = _route(runner, text)
    assert record.family == "DQR" and caps == []


def test_another_thing_called_by_name_is_another_device_addressed(runner):
    record, caps = _route(runner, "스피커야, 재즈 음악 틀어줘")
    assert caps == [] and record.family == "UNS"
    assert any(s.startswith("assistant_vocative:") for s in record.evidence.clauses[0].speech_act.signals)


@pytest.mark.parametrize("text", ["거실로 나와서 같이 티비 보자", "거시로나와서같이티비보자", "우리 같이 사진 찍자"])
def test_a_suggestion_to_do_it_together_is_a_plan_among_people(runner, text):
    record, caps = _route(runner, text)
    assert caps == [] and record.family != "ODL"


def test_a_suggestion_without_together_still_asks_the_robot(runner):
    record, caps = _route(runner, "청정하자")
    assert caps == [("selected_room_clean", "start")]


@pytest.mark.parametrize("text,expected", [
    ("현재 배터리 잔량 보고 바랍니다", ("battery_status", "check")),  # 보고 바랍니다: asked formally
    ("거실로 이동 바랍니다", ("move_to_room", "start")),
])
def test_a_formal_wish_after_a_bare_noun_asks_for_the_act(runner, text, expected):
    record, caps = _route(runner, text)
    assert record.family == "ODL" and caps == [expected]


@pytest.mark.parametrize("text", ["빠른 쾌유 바랍니다", "하루빨리 쾌유하길 바랄게"])
def test_a_wish_for_somebody_asks_nothing(runner, text):
    assert _route(runner, text)[1] == []


@pytest.mark.parametrize("text", ["이모 밥 다 됐으니까 주방으로 오세요~", "할머니 주방 가셔서 식사하세요",
                                  "이모 애기 자니까요 애기방 들어가실 때 조용히 들어가세요"])
def test_a_request_honouring_the_person_heading_the_turn_is_said_to_them(runner, text):
    record, caps = _route(runner, text)
    assert caps == [] and record.family != "ODL"


@pytest.mark.parametrize("text,expected", [
    ("애들 자니까 매너 모드 좀 켜 주세요", [("manner_mode", "on")]),  # 주세요 asks anyone, the robot too
    ("할머니 주무시니까 볼륨 줄여", [("sound_volume", "level")]),  # the grandmother is the sleeper told of
    ("거실로 가세요", [("move_to_room", "start")]),  # polite, with nobody else named
])
def test_an_honorific_without_a_person_called_still_asks_the_robot(runner, text, expected):
    assert _route(runner, text)[1] == expected


def test_a_person_before_their_thing_with_a_place_particle_is_no_call(runner):
    record, caps = _route(runner, "와이프 폰에서도 같은 로봇 조작하게 가족 공유 돼요?")  # her phone, where the app runs
    assert record.family == "DQR" and not any(s.startswith("vocative") for c in record.evidence.clauses for s in c.speech_act.signals)


def test_a_person_before_a_time_is_still_asked(runner):
    assert _route(runner, "엄마 토요일에 소아과 문 여는지 알아?")[0].family == "DEF"


@pytest.mark.parametrize("text", ["습도 조절도 해?", "습도 조절도 하나"])
def test_a_verb_of_doing_makes_its_object_the_act_asked(runner, text):
    record, caps = _route(runner, text)  # 조절 is done, not the humidity checked
    assert caps == [] and record.family == "DQR"


@pytest.mark.parametrize("text,expected", [
    ("배터리 확인 좀 해 줘", [("battery_status", "check")]),  # 확인 is the state's own act
    ("공기 체크 좀 해 줘", [("air_quality", "check")]),
])
def test_a_verbal_noun_of_the_capabilitys_own_act_still_acts(runner, text, expected):
    assert _route(runner, text)[1] == expected


@pytest.mark.parametrize("text,expected", [
    ("나 쉬는 동안 스테이션으로 복귀해", [("return_to_station", "start")]),  # 나 is the subject of 쉬는 (동안), not of 복귀해
    ("내가 씻는 사이에 안방 가 있어", [("move_to_room", "start")]),
])
def test_the_speaker_as_subject_of_a_clause_qualifying_a_noun_leaves_the_request_to_the_robot(runner, text, expected):
    record, caps = _route(runner, text)
    assert record.family == "ODL" and caps == expected


@pytest.mark.parametrize("text, category", [("빅스비야, 현관문 잠가라", "security_lock"), ("빅스비 현관문 잠가라", "security_lock")])
def test_another_assistant_called_with_a_copula_read_ending_is_still_that_assistant(runner, text, category):
    """빅스비야, : Kiwi reads the call as a copula; the name is an assistant's, so it is no person called and the
    request to it is one the robot cannot do (UNS), not talk to somebody else."""
    record, caps = _route(runner, text)
    assert caps == [] and record.family == "UNS" and category in record.unsupported_categories, text


def test_yae_called_alone_is_the_robot_and_called_as_a_plural_is_people(runner):
    """얘야 (robot_pronouns 얘/NP): an elder calls the robot so, and the request after it is the robot's; 얘들아 is a
    plural, which the robot never is, so it calls the children; 아그야 (dialect for a child) calls a child."""
    assert _route(runner, "얘야 소리를 좀 키워 다오, 잘 안 들린다")[1] == [("sound_volume", "level")]
    assert _route(runner, "얘들아 제자리에서 한 바퀴 빙글 돌아 봐")[1] == []
    assert _route(runner, "아그야 거 로봇 배터리 충분한가 봤냐")[1] == []


def test_a_request_the_robot_cannot_do_asked_of_another_assistant_by_name_is_for_another_system(runner):
    """하이 빅스비, 제습기 ... 꺼줍서: the unsupported request is signalled to_assistant, and the learned family model may not
    open it to conversation (learned_opening.unless_for DEF: has_unsupported_request=to_assistant)."""
    record, caps = _route(runner, "하이 빅스비, 제습기 물통 찼는가 보고 꺼줍서")
    assert caps == [] and record.family == "UNS", record.family


def test_a_call_word_with_a_case_particle_is_an_argument_not_a_call(runner):
    """여보한테 문자 보내 줘: 여보 with 한테 is whom the message goes to, not the person the turn is said to, so the
    request is one the robot cannot do (UNS communication), and what the message says (거실 청정 켜 놨다고) is quoted."""
    record, caps = _route(runner, "여보한테 문자 좀 보내 줘 거실 청정 켜 놨다고")
    assert caps == [] and record.family == "UNS" and "communication" in record.unsupported_categories
    assert _route(runner, "여보, 사진 찍어 줘")[0].family == "DEF"


def test_a_remark_after_a_request_to_another_assistant_says_what_it_is_for(runner):
    """알렉사 아빠한테 전화해! 빨리 오라고!: the remark after the request to another assistant (which the call carries to
    it) is what the call is for, not talk that outweighs the request: UNS communication, no device step."""
    record, caps = _route(runner, "알렉사 아빠한테 전화해! 빨리 오라고!")
    assert caps == [] and record.family == "UNS" and "communication" in record.unsupported_categories, record.family


def test_a_message_said_with_the_request_to_send_it_is_no_talk(runner):
    """아빠한테 문자 보내 나 늦는다고: what the message says, quoted after the request, reads like talk to a model of
    words; it is the request's argument (speech_acts message_given), so the learned model may not open the turn to
    conversation (learned_opening.unless_for DEF: has_unsupported_request=message_given). Told to send by somebody
    else (엄마가 카톡 보내래 빨리 오라고), it is still talk."""
    for text in ("아빠한테 문자 보내 나 늦는다고", "카톡 보내 줘 지금 간다고"):
        record, caps = _route(runner, text)
        assert caps == [] and record.family == "UNS" and "communication" in record.unsupported_categories, text
    assert _route(runner, "엄마가 카톡 보내래 빨리 오라고")[0].family == "DEF"
