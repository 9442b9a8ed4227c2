"""The yardstick of issue 10: a character n-gram logistic regression trained on core.jsonl + dev_holdout.jsonl,
against the planner, on the sets neither was fitted on.

    python benchmarks/ngram_baseline.py [--sets holdout_v2 holdout_v3 holdout_v4 holdout_v5 holdout_v6 holdout_v7 holdout_v8 train_v3 train_v4]

The baseline is the same hashed character 1-3-gram softmax as the planner's learned evidence
(dataflow/workbench/learned.py), fitted here on the two sets the issue names; it is a yardstick only and is
never written to the registry. Prints, per set, both family accuracies and their difference.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np

from dataflow.driver import TurnRunner
from dataflow.rows import decide_rows, read_set
from dataflow.workbench.learned import BUCKETS, fit_softmax
from registry.contracts import FAMILIES
from stages.ngram_model import family_probabilities, ngram_buckets

ROOT = Path(__file__).resolve().parent.parent
SETS_DIR = ROOT / "data/utterances"
TRAIN = ("core", "dev_holdout")


def _set_path(name: str) -> Path:
    """A set named as in data/utterances (blind_v44_holdout) or given as a path to a .jsonl file."""
    given = Path(name)
    return given if given.suffix == ".jsonl" and given.exists() else SETS_DIR / f"{given.stem}.jsonl"


def _labelled(name: str) -> list[dict]:
    return [row for _, row, error in read_set(_set_path(name))
            if not error and row and (row.get("expect") or {}).get("family")]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sets", nargs="*", default=["holdout_v2", "holdout_v3", "holdout_v4", "holdout_v5", "holdout_v6", "holdout_v7", "holdout_v8", "train_v3", "train_v4"])
    args = parser.parse_args()
    missing = [name for name in args.sets if not _set_path(name).exists()]
    if missing:
        parser.error(f"no such set: {', '.join(missing)} (a name in {SETS_DIR.relative_to(ROOT)} or a path to a .jsonl file)")
    train = [row for name in TRAIN for row in _labelled(name)]
    index = {f: i for i, f in enumerate(FAMILIES)}
    weights, bias = fit_softmax([ngram_buckets(r["text"], BUCKETS) for r in train],
                                np.array([index[r["expect"]["family"]] for r in train]), l2=1e-4, steps=300)
    runner = TurnRunner()
    print(f"baseline fitted on {' + '.join(TRAIN)} ({len(train)} rows)\n")
    print(f"{'set':<14}{'rows':>6}{'n-gram':>9}{'planner':>9}{'gain':>8}")
    for name in args.sets:
        rows = _labelled(name)
        if not rows:
            print(f"{Path(name).stem:<14}{0:>6}  (no row with expect.family)")
            continue
        expected = [r["expect"]["family"] for r in rows]
        baseline = [FAMILIES[int(np.argmax(family_probabilities(weights, bias, 1.0, r["text"])))] for r in rows]
        planner = [rec.family for rec in decide_rows(runner, [(i + 1, r, None) for i, r in enumerate(rows)])]
        b = sum(e == g for e, g in zip(expected, baseline)) / len(rows)
        p = sum(e == g for e, g in zip(expected, planner)) / len(rows)
        print(f"{Path(name).stem:<14}{len(rows):>6}{b:>9.3f}{p:>9.3f}{p - b:>+8.3f}")


if __name__ == "__main__":
    main()
