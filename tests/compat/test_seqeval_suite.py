"""The behaviours seqeval 1.2.2's own test suite checks, run against the drop-in.

Each test restates one check of seqeval's ``tests/test_v1.py`` and
``tests/test_metrics.py`` (the parts that need neither Keras nor Perl; the
conlleval comparison uses the recorded output of the script instead).
seqeval's ``v1`` functions are its strict mode, so they are called here with
``mode="strict", scheme=IOB2``.
"""

from __future__ import annotations

import math
import warnings
from pathlib import Path

import numpy as np
import pytest
from sklearn.exceptions import UndefinedMetricWarning as SklearnUndefinedMetricWarning

import nerscore
import nerscore.compat.seqeval as ns
from nerscore.compat.seqeval import IOB2
from tests.compat.test_seqeval import read_conll

DATA = Path(__file__).resolve().parents[1] / "data"
STRICT = {"mode": "strict", "scheme": IOB2}
ABC_TRUE = [["B-A", "B-B", "O", "B-A"]]
ABC_PRED = [["O", "B-B", "B-C", "B-A"]]


# --------------------------------------------------------------------- test_v1.py


def test_bad_beta():
    with pytest.raises(ValueError):  # noqa: PT011 - seqeval checks the class only
        ns.precision_recall_fscore_support([[]], [[]], beta=-0.1, **STRICT)


def test_bad_average_option():
    with pytest.raises(ValueError):  # noqa: PT011
        ns.precision_recall_fscore_support([[]], [[]], average="mega", **STRICT)


@pytest.mark.parametrize("average", [None, "macro", "weighted"])
def test_warning_is_scikit_learns_class_too(average):
    with pytest.warns(SklearnUndefinedMetricWarning):
        ns.precision_recall_fscore_support([["B-PER"]], [["B-Test"]], average=average,
                                           beta=1.0, **STRICT)
    with pytest.warns(nerscore.UndefinedMetricWarning):
        ns.precision_recall_fscore_support([["B-PER"]], [["B-Test"]], average=average,
                                           beta=1.0, **STRICT)


def test_fscore_warning():
    with pytest.warns(SklearnUndefinedMetricWarning):
        ns.precision_recall_fscore_support([[]], [[]], average="micro", warn_for=("f-score",),
                                           **STRICT)


def test_length():
    with pytest.raises(ValueError):  # noqa: PT011
        ns.precision_recall_fscore_support([["B-PER"]], [["B-PER", "O"]], **STRICT)


def test_weighted_true_sum_zero():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", SklearnUndefinedMetricWarning)
        res = ns.precision_recall_fscore_support([["O"]], [["O"]], average="weighted", **STRICT)
    assert res == (0.0, 0.0, 0.0, 0)


def test_scores():
    with pytest.warns(SklearnUndefinedMetricWarning):
        p, r, f, s = ns.precision_recall_fscore_support(ABC_TRUE, ABC_PRED, average=None,
                                                        **STRICT)
    np.testing.assert_array_almost_equal(p, [1.00, 1.00, 0.00], 2)
    np.testing.assert_array_almost_equal(r, [0.50, 1.00, 0.00], 2)
    np.testing.assert_array_almost_equal(f, [0.67, 1.00, 0.00], 2)
    np.testing.assert_array_equal(s, [2, 1, 0])


@pytest.mark.parametrize(("average", "expected"), [
    ("micro", [0.67, 0.67, 0.67, 3]),
    ("macro", [0.67, 0.50, 0.56, 3]),
    ("weighted", [1.00, 0.67, 0.78, 3]),
])
def test_average_scores(average, expected):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", SklearnUndefinedMetricWarning)
        scores = ns.precision_recall_fscore_support(ABC_TRUE, ABC_PRED, average=average,
                                                    **STRICT)
    np.testing.assert_array_almost_equal(scores, expected, 2)


@pytest.mark.parametrize(("average", "expected"), [
    ("micro", [0.67, 0.67, 0.67, 3]),
    ("macro", [0.67, 0.50, 0.50, 3]),
    ("weighted", [1.00, 0.67, 0.67, 3]),
])
def test_average_scores_beta_inf(average, expected):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", SklearnUndefinedMetricWarning)
        scores = ns.precision_recall_fscore_support(ABC_TRUE, ABC_PRED, average=average,
                                                    beta=np.inf, **STRICT)
    np.testing.assert_array_almost_equal(scores, expected, 2)


def test_report_output_dict():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", SklearnUndefinedMetricWarning)
        report = ns.classification_report(ABC_TRUE, ABC_PRED, output_dict=True)
    assert report == {
        "A": {"f1-score": 2 / 3, "precision": 1.0, "recall": 0.5, "support": 2},
        "B": {"f1-score": 1.0, "precision": 1.0, "recall": 1.0, "support": 1},
        "C": {"f1-score": 0.0, "precision": 0.0, "recall": 0.0, "support": 0},
        "macro avg": {"f1-score": 0.5555555555555555, "precision": 2 / 3, "recall": 0.5,
                      "support": 3},
        "micro avg": {"f1-score": 2 / 3, "precision": 2 / 3, "recall": 2 / 3, "support": 3},
        "weighted avg": {"f1-score": 0.7777777777777777, "precision": 1.0,
                         "recall": 2 / 3, "support": 3},
    }


def test_report_output_string():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", SklearnUndefinedMetricWarning)
        report = ns.classification_report(ABC_TRUE, ABC_PRED)
    assert report == (
        "              precision    recall  f1-score   support\n"
        "\n"
        "           A       1.00      0.50      0.67         2\n"
        "           B       1.00      1.00      1.00         1\n"
        "           C       0.00      0.00      0.00         0\n"
        "\n"
        "   micro avg       0.67      0.67      0.67         3\n"
        "   macro avg       0.67      0.50      0.56         3\n"
        "weighted avg       1.00      0.67      0.78         3\n"
    )


def test_report_dict_without_entities_has_nan_macro():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", SklearnUndefinedMetricWarning)
        with pytest.warns(nerscore.UndefinedMetricWarning, match="macro average over no labels"):
            report = ns.classification_report([["O"]], [["O"]], output_dict=True)
    assert all(math.isnan(report["macro avg"][k]) for k in ("precision", "recall", "f1-score"))
    assert report["micro avg"]["f1-score"] == 0.0


# --------------------------------------------------------------------- test_metrics.py


def test_get_entities():
    y_true = ["O", "O", "O", "B-MISC", "I-MISC", "I-MISC", "O", "B-PER", "I-PER"]
    assert ns.get_entities(y_true) == [("MISC", 3, 5), ("PER", 7, 8)]


def test_get_entities_with_suffix_style():
    y_true = ["O", "O", "O", "MISC-B", "MISC-I", "MISC-I", "O", "PER-B", "PER-I"]
    assert ns.get_entities(y_true, suffix=True) == [("MISC", 3, 5), ("PER", 7, 8)]


def test_performance_measure():
    y_true = [["O", "O", "O", "B-MISC", "I-MISC", "O", "B-ORG"], ["B-PER", "I-PER", "O"]]
    y_pred = [["O", "O", "B-MISC", "I-MISC", "I-MISC", "O", "O"], ["B-PER", "I-PER", "O"]]
    # the counts seqeval 1.2.2 itself returns on this input (an older revision of its test
    # expected FP 3)
    assert ns.performance_measure(y_true, y_pred) == {"FN": 1, "FP": 2, "TN": 4, "TP": 3}


def _conlleval_numbers(text: str) -> tuple[float, float, float, float]:
    items = text.split("\n")[1].split()
    percents = [float(item.rstrip("%;")) / 100 for item in items if item.endswith("%;")]
    return percents[0], percents[1], percents[2], float(items[-1]) / 100


def test_by_ground_truth():
    """Scores within 1e-4 of the conlleval script's (its recorded output)."""
    y_true, y_pred = read_conll(DATA / "conlleval" / "conll2000" / "input.txt")
    expected = (DATA / "conlleval" / "conll2000" / "expected.txt").read_text(encoding="utf-8")
    acc, p, r, f = _conlleval_numbers(expected)
    assert abs(ns.accuracy_score(y_true, y_pred) - acc) < 1e-4
    assert abs(ns.precision_score(y_true, y_pred) - p) < 1e-4
    assert abs(ns.recall_score(y_true, y_pred) - r) < 1e-4
    assert abs(ns.f1_score(y_true, y_pred) - f) < 1e-4


def test_metrics_for_suffix_data():
    y_true, y_pred = read_conll(DATA / "conlleval" / "conll2000" / "input.txt")
    i_true, i_pred = read_conll(DATA / "conlleval" / "conll2000" / "input-suffix.txt")
    assert ns.accuracy_score(y_true, y_pred) == ns.accuracy_score(i_true, i_pred)
    for score in (ns.precision_score, ns.recall_score, ns.f1_score):
        assert abs(score(y_true, y_pred) - score(i_true, i_pred, suffix=True)) < 1e-4
