"""Tests of the ``threshold`` matcher (docs/matchers/threshold.md) and its Feedback Prize compat mode."""

from __future__ import annotations

import importlib
import math
from collections import defaultdict

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from tests.conftest import one_label, span_cols

from nerscore.errors import InvalidSpanError
from nerscore.matching import get_matcher
from nerscore.matching.exact import match_exact
from nerscore.matching.threshold import match_threshold
from nerscore.values.spans import EntityColumns

# ---------------------------------------------------------------- helpers


cols = span_cols
one = one_label


def tp_fp_fn(res):
    t = res.counts.total()
    return t.tp, t.fp, t.fn


def pairs_of(res):
    al = res.alignment
    return sorted(zip(al.pairs_gold.tolist(), al.pairs_pred.tolist(), strict=True))


def reference_default(gold, pred, t):
    """Every qualifying pair, sorted by the documented priority, taken greedily."""
    cand = []
    for i, (gd, gs, ge, gl) in enumerate(gold):
        for j, (pd, ps, pe, pl) in enumerate(pred):
            if (gd, gl) != (pd, pl):
                continue
            if gs == ge or ps == pe:
                if (gs, ge) == (ps, pe):
                    cand.append((-1.0, -1.0, (gs, ge, i), (ps, pe, j), i, j))
                continue
            inter = min(ge, pe) - max(gs, ps)
            if inter <= 0:
                continue
            rg, rp = inter / (ge - gs), inter / (pe - ps)
            if rg >= t and rp >= t:
                cand.append((-max(rg, rp), -min(rg, rp), (gs, ge, i), (ps, pe, j), i, j))
    cand.sort()
    used_g, used_p, out = set(), set(), []
    for *_, i, j in cand:
        if i not in used_g and j not in used_p:
            used_g.add(i)
            used_p.add(j)
            out.append((i, j))
    return sorted(out)


def reference_kaggle(gold, pred, t=0.5):
    """The reference notebook's steps on plain Python rows.

    Per gold label: outer join of predictions and gold on the document; pairs
    with both ratios >= t are potential TPs; sorted by max ratio (ties: the
    prediction's input order), the first prediction of each (document, gold
    extent) group is a TP; missing ids on either side of the join are one
    distinct value each.
    """
    out = {}
    for lab in sorted({g[3] for g in gold}):
        G = [(i, d, frozenset(range(s, e))) for i, (d, s, e, x) in enumerate(gold) if x == lab]
        P = [(j, d, frozenset(range(s, e))) for j, (d, s, e, x) in enumerate(pred) if x == lab]
        rows = []
        for d in {g[1] for g in G} | {p[1] for p in P}:
            gs = [g for g in G if g[1] == d]
            ps = [p for p in P if p[1] == d]
            if gs and ps:
                rows += [(p[0], g[0], d, p[2], g[2]) for p in ps for g in gs]
            elif gs:
                rows += [(None, g[0], d, None, g[2]) for g in gs]
            else:
                rows += [(p[0], None, d, p[2], None) for p in ps]
        potential = []
        for pid, gid, d, pset, gset in rows:
            if pid is None or gid is None:
                continue
            inter = len(pset & gset)
            o1, o2 = inter / len(gset), inter / len(pset)
            if o1 >= t and o2 >= t:
                potential.append((max(o1, o2), pid, gid, d, gset))
        potential.sort(key=lambda r: (-r[0], r[1]))
        chosen = {}
        for _, pid, _, d, gset in potential:
            chosen.setdefault((d, gset), pid)
        tp_ids = list(chosen.values())
        fp = sum(1 for p in {r[0] for r in rows} if p is None or p not in tp_ids)
        matched = {r[2] for r in potential}
        fn = sum(1 for g in {r[1] for r in rows} if g is None or g not in matched)
        tp = len(tp_ids)
        out[lab] = (tp, fp, fn, tp / (tp + 0.5 * (fp + fn)))
    return out


span_st = st.tuples(
    st.integers(0, 2), st.integers(0, 20), st.integers(0, 10), st.sampled_from("AB")
).map(lambda t: (t[0], t[1], t[1] + t[2], t[3]))
side_st = st.lists(span_st, max_size=10)
positive_st = st.lists(span_st.filter(lambda s: s[1] < s[2]), max_size=10)
t_st = st.sampled_from([0.1, 0.25, 1 / 3, 0.5, 0.6, 0.75, 1.0])


# ---------------------------------------------------------------- docs/matchers/threshold.md examples


@pytest.mark.parametrize(
    ("gold", "pred", "tp", "fp", "fn"),
    [
        ([(0, 10)], [(0, 5)], 1, 0, 0),
        ([(0, 10)], [(5, 15)], 1, 0, 0),
        ([(0, 10)], [(0, 25)], 0, 1, 1),
        ([(0, 10)], [(0, 9), (1, 10)], 1, 1, 0),
        ([(0, 5), (5, 10)], [(0, 10)], 1, 0, 1),
    ],
)
def test_spec_examples(gold, pred, tp, fp, fn):
    res = match_threshold(cols(one(gold)), cols(one(pred)), t=0.5)
    assert tp_fp_fn(res) == (tp, fp, fn)


def test_tie_breaks():
    # equal max and min ratios: the earlier prediction wins ...
    res = match_threshold(cols(one([(0, 10)])), cols(one([(1, 10), (0, 9)])))
    assert pairs_of(res) == [(0, 1)]
    # ... and the earlier gold span
    res = match_threshold(cols(one([(5, 10), (0, 5)])), cols(one([(0, 10)])))
    assert pairs_of(res) == [(1, 0)]
    assert res.alignment.missed.tolist() == [0]
    # the larger max ratio beats the earlier span
    res = match_threshold(cols(one([(0, 10)])), cols(one([(0, 6), (2, 10)])))
    assert pairs_of(res) == [(0, 1)]
    # with equal max ratios the larger min ratio wins: (0, 8) has 8/10, (0, 16) 10/16
    res = match_threshold(cols(one([(0, 10)])), cols(one([(0, 16), (0, 8)])))
    assert pairs_of(res) == [(0, 1)]


def test_threshold_is_inclusive_and_respected():
    g, p = cols(one([(0, 10)])), cols(one([(0, 5)]))
    assert tp_fp_fn(match_threshold(g, p, t=0.5))[0] == 1
    assert tp_fp_fn(match_threshold(g, p, t=0.51))[0] == 0
    assert tp_fp_fn(match_threshold(g, cols(one([(0, 3)])), t=0.3))[0] == 1


def test_labels_and_documents_separate():
    gold = cols([(0, 0, 10, "A"), (1, 0, 10, "A")])
    pred = cols([(0, 0, 10, "B"), (2, 0, 10, "A")])
    assert tp_fp_fn(match_threshold(gold, pred)) == (0, 2, 2)


def test_zero_length_only_identical():
    gold = cols(one([(5, 5), (5, 5), (0, 10)]))
    pred = cols(one([(5, 5), (3, 3), (0, 10)]))
    res = match_threshold(gold, pred)
    assert tp_fp_fn(res) == (2, 1, 1)
    assert tp_fp_fn(match_threshold(cols(one([(0, 10)])), cols(one([(4, 4)])))) == (0, 1, 1)


def test_empty_inputs():
    e = EntityColumns.empty(("A",))
    assert tp_fp_fn(match_threshold(e, e)) == (0, 0, 0)
    assert tp_fp_fn(match_threshold(cols(one([(0, 3)])), e)) == (0, 0, 1)
    res = match_threshold(e, cols(one([(0, 3)])), compat="kaggle")
    assert math.isnan(res.extra["kaggle"]["score"])
    assert res.extra["kaggle"]["labels"] == {}


def test_registered_and_extra():
    assert get_matcher("threshold") is importlib.import_module("nerscore.matching.threshold").MATCHER
    assert match_threshold(cols(one([(0, 1)])), cols(one([(0, 1)])), t=0.7).extra == {"t": 0.7}


def test_huge_offsets():
    big = 2**61
    g = [(d, big + 10 * d, big + 10 * d + 8, "A") for d in (3, 1, 0, 2)]
    p = [(d, big + 10 * d + 4, big + 10 * d + 9, "A") for d in (2, 0, 1, 3)]
    res = match_threshold(cols(g), cols(p))
    assert tp_fp_fn(res) == (4, 0, 0)


# ---------------------------------------------------------------- options


@pytest.mark.parametrize("t", [0, 0.0, -0.5, 1.01, float("nan"), "0.5", None, False])
def test_bad_t(t):
    with pytest.raises(ValueError, match=r"Expected `t` to be a number in \(0, 1\]"):
        match_threshold(cols(one([(0, 1)])), cols(one([(0, 1)])), t=t)


def test_bad_compat():
    with pytest.raises(ValueError, match="Expected `compat` to be one of 'kaggle' or None; got"):
        match_threshold(cols(one([(0, 1)])), cols(one([(0, 1)])), compat="feedback")
    res = match_threshold(cols(one([(0, 1)])), cols(one([(0, 1)])), compat="Kaggle")
    assert res.extra["compat"] == "kaggle"


# ---------------------------------------------------------------- compat="kaggle"


def kaggle(gold, pred):
    res = match_threshold(cols(gold), cols(pred), compat="kaggle")
    return res, res.extra["kaggle"]


def test_kaggle_one_prediction_serves_two_gold():
    res, k = kaggle(one([(0, 5), (5, 10)]), one([(0, 10)]))
    assert k["labels"]["A"] == {"tp": 2, "fp": 0, "fn": 0, "f1": 1.0}
    assert k["score"] == 1.0
    c = res.counts["A"]
    assert (c.tp, c.fp, c.fn) == (2, 0, 0)


def test_kaggle_gold_without_prediction_adds_one_fp():
    gold = one([(0, 5)], doc=0) + one([(0, 5), (6, 10), (11, 15)], doc=1)
    res, k = kaggle(gold, one([(0, 5)], doc=0))
    row = k["labels"]["A"]
    assert (row["tp"], row["fp"], row["fn"]) == (1, 1, 3)
    assert round(row["f1"], 4) == 0.3333
    c = res.counts["A"]
    assert (c.tp, c.fp, c.fn) == (1, 1, 3)


def test_kaggle_prediction_without_gold_adds_one_fn():
    _, k = kaggle(one([(0, 5)], doc=0), one([(0, 5)], doc=0) + one([(0, 5)], doc=1))
    row = k["labels"]["A"]
    assert (row["tp"], row["fp"], row["fn"], row["f1"]) == (1, 1, 1, 0.5)


def test_kaggle_one_extra_fp_for_many_documents():
    gold = one([(0, 5)], doc=0) + one([(0, 5)], doc=1) + one([(0, 5)], doc=2)
    _, k = kaggle(gold, one([(0, 5)], doc=0))
    row = k["labels"]["A"]
    assert (row["tp"], row["fp"], row["fn"]) == (1, 1, 2)


def test_kaggle_identical_gold_extents_select_as_one():
    res, k = kaggle(one([(0, 10), (0, 10)]), one([(0, 10)]))
    assert k["labels"]["A"] == {"tp": 1, "fp": 0, "fn": 0, "f1": 1.0}
    al = res.alignment
    assert pairs_of(res) == [(0, 0), (1, 0)]
    assert al.credit.sum() == 1.0


def test_kaggle_largest_max_ratio_then_input_order():
    # gold (0, 10): (0, 9) and (1, 10) tie on max ratio -> the earlier row (1, 10) wins
    res, k = kaggle(one([(0, 10)]), one([(1, 10), (0, 9), (0, 6)]))
    assert pairs_of(res) == [(0, 0)]
    assert k["labels"]["A"]["fp"] == 2


def test_kaggle_scores_gold_labels_only():
    gold = [(0, 0, 5, "A"), (0, 10, 15, "B")]
    pred = [(0, 0, 5, "A"), (0, 10, 15, "C"), (0, 20, 25, "B")]
    res, k = kaggle(gold, pred)
    assert set(k["labels"]) == {"A", "B"}
    assert k["labels"]["B"] == {"tp": 0, "fp": 1, "fn": 1, "f1": 0.0}
    assert k["score"] == 0.5
    c = res.counts["C"]
    assert (c.tp, c.n_pred, c.n_gold) == (0, 1, 0)


def test_kaggle_rejects_zero_length():
    with pytest.raises(InvalidSpanError, match=r"zero-length .*\[4, 4\) A in document 0"):
        match_threshold(cols(one([(0, 5)])), cols(one([(4, 4)])), compat="kaggle")


@settings(max_examples=250, deadline=None)
@given(positive_st, positive_st)
def test_kaggle_equals_reference_steps(gold, pred):
    labels = ("A", "B")
    res = match_threshold(cols(gold, labels), cols(pred, labels), compat="kaggle")
    want = reference_kaggle(gold, pred)
    k = res.extra["kaggle"]
    assert set(k["labels"]) == set(want)
    for lab, (tp, fp, fn, f1) in want.items():
        row = k["labels"][lab]
        assert (row["tp"], row["fp"], row["fn"]) == (tp, fp, fn)
        assert row["f1"] == pytest.approx(f1)
        c = res.counts[lab]
        assert (c.tp, c.fp, c.fn) == (tp, fp, fn)
    if want:
        assert k["score"] == pytest.approx(sum(v[3] for v in want.values()) / len(want))
    assert res.alignment.credit.sum() == res.counts.total().tp


# ---------------------------------------------------------------- properties (default mode)


@settings(max_examples=300, deadline=None)
@given(side_st, side_st, t_st)
def test_default_equals_sequential_greedy(gold, pred, t):
    labels = ("A", "B")
    res = match_threshold(cols(gold, labels), cols(pred, labels), t=t)
    want = reference_default(gold, pred, t)
    assert pairs_of(res) == want
    assert res.counts.total().tp == len(want)
    assert sorted(res.alignment.missed.tolist()) == sorted(
        set(range(len(gold))) - {i for i, _ in want}
    )
    assert sorted(res.alignment.spurious.tolist()) == sorted(
        set(range(len(pred))) - {j for _, j in want}
    )


# few distinct extents, so that identical spans (on both sides and within one
# side), nested spans and zero-length spans are common
dense_span_st = st.tuples(
    st.integers(0, 1), st.integers(0, 6), st.integers(0, 4), st.sampled_from("AB")
).map(lambda t: (t[0], t[1], t[1] + t[2], t[3]))


@st.composite
def duplicated_sides(draw):
    gold = draw(st.lists(dense_span_st, max_size=14))
    copies = draw(st.lists(st.sampled_from(gold), max_size=10)) if gold else []
    pred = draw(st.permutations(copies + draw(st.lists(dense_span_st, max_size=8))))
    return gold, pred


@settings(max_examples=300, deadline=None)
@given(duplicated_sides(), t_st)
def test_identical_spans_first_equals_sequential_greedy(sides, t):
    # identical spans are paired before the candidate search: the pairs
    # (which duplicate goes with which) must still be the greedy's
    gold, pred = sides
    labels = ("A", "B")
    res = match_threshold(cols(gold, labels), cols(pred, labels), t=t)
    want = reference_default(gold, pred, t)
    assert pairs_of(res) == want
    al = res.alignment
    assert len(al.pairs_gold) + len(al.missed) == len(gold)
    assert len(al.pairs_pred) + len(al.spurious) == len(pred)
    assert sorted(al.missed.tolist() + al.pairs_gold.tolist()) == list(range(len(gold)))
    assert sorted(al.spurious.tolist() + al.pairs_pred.tolist()) == list(range(len(pred)))
    assert al.credit.tolist() == [1.0] * len(want)
    counts = res.counts
    for lab in labels:
        c = counts[lab]
        assert c.tp == sum(1 for i, _ in want if gold[i][3] == lab)
        assert c.n_gold == sum(1 for g in gold if g[3] == lab)
        assert c.n_pred == sum(1 for p in pred if p[3] == lab)


@settings(max_examples=150, deadline=None)
@given(side_st, side_st)
def test_t1_is_exact(gold, pred):
    labels = ("A", "B")
    g, p = cols(gold, labels), cols(pred, labels)
    assert match_threshold(g, p, t=1.0).counts == match_exact(g, p).counts


@settings(max_examples=100, deadline=None)
@given(side_st, t_st)
def test_identical_inputs_are_perfect(spans, t):
    g = cols(spans, ("A", "B"))
    c = match_threshold(g, g, t=t).counts.total()
    assert c.tp == c.n_pred == c.n_gold == len(spans)


@settings(max_examples=150, deadline=None)
@given(side_st, side_st, t_st, st.randoms())
def test_order_of_spans_and_documents_is_irrelevant(gold, pred, t, rnd):
    labels = ("A", "B")
    base = match_threshold(cols(gold, labels), cols(pred, labels), t=t)
    docs = [0, 1, 2]
    rnd.shuffle(docs)
    g2 = [(docs[d], s, e, lab) for d, s, e, lab in gold]
    p2 = [(docs[d], s, e, lab) for d, s, e, lab in pred]
    rnd.shuffle(g2)
    rnd.shuffle(p2)
    assert match_threshold(cols(g2, labels), cols(p2, labels), t=t).counts == base.counts


def test_many_conflicts_against_sequential_greedy():
    rng = np.random.default_rng(3)
    gold, pred = [], []
    for d in range(60):
        for _ in range(int(rng.integers(0, 9))):
            s = int(rng.integers(0, 40))
            gold.append((d, s, s + int(rng.integers(1, 12)), "AB"[int(rng.integers(2))]))
        for _ in range(int(rng.integers(0, 9))):
            s = int(rng.integers(0, 40))
            pred.append((d, s, s + int(rng.integers(1, 12)), "AB"[int(rng.integers(2))]))
    labels = ("A", "B")
    for t in (0.2, 0.5):
        res = match_threshold(cols(gold, labels), cols(pred, labels), t=t)
        assert pairs_of(res) == reference_default(gold, pred, t)
    per_label = defaultdict(int)
    for i, _ in reference_default(gold, pred, 0.2):
        per_label[gold[i][3]] += 1
    res = match_threshold(cols(gold, labels), cols(pred, labels), t=0.2)
    assert {lab: res.counts[lab].exact for lab in labels} == dict(per_label)


def test_through_count_matches():
    from nerscore.scoring.counting import count_matches

    y_true = [["B-PER", "I-PER", "I-PER", "O", "B-LOC"], ["B-ORG", "I-ORG", "I-ORG"]]
    y_pred = [["B-PER", "I-PER", "O", "O", "B-LOC"], ["O", "O", "B-ORG"]]
    got = count_matches(y_true, y_pred, match="threshold", t=0.5).to_dict()
    assert {lab: row["tp"] for lab, row in got.items()} == {"LOC": 1, "ORG": 0, "PER": 1}


def test_kaggle_says_what_the_outer_join_added():
    import nerscore

    gold = {"a": [(0, 5, "Claim"), (10, 15, "Lead")], "b": [(0, 5, "Claim")]}
    pred = {"a": [(0, 5, "Claim")], "b": [(0, 5, "Lead")]}
    plain = nerscore.evaluate(gold, pred, match="threshold", zero_division=0.0)
    kaggle = nerscore.evaluate(gold, pred, match="threshold", compat="kaggle", zero_division=0.0)
    # the totals change: one extra FP for Claim and Lead, one extra FN for Lead
    assert (plain.micro.n_gold, plain.micro.n_pred) == (3, 2)
    assert (kaggle.micro.n_gold, kaggle.micro.n_pred) == (4, 4)
    assert not any("outer join" in n for n in plain.notes)
    (note,) = [n for n in kaggle.notes if "outer join" in n]
    assert "2 false positives (Claim, Lead: some document has gold of it but no prediction)" in note
    assert "1 false negative (Lead: some document has predictions of it but no gold)" in note
    assert note in kaggle.to_dict()["notes"]
    assert f"note: {note}" in str(kaggle)
    # nothing added: no note
    same = nerscore.evaluate(gold, gold, match="threshold", compat="kaggle")
    assert not any("outer join" in n for n in same.notes)
