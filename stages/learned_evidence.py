"""Step 3b: learned family evidence (a hashed character n-gram and morpheme model; weights are registry data)."""

from __future__ import annotations

from registry.contracts import FAMILIES, LearnedEvidence, NormalizedText
from registry.loader import Registry
from stages.ngram_model import feature_buckets, probabilities_of


def learned_family_evidence(normalized_text: NormalizedText, registry: Registry) -> LearnedEvidence:
    """Each family's calibrated probability under the learned model (empty without a model or text)."""
    model = registry.learned
    if model is None or len(normalized_text.compact) < max(1, registry.weights.learned_min_chars):
        return LearnedEvidence()
    ids = feature_buckets(normalized_text.text, normalized_text.morphemes, model.weights.shape[0], model.features)
    probs = probabilities_of(model.weights, model.bias, model.temperature, ids)
    return LearnedEvidence(probabilities={f: round(float(p), 4) for f, p in zip(FAMILIES, probs)},
                           model=f"{model.digest}: {model.trained_on}")
