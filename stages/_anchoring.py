"""Every registry anchor of a clause: capability aliases and lemmas, recognition slips of one alias, rooms,
unknown modes, intensity words, argument words, times and cue sets, collected into `ClauseAnalysis`.

Mechanisms only: every alias, lemma, cue and weight comes from the registry.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from registry.contracts import AnchorMatch, Morpheme, NormalizedText
from registry.loader import Registry
from stages._clauses import FINAL_TAGS, PREDICATE_TAGS, CapabilityHit, ClauseAnalysis
from stages._matchers import Matchers, compact
from stages._operations import argument_words, level_arguments, level_of, operation_of
from stages._segments import (clause_morphemes, compact_positions, compound_tail, has_tags, merge_shapeless,
                              noun_and_particle, noun_spans, registry_word_masks, segment, splits_a_noun)
from stages._times import time_parser_for

CUE_SETS = {
    "on": "on", "off": "off", "check": "check", "increase": "increase", "decrease": "decrease",
    "sch_scope": "sch_scope", "sch_alarm": "sch_alarm", "sch_timer": "sch_timer", "sch_reminder": "sch_reminder",
    "sch_cancel": "sch_cancel", "sch_list": "sch_list", "sch_nouns": "sch_nouns",
    "frg_scope": "frg_scope", "frg_recommend": "frg_recommend", "frg_targets": "frg_targets", "frg_lookup": "frg_lookup",
    "question": "question_shape", "capability_question": "capability_question", "reply_shape": "reply_shape",
    "generic_help": "generic_help", "cancel": "cancel", "guard_need": "guard_need", "guard_negative": "guard_negative",
    "guard_positive": "guard_positive", "guard_consent": "guard_consent", "completion": "completion",
    "outdoor": "outdoor", "outside": "outside", "indoor": "indoor", "vague": "vague",
}
"""A clause's cue names and the matcher cue sets they come from (`ClauseAnalysis.cues` keys, in this order)."""


@dataclass
class _Found:
    """What one clause's words anchor, collected while the clause is read."""

    index: int
    anchors: list[AnchorMatch] = field(default_factory=list)
    caps: list[CapabilityHit] = field(default_factory=list)
    unsupported: list[str] = field(default_factory=list)
    topics: list[str] = field(default_factory=list)
    unknown_modes: list[str] = field(default_factory=list)
    rooms: list[str] = field(default_factory=list)
    taken: list[tuple[int, int]] = field(default_factory=list)
    identity: bool = False
    outdoor_dust: bool = False
    asks_to_stop: bool = False
    """The clause holds a stop word (speech_acts voice_stop.words: 그만, 멈추다)."""
    unstoppable: set[str] = field(default_factory=set)

    def anchor(self, kind: str, target: str, surface: str, via: str, strength: float) -> None:
        self.anchors.append(AnchorMatch(kind=kind, target=target, surface=surface, via=via, strength=strength,
                                        clause=self.index))

    def hit(self, cap, operation_id: str, surface: str, via: str, strength: float, position: int,
            level_from: str | None, m: Matchers, arguments: dict | None = None) -> CapabilityHit | None:
        """A capability hit with its anchor; a level operation reads its level from the words after it. Asked to stop
        in the clause, a capability with nothing to stop is no hit, by any of its words (사진 그만 찍어: neither 사진 nor
        찍 takes a photo; 이제 그만 돌아 turns nothing)."""
        if cap.capability_id in self.unstoppable or (self.asks_to_stop and cap.kind == "execution"
                                                      and not {"stop", "off"} & {op.operation_id for op in cap.operations}):
            self.unstoppable.add(cap.capability_id)
            return None
        hit = CapabilityHit(cap.capability_id, cap.kind, operation_id, surface, via, strength, position, arguments or {})
        if level_from is not None and hit.operation_id == "level":
            level = level_of(cap, level_from, m)
            if level is not None:
                hit.arguments["level"] = level
        self.caps.append(hit)
        self.anchor(cap.kind, cap.capability_id, surface, via, strength)
        return hit


@dataclass
class _Words:
    """One clause's text, its compact form and its morphemes with their compact offsets and word masks."""

    text: str
    cc: str
    start: int
    end: int
    morphs: list[Morpheme]
    offsets: list[int]
    nouns: list[tuple[int, int]]
    in_word: list[bool]
    after_word: list[bool]


def _words(nt: NormalizedText, start: int, end: int, m: Matchers) -> _Words:
    text = nt.text[start:end].strip(" ,.;")
    cc = compact(" ".join(w for w in text.split() if w not in m.ignorable_words))
    morphs = clause_morphemes(nt, start, end)
    positions = compact_positions(nt, start, end, m)
    offsets = [positions.get(mo.start, -1) for mo in morphs]
    nouns = noun_spans(morphs, offsets)
    registry_spans = [(x.start(), x.end()) for rx in (m.anchor_re, m.room_re) for x in rx.finditer(cc)
                      if not splits_a_noun(x.start(), x.end(), nouns)]  # (이불 좀 꺼내: no 불 좀 꺼 in it)
    in_word, after_word = registry_word_masks(nt, morphs, offsets, registry_spans, m)
    return _Words(text, cc, start, end, morphs, offsets, nouns, in_word, after_word)


def _alias_hits(w: _Words, f: _Found, nt: NormalizedText, registry: Registry, m: Matchers,
                utterance_scope: tuple[bool, bool]) -> None:
    """Every registry alias in the clause: capabilities, unsupported categories, manual topics, identity."""
    weights, cc, at = registry.weights.strengths, w.cc, 0
    while (mt := m.anchor_re.search(cc, at)) is not None:
        surface, at = mt.group(0), mt.end()
        # 청정 of 청정기, 공기 of 공기놀이: part of another word, not the registry word; 복귀작 (a comeback work): a
        # one-syllable noun makes another word of a device word. A shorter word inside may still be one (실내 공기질:
        # not 실내 공기 + 질, but 공기질), so the search goes on from the next character.
        if splits_a_noun(mt.start(), mt.end(), w.nouns):
            at = mt.start() + 1
            continue
        f.taken.append((mt.start(), mt.end()))  # (a compound's device word is no lemma hit either)
        tail = compound_tail(mt.end(), w.morphs, w.offsets, nt, w.in_word)
        if tail and all(e.kind in ("execution", "settings", "state_query") for e in m.anchor_entries[surface]):
            at = mt.start() + 1
            continue
        for entry in m.anchor_entries[surface]:
            if entry.kind in ("execution", "settings", "state_query"):
                if tail:
                    continue
                strength, via, cap_id = weights["alias"], "alias", entry.target
            elif entry.kind == "ambiguous":
                amb = m.ambiguous[surface]
                if _scope(cc, amb, m, utterance_scope) == "outdoor":
                    f.outdoor_dust = True
                    continue
                strength = weights["ambiguous_weak" if amb.weak else "ambiguous_default"]
                via, cap_id = "ambiguous", amb.capability_id
            else:
                if entry.kind == "unsupported":
                    f.unsupported.append(entry.target)
                elif entry.kind == "device_qna":
                    f.topics.append(entry.target)
                else:
                    f.identity = True
                f.anchor(entry.kind if entry.kind in ("unsupported", "device_qna") else "product_identity",
                         entry.target, surface, "alias", 1.0)
                continue
            cap = registry.capability_by_id[cap_id]
            if any(h.capability_id == cap_id for h in f.caps):
                # 스테이션 복귀: a second word of the same capability is one more anchor of the one hit
                f.anchor(cap.kind, cap_id, surface, via, strength)
                continue
            f.hit(cap, operation_of(cap, surface, cc[mt.end():], m), surface, via, strength, mt.start(), cc[mt.end():], m)


def _scope(cc: str, amb, m: Matchers, utterance_scope: tuple[bool, bool]) -> str:
    """Indoor or outdoor for an ambiguous word (미세먼지): the clause's cue, else the utterance's, else the default."""
    utterance_indoor, utterance_outdoor = utterance_scope
    indoor = bool(m.indoor.first(cc)) or (utterance_indoor and not m.outdoor.first(cc))
    outdoor = bool(m.outdoor.first(cc)) or (utterance_outdoor and not indoor)
    return "indoor" if indoor else "outdoor" if outdoor else amb.default_scope


def _manner_at(morphs: list[Morpheme], j: int, manners: frozenset[tuple[str, str]], m: Matchers) -> bool:
    """Whether morpheme j is one of the manners in the resultative -게 form (speech_acts manner_endings; an XR root
    with 하/XSA counts as its adjective: 산뜻하게)."""
    mo = morphs[j]
    if mo.tag == "MAG":
        return (mo.form, "MAG") in manners  # 깨끗이: an adverb made from the adjective is the manner itself
    if mo.tag == "XR" and j + 2 < len(morphs) and morphs[j + 1].tag == "XSA":
        return (mo.form, "XR") in manners and (morphs[j + 2].form, morphs[j + 2].tag) in m.speech.manner_end
    return (mo.form, mo.tag) in manners and j + 1 < len(morphs) and (morphs[j + 1].form, morphs[j + 1].tag) in m.speech.manner_end


def _due_at(morphs: list[Morpheme], j: int, due: tuple) -> int:
    """The length of the due run (request_frames due_runs) that starts at morpheme j and ends the predicate, not a
    modifier (갈 때 된 거 같지 않아: an opinion sought about it, not its state asked); 0 when none does."""
    for run in due:
        k = next((k for k in range(j + len(run), len(morphs)) if morphs[k].tag != "EP"), len(morphs))  # (됐 -> 되 + 었)
        if tuple((x.form, x.tag) for x in morphs[j:j + len(run)]) == run and not (k < len(morphs) and morphs[k].tag == "ETM"):
            return len(run)
    return 0


def _manner_hits(w: _Words, f: _Found, registry: Registry, m: Matchers) -> None:
    """A head noun of a capability and, later in the clause, one of its manners in the -게 form (화면 쪼매 어둡게
    해라), one of its level verbs (소리 좀 올려) or one of its due runs (필터 갈 때 됐어): the capability's frame in any
    wording, when no alias of it was found."""
    for cap_id, heads, manners, level_verbs, level_heads, due, goals in m.manner_frames:
        if any(h.capability_id == cap_id for h in f.caps):
            continue
        levels = registry.capability_by_id[cap_id].level_words
        for i, mo in enumerate(w.morphs):
            at = w.offsets[i]
            if mo.tag not in ("NNG", "NNP") or mo.form not in heads or at < 0:  # (시끄러워도 터보/NNP로)
                continue
            within = [h for h in f.caps if h.position <= at < h.position + len(compact(h.surface))]
            if any(h.via != "ambiguous" for h in within):
                continue  # the noun is part of another capability's word; an ambiguous one (공기) gives way
            taken = not within and any(s <= at < e for s, e in f.taken)  # (a manual topic's 필터 still asks when due)
            goal = mo.form in levels and i + 1 < len(w.morphs) and (w.morphs[i + 1].form, w.morphs[i + 1].tag) in goals
            j = i + 1 if goal and not taken else next((j for j in range(i + 1, len(w.morphs)) if not taken and (
                _manner_at(w.morphs, j, manners, m) or (mo.form in level_heads and (w.morphs[j].form, w.morphs[j].tag) in level_verbs))
                      or _due_at(w.morphs, j, due)), None)
            if j is None:
                continue
            for h in within:
                f.caps.remove(h)
                f.anchors = [a for a in f.anchors if not (a.target == h.capability_id and a.via == "ambiguous")]
            run = _due_at(w.morphs, j, due) or 1
            last = next((k for k in reversed(range(j, j + run)) if w.offsets[k] >= 0), j)  # (the due run is the frame's)
            end = w.offsets[last] + len(w.morphs[last].form) if w.offsets[last] >= 0 else at + len(mo.form)
            cap = registry.capability_by_id[cap_id]
            surface = w.cc[at:end]
            f.hit(cap, operation_of(cap, surface, w.cc[end:], m), surface, "frame", registry.weights.strengths["alias"],
                  at, w.cc[at:], m)  # (터보로 올려: a head that is a level word sets that level)
            f.taken.append((at, end))
            break


def _identity_runs(w: _Words, f: _Found, m: Matchers) -> None:
    """너 누가 만든 거야 / 너 어느 나라에서 만들었어: a lemma run asking who made the robot or what it is
    (product_identity_runs), in order, in a clause that names the robot; a conjugation no spelled anchor holds."""
    keys = [(mo.form, mo.tag) for mo in w.morphs]
    if f.identity or not any(k in m.speech.robot for k in keys):
        return
    for run in m.identity_runs:
        at, end = 0, 0
        for i, k in enumerate(keys):
            if at < len(run) and k == run[at]:
                at, end = at + 1, i
        after = keys[end + 1] if end + 1 < len(keys) else ("", "SF")
        # a noun said last is what the robot is asked to be (국산이야, 삼성 거야; 야 read as a particle: the alternatives'
        # after_forms), not a word of another thing (국산 차)
        if at == len(run) and (not run[-1][1].startswith("NN") or after[1] in ("VCP", "SF", "EF") or after in m.alternatives[2]):
            f.identity = True
            f.anchor("product_identity", "product_identity", "+".join(form for form, _ in run), "lemma", 1.0)
            return


def _fuzzy_hit(w: _Words, f: _Found, registry: Registry, m: Matchers) -> None:
    """A recognition slip of one alias, only when the clause anchors nothing else."""
    if f.caps or f.unsupported or f.topics or f.identity:
        return
    fuzzy = m.fuzzy_alias(w.cc, f.taken)
    if fuzzy is None:
        return
    f_start, f_end, alias = fuzzy
    for entry in m.anchor_entries[alias]:
        if entry.kind not in ("execution", "settings", "state_query"):
            continue
        cap = registry.capability_by_id[entry.target]
        f.hit(cap, operation_of(cap, alias, w.cc[f_end:], m), w.cc[f_start:f_end], "fuzzy",
              registry.weights.strengths["fuzzy"], f_start, w.cc[f_end:], m)
        f.taken.append((f_start, f_end))
        break


def _rooms_and_modes(w: _Words, f: _Found, registry: Registry, m: Matchers) -> None:
    """Rooms; an unknown "<word> 모드" (a level word of a setting is that setting; anything else is unsupported)."""
    for rm in m.room_re.finditer(w.cc):
        room_id = m.room_of[rm.group(0)]
        if room_id not in f.rooms:
            f.rooms.append(room_id)
            f.anchor("room", room_id, rm.group(0), "alias", 1.0)
    for mm in re.finditer(rf"(\S+?)\s?{re.escape(m.mode_suffix)}", w.text):
        pos = w.cc.find(compact(mm.group(0)))
        if any(s <= pos < e for s, e in f.taken):
            continue
        level_cap = next((c for c in registry.capabilities.capabilities if mm.group(1) in c.level_words), None)
        if level_cap is not None:
            f.hit(level_cap, "level", mm.group(0), "pattern", 1.0, pos, None, m,
                  {"level": level_cap.level_words[mm.group(1)]})
        else:
            f.unknown_modes.append(mm.group(1))
            f.anchor("unknown_mode", mm.group(1), mm.group(0), "pattern", 1.0)


def _run_hits(w: _Words, f: _Found, registry: Registry, m: Matchers) -> None:
    """Lemma runs (capability lemmas written form/tag+form/tag: 어디/NP+이/VCP) anchor as an alias does, in whatever
    ending the run is said (어디니, 어디예요, 어디고), before any slip is guessed."""
    morphs = w.morphs
    for i, mo in enumerate(morphs):
        for run, cap_id in m.lemma_runs.get((mo.form, mo.tag), ()):
            if tuple((x.form, x.tag) for x in morphs[i:i + len(run)]) != run or w.offsets[i] < 0 \
                    or any(h.capability_id == cap_id for h in f.caps):
                continue
            cap = registry.capability_by_id[cap_id]
            f.hit(cap, cap.operations[0].operation_id, mo.form, "alias", registry.weights.strengths["alias"], w.offsets[i], None, m)
            f.taken.append((w.offsets[i], w.offsets[i] + len(mo.form)))
    for room in m.room_re.finditer(w.cc):  # 지금 거실이야 / 작은방이야 (작 + 은 + 방): a room name, then the run's rest
        k = next((j for j, o in enumerate(w.offsets) if o == room.end()), None)
        for rest, cap_id in m.room_runs if k is not None else ():
            if tuple((x.form, x.tag) for x in morphs[k:k + len(rest)]) == rest and not any(h.capability_id == cap_id for h in f.caps):
                cap = registry.capability_by_id[cap_id]
                f.hit(cap, cap.operations[0].operation_id, room.group(0), "alias", registry.weights.strengths["alias"], room.start(), None, m)
                f.taken.append((room.start(), room.end()))


def _serial_direction(morphs: list[Morpheme], i: int, m: Matchers) -> bool:
    """Whether morpheme i (오, 가) follows a verb in -어 or -고 and a space, and is not the end of a verb of motion
    (들어 와 comes in; 들고 와 carries: lexicon clauses.serial_direction)."""
    endings, verbs, motion, motion_endings = m.serial_direction
    if i < 2 or (morphs[i].form, morphs[i].tag) not in verbs:
        return False
    ec, verb = morphs[i - 1], morphs[i - 2]
    return ((ec.form, ec.tag) in endings and ec.start + ec.length + 1 == morphs[i].start and verb.tag.startswith("VV")
            and not ((verb.form, verb.tag) in motion and (ec.form, ec.tag) in motion_endings))


def bare_directions(clauses: list, nt: NormalizedText, m: Matchers) -> set[int]:
    """Clauses whose only predicate is the direction of the act before them (물 좀 떠 | 와)."""
    morphs = nt.morphemes
    at = {mo.start: j for j, mo in reversed(list(enumerate(morphs)))}  # (the first morpheme at an offset)
    return {i for i, c in enumerate(clauses) if c.morphemes and _serial_direction(morphs, at[c.morphemes[0].start], m)
            and [mo.tag[:2] for mo in c.morphemes if mo.tag[:2] in ("VV", "VA", "VX", "XS", "NN")] == ["VV"]}


def _lemma_hits(w: _Words, f: _Found, nt: NormalizedText, registry: Registry, m: Matchers) -> None:
    """Lemma cues (verbs of motion, 찍다) anchor with their companions; a move with no room tries a slip of one."""
    weights = registry.weights.strengths
    morphs = nt.morphemes
    for i, mo in enumerate(morphs):
        if not (w.start <= mo.start < w.end):
            continue
        cap_id = m.lemma_index.get((mo.form, mo.tag))
        if not cap_id or any(h.capability_id == cap_id for h in f.caps):
            continue
        cap = registry.capability_by_id[cap_id]
        if cap.requires_room and not f.rooms and _serial_direction(morphs, i, m):
            continue  # 물 좀 떠 와 / 우유 사 와: the direction of what is fetched, no move of its own
        if not f.rooms and any(h.kind == "state_query" and (mo.form, mo.tag) in registry.frames.fits(h.capability_id, h.kind)
                               for h in f.caps):
            continue  # 배터리 나갔어?: a verb the state word's own frame takes (the battery is dead) is no move
        strength = (weights["lemma_with_room"] if f.rooms else weights["lemma"]) if cap.requires_room else weights["lemma"] + 0.3
        pos = max(0, len(compact(nt.text[w.start:mo.start])))
        if any(s <= pos < e for s, e in f.taken):
            continue  # the verb is part of a longer alias ("모든 방 돌면서")
        f.hit(cap, cap.operations[0].operation_id, mo.form, "lemma", strength, pos, None, m)
    if not f.rooms and any(h.capability_id == "move_to_room" for h in f.caps):
        fuzzy_room = m.fuzzy_room(w.cc)
        if fuzzy_room is not None:
            f.rooms.append(fuzzy_room)
            f.anchor("room", fuzzy_room, w.cc, "fuzzy", weights["fuzzy"])


def _refine_hits(w: _Words, f: _Found, registry: Registry, m: Matchers) -> None:
    """Intensity (청정 좀 세게 is its fan setting, one step), subsumed capabilities, argument words, and the
    subject of a state query (청정 기능이 켜져 있는지 확인: what precedes the query is not an action)."""
    cc, by_id = w.cc, registry.capability_by_id
    direction = 1 if m.increase.first(cc) else -1 if m.decrease.first(cc) else 0
    if direction and f.caps and all(h.kind == "execution" for h in f.caps):
        via = {by_id[h.capability_id].intensity_via for h in f.caps} - {None}
        if len(via) == 1:
            target, first = by_id[via.pop()], f.caps[0]
            f.caps = [CapabilityHit(target.capability_id, target.kind, "level", first.surface, first.via, first.strength, first.position)]
            f.anchors = [a for a in f.anchors if a.kind not in ("execution", "settings")]
            f.anchor(target.kind, target.capability_id, first.surface, first.via, first.strength)
    level_arguments(f.caps, cc, registry, m)
    subsumed = {sub for h in f.caps for sub in by_id[h.capability_id].subsumes}
    if subsumed:
        f.caps = [h for h in f.caps if h.capability_id not in subsumed]
        f.anchors = [a for a in f.anchors if a.kind not in ("execution", "settings") or a.target not in subsumed]
    for hit in f.caps:
        argument_words(by_id[hit.capability_id], cc, hit)
    query_at = min((h.position for h in f.caps if h.kind == "state_query"), default=None)
    if query_at is not None and (m.check.first(cc) or "?" in w.text):
        f.caps = [h for h in f.caps if h.kind == "state_query" or h.position > query_at]
        f.anchors = [a for a in f.anchors if a.kind not in ("execution", "settings") or any(h.capability_id == a.target for h in f.caps)]
    f.caps.sort(key=lambda h: h.position)


def _clause_cues(w: _Words, m: Matchers) -> dict[str, list[str]]:
    """Every cue set that occurs in the clause (not inside a noun + particle: 시작해줘/NNG is one spoken noun; not from
    the middle of a noun: 주가 of 손주가 is a grandchild, not a share price)."""
    def fits(s: int, e: int) -> bool:
        return not noun_and_particle(s, e, w.morphs, w.offsets) and not any(a < s < b for a, b in w.nouns)

    def adverb(s: int, e: int) -> bool:  # 반갑게 인사해: a reply word made a manner adverb is no reply
        inside = [i for i, off in enumerate(w.offsets) if s <= off < e]  # (잠깐 들어 올렸다: an adverb of a verb after it)
        modifies = bool(inside) and w.morphs[inside[-1]].tag == "MAG" and inside[-1] + 1 < len(w.morphs) \
            and w.morphs[inside[-1] + 1].tag in ("VV", "VA", "VX")
        return modifies or any((mo.form, mo.tag) in m.reply_shape_not_before and s < off <= e + 1 for mo, off in zip(w.morphs, w.offsets))

    cues = {name: found for name in CUE_SETS if (found := getattr(m, CUE_SETS[name]).find_fitting(
        w.cc, (lambda s, e: fits(s, e) and not adverb(s, e)) if name == "reply_shape" else fits))}
    if "?" in w.text:
        cues.setdefault("question_mark", ["?"])
    return cues


def _role(cues: dict, connective: str, is_last: bool, times, caps: list[CapabilityHit], m: Matchers) -> str:
    if cues.get("completion") and not is_last:
        return "temporal"
    if connective in m.conditional_endings and not is_last and times.relative and not caps:
        return "temporal"  # "40분 지나면": a clock delay, not a guard on a state
    if connective in m.conditional_endings and not is_last:
        return "guard"
    return "action"


def _holds_the_floor(text: str, m: Matchers) -> bool:
    """Whether a word that only holds the floor (lexicon fragments floor_holders) and fillers are all the clause says
    (저 뭐시냐 | 집 전체 청정 돌려 봐라; not 이게 뭐시냐, which asks)."""
    words = [w.strip("?.!,") for w in text.split()]
    return any(w in m.floor_holders for w in words) and all(w in m.floor_holders or w in m.fillers for w in words)


def _clause(nt: NormalizedText, span: tuple[int, int, str], index: int, is_last: bool, registry: Registry,
            m: Matchers, utterance_scope: tuple[bool, bool]) -> ClauseAnalysis:
    start, end, connective = span
    w = _words(nt, start, end, m)
    f = _Found(index)
    f.asks_to_stop = any((mo.form, mo.tag) in m.speech.cessation for mo in w.morphs)
    _alias_hits(w, f, nt, registry, m, utterance_scope)
    _run_hits(w, f, registry, m)
    _manner_hits(w, f, registry, m)
    _identity_runs(w, f, m)
    _fuzzy_hit(w, f, registry, m)
    _rooms_and_modes(w, f, registry, m)
    _lemma_hits(w, f, nt, registry, m)
    _refine_hits(w, f, registry, m)
    cues = _clause_cues(w, m)
    times = time_parser_for(registry).parse(w.text)
    inside = [mo for mo in nt.morphemes if start <= mo.start < end]
    # 는 / 더라고요 opening the turn: a tail whose head recognition lost; no predicate of its own, whatever Kiwi reads
    bound = index == 0 and m.spelled_by_bound_forms(w.text)
    return ClauseAnalysis(
        index=index, text=w.text, compact=w.cc, connective=connective,
        role=_role(cues, connective, is_last, times, f.caps, m), anchors=f.anchors,
        capabilities=f.caps, rooms=f.rooms, unsupported=f.unsupported, qna_topics=f.topics, identity=f.identity,
        unknown_modes=f.unknown_modes, times=times,
        has_predicate=not bound and has_tags(nt, start, end, PREDICATE_TAGS),
        has_final_ending=not bound and has_tags(nt, start, end, FINAL_TAGS), bound_forms_only=bound,
        outdoor_dust=f.outdoor_dust, cues=cues,
        morpheme_tags=[mo.tag for mo in inside],
        noun_count=sum(1 for mo in inside if mo.tag in ("NNG", "NNP")),
        has_proper_noun=any(mo.tag == "NNP" for mo in inside),
        filler_words=sum(1 for word in w.text.split() if word.strip("?.!,") in m.filler_words),
        holds_the_floor=_holds_the_floor(w.text, m),
        start=start, end=end, morphemes=w.morphs, compact_offsets=w.offsets, in_registry_word=w.in_word,
        after_registry_word=w.after_word,
    )
