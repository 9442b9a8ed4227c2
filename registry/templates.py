"""The runtime's Korean answer templates (`response_templates.json`), validated on load."""

from __future__ import annotations

import string
from functools import lru_cache
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict

from registry.loader import REGISTRY_DIR, _read_json, _validate

TEMPLATES_FILE = "response_templates.json"


class ResponseTemplates(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    version: str
    description: str = ""
    levels: dict[str, str]
    variant_fields: dict[str, str]
    """evidence (or capability/evidence) -> output field whose value picks the template variant."""
    evidence: dict[str, str]
    limited_by: dict[str, str]
    running_words: dict[str, str]
    reasons: dict[str, str]
    status_fallback: dict[str, str]
    retried: str
    cloud: dict[str, str]
    schedule_kinds: dict[str, str]
    repeat_days: dict[str, str]
    duration: str
    time_range: str
    path_a_rejected: str
    nothing_done: str

    def for_evidence(self, capability_id: str | None, evidence: str, output: dict[str, Any]) -> str | None:
        """The most specific template: capability/evidence/variant, capability/evidence, evidence/variant, evidence."""
        keys = []
        for base in ([f"{capability_id}/{evidence}"] if capability_id else []) + [evidence]:
            field = self.variant_fields.get(base) or self.variant_fields.get(evidence)
            if field is not None and field in output:
                keys.append(f"{base}/{output[field]}")
            keys.append(base)
        return next((self.evidence[k] for k in keys if k in self.evidence), None)


class _Known(dict):
    def __missing__(self, key: str) -> str:
        return "-"  # a value the evidence did not carry is shown as unknown, never made up


def fill(template: str, values: dict[str, Any]) -> str:
    """str.format with unknown fields shown as '-'."""
    return string.Formatter().vformat(template, (), _Known(values))


@lru_cache(maxsize=4)
def load_response_templates(directory: Path = REGISTRY_DIR) -> ResponseTemplates:
    return _validate(ResponseTemplates, _read_json(directory / TEMPLATES_FILE), TEMPLATES_FILE)
