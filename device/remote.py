"""`a2a device`: the robot as a process of its own, talking to the cloud service over HTTP.

It runs the simulator's TaskManager (the same robot `a2a run` simulates in process) and:
- takes its commands from the service: a long poll while it has nothing to do, and the reply to every
  callback and heartbeat while it works; each command is applied once, in sequence order (the cursor it
  reports is the last one applied), so a repeated reply or a restarted service never applies one twice;
- posts every TaskManager callback to POST /v1/workflows/{id}/events with at-least-once delivery: a
  callback that gets no reply is retried with exponential backoff until the service takes it (the service is
  idempotent on event ids); one the service refuses (4xx) is logged and never retried;
- sends a heartbeat (its tick, clock, state, busy workflows) every few ticks and whenever it goes idle.

Wire faults, on top of the scenario's robot faults: a scenario's `callback_lost` loses the first delivery of
that callback (at-least-once delivery turns a lost callback into a late one), `callback_duplicated` posts it
several times, `callbacks_out_of_order` holds each callback a random number of ticks; `WireFaults` adds the same
three at random rates, and a lost delivery is, at random, the request or the reply (applied by the service,
but the robot never hears so and posts it again).

With `pace` 0 the robot ticks as fast as it can while it has work, and holds its clock while a callback waits to
be retried (a service that cannot hear it must not see its tasks run past their time); with `pace` > 0 it
ticks in real time (`pace` simulated seconds a wall second) whatever the network does.

This is the robot side: it imports the simulator and the registry contracts, never the planner.
"""

from __future__ import annotations

import logging
import random
import threading
import time
import uuid
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Callable

import httpx
from pydantic import ValidationError

from device.scenario import CallbackDuplicated, CallbackLost, CallbacksOutOfOrder, Scenario
from device.session import DeviceSession
from device.world import STATE_FIELDS
from registry.contracts import DeviceContext
from registry.device_contracts import (
    TERMINAL_STEP_STATUSES,
    CommandBatch,
    DeviceCallback,
    DeviceCommand,
    DeviceEvent,
    DeviceReport,
    WorkflowSubmission,
)
from registry.errors import InputError
from registry.loader import Registry

LOG = logging.getLogger("a2a.device")
REPORT_EVERY_TICKS = 5
POLL_WAIT_S = 20.0
BACKOFF_FIRST_S = 0.05
BACKOFF_MAX_S = 1.0


@dataclass(frozen=True)
class WireFaults:
    """Random faults on the wire, each a share of callbacks: lost (the request or the reply), sent twice, held back."""

    lost: float = 0.0
    duplicated: float = 0.0
    delayed: float = 0.0
    delay_ticks: int = 5
    seed: int = 0


@dataclass
class _Outgoing:
    event: DeviceEvent
    due_tick: int
    copies: int = 1
    lose_first: str | None = None
    """'request' or 'reply': how its first delivery is lost."""
    attempts: int = 0
    retry_at: float = 0.0


@dataclass
class WireStats:
    posted: int = 0
    delivered: int = 0
    retried: int = 0
    refused: int = 0
    lost_on_wire: int = 0
    duplicated_on_wire: int = 0
    delayed_on_wire: int = 0
    commands: int = 0
    heartbeats: int = 0
    refusals: list[str] = field(default_factory=list)


class RobotProcess:
    """One robot: a device session, its outbox of callbacks, and the cursor of the commands it applied."""

    def __init__(self, cloud: str, device_id: str, registry: Registry, context: DeviceContext | None = None,
                 scenario: Scenario | None = None, seed: int = 0, pace: float = 0.0, token: str | None = None,
                 faults: WireFaults | None = None, client: httpx.Client | None = None, poll_wait_s: float = POLL_WAIT_S):
        self.device_id = device_id
        self.poll_wait_s = poll_wait_s
        """How long one long poll waits for a command (a stop request waits at most this long)."""
        self.session = DeviceSession(registry, context, scenario, seed)
        scenario = self.session.scenario
        self.pace = pace
        self.faults = faults or WireFaults()
        self.rng = random.Random(f"wire-{device_id}-{self.faults.seed}")
        self.lost = {(f.task_method, f.event_name) for f in scenario.faults_of(CallbackLost)}
        self.copies = scenario.faults_of(CallbackDuplicated)
        self.window = max((f.window_ticks for f in scenario.faults_of(CallbacksOutOfOrder)), default=0)
        headers = {"authorization": f"Bearer {token}"} if token else {}
        self.http = client or httpx.Client(base_url=cloud.rstrip("/"), headers=headers, timeout=httpx.Timeout(5.0))
        self.applied_seq = 0
        self.boot = uuid.uuid4().hex
        """This process's id in its heartbeats: a restarted robot counts its ticks from 0 again."""
        self.outbox: list[_Outgoing] = []
        self.stats = WireStats()
        self.starts: Counter[tuple[str, str, int]] = Counter()
        """(workflow, step, attempt) -> how many times the robot started it (an effect applied twice shows here)."""
        self.stop = threading.Event()
        self.on_connected: Callable[[], None] | None = None
        """Called once, after the service first answered a heartbeat (the robot can take turns from then on)."""

    # -- the loop ------------------------------------------------------------------------------

    def run(self, until: float | None = None) -> None:
        """Work until stopped (or until the wall-clock deadline `until`)."""
        self._heartbeat()
        last_report = self.tick
        while not self.stop.is_set() and (until is None or time.monotonic() < until):
            started = time.monotonic()
            if self._should_tick():
                self._queue(self.session.tasks.tick())
            self._flush()
            idle = not self.busy_workflows()
            if self.tick - last_report >= REPORT_EVERY_TICKS or idle:
                self._heartbeat()
                last_report = self.tick
            if idle and not self.pace and not self.busy_workflows():  # the heartbeat's reply may have brought work
                self._poll(self.poll_wait_s if until is None else max(0.0, min(self.poll_wait_s, until - time.monotonic())))
            elif self.pace:  # real time: commands come with the heartbeats and callback replies
                time.sleep(max(0.0, 1.0 / self.pace - (time.monotonic() - started)))
            elif self._waiting_retry():  # the clock is held: sleep until the first retry falls due
                time.sleep(min(0.05, max(0.001, min(o.retry_at for o in self.outbox if o.attempts) - time.monotonic())))

    @property
    def tick(self) -> int:
        return self.session.tick_count

    def busy_workflows(self) -> set[str]:
        tasks = self.session.tasks
        busy = {t.request.cloud_workflow_id for t in tasks.order if t.status not in TERMINAL_STEP_STATUSES}
        return busy | {o.event.workflow_id for o in self.outbox}

    def _should_tick(self) -> bool:
        if self.pace:
            return True
        tasks = self.session.tasks
        working = any(t.status not in TERMINAL_STEP_STATUSES for t in tasks.order) or any(o.due_tick > self.tick for o in self.outbox)
        return working and not self._waiting_retry()

    def _waiting_retry(self) -> bool:
        return any(o.attempts for o in self.outbox)

    # -- commands ------------------------------------------------------------------------------

    def apply(self, commands: list[DeviceCommand]) -> None:
        """Apply each command after the cursor, in order; an unknown or repeated one changes nothing."""
        tasks = self.session.tasks
        for cmd in sorted(commands, key=lambda c: c.seq):
            if cmd.seq <= self.applied_seq:
                continue
            self.applied_seq = cmd.seq
            self.stats.commands += 1
            try:
                if cmd.kind == "submit" and cmd.submission is not None:
                    self._queue(tasks.submit(WorkflowSubmission.model_validate(cmd.submission)))
                elif cmd.kind == "cancel":
                    self._queue(tasks.cancel(cmd.workflow_id, cmd.step_id, reason_code=cmd.reason_code or "cancelled_by_cloud"))
                elif cmd.kind == "retry" and cmd.step_id:
                    self._queue(tasks.retry(cmd.workflow_id, cmd.step_id))
                elif cmd.kind == "notify_step" and cmd.step_id:
                    tasks.notify_step(cmd.workflow_id, cmd.step_id, cmd.status or "completed", cmd.output)
            except InputError as exc:  # a sub-task submitted twice: the robot already has it
                LOG.warning("command %s (%s) not applied: %s", cmd.seq, cmd.kind, exc)

    def _poll(self, wait: float) -> None:
        try:
            reply = self.http.get(f"/v1/devices/{self.device_id}/commands", params={"after": self.applied_seq, "wait": wait},
                                  timeout=wait + 5.0)
            if reply.status_code == 200:
                self.apply(CommandBatch.model_validate_json(reply.content).commands)
            else:
                time.sleep(0.05)
        except (httpx.HTTPError, ValidationError):
            time.sleep(0.05)

    def report(self) -> DeviceReport:
        world = self.session.sim.world
        state = {name: world.state_value(name) for name in sorted(STATE_FIELDS)}
        return DeviceReport(boot=self.boot, tick=world.tick, clock_s=float(world.clock_s), applied_seq=self.applied_seq,
                            state={k: v for k, v in state.items() if v is not None},
                            pm25_by_room={k: float(v) for k, v in world.pm25.items()},
                            running_capabilities=sorted(self.session.tasks.running_capabilities()),
                            busy_workflows=sorted(self.busy_workflows()))

    def _heartbeat(self) -> None:
        try:
            reply = self.http.post(f"/v1/devices/{self.device_id}/heartbeat", content=self.report().model_dump_json(),
                                   headers={"content-type": "application/json"})
            if reply.status_code == 200:
                self.stats.heartbeats += 1
                if self.stats.heartbeats == 1 and self.on_connected is not None:
                    self.on_connected()
                self.apply(CommandBatch.model_validate_json(reply.content).commands)
        except (httpx.HTTPError, ValidationError):
            pass  # the next heartbeat says the same, later

    # -- callbacks on the wire -----------------------------------------------------------------

    def _queue(self, events: list[DeviceEvent]) -> None:
        for event in events:
            if event.event_name == "RUNNING":
                self.starts[(event.workflow_id, event.step_id, event.attempt)] += 1
            out = _Outgoing(event=event, due_tick=self.tick)
            if (event.task_method, event.event_name) in self.lost or self.rng.random() < self.faults.lost:
                out.lose_first = self.rng.choice(("request", "reply"))
            copies = max((f.copies for f in self.copies if f.task_method in (None, event.task_method)), default=1)
            if self.rng.random() < self.faults.duplicated:
                copies = max(copies, 2)
            out.copies = copies
            if self.window:
                out.due_tick += self.rng.randint(0, self.window)
            if self.rng.random() < self.faults.delayed:
                out.due_tick += self.rng.randint(1, self.faults.delay_ticks)
            self.stats.delayed_on_wire += out.due_tick > self.tick
            self.stats.duplicated_on_wire += copies > 1
            self.outbox.append(out)

    def _flush(self) -> None:
        now = time.monotonic()
        for out in [o for o in self.outbox if o.due_tick <= self.tick and o.retry_at <= now]:
            if self._deliver(out):
                self.outbox.remove(out)
            else:
                out.attempts += 1
                self.stats.retried += 1
                out.retry_at = time.monotonic() + min(BACKOFF_MAX_S, BACKOFF_FIRST_S * 2 ** (out.attempts - 1)) * (0.5 + self.rng.random())
                break  # the wire is down: the rest waits too, in order

    def _deliver(self, out: _Outgoing) -> bool:
        """Post one callback (its copies); True once the service has taken it or refused it for good."""
        body = DeviceCallback(**out.event.model_dump(), device_id=self.device_id, report=self.report()).model_dump_json()
        lose, out.lose_first = out.lose_first, None
        if lose == "request":
            self.stats.lost_on_wire += 1
            return False
        taken = False
        for _ in range(out.copies):
            try:
                self.stats.posted += 1
                reply = self.http.post(f"/v1/workflows/{out.event.workflow_id}/events", content=body,
                                       headers={"content-type": "application/json"})
            except httpx.HTTPError:
                break
            if reply.status_code == 200:
                if lose == "reply":
                    self.stats.lost_on_wire += 1
                    return False
                self.apply(CommandBatch.model_validate_json(reply.content).commands)
                taken = True
            elif 400 <= reply.status_code < 500 and reply.status_code not in (401, 408, 429):
                self.stats.refused += 1
                self.stats.refusals.append(f"{out.event.event_id}: {reply.status_code} {reply.text[:200]}")
                LOG.warning("callback %s refused: %s", out.event.event_id, reply.text[:200])
                return True
            else:
                break
        out.copies = 1
        self.stats.delivered += taken
        return taken

    def summary(self) -> dict[str, Any]:
        """What the robot did: task starts (an effect applied twice has a count above 1), final task states, wire figures."""
        tasks = self.session.tasks
        return {"device_id": self.device_id, "tick": self.tick, "applied_seq": self.applied_seq,
                "tasks": {f"{t.request.cloud_workflow_id}:{t.request.cloud_step_id}": {"status": t.status, "evidence": t.evidence,
                                                                                        "attempt": t.attempt}
                          for t in tasks.order},
                "started_twice": [":".join(map(str, k)) for k, n in self.starts.items() if n > 1],
                "undelivered": len(self.outbox), "wire": {k: v for k, v in vars(self.stats).items() if k != "refusals"},
                "refusals": self.stats.refusals[:20]}
