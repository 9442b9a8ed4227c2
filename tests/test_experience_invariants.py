"""Experience's non-interference invariants (DESIGN section 6), as properties over the boundary set and the fault scenarios.

- a not-admitted request's plan and dispatch are identical with Experience on or off;
- an explicit action order is never deleted or reordered (replans only append);
- budgets are never exceeded, whatever the budget and the decision events;
- an invented effect or capability is refused;
- a false admission never blocks a normal command's dispatch;
- normal events never reach the supervisor (nor the planner).
"""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from dataflow.rows import read_set, turn_from_row
from dataflow.runtime.orchestrator import USER_GOAL_CHANGE
from dataflow.runtime.loop import Runtime
from dataflow.runtime.store import WorkflowStore
from dataflow.runtime.supervisor import EFFECT_MISSING, Supervisor
from device.scenario import Scenario, load_scenario
from registry.plan_contracts import Action, PlanCheckReport, PlannerOutput, Step
from registry.record_contracts import DecisionRecord
from registry.errors import InputError, RegistryError
from registry.experience import GoalContract
from registry.goal_contracts import DecisionBudget
from registry.loader import REGISTRY_DIR
from registry.runtime_contracts import Decision, DecisionPoint
from registry.supervision import load_supervision_policy, policy_from_dict
from stages.experience import experience_admission

ROOT = Path(__file__).resolve().parents[1]
PROPERTY = settings(max_examples=25, deadline=None, database=None)
ROWS = [row for _, row, _ in read_set(ROOT / "data/utterances/experience_boundary.jsonl") if row]
NOT_ADMITTED = [r for r in ROWS if r["expect"]["experience_admission"] == "not_admitted" and r["expect"]["family"] == "ODL"]
ADMITTED = [r for r in ROWS if r["expect"].get("admitted") and r["expect"]["temporal_relation"] != "after_existing_event"]
FAULTS = [None] + [load_scenario(ROOT / "data/scenarios" / f"{name}.json") for name in (
    "station_moved", "station_removed", "path_blocked", "task_fails_at_tick", "callback_lost", "callbacks_duplicated_out_of_order",
    "task_stalls_timeout", "low_battery_move", "setting_stalls_retried_once", "consent_no_answer")]
TERMINAL = {"ask_user", "complete", "cancel"}


def _scenario(row, fault) -> Scenario:
    """The fault's home and robot with the row's device context on top."""
    base = fault or Scenario()
    return base.model_copy(update={"device_context": {**base.device_context, **row.get("device_context", {})}})


def _trace(store, report) -> dict:
    """Everything a run did, without the ids that differ between two runs."""
    wf = report.workflow_id
    compiled = json.loads(store.workflow(wf)["compiled_json"])
    tasks = [{k: v for k, v in t.items() if k != "cloud_workflow_id"} for t in (compiled.get("submission") or {}).get("subTasks", [])]
    events = [(e["event_name"], e["step_id"], e["task_method"], e["reason_code"], e["terminal_evidence"], e["observed_at"], e["attempt"],
               e["output_json"]) for e in store.events(wf)]
    steps = [(s.step_id, s.capability_id, s.status, s.reason_code, s.terminal_evidence, json.dumps(s.output, sort_keys=True))
             for s in report.steps]
    decisions = [(d["step_id"], d["action"], d["reason_code"]) for d in report.decisions]
    return {"tasks": tasks, "events": events, "steps": steps, "decisions": decisions, "status": (report.status, report.reason_code),
            "response": report.response}


def _run(runner, row, scenario, seed, **runtime_args):
    store = WorkflowStore(":memory:")
    runtime = Runtime(store, runner, **runtime_args)
    report = runtime.run_text(row["text"], scenario=scenario, seed=seed)
    return store, report


# --- the plan never depends on Experience --------------------------------------------------------


def test_experience_nodes_are_not_upstream_of_the_plan_or_its_dispatch(runner):
    upstream = {v.name for v in runner.driver.what_is_upstream_of("compiled_workflow")}
    assert "final_plan" in upstream
    assert not upstream & {"grounded_experience_request", "experience_admission"}


@pytest.mark.parametrize("row", ROWS, ids=lambda r: r["id"])
def test_dispatch_is_the_same_when_no_experience_node_runs(runner, row):
    """Asking the DAG only for the compiled workflow runs no Experience stage: the dispatch it gives is the one of a full turn."""
    turn = turn_from_row(row)
    _, full = runner.route_with(turn, ("compiled_workflow",), trace_id="t" * 32)
    alone = runner.driver.execute(["compiled_workflow"], inputs={"turn_input": turn, "kiwi": runner.kiwi, "registry": runner.registry,
                                                                 "trace_id": "t" * 32})["compiled_workflow"]
    assert alone == full["compiled_workflow"]


@PROPERTY
@given(row=st.sampled_from(NOT_ADMITTED), fault=st.sampled_from(FAULTS), seed=st.integers(0, 3))
def test_not_admitted_runs_the_same_with_experience_on_or_off(runner, row, fault, seed):
    scenario = _scenario(row, fault)
    on_store, on = _run(runner, row, scenario, seed)
    off_store, off = _run(runner, row, scenario, seed, experience=False)
    assert on.goal is None and off.goal is None  # no Experience metadata on its execution path
    assert _trace(on_store, on) == _trace(off_store, off)


# --- explicit order ---------------------------------------------------------------------------------


@PROPERTY
@given(row=st.sampled_from(ADMITTED), fault=st.sampled_from(FAULTS), seed=st.integers(0, 3))
def test_explicit_action_order_is_never_deleted_or_reordered(runner, registry, row, fault, seed):
    store, report = _run(runner, row, _scenario(row, fault), seed)
    assume(report.goal is not None)  # the fault's room may make the plan a single command ("안방 청정해줘" in 안방)
    record = DecisionRecord.model_validate_json(store.workflow(report.workflow_id)["record_json"])
    planned = [s.id for s in record.steps]
    assert report.goal.status != "not_started"
    compiled = json.loads(store.workflow(report.workflow_id)["compiled_json"])
    assert [s["step_id"] for s in compiled["steps"]] == planned
    assert [(s["capability_id"], s["operation_id"]) for s in compiled["steps"]] == [
        (s.action.capability_id, s.action.operation_id) if s.action else (None, None) for s in record.steps]
    assert [s.step_id for s in report.steps][:len(planned)] == planned  # a replan only appends
    first_start: dict[str, float] = {}
    for e in store.events(report.workflow_id):  # callbacks may arrive shuffled: the device's own clock tells the order
        if e["event_name"] == "RUNNING" and e["step_id"] in planned:
            first_start[e["step_id"]] = min(e["observed_at"], first_start.get(e["step_id"], e["observed_at"]))
    started = sorted(first_start, key=planned.index)
    assert all(first_start[a] <= first_start[b] for a, b in zip(started, started[1:]))  # the user's order, never another
    assert all(s.capability_id is None or s.capability_id in registry.capability_by_id for s in report.steps)


# --- budgets --------------------------------------------------------------------------------------------

BUDGETS = st.builds(DecisionBudget, max_decisions=st.integers(1, 4), max_replans=st.integers(0, 2))
TEXTS = [r["text"] for r in NOT_ADMITTED[:6]] + [r["text"] for r in ADMITTED[:10]] + ["충전대로 돌아가", "주방 가서 청정하고 충전대로 복귀해"]


class BudgetedRuntime(Runtime):
    """Admitted goals get the drawn budget too (as a configured budget would give them)."""

    def __init__(self, *args, budget: DecisionBudget, **kwargs):
        super().__init__(*args, **kwargs)
        self.budget = budget

    def goal_of(self, record):
        goal = super().goal_of(record)
        return goal.model_copy(update={"decision_budget": self.budget.model_dump()}) if goal else None


@PROPERTY
@given(budget=BUDGETS, text=st.sampled_from(TEXTS), fault=st.sampled_from(FAULTS), seed=st.integers(0, 3))
def test_budgets_are_never_exceeded_in_a_run(runner, budget, text, fault, seed):
    store = WorkflowStore(":memory:")
    runtime = BudgetedRuntime(store, runner, handler=Supervisor(runner.registry, budget=budget), budget=budget)
    scenario = (fault or Scenario()).model_copy(update={"device_context": {**(fault.device_context if fault else {}),
                                                                            "position": "안방", "docked": False}})
    report = runtime.run_text(text, scenario=scenario, seed=seed)
    actions = [d["action"] for d in report.decisions]
    assert len(actions) <= budget.max_decisions
    assert actions.count("replan") <= budget.max_replans
    if len(actions) == budget.max_decisions:
        assert actions[-1] in TERMINAL
    if report.goal is not None:
        assert report.goal.decisions_spent == len(actions) and report.goal.budget == budget


POINTS = st.tuples(st.sampled_from(["FAILED", "BLOCKED", "TIMEOUT", "NEEDS_USER_INPUT", "PAUSED", "TERMINAL_EVIDENCE_MISSING",
                                    EFFECT_MISSING, USER_GOAL_CHANGE]),
                   st.sampled_from(["station_not_found", "timeout", "path_blocked", "privacy_mode_active", "wheel_stuck",
                                    "terminal_evidence_missing", "consent_no_answer", None]))


def _a_real_run(runner, scenario_name: str):
    """The WorkflowRun of a scenario's turn, as the supervisor saw it at its first decision."""
    seen = {}

    class Capture(Supervisor):
        def decide(self, point, run):
            seen.setdefault("run", run)
            return super().decide(point, run)

    scenario = load_scenario(ROOT / "data/scenarios" / f"{scenario_name}.json")
    Runtime(WorkflowStore(":memory:"), runner, handler=Capture(runner.registry)).run_text(scenario.utterance, scenario=scenario)
    return seen["run"]


@settings(max_examples=60, deadline=None, database=None)
@given(budget=BUDGETS, points=st.lists(POINTS, min_size=1, max_size=8))
def test_the_last_budgeted_decision_always_ends_the_workflow(runner, budget, points):
    """Whatever decision events arrive, in any order, the supervisor never answers more than the budget allows."""
    run = _a_real_run(runner, "station_moved")
    sup = Supervisor(runner.registry, budget=budget)
    answers = []
    for event, reason in points:
        point = DecisionPoint(workflow_id=run.workflow_id, step_id="step_1", capability_id="return_to_station", event_name=event,
                              reason_code=reason, observed_at=0.0, step_status="failed")
        answers.append(sup.decide(point, run).action)
        if answers[-1] in TERMINAL:
            break
    assert len(answers) <= budget.max_decisions
    assert answers.count("replan") <= budget.max_replans
    assert answers[-1] in TERMINAL or len(answers) == len(points)


# --- invented effects and capabilities -----------------------------------------------------------


def test_an_invented_capability_in_a_plan_is_not_admitted(runner, registry):
    rec = runner.route_text("주방 가서 청정해")
    invented = [*rec.steps, Step(id="step_3", route="ODL", purpose="teleport", depends_on=["step_2"], output_key="t",
                                 execution_target="device", wait_policy="completed",
                                 action=Action(capability_id="teleport", operation_id="start"))]
    plan = PlannerOutput(turn_mode="multi_step", selected_routes=["ODL"], selected_flow_id="ODL.ODL.multi_step_device_workflow",
                         selected_agent="ODL", selected_skill="multi_step_device_workflow", owner_selection="ODL", steps=invented,
                         family_confidence="high", tts_response="")
    from registry.plan_contracts import ExperienceRequest

    request = ExperienceRequest(admission_status="candidate", delegated_outcome="delegated", coordination_requirements=["sequencing"],
                                desired_effects=["target_location_reached", "air_cleaning_active"], temporal_relation="after_planned_step",
                                temporal_anchor_id="step_1")
    adm = experience_admission(request, plan, PlanCheckReport(ok=True, violations=[], fail_closed=False), registry, "t" * 32, "full")
    assert adm.status == "not_admitted" and adm.goal is None
    assert not next(c for c in adm.checks if c.name == "consent_and_evidence").passed


def test_a_policy_that_names_an_invented_capability_is_refused(registry):
    data = json.loads((REGISTRY_DIR / "supervision.json").read_text(encoding="utf-8"))
    bad = copy.deepcopy(data)
    bad["recoveries"]["station_not_found"]["move"]["capability_id"] = "teleport"
    with pytest.raises(RegistryError, match=r"supervision.json.*recoveries.station_not_found.move"):
        policy_from_dict(bad, registry)
    worse = copy.deepcopy(data)
    worse["actions_by_reason"]["wheel_stuck"] = "replan"
    with pytest.raises(RegistryError, match="replan needs a recovery"):
        policy_from_dict(worse, registry)
    assert load_supervision_policy(registry).recoveries


def test_a_replan_with_an_invented_capability_is_rejected(runner):
    class Inventor:
        def decide(self, point, run):
            return Decision(action="replan", reason="invent", steps=[Step(
                id="step_9", route="ODL", purpose="x", output_key="x", execution_target="device", wait_policy="completed",
                action=Action(capability_id="teleport", operation_id="start"))])

    scenario = load_scenario(ROOT / "data/scenarios/station_moved.json")
    with pytest.raises(InputError, match="replan rejected.*teleport"):
        Runtime(WorkflowStore(":memory:"), runner, handler=Inventor()).run_text(scenario.utterance, scenario=scenario)


# --- a false admission never blocks a normal command ----------------------------------------------


class FalselyAdmitting(Runtime):
    """Admits every turn, single commands included, with the goal a careless admission would give them."""

    def goal_of(self, record):
        catalog = self.registry.effects
        effects = [e.effect_id for s in record.steps if s.action and (e := catalog.effect_of(s.action.capability_id, s.action.operation_id))]
        return GoalContract(experience_id="exp-false", goal_summary="false admission", success_criteria=effects,
                            plan_binding={"plan_id": record.selected_flow_id, "step_ids": [s.id for s in record.steps]},
                            decision_budget=dict(catalog.default_budget), temporal_relation="after_planned_step",
                            temporal_anchor_id=record.steps[0].id if record.steps else None)


@PROPERTY
@given(row=st.sampled_from(NOT_ADMITTED), fault=st.sampled_from(FAULTS), seed=st.integers(0, 3))
def test_a_false_admission_never_blocks_a_normal_commands_dispatch(runner, row, fault, seed):
    scenario = _scenario(row, fault)
    store, normal = _run(runner, row, scenario, seed)
    false_store = WorkflowStore(":memory:")
    admitted = FalselyAdmitting(false_store, runner).run_text(row["text"], scenario=scenario, seed=seed)
    assert admitted.goal is not None and normal.goal is None
    assert _trace(false_store, admitted) == _trace(store, normal)


# --- normal events ---------------------------------------------------------------------------------


def test_normal_events_never_reach_the_supervisor_on_the_whole_boundary_set(runner):
    supervisor = Supervisor(runner.registry)
    runtime = Runtime(WorkflowStore(":memory:"), runner, handler=supervisor)
    opened = 0
    for row in ROWS:
        scenario = Scenario(device_context=row.get("device_context", {}))
        report = runtime.run_text(row["text"], scenario=scenario)
        opened += len(report.decisions)
        device_points = [e for e in runtime.store.events(report.workflow_id) if e["requires_cloud_decision"]]
        cloud_points = [s for s in report.steps if s.capability_id is None and s.status in ("needs_user_input", "blocked")]
        assert len(report.decisions) == len(device_points) + len(cloud_points)  # one decision per decision event, none else
    assert supervisor.calls == opened


def test_continue_and_wait_come_from_the_policy_and_stay_within_budget(runner, registry):
    """The shipped policy maps no reason to continue or wait; a policy that does is obeyed until the last decision."""
    data = json.loads((REGISTRY_DIR / "supervision.json").read_text(encoding="utf-8"))
    data["actions_by_reason"].update({"wheel_stuck": "continue", "paused_on_device": "wait"})
    sup = Supervisor(registry, policy=policy_from_dict(data, registry), budget=DecisionBudget(max_decisions=3, max_replans=1))
    run = _a_real_run(runner, "task_fails_at_tick")
    point = lambda reason: DecisionPoint(workflow_id=run.workflow_id, step_id="step_1", event_name="FAILED",  # noqa: E731
                                         reason_code=reason, observed_at=0.0, step_status="failed")
    assert [sup.decide(point(r), run).action for r in ("wheel_stuck", "paused_on_device", "wheel_stuck")] == ["continue", "wait", "cancel"]
