"""Step 3a: what each clause does (speech act), and the licence a device action needs.

`speech_acts` reads mood, polarity, agent, reported speech, past time and the target owner from
Kiwi's morphemes with the patterns of `registry/speech_acts.json`; `clause_analyses` keeps a
capability hit only where its clause licenses it. A device action needs an affirmative request
addressed to the robot about its own device; anything else is a mention, kept as evidence.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

from registry.contracts import ACTING_MOODS, Agent, Mood, Morpheme, NormalizedText, Polarity, SpeechAct
from registry.loader import Registry
from registry.speech_contracts import SpeechActLexicon
from stages._clauses import ENDS_SENTENCE, VERB_TAGS, ClauseAnalysis, analyse, thing_before
from stages._matchers import compact, matchers_for

_ASKING = ACTING_MOODS | {"state_question", "question"}


@dataclass
class _Reading:
    """A clause's speech act while it is being read (the sentence around it may still change it)."""

    mood: Mood = "fragment"
    polarity: Polarity = "affirmative"
    agent: Agent = "robot"
    reported: bool = False
    past: bool = False
    quoted_until: int = 0
    displayed: bool = False
    means_of: str | None = None
    final: bool = False
    """The clause ends a sentence (a final or declarative ending)."""
    target_owner: str | None = None
    cut_off: bool = False
    """The turn was cut off inside this clause's sentence (사진 찍, 거실로 가서 공): it licenses nothing."""
    signals: list[str] = field(default_factory=list)


class _Patterns:
    """The lexicon as sets of (form, tag), built once per lexicon object."""

    def __init__(self, lex: SpeechActLexicon):
        def pairs(values: list[str]) -> frozenset[tuple[str, str]]:
            return frozenset(tuple(v.split("/")) for v in values)  # type: ignore[misc]

        self.prohibit_conn, self.prohibit_aux = pairs(lex.prohibitive.connectives), pairs(lex.prohibitive.auxiliaries)
        self.exclude_verb, self.exclude_end = pairs(lex.exclusion.verbs), pairs(lex.exclusion.endings)
        self.negators = pairs(lex.negators)
        self.need_nouns, self.need_verbs = pairs(lex.need_denial.nouns), pairs(lex.need_denial.verbs)
        self.prog_end, self.prog_aux = pairs(lex.progressive.endings), pairs(lex.progressive.auxiliaries)
        self.premise = pairs(lex.premise_endings)
        self.stop_words, self.stop_companions = pairs(lex.voice_stop.words), pairs(lex.voice_stop.companions)
        self.permit_end, self.permit_verb = pairs(lex.permission.endings), pairs(lex.permission.verbs)
        self.need_end, self.need_verb = pairs(lex.necessity.endings), pairs(lex.necessity.verbs)
        self.nominalizers = pairs(lex.nominalizers)
        self.quotatives, self.reporting = pairs(lex.quotatives), pairs(lex.reporting_verbs)
        self.display = pairs(lex.display_verbs)
        self.means = frozenset(k[0] for k in pairs(lex.means.connectives))
        self.neutral_goals = pairs(lex.means.neutral_goals)
        self.sequence_aux = pairs(lex.means.sequence_auxiliaries)
        self.past = pairs(lex.past_markers)
        self.promissive = pairs(lex.promissive_endings)
        self.speaker, self.robot = pairs(lex.speaker_pronouns), pairs(lex.robot_pronouns)
        self.subject_particles = pairs(lex.subject_particles)
        self.persons = frozenset(lex.person_nouns)
        self.voc_particles, self.voc_name_particles = pairs(lex.vocatives.particles), pairs(lex.vocatives.name_particles)
        self.voc_words = pairs(lex.vocatives.words)
        self.voc_bare_followers = tuple(lex.vocatives.bare_call_followers)
        self.assistants = tuple(a.lower() for a in lex.vocatives.assistants)
        self.voc_groups = tuple(tuple(tuple(v.split("/")) for v in seq) for seq in lex.vocatives.groups)
        self.wish_aux, self.wish_verb = pairs(lex.wish.auxiliaries), pairs(lex.wish.verbs)
        self.wish_good, self.wish_cond = pairs(lex.wish.after_conditional), pairs(lex.wish.conditional_endings)
        self.curiosity = pairs(lex.wish.curiosity)
        self.benefactive = pairs(lex.benefactives)
        self.request_nouns = pairs(lex.request_nouns)
        self.request_end, self.suggest_end = pairs(lex.request_endings), pairs(lex.suggestion_endings)
        self.asking_request_end, self.manner_end = pairs(lex.asking_request_endings), pairs(lex.manner_endings)
        self.intonation_end = pairs(lex.intonation_endings)
        iq = lex.intoned_questions
        self.feature_nouns = pairs(iq.feature_nouns) if iq else frozenset()
        self.diagnosis_nouns = pairs(iq.diagnosis_nouns) if iq else frozenset()
        self.verdict_preds = pairs(iq.verdict_predicates) if iq else frozenset()
        self.social_ic = pairs(lex.social_interjections)
        self.verb_imperative = pairs(lex.verb_imperative_endings)
        self.bare_connectives = frozenset(k[0] for k in pairs(lex.bare_request_connectives))
        self.declare_end, self.exclaim_end = pairs(lex.declarative_endings), pairs(lex.exclamative_endings)
        self.question_end, self.question_words = pairs(lex.question_endings), pairs(lex.question_words)
        self.how_words = pairs(lex.how_words)
        self.how_phrases = tuple(tuple(tuple(v.split("/")) for v in seq) for seq in lex.how_phrases)
        self.how_state = pairs(lex.how_state_verbs)
        self.telling = pairs(lex.telling_verbs)
        self.explain_words, self.exists = pairs(lex.explanation_words), pairs(lex.existence_verbs)
        self.able_mod, self.able_noun, self.able_verb = (pairs(lex.ability.modifier_endings), pairs(lex.ability.nouns),
                                                         pairs(lex.ability.verbs))
        self.able_pred = pairs(lex.ability.predicates)
        self.interjection_tags = frozenset(lex.exclamation_interjections)
        self.quote_marks = tuple(lex.quote_marks)
        self.spreads = frozenset(k[0] for k in pairs(lex.prohibition_spreads_over))


_COMPILED: dict[str, _Patterns] = {}


def _patterns(registry: Registry) -> _Patterns:
    """Compiled patterns, keyed by the lexicon's content (an edited lexicon compiles anew)."""
    lex = registry.speech_acts
    found = _COMPILED.get(lex.content_key)
    if found is None:
        found = _COMPILED[lex.content_key] = _Patterns(lex)
    return found


def _key(mo: Morpheme) -> tuple[str, str]:
    return (mo.form, mo.tag)


def _asks_how(ms: list[tuple[str, str]], seq: tuple[tuple[str, str], ...], state_verbs: frozenset) -> bool:
    """Whether the sequence occurs and is not followed by a verb that turns it into a state question."""
    n, first = len(seq), seq[0]
    return any(ms[i] == first and tuple(ms[i:i + n]) == seq and not (i + n < len(ms) and ms[i + n] in state_verbs)
               for i in range(len(ms) - n + 1))


def _vocative(ms: list[tuple[str, str]], inside: list[bool], p: _Patterns) -> tuple[str, str] | None:
    """(whom the turn calls, "robot" | "assistant" | "person") when it opens by calling somebody or addresses a group."""
    for seq in p.voc_groups:
        if seq[0] in ms and any(tuple(ms[i:i + len(seq)]) == seq for i in range(len(ms) - len(seq) + 1)):
            return seq[0][0], "person"
    for i, k in enumerate(ms[:4]):
        if k in p.voc_words:
            return k[0], "person"
        if k[1] in ("IC", "SP", "SF"):
            continue  # 아, 오메, a comma: what precedes the first content word
        if k[0].lower().startswith(p.assistants):
            return k[0], "assistant"  # 시리야, 헤이 구글: another assistant is addressed
        j = i + 1
        while j < len(ms) and ms[j][1] == "XSN":
            j += 1  # 얘들아: the plural suffix belongs to the noun
        nxt = ms[j] if j < len(ms) else None
        if nxt is None or not (k[1].startswith("NN") or k[1] == "NP"):
            return None
        person = k[0] in p.persons and k[1].startswith("NN")
        if nxt in p.voc_particles or (nxt in p.voc_name_particles and (person or k[1] == "NNP")):
            return k[0], "robot" if k in p.robot else "person"
        # 언니 나 사진 좀 찍어 줘: a bare person noun calls somebody (not 엄마 오면, 애들 사진 찍어, 엄마 방)
        if person and not inside[i] and nxt[1] in p.voc_bare_followers and nxt not in p.robot:
            return k[0], "person"
        return None
    return None


def _final_predicate(c: ClauseAnalysis, p: _Patterns) -> tuple[int, tuple[str, str]] | None:
    """(index, lemma) of the clause's last main predicate: not an auxiliary or a benefactive; a 하 suffix stands
    for the noun before it (청소/NNG of 청소해). None when the clause has no predicate."""
    ms = [_key(mo) for mo in c.morphemes]
    at = next((i for i in range(len(ms) - 1, -1, -1)
               if ms[i][1] in VERB_TAGS and ms[i][1] != "VX" and ms[i] not in p.benefactive), None)
    if at is None:
        return None
    return at, (ms[at - 1] if ms[at][1] in ("XSV", "XSA") and at > 0 else ms[at])


def _follows(ms: list[tuple[str, str]], first: frozenset, then: frozenset, within: int = 3) -> int | None:
    """Index of a morpheme of `then` that comes within `within` morphemes after one of `first`."""
    for i, k in enumerate(ms):
        if k in first:
            for j in range(i + 1, min(len(ms), i + 1 + within)):
                if ms[j] in then:
                    return j
    return None


def _clause_act(c: ClauseAnalysis, p: _Patterns, paired: tuple[str, ...] = ()) -> _Reading:
    """The clause's own reading (before what the sentence around it contributes)."""
    morphs, inside, text = c.morphemes, c.in_registry_word, c.text
    out = _Reading()
    if not morphs:
        return out
    ms = [_key(mo) for mo in morphs]
    tags = [k[1] for k in ms]
    sig = out.signals
    # reported or quoted speech: what precedes the last quotative is somebody's words
    q_at = max((i for i, k in enumerate(ms) if k in p.quotatives), default=None)
    matrix = ms
    if q_at is not None:
        rest = ms[q_at + 1:]
        out.quoted_until = len(compact(text[: morphs[q_at].start + morphs[q_at].length - morphs[0].start]))
        asks_robot = any(k in p.benefactive for k in rest)
        if rest and rest[0] in p.display:
            out.reported = out.displayed = True
            sig.append(f"displayed:{rest[0][0]}")
        elif not asks_robot and (not rest or any(k in p.reporting for k in rest[:2]) or ms[q_at][1] == "EF"):
            out.reported = True
            sig.append(f"quotative:{ms[q_at][0]}")
        matrix = rest or ms
    elif any(mark in text for mark in paired):  # a pair quotes (maybe over two clauses); a stray ' (주기');) does not
        out.reported = True
        sig.append("quotation_marks")
    ef = [k for k in matrix if k[1] == "EF"]
    final = ef[-1] if ef else next((k for k in reversed(matrix) if k[1] in ("EC", "ETN", "ETM")), None)
    out.final = bool(ef) or (final in p.declare_end)
    benefactive = any(k in p.benefactive and not (i + 2 < len(matrix) and matrix[i + 1][1] == "ETM" and matrix[i + 2] in p.nominalizers)
                      for i, k in enumerate(matrix)) or any(k in p.request_nouns for k in matrix)
    asks_word = any(k in p.question_words for k in matrix)
    question = ("?" in text or (final in p.question_end and final not in p.request_end)
                or (asks_word and not benefactive and final not in p.declare_end and final not in p.exclaim_end))
    # polarity; a negator before the first capability word negates some other phrase (있잖아 = 있지 않아)
    first_word = min((h.position for h in c.capabilities), default=0)
    def scopes_over_request(i: int) -> bool:  # the negator stands at or right before the capability word (안 가도 돼)
        j = next((j for j in range(i + 1, len(ms)) if tags[j] != "MAG"), i)
        return c.compact_offsets[i] >= first_word or c.compact_offsets[j] >= first_word

    def in_premise(i: int) -> bool:  # 소리가 안 나는데 고장이야: the negator belongs to the premise, not to what is said
        for j in range(i + 1, len(ms) - 1):
            premise = ms[j] in p.premise or (ms[j] == ("데", "NNB") and tags[j - 1] == "ETM")
            if premise and any(t in VERB_TAGS for t in tags[j + 1:]):
                return True
        return False

    negator = next((k[0] for i, k in enumerate(ms)
                    if k in p.negators and not inside[i] and i >= len(ms) - len(matrix) and scopes_over_request(i)
                    and not in_premise(i)), None)
    if _follows(matrix, p.prohibit_conn, p.prohibit_aux, within=2) is not None:
        out.polarity = "prohibited"
        sig.append("prohibitive")
    elif len(ms) >= 2 and ms[-1] in p.exclude_end and ms[-2] in p.exclude_verb:
        out.polarity = "prohibited"
        sig.append("exclusion")
    elif negator is not None:
        out.polarity = "negated"
        sig.append(f"negator:{negator}")
    elif _follows(matrix, p.need_nouns, p.need_verbs, within=4) is not None:
        out.polarity = "negated"
        sig.append("need_denied")
    # time and aspect
    last_verb = max((i for i, k in enumerate(matrix) if k[1] in VERB_TAGS and k[1] != "VX"), default=-1)
    # 갔다가 / 들렀다 ... 와: a past form inside the sentence sequences actions; only the final predicate narrates
    if any(k in p.past for k in matrix[last_verb + 1:]) and out.final:
        out.past = True
        sig.append("past_tense")
    progressive = _follows(matrix, p.prog_end, p.prog_aux, within=1) is not None
    # agent: a subject the clause names
    thing_subject = None
    for i, k in enumerate(ms[:-1]):
        nxt = ms[i + 1]
        if k in p.robot:
            sig.append(f"robot_subject:{k[0]}")
            break
        if k in p.speaker and (nxt in p.subject_particles or nxt[1][:1] not in ("J", "N", "X", "S")):
            out.agent = "user"
            sig.append(f"speaker_subject:{k[0]}")
            break
        person = (k[0] in p.persons and k[1].startswith("NN")) or k[1] == "NNP"
        if nxt in p.subject_particles and person and not inside[i]:
            out.agent = "third_person"
            sig.append(f"subject:{k[0]}")
            break
        if nxt[1] == "JKS" and k[1].startswith("NN") and not inside[i]:
            thing_subject = k[0]  # 소문이 돌고 있어: a thing acts; only a request form could still address the robot
    called = _vocative(ms, inside, p)
    if called is not None and called[1] != "robot":
        out.agent = "third_person"  # 언니 나 사진 좀 찍어 줘: the sister is asked, not the robot
        sig.append(f"vocative:{called[0]}")
        if called[1] == "assistant":
            sig.append(f"assistant_vocative:{called[0]}")
    elif called is not None:
        sig.append(f"robot_vocative:{called[0]}")
    promise = next((k for k in ms if k in p.promissive), None)
    if promise is not None:
        out.agent = "user"
        sig.append(f"promissive:{promise[0]}")
    elif out.agent == "user" and any(k in p.benefactive and k[1] == "VX" for k in matrix):
        out.agent = "robot"  # 나 잘 거니까 ... 해 줘: the speaker is who it is for, not who acts
        sig.append("benefactive_request")
    # mood
    able = _follows(matrix, p.able_mod, p.able_noun, within=1)
    able = able is not None and any(k in p.able_verb for k in matrix[able + 1: able + 3])
    # 말려도 돼 / 넘을 수 있어 heard without "?": said to the robot, an affirmative ability, permission or necessity
    # clause in an ending only intonation marks is asked (a past or somebody else's is told)
    intoned = (question or (final in p.intonation_end and out.polarity == "affirmative" and not out.past
                            and out.agent == "robot" and not benefactive))
    able = able or (question and any(k in p.able_pred for k in matrix))
    permits = _follows(matrix, p.permit_end, p.permit_verb, within=6) is not None
    needs = _follows(matrix, p.need_end, p.need_verb, within=1) is not None
    wish = (any(k in p.wish_aux or k in p.wish_verb for k in matrix)
            or _follows(matrix, p.wish_cond, p.wish_good, within=2) is not None)
    how_phrase = any(_asks_how(matrix, seq, p.how_state) for seq in p.how_phrases)
    asked = [k for i, k in enumerate(matrix) if not (i + 1 < len(matrix) and matrix[i + 1] in p.how_state)]
    how = how_phrase or any(k in p.how_words for k in asked)
    explains = how_phrase or any(k in p.explain_words for k in asked)
    tells = any(k in p.telling for k in matrix)
    state_caps = any(h.kind == "state_query" for h in c.capabilities)
    base = len(ms) - len(matrix)
    manner = {i for i in range(len(matrix) - 1) if matrix[i][1].startswith("VA") and matrix[i + 1] in p.manner_end}
    manner |= {i for i in range(len(matrix)) if inside[base + i]}
    pred_at = next((i for i, k in reversed(list(enumerate(matrix)))
                    if k[1] in VERB_TAGS and k not in p.benefactive and i not in manner), None)
    last_pred = matrix[pred_at] if pred_at is not None else None
    # 행복하세요 / 건강하세요: an adjective asked for is a wish; 청정하 (청정/NNG 하/XSA) is the registry's verb
    adjective = last_pred is not None and (last_pred[1] in ("VA", "VA-I", "VA-R") or (
        last_pred[1] == "XSA" and pred_at > 0 and not inside[base + pred_at - 1]))
    words = [k for k in ms if not k[1].startswith(("J", "E", "S", "X"))]
    if c.role in ("guard", "temporal"):
        mood = "condition"
    elif not c.capabilities and any(k in p.stop_words for k in ms) and all(
            k in p.stop_words or k in p.stop_companions for k in words):
        mood = "stop"  # 멈춰, 그만, 다 꺼: stop whatever is running
        sig.append("voice_stop")
    elif not c.has_predicate and words and all(k[1] == "IC" for k in words) and (
            not c.filler_words or any(k in p.social_ic for k in words)):
        if any(k in p.social_ic for k in words):
            mood = "exclamation"  # 헐 대박, 와: interjections are talk, not a broken request
            sig.append("interjections")
        else:
            mood = "fragment"  # 흐음, 휴우, 쯧쯧: a vocalization says nothing to anybody
            sig.append("vocalization")
    elif not c.has_predicate:
        mood = "state_question" if question and state_caps else "fragment"
    elif tags[-1] in VERB_TAGS and _closed_syllable(ms[-1][0]):
        mood = "fragment"  # 사진 찍 / 화면 밝: a stem ending in a consonant cannot end a Korean sentence; it was cut off
        out.cut_off = True
        sig.append(f"cut_off_stem:{ms[-1][0]}")
    elif (wish or final in p.declare_end or adjective) and any(k in p.curiosity for k in matrix):
        mood = "question"  # 오늘 날씨 알고 싶어 / 궁금하다: asks to know
        sig.append("curiosity")
    elif wish or (final in p.wish_cond and c.connective in ("", ".", "!") and c.role == "action"):
        mood = "wish"  # 올여름엔 덜 더웠으면: a bare -었으면 at the end is a wish
        sig.append("wish")
    elif able and not benefactive:
        mood = "knowledge_question" if intoned or how else "statement"
        sig.append("ability" if question or how or not intoned else "ability_intoned")
    elif permits and intoned:
        mood = "knowledge_question"
        sig.append("permission" if question else "permission_intoned")
    elif intoned and not question and _asks_by_shape(matrix, last_pred, pred_at, ms, p, bool(c.unsupported)):
        mood = "knowledge_question"  # 차일드 락 있어요 / 멈추는데 고장이야 / 올라타는데 괜찮아: asked, heard without "?"
        sig.append("asked_by_shape")
    elif needs and intoned:
        mood = "knowledge_question"
        sig.append("necessity")
    elif tells and (how or asks_word) and not state_caps:
        mood = "knowledge_question"  # 음소거 뭔지 설명해 줘: asks how something works
        sig.append("asks_to_explain")
    elif question:
        if benefactive or final in p.asking_request_end:
            mood = "request"
        elif final in p.suggest_end:
            mood = "suggestion"
        elif state_caps and not explains:
            mood = "state_question"
        elif how or any(k in p.exists for k in matrix):
            mood = "knowledge_question"
        else:
            mood = "question"
        sig.append("question")
    elif final in p.suggest_end:
        mood = "suggestion"
    elif out.displayed or (last_pred in p.display and (out.final or final in p.declare_end)):
        mood = "statement"  # 에러 코드 E6 떴어요: something shows on the device (a report about it)
        if not out.displayed:
            out.displayed = True
            sig.append(f"displayed:{last_pred[0]}")
    elif out.polarity == "negated" and negator is not None:
        mood = "statement"  # 바퀴가 안 굴러가: 안/못 never makes a command (a prohibition is -지 마)
        sig.append("negated_statement" if not permits else "not_needed")  # 안 갈아도 돼: nothing is wrong
    elif final in p.promissive or (out.past and not benefactive) or progressive:
        mood = "statement"
        sig.append("progressive" if progressive else "past_statement" if out.past else "promise")
    elif final in p.verb_imperative and last_pred is not None and last_pred[1] in ("VV", "VX") and not adjective:
        mood = "request"  # 청소기 돌려라 (먼지 천지다): -어라 on an action verb commands; on 춥 it exclaims
        sig.append("verb_imperative")
    elif final in p.exclaim_end or (tags[:1] and tags[0] in p.interjection_tags and final in p.declare_end):
        mood = "exclamation"
    elif final in p.declare_end and not benefactive:
        mood = "statement"
    elif adjective and not benefactive and not (final and final[1] in ("ETM", "ETN")):  # 높은 장게: a noun phrase
        mood = "exclamation" if tags[:1] and tags[0] in p.interjection_tags else "statement"
        sig.append(f"adjective:{last_pred[0]}")
    elif thing_subject and out.final and not benefactive:
        mood = "statement"
        sig.append(f"subject:{thing_subject}")
    elif benefactive or final in p.request_end:
        mood = "request"
    elif ef:
        mood = "statement"
    elif tags[-1] in VERB_TAGS:
        mood = "request"  # a bare stem at the end ("안방 가" heard without its ending)
    elif final is not None and final[1] == "EC" and pred_at is not None and c.connective not in ENDS_SENTENCE:
        mood = "request"  # 집 전체 청정 돌리고 (끝나면 복귀): a verb joined on; its sentence's act decides
        sig.append("joined_predicate")
    else:
        mood = "fragment"
    if final:
        sig.append(f"final:{final[0]}/{final[1]}")
    out.mood = mood
    return out


def _asks_by_shape(matrix: list[tuple[str, str]], last_pred: tuple[str, str] | None, pred_at: int | None,
                   ms: list[tuple[str, str]], p: _Patterns, other_thing: bool) -> bool:
    """A statement shape that asks (see IntonedQuestions): a feature noun with an existence verb, a diagnosis
    noun with the copula, or a verdict predicate after a premise. A feature is the robot's by asking; a
    diagnosis or a verdict next to another appliance (세탁기 고장이야) is a remark about that one."""
    if last_pred is None or pred_at is None:
        return False
    lemma = matrix[pred_at - 1] if last_pred[1] in ("XSA", "XSV") and pred_at > 0 else last_pred
    if last_pred in p.exists and any(k in p.feature_nouns for k in matrix[:pred_at]):
        return True
    if other_thing:
        return False
    if last_pred[1] == "VCP" and pred_at > 0 and matrix[pred_at - 1] in p.diagnosis_nouns:
        return True
    # 올라타는데 is read 는/ETM 데/NNB as often as 는데/EC
    premise = any(k in p.premise or (k == ("데", "NNB") and i and ms[i - 1][1] == "ETM") for i, k in enumerate(ms))
    return lemma in p.verdict_preds and premise


def _cut_off_word(c: ClauseAnalysis, m) -> str | None:
    """The turn's last word when it is one closed syllable that only begins a registry word (공 of 공기, 청 of
    청정, 습 of 습도): a noun-like piece the recognizer heard before the speaker stopped."""
    words = c.text.split()
    if not words or not c.morphemes:
        return None
    last = compact(words[-1]).strip("?.!,~")
    # an open syllable may be a verb that lost only its ending in writing (가, 와, 줘): only a closed one is cut
    if (len(last) != 1 or not _closed_syllable(last) or last not in m.cut_prefixes or last in m.filler_words or last in m.fillers
            or last in m.ignorable_words or last in m.acknowledgements):
        return None
    return last if c.morphemes[-1].tag in ("NNG", "NNP", "NR", "XSN", "UN") else None


def _closed_syllable(form: str) -> bool:
    """Whether the last Hangul syllable of `form` has a final consonant (찍, 밝, 맞; not 가, 켜)."""
    last = form[-1:] if form else ""
    return "가" <= last <= "힣" and (ord(last) - ord("가")) % 28 != 0


def _governing_predicate(hit, c: ClauseAnalysis, p: _Patterns) -> tuple[int, tuple[str, str]] | None:
    """The predicate a capability word belongs to: Korean is head-final, so the first predicate after it
    (a verbal noun + 하 counts as its noun). Predicates before it belong to other phrases (냄새 나는데 청정해 줘)."""
    morphs, offsets = c.morphemes, c.compact_offsets
    end = hit.position + len(hit.surface)
    for i, mo in enumerate(morphs):
        if offsets[i] < end or c.in_registry_word[i] or c.after_registry_word[i]:
            continue  # before the word, or part of a registry word (청/NNG 정하/VV for 청정하, 크/VA ᆫ/ETM 방 for 큰방)
        nxt = morphs[i + 1] if i + 1 < len(morphs) else None
        if mo.tag.startswith("VA") and nxt is not None and _key(nxt) in p.manner_end:
            continue  # 세게, 빵빵하게: manner, not the predicate
        if mo.tag.startswith("VX"):
            continue  # auxiliaries (켜져 있어, 해 줘) carry no frame of their own
        if mo.tag in VERB_TAGS or mo.tag == "XR":
            return i, (mo.form, mo.tag.split("-")[0])
        if mo.tag == "NNG" and nxt is not None and nxt.tag in ("XSV", "XSA"):
            return i, (mo.form, mo.tag)  # a verbal noun: 확인하다, 측정하다
    return None


def _slip_of(word: str, capability_id: str, registry: Registry) -> bool:
    """Whether a word is a recognition slip of one of this capability's aliases (배더리 for 배터리)."""
    m = matchers_for(registry)
    found = m.fuzzy_alias(word, [])
    return found is not None and any(e.target == capability_id for e in m.anchor_entries[found[2]])


def _frame_mismatch(hit, c: ClauseAnalysis, registry: Registry) -> str | None:
    """Why the predicate the capability word belongs to does not realize the capability (None when it does)."""
    frames = registry.frames
    p = _patterns(registry)
    governing = _governing_predicate(hit, c, p)
    at, predicate = governing if governing is not None else (-1, None)
    premise = p.premise
    after = [i for i, o in enumerate(c.compact_offsets) if o >= hit.position + len(hit.surface)]
    window = c.morphemes[after[0] if after else len(c.morphemes): (at if at >= 0 else after[0] if after else 0) + 4]
    if any((mo.form, mo.tag) in premise for mo in window):
        return "premise"  # 공기 괜찮으니까 ...: the word's predicate states a reason, nothing is asked of it
    light = frames.light_set if hit.kind != "state_query" else frozenset()
    if predicate is not None and predicate not in light:
        fits = frames.fits(hit.capability_id, hit.kind, registry.capability_by_id[hit.capability_id].schedulable)
        if predicate not in fits:
            return "predicate:" + predicate[0]
    frame = frames.capabilities.get(hit.capability_id)
    morphs = c.morphemes
    if hit.kind == "state_query":
        attributes = registry.product.attribute_words
        asked = next((mo.form for mo in morphs[after[0]:] if mo.form.lower() in attributes), None) if after else None
        if asked is not None:
            return "attribute:" + asked  # 배터리 용량 몇 mAh야: a property of the product, not its state
    if frame is not None and frame.subjects:
        start = next((i for i, o in enumerate(c.compact_offsets) if o >= hit.position), len(morphs))
        j = start - 1
        while j >= 0 and morphs[j].tag in ("MAG", "JX", "JKS", "JKG", "MM", "XSN"):
            j -= 1
        if j >= 0 and morphs[j].tag in ("NNG", "NNP", "NP") and morphs[j].form not in frame.subjects \
                and not _slip_of(morphs[j].form, hit.capability_id, registry):
            return "subject:" + morphs[j].form  # 약국 어디야: the question is about the pharmacy
    if hit.via == "lemma" and frame is not None and frame.objects:
        at = next((i for i, mo in enumerate(morphs) if mo.form == hit.surface), None)
        if at is None:
            return None
        j = at - 1
        while j >= 0 and morphs[j].tag in ("MAG", "JX", "JKO", "MM"):
            j -= 1
        if j >= 0 and morphs[j].tag in ("NNG", "NNP", "NP", "SN", "NR") and morphs[j].form not in frame.objects:
            return "object:" + morphs[j].form
        if at + 1 < len(morphs) and morphs[at + 1].tag in ("ETM", "ETN"):
            return "modifier"  # 찍은 사진: the verb describes a noun, nobody asks for it
    return None


def _owned_by_other_thing(c: ClauseAnalysis, lex: SpeechActLexicon) -> str | None:
    """The kind of thing in the home whose name stands right before one of the clause's capability words."""
    return thing_before(c, lex, [h.position for h in c.capabilities]) if c.capabilities else None


def _person_before_a_setting(c: ClauseAnalysis, r: _Reading, p: _Patterns) -> None:
    """누나 볼륨 좀 줄여: a bare person noun right before one of the robot's setting words either calls that
    person or names their device; in neither reading is the robot asked."""
    if r.agent != "robot" or not c.morphemes or any(s.startswith("robot_vocative") for s in r.signals):
        return
    first = c.morphemes[0]
    if first.form not in p.persons or not first.tag.startswith("NN") or len(c.morphemes) < 2:
        return
    if any(h.kind == "settings" and h.position == c.compact_offsets[1] for h in c.capabilities):
        r.agent = "third_person"
        r.signals.append(f"person_before_setting:{first.form}")


def _goal_beyond_the_robot(c: ClauseAnalysis, r: _Reading, p: _Patterns) -> str | None:
    """The lemma of a requested act the robot cannot do (no capability word, not a neutral goal), else None."""
    if r.mood not in ACTING_MOODS or c.capabilities:
        return None
    found = _final_predicate(c, p)
    if found is None or found[1] in p.neutral_goals:
        return None
    if c.in_registry_word[found[0]] and not c.unsupported:
        return None  # 청정해: the predicate is the robot's own registry word
    return found[1][0]  # 가져다줘: even when it is an unsupported category's word


def _mark_messages(clauses: list[ClauseAnalysis], per: list[_Reading]) -> None:
    """카톡 보내 줘 지금 간다고: a turn that ends in a bare quote right after a request says what the request
    is to pass on. The quote stays unlicensed; it is the request's argument, not somebody's reported talk."""
    order = sorted(range(len(clauses)), key=lambda i: clauses[i].start)
    if len(order) < 2:
        return
    last, before = per[order[-1]], per[order[-2]]
    bare_quote = last.reported and any(s.startswith("quotative:") for s in last.signals) and last.mood == "fragment"
    if bare_quote and before.mood in ACTING_MOODS and before.agent == "robot" and before.polarity == "affirmative" \
            and not before.reported:
        last.signals.append("message_of_request")


_REMARK_TAGS = frozenset({"VCP", "VCN", "VA", "VA-I", "VA-R", "XSA"})
"""Predicates that only state something (시간이다, 아니다, 춥다, 탁하다), read on the predicate itself: the lemma
`_final_predicate` gives for 탁하 is its root."""


def _spread_over_sentences(clauses: list[ClauseAnalysis], per: list[_Reading], p: _Patterns) -> None:
    """A clause joined to what follows by a connective takes the mood, time and voice of its sentence's last
    clause; a person named as subject stays the agent of the clauses after it."""
    order = sorted(range(len(clauses)), key=lambda i: clauses[i].start)
    governing: _Reading | None = None
    goal: str | None = None  # the governing act when the robot cannot do it
    governing_has_words = False
    governing_remark = False  # the governing clause states something (a copula or an adjective): 시간이다, 춥다
    for i in reversed(order):
        here, c = per[i], clauses[i]
        if (here.final or c.connective in (".", "?", "!") or governing is None) and c.role == "action":
            governing, goal = here, _goal_beyond_the_robot(c, here, p)
            governing_has_words = bool(c.capabilities or c.rooms)
            last = _final_predicate(c, p)
            governing_remark = last is not None and c.morphemes[last[0]].tag in _REMARK_TAGS
            continue
        if governing is None or c.role != "action":
            continue
        by_means = c.connective in p.means and not (
            len(c.morphemes) >= 2 and _key(c.morphemes[-2]) in p.sequence_aux)  # 하고 나서: after, not by means of
        if goal is not None and by_means:
            here.means_of = goal
            here.signals.append(f"means_of:{goal}")
        elif not by_means:
            goal = None  # -고 starts an act of its own
        if governing.cut_off:
            here.mood, here.cut_off = "fragment", True  # 거실로 가서 공: the sentence it leads into was cut off
            here.signals.append("cut_off:from_sentence")
        elif (here.mood == "request" and governing.mood == "statement" and c.connective in p.bare_connectives
              and governing_remark and not governing.past and not governing.reported):
            here.signals.append("request_before_remark")  # 티비 좀 켜 봐 (9시 뉴스 할 시간이다): a reason, not a sequel
        elif here.mood in ("fragment", "request") and governing.mood != "fragment":
            here.mood = governing.mood
        elif "joined_predicate" in here.signals and not governing_has_words:
            here.mood = "fragment"  # joined on to a fragment that asks for nothing: no command chain
        for flag in ("reported", "past"):
            if getattr(governing, flag) and not getattr(here, flag):
                setattr(here, flag, True)
                here.signals.append(f"{flag}:from_sentence")
        if governing.polarity == "prohibited" and c.connective in p.spreads:
            here.polarity = "prohibited"
            here.signals.append("prohibited:from_sentence")
    for prev_i, i in zip(order, order[1:]):
        prev, here = per[prev_i], per[i]
        called = any(s.startswith("vocative:") for s in prev.signals)  # a call addresses the rest of the turn
        if prev.agent != "robot" and here.agent == "robot" and (called or (clauses[prev_i].role == "action" and not prev.final)) \
                and not any(s.startswith(("robot_subject", "robot_vocative", "benefactive")) for s in here.signals):
            here.agent = prev.agent
            here.signals.append("agent:from_previous_clause")
            if called:
                here.signals.append("vocative:from_previous_clause")


def _speech_act(c: ClauseAnalysis, r: _Reading, words_max: int) -> SpeechAct:
    """The frozen contract of a reading, with the two licences it grants."""
    clean = r.polarity == "affirmative" and r.agent == "robot" and not r.reported and not r.target_owner and not r.means_of
    short_fragment = r.mood == "fragment" and len(c.text.split()) <= words_max and not r.cut_off
    return SpeechAct(
        clause=c.index, mood=r.mood, polarity=r.polarity, agent=r.agent, reported=r.reported, past=r.past,
        target_owner=r.target_owner, quoted_until=r.quoted_until, displayed=r.displayed, means_of=r.means_of,
        signals=r.signals,
        licenses_action=clean and not r.past and (r.mood in ACTING_MOODS or short_fragment),
        licenses_state_query=(r.agent == "robot" and not r.reported and not r.target_owner
                              and (r.polarity == "affirmative" or (r.polarity == "negated" and r.mood in ("state_question", "question")))
                              and (r.mood in _ASKING or short_fragment)
                              and not (r.past and r.mood not in ("state_question", "question"))),
    )


def speech_acts(clause_candidates: list[ClauseAnalysis], registry: Registry) -> list[SpeechAct]:
    """Mood, polarity, agent, reported speech, time and target of every clause, with their signals."""
    p = _patterns(registry)
    per = []
    whole = "".join(c.text for c in clause_candidates)
    paired = tuple(mark for mark in p.quote_marks if whole.count(mark) >= 2)
    for c in clause_candidates:
        reading = _clause_act(c, p, paired)
        reading.target_owner = _owned_by_other_thing(c, registry.speech_acts)
        _person_before_a_setting(c, reading, p)
        if reading.target_owner:
            reading.signals.append(f"target:{reading.target_owner}")
        per.append(reading)
    if clause_candidates:
        last = max(range(len(clause_candidates)), key=lambda i: clause_candidates[i].start)
        cut = _cut_off_word(clause_candidates[last], matchers_for(registry))
        if cut is not None:
            per[last].mood, per[last].cut_off = "fragment", True
            per[last].signals.append(f"cut_off_word:{cut}")
    _spread_over_sentences(clause_candidates, per, p)
    _mark_messages(clause_candidates, per)
    words_max = registry.speech_acts.fragment_max_words
    return [_speech_act(c, r, words_max) for c, r in zip(clause_candidates, per)]


_ALL_OPERATION_CUES = ("on", "off", "increase", "decrease", "check")


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


def _licensed(hit, c: ClauseAnalysis, act: SpeechAct, requested: bool, registry: Registry) -> str | None:
    """None when the clause licenses this hit, else why not."""
    if c.role in ("guard", "temporal"):
        return None if requested else "condition_without_request"  # a guard's subject is read, never acted on
    if hit.position < act.quoted_until:
        return "quoted"
    if act.target_owner:
        return f"target:{act.target_owner}"
    if (hit.capability_id in matchers_for(registry).scoped_capabilities and c.cues.get("outside")
            and not c.cues.get("indoor")):
        return "target:outdoors"  # 바깥 공기 괜찮나?: the robot measures only where it is
    allowed = act.licenses_state_query if hit.kind == "state_query" else act.licenses_action
    if not allowed:
        for reason, bad in (("prohibited", act.polarity == "prohibited"), ("negated", act.polarity == "negated" and hit.kind != "state_query"),
                            ("reported", act.reported), ("past", act.past), (act.agent, act.agent != "robot"),
                            ("means_of:" + (act.means_of or ""), act.means_of is not None)):
            if bad:
                return reason
        return act.mood
    asking = act.asks_for_an_act or (hit.kind == "state_query" and act.mood == "state_question")
    if hit.via == "fuzzy" and (not asking or not (_frame_element(c, hit, repaired=True) or _own_predicate(hit, c, registry))):
        return "slip_without_frame"  # a repaired word needs the rest of its frame around it
    if act.mood == "fragment" and hit.kind == "state_query" and not _frame_element(c, hit):
        head = _head_noun_after(hit, c)
        if head is not None:
            return "modifies:" + head  # 미세먼지 예방법: the capability word only qualifies another noun
    framed_lemma = hit.via == "lemma" and bool(c.rooms)  # 안방 가 (가 heard as a noun): the verb and its room
    if act.mood == "fragment" and hit.kind != "state_query" and not framed_lemma and (
            hit.via not in ("alias", "pattern") or not _frame_element(c, hit)):
        return "fragment_without_frame"
    return _frame_mismatch(hit, c, registry)


def _own_predicate(hit, c: ClauseAnalysis, registry: Registry) -> bool:
    """The word's governing predicate is one its capability's frame names, not a light verb (스테이숀으로
    돌아가: 돌아가 completes the frame of return_to_station; 해, 시작 complete nobody's)."""
    frame = registry.frames.capabilities.get(hit.capability_id)
    governing = _governing_predicate(hit, c, _patterns(registry))
    return (frame is not None and governing is not None and governing[1] not in registry.frames.light_set
            and governing[1] in frame.predicate_set)


def _unsupported_frame(c: ClauseAnalysis, registry: Registry) -> str | None:
    """The UNS category whose frame the clause's governing predicate (and its object) realizes, if any."""
    p = _patterns(registry)
    found = _final_predicate(c, p)
    if found is None or c.in_registry_word[found[0]] or any(_key(mo) in p.premise for mo in c.morphemes[found[0] + 1:]):
        return None  # 들어 올렸더니 ...: a premise asks for nothing
    frames, product = registry.frames.unsupported, registry.product.words
    nouns = {mo.form for i, mo in enumerate(c.morphemes) if mo.tag in ("NNG", "NNP") and not c.in_registry_word[i]
             and (mo.form, mo.tag) not in p.robot and mo.form.lower() not in product  # 모드 바꿔줘 asks which mode
             and mo.form.lower() not in frames.own_noun_set
             and not (i > 0 and c.morphemes[i - 1].tag == "MM")}  # 그 걸로 / 그 거: a reference back, no appliance
    recipient = {(mo.form, mo.tag) for i, mo in enumerate(c.morphemes)
                 if i and c.morphemes[i - 1].tag in ("NNG", "NNP", "NP") and mo.tag.startswith("J")}
    light = found[1] in registry.frames.light_set  # 엄마한테 잘해: a light verb to somebody passes on no message
    for category, predicates, objects, to_whom in frames.compiled:
        to_somebody = not light and bool(recipient & to_whom)
        if found[1] in predicates and (not objects or ("*" in objects and nouns) or nouns & objects or to_somebody):
            return category
    return None


def clause_analyses(clause_candidates: list[ClauseAnalysis], speech_acts: list[SpeechAct], registry: Registry) -> list[ClauseAnalysis]:
    """The clauses with only the capability hits their speech act licenses; the rest kept as mentions."""
    category = registry.speech_acts.other_targets.category
    requested = any(a.licenses_action or a.licenses_state_query for c, a in zip(clause_candidates, speech_acts) if c.role == "action")
    out = []
    for c, act in zip(clause_candidates, speech_acts):
        kept, mentions = [], []
        for hit in c.capabilities:
            reason = _licensed(hit, c, act, requested, registry)
            if reason is None:
                kept.append(hit)
            else:
                mentions.append(f"{hit.capability_id}:{reason}")
        unsupported = list(c.unsupported)
        if act.target_owner and category not in unsupported:
            unsupported.append(category)
        # 세탁기 돌려줘, 물 좀 갖다 줘, 시리야 음악 틀어 줘: a request the robot cannot do, by its frame
        to_assistant = any(s.startswith("assistant_vocative:") for s in act.signals)
        if not kept and not unsupported and not c.unknown_modes and c.role == "action" and act.asks_for_an_act:
            framed = _unsupported_frame(c, registry)
            if framed is not None:
                unsupported.append(framed)
        asks = act.asks_for_an_act or act.mood == "fragment" or (act.mood == "question" and act.target_owner)
        if unsupported and c.role == "action" and not (
                asks and act.polarity == "affirmative" and (act.agent == "robot" or to_assistant)
                and not act.reported and not act.past):
            mentions += [f"{cat}:{act.polarity if act.polarity != 'affirmative' else act.mood}" for cat in unsupported]
            unsupported = []
        # 필터는 아직 안 갈아도 돼 / 요즘 다이어트 모드야: a manual topic or an unknown mode in talk asks nothing
        talk = c.role == "action" and not act.displayed and (
            act.mood in ("statement", "exclamation", "wish") or act.reported
            or (act.past and act.mood not in ("question", "knowledge_question")))
        topics, modes = (c.qna_topics, c.unknown_modes) if not talk else ([], [])
        if talk:
            mentions += [f"{t}:{act.mood}" for t in c.qna_topics] + [f"mode:{w}:{act.mood}" for w in c.unknown_modes]
        dropped = {m.split(":")[0] for m in mentions}
        anchors = [a for a in c.anchors if not (a.kind in ("execution", "settings", "state_query", "unsupported") and a.target in dropped)]
        cues = c.cues
        if c.role == "action" and (act.polarity != "affirmative" or act.reported or act.past or act.agent != "robot"):
            cues = {k: v for k, v in cues.items() if not k.startswith("sch_") or k == "sch_list"}
        out.append(dataclasses.replace(c, capabilities=kept, unsupported=unsupported, anchors=anchors, cues=cues,
                                       act=act, mentions=mentions, qna_topics=topics, unknown_modes=modes))
    return out


def clause_candidates(normalized_text: NormalizedText, registry: Registry) -> list[ClauseAnalysis]:
    """Clauses of the utterance with every registry anchor, room, time and cue they hold (before licensing)."""
    return analyse(normalized_text, registry, matchers_for(registry))
