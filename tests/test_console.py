"""The web console of `a2a serve`: its pages in process (FastAPI's TestClient), and the home and turn pages in
headless Chromium against a real server on 127.0.0.1."""

from __future__ import annotations

import html
import json
import re
import subprocess
import threading
import time
import zlib
from pathlib import Path
from urllib.parse import quote

import pytest
import uvicorn
from fastapi.testclient import TestClient

from dataflow.runtime.service import ServiceState, create_app
from dataflow.runtime.store import WorkflowStore
from dataflow.workbench.batch import run_batch
from tests.test_workbench_report import CHROMIUM_FLAGS, _chromium

ROWS = [
    {"id": "go", "text": "거실로 가줘", "expect": {"family": "ODL"}},
    {"id": "thanks", "text": "고마워", "expect": {"family": "FRG"}},  # decided DEF: a wrong row
    {"id": "xss", "text": "<script>alert(1)</script> 안방으로 가", "expect": {"family": "ODL"}},
    {"id": "weather", "text": "날씨 알려줘", "expect": {"family": "FRG"}},
]


@pytest.fixture(scope="module")
def runs_dir(runner, tmp_path_factory):
    """A runs folder with one real batch run (`mini`) over ROWS, and run-like folders outside it (its parent and a sibling)."""
    root = tmp_path_factory.mktemp("console")
    set_path = root / "mini.jsonl"
    set_path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in ROWS), encoding="utf-8")
    run_batch(runner, set_path, root / "runs" / "mini")
    for outside in (root, root / "secret"):
        outside.mkdir(exist_ok=True)
        (outside / "metrics.json").write_text(json.dumps({"set": "secret-set", "rows": 4}), encoding="utf-8")
        (outside / "decisions.jsonl").write_text((root / "runs/mini/decisions.jsonl").read_text(encoding="utf-8"), encoding="utf-8")
    return root / "runs"


@pytest.fixture()
def state(runner, runs_dir, tmp_path):
    store = WorkflowStore(tmp_path / "w.duckdb")
    yield ServiceState(runner=runner, store=store, runs_dir=runs_dir)
    store.close()


@pytest.fixture()
def client(state):
    return TestClient(create_app(state))


def _table(page: str, table_id: str) -> list[list[str]]:
    """The body rows of the table with this id, each cell as plain text."""
    body = re.search(rf'<table id="{table_id}">.*?<tbody>(.*?)</tbody></table>', page, re.S)
    assert body, f"no table {table_id}"
    rows = re.findall(r"<tr>(.*?)</tr>", body.group(1), re.S)
    cells = [[html.unescape(re.sub(r"<[^>]+>", "", c)) for c in re.findall(r"<td[^>]*>(.*?)</td>", r, re.S)] for r in rows]
    return [c for c in cells if not (len(c) == 1 and c[0] == "none")]


def _family_card(page: str) -> str:
    return re.search(r'<div class="label">family</div><div class="value">([A-Z_]+)</div>', page).group(1)


def _decided(runs_dir: Path) -> dict[str, str]:
    return {r["id"]: r["family"] for r in map(json.loads, (runs_dir / "mini/decisions.jsonl").read_text(encoding="utf-8").splitlines())}


def test_home_lists_the_runs_with_their_metrics(client, runs_dir):
    page = client.get("/")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    text = page.text
    assert '<html lang="ko">' in text and '<meta charset="utf-8">' in text
    metrics = json.loads((runs_dir / "mini/metrics.json").read_text(encoding="utf-8"))
    [row] = _table(text, "runs")
    assert row[0] == "mini" and row[2] == "4" and row[3] == f"{100 * metrics['family_accuracy']:.1f}%"
    assert row[4] == ("-" if metrics["action_exact_match"] is None else f"{100 * metrics['action_exact_match']:.1f}%")
    assert row[5] == str(metrics["false_actions"])
    assert 'href="/console/runs/mini"' in text and "action='/console/turn'" in text
    assert 'href="/console/workflows"' in text and 'href="/console/graph"' in text
    assert "<script" not in text and not re.search(r"""(src|href)=["']?(https?:)?//""", text), "no script, no external asset"


def test_the_run_filters_really_filter(client, runs_dir):
    decided = _decided(runs_dir)
    expected = {r["id"]: r["expect"]["family"] for r in ROWS}
    wrong = {i for i in decided if decided[i] != expected[i]}
    assert "thanks" in wrong and "go" not in wrong, "the set has right and wrong rows"

    def ids(**params) -> list[str]:
        page = client.get("/console/runs/mini", params=params)
        assert page.status_code == 200
        return [row[1] for row in _table(page.text, "decisions")]

    assert ids() == [r["id"] for r in ROWS]
    assert set(ids(wrong="1")) == wrong
    assert set(ids(family="ODL")) == {i for i in decided if "ODL" in (decided[i], expected[i])}
    assert set(ids(family="FRG", wrong="1")) == {i for i in wrong if "FRG" in (decided[i], expected[i])}
    assert ids(q="거실") == ["go"] and ids(q="THANKS") == ["thanks"], "the text and the id, in any case"
    assert ids(q="no such words") == []
    rows = {row[1]: row for row in _table(client.get("/console/runs/mini").text, "decisions")}
    assert rows["thanks"][3:6] == ["FRG", decided["thanks"], "✗"] and rows["go"][3:6] == ["ODL", "ODL", "✓"]
    assert "family" in rows["thanks"][6], "the keys that failed, from errors.jsonl"


def test_data_strings_are_escaped(client):
    for url in ("/console/runs/mini", "/console/runs/mini/rows/3", f"/console/turn?text={quote('<script>alert(1)</script> 안방으로 가')}"):
        page = client.get(url).text
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page and "<script>" not in page, url
    assert "<script" not in client.get("/console/runs/mini", params={"q": "<script>x"}).text, "the search box too"


def test_a_row_shows_its_axes_why_terms_and_plan(client, runs_dir):
    page = client.get("/console/runs/mini/rows/1")
    assert page.status_code == 200
    axes = _table(page.text, "axes")
    assert axes and all(float(a[1]) > 0 for a in axes) and any(a[2] for a in axes), "lit axes with the signals that lit them"
    why = _table(page.text, "why")
    assert why[0][0] == "ODL" and "<b>ODL</b>" in page.text, "the winner first, in bold"
    assert re.search(r"[+-]\d+\.\d\d", why[0][2]), "weight × strength terms"
    steps = _table(page.text, "steps")
    assert any("move_to_room" in s[3] for s in steps)
    assert "expected" in page.text and "all rows of mini" in page.text


def test_unknown_runs_rows_and_workflows_are_404_pages_and_no_path_escapes(client):
    for url in ("/console/runs/nope", "/console/runs/mini/rows/0", "/console/runs/mini/rows/5", "/console/runs/mini/rows/x",
                "/console/runs/nope/rows/1", "/console/workflows/wf-nope", "/console/nothing-here",
                "/console/runs/%2E%2E", "/console/runs/.hidden", "/console/runs/..%2Fsecret", "/console/runs/%2E%2E%2Fsecret/rows/1",
                "/console/runs/..%5Csecret"):
        page = client.get(url)
        assert page.status_code == 404, url
        assert page.headers["content-type"].startswith("text/html") and "id='not-found'" in page.text, url
        assert "Traceback" not in page.text and "secret-set" not in page.text, url


def test_the_turn_page_routes_live_and_shows_the_trace(client):
    page = client.get("/console/turn", params={"text": "거실로 가줘"})
    assert page.status_code == 200
    assert "<p class='text' id='utterance'>거실로 가줘</p>" in page.text and _family_card(page.text) == "ODL"
    assert any("move_to_room" in s[3] for s in _table(page.text, "steps"))
    assert _table(page.text, "axes") and _table(page.text, "why")
    stages = _table(page.text, "stages")
    assert len(stages) > 5 and any(s[0] == "decision_record" for s in stages), "the stage timings of the record"
    assert re.search(r"<code id='trace-id'>[0-9a-f]{8,}</code>", page.text)
    for text, says in (("", "Type an utterance"), ("   ", "Type an utterance"), ("가" * 2001, "at most 2000")):
        page = client.get("/console/turn", params={"text": text})
        assert page.status_code == 200 and says in page.text and "Traceback" not in page.text


def test_an_executed_turn_shows_in_the_workflows_with_its_events(client, state):
    reply = client.post("/v1/turns", json={"text": "안방으로 가줘", "execute": True}).json()
    workflow_id = reply["workflow_id"]
    listed = {row[0]: row for row in _table(client.get("/console/workflows").text, "workflows")}
    assert listed[workflow_id][4] == "completed" and listed[workflow_id][6] == "안방으로 가줘"
    assert _table(client.get("/console/workflows", params={"status": "failed"}).text, "workflows") == []
    page = client.get(f"/console/workflows/{workflow_id}").text
    [step] = _table(page, "steps")
    assert step[1] == "move_to_room" and step[3] == "completed" and step[4] == "movement.arrived"
    events = _table(page, "events")
    assert len(events) == len(state.store.events(workflow_id)) > 0
    assert {e[1] for e in events} >= {e["event_name"] for e in state.store.events(workflow_id)}


def test_the_stage_graph_lists_nodes_and_edges(client):
    page = client.get("/console/graph").text
    assert "<b id='decision_record'>decision_record</b>" in page and "<b id='turn_input'>turn_input</b>" in page
    nodes, edges = map(int, re.search(r"(\d+) nodes, (\d+) edges", page).groups())
    assert nodes > 10 and edges > nodes
    assert "href='#normalized_text'" in page, "each node links the nodes it reads"


def test_the_token_guards_the_api_not_the_read_only_pages(runner, runs_dir, tmp_path):
    store = WorkflowStore(tmp_path / "t.duckdb")
    client = TestClient(create_app(ServiceState(runner=runner, store=store, runs_dir=runs_dir, token="s3cret")))
    assert client.get("/").status_code == 200 and client.get("/console/runs/mini").status_code == 200
    assert client.get("/v1/runs").status_code == 401
    store.close()


def _png_rows(data: bytes) -> list[bytes]:
    """The filtered scanlines of an 8-bit PNG (enough to tell a blank page from one with content)."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, width, channels = 8, b"", 0, 0
    while pos < len(data):
        length, kind = int.from_bytes(data[pos:pos + 4], "big"), data[pos + 4:pos + 8]
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, channels = int.from_bytes(body[:4], "big"), {0: 1, 2: 3, 4: 2, 6: 4}[body[9]]
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    raw = zlib.decompress(idat)
    stride = 1 + width * channels
    return [raw[i:i + stride] for i in range(0, len(raw), stride)]


def test_home_and_turn_pages_render_in_headless_chromium(state, tmp_path):
    chromium = _chromium()
    server = uvicorn.Server(uvicorn.Config(create_app(state), host="127.0.0.1", port=0, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + 60
        while not server.started:
            assert thread.is_alive() and time.monotonic() < deadline, "the server did not start"
            time.sleep(0.05)
        port = server.servers[0].sockets[0].getsockname()[1]
        base = f"http://127.0.0.1:{port}"
        profile = tmp_path / "profile"
        profile.mkdir()
        flags = [chromium, *CHROMIUM_FLAGS, f"--user-data-dir={profile}", "--window-size=1200,1600"]
        home = subprocess.run([*flags, "--dump-dom", f"{base}/"], capture_output=True, text=True, timeout=120).stdout
        assert 'id="runs"' in home and ">mini</a>" in home
        turn_url = f"{base}/console/turn?text={quote('거실로 가줘')}"
        dom = subprocess.run([*flags, "--dump-dom", turn_url], capture_output=True, text=True, timeout=120).stdout
        assert 'id="utterance">거실로 가줘</p>' in dom and _family_card(dom) == "ODL" and "move_to_room" in dom
        shot = tmp_path / "turn.png"
        subprocess.run([*flags, f"--screenshot={shot}", turn_url], capture_output=True, timeout=120)
        data = shot.read_bytes()
        assert len(data) > 20_000 and len(set(_png_rows(data))) > 100, "a page with content, not a blank screen"
    finally:
        server.should_exit = True
        thread.join(timeout=10)
