"""Tensor counting equals nerscore.count_matches on the tag strings (-100 positions removed)."""

from __future__ import annotations

import itertools
import zlib

import numpy as np
import pytest

torch = pytest.importorskip("torch")

import nerscore  # noqa: E402
from nerscore.torch import TensorCounts, count_entities, entity_scores  # noqa: E402
from nerscore.torch.functional import as_ids  # noqa: E402
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


def test_logits_are_scored_as_their_argmax_with_ties_and_nan():
    rng = np.random.default_rng(5)
    tags = tag_list("IOB2")
    _, target = random_pair(rng, (40, 30), len(tags), p_hole=0.0)
    logits = torch.from_numpy(rng.integers(0, 3, size=(40, 30, len(tags))).astype(np.float32))
    logits[torch.from_numpy(rng.random(logits.shape) < 0.05)] = float("nan")
    target = torch.from_numpy(target)
    for dtype in (torch.float32, torch.float64, torch.bfloat16):
        lg = logits.to(dtype)
        assert torch.equal(as_ids(lg), lg.argmax(-1))
        got = count_entities(lg, target, tags, scheme="IOB2", mode="strict")
        ref = count_entities(lg.argmax(-1), target, tags, scheme="IOB2", mode="strict")
        assert got.to_counts() == ref.to_counts()


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
    ({"match": "threshold", "t": 0.4}, nerscore.OptionError, r"\[0.5, 1\]"),
    ({"match": "overlap"}, nerscore.OptionError, "one of 'exact', 'threshold'; got 'overlap'"),
    ({"match": "exct"}, nerscore.OptionError, "Did you mean 'exact'"),
    ({"mode": "conlleval"}, nerscore.OptionError, "not available on tensors"),
    ({"mode": "lenint"}, nerscore.OptionError,
     "one of 'lenient', 'strict'; got 'lenint'. Did you mean 'lenient'"),
    ({"mode": None}, nerscore.OptionError, "`mode`"),
    ({"mode": "strict"}, nerscore.SchemeError, "explicit scheme"),
    ({"scheme": "IOE2"}, nerscore.InvalidTagError, "B-PER"),
    ({"scheme": "IOB3"}, nerscore.SchemeError, "'BMES'; got 'IOB3'. Did you mean 'IOB"),
    ({"scheme": 3}, nerscore.SchemeError, "got 3"),
    # checked even when unused: no word_ids, match="exact"
    ({"aggregation": "frist"}, nerscore.OptionError, "'hf_max'; got 'frist'. Did you mean 'first'"),
    ({"aggregation": None}, nerscore.OptionError, "`aggregation`"),
    ({"t": 1.5}, nerscore.OptionError, r"\[0.5, 1\]"),
    ({"t": "0.7"}, nerscore.OptionError, r"\[0.5, 1\]"),
    ({"ignore_index": "x"}, nerscore.OptionError, "`ignore_index` to be an int"),
    ({"ignore_index": True}, nerscore.OptionError, "`ignore_index` to be an int"),
    ({"validate": 1}, nerscore.OptionError, "`validate` to be True or False"),
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


def test_option_spellings_the_core_accepts_still_work():
    tags = ["O", "B-PER", "I-PER"]
    want = count_entities(torch.tensor([[1, 2]]), torch.tensor([[1, 2]]), tags,
                          scheme="IOB2", mode="strict").to_counts()
    got = count_entities(torch.tensor([[1, 2]]), torch.tensor([[1, 2]]), tags,
                         scheme="bio", mode="STRICT").to_counts()
    assert got == want


def test_bad_inputs():
    tags = ["O", "B-PER", "I-PER"]
    with pytest.raises(nerscore.InvalidTagError, match="twice"):
        count_entities(torch.tensor([[1]]), torch.tensor([[1]]), ["O", "O"])
    with pytest.raises(nerscore.InputTypeError, match="3 classes"):
        count_entities(torch.zeros(1, 2, 4), torch.tensor([[1, 2]]), tags)
    with pytest.raises(nerscore.InputTypeError, match="integer label ids in `preds`"):
        count_entities(torch.zeros(1, 2), torch.tensor([[1, 2]]), tags)
    with pytest.raises(nerscore.InputTypeError, match="integer label ids in `target`"):
        count_entities(torch.tensor([[1, 2]]), torch.tensor([[1.0, 2.0]]), tags)
    with pytest.raises(nerscore.InputTypeError, match="floating-point logits"):
        count_entities(torch.ones(1, 2, 3, dtype=torch.long), torch.tensor([[1, 2]]), tags)
    with pytest.raises(nerscore.InputTypeError, match="integer label ids in `preds`"):
        count_entities(torch.tensor([[True, False]]), torch.tensor([[1, 2]]), tags)
    with pytest.raises(nerscore.LengthMismatchError, match="sequence length") as info:
        count_entities(torch.tensor([[1, 2]]), torch.tensor([[1, 2, 0]]), tags)
    assert (info.value.expected, info.value.actual) == (3, 2)
    with pytest.raises(nerscore.LengthMismatchError, match="batch size"):
        count_entities(torch.tensor([[1, 2]]), torch.tensor([[1, 2], [0, 0]]), tags)
    with pytest.raises(nerscore.LengthMismatchError, match="`word_ids` to match `preds`"):
        count_entities(torch.tensor([[1, 2]]), torch.tensor([[1, 2]]), tags,
                       word_ids=torch.tensor([[0, 1, 2]]))
    with pytest.raises(nerscore.InputTypeError, match=r"shape \(B, L\)"):
        count_entities(torch.zeros(1, 2, 3, 1), torch.tensor([[1, 2]]), tags)
    with pytest.raises(nerscore.InputTypeError, match="tag strings"):
        count_entities(torch.tensor([[1]]), torch.tensor([[1]]), "O")
    with pytest.raises(nerscore.InputTypeError, match="tag strings"):
        count_entities(torch.tensor([[1]]), torch.tensor([[1]]), [])
    with pytest.raises(nerscore.InputTypeError, match="`target` to be a tensor or a sequence of tensors; got ndarray"):
        count_entities(torch.tensor([[1]]), np.array([[1]]), tags)
    with pytest.raises(nerscore.InputTypeError, match="item 1 is list"):
        count_entities([torch.tensor([[1]]), [[1]]], torch.tensor([[1]]), tags)
    with pytest.raises(nerscore.LengthMismatchError, match="as many `target` batches"):
        count_entities([torch.tensor([[1]])] * 2, [torch.tensor([[1]])], tags)
    with pytest.raises(nerscore.InputTypeError, match="at least one batch"):
        count_entities([], [], tags)


def test_an_id_out_of_range_is_located_even_without_validate():
    tags = ["O", "B-PER", "I-PER"]
    ok = torch.tensor([[1, 2, 0]])
    cases = [  # (preds, target, tensor named, value, batch, token)
        (torch.tensor([[1, 7, 0]]), ok, "preds", 7, 0, 1),
        (ok, torch.tensor([[1, 2, -3]]), "target", -3, 0, 2),
        # the tables' virtual outside id (len(tags)) must not be read as O
        (torch.tensor([[1, 2, 3]]), ok, "preds", 3, 0, 2),
        (ok, torch.tensor([[1, 2, 3]]), "target", 3, 0, 2),
    ]
    for validate in (False, True):
        for preds, target, name, value, row, token in cases:
            with pytest.raises(nerscore.InvalidTagError) as info:
                count_entities(preds, target, tags, validate=validate)
            message = str(info.value)
            assert f"`{name}` holds label id {value} at batch {row}, token {token}" in message
            assert "0..2" in message
            assert "-100" in message
            assert (info.value.tag, info.value.sentence, info.value.index) == (
                str(value), row, token)
    # in a list of batches the message says which one
    with pytest.raises(nerscore.InvalidTagError, match=r"`target\[1\]` holds label id 9"):
        count_entities([ok, ok], [ok, torch.tensor([[9, 0, 0]])], tags)
    # ignored positions are dropped unread, whatever they hold
    c = count_entities(torch.tensor([[1, -100, 99]]), torch.tensor([[1, -100, -100]]), tags)
    assert c.to_counts().to_dict() == {"PER": {"tp": 1, "n_pred": 1, "n_gold": 1}}
    # an ignore_index just past the tags does not hide a bad id
    with pytest.raises(nerscore.InvalidTagError, match="label id 3"):
        count_entities(ok, torch.tensor([[1, 3, 4]]), tags, ignore_index=4)
    # an ignore_index equal to len(tags) drops those positions
    c = count_entities(ok, torch.tensor([[1, 2, 3]]), tags, ignore_index=3)
    assert (int(c.tokens), c.tp.tolist()) == (2, [1])


def test_validate_finds_non_finite_logits():
    tags = ["O", "B-PER", "I-PER"]
    logits = torch.nn.functional.one_hot(torch.tensor([[1, 2, 0, 0]]), 3).float()
    target = torch.tensor([[1, 2, 0, -100]])
    for bad in (float("nan"), float("inf"), float("-inf")):
        broken = logits.clone()
        broken[0, 2, 1] = bad
        silent = count_entities(broken, target, tags)  # the default: no host sync, unchecked
        assert silent.tp.tolist() == [1]
        with pytest.raises(nerscore.InputTypeError) as info:
            count_entities(broken, target, tags, validate=True)
        assert f"`preds` (logits of shape (1, 4, 3)) holds {bad} at batch 0, token 2, " \
               "class 1" in str(info.value)
    # at an ignored position the logits are not read
    broken = logits.clone()
    broken[0, 3] = float("nan")
    assert count_entities(broken, target, tags, validate=True).tp.tolist() == [1]
    # with word_ids, every subword of a word enters the aggregation
    with pytest.raises(nerscore.InputTypeError, match="token 3, class 0"):
        count_entities(broken, target, tags, validate=True,
                       word_ids=torch.tensor([[0, 1, 2, 2]]), aggregation="mean_logits")


def test_validate_false_skips_the_value_checks(monkeypatch):
    from nerscore.torch import functional

    calls = []
    monkeypatch.setattr(functional, "check_values", lambda *a, **k: calls.append(1))
    tags = ["O", "B-PER", "I-PER"]
    count_entities(torch.tensor([[1, 2]]), torch.tensor([[1, 2]]), tags)
    assert calls == []
    count_entities(torch.tensor([[1, 2]]), torch.tensor([[1, 2]]), tags, validate=True)
    assert calls == [1]


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
    with pytest.raises(nerscore.InputTypeError, match="different label sets"):
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
