"""What a supervised goal reports: its budget, its status and which effects have their terminal evidence.

Shared by the runtime report (`RunReport.goal`), the `goals` table and the CLI.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from registry.contracts import Contract

GoalStatus = Literal["active", "achieved", "not_achieved", "waiting_user", "not_started", "cancelled"]


class DecisionBudget(Contract):
    max_decisions: int = Field(3, ge=1)
    """Supervisor decisions in all; the last one always ends the workflow, so the budget is never exceeded."""
    max_replans: int = Field(1, ge=0)
    """Plan changes in all."""


class GoalReport(Contract):
    """An admitted goal at the end of its run (also stored in the `goals` table)."""

    experience_id: str
    goal_summary: str
    status: GoalStatus
    success_criteria: list[str]
    effects_achieved: list[str] = Field(default_factory=list)
    """Criteria whose terminal evidence arrived."""
    effects_missing: list[str] = Field(default_factory=list)
    effects_not_required: list[str] = Field(default_factory=list)
    """Criteria of steps their user-given guard skipped (a clean that was not needed)."""
    decisions_spent: int = 0
    replans_spent: int = 0
    budget: DecisionBudget = Field(default_factory=DecisionBudget)
    temporal_relation: str | None = None
    temporal_anchor_id: str | None = None
