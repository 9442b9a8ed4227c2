"""Knobs that refuse nonsense and files that say what they are: `tune --set` on known families and axes only,
`run --scenario` with the scenario's own utterance, schedules that show they fired or expired, and the
example context files the README points at."""

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from dataflow.workbench import tuning
from dataflow.workbench.batch import run_batch
from dataflow.cli.main import app
from dataflow.runtime.loop import Runtime
from dataflow.runtime.store import WorkflowStore, schedule_status
from registry.runtime_contracts import ScheduleRecord

ROOT = Path(__file__).resolve().parents[1]
CONTEXTS = ROOT / "data/contexts"
VOICE = CONTEXTS / "sch_waiting_for_time.voice.json"
DEVICE = CONTEXTS / "bedroom_undocked_low_battery.device.json"


def _flat(text: str) -> str:
    """CLI output without rich's box drawing and line wrapping."""
    return re.sub(r"[\s│╭╮╰╯─┃━┏┓┗┛┡┩└┘]+", " ", text)


def _invoke(*args):
    return CliRunner().invoke(app, [str(a) for a in args], env={"COLUMNS": "200", "NO_COLOR": "1"})


# --- tune --set ----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def small_run(runner, tmp_path_factory):
    folder = tmp_path_factory.mktemp("knobs")
    rows = [{"id": "a", "text": "거실로 가줘", "expect": {"family": "ODL"}}, {"id": "b", "text": "오늘 날씨 어때?", "expect": {"family": "FRG"}},
            {"id": "c", "text": "고마워", "expect": {"family": "DEF"}}]
    set_path = folder / "set.jsonl"
    set_path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    run_batch(runner, set_path, folder / "run")
    return folder / "run"


def test_tune_refuses_an_axis_nobody_knows_and_lists_the_known_ones(small_run):
    result = _invoke("tune", small_run, "--set", "FRG.no_such_axis=2.0")
    assert result.exit_code == 2 and "Traceback" not in result.output
    out = _flat(result.output)
    assert "unknown axis 'no_such_axis': no family's weights use it and the run's features hold no such axis" in out
    known = tuning.known_axes(tuning.run_weights(small_run), tuning.load_features(small_run))
    assert "Known axes: " + ", ".join(known) in out
    assert "no decision moved" not in out


def test_tune_suggests_the_axis_a_typo_meant(small_run):
    result = _invoke("tune", small_run, "--set", "FRG.has_frg_scop=2.0")
    assert result.exit_code == 2 and "did you mean has_frg_scope" in _flat(result.output)


def test_tune_refuses_an_unknown_family_listing_the_families(small_run):
    result = _invoke("tune", small_run, "--set", "XYZ.has_frg_scope=1")
    assert result.exit_code == 2 and "unknown family 'XYZ'; one of ODL, SCH, FRG, DQR, DEF, UNS, STT_NULL" in _flat(result.output)


def test_tune_accepts_an_axis_another_family_weighs(small_run):
    weights = tuning.run_weights(small_run)
    axis = next(a for a in weights.weights["DEF"] if a not in weights.weights["FRG"])
    result = _invoke("tune", small_run, "--set", f"FRG.{axis}=0.5")
    assert result.exit_code == 0, result.output
    assert "weights diff (1 terms changed)" in _flat(result.output)


def test_an_axis_only_the_features_hold_may_become_a_new_term(small_run):
    weights = tuning.run_weights(small_run)
    features = tuning.load_features(small_run)
    features.axes.append("only_in_the_run")  # an axis the run lit that no family weighs yet
    axes = tuning.known_axes(weights, features)
    assert "only_in_the_run" in axes and set(axes) >= {a for terms in weights.weights.values() for a in terms}
    assert tuning.with_weight(weights, "FRG", "only_in_the_run", 1.5, axes).weights["FRG"]["only_in_the_run"] == 1.5
    with pytest.raises(tuning.TuningError, match="unknown axis"):
        tuning.with_weight(weights, "FRG", "nowhere", 1.5, axes)


# --- run --scenario ------------------------------------------------------------------------


def test_run_takes_the_scenario_utterance_when_no_text_is_given(tmp_path):
    scenario = ROOT / "data/scenarios/low_battery_move.json"
    assert json.loads(scenario.read_text(encoding="utf-8"))["utterance"] == "안방으로 가"
    result = _invoke("run", "--scenario", scenario, "--db", tmp_path / "w.duckdb", "--json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert (report["status"], report["reason_code"]) == ("blocked", "battery_low")
    store = WorkflowStore(tmp_path / "w.duckdb")
    assert store.workflow(report["workflow_id"])["text"] == "안방으로 가"
    store.close()


def test_run_without_text_needs_a_scenario_with_an_utterance(tmp_path):
    result = _invoke("run", "--db", tmp_path / "w.duckdb")
    assert result.exit_code == 2 and "give the TEXT to run, or --scenario FILE with an utterance" in _flat(result.output)
    bare = tmp_path / "bare.json"
    bare.write_text(json.dumps({"name": "bare", "device_context": {"battery_percent": 50}}), encoding="utf-8")
    result = _invoke("run", "--scenario", bare, "--db", tmp_path / "w.duckdb")
    assert result.exit_code == 2 and f"give the TEXT to run ({bare} has no utterance)" in _flat(result.output)
    assert "Traceback" not in result.output


# --- schedules -----------------------------------------------------------------------------


def _schedule(**fields) -> ScheduleRecord:
    return ScheduleRecord(schedule_id="s", workflow_id="w", **{"kind": "device_task", "function": "stationary_purify", **fields})


def test_schedule_status_is_derived_from_what_happened():
    timer = _schedule(kind="timer", function=None, duration_s=600, created_clock_s=32400.0)
    assert schedule_status(timer, 0, "completed", 33000.0) == "fired"  # its run's clock reached created + duration
    assert schedule_status(timer, 0, "completed", 32400.0) == "expired"  # its run ended first: nothing counts it down
    assert schedule_status(timer, 0, "running", 32500.0) == "active"  # a run still going (resumable) may still reach it
    once = _schedule(start_time="18:00")
    assert schedule_status(once, 0, "completed", 32400.0) == "active"
    assert schedule_status(once, 1, "completed", 32400.0) == "fired"
    assert schedule_status(_schedule(start_time="18:00", repeat_days=["daily"]), 3, "completed", 0.0) == "active"
    assert schedule_status(_schedule(start_time="18:00", status="cancelled"), 1, "completed", 0.0) == "cancelled"


def test_schedules_list_shows_fired_and_expired_schedules(runner, tmp_path):
    db = tmp_path / "w.duckdb"
    store = WorkflowStore(db)
    runtime = Runtime(store, runner)
    made = {text: runtime.run_text(text).workflow_id for text in
            ("10분 타이머 맞춰줘", "30분 뒤에 청정 끄고 충전대로 돌아가", "오후 6시에 고정청정 예약해줘", "매일 오후 6시에 고정청정 예약해줘")}
    states = {s.schedule.workflow_id: s for s in store.schedule_states()}
    assert {states[w].schedule.kind for w in made.values()} == {"timer", "device_task"}
    assert states[made["10분 타이머 맞춰줘"]].status == "expired"  # nothing depends on it: its run ended at once
    assert states[made["30분 뒤에 청정 끄고 충전대로 돌아가"]].status == "fired"  # its run waited the 30 minutes out
    assert states[made["30분 뒤에 청정 끄고 충전대로 돌아가"]].fires == 1
    assert states[made["오후 6시에 고정청정 예약해줘"]].status == "active"
    assert len(runtime.run_clock("17:55", "18:05")) == 2  # the one-shot and the daily one fall due
    states = {s.schedule.workflow_id: s for s in store.schedule_states()}
    assert (states[made["오후 6시에 고정청정 예약해줘"]].status, states[made["오후 6시에 고정청정 예약해줘"]].fires) == ("fired", 1)
    assert (states[made["매일 오후 6시에 고정청정 예약해줘"]].status, states[made["매일 오후 6시에 고정청정 예약해줘"]].fires) == ("active", 1)
    store.close()

    result = _invoke("schedules", "list", "--db", db)
    assert result.exit_code == 0, result.output
    out = _flat(result.output)
    for workflow_id, status in ((made["10분 타이머 맞춰줘"], "expired"), (made["30분 뒤에 청정 끄고 충전대로 돌아가"], "fired"),
                                (made["오후 6시에 고정청정 예약해줘"], "fired"), (made["매일 오후 6시에 고정청정 예약해줘"], "active")):
        assert re.search(rf"sch-{workflow_id}-step_\d+ .*? {status} ", out + " "), (workflow_id, status, out)


# --- example context files -----------------------------------------------------------------


@pytest.fixture
def route(runner, monkeypatch):
    monkeypatch.setattr("dataflow.cli.common.make_runner", lambda **options: runner)

    def invoke(text, *args):
        result = _invoke("route", text, *args, "--json")
        assert result.exit_code == 0, result.output
        return json.loads(result.stdout)

    return invoke


def test_the_readme_points_at_the_example_context_files():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "@ctx.json" not in readme
    for ref in re.findall(r"@(data/contexts/[\w.]+)", readme):
        assert (ROOT / ref).is_file(), ref
    assert f"@{VOICE.relative_to(ROOT)}" in readme and "data/contexts/" in readme
    listed = (CONTEXTS / "README.md").read_text(encoding="utf-8")
    assert {p.name for p in CONTEXTS.glob("*.json")} == {VOICE.name, DEVICE.name}
    assert all(p.name in listed for p in CONTEXTS.glob("*.json"))


def test_the_voice_context_file_continues_a_schedule_question(route):
    record = route("매일 오후 6시", "--voice-context", f"@{VOICE}")
    assert record["family"] == "SCH" and record["missing_slots"] == []
    assert {k: record["slots"][k] for k in ("function", "start_time", "repeat_days")} == {
        "function": "stationary_purify", "start_time": "18:00", "repeat_days": ["daily"]}
    alone = route("매일 오후 6시")
    assert "function" in alone["missing_slots"], "without the context the function is not known"


def test_the_device_context_file_puts_the_robot_elsewhere(route, tmp_path):
    steps = lambda record: [(s["action"] or {}).get("capability_id") for s in record["steps"]]  # noqa: E731
    assert steps(route("거실 청정해줘")) == ["selected_room_clean"]
    moved = route("거실 청정해줘", "--device-context", f"@{DEVICE}")
    assert steps(moved) == ["move_to_room", "selected_room_clean"] and moved["steps"][0]["action"]["arguments"] == {"room_name": "거실"}
    result = _invoke("run", "거실 청정해줘", "--device-context", f"@{DEVICE}", "--db", tmp_path / "w.duckdb", "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["reason_code"] == "battery_low"
