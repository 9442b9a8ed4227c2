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
import re
import threading
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import anyio
from fastapi import FastAPI, Path as PathParam, Query, Request
from fastapi.exceptions import RequestValidationError
from starlette.exceptions import HTTPException as StarletteHTTPException
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel, ConfigDict, Field

from dataflow.runtime.console import add_console_routes
from dataflow.runtime.loop import Runtime
from dataflow.runtime.remote import DeviceHub
from dataflow.runtime.routers import route_json
from dataflow.runtime.store import UnknownWorkflowError
from stages.compilation import workflow_id_for
from registry.contracts import TurnInput
from registry.device_contracts import CommandBatch, DeviceCallback, DeviceReport
from registry.record_contracts import DecisionRecord
from registry.errors import A2AError, InputError

MAX_BODY_BYTES = 256 * 1024
DEVICE_ID_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$"
"""A robot's id: it is a path segment, so never . or .. (a client would fold them away)."""
TRACE_ID = re.compile(r"^[A-Za-z0-9_-]{8,64}$")
"""A client's x-trace-id: it names the turn's workflow, so it is an id, not text."""
LOG = logging.getLogger("a2a.service")


class TurnRequest(BaseModel):
    """POST /v1/turns."""

    model_config = ConfigDict(extra="forbid")
    text: str = Field(min_length=1, max_length=2000)
    voice_context: dict[str, Any] | None = None
    device_context: dict[str, Any] | None = None
    execute: bool = False
    """Run the plan on the simulated robot and add workflow_id and the run report."""
    device_id: str | None = Field(None, pattern=DEVICE_ID_PATTERN)
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
    routers: Any = None
    """Router processes for route-only turns (dataflow/runtime/routers.py), or None: the service routes them itself."""
    waiters: dict[str, list[tuple[asyncio.AbstractEventLoop, asyncio.Event]]] = field(default_factory=dict)

    async def run(self, work):
        """Do `work` under the lock. With the heuristic planner a call is milliseconds of CPU, run on the event loop
        itself (a hop to a worker thread costs 1 ms at the median and 3 at p95 on this machine); with a model backend,
        which waits on the network, in a worker thread so the loop keeps serving."""
        def locked():
            with self.lock:
                return work()

        if self.runner.config.planner_backend == "heuristic":
            return locked()
        return await anyio.to_thread.run_sync(locked)

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
    """Trace id, body size limit, bearer token, and one structured log line per request (a plain ASGI middleware:
    Starlette's @app.middleware costs about a millisecond a request)."""
    app.add_middleware(Envelope, state=state)


class Envelope:
    """The ASGI envelope of every HTTP request."""

    def __init__(self, app, state: ServiceState):
        self.app, self.state = app, state

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        headers = dict(scope["headers"])
        given = headers.get(b"x-trace-id", b"").decode("latin-1")
        trace_id = given if TRACE_ID.match(given) else uuid.uuid4().hex
        scope.setdefault("state", {})["trace_id"] = trace_id
        started, status = time.perf_counter(), [500]

        async def traced(message):
            if message["type"] == "http.response.start":
                status[0] = message["status"]
                message["headers"] = [*message.get("headers", []), (b"x-trace-id", trace_id.encode("latin-1"))]
            await send(message)

        try:
            if given and trace_id != given:
                return await _error(400, "x-trace-id: 8 to 64 letters, digits, _ or - (it names the turn's workflow)",
                                    trace_id)(scope, receive, traced)
            size = headers.get(b"content-length")
            token = self.state.token
            if size is not None and (not size.isdigit() or int(size) > MAX_BODY_BYTES):
                return await _error(413, f"the body is over {MAX_BODY_BYTES // 1024} KB", trace_id)(scope, receive, traced)
            if token and scope["path"].startswith("/v1/") and headers.get(b"authorization") != f"Bearer {token}".encode("latin-1"):
                return await _error(401, "a bearer token is required (Authorization: Bearer TOKEN)", trace_id)(scope, receive, traced)
            body, more = b"", True
            while more:  # read the body first: a chunked one over the limit is refused before any handler sees it
                message = await receive()
                if message["type"] != "http.request":
                    status[0] = 499  # the client went away before it finished sending
                    return
                body += message.get("body", b"")
                more = message.get("more_body", False)
                if len(body) > MAX_BODY_BYTES:
                    return await _error(413, f"the body is over {MAX_BODY_BYTES // 1024} KB", trace_id)(scope, receive, traced)
            replayed = False

            async def replay():
                nonlocal replayed
                if replayed:
                    return await receive()
                replayed = True
                return {"type": "http.request", "body": body, "more_body": False}

            await self.app(scope, replay, traced)
        finally:
            LOG.info(json.dumps({"trace_id": trace_id, "method": scope["method"], "path": scope["path"], "status": status[0],
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

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException):  # 404, 405, an unparsable body: the same envelope
        return _error(exc.status_code, str(exc.detail), request.state.trace_id)

    @app.exception_handler(A2AError)
    async def refused(request: Request, exc: A2AError):
        status = 404 if isinstance(exc, UnknownWorkflowError) else getattr(exc, "http_status", 422)
        return _error(status, str(exc), request.state.trace_id)


def _turn_reply(record: DecisionRecord | str, workflow_id: str | None = None, run: dict[str, Any] | None = None) -> Response:
    """A TurnReply as JSON: the record (or its JSON) serialized once, as `a2a route --json` writes it, not validated again."""
    extra = json.dumps({"workflow_id": workflow_id, "run": run}, ensure_ascii=False)
    text = record if isinstance(record, str) else record.model_dump_json()
    return Response(text[:-1] + "," + extra[1:], media_type="application/json")


def _stored_turn(state: ServiceState, trace_id: str, text: str) -> Response | None:
    """An executed turn sent again with its trace id (a client retrying after a lost reply): the stored reply, so the
    workflow never runs twice. The same trace id for another text is a conflict (409)."""
    workflow_id = workflow_id_for(trace_id)
    if not state.store.has_workflow(workflow_id):
        return None
    row = state.store.workflow(workflow_id)
    if row["text"] != text or not row["record_json"]:
        return _error(409, f"trace id {trace_id} was already used for another turn", trace_id)
    record = DecisionRecord.model_validate_json(row["record_json"])
    return _turn_reply(record, workflow_id, state.runtime.stored_report(workflow_id).cli_json())


def _add_turn_routes(app: FastAPI, state: ServiceState) -> None:
    """POST /v1/turns (route, or route and execute on the in-process robot) and GET /v1/workflows/{id}."""
    @app.post("/v1/turns", response_model=TurnReply, response_model_exclude_none=False)
    async def turns(body: TurnRequest, request: Request) -> Response:
        trace_id = request.state.trace_id
        if state.routers is not None and not body.execute:  # routed in a router process, without the lock
            row = await state.run(lambda: _turn_row(state, body)) if body.device_id is not None else _turn_row(state, body)
            return _turn_reply(await state.routers.route(row, trace_id))
        return await state.run(lambda: _turn(state, body, trace_id))

    @app.get("/v1/workflows/{workflow_id}")
    async def workflow(workflow_id: str) -> dict[str, Any]:
        return await state.run(lambda: _workflow(state, workflow_id))


def _turn_row(state: ServiceState, body: TurnRequest) -> dict[str, Any]:
    """The turn as a set row: a turn naming a robot is planned on the state it reported, the caller's fields on top."""
    context = body.device_context
    if body.device_id is not None:
        context = state.hub.link(body.device_id).device_context(body.device_context)
    return {"text": body.text, "voice_context": body.voice_context, "device_context": context}


def _turn(state: ServiceState, body: TurnRequest, trace_id: str) -> Response:
    """One turn: routed, and run when asked (on the named robot, or on the in-process one)."""
    if not body.execute:
        return _turn_reply(route_json(state.runner, _turn_row(state, body), trace_id))
    repeated = _stored_turn(state, trace_id, body.text)
    if repeated is not None:
        return repeated
    if body.device_id is not None:
        record, run = state.hub.submit_turn(body.device_id, body.text, body.device_context, body.voice_context, trace_id)
        return _turn_reply(record, run.workflow_id, state.hub.link(body.device_id).orch.report(run).cli_json())
    report = state.runtime.run_text(body.text, body.device_context, voice_context=body.voice_context, trace_id=trace_id)
    record = DecisionRecord.model_validate_json(state.store.workflow(report.workflow_id)["record_json"])
    return _turn_reply(record, report.workflow_id, report.cli_json())


def _workflow(state: ServiceState, workflow_id: str) -> dict[str, Any]:
    """As `a2a workflows show ID --json`: status, steps, response, with the events and decisions."""
    report = state.runtime.stored_report(workflow_id)
    events = [{k: v for k, v in e.items() if k != "received_seq"} for e in state.store.events(workflow_id)]
    return {**report.cli_json(), "events": events, "decisions": state.store.decisions(workflow_id)}


DEVICE_ID = PathParam(pattern=DEVICE_ID_PATTERN, description="The robot's id (a letter or digit, then letters, digits, . _ -).")


def _add_device_routes(app: FastAPI, state: ServiceState) -> None:
    """The robot processes' side: commands by long poll, callbacks, heartbeats (dataflow/runtime/remote.py)."""
    @app.post("/v1/workflows/{workflow_id}/events", response_model=CommandBatch)
    async def events(workflow_id: str, body: DeviceCallback) -> CommandBatch:
        """A robot's callback, idempotent by event_id; 422 with the reason when its step or evidence is not the workflow's."""
        return await state.run(lambda: state.hub.callback(workflow_id, body))

    @app.post("/v1/devices/{device_id}/heartbeat", response_model=CommandBatch)
    async def heartbeat(body: DeviceReport, device_id: str = DEVICE_ID) -> CommandBatch:
        """A robot's clock and state; the reply holds every command after the one it applied last."""
        return await state.run(lambda: state.hub.heartbeat(device_id, body))

    @app.get("/v1/devices/{device_id}/commands", response_model=CommandBatch)
    async def commands(device_id: str = DEVICE_ID, after: int = Query(0, ge=0, description="The last command applied."),
                       wait: float = Query(0, ge=0, le=30, description="Seconds to wait for a command (a long poll).")) -> CommandBatch:
        """The robot's commands after `after`; with `wait`, held open until one is stored or the time is up."""
        deadline = time.monotonic() + wait
        loop = asyncio.get_running_loop()

        def pending() -> CommandBatch:
            return CommandBatch(commands=state.hub.link(device_id).commands(after))

        while True:
            waiter = (loop, asyncio.Event())
            state.waiters.setdefault(device_id, []).append(waiter)  # before reading: a command stored meanwhile wakes it
            try:
                batch = await state.run(pending)
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
    async def tasks(body: TaskRequest) -> dict[str, Any]:
        return await state.run(lambda: state.runtime.run_task(body.request, body.device_context).cli_json())

    @app.post("/v1/ask", response_model=DecisionRecord)
    async def ask(body: AskRequest, request: Request) -> DecisionRecord:
        def answer() -> DecisionRecord:
            previous, state.runner.knowledge = state.runner.knowledge, state.knowledge
            try:
                return state.runner.route(TurnInput(recognized_text=body.text), trace_id=request.state.trace_id)
            finally:
                state.runner.knowledge = previous

        return await state.run(answer)

    @app.get("/v1/runs")
    def runs() -> list[dict[str, Any]]:
        return _runs(state.runs_dir)


def serve(host: str, port: int, state: ServiceState, routers: int = 0) -> None:
    """Run the service with uvicorn until interrupted; with `routers`, route-only turns go to that many router processes."""
    import uvicorn

    logging.basicConfig(level=logging.INFO, format="%(message)s")
    if routers:
        if state.runner.config.planner_backend != "heuristic":
            raise InputError("--routers routes with the heuristic planner: a model backend keeps its one ledger in the service")
        from dataflow.runtime.routers import RouterPool

        state.routers = RouterPool(routers)
    try:
        uvicorn.run(create_app(state), host=host, port=port, log_level="warning", timeout_graceful_shutdown=2)  # long polls end
    finally:
        if state.routers is not None:
            state.routers.close()
