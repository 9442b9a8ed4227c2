"""The document index in DuckDB: sections, Kiwi term postings, BM25 weights in SQL, dense vectors.

Building is incremental: a document whose content hash is unchanged keeps its rows; only
changed, new or removed documents are (re)analysed. The derived tables (term statistics,
BM25 weights, version alignments) are recomputed in SQL afterwards, which is cheap.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from datetime import date
from typing import Any, Callable

import duckdb
import numpy as np
import pyarrow as pa

from rag.corpus import ManualDocument
from rag.embed import DIM, EMBEDDING_VERSION, embed
from rag.text import analyse_tokens, quantities, sentence_spans

SCHEMA_VERSION = "a2a-knowledge-v2"
CURRENT_DOCS_SQL = """
SELECT doc_key FROM documents WHERE valid_at <= $as_of
QUALIFY row_number() OVER (PARTITION BY doc_id ORDER BY valid_at DESC, version DESC) = 1
"""
"""The newest version of every document that is valid at the question time ($as_of)."""
BM25_K1 = 1.2
BM25_B = 0.75

_DDL = f"""
CREATE TABLE IF NOT EXISTS meta (key VARCHAR, value VARCHAR);
CREATE TABLE IF NOT EXISTS documents (
    doc_key VARCHAR, doc_id VARCHAR, version VARCHAR, valid_at DATE, title VARCHAR, path VARCHAR, content_hash VARCHAR);
CREATE TABLE IF NOT EXISTS chunks (
    chunk_id INTEGER, doc_key VARCHAR, source_id VARCHAR, number VARCHAR, title VARCHAR, chapter VARCHAR,
    location VARCHAR, text VARCHAR, n_terms INTEGER, quantities VARCHAR[],
    sentences STRUCT(text VARCHAR, terms VARCHAR[])[]);
CREATE INDEX IF NOT EXISTS chunks_source_id ON chunks (source_id);
CREATE TABLE IF NOT EXISTS chunk_terms (chunk_id INTEGER, term VARCHAR, tf INTEGER);
CREATE TABLE IF NOT EXISTS chunk_vectors (
    chunk_id INTEGER, doc_key VARCHAR, source_id VARCHAR, location VARCHAR, vec FLOAT[{DIM}]);
"""

# One row per term with its posting list: a question touches a handful of rows instead of
# scanning every (term, section) pair, which keeps BM25 fast at 10,000 sections.
_DERIVED = f"""
CREATE OR REPLACE TABLE postings AS
WITH n AS (SELECT count(*) AS n, greatest(avg(n_terms), 1) AS avgdl FROM chunks),
df AS (SELECT term, count(*) AS df FROM chunk_terms GROUP BY term),
weighted AS (
    SELECT t.term, t.chunk_id, df.df, ln(1 + (n.n - df.df + 0.5) / (df.df + 0.5)) AS idf,
           t.tf * ({BM25_K1} + 1) / (t.tf + {BM25_K1} * (1 - {BM25_B} + {BM25_B} * c.n_terms / n.avgdl)) AS tf_part
    FROM chunk_terms t JOIN chunks c USING (chunk_id) JOIN df USING (term), n
)
SELECT term, any_value(df) AS df, any_value(idf) AS idf,
       list(chunk_id ORDER BY chunk_id) AS chunk_ids, list(idf * tf_part ORDER BY chunk_id) AS weights
FROM weighted GROUP BY term ORDER BY term;
CREATE INDEX postings_term ON postings (term);

CREATE OR REPLACE TABLE alignments AS
SELECT a.source_id, b.source_id AS other_source_id, b.doc_key AS other_doc_key, db.version AS other_version,
       db.valid_at AS other_valid_at,
       CASE WHEN da.doc_id = db.doc_id THEN 'superseded' ELSE 'conflict' END AS kind,
       list_filter(a.quantities, lambda q: NOT list_contains(b.quantities, q)) AS values_here,
       list_filter(b.quantities, lambda q: NOT list_contains(a.quantities, q)) AS values_there
FROM chunks a JOIN documents da ON da.doc_key = a.doc_key
JOIN chunks b ON a.title = b.title AND a.doc_key <> b.doc_key
JOIN documents db ON db.doc_key = b.doc_key
WHERE (da.doc_id <> db.doc_id OR db.valid_at < da.valid_at)
  AND len(list_filter(a.quantities, lambda q: NOT list_contains(b.quantities, q))) > 0
  AND len(list_filter(b.quantities, lambda q: NOT list_contains(a.quantities, q))) > 0;
"""


@dataclass
class DocumentChanges:
    """What an incremental build did to the documents."""

    added: list[str] = field(default_factory=list)
    updated: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)

    @property
    def analysed(self) -> list[str]:
        return self.added + self.updated


_TABLES = ("meta", "documents", "chunks", "chunk_terms", "chunk_vectors", "postings", "alignments")


def stored_schema(con: duckdb.DuckDBPyConnection) -> str | None:
    """The schema version an existing index was built with (None for a new file)."""
    if not con.execute("SELECT count(*) FROM information_schema.tables WHERE table_name = 'meta'").fetchall()[0][0]:
        return None
    row = con.execute("SELECT value FROM meta WHERE key = 'schema'").fetchall()
    return json.loads(row[0][0]) if row else None


def ensure_schema(con: duckdb.DuckDBPyConnection) -> bool:
    """Create the tables; an index of another schema version is dropped first. True when it started afresh."""
    fresh = stored_schema(con) not in (None, SCHEMA_VERSION)
    if fresh:
        for table in _TABLES:
            con.execute(f"DROP TABLE IF EXISTS {table}")
    con.execute(_DDL)
    return fresh


def _delete_document(con: duckdb.DuckDBPyConnection, doc_key: str) -> None:
    con.execute("DELETE FROM chunk_terms WHERE chunk_id IN (SELECT chunk_id FROM chunks WHERE doc_key = ?)", [doc_key])
    con.execute("DELETE FROM chunk_vectors WHERE doc_key = ?", [doc_key])
    con.execute("DELETE FROM chunks WHERE doc_key = ?", [doc_key])
    con.execute("DELETE FROM documents WHERE doc_key = ?", [doc_key])


def _section_rows(kiwi: Any, chunk_id: int, doc: ManualDocument, section: Any) -> tuple[list, list, Any]:
    """Rows of one section: one Kiwi pass over title and text, its sentences cut from it by offset."""
    body = f"{section.title}\n{section.text}"
    tokens = [(t.form, str(t.tag), t.start, t.len) for t in kiwi.tokenize(body)]
    terms = [t.text for t in analyse_tokens(tokens)]
    head = len(section.title) + 1
    sentence_rows = []
    for sentence, start, end in sentence_spans(section.text):
        inside = [tok for tok in tokens if head + start <= tok[2] and tok[2] + tok[3] <= head + end]
        sentence_rows.append({"text": sentence, "terms": sorted({t.text for t in analyse_tokens(inside)})})
    counts: dict[str, int] = {}
    for term in terms:
        counts[term] = counts.get(term, 0) + 1
    chunk = [chunk_id, doc.doc_key, section.source_id, section.number, section.title, section.chapter, section.location,
             section.text, len(terms), sorted(quantities(kiwi, section.text)), sentence_rows]
    return chunk, [[chunk_id, term, tf] for term, tf in counts.items()], embed(body, terms)


def _append(con: duckdb.DuckDBPyConnection, table: str, columns: dict[str, Any]) -> None:
    """Bulk insert through Arrow (row-by-row executemany is slow on large corpora)."""
    data = pa.table(columns)
    if not data.num_rows:
        return
    con.register("_incoming", data)
    try:
        con.execute(f"INSERT INTO {table} BY NAME SELECT * FROM _incoming")
    finally:
        con.unregister("_incoming")


def _insert_document(con: duckdb.DuckDBPyConnection, kiwi: Any, doc: ManualDocument, advance: Callable[[], None]) -> None:
    con.execute(
        "INSERT INTO documents VALUES (?, ?, ?, ?, ?, ?, ?)",
        [doc.doc_key, doc.doc_id, doc.version, doc.valid_at, doc.title, doc.path, doc.content_hash],
    )
    chunks, terms, vectors = [], [], []
    first_id = con.execute("SELECT coalesce(max(chunk_id), 0) + 1 FROM chunks").fetchall()[0][0]
    for chunk_id, section in enumerate(doc.sections, first_id):
        chunk, term_rows, vector = _section_rows(kiwi, chunk_id, doc, section)
        chunks.append(chunk)
        terms += term_rows
        vectors.append(vector)
        advance()
    names = ["chunk_id", "doc_key", "source_id", "number", "title", "chapter", "location", "text", "n_terms", "quantities", "sentences"]
    _append(con, "chunks", {name: [row[i] for row in chunks] for i, name in enumerate(names)})
    _append(con, "chunk_terms", {name: [row[i] for row in terms] for i, name in enumerate(["chunk_id", "term", "tf"])})
    _append(con, "chunk_vectors", {
        "chunk_id": [c[0] for c in chunks], "doc_key": [doc.doc_key] * len(chunks), "source_id": [c[2] for c in chunks],
        "location": [c[6] for c in chunks],
        "vec": pa.FixedSizeListArray.from_arrays(pa.array(np.concatenate(vectors) if vectors else [], pa.float32()), DIM),
    })


def sync_documents(
    con: duckdb.DuckDBPyConnection, kiwi: Any, docs: list[ManualDocument], advance: Callable[[], None] = lambda: None,
) -> DocumentChanges:
    """Bring the document tables in line with `docs`, analysing only what changed."""
    existing = dict(con.execute("SELECT doc_key, content_hash FROM documents").fetchall())
    changes = DocumentChanges()
    wanted = {d.doc_key for d in docs}
    for doc_key in sorted(set(existing) - wanted):
        _delete_document(con, doc_key)
        changes.removed.append(doc_key)
    for doc in docs:
        if existing.get(doc.doc_key) == doc.content_hash:
            changes.unchanged.append(doc.doc_key)
            continue
        if doc.doc_key in existing:
            _delete_document(con, doc.doc_key)
            changes.updated.append(doc.doc_key)
        else:
            changes.added.append(doc.doc_key)
        _insert_document(con, kiwi, doc, advance)
    return changes


def refresh_derived(con: duckdb.DuckDBPyConnection) -> None:
    """Term statistics, BM25 weights and version alignments from the current rows."""
    con.execute(_DERIVED)


def index_version(con: duckdb.DuckDBPyConnection, graph_hash: str) -> str:
    """A content hash of everything retrieval reads: documents, graph, schema and embedding."""
    docs = con.execute("SELECT doc_key, content_hash FROM documents ORDER BY doc_key").fetchall()
    payload = json.dumps([SCHEMA_VERSION, EMBEDDING_VERSION, BM25_K1, BM25_B, docs, graph_hash])
    return hashlib.sha256(payload.encode("utf-8")).hexdigest()[:16]


def write_meta(con: duckdb.DuckDBPyConnection, values: dict[str, Any]) -> None:
    con.execute("DELETE FROM meta")
    con.executemany("INSERT INTO meta VALUES (?, ?)", [[k, json.dumps(v, ensure_ascii=False)] for k, v in values.items()])


def read_meta(con: duckdb.DuckDBPyConnection) -> dict[str, Any]:
    return {k: json.loads(v) for k, v in con.execute("SELECT key, value FROM meta").fetchall()}


def current_doc_keys(con: duckdb.DuckDBPyConnection, as_of: date) -> list[str]:
    """The document versions valid at `as_of` (the newest per doc_id)."""
    return sorted(r[0] for r in con.execute(CURRENT_DOCS_SQL, {"as_of": as_of}).fetchall())


def current_source_ids(con: duckdb.DuckDBPyConnection, as_of: date) -> set[str]:
    """Section ids of the document versions valid at `as_of`."""
    rows = con.execute(f"SELECT source_id FROM chunks WHERE doc_key IN ({CURRENT_DOCS_SQL})", {"as_of": as_of}).fetchall()
    return {r[0] for r in rows}


def counts(con: duckdb.DuckDBPyConnection) -> dict[str, int]:
    one = lambda sql: con.execute(sql).fetchone()[0]  # noqa: E731
    return {
        "documents": one("SELECT count(*) FROM documents"),
        "chunks": one("SELECT count(*) FROM chunks"),
        "postings": one("SELECT count(*) FROM chunk_terms"),
        "tokens": one("SELECT coalesce(sum(n_terms), 0) FROM chunks"),
        "distinct_terms": one("SELECT count(*) FROM postings"),
    }
