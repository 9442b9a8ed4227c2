"""`a2a serve`: the HTTP service in process (FastAPI's TestClient) and once as a real server on 127.0.0.1."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
from fastapi.testclient import TestClient

from dataflow.runtime.service import MAX_BODY_BYTES, ServiceState, create_app
from dataflow.runtime.store import WorkflowStore
from rag.store import KnowledgeStore

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture()
def service(runner, tmp_path, knowledge_db):
    store = WorkflowStore(tmp_path / "w.duckdb")
    state = ServiceState(runner=runner, store=store, knowledge=KnowledgeStore.open(knowledge_db), runs_dir=tmp_path / "runs")
    yield TestClient(create_app(state)), state
    store.close()


def test_a_turn_returns_the_decision_record(service, runner):
    client, _ = service
    reply = client.post("/v1/turns", json={"text": "거실로 가줘", "device_context": {"position": "안방"}})
    assert reply.status_code == 200 and reply.headers["x-trace-id"]
    record = reply.json()
    assert record["family"] == "ODL" and record["workflow_id"] is None
    assert [s["action"]["capability_id"] for s in record["steps"] if s["action"]] == ["move_to_room"]
    assert set(runner.route_text("거실로 가줘").model_dump()) <= set(record), "the same JSON as `a2a route --json`"


def test_an_executed_turn_is_a_stored_workflow(service):
    client, _ = service
    reply = client.post("/v1/turns", json={"text": "안방으로 가줘", "execute": True}).json()
    assert reply["run"]["status"] == "completed" and reply["workflow_id"]
    stored = client.get(f"/v1/workflows/{reply['workflow_id']}").json()
    assert stored["status"] == "completed" and stored["steps"][0]["capability_id"] == "move_to_room"
    assert stored["steps"][0]["terminal_evidence"] == "movement.arrived" and stored["events"]
    assert client.get("/v1/workflows/wf-nope").status_code == 404


@pytest.mark.parametrize("body, status, says", [
    ('{"text": ', 400, "not valid JSON"),
    ('{"text": ""}', 422, "text"),
    ('{"text": "고마워", "extra": 1}', 422, "extra"),
    ('{"text": "고마워", "device_context": {"position": "화성"}}', 422, "device_context.position: unknown room"),
    ('{"text": "고마워", "device_context": {"pm25_by_room": {"living_room": NaN}}}', 422, "finite"),
    ('{"text": "고마워", "voice_context": {"slot_state": {"owner_route": 5}}}', 422, "slot_state.owner_route"),
    ('{"text": "\\ud800 거실로 가"}', 422, "text"),
    ('[1, 2]', 422, "body"),
])
def test_bad_bodies_get_a_clear_status_never_a_500(service, body, status, says):
    client, _ = service
    reply = client.post("/v1/turns", content=body.encode(), headers={"content-type": "application/json"})
    assert reply.status_code == status, reply.text
    assert says in reply.json()["error"] and reply.json()["trace_id"]


def test_a_body_over_the_limit_is_refused(service):
    client, _ = service
    reply = client.post("/v1/turns", content=b'{"text": "' + b"x" * MAX_BODY_BYTES + b'"}', headers={"content-type": "application/json"})
    assert reply.status_code == 413


def test_a_token_guards_the_api(runner, tmp_path):
    store = WorkflowStore(tmp_path / "w.duckdb")
    client = TestClient(create_app(ServiceState(runner=runner, store=store, token="s3cret")))
    assert client.get("/healthz").status_code == 200, "health needs no token"
    assert client.post("/v1/turns", json={"text": "고마워"}).status_code == 401
    assert client.post("/v1/turns", json={"text": "고마워"}, headers={"authorization": "Bearer wrong"}).status_code == 401
    assert client.post("/v1/turns", json={"text": "고마워"}, headers={"authorization": "Bearer s3cret"}).status_code == 200
    store.close()


def test_tasks_ask_runs_and_openapi(service, tmp_path):
    client, state = service
    task = client.post("/v1/tasks", json={"request": {"taskMethod": "returnToStation"}}).json()
    assert task["status"] == "completed"
    assert client.post("/v1/tasks", json={"request": {"taskMethod": "teleport"}}).status_code == 422
    asked = client.post("/v1/ask", json={"text": "헤파 필터 교체 주기 알려줘"}).json()
    assert asked["family"] == "DQR" and asked["answer"]["answerability"] == "sufficient"
    run = state.runs_dir / "r1"
    run.mkdir(parents=True)
    (run / "metrics.json").write_text(json.dumps({"set": "core.jsonl", "rows": 3, "family_accuracy": 1.0}), encoding="utf-8")
    assert client.get("/v1/runs").json()[0] == {"run": "r1", "set": "core.jsonl", "rows": 3, "errors": None, "family_accuracy": 1.0,
                                                "action_exact_match": None, "false_actions": None}
    paths = client.get("/openapi.json").json()["paths"]
    assert {"/healthz", "/v1/turns", "/v1/workflows/{workflow_id}", "/v1/tasks", "/v1/ask", "/v1/runs"} <= set(paths)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_a2a_serve_is_a_real_server_on_localhost(tmp_path):
    port = _free_port()
    proc = subprocess.Popen([sys.executable, "-m", "dataflow.cli", "serve", "--port", str(port), "--db", str(tmp_path / "w.duckdb")],
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                health = httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=2)
                break
            except httpx.TransportError:
                assert proc.poll() is None and time.monotonic() < deadline, proc.stderr.read() if proc.poll() is not None else "no answer in 60 s"
                time.sleep(0.3)
        assert health.json()["status"] == "ok"
        turn = httpx.post(f"http://127.0.0.1:{port}/v1/turns", json={"text": "사진 찍지 마"}, timeout=10).json()
        assert not any(s["action"] for s in turn["steps"]), "talk never acts, over HTTP too"
    finally:
        proc.terminate()
        proc.wait(timeout=10)
    log = [json.loads(line) for line in proc.stderr.read().splitlines() if line.startswith("{")]
    assert any(entry["path"] == "/v1/turns" and entry["status"] == 200 and entry["trace_id"] for entry in log), "one log line per request"
