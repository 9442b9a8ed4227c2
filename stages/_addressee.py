"""Who a clause calls and who does what it says: a vocative heading the turn, a person's purpose for going.

Pure functions of a clause's morphemes and the compiled speech-act patterns (stages.speech_patterns).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from stages._clauses import ENDS_SENTENCE, ClauseAnalysis
from stages.speech_patterns import Patterns, closed_syllable, key, premise_between

if TYPE_CHECKING:
    from registry.speech_contracts import SpeechActLexicon
    from stages._matchers import Matchers
    from stages.clause_reading import Reading

Pair = tuple[str, str]
DESCRIBED = "robot_described"
"""The robot named by a noun with a describing particle (로봇은, 청정기가): told about, not called."""
NAMED_AS_A_THING = "robot_as_a_thing"
"""The robot's noun with no subject particle, mark or call after it (청정기 좀 켜 줘, 로봇 배터리): an object or a
possessor, so the clause does not turn from a person called before to the robot."""


def robot_called(signal_lists) -> bool:
    """Whether any of the readings or speech acts (their signal lists) calls the robot by name (로봇아, 너 거기)."""
    return any(s.startswith("robot_vocative") for signals in signal_lists for s in signals)


def assistant_called(signals) -> bool:
    """Whether a reading or speech act (its signals) is said to another assistant called by its name (시리야, 오케이
    구글), or carries that call from the clause before."""
    return any(s.startswith("assistant_vocative:") for s in signals)


def vocative(ms: list[Pair], inside: list[bool], p: Patterns, morphemes: list, asks: bool = False) -> Pair | None:
    """(whom the turn calls, "robot" | "assistant" | "person") when it opens by calling somebody or addresses a group.
    `morphemes` (the clause's, with offsets) tell which morphemes are written on to the one before them; `asks`: the
    clause is a question with no request form (a bare person noun before any noun then calls the person)."""
    glued = _glued(morphemes)
    group = _group_called(ms, p)
    if group is not None:
        return group, "person"
    woke, i = False, 0
    while i < min(len(ms), 4):
        k = ms[i]
        if k in p.voc_words and not (i + 1 < len(ms) and ms[i + 1][1] in ("JKS", "JKB", "JKO", "JKG")):  # (여보가: told of)
            return k[0], "person"  # (여보한테 문자 보내 줘: with a case particle it is an argument, not a call; 여보가 해 calls)
        end = _word_end(ms, glued, i)
        word = "".join(m[0] for m in ms[i:end])  # the written word (클로바, read as 클로 + 바)
        if end > i + 1 and end < len(ms) and any(word == form for form, _ in p.voc_words):
            return word, "person"  # 여보 로봇 배터리 봤어? (여보 read as 여/NP 보/VV): the call word written whole
        if word.lower() in p.wake_words or k[1] in ("IC", "SP", "SF", "MAJ"):  # (그리고 오케이 구글 ...)
            woke = woke or word.lower() in p.wake_words
            i = end if word.lower() in p.wake_words else i + 1
            continue  # 아, 오메, a comma, 하이 (빅스비), 헤이 (read as 헤 + 이): what precedes the first content word
        if k[1] == "NNP" and end == i + 1 < len(ms) and _person_word(ms, end, _word_end(ms, glued, end), p):
            i = end
            continue  # 김 대리님, / 민수 씨,: a name before a title belongs to the call
        called = word[:-1] if word[-1:] in p.voc_forms else word  # 이모, / 자기야, (Kiwi: 이/MM 모, 자기 이/VCP 야/EC)
        if _person_word(ms, i, end, p) and k not in p.robot and end < len(ms) and ms[end][1] in ("SP", "SF") and not inside[i]:
            return called, "person"  # a person noun the speaker closes with a mark is called, however Kiwi splits it
        if word.lower().startswith(p.assistants) or (woke and k[1].startswith("NN") and k not in p.robot and not inside[i]):
            return word, "assistant"  # 시리야, 클로바, 헤이 기아: another assistant is addressed
        # 제트봇, 주방으로 가 / 월패드, 엘리베이터 불러 줘: a name (or another thing) before a comma calls its bearer
        thing = word.lower() in p.thing_of
        named = thing or (len(word) >= 2 and any(t == "NNP" for _, t in ms[i:end]))
        if named and end < len(ms) and ms[end][1] == "SP" and k not in p.robot:
            return word, "assistant" if thing else "person"
        if _told_where_to_go(ms, glued, inside, i, end, thing, p):
            return word, "assistant" if thing else "person"  # 제트봇 주방으로 가 / 초코 거실로 와
        j = i + 1
        while j < len(ms) and ms[j][1] == "XSN":
            j += 1  # 얘들아: the plural suffix belongs to the noun
        nxt = ms[j] if j < len(ms) else None
        if nxt is not None and nxt in p.voc_particles and not k[1].startswith(("NN", "NP")):
            return k[0], "robot" if k in p.robot else "person"  # 멍멍아 (read as MAG + 아/JKV): a call all the same
        if k[1].startswith("NN") and not inside[i] and k not in p.robot and morphemes[i].unknown and _fused_call(k[0], p) \
                and (nxt is None or not nxt[1].startswith("J")):
            # 다온아 한 바퀴 돌아 봐: a name read whole with its vocative ending (시리 말고 로봇아: the robot's own name)
            return k[0], "robot" if k[0][:-1] in p.robot_nouns else "person"
        if k[1].startswith("NN") and nxt is not None and nxt[1].startswith("NN") and glued[j] \
                and j + 1 < len(ms) and glued[j + 1] and ms[j + 1] in p.voc_particles and not (inside[i] or inside[j]):
            return k[0] + nxt[0], "person"  # 서윤아 read as 서 + 윤 + 아: one written word, a name called
        if _titled_call(ms, i, j, inside, p):
            return k[0], "person"  # 원장님 공기청정기 바람 좀 세게 틀어 주실래요: a titled person heading the turn, bare
        if nxt is None or not (k[1].startswith("NN") or k[1] == "NP"):
            return None
        person = k[0] in p.persons and k[1].startswith(("NN", "NP"))  # 언니, 당신
        # (로봇아 read as 로봇/NNG 아/NNG: the vocative written on to the noun, whatever Kiwi tags it)
        glued_call = glued[j] and nxt[0] in p.voc_forms and nxt[1] in ("NNG", "IC")
        if nxt in p.voc_particles or glued_call or (nxt in p.voc_name_particles and (person or k[1] == "NNP")):
            # (스피커야, 재즈 틀어 줘: another thing in the home called is another device addressed)
            # (얘들아: a plural is never the robot, which is one)
            return k[0], "robot" if k in p.robot and j == i + 1 else "assistant" if k[0].lower() in p.thing_of else "person"
        # 언니 나 사진 좀 찍어 줘: a bare person noun calls somebody (not 엄마 오면, 애들 사진 찍어, 엄마 방)
        if person and not inside[i] and nxt[1] in p.voc_bare_followers and (nxt not in p.robot or nxt[1] == "NP") \
                and (k[0] not in p.bare_not_calls or nxt[1] == "SP"):
            return k[0], "person"
        if person and asks and not inside[i] and nxt[1] in p.voc_question_followers \
                and k[0] not in p.bare_not_calls and not (nxt[0].lower() in p.thing_of and j + 1 < len(ms) and ms[j + 1][1] == "JKB"):
            return k[0], "person"  # 아빠 로봇 충전대 어디다 뒀어?: asked of dad (와이프 폰에서도 ...: her thing, where)
        return None
    return None


def _group_called(ms: list[Pair], p: Patterns) -> str | None:
    """다들 / 여러분 said to a group; not the subject of the verb after it (다들 떠들어서, 여러분이 다 계시니까) nor of a
    premise the clause ends in (다들 밥 먹으니까 ...)."""
    premise = bool(ms) and ms[-1] in p.premise
    for seq in p.voc_groups:
        for i in (i for i in range(len(ms) - len(seq) + 1) if tuple(ms[i:i + len(seq)]) == seq):
            after = [t for _, t in ms[i + len(seq):i + len(seq) + 2]] + ["SF", "SF"]
            if not (after[0].startswith(("V", "JKS")) or (after[0] == "NNG" and after[1].startswith("XSV")) or premise):
                return seq[0][0]
    return None


def syllable_written_on(morphemes: list, i: int) -> bool:
    """Morpheme i is written on to the one before it and is no mark or interjection (네일: 네/IC 일/NNG; not 네, / 네네)."""
    return 0 < i < len(morphemes) and _glued(morphemes)[i] and not morphemes[i].tag.startswith(("S", "IC"))


def _glued(morphemes: list) -> list[bool]:
    """For each morpheme, whether it is written on to the one before it (no space between)."""
    return [i > 0 and m.start == morphemes[i - 1].start + morphemes[i - 1].length for i, m in enumerate(morphemes)]


def _titled_call(ms: list[Pair], i: int, j: int, inside: list[bool], p: Patterns) -> bool:
    """A noun with a title (vocatives person_suffixes: 님, 씨) heading the turn with no particle after it calls its
    bearer (팀장님 볼륨 좀 줄여 주세요); 원장님이 / 원장님의 say who does or whose it is."""
    titled = ms[i][0] + (ms[i + 1][0] if i + 1 < len(ms) and ms[i + 1] in p.person_suffixes else "")  # (손/NNG 님/XSN)
    if not ms[i][1].startswith("NN") or inside[i] or {ms[i][0], titled} & p.bare_not_calls or ms[i] in p.robot:
        return False  # (손님 오셨다 / 손님 곧 오니까: a guest told of; 로봇님: the robot itself)
    at = i + 1 if ms[i] in p.person_suffixes else j + 1 if j < len(ms) and ms[j] in p.person_suffixes \
        else j if j > i + 1 and ms[j - 1] in p.person_suffixes else None  # (민수 씨: the name went before the title)
    # (선생님 오시니까 / 팀장님 회의 들어가셨어: the one a verb honours is its subject, told of, not called; 주시-:
    # the hearer honoured by the request)
    honoured = any((ms[x] == ("시", "EP") and ms[x - 1] not in (("주", "VX"), ("주", "VV")))
                   or (ms[x][1] == "VV" and ms[x][0].endswith("시")) for x in range(at or 0, len(ms)))  # (계시다)
    # (매니저님 오늘 몇 시에 끝나요: an adverb or a pronoun after the title calls, as after a bare person noun)
    return at is not None and at < len(ms) and (ms[at][1] in ("NNG", "NNP") or ms[at][1] in p.voc_bare_followers) and not honoured


def _told_where_to_go(ms: list[Pair], glued: list[bool], inside: list[bool], i: int, end: int, thing: bool,
                      p: Patterns) -> bool:
    """제트봇 주방으로 가 / 초코 거실로 와 / 엄마 거실로 와: another thing, or a bare noun in a clause whose verb moves
    somebody (vocatives mover_verbs), named right before a room with an adverbial particle, is the one told to go
    there (not a word that says when or in what order: vocatives not_callers, 다음 안방으로 가)."""
    k = ms[i]
    mover = k[1] in ("NNG", "NNP") and not inside[i] and k not in p.robot and k[0] not in p.not_callers \
        and any(m in p.mover_verbs for m in ms[end:])
    bare = not any(t.startswith("J") for _, t in ms[i + 1:end])  # (본체하고 배터리하고 따로 가?: joined, not called)
    return (thing or mover) and bare and _bare_before_argument(ms, glued, inside, end)


def _bare_before_argument(ms: list[Pair], glued: list[bool], inside: list[bool], end: int) -> bool:
    """The written word from `end` on is a registry noun (a room) with an adverbial particle (주방으로, 안방에): the
    thing named bare before it is told where to go, not the owner of the noun (티비 화면이, 보일러 외출로, 가스레인지 옆에서)."""
    if end >= len(ms) or not ms[end][1].startswith("NN") or not inside[end]:
        return False
    return any(t == "JKB" for _, t in ms[end:_word_end(ms, glued, end)])


def _word_end(ms: list[Pair], glued: list[bool], i: int) -> int:
    """Where the written word that morpheme i begins ends (a mark ends it too: 이모, / 주방으로)."""
    return next((e for e in range(i + 1, len(ms)) if not glued[e] or ms[e][1].startswith("S")), len(ms))


def _person_word(ms: list[Pair], i: int, end: int, p: Patterns) -> bool:
    """Whether the written word ms[i:end] names a person: a person noun (its vocative ending aside: 이모, / 자기야,),
    or any noun with a title (대리님, 씨)."""
    word = "".join(m[0] for m in ms[i:end])
    return (word[:-1] if word[-1:] in p.voc_forms else word) in p.persons or ms[end - 1] in p.person_suffixes


def called_after(ms: list[Pair], morphemes: list, p: Patterns, opening: bool = False) -> Pair | None:
    """(name, "robot" | "assistant") of a call said after the turn opens, or None. 여보 잠깐, 로봇아 거실 청정해 줘 /
    지우야 잠깐 로봇아 청정 꺼 줘: one of the robot's names with the vocative written on to it (Kiwi may read that 아
    as a noun, or read 로봇아 whole) turns the clause to the robot; 지우야 잠깐 헤이 구글 커튼 닫아 줘: a wake word
    before another assistant's name turns it to that assistant. `opening`: only a call no predicate precedes (응
    잠깐만 로봇아 ...: who the turn speaks to, however it opens)."""
    glued = _glued(morphemes)
    for i in range(1, len(ms)):
        k = ms[i]
        if opening and ms[i - 1][1].startswith(("V", "E", "XS")):
            return None  # (a predicate said before it: the call is no longer how the turn opens)
        if i + 1 < len(ms) and k in p.robot and ms[i + 1][0] in p.voc_forms and glued[i + 1]:
            return k[0], "robot"
        if k[1].startswith("NN") and k[0][:-1] in p.robot_nouns and k[0][-1:] in p.voc_forms and not glued[i]:
            return k[0][:-1], "robot"  # (로봇아/NNG read whole)
        if i + 1 < len(ms) and k[0].lower() in p.wake_words and ms[i + 1][1].startswith("NN") \
                and ms[i + 1][0].lower().startswith(p.assistants):
            return ms[i + 1][0], "assistant"
    return None


def called_whole(form: str, p: Patterns) -> bool:
    """로봇아 / 청정기야 read as one noun: one of the robot's nouns with the vocative written on to it."""
    return len(form) > 1 and form[-1] in p.voc_forms and form[:-1] in p.robot_nouns


def _fused_call(form: str, p: Patterns) -> bool:
    """다온아 / 서윤아: a word of three syllables or more ending in the vocative that fits the syllable before it (the
    caller checks it is outside Kiwi's dictionary: 신생아 is a word, not 신생 called)."""
    if len(form) < 3:
        return False
    return form[-1] == p.fused_endings.get("closed" if closed_syllable(form[:-1]) else "open")


def person_purpose(c: ClauseAnalysis, ms: list[Pair], p: Patterns) -> Pair | None:
    """밥 먹으러 주방 가: a person's purpose verb before -러 when going is all the clause asks (no other capability,
    no verb after it but a motion, not ending in a connective: 밥 먹으러 오라고 is a message, not a going)."""
    at = next((i for i, (a, b) in enumerate(zip(ms, ms[1:])) if (a[0], a[1].split("-")[0]) in p.person_purpose_verbs
               and b in p.purpose_conn), None)
    if at is None or any(h.capability_id != p.purpose_motion_capability for h in c.capabilities):
        return None
    rest = ms[at + 2:]
    if not rest or rest[-1][1] == "EC" or any(k[1].startswith("VV") and k[0] not in p.purpose_motions for k in rest):
        return None
    return ms[at]


def person_act(ms: list[Pair], p: Patterns) -> Pair | None:
    """신발 벗고 (거실로 가세요) / 먼저 씻어 (그 다음에 안방에 들어가): a person's own act as the first act of a -고
    sequence or bidden on its own, if the clause is one: the robot does none of them, so a person is addressed."""
    if len(ms) < 2:
        return None
    bidden = ms[-1] in p.request_end and not any(k[1] == "JKS" or k in p.negators for k in ms)  # (터치가 안 먹어: told)
    if ms[-1] not in p.sequence_end and not bidden:
        return None
    verb = (ms[-2][0], ms[-2][1].split("-")[0])
    return verb if verb in p.person_acts else None


def named_subject(c: ClauseAnalysis, ms: list[Pair], p: Patterns, out: "Reading") -> str | None:
    """The agent a subject the clause names makes (sets `out.agent` and a signal); returns a thing that acts as
    subject (소문이 돌고 있어). The robot named by a noun with a describing particle (speech_acts
    described_subject_particles: 우리 집 로봇은 청정도 하고 사진도 찍어) is signalled `robot_described`: told about,
    it is asked for no act (stages.speech_acts withholds the licence; every labelled set agrees)."""
    sig, inside, thing_subject = out.signals, c.in_registry_word, None
    for i, k in enumerate(ms[:-1]):
        j = i + 1
        while j < len(ms) - 1 and ms[j][1] == "XSN":
            j += 1  # 애들은, 기사님이: a plural or honorific suffix sits between the person and the particle
        nxt = ms[j]
        if k in p.robot and j == i + 1:
            sig.append(f"robot_subject:{k[0]}")
            if k[1] in ("NNG", "NNP") and nxt in p.described_particles:
                sig.append(DESCRIBED)
            elif k[1] in ("NNG", "NNP") and nxt not in p.subject_particles and nxt not in p.robot \
                    and nxt[1] not in ("SP", "JKV", "VCP"):  # (로봇 너는, 청정기야 read 청정기 이/VCP 야: called)
                sig.append(f"{NAMED_AS_A_THING}:{k[0]}")  # 공기청정기 좀 켜 줘, 로봇 배터리: object or possessor
            break
        if k in p.speaker and (nxt in p.subject_particles or nxt[1][:1] not in ("J", "N", "X", "S")) \
                and not premise_between(c, ms, i, p):  # (나 잘 거니까 나이트 모드 켜 줘: the reason's subject only)
            out.agent = "user"
            sig.append(f"speaker_subject:{k[0]}")
            break
        person = (k[0] in p.persons and k[1].startswith(("NN", "NP"))) or k[1] == "NNP"  # 엄마가, 당신이
        if nxt in p.subject_particles and person and not inside[i]:
            out.agent = "third_person"
            sig.append(f"subject:{k[0]}")
            break
        # (바퀴가 헛돌아: a device word too, when what it does is a malfunction)
        if nxt[1] == "JKS" and k[1].startswith("NN") and (not inside[i] or any((m[0], m[1].split("-")[0]) in p.malfunction for m in ms[j + 1:])):
            thing_subject = k[0]  # a thing acts; only a request form could still address the robot
    return thing_subject


def robot_named(prev: "Reading", here: "Reading", p: Patterns) -> bool:
    """오케이 구글 볼륨 올려 로봇 너는 볼륨 내려 / 빅스비 말고 너한테 말한 거야: a clause whose subject is one of the robot's
    nouns, or 너 set against another assistant the clause before excludes, is the robot's whoever was called before."""
    named = [s.split(":", 1)[1] for s in here.signals if s.startswith("robot_subject:")]
    assistant = assistant_called(prev.signals)
    contrast = "exclusion" in prev.signals and assistant
    things = set() if assistant else {s.split(":", 1)[1] for s in here.signals if s.startswith(NAMED_AS_A_THING)}
    # (자기야 지금 집이야? 그럼 공기청정기 좀 켜 줘: the robot is what the person called is asked to switch on)
    return any(contrast or (w in p.robot_nouns and w not in things) for w in named)


def call_set_aside(c: ClauseAnalysis, r: "Reading") -> bool:
    """빅스비 말고 청정해 줘: the one called is what X 말고 sets aside, so the call addresses nobody after it (a call does
    address the rest of the turn: 하이 빅스비 거실 공기청정기 말고 에어컨 켜 줘)."""
    if "exclusion" not in r.signals or len(c.morphemes) < 3:
        return False
    words = "".join(m.form for m in c.morphemes[:-2] if not m.tag.startswith(("IC", "S", "J")))
    return any(words.endswith(s.split(":", 1)[1]) for s in r.signals if s.startswith("vocative:"))


def agent_carried(clauses: list[ClauseAnalysis], per: list["Reading"], order: list[int], p: Patterns) -> None:
    """A person called, or named as the subject of a clause joined on, is the agent of the clause after it; not of a
    request on a benefactive (친구들이 와서 ... 청정 좀 해 줘: -어 줘 bids whoever listens)."""
    for prev_i, i in zip(order, order[1:]):
        prev, here = per[prev_i], per[i]
        called = any(s.startswith("vocative:") for s in prev.signals) and not call_set_aside(clauses[prev_i], prev)
        asked = here.mood == "request" and any(key(m) in p.benefactive for m in clauses[i].morphemes[-3:])
        joined = clauses[prev_i].role == "action" and not prev.final and not asked and not (  # 내가 끌게, 너는 바꿔: the
            prev.agent == "user" and any(s.startswith("robot_subject:") for s in here.signals)) and (  # hearer is set apart
            "reason_before_request" not in prev.signals and not prev.reported)  # (나 잘 거니까 ..., 애가 ... 하잖아 ...:
        # the subject of a reason or of words reported is theirs only)
        if prev.agent != "robot" and here.agent == "robot" and (called or joined) and not robot_named(prev, here, p) \
                and not any(s.startswith(("robot_vocative", "benefactive")) for s in here.signals):
            here.agent = prev.agent
            here.signals.append("agent:from_previous_clause")
            if called:  # (빅스비 ... 말고 에어컨 켜 줘: an assistant's call carries as an assistant's)
                here.signals += ["vocative:from_previous_clause"] + ["assistant_vocative:from_previous_clause"] * assistant_called(
                    prev.signals)
        same_sentence = not prev.final and clauses[prev_i].connective not in ENDS_SENTENCE  # (우리 로봇은 밤 되면 ...)
        if DESCRIBED in prev.signals and (joined or same_sentence) and not any(s.startswith(_OWN_SUBJECT) for s in here.signals):
            here.signals.append(DESCRIBED)  # 로봇이 계단 타고 올라가서 청정해 줄 수 있어?: the verbs joined on tell of it too


_OWN_SUBJECT = ("robot_subject", "robot_vocative", "speaker_subject", "subject:", "vocative:", DESCRIBED)


_ASKED = ("question", "state_question", "knowledge_question")


def _away_cue(c: ClauseAnalysis, lex: SpeechActLexicon, p: Patterns, m: Matchers, remote: bool) -> str | None:
    """What in an asked clause says the one asked is away: a place people go with the copula (아직 회사야?; the copula
    Kiwi reads as a particle too, clauses.alternatives.after_forms), a pronoun of a place away when `remote` (거기
    덥지?: lexicon frg.remote_places), an arrival verb after an adverb of time or nearness (언제 와? 다 와 가?), or a
    person's own act done (밥은 먹었어?) in a clause with none of the robot's words (프리필터 마지막으로 언제 씻었지?)."""
    away, places = lex.away_questions, lex.person_purposes.away_place_set if lex.person_purposes else frozenset()
    robots = bool(c.qna_topics) or any(a.kind != "room" for a in c.anchors)
    ms = [(mo.form, mo.tag.split("-")[0]) for mo in c.morphemes if not mo.tag.startswith("S")]
    for i, k in enumerate(ms):
        after = ms[i + 1] if i + 1 < len(ms) else ("", "")
        if k[1].startswith("NN") and k[0] in places and (after[1] == "VCP" or after in m.alternatives[2]) \
                or (remote and k in m.remote_places) \
                or (k in away.arrival_set and any(x in away.adverb_set for x in ms[:i])) \
                or (k in p.person_acts and after[1] == "EP" and not robots):  # (먹어? could be an offer; 씻을 때 됐어?)
            return k[0]
    return None


def asked_of_someone_away(clauses: list[ClauseAnalysis], per: list["Reading"], lex: SpeechActLexicon, p: Patterns,
                          m: Matchers) -> None:
    """너 지금 어디야? 아직 회사야? / 어디야? 언제 와? / 거기 덥지? 몇 도야?: a turn with a question asking whether the one
    spoken to is at a place people go, or of the place they are at (거기, with no room named in the turn and the robot
    not the subject: 안방 가 봐. 거기 공기 어때? / 얘 거기서 멈춰?), when they come, or whether they did a person's own
    act (speech_acts away_questions) is said to somebody away, on the phone or in a message: its questions are asked
    of a third person, none of them of the robot's state. Not when the robot is called (로봇아 지금 어디야? 언제 와?)."""
    if lex.away_questions is None or robot_called(r.signals for r in per):
        return
    no_room = not any(c.rooms for c in clauses)
    asked = [(c, r) for c, r in zip(clauses, per) if r.mood in _ASKED and r.agent == "robot"]
    for c, r in asked:
        remote = no_room and not any(s.startswith("robot_subject") for s in r.signals)
        if (cue := _away_cue(c, lex, p, m, remote)) is not None:
            for _, other in asked:
                other.agent = "third_person"
                other.signals.append(f"asked_away:{cue}")
            return
