"""Run-aware comparison benchmark: ``nerscore.compare_runs`` against re-scoring every resample.

Run from the repository root::

    .venv/bin/python benchmarks/bench_compare_runs.py              # 2,000 documents, 2 x 3 runs
    .venv/bin/python benchmarks/bench_compare_runs.py --docs 5000 --runs 5

Seeded span documents (about five entities each, four labels) and two
systems with ``--runs`` runs each: every run is gold with a share of its
entities dropped, shortened, relabelled or joined by a spurious one (system A
10%, system B 25%, a fresh draw per run). What is timed:

1. **compare_runs**: ``nerscore.compare_runs(gold, {"A": runs_a, "B": runs_b})``
   with ``--resamples`` two-stage bootstrap resamples (documents and runs
   drawn together), from the lists of tuples (matching included); median of
   ``--repeats`` runs;
2. **compare, one run each**: ``nerscore.compare(gold, {"A": a1, "B": b1},
   method="bootstrap")`` with the same resamples, for scale;
3. **re-scoring loop**: what one writes without per-document counts: for each
   resample, draw the documents and the runs as ``compare_runs`` documents it,
   build the resampled lists and call ``nerscore.evaluate`` on every drawn run
   (its micro F1), then the mean over runs. It is timed once on
   ``--loop-resamples`` resamples; the time of ``--resamples`` resamples is
   that, scaled (each resample costs the same), and is marked so.

Before timing, the loop's first resamples must give the same mean micro F1
as compare_runs' engine on the same draws (checked on the engine's output).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _timing import fmt_time, machine, median, table

import nerscore
from nerscore.analysis.significance.across_runs import runs_bootstrap
from nerscore.analysis.significance.comparison import join_units
from nerscore.analysis.significance.resampling import bootstrap_plan, bootstrap_weights

LABELS = ("PER", "LOC", "ORG", "MISC")
Docs = list[list[tuple[int, int, str]]]


def make_gold(rng: np.random.Generator, n_docs: int) -> Docs:
    docs = []
    for _ in range(n_docs):
        spans, pos = [], 0
        for _ in range(int(rng.integers(2, 9))):
            s = pos + int(rng.integers(1, 20))
            e = s + int(rng.integers(1, 15))
            pos = e
            spans.append((s, e, LABELS[int(rng.integers(0, len(LABELS)))]))
        docs.append(spans)
    return docs


def make_run(rng: np.random.Generator, gold: Docs, rate: float) -> Docs:
    out = []
    for spans in gold:
        new = []
        for s, e, lab in spans:
            u = rng.random()
            if u < rate / 3:
                continue
            if u < 2 * rate / 3:
                e = max(s + 1, e - 1)
            elif u < rate:
                lab = LABELS[int(rng.integers(0, len(LABELS)))]
            new.append((s, e, lab))
        if rng.random() < rate / 2:
            end = max((e for _, e, _ in new), default=0)
            new.append((end + 1, end + 4, LABELS[int(rng.integers(0, len(LABELS)))]))
        out.append(new)
    return out


def draws(gold: Docs, systems: dict[str, list[Docs]], n: int, seed: int,
          ) -> tuple[list[np.ndarray], dict[str, np.ndarray]]:
    """The documents and runs of the first ``n`` resamples, as compare_runs draws them."""
    parts = [nerscore.sequence_counts(gold, p) for preds in systems.values() for p in preds]
    labels = sorted(set().union(*(p.labels for p in parts)))
    parts = [p.select(labels) for p in parts]
    table_ = np.concatenate([parts[0].n_gold] + [c for p in parts for c in (p.tp, p.n_pred)],
                            axis=1).astype(np.float64)
    units_seq, _, runs_seq = np.random.SeedSequence(seed).spawn(3)
    plan = bootstrap_plan(table_)
    weights = np.concatenate(list(bootstrap_weights(np.random.default_rng(units_seq), plan, n)))
    docs = [np.repeat(plan.columns, w.astype(np.int64)) for w in weights]
    run_rng = np.random.default_rng(runs_seq)
    runs = {name: run_rng.multinomial(len(p), [1 / len(p)] * len(p), size=n)
            for name, p in systems.items()}
    return docs, runs


def loop(gold: Docs, systems: dict[str, list[Docs]], n: int, seed: int) -> np.ndarray:
    """Mean micro F1 of each system on each of ``n`` resamples, by re-scoring."""
    docs, runs = draws(gold, systems, n, seed)
    out = np.empty((len(systems), n))
    for r, idx in enumerate(docs):
        g = [gold[i] for i in idx]
        for s, (name, preds) in enumerate(systems.items()):
            total = 0.0
            for k, pred in enumerate(preds):
                if runs[name][r, k]:
                    f1 = nerscore.evaluate(g, [pred[i] for i in idx], zero_division=0.0).micro.f1
                    total += runs[name][r, k] * f1
            out[s, r] = total / len(preds)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--docs", type=int, default=2000)
    ap.add_argument("--runs", type=int, default=3, help="runs of each system")
    ap.add_argument("--resamples", type=int, default=1000)
    ap.add_argument("--loop-resamples", type=int, default=10)
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)

    rng = np.random.default_rng(args.seed)
    gold = make_gold(rng, args.docs)
    systems = {"A": [make_run(rng, gold, 0.1) for _ in range(args.runs)],
               "B": [make_run(rng, gold, 0.25) for _ in range(args.runs)]}
    print(f"machine: {machine()}")
    print(f"nerscore {nerscore.__version__}; {args.docs} documents, "
          f"{sum(len(d) for d in gold)} gold entities; 2 systems x {args.runs} runs; "
          f"{args.resamples} resamples")

    # agreement: the loop's first resamples equal the engine's on the same draws
    n_check = min(args.loop_resamples, args.resamples)
    parts = join_units([nerscore.sequence_counts(gold, p) for ps in systems.values() for p in ps],
                        [f"{n}{k}" for n, ps in systems.items() for k in range(len(ps))])
    owner = [s for s, ps in enumerate(systems.values()) for _ in ps]
    _, _, boot = runs_bootstrap(parts, owner, n_check, args.seed, 0.0)
    t0 = time.perf_counter()
    ref = loop(gold, systems, n_check, args.seed)
    loop_time = (time.perf_counter() - t0) * args.resamples / n_check
    assert np.allclose(boot[:, 0, 2], ref, rtol=0, atol=1e-12), (boot[:, 0, 2], ref)
    print(f"agreement ok: {n_check} resamples re-scored with evaluate equal the engine's")

    times = []
    for _ in range(args.repeats):
        t0 = time.perf_counter()
        res = nerscore.compare_runs(gold, systems, n_resamples=args.resamples, seed=args.seed)
        times.append(time.perf_counter() - t0)
    one = []
    for _ in range(args.repeats):
        t0 = time.perf_counter()
        nerscore.compare(gold, {"A": systems["A"][0], "B": systems["B"][0]},
                         method="bootstrap", n_resamples=args.resamples, seed=args.seed)
        one.append(time.perf_counter() - t0)
    pair = res.pairs[0]
    print(f"A {res.system('A').micro.f1.value:.4f} ± {res.system('A').runs.sd('f1'):.4f}, "
          f"B {res.system('B').micro.f1.value:.4f} ± {res.system('B').runs.sd('f1'):.4f}; "
          f"difference {pair.difference.value:+.4f} [{pair.difference.low:+.4f}, "
          f"{pair.difference.high:+.4f}], p {pair.p_bootstrap:.4f}")
    t = median(times)
    rows = [
        ["compare_runs (documents and runs)", fmt_time(t), "1.0x"],
        ["compare, one run per system", fmt_time(median(one)), f"{median(one) / t:.2f}x"],
        [f"re-scoring loop (scaled from {n_check} resamples)", fmt_time(loop_time),
         f"{loop_time / t:.0f}x"],
    ]
    print(table(["task", "median time", "vs compare_runs"], rows, "lrr"))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
