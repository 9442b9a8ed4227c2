"""A clause as the pipeline reads it: the capability hits and every anchor, room, time and cue it holds.

`stages/_segments.py` finds where clauses and words begin and end; `stages/_anchoring.py` fills these
contracts from the registry's aliases, lemmas and cue sets. Mechanisms only: every word comes from the registry.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from registry.contracts import AnchorMatch, Morpheme, SpeechAct
from registry.speech_contracts import SpeechActLexicon
from stages._times import TimeSlots

VERB_TAGS = frozenset({"VV", "VA", "VX", "XSV", "XSA", "VCP", "VCN", "VV-I", "VA-I", "VV-R", "VA-R"})
"""Predicates proper: verbs, adjectives, auxiliaries, copulas and verb-forming suffixes."""
PREDICATE_TAGS = VERB_TAGS | {"EF"}
ENDS_SENTENCE = ("", ".", "?", "!")
"""Connectives of a clause that ends its sentence (the utterance's end, or sentence punctuation)."""
QUESTION_MOODS = ("question", "knowledge_question", "state_question")
"""The moods that ask (a state, what the robot can do or how something works, or anything else)."""
FINAL_TAGS = {"EF"}


@dataclass
class CapabilityHit:
    capability_id: str
    kind: str
    operation_id: str
    surface: str
    via: str
    strength: float
    position: int
    arguments: dict = field(default_factory=dict)


@dataclass
class ClauseAnalysis:
    index: int
    text: str
    compact: str
    connective: str
    role: str  # action | guard | temporal | fragment
    anchors: list[AnchorMatch]
    capabilities: list[CapabilityHit]
    rooms: list[str]
    unsupported: list[str]
    qna_topics: list[str]
    identity: bool
    unknown_modes: list[str]
    times: TimeSlots
    has_predicate: bool
    has_final_ending: bool
    outdoor_dust: bool
    cues: dict[str, list[str]]
    morpheme_tags: list[str]
    noun_count: int = 0
    has_proper_noun: bool = False
    filler_words: int = 0
    holds_the_floor: bool = False
    """Every word only holds the floor (저 뭐시냐: lexicon fragments floor_holders and fillers): nothing is asked."""
    alternative: bool = False
    """One of two sentences offered as alternatives (거실 정도야 아님 집 전체야): asked, whatever its ending."""
    polar_at: int = -1
    """The morpheme where the clause's polar alternative begins (청정 켜져 있어 | 꺼져 있어, 충전 중이야 | 아니야), or -1:
    what follows restates the question, so neither its predicate nor its negator is the clause's."""
    bound_forms_only: bool = False
    """Every word is particles and endings only (는, 를요, 더라고요): the tail of a sentence recognition lost."""
    start: int = 0
    """Offsets of the clause in the normalized text."""
    end: int = 0
    morphemes: list[Morpheme] = field(default_factory=list)
    compact_offsets: list[int] = field(default_factory=list)
    """Per morpheme: where it starts in `compact` (-1 inside an ignorable word)."""
    in_registry_word: list[bool] = field(default_factory=list)
    """Per morpheme: it lies inside a room name or alias (안방 read as 안/MAG 방): part of that word, not a
    negator or a predicate of its own."""
    after_registry_word: list[bool] = field(default_factory=list)
    """Per morpheme: it follows a room name or alias inside the same written word ("서재가서" read as 서재/가/서)."""
    act: SpeechAct | None = None
    """Set by licensing (stages/speech_acts.py): what the clause does."""
    mentions: list[str] = field(default_factory=list)
    """Capability and category words the clause holds without a licence ("move_to_room:prohibited")."""
    world_event: tuple[int, int] | None = None
    """Set by licensing: morpheme indexes of a world event's noun and predicate (바람 ... 불어), if the clause has one."""


def _things(c: ClauseAnalysis, lex: SpeechActLexicon):
    """(end in the compact text, kind) of each other thing in the home the clause names; a one-syllable name (차,
    폰, 불) counts only as a whole morpheme, never inside a word (차라리)."""
    beside = tuple(lex.other_targets.places_beside)
    for found in lex.things_re.finditer(c.compact):
        name = found.group(0)
        if beside and c.compact.startswith(beside, found.end()):
            continue  # 난로 옆에: a place beside the thing
        if len(name) > 1 or any(mo.form.lower() == name and mo.tag.startswith(("NN", "SL")) for mo in c.morphemes):
            yield found.end(), lex.thing_of[name]
            kind = max((w for w in lex.other_targets.class_nouns if c.compact.startswith(w, found.end())), key=len, default="")
            if kind:
                yield found.end() + len(kind), lex.thing_of[name]  # 큐브 공기청정기 나이트 모드: its name goes on


def thing_named(c: ClauseAnalysis, lex: SpeechActLexicon) -> str | None:
    """The kind of another thing in the home the clause names anywhere."""
    return next((kind for _, kind in _things(c, lex)), None)


def thing_before(c: ClauseAnalysis, lex: SpeechActLexicon, positions: list[int], owning: bool = False,
                 shown: tuple[str, ...] = ()) -> str | None:
    """The kind of another thing in the home (tv, phone...) whose name ends right before one of these compact positions;
    `owning`: joined to it by nothing, a possessive particle (정수기 필터, not 스피커랑 페어링) or one of `shown`."""
    gap = lex.other_targets.max_gap_chars
    joins = {"", *lex.other_targets.possessive_particles, *shown}
    return next((kind for end, kind in _things(c, lex)
                 if any(0 <= at - end <= gap and (not owning or c.compact[end:at] in joins) for at in positions)), None)


def thing_owning_the_topic(c: ClauseAnalysis, lex: SpeechActLexicon, parts: frozenset[str]) -> str | None:
    """다이슨 청소기 필터는 어떻게 씻어 / 차 에어컨 필터는 몇 킬로마다 갈아: the kind of another thing in the home whose
    name stands right before the noun phrase the clause is about (nouns closed by a topic or subject particle) when
    that phrase names one of `parts` (the product's own words: 필터, 배터리), not 블루투스 연결도 (connecting to it)."""
    ms, at = c.morphemes, c.compact_offsets
    for j, mo in enumerate(ms):
        if (mo.tag, mo.form) in _TOPIC_PARTICLES and j and ms[j - 1].tag.startswith("NN"):
            i = j - 1
            while i and ms[i - 1].tag.startswith("NN") and ms[i - 1].start + ms[i - 1].length == ms[i].start:
                i -= 1  # (청소기필터는: the written word the particle closes)
            if not any(ms[k].form.lower() in parts for k in range(i, j)):
                return None
            return thing_before(c, lex, [at[k] for k in range(i, j)], owning=True)
    return None


_TOPIC_PARTICLES = frozenset({("JX", "은"), ("JX", "는"), ("JKS", "이"), ("JKS", "가")})


def schedule_of_another_thing(c: ClauseAnalysis, lex: SpeechActLexicon) -> bool:
    """전기장판 타이머 두 시간으로 맞춰 / 에어컨 꺼짐 타이머: an alarm or a timer word right after another thing's name is
    that thing's own (an unsupported request to it), nothing the robot schedules."""
    words = [*c.cues.get("sch_timer", []), *c.cues.get("sch_alarm", [])]
    return any(thing_before(c, lex, [at]) for w in words if (at := c.compact.find(w.replace(" ", ""))) >= 0)


def thing_as_subject(c: ClauseAnalysis, lex: SpeechActLexicon) -> bool:
    """The clause names a thing as what it is about: the name followed by a part of it, a subject, topic or
    possessive particle or, with no particle, an adjective (티비 화면 눈 아파, 티비가 너무 커, 무드등 눈부셔), not as an
    object (티비 보는데)."""
    for end, _ in _things(c, lex):
        j = next((j for j, at in enumerate(c.compact_offsets) if at == end), None)
        if j is not None and c.morphemes[j].tag.split("-")[0] in ("NNG", "NNP", "JKS", "JX", "JKG", "VA"):
            return True
    return False


def thing_at_the_end(c: ClauseAnalysis, lex: SpeechActLexicon) -> str | None:
    """The kind of another thing in the home whose name is the clause's last word, after its predicate (아 배터리 다
    됐네 폰): said last, it says whose the device words before it are."""
    words = c.text.split()
    if len(words) < 2 or not c.morphemes or not c.morphemes[-1].tag.startswith(("NN", "SL")):
        return None
    return next((kind for end, kind in _things(c, lex) if end == len(c.compact)
                 and c.compact.endswith(words[-1].strip("?.!,~"))), None)


def in_order(clauses: list[ClauseAnalysis]) -> list[int]:
    """Indexes of the clauses in the order they were said."""
    return sorted(range(len(clauses)), key=lambda i: clauses[i].start)


def last_said(clauses: list[ClauseAnalysis]) -> int:
    """Index of the clause said last."""
    return max(range(len(clauses)), key=lambda i: clauses[i].start)


def only_modifiers(c: ClauseAnalysis) -> bool:
    """Every predicate of the clause modifies a content noun (작은방, 새로 산 필터): nothing is said of anything yet
    (not 챙길게, which Kiwi reads as a modifier of the bound noun 게)."""
    ms, ends = c.morphemes, []
    for i, m in enumerate(ms):
        if m.tag in VERB_TAGS:
            at = next((j for j in range(i + 1, len(ms)) if ms[j].tag.startswith("E") and ms[j].tag != "EP"), None)
            ends.append(at is not None and ms[at].tag == "ETM" and at + 1 < len(ms) and ms[at + 1].tag in ("NNG", "NNP"))
    return bool(ends) and all(ends)


def qualifies_a_noun(c: ClauseAnalysis) -> bool:
    """A modifier ending before a noun (배터리 없을 때도 돌아가는 건 돼?: the question is about a case, not the state
    now), unless it lies inside the words of a capability's frame (필터 갈 때 됐어: the due run asks the state)."""
    spans = [(h.position, h.position + len(h.surface)) for h in c.capabilities if h.via == "frame"]
    return any(a.tag == "ETM" and b.tag.startswith("NN") and not any(s <= c.compact_offsets[i + 1] < e for s, e in spans)
               for i, (a, b) in enumerate(zip(c.morphemes, c.morphemes[1:])))
