"""Contracts of the product knowledge path (DESIGN sections 7-8): question, projection, retrieval.

The answer itself (KnowledgeAnswer, Evidence, Relation) comes first: the decision record carries it. Every stage of the path returns either its contract or
KnowledgeNotRun, so a turn DQR does not own costs three cheap node calls and nothing else.
"""

from __future__ import annotations

from datetime import date
from typing import Literal

from pydantic import ConfigDict, Field

from registry.contracts import Contract


Answerability = Literal["sufficient", "insufficient", "conflicting"]


class Evidence(Contract):
    """A manual passage that supports an answer (DESIGN section 8)."""

    source_id: str
    """The section id, e.g. R6-V5-S024."""
    location: str
    """Where it is in the document: `chapter.section title`."""
    claim: str
    """The sentence of the passage that supports the answer."""


class Relation(Contract):
    """One typed relation of the product knowledge graph (serialized with `from`, as in DESIGN A.2)."""

    model_config = ConfigDict(frozen=True, extra="forbid", validate_by_name=True, validate_by_alias=True, serialize_by_alias=True)

    from_: str = Field(alias="from")
    type: str
    to: str
    source_refs: list[str] = Field(default_factory=list)
    """Manual sections that state it (only versions valid at the question time)."""
    valid_at: str | None = None


class AnswerProjection(Contract):
    """The scoped graph projection an answer used."""

    entities: list[str] = Field(default_factory=list)
    relations: list[Relation] = Field(default_factory=list)


class KnowledgeAnswer(Contract):
    """A grounded DQR answer, as a decision record carries it."""

    text: str
    """The Korean answer, citing section ids and locations."""
    answerability: Answerability
    evidence: list[Evidence] = Field(default_factory=list)
    projection: AnswerProjection = Field(default_factory=AnswerProjection)
    notices: list[str] = Field(default_factory=list)
    """Codes such as question_truncated, version_superseded, sources_conflict, index_missing."""
    index_version: str | None = None


class KnowledgeNotRun(Contract):
    """The knowledge path did not run for this turn, and why."""

    kind: Literal["not_run"] = "not_run"
    reason: Literal["not_dqr", "index_missing", "empty_question"]
    detail: str = ""


class EntityLink(Contract):
    """A graph entity named in the question."""

    entity_id: str
    type: str
    label: str
    surface: str
    """The alias as it matched (spacing removed)."""
    start: int
    """Offset in the compact question."""
    aliases: list[str] = Field(default_factory=list)
    """Every alias of the entity (spacing removed): how a manual sentence may name it."""


class AskedCondition(Contract):
    """The setting level a quantity question names (2단으로 틀면 몇 dB?), and how manual sentences name each level."""

    level: str
    stated: dict[str, list[str]]
    """level -> the words a manual sentence names it by (lexicon dqr.condition_levels)."""


class KnowledgeQuery(Contract):
    """The question as the graph and the index see it."""

    kind: Literal["query"] = "query"
    query_id: str
    text: str
    """The question that is searched (cut to the query limit)."""
    truncated: bool = False
    as_of: date
    """Question time: the newest document version valid then is the one that counts."""
    terms: list[str]
    """Kiwi lemmas of the question (BM25 terms)."""
    focus_terms: list[str]
    """Nouns and serials the question is about (answerability checks the manual knows them)."""
    quantity_terms: list[str] = Field(default_factory=list)
    """Numbers with their unit ("9개월", "20%")."""
    possibility_question: bool
    """Shaped as "can I / does it ..." (a relation verdict may answer it)."""
    asks_capabilities: bool = False
    """Asks what the robot can do at all (너 뭐 할 수 있어?): answered from the capability registry."""
    asks_quantity: bool = False
    """Asks how much, how long, how many or when (몇, 얼마, 얼마나, 언제): a sentence with a number answers it."""
    outside_manual: list[str] = Field(default_factory=list)
    """The words that ask what no product manual states (가격, 어디서 사, 하나에 얼마): the answer is insufficient."""
    asked_units: list[str] = Field(default_factory=list)
    """Units a sentence answering it states (몇 분 걸려 -> 초, 분, 시간; 시끄러워? -> dB): speech_acts quantity_kinds."""
    number_words: list[str] = Field(default_factory=list)
    """With asked_units: the native numbers (한, 두, 열 ...; lexicon numbers) a manual sentence may state them in."""
    condition: AskedCondition | None = None
    remedy_marks: list[str] = Field(default_factory=list)
    """Set for a report of a problem (a malfunction, a negation, something displayed): how a sentence telling what to do
    reads (lexicon dqr.remedy_marks); the answer adds the top section's remedy."""
    troubleshooting: list[str] = Field(default_factory=list)
    """Set with remedy_marks: location prefixes of the troubleshooting sections, whose evidence then comes first."""
    answer_marks: list[str] = Field(default_factory=list)
    """How a sentence answering it reads (a permission or can-it question: 마세요, 수 없습니다): lexicon
    dqr.directive_marks, set only for those questions."""
    together_marks: list[str] = Field(default_factory=list)
    """둘 다 켜면 / 같이 쓰면: the question asks about the things it names used together (lexicon dqr.together_marks,
    set only when it holds one); a manual sentence naming them all with one of these answers it first."""
    shape_marks: list[str] = Field(default_factory=list)
    """How a sentence answering its kind of question reads (뭐라고 말해? -> a quotation; 순서가 어떻게 돼? -> 먼저,
    차례로): speech_acts answer_shapes."""
    links: list[EntityLink]
    expansion_terms: list[str] = Field(default_factory=list)
    """Terms from linked entities' labels and from the synonym table (weighted lower)."""
    expansion_shares: dict[str, float] = Field(default_factory=dict)
    """An expansion term read from a written word of two or more terms -> its share of that word (바이탈사인 -> 바,
    이탈, 사인: a third each): choosing a sentence, the word counts once, not once per part."""
    known_surfaces: list[str] = Field(default_factory=list)
    """Aliases and synonyms that matched: a question word inside one is known even if the manual words it otherwise."""


class GraphRelation(Relation):
    """A projected relation with the sentence that states it."""

    model_config = ConfigDict(frozen=True, extra="forbid", validate_by_name=True, validate_by_alias=True, serialize_by_alias=True)

    fact_id: str
    claim: str
    connects: bool = False
    """On a path between two entities of the question."""


class KgProjection(Contract):
    """Only the relations relevant to the question (DESIGN A.2)."""

    kind: Literal["projection"] = "projection"
    entities: list[str]
    relations: list[GraphRelation]
    source_refs: list[str]
    valid_at: date | None = None
    """Newest valid_at among the projected relations."""
    seeds: list[str]
    """Entities linked in the question."""


class RetrievalHit(Contract):
    """One ranked section with the channel scores that placed it."""

    source_id: str
    doc_id: str
    version: str
    valid_at: date
    location: str
    bm25: float
    dense: float
    graph: float
    fused: float
    focus_matches: int = 0
    """How many of the question's focus terms the section contains (filled for the top evidence hits)."""


class VersionNote(Contract):
    """Another version or document says something else about a retrieved section."""

    source_id: str
    other_source_id: str
    other_version: str
    other_valid_at: date
    kind: Literal["superseded", "conflict"]
    """superseded: an older version of the same document; conflict: another document valid now."""
    values_here: list[str]
    values_there: list[str]


class AnswerabilitySignals(Contract):
    """The features answerability was decided from (and the calibrated score)."""

    focus_coverage: float = Field(ge=0.0, le=1.0)
    """idf-weighted share of the question's focus terms that the manual contains."""
    evidence_coverage: float = Field(ge=0.0, le=1.0)
    """The same share within the top evidence passages."""
    top_bm25_ratio: float
    """Top BM25 score over the question's best attainable score."""
    dense_top: float
    graph_support: float
    top_focus_share: float = Field(default=0.0, ge=0.0, le=1.0)
    """Share of the question's focus terms found in the top section itself (카메라 화소 몇이야 finds 카메라 and not
    화소 there: the manual talks of the thing, not of what is asked of it)."""
    focus_breadth: float = Field(default=0.0, ge=0.0, le=1.0)
    """How many focus terms the question has (capped at six, over six): a long question needs more of them found."""
    score: float
    """Calibrated probability that the manual answers the question."""
    threshold: float


class RetrievalResult(Contract):
    """The retrieval contract of DESIGN A.1, with the diagnostics that decided it."""

    kind: Literal["retrieval"] = "retrieval"
    query_id: str
    answerability: Answerability
    retrieval_evidence: list[Evidence]
    index_version: str
    hits: list[RetrievalHit]
    signals: AnswerabilitySignals
    version_notes: list[VersionNote] = Field(default_factory=list)
    insufficient_because: list[str] = Field(default_factory=list)
    """Why the answer is insufficient: below_threshold (the calibrated score), outside_manual:WORD (a price, a shop)."""
