"""The owner-family decision as pure functions of family scores and cached evidence.

The heuristic planner and the second-pass judge decide through these, and so does the
research workbench when it re-scores a batch run under other evidence weights
(`dataflow/workbench/tuning.py`): one decision, whether the DAG runs or a notebook re-scores.
Inputs are plain mappings (family -> score, axis -> strength) so a re-scorer can feed
vectorised scores without building contracts.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence

from registry.registry_models import EvidenceWeights
from registry.plan_contracts import OwnerChoice

CLAUSE_OWNER_FAMILIES = ("ODL", "FRG", "SCH", "DQR", "UNS")
"""Families a single clause may own in a multi-route plan (chat and repair never split a turn)."""

KNOWLEDGE_AXES = ("has_stable_device_qna_target", "has_capability_question", "has_product_identity_anchor",
                  "has_device_knowledge_question", "has_unanchored_knowledge_question", "has_product_topic_question",
                  "has_device_problem_report", "has_device_malfunction_report", "follows_up_DQR")
"""The axes that keep DQR alive (and make a reply object a product question)."""
CONVERSATION_AXES = ("has_clear_conversation_reply_shape", "has_persona_question", "has_coherent_conversation_purpose",
                     "is_said_to_a_person")
"""The axes that make a reply object the conversation partner (a bounded reply DEF can give now)."""
_PUBLIC_AXES = ("has_frg_scope", "has_public_target", "looks_title_like")


def _gray(weights: EvidenceWeights, a: str | None, b: str | None) -> bool:
    """Whether two families form a gray pair the judge may decide (evidence_weights second_pass.gray_pairs)."""
    return any({a, b} == set(pair) for pair in weights.second_pass["gray_pairs"])


def family_order(scores: Mapping[str, float]) -> list[str]:
    """Families by falling score; ties keep the weights file's family order."""
    names = list(scores)
    return sorted(names, key=lambda f: (-scores[f], names.index(f)))


def deciding_clauses(roles: Sequence[str], clause_axes: Sequence[Collection[str]]) -> list[int]:
    """Indexes of the clauses that pick a family of their own; none unless two or more do.

    A guard on public information ("밖에 미세먼지 나쁘면") is a lookup step the guard reads,
    so it decides like an action clause.
    """
    picked = [i for i, (role, axes) in enumerate(zip(roles, clause_axes))
              if role == "action" or (role == "guard" and "has_frg_scope" in axes)]
    return picked if len(picked) >= 2 else []


def choose_owner(
    scores: Mapping[str, float],
    clause_scores: Mapping[int, Mapping[str, float]],
    n_clauses: int,
    allowed: Collection[str],
    short_circuit: bool,
    weights: EvidenceWeights,
) -> OwnerChoice:
    """The first pass: the best allowed family, or the first clause family of a multi-route turn.

    `clause_scores` holds the scores of the deciding clauses only (see `deciding_clauses`).
    """
    full = family_order(scores)
    order = [f for f in full if f in allowed] or full
    margin = scores[full[0]] - scores[full[1]]
    conf = weights.confidence
    confidence = "high" if margin >= conf["high_margin"] else "medium" if margin >= conf["medium_margin"] else "low"
    clause_families: list[str | None] = []
    for i in range(n_clauses):
        top = family_order(clause_scores[i])[0] if i in clause_scores else None
        clause_families.append(top if top in CLAUSE_OWNER_FAMILIES else None)
    if short_circuit:
        family, continuation, confidence = "SCH", True, "high"
    else:
        continuation = False
        firsts = [f for f in clause_families if f]
        family = firsts[0] if firsts and len(set(firsts)) > 1 else order[0]
    runner_up = next((f for f in order if f != family), None)
    needs = _gray(weights, family, runner_up) and margin < weights.second_pass["margin"] and not short_circuit
    return OwnerChoice(
        family=family, order=order, runner_up=runner_up, confidence=confidence, margin=margin,
        continuation=continuation, clause_families=clause_families, needs_second_pass=needs,
        ambiguity=f"{family}~{runner_up} margin {margin:.2f}" if needs else None,
        plan_runner_up=runner_up if margin < conf["high_margin"] else None,
    )


def public_target(strength: Callable[[str], float], owner: str | None = None) -> tuple[float, list[str]]:
    """How stable a public/outside lookup target is, from axis strengths (0 when unlit). A world question (미국 대통령
    누구야) keeps a public lookup the turn already chose; too loose a sign to open one (이 케이크 누가 만들었어?)."""
    title = strength("looks_title_like") if strength("looks_fragmentary") < 0.9 else 0.0
    value = max(strength("has_frg_scope"), title, strength("has_world_question") if owner == "FRG" else 0.0)
    if strength("has_vague_reference") > 0:
        value *= 0.5  # "날씨 그 저": the target trails off; it is not a stable lookup
    if strength("has_public_recommendation_cue") > 0 or strength("has_knowledge_question_shape") > 0:
        value = max(value, strength("has_public_target"))
    return value, [a for a in _PUBLIC_AXES if strength(a) > 0]


def public_override_gap(scores: Mapping[str, float], owner: str, world_question: bool) -> float:
    """How far the first pass put FRG below the owner, for second_pass_pair; none for a question about a place of the
    world (이 근처 캠핑장 아직 개장 안 했나?), which keeps the public question open however far."""
    return 0.0 if world_question else scores.get(owner, 0.0) - scores.get("FRG", 0.0)


def second_pass_pair(
    owner: str,
    runner: str | None,
    needs_second_pass: bool,
    public: float,
    object_type: str,
    family_confidence: str,
    weights: EvidenceWeights,
    frg_gap: float = 0.0,
) -> tuple[str, str] | None:
    """Which gray pair the judge is asked about, or None when it stays closed. A stable public target opens the
    FRG question for a reply or a repair unless the first pass put it out of reach (`frg_gap`: the owner's score
    over FRG's, at least second_pass public_override_max_gap: 어제 바람이 얼마나 세게 불었는지 화분이 다 넘어갔어)."""
    stable = public >= weights.second_pass["stable_public_target_min"]
    if needs_second_pass and runner and _gray(weights, owner, runner):
        return (owner, runner)
    if owner in ("DEF", "STT_NULL") and stable and frg_gap < weights.second_pass.get("public_override_max_gap", float("inf")):
        return (owner, "FRG")
    if (owner in ("DEF", "STT_NULL") and object_type in ("unknown", "conversation")
            and runner in ("DEF", "STT_NULL") and family_confidence != "high"):
        return (owner, runner)  # type: ignore[return-value]
    return None


def second_pass_winner(pair: tuple[str, str], owner: str, public: float, replyability_type: str, weights: EvidenceWeights) -> str:
    """FRG vs DEF/STT_NULL: is a stable public target alive? DEF vs STT_NULL: is a bounded reply?"""
    if "FRG" in pair:
        if public >= weights.second_pass["stable_public_target_min"]:
            return "FRG"
        return next(f for f in pair if f != "FRG")
    return {"bounded_reply_now": "DEF", "whole_intent_repair": "STT_NULL"}.get(replyability_type, owner)
