"""What a question or a report to the robot is about: the product (a question about it, a problem report),
the robot's own doing, a thing of the world, a place outside the home.

No nodes here: helpers of the evidence axes (stages/anchors.py), each a pure function of a clause and the registry.
"""

from __future__ import annotations

from registry.loader import Registry
from registry.product_contracts import PRODUCT_NOUN_TAGS
from stages._addressee import robot_called
from stages._clauses import QUESTION_MOODS, ClauseAnalysis, thing_before, thing_named
from stages._matchers import matchers_for, public_place_of
from stages.speech_patterns import contains, key, patterns, quotes_bare


_COMPOUND_TAILS = ("NNG", "NNB", "XSN")
"""Tags of a morpheme Kiwi may split off a compound product noun (표시등 read as 표시/NNG 등/NNB)."""


def product_topic(c: ClauseAnalysis, registry: Registry) -> str | None:
    """The first whole noun of the clause that names this product or one of its parts or properties."""
    words = registry.product.words
    for i, (mo, at) in enumerate(zip(c.morphemes, c.compact_offsets)):
        nxt = c.morphemes[i + 1] if i + 1 < len(c.morphemes) else None
        joined = mo.form + nxt.form if nxt is not None and nxt.tag in _COMPOUND_TAILS else None  # 표시/NNG 등/NNB
        if mo.tag in PRODUCT_NOUN_TAGS and (mo.form.lower() in words or (joined and joined.lower() in words)):
            # 엄마 폰 화면: the part belongs to another thing in the home, not to the robot;
            # 예전에 쓰던 공기청정기: a thing of the past, not this one
            found = joined if joined and joined.lower() in words else mo.form
            return None if _bygone(c, i, registry) or thing_before(c, registry.speech_acts, [at]) else found
    return None


def _bygone(c: ClauseAnalysis, i: int, registry: Registry) -> bool:
    """Whether the noun phrase ending in morpheme i is qualified as a thing of the past (예전에 쓰던 공기청정기)."""
    j = i
    while j > 0 and c.morphemes[j - 1].tag in PRODUCT_NOUN_TAGS:
        j -= 1
    return j > 0 and f"{c.morphemes[j - 1].form}/{c.morphemes[j - 1].tag}" in registry.speech_acts.retrospective_modifiers


_SUBJECT_TAGS = ("JKS", "JX")


def _negator_at(c: ClauseAnalysis, registry: Registry) -> int | None:
    """Index of the clause's first negator (안, 못, 않), not one inside a registry word."""
    negators = patterns(registry).negators
    return next((i for i, m in enumerate(c.morphemes) if (m.form, m.tag) in negators and not c.in_registry_word[i]), None)


def negated_fact(c: ClauseAnalysis, registry: Registry, at: int | None) -> bool:
    """Whether the clause's negation (its negator at `at`, see _negator_at) falls on a verb said as a fact (안 돼,
    안 올라가, 꼼짝을 안 해): not on an adjective (안 좋아서, 어렵지 않더라: an evaluation) nor on what the speaker
    will or won't do (안 할래, 안 돌릴 거야)."""
    act = c.act
    if at is None or act is None or act.polarity != "negated" or "not_needed" in act.signals:
        return False
    ms = [(m.form, m.tag.split("-")[0]) for m in c.morphemes]
    if any(contains(ms, run) for run in registry.speech_acts.intention_runs):
        return False
    if ms[at][1] == "MAG":  # 안 / 못 before the predicate
        tag = next((t for _, t in ms[at + 1:] if t.startswith(("VV", "VA", "XSV", "XSA"))), "")
    else:  # -지 않 / -지 못하 after it
        tag = next((t for _, t in reversed(ms[:at]) if t.startswith(("VV", "VA", "XSV", "XSA"))), "")
    return tag in ("VV", "XSV")


def _failing_function(c: ClauseAnalysis, registry: Registry, at: int) -> str | None:
    """The device word a negated fact (negator at `at`) says does not work (충전이 안 돼요, 밝기가 안 올라가요): a
    capability word (not a room) marked as the subject right before 안 / 못, nobody else's thing."""
    if c.capabilities or at < 2:
        return None
    noun, particle = c.morphemes[at - 2], c.morphemes[at - 1]
    rooms = {a.surface for a in c.anchors if a.kind == "room"}
    device_word = c.in_registry_word[at - 2] or (noun.form, noun.tag) in patterns(registry).failing_activities  # 인식이 안 돼
    if c.morphemes[at].tag != "MAG" or noun.tag not in ("NNG", "NNP") or particle.tag not in _SUBJECT_TAGS \
            or not device_word or noun.form in rooms:  # 충전이 안 돼: noun, particle, 안 / 못
        return None
    return None if thing_before(c, registry.speech_acts, [c.compact_offsets[at - 2]]) else noun.form


def _activity_refused(c: ClauseAnalysis, registry: Registry, at: int) -> str | None:
    """작동을 안 해, 반응을 안 해, 꼼짝을 안 해: an activity of the device (speech_acts failing_activities) as the object
    of a negated 하다, said of nobody named: the product does not do it."""
    if at < 2 or at + 1 >= len(c.morphemes):
        return None
    noun, particle, verb = c.morphemes[at - 2], c.morphemes[at - 1], c.morphemes[at + 1]
    known = (noun.form, noun.tag) in patterns(registry).failing_activities
    light = (verb.form, verb.tag) in registry.frames.light_set  # 안 해: the light verb of the activity noun
    return noun.form if known and particle.tag == "JKO" and light else None


def _stopping_function(c: ClauseAnalysis, registry: Registry) -> str | None:
    """The device word (a capability word, not a room, nobody else's thing) marked as the subject of the clause's
    malfunction predicate (청정이 자꾸 멈춰, 충전이 중간에 끊겨)."""
    if c.capabilities:
        return None
    rooms = {a.surface for a in c.anchors if a.kind == "room"}
    for i, (noun, particle) in enumerate(zip(c.morphemes, c.morphemes[1:])):
        if noun.tag in ("NNG", "NNP") and particle.tag == "JKS" and c.in_registry_word[i] and noun.form not in rooms:
            broken = patterns(registry).malfunction - patterns(registry).exists  # (사진이 필요 없어: nothing wrong)
            if any((m.form, m.tag.split("-")[0]) in broken for m in c.morphemes[i + 2:]) and not _bygone(c, i, registry) \
                    and not thing_before(c, registry.speech_acts, [c.compact_offsets[i]]):
                return noun.form
            return None
    return None


def calls_a_person(act) -> bool:
    """The clause calls a person (아빠, 당신, 민수야), not the robot nor another assistant (시리나 구글로 부를 수 있어?)."""
    called = {s.split(":", 1)[1] for s in act.signals if s.startswith("vocative:")}
    return bool(called - {s.split(":", 1)[1] for s in act.signals if s.startswith("assistant_vocative:")})


def asks_of_another_thing(act, carried_things) -> bool:
    """The clause asks about another thing in the home (에어컨 켜져 있어?, 티비 뭐 나와?): a question, or a state asked
    of a thing nobody carries (폰 배터리 몇 프로야 is its owner's to answer). Not knowing aloud (볼륨 버튼이 어디
    있는지 모르겠네) asks nobody about it."""
    if act.target_owner is None:
        return False
    return (act.mood == "question" and "not_knowing" not in act.signals) or (
        act.mood == "state_question" and act.target_owner not in carried_things)


def of_somebody_named(c: ClauseAnalysis, registry: Registry) -> bool:
    """민수는 왜 안 와? 심판은 뭐 하는 거야: the clause's subject is somebody named (a person, 누구), so what it asks
    or says is about their doing, not the robot's; not a subject of a premise said before it (애가 화면을 눌러 대는데
    그거 막을 수 있어?: the child presses, the robot is asked)."""
    act = c.act
    if act is None or act.agent != "third_person":
        return False
    named = {s.split(":", 1)[1] for s in act.signals if s.startswith("subject:")}
    at = next((i for i, m in enumerate(c.morphemes) if m.form in named), None)
    premise = patterns(registry).premise
    return at is not None and not any(key(m) in premise for m in c.morphemes[at + 1:])


def _may_be_the_robots(clauses: list[ClauseAnalysis]) -> bool:
    """The turn licenses a device step in some clause, or calls the robot: whatever else it says, it may be the
    robot's, so neither a person's call nor a distal reference takes it away."""
    return any(c.capabilities for c in clauses) or robot_called(c.act.signals for c in clauses if c.act is not None)


def said_to_a_person(clauses: list[ClauseAnalysis]) -> list[str]:
    """Whom the turn is said to when that is a person (여보 이 로봇 보증 기간이 몇 년이라 그랬지? 사진 좀 찍어 줘
    언니): a person called in one of its clauses (the call spreads to the clauses after it), and neither the robot
    called (엄마 잠깐만, 로봇아 거실 가) nor a device step licensed in any clause. Empty when the turn may be the robot's."""
    acts = [c.act for c in clauses if c.act is not None]
    if not any(calls_a_person(a) for a in acts) or _may_be_the_robots(clauses):
        return []
    called = ["answering" if "answers_somebody" in a.signals else s.split(":")[-1]  # (응, ...: whoever asked)
              for a in acts for s in a.signals if s.startswith("vocative:")]
    assistants = {s.split(":", 1)[1] for a in acts for s in a.signals if s.startswith("assistant_vocative:")}
    # (헤이 구글 ... 잠가: the call that spreads to the next clause is an assistant's, not a person's)
    return list(dict.fromkeys(x for x in called if x not in assistants and x != "from_previous_clause"))


def talked_about(clauses: list[ClauseAnalysis], lex) -> str | None:
    """The distal reference (speech_acts distal_references: 저 로봇, 쟤) by which the turn talks about the robot to
    somebody else, when nothing in it calls the robot or is licensed; None otherwise."""
    if _may_be_the_robots(clauses):
        return None
    for c in clauses:
        if c.act is not None and c.act.mood in QUESTION_MOODS and c.act.polarity == "affirmative" and not c.act.reported \
                and not c.act.past:
            continue  # 그 로봇 계단도 내려가요?: what it does or can do, asked with nobody called, the robot may answer
            # (저 로봇 필터 갈 때 된 거 같지 않아?: an opinion sought from whoever is there is still talk about it)
        ms = [(m.form, m.tag) for m in c.morphemes]
        run = next((r for r in lex.distal_runs if contains(ms, r)), None)
        if run is not None:
            return " ".join(f for f, _ in run)
    return None


def _malfunction(c: ClauseAnalysis, registry: Registry) -> tuple[str, str] | None:
    """The clause's first malfunction predicate (speech_acts malfunction_predicates) as (lemma, base tag), if any."""
    broken = patterns(registry).malfunction
    return next((k for m in c.morphemes if (k := (m.form, m.tag.split("-")[0])) in broken), None)


def _trouble_happens(c: ClauseAnalysis, registry: Registry) -> bool:
    """프리필터에서 쉰내가 나요: an event verb (speech_acts event_verbs) said of something, whatever the clause's subject,
    unless what happens is inside a person (inner_events: 짜증 나, 맛이 날 텐데)."""
    p, ms = patterns(registry), [(m.form, m.tag) for m in c.morphemes]
    at = next((i for i, k in enumerate(ms) if k in p.event_verbs), None)
    if at is None or (at and ms[at - 1] in p.lessening):
        return False  # (냄새가 덜 나: less of it is better, not trouble)
    return next((k for k in reversed(ms[:at]) if k[1].startswith("NN")), None) not in p.inner_events  # the noun before


def shows_on_the_way(c: ClauseAnalysis, registry: Registry) -> bool:
    """에러 뜨면서 멈췄어 / 빨간 불 들어오더니 꺼졌어: a display verb (speech_acts display_verbs) joined on before the
    clause's last predicate tells what the device showed as much as one the clause ends on (act.displayed)."""
    if not any(t in registry.capabilities.shown_topics for t in c.qna_topics):
        return False  # (얘 화면에 뜬 그림 귀엽다: what shows is no error, warning or light)
    p, ms = patterns(registry), [(m.form, m.tag) for m in c.morphemes]
    return any(k in p.display and 0 < i < len(ms) - 1 and ms[i - 1][1].startswith(("NN", "J", "SL", "SN")) for i, k in enumerate(ms))


def problem_report(c: ClauseAnalysis, registry: Registry, topic: str | None) -> tuple[str, tuple[str, ...]] | None:
    """(axis, signals) when a statement tells that the product or a part of it is wrong (`topic`: the clause's product
    noun, if any): a malfunction predicate (몸통이 너무 뜨거워요), a negated fact, a display or an event said of a
    product noun (필터 끼웠는데 자꾸 에러 나), a function that fails (충전이 안 돼요), or what the robot was asked not
    happening (사진 찍어 달라니까 카메라가 꺼져 있대요). Never of another thing in the home (배터리 빨리 닳는 폰)."""
    if "recited" in c.act.signals:
        return None  # 무궁화꽃이 피었습니다 ... 멈춰야지: words of a game or a text repeated tell no trouble
    found = _problem_told(c, registry, topic)
    if found is None and asked_and_not_done(c, registry):
        return "has_device_problem_report", (topic or "", "asked_and_not_done")
    return found


def _told(act) -> bool:
    """A statement or an exclamation, or a fragment reported (... 꺼져 있대요): something told, not asked."""
    return act is not None and (act.mood in ("statement", "exclamation") or (act.reported and act.mood == "fragment"))


def _problem_told(c: ClauseAnalysis, registry: Registry, topic: str | None) -> tuple[str, tuple[str, ...]] | None:
    act = c.act
    # (충전대 옮겼더니 얘가 집에 못 돌아오네: 얘 / 이거, a subject that is the product as often as a person, tells of it)
    product_like = any(s == f"subject:{form}" for form, _ in patterns(registry).usual_subjects for s in act.signals) if act else False
    if not _told(act) or act.target_owner is not None or (act.agent == "third_person" and not product_like) \
            or thing_named(c, registry.speech_acts):
        return None
    broken = _malfunction(c, registry)
    at = _negator_at(c, registry)
    negated = negated_fact(c, registry, at)
    if topic and not c.capabilities and (act.displayed or not act.reported):
        if broken:
            return "has_device_malfunction_report", (topic, f"malfunction:{broken[0]}")
        happened = any(s.startswith("event:") for s in act.signals) or _trouble_happens(c, registry) or shows_on_the_way(c, registry)
        if negated or act.displayed or happened:
            return "has_device_problem_report", (topic, *act.signals[:1])
        excess = _too_much(c, registry)
        return ("has_device_problem_report", (topic, f"too:{excess}")) if excess else None
    if not act.reported:
        failing = (_failing_function(c, registry, at) or _activity_refused(c, registry, at)) if negated else None
        if failing:
            return "has_device_problem_report", (failing, "negated_function")
        excess = _too_much(c, registry) if any(s.startswith("robot_subject") for s in act.signals) else None
        if excess:
            return "has_device_problem_report", ("", f"too:{excess}")  # 너 너무 느려: the robot itself
        stops = _stopping_function(c, registry) if broken else None  # 청정이 자꾸 멈춰
        return ("has_device_malfunction_report", (stops, f"malfunction:{broken[0]}")) if stops and broken else None
    robots = any(about_the_robot(x) for x in c.mentions)
    if broken and (topic or robots) and broken not in patterns(registry).exists:
        return "has_device_malfunction_report", (topic or "", f"malfunction:{broken[0]}")
    return None


def _too_much(c: ClauseAnalysis, registry: Registry) -> str | None:
    """The adjective a degree of excess comes before (product_vocabulary complaints: 너무 작게 나와요 -> 작), unless it
    praises (너무 조용해)."""
    complaints = registry.product.complaints
    if complaints is None:
        return None
    ms = [f"{m.form}/{m.tag.split('-')[0]}" for m in c.morphemes]
    at = next((i for i, k in enumerate(ms) if k in complaints.degrees), None)
    adjective = next((k for k in ms[at + 1:] if k.endswith("/VA")), None) if at is not None else None
    if adjective is None:  # 평소보다 빨리 닳네: worse than it used to be, whatever the predicate
        at = next((i for i in range(1, len(ms)) if ms[i] in complaints.comparing and ms[i - 1] in complaints.usual), None)
        adjective = next((k for k in reversed(ms[at + 1:]) if k.endswith(("/VA", "/VV"))), None) if at is not None else None
    return adjective.split("/")[0] if adjective and adjective not in complaints.praise else None


def asked_and_not_done(c: ClauseAnalysis, registry: Registry) -> bool:
    """바람 세게 하라니까 안 올라가네 / 심박 재 달라고 했더니 안 된다고만 하네 / 청정 해 달라니까 거절하던데: a
    request to the robot quoted (a request quotative after a verb: speech_acts request_quotatives), then told that it
    was not done (a negator or a malfunction predicate after the quote, the robot's own words of refusal too). Not
    when a person is named (동생한테 찍어 달라니까: a person was asked), nor asked why (가라니까 왜 안 가: said again)."""
    p, lex = patterns(registry), registry.speech_acts
    if not _told(c.act) or not any(about_the_robot(x) for x in c.mentions):
        return False
    ms = [(m.form, m.tag.split("-")[0]) for m in c.morphemes]
    quoted = next((i for i in range(1, len(ms)) if ms[i - 1][1] in ("VV", "VX", "XSV") and (
        ms[i] in lex.request_quotative_set or quotes_bare(ms, i, p))), None)  # (가랬더니: 가/라/하/었/더니)
    if quoted is None or any(k in p.question_words for k in ms) or any(f in lex.person_set for f, _ in ms):
        return False
    return any(k in p.negators or k in p.malfunction for k in ms[quoted + 1:])


def going_outside(c: ClauseAnalysis) -> bool:
    """Whether one may or must, going outside the home (밖에 나가도 돼? 밖에 나갈 때 ... 써야 돼?), asked of nobody
    called: the move word is the speaker's going out, not the robot's."""
    act = c.act
    return act is not None and act.mood == "knowledge_question" and act.polarity == "affirmative" \
        and not calls_a_person(act) and bool(c.cues.get("outside")) \
        and any(x.endswith(":target:outside_place") for x in c.mentions)


def robots_doing(c: ClauseAnalysis, registry: Registry) -> bool:
    """The clause is about what the robot does or undergoes: the robot as its subject (너 물 닿아도), a device word
    or a product noun of its own, or running something with no object (방에서 돌려도). Not an unsupported act named
    (오늘 창문 열어도 괜찮아?: 창문 열 is a category mention, no capability: the speaker's own doing)."""
    act = c.act
    return act is not None and (any(s.startswith("robot_subject") for s in act.signals)
                                or any(about_the_robot(x) and x.split(":", 1)[0] in registry.capability_by_id for x in c.mentions)
                                or bool(c.capabilities)
                                or product_topic(c, registry) is not None or _runs_itself(c, registry))


def _runs_itself(c: ClauseAnalysis, registry: Registry) -> bool:
    """An execution predicate (켜, 틀, 돌리) with no object before it and no other thing named in the clause."""
    if thing_named(c, registry.speech_acts):
        return False
    runs = registry.frames.kind_predicate_sets.get("execution", frozenset())
    for i, m in enumerate(c.morphemes):
        if m.tag == "VV" and (m.form, m.tag) in runs:
            before = next((b for b in reversed(c.morphemes[:i]) if b.tag != "MAG"), None)
            if before is None or not (before.tag.startswith(("NN", "NP", "SL")) or before.tag == "JKO"):
                return True  # (촛불 켜 놓은 방에서 돌려도: 켜 has its object, 돌려 has none)
    return False


def operates_itself(c: ClauseAnalysis, registry: Registry) -> bool:
    """A condition that runs something with no object named (밤에 켜 두면, 계속 틀어 놓으면): what is run is the robot
    itself (not 음악 틀어 두면, 불 켜 두면: an object or another thing is what is run)."""
    return c.role == "guard" and not c.capabilities and _runs_itself(c, registry)


_ELSEWHERE_REASONS = ("subject", "target", "third_person", "user")
"""Mention reasons that put a capability word on something or somebody else (약국 어디야, 티비 소리, 엄마 와?)."""


def about_the_robot(mention: str) -> bool:
    """Whether a mention ("capability:reason") still concerns the robot's own device."""
    return not mention.split(":", 1)[1].startswith(_ELSEWHERE_REASONS)


_ASKS_ABOUT_SOMEBODY = ("robot_subject", "speaker_subject", "subject:", "vocative", "robot_vocative", "promissive")


def asks_the_hearers_mind(c: ClauseAnalysis, registry: Registry) -> bool:
    """바람 불어서 모자 날아갔던 거 기억나? / 어제 뉴스 봤어?: a question whose last predicate is what the hearer
    remembers or saw (speech_acts hearer_mind_runs, endings only after it) asks about them, not about the world."""
    act = c.act
    if act is None or act.mood not in QUESTION_MOODS:
        return False
    ms = [(m.form, m.tag.split("-")[0]) for m in c.morphemes if not m.tag.startswith("S")]
    while ms and ms[-1][1].startswith("E") and ms[-1][1] != "EP":
        ms.pop()  # the endings after the last predicate (a past marker stays: 봤 = 보 + 었)
    return any(len(ms) >= len(run) and tuple(ms[-len(run):]) == run for run in registry.speech_acts.hearer_mind_runs)


def world_question(c: ClauseAnalysis, registry: Registry) -> str | None:
    """The noun a question to the robot asks about when it is a thing of the world: no device word, no product word,
    nobody in the home (너, 나, 엄마) as its subject; asked by a question word or by an adjective (심해? 더워?)."""
    act = c.act
    if act is None or act.mood not in ("question", "state_question") or c.capabilities or c.unsupported or c.qna_topics:
        return None
    if act.target_owner or act.reported or act.agent != "robot" or any(s.startswith(_ASKS_ABOUT_SOMEBODY) for s in act.signals) \
            or asks_the_hearers_mind(c, registry):
        return None
    if any(not m.split(":", 1)[1].startswith("subject") for m in c.mentions):
        return None  # a device word that failed its frame for another reason is about the device, not the world
    lex = registry.speech_acts
    keys = [(m.form, m.tag.split("-")[0]) for m in c.morphemes]
    if any(tuple(keys[i:i + len(run)]) == run and keys[i - 1][1] == "VA" for run in lex.agreement_runs for i in range(1, len(keys))):
        return None  # 이 드라마 결말 진짜 어이없지 않냐: an adjective asked with -지 않 seeks agreement, not a fact
    persons = lex.person_set
    asks = any(f"{mo.form}/{mo.tag}" in lex.question_word_set for mo in c.morphemes) or any(
        mo.tag in ("VA", "VA-I") for mo in c.morphemes)
    if not asks:
        return None
    counting = lex.quantity_word_set
    ms = c.morphemes
    # (1단으로 몇 시간 돌아가?: a noun counted by 몇 or a number is a measure, not a thing of the world asked about)
    return next((mo.form for i, mo in enumerate(ms) if mo.tag in ("NNG", "NNP") and not c.in_registry_word[i]
                 and mo.form not in persons and mo.form not in lex.not_topic_nouns and len(mo.form) >= 2
                 and not (i > 0 and (f"{ms[i - 1].form}/{ms[i - 1].tag}" in counting or ms[i - 1].tag in ("SN", "NR")))), None)


def public_place_asked(c: ClauseAnalysis, registry: Registry) -> str | None:
    """The place of the outside world a question to the robot (or a request to look it up) names, when nothing in
    the clause is licensed and nobody else's thing or words are in it."""
    act = c.act
    m = matchers_for(registry)
    # (a knowledge question only when asked aloud: 미용실 가야 돼 heard without "?" is what the speaker must do)
    asked = act.mood in ("question", "state_question") or (act.mood == "knowledge_question" and "?" in c.text)
    asking = asked or (act.mood == "request" and m.frg_lookup.first(c.compact) is not None)
    if not asking or c.capabilities or c.unsupported or act.target_owner or act.reported or act.agent != "robot":
        return None
    if any(about_the_robot(x) for x in c.mentions) and not c.cues.get("outdoor"):
        return None  # 바이탈 결과를 병원 진단 대신 믿어도 돼?: a device word makes the question the product's
        # (놀이터 나가도 될 만큼 오늘 공기 괜찮아?: said of outdoors, the air is the day's, not the robot's)
    return public_place_of(c.morphemes, m)
