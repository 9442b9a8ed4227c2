"""What the workbench's run report and the runtime's web console both show, kept once in the core (the two jobs
may not import each other, tests/test_layout.py): a batch run read back, HTML escaping and the page style, typed
actions, the "why" terms of a family, and the stage nodes on a turn's path."""

from __future__ import annotations

import html
import json
from pathlib import Path
from typing import Any

from dataflow.driver import FINAL_NODE
from registry.errors import ReportError
from registry.record_contracts import DecisionRecord

PAGE_CSS = """
body{font-family:"Nanum Gothic","NanumGothic","Noto Sans CJK KR","Apple SD Gothic Neo","Malgun Gothic",sans-serif;margin:24px 32px;color:#222;max-width:1400px}
h1{font-size:22px;margin-bottom:2px}h2{font-size:18px;margin-top:34px;border-bottom:1px solid #ddd;padding-bottom:4px}h3{font-size:15px}
.muted{color:#888}.ok{color:#2e8b57}.warn{color:#a5670b;font-weight:600}.sub{color:#666;font-size:13px}
.cards{display:flex;flex-wrap:wrap;gap:10px;margin:12px 0}.card{border:1px solid #ddd;border-radius:6px;padding:8px 14px;min-width:120px;background:#fafafa}
.card .label{font-size:12px;color:#666}.card .value{font-size:20px;font-weight:600}
table{border-collapse:collapse;font-size:13px;margin:8px 0}th,td{border:1px solid #ddd;padding:4px 8px;vertical-align:top;text-align:left}
th{background:#f2f4f7}td.num{text-align:right}td.fam{font-weight:600;white-space:nowrap}td.exp{color:#2e8b57}td.got{color:#cd3737}
td.text{min-width:200px;max-width:340px}td.axes{font-size:12px;max-width:300px}td.plan{font-family:monospace;font-size:12px}
.pos{color:#2e6b9e}.neg{color:#b04a4a}svg text{font-family:inherit}.tick{font-size:12px;fill:#333}.axis-title{font-size:13px;fill:#555}
.count{font-size:14px;fill:#222}.count.dark{fill:#fff;font-weight:600}.mark{font-size:11px;fill:#b0651b}.bar{vertical-align:middle;margin-left:6px}
.grid{display:flex;flex-wrap:wrap;gap:40px;align-items:flex-start}
"""
"""The style of the run report and the console: a Nanum font first so Hangul renders (scripts/setup.sh installs it)."""


def escape(value: Any) -> str:
    """Any value as HTML text (None as nothing)."""
    return html.escape("" if value is None else str(value), quote=True)


def load_run(run_dir: Path) -> tuple[list[DecisionRecord], dict[str, Any]]:
    """The decision records and metrics of a run directory."""
    run_dir = Path(run_dir)
    if not run_dir.is_dir():
        raise ReportError(f"{run_dir}: not a directory (run `a2a batch SET --out {run_dir}` first)")
    missing = [n for n in ("decisions.jsonl", "metrics.json") if not (run_dir / n).exists()]
    if missing:
        raise ReportError(f"{run_dir}: missing {', '.join(missing)}; is it a batch run directory?")
    records = []
    for number, line in enumerate((run_dir / "decisions.jsonl").read_text(encoding="utf-8").splitlines(), 1):
        if line.strip():
            try:
                records.append(DecisionRecord.model_validate_json(line))
            except ValueError as exc:
                raise ReportError(f"{run_dir / 'decisions.jsonl'} line {number}: not a decision record ({str(exc).splitlines()[0]})") from None
    try:
        metrics = json.loads((run_dir / "metrics.json").read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise ReportError(f"{run_dir / 'metrics.json'}: not valid JSON ({exc.msg})") from None
    return records, metrics


def run_expectations(run_dir: Path, metrics: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """id -> expect, from the parquet (families) and, when it is still there, the set (actions)."""
    out: dict[str, dict[str, Any]] = {}
    parquet = run_dir / "decisions.parquet"
    if parquet.exists():
        import pyarrow.parquet as pq

        table = pq.read_table(parquet, columns=["id", "expected_family"]).to_pydict()
        for rid, fam in zip(table["id"], table["expected_family"]):
            if fam:
                out.setdefault(str(rid), {})["family"] = fam
    set_path = Path(metrics.get("set", ""))
    if set_path.is_file():
        for line in set_path.read_text(encoding="utf-8", errors="replace").splitlines():
            try:
                row = json.loads(line)
            except json.JSONDecodeError:
                continue
            if isinstance(row, dict) and isinstance(row.get("expect"), dict):
                out.setdefault(str(row.get("id")), {}).update(row["expect"])
    return out


def format_actions(actions: list[dict[str, Any]]) -> str:
    """Typed actions as `cap.op(args) → ...`, ? marking a guarded step."""
    out = []
    for a in actions:
        args = ",".join(f"{k}={v}" for k, v in (a.get("arguments") or {}).items())
        out.append(f"{'?' if a.get('conditional') else ''}{a['capability_id']}.{a['operation_id']}({args})")
    return " → ".join(out) or "(none)"


def terms_html(contrib: dict[str, float], limit: int = 4) -> str:
    """The largest "why" terms of a family's score (weight × strength), as HTML."""
    items = sorted(contrib.items(), key=lambda kv: -abs(kv[1]))[:limit]
    return "<br>".join(f"<span class='{'pos' if v > 0 else 'neg'}'>{escape(k)} {v:+.2f}</span>" for k, v in items) or "<span class='muted'>(bias only)</span>"


def pipeline_nodes(dr) -> dict[str, Any]:
    """The nodes on the turn's path of a Hamilton driver: the final record and everything upstream of it."""
    nodes = {v.name: v for v in dr.list_available_variables()}
    keep, todo = set(), [FINAL_NODE]
    while todo:
        name = todo.pop()
        if name in keep or name not in nodes:
            continue
        keep.add(name)
        todo.extend(nodes[name].required_dependencies | nodes[name].optional_dependencies)
    return {k: v for k, v in nodes.items() if k in keep}
