"""One simulated robot: the world, its TaskManager and the callback transport to the cloud."""

from __future__ import annotations

from device.channel import CallbackChannel
from device.scenario import Scenario
from device.simulator import Simulator
from device.task_manager import TaskManager
from device.world import Physics
from registry.contracts import DeviceContext
from registry.device_contracts import DeviceEvent, WorkflowSubmission
from registry.loader import Registry


class DeviceSession:
    def __init__(self, registry: Registry, context: DeviceContext | None = None, scenario: Scenario | None = None,
                 seed: int = 0, physics: Physics | None = None):
        self.scenario = scenario or Scenario()
        self.sim = Simulator(registry, context, self.scenario, seed, physics)
        self.tasks = TaskManager(self.sim)
        self.channel = CallbackChannel(self.scenario, seed)

    @property
    def tick_count(self) -> int:
        return self.sim.world.tick

    @property
    def clock_s(self) -> int:
        return self.sim.world.clock_s

    def submit(self, submission: WorkflowSubmission) -> list[DeviceEvent]:
        """Submit and return the callbacks that reach the cloud now."""
        return self.channel.transfer(self.tasks.submit(submission), self.tick_count)

    def tick(self) -> list[DeviceEvent]:
        """One simulated second; the callbacks that reach the cloud during it."""
        return self.channel.transfer(self.tasks.tick(), self.tick_count)

    def quiet(self, workflow_id: str) -> bool:
        """The robot has nothing left to do or to say for this workflow."""
        return self.tasks.workflow_idle(workflow_id) and self.channel.pending() == 0
