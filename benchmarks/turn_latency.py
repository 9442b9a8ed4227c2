"""Per-turn latency through the Hamilton driver and through a plain chain of the same stage functions.

    python benchmarks/turn_latency.py [--repeat 3]

Prints p50/p95 per turn for both and the driver overhead ratio (driver p50 / chain p50).
Targets on the 2-core reference machine: p95 <= 5 ms (heuristic backend), ratio <= 1.5.
"""

from __future__ import annotations

import argparse
import statistics
import time
import uuid
from pathlib import Path

from dataflow.batch import read_set, turn_from_row
from dataflow.driver import TurnRunner
from stages import anchors, candidates, checks, decision, history, judge, normalization, planner, reply_meta, routing


def plain_chain(turn, kiwi, registry, trace_id):
    nt = normalization.normalized_text(turn, kiwi, registry)
    hist = history.history_evidence(turn)
    clauses = anchors.clause_analyses(nt, registry)
    hints = anchors.preclassifier_hints(clauses, nt, hist, registry)
    allowed = routing.allowed_route_families(hints, hist)
    catalog = routing.flow_catalog(allowed, registry)
    ranked = routing.ranked_flows__inline(catalog, hints, registry)
    obj = reply_meta.reply_object_meta__deterministic(hints)
    rep = reply_meta.replyability_meta__deterministic(hints)
    pool = candidates.candidate_pool(ranked, catalog, hist, registry)
    scores = planner.family_scores(hints, registry)
    short = planner.schedule_short_circuit(hist, hints)
    plan = planner.planner_output__heuristic(clauses, hints, scores, pool, short, rep, hist, turn, registry)
    verdict = judge.second_pass_verdict(plan, hints, obj, rep, registry)
    corrected = checks.corrected_plan(plan, verdict, clauses, hints, hist, turn, registry)
    report = checks.plan_check_report(corrected, registry)
    final = checks.final_plan(corrected, report, registry)
    return decision.decision_record(final, verdict, report, hints, scores, obj, rep, pool, short, nt, trace_id)


def pct(values, q):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--set", type=Path, default=Path(__file__).resolve().parents[1] / "data/utterances/core.jsonl")
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    runner = TurnRunner()
    turns = [turn_from_row(row) for _, row, err in read_set(args.set) if row and not err]
    for turn in turns[:20]:  # warm caches
        runner.route(turn)
        plain_chain(turn, runner.kiwi, runner.registry, "warm")
    drv, chain = [], []
    for _ in range(args.repeat):
        for turn in turns:
            t0 = time.perf_counter()
            runner.route(turn)
            t1 = time.perf_counter()
            plain_chain(turn, runner.kiwi, runner.registry, uuid.uuid4().hex)
            t2 = time.perf_counter()
            drv.append((t1 - t0) * 1000)
            chain.append((t2 - t1) * 1000)
    print(f"turns: {len(drv)} ({len(turns)} rows x {args.repeat})")
    print(f"driver: p50 {pct(drv, .5):.3f} ms  p95 {pct(drv, .95):.3f} ms  mean {statistics.mean(drv):.3f} ms")
    print(f"chain:  p50 {pct(chain, .5):.3f} ms  p95 {pct(chain, .95):.3f} ms  mean {statistics.mean(chain):.3f} ms")
    print(f"driver overhead ratio (p50): {pct(drv, .5) / pct(chain, .5):.2f}  (target <= 1.5)")
    print(f"p95 target <= 5 ms: {'met' if pct(drv, .95) <= 5 else 'NOT met'}")


if __name__ == "__main__":
    main()
