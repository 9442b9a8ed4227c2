"""Stages called as plain functions."""

from registry.contracts import HistoryEvidence, LearnedEvidence, TurnInput, VoiceContext
from stages.anchors import preclassifier_hints
from stages.speech_acts import clause_analyses as licensed, clause_candidates, speech_acts


def clause_analyses(nt, registry):
    """The three clause nodes called as plain functions: candidates, speech acts, licensing."""
    candidates = clause_candidates(nt, registry)
    return licensed(candidates, speech_acts(candidates, nt, HistoryEvidence(), registry), HistoryEvidence(), TurnInput(recognized_text=nt.original), registry)
from stages.history import history_evidence
from stages.normalization import normalized_text
from stages._times import time_parser_for
from dataflow.driver import shared_kiwi


def _nt(text, registry):
    return normalized_text(TurnInput(recognized_text=text), shared_kiwi(), registry)


def test_normalization_turns_number_words_into_digits(registry):
    assert _nt("풍량 삼 단계로 해줘", registry).text == "풍량 3 단계로 해줘"
    assert _nt("볼륨 다섯으로", registry).text.startswith("볼륨 5")
    assert _nt("삼십 분 뒤에 꺼줘", registry).text == "30 분 뒤에 꺼줘"
    # "이 시간" is "this time", not "2 hours"; "한 다음" is "after doing"
    assert _nt("이 시간에", registry).text == "이 시간에"
    assert _nt("청정 한 다음 거실로 와", registry).text == "청정 한 다음 거실로 와"
    # "하나요" is 하 + 나요 (do they?), a lone 하나 the number
    assert _nt("우체국 몇 시까지 하나요?", registry).text == "우체국 몇 시까지 하나요?"
    assert _nt("풍량 하나로", registry).text == "풍량 1로"
    # after a negator or 왜 / 잘, a lone 하나 is the verb asked (numbers standalone_verb_after_words)
    assert _nt("건강 측정 못 하나", registry).text == "건강 측정 못 하나"
    assert _nt("사진 하나만 찍어 줘", registry).text == "사진 1만 찍어 줘"
    # before a bound noun said alone, a lone 둘 is 두다 + ㄹ (numbers standalone_verb_before_words)
    assert _nt("예약 걸어 둘 수 있어?", registry).text == "예약 걸어 둘 수 있어?" and _nt("사진 둘 찍어", registry).text == "사진 2 찍어"
    # a lone sino numeral said last after a setting's name is its level (numbers level_heads); not 볼륨이 / 이 정도
    assert _nt("볼륨 영", registry).text == "볼륨 0" and _nt("밝기 삼으로 해 줘", registry).text == "밝기 3으로 해 줘"
    assert _nt("볼륨이 너무 커", registry).text == "볼륨이 너무 커" and _nt("볼륨 이 정도면 돼", registry).text == "볼륨 이 정도면 돼"
    # a counter closes a number only when particles end the word after it: 오시는데 is "(she) comes", not 5 o'clock
    assert _nt("시어머니 오시는데", registry).text == "시어머니 오시는데" and _nt("칠시에는 꺼 줘", registry).text == "7시에는 꺼 줘"
    # "이번 주", "이번에" is "this week / this time", "이분" "this person"; a spaced "이 번" is still a level
    assert _nt("이번 주 토요일에 예약해 줘", registry).text == "이번 주 토요일에 예약해 줘"
    assert _nt("기준금리 이번에 동결됐어?", registry).text == "기준금리 이번에 동결됐어?"
    assert _nt("볼륨 이 번으로", registry).text == "볼륨 2 번으로"


def test_normalization_cleans_symbols_and_rejects_empty(registry):
    out = _nt("  거실로\t가줘!!😀 ", registry)
    assert out.text == "거실로 가줘!" and out.compact == "거실로가줘!"
    assert _nt("   ", registry).rejected_reason == "empty"
    assert _nt("😀😀", registry).rejected_reason == "no_usable_text"


def test_clauses_split_on_connectives_with_guards(registry):
    nt = _nt("거실로 가서 공기 상태 확인하고 필요하면 청정해줘", registry)
    clauses = clause_analyses(nt, registry)
    assert [c.role for c in clauses] == ["action", "action", "guard", "action"]
    assert clauses[0].rooms == ["living_room"]
    assert [h.capability_id for h in clauses[1].capabilities] == ["air_quality"]


def test_quotative_is_not_a_clause_boundary(registry):
    clauses = clause_analyses(_nt("오후 3시에 약 먹으라고 알려줘", registry), registry)
    assert len(clauses) == 1


def test_preclassifier_axes_carry_strength_and_signals(registry):
    nt = _nt("유튜브 틀어줘", registry)
    hints = preclassifier_hints(clause_analyses(nt, registry), nt, HistoryEvidence(), LearnedEvidence(), registry)
    assert hints.unsupported_request_categories == ["streaming_or_app_execution"]
    assert hints.strength("has_unsupported_request") == 1.0
    assert not hints.flag("has_supported_capability_anchor")


def test_device_cue_alone_is_not_a_capability_anchor(registry):
    nt = _nt("에어컨 켜줘", registry)
    hints = preclassifier_hints(clause_analyses(nt, registry), nt, HistoryEvidence(), LearnedEvidence(), registry)
    assert hints.flag("has_device_action_cue_surface")
    assert not hints.flag("has_supported_capability_anchor")


def test_history_marks_open_schedule_workflow():
    turn = TurnInput(recognized_text="매일", voice_context=VoiceContext(slot_state={"owner_route": "SCH", "missing_slots": ["start_time"]}))
    ev = history_evidence(turn)
    assert ev.active_schedule_workflow and ev.missing_slots == ["start_time"]


def test_time_parser(registry):
    p = time_parser_for(registry)
    t = p.parse("매일 오후 6시부터 7시까지")
    assert (t.start_time, t.end_time, t.repeat_days) == ("18:00", "19:00", ["daily"])
    assert p.parse("월수금 아침 7시").repeat_days == ["mon", "wed", "fri"]
    assert p.parse("30 분 뒤에").start_time == "+00:30"
    assert p.parse("밤 12시").start_time == "00:00"
    assert p.parse("10분 타이머").duration_s == 600


def test_chungcheong_endings_read_as_their_standard_forms(registry):
    """-유 for -요 after any ending (lexicon dialect_endings: 가유, 거여유, 맞지유) and 가유 as a word of its own."""
    assert _nt("이거 배터리 한 번 충전하면 얼마나 가유", registry).text.endswith("얼마나 가요")
    assert _nt("애기 방에 둬도 괜찮은 거여유", registry).text.endswith("거예요")
