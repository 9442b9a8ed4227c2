"""Retrieval metrics on a DQR question set and the calibration of answerability.

Retrieval is evaluated on every question with path B forced open (the driver's `dqr_owns_turn`
overridden), so the figures measure retrieval, not routing; how many questions the router
gives to DQR is reported beside them. Calibration fits the answerability model on a fixed,
stratified half of the set and reports the other half as held out.
"""

from __future__ import annotations

import hashlib
import json
import uuid
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Callable, Iterable

import numpy as np

from dataflow.driver import TurnRunner
from rag.store import CALIBRATION_FILE, RAG_DATA_DIR, Calibration
from registry.contracts import TurnInput
from registry.knowledge_contracts import KnowledgeAnswer
from registry.record_contracts import DecisionRecord
from dataflow.rows import is_question_row, refuse_holdout
from registry.errors import InputError
from registry.knowledge_contracts import RetrievalResult

FEATURES = ("focus_coverage", "evidence_coverage", "top_bm25_ratio", "dense_top", "graph_support", "top_focus_share",
            "focus_breadth")
FUSION_GRID = [{"dense": d, "graph": g} for d in (0.0, 0.25, 0.5) for g in (0.0, 0.3, 0.6)]


@dataclass(frozen=True)
class QuestionOutcome:
    id: str
    expected_ids: list[str]
    expected_answerability: str | None
    ranked_ids: list[str]
    answerability: str
    features: dict[str, float]
    answer: KnowledgeAnswer | None


def read_questions(path: Path) -> list[dict[str, Any]]:
    rows = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except json.JSONDecodeError as exc:
            raise InputError(f"{path}: line {number}: malformed JSON ({exc.msg})") from None
        if not isinstance(row, dict) or not is_question_row(row):
            raise InputError(f"{path}: line {number}: a question row needs 'question' and 'expected_source_ids'")
        rows.append(row)
    if not rows:
        raise InputError(f"{path}: no questions")
    return rows


def read_fit_questions(paths: list[Path]) -> list[dict[str, Any]]:
    """The questions of the sets a calibration fits on; a holdout set is refused (it stays unfitted), and an id
    that two sets share is an error (the train/held-out split is by id)."""
    rows: list[dict[str, Any]] = []
    for path in paths:
        refuse_holdout(path)
        rows += read_questions(path)
    seen: set[str] = set()
    for row in rows:
        if str(row["id"]) in seen:
            raise InputError(f"question id {row['id']} appears twice across the sets")
        seen.add(str(row["id"]))
    return rows


def _stratified_split(rows: list[dict[str, Any]]) -> dict[str, str]:
    strata: dict[tuple, list[dict[str, Any]]] = {}
    for row in rows:
        strata.setdefault((row.get("answerability"), bool(row.get("needs_relation"))), []).append(row)
    out = {}
    for members in strata.values():
        members.sort(key=lambda r: hashlib.sha1(str(r["id"]).encode()).hexdigest())
        for i, row in enumerate(members):
            out[str(row["id"])] = "train" if i % 2 == 0 else "heldout"
    return out


def run_question(runner: TurnRunner, question: str) -> tuple[RetrievalResult | None, KnowledgeAnswer | None]:
    """Path B for one question regardless of the route (the gate node is overridden)."""
    store = runner.knowledge
    result = runner.driver.execute(
        ["retrieval", "dqr_answer"],
        inputs={"turn_input": TurnInput(recognized_text=question), "kiwi": runner.kiwi, "registry": runner.registry,
                "trace_id": uuid.uuid4().hex, **store.turn_inputs()},
        overrides={"dqr_owns_turn": True},
    )
    retrieval, answer = result["retrieval"], result["dqr_answer"]
    return (retrieval if isinstance(retrieval, RetrievalResult) else None,
            answer if isinstance(answer, KnowledgeAnswer) else None)


def evaluate_questions(runner: TurnRunner, rows: list[dict[str, Any]], advance: Callable[[], None] = lambda: None) -> list[QuestionOutcome]:
    runner.knowledge.require()
    outcomes = []
    for row in rows:
        retrieval, answer = run_question(runner, row["question"])
        outcomes.append(QuestionOutcome(
            id=str(row["id"]), expected_ids=list(row.get("expected_source_ids") or []), expected_answerability=row.get("answerability"),
            ranked_ids=[h.source_id for h in retrieval.hits] if retrieval else [],
            answerability=retrieval.answerability if retrieval else "insufficient",
            features={f: getattr(retrieval.signals, f) for f in FEATURES} if retrieval else {f: 0.0 for f in FEATURES},
            answer=answer,
        ))
        advance()
    return outcomes


def retrieval_metrics(outcomes: Iterable[QuestionOutcome]) -> dict[str, Any]:
    """recall@k = share of answerable questions with an expected section in the top k (hit rate);
    full_recall@5 = share with every expected section in the top 5; MRR of the first expected section."""
    outcomes = list(outcomes)
    answerable = [o for o in outcomes if o.expected_ids]
    labelled = [o for o in outcomes if o.expected_answerability]

    def first_rank(o: QuestionOutcome) -> int | None:
        return next((i for i, sid in enumerate(o.ranked_ids) if sid in o.expected_ids), None)

    ranks = [first_rank(o) for o in answerable]
    rate = lambda xs: round(sum(xs) / len(xs), 4) if xs else None  # noqa: E731
    confusion: dict[str, dict[str, int]] = {}
    for o in labelled:
        confusion.setdefault(o.expected_answerability, {}).setdefault(o.answerability, 0)
        confusion[o.expected_answerability][o.answerability] += 1
    return {
        "questions": len(outcomes),
        "answerable": len(answerable),
        "recall@1": rate([r == 0 for r in ranks]),
        "recall@5": rate([r is not None and r < 5 for r in ranks]),
        "full_recall@5": rate([all(e in o.ranked_ids[:5] for e in o.expected_ids) for o in answerable]),
        "mrr": rate([1.0 / (r + 1) if r is not None else 0.0 for r in ranks]),
        "answerability_accuracy": rate([o.answerability == o.expected_answerability for o in labelled]),
        "answerability_confusion": confusion,
        "misses_at_5": [o.id for o, r in zip(answerable, ranks) if r is None or r >= 5],
        "answerability_errors": [o.id for o in labelled if o.answerability != o.expected_answerability],
    }


def _contains_any(answer: KnowledgeAnswer | None, wanted: list[str]) -> bool:
    if answer is None:
        return False
    text = "".join(answer.text.split()).lower()
    return any("".join(w.split()).lower() in text for w in wanted if w.strip())


def answer_accuracy(rows: list[dict[str, Any]], answers: dict[str, KnowledgeAnswer | None]) -> float | None:
    """Share of sufficient rows with an `answer_contains_any` list whose answer contains one of its strings."""
    scored = [r for r in rows if r.get("answerability") != "insufficient" and r.get("answer_contains_any")]
    if not scored:
        return None
    return round(sum(_contains_any(answers.get(str(r["id"])), r["answer_contains_any"]) for r in scored) / len(scored), 4)


def end_to_end_metrics(rows: list[dict[str, Any]], records: list[DecisionRecord]) -> dict[str, Any]:
    """What a user experiences, through the real route: the share of questions that reach DQR, answer accuracy (the
    expected fact in the answer of the turn as routed) and answerability accuracy (a question that never reached DQR
    counts as wrong)."""
    by_id = {str(r.id): r for r in records if r.id is not None}
    routed = [by_id.get(str(row["id"])) for row in rows]
    reach = [r is not None and r.family == "DQR" for r in routed]
    answers = {str(row["id"]): (r.answer if r is not None and r.family == "DQR" else None) for row, r in zip(rows, routed)}
    labelled = [(row, answers[str(row["id"])]) for row in rows if row.get("answerability")]
    return {
        "questions": len(rows),
        "reach_dqr": round(sum(reach) / len(reach), 4) if reach else None,
        "answer_accuracy": answer_accuracy(rows, answers),
        "answerability_accuracy": round(sum(a is not None and a.answerability == row["answerability"] for row, a in labelled)
                                        / len(labelled), 4) if labelled else None,
        "not_reaching_dqr": [str(row["id"]) for row, ok in zip(rows, reach) if not ok],
        "wrong_answers": [str(row["id"]) for row in rows if row.get("answerability") != "insufficient"
                          and row.get("answer_contains_any") and not _contains_any(answers[str(row["id"])], row["answer_contains_any"])],
    }


def knowledge_metrics(runner: TurnRunner, rows: list[dict[str, Any]], records: list[DecisionRecord] | None = None,
                      advance: Callable[[], None] = lambda: None) -> dict[str, Any]:
    """The metrics `a2a batch --answer` prints for a question set: overall and per split."""
    outcomes = evaluate_questions(runner, rows, advance)
    split = _stratified_split(rows)
    metrics = retrieval_metrics(outcomes)
    metrics["by_split"] = {name: retrieval_metrics(o for o in outcomes if split[o.id] == name) for name in ("train", "heldout")}
    metrics["answer_accuracy_forced_open"] = answer_accuracy(rows, {o.id: o.answer for o in outcomes})
    if records is not None:
        metrics["routed_to_dqr"] = round(sum(r.family == "DQR" for r in records) / len(records), 4) if records else None
        metrics["answered_turns"] = sum(r.answer is not None for r in records)
        metrics["end_to_end"] = end_to_end_metrics(rows, records)
    metrics["index_version"] = runner.knowledge.index_version
    metrics["calibration"] = runner.knowledge.calibration.fitted_on.get("version", "uncalibrated")
    return metrics


# --- calibration -------------------------------------------------------------------------------


def _fit_logistic(x: np.ndarray, y: np.ndarray, l2: float = 1.0, iterations: int = 50) -> tuple[np.ndarray, float]:
    """L2-regularised logistic regression by Newton steps on standardised features; weights returned
    on the original scale."""
    mean, std = x.mean(axis=0), x.std(axis=0)
    std[std == 0] = 1.0
    z = np.hstack([(x - mean) / std, np.ones((len(x), 1))])
    beta = np.zeros(z.shape[1])
    penalty = np.eye(z.shape[1]) * l2
    penalty[-1, -1] = 0.0
    for _ in range(iterations):
        p = 1.0 / (1.0 + np.exp(-(z @ beta)))
        grad = z.T @ (p - y) + penalty @ beta
        hess = (z.T * (p * (1 - p))) @ z + penalty
        step = np.linalg.solve(hess, grad)
        beta -= step
        if np.max(np.abs(step)) < 1e-8:
            break
    w = beta[:-1] / std
    return w, float(beta[-1] - np.sum(beta[:-1] * mean / std))


def _mrr(outcomes: list[QuestionOutcome]) -> float:
    return retrieval_metrics(outcomes)["mrr"] or 0.0


def calibration_steps(rows: list[dict[str, Any]], keep_fusion: bool = False) -> int:
    """How many questions `calibrate` runs with a progress step: the train half once per fusion setting ranked (none
    when the fusion is kept), then all."""
    grid = 0 if keep_fusion else len(FUSION_GRID)
    return sum(part == "train" for part in _stratified_split(rows).values()) * grid + len(rows)


def calibrate(runner: TurnRunner, rows: list[dict[str, Any]], out_dir: Path = RAG_DATA_DIR,
              advance: Callable[[], None] = lambda: None, keep_fusion: bool = False) -> dict[str, Any]:
    """Fit fusion weights (by train MRR; `keep_fusion`: the current ones only) and the answerability model
    (logistic, on train) and write them."""
    store = runner.knowledge
    split = _stratified_split(rows)
    train_rows = [r for r in rows if split[str(r["id"])] == "train"]
    base = store.calibration
    grid = [dict(base.fusion)] if keep_fusion else FUSION_GRID
    best: tuple[float, dict[str, float]] | None = (0.0, grid[0]) if keep_fusion else None  # (one setting: nothing to rank)
    try:
        # best train MRR; among ties the setting closest to the current one
        for fusion in [] if keep_fusion else sorted(grid, key=lambda f: sum(abs(f[k] - base.fusion.get(k, 0.0)) for k in f)):
            store.calibration = replace(base, fusion=fusion)
            score = _mrr(evaluate_questions(runner, train_rows, advance))
            if best is None or score > best[0] + 1e-9:
                best = (score, fusion)
        store.calibration = replace(base, fusion=best[1])
        outcomes = evaluate_questions(runner, rows, advance)
        train = [o for o in outcomes if split[o.id] == "train"]
        x = np.array([[o.features[f] for f in FEATURES] for o in train])
        y = np.array([0.0 if o.expected_answerability == "insufficient" else 1.0 for o in train])
        if len(set(y.tolist())) < 2:
            raise InputError("calibration needs both sufficient and insufficient questions in its train half; "
                             f"this one has {len(train)} of one kind only")
        w, b = _fit_logistic(x, y)
        fitted = Calibration(weights={f: round(float(v), 4) for f, v in zip(FEATURES, w)}, bias=round(b, 4), threshold=0.5,
                             fusion=best[1])
        store.calibration = fitted
        final = evaluate_questions(runner, rows)
    except BaseException:
        store.calibration = base
        raise
    by_split = {name: retrieval_metrics(o for o in final if split[o.id] == name) for name in ("train", "heldout")}
    version = hashlib.sha1(json.dumps([fitted.weights, fitted.bias, fitted.fusion], sort_keys=True).encode()).hexdigest()[:10]
    summary = {name: {k: v for k, v in m.items() if k in ("questions", "recall@1", "recall@5", "mrr", "answerability_accuracy")}
               for name, m in by_split.items()}
    fitted = replace(fitted, fitted_on={"version": version, "questions": len(rows),
                                        "split": "stratified halves by sha1(id) within answerability x needs_relation",
                                        "train_questions": len(train_rows), "fusion_grid": grid,
                                        "index_version": store.index_version, "metrics": summary})
    store.calibration = fitted
    out_dir.mkdir(parents=True, exist_ok=True)
    (out_dir / CALIBRATION_FILE).write_text(json.dumps({
        "version": version, "weights": fitted.weights, "bias": fitted.bias, "threshold": fitted.threshold,
        "fusion": fitted.fusion, "features": list(FEATURES), "fitted_on": fitted.fitted_on,
    }, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    return {"fusion": fitted.fusion, "weights": fitted.weights, "bias": fitted.bias, **summary}
