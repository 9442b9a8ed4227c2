"""Who a turn calls, read across its clauses: a call said last, a name said first, a person called right after a
request. Each makes the clauses it covers said to that person (a third person), never to the robot. And the one
call of the speaker's own that asks nothing: 뭐라고?, to hear again.

Pure functions of the clauses, their readings and the compiled speech-act patterns (stages.speech_patterns).
"""

from __future__ import annotations

from registry.contracts import NormalizedText
from registry.loader import Registry
from registry.speech_contracts import SpeechActLexicon
from stages._addressee import robot_called
from stages._clauses import ENDS_SENTENCE, ClauseAnalysis, in_order, last_said, thing_named
from stages._segments import broken_off, halts_within
from stages.clause_reading import Reading
from stages.speech_patterns import Patterns, key, not_heard_runs


def _callable(k: tuple[str, str], p: Patterns) -> bool:
    """A name, a person noun or a calling word: what a copula-read 야 after it calls (은지야, 자기야, 여보야)."""
    return k[1] == "NNP" or k[0] in p.persons or k in p.voc_words


def _call_said_last(clauses: list[ClauseAnalysis], per: list[Reading], at: int, p: Patterns) -> tuple[str, bool] | None:
    """(the word, whether it follows the sentence's ending) when clause `at` ends on a call of somebody: a person
    noun, a vocative word, a noun with a vocative particle or a group (너네, 얘들아), not one of the robot's names."""
    ms = [key(m) for m in clauses[at].morphemes if not m.tag.startswith("S")]
    while len(ms) >= 2 and ms[-1][1] == "JKB" and ms[-2][1] == "NP":
        del ms[-2:]  # 언니 여기서: where, said after the call
    particle = False
    read = len(p.voc_copula_read)
    if read and len(ms) > read and tuple(ms[-read:]) == p.voc_copula_read and _callable(ms[-read - 1], p):
        del ms[-read:]  # 은지야 / 자기야 said last, read as 이/VCP 야/EF: the vocative
        particle = True
    # 태민아 read as 태 + 민 + 아/JKV: Kiwi itself reads the vocative 아 / 야 (not 이여: 몇 달이여? is a dialect copula)
    tagged = bool(ms) and ms[-1] in (("아", "JKV"), ("야", "JKV"))
    group = any(len(ms) >= len(g) and tuple(ms[-len(g):]) == g for g in p.voc_groups)  # 그만 좀 해라 너네: never it
    while ms and (ms[-1][1] == "XSN" or ms[-1] in p.voc_particles):
        particle = particle or ms[-1] in p.voc_particles
        ms.pop()  # 얘들아: the particle and the plural suffix belong to the call
    person = bool(ms) and (group or ms[-1] not in p.robot and (ms[-1] in p.voc_words or (
        ms[-1][1].startswith(("NN", "NP")) and (particle or ms[-1][0] in p.persons))))
    # (... 되는 기야: a noun after a modifier ending is what the phrase names, a bound noun, not a call)
    after_ending = person and len(ms) >= 2 and (ms[-2][1].startswith("E") or tagged) and ms[-2][1] != "ETM"
    alone = at == last_said(clauses) and len(clauses) > 1 and len(ms) == 1 and (group or ms[0] not in p.robot) and (
        person or any(s.startswith("vocative:") for s in per[at].signals))
    return (ms[-1][0], after_ending) if after_ending or alone else None


def called_at_the_end(clauses: list[ClauseAnalysis], per: list[Reading], p: Patterns) -> None:
    """사진 좀 찍어 줘 언니 / 거실로 와 얘들아 / 밥 먹자 민수야: a last clause that only calls somebody, or a clause
    that ends the turn or one of its sentences on such a call after the sentence's ending (청정 좀 꺼 줄래 자기야?
    바람이 너무 차.), addresses the whole turn to them."""
    if not clauses:
        return
    last = last_said(clauses)
    ends = [last, *(i for i, c in enumerate(clauses) if i != last and c.connective in ("?", ".", "!"))]
    at, call = next(((i, found) for i in ends if (found := _call_said_last(clauses, per, i, p))), (last, None))
    if call is None:
        return
    word, after_ending = call
    if per[at].agent == "robot":
        per[at].agent = "third_person"
        per[at].signals.append(f"vocative:{'at_the_end:' if after_ending else ''}{word}")
    for i, r in enumerate(per):
        # (로봇 지금 어디 있어 여보?: the robot named as the subject is talked about; only a call of it addresses it)
        if i != at and r.agent == "robot" and not robot_called([r.signals]):
            r.agent = "third_person"
            r.signals.append(f"vocative:at_the_end:{word}")


def calls_people(clauses: list[ClauseAnalysis], per: list[Reading], p: Patterns) -> bool:
    """Whether the turn calls people anywhere: a clause addressed to somebody called (a group too: 너네, 다들, which the
    robot never is) or a calling word said anywhere (임마, 여보). A stop in such a turn is theirs."""
    return any(r.agent == "third_person" and any(s.startswith("vocative") for s in r.signals) for r in per) \
        or any(key(m) in p.voc_words for c in clauses for m in c.morphemes)  # (멈춰 멈추라고 야 임마: mid-turn)


def called_first(clauses: list[ClauseAnalysis], per: list[Reading], p: Patterns, lex: SpeechActLexicon) -> None:
    """티비야 볼륨 이십으로 해: a first clause that is only a name, a person noun or another thing in the home, and the
    ending Kiwi reads as a copula (티비 이 야: speech_acts vocatives.copula_read), with more said after it, calls it;
    the rest is said to it (진짜야 is no call)."""
    order = in_order(clauses)
    if len(order) < 2:
        return
    if any(s.startswith("vocative:") for s in per[order[0]].signals):
        return  # (빅스비야, 현관문 잠가라: the call was read already, as another assistant's)
    ms = [key(m) for m in clauses[order[0]].morphemes if not m.tag.startswith("S")]
    read, tail = p.voc_copula_read, tuple((f, "EF" if t == "EC" else t) for f, t in ms[1:])  # (자기야, : 야/EC)
    if read and len(ms) == 1 + len(read) and tail == read and ms[0] not in p.robot and (
            _callable(ms[0], p) or thing_named(clauses[order[0]], lex)):
        per[order[0]].agent = "third_person"
        per[order[0]].signals.append(f"vocative:{ms[0][0]}")


def honoured_by_the_request(clauses: list[ClauseAnalysis], per: list[Reading], lex: SpeechActLexicon) -> None:
    """이모 밥 다 됐으니까 주방으로 오세요 / 할머니 주방 가셔서 식사하세요: a person noun heading the turn bare (what
    follows it is no particle and no verb it is the subject of), then a request whose own verb is honoured (speech_acts
    honorific_verb_endings; not the 주세요 anyone asks the robot with): the request is said to that person."""
    order = in_order(clauses)
    if not order or robot_called(r.signals for r in per):
        return
    head = [m for m in clauses[order[0]].morphemes if not m.tag.startswith("S")][:2]
    if len(head) < 2 or head[0].form not in lex.person_set or not head[0].tag.startswith("NN") \
            or head[1].tag.startswith(("J", "V", "XS")):
        return
    honours = lex.honorific_set
    for i in order:
        ms = clauses[i].morphemes
        if per[i].mood == "request" and per[i].agent == "robot" and any(
                m.tag == "VV" and key(n) in honours for m, n in zip(ms, ms[1:])):
            per[i].agent = "third_person"
            per[i].signals.append(f"vocative:honoured:{head[0].form}")


def called_after_the_request(clauses: list[ClauseAnalysis], per: list[Reading], nt: NormalizedText) -> None:
    """사진 좀 찍어 줘 언니 오늘 생일이잖아 / 볼륨 줄여 줘 엄마, 아빠 주무셔: a person called at the head of the clause
    right after a request, with no full stop written between them, is called by that request: it is said to them
    (거실 청정해 줘. 엄마, 이리 와 봐: a written stop starts a new sentence, and the call is that sentence's own)."""
    order = in_order(clauses)
    for a, b in zip(order, order[1:]):
        call = next((s for s in per[b].signals if s.startswith("vocative:") and s.count(":") == 1), None)
        stopped = nt.text[clauses[a].start:clauses[b].start].rstrip(" ,").endswith((".", "?", "!"))
        if call is None or per[a].mood != "request" or per[a].agent != "robot" or robot_called([per[a].signals]) or stopped:
            continue
        per[a].agent = "third_person"
        per[a].signals.append(f"vocative:after:{call.split(':', 1)[1]}")


def only_retraction_words(c: ClauseAnalysis, words: frozenset) -> bool:
    """아 아니다 / 취소 / 아니 됐어 관둬: a clause of nothing but retraction words (speech_acts retractions),
    interjections, particles and endings, and at least one of them."""
    if c.role != "action" or c.capabilities or c.rooms or not c.morphemes:
        return False
    return all(key(mo) in words or mo.tag in ("IC", "NNB") or mo.tag.startswith(("J", "E", "S")) for mo in c.morphemes) \
        and any(key(mo) in words for mo in c.morphemes)


def retracted(clauses: list[ClauseAnalysis], per: list[Reading], cues: tuple[frozenset, frozenset], words: frozenset) -> None:
    """청정해 아니 잠깐만 / 나이트 모드 켜, 아 아니다 아직 일러: a clause that opens (its fillers aside) with a word taking
    back what was said (lexicon clauses.retraction_cues), or says nothing but retraction words (사진 찍어 줘 아 됐어:
    speech_acts retractions), after the turn's requests, withdraws them when nothing from it on names a device word or
    a room (거실 가 아니 안방 가: a correction). They are asked back, never done."""
    forms, fillers = cues
    order = in_order(clauses)
    for n, j in enumerate(order):
        first = next((key(m) for m in clauses[j].morphemes if key(m) not in fillers and not m.tag.startswith("S")), None)
        if n == 0 or (first not in forms and not only_retraction_words(clauses[j], words)):
            continue
        if any(clauses[i].capabilities or clauses[i].rooms or clauses[i].mentions for i in order[n:]):
            return
        for i in order[:n]:
            if per[i].mood == "request":
                per[i].mood, per[i].cut_off = "fragment", True
                per[i].signals.append("retracted")
        if any("retracted" in per[i].signals for i in order[:n]):
            per[j].signals.append("takes_back")  # (아 아니다: no talk of its own, the request is asked again)
        return


def trailed_off(clauses: list[ClauseAnalysis], per: list[Reading], original: str, marks: list[str]) -> None:
    """주방 가서 공기... / 안방으로 가서 사진을 찍어서...: a turn whose voice trails off (speech_acts trailing_marks) on a
    clause with no predicate or joined on to what never came leaves the requests of its last sentence unfinished:
    they are asked back, never done (작은방으로 이동해서 청정, said to its end, still asks both)."""
    if len(clauses) < 2 or not any(original.rstrip().endswith(mark) for mark in marks):
        return
    order = in_order(clauses)
    last = clauses[order[-1]]
    tail = [k for k in (key(m) for m in last.morphemes) if not k[1].startswith("S")]
    if last.has_predicate and not (tail and tail[-1][1] == "EC"):
        return
    for i in reversed(order):
        if i != order[-1] and clauses[i].connective in ENDS_SENTENCE:
            break
        if per[i].mood in ("request", "fragment"):
            per[i].mood, per[i].cut_off = "fragment", True
            per[i].signals.append("trails_off:sequence")


def not_heard(clauses: list[ClauseAnalysis], per: list[Reading], registry: Registry) -> None:
    """뭐라고? / 응? 뭐라고요?: a clause of only one of these runs (lexicon conversation not_heard), interjections
    aside, asks the speaker to say it again: a reply of conversation, no question about anything."""
    said = not_heard_runs(registry)
    for c, r in zip(clauses, per):
        ms = [key(m) for m in c.morphemes if not m.tag.startswith("S")]
        bare = tuple(k for k in ms if k[1] != "IC")
        if tuple(ms) in said or (bare and bare in said):
            r.mood = "exclamation"
            r.signals.insert(0, "not_heard")  # (first: the talk axis shows it, and the learned opening yields to it)


def broken_off_pieces(clauses: list[ClauseAnalysis], per: list[Reading], nt: NormalizedText) -> None:
    """충전대로… 아 전화 왔다 / 배터리… 아 맞다 나 약속 있지: a piece with the robot's words and no predicate, broken off
    by an ellipsis before a sentence opening on an interjection (stages._segments.broken_off), is a request begun and
    dropped: unfinished, whatever the remark after it says. So is a clause with the robot's words that halts on a
    hesitation at an ellipsis and then only tells (stages._segments.halts_within: 카메라 그… 사진 아니고…); asked after
    the halt (거실 어… 가서 청정해 줘), it is a request said haltingly."""
    order = in_order(clauses)
    for i, j in zip(order, order[1:]):
        c = clauses[i]
        if not c.has_predicate and (c.capabilities or c.rooms or c.anchors) \
                and broken_off(nt, (c.start, c.end), (clauses[j].start, clauses[j].end, "")):
            per[i].mood, per[i].cut_off = "fragment", True
            per[i].signals.append("trails_off:broken_off")
    for c, r in zip(clauses, per):
        if r.mood in ("statement", "exclamation") and (c.capabilities or c.rooms or c.anchors) and halts_within(nt, c.start, c.end):
            r.mood, r.cut_off = "fragment", True
            r.signals.append("trails_off:broken_off")
