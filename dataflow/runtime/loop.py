"""Turns run end to end: route and compile (the driver), a simulated robot, the cloud orchestrator,
durable state, and the two clocks. Also path A requests, resume after a kill, and the schedule clock.

Resume replays the robot deterministically from the stored context, scenario and seed (the
simulator stands in for a robot that kept its own state): events already in the log are
applied to memory again, checked to match, and not stored twice; cloud results already stored
are reused, never recomposed.

Decisions go to the Experience supervisor (dataflow/runtime/supervisor.py) unless a handler is given.
An admitted turn's Goal contract is stored with its workflow (the `goals` table) and reported;
`experience=False` runs every turn as not admitted (what a not-admitted turn always gets).
"""

from __future__ import annotations

import json
import os
import signal
import time
import uuid
from typing import Any, Callable

from pydantic import ValidationError

from dataflow.runtime.goal_store import load_goal, save_goal
from dataflow.runtime.orchestrator import EventListener, Orchestrator
from dataflow.runtime.workflow_run import DecisionHandler, WorkflowRun
from dataflow.runtime.path_a import parse_structured_request, structured_request_step
from dataflow.runtime.store import WorkflowStore
from dataflow.runtime.supervisor import Supervisor, goal_report
from dataflow.runtime.temporal import bind_temporal
from device.scenario import ProcessCrash, Scenario, start_clock_s
from device.session import DeviceSession
from registry.contracts import DeviceContext, TurnInput, VoiceContext, WorkflowContext
from registry.plan_contracts import Action, Step
from registry.record_contracts import DecisionRecord
from registry.device_bridge import load_device_bridge
from registry.device_contracts import ClockDelay, CompiledWorkflow
from registry.inputs import device_context_of, voice_context_of
from registry.errors import InputError
from registry.experience import GoalContract
from registry.loader import Registry, load_registry
from registry.runtime_contracts import Clocks, RunReport, ScheduleRecord, StepReport
from registry.templates import fill, load_response_templates
from stages.compilation import compile_steps

DAY_S = 86400
WEEKDAYS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")
_SLACK_TICKS = 120


def device_context_from(scenario: Scenario, overrides: dict[str, Any] | None, registry: Registry | None = None) -> DeviceContext:
    """The scenario's device context with the caller's overrides on top, checked as every command checks it
    (registry/inputs.py: unknown fields, numbers out of range, unknown rooms are an InputError)."""
    return device_context_of({**scenario.device_context, **(overrides or {})}, registry or load_registry())


def die_hard() -> None:
    """SIGKILL this process: no cleanup, no flush, exactly like a power cut after the last commit."""
    os.kill(os.getpid(), signal.SIGKILL)


def process_faults(scenario: Scenario, die: Callable[[], None] = die_hard) -> Callable[[int], None] | None:
    """The scenario's process faults as a tick hook: at a `process_crash` tick the process dies (`die`), after that
    tick's transaction is committed. Never installed on resume."""
    ticks = {f.at_tick for f in scenario.faults_of(ProcessCrash)}
    if not ticks:
        return None

    def crash(tick: int) -> None:
        if tick in ticks:
            die()

    return crash


def tick_budget(compiled: CompiledWorkflow, grace_s: int) -> int:
    """Enough simulated seconds for every device task to reach its timeout, plus waits and slack."""
    tasks = compiled.submission.subTasks if compiled.submission else []
    waits = sum(1 for s in compiled.steps if s.start_after is not None)  # device and cloud steps alike
    delays = max(waits, sum(1 for t in tasks if t.start_after is not None)) * DAY_S
    return sum(t.timeout_s * (t.max_local_retries + 1) for t in tasks) + delays + grace_s + _SLACK_TICKS


class Runtime:
    def __init__(self, store: WorkflowStore, runner=None, registry: Registry | None = None, handler: DecisionHandler | None = None,
                 experience: bool = True):
        self.store = store
        self.runner = runner
        self.registry = registry or (runner.registry if runner is not None else load_registry())
        self.supervisor = handler if isinstance(handler, Supervisor) else Supervisor(self.registry)
        self.handler = handler or self.supervisor
        self.experience = experience
        self.die: Callable[[], None] = die_hard
        """What a process_crash fault does (tests of many kills in one process raise instead)."""
        """False: every turn runs as not admitted (no goal, no Experience metadata)."""
        self.templates = load_response_templates()
        self.bridge = load_device_bridge(self.registry)

    def _orchestrator(self, session: DeviceSession, listener: EventListener | None, replaying: bool = False,
                      goal: GoalContract | None = None) -> Orchestrator:
        orch = Orchestrator(self.registry, self.store, session, self.templates, self.bridge, self.handler, listener, replaying)
        if goal is not None:  # the goal's final status is written in the transaction that ends its workflow
            orch.on_end = lambda run: self._save_goal(run, goal)
        return orch

    def _persist(self, text: str, context: DeviceContext, scenario: Scenario, seed: int) -> dict[str, Any]:
        return {"text": text, "device_context": context.model_dump(), "scenario_json": scenario.model_dump_json(), "seed": seed}

    def goal_of(self, record: DecisionRecord | None) -> GoalContract | None:
        """The Goal contract of an admitted turn; None when not admitted or Experience is off."""
        admission = record.evidence.experience_admission if record is not None else None
        if not self.experience or admission is None:
            return None
        return admission.goal

    def _execute(self, compiled: CompiledWorkflow, record: DecisionRecord | None, kind: str, text: str, context: DeviceContext,
                 scenario: Scenario, seed: int, started: float, ack: str | None, pace: float | None,
                 listener: EventListener | None) -> RunReport:
        session = DeviceSession(self.registry, context, scenario, seed)
        goal = self.goal_of(record)
        orch = self._orchestrator(session, listener, goal=goal)
        orch.after_tick = process_faults(scenario, self.die)
        run = self.begin(orch, compiled, record, goal, kind, text, context, scenario, seed, started, ack)
        self._drive(orch, run, scenario, context, pace)
        return self._with_goal(orch.report(run), run, goal)

    def begin(self, orch: Orchestrator, compiled: CompiledWorkflow, record: DecisionRecord | None, goal: GoalContract | None,
              kind: str, text: str, context: DeviceContext, scenario: Scenario, seed: int, started: float, ack: str | None) -> WorkflowRun:
        """Bind the plan's waits to the robot's clock and tasks, attach its goal, store it and submit its device part."""
        compiled, refusal = bind_temporal(compiled, record, goal, orch.session, self.registry, self.bridge, self.supervisor.policy)
        self.supervisor.attach(compiled.workflow_id, goal)
        run = orch.start(compiled, record, kind, started, ack, self._persist(text, context, scenario, seed), refusal=refusal)
        self._save_goal(run, goal)
        return run

    def _drive(self, orch: Orchestrator, run: WorkflowRun, scenario: Scenario, context: DeviceContext, pace: float | None) -> None:
        """Tick the workflow to its end, applying what the scenario's user does at its moments. A resumed run is driven
        the same way from its submission, so a call-off the user made before a crash is made again at the same second."""
        session, compiled = orch.session, run.compiled
        budget = tick_budget(compiled, session.sim.physics.callback_grace_s)
        change_at = scenario.user.changes_goal_after_s
        if change_at is not None:  # the user calls the rest off at that second: a decision event
            while not run.done and session.tick_count - run.submit_tick < change_at:
                orch.tick()
            orch.user_changes_goal(run)
        for said in sorted(scenario.user.says, key=lambda u: u.after_s):
            while not run.done and session.tick_count - run.submit_tick < said.after_s:
                orch.tick()
            if not run.done and self._is_voice_stop(said.text, context, compiled):
                orch.user_changes_goal(run)  # through the TaskManager: queued tasks cancelled, the running one stopped
        orch.run_until_done(run, budget, pace)

    def _is_voice_stop(self, text: str, context: DeviceContext, compiled: CompiledWorkflow) -> bool:
        """Route a turn spoken during a run (the active workflow in its voice context): is it a voice stop?"""
        if self.runner is None:
            from dataflow.driver import TurnRunner

            self.runner = TurnRunner(registry=self.registry)
        voice = VoiceContext(last_route=compiled.family, active_workflow_summary=f"{compiled.family.lower()}:{compiled.workflow_id}")
        return self.runner.route(TurnInput(recognized_text=text, voice_context=voice, device_context=context)).stops_active_workflow

    def _save_goal(self, run: WorkflowRun, goal: GoalContract | None) -> None:
        if goal is not None:
            save_goal(self.store, run.workflow_id, goal, goal_report(goal, run, self.registry, self.supervisor.policy))

    def _with_goal(self, report: RunReport, run: WorkflowRun, goal: GoalContract | None) -> RunReport:
        if goal is None:
            return report
        return report.model_copy(update={"goal": goal_report(goal, run, self.registry, self.supervisor.policy)})

    # -- entry points ---------------------------------------------------------------------------

    def run_text(self, text: str, device_context: dict[str, Any] | None = None, scenario: Scenario | None = None, seed: int = 0,
                 voice_context: dict[str, Any] | None = None, pace: float | None = None, listener: EventListener | None = None,
                 trace_id: str | None = None) -> RunReport:
        """Route one utterance through the DAG (asking the driver for compiled_workflow) and run it."""
        started = time.perf_counter()  # the turn's clock starts when the utterance arrives, not at process start
        scenario = scenario or Scenario()
        context = device_context_from(scenario, device_context, self.registry)
        running = [t.capability_id for t in scenario.running_tasks]
        record, compiled = self.plan(text, context, voice_context, running, trace_id)
        ack = record.tts_response if compiled.submission is not None else None
        return self._execute(compiled, record, "turn", text, context, scenario, seed, started, ack, pace, listener)

    def plan(self, text: str, context: DeviceContext, voice_context: dict[str, Any] | None, running: list[str],
             trace_id: str | None) -> tuple[DecisionRecord, CompiledWorkflow]:
        """Route one utterance on a robot's context and capabilities running now: its record and compiled workflow."""
        if self.runner is None:
            from dataflow.driver import TurnRunner

            self.runner = TurnRunner(registry=self.registry)
        try:
            turn = TurnInput(recognized_text=text, voice_context=voice_context_of(voice_context), device_context=context,
                             workflow_context=WorkflowContext(running_capabilities=running))
        except ValidationError:
            raise InputError("the utterance is not valid Unicode text") from None
        record, extra = self.runner.route_with(turn, ("compiled_workflow",), trace_id=trace_id or uuid.uuid4().hex)
        return record, extra["compiled_workflow"]

    def run_task(self, request: Any, device_context: dict[str, Any] | None = None, scenario: Scenario | None = None, seed: int = 0,
                 pace: float | None = None, listener: EventListener | None = None) -> RunReport:
        """Path A: validate a structured request against the registry and run it with no planner."""
        started = time.perf_counter()
        parsed = parse_structured_request(request)
        step = structured_request_step(parsed, self.registry, self.bridge)
        scenario = scenario or Scenario()
        context = device_context_from(scenario, device_context, self.registry)
        trace_id = uuid.uuid4().hex
        compiled = compile_steps([step], "ODL", trace_id, self.registry, self.bridge)
        if compiled.errors:
            raise InputError("; ".join(compiled.errors))
        return self._execute(compiled, None, "task", json.dumps(request, ensure_ascii=False), context, scenario, seed, started,
                             None, pace, listener)

    def resume(self, workflow_id: str, pace: float | None = None, listener: EventListener | None = None) -> tuple[RunReport, dict[str, int]]:
        """Continue a workflow a killed process left running; a finished one is only reported. The device session is
        re-simulated from its seed to the submission tick (a scheduled workflow's session starts at its clock start),
        the logged events are replayed, and the scenario's user decisions are applied again at their moments."""
        row = self.store.workflow(workflow_id)
        if row["status"] != "running":
            return self.stored_report(workflow_id), {"replayed": 0, "new": 0}
        compiled = CompiledWorkflow.model_validate_json(row["compiled_json"])
        record = DecisionRecord.model_validate_json(row["record_json"]) if row["record_json"] else None
        scenario = Scenario.model_validate_json(row["scenario_json"])
        context = DeviceContext.model_validate(json.loads(row["device_context_json"]))
        session = DeviceSession(self.registry, context, scenario, int(row["seed"]))
        for _ in range(int(row["submit_tick"])):
            session.tasks.tick()
        before = len(self.store.events(workflow_id))
        stored = load_goal(self.store, workflow_id) if self.experience else None
        goal = stored[0] if stored else None
        orch = self._orchestrator(session, listener, replaying=True, goal=goal)
        self.supervisor.attach(workflow_id, goal)
        run = orch.start(compiled, record, row["kind"], time.perf_counter(), row["ack"], persist=None)
        self._drive(orch, run, scenario, context, pace)
        after = len(self.store.events(workflow_id))
        return self._with_goal(orch.report(run), run, goal), {"replayed": orch.replayed, "new": after - before}

    def stored_report(self, workflow_id: str) -> RunReport:
        row = self.store.workflow(workflow_id)
        results = self.store.results(workflow_id)
        steps = [StepReport(step_id=s["step_id"], capability_id=s["capability_id"], route=s["route"], status=s["status"],
                            reason_code=s["reason_code"], terminal_evidence=s["terminal_evidence"],
                            output={k: v for k, v in results.get(s["step_id"], {}).items()
                                    if k not in ("status", "terminal_evidence", "reason_code", "cloud_result")})
                 for s in self.store.steps(workflow_id)]
        order = {s.step_id: i for i, s in enumerate(CompiledWorkflow.model_validate_json(row["compiled_json"]).steps)}
        steps.sort(key=lambda s: order.get(s.step_id, len(order)))
        turn = self.store.turn(row["trace_id"]) or {}
        stored_goal = load_goal(self.store, workflow_id)
        return RunReport(trace_id=row["trace_id"], workflow_id=workflow_id, status=row["status"], reason_code=row["reason_code"],
                         steps=steps, response=row["response"] or "", ack=row["ack"],
                         clocks=Clocks(first_response_ms=turn.get("first_response_ms"), completion_sim_s=turn.get("completion_sim_s")),
                         decisions=self.store.decisions(workflow_id), goal=stored_goal[1] if stored_goal else None)

    # -- the schedule clock ------------------------------------------------------------------

    def run_clock(self, start: str, until: str, device_context: dict[str, Any] | None = None, scenario: Scenario | None = None,
                  seed: int = 0, listener: EventListener | None = None, start_weekday: str = "mon") -> list[RunReport]:
        """Advance the simulated clock from `start` to `until` (HH:MM, the next day when earlier), firing due schedules."""
        scenario = (scenario or Scenario()).model_copy(update={"start_clock": start})
        begin = start_clock_s(start)
        end = start_clock_s(until)
        end += DAY_S if end <= begin else 0
        context = device_context_from(scenario, device_context, self.registry)
        session = DeviceSession(self.registry, context, scenario, seed)
        orch = self._orchestrator(session, listener)
        orch.after_tick = process_faults(scenario, self.die)
        fires = upcoming_fires(self.store.schedules(), begin, end, WEEKDAYS.index(start_weekday))
        runs: list[WorkflowRun] = []
        while session.clock_s < end:
            while fires and fires[0][0] <= session.clock_s:
                fire_s, schedule = fires.pop(0)
                run = self._fire(orch, session, schedule, fire_s, context, scenario, seed)
                if run is not None:
                    runs.append(run)
            orch.tick()
        return [orch.report(r) for r in runs]

    def _fire(self, orch: Orchestrator, session: DeviceSession, schedule: ScheduleRecord, fire_s: int, context: DeviceContext,
              scenario: Scenario, seed: int) -> WorkflowRun | None:
        cap = self.registry.capability_by_id.get(schedule.function or "")
        start_op = cap.operation("start") if cap else None
        if cap is None or start_op is None:
            return None
        trace_id = uuid.uuid4().hex
        names = self.registry.lexicon["responses"]["capability_names"]
        steps = [Step(id="step_1", route="ODL", purpose=names.get(cap.capability_id, cap.capability_id), output_key="start_result",
                      execution_target="device", wait_policy="event", action=Action(capability_id=cap.capability_id, operation_id="start"))]
        delays = {}
        if schedule.end_time and cap.operation("stop") is not None:
            length = (start_clock_s(schedule.end_time) - start_clock_s(schedule.start_time or "00:00")) % DAY_S
            steps.append(Step(id="step_2", route="ODL", purpose=names.get(cap.capability_id, ""), output_key="stop_result", depends_on=["step_1"],
                              execution_target="device", wait_policy="completed", action=Action(capability_id=cap.capability_id, operation_id="stop")))
            delays["step_2"] = ClockDelay(not_before_s=fire_s + length)
        compiled = compile_steps(steps, "ODL", trace_id, self.registry, self.bridge, start_after=delays)
        if not self.store.record_fire(schedule.schedule_id, fire_s, compiled.workflow_id):
            return None
        text = fill("{id} @ {clock}", {"id": schedule.schedule_id, "clock": clock_text(fire_s)})
        return orch.start(compiled, None, "schedule", time.perf_counter(), None, self._persist(text, context, scenario, seed))


def clock_text(clock_s: float) -> str:
    day, rest = divmod(int(clock_s), DAY_S)
    text = f"{rest // 3600:02d}:{rest % 3600 // 60:02d}:{rest % 60:02d}"
    return f"+{day}d {text}" if day else text


def upcoming_fires(schedules: list[ScheduleRecord], begin_s: int, end_s: int, weekday0: int) -> list[tuple[int, ScheduleRecord]]:
    """(clock second, schedule) of every device-task schedule due in [begin_s, end_s), in time order."""
    fires = []
    for schedule in schedules:
        if schedule.kind != "device_task" or not schedule.start_time or schedule.status != "active":
            continue
        at = start_clock_s(schedule.start_time)
        for day in range(begin_s // DAY_S, end_s // DAY_S + 1):
            moment = day * DAY_S + at
            weekday = WEEKDAYS[(weekday0 + day) % 7]
            due = not schedule.repeat_days or "daily" in schedule.repeat_days or weekday in schedule.repeat_days
            if due and begin_s <= moment < end_s:
                fires.append((moment, schedule))
                if not schedule.repeat_days:
                    break
    return sorted(fires, key=lambda f: (f[0], f[1].schedule_id))
