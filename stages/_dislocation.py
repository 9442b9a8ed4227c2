"""Right dislocation: spoken Korean puts an afterthought after the predicate (빨리 와 거실로, 너무 시끄러워 아까부터).

Pure functions of the text and Kiwi's tokens; which tags make an afterthought is data (lexicon `afterthoughts`).
The afterthought is moved before the predicate's first word (빨리 거실로 와), so the clause that holds the verb
holds its arguments and ends on its own ending.
"""

from __future__ import annotations

from typing import Any

_MARKS = "?.!,~"
_MARK_TAGS = ("SF", "SP", "SS", "SE", "SO", "SW")
"""Kiwi's tags of punctuation and symbols (not SN, SL, SH: a number or a Latin word is a word)."""


_Word = tuple[str, list[str], list[str]]


def words_with_tags(text: str, tokens: list[Any]) -> list[_Word]:
    """(word, the tags of its morphemes, their forms) for every space-separated word, marks left out (one pass: Kiwi
    gives the tokens in text order)."""
    out, at, k = [], 0, 0
    for word in text.split(" "):
        end = at + len(word)
        tags, forms = [], []
        while k < len(tokens) and tokens[k].start < end:
            if tokens[k].start >= at and tokens[k].tag not in _MARK_TAGS:
                tags.append(tokens[k].tag)
                forms.append(tokens[k].form)
            k += 1
        out.append((word, tags, forms))
        at = end + 1
    return out


def _afterthought_start(words: list[_Word], lex: dict, copula: frozenset[tuple[str, str]]) -> int | None:
    """Where the trailing afterthought begins: words of phrase tags only, the last one closed by a particle or an
    adverb, at most `max_words` of them; None when the turn does not end on one."""
    phrase, content, bare = set(lex["phrase_tags"]), set(lex["content_tags"]), set(lex["bare_noun_tags"])
    i = len(words)
    while i > 0 and len(words) - i < lex["max_words"]:
        tags = words[i - 1][1]
        if not tags or any(t not in phrase for t in tags) or tags[-1] in bare:
            break  # (사진 좀 찍어 줘 언니 여기서: a bare noun is a call or a reference, not part of an afterthought)
        i -= 1
    if i == len(words) or i == 0:
        return None
    moved = [t for w in words[i:] for t in w[1]]
    if words[-1][1][-1] not in lex["closing_tags"] or not any(t in content for t in moved) \
            or (words[-1][2][-1], words[-1][1][-1]) in copula:
        return None  # (충전 다 됐어 아직이야: 이야 read as a particle is the copula of a sentence offered as the other one)
    # 이어서 날씨입니다 내일은 전국이 대체로: a topic and a subject of their own begin a new sentence, not an afterthought
    # (충전이 필요해 나한테는 휴가가: 나한테는 is a dative, only a noun right before the particle is its subject)
    if sum(1 for _, tags, _ in words[i:] if tags[-2:-1] and tags[-2].startswith("N") and tags[-1] in lex["subject_tags"]) \
            > lex["max_subjects"]:
        return None
    return i


def afterthought_first(text: str, tokens: list[Any], lex: dict | None,
                       copula: frozenset[tuple[str, str]] = frozenset()) -> str | None:
    """The text with a trailing afterthought moved before its predicate (빨리 와 거실로 -> 빨리 거실로 와), or None
    when nothing is to move: no afterthought, no predicate word closed by an ending right before it, or a full
    stop written between them (거실로 와. 빨리: two sentences). A last word closed by `copula`, the copula Kiwi reads as
    a particle (lexicon clauses.alternatives.after_forms), is a sentence of its own and never moved."""
    last = next((t.tag for t in reversed(tokens) if t.tag not in _MARK_TAGS), None)
    if not lex or last not in lex["closing_tags"]:
        return None  # most turns end on their predicate: nothing to look at
    words = words_with_tags(text, tokens)
    start = _afterthought_start(words, lex, copula)
    if start is None:
        return None
    _, tags, forms = words[start - 1]
    # the word before ends the sentence: any sentence ending, or a run-on -어 Kiwi reads as a connective (not -면, -서)
    ends = bool(tags) and (tags[-1] == "EF" or (tags[-1] == "EC" and forms[-1] in lex["run_on_connectives"]))
    if not ends or words[start - 1][0].rstrip(",~")[-1:] in "?.!":
        return None
    verb = start - 1
    while verb > 0 and words[verb][1][:1] == ["VX"]:
        verb -= 1  # 해 줘, 와 봐: the auxiliary's word goes with its verb
    if not any(t in lex["predicate_tags"] for t in words[verb][1]):
        return None
    tail = text[len(text.rstrip(_MARKS)):]
    moved = [w.rstrip(_MARKS) for w, _, _ in words[start:]]
    kept = [w for w, _, _ in words[:start]]
    kept[-1] = kept[-1].rstrip(",")
    return " ".join([*kept[:verb], *moved, *kept[verb:]]) + tail
