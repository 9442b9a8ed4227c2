"""How fragmentary a clause looks (the preclassifier's looks_fragmentary axis and the whole-sentence and title axes
that lower it), and the accumulator a clause's axes are lit in."""

from __future__ import annotations

import re

from itertools import groupby

from registry.contracts import EvidenceAxis
from registry.hangul import all_hangul, jamo
from stages._clauses import ENDS_SENTENCE, ClauseAnalysis
from stages._matchers import Matchers, compact
from stages.speech_patterns import closed_syllable

_WHOLE_MOODS = ("statement", "exclamation", "wish", "question", "knowledge_question", "state_question", "suggestion")
TARGET_TAGS = ("NNG", "NNP", "NR", "SN", "SL", "XR")
"""What a request may act on: a noun, a number, a foreign word (not a pronoun: 뭐 좀 해 봐 names nothing)."""


class Axes:
    """Evidence axes being lit for one clause: the strongest strength per axis and every signal that lit it."""

    def __init__(self) -> None:
        self.lit_axes: dict[str, tuple[float, list[str]]] = {}

    def __contains__(self, name: str) -> bool:
        return name in self.lit_axes

    def __call__(self, name: str, strength: float, *signals: str) -> None:
        if strength <= 0:
            return
        old = self.lit_axes.get(name, (0.0, []))
        self.lit_axes[name] = (max(old[0], min(1.0, strength)), old[1] + [s for s in signals if s])

    def drop(self, name: str) -> None:
        self.lit_axes.pop(name, None)

    def axes(self) -> dict[str, EvidenceAxis]:
        return {name: EvidenceAxis(strength=round(s, 3), signals=sig) for name, (s, sig) in self.lit_axes.items()}


def _complete(c: ClauseAnalysis) -> bool:
    """나 이제 잘게 / 밥은 묵었나: Kiwi tags some sentence endings EC; the speech act knows the sentence is whole."""
    return c.has_final_ending or (c.act is not None and c.has_predicate and c.act.mood in _WHOLE_MOODS
                                  and "joined_predicate" not in c.act.signals and c.connective in ENDS_SENTENCE)


_SOUND = re.compile(r"([\uac00-\ud7a3])\1\1")
"""One syllable three times in a row (빠빠빠, 웅웅웅, 우우우웅): a sound made, not a word or a name."""
SHARD_RUN = 3
"""One-syllable words in a row that read as a word spelled out by syllables (청 정 해 줘); two are plain Korean
(너도 잠 자?, 꿈 같은 거 꿔?)."""


_LONE_JAMO = re.compile(r"[\u1100-\u11ff\u3131-\u318e]")


def _echoed_sounds(c: ClauseAnalysis, m: Matchers) -> bool:
    """치지직 치직 / 크흠 큼 / 딴 따단 딴 / 옴 옴 / 오 오 오: short words that all open on the same sound (the first
    syllable's consonant and vowel), either all interjections or one of them no word Kiwi knows (it splits off a
    lone consonant or guesses): a noise or a hum written down, not talk (잘 자, 좋아 좋아, 고 고마워 are words)."""
    words = [(w.start() + c.start, w.end() + c.start, w.group().strip("?.!,~…")) for w in re.finditer(r"\S+", c.text)]
    if len(words) < 2 or not all(all_hangul(w) and len(w) <= 3 for _, _, w in words) or any(w in m.acknowledgements for _, _, w in words):
        return False
    if len({jamo(w[0])[:2] for _, _, w in words}) > 1:
        return False
    per_word = [[mo for mo in c.morphemes if a <= mo.start < b] for a, b, _ in words]
    odd = any(mo.tag.startswith("Z") or mo.unknown or (len(mo.form) == 1 and _LONE_JAMO.fullmatch(mo.form)) for ms in per_word for mo in ms)
    return odd or all(ms and all(mo.tag == "IC" for mo in ms) for ms in per_word)


def _one_character_words(words: list[str]) -> list[bool]:
    """Which words are one character long (청 정 해 줘); a number alone is a word (하나 해 줘, normalized 1 해 줘), numbers
    in a row are a count said (하나 둘 셋 넷) and count as shards."""
    bare = [w.strip("?.!,") for w in words]
    return [len(x) == 1 and not (x.isdigit() and not any(y.isdigit() for y in bare[max(i - 1, 0):i] + bare[i + 1:i + 2]))
            for i, x in enumerate(bare)]


def _recalling(c: ClauseAnalysis, p) -> bool:
    """뭐였더라 / 이거 어떻게 하는 거였더라 / 그 뭐였지: a question word, a copula (or 그렇다) right before a recall
    ending (speech_acts recall_endings), and nothing named: the speaker searches for a word and has not found it."""
    ms = [(mo.form, mo.tag) for mo in c.morphemes if not mo.tag.startswith("S")]
    ends = len(ms) >= 2 and ms[-1] in p.recall_end and any(k in p.recall_pred for k in ms[-3:-1])
    return ends and any(k in p.question_words for k in ms) and not any(t in TARGET_TAGS for _, t in ms)


def _manner_before(morphs: list, i: int, m: Matchers) -> bool:
    """뚝 해라 / 조용히 해: an adverb right before the verb is what to do, unless it softens, hurries or points (똑같이)."""
    while i > 0 and morphs[i - 1].form in m.ignorable_words:  # (조용히 좀 해 봐: 좀 softens, 조용히 says how)
        i -= 1
    return i > 0 and morphs[i - 1].tag == "MAG" and morphs[i - 1].form not in m.not_manners


def _targetless(c: ClauseAnalysis, m: Matchers) -> bool:
    """이거 켜 줘 / 켜 줘 / 그렇게 좀 해 주세요: a device verb asked with no noun, number or room to act on (아까처럼 해 줘:
    compared; 1 번만 해 봐: counted), and no manner that is the act itself (조용히 해); a voice stop (멈춰) is whole."""
    named = any(t in TARGET_TAGS and (nxt is None or f"{nxt.form}/{nxt.tag}" not in m.not_targets_after)
                for t, nxt in zip(c.morpheme_tags, [*c.morphemes[1:], None]))
    return not named and not c.rooms and any(
        (mo.form, mo.tag) in m.device_verbs and (mo.form, mo.tag) not in m.speech.stop_words
        and not _manner_before(c.morphemes, i, m) for i, mo in enumerate(c.morphemes))


def fragment_axes(c: ClauseAnalysis, lit: Axes, m: Matchers) -> None:
    """How fragmentary a clause with no scope at all looks, and whether it reads as a title or a whole sentence."""
    complete = _complete(c)
    fragment, signals = 0.45, ["no_anchor"]
    if not c.has_predicate:
        fragment += 0.3
        signals.append("no_predicate")
    elif not complete and c.index == 0 and not c.connective:
        fragment += 0.25  # (a clause its connective ending joins to the next one is not left open)
        signals.append("no_final_ending")
    foreign = sum(1 for t in c.morpheme_tags if t in ("SL", "SH", "UN", "SW", "SO"))
    words = c.text.split()
    # I don't get it / so embarrassing: a sentence said in English inside Korean talk is another language, not breakage
    english = len(words) >= 2 and all(t in ("SL", "SF", "SP", "SE", "SS", "SO") for t in c.morpheme_tags) and "SL" in c.morpheme_tags
    if foreign and foreign >= len(c.morpheme_tags) / 2 and not english:
        fragment += 0.25
        signals.append("foreign_or_unknown")
    if len(c.compact) <= 2:
        fragment += 0.2
        signals.append("very_short")
    single = _one_character_words(words)
    run = max((len(list(g)) for one, g in groupby(single) if one), default=0)
    said_out = bool(c.capabilities) and said_to_its_end(c, c.act)  # (청 정 해 줘: a capability word spaced wrong)
    if len(words) >= 3 and sum(single) >= 0.6 * len(words) and run >= SHARD_RUN and not said_out:
        fragment += 0.4
        signals.append("syllable_shards")
    if c.compact.strip("?.!,") in (m.fillers | m.acknowledgements):
        fragment = 1.0
        signals.append("filler_only")
    if sounds := _echoed_sounds(c, m):
        fragment, signals = max(fragment, 0.9), [*signals, "echoed_sounds"]
    if c.bound_forms_only:
        fragment = 1.0
        signals.append("bound_forms_only")
        lit("is_sentence_tail", 1.0, c.compact)  # 는 / 더라고요: a fragment by mechanism, not by wording
    # 해리포터 / 손흥민: a name Kiwi knows; 브 르 브므 / 치익 치직: a guess for a word it has never seen names nothing; 민지야 calls
    # (나이트 모드: a name the registry gives one of the robot's own capabilities is no title of the world's)
    proper = (not c.has_predicate and "NNP" in c.morpheme_tags and not {"JKV", "SW"} & set(c.morpheme_tags)
              and not any(mo.unknown for mo in c.morphemes) and not c.capabilities and not c.mentions  # (ㅁㄴ 어ㅓ 이: keys)
              and not _SOUND.search(c.compact))  # (빠빠빠 빠방, 웅웅웅: a syllable said three times over is a sound, no name)
    # "드래곤 길들이기": a noun phrase closed by a nominalizer, with no sentence ending, reads as a name
    nominalized = (not c.has_final_ending and c.morpheme_tags[-1:] == ["ETN"]
                   and sum(1 for t in c.morpheme_tags if t.startswith("NN")) >= 1)
    if (proper or nominalized) and len(c.compact) >= 3:
        lit("looks_title_like", 0.8, "proper_noun_phrase" if proper else "nominalized_phrase")
        fragment -= 0.2
    # 이거 켜 줘 / 켜 줘 / 그렇게 좀 해 주세요: "this", or nothing named, as what a request acts on asks back
    asks = c.act is not None and c.act.asks_for_an_act
    targetless = asks and _targetless(c, m)
    recalling = _recalling(c, m.speech)  # 뭐였더라: a word searched for and not found is as broken as a cut-off one
    vague_request = asks and bool(c.cues.get("vague")) or targetless or recalling
    if targetless or recalling:
        signals.append("no_target" if targetless else "recalling")
        fragment = max(fragment, 0.85)  # (똑같이 해 / 더 해 봐: no target is as broken as a word searched for)
    mostly_korean = foreign < len(c.morpheme_tags) / 3  # (my mom은 맨날 켜 놓고 자: English words in a Korean sentence)
    if c.has_predicate and complete and mostly_korean and "syllable_shards" not in signals and not vague_request and not sounds:
        lit("has_coherent_conversation_purpose", 0.8, "complete_sentence")
        fragment = min(fragment, 0.3)
    if english:
        lit("has_coherent_conversation_purpose", 0.8, "another_language")
        fragment = min(fragment, 0.3)
    if c.act is not None and "interjections" in c.act.signals and not sounds:
        lit("has_coherent_conversation_purpose", 0.8, "interjections")  # 헐 대박: a whole exclamation
        fragment = min(fragment, 0.3)
    if c.times.strength and not c.has_predicate:
        signals.append("time_fragment")
    lit("looks_fragmentary", fragment, *signals)


def spelled_by_syllables(hit, c: ClauseAnalysis, act, m: Matchers) -> bool:
    """안 방 공 기: the capability word is only there once the text is joined, each of its syllables a word of its
    own. Joining words repairs spacing (공기청정 / 공기 청정); it does not make words out of broken recognition."""
    start, end, covered = 0, hit.position + len(compact(hit.surface)), []
    for word in c.text.split():
        if word in m.ignorable_words:
            continue
        size = len(compact(word))
        if start < end and start + size > hit.position:
            covered.append(word.strip("?.!,~"))
        start += size
    if len(covered) < 2 or not all(len(w) == 1 for w in covered):
        return False
    # (청 정 해 줘: a request said to its end after the word is a slip of spacing, not broken recognition)
    return not (said_to_its_end(c, act) and any(mo.tag in ("VV", "VX", "XSV") and at >= end
                                               for mo, at in zip(c.morphemes, c.compact_offsets)))


def said_to_its_end(c: ClauseAnalysis, act) -> bool:
    """The clause is a request closed by its final ending."""
    return act is not None and act.mood == "request" and c.has_final_ending


def cut_off_word(c: ClauseAnalysis, m: Matchers) -> str | None:
    """The turn's last word when it is one closed syllable that only begins a registry word (공 of 공기, 청 of
    청정, 습 of 습도), or any one syllable after a word that with it begins a registry word of more (나이트 모, 공기 상):
    a piece the recognizer heard before the speaker stopped."""
    words, said = c.text.split(), [mo.tag for mo in c.morphemes if not mo.tag.startswith("S")]  # (거실로 가서 공.)
    if not words or not said:
        return None
    last = compact(words[-1]).strip("?.!,~")
    if len(words) >= 2 and len(last) == 1 and compact(words[-2]) + last in m.word_then_syllable \
            and not said[-1].startswith(("V", "E", "X")):
        return last  # (청정 해: a verb said whole is no piece)
    # an open syllable may be a verb that lost only its ending in writing (가, 와, 줘): only a closed one is cut
    if (len(last) != 1 or not closed_syllable(last) or last not in m.cut_prefixes or last in m.filler_words or last in m.fillers
            or last in m.ignorable_words or last in m.acknowledgements):
        return None
    return last if said[-1] in ("NNG", "NNP", "NR", "XSN", "UN") else None
