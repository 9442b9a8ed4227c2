"""Out-of-fold choice of the learned opening threshold, with no holdout read.

    python benchmarks/learned_folds.py [--thresholds 0.7 0.75 0.8 0.85 0.9] [--folds 5] [--work DIR]

The rows are the ones the shipped learned model was fitted on (the sets its `trained_on` names). They are cut
into K folds by a hash of their ids. For each fold the model is fitted again on the other folds
(`dataflow/workbench/learned.fit_learned_model`, the shipped model's features). The held fold is then routed
through the real DAG with that model, once per threshold (`learned_opening.min_probability`). So every row is
decided by a model that never saw it.

Prints, per threshold, the planner's family accuracy over all fit rows and the false actions; the shipped
threshold is marked. About 2 minutes a threshold and 1.5 minutes a fold model on 2 cores. Session 45 chose
0.8 this way (9,835 of 10,466 against 9,816 at 0.9, false actions equal).
"""

from __future__ import annotations

import argparse
import copy
import hashlib
import json
import sys
import tempfile
from pathlib import Path

from dataflow.driver import TurnRunner
from dataflow.rows import is_question_row, read_set
from dataflow.workbench.batch import run_batch
from dataflow.workbench.learned import fit_learned_model, row_family
from registry.learned_model import LearnedFamilyModel
from registry.loader import load_registry

ROOT = Path(__file__).resolve().parent.parent


def fitted_sets(trained_on: str) -> list[Path]:
    """The set files a model's `trained_on` names (core.jsonl, ..., dqr_train_v9.jsonl (N rows fitted, ...))."""
    names = trained_on.split(" (", 1)[0].split(", ")
    found = [next((d / n for d in (ROOT / "data/utterances", ROOT / "data/questions") if (d / n).exists()), None) for n in names]
    missing = [n for n, p in zip(names, found) if p is None]
    if missing:
        raise SystemExit(f"sets the model names are missing: {', '.join(missing)}")
    return [p for p in found if p is not None]


def labelled(paths: list[Path]) -> list[dict]:
    """Every row naming its family (a product question is DQR), its id prefixed by its set."""
    rows = []
    for path in paths:
        for _, row, error in read_set(path):
            family = row_family(row) if row and not error else None
            if family is not None:  # a question row is routed as the utterance it is, scored as DQR
                kept = {"text": row["text"]} if is_question_row(row) else row
                rows.append({**kept, "id": f"{path.stem}:{row['id']}", "expect": {**(kept.get("expect") or {}), "family": family}})
    return rows


def _fold(row_id: str, k: int) -> int:
    return int(hashlib.sha1(row_id.encode("utf-8")).hexdigest()[:8], 16) % k


def fold_models(rows: list[dict], k: int, work: Path, features: tuple[str, ...]) -> list[tuple[Path, Path]]:
    """(held fold's set, model fitted without it) per fold; a model already in `work` is reused."""
    out = []
    for fold in range(k):
        train, test, model = work / f"fold{fold}_train.jsonl", work / f"fold{fold}_test.jsonl", work / f"model{fold}.npz"
        with train.open("w", encoding="utf-8") as a, test.open("w", encoding="utf-8") as b:
            for row in rows:
                (b if _fold(row["id"], k) == fold else a).write(json.dumps(row, ensure_ascii=False) + "\n")
        if not model.exists():
            print(f"fitting fold {fold + 1}/{k} ...", file=sys.stderr, flush=True)
            fit_learned_model([train], model, features=features)
        out.append((test, model))
    return out


def route_folds(folds: list[tuple[Path, Path]], threshold: float) -> tuple[float, int, int]:
    """(rows decided right, rows, false actions) over the held folds at one opening threshold."""
    base = load_registry()
    weights = base.weights.model_dump()
    weights["learned_opening"]["min_probability"] = threshold
    right, rows, false = 0.0, 0, 0
    for test, model in folds:
        registry = copy.copy(base)
        registry.learned = LearnedFamilyModel.load(model)
        registry.weights = type(base.weights).model_validate(weights)
        m = run_batch(TurnRunner(registry=registry), test)
        right += (m["family_accuracy"] or 0.0) * m["rows"]
        rows += m["rows"]
        false += m["false_actions"]
    return right, rows, false


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--thresholds", type=float, nargs="+", default=[0.7, 0.75, 0.8, 0.85, 0.9])
    ap.add_argument("--folds", type=int, default=5)
    ap.add_argument("--work", type=Path, default=None, help="keep the fold sets and models here (reused on a rerun)")
    args = ap.parse_args(argv)
    shipped = load_registry()
    if shipped.learned is None:
        raise SystemExit("no learned model in the registry: fit one with a2a learn first")
    rows = labelled(fitted_sets(shipped.learned.trained_on))
    with tempfile.TemporaryDirectory() as tmp:
        work = args.work or Path(tmp)
        work.mkdir(parents=True, exist_ok=True)
        folds = fold_models(rows, args.folds, work, shipped.learned.features)
        print(f"{'threshold':>9s} {'right':>9s} {'rows':>6s} {'family':>7s} {'false':>6s}")
        for t in args.thresholds:
            right, n, false = route_folds(folds, t)
            mark = "  (shipped)" if t == shipped.weights.learned_opening.min_probability else ""
            print(f"{t:9.2f} {right:9.1f} {n:6d} {right / n:7.4f} {false:6d}{mark}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
