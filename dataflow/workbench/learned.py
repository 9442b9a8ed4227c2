"""Fitting the learned family model: softmax regression on hashed character n-grams (and, with --features
char,morph, Kiwi's morphemes), temperature-calibrated.

    a2a learn data/utterances/core.jsonl data/utterances/train_v2.jsonl ... [--out registry/learned_family.npz]

Rows with `expect.family` are fitted on; a stable hash of each row id keeps a share aside for calibration
(the temperature) and for the report. The model is evidence: the planner reads each family's
probability as an axis (`learned_<FAMILY>`), weighted like every other axis, and it never licenses an
action. Holdout sets are refused: they stay unfitted.
"""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

import numpy as np

from dataflow.rows import read_set, refuse_holdout
from dataflow.workbench import QUESTION_WEIGHT
from registry.contracts import FAMILIES
from registry.errors import InputError
from registry.learned_model import FEATURE_KINDS
from stages.ngram_model import MORPHEME_FEATURES, feature_buckets, probabilities_of

BUCKETS = 1 << 14


WRITTEN_MARKS = re.compile(r"\s*(?:[?!~…]|(?<!\d)[.,]|[.,](?!\d))+\s*")
"""Marks a writer adds; a point or comma between digits is the number's (35.5)."""


def unmarked(text: str) -> str:
    """The text as a recognizer that writes no marks would give it: a writer's 비 와? is heard as 비 와 too."""
    return WRITTEN_MARKS.sub(" ", text).strip()


def _split(row_id: str, share: float) -> bool:
    """True for rows kept aside for calibration (stable: a hash of the id)."""
    return int(hashlib.sha1(row_id.encode("utf-8")).hexdigest()[:8], 16) / 0xFFFFFFFF < share


def row_family(row: dict) -> str | None:
    """The family a labelled row names: its expect.family, or DQR for a row of a product-question set (data/questions:
    every row is a question about the robot); None when it names none."""
    family = (row.get("expect") or {}).get("family") if isinstance(row.get("expect"), dict) else None
    if family is None and isinstance(row.get("question"), str):
        family = "DQR"
    return family if family in FAMILIES else None


def _labelled(paths: list[Path]) -> list[tuple[str, str, str, bool]]:
    """(id, text, family, asked) of every row that names its family, `asked` for a product-question set's row (one
    with a `question`); holdout sets are refused."""
    rows = []
    for path in paths:
        refuse_holdout(path)
        for number, row, error in read_set(path):
            family = row_family(row) if row and not error else None
            if family is not None:
                rows.append((f"{path.name}:{row.get('id', number)}", row["text"], family, isinstance(row.get("question"), str)))
    return rows


def labelled_rows(paths: list[Path]) -> list[tuple[str, str, str]]:
    """(id, text, family) of every row that names its family; holdout sets are refused."""
    return [(i, text, family) for i, text, family, _ in _labelled(paths)]


def prior_shift(rows: list[tuple[str, str, str]], asked: frozenset[str], question_weight: float, temperature: float) -> np.ndarray:
    """The bias change that sets the model's family prior to the turns' prior: a product-question set holds nothing but
    product questions, so it teaches what they look like, not how often the robot hears one. Its rows count
    `question_weight` each in the prior (1: as fitted; 0: the utterance sets' shares alone). Added to the bias (before
    the temperature divides it), the log ratio of the two priors moves every turn's odds alike."""
    fitted = np.array([sum(f == fam for _, _, f in rows) for fam in FAMILIES], dtype=np.float64)
    heard = np.array([sum((question_weight if i in asked else 1.0) for i, _, f in rows if f == fam) for fam in FAMILIES])
    if fitted.sum() == 0 or heard.sum() == 0:
        return np.zeros(len(FAMILIES), dtype=np.float32)
    ratio = np.where((fitted > 0) & (heard > 0), (heard / heard.sum()) / np.maximum(fitted / fitted.sum(), 1e-12), 1.0)
    return (temperature * np.log(ratio)).astype(np.float32)


def fit_softmax(features: list[np.ndarray], labels: np.ndarray, l2: float, steps: int) -> tuple[np.ndarray, np.ndarray]:
    """Full-batch Adam on the softmax loss; features are bucket-id arrays (scaled by 1/sqrt(length))."""
    n, k = len(features), len(FAMILIES)
    cols = np.concatenate(features)
    lengths = np.array([len(f) for f in features])
    starts = np.concatenate([[0], np.cumsum(lengths)[:-1]])
    scale = 1.0 / np.sqrt(np.maximum(lengths, 1))
    weights = np.zeros((BUCKETS, k), dtype=np.float64)
    bias = np.zeros(k)
    onehot = np.eye(k)[labels]
    m_w, v_w, m_b, v_b = np.zeros_like(weights), np.zeros_like(weights), np.zeros(k), np.zeros(k)
    for t in range(1, steps + 1):
        summed = np.add.reduceat(weights[cols], starts, axis=0) * scale[:, None] + bias
        summed -= summed.max(axis=1, keepdims=True)
        prob = np.exp(summed)
        prob /= prob.sum(axis=1, keepdims=True)
        err = (prob - onehot) / n
        grad_w = np.zeros_like(weights)
        np.add.at(grad_w, cols, np.repeat(err * scale[:, None], lengths, axis=0))
        grad_w += l2 * weights
        grad_b = err.sum(axis=0)
        for param, grad, m, v in ((weights, grad_w, m_w, v_w), (bias, grad_b, m_b, v_b)):
            m *= 0.9
            m += 0.1 * grad
            v *= 0.999
            v += 0.001 * grad * grad
            param -= 0.05 * (m / (1 - 0.9 ** t)) / (np.sqrt(v / (1 - 0.999 ** t)) + 1e-8)
    return weights.astype(np.float32), bias.astype(np.float32)


def _features(texts: list[str], kinds: tuple[str, ...]) -> list[np.ndarray]:
    """Each text's feature buckets as the planner computes them: with morphemes, the text goes through the
    normalization stage (Kiwi, as in a turn) first."""
    if MORPHEME_FEATURES not in kinds:
        return [feature_buckets(text, (), BUCKETS, kinds) for text in texts]
    from dataflow.driver import shared_kiwi
    from registry.contracts import TurnInput
    from registry.loader import load_registry
    from stages.normalization import normalized_text

    kiwi, registry = shared_kiwi(), load_registry()
    out = []
    for text in texts:
        nt = normalized_text(TurnInput(recognized_text=text), kiwi, registry)
        out.append(feature_buckets(text, nt.morphemes, BUCKETS, kinds))
    return out


def _temperature(weights: np.ndarray, bias: np.ndarray, features: list[np.ndarray], labels: np.ndarray) -> float:
    """The temperature that minimises the calibration part's log loss: a coarse grid, then a fine one around its
    best. A coarse step alone jitters between refits (0.5 or 0.6 for one optimum near 0.55), and the opening
    threshold reads these probabilities."""
    if not features:
        return 1.0
    logits = np.array([weights[ids].sum(axis=0) / max(len(ids), 1) ** 0.5 + bias for ids in features], dtype=np.float64)
    rows = np.arange(len(labels))

    def loss(temperature: float) -> float:
        scaled = logits / temperature
        scaled -= scaled.max(axis=1, keepdims=True)
        return float(np.mean(np.log(np.exp(scaled).sum(axis=1)) - scaled[rows, labels]))

    coarse = min(np.linspace(0.1, 4.0, 40), key=loss)
    return round(float(min(np.arange(max(coarse - 0.1, 0.05), coarse + 0.1, 0.005), key=loss)), 3)


def fit_learned_model(paths: list[Path], out: Path, calibration_share: float = 0.15, l2: float = 1e-4, steps: int = 300,
                      unmarked_share: float = 1.0, features: tuple[str, ...] = ("char",), question_weight: float = QUESTION_WEIGHT) -> dict:
    """Fit, calibrate and write the model; returns what it was fitted on and its accuracy on the calibration part."""
    if "char" not in features or not set(features) <= FEATURE_KINDS:
        raise InputError(f"the model reads char, or char and {MORPHEME_FEATURES} (got {', '.join(features) or 'nothing'})")
    labelled = _labelled(paths)
    rows, asked = [(i, text, family) for i, text, family, _ in labelled], frozenset(i for i, _, _, q in labelled if q)
    if len(rows) < 50:
        raise InputError(f"only {len(rows)} rows name a family; the model needs a labelled set")
    index = {f: i for i, f in enumerate(FAMILIES)}
    fit_rows = [r for r in rows if not _split(r[0], calibration_share)]
    cal_rows = [r for r in rows if _split(r[0], calibration_share)]
    copies = [(i, unmarked(t), f) for i, t, f in fit_rows  # 비 와? is also heard as 비 와
              if unmarked(t) != t and _split(i + ":unmarked", unmarked_share)]
    fitted = fit_rows + copies
    every = _features([text for _, text, _ in fitted + cal_rows], features)
    weights, bias = fit_softmax(every[:len(fitted)], np.array([index[f] for _, _, f in fitted]), l2, steps)
    cal_labels = np.array([index[f] for _, _, f in cal_rows], dtype=np.int64)
    cal_features = every[len(fitted):]
    temperature = _temperature(weights, bias, cal_features, cal_labels)
    bias = bias + prior_shift(rows, asked, question_weight, temperature)
    predicted = [int(np.argmax(probabilities_of(weights, bias, temperature, ids))) for ids in cal_features]
    accuracy = float(np.mean(np.array(predicted) == cal_labels)) if cal_rows else None
    trained_on = ", ".join(f"{p.name}" for p in paths) + f" ({len(fit_rows)} rows fitted, {len(copies)} of them also without marks, {len(cal_rows)} calibration" \
        + f"; product-question rows count {question_weight:g} each in the prior)"
    out.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(out, weights=weights.astype(np.float16).astype(np.float32), bias=bias, temperature=np.float32(temperature),
                        families=np.array(FAMILIES), trained_on=np.array(trained_on), features=np.array(features))
    summary = {"rows_fitted": len(fit_rows), "unmarked_copies": len(copies), "rows_calibration": len(cal_rows), "temperature": round(temperature, 3),
               "calibration_accuracy": None if accuracy is None else round(accuracy, 4), "question_weight": question_weight,
               "trained_on": trained_on, "out": str(out)}
    return json.loads(json.dumps(summary))
