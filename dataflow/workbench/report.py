"""A self-contained HTML report of a batch run directory (inline CSS and SVG, opens offline).

    a2a report runs/a      # writes runs/a/report.html

Sections: headline metrics, the confusion matrix as a heatmap, per-family precision/recall/F1,
the family errors with the evidence that decided each one, plan errors, the latency histogram
and per-stage time, and the model-economy figures when the run made model calls.
"""

from __future__ import annotations

import statistics
from collections import Counter
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from dataflow.rows import decision_actions
from dataflow.views import PAGE_CSS as _CSS, escape as _e, format_actions, load_run, run_expectations as _expectations, terms_html as _terms
from dataflow.workbench.batch import actions_match
from registry.contracts import FAMILIES
from registry.record_contracts import DecisionRecord
from registry.errors import ReportError  # noqa: F401  (load_run raises it; the CLI and tests import it from here)

REPORT_FILE = "report.html"


# --- drawing ---------------------------------------------------------------------------------


def _heat(value: float, good: bool) -> str:
    """A cell colour: green shades on the diagonal, red shades off it; white at zero."""
    if value <= 0:
        return "#ffffff"
    a = 0.15 + 0.85 * min(1.0, value)
    return f"rgba(46,139,87,{a:.2f})" if good else f"rgba(205,55,55,{a:.2f})"


def confusion_svg(confusion: dict[str, dict[str, int]]) -> str:
    """Rows: expected family; columns: decided family; shade: share of the row."""
    rows = [f for f in FAMILIES if f in confusion] + sorted(f for f in confusion if f not in FAMILIES)
    cols = list(FAMILIES) + sorted({g for c in confusion.values() for g in c} - set(FAMILIES))
    cell, left, top = 58, 96, 74
    w, h = left + cell * len(cols) + 20, top + cell * len(rows) + 20
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" role="img" aria-label="confusion matrix" class="heatmap">',
             f'<text x="{left + cell * len(cols) / 2}" y="16" text-anchor="middle" class="axis-title">decided family</text>',
             f'<text x="14" y="{top + cell * len(rows) / 2}" text-anchor="middle" class="axis-title" transform="rotate(-90 14 {top + cell * len(rows) / 2})">expected family</text>']
    for j, g in enumerate(cols):
        parts.append(f'<text x="{left + j * cell + cell / 2}" y="{top - 10}" text-anchor="middle" class="tick">{_e(g)}</text>')
    for i, e in enumerate(rows):
        total = sum(confusion[e].values()) or 1
        parts.append(f'<text x="{left - 8}" y="{top + i * cell + cell / 2 + 4}" text-anchor="end" class="tick">{_e(e)}</text>')
        for j, g in enumerate(cols):
            n = confusion[e].get(g, 0)
            x, y = left + j * cell, top + i * cell
            parts.append(f'<rect x="{x}" y="{y}" width="{cell}" height="{cell}" fill="{_heat(n / total, e == g)}" stroke="#ccc">'
                         f'<title>expected {_e(e)}, decided {_e(g)}: {n} of {total}</title></rect>')
            if n:
                dark = n / total > 0.55
                parts.append(f'<text x="{x + cell / 2}" y="{y + cell / 2 + 5}" text-anchor="middle" class="count{" dark" if dark else ""}">{n}</text>')
    parts.append("</svg>")
    return "".join(parts)


def histogram_svg(values: list[float], *, bins: int = 30, unit: str = "ms", marks: dict[str, float] | None = None) -> str:
    """A histogram with labelled percentile marks."""
    if not values:
        return '<p class="muted">no values</p>'
    ordered = sorted(values)
    p99 = ordered[min(len(ordered) - 1, int(0.99 * (len(ordered) - 1)))]
    lo, hi = 0.0, (min(ordered[-1], 1.5 * p99) * 1.02) or 1.0  # a cold-start outlier must not flatten the rest
    width = (hi - lo) / bins
    counts = [0] * bins
    for v in values:
        counts[max(0, min(bins - 1, int((v - lo) / width)))] += 1
    over = sum(1 for v in values if v > hi)
    W, H, left, bottom = 640, 220, 44, 34
    plot_w, plot_h = W - left - 12, H - bottom - 14
    top_count = max(counts)
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" role="img" aria-label="histogram" class="hist">']
    bw = plot_w / bins
    for k, c in enumerate(counts):
        bh = plot_h * c / top_count if top_count else 0
        parts.append(f'<rect x="{left + k * bw:.1f}" y="{14 + plot_h - bh:.1f}" width="{bw - 1:.1f}" height="{bh:.1f}" fill="#4a78b5">'
                     f'<title>{lo + k * width:.2f}-{lo + (k + 1) * width:.2f} {unit}: {c}</title></rect>')
    parts.append(f'<line x1="{left}" y1="{14 + plot_h}" x2="{left + plot_w}" y2="{14 + plot_h}" stroke="#333"/>')
    for t in range(5):
        v = lo + (hi - lo) * t / 4
        x = left + plot_w * t / 4
        parts.append(f'<text x="{x:.1f}" y="{H - 16}" text-anchor="middle" class="tick">{v:.2f}</text>')
    parts.append(f'<text x="{left + plot_w / 2}" y="{H - 2}" text-anchor="middle" class="tick">{_e(unit)}'
                 + (f" ({over} above {hi:.2f}, max {ordered[-1]:.2f}, counted in the last bar)" if over else "") + "</text>")
    parts.append(f'<text x="{left - 6}" y="18" text-anchor="end" class="tick">{top_count}</text>')
    for n, (label, v) in enumerate((marks or {}).items()):
        x = left + plot_w * min(v, hi) / hi
        parts.append(f'<line x1="{x:.1f}" y1="10" x2="{x:.1f}" y2="{14 + plot_h}" stroke="#d9822b" stroke-dasharray="4 3"/>'
                     f'<text x="{x + 3:.1f}" y="{24 + 13 * n}" class="mark">{_e(label)} {v:.2f}</text>')
    parts.append("</svg>")
    return "".join(parts)


def bar(value: float, good: bool = True) -> str:
    """A small inline bar for a share in [0, 1]."""
    w = max(0.0, min(1.0, value)) * 120
    colour = "#2e8b57" if good else "#cd3737"
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="124" height="12" class="bar"><rect x="0" y="1" width="120" height="10" fill="#eee"/>'
            f'<rect x="0" y="1" width="{w:.1f}" height="10" fill="{colour}"/></svg>')


def _bars_svg(items: list[tuple[str, float]], unit: str) -> str:
    if not items:
        return '<p class="muted">no values</p>'
    top = max(v for _, v in items) or 1.0
    W, row, left = 640, 20, 190
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{row * len(items) + 8}" role="img" aria-label="stage time" class="stagebars">']
    for i, (name, v) in enumerate(items):
        y = 4 + i * row
        parts.append(f'<text x="{left - 6}" y="{y + 13}" text-anchor="end" class="tick">{_e(name)}</text>'
                     f'<rect x="{left}" y="{y + 2}" width="{(W - left - 90) * v / top:.1f}" height="{row - 6}" fill="#7a9cc6"/>'
                     f'<text x="{left + (W - left - 90) * v / top + 4:.1f}" y="{y + 13}" class="tick">{v:.3f} {unit}</text>')
    parts.append("</svg>")
    return "".join(parts)


# --- sections --------------------------------------------------------------------------------


def _pct(v: float | None) -> str:
    return "-" if v is None else f"{100 * v:.1f}%"


def _scored(metrics: dict[str, Any], expect: dict[str, dict[str, Any]], key: str) -> bool:
    """Whether any row of the run was checked on `key` (metrics.json's `scored` counts; older runs: the labels found)."""
    if "scored" in metrics:
        return bool(metrics["scored"].get(key))
    return any(key in e for e in expect.values())


def _rate(metrics: dict[str, Any], key: str, scored_key: str) -> str:
    return "not scored" if metrics.get(key) is None and not metrics.get("scored", {}).get(scored_key) else _pct(metrics.get(key))


def _headline(metrics: dict[str, Any], records: list[DecisionRecord]) -> str:
    cards = [
        ("rows", str(metrics.get("rows", len(records)))), ("errors", str(metrics.get("errors", 0))),
        ("family accuracy", _rate(metrics, "family_accuracy", "family")), ("actions exact", _rate(metrics, "action_exact_match", "actions")),
        ("routes match", _rate(metrics, "routes_match", "routes")), ("slots", _rate(metrics, "slot_accuracy", "slots")),
        ("second pass rate", _pct(metrics.get("second_pass_rate"))),
        ("latency p50 / p95", f"{metrics.get('latency_ms', {}).get('p50', 0):.2f} / {metrics.get('latency_ms', {}).get('p95', 0):.2f} ms"),
    ]
    return '<div class="cards">' + "".join(f'<div class="card"><div class="label">{_e(k)}</div><div class="value">{_e(v)}</div></div>' for k, v in cards) + "</div>"


def _per_family(metrics: dict[str, Any]) -> str:
    rows = []
    for fam, v in metrics.get("per_family", {}).items():
        rows.append(f"<tr><td class='fam'>{_e(fam)}</td><td>{v['precision']:.3f} {bar(v['precision'])}</td>"
                    f"<td>{v['recall']:.3f} {bar(v['recall'])}</td><td>{v['f1']:.3f} {bar(v['f1'])}</td><td class='num'>{v['support']}</td></tr>")
    return ("<table id='per-family-table'><thead><tr><th>family</th><th>precision</th><th>recall</th><th>F1</th><th>support</th></tr></thead>"
            f"<tbody>{''.join(rows)}</tbody></table>")


def _decided_families(records: list[DecisionRecord]) -> str:
    counts = Counter(r.family or "ERROR" for r in records)
    order = [f for f in FAMILIES if counts[f]] + sorted(set(counts) - set(FAMILIES))
    return ("<table id='decided-families'><thead><tr><th>decided family</th><th>rows</th></tr></thead><tbody>"
            + "".join(f"<tr><td class='fam'>{_e(f)}</td><td class='num'>{counts[f]}</td></tr>" for f in order) + "</tbody></table>")


def _family_errors(records: list[DecisionRecord], expect: dict[str, dict[str, Any]]) -> tuple[str, int]:
    rows = []
    for rec in records:
        exp = expect.get(str(rec.id), {}).get("family")
        if not exp or exp == rec.family:
            continue
        ev = rec.evidence
        scores, contrib, sp = ev.family_scores, ev.family_contributions, ev.second_pass
        judge = (f"{'/'.join(sp.pair or [])} → {sp.winner}<br><span class='muted'>{_e(', '.join(sp.reason[:3]))}</span>"
                 if sp is not None and sp.ran else "<span class='muted'>closed</span>")
        axes = sorted(((k, v.strength) for k, v in ev.axes.items() if v.strength >= 0.005), key=lambda kv: -kv[1])
        axes_html = ", ".join(f"{_e(k)} {s:.2f}" for k, s in axes[:6]) or "<span class='muted'>none lit</span>"
        why = (f"<b>{_e(rec.family)}</b> {scores.get(rec.family or '', 0):.2f}<br>{_terms(contrib.get(rec.family or '', {}))}"
               if rec.family in scores else _e(rec.error or rec.family))
        missed = f"<b>{_e(exp)}</b> {scores.get(exp, 0):.2f}<br>{_terms(contrib.get(exp, {}))}" if exp in scores else _e(exp)
        rows.append(
            f"<tr><td class='id'>{_e(rec.id)}</td><td class='text'>{_e(rec.text)}</td><td class='fam exp'>{_e(exp)}</td>"
            f"<td class='fam got'>{_e(rec.family or 'ERROR')}</td><td>{_e(rec.family_confidence)}</td><td>{why}</td><td>{missed}</td>"
            f"<td>{judge}</td><td class='axes'>{axes_html}</td></tr>")
    if not rows:
        return "<p class='ok'>No family errors.</p>", 0
    head = ("<table id='error-table'><thead><tr><th>id</th><th>utterance</th><th>expected</th><th>decided</th><th>confidence</th>"
            "<th>why the decided family scored (top terms)</th><th>the expected family's score</th><th>second pass</th><th>axes that lit</th></tr></thead>")
    return head + f"<tbody>{''.join(rows)}</tbody></table>", len(rows)


def _plan_errors(records: list[DecisionRecord], expect: dict[str, dict[str, Any]]) -> tuple[str, int]:
    rows = []
    for rec in records:
        exp = expect.get(str(rec.id), {})
        if "actions" not in exp or exp.get("family") not in (None, rec.family):
            continue
        got = decision_actions(rec)
        if actions_match(exp["actions"] or [], got):
            continue
        rows.append(f"<tr><td class='id'>{_e(rec.id)}</td><td class='text'>{_e(rec.text)}</td><td class='fam'>{_e(rec.family)}</td>"
                    f"<td class='plan'>{_e(format_actions(exp['actions'] or []))}</td><td class='plan'>{_e(format_actions(got))}</td></tr>")
    if not rows:
        return "<p class='ok'>No plan errors among rows with the right family (or the set is not reachable for action checks).</p>", 0
    head = "<table id='plan-error-table'><thead><tr><th>id</th><th>utterance</th><th>family</th><th>expected actions</th><th>planned actions</th></tr></thead>"
    return head + f"<tbody>{''.join(rows)}</tbody></table>", len(rows)


def _economy(records: list[DecisionRecord]) -> str:
    used = [r for r in records if r.usage.model_calls or r.usage.prompt_tokens or r.usage.output_tokens]
    if not used:
        return "<p class='muted' id='economy-none'>No model calls in this run (the heuristic backend decides without a model).</p>"
    calls = sum(r.usage.model_calls for r in records)
    prompt = sum(r.usage.prompt_tokens for r in records)
    output = sum(r.usage.output_tokens for r in records)
    n = len(records) or 1
    by_family: dict[str, Counter] = {}
    for r in records:
        c = by_family.setdefault(r.family or "ERROR", Counter())
        c["rows"] += 1
        c["calls"] += r.usage.model_calls
        c["tokens"] += r.usage.prompt_tokens + r.usage.output_tokens
    fam_rows = "".join(f"<tr><td class='fam'>{_e(f)}</td><td class='num'>{c['rows']}</td><td class='num'>{c['calls']}</td>"
                       f"<td class='num'>{c['calls'] / c['rows']:.2f}</td><td class='num'>{c['tokens'] / c['rows']:.0f}</td></tr>"
                       for f, c in sorted(by_family.items()))
    cards = [("model calls", f"{calls}"), ("turns with a call", f"{len(used)} ({100 * len(used) / n:.1f}%)"),
             ("calls per turn", f"{calls / n:.2f}"), ("prompt tokens / turn", f"{prompt / n:.0f}"), ("output tokens / turn", f"{output / n:.0f}")]
    return ('<div class="cards" id="economy">' + "".join(f'<div class="card"><div class="label">{_e(k)}</div><div class="value">{_e(v)}</div></div>' for k, v in cards)
            + "</div><table><thead><tr><th>family</th><th>rows</th><th>calls</th><th>calls / row</th><th>tokens / row</th></tr></thead>"
            + f"<tbody>{fam_rows}</tbody></table>"
            + "<h3>Tokens per turn (turns with a call)</h3>" + histogram_svg([r.usage.prompt_tokens + r.usage.output_tokens for r in used], unit="tokens"))


def render_report(run_dir: Path) -> str:
    """The report's HTML text."""
    run_dir = Path(run_dir)
    records, metrics = load_run(run_dir)
    expect = _expectations(run_dir, metrics)
    families_scored, plans_scored = _scored(metrics, expect, "family"), _scored(metrics, expect, "actions")
    errors_html, n_errors = _family_errors(records, expect)
    plan_html, n_plan = _plan_errors(records, expect)
    lat = [r.usage.total_ms for r in records if not r.error and r.usage.total_ms > 0]
    lat_marks = metrics.get("latency_ms", {})
    stage: dict[str, list[float]] = {}
    for r in records:
        for name, ms in r.usage.stage_ms.items():
            stage.setdefault(name, []).append(ms)
    stage_items = sorted(((k, statistics.mean(v)) for k, v in stage.items()), key=lambda kv: -kv[1])
    written = datetime.fromtimestamp((run_dir / "decisions.jsonl").stat().st_mtime, tz=timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    bad_rows = metrics.get("error_rows", [])
    bad_html = ("<table><thead><tr><th>id</th><th>why it could not be routed</th></tr></thead><tbody>"
                + "".join(f"<tr><td class='id'>{_e(b.get('id'))}</td><td>{_e(b.get('error'))}</td></tr>" for b in bad_rows)
                + "</tbody></table>") if bad_rows else "<p class='ok'>Every row was routed.</p>"
    # an unlabelled set has nothing to score: say so instead of an empty matrix and a green "no errors"
    nothing = ("" if families_scored or plans_scored or metrics.get("scored_rows") else
               f"<p class='warn' id='not-scored'>Nothing was scored: no row of {_e(metrics.get('set', 'the set'))} has an "
               "<code>expect</code>. The decided families are listed below; label rows (data/utterances/LABELING.md) to score them.</p>")
    if families_scored:
        families_html = f"""<div class="grid"><div><h3>Confusion matrix</h3><p class="sub">Rows are the labelled family, columns the decided one; the shade is the share of the row (green: right, red: wrong).</p>
<div id="confusion">{confusion_svg(metrics.get('confusion_matrix', {}))}</div></div>
<div><h3>Precision, recall and F1 per family</h3>{_per_family(metrics)}</div></div>"""
        errors_title = f"Family errors ({n_errors})"
    else:
        families_html = (f"<p class='warn' id='families-not-scored'>Families were not scored: no row has an expected family.</p>"
                         f"<h3>Decided families</h3>{_decided_families(records)}")
        errors_title, errors_html = "Family errors (not scored)", "<p class='muted'>No row has an expected family, so no family can be wrong or right.</p>"
    if plans_scored:
        plan_title = f"Plan errors ({n_plan})"
    else:
        plan_title, plan_html = "Plan errors (not scored)", "<p class='muted' id='plans-not-scored'>No row has expected actions, so no plan was checked.</p>"
    return f"""<!DOCTYPE html>
<html lang="ko"><head><meta charset="utf-8"><title>a2a run report: {_e(run_dir.name)}</title><style>{_CSS}</style></head>
<body>
<h1>Run report: {_e(run_dir.name)}</h1>
<div class="sub">set {_e(metrics.get('set', '?'))} · engine {_e(metrics.get('engine', 'local'))} · written {_e(written)}</div>
<section id="summary"><h2>Summary</h2>{nothing}{_headline(metrics, records)}</section>
<section id="families"><h2>Owner families</h2>
{families_html}</section>
<section id="errors"><h2>{errors_title}</h2>
<p class="sub">Each family is scored as bias + Σ weight × axis strength (registry/evidence_weights.json). For each error: the terms that lifted the decided family, the expected family's score and terms, whether the second-pass judge ran, and the axes that lit.</p>
{errors_html}</section>
<section id="plan-errors"><h2>{plan_title}</h2><p class="sub">Rows with the right family whose typed actions differ from the labels (? marks a guarded step).</p>{plan_html}</section>
<section id="latency"><h2>Latency</h2><p class="sub">Wall time per turn through the DAG ({len(lat)} turns).</p>
<div id="latency-histogram">{histogram_svg(lat, marks={k: v for k, v in lat_marks.items() if k in ('p50', 'p95')})}</div>
<h3>Mean time per stage</h3>{_bars_svg(stage_items, 'ms')}</section>
<section id="model-economy"><h2>Model economy</h2>{_economy(records)}</section>
<section id="bad-rows"><h2>Rows that could not be routed ({metrics.get('errors', 0)})</h2>{bad_html}</section>
</body></html>
"""


def write_report(run_dir: Path, out: Path | None = None) -> Path:
    """Write report.html into the run directory (or `out`) and return its path."""
    text = render_report(run_dir)
    path = out or Path(run_dir) / REPORT_FILE
    path.write_text(text, encoding="utf-8")
    return path
