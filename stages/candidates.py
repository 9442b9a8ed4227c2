"""Step 9: the final candidate agents and skills, with where they came from."""

from __future__ import annotations

from registry.contracts import CandidatePool, FlowCatalog, HistoryEvidence, RankedFlows
from registry.loader import Registry


def candidate_pool(ranked_flows: RankedFlows, flow_catalog: FlowCatalog, history_evidence: HistoryEvidence, registry: Registry) -> CandidatePool:
    """Candidates from ranked flows, else the whole filtered catalog (preclassifier fallback)."""
    if history_evidence.active_schedule_workflow:
        flows = [f for f in registry.flow_catalog.flows if f.route_family == "SCH"] + list(flow_catalog.flows)
        source = "active_schedule_workflow"
    elif ranked_flows.top_flows:
        ids = {f.flow_id for f in ranked_flows.top_flows}
        flows = [f for f in flow_catalog.flows if f.flow_id in ids] + [f for f in flow_catalog.flows if f.flow_id not in ids]
        source = "ranked_flows"
    else:
        flows = list(flow_catalog.flows)
        source = "preclassifier_fallback"
    flows = list({f.flow_id: f for f in flows}.values())
    return CandidatePool(
        agent_ids=list(dict.fromkeys(f.agent_id for f in flows)),
        skill_ids=list(dict.fromkeys(f.skill_id for f in flows)),
        flow_ids=[f.flow_id for f in flows],
        source=source,
    )
