"""Step 2: history as supporting evidence for continuation, slot filling and cancel."""

from __future__ import annotations

from registry.contracts import HistoryEvidence, TurnInput

_STRENGTH = {"none": 0.0, "weak": 0.3, "medium": 0.6, "strong": 0.9}


def history_evidence(turn_input: TurnInput) -> HistoryEvidence:
    """What the voice context and history say about this turn (never outranks the utterance)."""
    voice = turn_input.voice_context
    slot_state = dict(voice.slot_state)
    owner = slot_state.get("owner_route") or None
    missing = [str(s) for s in slot_state.get("missing_slots", []) or []]
    summary = voice.active_workflow_summary.strip().lower()
    active_schedule = (owner == "SCH" and bool(missing)) or summary.startswith("sch")
    continuation = owner or (voice.last_route or None)
    strength = _STRENGTH[voice.history_hint_strength]
    if active_schedule:
        strength = max(strength, 0.8)
    elif continuation:
        strength = max(strength, 0.3)
    return HistoryEvidence(
        continuation_route=continuation,
        open_slot_state=slot_state,
        missing_slots=missing,
        active_schedule_workflow=active_schedule,
        strength=strength,
        addressee_spoke_last=bool(continuation or missing or voice.pending_follow_up_text.strip()),
    )
