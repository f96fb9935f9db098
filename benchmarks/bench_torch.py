"""Torch benchmark: the tensor update of nerscore.torch, and nerscore.hf vs the seqeval recipe.

Run from the repository root::

    .venv/bin/python benchmarks/bench_torch.py                  # a few minutes on 1 core
    .venv/bin/python benchmarks/bench_torch.py --repeats 5 --forward-rows 2

What is timed (one seeded BIO corpus with 9 tags, 4 entity types; predictions
are the gold tags with about 10% of the tokens replaced; about 10% of the
target positions are -100):

1. ``EntityMetric.update`` on the CPU with one thread (tokens/s per core), on
   batches of 32x512 (16K tokens) and 2048x512 (1M tokens), with label ids
   and with logits (arg-max included), for ``lenient``/``exact`` and
   ``strict``/``threshold``; on CUDA, when available, also eager and replayed
   from a captured CUDA graph;
2. the overhead of the update relative to one forward pass of a BERT-base
   sized encoder (``transformers.BertModel`` built from ``BertConfig()``, no
   download) on the same batch of ``--forward-rows`` x 512 tokens (skipped with
   a message when transformers is not installed);
3. ``nerscore.hf.compute_metrics`` on a 1M-token evaluation set of logits
   (pure NumPy) vs the ``evaluate.load("seqeval")`` recipe (arg-max, lists
   of tag strings without the -100 positions, seqeval 1.2.2's
   ``classification_report`` and ``accuracy_score``).

Before timing, the script checks that the tensor counts equal
``nerscore.count_matches`` and that ``compute_metrics`` gives the recipe's
numbers. Timings are medians of ``--repeats`` runs after one warm-up run
(the seqeval recipe: ``--seqeval-repeats`` runs, no warm-up), round-robin.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
import warnings
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import numpy as np
from _timing import Task, fmt_rate, fmt_time, interleaved, machine, median, optional, table

import nerscore

TAGS = ["O", "B-PER", "I-PER", "B-LOC", "I-LOC", "B-ORG", "I-ORG", "B-MISC", "I-MISC"]
TARGETS = {"tokens_per_s": 10e6, "hf_speedup": 50.0}


def make_batch(rng: np.random.Generator, rows: int, length: int) -> tuple[np.ndarray, np.ndarray]:
    """(pred ids, target ids with -100) of shape (rows, length): BIO tags from a Markov chain."""
    n = rows * length
    start = rng.random(n) < 0.08
    typ = rng.integers(0, 4, size=n)
    cont = rng.random(n) < 0.6
    idx = np.arange(n)
    # inside an entity: the latest start comes after the latest token that breaks a run
    last_start = np.maximum.accumulate(np.where(start, idx, -1))
    last_break = np.maximum.accumulate(np.where(~cont & ~start, idx, -1))
    cur = typ[np.maximum(last_start, 0)]
    gold = np.where(start, 1 + 2 * cur, np.where(last_start > last_break, 2 + 2 * cur, 0))
    gold = gold.reshape(rows, length)
    pred = np.where(rng.random((rows, length)) < 0.1,
                    rng.integers(0, len(TAGS), size=(rows, length)), gold)
    target = np.where(rng.random((rows, length)) < 0.1, -100, gold)
    return pred, target


def as_logits(rng: np.random.Generator, pred: np.ndarray) -> np.ndarray:
    logits = rng.normal(size=(*pred.shape, len(TAGS))).astype(np.float32)
    logits += 4.0 * np.eye(len(TAGS), dtype=np.float32)[pred]
    return logits


def seqeval_recipe(logits: np.ndarray, label_ids: np.ndarray) -> dict[str, Any]:
    """What ``evaluate.load("seqeval")`` computes in a token-classification script."""
    from seqeval.metrics import accuracy_score, classification_report

    preds = np.argmax(logits, axis=-1)
    y_true = [[TAGS[t] for t in row if t != -100] for row in label_ids]
    y_pred = [[TAGS[p] for p, t in zip(prow, trow, strict=True) if t != -100]
              for prow, trow in zip(preds, label_ids, strict=True)]
    report = classification_report(y_true, y_pred, output_dict=True)
    report.pop("macro avg")
    report.pop("weighted avg")
    overall = report.pop("micro avg")
    out: dict[str, Any] = {k: {"precision": v["precision"], "recall": v["recall"],
                               "f1": v["f1-score"], "number": v["support"]}
                           for k, v in report.items()}
    out["overall_precision"] = overall["precision"]
    out["overall_recall"] = overall["recall"]
    out["overall_f1"] = overall["f1-score"]
    out["overall_accuracy"] = accuracy_score(y_true, y_pred)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeats", type=int, default=9, help="timed runs of the update (median)")
    ap.add_argument("--seqeval-repeats", type=int, default=2, help="timed runs of the recipe")
    ap.add_argument("--hf-tokens", type=int, default=1_000_000, help="eval set size (tokens)")
    ap.add_argument("--forward-rows", type=int, default=4,
                    help="rows of 512 tokens for the BERT-base comparison")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)

    torch = optional("torch")
    if torch is None:
        print("torch is not installed: pip install 'nerscore[torchmetrics]'")
        return 1
    from nerscore.hf import compute_metrics
    from nerscore.torch import EntityMetric

    torch.set_num_threads(1)
    rng = np.random.default_rng(args.seed)
    print(f"machine: {machine()}, torch {torch.__version__}, 1 thread")

    # ---------------------------------------------------------------- agreement
    small_p, small_t = make_batch(rng, 64, 128)
    for mode, match in (("lenient", "exact"), ("strict", "threshold")):
        metric = EntityMetric(TAGS, scheme="IOB2", mode=mode, match=match)
        metric.update(torch.from_numpy(small_p), torch.from_numpy(small_t))
        keep = small_t != -100
        gold = nerscore.EncodedTags.from_padded(np.maximum(small_t, 0), vocab=TAGS, mask=keep)
        pred = nerscore.EncodedTags.from_padded(small_p, vocab=TAGS, mask=keep)
        ref = nerscore.count_matches(gold, pred, scheme="IOB2", mode=mode, match=match)
        assert metric.to_counts() == ref, (mode, match)
    print("agreement ok: tensor counts equal nerscore.count_matches")

    # ---------------------------------------------------------------- update timing
    shapes = {"16K (32x512)": (32, 512), "1M (2048x512)": (2048, 512)}
    data = {}
    for name, (rows, length) in shapes.items():
        p, t = make_batch(rng, rows, length)
        data[name] = (torch.from_numpy(p), torch.from_numpy(as_logits(rng, p)),
                      torch.from_numpy(t))
    tasks: dict[str, Task] = {}
    configs = (("lenient", "exact"), ("strict", "threshold"))
    for name in shapes:
        ids, logits, target = data[name]
        for mode, match in configs:
            metric = EntityMetric(TAGS, scheme="IOB2", mode=mode, match=match)
            tasks[f"{name}|{mode}/{match}|ids"] = Task(
                metric.update, lambda ids=ids, target=target: (ids, target), args.repeats)
            tasks[f"{name}|{mode}/{match}|logits"] = Task(
                metric.update, lambda lg=logits, target=target: (lg, target), args.repeats)
    print("timing the update (round-robin):")
    times = {k: median(v) for k, v in interleaved(tasks).items()}
    rows_out = []
    for key, seconds in times.items():
        name, config, kind = key.split("|")
        n = math.prod(shapes[name])
        rate = n / seconds
        rows_out.append([name, config, kind, "CPU eager", fmt_time(seconds),
                         fmt_rate(rate, "tokens"), "yes" if rate >= TARGETS["tokens_per_s"]
                         else "NO"])
    if torch.cuda.is_available():
        rows_out += _cuda_rows(torch, data, shapes, args.repeats)
    else:
        print("CUDA is not available: no GPU rows (eager, CUDA graph)")
    print()
    print(table(["batch", "mode/match", "preds", "device", "median", "tokens/s (1 core)",
                 "≥ 10 M/s"], rows_out, "lllllrl"))

    # ---------------------------------------------------------------- forward pass
    print()
    transformers = optional("transformers")
    if transformers is None:
        print("transformers is not installed: no comparison with a BERT-base forward pass")
    else:
        _forward_comparison(torch, transformers, rng, args.forward_rows)

    # ---------------------------------------------------------------- compute_metrics
    print()
    length = 256
    rows = max(1, args.hf_tokens // length)
    p, t = make_batch(rng, rows, length)
    logits = as_logits(rng, p)
    f = compute_metrics(TAGS)
    pred = type("EvalPrediction", (), {"predictions": logits, "label_ids": t})()
    ours = f(pred)
    if optional("seqeval") is None:
        print("seqeval is not installed: compute_metrics timed alone")
        ref = None
    else:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ref = seqeval_recipe(logits, t)
        for key, value in ref.items():
            if isinstance(value, dict):
                assert ours[key]["number"] == value["number"], key
                assert all(math.isclose(ours[key][k], value[k], abs_tol=1e-12)
                           for k in ("precision", "recall", "f1")), key
            else:
                assert math.isclose(ours[key], value, abs_tol=1e-12), key
        print(f"agreement ok: compute_metrics equals the seqeval recipe "
              f"(overall_f1 {ours['overall_f1']:.6f})")
    hf_tasks = {"nerscore.hf.compute_metrics": Task(f, lambda: (pred,), args.repeats)}
    if ref is not None:
        hf_tasks["seqeval recipe"] = Task(seqeval_recipe, lambda: (logits, t),
                                          args.seqeval_repeats, warmup=False)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        hf_times = {k: median(v) for k, v in interleaved(hf_tasks).items()}
    ours_s = hf_times["nerscore.hf.compute_metrics"]
    ref_s = hf_times.get("seqeval recipe")
    speed = None if ref_s is None else ref_s / ours_s
    print(table(["compute_metrics on logits", "tokens", "median", "speed-up", "≥ 50x"], [
        ["seqeval recipe (evaluate)", f"{rows * length:,}", fmt_time(ref_s), "1.0x", ""],
        ["nerscore.hf.compute_metrics", f"{rows * length:,}", fmt_time(ours_s),
         "n/a" if speed is None else f"{speed:.0f}x",
         "n/a" if speed is None else ("yes" if speed >= TARGETS["hf_speedup"] else "NO")],
    ], "lrrrl"))
    return 0


def _cuda_rows(torch: Any, data: dict[str, Any], shapes: dict[str, tuple[int, int]],
               repeats: int) -> list[list[str]]:
    """Eager and CUDA-graph replay timings of the update on the GPU."""
    from nerscore.torch._tables import tag_tables
    from nerscore.torch.functional import batch_counts

    out = []
    for name, (ids, _, target) in data.items():
        n = math.prod(shapes[name])
        ids, target = ids.cuda(), target.cuda()
        for mode, match in (("lenient", "exact"), ("strict", "threshold")):
            tables = tag_tables(tuple(TAGS), "IOB2", mode)

            def step(ids: Any = ids, target: Any = target, tables: Any = tables,
                     match: str = match) -> Any:
                return batch_counts(ids, target, tables, match=match)

            stream = torch.cuda.Stream()
            stream.wait_stream(torch.cuda.current_stream())
            with torch.cuda.stream(stream):
                for _ in range(3):
                    step()
            torch.cuda.current_stream().wait_stream(stream)
            graph = torch.cuda.CUDAGraph()
            with torch.cuda.graph(graph):
                step()
            for label, fn in (("CUDA eager", step), ("CUDA graph", graph.replay)):
                times = []
                for _ in range(repeats):
                    torch.cuda.synchronize()
                    t0 = time.perf_counter()
                    fn()
                    torch.cuda.synchronize()
                    times.append(time.perf_counter() - t0)
                sec = median(times)
                out.append([name, f"{mode}/{match}", "ids", label, fmt_time(sec),
                            fmt_rate(n / sec, "tokens"), ""])
    return out


def _forward_comparison(torch: Any, transformers: Any, rng: np.random.Generator,
                        rows: int) -> None:
    """Time one BERT-base forward pass and the update on the same batch."""
    from nerscore.torch import EntityMetric

    length = 512
    t0 = time.perf_counter()
    model = transformers.BertModel(transformers.BertConfig()).eval()
    head = torch.nn.Linear(model.config.hidden_size, len(TAGS))
    print(f"BERT-base built from its config in {time.perf_counter() - t0:.1f} s "
          f"({sum(p.numel() for p in model.parameters()) / 1e6:.0f} M parameters); "
          f"forward pass on {rows}x{length} tokens, 1 thread")
    input_ids = torch.from_numpy(rng.integers(1000, 30000, size=(rows, length)))
    _, target = make_batch(rng, rows, length)
    target_t = torch.from_numpy(target)

    def forward() -> Any:
        with torch.inference_mode():
            return head(model(input_ids=input_ids).last_hidden_state)

    t0 = time.perf_counter()
    logits = forward()
    fwd = time.perf_counter() - t0
    metric = EntityMetric(TAGS, scheme="IOB2", mode="strict", match="threshold")
    times = []
    for _ in range(7):
        t0 = time.perf_counter()
        metric.update(logits, target_t)
        times.append(time.perf_counter() - t0)
    upd = median(times)
    print(table(["batch", "BERT-base forward", "update (strict/threshold, logits)", "overhead"],
                [[f"{rows}x{length}", fmt_time(fwd), fmt_time(upd), f"{upd / fwd:.3%}"]],
                "lrrr"))


if __name__ == "__main__":
    raise SystemExit(main())
