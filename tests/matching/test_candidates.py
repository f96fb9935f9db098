"""Tests of the vectorised candidate-pair search (overlapping spans of the same sequence)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from nerscore.matching.candidates import candidate_pairs
from nerscore.values.spans import EntityColumns


def brute_force(gold: EntityColumns, pred: EntityColumns, *, same_label: bool = False):
    out = []
    for i in range(len(gold)):
        for j in range(len(pred)):
            if gold.seq[i] != pred.seq[j]:
                continue
            if same_label and gold.labels[gold.label[i]] != pred.labels[pred.label[j]]:
                continue
            gs, ge, ps, pe = gold.start[i], gold.end[i], pred.start[j], pred.end[j]
            if gs == ge or ps == pe:
                if gs == ps and ge == pe:
                    out.append((i, j, 0))
                continue
            ov = min(ge, pe) - max(gs, ps)
            if ov > 0:
                out.append((i, j, int(ov)))
    return sorted(out)


def as_list(gold, pred, **kw):
    gi, pi, ov = candidate_pairs(gold, pred, **kw)
    assert gi.dtype == pi.dtype == ov.dtype == np.int64
    return list(zip(gi.tolist(), pi.tolist(), ov.tolist(), strict=True))


def random_columns(rng, n, n_seq, length, labels, zero_share=0.1, offset=0):
    seq = rng.integers(0, n_seq, n)
    start = rng.integers(0, length, n)
    width = rng.integers(1, 8, n)
    width[rng.random(n) < zero_share] = 0
    lab = rng.integers(0, len(labels), n)
    return EntityColumns(seq, start + offset, start + width + offset, lab, labels, n_seq)


def test_docstring_example_by_hand():
    g = EntityColumns([0, 0, 1], [0, 5, 2], [4, 9, 2], [0, 0, 0], ("A",))
    p = EntityColumns([0, 0, 1, 1], [2, 9, 2, 0], [6, 12, 2, 5], [0, 0, 0, 0], ("A",))
    # (5,9) touches (9,12) but does not overlap; (2,2) in sequence 1 pairs with (2,2) only,
    # not with (0,5) that contains its position
    assert as_list(g, p) == [(0, 0, 2), (1, 0, 1), (2, 2, 0)]


def test_other_sequence_never_pairs():
    g = EntityColumns([0], [0], [5], [0], ("A",))
    p = EntityColumns([1], [0], [5], [0], ("A",), 2)
    assert as_list(g, p) == []


def test_empty_sides():
    e = EntityColumns.empty(("A",))
    g = EntityColumns([0], [0], [5], [0], ("A",))
    assert as_list(e, g) == []
    assert as_list(g, e) == []
    assert as_list(e, e) == []


def test_duplicates_pair_many_to_many():
    g = EntityColumns([0, 0], [3, 3], [3, 3], [0, 0], ("A",))
    p = EntityColumns([0, 0, 0], [3, 3, 2], [3, 3, 4], [0, 0, 0], ("A",))
    assert as_list(g, p) == [(0, 0, 0), (0, 1, 0), (1, 0, 0), (1, 1, 0)]


def test_same_label_compares_names_across_vocabularies():
    g = EntityColumns([0, 0], [0, 0], [4, 4], [0, 1], ("LOC", "PER"))
    p = EntityColumns([0], [1], [3], [0], ("PER",))
    assert as_list(g, p, same_label=True) == [(1, 0, 2)]
    assert as_list(g, p) == [(0, 0, 2), (1, 0, 2)]


@pytest.mark.parametrize("seed", range(30))
@pytest.mark.parametrize("same_label", [False, True])
def test_matches_brute_force_on_random_corpora(seed, same_label):
    rng = np.random.default_rng(seed)
    labels = ("A", "B", "C")
    g = random_columns(rng, int(rng.integers(0, 40)), 4, 30, labels)
    p = random_columns(rng, int(rng.integers(0, 40)), 4, 30, labels)
    assert as_list(g, p, same_label=same_label) == brute_force(g, p, same_label=same_label)


@pytest.mark.parametrize("seed", range(5))
def test_huge_offsets_use_the_rank_fallback(seed):
    rng = np.random.default_rng(100 + seed)
    labels = ("A", "B")
    # n_seq * width would overflow int64 keys: positions are compressed to ranks
    g = random_columns(rng, 40, 3, 30, labels, offset=2**61)
    p = random_columns(rng, 40, 3, 30, labels, offset=2**61)
    expected = brute_force(g, p, same_label=True)
    assert as_list(g, p, same_label=True) == expected
    assert as_list(g, p) == brute_force(g, p)


spans = st.lists(
    st.tuples(st.integers(0, 2), st.integers(0, 15), st.integers(0, 5), st.sampled_from("XY")),
    max_size=12,
)


def columns(rows):
    labels = ("X", "Y")
    return EntityColumns(
        [r[0] for r in rows], [r[1] for r in rows], [r[1] + r[2] for r in rows],
        [labels.index(r[3]) for r in rows], labels, 3,
    )


@settings(max_examples=200, deadline=None)
@given(spans, spans, st.booleans())
def test_property_equals_brute_force(grows, prows, same_label):
    g, p = columns(grows), columns(prows)
    assert as_list(g, p, same_label=same_label) == brute_force(g, p, same_label=same_label)
