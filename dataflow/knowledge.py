"""Building the knowledge index (documents + graph in one DuckDB file) and opening it for turns."""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

import duckdb

from kg.graph import graph_counts, write_graph
from kg.triples import read_graph
from rag import index as doc_index
from rag.corpus import read_corpus
from rag.index import DocumentChanges
from rag.store import PROJECT_ROOT
from registry.errors import KnowledgeIndexError
from registry.loader import Registry

DEFAULT_CORPUS = PROJECT_ROOT / "data" / "manual"
DEFAULT_GRAPH = PROJECT_ROOT / "data" / "kg"


@dataclass(frozen=True)
class BuildSummary:
    db_path: Path
    index_version: str
    changes: DocumentChanges
    counts: dict[str, int]
    seconds: float


def _connect_for_writing(db_path: Path) -> duckdb.DuckDBPyConnection:
    db_path.parent.mkdir(parents=True, exist_ok=True)
    try:
        return duckdb.connect(str(db_path))
    except duckdb.IOException as exc:
        raise KnowledgeIndexError(f"cannot open {db_path} for writing ({str(exc).splitlines()[0]}); is another a2a process using it?") from None
    except duckdb.Error as exc:
        raise KnowledgeIndexError(f"{db_path} is not a DuckDB file this version can write ({exc}); delete it and build again") from None


def build_knowledge_index(
    db_path: Path,
    kiwi: Any,
    registry: Registry,
    corpus_dir: Path = DEFAULT_CORPUS,
    graph_dir: Path = DEFAULT_GRAPH,
    on_start: Callable[[int], None] = lambda total: None,
    advance: Callable[[], None] = lambda: None,
) -> BuildSummary:
    """Build or update the index; only documents whose content changed are analysed again.

    `on_start(n)` receives the number of sections that will be analysed, `advance()` is called
    once per analysed section (for a progress bar). Everything happens in one transaction.
    """
    started = time.perf_counter()
    docs = read_corpus(corpus_dir)
    graph = read_graph(graph_dir, set(registry.capability_by_id))
    con = _connect_for_writing(db_path)
    try:
        doc_index.ensure_schema(con)
        existing = dict(con.execute("SELECT doc_key, content_hash FROM documents").fetchall())
        on_start(sum(len(d.sections) for d in docs if existing.get(d.doc_key) != d.content_hash))
        con.execute("BEGIN TRANSACTION")
        try:
            changes = doc_index.sync_documents(con, kiwi, docs, advance)
            doc_index.refresh_derived(con)
            write_graph(con, graph, {row[0] for row in con.execute("SELECT source_id FROM chunks").fetchall()})
            version = doc_index.index_version(con, graph.content_hash)
            counts = {**doc_index.counts(con), **graph_counts(con)}
            doc_index.write_meta(con, {"index_version": version, "schema": doc_index.SCHEMA_VERSION, "counts": counts,
                                       "corpus_dir": str(corpus_dir), "graph_dir": str(graph_dir)})
            con.execute("COMMIT")
        except BaseException:
            con.execute("ROLLBACK")
            raise
    finally:
        con.close()
    return BuildSummary(db_path=db_path, index_version=version, changes=changes, counts=counts,
                        seconds=round(time.perf_counter() - started, 3))
