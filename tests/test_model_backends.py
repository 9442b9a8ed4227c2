"""Model backends through the real google-genai client against a fake Gemini server on 127.0.0.1.

Covers what reaches the model (schema, system prompt file, evidence packet, catalog, ranked
flows), parsed answers flowing into the decision, 429 then success, timeouts, malformed JSON,
invented agents/skills/capabilities (one repair, then fail-closed), the hybrid gate, the
optional model stages, accounting, record/replay and the run comparison.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from dataflow.workbench.batch import run_batch

from dataflow.rows import read_set, turn_from_row
from dataflow.cli.main import app
from dataflow.driver import DriverConfig, TurnRunner
from dataflow.model_client import RecordingClient, ReplayClient, client_from_env
from dataflow.workbench.run_compare import compare_runs
from registry.plan_contracts import PlannerOutput
from registry.errors import CassetteMiss, ConfigError
from registry.model_contracts import ModelPlannerOutput
from registry.model_policy import load_model_policy
from tests.fake_gemini import Action, FakeGemini, planner_answer, planner_override_responder, valid_responder
from tests.conftest import actions

ROOT = Path(__file__).resolve().parents[1]
CORE = ROOT / "data/utterances/core.jsonl"


def fast_policy(**transport):
    """The embedded policy with test-sized backoff (and any transport override)."""
    policy = load_model_policy()
    values = {"initial_delay_s": 0.01, "max_delay_s": 0.02, **transport}
    return policy.model_copy(update={"transport": policy.transport.model_copy(update=values)})


@pytest.fixture
def fake():
    server = FakeGemini()
    yield server
    server.close()


def gemini(fake: FakeGemini, registry, config: DriverConfig | None = None, **transport) -> TurnRunner:
    client = client_from_env(env={"GEMINI_API_KEY": "test-key", "A2A_GEMINI_BASE_URL": fake.base_url}, policy=fast_policy(**transport))
    return TurnRunner(config or DriverConfig(planner_backend="gemini"), registry, model_client=client)


def planner_calls(fake: FakeGemini) -> list[dict]:
    """Planner requests, repairs included (a repair repeats the first message)."""
    return [p for p in fake.packets() if p["task"] == "main_planner"]


# --- what reaches the model ---------------------------------------------------------------


def test_request_carries_schema_system_prompt_and_evidence(fake, registry):
    rec, nodes = gemini(fake, registry).route_with(turn_from_row({"text": "거실로 가서 청정해줘"}), ("candidate_pool", "ranked_flows"))
    assert len(fake.requests) == 1
    req = fake.requests[0]
    assert req["path"].endswith("/models/gemini-2.5-flash:generateContent") and req["api_key"] == "test-key"
    body = req["body"]
    prompt_file = (ROOT / "registry/prompts/main_planner.system.txt").read_text(encoding="utf-8").strip()
    assert body["systemInstruction"]["parts"][0]["text"] == prompt_file
    config = body["generationConfig"]
    assert config["responseMimeType"] == "application/json"
    schema = config["responseSchema"]
    assert schema["type"] == "OBJECT" and {"selected_flow_id", "steps", "family_confidence", "tts_response"} <= set(schema["properties"])
    step = schema["properties"]["steps"]["items"]["properties"]
    assert "token_text" not in step and "device_task" not in step  # the planner may not write device tokens
    packet = fake.packets()[0]
    assert packet["utterance"] == "거실로 가서 청정해줘"
    assert packet["evidence"]["axes"]["has_execution_capability_anchor"] > 0
    assert any(a.startswith("execution:move_to_room=") for a in packet["evidence"]["anchors"])
    assert [f["id"] for f in packet["catalog"]] == nodes["candidate_pool"].flow_ids  # the filtered menu, nothing else
    assert [f for f, _ in packet["ranked_flows"]] == [f.flow_id for f in nodes["ranked_flows"].top_flows][:5]
    assert set(packet["capabilities"]) >= {"move_to_room", "selected_room_clean"}
    assert rec.evidence.planner.decided_by == "model"


def test_parsed_answer_flows_into_the_decision(fake, registry):
    def respond(packet):
        if packet["task"] != "main_planner":
            return valid_responder(packet)
        step = {"id": "step_1", "route": "ODL", "purpose": "move", "output_key": "moved", "execution_target": "device",
                "wait_policy": "completed", "capability_id": "move_to_room", "operation_id": "start",
                "arguments": [{"name": "room_name", "value": "안방"}]}
        guarded = {"id": "step_2", "route": "ODL", "purpose": "clean", "output_key": "cleaned", "execution_target": "device",
                   "wait_policy": "event", "capability_id": "selected_room_clean", "operation_id": "start", "depends_on": ["step_1"],
                   "condition": {"kind": "state", "path": "device.battery_percent", "operator": "ge", "values": ["30"]}}
        return planner_answer(packet, selected_flow_id="ODL.ODL.multi_step_device_workflow", selected_skill="multi_step_device_workflow",
                              selected_agent="ODL", selected_routes=["ODL"], turn_mode="multi_step", steps=[step, guarded],
                              tts_response="안방으로 가서 청정할게요.")

    fake.responder = respond
    rec = gemini(fake, registry).route_text("안방으로 가서 청정해줘")
    # the heuristic plans no guard: the battery guard can only come from the model
    assert actions(rec) == [("move_to_room", "start", {"room_name": "안방"}, False), ("selected_room_clean", "start", {}, True)]
    assert rec.steps[1].condition.path == "device.battery_percent" and rec.steps[1].condition.value == 30
    assert rec.selected_skill == "multi_step_device_workflow" and rec.tts_response == "안방으로 가서 청정할게요."
    assert rec.evidence.planner.decided_by == "model" and rec.evidence.planner.local_family == "ODL"
    assert rec.usage.model_calls == 1 and set(rec.usage.model_ms) == {"main_planner"}
    assert rec.usage.prompt_tokens > 500 and rec.usage.output_tokens > 0


# --- transport failures ---------------------------------------------------------------------


def test_429_then_success_is_retried(fake, registry):
    fake.push(Action(status=429), Action(status=503))
    rec = gemini(fake, registry).route_text("고마워")
    assert len(fake.requests) == 3  # two retried failures, then the answer
    assert rec.evidence.planner.decided_by == "model" and rec.usage.model_calls == 1


def test_timeouts_are_retried_then_the_turn_fails_closed(fake, registry):
    fake.push(Action(delay_s=1.0), Action(delay_s=1.0))
    rec = gemini(fake, registry, timeout_ms=250, attempts=2).route_text("거실로 가서 청정해줘")
    assert len(fake.requests) == 2
    planner = rec.evidence.planner
    assert planner.decided_by == "fail_closed" and "timed out" in planner.reason
    assert rec.steps == [] and rec.family == "STT_NULL"
    assert rec.usage.model_calls == 1 and rec.usage.model_ms["main_planner"] >= 400


def test_hybrid_falls_back_to_the_local_plan_when_the_model_is_unavailable(fake, registry):
    fake.push(*[Action(status=500)] * 2)
    runner = gemini(fake, registry, DriverConfig(planner_backend="hybrid"), attempts=2)
    low = next(turn for turn in _core_turns() if _local_confidence(turn, registry) == "low")
    rec = runner.route(low)
    assert rec.evidence.planner.decided_by == "local_fallback" and "HTTP 500" in rec.evidence.planner.reason


def test_wrong_key_is_a_clear_error_not_a_fail_closed_turn(fake, registry):
    fake.push(Action(status=401))
    with pytest.raises(ConfigError, match="HTTP 401"):
        gemini(fake, registry).route_text("고마워")


# --- boundaries: one repair, then fail-closed ------------------------------------------------


def test_malformed_json_gets_one_repair_with_only_the_errors(fake, registry):
    fake.push(Action(text='{"turn_mode": "singleton", '))
    rec = gemini(fake, registry).route_text("고마워")
    assert len(fake.requests) == 2
    planner = rec.evidence.planner
    assert planner.decided_by == "model" and planner.model_attempts == 2
    assert planner.validation_errors[0].startswith("not valid JSON")
    repair = fake.requests[1]["body"]["contents"]
    assert [c["role"] for c in repair] == ["user", "model", "user"]
    assert repair[1]["parts"][0]["text"] == '{"turn_mode": "singleton", '
    message = repair[2]["parts"][0]["text"]
    assert "not valid JSON" in message and "catalog" not in message and "고마워" not in message
    assert rec.usage.model_calls == 2


def test_invented_agent_is_repaired_once_then_fails_closed(fake, registry):
    fake.responder = planner_override_responder(selected_agent="WEATHER_BOT")
    rec = gemini(fake, registry).route_text("오늘 날씨 어때")
    assert len(planner_calls(fake)) == len(fake.requests) == 2  # the answer and one repair
    assert len(fake.requests[1]["body"]["contents"]) == 3
    assert "unknown agent 'WEATHER_BOT'" in fake.requests[1]["body"]["contents"][2]["parts"][0]["text"]
    planner = rec.evidence.planner
    assert planner.decided_by == "fail_closed" and "unknown agent 'WEATHER_BOT'" in planner.reason
    assert rec.family == "STT_NULL" and rec.steps == [] and rec.tts_response == registry.lexicon["responses"]["fail_closed"]
    assert not rec.second_pass_ran  # a failed-closed plan is not judged back open


def test_invented_capability_fails_closed_with_no_action(fake, registry):
    def respond(packet):
        answer = planner_answer(packet)
        answer["steps"][0].update(capability_id="teleport", operation_id="start", execution_target="device", skill_id=None)
        return answer if packet["task"] == "main_planner" else valid_responder(packet)

    fake.responder = respond
    rec = gemini(fake, registry).route_text("거실로 가줘")
    assert len(fake.requests) == 2
    assert rec.evidence.planner.decided_by == "fail_closed"
    assert "unknown capability 'teleport'" in rec.evidence.planner.reason
    assert not any(s.action for s in rec.steps)


def test_a_repair_that_fixes_the_answer_is_used(fake, registry):
    calls = []

    def respond(packet):
        calls.append(packet)
        return planner_answer(packet, selected_skill="made_up") if len(calls) == 1 else valid_responder(packet)

    fake.responder = respond
    rec = gemini(fake, registry).route_text("고마워")
    assert rec.evidence.planner.decided_by == "model"
    assert any("unknown skill 'made_up'" in e for e in rec.evidence.planner.validation_errors)
    assert rec.family == "DEF"


def test_an_off_menu_flow_is_rejected(fake, registry):
    fake.responder = planner_override_responder(selected_flow_id="SCH.SCH.schedule_alarm_create", selected_routes=["SCH"],
                                                selected_agent="SCH", selected_skill="schedule_alarm_create", steps=[])
    rec = gemini(fake, registry).route_text("고마워")
    assert rec.evidence.planner.decided_by == "fail_closed"
    assert "not in its catalog" in rec.evidence.planner.reason and rec.family == "STT_NULL"


# --- hybrid ----------------------------------------------------------------------------------


def _core_turns():
    return [turn_from_row(row) for _, row, err in read_set(CORE) if row and not err]


def _local_confidence(turn, registry) -> str:
    runner = _HEURISTIC.setdefault("runner", TurnRunner(registry=registry))
    _, nodes = runner.route_with(turn, ("planner_output", "schedule_short_circuit"))
    return "shortcut" if nodes["schedule_short_circuit"].active else nodes["planner_output"].family_confidence


_HEURISTIC: dict = {}


def test_hybrid_calls_the_planner_model_only_for_low_confidence_turns(fake, registry):
    runner = gemini(fake, registry, DriverConfig(planner_backend="hybrid"))
    turns = _core_turns()
    called, low = [], []
    for turn in turns:
        rec = runner.route(turn)
        called.append("main_planner" in rec.usage.model_ms)
        low.append(_local_confidence(turn, registry) == "low")
        expected_paths = {"model"} if called[-1] else {"local", "schedule_short_circuit", "local_shortcut"}
        assert rec.evidence.planner.decided_by in expected_paths
    assert called == low
    assert 0 < sum(called) < len(turns) * 0.25
    assert len(planner_calls(fake)) == sum(called)
    assert len(fake.requests) == len(planner_calls(fake)) + sum(1 for p in fake.packets() if p["task"] == "second_pass_judge")


# --- the other model stages -------------------------------------------------------------------


def test_pairwise_judge_answers_inside_the_pair(fake, registry):
    def respond(packet):
        if packet["task"] == "second_pass_judge":
            return {"winner": packet["pair"][1], "reason": "fake prefers the other side"}
        return valid_responder(packet)

    fake.responder = respond
    rec = gemini(fake, registry, DriverConfig(planner_backend="hybrid")).route_text("겨울왕국")
    judge = [p for p in fake.packets() if p["task"] == "second_pass_judge"]
    assert len(judge) == 1 and rec.second_pass_ran
    verdict = rec.evidence.second_pass
    assert verdict.winner == judge[0]["pair"][1] and verdict.reason == ["model: fake prefers the other side"]
    assert rec.family == verdict.winner


def test_judge_answer_outside_the_pair_keeps_the_deterministic_verdict(fake, registry):
    fake.responder = lambda p: {"winner": "ODL", "reason": "x"} if p["task"] == "second_pass_judge" else valid_responder(p)
    rec = gemini(fake, registry, DriverConfig(planner_backend="hybrid")).route_text("겨울왕국")
    assert sum(1 for p in fake.packets() if p["task"] == "second_pass_judge") == 2  # answer + repair
    assert rec.evidence.second_pass.reason[-1].startswith("model judge fallback: model output invalid after one repair: winner")
    assert rec.family != "ODL"


def test_optional_model_stages_open_on_their_gates(fake, registry):
    config = DriverConfig(planner_backend="heuristic", object_typer_mode="llm", replyability_judge_mode="llm",
                          inline_unified_router=False, ranked_flow_selector="llm")

    def respond(packet):
        if packet["task"] == "object_typer":
            return {"object_type": "conversation", "confidence": "high", "reason": "small talk"}
        if packet["task"] == "ranked_flow_selector":
            return {"top_flows": [{"flow_id": packet["catalog"][-1]["id"], "confidence": "low", "rationale": "fake"}]}
        return valid_responder(packet)

    fake.responder = respond
    runner = gemini(fake, registry, config)
    rec = runner.route_text("음")
    tasks = [p["task"] for p in fake.packets()]
    assert "ranked_flow_selector" in tasks and "object_typer" in tasks
    assert rec.evidence.reply_object_meta.object_type == "conversation"
    assert rec.evidence.reply_object_meta.reason_signals == ["model: small talk"]
    fake.requests.clear()
    confident = runner.route_text("거실로 가줘")  # a strong device object: the typer's gate stays shut
    assert "object_typer" not in [p["task"] for p in fake.packets()]
    assert confident.evidence.reply_object_meta.object_type == "supported_device"


def test_ranked_flow_answer_outside_the_catalog_falls_back(fake, registry):
    fake.responder = lambda p: {"top_flows": [{"flow_id": "X.Y.z", "confidence": "high", "rationale": "?"}]} if p["task"] == "ranked_flow_selector" else valid_responder(p)
    config = DriverConfig(inline_unified_router=False, ranked_flow_selector="llm")
    runner = gemini(fake, registry, config)
    _, nodes = runner.route_with(_core_turns()[0], ("ranked_flows",))
    assert len(fake.requests) == 2
    assert all("model selector fallback" in f.rationale for f in nodes["ranked_flows"].top_flows)


# --- schema variant ---------------------------------------------------------------------------


def test_model_facing_schema_exists_because_genai_cannot_convert_the_contract():
    from google import genai
    from google.genai import _transformers, types

    client = genai.Client(api_key="k", http_options=types.HttpOptions(base_url="http://127.0.0.1:9"))
    with pytest.raises(ValueError, match="additionalProperties"):
        _transformers.t_schema(client._api_client, PlannerOutput)
    schema = _transformers.t_schema(client._api_client, ModelPlannerOutput)
    assert schema.properties["steps"].items.properties["condition"].properties["kind"].enum == ["state", "step_output"]


# --- record / replay, metrics, compare ------------------------------------------------------------


def _subset(tmp_path: Path, n: int = 40) -> Path:
    """The first n core rows plus the hybrid's low-confidence rows, so the model is really called."""
    rows = [json.loads(line) for line in CORE.read_text(encoding="utf-8").splitlines() if line.strip()]
    path = tmp_path / "subset.jsonl"
    path.write_text("\n".join(json.dumps(r, ensure_ascii=False) for r in rows[:n]) + "\n{broken\n", encoding="utf-8")
    return path


def _volatile_free(run_dir: Path) -> list[str]:
    """decisions.jsonl with what a clock or a uuid decides blanked: trace_id and the ids derived
    from it (experience_id = exp-{trace_id[:12]}), usage.stage_ms and usage.total_ms."""
    out = []
    for line in (run_dir / "decisions.jsonl").read_text(encoding="utf-8").splitlines():
        trace_id = json.loads(line)["trace_id"]
        rec = json.loads(line.replace(trace_id[:12], "<trace>"))
        rec["trace_id"] = ""
        rec["usage"]["stage_ms"] = {}
        rec["usage"]["total_ms"] = 0.0
        out.append(json.dumps(rec, ensure_ascii=False))
    return out


def test_replay_reproduces_a_recorded_batch(fake, registry, tmp_path, monkeypatch):
    responses = {"n": 0}

    def respond(packet):  # every third planner answer invents a skill first: repairs are recorded too
        if packet["task"] == "main_planner":
            responses["n"] += 1
            if responses["n"] % 3 == 0:
                return planner_answer(packet, selected_skill="made_up")
        return valid_responder(packet)

    fake.responder = respond
    set_path = _subset(tmp_path)
    cassette = tmp_path / "calls.cassette.jsonl"
    monkeypatch.setenv("GEMINI_API_KEY", "test-key")
    monkeypatch.setenv("A2A_GEMINI_BASE_URL", fake.base_url)
    cli = CliRunner()
    first = cli.invoke(app, ["batch", str(set_path), "--backend", "gemini", "--record", str(cassette), "--out", str(tmp_path / "a")])
    assert first.exit_code == 0, first.output
    recorded = len(fake.requests)
    fake.close()  # replay must not need the server
    monkeypatch.delenv("GEMINI_API_KEY")
    second = cli.invoke(app, ["batch", str(set_path), "--backend", "replay", "--cassette", str(cassette), "--out", str(tmp_path / "b")])
    assert second.exit_code == 0, second.output
    a, b = _volatile_free(tmp_path / "a"), _volatile_free(tmp_path / "b")
    assert a == b and len(a) == 41
    lines = cassette.read_text(encoding="utf-8").splitlines()
    assert json.loads(lines[0])["driver_config"]["planner_backend"] == "gemini" and len(lines) == recorded + 1
    assert any(json.loads(line).get("repair") for line in lines[1:])
    metrics_a = json.loads((tmp_path / "a/metrics.json").read_text())["model_usage"]
    metrics_b = json.loads((tmp_path / "b/metrics.json").read_text())["model_usage"]
    assert metrics_a == metrics_b and metrics_a["model_calls"] == recorded


def test_replay_miss_names_the_stage_and_the_utterance(fake, registry, tmp_path):
    cassette = tmp_path / "one.jsonl"
    client = client_from_env(env={"GEMINI_API_KEY": "k", "A2A_GEMINI_BASE_URL": fake.base_url}, policy=fast_policy())
    recorder = RecordingClient(client, cassette, client.model, DriverConfig(planner_backend="gemini").model_dump())
    TurnRunner(DriverConfig(planner_backend="gemini"), registry, model_client=recorder).route_text("고마워")
    replay = TurnRunner(DriverConfig(planner_backend="gemini"), registry, model_client=ReplayClient.open(cassette))
    assert replay.route_text("고마워").family == "DEF"
    with pytest.raises(CassetteMiss, match=r"main_planner .*'안녕'"):
        replay.route_text("안녕")


def test_batch_metrics_and_compare(fake, registry, tmp_path):
    set_path = _subset(tmp_path, 30)
    run_batch(TurnRunner(registry=registry), set_path, tmp_path / "heuristic")
    fake.responder = planner_override_responder(selected_skill="made_up")  # every model turn fails closed
    metrics = run_batch(gemini(fake, registry), set_path, tmp_path / "gemini")
    usage = metrics["model_usage"]
    assert usage["turns"] == 30 and usage["model_calls"] == len(fake.requests)
    assert usage["calls_per_turn"] == round(usage["model_calls"] / 30, 4)
    assert usage["prompt_tokens_per_call"] > 0 and usage["model_latency_ms"]["p95"] >= usage["model_latency_ms"]["p50"] > 0
    assert usage["fail_closed"] == usage["decided_by"]["fail_closed"] > 0
    result = compare_runs(tmp_path / "heuristic", tmp_path / "gemini")
    assert result["turns"] == 31 and result["change_pct"]["calls_per_turn"] is None  # A made no calls
    assert result["b"]["calls_per_turn"] == pytest.approx(usage["model_calls"] / 31, abs=1e-3)
    closed = {json.loads(line)["id"] for line in (tmp_path / "gemini/decisions.jsonl").read_text(encoding="utf-8").splitlines()
              if (json.loads(line)["evidence"].get("planner") or {}).get("decided_by") == "fail_closed"}
    expected = {r["id"]: r["expect"]["family"] for _, r, _ in read_set(set_path) if r and "family" in r.get("expect", {})}
    heuristic = {json.loads(line)["id"]: json.loads(line)["family"] for line in (tmp_path / "heuristic/decisions.jsonl").read_text(encoding="utf-8").splitlines()}
    already_wrong = {i for i in closed if heuristic[i] != expected.get(i, heuristic[i])}
    assert {f["id"] for f in result["new_failures"]} == closed - already_wrong and not result["recoveries"]
    assert all(f["why"] == "fail_closed" for f in result["new_failures"])
    assert {f["b"] for f in result["family_flips"]} <= {"STT_NULL", "DEF", "FRG"}
    back = compare_runs(tmp_path / "gemini", tmp_path / "heuristic")
    assert back["change_pct"]["calls_per_turn"] == -100.0 and {f["id"] for f in back["recoveries"]} == closed - already_wrong
    out = CliRunner().invoke(app, ["compare", str(tmp_path / "heuristic"), str(tmp_path / "gemini")])
    assert out.exit_code == 0, out.output
    assert "model calls" in out.output and f"new failures: {len(closed - already_wrong)}" in out.output
    as_json = CliRunner().invoke(app, ["compare", str(tmp_path / "heuristic"), str(tmp_path / "gemini"), "--json"])
    assert json.loads(as_json.output)["turns"] == 31
    missing = CliRunner().invoke(app, ["compare", str(tmp_path / "heuristic"), str(tmp_path / "nowhere")])
    assert missing.exit_code == 2 and "nowhere" in missing.output and "Traceback" not in missing.output


# --- configuration errors ----------------------------------------------------------------------


def test_missing_key_is_a_clear_error():
    with pytest.raises(ConfigError, match="GEMINI_API_KEY or GOOGLE_API_KEY"):
        client_from_env(env={})
    assert client_from_env(env={"GOOGLE_API_KEY": "k"}).model == load_model_policy().default_model
    env = {k: v for k, v in os.environ.items() if k not in ("GEMINI_API_KEY", "GOOGLE_API_KEY")}
    proc = subprocess.run([sys.executable, "-m", "dataflow.cli", "route", "고마워", "--backend", "gemini"],
                          capture_output=True, text=True, env=env, cwd=ROOT, timeout=120)
    assert proc.returncode == 2 and "GEMINI_API_KEY" in proc.stderr and "Traceback" not in proc.stderr


def test_a_model_config_without_a_client_fails_loudly(registry):
    with pytest.raises(ConfigError, match="model_client"):
        TurnRunner(DriverConfig(object_typer_mode="llm"), registry)


def test_cli_option_combinations_are_checked(tmp_path):
    cli = CliRunner()
    out = cli.invoke(app, ["route", "고마워", "--backend", "replay"])
    assert out.exit_code != 0 and "--cassette" in out.output
    out = cli.invoke(app, ["route", "고마워", "--record", str(tmp_path / "c.jsonl")])
    assert out.exit_code != 0 and "--record" in out.output
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"not": "a cassette"}\n', encoding="utf-8")
    out = cli.invoke(app, ["route", "고마워", "--backend", "replay", "--cassette", str(bad)])
    assert out.exit_code != 0 and "not a model cassette" in str(out.exception)
