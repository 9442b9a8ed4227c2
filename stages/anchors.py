"""Step 3: registry anchors and the evidence axes (the preclassifier). Each axis is a strength in [0, 1] with the
signals that lit it. No axis picks a family: the planner weighs them."""

from __future__ import annotations

from registry.contracts import Clause, EvidenceAxis, HistoryEvidence, LearnedEvidence, NormalizedText, PreclassifierHints, SpeechAct
from registry.loader import Registry
from stages._addressee import assistant_called
from stages._across_clauses import (anchored, close_for_a_person, cross_clause_axes, how_to_schedule, quiet_premises, quiet_reasons, quiet_waited_on,
                                   supposed_only, without_quieted_reports)
from stages._asked_about import (about_the_robot, asks_the_hearers_mind, calls_a_person, of_somebody_named, problem_report, robots_doing,
                                 product_topic, public_place_asked, shows_on_the_way, world_question)
from stages._clauses import ENDS_SENTENCE, QUESTION_MOODS, ClauseAnalysis, qualifies_a_noun, schedule_of_another_thing
from stages.ngram_model import LEARNED_PREFIX
from stages._other_things import OTHER_THINGS_PART
from stages.licensing import FRAMELESS, SLIP, TOPIC_ALONE, says_more_than
from stages._fragments import Axes as _Axes, fragment_axes
from stages._matchers import Matchers, matchers_for, weather_state_of
from stages._silence import hesitation_only, silent_clauses
from stages._context_acts import SLOT_ANSWER
from stages.speech_patterns import owned_by_robot, patterns

LEARNED_FLOOR = 0.2
"""A learned probability below this lights no axis (keeps records short; the weight does the rest)."""

_CAPABILITY_AXES = {"execution": "has_execution_capability_anchor", "settings": "has_settings_capability_anchor",
                    "state_query": "has_state_query_capability_anchor"}


def _fills_missing_slot(c: ClauseAnalysis, history: HistoryEvidence, m: Matchers, registry: Registry) -> str | None:
    """The open slot this clause answers, if any (a time, a schedulable function, a message)."""
    missing = set(history.missing_slots)
    if missing & {"start_time", "end_time", "repeat_days"} and (c.times.start_time or c.times.end_time or c.times.repeat_days):
        return "time"
    if "duration_s" in missing and c.times.duration_s:
        return "duration_s"
    if "function" in missing and any(registry.capability_by_id[h.capability_id].schedulable for h in c.capabilities):
        return "function"
    if "message" in missing and m.quotative_split(c.text):
        return "message"
    return None


_TALK_MOODS = ("statement", "exclamation", "wish")
_WORLD_QUESTION_MOODS = ("question", "knowledge_question", "state_question", "suggestion")
"""Moods that ask about a world event (its -ㄹ까 asks if it will happen: rain proposes nothing); one told of is talk."""


_ASKED_BY_SHAPE = ("alternative", "confirmation")
"""Reading signals of a question asked without its mark (clause_reading: an alternative offered, a confirmation)."""
_SCHEDULE_KINDS = ("sch_alarm", "sch_timer", "sch_reminder")
"""Cues of what the robot itself schedules (an alarm, a timer, a reminder), whatever else the clause asks."""


def _anchor_axes(c: ClauseAnalysis, lit: _Axes, history: HistoryEvidence, registry: Registry) -> None:
    """Capability, unsupported, mode, manual-topic, identity, cue and schedule axes."""
    cues = c.cues
    for hit in c.capabilities:
        lit(_CAPABILITY_AXES[hit.kind], hit.strength, f"{hit.capability_id}:{hit.surface}")
    supported = max((h.strength for h in c.capabilities), default=0.0)
    lit("has_supported_capability_anchor", supported, *[h.capability_id for h in c.capabilities])
    # (알렉사 아빠한테 전화해: asked of another assistant by its name, the request is for another system)
    to_assistant = c.act is not None and assistant_called(c.act.signals)
    # (아빠한테 문자 보내 나 늦는다고: the message said with the request is its argument, no talk)
    marks = (["to_assistant"] if to_assistant else []) + (["message_given"] if c.act is not None and "message_given" in c.act.signals else [])
    for cat in c.unsupported:
        lit("has_unsupported_request", 1.0, cat, *marks)
    for word in c.unknown_modes:
        lit("has_unknown_device_mode", 1.0, word)
    action_cues = cues.get("on", []) + cues.get("off", []) + cues.get("increase", []) + cues.get("decrease", [])
    lit("has_device_action_cue_surface", 1.0 if action_cues else 0.0, *action_cues[:2])
    # (됐어 안 됐어 / 꺼지는 거 맞아: a question by its shape asks as a question mark does)
    checks = [*cues.get("check", []), *(s for s in _ASKED_BY_SHAPE if c.act is not None and s in c.act.signals)]
    lit("has_check_cue", 1.0 if checks else 0.0, *checks[:2])
    # (당신은 필터 언제 갈았는지 알아?: what they did, asked of them; 필터 갈 때 됐나?: the state its frame asks, the
    # robot's own, not the manual's when; 배터리 몇 시간 가?: a word of the state alone may ask either)
    framed = any(h.via == "frame" for h in _states_asked(c))
    for topic in c.qna_topics if not (c.act and c.act.mood in QUESTION_MOODS and of_somebody_named(c, registry)) and not framed else []:
        lit("has_stable_device_qna_target", 1.0, topic)
    lit("has_knowledge_question_shape", 1.0 if cues.get("question") else 0.0, *cues.get("question", [])[:2])
    # a surface "돼/수 있" is no capability question when the clause asks for an act or a state (배터리 어떻게 돼?),
    # nor when it is the asker's to know (배터리 얼마나 남았는지 알 수 있을까?: curiosity asks the state itself)
    asks_robot = c.act is not None and (c.act.asks_for_an_act or c.act.mood == "state_question" or "curiosity" in c.act.signals)
    reason = c.act is not None and "reason_before_request" in c.act.signals  # (자야 되니까 ...: a reason asks nothing)
    if cues.get("capability_question") and anchored(c) and not asks_robot and not reason:
        lit("has_capability_question", 1.0, *cues["capability_question"][:2])
    if c.identity and not _only_called_by_name(c, registry):
        lit("has_product_identity_anchor", 1.0, "identity")
    # 밥솥 취사 예약 좀 해 줘: a reservation asked of another appliance is its own timer, not a schedule of the robot's
    appliances_own = bool(c.unsupported) and not c.capabilities and (not any(cues.get(k) for k in _SCHEDULE_KINDS)
                                                                       or schedule_of_another_thing(c, registry.speech_acts))
    # (9시 뉴스가 이어집니다, 알람이 크게 울려요: a time or an alarm told of as a subject is nothing set for the robot)
    said_of_another = c.act is not None and c.act.mood in ("statement", "exclamation") and any(s.startswith("subject:") for s in c.act.signals)
    if not appliances_own:
        lit("has_schedule_workflow_scope", (0.3 if said_of_another else 1.0) if cues.get("sch_scope") else 0.0, *cues.get("sch_scope", []))
    # (예약 걸어 둘 수 있어?: asked what the robot can do, its 있어 lists no schedule)
    managing = [] if c.act and "ability" in c.act.signals else cues.get("sch_cancel", []) + cues.get("sch_list", [])
    if managing and (cues.get("sch_nouns") or history.active_schedule_workflow):
        lit("has_schedule_management_anchor", 1.0, *managing[:2])
    if not said_of_another:
        lit("has_schedule_time_semantics", c.times.strength, *c.times.signals)
    if c.times.strength > 0 and any(h.kind in ("execution", "settings") and h.strength >= 0.8 for h in c.capabilities):
        lit("has_timed_device_action", c.times.strength, *c.times.signals[:1])
    if cues.get("sch_reminder") and c.times.strength > 0:
        lit("has_reminder_cue", 1.0, *cues["sch_reminder"][:1])


def _proposed(act: SpeechAct) -> bool:
    """내일 카페 가자: a suggestion not asked (no -ㄹ까, no mark) proposes what the people present will do."""
    return act.mood == "suggestion" and "question" not in act.signals


def _public_axes(c: ClauseAnalysis, lit: _Axes, m: Matchers, registry: Registry) -> tuple[float, bool]:
    """Public-information and vagueness axes; returns the FRG scope strength and whether the clause trails off."""
    cues, words = c.cues, c.text.split()
    # 날씨 그 저기 / 필터 아 뭐지: a topic word that trails off into fillers is a broken turn, not a question about it
    trailing = 0 < len(words) <= 4 and words[-1].strip("?.!,~") in m.filler_words and c.filler_words > 0 \
        and [mo.tag for mo in c.morphemes if not mo.tag.startswith("S")][-2:] != ["EF", "IC"]  # 잘됐지 뭐: no trail
    weather = weather_state_of(c.morphemes, m) if c.act is not None and c.act.mood in _WORLD_QUESTION_MOODS and not c.rooms else None
    frg_strength = 1.0 if cues.get("frg_scope") or weather else (0.8 if c.outdoor_dust else 0.0)  # 낼 춥나?: a forecast
    # 사진 찍 / 화면 밝: a predicate cut off before its ending is the same broken turn; so is a vocalization (흐음)
    broken = next((s.split(":")[0] for s in (c.act.signals if c.act is not None else [])
                   if s.startswith(("cut_off_stem:", "cut_off_word:", "cut_off:from_sentence", "vocalization", "trails_off",
                                    "retracted"))), None)  # (사진 찍어 줘 아 아니다: asked, then taken back: ask again)
    ends_taken_back = any(x.endswith(":retracted") for x in c.mentions)  # (볼륨 10으로 아니 잠깐만.)
    broken = broken or next(("syllable_shards" for x in c.mentions if x.endswith(":spelled_by_syllables")), None) \
        or ("retracted" if ends_taken_back else None)
    if trailing or broken:
        frg_strength *= 0.3
        lit("has_vague_reference", 1.0, "trailing_off" if trailing else broken, "unresolved")
    if talk := c.act is not None and (c.act.mood in _TALK_MOODS or _proposed(c.act) or asks_the_hearers_mind(c, registry)) and c.role == "action":
        frg_strength *= 0.3  # 날씨 진짜 좋다 / 어제 바람 엄청 불었어 / 바람 불던 거 기억나? / 내일 카페 가자: asks nothing of the world
    elif c.act is not None and c.act.mood == "request" and any(s.startswith("promissive") for s in c.act.signals):
        frg_strength *= 0.3  # 식당 예약은 내가 할게: the speaker's own act looks nothing up
    elif owned_by_robot(c.morphemes, cues.get("frg_scope", []), m.speech) or (
            c.act is not None and "asks_criterion" in c.act.signals and not cues.get("frg_scope") and not weather):
        frg_strength *= 0.3  # 너 정체가 뭐야: what the robot is, not a traffic jam; 몇부터 나쁨이야: the manual's grades
    elif c.unsupported and c.act is not None and c.act.mood == "request" \
            and any(w in m.public_places for w in cues.get("frg_scope", [])):
        frg_strength *= 0.3  # 식당 예약해 줘: the place is what an unsupported act is done to, not something looked up
    lit("has_frg_scope", frg_strength, *cues.get("frg_scope", []), "outdoor_dust" if c.outdoor_dust else "", weather or "")
    # a recommendation with an object noun ("요트북 추천") is a public target; "추천해줘" alone is not
    lit("has_public_recommendation_cue", (1.0 if c.noun_count >= 2 else 0.5) if cues.get("frg_recommend") else 0.0, *cues.get("frg_recommend", []))
    lit("has_public_target", 1.0 if cues.get("frg_targets") else (0.7 if cues.get("frg_recommend") and c.noun_count >= 2 else 0.0),
        *cues.get("frg_targets", []))
    # 이걸로 충분할까? 이거 물로 씻어도 돼?: "this" in a question with a verb of its own points at what is at hand, the
    # question is whole (lexicon fragments.at_hand_references; 이거 켜 줘 / 이거 뭐야 / 그거 언제 돼? leave it unsaid)
    asked_of_this = c.act is not None and c.act.mood in ("question", "knowledge_question", "suggestion") and "?" in c.text \
        and any(t in ("VV", "VA", "VA-I", "XSV", "XSA") for t in c.morpheme_tags)
    told = c.act is not None and c.act.mood in _TALK_MOODS and c.has_final_ending  # 이거 어디서 샀냐고 묻더라
    vague = [v for v in cues.get("vague", []) if not ((asked_of_this or told) and v in m.at_hand)] \
        if c.act is None or "exclusion" not in c.act.signals else []  # 그거 말고 볼륨 줄여: what is excluded need not be said
    # 어 그래: a filler before an answer word is how people answer, not a reference to nothing
    exclaims = c.act is not None and c.act.mood == "exclamation"
    if vague or (c.filler_words and not c.has_predicate and not exclaims):
        # (이거 몇 제곱미터까지 돼: what is at hand with more named may be the robot asked about; not 이거 뭐야, nor a
        # fragment trailing off or a filler left hanging)
        pointing = bool(vague) and all(v in m.at_hand for v in vague) and not c.filler_words and says_more_than(c, vague, registry)
        lit("has_vague_reference", 1.0, *vague[:2], "dangling_filler" if c.filler_words else "", "" if pointing else "unresolved")
    lit("has_outdoor_scope", (0.18 if talk else 0.6) if cues.get("outdoor") else 0.0, *cues.get("outdoor", [])[:2])  # (오늘 날씨 좋다)
    # 물 닿아도 괜찮아?: the verb a permission question about the robot ends on is asked, not said back as a reply
    # (오늘 창문 열어도 괜찮아?: the speaker's own doing; the reply shape stays)
    asks_leave = c.act is not None and c.act.mood == "knowledge_question" and robots_doing(c, registry) \
        and any(s in ("permission", "permission_intoned") for s in c.act.signals)  # (돌려도 괜찮아, heard without "?")
    asks_state = bool(_states_asked(c))
    taken_back = ends_taken_back or (c.act is not None and "takes_back" in c.act.signals)
    # (거실 가 아 잠깐만 / 충전하러 가 어 잠깐만: the 잠깐만 takes the request back, it is no reply)
    lit("has_clear_conversation_reply_shape", 1.0 if cues.get("reply_shape") and not asks_leave and not asks_state and not taken_back else 0.0,
        *cues.get("reply_shape", []))  # (안방 공기 괜찮아요 아니면 안 좋아요: the state asked, not an answer said)
    lit("has_generic_help", 1.0 if cues.get("generic_help") else 0.0, *cues.get("generic_help", []))
    said = _said(c)
    if c.unsupported or (c.act is not None and "message_of_request" in c.act.signals):
        said = []  # 이 사진 엄마한테 보내 줘 / 문자 보내 집에 간다고: what the unsupported request acts on or passes on
    if said:
        lit("has_unlicensed_capability_mention", 1.0, *said[:3])
    if any(owned := [x for x in c.mentions if x.endswith(OTHER_THINGS_PART)] or [c.act and c.act.target_owner]):
        lit("has_other_thing_target", 1.0, *owned[:2])  # 정수기 필터 언제 갈아?: another thing's, not the product's
    if any(x.endswith(":target:outdoors") for x in c.mentions):
        lit("has_frg_scope", 0.8, "outdoor_query")  # 바깥 공기 괜찮나?: outdoor air is public information
    if c.act is not None and c.act.mood in _WORLD_QUESTION_MOODS and not c.rooms and c.world_event is not None and not talk:
        lit("has_frg_scope", 0.8, "world_event")  # 내일 눈 와? 길 막혀?: the weather and the roads asked about (not 거실 가는 길)
    return frg_strength, trailing


def _question_axes(c: ClauseAnalysis, lit: _Axes, registry: Registry, trailing: bool) -> None:
    """What a question or a problem report asks about: the device, the manual, or the world."""
    act = c.act
    place = public_place_asked(c, registry)
    if place:  # 약국 지금 문 열었어? 우체국 몇 시까지 해?: the place's door and hours, not the robot's
        lit("has_world_question", 1.0, place, act.mood)
        lit("has_frg_scope", 0.8, "public_place")  # a place of the world asked about is a stable public target
        return
    # a question whose device words license nothing asks about the device (바이탈사인 돼? 볼륨 최대 몇까지 올라가?)
    # (not when the words are about something else or somebody else's act: 약국 어디야, 티비 소리 몇이야, 엄마 언제 와?)
    persona = patterns(registry).persona
    if act.mood in ("question", "knowledge_question") and any(s.startswith(("robot_subject", "robot_vocative")) for s in act.signals) \
            and (word := next((m.form for m, n in zip(c.morphemes, [*c.morphemes[1:], None]) if (m.form, m.tag.split("-")[0]) in persona
                               and not (n is not None and n.tag == "VCP")), None)):  # (생일이라 ...: the day given as a reason)
        lit("has_persona_question", 1.0, word)  # 너도 친구 있어?: small talk, not the manual
        return
    # (폰 볼륨이 왜 이렇게 작지, 에어컨 실외기 소리 들려?: another thing in the home asked about is not the robot,
    # unless it is whether the robot can act on it: 에어컨도 켜 줄 수 있어?)
    other, able = registry.speech_acts.other_targets.category, any(s.startswith("ability") for s in act.signals)
    someone = of_somebody_named(c, registry)  # (민수는 왜 안 와? 심판은 뭐 하는 거야: their doing, not the robot's)
    elsewhere = not able and any(x.endswith(OTHER_THINGS_PART) for x in c.mentions)  # (다이슨 청소기 필터는 어떻게 씻어?)
    about_robot = [x for x in c.mentions if about_the_robot(x) and (able or not x.startswith(f"{other}:")) and not someone and not elsewhere]
    about_device = bool(about_robot or (anchored(c) and not someone) or c.identity)
    # 청정 켜져 있나? 무슨 모드로 돌고 있어?: a state question its state query answers asks the robot, not the manual (the
    # execution word is what the state is of; not when a modifier clause qualifies a noun: 배터리 없을 때도 돌아가는 건 돼?)
    modified = qualifies_a_noun(c)
    answered = act.mood == "state_question" and not modified and any(h.kind == "state_query" for h in c.capabilities)
    asks_about = act.mood in ("question", "state_question") and bool(about_robot) and not answered
    # 날씨도 물어볼 수 있어? 알람 맞출 수 있어?: whether it can, asked of one of the product's own services (no time
    # given, nothing asked of it), is a question about the product like 청소도 돼?
    too = any((m.form, m.tag) in patterns(registry).scope_particles for m in c.morphemes)  # (반복되게 예약도 되니?: a time, too)
    service = act.mood == "knowledge_question" and (not c.times.strength or too) and (c.cues.get("frg_scope") or c.cues.get("sch_scope")) \
        and any(s.startswith(("ability", "permission")) for s in act.signals)
    if (act.mood == "knowledge_question" and about_device) or asks_about or service:
        lit("has_device_knowledge_question", 1.0, act.mood, *act.signals[:2], "service_can_it" if service else "")
    elif act.mood == "knowledge_question" and not calls_a_person(act) and not trailing and not someone \
            and not any(x.endswith(OTHER_THINGS_PART) for x in c.mentions):  # (아빠 이거 어떻게 끼워?: asked of dad)
        # 계단도 올라갈 수 있어? 처음 쓰기 전에 뭘 해야 돼?: how / can-it asked of the robot, no device word
        lit("has_unanchored_knowledge_question", 1.0, *act.signals[:2])
    # 카메라 화소가 몇이야? 화면 터치가 갑자기 안 먹어: a question or a problem report about the product itself
    # (a noun of the product's vocabulary, nothing licensed, nobody else's thing) asks the manual
    topic = product_topic(c, registry) if not trailing else None
    ours = act.target_owner is None and act.agent != "third_person" and not elsewhere  # (보일러에 E1 떴는데 AS 불러야 되나)
    if topic and not c.capabilities and ours and (act.displayed or not act.reported) and act.mood in ("question", "knowledge_question"):
        lit("has_product_topic_question", 1.0, topic, act.mood)
    # (E1 떴어: a manual topic displayed is as much a report as a product noun)
    shown = next((t for t in c.qna_topics if t in registry.capabilities.shown_topics), None) \
        if act.displayed or shows_on_the_way(c, registry) else None
    report = problem_report(c, registry, topic or shown) if not trailing else None
    if report is not None:
        lit(report[0], 1.0, *report[1])
    world = world_question(c, registry) if topic is None else None
    if world:
        lit("has_world_question", 1.0, world, act.mood)  # 마트 몇 시에 열어? 일교차 심해?: public information


def _only_called_by_name(c: ClauseAnalysis, registry: Registry) -> bool:
    """알식스 청정 켜 줘 / 알식스, 나 잘 거니까 ...: the product's name (one of speech_acts robot_pronouns) is the only
    identity word and nothing is asked of it: the robot is called by its name, not asked who it is (알식스가 뭐야?)."""
    said = [a.surface for a in c.anchors if a.kind == "product_identity"]
    asked = c.act is not None and c.act.mood in ("question", "knowledge_question")
    return bool(said) and all(s in patterns(registry).robot_nouns for s in said) and not asked


def _act_axes(c: ClauseAnalysis, lit: _Axes, registry: Registry, trailing: bool) -> None:
    """Axes of the clause's speech act: questions, a voice stop, talk, and an act that licenses nothing."""
    act = c.act
    if act is None or c.role != "action":
        return
    _question_axes(c, lit, registry, trailing)
    if act.mood == "stop":
        lit("is_voice_stop", 1.0, *act.signals[:1])
    if "takes_back" in act.signals:
        return  # 아 아니다 after a request: it takes the request back, it is no talk
    if (act.mood in _TALK_MOODS and (c.has_predicate or "interjections" in act.signals) or asks_the_hearers_mind(c, registry)) \
            and "has_device_problem_report" not in lit and "has_device_malfunction_report" not in lit:
        lit("has_talk_shape", 1.0, act.mood, *act.signals[:2])
    message = "message_of_request" in act.signals  # ... 간다고: what to send, not talk
    perfect = act.past and bool(_states_asked(c))  # 갈 때 됐어?
    asks_manual = "has_product_topic_question" in lit  # (몰래 녹화하는 거 아니지: a question about it, negated or not)
    if not message and not asks_manual and (act.polarity != "affirmative" or act.reported or (act.past and not perfect)
                                            or act.agent != "robot" or "standing_rule" in act.signals):
        lit("has_unlicensed_speech_act", 1.0, act.polarity, act.agent, "reported" if act.reported else "",
            "past" if act.past else "")


def _states_asked(c: ClauseAnalysis) -> list:
    """The state-query hits of a clause that asks one of the robot's own states (a state question)."""
    return [h for h in c.capabilities if h.kind == "state_query"] if c.act is not None and c.act.mood == "state_question" else []


def _unframed(c: ClauseAnalysis) -> list[str]:
    """Device words with nothing said of them (풍량 / 볼륨 좀: no predicate, no frame): a fragment's scope, not talk."""
    return [] if c.has_predicate else [x for x in c.mentions if x.endswith(f":{FRAMELESS}")]


def _said(c: ClauseAnalysis) -> list[str]:
    """Unlicensed device words talked about: not those nobody said (spelled, a slip's repair), nor bare topics (배터리)."""
    unframed = _unframed(c)
    return [x for x in c.mentions if not x.endswith((":spelled_by_syllables", f":{SLIP}", f":{TOPIC_ALONE}", ":retracted",
                                                      ":state_question"))  # (프리필터 씻을 때 됐어 안 됐어: asked of it)
            and x not in unframed]  # (사진 찍어 줘 아 아니다: a request taken back is no talk of the photo)


def _clause_axes(c: ClauseAnalysis, history: HistoryEvidence, m: Matchers, registry: Registry) -> dict[str, EvidenceAxis]:
    lit = _Axes()
    if c.index and c.act is not None and "vocalization" in c.act.signals:
        return {}  # 청정 돌려라 잉: a particle after what was said trails it, it breaks nothing
    _anchor_axes(c, lit, history, registry)
    frg_strength, trailing = _public_axes(c, lit, m, registry)
    _act_axes(c, lit, registry, trailing)
    if "has_device_problem_report" in lit or "has_device_malfunction_report" in lit:
        lit.drop("has_unlicensed_capability_mention")  # 밝기가 안 올라가요: the function that fails is the problem told, not talk
    act, cues = c.act, c.cues
    any_scope = bool(anchored(c) or c.identity or cues.get("sch_scope") or frg_strength or _said(c)
                     or (act is not None and (act.polarity == "prohibited" or act.mood == "stop")))
    if c.has_proper_noun and (cues.get("question") or cues.get("check")) and not anchored(c):
        lit("has_public_entity_question", 1.0, "proper_noun_question")
    if not any_scope and not cues.get("reply_shape") and c.role not in ("guard", "temporal"):
        fragment_axes(c, lit, m)
    if act is not None and "trails_off:broken_off" in act.signals:  # 충전대로… 아 전화 왔다: a request begun and dropped
        lit("is_broken_off_request", 1.0, c.text)
    for hit in (h for h in c.capabilities if h.via == SLOT_ANSWER):  # (어느 방으로 갈까요? 어… 그 서재?: its hesitation is answered)
        lit("has_contextual_device_slot_answer", 1.0, f"slot_answer:{hit.capability_id}.{hit.operation_id}")
    if history.active_schedule_workflow:
        lit("has_active_schedule_workflow", 1.0, "voice_context.slot_state")
        filled = _fills_missing_slot(c, history, m, registry)
        strong_other = any(h.strength >= 0.9 and h.kind != "execution" for h in c.capabilities) or c.unsupported or frg_strength
        if filled or (not c.has_predicate and not strong_other):
            lit("has_contextual_schedule_slot_fragment", 1.0, f"slot_answer:{filled or 'fragment'}")
    return lit.axes()


def _merge_axes(per_clause: list[dict[str, EvidenceAxis]]) -> dict[str, EvidenceAxis]:
    merged: dict[str, EvidenceAxis] = {}
    for axes in per_clause:
        for name, axis in axes.items():
            old = merged.get(name)
            merged[name] = axis if old is None else EvidenceAxis(strength=max(old.strength, axis.strength), signals=old.signals + axis.signals)
    return merged


_SHAPING_TAGS = ("VV", "VX", "XSV")
"""A verb gives a broken turn a sentence's shape: something was asked, only its target is missing."""
_CONTENT_TAGS = ("NNG", "NNP", "SL", "SN", "NR", "VV", "VA", "XSV", "XR")
"""Morphemes that carry content; a turn with none (아 그 뭐였지, 에 그니까 그게) has nothing to clarify."""
_BROKEN_OFF = ("trailing_off", "trails_off", "cut_off_stem", "cut_off_word")
"""has_vague_reference signals of a sentence that stopped before saying what of its words (배터리... / 화면 밝)."""


def _stt_null_strategy(axes: dict[str, EvidenceAxis], clause_analyses: list[ClauseAnalysis], m: Matchers,
                       registry: Registry) -> str:
    """How a fragmentary turn is repaired: a scoped probe when a weak scope survives (a device word, a product
    noun, a room, a time), a retry when nothing but hesitation was said (어어 그, 흐음 아), else a clarification."""
    fragment = axes.get("looks_fragmentary")
    weak_scope = any(a.via in ("lemma", "ambiguous") for c in clause_analyses for a in c.anchors) or any(
        c.rooms or c.times.strength or _unframed(c) for c in clause_analyses
    )
    vague = axes.get("has_vague_reference")
    scoped = any(c.capabilities or c.mentions or c.qna_topics or product_topic(c, registry) for c in clause_analyses) or any(
        a in axes for a in ("has_frg_scope", "has_schedule_workflow_scope"))
    if vague is not None and any(s in vague.signals for s in _BROKEN_OFF) and scoped:
        return "scoped_probe"  # 배터리 음 그러니까 그 / 필터가 좀 / 화면 밝: a scope named, then the sentence breaks off
    if clause_analyses and all(hesitation_only(c, m) or c.bound_forms_only for c in clause_analyses):
        return "retry"  # 어어 그 / 흐음 아 / 는: nothing but hesitation or a sentence's tail, nothing to clarify
    if scoped and not any(c.has_predicate for c in clause_analyses):
        return "scoped_probe"  # 필터 / 센서: a word of the robot's with nothing said of it
    if fragment is None or fragment.strength < 0.5:
        return "none"
    if "echoed_sounds" in fragment.signals:
        return "retry"  # 치지직 치직 / 딴 따단 딴: a noise written down, nothing to clarify
    if weak_scope:
        return "scoped_probe"
    words = [mo for c in clause_analyses for mo in c.morphemes]
    if any(mo.tag in _SHAPING_TAGS for mo in words) or "recalling" in fragment.signals:
        return "clarify"  # 좀 해 주세요 그거 / 저거 좀 꺼 봐 / 뭐였더라: a request's shape or a word sought, no target
    return "retry" if fragment.strength >= 0.9 or not any(mo.tag in _CONTENT_TAGS for mo in words) else "clarify"


def _answers_nothing_asked(nt: NormalizedText, history: HistoryEvidence, axes: dict[str, EvidenceAxis], m: Matchers) -> None:
    """응 응 / 네 네 네?: a yes said alone (fillers aside, lexicon fragments.bare_answers) when the robot asked nothing
    before it answers nothing: no intent survives. The readings those words lit by themselves (an answer to somebody,
    interjections) give way to this one; after the robot's own question it may answer it."""
    words = [w.strip("?.!,~…") for w in nt.text.split()]
    if history.addressee_spoke_last or not words or not all(w in m.bare_answers or w in m.fillers for w in words) \
            or not any(w in m.bare_answers for w in words):
        return
    for name in [a for a in axes if a != "looks_fragmentary" and not a.startswith(LEARNED_PREFIX)]:
        del axes[name]
    axes["answers_nothing_asked"] = EvidenceAxis(strength=1.0, signals=[w for w in words if w in m.bare_answers][:2])


def preclassifier_hints(
    clause_analyses: list[ClauseAnalysis], normalized_text: NormalizedText, history_evidence: HistoryEvidence,
    learned_family_evidence: LearnedEvidence, registry: Registry,
) -> PreclassifierHints:
    """The registry anchors and evidence axes of the turn, whole and per clause."""
    m = matchers_for(registry)
    hesitating = silent_clauses(clause_analyses, m)  # 아 그 뭐냐, ... / ... 언니: they say nothing themselves
    said = [c for c, h in zip(clause_analyses, hesitating) if not h]
    per_clause = [{} if h else _clause_axes(c, history_evidence, m, registry) for c, h in zip(clause_analyses, hesitating)]
    if not per_clause:
        per_clause = [{"looks_fragmentary": EvidenceAxis(strength=1.0, signals=[normalized_text.rejected_reason or "empty"])}]
    reasons = quiet_reasons(clause_analyses, per_clause, registry)
    axes = _merge_axes(quiet_waited_on(clause_analyses, quiet_premises(clause_analyses, reasons)))
    cross_clause_axes(said, normalized_text, history_evidence, axes, registry)
    supposed_only(clause_analyses, per_clause, axes)
    how_to_schedule(said, axes, registry)
    close_for_a_person(said, axes, per_clause, registry)
    _answers_nothing_asked(normalized_text, history_evidence, axes, m)
    # the learned model is one more axis per family, counted on gray-zone turns only; it never licenses anything
    model = (learned_family_evidence.model or "").split(":")[0]  # its digest (what it was fitted on: the node's output)
    for family, p in learned_family_evidence.probabilities.items():
        if p >= LEARNED_FLOOR:
            axes[f"{LEARNED_PREFIX}{family}"] = EvidenceAxis(strength=round(p, 3), signals=[f"p={p:.2f}", f"model {model}"])
    strategy = _stt_null_strategy(axes, clause_analyses, m, registry)
    return PreclassifierHints(
        clauses=[
            Clause(index=c.index, text=c.text, compact=c.compact, connective=c.connective, role=c.role, speech_act=c.act)
            for c in clause_analyses
        ],
        anchors=[a for c in clause_analyses for a in c.anchors],
        axes=axes,
        clause_axes=without_quieted_reports(per_clause, reasons),
        unsupported_request_categories=list(dict.fromkeys(cat for c in clause_analyses for cat in c.unsupported))
        + (["unsupported_device_mode"] if any(c.unknown_modes for c in clause_analyses) else []),
        device_qna_topics=list(dict.fromkeys(t for c in clause_analyses for t in c.qna_topics)),
        product_identity_anchors=["product_identity"] if any(c.identity for c in clause_analyses) else [],
        stt_null_response_strategy=strategy,
    )
