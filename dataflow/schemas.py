"""JSON Schemas of the contracts, for model response schemas and editors."""

from __future__ import annotations

import json
from pathlib import Path

from registry import contracts, plan_contracts, record_contracts

EXPORTED = {
    contracts: ("TurnInput", "NormalizedText", "PreclassifierHints", "HistoryEvidence", "AllowedRouteFamilies", "FlowCatalog",
                "RankedFlows", "ReplyObjectMeta", "ReplyabilityMeta", "CandidatePool", "FamilyScores"),
    plan_contracts: ("ScheduleShortCircuit", "PlannerOutput", "SecondPassVerdict", "PlanCheckReport"),
    record_contracts: ("DecisionEvidence", "DecisionRecord"),
}


def schema_texts() -> dict[str, str]:
    return {
        f"{name}.schema.json": json.dumps(getattr(module, name).model_json_schema(), ensure_ascii=False, indent=2, sort_keys=True) + "\n"
        for module, names in EXPORTED.items() for name in names
    }


def write_schemas(out: Path) -> list[str]:
    out.mkdir(parents=True, exist_ok=True)
    texts = schema_texts()
    for name, text in texts.items():
        (out / name).write_text(text, encoding="utf-8")
    return sorted(texts)
