"""The plan compiler's mechanism: typed plan steps -> device task requests through the registry.

It never invents a task method, a param or a token: methods and param names come from the
capability registry's operations (task_method, param_map, argument defaults), fixed params and
tokens from `device_bridge.json`. A step it cannot map becomes a compile error, and a workflow
with errors runs nothing (fail closed).
"""

from __future__ import annotations

import hashlib

from registry.contracts import Scalar
from registry.plan_contracts import Step, StepOutputCondition
from registry.device_bridge import DeviceBridge
from registry.device_contracts import CompiledStep, CompiledWorkflow, DeviceTaskRequest, StartAfter, WorkflowSubmission
from registry.loader import Registry
from registry.registry_models import Capability, Operation
from stages.boundaries import argument_problem, missing_arguments, step_violations, with_defaults

OPEN_ENDED_MARK = ".running"
CONSENT_PURPOSE_ARG = "purpose"
"""Evidence naming a state that lasts until stopped (air_clean.running, purify.running)."""


def workflow_id_for(trace_id: str) -> str:
    """A uuid4 hex trace id gives wf- and its first 20 digits; any other (a client's own ids share prefixes) its hash."""
    if len(trace_id) == 32 and all(ch in "0123456789abcdef" for ch in trace_id):
        return f"wf-{trace_id[:20]}"
    return f"wf-{hashlib.sha1(trace_id.encode('utf-8')).hexdigest()[:20]}"


def completion_evidence(op: Operation, has_dependants: bool) -> list[str]:
    """PRODUCT.md's completion semantics: an open-ended start completes on its running evidence
    when nothing waits on it, and on its finishing evidence when a later step depends on it."""
    running = [e for e in op.terminal_evidence if e.endswith(OPEN_ENDED_MARK)]
    finishing = [e for e in op.terminal_evidence if not e.endswith(OPEN_ENDED_MARK)]
    if running and finishing:
        return finishing if has_dependants else running
    return list(op.terminal_evidence)


def device_params(cap: Capability, op: Operation, arguments: dict[str, Scalar], registry: Registry,
                  bridge: DeviceBridge) -> tuple[dict[str, Scalar], list[str]]:
    """(params, errors): planner arguments through param_map, defaults filled, fixed params added.
    The arguments are checked by the plan boundaries (stages/boundaries.py), the same rules the plan checks apply."""
    where = f"{cap.capability_id}.{op.operation_id}"
    arguments = with_defaults(op, arguments)
    errors = [v.detail for v in missing_arguments(op, arguments, where)]
    params: dict[str, Scalar] = {}
    for name, value in arguments.items():
        problem = argument_problem(name, value, op, where, registry)
        target = op.param_map.get(name)
        if problem is not None or target is None:
            errors.append(problem.detail if problem else f"argument {name!r} has no device param in {where}")
            continue
        if op.arguments[name].type == "room":
            room_id = registry.resolve_room(str(value))
            value = registry.room_by_id[room_id].canonical_name if bridge.room_param_form == "canonical_name" else room_id
        params[target] = value
    params.update(bridge.params_fixed_by(cap.capability_id, op.operation_id))
    return params, errors


def _consent_purposes(steps: list[Step], registry: Registry) -> dict[str, str]:
    """step id of a consent step -> the capability it grants, read from the guarded step.
    The device keys a granted consent by purpose, and a consent-requiring capability checks its own id."""
    purposes = {}
    for step in steps:
        cap = registry.capability_by_id.get(step.action.capability_id) if step.action else None
        if cap is not None and cap.requires_consent and isinstance(step.condition, StepOutputCondition):
            purposes[step.condition.step_id] = cap.capability_id
    return purposes


def compile_steps(steps: list[Step], family: str, trace_id: str, registry: Registry, bridge: DeviceBridge,
                  workflow_id: str | None = None, start_after: dict[str, StartAfter] | None = None,
                  known_steps: set[str] | None = None) -> CompiledWorkflow:
    """Compile plan steps; `known_steps` are ids of earlier steps (a replan appends to a workflow)."""
    workflow_id = workflow_id or workflow_id_for(trace_id)
    start_after = start_after or {}
    errors: list[str] = []
    earlier: set[str] = set(known_steps or ())
    dependants = {dep for s in steps for dep in s.depends_on}
    dependants |= {s.condition.step_id for s in steps if isinstance(s.condition, StepOutputCondition)}
    compiled: list[CompiledStep] = []
    tasks: list[DeviceTaskRequest] = []
    purposes = _consent_purposes(steps, registry)
    for step in steps:
        step_errors = [str(v) for v in step_violations(step, earlier, registry, arguments=False)]  # arguments: device_params
        depends_on = list(step.depends_on)
        if isinstance(step.condition, StepOutputCondition) and step.condition.step_id not in depends_on:
            depends_on.append(step.condition.step_id)  # a guard on an output waits for that output
        task = None
        if step.action is not None:
            cap = registry.capability_by_id.get(step.action.capability_id)
            op = cap.operation(step.action.operation_id) if cap else None
            if cap is not None and op is not None and step.execution_target == "device":
                arguments = dict(step.action.arguments)
                if step.id in purposes and CONSENT_PURPOSE_ARG in op.arguments:
                    arguments.setdefault(CONSENT_PURPOSE_ARG, purposes[step.id])
                params, param_errors = device_params(cap, op, arguments, registry, bridge)
                step_errors += [f"{step.id}: {e}" for e in param_errors]
                task = DeviceTaskRequest(
                    taskMethod=op.task_method, params=params, cloud_workflow_id=workflow_id, cloud_step_id=step.id,
                    executionMode="queued_async" if step.wait_policy == "submitted" else "queued_wait",
                    wait_policy=step.wait_policy, capability_id=cap.capability_id, operation_id=op.operation_id,
                    depends_on=depends_on, condition=step.condition,
                    completion_evidence=completion_evidence(op, step.id in dependants), timeout_s=cap.timeout_s,
                    start_after=start_after.get(step.id), token_text=bridge.token_text(op.task_method, params),
                )
        errors += step_errors
        if task is not None:
            tasks.append(task)
        compiled.append(CompiledStep(
            step_id=step.id, route=step.route, execution_target=step.execution_target, purpose=step.purpose,
            skill_id=step.skill_id, capability_id=step.action.capability_id if step.action else None,
            operation_id=step.action.operation_id if step.action else None, depends_on=depends_on,
            input_from=list(step.input_from), output_key=step.output_key, condition=step.condition,
            wait_policy=step.wait_policy, device_task=task, start_after=start_after.get(step.id),
        ))
        earlier.add(step.id)
    submission = WorkflowSubmission(workflow_id=workflow_id, subTasks=tasks) if tasks else None
    return CompiledWorkflow(workflow_id=workflow_id, trace_id=trace_id, family=family, steps=compiled,  # type: ignore[arg-type]
                            submission=submission, errors=errors)
