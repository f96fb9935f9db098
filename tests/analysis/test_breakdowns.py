"""Scores per bucket: length, document, seen/unseen; buckets always add up to the whole."""

from __future__ import annotations

import json
import math
import random
import warnings

import pytest

import nerscore
from nerscore import breakdown, breakdown_from_report, render_breakdown
from nerscore.errors import OptionError, UndefinedMetricWarning

TAGS = ["O", "O", "O", "B-A", "I-A", "B-B", "I-B"]
MATCHERS = [
    ("exact", {}), ("exact", {"labeled": False}), ("semeval", {}),
    ("overlap", {"overlapping": "merge"}), ("threshold", {}),
]


def random_pair(seed: int) -> tuple[list[list[str]], list[list[str]]]:
    rng = random.Random(seed)
    gold = [[rng.choice(TAGS) for _ in range(rng.randint(0, 15))] for _ in range(6)]
    pred = [[rng.choice(TAGS) for _ in range(len(s))] for s in gold]
    return gold, pred


def assert_adds_up(b: nerscore.Breakdown) -> None:
    for field in ("tp", "tp_pred", "n_pred", "n_gold"):
        total = sum(getattr(x, field) for x in b.buckets)
        assert math.isclose(total, getattr(b.overall, field)), field


@pytest.mark.parametrize("by", ["length", "document"])
@pytest.mark.parametrize(("match", "options"), MATCHERS)
def test_buckets_sum_to_the_matchers_counts(by: str, match: str, options: dict[str, object]):
    for seed in range(25):
        gold, pred = random_pair(seed)
        b = breakdown(gold, pred, by=by, match=match, zero_division=0.0, **options)
        assert_adds_up(b)
        total = nerscore.count_matches(gold, pred, match=match, **options).total()
        assert math.isclose(b.overall.tp, total.tp)
        assert (b.overall.n_gold, b.overall.n_pred) == (total.n_gold, total.n_pred)
        if match == "exact":
            assert all(x.tp == x.tp_pred for x in b.buckets)
            report = nerscore.evaluate(gold, pred, zero_division=0.0, **options)
            assert math.isclose(b.overall.f1, report.micro.f1)


def test_length_buckets_of_tags_count_tokens():
    y_true = [["B-A", "O", "B-B", "I-B", "I-B", "I-B", "O"], ["B-A"] + ["I-A"] * 11]
    y_pred = [["B-A", "O", "B-B", "I-B", "I-B", "I-B", "O"], ["O"] * 12]
    b = breakdown(y_true, y_pred, zero_division=0.0)
    assert b.unit == "tokens"
    assert b.names() == ["1", "4-5", "11+"]
    assert (b["4-5"].tp, b["4-5"].n_gold, b["4-5"].recall) == (1, 1, 1.0)
    assert (b["11+"].n_gold, b["11+"].n_pred, b["11+"].f1) == (1, 0, 0.0)
    with pytest.raises(KeyError, match="No bucket '2'"):
        b["2"]


def test_predictions_are_bucketed_by_their_own_length():
    # gold 3 tokens, prediction 2 tokens that overlap: threshold pairs them
    b = breakdown([["B-A", "I-A", "I-A", "O"]], [["B-A", "I-A", "O", "O"]], match="threshold",
                  t=0.5, zero_division=0.0)
    assert (b["3"].n_gold, b["3"].tp, b["3"].n_pred) == (1, 1, 0)
    assert (b["2"].n_pred, b["2"].tp_pred, b["2"].n_gold) == (1, 1, 0)
    assert (b["3"].recall, b["2"].precision) == (1.0, 1.0)


def test_length_buckets_of_spans_count_characters_and_zero_length():
    gold = [[(0, 3, "A"), (5, 5, "B"), (10, 40, "A")]]
    pred = [[(0, 3, "A"), (5, 5, "B"), (10, 70, "A")]]
    b = breakdown(gold, pred, zero_division=0.0)
    assert b.unit == "characters"
    assert b.names() == ["0", "1-5", "21-50", "51+"]
    assert (b["0"].tp, b["1-5"].tp, b["21-50"].n_gold, b["51+"].n_pred) == (1, 1, 1, 1)


def test_custom_edges_and_their_validation():
    b = breakdown([["B-A", "I-A", "O", "B-A"]], [["B-A", "I-A", "O", "B-A"]], edges=[2])
    assert b.names() == ["0-1", "2+"]
    for bad in ([], [0, 2], [3, 2], [1.5], [True]):
        with pytest.raises(OptionError, match="edges"):
            breakdown([["B-A"]], [["B-A"]], edges=bad)


def test_by_document_uses_ids_and_leaves_out_empty_documents():
    gold = {"d1": [(0, 4, "A")], "d2": [], "d3": [(0, 2, "B")]}
    pred = {"d1": [(0, 4, "A")], "d2": [], "d3": [(0, 2, "A")]}
    b = breakdown(gold, pred, by="document", zero_division=0.0)
    assert b.names() == ["d1", "d3"]
    assert (b["d1"].f1, b["d3"].f1) == (1.0, 0.0)
    assert_adds_up(b)


def test_by_sentence_for_tags():
    b = breakdown([["B-A"], ["O"], ["B-B"]], [["B-A"], ["O"], ["O"]], by="document",
                  zero_division=0.0)
    assert [(x.name, x.recall) for x in b.buckets] == [("0", 1.0), ("2", 0.0)]


def test_seen_and_unseen_with_tokens_and_with_texts():
    train = [["B-PER", "O"], ["B-LOC", "O"]]
    train_tokens = [["Anna", "ran"], ["Oslo", "is"]]
    y_true = [["B-PER", "O", "B-LOC"], ["B-PER", "O", "O"]]
    y_pred = [["B-PER", "O", "O"], ["B-PER", "O", "O"]]
    tokens = [["Anna", "in", "Oslo"], ["Bert", "ran", "."]]
    b = breakdown(y_true, y_pred, by="seen", train=train, texts=tokens,
                  train_texts=train_tokens, zero_division=0.0)
    assert (b["seen"].n_gold, b["seen"].tp, b["unseen"].n_gold, b["unseen"].tp) == (2, 1, 1, 1)
    assert_adds_up(b)
    docs_train = [nerscore.Document("t", [(0, 4, "PER")], text="Anna ran")]
    docs_test = [nerscore.Document("a", [(0, 4, "PER"), (8, 12, "PER")], text="Anna or  Bert")]
    b = breakdown(docs_test, docs_test, by="seen", train=docs_train)
    assert (b["seen"].n_gold, b["unseen"].n_gold) == (1, 1)


def test_seen_needs_train_and_surface_forms():
    with pytest.raises(OptionError, match="train="):
        breakdown([["B-A"]], [["B-A"]], by="seen")
    with pytest.raises(ValueError, match="training data"):
        breakdown([["B-A"]], [["B-A"]], by="seen", train=[["B-A"]])
    with pytest.raises(ValueError, match="test data"):
        breakdown([["B-A"]], [["B-A"]], by="seen", train=[["B-A"]], train_texts=[["x"]])


def test_seen_from_conll_files_reads_tokens():
    test = nerscore.read_conll("tests/data/diagnostics/test.conll").tags
    pred = nerscore.read_conll("tests/data/diagnostics/pred.conll").tags
    train = nerscore.read_conll("tests/data/diagnostics/train.conll").tags
    b = breakdown(test, pred, by="seen", train=train, zero_division=0.0)
    assert (b["seen"].n_gold, b["unseen"].n_gold) == (12, 4)


def test_refusals():
    with pytest.raises(OptionError, match="by"):
        breakdown([["B-A"]], [["B-A"]], by="size")
    with pytest.raises(OptionError, match="token"):
        breakdown([["B-A"]], [["B-A"]], match="token")
    gold, pred = random_pair(3)
    with pytest.raises(OptionError, match="kaggle"):
        breakdown(gold, pred, match="threshold", compat="kaggle", zero_division=0.0)


def test_undefined_scores_warn_by_default():
    with pytest.warns(UndefinedMetricWarning, match="'1'"):
        breakdown([["B-A", "O"]], [["O", "O"]])
    b = breakdown([["B-A", "O"]], [["O", "O"]], zero_division=math.nan)
    assert math.isnan(b["1"].precision)
    assert b.to_dict()["buckets"][0]["precision"] is None


def test_from_report_equals_breakdown():
    gold, pred = random_pair(7)
    for by in ("length", "document"):
        report = nerscore.evaluate(gold, pred, match="semeval", zero_division=0.0)
        a = breakdown_from_report(report, by=by)
        b = breakdown(gold, pred, by=by, match="semeval", zero_division=0.0)
        assert a.to_dict() == {**b.to_dict(), "notes": []}
    with pytest.raises(OptionError, match="seen"):
        breakdown_from_report(report, by="seen")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        token = nerscore.evaluate(gold, pred, match="token")
    with pytest.raises(OptionError, match="token"):
        breakdown_from_report(token)


def test_rendering_and_json():
    b = breakdown([["B-A", "I-A", "O", "B-B"]], [["B-A", "I-A", "O", "O"]], zero_division=0.0)
    text = render_breakdown(b, digits=3)
    assert text.splitlines()[0].startswith("entity length (tokens)")
    assert text.splitlines()[-1].split()[:4] == ["overall", "1.000", "0.500", "0.667"]
    md = render_breakdown(b, format="markdown")
    assert md.splitlines()[1].startswith("|---|---:|")
    assert md.splitlines()[-1].startswith("| overall |")
    assert json.loads(json.dumps(b.to_dict()))["overall"]["n_gold"] == 2
    with pytest.raises(OptionError, match="format"):
        render_breakdown(b, format="html")
