"""Subword to word aggregation against a plain-Python restatement, and end to end."""

from __future__ import annotations

import math
import zlib

import numpy as np
import pytest

torch = pytest.importorskip("torch")

import nerscore  # noqa: E402
from nerscore.torch import (  # noqa: E402
    STRATEGIES,
    aggregate_subwords,
    count_entities,
    word_ids_tensor,
    word_targets,
)
from tests.torch._random import reference_counts, tag_list  # noqa: E402


def _softmax(row):
    m = max(row)
    e = [math.exp(x - m) for x in row]
    s = sum(e)
    return [x / s for x in e]


def py_words(scores, word_ids, target, strategy):
    """Plain Python: (word label ids, word targets) of one row, words in order of id."""
    words: dict[int, list[int]] = {}
    for j, w in enumerate(word_ids):
        if w >= 0:
            words.setdefault(w, []).append(j)
    labels, targets = [], []
    for w in sorted(words):
        pos = words[w]
        rows = [list(scores[j]) for j in pos]
        n_cls = len(rows[0])
        if strategy == "first":
            agg = rows[0]
        elif strategy == "mean_logits":
            agg = [sum(r[c] for r in rows) / len(rows) for c in range(n_cls)]
        elif strategy == "max_per_class":
            agg = [max(r[c] for r in rows) for c in range(n_cls)]
        elif strategy == "hf_average":
            probs = [_softmax(r) for r in rows]
            agg = [sum(p[c] for p in probs) / len(probs) for c in range(n_cls)]
        else:  # hf_max: the first subword with the highest top probability
            probs = [_softmax(r) for r in rows]
            agg = max(probs, key=max)
        labels.append(max(range(n_cls), key=lambda c: (agg[c], -c)))
        targets.append(target[pos[0]])
    return labels, targets


def random_words(rng, n_rows, length, n_tags, *, offset=False):
    """Logits, word ids (specials -1, 1-3 subwords per word) and subword targets."""
    word_ids = np.full((n_rows, length), -1)
    target = np.full((n_rows, length), -100)
    for i in range(n_rows):
        j, w = 1, int(rng.integers(0, 50)) if offset else 0  # position 0: a special token
        stop = int(rng.integers(1, length + 1))
        while j < stop - 1:
            n_sub = int(rng.integers(1, 4))
            word_ids[i, j:min(j + n_sub, stop - 1)] = w
            if rng.random() > 0.05:  # a few words have no label
                target[i, j] = int(rng.integers(0, n_tags))
            j += n_sub
            w += 1 + int(rng.random() < 0.05)  # a word without subwords now and then
    logits = rng.normal(size=(n_rows, length, n_tags))
    return logits, word_ids, target


@pytest.mark.parametrize("strategy", STRATEGIES)
def test_strategies_equal_plain_python(strategy):
    rng = np.random.default_rng(zlib.crc32(strategy.encode()))
    n_tags = 5
    logits, word_ids, target = random_words(rng, 300, 14, n_tags, offset=True)
    scores, has_word = aggregate_subwords(torch.from_numpy(logits), torch.from_numpy(word_ids),
                                          strategy)
    wt = word_targets(torch.from_numpy(target), torch.from_numpy(word_ids))
    got_labels = scores.argmax(-1)
    for i in range(len(logits)):
        labels, targets = py_words(logits[i], word_ids[i].tolist(), target[i].tolist(), strategy)
        keep = has_word[i]
        assert got_labels[i][keep].tolist() == labels
        assert wt[i][keep].tolist() == targets
        assert (wt[i][~keep] == -100).all()


def test_small_examples_by_hand():
    logits = torch.tensor([[[0.0, 0.0, 0.0], [2.0, 0.0, 1.0], [0.0, 3.0, 0.0], [0.0, 0.0, 5.0],
                            [1.0, 1.0, 1.0]]], dtype=torch.float64)
    word_ids = torch.tensor([[-1, 0, 0, 1, -1]])
    first = aggregate_subwords(logits, word_ids, "first")[0][0, :2]
    assert first.tolist() == [[2.0, 0.0, 1.0], [0.0, 0.0, 5.0]]
    mean = aggregate_subwords(logits, word_ids, "mean_logits")[0][0, 0]
    assert mean.tolist() == [1.0, 1.5, 0.5]
    top = aggregate_subwords(logits, word_ids, "max_per_class")[0][0, 0]
    assert top.tolist() == [2.0, 3.0, 1.0]
    avg = aggregate_subwords(logits, word_ids, "hf_average")[0][0, 0]
    expected = (torch.softmax(logits[0, 1], 0) + torch.softmax(logits[0, 2], 0)) / 2
    assert torch.allclose(avg, expected)
    best = aggregate_subwords(logits, word_ids, "hf_max")[0][0, 0]
    assert torch.allclose(best, torch.softmax(logits[0, 2], 0))  # 3.0 beats 2.0
    ids = aggregate_subwords(torch.tensor([[0, 2, 1, 1, 0]]), word_ids, "first")
    assert ids[0].tolist() == [[2, 1, 0, 0, 0]]
    assert ids[1].tolist() == [[True, True, False, False, False]]


def test_hf_max_ties_take_the_first_subword():
    logits = torch.tensor([[[3.0, 0.0], [0.0, 3.0]]], dtype=torch.float64)
    scores, _ = aggregate_subwords(logits, torch.tensor([[0, 0]]), "hf_max")
    assert scores[0, 0].argmax().item() == 0


def test_errors():
    with pytest.raises(nerscore.OptionError, match=r"one of 'first'.*got 'avg'"):
        aggregate_subwords(torch.zeros(1, 2, 3), torch.zeros(1, 2, dtype=torch.long), "avg")
    with pytest.raises(nerscore.OptionError, match="strategy='first'"):
        aggregate_subwords(torch.zeros(1, 2, dtype=torch.long),
                           torch.zeros(1, 2, dtype=torch.long), "hf_max")
    with pytest.raises(nerscore.LengthMismatchError, match="to match `scores`"):
        aggregate_subwords(torch.zeros(1, 2, 3), torch.zeros(1, 3, dtype=torch.long))
    with pytest.raises(nerscore.InputTypeError, match="integer word ids"):
        aggregate_subwords(torch.zeros(1, 2, 3), torch.zeros(1, 2))
    with pytest.raises(nerscore.InputTypeError, match="floating-point logits"):
        aggregate_subwords(torch.zeros(1, 2, 3, dtype=torch.long),
                           torch.zeros(1, 2, dtype=torch.long), "mean_logits")
    with pytest.raises(nerscore.InputTypeError, match="integer label ids in `target`"):
        word_targets(torch.zeros(1, 2), torch.zeros(1, 2, dtype=torch.long))


def test_empty_rows_and_batches():
    for shape in ((2, 0), (0, 4)):
        ids = torch.zeros(shape, dtype=torch.long)
        got, has = aggregate_subwords(torch.zeros(*shape, 3), ids, "hf_max")
        assert got.shape == (*shape, 3)
        assert has.shape == shape
        assert word_targets(ids, ids).shape == shape


class FakeEncoding:
    """What the aggregation helper reads from a tokenizer's BatchEncoding."""

    def __init__(self, rows):
        self.rows = rows

    def __getitem__(self, key):
        assert key == "input_ids"
        return [[101] * len(r) for r in self.rows]

    def __len__(self):
        return len(self.rows)

    def word_ids(self, batch_index=0):
        return self.rows[batch_index]


def test_word_ids_tensor_from_a_batch_encoding():
    enc = FakeEncoding([[None, 0, 1, 1, None], [None, 0, None]])
    assert word_ids_tensor(enc).tolist() == [[-1, 0, 1, 1, -1], [-1, 0, -1, -1, -1]]
    assert word_ids_tensor(enc, length=3).tolist() == [[-1, 0, 1], [-1, 0, -1]]
    assert word_ids_tensor(FakeEncoding([])).shape == (0, 0)


SCHEMES = [None, "IO", "IOB1", "IOB2", "IOE1", "IOE2", "IOBES", "BILOU", "BMES"]
CASES = [(s, "lenient") for s in SCHEMES] + [(s, "strict") for s in SCHEMES if s]


@pytest.mark.parametrize(("scheme", "mode"), CASES)
@pytest.mark.parametrize("match", ["exact", "threshold"])
def test_word_level_counts_equal_numpy(scheme, mode, match):
    """1,000 batches of one sentence with subwords, -100 labels and every strategy."""
    rng = np.random.default_rng(zlib.crc32(f"{scheme}{mode}{match}".encode()))
    tags = tag_list(scheme)
    kw = {"scheme": scheme, "mode": mode, "match": match, **({"t": 0.5} if match != "exact" else {})}
    for k, strategy in enumerate(STRATEGIES):
        logits, word_ids, target = random_words(rng, 200, 12, len(tags), offset=k % 2 == 1)
        got = count_entities(torch.from_numpy(logits), torch.from_numpy(target), tags,
                             **kw, word_ids=torch.from_numpy(word_ids), aggregation=strategy)
        width = logits.shape[1]
        preds = np.zeros((len(logits), width), dtype=np.int64)
        gold = np.full((len(logits), width), -100)
        for i in range(len(logits)):
            labels, targets = py_words(logits[i], word_ids[i].tolist(), target[i].tolist(),
                                       strategy)
            preds[i, :len(labels)] = labels
            gold[i, :len(targets)] = targets
        ref = reference_counts(preds, gold, tags, **kw)
        assert got.to_counts() == ref, strategy
