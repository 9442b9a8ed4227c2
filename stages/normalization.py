"""Step 1: clean the recognized text and analyse it into morphemes."""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache
from typing import Any

from kiwipiepy import PretokenizedToken

from registry.contracts import Morpheme, NormalizedText, TurnInput
from registry.hangul import all_hangul
from registry.loader import Registry
from stages._dislocation import afterthought_first
from stages._matchers import matchers_for
from stages._numbers import converter_for
from stages._self_repair import self_repaired
from stages.speech_patterns import patterns, plain_endings

MAX_CHARS = 400
"""Longer input is cut: a voice turn is never this long, and the tail cannot add safety."""

_KEEP = re.compile(r"[^0-9A-Za-z\uac00-\ud7a3\u3131-\u318e\s?.!,:%~\-\"']")
_QUOTES = str.maketrans({"\u201c": '"', "\u201d": '"', "\u2018": "'", "\u2019": "'", "\u300c": '"', "\u300d": '"'})
"""Quotation marks are kept (and made plain): quoted words are somebody's words, not a request."""
_SPACES = re.compile(r"\s+")
_PUNCT_SPACING = re.compile(r"\s*([?!]|[.,](?!\d)|(?<!\d)[.,])[?!.,\s]*")
"""A punctuation run becomes the mark and one space; a point or comma between digits (35.5, 12,000) is the number's."""


_COMPAT_JAMO = re.compile(r"([\u3131-\u318e]+)")


def _clean(text: str) -> str:
    # NFKC, except on letters typed alone (ㄱㄱ, ㅇㅋ, ㅋㅋ), which NFKC turns into conjoining jamo that nothing reads
    text = "".join(part if i % 2 else unicodedata.normalize("NFKC", part)
                   for i, part in enumerate(_COMPAT_JAMO.split(text))).translate(_QUOTES)
    text = "".join(ch if unicodedata.category(ch)[0] != "C" else " " for ch in text)
    text = _KEEP.sub(" ", text.lower())
    text = _PUNCT_SPACING.sub(r"\1 ", text)
    return _SPACES.sub(" ", text).strip()


_DialectRule = tuple[re.Pattern[str], dict[str, str]]


def _alternatives(words) -> str:
    """A regex alternation of the words, longest first (so 라카믄 wins over 카믄)."""
    return "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))


@lru_cache(maxsize=8)
def _dialect_rules_for(registry: Registry) -> tuple[_DialectRule, ...]:
    """가그래이 -> 가거라: a dialect imperative ending glued to a verb, which Kiwi would read as one unknown noun,
    matched only at the end of a longer word (lexicon `dialect_endings`); 고마 -> 그만: a dialect word matched only
    as a whole word (lexicon `dialect_words`); 밧데리가 -> 배터리가: a spoken spelling of a loanword matched at the
    start of a word, a particle or ending glued after it (lexicon `spelling_variants`); as -> 에이에스: a Latin acronym
    Korean speech uses as a word, spelled in Hangul, a particle glued after it or not (lexicon `latin_words`). Longest first."""
    rules = []
    word_end = r"(?=[?.!,~]*(?:\s|$))"
    for section, before, after in (("dialect_endings", r"(?<=\S)", word_end), ("dialect_words", r"(?<!\S)", word_end),
                                   ("spelling_variants", r"(?<!\S)", ""), ("latin_words", r"(?<!\S)", r"(?![a-z])")):
        table = {k: v for k, v in registry.lexicon.get(section, {}).items() if k != "note"}
        if table:
            rules.append((re.compile(rf"{before}({_alternatives(table)}){after}"), table))
    return tuple(rules)


def _standard_endings(text: str, registry: Registry) -> str:
    for pattern, table in _dialect_rules_for(registry):
        text = pattern.sub(lambda m: table[m.group(1)], text)
    return text


@lru_cache(maxsize=8)
def _spoken_code_rules(registry: Registry) -> tuple[re.Pattern[str], ...]:
    """이쓰리 떴어 / 에러 이투: a code's letter and digit said by name (lexicon `spoken_codes`), as a word of its own,
    with an error word before it or a display word after it (a particle between or not)."""
    lex = registry.lexicon.get("spoken_codes")
    if not lex:
        return ()
    alt = _alternatives
    code = rf"(?<!\S)(?P<letter>{alt(lex['letters'])})(?P<digit>{alt(lex['digits'])})"
    particle = rf"(?:{alt(lex['particles'])})?"
    return (re.compile(rf"(?P<before>){code}(?={particle}\s?(?:{alt(lex['display_words'])}))"),
            re.compile(rf"(?P<before>(?<!\S)(?:{alt(lex['error_words'])}) ){code}(?={particle}(?:[\s?.!,]|$))"))


def _spoken_codes(text: str, registry: Registry) -> str:
    lex = registry.lexicon.get("spoken_codes") or {}
    for pattern in _spoken_code_rules(registry):
        text = pattern.sub(lambda m: m["before"] + lex["letters"][m["letter"]] + lex["digits"][m["digit"]], text)
    return text


@lru_cache(maxsize=8)
def _polite_finals(registry: Registry) -> frozenset[str]:
    """흉내 내요, 하루 종일: Kiwi tags a polite ending before a comma as a connective; -어요 never joins two clauses,
    so it is read as the sentence ending it is (lexicon polite_finals)."""
    return frozenset(registry.lexicon.get("polite_finals", {}).get("forms", []))


def _bids_before_a_mark(tokens: list, registry: Registry) -> set[int]:
    """켜 줘, 알았지?: the plain ending of a benefactive auxiliary right before a comma or a full stop (lexicon
    polite_finals plain_before_a_mark) closes its request; Kiwi tags it as a connective there. (Not on any verb:
    맨날 켜 놓고 자, ... tells what somebody does as often as it bids.)"""
    forms, bids = plain_endings(registry), patterns(registry).benefactive
    return {i for i in range(1, len(tokens) - 1) if tokens[i].tag == "EC" and tokens[i].form in forms
            and (tokens[i - 1].form, tokens[i - 1].tag) in bids and tokens[i - 1].tag == "VX"
            and tokens[i + 1].tag in ("SP", "SF")}


@lru_cache(maxsize=8)
def _spelled_tables(registry: Registry) -> tuple[dict, dict]:
    """(form, tag) -> the verb and ending it spells: before a predicate (lexicon spaced_particle_verbs: 가/JKS ->
    가/VV+아/EC) and as the turn's last word (lexicon spelled_final_verbs: 꺼/NNB -> 끄/VV+어/EF)."""
    def table(section: str) -> dict:
        return {tuple(k.split("/")): tuple(tuple(part.split("/")) for part in v.split("+"))
                for k, v in registry.lexicon.get(section, {}).items() if "/" in k}
    return table("spaced_particle_verbs"), table("spelled_final_verbs")


@lru_cache(maxsize=8)
def _places(registry: Registry) -> tuple[str, ...]:
    """What a spelled verb may follow: room names and the robot's own words (충전대 가 줘, 사생활 보호 꺼), never a
    person (거실에 엄마 가 있어 is where mother is; 엄마 꺼 is mother's)."""
    return tuple({name for name, _ in registry.room_names}
                 | {a.replace(" ", "") for c in registry.capabilities.capabilities for a in c.aliases})


@lru_cache(maxsize=8)
def _place_words(registry: Registry) -> frozenset[str]:
    return frozenset(_places(registry))


def _spelled_verbs(text: str, tokens: list, registry: Registry) -> list:
    """서재 가 있어 / 사생활 보호 꺼: Kiwi reads a one-syllable verb written as its own word after a noun as a particle
    or a bound noun; a particle never stands as a word of its own, so before a predicate it is the verb it spells, and
    so is 꺼 said last. The pre-tokenized spans make Kiwi analyse the sentence around the verb (가 있어: go and wait,
    있 an auxiliary). Only after a place or a word of the robot's own."""
    before_predicate, at_the_end = _spelled_tables(registry)
    spans = []
    for i, t in enumerate(tokens):
        end = t.start + t.len
        rest = [n for n in tokens[i + 1:] if not n.tag.startswith("S")]
        run = (before_predicate.get((t.form, t.tag)) if rest and rest[0].tag.startswith(("V", "E"))
               else at_the_end.get((t.form, t.tag)) if not rest else None)
        if run is None or i == 0 or not tokens[i - 1].tag.startswith("NN") or text[t.start - 1] != " " \
                or text[end:end + 1] not in (" ", "", "?", ".", "!", ",") \
                or not text[:t.start].replace(" ", "").endswith(_places(registry)):
            continue
        spans.append((t.start, end, [PretokenizedToken(form, tag, 0, t.len) for form, tag in run]))
    return spans


@lru_cache(maxsize=8)
def _glued_settings(registry: Registry) -> dict[str, tuple[str, str]]:
    """Every setting's name written together with one of its level words (풍량강, 풍량약): (name, level)."""
    out = {}
    for cap in registry.capabilities.capabilities:
        for alias in (a for a in cap.aliases if " " not in a):
            for level in (w for w in (cap.level_words or {}) if " " not in w):
                out.setdefault(alias + level, (alias, level))
    return out


def _spelled_apart(text: str, registry: Registry) -> str | None:
    """배 터 리 얼마나 남았어 -> 배터리 얼마나 남았어: recognition sometimes writes a word syllable by syllable; a run of
    one-syllable words that spells, whole and exactly, one of the robot's own words or a room is that word (a run
    that spells nothing, or only part of one, is left as said: the shards stay a fragment)."""
    words, out, i = text.split(" "), [], 0
    places = _place_words(registry)
    while i < len(words):
        j = i
        while j < len(words) and len(words[j]) == 1 and all_hangul(words[j]):
            j += 1
        if j - i >= 2 and "".join(words[i:j]) in places:
            out.append("".join(words[i:j]))
            i = j
            continue
        out.append(words[i])
        i += 1
    return " ".join(out) if len(out) < len(words) else None


def _spaced_levels(text: str, tokens: list, registry: Registry) -> str | None:
    """풍량강 으로 올리라 -> 풍량 강 으로 올리라: recognition writes a setting's name and its level as one word, which
    Kiwi keeps as one noun; the space it lost is put back."""
    glued = _glued_settings(registry)
    cuts = [t.start + len(glued[t.form][0]) for t in tokens if t.tag.startswith("NN") and t.form in glued]
    for at in reversed(cuts):
        text = text[:at] + " " + text[at:]
    return text if cuts else None


@lru_cache(maxsize=8)
def _closing_forms(registry: Registry) -> frozenset[str]:
    """오늘 날씨 좋다: Kiwi tags a declarative 다 said last with no mark after it as a connective; last in the turn it
    closes its sentence (lexicon closing_connectives; mid-turn, 먹다 말고, it is the connective)."""
    return frozenset(registry.lexicon.get("closing_connectives", {}).get("forms", []))


@lru_cache(maxsize=8)
def _joins(registry: Registry) -> dict[tuple[tuple[str, str], tuple[str, str]], tuple[str, str]]:
    pair = lambda x: tuple(x.split("/"))  # noqa: E731
    joins = registry.lexicon["clauses"]["joined_morphemes"]["joins"]
    return {(pair(a), pair(b)): pair(joined) for a, b, joined in joins}


def _joined_endings(morphemes: list[Morpheme], registry: Registry) -> list[Morpheme]:
    """떨어져도 / 갔: a word Kiwi reads in two pieces with nothing between (어/EC 도/JX; 어/EF and a dangling coda ᆻ)
    joined into the one morpheme it is (어도/EC; 었/EP, a past with no ending after it; lexicon
    clauses.joined_morphemes). A coda shares its syllable with the ending before it."""
    joins, out = _joins(registry), []
    for mo in morphemes:
        before = out[-1] if out else None
        joined = joins.get(((before.form, before.tag), (mo.form, mo.tag))) if before is not None else None
        if joined is not None and before.start <= mo.start <= before.start + before.length:
            end = max(before.start + before.length, mo.start + mo.length)
            out[-1] = before.model_copy(update={"form": joined[0], "tag": joined[1], "length": end - before.start})
        else:
            out.append(mo)
    return out


_FALSE_START_MAX = 2
"""A false start is at most this many syllables: the beginning of the next word, said and said again."""
_KEPT_STARTS = ("NP", "MAG", "IC")
"""Tags of a word that may begin the next word and still be a word of its own: 나 나가 (I), 안 안아 (a no), 아 아니 (a
filler before the no that takes a request back)."""


def _false_starts(text: str, tokens: list) -> str | None:
    """The text without words that only begin the word after them (나이트 모 모드, 주 주방 가서: a stutter), or None
    when it has none. A pronoun, an adverb (a negator among them) or an interjection is a word of its own."""
    words = text.split(" ")
    kept, start = [], 0
    for i, word in enumerate(words):
        bare, j = word.rstrip(","), i + 1
        while j < len(words) and words[j].rstrip(",") == bare:
            j += 1  # (배, 배, 배터리: the beginning said twice, each time cut off)
        nxt = words[j] if j < len(words) else ""
        # (청정 켜, 켜라고: a word closed by a comma is said whole unless it is said again, cut off again)
        said_whole = word != bare and j == i + 1 and not (i and words[i - 1].rstrip(",") == bare)
        restart = not said_whole and len(bare) <= _FALSE_START_MAX and all_hangul(bare) and len(nxt.rstrip("?.!,~")) > len(bare) \
            and nxt.startswith(bare) \
            and not any(start <= t.start < start + len(word) and t.tag.startswith(_KEPT_STARTS) for t in tokens)
        if not restart:
            kept.append(word)
        start += len(word) + 1
    return " ".join(kept) if len(kept) < len(words) else None


def normalized_text(turn_input: TurnInput, kiwi: Any, registry: Registry) -> NormalizedText:
    """Spacing, symbols and number words normalized; Kiwi morphemes with offsets."""
    original = turn_input.recognized_text
    truncated = len(original) > MAX_CHARS
    text = _clean(original[:MAX_CHARS])
    text = converter_for(registry).convert(text)
    text = _spoken_codes(_standard_endings(text, registry), registry)
    rejected = None
    if not text:
        rejected = "empty" if not original.strip() else "no_usable_text"
    elif not re.search(r"[\uac00-\ud7a3A-Za-z0-9]", text):
        rejected = "no_usable_text"
    finals = _polite_finals(registry)
    tokens = kiwi.tokenize(text) if text else []
    moved = afterthought_first(text, tokens, registry.lexicon.get("afterthoughts"), matchers_for(registry).alternatives[2])  # 빨리 와 거실로
    if moved is not None:
        text, tokens = moved, kiwi.tokenize(moved)
    repaired = self_repaired(text, tokens, registry)  # 주방 청정 아 아니 안방 -> 안방 청정
    if repaired is not None:
        text, tokens = repaired, kiwi.tokenize(repaired)
    restarted = _false_starts(text, tokens)  # 나이트 모 모드 켜 줘 -> 나이트 모드 켜 줘
    if restarted is not None:
        text, tokens = restarted, kiwi.tokenize(restarted)
    joined = _spelled_apart(text, registry)  # 배 터 리 -> 배터리 (the shards a run that spells nothing leaves stay)
    if joined is not None:
        text, tokens = joined, kiwi.tokenize(joined)
    spaced = _spaced_levels(text, tokens, registry)  # 풍량강 으로 -> 풍량 강 으로
    if spaced is not None:
        text, tokens = spaced, kiwi.tokenize(spaced)
    spelled = _spelled_verbs(text, tokens, registry)
    if spelled:
        tokens = kiwi.tokenize(text, pretokenized=spelled)
    last = max((i for i, t in enumerate(tokens) if not t.tag.startswith("S")), default=-1)
    closing = {last} if last >= 0 and tokens[last].form in _closing_forms(registry) else set()
    closing |= _bids_before_a_mark(tokens, registry)
    morphemes = [Morpheme(form=t.form, tag="EF" if t.tag == "EC" and (t.form in finals or i in closing) else t.tag,
                          start=t.start, length=t.len, unknown=bool(t.oov)) for i, t in enumerate(tokens)]
    morphemes = _joined_endings(morphemes, registry)
    for i in range(1, len(morphemes)):  # 으아아아암 / 아야: an ending Kiwi splits off an interjection is the sound
        before, mo = morphemes[i - 1], morphemes[i]
        if before.tag == "IC" and mo.tag.startswith("E") and mo.start <= before.start + before.length:
            morphemes[i] = mo.model_copy(update={"tag": "IC"})
    return NormalizedText(
        original=original,
        text=text,
        compact=text.replace(" ", ""),
        morphemes=morphemes,
        truncated=truncated,
        rejected_reason=rejected,
    )
