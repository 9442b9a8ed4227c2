"""Cached evidence features of a batch run: what the owner decision reads, per utterance, as arrays.

A batch run writes `features.parquet` (utterance-level axis strengths, candidate families, the schedule
short-circuit, the reply metas, the public-target strength, fail-closed plans), `clause_features.parquet`
(the axis strengths of the clauses that decide for themselves) and `evidence_weights.json`; the tuning
module re-scores them under other weights without running the DAG.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Mapping

import numpy as np

from registry.contracts import FAMILIES
from registry.errors import TuningError
from registry.record_contracts import DecisionRecord
from registry.registry_models import EvidenceWeights
from stages.ngram_model import lit_strengths
from stages.owner_choice import deciding_clauses, public_target

FEATURES_FILE = "features.parquet"
CLAUSE_FEATURES_FILE = "clause_features.parquet"
WEIGHTS_FILE = "evidence_weights.json"
AXIS_PREFIX = "axis."


@dataclass
class EvidenceFeatures:
    """Everything the owner decision reads, per utterance, as arrays."""

    ids: list[str]
    texts: list[str]
    expected: list[str | None]
    run_family: list[str | None]
    axes: list[str]
    strengths: np.ndarray
    """rows x axes."""
    n_clauses: np.ndarray
    allowed: list[frozenset[str]]
    short_circuit: np.ndarray
    object_type: list[str]
    replyability_type: list[str]
    public: np.ndarray
    fail_closed: np.ndarray
    error: np.ndarray
    clause_row: np.ndarray
    """Row index of each deciding clause."""
    clause_index: np.ndarray
    clause_strengths: np.ndarray
    """deciding clauses x axes."""
    meta: dict[str, Any] = field(default_factory=dict)

    def __len__(self) -> int:
        return len(self.ids)


def features_from_records(records: Iterable[DecisionRecord], rows: Iterable[Mapping[str, Any]] = (),
                          signal_entries: Iterable[str] = ()) -> EvidenceFeatures:
    """Features of decision records (rows give the expected families). `signal_entries` (`axis=signal`, as
    `learned_opening.unless_for` names them) are kept as columns of their own, weighted by nothing."""
    records = list(records)
    entries = sorted(set(signal_entries))
    expect = {str(r.get("id")): (r.get("expect") or {}).get("family") for r in rows}
    axis_names = sorted({a for r in records for a in r.evidence.axes}
                        | {a for r in records for c in r.evidence.clause_axes for a in c} | set(entries))
    col = {a: i for i, a in enumerate(axis_names)}
    strengths = np.zeros((len(records), len(axis_names)))
    clause_row, clause_index, clause_vecs = [], [], []
    allowed, n_clauses, public, objects, replies, short, fail, error = [], [], [], [], [], [], [], []
    for i, rec in enumerate(records):
        ev = rec.evidence
        axes = {k: v.strength for k, v in ev.axes.items()}
        lit = lit_strengths(ev.axes)
        for name, value in axes.items() | {(e, lit[e]) for e in entries if e in lit}:
            strengths[i, col[name]] = value
        clause_axes = ev.clause_axes
        roles = [c.role for c in ev.clauses]
        for ci in deciding_clauses(roles, clause_axes):
            vec = np.zeros(len(axis_names))
            for name, value in clause_axes[ci].items():
                vec[col[name]] = value
            clause_row.append(i)
            clause_index.append(ci)
            clause_vecs.append(vec)
        n_clauses.append(len(roles))
        allowed.append(frozenset(ev.candidate_families or FAMILIES))
        public.append(public_target(lambda a, axes=axes: axes.get(a, 0.0))[0])
        objects.append(ev.reply_object_meta.object_type if ev.reply_object_meta else "unknown")
        replies.append(ev.replyability_meta.replyability_type if ev.replyability_meta else "uncertain")
        short.append(ev.schedule_short_circuit is not None and ev.schedule_short_circuit.active)
        fail.append(ev.plan_checks is not None and ev.plan_checks.fail_closed)
        error.append(rec.error is not None or ev.plan_checks is None)
    return EvidenceFeatures(
        ids=[str(r.id) for r in records], texts=[r.text for r in records], expected=[expect.get(str(r.id)) for r in records],
        run_family=[r.family for r in records], axes=axis_names, strengths=strengths, n_clauses=np.array(n_clauses, dtype=int),
        allowed=allowed, short_circuit=np.array(short, dtype=bool), object_type=objects, replyability_type=replies,
        public=np.array(public, dtype=float), fail_closed=np.array(fail, dtype=bool), error=np.array(error, dtype=bool),
        clause_row=np.array(clause_row, dtype=int), clause_index=np.array(clause_index, dtype=int),
        clause_strengths=np.array(clause_vecs).reshape(len(clause_vecs), len(axis_names)),
    )


def signal_entries(weights: EvidenceWeights) -> list[str]:
    """The `axis=signal` entries the weights read (learned_opening.unless_for)."""
    return [e for entries in weights.learned_opening.unless_for.values() for e in entries if "=" in e]


def write_features(out_dir: Path, rows: list[dict[str, Any]], records: list[DecisionRecord], weights: EvidenceWeights,
                   meta: Mapping[str, Any] | None = None) -> EvidenceFeatures:
    """features.parquet, clause_features.parquet and the weights snapshot of a run directory."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    f = features_from_records(records, rows, signal_entries(weights))
    schema_meta = {b"a2a": json.dumps({"axes": f.axes, **(meta or {})}).encode()}
    columns: dict[str, Any] = {
        "id": f.ids, "text": f.texts, "expected_family": f.expected, "run_family": f.run_family,
        "n_clauses": f.n_clauses, "candidate_families": [sorted(a) for a in f.allowed],
        "schedule_short_circuit": f.short_circuit, "object_type": f.object_type, "replyability_type": f.replyability_type,
        "public_target": f.public, "fail_closed": f.fail_closed, "error": f.error,
    }
    columns.update({AXIS_PREFIX + a: f.strengths[:, j] for j, a in enumerate(f.axes)})
    table = pa.table(columns)
    pq.write_table(table.replace_schema_metadata(schema_meta), out_dir / FEATURES_FILE)
    clause_cols: dict[str, Any] = {"row": f.clause_row, "clause_index": f.clause_index}
    clause_cols.update({AXIS_PREFIX + a: f.clause_strengths[:, j] for j, a in enumerate(f.axes)})
    pq.write_table(pa.table(clause_cols), out_dir / CLAUSE_FEATURES_FILE)
    (out_dir / WEIGHTS_FILE).write_text(weights.model_dump_json(indent=1), encoding="utf-8")
    f.meta = dict(meta or {})
    return f


def load_features(run_dir: Path) -> EvidenceFeatures:
    """The cached features of a batch run directory."""
    import pyarrow.parquet as pq

    path = Path(run_dir) / FEATURES_FILE
    if not path.exists():
        raise TuningError(f"{path}: no cached features; run `a2a batch SET --out {run_dir}` first")
    table = pq.read_table(path)
    meta = json.loads((table.schema.metadata or {}).get(b"a2a", b"{}"))
    data = table.to_pydict()
    axes = [c[len(AXIS_PREFIX):] for c in table.column_names if c.startswith(AXIS_PREFIX)]
    strengths = np.column_stack([np.asarray(data[AXIS_PREFIX + a], dtype=float) for a in axes]) if axes else np.zeros((table.num_rows, 0))
    clauses = pq.read_table(Path(run_dir) / CLAUSE_FEATURES_FILE).to_pydict()
    clause_strengths = (np.column_stack([np.asarray(clauses[AXIS_PREFIX + a], dtype=float) for a in axes])
                        if axes else np.zeros((len(clauses["row"]), 0)))
    return EvidenceFeatures(
        ids=data["id"], texts=data["text"], expected=data["expected_family"], run_family=data["run_family"], axes=axes,
        strengths=strengths, n_clauses=np.asarray(data["n_clauses"], dtype=int),
        allowed=[frozenset(a) for a in data["candidate_families"]], short_circuit=np.asarray(data["schedule_short_circuit"], dtype=bool),
        object_type=data["object_type"], replyability_type=data["replyability_type"], public=np.asarray(data["public_target"], dtype=float),
        fail_closed=np.asarray(data["fail_closed"], dtype=bool), error=np.asarray(data["error"], dtype=bool),
        clause_row=np.asarray(clauses["row"], dtype=int), clause_index=np.asarray(clauses["clause_index"], dtype=int),
        clause_strengths=clause_strengths.reshape(len(clauses["row"]), len(axes)), meta=meta,
    )
