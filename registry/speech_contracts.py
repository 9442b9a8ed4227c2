"""Typed language data: the speech-act lexicon (`speech_acts.json`). The product's own vocabulary is in
registry/product_contracts.py, the request frames in registry/frame_contracts.py.

Every entry is a Kiwi morpheme written `form/TAG` (or a bare form where a list says so).
`extra="forbid"` everywhere: a key no code reads fails loading instead of lying unused.
"""

from __future__ import annotations

import hashlib
import re
from functools import cached_property
from pydantic import Field

from registry.lexicon_base import AnswerShape, AwayQuestions, Exclusion, Morphemes, PersonPurposes, Prohibitive, QuantityKind, ScopeQuestion, Vocatives, _Model


class Permission(_Model):
    endings: Morphemes
    verbs: Morphemes
    """켜도 돼? / 청소도 돼?: a question about what is allowed or possible."""
    granted: Morphemes = Field(default_factory=list)
    """그만해도 돼 / 이제 꺼도 돼 heard without "?": leave given to stop is a request to stop (nobody asks the robot
    whether they may stop it; with "?" it stays a question)."""


class Necessity(_Model):
    endings: Morphemes
    verbs: Morphemes
    note: str = ""


class Means(_Model):
    connectives: Morphemes
    neutral_goals: Morphemes
    """Goals the robot reaches by simply being there (기다려, 봐, 확인해): the means stays asked for."""
    sequence_auxiliaries: Morphemes
    """청정하고 나서: -어서 on one of these auxiliaries is "after", an act of its own, not a means."""
    note: str = ""


class IntonedQuestions(_Model):
    """Statement shapes that, heard without "?" and said to the robot, ask about it (mood knowledge_question)."""

    feature_nouns: Morphemes
    """물걸레 기능 있어요 / 차일드 락 있어: a feature noun with an existence verb asks whether the robot has it."""
    diagnosis_nouns: Morphemes
    """자꾸 멈추는데 고장이야 / 정상이야: a diagnosis noun with the copula asks what is wrong."""
    verdict_predicates: Morphemes
    """고양이가 올라타는데 괜찮아: after a premise (-는데, -니까) these ask for a verdict on it."""
    usual_subjects: Morphemes = Field(default_factory=list)  # 이거 원래 이렇게 시끄러워: with a usual adverb, asks
    state_aspects: list[Morphemes] = Field(default_factory=list)
    """켜져 있는 거야 / 작동 중인 거야: besides -고 있, aspects that say how the robot is now; with one of its state words
    and no person named, the statement asks it."""
    note: str = ""


class CapabilityOverview(_Model):
    what_words: Morphemes
    ability_words: Morphemes
    note: str = ""

    @cached_property
    def what_set(self) -> frozenset[str]:
        return frozenset(self.what_words)

    @cached_property
    def ability_set(self) -> frozenset[str]:
        return frozenset(self.ability_words)


class Wish(_Model):
    auxiliaries: Morphemes
    verbs: Morphemes
    after_conditional: Morphemes
    conditional_endings: Morphemes
    curiosity: Morphemes = Field(default_factory=list)
    """오늘 날씨 알고 싶어 / 궁금하다: wishing to know, or being curious, asks a question."""
    not_knowing: Morphemes = Field(default_factory=list)  # 어디 있는지 모르겠네: not knowing what is embedded asks it
    knowing_nothing: Morphemes = Field(default_factory=list)  # 뭔지 하나도 / 도통 모르겠어: bewildered, nothing asked
    formal_request_endings: Morphemes = Field(default_factory=list)
    """보고 바랍니다 / 이동 바람: a wish verb in one of these formal endings, right after a bare noun (no particle), asks
    for the act the noun names (official and military style), as 부탁 does; 쾌유를 바랍니다 wishes."""


class AskingLeave(_Model):
    negators: Morphemes
    verbs: Morphemes
    honorifics: Morphemes = Field(default_factory=list)  # 해 주시면 안 될까요: may stand before the conditional
    note: str = ""


class Ability(_Model):
    modifier_endings: Morphemes
    nouns: Morphemes
    verbs: Morphemes
    predicates: Morphemes = Field(default_factory=list)
    """알아들어? 연동돼요? 인식해?: predicates that, asked without a benefactive, ask what the robot can do."""
    inability_negators: Morphemes = Field(default_factory=list)
    """노래 같은 건 못 틀어 주지? 계단은 못 올라가?: a question negated by one of these asks whether it can, even with a
    benefactive (it cannot be a request: nobody asks for what they say cannot be done)."""
    note: str = ""


class NeedDenial(_Model):
    nouns: Morphemes
    verbs: Morphemes
    """필요 없어 / 인사할 필요까지는 없어요: a need denied is a negated request."""


class Progressive(_Model):
    endings: Morphemes
    auxiliaries: Morphemes
    """돌고 있어: an ongoing state is described, not requested."""


class VoiceStop(_Model):
    words: Morphemes
    """Words that ask to stop (그만, 멈추다, 중지): alone, whatever runs; in a capability's clause, what it does."""
    off_words: Morphemes = Field(default_factory=list)
    """Switching off (다 꺼): a voice stop when said alone, but no stop of a capability that cannot stop (사진 찍고 꺼)."""
    companions: Morphemes
    """Morphemes that may stand beside a stop word (다 꺼, 이제 그만해) without making it a request of its own."""
    note: str = ""


class OtherTargets(_Model):
    note: str = ""
    category: str
    """The unsupported category a request aimed at one of these things belongs to."""
    max_gap_chars: int = Field(ge=0, le=8)
    """How many characters (particles: 의, 가, 을) may stand between the thing and the capability word it owns."""
    things: dict[str, list[str]]
    """Kind of thing -> nouns naming it (matched as whole morphemes, lower case)."""
    possessive_particles: list[str] = Field(default_factory=list)
    """What alone may join a thing to a part of it (정수기 필터, 정수기의 필터); 스피커랑 페어링 joins two things."""
    played: list[str] = Field(default_factory=list)
    """What is played on another device (영상, 음악): the robot plays nothing, so a device word this noun owns
    right before it (영상 소리 좀 꺼, 음악 볼륨 줄여) is that device's; named elsewhere it owns nothing (노래 좋다)."""
    busy_with: Morphemes = Field(default_factory=list)
    """중/NNB (방송 중이야), 에/JKB (방송에 소리 들어가): after a played noun, what the speaker is busy with or where the
    robot's sound would go; the request nearby makes room for it and stays the robot's (음량 3으로 낮춰 줘, 방송 중이야)."""
    carried_capabilities: list[str] = Field(default_factory=list)
    """Capabilities a thing also has (소리, 밝기), aimed at it right after a remark about it (티비 화면 눈 아파 밝기 낮춰 줄래)."""
    class_nouns: list[str] = Field(default_factory=list)  # 공기청정기: after a thing's name (큐브 공기청정기), part of it
    places_beside: list[str] = Field(default_factory=list)  # 옆, 앞, 위: 난로 옆에 세워 뒀더니 names where, not what
    shown_on: dict[str, list[str]] = Field(default_factory=dict)  # topic -> particles: 보일러에 E1 떴어 (that thing's code)
    hosted_topics: dict[str, list[str]] = Field(default_factory=dict)
    """Kind of thing -> manual topics of the robot's that live on it (the robot's app on a phone): 폰 앱으로 뭐 할 수 있어
    asks about the robot's app, not the phone's part."""
    carried_by_a_person: list[str] = Field(default_factory=list)
    """Kinds of thing a person carries or uses alone (phone, watch, car): their state (폰 배터리 몇 프로야) is asked of
    their owner, not of the robot; an appliance of the home's state asked (에어컨 켜져 있어?) is a request it cannot serve."""

    @cached_property
    def busy_set(self) -> frozenset[tuple[str, str]]:
        return frozenset(tuple(v.split("/")) for v in self.busy_with)  # type: ignore[misc]


def _runs(runs: list[Morphemes]) -> tuple[tuple[tuple[str, str], ...], ...]:
    """Runs of `form/TAG` morphemes as tuples of (form, tag) pairs, the form `contains` matches."""
    return tuple(tuple(tuple(v.split("/")) for v in run) for run in runs)  # type: ignore[misc]


class SpeechActLexicon(_Model):
    version: str
    description: str = ""
    prohibitive: Prohibitive
    exclusion: Exclusion
    prohibition_spreads_over: Morphemes
    """거실 가서 청정하지 마: a prohibition reaches back over these connectives to the clause before."""
    reason_spreads_over: Morphemes = Field(default_factory=list)
    """에어컨 끄고 잘 거니까: a reason (premise_endings) reaches back over these connectives to the clause before."""
    means: Means
    negators: Morphemes
    need_denial: NeedDenial
    permission: Permission
    necessity: Necessity
    quotatives: Morphemes
    quote_marks: list[str]
    reporting_verbs: Morphemes
    bare_quotatives: Morphemes = Field(default_factory=list)  # 2년이라 했지 / 가자 캤잖아: quoting only before a reporting verb
    display_verbs: Morphemes = Field(default_factory=list)
    """스테이션을 못 찾는다고 떠 / E3라고 나와: a quote the device shows (a message on its screen), not somebody's words."""
    hearer_mind: list[Morphemes] = Field(default_factory=list)  # 기억나? / 봤어?: what the hearer remembers or saw
    agreement_tags: list[Morphemes] = Field(default_factory=list)  # 어이없지 않냐?: agreement sought, not a fact
    habitual_runs: list[Morphemes] = Field(default_factory=list)  # 혼자 움직이기도 해: what it does at times, told
    quoting_conjunctions: Morphemes = Field(default_factory=list)  # 해 줘 그러면 ...?: if it is said, what then
    supposition_markers: Morphemes = Field(default_factory=list)  # 그럼 좋아지겠지: what follows is hoped, not asked
    request_quotatives: Morphemes = Field(default_factory=list)  # 해 달라니까 / 하라고 했더니: a request quoted
    progressive: Progressive
    premise_endings: Morphemes
    """공기 괜찮으니까 청정 안 해도 돼: a capability word whose predicate ends in one of these states a premise."""
    plan_endings: list[Morphemes] = Field(default_factory=list)
    """산책 가려는데 / 나가려고 하니까: runs after a verb that say the speaker means to do it, as the turn's background."""
    past_markers: Morphemes
    polite_tails: Morphemes = Field(default_factory=list)  # 켜 놨고요: after a connective ending, closes what is told
    asked_of_people_too: list[str] = Field(default_factory=list)
    """Capabilities of acts people ask of each other too (take_photo, move_to_room): see the note in speech_acts.json."""
    asked_of_people_too_note: str = ""
    distal_references: list[Morphemes] = Field(default_factory=list)
    """저 로봇 / 그 기계 / 쟤: the robot pointed at from afar, in the third person: the turn talks about it to
    somebody else (저 로봇 주방 갈 때마다 덜컹거리더라), it does not ask it anything."""
    usual_adverbs: Morphemes = Field(default_factory=list)
    """원래 / 보통 / 평소에: a question with one asks what is usual for the product (배터리 원래 이렇게 빨리 닳아?), a
    question for the manual, not about the state now."""
    past_perfect_markers: Morphemes = Field(default_factory=list)
    """었었 / 았었 (나갔었어): a past that no longer holds; a question in it asks about then, not about the state now."""
    retrospective_endings: Morphemes = Field(default_factory=list)
    """멈추더라, 안 되더라고: a sentence ending that tells what the speaker saw happen, a past narrative like 었 (not with a
    question word: 은행 몇 시에 문 닫더라 searches memory)."""
    promissive_endings: Morphemes
    speaker_pronouns: Morphemes
    robot_pronouns: Morphemes
    subject_particles: Morphemes
    described_subject_particles: Morphemes = Field(default_factory=list)
    """이/가, 은/는 (not 도: 로봇도 심심할 때가 있나? is asked of it): the robot's noun with one is told about."""
    person_nouns: list[str]
    honorific_verb_endings: Morphemes = Field(default_factory=list)
    """시/EP, 세요/EF: right after a request's own verb (오세요, 들어가실, not 찍어 주세요), the doer is honoured: after a
    person noun heading the turn bare (이모 밥 다 됐으니까 주방으로 오세요), the request is said to that person."""
    not_topic_nouns: list[str] = Field(default_factory=list)
    """처음, 나중, 정도: they place or measure what is asked (처음 설정에 방이 몇 개야?), never the thing asked about."""
    vocatives: Vocatives
    wish: Wish
    asking_leave: AskingLeave = Field(default_factory=lambda: AskingLeave(negators=[], verbs=[]))
    """해 주면 안 돼?: a benefactive under a negated conditional asks for the act (a polite request)."""
    benefactives: Morphemes
    nominalizers: Morphemes = Field(default_factory=list)
    """켜 주는 것도 할 수 있어?: a benefactive inside a nominalized phrase (주는 것) is not the clause's request."""
    request_nouns: Morphemes
    """청정 부탁드립니다: a noun that makes any ending a request."""
    request_endings: Morphemes
    scope_question: ScopeQuestion | None = None
    """포름알데히드도 잡아 줘? (a benefactive, 도 and a plain ending, asked with "?"): whether it does that too."""
    asking_request_endings: Morphemes = Field(default_factory=list)
    """청정해 줄래?: a question ending that asks for the act (a request, not a question)."""
    manner_endings: Morphemes = Field(default_factory=list)
    open_question_endings: Morphemes = Field(default_factory=list)
    """뭐가 달라지는데? 어디 가는데: a declarative ending that asks when a question word comes before it, unless an
    indirect question (indirect_question_endings) holds the question word (뭐가 좋은지 모르겠는데)."""
    indirect_question_endings: Morphemes = Field(default_factory=list)
    finding_out_verbs: Morphemes = Field(default_factory=list)
    """공기 어떤지 확인해, 어디 있는지 봐: a verb whose object is an indirect question asks to find it out; its question
    word asks nothing of the hearer by itself (a request, not a question, unless asked with "?")."""
    open_question_words: Morphemes = Field(default_factory=list)
    """Question words that make an open_question_ending ask (not 얼마나 이쁜데, 왜 이렇게 늦는데: exclaimed)."""
    person_acts: Morphemes = Field(default_factory=list)
    """신발 벗고 거실로 가세요: what only a person does (dress, wash, eat); asked as the first act of a -고
    sequence, it makes the whole sequence a person's, addressed to somebody other than the robot."""
    sequence_endings: Morphemes = Field(default_factory=list)
    conjecture_endings: Morphemes = Field(default_factory=list)
    """나이트 모드인가 봐 / 거실로 가나 봐: one of these followed by a conjecture auxiliary guesses (it seems), it asks
    nothing, whatever request ending the auxiliary carries."""
    conjecture_auxiliaries: Morphemes = Field(default_factory=list)
    service_declaratives: Morphemes = Field(default_factory=list)
    """바꿔 줍니다 / 거실로 가 드립니다: a benefactive before one of these plain declaratives describes or promises a
    service (an advertisement, a role play); it asks for nothing (a request says 주세요, 줘, 주십시오)."""
    confirmation_predicates: Morphemes = Field(default_factory=list)
    """돌아가고 있는 거 맞아?: after a modifier and a nominalizer, asks whether what it qualifies holds; the
    qualified predicate carries the frame."""
    intoned_questions: IntonedQuestions | None = None
    bare_request_connectives: Morphemes = Field(default_factory=list)
    """켜 봐 (9시 뉴스 할 시간이다): a request ending read as a connective before a remark (a copula or an
    adjective) ends its own sentence; the remark gives the reason and does not turn the request into talk."""
    verb_imperative_endings: Morphemes = Field(default_factory=list)
    """추워라 exclaims, 돌려라 commands: these exclamative endings are imperatives on an action verb."""
    social_interjections: Morphemes = Field(default_factory=list)
    """헐 대박, 안녕, 오케이, 어 그래: interjections that say something to somebody (talk). A turn of interjections
    none of which is one of these (흐음, 휴우, 쯧쯧, 으아아) is a vocalization: nothing to answer, repaired."""
    exclamatory_words: Morphemes = Field(default_factory=list)  # 오 대박 / 아 깜짝: exclaim with interjections only
    event_verbs: Morphemes = Field(default_factory=list)
    """짜증 나 / 소리 나: a verb of something happening to the speaker or the room; a bare -어 on it tells, never asks."""
    inner_events: Morphemes = Field(default_factory=list)
    """짜증 나, 맛이 날 텐데, 땀 나: nouns whose happening (an event verb) is inside a person, not the product's trouble
    (프리필터에서 쉰내가 나요 is)."""
    lessening: Morphemes = Field(default_factory=list)  # 냄새가 덜 나: an event happening less is no problem
    unbidden_verbs: Morphemes = Field(default_factory=list)
    """측정 돼 / 금방 닳아 / 다른 방도 청정 돼: a verb nobody can be bidden to (it happens, or it is possible); ending
    its sentence on an ending only intonation tells from a question (intonation_endings), it tells or asks, never bids."""
    inchoative_aux: Morphemes = Field(default_factory=list)
    """바람 약해져: the auxiliary of becoming after an adjective is as unbidden (not after a verb: 청정해 져 is a
    recognition slip of 줘)."""
    doing_verbs: Morphemes = Field(default_factory=list)
    """하/VV: a verb of doing whose object, a noun marked by one of doing_object_particles (습도 조절도 해?), is the act
    asked: the noun is the predicate a capability word before it belongs to, as a verbal noun with 하 written on is."""
    doing_object_particles: Morphemes = Field(default_factory=list)
    """을/를, 도, 은/는: what marks the object of a verb of doing (not 만: 잠깐만 해 줘 says how long, nor 으로: a level)."""
    persona_words: Morphemes = Field(default_factory=list)
    """너도 친구 있어? 로봇도 심심할 때가 있나?: the robot asked about itself as a person (small talk, not the manual)."""
    retrospective_modifiers: Morphemes = Field(default_factory=list)
    """쓰던 공기청정기, 있었던 필터: a noun phrase these modify names a thing of the past, not this product."""
    malfunction_predicates: Morphemes = Field(default_factory=list)
    """멈췄어, 뜨거워요, 반응이 없어: said of the product or a part, a statement reports a problem, whatever its tense."""
    intonation_endings: Morphemes = Field(default_factory=list)
    """Endings only intonation tells apart (말려도 돼 / 넘을 수 있어): speech recognition drops the question
    mark, so an ability, permission or necessity clause ending in one, said to the robot, is read as asked."""
    """세게, 빵빵하게: an adjective with one of these says how, it is not the clause's predicate."""
    suggestion_endings: Morphemes
    recall_endings: Morphemes = Field(default_factory=list)
    """뭐였더라 / 어떻게 하는 거였더라 / 그 뭐였지: a question word with a copula (or 그렇다) and one of these
    endings, and nothing named, is the speaker searching memory: a word not found, not a question to answer."""
    recall_predicates: Morphemes = Field(default_factory=list)
    deliberation_endings: Morphemes = Field(default_factory=list)
    """우리 거실 가서 영화 볼까?, 애호박 넣을까?: shall I / shall we on a verb of doing is the speaker deliberating
    (agent user): no request. -자 still suggests doing it together; a benefactive (가 주실 수 있을까요) still asks,"""
    offering_benefactives: Morphemes = Field(default_factory=list)
    """but not one of these right before the ending: 켜 줄까? / 찍어 드릴까요? is the speaker offering to do it."""
    declarative_endings: Morphemes
    exclamative_endings: Morphemes
    question_endings: Morphemes
    question_marks: list[str]
    question_words: Morphemes
    how_words: Morphemes
    quantity_question_words: Morphemes = Field(default_factory=list)
    """몇, 얼마, 얼마나, 언제: a question about the manual they ask is answered by a sentence with a number."""
    quantity_kinds: list[QuantityKind] = Field(default_factory=list)
    """Which unit answers a quantity question (몇 분 걸려 -> 분, 시끄러워? -> dB): the answer prefers a sentence
    that states a number in one of them."""
    capability_overview: CapabilityOverview | None = None
    """What-words and ability words that ask what the robot can do at all (answered from the capability registry)."""
    how_phrases: list[Morphemes] = Field(default_factory=list)
    """Morpheme sequences that ask how (어떻게 = 어떻/VA-I 게/EC; 어떻/VA-I alone asks for a state: 어때?)."""
    where_phrases: list[Morphemes] = Field(default_factory=list)  # 어디서 재?: how it works, unless past or ongoing
    criterion_phrases: list[Morphemes] = Field(default_factory=list)
    """몇부터 나쁨이야 / 좋음 기준이 몇이야 / 기본값이 뭐야: a question with one of these sequences asks for the
    manual's definition of a state (a threshold, a default), not for the state now."""
    failing_activities: Morphemes = Field(default_factory=list)
    """작동을 안 해, 반응을 안 해: what the device does, as the object of a negated 하다, tells that it fails."""
    rhetorical_degree: list[Morphemes] = Field(default_factory=list)
    """왜 이렇게 덥냐, 와 이래 비싸노: 왜 and a degree word before an adjective that ends the clause is a complaint
    about how things are, not a question (when no "?" is written)."""
    clock_counters: Morphemes = Field(default_factory=list)
    """몇 시까지 해?: a number of the clock before 까지 asks a time (opening hours, a schedule), not a range of the
    manual's (사용 온도가 몇 도까지야): the counter stays between 몇 and 까지 for criterion_phrases."""
    period_counters: Morphemes = Field(default_factory=list)
    """배터리도 일 년이에요? / 보증이 몇 년이야?: a period counted (a number or 몇 before one of these) that the
    clause ends on is a fact of the manual (a warranty, a part's life), never the robot's state now."""
    answer_shapes: list[AnswerShape] = Field(default_factory=list)
    purpose_endings: Morphemes = Field(default_factory=list)
    """켜 줘, 카메라 안 돌아가게: a last clause in one of these after a request says what it is for, not a mood."""
    how_to_conditionals: Morphemes = Field(default_factory=list)  # 화면 밝게 하려면: a turn ending on one asks how
    indefinite_followers: Morphemes = Field(default_factory=list)
    """배터리 얼마 없어 / 얼마 안 남았어: a question word right before one of these says "little" (unless marked "?")."""
    asking_verbs: Morphemes = Field(default_factory=list)  # 어디 있는지 물어보면 알려 줘?: a condition of being asked
    person_purposes: PersonPurposes | None = None
    away_questions: AwayQuestions | None = None  # 어디야? 언제 와?: asked of somebody away (stages._addressee)
    how_state_verbs: Morphemes = Field(default_factory=list)
    """배터리 어떻게 돼?: a how phrase followed by one of these asks for a state, not a method."""
    telling_verbs: Morphemes
    """뭔지 설명해 줘 / 어떻게 하는지 알려 줘: a request to tell how something works is a knowledge question."""
    explanation_words: Morphemes
    """Words that ask for an explanation even when a state word is present (배터리 어떻게 아껴?)."""
    existence_verbs: Morphemes
    """기능 있어?: a question whether something exists is about the product, unless a state word asks it."""
    ability: Ability
    exclamation_interjections: list[str]
    """Tags of interjections (IC)."""
    voice_stop: VoiceStop
    retractions: Morphemes = Field(default_factory=list)
    """Words that take back what was just asked (아 아니다, 취소, 됐어, 관둬): a clause of only these, interjections and
    endings, after a request in the same turn, retracts it."""
    fragment_max_words: int = Field(ge=1, le=10)
    """A predicate-less clause this short may still be an elliptical command ("거실 청정")."""
    intentions: list[Morphemes] = Field(default_factory=list)
    """안 할래, 안 돌릴 거야: runs of morphemes that say what the speaker will or won't do; a negation with one is
    a decision, never a report that something fails."""
    afterthought_markers: list[Morphemes] = Field(default_factory=list)
    """전기차 말이야 / 세탁기 말이에요: runs that make a short last clause an afterthought saying what the speaker
    means (its noun names whose the turn's device words are)."""
    recitation_cues: list[Morphemes] = Field(default_factory=list)
    """따라 해 보세요 / 받아쓰기 / 가라사대 / 스무고개: runs that open words to repeat, write down or play with; what
    follows them in the turn is recited, not asked of the robot."""
    mention_cues: list[Morphemes] = Field(default_factory=list)
    """띄어쓰기 / 맞춤법 / 오타: words about words; a turn that holds one asks about what its words are, so every act it
    names is only mentioned (서재로 가라 이거 띄어쓰기 맞는 거야)."""
    standing_rule_cues: list[Morphemes] = Field(default_factory=list)
    """다음엔 / 다음부터 / 앞으로는: runs that make what follows them in the turn a rule for later occasions (다음부터
    사진 찍을 땐 먼저 물어봐), not a request to act now."""
    body_parts: list[str] = Field(default_factory=list)
    """손뼉, 팔, 고개: what only a person moves (the robot has wheels, a camera and a screen); a request whose object is
    one (손뼉을 치며, 팔 벌려, 고개 숙여), or one of body_verbs (춤춰, 뛰어), is said to people, and so are the turn's
    other requests and stops (빙글빙글 돌아라 ... 손뼉 치고 멈춰라: a game, a song, an exercise)."""
    body_verbs: Morphemes = Field(default_factory=list)
    thought_runs: list[Morphemes] = Field(default_factory=list)
    """켜 볼까 했는데 / 청정 돌릴까 해 / 찍을까 싶어서: -ㄹ까 with 하다 or 싶다 after it is what the speaker thought of
    doing; the clause asks nothing (its agent is the speaker)."""
    later_cues: list[Morphemes] = Field(default_factory=list)
    """내일 / 이따 / 나중에 / -고 나서 / -은 뒤에: runs that put a suggestion (-자) later than now; a suggestion put
    later, with nothing said to be now (now_cues: 지금), is a plan among the people present, not a request."""
    now_cues: list[Morphemes] = Field(default_factory=list)
    together_cues: list[Morphemes] = Field(default_factory=list)
    """같이 / 함께: a suggestion (-자) to do it together is a plan among the people present (같이 티비 보자)."""
    example_cues: list[Morphemes] = Field(default_factory=list)
    """안방 청정하고 충전대 가는 식으로 / 가는 것처럼: what the sentence says up to the cue is an example given."""
    joining_endings: Morphemes = Field(default_factory=list)  # 불러 주면서 ...: a benefactive before one bids nothing
    since_cues: list[Morphemes] = Field(default_factory=list)
    """-ㄴ 뒤로 / -ㄴ 후부터 / -고 나서부터: since an event; the clause that says it narrates what happened."""
    trailing_marks: list[str] = Field(default_factory=list)
    """배터리... / 공기가 좀…: marks of a voice trailing off; a predicate-less last clause before one is unfinished."""
    trailing_particles: Morphemes = Field(default_factory=list)
    """배터리는 / 거실 청정을: particles that promise a predicate; a predicate-less clause ending on one (nothing but
    좀 or a filler after it) is unfinished, not an elliptical command. (공깃밥 추가요: the polite 요 ends a sentence.)"""
    other_targets: OtherTargets

    @cached_property
    def content_key(self) -> str:
        """A digest of the content: caches built from the lexicon are keyed by what it says."""
        return hashlib.sha1(self.model_dump_json().encode()).hexdigest()

    @cached_property
    def retraction_set(self) -> frozenset[tuple[str, str]]:
        return frozenset(tuple(v.split("/")) for v in self.retractions)  # type: ignore[misc]

    # morpheme runs of the lists above, as `contains` matches them
    intention_runs = cached_property(lambda self: _runs(self.intentions))
    recitation_runs = cached_property(lambda self: _runs(self.recitation_cues))
    mention_runs = cached_property(lambda self: _runs(self.mention_cues))
    standing_rule_runs = cached_property(lambda self: _runs(self.standing_rule_cues))
    later_runs = cached_property(lambda self: _runs(self.later_cues))
    thought_of_runs = cached_property(lambda self: _runs(self.thought_runs))
    body_part_set = cached_property(lambda self: frozenset(self.body_parts))
    body_verb_set = cached_property(lambda self: frozenset(tuple(v.split("/")) for v in self.body_verbs))
    now_runs = cached_property(lambda self: _runs(self.now_cues))
    together_runs = cached_property(lambda self: _runs(self.together_cues))
    since_runs = cached_property(lambda self: _runs(self.since_cues))
    example_runs = cached_property(lambda self: _runs(self.example_cues))
    distal_runs = cached_property(lambda self: _runs(self.distal_references))
    afterthought_runs = cached_property(lambda self: _runs(self.afterthought_markers))
    agreement_runs = cached_property(lambda self: _runs(self.agreement_tags))
    hearer_mind_runs = cached_property(lambda self: _runs(self.hearer_mind))

    trailing_particle_set = cached_property(lambda self: frozenset(tuple(v.split("/")) for v in self.trailing_particles))
    request_quotative_set = cached_property(lambda self: frozenset(tuple(v.split("/")) for v in self.request_quotatives))
    honorific_set = cached_property(lambda self: frozenset(tuple(v.split("/")) for v in self.honorific_verb_endings))

    person_set = cached_property(lambda self: frozenset(self.person_nouns))
    question_word_set = cached_property(lambda self: frozenset(self.question_words))
    quantity_word_set = cached_property(lambda self: frozenset(self.quantity_question_words))

    @cached_property
    def thing_of(self) -> dict[str, str]:
        """Noun -> kind of other thing in the home."""
        return {noun.lower(): kind for kind, nouns in self.other_targets.things.items() for noun in nouns}

    @cached_property
    def things_re(self) -> re.Pattern[str]:
        """Every name of another thing, longest first (matched on compact clause text)."""
        return re.compile("|".join(re.escape(n) for n in sorted(self.thing_of, key=len, reverse=True)))
