"""Tag benchmark: nerscore vs seqeval 1.2.2 on one seeded 1,000,000-token BIO corpus.

Run from the repository root::

    .venv/bin/python benchmarks/bench_tags.py                 # 1M tokens, about a minute
    .venv/bin/python benchmarks/bench_tags.py --tokens 200000 --repeats 5

What is timed (all on the same data, in one run):

1. the full classification report from Python lists of strings:
   ``nerscore.render_text(nerscore.classification_report(...))``, the
   drop-in ``nerscore.compat.seqeval.classification_report`` and
   ``seqeval.metrics.classification_report`` (all with ``digits=4`` where
   the function takes it);
2. ``f1_score`` from lists (nerscore native and compat vs seqeval);
3. throughput when the labels are already integer arrays
   (:class:`nerscore.EncodedTags` sharing one vocabulary):
   ``nerscore.count_matches`` and ``nerscore.f1_score``.

Every timed call gets freshly built lists of fresh ``str`` objects (as a
file reader produces them; built outside the timed region), so no library
profits from string hashes cached by an earlier run. Before timing, the
script checks that the numbers agree: native F1 equals seqeval's to 1e-12
(nerscore divides counts once, seqeval goes through P and R), the compat
F1 and report text are identical to seqeval's, and the encoded path counts
exactly what the lists path counts.

Timings are medians of ``--repeats`` runs after one warm-up run; seqeval is
slow, so it gets ``--seqeval-repeats`` runs (default 3) and no warm-up. The
tasks run round-robin (one run of each per round), so that a change in the
machine's load affects all of them alike.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import corpus
from _timing import Task, fmt_rate, fmt_time, interleaved, machine, median, optional, table

import nerscore

TARGETS = {"report": 50.0, "f1": 10.0, "tokens_per_s": 50e6}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tokens", type=int, default=1_000_000, help="corpus size (tokens)")
    ap.add_argument("--repeats", type=int, default=7, help="timed runs of nerscore (median)")
    ap.add_argument("--seqeval-repeats", type=int, default=3, help="timed runs of seqeval")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)

    seqeval = optional("seqeval.metrics")
    compat = optional("nerscore.compat.seqeval")

    t0 = time.perf_counter()
    data = corpus.make_flat_corpus(args.tokens, seed=args.seed)
    n = data.n_tokens
    print(f"machine: {machine()}")
    print(f"nerscore {nerscore.__version__}"
          + (f", seqeval {_version('seqeval')}" if seqeval else ", seqeval not installed"))
    print(f"corpus (seed {args.seed}): {corpus.describe(data)}")

    def lists() -> tuple[list[list[str]], list[list[str]]]:
        return data.to_lists(distinct=True)

    gold_enc, pred_enc = corpus.encode_corpus(data)
    print(f"prepared in {time.perf_counter() - t0:.1f} s; checking agreement ...")

    # ---------------------------------------------------------------- agreement
    g, p = lists()
    native_f1 = nerscore.f1_score(g, p)
    native_report = nerscore.classification_report(g, p)
    enc_counts = nerscore.count_matches(gold_enc, pred_enc)
    assert enc_counts == nerscore.count_matches(g, p), "encoded and list inputs disagree"
    assert nerscore.f1_score(gold_enc, pred_enc) == native_f1
    if seqeval is not None:
        ref_f1 = seqeval.f1_score(g, p)
        assert math.isclose(native_f1, ref_f1, rel_tol=1e-12, abs_tol=0), (native_f1, ref_f1)
        ref_dict = seqeval.classification_report(g, p, output_dict=True)
        for label, row in native_report.labels.items():
            ref = ref_dict[label]
            assert row.n_gold == ref["support"], label
            for ours, theirs in ((row.precision, ref["precision"]), (row.recall, ref["recall"]),
                                 (row.f1, ref["f1-score"])):
                assert math.isclose(ours, theirs, rel_tol=1e-12, abs_tol=1e-15), label
        if compat is not None:
            assert compat.f1_score(g, p) == ref_f1, "compat f1 differs from seqeval"
            ref_text = seqeval.classification_report(g, p, digits=4)
            assert compat.classification_report(g, p, digits=4) == ref_text, "report differs"
        print(f"agreement ok: F1 = {native_f1:.6f} (seqeval {ref_f1:.6f}), "
              f"{len(native_report.labels)} labels, "
              f"{int(enc_counts.n_gold.sum()):,} gold / {int(enc_counts.n_pred.sum()):,} "
              "predicted entities")
    del g, p

    # ---------------------------------------------------------------- timing
    r, rs = args.repeats, args.seqeval_repeats
    enc = (gold_enc, pred_enc)

    def native_report_text(y_true, y_pred):  # type: ignore[no-untyped-def]
        return nerscore.render_text(nerscore.classification_report(y_true, y_pred), digits=4)

    tasks: dict[str, Task] = {"report.native": Task(native_report_text, lists, r)}
    if compat is not None:
        tasks["report.compat"] = Task(
            lambda a, b: compat.classification_report(a, b, digits=4), lists, r)
    if seqeval is not None:
        tasks["report.seqeval"] = Task(
            lambda a, b: seqeval.classification_report(a, b, digits=4), lists, rs, warmup=False)
    tasks["f1.native"] = Task(nerscore.f1_score, lists, r)
    if compat is not None:
        tasks["f1.compat"] = Task(compat.f1_score, lists, r)
    if seqeval is not None:
        tasks["f1.seqeval"] = Task(seqeval.f1_score, lists, rs, warmup=False)
    tasks["count.encoded"] = Task(nerscore.count_matches, lambda: enc, r)
    tasks["f1.encoded"] = Task(nerscore.f1_score, lambda: enc, r)
    tasks["report.encoded"] = Task(native_report_text, lambda: enc, r)
    print("timing (tasks run round-robin, so that all share any drift in machine load):")
    times = interleaved(tasks, log=lambda msg: print(msg, flush=True))
    timings: dict[str, float | None] = {k: median(v) for k, v in times.items()}

    # ---------------------------------------------------------------- table
    def ratio(ref: str, key: str) -> float | None:
        a, b = timings.get(ref), timings.get(key)
        return None if a is None or b is None else a / b

    def check(value: float | None, target: float) -> str:
        if value is None:
            return "n/a"
        return "yes" if value >= target else "NO"

    rows: list[list[str]] = []
    sq = "report.seqeval"
    rows.append(["classification report, lists of str", "seqeval.metrics", fmt_time(timings.get(sq)),
                 "1.0x", "", ""])
    for key, name in (("report.native", "nerscore (classification_report + render_text)"),
                      ("report.compat", "nerscore.compat.seqeval")):
        x = ratio(sq, key)
        rows.append(["", name, fmt_time(timings.get(key)), _x(x), "≥ 50x",
                     check(x, TARGETS["report"])])
    sq = "f1.seqeval"
    rows.append(["f1_score, lists of str", "seqeval.metrics", fmt_time(timings.get(sq)), "1.0x",
                 "", ""])
    for key, name in (("f1.native", "nerscore.f1_score"),
                      ("f1.compat", "nerscore.compat.seqeval.f1_score")):
        x = ratio(sq, key)
        rows.append(["", name, fmt_time(timings.get(key)), _x(x), "≥ 10x",
                     check(x, TARGETS["f1"])])
    for key, name in (("count.encoded", "nerscore.count_matches"),
                      ("f1.encoded", "nerscore.f1_score"),
                      ("report.encoded", "nerscore report (classification_report + render_text)")):
        tm = timings.get(key)
        rate = None if tm is None else n / tm
        rows.append(["EncodedTags (int arrays, one vocab)", name, fmt_time(tm),
                     fmt_rate(rate, "tokens"), "≥ 50 M tokens/s",
                     check(rate, TARGETS["tokens_per_s"])])
    print()
    print(f"{n:,} tokens; median of {r} runs (seqeval: {rs}, as it is slow); "
          "speed-up = seqeval time / nerscore time")
    print()
    print(table(["task", "implementation", "median", "speed-up / rate", "target", "met"], rows,
                "llrrll"))
    return 0


def _x(x: float | None) -> str:
    return "n/a (not available)" if x is None else f"{x:.0f}x" if x >= 10 else f"{x:.1f}x"


def _version(dist: str) -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(dist)
    except PackageNotFoundError:
        return "?"


if __name__ == "__main__":
    raise SystemExit(main())
