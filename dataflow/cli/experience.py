"""Experience on the command line: the goal and decisions of `a2a run`, the Experience block of
`a2a batch`, and `a2a goals list` (admitted goals stored with their workflows)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import typer
from rich.console import Console
from rich.table import Table

_GOAL_STYLE = {"achieved": "green", "active": "cyan", "waiting_user": "yellow", "not_started": "yellow", "cancelled": "magenta"}


def print_supervision(console: Console, report) -> None:
    """The decisions a run spent and, for an admitted goal, its status and effects (text output of `a2a run`)."""
    actions = " -> ".join(d["action"] for d in report.decisions)
    goal = report.goal
    if goal is None:
        if report.decisions:
            console.print(f"[dim]supervisor decisions spent: {len(report.decisions)} ({actions})[/dim]")
        return
    style = _GOAL_STYLE.get(goal.status, "red")
    console.print(f"goal {goal.experience_id} [bold {style}]{goal.status}[/bold {style}]  {goal.goal_summary}"
                  + (f"  [dim]({goal.temporal_relation}{' ' + goal.temporal_anchor_id if goal.temporal_anchor_id else ''})[/dim]"
                     if goal.temporal_relation else ""), highlight=False, soft_wrap=True)
    marks = {**{e: "[green]achieved[/green]" for e in goal.effects_achieved}, **{e: "[red]missing[/red]" for e in goal.effects_missing},
             **{e: "[dim]not required[/dim]" for e in goal.effects_not_required}}
    console.print("  effects " + f"{len(goal.effects_achieved)}/{len(goal.success_criteria)}: "
                  + ", ".join(f"{e} {marks.get(e, '')}" for e in goal.success_criteria), highlight=False, soft_wrap=True)
    b = goal.budget
    console.print(f"  decisions spent {goal.decisions_spent}/{b.max_decisions}, replans {goal.replans_spent}/{b.max_replans}"
                  + (f" ({actions})" if actions else ""), highlight=False)


def print_experience_metrics(console: Console, metrics: dict[str, Any]) -> None:
    """The Experience block of a batch run (only for sets with Experience labels)."""
    exp = metrics.get("experience")
    if not exp:
        return
    table = Table(title=f"Experience: {exp['rows']} labelled rows")
    table.add_column("metric")
    table.add_column("value", justify="right")
    fmt = lambda v: "-" if v is None else f"{v:.3f}"  # noqa: E731
    adm = exp["admission"]
    table.add_row("admission precision", fmt(adm["precision"]))
    table.add_row("admission recall", fmt(adm["recall"]))
    table.add_row("false admissions (expected not admitted)", str(len(exp["false_admissions"])))
    table.add_row("refused admissions (expected admitted)", str(len(exp["missed_admissions"])))
    for key in ("proposal_accuracy", "desired_effects_accuracy", "temporal_relation_accuracy", "unsupported_outcomes_accuracy"):
        table.add_row(key.replace("_", " "), fmt(exp[key]))
    table.add_row("full pass (every scored key of the row)", fmt(exp["full_pass_rate"]))
    console.print(table)  # the rows that are not a full pass follow, with every other failing row (`a2a batch`)


_DB = Path("runs/workflows.duckdb")
goals_app = typer.Typer(help="Admitted Experience goals stored with their workflows.", no_args_is_help=True)


@goals_app.command("list")
def goals_list(
    db: Path = typer.Option(_DB, "--db", help="DuckDB file holding workflows and their goals."),
    limit: int = typer.Option(50, "--limit", min=1, help="How many, newest first."),
) -> None:
    """List admitted goals: status, decisions and replans spent, the turn's text."""
    from dataflow.cli.common import open_store, user_errors
    from dataflow.runtime.goal_store import list_goals

    console = Console()
    with user_errors():
        store = open_store(db)
        table = Table(title=f"goals in {db}")
        for col in ("workflow", "experience", "status", "decisions", "replans", "text"):
            table.add_column(col, overflow="fold")
        for g in list_goals(store, limit):
            table.add_row(g["workflow_id"], g["experience_id"], g["status"], str(g["decisions_spent"]), str(g["replans_spent"]),
                          (g["text"] or "")[:40])
        console.print(table)
        store.close()


def register(app: typer.Typer) -> None:
    app.add_typer(goals_app, name="goals")
