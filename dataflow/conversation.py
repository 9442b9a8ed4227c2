"""A voice session across turns: the voice context one decision leaves for the next, and a decided
turn as a labelled utterance-set row (the shared UTTERANCE_SETS format)."""

from __future__ import annotations

from typing import Any

from dataflow.rows import decision_actions
from registry.contracts import VoiceContext
from registry.record_contracts import DecisionRecord


def follow_up_voice_context(record: DecisionRecord) -> VoiceContext:
    """What the session remembers for the next turn: the owner, an open slot filling, the question asked."""
    if not record.family:
        return VoiceContext()
    waiting = list(record.missing_slots)
    filled = {name: value for name, value in record.slots.items() if value not in (None, "", [])}
    # the same shape as the labelled multi-turn rows of data/utterances (core-009 and its neighbours)
    slot_state = {"owner_route": record.family, "skill": record.selected_skill, **filled, "missing_slots": waiting} if waiting else {}
    summary = f"{record.family.lower()} {record.selected_skill} waiting for {', '.join(waiting)}" if waiting else ""
    return VoiceContext(
        last_route=record.family,
        slot_state=slot_state,
        active_workflow_summary=summary,
        pending_follow_up_text=record.ask_follow_up or "",
        history_hint_strength="strong" if waiting else "weak",
    )


def _set_actions(record: DecisionRecord) -> list[dict[str, Any]]:
    """The plan's actions as a set writes them: arguments only when there are some, `conditional` only when true."""
    actions = []
    for action in decision_actions(record):
        written = {"capability_id": action["capability_id"], "operation_id": action["operation_id"]}
        if action["arguments"]:
            written["arguments"] = action["arguments"]
        if action["conditional"]:
            written["conditional"] = True
        actions.append(written)
    return actions


def labelled_row(record: DecisionRecord, voice_context: VoiceContext, device_context: dict[str, Any], row_id: str) -> dict[str, Any]:
    """The turn as a set row whose expect is the decision itself, so `a2a batch` scores it a full pass until it changes."""
    expect: dict[str, Any] = {"family": record.family, "actions": _set_actions(record), "missing_slots": list(record.missing_slots)}
    if record.family == "SCH":
        expect["slots"] = dict(record.slots)
    row: dict[str, Any] = {"id": row_id, "text": record.text, "voice_context": voice_context.model_dump()}
    if device_context:
        row["device_context"] = dict(device_context)
    row["expect"] = expect
    row["tags"] = ["shell"]
    return row
