"""Typed request frames (`request_frames.json`): the predicates, objects and argument slots that realize each
capability operation, the frames of unsupported requests, and the world events that are no device act.

Every entry is a Kiwi morpheme written `form/TAG`. `extra="forbid"` everywhere, as in registry/speech_contracts.py.
"""

from __future__ import annotations

from functools import cached_property
from typing import Literal

from pydantic import Field

from registry.lexicon_base import Morphemes, _Model


class CapabilityFrame(_Model):
    predicates: Morphemes
    """Lemmas that realize this capability (besides the light verbs and its kind's predicates)."""
    objects: list[str] = Field(default_factory=list)
    """For a capability cued by its verb alone (찍다, 돌다): the nouns it may take as object."""
    goal_objects: Morphemes = Field(default_factory=list)
    """For a capability cued by its verb alone: goal particles (으로/JKB) that make the noun before them stand as the
    verb's object, so that it too must be one of `objects` (왼쪽으로 돌아, 뒤로 돌아: a turn toward somewhere is no
    turn in place; 시계 방향으로 돌아 still is)."""
    subjects: list[str] = Field(default_factory=list)
    """For a state query whose alias is the question itself (어디야, 몇 퍼센트): the nouns it may be asked of
    (약국 어디야 asks where a pharmacy is, not where the robot is)."""
    heads: list[str] = Field(default_factory=list)
    """Nouns that name what the capability sets (화면, 목소리, 바람). With one of `manners` after it in the
    resultative -게 form (화면 쪼매 어둡게 해라, 목소리 좀 작게), a head realizes the capability in any wording."""
    manners: Morphemes = Field(default_factory=list)
    """Adjectives (lemma/TAG; an XR root stands for its 하다 adjective) that a head is made to be."""
    level_verbs: Morphemes = Field(default_factory=list)
    """Verbs that raise or lower what one of `level_heads` names (소리 좀 올려, 바람 좀 줄여): after it, like a manner."""
    level_heads: list[str] = Field(default_factory=list)
    """The heads a level verb sets (소리, not 목소리: 목소리 좀 낮춰 is said to people: keep your voice down)."""
    level_goals: Morphemes = Field(default_factory=list)
    """Goal particles (로/JKB) after a head that is one of the capability's own level words (터보로 해 줘, 강풍으로 돌려)
    with which the head sets that level whatever verb follows, or none (터보로)."""
    bare_goals: Morphemes = Field(default_factory=list)
    """Goal particles (로/JKB) with which a room said alone (거실로, 안방으로 좀) is this capability's request, its verb
    left out: the room is the frame's goal, in the frame's own case."""
    switched_selves: Morphemes = Field(default_factory=list)
    """Nouns naming the robot itself (청정기/NNG, also as the end of a class noun of other_targets: 공기청정기) that,
    bare and right before one of the capability kind's execution verbs (켜다, 끄다, 틀다, 돌리다, 멈추다), ask for this
    capability: switching the purifier on or off is purifying or stopping. Not after another noun or a determiner
    (안방 청정기, 그 청정기, 큐브 공기청정기: maybe another one), nor called (청정기야)."""
    due_runs: list[str] = Field(default_factory=list)
    """For a state query: runs (lemma/TAG+lemma/TAG) that ask whether an act on a head is due or how long ago it was
    last done (갈 때 됐어: 때/NNG+되/VV; 씻은 지 며칠: 지/NNB+며칠/NNG), or name what of the head is left (필터가 얼마나
    남았어: 남/VV; 필터 잔여 수명: 수명/NNG). After a head, the state the capability reports; when to do it in general
    (언제 갈아야 돼) is the manual's."""
    anaphoric_places: Morphemes = Field(default_factory=list)
    """For a move: place words that refer back to the room named last before them in the turn (애기방 공기 나쁘면
    거기 가서 청정해 줘: 거기 is 애기방)."""

    @cached_property
    def predicate_set(self) -> frozenset[tuple[str, str]]:
        """The capability's own predicates as (lemma, tag) pairs."""
        return frozenset(tuple(v.split("/")) for v in self.predicates)  # type: ignore[misc]

    @cached_property
    def goal_object_set(self) -> frozenset[tuple[str, str]]:
        return frozenset(tuple(v.split("/")) for v in self.goal_objects)  # type: ignore[misc]

    @cached_property
    def anaphoric_place_set(self) -> frozenset[tuple[str, str]]:
        return frozenset(tuple(v.split("/")) for v in self.anaphoric_places)  # type: ignore[misc]


class UnsupportedFrame(_Model):
    category: str
    predicates: Morphemes
    objects: list[str] = Field(default_factory=list)
    """Nouns one of which the clause must hold ([] = none needed; ["*"] = any plain noun not a registry word)."""
    recipient_particles: Morphemes = Field(default_factory=list)
    """이 사진 엄마한테 보내 줘: a noun marked by one of these (a recipient) stands in for a listed object."""


class UnsupportedFrames(_Model):
    note: str = ""
    categories: list[UnsupportedFrame]
    own_nouns: list[str] = Field(default_factory=list)
    """Nouns that are never the object of another appliance's control: the robot's own settings (모드, 기능, 소리)
    and times (아까, 지금): 아까 말한 거 그걸로 바꿔 asks back, it names no appliance."""

    reference_determiners: Morphemes = Field(default_factory=list)
    """그 거 / 이 걸로: a noun after one of these refers back and names no appliance (온 문자 still names one)."""

    @cached_property
    def reference_determiner_set(self) -> frozenset[tuple[str, str]]:
        return frozenset(tuple(v.split("/")) for v in self.reference_determiners)  # type: ignore[misc]

    @cached_property
    def predicate_union(self) -> frozenset[tuple[str, str]]:
        """Every predicate of every category's frame."""
        return frozenset(k for _, predicates, _, _ in self.compiled for k in predicates)

    @cached_property
    def own_noun_set(self) -> frozenset[str]:
        return frozenset(n.lower() for n in self.own_nouns)

    @cached_property
    def compiled(self) -> tuple[tuple[str, frozenset[tuple[str, str]], frozenset[str], frozenset[tuple[str, str]]], ...]:
        return tuple((f.category, frozenset(tuple(v.split("/")) for v in f.predicates), frozenset(f.objects),  # type: ignore[misc]
                      frozenset(tuple(v.split("/")) for v in f.recipient_particles))
                     for f in self.categories)


class WorldEvent(_Model):
    """Things the weather and the world do: a noun with one of its predicates (바람 + 불다, 눈 + 오다) describes the
    world, whatever capability the noun or the verb also names (바람 is the fan, 오다 is come here)."""

    nouns: list[str]
    predicates: Morphemes


_NOT_ACTS = frozenset({"되", "있"})
"""Light verbs that do nothing to a thing (오시면 돼요, 있어 줘)."""


class RequestFrames(_Model):
    """`request_frames.json`: which predicates realize each capability."""

    version: str
    description: str = ""
    light_verbs: Morphemes
    kind_predicates: dict[Literal["execution", "settings", "state_query"], Morphemes]
    schedule_predicates: Morphemes
    """예약해줘: a schedulable capability is also realized as the object of a scheduling verb."""
    capabilities: dict[str, CapabilityFrame]
    unsupported: UnsupportedFrames = Field(default_factory=lambda: UnsupportedFrames(categories=[]))
    """Frames of requests the robot cannot do, by UNS category (tried in order)."""
    world_events: list[WorldEvent] = Field(default_factory=list)
    kind_determiners: Morphemes = Field(default_factory=list)
    """이런 / 그런 / 저런: a subject they qualify is a kind of thing (이런 로봇이 어딨어: there is none such), never the
    robot whose state a state question asks."""

    @cached_property
    def kind_determiner_set(self) -> frozenset[tuple[str, str]]:
        return frozenset(tuple(v.split("/")) for v in self.kind_determiners)  # type: ignore[misc]

    @cached_property
    def world_event_pairs(self) -> frozenset[tuple[str, str, str]]:
        """(noun, lemma, tag) of every world event."""
        return frozenset((n, *v.split("/")) for e in self.world_events for n in e.nouns for v in e.predicates)  # type: ignore[misc]

    @cached_property
    def world_nouns(self) -> tuple[frozenset[str], tuple[str, ...]]:
        """The world nouns, and those of two syllables or more that a longer name may end in (영동고속도로)."""
        nouns = frozenset(n for e in self.world_events for n in e.nouns)
        return nouns, tuple(n for n in nouns if len(n) >= 2)

    @cached_property
    def kind_predicate_sets(self) -> dict[str, frozenset[tuple[str, str]]]:
        """Per capability kind, its predicates as (lemma, tag) pairs."""
        return {kind: frozenset(tuple(v.split("/")) for v in values)  # type: ignore[misc]
                for kind, values in self.kind_predicates.items()}

    @cached_property
    def device_verbs(self) -> frozenset[tuple[str, str]]:
        """Verbs (VV) that act on a device thing: the light verbs and the execution and settings predicates. Asked
        for with no noun to act on (켜 줘, 그렇게 좀 해 주세요), they say there is a target, not which."""
        kinds = self.kind_predicate_sets
        return frozenset(k for k in self.light_set | kinds.get("execution", frozenset()) | kinds.get("settings", frozenset())
                         if k[1] == "VV" and k[0] not in _NOT_ACTS)

    @cached_property
    def light_set(self) -> frozenset[tuple[str, str]]:
        """The light verbs as (lemma, tag) pairs."""
        return frozenset(tuple(v.split("/")) for v in self.light_verbs)  # type: ignore[misc]

    @cached_property
    def _fits(self) -> dict[tuple[str, str, bool], frozenset[tuple[str, str]]]:
        return {}

    def fits(self, capability_id: str, kind: str, schedulable: bool = False) -> frozenset[tuple[str, str]]:
        """Every (lemma, tag) that may carry this capability in a clause (built once per capability)."""
        key = (capability_id, kind, schedulable)
        found = self._fits.get(key)
        if found is None:
            frame = self.capabilities.get(capability_id)
            light = self.light_verbs if kind != "state_query" else []
            values = light + self.kind_predicates.get(kind, []) + (frame.predicates + frame.manners if frame else [])  # type: ignore[arg-type]
            if schedulable:
                values = values + self.schedule_predicates
            found = self._fits[key] = frozenset(tuple(v.split("/")) for v in values)  # type: ignore[misc]
        return found
