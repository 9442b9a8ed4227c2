"""Knowledge index build time and retrieval latency, on the real manual and on a synthetic expansion.

    python benchmarks/retrieval.py [--synthetic 10000] [--repeat 3] [--skip-synthetic]

Prints:
- index build time (cold), a no-change rebuild and a one-document rebuild (incremental);
- retrieval p50/p95 over data/questions/dqr.jsonl: `retrieve()` alone (the SQL and evidence
  work) and path B as a DQR turn adds it (question analysis, graph projection, retrieval,
  answer, through the driver);
- the same on the corpus expanded with synthetic manuals to --synthetic sections
  (target: retrieval p95 <= 20 ms at 10,000 sections on the 2-core reference machine);
- routing p50/p95 of non-DQR turns (data/utterances/core.jsonl) with and without a knowledge
  store attached (path B must cost them nothing measurable).
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import statistics
import tempfile
import time
import uuid
from pathlib import Path

from dataflow.rows import read_set, turn_from_row
from dataflow.driver import TurnRunner, shared_kiwi
from dataflow.knowledge import DEFAULT_CORPUS, DEFAULT_GRAPH, build_knowledge_index
from rag.corpus import read_corpus
from rag.ranking import index_view
from rag.retrieve import retrieve
from rag.store import KnowledgeStore
from registry.contracts import TurnInput
from registry.knowledge_contracts import KnowledgeQuery
from registry.loader import load_registry

ROOT = Path(__file__).resolve().parents[1]
QUESTIONS = ROOT / "data/questions/dqr.jsonl"
CORE = ROOT / "data/utterances/core.jsonl"


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def line(label: str, values: list[float]) -> str:
    return f"{label:<52} p50 {pct(values, 0.5):7.2f} ms   p95 {pct(values, 0.95):7.2f} ms   (n={len(values)})"


def synthesize(corpus: Path, out: Path, sections: int, seed: int = 7) -> int:
    """Copy the manual and add synthetic manuals (recombined, renumbered sentences) up to `sections`."""
    rng = random.Random(seed)
    docs = read_corpus(corpus)
    for path in corpus.glob("*.md"):
        shutil.copy(path, out / path.name)
    sentences = [s for d in docs for sec in d.sections for s in sec.text.replace("\n", " ").split(". ") if len(s) > 12]
    titles = [sec.title for d in docs for sec in d.sections]
    have = sum(len(d.sections) for d in docs)
    per_doc, n_doc = 100, 0
    while have < sections:
        n_doc += 1
        count = min(per_doc, sections - have)
        lines = ["---", f"doc_id: synthetic_{n_doc:03d}", "version: v1", "valid_at: 2024-01-01", f"title: synthetic {n_doc}", "---", ""]
        for i in range(1, count + 1):
            body = ". ".join(rng.sample(sentences, 4))
            body = "".join(str(rng.randint(1, 99)) if ch.isdigit() else ch for ch in body)  # other numbers, same shape
            lines += [f"## [SYN{n_doc:03d}-S{i:03d}] {i // 10 + 1}.{i % 10 + 1} {rng.choice(titles)} {rng.randint(1, 999)}", "", body + ".", ""]
        (out / f"synthetic_{n_doc:03d}.md").write_text("\n".join(lines), encoding="utf-8")
        have += count
    return have


def time_build(db: Path, corpus: Path, kiwi, registry) -> tuple[float, dict]:
    started = time.perf_counter()
    summary = build_knowledge_index(db, kiwi, registry, corpus, DEFAULT_GRAPH)
    return time.perf_counter() - started, summary.counts


def path_b_latencies(runner: TurnRunner, questions: list[str], repeat: int) -> tuple[list[float], list[float]]:
    """(retrieve() alone, path B as a DQR turn runs it) per question, after one warm-up pass.

    Path B is the second execution TurnRunner makes once DQR owns a turn: question analysis,
    graph projection, retrieval and the answer, given the turn's normalized text."""
    store = runner.knowledge
    con = store.require()
    view = index_view(con, store.clock())
    prepared = []
    for q in questions:
        inputs = {"turn_input": TurnInput(recognized_text=q), "kiwi": runner.kiwi, "registry": runner.registry,
                  "trace_id": uuid.uuid4().hex, **store.turn_inputs()}
        normalized = runner.driver.execute(["normalized_text"], inputs=inputs)["normalized_text"]
        out = runner.driver.execute(["knowledge_query", "kg_projection"], inputs=inputs,
                                    overrides={"dqr_owns_turn": True, "normalized_text": normalized})
        prepared.append((inputs, normalized, out["knowledge_query"], out["kg_projection"]))
    whole: list[float] = []
    alone: list[float] = []
    for r in range(repeat + 1):
        for inputs, normalized, query, projection in prepared:
            started = time.perf_counter()
            runner.driver.execute(["dqr_answer"], inputs=inputs, overrides={"dqr_owns_turn": True, "normalized_text": normalized})
            middle = time.perf_counter()
            if isinstance(query, KnowledgeQuery):
                retrieve(con, query, projection, view, store.calibration, store.index_version or "")
            if r:
                whole.append((middle - started) * 1000)
                alone.append((time.perf_counter() - middle) * 1000)
    return alone, whole


def routing_latencies(runner: TurnRunner, rows: list[dict], repeat: int) -> list[float]:
    out = []
    for r in range(repeat + 1):
        for row in rows:
            started = time.perf_counter()
            runner.route(turn_from_row(row))
            if r:
                out.append((time.perf_counter() - started) * 1000)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--synthetic", type=int, default=10_000, help="sections in the expanded corpus")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--skip-synthetic", action="store_true")
    args = ap.parse_args()
    kiwi, registry = shared_kiwi(), load_registry()
    questions = [json.loads(x)["question"] for x in QUESTIONS.read_text(encoding="utf-8").splitlines() if x.strip()]
    work = Path(tempfile.mkdtemp(prefix="a2a-retrieval-bench-"))
    try:
        db = work / "real.duckdb"
        seconds, counts = time_build(db, DEFAULT_CORPUS, kiwi, registry)
        print(f"real corpus: {counts['chunks']} sections, {counts['tokens']} tokens, {counts['entities']} entities, {counts['relations']} relations")
        print(f"  build (cold)                 {seconds:7.2f} s")
        seconds, _ = time_build(db, DEFAULT_CORPUS, kiwi, registry)
        print(f"  rebuild, nothing changed     {seconds:7.2f} s")
        changed = work / "changed"
        shutil.copytree(DEFAULT_CORPUS, changed)
        v5 = changed / "r6_manual_v5.md"
        v5.write_text(v5.read_text(encoding="utf-8") + "\n", encoding="utf-8")
        seconds, _ = time_build(db, changed, kiwi, registry)
        print(f"  rebuild, one document edited {seconds:7.2f} s")

        store = KnowledgeStore.open(db)
        runner = TurnRunner(knowledge=store)
        alone, whole = path_b_latencies(runner, questions, args.repeat)
        print(line("  retrieval (retrieve())", alone))
        print(line("  path B in a DQR turn (query+graph+retr.+answer)", whole))

        core = [row for _, row, _ in read_set(CORE) if row]
        plain = TurnRunner()
        non_dqr = [row for row in core if plain.route(turn_from_row(row)).family != "DQR"]
        without = routing_latencies(plain, non_dqr, args.repeat)
        with_store = routing_latencies(runner, non_dqr, args.repeat)
        print(line("non-DQR routing, no knowledge store", without))
        print(line("non-DQR routing, knowledge store attached", with_store))
        print(f"  p50 difference {pct(with_store, 0.5) - pct(without, 0.5):+.3f} ms")
        store.close()

        if not args.skip_synthetic:
            corpus = work / "synthetic"
            corpus.mkdir()
            total = synthesize(DEFAULT_CORPUS, corpus, args.synthetic)
            db = work / "synthetic.duckdb"
            seconds, counts = time_build(db, corpus, kiwi, registry)
            print(f"synthetic corpus: {counts['chunks']} sections ({total} asked), {counts['tokens']} tokens, {counts['postings']} postings")
            print(f"  build (cold)                 {seconds:7.2f} s")
            store = KnowledgeStore.open(db)
            alone, whole = path_b_latencies(TurnRunner(knowledge=store), questions, args.repeat)
            print(line(f"  retrieval at {counts['chunks']} sections", alone))
            print(line(f"  path B in a DQR turn at {counts['chunks']} sections", whole))
            print(f"  target p95 <= 20 ms: {'met' if pct(alone, 0.95) <= 20 else 'NOT met'} (retrieve()), "
                  f"{'met' if pct(whole, 0.95) <= 20 else 'NOT met'} (whole path B)")
            store.close()
        print(f"median question: {statistics.median(len(q) for q in questions)} characters")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
