"""Temporal relations at run time: a plan's waits bound to the simulated robot's clock and tasks.

- clock_delay: a SCH timer step (the turn's `duration_s`) releases the steps that depend on it
  only after the delay. The TaskManager holds device steps (`start_after` ClockDelay), the cloud
  runtime holds cloud steps on the same condition; nothing in the cloud counts the seconds. This
  is the plan's own structure, so it applies whether or not the turn was admitted.
- after_existing_event (an admitted goal only): the goal's first steps wait for the terminal
  evidence of the anchor capability's task that is running now ("청정이 끝나면 ..." waits for
  air_clean.stopped or air_clean.completed). With no such task running nothing is started and the
  user is told (a refusal); the anchor is never started in its place.
"""

from __future__ import annotations

from device.session import DeviceSession
from registry.record_contracts import DecisionRecord
from registry.device_bridge import DeviceBridge, finishing_evidence, running_task_method
from registry.device_contracts import AfterEvent, ClockDelay, CompiledWorkflow, StartAfter
from registry.experience import GoalContract
from registry.loader import Registry
from registry.supervision import SupervisionPolicy
from registry.templates import fill
from stages.compilation import compile_steps

ANCHOR_NOT_RUNNING = "anchor_not_running"


def temporal_waits(record: DecisionRecord, goal: GoalContract | None, session: DeviceSession,
                   registry: Registry) -> tuple[dict[str, StartAfter], str | None]:
    """(step id -> wait, the anchor capability that is not running or None)."""
    waits: dict[str, StartAfter] = {}
    duration = record.slots.get("duration_s")
    if isinstance(duration, int) and duration > 0:
        timers = {s.id for s in record.steps if s.route == "SCH" and s.action is None}
        delay = ClockDelay(not_before_s=float(session.clock_s + duration))
        waits.update({s.id: delay for s in record.steps if timers & set(s.depends_on)})
    anchor = registry.capability_by_id.get(goal.temporal_anchor_id or "") if goal else None
    if goal is not None and goal.temporal_relation == "after_existing_event" and anchor is not None:
        if anchor.capability_id not in session.tasks.running_capabilities():
            return {}, anchor.capability_id
        wait = AfterEvent(task_method=running_task_method(anchor), terminal_evidence=finishing_evidence(anchor))
        waits.update({s.id: wait for s in record.steps if not s.depends_on and s.id not in waits})
    return waits, None


def bind_temporal(compiled: CompiledWorkflow, record: DecisionRecord | None, goal: GoalContract | None, session: DeviceSession,
                  registry: Registry, bridge: DeviceBridge, policy: SupervisionPolicy) -> tuple[CompiledWorkflow, tuple[str, str] | None]:
    """The workflow with its waits compiled in, and a refusal (reason code, what the user is told) when it must not start."""
    if record is None or compiled.errors:
        return compiled, None
    waits, missing_anchor = temporal_waits(record, goal, session, registry)
    if missing_anchor is not None:
        name = registry.lexicon["responses"]["capability_names"].get(missing_anchor, missing_anchor)
        return compiled, (ANCHOR_NOT_RUNNING, fill(policy.tell[ANCHOR_NOT_RUNNING], {"anchor": name}))
    if not waits:
        return compiled, None
    bound = compile_steps(record.steps, compiled.family, compiled.trace_id, registry, bridge, workflow_id=compiled.workflow_id,
                          start_after=waits)
    return bound, None
