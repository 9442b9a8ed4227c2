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


def family_probabilities(weights: np.ndarray, bias: np.ndarray, temperature: float, text: str) -> np.ndarray:
    """Calibrated softmax over families for one text (weights: buckets x families)."""
    ids = ngram_buckets(text, weights.shape[0])
    logits = (weights[ids].sum(axis=0) / max(len(ids), 1) ** 0.5 + bias) / temperature
    logits = logits - logits.max()
    exp = np.exp(logits)
    return exp / exp.sum()
