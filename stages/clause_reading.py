"""How one clause reads on its own: its quotation, polarity, time, agent and mood, from Kiwi's morphemes.

`read_clause` gives a `Reading` that the sentence around the clause may still change (`stages/speech_acts.py` spreads
a sentence's mood, time and voice over the clauses joined to it). Every pattern is data (`stages/speech_patterns.py`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from registry.contracts import Agent, Mood, Polarity
from stages._clauses import ENDS_SENTENCE, VERB_TAGS, ClauseAnalysis
from stages._matchers import compact
from stages._addressee import called_after, named_subject, person_act, person_purpose, vocative
from stages._predicates import formal_request_at, subordinate_at
from stages.speech_patterns import (Patterns, asks_what_it_does, knows_nothing, explains_elliptically, describes_how, curious, asks_by_not_knowing, asks_by_shape, asks_criterion, asks_what_is_usual, ends_intoned, asks_how, asks_leave, quotes_bare, awaits_predicate, diagnoses, closed_syllable, complains, confirms, offers, ends_on_a_period,
                                    contains, finds_out, follows, happens, key, needed_last, tells_by_copula)

Pair = tuple[str, str]


@dataclass
class Reading:
    """A clause's speech act while it is being read (the sentence around it may still change it)."""

    mood: Mood = "fragment"
    polarity: Polarity = "affirmative"
    agent: Agent = "robot"
    reported: bool = False
    past: bool = False
    quoted_until: int = 0
    displayed: bool = False
    means_of: str | None = None
    final: bool = False  # the clause ends a sentence (a final or declarative ending)
    target_owner: str | None = None
    cut_off: bool = False  # the turn was cut off inside this clause's sentence (사진 찍, 거실로 가서 공): no licence
    signals: list[str] = field(default_factory=list)


@dataclass
class _Shape:
    """The clause's morphemes as (form, tag) pairs, and what its ending says."""

    ms: list[Pair]
    tags: list[str]
    matrix: list[Pair]
    """The clause's own words: what follows its last quotative (what precedes is somebody's words)."""
    ef: list[Pair]
    final: Pair | None
    benefactive: bool
    asks_word: bool
    question: bool


@dataclass
class _Cues:
    """What the matrix asks or states, read before the mood is decided."""

    able: bool
    intoned: bool
    permits: bool
    needs: bool
    wish: bool
    how: bool
    explains: bool
    criterion: bool
    tells: bool
    state_caps: bool
    pred_at: int | None
    last_pred: Pair | None
    adjective: bool
    words: list[Pair]


def read_clause(c: ClauseAnalysis, p: Patterns, paired: tuple[str, ...] = ()) -> Reading:
    """The clause's own reading (before what the sentence around it contributes)."""
    out = Reading()
    if not c.morphemes:
        return out
    s = _shape(c, p, paired, out)
    negator = _polarity(c, s, p, out)
    progressive = _tense(s, p, out)
    thing_subject = _agent(c, s, p, out)
    f = _cues(c, s, p, out)
    mood = _asked_mood(c, s, f, p, out) or _told_mood(c, s, f, p, out, negator, progressive, thing_subject)
    out.signals.extend([f"final:{s.final[0]}/{s.final[1]}"] if s.final else [])
    out.mood = mood
    return out


def _quotation(c: ClauseAnalysis, ms: list[Pair], p: Patterns, paired: tuple[str, ...], out: Reading) -> list[Pair]:
    """Reported or quoted speech: what precedes the last quotative is somebody's words. Returns the matrix."""
    morphs, sig = c.morphemes, out.signals
    q_at = max((i for i, k in enumerate(ms) if k in p.quotatives), default=None)
    if q_at is None:  # (2년이라 했지 / 거실이야 안방이야 하면서: quoted with no quotative particle)
        q_at = max((i for i in range(len(ms)) if quotes_bare(ms, i, p)), default=None)
    if q_at is None:
        if any(mark in c.text for mark in paired):  # a pair quotes (maybe over two clauses); a stray ' (주기');) does not
            out.reported = True
            sig.append("quotation_marks")
        return ms
    rest = [k for k in ms[q_at + 1:] if not k[1].startswith(("S", "J"))]  # (비 온대. / 끝난대요: no matrix after it)
    said = [k for k in ms[:q_at] if not k[1].startswith(("S", "J", "E")) and k[1] != "VCP"]
    if said and all(k in p.open_question_words for k in said) and any(k[1] in ("VV", "XSV") for k in rest):
        return ms  # 뭐라고 인사해: what is said is asked, nobody's words are quoted (뭐라고?: not heard)
    if ms[q_at][1] == "EF" and not rest and any(k in p.question_words for k in said):
        return ms  # 배터리 얼마래요: what the reading says is asked, a question of the state (엄마가 몇 시에 온대?: asks too)
    out.quoted_until = len(compact(c.text[: morphs[q_at].start + morphs[q_at].length - morphs[0].start]))
    asks_robot = any(k in p.benefactive for k in rest)
    if rest and rest[0] in p.display:
        out.reported = out.displayed = True
        sig.append(f"displayed:{rest[0][0]}")
    elif not asks_robot and (not rest or any(k in p.reporting for k in rest[:2]) or ms[q_at][1] == "EF"):
        out.reported = True
        sig.append(f"quotative:{ms[q_at][0]}")
    return rest or ms[max((i for i, k in enumerate(ms[:q_at]) if k in p.quotatives), default=-1) + 1:]  # (달라니까 ... 있대)


def _shape(c: ClauseAnalysis, p: Patterns, paired: tuple[str, ...], out: Reading) -> _Shape:
    ms = [key(mo) for mo in c.morphemes]
    matrix = _quotation(c, ms, p, paired, out)
    ef = [k for k in matrix if k[1] == "EF"]
    final = ef[-1] if ef else next((k for k in reversed(matrix) if k[1] in ("EC", "ETN", "ETM")), None)
    out.final = bool(ef) or (final in p.declare_end)
    benefactive = any(k in p.benefactive and not (i + 2 < len(matrix) and matrix[i + 1][1] == "ETM" and matrix[i + 2] in p.nominalizers)
                      and not subordinate_at(matrix, i, p) for i, k in enumerate(matrix)) or any(k in p.request_nouns or formal_request_at(matrix, i, p)
                                                            for i, k in enumerate(matrix))  # 확인 부탁해 / 보고 바랍니다
    asks_word = any(k in p.question_words and not (i + 1 < len(matrix) and matrix[i + 1] in p.indefinite_followers)
                    for i, k in enumerate(matrix)) and not c.holds_the_floor  # 얼마 없어: little is left; 저 뭐시냐
    asked_at = next((i for i, k in enumerate(matrix) if k in p.open_question_words), None)
    openly = asked_at is not None and final in p.open_question_end and c.connective in ("", *ENDS_SENTENCE) \
        and not any(k in p.indirect_question for k in matrix[asked_at:])  # 뭐가 달라지는데 (not 뭐가 좋은지 모르겠는데)
    offered = c.alternative and final not in p.declare_end | p.exclaim_end and not benefactive  # 정도야 아님 전체야
    confirming = final in p.intonation_end and confirms(matrix, p)  # 꺼지는 거 맞아: asked without its mark
    question = "?" in c.text or offered or confirming or ((final in p.question_end and final not in p.request_end) or openly or (
        asks_word and not benefactive and final not in p.declare_end | p.exclaim_end and not finds_out(matrix, p)
        and not knows_nothing(matrix, p))) and not complains(matrix, p)
    question = question and not c.holds_the_floor  # 저 뭐시냐 (said alone before the request): its -냐 asks nothing
    out.signals.extend(name for name, on in (("alternative", offered), ("confirmation", confirming)) if on)
    return _Shape(ms=ms, tags=[k[1] for k in ms], matrix=matrix, ef=ef, final=final, benefactive=benefactive,
                  asks_word=asks_word, question=question)


def _scopes_over_request(c: ClauseAnalysis, tags: list[str], i: int, first_word: int) -> bool:
    """The negator stands at or right before the capability word (안 가도 돼)."""
    j = next((j for j in range(i + 1, len(tags)) if tags[j] != "MAG"), i)
    return c.compact_offsets[i] >= first_word or c.compact_offsets[j] >= first_word


def _negates_elsewhere(ms: list[Pair], tags: list[str], i: int, p: Patterns) -> bool:
    """소리가 안 나는데 고장이야 / 애기 안 깨게 소리 줄여 줘: the negator belongs to a premise, or to what a request
    should bring about (-게), not to what is said."""
    def verb_after(k: int) -> bool:
        return any(t in VERB_TAGS for t in tags[k:])
    return any((ms[j] in p.premise or (ms[j] == ("데", "NNB") and tags[j - 1] == "ETM")) and verb_after(j + 1)
               or tags[j] in VERB_TAGS and ms[j + 1] in p.manner_end and verb_after(j + 2) for j in range(i + 1, len(ms) - 1))


def _polarity(c: ClauseAnalysis, s: _Shape, p: Patterns, out: Reading) -> str | None:
    """Prohibited (-지 마), excluded, negated (안/못) or a need denied; returns the negator word, if any.
    A negator before the first capability word negates some other phrase (있잖아 = 있지 않아)."""
    ms, sig = s.ms, out.signals
    first_word = min((h.position for h in c.capabilities), default=0)
    leave = asks_leave(s.matrix, p)
    if leave is not None:
        sig.append("asks_leave")  # 해 주면 안 돼: the negator asks leave, it negates no act
        leave += len(ms) - len(s.matrix)
    negator = next((k[0] for i, k in enumerate(ms)
                    if k in p.negators and i != leave and not c.in_registry_word[i] and i >= len(ms) - len(s.matrix) and not 0 <= c.polar_at <= i
                    and _scopes_over_request(c, s.tags, i, first_word) and not _negates_elsewhere(ms, s.tags, i, p)), None)
    if follows(s.matrix, p.prohibit_conn, p.prohibit_aux, within=2) is not None:
        out.polarity = "prohibited"
        sig.append("prohibitive")
    elif len(ms) >= 2 and ms[-1] in p.exclude_end and ms[-2] in p.exclude_verb:
        out.polarity = "prohibited"
        sig.append("exclusion")
    elif negator is not None:
        out.polarity = "negated"
        sig.append(f"negator:{negator}")
    elif (j := follows(s.matrix, p.need_nouns, p.need_verbs, within=4)) is not None and not any(k in p.premise for k in s.matrix[j + 1:j + 3]):  # (없으니까: a reason)
        out.polarity = "negated"
        sig.append("need_denied")
    return negator


def _tense(s: _Shape, p: Patterns, out: Reading) -> bool:
    """Marks a past narrative; returns whether the clause is progressive (-고 있).
    갔다가 / 들렀다 ... 와: a past form inside the sentence sequences actions; only the final predicate narrates."""
    matrix = s.matrix
    last_verb = max((i for i, k in enumerate(matrix) if k[1] in VERB_TAGS and k[1] != "VX"), default=-1)
    told = out.final or bool(matrix) and matrix[-1] in p.past  # (거실로 갔: a past the turn stops on, no ending after it)
    told = told or (len(s.ms) >= 2 and s.ms[-1] in p.polite_tails and s.ms[-2][1] == "EC")  # (켜 놨고요: 요 closes it)
    if (any(k in p.past for k in matrix[last_verb + 1:]) or (s.final in p.retrospective and not s.asks_word)) and told:
        out.past = True
        out.signals.append("past_tense")
        tail = matrix[last_verb + 1:]
        if any(k in p.past_perfect for k in tail) or any(a in p.past and b in p.past for a, b in zip(tail, tail[1:])):
            out.signals.append("past_perfect")  # 나갔었어: was, and is no longer (not 나갔어: is gone now)
    return follows(matrix, p.prog_end, p.prog_aux, within=1) is not None


def _agent(c: ClauseAnalysis, s: _Shape, p: Patterns, out: Reading) -> str | None:
    """Who acts and who is addressed: a subject, a vocative, a promise; returns a thing subject, if any."""
    sig = out.signals
    thing_subject = named_subject(c, s.ms, p, out)
    called = vocative(s.ms, c.in_registry_word, p, c.morphemes, s.question and not s.benefactive)
    if called is None or called[1] != "robot":  # 여보 잠깐, 로봇아 ... / 헤이 구글 잠깐, 로봇아 ...: who is asked after
        called = called_after(s.ms, c.morphemes, p, opening=called is None) or called
    if called is not None and called[1] != "robot":
        out.agent = "third_person"  # 언니 나 사진 좀 찍어 줘: the sister is asked, not the robot
        sig.append(f"vocative:{called[0]}")
        if called[1] == "assistant":
            sig.append(f"assistant_vocative:{called[0]}")
    elif called is not None:
        sig.append(f"robot_vocative:{called[0]}")
    purpose = person_purpose(c, s.ms, p)
    if purpose is not None and out.agent == "robot":
        out.agent = "user"  # 밥 먹으러 주방 가: whoever goes there to eat, it is not the robot
        sig.append(f"person_purpose:{purpose[0]}")
    acts = person_act(s.ms, p) if out.agent == "robot" else None
    if acts is not None:
        out.agent = "third_person"  # 신발 벗고 거실로 가세요: who takes off shoes is the one asked
        sig.append(f"person_act:{acts[0]}")
    promise = next((k for k in s.ms if k in p.promissive), None)
    if promise is None and follows(s.matrix, p.need_end, p.supposed, within=1) is not None:
        promise = ("야겠", "resolve")  # 거실 가야겠어 / 가습기 사야겠어: -어야겠- is what the speaker resolves to do
    if promise is not None:
        out.agent = "user"
        sig.append(f"promissive:{promise[0]}")
    elif out.agent == "user" and any(k in p.benefactive and k[1] == "VX" for k in s.matrix):
        out.agent = "robot"  # 나 잘 거니까 ... 해 줘: the speaker is who it is for, not who acts
        sig.append("benefactive_request")
    return thing_subject


def _cues(c: ClauseAnalysis, s: _Shape, p: Patterns, out: Reading) -> _Cues:
    matrix, ms, inside = s.matrix, s.ms, c.in_registry_word
    able_at = follows(matrix, p.able_mod, p.able_noun, within=1)
    able = able_at is not None and any(k in p.able_verb for k in matrix[able_at + 1: able_at + 3])
    # 말려도 돼 / 넘을 수 있어 heard without "?": said to the robot, an affirmative ability, permission or necessity
    # clause in an ending only intonation marks is asked (a past or somebody else's is told)
    intoned = (s.question or (ends_intoned(s.final, c.connective in ENDS_SENTENCE, p) and out.polarity == "affirmative"
                              and not out.past and out.agent == "robot" and not s.benefactive))
    how_phrase = any(asks_how(matrix, seq, p.how_state) for seq in p.how_phrases)
    where = not how_phrase and any(asks_how(matrix, seq, p.how_state) for seq in p.where_phrases)
    # (어디서 샀노 / 어디서 청정하고 있어: where it was done, or where it runs now, is no question of how it works)
    how_phrase = how_phrase or where and not out.past and follows(matrix, p.prog_end, p.prog_aux, within=1) is None
    asked = [k for i, k in enumerate(matrix) if not (i + 1 < len(matrix) and matrix[i + 1] in p.how_state)]
    base = len(ms) - len(matrix)
    manner = {i for i in range(len(matrix) - 1) if matrix[i][1].startswith("VA") and matrix[i + 1] in p.manner_end}
    # (청소 좀 해라: in an unsupported act's words, 해 is still the verb)
    manner |= {i for i in range(len(matrix)) if inside[base + i] and (matrix[i][1] != "VV" or c.capabilities)}
    pred_at = next((i for i, k in reversed(list(enumerate(matrix)))
                    if k[1] in VERB_TAGS and k not in p.benefactive and i not in manner), None)
    last_pred = matrix[pred_at] if pred_at is not None else None
    # 행복하세요 / 건강하세요: an adjective asked for is a wish; 청정하 (청정/NNG 하/XSA) is the registry's verb
    adjective = last_pred is not None and (last_pred[1] in ("VA", "VA-I", "VA-R") or (
        last_pred[1] == "XSA" and pred_at > 0 and not inside[base + pred_at - 1]))
    return _Cues(
        able=able or (s.question and any(k in p.able_pred for k in matrix)), intoned=intoned,
        permits=follows(matrix, p.permit_end, p.permit_verb, within=6) is not None,
        needs=needed_last(matrix, p),
        wish=(any(k in p.wish_aux or k in p.wish_verb for k in matrix)
              or follows(matrix, p.wish_cond, p.wish_good, within=2) is not None),
        how=how_phrase or any(k in p.how_words for k in asked),
        explains=how_phrase or any(k in p.explain_words for k in asked),
        criterion=asks_criterion(matrix, p) or ends_on_a_period(matrix, p),
        tells=any(k in p.telling for k in matrix), state_caps=any(h.kind == "state_query" for h in c.capabilities) and not describes_how(matrix, p),
        pred_at=pred_at, last_pred=last_pred, adjective=adjective,
        words=[k for k in ms if not k[1].startswith(("J", "E", "S", "X"))])


def _asked_mood(c: ClauseAnalysis, s: _Shape, f: _Cues, p: Patterns, out: Reading) -> Mood | None:
    """Stops, vocalizations, cut-off stems, wishes and everything that asks; None when the clause tells."""
    sig, ms, final, words = out.signals, s.ms, s.final, f.words
    if c.role in ("guard", "temporal"):
        return "condition"
    if not c.capabilities and any(k in p.stop_words for k in ms) and all(  # (로봇아 멈춰: called by its own name)
            k in p.stop_words or k in p.stop_companions or k in p.robot for k in words) and "past_tense" not in sig:
        sig.append("voice_stop")  # 멈춰, 그만, 다 꺼: stop whatever is running
        return "stop"
    if not c.has_predicate and words and all(k[1] == "IC" or k in p.exclamatory for k in words) and (
            not c.filler_words or any(k in p.social_ic or k in p.exclamatory for k in words)):
        if any(k in p.social_ic or k in p.exclamatory for k in words):
            sig.append("interjections")  # 헐 대박, 와: interjections are talk, not a broken request
            return "exclamation"
        sig.append("vocalization")  # 흐음, 휴우, 쯧쯧: a vocalization says nothing to anybody
        return "fragment"
    said = [k for k in ms if not k[1].startswith(("S", "J")) and k not in p.intonation_end]
    if said and said[-1] in p.how_to_conditionals and c.connective in ("", *ENDS_SENTENCE):
        sig.append("how_to_elided")  # 화면 좀 더 밝게 하려면(요): 어떻게 해 left unsaid, nothing is asked of the robot
        return "knowledge_question"
    stem = next((k for k in reversed(ms) if not k[1].startswith("S")), ("", ""))
    if (cut := stem[1] in VERB_TAGS and closed_syllable(stem[0])) or awaits_predicate(c.morphemes, c.connective):
        out.cut_off = True  # 사진 찍 / 화면 밝.: a stem ending in a consonant cannot end a Korean sentence (nor 공기가 좀…)
        sig.append(f"cut_off_stem:{stem[0]}" if cut else "cut_off_argument")
        return "fragment"
    if not c.has_predicate:  # (얼마나 자주 재?: Kiwi reads 재 as a prefix; how often is the manual's, not the state now)
        return ("knowledge_question" if f.criterion else "state_question") if s.question and f.state_caps else "question" if s.question and c.alternative else "fragment"
    if (f.wish or final in p.declare_end or f.adjective) and curious(s.matrix, p, f.wish or s.question) \
            and out.polarity == "affirmative":  # 하나도 안 궁금하거든: not wanting to know asks nothing
        sig.append("curiosity")  # 오늘 날씨 알고 싶어 / 궁금하다: asks to know
        return "question"
    if f.wish and s.benefactive:
        sig.append("wished_for_me")  # 정화 좀 해 주면 좋겠어: a wish for what the robot does for me asks for it
    elif (f.wish or (final in p.wish_cond and c.connective in ("", ".", "!") and c.role == "action")) and not s.question:
        sig.append("wish")  # 올여름엔 덜 더웠으면: a bare -었으면 at the end is a wish
        return "wish"
    return _asked_knowledge(c, s, f, p, out)


def _asked_knowledge(c: ClauseAnalysis, s: _Shape, f: _Cues, p: Patterns, out: Reading) -> Mood | None:
    """Abilities, permissions, necessities and explanations asked for, then plain questions."""
    sig, final = out.signals, s.final
    if f.able and not s.benefactive:
        sig.append("ability" if s.question or f.how or not f.intoned else "ability_intoned")
        return "knowledge_question" if f.intoned or f.how else "statement"
    if f.permits and f.intoned:
        sig.append("permission" if s.question else "permission_intoned")
        return "knowledge_question"
    if f.intoned and not s.question and (asks_by_shape(s.matrix, f.last_pred, f.pred_at, s.ms, p, bool(c.unsupported)) or (
            not c.unsupported and asks_what_is_usual(s.matrix, f.pred_at, p, bool(c.qna_topics or c.capabilities)))):
        sig.append("asked_by_shape")  # 차일드 락 있어요 / 멈추는데 고장이야: asked, heard without "?"
        return "knowledge_question"
    if f.needs and f.intoned and (s.question or s.asks_word or c.qna_topics or any(h.via != "lemma" for h in c.capabilities)):
        sig.append("necessity")  # (오늘 야근해야 돼: no mark, no question word, nothing of the product: told, below)
        return "knowledge_question"
    if f.tells and (f.how or s.asks_word) and not f.state_caps or f.tells and f.criterion or explains_elliptically(s.matrix, p):
        sig.append("asks_to_explain")  # 음소거 뭔지 설명해 줘 / 사용 온도 범위 알려 줘: how it works, what the manual sets
        return "knowledge_question"
    if not s.question and not (asks_by_not_knowing(s.ms, p) and out.polarity == "affirmative"):
        return None
    sig.append("question" if s.question else "not_knowing")  # (어디 있는지 모르겠네: not knowing what is embedded asks it)
    if out.polarity == "negated" and any(k in p.unable for k in s.matrix):
        sig.append("ability_denied")  # 노래 같은 건 못 틀어 주지?: whether it can, asked as "it can't, can it?"
        return "knowledge_question"
    asks_itself = "?" in c.text or final in p.question_end and final not in p.intonation_end  # (재 주냐: no mark needed)
    if s.benefactive and (asked := asks_what_it_does(s.ms, s.matrix, final, asks_itself, "?" in c.text, p)):
        sig.append(asked)  # 습도도 재 주냐 / 나빠지면 알아서 올려 줘?: whether it does that too, or on its own
        return "knowledge_question"
    at = _last_at(s.matrix, final)
    if (s.benefactive or final in p.asking_request_end) and not offers(s.matrix, final, at, p) and not s.asks_word:
        return "request" if s.question else "knowledge_question"  # (켜 줄까?: an offer, below; 가 주는지 모르겠네: whether it does)
    # 시끄러울까? 충분할까?: -ㄹ까 on an adjective wonders how it is, nobody is to act (좋을까 is a wish)
    wonders = at > 0 and s.matrix[at - 1][1].split("-")[0] in ("VA", "XSA") and s.matrix[at - 1] not in p.wish_good
    if final in p.suggest_end and not wonders:
        return _suggestion(s, p, out)
    if f.criterion:
        sig.append("asks_criterion")  # 몇부터 나쁨이야? 좋음 기준이 몇이야?: the manual's threshold, not the state now
        return "knowledge_question"
    if f.state_caps and diagnoses(s.matrix, f.last_pred, f.pred_at, p) and not c.unsupported:
        sig.append("asks_diagnosis")  # 공기 나쁨으로 나오는데 센서 고장인가?: whether it is broken, not the air now
        return "knowledge_question"
    if f.state_caps and not f.explains:
        return "state_question"
    if f.how or any(k in p.exists for k in s.matrix):
        return "knowledge_question"
    return "question"


def _last_at(matrix: list[Pair], k: Pair | None) -> int:
    """Where `k` occurs last in the matrix (0 when it does not)."""
    return len(matrix) - 1 - matrix[::-1].index(k) if k in matrix else 0


def _suggestion(s: _Shape, p: Patterns, out: Reading) -> Mood:
    """-자 suggests doing it together (청정하자); -ㄹ까 (speech_acts deliberation_endings) or a question word is the
    speaker deliberating (우리 거실 가서 영화 볼까, 볼륨 키울까 아님 자막 켤까, 뭘 살까): nobody is asked to act."""
    at = _last_at(s.matrix, s.final)
    # (약국 있을까요?, 얼마나 좋을까, 나가도 될까요: a state, a wish, leave asked; only a verb of doing deliberates)
    doing = at > 0 and s.matrix[at - 1][1] in ("VV", "VX", "XSV") and not (at > 1 and s.matrix[at - 2] in p.permit_end)
    if offers(s.matrix, s.final, at, p) or not s.benefactive and (s.asks_word or (s.final in p.deliberate_end and doing)):
        out.agent = "user"
        out.signals.append("deliberation")
    return "suggestion"


def _told_mood(c: ClauseAnalysis, s: _Shape, f: _Cues, p: Patterns, out: Reading, negator: str | None,
               progressive: bool, thing_subject: str | None) -> Mood:
    """Suggestions, reports, statements, exclamations and requests by their ending."""
    sig, final, tags, last_pred = out.signals, s.final, s.tags, f.last_pred
    if final in p.suggest_end:
        return _suggestion(s, p, out)
    # (뽀샤시하게 나와: a display verb after a manner ending says how something looks, nothing is displayed)
    looks = f.pred_at is not None and f.pred_at > 0 and s.matrix[f.pred_at - 1] in p.manner_end
    if not out.displayed and last_pred in p.display and looks and (out.final or final in p.declare_end):
        sig.append(f"appearance:{last_pred[0]}")
        return "statement"
    if out.displayed or (last_pred in p.display and (out.final or final in p.declare_end or final in p.sequence_end)):
        if not out.displayed:  # 에러 코드 E6 떴어요: something shows on the device (a report about it)
            out.displayed = True
            sig.append(f"displayed:{last_pred[0]}")
        return "statement"
    if out.polarity == "negated" and negator is not None:
        sig.append("negated_statement" if not f.permits else "not_needed")  # 바퀴가 안 굴러가 / 안 갈아도 돼
        return "statement"  # 안/못 never makes a command (a prohibition is -지 마)
    habitual = not s.benefactive and any(contains(s.matrix, run) for run in p.habitual)  # 혼자 움직이기도 해
    aspect = progressive or any(contains(s.matrix, seq) for seq in p.state_aspects)  # (켜져 있는 / 작동 중인 거야)
    if aspect and f.intoned and f.state_caps and not any(k[0] in p.persons for k in s.ms):  # (엄마 ... 있어: told)
        sig.append("state_intoned")
        return "state_question"
    if final in p.promissive or (out.past and not s.benefactive) or progressive or habitual:
        sig.append("progressive" if progressive else "past_statement" if out.past else "habitual" if habitual else "promise")
        return "statement"
    ending, aux = p.conjecture
    at = _last_at(s.matrix, final) if final in p.service_declare else 0
    if at > 1 and s.matrix[at - 1] in p.supposed:
        at -= 1  # (찍어 드리겠습니다: an intention on 드리, a promise of the speaker's)
    serves = at > 0 and s.matrix[at - 1] in p.benefactive  # the ending on 주/드리 itself (not 꺼 주라 시끄럽다, 부탁합니다)
    if serves or any(a in ending and b in aux for a, b in zip(s.matrix, s.matrix[1:])):
        sig.append("declares_service" if serves else "conjecture")  # 바꿔 줍니다 / 나이트 모드인가 봐
        return "statement"
    at = _last_at(s.matrix, final) if final in p.verb_imperative else 0  # (소리 좀 줄여라: its verb in registry words)
    if at and (last_pred or s.matrix[at - 1])[1] in ("VV", "VX") and not f.adjective:
        sig.append("verb_imperative")  # 청소기 돌려라 (먼지 천지다): -어라 on an action verb commands; on 춥 it exclaims
        return "request"
    interjected = bool(tags[:1]) and tags[0] in p.interjection_tags
    if final in p.exclaim_end or (interjected and final in p.declare_end):
        return "exclamation"
    if final in p.declare_end and not s.benefactive:
        return "statement"
    if f.adjective and not s.benefactive and not (final and final[1] in ("ETM", "ETN")):  # 높은 장게: a noun phrase
        sig.append(f"adjective:{last_pred[0]}")
        return "exclamation" if interjected else "statement"
    # (충전이 중간에 끊겨: a thing's doing heard to the end of the turn, its ending -어 read as a connective)
    trails = c.connective == "" and final is not None and final[1] == "EC" and final[0] in p.bare_connectives
    if thing_subject and (out.final or trails) and not s.benefactive:
        sig.append(f"subject:{thing_subject}")
        return "statement"
    if not s.benefactive and (f.needs or happens(s.matrix, f.pred_at, final, out.final or c.connective in ENDS_SENTENCE, p) or last_pred in p.not_knowing):
        sig.append("necessity_told" if f.needs else f"event:{last_pred[0]}")  # 짜증 나 / 모르겠어 / 와야 해: nobody is asked
        return "statement"
    if s.benefactive or final in p.request_end:
        return "request"
    if s.ef or tells_by_copula(s.ms, final, c.connective in ("", *ENDS_SENTENCE), p):  # (바람이라: told, not a fragment)
        return "statement"
    if tags[-1] in VERB_TAGS:
        return "request"  # a bare stem at the end ("안방 가" heard without its ending)
    if final is not None and final[1] == "EC" and f.pred_at is not None and c.connective not in ENDS_SENTENCE:
        sig.append("joined_predicate")  # 집 전체 청정 돌리고 (끝나면 복귀): a verb joined on; its sentence decides
        return "request"
    return "fragment"
