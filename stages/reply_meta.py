"""Steps 7-8: what the first useful reply is about, and whether it can start now."""

from __future__ import annotations

from hamilton.function_modifiers import config

from registry.contracts import PreclassifierHints, ReplyabilityMeta, ReplyObjectMeta
from stages.owner_choice import CONVERSATION_AXES, KNOWLEDGE_AXES

# (object type, role, axes that point at it), in precedence order
_OBJECT_RULES = (
    ("workflow_target", "schedule_or_workflow", ("has_active_schedule_workflow", "has_schedule_workflow_scope", "has_schedule_management_anchor")),
    ("unsupported_execution_target", "unsupported_target", ("has_unsupported_request", "has_unknown_device_mode")),
    ("device_knowledge", "product_question", KNOWLEDGE_AXES),
    ("supported_device", "device_target", ("has_supported_capability_anchor",)),
    ("public_entity", "public_lookup", ("has_frg_scope", "looks_title_like", "has_world_question")),
    ("outside_option", "recommendation", ("has_public_recommendation_cue",)),
    ("conversation", "conversation_partner", (*CONVERSATION_AXES, "has_generic_help")),
)


@config.when(object_typer_mode="deterministic")
def reply_object_meta__deterministic(preclassifier_hints: PreclassifierHints) -> ReplyObjectMeta:
    """Deterministic object typing from the strongest pointing axes."""
    best = None
    for object_type, role, axes in _OBJECT_RULES:
        strength = max((preclassifier_hints.strength(a) for a in axes), default=0.0)
        if strength >= 0.5 and (best is None or strength > best[2] + 0.25):
            best = (object_type, role, strength, [a for a in axes if preclassifier_hints.flag(a)])
    if best is None:
        return ReplyObjectMeta(object_type="unknown", role="unknown", confidence=0.3, reason_signals=["no_pointing_axis"])
    return ReplyObjectMeta(object_type=best[0], role=best[1], confidence=round(best[2], 3), reason_signals=best[3])


@config.when(replyability_judge_mode="deterministic")
def replyability_meta__deterministic(preclassifier_hints: PreclassifierHints) -> ReplyabilityMeta:
    """bounded_reply_now | whole_intent_repair | uncertain from the conversation and repair axes."""
    strategy = preclassifier_hints.stt_null_response_strategy
    bounded = max(
        preclassifier_hints.strength(a)
        for a in (*CONVERSATION_AXES, "has_generic_help",
                  "has_supported_capability_anchor", "has_stable_device_qna_target", "has_frg_scope",
                  "has_schedule_workflow_scope", "has_unsupported_request")
    )
    fragment = preclassifier_hints.strength("looks_fragmentary")
    if strategy in ("retry", "clarify") and fragment > bounded:
        return ReplyabilityMeta(replyability_type="whole_intent_repair", confidence=round(fragment, 3), reason=[f"stt_null_strategy:{strategy}"])
    if bounded >= 0.6 and bounded >= fragment:
        return ReplyabilityMeta(replyability_type="bounded_reply_now", confidence=round(bounded, 3), reason=["bounded_target_alive"])
    return ReplyabilityMeta(replyability_type="uncertain", confidence=0.5, reason=["weak_reply_shape"])
