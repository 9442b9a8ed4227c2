"""The knowledge graph in DuckDB and its scoped projection (recursive SQL, at most two hops).

The projection never hands over the whole graph: when the question names two entities it
keeps only the paths that connect them (privacy_mode -restricts-> camera <-requires-
vital_signs); otherwise the neighbourhood of the one it names, capped.
"""

from __future__ import annotations

from datetime import date
from typing import Iterable

import duckdb

from kg.triples import GraphData
from registry.errors import KnowledgeIndexError
from registry.knowledge_contracts import GraphRelation, KgProjection

MAX_HOPS = 2
MAX_RELATIONS = 12
# what a relation tells a question, most telling first (ties keep the walk order)
_TYPE_ORDER = ("restricts", "requires", "limits", "allows", "causes", "fixes", "replaced_every", "washed_every",
               "cleaned_every", "has_warranty", "uses", "reports", "part_of")

_DDL = """
CREATE OR REPLACE TABLE kg_entities (
    id VARCHAR, type VARCHAR, label VARCHAR, aliases VARCHAR[], capability_id VARCHAR, registry_aliases BOOLEAN, hub BOOLEAN);
CREATE OR REPLACE TABLE kg_relations (
    rel_id INTEGER, fact_id VARCHAR, src VARCHAR, type VARCHAR, dst VARCHAR, claim VARCHAR, source_refs VARCHAR[], valid_at DATE);
CREATE OR REPLACE TABLE kg_synonyms (surfaces VARCHAR[], lemmas VARCHAR[], expand VARCHAR);
CREATE OR REPLACE TABLE kg_generic_nouns (term VARCHAR);
"""

_EDGES_SQL = """
CREATE OR REPLACE TABLE kg_edges AS
SELECT r.rel_id, r.fact_id, r.valid_at, r.src AS node, r.dst AS other, coalesce(e.hub, false) AS other_hub
FROM kg_relations r LEFT JOIN kg_entities e ON e.id = r.dst
UNION ALL
SELECT r.rel_id, r.fact_id, r.valid_at, r.dst AS node, r.src AS other, coalesce(e.hub, false) AS other_hub
FROM kg_relations r LEFT JOIN kg_entities e ON e.id = r.src;
"""
"""Both directions of every relation, so the walk joins on equality (an OR join would be a nested loop)."""

# Each walk row ends with one relation; every relation on a kept path is the last relation of
# some shorter row, so the rows carry all the details the projection needs in one query.
_VALID_SQL = """
SELECT rel_id FROM kg_relations WHERE valid_at <= ?
QUALIFY row_number() OVER (PARTITION BY fact_id ORDER BY valid_at DESC) = 1
"""
"""The version of every fact that is valid at the question time (the newest not after it)."""

_WALK_SQL = """
WITH RECURSIVE
edges AS (SELECT * FROM kg_edges WHERE list_contains(?::INTEGER[], rel_id)),
walk(seed, node, depth, path, hub) AS (
    SELECT s, s, 0, []::INTEGER[], false FROM (SELECT unnest(?::VARCHAR[]) AS s)
    UNION ALL
    SELECT w.seed, e.other, w.depth + 1, list_append(w.path, e.rel_id), e.other_hub
    FROM walk w JOIN edges e ON e.node = w.node
    WHERE w.depth < ? AND NOT w.hub AND NOT list_contains(w.path, e.rel_id)
)
SELECT w.seed, w.node, w.depth, w.path, r.rel_id, r.fact_id, r.src, r.type, r.dst, r.claim, r.source_refs, r.valid_at
FROM walk w JOIN kg_relations r ON r.rel_id = w.path[-1]
WHERE w.depth > 0
"""
"""A hub entity (the robot) ends a path: everything is part of it, so it relates nothing."""


def write_graph(con: duckdb.DuckDBPyConnection, graph: GraphData, known_source_ids: set[str]) -> None:
    """Replace the graph tables; every source_ref must name a section of the document index."""
    known = known_source_ids
    for triple in graph.triples:
        missing = [ref for ref in triple.source_refs if ref not in known]
        if missing:
            raise KnowledgeIndexError(f"triples.jsonl: fact {triple.fact_id}: source_ref {missing[0]} is not a section of the corpus")
    con.execute(_DDL)
    con.executemany(
        "INSERT INTO kg_entities VALUES (?, ?, ?, ?, ?, ?, ?)",
        [[e.id, e.type, e.label, e.aliases, e.capability_id, e.registry_aliases, e.hub] for e in graph.entities],
    )
    if graph.triples:
        con.executemany(
            "INSERT INTO kg_relations VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            [[i, t.fact_id, t.from_, t.type, t.to, t.claim, t.source_refs, t.valid_at] for i, t in enumerate(graph.triples, 1)],
        )
    con.execute(_EDGES_SQL)
    if graph.synonyms:
        con.executemany("INSERT INTO kg_synonyms VALUES (?, ?, ?)", [[s.surfaces, s.lemmas, s.expand] for s in graph.synonyms])
    if graph.generic_nouns:
        con.executemany("INSERT INTO kg_generic_nouns VALUES (?)", [[t.lower()] for t in graph.generic_nouns])


def graph_counts(con: duckdb.DuckDBPyConnection) -> dict[str, int]:
    one = lambda sql: con.execute(sql).fetchone()[0]  # noqa: E731
    return {"entities": one("SELECT count(*) FROM kg_entities"), "relations": one("SELECT count(*) FROM kg_relations"),
            "synonyms": one("SELECT count(*) FROM kg_synonyms")}


def _select(walks: list[tuple[str, str, int, list[int]]], seeds: list[str]) -> tuple[dict[int, int], set[int]]:
    """Relation ids to keep with the hop they sit at, and those on a path between two seeds."""
    connecting: list[int] = []
    by_node: dict[str, list[tuple[str, int, list[int]]]] = {}
    for seed, node, depth, path in walks:
        by_node.setdefault(node, []).append((seed, depth, path))
        if node in seeds and node != seed:
            connecting.extend(path)
    for reached in by_node.values():
        for i, (s1, d1, p1) in enumerate(reached):
            for s2, d2, p2 in reached[i + 1:]:
                if s1 != s2 and d1 + d2 <= MAX_HOPS:
                    connecting.extend(p1 + p2)
    if connecting:
        return {rel: 1 for rel in dict.fromkeys(connecting)}, set(connecting)
    hops: dict[int, int] = {}
    for _, _, depth, path in sorted(walks, key=lambda w: w[2]):
        hops.setdefault(path[-1], depth)
    return hops, set()


def valid_relations(con: duckdb.DuckDBPyConnection, as_of: date) -> list[int]:
    """Relation ids of the fact versions valid at `as_of`."""
    return [r[0] for r in con.execute(_VALID_SQL, [as_of]).fetchall()]


def project(con: duckdb.DuckDBPyConnection, seeds: Iterable[str], relation_ids: list[int], current_refs: set[str]) -> KgProjection:
    """The scoped projection around the linked entities over the relations in `relation_ids` (see
    `valid_relations`), their source_refs narrowed to `current_refs` (the sections valid then)."""
    seeds = list(dict.fromkeys(seeds))
    if not seeds:
        return KgProjection(entities=[], relations=[], source_refs=[], seeds=[])
    rows = con.execute(_WALK_SQL, [relation_ids, seeds, MAX_HOPS]).fetchall()
    hops, connecting = _select([(seed, node, depth, list(path)) for seed, node, depth, path, *_ in rows], seeds)
    details = {row[4]: row[5:] for row in rows}
    relations, order = [], {}
    for rel_id in hops:
        fact_id, src, rtype, dst, claim, refs, valid_at = details[rel_id]
        relations.append(GraphRelation(
            fact_id=fact_id, from_=src, type=rtype, to=dst, claim=claim, valid_at=valid_at.isoformat(),
            source_refs=[r for r in refs if r in current_refs], connects=rel_id in connecting,
        ))
        order[fact_id] = (hops[rel_id], _TYPE_ORDER.index(rtype) if rtype in _TYPE_ORDER else len(_TYPE_ORDER))
    relations.sort(key=lambda r: order[r.fact_id])
    relations = relations[:MAX_RELATIONS]
    entities = list(dict.fromkeys(seeds + [e for r in relations for e in (r.from_, r.to)]))
    refs = list(dict.fromkeys(ref for r in relations for ref in r.source_refs))
    newest = max((date.fromisoformat(r.valid_at) for r in relations if r.valid_at), default=None)
    return KgProjection(entities=entities, relations=relations, source_refs=refs, valid_at=newest, seeds=seeds)
