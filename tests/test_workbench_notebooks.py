"""The research notebooks run headless on the project's API (small data, no network)."""

from pathlib import Path

import pytest

NOTEBOOKS = Path(__file__).resolve().parents[1] / "notebooks"


@pytest.mark.parametrize("name", ["01_stage_graph.ipynb", "02_evidence_axes_tuning.ipynb", "03_run_comparison.ipynb",
                                  "04_device_timeline.ipynb"])
def test_notebook_runs(name):
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    nb = nbformat.read(NOTEBOOKS / name, as_version=4)
    nbclient.NotebookClient(nb, timeout=300, kernel_name="python3", resources={"metadata": {"path": str(NOTEBOOKS)}}).execute()
    outputs = [o for c in nb.cells if c.cell_type == "code" for o in c.outputs]
    assert not [o for o in outputs if o.output_type == "error"]
    text = "".join(o.get("text", "") for o in outputs) + "".join(str(o.get("data", {})) for o in outputs)
    if name.startswith("02"):
        assert "reproduces 100.0%" in text and "confusion-matrix delta" in text
        assert "family accuracy" in text
    if name.startswith("03"):
        assert "re-scoring predicts run B's family for 100.0% of rows" in text
    if name.startswith("04"):
        assert "status: completed" in text and "status: blocked | reason: path_blocked" in text
        assert "image/svg+xml" in text and "air_clean.running" in text
    if name.startswith("01"):
        assert "image/svg+xml" in text
