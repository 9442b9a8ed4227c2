"""Shared fixtures of the knowledge tests: the real manual indexed once into a temporary file."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from dataflow.driver import TurnRunner, shared_kiwi
from dataflow.knowledge import DEFAULT_CORPUS, DEFAULT_GRAPH, build_knowledge_index
from rag.store import KnowledgeStore
from registry import load_registry

TODAY = date(2026, 11, 30)
"""A fixed question time after v5 took effect (2026-03-01)."""


@pytest.fixture(scope="session")
def knowledge_db(tmp_path_factory) -> Path:
    db = tmp_path_factory.mktemp("knowledge") / "index.duckdb"
    build_knowledge_index(db, shared_kiwi(), load_registry(), DEFAULT_CORPUS, DEFAULT_GRAPH)
    return db


@pytest.fixture(scope="session")
def knowledge_store(knowledge_db) -> KnowledgeStore:
    return KnowledgeStore.open(knowledge_db, clock=lambda: TODAY)


@pytest.fixture(scope="session")
def answering_runner(knowledge_store) -> TurnRunner:
    return TurnRunner(knowledge=knowledge_store)


def copy_corpus(target: Path, source: Path = DEFAULT_CORPUS) -> Path:
    target.mkdir(parents=True, exist_ok=True)
    for path in source.glob("*.md"):
        (target / path.name).write_text(path.read_text(encoding="utf-8"), encoding="utf-8")
    return target
