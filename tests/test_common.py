"""Registry-driven invariants that every metric and matcher must satisfy."""

import numpy as np
import pytest

import nerscore
from nerscore.matching import MATCHERS
from tests.conftest import random_tag_corpus

#: matcher -> (options, symmetric under swapping gold and prediction)
CASES = {
    "exact": ({}, True),
    "token": ({}, True),
    "semeval": ({}, True),
    "overlap": ({"assignment": "optimal"}, True),
    "threshold": ({}, True),
    "mention": ({"normalize": "casefold"}, True),
}
METRICS = [nerscore.precision_score, nerscore.recall_score, nerscore.f1_score,
           nerscore.fbeta_score]


def test_every_matcher_is_covered():
    assert set(CASES) == {*MATCHERS, "token"}


def corpus_pair(seed=0, n=40):
    rng = np.random.default_rng(seed)
    gold = random_tag_corpus(rng, n_sentences=n, letters="BI")
    pred = [[t if rng.random() < 0.75 else str(rng.choice(["O", "B-PER", "I-LOC"])) for t in s]
            for s in gold]
    return gold, pred


@pytest.mark.parametrize("match", sorted(CASES))
def test_identical_inputs_score_one(match):
    gold, _ = corpus_pair()
    opts = CASES[match][0]
    r = nerscore.evaluate(gold, gold, match=match, **opts)
    assert (r.micro.precision, r.micro.recall, r.micro.f1) == (1.0, 1.0, 1.0)


@pytest.mark.parametrize("match", sorted(CASES))
def test_sentence_order_does_not_matter(match):
    gold, pred = corpus_pair(1)
    opts = CASES[match][0]
    perm = np.random.default_rng(2).permutation(len(gold))
    a = nerscore.count_matches(gold, pred, match=match, **opts)
    b = nerscore.count_matches([gold[i] for i in perm], [pred[i] for i in perm], match=match,
                               **opts)
    assert a == b


@pytest.mark.parametrize("match", sorted(m for m, (_, sym) in CASES.items() if sym))
def test_swapping_true_and_pred_swaps_p_and_r(match):
    gold, pred = corpus_pair(3)
    opts = CASES[match][0]
    a = nerscore.evaluate(gold, pred, match=match, zero_division=0.0, **opts)
    b = nerscore.evaluate(pred, gold, match=match, zero_division=0.0, **opts)
    assert a.micro.precision == pytest.approx(b.micro.recall)
    assert a.micro.recall == pytest.approx(b.micro.precision)
    assert a.micro.f1 == pytest.approx(b.micro.f1)


@pytest.mark.parametrize("match", sorted(CASES))
def test_batched_scorer_equals_one_call(match):
    gold, pred = corpus_pair(4)
    opts = CASES[match][0]
    scorer = nerscore.EntityScorer(match=match, zero_division=0.0, **opts)
    for k in range(0, len(gold), 9):
        scorer.update(gold[k:k + 9], pred[k:k + 9])
    whole = nerscore.evaluate(gold, pred, match=match, zero_division=0.0, **opts)
    assert scorer.counts == whole.counts
    assert scorer.compute().micro == whole.micro


@pytest.mark.parametrize("metric", METRICS)
@pytest.mark.parametrize("average", ["micro", "macro", "weighted", None])
def test_metric_functions_agree_with_report(metric, average):
    gold, pred = corpus_pair(5)
    r = nerscore.evaluate(gold, pred, zero_division=0.0)
    value = metric(gold, pred, average=average, zero_division=0.0)
    field = {"precision_score": "precision", "recall_score": "recall"}.get(metric.__name__, "f1")
    if average is None:
        assert value == pytest.approx({k: getattr(v, field) for k, v in r.labels.items()})
    else:
        assert value == pytest.approx(getattr(getattr(r, average), field))
