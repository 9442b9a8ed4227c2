"""Learned family evidence: a hashed character n-gram softmax model (mechanism only; the weights are data).

No nodes here. Features are character 1-3-grams of the compact text with word-boundary marks, hashed
into a fixed number of buckets by CRC32 (stable across processes and machines). The model's output
is evidence: every family's calibrated probability becomes an axis; it never licenses an action.
"""

from __future__ import annotations

import zlib

import numpy as np

BOUNDARY = "|"
"""Marks word edges, so 가| (a word ending in 가) and |가 (a word starting with it) differ."""


def ngram_buckets(text: str, buckets: int, max_n: int = 3) -> np.ndarray:
    """Distinct bucket ids of the text's character n-grams (presence, not counts: a word said 300 times
    weighs what it weighs once)."""
    words = [w for w in text.lower().split() if w]
    marked = BOUNDARY + BOUNDARY.join(words) + BOUNDARY
    ids = [zlib.crc32(marked[i:i + n].encode("utf-8")) % buckets
           for n in range(1, max_n + 1) for i in range(len(marked) - n + 1) if marked[i:i + n] != BOUNDARY]
    return np.unique(np.asarray(ids, dtype=np.int64))


MORPHEME_FEATURES = "morph"
"""A model's feature kind besides the character n-grams: Kiwi's morphemes (what a word is, not how it is spelled)."""


def morpheme_keys(morphemes) -> list[str]:
    """Kiwi's reading of the words as features: every morpheme with its tag (녹화/NNG, 나요/EF), every two in a row,
    and the last one (how the turn ends); punctuation is no morpheme here (a recognizer writes none)."""
    said = [f"{m.form}/{m.tag.split('-')[0]}" for m in morphemes if not m.tag.startswith("S")]
    return [f"m:{k}" for k in said] + [f"b:{a} {b}" for a, b in zip(said, said[1:])] + [f"end:{k}" for k in said[-1:]]


def feature_buckets(text: str, morphemes, buckets: int, kinds: tuple[str, ...]) -> np.ndarray:
    """Distinct bucket ids of a turn's features: its character n-grams, and its morphemes when the model reads them."""
    ids = ngram_buckets(text, buckets)
    if MORPHEME_FEATURES in kinds:
        more = [zlib.crc32(k.encode("utf-8")) % buckets for k in morpheme_keys(morphemes)]
        ids = np.unique(np.concatenate([ids, np.asarray(more, dtype=np.int64)]))
    return ids


def family_probabilities(weights: np.ndarray, bias: np.ndarray, temperature: float, text: str) -> np.ndarray:
    """Calibrated softmax over families for one text's character n-grams (weights: buckets x families)."""
    return probabilities_of(weights, bias, temperature, ngram_buckets(text, weights.shape[0]))


def probabilities_of(weights: np.ndarray, bias: np.ndarray, temperature: float, ids: np.ndarray) -> np.ndarray:
    """Calibrated softmax over families for one turn's feature bucket ids (ngram_buckets or feature_buckets)."""
    logits = (weights[ids].sum(axis=0) / max(len(ids), 1) ** 0.5 + bias) / temperature
    logits = logits - logits.max()
    exp = np.exp(logits)
    return exp / exp.sum()


def lit_strengths(axes) -> dict[str, float]:
    """Each lit axis's strength, and the same under `axis=signal` for each of its signals (what
    `learned_opening.unless_for` may name: has_unlicensed_speech_act=user)."""
    return {a: v.strength for a, v in axes.items()} | {f"{a}={s}": v.strength for a, v in axes.items() for s in v.signals}


LEARNED_PREFIX = "learned_"
"""Axes of the learned family model (stages/learned_evidence.py): counted on gray-zone turns only."""


def learned_scale(lexical: dict[str, float], strengths: dict[str, float], weights) -> float:
    """How much the learned terms count on one turn (0 = not at all): `learned_opening.scale` when the lexical winner
    and the learned winner are both families with no device step of their own and the learned winner is sure enough
    (in the gray zone too: a close call is where a sure model should count most); else 1 in the gray zone (the
    lexical top two closer than `learned_gray_margin`) and 0 outside it; 0 while an axis
    of `learned_closed_by` (a decision by mechanism) or of `learned_opening.unless` (a licensed device anchor)
    is lit. `strengths` maps lit axes to their strength (and `axis=signal` to it for each of its signals, which
    `learned_opening.unless_for` may name). The planner and the re-scorer both call this."""
    if any(strengths.get(a) for a in weights.learned_closed_by):
        return 0.0
    ranked = sorted(lexical.items(), key=lambda kv: -kv[1])
    gray = 1.0 if len(ranked) > 1 and ranked[0][1] - ranked[1][1] < weights.learned_gray_margin else 0.0
    opening = weights.learned_opening
    learned = {a[len(LEARNED_PREFIX):]: v for a, v in strengths.items() if a.startswith(LEARNED_PREFIX) and v}
    if not opening.families or not learned or not ranked or any(strengths.get(a) for a in opening.unless):
        return gray
    winner, p = max(learned.items(), key=lambda kv: kv[1])
    if any(strengths.get(a) for a in opening.unless_for.get(winner, ())):
        return gray
    lexical_winner = ranked[0][0]
    if winner != lexical_winner and winner in opening.families and lexical_winner in opening.families and p >= opening.min_probability:
        return opening.scale
    return gray
