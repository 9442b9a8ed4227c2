"""`a2a serve`: the cloud side as an HTTP service (FastAPI; OpenAPI from the pydantic contracts at /openapi.json).

One warm TurnRunner and one workflow store per process. Routing and the store are not safe for concurrent
use, so requests are served one at a time behind a lock (a turn takes a few milliseconds); a slow model call
holds the lock for its duration. Every request gets a trace id (the `x-trace-id` header, or a new one) and one
structured log line; bodies over 256 KB are refused with 413; malformed bodies are 400, invalid fields 422
with the field named; bad input is never a 500.

It serves turns, product questions, structured tasks, stored workflows and batch runs. With `execute: true`
a turn runs on this process's simulated robot, or, with a `device_id`, is submitted to that robot process
(`a2a device`, device/remote.py) and runs there: the robot takes its commands by long poll
(GET /v1/devices/{id}/commands), posts callbacks (POST /v1/workflows/{id}/events) and heartbeats, and every
reply carries the commands it has not applied yet (dataflow/runtime/remote.py).

Why a long poll: the robot is behind NAT and a flaky network, so it dials out; a long poll is plain
request/response, which retries, times out and passes proxies like any request, and its cursor (the last
command the robot applied) makes redelivery exact after a lost reply or a restart. SSE or a WebSocket would add a
stream to keep alive and resume for the same guarantee.
"""

from __future__ import annotations

import asyncio
import json
import logging
import threading
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import anyio
from fastapi import FastAPI, Path as PathParam, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field

from dataflow.rows import turn_from_row
from dataflow.runtime.console import add_console_routes
from dataflow.runtime.loop import Runtime
from dataflow.runtime.remote import DeviceHub
from dataflow.runtime.store import UnknownWorkflowError
from registry.contracts import TurnInput
from registry.device_contracts import CommandBatch, DeviceCallback, DeviceReport
from registry.record_contracts import DecisionRecord
from registry.errors import A2AError, InputError

MAX_BODY_BYTES = 256 * 1024
LOG = logging.getLogger("a2a.service")


class TurnRequest(BaseModel):
    """POST /v1/turns."""

    model_config = ConfigDict(extra="forbid")
    text: str = Field(min_length=1, max_length=2000)
    voice_context: dict[str, Any] | None = None
    device_context: dict[str, Any] | None = None
    execute: bool = False
    """Run the plan on the simulated robot and add workflow_id and the run report."""
    device_id: str | None = Field(None, pattern=r"^[A-Za-z0-9_.-]{1,64}$")
    """A robot process (`a2a device`): the turn is planned on the state it reported, and with execute runs there."""


class AskRequest(BaseModel):
    """POST /v1/ask."""

    model_config = ConfigDict(extra="forbid")
    text: str = Field(min_length=1, max_length=2000)


class TaskRequest(BaseModel):
    """POST /v1/tasks (path A): a structured request and optional device context overrides."""

    model_config = ConfigDict(extra="forbid")
    request: dict[str, Any]
    device_context: dict[str, Any] | None = None


class TurnReply(DecisionRecord):
    """The decision record, plus the run when the turn was executed."""

    workflow_id: str | None = None
    run: dict[str, Any] | None = None


@dataclass
class ServiceState:
    """What the service holds: the warm runner, the workflow store, the knowledge store, the runs folder."""

    runner: Any
    store: Any
    knowledge: Any = None
    runs_dir: Path = Path("runs")
    token: str | None = None
    lock: threading.Lock = field(default_factory=threading.Lock)
    runtime: Any = None
    """One Runtime for the process (its supervisor holds every workflow's decision ledger)."""
    hub: Any = None
    """The robot processes (`a2a device`) and the workflows each runs."""
    waiters: dict[str, list[tuple[asyncio.AbstractEventLoop, asyncio.Event]]] = field(default_factory=dict)

    def wake(self, device_id: str) -> None:
        """A command for a robot was stored: wake its long polls."""
        for loop, event in list(self.waiters.get(device_id, [])):
            loop.call_soon_threadsafe(event.set)


def _runs(runs_dir: Path) -> list[dict[str, Any]]:
    """Batch runs on disk: every folder under runs_dir with a metrics.json, newest first."""
    out = []
    for metrics in sorted(runs_dir.glob("*/metrics.json"), key=lambda p: p.stat().st_mtime, reverse=True):
        try:
            data = json.loads(metrics.read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError):
            continue
        out.append({"run": metrics.parent.name, "set": data.get("set"), "rows": data.get("rows"), "errors": data.get("errors"),
                    "family_accuracy": data.get("family_accuracy"), "action_exact_match": data.get("action_exact_match"),
                    "false_actions": data.get("false_actions")})
    return out


def create_app(state: ServiceState) -> FastAPI:
    app = FastAPI(title="a2a-planner", version="0.1.0",
                  description="Routes Korean voice turns for the air-purifier robot and runs their plans (issue 12).")
    if state.runtime is None:
        state.runtime = Runtime(state.store, state.runner)
    if state.hub is None:
        state.hub = DeviceHub(state.runtime, on_command=state.wake)
        with state.lock:
            state.hub.recover()
    _install_envelope(app, state)
    _install_error_handlers(app)
    _add_turn_routes(app, state)
    _add_device_routes(app, state)
    _add_other_routes(app, state)
    add_console_routes(app, state)
    return app


def _error(status: int, message: str, trace_id: str, **extra: Any) -> JSONResponse:
    return JSONResponse({"error": message, "trace_id": trace_id, **extra}, status_code=status, headers={"x-trace-id": trace_id})


def _install_envelope(app: FastAPI, state: ServiceState) -> None:
    """Trace id, body size limit, bearer token, and one structured log line per request."""
    @app.middleware("http")
    async def envelope(request: Request, call_next):
        trace_id = request.headers.get("x-trace-id") or uuid.uuid4().hex
        request.state.trace_id = trace_id
        started = time.perf_counter()
        status = 500
        try:
            size = request.headers.get("content-length")
            if size is not None and (not size.isdigit() or int(size) > MAX_BODY_BYTES):
                response = _error(413, f"the body is over {MAX_BODY_BYTES // 1024} KB", trace_id)
            elif state.token and request.url.path.startswith("/v1/") and request.headers.get("authorization") != f"Bearer {state.token}":
                response = _error(401, "a bearer token is required (Authorization: Bearer TOKEN)", trace_id)
            else:
                body = await request.body()
                if len(body) > MAX_BODY_BYTES:
                    response = _error(413, f"the body is over {MAX_BODY_BYTES // 1024} KB", trace_id)
                else:
                    response = await call_next(request)
                    response.headers["x-trace-id"] = trace_id
            status = response.status_code
            return response
        finally:
            LOG.info(json.dumps({"trace_id": trace_id, "method": request.method, "path": request.url.path, "status": status,
                                 "ms": round((time.perf_counter() - started) * 1000, 2)}))


def _install_error_handlers(app: FastAPI) -> None:
    """Malformed bodies are 400/422 with the field named; refused domain input is 422, an unknown workflow 404."""
    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, exc: RequestValidationError):
        first = exc.errors()[0] if exc.errors() else {"loc": (), "msg": "invalid request"}
        if first.get("type") == "json_invalid":
            return _error(400, f"the body is not valid JSON: {first.get('ctx', {}).get('error', first['msg'])}", request.state.trace_id)
        where = ".".join(str(p) for p in first["loc"] if p != "body")
        return _error(422, f"{where or 'body'}: {first['msg']}", request.state.trace_id, field=where or None)

    @app.exception_handler(A2AError)
    async def refused(request: Request, exc: A2AError):
        status = 404 if isinstance(exc, UnknownWorkflowError) else 422
        return _error(status, str(exc), request.state.trace_id)


def _add_turn_routes(app: FastAPI, state: ServiceState) -> None:
    """POST /v1/turns (route, or route and execute on the in-process robot) and GET /v1/workflows/{id}."""
    @app.post("/v1/turns", response_model=TurnReply, response_model_exclude_none=False)
    def turns(body: TurnRequest, request: Request) -> TurnReply:
        trace_id = request.state.trace_id
        with state.lock:
            context = body.device_context
            if body.device_id is not None:  # planned on the state that robot reported, the caller's fields on top
                context = state.hub.link(body.device_id).device_context(body.device_context)
            row = {"text": body.text, "voice_context": body.voice_context, "device_context": context}
            try:
                turn = turn_from_row(row, state.runner.registry)
            except ValueError as exc:  # the text itself (a lone surrogate)
                raise InputError(f"text: {exc}") from None
            if not body.execute:
                record = state.runner.route(turn, trace_id=trace_id)
                return TurnReply(**record.model_dump())
            if body.device_id is not None:
                record, run = state.hub.submit_turn(body.device_id, body.text, body.device_context, body.voice_context, trace_id)
                report = state.runtime.stored_report(run.workflow_id)
                return TurnReply(**record.model_dump(), workflow_id=run.workflow_id, run=report.cli_json())
            report = state.runtime.run_text(body.text, body.device_context, voice_context=body.voice_context, trace_id=trace_id)
            record = DecisionRecord.model_validate_json(state.store.workflow(report.workflow_id)["record_json"])
        return TurnReply(**record.model_dump(), workflow_id=report.workflow_id, run=report.cli_json())

    @app.get("/v1/workflows/{workflow_id}")
    def workflow(workflow_id: str) -> dict[str, Any]:
        with state.lock:
            report = state.runtime.stored_report(workflow_id)
            events = [{k: v for k, v in e.items() if k != "received_seq"} for e in state.store.events(workflow_id)]
            decisions = state.store.decisions(workflow_id)
        return {**report.cli_json(), "events": events, "decisions": decisions}


DEVICE_ID = PathParam(pattern=r"^[A-Za-z0-9_.-]{1,64}$", description="The robot's id (letters, digits, . _ -).")


def _add_device_routes(app: FastAPI, state: ServiceState) -> None:
    """The robot processes' side: commands by long poll, callbacks, heartbeats (dataflow/runtime/remote.py)."""
    @app.post("/v1/workflows/{workflow_id}/events", response_model=CommandBatch)
    def events(workflow_id: str, body: DeviceCallback) -> CommandBatch:
        """A robot's callback, idempotent by event_id; 422 with the reason when its step or evidence is not the workflow's."""
        with state.lock:
            return state.hub.callback(workflow_id, body)

    @app.post("/v1/devices/{device_id}/heartbeat", response_model=CommandBatch)
    def heartbeat(body: DeviceReport, device_id: str = DEVICE_ID) -> CommandBatch:
        """A robot's clock and state; the reply holds every command after the one it applied last."""
        with state.lock:
            return state.hub.heartbeat(device_id, body)

    @app.get("/v1/devices/{device_id}/commands", response_model=CommandBatch)
    async def commands(device_id: str = DEVICE_ID, after: int = Query(0, ge=0, description="The last command applied."),
                       wait: float = Query(0, ge=0, le=30, description="Seconds to wait for a command (a long poll).")) -> CommandBatch:
        """The robot's commands after `after`; with `wait`, held open until one is stored or the time is up."""
        deadline = time.monotonic() + wait
        loop = asyncio.get_running_loop()

        def pending() -> CommandBatch:
            with state.lock:
                return CommandBatch(commands=state.hub.link(device_id).commands(after))

        while True:
            waiter = (loop, asyncio.Event())
            state.waiters.setdefault(device_id, []).append(waiter)  # before reading: a command stored meanwhile wakes it
            try:
                batch = await anyio.to_thread.run_sync(pending)
                left = deadline - time.monotonic()
                if batch.commands or left <= 0:
                    return batch
                try:
                    await asyncio.wait_for(waiter[1].wait(), timeout=left)
                except asyncio.TimeoutError:
                    pass
            finally:
                state.waiters[device_id].remove(waiter)


def _add_other_routes(app: FastAPI, state: ServiceState) -> None:
    """Health, path A tasks, DQR answers and the batch runs on disk."""
    @app.get("/healthz")
    def healthz() -> dict[str, Any]:
        return {"status": "ok", "registry_version": state.runner.registry.capabilities.registry_version,
                "planner_backend": state.runner.config.planner_backend}

    @app.post("/v1/tasks")
    def tasks(body: TaskRequest) -> dict[str, Any]:
        with state.lock:
            report = state.runtime.run_task(body.request, body.device_context)
        return report.cli_json()

    @app.post("/v1/ask", response_model=DecisionRecord)
    def ask(body: AskRequest, request: Request) -> DecisionRecord:
        with state.lock:
            previous, state.runner.knowledge = state.runner.knowledge, state.knowledge
            try:
                return state.runner.route(TurnInput(recognized_text=body.text), trace_id=request.state.trace_id)
            finally:
                state.runner.knowledge = previous

    @app.get("/v1/runs")
    def runs() -> list[dict[str, Any]]:
        return _runs(state.runs_dir)


def serve(host: str, port: int, state: ServiceState) -> None:
    """Run the service with uvicorn until interrupted."""
    import uvicorn

    logging.basicConfig(level=logging.INFO, format="%(message)s")
    uvicorn.run(create_app(state), host=host, port=port, log_level="warning", timeout_graceful_shutdown=2)  # long polls end with it
