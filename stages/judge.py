"""Steps 13-14: when to open the pairwise family judge, and its deterministic answer."""

from __future__ import annotations

from hamilton.function_modifiers import config

from registry.contracts import FamilyScores, PreclassifierHints, ReplyabilityMeta, ReplyObjectMeta
from registry.plan_contracts import PlannerOutput, SecondPassVerdict
from registry.loader import Registry
from stages.owner_choice import public_override_gap, public_target, second_pass_pair, second_pass_winner


@config.when(planner_backend="heuristic")  # the model backends' judge: stages/model_stages.py
def second_pass_verdict(
    planner_output: PlannerOutput,
    preclassifier_hints: PreclassifierHints,
    reply_object_meta: ReplyObjectMeta,
    replyability_meta: ReplyabilityMeta,
    family_scores: FamilyScores,
    registry: Registry,
) -> SecondPassVerdict:
    """A narrow pairwise question (DEF/STT_NULL, DEF/FRG, STT_NULL/FRG), never a replan."""
    owner, runner = planner_output.selected_routes[0], planner_output.runner_up_family
    public, public_signals = public_target(preclassifier_hints.strength, owner)
    gap = public_override_gap(family_scores.scores, owner, preclassifier_hints.strength("has_world_question") > 0)
    pair = second_pass_pair(owner, runner, planner_output.needs_second_pass, public, reply_object_meta.object_type,
                            planner_output.family_confidence, registry.weights, gap)
    # a family a mechanism decided (learned_closed_by: a voice stop, a request broken off, words said to a person) is
    # not asked again: the judge weighs reply shapes, which such a turn may have without being a reply
    if pair is None or any(preclassifier_hints.strength(a) for a in registry.weights.learned_closed_by):
        return SecondPassVerdict(ran=False)
    kind = replyability_meta.replyability_type
    winner = second_pass_winner(pair, owner, public, kind, registry.weights)
    if "FRG" in pair:
        reason = public_signals if winner == "FRG" else ["no_stable_public_target"]
        return SecondPassVerdict(ran=True, pair=pair, question="is a stable public/outside target alive?", winner=winner, reason=reason)
    return SecondPassVerdict(ran=True, pair=pair, question="is a bounded reply target alive?", winner=winner, reason=[kind, *replyability_meta.reason])
