"""The speech-act lexicon compiled into (form, tag) sets, and the few morpheme readings that every reader of a
clause shares: its last predicate, the predicate a word belongs to, whether a syllable is closed.

Every word list is data in `registry/speech_acts.json`; this module only turns it into sets once per lexicon.
"""

from __future__ import annotations

from functools import lru_cache

from registry.contracts import Morpheme
from registry.loader import Registry
from registry.speech_contracts import SpeechActLexicon
from stages._clauses import VERB_TAGS, ClauseAnalysis


def _pairs(values: list[str]) -> frozenset[tuple[str, str]]:
    return frozenset(tuple(v.split("/")) for v in values)  # type: ignore[misc]


class Patterns:
    """The lexicon as sets of (form, tag), built once per lexicon object."""

    def _vocatives(self, voc) -> None:
        """Who a turn calls: vocative particles and words, group calls, answers, wake words, other assistants."""
        self.voc_particles, self.voc_name_particles = _pairs(voc.particles), _pairs(voc.name_particles)
        self.voc_forms = frozenset(form for form, _ in self.voc_particles)  # 아, 야: however Kiwi tags them
        self.voc_words, self.person_suffixes = _pairs(voc.words), _pairs(voc.person_suffixes)
        # the robot's own names as nouns (로봇, 청정기; not 너): called whole (로봇아) or the subject of a clause (로봇 너는)
        self.robot_nouns = frozenset(form for form, tag in self.robot if tag.startswith("NN"))
        self.voc_bare_followers, self.bare_not_calls = tuple(voc.bare_call_followers), frozenset(voc.bare_not_calls)
        self.voc_question_followers = tuple(voc.question_call_followers)
        self.assistants, self.wake_words = tuple(a.lower() for a in voc.assistants), frozenset(w.lower() for w in voc.wake_words)
        self.mover_verbs, self.not_callers = _pairs(voc.mover_verbs), frozenset(voc.not_callers)
        self.voc_groups, self.voc_answers = _sequences(voc.groups), _sequences(voc.answers)
        self.fused_endings = dict(voc.fused_endings)
        self.voc_copula_read = tuple(tuple(v.split("/")) for v in voc.copula_read)

    def _voice_stop(self, stop) -> None:
        """멈춰 / 그만 / 다 꺼: the stop words (which also ask a capability to stop what it does), the off words (a voice
        stop said alone, no stop of a capability) and the words that may stand beside them."""
        self.cessation, self.stop_companions = _pairs(stop.words), _pairs(stop.companions)
        self.stop_words = self.cessation | _pairs(stop.off_words)

    def _told_or_quoted(self, lex: SpeechActLexicon) -> None:
        """What makes words told rather than asked: finding out, a command said as what one would say (그러면 ...?)
        unless what follows is supposed (-겠-), what is done at times (-기도 하), an exclamation (오 대박)."""
        self.finding_out, self.habitual = _pairs(lex.finding_out_verbs), _sequences(lex.habitual_runs)
        self.quoting_conj, self.supposed = _pairs(lex.quoting_conjunctions), _pairs(lex.supposition_markers)
        self.exclamatory, self.how_to_conditionals = _pairs(lex.exclamatory_words), _pairs(lex.how_to_conditionals)
        self.asking_verbs, self.leave_honorific = _pairs(lex.asking_verbs), _pairs(lex.asking_leave.honorifics)
        self.usual_subjects = _pairs(lex.intoned_questions.usual_subjects) if lex.intoned_questions else frozenset()
        self.bare_quotatives, self.polite_tails = _pairs(lex.bare_quotatives), _pairs(lex.polite_tails)

    def __init__(self, lex: SpeechActLexicon):
        pairs = _pairs
        self.prohibit_conn, self.prohibit_aux = pairs(lex.prohibitive.connectives), pairs(lex.prohibitive.auxiliaries)
        self.exclude_verb, self.exclude_end = pairs(lex.exclusion.verbs), pairs(lex.exclusion.endings)
        self.need_nouns, self.need_verbs = pairs(lex.need_denial.nouns), pairs(lex.need_denial.verbs)
        self.prog_end, self.prog_aux = pairs(lex.progressive.endings), pairs(lex.progressive.auxiliaries)
        self.negators, self.premise, self.joining = pairs(lex.negators), pairs(lex.premise_endings), pairs(lex.joining_endings)
        self._voice_stop(lex.voice_stop)
        self.permit_end, self.permit_verb = pairs(lex.permission.endings), pairs(lex.permission.verbs)
        self.need_end, self.need_verb = pairs(lex.necessity.endings), pairs(lex.necessity.verbs)
        self.supposing = self.need_end | {e for e in pairs(lex.permission.endings) if e[1] == "EC"}  # -어야, -어도
        self.nominalizers = pairs(lex.nominalizers)
        self.quotatives, self.reporting, self.display = pairs(lex.quotatives), pairs(lex.reporting_verbs), pairs(lex.display_verbs)
        self.means = frozenset(k[0] for k in pairs(lex.means.connectives))
        self.neutral_goals, self.sequence_aux = pairs(lex.means.neutral_goals), pairs(lex.means.sequence_auxiliaries)
        self.past, self.promissive = pairs(lex.past_markers), pairs(lex.promissive_endings)
        self.past_perfect, self.usual = pairs(lex.past_perfect_markers), pairs(lex.usual_adverbs)
        self.retrospective = pairs(lex.retrospective_endings)
        self.speaker, self.robot = pairs(lex.speaker_pronouns), pairs(lex.robot_pronouns)
        self.subject_particles, self.described_particles = pairs(lex.subject_particles), pairs(lex.described_subject_particles)
        self.persons, self.possessives = frozenset(lex.person_nouns), frozenset(lex.other_targets.possessive_particles)
        self._vocatives(lex.vocatives)
        self.thing_of = lex.thing_of  # another thing in the home called by name is addressed like an assistant
        self.wish_aux, self.wish_verb = pairs(lex.wish.auxiliaries), pairs(lex.wish.verbs)
        self.wish_good, self.wish_cond = pairs(lex.wish.after_conditional), pairs(lex.wish.conditional_endings)
        self.curiosity, self.not_knowing, self.knowing_nothing, self.formal_request_end = (pairs(w) for w in (
            lex.wish.curiosity, lex.wish.not_knowing, lex.wish.knowing_nothing, lex.wish.formal_request_endings))
        self.leave_neg, self.leave_verb = pairs(lex.asking_leave.negators), pairs(lex.asking_leave.verbs)
        self.benefactive, self.request_nouns = pairs(lex.benefactives), pairs(lex.request_nouns)
        self.request_end, self.suggest_end = pairs(lex.request_endings), pairs(lex.suggestion_endings)
        self.asking_request_end, self.manner_end = pairs(lex.asking_request_endings), pairs(lex.manner_endings)
        self.confirming, self.open_question_words = pairs(lex.confirmation_predicates), pairs(lex.open_question_words)
        self.person_acts, self.sequence_end = pairs(lex.person_acts), pairs(lex.sequence_endings)
        self.conjecture, self.service_declare = (pairs(lex.conjecture_endings), pairs(lex.conjecture_auxiliaries)), pairs(lex.service_declaratives)
        self.open_question_end, self.indirect_question = pairs(lex.open_question_endings), pairs(lex.indirect_question_endings)
        self._told_or_quoted(lex)
        sq = lex.scope_question
        self.scope_particles, self.scope_endings, self.autonomy = (pairs(sq.particles), pairs(sq.endings), _sequences(
            sq.autonomy_runs)) if sq else (frozenset(), frozenset(), ())
        self.intonation_end = pairs(lex.intonation_endings)
        iq = lex.intoned_questions
        self.feature_nouns, self.diagnosis_nouns = (pairs(iq.feature_nouns), pairs(iq.diagnosis_nouns)) if iq else (frozenset(), frozenset())
        self.verdict_preds, self.state_aspects = (pairs(iq.verdict_predicates), _sequences(iq.state_aspects)) if iq else (frozenset(), ())
        self.social_ic = pairs(lex.social_interjections)
        self.event_verbs, self.malfunction = pairs(lex.event_verbs), pairs(lex.malfunction_predicates)
        self.unbidden, self.inchoative, self.inner_events = pairs(lex.unbidden_verbs), pairs(lex.inchoative_aux), pairs(lex.inner_events)
        self.lessening, self.permit_granted = pairs(lex.lessening), pairs(lex.permission.granted)
        self.persona, self.verb_imperative = pairs(lex.persona_words), pairs(lex.verb_imperative_endings)
        self.bare_connectives = frozenset(k[0] for k in pairs(lex.bare_request_connectives))
        self.declare_end, self.exclaim_end = pairs(lex.declarative_endings), pairs(lex.exclamative_endings)
        self.question_end, self.question_words = pairs(lex.question_endings), pairs(lex.question_words)
        self.indefinite_followers, self.purpose_endings = pairs(lex.indefinite_followers), pairs(lex.purpose_endings)
        self.how_words, self.how_phrases, self.deliberate_end, self.offering = pairs(lex.how_words), _sequences(lex.how_phrases), pairs(lex.deliberation_endings), pairs(lex.offering_benefactives)
        self.how_state, self.plan_end, self.where_phrases = pairs(lex.how_state_verbs), _sequences(lex.plan_endings), _sequences(lex.where_phrases)
        self.recall_end, self.recall_pred = pairs(lex.recall_endings), pairs(lex.recall_predicates)
        self.criterion, self.period_counters, self.clock_counters = (_sequences(lex.criterion_phrases), pairs(lex.period_counters),
                                                                     pairs(lex.clock_counters))
        self.rhetorical_degree, self.failing_activities = _sequences(lex.rhetorical_degree), pairs(lex.failing_activities)
        self.telling, self.explain_words, self.exists = pairs(lex.telling_verbs), pairs(lex.explanation_words), pairs(lex.existence_verbs)
        self.doing, self.doing_objects = pairs(lex.doing_verbs), pairs(lex.doing_object_particles)
        ab = lex.ability
        self.able_mod, self.able_noun, self.able_verb, self.able_pred, self.unable = (
            pairs(ab.modifier_endings), pairs(ab.nouns), pairs(ab.verbs), pairs(ab.predicates), pairs(ab.inability_negators))
        self.interjection_tags, self.quote_marks = frozenset(lex.exclamation_interjections), tuple(lex.quote_marks)
        pp = lex.person_purposes
        self.purpose_conn, self.person_purpose_verbs = (pairs(pp.connectives), pairs(pp.verbs)) if pp else (frozenset(), frozenset())
        self.purpose_motions, self.purpose_motion_capability = (frozenset(pp.motions), pp.motion_capability) if pp else (frozenset(), "")
        self.answer_shapes = tuple((_sequences(shape.cues), tuple(shape.marks)) for shape in lex.answer_shapes)
        self.spreads, self.reason_spreads = (frozenset(k[0] for k in pairs(lex.prohibition_spreads_over)),
                                             frozenset(k[0] for k in pairs(lex.reason_spreads_over)))


def _sequences(phrases: list[list[str]]) -> tuple[tuple[tuple[str, ...], ...], ...]:
    """Morpheme sequences ("lemma/TAG", ...) as tuples of (lemma, tag) pairs."""
    return tuple(tuple(tuple(v.split("/")) for v in seq) for seq in phrases)


_COMPILED: dict[str, Patterns] = {}


@lru_cache(maxsize=8)
def plain_endings(registry: Registry) -> frozenset[str]:
    """The plain endings that close a request on a benefactive before a comma or a full stop (lexicon polite_finals
    plain_before_a_mark: 켜 줘, 알았지?); Kiwi tags them as connectives there."""
    return frozenset(registry.lexicon.get("polite_finals", {}).get("plain_before_a_mark", []))


@lru_cache(maxsize=8)
def not_heard_runs(registry: Registry) -> frozenset[tuple[tuple[str, ...], ...]]:
    """The morpheme runs that, said alone, ask to hear again (lexicon conversation not_heard: 뭐라고?)."""
    return frozenset(_sequences(registry.lexicon.get("conversation", {}).get("not_heard", [])))


def patterns(registry: Registry) -> Patterns:
    """Compiled patterns, keyed by the lexicon's content (an edited lexicon compiles anew)."""
    lex = registry.speech_acts
    found = _COMPILED.get(lex.content_key)
    if found is None:
        found = _COMPILED[lex.content_key] = Patterns(lex)
    return found


def key(mo: Morpheme) -> tuple[str, str]:
    return (mo.form, mo.tag)


def confirms_at(ms: list[tuple[str, str]], i: int, p: "Patterns") -> bool:
    """Whether morpheme i is 맞 confirming a modified nominalizer (돌아가고 있는 거 맞아?, 켜진 게 맞지?)."""
    if ms[i] not in p.confirming:
        return False
    j = i - 1
    while j > 0 and ms[j][1] in ("JKS", "JX"):
        j -= 1
    return j > 0 and ms[j] in p.nominalizers and ms[j - 1][1] == "ETM"


def confirms(matrix: list[tuple[str, str]], p: "Patterns") -> bool:
    """The clause ends on 맞 confirming a modified nominalizer (카메라 꺼지는 거 맞아): asked, whatever its mark."""
    at = max((i for i, k in enumerate(matrix) if k[1].startswith(("VV", "VA"))), default=None)
    return at is not None and confirms_at(matrix, at, p)


def wish_good_at(ms: list[tuple[str, str]], i: int, p: "Patterns") -> bool:
    """Whether morpheme i is a wish's 좋다 after a conditional ending (가 주면 좋겠어): it carries no frame; the act
    wished for does."""
    return i > 0 and ms[i - 1] in p.wish_cond and ms[i] in p.wish_good


def leave_negators(ms: list[tuple[str, str]], p: "Patterns") -> list[int]:
    """Indexes of the negators of 해 주면 안 돼 (a benefactive, a conditional ending, a negator, 되): asking leave
    for an act done for me, which is a request, not a negated statement."""
    found = []
    for i in range(len(ms) - 3):
        j = i + 2 if ms[i + 1] in p.leave_honorific else i + 1  # (해 주시면 안 될까요)
        if ms[i] in p.benefactive and j + 2 < len(ms) and ms[j] in p.wish_cond and ms[j + 1] in p.leave_neg and ms[j + 2] in p.leave_verb:
            found.append(j + 1)
    return found


def asks_leave(ms: list[tuple[str, str]], p: "Patterns") -> int | None:
    """Index of the first negator that asks leave (leave_negators), if any."""
    return next(iter(leave_negators(ms, p)), None)


def run_at(ms: list[tuple[str, str]], i: int, seq: tuple[tuple[str, str], ...]) -> bool:
    """Whether `seq` runs in the morphemes from position i (compared first morpheme first: most runs start nowhere)."""
    return bool(seq) and 0 <= i <= len(ms) - len(seq) and ms[i] == seq[0] and tuple(ms[i:i + len(seq)]) == seq


def contains(ms: list[tuple[str, str]], seq: tuple[tuple[str, str], ...]) -> bool:
    """Whether the morphemes hold `seq` as a contiguous run (run_at at any position, without a call per position)."""
    if not seq or seq[0] not in ms:
        return False
    n = len(seq)
    return n == 1 or any(ms[i] == seq[0] and tuple(ms[i:i + n]) == seq for i in range(len(ms) - n + 1))


def describes_how(ms: list[tuple[str, str]], p: Patterns) -> bool:
    """A modifier ending right before a how-word noun (speech_acts how_words: 확인하는 방법, 찍는 법): how one does it is
    asked, not a state (배터리 확인하는 방법 알려 줘)."""
    return any(k[1] == "ETM" and n in p.how_words for k, n in zip(ms, ms[1:]))


def follows(ms: list[tuple[str, str]], first: frozenset, then: frozenset, within: int = 3) -> int | None:
    """Index of a morpheme of `then` that comes within `within` morphemes after one of `first`."""
    for i, k in enumerate(ms):
        if k in first:
            for j in range(i + 1, min(len(ms), i + 1 + within)):
                if ms[j] in then:
                    return j
    return None


def offers(matrix: list[tuple[str, str]], final: tuple[str, str] | None, at: int, p: Patterns) -> bool:
    """켜 줄까? / 찍어 드릴까요?: a benefactive (offering_benefactives) right before the deliberation ending at `at` is the
    speaker offering to do it for somebody, never a request."""
    return at > 0 and final in p.deliberate_end and matrix[at - 1] in p.offering


def closed_syllable(form: str) -> bool:
    """Whether the last Hangul syllable of `form` has a final consonant (찍, 밝, 맞; not 가, 켜)."""
    last = form[-1:] if form else ""
    return "가" <= last <= "힣" and (ord(last) - ord("가")) % 28 != 0


def quotes_bare(ms: list[tuple[str, str]], i: int, p: Patterns) -> bool:
    """Morpheme i quotes with no quotative particle: an ending that quotes only before a reporting verb (bare_quotatives:
    2년이라 했지, 가랬더니) or a final ending said whole (거실이야 안방이야 하면서), a reporting verb right after it."""
    return i + 1 < len(ms) and (ms[i] in p.bare_quotatives or ms[i][1] == "EF") and ms[i + 1] in p.reporting


def asks_how(ms: list[tuple[str, str]], seq: tuple[tuple[str, str], ...], state_verbs: frozenset) -> bool:
    """Whether the sequence occurs and is not followed by a verb that turns it into a state question."""
    n, first = len(seq), seq[0]
    return any(ms[i] == first and tuple(ms[i:i + n]) == seq and not (i + n < len(ms) and ms[i + n] in state_verbs)
               for i in range(len(ms) - n + 1))


def ends_intoned(final: tuple[str, str] | None, closes: bool, p: Patterns) -> bool:
    """The clause ends on an ending only intonation tells from a question (어/EF, 야/EF); at the end of a sentence a last
    어 Kiwi reads as a connective (어/EC) is the same ending."""
    return final is not None and (final in p.intonation_end or (closes and (final[0], "EF") in p.intonation_end))


def explains_elliptically(matrix: list[tuple[str, str]], p: Patterns) -> bool:
    """밝기 올리는 방법 좀: a word asking how or why (explanation_words), then only 좀 to the end: the telling verb is left
    unsaid, as in any request cut short politely."""
    said = [k for k in matrix if not k[1].startswith("S")]
    return len(said) >= 2 and said[-1] == ("좀", "MAG") and said[-2] in p.explain_words and said[-2][1].startswith("NN")


def asks_criterion(matrix: list[tuple[str, str]], p: Patterns) -> bool:
    """몇부터 나쁨이야 / 사용 온도가 몇 도까지야: a criterion phrase (speech_acts criterion_phrases), the counter noun
    said after its number word aside: the manual's threshold or range, not the state now."""
    counted = [k for i, k in enumerate(matrix) if not (i and k[1] == "NNB" and k not in p.clock_counters  # (몇 시까지: a time)
                                                       and any(len(seq) > 1 and seq[0] == matrix[i - 1] for seq in p.criterion))]
    return any(asks_how(counted, seq, frozenset()) for seq in p.criterion)


def asks_by_shape(matrix: list[tuple[str, str]], last_pred: tuple[str, str] | None, pred_at: int | None,
                   ms: list[tuple[str, str]], p: Patterns, other_thing: bool) -> bool:
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
    if diagnoses(matrix, last_pred, pred_at, p):
        return True
    # 올라타는데 is read 는/ETM 데/NNB as often as 는데/EC
    premise = any(k in p.premise or (k == ("데", "NNB") and i and ms[i - 1][1] == "ETM") for i, k in enumerate(ms))
    return lemma in p.verdict_preds and premise


def curious(matrix: list[tuple[str, str]], p: Patterns, wished_or_asked: bool) -> bool:
    """알고 싶어 / 궁금하다: a word of wanting to know (wish.curiosity), not the 알 of the adverb 알아서 (autonomy_runs). A
    verb of knowing wants to know only when wished or asked (알고 싶어, 알 수 있을까?); told alone, it knows (습도 재는
    건 알겠는데, 그건 알아)."""
    return any(k in p.curiosity and (wished_or_asked or k[1] != "VV") and not any(run_at(matrix, i, run) for run in p.autonomy)
               for i, k in enumerate(matrix))


def asks_what_it_does(ms: list[tuple[str, str]], matrix: list[tuple[str, str]], final: tuple[str, str] | None,
                      asks_itself: bool, marked: bool, p: Patterns) -> str | None:
    """Of a benefactive asked: whether the robot does that too (포름알데히드도 잡아 줘? / 습도도 재 주냐: scope_question
    particles and endings) or on its own (나빠지면 알아서 풍량 올려 줘?: autonomy_runs, with "?"); None for a request."""
    if asks_itself and final in p.scope_endings and any(k in p.scope_particles for k in matrix):
        return "asks_scope"
    return "asks_autonomy" if marked and any(contains(ms, run) for run in p.autonomy) else None


def asks_what_is_usual(matrix: list[tuple[str, str]], pred_at: int | None, p: Patterns, of_the_product: bool) -> bool:
    """이거 원래 이렇게 시끄러워 / 원래 필터가 이렇게 금방 까매져요: a usual adverb (usual_adverbs, no particle after it:
    원래대로 돌려 놔 and 평소보다 나빠 compare) before the predicate of a clause about the robot (intoned_questions
    usual_subjects, or a device word or manual topic: `of_the_product`) asks what is usual (원래 월요일은 차 막혀 does not)."""
    usual = any(k in p.usual and not (i + 1 < len(matrix) and matrix[i + 1][1].startswith("J"))
                for i, k in enumerate(matrix[:pred_at or 0]))
    return usual and (of_the_product or any(k in p.usual_subjects for k in matrix))


def diagnoses(matrix: list[tuple[str, str]], last_pred: tuple[str, str] | None, pred_at: int | None, p: Patterns) -> bool:
    """고장인가 / 센서 문제야: the clause ends on a diagnosis noun (intoned_questions diagnosis_nouns) with the copula."""
    return last_pred is not None and last_pred[1] == "VCP" and bool(pred_at) and matrix[pred_at - 1] in p.diagnosis_nouns


def finds_out(matrix: list[tuple[str, str]], p: Patterns) -> bool:
    """공기 어떤지만 확인해, 배터리 얼마나 남았는지 봐: an indirect question (indirect_question_endings) that a verb of
    finding out (finding_out_verbs) takes as its object, in a clause a sentence ending closes (not 공기 어떤지 보게: so
    that one sees it, purpose_endings); the question word inside asks the hearer nothing, one after the verb asks it
    (얼마나 남았는지 보려면 어떻게 해: how to find out)."""
    at = next((i for i, k in enumerate(matrix) if k in p.indirect_question), None)
    closed = matrix[-1][1] == "EF" and matrix[-1] not in p.purpose_endings
    verb = next((i for i in range(at + 1, len(matrix)) if matrix[i] in p.finding_out), None) if at is not None else None
    return verb is not None and closed and not any(k in p.question_words for k in matrix[verb + 1:])


def ends_on_a_period(matrix: list[tuple[str, str]], p: Patterns) -> bool:
    """배터리도 일 년이에요?: the clause ends on a period counted (period_counters after a number or 몇), with only the
    copula, endings, particles and marks after it: it asks how long something lasts, not how the robot is now."""
    return any(k in p.period_counters and i > 0 and (matrix[i - 1][1] in ("SN", "NR") or matrix[i - 1] in p.question_words)
               and all(t[1] == "VCP" or t[1].startswith(("E", "J", "S")) for t in matrix[i + 1:]) for i, k in enumerate(matrix))


def needed_last(matrix: list[tuple[str, str]], p: Patterns) -> bool:
    """갈아야 돼 / 가야 될 것 같아: a necessity (need_endings then need_verbs) with no verb of doing after it; not 갈아야
    되는데 계속 미루고 있어, where the necessity is the premise of what is told."""
    at = follows(matrix, p.need_end, p.need_verb, within=1)
    return at is not None and not any(k[1] in ("VV", "XSV") for k in matrix[at + 1:])


def tells_by_copula(ms: list[tuple[str, str]], final: tuple[str, str] | None, closes: bool, p: Patterns) -> bool:
    """선풍기 바람도 뜨신 바람이라: a noun's copula closing the turn on an ending of reason (premise_endings, the
    connectives of means, and -라, which on a copula commands nothing) tells what something is, the rest left unsaid
    (not 실례지만..., trailing off, nor 몇 번이고, a question in 경상도 speech)."""
    said = [k for k in ms if not k[1].startswith("S")]
    return closes and final is not None and len(said) >= 3 and said[-1] == final and said[-2][1] == "VCP" \
        and said[-3][1].startswith(("N", "XSN", "ETN")) and (final in p.premise or final in p.verb_imperative or final[0] in p.means)


def happens(matrix: list[tuple[str, str]], pred_at: int | None, final: tuple[str, str] | None, closes: bool, p: Patterns) -> bool:
    """짜증 나 (event_verbs); 측정 돼, 금방 닳아, 바람 약해져 ending a sentence on an ending only intonation tells from
    a question (unbidden_verbs, inchoative_aux after an adjective): something happens, nobody is bidden to act."""
    if pred_at is None:
        return False
    k = matrix[pred_at]
    if k in p.event_verbs:
        return True
    became = k in p.inchoative and pred_at >= 2 and matrix[pred_at - 2][1] in ("VA", "VA-I", "VA-R")
    # 켜져 있어 / 꺼져 있어: the state an unbidden change left (not 가만히 있어, 멈춰 있어: told to stay)
    left = pred_at >= 2 and any(tuple(matrix[pred_at - len(seq) + 1:pred_at + 1]) == seq for seq in p.state_aspects) \
        and (matrix[pred_at - 2] in p.inchoative or matrix[pred_at - 2] in p.unbidden)
    return closes and ends_intoned(final, closes, p) and (k in p.unbidden or became or left)


def complains(matrix: list[tuple[str, str]], p: Patterns) -> bool:
    """날씨가 왜 이렇게 덥냐, 물가가 와 이래 비싸노: 왜 with a degree word (rhetorical_degree) before an adjective that ends
    the clause exclaims about how things are; heard without "?" it asks nobody (왜 이렇게 시끄러워? still asks)."""
    pred = next((k for k in reversed(matrix) if k[1].startswith(("VA", "VV", "XSA", "XSV", "VCP"))), None)
    return pred is not None and pred[1].startswith(("VA", "XSA")) and any(contains(matrix, seq) for seq in p.rhetorical_degree)


def premise_between(c: ClauseAnalysis, ms: list[tuple[str, str]], i: int, p: Patterns) -> bool:
    """나 잘 거니까 나이트 모드 켜고 ...: a premise ending (premise_endings) between the subject at `i` and the clause's
    first device word: the subject belongs to the reason, not to what is asked after it; so does a verb that qualifies
    a noun (나 쉬는 동안 ... 복귀시켜, 내가 찍은 사진: the subject of the time or of the thing, not of the request)."""
    first = min((h.position for h in c.capabilities), default=None)
    if first is None:
        return False
    stop = next((j for j, o in enumerate(c.compact_offsets) if o >= first), len(ms))
    return any(m in p.premise or (m[1] == "ETM" and j + 1 < len(ms) and ms[j + 1][1] == "NNG")
               for j, m in enumerate(ms[i + 1:stop], start=i + 1))


def owned_by_robot(morphemes: list, words: list[str], p: Patterns) -> bool:
    """너 정체가 뭐야, 로봇의 정체: one of `words` right after a robot pronoun or word (its possessive 의 between) is
    the robot's own, not a public matter (정체, a traffic jam, too)."""
    ms = [(mo.form, mo.tag) for mo in morphemes]
    for i, k in enumerate(ms[:-1]):
        j = i + 2 if i + 2 < len(ms) and ms[i + 1][0] in p.possessives and ms[i + 1][1] == "JKG" else i + 1
        if k in p.robot and any(ms[j][0] in w or w in ms[j][0] for w in words if w):
            return True
    return False


_AWAITING = ("JKS", "JKO")
"""A subject or an object particle: what it marks still needs its predicate."""


def awaits_predicate(morphemes: list, connective: str) -> bool:
    """작은방 공기가 좀… / 필터를 그: a subject or an object particle written on to its noun, said last in the turn's
    sentence (adverbs, determiners and marks after it aside), still waits for its predicate: the speech was cut off."""
    if connective:
        return False
    rest = [m for m in morphemes if not m.tag.startswith("S")]
    while rest and rest[-1].tag in ("MAG", "MM"):
        rest.pop()
    if len(rest) < 2 or rest[-1].tag not in _AWAITING:
        return False
    noun, particle = rest[-2], rest[-1]
    # (받을게 read as 받 + 을 + 것 + 이: a particle on a bound noun is a contracted ending; 필라테스 가: spaced, a verb)
    return noun.tag != "NNB" and particle.start == noun.start + noun.length


def _nothing_known(ms: list[tuple[str, str]], i: int, p: Patterns) -> bool:
    """The not knowing at i is of nothing at all: a degree word of none right before it (wish.knowing_nothing: 하나도,
    도통) or a question word asked of itself before it (뭐가 뭔지)."""
    asked = [x for x in ms[:i] if x in p.question_words]
    return any(x in p.knowing_nothing for x in ms[max(0, i - 3):i]) or len(asked) > len(set(asked))


def knows_nothing(ms: list[tuple[str, str]], p: Patterns) -> bool:
    """뭐가 뭔지 하나도 모르겠어: the clause's question words sit in a not knowing of nothing at all: it asks nothing."""
    return any(k in p.not_knowing and _nothing_known(ms, i, p) for i, k in enumerate(ms))


def asks_by_not_knowing(ms: list[tuple[str, str]], p: Patterns) -> bool:
    """전원 버튼이 어디 있는지 모르겠네: not knowing what an embedded question asks (wish.not_knowing after one of
    indirect_question_endings, particles and adverbs between aside) asks it; 몰라 alone asks nothing, and neither does a not knowing
    that the clause goes on from (되는지 모르겠지만 강으로 해 줘: what it goes on to is said), nor knowing nothing at all
    (wish.knowing_nothing before it, or a question word asked of itself: 뭐가 뭔지 하나도 모르겠다)."""
    for i, k in enumerate(ms):
        if k not in p.not_knowing or any(not x[1].startswith(("E", "S", "J", "VX")) for x in ms[i + 1:]) \
                or any(x[1] == "ETM" for x in ms[i + 1:i + 3]):
            continue  # (되는지 모르겠지만 강으로 해 줘: the clause goes on; 누군지도 모르는 사람: a modifier)
        if _nothing_known(ms, i, p):
            return False
        before = [x for x in ms[:i] if not x[1].startswith(("J", "S", "MAG"))]  # (재 주는 건지 잘 모르겠네)
        if before and before[-1] in p.indirect_question:
            return True
    return False
