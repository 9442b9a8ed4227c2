"""The Experience block of a batch run's metrics (sets with Experience labels, e.g. experience_boundary.jsonl).

Computed only from rows whose `expect` has `experience_admission`:

- admission precision and recall: a row is expected admitted when its `admitted` label is true
  (a `not_admitted` proposal is never admitted); a record is admitted when the deterministic
  admission says so (`experience_status`). Rows with a candidate proposal but no `admitted` label
  are left out of these two.
- false admissions: rows labelled `not_admitted` (one action, one query, one registration, chat,
  knowledge questions, unsupported requests: the single commands) that were admitted.
- full pass: a row passes when every key its `expect` holds is correct, the routing keys that
  `score` checks (family, routes, turn_mode, skill, actions, slots, ...) and the Experience keys
  (experience_admission, admitted, desired_effects, temporal_relation, unsupported_terminal_outcomes);
  a `not_admitted` label implies `admitted: false`, which is checked too.
"""

from __future__ import annotations

from typing import Any

from registry.record_contracts import DecisionRecord

EXPERIENCE_KEYS = ("admitted", "desired_effects", "temporal_relation", "unsupported_terminal_outcomes")
FULL_PASS_DEFINITION = ("every key of the row's expect is correct (routing keys and Experience keys alike; "
                        "a not_admitted label implies admitted: false)")


def experience_got(record: DecisionRecord) -> dict[str, Any]:
    """The record's Experience values, as the labels name them."""
    admission = record.evidence.experience_admission
    return {
        "admitted": record.experience_status == "admitted",
        "desired_effects": list(admission.desired_effects) if admission else [],
        "temporal_relation": admission.temporal_relation if admission else None,
        "unsupported_terminal_outcomes": list(admission.unsupported_terminal_outcomes) if admission else [],
    }


def experience_expected(expect: dict[str, Any]) -> dict[str, Any]:
    """The Experience labels of a row, with the `admitted: false` a not_admitted label implies."""
    out = {k: expect[k] for k in EXPERIENCE_KEYS if k in expect}
    if "admitted" not in out and expect.get("experience_admission") == "not_admitted":
        out["admitted"] = False
    return out


def experience_checks(expect: dict[str, Any], record: DecisionRecord) -> dict[str, bool]:
    """Label -> whether the record matches it, for the Experience labels the row holds."""
    expected = experience_expected(expect)
    if not expected:
        return {}
    got = experience_got(record)
    return {k: v == got[k] for k, v in expected.items()}


def _rate(values: list[bool]) -> float | None:
    return round(sum(values) / len(values), 4) if values else None


def experience_block(per_row: list[tuple[str, dict[str, Any], DecisionRecord, dict[str, bool]]]) -> dict[str, Any] | None:
    """Metrics over (row id, expect, record, the routing checks `score` made for the row); None without Experience labels."""
    rows = [r for r in per_row if "experience_admission" in r[1]]
    if not rows:
        return None
    tp = fp = fn = tn = 0
    false_admissions, missed, failures = [], [], []
    by_key: dict[str, list[bool]] = {k: [] for k in (*EXPERIENCE_KEYS, "experience_admission")}
    for row_id, exp, rec, checks in rows:
        got = experience_got(rec)
        expected = experience_expected(exp).get("admitted")
        mine = experience_checks(exp, rec)
        for key, ok in mine.items():
            by_key[key].append(ok)
        by_key["experience_admission"].append(checks.get("experience_admission", False))
        if expected is not None:
            tp += expected and got["admitted"]
            fp += (not expected) and got["admitted"]
            fn += expected and not got["admitted"]
            tn += not expected and not got["admitted"]
            if got["admitted"] and exp["experience_admission"] == "not_admitted":
                false_admissions.append(row_id)
            elif expected and not got["admitted"]:
                missed.append(row_id)
        wrong = [k for k, ok in {**checks, **mine}.items() if not ok]
        if wrong:
            failures.append({"id": row_id, "keys": wrong})
    return {
        "rows": len(rows),
        "admission": {"tp": tp, "fp": fp, "fn": fn, "tn": tn,
                      "precision": round(tp / (tp + fp), 4) if tp + fp else None,
                      "recall": round(tp / (tp + fn), 4) if tp + fn else None},
        "false_admissions": false_admissions,
        "missed_admissions": missed,
        "proposal_accuracy": _rate(by_key["experience_admission"]),
        "desired_effects_accuracy": _rate(by_key["desired_effects"]),
        "temporal_relation_accuracy": _rate(by_key["temporal_relation"]),
        "unsupported_outcomes_accuracy": _rate(by_key["unsupported_terminal_outcomes"]),
        "full_pass_rate": round(1 - len(failures) / len(rows), 4),
        "full_pass_definition": FULL_PASS_DEFINITION,
        "full_pass_failures": failures,
    }
