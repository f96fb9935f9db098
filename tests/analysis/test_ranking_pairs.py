"""Overlap and SemEval curves against brute-force score-ordered matching at every threshold."""

import math

import pytest
from hypothesis import given, settings, strategies as st

import nerscore
from nerscore.analysis.curves import threshold_curve
from nerscore.errors import OptionError

from .test_curves import scored_corpus


def _points(curve):
    return [("micro", curve.micro), *curve.per_label.items()]


def check_against(curve, counts_at):
    """Every point of every curve equals ``counts_at(threshold)`` (credit up to rounding)."""
    assert curve.micro.n_gold == counts_at(math.inf, None)[2]
    for name, c in _points(curve):
        for k, t in enumerate(c.threshold.tolist()):
            tp, n_pred, n_gold = counts_at(t, None if name == "micro" else name)
            assert (c.n_pred[k], c.n_gold) == (n_pred, n_gold), (name, t)
            assert c.tp[k] == pytest.approx(tp, rel=1e-12, abs=1e-12), (name, t)


def rows(side):
    return [(d, s) for d, spans in side.items() for s in spans]


def greedy(pairs):
    """Take the pairs, best first, whose gold and prediction are both still free."""
    used_g, used_p, out = set(), set(), []
    for *_, i, j, credit in sorted(pairs):
        if i not in used_g and j not in used_p:
            used_g.add(i)
            used_p.add(j)
            out.append((i, j, credit))
    return out


def overlap_pairs(gold_rows, pred_rows, s):
    pairs = []
    for i, (dg, g) in enumerate(gold_rows):
        for j, (dp, p) in enumerate(pred_rows):
            if dg != dp or g[2] != p[2]:
                continue
            if g[:2] == p[:2]:
                credit = 1.0
            elif g[0] == g[1] or p[0] == p[1]:
                continue
            else:
                inter = min(g[1], p[1]) - max(g[0], p[0])
                if inter <= 0:
                    continue
                credit = s * inter / max(g[1] - g[0], p[1] - p[0])
            if credit > 0:
                pairs.append((-p[3], -credit, (g[0], g[1], i), (p[0], p[1], j), i, j, credit))
    return pairs


def semeval_pairs(gold_rows, pred_rows, schema):
    pairs = []
    for i, (dg, g) in enumerate(gold_rows):
        for j, (dp, p) in enumerate(pred_rows):
            if dg != dp:
                continue
            bounds = g[:2] == p[:2]
            inter = min(g[1], p[1]) - max(g[0], p[0])
            if not (bounds and g[0] == g[1]) and inter <= 0:
                continue
            if (g[0] == g[1] or p[0] == p[1]) and not bounds:
                continue
            label = g[2] == p[2]
            good = {"strict": bounds and label, "exact": bounds, "partial": bounds,
                    "type": label}[schema]
            credit = (1.0 if bounds else 0.5) if schema == "partial" else float(good)
            pairs.append((-p[3], not good, -inter, g[0], p[0], not label, g[1], p[1], g[2],
                          p[2], i, j, credit))
    return pairs


def brute_force(gold, pred, make_pairs, *, by_gold_label):
    """counts_at(t, label): re-match the predictions scored at least t, pair by pair.

    With ``by_gold_label`` a paired prediction counts under its gold entity's label.
    """
    gold_rows = rows(gold)

    def counts_at(t, label):
        kept = [(d, p) for d, p in rows(pred) if p[3] >= t]
        under = [p[2] for _, p in kept]
        tp = {}
        for i, j, credit in greedy(make_pairs(gold_rows, kept)):
            if by_gold_label:
                under[j] = gold_rows[i][1][2]
            tp[under[j]] = tp.get(under[j], 0.0) + credit
        if label is None:
            return sum(tp.values()), len(kept), len(gold_rows)
        return (tp.get(label, 0.0), under.count(label),
                sum(g[2] == label for _, g in gold_rows))
    return counts_at


@settings(max_examples=40, deadline=None)
@given(scored_corpus(), st.sampled_from([0.0, 0.5, 0.75, 1.0]))
def test_overlap_curve_equals_greedy_rescoring_at_every_threshold(corpus, s):
    gold, pred = corpus
    curve = threshold_curve(gold, pred, match="overlap", s=s)
    check_against(curve, brute_force(gold, pred, lambda g, p: overlap_pairs(g, p, s),
                                     by_gold_label=False))


@settings(max_examples=40, deadline=None)
@given(scored_corpus(), st.sampled_from(["strict", "exact", "partial", "type"]))
def test_semeval_curve_equals_greedy_rescoring_at_every_threshold(corpus, schema):
    gold, pred = corpus
    curve = threshold_curve(gold, pred, match="semeval", schema=schema)
    check_against(curve, brute_force(gold, pred, lambda g, p: semeval_pairs(g, p, schema),
                                     by_gold_label=True))


@settings(max_examples=20, deadline=None)
@given(scored_corpus())
def test_with_one_score_the_semeval_curve_is_the_matchers_own_assignment(corpus):
    gold, pred = corpus
    flat = {d: [(*s[:3], 0.5) for s in spans] for d, spans in pred.items()}
    report = nerscore.evaluate(gold, {d: [s[:3] for s in v] for d, v in flat.items()},
                               match="semeval", zero_division=0)
    for schema, table in report.extra["schemas"].items():
        curve = threshold_curve(gold, flat, match="semeval", schema=schema)
        row = table["overall"]
        credit = row["correct"] + 0.5 * row["partial"]
        assert (curve.micro.tp.tolist() or [0]) == [credit], schema
        for label, lrow in table["labels"].items():
            c = curve.per_label[label]
            assert (c.tp.tolist() or [0]) == [lrow["correct"] + 0.5 * lrow["partial"]]
            assert (c.n_pred.tolist() or [0]) == [lrow["actual"]]


def test_without_partial_credit_the_overlap_curve_is_the_exact_curve():
    gold = {"d": [(0, 4, "A"), (6, 9, "A")]}
    pred = {"d": [(0, 3, "A", 0.9), (0, 4, "A", 0.5), (6, 9, "A", 0.4), (6, 8, "A", 0.3)]}
    flat = threshold_curve(gold, pred, match="overlap", s=0.0)
    exact = threshold_curve(gold, pred)
    assert flat.micro.tp.tolist() == exact.micro.tp.tolist() == [0, 1, 2, 2]
    assert threshold_curve(gold, pred, match="overlap", s=1.0).micro.tp.tolist() == [
        0.75, 0.75, 1.75, 1.75]


def test_where_score_order_and_the_overlap_matchers_walk_differ():
    # one score: the curve's pair is the better overlap, the matcher's walk takes the first
    gold = {"d": [(0, 10, "A")]}
    pred = {"d": [(0, 3, "A", 0.5), (3, 10, "A", 0.5)]}
    assert threshold_curve(gold, pred, match="overlap", s=1.0).micro.tp.tolist() == [0.7]
    counts = nerscore.count_matches(gold, {"d": [(0, 3, "A"), (3, 10, "A")]}, match="overlap",
                                    s=1.0)
    assert counts.to_dict()["A"]["tp"] == pytest.approx(0.3)
    # by score: the later span, scored higher, claims the gold entity first
    pred = {"d": [(0, 3, "A", 0.2), (3, 10, "A", 0.9)]}
    assert threshold_curve(gold, pred, match="overlap", s=1.0).micro.tp.tolist() == [0.7, 0.7]


def test_where_score_order_and_the_semeval_matcher_differ():
    # the wrong label scored higher takes the gold entity: INC, then the right one is SPU
    gold = {"d": [(0, 4, "PER")]}
    pred = {"d": [(0, 4, "LOC", 0.9), (0, 4, "PER", 0.6)]}
    curve = threshold_curve(gold, pred, match="semeval")
    assert curve.micro.tp.tolist() == [0, 0]
    assert nerscore.evaluate(gold, {"d": [(0, 4, "LOC"), (0, 4, "PER")]},
                             match="semeval", zero_division=0).micro.tp == 1
    assert threshold_curve(gold, pred, match="semeval", schema="exact").micro.tp.tolist() == [
        1, 1]


def test_partial_credit_reaches_calibration():
    gold = {"d": [(0, 10, "A")]}
    pred = {"d": [(0, 5, "A", 0.9), (20, 25, "A", 0.1)]}
    cal = nerscore.calibration(gold, pred, match="overlap", s=1.0, bins=2)
    assert [(b.count, b.correct, b.accuracy) for b in cal.overall.bins] == [
        (1, 0.0, 0.0), (1, 0.5, 0.5)]
    cal = nerscore.calibration(gold, pred, match="semeval", schema="partial", bins=2)
    assert [b.correct for b in cal.overall.bins] == [0.0, 0.5]


@pytest.mark.parametrize(("match", "options", "message"), [
    ("overlap", {"compat": "loio"}, "compat='loio' has no score-ordered form"),
    ("overlap", {"assignment": "optimal"}, "assignment='optimal' has no score-ordered form"),
    ("overlap", {"overlapping": "merge"}, "overlapping='merge' has no score-ordered form"),
    ("semeval", {"compat": "nervaluate"}, "compat='nervaluate' has no score-ordered form"),
    ("semeval", {"schema": "ent_type"}, "Expected `schema` to be one of 'strict'"),
    ("exact", {"schema": "strict"}, "Unknown keyword 'schema'"),
    ("token", {}, "support match='exact', 'threshold', 'overlap' and 'semeval'"),
])
def test_options_without_a_score_ordered_form_are_refused(match, options, message):
    with pytest.raises(OptionError, match=message):
        threshold_curve({"d": [(0, 1, "A")]}, {"d": [(0, 1, "A", 0.5)]}, match=match,
                        **options)


def test_overlapping_candidates_are_accepted():
    gold = {"d": [(0, 4, "A")]}
    pred = {"d": [(0, 4, "A", 0.3), (0, 2, "A", 0.8), (1, 4, "A", 0.6)]}
    curve = threshold_curve(gold, pred, match="overlap", s=1.0)
    assert curve.micro.tp.tolist() == [0.5, 0.5, 0.5]
