"""Model economy of a batch run (model calls, tokens, latency, which path decided) and latency percentiles.
The run-to-run comparison is dataflow/workbench/run_compare.py."""

from __future__ import annotations

from collections import Counter
from typing import Any

from registry.record_contracts import DecisionRecord


def percentile(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    k = (len(ordered) - 1) * q
    lo, hi = int(k), min(int(k) + 1, len(ordered) - 1)
    return round(ordered[lo] + (ordered[hi] - ordered[lo]) * (k - lo), 4)


def _rate(part: float, whole: int) -> float:
    return round(part / whole, 4) if whole else 0.0


def model_usage(records: list[DecisionRecord]) -> dict[str, Any]:
    """Calls and tokens per turn, prompt tokens per call, model latency p50/p95, who decided."""

    ok = [r for r in records if not r.error]
    calls = sum(r.usage.model_calls for r in ok)
    prompt = sum(r.usage.prompt_tokens for r in ok)
    output = sum(r.usage.output_tokens for r in ok)
    model_ms = [sum(r.usage.model_ms.values()) for r in ok if r.usage.model_calls]
    stages: Counter = Counter()
    for r in ok:
        stages.update({stage: 1 for stage in r.usage.model_ms})
    decided = Counter(r.evidence.planner.decided_by if r.evidence.planner else "unknown" for r in ok)
    return {
        "turns": len(ok),
        "model_calls": calls,
        "calls_per_turn": _rate(calls, len(ok)),
        "turns_with_model_calls": len(model_ms),
        "prompt_tokens_per_turn": _rate(prompt, len(ok)),
        "output_tokens_per_turn": _rate(output, len(ok)),
        "tokens_per_turn": _rate(prompt + output, len(ok)),
        "prompt_tokens_per_call": _rate(prompt, calls),
        "model_latency_ms": {"p50": percentile(model_ms, 0.5), "p95": percentile(model_ms, 0.95)},
        "turns_per_model_stage": dict(stages),
        "decided_by": dict(decided),
        "fail_closed": decided.get("fail_closed", 0),
    }


# --- run comparison --------------------------------------------------------------------------
