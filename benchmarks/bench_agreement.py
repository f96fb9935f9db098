"""Agreement benchmark: ``nerscore.agreement`` against the recipe users write today.

Run from the repository root::

    .venv/bin/python benchmarks/bench_agreement.py                  # 5 x 1M tokens, a few minutes
    .venv/bin/python benchmarks/bench_agreement.py --tokens 200000 --repeats 3

Data: the gold tags of the seeded 1,000,000-token BIO corpus of ``corpus.py``
are annotator 1; annotators 2 to 5 are copies where, per token of an entity
(seeded), 3% change label and 3% become ``O`` (missed entities, label swaps,
split and shortened entities). Every annotator's tags are lists of ``str``,
as read from files.

The recipe (one run of each step, timed together):

1. per-token label lists in Python (prefix stripped, ``O`` outside);
2. ``sklearn.metrics.cohen_kappa_score`` for each of the 10 pairs;
3. ``statsmodels`` ``aggregate_raters`` then ``fleiss_kappa(method="fleiss")``;
4. ``krippendorff.alpha`` (nominal) on the label codes;
5. pairwise entity F1: seqeval's ``get_entities`` per annotator, then a set
   intersection per pair.

nerscore: ``nerscore.agreement(sets, n_resamples=0)`` — the same numbers plus
every pair's per-label F1, per-label kappa and alpha, the labelled-token
numbers, per-document F1 and the disagreements — and the same with the
default 1,000 bootstrap resamples. Before timing, the script checks that both
give the same kappas, alpha and F1 (1e-9). The target is nerscore at least 5x
faster than the recipe.
"""

from __future__ import annotations

import argparse
import itertools
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import corpus
import numpy as np
from _timing import Task, fmt_time, interleaved, machine, median, table

import nerscore

TARGET = 5.0
N_ANNOTATORS = 5


def annotators(n_tokens: int, seed: int) -> dict[str, list[list[str]]]:
    """Five annotators' tag lists (see the module docstring)."""
    data = corpus.make_flat_corpus(n_tokens, seed=seed)
    rng = np.random.default_rng(seed + 1)
    vocab = np.array(corpus.VOCAB)
    n_types = len(corpus.TYPES)
    out = {}
    for k in range(N_ANNOTATORS):
        ids = data.gold_ids.copy()
        if k:
            ent = ids > 0
            swap = ent & (rng.random(len(ids)) < 0.03)
            kind = (ids[swap] - 1) % 2  # 0: B, 1: I
            new_type = ((ids[swap] - 1) // 2 + rng.integers(1, n_types, int(swap.sum()))) % n_types
            ids[swap] = new_type * 2 + 1 + kind
            ids[ent & (rng.random(len(ids)) < 0.03)] = 0
        flat = vocab[ids].tolist()
        out[f"ann{k + 1}"] = [flat[s:e] for s, e in zip(data.offsets[:-1].tolist(),
                                                         data.offsets[1:].tolist(), strict=True)]
    return out


def recipe(sets: dict[str, list[list[str]]]) -> dict[str, object]:
    """What users write today (see the module docstring)."""
    import krippendorff
    from seqeval.metrics.sequence_labeling import get_entities
    from sklearn.metrics import cohen_kappa_score
    from statsmodels.stats.inter_rater import aggregate_raters, fleiss_kappa

    names = list(sets)
    labels = {n: [t if t == "O" else t[2:] for sent in sets[n] for t in sent] for n in names}
    cohen = {(a, b): cohen_kappa_score(labels[a], labels[b])
             for a, b in itertools.combinations(names, 2)}
    cats = sorted({x for n in names for x in set(labels[n])})
    code = {c: i for i, c in enumerate(cats)}
    codes = np.array([[code[x] for x in labels[n]] for n in names])
    table_, _ = aggregate_raters(codes.T, n_cat=len(cats))
    fleiss = fleiss_kappa(table_, method="fleiss")
    alpha = krippendorff.alpha(reliability_data=codes, level_of_measurement="nominal",
                               value_domain=list(range(len(cats))))
    entities = {}
    for n in names:
        ents = set()
        for s, sent in enumerate(sets[n]):
            ents.update((s, lab, b, e) for lab, b, e in get_entities(sent))
        entities[n] = ents
    f1 = {(a, b): 2 * len(entities[a] & entities[b]) / (len(entities[a]) + len(entities[b]))
          for a, b in itertools.combinations(names, 2)}
    return {"cohen": cohen, "fleiss": fleiss, "alpha": alpha, "f1": f1}


def check(sets: dict[str, list[list[str]]]) -> None:
    """nerscore's numbers equal the recipe's."""
    ref = recipe(sets)
    res = nerscore.agreement(sets, n_resamples=0)
    names = list(sets)
    overall = res.tokens.overall
    assert overall is not None
    for (a, b), kappa in ref["cohen"].items():  # type: ignore[attr-defined]
        i, j = names.index(a), names.index(b)
        assert abs(overall["all"].cohen[i][j] - kappa) < 1e-9, (a, b)
        assert abs(res.f1.matrix[i][j] - ref["f1"][a, b]) < 1e-9  # type: ignore[index]
    assert abs(overall["all"].fleiss - ref["fleiss"]) < 1e-9  # type: ignore[operator]
    assert abs(overall["all"].alpha - ref["alpha"]) < 1e-9  # type: ignore[operator]
    print(f"agreement ok: mean pairwise F1 {res.f1.mean():.4f}, Fleiss' kappa "
          f"{overall['all'].fleiss:.4f}, alpha {overall['all'].alpha:.4f}, "
          f"{len(res.disagreements):,} disagreements")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tokens", type=int, default=1_000_000, help="tokens per annotator")
    ap.add_argument("--repeats", type=int, default=3, help="timed runs of each task (median)")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)

    sets = annotators(args.tokens, args.seed)
    n_tokens = sum(len(s) for s in sets["ann1"])
    print(f"machine: {machine()}")
    print(f"nerscore {nerscore.__version__}; {N_ANNOTATORS} annotators x {n_tokens:,} tokens "
          f"({len(sets['ann1']):,} sentences, seed {args.seed})")
    check(sets)

    tasks = {
        "recipe": Task(recipe, lambda: (sets,), args.repeats, warmup=False),
        "nerscore": Task(lambda s: nerscore.agreement(s, n_resamples=0), lambda: (sets,),
                         args.repeats, warmup=False),
        "nerscore.boot": Task(lambda s: nerscore.agreement(s), lambda: (sets,), args.repeats,
                              warmup=False),
    }
    print("timing (tasks run round-robin, so that all share any drift in machine load):")
    times = interleaved(tasks, log=lambda msg: print(msg, flush=True))
    t = {k: median(v) for k, v in times.items()}
    base = t["recipe"]
    rows = [["recipe: label lists, sklearn, statsmodels, krippendorff, seqeval F1 loop",
             fmt_time(base), "1.0x", "", ""]]
    for key, what in (("nerscore", "nerscore.agreement, no bootstrap"),
                      ("nerscore.boot", "nerscore.agreement, 1,000 bootstrap resamples")):
        ratio = base / t[key]
        rows.append([what, fmt_time(t[key]), f"{ratio:.1f}x", f">= {TARGET:.0f}x",
                     "yes" if ratio >= TARGET else "NO"])
    print()
    print(f"median of {args.repeats} runs; ratio = recipe time / task time")
    print()
    print(table(["task", "median", "speed-up", "target", "met"], rows, "lrrll"))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
