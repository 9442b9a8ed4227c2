"""Driver assembly: the typed config, the Hamilton driver and the turn runner."""

from __future__ import annotations

import time
import uuid
from itertools import product
from typing import Any, Literal

from hamilton import driver
from hamilton.lifecycle import NodeExecutionHook
from pydantic import ValidationError

from registry.contracts import Contract, DecisionRecord, TurnInput, Usage
from registry.errors import ConfigError
from registry.loader import Registry, load_registry
from stages import anchors, candidates, checks, decision, history, judge, normalization, planner, reply_meta, routing

STAGE_MODULES = (normalization, history, anchors, routing, reply_meta, candidates, planner, judge, checks, decision)
FINAL_NODE = "decision_record"


class DriverConfig(Contract):
    """The driver's config; a misspelt value fails loudly instead of silently building nothing."""

    planner_backend: Literal["heuristic"] = "heuristic"
    object_typer_mode: Literal["deterministic"] = "deterministic"
    replyability_judge_mode: Literal["deterministic"] = "deterministic"
    inline_unified_router: bool = True

    @classmethod
    def parse(cls, data: dict[str, Any]) -> "DriverConfig":
        try:
            return cls.model_validate(data)
        except ValidationError as exc:
            err = exc.errors()[0]
            raise ConfigError(f"driver config {'.'.join(map(str, err['loc']))}: {err['msg']}") from None

    @classmethod
    def all_valid(cls) -> list["DriverConfig"]:
        """Every combination of the Literal/bool fields (the driver must build for each)."""
        choices = []
        for name, field in cls.model_fields.items():
            ann = field.annotation
            choices.append([(name, v) for v in (ann.__args__ if hasattr(ann, "__args__") else (True, False))])
        return [cls(**dict(combo)) for combo in product(*choices)]


class StageTimer(NodeExecutionHook):
    """Per-stage wall milliseconds for the current execution."""

    def __init__(self) -> None:
        self.stage_ms: dict[str, float] = {}
        self._started: dict[str, float] = {}

    def run_before_node_execution(self, *, node_name: str, **kwargs: Any) -> None:
        self._started[node_name] = time.perf_counter()

    def run_after_node_execution(self, *, node_name: str, **kwargs: Any) -> None:
        self.stage_ms[node_name] = round((time.perf_counter() - self._started.pop(node_name)) * 1000, 4)


_KIWI = None


def shared_kiwi():
    """The Kiwi analyser is slow to build (about 1 s): one per process."""
    global _KIWI
    if _KIWI is None:
        from kiwipiepy import Kiwi

        _KIWI = Kiwi()
        _KIWI.tokenize("warm up")  # the first call loads the model; keep that out of the first turn
    return _KIWI


def build_driver(config: DriverConfig | None = None, timer: StageTimer | None = None) -> driver.Driver:
    config = config or DriverConfig()
    builder = driver.Builder().with_modules(*STAGE_MODULES).with_config(config.model_dump())
    if timer is not None:
        builder = builder.with_adapters(timer)
    return builder.build()


class TurnRunner:
    """Builds the driver, the Kiwi analyser and the registries once; routes turns through the DAG."""

    def __init__(self, config: DriverConfig | None = None, registry: Registry | None = None):
        self.config = config or DriverConfig()
        self.registry = registry or load_registry()
        self.kiwi = shared_kiwi()
        self.timer = StageTimer()
        self.driver = build_driver(self.config, self.timer)

    def route(self, turn: TurnInput, row_id: str | None = None, trace_id: str | None = None) -> DecisionRecord:
        trace_id = trace_id or uuid.uuid4().hex
        self.timer.stage_ms = {}
        started = time.perf_counter()
        result = self.driver.execute(
            [FINAL_NODE], inputs={"turn_input": turn, "kiwi": self.kiwi, "registry": self.registry, "trace_id": trace_id}
        )
        total = (time.perf_counter() - started) * 1000
        record: DecisionRecord = result[FINAL_NODE]
        return record.model_copy(update={"id": row_id, "usage": Usage(stage_ms=dict(self.timer.stage_ms), total_ms=round(total, 4))})

    def route_text(self, text: str, **context: Any) -> DecisionRecord:
        return self.route(TurnInput(recognized_text=text, **context))


def error_record(text: str, reason: str, row_id: str | None = None) -> DecisionRecord:
    """A record for a turn that could not be processed: a batch never stops at one bad row."""
    return DecisionRecord(id=row_id, text=text, trace_id=uuid.uuid4().hex, error=reason)
