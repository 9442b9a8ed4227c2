"""`a2a compare RUN_A RUN_B`: two stored runs side by side, row by row: what changed, what got fixed, what broke."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from dataflow.workbench.report import _expectations, load_run  # raises ReportError (an A2AError) naming the problem
from registry.record_contracts import DecisionRecord
from registry.errors import InputError


def _run(run_dir: Path) -> tuple[list[DecisionRecord], dict[str, str]]:
    """A run directory's records and the expected family per id (read as `a2a report` reads them)."""

    records, metrics = load_run(run_dir)
    return records, {i: e["family"] for i, e in _expectations(run_dir, metrics).items() if e.get("family")}


def failure(record: DecisionRecord, expected_family: str | None) -> str | None:
    """Why a turn counts as failed: an error, a fail-closed plan, or a wrong labelled family."""
    if record.error:
        return f"error: {record.error}"
    if record.evidence.planner is not None and record.evidence.planner.decided_by == "fail_closed":
        return "fail_closed"
    if expected_family and record.family != expected_family:
        return f"family {record.family} != expected {expected_family}"
    return None


def plan_summary(record: DecisionRecord) -> str:
    """The plan as one line: each step's typed action (`cap.op(args)`, ? for a guarded one) or its skill."""
    parts = []
    for step in record.steps:
        if step.action is not None:
            args = ",".join(f"{k}={v}" for k, v in step.action.arguments.items())
            parts.append(f"{'?' if step.condition is not None else ''}{step.action.capability_id}.{step.action.operation_id}({args})")
        else:
            parts.append(f"{step.route}:{step.skill_id or step.purpose}")
    return " → ".join(parts) or "(no step)"


def _pct(a: float, b: float) -> float | None:
    return round((b - a) / a * 100, 2) if a else None


def _means(records: list[DecisionRecord]) -> dict[str, float]:
    n = len(records) or 1
    return {
        "calls_per_turn": sum(r.usage.model_calls for r in records) / n,
        "tokens_per_turn": sum(r.usage.prompt_tokens + r.usage.output_tokens for r in records) / n,
        "latency_ms_per_turn": sum(r.usage.total_ms for r in records) / n,
    }


def compare_runs(run_a: Path, run_b: Path) -> dict[str, Any]:
    """B against A over the turns both runs hold (matched by id): the economy, and row by row what changed."""
    recs_a, expected_a = _run(run_a)
    recs_b, expected_b = _run(run_b)
    by_a = {str(r.id): r for r in recs_a}
    by_b = {str(r.id): r for r in recs_b}
    common = [i for i in by_a if i in by_b]
    if not common:
        raise InputError(f"{run_a} and {run_b} share no turn ids: were they run on the same set?")
    expected = {**expected_a, **expected_b}
    a = [by_a[i] for i in common]
    b = [by_b[i] for i in common]
    mean_a, mean_b = _means(a), _means(b)
    flips, new_failures, recoveries, plans, replies = [], [], [], [], []
    for i in common:
        ra, rb = by_a[i], by_b[i]
        if ra.family != rb.family:
            flips.append({"id": i, "text": rb.text, "a": ra.family, "b": rb.family, "expected": expected.get(i)})
        plan_a, plan_b = plan_summary(ra), plan_summary(rb)
        if plan_a != plan_b:
            plans.append({"id": i, "text": rb.text, "a": plan_a, "b": plan_b, "family_flip": ra.family != rb.family})
        if (ra.tts_response or "") != (rb.tts_response or ""):
            replies.append({"id": i, "text": rb.text, "a": ra.tts_response or "", "b": rb.tts_response or "", "family_flip": ra.family != rb.family})
        fa, fb = failure(ra, expected.get(i)), failure(rb, expected.get(i))
        if fb and not fa:
            new_failures.append({"id": i, "text": rb.text, "why": fb})
        elif fa and not fb:
            recoveries.append({"id": i, "text": rb.text, "was": fa})
    return {
        "run_a": str(run_a), "run_b": str(run_b), "turns": len(common),
        "only_in_a": len(by_a) - len(common), "only_in_b": len(by_b) - len(common),
        "a": {k: round(v, 4) for k, v in mean_a.items()}, "b": {k: round(v, 4) for k, v in mean_b.items()},
        "change_pct": {k: _pct(mean_a[k], mean_b[k]) for k in mean_a},
        "family_flips": flips, "plan_changes": plans, "reply_changes": replies, "new_failures": new_failures, "recoveries": recoveries,
    }


def comparison_json(result: dict[str, Any]) -> str:
    return json.dumps(result, ensure_ascii=False, indent=2)
