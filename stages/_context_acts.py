"""Acts the turn's context completes: an answer to the robot's question back, and a stop for what is running.

An answer: the robot asked "어느 방으로 갈까요?" or "바람 세기를 어떻게 할까요?" because a request named its act but not
the room or the level (the voice context keeps the act: slot_state capability_id, operation_id, missing_slots). A turn
that answers with that argument alone (서재, 아기방이요, 어… 그 서재?, 터보, 중으로 해 주세요) completes the request
the user made: its clause gets the pending act as a capability hit, with the argument it gives. Nothing else is
read as an answer: a question (안방에 엄마 있어?), a statement with a predicate (거실은 아까 했잖아; the copula alone
answers: 안방이야, 큰방 말이다), talk to somebody else, words in
the past, a predicate other than a verb of doing, a clause with an act of its own, or a value the operation does not
take. The voice context is input like any other: an unknown capability, operation or slot answers nothing.

A stop for what runs: 청정 그만해 said while the robot purifies in place asks to stop that purifying, not the room
clean 청정 names when nothing runs (the device would stop nothing and the robot would say it had). A stop or off asked
of a capability that is not running goes to the one running capability with the same operation whose own name holds
the word said (고정청정 holds 청정), when there is exactly one; a bare voice stop (멈춰, 그만) said to the robot while
exactly one thing it can stop runs stops that (it had answered 멈출게요 and stopped nothing).

Not a stage module: `stages.speech_acts.clause_analyses` calls `in_context` after licensing.
"""

from __future__ import annotations

import dataclasses

from registry.contracts import HistoryEvidence, WorkflowContext
from registry.loader import Registry
from stages._clauses import VERB_TAGS, CapabilityHit, ClauseAnalysis
from stages._matchers import compact, matchers_for
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
    slot = history.missing_slots[0]
    op = cap.operation(str(state.get("operation_id") or ""))
    if op is None and not state.get("operation_id"):  # none named (not one unknown): the one operation taking the slot
        taking = [o for o in cap.operations if slot in o.arguments]
        op = taking[0] if len(taking) == 1 else None
    if op is None or slot not in op.arguments:
        return None
    return cap, op, slot


def _answers(c: ClauseAnalysis, registry: Registry) -> bool:
    """Whether the clause is shaped as an answer said to the robot: affirmative, not past or reported, a fragment or a
    request whose verb is one of doing. Not `licenses_action`: a value said whole and trailing off (서재…) still answers."""
    act = c.act
    told = act is not None and act.mood == "statement" and _told_by_copula(c)
    if c.role != "action" or act is None or (act.mood not in _ANSWER_MOODS and not told):
        return False
    if act.polarity != "affirmative" or act.agent != "robot" or act.reported or act.past:
        return False
    p = patterns(registry)
    found = final_predicate(c, p) if act.mood == "request" else None
    return act.mood == "fragment" or told or (found is not None and found[1] in p.doing)


def _told_by_copula(c: ClauseAnalysis) -> bool:
    """안방이야 / 큰방 말이다: the value told with the copula alone, no particle, every noun a registry word but the
    one the copula is on (not 안방은 엄마 방이야: what the room is, told)."""
    ms = c.morphemes
    if not any(m.tag == "VCP" for m in ms) or any(m.tag.startswith("J") or (m.tag in VERB_TAGS and m.tag != "VCP") for m in ms):
        return False
    return all(c.in_registry_word[i] or (i + 1 < len(ms) and ms[i + 1].tag == "VCP")
               for i, m in enumerate(ms) if m.tag.startswith("NN"))


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


def _acts_of_its_own(c: ClauseAnalysis) -> bool:
    """An unsupported act, or a capability the clause asks for (안방이야 read as where the robot is: told, none)."""
    return bool(c.unsupported) or bool(c.capabilities) and c.act is not None and c.act.mood != "statement"


def _answer_open_slot(clauses: list[ClauseAnalysis], history: HistoryEvidence, registry: Registry) -> list[ClauseAnalysis]:
    """The clauses, the one answering the robot's open question given the act it completes (see the module)."""
    pending = _pending(history, registry)
    if pending is None or any(_acts_of_its_own(c) for c in clauses):
        return clauses
    cap, op, slot = pending
    answers = [(i, v) for i, c in enumerate(clauses) if _answers(c, registry) and (v := _value(c, cap, op, slot, registry))]
    if len(answers) != 1:
        return clauses
    i, (surface, value) = answers[0]
    hit = CapabilityHit(capability_id=cap.capability_id, kind=cap.kind, operation_id=op.operation_id, surface=surface,
                        via=SLOT_ANSWER, strength=1.0, position=0, arguments={slot: value})
    return [dataclasses.replace(c, capabilities=[hit]) if j == i else c for j, c in enumerate(clauses)]


_STOPPING = ("stop", "off")
"""Operations that end what a capability does."""
RUNNING = "running"
"""`CapabilityHit.via` of a bare voice stop given the one running act it stops."""


def _stop_what_runs(clauses: list[ClauseAnalysis], running: list[str], registry: Registry) -> list[ClauseAnalysis]:
    """The clauses, a stop of what is not running moved to the running capability its word names (see the module)."""
    registered = [cap for cap_id in dict.fromkeys(running) if (cap := registry.capability_by_id.get(cap_id)) is not None]
    if not registered:
        return clauses

    def runner_of(hit: CapabilityHit) -> str | None:
        if hit.operation_id not in _STOPPING or hit.capability_id in running:
            return None
        said = compact(hit.surface)
        named = [cap.capability_id for cap in registered
                 if cap.operation(hit.operation_id) is not None and any(said in compact(alias) for alias in cap.aliases)]
        return named[0] if len(named) == 1 and said else None

    stoppable = [cap for cap in registered if cap.operation("stop") is not None] if len(registered) == 1 else []
    out = []
    for c in clauses:
        moved = [dataclasses.replace(h, capability_id=other) if (other := runner_of(h)) else h for h in c.capabilities]
        if not moved and len(stoppable) == 1 and _bare_stop(c):  # 멈춰 while one thing runs: that thing
            moved = [CapabilityHit(capability_id=stoppable[0].capability_id, kind=stoppable[0].kind, operation_id="stop",
                                   surface=c.compact, via=RUNNING, strength=1.0, position=0)]
        out.append(dataclasses.replace(c, capabilities=moved) if moved != c.capabilities else c)
    return out


def _bare_stop(c: ClauseAnalysis) -> bool:
    """A voice stop said to the robot that names nothing to stop (멈춰, 그만, 이제 그만해)."""
    act = c.act
    return c.role == "action" and not c.unsupported and act is not None and act.mood == "stop" \
        and act.agent == "robot" and act.polarity == "affirmative" and not act.reported and not act.past


def in_context(clauses: list[ClauseAnalysis], history: HistoryEvidence, workflow: WorkflowContext,
               registry: Registry) -> list[ClauseAnalysis]:
    """The licensed clauses with the acts the context completes: a stop for what runs, an answer to a question back."""
    return _answer_open_slot(_stop_what_runs(clauses, workflow.running_capabilities, registry), history, registry)
