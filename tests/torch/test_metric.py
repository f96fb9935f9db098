"""EntityMetric: states, compute, merge_state, reports and distributed evaluation."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("torchmetrics")

import nerscore  # noqa: E402
from nerscore.torch import EntityMetric, count_entities, entity_scores  # noqa: E402
from tests.torch._random import random_pair, reference_counts, tag_list  # noqa: E402

TAGS = tag_list("IOB2", ("LOC", "ORG", "PER"))
ROOT = Path(__file__).resolve().parents[2]


def _batches(seed, n=12):
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(n):
        p, t = random_pair(rng, (int(rng.integers(1, 6)), int(rng.integers(1, 15))), len(TAGS))
        out.append((torch.from_numpy(p), torch.from_numpy(t)))
    return out


@pytest.mark.parametrize(("mode", "match"), [("lenient", "exact"), ("strict", "threshold")])
def test_accumulates_like_count_matches(mode, match):
    metric = EntityMetric(TAGS, scheme="IOB2", mode=mode, match=match)
    assert metric.full_state_update is False
    assert metric.higher_is_better is True
    batches = _batches(0)
    for p, t in batches:
        metric.update(p, t)
    ref = sum((reference_counts(p.numpy(), t.numpy(), TAGS, scheme="IOB2", mode=mode,
                                match=match) for p, t in batches), nerscore.Counts())
    assert metric.to_counts() == ref
    assert metric.labels == ("LOC", "ORG", "PER")
    assert metric.tp.dtype == torch.int64
    assert metric.tp.shape == (3,)
    out = metric.compute()
    micro = nerscore.reduce_counts(ref, zero_division=0.0)
    assert out["f1"].item() == pytest.approx(micro.fbeta, abs=1e-12)
    assert out["accuracy"].item() == pytest.approx(ref.tokens_correct / ref.tokens)
    per = nerscore.reduce_counts(ref, average=None, zero_division=0.0)
    for lab in metric.labels:
        assert out[f"f1_{lab}"].item() == pytest.approx(per.fbeta.get(lab, 0.0), abs=1e-12)
    macro = nerscore.reduce_counts(ref, average="macro", zero_division=0.0)
    assert out["macro_recall"].item() == pytest.approx(macro.recall, abs=1e-12)
    weighted = nerscore.reduce_counts(ref, average="weighted", zero_division=0.0)
    assert out["weighted_precision"].item() == pytest.approx(weighted.precision, abs=1e-12)
    metric.reset()
    assert metric.to_counts() == nerscore.Counts()


def test_logits_and_word_ids_in_update():
    metric = EntityMetric(TAGS, aggregation="mean_logits")
    logits = torch.randn(2, 6, len(TAGS), generator=torch.Generator().manual_seed(0))
    word_ids = torch.tensor([[-1, 0, 0, 1, 2, -1], [-1, 0, 1, 1, -1, -1]])
    target = torch.tensor([[-100, 1, -100, 2, 0, -100], [-100, 3, 4, -100, -100, -100]])
    metric.update(logits, target, word_ids)
    ref = count_entities(logits, target, TAGS, word_ids=word_ids, aggregation="mean_logits")
    assert metric.to_counts() == ref.to_counts()


def test_merge_state_and_report():
    batches = _batches(1)
    a, b, whole = EntityMetric(TAGS), EntityMetric(TAGS), EntityMetric(TAGS)
    for k, (p, t) in enumerate(batches):
        (a if k % 2 else b).update(p, t)
        whole.update(p, t)
    a.merge_state(b)
    assert a.to_counts() == whole.to_counts()
    for key, value in whole.compute().items():
        assert torch.equal(a.compute()[key], value), key
    report = whole.to_report()
    # the report of the tag strings with the ignored positions removed, sequences included
    vocab = np.asarray(TAGS, dtype=object)
    gold = [vocab[t_row[t_row != -100]].tolist() for _, t in batches for t_row in t.numpy()]
    pred = [vocab[p_row[t_row != -100]].tolist() for p, t in batches
            for p_row, t_row in zip(p.numpy(), t.numpy(), strict=True)]
    ref = nerscore.evaluate(gold, pred, zero_division=0.0)
    assert report.n_sequences == len(gold) == sum(len(t) for _, t in batches)
    assert report.to_dict() == ref.to_dict()
    assert str(report) == str(ref)
    assert "None sequences" not in str(report)
    assert report.micro.f1 == pytest.approx(whole.compute()["f1"].item(), abs=1e-12)
    threshold = EntityMetric(TAGS, match="threshold", t=0.75)
    assert threshold.to_report().options["t"] == 0.75


def test_options_are_checked():
    with pytest.raises(nerscore.OptionError, match="Did you mean 'mean_logits'"):
        EntityMetric(TAGS, aggregation="mean")
    with pytest.raises(nerscore.OptionError, match=r"\[0.5, 1\]"):
        EntityMetric(TAGS, match="threshold", t=0.3)
    with pytest.raises(nerscore.SchemeError):
        EntityMetric(TAGS, mode="strict")
    with pytest.raises(nerscore.OptionError, match="Did you mean 'strict'"):
        EntityMetric(TAGS, scheme="IOB2", mode="stict")
    with pytest.raises(nerscore.OptionError, match="`validate` to be True or False"):
        EntityMetric(TAGS, validate="yes")
    assert EntityMetric(TAGS).validate is False


def test_update_refuses_bad_batches_and_keeps_its_state():
    metric = EntityMetric(TAGS)
    ok_p, ok_t = torch.tensor([[1, 2, 0]]), torch.tensor([[1, 2, 0]])
    metric.update(ok_p, ok_t)
    before = metric.to_counts()
    bad = [
        ((torch.tensor([[1, 2, 0]]), torch.tensor([[1, 2, len(TAGS)]])),
         nerscore.InvalidTagError, f"`target` holds label id {len(TAGS)} at batch 0, token 2"),
        ((torch.tensor([[-5, 2, 0]]), ok_t), nerscore.InvalidTagError,
         "`preds` holds label id -5 at batch 0, token 0"),
        ((ok_p, ok_t.float()), nerscore.InputTypeError, "integer label ids in `target`"),
        ((ok_p, ok_t[:, :2]), nerscore.LengthMismatchError, "sequence length"),
        ((ok_p[0], ok_t[0]), nerscore.InputTypeError, r"shape \(B, L\)"),
        ((ok_p.tolist(), ok_t), nerscore.InputTypeError, "torch.Tensor; got list"),
    ]
    for (p, t), error, match in bad:
        with pytest.raises(error, match=match):
            metric.update(p, t)
    assert metric.to_counts() == before
    assert metric.to_report().n_sequences == 1


def test_validate_refuses_non_finite_logits():
    logits = torch.zeros(2, 3, len(TAGS))
    logits[1, 2, 4] = float("nan")
    target = torch.tensor([[1, 2, 0], [0, 0, 1]])
    EntityMetric(TAGS).update(logits, target)  # unchecked by default
    metric = EntityMetric(TAGS, validate=True)
    with pytest.raises(nerscore.InputTypeError,
                       match=r"`preds` \(logits of shape \(2, 3, 7\)\) holds nan at batch 1, "
                             r"token 2, class 4 \(position \[1, 2, 4\]\)"):
        metric.update(logits, target)
    with pytest.raises(nerscore.InvalidTagError, match="`target` holds label id 70"):
        metric.update(torch.zeros(1, 3, len(TAGS)), torch.tensor([[1, 70, 0]]))
    metric.update(torch.zeros(2, 3, len(TAGS)), target)  # finite: counted
    assert metric.to_counts().tokens == 6


def test_tensor_reduction_divides_by_zero_as_zero():
    zero = torch.zeros(2, dtype=torch.int64)
    out = entity_scores(zero, zero, zero, ["A", "B"])
    assert all(v.item() == 0.0 for v in out.values())
    metric = EntityMetric(TAGS)
    metric.update(torch.tensor([[1, 2]]), torch.tensor([[-100, -100]]))
    empty = metric.compute()
    assert empty["f1"].item() == 0.0
    assert empty["accuracy"].item() == 0.0


DDP_SCRIPT = textwrap.dedent("""
    import json, sys
    import numpy as np
    import torch
    import torch.distributed as dist
    import torch.multiprocessing as mp
    sys.path.insert(0, {root!r})
    from nerscore.torch import EntityMetric
    from tests.torch.test_metric import TAGS, _batches

    def run(rank, port, out):
        dist.init_process_group("gloo", init_method=f"tcp://127.0.0.1:{{port}}", rank=rank,
                                world_size=2)
        try:
            metric = EntityMetric(TAGS, scheme="IOB2", mode="strict")
            for p, t in _batches(7)[rank::2] if rank == 0 else _batches(7)[1:5]:
                metric.update(p, t)
            res = {{k: v.item() for k, v in metric.compute().items()}}
            counts = metric.to_counts().to_dict()
            sequences = metric.to_report().n_sequences
            if rank == 0:
                with open(out, "w") as f:
                    json.dump({{"scores": res, "counts": counts, "sequences": sequences}}, f)
        finally:
            dist.destroy_process_group()

    if __name__ == "__main__":
        # fork: the workers inherit the imports instead of importing torch again
        mp.start_processes(run, args=(int(sys.argv[1]), sys.argv[2]), nprocs=2, join=True,
                           start_method="fork")
""")


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_two_gloo_processes_equal_one(tmp_path):
    script = tmp_path / "ddp.py"
    script.write_text(DDP_SCRIPT.format(root=str(ROOT)))
    out = tmp_path / "out.json"
    env = {**os.environ, "MASTER_ADDR": "127.0.0.1", "OMP_NUM_THREADS": "1"}
    proc = subprocess.Popen([sys.executable, str(script), str(_free_port()), str(out)],
                            cwd=ROOT, env=env, start_new_session=True,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        log, _ = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    assert proc.returncode == 0, log
    got = json.loads(out.read_text())
    single = EntityMetric(TAGS, scheme="IOB2", mode="strict")
    batches = _batches(7)
    for p, t in batches[0::2] + batches[1:5]:
        single.update(p, t)
    assert got["counts"] == single.to_counts().to_dict()
    assert got["sequences"] == single.to_report().n_sequences == sum(
        len(t) for _, t in batches[0::2] + batches[1:5])
    assert got["scores"] == {k: v.item() for k, v in single.compute().items()}
