"""``EntityScorer``: updates from several threads leave Python's warning state as it was."""

from __future__ import annotations

import sys
import threading
import warnings

import pytest

from nerscore import EntityScorer


def test_scorers_updated_in_threads_leave_the_warning_state_as_it_was():
    """Each update catches warnings; threads that did so in crossed order lost later warnings."""
    gold = [["B-PER", "I-PER", "O", "B-LOC"]] * 20
    pred = [["B-PER", "O", "I-LOC", "B-LOC"]] * 20
    before = (list(warnings.filters), warnings.showwarning)

    def work() -> None:
        for _ in range(150):
            scorer = EntityScorer(match="semeval", whole_input=True)
            scorer.update(gold, pred)

    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # threads switch inside the blocks that catch warnings
    try:
        threads = [threading.Thread(target=work) for _ in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    finally:
        sys.setswitchinterval(interval)
    assert (list(warnings.filters), warnings.showwarning) == before
    with pytest.warns(UserWarning, match="still seen"):
        warnings.warn("still seen", UserWarning, stacklevel=1)


def test_a_whole_input_batch_that_warns_then_raises_is_not_streamable(monkeypatch):
    """Read whole, the warning would be given before the error: a chunk cannot say both."""
    import nerscore.accumulate.scorer as scorer_module
    from nerscore.errors import InvalidTagError
    from nerscore.io.chunks import NotStreamable

    def warn_then_fail(*args, **kwargs):
        warnings.warn("a merged chunk", UserWarning, stacklevel=1)
        raise InvalidTagError("Invalid tag 'X' at token 0 of sentence 3.", tag="X")

    monkeypatch.setattr(scorer_module, "run_matcher", warn_then_fail)
    with pytest.raises(NotStreamable, match="a chunk warned: a merged chunk"):
        EntityScorer(whole_input=True).update([["O"]], [["O"]])
    with warnings.catch_warnings():  # a batch of a training loop: the error
        warnings.simplefilter("ignore")
        with pytest.raises(InvalidTagError):
            EntityScorer().update([["O"]], [["O"]])


@pytest.mark.parametrize("options", [
    {"match": "threshold"},
    {"match": "overlap", "overlapping": "merge"},
    {"match": "overlap", "compat": "loio"},
])
def test_batches_report_what_one_call_reports(options):
    """The matcher's details and notes (spans merged away, the threshold) are the whole input's."""
    import nerscore

    gold = [[(0, 3, "PER"), (2, 5, "PER")], [(0, 3, "PER"), (2, 5, "PER")], [(0, 2, "LOC")]]
    pred = [[(0, 5, "PER")], [(0, 5, "PER"), (6, 6, "PER")], [(4, 4, "LOC")]]
    if options.get("compat") == "loio":
        gold = [[(0, 3, "PER")], [(0, 3, "PER")], [(0, 2, "LOC")]]
    whole = nerscore.evaluate(gold, pred, zero_division=0.0, **options)
    scorer = EntityScorer(zero_division=0.0, **options)
    scorer.update(gold[:1], pred[:1])
    scorer.update(gold[1:], pred[1:])
    first, rest = EntityScorer(zero_division=0.0, **options), EntityScorer(zero_division=0.0,
                                                                             **options)
    first.update(gold[:1], pred[:1])
    rest.update(gold[1:], pred[1:])
    assert whole.notes or "t" in whole.extra
    assert scorer.compute().to_json() == whole.to_json()
    assert (first + rest).compute().to_json() == whole.to_json()


def test_kaggle_counts_are_not_summed_over_batches():
    """The reference's outer join adds one false positive per label, not one per batch."""
    from nerscore.errors import OptionError

    gold, pred = [[(0, 3, "PER")], [(0, 3, "PER")]], [[], []]
    scorer = EntityScorer(match="threshold", compat="kaggle", zero_division=0.0)
    scorer.update(gold, pred)  # one batch: the whole input
    assert scorer.compute().micro.n_pred == 1
    with pytest.raises(OptionError, match="cannot be summed over batches"):
        scorer.update(gold, pred)
    other = EntityScorer(match="threshold", compat="kaggle", zero_division=0.0)
    other.update(gold, pred)
    with pytest.raises(OptionError, match="cannot be summed over batches"):
        scorer + other
    assert scorer.compute().micro.n_pred == 1


@pytest.mark.parametrize(("mine", "theirs", "message"), [
    ({"match": "semeval"}, {}, r"match='semeval' here, 'exact' there"),
    ({"match": "overlap", "s": 0.5}, {"match": "overlap", "s": 1.0}, r"s=0\.5 here, 1\.0 there"),
    ({}, {"labels_map": {"ORG": "LOC"}}, r"labels_map=unset here, \{'ORG': 'LOC'\} there"),
    ({"scheme": "IOB2", "mode": "strict"}, {}, r"mode='strict' here, 'lenient' there"),
])
def test_scorers_that_count_differently_do_not_merge(mine, theirs, message):
    """Their counts would add up to a number that no setting gives."""
    from nerscore.errors import OptionError

    gold, pred = [["B-PER", "I-PER", "O", "B-LOC"]], [["B-PER", "O", "O", "B-ORG"]]
    a, b = EntityScorer(zero_division=0.0, **mine), EntityScorer(zero_division=0.0, **theirs)
    a.update(gold, pred)
    b.update(gold, pred)
    before = a.compute().to_json()
    with pytest.raises(OptionError, match=message):
        a.merge(b)
    with pytest.raises(OptionError, match=message):
        a + b
    assert a.compute().to_json() == before
    same = EntityScorer(zero_division=1.0, **mine)  # the reduction settings may differ
    same.update(gold, pred)
    a.merge(same)
    assert a.n_batches == 2


def test_merging_something_else_is_an_input_error():
    from nerscore.errors import InputTypeError

    with pytest.raises(InputTypeError, match="Expected an EntityScorer to merge; got int"):
        EntityScorer().merge(3)
