"""Batch runs over utterance sets: decisions, metrics, and the scoring of UTTERANCE_SETS.md."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any


from dataflow.driver import DriverConfig, TurnRunner
from dataflow.workbench.experience_metrics import experience_block, experience_checks, experience_expected, experience_got
from dataflow.workbench.engines import route_rows
from dataflow.workbench.model_metrics import model_usage, percentile
from dataflow.rows import decision_actions, is_question_row, read_set
from registry.contracts import FAMILIES
from registry.record_contracts import DecisionRecord
from registry.loader import load_registry
from registry.registry_models import EvidenceWeights


# --- scoring ---------------------------------------------------------------------------


def actions_match(expected: list[dict[str, Any]], got: list[dict[str, Any]]) -> bool:
    if len(expected) != len(got):
        return False
    for e, g in zip(expected, got):
        if (e["capability_id"], e["operation_id"], bool(e.get("conditional", False))) != (g["capability_id"], g["operation_id"], g["conditional"]):
            return False
        for name, value in (e.get("arguments") or {}).items():
            if g["arguments"].get(name) != value:
                return False
    return True


def device_action_keys(record: DecisionRecord) -> list[tuple[str, str]]:
    """(capability, operation) of every device step the record plans."""
    return [(s.action.capability_id, s.action.operation_id) for s in record.steps
            if s.action is not None and (s.execution_target == "device" or s.route == "ODL")]


def false_actions_of(expect: dict[str, Any], record: DecisionRecord) -> list[str]:
    """Device steps the row did not ask for: any on a row that expects none, else those not in expect.actions."""
    planned = device_action_keys(record)
    if not planned:
        return []
    expected = expect.get("actions")
    asks_nothing = expect.get("family") in ("DQR", "DEF", "UNS", "STT_NULL")  # these families never own a device step
    if expect.get("no_device_action") or expected == [] or (expected is None and asks_nothing):
        return [f"{c}.{o}" for c, o in planned]
    if expected is None:
        return []
    remaining = Counter((a.get("capability_id"), a.get("operation_id")) for a in expected if isinstance(a, dict))
    extra = []
    for key in planned:
        if remaining[key] > 0:
            remaining[key] -= 1
        else:
            extra.append(f"{key[0]}.{key[1]}")
    return extra


def _failing_row(rec: DecisionRecord, exp: dict[str, Any], ok: dict[str, bool], extra: list[str]) -> dict[str, Any]:
    """One line of errors.jsonl: what the row expected and what the decision gave, for every failing key
    (a row that failed no key, i.e. an error or a false action only, carries its whole expect and decision)."""
    got = {
        "family": rec.family, "routes": rec.selected_routes, "turn_mode": rec.turn_mode, "skill": rec.selected_skill,
        "actions": decision_actions(rec), "missing_slots": rec.missing_slots, "slots": rec.slots,
        "unsupported_category": rec.unsupported_categories[0] if rec.unsupported_categories else None,
        "stt_null_subtype": rec.stt_null_subtype, "experience_admission": rec.experience_admission,
        **experience_got(rec),
    }
    expected = {**exp, **experience_expected(exp)}
    failed = [k for k, v in ok.items() if not v]
    return {"id": rec.id, "text": rec.text, "failed": failed, "false_actions": extra, "error": rec.error,
            "expected": {k: expected.get(k) for k in failed} if failed else exp, "got": {k: got.get(k) for k in failed} if failed else got}


_CHECKS: dict[str, Any] = {
    "family": lambda want, rec: want == (rec.family or "ERROR"),
    "routes": lambda want, rec: list(want) == rec.selected_routes,
    "turn_mode": lambda want, rec: want == rec.turn_mode,
    "skill": lambda want, rec: want == rec.selected_skill,
    "actions": lambda want, rec: actions_match(want or [], decision_actions(rec)),
    "missing_slots": lambda want, rec: set(want or []) == set(rec.missing_slots),
    "slots": lambda want, rec: all(rec.slots.get(k) == v for k, v in (want or {}).items()),
    "unsupported_category": lambda want, rec: want == (rec.unsupported_categories[0] if rec.unsupported_categories else None),
    "stt_null_subtype": lambda want, rec: want == rec.stt_null_subtype,
    "experience_admission": lambda want, rec: want == rec.experience_admission,
}
"""How each key of a row's `expect` is scored against the record (data/utterances/LABELING.md)."""


def _row_checks(exp: dict[str, Any], rec: DecisionRecord) -> dict[str, bool]:
    """Pass or fail per labelled key of the row (keys the row does not label are not scored)."""
    return {key: check(exp[key], rec) for key, check in _CHECKS.items() if key in exp}


def _per_family(confusion: dict[str, Counter]) -> dict[str, dict[str, float]]:
    """Precision, recall, F1 and support per family from the confusion matrix (expected -> decided)."""
    out = {}
    for fam in FAMILIES:
        tp = confusion.get(fam, Counter())[fam]
        fn = sum(confusion.get(fam, Counter()).values()) - tp
        fp = sum(c[fam] for f, c in confusion.items() if f != fam)
        p = tp / (tp + fp) if tp + fp else 0.0
        r = tp / (tp + fn) if tp + fn else 0.0
        out[fam] = {"precision": round(p, 4), "recall": round(r, 4), "f1": round(2 * p * r / (p + r), 4) if p + r else 0.0, "support": tp + fn}
    return out


def score(rows: list[dict[str, Any]], records: list[DecisionRecord]) -> dict[str, Any]:
    """Metrics of a run: family accuracy, per-family P/R/F1, confusion, actions, slots, latency, and on sets with
    Experience labels the `experience` block (dataflow/workbench/experience_metrics.py; None otherwise)."""
    confusion: dict[str, Counter] = {f: Counter() for f in FAMILIES}
    checks: dict[str, list[bool]] = {k: [] for k in _CHECKS}
    errors = []
    false_rows: list[dict[str, Any]] = []
    failing: list[dict[str, Any]] = []
    per_row = []
    scored_rows = 0
    decided: Counter = Counter()
    by_id = {str(r.get("id")): r for r in rows}
    for rec in records:
        decided[rec.family or "ERROR"] += 1
        row = by_id.get(str(rec.id), {})
        exp = row.get("expect") or {}
        if rec.error:
            errors.append({"id": rec.id, "error": rec.error})
        ok = _row_checks(exp, rec)
        if "family" in exp:
            confusion.setdefault(exp["family"], Counter())[rec.family or "ERROR"] += 1
        for key, value in ok.items():
            checks[key].append(value)
        asked = {"no_device_action": True} if not exp and is_question_row(row) else exp  # a product question asks no act
        extra = false_actions_of(asked, rec) if isinstance(asked, dict) else []
        if extra:
            false_rows.append({"id": rec.id, "text": rec.text, "actions": extra})
        per_row.append((str(rec.id), exp, rec, ok))
        every = {**ok, **experience_checks(exp, rec)}  # a full pass: every key of the row's expect, Experience keys too
        scored_rows += bool(every)
        if not all(every.values()) or extra or rec.error:
            failing.append(_failing_row(rec, exp, every, extra))
    per_family = _per_family(confusion)
    latencies = [r.usage.total_ms for r in records if not r.error]
    rate = lambda xs: round(sum(xs) / len(xs), 4) if xs else None  # noqa: E731
    return {
        "rows": len(records),
        "errors": len(errors),
        "error_rows": errors[:50],
        "family_accuracy": rate(checks["family"]),
        "per_family": per_family,
        "confusion_matrix": {f: dict(c) for f, c in confusion.items() if c},
        "action_exact_match": rate(checks["actions"]),
        "false_actions": len(false_rows),
        "false_action_rows": false_rows,
        "failing_rows": failing,
        "routes_match": rate(checks["routes"]),
        "turn_mode_accuracy": rate(checks["turn_mode"]),
        "skill_accuracy": rate(checks["skill"]),
        "slot_accuracy": rate(checks["slots"]),
        "missing_slots_accuracy": rate(checks["missing_slots"]),
        "unsupported_category_accuracy": rate(checks["unsupported_category"]),
        "stt_null_subtype_accuracy": rate(checks["stt_null_subtype"]),
        "experience_admission_accuracy": rate(checks["experience_admission"]),
        "scored": {k: len(v) for k, v in checks.items()},
        "scored_rows": scored_rows,
        "not_full_pass": len(failing),
        "decided_families": {f: decided[f] for f in [*FAMILIES, *sorted(set(decided) - set(FAMILIES))] if decided[f]},
        "second_pass_rate": rate([r.second_pass_ran for r in records if not r.error]),
        "latency_ms": {"p50": percentile(latencies, 0.5), "p95": percentile(latencies, 0.95), "max": round(max(latencies), 4) if latencies else 0.0},
        "model_usage": model_usage(records),
        "experience": experience_block(per_row),
    }


def write_run(out_dir: Path, rows: list[dict[str, Any]], records: list[DecisionRecord], metrics: dict[str, Any]) -> None:
    import pyarrow as pa
    import pyarrow.parquet as pq

    out_dir.mkdir(parents=True, exist_ok=True)
    with (out_dir / "decisions.jsonl").open("w", encoding="utf-8") as fh:
        for rec in records:
            fh.write(rec.model_dump_json() + "\n")
    expect_by_id = {str(r.get("id")): r.get("expect") or {} for r in rows}
    table = pa.table({
        "id": [r.id for r in records],
        "text": [r.text for r in records],
        "family": [r.family for r in records],
        "expected_family": [expect_by_id.get(str(r.id), {}).get("family") for r in records],
        "selected_skill": [r.selected_skill for r in records],
        "turn_mode": [r.turn_mode for r in records],
        "runner_up_family": [r.runner_up_family for r in records],
        "second_pass_ran": [r.second_pass_ran for r in records],
        "n_steps": [len(r.steps) for r in records],
        "actions": [json.dumps(decision_actions(r), ensure_ascii=False) for r in records],
        "total_ms": [r.usage.total_ms for r in records],
        "error": [r.error for r in records],
        "record": [r.model_dump_json() for r in records],
    })
    pq.write_table(table, out_dir / "decisions.parquet")
    with (out_dir / "errors.jsonl").open("w", encoding="utf-8") as fh:
        for row in metrics.get("failing_rows", []):
            fh.write(json.dumps(row, ensure_ascii=False, default=str) + "\n")
    summary = {k: v for k, v in metrics.items() if k != "failing_rows"}
    (out_dir / "metrics.json").write_text(json.dumps(summary, ensure_ascii=False, indent=2, default=str), encoding="utf-8")


def run_batch(runner: TurnRunner | None, set_path: Path, out_dir: Path | None = None, progress_factory=None,
              engine: str = "local", workers: int | None = None, address: str | None = None,
              config: DriverConfig | None = None, weights: EvidenceWeights | None = None) -> dict[str, Any]:
    """Route a set on an engine (see dataflow/workbench/engines.py), score it and write the run directory.

    Without a runner (a non-local engine's workers build their own) `config` and `weights` make a variant run;
    a runner carries its own. The metrics record the config and the weight terms that differ from the registry's."""
    from dataflow.workbench.tuning import weights_diff

    parsed = read_set(set_path)
    rows = [row for _, row, error in parsed if row and not error]  # labels of a bad row (a duplicate id) are never scored
    config = runner.config if runner else config or DriverConfig()
    weights = runner.registry.weights if runner else weights or load_registry().weights
    kwargs = dict(workers=workers, address=address, runner=runner, config=config, weights=weights)
    if progress_factory:
        with progress_factory(len(parsed)) as advance:
            records = route_rows(parsed, engine, progress=lambda n: [advance() for _ in range(n)], **kwargs)
    else:
        records = route_rows(parsed, engine, **kwargs)
    metrics = score(rows, records)
    metrics["engine"] = engine
    metrics["set"] = str(set_path)
    metrics["driver_config"] = config.model_dump()
    metrics["weights_changed"] = weights_diff(load_registry().weights, weights)  # what a variant run changed; [] for the registry's
    if out_dir is not None:
        write_run(out_dir, rows, records, metrics)
        from dataflow.workbench.features import write_features  # the evidence cache that re-scoring reads

        write_features(out_dir, rows, records, weights, {"planner_backend": config.planner_backend})
    return metrics
