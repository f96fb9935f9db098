"""nerscore.hf.compute_metrics equals the evaluate/seqeval recipe, in both Trainer modes."""

from __future__ import annotations

import itertools
import subprocess
import sys
import textwrap
import warnings
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

import nerscore
from nerscore.hf import compute_metrics, preprocess_logits_for_metrics

ROOT = Path(__file__).resolve().parents[2]
TAGS = ["O", "B-PER", "I-PER", "B-LOC", "I-LOC", "B-ORG", "I-ORG", "B-MISC", "I-MISC"]


def seqeval_recipe(logits, label_ids, label_list, **kw):
    """What evaluate.load("seqeval") computes, from seqeval 1.2.2 directly."""
    from seqeval.metrics import accuracy_score, classification_report

    preds = np.argmax(logits, axis=-1) if logits.ndim == 3 else logits
    y_true = [[label_list[t] for t in row if t != -100] for row in label_ids]
    y_pred = [[label_list[p] for p, t in zip(prow, trow, strict=True) if t != -100]
              for prow, trow in zip(preds, label_ids, strict=True)]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        report = classification_report(y_true, y_pred, output_dict=True, zero_division=0, **kw)
    report.pop("weighted avg")
    macro = report.pop("macro avg")
    overall = report.pop("micro avg")
    out = {lab: {"precision": s["precision"], "recall": s["recall"], "f1": s["f1-score"],
                 "number": s["support"]} for lab, s in report.items()}
    out["overall_precision"] = overall["precision"]
    out["overall_recall"] = overall["recall"]
    out["overall_f1"] = overall["f1-score"]
    out["overall_accuracy"] = accuracy_score(y_true, y_pred)
    out["macro_precision"] = macro["precision"]
    out["macro_recall"] = macro["recall"]
    out["macro_f1"] = macro["f1-score"]
    return out


def assert_same(got, want):
    assert list(got) == list(want)
    for key, value in want.items():
        if isinstance(value, dict):
            assert got[key]["number"] == value["number"]
            for k in ("precision", "recall", "f1"):
                assert got[key][k] == pytest.approx(float(value[k]), rel=1e-12, abs=1e-12)
        else:
            assert got[key] == pytest.approx(float(value), rel=1e-12, abs=1e-12), key


def eval_set(seed, n=64, length=20):
    rng = np.random.default_rng(seed)
    labels = rng.integers(0, len(TAGS), size=(n, length))
    labels = np.where(rng.random((n, length)) < 0.5, 0, labels)
    lengths = rng.integers(1, length + 1, size=n)
    labels = np.where(np.arange(length) >= lengths[:, None], -100, labels)
    labels = np.where(rng.random((n, length)) < 0.15, -100, labels)  # subwords, specials
    logits = rng.normal(size=(n, length, len(TAGS))).astype(np.float32)
    logits[..., 0] += 0.5
    logits += 3.0 * np.eye(len(TAGS), dtype=np.float32)[np.maximum(labels, 0)] * (
        rng.random((n, length, 1)) < 0.7)
    return logits, labels


@pytest.mark.parametrize("seed", range(5))
def test_numpy_mode_equals_seqeval(seed):
    logits, labels = eval_set(seed)
    f = compute_metrics(TAGS)
    got = f(SimpleNamespace(predictions=logits, label_ids=labels))
    assert_same(got, seqeval_recipe(logits, labels, TAGS))
    ids = preprocess_logits_for_metrics(logits, labels)
    assert_same(f((ids, labels)), seqeval_recipe(logits, labels, TAGS))


def test_strict_mode_equals_seqeval_strict():
    from seqeval.scheme import IOB2

    logits, labels = eval_set(11)
    got = compute_metrics(TAGS, scheme="IOB2", mode="strict")(
        SimpleNamespace(predictions=(logits, None), label_ids=labels))
    assert_same(got, seqeval_recipe(logits, labels, TAGS, mode="strict", scheme=IOB2))


def test_batch_mode_with_tensors_equals_seqeval():
    torch = pytest.importorskip("torch")
    logits, labels = eval_set(3, n=50)
    f = compute_metrics(TAGS)
    bounds = [0, 7, 8, 30, 50]
    for k, (lo, hi) in enumerate(itertools.pairwise(bounds)):
        last = hi == bounds[-1]
        batch = (torch.from_numpy(logits[lo:hi]), torch.from_numpy(labels[lo:hi]))
        if k % 2:  # as with preprocess_logits_for_metrics
            batch = (preprocess_logits_for_metrics(batch[0], batch[1]), batch[1])
        out = f(SimpleNamespace(predictions=batch[0], label_ids=batch[1]), compute_result=last)
        assert (out != {}) == last
    assert_same(out, seqeval_recipe(logits, labels, TAGS))
    # the state was cleared: the next evaluation starts afresh
    again = f(SimpleNamespace(predictions=torch.from_numpy(logits[:5]),
                              label_ids=torch.from_numpy(labels[:5])), compute_result=True)
    assert_same(again, seqeval_recipe(logits[:5], labels[:5], TAGS))


def test_batch_mode_with_arrays():
    logits, labels = eval_set(4, n=20)
    f = compute_metrics(TAGS, scheme="IOB2")
    assert f((logits[:9], labels[:9]), compute_result=False) == {}
    out = f((logits[9:], labels[9:]), compute_result=True)
    assert_same(out, seqeval_recipe(logits, labels, TAGS))


def test_no_entities_and_bad_input():
    f = compute_metrics(TAGS)
    out = f((np.zeros((2, 3), dtype=np.int64), np.full((2, 3), -100)))
    assert out == {"overall_precision": 0.0, "overall_recall": 0.0, "overall_f1": 0.0,
                   "overall_accuracy": 0.0, "macro_precision": 0.0, "macro_recall": 0.0,
                   "macro_f1": 0.0}
    with pytest.raises(nerscore.LengthMismatchError, match="same N and L"):
        f((np.zeros((2, 3), dtype=np.int64), np.zeros((2, 4), dtype=np.int64)))
    with pytest.raises(nerscore.InputTypeError, match="tag strings"):
        compute_metrics("O")
    with pytest.raises(nerscore.InputTypeError, match="tag strings"):
        compute_metrics([])


@pytest.mark.parametrize(("kw", "error", "match"), [
    ({"mode": "lenint"}, nerscore.OptionError, "got 'lenint'. Did you mean 'lenient'"),
    ({"mode": "conlleval"}, nerscore.OptionError, "one of 'lenient', 'strict'"),
    ({"scheme": "IOBSE"}, nerscore.SchemeError, "got 'IOBSE'. Did you mean 'IOBES'"),
    ({"validate": None}, nerscore.OptionError, "`validate` to be True or False"),
])
def test_bad_options(kw, error, match):
    with pytest.raises(error, match=match):
        compute_metrics(TAGS, **kw)


def test_ids_out_of_range_are_always_located():
    logits, labels = eval_set(5, n=6, length=8)
    for validate in (True, False):
        f = compute_metrics(TAGS, validate=validate)
        bad = labels.copy()
        bad[3, 2] = len(TAGS)
        with pytest.raises(nerscore.InvalidTagError,
                           match=r"`labels` holds label id 9 at sequence 3, token 2 "
                                 r"\(position \[3, 2\]\); label ids must lie in 0..8") as info:
            f((logits, bad))
        assert (info.value.sentence, info.value.index) == (3, 2)
        ids = logits.argmax(-1)
        ids[4, 1], labels[4, 1] = -7, 1
        with pytest.raises(nerscore.InvalidTagError, match="`predictions` holds label id -7"):
            f((ids, labels))
        ids[4, 1], labels[4, 1] = -7, -100  # dropped with its position: not read
        assert f((ids, labels))["overall_f1"] >= 0.0


def test_non_finite_logits_are_refused_by_default():
    logits, labels = eval_set(6, n=6, length=8)
    labels[2, 5] = 1
    logits[2, 5, 3] = np.inf
    with pytest.raises(nerscore.InputTypeError,
                       match=r"holds inf at sequence 2, token 5, class 3 \(position \[2, 5, 3\]\)"):
        compute_metrics(TAGS)((logits, labels))
    out = compute_metrics(TAGS, validate=False)((logits, labels))  # scored as its arg-max
    assert out["overall_accuracy"] > 0.0
    labels[2, 5] = -100
    compute_metrics(TAGS)((logits, labels))  # at an ignored position: not read


@pytest.mark.parametrize(("preds", "labels", "error", "match"), [
    (np.zeros((1, 2)), np.zeros((1, 2), dtype=np.int64), nerscore.InputTypeError,
     "integer label ids \\(N, L\\) or floating-point logits"),
    (np.zeros((1, 2), dtype=np.int64), np.zeros((1, 2)), nerscore.InputTypeError,
     "integer label ids `labels`"),
    (np.zeros((1, 2, 9), dtype=np.int64), np.zeros((1, 2), dtype=np.int64),
     nerscore.InputTypeError, "floating-point logits"),
    (np.zeros((1, 2, 4)), np.zeros((1, 2), dtype=np.int64), nerscore.InputTypeError,
     "9 classes"),
    (np.zeros((1, 2), dtype=bool), np.zeros((1, 2), dtype=np.int64), nerscore.InputTypeError,
     "got bool"),
    (np.zeros(2, dtype=np.int64), np.zeros(2, dtype=np.int64), nerscore.InputTypeError,
     "shape \\(N, L\\)"),
    (np.zeros((2, 2), dtype=np.int64), np.zeros((3, 2), dtype=np.int64),
     nerscore.LengthMismatchError, "number of sequences"),
    (np.zeros((2, 2), dtype=np.int64), [[0, 1], [0]], nerscore.InputTypeError,
     "`labels` to be an array"),
])
def test_bad_arrays(preds, labels, error, match):
    with pytest.raises(error, match=match):
        compute_metrics(TAGS)((preds, labels))


def test_bad_eval_predictions():
    f = compute_metrics(TAGS)
    for bad in (None, 3, (np.zeros((1, 2)),)):
        with pytest.raises(nerscore.InputTypeError, match="EvalPrediction"):
            f(bad)


def test_batch_mode_with_tensors_checks_the_values():
    torch = pytest.importorskip("torch")
    logits, labels = eval_set(8, n=4, length=6)
    labels[1, 3] = 2
    logits[1, 3, 0] = np.nan
    batch = SimpleNamespace(predictions=torch.from_numpy(logits),
                            label_ids=torch.from_numpy(labels))
    with pytest.raises(nerscore.InputTypeError,
                       match=r"`predictions` \(logits of shape \(4, 6, 9\)\) holds nan at "
                             r"batch 1, token 3, class 0"):
        compute_metrics(TAGS)(batch, compute_result=True)
    compute_metrics(TAGS, validate=False)(batch, compute_result=True)
    labels[0, 0] = 11
    batch.label_ids = torch.from_numpy(labels)
    for validate in (True, False):  # on the CPU the lookup failure is located too
        with pytest.raises(nerscore.InvalidTagError, match="`labels` holds label id 11"):
            compute_metrics(TAGS, validate=validate)(batch, compute_result=False)


def test_works_without_torch():
    code = textwrap.dedent("""
        import sys
        sys.modules["torch"] = None
        import numpy as np
        from nerscore.hf import compute_metrics
        labels = np.array([[1, 2, -100, 0], [3, 0, 0, -100]])
        logits = np.eye(5)[np.array([[1, 2, 0, 0], [3, 4, 0, 0]])]
        f = compute_metrics(["O", "B-PER", "I-PER", "B-LOC", "I-LOC"])
        out = f((logits, labels))
        f((logits[:1], labels[:1]), compute_result=False)
        assert f((logits[1:], labels[1:]), compute_result=True) == out
        print(out["overall_f1"], out["PER"]["number"])
    """)
    proc = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                          text=True, timeout=120, check=False)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split() == ["0.5", "1"]


def test_trainer_with_a_tiny_bert_in_both_modes(tmp_path):
    torch = pytest.importorskip("torch")
    transformers = pytest.importorskip("transformers")
    pytest.importorskip("accelerate")
    tags = TAGS[:5]
    torch.manual_seed(0)
    config = transformers.BertConfig(vocab_size=100, hidden_size=32, num_hidden_layers=2,
                                     num_attention_heads=2, intermediate_size=37,
                                     num_labels=len(tags), max_position_embeddings=64)
    model = transformers.BertForTokenClassification(config)
    rng = np.random.default_rng(0)
    rows = []
    for _ in range(37):
        n = int(rng.integers(3, 16))
        ids = rng.integers(1, 100, size=16)
        ids[n:] = 0
        labels = rng.integers(0, len(tags), size=16)
        labels[n:] = -100
        labels[0] = -100
        rows.append({"input_ids": torch.tensor(ids), "labels": torch.tensor(labels),
                     "attention_mask": torch.tensor((np.arange(16) < n).astype(np.int64))})
    results = []
    for batch_mode in (False, True):
        args = transformers.TrainingArguments(
            output_dir=str(tmp_path), per_device_eval_batch_size=8, report_to=[],
            batch_eval_metrics=batch_mode, use_cpu=True, disable_tqdm=True)
        trainer = transformers.Trainer(
            model=model, args=args, eval_dataset=rows, compute_metrics=compute_metrics(tags),
            preprocess_logits_for_metrics=preprocess_logits_for_metrics if batch_mode else None)
        out = trainer.evaluate()
        results.append({k[5:]: v for k, v in out.items()
                        if k[5:] in ("PER", "LOC") or k.startswith(("eval_overall", "eval_macro"))})
    pred = trainer.predict(rows)
    want = seqeval_recipe(pred.predictions, pred.label_ids, tags)
    assert results[0] == results[1]
    assert_same(results[0], want)
