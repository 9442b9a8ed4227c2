import os

# CLI consoles read their width once, when the CLI modules are imported: fix it before any test imports them,
# so no test depends on the caller's terminal (CI runs with COLUMNS=60 and no TTY).
os.environ["COLUMNS"] = "200"

import pytest

from dataflow.driver import TurnRunner
from registry import load_registry
from tests._knowledge import answering_runner, knowledge_db, knowledge_store  # noqa: F401  (session fixtures of the knowledge tests)


@pytest.fixture(scope="session")
def registry():
    return load_registry()


@pytest.fixture(scope="session")
def runner():
    return TurnRunner()


@pytest.fixture(scope="session")
def reg(registry):
    """Short alias used by the bad-input and property tests."""
    return registry


def actions(record):
    return [
        (s.action.capability_id, s.action.operation_id, dict(s.action.arguments), s.condition is not None)
        for s in record.steps
        if s.action
    ]


def routed_in_the_living_room(runner, text):
    """The record of a turn said with the robot in 거실, and its device steps as (capability, operation) pairs."""
    from registry.contracts import DeviceContext, TurnInput

    record = runner.route(TurnInput(recognized_text=text, device_context=DeviceContext(position="거실")))
    return record, [(cap, op) for cap, op, _, _ in actions(record)]
