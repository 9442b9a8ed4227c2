"""The ranking index in memory: BM25 posting lists, section vectors and graph boosts fused with numpy.

The DuckDB file stays the index of record (built and updated by `a2a index build`); a store
loads what ranking reads once per question date: one flat array of posting positions and
BM25 weights with each term's slice, and the unit section vectors as one matrix. A question
then costs a few array additions and one matrix-vector product, with no SQL planning: at
10,000 sections that is a small fraction of a millisecond, where the SQL ranking took most
of a question's time even on the 91 sections of the real manual.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from datetime import date
from collections.abc import Set as AbstractSet
from typing import Any

import duckdb
import numpy as np

from rag.index import current_doc_keys
from rag.store import DEFAULT_FUSION
from rag.text import quantity_unit
from registry.knowledge_contracts import RetrievalHit

COMMON_SHARE = 0.1
"""A low-weight term found in more than this share of sections is left out of BM25: its idf is
near zero, so it would move every section alike and rank none."""
TOP_K = 10
UNIT_BOOST = 0.15
"""Added to the fused score of a section that states a number in a unit the question asks for (몇 초 걸려 -> 27초)."""
_TIE_DECIMALS = 9
"""Fused scores are compared at this precision, so that two sections whose sums differ only by float
rounding (terms added in another order) tie, and the tie goes to the smaller source id."""

_ALIGNMENTS_SQL = """
SELECT source_id, other_source_id, other_doc_key, other_version, other_valid_at, kind, values_here, values_there
FROM alignments ORDER BY source_id, other_valid_at DESC
"""
_SECTIONS_SQL = """
SELECT v.source_id, v.doc_key, v.location, v.vec, d.doc_id, d.version, d.valid_at, c.quantities
FROM chunk_vectors v JOIN documents d USING (doc_key) JOIN chunks c USING (chunk_id) ORDER BY v.chunk_id
"""


@dataclass(frozen=True)
class Posting:
    idf: float
    df: int
    start: int
    end: int
    """The term's slice of IndexView.positions and IndexView.weights."""


@dataclass(frozen=True, eq=False)
class IndexView:
    """What retrieval reads besides the question, loaded once per index and question date."""

    doc_keys: list[str]
    """The document versions valid at the question date."""
    n_chunks: int
    alignments: dict[str, list[tuple]]
    """source_id -> aligned sections of other versions or documents that state other numbers."""
    common_terms: frozenset[str]
    """Terms in more than COMMON_SHARE of the sections."""
    postings: dict[str, Posting] = field(default_factory=dict)
    positions: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))
    """Section positions (rows of `vectors`) of every posting, term after term."""
    weights: np.ndarray = field(default_factory=lambda: np.zeros(0))
    """BM25 weight (idf x saturated tf) of each posting."""
    vectors: np.ndarray = field(default_factory=lambda: np.zeros((0, 0), np.float32))
    """One unit vector per section (a zero row for a section with no text)."""
    sections: list[tuple[str, str, str, Any]] = field(default_factory=list)
    """Per position: source_id, location, doc_id, version, valid_at."""
    current: np.ndarray = field(default_factory=lambda: np.zeros(0, bool))
    """Per position: whether its document version is valid at the question date."""
    by_source: dict[str, np.ndarray] = field(default_factory=dict)
    """source_id -> its positions (one per document version that has the section)."""
    source_rank: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))
    """Per position: the rank of its source_id in sorted order (the tie-break)."""
    by_unit: dict[str, np.ndarray] = field(default_factory=dict)
    """Unit (lower case: 초, ㎡, db) -> the positions of the sections that state a number in it."""

    @property
    def vocabulary(self) -> AbstractSet[str]:
        """Every index term (a question's compound noun the index never saw whole is searched as its parts)."""
        return self.postings.keys()

    @property
    def max_idf(self) -> float:
        """idf of a term no section contains (the rarest possible)."""
        return math.log(1 + (self.n_chunks + 0.5) / 0.5)


def _postings(con: duckdb.DuckDBPyConnection, position_of: np.ndarray) -> tuple[dict[str, Posting], np.ndarray, np.ndarray]:
    """Every posting list as slices of two flat arrays, read through Arrow (26,000 terms and 400,000 postings at
    10,000 sections load in well under a second)."""
    table = con.sql("SELECT term, df, idf, chunk_ids, weights FROM postings ORDER BY term").to_arrow_table()
    if not table.num_rows:
        return {}, np.zeros(0, np.int64), np.zeros(0)
    ids, weights = table.column("chunk_ids").combine_chunks(), table.column("weights").combine_chunks()
    offsets = ids.offsets.to_numpy()
    positions = position_of[ids.flatten().to_numpy()]
    flat_weights = weights.flatten().to_numpy().astype(np.float64)
    terms, dfs, idfs = (table.column(name).to_pylist() for name in ("term", "df", "idf"))
    postings = {t: Posting(idf=float(idf), df=int(df), start=int(offsets[i]), end=int(offsets[i + 1]))
                for i, (t, df, idf) in enumerate(zip(terms, dfs, idfs))}
    return postings, positions, flat_weights


def index_view(con: duckdb.DuckDBPyConnection, as_of: date) -> IndexView:
    alignments: dict[str, list[tuple]] = {}
    for row in con.execute(_ALIGNMENTS_SQL).fetchall():
        alignments.setdefault(row[0], []).append(row)
    current = current_doc_keys(con, as_of)
    chunk_ids = np.array([r[0] for r in con.execute("SELECT chunk_id FROM chunk_vectors ORDER BY chunk_id").fetchall()], np.int64)
    position_of = np.full(int(chunk_ids.max(initial=0)) + 1, -1, np.int64)
    position_of[chunk_ids] = np.arange(len(chunk_ids))
    rows = con.execute(_SECTIONS_SQL).fetchall()
    vectors = np.array([r[3] for r in rows], np.float32).reshape(len(rows), -1)
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    vectors = np.divide(vectors, norms, out=np.zeros_like(vectors), where=norms > 0)
    by_source: dict[str, list[int]] = {}
    for i, r in enumerate(rows):
        by_source.setdefault(r[0], []).append(i)
    order = sorted(range(len(rows)), key=lambda i: rows[i][0])
    source_rank = np.empty(len(rows), np.int64)
    source_rank[order] = np.arange(len(rows))
    by_unit: dict[str, list[int]] = {}
    for i, r in enumerate(rows):
        for unit in {quantity_unit(q).lower() for q in r[7] or []}:
            by_unit.setdefault(unit, []).append(i)
    postings, positions, weights = _postings(con, position_of)
    n_chunks = len(rows)
    common = frozenset(t for t, p in postings.items() if p.df > max(5, int(n_chunks * COMMON_SHARE)))
    current_set = set(current)
    return IndexView(doc_keys=current, n_chunks=n_chunks,
                     alignments=alignments, common_terms=common, postings=postings, positions=positions, weights=weights,
                     vectors=vectors, sections=[(r[0], r[2], r[4], r[5], r[6]) for r in rows],
                     current=np.array([r[1] in current_set for r in rows], bool),
                     by_source={s: np.array(p, np.int64) for s, p in by_source.items()}, source_rank=source_rank,
                     by_unit={u: np.array(p, np.int64) for u, p in by_unit.items()})


@dataclass(frozen=True)
class Ranked:
    hits: list[RetrievalHit]
    idf: dict[str, float]
    """idf of the question terms the index knows."""


def search(view: IndexView, weights: dict[str, float], vector: Any, boosts: dict[str, float],
           fusion: dict[str, float] | None = None, k: int = TOP_K, units: list[str] | tuple[str, ...] = ()) -> Ranked:
    """Top-k sections of the current document versions by fused score: BM25 normalized by the best BM25 of any
    section (of any version), plus the weighted cosine, the weighted graph boost and, for a question asking a
    quantity in `units`, the unit boost of the sections that state a number in one of them; ties go to the smaller
    source id."""
    fusion = fusion or DEFAULT_FUSION
    n = view.n_chunks
    known = {t: view.postings[t] for t in weights if t in view.postings}
    bm25 = np.zeros(n)
    for term, posting in known.items():
        np.add.at(bm25, view.positions[posting.start:posting.end], view.weights[posting.start:posting.end] * weights[term])
    query = np.asarray(vector, np.float32)
    norm = float(np.linalg.norm(query))
    dense = (view.vectors @ (query / norm)).astype(np.float64) if norm and n else np.zeros(n)
    graph = np.zeros(n)
    for source_id, boost in boosts.items():
        if source_id in view.by_source:
            graph[view.by_source[source_id]] = boost
    fused = bm25 / max(float(bm25.max(initial=0.0)), 1e-9) + fusion["dense"] * dense + fusion["graph"] * graph
    stating = [view.by_unit[u] for u in {u.lower() for u in units} if u in view.by_unit]
    if stating:
        fused[np.unique(np.concatenate(stating))] += fusion.get("units", UNIT_BOOST)
    key = np.round(fused, _TIE_DECIMALS)
    candidates = np.flatnonzero(view.current)
    if len(candidates) > k:  # everything tied with the k-th best, then the exact order among those
        cut = np.partition(key[candidates], len(candidates) - k)[len(candidates) - k]
        candidates = candidates[key[candidates] >= cut]
    top = candidates[np.lexsort((view.source_rank[candidates], -key[candidates]))][:k]
    hits = [RetrievalHit(source_id=view.sections[i][0], location=view.sections[i][1], doc_id=view.sections[i][2],
                         version=view.sections[i][3], valid_at=view.sections[i][4], bm25=round(float(bm25[i]), 4),
                         dense=round(float(dense[i]), 4), graph=float(graph[i]), fused=round(float(fused[i]), 4))
            for i in top]
    return Ranked(hits=hits, idf={t: p.idf for t, p in known.items()} if hits else {})
