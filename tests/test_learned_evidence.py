"""Learned family evidence: an axis on gray-zone turns, never a licence; fitted only on sets that are not holdouts."""

import copy
from pathlib import Path

import numpy as np
import pytest

from dataflow.driver import TurnRunner
from dataflow.workbench.learned import fit_learned_model, labelled_rows
from registry.contracts import FAMILIES, DeviceContext, TurnInput
from registry.errors import InputError
from registry.learned_model import LearnedFamilyModel
from registry.loader import load_registry
from stages.ngram_model import learned_scale
from tests.conftest import actions

ROOT = Path(__file__).resolve().parents[1]


def _always(family: str) -> LearnedFamilyModel:
    """A model that is sure of one family whatever it hears."""
    bias = np.full(len(FAMILIES), -20.0, dtype=np.float32)
    bias[FAMILIES.index(family)] = 20.0
    return LearnedFamilyModel(np.zeros((16, len(FAMILIES)), dtype=np.float32), bias, 1.0, FAMILIES, "test", "always-" + family)


@pytest.fixture(scope="module")
def odl_sure_runner():
    patched = copy.copy(load_registry())
    patched.learned = _always("ODL")
    return TurnRunner(registry=patched)


@pytest.mark.parametrize("text", ["거실로 가지 마", "엄마가 사진 찍으래", "어제 청정했어", "티비 소리가 너무 커"])
def test_a_model_sure_of_odl_still_licenses_nothing(odl_sure_runner, text):
    record = odl_sure_runner.route(TurnInput(recognized_text=text, device_context=DeviceContext(position="안방")))
    assert actions(record) == []


def test_the_learned_axis_shows_its_probability_and_counts_only_in_a_gray_zone(odl_sure_runner):
    clear = odl_sure_runner.route(TurnInput(recognized_text="거실로 가서 청정해줘"))
    axis = clear.evidence.axes["learned_ODL"]
    assert axis.strength == 1.0 and axis.signals[0] == "p=1.00"
    talk = odl_sure_runner.route(TurnInput(recognized_text="정말 고마워요"))
    assert "learned_ODL" in talk.evidence.axes
    # 정말 고마워요 is lexically clear (DEF): the learned axis is recorded but does not count
    assert "learned_ODL" not in talk.evidence.family_contributions["ODL"] and talk.family == "DEF"


@pytest.mark.parametrize("text", ["는", "맘마", "고마워"])
def test_the_learned_model_abstains_on_too_little_text(odl_sure_runner, text):
    """A character model has only its prior on a particle or a two-syllable word: no learned axis lights."""
    assert len(text) < load_registry().weights.learned_min_chars
    record = odl_sure_runner.route(TurnInput(recognized_text=text))
    assert not [a for a in record.evidence.axes if a.startswith("learned_")]


def test_the_learned_tier_opens_between_reply_families_but_never_toward_an_action():
    weights = load_registry().weights
    clear_def = {"ODL": 0.0, "SCH": 0.0, "FRG": 0.0, "DQR": 0.0, "DEF": 4.0, "UNS": 0.0, "STT_NULL": 0.0}
    sure = weights.learned_opening.min_probability
    # outside the gray zone, a sure model may move a reply to another family that plans no device step ...
    assert learned_scale(clear_def, {"learned_UNS": sure}, weights) == weights.learned_opening.scale > 0
    # ... not when it is unsure, not toward ODL or SCH, and not while a licensed device anchor is lit
    assert learned_scale(clear_def, {"learned_UNS": sure - 0.01}, weights) == 0.0
    assert learned_scale(clear_def, {"learned_ODL": 1.0}, weights) == 0.0
    assert learned_scale(clear_def, {"learned_SCH": 1.0}, weights) == 0.0
    anchor = weights.learned_opening.unless[0]
    assert learned_scale(clear_def, {"learned_UNS": 1.0, anchor: 1.0}, weights) == 0.0
    # ... and not toward a refusal of a request when the speaker says what they will do themselves (불 꺼 줄께)
    own = "has_unlicensed_speech_act=user"
    assert own in weights.learned_opening.unless_for["UNS"]
    assert learned_scale(clear_def, {"learned_UNS": 1.0, "has_unlicensed_speech_act": 1.0, own: 1.0}, weights) == 0.0
    assert learned_scale(clear_def, {"learned_UNS": 1.0, "has_unlicensed_speech_act": 1.0}, weights) > 0
    # ... nor toward conversation when the turn asks what the robot is (LABELING: product identity is DQR): 넌 누구야
    clear_dqr = {**clear_def, "DEF": 0.0, "DQR": 4.0}
    assert learned_scale(clear_dqr, {"learned_DEF": 1.0, "has_product_identity_anchor": 1.0}, weights) == 0.0
    assert learned_scale(clear_dqr, {"learned_DEF": 1.0}, weights) == weights.learned_opening.scale
    # ... nor toward a failed recognition when a stable manual topic was heard whole (E5 뜸 ㅋㅋ 이거 뭐임: an error code)
    assert learned_scale(clear_dqr, {"learned_STT_NULL": 1.0, "has_stable_device_qna_target": 1.0}, weights) == 0.0
    assert learned_scale(clear_dqr, {"learned_STT_NULL": 1.0}, weights) == weights.learned_opening.scale
    # ... nor a joke asked for toward a refusal, nor what is told not to be needed toward a question (안 바꿔도 돼)
    assert learned_scale(clear_def, {"learned_UNS": 1.0, "has_clear_conversation_reply_shape": 1.0}, weights) == 0.0
    told = {"learned_DQR": 1.0, "has_talk_shape": 1.0, "has_talk_shape=not_needed": 1.0}
    assert learned_scale(clear_def, told, weights) == 0.0
    assert learned_scale(clear_def, {"learned_DQR": 1.0, "has_talk_shape": 1.0}, weights) == weights.learned_opening.scale
    # a clear device winner is never re-read by it either
    clear_odl = {**clear_def, "DEF": 0.0, "ODL": 4.0}
    assert learned_scale(clear_odl, {"learned_UNS": 1.0}, weights) == 0.0
    # the gray zone still counts the learned terms at their weight, and a sure reply family at the opening's scale
    # there too (a close call is where a sure model should count most, not least)
    gray = {**clear_def, "UNS": 3.0}
    assert learned_scale(gray, {"learned_ODL": 1.0}, weights) == 1.0
    assert learned_scale(gray, {"learned_UNS": sure - 0.01}, weights) == 1.0
    assert learned_scale({**clear_def, "DQR": 3.0}, {"learned_UNS": sure}, weights) == weights.learned_opening.scale
    assert learned_scale({**clear_def, "DQR": 3.0}, {"learned_UNS": sure, anchor: 1.0}, weights) == 1.0


def test_the_shipped_model_loads_with_its_provenance():
    model = load_registry().learned
    assert model is not None and model.families == FAMILIES and "train_v2.jsonl" in model.trained_on


def test_holdout_sets_are_never_fitted(tmp_path):
    with pytest.raises(InputError, match="holdout"):
        labelled_rows([ROOT / "data/utterances/holdout_v2.jsonl"])
    with pytest.raises(InputError, match="holdout"):
        fit_learned_model([ROOT / "data/utterances/dev_holdout.jsonl"], tmp_path / "m.npz")


def test_a_fitted_model_round_trips_and_separates_families(tmp_path):
    out = tmp_path / "m.npz"
    summary = fit_learned_model([ROOT / "data/utterances/core.jsonl"], out, steps=120)
    model = LearnedFamilyModel.load(out)
    assert model is not None and summary["rows_fitted"] > 200
    assert summary["calibration_accuracy"] > 0.6


def test_the_temperature_is_found_between_the_coarse_steps():
    """The calibration temperature minimises the log loss to within a fine step: a coarse grid alone jitters between
    refits (0.5 or 0.6 for one optimum near 0.55), and the opening threshold reads these probabilities."""
    import numpy as np

    from dataflow.workbench.learned import _temperature

    rng = np.random.default_rng(7)
    k, buckets, n = 7, 64, 3000
    weights = rng.normal(0, 1.0, (buckets, k)).astype(np.float32)
    bias = np.zeros(k, dtype=np.float32)
    features = [rng.integers(0, buckets, 4) for _ in range(n)]
    logits = np.array([weights[ids].sum(axis=0) / 2.0 for ids in features])
    true = logits / 0.55  # labels drawn from the model sharpened by 1 / 0.55: the best temperature is near 0.55
    prob = np.exp(true - true.max(axis=1, keepdims=True))
    prob /= prob.sum(axis=1, keepdims=True)
    labels = np.array([rng.choice(k, p=p) for p in prob])
    found = _temperature(weights, bias, features, labels)
    assert 0.5 < found < 0.6 and abs(found - 0.55) < 0.03


def test_a_broken_model_file_is_a_clear_error(tmp_path):
    from registry.errors import RegistryError

    bad = tmp_path / "learned_family.npz"
    bad.write_bytes(b"not a model")
    with pytest.raises(RegistryError, match="learned"):
        LearnedFamilyModel.load(bad)


def test_the_model_is_also_fitted_on_each_marked_row_as_a_recognizer_gives_it(tmp_path):
    from dataflow.workbench.learned import unmarked

    assert unmarked("비 와? 우산 챙길까...") == "비 와 우산 챙길까"
    assert unmarked("35.5도야, 12,000원!") == "35.5도야 12,000원"  # a point or comma between digits is the number's
    summary = fit_learned_model([ROOT / "data/utterances/core.jsonl"], tmp_path / "m.npz", steps=20)
    assert 0 < summary["unmarked_copies"] <= summary["rows_fitted"]
    assert f"{summary['unmarked_copies']} of them also without marks" in summary["trained_on"]


def test_a_model_that_reads_morphemes_says_so_and_tells_endings_apart(tmp_path):
    """With morphemes, the model sees Kiwi's reading (나요/EF, 녹화/NNG) besides the characters; the file records what
    it reads, and a kind no code reads fails loading."""
    from registry.errors import RegistryError
    from stages.ngram_model import feature_buckets, morpheme_keys

    out = tmp_path / "m.npz"
    fit_learned_model([ROOT / "data/utterances/core.jsonl"], out, steps=60, features=("char", "morph"))
    model = LearnedFamilyModel.load(out)
    assert model.features == ("char", "morph") and model.digest != LearnedFamilyModel.load(ROOT / "registry/learned_family.npz").digest
    from dataflow.driver import shared_kiwi
    from stages.normalization import normalized_text

    said = normalized_text(TurnInput(recognized_text="냄새도 없어지나요"), shared_kiwi(), load_registry())
    keys = morpheme_keys(said.morphemes)
    assert "end:나요/EF" in keys and any(k.startswith("m:냄새/") for k in keys)
    assert len(feature_buckets(said.text, said.morphemes, 1 << 14, ("char", "morph"))) > len(feature_buckets(said.text, (), 1 << 14, ("char",)))
    data = dict(np.load(out))
    np.savez(tmp_path / "bad.npz", **{**data, "features": np.array(["char", "sound"])})
    with pytest.raises(RegistryError, match="feature"):
        LearnedFamilyModel.load(tmp_path / "bad.npz")


def test_product_question_sets_set_what_they_look_like_not_how_often_they_come():
    """prior_shift: rows of a product-question set count question_weight each in the family prior, so a set of
    nothing but product questions does not make every turn likelier to be one; at weight 1 the prior is as fitted."""
    from dataflow.workbench.learned import prior_shift

    rows = [(f"u{i}", "t", "DEF") for i in range(60)] + [(f"u{60 + i}", "t", "DQR") for i in range(20)] \
        + [(f"q{i}", "t", "DQR") for i in range(80)]
    asked = frozenset(f"q{i}" for i in range(80))
    dqr, def_ = FAMILIES.index("DQR"), FAMILIES.index("DEF")
    assert np.allclose(prior_shift(rows, asked, 1.0, 0.5), 0.0)
    shift = prior_shift(rows, asked, 0.0, 0.5)
    # fitted: DQR 100/160, DEF 60/160; heard: DQR 20/80, DEF 60/80 -> log ratios times the temperature
    assert shift[dqr] == pytest.approx(0.5 * np.log((20 / 80) / (100 / 160)), abs=1e-5)
    assert shift[def_] == pytest.approx(0.5 * np.log((60 / 80) / (60 / 160)), abs=1e-5)
    assert shift[FAMILIES.index("ODL")] == 0.0  # a family no row names keeps its bias
    half = prior_shift(rows, asked, 0.5, 0.5)
    assert shift[dqr] < half[dqr] < 0.0


def test_the_shipped_model_says_how_it_weighed_product_question_sets():
    from dataflow.workbench import QUESTION_WEIGHT

    assert f"product-question rows count {QUESTION_WEIGHT:g} each in the prior" in load_registry().learned.trained_on
