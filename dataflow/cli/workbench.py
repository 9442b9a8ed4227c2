"""Research-workbench commands: `a2a trace`, `a2a report`, `a2a tune`."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Optional

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn
from rich.table import Table

from dataflow.workbench import QUESTION_WEIGHT

console = Console()
err = Console(stderr=True, soft_wrap=True)

ROOT = Path(__file__).resolve().parents[2]
HOLDOUT = ROOT / "data/utterances/dev_holdout.jsonl"
WEIGHTS_OUT = ROOT / "registry/evidence_weights.json"


def _fail(message: str) -> None:
    err.print(f"[red]error:[/red] {message}")
    raise typer.Exit(2)


def trace(
    text: str = typer.Argument(..., help="The recognized Korean text of the turn."),
    out: Path = typer.Option(Path("turn_trace.png"), "--out", help="Output file: .png, .svg or .dot"),
    voice_context: Optional[str] = typer.Option(None, "--voice-context", help="voice_context as JSON or @file."),
    device_context: Optional[str] = typer.Option(None, "--device-context", help="device_context overrides as JSON or @file."),
    config: list[str] = typer.Option([], "--config", help="Driver config KEY=VALUE (repeatable), e.g. inline_unified_router=false."),
) -> None:
    """Draw one turn's execution: the nodes that ran, each with a summary of its output and its time."""
    from dataflow.cli.common import turn_arg
    from dataflow.workbench.graph_views import GraphError, render, trace_graph, trace_turn

    turn = turn_arg(text, voice_context, device_context)
    cfg = parse_config(config)
    try:
        path = render(trace_graph(trace_turn(turn, cfg)), out)
    except GraphError as exc:
        _fail(str(exc))
    console.print(f"turn trace written to {path}")


def parse_config(pairs: list[str]):
    """DriverConfig from KEY=VALUE options; a misspelt key or value is a clear error."""
    from dataflow.driver import DriverConfig
    from registry.errors import ConfigError

    data: dict[str, object] = {}
    for pair in pairs:
        if "=" not in pair:
            raise typer.BadParameter(f"{pair!r}: use KEY=VALUE", param_hint="--config")
        key, value = pair.split("=", 1)
        lowered = value.strip().lower()
        data[key.strip()] = True if lowered == "true" else False if lowered == "false" else value.strip()
    try:
        return DriverConfig.parse(data)
    except ConfigError as exc:
        raise typer.BadParameter(str(exc), param_hint="--config") from None


def report(
    run_dir: Path = typer.Argument(..., help="A batch run directory (a2a batch SET --out RUN_DIR)."),
    out: Optional[Path] = typer.Option(None, "--out", help="Where to write the HTML (default RUN_DIR/report.html)."),
) -> None:
    """Write a self-contained HTML report of a batch run (opens offline in any browser)."""
    from dataflow.workbench.report import ReportError, write_report

    try:
        path = write_report(run_dir, out)
    except ReportError as exc:
        _fail(str(exc))
    console.print(f"report written to {path}")


def _pct(v: Optional[float]) -> str:
    return "-" if v is None else f"{100 * v:.1f}%"


def _family_table(title: str, deltas: dict) -> Table:
    from dataflow.workbench.tuning import CORE_GROUP

    table = Table(title=title)
    table.add_column("family", no_wrap=True)
    for col in ("precision", "recall", "F1", "ΔF1", "n"):
        table.add_column(col, justify="right", no_wrap=True)
    for fam, d in deltas.items():
        delta = d["f1_delta"]
        colour = "green" if delta > 1e-9 else "red" if delta < -1e-9 else "dim"
        pair = lambda k: f"{d[k + '_before']:.3f}→{d[k + '_after']:.3f}"  # noqa: E731
        table.add_row(fam + (" *" if fam in CORE_GROUP else ""), pair("precision"), pair("recall"), pair("f1"),
                      f"[{colour}]{delta:+.3f}[/{colour}]", str(d["support"]), end_section=fam == CORE_GROUP[-1])
    table.caption = "* ODL, FRG, DEF and STT_NULL move together: always read them as a group"
    return table


def _show_comparison(cmp, title: str, limit: int) -> None:
    console.print(f"family accuracy {_pct(cmp.accuracy_before)} -> {_pct(cmp.accuracy_after)}")
    console.print(_family_table(title, cmp.per_family_delta()))
    delta = cmp.confusion_delta()
    if delta:
        t = Table(title="confusion-matrix delta (after - before)")
        t.add_column("expected", no_wrap=True)
        t.add_column("decided: change in count")
        for e, cells in delta.items():
            t.add_row(e, ", ".join(f"[{'green' if (g == e) == (d > 0) else 'red'}]{g} {d:+d}[/]" for g, d in cells.items()))
        console.print(t)
    changed = cmp.changed()
    if changed:
        t = Table(title=f"rows whose family moved ({len(changed)}; first {min(limit, len(changed))})")
        for col in ("id", "utterance", "expected", "before", "after", "effect"):
            t.add_column(col)
        for row in changed[:limit]:
            colour = {"fixed": "green", "broke": "red"}.get(row["effect"], "yellow")
            t.add_row(row["id"], row["text"], str(row["expected"]), str(row["before"]), str(row["after"]), f"[{colour}]{row['effect']}[/]")
        console.print(t)
    else:
        console.print("no decision moved")


def _apply_sets(weights, pairs: list[str], features=None):
    """The weights with each --set FAMILY.AXIS=NUMBER applied; a family or axis nobody knows is refused (TuningError)."""
    from dataflow.workbench.tuning import known_axes, with_weight

    axes = known_axes(weights, features)
    for pair in pairs:
        try:
            key, value = pair.split("=", 1)
            family, axis = key.split(".", 1)
            number = float(value)
        except ValueError:
            raise typer.BadParameter(f"{pair!r}: use FAMILY.AXIS=NUMBER, e.g. FRG.has_frg_scope=2.5", param_hint="--set") from None
        weights = with_weight(weights, family.strip(), axis.strip(), number, axes)
    return weights


def _diff_table(diff: list[dict]) -> Table:
    t = Table(title=f"weights diff ({len(diff)} terms changed)")
    for col in ("family", "term", "before", "after", "change"):
        t.add_column(col, justify="right" if col in ("before", "after", "change") else "left")
    for d in diff:
        b, a = d["before"], d["after"]
        change = f"{(a or 0) - (b or 0):+.2f}" if isinstance(a, (int, float, type(None))) and isinstance(b, (int, float, type(None))) else ""
        t.add_row(d["family"], d["term"], "-" if b is None else str(b), "-" if a is None else str(a), change)
    return t


def _route_features(paths: list[Path], label: str):
    """Run the DAG over sets and keep their evidence features."""
    from dataflow.rows import decide_rows, read_set
    from dataflow.driver import TurnRunner
    from dataflow.workbench.features import features_from_records, signal_entries

    parsed = [p for path in paths for p in read_set(path)]
    rows = [row for _, row, _ in parsed if row]
    runner = TurnRunner()
    with Progress(f"[progress.description]{label}", BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(), console=err) as bar:
        task = bar.add_task(label, total=len(parsed))
        records = decide_rows(runner, parsed, lambda: bar.advance(task))
    return features_from_records(records, rows, signal_entries(runner.registry.weights)), runner.registry.weights, rows


def tune(
    paths: list[Path] = typer.Argument(None, help="RUN_DIR to re-score, or with --fit the labelled SETs to fit on."),
    weights: Optional[Path] = typer.Option(None, "--weights", help="Weights to compare: a full evidence_weights.json or a partial one ({\"weights\": {\"FRG\": {\"has_frg_scope\": 2.5}}})."),
    set_: list[str] = typer.Option([], "--set", help="Change one weight: FAMILY.AXIS=NUMBER (repeatable)."),
    fit: bool = typer.Option(False, "--fit", help="Fit the weights on the labelled SETs (multinomial logistic regression)."),
    holdout: Path = typer.Option(HOLDOUT, "--holdout", help="Held-out set the fit must not get worse on (never fitted on)."),
    out: Path = typer.Option(WEIGHTS_OUT, "--out", help="With --fit: where the fitted weights go (default: the registry's file)."),
    max_drop: float = typer.Option(0.0, "--max-drop", min=0.0, help="With --fit: largest allowed drop of held-out family accuracy (0.01 = one point)."),
    l2: float = typer.Option(0.05, "--l2", min=0.0, help="With --fit: pull toward the current weights (larger = smaller changes)."),
    allow_new_terms: bool = typer.Option(False, "--allow-new-terms", help="With --fit: let axes that have no weight for a family get one."),
    dry_run: bool = typer.Option(False, "--dry-run", help="With --fit: show the diff and the guard, write nothing."),
    limit: int = typer.Option(25, "--limit", min=0, help="How many moved rows to list."),
) -> None:
    """Re-score a run under changed evidence weights (no DAG run), or fit the weights from labelled sets."""
    from dataflow.workbench import tuning
    paths = paths or []
    try:
        if fit:
            _fit(paths, holdout, out, max_drop, l2, allow_new_terms, dry_run, limit)
            return
        if len(paths) != 1:
            raise typer.BadParameter("give one RUN_DIR (or --fit SET...)", param_hint="PATHS")
        if weights is None and not set_:
            raise typer.BadParameter("give --weights FILE and/or --set FAMILY.AXIS=NUMBER", param_hint="--weights")
        run_dir = paths[0]
        features = tuning.load_features(run_dir)
        base = tuning.run_weights(run_dir)
        if features.meta.get("planner_backend", "heuristic") != "heuristic":
            err.print(f"[yellow]warning:[/yellow] this run used the {features.meta['planner_backend']} planner; re-scoring replays the heuristic decision")
        new = tuning.read_weights(weights, base) if weights else base
        new = _apply_sets(new, set_, features)
        started = time.perf_counter()
        rate, _ = tuning.agreement(features, base)
        cmp = tuning.compare(features, base, new)
        ms = (time.perf_counter() - started) * 1000
    except tuning.TuningError as exc:
        _fail(str(exc))
    console.print(f"{run_dir}: {len(features)} rows; re-scoring under the run's own weights reproduces "
                  f"[bold]{_pct(rate)}[/bold] of its families; three re-scorings took {ms:.0f} ms")
    console.print(_diff_table(tuning.weights_diff(base, new)))
    _show_comparison(cmp, "per-family deltas (run weights -> new weights)", limit)


def _fit(sets: list[Path], holdout: Path, out: Path, max_drop: float, l2: float, allow_new_terms: bool, dry_run: bool, limit: int) -> None:
    from dataflow.workbench import tuning
    from dataflow.rows import read_set

    if not sets:
        raise typer.BadParameter("give the labelled SETs to fit on", param_hint="PATHS")
    for path in [*sets, holdout]:
        if not path.is_file():
            raise typer.BadParameter(f"{path}: no such file", param_hint="PATHS")
    held_ids = {str(r.get("id")) for _, r, _ in read_set(holdout) if r}
    for path in sets:
        if path.resolve() == holdout.resolve():
            raise typer.BadParameter(f"{path} is the held-out set: it is never fitted on", param_hint="PATHS")
        overlap = held_ids & {str(r.get("id")) for _, r, _ in read_set(path) if r}
        if overlap:
            raise typer.BadParameter(f"{path} shares {len(overlap)} row ids with the held-out set (e.g. {sorted(overlap)[0]})", param_hint="PATHS")
    train, base, _ = _route_features(sets, "routing the training sets")
    held, _, _ = _route_features([holdout], "routing the held-out set")
    started = time.perf_counter()
    new = tuning.fit_weights(train, base, l2=l2, allow_new_terms=allow_new_terms)
    console.print(f"fitted on {sum(e is not None for e in train.expected)} labelled rows in {time.perf_counter() - started:.2f} s")
    console.print(_diff_table(tuning.weights_diff(base, new)))
    train_cmp, held_cmp = tuning.compare(train, base, new), tuning.compare(held, base, new)
    console.print(f"training sets: family accuracy {_pct(train_cmp.accuracy_before)} -> {_pct(train_cmp.accuracy_after)}")
    console.print(f"[bold]held-out {holdout.name}[/bold]:", end=" ")
    _show_comparison(held_cmp, f"held-out per-family deltas ({holdout.name})", limit)
    before, after = held_cmp.accuracy_before or 0.0, held_cmp.accuracy_after or 0.0
    if after < before - max_drop - 1e-12:
        err.print(f"[red]refused:[/red] held-out family accuracy would drop {_pct(before)} -> {_pct(after)} "
                  f"(allowed drop {max_drop:.3f}); {out} is unchanged")
        raise typer.Exit(1)
    if (train_cmp.accuracy_after or 0.0) < (train_cmp.accuracy_before or 0.0) and after <= before:
        err.print("[yellow]warning:[/yellow] the fit lowers training accuracy and gains nothing held out; "
                  "the logistic loss is a proxy for the owner decision (consider a larger --l2, or keep the current weights)")
    if not tuning.weights_diff(base, new):
        console.print("the fit changes no weight; nothing to write")
        return
    if dry_run:
        console.print(f"guard passed ({_pct(before)} -> {_pct(after)} held out); --dry-run: {out} is unchanged")
        return
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(tuning.weights_json(new), encoding="utf-8")
    console.print(f"guard passed ({_pct(before)} -> {_pct(after)} held out); weights written to {out}")


def learn(
    sets: list[Path] = typer.Argument(..., help="Labelled SETs to fit the learned family model on (holdout sets are refused)."),
    out: Path = typer.Option(ROOT / "registry" / "learned_family.npz", "--out",
                             help="Where the model goes (default: the registry's file, which the planner reads)."),
    calibration_share: float = typer.Option(0.15, "--calibration-share", min=0.05, max=0.5,
                                            help="Share of rows kept aside (by a hash of the id) to calibrate the temperature."),
    features: str = typer.Option("char,morph", "--features",
                                 help="What the model reads, comma-separated: char (character n-grams), morph (Kiwi's morphemes)."),
    question_weight: float = typer.Option(QUESTION_WEIGHT, "--question-weight", min=0.0, max=1.0,
                                          help="What a row of a product-question set counts in the family prior (1: as "
                                               "fitted; 0: the utterance sets' shares alone). Such a set holds only "
                                               "product questions: it shows what they look like, not how often they come."),
) -> None:
    """Fit the learned family evidence (hashed character n-grams and morphemes, softmax, calibrated): evidence axes,
    never a licence."""
    from dataflow.workbench.learned import fit_learned_model
    from registry.errors import A2AError

    missing = [str(p) for p in sets if not p.is_file()]
    if missing:
        _fail(f"no such set: {', '.join(missing)}")
    kinds = tuple(k.strip() for k in features.split(",") if k.strip())
    try:
        summary = fit_learned_model(sets, out, calibration_share, features=kinds, question_weight=question_weight)
    except A2AError as exc:
        _fail(str(exc))
    console.print(f"fitted on {summary['rows_fitted']} rows ({summary['unmarked_copies']} also without marks); calibration part {summary['rows_calibration']} rows, "
                  f"accuracy {summary['calibration_accuracy']}, temperature {summary['temperature']}; written to {summary['out']}", soft_wrap=True)


def register(app: typer.Typer) -> None:
    """Add the workbench commands to the `a2a` app."""
    app.command()(trace)
    app.command()(report)
    app.command()(tune)
    app.command()(learn)
