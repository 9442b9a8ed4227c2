"""Plan compilation (DESIGN section 4): the final plan as device task requests and one submitWorkflow.

Only asked for by the runtime (`compiled_workflow` is not an input of `decision_record`), so
routing a turn does not pay for it.
"""

from __future__ import annotations

from registry.plan_contracts import PlannerOutput
from registry.device_bridge import load_device_bridge
from registry.device_contracts import CompiledWorkflow
from registry.loader import Registry
from stages.compilation import compile_steps


def compiled_workflow(final_plan: PlannerOutput, registry: Registry, trace_id: str) -> CompiledWorkflow:
    """Device steps mapped through the capability registry; cloud steps kept for the route composers."""
    return compile_steps(final_plan.steps, final_plan.selected_routes[0], trace_id, registry, load_device_bridge(registry))
