"""Load on the HTTP service: concurrent clients, robot processes, wire faults and a service restart (issue 12).

    python benchmarks/service_load.py [--robots 20] [--clients 8] [--seconds 10] [--rate 200] [--routers 0]
                                      [--phases route,route-max,robots,faults,restart] [--quick]

Each phase runs on a fresh `a2a serve` (127.0.0.1, a free port, a new --db) and, but `route`, N `a2a device --pace 0`
robots, all stopped in a `finally`. M client threads post turns for --seconds: `route` routes core.jsonl utterances
offered at --rate turns a second in all (open loop: a turn's latency counts from when it was due); `route-max` the same
as fast as the clients get answers (closed loop: the most turns a second; with M clients waiting on each other,
latency is M / throughput, so this phase measures throughput, not latency);
`robots` executes device commands round-robin over the robots and polls every workflow until it leaves "running";
`faults` is the same on `--wire-faults 0.1`; `restart` too, and halfway the service is SIGKILLed and restarted on the
same port and --db (turns failing on the connection are retried). The robots' --summary files are then compared with
the cloud's view of every workflow a client got an id for: an effect is LOST when a robot completed a task the cloud
does not show completed with that evidence, or the workflow never left "running"; APPLIED TWICE when a robot started
a task twice, a workflow logged one event id twice, or a robot holds two tasks for one step.

Targets (issue 12, the 2-core reference machine): route >= 200 turns/s and p95 <= 20 ms at 8 clients; 0 effects lost
and 0 applied twice. The load generator shares the cores with the service and the robots (everyone's CPU is printed).
"""

from __future__ import annotations

import argparse
import contextlib
import itertools
import json
import os
import re
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from dataflow.rows import read_set  # noqa: E402
from dataflow.runtime.store import WorkflowStore  # noqa: E402

DEVICE_TURNS = ["안방으로 가", "거실로 가서 공기 상태 확인하고 필요하면 청정해줘", "사진 찍어줘", "팬 세기 3으로 해줘",
                "주방 청정해줘", "충전하러 가", "거실 공기 상태 확인해줘", "작은방으로 가서 청정해줘"]
"""Each plans only device steps, family ODL (checked with `a2a route`)."""


@dataclass
class Load:
    """What the clients saw in one phase."""

    seconds: float = 0.0
    latencies_ms: list[float] = field(default_factory=list)
    errors: Counter = field(default_factory=Counter)
    owner: dict[str, str] = field(default_factory=dict)
    """workflow id -> the robot it was submitted to."""
    retried: int = 0
    maybe_applied: int = 0
    """Retried turns whose failed attempt had been sent (the service may have taken it: turns carry no idempotency key)."""


def _spawn(args: list[str], log: Path) -> subprocess.Popen:
    with log.open("wb") as out:
        return subprocess.Popen([sys.executable, "-m", "dataflow.cli", *args], cwd=ROOT, stdout=out, stderr=subprocess.STDOUT)


def _stop(procs: list[subprocess.Popen], sig: int = signal.SIGTERM, grace: float = 5.0) -> None:
    """Signal every process that still runs, wait up to `grace` seconds, then SIGKILL what is left."""
    for p in [p for p in procs if p.poll() is None]:
        p.send_signal(sig)
    deadline = time.monotonic() + grace
    for p in procs:
        try:
            p.wait(max(0.0, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait()


def _cpu_s(pid: int) -> float:
    """User + system CPU seconds of a running process and its live children (the service's routers; 0 once gone)."""
    total = 0.0
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with contextlib.suppress(OSError, IndexError, ValueError):
            fields = stat.read_text().rsplit(")", 1)[1].split()
            if stat.parent.name == str(pid) or int(fields[1]) == pid:
                total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return total


def _wait_ready(url: str, robot_logs: list[Path], timeout: float = 120.0) -> None:
    """/healthz answers and the service has heard every robot (it prints "connected" after its first heartbeat)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with contextlib.suppress(httpx.HTTPError):
            if httpx.get(f"{url}/healthz", timeout=1.0).status_code == 200 and all(
                    log.exists() and b" connected" in log.read_bytes() for log in robot_logs):
                return
        time.sleep(0.1)
    raise RuntimeError(f"service or robots not ready after {timeout:.0f} s")


def _post_turn(http: httpx.Client, body: dict, give_up_at: float) -> tuple[httpx.Response | None, float, int, bool]:
    """(reply or None, ms of the last attempt, retries, whether a failed attempt had been sent). Every attempt carries the
    turn's own x-trace-id, so a retry of a turn the service took before it died gets the stored reply, not a second run."""
    retries, sent, backoff = 0, False, 0.05
    headers = {"x-trace-id": uuid.uuid4().hex}
    while True:
        started = time.perf_counter()
        try:
            return http.post("/v1/turns", json=body, headers=headers), (time.perf_counter() - started) * 1000, retries, sent
        except httpx.TransportError as exc:
            retries += 1
            sent = sent or not isinstance(exc, (httpx.ConnectError, httpx.ConnectTimeout))
            if time.monotonic() > give_up_at:
                return None, 0.0, retries, sent
            time.sleep(backoff)
            backoff = min(1.0, backoff * 2)


def _drive(url: str, clients: int, seconds: float, body_of, load: Load, rate: float | None = None) -> None:
    """M client threads post turns until the time is up; a turn failing on the connection is retried (30 s at most).
    Closed loop (rate None): each client sends its next turn when the last one is answered. Open loop: together the
    clients offer `rate` turns a second on a fixed schedule, and a turn's latency counts from the moment it was due
    (queueing at the client included), so a slow service cannot hide behind a slower offered load."""
    turn, lock, end = itertools.count(), threading.Lock(), time.monotonic() + seconds
    start = time.monotonic()

    def client() -> None:
        with httpx.Client(base_url=url, timeout=10.0) as http:
            while time.monotonic() < end:
                k = next(turn)
                due = start + k / rate if rate else None
                if due is not None:
                    if due >= end:
                        break
                    time.sleep(max(0.0, due - time.monotonic()))
                body = body_of(k)
                reply, ms, retries, sent = _post_turn(http, body, end + 30)
                if due is not None and reply is not None:
                    ms = (time.monotonic() - due) * 1000
                with lock:
                    load.retried, load.maybe_applied = load.retried + retries, load.maybe_applied + sent
                    if reply is None or reply.status_code != 200:
                        load.errors["connection" if reply is None else reply.status_code] += 1
                        continue
                    load.latencies_ms.append(ms)
                    workflow_id = reply.json().get("workflow_id")
                    if workflow_id and body.get("device_id"):
                        load.owner[workflow_id] = body["device_id"]

    threads = [threading.Thread(target=client, daemon=True) for _ in range(clients)]
    started = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    load.seconds = time.perf_counter() - started


def _views(url: str, workflow_ids: list[str], deadline: float) -> dict[str, dict]:
    """Every workflow's GET /v1/workflows/{id}, polled until none is "running" or the deadline passes."""
    views, pending = {}, workflow_ids
    with httpx.Client(base_url=url, timeout=10.0) as http:
        while True:
            for wf in pending:
                with contextlib.suppress(httpx.TransportError):
                    if (reply := http.get(f"/v1/workflows/{wf}")).status_code == 200:
                        views[wf] = reply.json()
            pending = [wf for wf in pending if views.get(wf, {}).get("status", "running") == "running"]
            if not pending or time.monotonic() > deadline:
                return views
            time.sleep(0.2)


def _robot_summary(path: Path, log: Path) -> dict | None:
    if not path.exists():
        return None
    summary = json.loads(path.read_text(encoding="utf-8"))
    # `tasks` is keyed by workflow:step, so two tasks for one step would collapse; the robot's exit line counts them all
    counted = re.search(rb": (\d+) tasks, ", log.read_bytes()) if log.exists() else None
    summary["task_count"] = int(counted.group(1)) if counted else len(summary["tasks"])
    return summary


def _effects(views: dict[str, dict], owner: dict[str, str], robots: dict[str, dict]) -> dict[str, int]:
    """Effects lost and applied twice: each workflow's cloud view against its robot's summary."""
    tasks: dict[str, dict[str, dict]] = {}
    for key, task in [kv for summary in robots.values() for kv in summary["tasks"].items()]:
        tasks.setdefault(key.rsplit(":", 1)[0], {})[key.rsplit(":", 1)[1]] = task
    lost = twice = stuck = 0
    for wf in owner:
        view = views.get(wf)
        if view is None or view["status"] == "running":
            stuck += 1
            continue
        ids = [e["event_id"] for e in view["events"]]
        twice += len(ids) != len(set(ids))
        cloud = {s["step_id"]: s for s in view["steps"]}
        for step_id, task in tasks.get(wf, {}).items():
            step = cloud.get(step_id, {})
            if task["status"] == "completed" and task["evidence"] and (
                    step.get("status") != "completed" or step.get("terminal_evidence") != task["evidence"]):
                lost += 1
    twice += sum(len(s["started_twice"]) + s["task_count"] - len(s["tasks"]) for s in robots.values())
    return {"lost": lost + stuck, "stuck": stuck, "twice": twice}


def _percentiles(values: list[float]) -> list[float]:
    return statistics.quantiles(values, n=100, method="inclusive") if len(values) > 1 else [float("nan")] * 99


def _served_ms(logs: list[Path], skip: int) -> list[float]:
    """How long the service itself took for each /v1/turns after the warm-up, from its request log: what the clients
    measure on top of it is the wire and the load generator's own scheduling on the shared cores."""
    served = []
    for log in logs:
        for line in log.read_text(encoding="utf-8", errors="replace").splitlines() if log.exists() else ():
            if line.startswith("{") and '"/v1/turns"' in line:
                with contextlib.suppress(ValueError, KeyError):
                    served.append(float(json.loads(line)["ms"]))
    return served[skip:]


def run_phase(name: str, args: argparse.Namespace, utterances: list[str], tmp: Path) -> dict:
    """One phase on a fresh service (and robots): its figures."""
    (folder := tmp / name).mkdir()
    with socket.socket() as sock:  # a free port
        sock.bind(("127.0.0.1", 0))
        port, db = sock.getsockname()[1], folder / "workflows.duckdb"
    url = f"http://127.0.0.1:{port}"
    ids = [] if name.startswith("route") else [f"robot-{i:02d}" for i in range(args.robots)]
    faults = ["--wire-faults", "0.1"] if name in ("faults", "restart") else []
    serve_args = ["serve", "--host", "127.0.0.1", "--port", str(port), "--db", str(db), "--runs", str(folder), "--routers", str(args.routers)]
    service = [_spawn(serve_args, folder / "serve.log")]
    devices: list[subprocess.Popen] = []
    load, out, views = Load(), {"phase": name, "robots": len(ids)}, {}

    def restart() -> None:  # SIGKILL, then the same port and --db again
        cpu["service"] += _cpu_s(service[0].pid)
        _stop(service, signal.SIGKILL)
        down = time.monotonic()
        service.append(_spawn(serve_args, folder / "serve-2.log"))
        _wait_ready(url, [])
        out["down_s"] = time.monotonic() - down

    killer = threading.Timer(args.seconds / 2, restart)
    try:
        devices = [_spawn(["device", "--cloud", url, "--device-id", d, "--pace", "0", *faults, "--seed", str(i),
                           "--summary", str(folder / f"{d}.json")], folder / f"{d}.log") for i, d in enumerate(ids)]
        _wait_ready(url, [folder / f"{d}.log" for d in ids])
        with httpx.Client(base_url=url, timeout=10.0) as http:  # warm the service first, as turn_latency.py does
            for text in [*DEVICE_TURNS, *utterances[:20]]:
                http.post("/v1/turns", json={"text": text})
        cpu = {"service": -_cpu_s(service[0].pid), "robots": -sum(_cpu_s(p.pid) for p in devices), "client": -time.process_time()}

        if name == "restart":
            killer.start()

        def body_of(k: int) -> dict:  # the k-th turn: a device command for robot k mod N, or a core utterance to route
            if ids:
                return {"text": DEVICE_TURNS[k % len(DEVICE_TURNS)], "execute": True, "device_id": ids[k % len(ids)]}
            return {"text": utterances[k % len(utterances)]}

        _drive(url, args.clients, args.seconds, body_of, load, rate=args.rate if name == "route" else None)
        cpu["service"] += _cpu_s(service[-1].pid)
        cpu["robots"] += sum(_cpu_s(p.pid) for p in devices)
        cpu["client"] += time.process_time()
        out["cpu"] = {**cpu, "wall": load.seconds}
        if killer.is_alive():
            killer.join()
        if ids:
            settling = time.monotonic()
            views = _views(url, list(load.owner), time.monotonic() + args.settle)
            out["settle_s"] = time.monotonic() - settling
            for p in devices:  # each writes its --summary as it stops
                p.send_signal(signal.SIGTERM)
            time.sleep(0.5)
            views = _views(url, list(load.owner), 0)  # once more: a late duplicate event would show now
    finally:
        killer.cancel()  # a restart not begun never begins (its service would outlive the phase); one under way ends first
        if killer.is_alive():
            killer.join()
        _stop(service, grace=2.0)
        _stop(devices, grace=30.0)
    q = _percentiles(load.latencies_ms)
    served = _percentiles(_served_ms([folder / "serve.log", folder / "serve-2.log"], skip=len(DEVICE_TURNS) + 20))
    out.update(rate=args.rate, turns=len(load.latencies_ms), turns_s=len(load.latencies_ms) / max(load.seconds, 1e-9),
               errors=dict(load.errors), p50=q[49], p95=q[94], p99=q[98], served=(served[49], served[94], served[98]),
               retried=load.retried, maybe_applied=load.maybe_applied)
    if ids:
        summaries = {d: s for d in ids if (s := _robot_summary(folder / f"{d}.json", folder / f"{d}.log")) is not None}
        wire = sum((Counter({**s["wire"], "undelivered": s["undelivered"]}) for s in summaries.values()), Counter())
        with contextlib.closing(WorkflowStore(db)) as store:  # the service is gone: the file is free
            stored = {w["workflow_id"] for w in store.list_workflows(10**9)}
        out.update(submitted=len(load.owner), statuses=Counter(v["status"] if v["status"] == "completed" else f"{v['status']} ({v.get('reason_code')})" for v in views.values()), wire=wire,
                   summaries=len(summaries), effects=_effects(views, load.owner, summaries),
                   refusals=[f"{d}: {r}" for d, s in summaries.items() for r in s["refusals"]],
                   unheard=len(stored - set(load.owner)), stored=len(stored))
    return out


ROWS = [
    ("turns (ok), turns/s", lambda r: f"{r['turns']}, {r['turns_s']:.1f}/s"),
    ("/v1/turns p50 / p95 / p99 ms", lambda r: f"{r['p50']:.1f} / {r['p95']:.1f} / {r['p99']:.1f}"),
    ("  in the service p50 / p95 / p99 ms", lambda r: " / ".join(f"{v:.1f}" for v in r["served"])),
    ("errors", lambda r: ", ".join(f"{k}: {v}" for k, v in r["errors"].items()) or 0),
    ("client retries (maybe applied)", lambda r: f"{r['retried']} ({r['maybe_applied']})"),
    ("service down (restart) s", lambda r: f"{r['down_s']:.1f}"),
    ("workflows completed / submitted", lambda r: f"{r['statuses'].get('completed', 0)} / {r['submitted']}"),
    ("other final statuses", lambda r: ", ".join(f"{k} {v}" for k, v in r["statuses"].items() if k != "completed") or "none"),
    ("stored workflows no client heard of", lambda r: f"{r['unheard']} of {r['stored']}"),
    ("settle time s", lambda r: f"{r['settle_s']:.1f}"),
    ("robot summaries", lambda r: f"{r['summaries']} / {r['robots']}"),
    ("callbacks delivered / retried", lambda r: f"{r['wire']['delivered']} / {r['wire']['retried']}"),
    ("callbacks refused / undelivered", lambda r: f"{r['wire']['refused']} / {r['wire']['undelivered']}"),
    ("wire lost / duplicated / delayed", lambda r: " / ".join(str(r["wire"][k]) for k in ("lost_on_wire", "duplicated_on_wire", "delayed_on_wire"))),
    ("effects lost (never left running)", lambda r: f"{r['effects']['lost']} ({r['effects']['stuck']})"),
    ("effects applied twice", lambda r: r["effects"]["twice"]),
    ("CPU s: client / service / robots", lambda r: " / ".join(f"{r['cpu'][k]:.1f}" for k in ("client", "service", "robots"))),
]


def print_table(results: list[dict]) -> None:
    """One column a phase; "-" where a figure does not apply."""
    def cell(row, r: dict) -> str:
        try:
            return str(row(r))
        except KeyError:
            return "-"
    for label, row in [("", lambda r: r["phase"]), *ROWS]:
        print(f"{label:<36}" + "".join(f"{cell(row, r):>22}" for r in results))


def print_verdicts(results: list[dict], clients: int) -> None:
    """One line a target, met or not (nothing is asserted), and the first callbacks the service refused."""
    def met(ok: bool) -> str:
        return "met" if ok else "NOT met"
    for r in results:
        for refusal in r.get("refusals", [])[:5]:
            print(f"{r['phase']}: callback refused by the service: {refusal}")
        if r["phase"] == "route":
            print(f"route: {r['turns_s']:.1f} turns/s answered of {r['rate']:g} offered by {clients} clients; "
                  f"p95 <= 20 ms at that load: {met(r['p95'] <= 20)} ({r['p95']:.1f} ms; {r['served'][1]:.1f} ms of it in the service)\n  the load generator shares the {os.cpu_count()} "
                  f"cores with the service: it used {r['cpu']['client']:.1f} CPU s, the service {r['cpu']['service']:.1f}, "
                  f"in {r['cpu']['wall']:.1f} s wall")
        elif r["phase"] == "route-max":
            print(f"route-max: >= 200 turns/s at {clients} clients, closed loop: {met(r['turns_s'] >= 200)} ({r['turns_s']:.1f})")
        elif "effects" in r:
            e = r["effects"]
            print(f"{r['phase']}: 0 effects lost: {met(e['lost'] == 0)} ({e['lost']}); 0 applied twice: {met(e['twice'] == 0)} ({e['twice']})"
                  + (f"; {r['unheard']} turn(s) taken twice (the reply was lost, the client retried)" if r["unheard"] else ""))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--robots", type=int, default=20)
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--seconds", type=float, default=10.0, help="How long the clients post turns, a phase.")
    parser.add_argument("--settle", type=float, default=60.0, help="Seconds to wait for the workflows to leave running.")
    parser.add_argument("--routers", type=int, default=0, help="`a2a serve --routers N`: route-only turns in N worker processes.")
    parser.add_argument("--rate", type=float, default=200.0, help="Turns a second the clients offer in all, in the route phase.")
    parser.add_argument("--phases", default="route,route-max,robots,faults,restart")
    parser.add_argument("--quick", action="store_true", help="A smoke run (< 60 s): 3 robots, 2 clients, 1 s a phase.")
    args = parser.parse_args()
    if args.quick:
        args.robots, args.clients, args.seconds, args.settle = 3, 2, 1.0, 15.0
    phases = [p.strip() for p in args.phases.split(",") if p.strip()]
    if unknown := set(phases) - {"route", "route-max", "robots", "faults", "restart"}:
        parser.error(f"--phases: unknown {', '.join(sorted(unknown))}")
    utterances = [row["text"] for _, row, err in read_set(ROOT / "data/utterances/core.jsonl") if row and not err]
    started, load_before, results = time.perf_counter(), os.getloadavg()[0], []
    with tempfile.TemporaryDirectory(prefix="service-load-") as tmp:
        for phase in phases:
            results.append(run_phase(phase, args, utterances, Path(tmp)))
            print(f"[{phase} done, {time.perf_counter() - started:.0f} s]", flush=True)
    print(f"\n{args.robots} robots, {args.clients} clients, {args.seconds:g} s a phase, {args.routers} router processes, a fresh service a phase "
          f"({time.perf_counter() - started:.0f} s in all; load average {load_before:.1f} before, {os.getloadavg()[0]:.1f} after)\n")
    print_table(results)
    print()
    print_verdicts(results, args.clients)


if __name__ == "__main__":
    main()
