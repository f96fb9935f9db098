"""Comparison benchmark: ``nerscore.compare`` of two systems against one scoring pass.

Run from the repository root::

    .venv/bin/python benchmarks/bench_compare.py                 # 1M tokens, under a minute
    .venv/bin/python benchmarks/bench_compare.py --tokens 200000 --repeats 3

The data is the seeded 1,000,000-token BIO corpus of ``corpus.py``: its
prediction is system A; system B is A with a further 5% of its entity tags
set to ``O`` (seeded). What is timed (round-robin, medians):

1. one scoring pass: ``nerscore.evaluate(gold, pred_a)`` (the whole report),
   from :class:`nerscore.EncodedTags` and from lists of ``str``;
2. ``nerscore.compare(gold, {A, B}, method="bootstrap")`` with 1,000 paired bootstrap resamples
   of the sentences (every system's micro and macro P/R/F1 intervals, the
   difference's interval and the bootstrap p-value), from the same inputs;
3. the same with ``method="both"`` (plus 1,000 randomization permutations,
   compare's default);
4. the same bootstrap over documents of 20 sentences (``documents=``).

The target is compare with 1,000 resamples within 10x of one scoring pass of
the same input. Before timing, the script checks that compare's point
estimates equal the report's scores.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import corpus
import numpy as np
from _timing import Task, fmt_time, interleaved, machine, median, table

import nerscore

TARGET = 10.0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tokens", type=int, default=1_000_000, help="corpus size (tokens)")
    ap.add_argument("--repeats", type=int, default=5, help="timed runs of each task (median)")
    ap.add_argument("--resamples", type=int, default=1000, help="resamples of each method")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)

    data = corpus.make_flat_corpus(args.tokens, seed=args.seed)
    rng = np.random.default_rng(args.seed + 1)
    pred_b = data.pred_ids.copy()
    pred_b[(pred_b > 0) & (rng.random(len(pred_b)) < 0.05)] = 0
    data_b = corpus.TagCorpus(data.gold_ids, pred_b, data.offsets)
    gold_enc, a_enc = corpus.encode_corpus(data)
    _, b_enc = corpus.encode_corpus(data_b)
    n_sent = len(data.offsets) - 1
    documents = list(range(0, n_sent, 20))
    print(f"machine: {machine()}")
    print(f"nerscore {nerscore.__version__}; corpus (seed {args.seed}): {corpus.describe(data)}")
    print(f"system B: A with 5% of its entity tags set to O; {args.resamples} resamples")

    def lists() -> tuple[list[list[str]], dict[str, list[list[str]]]]:
        g, a = data.to_lists(distinct=True)
        _, b = data_b.to_lists(distinct=True)
        return g, {"A": a, "B": b}

    # ---------------------------------------------------------------- agreement
    report = nerscore.evaluate(gold_enc, a_enc, zero_division=0.0)
    res = nerscore.compare(gold_enc, {"A": a_enc, "B": b_enc}, n_resamples=args.resamples,
                           method="both", unit="sentence")
    a = res.system("A")
    assert a.micro.f1.value == report.micro.f1, (a.micro.f1.value, report.micro.f1)
    assert a.macro.precision.value == report.macro.precision
    pair = res.pairs[0]
    print(f"agreement ok: A micro F1 {a.micro.f1.value:.4f} "
          f"[{a.micro.f1.low:.4f}, {a.micro.f1.high:.4f}], B "
          f"{res.system('B').micro.f1.value:.4f}; difference {pair.difference.value:+.4f} "
          f"[{pair.difference.low:+.4f}, {pair.difference.high:+.4f}], p bootstrap "
          f"{pair.p_bootstrap:.4f}, p randomization {pair.p_randomization:.4f}")

    # ---------------------------------------------------------------- timing
    r, n_res = args.repeats, args.resamples
    enc = (gold_enc, {"A": a_enc, "B": b_enc})

    def score(gold, systems):  # type: ignore[no-untyped-def]
        return nerscore.evaluate(gold, systems["A"])

    def boot(gold, systems):  # type: ignore[no-untyped-def]
        return nerscore.compare(gold, systems, n_resamples=n_res, unit="sentence",
                                method="bootstrap")

    def both(gold, systems):  # type: ignore[no-untyped-def]
        return nerscore.compare(gold, systems, n_resamples=n_res, unit="sentence",
                                method="both")

    def docs(gold, systems):  # type: ignore[no-untyped-def]
        return nerscore.compare(gold, systems, n_resamples=n_res, documents=documents,
                                method="bootstrap")

    tasks = {
        "score.encoded": Task(score, lambda: enc, r),
        "boot.encoded": Task(boot, lambda: enc, r),
        "both.encoded": Task(both, lambda: enc, r),
        "docs.encoded": Task(docs, lambda: enc, r),
        "score.lists": Task(score, lists, r),
        "boot.lists": Task(boot, lists, r),
    }
    print("timing (tasks run round-robin, so that all share any drift in machine load):")
    times = interleaved(tasks, log=lambda msg: print(msg, flush=True))
    t = {k: median(v) for k, v in times.items()}

    rows = []
    for kind, name in (("encoded", "EncodedTags"), ("lists", "lists of str")):
        base = t[f"score.{kind}"]
        rows.append([name, "evaluate (one scoring pass, system A)", fmt_time(base), "1.0x", "",
                     ""])
        for key, what in ((f"boot.{kind}", f"compare A, B: bootstrap, {n_sent:,} sentences"),
                          (f"both.{kind}", "compare A, B: bootstrap + randomization"),
                          (f"docs.{kind}", f"compare A, B: bootstrap, {len(documents):,} "
                                           "documents")):
            if key not in t:
                continue
            x = t[key] / base
            rows.append(["", what, fmt_time(t[key]), f"{x:.1f}x", "≤ 10x",
                         "yes" if x <= TARGET else "NO"])
    print()
    print(f"{data.n_tokens:,} tokens; median of {r} runs; ratio = time / one scoring pass of "
          "the same input")
    print()
    print(table(["input", "task", "median", "ratio", "target", "met"], rows, "llrrll"))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
