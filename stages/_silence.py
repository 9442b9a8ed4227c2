"""Clauses that say nothing themselves: a hesitation before what is said, a one-word call of somebody after it.

Their evidence axes are left out of the turn's (whom a call addresses is already in the speech acts); a turn
of nothing else keeps them, so that it is still read as the fragment it is.
"""

from __future__ import annotations

from stages._clauses import ClauseAnalysis
from stages._matchers import Matchers


def hesitation_only(c: ClauseAnalysis, m: Matchers) -> bool:
    """Whether every word of the clause is a filler (lexicon fragments.filler_words: 그, 음, 뭐냐) or an interjection."""
    interjections = {x.form for x in c.morphemes if x.tag == "IC"}
    words = [w.strip("?.!,~") for w in c.text.split()]
    return any(words) and all(w in m.filler_words or w in interjections for w in words if w)


def call_only(c: ClauseAnalysis) -> bool:
    """사진 좀 찍어 줘 언니 / 민수야: one word that calls somebody."""
    return c.act is not None and len(c.text.split()) == 1 and not c.has_predicate and any(
        s.startswith("vocative:") and s != "vocative:from_previous_clause" for s in c.act.signals)


def silent_clauses(clauses: list[ClauseAnalysis], m: Matchers) -> list[bool]:
    """Per clause, whether it says nothing itself: a hesitation before the last clause that says something (after
    it, 주방 가서 어 그, the sentence trails off: that stays evidence), or a one-word call ending the turn (one heading
    it, 할머니 이거 드셔 보세요, stays: it is what makes the turn talk); none when all would be."""
    hesitating = [hesitation_only(c, m) for c in clauses]
    last_said = max((i for i, h in enumerate(hesitating) if not h), default=-1)
    last = len(clauses) - 1
    silent = [(h and i < last_said) or (i == last and call_only(c)) for i, (c, h) in enumerate(zip(clauses, hesitating))]
    return [False] * len(silent) if all(silent) else silent
