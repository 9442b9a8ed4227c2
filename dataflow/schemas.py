"""JSON Schemas of the contracts, for model response schemas and editors."""

from __future__ import annotations

import json
from pathlib import Path

from registry import contracts

EXPORTED = (
    "TurnInput", "NormalizedText", "PreclassifierHints", "HistoryEvidence", "AllowedRouteFamilies", "FlowCatalog",
    "RankedFlows", "ReplyObjectMeta", "ReplyabilityMeta", "CandidatePool", "FamilyScores", "ScheduleShortCircuit",
    "PlannerOutput", "SecondPassVerdict", "PlanCheckReport", "DecisionRecord",
)


def schema_texts() -> dict[str, str]:
    return {
        f"{name}.schema.json": json.dumps(getattr(contracts, name).model_json_schema(), ensure_ascii=False, indent=2, sort_keys=True) + "\n"
        for name in EXPORTED
    }


def write_schemas(out: Path) -> list[str]:
    out.mkdir(parents=True, exist_ok=True)
    texts = schema_texts()
    for name, text in texts.items():
        (out / name).write_text(text, encoding="utf-8")
    return sorted(texts)
