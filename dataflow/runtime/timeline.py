"""A device timeline of one workflow as inline SVG: one lane per step, its events on the
simulated clock, terminal evidence at the end of each bar."""

from __future__ import annotations

from html import escape
from typing import Any

_COLOURS = {
    "COMPLETED": "#2e7d32", "FAILED": "#c62828", "BLOCKED": "#ef6c00", "TIMEOUT": "#6a1b9a", "CANCELLED": "#546e7a",
    "PAUSED": "#f9a825", "NEEDS_USER_INPUT": "#0277bd", "RUNNING": "#1565c0", "PROGRESS": "#90caf9", "QUEUED": "#bdbdbd",
}
_TERMINAL = {"COMPLETED", "FAILED", "BLOCKED", "TIMEOUT", "CANCELLED", "NEEDS_USER_INPUT"}


def step_spans(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Per step: first RUNNING, last terminal event, its name and evidence (seconds from the first event)."""
    if not events:
        return []
    t0 = min(float(e["observed_at"]) for e in events)
    spans: dict[str, dict[str, Any]] = {}
    for e in events:
        s = spans.setdefault(e["step_id"], {"step_id": e["step_id"], "task_method": e.get("task_method"), "start": None,
                                              "end": None, "outcome": "QUEUED", "evidence": None, "marks": []})
        t = float(e["observed_at"]) - t0
        s["marks"].append((t, e["event_name"]))
        if e["event_name"] == "RUNNING" and s["start"] is None:
            s["start"] = t
        if e["event_name"] in _TERMINAL:
            s["end"], s["outcome"], s["evidence"] = t, e["event_name"], e.get("terminal_evidence")
    for s in spans.values():
        s["start"] = s["start"] if s["start"] is not None else (s["marks"][0][0] if s["marks"] else 0.0)
        s["end"] = s["end"] if s["end"] is not None else max(t for t, _ in s["marks"])
    return list(spans.values())


def timeline_svg(events: list[dict[str, Any]], title: str = "", width: int = 900) -> str:
    """An SVG Gantt of a workflow's steps; Hangul renders with a CJK font (NanumGothic)."""
    spans = step_spans(events)
    lane, left, top, legend = 34, 190, 40, 250
    height = top + lane * max(1, len(spans)) + 40
    horizon = max([s["end"] for s in spans] + [1.0])
    right = width - legend
    scale = (right - left) / horizon
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
             f'font-family="NanumGothic, Noto Sans CJK KR, sans-serif" font-size="12">',
             f'<text x="10" y="22" font-size="14" font-weight="bold">{escape(title)}</text>']
    for i, s in enumerate(spans):
        y = top + i * lane
        colour = _COLOURS.get(s["outcome"], "#757575")
        x0, x1 = left + s["start"] * scale, left + max(s["end"] * scale, s["start"] * scale + 3)
        parts.append(f'<text x="10" y="{y + 17}">{escape(s["step_id"])} {escape(str(s["task_method"] or ""))}</text>')
        parts.append(f'<rect x="{x0:.1f}" y="{y + 5}" width="{x1 - x0:.1f}" height="18" fill="{colour}" opacity="0.85"/>')
        for t, name in s["marks"]:
            parts.append(f'<circle cx="{left + t * scale:.1f}" cy="{y + 14}" r="3" fill="{_COLOURS.get(name, "#000")}" '
                         f'stroke="white"><title>{escape(name)} @ {t:.0f}s</title></circle>')
        label = f'{s["outcome"]}' + (f' · {s["evidence"]}' if s["evidence"] else "")
        parts.append(f'<text x="{right + 12}" y="{y + 17}" fill="{colour}">{escape(label)}</text>')
    axis_y = top + lane * max(1, len(spans)) + 10
    parts.append(f'<line x1="{left}" y1="{axis_y}" x2="{right}" y2="{axis_y}" stroke="#444"/>')
    for k in range(5):
        t = horizon * k / 4
        parts.append(f'<text x="{left + t * scale:.1f}" y="{axis_y + 16}" text-anchor="middle">{t:.0f}s</text>')
    parts.append("</svg>")
    return "".join(parts)
