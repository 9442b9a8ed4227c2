"""Which operation a capability word asks for and the arguments the clause gives it (a level, its direction, argument
words). Mechanisms only: the off words, level words and argument words come from the registry."""

from __future__ import annotations

import re

from registry.loader import Registry
from stages._clauses import CapabilityHit
from stages._matchers import Matchers, compact

_DIGITS = re.compile(r"\d+")


def operation_of(cap, alias: str, after: str, m: Matchers) -> str:
    """The operation a capability word asks for; `after` is the clause's compact text after the word (청정 지금: the
    off words are looked for there, never across the word itself: 청정지금 holds 정지)."""
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
    return "stop" if "stop" in ops and m.off.first(after) else ops[0]


def level_of(cap, after: str, m: Matchers) -> int | None:
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


def _range_end(cap, direction: int) -> int | None:
    """제일 밝게 / 최대한 작게: the level argument's maximum (or minimum), as the registry bounds it."""
    spec = next((op.arguments.get("level") for op in cap.operations if op.operation_id == "level"), None)
    return None if spec is None else (spec.maximum if direction > 0 else spec.minimum)


def argument_words(cap, cc: str, hit: CapabilityHit) -> None:
    for name, words in cap.argument_words.items():
        for word in sorted(words, key=len, reverse=True):
            if compact(word) in cc:
                hit.arguments[name] = words[word]
                break


def level_arguments(hits: list[CapabilityHit], cc: str, registry: Registry, m: Matchers) -> None:
    """A level operation with no level of its own takes the clause's direction (크게: one step up; 제일 크게: the end)."""
    direction = 1 if m.increase.first(cc) else -1 if m.decrease.first(cc) else 0
    to_the_limit = bool(direction) and m.to_the_limit[direction].first(cc) is not None
    for hit in hits:
        if hit.operation_id == "level" and "level" not in hit.arguments and direction:
            end = _range_end(registry.capability_by_id[hit.capability_id], direction) if to_the_limit else None
            hit.arguments.update({"delta": direction} if end is None else {"level": end})
