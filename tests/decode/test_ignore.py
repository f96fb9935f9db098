"""Ignore regions: predictions where nobody annotated are neither true nor false positives."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import nerscore
from nerscore import Document, Entity, Span
from nerscore.decode.ignore import Regions, apply_ignore
from nerscore.errors import InvalidSpanError
from nerscore.values.spans import EntityColumns

TEXT = "lung cancer in the upper lobe was found"


def test_a_prediction_inside_an_ignore_region_is_neither_tp_nor_fp():
    gold = [Document("d", [(0, 4, "Disorder")], TEXT, ignore=[(19, 29)])]
    pred = [Document("d", [(0, 4, "Disorder"), (19, 24, "Disorder")], TEXT)]
    r = nerscore.evaluate(gold, pred)
    assert (r.micro.tp, r.micro.fp, r.micro.fn) == (1, 0, 0)
    assert r.entities["pred"]["ignored"] == 1
    assert r.entities["ignore_regions"] == 1
    assert r.notes == ("Ignore regions: 1 in the gold documents; 1 prediction overlapping them "
                       "was removed (neither true nor false positives).",)
    # without the region the same prediction is a false positive
    plain = nerscore.evaluate([Document("d", [(0, 4, "Disorder")], TEXT)], pred)
    assert (plain.micro.tp, plain.micro.fp) == (1, 1)


def test_a_region_of_one_label_ignores_that_label_only():
    gold = [{"id": "d", "text": TEXT, "spans": [], "ignore": [[19, 29, "Disorder"]]}]
    pred = [{"id": "d", "text": TEXT, "spans": [(19, 24, "Disorder"), (19, 24, "Anatomy")]}]
    r = nerscore.evaluate(gold, pred, zero_division=0.0)
    assert r.micro.n_pred == 1
    assert r.labels["Anatomy"].fp == 1
    assert r.counts.tallies == {"pred_ignored": 1, "ignore_regions": 1}


@pytest.mark.parametrize(("span", "ignored"), [
    ((18, 20, "X"), True),    # overlaps the start
    ((28, 32, "X"), True),    # overlaps the end
    ((10, 19, "X"), False),   # touches the start
    ((29, 33, "X"), False),   # touches the end
    ((19, 19, "X"), True),    # an empty span at the region's start
    ((29, 29, "X"), False),   # ... at its end
    ({"start": 0, "end": 33, "label": "X", "fragments": [[0, 4], [30, 33]]}, False),  # around it
    ({"start": 0, "end": 33, "label": "X", "fragments": [[0, 4], [25, 33]]}, True),
])
def test_what_overlaps_a_region(span, ignored):
    gold = {"d": Document("d", [], TEXT, ignore=[(19, 29)])}
    r = nerscore.evaluate(gold, {"d": [span]}, zero_division=0.0)
    assert r.entities["pred"]["ignored"] == int(ignored)
    assert r.micro.n_pred == int(not ignored)


def test_a_gold_entity_in_an_ignore_region_is_an_error():
    gold = [Document("doc-7", [(0, 4, "Disorder"), (20, 24, "Disorder")], TEXT,
                     ignore=[(19, 29, "Disorder")])]
    with pytest.raises(InvalidSpanError, match=r"Gold span \(20, 24, 'Disorder'\) of document "
                                               r"'doc-7' lies in the ignore region \[19, 29, "
                                               r"'Disorder'\], where nobody annotated Disorder; "
                                               r"a gold entity cannot be there"):
        nerscore.evaluate(gold, gold)
    read = [Document("doc-7", [(20, 24, "Disorder")], TEXT, ignore=[(19, 29, "Disorder")],
                     source="gold.jsonl", line=3)]
    with pytest.raises(InvalidSpanError, match=r"^gold\.jsonl, line 3: Gold span \(20, 24, "):
        nerscore.evaluate(read, read)  # where the document was read, when known
    other_label = [Document("doc-7", [(20, 24, "Anatomy")], TEXT, ignore=[(19, 29, "Disorder")])]
    assert nerscore.evaluate(other_label, other_label).micro.f1 == 1.0
    frag = {"start": 0, "end": 24, "label": "D", "fragments": [[0, 4], [20, 24]]}
    both = [{"text": TEXT, "spans": [frag], "ignore": [[19, 29]]}], [{"text": TEXT, "spans": []}]
    with pytest.raises(InvalidSpanError, match=r"\(fragments \[\[0, 4\], \[20, 24\]\]\) of "
                                               r"document 0 lies in the ignore region \[19, 29\], "
                                               r"where nobody annotated any label"):
        nerscore.evaluate(*both)


def test_regions_come_from_gold_and_differing_predicted_ones_are_named():
    gold = [Document("a", [], TEXT, ignore=[(0, 4)]), Document("b", [], TEXT)]
    pred = [Document("a", [(0, 4, "X")], TEXT, ignore=[(0, 4)]),
            Document("b", [(0, 4, "X")], TEXT, ignore=[(0, 4)])]
    r = nerscore.evaluate(gold, pred, zero_division=0.0)
    assert r.micro.fp == 1
    assert r.entities["pred"]["ignored"] == 1
    assert r.notes[0] == ("Ignore regions are taken from the gold documents; the regions of 1 "
                          "predicted document(s) differ from gold's and are not used: 'b'.")


def test_the_scorer_adds_up_what_was_ignored_over_batches():
    gold = [Document(str(k), [], TEXT, ignore=[(0, 11)]) for k in range(3)]
    pred = [Document(str(k), [(0, 4, "X"), (5, 11, "X"), (12, 14, "X")], TEXT) for k in range(3)]
    scorer = nerscore.EntityScorer(zero_division=0.0)
    for k in range(3):
        scorer.update(gold[k:k + 1], pred[k:k + 1])
    report = scorer.compute()
    assert report.entities["pred"]["ignored"] == 6
    assert report.entities["ignore_regions"] == 3
    assert report.micro.fp == 3
    assert report.counts == nerscore.count_matches(gold, pred)


def test_regions_columns():
    regions = Regions([[Span(0, 4), Entity(Span(10, 20), "A")], [Span(5, 6)]])
    cols = EntityColumns([0, 0, 0, 1, 1], [2, 12, 12, 0, 5], [3, 14, 14, 5, 5], [0, 0, 1, 0, 0],
                         ("A", "B"))
    rows, which = regions.hits(cols)
    assert rows.tolist() == [0, 1, 4]
    assert which.tolist() == [0, 1, 2]
    kept, n = apply_ignore(EntityColumns.empty(), cols, regions, ["a", "b"])
    assert (kept.start.tolist(), n) == ([12, 0], 3)


@settings(max_examples=100, deadline=None)
@given(spans=st.lists(st.tuples(st.integers(0, 30), st.integers(0, 6), st.sampled_from("AB")),
                      max_size=8),
       regions=st.lists(st.tuples(st.integers(0, 30), st.integers(1, 6),
                                  st.sampled_from(["A", "B", None])), max_size=4))
def test_hits_equal_a_brute_force_check(spans, regions):
    rows = [(s, s + n, lab) for s, n, lab in spans]
    cols = EntityColumns.from_entities([Entity(Span(s, e), lab) for s, e, lab in rows],
                                       labels=("A", "B"))
    regs = Regions([[Span(s, s + n) if lab is None else Entity(Span(s, s + n), lab)
                     for s, n, lab in regions]])

    def inside(s, e, a, b):
        return a <= s < b if s == e else s < b and a < e

    expected = [i for i, (s, e, lab) in enumerate(rows)
                if any(inside(s, e, a, a + n) and (rl is None or rl == lab)
                       for a, n, rl in regions)]
    assert regs.hits(cols)[0].tolist() == expected
    hit, which = regs.hits(cols)
    for i, r in zip(hit.tolist(), which.tolist(), strict=True):
        a, n, rl = regions[r]
        assert inside(rows[i][0], rows[i][1], a, a + n)
        assert rl in (None, rows[i][2])
    assert len(np.unique(hit)) == len(hit)
