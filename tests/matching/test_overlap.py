"""Tests of the ``overlap`` matcher (docs/matchers/overlap.md, the "Loio" method)."""

from __future__ import annotations

import importlib
from collections import Counter, defaultdict

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from tests.conftest import one_label, span_cols

import nerscore
from nerscore.errors import InvalidSpanError, OptionError
from nerscore.matching import get_matcher
from nerscore.matching.exact import match_exact
from nerscore.matching.overlap import match_overlap
from nerscore.values.spans import EntityColumns

# ---------------------------------------------------------------- helpers


cols = span_cols
one = one_label


def totals(res):
    t = res.counts.total()
    return t.tp, t.fp, t.fn


def prf(tp, fp, fn):
    p, r = tp / (tp + fp), tp / (tp + fn)
    return p, r, 2 * p * r / (p + r)


def _factor(a, e):
    inter = min(a[1], e[1]) - max(a[0], e[0])
    return inter / max(a[1] - a[0], e[1] - e[0])


def _ov(a, e):
    return min(a[1], e[1]) - max(a[0], e[0]) > 0


def _split(gold, pred):
    """Per (doc, label): exact count and the remaining positive-length spans."""
    keys = {(d, lab) for d, _, _, lab in gold} | {(d, lab) for d, _, _, lab in pred}
    out = {}
    for key in keys:
        E = Counter((s, e) for d, s, e, lab in gold if (d, lab) == key)
        A = Counter((s, e) for d, s, e, lab in pred if (d, lab) == key)
        both = E & A
        E, A = E - both, A - both
        E_rest = sorted(sp for sp in E.elements() if sp[0] < sp[1])
        A_rest = sorted(sp for sp in A.elements() if sp[0] < sp[1])
        out[key] = (sum(both.values()), E_rest, A_rest)
    return out


def reference_greedy(gold, pred, s):
    """The article's walk written out literally, one (doc, label) at a time."""
    res = defaultdict(lambda: [0, 0.0])
    for (_, lab), (exact, E, A) in _split(gold, pred).items():
        res[lab][0] += exact
        available = list(E)
        for a in A:  # by start
            T = [e for e in available if _ov(a, e)]
            if T:
                res[lab][1] += s * _factor(a, T[0])
                available = [e for e in available if e not in T]
    return {lab: (v[0], v[1]) for lab, v in res.items()}


def _best_matching(E, A):
    """Largest sum of factors over all one-to-one matchings (exhaustive)."""
    best = 0.0

    def rec(i, used, acc):
        nonlocal best
        if i == len(A):
            best = max(best, acc)
            return
        rec(i + 1, used, acc)
        for j, e in enumerate(E):
            if j not in used and _ov(A[i], e):
                rec(i + 1, used | {j}, acc + _factor(A[i], e))

    rec(0, frozenset(), 0.0)
    return best


def reference_optimal(gold, pred, s):
    res = defaultdict(lambda: [0, 0.0])
    for (_, lab), (exact, E, A) in _split(gold, pred).items():
        res[lab][0] += exact
        res[lab][1] += s * _best_matching(E, A)
    return {lab: (v[0], v[1]) for lab, v in res.items()}


def as_table(res):
    c = res.counts
    out = {}
    for lab in c.labels:
        lc = c[lab]
        if lc.n_gold or lc.n_pred:
            out[lab] = (lc.exact, lc.credit)
    return out


def assert_same_table(got, want):
    want = {k: v for k, v in want.items()}
    assert set(got) <= set(want)
    for lab, (exact, credit) in want.items():
        g = got.get(lab, (0, 0.0))
        assert g[0] == exact, lab
        assert g[1] == pytest.approx(credit, abs=1e-12), lab


def disjoint(spans):
    """Keep spans (doc, start, end, label) that do not overlap a kept one of their group."""
    kept = []
    for sp in spans:
        if sp[1] == sp[2] or all(
            not (k[0] == sp[0] and k[3] == sp[3] and _ov(k[1:3], sp[1:3])) for k in kept
        ):
            kept.append(sp)
    return kept


def reference_loio(gold, pred, s):
    """The loio-metrics pointer walk written out literally, one (doc, label) at a time."""
    res = defaultdict(lambda: [0, 0.0])
    keys = {(d, lab) for d, _, _, lab in gold} | {(d, lab) for d, _, _, lab in pred}
    for key in keys:
        lab = key[1]
        E = Counter((s_, e) for d, s_, e, la in gold if (d, la) == key)
        A = Counter((s_, e) for d, s_, e, la in pred if (d, la) == key)
        both = E & A
        E_rest = sorted((E - both).elements())  # by (start, end)
        A_rest = sorted((A - both).elements())
        lone = [a for a in A_rest if a[0] == a[1]]  # quirk: counted as exact
        res[lab][0] += sum(both.values()) + len(lone)
        i = 0
        for a in (a for a in A_rest if a[0] < a[1]):
            while i < len(E_rest) and E_rest[i][1] <= a[0]:
                i += 1
            if i < len(E_rest) and E_rest[i][0] < a[1]:
                res[lab][1] += s * _factor(a, E_rest[i])
                i += 1
    return {lab: (v[0], v[1]) for lab, v in res.items()}


span_st = st.tuples(
    st.integers(0, 2), st.integers(0, 30), st.integers(0, 8), st.sampled_from("AB")
).map(lambda t: (t[0], t[1], t[1] + t[2], t[3]))
side_st = st.lists(span_st, max_size=14).map(disjoint)


# ---------------------------------------------------------------- docs/matchers/overlap.md worked examples


def test_article_contract_parties():
    gold = cols(one([(190, 346), (351, 473)]))
    pred = cols(one([(0, 86), (190, 325), (330, 346), (351, 473)]))
    res = match_overlap(gold, pred, s=0.75)
    c = res.counts["A"]
    assert c.exact == 1
    assert round(c.credit / 0.75, 6) == 0.865385  # 135/156
    tp, fp, fn = totals(res)
    assert (round(tp, 6), round(fp, 6), round(fn, 6)) == (1.649038, 2.350962, 0.350962)
    p, r, f = prf(tp, fp, fn)
    assert (round(p, 6), round(r, 6), round(f, 6)) == (0.412260, 0.824519, 0.549679)
    # (190, 325) is paired with (190, 346); (0, 86) and (330, 346) are spurious
    al = res.alignment
    pairs = sorted(
        zip(al.pairs_gold.tolist(), al.pairs_pred.tolist(), al.credit.tolist(), strict=True)
    )
    assert pairs == [(0, 1, pytest.approx(0.75 * 135 / 156)), (1, 3, 1.0)]
    assert al.missed.tolist() == []
    assert sorted(al.spurious.tolist()) == [0, 2]


@pytest.mark.parametrize(
    ("gold", "pred", "s", "tp", "fp", "fn"),
    [
        ([(0, 8), (10, 20)], [(0, 12), (14, 20)], 1.0, 8 / 12, 2 - 8 / 12, 2 - 8 / 12),
        ([(0, 6), (8, 20)], [(5, 20)], 1.0, 1 / 15, 1 - 1 / 15, 2 - 1 / 15),
        ([(5, 5), (6, 12)], [(3, 12)], 1.0, 6 / 9, 1 - 6 / 9, 2 - 6 / 9),
        ([(10, 20)], [(5, 5)], 1.0, 0.0, 1.0, 1.0),
        ([(0, 5), (5, 10)], [(0, 10)], 0.75, 0.375, 0.625, 1.625),
    ],
)
def test_spec_examples(gold, pred, s, tp, fp, fn):
    res = match_overlap(cols(one(gold)), cols(one(pred)), s=s)
    got = totals(res)
    assert got == pytest.approx((tp, fp, fn), abs=1e-12)
    assert [round(x, 6) for x in got] == [round(x, 6) for x in (tp, fp, fn)]


def test_first_example_consumes_both_gold():
    res = match_overlap(cols(one([(0, 8), (10, 20)])), cols(one([(0, 12), (14, 20)])), s=1.0)
    al = res.alignment
    assert al.pairs_gold.tolist() == [0]
    assert al.pairs_pred.tolist() == [0]
    assert al.missed.tolist() == [1]
    assert al.spurious.tolist() == [1]
    # optimal assignment pairs both predictions instead: 8/12 + 6/10
    opt = match_overlap(
        cols(one([(0, 8), (10, 20)])), cols(one([(0, 12), (14, 20)])), s=1.0,
        assignment="optimal",
    )
    assert opt.counts.total().tp == pytest.approx(8 / 12 + 6 / 10)


# ---------------------------------------------------------------- semantics


def test_labels_evaluated_separately_nested_ok():
    gold = cols([(0, 0, 20, "ORG"), (0, 0, 5, "PER"), (0, 10, 20, "LOC")])
    pred = cols([(0, 0, 20, "ORG"), (0, 0, 4, "PER"), (0, 0, 20, "LOC")])
    res = match_overlap(gold, pred, s=1.0)
    c = res.counts
    assert c["ORG"].exact == 1
    assert c["PER"].credit == pytest.approx(4 / 5)
    assert c["LOC"].credit == pytest.approx(10 / 20)


def test_documents_never_match_each_other():
    res = match_overlap(cols([(0, 0, 10, "A")]), cols([(1, 0, 10, "A")]), s=1.0)
    assert totals(res) == (0, 1, 1)


def test_zero_length_exact_only_and_multiset():
    gold = cols(one([(5, 5), (5, 5), (7, 7), (0, 10)]))
    pred = cols(one([(5, 5), (8, 8), (0, 10)]))
    res = match_overlap(gold, pred, s=1.0)
    c = res.counts["A"]
    assert (c.exact, c.credit, c.n_gold, c.n_pred) == (2, 0.0, 4, 3)
    # a zero-length prediction strictly inside a gold span earns nothing
    res = match_overlap(cols(one([(0, 10)])), cols(one([(4, 4)])), s=1.0)
    assert totals(res) == (0, 1, 1)


def test_touching_spans_are_fine():
    res = match_overlap(cols(one([(0, 5), (5, 10)])), cols(one([(0, 5), (5, 10)])))
    assert totals(res) == (2, 0, 0)


def test_credit_counts_under_label_and_exact_separately():
    gold = cols([(0, 0, 10, "A"), (0, 20, 30, "B"), (1, 0, 4, "B")])
    pred = cols([(0, 0, 5, "A"), (0, 20, 30, "B"), (1, 2, 4, "B")])
    c = match_overlap(gold, pred, s=0.5).counts
    assert c["A"].exact == 0
    assert c["A"].credit == pytest.approx(0.25)
    assert c["B"].exact == 1
    assert c["B"].credit == pytest.approx(0.25)
    assert c["B"].n_gold == 2
    assert c["B"].n_pred == 2


def test_empty_inputs():
    e = EntityColumns.empty(("A",))
    res = match_overlap(e, e)
    assert totals(res) == (0, 0, 0)
    res = match_overlap(cols(one([(0, 3)])), e)
    assert totals(res) == (0, 0, 1)
    assert res.alignment.missed.tolist() == [0]
    res = match_overlap(e, cols(one([(0, 3)])), assignment="optimal")
    assert totals(res) == (0, 1, 0)


def test_huge_offsets_use_the_compressed_keys():
    big = 2**61
    spans_g = [(d, big + 10 * d, big + 10 * d + 8, "A") for d in range(4)]
    spans_p = [(d, big + 10 * d + 2, big + 10 * d + 8, "A") for d in range(4)]
    small_g = [(d, s - big, e - big, lab) for d, s, e, lab in spans_g]
    small_p = [(d, s - big, e - big, lab) for d, s, e, lab in spans_p]
    for how in ("greedy", "optimal"):
        a = match_overlap(cols(spans_g), cols(spans_p), s=1.0, assignment=how)
        b = match_overlap(cols(small_g), cols(small_p), s=1.0, assignment=how)
        assert totals(a) == pytest.approx(totals(b))
        assert totals(a)[0] == pytest.approx(4 * 6 / 8)


def test_registered():
    assert get_matcher("overlap") is importlib.import_module("nerscore.matching.overlap").MATCHER


# ---------------------------------------------------------------- overlapping spans


def test_overlapping_gold_raises_with_spans_and_document():
    gold = cols([(0, 0, 5, "A"), (3, 0, 5, "A"), (3, 3, 8, "A"), (3, 0, 9, "B")])
    with pytest.raises(InvalidSpanError, match=r"gold spans .* document 3: \[0, 5\) A, \[3, 8\) A")\
            as exc:
        match_overlap(gold, cols([(0, 0, 5, "A")]))
    assert exc.value.document == 3
    assert exc.value.spans == [(0, 5, "A"), (3, 8, "A")]
    assert "overlapping='merge'" in str(exc.value)


def test_overlapping_pred_raises_and_counts_all_documents():
    pred = cols([(0, 0, 5, "A"), (0, 0, 5, "A"), (2, 1, 4, "A"), (2, 2, 3, "A")])
    with pytest.raises(InvalidSpanError, match=r"predicted .* document 0: .*In all, 4 predicted "
                       r"spans in 2 documents overlap"):
        match_overlap(cols([(0, 0, 5, "A")]), pred)


def test_merge_glues_chains_and_reports():
    gold = cols(one([(0, 5), (3, 8), (7, 12), (12, 15), (20, 20)]))
    pred = cols(one([(0, 12), (20, 20), (12, 15)]))
    res = match_overlap(gold, pred, overlapping="merge")
    assert totals(res) == (3, 0, 0)
    assert res.extra["merged"] == {"gold": 2, "pred": 0}
    assert "merged 2 overlapping gold spans" in res.extra["notes"][0]
    g = res.alignment.gold
    spans = sorted(zip(g.start.tolist(), g.end.tolist(), strict=True))
    assert spans == [(0, 12), (12, 15), (20, 20)]
    assert res.counts["A"].n_gold == 3


def test_no_notes_without_merges():
    res = match_overlap(cols(one([(0, 5)])), cols(one([(0, 5)])), overlapping="merge")
    assert "notes" not in res.extra
    assert "merged" not in res.extra


# ---------------------------------------------------------------- options


@pytest.mark.parametrize("s", [-0.1, 1.5, float("nan"), "0.5", True, None])
def test_bad_s(s):
    with pytest.raises(ValueError, match=r"Expected `s` to be a number in \[0, 1\]"):
        match_overlap(cols(one([(0, 1)])), cols(one([(0, 1)])), s=s)


def test_bad_options():
    g = cols(one([(0, 1)]))
    with pytest.raises(ValueError, match="Expected `assignment` to be one of 'greedy', 'optimal'"):
        match_overlap(g, g, assignment="best")
    with pytest.raises(ValueError, match="Expected `overlapping` to be one of 'error', 'merge'"):
        match_overlap(g, g, overlapping="glue")


# ---------------------------------------------------------------- properties


@settings(max_examples=250, deadline=None)
@given(side_st, side_st, st.sampled_from([0.0, 0.5, 0.75, 1.0]))
def test_greedy_equals_literal_walk(gold, pred, s):
    labels = ("A", "B")
    res = match_overlap(cols(gold, labels), cols(pred, labels), s=s)
    assert_same_table(as_table(res), reference_greedy(gold, pred, s))
    c = res.counts
    assert c.n_gold.sum() == len(gold)
    assert c.n_pred.sum() == len(pred)


@settings(max_examples=200, deadline=None)
@given(side_st, side_st)
def test_optimal_is_maximum(gold, pred):
    labels = ("A", "B")
    res = match_overlap(cols(gold, labels), cols(pred, labels), s=1.0, assignment="optimal")
    assert_same_table(as_table(res), reference_optimal(gold, pred, 1.0))
    greedy = match_overlap(cols(gold, labels), cols(pred, labels), s=1.0)
    assert res.counts.total().tp >= greedy.counts.total().tp - 1e-12
    al = res.alignment  # one-to-one
    assert len(set(al.pairs_gold.tolist())) == len(al.pairs_gold)
    assert len(set(al.pairs_pred.tolist())) == len(al.pairs_pred)


@settings(max_examples=150, deadline=None)
@given(side_st, side_st, st.sampled_from(["greedy", "optimal"]))
def test_s0_is_exact_matching(gold, pred, how):
    labels = ("A", "B")
    g, p = cols(gold, labels), cols(pred, labels)
    assert match_overlap(g, p, s=0.0, assignment=how).counts == match_exact(g, p).counts


@settings(max_examples=100, deadline=None)
@given(side_st, st.sampled_from(["greedy", "optimal"]))
def test_identical_inputs_are_perfect(spans, how):
    g = cols(spans, ("A", "B"))
    t = match_overlap(g, g, assignment=how).counts.total()
    assert t.tp == t.n_pred == t.n_gold == len(spans)
    assert t.credit == 0.0


@settings(max_examples=150, deadline=None)
@given(side_st, side_st, st.sampled_from(["greedy", "optimal"]), st.randoms())
def test_order_of_spans_and_documents_is_irrelevant(gold, pred, how, rnd):
    labels = ("A", "B")
    base = match_overlap(cols(gold, labels), cols(pred, labels), s=1.0, assignment=how)
    docs = [0, 1, 2]
    rnd.shuffle(docs)
    g2 = [(docs[d], s, e, lab) for d, s, e, lab in gold]
    p2 = [(docs[d], s, e, lab) for d, s, e, lab in pred]
    rnd.shuffle(g2)
    rnd.shuffle(p2)
    other = match_overlap(cols(g2, labels), cols(p2, labels), s=1.0, assignment=how)
    assert other.counts == base.counts


@settings(max_examples=100, deadline=None)
@given(st.lists(span_st, max_size=12), side_st)
def test_merge_equals_premerged_input(gold, pred):
    labels = ("A", "B")
    # merge by hand: the union of each chain of overlapping spans per (doc, label)
    groups = defaultdict(list)
    merged = []
    for d, s, e, lab in gold:
        if s == e:
            merged.append((d, s, e, lab))
        else:
            groups[(d, lab)].append((s, e))
    for (d, lab), spans in groups.items():
        spans.sort()
        cur_s, cur_e = spans[0]
        for s, e in spans[1:]:
            if s < cur_e:
                cur_e = max(cur_e, e)
            else:
                merged.append((d, cur_s, cur_e, lab))
                cur_s, cur_e = s, e
        merged.append((d, cur_s, cur_e, lab))
    res = match_overlap(cols(gold, labels), cols(pred, labels), s=1.0, overlapping="merge")
    want = match_overlap(cols(merged, labels), cols(pred, labels), s=1.0)
    assert res.counts == want.counts


# ---------------------------------------------------------------- vectorised paths at scale


def test_random_corpus_against_literal_walk():
    rng = np.random.default_rng(7)
    gold, pred = [], []
    for d in range(300):
        for lab in "AB":
            pos = 0
            for _ in range(int(rng.integers(0, 6))):
                pos += int(rng.integers(0, 6))
                n = int(rng.integers(0, 12))
                gold.append((d, pos, pos + n, lab))
                pos += n
            pos = 0
            for _ in range(int(rng.integers(0, 6))):
                pos += int(rng.integers(0, 6))
                n = int(rng.integers(0, 12))
                pred.append((d, pos, pos + n, lab))
                pos += n
    labels = ("A", "B")
    for s in (0.75, 1.0):
        res = match_overlap(cols(gold, labels), cols(pred, labels), s=s)
        assert_same_table(as_table(res), reference_greedy(gold, pred, s))
    res = match_overlap(cols(gold, labels), cols(pred, labels), s=1.0, assignment="optimal")
    # exhaustive search is too slow here: check against a plain DP per (doc, label)
    want = defaultdict(float)
    for (_, lab), (_, E, A) in _split(gold, pred).items():
        if len(E) * len(A) <= 30:
            want[lab] += _best_matching(E, A)
        else:
            want[lab] += _dp_matching(E, A)
    for lab in labels:
        assert res.counts[lab].credit == pytest.approx(want[lab], abs=1e-9)


def _dp_matching(E, A):
    """Maximum-weight matching via a DP over subsets of gold (small E only)."""
    best = {frozenset(): 0.0}
    for a in A:
        nxt = dict(best)
        for used, val in best.items():
            for j, e in enumerate(E):
                if j not in used and _ov(a, e):
                    key = used | {j}
                    v = val + _factor(a, e)
                    if v > nxt.get(key, -1.0):
                        nxt[key] = v
        best = nxt
    return max(best.values())


def test_reference_helpers():
    E, A = [(0, 10), (10, 20)], [(5, 15), (0, 2)]
    assert _best_matching(E, A) == pytest.approx(0.5 + 0.2)
    assert _dp_matching(E, A) == pytest.approx(0.5 + 0.2)


def test_through_count_matches():
    from nerscore.scoring.counting import count_matches

    y_true = [["B-PER", "I-PER", "I-PER", "O", "B-LOC"], ["B-ORG", "I-ORG"]]
    y_pred = [["B-PER", "I-PER", "O", "O", "B-LOC"], ["O", "B-ORG"]]
    got = count_matches(y_true, y_pred, match="overlap", s=1.0).to_dict()
    assert got["LOC"] == {"tp": 1.0, "n_pred": 1, "n_gold": 1}
    assert got["PER"]["tp"] == pytest.approx(2 / 3)
    assert got["ORG"]["tp"] == pytest.approx(1 / 2)


# ---------------------------------------------------------------- compat="loio"


def loio(gold, pred, s=1.0, **kw):
    return match_overlap(cols(one(gold)), cols(one(pred)), s=s, compat="loio", **kw)


def pairs_of(res):
    al = res.alignment
    return sorted(
        zip(al.pairs_gold.tolist(), al.pairs_pred.tolist(), al.credit.tolist(), strict=True)
    )


def assert_alignment_consistent(res):
    """Pairs carry the credit; unpaired rows are missed / spurious; lone zero-length exact apart."""
    al, t = res.alignment, res.counts.total()
    assert len(set(al.pairs_gold.tolist())) == len(al.pairs_gold)
    assert len(set(al.pairs_pred.tolist())) == len(al.pairs_pred)
    assert sorted([*al.pairs_gold.tolist(), *al.missed.tolist()]) == list(range(len(al.gold)))
    assert sorted([*al.pairs_pred.tolist(), *al.spurious.tolist()]) == list(range(len(al.pred)))
    lone = res.extra.get("loio_unmatched_exact", 0)
    assert al.credit.sum() + lone == pytest.approx(t.tp, abs=1e-9)
    assert int((al.credit == 1.0).sum()) + lone >= t.exact


def test_loio_pointer_moves_by_one():
    # (0,12) earns 8/12 against (0,8); (10,20) stays available and (14,20) earns 6/10
    res = loio([(0, 8), (10, 20)], [(0, 12), (14, 20)])
    tp, fp, fn = totals(res)
    assert tp == pytest.approx(8 / 12 + 6 / 10)
    assert (fp, fn) == pytest.approx((2 - tp, 2 - tp))
    assert pairs_of(res) == [(0, 0, pytest.approx(8 / 12)), (1, 1, pytest.approx(6 / 10))]
    assert res.extra["compat"] == "loio"
    assert res.extra["loio_unmatched_exact"] == 0
    assert "notes" not in res.extra
    assert_alignment_consistent(res)
    # the article's rule (default) consumes both gold spans with the first prediction
    assert totals(match_overlap(cols(one([(0, 8), (10, 20)])), cols(one([(0, 12), (14, 20)])),
                                s=1.0))[0] == pytest.approx(8 / 12)


def test_loio_lone_zero_length_prediction_counts_as_exact():
    res = loio([(2, 14), (23, 26)], [(12, 12), (23, 26)])
    c = res.counts["A"]
    assert (c.exact, c.credit, c.tp, c.fp, c.fn) == (2, 0.0, 2, 0, 0)
    # (2,14) is found by nothing, yet FN = |E| - TP = 0; (12,12) is no pair
    assert pairs_of(res) == [(1, 1, 1.0)]
    assert res.alignment.missed.tolist() == [0]
    assert res.alignment.spurious.tolist() == [0]
    assert res.extra["loio_unmatched_exact"] == 1
    assert "1 zero-length predicted span(s)" in res.extra["notes"][0]
    assert_alignment_consistent(res)
    # default: the zero-length prediction earns nothing
    assert totals(match_overlap(cols(one([(2, 14), (23, 26)])),
                                cols(one([(12, 12), (23, 26)])), s=1.0)) == (1, 1, 1)


def test_loio_lone_zero_length_prediction_takes_no_part_in_the_walk():
    # (12,12) does not move the pointer: (13,20) still earns 1/12 against (2,14)
    res = loio([(2, 14)], [(12, 12), (13, 20)])
    c = res.counts["A"]
    assert c.exact == 1
    assert c.credit == pytest.approx(1 / 12)
    assert pairs_of(res) == [(0, 1, pytest.approx(1 / 12))]
    assert_alignment_consistent(res)


def test_loio_fn_can_be_negative():
    res = loio([], [(5, 5)])
    assert totals(res) == (1, 0, -1)
    assert res.alignment.spurious.tolist() == [0]
    assert_alignment_consistent(res)


def test_loio_zero_length_gold_inside_prediction_is_its_partner():
    res = loio([(37, 41), (36, 36)], [(34, 40)])
    assert totals(res) == (0, 1, 2)
    assert pairs_of(res) == [(1, 0, 0.0)]  # (36,36) is the partner, with credit 0
    assert res.alignment.missed.tolist() == [0]
    assert_alignment_consistent(res)
    # default: the zero-length gold span gets no partial credit
    assert totals(match_overlap(cols(one([(37, 41), (36, 36)])), cols(one([(34, 40)])),
                                s=1.0))[0] == pytest.approx(3 / 6)


@pytest.mark.parametrize(
    ("gold", "pred", "credit"),
    [
        ([(34, 34), (37, 41)], [(34, 40)], 3 / 6),  # at the start: skipped
        ([(40, 40), (41, 45)], [(34, 40)], 0.0),  # at the end: not reached
        # the first (36,36) is (34,40)'s partner; (40,44) skips the second
        ([(36, 36), (36, 36), (37, 41)], [(34, 40), (40, 44)], 1 / 4),
        # (1,3) takes (0,10); (4,6) takes (5,5), which lies inside (0,10), with credit 0
        ([(0, 10), (5, 5)], [(1, 3), (4, 6)], 2 / 10),
    ],
)
def test_loio_zero_length_gold_positions(gold, pred, credit):
    res = loio(gold, pred)
    assert len(res.alignment.pairs_pred) == len(pred) - (gold[0] == (40, 40))
    assert res.counts["A"].credit == pytest.approx(credit)
    want = reference_loio(one(gold), one(pred), 1.0)
    assert_same_table(as_table(res), want)
    assert_alignment_consistent(res)


def test_loio_exact_matches_are_a_multiset():
    res = loio([(3, 3), (3, 3), (0, 2)], [(3, 3), (0, 2)], s=0.5)
    c = res.counts["A"]
    assert (c.exact, c.credit, c.n_gold, c.n_pred) == (2, 0.0, 3, 2)
    assert res.extra["loio_unmatched_exact"] == 0
    res = loio([(3, 3)], [(3, 3), (3, 3)])  # the second copy has no identical gold left
    assert (res.counts["A"].exact, res.extra["loio_unmatched_exact"]) == (2, 1)


def test_loio_s_weights_the_credit():
    res = loio([(0, 8), (10, 20)], [(0, 12), (14, 20)], s=0.75)
    assert res.counts["A"].credit == pytest.approx(0.75 * (8 / 12 + 6 / 10))


def test_loio_and_optimal_refused():
    with pytest.raises(OptionError, match=r"compat='loio' .* assignment='optimal'") as exc:
        loio([(0, 1)], [(0, 1)], assignment="optimal")
    assert exc.value.option == "assignment"
    with pytest.raises(OptionError):
        nerscore.evaluate([[(0, 1, "A")]], [[(0, 1, "A")]], match="overlap", compat="loio",
                          assignment="optimal")


def test_bad_compat():
    g = cols(one([(0, 1)]))
    with pytest.raises(ValueError, match=r"Expected `compat` to be one of 'loio' or None"):
        match_overlap(g, g, compat="loio-metrics")


def test_loio_registry_option():
    m = get_matcher("overlap")
    assert m.resolve({"compat": "LOIO"})["compat"] == "loio"
    assert m.defaults["compat"] is None
    assert next(o for o in m.options if o.name == "compat").choices == ("loio",)


def test_loio_overlapping_follows_the_policy():
    with pytest.raises(InvalidSpanError, match="overlapping='merge'"):
        loio([(0, 5), (3, 8)], [(0, 8)])
    res = loio([(0, 5), (3, 8)], [(0, 8)], overlapping="merge")
    assert totals(res) == (1, 0, 0)
    assert res.extra["merged"] == {"gold": 1, "pred": 0}
    assert res.extra["compat"] == "loio"


def test_loio_through_evaluate():
    report = nerscore.evaluate({"d": [(0, 8, "X"), (10, 20, "X")]},
                               {"d": [(0, 12, "X"), (14, 20, "X")]},
                               match="overlap", compat="loio", s=1.0)
    assert report.counts["X"].tp == pytest.approx(8 / 12 + 6 / 10)
    assert report.options["compat"] == "loio"


@settings(max_examples=250, deadline=None)
@given(side_st, side_st, st.sampled_from([0.0, 0.5, 0.75, 1.0]))
def test_loio_equals_literal_walk(gold, pred, s):
    labels = ("A", "B")
    res = match_overlap(cols(gold, labels), cols(pred, labels), s=s, compat="loio")
    assert_same_table(as_table(res), reference_loio(gold, pred, s))
    assert_alignment_consistent(res)


def _one_to_one(gold, pred):
    """Drop gold overlapping two predictions, then predictions overlapping two gold."""
    def n_ov(x, others):
        return sum(1 for o in others if o[0] == x[0] and o[3] == x[3] and _ov(x[1:3], o[1:3]))

    gold = [g for g in gold if n_ov(g, pred) <= 1]
    pred = [p for p in pred if n_ov(p, gold) <= 1]
    return gold, pred


positive_side_st = st.lists(
    st.tuples(st.integers(0, 2), st.integers(0, 30), st.integers(1, 8), st.sampled_from("AB"))
    .map(lambda t: (t[0], t[1], t[1] + t[2], t[3])),
    max_size=14,
).map(disjoint)


@settings(max_examples=250, deadline=None)
@given(positive_side_st, positive_side_st, st.sampled_from([0.5, 0.75, 1.0]))
def test_loio_agrees_with_default_on_one_to_one_overlaps(gold, pred, s):
    gold, pred = _one_to_one(gold, pred)
    labels = ("A", "B")
    g, p = cols(gold, labels), cols(pred, labels)
    a = match_overlap(g, p, s=s, compat="loio")
    b = match_overlap(g, p, s=s)
    assert a.counts == b.counts
    assert pairs_of(a) == pairs_of(b)


@settings(max_examples=100, deadline=None)
@given(side_st, side_st, st.randoms())
def test_loio_order_of_spans_and_documents_is_irrelevant(gold, pred, rnd):
    labels = ("A", "B")
    base = match_overlap(cols(gold, labels), cols(pred, labels), s=1.0, compat="loio")
    docs = [0, 1, 2]
    rnd.shuffle(docs)
    g2 = [(docs[d], s, e, lab) for d, s, e, lab in gold]
    p2 = [(docs[d], s, e, lab) for d, s, e, lab in pred]
    rnd.shuffle(g2)
    rnd.shuffle(p2)
    other = match_overlap(cols(g2, labels), cols(p2, labels), s=1.0, compat="loio")
    assert other.counts == base.counts


def test_loio_random_corpus_against_literal_walk():
    rng = np.random.default_rng(11)
    gold, pred = [], []
    for d in range(300):
        for lab in "AB":
            for side in (gold, pred):
                pos = 0
                for _ in range(int(rng.integers(0, 7))):
                    pos += int(rng.integers(0, 6))
                    n = int(rng.integers(0, 12))
                    side.append((d, pos, pos + n, lab))
                    pos += n
    labels = ("A", "B")
    for s in (0.75, 1.0):
        res = match_overlap(cols(gold, labels), cols(pred, labels), s=s, compat="loio")
        assert_same_table(as_table(res), reference_loio(gold, pred, s))
        assert_alignment_consistent(res)


def test_loio_long_chain():
    # every prediction overlaps two gold spans: the walk pairs each with its first
    n = 2000
    gold = [(0, 10 * i, 10 * i + 10, "A") for i in range(n)]
    pred = [(0, 10 * i + 5, 10 * i + 15, "A") for i in range(n)]
    res = match_overlap(cols(gold), cols(pred), s=1.0, compat="loio")
    assert res.counts["A"].credit == pytest.approx(n * 0.5)
    assert_same_table(as_table(res), reference_loio(gold, pred, 1.0))


# ---------------------------------------------------------------- messages name documents


def test_overlap_error_names_the_document_id():
    with pytest.raises(InvalidSpanError, match="document 'doc-a'") as exc:
        nerscore.evaluate({"doc-a": [(0, 5, "X"), (3, 8, "X")]}, {"doc-a": []}, match="overlap")
    assert exc.value.document == "doc-a"
    with pytest.raises(InvalidSpanError, match=r"predicted spans .* document 'z'"):
        nerscore.evaluate({"y": [], "z": []}, {"y": [], "z": [(0, 5, "X"), (3, 8, "X")]},
                          match="overlap", compat="loio")


def test_overlap_error_without_ids_names_the_index():
    with pytest.raises(InvalidSpanError, match="document 1:") as exc:
        nerscore.evaluate([[], [(0, 5, "X"), (3, 8, "X")]], [[], []], match="overlap")
    assert exc.value.document == 1
