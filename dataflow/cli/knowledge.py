"""`a2a index build|calibrate|info` and `a2a ask`: the product knowledge commands (path B).

`a2a batch SET --answer` (in cli.py) uses `attach_knowledge` and `report_question_set` from here.
"""

from __future__ import annotations

import json
import sys
from contextlib import contextmanager
from datetime import date
from pathlib import Path
from typing import Any, Optional

import typer
from rich.console import Console
from rich.panel import Panel
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn
from rich.table import Table
from rich.tree import Tree

from dataflow.cli.model import BackendOption, CassetteOption, ModelOption, RecordOption
from registry.errors import A2AError

console = Console()
err = Console(stderr=True, soft_wrap=True)  # errors are never wrapped mid-phrase (narrow terminals, CI)
index_app = typer.Typer(help="Build and inspect the product knowledge index (documents + knowledge graph in DuckDB).",
                        no_args_is_help=True)

DbOption = typer.Option(None, "--db", help="Index file (default .a2a/knowledge.duckdb under the current directory, or $A2A_KNOWLEDGE_DB).",
                        dir_okay=False)


def _fail(exc: Exception) -> None:
    err.print(f"[red]error:[/red] {exc}")
    raise typer.Exit(2)


@contextmanager
def _bar(description: str):
    with Progress("[progress.description]{task.description}", BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  console=err, transient=False) as bar:
        task = bar.add_task(description, total=None)
        yield (lambda total: bar.update(task, total=total)), (lambda: bar.advance(task))


def _store(db: Optional[Path], as_of: Optional[str] = None):
    from rag.store import KnowledgeStore, today_kst

    clock = today_kst
    if as_of:
        try:
            fixed = date.fromisoformat(as_of)
        except ValueError:
            raise typer.BadParameter("an ISO date such as 2026-03-01", param_hint="--as-of") from None
        clock = lambda: fixed  # noqa: E731
    try:
        return KnowledgeStore.open(db, clock=clock)
    except A2AError as exc:
        _fail(exc)


@index_app.command("build")
def index_build(
    corpus: Optional[Path] = typer.Option(None, "--corpus", file_okay=False, help="Manual directory (default data/manual)."),
    graph: Optional[Path] = typer.Option(None, "--graph", file_okay=False, help="Knowledge graph directory (default data/kg)."),
    db: Optional[Path] = DbOption,
) -> None:
    """Build or update the index: only manual files whose content changed are analysed again."""
    from dataflow.driver import shared_kiwi
    from dataflow.knowledge import DEFAULT_CORPUS, DEFAULT_GRAPH, build_knowledge_index
    from rag.store import default_db_path
    from registry.loader import load_registry

    db_path = db or default_db_path()
    try:
        with _bar("analysing sections") as (start, advance):
            summary = build_knowledge_index(db_path, shared_kiwi(), load_registry(), corpus or DEFAULT_CORPUS, graph or DEFAULT_GRAPH,
                                            on_start=start, advance=advance)
    except A2AError as exc:
        _fail(exc)
    table = Table(title=f"knowledge index {summary.index_version}  ({summary.seconds:.2f} s)")
    table.add_column("item")
    table.add_column("count", justify="right")
    for key in ("documents", "chunks", "tokens", "distinct_terms", "postings", "entities", "relations", "synonyms"):
        table.add_row(key, str(summary.counts[key]))
    console.print(table)
    ch = summary.changes
    console.print(f"documents: {len(ch.added)} added, {len(ch.updated)} updated, {len(ch.unchanged)} unchanged, {len(ch.removed)} removed"
                  + (f"  ({', '.join(ch.analysed)} analysed)" if ch.analysed else ""))
    console.print(f"written to {summary.db_path}")


@index_app.command("info")
def index_info(db: Optional[Path] = DbOption) -> None:
    """Show the index version, counts and the calibration in use."""
    from rag.index import read_meta

    store = _store(db)
    try:
        meta = read_meta(store.require())
    except A2AError as exc:
        _fail(exc)
    console.print_json(json.dumps({"db": str(store.db_path), **meta, "calibration": store.calibration.fitted_on or "uncalibrated"},
                                  ensure_ascii=False, default=str))


@index_app.command("calibrate")
def index_calibrate(
    question_sets: list[Path] = typer.Option([Path("data/questions/dqr.jsonl")], "--set", exists=True, dir_okay=False,
                                             help="Question set with expected_source_ids and answerability (repeatable: "
                                                  "the sets are fitted together; holdout sets are refused)."),
    out: Optional[Path] = typer.Option(None, "--out", file_okay=False, help="Where calibration.json goes (default data/rag)."),
    db: Optional[Path] = DbOption,
    keep_fusion: bool = typer.Option(False, "--keep-fusion", help="Keep the current fusion weights; refit only the answerability model."),
) -> None:
    """Fit fusion weights and the answerability model on one half of the set; report the held-out half."""
    from dataflow.driver import TurnRunner
    from dataflow.workbench.knowledge_eval import calibrate, calibration_steps, read_fit_questions
    from rag.store import RAG_DATA_DIR

    store = _store(db)
    try:
        store.require()
        rows = read_fit_questions(question_sets)
        runner = TurnRunner(knowledge=store)
        with _bar("calibrating") as (start, advance):
            start(calibration_steps(rows, keep_fusion))
            summary = calibrate(runner, rows, out or RAG_DATA_DIR, advance, keep_fusion=keep_fusion)
    except A2AError as exc:
        _fail(exc)
    console.print_json(json.dumps(summary, ensure_ascii=False))
    console.print(f"written to {(out or RAG_DATA_DIR) / 'calibration.json'}")


def _show_answer(record) -> None:
    console.print(f"[bold]{record.family}[/bold]  {record.selected_flow_id}  [dim]trace {record.trace_id}  {record.usage.total_ms:.2f} ms[/dim]")
    answer = record.answer
    if answer is None:
        console.print(f"[yellow]not a product-knowledge turn:[/yellow] {record.family} owns it, so retrieval did not run "
                      f"(path B opens only for DQR).")
        console.print(f"[green]tts:[/green] {record.tts_response}")
        return
    tree = Tree(f"projection: {', '.join(answer.projection.entities) or '(no entity linked)'}")
    for rel in answer.projection.relations:
        tree.add(f"{rel.from_} -[magenta]{rel.type}[/magenta]-> {rel.to}  [dim]{', '.join(rel.source_refs)}  valid {rel.valid_at}[/dim]")
    console.print(tree)
    if answer.evidence:
        table = Table(title="evidence")
        for col in ("source_id", "location", "claim"):
            table.add_column(col)
        for ev in answer.evidence:
            table.add_row(ev.source_id, ev.location, ev.claim)
        console.print(table)
    colour = {"sufficient": "green", "insufficient": "yellow", "conflicting": "red"}[answer.answerability]
    notes = f"  notices: {', '.join(answer.notices)}" if answer.notices else ""
    console.print(Panel(answer.text, title=f"[{colour}]{answer.answerability}[/{colour}]{notes}", subtitle=f"index {answer.index_version}"))


def ask(
    text: str = typer.Argument(..., help="A Korean product question, e.g. the one in README's knowledge section."),
    as_json: bool = typer.Option(False, "--json", help="Print the decision record (with its answer) as JSON."),
    db: Optional[Path] = DbOption,
    as_of: Optional[str] = typer.Option(None, "--as-of", help="Question date (ISO); the manual version valid then is used. Default: today (KST)."),
    backend: BackendOption = "heuristic",
    record_to: RecordOption = None,
    cassette: CassetteOption = None,
    model: ModelOption = None,
) -> None:
    """Run the full turn; when DQR owns it, show the graph projection, the evidence and the grounded answer."""
    from dataflow.cli.model import model_runner
    from registry.contracts import TurnInput

    if not text.strip():
        raise typer.BadParameter("the question is empty: give a product question in Korean", param_hint="TEXT")
    runner = model_runner(backend=backend, record=record_to, cassette=cassette, model=model)
    store = _store(db, as_of)
    runner.knowledge = store
    record = runner.route(TurnInput(recognized_text=text))
    if as_json:
        sys.stdout.write(record.model_dump_json(indent=2) + "\n")
    else:
        _show_answer(record)
    if not store.available:
        err.print(f"[red]error:[/red] {store.problem}")
        raise typer.Exit(2)


def attach_knowledge(runner: Any, engine: str, db: Optional[Path]) -> Any:
    """`a2a batch --answer`: give the local runner a knowledge store (answers need the read-only handle)."""
    if engine != "local" or runner is None:
        raise typer.BadParameter("answers are composed on the local engine (one read-only index handle)", param_hint="--answer")
    runner.knowledge = _store(db)
    if not runner.knowledge.available:
        err.print(f"[yellow]warning:[/yellow] {runner.knowledge.problem}; DQR answers will say so and no retrieval metrics are computed")
    return runner


def report_question_set(runner: Any, set_path: Path, out: Path, metrics: dict[str, Any]) -> None:
    """After `a2a batch SET --answer`: retrieval metrics when SET is a question set (rows with expected_source_ids)."""
    from dataflow.rows import is_question_row
    from dataflow.workbench.knowledge_eval import knowledge_metrics
    from registry.record_contracts import DecisionRecord

    rows = [json.loads(line) for line in set_path.read_text(encoding="utf-8").splitlines() if line.strip().startswith("{")]
    questions = [r for r in rows if isinstance(r, dict) and is_question_row(r)]
    decisions = out / "decisions.jsonl"
    records = [DecisionRecord.model_validate_json(line) for line in decisions.read_text(encoding="utf-8").splitlines()] if decisions.exists() else None
    if records is not None:
        answered = sum(r.answer is not None for r in records)
        console.print(f"DQR answers: {answered} of {len(records)} turns (routed to DQR: {sum(r.family == 'DQR' for r in records)})")
    if not questions or not runner.knowledge.available:
        return
    with _bar("retrieval metrics") as (start, advance):
        start(len(questions))
        km = knowledge_metrics(runner, questions, records, advance)
    metrics["knowledge"] = km
    if (out / "metrics.json").exists():
        (out / "metrics.json").write_text(json.dumps(metrics, ensure_ascii=False, indent=2), encoding="utf-8")
    e2e = km.get("end_to_end")
    if e2e:
        head = Table(title=f"end to end on {set_path.name} (through the real route)")
        head.add_column("metric")
        head.add_column("value", justify="right")
        for key in ("questions", "reach_dqr", "answer_accuracy", "answerability_accuracy"):
            v = e2e.get(key)
            head.add_row(key, "-" if v is None else (str(v) if isinstance(v, int) else f"{v:.3f}"))
        console.print(head)
        for key, label in (("not_reaching_dqr", "not reaching DQR"), ("wrong_answers", "answer without the expected fact")):
            ids = e2e.get(key) or []
            if ids:
                more = f" and {len(ids) - 10} more (metrics.json)" if len(ids) > 10 else ""
                console.print(f"[dim]{label}: {', '.join(ids[:10])}{more}[/dim]")
    table = Table(title=f"diagnostic: retrieval on {set_path.name} (path B forced open; calibration {km['calibration']})")
    table.add_column("metric")
    for col in ("all", "train", "held out"):
        table.add_column(col, justify="right")
    for key in ("questions", "recall@1", "recall@5", "full_recall@5", "mrr", "answerability_accuracy"):
        values = [km.get(key), km["by_split"]["train"].get(key), km["by_split"]["heldout"].get(key)]
        table.add_row(key, *("-" if v is None else (str(v) if isinstance(v, int) else f"{v:.3f}") for v in values))
    console.print(table)
    if km["answerability_errors"] or km["misses_at_5"]:
        console.print(f"[dim]answerability errors: {', '.join(km['answerability_errors']) or '-'}; misses at 5: {', '.join(km['misses_at_5']) or '-'}[/dim]")


def register(app: typer.Typer) -> None:
    app.add_typer(index_app, name="index")
    app.command()(ask)
