"""nerscore.torch.scored_spans equals the NumPy path of nerscore.hf.scored_spans."""

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from nerscore.errors import InputTypeError, LengthMismatchError  # noqa: E402
from nerscore.hf import scored_spans as hf_scored_spans  # noqa: E402
from nerscore.torch import scored_spans  # noqa: E402

VOCAB = ["O", "B-PER", "I-PER", "B-LOC", "I-LOC"]


@pytest.mark.parametrize("rule", ["min", "mean", "first"])
def test_tensors_give_the_spans_and_scores_of_the_numpy_path(rule):
    gen = torch.Generator().manual_seed(0)
    logits = torch.randn(8, 12, 5, generator=gen) * 3
    target = torch.randint(0, 5, (8, 12), generator=gen)
    target[:, -3:] = -100
    gold, pred = scored_spans(logits, target, VOCAB, rule=rule)
    g2, p2 = hf_scored_spans((logits.numpy(), target.numpy()), VOCAB, rule=rule)
    assert gold == g2
    assert [[s[:3] for s in doc] for doc in pred] == [[s[:3] for s in doc] for doc in p2]
    np.testing.assert_allclose([s[3] for doc in pred for s in doc],
                               [s[3] for doc in p2 for s in doc], rtol=1e-6)
    probs = logits.softmax(-1)
    _, from_probs = scored_spans(probs, target, VOCAB, rule=rule, probs=True)
    assert [[s[:3] for s in d] for d in from_probs] == [[s[:3] for s in d] for d in pred]


def test_bad_tensors():
    with pytest.raises(InputTypeError, match="arg-max ids carry no score"):
        scored_spans(torch.zeros(1, 2, dtype=torch.long), torch.zeros(1, 2), VOCAB)
    with pytest.raises(LengthMismatchError, match="preds has 3 classes but `labels` names 5"):
        scored_spans(torch.zeros(1, 2, 3), torch.zeros(1, 2, dtype=torch.long), VOCAB)
