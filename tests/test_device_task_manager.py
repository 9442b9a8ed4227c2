"""The TaskManager: release order, guards, waits, timeouts, bounded retry, cancel, and the plan compiler
(with hypothesis properties over generated plans)."""

from __future__ import annotations

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from dataflow.runtime.orchestrator import Orchestrator
from dataflow.runtime.store import WorkflowStore
from device.scenario import Scenario, TaskFails, TaskStalls
from device.session import DeviceSession
from registry import load_registry
from registry.contracts import DeviceContext
from registry.plan_contracts import Action, StateCondition, Step, StepOutputCondition
from registry.device_bridge import load_device_bridge
from registry.device_contracts import SATISFIED_STEP_STATUSES, AfterEvent, ClockDelay, CompiledWorkflow
from registry.errors import InputError
from registry.templates import load_response_templates
from registry.conditions import ALLOWED_STATE_PATHS
from stages.compilation import compile_steps
from device.world import STATE_FIELDS
from tests.test_device_simulator import _step, run_steps


def test_guard_paths_the_compiler_allows_are_exactly_what_the_simulator_reads():
    assert {p.removeprefix("device.") for p in ALLOWED_STATE_PATHS} == STATE_FIELDS


def test_false_guard_dispatches_nothing_and_dependants_still_run(registry):
    guard = StateCondition(path="device.battery_percent", operator="ge", value=90)
    _, events = run_steps(registry, [_step("rotate_in_place", "start", condition=guard),
                                     _step("greet_user", "start", sid="step_2", deps=["step_1"])])
    first = [(e.event_name, e.reason_code) for e in events if e.step_id == "step_1"]
    assert first == [("QUEUED", None), ("CANCELLED", "condition_false")]
    assert [e.event_name for e in events if e.step_id == "step_2"][-1] == "COMPLETED"


def test_a_step_after_a_failed_dependency_is_never_dispatched(registry):
    _, events = run_steps(registry, [_step("vital_signs", "start"), _step("greet_user", "start", sid="step_2", deps=["step_1"])],
                          DeviceContext(privacy_mode=True))
    assert [(e.event_name, e.reason_code) for e in events if e.step_id == "step_2"] == [("QUEUED", None), ("CANCELLED", "dependency_not_completed")]


def test_unresolvable_guard_fails_closed(registry):
    guard = StepOutputCondition(step_id="step_1", field="no_such_field", operator="eq", value=1)
    _, events = run_steps(registry, [_step("battery_status", "check"), _step("greet_user", "start", sid="step_2", deps=["step_1"],
                                                                             condition=guard)])
    last = [e for e in events if e.step_id == "step_2"][-1]
    assert (last.event_name, last.reason_code, last.requires_cloud_decision) == ("BLOCKED", "condition_unresolvable", True)


def test_timeout_comes_from_the_registry(registry):
    scenario = Scenario(faults=[TaskStalls(task_method="rotateInPlace")])
    _, events = run_steps(registry, [_step("rotate_in_place", "start")], scenario=scenario)
    running = next(e for e in events if e.event_name == "RUNNING")
    timeout = next(e for e in events if e.event_name == "TIMEOUT")
    assert timeout.observed_at - running.observed_at == registry.capability_by_id["rotate_in_place"].timeout_s


@pytest.mark.parametrize(("times", "final"), [(1, "COMPLETED"), (2, "FAILED"), (3, "FAILED")])
def test_local_retry_is_bounded(registry, times, final):
    scenario = Scenario(faults=[TaskFails(task_method="rotateInPlace", after_s=2, times=times, retryable=True, reason_code="motor")])
    _, events = run_steps(registry, [_step("rotate_in_place", "start")], scenario=scenario)
    assert events[-1].event_name == final
    assert sum(e.event_name == "RUNNING" for e in events) == 2  # one attempt and one local retry, never more


def test_non_retryable_failure_is_not_retried(registry):
    scenario = Scenario(faults=[TaskFails(task_method="rotateInPlace", after_s=2, retryable=False)])
    _, events = run_steps(registry, [_step("rotate_in_place", "start")], scenario=scenario)
    assert sum(e.event_name == "RUNNING" for e in events) == 1 and events[-1].event_name == "FAILED"


def test_cancel_stops_running_and_queued_tasks(registry):
    compiled = compile_steps([_step("move_to_room", "start", {"room_name": "서재"}), _step("greet_user", "start", sid="step_2", deps=["step_1"])],
                             "ODL", "t", registry, load_device_bridge(registry))
    session = DeviceSession(registry)
    session.submit(compiled.submission)
    for _ in range(5):
        session.tick()
    cancelled = session.tasks.cancel(compiled.workflow_id)
    assert [(e.step_id, e.event_name) for e in cancelled] == [("step_1", "CANCELLED"), ("step_2", "CANCELLED")]
    assert session.tasks.workflow_idle(compiled.workflow_id)
    for _ in range(100):
        assert not session.tick()


def test_clock_delay_and_after_event_waits(registry):
    bridge = load_device_bridge(registry)
    delayed = compile_steps([_step("greet_user", "start")], "ODL", "a", registry, bridge,
                            start_after={"step_1": ClockDelay(not_before_s=9 * 3600 + 120)})
    waiting = compile_steps([_step("greet_user", "start")], "ODL", "b", registry, bridge,
                            start_after={"step_1": AfterEvent(task_method="rotateInPlace", terminal_evidence=["rotation.completed"])})
    rotate = compile_steps([_step("rotate_in_place", "start")], "ODL", "c", registry, bridge)
    session = DeviceSession(registry)
    events = session.submit(delayed.submission) + session.submit(waiting.submission)
    for _ in range(60):
        events += session.tick()
    assert not any(e.event_name == "RUNNING" for e in events)  # nothing to wait for yet
    events += session.submit(rotate.submission)
    for _ in range(100):
        events += session.tick()
    started = {e.workflow_id: e.observed_at for e in events if e.event_name == "RUNNING"}
    done = {e.workflow_id: e.observed_at for e in events if e.event_name == "COMPLETED"}
    assert started[waiting.workflow_id] >= done[rotate.workflow_id]
    assert started[delayed.workflow_id] == 9 * 3600 + 120


def test_a_step_cannot_be_submitted_twice(registry):
    compiled = compile_steps([_step("greet_user", "start")], "ODL", "t", registry, load_device_bridge(registry))
    session = DeviceSession(registry)
    session.submit(compiled.submission)
    with pytest.raises(InputError, match="already submitted"):
        session.submit(compiled.submission)


def test_compiler_maps_through_the_registry_and_never_invents(registry):
    bridge = load_device_bridge(registry)
    compiled = compile_steps([_step("move_to_room", "start", {"room_name": "큰방"}), _step("night_mode", "on", sid="step_2", deps=["step_1"])],
                             "ODL", "t", registry, bridge)
    move, night = compiled.submission.subTasks
    assert (move.taskMethod, move.params, move.token_text) == ("setMoveTo", {"position": "안방"}, "<sk_move>(position=안방)<sk_end>")
    assert (night.taskMethod, night.params, night.timeout_s) == ("setNightMode", {"enabled": True}, 10)
    assert compiled.submission.model_dump()["method"] == "submitWorkflow" and move.contract_version == "a2a-task-orchestration-v1"
    bad = compile_steps([_step("move_to_room", "start", {"room_name": "화장실"}),
                         Step(id="step_2", route="ODL", purpose="x", output_key="o", execution_target="device", wait_policy="completed",
                              action=Action(capability_id="teleport", operation_id="start"))], "ODL", "t", registry, bridge)
    assert any("unknown room" in e for e in bad.errors) and any("not in the registry" in e for e in bad.errors)


# --- properties over generated plans ------------------------------------------------------------

REG = load_registry()
BRIDGE = load_device_bridge(REG)
_OPS = [(c.capability_id, op) for c in REG.capabilities.capabilities for op in c.operations if not c.requires_consent]
_ROOMS = [r.canonical_name for r in REG.rooms.rooms]
_CLOUD = [("DEF", "default_conversation"), ("FRG", "freshness_answer_composition"), ("UNS", "unsupported_reply")]


@st.composite
def plans(draw) -> list[Step]:
    n = draw(st.integers(1, 5))
    steps: list[Step] = []
    for i in range(n):
        sid = f"step_{i + 1}"
        earlier = [s.id for s in steps]
        deps = draw(st.lists(st.sampled_from(earlier), unique=True, max_size=2)) if earlier else []
        if draw(st.integers(0, 4)) == 0:
            route, skill = draw(st.sampled_from(_CLOUD))
            steps.append(Step(id=sid, route=route, purpose=skill, skill_id=skill, depends_on=deps, output_key=f"{sid}_out",
                              execution_target="cloud", wait_policy="completed"))
            continue
        cap_id, op = draw(st.sampled_from(_OPS))
        args = {}
        for name, spec in op.arguments.items():
            if spec.type == "room" and (spec.required or draw(st.booleans())):
                args[name] = draw(st.sampled_from(_ROOMS))
            elif spec.type == "integer" and (spec.default is None or draw(st.booleans())):
                args[name] = draw(st.integers(spec.minimum or 0, min(spec.maximum or 4, 8)))
        condition = None
        if draw(st.integers(0, 3)) == 0:
            condition = StateCondition(path="device.battery_percent", operator=draw(st.sampled_from(["ge", "lt"])), value=draw(st.integers(0, 100)))
        steps.append(Step(id=sid, route="ODL", purpose=cap_id, depends_on=deps, output_key=f"{sid}_out", execution_target="device",
                          wait_policy=draw(st.sampled_from(["completed", "event", "submitted"])),
                          action=Action(capability_id=cap_id, operation_id=op.operation_id, arguments=args), condition=condition))
    return steps


@settings(max_examples=60, deadline=None, database=None)
@given(plan=plans())
def test_compiled_methods_are_registered_and_dependency_order_holds(plan):
    compiled = compile_steps(plan, "ODL", "prop", REG, BRIDGE)
    assert compiled.errors == []
    seen: set[str] = set()
    for step in compiled.steps:
        assert set(step.depends_on) <= seen
        seen.add(step.step_id)
        task = step.device_task
        if task is None:
            assert step.execution_target == "cloud"
            continue
        op = REG.capability_by_id[task.capability_id].operation(task.operation_id)
        assert task.taskMethod == op.task_method and task.taskMethod in REG.task_methods
        assert set(task.completion_evidence) <= set(op.terminal_evidence)
        assert set(task.params) <= set(op.param_map.values()) | set(BRIDGE.params_fixed_by(task.capability_id, task.operation_id))
        assert task.token_text is None or task.token_text.startswith(f"<{BRIDGE.tokens[task.taskMethod]}>")


_ENDED_WHILE_RELEASED = [  # found by the search (session 61): the cloud ends the workflow on step_1's block while the
    # device, in the same tick, skips step_2 (its condition is false) and starts step_3; those events arrive after the end
    Step(id="step_1", route="ODL", purpose="vital_signs", output_key="step_1_out", execution_target="device", wait_policy="completed",
         action=Action(capability_id="vital_signs", operation_id="start")),
    Step(id="step_2", route="ODL", purpose="move_to_room", output_key="step_2_out", execution_target="device", wait_policy="completed",
         action=Action(capability_id="move_to_room", operation_id="start", arguments={"room_name": "거실"}),
         condition=StateCondition(path="device.battery_percent", operator="ge", value=6)),
    Step(id="step_3", route="ODL", purpose="return_to_station", depends_on=["step_2"], output_key="step_3_out",
         execution_target="device", wait_policy="completed", action=Action(capability_id="return_to_station", operation_id="start"))]


@settings(max_examples=40, deadline=None, database=None)
@given(plan=plans(), battery=st.integers(5, 100), privacy=st.booleans(), seed=st.integers(0, 3))
@example(plan=_ENDED_WHILE_RELEASED, battery=5, privacy=True, seed=0)
def test_no_step_starts_before_its_dependencies_complete(plan, battery, privacy, seed):
    compiled: CompiledWorkflow = compile_steps(plan, "ODL", f"prop{seed}", REG, BRIDGE)
    store = WorkflowStore(":memory:")
    session = DeviceSession(REG, DeviceContext(battery_percent=battery, privacy_mode=privacy, docked=False), seed=seed)
    orch = Orchestrator(REG, store, session, load_response_templates(), BRIDGE)
    run = orch.start(compiled, None, "turn", 0.0, None, {"text": "p", "device_context": {}, "scenario_json": "{}", "seed": seed})
    orch.run_until_done(run, 20_000)
    events = store.events(compiled.workflow_id)
    completed_at = {e["step_id"]: e["received_seq"] for e in events if e["event_name"] == "COMPLETED"}
    # the cloud may end the workflow (a blocked step's decision) while device events of the same tick are on their way:
    # it records the steps it stopped as not dispatched, and for those the device's own verdict, received before the
    # dependant's start, is what counts (a skip by a false condition satisfies, as it does on the device)
    skipped_at = {e["step_id"]: e["received_seq"] for e in events if e["event_name"] == "CANCELLED" and e["reason_code"] == "condition_false"}
    ended = {sid for sid, st in run.states.items() if st.status == "not_dispatched" and st.reason_code == "decision_ended_workflow"}
    for e in events:
        if e["event_name"] != "RUNNING":
            continue
        step = compiled.step(e["step_id"])
        for dep in _waited_on(compiled, step.step_id):  # a "submitted" dependency only has to be accepted
            if dep in ended:
                assert min(completed_at.get(dep, 1 << 30), skipped_at.get(dep, 1 << 30)) < e["received_seq"], (step.step_id, dep)
                continue
            assert run.states[dep].status in SATISFIED_STEP_STATUSES, (step.step_id, dep, run.states[dep].status)
            if dep in completed_at:
                assert completed_at[dep] < e["received_seq"], (step.step_id, dep)
    for sid in run.states:
        if any(run.states[d].status not in SATISFIED_STEP_STATUSES and d not in ended for d in _waited_on(compiled, sid)):
            assert not any(e["step_id"] == sid and e["event_name"] == "RUNNING" for e in events)
    assert run.done
    store.close()


def _waited_on(compiled: CompiledWorkflow, step_id: str) -> list[str]:
    deps = compiled.step(step_id).depends_on
    return [d for d in deps if compiled.step(d).device_task is None or compiled.step(d).device_task.executionMode == "queued_wait"]
