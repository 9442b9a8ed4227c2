"""Where clauses and words begin and end: clause spans on Korean connectives, a clause's morphemes with their
offsets in the compact text, and which of them belong to a registry word.

Mechanisms only: the connectives and endings come from the registry data through the matchers.
"""

from __future__ import annotations

import unicodedata

from registry.contracts import Morpheme, NormalizedText
from stages._addressee import called_whole
from stages._clauses import PREDICATE_TAGS
from stages._matchers import Matchers, compact
from stages.speech_patterns import key, leave_negators, run_at


CLOSING_MARKS = ("SF", "SP", "SE")
"""Kiwi's tags of a full stop, a question or exclamation mark, a comma and an ellipsis."""


def segment(nt: NormalizedText, m: Matchers, polar: frozenset[int] = frozenset()) -> list[tuple[int, int, str]]:
    """(start, end, connective) spans of the normalized text; no cut before the offsets in `polar` (polar_starts)."""
    morphs = nt.morphemes
    # 갔으면 좋겠어 / 해 주면 안 돼: a conditional ending before a wish's 좋다, or one that asks leave, is one clause
    p = m.speech
    keys = [key(mo) for mo in morphs]
    asking_leave = {i - 1 for i in leave_negators(keys, p)}
    cuts: list[tuple[int, str]] = []
    skip: dict[int, int] = {}  # a cut -> where the next clause starts (after a conjunction of alternatives)
    for i, mo in enumerate(morphs[:-1]):
        nxt = morphs[i + 1]
        end = mo.start + mo.length
        if (offered := _offers_alternatives(morphs, i, m)) is not None:
            cuts.append((mo.start, "?"))  # 거실 정도야 아님 집 전체야: two sentences asked, the word between them dropped
            skip[mo.start] = offered
        elif nxt.start in polar:
            continue  # 청정 켜져 있어 꺼져 있어: a sentence and its opposite are one question (polar_starts)
        elif _runs_on(morphs, i, m):
            cuts.append((end, "."))
        elif mo.tag == "EC" and mo.form in m.connective_endings and mo.form not in m.quotatives:
            wish = mo.form in m.conditional_endings and (key(nxt) in p.wish_good or i in asking_leave)
            adverb = any(run_at(keys, i + 1 - len(run), run) for run in p.autonomy)
            if nxt.tag not in m.no_split_before and not wish and not adverb:  # (알아서 올려 줘: an adverb, no clause)
                attached = nxt.tag.startswith("J") and nxt.start == end  # (자니까요, 하고는: the particle ends it)
                cuts.append((nxt.start + nxt.length if attached else end, mo.form))
        elif mo.tag.startswith("NN") and (mo.form in m.sequence_nouns or mo.form in m.before_nouns) and i > 0 and morphs[i - 1].tag in ("ETM", "ETN"):
            if nxt.tag.startswith("J"):
                end = nxt.start + nxt.length
            cuts.append((end, mo.form))
        elif _ends_a_sentence(morphs, i, m) or _copula_offered(morphs, i, m):
            cuts.append((end, "."))  # 티브이 꺼라 이제 자자: speech has no full stops; a sentence ending ends a sentence
        elif mo.tag in ("SP", "SF") and mo.form in m.split_punct:
            cuts.append((end, mo.form))
        elif mo.tag == "MAJ" and compact(mo.form) in m.conjunctions:
            cuts.append((mo.start, mo.form))
    spans, start = [], 0
    for end, form in cuts:
        if end > start:
            spans.append((start, end, form))
            start = skip.get(end, end)
    spans.append((start, len(nt.text), ""))
    return [(s, e, c) for s, e, c in spans if nt.text[s:e].strip(" ,.;")]


def _ends_a_sentence(morphs: list[Morpheme], i: int, m: Matchers) -> bool:
    """Whether morpheme i ends a sentence inside the turn: a final ending that speech does not run on from, or an
    imperative that Kiwi reads as a connective after a verb (돌려라 먼지 천지다), followed by a new word."""
    mo, nxt = morphs[i], morphs[i + 1]
    forms, tags = m.closing_after  # 작다 좀 크게 해 봐: on an adjective, -다 closes whether Kiwi tags it EF or EC
    closes = mo.form in forms and mo.tag in ("EF", "EC") and i > 0 and morphs[i - 1].tag in tags
    final = closes or (mo.tag in m.sentence_final_tags and mo.form not in m.continuing_finals) or (
        mo.tag in ("EF", "EC") and _calls_next(morphs, i + 1, m))  # 오셨다 | 얘들아 인사드려 (내가 할게 | 로봇아, -ᆯ게/EC)
    imperative = mo.tag == "EC" and mo.form in m.imperative_connectives and i > 0 and morphs[i - 1].tag in ("VV", "VX")
    return (final or imperative) and nxt.start > mo.start + mo.length and not nxt.tag.startswith(m.no_sentence_split_before)


def copula_tail(seq: list[tuple[str, str]], m: Matchers) -> tuple[list[tuple[str, str]], tuple[str, str]] | None:
    """(what comes before, the ending) of words closed by the copula's 야 (거실이야: 이/VCP 야/EF), or by the 야 / 이야
    Kiwi reads as a particle after a noun (강이야: 이야/JX), which is the same ending said; None for any other end."""
    if len(seq) >= 2 and seq[-1][1] == "EF" and seq[-2][1] == "VCP":
        return seq[:-2], seq[-1]
    if seq and seq[-1] in m.alternatives[2]:
        return seq[:-1], ("야", "EF")
    return (seq[:-1], seq[-1]) if seq and seq[-1][1] == "EF" else None


def _copula_offered(morphs: list[Morpheme], i: int, m: Matchers) -> bool:
    """바람 세기 강이야 약이야 / 서재야 작은방이야: a noun and the 야 Kiwi reads as a particle, then, alone to the end of the
    turn or a mark, another noun with the copula: two values offered (stages._turn_anchoring._paired_copulas)."""
    mo, nxt = morphs[i], morphs[i + 1]
    if (mo.form, mo.tag) not in m.alternatives[2] or i == 0 or not morphs[i - 1].tag.startswith("NN") \
            or nxt.start <= mo.start + mo.length:
        return False
    end = next((j for j in range(i + 1, len(morphs)) if morphs[j].tag in ("SF", "SP")), len(morphs))
    start = i + 1
    while end > start + 1 and morphs[end - 1].tag == "MAG":
        end -= 1  # (작은방이야 지금: an adverb said after)
    while start < end - 1 and morphs[start].tag == "MAG":
        start += 1  # (서재야 지금 작은방이야)
    tail = copula_tail([(x.form, x.tag) for x in morphs[start:end]], m)
    return tail is not None and tail[1] == ("야", "EF") and names_a_value(tail[0])


def names_a_value(words: list[tuple[str, str]]) -> bool:
    """One to three words naming a value offered (거실, 약, 작은방: 작/VA 은/ETM 방/NNG, a noun its modifier names)."""
    return 1 <= len(words) <= 3 and all(t.startswith(("NN", "VA", "ETM", "XSA")) for _, t in words) and words[-1][1].startswith("NN")


def _offers_alternatives(morphs: list[Morpheme], i: int, m: Matchers) -> int | None:
    """Where the next clause starts when a conjunction of alternatives (lexicon clauses.alternatives: 아니면, 아님, 혹은)
    is written alone at morpheme i right after a sentence's ending; None when there is none (거실 아니면 안방)."""
    conjunctions, after_tags, after_forms = m.alternatives
    if i == 0 or morphs[i].start <= morphs[i - 1].start + morphs[i - 1].length:
        return None
    before = morphs[i - 1]
    if before.tag not in after_tags and (before.form, before.tag) not in after_forms:
        return None
    for seq in conjunctions:
        run = morphs[i:i + len(seq)]
        if [(mo.form, mo.tag) for mo in run] == list(seq) and i + len(seq) < len(morphs):
            last = run[-1].start + run[-1].length
            return last if morphs[i + len(seq)].start > last else None
    return None


_STEM_TAGS = ("VV", "VA", "VCN", "XR")


def _nominal(morphs: list[Morpheme], j: int) -> bool:
    """A bound noun after a modifier ending (돌아가는 거야): it nominalizes the verb, which stays the predicate."""
    return morphs[j].tag == "NNB" and j > 0 and morphs[j - 1].tag == "ETM"


def _closes(mo: Morpheme, m: Matchers) -> bool:
    """An ending, or the 야 Kiwi reads as a particle (작은방이야), that may close a sentence."""
    return (mo.tag.startswith("E") and mo.tag != "ETM") or (mo.form, mo.tag) in m.alternatives[2]


def _stems(morphs: list[Morpheme]) -> list[str]:
    """The predicate stems of a span, in order: verbs, adjectives, 아니, a root before -하 (조용하다), and a noun the
    copula or a verb suffix makes a predicate (충전 중이야, 충전되고)."""
    out = []
    for j, mo in enumerate(morphs):
        nxt = morphs[j + 1].tag if j + 1 < len(morphs) else ""
        if mo.tag in _STEM_TAGS or (mo.tag.startswith("NN") and nxt in ("VCP", "XSV", "XSA") and not _nominal(morphs, j)):
            out.append(mo.form)
    return out


def polar_pair(before: list[Morpheme], after: list[Morpheme], m: Matchers) -> bool:
    """Whether `after` says only the opposite of `before`'s last predicate (켜져 있어 | 꺼져 있어), a denial (충전
    중이야 | 아니야) or that predicate negated (돌아가 | 안 돌아가): a yes-or-no asked as two alternatives (lexicon
    clauses.alternatives.polar). `after` names nothing (no noun) and `before` ends in an ending."""
    words = [mo for mo in after if not mo.tag.startswith("S")]
    said = [mo for mo in before if not mo.tag.startswith("S")]
    if not words or not said or not _closes(said[-1], m) or any(
            mo.tag.startswith(("NN", "NP", "NR", "SL", "SN")) and not _nominal(words, j) for j, mo in enumerate(words)):
        return False
    stems, mine = _stems(said), _stems(words)
    if stems and (words[0].form, words[0].tag) in m.polar_denials and len(words) <= 3 \
            and all(mo.tag in ("VCP", "JX") or mo.tag.startswith("E") for mo in words[1:]):
        return True  # 충전 다 됐어 아직이야: not yet (and only the copula), the other answer
    if not stems or len(mine) != 1:
        return False
    first = (words[0].form, words[0].tag)
    if words[0].tag not in _STEM_TAGS and first not in m.polar_negators:
        return False  # (켜져 | 있어: the auxiliary ends the sentence before it)
    if (mine[0], words[0].tag) in m.polar_denials and len(words) <= 3:
        return True
    last = max(j for j, mo in enumerate(said) if mo.form == stems[-1])
    if any(mo.tag == "VX" for mo in said[last:]) and not any(mo.tag == "VX" for mo in words):
        return False  # 켜져 있어 | 꺼: a bare command after a state, not its alternative
    negated = first in m.polar_negators and len(words) > 1
    return (negated and mine[0] == stems[-1]) or (not negated and (stems[-1], mine[0]) in m.polar_opposites)


def _polar_at(morphs: list[Morpheme], i: int, m: Matchers) -> bool:
    """Whether the ending at morpheme i closes a sentence whose polar alternative (polar_pair) follows, alone to the end
    of the turn or a mark, in the next written words: no clause is cut there."""
    mo, nxt = morphs[i], morphs[i + 1]
    if not _closes(mo, m) or (nxt.start <= mo.start + mo.length and nxt.tag not in _STEM_TAGS):
        return False  # (a stem right after an ending starts a new word even unspaced: 켜져있어꺼져있어)
    end = next((j for j in range(i + 1, len(morphs)) if morphs[j].tag in ("SF", "SP")), len(morphs))
    start = max((j + 1 for j in range(i) if morphs[j].tag in ("SF", "SP")), default=0)
    return polar_pair(morphs[start:i + 1], morphs[i + 1:end], m)


def polar_starts(morphs: list[Morpheme], m: Matchers) -> frozenset[int]:
    """The offsets where the polar alternative of a sentence (_polar_at) begins: one question offered as two, read
    once per turn for the segmentation and the clauses both."""
    return frozenset(morphs[i + 1].start for i in range(len(morphs) - 1) if _polar_at(morphs, i, m))


def _calls_next(morphs: list[Morpheme], j: int, m: Matchers) -> bool:
    """Whether the written word starting at morpheme j ends in a vocative particle (얘들아, 민수야) or is the robot's
    noun with the vocative written on to it (내가 할게 로봇아 ...: Kiwi reads 로봇아/NNG)."""
    word = [morphs[j]]
    while j + len(word) < len(morphs) and morphs[j + len(word)].start == word[-1].start + word[-1].length:
        word.append(morphs[j + len(word)])
    return word[-1].tag == "JKV" or called_whole("".join(mo.form for mo in word).lower(), m.speech)


def _runs_on(morphs: list[Morpheme], i: int, m: Matchers) -> bool:
    """A plain imperative run on into a reason (볼륨 좀 줄여 애기 잔다): -어 on a verb, then a word that opens a new
    clause (lexicon clauses.run_on_imperatives), not a verb it joins (찍어 보내)."""
    endings, after, before = m.run_on_imperatives
    mo, nxt = morphs[i], morphs[i + 1]
    if nxt.tag == "SP" and i + 2 < len(morphs):
        nxt = morphs[i + 2]  # 볼륨 좀 올려 줘, 잘 안 들려: a comma before the reason (티비 켜 봐, 9 시 뉴스 ...: a number too)
        before = before | m.run_on_after_a_comma
    if not (mo.tag == "EC" and mo.form in endings and i > 0 and morphs[i - 1].tag in after and nxt.tag in before
            and nxt.start > mo.start + mo.length):
        return False
    # the reason is said, not asked (너 공부방 가 공부 안 하고 뭐 하노?: one question, not a command and a reason)
    end = next((j for j in range(i + 1, len(morphs)) if morphs[j].tag in m.sentence_final_tags), None)
    if end is None:  # 카톡 보내 줘, 퇴근길에 우유 좀 부탁한다고: the words of a message, quoted to the end
        last = next((x for x in reversed(morphs) if not x.tag.startswith("S")), None)
        return last is not None and last.tag == "EC" and last.form.endswith(tuple(m.quotatives))
    asked = end is not None and ((morphs[end].form, morphs[end].tag) in m.speech.question_end or
                                 any(x.form == "?" for x in morphs[end + 1:end + 2]))
    return not asked


def has_tags(nt: NormalizedText, start: int, end: int, tags: set[str]) -> bool:
    return any(start <= mo.start < end and mo.tag in tags for mo in nt.morphemes)


def _ends_in_copula_particle(nt: NormalizedText, start: int, end: int, m: Matchers) -> bool:
    """강이야 (이야/JX): the copula's ending Kiwi reads as a particle closes a sentence as a predicate does."""
    last = [mo for mo in nt.morphemes if start <= mo.start < end and not mo.tag.startswith("S")][-1:]
    return bool(last) and (last[0].form, last[0].tag) in m.alternatives[2]


def merge_shapeless(nt: NormalizedText, spans: list[tuple[int, int, str]], m: Matchers) -> list[tuple[int, int, str]]:
    """A punctuation-cut piece without a predicate (a time, an "응") belongs to its neighbour."""
    merged: list[tuple[int, int, str]] = []
    for span in spans:
        # "청정하고 나서": an auxiliary connector piece belongs to the clause before it
        if merged and compact(nt.text[span[0]:span[1]]).strip(",.;") in m.connector_fragments:
            merged[-1] = (merged[-1][0], span[1], span[2])
            continue
        if merged:
            p_start, p_end, p_conn = merged[-1]
            # (not across a conjunction of alternatives, which segment leaves out: 거실 정도야 아님 ...)
            shapeless = p_conn in m.split_punct and not has_tags(nt, p_start, p_end, PREDICATE_TAGS) and not nt.text[p_end:span[0]].strip(" ,.;?!") \
                and not _ends_in_copula_particle(nt, p_start, p_end, m) and not broken_off(nt, (p_start, p_end), span)
            if shapeless or compact(nt.text[p_start:p_end]).strip(",.;") in m.acknowledgements | m.fillers:
                merged[-1] = (p_start, span[1], span[2])
                continue
        merged.append(span)
    return merged


def broken_off(nt: NormalizedText, piece: tuple[int, int], span: tuple[int, int, str]) -> bool:
    """청정을 그… 아 졸려 / 충전대로… 아 전화 왔다: a piece the speaker trailed off (an ellipsis after it as said) and a
    sentence opening on an interjection after it: the speaker broke off, the piece is no argument of what follows."""
    first = next((mo for mo in nt.morphemes if span[0] <= mo.start < span[1] and not mo.tag.startswith("S")), None)
    if first is None or first.tag != "IC":
        return False  # (the whole original is normalized only for a sentence that opens on an interjection)
    return _ellipsis_after(nt, piece[0], piece[1])


def _ellipsis_after(nt: NormalizedText, start: int, end: int) -> bool:
    """Whether the speaker's own text has an ellipsis right after the words of text[start:end] (normalization writes
    "…" as a full stop, so the original as said is looked at)."""
    return compact(nt.text[start:end]).rstrip(",.;") + ".." in compact(unicodedata.normalize("NFKC", nt.original))


def halts_within(nt: NormalizedText, start: int, end: int) -> bool:
    """필터가 어… 뭐라 했더라 / 카메라 그… 사진 아니고… / 충전대 어 거기… 됐다: a clause that halts at an ellipsis as said,
    after a sound of hesitation past its first word or on a determiner with no noun after it, and goes on after it:
    the speaker lost the word and said something else."""
    said = [mo for mo in nt.morphemes if start <= mo.start < end and not mo.tag.startswith("S")]
    hesitated = False
    for k in range(1, len(said) - 1):
        hesitated = hesitated or said[k].tag == "IC"
        if (hesitated or said[k].tag == "MM") and _ellipsis_after(nt, start, said[k].start + said[k].length):
            return True
    return False


def without_trailing_hesitation(nt: NormalizedText, spans: list[tuple[int, int, str]], m: Matchers) -> list[tuple[int, int, str]]:
    """볼륨 3으로 해 줘 어 / 지금 위치 어디야 어 어: interjections of hesitation (lexicon fragments.fillers) after a
    sentence closed by its final ending are a sound made, not a clause: they leave the sentence whole. After a clause
    left open (작은방 가서 청정 음) they still trail it off."""
    while len(spans) > 1:
        start, end, _ = spans[-1]
        tail = [mo for mo in nt.morphemes if start <= mo.start < end and not mo.tag.startswith("S")]
        before = [mo for mo in nt.morphemes if spans[-2][0] <= mo.start < spans[-2][1] and not mo.tag.startswith("S")]
        if not tail or not before or before[-1].tag != "EF" or not all(mo.tag == "IC" and mo.form in m.fillers for mo in tail):
            break
        spans = spans[:-1]
    return spans


def clause_morphemes(nt: NormalizedText, start: int, end: int) -> list[Morpheme]:
    """The clause's morphemes; Kiwi gives a restored morpheme (하 of 찍으래) no length at the clause's end. The marks
    after its last word are not among them (확인해. reads as 확인해; "?" stays in the clause's text)."""
    morphs = [mo for mo in nt.morphemes if start <= mo.start < end or (mo.length == 0 and mo.start == end)]
    while len(morphs) > 1 and morphs[-1].tag in CLOSING_MARKS:
        morphs.pop()
    return morphs


def compact_positions(nt: NormalizedText, start: int, end: int, m: Matchers) -> dict[int, int]:
    """Text offset -> offset in the clause's compact text (spaces and ignorable words removed, as `analyse` builds it)."""
    raw = nt.text[start:end]
    at = start + len(raw) - len(raw.lstrip(" ,.;"))
    positions: dict[int, int] = {}
    cc = 0
    for word in raw.strip(" ,.;").split(" "):
        if word and word not in m.ignorable_words:
            for k in range(len(word)):
                positions[at + k] = cc + k
            cc += len(word)
        at += len(word) + 1
    return positions


def noun_spans(morphs: list[Morpheme], offsets: list[int]) -> list[tuple[int, int]]:
    """Compact spans of the clause's nouns, each with the derivational suffixes that make one word of it (복귀+작)."""
    spans: list[tuple[int, int]] = []
    for mo, at in zip(morphs, offsets):
        if at < 0:
            continue
        if mo.tag == "XSN" and spans and spans[-1][1] == at:
            spans[-1] = (spans[-1][0], at + mo.length)
        elif mo.tag.startswith("NN"):
            spans.append((at, at + mo.length))
    return spans


def splits_a_noun(start: int, end: int, nouns: list[tuple[int, int]]) -> bool:
    """Whether a match begins or ends strictly inside one noun morpheme (its compact span)."""
    return any(s < start < e or s < end < e for s, e in nouns)


def compound_tail(end: int, morphs: list[Morpheme], offsets: list[int], nt: NormalizedText, in_word: list[bool]) -> bool:
    """Whether a one-syllable noun (not itself a registry word) follows a match inside the same written word."""
    for mo, at, inside in zip(morphs, offsets, in_word):
        if at == end:
            return mo.tag == "NNG" and mo.length == 1 and mo.start > 0 and not nt.text[mo.start - 1].isspace() and not inside
    return False


def noun_and_particle(start: int, end: int, morphs: list[Morpheme], offsets: list[int]) -> bool:
    """Whether a cue match is a noun plus the particle after it (위로 of 2단 위로: 위/NNG 로/JKB, not 위로/NNG)."""
    for i in range(1, len(morphs)):
        at = offsets[i]
        if (at > start and at + morphs[i].length == end and morphs[i].tag.startswith("J")
                and morphs[i - 1].tag.startswith("NN") and offsets[i - 1] >= start):
            return True
    return False


def registry_word_masks(nt: NormalizedText, morphs: list[Morpheme], offsets: list[int], spans: list[tuple[int, int]],
                         m: Matchers) -> tuple[list[bool], list[bool]]:
    """(inside a registry word, after one in the same written word) for each morpheme of the clause."""
    inside = [at >= 0 and any(s <= at < e for s, e in spans) for at in offsets]  # starts inside (청/NNG 정하/VV of 청정해)
    heads: dict[int, int] = {}  # written word start -> end of the registry word it begins with (0: none)
    after = []
    for mo in morphs:
        begin = nt.text.rfind(" ", 0, mo.start) + 1
        if begin not in heads:
            stop = nt.text.find(" ", begin)
            head = m.room_re.match(nt.text, begin, stop if stop >= 0 else len(nt.text)) or m.anchor_re.match(
                nt.text, begin, stop if stop >= 0 else len(nt.text))
            heads[begin] = head.end() - begin if head else 0
        after.append(heads[begin] > 0 and mo.start >= begin + heads[begin])
    return inside, after
