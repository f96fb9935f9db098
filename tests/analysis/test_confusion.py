"""Entity confusion matrix (docs/matchers/confusion.md)."""

from __future__ import annotations

import json
import warnings
from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from nerscore import count_matches, evaluate, reduce_counts
from nerscore.analysis.confusion import (
    ConfusionMatrix,
    confusion_from_alignment,
    confusion_from_report,
    confusion_matrix,
)
from nerscore.analysis.errors import ErrorCategory, errors_from_report, list_errors
from nerscore.analysis.pairing import analysis_alignment
from nerscore.matching.alignment import Alignment
from nerscore.matching.exact import boundary_alignment, match_exact
from nerscore.matching.registry import get_matcher
from nerscore.render.confusion import render_confusion
from nerscore.values.spans import EntityColumns
from tests.conftest import random_tag_corpus

# ---------------------------------------------------------------------------
# docs/matchers/confusion.md worked example, as character spans and as tags

TEXT = (
    "John Smith lives in Frederick. Forrest met Fannie Thomas "
    "on a trip to Colorado Springs."
)
GOLD = [("John Smith", "person"), ("Frederick", "city"), ("Forrest", "person"),
        ("Fannie Thomas", "person"), ("Colorado Springs", "city")]
PRED = [("John Smith", "person"), ("Frederick", "person"), ("Forrest", "city"),
        ("Fannie Thomas", "person"), ("Colorado Springs", "city")]


def char_columns(items: list[tuple[str, str]]) -> EntityColumns:
    labels = ("city", "person")
    starts = [TEXT.index(s) for s, _ in items]
    return EntityColumns(
        [0] * len(items), starts, [b + len(s) for b, (s, _) in zip(starts, items, strict=True)],
        [labels.index(lab) for _, lab in items], labels, 1,
    )


TOKENS = ["John", "Smith", "lives", "in", "Frederick", ".", "Forrest", "met", "Fannie", "Thomas", "on", "a", "trip", "to", "Colorado", "Springs", "."]


def tags(items: list[tuple[str, str]]) -> list[list[str]]:
    out = ["O"] * len(TOKENS)
    for surface, label in items:
        words = surface.split()
        for i in range(len(TOKENS)):
            if TOKENS[i: i + len(words)] == words:
                out[i] = f"B-{label}"
                for j in range(i + 1, i + len(words)):
                    out[j] = f"I-{label}"
    return [out]


EXPECTED = [[1, 1, 0], [1, 2, 0], [0, 0, 0]]  # rows city, person, none


def documents(items: list[tuple[str, str]]) -> list[dict]:
    c = char_columns(items)
    spans = [(s, e, c.labels[lab]) for s, e, lab in zip(c.start.tolist(), c.end.tolist(),
                                                       c.label.tolist(), strict=True)]
    return [{"id": "doc-1", "text": TEXT, "spans": spans}]


@pytest.mark.parametrize("form", ["chars", "documents", "tags"])
def test_worked_example(form):
    if form == "chars":
        cm = confusion_matrix(char_columns(GOLD), char_columns(PRED))
    elif form == "documents":
        cm = confusion_matrix(documents(GOLD), documents(PRED))
    else:
        cm = confusion_matrix(tags(GOLD), tags(PRED), scheme="IOB2")
    assert cm.labels == ("city", "person")
    assert cm.matrix.tolist() == EXPECTED
    assert cm.tp == {"city": 1, "person": 2}
    assert cm.fp == {"city": 1, "person": 1}
    assert cm.fn == {"city": 1, "person": 1}
    assert cm.cell("city", "person") == 1
    assert cm.cell("person", "city") == 1
    per = reduce_counts(cm.to_counts(), average=None)
    assert per.precision["person"] == pytest.approx(2 / 3)
    assert per.recall["person"] == pytest.approx(2 / 3)
    assert per.fbeta["person"] == pytest.approx(2 / 3)
    assert per.fbeta["city"] == pytest.approx(0.5)
    micro = reduce_counts(cm.to_counts(), average="micro")
    assert (micro.precision, micro.recall, micro.fbeta) == pytest.approx((0.6, 0.6, 0.6))
    total = cm.to_counts().total()
    assert (total.tp, total.fp, total.fn) == (3, 2, 2)


def test_worked_example_rendered():
    cm = confusion_matrix(tags(GOLD), tags(PRED))
    assert render_confusion(cm) == (
        "gold/pred  city  person  none\n"
        "city          1       1     0\n"
        "person        1       2     0\n"
        "none          0       0     0"
    )
    assert render_confusion(cm.normalize("pred"), digits=3) == (
        "gold/pred   city  person   none\n"
        "city       0.500   0.333  0.000\n"
        "person     0.500   0.667  0.000\n"
        "none       0.000   0.000  0.000"
    )


@pytest.mark.parametrize("form", ["documents", "tags"])
def test_worked_example_from_report(form):
    make = documents if form == "documents" else tags
    report = evaluate(make(GOLD), make(PRED))
    cm = confusion_from_report(report)
    assert cm.matrix.tolist() == EXPECTED
    assert cm.tp == {k: row.tp for k, row in report.labels.items()}
    assert confusion_from_report(report).matrix.tolist() == EXPECTED


# ---------------------------------------------------------------------------
# one pairing: the matrix is the error listing tallied by labels


def tally_of_errors(records, counts) -> dict[tuple[str | None, str | None], int]:
    """The cells the error records imply, plus the exact matches on the diagonal."""
    cells: Counter[tuple[str | None, str | None]] = Counter()
    for r in records:
        cells[(r.gold_label, r.pred_label)] += 1
    with_error = Counter(r.gold_label for r in records if r.gold_label is not None)
    for lab, row in counts.to_dict().items():
        exact = row["n_gold"] - with_error[lab]
        if exact:
            cells[(lab, lab)] += exact
    return {k: v for k, v in cells.items() if v}


def cells_of(cm: ConfusionMatrix) -> dict[tuple[str | None, str | None], int]:
    names: list[str | None] = [*cm.labels, None]
    m = cm.matrix.tolist()
    return {(g, p): m[i][j] for i, g in enumerate(names) for j, p in enumerate(names)
            if m[i][j]}


def check_agrees_with_errors(cm: ConfusionMatrix, records, exact_counts) -> None:
    """Every pair in one cell, every count of exact matching in the row and column sums."""
    assert cells_of(cm) == tally_of_errors(records, exact_counts)
    m = cm.matrix
    assert m[-1, -1] == 0
    c = exact_counts.to_dict()
    assert set(cm.labels) == set(c)
    boundary = Counter(r.gold_label for r in records
                       if r.category is ErrorCategory.WRONG_BOUNDARY)
    for i, lab in enumerate(cm.labels):
        assert m[i, i] == c[lab]["tp"] + boundary[lab], lab
        assert m[:, i].sum() == c[lab]["n_pred"], lab
        assert m[i, :].sum() == c[lab]["n_gold"], lab


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), letters=st.sampled_from(["BI", "BIES"]))
def test_agrees_with_errors_on_random_tags(seed, letters):
    rng = np.random.default_rng(seed)
    y_true = random_tag_corpus(rng, n_sentences=6, letters=letters)
    # perturb: relabel, drop and shift some tags
    y_pred = []
    for sent in y_true:
        out = []
        for tag in sent:
            r = rng.random()
            if r < 0.15:
                out.append("O")
            elif r < 0.3 and tag != "O":
                out.append(tag[:2] + ["PER", "LOC", "ORG"][int(rng.integers(3))])
            elif r < 0.4:
                out.append(["B-PER", "I-LOC", "B-ORG"][int(rng.integers(3))])
            else:
                out.append(tag)
        y_pred.append(out)
    cm = confusion_matrix(y_true, y_pred)
    check_agrees_with_errors(cm, list_errors(y_true, y_pred), count_matches(y_true, y_pred))


spans = st.lists(
    st.tuples(st.integers(0, 2), st.integers(0, 6), st.integers(0, 3), st.integers(0, 2)),
    max_size=12,
)


def columns(rows, labels=("A", "B", "C")) -> EntityColumns:
    return EntityColumns(
        [r[0] for r in rows], [r[1] for r in rows], [r[1] + r[2] for r in rows],
        [r[3] for r in rows], labels, 3,
    )


@settings(max_examples=200, deadline=None)
@given(g=spans, p=spans)
def test_agrees_with_errors_on_random_spans(g, p):
    """Duplicates and same-bounds/different-label entities included."""
    gold, pred = columns(g), columns(p)
    cm = confusion_matrix(gold, pred)
    check_agrees_with_errors(cm, list_errors(gold, pred), match_exact(gold, pred).counts)
    # order of the rows does not matter
    rng = np.random.default_rng(len(g) * 31 + len(p))
    cm2 = confusion_matrix(gold.take(rng.permutation(len(gold))),
                           pred.take(rng.permutation(len(pred))))
    assert cm2.matrix.tolist() == cm.matrix.tolist()


def span_docs(rows) -> list[list[tuple[int, int, str]]]:
    docs: list[list[tuple[int, int, str]]] = [[], [], []]
    for seq, start, length, lab in rows:
        docs[seq].append((start, start + length, "ABC"[lab]))
    return docs


@pytest.mark.parametrize("match", ["exact", "semeval", "overlap", "threshold"])
@settings(max_examples=60, deadline=None)
@given(g=spans, p=spans)
def test_report_views_classify_every_pair_alike(match, g, p):
    """confusion_from_report and errors_from_report read one pairing, for every matcher."""
    gold, pred = span_docs(g), span_docs(p)
    options = {"overlapping": "merge"} if match == "overlap" else {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # undefined ratios, overlap merges
        report = evaluate(gold, pred, match=match, **options)
    records = errors_from_report(report)
    cm = confusion_from_report(report)
    # exact matching of the entities the report holds (overlap merges nested ones)
    exact = match_exact(report.alignment.gold, report.alignment.pred).counts
    assert cells_of(cm) == tally_of_errors(records, exact)
    # and the pairs are the ones of the listing: every paired record is one pair of the
    # analysis alignment, and every pair that is not an exact match is one record
    a = analysis_alignment(report.match, report.alignment)
    pairs = Counter((int(a.gold.seq[i]), int(a.gold.start[i]), int(a.gold.end[i]),
                     a.gold.labels[a.gold.label[i]], int(a.pred.start[j]), int(a.pred.end[j]),
                     a.pred.labels[a.pred.label[j]])
                    for i, j in zip(a.pairs_gold.tolist(), a.pairs_pred.tolist(), strict=True))
    inexact = Counter({x: n for x, n in pairs.items() if (x[1], x[2], x[3]) != x[4:]})
    paired = Counter((r.sequence, r.gold_start, r.gold_end, r.gold_label, r.pred_start,
                      r.pred_end, r.pred_label) for r in records
                     if r.gold_label is not None and r.pred_label is not None)
    assert paired == inexact


def test_threshold_report_label_confusion_is_one_pair_in_both_views():
    """A LOC gold entity overlapping an ORG prediction: one pair, LOC -> ORG, in every view."""
    gold = [[(0, 10, "LOC")]]
    pred = [[(2, 10, "ORG")]]
    for match in ("threshold", "overlap", "exact"):
        report = evaluate(gold, pred, match=match, zero_division=0.0)
        cm = confusion_from_report(report)
        assert cm.cell("LOC", "ORG") == 1, match
        assert cm.cell("LOC", None) == cm.cell(None, "ORG") == 0, match
        assert [(e.category.value, e.gold_label, e.pred_label)
                for e in errors_from_report(report)] == [
            ("wrong_label_and_boundary", "LOC", "ORG")], match


def test_same_bounds_prefers_same_label():
    # gold A and B on one span, prediction B on it: B is a TP, A is missed
    gold = EntityColumns([0, 0], [0, 0], [2, 2], [0, 1], ("A", "B"))
    pred = EntityColumns([0], [0], [2], [1], ("A", "B"))
    cm = confusion_matrix(gold, pred)
    assert cm.matrix.tolist() == [[0, 0, 1], [0, 1, 0], [0, 0, 0]]
    # input order does not decide which labels are confused with which
    gold = EntityColumns([0, 0], [0, 0], [2, 2], [1, 0], ("A", "B", "C", "D"))
    pred = EntityColumns([0, 0], [0, 0], [2, 2], [3, 2], ("A", "B", "C", "D"))
    cm = confusion_matrix(gold, pred)
    assert cm.cell("A", "C") == 1
    assert cm.cell("B", "D") == 1


def test_sequences_never_pair():
    gold = EntityColumns([0], [0], [2], [0], ("A", "B"))
    pred = EntityColumns([1], [0], [2], [1], ("A", "B"))
    cm = confusion_matrix(gold, pred)
    assert cm.matrix.tolist() == [[0, 0, 1], [0, 0, 0], [0, 1, 0]]


# ---------------------------------------------------------------------------
# normalised views


def test_normalisations_sum_to_one():
    cm = ConfusionMatrix(("A", "B", "C"), [[3, 1, 0, 2], [0, 0, 0, 0], [1, 2, 5, 0],
                                           [4, 0, 1, 0]])
    rows = cm.normalize("true").matrix.sum(axis=1)
    assert rows == pytest.approx([1.0, 0.0, 1.0, 1.0])  # B has no gold: zeros
    cols = cm.normalize("pred").matrix.sum(axis=0)
    assert cols == pytest.approx([1.0, 1.0, 1.0, 1.0])
    assert cm.normalize("all").matrix.sum() == pytest.approx(1.0)
    assert cm.normalize("all").matrix[0, 0] == pytest.approx(3 / 19)
    assert cm.normalize("true").normalized_by == "true"
    assert cm.normalize("true").cell("A", None) == pytest.approx(2 / 6)
    json.dumps(cm.normalize("pred").to_dict())


def test_normalise_errors():
    cm = ConfusionMatrix(("A",), [[1, 0], [0, 0]])
    with pytest.raises(ValueError, match=r"Expected `by` to be one of 'true', 'pred', 'all'"):
        cm.normalize("rows")
    norm = cm.normalize("all")
    with pytest.raises(ValueError, match="needs raw counts; this matrix is normalised by 'all'"):
        norm.normalize("true")
    with pytest.raises(ValueError, match="needs raw counts"):
        _ = norm.tp


def test_empty_normalise_is_zero():
    cm = ConfusionMatrix((), [[0]])
    for by in ("true", "pred", "all"):
        assert cm.normalize(by).matrix.tolist() == [[0.0]]


# ---------------------------------------------------------------------------
# data object, inputs and errors


def test_to_dict_is_json_safe():
    cm = confusion_matrix(tags(GOLD), tags(PRED))
    d = json.loads(json.dumps(cm.to_dict()))
    assert d == {
        "labels": ["city", "person", "none"],
        "normalized_by": None,
        "matrix": EXPECTED,
        "per_label": {"city": {"tp": 1, "fp": 1, "fn": 1},
                      "person": {"tp": 2, "fp": 1, "fn": 1}},
    }


def test_matrix_is_read_only():
    cm = confusion_matrix(tags(GOLD), tags(PRED))
    with pytest.raises(ValueError, match="read-only"):
        cm.matrix[0, 0] = 5


def test_bad_matrix_shapes():
    with pytest.raises(ValueError, match=r"shape \(2, 2\) for 1 labels plus 'none'"):
        ConfusionMatrix(("A",), [[1, 2, 3]])
    with pytest.raises(ValueError, match="whole counts"):
        ConfusionMatrix(("A",), [[0.5, 0], [0, 0]])
    with pytest.raises(KeyError, match="Unknown label 'Z'"):
        ConfusionMatrix(("A",), [[1, 0], [0, 0]]).cell("Z", "A")


@pytest.mark.parametrize(("y_true", "y_pred"), [([], []), ([[]], [[]]), ([["O"]], [["O"]])])
def test_empty_inputs(y_true, y_pred):
    cm = confusion_matrix(y_true, y_pred)
    assert cm.labels == ()
    assert cm.matrix.tolist() == [[0]]
    assert cm.tp == {}
    assert render_confusion(cm) == "gold/pred  none\nnone          0"
    assert cm.to_dict()["matrix"] == [[0]]


def test_one_side_empty():
    cm = confusion_matrix([["B-PER", "O"]], [["O", "O"]])
    assert cm.matrix.tolist() == [[0, 1], [0, 0]]
    cm = confusion_matrix(EntityColumns.empty(), EntityColumns([0], [0], [1], [0], ("X",)))
    assert cm.matrix.tolist() == [[0, 0], [1, 0]]


def test_bad_align_and_options():
    with pytest.raises(ValueError, match=r"Expected `match` to be one of 'exact', .*got 'exakt'"):
        confusion_matrix([["B-PER"]], [["B-PER"]], match="exakt")
    with pytest.raises(ValueError, match=r"Expected `match` to be a matcher that pairs.*'token'"):
        confusion_matrix([["B-PER"]], [["B-PER"]], match="token")
    with pytest.raises(TypeError, match=r"Unknown keyword 's' \(an option of match='overlap', "
                                        r"not of match='exact'\)\. The keywords are 'match', "
                                        r"'scheme', 'mode', 'suffix', 'delimiter', 'outside', "
                                        r"'discontinuous', 'subset', 'min_score', 'labels_map', 'keep', 'drop' and the options of "
                                        r"match='exact': 'labeled'\."):
        confusion_matrix([["B-PER"]], [["B-PER"]], s=0.5)
    # exact's confusion pairs by bounds whatever the labels, so `labeled` changes nothing
    both = [["B-PER", "B-LOC"]], [["B-LOC", "B-LOC"]]
    assert (confusion_matrix(*both, labeled=False).matrix.tolist()
            == confusion_matrix(*both).matrix.tolist())


def test_report_without_alignment():
    report = evaluate([["B-PER"]], [["B-PER"]], match="token")
    with pytest.raises(ValueError, match=r"match='token'.*no entity alignment"):
        confusion_from_report(report)


def test_from_any_alignment():
    """An overlap-style alignment: pairs of different bounds and labels are tallied."""
    gold = EntityColumns([0, 0, 0], [0, 5, 9], [4, 8, 12], [0, 1, 1], ("A", "B"))
    pred = EntityColumns([0, 0], [1, 5], [4, 7], [1, 1], ("A", "B"))
    a = Alignment(gold, pred, np.array([0, 1]), np.array([0, 1]), np.array([0.0, 0.5]),
                  np.array([2]), np.array([], dtype=np.int64))
    cm = confusion_from_alignment(a)
    assert cm.matrix.tolist() == [[0, 1, 0], [0, 1, 1], [0, 0, 0]]


def test_boundary_alignment_pairs():
    gold = EntityColumns([0, 0, 0], [0, 0, 5], [2, 2, 6], [0, 1, 0], ("A", "B"))
    pred = EntityColumns([0, 0, 0], [0, 0, 5], [2, 2, 7], [1, 1, 0], ("A", "B"))
    a = boundary_alignment(gold, pred)
    pairs = sorted(zip(a.pairs_gold.tolist(), a.pairs_pred.tolist(), a.credit.tolist(),
                       strict=True))
    assert pairs in ([(0, 1, 0.0), (1, 0, 1.0)], [(0, 0, 0.0), (1, 1, 1.0)])
    assert a.missed.tolist() == [2]
    assert a.spurious.tolist() == [2]


def test_align_with_registered_matcher():
    gold = EntityColumns([0, 0], [0, 10], [10, 20], [0, 1], ("A", "B"))
    pred = EntityColumns([0, 0], [0, 10], [6, 20], [0, 0], ("A", "B"))
    cm = confusion_matrix(gold, pred, match="threshold")
    # threshold matching pairs same-label spans only: (0,10)A~(0,6)A; the B entity it
    # leaves unpaired overlaps the A prediction (10,20), so the two pair as B -> A
    assert cm.matrix.tolist() == [[1, 0, 0], [1, 0, 0], [0, 0, 0]]


def test_align_with_semeval_alignment():
    """docs/matchers/semeval.md worked example: SemEval pairs overlapping spans across labels."""
    labels = ("BRAND", "DRUG", "GROUP")
    gold = EntityColumns([0] * 5, [0, 6, 9, 12, 16], [1, 7, 10, 13, 17], [0, 1, 1, 1, 2], labels)
    pred = EntityColumns([0] * 5, [3, 5, 9, 12, 15], [4, 7, 10, 13, 17], [0, 1, 0, 1, 1], labels)
    cm = confusion_matrix(gold, pred, match="semeval")
    assert cm.matrix.tolist() == [[0, 0, 0, 1], [1, 2, 0, 0], [0, 1, 0, 0], [1, 0, 0, 0]]
    # exact bounds pair (9,10) and (12,13); the rest pair by overlap as SemEval pairs them
    cm = confusion_matrix(gold, pred)
    assert cm.matrix.tolist() == [[0, 0, 0, 1], [1, 2, 0, 0], [0, 1, 0, 0], [1, 0, 0, 0]]


def test_analysis_of_a_labeled_exact_alignment_is_boundary_alignment():
    """The pairing starts from the labeled alignment instead of matching again: same pairs."""
    gold = EntityColumns([0, 0, 0, 1, 1], [0, 0, 5, 0, 2], [2, 2, 6, 1, 4], [0, 1, 0, 1, 1],
                         ("A", "B"))
    pred = EntityColumns([0, 0, 0, 1, 1], [0, 0, 5, 0, 2], [2, 2, 7, 1, 4], [1, 1, 0, 0, 1],
                         ("A", "B"))
    for labeled in (True, False):
        alignment = match_exact(gold, pred, labeled=labeled).alignment
        assert alignment is not None
        got = get_matcher("exact").analysis(alignment)
        want = boundary_alignment(alignment.gold, alignment.pred)
        for name in ("pairs_gold", "pairs_pred", "credit", "missed", "spurious"):
            assert getattr(got, name).tolist() == getattr(want, name).tolist(), name
