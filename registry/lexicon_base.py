"""The base of the typed lexicons: a strict frozen model, the form/TAG morpheme list, the shapes of questions and
of prohibitions (-지 마, X 말고 Y).

`registry/speech_contracts.py` builds the speech-act lexicon on these; they live apart so that module stays one
screenful of fields per concern.
"""

from __future__ import annotations

from functools import cached_property
from typing import Annotated, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


def _morphemes(values: list[str]) -> list[str]:
    bad = [v for v in values if v.count("/") != 1 or not all(v.split("/"))]
    if bad:
        raise ValueError(f"not a form/TAG morpheme: {bad[0]!r}")
    return values


Morphemes = Annotated[list[str], AfterValidator(_morphemes)]
"""Kiwi morphemes written form/TAG."""


class QuantityKind(_Model):
    """A kind of quantity a product question asks for, and the units a sentence answering it states."""

    kind: str
    cues: Morphemes
    """몇 분, 얼마나 걸려, 소음 몇이야: asked together with a quantity question word."""
    alone: Morphemes = Field(default_factory=list)
    """시끄러워? 무거워? 교체 주기는?: ask for the quantity by themselves."""
    units: list[str] = Field(min_length=1)


class ScopeQuestion(_Model):
    """포름알데히드도 잡아 줘?: a benefactive asked with "?", a noun taking one of the particles (도) and a plain
    question ending asks whether the robot does that too."""

    particles: Morphemes
    endings: Morphemes
    autonomy_runs: list[Morphemes] = []
    """공기 나빠지면 알아서 풍량 올려 줘?: an adverb of doing it by itself (알아서, 스스로, 자동으로) in a benefactive asked
    with "?" asks whether the robot does that on its own, whatever the ending; said without "?" it is a request."""


class AnswerShape(_Model):
    """A kind of question a particular kind of manual sentence answers: 뭐라고 말하면 돼? by the quoted words to say,
    순서가 어떻게 돼? by the sentence saying what comes first, 몇까지 올라가? by the one giving the range."""

    name: str
    cues: list[Morphemes] = Field(min_length=1)
    """Morpheme sequences that ask it (any one)."""
    marks: list[str] = Field(min_length=1)
    """How a manual sentence answering it reads: among the section's sentences that share about as many of the
    question's words as the best one, one with a mark answers first."""


class PersonPurposes(_Model):
    """밥 먹으러 주방 가, 자러 안방 간다: going somewhere to do what only a person does (eat, sleep, wash) is a
    person's going, whatever the ending: nothing is asked of the robot."""

    connectives: Morphemes
    """The purpose connective (-러 / -으러)."""
    verbs: Morphemes
    """What only a person goes somewhere to do."""
    motions: list[str]
    """Verb forms of going (가, 오, 나가 ...): the only verbs the rest of the clause may have."""
    motion_capability: str
    """The capability the going itself anchors (move_to_room): any other one in the clause is asked of the robot."""
    away_places: list[str] = []
    """Nouns of places people go that are none of the home's rooms (댁, 친정, 회사): going there, proposed, is an outing."""
    note: str = ""
    away_place_set = cached_property(lambda self: frozenset(self.away_places))


class AwayQuestions(_Model):
    """언제 와? / 다 와 가? / 어디쯤 왔어?: asking when the one spoken to arrives (an arrival verb after an adverb of time
    or nearness) asks somebody away from the home, on the phone or in a message (stages._addressee.asked_of_someone_away)."""

    arrival_verbs: Morphemes
    arrival_adverbs: Morphemes
    note: str = ""
    arrival_set = cached_property(lambda self: frozenset(tuple(v.split("/")) for v in self.arrival_verbs))
    adverb_set = cached_property(lambda self: frozenset(tuple(v.split("/")) for v in self.arrival_adverbs))


class Prohibitive(_Model):
    connectives: Morphemes
    """-지 of 가지 마 / 하지 말아줘."""
    auxiliaries: Morphemes
    """말 after it."""
    note: str = ""


class Exclusion(_Model):
    verbs: Morphemes
    endings: Morphemes
    """X 말고 Y: 말 + 고 ends the clause that names what is excluded."""
    note: str = ""


class Vocatives(_Model):
    particles: Morphemes
    """Vocative particles after any noun (민준아, 로봇아)."""
    name_particles: Morphemes
    """아/야 that Kiwi reads as JX after a name (철수야): vocative after a proper or person noun only."""
    words: Morphemes
    """Words that call somebody by themselves (여보)."""
    groups: list[Morphemes]
    """Morpheme sequences addressing a group of people (다들, 여러분, 너희)."""
    bare_not_calls: list[str] = Field(default_factory=list)
    """얘 / 쟤: pronouns of somebody present that call only with a comma or a vocative ending (얘, 이리 와 / 얘야);
    bare before the sentence (얘 왜 이래) they are its subject."""
    mover_verbs: Morphemes = Field(default_factory=list)
    """초코 거실로 와, 엄마 거실로 와: a bare noun before a room with an adverbial particle, in a clause whose verb is one
    of these, is the one told to move there: it is called (an object is carried: 이불 거실로 가져와 is no call)."""
    not_callers: list[str] = Field(default_factory=list)
    """다음, 오늘, 먼저: nouns that say when or in what order, bare before a room, never the one told to go."""
    wake_words: list[str] = Field(default_factory=list)
    """하이 / 헤이 / 오케이 before an assistant's name (하이 빅스비: Kiwi reads 하이 as a noun): passed over like an
    interjection when looking for whom the turn calls."""
    assistants: list[str] = Field(default_factory=list)
    """Other voice assistants (시리, 알렉사, 구글): a turn that opens with one is addressed to it, not to the robot
    (its request may still be one the robot answers as unsupported). Matched as the start of a word."""
    bare_call_followers: list[str]
    """Tags after a bare person noun heading the turn that make it a call (a comma, a pronoun, an adverb)."""
    question_call_followers: list[str] = Field(default_factory=list)
    """More tags after a bare person noun heading a question (no request form) that make it a call (아빠 로봇 충전대 어디다
    뒀어?, 아들 오늘 청정 얼마나 돌렸어?): asked of the person, what the person did or thinks."""
    fused_endings: dict[Literal["closed", "open"], str] = Field(default_factory=dict)
    """The vocative ending after a closed and after an open syllable (다온아, 민수야): a name Kiwi leaves whole with
    it (다온아/NNG, 서윤아/NNP), heading the turn with no particle after it, calls that person."""
    answers: list[Morphemes] = Field(default_factory=list)
    """Answers to somebody's words (응, 네 네, 어 그래, 나야): heading a turn when the robot asked nothing, they answer
    a person on the phone or in the room, and what follows is said to that person."""
    copula_read: Morphemes = Field(default_factory=list)
    """The ending Kiwi reads as a copula after a name or a person noun said last (은지야, 자기야 -> 이/VCP 야/EF):
    after a name (NNP), a person noun or a calling word, it is the vocative."""
    person_suffixes: Morphemes = Field(default_factory=list)
    """님, 씨: a noun with one of these is a person, whatever the noun (대리님, 원장님, 민수 씨); a name just before such
    a word belongs to the call (김 대리님, 박 선생님)."""
    note: str = ""
