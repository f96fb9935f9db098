import re

import numpy as np
import pytest

from nerscore import Counts, EntityScorer, OptionError, count_matches


def test_add_unions_labels_and_sums():
    a = Counts.from_dict({"A": (1, 2, 3)})
    b = Counts.from_dict({"B": (0, 1, 0), "A": (1, 1, 1)})
    c = a + b
    assert c.labels == ("A", "B")
    assert c["A"].tp == 2
    assert c["A"].n_pred == 3
    assert c["A"].n_gold == 4
    assert sum([a, b]) == c == sum([b, a], Counts())


def test_credit_stays_separate_from_exact():
    a = Counts(("A",), [1], [2], [2], credit=[0.25])
    b = Counts(("A",), [2], [2], [2])
    c = a + b
    assert c["A"].exact == 3
    assert c["A"].credit == 0.25
    assert c["A"].tp == 3.25
    assert c["A"].fp == pytest.approx(0.75)
    assert c["A"].fn == pytest.approx(0.75)


def test_extra_categories_merge():
    a = Counts(("A",), [1], [1], [1], extra={"strict.incorrect": [2]})
    b = Counts(("A", "B"), [0, 0], [0, 1], [0, 0], extra={"strict.incorrect": [1, 5]})
    assert (a + b).extra["strict.incorrect"].tolist() == [3, 5]


def test_length_checked():
    with pytest.raises(ValueError, match="one per label"):
        Counts(("A", "B"), [1], [1, 2], [1, 2])


def test_scorer_batches_equal_one_call(rng):
    from tests.conftest import random_tag_corpus

    corpus_t = random_tag_corpus(rng, n_sentences=60)
    corpus_p = [[t if rng.random() < 0.7 else "O" for t in s] for s in corpus_t]
    whole = count_matches(corpus_t, corpus_p)
    scorer = EntityScorer(zero_division=0.0)
    for k in range(0, 60, 7):
        scorer.update(corpus_t[k:k + 7], corpus_p[k:k + 7])
    assert scorer.counts == whole
    rep = scorer.compute()
    assert rep.micro.f1 == pytest.approx(
        2 * whole.total().tp / (whole.total().n_pred + whole.total().n_gold))
    assert rep.accuracy == pytest.approx(whole.tokens_correct / whole.tokens)
    scorer.reset()
    assert scorer.counts == Counts()


def test_counts_eq_ignores_empty_labels():
    a = Counts(("A", "B"), [1, 0], [1, 0], [1, 0])
    assert a == Counts.from_dict({"A": (1, 1, 1)})
    assert a != Counts.from_dict({"A": (1, 1, 2)})
    assert np.array_equal(a.present().exact, [1])


GOLD = [["B-PER", "I-PER", "O", "B-LOC"], ["O", "B-ORG", "O", "O"]]
PRED = [["B-PER", "O", "O", "B-LOC"], ["B-ORG", "I-ORG", "O", "O"]]


@pytest.mark.parametrize(("left", "right", "only"), [
    ({"match": "semeval"}, {"match": "exact"}, "the left counts hold exact.*, partial.*, "
                                                "strict.*, type.* and the right do not"),
    ({"match": "overlap"}, {"match": "semeval"}, "the right counts hold exact.*, partial.*, "
                                                  "strict.*, type.* and the left do not"),
    ({"match": "semeval"}, {"match": "semeval", "compat": "nervaluate"},
     "the right counts hold nervaluate.exact.*, nervaluate.partial.*, nervaluate.strict.*, "
     "nervaluate.type.* and the left do not"),
])
def test_counts_of_different_matcher_categories_do_not_add(left, right, only):
    """Their sum's SemEval categories would not add up to its entities."""
    a, b = count_matches(GOLD, PRED, **left), count_matches(GOLD, PRED, **right)
    with pytest.raises(OptionError, match=rf"^Cannot add counts counted differently: "
                                          rf"{re.escape(only)}\. Counts made with "
                                          r"match='semeval' hold its categories") as e:
        _ = a + b
    assert e.value.option == "match"
    with pytest.raises(OptionError):
        sum([a, b], Counts())


def test_counts_of_one_matcher_and_the_neutral_counts_add():
    semeval = count_matches(GOLD, PRED, match="semeval")
    empty_batch = count_matches([[]], [[]], match="semeval")  # its categories, no label
    assert empty_batch.labels == ()
    assert empty_batch.extra
    total = sum([Counts(), semeval, empty_batch, semeval], Counts())
    assert total == semeval + semeval
    assert total.extra["strict.correct"].tolist() == (2 * semeval.extra["strict.correct"]).tolist()
    assert Counts() + semeval == semeval == semeval + 0
    with pytest.raises(OptionError):  # an exact batch without entities still counted tokens
        semeval + count_matches([["O"]], [["O"]])
