"""Steps 4-6: allowed route families, the filtered flow catalog and ranked flows."""

from __future__ import annotations

from hamilton.function_modifiers import config

from registry.contracts import (
    FAMILIES,
    AllowedRouteFamilies,
    FamilyScores,
    FlowCatalog,
    HistoryEvidence,
    PreclassifierHints,
    RankedFlow,
    RankedFlows,
)
from registry.loader import Registry
from stages.ngram_model import LEARNED_PREFIX, lit_strengths
from stages.owner_choice import CONVERSATION_AXES, KNOWLEDGE_AXES, family_order

# Which axes keep which family alive. A family with none of its axes lit is dropped,
# except DEF and STT_NULL, which always remain as the safe conversational exits.
_FAMILY_AXES = {
    "ODL": ("has_supported_capability_anchor", "is_voice_stop"),
    "SCH": ("has_schedule_workflow_scope", "has_schedule_time_semantics", "has_schedule_management_anchor", "has_active_schedule_workflow"),
    "FRG": ("has_frg_scope", "has_public_recommendation_cue", "has_public_target", "looks_title_like", "has_world_question",
            "follows_up_FRG"),
    "DQR": KNOWLEDGE_AXES,
    "UNS": ("has_unsupported_request", "has_unknown_device_mode"),
}


def _learned_keeps_alive(preclassifier_hints: PreclassifierHints, registry: Registry) -> list[str]:
    """Families with no device step of their own that the learned model is sure of (evidence_weights
    learned_opening): they stay on the menu even without a lexical axis. Never ODL, never while a device
    anchor of `learned_opening.unless` is lit; the scores still decide."""
    opening = registry.weights.learned_opening
    if any(preclassifier_hints.flag(a) for a in opening.unless):
        return []
    lit = lit_strengths(preclassifier_hints.axes)
    return [f for f in opening.families if preclassifier_hints.strength(LEARNED_PREFIX + f) >= opening.min_probability
            and not any(lit.get(a) for a in opening.unless_for.get(f, ()))]


def allowed_route_families(preclassifier_hints: PreclassifierHints, history_evidence: HistoryEvidence,
                           registry: Registry) -> AllowedRouteFamilies:
    """Families the evidence keeps alive, each with the axes that kept it."""
    reasons: dict[str, list[str]] = {}
    for family, axes in _FAMILY_AXES.items():
        lit = [a for a in axes if preclassifier_hints.flag(a)]
        if lit:
            reasons[family] = lit
    for family in _learned_keeps_alive(preclassifier_hints, registry):
        if family in _FAMILY_AXES and family not in reasons:
            reasons[family] = [LEARNED_PREFIX + family]
    if history_evidence.continuation_route in _FAMILY_AXES and history_evidence.continuation_route not in reasons:
        reasons[history_evidence.continuation_route] = ["history_continuation"]
    reasons["DEF"] = [a for a in CONVERSATION_AXES if preclassifier_hints.flag(a)] or ["safe_exit"]
    reasons["STT_NULL"] = ["looks_fragmentary"] if preclassifier_hints.flag("looks_fragmentary") else ["safe_exit"]
    return AllowedRouteFamilies(families=[f for f in FAMILIES if f in reasons], reasons=reasons)


def flow_catalog(allowed_route_families: AllowedRouteFamilies, registry: Registry) -> FlowCatalog:
    """The skill registry's flows, filtered to the allowed families: the planner's menu."""
    allowed = set(allowed_route_families.families)
    return FlowCatalog(flows=[f for f in registry.flow_catalog.flows if f.route_family in allowed])


def _ranked(flow_catalog: FlowCatalog, family_order: list[str], scores: dict[str, float], source: str) -> RankedFlows:
    rank = {f: i for i, f in enumerate(family_order)}
    flows = sorted(flow_catalog.flows, key=lambda f: (rank.get(f.route_family, 99), f.flow_id))
    top = [
        RankedFlow(flow_id=f.flow_id, confidence=round(max(0.0, min(1.0, 0.5 + scores.get(f.route_family, 0.0) / 8)), 3),
                   rationale=f"{source}: {f.route_family} score {scores.get(f.route_family, 0.0):.2f}")
        for f in flows[:8]
    ]
    owner = flows[0].route_family if flows else None
    return RankedFlows(
        top_flows=top,
        candidate_agent_ids=list(dict.fromkeys(f.agent_id for f in flows)),
        candidate_skill_ids=list(dict.fromkeys(f.skill_id for f in flows)),
        ranked_owner_selection=owner,
        owner_hint_strength=top[0].confidence if top else 0.0,
    )


@config.when(inline_unified_router=True)
def ranked_flows__inline(flow_catalog: FlowCatalog, family_scores: FamilyScores) -> RankedFlows:
    """Inline ranking: families ordered by the evidence weights over the turn's axes (scored once, in family_scores)."""
    return _ranked(flow_catalog, family_order(family_scores.scores), family_scores.scores, "inline")


@config.when(inline_unified_router=False, ranked_flow_selector="deterministic")
def ranked_flows__separate(flow_catalog: FlowCatalog, family_scores: FamilyScores) -> RankedFlows:
    """A separate ranking stage over the planner's family scores (the model selector slots in here)."""
    return _ranked(flow_catalog, family_order(family_scores.scores), family_scores.scores, "separate")
