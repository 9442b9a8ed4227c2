"""What a turn supposes or plans rather than asks: a question after a condition, a clause that supposes (-어야,
-어도), what one would be told when one asks (물어보면 알려 줘?), a question that follows up what was said of the
product (아까 ... 했잖아, 그럼 ...?), and a suggestion made among the people present."""

from __future__ import annotations

from registry.loader import Registry
from registry.speech_contracts import SpeechActLexicon
from stages._addressee import robot_called
from stages._asked_about import product_topic
from stages._clauses import QUESTION_MOODS, ClauseAnalysis, in_order, thing_named
from stages._matchers import Matchers, public_place_of
from stages._predicates import final_predicate
from stages.clause_reading import Reading
from stages.speech_patterns import Patterns, contains, key, patterns

SUPPOSED = "supposed_by_condition"
"""The signal of a question asked under a condition: what would be then, not the robot's state now."""


def supposed_by_a_condition(clauses: list[ClauseAnalysis], per: list[Reading], p: Patterns) -> None:
    """터보로 돌리면 배터리 금방 닳아?: a question right after a condition asks what would be then, not what the robot's
    state is now (a request after one is still a guarded request: 나쁘면 알려 줘). A condition of being asked
    (speech_acts asking_verbs: 어느 방에 있는지 물어보면 알려 줘?), or of being told something (a quotative: 사진 찍어
    줘라고 하면 찍어 줘?), makes a question after it ask how the robot
    answers then: a question about the robot, not a request to tell it now."""
    order = in_order(clauses)
    for before, i in zip(order, order[1:]):
        if clauses[before].role != "guard":
            continue
        asked = any(key(m) in p.asking_verbs or key(m) in p.quotatives for m in clauses[before].morphemes)
        asking = per[i].mood in ("state_question", "question") or (per[i].mood == "request" and "?" in clauses[i].text + clauses[i].connective)
        if asked and asking:
            per[i].mood = "knowledge_question"
            per[i].signals.append("asked_what_then")
        elif per[i].mood in ("state_question", "question"):
            per[i].signals.append(SUPPOSED)


def supposes(c: ClauseAnalysis, p: Patterns) -> bool:
    """몇 이하여야 좋음으로 나와? 터보로 돌려도 배터리 남아 있을까?: a clause that supposes (-어야, -어도 joined to its
    predicate) asks what would be, not what the robot's state is now; one with 원래 / 보통 asks what is usual. Only
    after the clause's last premise (아무리 찾아도 안 보이길래 물어보는 건데 너 지금 어디야: the preface supposes nothing)."""
    keys = [key(m) for m in c.morphemes]
    start = max((i + 1 for i, k in enumerate(keys[:-1]) if k in p.premise), default=0)
    return any(k in p.supposing for k in keys[start:-1]) or any(k in p.usual for k in keys[start:])


def one_question_of_alternatives(clauses: list[ClauseAnalysis], per: list[Reading]) -> None:
    """너 바닥 청소도 되는 거야 아니면 공기만 하는 거야: two sentences offered as alternatives ask one thing; when one
    asks about the robot (knowledge_question), the other does too and checks no state of its own; when one asks the
    robot's state, the other is the same state asked (안방 공기 괜찮아요 아니면 안 좋아요)."""
    for i in range(len(clauses) - 1):
        if not (clauses[i].alternative and clauses[i + 1].alternative):
            continue
        moods = {per[i].mood, per[i + 1].mood}
        if "knowledge_question" in moods and moods <= {"knowledge_question", "state_question", "question"}:
            for j in (i, i + 1):
                if per[j].mood != "knowledge_question":
                    per[j].mood = "knowledge_question"
                    per[j].signals.append("alternative_of_a_knowledge_question")
        elif "state_question" in moods and moods <= {"state_question", "question", "statement"}:
            for j in (i, i + 1):  # 안방 공기 괜찮아요 아니면 안 좋아요: the other half of one state asked, negated or not
                if per[j].mood != "state_question" or per[j].polarity != "affirmative":
                    per[j].mood, per[j].polarity = "state_question", "affirmative"
                    per[j].signals.append("alternative_of_a_state_question")


def asked_on_its_own(clauses: list[ClauseAnalysis], per: list[Reading], p: Patterns) -> None:
    """알아서 안방 가서 청정해 줘?: an adverb of doing it on its own (scope_question autonomy_runs) in a clause joined to
    a request asked with "?" asks whether the robot does that, as it does in the request's own clause."""
    order, start = in_order(clauses), 0
    for n, i in enumerate(order):
        c = clauses[i]
        if not (per[i].final or c.connective in (".", "?", "!") or n == len(order) - 1):
            continue
        before, start = order[start:n], n + 1
        if per[i].mood == "request" and "?" in c.text + c.connective and any(
                contains([key(m) for m in clauses[j].morphemes], run) for j in before for run in p.autonomy):
            per[i].mood = "knowledge_question"
            per[i].signals.append("asks_autonomy")


def _proposes(c: ClauseAnalysis, p: Patterns) -> bool:
    """The clause's own ending proposes (-자), not asks (-ㄹ까요)."""
    said = [key(mo) for mo in c.morphemes if not mo.tag.startswith("S")]
    return bool(said) and said[-1] in p.suggest_end and said[-1] not in p.deliberate_end


def _peoples_act(c: ClauseAnalysis, p: Patterns, lex: SpeechActLexicon) -> bool:
    """라면 끓여 먹자 / 거실 가서 영화 보자: an act the robot cannot do (no capability word, a predicate that is none of its
    registry words, and no neutral goal such as looking or waiting unless what is looked at is played or another thing)."""
    found = final_predicate(c, p) if not c.capabilities else None
    if found is None or c.in_registry_word[found[0]]:
        return False
    return found[1] not in p.neutral_goals or thing_named(c, lex) is not None \
        or any(m.form in lex.other_targets.played for m in c.morphemes)


def _outing(c: ClauseAnalysis, lex: SpeechActLexicon, m: Matchers) -> bool:
    """불꽃놀이 사진 찍으러 한강 가자: going (person_purposes motions) to a place of the world named right before the verb
    (a proper noun that is no registry word, a public place, or a place people go: person_purposes away_places) is the
    people's outing, whatever it is for."""
    ms = c.morphemes
    for k in (k for k, mo in enumerate(ms) if mo.tag == "VV" and mo.form in lex.person_purposes.motions):
        j = next((j for j in range(k - 1, -1, -1) if not ms[j].tag.startswith("J")), -1)
        if j >= 0 and ((ms[j].tag == "NNP" and not c.in_registry_word[j]) or ms[j].form in lex.person_purposes.away_places
                       or public_place_of(ms[j:j + 1], m)):
            return True
    return False


def planned_among_people(clauses: list[ClauseAnalysis], per: list[Reading], lex: SpeechActLexicon, p: Patterns,
                         m: Matchers) -> None:
    """내일 손님 오시기 전에 거실 청정 한번 돌리자: a suggestion (-자) the turn puts later (later_cues), with nothing said
    to be now (now_cues: 지금 얼른 청정 돌리자 still asks), one to do together (together_cues: 거실로 나와서 같이
    티비 보자), or one with an act the robot cannot do (주방 가서 라면 끓여 먹자) or going out (사진 찍으러 한강 가자) is a
    plan among the people present: theirs to carry out, not the robot's now."""
    if not any(r.mood == "suggestion" and r.agent == "robot" for r in per):
        return
    said = [key(m) for c in clauses if c.role == "action" for m in c.morphemes]  # (지금 돌리면 시끄러워: a condition)
    later = any(contains([key(m) for c in clauses for m in c.morphemes], run) for run in lex.later_runs) \
        and not any(contains(said, run) for run in lex.now_runs)
    together = any(contains([key(m) for m in c.morphemes], run) for c, r in zip(clauses, per) if r.mood == "suggestion"
                   for run in lex.together_runs)
    proposals = [(c, _proposes(c, p)) for c, r in zip(clauses, per) if r.mood == "suggestion" and c.role == "action"]
    shared = any(own for _, own in proposals) and any(  # (할머니 댁 가서 사진 찍자: the going is joined on to the -자)
        (own and _peoples_act(c, p, lex)) or _outing(c, lex, m) for c, own in proposals)
    if not (later or together or shared):
        return
    for r in per:  # (로봇아 같이 사진 찍자: the robot called takes part)
        if r.mood == "suggestion" and r.agent == "robot" and (later or not robot_called([r.signals])):
            r.agent = "user"
            r.signals.append("planned_for_later" if later else "done_together")


def clarified_after(clauses: list[ClauseAnalysis], per: list[Reading], lex: SpeechActLexicon) -> None:
    """방마다 몇 분씩 머무는 거요? 전체 청정 말이오 / 그거 끌 때는 뭐라 하면 되나? 제자리 청정 말이다: a clause said after a
    question that is only what it was about and "I mean" (speech_acts afterthought_markers, X 말이야) asks what that
    question asked; it is no request of its own (after a request, 거기 가 줘 서재 말이야, it still names the request's room)."""
    order = in_order(clauses)
    for before, i in zip(order, order[1:]):
        keys = [key(m) for m in clauses[i].morphemes if not m.tag.startswith(("S", "E"))]
        if per[before].mood in QUESTION_MOODS and any(tuple(keys[-len(run):]) == run for run in lex.afterthought_runs):
            per[i].mood = per[before].mood
            per[i].signals.append("clarifies_the_question")


def follows_up_an_answer(clauses: list[ClauseAnalysis], per: list[Reading], registry: Registry) -> None:
    """아까 보증 1년이라 했잖아. 그럼 그거 언제부터 세는 거야? / 아까 매너 모드 말씀하셨는데, 그럼 그거 켜도 알람은
    울려요?: a question opened by 그럼 / 그러면 (speech_acts quoting_conjunctions) right after a clause that recalls,
    told as past or as somebody's words, something of the product (a product topic or part named) asks what
    follows from it: a question for the manual, neither the state now nor talk."""
    p, order = patterns(registry), in_order(clauses)
    for before, i in zip(order, order[1:]):
        b = clauses[i]
        opens = next((m for m in b.morphemes if not m.tag.startswith("S")), None)
        if opens is None or key(opens) not in p.quoting_conj or not (per[i].mood in QUESTION_MOODS or "?" in b.text + b.connective):
            continue  # (the opening word is looked at first: most turns have no 그럼 and need no product lookup)
        if _recalls_the_product(clauses[before], per[before], p, registry):
            per[i].mood = "knowledge_question"
            per[i].signals.append("follows_up_an_answer")


def _recalls_the_product(a: ClauseAnalysis, recalled: Reading, p: Patterns, registry: Registry) -> bool:
    """The clause tells, as past or as somebody's words, something of the product: a product topic or part named, or a
    capability told of (매너 모드 말씀하셨는데)."""
    if not (recalled.past or recalled.reported) or recalled.mood in QUESTION_MOODS:
        return False
    told_of = bool(a.capabilities) and (recalled.reported or any(key(m) in p.telling for m in a.morphemes))
    return bool(a.qna_topics) or product_topic(a, registry) is not None or told_of
