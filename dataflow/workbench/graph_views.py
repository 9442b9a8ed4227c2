"""Stage-graph views: the whole DAG for a config, and one turn's execution.

`stage_graph(config)` draws every stage on the turn's path with its type (input, stage,
config variant, side effect, final record), the module (pipeline step) it belongs to, and the
config's variants: the function each `@config.when` node resolved to and the ones it did not.
`trace_graph(trace)` draws one executed turn: the nodes that ran, each with a one-line summary
of its output and its time; pass-through nodes (a closed second pass, an inactive
short-circuit, an unchanged correction) are drawn lighter.

Text is set in a Nanum font so Hangul renders (scripts/setup.sh installs fonts-nanum).
"""

from __future__ import annotations

import html
import inspect
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from dataflow.driver import FINAL_NODE, STAGE_MODULES, DriverConfig, StageTimer, build_driver, shared_kiwi
from dataflow.views import pipeline_nodes as _pipeline_nodes
from registry.contracts import TurnInput
from registry.record_contracts import DecisionRecord
from registry.errors import GraphError
from registry.loader import Registry, load_registry

FONT = "NanumGothic"
FORMATS = ("png", "svg", "dot")
CONTEXT_INPUTS = ("registry",)
"""Inputs nearly every stage reads; drawn once without their edges."""
_PALETTE = ("#dbe9f6", "#e3f1df", "#fbe8d3", "#efe2f3", "#fdf3c4", "#dcefee", "#f6dde0", "#e8e8e8", "#e2e7f9", "#f0ead6", "#dff3e8", "#f9e2f0")
_INPUT_FILL, _RAN, _PASS, _IDLE = "#ffffff", "#b7e1a1", "#eef6e9", "#f4f4f4"


@dataclass(frozen=True)
class Variant:
    """One `@config.when` alternative of a node."""

    node: str
    function: str
    condition: str
    chosen: bool


def config_variants(config: DriverConfig) -> list[Variant]:
    """Every config-switched function of the stage modules, whether this config chose it, and when it applies."""
    all_configs = [c.model_dump() for c in DriverConfig.all_valid()]
    current = config.model_dump()
    out = []
    for module in STAGE_MODULES:
        for name, fn in inspect.getmembers(module, inspect.isfunction):
            resolvers = getattr(fn, "resolve", None)
            if fn.__module__ != module.__name__ or not resolvers:
                continue

            def picks(cfg: dict[str, Any], resolvers=resolvers) -> bool:
                return all(r.does_resolve(cfg) for r in resolvers if hasattr(r, "does_resolve"))

            matching = [c for c in all_configs if picks(c)]
            keys = list(dict.fromkeys(k for r in resolvers for k in (getattr(r, "_config_used", None) or [])))
            terms = []
            for k in keys:
                values = sorted({str(c[k]) for c in matching if k in c})
                domain = {str(c[k]) for c in all_configs if k in c}
                if len(values) == 1:
                    terms.append(f"{k}={values[0]}")
                elif values and set(values) != domain:
                    terms.append(f"{k} in {{{', '.join(values)}}}")
            condition = ", ".join(terms) or ("never" if not matching else "always")
            node = getattr(fn, "__original_name__", name).rsplit("__", 1)[0] if "__" in name else name
            out.append(Variant(node=node, function=name, condition=condition, chosen=picks(current)))
    return out


def _type_name(tp: Any) -> str:
    name = getattr(tp, "__name__", None) or str(tp).replace("typing.", "")
    return name if len(name) <= 40 else name[:38] + "…"


def _module_label(module_name: str) -> str:
    module = next((m for m in STAGE_MODULES if m.__name__ == module_name), None)
    doc = (module.__doc__ or "").strip().splitlines()[0] if module and module.__doc__ else ""
    step = doc.split(":", 1)[0] if ":" in doc[:20] else ""
    return f"{module_name.rsplit('.', 1)[-1]}" + (f" ({step.lower()})" if step else "")


def _digraph(title: str):
    try:
        import graphviz
    except ImportError:
        raise GraphError("drawing needs the graphviz Python package") from None
    g = graphviz.Digraph("stages", comment=title)
    g.attr(rankdir="LR", dpi="110", fontname=FONT, labelloc="t", label=title, fontsize="16", compound="true", nodesep="0.25", ranksep="0.35")
    g.attr("node", fontname=FONT, fontsize="11", shape="box", style="rounded,filled", margin="0.12,0.05")
    g.attr("edge", fontname=FONT, fontsize="9", color="#777777", arrowsize="0.6")
    return g


def _label(title: str, *lines: str, italic: str | None = None) -> str:
    body = f"<b>{html.escape(title)}</b>"
    if italic:
        body += f'<br/><font point-size="9" color="#555555"><i>{html.escape(italic)}</i></font>'
    for line in lines:
        if line:
            body += f'<br/><font point-size="10">{html.escape(line)}</font>'
    return f"<{body}>"


def _add_nodes(g, nodes: dict[str, Any], variants: dict[str, Variant], styles: dict[str, dict[str, str]],
               labels: dict[str, str]) -> None:
    """Stage nodes clustered by module (one pipeline step per module), inputs on their own."""
    modules: dict[str, list[str]] = {}
    for name, n in nodes.items():
        if n.is_external_input:
            readers = sum(1 for m in nodes.values() if name in m.required_dependencies | m.optional_dependencies)
            label = labels[name]
            if name in CONTEXT_INPUTS:  # read nearly everywhere: edges would only hide the flow
                label = label[:-1] + f'<br/><font point-size="9">read by {readers} stages (edges not drawn)</font>>'
            g.node(name, label, shape="ellipse", fillcolor=_INPUT_FILL, color="#555555", **styles.get(name, {}))
        else:
            modules.setdefault(n.tags.get("module", "?"), []).append(name)
    order = [m.__name__ for m in STAGE_MODULES]
    for i, module in enumerate(sorted(modules, key=lambda m: order.index(m) if m in order else 99)):
        with g.subgraph(name=f"cluster_{i}") as sub:
            sub.attr(label=_module_label(module), style="rounded,dashed", color="#bbbbbb", fontsize="10", fontcolor="#555555", labeljust="l")
            for name in modules[module]:
                style = {"fillcolor": _PALETTE[i % len(_PALETTE)], "color": "#666666"}
                if name in variants:
                    style.update(penwidth="2", color="#7b4fa0")
                if nodes[name].tags.get("side_effect") == "true":
                    style.update(shape="box3d")
                if name == FINAL_NODE:
                    style.update(shape="doubleoctagon", penwidth="2")
                style.update(styles.get(name, {}))
                sub.node(name, labels[name], **style)
    for name, n in nodes.items():
        for dep in sorted(n.required_dependencies | n.optional_dependencies):
            if dep in nodes and dep not in CONTEXT_INPUTS:
                g.edge(dep, name, **styles.get(f"{dep}->{name}", {}))


def _legend(g, items: list[tuple[str, dict[str, str]]], note: str = "") -> None:
    with g.subgraph(name="cluster_legend") as lg:
        lg.attr(label="legend", fontsize="11", style="rounded", color="#999999")
        prev = None
        for i, (text, style) in enumerate(items):
            key = f"legend_{i}"
            lg.node(key, text, fontsize="9", **{"style": "rounded,filled", **style})
            if prev:
                lg.edge(prev, key, style="invis")
            prev = key
        if note:
            lg.node("legend_note", note, shape="note", fontsize="9", style="filled", fillcolor="#ffffff")
            if prev:
                lg.edge(prev, "legend_note", style="invis")


def stage_graph(config: DriverConfig | None = None):
    """The whole stage DAG for a config, as a graphviz.Digraph."""
    config = config or DriverConfig()
    dr = build_driver(config)
    nodes = _pipeline_nodes(dr)
    all_names = {v.name for v in dr.list_available_variables() if not v.is_external_input}
    off_path = sorted(all_names - set(nodes))
    variants = {v.node: v for v in config_variants(config) if v.chosen}
    others = [v for v in config_variants(config) if not v.chosen]
    labels = {}
    for name, n in nodes.items():
        if n.is_external_input:
            labels[name] = _label(name, italic=_type_name(n.type))
            continue
        doc = (n.documentation or "").strip().splitlines()[0] if n.documentation else ""
        extra = f"variant {variants[name].function} [{variants[name].condition}]" if name in variants else ""
        labels[name] = _label(name, extra, doc[:60] + ("…" if len(doc) > 60 else ""), italic="→ " + _type_name(n.type))
    settings = ", ".join(f"{k}={v}" for k, v in config.model_dump().items())
    g = _digraph(f"a2a stage graph  ({settings})")
    _add_nodes(g, nodes, variants, {}, labels)
    cfg_lines = [f"{k} = {v}" for k, v in config.model_dump().items()]
    cfg_lines += [f"not built: {v.function} [{v.condition}]" for v in others]
    g.node("driver_config", _label("DriverConfig", *cfg_lines), shape="note", fillcolor="#fffbe6", color="#b59f3b")
    for name, v in variants.items():
        if name in nodes:
            g.edge("driver_config", name, style="dashed", color="#7b4fa0", label=v.condition, fontcolor="#7b4fa0")
    note = f"{len(off_path)} helper node(s) off the turn's path not drawn: {', '.join(off_path)}" if off_path else ""
    _legend(g, [
        ("input (passed in at the edge)", {"shape": "ellipse", "fillcolor": _INPUT_FILL}),
        ("stage (colour = pipeline step)", {"fillcolor": _PALETTE[0]}),
        ("config variant (@config.when)", {"fillcolor": _PALETTE[3], "penwidth": "2", "color": "#7b4fa0"}),
        ("side effect", {"shape": "box3d", "fillcolor": _PALETTE[2]}),
        ("final decision record", {"shape": "doubleoctagon", "fillcolor": _PALETTE[4]}),
    ], note)
    return g


# --- one turn's execution ----------------------------------------------------------------


class _Recorder(StageTimer):
    """The stage timer that also keeps every node's output for the trace."""

    def __init__(self) -> None:
        super().__init__()
        self.outputs: dict[str, Any] = {}

    def run_after_node_execution(self, *, node_name: str, **kwargs: Any) -> None:
        super().run_after_node_execution(node_name=node_name, **kwargs)
        self.outputs[node_name] = kwargs.get("result")


@dataclass
class TurnTrace:
    """One executed turn: every node's output and time, and the decision record."""

    turn: TurnInput
    config: DriverConfig
    outputs: dict[str, Any]
    stage_ms: dict[str, float]
    record: DecisionRecord


def trace_turn(turn: TurnInput, config: DriverConfig | None = None, registry: Registry | None = None) -> TurnTrace:
    """Run one turn through the DAG and keep what each node produced."""
    config = config or DriverConfig()
    recorder = _Recorder()
    dr = build_driver(config, recorder)
    result = dr.execute([FINAL_NODE], inputs={"turn_input": turn, "kiwi": shared_kiwi(), "registry": registry or load_registry(),
                                              "trace_id": uuid.uuid4().hex})
    return TurnTrace(turn=turn, config=config, outputs=dict(recorder.outputs), stage_ms=dict(recorder.stage_ms), record=result[FINAL_NODE])


def _short(text: str, n: int = 46) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= n else text[: n - 1] + "…"


def summarize(name: str, value: Any) -> tuple[str, bool]:
    """(one-line summary of a node's output, whether the node changed anything this turn)."""
    kind = type(value).__name__
    if kind == "NormalizedText":
        return _short(f"“{value.text}” · {len(value.morphemes)} morphemes" + (f" · rejected {value.rejected_reason}" if value.rejected_reason else "")), True
    if kind == "HistoryEvidence":
        if value.active_schedule_workflow:
            return f"open schedule workflow, missing {', '.join(value.missing_slots) or '-'}", True
        return (f"continues {value.continuation_route}" if value.continuation_route else "no history"), bool(value.continuation_route)
    if kind == "PreclassifierHints":
        top = sorted(value.axes.items(), key=lambda kv: -kv[1].strength)[:3]
        return _short(" · ".join(f"{k.replace('has_', '')} {a.strength:.2f}" for k, a in top) or "no axis lit", 60), True
    if kind == "AllowedRouteFamilies":
        return "allowed " + ", ".join(value.families), True
    if kind == "FlowCatalog":
        return f"{len(value.flows)} flows on the menu", True
    if kind == "RankedFlows":
        top = value.top_flows[0] if value.top_flows else None
        return (f"top {top.flow_id} ({top.confidence:.2f})" if top else "no flow"), True
    if kind == "ReplyObjectMeta":
        return f"{value.object_type} ({value.confidence:.2f})", True
    if kind == "ReplyabilityMeta":
        return f"{value.replyability_type} ({value.confidence:.2f})", True
    if kind == "CandidatePool":
        return f"{len(value.flow_ids)} flows from {value.source}", True
    if kind == "FamilyScores":
        order = sorted(value.scores, key=lambda f: -value.scores[f])[:3]
        return " > ".join(f"{f} {value.scores[f]:.2f}" for f in order), True
    if kind == "ScheduleShortCircuit":
        return (f"active: {value.reason}" if value.active else f"inactive ({value.reason})"), value.active
    if kind == "PlannerOutput":
        extra = f" · runner-up {value.runner_up_family}" if value.runner_up_family else ""
        return f"{value.selected_routes[0]} {value.turn_mode} · {len(value.steps)} step(s){extra}", True
    if kind == "SecondPassVerdict":
        return (f"{'/'.join(value.pair or ())} → {value.winner}" if value.ran else "closed (not needed)"), value.ran
    if kind == "PlanCheckReport":
        return ("ok" if value.ok else f"{len(value.violations)} violation(s), fail closed"), not value.ok
    if kind == "DecisionRecord":
        return f"{value.family} · {value.selected_flow_id}", True
    if isinstance(value, list):
        roles = [getattr(v, "role", None) for v in value]
        if roles and all(roles):
            return f"{len(value)} clause(s): {', '.join(roles)}", True
        return f"{len(value)} item(s)", True
    if isinstance(value, BaseModel):
        fields = [f"{k}={v}" for k, v in value.model_dump().items() if isinstance(v, (str, int, float, bool)) and v not in ("", None)][:2]
        return _short(f"{kind} " + " ".join(fields), 50), True
    return _short(f"{kind}: {value!r}", 40), True


def trace_graph(trace: TurnTrace):
    """One executed turn as a graphviz.Digraph: ran nodes highlighted, each with its output summary."""
    dr = build_driver(trace.config)
    nodes = _pipeline_nodes(dr)
    variants = {v.node: v for v in config_variants(trace.config) if v.chosen}
    labels, styles = {}, {}
    planner_out = trace.outputs.get("planner_output")
    for name, n in nodes.items():
        if n.is_external_input:
            labels[name] = _label(name, italic=_type_name(n.type))
            continue
        if name not in trace.outputs:
            labels[name] = _label(name, "did not run")
            styles[name] = {"fillcolor": _IDLE, "color": "#bbbbbb", "fontcolor": "#999999"}
            continue
        summary, active = summarize(name, trace.outputs[name])
        if name == "corrected_plan" and planner_out is not None:
            active = trace.outputs[name] != planner_out
            summary = summary if active else "unchanged (no correction)"
        ms = trace.stage_ms.get(name)
        labels[name] = _label(name, summary, f"{ms:.3f} ms" if ms is not None else "",
                              italic=f"variant {variants[name].function}" if name in variants else None)
        styles[name] = ({"fillcolor": _RAN, "color": "#2e7d32", "penwidth": "1.6"} if active
                        else {"fillcolor": _PASS, "color": "#9bbf8a", "style": "rounded,filled,dashed"})
    for name, n in nodes.items():
        for dep in n.required_dependencies | n.optional_dependencies:
            if dep in trace.outputs and name in trace.outputs:
                styles[f"{dep}->{name}"] = {"color": "#2e7d32"}
    rec = trace.record
    title = f"turn trace: “{_short(trace.turn.recognized_text, 60)}” → {rec.family} ({rec.selected_flow_id})  ·  {sum(trace.stage_ms.values()):.2f} ms in stages"
    g = _digraph(title)
    _add_nodes(g, nodes, variants, styles, labels)
    _legend(g, [
        ("ran and decided something", {"fillcolor": _RAN, "color": "#2e7d32"}),
        ("ran, passed through (closed / inactive / unchanged)", {"fillcolor": _PASS, "style": "rounded,filled,dashed"}),
        ("did not run", {"fillcolor": _IDLE, "fontcolor": "#999999"}),
        ("input", {"shape": "ellipse", "fillcolor": _INPUT_FILL}),
    ])
    return g


def render(g, out: Path) -> Path:
    """Write a graph as .png, .svg or .dot (by the file name)."""
    out = Path(out)
    suffix = out.suffix.lstrip(".").lower()
    if suffix not in FORMATS:
        raise GraphError(f"{out}: use a .png, .svg or .dot file name")
    out.parent.mkdir(parents=True, exist_ok=True)
    if suffix == "dot":
        out.write_text(g.source, encoding="utf-8")
        return out
    try:
        out.write_bytes(g.pipe(format=suffix))
    except Exception as exc:  # graphviz.ExecutableNotFound and rendering errors
        raise GraphError(f"graphviz could not draw {out.name}: {exc} (is Debian's graphviz installed? scripts/setup.sh)") from None
    return out
