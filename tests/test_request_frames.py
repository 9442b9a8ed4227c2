"""Request frames as data: what a head noun is made to do, how far a level goes, and whose service or timer a
request asks for (request_frames.json, lexicon operations)."""

import pytest

from registry.contracts import DeviceContext, TurnInput
from tests.conftest import actions


def _route(runner, text):
    record = runner.route(TurnInput(recognized_text=text, device_context=DeviceContext(position="거실")))
    return record, [(cap, op, args) for cap, op, args, _ in actions(record)]


@pytest.mark.parametrize("text,cap,delta", [
    ("소리 좀 올려 줘", "sound_volume", 1), ("바람 좀 줄여 줘", "fan_speed", -1), ("밝기 좀 내려", "screen_brightness", -1)])
def test_a_level_verb_after_a_head_sets_that_level_one_step(runner, text, cap, delta):
    """request_frames level_heads + level_verbs: 소리 is the volume when something raises or lowers it."""
    assert _route(runner, text)[1] == [(cap, "level", {"delta": delta})]


@pytest.mark.parametrize("text,cap,level", [("볼륨 맥스", "sound_volume", 15), ("바람 맥스로 해 줘", "fan_speed", 4)])
def test_the_loanword_for_the_top_level_is_a_level_word(runner, text, cap, level):
    """capability level_words: 맥스 is the top level as 최대 is."""
    assert _route(runner, text)[1] == [(cap, "level", {"level": level})]


def test_a_persons_voice_lowered_is_said_to_people(runner):
    """목소리 좀 낮춰 is keep your voice down: 목소리 is no level head, and no other appliance either."""
    record, caps = _route(runner, "쉿, 애기 방금 잠들었어. 목소리 좀 낮춰")
    assert caps == [] and record.family == "DEF"


@pytest.mark.parametrize("text,cap,end", [
    ("화면 밝기 제일 밝게 해 줘", "screen_brightness", "maximum"), ("볼륨 최대한 작게 해 줘", "sound_volume", "minimum"),
    ("소리 끝까지 올려", "sound_volume", "maximum")])
def test_a_word_of_degree_before_the_direction_goes_to_the_end_of_the_range(runner, registry, text, cap, end):
    spec = next(op for op in registry.capability_by_id[cap].operations if op.operation_id == "level").arguments["level"]
    assert _route(runner, text)[1] == [(cap, "level", {"level": getattr(spec, end)})]


@pytest.mark.parametrize("text,cap,args", [
    ("바람 세기 약으로 해 줘요, 좀 추워", "fan_speed", {"level": 1}),
    ("아이고 바람 좀 약하게 해 주구려, 으슬으슬하네", "fan_speed", {"delta": -1})])
def test_a_polite_or_old_request_before_its_reason_after_a_comma_acts(runner, text, cap, args):
    """Kiwi reads 줘요 / 주구려 before a comma as a connective; the reason does not make the request a remark."""
    assert _route(runner, text)[1] == [(cap, "level", args)]


@pytest.mark.parametrize("text,category", [
    ("강남역까지 택시 잡아 줘", "purchase_or_payment"), ("대리 기사 좀 불러 줘", "purchase_or_payment"),
    ("엘리베이터 우리 층으로 불러 줘", "other_appliance_control"), ("아까 찍은 사진 단톡방에 보내 줘", "communication")])
def test_a_service_or_a_chat_room_asked_for_is_unsupported(runner, text, category):
    record, caps = _route(runner, text)
    assert record.family == "UNS" and record.unsupported_categories[:1] == [category] and caps == []


def test_a_ride_talked_about_asks_nothing(runner):
    record, caps = _route(runner, "어제 택시 잡느라 고생했어")
    assert record.family == "DEF" and caps == []


def test_a_reservation_asked_of_another_appliance_is_its_own_timer(runner):
    record, _ = _route(runner, "내일 아침 7시에 밥 되게 밥솥 취사 예약 좀 해 줘")
    assert record.family == "UNS" and record.unsupported_categories[:1] == ["other_appliance_control"]
    assert _route(runner, "매일 밤 11시에 음소거 되게 예약 걸어 줘")[0].family == "SCH"
    assert _route(runner, "7시에 세탁기 돌리라고 알려 줘")[0].family == "SCH"
    # a timer word right after another thing's name is that thing's timer (schedule_of_another_thing)
    record, _ = _route(runner, "전기장판 타이머 두 시간으로 맞춰줘")
    assert record.family == "UNS" and _route(runner, "타이머 두 시간 맞춰줘")[0].family == "SCH"


@pytest.mark.parametrize("text", ["켜 줘", "그렇게 좀 해 주세요", "다시 해 줘"])
def test_a_device_verb_asked_for_with_nothing_to_act_on_asks_what(runner, text):
    """A request shape with no target is a general clarification (STT_NULL GENERIC), not a conversation reply."""
    record, caps = _route(runner, text)
    assert (record.family, record.stt_null_subtype, caps) == ("STT_NULL", "GENERIC", [])


@pytest.mark.parametrize("text", ["고마 울어라, 뚝 해라", "조용히 해", "나랑 놀아 줘", "기사님 이쪽으로 오시면 돼요"])
def test_an_adverb_done_or_a_verb_that_acts_on_nothing_is_no_missing_target(runner, text):
    record, caps = _route(runner, text)
    assert record.family != "STT_NULL" and caps == []


@pytest.mark.parametrize("text", ["이거 어떻게 하는 거였더라", "뭐 하라 그랬더라", "어 그러니까 뭐였지"])
def test_searching_memory_with_nothing_named_is_a_word_not_found(runner, text):
    """speech_acts recall_endings: a question word, a copula and -더라 / -었지, and no noun."""
    record, _ = _route(runner, text)
    assert (record.family, record.stt_null_subtype) == ("STT_NULL", "GENERIC")


def test_recalling_something_named_is_talk(runner):
    assert _route(runner, "이 노래 제목 뭐였더라")[0].family == "DEF"


@pytest.mark.parametrize("text", ["로또 되면 서재 딸린 큰 집 사야지", "미세먼지 없는 청정 하늘 한 번만 봤으면 소원이 없겠다"])
def test_public_information_only_supposed_in_a_condition_is_not_looked_up(runner, text):
    record, caps = _route(runner, text)
    assert record.family == "DEF" and caps == []
    assert "supposed_in_a_condition" in record.evidence.axes


def test_a_condition_on_public_information_before_a_request_still_looks_it_up(runner):
    assert _route(runner, "비 오면 알려 줘")[0].family == "FRG"


@pytest.mark.parametrize("text", ["노래 같은 건 못 틀어 주지?", "계단은 못 올라가?"])
def test_a_question_negated_by_inability_asks_whether_it_can(runner, text):
    """speech_acts ability.inability_negators: nobody asks for what they say cannot be done."""
    record, caps = _route(runner, text)
    assert record.family == "DQR" and caps == []
    assert "ability_denied" in record.evidence.clauses[0].speech_act.signals


@pytest.mark.parametrize("text", ["우리 집 거실이 한 20평 되는데 이걸로 충분할까?", "밤에 틀어 놓으면 시끄러울까?", "이거 써도 괜찮을까?",
                                  "우리 집 문턱이 좀 높은데 넘어갈 수 있으려나"])
def test_wondering_how_the_product_is_asks_the_manual(runner, text):
    """-ㄹ까 on an adjective wonders (no deliberation), and so does -려나; 이거 in a whole question points at the
    product at hand."""
    assert _route(runner, text)[0].family == "DQR"


def test_how_nice_it_would_be_is_a_wish_and_this_in_a_request_is_still_unsaid(runner):
    record, caps = _route(runner, "로봇이 알아서 청정하면 얼마나 좋을까")
    # (a reply either way: the gray zone between talk and a product question is the learned model's to decide)
    assert record.family in ("DEF", "DQR") and caps == [] and actions(record) == []
    assert _route(runner, "이거 켜 줘")[0].family == "STT_NULL"
    assert _route(runner, "그거 언제 돼?")[0].family == "STT_NULL"


def test_a_light_verb_inside_an_unsupported_acts_words_is_still_the_clauses_verb(runner):
    """오늘 먼지 많으니까 싹 다 청소 좀 해라: 해라 asks (floor cleaning, unsupported); the premise's 많다 does not make
    the clause a remark."""
    record, caps = _route(runner, "오늘 먼지 많으니까 싹 다 청소 좀 해라")
    assert record.family == "UNS" and caps == []


def test_a_reason_after_a_comma_that_opens_with_a_number_leaves_the_request_its_own(runner):
    """티비 켜 봐, 아홉 시 뉴스 할 때 됐다: the request to another appliance stays a request (UNS), not a past remark."""
    record, caps = _route(runner, "티비 켜 봐, 아홉 시 뉴스 할 때 됐다")
    assert record.family == "UNS" and caps == []


@pytest.mark.parametrize("text", ["식당 예약해 줘", "내일 저녁 7시에 식당 예약 좀 해 줘"])
def test_a_place_booked_is_a_purchase_not_a_lookup_or_a_schedule(runner, text):
    record, _ = _route(runner, text)
    assert record.family == "UNS" and record.unsupported_categories[:1] == ["purchase_or_payment"]


def test_a_place_recommended_is_still_looked_up(runner):
    assert _route(runner, "근처 식당 추천해 줘")[0].family == "FRG"


@pytest.mark.parametrize("text,expected", [
    ("고정청정 멈추고 스캐닝 청정으로 바꿔 줘", [("stationary_purify", "stop"), ("scanning_clean", "start")]),
    ("고정청정으로 전환해 줘", [("stationary_purify", "start")]),
])
def test_switching_to_a_way_of_purifying_starts_it(runner, text, expected):
    """request_frames kind_predicates.execution: 바꾸다 and 전환 realize an execution, as they do a setting."""
    assert [(c, o) for c, o, _ in _route(runner, text)[1]] == expected


def test_wondering_with_ryeona_is_a_question_not_a_statement(runner):
    """speech_acts question_endings: -려나 wonders (the family then weighs what it is about)."""
    record, _ = _route(runner, "하루 종일 켜 두면 전기세 많이 나오려나")
    assert record.evidence.clauses[-1].speech_act.mood == "question"


def test_turning_the_camera_off_is_privacy_mode(runner):
    """카메라 꺼 줘: the robot's camera off is privacy mode on (its alias with an operation hint); 카메라 켜 is not an
    alias, so no talk of a phone's camera turns privacy off (카메라 좀 켜 봐, 영상통화 하자)."""
    record = runner.route_text("카메라 꺼 줘")
    assert [(a[0], a[1]) for a in actions(record)] == [("privacy_mode", "on")]
    assert actions(runner.route_text("카메라 좀 켜 봐 영상통화 하자")) == []


def test_a_smart_home_app_is_another_system(runner):
    """스마트싱스 취침 루틴 시작해: a smart-home app's routine is another system's (its name an alias of
    other_appliance_control, as PRODUCT.md lists the appliances); whether the robot works with it is a product question."""
    record = runner.route_text("스마트싱스 취침 루틴 시작해")
    assert record.family == "UNS" and actions(record) == []
    assert runner.route_text("스마트싱스랑 연동 돼?").family == "DQR"


@pytest.mark.parametrize("text", ["예약 취소하고 싶으면 어떻게 해요", "알람 끄려면 어떻게 해"])
def test_how_to_do_something_with_schedules_asks_the_manual(runner, text):
    """A question of how to do something (a how phrase, not 어떻게 돼 of a state) with no time given asks how the
    robot's schedules work (how_to_of_a_schedule); 예약 어떻게 돼 있어? still lists them."""
    assert runner.route_text(text).family == "DQR", text
    assert runner.route_text("예약 어떻게 돼 있어?").family == "SCH"


def test_a_service_asked_about_too_is_a_product_question_even_with_a_time(runner):
    """요일마다 반복되게 예약도 되니?: whether it can schedule too (도 on the service word), a repeat named, asks the manual;
    7시에 알람 맞출 수 있어? (a time, no 도) wants the alarm."""
    assert runner.route_text("요일마다 반복되게 예약도 되니?").family == "DQR"
    assert runner.route_text("7시에 알람 맞출 수 있어?").family == "SCH"


@pytest.mark.parametrize("text", ["그 자리에서 뱅글 돌아 줘유", "빙글빙글 돌아 봐"])
def test_a_mimetic_word_of_turning_is_how_the_robot_turns(runner, text):
    """뱅글 / 빙글빙글 (Kiwi reads them as nouns) say how it turns, not what is turned (request_frames
    rotate_in_place objects); 고개를 빙글 돌려 봐 turns somebody's head, not the robot."""
    assert [a[0] for a in _route(runner, text)[1]] == ["rotate_in_place"]
    assert _route(runner, "고개를 빙글 돌려 봐")[1] == []


@pytest.mark.parametrize("text", ["필터 갈 때 됐어?", "필터 교체한 지 얼마나 됐어", "프리필터 마지막으로 언제 씻었지?",
                                  "필터 갈 때 됐나 좀 봐 줘"])
def test_whether_an_act_on_the_filter_is_due_asks_its_status(runner, text):
    """request_frames filter_status heads + due_runs: 갈 때 됐어 / 한 지 얼마나 됐어 / 마지막으로 언제 ask the state
    the robot reports (the due run is the frame: no other predicate is needed, and 됐어 is a perfect, not a past)."""
    record, caps = _route(runner, text)
    assert record.family == "ODL" and caps == [("filter_status", "check", {})]


@pytest.mark.parametrize("text", ["필터 언제 갈아야 돼?", "필터 갈 때 장갑 껴야 돼?", "우리 집 정수기 필터 갈 때 됐어",
                                  "필터 갈 때 된 거 같지 않아?"])
def test_when_an_act_is_due_in_general_or_for_another_thing_checks_nothing(runner, text):
    """When to do it in general is the manual's; another thing's filter is not the robot's; an opinion sought (된 거
    같지 않아) is no state asked."""
    assert _route(runner, text)[1] == []


@pytest.mark.parametrize("text", ["에어컨 켜져 있어?", "냉장고 온도 몇 도로 돼 있어?", "티비 켜져 있어 꺼져 있어"])
def test_a_state_of_another_thing_asked_of_the_robot_is_not_its_to_check(runner, text):
    """Another appliance's state asked with nobody else called is a request the robot cannot serve: UNS
    other_appliance_control, as writers label it, and no check of the robot's own state."""
    record, caps = _route(runner, text)
    assert record.family == "UNS" and caps == [] and record.unsupported_categories[:1] == ["other_appliance_control"]


@pytest.mark.parametrize("text", ["엄마 티비 켜져 있어?", "폰 배터리 몇 프로야", "갤럭시 버즈 배터리 보통 얼마나 가?"])
def test_another_things_state_asked_of_a_person_or_of_what_one_carries_is_conversation(runner, text):
    """Asked of a person called, or of what a person carries (speech_acts other_targets carried_by_a_person: a
    phone's battery is asked of whoever holds it): nothing the robot is asked to serve."""
    record, caps = _route(runner, text)
    assert record.family == "DEF" and caps == []


@pytest.mark.parametrize("text,room", [("거실로", "거실"), ("작은방으로 좀", "작은방")])
def test_a_room_said_alone_in_the_goal_case_is_a_move_with_its_verb_left_out(runner, text, room):
    """request_frames move_to_room bare_goals: 거실로 is the move's goal in the move's own case."""
    record, caps = _route(runner, text)
    assert record.family == "ODL" and caps == [("move_to_room", "start", {"room_name": room})]


@pytest.mark.parametrize("text", ["엄마 거실로", "거실로 갈까", "화장실로"])
def test_a_goal_said_to_a_person_suggested_or_outside_the_rooms_moves_nothing(runner, text):
    assert _route(runner, text)[1] == []


@pytest.mark.parametrize("text", ["사진 그만 찍어", "언니사진그만찍어진짜", "스캐닝 그만해", "사진 찍는 거 멈춰", "이제 그만 돌아"])
def test_asked_to_stop_a_capability_that_cannot_stop_starts_nothing(runner, text):
    """speech_acts voice_stop.words: said in the clause of a capability with no stop or off operation, a stop word
    asks for none of its operations, by any of its words."""
    assert _route(runner, text)[1] == []


@pytest.mark.parametrize("text,expected", [
    ("청정 그만해", [("selected_room_clean", "stop", {})]), ("사진 찍어 줘", [("request_consent", "start", {"purpose": "take_photo"}), ("take_photo", "start", {})]),
    ("심박 재 줘", [("vital_signs", "start", {})])])
def test_a_capability_that_can_stop_stops_and_one_asked_plainly_starts(runner, text, expected):
    assert _route(runner, text)[1] == expected


def test_the_doorbells_sound_is_another_things(runner):
    """speech_acts other_targets household: 초인종 소리 꺼줘 asks the doorbell, not the robot's mute."""
    record, caps = _route(runner, "아기 자니까 초인종 소리 꺼줘")
    assert caps == [] and record.family == "UNS"


@pytest.mark.parametrize("text", ["바람 좀 해 줘", "풍량 바꿔 줘"])
def test_a_level_asked_with_no_level_nor_direction_is_asked_back_not_sent(runner, text):
    """A level operation needs its level or a delta for it (registry alternative_to): with neither the device would
    refuse the step, so the plan holds none and asks which level."""
    record, caps = _route(runner, text)
    assert caps == [] and record.family == "ODL" and record.missing_slots == ["level"] and "어느 정도" in record.ask_follow_up


@pytest.mark.parametrize("text,expected", [("바람 좀 세게 내 봐", [("fan_speed", "level", {"delta": 1})]),
                                           ("니 빙빙 돌지 말고 서재로 가라", [("move_to_room", "start", {"room_name": "서재"})])])
def test_wind_given_harder_and_a_request_in_place_of_a_prohibition_act(runner, text, expected):
    """request_frames fan_speed 내다; X 하지 말고 Y 해: the prohibition joined to the request is no talk beside it."""
    assert _route(runner, text)[1] == expected


@pytest.mark.parametrize("text", ["근데 너는 누가 만든 거야", "너 어느 나라에서 만들었어", "너 삼성 거야 엘지 거야", "너 국산이야 외제야"])
def test_who_made_the_robot_asked_in_any_conjugation_asks_the_manual(runner, text):
    """product_identity_runs: lemma runs in a clause that names the robot, however the verb is conjugated."""
    record = _route(runner, text)[0]
    assert record.family == "DQR" and "has_product_identity_anchor" in record.evidence.axes


@pytest.mark.parametrize("text", ["이 케이크 누가 만들었어?", "너 국산 차 타?", "엄마 삼성 거 샀어"])
def test_who_made_another_thing_or_a_brand_word_of_another_thing_is_no_identity_question(runner, text):
    assert _route(runner, text)[0].family == "DEF"


@pytest.mark.parametrize("text,family,expected", [("사용 온도가 몇 도까지야?", "DQR", []),
                                                  ("지금 몇 도야?", "ODL", [("temperature_humidity", "check", {})])])
def test_a_range_asked_up_to_a_counted_number_asks_the_manual_not_the_state(runner, text, family, expected):
    """criterion_phrases 몇/MM + 까지 (the counter between aside): the manual's range, not the reading now; a clock
    counter (speech_acts clock_counters: 세무서 몇 시까지 해?) stays a time asked."""
    record, caps = _route(runner, text)
    assert record.family == family and caps == expected


@pytest.mark.parametrize("text", ["1위 찍어 봐", "이번엔 꼭 1위 찍어라", "3등 찍고 와"])
def test_a_number_counted_by_a_word_not_of_the_frame_is_no_object_of_it(runner, text):
    """1위 찍고 (reach first place): a counter after a number is the verb's object like a noun; a rank is none of
    the photo's objects (request_frames objects), so nothing is taken."""
    assert _route(runner, text)[1] == []


@pytest.mark.parametrize("text,cap", [("사진 한 장 찍어 줘", "request_consent"), ("한 장 찍어 줘", "request_consent"),
                                      ("두 바퀴 돌아 줘", "rotate_in_place")])
def test_a_counter_the_frame_counts_by_keeps_the_request(runner, text, cap):
    assert _route(runner, text)[1][0][0] == cap


def test_a_prefixed_noun_is_not_the_frame_object_it_ends_in(runner):
    """헛바퀴만 돌아 (the wheels spin idly: a trouble story) is no turn: 헛 makes another noun than the 바퀴 of 한 바퀴."""
    record = runner.route(TurnInput(recognized_text="요놈이 문턱에 걸려서 자꾸 헛바퀴만 돌아"))
    assert actions(record) == [] and record.family == "DQR", record.family


@pytest.mark.parametrize("text, said", [("청정 꺼", "청정 중지 할게요."), ("나이트 모드 꺼", "나이트 모드 해제 할게요."),
                                        ("나이트 모드 켜", "나이트 모드 할게요.")])
def test_the_reply_says_what_the_step_does_to_its_capability(runner, text, said):
    """lexicon responses operation_names: a stop or an off is said, never 청정 할게요 for 청정 꺼."""
    assert _route(runner, text)[0].tts_response == said


@pytest.mark.parametrize("text, operation", [("음소거", "on"), ("회의 중이니까 음소거", "on"), ("음소거 빨리", "on"), ("음소거 풀어", "off")])
def test_a_word_that_names_the_act_in_full_is_a_request_said_bare(runner, text, operation):
    """음소거 (capability whole_request_aliases): the noun says what to do, so said bare it is the whole frame
    (청정 / 풍량 alone still ask back which act is meant)."""
    assert [(cap, op) for cap, op, _ in _route(runner, text)[1]] == [("mute", operation)]


@pytest.mark.parametrize("text", ["스삐커 음소거", "줌 음소거 풀어", "엄마 음소거", "인스타 소리 좀 줄여", "청정"])
def test_a_bare_act_word_of_another_thing_or_a_bare_capability_word_acts_on_nothing(runner, text):
    assert _route(runner, text)[1] == [], text
