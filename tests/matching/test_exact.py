"""Exact matching's analysis step: the pairs of identical bounds across labels."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings, strategies as st

from nerscore.matching.exact import (
    _add_boundary_pairs,
    _label_ordered_pairs,
    _unique_bounds_pairs,
    match_exact,
)
from nerscore.values.spans import EntityColumns

LABELS = ("A", "B", "C")
FIELDS = ("pairs_gold", "pairs_pred", "credit", "missed", "spurious")

bounds = st.lists(st.tuples(st.integers(0, 2), st.integers(0, 6), st.integers(0, 3)),
                  min_size=1, max_size=5)
rows = st.lists(st.tuples(st.integers(0, 4), st.integers(0, 2)), max_size=10)


def _columns(pool, picks, *, in_order):
    """Rows at bounds of ``pool`` (so bounds repeat, across sides and within one)."""
    spans = [(*pool[k % len(pool)], lab) for k, lab in picks]
    spans = [(s, a, a + length, lab) for s, a, length, lab in spans]
    if in_order:  # one row per bound, in position order (what tag decoding gives)
        spans = sorted({(s, a, b): (s, a, b, lab) for s, a, b, lab in spans}.values())
    if not spans:
        return EntityColumns.empty(LABELS, 3)
    seq, start, end, label = zip(*spans, strict=True)
    return EntityColumns(list(seq), list(start), list(end), list(label), LABELS, 3)


def _fields(a):
    return [getattr(a, name).tolist() for name in FIELDS]


def _found(found):
    """A path's new pairs in their order, and its rows left, sorted (as the alignment keeps them)."""
    g_new, p_new, g_left, p_left = found
    return [g_new.tolist(), p_new.tolist(), sorted(g_left.tolist()), sorted(p_left.tolist())]


@settings(max_examples=300, deadline=None)
@given(pool=bounds, gold=rows, pred=rows, in_order=st.booleans())
def test_leftovers_with_unique_bounds_pair_as_in_label_order(pool, gold, pred, in_order):
    first = match_exact(_columns(pool, gold, in_order=in_order),
                        _columns(pool, pred, in_order=in_order)).alignment
    assert first is not None
    found = _unique_bounds_pairs(first)
    if in_order:
        assert found is not None  # one leftover per bound, in order: the quick path answers
    want = _found(_label_ordered_pairs(first))
    a = _add_boundary_pairs(first)
    assert _fields(a) == [first.pairs_gold.tolist() + want[0], first.pairs_pred.tolist() + want[1],
                          [1.0] * len(first.pairs_gold) + [0.0] * len(want[0]), want[2], want[3]]
    if found is not None:
        assert _found(found) == want


def test_repeated_bounds_take_the_label_order():
    gold = EntityColumns([0, 0], [0, 0], [2, 2], [2, 1], LABELS)
    pred = EntityColumns([0, 0], [0, 0], [2, 2], [0, 0], LABELS)
    first = match_exact(gold, pred).alignment
    assert first is not None
    assert _unique_bounds_pairs(first) is None
    a = _add_boundary_pairs(first)
    assert a.pairs_gold.tolist() == [1, 0]  # gold B before gold C
    assert np.asarray(a.credit).tolist() == [0.0, 0.0]
