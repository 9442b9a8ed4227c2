"""The licence a device action needs: a capability hit is kept only where its clause's speech act and the
capability's request frame in the registry allow it; anything else stays a mention, kept as evidence.

A hit is licensed by an affirmative request to the robot (or, for a state query, a question about the robot's
own state) whose governing predicate and object realize the capability's frame. A recognition slip may repair
one word of an otherwise complete frame; it never makes a frame on its own.
"""

from __future__ import annotations

import dataclasses
from functools import lru_cache

from registry.contracts import SpeechAct
from registry.hangul import all_hangul, deletions, jamo
from registry.loader import Registry
from stages._addressee import assistant_called
from stages._asked_about import asks_of_another_thing
from stages._calls import only_retraction_words
from stages._clauses import ClauseAnalysis, thing_named
from stages._matchers import compact, matchers_for, public_place_of
from stages._fragments import spelled_by_syllables
from stages._other_things import OTHER_THINGS_PART, owned_topics
from stages._self_repair import taken_back_at_the_end
from stages._state_asked import asked_subject, names_an_occasion, recalled, state_asked
from stages._predicates import final_predicate, governing_predicate, planned_by_the_speaker
from stages.speech_patterns import key, patterns


FRAMELESS = "fragment_without_frame"
"""The reason of a device word in a fragment with no frame around it (그 청정 좀, 풍량)."""
SLIP = "slip_without_frame"
"""The reason of a recognition slip's repair that nothing licenses: a guess at a word, never a mention of it."""
TOPIC_ALONE = "topic_alone"
"""배터리 / 공기 상태: a state named in a short fragment, with nothing asked of it: broken off, neither asked nor talk."""
_ALL_OPERATION_CUES = ("on", "off", "increase", "decrease", "check")


def _frame_mismatch(hit, c: ClauseAnalysis, registry: Registry) -> str | None:
    """Why the predicate the capability word belongs to does not realize the capability (None when it does)."""
    frames = registry.frames
    p = patterns(registry)
    governing = governing_predicate(hit, c, p)
    at, predicate = governing if governing is not None else (-1, None)
    premise = p.premise
    after = [i for i, o in enumerate(c.compact_offsets) if o >= hit.position + len(hit.surface)]
    window = c.morphemes[after[0] if after else len(c.morphemes): (at if at >= 0 else after[0] if after else 0) + 4]
    if any((mo.form, mo.tag) in premise for mo in window):
        return "premise"  # 공기 괜찮으니까 ...: the word's predicate states a reason, nothing is asked of it
    if any((mo.form, mo.tag) in p.how_to_conditionals for mo in window):
        return "purpose"  # 사진 찍으려면 폰 꺼내: what one means to do, nothing is asked of the robot
    light = frames.light_set if hit.kind != "state_query" else frozenset()
    if predicate is not None and predicate not in light and not (hit.via == "frame" and hit.kind == "state_query"):  # (due run)
        fits = frames.fits(hit.capability_id, hit.kind, registry.capability_by_id[hit.capability_id].schedulable)
        if predicate not in fits and not _slip_of_a_verb(predicate, fits):
            return "predicate:" + predicate[0]
    frame = frames.capabilities.get(hit.capability_id)
    morphs = c.morphemes
    if predicate is not None and hit.via == "alias" and hit.kind != "state_query" and at + 1 < len(morphs) \
            and morphs[at + 1].tag == "ETM" and not _a_step_after(morphs, at + 2, matchers_for(registry)):
        return "modifier"  # 사진 찍은 거 보내 줘 / 찍을 때 화면에 보여?: its verb describes a noun or a time
    first = next((i for i, o in enumerate(c.compact_offsets) if o >= hit.position), None)
    if first and morphs[first - 1].tag == "XPN" and frame is not None and hit.surface in frame.objects:
        return "prefixed:" + morphs[first - 1].form  # (헛바퀴만 돌아: a prefix makes another noun than 한 바퀴's)
    if hit.kind == "state_query":
        attributes = registry.product.attribute_words
        left = registry.product.remaining_set  # (남은 수명 알려 줘: how much is left now is the robot's state)
        asked = next((mo.form for j, mo in enumerate(morphs) if j >= after[0] and mo.form.lower() in attributes and not (
            {key(x) for x in morphs[max(j - 2, 0):j] if x.tag != "ETM"} & left)), None) if after else None
        if asked is not None:
            return "attribute:" + asked  # 배터리 용량 몇 mAh야: a property of the product, not its state
    if (subject := asked_subject(hit, c, frame, registry) if frame is not None and frame.subjects else None) is not None:
        return "subject:" + subject  # 약국 어디야: the question is about the pharmacy
    if hit.via == "lemma" and frame is not None and frame.objects:
        at = next((i for i, mo in enumerate(morphs) if mo.form == hit.surface), None)
        j = at - 1 if at is not None else -1  # (the word not found as a morpheme: nothing to check)
        while j >= 0 and (morphs[j].tag in ("MAG", "JX", "JKO", "MM") or key(morphs[j]) in frame.goal_object_set):
            j -= 1
        counted = j > 0 and morphs[j].tag == "NNB" and morphs[j - 1].tag in ("SN", "NR", "MM")  # (1위 찍고: a rank)
        if j >= 0 and (morphs[j].tag in ("NNG", "NNP", "NP", "SN", "NR") or counted) and morphs[j].form not in frame.objects:
            return "object:" + morphs[j].form  # (a counter the frame counts by is one of its objects: 한 장, 두 바퀴)
        if at is not None and at + 1 < len(morphs) and morphs[at + 1].tag in ("ETM", "ETN"):
            return "modifier"  # 찍은 사진: the verb describes a noun, nobody asks for it
    return None


def _a_step_after(morphs: list, i: int, m) -> bool:
    """동의를 받은 뒤 / 찍기 전에: a sequence noun after the modifier makes its act a step asked for, not a description."""
    return i < len(morphs) and (morphs[i].form in m.sequence_nouns or morphs[i].form in m.before_nouns)


def _frame_element(c: ClauseAnalysis, hit, repaired: bool = False) -> bool:
    """Besides the capability word itself: a room, an argument, another capability word or an operation word
    (punctuation is no word: a "?" completes no frame). A repaired word needs its own argument or operation:
    the generic "on" words (해, 해줘) are its predicate, and another capability is not its argument."""
    cues = _ALL_OPERATION_CUES[1:] if repaired else _ALL_OPERATION_CUES
    worded = any(any("\uac00" <= ch <= "\ud7a3" or "\u3131" <= ch <= "\u318e" or ch.isalnum() for ch in cue)
                 for k in cues for cue in c.cues.get(k, []))  # ㄱㄱ is a word; a "?" is not
    timed = c.times.strength >= 1.0  # 밤 11시부터 고정청정: a time is an argument of a scheduled act
    # 스테이션 복귀: two words of the same capability make its frame (the place and the act)
    twice = len({a.surface for a in c.anchors if a.target == hit.capability_id}) >= 2
    return bool(c.rooms or hit.arguments or worded or timed
                or (not repaired and (twice or any(h is not hit for h in c.capabilities))))


def _noun_after(hit, c: ClauseAnalysis) -> bool:
    """A noun follows the capability word's first noun in its clause (배터리 잔량, 공기 상태): it is not named alone
    (공기 공기 공기: the same word said again names it alone all the same)."""
    nouns = [mo.form for at, mo in zip(c.compact_offsets, c.morphemes) if at >= hit.position and mo.tag.startswith("NN")]
    return len(set(nouns)) >= 2


def _head_noun_after(hit, c: ClauseAnalysis) -> str | None:
    """The plain noun (no registry word) right after a capability word, which then only qualifies it."""
    end = hit.position + len(hit.surface)
    for i, at in enumerate(c.compact_offsets):
        if at >= end:
            mo = c.morphemes[i]
            if at != end or mo.tag not in ("NNG", "NNP") or c.in_registry_word[i]:
                return None
            # 배터리 잔량: the last word names what is asked; 미세먼지 예방법이나 ...: more follows the noun it qualifies
            more = any(not m.tag.startswith(("J", "E", "S", "X")) for m in c.morphemes[i + 1:])
            return mo.form if more else None
    return None


def _outside_of_a_room(c: ClauseAnalysis) -> bool:
    """A room word followed right away by an outside word the clause holds (its "outside" cues: 거실 밖, 안방
    바깥): the place is outside that room."""
    outside = set(c.cues.get("outside", []))
    rooms = {a.surface for a in c.anchors if a.kind == "room"} if outside else set()
    return any(a.form in rooms and b.form in outside for a, b in zip(c.morphemes, c.morphemes[1:]))


def _world_event(c: ClauseAnalysis, registry: Registry) -> tuple[int, int] | None:
    """Morpheme indexes of the noun and predicate of a world event in the clause (바람 많이 불어, 눈 온대), if any: the
    noun, then its predicate with no other predicate between (an adverb made of an adjective, 세게, may be)."""
    pairs = registry.frames.world_event_pairs
    nouns, endings = registry.frames.world_nouns
    ms = c.morphemes
    for i, mo in enumerate(ms):
        if mo.tag not in ("NNG", "NNP"):
            continue
        # 영동고속도로, 함박눈: a name ending in a world noun of two syllables or more is one of its kind
        noun = mo.form if mo.form in nouns else next((n for n in endings if mo.form.endswith(n)), None)
        if noun is None:
            continue
        for j in range(i + 1, len(ms)):
            if (noun, ms[j].form, ms[j].tag) in pairs:
                return i, j
            adverb = ms[j].tag == "VA" and j + 1 < len(ms) and ms[j + 1].form == "게"
            if ms[j].tag.startswith(("VV", "VA", "VX", "XR")) and not adverb:
                break
    return None


def _part_of_world_event(hit, c: ClauseAnalysis, event: tuple[int, int] | None) -> bool:
    """The hit's word is the noun or the predicate of the clause's world event (바람 is the wind when it blows)."""
    if event is None:
        return False
    start, end = hit.position, hit.position + len(compact(hit.surface))
    return any(start <= c.compact_offsets[k] < end for k in event)


def _licensed(hit, c: ClauseAnalysis, act: SpeechAct, requested: bool, registry: Registry,
              event: tuple[int, int] | None = None) -> str | None:
    """None when the clause licenses this hit, else why not (`event`: the clause's world event)."""
    if c.role in ("guard", "temporal"):
        return None if requested else "condition_without_request"  # a guard's subject is read, never acted on
    if _part_of_world_event(hit, c, event):
        return "target:world"  # 오늘 바람 많이 불어? 눈 온다며? 비 온대?: the weather, not the fan or a move, quoted or not
    if hit.position < act.quoted_until:
        return "quoted"
    if act.target_owner:
        return f"target:{act.target_owner}"
    if (hit.capability_id in matchers_for(registry).scoped_capabilities and c.cues.get("outside")
            and not c.cues.get("indoor")):
        return "target:outdoors"  # 바깥 공기 괜찮나?: the robot measures only where it is
    if not c.rooms and ((hit.capability_id in matchers_for(registry).room_bound_capabilities and c.cues.get("outside"))
                        or ((hit.capability_id in matchers_for(registry).room_bound_capabilities or _placed_state(hit, c, registry))
                            and public_place_of(c.morphemes, matchers_for(registry)))):
        # 약국 가서 약 사 와, 밖에 나가: outside the home, no room the robot can reach; 극장 제일 가까운 데가 어디여: the
        # place's whereabouts (or its air), not the robot's state
        return "target:outside_place"
    if hit.capability_id in matchers_for(registry).room_bound_capabilities and _outside_of_a_room(c):
        return "target:outside_of_room"  # 거실 밖으로 나가: out of the room, not into it
    if hit.capability_id in matchers_for(registry).room_bound_capabilities and not c.rooms and planned_by_the_speaker(hit, c, patterns(registry)):
        return "user"  # 산책 가려는데 비 와?: the speaker's going is the background of what is asked
    if spelled_by_syllables(hit, c, act, matchers_for(registry)):
        return "spelled_by_syllables"
    if hit.kind == "state_query" and c.connective in matchers_for(registry).before_nouns:
        return "time_of_event"  # 배터리 닳기 전에 ...: when something happens, not a question about the state now
    if hit.kind == "state_query" and act.mood != "request" and names_an_occasion(hit, c, registry):
        return "time_of_event"  # 배터리 거의 없을 때도 돌아?: the case asked about, not the battery now
    if hit.kind == "state_query" and recalled(hit, c, registry):
        return "recalled"  # 온도가... 아니 습도였나: which word it was, not the humidity now
    allowed = act.licenses_state_query if hit.kind == "state_query" else act.licenses_action
    if allowed and hit.kind == "state_query" and act.mood == "fragment" and not (_frame_element(c, hit) or _noun_after(hit, c)):
        return TOPIC_ALONE  # (배터리 잔량 / 안방 공기: what of the state, or where, is said: a terse question)
    if not allowed:
        for reason, bad in (("prohibited", act.polarity == "prohibited"), ("negated", act.polarity == "negated" and hit.kind != "state_query"),
                            ("reported", act.reported), ("past", act.past), (act.agent, act.agent != "robot"),
                            ("means_of:" + (act.means_of or ""), act.means_of is not None),
                            ("standing_rule", "standing_rule" in act.signals)):
            if bad:
                return reason
        return act.mood
    asking = act.asks_for_an_act or (hit.kind == "state_query" and act.mood == "state_question")
    if hit.via == "fuzzy" and (not asking or not (_frame_element(c, hit, repaired=True) or _own_predicate(hit, c, registry))):
        return SLIP  # a repaired word needs the rest of its frame around it
    if act.mood == "fragment" and hit.kind == "state_query" and not _frame_element(c, hit):
        head = _head_noun_after(hit, c)
        if head is not None:
            return "modifies:" + head  # 미세먼지 예방법: the capability word only qualifies another noun
    framed_lemma = hit.via == "lemma" and bool(c.rooms)  # 안방 가 (가 heard as a noun): the verb and its room
    if act.mood == "fragment" and hit.kind != "state_query" and not framed_lemma and not (  # (only a fragment asks)
            hit.via == "alias" and (hit.capability_id, hit.surface) in matchers_for(registry).whole_requests
            and not any(mo.tag.startswith("NN") for at, mo in zip(c.compact_offsets, c.morphemes) if 0 <= at < hit.position)) and (
            hit.via not in ("alias", "pattern", "frame") or not _frame_element(c, hit)):
        return FRAMELESS  # (음소거: a word that names the act in full is its frame: capability whole_request_aliases)
    if hit.kind == "state_query" and act.mood == "request" and _told_in_passing(hit, c, registry):
        return "told"  # 거실 공기가 탁하다 거실 청정 좀 해 줘: the state is told as the reason; the request is the other verb
    if hit.kind == "state_query" and act.mood == "request" and _acted_on(hit, c):
        return "object_of_action"  # 공기 좀 싹 정화해 줘: the air is what is purified, nobody asks how it is
    return _frame_mismatch(hit, c, registry)


def _slip_of_a_verb(predicate: tuple[str, str], fits: frozenset[tuple[str, str]]) -> bool:
    """필터 상태 아려 줘 (Kiwi: 아리/VA): a predicate one jamo short of a verb the frame takes, a recognition slip that
    repairs the one word of a frame otherwise complete. Only a verb of two syllables or more (배터리 사 줘 is no 차)."""
    return all_hangul(predicate[0]) and jamo(predicate[0]) in _one_jamo_short(fits)


@lru_cache(maxsize=256)
def _one_jamo_short(fits: frozenset[tuple[str, str]]) -> frozenset[str]:
    """Every spelling one jamo short of a verb of two syllables or more among a frame's predicates (built once per frame)."""
    return frozenset(v for form, tag in fits if len(form) >= 2 and tag.startswith("VV") for v in deletions(jamo(form)) - {jamo(form)})


def _placed_state(hit, c: ClauseAnalysis, registry: Registry) -> bool:
    """A state that belongs to a place: one whose word may be indoors or out (공기, 온도), or asked by a pronoun of place
    (어디): a public place named with it asks the place's, not the robot's (배터리 stays the robot's wherever one goes)."""
    return hit.kind == "state_query" and (hit.capability_id in matchers_for(registry).scoped_capabilities or any(
        at == hit.position and mo.tag == "NP" for at, mo in zip(c.compact_offsets, c.morphemes)))


def _acted_on(hit, c: ClauseAnalysis) -> bool:
    """The state word is followed, past adverbs (an adjective's -게 too: 공기를 깨끗하게 청정해) and object or topic
    particles only, by the word of an execution capability the clause holds: it is that action's object."""
    end = hit.position + len(hit.surface)
    acts = {h.position for h in c.capabilities if h.kind == "execution" and h.position >= end}
    for at, mo in zip(c.compact_offsets, c.morphemes):
        if at < end:
            continue
        if at in acts:
            return True
        if mo.tag not in ("MAG", "JKO", "JX", "XR", "XSA", "VA") and (mo.tag, mo.form) != ("EC", "게"):
            return False
    return False


def _told_in_passing(hit, c: ClauseAnalysis, registry: Registry) -> bool:
    """The state query's word is the subject of an adjective that closes a sentence of its own (탁하다, 탁해요) before
    the clause's own request verb: the user tells the state, nobody asks it."""
    p = patterns(registry)
    governing, last = governing_predicate(hit, c, p), final_predicate(c, p)
    if governing is None or last is None or governing[0] >= last[0] or governing[0] + 1 >= len(c.morphemes):
        return False
    return c.morphemes[governing[0]].tag.startswith(("VA", "XSA")) and c.morphemes[governing[0] + 1].tag == "EF"


def _own_predicate(hit, c: ClauseAnalysis, registry: Registry) -> bool:
    """The word's governing predicate is one its capability's frame names, not a light verb (스테이숀으로
    돌아가: 돌아가 completes the frame of return_to_station; 해, 시작 complete nobody's)."""
    frame = registry.frames.capabilities.get(hit.capability_id)
    governing = governing_predicate(hit, c, patterns(registry))
    return (frame is not None and governing is not None and governing[1] not in registry.frames.light_set
            and governing[1] in frame.predicate_set)


@lru_cache(maxsize=8)
def _level_words(registry: Registry) -> frozenset[str]:
    """The words that name a setting of the robot's own (터보, 강풍, 최대: capability level and argument words of two
    syllables or more; 약 and 강 are medicine and a river as often)."""
    return frozenset(w.lower() for cap in registry.capabilities.capabilities
                     for w in (*cap.level_words, *(k for words in cap.argument_words.values() for k in words)) if len(w) >= 2)


def unsupported_frame(c: ClauseAnalysis, registry: Registry) -> str | None:
    """The UNS category whose frame the clause's governing predicate (and its object) realizes, if any."""
    p = patterns(registry)
    found = final_predicate(c, p)
    after = [key(mo) for mo in c.morphemes[found[0] + 1:]] if found is not None else []
    if found is None or c.in_registry_word[found[0]] or any(
            k in p.premise and (i + 1 == len(after) or after[i + 1] not in p.benefactive) for i, k in enumerate(after)):
        return None  # 들어 올렸더니 ...: a premise asks for nothing (갖다 줘: -다 before a benefactive is no premise)
    frames, product = registry.frames.unsupported, registry.product.words
    own = frames.own_noun_set | _level_words(registry)  # 터보로 올려: a level of the robot's own
    nouns = {mo.form for i, mo in enumerate(c.morphemes) if mo.tag in ("NNG", "NNP") and not c.in_registry_word[i]
             and (mo.form, mo.tag) not in p.robot and mo.form.lower() not in product  # 모드 바꿔줘 asks which mode
             and mo.form.lower() not in own
             and not (i > 0 and key(c.morphemes[i - 1]) in frames.reference_determiner_set)}  # 그 거: a reference back
    recipient = {(mo.form, mo.tag) for i, mo in enumerate(c.morphemes)
                 if i and c.morphemes[i - 1].tag in ("NNG", "NNP", "NP") and mo.tag.startswith("J")}
    light = found[1] in registry.frames.light_set  # 엄마한테 잘해: a light verb to somebody passes on no message
    thing = thing_named(c, registry.speech_acts)  # 가스레인지 꺼 줘: another thing of the home is an object too
    at = found[0]
    if found[1][1].startswith("VA") and at + 1 < len(c.morphemes) and key(c.morphemes[at + 1]) in p.manner_end and thing:
        return registry.speech_acts.other_targets.category  # 무드등 좀 어둡게 해 줘: another thing made to be so
    if light:
        # 방 청소 싹 해 놔라: a light verb spaced from its verbal noun carries that noun's frame
        noun = next((k for k in reversed([key(mo) for mo in c.morphemes[:at]])
                     if k[1] == "NNG" and k in frames.predicate_union), None)
        if noun is not None:
            found, light = (at, noun), False
    for category, predicates, objects, to_whom in frames.compiled:
        to_somebody = not light and bool(recipient & to_whom)
        if found[1] in predicates and (not objects or ("*" in objects and (nouns or thing)) or nouns & objects or to_somebody):
            return category
    return None


_CONTENT_TAGS = frozenset({"NNG", "NNP", "NR", "SN", "SL", "VV", "VA", "VA-I", "XR"})


def _deictic_identity(c: ClauseAnalysis, act: SpeechAct, cues: dict, mentions: list[str], registry: Registry) -> tuple[bool, dict]:
    """이거 밤에 틀어 놓으면 시끄러워? / 이거 어느 나라에서 만든 제품이에요?: a question to the robot whose only vague
    words are "this" (lexicon fragments.product_deictics) asks about the product at hand, not about nothing. Not when
    the clause names another thing's part or an act the robot does not do (`mentions`): "this" is that (냉장고 E5
    뜨는데 이거 뭔 뜻이야?, 카드 결제 승인 ... 이거 뭐지)."""
    vague = cues.get("vague", [])
    deictic = matchers_for(registry).product_deictics
    if not (vague and all(v in deictic for v in vague) and act.agent == "robot" and not act.reported
            and act.mood in ("question", "knowledge_question")) or any(
            x.endswith(OTHER_THINGS_PART) or x.split(":")[0] in registry.unsupported_categories for x in mentions):
        return c.identity, cues
    # 이거 어떻게 (된 거야)?: with no word of its own besides question words and light verbs it stays vague
    said = says_more_than(c, deictic, registry)
    return (True, {k: v for k, v in cues.items() if k != "vague"}) if said else (c.identity, cues)


def says_more_than(c: ClauseAnalysis, words, registry: Registry) -> bool:
    """Whether the clause names anything besides `words` (compact forms: 이거, 그거): a noun, a number, a unit (a bound
    noun that is no nominalizer: 몇 제곱미터) or a verb that is no light verb, question word or pro-form (이거 뭐야,
    그거 언제 돼?, 이거 어떻게 된 거야 name nothing)."""
    p, light, pro_forms = patterns(registry), registry.frames.light_set, matchers_for(registry).pro_forms
    return any((mo.tag in _CONTENT_TAGS or (mo.tag == "NNB" and key(mo) not in p.nominalizers))
               and key(mo) not in p.question_words and key(mo) not in light and compact(mo.form) not in words
               and key(mo) not in pro_forms for mo in c.morphemes)


def _subjects_offered(c: ClauseAnalysis, before: list[ClauseAnalysis]) -> dict[str, str]:
    """우리 강아지 지금 거실이야 아니면 안방이야: an alternative says nothing of whose state it asks; the subject the
    alternative before it names holds (capability -> the reason its hit was refused there)."""
    if not (c.alternative and before and before[-1].alternative):
        return {}
    return {m.split(":")[0]: m.split(":", 1)[1] for m in before[-1].mentions if ":subject:" in m}


def _retracted_before(clauses: list[ClauseAnalysis], acts: list[SpeechAct], registry: Registry) -> int:
    """안방으로 가. 아 아니다, 취소 / 사진 찍어 줘 아 됐어: the index of the last clause taking back what was asked before
    it (0 when none; 깔아 주면 돼 after a condition is no retraction)."""
    words = registry.speech_acts.retraction_set
    return max((i for i, (c, a) in enumerate(zip(clauses, acts)) if i and clauses[i - 1].role != "guard"
                and ("takes_back" in a.signals or only_retraction_words(c, words))), default=0)


def license_clauses(clauses: list[ClauseAnalysis], acts: list[SpeechAct], registry: Registry) -> list[ClauseAnalysis]:
    """The clauses with only the capability hits their speech act licenses; the rest kept as mentions."""
    category, carried_things = registry.speech_acts.other_targets.category, registry.speech_acts.other_targets.carried_by_a_person
    requested = any(a.licenses_action or a.licenses_state_query for c, a in zip(clauses, acts) if c.role == "action")
    # 오케이 구글 불 꺼 그리고 로봇 너는 청정해: what another assistant is asked is not the robot's to refuse
    robot_asked = any(a.agent == "robot" and a.asks_for_an_act and a.polarity == "affirmative" for c, a in zip(clauses, acts)
                      if c.role == "action" and (c.capabilities or c.unsupported))
    retracted_before = _retracted_before(clauses, acts, registry)
    out: list[ClauseAnalysis] = []
    for i, (c, act) in enumerate(zip(clauses, acts)):
        kept, mentions = [], []
        event, offered = _world_event(c, registry), _subjects_offered(c, out)
        ends_taken_back = bool(c.capabilities) and taken_back_at_the_end(c.morphemes, matchers_for(registry))  # 주방 청정 아 아니
        for hit in c.capabilities:
            reason = "retracted" if i < retracted_before else _licensed(hit, c, act, requested, registry, event)
            reason = reason or ("retracted" if ends_taken_back else None) or offered.get(hit.capability_id)
            if (owner := state_asked(reason, hit, c, registry)) is not None:  # 필터 몇 프로 남았어요: the filter's, not the battery's
                if any(h.capability_id == owner.capability_id for h in c.capabilities):
                    continue  # (헤파 필터 몇 프로 남았는지: the state the clause asks already)
                hit, reason = owner, _licensed(owner, c, act, requested, registry, event)
            if reason is not None and hit.via == "fuzzy":
                reason = SLIP  # a repaired word that is not licensed was a guess: no word of the robot's was said
            if reason is None:
                kept.append(hit)
            else:
                mentions.append(f"{hit.capability_id}:{reason}")
        unsupported = list(c.unsupported)
        quoted = any(x.endswith(":quoted") for x in mentions)  # (... 줄여 주면 안 되냐고 말해 볼까: words quoted)
        if act.target_owner and category not in unsupported and not quoted:
            unsupported.append(category)
        # 세탁기 돌려줘, 물 좀 갖다 줘, 시리야 음악 틀어 줘: a request the robot cannot do, by its frame
        to_assistant = assistant_called(act.signals)
        if not kept and not unsupported and not c.unknown_modes and c.role == "action" and act.asks_for_an_act:
            framed = unsupported_frame(c, registry)
            if framed is not None:
                unsupported.append(framed)
            elif thing_named(c, registry.speech_acts) is not None:
                unsupported.append(category)  # 전기밥솥 취사 눌러 줘 / 안마의자 켜 줘: asked to work another thing in the home
        asks = act.asks_for_an_act or act.mood == "fragment" or asks_of_another_thing(act, carried_things)
        if unsupported and c.role == "action" and not (
                asks and act.polarity == "affirmative" and (act.agent == "robot" or (to_assistant and not robot_asked))
                and not act.reported and not act.past):
            mentions += [f"{cat}:{act.polarity if act.polarity != 'affirmative' else act.mood}" for cat in unsupported]
            unsupported = []
        # 필터는 아직 안 갈아도 돼 / 요즘 다이어트 모드야: a manual topic or an unknown mode in talk asks nothing
        talk = c.role == "action" and not act.displayed and (act.mood in ("statement", "exclamation", "wish") or act.reported
                                                              or (act.past and act.mood not in ("question", "knowledge_question")))
        topics, owned = owned_topics(c, act, c.qna_topics, registry)  # (another thing's part, asked or told of)
        if talk:
            mentions += [f"{t}:{act.mood}" for t in topics] + [f"mode:{w}:{act.mood}" for w in c.unknown_modes]
        topics, modes = (topics, c.unknown_modes) if not talk else ([], [])
        mentions += owned
        dropped = {m.split(":")[0] for m in mentions}
        anchors = [a for a in c.anchors if not (a.kind in ("execution", "settings", "state_query", "unsupported") and a.target in dropped)]
        cues = c.cues
        # 알람 맞추지 마 / 엄마는 알람 없이도 다섯 시면 일어나셔: a schedule word in what is forbidden, was done or is
        # somebody else's registers nothing, in a condition as much as in an act
        if c.role in ("action", "guard") and (act.polarity != "affirmative" or act.reported or act.past or act.agent != "robot"):
            cues = {k: v for k, v in cues.items() if not k.startswith("sch_") or k == "sch_list"}
        # a condition's "this" is asked about by the question it conditions (이거 밤에 틀어 놓으면 시끄러워?)
        asking = next((a for d, a in zip(clauses[i:], acts[i:]) if d.role == "action"), act) if c.role == "guard" else act
        identity, cues = _deictic_identity(c, asking, cues, mentions, registry)
        out.append(dataclasses.replace(c, capabilities=kept, unsupported=unsupported, anchors=anchors, cues=cues,
                                       act=act, mentions=mentions, qna_topics=topics, unknown_modes=modes, identity=identity,
                                       world_event=event))
    return out
