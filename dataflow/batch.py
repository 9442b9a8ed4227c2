"""Batch runs over utterance sets: decisions, metrics, and the scoring of UTTERANCE_SETS.md."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any, Callable

from pydantic import ValidationError

from dataflow.driver import DriverConfig, TurnRunner, error_record
from dataflow.experience_metrics import experience_block, experience_checks, experience_expected, experience_got
from dataflow.model_metrics import model_usage
from registry.contracts import FAMILIES, DecisionRecord, Expect, TurnInput
from registry.errors import InputError
from registry.inputs import device_context_of, voice_context_of
from registry.loader import EvidenceWeights, Registry, load_registry


MAX_NESTING = 64
"""A set row nests objects and lists at most this deep (a label needs 4); deeper is an error record."""


def _depth_ok(value: Any, limit: int = MAX_NESTING) -> bool:
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if depth > limit:
            return False
        children = item.values() if isinstance(item, dict) else item if isinstance(item, list) else ()
        stack.extend((child, depth + 1) for child in children)
    return True


def _unicode_ok(value: Any) -> bool:
    """No lone surrogate anywhere in the row's strings (JSON can escape one; UTF-8 cannot carry it)."""
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            return False
        return True
    if isinstance(value, dict):
        return all(_unicode_ok(k) and _unicode_ok(v) for k, v in value.items())
    if isinstance(value, list):
        return all(_unicode_ok(v) for v in value)
    return True


def _parse_line(raw: bytes) -> tuple[Any, str | None]:
    try:
        line = raw.decode("utf-8").strip()
    except UnicodeDecodeError:
        return None, "line is not UTF-8"
    if not line:
        return None, ""
    try:
        row = json.loads(line)
    except json.JSONDecodeError as exc:
        return None, f"malformed JSON: {exc.msg}"
    except RecursionError:
        return None, f"nested deeper than {MAX_NESTING} levels"
    if not _depth_ok(row):
        return None, f"nested deeper than {MAX_NESTING} levels"
    return row, None


def read_set(path: Path) -> list[tuple[int, dict[str, Any] | None, str | None]]:
    """(line number, row or None, error) per non-empty line; a bad line is reported, not fatal.

    Every row gets an id: its own (as text), or `line-N` when it has none. Rows that share an id are each an
    error: they would be scored against one another's labels."""
    rows: list[tuple[int, dict[str, Any] | None, str | None]] = []
    with path.open("rb") as fh:
        for number, raw in enumerate(fh, 1):
            row, error = _parse_line(raw)
            if error == "":
                continue
            if error is None and isinstance(row, dict) and "text" not in row and isinstance(row.get("question"), str):
                row = {**row, "text": row["question"]}  # a DQR question set row (data/questions/dqr.jsonl)
            if error is None and isinstance(row, dict):
                row = {**row, "id": str(row["id"]) if row.get("id") not in (None, "") else f"line-{number}"}
                error = row_error(row)
            elif error is None:
                error = f"a row is a JSON object, got {type(row).__name__}"
            rows.append((number, row if isinstance(row, dict) else None, error))
    seen: dict[str, list[int]] = {}
    for number, row, _ in rows:
        if row is not None:
            seen.setdefault(row["id"], []).append(number)
    return [(number, row, error or (f"duplicate id {row['id']!r} (lines {', '.join(map(str, seen[row['id']]))})"
                                    if row is not None and len(seen[row["id"]]) > 1 else None))
            for number, row, error in rows]


def row_error(row: dict[str, Any]) -> str | None:
    """Why a parsed row cannot be routed or scored, if it cannot (UTTERANCE_SETS.md)."""
    if not isinstance(row.get("text"), str):
        return "row needs a string 'text'"
    if not _unicode_ok(row):
        return "invalid Unicode (a lone surrogate) in the row"
    expect = row.get("expect")
    if expect is not None and not isinstance(expect, dict):
        return f"expect: must be a JSON object, got {type(expect).__name__}"
    if expect is not None:
        try:
            Expect.model_validate(expect)
        except ValidationError as exc:
            err = exc.errors()[0]
            where = ".".join(map(str, err["loc"]))
            return f"expect{'.' + where if where else ''}: {err['msg']}"
    return None


def turn_from_row(row: dict[str, Any], registry: Registry | None = None) -> TurnInput:
    """A set row as a TurnInput: device_context overrides the default device context. Contexts are checked
    (registry/inputs.py): an unknown or mistyped field, a number out of range or an unknown room is an InputError."""
    return TurnInput(recognized_text=row["text"], voice_context=voice_context_of(row.get("voice_context")),
                     device_context=device_context_of(row.get("device_context"), registry or load_registry()))


def decide_rows(runner: TurnRunner, rows, progress: Callable[[], None] | None = None) -> list[DecisionRecord]:
    records = []
    for number, row, error in rows:
        row_id = row["id"] if row else f"line-{number}"
        text = row.get("text", "") if row and isinstance(row.get("text"), str) and _unicode_ok(row["text"]) else ""
        if error:
            records.append(error_record(text, error, row_id))
        else:
            try:
                records.append(runner.route(turn_from_row(row, runner.registry), row_id=row_id))
            except InputError as exc:
                records.append(error_record(text, str(exc), row_id))
            except Exception as exc:  # one bad row must never stop a batch; the record says why
                records.append(error_record(text, f"{type(exc).__name__}: {exc}", row_id))
        if progress:
            progress()
    return records


# --- scoring ---------------------------------------------------------------------------


def decision_actions(record: DecisionRecord) -> list[dict[str, Any]]:
    return [
        {"capability_id": s.action.capability_id, "operation_id": s.action.operation_id,
         "arguments": dict(s.action.arguments), "conditional": s.condition is not None}
        for s in record.steps if s.action is not None
    ]


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


def _percentile(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    k = (len(ordered) - 1) * q
    lo, hi = int(k), min(int(k) + 1, len(ordered) - 1)
    return round(ordered[lo] + (ordered[hi] - ordered[lo]) * (k - lo), 4)


def score(rows: list[dict[str, Any]], records: list[DecisionRecord]) -> dict[str, Any]:
    """Metrics of a run: family accuracy, per-family P/R/F1, confusion, actions, slots, latency, and on sets with
    Experience labels the `experience` block (dataflow/experience_metrics.py; None otherwise)."""
    confusion: dict[str, Counter] = {f: Counter() for f in FAMILIES}
    checks: dict[str, list[bool]] = {k: [] for k in ("family", "routes", "turn_mode", "skill", "actions", "missing_slots", "slots", "unsupported_category", "stt_null_subtype", "experience_admission")}
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
        ok: dict[str, bool] = {}
        if "family" in exp:
            got = rec.family or "ERROR"
            confusion.setdefault(exp["family"], Counter())[got] += 1
            ok["family"] = got == exp["family"]
        if "routes" in exp:
            ok["routes"] = list(exp["routes"]) == rec.selected_routes
        if "turn_mode" in exp:
            ok["turn_mode"] = exp["turn_mode"] == rec.turn_mode
        if "skill" in exp:
            ok["skill"] = exp["skill"] == rec.selected_skill
        if "actions" in exp:
            ok["actions"] = actions_match(exp["actions"] or [], decision_actions(rec))
        if "missing_slots" in exp:
            ok["missing_slots"] = set(exp["missing_slots"] or []) == set(rec.missing_slots)
        if "slots" in exp:
            ok["slots"] = all(rec.slots.get(k) == v for k, v in (exp["slots"] or {}).items())
        if "unsupported_category" in exp:
            ok["unsupported_category"] = exp["unsupported_category"] == (rec.unsupported_categories[0] if rec.unsupported_categories else None)
        if "stt_null_subtype" in exp:
            ok["stt_null_subtype"] = exp["stt_null_subtype"] == rec.stt_null_subtype
        if "experience_admission" in exp:
            ok["experience_admission"] = exp["experience_admission"] == rec.experience_admission
        for key, value in ok.items():
            checks[key].append(value)
        extra = false_actions_of(exp, rec) if isinstance(exp, dict) else []
        if extra:
            false_rows.append({"id": rec.id, "text": rec.text, "actions": extra})
        per_row.append((str(rec.id), exp, rec, ok))
        every = {**ok, **experience_checks(exp, rec)}  # a full pass: every key of the row's expect, Experience keys too
        scored_rows += bool(every)
        if not all(every.values()) or extra or rec.error:
            failing.append(_failing_row(rec, exp, every, extra))
    per_family = {}
    for fam in FAMILIES:
        tp = confusion.get(fam, Counter())[fam]
        fn = sum(confusion.get(fam, Counter()).values()) - tp
        fp = sum(c[fam] for f, c in confusion.items() if f != fam)
        p = tp / (tp + fp) if tp + fp else 0.0
        r = tp / (tp + fn) if tp + fn else 0.0
        per_family[fam] = {"precision": round(p, 4), "recall": round(r, 4), "f1": round(2 * p * r / (p + r), 4) if p + r else 0.0, "support": tp + fn}
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
        "latency_ms": {"p50": _percentile(latencies, 0.5), "p95": _percentile(latencies, 0.95), "max": round(max(latencies), 4) if latencies else 0.0},
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
    """Route a set on an engine (see dataflow/engines.py), score it and write the run directory.

    Without a runner (a non-local engine's workers build their own) `config` and `weights` make a variant run;
    a runner carries its own. The metrics record the config and the weight terms that differ from the registry's."""
    from dataflow.engines import route_rows
    from dataflow.tuning import weights_diff

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
        from dataflow.tuning import write_features  # the evidence cache that re-scoring reads

        write_features(out_dir, rows, records, weights, {"planner_backend": config.planner_backend})
    return metrics
