"""Typed language data: the product's own vocabulary (`product_vocabulary.json`), the nouns that make a question
or a problem report the manual's. `extra="forbid"`: a key no code reads fails loading instead of lying unused.
"""

from __future__ import annotations

from functools import cached_property

from pydantic import Field

from registry.lexicon_base import _Model

PRODUCT_NOUN_TAGS = ("NNG", "NNP", "SL")
"""The Kiwi tags of a product word: nouns and Latin-script names (HEPA, CADR)."""


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

    @cached_property
    def attribute_words(self) -> frozenset[str]:
        return frozenset(w.lower() for w in self.attributes) - {w.lower() for w in self.excluded}

    @cached_property
    def words(self) -> frozenset[str]:
        return frozenset(w.lower() for w in (*self.from_kg, *self.attributes)) - {w.lower() for w in self.excluded}
