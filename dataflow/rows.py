"""Set rows: reading a set file into rows or error lines, a row as a TurnInput, and routing rows into records.

A batch never stops at one bad row: every line becomes a row or an error, and every row a decision record or an
error record (UTTERANCE_SETS.md). The scoring of the records is dataflow/workbench/batch.py; the engines that route rows
in parallel are dataflow/workbench/engines.py.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Callable

from pydantic import ValidationError

from dataflow.driver import TurnRunner, error_record
from registry.contracts import TurnInput
from registry.plan_contracts import Expect
from registry.record_contracts import DecisionRecord
from registry.errors import InputError
from registry.inputs import device_context_of, voice_context_of
from registry.loader import Registry, load_registry


MAX_NESTING = 64
"""A set row nests objects and lists at most this deep (a label needs 4); deeper is an error record."""


def _depth_ok(value: Any, limit: int = MAX_NESTING) -> bool:
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if depth > limit:
            return False
        children = item.values() if isinstance(item, dict) else item if isinstance(item, list) else ()
        stack.extend((child, depth + 1) for child in children)
    return True


def _unicode_ok(value: Any) -> bool:
    """No lone surrogate anywhere in the row's strings (JSON can escape one; UTF-8 cannot carry it)."""
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            return False
        return True
    if isinstance(value, dict):
        return all(_unicode_ok(k) and _unicode_ok(v) for k, v in value.items())
    if isinstance(value, list):
        return all(_unicode_ok(v) for v in value)
    return True


def _parse_line(raw: bytes, number: int) -> tuple[dict[str, Any] | None, str | None]:
    """(row with its id, or None; error) of one non-empty line."""
    try:
        row = json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        return None, "line is not UTF-8"
    except json.JSONDecodeError as exc:
        return None, f"malformed JSON: {exc.msg}"
    except RecursionError:
        return None, f"nested deeper than {MAX_NESTING} levels"
    if not isinstance(row, dict):
        return None, f"a row is a JSON object, got {type(row).__name__}"
    if not _depth_ok(row):
        return None, f"nested deeper than {MAX_NESTING} levels"
    if "text" not in row and isinstance(row.get("question"), str):
        row = {**row, "text": row["question"]}  # a DQR question set row (data/questions/dqr.jsonl)
    row = {**row, "id": str(row["id"]) if row.get("id") not in (None, "") else f"line-{number}"}
    return row, row_error(row)


def is_question_row(row: dict[str, Any]) -> bool:
    """A DQR question row (data/questions/dqr.jsonl) rather than an utterance row."""
    return isinstance(row.get("question"), str) and "expected_source_ids" in row


def read_set(path: Path) -> list[tuple[int, dict[str, Any] | None, str | None]]:
    """(line number, row or None, error) per non-empty line; a bad line is reported, not fatal.

    Every row gets an id: its own (as text), or `line-N` when it has none. Rows that share an id are each an
    error: they would be scored against one another's labels."""
    with path.open("rb") as fh:
        rows = [(number, *_parse_line(raw, number)) for number, raw in enumerate(fh, 1) if raw.strip()]
    lines: dict[str, list[int]] = {}
    for number, row, _ in rows:
        if row is not None:
            lines.setdefault(row["id"], []).append(number)
    return [(number, row, error or (f"duplicate id {row['id']!r} (lines {', '.join(map(str, lines[row['id']]))})"
                                    if row is not None and len(lines[row["id"]]) > 1 else None))
            for number, row, error in rows]


def row_error(row: dict[str, Any]) -> str | None:
    """Why a parsed row cannot be routed or scored, if it cannot (UTTERANCE_SETS.md)."""
    if not isinstance(row.get("text"), str):
        return "row needs a string 'text'"
    if not _unicode_ok(row):
        return "invalid Unicode (a lone surrogate) in the row"
    expect = row.get("expect")
    if expect is not None and not isinstance(expect, dict):
        return f"expect: must be a JSON object, got {type(expect).__name__}"
    if expect is not None:
        try:
            Expect.model_validate(expect)
        except ValidationError as exc:
            err = exc.errors()[0]
            where = ".".join(map(str, err["loc"]))
            return f"expect{'.' + where if where else ''}: {err['msg']}"
    return None


def turn_from_row(row: dict[str, Any], registry: Registry | None = None, warnings: list[str] | None = None) -> TurnInput:
    """A set row as a TurnInput: device_context overrides the default device context. Contexts are checked
    (registry/inputs.py): a mistyped field or a number out of range is an InputError; an unknown field or an
    unregistered room too, unless a `warnings` list takes them (set rows: others' files run unchanged)."""
    return TurnInput(recognized_text=row["text"], voice_context=voice_context_of(row.get("voice_context"), warnings),
                     device_context=device_context_of(row.get("device_context"), registry or load_registry(), warnings))


def decide_rows(runner: TurnRunner, rows, progress: Callable[[], None] | None = None) -> list[DecisionRecord]:
    records = []
    for number, row, error in rows:
        row_id = row["id"] if row else f"line-{number}"
        text = row.get("text", "") if row and isinstance(row.get("text"), str) and _unicode_ok(row["text"]) else ""
        if error:
            records.append(error_record(text, error, row_id))
        else:
            try:
                warnings: list[str] = []
                record = runner.route(turn_from_row(row, runner.registry, warnings), row_id=row_id)
                records.append(record.model_copy(update={"warnings": warnings}) if warnings else record)
            except InputError as exc:
                records.append(error_record(text, str(exc), row_id))
            except Exception as exc:  # one bad row must never stop a batch; the record says why
                records.append(error_record(text, f"{type(exc).__name__}: {exc}", row_id))
        if progress:
            progress()
    return records


def decision_actions(record: DecisionRecord) -> list[dict[str, Any]]:
    """The record's device actions as set rows label them (capability, operation, arguments, conditional)."""
    return [
        {"capability_id": s.action.capability_id, "operation_id": s.action.operation_id,
         "arguments": dict(s.action.arguments), "conditional": s.condition is not None}
        for s in record.steps if s.action is not None
    ]


HOLDOUT_MARKERS = ("holdout",)
"""A set whose file name holds one of these is never fitted on (learned model, answerability calibration)."""


def refuse_holdout(path: Path) -> None:
    """Raise InputError when `path` is a holdout set: it stays unfitted."""
    if any(marker in path.name for marker in HOLDOUT_MARKERS):
        raise InputError(f"{path}: a holdout set is never fitted on")
