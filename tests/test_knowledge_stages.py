"""Path B in the DAG: gating on DQR, the grounded answer, versions, conflicts, missing index, bad input."""

from __future__ import annotations

import json
import time
from datetime import date
from pathlib import Path

import pytest

from dataflow.rows import read_set, turn_from_row
from dataflow.driver import TurnRunner, shared_kiwi
from dataflow.knowledge import DEFAULT_GRAPH, build_knowledge_index
from dataflow.workbench.knowledge_eval import knowledge_metrics, read_questions
from rag.store import KnowledgeStore, load_templates
from registry import load_registry
from registry.contracts import NormalizedText, TurnInput
from registry.knowledge_contracts import KnowledgeAnswer
from registry.record_contracts import DecisionRecord
from registry.knowledge_contracts import KgProjection, KnowledgeNotRun
from stages._dqr_compose import fill, relation_verdict
from stages.knowledge import QUERY_MAX_CHARS, dqr_answer, kg_projection, knowledge_query, retrieval
from tests._knowledge import TODAY, copy_corpus

ROOT = Path(__file__).resolve().parents[1]
T = load_templates()["answers"]


def _head(template: str) -> str:
    """The fixed wording a template starts with (before its first slot)."""
    return template.split("{", 1)[0]


def test_nodes_return_not_run_at_once_when_dqr_does_not_own_the_turn(knowledge_store, registry):
    nt = NormalizedText(original="x", text="x", compact="x", morphemes=[])
    started = time.perf_counter()
    query = knowledge_query(False, nt, knowledge_store, TODAY, shared_kiwi(), registry, "t" * 32)
    proj = kg_projection(query, knowledge_store)
    found = retrieval(query, proj, knowledge_store)
    answer = dqr_answer(query, proj, found, knowledge_store, registry)
    assert (time.perf_counter() - started) < 0.05
    assert all(isinstance(v, KnowledgeNotRun) and v.reason == "not_dqr" for v in (query, proj, found, answer))


def _route_view(record: DecisionRecord) -> dict:
    return record.model_dump(exclude={"usage", "answer"})


def test_retrieval_never_changes_the_route(answering_runner):
    plain = TurnRunner()
    rows = [row for _, row, _ in read_set(ROOT / "data/utterances/core.jsonl") if row][:120]
    rows += [{"id": q["id"], "text": q["question"]} for q in read_questions(ROOT / "data/questions/dqr.jsonl")[::4]]
    for n, row in enumerate(rows):
        trace = f"{n:032d}"  # ids derived from the trace (goal ids) must match too
        with_answers = answering_runner.route(turn_from_row(row), trace_id=trace)
        without = plain.route(turn_from_row(row), trace_id=trace)
        assert _route_view(with_answers) == _route_view(without), row["text"]
        assert (with_answers.answer is not None) == (with_answers.family == "DQR"), row["text"]


def test_done_when_privacy_mode_blocks_vital_signs(answering_runner):
    rec = answering_runner.route_text("프라이버시 모드에서 바이탈사인 쓸 수 있어?")
    assert rec.family == "DQR"
    answer = rec.answer
    assert answer.answerability == "sufficient"
    assert answer.text.startswith(_head(T["blocked"]))
    relations = {(r.from_, r.type, r.to) for r in answer.projection.relations}
    assert relations == {("privacy_mode", "restricts", "camera"), ("vital_signs", "requires", "camera")}
    cited = {(e.source_id, e.location) for e in answer.evidence}
    assert {("R6-V5-S024", "5.3 프라이버시 모드"), ("R6-V5-S018", "4.1 바이탈사인 측정")} <= cited
    assert "R6-V5-S024" in answer.text and "R6-V5-S018" in answer.text
    record = json.loads(rec.model_dump_json())
    assert {"from": "privacy_mode", "type": "restricts", "to": "camera"}.items() <= record["answer"]["projection"]["relations"][0].items()


def test_a_compound_the_index_holds_only_as_parts_is_searched_as_them(knowledge_store):
    """Kiwi reads 초미세먼지 whole in a short question and as 미세 + 먼지 in the manual."""
    from rag.retrieve import split_compounds
    from registry.knowledge_contracts import KnowledgeQuery

    vocabulary = frozenset({"미세", "먼지", "등급"})
    query = KnowledgeQuery(query_id="q", text="초미세먼지 30이면 무슨 등급이야?", as_of=TODAY, terms=["초미세먼지", "30", "등급"],
                           focus_terms=["초미세먼지", "등급"], possibility_question=False, links=[])
    split = split_compounds(query, vocabulary)
    assert split.focus_terms == ["미세", "먼지", "등급"] and split.terms == ["미세", "먼지", "30", "등급"]
    unknown = query.model_copy(update={"terms": ["스테이숀"], "focus_terms": ["스테이숀"]})
    assert split_compounds(unknown, vocabulary) == unknown  # no split into index terms: left as it is


def test_synonyms_bridge_everyday_words_to_the_manual(answering_runner):
    rec = answering_runner.route_text("심장 박동 재 달라고 하려면 뭐라고 말하면 되니?")
    assert rec.family == "DQR" and rec.answer.answerability == "sufficient"
    assert any(e.source_id == "R6-V5-S018" for e in rec.answer.evidence)


@pytest.mark.parametrize("text, fact", [
    ("모기약 뿌리는 중인데 켜 놔도 돼?", "살충제"),      # the everyday name of what the manual calls 스프레이형 살충제
    ("숯 필터는 물로 씻어도 되나", "물로 씻을 수 없습니다"),  # 숯 is the manual's 활성탄
    ("냥이가 요 위에 자꾸 앉는데 그냥 둬도 되나?", "반려동물이 로봇 위에 올라타지 않도록"),  # 냥이 is a 반려동물
    ("거실이 15평 정도인데 이거 하나로 감당돼요?", "60 ㎡"),  # what it copes with is its 적용 면적
])
def test_everyday_names_of_things_the_manual_names_find_its_sentence(answering_runner, text, fact):
    rec = answering_runner.route_text(text)
    assert rec.family == "DQR" and rec.answer.answerability == "sufficient", text
    assert fact in rec.answer.text.split("참고하세요")[0], (text, rec.answer.text)


@pytest.mark.parametrize("text, fact", [
    ("프리필터는 며칠 간격으로 씻어 주면 되나요?", "2주"),  # 며칠 간격 asks an interval (speech_acts quantity_kinds)
    ("PM2.5 good 기준이 몇 마이크로그램 이하예요", "15 ㎍/㎥"),  # 마이크로 asks a concentration
    ("나이트 모드 켜 놨더니 화면이 너무 어두운데 밝기 올리는 방법 좀", "밝기"),  # how, the telling verb left unsaid
])
def test_a_quantity_or_a_method_asked_in_everyday_words_is_answered(answering_runner, text, fact):
    rec = answering_runner.route_text(text)
    assert rec.family == "DQR" and rec.answer.answerability == "sufficient", (text, rec.family)
    assert fact in rec.answer.text.split("참고하세요")[0], (text, rec.answer.text)


def test_a_day_given_as_the_reason_is_no_question_about_the_robots_persona(answering_runner):
    rec = answering_runner.route_text("생일이라 거실에 촛불 켜 놨는데 그 옆에서 로봇 돌려도 괜찮아?")
    assert rec.family == "DQR" and "has_persona_question" not in rec.evidence.axes


def test_done_when_electricity_bill_is_insufficient(answering_runner):
    rec = answering_runner.route_text("한 달 전기 요금 얼마 나와?")
    assert rec.family == "DQR"
    assert rec.answer.answerability == "insufficient"
    assert rec.answer.text.startswith(T["insufficient"]) and rec.answer.evidence == []


@pytest.mark.parametrize("text, verdict, condition, feature", [
    ("나이트 모드에서 풍량 터보 돼?", "limited", "night_mode", "fan_speed"),
    ("프라이버시 모드 켜도 공기청정은 계속 돼?", "allowed", "privacy_mode", "selected_room_clean"),
    ("프라이버시모드 켜놓고 사진 찍을 수 있어요?", "blocked", "privacy_mode", "take_photo"),
])
def test_relation_verdicts_come_from_the_projection(answering_runner, text, verdict, condition, feature):
    store = answering_runner.knowledge
    result = answering_runner.driver.execute(
        ["knowledge_query", "kg_projection", "dqr_answer"],
        inputs={"turn_input": TurnInput(recognized_text=text), "kiwi": answering_runner.kiwi, "registry": answering_runner.registry,
                "trace_id": "0" * 32, **store.turn_inputs()},
        overrides={"dqr_owns_turn": True},
    )
    types = {link.entity_id: link.type for link in result["knowledge_query"].links}
    found = relation_verdict(result["kg_projection"], types)
    assert (found.verdict, found.condition, found.feature) == (verdict, condition, feature)
    assert result["dqr_answer"].text.startswith(_head(T[verdict]))


def test_newer_version_wins_and_the_older_value_is_noted(answering_runner):
    answer = answering_runner.route_text("헤파 필터 9개월마다 바꾸는 거 맞죠?").answer
    assert answer.answerability == "sufficient" and answer.evidence[0].source_id == "R6-V5-S040"
    assert "12개월" in answer.evidence[0].claim and "version_superseded" in answer.notices
    assert "R6-V4-S023" in answer.text


def test_question_time_before_v5_answers_from_v4(knowledge_db):
    store = KnowledgeStore.open(knowledge_db, clock=lambda: date(2025, 6, 1))
    answer = TurnRunner(knowledge=store).route_text("헤파 필터 교체 주기 알려줘").answer
    assert answer.evidence[0].source_id in ("R6-V4-S023", "R6-V4-S027") and "9개월" in answer.evidence[0].claim
    assert all(e.source_id.startswith("R6-V4") for e in answer.evidence)
    assert all(ref.startswith("R6-V4") for r in answer.projection.relations for ref in r.source_refs)


def test_two_current_documents_that_disagree_make_a_conflicting_answer(tmp_path):
    corpus = copy_corpus(tmp_path / "manual")
    (corpus / "quick_guide.md").write_text(
        "---\ndoc_id: r6_quick_guide\nversion: v1\nvalid_at: 2026-06-01\ntitle: R6 빠른 안내\n---\n\n# 1. 관리\n\n"
        "## [R6-QG-S001] 1.1 HEPA H13 필터 교체\n\nHEPA H13 필터는 6개월마다 교체하세요.\n", encoding="utf-8")
    db = tmp_path / "k.duckdb"
    build_knowledge_index(db, shared_kiwi(), load_registry(), corpus, DEFAULT_GRAPH)
    store = KnowledgeStore.open(db, clock=lambda: TODAY)
    answer = TurnRunner(knowledge=store).route_text("헤파 필터 교체 주기 알려줘").answer
    assert answer.answerability == "conflicting" and "sources_conflict" in answer.notices
    # the newest valid source (the quick guide, 2026-06-01) is named first and preferred
    conflict = answer.text[answer.text.index(_head(T["conflicting"])):]
    assert conflict.index("R6-QG-S001") < conflict.index("R6-V5-S040")
    assert "6개월" in conflict and "12개월" in conflict
    store.close()


def test_missing_index_still_routes_and_says_how_to_build_it(tmp_path):
    store = KnowledgeStore.open(tmp_path / "absent.duckdb")
    runner = TurnRunner(knowledge=store)
    dqr = runner.route_text("필터 교체 주기를 알려줘")
    assert dqr.family == "DQR" and dqr.answer.answerability == "insufficient"
    assert "a2a index build --db" in dqr.answer.text and dqr.answer.notices == ["index_missing"]
    odl = runner.route_text("거실로 가서 청정해줘")
    assert odl.family == "ODL" and odl.answer is None


def test_huge_and_hostile_questions(answering_runner):
    long = "헤파 필터 교체 주기 알려줘 " + "그리고 " * 300
    answer = answering_runner.route_text(long).answer
    assert answer is not None and "question_truncated" in answer.notices
    assert answer.text.startswith(_head(T["truncated"])) and str(QUERY_MAX_CHARS) in answer.text
    hostile = answering_runner.route_text("필터 교체 주기'); DROP TABLE chunks; -- 알려줘")
    assert hostile.family == "DQR" and isinstance(hostile.answer, KnowledgeAnswer)
    assert answering_runner.route_text("필터 교체 주기를 알려줘").answer.evidence  # the index is intact
    assert answering_runner.route_text("   ").answer is None  # nothing to ask: no DQR turn, no answer


def test_a_dqr_turn_with_nothing_to_search_gets_a_repair(knowledge_store, registry):
    nt = NormalizedText(original="?!", text="", compact="", morphemes=[], rejected_reason="no_usable_text")
    query = knowledge_query(True, nt, knowledge_store, TODAY, shared_kiwi(), registry, "t" * 32)
    assert isinstance(query, KnowledgeNotRun) and query.reason == "empty_question"
    answer = dqr_answer(query, kg_projection(query, knowledge_store), retrieval(query, query, knowledge_store), knowledge_store, registry)
    assert answer.text == T["empty_question"] and answer.notices == ["question_empty"] and answer.evidence == []


def test_particles_follow_the_final_consonant():
    assert fill("{a|이/가} {b|을/를} {c|으로/로} {d|으로/로} {e|은/는}",
                {"a": "카메라", "b": "바이탈사인 측정", "c": "12개월", "d": "2주", "e": "E2"},
                frozenset({"으로/로"})) == "카메라가 바이탈사인 측정을 12개월로 2주로 E2는"
    assert fill("{a|은/는}", {"a": "E6"}) == "E6은"  # read 이육: a final consonant
    assert fill("{a|이/가}", {"a": "풍량"}) == "풍량이"
    assert fill("{a|으로/로}", {"a": "3단"}, frozenset({"으로/로"})) == "3단으로"


@pytest.mark.parametrize("question,first", [
    ("나이트 모드 켜면 뭐가 달라져?", "최대 2단으로 제한되고"),
    ("프리필터 덜 말려서 끼우면 어떻게 돼?", "냄새나 곰팡이"),
    ("나이트 모드는 뭐 하는 거야?", "잠자는 시간을 위한 모드"),  # no condition: the definition answers
])
def test_what_happens_under_a_condition_is_answered_by_the_sentence_that_states_it(answering_runner, question, first):
    """뭐가 달라져 / ...면 어떻게 돼 (speech_acts answer_shapes consequence) asks what follows from a condition: the
    section's conditional sentence answers, not its first one or the words to say."""
    text = answering_runner.route_text(question).answer.text
    assert first in text.split("도 참고하세요")[0], text


def test_a_verdict_also_reads_out_the_manuals_own_sentence(answering_runner):
    """The verdict's reasons are graph claims (프라이버시 모드를 켜면 카메라가 꺼집니다); the section the search found
    first is read out too, so the manual's own words (... 사용할 수 없습니다) are in the answer, without a sentence a
    reason already says (사생활 보호 모드 in parentheses or not)."""
    rec = answering_runner.route_text("프라이버시 모드 켜 놨는데 심박 잴 수 있어?")
    assert rec.family == "DQR" and rec.answer.text.startswith(_head(T["blocked"]))
    assert "사용할 수 없습니다" in rec.answer.text, rec.answer.text
    rec = answering_runner.route_text("프라이버시 모드 켜 둔 채로 심박 재 달라고 하면 어떻게 돼")
    assert rec.answer.text.startswith(_head(T["blocked"])) and "R6-V5-S024)도 참고하세요" in rec.answer.text
    assert rec.answer.text.count("카메라가 꺼집니다") == 1, rec.answer.text


def test_relation_verdict_needs_a_mode_and_a_connecting_path():
    empty = KgProjection(entities=[], relations=[], source_refs=[], seeds=["battery", "move_to_room"])
    assert relation_verdict(empty, {"battery": "part", "move_to_room": "capability"}) is None


def test_question_set_meets_the_retrieval_targets(answering_runner):
    rows = read_questions(ROOT / "data/questions/dqr.jsonl")
    metrics = knowledge_metrics(answering_runner, rows)
    assert metrics["recall@5"] >= 0.95 and metrics["answerability_accuracy"] >= 0.95
    assert metrics["by_split"]["heldout"]["answerability_accuracy"] >= 0.9
    assert metrics["mrr"] >= 0.85


def test_what_the_robot_can_do_is_answered_from_the_capability_registry(answering_runner, registry):
    record = answering_runner.route_text("너 뭐 할 수 있어?")
    assert record.family == "DQR" and record.answer is not None
    assert "capability_registry" in record.answer.notices and record.answer.answerability == "sufficient"
    listed = [c.description for c in registry.capabilities.capabilities if not c.internal and c.kind != "state_query"]
    assert all(d in record.answer.text for d in listed)
    other = answering_runner.route_text("필터 교체 주기 알려줘").answer
    assert other is not None and "capability_registry" not in other.notices


@pytest.mark.parametrize("text, fact, source", [
    ("밤에 틀어 놓으면 소음 몇 데시벨이야", "22 dB", "R6-V5-S023"),  # 밤 is the manual's night mode, 데시벨 its dB
    ("스테이션을 못 찾는다고 떠 어떡해", "E3", "R6-V5-S048"),  # the symptom the display shows, not the code
    ("매너 모드면 알람도 안 울려?", "알람은 그대로 울립니다", "R6-V5-S025"),
    ("터치해도 화면이 반응을 안 해 왜 그래?", "어린이 보호 잠금", "R6-V5-S052"),  # 반응 is no word the manual must know
    ("등록 안 된 다용도실에도 보낼 수 있어?", "등록되지 않은 장소", "R6-V5-S008"),  # a place it has not registered
])
def test_the_issue_examples_answer_with_the_manuals_fact(answering_runner, text, fact, source):
    record = answering_runner.route_text(text)
    assert record.family == "DQR" and record.answer is not None and record.answer.answerability == "sufficient", text
    assert fact in record.answer.text and source in record.answer.text


@pytest.mark.parametrize("text, fact", [
    ("바이탈사인 측정은 보통 몇 분 걸려요?", "1분"),           # the sentence that states minutes, not the definition
    ("심박 재려면 로봇이랑 얼마나 떨어져 앉아야 돼?", "1 m"),   # a distance
    ("이거 밤에 틀어놓으면 시끄러워?", "22 dB"),                # 시끄러워 asks for the noise by itself
    ("약풍으로 계속 틀어 두면 배터리가 몇 시간쯤 가요?", "4시간"),  # 약풍 is the manual's 1단
    ("헤파 필터는 보통 얼마 만에 새 걸로 바꿔?", "12개월"),      # 걸 (것을) is no word the manual must know
    ("이동 속도가 어떻게 돼?", "0.3 m"),                         # a speed: the sentence stating metres per second
    ("밤에 켜놓고 자면 소리 얼마나 나?", "22 dB"),  # 소리 matches 매너 모드 best; the dB is stated further down
])
def test_a_quantity_question_is_answered_by_the_sentence_stating_its_unit(answering_runner, text, fact):
    record = answering_runner.route_text(text)
    assert record.family == "DQR" and record.answer.answerability == "sufficient", text
    first = record.answer.text.split("참고하세요")[0]
    assert fact in first, (text, record.answer.text)


@pytest.mark.parametrize("text, fact", [
    ("나이트 모드는 뭐라고 하면 켜져?", '"나이트 모드 켜 줘"'),     # words to say: the sentence that quotes them
    ("화면 밝기는 몇까지 올릴 수 있어?", "1부터 5까지"),           # a range; "화면 밝기 5로 해 줘" quotes a number, states none
    ("제자리 회전 시킬 때 조심할 점 있어?", "치워 주세요"),         # a caution: what to do, not what the feature is
    ("사진 찍자고 할 때 싫다고 하면 어떻게 돼?", "거부되면"),      # 싫다 is the manual's 거부 (synonyms)
    ("건강 측정은 어떻게 하면 정확하게 돼?", "앉아"),              # how to: what to do, not what the feature is
    ("거실 청정만 시키면 언제까지 돌아가?", "청정 꺼"),            # until when: the sentence saying until what
])
def test_the_kind_of_question_picks_the_sentence_of_that_kind(answering_runner, text, fact):
    record = answering_runner.route_text(text)
    assert record.family == "DQR" and record.answer.answerability == "sufficient", text
    assert fact in record.answer.text.split("참고하세요")[0], (text, record.answer.text)


@pytest.mark.parametrize("text, fact", [
    ("매너 모드랑 음소거 둘 다 켜 놓으면 어떻게 돼?", "매너 모드와 음소거를 함께 켜면"),  # the sentence naming both, together
    ("나이트 모드랑 프라이버시 모드 같이 켜면 어떻게 돼?", "2단"),                     # the section naming both modes
])
def test_two_modes_asked_together_are_answered_by_the_section_on_them_together(answering_runner, text, fact):
    """Each mode's own section tells only of itself; the one naming both answers first (rag.retrieve._together_first)."""
    record = answering_runner.route_text(text)
    assert record.family == "DQR" and record.answer.answerability == "sufficient", text
    first = record.answer.text.split("참고하세요")[0]
    assert fact in first and "R6-V5-S031" in first, (text, record.answer.text)


def test_states_units_needs_a_number_in_the_unit():
    from rag.retrieve import states_units
    assert states_units("측정 자체는 약 1분이 걸리며", ["분", "시간"])
    assert states_units("소음은 1단에서 22 dB입니다", ["dB"]) and states_units("약 1 m 거리에", ["m"])
    assert not states_units("약 1 ms 만에", ["m"]) and not states_units("바이탈사인 측정은 기능입니다", ["분"])
    assert not states_units("1분", [])


@pytest.mark.parametrize("text, answerability", [
    ("헤파 필터 하나에 얼마예요?", "insufficient"), ("교체용 헤파 필터는 어디서 팔아?", "insufficient"), ("헤파 필터 어디서 구해?", "insufficient"),
    ("어디서 살 수 있어요?", "insufficient"), ("서비스 센터는 어디에 있어요?", "insufficient"),
    ("화면 밝기 기본값이 얼마예요?", "sufficient"),  # a value the manual states is no price
    ("헤파 필터 값 얼마야?", "insufficient"), ("고객센터 연락처 알려 줘", "insufficient"),  # a price; a phone number
    # 얼마 with nothing before it but a clause, 거 or money, by a copula or a verb of paying: a price
    ("배터리만 따로 사서 교체하면 얼마야?", "insufficient"), ("그럼 그 헤파 필터 새 거는 얼마 주면 사?", "insufficient"),
    ("방문 서비스 있으면 돈은 얼마예요?", "insufficient"),
    ("보증 기간이 얼마야?", "sufficient"), ("기본 방 여섯 개면 스캐닝 청정은 청정 시간만 합쳐서 얼마예요?", "sufficient"),
])
def test_prices_and_shops_are_outside_the_manual(answering_runner, text, answerability):
    record = answering_runner.route_text(text)
    assert record.family == "DQR" and record.answer.answerability == answerability, (text, record.answer.text)
    if answerability == "insufficient":
        assert record.answer.evidence == [] and record.answer.text.startswith(_head(T["insufficient"]))


def test_a_level_the_manual_gives_no_number_for_is_insufficient_and_says_which_it_gives(answering_runner):
    record = answering_runner.route_text("2단으로 틀면 몇 데시벨이야?")
    answer = record.answer
    assert answer.answerability == "insufficient" and "condition_not_stated" in answer.notices
    assert "2단" in answer.text and "22 dB" in answer.text and "52 dB" in answer.text
    assert [e.source_id for e in answer.evidence] == ["R6-V5-S022"]  # the sentence it offers is cited
    turbo = answering_runner.route_text("터보로 하면 소음 몇 데시벨?").answer
    assert turbo.answerability == "sufficient" and "52 dB" in turbo.text


def test_a_level_is_looked_for_in_every_sentence_stating_the_quantity(answering_runner):
    """강으로 돌리면 배터리 몇 시간 가요?: the sentence picked first (완전 충전에는 약 3시간) names no level; the section's
    other sentence stating hours names 1단 and 터보, so 3단 is not stated. 몇 시간 가 is the battery's use time."""
    strong = answering_runner.route_text("강으로 돌리면 배터리 몇 시간 가요?").answer
    assert strong.answerability == "insufficient" and "condition_not_stated" in strong.notices, strong.text
    assert "R6-V5-S038" in strong.text
    turbo = answering_runner.route_text("터보로 하면 배터리 얼마나 가").answer
    assert turbo.answerability == "sufficient" and "90분" in turbo.text, turbo.text


def test_words_about_the_conversation_are_no_words_the_manual_must_know(answering_runner):
    """작년, 설명서, 엄마: who said it and when is not what is asked (kg synonyms generic_nouns)."""
    for text, fact in [("작년 설명서에는 HEPA 교체가 9개월이던데 바뀌었어요?", "12개월"),
                       ("엄마가 프리필터는 한 달에 한 번만 빨면 된다던데 맞아?", "2주")]:
        answer = answering_runner.route_text(text).answer
        assert answer.answerability == "sufficient" and fact in answer.text, (text, answer.text)


def test_native_number_words_state_a_unit(registry):
    from rag.retrieve import states_units
    numbers = registry.lexicon["numbers"]
    native = [*numbers["native_units"], *numbers["native_tens"]]  # the lexicon's native numbers, as a query carries them
    assert states_units("먼지 센서 창은 한 달에 한 번 마른 면봉으로", ["달"], native) and states_units("두 시간", ["시간"], native)
    assert not states_units("세척하세요", ["주"], native)


@pytest.mark.parametrize("text, fact", [
    ("헤파 필터 물로 빨아서 다시 써도 되나요?", "씻거나 청소기로 빨아들이지 마세요"),  # the sentence that forbids it
    ("탈취 필터는 씻어서 다시 써도 돼?", "씻을 수 없습니다"),
    ("헤파 필터 9개월 썼는데 아직 안 갈아도 돼?", "12개월"),   # a quantity it states itself asks for its unit
])
def test_a_permission_question_is_answered_by_the_sentence_that_allows_or_forbids(answering_runner, text, fact):
    answer = answering_runner.route_text(text).answer
    assert answer.answerability == "sufficient" and fact in answer.text.split("참고하세요")[0], (text, answer.text)


def test_an_older_value_is_noted_only_beside_the_newer_one(answering_runner):
    told = answering_runner.route_text("헤파 필터 교체 주기 알려줘").answer
    assert "version_superseded" in told.notices and "9개월" in told.text
    other = answering_runner.route_text("헤파 필터 물로 빨아서 다시 써도 되나요?").answer
    assert "version_superseded" not in other.notices and "9개월" not in other.text


@pytest.mark.parametrize("text, source", [
    ("바퀴가 헛돌면서 앞으로 안 나가", "R6-V5-S046"),      # the troubleshooting section first, not the parts list
    ("새로 사서 켜자마자 필터가 없다고 나와", "R6-V5-S049"),
])
def test_a_problem_is_answered_by_its_troubleshooting_section_with_what_to_do(answering_runner, text, source):
    answer = answering_runner.route_text(text).answer
    assert answer.answerability == "sufficient" and answer.evidence[0].source_id == source, (text, answer.text)
    first = answer.text.split("참고하세요")[0]
    assert "세요" in first or "시키면" in first, (text, answer.text)  # what the user should do, not only what it means


@pytest.mark.parametrize("text, fact", [
    ("방을 10개 등록해 놓으면 스캐닝 청정에서 청정하는 시간만 총 몇 분이야?", "30분"),
    ("방 네 개만 등록해 놨으면 집 전체 청정은 청정 시간만 얼마나 걸려?", "12분"),
])
def test_a_count_times_the_manuals_rate_per_item_is_computed_and_shown(answering_runner, text, fact):
    """공간마다 3분씩 and 10 rooms asked: 30분, said with the rate it comes from and the section cited."""
    answer = answering_runner.route_text(text).answer
    assert answer is not None and answer.text.startswith("공간마다 3분씩") and fact in answer.text.split(".")[0]
    assert "computed_from_rate" in answer.notices and "R6-V5-S016" in answer.text


def test_a_grade_threshold_question_is_answered_by_the_grade_table_not_by_how_to_ask(answering_runner):
    """좋음 is a grade's name (a focus word); the sentence quoting how to ask ("공기질 어때?") does not answer it."""
    answer = answering_runner.route_text("초미세먼지 몇까지가 좋음이에요?").answer
    assert answer is not None and "15" in answer.text.split("참고하세요")[0], answer.text


@pytest.mark.parametrize("text, remedies", [
    ("E4 뜨는데 어떻게 해야 돼?", ["딸깍", "비닐"]),           # every step the manual lists, in its order
    ("본체가 너무 뜨겁고 E6 떴어요", ["식혀", "서늘한"]),
])
def test_a_problem_is_answered_with_what_the_manual_says_to_do(answering_runner, text, remedies):
    record = answering_runner.route_text(text)
    assert record.family == "DQR" and record.answer.answerability == "sufficient", text
    first = record.answer.text.split("참고하세요")[0]
    assert all(r in first for r in remedies), (text, record.answer.text)
    assert [first.index(r) for r in remedies] == sorted(first.index(r) for r in remedies)


@pytest.mark.parametrize("text, fact", [
    ("배터리 싹 다 닳으믄 충전을 몇 시간이나 해야 된당가?", "3시간"),   # 전라: -믄 (-면), 된당가 (되나)
    ("필터는 은제 갈아야 되는 겨?", "12개월"),                             # 충청: 은제 (언제)
    ("이 기계 무거버서 어찌 드노, 몇 키로나 되능교?", "9.8"),           # 경상: 무거버서, 드노, 되능교 (되나요)
    ("우리 영감이 쓸 건데 이거 문지방은 몇 센치까지 넘어가요?", "1.5"),  # 문지방 is the manual's 문턱; 영감 a person, no topic
])
def test_regional_speech_is_read_as_the_standard_question(answering_runner, text, fact):
    """Regional endings and words are rewritten before analysis (lexicon dialect_endings, dialect_words), so their
    pieces are no unknown words that make the manual look silent."""
    record = answering_runner.route_text(text)
    assert record.family == "DQR" and record.answer.answerability == "sufficient", (text, record.answer.text)
    assert fact in record.answer.text, (text, record.answer.text)


def test_a_problem_is_answered_from_the_care_chapter_too(answering_runner):
    """공기질 수치가 이상해: the sensor window wants cleaning (8.4), which the care chapter says, not how to ask (6.1)."""
    record = answering_runner.route_text("공기질 수치가 이상하게 나오는데 왜 그래?")
    assert record.family == "DQR" and "먼지 센서" in record.answer.text.split("참고하세요")[0], record.answer.text


@pytest.mark.parametrize("text, band", [("초미세먼지가 80이면 어느 정도로 나쁜 거예요?", "80이면 매우 나쁨이에요"),
                                        ("초미세먼지 40.5면 무슨 등급이야?", "40.5면 나쁨이에요"),
                                        ("초미세먼지 30이면 보통이야 나쁨이야?", "30이면 보통이에요")])  # grades offered
def test_a_number_asked_about_is_placed_in_the_manuals_bands(answering_runner, text, band):
    """The grade table (좋음(15 이하), 보통(16~35) ...) is read out, and the band the stated number falls in is said
    first; 35.5 stays one number (a point between digits is not a full stop)."""
    answer = answering_runner.route_text(text).answer
    assert answer is not None and answer.text.startswith(band) and "computed_from_bands" in answer.notices, answer.text


def test_bands_are_read_from_a_listing_sentence(registry):
    from stages._dqr_compose import band_of
    bounds = registry.lexicon["dqr"]["band_bounds"]  # (its note is no bound word)
    claim = "등급은 PM2.5 기준으로 좋음(15 ㎍/㎥ 이하), 보통(16~35), 나쁨(36~75), 매우 나쁨(76 이상)입니다."
    assert band_of("15면?", [claim], bounds)["band"] == "좋음" and band_of("76이면?", [claim], bounds)["range"] == "76 이상"
    assert band_of("PM2.5가 뭐야?", [claim], bounds) is None and band_of("30이면?", ["풍량은 1단부터 4단까지입니다."], bounds) is None


def test_the_second_section_read_covers_what_the_first_left_out():
    """A question about two things: when the first section lacks one of its focus words and the second lacks it too, a
    later section that holds it is read second."""
    from rag.retrieve import _covering_second
    from registry.knowledge_contracts import Evidence
    ev = [Evidence(source_id=s, location=s, claim=s) for s in ("A", "B", "C")]
    sentences = {"A": [("헤파 필터", ["헤파", "필터"])], "B": [("필터 상태", ["필터", "상태"])], "C": [("탈취 필터", ["탈취", "필터"])]}
    assert [e.source_id for e in _covering_second(ev, sentences, ["헤파", "탈취"])] == ["A", "C", "B"]
    assert [e.source_id for e in _covering_second(ev, sentences, ["헤파", "필터"])] == ["A", "B", "C"]


def test_the_questions_own_words_pick_the_sentence_inside_a_section(answering_runner):
    """우리 고양이가 로봇 위에 올라타도 괜찮아?: the safety section is found through the graph's words (안전, 주의사항),
    but every sentence of it is about safety; the question's own words (로봇 위, 올라타) pick the sentence."""
    record = answering_runner.route_text("우리 고양이가 로봇 위에 올라타고 다녀도 괜찮아?")
    assert record.family == "DQR" and "올라타지 않도록" in record.answer.text.split("참고하세요")[0], record.answer.text


@pytest.mark.parametrize("text, fact", [
    ("방 몇 개까지 추가돼요?", "10개"),                          # a count (개) asked: the sentence stating it
    ("초미세먼지 수치가 몇 이하여야 좋음으로 떠?", "15 ㎍/㎥"),  # a concentration asked: the bands listing it
])
def test_a_count_or_a_concentration_asked_is_answered_by_the_sentence_stating_it(answering_runner, text, fact):
    """quantity_kinds count and concentration: the sentence with a number in the unit asked is read out first."""
    answer = answering_runner.route_text(text).answer
    assert answer is not None and fact in answer.text.split("참고하세요")[0], (text, answer.text)


def test_the_sentence_stating_the_asked_quantity_of_the_asked_property_answers(answering_runner):
    """소음 차이가 얼마나 나요?: the first evidence states noise (the focus) in dB (the unit asked), so the manual answers
    whatever the calibrated score; 본체 크기가 몇 센치예요? finds cm only for other properties and stays insufficient."""
    record = answering_runner.route_text("제일 약하게 틀었을 때랑 제일 세게 틀었을 때 소음 차이가 얼마나 나요?")
    assert record.answer.answerability == "sufficient" and "52 dB" in record.answer.text
    assert answering_runner.route_text("본체 크기가 가로 세로 몇 센치예요?").answer.answerability == "insufficient"


@pytest.mark.parametrize("text, fact", [
    ("팬 스피드 레벨이 몇 개나 돼요?", "4단계"),  # 팬 스피드 is the manual's 풍량, a 레벨 its 단계
    ("화면 밝기 디폴트 세팅이 몇이에요?", "처음 설정된 밝기는 3"),  # 디폴트 세팅: what is set at first
])
def test_english_words_of_the_manuals_terms_find_its_sentence(answering_runner, text, fact):
    rec = answering_runner.route_text(text)
    assert rec.family == "DQR" and rec.answer.answerability == "sufficient", text
    assert fact in rec.answer.text.split("참고하세요")[0], (text, rec.answer.text)


def test_a_word_read_as_several_terms_counts_once_when_a_sentence_is_chosen(answering_runner):
    """건강 측정 links the entity 바이탈사인 측정, whose name Kiwi reads as 바 + 이탈 + 사인: a sentence naming it must
    not count three expansion words for one, or the definition outranks the sentence holding the question's own 앉."""
    answer = answering_runner.route_text("건강 측정은 서서 해도 돼요 아니면 앉아서 해야 돼요?").answer
    assert answer is not None and "앉아 있어야" in answer.text.split("참고하세요")[0], answer.text


def test_word_shares_split_a_word_among_its_terms():
    from kg.linking import _word_shares
    analyse = {"바이탈사인 측정": ["바", "이탈", "사인", "측정"], "바이탈사인": ["바", "이탈", "사인"], "측정": ["측정"]}.__getitem__
    shares = _word_shares("바이탈사인 측정", analyse("바이탈사인 측정"), analyse)
    assert shares == {"바": 1 / 3, "이탈": 1 / 3, "사인": 1 / 3, "측정": 1.0}


def test_a_second_sentence_is_read_when_it_holds_a_question_word():
    """The companion sentence: the section's next best one, read when it shares a word of the question (물티슈 써도
    돼? -> ... 물이나 세제를 묻히지 마세요 after the sentence on the dirty window); one sharing none is not read."""
    from rag.retrieve import _with_companion
    from registry.knowledge_contracts import Evidence
    sentences = [("센서 창이 더러우면 E5가 표시됩니다.", ["센서", "창", "더럽", "표시"]),
                 ("물이나 세제를 묻히지 마세요.", ["물", "세제", "묻히"]),
                 ("센서 위치는 앞면입니다.", ["센서", "위치", "앞면"])]
    first = Evidence(source_id="S", location="8.4", claim=sentences[0][0])
    idf = {"센서": 2.0, "창": 2.0, "물": 1.5, "앞면": 1.0}
    read = _with_companion(first, sentences, {"센서": 1.0, "창": 1.0, "물": 1.0}, idf)
    assert read.claim == "센서 창이 더러우면 E5가 표시됩니다. 물이나 세제를 묻히지 마세요."
    assert _with_companion(first, sentences, {"창": 1.0}, idf).claim == first.claim


def test_the_answering_sections_second_best_sentence_is_read_too():
    """밤에 야간 모드 켜면 뭐가 달라져?: the best sentence of the section may be how to turn the mode on; its next best
    sentence, sharing fewer of the question's words, says what changes and is read out after it."""
    from rag.retrieve import _with_companion
    from registry.knowledge_contracts import Evidence
    sentences = [('"나이트 모드 켜 줘"라고 말하면 나이트 모드가 켜집니다.', ["나이트", "모드", "켜"]),
                 ("나이트 모드에서는 풍량이 2단으로 제한됩니다.", ["나이트", "모드", "풍량", "제한"]),
                 ("로봇은 가볍습니다.", ["로봇", "가볍"])]
    first = Evidence(source_id="S", location="5.2", claim=sentences[0][0])
    idf = {"나이트": 1.0, "모드": 1.0, "켜": 1.0, "달라지": 1.0}
    read = _with_companion(first, sentences, {"나이트": 1.0, "모드": 1.0, "켜": 1.0, "달라지": 1.0}, idf)
    assert read.claim == '"나이트 모드 켜 줘"라고 말하면 나이트 모드가 켜집니다. 나이트 모드에서는 풍량이 2단으로 제한됩니다.'



@pytest.mark.parametrize("text", ["물통에 물 채우면 가습 기능도 돼?", "방이 건조한데 제습이나 가습도 돼?"])
def test_the_top_section_must_hold_what_is_asked_of_the_thing_it_names(answering_runner, text):
    """The humidity section measures 습도; it never humidifies: the share of the question's focus terms the top section
    itself holds (top_focus_share, an answerability feature) keeps a function the manual never names unanswered."""
    answer = answering_runner.route_text(text).answer
    assert answer is not None and answer.answerability == "insufficient", answer
