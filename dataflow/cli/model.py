"""Model-backend options of `a2a route` / `a2a batch` (--backend, --record, --cassette, --model)
and the `a2a compare RUN_A RUN_B` command."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Optional

import typer
from rich.console import Console
from rich.table import Table

if TYPE_CHECKING:
    from dataflow.driver import DriverConfig
    from registry.loader import Registry

BACKENDS = ("heuristic", "gemini", "hybrid", "replay")

BackendOption = Annotated[str, typer.Option(
    "--backend", help="Planner backend: heuristic (no model) | gemini (the model plans; key from GEMINI_API_KEY or "
                      "GOOGLE_API_KEY, base URL from A2A_GEMINI_BASE_URL) | hybrid (the model only for unsure turns) | "
                      "replay (answers from --cassette, no network).")]
RecordOption = Annotated[Optional[Path], typer.Option(
    "--record", dir_okay=False, help="Write every model request and reply to this cassette (JSON Lines) for --backend replay.")]
CassetteOption = Annotated[Optional[Path], typer.Option(
    "--cassette", dir_okay=False, help="With --backend replay: the cassette written by --record.")]
ModelOption = Annotated[Optional[str], typer.Option(
    "--model", help="Gemini model name (default from registry/model_policy.json).")]


def model_runner(backend: str = "heuristic", record: Path | None = None, cassette: Path | None = None,
                 model: str | None = None, engine: str = "local", config: DriverConfig | None = None, registry: Registry | None = None):
    """The TurnRunner for the chosen backend; None for a non-local engine (which builds its own).

    `config` (a DriverConfig, its planner_backend replaced by `backend`) and `registry` (e.g. other
    evidence weights) make a variant runner; a model client is made when the backend or a config stage needs one."""
    from dataflow.driver import DriverConfig, TurnRunner
    from dataflow.model_client import RecordingClient, ReplayClient, client_from_env

    if backend not in BACKENDS:
        raise typer.BadParameter(f"one of {', '.join(BACKENDS)}", param_hint="--backend")
    if backend != "replay" and cassette is not None:
        raise typer.BadParameter("only with --backend replay (a recorded run is replayed with its recorded config)", param_hint="--cassette")
    if backend == "replay" and (config is not None or registry is not None):
        raise typer.BadParameter("a replay runs with the config and weights it was recorded with", param_hint="--backend")
    config = (config or DriverConfig()).model_copy(update={"planner_backend": backend})
    calls_model = backend != "replay" and config.uses_model
    if not calls_model and backend != "replay" and record is not None:
        raise typer.BadParameter("records the calls of --backend gemini or hybrid (or of a --config model stage)", param_hint="--record")
    if not calls_model and backend != "replay" and model is not None:
        raise typer.BadParameter("needs --backend gemini or hybrid (or a --config model stage)", param_hint="--model")
    if backend == "replay" and record is not None:
        raise typer.BadParameter("records the calls of --backend gemini or hybrid", param_hint="--record")
    if engine != "local":
        if backend != "heuristic" or calls_model:
            raise typer.BadParameter("model backends run on the local engine (one ledger and cassette per run)", param_hint="--engine")
        return None
    if backend == "replay":
        if cassette is None:
            raise typer.BadParameter("--backend replay needs --cassette FILE (written by --record)", param_hint="--cassette")
        client = ReplayClient.open(cassette)
        if model is not None and model != client.model:
            raise typer.BadParameter(f"the cassette was recorded with {client.model!r}", param_hint="--model")
        return TurnRunner(DriverConfig.parse(client.driver_config), model_client=client)
    if not calls_model:
        return TurnRunner(config, registry=registry)
    client = client_from_env(model)
    if record is not None:
        client = RecordingClient(client, record, client.model, config.model_dump())
    return TurnRunner(config, registry=registry, model_client=client)


def model_line(record) -> str | None:
    """One line for `a2a route`'s view: which path decided, and the model's cost."""
    planner = record.evidence.planner
    if planner is None or planner.decided_by == "heuristic":
        return None
    usage = record.usage
    line = f"[dim]planner:[/dim] {planner.decided_by} ({planner.reason})"
    if usage.model_calls:
        line += f"  model calls {usage.model_calls}, tokens {usage.prompt_tokens}+{usage.output_tokens}, " + ", ".join(
            f"{stage} {ms:.0f} ms" for stage, ms in usage.model_ms.items())
    return line


def print_model_usage(console: Console, metrics: dict[str, Any]) -> None:
    """The batch's model economy table (nothing when no model was called)."""
    usage = metrics.get("model_usage") or {}
    if not usage.get("model_calls") and not usage.get("fail_closed"):
        return
    table = Table(title="model usage")
    table.add_column("metric")
    table.add_column("value", justify="right")
    for key in ("calls_per_turn", "tokens_per_turn", "prompt_tokens_per_call", "turns_with_model_calls", "fail_closed"):
        table.add_row(key, f"{usage[key]:.3f}" if isinstance(usage[key], float) else str(usage[key]))
    table.add_row("model latency p50 / p95 ms", f"{usage['model_latency_ms']['p50']:.1f} / {usage['model_latency_ms']['p95']:.1f}")
    table.add_row("decided by", ", ".join(f"{k} {v}" for k, v in usage["decided_by"].items()))
    console.print(table)


def _signed(value: float | None) -> str:
    return "n/a (A is 0)" if value is None else f"{value:+.1f}%"


def compare(
    run_a: Path = typer.Argument(..., help="The baseline batch run directory (a2a batch SET --out RUN_A)."),
    run_b: Path = typer.Argument(..., help="The run to compare with it."),
    as_json: bool = typer.Option(False, "--json", help="Print the comparison as JSON."),
    limit: int = typer.Option(20, "--limit", min=0, help="How many rows of each kind (flips, plan and reply changes, failures, recoveries) to list."),
) -> None:
    """Compare two batch runs: model calls %, average tokens %, average latency %, and row by row the family flips,
    plan changes, reply changes, new failures and recoveries."""
    from dataflow.workbench.run_compare import compare_runs, comparison_json
    from registry.errors import A2AError

    try:
        result = compare_runs(run_a, run_b)
    except A2AError as exc:
        Console(stderr=True, soft_wrap=True).print(f"[red]error:[/red] {exc}")
        raise typer.Exit(2) from None
    if as_json:
        sys.stdout.write(comparison_json(result) + "\n")
        return
    console = Console()
    table = Table(title=f"{run_b} vs {run_a}: {result['turns']} common turns")
    for col in ("per turn", "A", "B", "change"):
        table.add_column(col, justify="left" if col == "per turn" else "right")
    for key, label in (("calls_per_turn", "model calls"), ("tokens_per_turn", "tokens"), ("latency_ms_per_turn", "latency ms")):
        table.add_row(label, f"{result['a'][key]:.3f}", f"{result['b'][key]:.3f}", _signed(result["change_pct"][key]))
    console.print(table)
    for key, title in (("family_flips", "family flips"), ("plan_changes", "plan changes"), ("reply_changes", "reply changes"),
                       ("new_failures", "new failures"), ("recoveries", "recoveries")):
        rows = result[key]
        console.print(f"[bold]{title}: {len(rows)}[/bold]")
        for row in rows[:limit]:
            if key == "family_flips":
                detail = f"{row['a']} -> {row['b']}" + (f" (expected {row['expected']})" if row.get("expected") else "")
            elif key in ("plan_changes", "reply_changes"):
                detail = f"\n      A: {row['a']}\n      B: {row['b']}" + ("  [family flip]" if row["family_flip"] else "")
            else:
                detail = row.get("why") or row.get("was")
            console.print(f"  {row['id']}  {row['text']}  {detail}", soft_wrap=True, highlight=False, markup=False)
        if len(rows) > limit:
            console.print(f"  ... and {len(rows) - limit} more (--limit N, or --json for all)", highlight=False)
    if result["only_in_a"] or result["only_in_b"]:
        console.print(f"[yellow]not compared: {result['only_in_a']} turns only in A, {result['only_in_b']} only in B[/yellow]")


def register(app: typer.Typer) -> None:
    app.command()(compare)
