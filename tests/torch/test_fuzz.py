"""Fuzzing the tensor entry points: a result, or a NerscoreError that says what and where.

Batches with NaN and infinite logits, label ids out of range, wrong dtypes
(float labels, integer logits, bool), wrong shapes (batch or length
mismatches, 1-D, 4-D, a wrong number of classes), empty batches and odd
options go through :func:`nerscore.torch.count_entities`,
:meth:`nerscore.torch.EntityMetric.update` and the callable of
:func:`nerscore.hf.compute_metrics` (NumPy arrays, and tensors in
``batch_eval_metrics`` mode). Any exception other than a
:class:`nerscore.NerscoreError` fails (a raw ``IndexError``,
``RuntimeError`` or ``TypeError`` from torch or NumPy included), and a
result must never have scored a label id out of range.
"""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

torch = pytest.importorskip("torch")
pytest.importorskip("torchmetrics")

import nerscore  # noqa: E402
from nerscore.hf import compute_metrics  # noqa: E402
from nerscore.torch import STRATEGIES, EntityMetric, count_entities  # noqa: E402

TAGS = ["O", "B-PER", "I-PER", "B-LOC", "I-LOC"]
N = len(TAGS)
FUZZ = settings(max_examples=150, deadline=None, database=None,
                suppress_health_check=[HealthCheck.too_slow])

INT_DTYPES = [torch.int64, torch.int32, torch.int16, torch.uint8]
FLOAT_DTYPES = [torch.float32, torch.float64, torch.float16, torch.bfloat16]
ANY_DTYPES = [*INT_DTYPES, *FLOAT_DTYPES, torch.bool]
BAD_IDS = [-1, -7, N, N + 1, 100, 10**6]


#: 7 in 8 draws take the usual branch (first, so that examples shrink towards it)
USUALLY = st.sampled_from([True] * 7 + [False])


def _dtype(draw, usual, others=ANY_DTYPES):
    """Mostly the right dtype, sometimes any."""
    return draw(st.sampled_from(usual if draw(USUALLY) else others))


def _shape(draw, usual):
    """Mostly the shape asked for, sometimes another rank or size."""
    if draw(USUALLY):
        return usual
    return draw(st.lists(st.integers(0, 4), max_size=4).map(tuple))


def _mostly(valid, invalid):
    """Mostly one of ``valid``, sometimes one of ``invalid``."""
    return USUALLY.flatmap(lambda usual: st.sampled_from(valid if usual else invalid))


def _ids(rng, shape, p_bad, p_hole):
    ids = rng.integers(0, N, size=shape)
    if p_bad:
        ids = np.where(rng.random(shape) < p_bad, rng.choice(BAD_IDS, size=shape), ids)
    if p_hole:
        ids = np.where(rng.random(shape) < p_hole, -100, ids)
    return ids


@st.composite
def batches(draw):
    """(preds, target, word_ids) as NumPy arrays of the dtypes the tensors will have."""
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    b, length = draw(st.integers(0, 3)), draw(st.integers(0, 6))
    logits = draw(st.booleans())
    p_bad = draw(st.sampled_from([0.0, 0.0, 0.1]))
    if logits:
        shape = _shape(draw, (b, length, draw(st.sampled_from([N] * 6 + [N - 1, N + 1, 0]))))
        preds = rng.normal(size=shape)
        if p_bad:
            odd = rng.choice([np.nan, np.inf, -np.inf], size=shape)
            preds = np.where(rng.random(shape) < p_bad, odd, preds)
        p_dtype = _dtype(draw, [torch.float32, torch.float64])
    else:
        preds = _ids(rng, _shape(draw, (b, length)), p_bad, draw(st.sampled_from([0, 0.3])))
        p_dtype = _dtype(draw, [torch.int64, torch.int32])
    target = _ids(rng, _shape(draw, (b, length)), draw(st.sampled_from([0.0, 0.0, 0.1])),
                  draw(st.sampled_from([0.0, 0.3])))
    t_dtype = _dtype(draw, [torch.int64], [torch.int32, torch.float32, torch.bool])
    word_ids = None
    if draw(st.booleans()):
        w_shape = _shape(draw, (b, length))
        word_ids = np.sort(rng.integers(-1, max(length, 1), size=w_shape), axis=-1) \
            if len(w_shape) else np.zeros(w_shape, dtype=np.int64)
        w_dtype = _dtype(draw, [torch.int64], [torch.int32, torch.float32])
        word_ids = _as(word_ids, w_dtype)
    return _as(preds, p_dtype), _as(target, t_dtype), word_ids


def _as(values, dtype):
    """The tensor a user would have built (casts wrap and truncate as torch's do)."""
    x = torch.from_numpy(np.asarray(values, dtype=np.float64))
    if dtype == torch.bool or dtype.is_floating_point:
        return x.to(dtype)
    x = torch.nan_to_num(x, nan=0.0, posinf=0.0, neginf=0.0)
    return x.to(torch.int64).to(dtype)


options = st.fixed_dictionaries({
    "aggregation": _mostly(STRATEGIES, ["frist", "", None]),
    "decoding": _mostly([{}, {"scheme": "IOB2", "mode": "strict"}, {"scheme": "bio"}],
                        [{"mode": "lenint"}, {"scheme": "IOB9"}, {"mode": "conlleval"}]),
    "match": _mostly(["exact", "threshold"], ["exct", "overlap"]),
    "validate": st.booleans(),
})


def _attempt(call):
    """The result, or None for a NerscoreError with a message; anything else propagates."""
    try:
        return call()
    except nerscore.NerscoreError as exc:
        message = str(exc)
    assert message.strip()
    return None


def _unread_bad_ids(preds, target, word_ids, validate):
    """No label id out of range at a scored position may have been counted."""
    if word_ids is not None and not validate:
        return  # only the first subword of each word is read
    t = target.long()
    scored = t != -100
    assert not (scored & ((t < 0) | (t >= N))).any()
    if preds.dim() == 2:
        p = preds.long()
        assert not (scored & ((p < 0) | (p >= N))).any()
    elif validate and word_ids is None:
        assert torch.isfinite(preds[scored]).all()


@FUZZ
@given(batch=batches(), opts=options)
def test_count_entities(batch, opts):
    preds, target, word_ids = batch
    got = _attempt(lambda: count_entities(
        preds, target, TAGS, word_ids=word_ids, aggregation=opts["aggregation"],
        match=opts["match"], validate=opts["validate"], **opts["decoding"]))
    if got is not None:
        _unread_bad_ids(preds, target, word_ids, opts["validate"])
        counts = got.to_counts()
        assert counts.tokens <= target.numel()
        assert (counts.exact <= np.minimum(counts.n_pred, counts.n_gold)).all()


@FUZZ
@given(batch=batches(), opts=options)
def test_entity_metric_update(batch, opts):
    preds, target, word_ids = batch
    metric = _attempt(lambda: EntityMetric(
        TAGS, aggregation=opts["aggregation"], match=opts["match"],
        validate=opts["validate"], **opts["decoding"]))
    if metric is None:
        return
    before = metric.to_counts()
    done = _attempt(lambda: metric.update(preds, target, word_ids) or True)
    if done is None:
        assert metric.to_counts() == before  # a refused batch leaves no trace
        return
    _unread_bad_ids(preds, target, word_ids, opts["validate"])
    out = metric.compute()
    assert 0.0 <= out["f1"].item() <= 1.0
    assert metric.to_report().n_sequences == target.shape[0]


@FUZZ
@given(batch=batches(), validate=st.booleans(),
       kind=st.sampled_from(["arrays", "tensors", "tensor batches"]),
       extra_outputs=st.booleans())
def test_hf_compute_metrics(batch, validate, kind, extra_outputs):
    preds, target, _ = batch
    f = compute_metrics(TAGS, validate=validate)
    predictions, label_ids = preds, target
    if kind == "arrays":  # NumPy has no bfloat16: such logits reach the Trainer as float32
        predictions = (preds.float() if preds.dtype == torch.bfloat16 else preds).numpy()
        label_ids = target.numpy()
    if extra_outputs:
        predictions = (predictions, None)
    eval_pred = SimpleNamespace(predictions=predictions, label_ids=label_ids)
    got = _attempt(lambda: f(eval_pred, compute_result=True) if kind == "tensor batches"
                   else f(eval_pred))
    if got is not None:
        _unread_bad_ids(preds, target, None, validate)
        assert 0.0 <= got["overall_f1"] <= 1.0
        assert 0.0 <= got["overall_accuracy"] <= 1.0
