"""Step 3a: what each clause does (speech act), and the licence a device action needs.

`speech_acts` reads mood, polarity, agent, reported speech, past time and the target owner of every clause
(clause_reading.py reads one clause, this module the sentence around it) with registry/speech_acts.json;
`clause_analyses` keeps a capability hit only where its clause licenses it (`stages/licensing.py`). A device action
needs an affirmative request addressed to the robot about its own device; anything else is a mention, kept as evidence."""

from __future__ import annotations

from registry.contracts import ACTING_MOODS, HistoryEvidence, NormalizedText, SpeechAct, TurnInput
from registry.loader import Registry
from registry.speech_contracts import SpeechActLexicon
from stages._addressee import DESCRIBED, agent_carried, asked_of_someone_away, assistant_called, robot_called, syllable_written_on
from stages._calls import (broken_off_pieces, called_after_the_request, called_at_the_end, called_first, calls_people,
                           honoured_by_the_request, not_heard, retracted, trailed_off)
from stages._anchoring import bare_directions
from stages._turn_anchoring import analyse
from stages._clauses import ENDS_SENTENCE, QUESTION_MOODS, ClauseAnalysis, in_order, last_said, only_modifiers, thing_named
from stages._suppositions import (SUPPOSED, asked_on_its_own, clarified_after, follows_up_an_answer, one_question_of_alternatives,
                                  planned_among_people, supposed_by_a_condition, supposes)
from stages._owners import a_rooms_purifier, owned_by_other_thing, owners_across, person_before_a_setting
from stages._matchers import matchers_for
from stages.clause_reading import Reading, read_clause
from stages._fragments import cut_off_word
from stages.licensing import license_clauses
from stages._context_acts import in_context
from stages._predicates import final_predicate
from stages.speech_patterns import Patterns, contains, key, patterns, plain_endings

_ASKING = ACTING_MOODS | {"state_question", "question"}


def _goal_beyond_the_robot(c: ClauseAnalysis, r: Reading, p: Patterns) -> str | None:
    """The lemma of a requested act the robot cannot do (no capability word, not a neutral goal), else None."""
    if r.mood not in ACTING_MOODS or c.capabilities:
        return None
    found = final_predicate(c, p)
    if found is None or found[1] in p.neutral_goals:
        return None
    if c.in_registry_word[found[0]] and not c.unsupported:
        return None  # 청정해: the predicate is the robot's own registry word
    return found[1][0]  # 가져다줘: even when it is an unsupported category's word


def _quoted_by_the_next(clauses: list[ClauseAnalysis], per: list[Reading], p: Patterns, listing: frozenset[tuple[str, str]]) -> None:
    """청정 돌려라 했는데 / 거실로 가라 했잖아: a command followed at once by a reporting verb is somebody's words
    quoted without a quotative particle, not a request to the robot; followed by a verb of showing (광고에 사진으로
    추억을 남기세요 나오잖아), it is what a screen or an advert says. Not a clause ending in a listing connective
    (`listing`, lexicon clauses.listing_connectives: 몰래 찍고 그러는 거 아니지?: acts listed, no words quoted)."""
    order = in_order(clauses)
    for i, j in zip(order, order[1:]):
        nxt, last = clauses[j].morphemes, clauses[i].morphemes[-1:]
        if last and key(last[0]) in listing:
            continue
        first = key(nxt[0]) if nxt else None
        quoted = per[i].mood in ("request", "state_question") and (first in p.reporting or first in p.display)
        # 음소거 해 줘 그러면 ...? / 지금 어디야 하고 물어보면: what one would say, asked about (not 그럼 좋아지겠지: a hope)
        asked_then = per[i].mood == "request" and first in p.quoting_conj and per[j].mood in QUESTION_MOODS \
            and not any(key(m) in p.supposed for m in nxt)
        if quoted or asked_then:
            per[i].reported = True
            per[i].signals.append(f"quoted_by:{nxt[0].form}")


def _stop_said_to_somebody(clauses: list[ClauseAnalysis], per: list[Reading], p: Patterns) -> None:
    """Which stops are no voice stop for the robot (멈춰, 가지 마 still are): one said with a prohibition of an act
    none of the robot's (야 그만 해라, 장난치지 마라) or in a turn that calls people is theirs; one aimed at another
    thing (TV 꺼) is a request for it; one repeated or quoted is told."""
    forbids_other = any(r.polarity == "prohibited" and not c.capabilities and not c.mentions and c.has_predicate
                        for c, r in zip(clauses, per))
    people = calls_people(clauses, per, p)  # (그만 좀 해라 너네 / 다들 의자에 앉는 거야 자 정지)
    for r in per:
        if r.mood == "stop" and (forbids_other or people or r.agent == "third_person"):
            r.mood, r.agent = "request", "third_person"
            r.signals.append("stop_said_to:somebody")
        elif r.mood == "stop" and r.target_owner:  # TV 꺼 / 꺼 스마트 플러그: a request for that thing, no voice stop
            r.mood = "request"
        elif r.mood == "stop" and r.reported:  # 따라 해 봐 꺼: words repeated or quoted stop nothing
            r.mood = "statement"
            r.signals.append("stop_reported")


def _bodies_moved(clauses: list[ClauseAnalysis], per: list[Reading], lex: SpeechActLexicon) -> None:
    """손뼉을 치며 빙글빙글 돌아요 / 빙글빙글 돌아라 ... 손뼉 치고 멈춰라: a request to move a body part or to dance or jump
    (speech_acts body_parts, body_verbs) is said to people; so are the turn's other requests and stops."""
    parts, verbs = lex.body_part_set, lex.body_verb_set
    moved = None
    for c, r in zip(clauses, per):
        ms = [key(m) for m in c.morphemes]
        objects = [a for i, a in enumerate(ms[:-1]) if a[0] in parts and a[1] == "NNG"
                   and (ms[i + 1][1] in ("JKO", "VV") or (i + 2 < len(ms) and ms[i + 1][1] == "JX" and ms[i + 2][1] == "VV"))]
        # (심장 뛰는 거 재 줘: a verb qualifying a noun is nobody's move)
        said = [k for i, k in enumerate(ms) if k in verbs and not (i + 1 < len(ms) and ms[i + 1][1] == "ETM")]
        if r.mood in ("request", "stop") and (objects or said):
            moved = (objects or said)[0][0]
    for r in per if moved else []:
        if r.mood in ("request", "stop") and r.agent == "robot":
            r.mood, r.agent = "request", "third_person"
            r.signals.append(f"body_act:{moved}")


def _run_into_a_remark(clauses: list[ClauseAnalysis], per: list[Reading], nt: NormalizedText, registry: Registry) -> None:
    """사진 좀 찍어 줘, 지금 예쁘다: a request run on after a comma (or with nothing written between: a recogniser
    that writes no marks) into anything but another request, for what people ask of each other too (speech_acts
    asked_of_people_too) and the robot called nowhere, is read as part of the remark (a statement): it may be said to
    somebody in the room (볼륨 좀 올려 줘, 잘 안 들려 still asks the robot). Not into a clause of time (측정 좀 해 주고 끝나면
    사진 찍어 줘: what comes after it is sequenced), nor into what keeps happening (꺼 줘, 자꾸 내 쪽으로만 바람 와: why)."""
    if robot_called(r.signals for r in per):
        return
    people = set(registry.speech_acts.asked_of_people_too)
    plain_bids = plain_endings(registry)
    order = in_order(clauses)
    unmarked = not any(mark in nt.text for mark in ",.?!")  # 사진 좀 찍어 줘 오늘 ... 말이야: heard with no marks at all
    for n, (i, after) in enumerate(zip(order, order[1:])):
        c, r = clauses[i], per[i]
        comma = nt.text[c.start:max(c.end, clauses[after].start)].rstrip().endswith(",")  # (the cut before or after it)
        plain = not r.final or bool(c.morphemes) and c.morphemes[-1].form in plain_bids  # (찍어 줘, ...: its -어 closes it)
        if ((comma and plain) or (unmarked and clauses[after].has_predicate)) and r.mood == "request" \
                and per[after].mood != "request" and "habitual" not in per[after].signals and clauses[after].role != "temporal" \
                and c.capabilities and all(h.capability_id in people for h in c.capabilities):
            r.mood = per[after].mood if per[after].mood in ("statement", "exclamation", "question") else "statement"
            r.signals.append("run_into_a_remark")
            for j in reversed(order[:n]):  # 돌아 돌아 빙글빙글 돌아, ...: the verbs joined on go with it
                if clauses[j].connective in ENDS_SENTENCE or per[j].mood != "request" or per[j].final \
                        or any(h.capability_id not in people for h in clauses[j].capabilities):
                    break
                per[j].mood = r.mood
                per[j].signals.append("run_into_a_remark")


def _mark_messages(clauses: list[ClauseAnalysis], per: list[Reading]) -> None:
    """카톡 보내 줘 지금 간다고: a turn that ends in a bare quote right after a request says what the request
    is to pass on. The quote stays unlicensed; it is the request's argument, not somebody's reported talk."""
    order = in_order(clauses)
    at = len(order) - 2  # (문자 보내 저녁 먹고 들어간다고: the quoted sentence may run over clauses)
    while at >= 0 and "reported:from_sentence" in per[order[at]].signals:
        at -= 1
    if at < 0:
        return
    last, before = per[order[-1]], per[order[at]]
    bare_quote = last.reported and any(s.startswith("quotative:") for s in last.signals) and last.mood == "fragment"
    if bare_quote and before.mood in ACTING_MOODS and before.agent == "robot" and before.polarity == "affirmative" and not before.reported:
        before.signals.append("message_given")  # (the request: what it passes on is said, no talk of the speaker's)
        for i in order[at + 1:]:
            per[i].signals.append("message_of_request")


_REMARK_TAGS = frozenset({"VCP", "VCN", "VA", "VA-I", "VA-R", "XSA"})
"""Predicates that only state something (시간이다, 아니다, 춥다, 탁하다), read on the predicate itself: the lemma
`final_predicate` gives for 탁하 is its root."""


def _gives_a_reason(c: ClauseAnalysis, here: Reading, governing: Reading, after_reason: bool, p: Patterns) -> bool:
    """에어컨 켰으니까 (너는 바람 약으로 해 줘) / 에어컨 끄고 잘 거니까 (...): a clause ending in a premise (premise_endings),
    or joined on (reason_spreads_over) to one that does, gives the reason of its sentence; it asks for nothing."""
    return here.mood in ("fragment", "request", "statement") and governing.mood != "fragment" and (
        (c.connective, "EC") in p.premise or (after_reason and c.connective in p.reason_spreads))


def _spread_over_sentences(clauses: list[ClauseAnalysis], per: list[Reading], p: Patterns, directions: set[int]) -> None:
    """A clause joined to what follows by a connective takes the mood, time and voice of its sentence's last
    clause (not a bare direction, 물 좀 떠 | 와: the act before it governs); a person named as subject stays the
    agent of the clauses after it."""
    order = in_order(clauses)
    governing: Reading | None = None
    goal: str | None = None  # the governing act when the robot cannot do it
    governing_has_words = False
    governing_remark = False  # the governing clause remarks (a copula, an adjective, a habit): 시간이다, 춥다, 자꾸 돌아
    reason = False  # the clause after this one gives a reason (premise_endings)
    before = next((per[k] for k in reversed(order[:-1]) if clauses[k].role == "action" and clauses[k].connective in (
        *ENDS_SENTENCE, ",", *p.bare_connectives)), None)  # (가, 배터리 닳으면 안 되니까: a sentence of its own before the reason)
    for i in reversed(order):
        here, c = per[i], clauses[i]
        if i in directions:
            continue
        if governing is None and i == order[-1] and before is not None and before.mood == "request" \
                and (_ends_in(c, p.purpose_endings) or _ends_in(c, p.premise)):
            continue  # 켜 줘, 카메라 안 돌아가게 / 가, 배터리 닳으면 안 되니까: what the request is for, not its mood
        # (텔레비전 꺼라, 이제 잘 시간이다: an imperative -어라 before a comma ends a sentence of its own)
        commands = "verb_imperative" in here.signals and c.connective == ","
        if (here.final or commands or c.connective in (".", "?", "!") or governing is None) and c.role == "action":
            governing, goal = here, _goal_beyond_the_robot(c, here, p)
            governing_has_words = bool(c.capabilities or c.rooms)
            last = final_predicate(c, p)
            governing_remark = (last is not None and c.morphemes[last[0]].tag in _REMARK_TAGS) or "habitual" in here.signals
            reason = False
            continue
        if governing is None or c.role != "action":
            continue
        by_means = c.connective in p.means and not (
            len(c.morphemes) >= 2 and key(c.morphemes[-2]) in p.sequence_aux)  # 하고 나서: after, not by means of
        if goal is not None and by_means:
            here.means_of = goal
            here.signals.append(f"means_of:{goal}")
        elif not by_means:
            goal = None  # -고 starts an act of its own
        after_reason, reason = reason, False
        if governing.cut_off:
            here.mood, here.cut_off = "fragment", True  # 거실로 가서 공: the sentence it leads into was cut off
            here.signals.append("cut_off:from_sentence")
        elif (here.mood == "request" and governing.mood in ("statement", "exclamation") and c.connective in p.bare_connectives
              and governing_remark and not governing.past and not governing.reported):
            here.signals.append("request_before_remark")  # 티비 좀 켜 봐 (9시 뉴스 할 시간이다): a reason, not a sequel
        elif (reason := _gives_a_reason(c, here, governing, after_reason, p)) or (
                here.mood == "request" and governing.mood == "request" and c.connective in p.bare_connectives
                and len(c.morphemes) >= 2 and c.morphemes[-1].tag == "EC" and c.morphemes[-2].tag.startswith(("VA", "XSA"))):
            here.mood = "statement"  # 거실 공기가 탁해 (청정 좀 해 줘): an adjective bids nothing, it tells the reason
            here.signals.append("reason_before_request")
        elif (here.mood in ("fragment", "request") and governing.mood != "fragment") or (
                here.mood == "stop" and governing.mood not in ("request", "stop", "fragment")):
            here.mood = governing.mood  # (켜고 끄고 할 수 있어요?: a stop joined on to a question is asked about too)
            if "deliberation" in governing.signals:  # 우리 거실 가서 영화 볼까: the move is deliberated too
                here.agent = governing.agent
                here.signals.append("deliberation")
        elif here.mood == "knowledge_question" and governing.mood == "suggestion" and c.connective in p.bare_connectives:
            here.mood = governing.mood  # 뭐 사 갈까: what to do is the speaker's deliberation, no act suggested
            for r in (here, governing):
                r.agent = "user"
                r.signals.append("deliberation")
        elif "joined_predicate" in here.signals and not governing_has_words:
            here.mood = "fragment"  # joined on to a fragment that asks for nothing: no command chain
        _carry_from_sentence(c, here, governing, p)
    agent_carried(clauses, per, order, p)


def _carry_from_sentence(c: ClauseAnalysis, here: Reading, governing: Reading, p: Patterns) -> None:
    """The doer, the voice (reported), the time (past) and a prohibition that a clause takes from its sentence."""
    if here.agent == "robot" and any(s.startswith("person_act:") for s in governing.signals):
        here.agent = "third_person"  # 밝기를 최대로 올린 뒤 저장을 누르세요: the acts of one sentence have one doer
        here.signals.append("agent:from_sentence")
    for flag in ("reported", "past"):
        if getattr(governing, flag) and not getattr(here, flag):
            setattr(here, flag, True)
            here.signals.append(f"{flag}:from_sentence")
    if governing.polarity == "prohibited" and c.connective in p.spreads:
        here.polarity = "prohibited"
        here.signals.append("prohibited:from_sentence")


def _answers_somebody(clauses: list[ClauseAnalysis], per: list[Reading], p: Patterns) -> None:
    """응, 거기서 돌아서 쭉 와 / 어 그래, 매너 모드로 해 놔: a turn that opens by answering somebody (the robot asked
    nothing) speaks to that person; the call spreads to the rest of the turn as a vocative does."""
    if not clauses:
        return
    first = min(range(len(clauses)), key=lambda i: clauses[i].start)
    ms = [(m.form, m.tag) for m in clauses[first].morphemes]
    at = next((i for i, k in enumerate(ms) if k[1] not in ("IC", "SP") or any(seq[0] == k for seq in p.voc_answers)), len(ms))
    answer = next((seq for seq in p.voc_answers if tuple(ms[at:at + len(seq)]) == seq), None)
    if answer is not None and syllable_written_on(clauses[first].morphemes, at + len(answer)):
        answer = None  # 네일 말리게 (네/IC 일/NNG): a syllable of the word written on, no answer
    if answer is not None and not robot_called([per[first].signals]) \
            and not assistant_called(per[first].signals):  # (응 로봇아 / 응 헤이 구글 ...)
        per[first].agent = "third_person"
        per[first].signals += [f"vocative:{answer[0][0]}", "answers_somebody"]


def _speech_act(c: ClauseAnalysis, r: Reading, words_max: int, p: Patterns) -> SpeechAct:
    """The frozen contract of a reading, with the two licences it grants."""
    clean = r.polarity == "affirmative" and r.agent == "robot" and not r.reported and not r.target_owner and not r.means_of \
        and "standing_rule" not in r.signals and DESCRIBED not in r.signals  # (우리 집 로봇은 ... 찍어: told about)
    short_fragment = r.mood == "fragment" and len(c.text.split()) <= words_max and not r.cut_off
    return SpeechAct(
        clause=c.index, mood=r.mood, polarity=r.polarity, agent=r.agent, reported=r.reported, past=r.past,
        target_owner=r.target_owner, quoted_until=r.quoted_until, displayed=r.displayed, means_of=r.means_of,
        signals=r.signals,
        licenses_action=clean and not r.past and (r.mood in ACTING_MOODS or short_fragment),
        licenses_state_query=(r.agent == "robot" and not r.reported and not r.target_owner and "standing_rule" not in r.signals
                              and (r.polarity == "affirmative" or (r.polarity == "negated" and r.mood in ("state_question", "question")))
                              and (r.mood in _ASKING or short_fragment)
                              and not (r.past and (r.mood not in ("state_question", "question") or "past_perfect" in r.signals))
                              and not (r.mood in _ASKING and (supposes(c, p) or SUPPOSED in r.signals))),
    )


def _ends_in(c: ClauseAnalysis, endings: frozenset) -> bool:
    last = next((m for m in reversed(c.morphemes) if not m.tag.startswith("S")), None)
    return last is not None and key(last) in endings


def _given_as_an_example(clauses: list[ClauseAnalysis], per: list[Reading], lex: SpeechActLexicon) -> None:
    """여러 가지 시켜도 돼? 안방 청정하고 충전대 가는 식으로: the sentence up to an example cue (speech_acts
    example_cues: -는 식으로, -는 것처럼) is an example of what could be said, never asked of the robot."""
    for i, c in enumerate(clauses):
        if not any(contains([key(m) for m in c.morphemes], run) for run in lex.example_runs):
            continue
        j = i
        while j > 0 and clauses[j - 1].connective not in ENDS_SENTENCE:
            j -= 1
        for r in per[j:i + 1]:
            if not r.reported:
                r.reported = True
                r.signals.append("example")


def _leave_given(clauses: list[ClauseAnalysis], per: list[Reading], p: Patterns) -> None:
    """고정청정 그만해도 돼 / 나이트 모드 이제 꺼도 돼, heard without "?": leave given to the robot to stop (speech_acts
    permission.granted, right before the permission ending) is a request to stop, not a question."""
    for c, r in zip(clauses, per):
        ms = [key(m) for m in c.morphemes]  # (그만/MAG 하/VV 어도: the word of stopping within two before the ending)
        if "permission_intoned" in r.signals and any(
                k in p.permit_end and any(g in p.permit_granted for g in ms[max(0, i - 2):i]) for i, k in enumerate(ms)):
            r.mood = "request"
            r.signals.append("permission_granted")


def _since_then(clauses: list[ClauseAnalysis], per: list[Reading], lex: SpeechActLexicon) -> None:
    """청정 시작한 뒤로 계속 안 멈춰 / 이사 온 뒤부터 자꾸 서: a clause that says since when (speech_acts since_cues:
    -ㄴ 뒤로, -ㄴ 후부터, -고 나서부터) narrates an event that happened, whatever ending Kiwi reads after it."""
    for c, r in zip(clauses, per):
        keys = [key(m) for m in c.morphemes]
        if not r.past and any(contains(keys, run) for run in lex.since_runs):
            r.past = True
            r.signals.append("past:since")


def _thought_of(clauses: list[ClauseAnalysis], per: list[Reading], lex: SpeechActLexicon) -> None:
    """센서 모드 켜 볼까 했는데 / 청정 돌릴까 해: what the speaker thought of doing (speech_acts thought_runs) asks
    nothing; its agent is the speaker."""
    for c, r in zip(clauses, per):
        if r.agent == "robot" and any(contains([key(m) for m in c.morphemes], run) for run in lex.thought_of_runs):
            r.agent = "user"
            r.signals.append("thought_of")


def _from_cue_on(clauses: list[ClauseAnalysis], runs) -> list[int]:
    """The clauses (in the order said) that end after the first of these cue runs; a cue may span a cut (따라 | 해)."""
    order = in_order(clauses)
    ms = [m for i in order for m in clauses[i].morphemes]
    keys = [key(m) for m in ms]
    at = next((ms[j].start for j in range(len(ms)) for run in runs if keys[j] == run[0] and tuple(keys[j:j + len(run)]) == run), None)
    return [] if at is None else [i for i in order if clauses[i].end > at]


def _recited(clauses: list[ClauseAnalysis], per: list[Reading], lex: SpeechActLexicon) -> None:
    """자 따라 해 보세요 오른쪽으로 돌아 / 받아쓰기 세 번째 사진을 찍어 주세요: from a recitation cue on, the turn's
    words are repeated, written down or played with (speech_acts recitation_cues): reported, never asked. A turn with a
    word about words (mention_cues: 서재로 가라 이거 띄어쓰기 맞는 거야) only mentions every act it names."""
    said = [key(m) for c in clauses for m in c.morphemes]
    mentioned = any(contains(said, run) for run in lex.mention_runs)
    for i in range(len(clauses)) if mentioned else _from_cue_on(clauses, lex.recitation_runs):
        if not per[i].reported:
            per[i].reported = True
            per[i].signals.append("recited")


def _standing_rule(clauses: list[ClauseAnalysis], per: list[Reading], lex: SpeechActLexicon) -> None:
    """다음부터 사진 찍을 땐 나한테 먼저 물어봐 / 앞으로는 밤에 나이트 모드 켜 줘: from a standing-rule cue on
    (speech_acts standing_rule_cues), the turn says what to do on later occasions; nothing in it is asked now."""
    for i in _from_cue_on(clauses, lex.standing_rule_runs):
        per[i].signals.append("standing_rule")


def _ends_on_a_conjunction(c: ClauseAnalysis) -> bool:
    """그게 아니라 내 말은 그러니까: the turn's last word is a conjunction (MAJ) after something said in the same clause:
    a new sentence began and stopped (conjunctions alone, 알려줘 그리고 그리고, leave the sentence before them whole)."""
    said = [m.tag for m in c.morphemes if m.tag != "IC" and not m.tag.startswith("S")]
    return len(said) > 1 and said[-1] == "MAJ" and any(tag != "MAJ" for tag in said)


def _trails_off(c: ClauseAnalysis, nt: NormalizedText, lex: SpeechActLexicon) -> bool:
    """A predicate-less turn of one clause is unfinished: the voice trailed off (배터리...), or its last word ends on a
    particle that promises a predicate, with at most an adverb or a filler after it (배터리는, 공기가 좀, 청정을 어), or
    on a conjunction (말은 그러니까)."""
    if "?" in nt.original or (c.has_predicate and not only_modifiers(c) and not _ends_on_a_conjunction(c)):
        return False  # 공기 상태도?: asked, not unfinished
    if any(nt.original.rstrip().endswith(mark) for mark in lex.trailing_marks):
        return True
    words = [m for m in c.morphemes if m.tag not in ("MAG", "IC") and not m.tag.startswith("S")]
    return _ends_on_a_conjunction(c) or bool(words) and (words[-1].form, words[-1].tag) in lex.trailing_particle_set


def speech_acts(clause_candidates: list[ClauseAnalysis], normalized_text: NormalizedText, history_evidence: HistoryEvidence,
                registry: Registry) -> list[SpeechAct]:
    """Mood, polarity, agent, reported speech, time and target of every clause, with their signals."""
    p = patterns(registry)
    per = []
    whole = "".join(c.text for c in clause_candidates)
    paired = tuple(mark for mark in p.quote_marks if whole.count(mark) >= 2)
    for c in clause_candidates:
        reading = read_clause(c, p, paired)
        reading.target_owner = owned_by_other_thing(c, registry.speech_acts)
        if reading.mood == "stop" and reading.target_owner is None:
            reading.target_owner = thing_named(c, registry.speech_acts)  # TV 꺼 / 세탁기 멈춰: another thing's stop
        person_before_a_setting(c, reading, p)
        a_rooms_purifier(c, reading, p)
        if reading.target_owner:
            reading.signals.append(f"target:{reading.target_owner}")
        per.append(reading)
    if clause_candidates:
        last = last_said(clause_candidates)
        cut = cut_off_word(clause_candidates[last], matchers_for(registry))
        if cut is not None:
            per[last].mood, per[last].cut_off = "fragment", True
            per[last].signals.append(f"cut_off_word:{cut}")
        elif (len(clause_candidates) == 1 and per[last].mood == "fragment" or _ends_on_a_conjunction(clause_candidates[last])) \
                and _trails_off(clause_candidates[last], normalized_text, registry.speech_acts):
            per[last].cut_off = True  # 배터리... / 거실 청정을 어: the speaker stopped before saying what of it
            per[last].mood = "fragment"  # (청정 켜고 그리고: a sentence begun and stopped)
            per[last].signals.append("trails_off")
    broken_off_pieces(clause_candidates, per, normalized_text)
    _quoted_by_the_next(clause_candidates, per, p, matchers_for(registry).listing_connectives)
    if not history_evidence.addressee_spoke_last:
        _answers_somebody(clause_candidates, per, p)
    called_first(clause_candidates, per, p, registry.speech_acts)
    directions = {i for i in bare_directions(clause_candidates, normalized_text, matchers_for(registry))  # 떠 와 (not 들고 왔어,
                  if per[i].mood == "request" and not per[i].past and per[i].agent == "robot"}            # 쐬고 올게: they tell)
    asked_on_its_own(clause_candidates, per, p)
    _spread_over_sentences(clause_candidates, per, p, directions)
    called_at_the_end(clause_candidates, per, p)
    retracted(clause_candidates, per, matchers_for(registry).retraction, registry.speech_acts.retraction_set)
    trailed_off(clause_candidates, per, normalized_text.original, registry.speech_acts.trailing_marks)
    called_after_the_request(clause_candidates, per, normalized_text)
    honoured_by_the_request(clause_candidates, per, registry.speech_acts)
    owners_across(clause_candidates, per, registry.speech_acts)
    _recited(clause_candidates, per, registry.speech_acts)
    _standing_rule(clause_candidates, per, registry.speech_acts)
    _thought_of(clause_candidates, per, registry.speech_acts)
    _since_then(clause_candidates, per, registry.speech_acts)
    _leave_given(clause_candidates, per, p)
    _given_as_an_example(clause_candidates, per, registry.speech_acts)
    planned_among_people(clause_candidates, per, registry.speech_acts, p, matchers_for(registry))
    _stop_said_to_somebody(clause_candidates, per, p)
    _bodies_moved(clause_candidates, per, registry.speech_acts)
    asked_of_someone_away(clause_candidates, per, registry.speech_acts, p, matchers_for(registry))
    _mark_messages(clause_candidates, per)
    supposed_by_a_condition(clause_candidates, per, p)
    follows_up_an_answer(clause_candidates, per, registry)
    one_question_of_alternatives(clause_candidates, per)
    clarified_after(clause_candidates, per, registry.speech_acts)
    _run_into_a_remark(clause_candidates, per, normalized_text, registry)
    not_heard(clause_candidates, per, registry)
    words_max = registry.speech_acts.fragment_max_words
    return [_speech_act(c, r, words_max, p) for c, r in zip(clause_candidates, per)]


def clause_analyses(clause_candidates: list[ClauseAnalysis], speech_acts: list[SpeechAct], history_evidence: HistoryEvidence, turn_input: TurnInput,
                    registry: Registry) -> list[ClauseAnalysis]:
    """The clauses with only the hits their speech act licenses (the rest kept as mentions), and the acts the context completes."""
    return in_context(license_clauses(clause_candidates, speech_acts, registry), history_evidence, turn_input.workflow_context, registry)


def clause_candidates(normalized_text: NormalizedText, registry: Registry) -> list[ClauseAnalysis]:
    """Clauses of the utterance with every registry anchor, room, time and cue they hold (before licensing)."""
    return analyse(normalized_text, registry, matchers_for(registry))
