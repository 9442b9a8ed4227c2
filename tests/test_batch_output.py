"""Batch output that shows everything: errors.jsonl for every row that is not a full pass, the console's
"and N more", unlabelled runs that say nothing was scored, variant runs (--weights, --config) and compare."""

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from dataflow.workbench import tuning
from dataflow.workbench.batch import run_batch
from dataflow.cli.main import app
from dataflow.workbench.report import render_report
from registry.loader import load_registry
from registry.registry_models import EvidenceWeights

ROOT = Path(__file__).resolve().parents[1]
HOLDOUT = ROOT / "data/utterances/dev_holdout.jsonl"


def _flat(text: str) -> str:
    """CLI output without rich's box drawing and line wrapping."""
    return re.sub(r"[\s│╭╮╰╯─┃━┏┓┗┛┡┩└┘┌┐]+", " ", text)


def _write_set(path: Path, rows: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    return path


def _errors(run: Path) -> list[dict]:
    return [json.loads(line) for line in (run / "errors.jsonl").read_text(encoding="utf-8").splitlines()]


WRONG = [{"id": f"wrong-{i:02d}", "text": "거실로 가줘", "expect": {"family": "DEF"}} for i in range(12)]
EXPERIENCE_ONLY = [
    # right family and routing; only an Experience label is wrong: not a full pass
    {"id": "effects", "text": "거실로 가줘", "expect": {"family": "ODL", "experience_admission": "not_admitted",
                                                     "desired_effects": ["docked_at_station"]}},
    {"id": "admitted", "text": "충전하러 가", "expect": {"family": "ODL", "admitted": True}},
]
PASSING = [{"id": "ok", "text": "고마워", "expect": {"family": "DEF"}}]


@pytest.fixture
def cli(runner, monkeypatch):
    """`a2a ARGS` on the session's warm runner; a variant run (config or registry given) builds its own."""
    from dataflow.cli.model import model_runner

    def warm_or_variant(**options):
        return model_runner(**options) if "config" in options or "registry" in options else runner

    monkeypatch.setattr("dataflow.cli.common.make_runner", warm_or_variant)

    def invoke(*args):
        return CliRunner().invoke(app, [str(a) for a in args], env={"COLUMNS": "200", "NO_COLOR": "1"})

    return invoke


def test_done_when_errors_jsonl_has_every_row_that_is_not_a_full_pass(runner, tmp_path):
    run = tmp_path / "holdout"
    metrics = run_batch(runner, HOLDOUT, run)
    failing = _errors(run)
    assert len(failing) == metrics["not_full_pass"] > 0
    assert all(set(row) >= {"id", "text", "failed", "expected", "got"} for row in failing)
    for row in failing:
        assert row["failed"] or row["false_actions"] or row["error"], row
        assert set(row["expected"]) == set(row["got"]) == set(row["failed"]) or not row["failed"]
    experience = {f["id"] for f in metrics["experience"]["full_pass_failures"]}
    assert experience <= {row["id"] for row in failing}, "every Experience full-pass failure is in errors.jsonl"


def test_a_row_failing_only_an_experience_label_is_written_with_expected_and_got(runner, tmp_path):
    run = tmp_path / "run"
    run_batch(runner, _write_set(tmp_path / "set.jsonl", EXPERIENCE_ONLY + PASSING), run)
    by_id = {row["id"]: row for row in _errors(run)}
    assert set(by_id) == {"effects", "admitted"}
    assert by_id["effects"]["failed"] == ["desired_effects"]
    assert by_id["effects"]["expected"] == {"desired_effects": ["docked_at_station"]} and by_id["effects"]["got"] == {"desired_effects": []}
    assert by_id["admitted"]["expected"] == {"admitted": True} and by_id["admitted"]["got"] == {"admitted": False}


def test_console_lists_failing_rows_expected_and_got_and_says_how_many_more(cli, tmp_path):
    run = tmp_path / "run"
    result = cli("batch", _write_set(tmp_path / "set.jsonl", WRONG + EXPERIENCE_ONLY + PASSING), "--out", run)
    assert result.exit_code == 0, result.output
    out = _flat(result.stdout)
    assert "14 row(s) are not a full pass" in out
    assert "wrong-00 '거실로 가줘': family DEF -> ODL" in out
    assert f"and 4 more in {run / 'errors.jsonl'}" in out
    assert len(_errors(run)) == 14


def test_console_without_truncation_points_at_the_file(cli, tmp_path):
    run = tmp_path / "run"
    result = cli("batch", _write_set(tmp_path / "set.jsonl", EXPERIENCE_ONLY + PASSING), "--out", run)
    out = _flat(result.stdout)
    assert "2 row(s) are not a full pass" in out and "more in" not in out
    assert "effects '거실로 가줘': desired_effects [\"docked_at_station\"] -> []" in out
    assert f"all of them, expected and got, in {run / 'errors.jsonl'}" in out


def test_an_unlabelled_run_says_nothing_was_scored(cli, tmp_path):
    rows = [{"id": "u1", "text": "거실로 가줘"}, {"id": "u2", "text": "고마워"}, {"id": "u3", "text": "오늘 날씨 어때?"}]
    run = tmp_path / "run"
    result = cli("batch", _write_set(tmp_path / "unlabelled.jsonl", rows), "--out", run)
    assert result.exit_code == 0, result.output
    out = _flat(result.stdout)
    assert "nothing was scored: no row of unlabelled.jsonl has an `expect`" in out
    assert "per family" not in out and "family_accuracy" not in out and "full pass" not in out
    assert "decided families ODL 1" in out
    metrics = json.loads((run / "metrics.json").read_text(encoding="utf-8"))
    assert metrics["scored_rows"] == 0 and metrics["family_accuracy"] is None and metrics["confusion_matrix"] == {}
    assert metrics["decided_families"] == {"ODL": 1, "FRG": 1, "DEF": 1}
    assert _errors(run) == []

    report = cli("report", run)
    assert report.exit_code == 0, report.output
    html = (run / "report.html").read_text(encoding="utf-8")
    assert "id='not-scored'" in html and "Nothing was scored" in html
    assert "No family errors" not in html and "id=\"confusion\"" not in html and "per-family-table" not in html
    assert "Family errors (not scored)" in html and "Plan errors (not scored)" in html
    assert "id='decided-families'" in html and "not scored" in html[html.index("id=\"summary\""):html.index("id=\"families\"")]


def test_a_labelled_report_still_draws_the_matrix(runner, tmp_path):
    run = tmp_path / "run"
    run_batch(runner, _write_set(tmp_path / "set.jsonl", WRONG[:1] + PASSING), run)
    html = render_report(run)
    assert "id=\"confusion\"" in html and "Family errors (1)" in html and "id='not-scored'" not in html
    assert "id='plans-not-scored'" in html, "the set labels families only: its plans were not checked, and the report says so"


def test_a_variant_batch_and_compare_show_the_flips_row_by_row(cli, tmp_path):
    rows = [{"id": "move", "text": "거실로 가줘", "expect": {"family": "ODL"}}, {"id": "thanks", "text": "고마워", "expect": {"family": "DEF"}}]
    set_path = _write_set(tmp_path / "set.jsonl", rows)
    weights = tmp_path / "def_wins.json"
    weights.write_text(json.dumps({"bias": {"DEF": 50.0}}), encoding="utf-8")  # partial: merged into the registry's
    base, variant = tmp_path / "base", tmp_path / "variant"
    assert cli("batch", set_path, "--out", base).exit_code == 0
    result = cli("batch", set_path, "--out", variant, "--weights", weights, "--config", "inline_unified_router=false")
    assert result.exit_code == 0, result.output
    assert "variant run: config inline_unified_router=false; 1 weight term(s) changed" in _flat(result.stdout)
    metrics = json.loads((variant / "metrics.json").read_text(encoding="utf-8"))
    assert metrics["driver_config"]["inline_unified_router"] is False
    assert [(d["family"], d["term"], d["after"]) for d in metrics["weights_changed"]] == [("DEF", "(bias)", 50.0)]
    assert tuning.run_weights(variant).bias["DEF"] == 50.0, "the run's weights snapshot is the variant's (a2a tune re-scores under it)"
    assert json.loads((base / "metrics.json").read_text(encoding="utf-8"))["weights_changed"] == []

    shown = cli("compare", base, variant, "--json")
    assert shown.exit_code == 0, shown.output
    data = json.loads(shown.stdout)
    assert data["family_flips"] == [{"id": "move", "text": "거실로 가줘", "a": "ODL", "b": "DEF", "expected": "ODL"}]
    (plan,) = data["plan_changes"]
    assert plan["id"] == "move" and plan["a"] == "move_to_room.start(room_name=거실)" and plan["b"].startswith("DEF:") and plan["family_flip"]
    (reply,) = data["reply_changes"]
    assert reply["id"] == "move" and reply["a"] != reply["b"]
    assert [r["id"] for r in data["new_failures"]] == ["move"]
    text = _flat(cli("compare", base, variant).stdout)
    for part in ("family flips: 1", "move 거실로 가줘 ODL -> DEF (expected ODL)", "plan changes: 1",
                 "A: move_to_room.start(room_name=거실)", "reply changes: 1", "new failures: 1"):
        assert part in text, part


def test_variant_options_are_checked(cli, tmp_path):
    set_path = _write_set(tmp_path / "set.jsonl", PASSING)
    bad = tmp_path / "bad.json"
    bad.write_text("{nope", encoding="utf-8")
    for args, message in ((["--weights", bad], "not valid JSON"), (["--config", "inline_unified_router=maybe"], "inline_unified_router"),
                          (["--config", "planner_backend=gemini"], "the planner is chosen with --backend"),
                          (["--config", "nonsense"], "use KEY=VALUE")):
        result = cli("batch", set_path, "--out", tmp_path / "run", *args)
        assert result.exit_code == 2 and message in _flat(result.output) and "Traceback" not in result.output, (args, result.output)


def test_worker_processes_run_under_the_variant_weights(tmp_path):
    set_path = _write_set(tmp_path / "set.jsonl", [{"id": "move", "text": "거실로 가줘", "expect": {"family": "ODL"}}])
    data = load_registry().weights.model_dump()
    data["bias"]["DEF"] = 50.0
    weights = EvidenceWeights.model_validate(data)
    metrics = run_batch(None, set_path, tmp_path / "run", engine="processes", workers=1, weights=weights)
    assert metrics["decided_families"] == {"DEF": 1}
    assert tuning.run_weights(tmp_path / "run").bias["DEF"] == 50.0
