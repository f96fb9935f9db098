"""Span benchmark: nerscore's span matchers vs nervaluate 1.2.1 on one seeded corpus.

Run from the repository root::

    .venv/bin/python benchmarks/bench_spans.py                    # 100,000 docs, ~1M spans
    .venv/bin/python benchmarks/bench_spans.py --docs 20000 --nervaluate-docs 2000

The corpus (:mod:`spans`) has about 100,000 documents and 1,000,000 gold
spans with character offsets, eight labels, nested spans of different labels
and noisy predictions. nerscore is timed on all of it with
``nerscore.count_matches`` and ``nerscore.evaluate`` for ``match="exact"``,
``"semeval"``, ``"overlap"`` and ``"threshold"`` (default options), from
lists of ``(start, end, label)`` tuples per document; input checking and
conversion are part of the time, as they are for nervaluate.

nervaluate (its list-of-dicts input with inclusive ends, ``end - 1``) is slow:
it is timed on the first ``--nervaluate-docs`` documents only (default
5,000, about 50,000 spans) and compared by throughput, gold spans per
second. It computes all four SemEval schemas at once, as nerscore's
``semeval`` matcher does. Before timing, nerscore's
``match="semeval", compat="nervaluate"`` must reproduce nervaluate's counts
on that subset exactly.

All tasks run round-robin (one run of each per round), so that a change in
the machine's load affects all of them alike. A matcher whose module does
not exist yet is reported as "n/a (not available)".
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import spans
from _timing import Task, fmt_rate, fmt_time, interleaved, machine, median, optional, table

import nerscore

MATCHERS = ("exact", "semeval", "overlap", "threshold")
TARGETS = {"exact": 50.0, "semeval": 20.0, "overlap": 20.0, "threshold": 50.0}
SCHEMAS = {"strict": "strict", "exact": "exact", "partial": "partial", "type": "ent_type"}
CATEGORIES = ("correct", "incorrect", "partial", "missed", "spurious")


def available(match: str) -> bool:
    """Whether nerscore can run ``match`` (its module exists)."""
    from nerscore.matching import MATCHERS as REGISTRY

    if match not in REGISTRY:
        return False
    return optional(REGISTRY[match]) is not None


def check_nervaluate(sub: spans.SpanCorpus, nervaluate: object) -> str:
    """Compare nerscore's nervaluate-compatible counts with nervaluate's, schema by schema."""
    gd, pd = sub.to_nervaluate()
    res = nervaluate.Evaluator(gd, pd, tags=list(spans.LABELS), loader="dict").evaluate()
    g, p = sub.to_lists()
    ours = nerscore.evaluate(g, p, match="semeval", compat="nervaluate").extra["schemas"]
    for schema, theirs_name in SCHEMAS.items():
        theirs = res["overall"][theirs_name]
        for cat in CATEGORIES:
            a, b = ours[schema]["overall"][cat], getattr(theirs, cat)
            assert a == b, f"{schema}.{cat}: nerscore {a} vs nervaluate {b}"
    strict = res["overall"]["strict"]
    return (f"nervaluate-compatible counts agree on all four schemas "
            f"(strict COR {strict.correct}, INC {strict.incorrect}, MIS {strict.missed}, "
            f"SPU {strict.spurious})")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--docs", type=int, default=100_000, help="documents in the corpus")
    ap.add_argument("--nervaluate-docs", type=int, default=5_000,
                    help="documents nervaluate is timed on (a prefix of the corpus)")
    ap.add_argument("--repeats", type=int, default=5, help="timed runs of nerscore (median)")
    ap.add_argument("--nervaluate-repeats", type=int, default=3, help="timed runs of nervaluate")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)

    nervaluate = optional("nervaluate")
    t0 = time.perf_counter()
    corpus = spans.make_span_corpus(args.docs, seed=args.seed)
    gold, pred = corpus.to_lists()
    n_gold = len(corpus.gold)
    print(f"machine: {machine()}")
    print(f"nerscore {nerscore.__version__}, "
          + (f"nervaluate {_version('nervaluate')}" if nervaluate else "nervaluate not installed"))
    print(f"corpus (seed {args.seed}): {spans.describe(corpus)}")
    print(f"prepared in {time.perf_counter() - t0:.1f} s")

    tasks: dict[str, Task] = {}
    sub_spans = 0
    if nervaluate is not None:
        sub = corpus.subset(min(args.nervaluate_docs, args.docs))
        sub_spans = len(sub.gold)
        if available("semeval"):
            print(check_nervaluate(sub, nervaluate))
        gd, pd = sub.to_nervaluate()
        tags = list(spans.LABELS)
        tasks["nervaluate"] = Task(
            lambda a, b: nervaluate.Evaluator(a, b, tags=tags, loader="dict").evaluate(),
            lambda: (gd, pd), args.nervaluate_repeats, warmup=False)
    for match in MATCHERS:
        if not available(match):
            continue
        for fn_name in ("count_matches", "evaluate"):
            fn = getattr(nerscore, fn_name)
            tasks[f"{fn_name}.{match}"] = Task(
                lambda a, b, fn=fn, m=match: fn(a, b, match=m), lambda: (gold, pred),
                args.repeats)
    # where the time goes: converting the Python lists, and each matcher on columns
    from nerscore.decode.inputs import prepare
    from nerscore.matching import get_matcher

    prepared = prepare(gold, pred)
    tasks["prepare"] = Task(prepare, lambda: (gold, pred), args.repeats)
    for match in MATCHERS:
        if available(match):
            tasks[f"matcher.{match}"] = Task(get_matcher(match).run, lambda: (prepared,),
                                             args.repeats)
    print("timing (tasks run round-robin, so that all share any drift in machine load):")
    times = interleaved(tasks, log=lambda msg: print(msg, flush=True))

    rows: list[list[str]] = []
    ref_rate = None
    if "nervaluate" in times:
        ref_time = median(times["nervaluate"])
        ref_rate = sub_spans / ref_time
        rows.append([f"nervaluate {_version('nervaluate')} (Evaluator.evaluate, all 4 schemas)",
                     f"{sub.n_docs:,} docs", fmt_time(ref_time), fmt_rate(ref_rate, "spans"),
                     "1.0x", "", ""])
    for match in MATCHERS:
        for fn_name in ("count_matches", "evaluate"):
            name = f'nerscore.{fn_name}(match="{match}")'
            key = f"{fn_name}.{match}"
            if key not in times:
                rows.append([name, f"{args.docs:,} docs", "n/a (not available)", "n/a", "n/a",
                             f"≥ {TARGETS[match]:.0f}x", "n/a"])
                continue
            tm = median(times[key])
            rate = n_gold / tm
            x = None if ref_rate is None else rate / ref_rate
            rows.append([name, f"{args.docs:,} docs", fmt_time(tm), fmt_rate(rate, "spans"),
                         "n/a" if x is None else f"{x:.0f}x", f"≥ {TARGETS[match]:.0f}x",
                         "n/a" if x is None else ("yes" if x >= TARGETS[match] else "NO")])

    print()
    print(f"throughput = gold spans per second; nerscore: median of {args.repeats} runs on "
          f"{args.docs:,} documents ({n_gold:,} gold spans) after a warm-up; nervaluate is slow, "
          f"so it runs {args.nervaluate_repeats} times on the first {args.nervaluate_docs:,} "
          f"documents ({sub_spans:,} gold spans)")
    print()
    print(table(["implementation", "data", "median", "throughput", "vs nervaluate", "target",
                 "met"], rows, "llrrrll"))
    steps = [["input checks and conversion (lists of tuples -> columns, both sides)",
              fmt_time(median(times["prepare"])),
              fmt_rate(n_gold / median(times["prepare"]), "spans")]]
    for match in MATCHERS:
        key = f"matcher.{match}"
        if key in times:
            tm = median(times[key])
            steps.append([f'matcher "{match}" alone (on columns, counts and alignment)',
                          fmt_time(tm), fmt_rate(n_gold / tm, "spans")])
    print()
    print("where the time goes (same corpus, medians):")
    print()
    print(table(["step", "median", "throughput"], steps, "lrr"))
    return 0


def _version(dist: str) -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(dist)
    except PackageNotFoundError:
        return "?"


if __name__ == "__main__":
    raise SystemExit(main())
