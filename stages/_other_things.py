"""What belongs to another thing in the home: a manual topic named as a part of it (정수기 필터), asked about through
it (다이슨 청소기 필터는 어떻게 씻어?) or shown on it (보일러에 E1 떴어) is that thing's, not the robot's.
Mechanisms only: the things, particles and hosted topics are registry data (speech_acts other_targets).
"""

from __future__ import annotations

from registry.contracts import SpeechAct
from registry.loader import Registry
from stages._clauses import ClauseAnalysis, thing_before, thing_owning_the_topic
from stages._matchers import compact

OTHER_THINGS_PART = "target:other_thing"
"""The mention reason of a manual topic named as a part of another thing in the home (정수기 필터)."""


def owned_topics(c: ClauseAnalysis, act: SpeechAct, topics: list[str], registry: Registry) -> tuple[list[str], list[str]]:
    """(the manual topics left the robot's, mentions of what belongs to another thing in the home): 정수기 필터 언제
    갈아? (the part named right after the thing), 차 에어컨 필터는 몇 킬로마다 갈아? (all the question asks about),
    다이슨 청소기 필터는 어떻게 씻어? (how that thing is cared for, with no topic of the manual's)."""
    about = _asked_of_another_thing(c, act, registry)
    owned = [t for t in topics if (about and not _hosts(about, t, registry)) or _topic_of_other_thing(c, t, registry)]
    if owned:
        return [t for t in topics if t not in owned], [f"{t}:{OTHER_THINGS_PART}" for t in owned]
    return topics, [f"{about}:{OTHER_THINGS_PART}"] if about and not topics else []


def _asked_of_another_thing(c: ClauseAnalysis, act: SpeechAct, registry: Registry) -> str | None:
    """The kind of another thing in the home that owns what a question or a remark is about (thing_owning_the_topic;
    에어컨 필터 갈아야 되는데 미루고 있어: that thing's filter is told of, not the manual's)."""
    if act.mood in ("request", "stop", "suggestion") or act.target_owner is not None:
        return None
    return thing_owning_the_topic(c, registry.speech_acts, registry.product.words)


def _hosts(kind: str, topic: str, registry: Registry) -> bool:
    """Whether another thing of this kind hosts the manual topic (the phone hosts the robot's app and Wi-Fi)."""
    return topic in registry.speech_acts.other_targets.hosted_topics.get(kind, [])


def _topic_of_other_thing(c: ClauseAnalysis, topic: str, registry: Registry) -> bool:
    """Whether another thing in the home is named right before the words that anchored this manual topic."""
    at = [c.compact.find(compact(a.surface)) for a in c.anchors if a.kind == "device_qna" and a.target == topic]
    shown = tuple(registry.speech_acts.other_targets.shown_on.get(topic, ()))  # (보일러에 E1 떴어: its code)
    kind = thing_before(c, registry.speech_acts, [a for a in at if a >= 0], owning=True, shown=shown)
    return kind is not None and not _hosts(kind, topic, registry)
