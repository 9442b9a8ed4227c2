"""The learned family model's weights (`learned_family.npz`): data, loaded once, checked on load."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from registry.contracts import FAMILIES
from registry.errors import RegistryError

LEARNED_FILE = "learned_family.npz"
FEATURE_KINDS = frozenset({"char", "morph"})


@dataclass(frozen=True)
class LearnedFamilyModel:
    """A hashed character n-gram softmax model over the route families (see stages/_learned.py)."""

    weights: np.ndarray
    """buckets x families (float32)."""
    bias: np.ndarray
    temperature: float
    families: tuple[str, ...]
    trained_on: str
    """What it was fitted on (set names and row counts), shown with its axes."""
    digest: str
    """A digest of the weights: caches and records name the model by its content."""
    features: tuple[str, ...] = ("char",)
    """What it reads: character n-grams ("char"), and Kiwi's morphemes ("morph") when the file says so."""

    @classmethod
    def load(cls, path: Path) -> "LearnedFamilyModel | None":
        """The model in `path`, None when the file is absent (the axes then stay dark)."""
        if not path.exists():
            return None
        try:
            with np.load(path, allow_pickle=False) as data:
                weights = data["weights"].astype(np.float32)
                bias = data["bias"].astype(np.float32)
                temperature = float(data["temperature"])
                families = tuple(str(f) for f in data["families"])
                trained_on = str(data["trained_on"])
                features = tuple(str(f) for f in data["features"]) if "features" in data.files else ("char",)
        except (OSError, KeyError, ValueError) as exc:
            raise RegistryError(path.name, "<file>", f"not a learned family model: {exc}") from None
        if families != FAMILIES or weights.shape[1] != len(families) or bias.shape != (len(families),) or temperature <= 0:
            raise RegistryError(path.name, "families", f"expected {FAMILIES} with matching shapes")
        if not set(features) <= FEATURE_KINDS:
            raise RegistryError(path.name, "features", f"unknown feature kinds {sorted(set(features) - FEATURE_KINDS)}")
        kinds = b"" if features == ("char",) else ",".join(features).encode()
        digest = hashlib.sha1(weights.tobytes() + bias.tobytes() + kinds).hexdigest()[:12]
        return cls(weights, bias, temperature, families, trained_on, digest, features)
