"""The `a2a` command line: route one turn, score a set, draw the DAG, export schemas."""

from __future__ import annotations

import json
import sys
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Optional

import typer
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn
from rich.table import Table

from dataflow.cli import common as cli_common
from dataflow.cli.common import console, err, out_dir_arg, show_record, turn_arg
from dataflow.cli.model import BackendOption, CassetteOption, ModelOption, RecordOption, print_model_usage
from registry.errors import A2AError

app = typer.Typer(help="a2a-planner: route Korean voice turns through the planning DAG.", no_args_is_help=True, add_completion=False)


@app.command()
def route(
    text: str = typer.Argument(..., help="The recognized Korean text."),
    voice_context: Optional[str] = typer.Option(None, "--voice-context", help="voice_context as JSON or @file."),
    device_context: Optional[str] = typer.Option(None, "--device-context", help="device_context overrides as JSON or @file."),
    as_json: bool = typer.Option(False, "--json", help="Print the decision record as JSON."),
    backend: BackendOption = "heuristic",
    record_to: RecordOption = None,
    cassette: CassetteOption = None,
    model: ModelOption = None,
) -> None:
    """Route one turn and show the family, the evidence that decided it and the plan."""
    turn = turn_arg(text, voice_context, device_context)
    record = cli_common.make_runner(backend=backend, record=record_to, cassette=cassette, model=model).route(turn)
    if as_json:
        sys.stdout.write(record.model_dump_json(indent=2) + "\n")
    else:
        show_record(record)


@contextmanager
def _progress(total: int):
    with Progress("[progress.description]{task.description}", BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(), console=err, transient=False) as bar:
        task = bar.add_task("routing", total=total)
        yield lambda: bar.advance(task)


@app.command()
def batch(
    set_path: Path = typer.Argument(..., exists=True, dir_okay=False, help="An utterance set (JSON Lines)."),
    out: Path = typer.Option(Path("runs/latest"), "--out", help="Directory for decisions.jsonl, decisions.parquet, metrics.json."),
    engine: str = typer.Option("local", "--engine", help="local | processes | dask | ray (dask and ray need their extras)."),
    workers: Optional[int] = typer.Option(None, "--workers", min=1, help="Worker processes for processes/dask/ray (default: cores)."),
    address: Optional[str] = typer.Option(None, "--address", help="A running Dask scheduler (tcp://host:8786) or Ray cluster (ray://host:10001)."),
    backend: BackendOption = "heuristic",
    record_to: RecordOption = None,
    cassette: CassetteOption = None,
    model: ModelOption = None,
    answer: bool = typer.Option(False, "--answer", help="Give DQR turns their grounded answer; on a DQR question set also print retrieval metrics."),
    db: Optional[Path] = typer.Option(None, "--db", dir_okay=False, help="Knowledge index for --answer (default .a2a/knowledge.duckdb)."),
    weights: Optional[Path] = typer.Option(None, "--weights", dir_okay=False, help="Run under other evidence weights: a full evidence_weights.json or a partial one, as `a2a tune --weights` reads it."),
    config: list[str] = typer.Option([], "--config", help="Driver config KEY=VALUE (repeatable), e.g. inline_unified_router=false; the planner is --backend."),
) -> None:
    """Route every row of a set, write the decisions and print the metrics.

    With --weights and/or --config the run is a variant; `a2a compare BASE RUN` shows what it changed row by row."""
    from dataflow.workbench.batch import run_batch
    from dataflow.workbench.engines import ENGINES

    if engine not in ENGINES:
        raise typer.BadParameter(f"one of {', '.join(ENGINES)}", param_hint="--engine")
    out_dir_arg(out)
    variant_config, variant_weights = _variant(weights, config)
    registry = None
    if variant_weights is not None:
        from dataflow.workbench.tuning import registry_with_weights

        registry = registry_with_weights(variant_weights)
    runner = cli_common.make_runner(backend=backend, record=record_to, cassette=cassette, model=model, engine=engine,
                     **({"config": variant_config} if variant_config else {}), **({"registry": registry} if registry else {}))
    if answer:
        from dataflow.cli.knowledge import attach_knowledge

        runner = attach_knowledge(runner, engine, db)
    metrics = run_batch(runner, set_path, out, progress_factory=_progress, engine=engine, workers=workers, address=address,
                        config=variant_config, weights=variant_weights)
    _print_batch_metrics(set_path, metrics, out)
    if answer:
        from dataflow.cli.knowledge import report_question_set

        report_question_set(runner, set_path, out, metrics)
    print_model_usage(console, metrics)
    console.print(f"written to {out}/")


def _variant(weights: Optional[Path], pairs: list[str]):
    """(DriverConfig or None, EvidenceWeights or None) of `batch --config/--weights`, read as `a2a tune` and `a2a graph` read them."""
    from dataflow.workbench import tuning
    from dataflow.cli.workbench import parse_config
    from registry.loader import load_registry

    config = parse_config(pairs) if pairs else None
    if config is not None and "planner_backend" in config.model_fields_set:
        raise typer.BadParameter("the planner is chosen with --backend", param_hint="--config")
    if weights is None:
        return config, None
    try:
        return config, tuning.read_weights(weights, load_registry().weights)
    except tuning.TuningError as exc:
        raise typer.BadParameter(str(exc), param_hint="--weights") from None


def _print_batch_metrics(set_path: Path, metrics: dict, out: Path) -> None:
    """The console summary of a run: what was scored, what failed and where the rest is; an unlabelled run says it was not scored."""
    from dataflow.cli.experience import print_experience_metrics

    from dataflow.driver import DriverConfig

    defaults = DriverConfig().model_dump()
    changed = {k: v for k, v in metrics.get("driver_config", {}).items() if v != defaults.get(k)}
    if changed or metrics.get("weights_changed"):
        parts = [f"config {', '.join(f'{k}={json.dumps(v)}' for k, v in changed.items())}" if changed else "",
                 f"{len(metrics['weights_changed'])} weight term(s) changed from the registry's" if metrics.get("weights_changed") else ""]
        console.print(f"[bold]variant run[/bold]: {'; '.join(p for p in parts if p)}", soft_wrap=True)
    table = Table(title=f"{set_path.name}: {metrics['rows']} rows, {metrics['errors']} errors")
    table.add_column("metric")
    table.add_column("value", justify="right")
    scored = metrics.get("scored_rows", 0) > 0
    if scored:
        for key in ("family_accuracy", "action_exact_match", "routes_match", "turn_mode_accuracy", "skill_accuracy", "slot_accuracy",
                    "missing_slots_accuracy"):
            value = metrics.get(key)
            table.add_row(key, "-" if value is None else f"{value:.3f}")
    table.add_row("false_actions", str(metrics["false_actions"]))  # a product question counts too: it asks no act
    table.add_row("second_pass_rate", "-" if metrics.get("second_pass_rate") is None else f"{metrics['second_pass_rate']:.3f}")
    table.add_row("latency p50 / p95 ms", f"{metrics['latency_ms']['p50']:.2f} / {metrics['latency_ms']['p95']:.2f}")
    table.add_row("decided families", ", ".join(f"{f} {n}" for f, n in metrics.get("decided_families", {}).items()) or "-")
    console.print(table)
    if not scored:
        console.print(f"[yellow]nothing was scored:[/yellow] no row of {set_path.name} has an `expect` to check "
                      f"(the decisions are in {out / 'decisions.jsonl'})", soft_wrap=True)
    _print_false_actions(metrics, out)
    if not scored:
        return
    if metrics.get("scored", {}).get("family"):
        per = Table(title="per family")
        for col in ("family", "precision", "recall", "f1", "support"):
            per.add_column(col, justify="right" if col != "family" else "left")
        for fam, v in metrics["per_family"].items():
            per.add_row(fam, f"{v['precision']:.3f}", f"{v['recall']:.3f}", f"{v['f1']:.3f}", str(v["support"]))
        console.print(per)
    else:
        console.print("[yellow]families were not scored:[/yellow] no row has an expected family", soft_wrap=True)
    print_experience_metrics(console, metrics)
    _print_failing_rows(metrics, out)


def _print_false_actions(metrics: dict, out: Path, shown: int = 10) -> None:
    """Rows that plan a device step nobody asked for: the first few, and where the rest are."""
    rows = metrics["false_action_rows"]
    if not rows:
        return
    console.print(f"[red]{len(rows)} row(s) plan device steps they did not ask for:[/red]")
    for row in rows[:shown]:
        console.print(f"  {row['id']}: {', '.join(row['actions'])}  {row['text'][:60]!r}", soft_wrap=True)
    if len(rows) > shown:
        console.print(f"  ... and {len(rows) - shown} more in {out / 'errors.jsonl'}", soft_wrap=True)


def _value_text(key: str, value: Any) -> str:
    """A labelled or decided value, short: actions as cap.op(args), ? marking a guarded step."""
    if key == "actions" and isinstance(value, list):
        from dataflow.workbench.report import format_actions

        return format_actions(value)
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def _print_failing_rows(metrics: dict, out: Path, shown: int = 10) -> None:
    """Rows that are not a full pass, expected -> got for each failing key: the first few, and where all of them are."""
    rows = metrics.get("failing_rows", [])
    if not rows:
        console.print("[green]every scored row is a full pass[/green]")
        return
    console.print(f"[red]{len(rows)} row(s) are not a full pass[/red] (expected -> got):")
    for row in rows[:shown]:
        why = [f"{k} {_value_text(k, row['expected'].get(k))} -> {_value_text(k, row['got'].get(k))}" for k in row["failed"]]
        if row.get("false_actions"):
            why.append(f"false actions {', '.join(row['false_actions'])}")
        if row.get("error"):
            why.append(f"error {row['error']}")
        console.print(f"  {row['id']} {row['text'][:40]!r}: {'; '.join(why)}", soft_wrap=True, highlight=False, markup=False)
    if len(rows) > shown:
        console.print(f"  ... and {len(rows) - shown} more in {out / 'errors.jsonl'}", soft_wrap=True, highlight=False)
    else:
        console.print(f"  (all of them, expected and got, in {out / 'errors.jsonl'})", soft_wrap=True, highlight=False)


@app.command()
def graph(
    out: Path = typer.Option(Path("stage_graph.png"), "--out", help="Output file: .png, .svg or .dot"),
    inline_unified_router: Optional[bool] = typer.Option(None, help="Draw the inline (true) or separate (false) ranked-flow variant."),
    config: list[str] = typer.Option([], "--config", help="Driver config KEY=VALUE (repeatable), e.g. inline_unified_router=false."),
) -> None:
    """Draw the stage DAG: node types, pipeline steps, and the config's variants (chosen and not built)."""
    from dataflow.cli.workbench import parse_config
    from dataflow.workbench.graph_views import GraphError, render, stage_graph

    cfg = parse_config(config)
    if inline_unified_router is not None:
        cfg = cfg.model_copy(update={"inline_unified_router": inline_unified_router})
    try:
        render(stage_graph(cfg), out)
    except GraphError as exc:
        raise typer.BadParameter(str(exc), param_hint="--out") from None
    console.print(f"stage graph written to {out}")


@app.command()
def schema(out: Path = typer.Option(Path("schemas"), "--out", help="Directory for the JSON Schemas.")) -> None:
    """Export the contracts' JSON Schemas."""
    from dataflow.schemas import write_schemas

    names = write_schemas(out)
    console.print(f"{len(names)} schemas written to {out}/")


def _register_subcommands(app: typer.Typer) -> None:
    """Command groups that live beside their feature (one `register(app)` per module)."""
    # each feature module adds its commands here with one import and one call
    from dataflow.cli import workbench as cli_workbench
    cli_workbench.register(app)
    from dataflow.cli import model as cli_model
    cli_model.register(app)
    from dataflow.cli import runtime as cli_runtime
    cli_runtime.register(app)
    from dataflow.cli import knowledge as cli_knowledge
    cli_knowledge.register(app)
    from dataflow.cli import experience as cli_experience
    cli_experience.register(app)
    from dataflow.cli import shell as cli_shell
    cli_shell.register(app)


_register_subcommands(app)


def _undecodable_argument(argv: list[str]) -> int | None:
    """The position of an argument that was not UTF-8 (Python keeps such bytes as lone surrogates)."""
    for i, arg in enumerate(argv):
        try:
            arg.encode("utf-8")
        except UnicodeEncodeError:
            return i
    return None


def main() -> None:
    bad = _undecodable_argument(sys.argv[1:])
    if bad is not None:
        err.print(f"[red]error:[/red] argument {bad + 1} is not valid UTF-8 text")
        raise SystemExit(2)
    try:
        code = app(standalone_mode=False)  # a command's typer.Exit(code) comes back as the return value here
    except typer.Exit as exc:  # --help, typer.Exit(code)
        raise SystemExit(exc.exit_code) from None
    except typer.Abort:
        err.print("[red]error:[/red] aborted")
        raise SystemExit(1) from None
    except A2AError as exc:
        err.print(f"[red]error:[/red] {escape(str(exc))}", highlight=False, soft_wrap=True)
        raise SystemExit(2) from None
    except Exception as exc:
        if not (hasattr(exc, "format_message") and hasattr(exc, "exit_code")):
            raise  # a bug: the traceback is the report
        # a usage error (a bad argument or option, a missing one, an unknown command): one line, exit 2
        ctx = getattr(exc, "ctx", None)
        hint = f" (see `{ctx.command_path} --help`)" if ctx is not None else ""
        err.print(f"[red]error:[/red] {escape(exc.format_message())}{hint}", highlight=False, soft_wrap=True)
        raise SystemExit(2) from None
    if isinstance(code, int) and code:
        raise SystemExit(code)


if __name__ == "__main__":
    main()
