"""The web console of `a2a serve`: plain server-rendered pages over the warm runner, the workflow store and the
batch runs on disk (issue 12).

    GET /                              batch runs with their metrics, the other pages, a form to route a turn
    GET /console/runs/{run}            one run's decisions; filters family= (expected or decided), wrong=1, q=
    GET /console/runs/{run}/rows/{n}   one decision (n counts from 1): evidence axes, "why" terms, plan steps
    GET /console/turn?text=...         one utterance routed live: the same, and its stage timings
    GET /console/workflows[/{id}]      stored workflows; one with its steps, events and decisions
    GET /console/graph                 the stage nodes on a turn's path and what each one reads

No script, no external asset; every data string is escaped. The pages are read-only views (routing a turn from
the console stores nothing), and the bearer token of `a2a serve --token` guards /v1/ only, so it does not guard
them: anyone who reaches the port can read the runs and the stored workflow texts.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any
from urllib.parse import quote

from fastapi import FastAPI, Request
from fastapi.responses import HTMLResponse

from dataflow.rows import turn_from_row
from dataflow.views import PAGE_CSS, escape, format_actions, load_run, pipeline_nodes, run_expectations, terms_html
from registry.contracts import FAMILIES
from registry.errors import A2AError, UnknownWorkflowError
from registry.record_contracts import DecisionRecord

MAX_TEXT = 2000
"""The longest utterance routed, as POST /v1/turns."""
_CSS = "nav{margin-bottom:14px}nav a{margin-right:14px}form{margin:10px 0}input[type=text]{width:420px;padding:4px}"


class _Html(str):
    """Markup built here: put in a page as it is (every other value is escaped)."""


def _table(headers: list[str], rows: list[list[Any]], table_id: str = "") -> _Html:
    head = "".join(f"<th>{escape(h)}</th>" for h in headers)
    body = "".join("<tr>" + "".join(f"<td>{v if isinstance(v, _Html) else escape(v)}</td>" for v in row) + "</tr>" for row in rows)
    body = body or f"<tr><td colspan='{len(headers)}' class='muted'>none</td></tr>"
    attr = f' id="{escape(table_id)}"' if table_id else ""
    return _Html(f"<table{attr}><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>")


def _link(href: str, text: Any) -> _Html:
    return _Html(f'<a href="{escape(href)}">{escape(text)}</a>')


def _cards(items: list[tuple[str, Any]]) -> str:
    return '<div class="cards">' + "".join(f'<div class="card"><div class="label">{escape(k)}</div><div class="value">{escape(v)}</div></div>'
                                           for k, v in items) + "</div>"


def _pct(value: float | None) -> str:
    return "-" if value is None else f"{100 * value:.1f}%"


def _page(title: str, body: str, status: int = 200) -> HTMLResponse:
    nav = " ".join(_link(h, t) for h, t in (("/", "console"), ("/console/workflows", "workflows"), ("/console/graph", "stage graph"), ("/docs", "API")))
    return HTMLResponse(f"""<!DOCTYPE html>
<html lang="ko"><head><meta charset="utf-8"><title>{escape(title)} · a2a console</title><style>{PAGE_CSS}{_CSS}</style></head>
<body><nav>{nav}</nav><h1>{escape(title)}</h1>
{body}
</body></html>""", status_code=status)


class _Missing(Exception):
    """A run, row, workflow or page that is not there: answered with a 404 page that says which."""


def _turn_form(text: str = "") -> str:
    return (f"<form action='/console/turn' method='get'><input type='text' name='text' value='{escape(text)}' maxlength='{MAX_TEXT}'>"
            " <button type='submit'>route</button></form>")


# --- batch runs ------------------------------------------------------------------------------


def _open_run(runs_dir: Path, run: str) -> tuple[Path, list[DecisionRecord], dict[str, Any]]:
    """A run's folder, decision records and metrics; the name is a plain folder right under runs_dir (never `..`, a path, a hidden name)."""
    run_dir = Path(runs_dir) / run
    if not run or run.startswith(".") or any(c in run for c in "/\\\x00") or not (run_dir / "metrics.json").is_file():
        raise _Missing(f"No batch run named {run!r} in the runs directory.")
    try:
        return run_dir, *load_run(run_dir)
    except A2AError as exc:  # no decisions.jsonl, or a line that is not a record
        raise _Missing(str(exc)) from None


def _failing(run_dir: Path) -> dict[str, dict[str, Any]]:
    """id -> the row's line of errors.jsonl (a row that is not a full pass)."""
    out, path = {}, run_dir / "errors.jsonl"
    for line in path.read_text(encoding="utf-8").splitlines() if path.is_file() else []:
        try:
            row = json.loads(line)
            out[str(row["id"])] = row
        except (json.JSONDecodeError, TypeError, KeyError):  # a line that is not a row: it shows no failed keys
            continue
    return out


def _failed_keys(failing: dict[str, Any] | None) -> str:
    if not failing:
        return ""
    extra = [f"false action {a}" for a in failing.get("false_actions") or []] + (["error"] if failing.get("error") else [])
    return ", ".join([*(failing.get("failed") or []), *extra])


def _home(runs: list[dict[str, Any]]) -> str:
    rows = [[_link(f"/console/runs/{quote(r['run'], safe='')}", r["run"]), r.get("set"), r.get("rows"), _pct(r.get("family_accuracy")),
             _pct(r.get("action_exact_match")), r.get("false_actions"), r.get("errors")] for r in runs]
    return (f"<h2>Route a turn</h2>{_turn_form()}<h2>Batch runs</h2>"
            + _table(["run", "set", "rows", "family accuracy", "action exact match", "false actions", "errors"], rows, "runs")
            + "<p class='sub'>Runs are folders of the runs directory written by <code>a2a batch SET --out runs/NAME</code>.</p>"
            + f"<h2>Runtime</h2><p>{_link('/console/workflows', 'stored workflows')} · {_link('/console/graph', 'the stage graph')}</p>")


def _run_page(run: str, run_dir: Path, records: list[DecisionRecord], metrics: dict[str, Any], family: str, wrong: bool, q: str) -> str:
    expect, failing = run_expectations(run_dir, metrics), _failing(run_dir)
    shown = []
    for n, rec in enumerate(records, 1):
        expected = expect.get(str(rec.id), {}).get("family")
        ok = None if not expected else expected == (rec.family or "ERROR")  # None: the row has no family label
        if ((family and family not in (expected, rec.family)) or (wrong and ok is not False and not rec.error)
                or (q and q.lower() not in f"{rec.text}\n{rec.id}".lower())):
            continue
        mark = {True: "✓", False: "✗", None: "-"}[ok]
        shown.append([_link(f"/console/runs/{quote(run, safe='')}/rows/{n}", n), rec.id, rec.text, expected or "-", rec.family or "ERROR",
                      mark, _failed_keys(failing.get(str(rec.id)))])
    options = "".join(f"<option value='{f}'{' selected' if f == family else ''}>{f}</option>" for f in ("", *FAMILIES))
    form = (f"<form method='get' id='filters'>family <select name='family'>{options}</select> "
            f"<label><input type='checkbox' name='wrong' value='1'{' checked' if wrong else ''}> wrong family only</label> "
            f"search <input type='text' name='q' value='{escape(q)}'> <button type='submit'>filter</button></form>")
    cards = _cards([("rows", metrics.get("rows", len(records))), ("family accuracy", _pct(metrics.get("family_accuracy"))),
                    ("action exact match", _pct(metrics.get("action_exact_match"))), ("false actions", metrics.get("false_actions", "-")),
                    ("not a full pass", metrics.get("not_full_pass", "-")), ("errors", metrics.get("errors", 0))])
    return (f"<div class='sub'>set {escape(metrics.get('set', '?'))} · engine {escape(metrics.get('engine', 'local'))}</div>{cards}{form}"
            f"<p class='sub' id='shown'>{len(shown)} of {len(records)} rows</p>"
            + _table(["row", "id", "utterance", "expected family", "decided family", "family", "not a full pass"], shown, "decisions"))


# --- one decision ----------------------------------------------------------------------------


def _step_rows(rec: DecisionRecord) -> list[list[Any]]:
    rows = []
    for s in rec.steps:
        action = format_actions([{**s.action.model_dump(), "conditional": s.condition is not None}]) if s.action else "-"
        guard = json.dumps(s.condition.model_dump(), ensure_ascii=False) if s.condition else ""
        rows.append([s.id, s.route, s.purpose, _Html(f"<span class='plan'>{escape(action)}</span>"), guard, ", ".join(s.depends_on),
                     s.execution_target, s.wait_policy])
    return rows


def _decision(rec: DecisionRecord, expected: str | None = None) -> str:
    """A decision record: the family and reply, the axes that lit, the terms of each family's score, the plan."""
    ev = rec.evidence
    cards = [("family", rec.family or "ERROR"), ("confidence", rec.family_confidence or "-"), ("runner-up", rec.runner_up_family or "-"),
             ("flow", rec.selected_flow_id or "-")] + ([("expected", expected)] if expected else [])
    reply = rec.tts_response or rec.ask_follow_up or ""
    lit = sorted(((k, a) for k, a in ev.axes.items() if a.strength > 0), key=lambda kv: -kv[1].strength)
    axes = [[k, f"{a.strength:.2f}", ", ".join(a.signals)] for k, a in lit]
    why = [[_Html(f"<b>{escape(f)}</b>") if f == rec.family else f, f"{score:.2f}", _Html(terms_html(ev.family_contributions.get(f, {}), 6))]
           for f, score in sorted(ev.family_scores.items(), key=lambda kv: -kv[1])]
    sp = ev.second_pass
    judge = f"{'/'.join(sp.pair or ())} → {sp.winner}: {', '.join(sp.reason[:3])}" if sp is not None and sp.ran else "closed"
    checks = ev.plan_checks
    problems = "".join(f"<p class='warn'>{escape(x)}</p>" for x in [rec.error, *rec.warnings] if x)
    return (f"<p class='text' id='utterance'>{escape(rec.text)}</p>{problems}{_cards(cards)}"
            f"<p>reply: <span id='reply'>{escape(reply) or '<span class=muted>(none)</span>'}</span></p>"
            f"<h2>Evidence axes ({len(lit)} lit of {len(ev.axes)})</h2>" + _table(["axis", "strength", "signals"], axes, "axes")
            + "<h2>Why: each family's score and its largest terms</h2><p class='sub'>score = bias + Σ weight × strength"
            f" (registry/evidence_weights.json) · second pass: {escape(judge)}</p>" + _table(["family", "score", "terms"], why, "why")
            + f"<h2>Plan steps ({len(rec.steps)})</h2>"
            + _table(["step", "route", "purpose", "action", "guard", "depends on", "target", "wait"], _step_rows(rec), "steps")
            + (f"<p class='sub'>plan checks: {escape('ok' if checks.ok else checks.summary())}</p>" if checks else ""))


def _trace(rec: DecisionRecord) -> str:
    u = rec.usage
    stages = [[name, f"{ms:.3f}"] for name, ms in u.stage_ms.items()]
    return (f"<h2>Trace</h2><p class='sub'>trace id <code id='trace-id'>{escape(rec.trace_id)}</code> · {u.total_ms:.2f} ms in all"
            f" · {u.model_calls} model call(s)</p>" + _table(["stage (in the order it ran)", "ms"], stages, "stages"))


def _turn_page(state: Any, text: str, trace_id: str) -> str:
    text = text.strip()
    if not text:
        return _turn_form() + "<p class='muted' id='message'>Type an utterance to route it.</p>"
    if len(text) > MAX_TEXT:
        return _turn_form() + f"<p class='warn' id='message'>That is {len(text)} characters; a turn takes at most {MAX_TEXT}.</p>"
    with state.lock:
        try:
            record = state.runner.route(turn_from_row({"text": text}, state.runner.registry), trace_id=trace_id)
        except (A2AError, ValueError) as exc:  # a lone surrogate, a refused input
            return _turn_form(text) + f"<p class='warn' id='message'>This text cannot be routed: {escape(exc)}</p>"
    return _turn_form(text) + _decision(record) + _trace(record)


# --- workflows and the stage graph -----------------------------------------------------------


def _workflows(store: Any, status: str) -> str:
    rows = [[_link(f"/console/workflows/{quote(str(w['workflow_id']), safe='')}", w["workflow_id"]), w["created_at"], w["kind"],
             w["family"], w["status"], w["reason_code"], w["text"]] for w in store.list_workflows(limit=100, status=status or None)]
    return (f"<form method='get'>status <input type='text' name='status' value='{escape(status)}'> <button>filter</button></form>"
            + _table(["workflow", "created", "kind", "family", "status", "reason", "utterance"], rows, "workflows"))


def _workflow(store: Any, workflow_id: str) -> str:
    w = store.workflow(workflow_id)
    steps = [[s["step_id"], s["capability_id"], s["task_method"], s["status"], s["terminal_evidence"], s["reason_code"], s["attempt"]]
             for s in store.steps(workflow_id)]
    events = [[e["observed_at"], e["event_name"], e["step_id"], e["task_method"], e["reason_code"], e["terminal_evidence"]]
              for e in store.events(workflow_id)]
    decisions = [[d["seq"], d["step_id"], d["reason_code"], d["action"], d["reason"]] for d in store.decisions(workflow_id)]
    cards = _cards([("status", w["status"]), ("family", w["family"]), ("kind", w["kind"]), ("reason", w["reason_code"] or "-"),
                    ("simulated clock", "-" if w["sim_clock_s"] is None else f"{w['sim_clock_s']:.1f} s")])
    return (f"<p class='text' id='utterance'>{escape(w['text'])}</p>{cards}<p>reply: {escape(w['response'] or '-')}</p>"
            + "<h2>Steps</h2>" + _table(["step", "capability", "task", "status", "terminal evidence", "reason", "attempt"], steps, "steps")
            + f"<h2>Events ({len(events)})</h2>" + _table(["observed (sim s)", "event", "step", "task", "reason", "terminal evidence"], events, "events")
            + f"<h2>Decisions ({len(decisions)})</h2>" + _table(["#", "step", "reason code", "action", "why"], decisions, "decisions"))


def _graph(runner: Any) -> str:
    """The stage nodes on a turn's path (the nodes `a2a graph` draws), by module, with the nodes each reads."""
    nodes = pipeline_nodes(runner.driver)
    modules: dict[str, list[Any]] = {}
    for n in nodes.values():
        modules.setdefault("inputs" if n.is_external_input else n.tags.get("module", "?"), []).append(n)
    edges = sum(len(n.required_dependencies | n.optional_dependencies) for n in nodes.values())
    parts = [f"<p class='sub' id='graph-summary'>{len(nodes)} nodes, {edges} edges · config "
             f"{escape(', '.join(f'{k}={v}' for k, v in runner.config.model_dump().items()))} · "
             "the drawing: <code>a2a graph --out stages.svg</code></p>"]
    for module, members in sorted(modules.items(), key=lambda kv: kv[0] != "inputs"):
        rows = [[_Html(f"<b id='{escape(n.name)}'>{escape(n.name)}</b>"), getattr(n.type, "__name__", str(n.type)),
                 _Html(", ".join(f"<a href='#{escape(d)}'>{escape(d)}</a>" for d in sorted(n.required_dependencies | n.optional_dependencies))),
                 (n.documentation or "").strip().split("\n")[0]] for n in sorted(members, key=lambda n: n.name)]
        parts.append(f"<h2>{escape(module)}</h2>" + _table(["node", "output type", "reads", "what it is"], rows))
    return "".join(parts)


def add_console_routes(app: FastAPI, state: Any) -> None:
    """Mount the console's pages on the service (`create_app`)."""
    @app.exception_handler(_Missing)
    async def missing(request: Request, exc: _Missing) -> HTMLResponse:
        return _page("Not found", f"<p class='warn' id='not-found'>{escape(exc)}</p><p>{_link('/', 'back to the console')}</p>", 404)

    @app.get("/", response_class=HTMLResponse)
    def home() -> HTMLResponse:
        # the list GET /v1/runs serves, so both show the same runs (importing it from service.py would be a circle)
        runs = next(r.endpoint for r in app.routes if getattr(r, "path", None) == "/v1/runs")()
        return _page("a2a console", _home(runs))

    @app.get("/console/runs/{run}", response_class=HTMLResponse)
    def run_page(run: str, family: str = "", wrong: str = "", q: str = "") -> HTMLResponse:
        return _page(f"Run {run}", _run_page(run, *_open_run(state.runs_dir, run), family, wrong in ("1", "true", "on"), q))

    @app.get("/console/runs/{run}/rows/{n}", response_class=HTMLResponse)
    def row_page(run: str, n: str) -> HTMLResponse:
        run_dir, records, metrics = _open_run(state.runs_dir, run)
        if not n.isdigit() or not 1 <= int(n) <= len(records):
            raise _Missing(f"Run {run!r} has rows 1 to {len(records)}, not {n!r}.")
        rec = records[int(n) - 1]
        expected = run_expectations(run_dir, metrics).get(str(rec.id), {}).get("family")
        back = _link(f"/console/runs/{quote(run, safe='')}", f"all rows of {run}")
        return _page(f"Run {run}, row {n} ({rec.id})", f"<p>{back}</p>{_decision(rec, expected)}")

    @app.get("/console/turn", response_class=HTMLResponse)
    def turn_page(request: Request, text: str = "") -> HTMLResponse:
        return _page("Route a turn", _turn_page(state, text, request.state.trace_id))

    @app.get("/console/workflows", response_class=HTMLResponse)
    def workflows_page(status: str = "") -> HTMLResponse:
        with state.lock:
            return _page("Workflows", _workflows(state.store, status))

    @app.get("/console/workflows/{workflow_id}", response_class=HTMLResponse)
    def workflow_page(workflow_id: str) -> HTMLResponse:
        with state.lock:
            try:
                return _page(f"Workflow {workflow_id}", _workflow(state.store, workflow_id))
            except UnknownWorkflowError:
                raise _Missing(f"No stored workflow {workflow_id!r}.") from None

    @app.get("/console/graph", response_class=HTMLResponse)
    def graph_page() -> HTMLResponse:
        with state.lock:
            return _page("Stage graph", _graph(state.runner))

    @app.get("/console/{rest:path}", response_class=HTMLResponse)
    def unknown(rest: str) -> HTMLResponse:
        raise _Missing(f"No console page /console/{rest}.")
