"""The HTML run report: content, self-containment, and rendering in headless Chromium."""

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from typer.testing import CliRunner

from dataflow.workbench.batch import run_batch, score, write_run

from dataflow.rows import decide_rows
from dataflow.cli.main import app
from dataflow.workbench.report import ReportError, render_report
from registry.record_contracts import Usage

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
                  "--disable-component-update", "--disable-sync"]


@pytest.fixture(scope="module")
def run_dir(runner, tmp_path_factory):
    out = tmp_path_factory.mktemp("report") / "core"
    run_batch(runner, ROOT / "data/utterances/core.jsonl", out)
    return out


def _chromium() -> str:
    path = shutil.which("chromium") or shutil.which("chromium-browser")
    if path is None:
        pytest.skip("Debian's chromium is not installed (scripts/setup.sh test installs it)")
    return path


def test_report_is_self_contained_and_complete(run_dir):
    html = render_report(run_dir)
    for section in ("confusion", "per-family-table", "errors", "latency-histogram", "model-economy"):
        assert f'id="{section}"' in html or f"id='{section}'" in html
    assert not re.search(r"""(src|href)=["']?(https?:)?//""", html), "no external assets"
    assert "<script" not in html
    assert html.count("<svg") >= 3
    assert "economy-none" in html, "a heuristic run says it made no model calls"


def test_report_shows_the_evidence_of_each_family_error(tmp_path, runner):
    rows = [{"id": "a", "text": "고마워", "expect": {"family": "FRG"}}, {"id": "b", "text": "거실로 가줘", "expect": {"family": "ODL"}}]
    records = decide_rows(runner, [(1, rows[0], None), (2, rows[1], None)])
    write_run(tmp_path, rows, records, score(rows, records))
    html = render_report(tmp_path)
    errors = html[html.index("id='error-table'"):html.index("id=\"plan-errors\"")]
    assert "고마워" in errors and "거실로 가줘" not in errors
    assert "has_clear_conversation_reply_shape" in errors, "the axis that lifted DEF is shown"


def test_report_shows_model_economy_when_present(tmp_path, runner):
    rows = [{"id": f"r{i}", "text": t} for i, t in enumerate(["고마워", "날씨 어때"])]
    records = [r.model_copy(update={"usage": Usage(model_calls=2, prompt_tokens=900, output_tokens=120, total_ms=5.0)})
               for r in decide_rows(runner, [(i, r, None) for i, r in enumerate(rows)])]
    write_run(tmp_path, rows, records, score(rows, records))
    html = render_report(tmp_path)
    assert 'id="economy"' in html and "economy-none" not in html
    assert ">4<" in html, "4 model calls in total"


def test_report_errors_are_clear(tmp_path):
    with pytest.raises(ReportError, match="not a directory"):
        render_report(tmp_path / "missing")
    result = CliRunner().invoke(app, ["report", str(tmp_path)])
    assert result.exit_code == 2 and "metrics.json" in result.output and "Traceback" not in result.output


def test_report_renders_in_headless_chromium(run_dir, tmp_path):
    chromium = _chromium()
    result = CliRunner().invoke(app, ["report", str(run_dir)])
    assert result.exit_code == 0, result.output
    page = run_dir / "report.html"
    profile = tmp_path / "profile"
    profile.mkdir()
    flags = [chromium, *CHROMIUM_FLAGS, f"--user-data-dir={profile}", "--window-size=1400,2000"]
    dom = subprocess.run([*flags, "--dump-dom", page.as_uri()], capture_output=True, text=True, timeout=120).stdout
    assert "<svg" in dom and "per-family-table" in dom and "Family errors" in dom
    rows = re.findall(r"<tr><td class=\"fam\">(ODL|SCH|FRG|DQR|DEF|UNS|STT_NULL)</td>", dom)
    assert len(rows) == 7, "one precision/recall row per family"
    shot = tmp_path / "report.png"
    subprocess.run([*flags, f"--screenshot={shot}", page.as_uri()], capture_output=True, timeout=120)
    data = shot.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 50_000, "a page with content, not a blank screen"
