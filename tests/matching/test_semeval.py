"""Tests of SemEval-2013 matching (docs/matchers/semeval.md): worked examples, nervaluate parity, properties."""

from __future__ import annotations

import itertools
import json

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import nerscore
from nerscore.errors import InvalidSpanError
from nerscore.matching import _semeval_pairs
from nerscore.matching.semeval import (
    CATEGORIES,
    SCHEMAS,
    match_semeval,
    semeval_alignments,
    semeval_tables,
)
from nerscore.values.counts import Counts
from nerscore.values.spans import EntityColumns

try:  # the pinned reference needs Python >= 3.11; only the differential tests need it
    import nervaluate
except ImportError:  # pragma: no cover - depends on the interpreter
    nervaluate = None

NV_NAME = {"strict": "strict", "exact": "exact", "partial": "partial", "type": "ent_type"}
ROW_KEYS = (*CATEGORIES, "possible", "actual", "precision", "recall", "f1")

# ---------------------------------------------------------------------------
# helpers


def columns(docs, labels=None):
    """EntityColumns from ``[[(start, end, label), ...] per document]`` (row order = input)."""
    labels = tuple(sorted({lab for d in docs for _, _, lab in d})) if labels is None else labels
    rows = [(i, s, e, lab) for i, d in enumerate(docs) for s, e, lab in d]
    return EntityColumns(
        [r[0] for r in rows], [r[1] for r in rows], [r[2] for r in rows],
        [labels.index(r[3]) for r in rows], labels, len(docs),
    )


def tables(gold_docs, pred_docs, **options):
    labels = tuple(sorted({lab for d in [*gold_docs, *pred_docs] for _, _, lab in d}))
    return match_semeval(columns(gold_docs, labels), columns(pred_docs, labels),
                         **options).extra["schemas"]


def cipms(row):
    return tuple(row[k] for k in ("correct", "incorrect", "partial", "missed", "spurious"))


def run_nervaluate(gold_docs, pred_docs, labels):
    """nervaluate 1.2.1 on the same documents (its ends are inclusive: end - 1)."""
    if nervaluate is None:
        pytest.skip("nervaluate==1.2.1 is not installed (it needs Python >= 3.11)")
    def conv(docs):
        return [[{"label": lab, "start": s, "end": e - 1} for s, e, lab in d] for d in docs]
    ev = nervaluate.Evaluator(conv(gold_docs), conv(pred_docs), tags=list(labels),
                              loader="dict")
    return ev.evaluate()


def nv_row(result):
    return {k: getattr(result, k) for k in ROW_KEYS}


def random_docs(rng, n_docs, *, labels=("A", "B", "C"), max_n=6, length=20, max_width=6,
                long_share=0.0):
    docs = []
    for _ in range(n_docs):
        doc = []
        for _ in range(int(rng.integers(0, max_n + 1))):
            s = int(rng.integers(0, length))
            w = int(rng.integers(1, max_width + 1))
            if rng.random() < long_share:  # beyond nervaluate's 1% overlap threshold
                w = int(rng.integers(100, 300))
            doc.append((s, s + w, labels[int(rng.integers(len(labels)))]))
        docs.append(doc)
    return docs


def reference_default(gold_docs, pred_docs):
    """A plain transcription of docs/matchers/semeval.md's default alignment: all pairs, sort, greedy."""
    key_of = {
        "strict": lambda sb, sl: not (sb and sl),
        "bounds": lambda sb, sl: not sb,
        "type": lambda sb, sl: not sl,
    }
    rows = {s: {c: {} for c in CATEGORIES} for s in SCHEMAS}

    def add(schema, cat, label):
        rows[schema][cat][label] = rows[schema][cat].get(label, 0) + 1

    for g, p in zip(gold_docs, pred_docs, strict=True):
        cand = []
        for i, (gs, ge, gl) in enumerate(g):
            for j, (ps, pe, pl) in enumerate(p):
                if gs == ge or ps == pe:
                    if (gs, ge) != (ps, pe):
                        continue
                    ov = 0
                else:
                    ov = min(ge, pe) - max(gs, ps)
                    if ov <= 0:
                        continue
                cand.append((i, j, ov, (gs, ge) == (ps, pe), gl == pl))
        for schema in SCHEMAS:
            kind = {"strict": "strict", "exact": "bounds", "partial": "bounds",
                    "type": "type"}[schema]
            order = sorted(cand, key=lambda c: (
                key_of[kind](c[3], c[4]), -c[2], g[c[0]][0], p[c[1]][0], not c[4],
                g[c[0]][1], p[c[1]][1], g[c[0]][2], p[c[1]][2], c[0], c[1]))
            used_g, used_p = set(), set()
            for i, j, _, sb, sl in order:
                if i in used_g or j in used_p:
                    continue
                used_g.add(i)
                used_p.add(j)
                good = {"strict": sb and sl, "exact": sb, "partial": sb, "type": sl}[schema]
                cat = "correct" if good else ("partial" if schema == "partial" else "incorrect")
                add(schema, cat, g[i][2])
            for i, e in enumerate(g):
                if i not in used_g:
                    add(schema, "missed", e[2])
            for j, e in enumerate(p):
                if j not in used_p:
                    add(schema, "spurious", e[2])
    return rows


def assert_rows_match_reference(tab, ref):
    for schema in SCHEMAS:
        for label, row in tab[schema]["labels"].items():
            for cat in CATEGORIES:
                assert row[cat] == ref[schema][cat].get(label, 0), (schema, label, cat)
        for cat in CATEGORIES:
            assert tab[schema]["overall"][cat] == sum(ref[schema][cat].values())


# ---------------------------------------------------------------------------
# docs/matchers/semeval.md worked examples

GOLD = [[(0, 1, "BRAND"), (6, 7, "DRUG"), (9, 10, "DRUG"), (12, 13, "DRUG"), (16, 17, "GROUP")]]
PRED = [[(3, 4, "BRAND"), (5, 7, "DRUG"), (9, 10, "BRAND"), (12, 13, "DRUG"), (15, 17, "DRUG")]]


@pytest.mark.parametrize("compat", [None, "nervaluate"])
@pytest.mark.parametrize(("schema", "expected", "f1"), [
    ("strict", (1, 3, 0, 1, 1), 0.2),
    ("exact", (2, 2, 0, 1, 1), 0.4),
    ("partial", (2, 0, 2, 1, 1), 0.6),
    ("type", (2, 2, 0, 1, 1), 0.4),
])
def test_worked_example(compat, schema, expected, f1):
    row = tables(GOLD, PRED, compat=compat)[schema]["overall"]
    assert cipms(row) == expected
    assert row["possible"] == 5
    assert row["actual"] == 5
    assert round(row["f1"], 4) == f1


def test_more_examples_partial_overlap_same_label():
    tab = tables([[(0, 10, "A")]], [[(0, 5, "A")]])
    assert cipms(tab["strict"]["overall"]) == (0, 1, 0, 0, 0)
    assert cipms(tab["partial"]["overall"]) == (0, 0, 1, 0, 0)
    assert tab["partial"]["overall"]["f1"] == 0.5
    assert cipms(tab["type"]["overall"]) == (1, 0, 0, 0, 0)


def test_more_examples_exact_pair_wins_by_default_but_not_in_nervaluate_compat():
    gold, pred = [[(0, 10, "A")]], [[(0, 4, "A"), (0, 10, "A")]]
    assert cipms(tables(gold, pred)["strict"]["overall"]) == (1, 0, 0, 0, 1)
    assert cipms(tables(gold, pred, compat="nervaluate")["strict"]["overall"]) == (0, 1, 0, 0, 1)
    # and nervaluate itself agrees with the compat numbers
    nv = run_nervaluate(gold, pred, ["A"])["overall"]["strict"]
    assert (nv.correct, nv.incorrect, nv.partial, nv.missed, nv.spurious) == (0, 1, 0, 0, 1)


def test_worked_example_label_rows_default():
    tab = tables(GOLD, PRED)
    strict = tab["strict"]["labels"]
    # pairs under the gold label, spurious under the predicted label
    assert cipms(strict["BRAND"]) == (0, 0, 0, 1, 1)
    assert cipms(strict["DRUG"]) == (1, 2, 0, 0, 0)
    assert cipms(strict["GROUP"]) == (0, 1, 0, 0, 0)


def test_worked_example_through_evaluate_and_report_dict():
    tags_gold = [["B-BRAND", "O", "O", "O", "O", "O", "B-DRUG", "O", "O", "B-DRUG", "O", "O",
                  "B-DRUG", "O", "O", "O", "B-GROUP"]]
    tags_pred = [["O", "O", "O", "B-BRAND", "O", "B-DRUG", "I-DRUG", "O", "O", "B-BRAND", "O",
                  "O", "B-DRUG", "O", "O", "B-DRUG", "I-DRUG"]]
    report = nerscore.evaluate(tags_gold, tags_pred, match="semeval", zero_division=0.0)
    d = json.loads(report.to_json())
    assert set(d["schemas"]) == set(SCHEMAS)
    strict = d["schemas"]["strict"]["overall"]
    assert cipms(strict) == (1, 3, 0, 1, 1)
    # the top-level rows mirror the strict schema
    assert d["overall"]["tp"] == strict["correct"]
    assert d["overall"]["n_pred"] == strict["actual"]
    assert d["overall"]["n_gold"] == strict["possible"]
    assert d["overall"]["f1"] == pytest.approx(strict["f1"])
    for label, row in d["schemas"]["strict"]["labels"].items():
        assert d["labels"][label]["tp"] == row["correct"]
        assert d["labels"][label]["n_pred"] == row["actual"]
        assert d["labels"][label]["n_gold"] == row["possible"]
    assert round(d["schemas"]["partial"]["overall"]["f1"], 4) == 0.6


def test_evaluate_passes_compat_through():
    gold = [["B-A", "I-A", "I-A", "O"]]
    pred = [["B-A", "O", "O", "O"]]
    r = nerscore.evaluate(gold, pred, match="semeval", compat="nervaluate", zero_division=0.0)
    assert r.options == {"compat": "nervaluate"}
    assert cipms(r.extra["schemas"]["partial"]["overall"]) == (0, 0, 1, 0, 0)


# ---------------------------------------------------------------------------
# the default alignment


@pytest.mark.parametrize("seed", range(40))
def test_default_equals_plain_greedy_reference(seed):
    rng = np.random.default_rng(seed)
    gold = random_docs(rng, 8, max_n=7)
    pred = random_docs(rng, 8, max_n=7)
    assert_rows_match_reference(tables(gold, pred), reference_default(gold, pred))


@pytest.mark.parametrize("seed", range(6))
def test_batched_conflict_resolution_equals_plain_greedy(seed, monkeypatch):
    # dense documents: thousands of conflicting pairs go through the vectorised rounds
    rng = np.random.default_rng(1000 + seed)
    gold = random_docs(rng, 60, max_n=40, length=60, max_width=10)
    pred = random_docs(rng, 60, max_n=40, length=60, max_width=10)
    monkeypatch.setattr(_semeval_pairs, "_SMALL", 0)
    rounds = tables(gold, pred)
    monkeypatch.setattr(_semeval_pairs, "_SMALL", 10**9)
    plain = tables(gold, pred)
    assert rounds == plain
    assert_rows_match_reference(rounds, reference_default(gold, pred))


def test_zero_length_spans_pair_only_with_identical_spans():
    gold = [[(5, 5, "X"), (6, 12, "Y"), (20, 20, "X")]]
    pred = [[(5, 5, "X"), (3, 12, "Y"), (6, 6, "Y"), (20, 20, "Y")]]
    tab = tables(gold, pred)
    assert cipms(tab["strict"]["overall"]) == (1, 2, 0, 0, 1)
    assert cipms(tab["exact"]["overall"]) == (2, 1, 0, 0, 1)
    assert cipms(tab["partial"]["overall"]) == (2, 0, 1, 0, 1)
    assert cipms(tab["type"]["overall"]) == (2, 1, 0, 0, 1)
    assert_rows_match_reference(tab, reference_default(gold, pred))


def test_each_schema_has_its_own_alignment():
    # the strict schema pairs the exact same-label match; type prefers same label with overlap
    gold = [[(0, 10, "A")]]
    pred = [[(0, 10, "B"), (2, 6, "A")]]
    tab = tables(gold, pred)
    assert cipms(tab["strict"]["overall"]) == (0, 1, 0, 0, 1)
    assert cipms(tab["exact"]["overall"]) == (1, 0, 0, 0, 1)
    assert cipms(tab["type"]["overall"]) == (1, 0, 0, 0, 1)
    al = semeval_alignments(columns(gold), columns(pred, ("A", "B")))
    assert al["exact"].pairs_pred.tolist() == [0]
    assert al["type"].pairs_pred.tolist() == [1]
    assert al["partial"].credit.tolist() == [1.0]


def test_inside_a_class_larger_overlap_then_earlier_gold_then_earlier_pred():
    # one prediction, two golds overlapping it by 2 and 3: the larger overlap wins
    tab = tables([[(0, 4, "A"), (5, 9, "B")]], [[(2, 8, "C")]])
    assert tab["strict"]["labels"]["B"]["incorrect"] == 1
    # equal overlaps: the earlier gold start wins
    tab = tables([[(0, 4, "A"), (6, 10, "B")]], [[(2, 8, "C")]])
    assert tab["strict"]["labels"]["A"]["incorrect"] == 1
    # one gold, two predictions with equal overlap: the earlier predicted start wins
    al = semeval_alignments(columns([[(2, 8, "A")]]), columns([[(5, 10, "A"), (0, 5, "A")]]))
    assert al["strict"].pairs_pred.tolist() == [1]


def test_result_fields_and_mergeable_counts():
    rng = np.random.default_rng(7)
    gold = random_docs(rng, 30)
    pred = random_docs(rng, 30)
    labels = ("A", "B", "C")
    res = match_semeval(columns(gold, labels), columns(pred, labels))
    c = res.counts
    strict = res.extra["schemas"]["strict"]
    assert c.labels == labels
    assert c.exact.tolist() == [strict["labels"].get(k, {"correct": 0})["correct"]
                                for k in labels]
    assert int(c.n_pred.sum()) == sum(len(d) for d in pred)
    assert int(c.n_gold.sum()) == sum(len(d) for d in gold)
    assert set(c.extra) == {f"{s}.{k}" for s in SCHEMAS for k in CATEGORIES}
    al = res.alignment
    assert len(al.pairs_gold) + len(al.missed) == len(al.gold)
    assert len(al.pairs_pred) + len(al.spurious) == len(al.pred)
    assert int(al.credit.sum()) == strict["overall"]["correct"]
    # batches summed give the same tables as one call
    halves = [
        match_semeval(columns(gold[a:b], labels), columns(pred[a:b], labels)).counts
        for a, b in ((0, 13), (13, 30))
    ]
    merged = sum(halves, Counts())
    assert merged == c
    assert semeval_tables(merged) == res.extra["schemas"]
    json.dumps(res.extra)  # plain Python numbers only


def test_empty_inputs():
    e = EntityColumns.empty((), 3)
    res = match_semeval(e, e)
    for schema in SCHEMAS:
        assert cipms(res.extra["schemas"][schema]["overall"]) == (0, 0, 0, 0, 0)
        assert res.extra["schemas"][schema]["labels"] == {}


# ---------------------------------------------------------------------------
# errors


@pytest.mark.parametrize("bad", ["nervalute", "", 1, True])
def test_unknown_compat_lists_valid_values(bad):
    e = EntityColumns.empty(("A",), 1)
    msg = rf"Expected `compat` to be one of 'nervaluate' or None; got {bad!r}\."
    with pytest.raises(ValueError, match=msg):
        match_semeval(e, e, compat=bad)


def test_zero_length_span_is_an_error_in_nervaluate_compat():
    gold = columns([[(0, 3, "A")], [(4, 4, "B"), (5, 5, "B")]])
    pred = columns([[(0, 3, "A")]], ("A", "B"))
    with pytest.raises(InvalidSpanError, match=r"2 gold span\(s\).*\(4, 4, 'B'\) in sequence 1"
                       r".*inclusive ends.*compat=None") as info:
        match_semeval(gold, pred, compat="nervaluate")
    assert info.value.spans == [(4, 4, "B"), (5, 5, "B")]
    assert info.value.document == 1
    match_semeval(gold, pred)  # fine by default


def test_reversed_span_is_an_error():
    gold = EntityColumns([0], [5], [3], [0], ("A",))
    with pytest.raises(InvalidSpanError, match=r"need 0 <= start <= end.*\(5, 3, 'A'\)"):
        match_semeval(gold, EntityColumns.empty(("A",), 1))


# ---------------------------------------------------------------------------
# differential tests against nervaluate 1.2.1


def compare_with_nervaluate(gold, pred, labels, *, per_label=True):
    ref = run_nervaluate(gold, pred, labels)
    tab = match_semeval(columns(gold, labels), columns(pred, labels), compat="nervaluate")
    tab = tab.extra["schemas"]
    for schema in SCHEMAS:
        assert tab[schema]["overall"] == nv_row(ref["overall"][NV_NAME[schema]]), schema
        if per_label:
            assert set(tab[schema]["labels"]) == set(ref["entities"])
            for label, rows in ref["entities"].items():
                assert tab[schema]["labels"][label] == nv_row(rows[NV_NAME[schema]]), (
                    schema, label)


@pytest.mark.parametrize("seed", range(12))
def test_compat_equals_nervaluate_on_random_documents(seed):
    # 250 documents per seed (3,000 in all) with overlapping and nested spans
    rng = np.random.default_rng(seed)
    labels = ("A", "B", "C")
    gold = random_docs(rng, 250, labels=labels)
    pred = random_docs(rng, 250, labels=labels)
    gold[0].append((0, 3, "A"))  # nervaluate needs the label set to be used
    compare_with_nervaluate(gold, pred, labels)


@pytest.mark.parametrize("seed", range(4))
def test_compat_equals_nervaluate_with_long_spans(seed):
    # spans longer than 100 tokens: nervaluate needs an overlap of 1% of the gold span
    rng = np.random.default_rng(500 + seed)
    labels = ("A", "B")
    gold = random_docs(rng, 150, labels=labels, length=300, max_n=5, long_share=0.4)
    pred = random_docs(rng, 150, labels=labels, length=300, max_n=5, long_share=0.4)
    gold[0].append((0, 3, "A"))
    compare_with_nervaluate(gold, pred, labels)


def test_compat_one_percent_threshold():
    # 1 token of overlap with a 101-token gold span is below nervaluate's 1%
    gold, pred = [[(0, 101, "A")]], [[(100, 103, "A")]]
    assert cipms(tables(gold, pred, compat="nervaluate")["strict"]["overall"]) == (0, 0, 0, 1, 1)
    assert cipms(tables(gold, pred)["strict"]["overall"]) == (0, 1, 0, 0, 0)
    compare_with_nervaluate(gold, pred, ["A"])


def test_compat_label_rows_are_nervaluates_reevaluation():
    gold, pred = [[(0, 5, "A")]], [[(0, 5, "B")]]
    compat = tables(gold, pred, compat="nervaluate")["strict"]
    assert cipms(compat["overall"]) == (0, 1, 0, 0, 0)
    assert cipms(compat["labels"]["A"]) == (0, 0, 0, 1, 0)
    assert cipms(compat["labels"]["B"]) == (0, 0, 0, 0, 1)
    default = tables(gold, pred)["strict"]
    assert cipms(default["labels"]["A"]) == (0, 1, 0, 0, 0)
    assert "B" not in default["labels"]
    compare_with_nervaluate(gold, pred, ["A", "B"])


def test_compat_counts_merge_over_batches():
    rng = np.random.default_rng(99)
    labels = ("A", "B", "C")
    gold, pred = random_docs(rng, 40, labels=labels), random_docs(rng, 40, labels=labels)
    whole = match_semeval(columns(gold, labels), columns(pred, labels), compat="nervaluate")
    parts = [match_semeval(columns(gold[a:b], labels), columns(pred[a:b], labels),
                           compat="nervaluate").counts for a, b in ((0, 17), (17, 40))]
    assert semeval_tables(sum(parts, Counts())) == whole.extra["schemas"]


def at_most_one_overlap(g, p):
    def overlaps(a, b):
        return min(a[1], b[1]) - max(a[0], b[0]) > 0
    return all(sum(overlaps(a, b) for b in p) <= 1 for a in g) and all(
        sum(overlaps(a, b) for a in g) <= 1 for b in p)


@pytest.mark.parametrize("seed", range(6))
def test_default_equals_nervaluate_without_conflicts(seed):
    rng = np.random.default_rng(2000 + seed)
    labels = ("A", "B", "C")
    gold, pred = [], []
    while len(gold) < 300:
        g = random_docs(rng, 1, labels=labels, max_n=4, length=30)[0]
        p = random_docs(rng, 1, labels=labels, max_n=4, length=30)[0]
        if at_most_one_overlap(g, p):
            gold.append(g)
            pred.append(p)
    gold[0].append((100, 103, "A"))
    ref = run_nervaluate(gold, pred, labels)
    tab = tables(gold, pred)
    for schema in SCHEMAS:
        assert tab[schema]["overall"] == nv_row(ref["overall"][NV_NAME[schema]])
    # label rows agree too where every overlapping pair shares its label
    same = [(g, p) for g, p in zip(gold, pred, strict=True)
            if all(a[2] == b[2] for a in g for b in p if min(a[1], b[1]) > max(a[0], b[0]))]
    gold2, pred2 = [g for g, _ in same], [p for _, p in same]
    ref2 = run_nervaluate(gold2, pred2, labels)
    tab2 = tables(gold2, pred2)
    for schema in SCHEMAS:
        for label, rows in ref2["entities"].items():
            assert tab2[schema]["labels"][label] == nv_row(rows[NV_NAME[schema]])


# ---------------------------------------------------------------------------
# properties

span_lists = st.lists(
    st.tuples(st.integers(0, 3), st.integers(0, 12), st.integers(0, 5), st.sampled_from("XYZ")),
    max_size=14,
)


def as_docs(rows, n_docs=4):
    docs = [[] for _ in range(n_docs)]
    for d, s, w, lab in rows:
        docs[d].append((s, s + w, lab))
    return docs


@settings(max_examples=150, deadline=None)
@given(span_lists, span_lists, st.randoms(use_true_random=False))
def test_property_order_of_documents_and_spans_does_not_matter(grows, prows, rnd):
    gold, pred = as_docs(grows), as_docs(prows)
    base = tables(gold, pred)
    perm = list(range(len(gold)))
    rnd.shuffle(perm)
    gold2 = [rnd.sample(gold[i], len(gold[i])) for i in perm]
    pred2 = [rnd.sample(pred[i], len(pred[i])) for i in perm]
    assert tables(gold2, pred2) == base


@settings(max_examples=150, deadline=None)
@given(span_lists, span_lists)
def test_property_label_rows_add_up_and_pos_act_agree(grows, prows):
    gold, pred = as_docs(grows), as_docs(prows)
    tab = tables(gold, pred)
    n_gold, n_pred = len(grows), len(prows)
    for schema in SCHEMAS:
        overall = tab[schema]["overall"]
        assert overall["possible"] == n_gold
        assert overall["actual"] == n_pred
        for key in (*CATEGORIES, "possible", "actual"):
            assert sum(r[key] for r in tab[schema]["labels"].values()) == overall[key]
    assert_rows_match_reference(tab, reference_default(gold, pred))


@settings(max_examples=100, deadline=None)
@given(span_lists)
def test_property_identical_inputs_score_one(rows):
    docs = as_docs(rows)
    tab = tables(docs, docs)
    for schema in SCHEMAS:
        row = tab[schema]["overall"]
        if rows:
            assert (row["precision"], row["recall"], row["f1"]) == (1.0, 1.0, 1.0)
        assert row["correct"] == len(rows)


@settings(max_examples=100, deadline=None)
@given(span_lists, span_lists)
def test_property_swapping_sides_swaps_precision_and_recall(grows, prows):
    gold, pred = as_docs(grows), as_docs(prows)
    a, b = tables(gold, pred), tables(pred, gold)
    for schema in SCHEMAS:
        ra, rb = a[schema]["overall"], b[schema]["overall"]
        assert ra["correct"] + ra["partial"] / 2 == rb["correct"] + rb["partial"] / 2
        assert ra["precision"] == pytest.approx(rb["recall"])


def test_all_permutations_of_a_conflicting_document():
    gold = [(0, 10, "A"), (0, 10, "B"), (3, 7, "A"), (12, 15, "C")]
    pred = [(0, 4, "A"), (0, 10, "B"), (2, 14, "C"), (12, 15, "A")]
    base = tables([gold], [pred])
    for g in itertools.permutations(gold):
        for p in itertools.permutations(pred):
            assert tables([list(g)], [list(p)]) == base
