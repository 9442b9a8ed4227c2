"""Driver assembly: the typed config, the Hamilton driver and the turn runner."""

from __future__ import annotations

import time
import uuid
from itertools import product
from typing import Any, Literal

from hamilton import driver
from hamilton.execution.graph_functions import combine_config_and_inputs, execute_lifecycle_for_node
from hamilton.lifecycle import NodeExecutionHook
from pydantic import ValidationError

from registry.contracts import Contract, TurnInput
from registry.knowledge_contracts import KnowledgeAnswer
from registry.record_contracts import DecisionRecord, Usage
from registry.errors import ConfigError
from registry.loader import Registry, load_registry
from registry.model_contracts import ModelClient
from stages import anchors, candidates, learned_evidence, speech_acts, checks, compiler, decision, experience, history, judge, normalization, planner, reply_meta, routing
from stages import knowledge, model_stages

STAGE_MODULES = (normalization, history, speech_acts, learned_evidence, anchors, routing, reply_meta, candidates, planner, judge, checks, experience, decision, compiler, model_stages, knowledge)
FINAL_NODE = "decision_record"
ANSWER_NODE = "dqr_answer"


class DriverConfig(Contract):
    """The driver's config; a misspelt value fails loudly instead of silently building nothing."""

    planner_backend: Literal["heuristic", "gemini", "hybrid", "replay"] = "heuristic"
    """heuristic: no model; gemini: the model plans; hybrid: the model only when the heuristic is unsure;
    replay: as gemini, answers from a cassette (stages/model_stages.py)."""
    object_typer_mode: Literal["deterministic", "llm"] = "deterministic"
    replyability_judge_mode: Literal["deterministic", "llm"] = "deterministic"
    inline_unified_router: bool = True
    ranked_flow_selector: Literal["deterministic", "llm"] = "deterministic"
    """The separate ranking stage used when inline_unified_router is false: deterministic or a model."""
    experience_live_tier: Literal["full", "no_motion", "read_only"] = "full"
    """Which provider tiers an admitted Experience goal may use (effect_catalog live_tiers)."""

    @property
    def uses_model(self) -> bool:
        """Whether any stage of this config calls the model client."""
        return (self.planner_backend != "heuristic" or "llm" in (self.object_typer_mode, self.replyability_judge_mode)
                or (not self.inline_unified_router and self.ranked_flow_selector == "llm"))

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

        _KIWI = Kiwi(load_multi_dict=False)  # the multi-word entity dictionary costs ~190 MB per process
        _KIWI.tokenize("warm up")  # the first call loads the model; keep that out of the first turn
    return _KIWI


def build_driver(config: DriverConfig | None = None, timer: StageTimer | None = None) -> driver.Driver:
    config = config or DriverConfig()
    builder = driver.Builder().with_modules(*STAGE_MODULES).with_config(config.model_dump())
    if timer is not None:
        builder = builder.with_adapters(timer)
    return builder.build()


_GRAPH_HOOKS = ("pre_graph_execute", "post_graph_execute")


class CompiledExecution:
    """Hamilton's own node lifecycle on node lists resolved and validated once per shape of call.

    `Driver.execute` re-resolves the upstream graph, re-validates every input and prunes intermediate results on each
    call: about 1 ms a turn, a third of a heuristic turn. A turn's call shape (its outputs, input names and override
    names) repeats, so the nodes it needs are resolved once, in dependency order, with each node's name and
    dependency names, and each turn runs them in that order through Hamilton's `execute_lifecycle_for_node` with the
    driver's adapters: node hooks (the stage timer) still run, and a driver that carries graph-level hooks or executes
    nodes remotely keeps the plain `Driver.execute`, so no adapter is skipped. (Hamilton's `execute_subdag` walks the
    dependencies of every node again on every call, reading each node's name hundreds of times a turn.)
    """

    def __init__(self, dr: driver.Driver) -> None:
        self.driver = dr
        self.fast = not any(dr.adapter.does_hook(hook, is_async=False) for hook in _GRAPH_HOOKS) \
            and not dr.adapter.does_method("do_remote_execute", is_async=False)
        self._nodes: dict[tuple, list[tuple[str, Any, bool, tuple[str, ...]]]] = {}

    def _resolve(self, outputs: tuple[str, ...], inputs: dict[str, Any], overrides: dict[str, Any]) -> list:
        self.driver.validate_execution(list(outputs), inputs=inputs, overrides=overrides)
        needed, _ = self.driver.graph.get_upstream_nodes(list(outputs), inputs, overrides)
        names = {n.name for n in needed}
        ordered: list = []
        seen: set[str] = set()

        def visit(n) -> None:
            if n.name in seen or n.name not in names:
                return
            seen.add(n.name)
            for dep in n.dependencies:
                visit(dep)
            ordered.append(n)

        for name in outputs:
            visit(self.driver.graph.nodes[name])
        return [(n.name, n, n.user_defined, tuple(d.name for d in n.dependencies)) for n in ordered]

    def execute(self, outputs: list[str], inputs: dict[str, Any], overrides: dict[str, Any] | None = None) -> dict[str, Any]:
        overrides = overrides or {}
        if not self.fast:
            return self.driver.execute(outputs, inputs=inputs, overrides=overrides)
        key = (tuple(outputs), frozenset(inputs), frozenset(overrides))
        nodes = self._nodes.get(key)
        if nodes is None:
            nodes = self._nodes[key] = self._resolve(tuple(outputs), inputs, overrides)
        given = combine_config_and_inputs(self.driver.graph.config, inputs)
        adapter, computed = self.driver.adapter, {}
        for name, node_, user_defined, deps in nodes:
            if name in overrides:
                computed[name] = overrides[name]
            elif user_defined:
                if name in given:  # (an optional input left out stays out, as Hamilton leaves it)
                    computed[name] = given[name]
            else:
                kwargs = {d: computed[d] for d in deps if d in computed}
                computed[name] = execute_lifecycle_for_node(node_, adapter, None, None, **kwargs)
        return {name: computed[name] if name in computed else inputs[name] for name in outputs}


def model_session(config: DriverConfig, client: ModelClient | None):
    """The model inputs and per-turn accounting when a stage of the config calls a model."""
    if client is None:
        if config.uses_model:
            raise ConfigError(f"driver config {config.model_dump()} has model stages: pass a model_client "
                              "(dataflow.model_client.client_from_env, or a ReplayClient)")
        return None
    from dataflow.model_client import ModelSession

    return ModelSession(client)


class TurnRunner:
    """Builds the driver, the Kiwi analyser and the registries once; routes turns through the DAG."""

    def __init__(self, config: DriverConfig | None = None, registry: Registry | None = None, model_client: ModelClient | None = None,
                 knowledge: Any = None):
        self.config = config or DriverConfig()
        self.knowledge = knowledge
        """A rag.store.KnowledgeStore: DQR turns then carry a grounded answer (path B)."""
        self.models = model_session(self.config, model_client)
        self.registry = registry or load_registry()
        self.kiwi = shared_kiwi()
        self.timer = StageTimer()
        self.driver = build_driver(self.config, self.timer)
        self.execution = CompiledExecution(self.driver)

    def route(self, turn: TurnInput, row_id: str | None = None, trace_id: str | None = None) -> DecisionRecord:
        return self.route_with(turn, (), row_id, trace_id)[0]

    def route_with(self, turn: TurnInput, extra_outputs: tuple[str, ...], row_id: str | None = None,
                   trace_id: str | None = None) -> tuple[DecisionRecord, dict[str, Any]]:
        """The decision record plus other nodes asked for by name (the runtime asks for compiled_workflow)."""
        trace_id = trace_id or uuid.uuid4().hex
        self.timer.stage_ms = {}
        started = time.perf_counter()
        inputs = {"turn_input": turn, "kiwi": self.kiwi, "registry": self.registry, "trace_id": trace_id,
                  **(self.models.begin_turn() if self.models else {})}
        result = self.execution.execute([FINAL_NODE, *extra_outputs, *(("normalized_text",) if self.knowledge is not None else ())],
                                        inputs)
        answer = self._knowledge_answer(result, inputs)
        total = (time.perf_counter() - started) * 1000
        record: DecisionRecord = result[FINAL_NODE]
        record = record.model_copy(update={"id": row_id, "answer": answer, "usage": Usage(
            stage_ms=dict(self.timer.stage_ms), total_ms=round(total, 4), **(self.models.usage() if self.models else {}))})
        return record, {name: result[name] for name in extra_outputs}

    def _knowledge_answer(self, result: dict[str, Any], inputs: dict[str, Any]) -> KnowledgeAnswer | None:
        """Path B, run only after DQR owns the turn (a second, small execution), so other turns pay nothing."""
        if self.knowledge is None or result[FINAL_NODE].family != "DQR":
            return None
        answer = self.execution.execute([ANSWER_NODE], {**inputs, **self.knowledge.turn_inputs()},
                                        overrides={"dqr_owns_turn": True, "normalized_text": result["normalized_text"]})[ANSWER_NODE]
        return answer if isinstance(answer, KnowledgeAnswer) else None

    def route_text(self, text: str, **context: Any) -> DecisionRecord:
        return self.route(TurnInput(recognized_text=text, **context))


def error_record(text: str, reason: str, row_id: str | None = None) -> DecisionRecord:
    """A record for a turn that could not be processed: a batch never stops at one bad row."""
    return DecisionRecord(id=row_id, text=text, trace_id=uuid.uuid4().hex, error=reason)
