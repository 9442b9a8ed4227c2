"""The decision seam: a handler other than the default can continue, retry locally or replan."""

from __future__ import annotations

from pathlib import Path

from dataflow.runtime.workflow_run import EndWithReport
from dataflow.runtime.loop import Runtime
from dataflow.runtime.store import WorkflowStore
from device.scenario import Scenario, TaskFails, load_scenario
from registry.plan_contracts import Action, Step, StepOutputCondition
from registry.runtime_contracts import Decision

ROOT = Path(__file__).resolve().parents[1]


class RetryThenEnd:
    def __init__(self):
        self.points = []

    def decide(self, point, run):
        self.points.append(point)
        if len(self.points) == 1:
            return Decision(action="retry_local", reason="first failure")
        return EndWithReport().decide(point, run)


class SearchStation:
    """A stand-in for the Experience supervisor: on station_not_found, move to a room, probe, and dock if seen."""

    def decide(self, point, run):
        if point.reason_code != "station_not_found":
            return Decision(action="cancel", reason="not a station problem")
        n = len(run.states)
        move, probe, dock = (f"step_{n + i}" for i in (1, 2, 3))
        return Decision(action="replan", reason="look in 서재", steps=[
            Step(id=move, route="ODL", purpose="move", output_key="m", execution_target="device", wait_policy="completed",
                 action=Action(capability_id="move_to_room", operation_id="start", arguments={"room_name": "서재"})),
            Step(id=probe, route="ODL", purpose="probe", output_key="p", execution_target="device", wait_policy="completed", depends_on=[move],
                 action=Action(capability_id="docking_probe", operation_id="check")),
            Step(id=dock, route="ODL", purpose="dock", output_key="d", execution_target="device", wait_policy="completed", depends_on=[probe],
                 condition=StepOutputCondition(step_id=probe, field="station_visible", operator="eq", value=True),
                 action=Action(capability_id="return_to_station", operation_id="start")),
        ])


def test_normal_events_open_no_decision(runner):
    handler = RetryThenEnd()
    report = Runtime(WorkflowStore(":memory:"), runner, handler=handler).run_text("주방으로 가")
    assert report.status == "completed" and handler.points == [] and report.decisions == []


def test_retry_local_through_the_seam(runner):
    handler = RetryThenEnd()
    scenario = Scenario(faults=[TaskFails(task_method="setMoveTo", after_s=2, times=1, reason_code="wheel_stuck")])
    report = Runtime(WorkflowStore(":memory:"), runner, handler=handler).run_text("주방으로 가", scenario=scenario)
    assert [p.reason_code for p in handler.points] == ["wheel_stuck"]
    assert report.status == "completed" and report.steps[0].terminal_evidence == "movement.arrived"
    assert [d["action"] for d in report.decisions] == ["retry_local"]


def test_replan_through_the_seam_finds_the_moved_station(runner):
    scenario = load_scenario(ROOT / "data/scenarios/station_moved.json")
    store = WorkflowStore(":memory:")
    report = Runtime(store, runner, handler=SearchStation()).run_text(scenario.utterance, scenario=scenario)
    assert report.status == "completed"
    assert [(s.capability_id, s.status) for s in report.steps] == [
        ("return_to_station", "failed"), ("move_to_room", "completed"), ("docking_probe", "completed"), ("return_to_station", "completed")]
    assert report.steps[-1].terminal_evidence == "docking.docked"
    assert len(store.steps(report.workflow_id)) == 4
