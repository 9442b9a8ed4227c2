"""Anchors of a whole turn: the clauses `stages/_anchoring.py` reads one by one, then what depends on more than
one of them (a scope cue said in another clause, a head noun said in the clause before, a before-noun's order).

Mechanisms only: every head, manner, scope cue and weight comes from the registry.
"""

from __future__ import annotations

from registry.contracts import AnchorMatch, NormalizedText
from registry.loader import Registry
from stages._anchoring import _clause, _manner_at
from stages._operations import level_arguments, level_of, operation_of
from stages._clauses import CapabilityHit, ClauseAnalysis
from stages._matchers import Matchers
from stages._segments import copula_tail, merge_shapeless, names_a_value, polar_starts, segment, without_trailing_hesitation

CARRIED = "carried"
"""How a capability hit was found whose head noun the clause before said (바람이 약해 / 좀 세게 해 줘)."""


def _add_hit(c: ClauseAnalysis, hit: CapabilityHit) -> None:
    """A capability hit found across the clause's words, and the anchor that records it."""
    c.capabilities.append(hit)
    c.anchors.append(AnchorMatch(kind=hit.kind, target=hit.capability_id, surface=hit.surface, via=hit.via,
                                 strength=hit.strength, clause=c.index))


def _scope_variants(clauses: list[ClauseAnalysis], registry: Registry, m: Matchers) -> None:
    """움직이지 말고 거기서 청정만 해 / 모든 방 다 청정해 줘: a scope cue anywhere in the turn makes a capability the
    variant its registry entry names for that scope. The cue may sit in another clause (X 말고 Y); a clause
    that names a room keeps its capability (it moves there first)."""
    found = {scope for scope, cues in m.scopes.items() if any(cues.first(c.compact) for c in clauses)}
    if not found:
        return
    by_id = registry.capability_by_id
    for c in clauses:
        if c.rooms:
            continue
        for i, hit in enumerate(c.capabilities):
            variant = next((by_id[v] for s, v in by_id[hit.capability_id].scope_variants.items() if s in found), None)
            if variant is None or not any(op.operation_id == hit.operation_id for op in variant.operations):
                continue
            c.capabilities[i] = CapabilityHit(variant.capability_id, variant.kind, hit.operation_id, hit.surface, hit.via,
                                              hit.strength, hit.position, dict(hit.arguments))
            c.anchors = [a.model_copy(update={"target": variant.capability_id}) if a.target == hit.capability_id else a
                         for a in c.anchors]


def _carried_heads(clauses: list[ClauseAnalysis], registry: Registry, m: Matchers) -> None:
    """바람이 너무 약해 좀 세게 해 줘 / 소리가 잘 안 들려 좀 크게 해 봐: a clause that names nothing (no noun, no
    anchor, no room) and says only how, a manner of a capability in the -게 form or one of its level verbs, takes
    the head noun of that capability from the clause right before it (request_frames heads): the frame is said
    across two clauses. Not from a condition (소리가 작으면 크게 해: a rule for later, with nothing to check). The hit is evidence like any other; licensing reads the clause's own speech act."""
    for before, c in zip(clauses, clauses[1:]):
        if before.role in ("guard", "temporal") or c.capabilities or c.unsupported or c.rooms or any(mo.tag.startswith(("NN", "NP", "SL")) for mo in c.morphemes):
            continue
        said = {mo.form for mo in before.morphemes if mo.tag == "NNG"}
        for cap_id, heads, manners, level_verbs, level_heads, _, _ in m.manner_frames:
            head = next((h for h in heads if h in said), None)
            if head is None:
                continue
            j = next((j for j, mo in enumerate(c.morphemes) if c.compact_offsets[j] >= 0 and (
                _manner_at(c.morphemes, j, manners, m) or (head in level_heads and (mo.form, mo.tag) in level_verbs))), None)
            if j is None:
                continue
            cap, at = registry.capability_by_id[cap_id], c.compact_offsets[j]
            surface = c.compact[at:at + len(c.morphemes[j].form)]
            hit = CapabilityHit(cap_id, cap.kind, operation_of(cap, head + surface, c.compact[at:], m), surface, CARRIED,
                                registry.weights.strengths["alias"], at)
            level_arguments([hit], c.compact, registry, m)
            _add_hit(c, hit)
            break


def _contrasted_levels(clauses: list[ClauseAnalysis], registry: Registry, m: Matchers) -> None:
    """터보 말고 중으로 해 / 볼륨 10 말고 5로 해 줘: a clause that sets a level of one capability aside (X 말고: speech_acts
    exclusion; the capability named, or a level word only it has) hands that capability to the next clause when it
    names nothing but another of its levels: the same setting, another value. The hit is evidence like any other;
    licensing reads the next clause's own speech act."""
    p = m.speech
    for before, c in zip(clauses, clauses[1:]):
        ms = [(mo.form, mo.tag) for mo in before.morphemes]
        if len(ms) < 2 or ms[-1] not in p.exclude_end or ms[-2] not in p.exclude_verb or c.capabilities or c.unsupported or c.rooms:
            continue
        # (강아지 말고: a level word inside another word is none)
        named = {h.capability_id for h in before.capabilities} or {m.own_level_words[f] for f, _ in ms if f in m.own_level_words}
        cap = registry.capability_by_id[next(iter(named))] if len(named) == 1 and named <= m.levelled else None
        level = level_of(cap, c.compact, m) if cap is not None else None
        word = next((w for w in [*sorted(cap.level_words, key=len, reverse=True), str(level)] if w in c.compact), None) \
            if level is not None else None
        if word is not None:
            _add_hit(c, CapabilityHit(cap.capability_id, cap.kind, "level", word, CARRIED, registry.weights.strengths["alias"],
                                      c.compact.find(word), arguments={"level": level}))


def _carried_stops(clauses: list[ClauseAnalysis], registry: Registry, m: Matchers) -> None:
    """청정 이제 됐으니까 꺼 줘: a clause that names nothing and asks only to switch off or stop, right after a premise
    (-니까, -는데) naming one capability that can be switched off or stopped, stops that capability; the object is
    said in the reason. Only a stop carries over (사진 다 찍었으니까 꺼 줘 starts nothing)."""
    premise = {form for form, _ in m.speech.premise}
    for before, c in zip(clauses, clauses[1:]):
        if before.connective not in premise or c.capabilities or c.unsupported or c.rooms \
                or any(mo.tag.startswith(("NN", "NP", "SL")) for mo in c.morphemes) or not m.off.first(c.compact):
            continue
        named = {h.capability_id for h in before.capabilities}
        cap = registry.capability_by_id[named.pop()] if len(named) == 1 else None
        stop = next((op.operation_id for op in cap.operations if op.operation_id in ("off", "stop")), None) if cap else None
        fits = registry.frames.fits(cap.capability_id, cap.kind) if stop else frozenset()
        verb = next((mo for mo in c.morphemes if mo.tag == "VV" and (mo.form, mo.tag) in fits), None)
        if verb is None:
            continue
        _add_hit(c, CapabilityHit(cap.capability_id, cap.kind, stop, verb.form, CARRIED, registry.weights.strengths["alias"],
                                  max(c.compact.find(verb.form), 0)))


def _bare_goals(clauses: list[ClauseAnalysis], registry: Registry, m: Matchers) -> None:
    """거실로 / 안방으로 좀: one room with a goal particle, said alone (adverbs and interjections aside), is the request
    of the capability whose frame takes that goal (request_frames bare_goals), its verb left out. The hit is evidence
    like any other; licensing reads the clause's own speech act."""
    for c in clauses:
        said = [i for i, mo in enumerate(c.morphemes) if not mo.tag.startswith(("S", "IC", "MAG"))]
        if c.capabilities or c.unsupported or len(c.rooms) != 1 or len(said) < 2 or not all(c.in_registry_word[i] for i in said[:-1]):
            continue
        last = c.morphemes[said[-1]]
        cap_id = m.bare_goals.get((last.form, last.tag))
        if cap_id is None:
            continue
        cap = registry.capability_by_id[cap_id]
        _add_hit(c, CapabilityHit(cap_id, cap.kind, cap.operations[0].operation_id, c.compact, "frame",
                                  registry.weights.strengths["alias"], 0))


def _switched_selves(clauses: list[ClauseAnalysis], registry: Registry, m: Matchers) -> None:
    """청정기 켜 줘 / 공기청정기 좀 꺼: the robot's own noun said bare (request_frames switched_selves), then only a
    particle or adverbs, then one of its capability kind's execution verbs, asks for that capability (to start, or to
    stop with an off word). The hit is evidence like any other; licensing reads the clause's speech act."""
    other, class_nouns = registry.speech_acts.other_targets.category, registry.speech_acts.other_targets.class_nouns
    for c in clauses:  # (a slip read in the noun, 공기청정 of 공기청정기, or the noun taken for another thing, gives way)
        if any(h.via != "fuzzy" for h in c.capabilities) or any(u != other for u in c.unsupported):
            continue
        ms = c.morphemes
        at = next((i for i, mo in enumerate(ms) if (mo.form, mo.tag) in m.switched_selves), None)
        if at is None:
            continue
        j = at + 1
        while j < len(ms) and (ms[j].tag in ("JKO", "JX", "MAG") or ms[j].tag.startswith("S")):
            j += 1
        cap = registry.capability_by_id[m.switched_selves[(ms[at].form, ms[at].tag)]]
        if j >= len(ms) or (ms[j].form, ms[j].tag.split("-")[0]) not in registry.frames.kind_predicate_sets.get(cap.kind, ()):
            continue
        first = at - 1 if at and ms[at - 1].form + ms[at].form in class_nouns else at  # (공기 청정기: one noun)
        start = c.compact_offsets[first]
        c.capabilities = [h for h in c.capabilities if not start <= h.position < c.compact_offsets[at] + len(ms[at].form)]
        left = {h.capability_id for h in c.capabilities}  # (공기청정 read in 공기청정기: no word of an act)
        c.anchors = [a for a in c.anchors if a.via != "fuzzy" or a.target in left]
        called = max((i for i in range(first) if _calls_the_robot(ms, i, m)), default=-1)  # (자기야 잠깐만. 로봇아 ...)
        if any(mo.tag.startswith(("NN", "NP", "MM")) for mo in ms[called + 1:first]):
            continue  # (안방에 있는 공기청정기, 큐브 공기청정기, 헤이 구글 ...: maybe another one, or somebody else asked)
        c.unsupported = []
        operation = operation_of(cap, "", c.compact[c.compact_offsets[j]:], m)
        _add_hit(c, CapabilityHit(cap.capability_id, cap.kind, operation, ms[at].form, "frame", registry.weights.strengths["alias"],
                                  c.compact_offsets[at]))


def _calls_the_robot(ms: list, i: int, m: Matchers) -> bool:
    """로봇아, / 알식스야 (read 알식스 이/VCP 야): morpheme i is one of the robot's names with a call after it."""
    nxt = [(mo.form, mo.tag) for mo in ms[i + 1:i + 3]]
    return (ms[i].form, ms[i].tag) in m.speech.robot and bool(nxt) and (
        nxt[0] in m.speech.voc_particles or nxt[0][1] == "SP" or (nxt[0][1] == "VCP" and nxt[1:] and nxt[1][0] in m.speech.voc_forms))


def _paired_copulas(before: ClauseAnalysis, after: ClauseAnalysis, m: Matchers) -> bool:
    """너 삼성 거야 엘지 거야 / 지금 거실이야 안방이야: a bare noun with the copula, said right after a sentence that ends in
    another noun with the same copula ending, offers the two as alternatives (철수는 학생이야 영희는 선생님이야 gives each
    its own subject: two statements)."""
    a = [(x.form, x.tag) for x in after.morphemes if not x.tag.startswith(("S", "MAG"))]  # (지금 작은방이야)
    b = [(x.form, x.tag) for x in before.morphemes if not x.tag.startswith("S")]
    a_tail, b_tail = copula_tail(a, m), copula_tail(b, m)  # (강이야 약이야: Kiwi reads the first 이야 as a particle)
    if not (2 <= len(a) <= 5 and len(b) >= 2 and a_tail and b_tail and a_tail[1] == b_tail[1]):
        return False
    (a_nouns, _), (b_rest, _) = a_tail, b_tail
    return names_a_value(a_nouns) and bool(b_rest) and b_rest[-1][1].startswith("NN") and b_rest[-len(a_nouns):] != a_nouns


def analyse(nt: NormalizedText, registry: Registry, m: Matchers) -> list[ClauseAnalysis]:
    """Segment the utterance and find every registry anchor, room, time and cue per clause."""
    if not nt.text:
        return []
    polar = polar_starts(nt.morphemes, m)
    spans = without_trailing_hesitation(nt, merge_shapeless(nt, segment(nt, m, polar), m), m)
    scope = (bool(m.indoor.first(nt.compact)), bool(m.outdoor.first(nt.compact)))
    out = [_clause(nt, span, index, index == len(spans) - 1, registry, m, scope) for index, span in enumerate(spans)]
    for before, after in zip(out, out[1:]):
        if nt.text[before.end:after.start].strip(" ,.;?!") or _paired_copulas(before, after, m):  # (아니면, 아님 left out)
            before.alternative = after.alternative = True
    for c in out:  # 공기 좋아 나빠: one question, two ways
        c.polar_at = next((j for j, mo in enumerate(c.morphemes) if j and mo.start in polar), -1)
        c.alternative = c.alternative or c.polar_at >= 0
    _carried_heads(out, registry, m)
    _carried_stops(out, registry, m)
    _contrasted_levels(out, registry, m)
    _bare_goals(out, registry, m)
    _switched_selves(out, registry, m)
    _scope_variants(out, registry, m)
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
