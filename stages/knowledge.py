"""Path B (DESIGN sections 7-8): graph projection, document retrieval and the grounded DQR answer.

These nodes do work only when DQR owns the turn; for any other turn each returns
KnowledgeNotRun at once, and nothing here can change the route. The DuckDB handle, the
question clock and the answer templates come in at the edge through `knowledge_store`.
"""

from __future__ import annotations

import re
from datetime import date
from typing import Any

from kg.graph import project, valid_relations
from kg.linking import Linker, compact
from rag.index import current_source_ids
from rag.ranking import index_view
from rag.retrieve import retrieve
from rag.store import KnowledgeStore, build_hint
from rag.text import analyse, analyse_tokens, quantity_unit
from registry.contracts import NormalizedText
from registry.knowledge_contracts import AnswerProjection, AskedCondition, KnowledgeAnswer, Relation
from registry.plan_contracts import PlannerOutput
from registry.knowledge_contracts import KgProjection, KnowledgeNotRun, KnowledgeQuery, RetrievalResult
from registry.loader import Registry
from registry.speech_contracts import SpeechActLexicon
from stages._dqr_compose import Composer, band_of, rate_times_count, relation_verdict, sentence
from stages.speech_patterns import contains, patterns

QUERY_MAX_CHARS = 200
"""A product question is a sentence or two; the rest of a longer text is not searched (and the answer says so)."""


def _linker(store: KnowledgeStore, kiwi: Any, registry: Registry) -> Linker:
    return store.memo(f"linker:{id(registry)}", lambda: Linker.from_connection(
        store.require(), lambda text: [t.text for t in analyse(kiwi, text)], registry))


def dqr_owns_turn(final_plan: PlannerOutput) -> bool:
    """Whether the turn's owner family is DQR (the only gate of path B)."""
    return bool(final_plan.selected_routes) and final_plan.selected_routes[0] == "DQR"


def _asks_what_it_can_do(nt: NormalizedText, registry: Registry) -> bool:
    """뭐 할 수 있어? / 무슨 기능 있어?: a what-word with an ability word and no other noun named."""
    overview = registry.speech_acts.capability_overview
    if overview is None:
        return False
    keys = [f"{m.form}/{m.tag}" for m in nt.morphemes]
    named = any(m.tag in ("NNG", "NNP") and key not in overview.ability_set for m, key in zip(nt.morphemes, keys))
    return not named and any(k in overview.what_set for k in keys) and any(k in overview.ability_set for k in keys)


def _lemma_keys(nt: NormalizedText) -> list[str]:
    """`form/tag` of every morpheme, an irregular tag read as its base (뜨겁/VA-I -> 뜨겁/VA), as the lexicons write them."""
    return [f"{m.form}/{m.tag.split('-')[0]}" for m in nt.morphemes]


def _asked_units(lexicon: SpeechActLexicon, lemmas: set[str], quantities: list[str]) -> list[str]:
    """Units of the quantity kinds (speech_acts quantity_kinds) a question of these `form/tag` lemmas asks for, and
    of a quantity it states itself (9개월 썼는데 아직 안 갈아도 돼? is answered by the sentence giving 개월)."""
    asks = bool(lemmas & lexicon.quantity_word_set)
    stated = {quantity_unit(q) for q in quantities}
    return list(dict.fromkeys(u for k in lexicon.quantity_kinds
                              if (asks and lemmas & set(k.cues)) or lemmas & set(k.alone) or stated & set(k.units)
                              for u in k.units))


def _asked_condition(terms: list[str], dqr: dict) -> AskedCondition | None:
    """The one setting level a question names by a whole term (2단, 강풍, 터보), if it names exactly one."""
    levels = dqr.get("condition_levels", {}).get("levels", [])
    said = set(terms)
    named = [lv["level"] for lv in levels if said & set(lv["asked"])]
    if len(named) != 1:
        return None
    return AskedCondition(level=named[0], stated={lv["level"]: lv["stated"] for lv in levels})


def _asks_leave_or_ability(keys: list[str], lex: SpeechActLexicon) -> bool:
    """써도 돼? 돌려도 괜찮아? 넘을 수 있어?: a question asking leave or whether it can (speech_acts permission,
    ability and the verdict predicates of intoned_questions), not one asking how much."""
    verdicts = set(lex.intoned_questions.verdict_predicates) if lex.intoned_questions else set()
    leave = any(a in lex.permission.endings and b in lex.permission.verbs for a, b in zip(keys, keys[1:])) or \
        any(k in verdicts for k in keys)  # 올라타도 괜찮은 거야? 켜 놔도 안전해?
    able = any(a in lex.ability.modifier_endings and b in lex.ability.nouns for a, b in zip(keys, keys[1:]))
    return leave or able


def _shape_marks(keys: list[str], registry: Registry) -> list[str]:
    """The marks of the answer shapes (speech_acts answer_shapes) one of whose cue sequences the question contains."""
    ms = [tuple(k.split("/", 1)) for k in keys]
    return list(dict.fromkeys(m for cues, marks in patterns(registry).answer_shapes if any(contains(ms, c) for c in cues)
                              for m in marks))


def _reports_problem(keys: list[str], registry: Registry) -> bool:
    """스테이션을 못 찾는다고 떠, 바퀴가 헛돌아, 화면이 안 켜져: a malfunction predicate, a negator or a display verb."""
    p = patterns(registry)
    signs = p.malfunction | p.negators | p.display
    return any(tuple(k.split("/", 1)) in signs for k in keys)


def _problem_fields(remedy: dict) -> dict:
    return {"remedy_marks": remedy.get("marks", []), "troubleshooting": remedy.get("troubleshooting_locations", [])}


def _tagged(k: str, patterns: set[str]) -> bool:
    """`form/tag` is one of the patterns, or a pattern `*/TAG` names its tag (*/NP: any pronoun)."""
    return k in patterns or "*/" + k.split("/")[-1] in patterns


def _price_asked(keys: list[str], data: dict) -> list[str]:
    """이거 얼마야, 사서 교체하면 얼마야, 돈은 얼마여, 얼마 주면 사: 얼마 asked by a copula or a verb of paying
    (outside_manual price_asked.after, 정도 or 쯤 between) with nothing before it but a pronoun, a clause, 거 or money
    (before, over particles and adverbs: skip). The caller asks it only of a question that asks no quantity kind
    (소음이 얼마야, 청정 시간만 합쳐서 얼마예요 ask a number the manual may state)."""
    asked = data.get("price_asked")
    if not asked:
        return []
    after, between, before, skip = (set(asked[k]) for k in ("after", "between", "before", "skip"))
    for i, k in enumerate(keys):
        if k not in data["price_words"]:
            continue
        j = next((j for j in range(i + 1, len(keys)) if keys[j] not in between), len(keys))
        at = next((at for at in range(i - 1, -1, -1) if not _tagged(keys[at], skip)), -1)
        if j < len(keys) and keys[j] in after and (at < 0 or _tagged(keys[at], before)):
            return [k]
    return []


def _outside_manual(keys: list[str], dqr: dict, asks_a_quantity_kind: bool) -> list[str]:
    """가격이 얼마야, 어디서 사, 하나에 얼마예요, 서비스 센터 어디야: what a product manual never states (lexicon
    dqr.outside_manual), as the words that asked it."""
    data = dqr.get("outside_manual")
    if not data:
        return []
    found = [k for k in keys if k in data["words"]] + ([] if asks_a_quantity_kind else _price_asked(keys, data))
    if any(k in data["where_words"] for k in keys):
        found += [k for k in keys if k in data["with_where"]]
    if any(k in data["price_words"] for k in keys):  # 하나에 얼마: a price per item; 필터 값은 얼마야: a price
        not_after = set(data.get("with_price_not_after", []))
        found += [k for i, k in enumerate(keys) if k in data.get("with_price", []) and not (i and keys[i - 1] in not_after)]
        per_item = set(data["per_item"])
        found += [a for a, b in zip(keys, keys[1:]) if _tagged(a, per_item) and b == "에/JKB"]
    return [k.split("/")[0] for k in dict.fromkeys(found)]


def _together_marks(nt: NormalizedText, dqr: dict) -> list[str]:
    """The lexicon's together marks when the question, as said (둘 다 before numbers are written as digits), holds one."""
    marks = dqr.get("together_marks", {}).get("marks", [])
    said = compact(nt.original)
    return marks if any(compact(m) in said for m in marks) else []


def _native_numbers(registry: Registry) -> list[str]:
    numbers = registry.lexicon.get("numbers", {})
    return [*numbers.get("native_units", {}), *numbers.get("native_tens", {})]


def knowledge_query(
    dqr_owns_turn: bool,
    normalized_text: NormalizedText,
    knowledge_store: KnowledgeStore,
    knowledge_as_of: date,
    kiwi: Any,
    registry: Registry,
    trace_id: str,
) -> KnowledgeQuery | KnowledgeNotRun:
    """The question's terms, focus words and linked graph entities (cut to QUERY_MAX_CHARS)."""
    if not dqr_owns_turn:
        return KnowledgeNotRun(reason="not_dqr")
    if normalized_text.rejected_reason or not normalized_text.text.strip():
        return KnowledgeNotRun(reason="empty_question", detail=normalized_text.rejected_reason or "empty")
    if not knowledge_store.available:
        return KnowledgeNotRun(reason="index_missing", detail=knowledge_store.problem or "")
    text = normalized_text.text[:QUERY_MAX_CHARS]
    truncated = normalized_text.truncated or len(normalized_text.text) > QUERY_MAX_CHARS
    tokens = [(m.form, m.tag, m.start, m.length) for m in normalized_text.morphemes if m.start + m.length <= len(text)]
    terms = analyse_tokens(tokens)
    linker = _linker(knowledge_store, kiwi, registry)
    lemmas = [t.text for t in terms]
    linked = linker.link(text, lemmas, _nominal_lengths(text, tokens))
    people = registry.speech_acts.person_set
    focus = [t.text for t in terms if t.focus and t.text not in linker.generic_nouns
             and not {t.text, t.text + "님"} & people]  # 선생님, 우리 영감이: who asks is no word the manual must know
    dqr = registry.lexicon.get("dqr", {})
    shapes = {compact(s) for s in dqr.get("capability_question_shapes", [])}
    squeezed = compact(text)
    quantity_words = registry.speech_acts.quantity_word_set
    keys = _lemma_keys(normalized_text)
    units = _asked_units(registry.speech_acts, set(keys), [t.text for t in terms if t.quantity])
    problem = _reports_problem(keys, registry)
    return KnowledgeQuery(
        query_id=f"q-{trace_id[:12]}", text=text, truncated=truncated, as_of=knowledge_as_of, terms=lemmas,
        focus_terms=list(dict.fromkeys(focus)), quantity_terms=list(dict.fromkeys(t.text for t in terms if t.quantity)),
        possibility_question=any(s and s in squeezed for s in shapes), links=linked.links,
        asks_quantity=any(f"{m.form}/{m.tag}" in quantity_words for m in normalized_text.morphemes),
        asked_units=units, number_words=_native_numbers(registry) if units else [], outside_manual=_outside_manual(keys, dqr, bool(units)),
        condition=_asked_condition(lemmas + linked.expansion_terms, dqr),
        answer_marks=dqr.get("directive_marks", {}).get("marks", []) if _asks_leave_or_ability(keys, registry.speech_acts) else [],
        # a problem's answer is what to do, read out in the manual's order (remedy_marks): no answer shape picks it
        shape_marks=[] if problem else _shape_marks(keys, registry),
        together_marks=_together_marks(normalized_text, dqr),
        **_problem_fields(dqr.get("remedy_marks", {}) if problem else {}),
        asks_capabilities=not linked.links and _asks_what_it_can_do(normalized_text, registry),
        expansion_terms=linked.expansion_terms, expansion_shares=linked.expansion_shares, known_surfaces=linked.matched,
    )


_NOMINAL_TAGS = frozenset({"NNG", "NNP", "NNB"})


def _nominal_lengths(text: str, tokens: list[tuple[str, str, int, int]]) -> list[int]:
    """For each written word of `text`, how many of its characters the nouns it begins with span (프리피터는: 4,
    이상해: 2, 올라가: 0)."""
    out = []
    for word in re.finditer(r"\S+", text):
        end = word.start()
        for form, tag, start, length in tokens:
            if word.start() <= start < word.end():
                if tag.split("-")[0] not in _NOMINAL_TAGS or start != end:
                    break
                end = start + length
        out.append(end - word.start())
    return out


def kg_projection(knowledge_query: KnowledgeQuery | KnowledgeNotRun, knowledge_store: KnowledgeStore) -> KgProjection | KnowledgeNotRun:
    """Relations around the linked entities, at most two hops, valid at the question time."""
    if isinstance(knowledge_query, KnowledgeNotRun):
        return knowledge_query
    con = knowledge_store.require()
    as_of = knowledge_query.as_of
    current = knowledge_store.memo(f"sections:{as_of.isoformat()}", lambda: current_source_ids(con, as_of))
    relations = knowledge_store.memo(f"relations:{as_of.isoformat()}", lambda: valid_relations(con, as_of))
    return project(con, [link.entity_id for link in knowledge_query.links], relations, current)


def retrieval(
    knowledge_query: KnowledgeQuery | KnowledgeNotRun,
    kg_projection: KgProjection | KnowledgeNotRun,
    knowledge_store: KnowledgeStore,
) -> RetrievalResult | KnowledgeNotRun:
    """Sections that answer the question (BM25 + dense + graph), with evidence and answerability."""
    if isinstance(knowledge_query, KnowledgeNotRun):
        return knowledge_query
    if isinstance(kg_projection, KnowledgeNotRun):
        return kg_projection
    con = knowledge_store.require()
    as_of = knowledge_query.as_of
    view = knowledge_store.memo(f"view:{as_of.isoformat()}", lambda: index_view(con, as_of))
    return retrieve(con, knowledge_query, kg_projection, view, knowledge_store.calibration, knowledge_store.index_version or "")


def _answer_projection(projection: KgProjection) -> AnswerProjection:
    return AnswerProjection(entities=projection.entities, relations=[
        Relation(from_=r.from_, type=r.type, to=r.to, source_refs=r.source_refs, valid_at=r.valid_at) for r in projection.relations
    ])


def dqr_answer(
    knowledge_query: KnowledgeQuery | KnowledgeNotRun,
    kg_projection: KgProjection | KnowledgeNotRun,
    retrieval: RetrievalResult | KnowledgeNotRun,
    knowledge_store: KnowledgeStore,
    registry: Registry,
) -> KnowledgeAnswer | KnowledgeNotRun:
    """The Korean answer from the projection and the evidence, citing section ids and locations."""
    if isinstance(knowledge_query, KnowledgeNotRun) and knowledge_query.reason == "not_dqr":
        return knowledge_query
    composer = Composer(knowledge_store.templates)
    if isinstance(knowledge_query, KnowledgeNotRun):
        if knowledge_query.reason == "index_missing":
            return KnowledgeAnswer(text=composer.say("index_missing", command=build_hint(knowledge_store.db_path)),
                                   answerability="insufficient", notices=["index_missing"])
        if knowledge_query.reason == "empty_question":  # DQR owns a turn with nothing to search: ask again
            return KnowledgeAnswer(text=composer.say("empty_question"), answerability="insufficient", notices=["question_empty"])
        return knowledge_query
    if isinstance(kg_projection, KnowledgeNotRun) or isinstance(retrieval, KnowledgeNotRun):
        return kg_projection if isinstance(kg_projection, KnowledgeNotRun) else retrieval  # type: ignore[return-value]
    notices: list[str] = []
    head: list[str] = []
    if knowledge_query.truncated:
        notices.append("question_truncated")
        head.append(composer.say("truncated", limit=QUERY_MAX_CHARS))
    if knowledge_query.asks_capabilities:  # what it can do comes from the registry, never from one unrelated section
        items = [c.description for c in registry.capabilities.capabilities if not c.internal and c.kind != "state_query"]
        text = composer.say("capabilities", items=composer.t.get("list_separator", ", ").join(items))
        return KnowledgeAnswer(text=" ".join(head + [text]), answerability="sufficient", notices=notices + ["capability_registry"],
                               index_version=retrieval.index_version)
    labels = {link.entity_id: link.label for link in knowledge_query.links}
    types = {link.entity_id: link.type for link in knowledge_query.links}
    evidence = retrieval.retrieval_evidence
    unstated = next((b.split(":", 1)[1] for b in retrieval.insufficient_because if b.startswith("condition_not_stated:")), None)
    if unstated and evidence:  # 2단으로 틀면 몇 dB?: say which levels the manual gives, citing them
        first = evidence[0]
        text = composer.say("condition_not_stated", asked=unstated, location=first.location, source_id=first.source_id,
                            claim=sentence(first.claim))
        evidence = [first]
        notices.append("condition_not_stated")
    elif retrieval.answerability == "insufficient":
        # offer only what the question and the manual share: its entities, else sections holding one of its words
        topics = list(dict.fromkeys([link.label for link in knowledge_query.links] or
                                    [h.location.split(" ", 1)[-1] for h in retrieval.hits if h.focus_matches][:2]))
        text = composer.insufficient_text(topics)
        evidence = []
    else:
        locations = {e.source_id: e.location for e in evidence}
        verdict = relation_verdict(kg_projection, types) if knowledge_query.possibility_question else None
        text = composer.verdict_text(verdict, labels, evidence, locations) if verdict else composer.extract_text(evidence)
        dqr = registry.lexicon.get("dqr", {})
        product = rate_times_count(knowledge_query.text, [e.claim for e in evidence], dqr.get("rate_counts", {})) \
            if knowledge_query.asks_quantity and not verdict else None
        if product is not None:  # 방 10개면 청정 시간만 몇 분?: the rate the manual states, times the count asked
            text = " ".join([composer.say("rate_times_count", **product), text])
            notices.append("computed_from_rate")
        band = band_of(knowledge_query.text, [e.claim for e in evidence[:1]], dqr.get("band_bounds", {})) \
            if knowledge_query.shape_marks and not verdict else None
        if band is not None:  # 초미세먼지 30이면 무슨 등급이야?: the band of the manual's table the number falls in
            text = " ".join([composer.say("band_of", **band), text])
            notices.append("computed_from_bands")
        first = evidence[0].source_id if evidence else None
        claim = evidence[0].claim if evidence else ""  # an older value is noted when the answer states the newer one
        notes = [n for n in retrieval.version_notes if n.kind == "conflict" or (
            n.source_id == first and any(v in claim for v in n.values_here))]
        if notes:
            notices += list(dict.fromkeys("sources_conflict" if n.kind == "conflict" else "version_superseded" for n in notes))
            text = " ".join([text, composer.version_text(notes, retrieval)])
    return KnowledgeAnswer(text=" ".join(head + [text]), answerability=retrieval.answerability, evidence=evidence,
                           projection=_answer_projection(kg_projection), notices=notices, index_version=retrieval.index_version)

