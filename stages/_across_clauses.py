"""Evidence axes of a whole turn: a question, condition or delay and the device word it concerns in different
clauses, an elliptical follow-up, and a turn said to a person (whose questions and requests are not the robot's).

No nodes here: helpers of stages/anchors.py, each a pure function of the turn's clauses and the registry.
"""

from __future__ import annotations

from registry.contracts import EvidenceAxis, HistoryEvidence, NormalizedText
from registry.loader import Registry
from stages._addressee import assistant_called, robot_called
from stages._asked_about import about_the_robot, going_outside, of_somebody_named, operates_itself, product_topic, said_to_a_person, talked_about
from stages._clauses import ClauseAnalysis
from stages._other_things import OTHER_THINGS_PART
from stages._silence import call_only
from stages._turn_anchoring import CARRIED
from stages.speech_patterns import asks_how, key, patterns


def anchored(c: ClauseAnalysis) -> bool:
    """The clause holds a registry anchor: a capability, an unsupported act, a manual topic or an unknown mode."""
    return bool(c.capabilities or c.unsupported or c.qna_topics or c.unknown_modes)


FOLLOW_UP_PREFIX = "follows_up_"
ANSWERING_FAMILIES = ("DQR", "FRG")
"""Routes that answered a question: an elliptical follow-up question continues them (evidence, never a licence)."""
_ELLIPSIS_MAX_WORDS = 5


def _elliptical_question(clause_analyses: list[ClauseAnalysis], nt: NormalizedText) -> bool:
    """A short question that names no device word, no unsupported act and no room of its own, so it leans on
    the previous turn (그럼 3단은? / 1단으로 하면? / 필터 값은? / 그렇게 했는데도 또 뜨면?)."""
    if not clause_analyses or len(nt.text.split()) > _ELLIPSIS_MAX_WORDS:
        return False
    if any(c.capabilities or c.unsupported or c.rooms for c in clause_analyses):
        return False
    last = clause_analyses[-1]
    asking = "?" in nt.text or (last.act is not None and last.act.mood in ("question", "knowledge_question", "state_question"))
    return asking or last.role in ("guard", "temporal")


def cross_clause_axes(clause_analyses: list[ClauseAnalysis], normalized_text: NormalizedText,
                      history_evidence: HistoryEvidence, axes: dict[str, EvidenceAxis], registry: Registry) -> None:
    """Axes whose question, condition or delay and the device word they concern sit in different clauses."""
    # "나이트 모드 켜면 뭐가 달라져?": the ability question and its anchor may sit in different clauses
    premise = {f"final:{e}" for e in registry.speech_acts.premise_endings}  # (..., 찍히면 안 되니까: a reason after it)
    asked = [cue for c in clause_analyses for cue in c.cues.get("capability_question", [])  # (늦어도 괜찮으니까: a reason)
             if not (c.act is not None and (c.act.asks_for_an_act or c.act.mood in ("state_question", "statement") or "curiosity" in c.act.signals
                                            or "reason_before_request" in c.act.signals or premise & set(c.act.signals)))]
    any_anchor = any(anchored(c) for c in clause_analyses)
    if asked and any_anchor and "has_capability_question" not in axes:
        axes["has_capability_question"] = EvidenceAxis(strength=1.0, signals=asked[:2])
    # "나이트 모드 켜면 뭐가 달라져?": the question and the device word it asks about may sit in different clauses
    knowing = [c for c in clause_analyses if c.act is not None and c.act.mood == "knowledge_question" and not of_somebody_named(c, registry)
               and c.act.agent != "third_person"  # (시어머니가 ... 해서 냉장고 정리해야 돼: what somebody else brings about)
               and not any(m.endswith(OTHER_THINGS_PART) for m in c.mentions)]  # (보일러에 E1 떴는데 AS 불러야 되나)
    robot_mentions = any(about_the_robot(m) for c in clause_analyses for m in c.mentions)
    if knowing and "has_device_knowledge_question" not in axes and (any_anchor or robot_mentions):
        axes["has_device_knowledge_question"] = EvidenceAxis(strength=1.0, signals=["across_clauses", *knowing[0].act.signals[:2]])
    # "그럼 3단은?" / "1단으로 하면?" after an answer: an elliptical question continues the route that answered
    route = history_evidence.continuation_route
    if route in ANSWERING_FAMILIES and _elliptical_question(clause_analyses, normalized_text):
        axes[f"{FOLLOW_UP_PREFIX}{route}"] = EvidenceAxis(strength=1.0, signals=[f"last_route:{route}"])
    # "매너 모드 켜면 알람도 안 울려?": a question under a condition on a device word asks what the robot does then
    # (필터 0프로 되면 어떻게 돼?: a part of the product named in the condition counts as its device word)
    guarded = any(c.role == "guard" and (c.capabilities or c.mentions or c.qna_topics or product_topic(c, registry)
                                         or operates_itself(c, registry)) for c in clause_analyses)
    wondering = [c for c in clause_analyses if c.role == "action" and c.act is not None and not c.capabilities
                 and c.act.mood in ("question", "knowledge_question") and c.act.target_owner is None
                 and not of_somebody_named(c, registry)]
    if guarded and wondering and "has_device_knowledge_question" not in axes:
        axes["has_device_knowledge_question"] = EvidenceAxis(strength=1.0, signals=["conditional_question", *wondering[0].act.signals[:2]])
    # 오늘 밖에 나갈 때 마스크 써야 돼?: whether one may or must, going outside, asks about the day outdoors (not
    # 밖에 나갈까?: a suggestion; 엄마 밖에 나가도 돼?: asked of mother; ... 로봇 카메라 화면 볼 수 있어?: the manual's)
    if any(going_outside(c) for c in clause_analyses) and not any(
            m.form.lower() in registry.product.words for c in clause_analyses for m in c.morphemes):
        found = axes.get("has_frg_scope")
        axes["has_frg_scope"] = EvidenceAxis(strength=max(0.8, found.strength if found else 0.0),
                                             signals=[*(found.signals if found else []), "outdoor_query"])
    # "20분 있다가 나이트 모드 켜고 ...": the delay and the actions may sit in different clauses
    delays = [sig for c in clause_analyses if c.times.relative for sig in c.times.signals[:1]]
    acting = any(h.kind in ("execution", "settings") and h.strength >= 0.8 for c in clause_analyses for h in c.capabilities)
    if delays and acting and "has_timed_device_action" not in axes:
        axes["has_timed_device_action"] = EvidenceAxis(strength=1.0, signals=delays)


def close_for_a_person(clause_analyses: list[ClauseAnalysis], axes: dict[str, EvidenceAxis],
                       per_clause: list[dict[str, EvidenceAxis]], registry: Registry) -> None:
    """엄마 오늘 미세먼지 어떻대? 여보 이 로봇 보증 기간이 몇 년이라 그랬지?: a turn said to a person asks nothing of
    the robot. It lights `is_said_to_a_person`; the axes of what a question or a request asks (evidence_weights
    `closed_by_a_person_called`) leave the turn and its clauses, and the record names them."""
    if len(clause_analyses) == 1 and call_only(clause_analyses[0]):
        axes.pop("has_unlicensed_speech_act", None)  # 민수야: a call and nothing else asks nothing of anybody yet (as 엄마)
        return
    about = talked_about(clause_analyses, registry.speech_acts)  # 저 로봇 ... 덜컹거리더라: said of it to somebody else
    persons = said_to_a_person(clause_analyses) or ([f"about:{about}"] if about else [])
    if not persons:
        return
    closing = registry.weights.closed_by_a_person_called
    closed = [a for a in closing if a in axes]
    for held in (axes, *per_clause):
        for a in closing:
            held.pop(a, None)
    axes["is_said_to_a_person"] = EvidenceAxis(strength=1.0, signals=[*persons[:2], *(f"closes:{a}" for a in closed)])


_REMARK_AXES = ("has_talk_shape", "has_unlicensed_speech_act", "has_unlicensed_capability_mention")
"""Axes of talk a remark lights of itself (its mood, its unlicensed act, an event it narrates)."""
_REPORT_AXES = ("has_device_problem_report", "has_device_malfunction_report")
_REPLY = ("has_clear_conversation_reply_shape",)


def quiet_reasons(clause_analyses: list[ClauseAnalysis], per_clause: list[dict[str, EvidenceAxis]],
                  registry: Registry) -> list[dict[str, EvidenceAxis]]:
    """로봇아 인사해 봐, 할머니 오셨어 / 바람 세기 강으로 해 줘, 고기 구워서 냄새 나: a remark said with a request the
    turn licenses is the request's reason, not talk that outweighs it. Returns the clauses' axes for the turn's merge
    with the remark's talk axes taken out (named in `reason_of_request`); each clause keeps its own for the record.
    Only with an imperative (사진은 이따 찍자: a suggestion to the people present is no request to the robot), and only
    a statement or an exclamation that names no device word (너 게임 소리 말이야: it says whose sound) and calls
    nobody (or only the head a request carries from it); an event it narrates may be one (할머니 오셨어), and for
    another thing's request one reported too (복도 불 켜 놔, 애 아빠 늦게 온대). Not for what people ask of each other
    too (speech_acts
    asked_of_people_too: 사진 좀 찍어 줘 엄마 생일이야) unless the robot is called (로봇아 인사해 봐, 할머니 오셨어)."""
    asked_of_people_too = registry.speech_acts.asked_of_people_too
    moves = {cap.capability_id for cap in registry.capabilities.capabilities if cap.requires_room}
    states = {cap.capability_id for cap in registry.capabilities.capabilities if cap.kind == "state_query"}
    called = robot_called(c.act.signals for c in clause_analyses if c.act is not None)
    other = _asks_another_thing(clause_analyses)
    handed = _handed_to_the_robot(clause_analyses)
    if not other and not handed and not any(_asks_the_robot(c) and (called or not all(
            h.capability_id in asked_of_people_too for h in c.capabilities)) for c in clause_analyses):
        return per_clause
    merged = []
    # (카톡 왔나 보네 너 소리 켜 줘: the request names the robot its doer, so another thing the remark names is no owner)
    owned = called or any(c.act is not None and c.act.licenses_action and any(s.startswith("robot_subject:") for s in c.act.signals)
                          for c in clause_analyses)
    carried = {h.capability_id for c in clause_analyses for h in c.capabilities if h.via == CARRIED}
    # (바람 소리 때문에 안 들려 풍량 약으로 줄여: the remark names the very capability the turn asks for)
    carried |= {h.capability_id for c in clause_analyses if c.act is not None and c.act.licenses_action for h in c.capabilities}
    for c, axes in zip(clause_analyses, per_clause):
        act = c.act
        # (바람이 너무 세다 좀 줄여 봐: the device word is the head the request carries, the frame said across two;
        # 여행 갔다 왔더니: a verb of motion with no room names no device word)
        # (센서 모드 켜 줘 에어컨은 내가 켤게: another thing the speaker will see to themselves is their own part)
        theirs = set(registry.unsupported_categories) if act is not None and act.agent == "user" else set()
        told = carried | theirs | states  # (거실로 와, 여기 공기 안 좋아: a state told is why)
        named = [x for x in c.mentions if not x.endswith(":past") and (cap := x.split(":", 1)[0]) not in told and (c.rooms or cap not in moves)]
        # (엄마가 터보로 해 줘라고 하셨어 터보로 해 줘: the words quoted are the very request the turn makes; relayed)
        quoted = [x.split(":", 1)[0] for x in c.mentions if x.endswith(":quoted")]
        relayed = bool(quoted) and all(q in carried for q in quoted)
        theirs_by_call = handed and act is not None and any(s.startswith("vocative") for s in act.signals)
        if not _beside_the_request(c) and not theirs_by_call and (
                act is None or c.capabilities or act.mood not in ("statement", "exclamation")
                or (act.reported and not other and not relayed)
                or any(s.startswith("vocative") for s in act.signals)
                or (not other and named and not owned and "reason_before_request" not in act.signals)):
            merged.append(axes)
            continue
        # (화면이 너무 눈부셔, 밝기 낮춰: why, no report; 엄마 잠깐만요. 로봇아 ...: the reply is the person's too)
        quieted = [a for a in (*_REMARK_AXES, *_REPORT_AXES, *(_REPLY if theirs_by_call else ())) if a in axes]
        merged.append({**{a: x for a, x in axes.items() if a not in quieted},
                       **({"reason_of_request": EvidenceAxis(strength=1.0, signals=quieted)} if quieted else {})})
    return merged


def _asks_the_robot(c: ClauseAnalysis) -> bool:
    """A request the clause licenses: an action or setting, or a check asked with a verb (공기만 봐 줘)."""
    act, kinds = c.act, {h.kind for h in c.capabilities}
    return act is not None and act.mood == "request" and (
        act.licenses_action and bool(kinds & {"execution", "settings"}) or act.licenses_state_query and "state_query" in kinds)


def _handed_to_the_robot(clause_analyses: list[ClauseAnalysis]) -> bool:
    """원장님, 사진은 찍지 마시고요. 로봇아 화면 밝기 2로 해 줘 / 엄마 잠깐만요. 로봇아 지금 어디 있어?: a clause that
    calls the robot by name licenses a request or a state question; what the turn says to a person it calls by name
    is theirs."""
    return any(c.act is not None and c.capabilities and (c.act.licenses_action or c.act.mood == "state_question")
               and any(s.startswith("robot_vocative:") for s in c.act.signals) for c in clause_analyses)


def _beside_the_request(c: ClauseAnalysis) -> bool:
    """A clause that is no talk beside a request the turn licenses: what X 말고 sets aside (티비 말고 너 소리 줄여), what
    X 하지 말고 forbids in its place (빙빙 돌지 말고 서재로 가라: a prohibition joined to the request), or what another
    assistant is asked (오케이 구글 불 꺼 그리고 로봇 너는 청정해), when it names no capability of its own."""
    act = c.act
    return act is not None and not c.capabilities and ("exclusion" in act.signals or (
        act.polarity == "prohibited" and "joined_predicate" in act.signals and c.connective == "고") or (
        act.agent != "robot" and assistant_called(act.signals)))


def without_quieted_reports(per_clause: list[dict[str, EvidenceAxis]], reasons: list[dict[str, EvidenceAxis]]) -> list[dict[str, EvidenceAxis]]:
    """The clauses' own axes (for the record and the clauses' own families) without a problem report that
    quiet_reasons took for the reason of a request (화면이 너무 눈부셔, 밝기 낮춰: no route of its own to the manual)."""
    return [{a: x for a, x in own.items() if a not in _REPORT_AXES or a in quiet} for own, quiet in zip(per_clause, reasons)]


def quiet_premises(clause_analyses: list[ClauseAnalysis], per_clause: list[dict[str, EvidenceAxis]]) -> list[dict[str, EvidenceAxis]]:
    """프리필터 씻어서 다시 꽂았는데 작동을 안 해: what was done before a problem the turn reports, said in clauses
    joined to it (-는데, -어서, -더니), is how the problem came about, not talk of its own. The talk axes those
    clauses light of themselves leave the turn's merge (named in `premise_of_report`); each keeps its own for the
    record. Not a request nor a question among them, not past a clause that ends its sentence or names another thing,
    and not when the problem is told as past."""
    last = max((i for i, axes in enumerate(per_clause) if any(a in axes for a in _REPORT_AXES)), default=None)
    if not last or (clause_analyses[last].act is not None and clause_analyses[last].act.past):
        return per_clause  # (스캐닝 청정 돌렸다가 배터리 없어서 중간에 멈췄어: a story of what happened)
    merged = list(per_clause)
    for i in range(last - 1, -1, -1):
        c, axes = clause_analyses[i], per_clause[i]
        if not c.connective or c.act is None or c.act.mood not in ("statement", "exclamation", "condition") or c.capabilities \
                or c.act.target_owner or "has_other_thing_target" in axes:
            break  # (핸드폰 충전 좀 해 놓고 나올걸 배터리 3프로밖에 없네: the trouble is the thing named before)
        quieted = [a for a in _REMARK_AXES if a in axes]
        merged[i] = {**{a: x for a, x in axes.items() if a not in quieted},
                     **({"premise_of_report": EvidenceAxis(strength=1.0, signals=quieted)} if quieted else {})}
    return merged


_WAITED_ON_AXES = ("has_execution_capability_anchor", "has_settings_capability_anchor", "has_supported_capability_anchor")


def quiet_waited_on(clause_analyses: list[ClauseAnalysis], per_clause: list[dict[str, EvidenceAxis]]) -> list[dict[str, EvidenceAxis]]:
    """청정 다 끝나면 주요 뉴스 읽어 줘 / 고정청정 끝나면 필터 교체 주기 알려 줘: the device act a temporal clause waits on is
    the turn's condition. When the request names no device act of its own and asks for public information, the manual
    or a schedule, that request owns the turn: the act waited on leaves the turn's merge (named in `waited_on`; the
    plan still waits on it, and the clause keeps its axes for the record). 청정 끝나면 알려 줘 asks nothing else."""
    other = any(c.role == "action" and not c.capabilities and c.act is not None and c.act.mood == "request" and c.act.agent == "robot"
                and (c.cues.get("frg_scope") or c.cues.get("sch_scope") or c.qna_topics) for c in clause_analyses)
    if not other:
        return per_clause
    merged = list(per_clause)
    for i, (c, axes) in enumerate(zip(clause_analyses, per_clause)):
        quieted = [a for a in _WAITED_ON_AXES if a in axes] if c.role == "temporal" else []
        if quieted:
            merged[i] = {**{a: x for a, x in axes.items() if a not in quieted}, "waited_on": EvidenceAxis(strength=1.0, signals=quieted)}
    return merged


def _asks_another_thing(clause_analyses: list[ClauseAnalysis]) -> bool:
    """티비 소리 너무 커 낮춰, 제습기 좀 돌려라 빨래가 안 마른다: an affirmative request to the robot for another thing
    of the home or an unsupported act (no device step either way), calling nobody and promising nothing (레시피 읽어
    줄게 ...: what follows is read out); the thing may be named in the remark that gives its reason."""
    asks = [c for c in clause_analyses if c.act is not None and c.act.mood == "request"
            and (c.act.agent == "robot" or assistant_called(c.act.signals))
            and c.act.polarity == "affirmative" and (c.unsupported or c.act.target_owner)]
    # (알렉사 아빠한테 전화해! 빨리 오라고!: another assistant called is asked, the remark after it says what for)
    return bool(asks) and not any(c.capabilities for c in clause_analyses) and not any(  # 레시피 읽어 줄게 ...: recited
        s.startswith("promissive") or (s.startswith("vocative") and not assistant_called(c.act.signals))
        for c in clause_analyses if c.act is not None for s in c.act.signals)


_ASKING_MOODS = ("request", "question", "state_question", "knowledge_question", "stop")
"""Moods in which a clause asks something (an act, an answer); the rest only tell or muse."""


def supposed_only(clause_analyses: list[ClauseAnalysis], per_clause: list[dict[str, EvidenceAxis]],
                  axes: dict[str, EvidenceAxis]) -> None:
    """로또 되면 서재 딸린 큰 집 사야지 / 비 오면 그냥 집에서 영화나 보자: public information named only in a condition,
    when nothing in the turn asks anything, is supposed, not looked up. has_frg_scope leaves the turn's axes (the
    clause keeps it in its own record) and `supposed_in_a_condition` names it (not 밖에 미세먼지 나쁘면 청정 켜줘,
    or 비 오면 알려 줘: the rest of the turn asks)."""
    scoped = [i for i, a in enumerate(per_clause) if "has_frg_scope" in a]
    if not scoped or "has_frg_scope" not in axes or any(clause_analyses[i].role != "guard" for i in scoped):
        return
    asks = any(c.role == "action" and c.act is not None and (c.act.mood in _ASKING_MOODS or c.act.licenses_action)
               for c in clause_analyses)
    if not asks:
        found = axes.pop("has_frg_scope")
        axes["supposed_in_a_condition"] = EvidenceAxis(strength=1.0, signals=["has_frg_scope", *found.signals[:2]])



_SCHEDULE_AXES = ("has_schedule_workflow_scope", "has_schedule_management_anchor", "has_schedule_time_semantics")


def how_to_schedule(clause_analyses: list[ClauseAnalysis], axes: dict[str, EvidenceAxis], registry: Registry) -> None:
    """예약 취소하고 싶으면 어떻게 해요 / 알람 끄려면 어떻게 해: a question of how to do something (a how phrase, not
    어떻게 돼 of a state) with no time given asks the manual how the robot's schedules work; the schedule words it names
    register or cancel nothing. The schedule axes leave the turn's merge (named in `how_to_of_a_schedule`)."""
    p = patterns(registry)
    asked = any(c.role == "action" and c.act is not None and c.act.mood == "knowledge_question"
                and any(asks_how([key(m) for m in c.morphemes], seq, p.how_state) for seq in p.how_phrases)
                for c in clause_analyses)
    if not asked or any(c.times.strength for c in clause_analyses):
        return
    found = [a for a in _SCHEDULE_AXES if a in axes]
    if found:
        signals = [s for a in found for s in axes.pop(a).signals[:1]]
        axes["how_to_of_a_schedule"] = EvidenceAxis(strength=1.0, signals=[*found, *signals])
