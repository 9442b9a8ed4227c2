"""Retrieval: BM25 fused with the dense channel and the graph's sections, then evidence and answerability.

The ranking runs in memory over the index's posting lists and vectors (rag.ranking); one small
query, with the section ids as bound parameters, reads the sentences of the few top sections.
Answerability comes from a calibrated logistic score over the signals below, then from
agreement across sources: an aligned section of another current document that states other
numbers makes the answer `conflicting`.
"""

from __future__ import annotations

import math
import re
from functools import lru_cache
from collections.abc import Callable
from collections.abc import Set as AbstractSet

import duckdb

from rag.embed import embed
from rag.index import BM25_K1
from rag.ranking import IndexView, search
from rag.store import Calibration
from registry.knowledge_contracts import (
    AskedCondition,
    Evidence,
    AnswerabilitySignals,
    EntityLink,
    KgProjection,
    KnowledgeQuery,
    RetrievalHit,
    RetrievalResult,
    VersionNote,
)

FOCUS_WEIGHT = 1.0
OTHER_WEIGHT = 0.3
"""Predicates and bound nouns (되, 있, 수) say little about which section answers."""
EXPANSION_WEIGHT = 0.5
SENTENCE_EXPANSION_SHARE = 0.5
"""A word the knowledge graph added to the question (안전, 주의사항 for a safety question) counts this share when a
section's sentence is chosen: it led to the section, and every sentence of that section is about it."""
CONNECTING_BOOST = 1.0
NEIGHBOUR_BOOST = 0.5
EVIDENCE_HITS = 3
FOCUS_BREADTH_CAP = 6  # focus_breadth: six focus terms or more count alike
MAX_EVIDENCE = 5
QUANTITY_EXTRA_HITS = 2
"""A question asking a quantity (소리 얼마나 나?) also reads this many sections further down for a sentence stating it
in the unit asked: the section its other words match best may state none (매너 모드: 작은 소리)."""

Sentences = list[tuple[str, list[str]]]


def _parts(term: str, vocabulary: AbstractSet[str]) -> list[str] | None:
    """`term` as index terms of two syllables or more that cover it, a one-syllable prefix aside (초미세먼지 ->
    미세 먼지); None when it has no such split."""
    for skip in (0, 1):
        rest = term[skip:]
        best: dict[int, list[str]] = {0: []}  # end offset -> the parts that reach it
        for end in range(2, len(rest) + 1):
            for start in range(0, end - 1):
                if start in best and rest[start:end] in vocabulary:
                    best[end] = best[start] + [rest[start:end]]
                    break
        found = best.get(len(rest))
        if found and (skip or len(found) > 1):  # a whole term of one part would be the term itself
            return found
    return None


def split_compounds(query: KnowledgeQuery, vocabulary: AbstractSet[str]) -> KnowledgeQuery:
    """The question's Hangul nouns of three syllables or more that the index lacks but holds as parts are
    searched as those parts (Kiwi reads 초미세먼지 whole in a short question and as 미세 + 먼지 in the manual)."""
    if not vocabulary:
        return query
    split = {t: p for t in dict.fromkeys(query.terms) if len(t) >= 3 and t not in vocabulary and _hangul(t)
             and (p := _parts(t, vocabulary))}
    if not split:
        return query
    spread = lambda terms: list(dict.fromkeys(x for t in terms for x in split.get(t, [t])))  # noqa: E731
    return query.model_copy(update={"terms": spread(query.terms), "focus_terms": spread(query.focus_terms)})


def _hangul(term: str) -> bool:
    return all("\uac00" <= ch <= "\ud7a3" for ch in term)


def query_weights(query: KnowledgeQuery, common: frozenset[str] = frozenset()) -> dict[str, float]:
    """Term -> weight: the question's focus and quantity terms count fully, expansions half, the rest little
    (and not at all when they are `common`)."""
    key = set(query.focus_terms) | set(query.quantity_terms)
    weights: dict[str, float] = {}
    for term in query.terms:
        weights[term] = weights.get(term, 0.0) + (FOCUS_WEIGHT if term in key else OTHER_WEIGHT)
    for term in query.expansion_terms:
        weights[term] = max(weights.get(term, 0.0), EXPANSION_WEIGHT)
    return {t: w for t, w in weights.items() if w >= EXPANSION_WEIGHT or t not in common}


def graph_boosts(projection: KgProjection) -> dict[str, float]:
    boosts: dict[str, float] = {}
    for rel in projection.relations:
        for ref in rel.source_refs:
            boosts[ref] = max(boosts.get(ref, 0.0), CONNECTING_BOOST if rel.connects else NEIGHBOUR_BOOST)
    return boosts


def section_sentences(con: duckdb.DuckDBPyConnection, source_ids: list[str]) -> dict[str, tuple[str, Sentences]]:
    """source_id -> (location, [(sentence, its terms)])."""
    if not source_ids:
        return {}
    marks = ", ".join("?" for _ in source_ids)
    rows = con.execute(f"SELECT source_id, location, sentences FROM chunks WHERE source_id IN ({marks})", source_ids).fetchall()
    return {sid: (location, [(s["text"], list(s["terms"])) for s in sents or []]) for sid, location, sents in rows}


def _bigrams(text: str) -> set[str]:
    squeezed = "".join(text.split())
    return {squeezed[i:i + 2] for i in range(len(squeezed) - 1)}


_NUMBER_BONUS = 0.5
"""A quantity question (몇 데시벨, 얼마나 걸려) prefers, among sentences matching its terms, one that states a number:
its score counts this much more. A number inside quotation marks does not count: "볼륨 10으로 해 줘"처럼 말하세요 gives
words to say, not a quantity."""
_QUOTED = re.compile(r'"[^"]*"|“[^”]*”|\'[^\']*\'')
_NUMBER = re.compile(r"(?<![A-Za-z\d.])\d")
"""A number said as a quantity: not the digits of a name written on to Latin letters (PM2.5, H13, E3)."""

@lru_cache(maxsize=256)
def _unit_pattern(units: tuple[str, ...], number_words: tuple[str, ...]) -> re.Pattern[str] | None:
    """A number (digits, or one of `number_words`, the native numbers 한, 두, 열 ...) then one of the units."""
    if not units:
        return None
    alts = "|".join(re.escape(u) for u in sorted(units, key=len, reverse=True))
    words = "|".join(re.escape(w) for w in sorted(number_words, key=len, reverse=True))
    number = r"\d(?:[\d.,]*\d)?" + (rf"|(?<![가-힣])(?:{words})" if words else "")
    return re.compile(rf"(?:{number})\s?(?:{alts})(?![A-Za-z0-9²])", re.IGNORECASE)


def states_units(text: str, units: list[str], number_words: list[str] | tuple[str, ...] = ()) -> bool:
    """Whether the text states a number in one of the units (1분, 22 dB, 60 ㎡, with native numbers 한 달; not 1 ms
    for m). The pattern is compiled once per unit list."""
    pattern = _unit_pattern(tuple(units), tuple(number_words))
    return pattern is not None and pattern.search(text) is not None


def _overlap(terms: list[str], weights: dict[str, float], idf: dict[str, float]) -> float:
    """How much of the question a sentence's terms carry (weight x idf of each shared term, once), summed in a fixed
    order: a set's order follows the process's string hashing, and float sums in another order break ties otherwise."""
    return sum(weights.get(t, 0.0) * idf.get(t, 0.0) for t in sorted(set(terms)))


_QUOTED_SHARE = 0.25
"""A question word that a sentence holds only inside the words it quotes to say ("공기질 어때?"라고 물으면) counts
this share: the sentence shows how to ask, it does not answer what is asked."""


def _said_overlap(text: str, terms: list[str], weights: dict[str, float], idf: dict[str, float], share: float = _QUOTED_SHARE) -> float:
    """_overlap where a term only the quoted words to say hold counts `share` (see _QUOTED_SHARE)."""
    quoted = _QUOTED.findall(text)
    if not quoted or share == 1.0:
        return _overlap(terms, weights, idf)
    plain, said = _QUOTED.sub(" ", text).lower(), " ".join(quoted).lower()
    return sum(weights.get(t, 0.0) * idf.get(t, 0.0) * (share if t in said and t not in plain else 1.0)
               for t in sorted(set(terms)))


_MARKED_SHARE = 0.5
"""A sentence that allows or forbids answers a permission question first only if it shares at least this share of the
best sentence's words: 배터리를 교체하지 마세요 does not answer 본체가 뜨거운데 계속 써도 돼?"""


def _within_section(sentences: Sentences, weights: dict[str, float], idf: dict[str, float]) -> dict[str, float]:
    """The question's terms' idf, raised for a term that few of the section's sentences hold: the words every sentence
    of a section shares are its topic, and the one sentence holding a word the question adds answers it (한 바퀴 도는
    거는 배터리 없어도 돼? -> 제자리 회전은 배터리 제한을 받지 않습니다, not the sentence that says how to ask)."""
    held = [set(terms) for _, terms in sentences]
    out = {}
    for t in weights:
        df = sum(t in h for h in held)
        out[t] = idf.get(t, 0.0) * (1.0 + math.log(len(held) / df)) if df else idf.get(t, 0.0)
    return out


def _best_for_query(sentences: Sentences, weights: dict[str, float], idf: dict[str, float], quantity: bool = False,
                    units: list[str] | None = None, marks: list[str] | None = None, number_words: list[str] | None = None,
                    shape_marks: list[str] | None = None) -> str:
    """The section's sentence that answers the question best. A sentence stating a number in a unit the question
    asks for (몇 분 걸려 -> 약 1분이 걸리며) comes before any that does not, and for a permission or can-it question
    one that allows or forbids (물로 씻지 마세요) comes before one that shares words only: the definition sentence
    may share more words with the question, but it does not answer it. A sentence of the kind a question's shape asks
    for (어떻게 해야 돼? -> 측정하려면 ... 앉아 있어야 합니다; speech_acts answer_shapes) needs only to share a word with it:
    the sentences of a section all share its topic, and the kind asked is what sets the answer apart."""
    idf = _within_section(sentences, weights, idf)

    def score(text: str, terms: list[str]) -> float:
        base = _said_overlap(text, terms, weights, idf, 1.0 if '"' in (marks or []) else _QUOTED_SHARE)  # 뭐라고 말해?: the quote answers
        return base * (1.0 + _NUMBER_BONUS) if quantity and base > 0 and _NUMBER.search(_QUOTED.sub("", text)) else base

    scores = [score(text, terms) for text, terms in sentences]
    near = max(scores, default=0.0) * _MARKED_SHARE
    shapes = set(shape_marks or [])

    def marked(text: str, s: float) -> bool:  # a sentence of the kind asked needs only to share a word
        found = [m for m in marks or [] if m in text]
        return bool(found) and s > 0 and (s >= near or all(m in shapes for m in found))

    scored = [(states_units(text, units or [], number_words or ()), marked(text, s), s, -i, text)
              for i, ((text, _), s) in enumerate(zip(sentences, scores))]
    return max(scored)[4] if scored else ""


def _section_words(sentences: dict[str, Sentences], source_id: str) -> set[str]:
    """Every term of a fetched section's sentences."""
    return {t for _, terms in sentences.get(source_id, []) for t in terms}


def _covering_second(evidence: list[Evidence], sentences: dict[str, Sentences], focus: list[str]) -> list[Evidence]:
    """헤파 필터랑 탈취 필터 중에 뭘 더 자주 갈아야 돼?: when the first section leaves out a focus word of the question
    that a later one holds and the second does not, that later section is read out second (both things are answered)."""
    if len(evidence) < 3:
        return evidence
    missing = set(focus) - _section_words(sentences, evidence[0].source_id)
    if not missing or missing & _section_words(sentences, evidence[1].source_id):
        return evidence
    at = next((i for i in range(2, len(evidence)) if missing & _section_words(sentences, evidence[i].source_id)), None)
    return evidence if at is None else [evidence[0], evidence[at], *(e for i, e in enumerate(evidence[1:], 1) if i != at)]


def _named(text: str, link: EntityLink) -> bool:
    squeezed = "".join(text.lower().split())
    return any(a in squeezed for a in link.aliases or [link.surface])


def _together_first(evidence: list[Evidence], sentences: dict[str, Sentences], query: KnowledgeQuery,
                    projection: KgProjection) -> list[Evidence]:
    """매너 모드랑 음소거 둘 다 켜면 어떻게 돼?: a question naming two or more things of one kind (two modes) that no
    relation of the graph joins to each other asks about them together. The section that names them all answers
    first, by its sentence naming the most of them (each one's own section tells only of itself)."""
    kinds: dict[str, list[EntityLink]] = {}
    for link in query.links:
        kinds.setdefault(link.type, []).append(link)
    group = next((links for links in kinds.values() if len(links) >= 2), None)
    if group is None:
        return evidence
    ids = {link.entity_id for link in group}
    if any(rel.from_ in ids and rel.to in ids for rel in projection.relations):
        return evidence  # (a relation between them carries the answer)
    marks = query.together_marks

    def together(text: str) -> bool:
        return any(m in text for m in marks)

    def rank(e: Evidence) -> tuple[tuple[bool, bool, bool], list[str], list[int]]:
        """(a sentence naming them all as used together, a sentence naming them all, the section naming them all)."""
        sents = [text for text, _ in sentences.get(e.source_id, [])]
        count = [sum(_named(t, link) for link in group) for t in sents]
        full = [k for k in range(len(sents)) if count[k] == len(group)]
        whole = bool(sents) and all(any(_named(t, link) for t in sents) for link in group)
        return (any(together(sents[k]) for k in full), bool(full), whole), sents, count

    ranked = [rank(e) for e in evidence]
    at = max(range(len(evidence)), key=lambda i: (ranked[i][0], -i), default=None)
    if at is None or not any(ranked[at][0]):
        return evidence
    _, sents, count = ranked[at]
    best = max(range(len(sents)), key=lambda k: (count[k], together(sents[k]), -k))
    return [evidence[at].model_copy(update={"claim": sents[best]}), *evidence[:at], *evidence[at + 1:]]


def _states_asked(text: str, query: KnowledgeQuery) -> bool:
    return states_units(text, query.asked_units, query.number_words)


_REMEDIES_READ = 3
"""At most this many of the section's sentences telling what to do are read out after a problem's claim, in the
order the manual gives them (its first remedy is the one to try first)."""


def _with_remedy(first: Evidence, sentences: Sentences, marks: list[str]) -> Evidence:
    """The evidence with the section's sentences telling what to do added after its claim, in the manual's order (E3는
    ... 표시됩니다. 로봇을 손으로 한 번 스테이션에 올려 ...), when the claim itself does not tell it."""
    if any(m in first.claim for m in marks):
        return first
    remedies = [text for text, _ in sentences if text != first.claim and any(m in text for m in marks)]
    if not remedies:
        return first
    claim = first.claim if first.claim.endswith((".", "?", "!")) else first.claim + "."
    return first.model_copy(update={"claim": " ".join([claim, *remedies[:_REMEDIES_READ]])})


def _with_companion(first: Evidence, sentences: Sentences, weights: dict[str, float], idf: dict[str, float],
                    kind: Callable[[str], bool] = lambda _: False) -> Evidence:
    """The evidence with the section's next best sentence for the question read out after it, when that one shares a
    word of the question too and, when the first was chosen for its `kind` (it forbids, states the asked unit, quotes
    the words to say), is of that kind too: the answering section's two best sentences answer together (밤에 야간 모드
    켜면 뭐가 달라져? -> how to turn it on, then what it limits), one holding a question word the first lacks before
    a closer match, and a sentence sharing none is never read."""
    texts = [text for text, _ in sentences]
    if first.claim not in texts:
        return first
    scores = [_overlap(terms, weights, idf) for _, terms in sentences]
    at = texts.index(first.claim)
    same_kind = kind(first.claim)
    missing = {t for t in weights if idf.get(t, 0.0) > 0} - set(sentences[at][1])  # the question's words the first lacks
    rest = [(bool(missing & set(sentences[i][1])), scores[i], -i) for i in range(len(texts))
            if i != at and texts[i] != first.claim and scores[i] > 0 and (not same_kind or kind(texts[i]))]
    if not rest or scores[at] <= 0:
        return first
    _, _, minus_i = max(rest)  # one that answers another part of the question first, then the best match
    claim = " ".join(t if t.endswith((".", "?", "!")) else t + "." for t in (texts[at], texts[-minus_i]))
    return first.model_copy(update={"claim": claim})


def _best_for_claim(sentences: Sentences, claim: str) -> str:
    want = _bigrams(claim)
    scored = [(len(want & _bigrams(text)) / (len(want) or 1), -i, text) for i, (text, _) in enumerate(sentences)]
    return max(scored)[2] if scored else claim


def signals(query: KnowledgeQuery, weights: dict[str, float], known_idf: dict[str, float], max_idf: float,
            hits: list[RetrievalHit], top_terms: set[str], projection: KgProjection, calibration: Calibration) -> AnswerabilitySignals:
    """The answerability features and the calibrated score."""
    idf = lambda t: known_idf.get(t, max_idf)  # noqa: E731  (a word no section has is the rarest)
    focus = list(dict.fromkeys(query.focus_terms))

    def known(term: str) -> bool:
        return term in known_idf or any(term in m or m in term for m in query.known_surfaces)

    total = sum(idf(t) for t in focus)
    coverage = sum(idf(t) for t in focus if known(t)) / total if total else 1.0
    asked = [t for t in dict.fromkeys(query.terms) if weights.get(t, 0.0) >= FOCUS_WEIGHT]
    asked_total = sum(idf(t) for t in asked)
    evidence = sum(idf(t) for t in asked if t in top_terms) / asked_total if asked_total else 0.0
    attainable = sum(w * known_idf[t] * (BM25_K1 + 1) for t, w in weights.items() if t in known_idf)
    ratio = hits[0].bm25 / attainable if hits and attainable else 0.0
    dense_top = max((h.dense for h in hits), default=0.0)
    top_ids = {h.source_id for h in hits[:EVIDENCE_HITS]}
    support = 1.0 if any(ref in top_ids for rel in projection.relations for ref in rel.source_refs) else 0.0
    top_share = hits[0].focus_matches / len(focus) if hits and focus else 0.0
    breadth = min(len(focus), FOCUS_BREADTH_CAP) / FOCUS_BREADTH_CAP
    feats = {"focus_coverage": coverage, "evidence_coverage": evidence, "top_bm25_ratio": ratio, "dense_top": dense_top,
             "graph_support": support, "top_focus_share": top_share, "focus_breadth": breadth}
    z = calibration.bias + sum(calibration.weights.get(name, 0.0) * value for name, value in feats.items())
    score = 1.0 / (1.0 + math.exp(-max(min(z, 50.0), -50.0)))
    return AnswerabilitySignals(focus_coverage=round(min(coverage, 1.0), 4), evidence_coverage=round(min(evidence, 1.0), 4),
                                top_bm25_ratio=round(ratio, 4), dense_top=round(dense_top, 4), graph_support=support,
                                top_focus_share=round(min(top_share, 1.0), 4), focus_breadth=round(breadth, 4),
                                score=round(score, 4), threshold=calibration.threshold)


def _names_level(text: str, condition: AskedCondition | None, level: str | None = None) -> bool:
    """Whether the text names the condition's level (or `level`) the way manual sentences do."""
    if condition is None:
        return False
    return any(word in text for word in condition.stated.get(level or condition.level, []))


def _condition_unstated(query: KnowledgeQuery, evidence: list[Evidence], sentences: dict[str, Sentences]) -> list[str]:
    """condition_not_stated:LEVEL when the sentences stating the asked quantity name other levels, never the asked one
    (2단으로 틀면 몇 dB? and the manual gives 1단 and 터보 only). Every sentence of the first two sections that
    states it counts, not only the one picked as the claim (강으로 돌리면 배터리 몇 시간 가요?: 완전 충전에는 약 3시간
    names no level; 완전 충전 시 풍량 1단으로 약 4시간, 터보로 약 90분 names the two the manual gives)."""
    cond = query.condition
    if cond is None or not query.asked_units:
        return []
    stating = [e.claim for e in evidence if _states_asked(e.claim, query)] + [
        text for e in evidence[:2] for text, _ in sentences.get(e.source_id, []) if _states_asked(text, query)]
    others = [lv for lv in cond.stated if lv != cond.level]
    if stating and not any(_names_level(t, cond) for t in stating) and \
            any(_names_level(t, cond, lv) for t in stating for lv in others):
        return [f"condition_not_stated:{cond.level}"]
    return []


def _notes(view: IndexView, ids: list[str]) -> list[VersionNote]:
    """Older versions that said otherwise, and other current documents that say otherwise."""
    current = set(view.doc_keys)
    return [VersionNote(source_id=r[0], other_source_id=r[1], other_version=r[3], other_valid_at=r[4], kind=r[5],
                        values_here=list(r[6]), values_there=list(r[7]))
            for sid in ids for r in view.alignments.get(sid, []) if r[5] == "superseded" or r[2] in current]


def retrieve(con: duckdb.DuckDBPyConnection, query: KnowledgeQuery, projection: KgProjection, view: IndexView,
             calibration: Calibration, index_version: str) -> RetrievalResult:
    """Search the versions valid at the question date, pick evidence sentences, decide answerability, note other versions."""
    query = split_compounds(query, view.vocabulary)
    weights = query_weights(query, view.common_terms)
    ranked = search(view, weights, embed(query.text, query.terms), graph_boosts(projection), calibration.fusion,
                    units=query.asked_units)
    hits = ranked.hits
    marks = query.answer_marks + query.shape_marks
    relation_refs = [ref for rel in projection.relations if rel.connects for ref in rel.source_refs[:1]]
    pool = hits[:EVIDENCE_HITS + (QUANTITY_EXTRA_HITS if query.asked_units else 0)]
    fetched = section_sentences(con, list(dict.fromkeys([h.source_id for h in pool] + relation_refs)))
    sentences = {sid: sents for sid, (_, sents) in fetched.items()}
    locations = {sid: location for sid, (location, _) in fetched.items()}
    evidence: list[Evidence] = []
    # a relation that connects the question's entities carries the reason: its section comes first
    for rel in projection.relations:
        ref = next((r for r in rel.source_refs if r in sentences), None)
        if rel.connects and ref and all(e.source_id != ref for e in evidence):
            evidence.append(Evidence(source_id=ref, location=locations[ref], claim=_best_for_claim(sentences[ref], rel.claim)))
    own = set(query.terms)  # within a section the question's own words pick the sentence; expansions found the section
    choice = {t: w if t in own else w * SENTENCE_EXPANSION_SHARE * query.expansion_shares.get(t, 1.0) for t, w in weights.items()}
    for hit in pool:
        if all(e.source_id != hit.source_id for e in evidence):
            evidence.append(Evidence(source_id=hit.source_id, location=hit.location,
                                     claim=_best_for_query(sentences.get(hit.source_id, []), choice, ranked.idf, query.asks_quantity,
                                                           query.asked_units, marks, query.number_words, query.shape_marks)))
    if evidence and query.remedy_marks and not query.asked_units and not query.answer_marks:
        # a problem is answered by the troubleshooting section first, with what to do
        if query.troubleshooting:
            evidence.sort(key=lambda e: not e.location.startswith(tuple(query.troubleshooting)))
        evidence[0] = _with_remedy(evidence[0], sentences.get(evidence[0].source_id, []), query.remedy_marks)
    if query.asked_units:  # the sentence that states the asked quantity answers first, for the asked level first
        evidence.sort(key=lambda e: (not _states_asked(e.claim, query), not _names_level(e.claim, query.condition)))
    evidence = _covering_second(_together_first(evidence, sentences, query, projection)[:MAX_EVIDENCE], sentences, query.focus_terms)
    focus = set(query.focus_terms)
    section_terms = {h.source_id: _section_words(sentences, h.source_id) for h in hits[:EVIDENCE_HITS]}
    hits = [h.model_copy(update={"focus_matches": len(focus & section_terms[h.source_id])}) if h.source_id in section_terms else h for h in hits]
    top_terms = set().union(*section_terms.values()) if section_terms else set()
    sig = signals(query, weights, ranked.idf, view.max_idf, hits, top_terms, projection, calibration)
    notes = _notes(view, [e.source_id for e in evidence[:2]])
    # (소음 차이가 얼마나 나요?: the sentence stating the asked quantity of the asked property answers, whatever the
    # score; not 본체 크기가 몇 센치예요? and a sentence giving the threshold it climbs in cm)
    stated = bool(query.asked_units) and bool(evidence) and _states_asked(evidence[0].claim, query) \
        and any(t in evidence[0].claim for t in query.focus_terms)
    because = (["below_threshold"] if (sig.score < sig.threshold and not stated) or not hits else []) + \
        [f"outside_manual:{w}" for w in query.outside_manual] + _condition_unstated(query, evidence, sentences)
    if evidence and evidence[0].source_id in section_terms:  # read out after answerability was judged on single sentences
        evidence[0] = _with_companion(evidence[0], sentences[evidence[0].source_id], weights, ranked.idf,
                                      lambda text: _states_asked(text, query) or any(m in text for m in marks))
    if because:
        answerability = "insufficient"
    elif any(n.kind == "conflict" for n in notes):
        answerability = "conflicting"
    else:
        answerability = "sufficient"
    return RetrievalResult(query_id=query.query_id, answerability=answerability, retrieval_evidence=evidence,
                           insufficient_because=because,
                           index_version=index_version, hits=hits, signals=sig, version_notes=notes)
