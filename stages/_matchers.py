"""Compiled matchers built once per registry from its data (no vocabulary lives here).

Everything matches the *compact* text (spaces removed), so "거실로가서" and "거실로 가서"
light the same anchors.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from registry.hangul import FUZZY_MIN_SYLLABLES, all_hangul, deletions, jamo
from registry.loader import Registry
from stages.speech_patterns import patterns


def compact(text: str) -> str:
    return text.replace(" ", "")


@dataclass(frozen=True)
class AnchorEntry:
    kind: str
    """execution | settings | state_query | unsupported | device_qna | product_identity | ambiguous"""
    target: str
    alias: str


class CueSet:
    """A list of cue phrases matched anywhere in compact text."""

    def __init__(self, cues: list[str]):
        self.cues = sorted({compact(c).lower() for c in cues if c.strip()}, key=len, reverse=True)
        self._re = re.compile("|".join(map(re.escape, self.cues))) if self.cues else None

    def find(self, text: str) -> list[str]:
        return [m.group(0) for m in self._re.finditer(text)] if self._re else []

    def find_fitting(self, text: str, fits) -> list[str]:
        """Cues found whose span `fits(start, end)` accepts (whole words, not parts of other words)."""
        return [m.group(0) for m in self._re.finditer(text) if fits(m.start(), m.end())] if self._re else []

    def first(self, text: str) -> str | None:
        if not self._re:
            return None
        m = self._re.search(text)
        return m.group(0) if m else None


ROOM_PART = "{room}"
"""The first part of a capability lemma run that stands for any registered room name."""


class Matchers:
    """Anchor, room and cue matchers derived from one Registry."""

    def __init__(self, registry: Registry):
        self._index_anchors(registry)
        self._index_slips(registry)
        self._index_rooms_and_lemmas(registry)
        self._cue_sets(registry.lexicon)
        self._word_sets(registry.lexicon)
        self.speech = patterns(registry)
        self.device_verbs = registry.frames.device_verbs
        """The speech-act patterns (wishes, asking leave, manner endings) segmentation and frames read too."""

    def _index_anchors(self, registry: Registry) -> None:
        """Every alias of a capability, unsupported category, manual topic, identity word or ambiguous word."""
        caps = registry.capabilities
        entries: dict[str, list[AnchorEntry]] = {}

        def add(alias: str, entry: AnchorEntry) -> None:
            key = compact(alias).lower()
            if key:
                entries.setdefault(key, []).append(entry)

        for cap in caps.capabilities:
            if cap.internal:
                continue
            for alias in cap.aliases:
                add(alias, AnchorEntry(cap.kind, cap.capability_id, alias))
        for cat in caps.unsupported_request_categories:
            for alias in cat.aliases:
                add(alias, AnchorEntry("unsupported", cat.category, alias))
        for topic in caps.device_qna_topics:
            for alias in topic.aliases:
                add(alias, AnchorEntry("device_qna", topic.topic, alias))
        for alias in caps.product_identity_anchors:
            add(alias, AnchorEntry("product_identity", "product_identity", alias))
        self.identity_runs = tuple(tuple(tuple(v.split("/")) for v in run) for run in caps.product_identity_runs)
        for amb in caps.classification_hints.ambiguous_anchors:
            add(amb.term, AnchorEntry("ambiguous", amb.capability_id, amb.term))
        self.anchor_entries = entries
        levelled = [cap for cap in caps.capabilities if cap.level_words and cap.operation("level") is not None]
        self.levelled = frozenset(cap.capability_id for cap in levelled)
        """Capabilities with a level operation and level words (fan_speed, sound_volume ...)."""
        self.own_level_words = {w: cap.capability_id for cap in levelled for w in cap.level_words
                                if sum(w in other.level_words for other in levelled) == 1}
        """A level word that names one capability's level only (터보, 약풍; not 최대, which three share)."""
        keys = sorted(entries, key=len, reverse=True)
        self.anchor_re = re.compile("|".join(map(re.escape, keys)))
        self.ambiguous = {compact(a.term): a for a in caps.classification_hints.ambiguous_anchors}

    def _index_slips(self, registry: Registry) -> None:
        """Recognition slips of aliases and room names, and the syllables a cut-off word may begin."""
        entries = self.anchor_entries
        # recognition slips ("바이탈싸인" for "바이탈사인"): one jamo edit away from a capability alias.
        # Never on a word of two syllables or fewer: 바랄/사람 -> 바람 and 아진 -> 사진 are talk, not slips.
        self.fuzzy_index: dict[str, str] = {}
        for key, found in entries.items():
            if len(key) >= FUZZY_MIN_SYLLABLES and all_hangul(key) and any(
                e.kind in ("execution", "settings", "state_query") for e in found
            ):
                for variant in deletions(jamo(key)):
                    self.fuzzy_index.setdefault(variant, key)
        self.fuzzy_lengths = sorted({len(k) for k in self.fuzzy_index.values()})
        # 거실로 가서 공 / 배터리 얼: a last word of one syllable that only begins a registry word was cut off
        asking = [v.split("/")[0] for v in registry.speech_acts.question_words + registry.speech_acts.quantity_question_words]
        words = ([k for k in entries if len(k) >= 2] + [name for name, _ in registry.room_names if len(name) >= 2]
                 + [w for w in asking if len(w) >= 2])  # 배터리 얼: 얼마 cut off
        self.cut_prefixes = {w[0] for w in words if "\uac00" <= w[0] <= "\ud7a3"} - set(entries) - {
            compact(n) for n, _ in registry.room_names}
        # 나이트 모 / 공기 상: a word of a registry word said whole, then one syllable of its next word (나이트 모드)
        self.word_then_syllable = {k[:i] for k in entries for i in range(3, len(k)) if "\uac00" <= k[i - 1] <= "\ud7a3"}
        self.fuzzy_rooms: dict[str, str] = {}
        for name, room_id in registry.room_names:
            if len(name) >= FUZZY_MIN_SYLLABLES and all_hangul(name):
                for variant in deletions(jamo(name)):
                    self.fuzzy_rooms.setdefault(variant, room_id)

    def _index_rooms_and_lemmas(self, registry: Registry) -> None:
        """Room names, capability lemmas, setting aliases and the indoor/outdoor scope cues."""
        caps = registry.capabilities
        self.room_re = re.compile("|".join(re.escape(name) for name, _ in registry.room_names))
        self.room_of = dict(registry.room_names)

        self.lemma_index: dict[tuple[str, str], str] = {}
        self.lemma_runs: dict[tuple[str, str], list[tuple[tuple[tuple[str, str], ...], str]]] = {}
        """First morpheme -> (the whole run, capability): a lemma written form/tag+form/tag (어디/NP+이/VCP) is a run of
        morphemes that anchors as an alias does, whatever ending follows (어디니, 어디예요, 어디고)."""
        self.room_runs: list[tuple[tuple[tuple[str, str], ...], str]] = []
        """What follows {room} in a room lemma run (지금 거실이야): the rest is looked for right after any room name found
        in the compact text, however Kiwi reads the name (작은방: 작 은 방)."""
        for cap in caps.capabilities:
            for lemma in cap.lemmas:
                run = tuple(tuple(part.split("/", 1)) for part in lemma.split("+"))
                if run[0][0] == ROOM_PART:
                    self.room_runs.append((run[1:], cap.capability_id))  # type: ignore[arg-type]
                elif len(run) == 1:
                    self.lemma_index[run[0]] = cap.capability_id  # type: ignore[index]
                else:
                    self.lemma_runs.setdefault(run[0], []).append((run, cap.capability_id))  # type: ignore[arg-type]

        self.manner_frames = tuple(
            (cap_id, frozenset(f.heads), frozenset(tuple(v.split("/")) for v in f.manners),  # type: ignore[misc]
             frozenset(tuple(v.split("/")) for v in f.level_verbs), frozenset(f.level_heads),  # type: ignore[misc]
             tuple(tuple(tuple(x.split("/", 1)) for x in run.split("+")) for run in f.due_runs),
             frozenset(tuple(v.split("/")) for v in f.level_goals))  # type: ignore[misc]
            for cap_id, f in registry.frames.capabilities.items() if f.heads and (f.manners or f.due_runs))
        """(capability, head nouns, manner adjectives, level verbs, the heads they set, due runs, level goals): 화면 ...
        어둡게 sets the brightness, 소리 좀 올려 the volume, 필터 갈 때 됐어 asks the filter's state, 터보로 해 줘 the fan
        (request_frames heads)."""

        self.bare_goals = {tuple(v.split("/")): cap_id for cap_id, f in registry.frames.capabilities.items() for v in f.bare_goals}
        """Goal particle -> the capability a room said alone with it asks for, its verb left out (거실로: request_frames)."""
        self.switched_selves = {tuple(v.split("/")): cap_id for cap_id, f in registry.frames.capabilities.items()
                                for v in f.switched_selves}
        """The robot's own noun -> the capability switching it on or off asks for (청정기 켜 줘: request_frames)."""

        settings_aliases = [a for c in caps.capabilities if c.kind == "settings" for a in c.aliases]
        self.settings_alias_set = {compact(a) for a in settings_aliases}
        self.mode_suffix = caps.classification_hints.unknown_mode_pattern_suffix
        self.indoor = CueSet(caps.classification_hints.indoor_scope_cues + [n for r in registry.rooms.rooms for n in r.names])
        self.outdoor = CueSet(caps.classification_hints.outdoor_scope_cues)
        self.outside = CueSet(caps.classification_hints.outside_cues)
        self.scoped_capabilities = {a.capability_id for a in caps.classification_hints.ambiguous_anchors}
        """Capabilities whose words may be about indoors or outdoors (공기, 온도)."""
        self.room_bound_capabilities = frozenset(
            c.capability_id for c in caps.capabilities
            if any(spec.type == "room" and spec.required for op in c.operations for spec in op.arguments.values()))
        """Capabilities whose operation needs a room to go to: a place outside the home is never their destination."""
        self.whole_requests = frozenset((c.capability_id, compact(a)) for c in caps.capabilities for a in c.whole_request_aliases)
        """(capability, compact alias) of the words that name the act in full (음소거): said bare, the whole frame."""

    def _cue_sets(self, lex: dict) -> None:
        """The lexicon's cue sets: operations, guards, time, schedule, public information, questions, replies."""
        ops = lex["operations"]
        self.on, self.off, self.check = CueSet(ops["on"]), CueSet(ops["off"]), CueSet(ops["check"])
        self.increase, self.decrease = CueSet(ops["increase"]), CueSet(ops["decrease"])
        limit = [compact(w) for w in ops["to_the_limit"]["words"]]
        self.to_the_limit = {sign: CueSet([w + cue for w in limit for cue in cues.cues])
                             for sign, cues in ((1, self.increase), (-1, self.decrease))}
        guards = lex["guards"]
        self.guard_need, self.guard_negative = CueSet(guards["need"]), CueSet(guards["negative"])
        self.guard_positive, self.guard_consent = CueSet(guards["positive"]), CueSet(guards["consent"])
        self.guard_default_subject = guards["default_subject"]
        self.completion = CueSet(lex["temporal"]["completion"])
        self.clock_delay = CueSet(lex["temporal"]["clock_delay"])
        sch = lex["schedule"]
        self.sch_scope, self.sch_alarm, self.sch_timer = CueSet(sch["scope"]), CueSet(sch["alarm"]), CueSet(sch["timer"])
        self.sch_reminder, self.sch_cancel, self.sch_list = CueSet(sch["reminder"]), CueSet(sch["cancel"]), CueSet(sch["list"])
        self.sch_nouns = CueSet(sch["management_nouns"])
        frg = lex["frg"]
        self.frg_scope, self.frg_recommend = CueSet(frg["scope"]), CueSet(frg["recommendation"])
        self.frg_targets, self.frg_lookup = CueSet(frg["public_targets"]), CueSet(frg["lookup_shapes"])
        self.public_places = frozenset(compact(w) for w in frg.get("public_places", []))
        self.public_place_suffixes = tuple(compact(w) for w in frg.get("public_place_suffixes", []))
        self.remote_places = frozenset(tuple(w.split("/")) for w in frg.get("remote_places", []))
        weather = frg.get("weather_states", {})
        self.weather_days = frozenset(compact(w) for w in weather.get("days", []))
        self.weather_predicates = frozenset(tuple(p.split("/")) for p in weather.get("predicates", []))
        dqr = lex["dqr"]
        self.question_shape, self.capability_question = CueSet(dqr["question_shapes"]), CueSet(dqr["capability_question_shapes"])
        conv = lex["conversation"]
        self.reply_shape, self.generic_help = CueSet(conv["reply_shapes"]), CueSet(conv["generic_help"])
        self.reply_shape_not_before = frozenset(tuple(x.split("/")) for x in conv["reply_shapes_not_before"]["endings"])

    def _word_sets(self, lex: dict) -> None:
        """Acknowledgements, fillers and the clause segmentation's endings, tags and punctuation."""
        self.acknowledgements = {compact(a) for a in lex["conversation"]["acknowledgements"]}
        self.fillers = {compact(f) for f in lex["fragments"]["fillers"]}
        self.bare_answers = frozenset(compact(w) for w in lex["fragments"].get("bare_answers", []))
        self.floor_holders = frozenset(lex["fragments"].get("floor_holders", []))
        self.cancel = CueSet(lex["cancel"]["cues"])
        self.scopes = {name: CueSet(cues) for name, cues in lex.get("scopes", {}).items()}
        """Where an action happens (in place, the whole home): cue sets the capabilities' scope_variants name."""
        self.vague = CueSet(lex["fragments"]["vague_references"])
        self.at_hand = frozenset(compact(w) for w in lex["fragments"]["at_hand_references"]["words"])
        self.product_deictics = {compact(w) for w in lex["fragments"].get("product_deictics", [])}
        """이거 밤에 틀어 놓으면 시끄러워?: in a question to the robot, "this" is the robot, not a vague reference."""
        self.pro_forms = frozenset(tuple(w.split("/")) for w in lex["fragments"].get("pro_forms", []))
        self.filler_words = set(lex["fragments"]["filler_words"])
        self.bound_forms = frozenset(compact(w) for w in lex["fragments"].get("bound_forms", []))
        """Particles and endings that never stand as a word (는, 까지, 더라고요): see `spelled_by_bound_forms`."""
        self._longest_bound_form = max(map(len, self.bound_forms), default=0)
        self.ignorable_words = set(lex["clauses"]["ignorable_words"])
        self.comparison_particles = frozenset(lex["clauses"].get("comparison_particles", []))
        self.not_targets_after = self.comparison_particles | frozenset(lex["clauses"].get("count_counters", []))
        pointing = {k.split("/")[0] for k in lex["clauses"].get("referring_manners", []) if k.endswith("/MAG")}
        self.not_manners = frozenset(self.ignorable_words | pointing)  # adverbs before a verb that say no act
        clauses = lex["clauses"]
        self.connective_endings = set(clauses["connective_endings"])
        self.conditional_endings = set(clauses["conditional_endings"])
        self.quotatives = set(clauses["quotative_endings"])
        self.quotatives_longest_first = sorted(self.quotatives, key=len, reverse=True)
        self.sequence_nouns = set(clauses["sequence_nouns"])
        self.conjunctions = {compact(c) for c in clauses["conjunctions"]}
        self.no_split_before = set(clauses["no_split_before_tags"])
        serial = clauses["serial_direction"]
        self.serial_direction = tuple(frozenset(tuple(x.split("/")) for x in serial[k])
                                      for k in ("endings", "verbs", "first_verbs_of_motion", "motion_endings"))
        self.sentence_final_tags = set(clauses["sentence_final_tags"])
        self.imperative_connectives = set(clauses["imperative_connectives"])
        """청소기 돌려라 먼지 천지다: Kiwi tags a mid-turn imperative EC; on a verb it still ends a sentence."""
        run_on = clauses["run_on_imperatives"]
        self.run_on_imperatives = (frozenset(run_on["endings"]), frozenset(run_on["after_tags"]), frozenset(run_on["before_tags"]))
        self.run_on_after_a_comma = frozenset(run_on["before_tags_after_a_comma"])
        self.no_sentence_split_before = tuple(clauses["no_sentence_split_before_tags"])
        self.continuing_finals = set(clauses["continuing_finals"])
        """Sentence endings that spoken Korean runs on from (들렀다 와, 있던데 바뀐 거야): never a sentence cut."""
        closing = clauses["closing_after_tags"]
        self.closing_after = (frozenset(closing["forms"]), frozenset(closing["tags"]))
        """Of those, the ones an adjective closes a sentence with (좋다 청정해)."""
        self.listing_connectives = frozenset(tuple(x.split("/")) for x in clauses["listing_connectives"]["forms"])
        """-고 before a reporting verb lists acts, it quotes no command (찍고 그러는 거 아니지?)."""
        retract = clauses["retraction_cues"]
        self.retraction = (frozenset(tuple(x.split("/")) for x in retract["forms"]), frozenset(tuple(x.split("/")) for x in retract["fillers"]))
        """A clause opening with one of these (fillers aside) takes back the requests before it (청정해 아니 잠깐만)."""
        self.corrections = frozenset(tuple(x.split("/")) for x in retract.get("corrections", []))
        """The no that corrects what follows it (볼륨 5로 아 아니 8로: stages._self_repair), not 잠깐 (for a moment)."""
        alt = clauses["alternatives"]
        self.alternatives = (tuple(tuple(tuple(x.split("/")) for x in seq) for seq in alt["conjunctions"]),
                             frozenset(alt["after_tags"]), frozenset(tuple(x.split("/")) for x in alt["after_forms"]))
        """아니면 / 아님 / 혹은 said alone after a sentence's ending: alternatives are offered (A야 아니면 B야)."""
        polar = alt["polar"]
        self.polar_opposites = frozenset((a, b) for one, other in polar["opposites"] for x in one for y in other for a, b in ((x, y), (y, x)))
        self.polar_negators = frozenset(tuple(x.split("/")) for x in polar["negators"])
        self.polar_denials = frozenset(tuple(x.split("/")) for x in polar["denials"])
        """켜져 있어 꺼져 있어 / 충전 중이야 아니야: a predicate's opposite, a denial or the predicate negated said alone
        after a sentence offers alternatives (stages._segments.polar_pair)."""
        self.split_punct = set(clauses["split_punctuation"])
        self.before_nouns = set(clauses["before_nouns"])
        self.occasion_nouns = frozenset(clauses.get("occasion_nouns", []))
        self.connector_fragments = {compact(c) for c in clauses["connector_fragments"]}
        self.level_word_followers = tuple(lex["operations"]["level_word_followers"])

    def fuzzy_alias(self, text: str, taken: list[tuple[int, int]]) -> tuple[int, int, str] | None:
        """The first window of text one jamo edit from a capability alias, outside taken spans."""
        for size in reversed(self.fuzzy_lengths):
            for start in range(0, len(text) - size + 1):
                end = start + size
                window = text[start:end]
                if any(s < end and start < e for s, e in taken) or not all_hangul(window):
                    continue
                for variant in deletions(jamo(window)):
                    alias = self.fuzzy_index.get(variant)
                    if alias is not None:
                        return start, end, alias
        return None


    def fuzzy_room(self, text: str) -> str | None:
        """A room name one jamo edit away ("부억" for "부엌")."""
        for start in range(len(text) - 1):
            for size in (4, 3):
                window = text[start:start + size]
                if len(window) == size and all_hangul(window):
                    for variant in deletions(jamo(window)):
                        if variant in self.fuzzy_rooms:
                            return self.fuzzy_rooms[variant]
        return None


    def quotative_split(self, text: str) -> tuple[str, str] | None:
        """(words before, quotative) when a word ends in a quotative ("꺼내라고"), else None.

        Matching word endings, not substrings: "빨래" contains "래" but quotes nothing."""
        words = text.split()
        for i, word in enumerate(words):
            quote = next((q for q in self.quotatives_longest_first if word.endswith(q) and len(word) > len(q)), None)
            if quote:
                return " ".join(words[:i] + [word[: -len(quote)]]), quote
        return None


    def spelled_by_bound_forms(self, text: str) -> bool:
        """Every word of `text` is a run of particles and endings only (는 / 를요 / 까지만 / 습니다만): the tail of a
        sentence whose head recognition lost. A segmentation over the forms, so 까지+만 needs no entry of its own."""
        words = [w for w in (w.strip("?.!,~") for w in text.split()) if w]
        return bool(words) and bool(self.bound_forms) and all(self._segments(w) for w in words)

    def _segments(self, word: str) -> bool:
        ends = {0}
        for i in range(1, len(word) + 1):
            if any(j in ends and word[j:i] in self.bound_forms for j in range(max(0, i - self._longest_bound_form), i)):
                ends.add(i)
        return len(word) in ends


@lru_cache(maxsize=8)
def matchers_for(registry: Registry) -> Matchers:
    return Matchers(registry)


PLACE_SUFFIX_MIN_SYLLABLES = 3
"""A place suffix names a place only at the end of a longer noun (서울역, 주민센터; never 지역 or 청 alone)."""


def public_place_of(morphemes, m: "Matchers") -> str | None:
    """The first noun that names a place or service of the outside world (lexicon frg.public_places); nouns
    written as one word are read whole (주민/NNG 센터/NNG is 주민센터, 국밥/NNG 집/NNG is 국밥집)."""
    words: list[str] = []
    end = None
    for mo in morphemes:
        if not mo.tag.startswith("NN"):
            end = None
            continue
        form = mo.form.lower()
        if end == mo.start and words:
            words[-1] += form
        else:
            words.append(form)
        end = mo.start + mo.length
        for word in dict.fromkeys((words[-1], form)):  # the compound first, in a stable order
            if word in m.public_places or (len(word) >= PLACE_SUFFIX_MIN_SYLLABLES and word.endswith(m.public_place_suffixes)):
                return word
    return None


def weather_state_of(morphemes, m: "Matchers") -> str | None:
    """The weather predicate of a day's weather (낼 춥나?: lexicon frg.weather_states), None when no day or no such
    predicate is named; whether it is asked and outdoors is the caller's to tell."""
    day = any(mo.form in m.weather_days for mo in morphemes) or any(
        a.form + b.form in m.weather_days for a, b in zip(morphemes, morphemes[1:]))  # 이번 주: 이번 + 주
    found = next((mo.form for mo in morphemes if (mo.form, mo.tag.split("-")[0]) in m.weather_predicates), None)
    return found if day else None
