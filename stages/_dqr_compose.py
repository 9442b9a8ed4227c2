"""The DQR composer's mechanisms: Korean templates with particles, relation verdicts, answer text.

Templates and their wording live in data/rag/templates.json; this module only fills them.
A verdict ("can I use F in mode M?") comes from the projection's connecting relations:
M restricts X and F requires X means F is blocked while M is on.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Literal

from registry.knowledge_contracts import Evidence
from registry.knowledge_contracts import GraphRelation, KgProjection, RetrievalResult, VersionNote
from rag.text import sentences

Verdict = Literal["blocked", "limited", "allowed"]
_SLOT = re.compile(r"\{(\w+)(?:\|([^/{}]+)/([^{}]+))?\}")
_HANGUL_BASE, _HANGUL_LAST = 0xAC00, 0xD7A3
_RIEUL = 8
_DIGITS_WITH_FINAL = set("013678")
"""Digits whose Korean reading ends in a consonant (영 일 삼 육 칠 팔)."""
_LATIN_WITH_FINAL = set("lmnr")
_CONDITION_TYPES = ("mode",)
"""Entities that are a state which is on or off: "in mode M, can I ...?" has an unconditional answer."""


def _final(word: str) -> int | None:
    """Final consonant index of the last sounded character (0 = none), None when unknown."""
    for ch in reversed(word.strip()):
        code = ord(ch)
        if _HANGUL_BASE <= code <= _HANGUL_LAST:
            return (code - _HANGUL_BASE) % 28
        if ch.isdigit():
            return 1 if ch in _DIGITS_WITH_FINAL else 0
        if ch.isascii() and ch.isalpha():
            return 1 if ch.lower() in _LATIN_WITH_FINAL else 0
    return None


def sentence(text: str) -> str:
    """The text ending like a sentence (a table row becomes one)."""
    text = text.strip()
    return text if text.endswith((".", "?", "!")) else text + "."


def _plain(text: str) -> str:
    """The text without its parentheses, spaces and final stop, to tell one statement said twice (사생활 보호 모드)."""
    return re.sub(r"\([^)]*\)|\s", "", text).rstrip(".")


def fill(template: str, values: dict[str, Any], rieul_exempt: frozenset[str] = frozenset()) -> str:
    """Fill `{name}` and `{name|A/B}` (A after a final consonant, B after a vowel)."""

    def one(match: re.Match) -> str:
        name, with_final, without_final = match.groups()
        value = str(values[name])
        if with_final is None:
            return value
        final = _final(value)
        pair = f"{with_final}/{without_final}"
        if final is None:
            return value + without_final
        if pair in rieul_exempt and final == _RIEUL:
            return value + without_final
        return value + (with_final if final else without_final)

    return _SLOT.sub(one, template)


@dataclass(frozen=True)
class RelationVerdict:
    verdict: Verdict
    condition: str
    feature: str
    reasons: list[GraphRelation]


def relation_verdict(projection: KgProjection, entity_types: dict[str, str]) -> RelationVerdict | None:
    """blocked | limited | allowed for a mode and a feature the question names, from connecting relations."""
    connecting = [r for r in projection.relations if r.connects]
    conditions = [s for s in projection.seeds if entity_types.get(s) in _CONDITION_TYPES]
    for cond in conditions:
        for feature in (s for s in projection.seeds if s != cond):
            direct = [r for r in connecting if r.from_ == cond and r.to == feature]
            for kind in ("restricts", "limits", "allows"):
                found = [r for r in direct if r.type == kind]
                if found:
                    return RelationVerdict({"restricts": "blocked", "limits": "limited", "allows": "allowed"}[kind], cond, feature, found)
            needs = {r.to: r for r in connecting if r.from_ == feature and r.type in ("requires", "uses")}
            for r in connecting:
                if r.from_ == cond and r.to in needs and r.type in ("restricts", "limits"):
                    hard = r.type == "restricts" and needs[r.to].type == "requires"
                    return RelationVerdict("blocked" if hard else "limited", cond, feature, [r, needs[r.to]])
    return None


def _number(x: float) -> str:
    return str(int(x)) if x == int(x) else f"{x:g}"


def rate_times_count(question: str, claims: list[str], rate: dict[str, Any]) -> dict[str, Any] | None:
    """The values of the rate_times_count template when the question gives a count (방 10개) and one of the claims a
    rate per item (공간마다 3분씩, lexicon dqr.rate_counts): 10 x 3분 = 30분. None otherwise."""
    counters = rate.get("counters", [])
    if not counters:
        return None
    asked = re.search(rf"(\d+)\s?({'|'.join(map(re.escape, counters))})", question)
    per, each = re.escape(rate["per"]), re.escape(rate["each"])
    pattern = re.compile(rf"(\S+?){per}\s*(\d+(?:\.\d+)?)\s?([^\s\d]+?){each}")
    found = next((m for m in map(pattern.search, claims) if m), None) if asked else None
    if asked is None or found is None:
        return None
    count, amount = int(asked.group(1)), float(found.group(2))
    return {"per": found.group(1), "amount": _number(amount), "unit": found.group(3), "count": count,
            "counter": asked.group(2), "total": _number(count * amount)}


_STATED = re.compile(r"(?<![A-Za-z\d.])(\d+(?:\.\d+)?)(?![\d.]*[A-Za-z])")
"""A number the question states (30이면), not the digits of a name (PM2.5)."""
_SIDES = ("at_most", "below", "at_least", "above")
"""Which side of its number a band's bound word puts the band (lexicon dqr.band_bounds): below and above leave the
number itself out."""


@lru_cache(maxsize=8)
def _band_pattern(words: tuple[str, ...]) -> re.Pattern[str]:
    """A band as a listing writes it: a name, then a range (16~35) or a number and one of the bound words, in brackets."""
    alternatives = "|".join(re.escape(w) for w in words)
    return re.compile(rf"^(.*?)\(\s*(\d+(?:\.\d+)?)\s*(?:~\s*(\d+(?:\.\d+)?)|[^()~]*?({alternatives}))\s*\)")


def _bands(claim: str, bounds: dict[str, str]) -> list[tuple[str, float, float, str]]:
    """좋음(15 ㎍/㎥ 이하), 보통(16~35), 매우 나쁨(76 이상): (name, low, high, as written) of each band a sentence lists;
    `bounds` maps a bound word to its side (lexicon dqr.band_bounds; an entry whose value is no side is ignored)."""
    pattern = _band_pattern(tuple(sorted((w for w, side in bounds.items() if side in _SIDES), key=len, reverse=True)))
    bands = []
    for chunk in claim.rstrip(". ").split(", "):
        found = pattern.match(chunk.strip())
        if found is None:
            continue
        head, low, high, bound = found.groups()
        words = head.split()
        name = head.strip() if len(words) <= 2 and all(re.fullmatch(r"[가-힣]+", w) for w in words) else (words or [""])[-1]
        a, side = float(low), bounds.get(bound or "")
        if high:
            lo, hi = a, float(high)
        elif side in ("at_most", "below"):
            lo, hi = float("-inf"), a - (1e-9 if side == "below" else 0.0)
        else:
            lo, hi = a + (1e-9 if side == "above" else 0.0), float("inf")
        bands.append((name, lo, hi, found.group(0)[len(head):].strip()))
    return bands


def band_of(question: str, claims: list[str], bounds: dict[str, str]) -> dict[str, Any] | None:
    """The values of the band_of template when the question states a number (초미세먼지 30이면 무슨 등급이야?) and one
    of the claims lists bands of that quantity (좋음(15 이하), 보통(16~35) ...): the band it falls in. None otherwise."""
    stated = _STATED.search(question)
    if stated is None or not bounds:
        return None
    value = float(stated.group(1))
    for claim in claims:
        bands = _bands(claim, bounds)
        inside = [b for b in bands if b[1] <= value <= b[2]]
        if len(bands) >= 2 and len(inside) == 1:
            name, _, _, written = inside[0]
            return {"number": stated.group(1), "band": name, "range": written.strip("()")}
    return None


class Composer:
    """Fills the answer templates for one store (wording comes from data)."""

    def __init__(self, templates: dict[str, Any]):
        self.t: dict[str, str] = templates["answers"]
        self.exempt = frozenset(templates.get("rieul_exempt", []))

    def say(self, key: str, **values: Any) -> str:
        return fill(self.t[key], values, self.exempt)

    def _cite(self, relation: GraphRelation, evidence: list[Evidence], locations: dict[str, str]) -> str:
        ref = next((e.source_id for e in evidence if e.source_id in relation.source_refs), None)
        ref = ref or (relation.source_refs[0] if relation.source_refs else "")
        return self.say("reason", claim=relation.claim.rstrip(". "), location=locations.get(ref, ""), source_id=ref)

    def verdict_text(self, verdict: RelationVerdict, labels: dict[str, str], evidence: list[Evidence], locations: dict[str, str]) -> str:
        head = self.say(verdict.verdict, condition=labels.get(verdict.condition, verdict.condition),
                        feature=labels.get(verdict.feature, verdict.feature))
        reasons = [self._cite(r, evidence, locations) for r in verdict.reasons]
        # the manual's own sentence the search found first, when no reason already says it (심박 재려면 어떻게 해?: 프라이버시
        # 모드가 켜져 있는 동안에는 ... 사용할 수 없습니다, or what to do first)
        # (a sentence of it a reason already says is not said twice: 프라이버시 모드를 켜면 카메라가 꺼집니다)
        first = evidence[0] if evidence else None
        said = [_plain(r) for r in reasons]
        unsaid = [s for s in sentences(first.claim) if not any(_plain(s) in r for r in said)] if first else []
        extra = [self.say("also", location=first.location, source_id=first.source_id,
                          claim=sentence(" ".join(unsaid)))] if unsaid else []
        return " ".join([head] + reasons + extra)

    def extract_text(self, evidence: list[Evidence]) -> str:
        if not evidence:
            return ""
        first = evidence[0]
        parts = [self.say("extract", location=first.location, source_id=first.source_id, claim=sentence(first.claim))]
        second = evidence[1] if len(evidence) > 1 else None
        if second is not None and second.claim != first.claim:
            parts.append(self.say("also", location=second.location, source_id=second.source_id, claim=sentence(second.claim)))
        return " ".join(parts)

    def insufficient_text(self, topics: list[str]) -> str:
        parts = [self.say("insufficient")]
        if topics:
            parts.append(self.say("insufficient_offer", topics=self.t.get("list_separator", ", ").join(topics)))
        else:
            parts.append(self.say("insufficient_general"))
        return " ".join(parts)

    def version_text(self, notes: list[VersionNote], retrieval: RetrievalResult) -> str:
        sep = self.t.get("list_separator", ", ")
        valid = {h.source_id: h.valid_at for h in retrieval.hits}
        out = []
        for note in notes:
            if note.kind == "superseded":
                out.append(self.say("superseded", other_version=note.other_version, other_source_id=note.other_source_id,
                                    values_there=sep.join(note.values_there), values_here=sep.join(note.values_here)))
                continue
            here_date = valid.get(note.source_id)
            here = (note.source_id, here_date, sep.join(note.values_here))
            there = (note.other_source_id, note.other_valid_at, sep.join(note.values_there))
            newest, older = (here, there) if here_date is not None and here_date >= note.other_valid_at else (there, here)
            out.append(self.say("conflicting", newest_source_id=newest[0], newest_valid_at=newest[1], newest_values=newest[2],
                                older_source_id=older[0], older_valid_at=older[1], older_values=older[2]))
        return " ".join(dict.fromkeys(out))
