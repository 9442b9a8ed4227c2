"""Steps 13-14: when to open the pairwise family judge, and its deterministic answer."""

from __future__ import annotations

from registry.contracts import PlannerOutput, PreclassifierHints, ReplyabilityMeta, ReplyObjectMeta, SecondPassVerdict
from registry.loader import Registry
from stages._plan import GRAY

_PUBLIC_AXES = ("has_frg_scope", "has_public_target", "looks_title_like")


def _public_target(hints: PreclassifierHints) -> tuple[float, list[str]]:
    title = hints.strength("looks_title_like") if hints.strength("looks_fragmentary") < 0.9 else 0.0
    strength = max(hints.strength("has_frg_scope"), title)
    if hints.flag("has_vague_reference"):
        strength *= 0.5  # "날씨 그 저": the target trails off; it is not a stable lookup
    if hints.flag("has_public_recommendation_cue") or hints.flag("has_knowledge_question_shape"):
        strength = max(strength, hints.strength("has_public_target"))
    return strength, [a for a in _PUBLIC_AXES if hints.flag(a)]


def second_pass_verdict(
    planner_output: PlannerOutput,
    preclassifier_hints: PreclassifierHints,
    reply_object_meta: ReplyObjectMeta,
    replyability_meta: ReplyabilityMeta,
    registry: Registry,
) -> SecondPassVerdict:
    """A narrow pairwise question (DEF/STT_NULL, DEF/FRG, STT_NULL/FRG), never a replan."""
    owner, runner = planner_output.selected_routes[0], planner_output.runner_up_family
    public, public_signals = _public_target(preclassifier_hints)
    pair = None
    if planner_output.needs_second_pass and runner and frozenset((owner, runner)) in GRAY:
        pair = (owner, runner)
    elif owner in ("DEF", "STT_NULL") and public >= registry.weights.second_pass["stable_public_target_min"]:
        pair = (owner, "FRG")
    elif owner in ("DEF", "STT_NULL") and reply_object_meta.object_type in ("unknown", "conversation") and runner in ("DEF", "STT_NULL") and planner_output.family_confidence != "high":
        pair = (owner, runner)
    if pair is None:
        return SecondPassVerdict(ran=False)
    if "FRG" in pair:
        other = next(f for f in pair if f != "FRG")
        if public >= registry.weights.second_pass["stable_public_target_min"]:
            return SecondPassVerdict(ran=True, pair=pair, question="is a stable public/outside target alive?", winner="FRG", reason=public_signals)
        return SecondPassVerdict(ran=True, pair=pair, question="is a stable public/outside target alive?", winner=other, reason=["no_stable_public_target"])
    kind = replyability_meta.replyability_type
    winner = {"bounded_reply_now": "DEF", "whole_intent_repair": "STT_NULL"}.get(kind, owner)
    return SecondPassVerdict(ran=True, pair=pair, question="is a bounded reply target alive?", winner=winner, reason=[kind, *replyability_meta.reason])
