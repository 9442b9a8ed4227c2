"""`a2a index build|calibrate|info`, `a2a ask` and `a2a batch --answer` through the CLI."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from dataflow.cli.main import app
from tests._knowledge import copy_corpus

ROOT = Path(__file__).resolve().parents[1]
ENV = {"COLUMNS": "200", "NO_COLOR": "1", "A2A_KNOWLEDGE_DB": ""}


def test_index_build_prints_a_summary_and_rebuilds_incrementally(tmp_path):
    corpus, db = copy_corpus(tmp_path / "manual"), tmp_path / "k.duckdb"
    first = CliRunner().invoke(app, ["index", "build", "--corpus", str(corpus), "--db", str(db)], env=ENV)
    assert first.exit_code == 0, first.output
    assert "chunks" in first.output and "91" in first.output and "relations" in first.output and "2 added" in first.output
    again = CliRunner().invoke(app, ["index", "build", "--corpus", str(corpus), "--db", str(db)], env=ENV)
    assert again.exit_code == 0 and "2 unchanged" in again.output
    info = CliRunner().invoke(app, ["index", "info", "--db", str(db)], env=ENV)
    assert info.exit_code == 0 and '"index_version"' in info.output


def test_index_build_reports_a_broken_corpus_without_a_traceback(tmp_path):
    bad = tmp_path / "manual"
    bad.mkdir()
    (bad / "m.md").write_text("# no front matter\n", encoding="utf-8")
    result = CliRunner().invoke(app, ["index", "build", "--corpus", str(bad), "--db", str(tmp_path / "k.duckdb")], env=ENV)
    assert result.exit_code == 2 and "m.md" in result.output and "front matter" in result.output
    assert "Traceback" not in result.output


def test_ask_json_carries_the_answer(knowledge_db):
    result = CliRunner().invoke(app, ["ask", "프라이버시 모드에서 바이탈사인 쓸 수 있어?", "--json", "--db", str(knowledge_db),
                                      "--as-of", "2026-11-30"], env=ENV)
    assert result.exit_code == 0, result.output
    record = json.loads(result.stdout)
    answer = record["answer"]
    assert record["family"] == "DQR" and answer["answerability"] == "sufficient"
    assert {(r["from"], r["type"], r["to"]) for r in answer["projection"]["relations"]} == {
        ("privacy_mode", "restricts", "camera"), ("vital_signs", "requires", "camera")}
    assert {"R6-V5-S024", "R6-V5-S018"} <= {e["source_id"] for e in answer["evidence"]}


def test_ask_shows_projection_evidence_and_answer(knowledge_db):
    result = CliRunner().invoke(app, ["ask", "한 달 전기 요금 얼마 나와?", "--db", str(knowledge_db)], env=ENV)
    assert result.exit_code == 0 and "insufficient" in result.output and "projection" in result.output
    other = CliRunner().invoke(app, ["ask", "거실로 가서 청정해줘", "--db", str(knowledge_db)], env=ENV)
    assert other.exit_code == 0 and "ODL" in other.output and "retrieval did not run" in other.output


def test_ask_bad_input(knowledge_db, tmp_path):
    missing = CliRunner().invoke(app, ["ask", "필터 교체 주기 알려줘", "--db", str(tmp_path / "none.duckdb")], env=ENV)
    assert missing.exit_code == 2 and "a2a index build" in missing.output
    empty = CliRunner().invoke(app, ["ask", "  ", "--db", str(knowledge_db)], env=ENV)
    assert empty.exit_code == 2 and "empty" in empty.output
    date = CliRunner().invoke(app, ["ask", "필터", "--db", str(knowledge_db), "--as-of", "soon"], env=ENV)
    assert date.exit_code == 2 and "ISO date" in date.output


def test_batch_answer_fills_dqr_records_and_reports_retrieval_metrics(knowledge_db, tmp_path):
    questions = [json.loads(line) for line in (ROOT / "data/questions/dqr.jsonl").read_text(encoding="utf-8").splitlines()]
    subset = tmp_path / "q.jsonl"
    subset.write_text("\n".join(json.dumps(q, ensure_ascii=False) for q in questions[::12]) + "\n", encoding="utf-8")
    out = tmp_path / "run"
    result = CliRunner().invoke(app, ["batch", str(subset), "--answer", "--db", str(knowledge_db), "--out", str(out)], env=ENV)
    assert result.exit_code == 0, result.output
    assert "recall@5" in result.output and "answerability_accuracy" in result.output
    metrics = json.loads((out / "metrics.json").read_text(encoding="utf-8"))
    assert metrics["knowledge"]["questions"] == len(questions[::12])
    records = [json.loads(line) for line in (out / "decisions.jsonl").read_text(encoding="utf-8").splitlines()]
    assert records and all((r["answer"] is not None) == (r["family"] == "DQR") for r in records)
    no_answers = CliRunner().invoke(app, ["batch", str(subset), "--out", str(tmp_path / "plain")], env=ENV)
    assert no_answers.exit_code == 0
    plain = [json.loads(line) for line in (tmp_path / "plain" / "decisions.jsonl").read_text(encoding="utf-8").splitlines()]
    assert all(r["answer"] is None for r in plain)


def test_calibrate_fits_on_half_and_reports_the_held_out_half(knowledge_db, tmp_path):
    questions = [json.loads(line) for line in (ROOT / "data/questions/dqr.jsonl").read_text(encoding="utf-8").splitlines()]
    subset = tmp_path / "q.jsonl"
    subset.write_text("\n".join(json.dumps(q, ensure_ascii=False) for q in questions[::5]) + "\n", encoding="utf-8")
    result = CliRunner().invoke(app, ["index", "calibrate", "--set", str(subset), "--db", str(knowledge_db), "--out", str(tmp_path)], env=ENV)
    assert result.exit_code == 0, result.output
    fitted = json.loads((tmp_path / "calibration.json").read_text(encoding="utf-8"))
    assert set(fitted["weights"]) == {"focus_coverage", "evidence_coverage", "top_bm25_ratio", "dense_top", "graph_support",
                                      "top_focus_share", "focus_breadth"}
    assert fitted["weights"]["focus_coverage"] > 0  # knowing the question's words makes an answer likelier
    assert set(fitted["fitted_on"]["metrics"]) == {"train", "heldout"}


def test_calibrate_can_keep_the_fusion_and_refit_answerability_only(knowledge_db, tmp_path):
    from rag.store import load_calibration
    questions = [json.loads(line) for line in (ROOT / "data/questions/dqr.jsonl").read_text(encoding="utf-8").splitlines()]
    subset = tmp_path / "q.jsonl"
    subset.write_text("\n".join(json.dumps(q, ensure_ascii=False) for q in questions[::5]) + "\n", encoding="utf-8")
    result = CliRunner().invoke(app, ["index", "calibrate", "--set", str(subset), "--db", str(knowledge_db), "--out", str(tmp_path),
                                      "--keep-fusion"], env=ENV)
    assert result.exit_code == 0, result.output
    fitted = json.loads((tmp_path / "calibration.json").read_text(encoding="utf-8"))
    assert fitted["fusion"] == load_calibration().fusion and fitted["fitted_on"]["fusion_grid"] == [load_calibration().fusion]


def test_calibrate_fits_several_sets_together_and_refuses_a_holdout(knowledge_db, tmp_path):
    lines = (ROOT / "data/questions/dqr.jsonl").read_text(encoding="utf-8").splitlines()
    first, second = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    first.write_text("\n".join(lines[0::6]) + "\n", encoding="utf-8")
    second.write_text("\n".join(lines[1::6]) + "\n", encoding="utf-8")
    result = CliRunner().invoke(app, ["index", "calibrate", "--set", str(first), "--set", str(second), "--db", str(knowledge_db),
                                      "--out", str(tmp_path)], env=ENV)
    assert result.exit_code == 0, result.output
    assert json.loads((tmp_path / "calibration.json").read_text(encoding="utf-8"))["fitted_on"]["questions"] == len(lines[0::6]) + len(lines[1::6])
    held = tmp_path / "dqr_holdout_x.jsonl"
    held.write_text(first.read_text(encoding="utf-8"), encoding="utf-8")
    refused = CliRunner().invoke(app, ["index", "calibrate", "--set", str(held), "--db", str(knowledge_db), "--out", str(tmp_path / "no")],
                                 env=ENV)
    assert refused.exit_code != 0 and "never fitted on" in refused.output and not (tmp_path / "no").exists()
    twice = CliRunner().invoke(app, ["index", "calibrate", "--set", str(first), "--set", str(first), "--db", str(knowledge_db),
                                     "--out", str(tmp_path / "no")], env=ENV)
    assert twice.exit_code != 0 and "appears twice" in twice.output
    one_kind = tmp_path / "one.jsonl"
    one_kind.write_text("\n".join([x for x in lines if '"sufficient"' in x][:12]) + "\n", encoding="utf-8")
    refused = CliRunner().invoke(app, ["index", "calibrate", "--set", str(one_kind), "--db", str(knowledge_db), "--out", str(tmp_path / "no")],
                                 env=ENV)
    assert refused.exit_code != 0 and "of one kind only" in refused.output and isinstance(refused.exception, SystemExit)


def test_end_to_end_metrics_count_what_the_real_route_answered():
    """A question that never reaches DQR is unanswered, whatever retrieval could have found."""
    from dataflow.workbench.knowledge_eval import end_to_end_metrics
    from registry.knowledge_contracts import KnowledgeAnswer
    from registry.record_contracts import DecisionRecord

    rows = [
        {"id": "a", "question": "소음 몇 데시벨이야", "expected_source_ids": ["S1"], "answerability": "sufficient",
         "answer_contains_any": ["22 dB"]},
        {"id": "b", "question": "가격 얼마야", "expected_source_ids": [], "answerability": "insufficient", "answer_contains_any": []},
        {"id": "c", "question": "필터 언제 갈아", "expected_source_ids": ["S2"], "answerability": "sufficient",
         "answer_contains_any": ["12개월"]},
    ]
    records = [
        DecisionRecord(id="a", text="", trace_id="t", family="DQR",
                       answer=KnowledgeAnswer(text="나이트 모드에서 22dB예요 [S1]", answerability="sufficient")),
        DecisionRecord(id="b", text="", trace_id="t", family="DQR",
                       answer=KnowledgeAnswer(text="설명서에 없어요", answerability="insufficient")),
        DecisionRecord(id="c", text="", trace_id="t", family="ODL",
                       answer=KnowledgeAnswer(text="12개월마다 바꿔요", answerability="sufficient")),
    ]
    m = end_to_end_metrics(rows, records)
    assert m["reach_dqr"] == round(2 / 3, 4)
    assert m["answer_accuracy"] == 0.5            # c's fact is in an answer the user never hears
    assert m["answerability_accuracy"] == round(2 / 3, 4)
    assert m["not_reaching_dqr"] == ["c"] and m["wrong_answers"] == ["c"]


def test_a_quantity_question_prefers_the_sentence_that_states_a_number():
    from rag.retrieve import _best_for_query

    sentences = [("필터는 소모품입니다.", ["필터", "소모품"]), ("필터는 12개월마다 교체하세요.", ["필터", "개월", "교체"])]
    weights, idf = {"필터": 1.0}, {"필터": 1.0}
    assert _best_for_query(sentences, weights, idf, quantity=False) == "필터는 소모품입니다."
    assert _best_for_query(sentences, weights, idf, quantity=True) == "필터는 12개월마다 교체하세요."


def test_within_a_section_the_word_few_sentences_hold_picks_the_sentence():
    """터보로 하면 배터리 빨리 닳아?: 터보 is in two of the section's three sentences, 배터리 in one; the sentence holding
    the word the question adds answers it, though 터보 weighs more in the whole manual."""
    from rag.retrieve import _best_for_query

    sentences = [("풍량을 터보로 바꿀 수 있습니다.", ["풍량", "터보"]),
                 ("풍량을 세게 하면 배터리가 빨리 닳습니다.", ["풍량", "배터리", "닳"]),
                 ("터보는 풍량의 최고 단계입니다.", ["터보", "풍량"])]
    weights, idf = {"터보": 1.0, "배터리": 1.0}, {"터보": 1.0, "배터리": 0.8}
    assert _best_for_query(sentences, weights, idf) == "풍량을 세게 하면 배터리가 빨리 닳습니다."


def test_a_second_sentence_that_matches_as_well_is_read_out_after_the_best():
    from rag.retrieve import _with_companion
    from registry.knowledge_contracts import Evidence

    sentences = [("예약은 앱에서 합니다.", ["예약", "앱"]), ("예약은 고정청정만 됩니다.", ["예약", "고정청정"]),
                 ("로봇은 가볍습니다.", ["로봇", "가볍"])]
    idf = {"예약": 2.0, "앱": 1.0, "고정청정": 1.0}
    first = Evidence(source_id="S", location="1.1", claim="예약은 고정청정만 됩니다.")
    both = _with_companion(first, sentences, {"예약": 1.0, "고정청정": 0.3, "앱": 0.3}, idf)
    assert both.claim == "예약은 고정청정만 됩니다. 예약은 앱에서 합니다."  # the best first, then its match
    alone = _with_companion(first, sentences, {"고정청정": 1.0}, idf)
    assert alone.claim == first.claim  # the others share no word of the question
    assert _with_companion(first.model_copy(update={"claim": "다른 문장."}), sentences, {"예약": 1.0}, idf).claim == "다른 문장."
