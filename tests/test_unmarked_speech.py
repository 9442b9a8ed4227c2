"""Speech heard with no marks: a recogniser writes no comma or question mark, and talk must still plan nothing.

Every turn here is one that a writer would punctuate (사진 좀 찍어 줘, 오늘 ...; 헤이 기아, ...; 심박 측정 돼?) and
that used to plan a device step once the marks were gone.
"""

import pytest

from registry.contracts import DeviceContext, TurnInput, VoiceContext
from stages._dislocation import afterthought_first
from tests.conftest import actions


def _route(runner, text, position="안방"):
    return runner.route(TurnInput(recognized_text=text, device_context=DeviceContext(position=position)))


@pytest.mark.parametrize("text", [
    "헤이 기아 공기 청정 모드 켜 줘",          # a wake word Kiwi splits (헤/IC 이/MM) still wakes another assistant
    "제트봇 주방으로 가",                      # another thing named bare before a room is told where to go
    "로봇청소기 거실에 가 있어",
    "사진 좀 찍어 줘 오늘 옷 예쁘게 입었단 말이야",  # a request run on into a remark, no comma written
    "돌아 돌아 빙글빙글 돌아 멈추면 술래",       # the verbs joined on go with the remark
    "프라이버시 모드에서도 심박 측정 돼",        # 되 (passive 되/XSV too) is never bidden
    "거실 말고 다른 방도 청정 돼",
    "나이트 모드 켜면 바람 약해져",              # becoming (지 after an adjective) is never bidden
    "터보로 돌리면 배터리 금방 닳아",
    "그때 회전하다가 문턱에 걸렸던 거 기억나",
    "할아버지 보청기 소리 좀 올리세요 제 말 잘 안 들리시잖아요",
])
def test_talk_heard_without_marks_plans_nothing(runner, text):
    record = _route(runner, text)
    assert actions(record) == [], (text, record.family, actions(record))


@pytest.mark.parametrize("text, expected", [
    ("헤이 거실 청정해 줘", ["move_to_room", "selected_room_clean"]),  # a wake word before a room calls nobody
    ("사진 좀 찍어 줘", ["request_consent", "take_photo"]),
    ("볼륨 좀 올려 줘 잘 안 들려", ["sound_volume"]),       # not among what people ask of each other too
    ("사진 찍어 줄 수 있어 우리 둘이", ["request_consent", "take_photo"]),  # a postposed argument is no remark
    ("거실 가서 공기 청정해 져", ["move_to_room", "selected_room_clean"]),   # 져 after a verb: a slip of 줘
    ("멈추고 충전대로 가", ["return_to_station"]),
    ("일주일 여행 갔다 왔더니 집이 답답하다 집 전체 청정 한번 쫙 돌려", ["scanning_clean"]),  # 갔다: no room, no device word
])
def test_requests_heard_without_marks_still_act(runner, text, expected):
    assert [a[0] for a in actions(_route(runner, text, position="서재"))] == expected, text


def test_a_stop_joined_on_to_a_question_is_asked_about(runner):
    """에어컨이랑 연동해서 켜고 끄고 할 수 있어요?: 끄고 is part of what is asked, not a voice stop."""
    record = _route(runner, "에어컨이랑 연동해서 켜고 끄고 할 수 있어요?")
    assert record.family == "DQR" and not record.stops_active_workflow and actions(record) == []


def test_a_period_counted_is_the_manuals(runner):
    """배터리도 똑같이 일 년이에요?: a period (speech_acts period_counters after a number or 몇) that the clause ends
    on asks the manual, never the battery's state; 배터리 몇 프로야? still checks it."""
    record = _route(runner, "보증 기간이 어떻게 돼요? 배터리도 똑같이 일 년이에요?")
    assert record.family == "DQR" and actions(record) == []
    assert [a[0] for a in actions(_route(runner, "배터리 몇 프로야?"))] == ["battery_status"]


@pytest.mark.parametrize("text, level", [("바람 세기 삼 단으로 해 줘", 3), ("풍량 이 단으로", 2), ("풍량 삼단으로 해 줘", 3)])
def test_a_sino_number_before_dan_is_a_level(runner, text, level):
    """단 is a level counter (lexicon numbers); 일단 (first of all) stays a word."""
    assert actions(_route(runner, text)) == [("fan_speed", "level", {"level": level}, False)]
    assert [a[0] for a in actions(_route(runner, "일단 거실로 가"))] == ["move_to_room"]


@pytest.mark.parametrize("text", ["프리필터에서 쉰내가 나요", "바퀴에 머리카락이 칭칭 감겨 있어요"])
def test_trouble_said_of_a_product_part_is_a_problem_report(runner, text):
    """An event verb said of a product noun (냄새가 나요) or a part that tangles (malfunction_predicates 감기) is a
    problem for the manual, whatever Kiwi makes the clause's subject."""
    record = _route(runner, text)
    assert record.family == "DQR" and actions(record) == [], (text, record.family)


@pytest.mark.parametrize("text", ["로봇이 문턱에서 자꾸 걸리니까 은근 짜증 나네", "이불에서 쉰내 나"])
def test_what_happens_inside_a_person_or_to_another_thing_is_no_problem_report(runner, text):
    """짜증 나 (speech_acts inner_events) is the speaker's; 이불 is no product noun."""
    assert _route(runner, text).family != "DQR", text


def test_a_noun_written_on_to_a_device_word_with_its_own_ha_is_its_predicate(runner):
    """배터리교체하려고: 교체하 is the verb the battery belongs to even with no space before it, so nothing checks the
    battery; 필터상태확인해 still checks the filter."""
    assert actions(_route(runner, "배터리교체하려고")) == []
    assert [a[0] for a in actions(_route(runner, "필터상태확인해"))] == ["filter_status"]


@pytest.mark.parametrize("text, family", [("스캐닝 청정 해 다오", "ODL"), ("우리 딸한테 전화 좀 넣어 다오", "UNS")])
def test_dao_asks_like_jwo(runner, text, family):
    """해 다오 (달/VX, elderly and written speech) is a benefactive request like 해 줘; reported it stays reported."""
    assert _route(runner, text).family == family, text
    assert actions(_route(runner, "엄마가 청정 해 달래")) == []


def test_an_exclamative_ending_closes_its_sentence(runner):
    """공기가 탁하구나, 청정 좀 해 줘: -구나 (Kiwi: a connective before a comma) only ever closes a sentence (lexicon
    polite_finals), so the remark asks no air check; the clean is the request."""
    assert [a[0] for a in actions(_route(runner, "공기가 탁하구나, 청정 좀 해 줘"))] == ["selected_room_clean"]
    assert _route(runner, "보일러 안 돌아가네 켜 봐").family == "UNS"


@pytest.mark.parametrize("text", ["날씨가 왜 이렇게 덥냐 아직 오월인데", "요즘 물가가 와 이래 비싸노", "이 동네는 왜 이렇게 공기가 안 좋냐"])
def test_why_so_before_an_adjective_complains(runner, text):
    """왜 이렇게 덥냐 (speech_acts rhetorical_degree before an adjective, no "?") is a complaint about how things are:
    conversation, not a question to look up."""
    assert _route(runner, text).family == "DEF", text
    assert _route(runner, "왜 이렇게 시끄러워?").family != "DEF"


def test_a_body_that_got_hot_is_a_problem_report(runner):
    """뜨거워지 (Kiwi's one verb for 뜨거워졌어) is a malfunction predicate like 뜨겁."""
    assert _route(runner, "본체가 너무 뜨거워졌어 괜찮은 거야?").family == "DQR"


@pytest.mark.parametrize("text, expected", [
    ("빨리 와 거실로", [("move_to_room", "start", {"room_name": "거실"}, False)]),
    ("볼륨 줄여 3으로", [("sound_volume", "level", {"level": 3}, False)]),
    ("청정 좀 해 줘 지금", [("selected_room_clean", "start", {}, False)]),
])
def test_an_afterthought_after_the_predicate_is_its_argument(runner, text, expected):
    """Right dislocation (lexicon afterthoughts): the argument said after the verb is moved before it."""
    assert actions(_route(runner, text, position="서재")) == expected, text


@pytest.mark.parametrize("text, moved", [
    ("빨리 와 거실로", "빨리 거실로 와"),
    ("청정 좀 해 줘 지금", "청정 좀 지금 해 줘"),
    ("너무 시끄러워 아까부터", "너무 아까부터 시끄러워"),
    ("거실로 와. 빨리", None),          # a full stop between: two sentences
    ("엄마 사진 찍어 줘 엄마", None),    # a bare noun is a call, never moved
    ("청정 돌려라 잉", None),            # a sentence particle is no argument
    ("사진 좀 찍어 줘 언니 여기서", None),  # a bare noun stops the afterthought: 언니 is called
    ("필요하면 청정해 끝나면 충전대로", None),  # -면 does not end a sentence
    ("볼륨 줄여 3으로", "볼륨 3으로 줄여"),    # a number is a word
    ("이어서 날씨입니다 내일은 전국이 대체로", None),  # a topic and a subject: a new sentence, cut off
    ("충전이 필요해 나한테는 휴가가", "충전이 나한테는 휴가가 필요해"),  # a dative with 는 is no second subject
])
def test_afterthought_first_moves_only_an_argument_after_an_ending(runner, text, moved):
    assert afterthought_first(text, runner.kiwi.tokenize(text), runner.registry.lexicon["afterthoughts"]) == moved


def test_an_off_word_is_never_read_across_the_device_word(runner):
    """청정 지금 해 줘: 청정 + 지금 spell 정지 in the compact text; the operation is read after the word only."""
    assert actions(_route(runner, "청정 지금 해 줘")) == [("selected_room_clean", "start", {}, False)]
    assert actions(_route(runner, "청정 정지")) == [("selected_room_clean", "stop", {}, False)]


@pytest.mark.parametrize("text", ["화면 터치가 반응을 안 해", "러그 끝에 걸려서 꼼짝을 안 해"])
def test_an_activity_the_device_refuses_is_a_problem_report(runner, text):
    """반응을 안 해 (speech_acts failing_activities as the object of a negated 하다) tells the device fails."""
    assert _route(runner, text).family == "DQR", text
    assert _route(runner, "우리 애가 꼼짝을 안 해").family != "DQR"   # somebody named does not


def test_the_speakers_reason_leaves_the_request_to_the_robot(runner):
    """나 잘 거니까 나이트 모드 켜 줘: 나 is the subject of the reason (a premise ending before the device word), not of
    the request; 내가 나이트 모드 켤게 is still the speaker's own act."""
    assert [a[0] for a in actions(_route(runner, "나 잘 거니까 나이트 모드 켜 줘"))] == ["night_mode"]
    assert actions(_route(runner, "내가 나이트 모드 켤게")) == []


def test_a_latin_acronym_said_as_a_word_is_the_graphs_word(runner):
    """AS 기간이 어떻게 되나요: AS (lower-cased to as) is spelled 에이에스 (lexicon latin_words), the word the knowledge
    graph knows; it asks the manual. 음성 인식이 안 돼요: an activity of the device as subject fails too."""
    assert _route(runner, "AS 기간이 어떻게 되나요").family == "DQR"
    assert _route(runner, "음성 인식이 안 돼요").family == "DQR"


@pytest.mark.parametrize("text, code", [("이쓰리 떴어", "e3"), ("화면에 이육이라고 나와", "e6"), ("에러 이투 나왔어", "e2"),
                                        ("이오 에러 떴는데 어떡해", "e5")])
def test_an_error_code_read_aloud_is_the_code(runner, text, code):
    """이쓰리 떴어: recognition writes a code's letter and digit as said (lexicon spoken_codes); next to a display or
    error word it is the code, and the question asks the manual. 이사 가는 날 (moving house) is no code."""
    record, out = runner.route_with(TurnInput(recognized_text=text), ("normalized_text",))
    assert code in out["normalized_text"].text.split() or any(w.startswith(code) for w in out["normalized_text"].text.split())
    assert record.family == "DQR"
    _, moved = runner.route_with(TurnInput(recognized_text="이사 가는 날 비 온대"), ("normalized_text",))
    assert "e4" not in moved["normalized_text"].text


@pytest.mark.parametrize("text", ["삼촌! 이리 와서 이것 좀 봐 봐요", "기사님, 그 세탁기 조금만 왼쪽으로 옮겨 주세요",
                                  "엄마! 청정 좀 켜 줄래?"])
def test_a_person_called_before_a_mark_is_who_is_asked(runner, text):
    """A person noun closed by "!" or "," (vocatives bare_call_followers; 기사님 read as 기사 + 님 counts as written) calls
    that person: what follows is asked of them, and nothing is planned."""
    record = _route(runner, text)
    assert record.family == "DEF" and actions(record) == [], (text, record.family)
    assert [a[0] for a in actions(_route(runner, "로봇! 거실로 와", position="서재"))] == ["move_to_room"]


@pytest.mark.parametrize("text", ["김 대리님, 볼륨 좀 키워 주실 수 있어요? 목소리가 너무 작게 들려요.", "원장님, 거실로 가세요",
                                  "민수 씨, 불 좀 꺼 줘요", "박 선생님, 사진 좀 찍어 주세요",
                                  "준호야 할머니 댁 가서 가족사진 좀 찍어 오는 거 부탁해"])
def test_a_title_calls_a_person_whatever_the_noun(runner, text):
    """Any noun with a title (vocatives person_suffixes: 대리님, 원장님, 씨), and a name before it, closed by a mark calls
    that person: what follows is asked of them, and nothing is planned."""
    record = _route(runner, text)
    assert actions(record) == [] and record.family != "ODL", (text, record.family)


@pytest.mark.parametrize("text", ["신생아 방에 둬도 괜찮을까요?", "아기 방에 둬도 괜찮을까요?"])
def test_a_dictionary_word_ending_in_a_is_no_name_called(runner, text):
    """신생아 is a word Kiwi knows, not 신생 called with 아 (다온아 is outside its dictionary): the question is the
    user's, about the robot."""
    record = _route(runner, text)
    assert record.family == "DQR", (text, record.family)
    assert not any(s.startswith("vocative") for c in record.evidence.clauses for s in c.speech_act.signals)


@pytest.mark.parametrize("text", ["디스코드 볼륨 좀 줄여 봐", "야 디코 볼륨 좀 줄여 봐 니 키보드 소리 다 들림", "카톡 알림 소리 꺼 줘"])
def test_an_apps_sound_is_not_the_robots(runner, text):
    """An app's volume (other_targets things.app) is another thing's: never the robot's own volume."""
    record = _route(runner, text)
    assert actions(record) == [] and record.family != "ODL", (text, record.family)
    assert [a[0] for a in actions(_route(runner, "볼륨 좀 줄여 봐"))] == ["sound_volume"]


@pytest.mark.parametrize("text", ["초코 거실로 와 간식 줄게", "엄마 거실로 와", "클로이 거실로 가서 손님한테 인사해",
                                  "이모, 한 바퀴 돌아 봐요. 옷 예쁘다.", "자기야, 나이트 모드 좀 켜 줘. 눈부셔.",
                                  "먼저 씻어 화장실에서 그 다음에 들어가 안방에",
                                  "주방 가서 라면이라도 끓여 무라", "밥 뭇나? 안 뭇으면 주방 가서 밥 무라"])  # (경상 무라: 먹어라)
def test_somebody_named_or_bidden_a_persons_act_is_who_is_asked(runner, text):
    """A bare noun before a room in a clause that moves somebody (vocatives mover_verbs) is the one told to go; a person
    noun closed by a mark is called however Kiwi splits it (이모, -> 이/MM 모); a person's own act bidden (씻어:
    person_acts) addresses a person. Nothing is planned."""
    assert actions(_route(runner, text)) == [], text


@pytest.mark.parametrize("text, room", [("다음 안방으로 가", "안방"), ("오늘 거실로 가 있어", "거실")])
def test_a_word_of_when_before_a_room_calls_nobody(runner, text, room):
    """다음, 오늘 (vocatives not_callers) say when, not who: the robot still goes."""
    assert actions(_route(runner, text, position="서재")) == [("move_to_room", "start", {"room_name": room}, False)]


def test_a_declarative_da_said_last_closes_its_sentence(runner):
    # Kiwi tags the 다 of 좋다 as a connective when no mark follows; said last, it is the sentence's ending
    nt = runner.route_with(TurnInput(recognized_text="오늘 공기 좋다"), ("normalized_text",))[1]["normalized_text"]
    assert (nt.morphemes[-1].form, nt.morphemes[-1].tag) == ("다", "EF")
    mid = runner.route_with(TurnInput(recognized_text="먹다 말고 나갔어"), ("normalized_text",))[1]["normalized_text"]
    assert ("다", "EC") in [(m.form, m.tag) for m in mid.morphemes]  # mid-turn it stays the connective -다


@pytest.mark.parametrize("text", ["엄마가 오래.", "아빠가 그러는데 비 온대.", "마스크 다시 쓴대."])
def test_reported_speech_closed_by_a_full_stop_is_still_a_report(runner, text):
    record, out = runner.route_with(TurnInput(recognized_text=text), ("clause_analyses",))
    act = out["clause_analyses"][-1].act
    assert act.reported and act.mood == "statement", (text, act.mood)
    assert record.family == "DEF" and actions(record) == []



@pytest.mark.parametrize("text", ["큰방 가서 공기 어떤지만 확인해", "청정 좀 해 줘", "거실로 가서 공", "배터리 얼", "사진 찍"])
def test_a_full_stop_after_the_last_word_changes_nothing(runner, text):
    # a recognizer may or may not write the stop; the clause's words are the same either way
    bare, marked = _route(runner, text), _route(runner, text + ".")
    assert (marked.family, actions(marked)) == (bare.family, actions(bare)), text


@pytest.mark.parametrize("text", ["부엌 가서 물 좀 떠 와", "물 좀 떠 와", "편의점 가서 우유 사 와"])
def test_a_verb_given_its_direction_asks_no_move_of_its_own(runner, text):
    # 떠 와 / 사 와: 오 after a verb in -어 is where the fetched thing goes; the robot moves for none of it
    assert actions(_route(runner, text)) == [], text


def test_a_verb_of_motion_before_its_direction_still_moves_and_a_photo_taken_there_stays(runner):
    assert [a[0] for a in actions(_route(runner, "안방 가서 사진 찍어 와"))] == ["move_to_room", "request_consent", "take_photo"]
    assert [a[0] for a in actions(_route(runner, "거실로 와"))] == ["move_to_room"]


@pytest.mark.parametrize("text", ["사진 찍어 줄까", "청정 켜 줄까?", "안방에 청정 켜 드릴까요", "볼륨 줄여 드릴까요"])
def test_an_offer_to_do_it_for_somebody_is_the_speakers_not_a_request(runner, text):
    # -어 줄까 / -어 드릴까요: shall I do it for you; the speaker offers, nobody asks the robot
    assert actions(_route(runner, text)) == [], text


@pytest.mark.parametrize("text", ["청정 켜 줄래", "거실로 가 주실 수 있을까요", "청정 좀 켜 주시겠어요"])
def test_a_request_with_a_benefactive_still_asks(runner, text):
    assert actions(_route(runner, text)) != [], text


@pytest.mark.parametrize("text", ["서재 가서 아빠 안경 좀 갖고 와요", "작은방 가서 선풍기 좀 가져와유"])
def test_a_fetch_with_its_direction_after_go_and_do_moves_nowhere(runner, text):
    assert actions(_route(runner, text)) == [], text


@pytest.mark.parametrize("text", ["아까 엄마랑 서재 갔다가 책 한 권 들고 왔어", "나 머리 아파서 잠깐 바깥 공기 좀 쐬고 올게"])
def test_a_direction_told_or_promised_keeps_the_sentence_a_telling(runner, text):
    record = _route(runner, text)
    assert record.family == "DEF" and actions(record) == [], (text, record.family)


@pytest.mark.parametrize("text", ["안방 가서 이불 좀 꺼내 줘", "안방 가서 이불 좀 꺼내 와라"])
def test_a_registry_word_read_across_a_noun_marks_no_verb(runner, text):
    # 이[불 좀 꺼]내: 불 좀 꺼 (lights off) begins inside 이불; 꺼내 stays the physical act it is, and the move its means
    record = _route(runner, text)
    assert record.family == "UNS" and actions(record) == [], (text, record.family)


@pytest.mark.parametrize("text", ["사진 찍은 거 보여 줘", "언니 사진 찍은 거 나한테도 보내 줄래", "사진 찍을 때 화면에 미리 보여"])
def test_a_device_verb_that_only_describes_a_noun_or_a_time_asks_for_nothing(runner, text):
    assert actions(_route(runner, text)) == [], text
    assert [a[0] for a in actions(_route(runner, "사진 찍어 줄 수 있어?"))] == ["request_consent", "take_photo"]


def test_a_trailing_regional_particle_glued_to_the_verb_is_dropped(runner):
    # 와잉 / 줘잉: the Jeolla particle 잉 glued on is no word of its own (lexicon dialect_endings)
    assert actions(_route(runner, "주방 가서 행주 좀 빨아 와잉")) == []
    assert [a[0] for a in actions(_route(runner, "청정 해 줘잉"))] == ["selected_room_clean"]


def test_a_regional_word_for_a_little_is_no_verb(runner):
    """바람 쪼매 중간으로 해 줘: Kiwi reads 쪼매 (경상: 조금) as the verb 쪼 + 매; as a whole word it is 조금 (lexicon
    dialect_words), and the fan speed request is whole."""
    assert [a[0] for a in actions(_route(runner, "바람 쪼매 중간으로 해 줘유"))] == ["fan_speed"]


@pytest.mark.parametrize("text", [
    "이거 공기청정 범위가 거실 하나 정도야 아님 집 전체야",   # 야 read as a particle before the conjunction
    "나이트 모드 켜면 바람 약해져 아님 그대로야",
    "충전은 한 시간이면 돼 아니면 더 걸려",                  # 더 걸려 is no request, 아니면 no condition
])
def test_alternatives_offered_are_asked(runner, text):
    """A야 아니면 B야: 아니면 / 아님 said alone after a sentence's ending (lexicon clauses.alternatives) offers
    alternatives; both sentences are asked, whatever their endings, and neither is a condition or a negation."""
    record = _route(runner, text)
    clauses = [c for c in record.evidence.clauses if c.speech_act is not None]
    assert record.family == "DQR" and actions(record) == [], (text, record.family)
    assert all(c.role == "action" and "alternative" in c.speech_act.signals for c in clauses[-2:]), text


def test_a_noun_or_another_is_no_pair_of_sentences(runner):
    """공기 나쁜 거 아니면 청정 꺼: after a noun 아니면 is still a condition."""
    record = _route(runner, "공기 나쁜 거 아니면 청정 꺼")
    assert [c.role for c in record.evidence.clauses] == ["guard", "action"]


def test_whether_it_is_usual_is_asked(runner):
    """이거 원래 이렇게 시끄러워: a usual adverb (speech_acts usual_adverbs) in a clause about the robot (intoned_questions
    usual_subjects) asks what is usual, heard without a mark; of another appliance, of the world, or compared (평소보다,
    원래대로) it asks nothing of the kind."""
    assert _route(runner, "이거 원래 이렇게 시끄러워").family == "DQR"
    assert _route(runner, "너 원래 충전 이렇게 오래 걸려").family == "DQR"
    for text in ("세탁기 원래 이렇게 시끄러워", "원래 월요일은 차 막혀", "이 동네는 원래 밤에 조용해요"):
        assert _route(runner, text).family == "DEF", text
    assert _route(runner, "밝기 원래대로 돌려 놔").family != "DQR"


def test_one_of_alternatives_about_the_robot_makes_both_about_it(runner):
    """너 바닥 청소도 되는 거야 아니면 공기만 하는 거야: the second alternative asks what the first asks (what the robot
    does), it checks no air; alternatives of states check both (너 충전 중이야 아님 청정 중이야)."""
    record = _route(runner, "너 바닥 청소도 되는 거야 아니면 공기만 하는 거야")
    assert record.family == "DQR" and actions(record) == []
    assert [a[0] for a in actions(_route(runner, "너 충전 중이야 아님 청정 중이야"))] == ["battery_status", "air_clean_operation"]


def test_a_confirmation_asked_without_its_mark_is_a_question(runner):
    """카메라 완전히 꺼지는 거 맞아: 맞 confirming a modified nominalizer, heard without "?", asks whether it is so (a
    product question or, of a state, a check: 청정 돌아가고 있는 거 맞아); 니 말이 맞아 agrees."""
    record = _route(runner, "프라이버시 모드 켜면 카메라 완전히 꺼지는 거 맞아")
    assert record.family == "DQR" and actions(record) == []
    assert [a[0] for a in actions(_route(runner, "청정 돌아가고 있는 거 맞아"))] == ["air_clean_operation"]
    assert _route(runner, "니 말이 맞아").family == "DEF"


@pytest.mark.parametrize("text", ["거실 가야겠어", "청정 좀 돌려야겠다", "우리 애기 방이 너무 건조한 것 같아 가습기 하나 사야겠어"])
def test_what_the_speaker_resolves_to_do_is_no_request(runner, text):
    """-어야겠- (a necessity, then 겠): what the speaker resolves to do is the speaker's own act, never the robot's."""
    record = _route(runner, text)
    assert actions(record) == [] and record.family == "DEF", (text, record.family)


def test_an_assistants_call_carries_to_the_request_after_it(runner):
    """하이 빅스비 X 말고 Y 켜 줘: the call heads the turn, and the request in the next clause is still the assistant's
    (assistant_vocative:from_previous_clause): an unsupported request for another appliance, never an action."""
    record = _route(runner, "하이 빅스비 거실 공기청정기 말고 안방 에어컨 켜 줘")
    assert record.family == "UNS" and actions(record) == []
    assert "other_appliance_control" in record.unsupported_categories


def test_a_gyeongsang_imperative_of_kyeoda_is_a_request(runner):
    """키라 (경상: 켜라, lexicon dialect_words) turns something on: the robot's purifying, or another appliance's."""
    assert _route(runner, "청정 좀 키라").family == "ODL"
    record = _route(runner, "에어컨 좀 키라 더버 죽겠다")
    assert record.family == "UNS" and actions(record) == []


@pytest.mark.parametrize("text", ["응 응", "네 네 네?", "어 네 네"])
def test_a_bare_yes_with_nothing_asked_before_answers_nothing(runner, text):
    record = runner.route(TurnInput(recognized_text=text))
    assert record.family == "STT_NULL" and "answers_nothing_asked" in record.evidence.axes


@pytest.mark.parametrize("text", ["알았어", "오케이", "잠깐만"])
def test_agreement_or_a_wait_is_a_reply_of_its_own(runner, text):
    assert runner.route(TurnInput(recognized_text=text)).family == "DEF"


def test_a_yes_after_the_robots_own_question_may_answer_it(runner):
    voice = VoiceContext(last_route="ODL", pending_follow_up_text="어느 방으로 갈까요?")
    record = runner.route(TurnInput(recognized_text="응", voice_context=voice))
    assert "answers_nothing_asked" not in record.evidence.axes


@pytest.mark.parametrize("text", ["보증 기간이 우째 되노? 본체하고 배터리하고 따로가?",
                                  "E6 떠서 30분 식혔는데 또 뜹니다. 서비스 요청은 어디서 합니까?"])
def test_a_noun_joined_by_a_particle_calls_nobody_and_the_manuals_service_is_the_products(runner, text):
    """본체하고 (a noun with 하고 written on) is one of two things joined, not somebody called and told to go; 서비스 요청
    is the manual's own section, not a place of the world."""
    record = _route(runner, text)
    assert record.family == "DQR" and actions(record) == [], (text, record.family)


@pytest.mark.parametrize("text", ["엄마가 오셨으니 사생활 보호 모드를 켜 주세요", "손님이 오셨으니 사생활 보호 모드를 켜 주시기 바랍니다."])
def test_a_premise_in_eu_ni_keeps_its_subject_to_itself(runner, text):
    """-으니 gives a reason as -으니까 does: the person who came is its subject, and the request after it is the robot's."""
    assert [a[0] for a in actions(_route(runner, text))] == ["privacy_mode"], text
