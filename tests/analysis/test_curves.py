"""Threshold curves against brute-force re-scoring at every threshold."""

import math

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import nerscore
from nerscore.analysis.curves import PRCurve, parse_objective, threshold_curve
from nerscore.errors import InputTypeError, OptionError

LABELS = ("A", "B")


@st.composite
def scored_corpus(draw, distinct=False):
    n_docs = draw(st.integers(1, 3))
    span = st.tuples(st.integers(0, 10), st.integers(0, 4), st.sampled_from(LABELS)).map(
        lambda t: (t[0], t[0] + t[1], t[2]))
    gold = {f"d{k}": draw(st.lists(span, max_size=5)) for k in range(n_docs)}
    pred = {}
    for k in range(n_docs):
        spans = draw(st.lists(span, max_size=6))
        # copies of gold spans, so that there are true positives and duplicates
        spans += draw(st.lists(st.sampled_from(gold[f"d{k}"]), max_size=3)) if gold[f"d{k}"] else []
        pred[f"d{k}"] = spans
    n = sum(map(len, pred.values()))
    if distinct:
        scores = draw(st.permutations(list(range(1, n + 1))))
        scores = [s / (n + 1) for s in scores]
    else:
        scores = draw(st.lists(st.sampled_from([0.1, 0.3, 0.5, 0.7, 0.9]), min_size=n,
                               max_size=n))
    it = iter(scores)
    return gold, {d: [(*s, next(it)) for s in spans] for d, spans in pred.items()}


def at_least(pred, t):
    """The predictions scored at least ``t``, highest first (the matcher pairs copies in row order)."""
    return {d: [s[:3] for s in sorted(spans, key=lambda s: -s[3]) if s[3] >= t]
            for d, spans in pred.items()}


def check_against(curve, gold, pred, counts_at):
    """Every point of the curve (micro and per label) equals ``counts_at(threshold)``."""
    for name, c in [("micro", curve.micro), *curve.per_label.items()]:
        for k, t in enumerate(c.threshold.tolist()):
            tp, n_pred, n_gold = counts_at(t, None if name == "micro" else name)
            assert (c.tp[k], c.n_pred[k], c.n_gold) == (tp, n_pred, n_gold), (name, t)


def exact_counts(gold, pred, **options):
    def counts_at(t, label):
        counts = nerscore.count_matches(gold, at_least(pred, t), match="exact", **options)
        rows = counts.to_dict()
        if label is None:
            return tuple(sum(r[k] for r in rows.values()) for k in ("tp", "n_pred", "n_gold"))
        r = rows.get(label, {"tp": 0, "n_pred": 0, "n_gold": 0})
        return r["tp"], r["n_pred"], r["n_gold"]
    return counts_at


@settings(max_examples=200, deadline=None)
@given(scored_corpus())
def test_exact_curve_equals_rescoring_at_every_threshold(corpus):
    gold, pred = corpus
    curve = threshold_curve(gold, pred)
    check_against(curve, gold, pred, exact_counts(gold, pred))
    scores = sorted({s[3] for spans in pred.values() for s in spans}, reverse=True)
    assert curve.micro.threshold.tolist() == scores


@settings(max_examples=100, deadline=None)
@given(scored_corpus())
def test_unlabeled_exact_curve_equals_rescoring_at_every_threshold(corpus):
    gold, pred = corpus
    curve = threshold_curve(gold, pred, labeled=False)
    check_against(curve, gold, pred, exact_counts(gold, pred, labeled=False))


def greedy_by_score(gold, pred, t):
    """Score-ordered greedy one-to-one matching written out pair by pair: the true positives."""
    gold_rows = [(d, s) for d, spans in gold.items() for s in spans]
    pred_rows = [(d, s) for d, spans in pred.items() for s in spans]

    def pos(rows, i):
        return (rows[i][1][0], rows[i][1][1], i)

    pairs = []
    for i, (dg, g) in enumerate(gold_rows):
        for j, (dp, p) in enumerate(pred_rows):
            if dg != dp or g[2] != p[2]:
                continue
            if g[0] == g[1] or p[0] == p[1]:
                if g[:2] == p[:2]:
                    pairs.append((-p[3], -1.0, -1.0, pos(gold_rows, i), pos(pred_rows, j), i, j))
                continue
            inter = max(0, min(g[1], p[1]) - max(g[0], p[0]))
            rg, rp = inter / (g[1] - g[0]), inter / (p[1] - p[0])
            if rg >= t and rp >= t:
                pairs.append((-p[3], -max(rg, rp), -min(rg, rp), pos(gold_rows, i),
                              pos(pred_rows, j), i, j))
    pairs.sort()
    used_g, used_p, tp = set(), set(), {}
    for *_, i, j in pairs:
        if i not in used_g and j not in used_p:
            used_g.add(i)
            used_p.add(j)
            tp[pred_rows[j][1][2]] = tp.get(pred_rows[j][1][2], 0) + 1
    return tp


def threshold_counts(gold, pred, t):
    def counts_at(cut, label):
        kept = {d: [s for s in spans if s[3] >= cut] for d, spans in pred.items()}
        tp = greedy_by_score(gold, kept, t)
        if label is None:
            return (sum(tp.values()), sum(map(len, kept.values())),
                    sum(map(len, gold.values())))
        return (tp.get(label, 0), sum(s[2] == label for v in kept.values() for s in v),
                sum(s[2] == label for v in gold.values() for s in v))
    return counts_at


@settings(max_examples=150, deadline=None)
@given(scored_corpus(), st.sampled_from([0.3, 0.5, 1.0]))
def test_threshold_curve_equals_greedy_rescoring_at_every_threshold(corpus, t):
    gold, pred = corpus
    curve = threshold_curve(gold, pred, match="threshold", t=t)
    check_against(curve, gold, pred, threshold_counts(gold, pred, t))


@settings(max_examples=100, deadline=None)
@given(scored_corpus(), st.sampled_from([0.3, 0.5]))
def test_with_one_score_the_threshold_curve_is_the_matchers_own_assignment(corpus, t):
    gold, pred = corpus
    flat = {d: [(*s[:3], 0.5) for s in spans] for d, spans in pred.items()}
    curve = threshold_curve(gold, flat, match="threshold", t=t)
    counts = nerscore.count_matches(gold, at_least(flat, 0.5), match="threshold", t=t)
    if len(curve.micro):
        assert curve.micro.tp[0] == sum(r["tp"] for r in counts.to_dict().values())


def test_where_score_order_and_the_matchers_assignment_differ():
    # the matcher pairs the identical [0, 4) spans, and [0, 6) then qualifies with nothing;
    # by score, [0, 6) claims gold [0, 4) and [0, 4) claims gold [0, 2)
    gold = {"d": [(0, 2, "A"), (0, 4, "A")]}
    pred = {"d": [(0, 4, "A", 0.4), (0, 6, "A", 0.8)]}
    curve = threshold_curve(gold, pred, match="threshold", t=0.5)
    assert curve.micro.tp.tolist() == [1, 2]
    assert nerscore.count_matches(gold, at_least(pred, 0.0), match="threshold").to_dict()[
        "A"]["tp"] == 1


@settings(max_examples=100, deadline=None)
@given(scored_corpus())
def test_average_precision_is_scikit_learns_with_recall_over_all_gold(corpus):
    metrics = pytest.importorskip("sklearn.metrics")
    gold, pred = corpus
    curve = threshold_curve(gold, pred)
    from nerscore.analysis.curves import scored_predictions
    from nerscore.values.decoding import Decoding

    ranked, _, _ = scored_predictions(gold, pred, match="exact", labels=None, decoding=Decoding(),
                                      options={})
    n_gold = int(ranked.n_gold.sum())
    found = int(ranked.correct.sum())
    if found == 0 or n_gold == 0:
        return
    ap = metrics.average_precision_score(ranked.correct, ranked.score)
    assert math.isclose(curve.micro.average_precision, ap * found / n_gold, rel_tol=1e-12)


def test_recall_counts_gold_that_is_never_predicted():
    gold = {"d": [(0, 4, "A"), (5, 9, "A"), (10, 12, "B")]}
    pred = {"d": [(0, 4, "A", 0.9)]}
    curve = threshold_curve(gold, pred)
    assert curve.micro.recall.tolist() == [1 / 3]
    assert curve.per_label["B"].n_gold == 1
    assert len(curve.per_label["B"]) == 0
    assert curve.micro.average_precision == pytest.approx(1 / 3)


def test_a_huge_beta_gives_the_recall_at_every_threshold():
    gold = {"d": [(0, 4, "A"), (5, 9, "A"), (10, 12, "B")]}
    pred = {"d": [(0, 4, "A", 0.9), (20, 22, "A", 0.5), (10, 12, "B", 0.2)]}
    curve = threshold_curve(gold, pred, beta=1e308)
    assert curve.micro.fbeta.tolist() == curve.micro.recall.tolist() == [1 / 3, 1 / 3, 2 / 3]


def test_labels_restrict_the_curve_and_name_the_per_label_curves():
    gold = {"d": [(0, 4, "A"), (10, 12, "B")]}
    pred = {"d": [(0, 4, "A", 0.9), (10, 12, "B", 0.5)]}
    curve = threshold_curve(gold, pred, labels=["B", "C"])
    assert list(curve.per_label) == ["B", "C"]
    assert curve.micro.threshold.tolist() == [0.5]
    assert curve.micro.n_gold == 1


@pytest.mark.parametrize("match", ["exact", "overlap"])
def test_label_operations_apply_to_the_curve_as_to_a_score(match):
    gold = {"d": [(0, 4, "A"), (10, 12, "B"), (20, 24, "C")]}
    pred = {"d": [(0, 4, "A", 0.9), (10, 12, "B", 0.5), (20, 24, "X", 0.7)]}
    curve = threshold_curve(gold, pred, match=match, drop=["B"], labels_map={"X": "C"})
    assert sorted(curve.per_label) == ["A", "C"]
    assert curve.micro.threshold.tolist() == [0.9, 0.7]
    assert curve.micro.recall.tolist() == [0.5, 1.0]
    cal = nerscore.calibration(gold, pred, match=match, keep=["A"])
    assert list(cal.per_label) == ["A"]


def test_objectives_choose_the_threshold():
    c = PRCurve(np.array([0.9, 0.8, 0.5, 0.2]), np.array([1, 2, 3, 3]),
                np.array([1, 2, 4, 6]), 4)
    assert c.choose("f1").threshold == 0.5
    assert c.choose("precision@0.5").threshold == 0.8
    assert c.choose("recall@0.8").threshold == 0.8
    assert c.choose("recall@0.5").threshold == 0.5
    with pytest.raises(OptionError, match=r"No threshold reaches recall 0.9 \(objective "
                                          r"'precision@0.9'\); the highest recall of any "
                                          r"threshold is 0.7500"):
        c.choose("precision@0.9")
    assert c.at(0.85).n_pred == 1
    assert c.at(0.1).n_pred == 6
    assert math.isnan(c.at(0.95).precision)
    assert c.at(0.95).recall == 0.0


@pytest.mark.parametrize("bad", ["f2", "precision@", "recall@1.5", "precision0.5"])
def test_unknown_objectives_are_refused(bad):
    with pytest.raises(OptionError, match="Expected `objective` to be 'f1', 'fbeta'"):
        parse_objective(bad)


def test_unscored_predictions_are_refused():
    with pytest.raises(InputTypeError, match="1 of the 2 predictions have none"):
        threshold_curve({"d": [(0, 1, "A")]}, {"d": [(0, 1, "A", 0.5), (2, 3, "A")]})


def test_the_unscored_error_names_the_first_unscored_prediction():
    gold = {"d1": [(0, 1, "A")], "d2": []}
    pred = {"d1": [(0, 1, "A", 0.5)], "d2": [(7, 9, "B"), (2, 3, "A")]}
    where = r"2 of the 3 predictions have none \(the first is \(2, 3, 'A'\) of document 'd2'\)"
    with pytest.raises(InputTypeError, match=where):
        threshold_curve(gold, pred)
    with pytest.raises(InputTypeError, match=where):
        nerscore.calibration(gold, pred)
    with pytest.raises(InputTypeError, match=r"no score \(the first is \(2, 3, 'A'\) of "
                                             r"document 'd2'\)"):
        nerscore.evaluate(gold, pred, min_score=0.5)


def test_matchers_without_a_score_ordered_form_are_refused():
    with pytest.raises(OptionError, match="support match='exact', 'threshold', 'overlap' and"):
        threshold_curve({"d": [(0, 1, "A")]}, {"d": [(0, 1, "A", 0.5)]}, match="mention")
    with pytest.raises(OptionError, match="Expected `match` to be one of 'exact'"):
        threshold_curve({"d": [(0, 1, "A")]}, {"d": [(0, 1, "A", 0.5)]}, match="exactly")


def test_to_dict_and_rows():
    curve = threshold_curve({"d": [(0, 4, "A")]}, {"d": [(0, 4, "A", 0.9), (5, 6, "A", 0.1)]})
    d = curve.to_dict()
    assert d["micro"]["best"]["threshold"] == 0.9
    assert [r["threshold"] for r in curve.rows()] == [0.9, 0.1, 0.9, 0.1]
