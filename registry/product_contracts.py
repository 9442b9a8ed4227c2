"""Typed language data: the product's own vocabulary (`product_vocabulary.json`), the nouns that make a question
or a problem report the manual's. `extra="forbid"`: a key no code reads fails loading instead of lying unused.
"""

from __future__ import annotations

from functools import cached_property

from pydantic import Field

from registry.lexicon_base import Morphemes, _Model

PRODUCT_NOUN_TAGS = ("NNG", "NNP", "SL")
"""The Kiwi tags of a product word: nouns and Latin-script names (HEPA, CADR)."""


class Complaints(_Model):
    """안내 목소리가 너무 작게 나와요 / 바퀴가 너무 시끄러워: a degree of excess (너무) before an adjective, or an
    adjective's -게 adverb, said of a product noun tells that the product is wrong (a problem report), unless the
    adjective praises (너무 좋아, 너무 조용해)."""

    note: str = ""
    degrees: Morphemes
    praise: Morphemes = Field(default_factory=list)
    usual: Morphemes = Field(default_factory=list)
    """평소 / 예전 / 처음: a product noun's doing compared with what it used to be (평소보다 배터리가 빨리 닳네) tells
    that it changed for the worse, whatever the predicate, unless it praises (예전보다 조용해졌어)."""
    comparing: Morphemes = Field(default_factory=list)
    """The particle that compares (보다/JKB)."""


class ProductVocabulary(_Model):
    """Nouns that name this product, its parts, features and properties (화소, 스테이션, 바퀴, 보증).

    A question or a problem report about one of them asks the manual, not the robot to act. `from_kg` is written by
    `scripts/product_vocabulary.py` from the knowledge graph's entity aliases (do not edit it by hand); `attributes`
    are properties any product has (가격, 무게, 화소); `excluded` are words too common in talk to mean the product.
    Entries are bare noun forms, matched on whole morphemes (NNG/NNP/SL), case-folded.
    """

    version: str
    description: str = ""
    kg_entity_types: list[str]
    from_kg: list[str]
    attributes: list[str]
    excluded: list[str] = Field(default_factory=list)
    remaining: list[str] = Field(default_factory=list)
    """남/VV (남은 수명), 잔여/NNG (잔여 용량): morphemes (form/TAG) that, said right before a property (an ending
    aside), ask how much of it is left now: the robot's state, not a property of the product."""
    complaints: Complaints | None = None

    @cached_property
    def attribute_words(self) -> frozenset[str]:
        return frozenset(w.lower() for w in self.attributes) - {w.lower() for w in self.excluded}

    @cached_property
    def remaining_set(self) -> frozenset[tuple[str, str]]:
        return frozenset(tuple(w.split("/")) for w in self.remaining)  # type: ignore[misc]

    @cached_property
    def words(self) -> frozenset[str]:
        return frozenset(w.lower() for w in (*self.from_kg, *self.attributes)) - {w.lower() for w in self.excluded}
