"""The callback transport from the robot to the cloud, with the scenario's transport faults:
lost callbacks, duplicated callbacks (same event id) and out-of-order delivery."""

from __future__ import annotations

import heapq
import random

from device.scenario import CallbackDuplicated, CallbackLost, CallbacksOutOfOrder, Scenario
from registry.device_contracts import DeviceEvent


class CallbackChannel:
    def __init__(self, scenario: Scenario, seed: int = 0):
        self.rng = random.Random(f"channel-{seed}")
        self.lost = {(f.task_method, f.event_name) for f in scenario.faults_of(CallbackLost)}
        self.duplicated = scenario.faults_of(CallbackDuplicated)
        shuffles = scenario.faults_of(CallbacksOutOfOrder)
        self.window = max((f.window_ticks for f in shuffles), default=0)
        self._queue: list[tuple[int, float, int, DeviceEvent]] = []
        self._n = 0
        self.dropped: list[DeviceEvent] = []

    @property
    def faulty(self) -> bool:
        return bool(self.lost or self.duplicated or self.window)

    def send(self, events: list[DeviceEvent], tick: int) -> None:
        for event in events:
            if (event.task_method, event.event_name) in self.lost:
                self.dropped.append(event)
                continue
            copies = max((f.copies for f in self.duplicated if f.task_method in (None, event.task_method)), default=1)
            for _ in range(copies):
                due = tick + (self.rng.randint(0, self.window) if self.window else 0)
                self._n += 1
                heapq.heappush(self._queue, (due, self.rng.random() if self.window else 0.0, self._n, event))

    def deliver(self, tick: int) -> list[DeviceEvent]:
        out = []
        while self._queue and self._queue[0][0] <= tick:
            out.append(heapq.heappop(self._queue)[3])
        return out

    def pending(self) -> int:
        return len(self._queue)

    def transfer(self, events: list[DeviceEvent], tick: int) -> list[DeviceEvent]:
        """Send and deliver in one step (the fast path when the channel has no faults)."""
        if not self.faulty:
            return events
        self.send(events, tick)
        return self.deliver(tick)
