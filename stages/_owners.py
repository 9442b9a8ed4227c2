"""Whose device words a turn's clauses hold: another thing in the home named before or after them, what is
played named nearby, a purifier named by its room. Each sets a reading's target owner (stages/speech_acts.py).

Pure functions of the clauses, their readings and the speech-act lexicon.
"""

from __future__ import annotations

from registry.speech_contracts import SpeechActLexicon
from stages._addressee import robot_called
from stages._clauses import ClauseAnalysis, in_order, last_said, thing_as_subject, thing_at_the_end, thing_before, thing_named
from stages.clause_reading import Reading
from stages.speech_patterns import Patterns, contains, key


def owned_by_other_thing(c: ClauseAnalysis, lex: SpeechActLexicon) -> str | None:
    """The kind of thing in the home whose name stands right before one of the clause's capability words."""
    if not c.capabilities:
        return None
    starts = {h.position for h in c.capabilities}
    settings = {h.position for h in c.capabilities if h.kind == "settings"}  # (영화 찍냐: a film is made, not played)
    played = lex.other_targets.played
    for mo, nxt in zip(c.morphemes, c.compact_offsets[1:]):
        if mo.tag == "NNG" and mo.form in played and nxt in settings:
            return "media"  # 영상 소리 좀 꺼: the sound of what another device plays
    return thing_before(c, lex, sorted(starts))


def a_rooms_purifier(c: ClauseAnalysis, r: Reading, p: Patterns) -> None:
    """안방 공기청정기 좀 세게 틀어 줄래: a purifier named by the room it stands in is that room's appliance, not the
    robot that moves between rooms (unless the robot is called)."""
    if r.target_owner or robot_called([r.signals]):
        return
    rooms = [a.surface for a in c.anchors if a.kind == "room"]
    ms = c.morphemes
    for i, mo in enumerate(ms):
        if (mo.form, mo.tag) in p.robot and mo.tag.startswith("NN"):
            j = i  # (공기청정기 read as 공기 + 청정기: the room stands before the whole written word)
            while j > 0 and ms[j - 1].tag.startswith("NN") and ms[j - 1].start + ms[j - 1].length == ms[j].start:
                j -= 1
            before = c.compact[:c.compact_offsets[j]]
            if before and any(before.endswith(room) for room in rooms):
                r.target_owner = "room_purifier"
                r.signals.append(f"target:room_purifier:{mo.form}")
                return


def owner_named_at_the_end(clauses: list[ClauseAnalysis], per: list[Reading], lex: SpeechActLexicon) -> None:
    """볼륨 좀 줄여, 티비 / 아 배터리 다 됐네 폰: another thing in the home named last, as a clause of its own or as the
    last word after the predicate, says whose the turn's device words are."""
    if not clauses:
        return
    last = last_said(clauses)
    c = clauses[last]
    # 니 폰 / 전기차 말이야: a short afterthought of its own, with no predicate but "I mean" (afterthought_markers)
    ms = [(m.form, m.tag) for m in c.morphemes]
    afterthought = not c.has_predicate or any(contains(ms, run) for run in lex.afterthought_runs)
    alone = len(clauses) > 1 and len(c.text.split()) <= 3 and afterthought
    owner = thing_named(c, lex) if alone else thing_at_the_end(c, lex)
    if owner is None:
        return
    for i, r in enumerate(per):
        if (i != last or not alone) and r.target_owner is None and (clauses[i].capabilities or r.mood == "stop"):
            r.target_owner = owner
            r.signals.append(f"target:{owner}:named_at_the_end")  # (꺼 스마트 플러그: a stop aimed at it)


def _intends(c: ClauseAnalysis, lex: SpeechActLexicon) -> bool:
    """The clause says what the speaker will do (볼 거야, 할래: speech_acts intentions)."""
    ms = [key(m) for m in c.morphemes]
    return any(contains(ms, run) for run in lex.intention_runs)


def owner_played_nearby(clauses: list[ClauseAnalysis], per: list[Reading], lex: SpeechActLexicon) -> None:
    """볼륨 좀 올려 줘, 뉴스 하나도 안 들려 / 음소거 좀 해 봐, 광고 나온다: what is played (other_targets.played) named
    in another clause of the turn says whose sound or screen the request is about; the robot plays nothing. Only
    for a request of capabilities other things have too, and not when the robot is called."""
    if robot_called(r.signals for r in per):
        return
    played = set(lex.other_targets.played)
    carried = set(lex.other_targets.carried_capabilities)
    busy = lex.other_targets.busy_set  # (방송 중이야: what the speaker is doing)
    for i, (c, r) in enumerate(zip(clauses, per)):
        if r.mood != "request" or r.target_owner is not None or not c.capabilities \
                or not all(h.capability_id in carried for h in c.capabilities):
            continue
        # (소리 끄고 밝기 낮춰 줘, 영화 볼 거야: what the speaker is about to watch asks the robot to make room for it)
        noun = next((m.form for j, o in enumerate(clauses) if j != i and not _intends(o, lex)
                     for m, after in zip(o.morphemes, [*o.morphemes[1:], None])
                     if m.tag == "NNG" and m.form in played and (after is None or key(after) not in busy)), None)
        if noun is not None:
            r.target_owner = noun
            r.signals.append(f"target:{noun}:played_nearby")


def owner_said_before(clauses: list[ClauseAnalysis], per: list[Reading], lex: SpeechActLexicon) -> None:
    """티비 화면이 너무 밝아 좀 어둡게 해: a request that names nothing it acts on (no noun, no device word) right
    after a clause that names another thing in the home acts on that thing; so does a request for a capability
    things have too (other_targets.carried_capabilities) right after a remark whose subject is a thing (티비 화면 눈
    아파 밝기 낮춰 줄래)."""
    order = in_order(clauses)
    carried = set(lex.other_targets.carried_capabilities)
    for before, i in zip(order, order[1:]):
        c, r = clauses[i], per[i]
        bare = not c.capabilities and not any(m.tag.startswith(("NN", "NP", "SL")) for m in c.morphemes)
        shared = bool(c.capabilities) and all(h.capability_id in carried for h in c.capabilities) and not c.rooms \
            and per[before].mood in ("statement", "exclamation") and not per[before].past
        mine = any(s.startswith("robot_subject:") for s in r.signals)  # (디스코드 소리랑 겹치니까 너 볼륨 0으로 해)
        if r.mood == "request" and r.target_owner is None and not mine and (
                bare or (shared and thing_as_subject(clauses[before], lex))):
            owner = per[before].target_owner or thing_named(clauses[before], lex)
            if owner is not None:
                r.target_owner = owner
                r.signals.append(f"target:{owner}:said_before")


def owners_across(clauses: list[ClauseAnalysis], per: list[Reading], lex: SpeechActLexicon) -> None:
    """The owners the turn names around its requests: at the end, said before, played nearby (in that order)."""
    owner_named_at_the_end(clauses, per, lex)
    owner_said_before(clauses, per, lex)
    owner_played_nearby(clauses, per, lex)


def person_before_a_setting(c: ClauseAnalysis, r: Reading, p: Patterns) -> None:
    """누나 볼륨 좀 줄여: a bare person noun right before one of the robot's setting words either calls that
    person or names their device; in neither reading is the robot asked."""
    if r.agent != "robot" or not c.morphemes or robot_called([r.signals]):
        return
    first = c.morphemes[0]
    if first.form not in p.persons or not first.tag.startswith("NN") or len(c.morphemes) < 2:
        return
    if any(h.kind == "settings" and h.position == c.compact_offsets[1] for h in c.capabilities):
        r.agent = "third_person"
        r.signals.append(f"person_before_setting:{first.form}")
