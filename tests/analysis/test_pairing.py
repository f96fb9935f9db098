"""The analysis pairing of a report is made once for all the views that read it."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings, strategies as st

import nerscore
from nerscore.analysis import pairing
from nerscore.analysis.pairing import (
    _greedy_runs,
    analysis_alignment,
    flat_leftover_pairs,
    leftover_pairs,
    pair_leftovers,
)
from nerscore.matching.alignment import Alignment
from nerscore.matching.exact import match_exact
from nerscore.matching.registry import get_matcher
from nerscore.values.spans import EntityColumns

GOLD = [["B-PER", "I-PER", "O", "B-LOC"], ["B-ORG", "O"]]
PRED = [["B-PER", "O", "O", "B-ORG"], ["O", "B-ORG"]]


def _fields(a):
    return [a.pairs_gold.tolist(), a.pairs_pred.tolist(), a.missed.tolist(),
            a.spurious.tolist(), np.asarray(a.credit).tolist()]


def test_the_same_alignment_is_paired_once(monkeypatch):
    r = nerscore.evaluate(GOLD, PRED, zero_division=0.0)
    calls = []
    monkeypatch.setattr(pairing, "pair_leftovers", lambda a: calls.append(1) or pair_leftovers(a))
    monkeypatch.setattr(pairing, "_last", None)
    first = analysis_alignment(r.match, r.alignment)
    assert analysis_alignment(r.match, r.alignment) is first
    assert len(calls) == 1
    assert _fields(first) == _fields(pair_leftovers(get_matcher("exact").analysis(r.alignment)))
    other = nerscore.evaluate(GOLD, PRED, zero_division=0.0)  # equal, but another alignment
    assert analysis_alignment(other.match, other.alignment) is not first
    assert len(calls) == 2
    nerscore.confusion_from_report(other)
    nerscore.errors_from_report(other)
    assert len(calls) == 2


def test_the_remembered_pairing_goes_with_its_alignment():
    import gc

    r = nerscore.evaluate([[(0, 10, "LOC")]], [[(2, 10, "ORG")]], match="threshold",
                          zero_division=0.0)
    first = pairing.analysis_alignment(r.match, r.alignment)
    assert pairing.analysis_alignment(r.match, r.alignment) is first
    del r
    gc.collect()
    assert pairing._last is None


# --- the sweep over flat leftovers gives the pairs of the general path --------------------------

LABELS = ("A", "B", "C")


def _columns(rows, n_seq):
    if not rows:
        return EntityColumns.empty(LABELS, n_seq)
    seq, start, end, label = zip(*rows, strict=True)
    return EntityColumns(list(seq), list(start), list(end), list(label), LABELS, n_seq)


@st.composite
def flat_rows(draw, n_seq):
    """Rows of no two overlapping spans per sequence (and a few zero-length ones)."""
    rows = []
    for s in range(n_seq):
        pos = 0
        for gap, length, lab in draw(st.lists(
                st.tuples(st.integers(0, 2), st.integers(1, 4), st.integers(0, 2)), max_size=6)):
            pos += gap
            rows.append((s, pos, pos + length, lab))
            pos += length
    zero = draw(st.lists(st.tuples(st.integers(0, n_seq - 1), st.integers(0, 20),
                                   st.integers(0, 2)), max_size=2))
    return rows + [(s, x, x, lab) for s, x, lab in zero]


@st.composite
def any_rows(draw, n_seq):
    """Rows of any spans: nested, overlapping, repeated, zero-length."""
    rows = draw(st.lists(st.tuples(st.integers(0, n_seq - 1), st.integers(0, 12),
                                   st.integers(0, 4), st.integers(0, 2)), max_size=12))
    return [(s, a, a + length, lab) for s, a, length, lab in rows]


def _bases(data, gold, pred):
    """The pairing after exact bounds, and one with no pairs and leftovers in any order."""
    first = match_exact(gold, pred).alignment
    assert first is not None
    z = np.zeros(0, dtype=np.int64)
    g_rest = np.array(data.draw(st.permutations(range(len(gold)))), dtype=np.int64)
    p_rest = np.array(data.draw(st.permutations(range(len(pred)))), dtype=np.int64)
    return [get_matcher("exact").analysis(first),
            Alignment(gold, pred, z, z, np.zeros(0), g_rest, p_rest)]


def _new_pairs(found):
    return [found[0].tolist(), found[1].tolist()]


def _overlapping(cols, rows):
    """Whether two rows of positive length overlap in one sequence (by brute force)."""
    spans = [(int(cols.seq[r]), int(cols.start[r]), int(cols.end[r])) for r in rows.tolist()]
    spans = [s for s in spans if s[1] < s[2]]
    return any(a[0] == b[0] and max(a[1], b[1]) < min(a[2], b[2])
               for i, a in enumerate(spans) for b in spans[i + 1:])


@settings(max_examples=300, deadline=None)
@given(data=st.data(), n_seq=st.integers(1, 3))
def test_flat_leftovers_are_paired_by_the_sweep_as_by_the_general_path(data, n_seq):
    gold = _columns(data.draw(st.permutations(data.draw(flat_rows(n_seq)))), n_seq)
    pred = _columns(data.draw(st.permutations(data.draw(flat_rows(n_seq)))), n_seq)
    for base in _bases(data, gold, pred):
        found = flat_leftover_pairs(base.gold, base.pred, base.missed, base.spurious)
        assert found is not None  # flat sides: the sweep answers
        assert _new_pairs(found) == _new_pairs(
            leftover_pairs(base.gold, base.pred, base.missed, base.spurious))


@settings(max_examples=300, deadline=None)
@given(data=st.data(), n_seq=st.integers(1, 3))
def test_the_sweep_answers_exactly_when_no_two_leftovers_of_a_side_overlap(data, n_seq):
    gold = _columns(data.draw(any_rows(n_seq)), n_seq)
    pred = _columns(data.draw(st.one_of(any_rows(n_seq), flat_rows(n_seq))), n_seq)
    for base in _bases(data, gold, pred):
        found = flat_leftover_pairs(base.gold, base.pred, base.missed, base.spurious)
        flat = not (_overlapping(base.gold, base.missed) or _overlapping(base.pred, base.spurious))
        assert (found is not None) == (flat or not len(base.missed) or not len(base.spurious))
        if found is not None:
            assert _new_pairs(found) == _new_pairs(
                leftover_pairs(base.gold, base.pred, base.missed, base.spurious))


def test_both_paths_pair_leftovers(monkeypatch):
    calls = []
    monkeypatch.setattr(pairing, "leftover_pairs",
                        lambda *a: calls.append(1) or leftover_pairs(*a))
    flat = nerscore.evaluate(GOLD, PRED, zero_division=0.0)  # tags: flat entities
    a = pair_leftovers(get_matcher("exact").analysis(flat.alignment))
    assert calls == []
    assert _fields(a) == [[1, 0], [1, 0], [2], [2], [0.0, 0.0]]  # same bounds, then overlap
    nested = nerscore.evaluate([[(0, 10, "LOC"), (2, 4, "PER")]], [[(2, 10, "ORG")]],
                               match="threshold", zero_division=0.0)
    a = pair_leftovers(get_matcher("threshold").analysis(nested.alignment))
    assert calls == [1]
    assert _fields(a) == [[0], [0], [1], [], [0.0]]


@st.composite
def staircases(draw):
    """Edges in position order: each shares its gold or its prediction with the one before."""
    steps = draw(st.lists(st.sampled_from(["gold", "pred", "both"]), max_size=60))
    ei, ej = [0], [0]
    for step in steps:
        ei.append(ei[-1] + (step != "pred"))
        ej.append(ej[-1] + (step != "gold"))
    key = draw(st.permutations(range(len(ei))))
    return np.array(ei, dtype=np.int64), np.array(ej, dtype=np.int64), np.array(key)


def _sequential(ei, ej, key):
    used_g, used_p, taken = set(), set(), np.zeros(len(ei), dtype=bool)
    for e in np.argsort(key).tolist():
        if ei[e] not in used_g and ej[e] not in used_p:
            used_g.add(ei[e])
            used_p.add(ej[e])
            taken[e] = True
    return taken.tolist()


@settings(max_examples=300, deadline=None)
@given(edges=staircases(), small=st.sampled_from([0, 3, 64]))
def test_rounds_over_runs_take_what_the_sequential_greedy_takes(edges, small):
    ei, ej, key = edges
    got = _greedy_runs(ei, ej, key, int(ei[-1]) + 1, int(ej[-1]) + 1, small=small)
    assert got.tolist() == _sequential(ei, ej, key)


def test_a_long_chain_of_preferences_finishes_in_the_loop():
    n = 400  # each edge prefers the next: one round takes one edge, then the loop goes on
    ei = np.arange(n, dtype=np.int64) // 2
    ej = (np.arange(n, dtype=np.int64) + 1) // 2
    key = np.arange(n, dtype=np.int64)[::-1].copy()
    got = _greedy_runs(ei, ej, key, int(ei[-1]) + 1, int(ej[-1]) + 1, small=0)
    assert got.tolist() == _sequential(ei, ej, key)
