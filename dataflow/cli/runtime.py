"""Execution commands: `a2a run`, `a2a task`, `a2a resume`, `a2a workflows list|show`, `a2a schedules list|run`."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Optional

import typer
from rich.console import Console
from rich.table import Table

from dataflow.cli.common import context_arg, json_arg, open_store, user_errors
from dataflow.cli.experience import print_supervision
from dataflow.cli.model import BackendOption, CassetteOption, ModelOption, RecordOption, model_runner
from dataflow.runtime.store import SEED_MAX

console = Console()
err = Console(stderr=True, soft_wrap=True)  # errors are never wrapped mid-phrase (narrow terminals, CI)

DB_HELP = "DuckDB file holding workflows, steps, results, events and schedules."
_DB = Path("runs/workflows.duckdb")
_EVENT_STYLE = {"COMPLETED": "green", "FAILED": "red", "BLOCKED": "red", "TIMEOUT": "red", "PAUSED": "yellow",
                "NEEDS_USER_INPUT": "yellow", "CANCELLED": "magenta", "PROGRESS": "dim", "QUEUED": "dim", "RUNNING": "cyan"}
_SCHEDULE_STYLE = {"active": "cyan", "fired": "green", "expired": "yellow", "cancelled": "magenta"}
_STATUS_STYLE = {"completed": "green", "running": "cyan", "cancelled": "magenta", "needs_user_input": "yellow", "paused": "yellow"}


def _scenario(path: Optional[Path]):
    from device.scenario import Scenario, load_scenario

    return load_scenario(path) if path else Scenario()


def _timeline(run, event, new: bool) -> None:
    from dataflow.runtime.loop import clock_text

    style = _EVENT_STYLE.get(event.event_name, "white")
    mark = "" if new else " [dim](replayed)[/dim]"
    detail = " ".join(x for x in (event.reason_code, event.terminal_evidence) if x)
    if event.output and event.event_name in ("COMPLETED", "BLOCKED", "FAILED", "CANCELLED"):
        detail += " " + json.dumps(event.output, ensure_ascii=False)
    console.print(f"[dim]{clock_text(event.observed_at)}[/dim] [{style}]{event.event_name:<16}[/{style}] "
                  f"{event.step_id:<8} {event.task_method:<24} {detail}{mark}", highlight=False, soft_wrap=True)


def _print_report(report, as_json: bool, extra: dict | None = None) -> None:
    if as_json:
        data = report.cli_json()
        if extra:
            data.update(extra)
        sys.stdout.write(json.dumps(data, ensure_ascii=False, indent=2) + "\n")
        return
    style = _STATUS_STYLE.get(report.status, "red")
    head = f"[bold {style}]{report.status}[/bold {style}]" + (f" ({report.reason_code})" if report.reason_code else "")
    console.print(f"{head}  workflow {report.workflow_id}  trace {report.trace_id}")
    table = Table(show_header=True)
    for col in ("step", "capability", "status", "reason", "terminal evidence"):
        table.add_column(col)
    for s in report.steps:
        table.add_row(s.step_id, s.capability_id or s.route, s.status, s.reason_code or "", s.terminal_evidence or "")
    console.print(table)
    console.print(f"[green]response:[/green] {report.response}")
    print_supervision(console, report)
    c = report.clocks
    console.print(f"[dim]first response {c.first_response_ms} ms (wall), completion {c.completion_sim_s} s (simulated)[/dim]")


def run(
    text: Optional[str] = typer.Argument(None, help="The recognized Korean text to route and execute (default: the --scenario file's utterance)."),
    device_context: Optional[str] = typer.Option(None, "--device-context", help="device_context overrides as JSON or @file."),
    voice_context: Optional[str] = typer.Option(None, "--voice-context", help="voice_context as JSON or @file."),
    scenario: Optional[Path] = typer.Option(None, "--scenario", help="A fault scenario JSON (see data/scenarios/README.md); its utterance is the turn when TEXT is not given."),
    seed: int = typer.Option(0, "--seed", min=0, max=SEED_MAX, help="Simulator seed (0..2^63-1): the same seed gives the same run."),
    db: Path = typer.Option(_DB, "--db", help=DB_HELP),
    pace: Optional[float] = typer.Option(None, "--pace", min=0.1, help="Simulated seconds per wall second (default: as fast as possible)."),
    as_json: bool = typer.Option(False, "--json", help="Print {trace_id, workflow_id, status, steps, response, clocks, decisions_spent, "
                                 "decisions, goal (admitted turns only)} as JSON."),
    backend: BackendOption = "heuristic",
    record_to: RecordOption = None,
    cassette: CassetteOption = None,
    model: ModelOption = None,
) -> None:
    """Route a turn, run its plan on the simulated robot and report what really happened.

    Decision events go to the Experience supervisor (bounded: continue, wait, ask_user, retry_local, replan, complete,
    cancel); an admitted goal's status, effects achieved and decisions spent are shown and stored."""
    import uuid

    from dataflow.runtime.loop import Runtime
    from stages.compilation import workflow_id_for

    with user_errors():
        loaded = _scenario(scenario)
        text = text if text is not None else loaded.utterance
        if not text:
            raise typer.BadParameter("give the TEXT to run" + (f" ({scenario} has no utterance)" if scenario else ", or --scenario FILE with an utterance"),
                                     param_hint="TEXT")
        runner = model_runner(backend=backend, record=record_to, cassette=cassette, model=model)
        store = open_store(db)
        runtime = Runtime(store, runner)
        listener = None if as_json else _timeline
        trace_id = uuid.uuid4().hex
        if not as_json:
            console.print(f"[bold]{text}[/bold]  trace {trace_id}  workflow {workflow_id_for(trace_id)}", highlight=False, soft_wrap=True)
        report = runtime.run_text(text, context_arg(device_context, "--device-context"), loaded, seed,
                                  context_arg(voice_context, "--voice-context"), pace=pace, listener=listener, trace_id=trace_id)
        _print_report(report, as_json)
        store.close()


def task(
    request: str = typer.Argument(..., help='A structured request as JSON or @file, e.g. \'{"taskMethod": "returnToStation"}\'.'),
    device_context: Optional[str] = typer.Option(None, "--device-context", help="device_context overrides as JSON or @file."),
    scenario: Optional[Path] = typer.Option(None, "--scenario", help="A fault scenario JSON."),
    seed: int = typer.Option(0, "--seed", min=0, max=SEED_MAX, help="Simulator seed (0..2^63-1)."),
    db: Path = typer.Option(_DB, "--db", help=DB_HELP),
    as_json: bool = typer.Option(False, "--json", help="Print the run report as JSON."),
) -> None:
    """Path A: validate an app's structured request against the registry and run it with no planner."""
    from dataflow.runtime.loop import Runtime

    with user_errors():
        data = json_arg(request, "REQUEST")
        store = open_store(db)
        report = Runtime(store).run_task(data, context_arg(device_context, "--device-context"), _scenario(scenario), seed,
                                         listener=None if as_json else _timeline)
        _print_report(report, as_json)
        store.close()


def resume(
    workflow_id: str = typer.Argument(..., help="A workflow id from `a2a workflows list`."),
    db: Path = typer.Option(_DB, "--db", help=DB_HELP),
    pace: Optional[float] = typer.Option(None, "--pace", min=0.1, help="Simulated seconds per wall second."),
    as_json: bool = typer.Option(False, "--json", help="Print the run report as JSON."),
) -> None:
    """Continue a workflow that a killed process left running (a finished one is only shown)."""
    from dataflow.runtime.loop import Runtime

    with user_errors():
        store = open_store(db)
        report, stats = Runtime(store).resume(workflow_id, pace=pace, listener=None if as_json else _timeline)
        if not as_json:
            console.print(f"[dim]{stats['replayed']} logged events replayed, {stats['new']} new[/dim]")
        _print_report(report, as_json, {"resume": stats})
        store.close()


workflows_app = typer.Typer(help="Workflows stored in the DuckDB state.", no_args_is_help=True)
schedules_app = typer.Typer(help="Schedules registered by SCH turns, and the simulated clock that fires them.", no_args_is_help=True)


@workflows_app.command("list")
def workflows_list(
    db: Path = typer.Option(_DB, "--db", help=DB_HELP),
    status: Optional[str] = typer.Option(None, "--status", help="Only this status (running, completed, blocked, ...)."),
    limit: int = typer.Option(50, "--limit", min=1, help="How many, newest first."),
    as_json: bool = typer.Option(False, "--json", help="Print the workflows as JSON (id, kind, family, status, reason, utterance)."),
) -> None:
    """List workflows, newest first."""
    with user_errors():
        store = open_store(db)
        if as_json:
            rows = [{"workflow_id": w["workflow_id"], "kind": w["kind"], "family": w["family"], "status": w["status"],
                     "reason_code": w["reason_code"], "utterance": w["text"]} for w in store.list_workflows(limit, status)]
            sys.stdout.write(json.dumps(rows, ensure_ascii=False, indent=2) + "\n")
            store.close()
            return
        table = Table(title=f"workflows in {db}")
        table.add_column("workflow", no_wrap=True, min_width=23)
        for col in ("kind", "family", "status", "reason", "text"):
            table.add_column(col, overflow="fold")
        for w in store.list_workflows(limit, status):
            table.add_row(w["workflow_id"], w["kind"], w["family"] or "", w["status"], w["reason_code"] or "", (w["text"] or "")[:40])
        console.print(table)
        store.close()


@workflows_app.command("show")
def workflows_show(
    workflow_id: str = typer.Argument(..., help="A workflow id."),
    db: Path = typer.Option(_DB, "--db", help=DB_HELP),
    as_json: bool = typer.Option(False, "--json", help="Print the report and the event log as JSON."),
) -> None:
    """Show a workflow's steps, results, event log, decisions and response."""
    from dataflow.runtime.loop import Runtime, clock_text

    with user_errors():
        store = open_store(db)
        report = Runtime(store).stored_report(workflow_id)
        events = store.events(workflow_id)
        if as_json:
            _print_report(report, True, {"events": [{k: v for k, v in e.items() if k != "received_seq"} for e in events],
                                         "decisions": store.decisions(workflow_id)})
        else:
            _print_report(report, False)
            log = Table(title="event log")
            for col in ("observed", "event", "step", "method", "reason / evidence"):
                log.add_column(col)
            for e in events:
                log.add_row(clock_text(e["observed_at"]), e["event_name"], e["step_id"], e["task_method"],
                            " ".join(x for x in (e["reason_code"], e["terminal_evidence"]) if x))
            console.print(log)
            for d in store.decisions(workflow_id):
                console.print(f"decision on {d['step_id']}: {d['action']} ({d['reason']})")
        store.close()


@schedules_app.command("list")
def schedules_list(db: Path = typer.Option(_DB, "--db", help=DB_HELP),
                   all_: bool = typer.Option(False, "--all", help="Include cancelled schedules.")) -> None:
    """List the schedules SCH turns registered, with what became of them.

    status: active; fired (a one-shot the schedule clock fired, a timer whose run's clock reached it); expired (a timer
    whose run ended before it was due); cancelled (with --all). `fires` counts the schedule clock's fires."""
    with user_errors():
        store = open_store(db)
        table = Table(title="schedules")
        for col in ("schedule", "kind", "function", "start", "end", "repeat", "fires", "status"):
            table.add_column(col)
        for state in store.schedule_states(include_cancelled=all_):
            s = state.schedule
            when = s.start_time or (f"+{s.duration_s // 60} min" if s.duration_s else "")
            style = _SCHEDULE_STYLE.get(state.status, "white")
            table.add_row(s.schedule_id, s.kind, s.function or s.message or "", when, s.end_time or "",
                          ",".join(s.repeat_days), str(state.fires), f"[{style}]{state.status}[/{style}]")
        console.print(table)
        store.close()


@schedules_app.command("run")
def schedules_run(
    start: str = typer.Option("17:55", "--start", help="Simulated time of day to start at (HH:MM)."),
    until: str = typer.Option("19:05", "--until", help="Simulated time to stop at (HH:MM; earlier than --start means the next day)."),
    weekday: str = typer.Option("mon", "--weekday", help="Weekday of the simulated first day (mon..sun)."),
    device_context: Optional[str] = typer.Option(None, "--device-context", help="device_context overrides as JSON or @file."),
    seed: int = typer.Option(0, "--seed", min=0, max=SEED_MAX, help="Simulator seed (0..2^63-1)."),
    scenario: Optional[Path] = typer.Option(None, "--scenario", help="A fault scenario JSON for the fired workflows (a process_crash tick counts from --start)."),
    db: Path = typer.Option(_DB, "--db", help=DB_HELP),
) -> None:
    """Advance the simulated clock and fire the schedules that fall due, with their timeline."""
    from dataflow.runtime.loop import WEEKDAYS, Runtime

    if weekday not in WEEKDAYS:
        raise typer.BadParameter(f"one of {', '.join(WEEKDAYS)}", param_hint="--weekday")
    with user_errors():
        store = open_store(db)
        reports = Runtime(store).run_clock(start, until, context_arg(device_context, "--device-context"), _scenario(scenario),
                                           seed=seed, listener=_timeline, start_weekday=weekday)
        if not reports:
            console.print("no schedule fell due in that window")
        for report in reports:
            _print_report(report, False)
        store.close()


def serve(
    host: str = typer.Option("127.0.0.1", "--host", help="Address to bind (127.0.0.1: this machine only)."),
    port: int = typer.Option(8080, "--port", min=1, max=65535, help="TCP port."),
    db: Path = typer.Option(_DB, "--db", help=DB_HELP),
    token: Optional[str] = typer.Option(None, "--token", envvar="A2A_TOKEN", help="Require 'Authorization: Bearer TOKEN' on /v1/ (or A2A_TOKEN)."),
    knowledge_db: Optional[Path] = typer.Option(None, "--knowledge-db", dir_okay=False, help="Knowledge index for /v1/ask (default .a2a/knowledge.duckdb)."),
    runs_dir: Path = typer.Option(Path("runs"), "--runs", file_okay=False, help="Where /v1/runs finds batch runs."),
    routers: int = typer.Option(0, "--routers", min=0, max=16,
                                help="Route-only turns in this many worker processes (one core each; heuristic planner only)."),
    backend: BackendOption = "heuristic",
    record_to: RecordOption = None,
    cassette: CassetteOption = None,
    model: ModelOption = None,
) -> None:
    """Serve turns, product questions, tasks, stored workflows and batch runs over HTTP (OpenAPI at /docs, /openapi.json)."""
    from dataflow.runtime.service import ServiceState, serve as run_service
    from rag.store import KnowledgeStore

    runner = model_runner(backend=backend, record=record_to, cassette=cassette, model=model)
    with user_errors():
        store = open_store(db)
        console.print(f"serving on http://{host}:{port}  (workflows in {db}; Ctrl-C stops)", highlight=False)
        run_service(host, port, ServiceState(runner=runner, store=store, knowledge=KnowledgeStore.open(knowledge_db),
                                             runs_dir=runs_dir, token=token), routers=routers)
        store.close()


def device(
    cloud: str = typer.Option(..., "--cloud", help="The service's base URL, e.g. http://127.0.0.1:8080."),
    device_id: str = typer.Option(..., "--device-id", help="This robot's id (letters, digits, . _ -); turns name it in device_id."),
    pace: float = typer.Option(0.0, "--pace", min=0.0, help="Simulated seconds per wall second: 1 real time, 0 as fast as it can."),
    scenario: Optional[Path] = typer.Option(None, "--scenario", help="A fault scenario JSON (robot faults, and callback faults on the wire)."),
    device_context: Optional[str] = typer.Option(None, "--device-context", help="The robot's start state as JSON or @file."),
    seed: int = typer.Option(0, "--seed", min=0, max=SEED_MAX, help="Simulator seed."),
    token: Optional[str] = typer.Option(None, "--token", envvar="A2A_TOKEN", help="Bearer token of the service (or A2A_TOKEN)."),
    wire_faults: float = typer.Option(0.0, "--wire-faults", min=0.0, max=1.0,
                                      help="Share of callbacks lost, and (separately) duplicated and delayed, on the wire."),
    duration: Optional[float] = typer.Option(None, "--for", min=0.0, help="Stop after this many wall seconds (default: until Ctrl-C)."),
    summary: Optional[Path] = typer.Option(None, "--summary", dir_okay=False, help="Write what the robot did as JSON on exit."),
) -> None:
    """Run the robot as its own process: take submitted workflows from the service, run them on the simulated TaskManager
    and post every callback back (at-least-once, retried with backoff). Ctrl-C or SIGTERM stops it."""
    import logging
    import signal
    import time

    from device.remote import RobotProcess, WireFaults
    from registry.inputs import device_context_of
    from registry.loader import load_registry

    with user_errors():
        registry = load_registry()
        loaded = _scenario(scenario)  # the robot side loads no planner: the context is checked as every command checks it
        context = device_context_of({**loaded.device_context, **(context_arg(device_context, "--device-context") or {})}, registry)
        robot = RobotProcess(cloud, device_id, registry, context, loaded, seed, pace, token,
                             WireFaults(lost=wire_faults, duplicated=wire_faults, delayed=wire_faults, seed=seed))
        logging.basicConfig(level=logging.WARNING, format="%(message)s")
        def stop(*_):  # a long poll may be waiting: interrupt it, write the summary and leave
            robot.stop.set()
            raise KeyboardInterrupt

        signal.signal(signal.SIGTERM, stop)
        console.print(f"robot {device_id} on {cloud} (pace {pace or 'as fast as it can'}; Ctrl-C stops)", highlight=False)
        robot.on_connected = lambda: console.print(f"robot {device_id} connected", highlight=False)
        try:
            robot.run(until=None if duration is None else time.monotonic() + duration)
        except KeyboardInterrupt:
            pass
        finally:
            if summary is not None:
                summary.write_text(json.dumps(robot.summary(), ensure_ascii=False, indent=1), encoding="utf-8")
        wire = robot.stats
        console.print(f"robot {device_id}: {len(robot.session.tasks.order)} tasks, {wire.delivered} callbacks delivered, "
                      f"{wire.retried} retried, {wire.refused} refused, {len(robot.outbox)} undelivered", highlight=False)


def register(app: typer.Typer) -> None:
    app.command()(serve)
    app.command()(device)
    app.command()(run)
    app.command()(task)
    app.command()(resume)
    app.add_typer(workflows_app, name="workflows")
    app.add_typer(schedules_app, name="schedules")
