"""The Experience block of batch metrics: admission precision and recall, false admissions, full pass."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from dataflow.workbench.batch import score

from dataflow.rows import decide_rows, read_set
from dataflow.cli.main import app

ROOT = Path(__file__).resolve().parents[1]
BOUNDARY = ROOT / "data/utterances/experience_boundary.jsonl"


@pytest.fixture(scope="module")
def boundary(runner):
    parsed = read_set(BOUNDARY)
    rows = [row for _, row, _ in parsed if row]
    return rows, decide_rows(runner, parsed)


def test_done_when_boundary_set_admission_is_exact(boundary):
    rows, records = boundary
    exp = score(rows, records)["experience"]
    assert exp["rows"] == len(rows) >= 60
    assert exp["admission"]["precision"] == 1.0 and exp["admission"]["recall"] == 1.0
    assert exp["false_admissions"] == [] and exp["missed_admissions"] == []
    assert exp["full_pass_rate"] == 1.0 and exp["full_pass_failures"] == []
    assert exp["admission"]["tp"] == sum(1 for r in rows if r["expect"].get("admitted"))


def test_the_block_counts_what_went_wrong(boundary):
    rows, records = boundary
    by_id = {r.id: r for r in records}
    single = next(r["id"] for r in rows if "single-command" in r["tags"])
    positive = next(r["id"] for r in rows if r["expect"].get("admitted"))
    other = next(r["id"] for r in rows if r["expect"].get("admitted") and r["id"] != positive)
    changed = dict(by_id)
    changed[single] = by_id[single].model_copy(update={"experience_status": "admitted"})  # a false admission
    changed[positive] = by_id[positive].model_copy(update={"experience_status": "not_admitted"})  # a refused goal
    changed[other] = by_id[other].model_copy(update={"family": "DEF"})  # a routing slip: no full pass, admission still right
    exp = score(rows, [changed[r.id] for r in records])["experience"]
    assert exp["false_admissions"] == [single] and exp["missed_admissions"] == [positive]
    adm = exp["admission"]
    assert (adm["fp"], adm["fn"]) == (1, 1)
    assert adm["precision"] == round(adm["tp"] / (adm["tp"] + 1), 4) and adm["recall"] == round(adm["tp"] / (adm["tp"] + 1), 4)
    failures = {f["id"]: f["keys"] for f in exp["full_pass_failures"]}
    assert failures[single] == ["admitted"]  # a not_admitted label implies admitted: false
    assert failures[other] == ["family"] and failures[positive] == ["admitted"]
    assert exp["full_pass_rate"] == round(1 - 3 / len(rows), 4)


def test_sets_without_experience_labels_have_no_block(runner):
    rows = [{"id": "a", "text": "고마워", "expect": {"family": "DEF"}}]
    records = decide_rows(runner, [(1, rows[0], None)])
    assert score(rows, records)["experience"] is None


def test_cli_batch_prints_the_experience_block(tmp_path):
    result = CliRunner().invoke(app, ["batch", str(BOUNDARY), "--out", str(tmp_path / "run")])
    assert result.exit_code == 0, result.output
    assert "admission precision" in result.output and "full pass" in result.output
