"""Model economy of the hybrid backend: how often the model is called and how big the requests are.

    python benchmarks/model_economy.py [--set data/utterances/core.jsonl] [--backend hybrid]

Routes the set with the real google-genai client against the local fake Gemini server
(tests/fake_gemini.py, 127.0.0.1), whose usage metadata counts prompt tokens from the request
size (UTF-8 bytes / 4 of the instruction, the messages and the response schema). Prints model
calls per turn, prompt tokens per call (mean, p95, max) per stage, and which path decided.
Targets: <= 0.25 calls per turn, <= 2,500 prompt tokens per call.
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # tests.fake_gemini

from dataflow.rows import read_set, turn_from_row  # noqa: E402
from dataflow.driver import DriverConfig, TurnRunner  # noqa: E402
from dataflow.model_client import client_from_env  # noqa: E402
from tests.fake_gemini import FakeGemini  # noqa: E402


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(math.ceil(q * len(ordered))) - 1)] if ordered else 0.0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--set", type=Path, default=ROOT / "data/utterances/core.jsonl")
    ap.add_argument("--backend", choices=("hybrid", "gemini"), default="hybrid")
    args = ap.parse_args()
    fake = FakeGemini()
    try:
        client = client_from_env(env={"GEMINI_API_KEY": "benchmark", "A2A_GEMINI_BASE_URL": fake.base_url})
        runner = TurnRunner(DriverConfig(planner_backend=args.backend), model_client=client)
        turns = [turn_from_row(row) for _, row, err in read_set(args.set) if row and not err]
        decided: Counter = Counter()
        calls_per_turn = []
        for turn in turns:
            rec = runner.route(turn)
            calls_per_turn.append(rec.usage.model_calls)
            decided[rec.evidence.planner.decided_by] += 1
        by_stage: dict[str, list[int]] = {}
        for body, packet in zip((r["body"] for r in fake.requests), fake.packets()):
            from tests.fake_gemini import _tokens, request_size

            by_stage.setdefault(packet["task"], []).append(_tokens(request_size(body)))
    finally:
        fake.close()
    calls = sum(calls_per_turn)
    tokens = [t for ts in by_stage.values() for t in ts]
    print(f"set: {args.set.name}  backend: {args.backend}  turns: {len(turns)}")
    print(f"model calls: {calls}  per turn: {calls / len(turns):.3f}  (target <= 0.25)")
    print(f"turns that called the model: {sum(1 for c in calls_per_turn if c)}")
    print(f"decided by: {dict(decided)}")
    for stage, values in sorted(by_stage.items()):
        print(f"  {stage}: {len(values)} calls, prompt tokens mean {statistics.mean(values):.0f}  p95 {pct(values, .95):.0f}  max {max(values)}")
    if tokens:
        print(f"prompt tokens per call: mean {statistics.mean(tokens):.0f}  p95 {pct(tokens, .95):.0f}  max {max(tokens)}  (target <= 2,500)")
    met = calls / len(turns) <= 0.25 and (not tokens or max(tokens) <= 2500)
    print(f"targets: {'met' if met else 'NOT met'}")


if __name__ == "__main__":
    main()
