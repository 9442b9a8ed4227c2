"""Evidence-axis tuning: cached features, re-scoring against the real DAG, comparisons and fitting."""

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from dataflow.workbench import tuning
from dataflow.workbench.batch import run_batch
from dataflow.workbench.features import features_from_records
from dataflow.rows import decide_rows, read_set
from dataflow.cli.main import app
from dataflow.driver import TurnRunner
from registry.loader import load_registry
from stages.owner_choice import choose_owner, deciding_clauses, second_pass_pair, second_pass_winner

ROOT = Path(__file__).resolve().parents[1]
CORE = ROOT / "data/utterances/core.jsonl"
HOLDOUT = ROOT / "data/utterances/dev_holdout.jsonl"


@pytest.fixture(scope="module")
def core_run(runner, tmp_path_factory):
    out = tmp_path_factory.mktemp("tune") / "core"
    run_batch(runner, CORE, out)
    return out


def test_batch_caches_features_and_weights(core_run):
    features = tuning.load_features(core_run)
    assert len(features) == sum(1 for line in CORE.read_text(encoding="utf-8").splitlines() if line.strip())
    assert features.strengths.shape == (len(features), len(features.axes)) and "looks_fragmentary" in features.axes
    assert len(features.clause_row) > 0, "multi-route rows cache their deciding clauses"
    assert tuning.run_weights(core_run) == load_registry().weights


def test_rescoring_under_the_run_weights_reproduces_the_run(core_run):
    features = tuning.load_features(core_run)
    rate, diff = tuning.agreement(features, tuning.run_weights(core_run))
    assert rate >= 0.99, diff[:5]


PERTURBATION = {("FRG", "has_frg_scope"): 1.2, ("DEF", "has_coherent_conversation_purpose"): 2.6,
                ("STT_NULL", "looks_fragmentary"): 1.4, ("ODL", "has_device_action_cue_surface"): 2.5,
                ("DQR", "has_device_knowledge_question"): 0.5, ("DEF", "learned_DEF"): 1.0,
                ("DQR", "learned_DQR"): 0.5}


@pytest.mark.parametrize("set_path", [CORE, HOLDOUT], ids=["core", "holdout"])
def test_rescoring_predicts_the_dag_under_changed_weights(set_path, runner):
    parsed = read_set(set_path)
    rows = [r for _, r, _ in parsed if r]
    features = features_from_records(decide_rows(runner, parsed), rows)
    weights = runner.registry.weights
    for (family, axis), value in PERTURBATION.items():
        weights = tuning.with_weight(weights, family, axis, value)
    predicted = tuning.rescore(features, weights)
    dag = [r.family for r in decide_rows(TurnRunner(registry=tuning.registry_with_weights(weights)), parsed)]
    moved = sum(p != f for p, f in zip(predicted, features.run_family))
    assert moved >= 3, "the perturbation must move decisions for this check to mean anything"
    agree = sum(p == d for p, d in zip(predicted, dag)) / len(dag)
    assert agree >= 0.99, [(features.ids[i], p, d) for i, (p, d) in enumerate(zip(predicted, dag)) if p != d][:5]


def test_comparison_reports_core_group_first_and_balanced_deltas(core_run):
    features = tuning.load_features(core_run)
    base = tuning.run_weights(core_run)
    cmp = tuning.compare(features, base, tuning.with_weight(base, "FRG", "has_frg_scope", 0.2))
    assert list(cmp.per_family_delta())[:4] == ["ODL", "FRG", "DEF", "STT_NULL"]
    assert cmp.accuracy_after < cmp.accuracy_before
    delta = cmp.confusion_delta()
    assert delta and all(sum(cells.values()) == 0 for cells in delta.values()), "a row moves from one cell to another"
    assert delta["FRG"]["FRG"] < 0
    assert {row["effect"] for row in cmp.changed()} <= {"fixed", "broke", "moved"}


def test_strength_changes_cannot_be_rescored(core_run):
    base = tuning.run_weights(core_run)
    data = base.model_dump()
    data["strengths"]["lemma"] = 0.9
    with pytest.raises(tuning.TuningError, match="strengths"):
        tuning.compare(tuning.load_features(core_run), base, type(base).model_validate(data))


def test_partial_weights_file_merges_into_the_base(tmp_path, core_run):
    base = tuning.run_weights(core_run)
    path = tmp_path / "w.json"
    path.write_text(json.dumps({"weights": {"DEF": {"has_generic_help": 2.0}}}), encoding="utf-8")
    merged = tuning.read_weights(path, base)
    assert merged.weights["DEF"]["has_generic_help"] == 2.0
    assert merged.weights["ODL"] == base.weights["ODL"]
    assert [d["term"] for d in tuning.weights_diff(base, merged)] == ["has_generic_help"]
    with pytest.raises(tuning.TuningError, match="unknown family"):
        tuning.with_weight(base, "XYZ", "has_frg_scope", 1.0)


def test_owner_choice_and_judge_as_pure_functions():
    weights = load_registry().weights
    fams = weights.families
    scores = {f: 0.0 for f in fams} | {"ODL": 3.0, "FRG": 2.9}
    clause = {0: {f: 0.0 for f in fams} | {"FRG": 3.0}, 1: {f: 0.0 for f in fams} | {"ODL": 3.0}}
    choice = choose_owner(scores, clause, 2, set(fams), False, weights)
    assert choice.family == "FRG" and choice.clause_families == ["FRG", "ODL"], "a multi-route turn is owned by its first clause"
    assert choose_owner(scores, {}, 1, {"DEF", "STT_NULL"}, False, weights).family == "DEF"
    assert choose_owner(scores, {}, 1, set(fams), True, weights).family == "SCH"
    assert deciding_clauses(["action", "guard", "action"], [{}, {"has_frg_scope"}, {}]) == [0, 1, 2]
    assert deciding_clauses(["action", "guard"], [{}, {}]) == []
    gray = {f: 0.0 for f in fams} | {"DEF": 1.0, "STT_NULL": 0.9}
    choice = choose_owner(gray, {}, 1, set(fams), False, weights)
    assert choice.needs_second_pass and choice.runner_up == "STT_NULL"
    pair = second_pass_pair("DEF", "STT_NULL", True, 0.0, "unknown", choice.confidence, weights)
    assert pair == ("DEF", "STT_NULL")
    assert second_pass_winner(pair, "DEF", 0.0, "whole_intent_repair", weights) == "STT_NULL"
    assert second_pass_winner(("DEF", "FRG"), "DEF", 1.0, "bounded_reply_now", weights) == "FRG"
    # a stable public target opens the FRG question, unless the first pass put FRG out of reach
    assert second_pass_pair("DEF", "DQR", False, 0.8, "unknown", "high", weights, 2.0) == ("DEF", "FRG")
    assert second_pass_pair("DEF", "DQR", False, 0.8, "unknown", "high", weights, 20.0) is None


def test_cli_tune_shows_per_family_deltas(core_run):
    result = CliRunner().invoke(app, ["tune", str(core_run), "--set", "FRG.has_frg_scope=0.2", "--limit", "3"])
    assert result.exit_code == 0, result.output
    assert "reproduces" in result.output and "100.0%" in result.output
    for fam in ("ODL *", "FRG *", "DEF *", "STT_NULL *", "SCH"):
        assert fam in result.output
    assert "confusion-matrix delta" in result.output and "broke" in result.output


def test_cli_tune_errors_are_clear(tmp_path, core_run):
    bad = tmp_path / "bad.json"
    bad.write_text("{nope", encoding="utf-8")
    result = CliRunner().invoke(app, ["tune", str(core_run), "--weights", str(bad)])
    assert result.exit_code == 2 and "not valid JSON" in result.output and "Traceback" not in result.output
    result = CliRunner().invoke(app, ["tune", str(tmp_path)  , "--set", "FRG.has_frg_scope=1"])
    assert result.exit_code == 2 and "no cached features" in result.output
    result = CliRunner().invoke(app, ["tune", str(core_run), "--set", "FRG=1"])
    assert result.exit_code == 2 and "FAMILY.AXIS=NUMBER" in result.output


def test_fit_refuses_the_holdout_and_writes_with_a_diff(tmp_path):
    result = CliRunner().invoke(app, ["tune", "--fit", str(HOLDOUT), "--holdout", str(HOLDOUT), "--out", str(tmp_path / "w.json")])
    assert result.exit_code == 2 and "never fitted on" in result.output
    out = tmp_path / "fitted.json"
    result = CliRunner().invoke(app, ["tune", "--fit", str(CORE), "--holdout", str(HOLDOUT), "--out", str(out), "--max-drop", "1.0", "--l2", "0.01"])
    assert result.exit_code == 0, result.output
    assert "weights diff" in result.output and "held-out" in result.output
    fitted = tuning.read_weights(out)
    assert tuning.weights_diff(load_registry().weights, fitted), "the fit moved some weight"
    assert set(fitted.weights) == set(load_registry().weights.weights)


def test_fit_guard_refuses_a_drop_on_the_holdout(tmp_path):
    # a set of chat rows only, fitted with no pull toward the current weights, learns "everything is DEF"
    rows = [json.loads(line) for line in CORE.read_text(encoding="utf-8").splitlines() if line.strip()]
    biased = tmp_path / "biased.jsonl"
    biased.write_text("\n".join(json.dumps(r, ensure_ascii=False) for r in rows if (r.get("expect") or {}).get("family") == "DEF"), encoding="utf-8")
    out = tmp_path / "w.json"
    result = CliRunner().invoke(app, ["tune", "--fit", str(biased), "--holdout", str(HOLDOUT), "--out", str(out), "--l2", "0", "--allow-new-terms"])
    assert result.exit_code == 1, result.output
    assert "refused" in result.output and not out.exists()


def test_the_rescorer_sees_the_signal_entries_the_opening_is_shut_by():
    """learned_opening.unless_for names `axis=signal`; the features keep it as a column, so the re-scorer and the
    planner shut the opening on the same turns."""
    from dataflow.workbench.features import signal_entries

    runner = TurnRunner()
    entries = signal_entries(runner.registry.weights)
    assert "has_unlicensed_speech_act=user" in entries
    record = runner.route_text("내가 거실 청정 켤게")
    f = features_from_records([record], [], entries)
    assert f.strengths[0, f.axes.index("has_unlicensed_speech_act=user")] > 0
    assert "has_unlicensed_speech_act=user" not in features_from_records([record]).axes
