"""Tensor counting equals nerscore.count_matches on the tag strings (-100 positions removed)."""

from __future__ import annotations

import itertools
import zlib

import numpy as np
import pytest

torch = pytest.importorskip("torch")

import nerscore  # noqa: E402
from nerscore.torch import TensorCounts, count_entities, entity_scores  # noqa: E402
from tests.torch._random import random_pair, reference_counts, tag_list  # noqa: E402

SCHEMES = [None, "IO", "IOB1", "IOB2", "IOE1", "IOE2", "IOBES", "BILOU", "BMES"]
DECODINGS = [(s, "lenient") for s in SCHEMES] + [(s, "strict") for s in SCHEMES if s]
OTHER_T = itertools.cycle([0.6, 2 / 3, 0.75, 0.9, 1.0])
MATCHES = [("exact", None), ("threshold", 0.5), ("threshold", "other")]
CASES = [(s, m, match, (next(OTHER_T) if t == "other" else t))
         for (s, m), (match, t) in itertools.product(DECODINGS, MATCHES)]

N_BATCHES = 1000  # per case: batches of 4 sentences, compared in groups of 250
ROWS = 4
GROUP = 250


def _kw(scheme, mode, match, t):
    kw = {"scheme": scheme, "mode": mode, "match": match}
    if t is not None:
        kw["t"] = t
    return kw


@pytest.mark.parametrize(("scheme", "mode", "match", "t"), CASES,
                         ids=[f"{s}-{m}-{x}-{t}" for s, m, x, t in CASES])
def test_equals_numpy_on_random_batches(scheme, mode, match, t):
    rng = np.random.default_rng(zlib.crc32(f"{scheme}-{mode}-{match}-{t}".encode()))
    tags = tag_list(scheme)
    kw = _kw(scheme, mode, match, t)
    for _ in range(N_BATCHES // GROUP):
        # the rows of one call are independent: GROUP batches of ROWS sentences at once
        length = int(rng.integers(0, 17))
        preds, target = random_pair(rng, (GROUP * ROWS, length), len(tags),
                                    p_change=float(rng.choice([0.1, 0.3, 0.7])))
        got = count_entities(torch.from_numpy(preds), torch.from_numpy(target), tags, **kw)
        ref = reference_counts(preds, target, tags, **kw)
        assert got.to_counts() == ref
        assert got.labels == ref.select(got.labels).labels


def test_logits_and_ragged_lists_of_batches():
    rng = np.random.default_rng(1)
    tags = tag_list("IOBES")
    batches = [random_pair(rng, (3, n), len(tags)) for n in (5, 0, 9, 1)]
    logits = [torch.from_numpy(rng.normal(size=(*p.shape, len(tags)))) for p, _ in batches]
    ids = [lg.argmax(-1).numpy() for lg in logits]
    targets = [torch.from_numpy(t) for _, t in batches]
    got = count_entities(logits, targets, tags, scheme="IOBES", mode="strict")
    ref = sum((reference_counts(p, t.numpy(), tags, scheme="IOBES", mode="strict")
               for p, t in zip(ids, targets, strict=True)), nerscore.Counts())
    assert got.to_counts() == ref


def test_holes_close_up_instead_of_splitting():
    tags = ["O", "B-PER", "I-PER"]
    target = torch.tensor([[1, -100, 2, 2]])
    c = count_entities(torch.tensor([[1, 0, 2, 2]]), target, tags)
    assert (c.tp.tolist(), c.n_pred.tolist(), c.n_gold.tolist()) == ([1], [1], [1])
    assert (int(c.tokens), int(c.tokens_correct)) == (3, 3)


def test_custom_ignore_index_and_one_dimensional_rows_are_refused():
    tags = ["O", "B-PER", "I-PER"]
    c = count_entities(torch.tensor([[1, 2, 0]]), torch.tensor([[1, -1, 2]]), tags,
                       ignore_index=-1)
    assert c.to_counts().to_dict() == {"PER": {"tp": 0, "n_pred": 1, "n_gold": 1}}
    with pytest.raises(ValueError, match=r"shape \(B, L\)"):
        count_entities(torch.tensor([1, 2]), torch.tensor([1, 2]), tags)


@pytest.mark.parametrize(("kw", "error", "match"), [
    ({"match": "threshold", "t": 0.4}, ValueError, r"\[0.5, 1\]"),
    ({"match": "overlap"}, ValueError, "'exact' or 'threshold'"),
    ({"mode": "conlleval"}, ValueError, "not available on tensors"),
    ({"mode": "strict"}, nerscore.SchemeError, "explicit scheme"),
    ({"scheme": "IOE2"}, nerscore.InvalidTagError, "B-PER"),
])
def test_bad_options(kw, error, match):
    with pytest.raises(error, match=match):
        count_entities(torch.tensor([[1]]), torch.tensor([[1]]), ["O", "B-PER", "I-PER"], **kw)


def test_a_tag_with_an_empty_type_is_invalid_in_the_tag_list():
    with pytest.raises(nerscore.InvalidTagError) as e:
        count_entities(torch.tensor([[1]]), torch.tensor([[1]]), ["O", "B-PER", "B-"])
    assert e.value.tag == "B-"
    assert str(e.value).startswith("Invalid tag 'B-' (label id 2) in the tag list: its type is "
                                   "empty")


def test_bad_inputs():
    tags = ["O", "B-PER", "I-PER"]
    with pytest.raises(ValueError, match="twice"):
        count_entities(torch.tensor([[1]]), torch.tensor([[1]]), ["O", "O"])
    with pytest.raises(ValueError, match="3 classes"):
        count_entities(torch.zeros(1, 2, 4), torch.tensor([[1, 2]]), tags)
    with pytest.raises(ValueError, match="integer label ids"):
        count_entities(torch.zeros(1, 2), torch.tensor([[1, 2]]), tags)
    with pytest.raises(ValueError, match="matching"):
        count_entities(torch.tensor([[1, 2]]), torch.tensor([[1, 2, 0]]), tags)
    with pytest.raises(TypeError, match="tag strings"):
        count_entities(torch.tensor([[1]]), torch.tensor([[1]]), "O")
    with pytest.raises(IndexError):
        count_entities(torch.tensor([[7]]), torch.tensor([[1]]), tags)


def test_tensor_counts_add_and_convert():
    tags = ["O", "B-PER", "I-PER", "B-LOC", "I-LOC"]
    a = count_entities(torch.tensor([[1, 2, 3]]), torch.tensor([[1, 2, 3]]), tags)
    b = count_entities(torch.tensor([[3, 0, 0]]), torch.tensor([[1, 0, -100]]), tags)
    total = a + b
    assert isinstance(total, TensorCounts)
    assert total.to_counts() == a.to_counts() + b.to_counts()
    assert total.tp.dtype == torch.int64
    assert total.tp.shape == (2,)
    other = count_entities(torch.tensor([[1]]), torch.tensor([[1]]), ["O", "B-X"])
    with pytest.raises(ValueError, match="different label sets"):
        a + other


def _random_counts(rng, k):
    n_gold = rng.integers(0, 4, size=k) * (rng.random(k) < 0.7)
    n_pred = rng.integers(0, 4, size=k) * (rng.random(k) < 0.7)
    tp = np.minimum(n_gold, n_pred) - rng.integers(0, 2, size=k)
    return np.maximum(tp, 0), n_pred, n_gold


def test_entity_scores_equal_reduce_counts():
    rng = np.random.default_rng(3)
    labels = ("A", "B", "C", "D")
    for _ in range(300):
        tp, n_pred, n_gold = _random_counts(rng, len(labels))
        counts = nerscore.Counts(labels, tp, n_pred, n_gold)
        got = entity_scores(torch.from_numpy(tp), torch.from_numpy(n_pred),
                            torch.from_numpy(n_gold), labels)
        for avg, prefix in (("micro", ""), ("macro", "macro_"), ("weighted", "weighted_")):
            ref = nerscore.reduce_counts(counts, average=avg, zero_division=0.0)
            for name, value in (("precision", ref.precision), ("recall", ref.recall),
                                ("f1", ref.fbeta)):
                assert got[prefix + name].item() == pytest.approx(value, abs=1e-12)
        per = nerscore.reduce_counts(counts, average=None, zero_division=0.0)
        for lab in labels:
            assert got[f"f1_{lab}"].item() == pytest.approx(per.fbeta.get(lab, 0.0), abs=1e-12)
            assert got[f"precision_{lab}"].item() == pytest.approx(
                per.precision.get(lab, 0.0), abs=1e-12)
            assert got[f"recall_{lab}"].item() == pytest.approx(
                per.recall.get(lab, 0.0), abs=1e-12)


@pytest.mark.parametrize("match", ["exact", "threshold"])
def test_many_labels_count_without_the_joint_table(monkeypatch, match):
    from nerscore.torch import _match

    rng = np.random.default_rng(5)
    tags = tag_list("IOB2", ("A", "B", "C"))
    preds, target = random_pair(rng, (500, 12), len(tags))
    want = count_entities(torch.from_numpy(preds), torch.from_numpy(target), tags, match=match)
    monkeypatch.setattr(_match, "MAX_JOINT", 0)
    got = count_entities(torch.from_numpy(preds), torch.from_numpy(target), tags, match=match)
    assert got.to_counts() == want.to_counts()
    assert got.to_counts() == reference_counts(preds, target, tags, match=match)


@pytest.mark.parametrize("t", [0.5, 0.51, 0.6, 2 / 3, 0.7, 0.75, 0.8, 0.9, 0.99, 1.0])
def test_min_overlap_table_is_the_float64_division_test(t):
    from nerscore.torch._match import min_overlap

    m = min_overlap(t, 600, torch.device("cpu")).tolist()
    for n in range(1, 601):
        assert m[n] == next(k for k in range(n + 1) if k / n >= t), n
