"""The analysis pairing of a report is made once for all the views that read it."""

from __future__ import annotations

import numpy as np

import nerscore
from nerscore.analysis import pairing
from nerscore.analysis.pairing import analysis_alignment, pair_leftovers
from nerscore.matching.registry import get_matcher

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
