"""Entity linking: which graph entities a question names, and which manual words it means.

Aliases come from the graph's entity table and, for entities that are capabilities, from the
capability registry; synonyms map everyday words onto the manual's wording. Matching ignores
spacing (the compact text), prefers the longest alias, and a Latin alias ("e1", "hepa") must
not sit inside a longer Latin word or number. A word that links nothing may be a recognition slip of an alias one
jamo away (프리피터 for 프리필터), under the router's rule: only a word of three syllables or more.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import duckdb

from registry.hangul import FUZZY_MIN_SYLLABLES, all_hangul, deletions, jamo
from registry.knowledge_contracts import EntityLink
from registry.loader import Registry


def compact_words(text: str) -> list[str]:
    """The written words of `text` as they sit in its compact form (lower case, in order)."""
    return text.lower().split()


def compact(text: str) -> str:
    return "".join(compact_words(text))


def _is_latin_or_digit(ch: str) -> bool:
    return ch.isascii() and ch.isalnum()


@dataclass(frozen=True)
class _Alias:
    surface: str
    entity_id: str


@dataclass(frozen=True)
class LinkResult:
    links: list[EntityLink]
    expansions: list[str]
    """Texts to add to the search: linked entities' labels and synonyms' manual wording."""
    expansion_terms: list[str]
    """The expansions as index terms."""
    expansion_shares: dict[str, float]
    """An expansion term's share of the written word it was read from (바이탈사인 -> 바 + 이탈 + 사인: a third each),
    for terms of a word read as two or more."""
    matched: list[str]
    """Compact surfaces that matched (a question word inside one is known to the graph)."""


class Linker:
    """Built once per index (and registry) from the graph tables; `link` is pure."""

    def __init__(self, entities: dict[str, tuple[str, str]], aliases: list[_Alias], synonym_surfaces: list[tuple[str, str]],
                 synonym_lemmas: dict[str, str], generic_nouns: set[str], analyse: Callable[[str], list[str]]):
        self.entities = entities
        """entity id -> (type, label)"""
        self.aliases = sorted(aliases, key=lambda a: -len(a.surface))
        self.names: dict[str, list[str]] = {}
        """entity id -> every alias of it"""
        for alias in self.aliases:
            self.names.setdefault(alias.entity_id, []).append(alias.surface)
        self.synonym_surfaces = sorted(synonym_surfaces, key=lambda s: -len(s[0]))
        self.synonym_lemmas = synonym_lemmas
        self.generic_nouns = generic_nouns
        self.slips: dict[str, _Alias] = {}
        """jamo variants one deletion from an alias of three syllables or more -> the alias (registry.hangul)"""
        for alias in self.aliases:
            if len(alias.surface) >= FUZZY_MIN_SYLLABLES and all_hangul(alias.surface):
                for variant in deletions(jamo(alias.surface)):
                    self.slips.setdefault(variant, alias)
        self.slip_lengths = sorted({len(a.surface) for a in self.slips.values()}, reverse=True)
        texts = [label for _, label in entities.values()] + [e for _, e in synonym_surfaces] + list(synonym_lemmas.values())
        self._terms = {text: analyse(text) for text in dict.fromkeys(texts)}
        self._shares = {text: _word_shares(text, terms, analyse) for text, terms in self._terms.items()}

    @classmethod
    def from_connection(cls, con: duckdb.DuckDBPyConnection, analyse: Callable[[str], list[str]],
                        registry: Registry | None = None) -> "Linker":
        entities, aliases = {}, []
        rows = con.execute("SELECT id, type, label, aliases, capability_id, registry_aliases FROM kg_entities").fetchall()
        for entity_id, etype, label, own, capability_id, use_registry in rows:
            entities[entity_id] = (etype, label)
            words = list(own)
            if use_registry and registry is not None and capability_id in registry.capability_by_id:
                words += registry.capability_by_id[capability_id].aliases
            aliases += [_Alias(compact(w), entity_id) for w in dict.fromkeys(words) if compact(w)]
        surfaces, lemmas = [], {}
        for syn_surfaces, syn_lemmas, expand in con.execute("SELECT surfaces, lemmas, expand FROM kg_synonyms").fetchall():
            surfaces += [(compact(s), expand) for s in syn_surfaces if compact(s)]
            lemmas.update({lemma.lower(): expand for lemma in syn_lemmas})
        generic = {row[0] for row in con.execute("SELECT term FROM kg_generic_nouns").fetchall()}
        return cls(entities, aliases, surfaces, lemmas, generic, analyse)

    @staticmethod
    def _find(text: str, surface: str, taken: list[bool]) -> int:
        start = text.find(surface)
        while start >= 0:
            end = start + len(surface)
            free = not any(taken[start:end])
            bounded = not (
                (_is_latin_or_digit(surface[0]) and start > 0 and _is_latin_or_digit(text[start - 1]))
                or (_is_latin_or_digit(surface[-1]) and end < len(text) and _is_latin_or_digit(text[end]))
            )
            if free and bounded:
                return start
            start = text.find(surface, start + 1)
        return -1

    def _slipped(self, text: str, taken: list[bool], links: list[EntityLink], nominal: list[int]) -> list[EntityLink]:
        """Entities named by a slip: the nouns a written word that links nothing begins with (a particle may follow
        them; `nominal` gives their length per word) one jamo away from an alias of theirs (프리피터는 -> 프리필터; not
        이상해 -> 인사해: a verb)."""
        found, at = [], 0
        for word, nouns in zip(compact_words(text), nominal):
            start, at = at, at + len(word)
            if any(taken[start:at]):
                continue
            for size in (n for n in self.slip_lengths if n <= nouns):
                if not all_hangul(word[:size]):
                    continue
                alias = next((self.slips[v] for v in deletions(jamo(word[:size])) if v in self.slips), None)
                if alias is not None and all(x.entity_id != alias.entity_id for x in [*links, *found]):
                    etype, label = self.entities[alias.entity_id]
                    found.append(EntityLink(entity_id=alias.entity_id, type=etype, label=label, surface=word[:size], start=start,
                                            aliases=self.names.get(alias.entity_id, [])))
                    break
        return found

    def link(self, text: str, lemmas: list[str], nominal: list[int] | None = None) -> LinkResult:
        """Entities named in `text` (longest alias first, no overlaps) and the search expansions; with `nominal` (how
        many characters of each written word are nouns), a slip of an alias in those nouns too."""
        squeezed = compact(text)
        taken = [False] * len(squeezed)
        links: list[EntityLink] = []
        claimed: dict[tuple[int, int], set[str]] = {}
        for alias in self.aliases:
            start = self._find(squeezed, alias.surface, taken)
            span = None
            if start < 0:
                # an alias of the same span as one already taken may name a second entity
                span = next((s for s in claimed if squeezed[s[0]:s[1]] == alias.surface), None)
                if span is None or alias.entity_id in claimed[span]:
                    continue
                start = span[0]
            if any(link.entity_id == alias.entity_id for link in links):
                continue
            etype, label = self.entities[alias.entity_id]
            links.append(EntityLink(entity_id=alias.entity_id, type=etype, label=label, surface=alias.surface, start=start,
                                    aliases=self.names.get(alias.entity_id, [])))
            end = start + len(alias.surface)
            claimed.setdefault((start, end), set()).add(alias.entity_id)
            for i in range(start, end):
                taken[i] = True
        links += self._slipped(text, taken, links, nominal) if nominal else []
        links.sort(key=lambda link: link.start)
        matched = [link.surface for link in links]
        expansions = [link.label for link in links]
        for surface, expand in self.synonym_surfaces:
            if surface in squeezed:
                expansions.append(expand)
                matched.append(surface)
        for lemma in lemmas:
            if lemma in self.synonym_lemmas:
                expansions.append(self.synonym_lemmas[lemma])
                matched.append(lemma)
        expansions = list(dict.fromkeys(expansions))
        terms = [t for text in expansions for t in self._terms[text]]
        shares: dict[str, float] = {}
        for text in expansions:
            for term, share in self._shares[text].items():
                shares[term] = max(shares.get(term, 0.0), share)
        return LinkResult(links=links, expansions=expansions, expansion_terms=list(dict.fromkeys(terms)),
                          expansion_shares={t: v for t, v in shares.items() if v < 1.0}, matched=matched)


def _word_shares(text: str, terms: list[str], analyse: Callable[[str], list[str]]) -> dict[str, float]:
    """Each of `terms` (the analysis of `text`) -> one over the number of terms the written word holding it is read
    as (1.0 for a term no single word yields)."""
    shares = dict.fromkeys(terms, 0.0)
    for word in text.split():
        parts = [t for t in analyse(word) if t in shares]
        for t in parts:
            shares[t] = max(shares[t], 1.0 / len(parts))
    return {t: v or 1.0 for t, v in shares.items()}
