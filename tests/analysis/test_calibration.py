"""Reliability tables and calibration errors against scikit-learn's binning."""

import math

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import nerscore
from nerscore.analysis.calibration import calibration, reliability
from nerscore.errors import InputTypeError, OptionError


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.sampled_from([0.0, 1 / 3, 0.5, 2 / 15, 1.0]) | st.floats(0, 1),
                          st.booleans()), min_size=1, max_size=40),
       st.integers(1, 20))
def test_bins_are_scikit_learns(pairs, bins):
    calibration_curve = pytest.importorskip("sklearn.calibration").calibration_curve
    score = np.array([s for s, _ in pairs])
    correct = np.array([c for _, c in pairs])
    table = reliability(score, correct, bins=bins)
    prob_true, prob_pred = calibration_curve(correct, score, n_bins=bins)
    full = [b for b in table.bins if b.count]
    np.testing.assert_allclose([b.accuracy for b in full], prob_true, rtol=1e-12)
    np.testing.assert_allclose([b.mean_score for b in full], prob_pred, rtol=1e-12)
    # ECE written out prediction by prediction
    gap = 0.0
    for b in full:
        gap += b.count * abs(b.accuracy - b.mean_score)
    assert math.isclose(table.ece, gap / len(score), rel_tol=1e-12)
    assert sum(b.count for b in table.bins) == len(score)


def test_a_perfectly_calibrated_system_has_no_error():
    gold = {"d": [(i, i + 1, "A") for i in range(0, 20, 2)]}
    # half of the predictions scored 0.5 are right, all those scored 1.0
    pred = {"d": [(0, 1, "A", 0.5), (30, 31, "A", 0.5), (2, 3, "A", 1.0), (4, 5, "A", 1.0)]}
    cal = calibration(gold, pred, bins=10)
    assert cal.ece == 0.0
    assert cal.overall.mce == 0.0


def test_per_label_tables_and_correctness_from_the_matcher():
    gold = {"d": [(0, 4, "PER"), (10, 16, "LOC")]}
    pred = {"d": [(0, 4, "PER", 0.9), (10, 15, "LOC", 0.6)]}
    exact = calibration(gold, pred, bins=2)
    overlap = calibration(gold, pred, bins=2, match="threshold", t=0.5)
    assert [b.correct for b in exact.per_label["LOC"].bins] == [0, 0]
    assert [b.correct for b in overlap.per_label["LOC"].bins] == [0, 1]
    assert list(calibration(gold, pred, labels=["LOC"]).per_label) == ["LOC"]
    d = exact.to_dict()
    assert d["overall"]["bins"][0] == {"lower": 0.0, "upper": 0.5, "count": 0, "correct": 0,
                                       "mean_score": None, "accuracy": None}


def test_scores_outside_zero_one_are_refused():
    with pytest.raises(InputTypeError, match=r"Calibration needs scores in \[0, 1\] "
                                             r"\(probabilities\); 1 of the 2 predictions are "
                                             r"scored outside it \(from -2.3 to 0.5\)"):
        calibration({"d": [(0, 1, "A")]}, {"d": [(0, 1, "A", -2.3), (2, 3, "A", 0.5)]})


@pytest.mark.parametrize("bins", [0, 2.5, True, "15"])
def test_bad_bins(bins):
    with pytest.raises(OptionError, match="Expected `bins` to be a positive int"):
        calibration({"d": []}, {"d": [(0, 1, "A", 0.5)]}, bins=bins)


def test_no_predictions():
    cal = nerscore.calibration({"d": [(0, 1, "A")]}, {"d": []})
    assert cal.overall.n == 0
    assert math.isnan(cal.ece)
