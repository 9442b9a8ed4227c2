"""The knowledge store handed to the DAG at the edge: a read-only DuckDB handle, its clock, its data.

Opening never raises for a missing index: the store then says what is missing and which
command builds it, so DQR turns still route and answer honestly.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta, timezone
from pathlib import Path
from typing import Any, Callable

import duckdb

from rag.index import SCHEMA_VERSION, stored_schema
from registry.errors import KnowledgeIndexError

PROJECT_ROOT = Path(__file__).resolve().parents[1]
DEFAULT_DB = Path(".a2a") / "knowledge.duckdb"
"""Relative to the working directory (the user's project); A2A_KNOWLEDGE_DB overrides it."""
DB_ENV = "A2A_KNOWLEDGE_DB"
RAG_DATA_DIR = PROJECT_ROOT / "data" / "rag"
TEMPLATES_FILE = "templates.json"
CALIBRATION_FILE = "calibration.json"
_KST = timezone(timedelta(hours=9))
DEFAULT_FUSION = {"dense": 0.25, "graph": 0.3}
"""Weights of the dense and graph channels beside max-normalized BM25 (calibration.json may refit them)."""


def default_db_path() -> Path:
    return Path(os.environ[DB_ENV]) if os.environ.get(DB_ENV) else DEFAULT_DB


def build_hint(db_path: Path) -> str:
    extra = "" if db_path == default_db_path() else f" --db {db_path}"
    return f"a2a index build{extra}"


def today_kst() -> date:
    """The question time of a live turn (the product ships in Korea)."""
    return datetime.now(_KST).date()


@dataclass(frozen=True)
class Calibration:
    """The answerability model fitted by `a2a index calibrate` (data/rag/calibration.json)."""

    weights: dict[str, float]
    bias: float
    threshold: float
    fusion: dict[str, float] = field(default_factory=lambda: dict(DEFAULT_FUSION))
    fitted_on: dict[str, Any] = field(default_factory=dict)


def _read_json(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise KnowledgeIndexError(f"{path}: not found") from None
    except json.JSONDecodeError as exc:
        raise KnowledgeIndexError(f"{path}: line {exc.lineno} column {exc.colno}: {exc.msg}") from None


def load_calibration(data_dir: Path = RAG_DATA_DIR) -> Calibration:
    raw = _read_json(data_dir / CALIBRATION_FILE)
    try:
        return Calibration(weights={k: float(v) for k, v in raw["weights"].items()}, bias=float(raw["bias"]),
                           threshold=float(raw["threshold"]),
                           fusion={k: float(v) for k, v in raw.get("fusion", DEFAULT_FUSION).items()},
                           fitted_on=raw.get("fitted_on", {}))
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise KnowledgeIndexError(f"{data_dir / CALIBRATION_FILE}: weights, bias and threshold are required ({exc})") from None


def load_templates(data_dir: Path = RAG_DATA_DIR) -> dict[str, Any]:
    templates = _read_json(data_dir / TEMPLATES_FILE)
    if not isinstance(templates, dict) or "answers" not in templates:
        raise KnowledgeIndexError(f"{data_dir / TEMPLATES_FILE}: an 'answers' object is required")
    return templates


class KnowledgeStore:
    """What the knowledge stages read: index connection, question clock, templates, calibration."""

    def __init__(self, db_path: Path, con: duckdb.DuckDBPyConnection | None, problem: str | None,
                 templates: dict[str, Any], calibration: Calibration, clock: Callable[[], date] = today_kst):
        self.db_path = db_path
        self.con = con
        self.problem = problem
        """Why the index cannot be read (None when it can)."""
        self.templates = templates
        self.calibration = calibration
        self.clock = clock
        self.index_version: str | None = None
        self._memo: dict[str, Any] = {}
        if con is not None:
            rows = con.execute("SELECT value FROM meta WHERE key = 'index_version'").fetchall()
            self.index_version = json.loads(rows[0][0]) if rows else None

    @classmethod
    def open(cls, db_path: Path | None = None, clock: Callable[[], date] = today_kst, data_dir: Path = RAG_DATA_DIR) -> "KnowledgeStore":
        db_path = Path(db_path) if db_path is not None else default_db_path()
        templates, calibration = load_templates(data_dir), load_calibration(data_dir)
        if not db_path.exists():
            return cls(db_path, None, f"no knowledge index at {db_path}; build it with `{build_hint(db_path)}`", templates, calibration, clock)
        try:
            con = duckdb.connect(str(db_path), read_only=True)
            schema = stored_schema(con)
        except duckdb.Error as exc:
            if "lock" in str(exc).lower():
                problem = f"cannot open {db_path}: another process holds it (is `a2a index build` running?)"
            else:
                problem = f"{db_path} is not a knowledge index; delete it and build one with `{build_hint(db_path)}`"
            return cls(db_path, None, problem, templates, calibration, clock)
        if schema != SCHEMA_VERSION:
            con.close()
            return cls(db_path, None, f"{db_path} was built by another version of a2a ({schema or 'unknown'}, this one reads "
                                      f"{SCHEMA_VERSION}); rebuild it with `{build_hint(db_path)}`", templates, calibration, clock)
        return cls(db_path, con, None, templates, calibration, clock)

    @property
    def available(self) -> bool:
        return self.con is not None and self.index_version is not None

    def require(self) -> duckdb.DuckDBPyConnection:
        """The connection, or a KnowledgeIndexError that names the build command."""
        if not self.available:
            raise KnowledgeIndexError(self.problem or f"the index at {self.db_path} is incomplete; rebuild it with `{build_hint(self.db_path)}`")
        return self.con  # type: ignore[return-value]

    def memo(self, key: str, factory: Callable[[], Any]) -> Any:
        """A value derived from the index, computed once per store."""
        if key not in self._memo:
            self._memo[key] = factory()
        return self._memo[key]

    def turn_inputs(self) -> dict[str, Any]:
        """The DAG inputs of the knowledge path for one turn."""
        return {"knowledge_store": self, "knowledge_as_of": self.clock()}

    def close(self) -> None:
        if self.con is not None:
            self.con.close()
            self.con = None
