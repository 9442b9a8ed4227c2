"""Durable workflow state in DuckDB: workflows, steps, step results, the event log, decisions,
schedules and the two clocks of every turn.

Idempotent on event ids (a duplicated callback is stored once); events of unknown workflows
are rejected. One process writes a database file at a time (DuckDB's rule).
"""

from __future__ import annotations

import json
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator, Literal

import duckdb

from registry.device_contracts import CompiledWorkflow, DeviceEvent
from registry.errors import InputError, StoreBusyError, UnknownWorkflowError
from registry.runtime_contracts import ScheduleRecord

SEED_MAX = 2**63 - 1
"""Seeds are stored as BIGINT: the largest one a workflow can carry."""

DEFAULT_DB = Path("runs/workflows.duckdb")

_SCHEMA = """
CREATE TABLE IF NOT EXISTS workflows (
  workflow_id VARCHAR PRIMARY KEY, trace_id VARCHAR, kind VARCHAR, text VARCHAR, family VARCHAR,
  status VARCHAR, reason_code VARCHAR, record_json VARCHAR, compiled_json VARCHAR, device_context_json VARCHAR,
  scenario_json VARCHAR, seed BIGINT, submit_tick BIGINT, ack VARCHAR, response VARCHAR,
  created_at TIMESTAMP DEFAULT current_timestamp, updated_at TIMESTAMP DEFAULT current_timestamp, sim_clock_s DOUBLE);
CREATE TABLE IF NOT EXISTS steps (
  workflow_id VARCHAR, step_id VARCHAR, route VARCHAR, execution_target VARCHAR, capability_id VARCHAR,
  task_method VARCHAR, output_key VARCHAR, status VARCHAR, reason_code VARCHAR, terminal_evidence VARCHAR,
  attempt INTEGER, updated_sim_s DOUBLE, PRIMARY KEY (workflow_id, step_id));
CREATE TABLE IF NOT EXISTS step_results (
  workflow_id VARCHAR, step_id VARCHAR, output_key VARCHAR, result_json VARCHAR, PRIMARY KEY (workflow_id, step_id));
CREATE TABLE IF NOT EXISTS events (
  event_id VARCHAR PRIMARY KEY, workflow_id VARCHAR, step_id VARCHAR, event_name VARCHAR, task_method VARCHAR,
  requires_cloud_decision BOOLEAN, reason_code VARCHAR, terminal_evidence VARCHAR, observed_at DOUBLE,
  attempt INTEGER, output_json VARCHAR, received_seq BIGINT);
CREATE TABLE IF NOT EXISTS decisions (
  workflow_id VARCHAR, seq INTEGER, step_id VARCHAR, event_id VARCHAR, reason_code VARCHAR, action VARCHAR,
  reason VARCHAR, PRIMARY KEY (workflow_id, seq));
CREATE TABLE IF NOT EXISTS schedules (
  schedule_id VARCHAR PRIMARY KEY, workflow_id VARCHAR, record_json VARCHAR, status VARCHAR);
CREATE TABLE IF NOT EXISTS schedule_fires (
  schedule_id VARCHAR, fire_clock_s DOUBLE, workflow_id VARCHAR, PRIMARY KEY (schedule_id, fire_clock_s));
CREATE TABLE IF NOT EXISTS turns (
  trace_id VARCHAR PRIMARY KEY, workflow_id VARCHAR, first_response_ms DOUBLE, completion_sim_s DOUBLE);
CREATE TABLE IF NOT EXISTS extensions (
  workflow_id VARCHAR, seq INTEGER, compiled_json VARCHAR, PRIMARY KEY (workflow_id, seq));
CREATE TABLE IF NOT EXISTS device_commands (
  device_id VARCHAR, seq BIGINT, workflow_id VARCHAR, command_json VARCHAR, PRIMARY KEY (device_id, seq));
"""


ScheduleStatus = Literal["active", "fired", "expired", "cancelled"]


@dataclass(frozen=True)
class ScheduleState:
    """A stored schedule and what has become of it."""

    schedule: ScheduleRecord
    status: ScheduleStatus
    """Derived from what happened since it was stored (`schedule_status`), not the status stored at creation."""
    fires: int
    """How many times it went off: the schedule clock's fires (a timer: once, in the run that set it)."""


def schedule_status(schedule: ScheduleRecord, fires: int, run_status: str | None, run_clock_s: float | None) -> ScheduleStatus:
    """What a schedule is now.

    A timer counts down on the simulated clock of the run that set it: fired once that run's clock reached
    created + duration, expired when the run ended before (no later clock counts it down). A one-shot that
    the schedule clock fired is fired. A repeating schedule stays active; a cancelled one is cancelled.
    """
    if schedule.status == "cancelled":
        return "cancelled"
    if schedule.kind == "timer":
        if run_clock_s is not None and run_clock_s >= schedule.created_clock_s + (schedule.duration_s or 0):
            return "fired"
        return "expired" if run_status not in (None, "running") else "active"
    return "fired" if fires and not schedule.repeat_days else "active"


class WorkflowStore:
    def __init__(self, path: Path | str = ":memory:"):
        self.path = str(path)
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        try:
            self.con = duckdb.connect(self.path)
        except duckdb.IOException as exc:
            raise StoreBusyError(f"cannot open {self.path}: {exc}") from None
        self.con.execute(_SCHEMA)
        self._known: set[str] = set()
        self._tx_open: bool | None = None
        """None: no transaction wanted; False: wanted, not begun; True: begun."""
        self._event_ids: dict[str, set[str]] = {}
        self._result_keys: dict[str, set[str]] = {}
        self._seq = self.con.execute("SELECT coalesce(max(received_seq), 0) FROM events").fetchone()[0]

    def close(self) -> None:
        self.con.close()

    @contextmanager
    def transaction(self) -> Iterator[None]:
        """One commit for a batch of writes (a tick's callbacks); BEGIN is sent only at the first write,
        so a tick with nothing to store costs nothing. Nested uses join the outer one."""
        if self._tx_open is not None:
            yield
            return
        self._tx_open = False
        try:
            yield
        except BaseException:
            if self._tx_open:
                self.con.execute("ROLLBACK")
            raise
        else:
            if self._tx_open:
                self.con.execute("COMMIT")
        finally:
            self._tx_open = None

    def _write(self, sql: str, params: list[Any] | None = None) -> duckdb.DuckDBPyConnection:
        if self._tx_open is False:
            self.con.execute("BEGIN")
            self._tx_open = True
        return self.con.execute(sql, params or [])

    # -- workflows --------------------------------------------------------------------------

    def create_workflow(self, compiled: CompiledWorkflow, kind: str, text: str, record_json: str | None,
                        device_context: dict[str, Any], scenario_json: str, seed: int, submit_tick: int, ack: str | None) -> None:
        if self.has_workflow(compiled.workflow_id):
            raise InputError(f"workflow {compiled.workflow_id} already exists")
        with self.transaction():
            self._insert_workflow(compiled, kind, text, record_json, device_context, scenario_json, seed, submit_tick, ack)
        self._known.add(compiled.workflow_id)

    def _insert_workflow(self, compiled: CompiledWorkflow, kind: str, text: str, record_json: str | None,
                         device_context: dict[str, Any], scenario_json: str, seed: int, submit_tick: int, ack: str | None) -> None:
        self._write(
            "INSERT INTO workflows (workflow_id, trace_id, kind, text, family, status, record_json, compiled_json,"
            " device_context_json, scenario_json, seed, submit_tick, ack) VALUES (?, ?, ?, ?, ?, 'running', ?, ?, ?, ?, ?, ?, ?)",
            [compiled.workflow_id, compiled.trace_id, kind, text, compiled.family, record_json, compiled.model_dump_json(),
             json.dumps(device_context, ensure_ascii=False), scenario_json, seed, submit_tick, ack],
        )
        self.add_steps(compiled)

    def add_steps(self, compiled: CompiledWorkflow) -> None:
        """A workflow's steps (again for the steps a replan appends; the compiler refuses reused ids)."""
        for s in compiled.steps:
            self._write(
                "INSERT INTO steps VALUES (?, ?, ?, ?, ?, ?, ?, 'pending', NULL, NULL, 0, NULL)",
                [compiled.workflow_id, s.step_id, s.route, s.execution_target, s.capability_id,
                 s.device_task.taskMethod if s.device_task else None, s.output_key],
            )

    def add_extension(self, extension: CompiledWorkflow) -> None:
        """The steps a replan appended to a workflow, as compiled (a service that restarts takes the workflow over with them)."""
        seq = self.con.execute("SELECT count(*) + 1 FROM extensions WHERE workflow_id = ?", [extension.workflow_id]).fetchone()[0]
        self._write("INSERT INTO extensions VALUES (?, ?, ?)", [extension.workflow_id, seq, extension.model_dump_json()])

    def compiled(self, workflow_id: str) -> tuple[CompiledWorkflow, set[str]]:
        """A workflow as compiled, with the steps replans appended to it, and the ids of those appended steps."""
        compiled = CompiledWorkflow.model_validate_json(self.workflow(workflow_id)["compiled_json"])
        rows = self.con.execute("SELECT compiled_json FROM extensions WHERE workflow_id = ? ORDER BY seq", [workflow_id]).fetchall()
        added = [s for r in rows for s in CompiledWorkflow.model_validate_json(r[0]).steps]
        return compiled.model_copy(update={"steps": [*compiled.steps, *added]}), {s.step_id for s in added}

    def has_workflow(self, workflow_id: str) -> bool:
        if workflow_id in self._known:
            return True
        found = self.con.execute("SELECT 1 FROM workflows WHERE workflow_id = ?", [workflow_id]).fetchone() is not None
        if found:
            self._known.add(workflow_id)
        return found

    def workflow(self, workflow_id: str) -> dict[str, Any]:
        cur = self.con.execute("SELECT * FROM workflows WHERE workflow_id = ?", [workflow_id])
        row = cur.fetchone()
        if row is None:
            raise UnknownWorkflowError(f"unknown workflow id {workflow_id!r} (see `a2a workflows list`)")
        return dict(zip([d[0] for d in cur.description], row))

    def finish_workflow(self, workflow_id: str, status: str, reason_code: str | None, response: str, sim_clock_s: float) -> None:
        self._write(
            "UPDATE workflows SET status = ?, reason_code = ?, response = ?, sim_clock_s = ?, updated_at = current_timestamp"
            " WHERE workflow_id = ?", [status, reason_code, response, sim_clock_s, workflow_id])

    def list_workflows(self, limit: int = 50, status: str | None = None) -> list[dict[str, Any]]:
        sql = "SELECT workflow_id, trace_id, kind, family, status, reason_code, text, created_at FROM workflows"
        params: list[Any] = []
        if status:
            sql += " WHERE status = ?"
            params.append(status)
        cur = self.con.execute(sql + " ORDER BY created_at DESC, workflow_id LIMIT ?", [*params, limit])
        return [dict(zip([d[0] for d in cur.description], r)) for r in cur.fetchall()]

    # -- steps and results ----------------------------------------------------------------

    def update_step(self, workflow_id: str, step_id: str, status: str, reason_code: str | None,
                    terminal_evidence: str | None, attempt: int, sim_s: float) -> None:
        self._write(
            "UPDATE steps SET status = ?, reason_code = ?, terminal_evidence = ?, attempt = ?, updated_sim_s = ?"
            " WHERE workflow_id = ? AND step_id = ?", [status, reason_code, terminal_evidence, attempt, sim_s, workflow_id, step_id])

    def steps(self, workflow_id: str) -> list[dict[str, Any]]:
        cur = self.con.execute("SELECT * FROM steps WHERE workflow_id = ?", [workflow_id])
        return [dict(zip([d[0] for d in cur.description], r)) for r in cur.fetchall()]

    def save_result(self, workflow_id: str, step_id: str, output_key: str, result: dict[str, Any]) -> None:
        text = json.dumps(result, ensure_ascii=False)
        keys = self._result_keys.get(workflow_id)
        if keys is None:
            rows = self.con.execute("SELECT step_id FROM step_results WHERE workflow_id = ?", [workflow_id]).fetchall()
            keys = self._result_keys[workflow_id] = {r[0] for r in rows}
        if step_id in keys:  # plain statements: DuckDB's INSERT OR REPLACE costs several times more
            self._write("UPDATE step_results SET output_key = ?, result_json = ? WHERE workflow_id = ? AND step_id = ?",
                        [output_key, text, workflow_id, step_id])
        else:
            self._write("INSERT INTO step_results VALUES (?, ?, ?, ?)", [workflow_id, step_id, output_key, text])
            keys.add(step_id)

    def results(self, workflow_id: str) -> dict[str, dict[str, Any]]:
        """step_id -> stored result (a resumed workflow reads every earlier result)."""
        rows = self.con.execute("SELECT step_id, result_json FROM step_results WHERE workflow_id = ?", [workflow_id]).fetchall()
        return {step: json.loads(text) for step, text in rows}

    # -- events --------------------------------------------------------------------------------

    def record_event(self, event: DeviceEvent) -> bool:
        """Store a callback; False when its event id was already stored (a duplicate). Unknown workflows are rejected."""
        if not self.has_workflow(event.workflow_id):
            raise UnknownWorkflowError(f"event {event.event_id} names unknown workflow {event.workflow_id!r}")
        if self.has_event(event.workflow_id, event.event_id):  # one read per workflow; then this process is the only writer
            return False
        known = self._event_ids[event.workflow_id]
        self._seq += 1
        try:
            self._insert_event(event)
        except duckdb.ConstraintException:
            raise InputError(f"event_id: {event.event_id!r} is an event of another workflow") from None
        known.add(event.event_id)
        return True

    def _insert_event(self, event: DeviceEvent) -> None:
        self._write(
            "INSERT INTO events VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [event.event_id, event.workflow_id, event.step_id, event.event_name, event.task_method, event.requires_cloud_decision,
             event.reason_code, event.terminal_evidence, event.observed_at, event.attempt,
             json.dumps(event.output, ensure_ascii=False), self._seq],
        )

    def has_event(self, workflow_id: str, event_id: str) -> bool:
        """The callback is stored (one read per workflow, as record_event keeps them)."""
        known = self._event_ids.get(workflow_id)
        if known is None:
            rows = self.con.execute("SELECT event_id FROM events WHERE workflow_id = ?", [workflow_id]).fetchall()
            known = self._event_ids[workflow_id] = {r[0] for r in rows}
        return event_id in known

    def stored_event_name(self, event_id: str) -> str | None:
        row = self.con.execute("SELECT event_name FROM events WHERE event_id = ?", [event_id]).fetchone()
        return row[0] if row else None

    def events(self, workflow_id: str) -> list[dict[str, Any]]:
        cur = self.con.execute("SELECT * FROM events WHERE workflow_id = ? ORDER BY received_seq", [workflow_id])
        return [dict(zip([d[0] for d in cur.description], r)) for r in cur.fetchall()]

    # -- commands to robot processes (`a2a device`) ---------------------------------------------

    def add_device_command(self, device_id: str, seq: int, workflow_id: str, command: dict[str, Any]) -> None:
        """Store a robot's command number `seq` (the next after last_device_command; in the caller's transaction)."""
        self._write("INSERT INTO device_commands VALUES (?, ?, ?, ?)",
                    [device_id, seq, workflow_id, json.dumps({**command, "seq": seq}, ensure_ascii=False)])

    def last_device_command(self, device_id: str) -> int:
        return int(self.con.execute("SELECT coalesce(max(seq), 0) FROM device_commands WHERE device_id = ?", [device_id]).fetchone()[0])

    def device_commands(self, device_id: str, after: int = 0) -> list[dict[str, Any]]:
        """A robot's commands with a sequence number above `after`, in order."""
        rows = self.con.execute("SELECT command_json FROM device_commands WHERE device_id = ? AND seq > ? ORDER BY seq",
                                [device_id, after]).fetchall()
        return [json.loads(r[0]) for r in rows]

    def remote_workflows(self) -> dict[str, tuple[str, int]]:
        """workflow id -> (the robot it was submitted to, its last command's number), for every workflow a robot runs."""
        rows = self.con.execute("SELECT workflow_id, device_id, max(seq) FROM device_commands GROUP BY workflow_id, device_id").fetchall()
        return {wf: (dev, int(seq)) for wf, dev, seq in rows}

    # -- decisions, turns, schedules -------------------------------------------------------

    def record_decision(self, workflow_id: str, step_id: str, event_id: str | None, reason_code: str | None, action: str, reason: str) -> None:
        seq = self.con.execute("SELECT count(*) FROM decisions WHERE workflow_id = ?", [workflow_id]).fetchone()[0] + 1
        self._write("INSERT INTO decisions VALUES (?, ?, ?, ?, ?, ?, ?)", [workflow_id, seq, step_id, event_id, reason_code, action, reason])

    def decisions_for(self, workflow_id: str, step_id: str, event_id: str | None) -> bool:
        """A decision on this step and event was already taken (a resumed run does not take it twice)."""
        return self.con.execute(
            "SELECT 1 FROM decisions WHERE workflow_id = ? AND step_id = ? AND event_id IS NOT DISTINCT FROM ?",
            [workflow_id, step_id, event_id]).fetchone() is not None

    def decisions(self, workflow_id: str) -> list[dict[str, Any]]:
        cur = self.con.execute("SELECT * FROM decisions WHERE workflow_id = ? ORDER BY seq", [workflow_id])
        return [dict(zip([d[0] for d in cur.description], r)) for r in cur.fetchall()]

    def record_turn(self, trace_id: str, workflow_id: str, first_response_ms: float | None, completion_sim_s: float | None) -> None:
        """The two clocks of a turn; a resumed run keeps the first response time it had."""
        self._write(
            "INSERT INTO turns VALUES (?, ?, ?, ?) ON CONFLICT (trace_id) DO UPDATE SET completion_sim_s = excluded.completion_sim_s,"
            " first_response_ms = coalesce(turns.first_response_ms, excluded.first_response_ms)",
            [trace_id, workflow_id, first_response_ms, completion_sim_s])

    def turn(self, trace_id: str) -> dict[str, Any] | None:
        cur = self.con.execute("SELECT * FROM turns WHERE trace_id = ?", [trace_id])
        row = cur.fetchone()
        return dict(zip([d[0] for d in cur.description], row)) if row else None

    def save_schedule(self, schedule: ScheduleRecord) -> None:
        self._write("INSERT OR REPLACE INTO schedules VALUES (?, ?, ?, ?)",
                         [schedule.schedule_id, schedule.workflow_id, schedule.model_dump_json(), schedule.status])

    def cancel_schedules(self, schedule_ids: list[str]) -> None:
        for sid in schedule_ids:
            row = self.con.execute("SELECT record_json FROM schedules WHERE schedule_id = ?", [sid]).fetchone()
            if row:
                record = ScheduleRecord.model_validate_json(row[0]).model_copy(update={"status": "cancelled"})
                self.save_schedule(record)

    def schedules(self, active_only: bool = True) -> list[ScheduleRecord]:
        sql = "SELECT record_json FROM schedules" + (" WHERE status = 'active'" if active_only else "") + " ORDER BY schedule_id"
        return [ScheduleRecord.model_validate_json(r[0]) for r in self.con.execute(sql).fetchall()]

    def schedule_states(self, include_cancelled: bool = False) -> list[ScheduleState]:
        """Every schedule (cancelled ones only when asked) with its derived status and fire count."""
        fires = dict(self.con.execute("SELECT schedule_id, count(*) FROM schedule_fires GROUP BY schedule_id").fetchall())
        runs = {w: (status, clock) for w, status, clock in self.con.execute(
            "SELECT w.workflow_id, w.status, w.sim_clock_s FROM workflows w JOIN schedules s ON s.workflow_id = w.workflow_id").fetchall()}
        states = []
        for schedule in self.schedules(active_only=False):
            run_status, clock = runs.get(schedule.workflow_id, (None, None))
            fired = fires.get(schedule.schedule_id, 0)
            status = schedule_status(schedule, fired, run_status, clock)
            state = ScheduleState(schedule, status, max(fired, 1) if schedule.kind == "timer" and status == "fired" else fired)
            if include_cancelled or state.status != "cancelled":
                states.append(state)
        return states

    def record_fire(self, schedule_id: str, fire_clock_s: float, workflow_id: str) -> bool:
        return bool(self._write("INSERT OR IGNORE INTO schedule_fires VALUES (?, ?, ?) RETURNING schedule_id",
                                     [schedule_id, fire_clock_s, workflow_id]).fetchall())
