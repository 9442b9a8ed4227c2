"""The base of the typed lexicons: a strict frozen model, the form/TAG morpheme list, the shapes of questions and
of prohibitions (-지 마, X 말고 Y).

`registry/speech_contracts.py` builds the speech-act lexicon on these; they live apart so that module stays one
screenful of fields per concern.
"""

from __future__ import annotations

from typing import Annotated

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
    note: str = ""


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
