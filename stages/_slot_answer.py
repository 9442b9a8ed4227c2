"""An answer to the robot's own question: the argument a device request was asked back for.

The robot asked "어느 방으로 갈까요?" or "바람 세기를 어떻게 할까요?" because a request named its act but not the
room or the level (the voice context keeps the act: slot_state capability_id, operation_id, missing_slots). A turn
that answers with that argument alone (서재, 아기방이요, 어… 그 서재?, 터보, 중으로 해 주세요) completes the request
the user made: its clause gets the pending act as a capability hit, with the argument it gives. Nothing else is
read as an answer: a question (안방에 엄마 있어?), a statement (거실은 아까 했잖아), talk to somebody else, words in
the past, a predicate other than a verb of doing, a clause with an act of its own, or a value the operation does not
take. The voice context is input like any other: an unknown capability, operation or slot answers nothing.

Not a stage module: `stages.speech_acts.clause_analyses` calls it after licensing.
"""

from __future__ import annotations

import dataclasses

from registry.contracts import HistoryEvidence
from registry.loader import Registry
from stages._clauses import CapabilityHit, ClauseAnalysis
from stages._matchers import matchers_for
from stages._operations import level_of
from stages._predicates import final_predicate
from stages.speech_patterns import patterns

SLOT_ANSWER = "slot_answer"
"""`CapabilityHit.via` of an act completed by an answer to the robot's question."""
_ANSWER_MOODS = ("fragment", "request")
"""The shapes an answer takes: the argument alone (서재요, 터보?) or asked for with a verb of doing (중으로 해 줘)."""


def _pending(history: HistoryEvidence, registry: Registry):
    """(capability, operation id, slot) the robot asked back for, when the voice context names a registered one."""
    state = history.open_slot_state
    cap = registry.capability_by_id.get(str(state.get("capability_id") or ""))
    if state.get("owner_route") != "ODL" or cap is None or len(history.missing_slots) != 1:
        return None
    op = cap.operation(str(state.get("operation_id") or ""))
    slot = history.missing_slots[0]
    if op is None or slot not in op.arguments:
        return None
    return cap, op, slot


def _answers(c: ClauseAnalysis, registry: Registry) -> bool:
    """Whether the clause is shaped as an answer said to the robot, with no act of its own."""
    act = c.act
    if c.role != "action" or c.capabilities or c.unsupported or act is None or act.mood not in _ANSWER_MOODS:
        return False
    if act.polarity != "affirmative" or act.agent != "robot" or act.reported or act.past:
        return False
    if act.mood == "fragment":
        return True
    found = final_predicate(c, patterns(registry))
    return found is not None and found[1] in patterns(registry).doing


def _value(c: ClauseAnalysis, cap, op, slot: str, registry: Registry) -> tuple[str, object] | None:
    """(surface, value) of the argument the clause gives the pending operation, if it gives exactly one."""
    spec = op.arguments[slot]
    if spec.type == "room":
        rooms = list(dict.fromkeys(c.rooms))
        return (rooms[0], registry.room_by_id[rooms[0]].canonical_name) if len(rooms) == 1 else None
    if slot != "level":
        return None
    level = level_of(cap, c.compact, matchers_for(registry))
    low = spec.minimum if spec.minimum is not None else level
    high = spec.maximum if spec.maximum is not None else level
    return (c.compact, level) if level is not None and low <= level <= high else None


def answer_open_slot(clauses: list[ClauseAnalysis], history: HistoryEvidence, registry: Registry) -> list[ClauseAnalysis]:
    """The clauses, the one answering the robot's open question given the act it completes (see the module)."""
    pending = _pending(history, registry)
    if pending is None or any(c.capabilities or c.unsupported for c in clauses):
        return clauses
    cap, op, slot = pending
    answers = [(i, v) for i, c in enumerate(clauses) if _answers(c, registry) and (v := _value(c, cap, op, slot, registry))]
    if len(answers) != 1:
        return clauses
    i, (surface, value) = answers[0]
    hit = CapabilityHit(capability_id=cap.capability_id, kind=cap.kind, operation_id=op.operation_id, surface=surface,
                        via=SLOT_ANSWER, strength=1.0, position=0, arguments={slot: value})
    return [dataclasses.replace(c, capabilities=[hit]) if j == i else c for j, c in enumerate(clauses)]
