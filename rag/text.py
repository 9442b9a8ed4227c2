"""Text mechanisms of the index: Kiwi morpheme terms, sentences, quantities.

The same `index_terms` turns manual sections and questions into BM25 terms, so a question
and a passage meet on lemmas (갈아야돼 and 갈다 share 갈/VV), not on surface strings.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Sequence

TERM_TAGS = frozenset({"NNG", "NNP", "NNB", "NR", "NP", "VV", "VA", "XR", "SL", "SN", "SH"})
"""Kiwi tags that carry content; particles, endings, suffixes and punctuation are dropped."""
FOCUS_TAGS = frozenset({"NNG", "NNP", "SL", "SH"})
"""Tags of the words a question is *about* (answerability asks whether the manual knows them)."""
_UNIT_TAGS = frozenset({"NNB", "NNG", "SL", "SW"})
_CROSS_REF = re.compile(r"\(\s*\d+\.\d+[^()]*\)")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")
_TABLE_RULE = re.compile(r"^\|?[\s:|-]+\|?$")


@dataclass(frozen=True)
class Term:
    """One index term with whether it names what the text is about."""

    text: str
    focus: bool
    quantity: bool = False


def _base_tag(tag: Any) -> str:
    return str(tag).split("-")[0]


def analyse_tokens(tokens: Sequence[tuple[str, str, int, int]]) -> list[Term]:
    """Content lemmas of analysed text given as (form, tag, start, length), plus merged forms.

    A serial written without a space ("E7", "H13", "R6") becomes one focus term, and a
    number with its unit (12개월, 0%, 22 dB) becomes one quantity term beside the
    bare number, so 9개월 and 12개월 do not look alike.
    """
    terms: list[Term] = []
    for i, (form, tag, start, length) in enumerate(tokens):
        tag = _base_tag(tag)
        form = form.lower()
        if tag in TERM_TAGS:
            named = tag in ("VA", "VV") and i + 1 < len(tokens) and _base_tag(tokens[i + 1][1]) == "ETN"  # 좋음, 나쁨: a name
            terms.append(Term(form, (tag in FOCUS_TAGS and not (tag == "SL" and len(form) == 1)) or named))
        if tag != "SN":
            continue
        if i > 0:
            p_form, p_tag, p_start, p_len = tokens[i - 1]
            if _base_tag(p_tag) == "SL" and p_start + p_len == start:
                terms.append(Term(p_form.lower() + form, True))
                continue
        if i + 1 >= len(tokens):
            continue
        n_form, n_tag, n_start, _ = tokens[i + 1]
        n_tag = _base_tag(n_tag)
        gap = n_start - (start + length)
        # a Korean unit is written against its number; a Latin one ("22 dB") may stand apart
        if n_tag in _UNIT_TAGS and n_form.strip() and (gap == 0 or (gap == 1 and n_tag in ("SL", "SW"))):
            terms.append(Term(form + n_form.lower(), False, quantity=True))
    return terms


def analyse(kiwi: Any, text: str) -> list[Term]:
    """`analyse_tokens` over Kiwi's analysis of `text`."""
    return analyse_tokens([(t.form, str(t.tag), t.start, t.len) for t in kiwi.tokenize(text)])


def index_terms(kiwi: Any, text: str) -> list[str]:
    return [t.text for t in analyse(kiwi, text)]


def sentence_spans(text: str) -> list[tuple[str, int, int]]:
    """(sentence, start, end) over `text`: prose split at sentence ends, each table row one sentence
    (its cells joined by spaces)."""
    out: list[tuple[str, int, int]] = []
    offset = 0
    for raw in text.splitlines(keepends=True):
        line, start = raw.strip(), offset + len(raw) - len(raw.lstrip())
        offset += len(raw)
        if not line or _TABLE_RULE.match(line):
            continue
        if line.startswith("|"):
            cells = [c.strip() for c in line.strip("|").split("|")]
            out.append((" ".join(c for c in cells if c), start, start + len(line)))
            continue
        cursor = 0
        for piece in _SENTENCE_END.split(line):
            at = line.find(piece, cursor)
            cursor = at + len(piece)
            if piece.strip():
                out.append((piece.strip(), start + at, start + cursor))
    return out


def sentences(text: str) -> list[str]:
    return [s for s, _, _ in sentence_spans(text)]


def quantity_unit(quantity: str) -> str:
    """The unit of a number-with-unit term (27초 -> 초, 2.4ghz -> ghz)."""
    return quantity.lstrip("0123456789.,")


def quantities(kiwi: Any, text: str) -> set[str]:
    """Number-with-unit terms of a text, cross references like (8.4절) left out."""
    return {t.text for t in analyse(kiwi, _CROSS_REF.sub(" ", text)) if t.quantity}
