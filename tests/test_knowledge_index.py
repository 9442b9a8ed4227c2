"""The document index: corpus parsing, BM25 weights in SQL, ranking in memory, incremental rebuilds, versions, bad input."""

from __future__ import annotations

import math
from datetime import date

import duckdb
import numpy as np
import pytest

from dataflow.driver import shared_kiwi
from dataflow.knowledge import DEFAULT_GRAPH, build_knowledge_index
from rag.corpus import parse_manual
from rag.index import BM25_B, BM25_K1, current_source_ids
from rag.ranking import index_view, search
from rag.embed import DIM, embed
from rag.store import KnowledgeStore
from registry import load_registry
from registry.errors import KnowledgeIndexError
from tests._knowledge import TODAY, copy_corpus

HEAD = "---\ndoc_id: t\nversion: v1\nvalid_at: 2026-01-01\ntitle: t\n---\n\n# 1. 장\n\n"


def _view(db):
    """The ranking view of an index at TODAY (its arrays outlive the connection)."""
    con = duckdb.connect(str(db), read_only=True)
    try:
        return index_view(con, TODAY)
    finally:
        con.close()


def test_parser_reads_sections_and_names_bad_lines():
    doc = parse_manual(HEAD + "## [T-S001] 1.1 첫 절\n\n본문 (1.2절).\n\n## [T-S002] 1.2 둘째 절\n\n둘째 본문.\n", "t.md")
    assert [(s.source_id, s.location, s.chapter) for s in doc.sections] == [("T-S001", "1.1 첫 절", "1. 장"), ("T-S002", "1.2 둘째 절", "1. 장")]
    with pytest.raises(KnowledgeIndexError, match=r"t\.md: line 10: a section heading"):
        parse_manual(HEAD + "## 1.1 no id\n\ntext\n", "t.md")
    with pytest.raises(KnowledgeIndexError, match="used twice"):
        parse_manual(HEAD + "## [T-S001] 1.1 a\n\nx\n\n## [T-S001] 1.2 b\n\ny\n", "t.md")
    with pytest.raises(KnowledgeIndexError, match="front matter"):
        parse_manual("# no front matter\n", "t.md")
    with pytest.raises(KnowledgeIndexError, match="valid_at"):
        parse_manual(HEAD.replace("2026-01-01", "yesterday") + "## [T-S001] 1.1 a\n\nx\n", "t.md")


def test_real_corpus_counts_and_exactly_the_two_changed_facts(knowledge_db):
    con = duckdb.connect(str(knowledge_db), read_only=True)
    try:
        assert con.execute("SELECT count(*) FROM chunks").fetchall()[0][0] == 55 + 36
        rows = con.execute("SELECT source_id, other_source_id, kind, values_here, values_there FROM alignments ORDER BY 1").fetchall()
    finally:
        con.close()
    changed = {(a, b): (here, there) for a, b, kind, here, there in rows if kind == "superseded"}
    assert changed[("R6-V5-S040", "R6-V4-S023")] == (["12개월"], ["9개월"])
    assert changed[("R6-V5-S041", "R6-V4-S024")] == (["2주"], ["4주"])
    # only sections that state the HEPA interval or the pre-filter interval differ between the versions
    assert {a for a, _ in changed} == {"R6-V5-S036", "R6-V5-S040", "R6-V5-S041", "R6-V5-S045"}
    assert all(kind == "superseded" for *_, kind, _, _ in [(r[0], r[1], r[2], r[3], r[4]) for r in rows])


def test_bm25_weights_follow_the_formula(knowledge_db):
    con = duckdb.connect(str(knowledge_db), read_only=True)
    try:
        n = con.execute("SELECT count(*) FROM chunks").fetchall()[0][0]
        avgdl = con.execute("SELECT avg(n_terms) FROM chunks").fetchall()[0][0]
        df = con.execute("SELECT count(*) FROM chunk_terms WHERE term = '카메라'").fetchall()[0][0]
        chunk_id, tf, length = con.execute(
            "SELECT c.chunk_id, t.tf, c.n_terms FROM chunk_terms t JOIN chunks c USING (chunk_id) "
            "WHERE c.source_id = 'R6-V5-S024' AND t.term = '카메라'"
        ).fetchall()[0]
        ids, weights, stored_df = con.execute("SELECT chunk_ids, weights, df FROM postings WHERE term = '카메라'").fetchall()[0]
    finally:
        con.close()
    idf = math.log(1 + (n - df + 0.5) / (df + 0.5))
    assert stored_df == df and len(ids) == df
    assert weights[ids.index(chunk_id)] == pytest.approx(idf * tf * (BM25_K1 + 1) / (tf + BM25_K1 * (1 - BM25_B + BM25_B * length / avgdl)))


# BM25 and the fusion written once more, directly over the per-section term counts (not the posting lists the
# ranking reads), as the reference the in-memory ranking must agree with.
_REFERENCE_SQL = f"""
WITH n AS (SELECT count(*) AS n, avg(n_terms) AS avgdl FROM chunks),
df AS (SELECT term, count(*) AS df FROM chunk_terms GROUP BY term),
q AS (SELECT unnest($terms::VARCHAR[]) AS term, unnest($qw::DOUBLE[]) AS qw),
lex AS (
    SELECT t.chunk_id, sum(q.qw * ln(1 + (n.n - df.df + 0.5) / (df.df + 0.5))
           * t.tf * ({BM25_K1} + 1) / (t.tf + {BM25_K1} * (1 - {BM25_B} + {BM25_B} * c.n_terms / n.avgdl))) AS bm25
    FROM chunk_terms t JOIN q USING (term) JOIN df USING (term) JOIN chunks c USING (chunk_id), n GROUP BY t.chunk_id)
SELECT v.source_id, coalesce(lex.bm25, 0) AS bm25, array_cosine_similarity(v.vec, $vec::FLOAT[128]) AS dense
FROM chunk_vectors v LEFT JOIN lex USING (chunk_id)
WHERE list_contains($current::VARCHAR[], v.doc_key)
ORDER BY coalesce(lex.bm25, 0) / (SELECT max(bm25) FROM lex) + $dense_w * dense DESC, v.source_id LIMIT 10
"""


def test_the_in_memory_ranking_agrees_with_bm25_computed_from_the_term_counts(knowledge_db):
    con = duckdb.connect(str(knowledge_db), read_only=True)
    try:
        view = index_view(con, TODAY)
        for weights in ({"필터": 1.0, "교체": 1.0}, {"배터리": 1.0, "시간": 0.3}, {"카메라": 1.0}, {"소음": 1.0, "나이트": 0.5}):
            vector = embed(" ".join(weights), list(weights))
            for dense_w in (0.0, 0.25):
                got = search(view, weights, vector, {}, {"dense": dense_w, "graph": 0.0}).hits
                want = con.execute(_REFERENCE_SQL, {"terms": list(weights), "qw": list(weights.values()), "vec": vector.tolist(),
                                                    "current": view.doc_keys, "dense_w": dense_w}).fetchall()
                assert [h.source_id for h in got] == [r[0] for r in want], (weights, dense_w)
                assert [h.bm25 for h in got] == pytest.approx([r[1] for r in want], abs=1e-4)
                assert [h.dense for h in got] == pytest.approx([r[2] for r in want], abs=1e-3)
                assert got[0].bm25 > 0 and all(h.version == "v5" for h in got)
    finally:
        con.close()


def test_graph_boosts_and_ties_rank_as_documented(knowledge_db):
    view = _view(knowledge_db)
    zero = np.zeros(DIM, np.float32)  # no text at all: no cosine either (0, not NaN)
    nothing = search(view, {}, zero, {}, {"dense": 0.25, "graph": 0.3})
    ids = [h.source_id for h in nothing.hits]
    assert ids == sorted(ids) and all(h.fused == 0 for h in nothing.hits) and nothing.idf == {}  # a full tie: by source id
    boosted = search(view, {}, zero, {"R6-V5-S030": 1.0, "R6-V4-S001": 1.0}, {"dense": 0.0, "graph": 0.3}).hits
    assert boosted[0].source_id == "R6-V5-S030" and boosted[0].fused == pytest.approx(0.3)  # v4 is not current


def test_a_section_stating_a_number_in_the_asked_unit_is_boosted(knowledge_db):
    view = _view(knowledge_db)
    weights = {"공기": 1.0, "청정": 1.0, "면적": 1.0}
    vector = embed(" ".join(weights), list(weights))
    plain = search(view, weights, vector, {}, {"dense": 0.0, "graph": 0.0})
    asked = search(view, weights, vector, {}, {"dense": 0.0, "graph": 0.0, "units": 0.15}, units=["㎡", "m2"])
    spec = lambda r: next(i for i, h in enumerate(r.hits + [None]) if h is None or h.source_id == "R6-V5-S053")  # noqa: E731
    assert spec(asked) < spec(plain)  # the specification table states 60 ㎡
    boosted = {h.source_id: h.fused for h in asked.hits}
    assert all(boosted[h.source_id] == pytest.approx(h.fused) for h in plain.hits if h.source_id in boosted and h.source_id != "R6-V5-S053")


def test_incremental_rebuild_analyses_only_changed_documents(tmp_path):
    kiwi, registry = shared_kiwi(), load_registry()
    corpus, db = copy_corpus(tmp_path / "manual"), tmp_path / "k.duckdb"
    first = build_knowledge_index(db, kiwi, registry, corpus, DEFAULT_GRAPH)
    assert sorted(first.changes.added) == ["r6_manual@v4", "r6_manual@v5"]
    again = build_knowledge_index(db, kiwi, registry, corpus, DEFAULT_GRAPH)
    assert again.changes.analysed == [] and again.index_version == first.index_version
    v5 = corpus / "r6_manual_v5.md"
    v5.write_text(v5.read_text(encoding="utf-8") + "\n로봇 옆면에는 손잡이 홈이 있어 두 손으로 들기 쉽습니다.\n", encoding="utf-8")
    edited = build_knowledge_index(db, kiwi, registry, corpus, DEFAULT_GRAPH)
    assert edited.changes.updated == ["r6_manual@v5"] and edited.changes.unchanged == ["r6_manual@v4"]
    assert edited.index_version != first.index_version
    con = duckdb.connect(str(db), read_only=True)
    try:
        hits = search(index_view(con, TODAY), {"손잡이": 1.0}, embed("손잡이", ["손잡이"]), {}).hits
    finally:
        con.close()
    assert hits[0].source_id == "R6-V5-S055" and hits[0].bm25 > 0  # the new sentence landed in the last section
    extra = corpus / "quick_guide.md"
    extra.write_text("---\ndoc_id: quick\nversion: v1\nvalid_at: 2026-01-01\ntitle: q\n---\n\n# 1. 빠른 안내\n\n"
                     "## [Q-S001] 1.1 전원 켜기\n\n전원 버튼을 누르면 켜집니다.\n", encoding="utf-8")
    added = build_knowledge_index(db, kiwi, registry, corpus, DEFAULT_GRAPH)
    assert added.changes.added == ["quick@v1"] and added.counts["chunks"] == 92
    extra.unlink()
    removed = build_knowledge_index(db, kiwi, registry, corpus, DEFAULT_GRAPH)
    assert removed.changes.removed == ["quick@v1"] and removed.counts["chunks"] == 91
    (corpus / "r6_manual_v4.md").unlink()
    with pytest.raises(KnowledgeIndexError, match=r"fact \w+: source_ref R6-V4-S\d+ is not a section"):
        build_knowledge_index(db, kiwi, registry, corpus, DEFAULT_GRAPH)  # the graph still cites v4


def test_question_time_picks_the_valid_version(knowledge_db):
    con = duckdb.connect(str(knowledge_db), read_only=True)
    try:
        now = current_source_ids(con, TODAY)
        last_year = current_source_ids(con, date(2025, 6, 1))
        before = current_source_ids(con, date(2024, 1, 1))
        view = index_view(con, date(2025, 6, 1))
        hits = search(view, {"hepa": 1.0, "교체": 1.0}, embed("HEPA 교체", ["hepa", "교체"]), {}).hits
    finally:
        con.close()
    assert all(s.startswith("R6-V5") for s in now) and len(now) == 55
    assert all(s.startswith("R6-V4") for s in last_year) and len(last_year) == 36
    assert before == set()
    assert hits[0].source_id == "R6-V4-S023" and all(h.version == "v4" for h in hits)


def test_missing_or_foreign_index_is_reported_with_the_build_command(tmp_path):
    store = KnowledgeStore.open(tmp_path / "none.duckdb")
    assert not store.available and "a2a index build --db" in store.problem
    with pytest.raises(KnowledgeIndexError, match="a2a index build"):
        store.require()
    junk = tmp_path / "junk.duckdb"
    junk.write_bytes(b"not a database at all" * 100)
    store = KnowledgeStore.open(junk)
    assert not store.available and "a2a index build" in store.problem


def test_sql_looking_text_is_only_ever_a_lookup_key(knowledge_store):
    con = knowledge_store.require()
    hostile = ["'; DROP TABLE chunks; --", "카메라' OR 1=1 --", "$terms", "?"]
    hits = search(index_view(con, TODAY), {t: 1.0 for t in hostile}, embed(" ".join(hostile)), {"x' OR '1'='1": 1.0}).hits
    assert hits and all(h.bm25 == 0 and h.graph == 0 for h in hits)  # nothing matched the strings, and nothing was executed
    assert con.execute("SELECT count(*) FROM chunks").fetchall()[0][0] == 91


def test_build_errors_name_the_problem(tmp_path):
    kiwi, registry = shared_kiwi(), load_registry()
    with pytest.raises(KnowledgeIndexError, match="corpus directory not found"):
        build_knowledge_index(tmp_path / "k.duckdb", kiwi, registry, tmp_path / "nowhere", DEFAULT_GRAPH)
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(KnowledgeIndexError, match="no manual files"):
        build_knowledge_index(tmp_path / "k.duckdb", kiwi, registry, empty, DEFAULT_GRAPH)
