"""What the `a2a` commands share: consoles, argument readers, the runner, the route view and the error exit.

Every cli_* module imports from here, never from dataflow.cli (which only assembles the app), so the command
modules form no import circle.
"""

from __future__ import annotations

import json
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator, Optional

import typer
from rich.console import Console
from rich.table import Table
from rich.tree import Tree

from dataflow.cli.model import model_line, model_runner
from registry.errors import A2AError, InputError

console = Console()
err = Console(stderr=True, soft_wrap=True)  # errors are never wrapped mid-phrase (narrow terminals, CI)


def arg_text(value: str, name: str) -> str:
    """An argument given inline or as @file: the file's text, or one clear error line."""
    if not value.startswith("@"):
        return value
    path = Path(value[1:])
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise typer.BadParameter(f"file not found: {path}", param_hint=name) from None
    except IsADirectoryError:
        raise typer.BadParameter(f"{path} is a directory, not a JSON file", param_hint=name) from None
    except PermissionError:
        raise typer.BadParameter(f"{path} cannot be read (permission denied)", param_hint=name) from None
    except UnicodeDecodeError:
        raise typer.BadParameter(f"{path} is not UTF-8 text", param_hint=name) from None


def json_arg(value: str, name: str) -> Any:
    """A JSON value given inline or as @file."""
    try:
        return json.loads(arg_text(value, name))
    except json.JSONDecodeError as exc:
        raise typer.BadParameter(f"not valid JSON ({exc.msg} at column {exc.colno})", param_hint=name) from None
    except RecursionError:
        raise typer.BadParameter("JSON nested too deep", param_hint=name) from None


def context_arg(value: Optional[str], name: str) -> dict[str, Any]:
    """A JSON object given inline or as @file."""
    if not value:
        return {}
    data = json_arg(value, name)
    if not isinstance(data, dict):
        raise typer.BadParameter("must be a JSON object", param_hint=name)
    return data


def turn_arg(text: str, voice_context: Optional[str], device_context: Optional[str]):
    """The turn of a TEXT argument and its --voice-context/--device-context options, checked as set rows are."""
    from dataflow.rows import turn_from_row

    row = {"text": text, "voice_context": context_arg(voice_context, "--voice-context"),
           "device_context": context_arg(device_context, "--device-context")}
    try:
        return turn_from_row(row)
    except InputError as exc:
        raise typer.BadParameter(str(exc)) from None


def out_dir_arg(out: Path, name: str = "--out") -> Path:
    """A directory to write into, checked before any work: it may exist, but not as a file."""
    if out.exists() and not out.is_dir():
        raise typer.BadParameter(f"{out} exists and is not a directory", param_hint=name)
    return out


def make_runner(**model_options: Any):
    """The runner of the --backend/--model/--record/--cassette options (tests put a warm runner here)."""
    return model_runner(**model_options)


def step_label(step) -> str:
    """What a plan step does: its action with arguments, or the cloud skill (the route view and the shell)."""
    if step.action:
        return f"{step.action.capability_id}.{step.action.operation_id} {json.dumps(step.action.arguments, ensure_ascii=False)}"
    return step.skill_id or step.purpose


def show_record(record) -> None:
    conf = record.family_confidence or "-"
    head = f"[bold]{record.family}[/bold]  {record.selected_flow_id}  confidence [cyan]{conf}[/cyan]"
    if record.runner_up_family:
        head += f"  runner-up [yellow]{record.runner_up_family}[/yellow]"
    if record.second_pass_ran:
        head += f"  second pass: {record.evidence.second_pass.pair} -> {record.evidence.second_pass.winner}"
    console.print(head)
    console.print(f"[dim]normalized:[/dim] {record.evidence.normalized_text}   [dim]turn_mode:[/dim] {record.turn_mode}")
    axes = Table(title="evidence axes that lit", show_lines=False)
    axes.add_column("axis")
    axes.add_column("strength", justify="right")
    axes.add_column("signals")
    for name, axis in sorted(record.evidence.axes.items(), key=lambda kv: -kv[1].strength):
        axes.add_row(name, f"{axis.strength:.2f}", ", ".join(axis.signals[:4]))
    console.print(axes)
    contrib = record.evidence.family_contributions.get(record.family or "", {})
    if contrib:
        console.print("[dim]why " + str(record.family) + ":[/dim] " + ", ".join(f"{k} {v:+.2f}" for k, v in contrib.items()))
    tree = Tree(f"plan ({len(record.steps)} steps)")
    for step in record.steps:
        node = tree.add(f"{step.id} [{step.route}/{step.execution_target}] {step_label(step)}")
        if step.depends_on:
            node.add(f"after {', '.join(step.depends_on)}  wait {step.wait_policy}")
        if step.condition:
            node.add(f"[magenta]only if[/magenta] {step.condition.model_dump_json()}")
    console.print(tree)
    if record.slots or record.missing_slots:
        console.print(f"slots {json.dumps(record.slots, ensure_ascii=False)}  missing {record.missing_slots}")
    if record.unsupported_categories:
        console.print(f"unsupported: {', '.join(record.unsupported_categories)}")
    if record.stt_null_subtype:
        console.print(f"STT_NULL subtype {record.stt_null_subtype}")
    console.print(f"[green]tts:[/green] {record.tts_response}")
    if model_line(record):
        console.print(model_line(record))
    console.print(f"[dim]trace {record.trace_id}  {record.usage.total_ms:.2f} ms[/dim]")


@contextmanager
def user_errors() -> Iterator[None]:
    """A user's mistake is a red line and exit code 2, never a traceback."""
    try:
        yield
    except A2AError as exc:
        err.print(f"[red]error:[/red] {exc}")
        raise typer.Exit(2) from None


def open_store(db: Path):
    from dataflow.runtime.store import WorkflowStore

    return WorkflowStore(db)
