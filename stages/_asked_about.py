"""What a question to the robot asks about: the product, a thing of the world, a place outside the home.

No nodes here: helpers of the evidence axes (stages/anchors.py), each a pure function of a clause and the registry.
"""

from __future__ import annotations

from registry.loader import Registry
from registry.speech_contracts import PRODUCT_NOUN_TAGS
from stages._clauses import ClauseAnalysis, thing_before
from stages._matchers import matchers_for, public_place_of


def product_topic(c: ClauseAnalysis, registry: Registry) -> str | None:
    """The first whole noun of the clause that names this product or one of its parts or properties."""
    words = registry.product.words
    past = set(registry.speech_acts.retrospective_modifiers)
    for i, (mo, at) in enumerate(zip(c.morphemes, c.compact_offsets)):
        if mo.tag in PRODUCT_NOUN_TAGS and mo.form.lower() in words:
            # 엄마 폰 화면: the part belongs to another thing in the home, not to the robot;
            # 예전에 쓰던 공기청정기: a thing of the past, not this one
            j = i
            while j > 0 and c.morphemes[j - 1].tag in PRODUCT_NOUN_TAGS:
                j -= 1
            bygone = j > 0 and f"{c.morphemes[j - 1].form}/{c.morphemes[j - 1].tag}" in past
            return None if bygone or thing_before(c, registry.speech_acts, [at]) else mo.form
    return None


_ELSEWHERE_REASONS = ("subject", "target", "third_person", "user")
"""Mention reasons that put a capability word on something or somebody else (약국 어디야, 티비 소리, 엄마 와?)."""


def about_the_robot(mention: str) -> bool:
    """Whether a mention ("capability:reason") still concerns the robot's own device."""
    return not mention.split(":", 1)[1].startswith(_ELSEWHERE_REASONS)


_ASKS_ABOUT_SOMEBODY = ("robot_subject", "speaker_subject", "subject:", "vocative", "robot_vocative", "promissive")


def world_question(c: ClauseAnalysis, registry: Registry) -> str | None:
    """The noun a question to the robot asks about when it is a thing of the world: no device word, no product word,
    nobody in the home (너, 나, 엄마) as its subject; asked by a question word or by an adjective (심해? 더워?)."""
    act = c.act
    if act is None or act.mood not in ("question", "state_question") or c.capabilities or c.unsupported or c.qna_topics:
        return None
    if act.target_owner or act.reported or act.agent != "robot" or any(s.startswith(_ASKS_ABOUT_SOMEBODY) for s in act.signals):
        return None
    if any(not m.split(":", 1)[1].startswith("subject") for m in c.mentions):
        return None  # a device word that failed its frame for another reason is about the device, not the world
    lex = registry.speech_acts
    persons = lex.person_set
    asks = any(f"{mo.form}/{mo.tag}" in lex.question_word_set for mo in c.morphemes) or any(
        mo.tag in ("VA", "VA-I") for mo in c.morphemes)
    if not asks:
        return None
    return next((mo.form for i, mo in enumerate(c.morphemes) if mo.tag in ("NNG", "NNP") and not c.in_registry_word[i]
                 and mo.form not in persons and len(mo.form) >= 2), None)


def public_place_asked(c: ClauseAnalysis, registry: Registry) -> str | None:
    """The place of the outside world a question to the robot (or a request to look it up) names, when nothing in
    the clause is licensed and nobody else's thing or words are in it."""
    act = c.act
    m = matchers_for(registry)
    # (a knowledge question only when asked aloud: 미용실 가야 돼 heard without "?" is what the speaker must do)
    asked = act.mood in ("question", "state_question") or (act.mood == "knowledge_question" and "?" in c.text)
    asking = asked or (act.mood == "request" and m.frg_lookup.first(c.compact) is not None)
    if not asking or c.capabilities or c.unsupported or act.target_owner or act.reported or act.agent != "robot":
        return None
    return public_place_of(c.morphemes, m)
