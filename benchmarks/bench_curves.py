"""Threshold curve benchmark: ``nerscore.threshold_curve`` vs the sweep loop users write today.

Run from the repository root::

    .venv/bin/python benchmarks/bench_curves.py                 # 100,000 docs, ~1M predictions
    .venv/bin/python benchmarks/bench_curves.py --docs 10000
    .venv/bin/python benchmarks/bench_curves.py --match overlap      # or threshold, semeval

The span corpus of :mod:`spans` (about 1,000,000 gold spans and as many
predictions) gets a seeded score on every prediction: predictions that
match a gold span exactly draw from Beta(5, 2), the others from Beta(2, 5),
so the scores carry signal. Two ways to get precision, recall and F1 over
thresholds, from lists of ``(start, end, label, score)`` tuples per document
(input conversion included):

- **curve**: one ``nerscore.threshold_curve(gold, pred)`` call — every
  distinct score (about a million points);
- **sweep**: 101 fixed thresholds ``0.00, 0.01, ..., 1.00``, each scored by
  ``nerscore.evaluate(gold, [[s[:3] for s in doc if s[3] >= t] for doc in
  pred])`` — the loop people write to pick a threshold;
- **sweep, min_score**: the same 101 thresholds with
  ``nerscore.evaluate(gold, pred, min_score=t)`` (no list filtering).

Before the timings are reported, every one of the 101 sweep results must
equal the curve's point at that threshold (``curve.micro.at(t)``): tp,
n_pred and n_gold. The sweeps are timed once (they are slow); the curve
``--repeats`` times, median reported.

With ``--match threshold|overlap|semeval`` (one-to-one matchers; the
SemEval curve traces the ``strict`` schema, which is what
``evaluate(...).micro`` reports) only the ``min_score`` sweep runs. Its
points are the matcher's own assignment at each threshold while the curve's
are score-ordered greedy matching (docs/curves.md), so they are not asserted
equal: the largest difference of micro F1 over the 101 thresholds is
printed instead.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

import spans
from _timing import fmt_time, machine, median, table

import nerscore


def scored(corpus: spans.SpanCorpus, seed: int) -> list[list[tuple[int, int, str, float]]]:
    """The predictions as ``(start, end, label, score)`` tuples, scored with signal."""
    rng = np.random.default_rng(seed)
    g, p = corpus.gold, corpus.pred
    gold_keys = set(zip(g.doc.tolist(), g.start.tolist(), g.end.tolist(), g.label.tolist(),
                        strict=True))
    hit = np.array([k in gold_keys for k in zip(p.doc.tolist(), p.start.tolist(),
                                                p.end.tolist(), p.label.tolist(), strict=True)])
    score = np.where(hit, rng.beta(5, 2, len(p)), rng.beta(2, 5, len(p))).round(6)
    out: list[list[tuple[int, int, str, float]]] = [[] for _ in range(corpus.n_docs)]
    for d, s, e, lab, x in zip(p.doc.tolist(), p.start.tolist(), p.end.tolist(),
                               p.label.tolist(), score.tolist(), strict=True):
        out[d].append((s, e, spans.LABELS[lab], x))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--docs", type=int, default=100_000)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--match", choices=("exact", "threshold", "overlap", "semeval"),
                    default="exact")
    args = ap.parse_args()
    match = args.match

    corpus = spans.make_span_corpus(args.docs, seed=args.seed)
    gold, _ = corpus.to_lists()
    pred = scored(corpus, args.seed)
    n_pred = sum(map(len, pred))
    print(f"{machine()}\n{len(corpus.gold):,} gold spans, {n_pred:,} scored predictions, "
          f"{args.docs:,} documents, match={match}\n", flush=True)

    curve_times = []
    for _ in range(args.repeats):
        t0 = time.perf_counter()
        curve = nerscore.threshold_curve(gold, pred, match=match)
        curve_times.append(time.perf_counter() - t0)
    print(f"curve: {len(curve.micro):,} points, median {fmt_time(median(curve_times))}",
          flush=True)

    thresholds = np.round(np.linspace(0.0, 1.0, 101), 2).tolist()
    sweeps = {}
    names = ("sweep", "sweep, min_score") if match == "exact" else ("sweep, min_score",)
    for name in names:
        t0 = time.perf_counter()
        results = []
        for t in thresholds:
            if name == "sweep":
                kept = [[s[:3] for s in doc if s[3] >= t] for doc in pred]
                report = nerscore.evaluate(gold, kept, zero_division=0)
            else:
                report = nerscore.evaluate(gold, pred, match=match, min_score=t,
                                           zero_division=0)
            results.append((report.micro.tp, report.micro.n_pred, report.micro.n_gold,
                            report.micro.fbeta))
        sweeps[name] = time.perf_counter() - t0
        if match != "exact":
            gap = max(abs(curve.micro.at(t).fbeta - got[3])
                      for t, got in zip(thresholds, results, strict=True))
            print(f"{name}: {fmt_time(sweeps[name])} (101 thresholds; the matcher's own "
                  f"assignment, largest micro F1 difference to the curve {gap:.2e})",
                  flush=True)
            continue
        for t, got in zip(thresholds, results, strict=True):
            point = curve.micro.at(t)
            if (point.tp, point.n_pred, point.n_gold) != got[:3]:
                raise SystemExit(f"{name} at {t}: {got} != curve {point}")
        print(f"{name}: {fmt_time(sweeps[name])} (101 thresholds, all equal to the curve)",
              flush=True)

    base = median(curve_times)
    rows = [["threshold_curve (every distinct score)", f"{len(curve.micro):,}",
             fmt_time(base), "1.0×"]]
    rows += [[f"{name}: 101 × nerscore.evaluate", "101", fmt_time(sec), f"{sec / base:.0f}×"]
             for name, sec in sweeps.items()]
    print()
    print(table(["method", "thresholds", "time", "time / curve"], rows, "lrrr"))


if __name__ == "__main__":
    main()
