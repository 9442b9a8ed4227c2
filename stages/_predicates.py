"""Which word is the predicate of a clause's act: the last main predicate, the one a capability word belongs to, a
verbal noun asked for with 부탁 or a formal wish (보고 바랍니다), or the noun a verb of doing takes (조절도 해).

Pure functions of a clause and the compiled speech-act patterns (stages.speech_patterns); every word is data.
"""

from __future__ import annotations

from stages._clauses import VERB_TAGS, ClauseAnalysis
from stages.speech_patterns import Patterns, asks_leave, confirms_at, key, run_at, wish_good_at


def formal_request_at(ms: list[tuple[str, str]], i: int, p: "Patterns") -> bool:
    """Whether morpheme i is a wish verb in a formal ending right after a bare noun (보고 바랍니다, 이동 바람): it asks
    for the act the noun names, as 부탁 does (speech_acts wish.formal_request_endings)."""
    return ms[i] in p.wish_verb and i > 0 and ms[i - 1][1] == "NNG" and i + 1 < len(ms) and ms[i + 1] in p.formal_request_end


def final_predicate(c: ClauseAnalysis, p: Patterns) -> tuple[int, tuple[str, str]] | None:
    """(index, lemma) of the clause's last main predicate: not an auxiliary or a benefactive; a 하 suffix stands
    for the noun before it (청소/NNG of 청소해). None when the clause has no predicate."""
    ms = [key(mo) for mo in c.morphemes]
    leave = asks_leave(ms, p)
    able = next((i for i in range(len(ms) - 2) if ms[i] in p.able_mod and ms[i + 1] in p.able_noun
                 and ms[i + 2] in p.able_verb), None)  # 닫아 줄 수 있어?: the act asked for, not 있다
    end = min(x for x in (leave, able, len(ms)) if x is not None)
    at = next((i for i in range(end - 1, -1, -1)
               if ms[i][1] in VERB_TAGS and ms[i][1] != "VX" and ms[i] not in p.benefactive
               and not wish_good_at(ms, i, p) and not (ms[i][1] == "VV" and i > 0 and ms[i - 1] in p.request_nouns)
               and not formal_request_at(ms, i, p)), None)
    # (시켜 주면 안 돼 / 시켜 주면 좋겠어 / 확인 부탁드려요: the act asked for is the predicate, not 되다, the wish's 좋다
    # or the asking itself)
    if at is None:
        return None
    lemma = ms[at - 1] if ms[at][1] in ("XSV", "XSA") and at > 0 else ms[at]
    return at, (lemma[0], lemma[1].split("-")[0])  # 닫/VV-R: an irregular verb is its lemma's VV or VA


def _done_noun(morphs: list, c: ClauseAnalysis, i: int, end: int, p: Patterns) -> int | None:
    """The index of the noun a verb of doing at i takes as its object, marked by 을/를 or a particle like 도 (조절도 해),
    when that noun is said after the capability word and is no registry word (청정을 해: the word itself is the act)."""
    if key(morphs[i]) not in p.doing:
        return None
    j = i - 1
    while j >= 0 and morphs[j].tag == "MAG":
        j -= 1
    if j < 1 or key(morphs[j]) not in p.doing_objects:
        return None  # (the object's particle or 도 said: not 삼단으로 해, a level, nor 잠깐만 해 줘, how long)
    j -= 1
    if morphs[j].tag == "NNG" and c.compact_offsets[j] >= end and not c.in_registry_word[j]:
        return j
    return None


def governing_predicate(hit, c: ClauseAnalysis, p: Patterns) -> tuple[int, tuple[str, str]] | None:
    """The predicate a capability word belongs to: Korean is head-final, so the first predicate after it
    (a verbal noun + 하 counts as its noun). Predicates before it belong to other phrases (냄새 나는데 청정해 줘)."""
    morphs, offsets = c.morphemes, c.compact_offsets
    ms = [key(mo) for mo in morphs]
    end = hit.position + len(hit.surface)
    for i, mo in enumerate(morphs[:c.polar_at] if c.polar_at >= 0 else morphs):  # (not the alternative's: 꺼져 있어)
        if offsets[i] < end or c.in_registry_word[i] or (c.after_registry_word[i] and not (
                mo.tag == "NNG" and i + 1 < len(morphs) and morphs[i + 1].tag in ("XSV", "XSA"))):
            continue  # before the word, or part of a registry word (청/NNG 정하/VV for 청정하, 크/VA ᆫ/ETM 방 for 큰방;
            # not a noun with its own 하 written on to it: 배터리교체하려고 has the verbal noun 교체)
        nxt = morphs[i + 1] if i + 1 < len(morphs) else None
        if mo.tag.startswith(("VA", "VV")) and nxt is not None and key(nxt) in p.manner_end and (
                mo.tag.startswith("VA") or any(m.tag.startswith(("VV", "VA")) for m in morphs[i + 2:])):
            continue  # 세게, 빵빵하게, 예쁘게 나오게 찍어: manner or the result aimed at, not the predicate
        if mo.tag.startswith("VX") or confirms_at(ms, i, p):
            continue  # auxiliaries (켜져 있어, 해 줘) carry no frame of their own, nor does 맞 of ... 는 거 맞아?
        if key(mo) in p.request_nouns or formal_request_at(ms, i, p):
            return None  # 공기 확인 부탁해 / 이동 바랍니다: the asking itself has no frame; the words before it name the act
        if wish_good_at(ms, i, p):
            continue  # 가 주면 좋겠어: the wish's 좋다 carries no frame; the act wished for does
        if (done := _done_noun(morphs, c, i, end, p)) is not None:
            return done, (morphs[done].form, morphs[done].tag)  # 습도 조절도 해?: the act is 조절, not 하
        if mo.tag in VERB_TAGS or mo.tag == "XR":
            return i, (mo.form, mo.tag.split("-")[0])
        if mo.tag == "NNG" and nxt is not None and nxt.tag in ("XSV", "XSA"):
            return i, (mo.form, mo.tag)  # a verbal noun: 확인하다, 측정하다
        if mo.tag == "NNG" and (key(next((m for m in morphs[i + 1:] if m.tag != "MAG"), mo)) in p.request_nouns
                                or i + 1 < len(ms) and formal_request_at(ms, i + 1, p)):
            return i, (mo.form, mo.tag)  # a verbal noun asked for: 확인 (좀) 부탁드려요, 보고 바랍니다
    return None


def subordinate_at(ms: list[tuple[str, str]], i: int, p: Patterns) -> bool:
    """The word at i ends a predicate joined (speech_acts joining_endings) under a later main verb (이름 불러 주면서
    인사하게 할 수 있어?: its 주 bids nothing, the question is the last verb's)."""
    return i + 1 < len(ms) and ms[i + 1] in p.joining and any(k[1] in ("VV", "VA", "XSV", "XSA") for k in ms[i + 2:])


def planned_by_the_speaker(hit, c: ClauseAnalysis, p: Patterns) -> bool:
    """산책 가려는데 비 와? / 나가려고 하니까 우산 어딨어: the capability word's verb ends in what the speaker means to do
    and goes on to what is asked (speech_acts plan_endings): the speaker's own going is the background, not an act
    asked of the robot."""
    end = hit.position + len(hit.surface)
    at = max((i for i, o in enumerate(c.compact_offsets) if hit.position <= o < end), default=None)
    if at is None or c.morphemes[at].tag not in VERB_TAGS:  # a noun's verb comes after it (외출하려는데)
        at = next(iter(governing_predicate(hit, c, p) or ()), None)
    rest = [key(mo) for mo in c.morphemes[at + 1:]] if at is not None else []
    return any(run_at(rest, 0, run) for run in p.plan_end)
