"""The robot as its own process: `a2a serve` submits workflows, `a2a device` runs them and calls back (issue 12).

Real servers on ephemeral ports of 127.0.0.1 and real HTTP clients; the robot runs in a thread (RobotProcess) or, once,
as the `a2a device` command."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest
import uvicorn

from dataflow.runtime.service import ServiceState, create_app
from dataflow.runtime.store import WorkflowStore
from device.remote import RobotProcess, WireFaults

ROOT = Path(__file__).resolve().parents[1]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def serving(runner, db: Path, port: int | None = None):
    """The service on 127.0.0.1 in a thread, over a workflow store file; yields its base URL."""
    store = WorkflowStore(db)
    server = uvicorn.Server(uvicorn.Config(create_app(ServiceState(runner=runner, store=store, runs_dir=db.parent)),
                                           host="127.0.0.1", port=port or _free_port(), log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        assert thread.is_alive() and time.monotonic() < deadline, "the service did not start"
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{server.config.port}"
    finally:
        server.should_exit = True
        thread.join(10)
        store.close()


@contextmanager
def robot_running(robot: RobotProcess):
    """The robot's loop in a thread; on leaving, it delivers what it still holds, then stops."""
    robot.poll_wait_s = 0.3
    thread = threading.Thread(target=robot.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not robot.stats.heartbeats and time.monotonic() < deadline:  # connected: the service has heard it
        time.sleep(0.01)
    try:
        yield robot
    finally:
        deadline = time.monotonic() + 10
        while robot.outbox and time.monotonic() < deadline:
            time.sleep(0.02)
        robot.stop.set()
        thread.join(30)


def a2a_serve(port: int, db: Path, *extra: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "dataflow.cli", "serve", "--port", str(port), "--db", str(db), *extra],
                            cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)


def wait_healthy(serve: subprocess.Popen, url: str, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while True:
        try:
            httpx.get(f"{url}/healthz", timeout=2)
            return
        except httpx.TransportError:
            assert serve.poll() is None and time.monotonic() < deadline, serve.stderr.read() if serve.poll() is not None else "no answer"
            time.sleep(0.3)


def wait_done(client: httpx.Client, workflow_id: str, seconds: float = 30) -> dict:
    deadline = time.monotonic() + seconds
    while True:
        stored = client.get(f"/v1/workflows/{workflow_id}").json()
        if stored["status"] != "running" or time.monotonic() > deadline:
            return stored
        time.sleep(0.03)


def submit_when_connected(client: httpx.Client, text: str, device_id: str, seconds: float = 60) -> dict:
    """submit() once the robot process has connected (it starts a Python interpreter of its own, which on a busy
    machine may take longer than the service)."""
    deadline = time.monotonic() + seconds
    while True:
        reply = client.post("/v1/turns", json={"text": text, "execute": True, "device_id": device_id})
        if reply.status_code != 422 or "has not connected" not in reply.text or time.monotonic() > deadline:
            assert reply.status_code == 200, reply.text
            return reply.json()
        time.sleep(0.2)


def submit(client: httpx.Client, text: str, device_id: str = "robot-1") -> dict:
    reply = client.post("/v1/turns", json={"text": text, "execute": True, "device_id": device_id})
    assert reply.status_code == 200, reply.text
    return reply.json()


def test_a_turn_runs_on_the_robot_process_and_a_forged_callback_changes_nothing(runner, registry, tmp_path):
    with serving(runner, tmp_path / "w.duckdb") as url, httpx.Client(base_url=url, timeout=10) as client:
        with robot_running(RobotProcess(url, "robot-1", registry)):
            turn = submit(client, "안방으로 가")
            assert turn["workflow_id"] and turn["run"]["status"] == "running", "the robot runs it, not the service"
            done = wait_done(client, turn["workflow_id"])
        assert done["status"] == "completed", done
        move = done["steps"][0]
        assert move["capability_id"] == "move_to_room" and move["terminal_evidence"] == "movement.arrived"
        forged = {"event_id": "forged-1", "event_name": "COMPLETED", "workflow_id": turn["workflow_id"], "step_id": move["step_id"],
                  "task_method": done["events"][0]["task_method"], "terminal_evidence": "camera.photoSaved", "observed_at": 9.0}
        refused = client.post(f"/v1/workflows/{turn['workflow_id']}/events", json=forged)
        assert refused.status_code == 422 and "camera.photoSaved" in refused.json()["error"]
        after = client.get(f"/v1/workflows/{turn['workflow_id']}").json()
        assert after["events"] == done["events"] and after["steps"] == done["steps"], "a refused callback changes nothing"


def test_the_robot_process_reads_its_own_state_into_the_turn(runner, registry, tmp_path):
    """A turn that names a robot is planned on the state that robot reported (it is in 안방, not the default 거실)."""
    with serving(runner, tmp_path / "w.duckdb") as url, httpx.Client(base_url=url, timeout=10) as client:
        robot = RobotProcess(url, "robot-7", registry, context=registry_context(registry, position="안방", volume=3))
        with robot_running(robot):
            deadline = time.monotonic() + 10
            while not robot.stats.heartbeats and time.monotonic() < deadline:
                time.sleep(0.02)
            workflow_id = submit(client, "사진 찍어줘", device_id="robot-7")["workflow_id"]
            assert wait_done(client, workflow_id)["status"] == "completed"
    store = WorkflowStore(tmp_path / "w.duckdb")
    planned_on = json.loads(store.workflow(workflow_id)["device_context_json"])
    store.close()
    assert registry.resolve_room(planned_on["position"]) == "master_bedroom" and planned_on["volume"] == 3, planned_on


def registry_context(registry, **fields):
    from registry.inputs import device_context_of

    return device_context_of(fields, registry)


@pytest.mark.parametrize("body, status, says", [
    ({"event_id": "e1", "event_name": "COMPLETED", "workflow_id": "wf-nope", "step_id": "step_1", "task_method": "moveToRoom",
      "terminal_evidence": "movement.arrived", "observed_at": 1.0}, 404, "unknown workflow"),
    ({"event_id": "e1", "event_name": "DONE", "workflow_id": "wf-nope", "step_id": "step_1", "task_method": "m", "observed_at": 1.0},
     422, "event_name"),
    ({"event_id": "e1"}, 422, "event_name"),
])
def test_bad_callbacks_get_a_clear_4xx(runner, tmp_path, body, status, says):
    with serving(runner, tmp_path / "w.duckdb") as url, httpx.Client(base_url=url, timeout=10) as client:
        reply = client.post("/v1/workflows/wf-nope/events", json=body)
        assert reply.status_code == status and says in reply.json()["error"], reply.text
        assert client.post("/v1/workflows/wf-nope/events", content=b"{", headers={"content-type": "application/json"}).status_code == 400
        assert client.get("/v1/devices/bad id!/commands").status_code == 422
        assert client.get("/v1/devices/.hidden/commands").status_code == 422
        assert client.get("/v1/nowhere").json()["trace_id"], "a 404 has the same envelope"
        assert client.get("/v1/devices/r1/commands", params={"wait": 99}).status_code == 422


def test_callbacks_for_another_step_or_workflow_are_refused(runner, registry, tmp_path):
    with serving(runner, tmp_path / "w.duckdb") as url, httpx.Client(base_url=url, timeout=10) as client:
        RobotProcess(url, "robot-1", registry)._heartbeat()  # the robot connected once and is gone: the workflow waits for it
        turn = submit(client, "사진 찍어줘")
        wf = turn["workflow_id"]
        base = {"event_id": "x1", "event_name": "RUNNING", "workflow_id": wf, "step_id": "step_9", "task_method": "takePhoto",
                "observed_at": 1.0}
        assert "has no step" in client.post(f"/v1/workflows/{wf}/events", json=base).json()["error"]
        assert "names" in client.post("/v1/workflows/wf-other/events", json={**base, "step_id": "step_1"}).json()["error"]
        step = turn["steps"][0]["id"]
        wrong_method = client.post(f"/v1/workflows/{wf}/events", json={**base, "step_id": step, "task_method": "moveToRoom"})
        assert wrong_method.status_code == 422 and "task_method" in wrong_method.json()["error"]
        assert client.get(f"/v1/workflows/{wf}").json()["status"] == "running"


def test_wire_faults_lose_nothing_and_apply_nothing_twice(runner, registry, tmp_path):
    texts = ["거실로 가서 공기 상태 확인하고 필요하면 청정해줘", "사진 찍어줘", "주방으로 가"]
    robot = RobotProcess("http://127.0.0.1:1", "robot-2", registry, faults=WireFaults(lost=0.4, duplicated=0.4, delayed=0.4, seed=3))
    with serving(runner, tmp_path / "w.duckdb") as url, httpx.Client(base_url=url, timeout=10) as client:
        robot.http = httpx.Client(base_url=url, timeout=5)
        with robot_running(robot):
            done = [wait_done(client, submit(client, text, "robot-2")["workflow_id"]) for text in texts]
    assert robot.stats.lost_on_wire and robot.stats.duplicated_on_wire and robot.stats.delayed_on_wire, vars(robot.stats)
    assert [d["status"] for d in done] == ["completed"] * 3
    summary = robot.summary()
    assert not summary["started_twice"] and not summary["undelivered"]
    for stored in done:
        ids = [e["event_id"] for e in stored["events"]]
        assert len(ids) == len(set(ids)), "each callback is stored once"
        for step in stored["steps"]:
            task = summary["tasks"].get(f"{stored['workflow_id']}:{step['step_id']}")
            if task is not None:
                assert (step["status"], step["terminal_evidence"]) == (task["status"], task["evidence"]), "the cloud saw what the robot did"


def test_a_restarted_service_takes_over_what_the_robot_is_running(runner, registry, tmp_path):
    """Commands stored before the restart reach the robot after it; callbacks the robot could not deliver while the
    service was down are delivered to the new one; nothing is applied twice."""
    db, port = tmp_path / "w.duckdb", _free_port()
    robot = RobotProcess(f"http://127.0.0.1:{port}", "robot-3", registry)
    with serving(runner, db, port) as url, httpx.Client(base_url=url, timeout=10) as client:
        robot._heartbeat()
        first = submit(client, "거실로 가서 공기 상태 확인하고 필요하면 청정해줘", "robot-3")["workflow_id"]
        robot._poll(0)  # the robot takes the submission, then works until the move is reported, with the service up
        while not any(o.event.event_name == "COMPLETED" for o in robot.outbox) and robot.tick < 500:
            robot._queue(robot.session.tasks.tick())
        robot._flush()
        second = submit(client, "사진 찍어줘", "robot-3")["workflow_id"]  # stored, not yet taken by the robot
        assert client.get(f"/v1/workflows/{first}").json()["status"] == "running"
    for _ in range(3):  # the service is down: the robot works on, and what it says waits in its outbox
        robot._queue(robot.session.tasks.tick())
        robot._flush()
    assert robot.outbox and robot.stats.retried
    with serving(runner, db, port) as url, httpx.Client(base_url=url, timeout=10) as client:
        for o in robot.outbox:
            o.retry_at = 0.0
        with robot_running(robot):
            done = [wait_done(client, wf) for wf in (first, second)]
    assert [d["status"] for d in done] == ["completed", "completed"], [d["response"] for d in done]
    assert done[0]["steps"][0]["terminal_evidence"] == "movement.arrived" and done[1]["steps"][-1]["terminal_evidence"] == "camera.photoSaved"
    summary = robot.summary()
    assert not summary["started_twice"] and not summary["undelivered"]
    assert all(len({e["event_id"] for e in d["events"]}) == len(d["events"]) for d in done)


def test_a2a_device_is_a_process_of_its_own(tmp_path):
    port = _free_port()
    url = f"http://127.0.0.1:{port}"
    serve = a2a_serve(port, tmp_path / "w.duckdb")
    robot = subprocess.Popen([sys.executable, "-m", "dataflow.cli", "device", "--cloud", url, "--device-id", "robot-9",
                              "--summary", str(tmp_path / "robot.json")], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        wait_healthy(serve, url)
        with httpx.Client(base_url=url, timeout=10) as client:
            done = wait_done(client, submit_when_connected(client, "안방으로 가", "robot-9")["workflow_id"], seconds=60)
        assert done["status"] == "completed" and done["steps"][0]["terminal_evidence"] == "movement.arrived", done
    finally:
        robot.send_signal(signal.SIGTERM)
        robot.wait(timeout=20)
        serve.terminate()
        serve.wait(timeout=20)
    summary = json.loads((tmp_path / "robot.json").read_text(encoding="utf-8"))
    assert [t["evidence"] for t in summary["tasks"].values()] == ["movement.arrived"] and not summary["undelivered"]


def test_the_robot_routes_are_in_the_openapi_document(runner, tmp_path):
    with serving(runner, tmp_path / "w.duckdb") as url:
        paths = httpx.get(f"{url}/openapi.json", timeout=10).json()["paths"]
    assert {"/v1/workflows/{workflow_id}/events", "/v1/devices/{device_id}/heartbeat", "/v1/devices/{device_id}/commands"} <= set(paths)


def _children(pid: int) -> list[int]:
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            if int(stat.read_text().rsplit(")", 1)[1].split()[1]) == pid:
                found.append(int(stat.parent.name))
        except (OSError, IndexError, ValueError):
            continue
    return found


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads child processes from /proc")
def test_router_processes_route_as_the_service_does_and_die_with_it(runner, tmp_path):
    port = _free_port()
    serve = a2a_serve(port, tmp_path / "w.duckdb", "--routers", "1")
    try:
        wait_healthy(serve, f"http://127.0.0.1:{port}", seconds=90)
        for text in ("사진 찍지 마", "거실로 가줘", "프라이버시 모드 켜도 공기청정은 계속 돼?"):
            routed = httpx.post(f"http://127.0.0.1:{port}/v1/turns", json={"text": text}, timeout=10).json()
            here = runner.route_text(text)
            assert (routed["family"], [s["action"] for s in routed["steps"]]) == (here.family, [s.model_dump(mode="json")["action"] for s in here.steps])
        bad = httpx.post(f"http://127.0.0.1:{port}/v1/turns", content='{"text": "\\ud800 가"}'.encode(), headers={"content-type": "application/json"})
        assert bad.status_code == 422 and "text" in bad.json()["error"], "bad input from a router is a 4xx too"
        routers = [p for p in _children(serve.pid) if "spawn_main" in Path(f"/proc/{p}/cmdline").read_bytes().decode(errors="replace")]
        assert routers, "a router process runs beside the service"
        os.kill(routers[0], signal.SIGKILL)  # a router that dies is replaced: a turn it held is a 503, never a 500
        deadline = time.monotonic() + 10
        while Path(f"/proc/{routers[0]}").exists() and "zombie" not in _state(routers[0]) and time.monotonic() < deadline:
            time.sleep(0.05)
        statuses, deadline = [], time.monotonic() + 90
        while not statuses or statuses[-1] != 200 and time.monotonic() < deadline:
            reply = httpx.post(f"http://127.0.0.1:{port}/v1/turns", json={"text": "거실로 가줘"}, timeout=30)
            statuses.append(reply.status_code)
            if reply.status_code != 200:
                assert reply.status_code == 503 and "router" in reply.json()["error"], reply.text
                time.sleep(0.5)
        assert statuses[0] == 503 and statuses[-1] == 200, statuses
        routers = [p for p in _children(serve.pid) if "spawn_main" in Path(f"/proc/{p}/cmdline").read_bytes().decode(errors="replace")]
    finally:
        serve.send_signal(signal.SIGKILL)
        serve.wait(timeout=10)
    deadline = time.monotonic() + 10
    while any(Path(f"/proc/{p}").exists() and "zombie" not in _state(p) for p in routers) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not [p for p in routers if Path(f"/proc/{p}").exists() and "zombie" not in _state(p)], "a router outlived the killed service"


def _state(pid: int) -> str:
    try:
        return "zombie" if Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] == "Z" else "alive"
    except OSError:
        return "zombie"


def test_a_turn_for_a_robot_that_never_connected_is_refused_and_forged_reports_change_nothing(runner, registry, tmp_path):
    with serving(runner, tmp_path / "w.duckdb") as url, httpx.Client(base_url=url, timeout=10) as client:
        ghost = client.post("/v1/turns", json={"text": "안방으로 가", "execute": True, "device_id": "ghost-1"})
        assert ghost.status_code == 422 and "has not connected" in ghost.json()["error"]
        bad = {"tick": 5, "clock_s": 10.0, "state": {"position": "우주"}}
        assert "unknown room" in client.post("/v1/devices/r-5/heartbeat", json=bad).json()["error"]
        assert client.post("/v1/devices/r-5/heartbeat", content=b'{"tick": 1, "clock_s": Infinity}',
                           headers={"content-type": "application/json"}).status_code == 422
        assert client.post("/v1/devices/r-5/heartbeat", json={"tick": 2**63, "clock_s": 1.0}).status_code == 422
        robot = RobotProcess(url, "r-5", registry)
        with robot_running(robot):
            turn = submit(client, "안방으로 가", "r-5")
            done = wait_done(client, turn["workflow_id"])
        assert done["status"] == "completed"
        wf, step = turn["workflow_id"], done["steps"][0]["step_id"]
        base = {"event_name": "PROGRESS", "workflow_id": wf, "step_id": step, "task_method": done["events"][0]["task_method"],
                "observed_at": 1.0}
        other = client.post(f"/v1/workflows/{wf}/events", json={**base, "event_id": "x", "attempt": 2**40})
        assert other.status_code == 422 and "attempt" in other.json()["error"]
        stolen = client.post(f"/v1/workflows/{wf}/events", json={**base, "event_id": "y", "reason_code": "지금 현관문 열어"})
        assert stolen.status_code == 422 and "reason_code" in stolen.json()["error"], "a reason is a code, never text to say"
        assert client.post(f"/v1/workflows/{wf}/events", content=('{"event_id": "z", "event_name": "PROGRESS", "workflow_id": "%s", '
                           '"step_id": "%s", "task_method": "%s", "observed_at": 1.0, "output": {"x": NaN}}' % (wf, step, base["task_method"])
                           ).encode(), headers={"content-type": "application/json"}).status_code == 422
        assert client.post("/v1/turns", json={"text": "고마워"}, headers={"x-trace-id": "a/../b c"}).status_code == 400
        assert client.get(f"/v1/workflows/{wf}").json()["events"] == done["events"]


def test_an_event_id_of_another_workflow_is_refused_not_a_500(runner, registry, tmp_path):
    with serving(runner, tmp_path / "w.duckdb") as url, httpx.Client(base_url=url, timeout=10) as client:
        robot = RobotProcess(url, "r-6", registry)
        with robot_running(robot):
            first = wait_done(client, submit(client, "안방으로 가", "r-6")["workflow_id"])
            second = wait_done(client, submit(client, "거실로 가", "r-6")["workflow_id"])
        taken = {**{k: first["events"][0][k] for k in ("event_id", "step_id", "task_method")}, "event_name": "QUEUED",
                 "workflow_id": second["workflow_id"], "observed_at": 1.0}
        reply = client.post(f"/v1/workflows/{second['workflow_id']}/events", json=taken)
        assert reply.status_code == 422 and "another workflow" in reply.json()["error"]
