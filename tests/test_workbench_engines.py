"""Batch engines give the local engine's decisions; workers build their runner once."""

from pathlib import Path

import pytest

from dataflow.rows import read_set
from dataflow.workbench.engines import ProcessEngine, chunked, comparable, route_rows, worker_builds

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def small_set():
    parsed = read_set(ROOT / "data/utterances/core.jsonl")
    return parsed[:30] + [(999, {"id": "bad-ctx", "text": "거실로 가줘", "device_context": {"battery_percent": 400}}, None),
                          (1000, None, "malformed JSON: test")]


@pytest.fixture(scope="module")
def local_records(small_set, runner):
    return route_rows(small_set, "local", runner=runner)


def test_dask_cluster_matches_the_local_engine_and_builds_once_per_worker(small_set, local_records):
    pytest.importorskip("dask.distributed")
    from dataflow.workbench.engines import dask_client

    client = dask_client(2)  # a local cluster on 127.0.0.1; route_rows reaches it by address, as it would a real one
    try:
        records = route_rows(small_set, "dask", workers=2, chunk_size=4, address=client.scheduler.address)
        builds = client.run(worker_builds)
    finally:
        cluster = client.cluster
        client.close()
        cluster.close()
    assert [comparable(r) for r in records] == [comparable(r) for r in local_records]
    assert records[-2].error and records[-1].error == "malformed JSON: test", "bad rows keep their place and their reason"
    assert len(builds) == 2 and all(b == 1 for _, b in builds.values()), "one runner per worker, however many chunks"


def test_process_engine_matches_and_builds_once_per_worker(small_set, local_records):
    from dataflow.driver import DriverConfig
    from registry.record_contracts import DecisionRecord

    with ProcessEngine(2, DriverConfig().model_dump()) as engine:
        warm = engine.warm()
        parts = engine.route(chunked(small_set, 2, 4))
        after = dict(engine.call(worker_builds))
    records = [DecisionRecord.model_validate_json(line) for part in parts for line in part]
    assert [comparable(r) for r in records] == [comparable(r) for r in local_records]
    assert len(warm) == 2 and all(builds == 1 for _, builds in warm)
    assert all(builds == 1 for builds in after.values())


def test_unknown_engine_is_a_clear_error(small_set):
    from dataflow.workbench.engines import EngineError

    with pytest.raises(EngineError, match="unknown engine"):
        route_rows(small_set, "spark", workers=1)


def test_ray_engine_matches_when_installed(small_set, local_records):
    pytest.importorskip("ray")
    records = route_rows(small_set, "ray", workers=2, chunk_size=8)
    assert [comparable(r) for r in records] == [comparable(r) for r in local_records]
