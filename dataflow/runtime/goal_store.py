"""Admitted goals stored with their workflow (the `goals` table beside the workflow state in DuckDB).

One row per workflow whose turn was admitted: the Goal contract as admitted and its latest report
(status, effects with and without terminal evidence, decisions and replans spent). A workflow that
was not admitted has no row: no Experience metadata on its execution path.
"""

from __future__ import annotations

from typing import Any

from dataflow.runtime.store import WorkflowStore
from registry.experience import GoalContract
from registry.goal_contracts import GoalReport

_SCHEMA = """
CREATE TABLE IF NOT EXISTS goals (
  workflow_id VARCHAR PRIMARY KEY, experience_id VARCHAR, status VARCHAR, goal_json VARCHAR, report_json VARCHAR,
  decisions_spent INTEGER, replans_spent INTEGER);
"""


def _ensure(store: WorkflowStore) -> None:
    store.con.execute(_SCHEMA)


def save_goal(store: WorkflowStore, workflow_id: str, goal: GoalContract, report: GoalReport) -> None:
    """Insert or update the goal row of a workflow."""
    _ensure(store)
    with store.transaction():
        store._write("DELETE FROM goals WHERE workflow_id = ?", [workflow_id])
        store._write("INSERT INTO goals VALUES (?, ?, ?, ?, ?, ?, ?)",
                     [workflow_id, goal.experience_id, report.status, goal.model_dump_json(), report.model_dump_json(),
                      report.decisions_spent, report.replans_spent])


def load_goal(store: WorkflowStore, workflow_id: str) -> tuple[GoalContract, GoalReport] | None:
    _ensure(store)
    row = store.con.execute("SELECT goal_json, report_json FROM goals WHERE workflow_id = ?", [workflow_id]).fetchone()
    if row is None:
        return None
    return GoalContract.model_validate_json(row[0]), GoalReport.model_validate_json(row[1])


def list_goals(store: WorkflowStore, limit: int = 50) -> list[dict[str, Any]]:
    _ensure(store)
    cur = store.con.execute(
        "SELECT g.workflow_id, g.experience_id, g.status, g.decisions_spent, g.replans_spent, w.text FROM goals g"
        " JOIN workflows w USING (workflow_id) ORDER BY w.created_at DESC, g.workflow_id LIMIT ?", [limit])
    return [dict(zip([d[0] for d in cur.description], r)) for r in cur.fetchall()]
