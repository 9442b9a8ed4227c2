"""The dense channel's embedding: signed feature hashing of character n-grams and lemmas.

It runs offline with no model: character 2- and 3-grams catch spacing slips and compound
nouns (헤파필터 ~ 헤파 필터), hashed lemmas catch inflection. Deterministic across
processes (no use of Python's salted `hash`).
"""

from __future__ import annotations

import zlib
from typing import Iterable

import numpy as np

DIM = 128
"""Width of the FLOAT[DIM] column."""
EMBEDDING_VERSION = f"charhash-2,3+lemma3-{DIM}-v1"
_NGRAMS = (2, 3)
_LEMMA_WEIGHT = 3.0
_MUL = np.uint64(0x9E3779B97F4A7C15)
_MIX = np.uint64(0xBF58476D1CE4E5B9)


def _mix(h: np.ndarray) -> np.ndarray:
    h = h ^ (h >> np.uint64(31))
    h = h * _MIX
    return h ^ (h >> np.uint64(29))


def _char_features(text: str, out: np.ndarray) -> None:
    codes = np.frombuffer((" " + " ".join(text.lower().split()) + " ").encode("utf-32-le"), dtype=np.uint32).astype(np.uint64)
    for n in _NGRAMS:
        if len(codes) < n:
            continue
        h = np.full(len(codes) - n + 1, np.uint64(n))
        for k in range(n):
            h = (h * _MUL) ^ codes[k : len(codes) - n + 1 + k]
        h = _mix(h)
        buckets = (h % np.uint64(DIM)).astype(np.int64)
        signs = np.where((h >> np.uint64(40)) & np.uint64(1), 1.0, -1.0)
        out += np.bincount(buckets, weights=signs, minlength=DIM)


def embed(text: str, lemmas: Iterable[str] = ()) -> np.ndarray:
    """A unit-length float32 vector (all zeros for empty input)."""
    vec = np.zeros(DIM, dtype=np.float64)
    _char_features(text, vec)
    for lemma in lemmas:
        h = zlib.crc32(lemma.encode("utf-8"))
        vec[h % DIM] += _LEMMA_WEIGHT if (h >> 16) & 1 else -_LEMMA_WEIGHT
    vec = np.sign(vec) * np.sqrt(np.abs(vec))  # damp long passages' repeated grams
    norm = float(np.linalg.norm(vec))
    return (vec / norm if norm else vec).astype(np.float32)
