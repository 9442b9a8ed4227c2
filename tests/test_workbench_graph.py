"""Stage-graph views: the whole DAG with variants, and one turn's trace."""


from typer.testing import CliRunner

from dataflow.cli.main import app
from dataflow.driver import DriverConfig
from dataflow.workbench.graph_views import FONT, config_variants, render, stage_graph, summarize, trace_graph, trace_turn
from registry.contracts import DeviceContext, TurnInput, VoiceContext


def test_variants_follow_the_config():
    inline = {v.function: v for v in config_variants(DriverConfig())}
    assert inline["ranked_flows__inline"].chosen and not inline["ranked_flows__separate"].chosen
    assert "inline_unified_router=False" in inline["ranked_flows__separate"].condition
    separate = {v.function: v.chosen for v in config_variants(DriverConfig(inline_unified_router=False))}
    assert separate["ranked_flows__separate"] and not separate["ranked_flows__inline"]


def test_stage_graph_shows_types_variants_and_font():
    source = stage_graph(DriverConfig()).source
    assert f'fontname={FONT}' in source
    assert "variant ranked_flows__inline [inline_unified_router=True" in source
    assert "not built: ranked_flows__separate [inline_unified_router=False" in source
    assert "doubleoctagon" in source and "ellipse" in source and "legend" in source
    assert "decision_record" in source and "planner_output" in source


def test_trace_highlights_what_ran_with_output_summaries(tmp_path):
    trace = trace_turn(TurnInput(recognized_text="거실로 가서 공기 상태 확인하고 필요하면 청정해줘", device_context=DeviceContext(position="안방")))
    assert trace.record.family == "ODL"
    assert {"normalized_text", "planner_output", "second_pass_verdict", "decision_record"} <= set(trace.outputs)
    assert summarize("second_pass_verdict", trace.outputs["second_pass_verdict"]) == ("closed (not needed)", False)
    assert summarize("planner_output", trace.outputs["planner_output"])[0].startswith("ODL multi_step")
    source = trace_graph(trace).source
    assert "청정해줘" in source, "the normalized text is shown in Hangul"
    assert "dashed" in source and "#b7e1a1" in source, "ran nodes and pass-through nodes look different"
    png = render(trace_graph(trace), tmp_path / "t.png")
    assert png.read_bytes()[:4] == b"\x89PNG"


def test_trace_of_a_schedule_slot_answer_shows_the_short_circuit():
    voice = VoiceContext(slot_state={"owner_route": "SCH", "missing_slots": ["start_time"], "skill": "schedule_device_task_create",
                                     "function": "stationary_purify"})
    trace = trace_turn(TurnInput(recognized_text="매일 오후 6시", voice_context=voice))
    summary, active = summarize("schedule_short_circuit", trace.outputs["schedule_short_circuit"])
    assert active and summary.startswith("active")
    assert trace.record.family == "SCH"


def test_cli_graph_and_trace(tmp_path):
    runner = CliRunner()
    result = runner.invoke(app, ["graph", "--out", str(tmp_path / "g.svg"), "--config", "inline_unified_router=false"])
    assert result.exit_code == 0, result.output
    svg = (tmp_path / "g.svg").read_text(encoding="utf-8")
    assert "<svg" in svg and "ranked_flows__separate" in svg
    result = runner.invoke(app, ["trace", "고마워", "--out", str(tmp_path / "t.svg")])
    assert result.exit_code == 0, result.output
    assert "고마워" in (tmp_path / "t.svg").read_text(encoding="utf-8")
    result = runner.invoke(app, ["trace", "고마워", "--out", str(tmp_path / "t.gif")])
    assert result.exit_code == 2 and ".png, .svg or .dot" in result.output
    result = runner.invoke(app, ["graph", "--config", "planner_backend=nope"])
    assert result.exit_code == 2 and "planner_backend" in result.output
