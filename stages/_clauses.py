"""Clause segmentation on Korean connectives and per-clause registry analysis.

Mechanisms only: the connectives, cues and aliases all come from the registry data.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from registry.contracts import AnchorMatch, Morpheme, NormalizedText, SpeechAct
from registry.loader import Registry
from registry.speech_contracts import SpeechActLexicon
from stages._matchers import Matchers, compact
from stages._times import TimeSlots, time_parser_for

VERB_TAGS = frozenset({"VV", "VA", "VX", "XSV", "XSA", "VCP", "VCN", "VV-I", "VA-I", "VV-R", "VA-R"})
"""Predicates proper: verbs, adjectives, auxiliaries, copulas and verb-forming suffixes."""
PREDICATE_TAGS = VERB_TAGS | {"EF"}
ENDS_SENTENCE = ("", ".", "?", "!")
"""Connectives of a clause that ends its sentence (the utterance's end, or sentence punctuation)."""
FINAL_TAGS = {"EF"}
_DIGITS = re.compile(r"\d+")


@dataclass
class CapabilityHit:
    capability_id: str
    kind: str
    operation_id: str
    surface: str
    via: str
    strength: float
    position: int
    arguments: dict = field(default_factory=dict)


@dataclass
class ClauseAnalysis:
    index: int
    text: str
    compact: str
    connective: str
    role: str  # action | guard | temporal | fragment
    anchors: list[AnchorMatch]
    capabilities: list[CapabilityHit]
    rooms: list[str]
    unsupported: list[str]
    qna_topics: list[str]
    identity: bool
    unknown_modes: list[str]
    times: TimeSlots
    has_predicate: bool
    has_final_ending: bool
    outdoor_dust: bool
    cues: dict[str, list[str]]
    morpheme_tags: list[str]
    noun_count: int = 0
    has_proper_noun: bool = False
    filler_words: int = 0
    start: int = 0
    """Offsets of the clause in the normalized text."""
    end: int = 0
    morphemes: list[Morpheme] = field(default_factory=list)
    compact_offsets: list[int] = field(default_factory=list)
    """Per morpheme: where it starts in `compact` (-1 inside an ignorable word)."""
    in_registry_word: list[bool] = field(default_factory=list)
    """Per morpheme: it lies inside a room name or alias (안방 read as 안/MAG 방): part of that word, not a
    negator or a predicate of its own."""
    after_registry_word: list[bool] = field(default_factory=list)
    """Per morpheme: it follows a room name or alias inside the same written word ("서재가서" read as 서재/가/서)."""
    act: SpeechAct | None = None
    """Set by licensing (stages/speech_acts.py): what the clause does."""
    mentions: list[str] = field(default_factory=list)
    """Capability and category words the clause holds without a licence ("move_to_room:prohibited")."""


def segment(nt: NormalizedText, m: Matchers) -> list[tuple[int, int, str]]:
    """(start, end, connective) spans of the normalized text."""
    morphs = nt.morphemes
    cuts: list[tuple[int, str]] = []
    for i, mo in enumerate(morphs[:-1]):
        nxt = morphs[i + 1]
        end = mo.start + mo.length
        if mo.tag == "EC" and mo.form in m.connective_endings and mo.form not in m.quotatives:
            if nxt.tag not in m.no_split_before:
                cuts.append((end, mo.form))
        elif mo.tag.startswith("NN") and (mo.form in m.sequence_nouns or mo.form in m.before_nouns) and i > 0 and morphs[i - 1].tag in ("ETM", "ETN"):
            if nxt.tag.startswith("J"):
                end = nxt.start + nxt.length
            cuts.append((end, mo.form))
        elif _ends_a_sentence(morphs, i, m):
            cuts.append((end, "."))  # 티브이 꺼라 이제 자자: speech has no full stops; a sentence ending ends a sentence
        elif mo.tag in ("SP", "SF") and mo.form in m.split_punct:
            cuts.append((end, mo.form))
        elif mo.tag == "MAJ" and compact(mo.form) in m.conjunctions:
            cuts.append((mo.start, mo.form))
    spans, start = [], 0
    for end, form in cuts:
        if end > start:
            spans.append((start, end, form))
            start = end
    spans.append((start, len(nt.text), ""))
    return [(s, e, c) for s, e, c in spans if nt.text[s:e].strip(" ,.;")]


def _ends_a_sentence(morphs: list[Morpheme], i: int, m: Matchers) -> bool:
    """Whether morpheme i ends a sentence inside the turn: a final ending that speech does not run on from, or an
    imperative that Kiwi reads as a connective after a verb (돌려라 먼지 천지다), followed by a new word."""
    mo, nxt = morphs[i], morphs[i + 1]
    final = mo.tag in m.sentence_final_tags and mo.form not in m.continuing_finals
    imperative = mo.tag == "EC" and mo.form in m.imperative_connectives and i > 0 and morphs[i - 1].tag in ("VV", "VX")
    return (final or imperative) and nxt.start > mo.start + mo.length and not nxt.tag.startswith(m.no_sentence_split_before)


def _has_tags(nt: NormalizedText, start: int, end: int, tags: set[str]) -> bool:
    return any(start <= mo.start < end and mo.tag in tags for mo in nt.morphemes)


def _merge_shapeless(nt: NormalizedText, spans: list[tuple[int, int, str]], m: Matchers) -> list[tuple[int, int, str]]:
    """A punctuation-cut piece without a predicate (a time, an "응") belongs to its neighbour."""
    merged: list[tuple[int, int, str]] = []
    for span in spans:
        # "청정하고 나서": an auxiliary connector piece belongs to the clause before it
        if merged and compact(nt.text[span[0]:span[1]]).strip(",.;") in m.connector_fragments:
            merged[-1] = (merged[-1][0], span[1], span[2])
            continue
        if merged:
            p_start, p_end, p_conn = merged[-1]
            shapeless = p_conn in m.split_punct and not _has_tags(nt, p_start, p_end, PREDICATE_TAGS)
            if shapeless or compact(nt.text[p_start:p_end]).strip(",.;") in m.acknowledgements | m.fillers:
                merged[-1] = (p_start, span[1], span[2])
                continue
        merged.append(span)
    return merged


def clause_morphemes(nt: NormalizedText, start: int, end: int) -> list[Morpheme]:
    """The clause's morphemes; Kiwi gives a restored morpheme (하 of 찍으래) no length at the clause's end."""
    return [mo for mo in nt.morphemes if start <= mo.start < end or (mo.length == 0 and mo.start == end)]


def _compact_positions(nt: NormalizedText, start: int, end: int, m: Matchers) -> dict[int, int]:
    """Text offset -> offset in the clause's compact text (spaces and ignorable words removed, as `analyse` builds it)."""
    raw = nt.text[start:end]
    at = start + len(raw) - len(raw.lstrip(" ,.;"))
    positions: dict[int, int] = {}
    cc = 0
    for word in raw.strip(" ,.;").split(" "):
        if word and word not in m.ignorable_words:
            for k in range(len(word)):
                positions[at + k] = cc + k
            cc += len(word)
        at += len(word) + 1
    return positions


def _noun_spans(morphs: list[Morpheme], offsets: list[int]) -> list[tuple[int, int]]:
    """Compact spans of the clause's nouns, each with the derivational suffixes that make one word of it (복귀+작)."""
    spans: list[tuple[int, int]] = []
    for mo, at in zip(morphs, offsets):
        if at < 0:
            continue
        if mo.tag == "XSN" and spans and spans[-1][1] == at:
            spans[-1] = (spans[-1][0], at + mo.length)
        elif mo.tag.startswith("NN"):
            spans.append((at, at + mo.length))
    return spans


def _splits_a_noun(start: int, end: int, nouns: list[tuple[int, int]]) -> bool:
    """Whether a match begins or ends strictly inside one noun morpheme (its compact span)."""
    return any(s < start < e or s < end < e for s, e in nouns)


def thing_before(c: ClauseAnalysis, lex: SpeechActLexicon, positions: list[int]) -> str | None:
    """The kind of another thing in the home (tv, phone...) whose name ends right before one of these compact positions."""
    gap = lex.other_targets.max_gap_chars
    for found in lex.things_re.finditer(c.compact):
        name = found.group(0)
        # a one-syllable name (차, 폰, 불) counts only as a whole morpheme, never inside a word (차라리)
        whole = len(name) > 1 or any(mo.form.lower() == name and mo.tag.startswith(("NN", "SL")) for mo in c.morphemes)
        if whole and any(0 <= at - found.end() <= gap for at in positions):
            return lex.thing_of[name]
    return None


def _compound_tail(end: int, morphs: list[Morpheme], offsets: list[int], nt: NormalizedText, in_word: list[bool]) -> bool:
    """Whether a one-syllable noun (not itself a registry word) follows a match inside the same written word."""
    for mo, at, inside in zip(morphs, offsets, in_word):
        if at == end:
            return mo.tag == "NNG" and mo.length == 1 and mo.start > 0 and not nt.text[mo.start - 1].isspace() and not inside
    return False


def _noun_and_particle(start: int, end: int, morphs: list[Morpheme], offsets: list[int]) -> bool:
    """Whether a cue match is a noun plus the particle after it (위로 of 2단 위로: 위/NNG 로/JKB, not 위로/NNG)."""
    for i in range(1, len(morphs)):
        at = offsets[i]
        if (at > start and at + morphs[i].length == end and morphs[i].tag.startswith("J")
                and morphs[i - 1].tag.startswith("NN") and offsets[i - 1] >= start):
            return True
    return False


def _registry_word_masks(nt: NormalizedText, morphs: list[Morpheme], offsets: list[int], spans: list[tuple[int, int]],
                         m: Matchers) -> tuple[list[bool], list[bool]]:
    """(inside a registry word, after one in the same written word) for each morpheme of the clause."""
    inside = [at >= 0 and any(s <= at < e for s, e in spans) for at in offsets]  # starts inside (청/NNG 정하/VV of 청정해)
    heads: dict[int, int] = {}  # written word start -> end of the registry word it begins with (0: none)
    after = []
    for mo in morphs:
        begin = nt.text.rfind(" ", 0, mo.start) + 1
        if begin not in heads:
            stop = nt.text.find(" ", begin)
            head = m.room_re.match(nt.text, begin, stop if stop >= 0 else len(nt.text)) or m.anchor_re.match(
                nt.text, begin, stop if stop >= 0 else len(nt.text))
            heads[begin] = head.end() - begin if head else 0
        after.append(heads[begin] > 0 and mo.start >= begin + heads[begin])
    return inside, after


def _operation(cap, alias: str, after: str, m: Matchers) -> str:
    ops = [op.operation_id for op in cap.operations]
    hint = next((op for spoken, op in cap.op_hint_in_alias.items() if compact(spoken) == alias), None)
    if hint:
        return hint
    if cap.kind == "state_query":
        return "check"
    if "level" in ops:
        return "level"
    if "off" in ops:
        return "off" if m.off.first(after) else "on"
    if "stop" in ops and m.off.first(after):
        return "stop"
    return ops[0]


def _level(cap, after: str, m: Matchers) -> int | None:
    """An explicit level: digits, else a level word used as a target ("터보로", not "강하게")."""
    digits = _DIGITS.search(after)
    if digits:
        return int(digits.group(0))
    for word in sorted(cap.level_words, key=len, reverse=True):
        at = after.find(compact(word))
        if at >= 0:
            rest = after[at + len(compact(word)):]
            if not rest or rest.startswith(m.level_word_followers) or not ("\uac00" <= rest[0] <= "\ud7a3"):
                return cap.level_words[word]
    return None


def _argument_words(cap, cc: str, hit: "CapabilityHit") -> None:
    for name, words in cap.argument_words.items():
        for word in sorted(words, key=len, reverse=True):
            if compact(word) in cc:
                hit.arguments[name] = words[word]
                break


def analyse(nt: NormalizedText, registry: Registry, m: Matchers) -> list[ClauseAnalysis]:
    """Segment the utterance and find every registry anchor, room, time and cue per clause."""
    if not nt.text:
        return []
    spans = _merge_shapeless(nt, segment(nt, m), m)
    weights = registry.weights.strengths
    parser = time_parser_for(registry)
    utterance_indoor = bool(m.indoor.first(nt.compact))
    utterance_outdoor = bool(m.outdoor.first(nt.compact))
    out: list[ClauseAnalysis] = []
    for index, (start, end, connective) in enumerate(spans):
        text = nt.text[start:end].strip(" ,.;")
        cc = compact(" ".join(w for w in text.split() if w not in m.ignorable_words))
        anchors: list[AnchorMatch] = []
        caps: list[CapabilityHit] = []
        unsupported, topics, unknown_modes = [], [], []
        identity = outdoor_dust = False
        taken: list[tuple[int, int]] = []
        morphs = clause_morphemes(nt, start, end)
        positions = _compact_positions(nt, start, end, m)
        offsets = [positions.get(mo.start, -1) for mo in morphs]
        nouns = _noun_spans(morphs, offsets)
        registry_spans = [(x.start(), x.end()) for rx in (m.anchor_re, m.room_re) for x in rx.finditer(cc)]
        in_word, after_word = _registry_word_masks(nt, morphs, offsets, registry_spans, m)
        for mt in m.anchor_re.finditer(cc):
            if _splits_a_noun(mt.start(), mt.end(), nouns):
                continue  # 청정 of 청정기, 공기 of 공기놀이: part of another word, not the registry word
            taken.append((mt.start(), mt.end()))
            for entry in m.anchor_entries[mt.group(0)]:
                if entry.kind in ("execution", "settings", "state_query"):
                    if _compound_tail(mt.end(), morphs, offsets, nt, in_word):
                        continue  # 복귀작 (a comeback work): a one-syllable noun makes another word of it
                    strength = weights["alias"]
                    via = "alias"
                    cap_id = entry.target
                elif entry.kind == "ambiguous":
                    amb = m.ambiguous[mt.group(0)]
                    indoor = bool(m.indoor.first(cc)) or (utterance_indoor and not m.outdoor.first(cc))
                    outdoor = bool(m.outdoor.first(cc)) or (utterance_outdoor and not indoor)
                    scope = "indoor" if indoor else "outdoor" if outdoor else amb.default_scope
                    if scope == "outdoor":
                        outdoor_dust = True
                        continue
                    strength = weights["ambiguous_weak" if amb.weak else "ambiguous_default"]
                    via, cap_id = "ambiguous", amb.capability_id
                elif entry.kind == "unsupported":
                    unsupported.append(entry.target)
                    anchors.append(AnchorMatch(kind="unsupported", target=entry.target, surface=mt.group(0), via="alias", strength=1.0, clause=index))
                    continue
                elif entry.kind == "device_qna":
                    topics.append(entry.target)
                    anchors.append(AnchorMatch(kind="device_qna", target=entry.target, surface=mt.group(0), via="alias", strength=1.0, clause=index))
                    continue
                else:
                    identity = True
                    anchors.append(AnchorMatch(kind="product_identity", target=entry.target, surface=mt.group(0), via="alias", strength=1.0, clause=index))
                    continue
                cap = registry.capability_by_id[cap_id]
                if any(h.capability_id == cap_id for h in caps):
                    # 스테이션 복귀: a second word of the same capability is one more anchor of the one hit
                    anchors.append(AnchorMatch(kind=cap.kind, target=cap_id, surface=mt.group(0), via=via, strength=strength, clause=index))
                    continue
                after = cc[mt.start():]
                hit = CapabilityHit(cap_id, cap.kind, _operation(cap, mt.group(0), after, m), mt.group(0), via, strength, mt.start())
                if hit.operation_id == "level":
                    level = _level(cap, cc[mt.end():], m)
                    if level is not None:
                        hit.arguments["level"] = level
                caps.append(hit)
                anchors.append(AnchorMatch(kind=cap.kind, target=cap_id, surface=mt.group(0), via=via, strength=strength, clause=index))
        if not (caps or unsupported or topics or identity):
            fuzzy = m.fuzzy_alias(cc, taken)
            if fuzzy is not None:
                f_start, f_end, alias = fuzzy
                for entry in m.anchor_entries[alias]:
                    if entry.kind not in ("execution", "settings", "state_query"):
                        continue
                    cap = registry.capability_by_id[entry.target]
                    hit = CapabilityHit(cap.capability_id, cap.kind, _operation(cap, alias, cc[f_start:], m), cc[f_start:f_end], "fuzzy", weights["fuzzy"], f_start)
                    if hit.operation_id == "level":
                        level = _level(cap, cc[f_end:], m)
                        if level is not None:
                            hit.arguments["level"] = level
                    caps.append(hit)
                    taken.append((f_start, f_end))
                    anchors.append(AnchorMatch(kind=cap.kind, target=cap.capability_id, surface=cc[f_start:f_end], via="fuzzy", strength=weights["fuzzy"], clause=index))
                    break
        rooms = []
        for rm in m.room_re.finditer(cc):
            room_id = m.room_of[rm.group(0)]
            if room_id not in rooms:
                rooms.append(room_id)
                anchors.append(AnchorMatch(kind="room", target=room_id, surface=rm.group(0), via="alias", strength=1.0, clause=index))
        # unknown "<word> 모드": a level word of a setting is that setting; anything else is unsupported
        for mm in re.finditer(rf"(\S+?)\s?{re.escape(m.mode_suffix)}", text):
            word_c = compact(mm.group(0))
            pos = cc.find(word_c)
            if any(s <= pos < e for s, e in taken):
                continue
            level_cap = next((c for c in registry.capabilities.capabilities if mm.group(1) in c.level_words), None)
            if level_cap is not None:
                hit = CapabilityHit(level_cap.capability_id, level_cap.kind, "level", mm.group(0), "pattern", 1.0, pos, {"level": level_cap.level_words[mm.group(1)]})
                caps.append(hit)
                anchors.append(AnchorMatch(kind=level_cap.kind, target=level_cap.capability_id, surface=mm.group(0), via="pattern", strength=1.0, clause=index))
            else:
                unknown_modes.append(mm.group(1))
                anchors.append(AnchorMatch(kind="unknown_mode", target=mm.group(1), surface=mm.group(0), via="pattern", strength=1.0, clause=index))
        # lemma cues (verbs of motion, "찍다") anchor with their companions
        for mo in nt.morphemes:
            if not (start <= mo.start < end):
                continue
            cap_id = m.lemma_index.get((mo.form, mo.tag))
            if not cap_id or any(h.capability_id == cap_id for h in caps):
                continue
            cap = registry.capability_by_id[cap_id]
            if cap.requires_room and not rooms:
                strength = weights["lemma"]
            elif cap.requires_room:
                strength = weights["lemma_with_room"]
            else:
                strength = weights["lemma"] + 0.3
            pos = max(0, len(compact(nt.text[start:mo.start])))
            if any(s <= pos < e for s, e in taken):
                continue  # the verb is part of a longer alias ("모든 방 돌면서")
            caps.append(CapabilityHit(cap_id, cap.kind, cap.operations[0].operation_id, mo.form, "lemma", strength, pos))
            anchors.append(AnchorMatch(kind=cap.kind, target=cap_id, surface=mo.form, via="lemma", strength=strength, clause=index))
        if not rooms and any(h.capability_id == "move_to_room" for h in caps):
            fuzzy_room = m.fuzzy_room(cc)
            if fuzzy_room is not None:
                rooms.append(fuzzy_room)
                anchors.append(AnchorMatch(kind="room", target=fuzzy_room, surface=cc, via="fuzzy", strength=weights["fuzzy"], clause=index))
        # "청정 좀 세게": a stronger or weaker action means its intensity setting, one step
        direction = 1 if m.increase.first(cc) else -1 if m.decrease.first(cc) else 0
        if direction and caps and all(h.kind == "execution" for h in caps):
            via = {registry.capability_by_id[h.capability_id].intensity_via for h in caps} - {None}
            if len(via) == 1:
                target = registry.capability_by_id[via.pop()]
                caps = [CapabilityHit(target.capability_id, target.kind, "level", caps[0].surface, caps[0].via, caps[0].strength, caps[0].position)]
                anchors = [a for a in anchors if a.kind not in ("execution", "settings")] + [
                    AnchorMatch(kind=target.kind, target=target.capability_id, surface=caps[0].surface, via=caps[0].via, strength=caps[0].strength, clause=index)]
        for hit in caps:
            if hit.operation_id == "level" and "level" not in hit.arguments and direction:
                hit.arguments["delta"] = direction
        subsumed = {sub for h in caps for sub in registry.capability_by_id[h.capability_id].subsumes}
        if subsumed:
            caps = [h for h in caps if h.capability_id not in subsumed]
            anchors = [a for a in anchors if a.kind not in ("execution", "settings") or a.target not in subsumed]
        for hit in caps:
            _argument_words(registry.capability_by_id[hit.capability_id], cc, hit)
        # "청정 기능이 켜져 있는지 확인": what precedes a state query is its subject, not an action
        query_at = min((h.position for h in caps if h.kind == "state_query"), default=None)
        if query_at is not None and (m.check.first(cc) or "?" in text):
            caps = [h for h in caps if h.kind == "state_query" or h.position > query_at]
            anchors = [a for a in anchors if a.kind not in ("execution", "settings") or any(h.capability_id == a.target for h in caps)]
        caps.sort(key=lambda h: h.position)
        def fits(s: int, e: int) -> bool:  # (not _splits_a_noun: Kiwi reads unknown spoken forms as one noun, 시작해줘/NNG)
            return not _noun_and_particle(s, e, morphs, offsets)

        cues = {
            name: cueset.find_fitting(cc, fits)
            for name, cueset in (
                ("on", m.on), ("off", m.off), ("check", m.check), ("increase", m.increase), ("decrease", m.decrease),
                ("sch_scope", m.sch_scope), ("sch_alarm", m.sch_alarm), ("sch_timer", m.sch_timer),
                ("sch_reminder", m.sch_reminder), ("sch_cancel", m.sch_cancel), ("sch_list", m.sch_list), ("sch_nouns", m.sch_nouns),
                ("frg_scope", m.frg_scope), ("frg_recommend", m.frg_recommend), ("frg_targets", m.frg_targets), ("frg_lookup", m.frg_lookup),
                ("question", m.question_shape), ("capability_question", m.capability_question),
                ("reply_shape", m.reply_shape), ("generic_help", m.generic_help), ("cancel", m.cancel),
                ("guard_need", m.guard_need), ("guard_negative", m.guard_negative), ("guard_positive", m.guard_positive),
                ("guard_consent", m.guard_consent), ("completion", m.completion), ("outdoor", m.outdoor), ("outside", m.outside), ("indoor", m.indoor),
                ("vague", m.vague),
            )
        }
        cues = {k: v for k, v in cues.items() if v}
        if "?" in text:
            cues.setdefault("question_mark", ["?"])
        is_last = index == len(spans) - 1
        times = parser.parse(text)
        if cues.get("completion") and not is_last:
            role = "temporal"
        elif connective in m.conditional_endings and not is_last and times.relative and not caps:
            role = "temporal"  # "40분 지나면": a clock delay, not a guard on a state
        elif connective in m.conditional_endings and not is_last:
            role = "guard"
        else:
            role = "action"
        out.append(
            ClauseAnalysis(
                index=index, text=text, compact=cc, connective=connective, role=role, anchors=anchors,
                capabilities=caps, rooms=rooms, unsupported=unsupported, qna_topics=topics, identity=identity,
                unknown_modes=unknown_modes, times=times,
                has_predicate=_has_tags(nt, start, end, PREDICATE_TAGS),
                has_final_ending=_has_tags(nt, start, end, FINAL_TAGS),
                outdoor_dust=outdoor_dust, cues=cues,
                morpheme_tags=[mo.tag for mo in nt.morphemes if start <= mo.start < end],
                noun_count=sum(1 for mo in nt.morphemes if start <= mo.start < end and mo.tag in ("NNG", "NNP")),
                has_proper_noun=any(start <= mo.start < end and mo.tag == "NNP" for mo in nt.morphemes),
                filler_words=sum(1 for w in text.split() if w.strip("?.!,") in m.filler_words),
                start=start, end=end, morphemes=morphs, compact_offsets=offsets, in_registry_word=in_word,
                after_registry_word=after_word,
            )
        )
    # "사진 찍기 전에 동의부터": a clause cut at a before-noun runs after the next one
    i = 0
    while i < len(out) - 1:
        if out[i].connective in m.before_nouns:
            out[i], out[i + 1] = out[i + 1], out[i]
            i += 2
        else:
            i += 1
    for new_index, c in enumerate(out):
        c.index = new_index
        c.anchors = [a.model_copy(update={"clause": new_index}) for a in c.anchors]
    return out
