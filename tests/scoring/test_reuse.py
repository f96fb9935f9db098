"""Matcher runs remembered within a block (scoring/reuse.py): one match, the same results."""

from __future__ import annotations

import warnings

import pytest

import nerscore
from nerscore.errors import ConllevalMergeWarning
from nerscore.scoring import counting
from nerscore.scoring.reuse import remembered, reusing, reusing_runs, run_key

GOLD = [["B-PER", "I-PER", "O", "B-LOC"], ["B-ORG", "O"], ["O", "B-PER"]]
PRED = [["B-PER", "O", "O", "B-LOC"], ["B-LOC", "O"], ["B-MISC", "B-PER"]]


@pytest.fixture
def runs(monkeypatch):
    """The matcher runs actually computed."""
    done: list[tuple[object, object]] = []
    real = counting._run_matcher

    def counted(y_true, y_pred, *args):
        done.append((y_true, y_pred))
        return real(y_true, y_pred, *args)

    monkeypatch.setattr(counting, "_run_matcher", counted)
    return done


def _diagnosis(train, test, pred):
    return nerscore.diagnose(train, test, pred=pred, min_instances=1).to_dict()


def test_the_diagnostics_reuse_the_scoring_run_and_equal_their_own(runs):
    alone = nerscore.evaluate(GOLD, PRED, zero_division=0.0).to_dict(), _diagnosis(GOLD, GOLD,
                                                                                     PRED)
    assert len(runs) == 2
    runs.clear()
    with reusing_runs():
        both = nerscore.evaluate(GOLD, PRED, zero_division=0.0).to_dict(), _diagnosis(
            GOLD, GOLD, PRED)
    assert len(runs) == 1  # the diagnostics' match of GOLD and PRED is the scoring's
    assert both == alone


def test_other_inputs_options_or_matchers_are_run_again(runs):
    with reusing_runs():
        nerscore.evaluate(GOLD, PRED, zero_division=0.0)
        nerscore.evaluate([list(s) for s in GOLD], PRED, zero_division=0.0)  # equal, not same
        nerscore.evaluate(GOLD, PRED, zero_division=0.0, labeled=False)
        nerscore.evaluate(GOLD, PRED, zero_division=0.0, match="overlap")
        nerscore.evaluate(GOLD, PRED, zero_division=0.0, mode="strict", scheme="IOB2")
        nerscore.evaluate(GOLD, PRED, zero_division=0.0, labels_map={"MISC": "PER"})
        nerscore.evaluate(GOLD, PRED, zero_division=0.0, labels_map={"MISC": "PER"})
    assert len(runs) == 7  # the last: an option that is not hashable is never remembered


def test_outside_the_block_nothing_is_remembered(runs):
    with reusing_runs():
        nerscore.evaluate(GOLD, PRED, zero_division=0.0)
    nerscore.evaluate(GOLD, PRED, zero_division=0.0)
    assert len(runs) == 2


def test_a_remembered_run_gives_its_warnings_again(runs):
    gold = [["E-PER", "S-PER", "O"]]  # conlleval rules merge the two chunks: a warning

    def caught():
        with warnings.catch_warnings(record=True) as seen:
            warnings.simplefilter("always")
            nerscore.evaluate(gold, gold, mode="conlleval", zero_division=0.0)
        return [(w.category, str(w.message)) for w in seen]

    alone = caught()
    assert alone
    assert all(issubclass(c, ConllevalMergeWarning) for c, _ in alone)
    runs.clear()
    with reusing_runs():
        assert caught() == alone
        assert caught() == alone
    assert len(runs) == 1


def test_keys_and_the_memory():
    assert run_key(1, "exact", options={"a": 1, "b": 2}) == run_key(1, "exact",
                                                                    options={"b": 2, "a": 1})
    assert run_key(1, options={"keep": ["PER"]}) is None
    calls = []
    assert not reusing()
    with reusing_runs():
        assert reusing()
        assert remembered(None, (), lambda: calls.append(1) or len(calls)) == 1
        assert remembered(None, (), lambda: calls.append(1) or len(calls)) == 2
        assert remembered(("k",), (), lambda: calls.append(1) or len(calls)) == 3
        assert remembered(("k",), (), lambda: calls.append(1) or len(calls)) == 3
        with reusing_runs():  # a block of its own
            assert remembered(("k",), (), lambda: calls.append(1) or len(calls)) == 4
        assert remembered(("k",), (), lambda: calls.append(1) or len(calls)) == 3
    assert not reusing()
