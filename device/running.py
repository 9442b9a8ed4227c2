"""Tasks already running on the robot when a turn arrives (a scenario's `running_tasks`).

They belong to no workflow of this run: the TaskManager only observes their end, as it observes
any terminal evidence, so a step waiting "after an existing event" is released by it. A task
ends on its own at `ends_after_s` (reporting `ends_with`) or when another task stops what it
was doing (reporting its capability's stop evidence).
"""

from __future__ import annotations

from dataclasses import dataclass

from device.scenario import RunningTask
from device.world import World
from registry.device_bridge import finishing_evidence, running_task_method
from registry.errors import InputError
from registry.loader import Registry

_PURIFY_MODE = {"startBasicAirClear": "basic", "startStationaryPurify": "stationary", "startScanningClean": "scanning"}
"""The simulator's purifying mode of a running purifying task (as device/activities.py sets it)."""


@dataclass(slots=True)
class RunningBefore:
    capability_id: str
    task_method: str
    ends_with: str
    stopped_with: str
    ends_at_tick: int | None
    mode: str | None
    ended: bool = False


def running_before(tasks: list[RunningTask], registry: Registry, world: World) -> list[RunningBefore]:
    """The scenario's running tasks, checked against the registry; purifying ones purify from tick 0."""
    found = []
    for i, task in enumerate(tasks):
        cap = registry.capability_by_id.get(task.capability_id)
        if cap is None:
            raise InputError(f"running_tasks[{i}].capability_id: unknown capability {task.capability_id!r}")
        ends = finishing_evidence(cap)
        if not ends:
            raise InputError(f"running_tasks[{i}]: {task.capability_id} has no finishing evidence to wait for")
        if task.ends_with is not None and task.ends_with not in ends:
            raise InputError(f"running_tasks[{i}].ends_with: {task.ends_with!r} is not one of {', '.join(ends)}")
        stop = cap.operation("stop")
        method = running_task_method(cap)
        mode = _PURIFY_MODE.get(method)
        if mode is not None:
            world.purifying = mode
        found.append(RunningBefore(capability_id=cap.capability_id, task_method=method, ends_with=task.ends_with or ends[0],
                                   stopped_with=stop.terminal_evidence[0] if stop else ends[0],
                                   ends_at_tick=task.ends_after_s, mode=mode))
    return found


def ended_now(tasks: list[RunningBefore], world: World) -> list[tuple[str, str, int]]:
    """(task method, evidence, tick) of the running tasks that end at this tick."""
    out = []
    for task in tasks:
        if task.ended:
            continue
        if task.mode is not None and world.purifying != task.mode:
            task.ended = True  # another task stopped it
            out.append((task.task_method, task.stopped_with, world.tick))
        elif task.ends_at_tick is not None and world.tick >= task.ends_at_tick:
            task.ended = True
            if task.mode is not None:
                world.purifying = None
            out.append((task.task_method, task.ends_with, world.tick))
    return out
