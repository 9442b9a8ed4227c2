"""Evidence-axis tuning: cached per-utterance features, re-scoring under other weights, fitting.

A batch run writes `features.parquet` (utterance-level axis strengths and everything else the
owner decision reads: candidate families, the schedule short-circuit, the reply metas, the
public-target strength, fail-closed plans), `clause_features.parquet` (axis strengths of the
clauses that decide for themselves in multi-route turns) and `evidence_weights.json` (the
weights the run used; `dataflow/workbench/features.py`). `rescore` then replays the owner decision of
`stages/owner_choice.py` (first
pass, clause families, second-pass judge) for every row in numpy + plain Python, without
running the DAG.
"""

from __future__ import annotations

import difflib
import json
import math
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable, Mapping

import numpy as np

from registry.contracts import FAMILIES
from registry.errors import TuningError
from registry.loader import Registry
from registry.registry_models import EvidenceWeights
from stages.ngram_model import LEARNED_PREFIX, learned_scale
from dataflow.workbench.features import WEIGHTS_FILE, EvidenceFeatures, load_features
from stages.owner_choice import choose_owner, public_override_gap, second_pass_pair, second_pass_winner

CORE_GROUP = ("ODL", "FRG", "DEF", "STT_NULL")
"""Raising one axis can lower another family: these four are always compared together."""


def run_weights(run_dir: Path) -> EvidenceWeights:
    """The evidence weights a run was decided with."""
    return read_weights(Path(run_dir) / WEIGHTS_FILE)


def read_weights(path: Path, base: EvidenceWeights | None = None) -> EvidenceWeights:
    """A full weights file, or (with a base) a partial one merged into the base."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise TuningError(f"{path}: weights file not found") from None
    except json.JSONDecodeError as exc:
        raise TuningError(f"{path}: not valid JSON ({exc.msg}, line {exc.lineno})") from None
    if base is not None and isinstance(data, dict) and not {"version", "families", "weights"} <= set(data):
        data = _merge(base.model_dump(), data)
    try:
        return EvidenceWeights.model_validate(data)
    except Exception as exc:  # pydantic's message names the field
        raise TuningError(f"{path}: {exc}") from None


def _merge(base: dict[str, Any], patch: Mapping[str, Any]) -> dict[str, Any]:
    out = dict(base)
    for key, value in patch.items():
        out[key] = _merge(out[key], value) if isinstance(value, Mapping) and isinstance(out.get(key), dict) else value
    return out


def known_axes(weights: EvidenceWeights, features: EvidenceFeatures | None = None) -> list[str]:
    """Axes a weight can be set on: those some family's weights use, and those the run's features hold."""
    return sorted({a for terms in weights.weights.values() for a in terms} | set(features.axes if features is not None else ()))


def with_weight(weights: EvidenceWeights, family: str, axis: str, value: float, axes: Iterable[str] | None = None) -> EvidenceWeights:
    """A copy with one axis weight of one family changed (0 removes the term); with `axes`, an axis not among them
    is refused (a misspelt axis would otherwise become a new term that nothing lights)."""
    if family not in weights.families:
        raise TuningError(f"unknown family {family!r}; one of {', '.join(weights.families)}")
    if axes is not None and axis not in (known := sorted(axes)):
        close = difflib.get_close_matches(axis, known, n=3)
        hint = f"; did you mean {' or '.join(close)}?" if close else "."
        raise TuningError(f"unknown axis {axis!r}: no family's weights use it and the run's features hold no such axis{hint} "
                          f"Known axes: {', '.join(known)}")
    data = weights.model_dump()
    terms = dict(data["weights"].get(family, {}))
    if value:
        terms[axis] = float(value)
    else:
        terms.pop(axis, None)
    data["weights"][family] = terms
    return EvidenceWeights.model_validate(data)


# --- re-scoring ----------------------------------------------------------------------------


def _matrices(weights: EvidenceWeights, axes: list[str]) -> tuple[np.ndarray, np.ndarray]:
    col = {a: j for j, a in enumerate(axes)}
    w = np.zeros((len(weights.families), len(axes)))
    for i, fam in enumerate(weights.families):
        for axis, value in weights.weights.get(fam, {}).items():
            if axis in col:
                w[i, col[axis]] = value
    return np.array([weights.bias.get(f, 0.0) for f in weights.families]), w


def _round3(x: np.ndarray) -> np.ndarray:
    """Python's round(x, 3) elementwise (numpy's differs on a few binary half-way cases)."""
    out = np.round(x, 3)
    frac = np.abs(x * 1000 - np.floor(x * 1000) - 0.5)
    for idx in zip(*np.nonzero(frac < 1e-6)):
        out[idx] = round(float(x[idx]), 3)
    return out


def family_score_matrix(strengths: np.ndarray, weights: EvidenceWeights, axes: list[str]) -> np.ndarray:
    """rows x families: bias + sum of weight x strength, each term rounded as the planner rounds it; the learned
    axes count as `learned_scale` says, as in stages/_plan.py's score_families."""
    bias, w = _matrices(weights, axes)
    terms = _round3(strengths[:, None, :] * w[None, :, :])
    full = _round3(bias[None, :] + terms.sum(axis=2))
    learned = np.array([a.startswith(LEARNED_PREFIX) for a in axes], dtype=bool)
    if not learned.any() or full.shape[1] < 2:
        return full
    lexical = _round3(bias[None, :] + terms[:, :, ~learned].sum(axis=2))
    lit = [np.nonzero(row)[0] for row in strengths]
    scale = np.array([learned_scale(dict(zip(weights.families, lexical[i].tolist())),
                                    {axes[j]: float(strengths[i, j]) for j in lit[i]}, weights) for i in range(len(strengths))])
    if not scale.any():
        return lexical
    scaled = terms.copy()
    scaled[:, :, learned] = _round3(terms[:, :, learned] * scale[:, None, None])
    return _round3(bias[None, :] + scaled.sum(axis=2))


def rescore(features: EvidenceFeatures, weights: EvidenceWeights) -> list[str | None]:
    """The owner family of every row under `weights`, without running the DAG."""
    fams = list(weights.families)
    scores = family_score_matrix(features.strengths, weights, features.axes)
    clause_scores = family_score_matrix(features.clause_strengths, weights, features.axes)
    by_row: dict[int, dict[int, dict[str, float]]] = {}
    for k, (row, ci) in enumerate(zip(features.clause_row.tolist(), features.clause_index.tolist())):
        by_row.setdefault(row, {})[ci] = dict(zip(fams, clause_scores[k].tolist()))
    asked = features.axes.index("has_world_question") if "has_world_question" in features.axes else None
    out: list[str | None] = []
    for i in range(len(features)):
        if features.error[i]:
            out.append(features.run_family[i])
            continue
        row_scores = dict(zip(fams, scores[i].tolist()))
        choice = choose_owner(row_scores, by_row.get(i, {}), int(features.n_clauses[i]), features.allowed[i],
                              bool(features.short_circuit[i]), weights)
        family = choice.family
        pair = second_pass_pair(family, choice.plan_runner_up, choice.needs_second_pass, float(features.public[i]),
                                features.object_type[i], choice.confidence, weights,
                                public_override_gap(row_scores, family, asked is not None and features.strengths[i, asked] > 0))
        if pair is not None:
            family = second_pass_winner(pair, family, float(features.public[i]), features.replyability_type[i], weights)
        if features.fail_closed[i]:
            family = features.run_family[i]  # the plan checks failed closed; a re-score cannot rebuild the plan
        out.append(family)
    return out


# --- comparison ----------------------------------------------------------------------------


def confusion(expected: list[str | None], got: list[str | None]) -> dict[str, Counter]:
    """expected family -> Counter of decided families (rows without an expected family are skipped)."""
    table: dict[str, Counter] = {}
    for e, g in zip(expected, got):
        if e is not None:
            table.setdefault(e, Counter())[g or "ERROR"] += 1
    return table


def per_family(expected: list[str | None], got: list[str | None]) -> dict[str, dict[str, float]]:
    table = confusion(expected, got)
    out = {}
    for fam in FAMILIES:
        tp = table.get(fam, Counter())[fam]
        support = sum(table.get(fam, Counter()).values())
        fp = sum(c[fam] for f, c in table.items() if f != fam)
        p = tp / (tp + fp) if tp + fp else 0.0
        r = tp / support if support else 0.0
        out[fam] = {"precision": p, "recall": r, "f1": 2 * p * r / (p + r) if p + r else 0.0, "support": support}
    return out


def accuracy(expected: list[str | None], got: list[str | None]) -> float | None:
    pairs = [(e, g) for e, g in zip(expected, got) if e is not None]
    return sum(e == g for e, g in pairs) / len(pairs) if pairs else None


@dataclass
class Comparison:
    """Two weightings of the same cached run, side by side."""

    ids: list[str]
    texts: list[str]
    expected: list[str | None]
    before: list[str | None]
    after: list[str | None]

    @property
    def accuracy_before(self) -> float | None:
        return accuracy(self.expected, self.before)

    @property
    def accuracy_after(self) -> float | None:
        return accuracy(self.expected, self.after)

    def per_family_delta(self) -> dict[str, dict[str, float]]:
        """family -> precision/recall/f1 before and after, and the F1 delta; the core group first."""
        b, a = per_family(self.expected, self.before), per_family(self.expected, self.after)
        order = list(CORE_GROUP) + [f for f in FAMILIES if f not in CORE_GROUP]
        return {f: {"precision_before": b[f]["precision"], "precision_after": a[f]["precision"],
                    "recall_before": b[f]["recall"], "recall_after": a[f]["recall"],
                    "f1_before": b[f]["f1"], "f1_after": a[f]["f1"], "f1_delta": a[f]["f1"] - b[f]["f1"],
                    "support": b[f]["support"]} for f in order}

    def confusion_delta(self) -> dict[str, dict[str, int]]:
        """expected -> decided -> count after minus count before (non-zero cells only)."""
        b, a = confusion(self.expected, self.before), confusion(self.expected, self.after)
        out: dict[str, dict[str, int]] = {}
        for e in sorted(set(a) | set(b), key=_family_rank):
            cells = {g: a.get(e, Counter())[g] - b.get(e, Counter())[g]
                     for g in sorted(set(a.get(e, {})) | set(b.get(e, {})), key=_family_rank)}
            cells = {g: d for g, d in cells.items() if d}
            if cells:
                out[e] = cells
        return out

    def changed(self) -> list[dict[str, Any]]:
        """Rows whose family moved, with whether the move fixed or broke them."""
        rows = []
        for i, (b, a) in enumerate(zip(self.before, self.after)):
            if a != b:
                e = self.expected[i]
                effect = "fixed" if a == e else "broke" if b == e else "moved"
                rows.append({"id": self.ids[i], "text": self.texts[i], "expected": e, "before": b, "after": a, "effect": effect})
        return rows


def _family_rank(f: str) -> int:
    return FAMILIES.index(f) if f in FAMILIES else len(FAMILIES)


def compare(features: EvidenceFeatures, before: EvidenceWeights, after: EvidenceWeights) -> Comparison:
    """Re-score one cached run under two weightings."""
    if before.strengths != after.strengths:
        raise TuningError("the weights' 'strengths' section changes how strongly anchors light the axes themselves: "
                          "re-run the batch with those weights instead of re-scoring")
    return Comparison(features.ids, features.texts, features.expected, rescore(features, before), rescore(features, after))


def agreement(features: EvidenceFeatures, weights: EvidenceWeights) -> tuple[float, list[dict[str, Any]]]:
    """How often re-scoring under the run's own weights gives the run's family, and the rows where not."""
    got = rescore(features, weights)
    diff = [{"id": features.ids[i], "text": features.texts[i], "run": r, "rescored": g}
            for i, (r, g) in enumerate(zip(features.run_family, got)) if r != g]
    return (1 - len(diff) / len(features)) if len(features) else 1.0, diff


# --- fitting -------------------------------------------------------------------------------


def fit_weights(features: EvidenceFeatures, base: EvidenceWeights, *, l2: float = 0.05, allow_new_terms: bool = False,
                decimals: int = 1) -> EvidenceWeights:
    """Multinomial logistic regression of the expected family on the utterance-level axes.

    Scores keep the planner's form (bias + sum of weight x strength); the penalty pulls toward
    `base`, so the fit adjusts the hand-tuned weights rather than replacing them. Without
    `allow_new_terms` only the (family, axis) terms that already exist move.
    """
    from scipy.optimize import minimize

    fams = list(base.families)
    use = np.array([e in fams and not err and not sc for e, err, sc in zip(features.expected, features.error, features.short_circuit)])
    if use.sum() < 2:
        raise TuningError("fitting needs labelled rows with an expected family")
    x = features.strengths[use]
    y = np.array([fams.index(e) for e, u in zip(features.expected, use) if u])
    b0, w0 = _matrices(base, features.axes)
    mask = np.ones_like(w0, dtype=bool) if allow_new_terms else (w0 != 0)
    theta0 = np.concatenate([b0, w0[mask]])
    onehot = np.eye(len(fams))[y]
    n = len(y)

    def unpack(theta: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        w = np.zeros_like(w0)
        w[mask] = theta[len(fams):]
        return theta[: len(fams)], w

    def loss(theta: np.ndarray) -> tuple[float, np.ndarray]:
        b, w = unpack(theta)
        z = b[None, :] + x @ w.T
        z -= z.max(axis=1, keepdims=True)
        p = np.exp(z)
        p /= p.sum(axis=1, keepdims=True)
        nll = -np.log(p[np.arange(n), y] + 1e-12).mean()
        g = (p - onehot) / n
        grad = np.concatenate([g.sum(axis=0), (g.T @ x)[mask]])
        d = theta - theta0
        return nll + l2 * float(d @ d), grad + 2 * l2 * d

    theta = minimize(loss, theta0, jac=True, method="L-BFGS-B").x
    b, w = unpack(theta)
    data = base.model_dump()
    data["bias"] = {f: round(float(b[i]), decimals) for i, f in enumerate(fams)}
    terms: dict[str, dict[str, float]] = {}
    for i, f in enumerate(fams):
        kept = dict(base.weights.get(f, {}))
        for j, a in enumerate(features.axes):
            if mask[i, j]:
                value = round(float(w[i, j]), decimals)
                if value or a in kept:
                    kept[a] = value
        terms[f] = {a: v for a, v in kept.items() if v or a in base.weights.get(f, {})}
    data["weights"] = terms
    data["description"] = base.description
    return EvidenceWeights.model_validate(data)


def weights_diff(before: EvidenceWeights, after: EvidenceWeights) -> list[dict[str, Any]]:
    """Every bias or axis weight that differs: family, term, before, after."""
    out = []
    for fam in before.families:
        b, a = before.bias.get(fam, 0.0), after.bias.get(fam, 0.0)
        if not math.isclose(a, b):
            out.append({"family": fam, "term": "(bias)", "before": b, "after": a})
        bw, aw = before.weights.get(fam, {}), after.weights.get(fam, {})
        for axis in sorted(set(bw) | set(aw)):
            if not math.isclose(bw.get(axis, 0.0), aw.get(axis, 0.0)):
                out.append({"family": fam, "term": axis, "before": bw.get(axis), "after": aw.get(axis)})
    for key in ("confidence", "second_pass"):
        for name in sorted(set(getattr(before, key)) | set(getattr(after, key))):
            if getattr(before, key).get(name) != getattr(after, key).get(name):
                out.append({"family": "*", "term": f"{key}.{name}", "before": getattr(before, key).get(name), "after": getattr(after, key).get(name)})
    return out


def weights_json(weights: EvidenceWeights) -> str:
    """The weights file text in the registry's layout (one space indent, Korean kept)."""
    return json.dumps(weights.model_dump(), ensure_ascii=False, indent=1) + "\n"


# --- runs ----------------------------------------------------------------------------------


def registry_with_weights(weights: EvidenceWeights, registry: Registry | None = None) -> Registry:
    """The embedded registries with other evidence weights (to run the DAG under them)."""
    import copy

    from registry.loader import load_registry

    clone = copy.copy(registry or load_registry())  # a new object: per-registry caches (matchers) start fresh
    clone.weights = weights
    return clone


def compare_runs(run_a: Path, run_b: Path) -> Comparison:
    """The decided families of two run directories of the same set, row by row (matched by id)."""
    a, b = load_features(run_a), load_features(run_b)
    b_family = dict(zip(b.ids, b.run_family))
    missing = [i for i in a.ids if i not in b_family]
    if missing:
        raise TuningError(f"{run_b} has no row {missing[0]!r} ({len(missing)} rows of {run_a} missing): are they runs of the same set?")
    return Comparison(a.ids, a.texts, a.expected, a.run_family, [b_family[i] for i in a.ids])


def metrics_table(*run_dirs: Path) -> dict[str, dict[str, Any]]:
    """Headline metrics of several runs, metric -> run -> value (for side-by-side display)."""
    keys = ("rows", "errors", "family_accuracy", "action_exact_match", "routes_match", "turn_mode_accuracy", "skill_accuracy",
            "slot_accuracy", "second_pass_rate")
    out: dict[str, dict[str, Any]] = {}
    for run in run_dirs:
        metrics = json.loads((Path(run) / "metrics.json").read_text(encoding="utf-8"))
        for k in keys:
            out.setdefault(k, {})[Path(run).name] = metrics.get(k)
        for k in ("p50", "p95"):
            out.setdefault(f"latency_{k}_ms", {})[Path(run).name] = metrics.get("latency_ms", {}).get(k)
    return out
