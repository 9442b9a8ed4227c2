"""`a2a shell`: one warm runner and one voice session; each turn's voice context carries into the next."""

from __future__ import annotations

import json
import sys
import uuid
from pathlib import Path
from typing import Any, Iterator, Optional

import typer
from rich.console import Console
from rich.markup import escape

from dataflow.cli.model import BackendOption, CassetteOption, ModelOption, RecordOption
from dataflow.cli.runtime import DB_HELP, _DB
from dataflow.runtime.store import SEED_MAX
from registry.contracts import TurnInput, VoiceContext
from registry.record_contracts import DecisionRecord
from registry.errors import A2AError

console = Console()
err = Console(stderr=True, soft_wrap=True)  # errors are never wrapped mid-phrase (narrow terminals, CI)

HISTORY_FILE = ".a2a_shell_history"
"""Under the user's home; the prompt's line history (readline)."""

COMMANDS = {
    ":help": "this list",
    ":json": "the last decision record as JSON",
    ":show": "the last turn in full: evidence axes, why the family won, the plan (as `a2a route`)",
    ":context": "the voice context the next turn will carry",
    ":run": "run the last plan on the simulated robot (as `a2a run`; --seed, --db)",
    ":trace [FILE]": "draw the last turn's trace (as `a2a trace`; default turn_trace.png)",
    ":reset": "forget the carried voice context",
    ":save SET.jsonl": "append the last turn as a labelled row, the decision as its expect",
    ":quit": "leave (so does end of input)",
}


class ShellSession:
    """The state between lines: the warm runner, the carried voice context and the last turn."""

    def __init__(self, runner, device_context: dict[str, Any], seed: int, db: Path, as_json: bool):
        self.runner = runner
        self.device_context = device_context
        """The --device-context overrides, the same for every turn."""
        self.seed = seed
        self.db = db
        self.as_json = as_json
        self.voice = VoiceContext()
        """The voice context the next turn is routed with."""
        self.last_turn: TurnInput | None = None
        self.last_record: DecisionRecord | None = None
        self._store = None
        self._runtime = None
        """The store and runtime of :run, opened at the first :run."""

    # -- output ---------------------------------------------------------------------------------

    def say(self, message: str) -> None:
        """A message for the person; with --json it goes to stderr so stdout stays one record a line."""
        (err if self.as_json else console).print(message, soft_wrap=True, highlight=False)

    def fail(self, message: str) -> None:
        err.print(f"[red]error:[/red] {escape(message)}", highlight=False)

    def write_json(self, data: str) -> None:
        sys.stdout.write(data + "\n")
        sys.stdout.flush()

    @property
    def prompt(self) -> str:
        waiting = self.voice.slot_state.get("missing_slots") or []
        hint = self.voice.last_route + (f" waiting for {', '.join(waiting)}" if waiting else "")
        return f"a2a [{hint}]> " if hint else "a2a> "

    # -- lines ----------------------------------------------------------------------------------

    def handle(self, line: str) -> bool:
        """Route a turn or run a command; False when the session should end. Nothing here may raise."""
        line = line.strip()
        if not line:
            return True
        if "\ufffd" in line:
            self.fail("the line is not UTF-8; nothing routed")
            return True
        try:
            if line.startswith(":"):
                return self.command(line)
            self.turn(line)
        except KeyboardInterrupt:
            self.fail("interrupted")
        except A2AError as exc:
            self.fail(str(exc))
        except Exception as exc:  # a bad line must never end the session; the message says why
            self.fail(f"{type(exc).__name__}: {exc}")
        return True

    def turn(self, text: str) -> None:
        from dataflow.rows import turn_from_row
        from dataflow.conversation import follow_up_voice_context

        turn = turn_from_row({"text": text, "voice_context": self.voice.model_dump(), "device_context": self.device_context})
        record = self.runner.route(turn)
        self.last_turn, self.last_record = turn, record
        self.voice = follow_up_voice_context(record)
        if self.as_json:
            self.write_json(record.model_dump_json())
        else:
            self.summary(record)

    def summary(self, record: DecisionRecord) -> None:
        """Family, confidence, steps and reply: the short form of `a2a route`'s view (`:show` gives the full one)."""
        head = f"[bold]{record.family}[/bold]  {escape(record.selected_flow_id or '')}  confidence [cyan]{record.family_confidence or '-'}[/cyan]"
        if record.runner_up_family:
            head += f"  runner-up [yellow]{record.runner_up_family}[/yellow]"
        self.say(head)
        from dataflow.cli.common import step_label

        for step in record.steps:
            label = step_label(step)
            guard = "  [magenta]only if[/magenta] " + escape(step.condition.model_dump_json()) if step.condition else ""
            self.say(f"  {step.id} [dim]{step.route}/{step.execution_target}[/dim] {escape(label)}{guard}")
        if record.slots or record.missing_slots:
            self.say(f"  slots {escape(json.dumps(record.slots, ensure_ascii=False))}  missing {escape(str(record.missing_slots))}")
        self.say(f"[green]tts:[/green] {escape(record.tts_response or '')}")

    # -- commands -------------------------------------------------------------------------------

    def command(self, line: str) -> bool:
        name, _, argument = line.partition(" ")
        argument = argument.strip()
        if name in (":quit", ":exit", ":q"):
            return False
        if name == ":help":
            for usage, what in COMMANDS.items():
                self.say(f"  {usage:<16} {what}")
            self.say("  anything else is a turn: routed with the voice context the last turn left")
        elif name == ":reset":
            self.voice = VoiceContext()
            self.say("voice context cleared")
        elif name == ":context":
            if self.as_json:
                self.write_json(self.voice.model_dump_json())
            else:
                self.say(escape(self.voice.model_dump_json(indent=2)))
        elif name not in (":json", ":show", ":run", ":trace", ":save"):
            self.fail(f"unknown command {name!r} (:help lists them)")
        elif self.last_record is None or self.last_turn is None:
            self.fail(f"{name} needs a turn first: say something")
        elif name == ":json":
            self.write_json(self.last_record.model_dump_json(indent=None if self.as_json else 2))
        elif name == ":show":
            from dataflow.cli.common import show_record

            show_record(self.last_record)
        elif name == ":run":
            self.run_last()
        elif name == ":trace":
            self.trace_last(Path(argument or "turn_trace.png"))
        elif name == ":save":
            self.save_last(argument)
        return True

    def run_last(self) -> None:
        """The last turn through `a2a run`'s path: routed again with the same contexts (deterministic), compiled, run."""
        from dataflow.cli.common import open_store
        from dataflow.cli.runtime import _print_report, _scenario, _timeline
        from dataflow.runtime.loop import Runtime
        from stages.compilation import workflow_id_for

        if self._runtime is None:
            self._store = open_store(self.db)
            self._runtime = Runtime(self._store, runner=self.runner)
        trace_id = uuid.uuid4().hex
        text = self.last_turn.recognized_text
        if not self.as_json:
            console.print(f"[bold]{escape(text)}[/bold]  trace {trace_id}  workflow {workflow_id_for(trace_id)}", highlight=False, soft_wrap=True)
        report = self._runtime.run_text(
            text, self.device_context, _scenario(None), self.seed, self.last_turn.voice_context.model_dump(),
            listener=None if self.as_json else _timeline, trace_id=trace_id)
        if self.as_json:
            self.write_json(json.dumps(report.cli_json(), ensure_ascii=False))
        else:
            _print_report(report, False)

    def trace_last(self, out: Path) -> None:
        from dataflow.workbench.graph_views import GraphError, render, trace_graph, trace_turn

        try:
            path = render(trace_graph(trace_turn(self.last_turn, self.runner.config, self.runner.registry)), out)
        except GraphError as exc:
            self.fail(str(exc))
            return
        self.say(f"turn trace written to {escape(str(path))}")

    def save_last(self, argument: str) -> None:
        from dataflow.conversation import labelled_row

        if not argument:
            self.fail(":save needs a file: :save SET.jsonl")
            return
        path = Path(argument)
        row = labelled_row(self.last_record, self.last_turn.voice_context, self.device_context, f"shell-{self.last_record.trace_id[:12]}")
        path.parent.mkdir(parents=True, exist_ok=True)
        unterminated = path.exists() and path.stat().st_size > 0 and not _ends_with_newline(path)
        with path.open("a", encoding="utf-8") as fh:
            fh.write(("\n" if unterminated else "") + json.dumps(row, ensure_ascii=False) + "\n")  # else the row joins the last line
        self.say(f"saved {row['id']} to {escape(str(path))} (expect: {escape(json.dumps(row['expect'], ensure_ascii=False))})")

    def close(self) -> None:
        if self._store is not None:
            self._store.close()
            self._store = None


def _ends_with_newline(path: Path) -> bool:
    with path.open("rb") as fh:
        fh.seek(-1, 2)
        return fh.read(1) == b"\n"


def _interactive_lines(prompt_of) -> Iterator[str]:
    """Lines typed at a prompt, with readline history kept in the home directory when it can be."""
    history = None
    try:
        import readline

        history = Path.home() / HISTORY_FILE
        readline.set_history_length(1000)
        if history.exists():
            readline.read_history_file(history)
    except (ImportError, OSError, RuntimeError):
        pass
    try:
        while True:
            try:
                yield input(prompt_of())
            except KeyboardInterrupt:  # Ctrl-C drops the line being typed, as in Python's own prompt
                sys.stdout.write("\n")
            except EOFError:
                sys.stdout.write("\n")
                return
    finally:
        if history is not None:
            try:
                readline.write_history_file(history)
            except OSError:
                pass


def _piped_lines() -> Iterator[str]:
    stream = sys.stdin
    if hasattr(stream, "reconfigure"):
        stream.reconfigure(errors="replace")  # a line that is not UTF-8 is reported, not fatal
    yield from stream


def shell(
    as_json: bool = typer.Option(False, "--json", help="Print each turn's decision record as one JSON line (for scripts); "
                                 "messages go to stderr."),
    device_context: Optional[str] = typer.Option(None, "--device-context", help="device_context overrides as JSON or @file, for every turn."),
    seed: int = typer.Option(0, "--seed", min=0, max=SEED_MAX, help="Simulator seed for :run (0..2^63-1): the same seed gives the same run."),
    db: Path = typer.Option(_DB, "--db", help=DB_HELP.rstrip(".") + ", written by :run."),
    backend: BackendOption = "heuristic",
    record_to: RecordOption = None,
    cassette: CassetteOption = None,
    model: ModelOption = None,
) -> None:
    """Route turns typed one a line through one warm runner; each turn continues the voice context of the last.

    Lines starting with ':' are commands (:help lists them). With a terminal there is a prompt and line history."""
    from dataflow.cli.common import context_arg, make_runner
    from dataflow.runtime.loop import device_context_from
    from device.scenario import Scenario
    from registry.loader import load_registry

    overrides = context_arg(device_context, "--device-context")
    try:
        device_context_from(Scenario(), overrides, load_registry())  # the same check `a2a run` makes, before the first turn rather than at :run
    except A2AError as exc:
        raise typer.BadParameter(str(exc), param_hint="--device-context") from None
    session = ShellSession(make_runner(backend=backend, record=record_to, cassette=cassette, model=model), overrides, seed, db, as_json)
    interactive = sys.stdin.isatty()
    if interactive and not as_json:
        console.print("[dim]a2a shell: one turn a line, :help for commands, Ctrl-D to leave[/dim]", highlight=False)
    try:
        for line in _interactive_lines(lambda: session.prompt) if interactive else _piped_lines():
            if not session.handle(line):
                break
    finally:
        session.close()


def register(app: typer.Typer) -> None:
    app.command()(shell)
