"""The curated knowledge graph files: entities, triples and the question vocabulary (data/kg/).

`read_graph(dir) -> GraphData`; a validation error names the file, the line and the field.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Literal

from pydantic import ConfigDict, Field, ValidationError

from registry.contracts import Contract
from registry.errors import KnowledgeIndexError

EntityType = Literal["capability", "mode", "feature", "part", "policy", "error_code", "condition", "procedure", "quantity"]
RelationType = Literal[
    "restricts", "requires", "uses", "limits", "allows", "part_of", "causes", "fixes",
    "replaced_every", "washed_every", "cleaned_every", "reports", "has_warranty",
]
"""Closed set of relation types; the DQR composer gives restricts/requires/uses/limits/allows their meaning."""

ENTITIES_FILE = "entities.json"
TRIPLES_FILE = "triples.jsonl"
SYNONYMS_FILE = "synonyms.json"


class Entity(Contract):
    """A product entity and the words that name it in a question."""

    id: str = Field(pattern=r"^[a-z][a-z0-9_]*$")
    type: EntityType
    label: str
    """The manual's own name for it (used in answers and added to the search)."""
    aliases: list[str] = Field(default_factory=list)
    capability_id: str | None = None
    """The capability registry entry this entity is (its aliases are reused when registry_aliases)."""
    registry_aliases: bool = False
    hub: bool = False
    """A hub (the robot itself) ends a walk: everything is part of it, so it relates nothing."""


class Triple(Contract):
    """One typed relation with the manual sections that state it and when it took effect."""

    model_config = ConfigDict(frozen=True, extra="forbid", validate_by_name=True, validate_by_alias=True, serialize_by_alias=True)

    fact_id: str
    """Versions of the same fact share a fact_id; the newest valid one wins."""
    from_: str = Field(alias="from")
    type: RelationType
    to: str
    claim: str
    """The relation as one Korean sentence (what the answer says)."""
    source_refs: list[str] = Field(min_length=1)
    valid_at: date


class Synonym(Contract):
    """Everyday words for the manual's wording (완충 -> 완전 충전): they widen the search, never the graph."""

    surfaces: list[str] = Field(default_factory=list)
    """Matched in the question with spacing ignored."""
    lemmas: list[str] = Field(default_factory=list)
    """Matched against whole Kiwi lemmas (for one-syllable words such as 갈/VV)."""
    expand: str


class EntityFile(Contract):
    version: str
    entities: list[Entity]


class SynonymFile(Contract):
    version: str
    synonyms: list[Synonym]
    generic_nouns: list[str] = Field(default_factory=list)
    """Nouns a question uses for its shape (얼마, 방법), not its subject: answerability ignores them."""


@dataclass(frozen=True)
class GraphData:
    entities: list[Entity]
    triples: list[Triple]
    synonyms: list[Synonym]
    generic_nouns: list[str]
    content_hash: str


def _first_error(exc: ValidationError) -> str:
    err = exc.errors()[0]
    where = ".".join(str(p) for p in err["loc"]) or "<root>"
    return f"{where}: {err['msg']}"


def _json_file(model: type[Contract], text: str, name: str):
    try:
        return model.model_validate(json.loads(text))
    except json.JSONDecodeError as exc:
        raise KnowledgeIndexError(f"{name}: line {exc.lineno}: {exc.msg}") from None
    except ValidationError as exc:
        raise KnowledgeIndexError(f"{name}: {_first_error(exc)}") from None


def parse_graph(entities_text: str, triples_text: str, synonyms_text: str = '{"version": "none", "synonyms": []}',
                known_capabilities: set[str] | None = None) -> GraphData:
    """Validate the files' texts: ids unique, every triple's endpoints known."""
    ent_file = _json_file(EntityFile, entities_text, ENTITIES_FILE)
    syn_file = _json_file(SynonymFile, synonyms_text, SYNONYMS_FILE)
    ids = [e.id for e in ent_file.entities]
    dupes = sorted({i for i in ids if ids.count(i) > 1})
    if dupes:
        raise KnowledgeIndexError(f"{ENTITIES_FILE}: entity id {dupes[0]} is defined twice")
    if known_capabilities is not None:
        for i, ent in enumerate(ent_file.entities):
            if ent.capability_id and ent.capability_id not in known_capabilities:
                raise KnowledgeIndexError(f"{ENTITIES_FILE}: entities.{i}.capability_id: unknown capability {ent.capability_id!r}")
    known = set(ids)
    triples: list[Triple] = []
    for number, line in enumerate(triples_text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            triple = Triple.model_validate(json.loads(line))
        except json.JSONDecodeError as exc:
            raise KnowledgeIndexError(f"{TRIPLES_FILE}: line {number}: {exc.msg}") from None
        except ValidationError as exc:
            raise KnowledgeIndexError(f"{TRIPLES_FILE}: line {number}: {_first_error(exc)}") from None
        for end in (triple.from_, triple.to):
            if end not in known:
                raise KnowledgeIndexError(f"{TRIPLES_FILE}: line {number}: unknown entity {end!r}")
        triples.append(triple)
    versions = [(t.fact_id, t.valid_at) for t in triples]
    clash = sorted({v for v in versions if versions.count(v) > 1})
    if clash:
        raise KnowledgeIndexError(f"{TRIPLES_FILE}: fact {clash[0][0]} has two versions valid from {clash[0][1]}")
    digest = hashlib.sha256("\n\x00\n".join((entities_text, triples_text, synonyms_text)).encode("utf-8")).hexdigest()
    return GraphData(entities=ent_file.entities, triples=triples, synonyms=syn_file.synonyms,
                     generic_nouns=syn_file.generic_nouns, content_hash=digest)


def read_graph(directory: Path, known_capabilities: set[str] | None = None) -> GraphData:
    try:
        entities_text = (directory / ENTITIES_FILE).read_text(encoding="utf-8")
        triples_text = (directory / TRIPLES_FILE).read_text(encoding="utf-8")
        synonyms_path = directory / SYNONYMS_FILE
        synonyms_text = synonyms_path.read_text(encoding="utf-8") if synonyms_path.exists() else '{"version": "none", "synonyms": []}'
    except FileNotFoundError as exc:
        raise KnowledgeIndexError(f"knowledge graph file not found: {exc.filename}") from None
    return parse_graph(entities_text, triples_text, synonyms_text, known_capabilities)
