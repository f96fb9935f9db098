"""Dividing counts into scores: the label selection, its checks and its warnings."""

from __future__ import annotations

import warnings

import pytest

import nerscore
from nerscore import Counts, UnknownLabelWarning, reduce_counts
from nerscore.errors import OptionError

GOLD = [["B-PER", "O", "B-LOC"], ["B-ORG"]]
PRED = [["B-PER", "O", "O"], ["B-MISC"]]
EXISTING = "The labels with entities are 'LOC', 'MISC', 'ORG', 'PER'."


def _scorer(gold, pred, **kw):
    scorer = nerscore.EntityScorer(**kw)
    scorer.update(gold, pred)
    return scorer.compute()


def _files(gold, pred, tmp_path, **kw):
    paths = []
    for name, side in (("gold.conll", gold), ("pred.conll", pred)):
        path = tmp_path / name
        path.write_text("\n\n".join("\n".join(f"w\t{t}" for t in s) for s in side) + "\n",
                        encoding="utf-8")
        paths.append(path)
    return nerscore.score_files(*paths, **kw)


ENTRY_POINTS = {
    "precision_score": nerscore.precision_score,
    "recall_score": nerscore.recall_score,
    "f1_score": nerscore.f1_score,
    "fbeta_score": nerscore.fbeta_score,
    "evaluate": nerscore.evaluate,
    "classification_report": nerscore.classification_report,
    "reduce_counts": lambda g, p, **kw: reduce_counts(nerscore.count_matches(g, p), **kw),
    "EntityScorer": _scorer,
}


@pytest.mark.parametrize("name", ENTRY_POINTS)
def test_a_label_that_neither_side_has_warns_naming_it_and_the_existing_labels(name):
    fn = ENTRY_POINTS[name]
    with pytest.warns(UnknownLabelWarning) as record:
        fn(GOLD, PRED, labels=["NOPE", "PER"], zero_division=0.0)
    (w,) = record
    assert str(w.message) == (
        "`labels` names 'NOPE', which has no gold and no predicted entity: its scores are the "
        f"zero_division value. {EXISTING}")
    assert w.filename == __file__  # the user's line, however deep the warning is raised
    # labels that one side has are no surprise: no warning
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        fn(GOLD, PRED, labels=["ORG", "MISC"], zero_division=0.0)


def test_score_files_warns_too(tmp_path):
    with pytest.warns(UnknownLabelWarning, match="`labels` names 'NOPE'"):
        _files(GOLD, PRED, tmp_path, labels=["NOPE"], zero_division=0.0)


def test_close_label_names_are_suggested_and_every_unknown_one_is_named():
    with pytest.warns(UnknownLabelWarning) as record:
        scores = nerscore.f1_score(GOLD, PRED, labels=["PRE", "LCO", "XYZ", "PER"],
                                   average=None, zero_division=0.0)
    assert list(scores) == ["PRE", "LCO", "XYZ", "PER"]  # kept, with the zero_division value
    assert scores["PRE"] == 0.0
    assert str(record[0].message) == (
        "`labels` names 'PRE' (did you mean 'PER'?), 'LCO' (did you mean 'LOC'?), 'XYZ', which "
        "have no gold and no predicted entity: their scores are the zero_division value. "
        f"{EXISTING}")


def test_a_label_in_another_case_is_suggested():
    with pytest.warns(UnknownLabelWarning, match=r"^`labels` names 'per' \(did you mean 'PER'\?\)"):
        nerscore.f1_score(GOLD, PRED, labels=["per"], zero_division=0.0)


def test_without_any_entity_the_warning_says_so():
    with pytest.warns(UnknownLabelWarning, match="No label has an entity."):
        reduce_counts(Counts(), labels=["PER"], zero_division=0.0)


@pytest.mark.parametrize("labels", ["PER", [1, 2], 3])
def test_labels_must_be_a_list_of_names(labels):
    for fn in (nerscore.f1_score, nerscore.evaluate):
        with pytest.raises(OptionError, match="Expected `labels` to be a list of label names"):
            fn(GOLD, PRED, labels=labels)
    with pytest.raises(OptionError, match="Expected `labels` to be a list of label names"):
        reduce_counts(nerscore.count_matches(GOLD, PRED), labels=labels)


@pytest.mark.parametrize("fn", [nerscore.f1_score, nerscore.precision_score,
                                lambda g, p, **kw: reduce_counts(nerscore.count_matches(g, p),
                                                                 **kw)])
def test_the_average_error_lists_none(fn):
    with pytest.raises(OptionError) as e:
        fn(GOLD, PRED, average="mirco")
    assert str(e.value) == (
        "Expected `average` to be one of 'micro', 'macro', 'weighted' or None; got 'mirco'.")


@pytest.mark.parametrize("counts", [None, {"PER": (1, 1, 1)}])
def test_reduce_counts_of_something_else_is_an_input_error(counts):
    with pytest.raises(nerscore.InputTypeError, match="Expected `counts` to be Counts"):
        nerscore.reduce_counts(counts)
