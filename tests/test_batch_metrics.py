"""Batch metrics on core.jsonl as a regression guard (tuned set; the holdout is reported, not asserted)."""

import json
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from dataflow.workbench.batch import actions_match, run_batch, score
from registry.record_contracts import DecisionRecord

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def core_run(runner, tmp_path_factory):
    out = tmp_path_factory.mktemp("core")
    return run_batch(runner, ROOT / "data/utterances/core.jsonl", out), out


def test_core_set_regression_guard(core_run):
    metrics, _ = core_run
    assert metrics["rows"] >= 300 and metrics["errors"] == 0
    assert metrics["family_accuracy"] >= 0.95
    assert metrics["action_exact_match"] >= 0.92
    assert metrics["slot_accuracy"] >= 0.9


def test_batch_writes_all_outputs(core_run):
    metrics, out = core_run
    lines = (out / "decisions.jsonl").read_text(encoding="utf-8").splitlines()
    assert len(lines) == metrics["rows"]
    DecisionRecord.model_validate_json(lines[0])
    assert pq.read_table(out / "decisions.parquet").num_rows == metrics["rows"]
    saved = json.loads((out / "metrics.json").read_text())
    assert set(saved["confusion_matrix"]) <= {"ODL", "SCH", "FRG", "DQR", "DEF", "UNS", "STT_NULL"}
    assert saved["latency_ms"]["p95"] > 0


def test_action_matching_compares_only_listed_arguments():
    got = [{"capability_id": "move_to_room", "operation_id": "start", "arguments": {"room_name": "거실"}, "conditional": False}]
    assert actions_match([{"capability_id": "move_to_room", "operation_id": "start"}], got)
    assert not actions_match([{"capability_id": "move_to_room", "operation_id": "start", "arguments": {"room_name": "안방"}}], got)
    assert not actions_match([{"capability_id": "move_to_room", "operation_id": "start", "conditional": True}], got)


def test_score_counts_per_family_precision_recall():
    rows = [{"id": "a", "expect": {"family": "ODL"}}, {"id": "b", "expect": {"family": "DEF"}}]
    recs = [DecisionRecord(id="a", text="", trace_id="t", family="ODL"), DecisionRecord(id="b", text="", trace_id="t", family="ODL")]
    m = score(rows, recs)
    assert m["family_accuracy"] == 0.5
    assert m["per_family"]["ODL"]["precision"] == 0.5 and m["per_family"]["ODL"]["recall"] == 1.0
    assert m["confusion_matrix"]["DEF"] == {"ODL": 1}


def test_a_product_question_that_plans_a_device_step_is_a_false_action(runner, tmp_path):
    """A question row (data/questions format) has no expect; it still asks for no act, so a step on it counts."""
    path = tmp_path / "questions.jsonl"
    rows = [{"id": "q1", "question": "안방 가서 청정해", "expected_source_ids": [], "answerability": "insufficient"},
            {"id": "q2", "question": "필터는 얼마나 자주 갈아?", "expected_source_ids": ["x"], "answerability": "sufficient"}]
    path.write_text("\n".join(json.dumps(r, ensure_ascii=False) for r in rows) + "\n", encoding="utf-8")
    metrics = run_batch(runner, path, tmp_path / "run")
    assert metrics["false_actions"] == 1 and [r["id"] for r in metrics["false_action_rows"]] == ["q1"]
