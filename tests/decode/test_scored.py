"""Span scores from token scores: min, mean and first over each decoded entity's tokens."""

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import nerscore
from nerscore.decode.scored import scored_span_lists, span_scores
from nerscore.errors import OptionError
from nerscore.hf import scored_spans

VOCAB = ["O", "B-PER", "I-PER", "B-LOC", "I-LOC"]
NAIVE = {"min": min, "mean": lambda xs: sum(xs) / len(xs), "first": lambda xs: xs[0]}


@settings(max_examples=200, deadline=None)
@given(st.lists(st.lists(st.integers(0, 4), min_size=1, max_size=12), min_size=1, max_size=5),
       st.sampled_from(["min", "mean", "first"]), st.randoms(use_true_random=False))
def test_span_scores_equal_the_rule_written_out(rows, rule, rnd):
    n, width = len(rows), max(map(len, rows))
    ids = np.zeros((n, width), dtype=np.int64)
    keep = np.zeros((n, width), dtype=bool)
    scores = np.zeros((n, width))
    for i, r in enumerate(rows):
        ids[i, :len(r)] = r
        keep[i, :len(r)] = True
        scores[i, :len(r)] = [rnd.random() for _ in r]
    _, pred = scored_span_lists(ids, scores, keep, VOCAB, rule=rule)
    tags = [[VOCAB[k] for k in r] for r in rows]
    for i, sent in enumerate(tags):
        ents = nerscore.tags_to_entities(sent)
        assert [(e.start, e.end, e.label) for e in ents] == [s[:3] for s in pred[i]]
        for e, s in zip(ents, pred[i], strict=True):
            assert s[3] == pytest.approx(NAIVE[rule](list(scores[i, e.start:e.end])))


def test_unknown_rule():
    with pytest.raises(OptionError, match="Expected `rule` to be one of 'min', 'mean' or "
                                          "'first'; got 'max'"):
        scored_span_lists([[1]], [[0.5]], [[True]], VOCAB, rule="max")


def test_min_reaches_the_last_token():
    assert span_scores(np.array([0.9, 0.1]), np.array([0]), np.array([2]), "min").tolist() == [0.1]


def test_hf_logits_with_ignored_positions_make_a_curve():
    rng = np.random.default_rng(0)
    labels = rng.integers(0, 5, size=(6, 10))
    labels[:, -2:] = -100
    logits = rng.normal(size=(6, 10, 5)) + 3 * np.eye(5)[np.where(labels < 0, 0, labels)]
    gold, pred = scored_spans((logits, labels), VOCAB)
    curve = nerscore.threshold_curve(gold, pred)
    # at the lowest threshold every prediction counts: the scores of the arg-max tags
    from nerscore.hf import compute_metrics

    out = compute_metrics(VOCAB)((logits, labels))
    assert curve.micro.tp[-1] / curve.micro.n_pred[-1] == pytest.approx(out["overall_precision"])
    assert curve.micro.recall[-1] == pytest.approx(out["overall_recall"])
