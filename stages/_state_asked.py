"""Whose state a state question asks: the noun before a state query's word its frame does not take as a subject
(약국 어디야), and the one state query a refused hit is re-read as (몇 프로 of 필터 is filter_status; 공기청정 지금
돌아가? asks whether purifying runs), and when a state word asks no state at all: it names the case a question is
about (배터리 없을 때도 돌아?) or a word the speaker recalls (습도였나).

No nodes here: helpers of stages/licensing.py, each a pure function of the clause and the registry.
"""

from __future__ import annotations

import dataclasses

from registry.loader import Registry
from stages._addressee import called_whole
from stages._clauses import ClauseAnalysis
from stages._matchers import matchers_for
from stages._predicates import governing_predicate
from stages.speech_patterns import key, patterns


def _slip_of(word: str, capability_id: str, registry: Registry) -> bool:
    """Whether a word is a recognition slip of one of this capability's aliases (배더리 for 배터리)."""
    m = matchers_for(registry)
    found = m.fuzzy_alias(word, [])
    return found is not None and any(e.target == capability_id for e in m.anchor_entries[found[2]])


def asked_subject(hit, c: ClauseAnalysis, frame, registry: Registry) -> str | None:
    """The noun before a state query's word that its frame does not take as a subject (약국 어디야: the pharmacy's
    place), or None. A vocative ending written on to the noun before it makes that noun the one called, not the
    thing asked of (로봇아 필터 상태 알려 줘: Kiwi reads 로봇/NNG 아/NNG)."""
    morphs = c.morphemes
    start = next((i for i, o in enumerate(c.compact_offsets) if o >= hit.position), len(morphs))
    j = start - 1
    while j >= 0 and (morphs[j].tag in ("MAG", "JX", "JKS", "JKG", "MM", "XSN") or morphs[j].form == hit.surface):
        j -= 1  # (방이 어디어디예요: the question word said twice lists what is asked of, the rooms)
    if j > 0 and morphs[j].form in frame.subjects and key(morphs[j - 1]) in registry.frames.kind_determiner_set:
        return morphs[j].form  # 이런 로봇이 어딨어: a kind of thing, not the robot asked of
    elif j > 0 and morphs[j].form in frame.subjects and morphs[j - 1 - (morphs[j - 1].tag == "JKG")].tag in ("NNG", "NNP"):
        j -= 1 + (morphs[j - 1].tag == "JKG")  # 리셋 버튼 위치가 어디니: the position is the button's
    elif j > 0 and morphs[j].form in frame.subjects and morphs[j - 1].tag == "ETM":
        j = _relative_subject(morphs, j - 1)  # 니 지금 있는 데가 어디냐 / 화장실 있는 데가 어디야: whose place it is
    p = patterns(registry)
    called = (j > 0 and morphs[j].form in p.voc_forms and morphs[j].start == morphs[j - 1].start + morphs[j - 1].length) \
        or (j >= 0 and called_whole(morphs[j].form, p))  # (여보 로봇아 배터리 몇 퍼센트 남았어: Kiwi reads 로봇아/NNG)
    if j >= 0 and not called and morphs[j].tag in ("NNG", "NNP", "NP", "NNB") and morphs[j].form not in frame.subjects \
            and not _slip_of(morphs[j].form, hit.capability_id, registry) \
            and registry.resolve_room(morphs[j].form) is None:  # (안방 청정 중이야: a room says where)
        return morphs[j].form
    return None


def _relative_subject(morphs: list, at: int) -> int:
    """Index of the noun heading the relative clause that ends with the modifier ending at `at` (화장실 in 화장실
    있는 데), or -1 when the clause names none (지금 계신 위치: the one addressed)."""
    j = at
    while j >= 0 and (morphs[j].tag.startswith(("V", "E", "X")) or morphs[j].tag in ("MAG", "JKS", "JX", "JKB")):
        j -= 1
    return j if j >= 0 and morphs[j].tag in ("NNG", "NNP", "NP", "NNB") else -1


_ASKED_MOODS = ("question", "state_question")
"""Mention reasons of a hit refused because its clause asks a question rather than for an act."""


def state_asked(reason: str | None, hit, c: ClauseAnalysis, registry: Registry):
    """The one state query a refused hit is re-read as, or None: a state query asked of a subject its frame does not
    take, as the state query whose frame subjects take that noun (몇 프로 of 필터 is filter_status); an act's word
    asked of in a question with a predicate a state query's frame names, as that state query when its frame takes the
    word as a subject and no question word asks something else of it (공기청정 지금 돌아가?: whether purifying runs,
    request_frames air_clean_operation). A subject re-read to a state query whose frame names predicates needs one of
    them in the clause: 기계 어딨노 asks where the machine is, not whether it runs."""
    frames, p = registry.frames, patterns(registry)
    if reason is not None and reason.startswith("subject:") and hit.kind == "state_query":
        word, taken = reason.split(":", 1)[1], None
    elif reason in _ASKED_MOODS and hit.kind == "execution" and not any(
            key(mo) in p.question_words for mo in c.morphemes):  # (고정청정은 언제까지 돌아가?: the manual's)
        found = governing_predicate(hit, c, p)
        word, taken = hit.surface, "/".join(found[1]) if found is not None else ""
    else:
        return None
    said = {key(mo) for mo in c.morphemes} if taken is None else set()
    owners = [cid for cid, f in frames.capabilities.items() if cid != hit.capability_id and word in f.subjects
              and registry.capability_by_id[cid].kind == "state_query"
              and (taken in f.predicates if taken is not None else not f.predicates or bool(said & f.predicate_set))]
    if len(owners) != 1:
        return None
    owner = registry.capability_by_id[owners[0]]
    return dataclasses.replace(hit, capability_id=owner.capability_id, kind="state_query",
                               operation_id=owner.operations[0].operation_id, arguments={})


def names_an_occasion(hit, c: ClauseAnalysis, registry: Registry) -> bool:
    """The state word's predicate modifies an occasion noun (lexicon clauses.occasion_nouns: 없을 때, 나쁠 경우), outside
    the words of a capability's frame (필터 갈 때 됐어 asks the due state)."""
    if hit.via == "frame":
        return False
    governing = governing_predicate(hit, c, patterns(registry))
    morphs, nouns = c.morphemes, matchers_for(registry).occasion_nouns
    i = governing[0] + 1 if governing is not None else len(morphs)
    while i < len(morphs) and morphs[i].tag == "EP":
        i += 1
    return i + 1 < len(morphs) and morphs[i].tag == "ETM" and morphs[i + 1].form in nouns


def recalled(hit, c: ClauseAnalysis, registry: Registry) -> bool:
    """The state word is what a past copula right after it says (습도였나, 배터리였던가): the speaker recalls a word."""
    end, past = hit.position + len(hit.surface), patterns(registry).past
    at = next((i for i, o in enumerate(c.compact_offsets) if o >= end), len(c.morphemes))
    ms = [key(mo) for mo in c.morphemes[at:at + 2]]
    return len(ms) == 2 and ms[0][1] == "VCP" and ms[1] in past
