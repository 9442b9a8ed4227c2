"""The knowledge graph: curated files, scoped projection by recursive SQL, entity linking."""

from __future__ import annotations

import json
from datetime import date

import duckdb
import pytest

from dataflow.driver import shared_kiwi
from dataflow.knowledge import DEFAULT_GRAPH
from kg.graph import MAX_HOPS, project, valid_relations, write_graph
from kg.linking import Linker
from kg.triples import parse_graph, read_graph
from rag.index import current_source_ids
from rag.text import index_terms
from registry import load_registry
from registry.errors import KnowledgeIndexError
from tests._knowledge import TODAY

ENTITIES = json.dumps({"version": "t", "entities": [
    {"id": "mode_a", "type": "mode", "label": "A 모드"}, {"id": "part_x", "type": "part", "label": "X"},
    {"id": "feature_f", "type": "capability", "label": "F 기능"},
]})


def _triple(**over) -> str:
    base = {"fact_id": "a_x", "from": "mode_a", "type": "restricts", "to": "part_x", "claim": "A는 X를 끈다.",
            "source_refs": ["R6-V5-S024"], "valid_at": "2026-03-01"}
    return json.dumps({**base, **over}, ensure_ascii=False)


def test_graph_files_are_validated_with_file_line_and_field():
    assert len(parse_graph(ENTITIES, _triple()).triples) == 1
    with pytest.raises(KnowledgeIndexError, match=r"triples\.jsonl: line 2: unknown entity 'nowhere'"):
        parse_graph(ENTITIES, _triple() + "\n" + _triple(fact_id="b", to="nowhere"))
    with pytest.raises(KnowledgeIndexError, match=r"triples\.jsonl: line 1: type"):
        parse_graph(ENTITIES, _triple(type="likes"))
    with pytest.raises(KnowledgeIndexError, match="two versions valid from"):
        parse_graph(ENTITIES, _triple() + "\n" + _triple())
    with pytest.raises(KnowledgeIndexError, match=r"entities\.json: .*capability_id: unknown capability 'teleport'"):
        parse_graph(ENTITIES.replace('"type": "capability"', '"type": "capability", "capability_id": "teleport"'), _triple(),
                    known_capabilities=set(load_registry().capability_by_id))


def test_the_curated_graph_cites_only_existing_sections(knowledge_db):
    graph = read_graph(DEFAULT_GRAPH, set(load_registry().capability_by_id))
    con = duckdb.connect(str(knowledge_db), read_only=True)
    try:
        known = {r[0] for r in con.execute("SELECT source_id FROM chunks").fetchall()}
    finally:
        con.close()
    assert all(ref in known for t in graph.triples for ref in t.source_refs)
    scratch = duckdb.connect()
    with pytest.raises(KnowledgeIndexError, match="R6-V5-S024 is not a section"):
        write_graph(scratch, parse_graph(ENTITIES, _triple()), known_source_ids={"R6-V5-S001"})


def test_privacy_and_vital_signs_project_exactly_the_two_relations(knowledge_store):
    con = knowledge_store.require()
    proj = project(con, ["privacy_mode", "vital_signs"], valid_relations(con, TODAY), current_source_ids(con, TODAY))
    assert [(r.from_, r.type, r.to, r.source_refs, r.connects) for r in proj.relations] == [
        ("privacy_mode", "restricts", "camera", ["R6-V5-S024"], True),
        ("vital_signs", "requires", "camera", ["R6-V5-S018"], True),
    ]
    assert proj.entities == ["privacy_mode", "vital_signs", "camera"]
    assert proj.relations[0].model_dump()["from"] == "privacy_mode"  # DESIGN A.2 spelling


def test_projection_takes_the_fact_version_valid_at_the_question_time(knowledge_store):
    con = knowledge_store.require()
    then = date(2025, 6, 1)
    old = project(con, ["hepa_filter"], valid_relations(con, then), current_source_ids(con, then))
    new = project(con, ["hepa_filter"], valid_relations(con, TODAY), current_source_ids(con, TODAY))
    old_rel = next(r for r in old.relations if r.type == "replaced_every")
    new_rel = next(r for r in new.relations if r.type == "replaced_every")
    assert (old_rel.to, old_rel.source_refs) == ("months_9", ["R6-V4-S023", "R6-V4-S027"])
    assert (new_rel.to, new_rel.source_refs) == ("months_12", ["R6-V5-S040", "R6-V5-S045"])
    # a fact stated in both versions keeps only the sections valid at the question time
    assert all(ref.startswith("R6-V4") for r in old.relations for ref in r.source_refs)


@pytest.mark.parametrize("seeds", [["hepa_filter"], ["error_e4"], ["night_mode"], ["battery"], ["camera"]])
def test_projection_stays_within_two_hops_and_never_walks_through_the_robot(knowledge_store, seeds):
    con = knowledge_store.require()
    proj = project(con, seeds, valid_relations(con, TODAY), current_source_ids(con, TODAY))
    assert proj.relations and len(proj.relations) <= 12
    distance = {s: 0 for s in seeds}
    for _ in range(MAX_HOPS):
        for r in proj.relations:
            for a, b in ((r.from_, r.to), (r.to, r.from_)):
                if a in distance and a != "robot" and b not in distance:
                    distance[b] = distance[a] + 1
    assert all(r.from_ in distance and r.to in distance for r in proj.relations)
    assert max(distance.values()) <= MAX_HOPS
    if seeds != ["camera"]:
        return
    # camera -part_of-> robot is kept, but the robot's other parts are not reached through it
    assert ("camera", "robot") in {(r.from_, r.to) for r in proj.relations}
    assert not any(r.to == "robot" and r.from_ != "camera" for r in proj.relations)


def test_linking_ignores_spacing_reuses_registry_aliases_and_respects_latin_boundaries(knowledge_store):
    kiwi = shared_kiwi()
    linker = Linker.from_connection(knowledge_store.require(), lambda text: index_terms(kiwi, text), load_registry())
    ids = lambda text: [link.entity_id for link in linker.link(text, index_terms(kiwi, text)).links]  # noqa: E731
    assert ids("프라이버시모드에서 바이탈사인 돼?") == ["privacy_mode", "vital_signs"]
    assert ids("심박 측정 얼마나 걸려") == ["vital_signs"]  # an alias of the capability registry
    assert ids("E1 에러") == ["error_e1"] and ids("E10 에러") == []
    assert ids("헤파필터 언제 갈아") == ["hepa_filter"]  # the longest alias wins over 필터
    result = linker.link("완충하는 데 몇 시간", index_terms(kiwi, "완충하는 데 몇 시간"))
    assert "완전 충전" in result.expansions and {"완전", "충전"} <= set(result.expansion_terms)


def test_a_noun_one_jamo_from_an_alias_links_as_a_slip_but_a_verb_or_a_short_word_does_not(knowledge_store):
    """프리피터 for 프리필터 (the router's slip rule: three syllables or more); 이상해 is one jamo from 인사해 but a verb."""
    from stages.knowledge import _nominal_lengths

    kiwi = shared_kiwi()
    linker = Linker.from_connection(knowledge_store.require(), lambda text: index_terms(kiwi, text), load_registry())

    def ids(text):
        tokens = [(t.form, str(t.tag), t.start, t.len) for t in kiwi.tokenize(text)]
        return [link.entity_id for link in linker.link(text, index_terms(kiwi, text), _nominal_lengths(text, tokens)).links]
    assert ids("프리피터는 얼마나 자주 씻어야 돼") == ["prefilter"]
    assert ids("충전데가 안 보이면 어떻게 찾아가") == ["charging_station"]
    assert ids("뭔가 이상해") == [] and ids("2단에서 안 올라가") == []
