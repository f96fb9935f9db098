"""Per-unit counts, bootstrap intervals and significance tests (nerscore.analysis.significance)."""

from __future__ import annotations

import itertools
import json
import math
import re

import numpy as np
import pytest

import nerscore
from nerscore.analysis.significance import (
    UnsplittableCountsError,
    compare,
    confidence_intervals,
    holm_bonferroni,
    resampling,
    sequence_counts,
)
from nerscore.analysis.significance.resampling import (
    AVERAGES,
    METRICS,
    bootstrap_plan,
    bootstrap_weights,
    identical_rows,
    rngs,
    swap_blocks,
)
from nerscore.analysis.significance.results import Estimate
from nerscore.render.significance import render_comparison

LABELS = ("A", "B", "C")


# --------------------------------------------------------------------------- data


def _gold_docs(rng: np.random.Generator, n_docs: int) -> list[list[tuple[int, int, str]]]:
    """Documents of disjoint spans (zero-length ones included)."""
    docs = []
    for _ in range(n_docs):
        spans, pos = [], 0
        for _ in range(int(rng.integers(0, 6))):
            s = pos + int(rng.integers(0, 4))
            e = s + int(rng.integers(0, 7))
            pos = e
            spans.append((s, e, str(rng.choice(LABELS))))
        docs.append(spans)
    return docs


def _noisy(rng: np.random.Generator, gold: list, rate: float = 0.3) -> list:
    """A prediction: gold with dropped spans, moved ends, swapped labels and extras."""
    out = []
    for spans in gold:
        new = []
        for s, e, lab in spans:
            u = rng.random()
            if u < rate / 3:
                continue
            if u < 2 * rate / 3:
                e = max(s, e - int(rng.integers(1, 3)))
            elif u < rate:
                lab = str(rng.choice(LABELS))
            new.append((s, e, lab))
        if rng.random() < rate / 2:
            end = max((e for _, e, _ in new), default=0)
            new.append((end + 1, end + 3, str(rng.choice(LABELS))))
        out.append(new)
    return out


def _tags(rng: np.random.Generator, n: int) -> list[list[str]]:
    vocab = ["O", "O", "O", "B-A", "I-A", "B-B", "I-B", "B-C"]
    return [[str(t) for t in rng.choice(vocab, size=int(rng.integers(1, 9)))] for _ in range(n)]


def _retag(rng: np.random.Generator, gold: list[list[str]], rate: float) -> list[list[str]]:
    vocab = ["O", "B-A", "I-A", "B-B", "I-B", "B-C"]
    return [[str(rng.choice(vocab)) if rng.random() < rate else t for t in s] for s in gold]


MATCHERS = [
    ("exact", {}),
    ("exact", {"labeled": False}),
    ("semeval", {}),
    ("semeval", {"compat": "nervaluate"}),
    ("overlap", {}),
    ("overlap", {"assignment": "optimal"}),
    ("overlap", {"overlapping": "merge", "s": 0.5}),
    ("threshold", {}),
    ("threshold", {"t": 0.4}),
    ("token", {}),
]


def _ids(case: tuple[str, dict]) -> str:
    match, opts = case
    return match + "".join(f"-{k}={v}" for k, v in opts.items())


def _totals_equal(got: dict, ref: dict) -> None:
    assert got.keys() == ref.keys()
    for lab in ref:
        assert got[lab]["n_pred"] == ref[lab]["n_pred"], lab
        assert got[lab]["n_gold"] == ref[lab]["n_gold"], lab
        assert math.isclose(got[lab]["tp"], ref[lab]["tp"], rel_tol=1e-12, abs_tol=1e-12), lab


# --------------------------------------------------------------------------- per-unit counts


@pytest.mark.parametrize("case", MATCHERS, ids=_ids)
def test_sequence_counts_sum_to_the_report_on_random_spans(case):
    match, opts = case
    rng = np.random.default_rng(7)
    for _ in range(8):
        gold = _gold_docs(rng, 15)
        pred = _noisy(rng, gold)
        if opts.get("compat") == "nervaluate":  # nervaluate refuses zero-length spans
            gold = [[x for x in d if x[1] > x[0]] for d in gold]
            pred = [[x for x in d if x[1] > x[0]] for d in pred]
        report = nerscore.evaluate(gold, pred, match=match, zero_division=0.0, **opts)
        sc = sequence_counts(gold, pred, match=match, **opts)
        assert sc.tp.shape == sc.n_pred.shape == sc.n_gold.shape == (15, len(sc.labels))
        _totals_equal(sc.totals(), report.counts.present().to_dict())


@pytest.mark.parametrize("match", ["exact", "semeval", "token", "threshold"])
@pytest.mark.parametrize("mode", ["lenient", "strict"])
def test_sequence_counts_sum_to_the_report_on_random_tags(match, mode):
    rng = np.random.default_rng(3)
    gold = _tags(rng, 40)
    pred = _retag(rng, gold, 0.2)
    kw = {"scheme": "IOB2"} if mode == "strict" else {}
    report = nerscore.evaluate(gold, pred, match=match, mode=mode, zero_division=0.0, **kw)
    sc = sequence_counts(gold, pred, match=match, mode=mode, **kw)
    assert sc.n_sequences == 40
    _totals_equal(sc.totals(), report.counts.present().to_dict())


def test_semeval_tp_is_the_strict_correct_count():
    gold = [[(0, 4, "A"), (6, 9, "B")], [(0, 2, "C")]]
    pred = [[(0, 4, "A"), (6, 8, "B")], [(0, 2, "A")]]
    sc = sequence_counts(gold, pred, match="semeval")
    strict = nerscore.evaluate(gold, pred, match="semeval").extra["schemas"]["strict"]
    assert sc.tp.sum() == strict["overall"]["correct"] == 1
    assert sc.n_pred.sum() == strict["overall"]["actual"]


def test_quirks_that_cannot_be_split_are_errors():
    # loio: a zero-length prediction without an identical gold span counts as an exact match
    gold, pred = [[(0, 4, "A")]], [[(0, 4, "A"), (6, 6, "A")]]
    with pytest.raises(UnsplittableCountsError, match="cannot be split by sequence"):
        sequence_counts(gold, pred, match="overlap", compat="loio")
    with pytest.raises(UnsplittableCountsError):
        compare(gold, {"x": pred}, match="overlap", compat="loio")
    assert sequence_counts(gold, [[(0, 4, "A")]], match="overlap", compat="loio").totals() == {
        "A": {"tp": 1, "n_pred": 1, "n_gold": 1}}
    # kaggle: the reference's outer join adds one false positive per label, not per document
    gold, pred = [[(0, 4, "A")], [(0, 4, "A")]], [[(0, 4, "A")], []]
    with pytest.raises(UnsplittableCountsError, match="threshold"):
        sequence_counts(gold, pred, match="threshold", compat="kaggle")


def test_group_into_documents():
    gold = [["B-A"], ["O"], ["B-B", "O"], ["B-A"]]
    pred = [["B-A"], ["B-A"], ["O", "O"], ["B-A"]]
    sc = sequence_counts(gold, pred)
    docs = sc.group([1, 3])
    assert docs.n_sequences == 3
    assert docs.n_gold.tolist() == [[1, 0], [0, 1], [1, 0]]
    assert docs.n_pred.tolist() == [[1, 0], [1, 0], [1, 0]]
    assert docs.totals() == sc.totals()


# --------------------------------------------------------------------------- brute force


def _unit_counts(gold: list, systems: list[list], match: str = "exact",
                 **kw: object) -> list[tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """``(n_gold, tp, n_pred)`` per unit of every system, over one label set."""
    parts = [sequence_counts(gold, pred, match=match, **kw) for pred in systems]
    labels = sorted(set().union(*(p.labels for p in parts)))
    return [(p.n_gold, p.tp, p.n_pred) for p in (q.select(labels) for q in parts)]


def _bootstrap_rows(seed: int, counts: list, r: int) -> list[np.ndarray]:
    """The units drawn by each resample (a class drawn as a whole: its first unit, repeated)."""
    table = np.concatenate([counts[0][0]] + [c for _, *rest in counts for c in rest], axis=1)
    boot, _ = rngs(seed)
    plan = bootstrap_plan(table.astype(np.float64))
    weights = np.concatenate(list(bootstrap_weights(boot, plan, r)))
    return [np.repeat(plan.columns, w.astype(np.int64)) for w in weights]


def _swap_rows(seed: int, counts: list, r: int) -> np.ndarray:
    """The swap matrix over all units: coins for the units where the two systems differ."""
    (_, tp_a, pred_a), (_, tp_b, pred_b) = counts
    differ = np.flatnonzero((tp_a != tp_b).any(axis=1) | (pred_a != pred_b).any(axis=1))
    _, swap = rngs(seed)
    out = np.zeros((r, len(tp_a)), dtype=np.uint8)
    out[:, differ] = np.concatenate(list(swap_blocks(swap, len(differ), r)))
    return out


def _scores(report: nerscore.Report) -> np.ndarray:
    """``[average, metric]`` of one report."""
    return np.array([[getattr(getattr(report, a), m) for m in METRICS] for a in AVERAGES])


def _eval(gold: list, pred: list, match: str, opts: dict) -> np.ndarray:
    return _scores(nerscore.evaluate(gold, pred, match=match, zero_division=0.0, **opts))


def _check(got: float, ref: float, exact: bool) -> None:
    if exact:
        assert got == ref
    else:
        assert math.isclose(got, ref, rel_tol=1e-12, abs_tol=1e-12)


@pytest.mark.parametrize("case", [("exact", {}), ("semeval", {}), ("overlap", {}),
                                  ("threshold", {}), ("token", {})], ids=_ids)
def test_agrees_with_brute_force_rescoring(case):
    match, opts = case
    exact = match != "overlap"  # fractional credit is summed in another order
    rng = np.random.default_rng(11)
    gold = _gold_docs(rng, 24)
    systems = {"a": _noisy(rng, gold, 0.2), "b": _noisy(rng, gold, 0.5)}
    n_res, seed, level = 40, 5, 0.9
    res = compare(gold, systems, match=match, method="both", n_resamples=n_res, seed=seed,
                  level=level, **opts)
    q = [(1 - level) / 2, (1 + level) / 2]
    counts = _unit_counts(gold, list(systems.values()), match, **opts)
    boot = {}
    for name, pred in systems.items():
        point = _eval(gold, pred, match, opts)
        rows = [_eval([gold[i] for i in idx], [pred[i] for i in idx], match, opts)
                for idx in _bootstrap_rows(seed, counts, n_res)]
        boot[name] = np.stack(rows, axis=-1)
        sys_ = res.system(name)
        for ai, avg in enumerate(AVERAGES):
            for mi, metric in enumerate(METRICS):
                est = sys_.get(metric, avg)
                _check(est.value, point[ai, mi], exact)
                lo, hi = np.quantile(boot[name][ai, mi], q)
                _check(est.low, lo, exact)
                _check(est.high, hi, exact)
    pair = res.pairs[0]
    d = res.system("a").micro.f1.value - res.system("b").micro.f1.value
    d_boot = boot["a"][0, 2] - boot["b"][0, 2]
    lo, hi = np.quantile(d_boot, q)
    _check(pair.difference.low, lo, exact)
    _check(pair.difference.high, hi, exact)
    p_boot = (1 + np.sum(np.abs(d_boot - d) >= abs(d) - 1e-12)) / (1 + n_res)
    assert pair.p_bootstrap == p_boot
    perm = []
    for swap in _swap_rows(seed, counts, n_res):
        a = [systems["b"][i] if s else systems["a"][i] for i, s in enumerate(swap)]
        b = [systems["a"][i] if s else systems["b"][i] for i, s in enumerate(swap)]
        perm.append(_eval(gold, a, match, opts)[0, 2] - _eval(gold, b, match, opts)[0, 2])
    p_perm = (1 + np.sum(np.abs(np.array(perm)) >= abs(d) - 1e-12)) / (1 + n_res)
    assert pair.p_randomization == p_perm


def test_macro_metric_agrees_with_brute_force_on_tags():
    rng = np.random.default_rng(2)
    gold = _tags(rng, 30)
    a, b = _retag(rng, gold, 0.1), _retag(rng, gold, 0.3)
    res = compare(gold, {"a": a, "b": b}, metric="recall", average="macro", method="both",
                  n_resamples=30, seed=9, unit="sentence")
    ref = []
    for idx in _bootstrap_rows(9, _unit_counts(gold, [a, b]), 30):
        g = [gold[i] for i in idx]
        ref.append(_eval(g, [a[i] for i in idx], "exact", {})[1, 1]
                   - _eval(g, [b[i] for i in idx], "exact", {})[1, 1])
    d = res.pairs[0].difference.value
    assert res.pairs[0].difference.low == np.quantile(ref, 0.025)
    p = (1 + np.sum(np.abs(np.array(ref) - d) >= abs(d) - 1e-12)) / 31
    assert res.pairs[0].p_bootstrap == p


def test_classes_of_identical_units_agree_with_brute_force():
    # 30 sentences without entities and 25 identical correct ones: two classes drawn whole
    rng = np.random.default_rng(4)
    gold = _tags(rng, 20) + [["O", "O"]] * 30 + [["B-A", "O"]] * 25
    a = _retag(rng, gold[:20], 0.1) + gold[20:]
    b = _retag(rng, gold[:20], 0.4) + gold[20:]
    counts = _unit_counts(gold, [a, b])
    table = np.concatenate([counts[0][0]] + [c for _, *rest in counts for c in rest], axis=1)
    plan = bootstrap_plan(table.astype(np.float64))
    assert len(plan.sizes) == 2
    assert plan.sizes.sum() >= 55
    res = compare(gold, {"a": a, "b": b}, method="both", n_resamples=40, seed=3,
                  unit="sentence")
    ref = []
    for idx in _bootstrap_rows(3, counts, 40):
        assert len(idx) == len(gold)
        g = [gold[i] for i in idx]
        ref.append(_eval(g, [a[i] for i in idx], "exact", {})[0, 2]
                   - _eval(g, [b[i] for i in idx], "exact", {})[0, 2])
    d = res.pairs[0].difference
    assert (d.low, d.high) == tuple(np.quantile(ref, [(1 - 0.95) / 2, (1 + 0.95) / 2]))
    perm = []
    for swap in _swap_rows(3, counts, 40):
        x = [b[i] if s else a[i] for i, s in enumerate(swap)]
        y = [a[i] if s else b[i] for i, s in enumerate(swap)]
        perm.append(_eval(gold, x, "exact", {})[0, 2] - _eval(gold, y, "exact", {})[0, 2])
    p = (1 + np.sum(np.abs(np.array(perm)) >= abs(d.value) - 1e-12)) / 41
    assert res.pairs[0].p_randomization == p


def test_identical_rows_agree_with_a_dictionary():
    rng = np.random.default_rng(0)
    for values in (rng.integers(0, 3, (200, 5)).astype(np.float64),
                   rng.integers(0, 400, (300, 2)).astype(np.float64),
                   rng.choice([0.0, -0.0, 0.5, 1 / 3], (200, 3))):
        of_row, first, sizes = identical_rows(values)
        seen: dict[tuple, int] = {}
        want = [seen.setdefault(tuple(r + 0.0), len(seen)) for r in values]
        assert of_row.tolist() == want
        assert first.tolist() == [want.index(c) for c in range(len(seen))]
        assert sizes.tolist() == np.bincount(want).tolist()
    assert [len(x) for x in identical_rows(np.zeros((0, 3)))] == [0, 0, 0]


def test_identical_rows_survive_hash_collisions(monkeypatch):
    values = np.random.default_rng(1).integers(0, 2, (100, 4)).astype(np.float64)
    want = identical_rows(values)
    monkeypatch.setattr(resampling, "_HASH", np.uint64(0))  # every row hashes to 0
    got = identical_rows(values)
    assert all(np.array_equal(g, w) for g, w in zip(got, want, strict=True))


def test_bootstrap_weights_are_draws_of_units_with_replacement(monkeypatch):
    # 5 units, three of them identical and drawn as a class: the weights' distribution
    # is the one of 5 draws with replacement, enumerated exactly
    monkeypatch.setattr(resampling, "WHOLE_CLASS", 2)
    counts = np.array([[1.0], [0.0], [1.0], [2.0], [1.0]])
    plan = bootstrap_plan(counts)
    assert (plan.whole.tolist(), plan.sizes.tolist(), plan.single.tolist()) == ([0], [3], [1, 3])
    exact: dict[tuple[int, ...], float] = {}
    for draw in itertools.product(range(5), repeat=5):
        key = (sum(d in (0, 2, 4) for d in draw), draw.count(1), draw.count(3))
        exact[key] = exact.get(key, 0.0) + 5.0**-5
    boot, _ = rngs(0)
    weights = np.concatenate(list(bootstrap_weights(boot, plan, 40_000)))
    assert (weights.sum(axis=1) == 5).all()
    keys, seen = np.unique(weights.astype(np.int64), axis=0, return_counts=True)
    got = {tuple(int(v) for v in k): c / len(weights) for k, c in zip(keys, seen, strict=True)}
    assert set(got) <= set(exact)
    chi2 = len(weights) * sum((got.get(k, 0.0) - p) ** 2 / p for k, p in exact.items())
    assert chi2 < 50  # df = 20: far beyond its 99.9% quantile (45)


def test_bootstrap_without_classes_draws_the_index_matrix():
    # no class is drawn whole: the resamples are rows of rng.integers(0, n, (R, n))
    n, r = 37, 25
    boot, _ = rngs(5)
    plan = bootstrap_plan(np.arange(n, dtype=np.float64)[:, None])
    weights = np.concatenate(list(bootstrap_weights(boot, plan, r)))
    boot, _ = rngs(5)
    idx = boot.integers(0, n, (r, n), dtype=np.int32)
    assert np.array_equal(weights, np.stack([np.bincount(i, minlength=n) for i in idx]))


def test_randomization_p_value_agrees_with_every_permutation():
    # 8 units differ between the systems: the exact test enumerates all 2**8 swaps
    gold = [["B-A", "O"], ["B-B"], ["O", "B-A"], ["B-B", "I-B"]] * 4
    a = [list(s) for s in gold]
    b = [list(s) for s in gold]
    for i in range(0, 14, 2):
        b[i] = ["O"] * len(gold[i])
    a[3] = ["O", "O"]
    res = compare(gold, {"a": a, "b": b}, method="randomization", n_resamples=20_000,
                  unit="sentence")
    counts = _unit_counts(gold, [a, b])
    (_, tp_a, pred_a), (_, tp_b, pred_b) = counts
    differ = np.flatnonzero((tp_a != tp_b).any(axis=1) | (pred_a != pred_b).any(axis=1))
    assert len(differ) == 8
    d = res.pairs[0].difference.value
    extreme = 0
    for swap in itertools.product((0, 1), repeat=len(differ)):
        x, y = list(a), list(b)
        for unit, s in zip(differ, swap, strict=True):
            if s:
                x[unit], y[unit] = b[unit], a[unit]
        diff = _eval(gold, x, "exact", {})[0, 2] - _eval(gold, y, "exact", {})[0, 2]
        extreme += abs(diff) >= abs(d) - 1e-12
    assert abs(res.pairs[0].p_randomization - extreme / 2 ** len(differ)) < 0.01


# --------------------------------------------------------------------------- properties


def _pair_data(seed: int = 0, n: int = 200) -> tuple[list, list, list]:
    rng = np.random.default_rng(seed)
    gold = _gold_docs(rng, n)
    return gold, _noisy(rng, gold, 0.1), _noisy(rng, gold, 0.6)


def test_seeded_results_are_reproducible():
    gold, good, poor = _pair_data()
    kw = {"method": "both", "n_resamples": 200}
    one = compare(gold, {"good": good, "poor": poor}, seed=3, **kw)
    assert one == compare(gold, {"good": good, "poor": poor}, seed=3, **kw)
    assert one.to_dict() != compare(gold, {"good": good, "poor": poor}, seed=4, **kw).to_dict()
    # the bootstrap does not depend on whether the randomization test runs
    boot_only = compare(gold, {"good": good, "poor": poor}, seed=3, n_resamples=200,
                        method="bootstrap")
    assert boot_only.pairs[0].p_randomization is None
    assert boot_only.systems == one.systems
    assert boot_only.pairs[0].p_bootstrap == one.pairs[0].p_bootstrap


def test_intervals_contain_the_point_estimate():
    gold, good, poor = _pair_data(1)
    res = compare(gold, {"good": good, "poor": poor}, n_resamples=500, match="overlap")
    for s in res.systems:
        for avg in AVERAGES:
            for metric in METRICS:
                e = s.get(metric, avg)
                assert e.low <= e.value <= e.high, (s.name, avg, metric)
    d = res.pairs[0].difference
    assert d.low <= d.value <= d.high


def test_identical_systems_have_p_one():
    gold, good, _ = _pair_data(2)
    res = compare(gold, {"a": good, "b": [list(d) for d in good]}, method="both",
                  n_resamples=300)
    pair = res.pairs[0]
    assert pair.difference.value == pair.difference.low == pair.difference.high == 0.0
    assert pair.p_bootstrap == 1.0
    assert pair.p_randomization == 1.0


@pytest.mark.parametrize("metric", ["f1", "precision", "recall"])
@pytest.mark.parametrize("average", ["micro", "macro"])
def test_a_clearly_better_system_is_significant(metric, average):
    gold, good, poor = _pair_data(3, 300)
    res = compare(gold, {"good": good, "poor": poor}, metric=metric, average=average,
                  method="both", n_resamples=500)
    pair = res.pairs[0]
    assert pair.difference.value > 0
    assert pair.p_bootstrap < 0.01
    assert pair.p_randomization < 0.01
    assert pair.difference.low > 0


def test_confidence_intervals_of_one_system_match_compare():
    gold, good, poor = _pair_data(4, 60)
    ci = confidence_intervals(gold, good, n_resamples=100, seed=1)
    res = compare(gold, {"system": good, "poor": poor}, n_resamples=100, seed=1)
    assert ci.pairs == ()
    assert ci.systems[0] == res.system("system")


def test_three_systems_give_three_pairs_and_sequence_names():
    gold, good, poor = _pair_data(5, 40)
    res = compare(gold, [good, poor, good], n_resamples=50, method="randomization")
    assert [s.name for s in res.systems] == ["system 1", "system 2", "system 3"]
    assert [(p.a, p.b) for p in res.pairs] == [("system 1", "system 2"),
                                                ("system 1", "system 3"),
                                                ("system 2", "system 3")]
    assert all(p.p_bootstrap is None for p in res.pairs)
    assert res.pairs[1].p_randomization == 1.0


def test_documents_with_ids_are_joined_across_systems():
    gold = {"d1": [(0, 4, "A")], "d2": [(0, 3, "B")], "d3": [(2, 5, "A")]}
    a = {"d3": [(2, 5, "A")], "d1": [(0, 4, "A")], "d2": [(0, 3, "B")]}
    b = {"d1": [(0, 4, "A")], "d2": [(0, 3, "A")], "x": [(0, 1, "A")]}
    res = compare(gold, {"a": a, "b": b}, n_resamples=50)
    assert res.n_units == 4  # d1, d2, d3 and b's unknown document x
    ref = nerscore.evaluate(gold, b, zero_division=0.0)
    assert res.system("b").micro.f1.value == ref.micro.f1
    assert res.system("a").micro.f1.value == 1.0


def test_units_of_tag_inputs():
    rng = np.random.default_rng(8)
    gold = _tags(rng, 20)
    pred = _retag(rng, gold, 0.2)
    by_sentence = compare(gold, {"p": pred}, n_resamples=20)
    assert by_sentence.unit == "sentence"
    assert by_sentence.n_units == 20
    assert "no document boundaries" in by_sentence.notes[0]
    by_doc = compare(gold, {"p": pred}, n_resamples=20, documents=[0, 5, 12])
    assert by_doc.unit == "document"
    assert by_doc.n_units == 3
    assert by_doc.systems[0].micro.f1.value == by_sentence.systems[0].micro.f1.value


def test_zero_division_nan_and_no_warnings():
    gold = [[(0, 2, "A")], [(0, 2, "B")]] * 3
    pred = [[(0, 2, "A")], []] * 3
    res = compare(gold, {"p": pred}, n_resamples=50, zero_division=float("nan"))
    assert res.system("p").macro.precision.value == 1.0  # B's precision is nan, skipped
    assert json.loads(res.to_json())["zero_division"] is None


@pytest.mark.parametrize(("kw", "message"), [
    ({"metric": "accuracy"}, "metric"),
    ({"average": "weighted"}, "average"),
    ({"method": "permutation"}, "method"),
    ({"n_resamples": 0}, "n_resamples"),
    ({"level": 1.0}, "level"),
    ({"seed": -1}, "seed"),
    ({"unit": "sentence"}, "unit='sentence' needs tag sequences"),
    ({"documents": [0]}, "documents"),
    ({"zero_division": 2}, "zero_division"),
    ({"baseline": "q"}, r"Expected `baseline` to be the name of one of the systems \('p'\); "
                        "got 'q'"),
])
def test_invalid_options(kw, message):
    gold = [[(0, 2, "A")]]
    with pytest.raises(nerscore.OptionError, match=message):
        compare(gold, {"p": gold}, **kw)


def test_renderings_and_json():
    gold, good, poor = _pair_data(6, 50)
    res = compare(gold, {"good": good, "poor": poor}, method="both", n_resamples=100)
    text = render_comparison(res)
    assert "good vs poor" in text
    assert "p (randomization)" in text
    md = render_comparison(res, format="markdown", digits=2)
    assert md.count("|---|") == 2
    assert "| good |" in md
    data = json.loads(res.to_json())
    assert data["pairs"][0]["a"] == "good"
    assert data["n_resamples"] == 100
    assert data["systems"][1]["micro"]["f1"]["value"] == res.system("poor").micro.f1.value
    with pytest.raises(ValueError, match="format"):
        render_comparison(res, format="html")


def test_compare_reports_progress_of_the_resamples():
    import nerscore

    gold = [["B-PER", "O"], ["B-LOC", "O"], ["O", "B-ORG"]] * 5
    pred = [["B-PER", "O"], ["O", "O"], ["O", "B-ORG"]] * 5
    calls: list[tuple[int, int]] = []
    nerscore.compare(gold, {"a": pred, "b": gold}, n_resamples=30, method="both",
                     unit="sentence", progress=lambda d, t: calls.append((d, t)))
    assert calls[-1] == (60, 60)
    assert all(t == 60 for _, t in calls)
    calls.clear()
    nerscore.confidence_intervals(gold, pred, n_resamples=25, unit="sentence",
                                  progress=lambda d, t: calls.append((d, t)))
    assert calls[-1] == (25, 25)


# --------------------------------------------------------------------------- defaults, Holm


def test_both_tests_run_by_default():
    gold, good, poor = _pair_data(9, 60)
    res = compare(gold, {"good": good, "poor": poor}, n_resamples=100)
    assert res.method == "both"
    pair = res.pairs[0]
    assert pair.p_bootstrap is not None
    assert pair.p_randomization is not None
    # (1 + k) / (1 + R): never 0
    assert pair.p_bootstrap * 101 == pytest.approx(round(pair.p_bootstrap * 101))
    assert pair.p_bootstrap >= 1 / 101
    assert pair.p_bootstrap_holm is None  # one pair: no family to adjust
    assert not any("Holm" in n for n in res.notes)


@pytest.mark.parametrize(("p", "expected"), [
    ([0.01, 0.04, 0.03], [0.03, 0.06, 0.06]),
    ([0.04, 0.01], [0.04, 0.02]),
    ([0.2, 0.2, 0.2], [0.6, 0.6, 0.6]),
    ([0.5, 0.6, 0.001], [1.0, 1.0, 0.003]),
    ([], []),
])
def test_holm_bonferroni(p, expected):
    assert holm_bonferroni(p) == pytest.approx(expected)


def test_holm_bonferroni_against_its_definition():
    rng = np.random.default_rng(0)
    for _ in range(50):
        p = list(rng.random(int(rng.integers(1, 8))) ** 3)
        order = sorted(range(len(p)), key=lambda i: p[i])
        m = len(p)
        want = [0.0] * m
        running = 0.0
        for rank, i in enumerate(order):
            running = max(running, min(1.0, (m - rank) * p[i]))
            want[i] = running
        got = holm_bonferroni(p)
        assert got == pytest.approx(want)
        assert all(g >= x for g, x in zip(got, p, strict=True))


def test_holm_bonferroni_refuses_non_p_values():
    with pytest.raises(ValueError, match=r"Expected p-values in \[0, 1\]"):
        holm_bonferroni([0.5, 1.5])
    with pytest.raises(ValueError, match="p-values"):
        holm_bonferroni([float("nan")])


def test_three_systems_get_holm_adjusted_p_values_over_all_pairs():
    gold, good, poor = _pair_data(10, 60)
    res = compare(gold, {"good": good, "poor": poor, "copy": [list(d) for d in good]},
                  n_resamples=200)
    assert len(res.pairs) == 3
    assert res.baseline is None
    for test in ("p_bootstrap", "p_randomization"):
        raw = [getattr(p, test) for p in res.pairs]
        assert [getattr(p, f"{test}_holm") for p in res.pairs] == holm_bonferroni(raw)
    assert res.notes[-1] == ("Holm–Bonferroni adjusted p-values over all 3 pairs of the 3 "
                             "systems.")
    data = json.loads(res.to_json())
    assert data["pairs"][0]["p_randomization_holm"] == res.pairs[0].p_randomization_holm
    # a test that did not run has no adjusted p-value either
    boot = compare(gold, {"good": good, "poor": poor, "copy": good}, n_resamples=50,
                   method="bootstrap")
    assert all(p.p_randomization_holm is None and p.p_bootstrap_holm is not None
               for p in boot.pairs)


def test_baseline_compares_each_system_with_it():
    gold, good, poor = _pair_data(11, 60)
    systems = {"good": good, "poor": poor, "copy": [list(d) for d in good]}
    every = compare(gold, systems, n_resamples=200, seed=2)
    res = compare(gold, systems, n_resamples=200, seed=2, baseline="poor")
    assert res.baseline == "poor"
    assert [(p.a, p.b) for p in res.pairs] == [("good", "poor"), ("copy", "poor")]
    good_vs_poor = next(p for p in every.pairs if (p.a, p.b) == ("good", "poor"))
    assert res.pairs[0].difference == good_vs_poor.difference
    assert res.pairs[0].p_bootstrap == good_vs_poor.p_bootstrap
    assert res.pairs[0].p_randomization == good_vs_poor.p_randomization
    raw = [p.p_randomization for p in res.pairs]
    assert [p.p_randomization_holm for p in res.pairs] == holm_bonferroni(raw)
    assert res.notes[-1] == ("Holm–Bonferroni adjusted p-values over the 2 comparisons of "
                             "each system with the baseline 'poor'.")
    # two systems and a baseline: one comparison, nothing to adjust
    two = compare(gold, {"good": good, "poor": poor}, n_resamples=50, baseline="good")
    assert [(p.a, p.b) for p in two.pairs] == [("poor", "good")]
    assert two.pairs[0].p_bootstrap_holm is None


def test_input_notes_of_each_system_are_kept():
    gold = [nerscore.Document("a", [(0, 4, "PER")], text="Anna flew"),
            nerscore.Document("b", [(0, 2, "PER")], text="Bo")]
    pred = [nerscore.Document("a", [(0, 4, "PER")], text="Anne flew")]
    with pytest.warns(nerscore.TextMismatchWarning):
        res = compare(gold, {"p": pred, "q": gold}, n_resamples=20)
    assert res.notes[0].startswith("p: 1 gold document(s) have no prediction")
    assert res.notes[1].startswith("p: 1 document has a different text in gold and "
                                   "prediction: document 'a' from character 3")
    assert not any(n.startswith("q:") for n in res.notes)


def test_an_error_in_one_systems_predictions_names_the_system():
    gold = {"a": [(0, 4, "PER")], "b": [(0, 2, "LOC")]}
    good = {"a": [(0, 4, "PER", 0.9)], "b": [(0, 2, "LOC", 0.8)]}
    with pytest.raises(nerscore.errors.InputTypeError,
                       match=r"^unscored: min_score=0.5 keeps .* \(the first is \(0, 2, 'LOC'\) "
                             r"of document 'b'\)"):
        nerscore.compare(gold, {"good": good, "unscored": {"a": good["a"], "b": [(0, 2, "LOC")]}},
                         n_resamples=10, min_score=0.5)
    with pytest.raises(nerscore.errors.LengthMismatchError,
                       match=r"^short: Gold has 2 documents but the prediction has 1"):
        nerscore.compare([[(0, 4, "PER")], []], {"ok": [[], []], "short": [[]]}, n_resamples=10)


@pytest.mark.parametrize(("level", "needed"), [(0.95, 40), (0.9, 20), (0.99, 200), (0.5, 4)])
def test_too_few_resamples_for_the_level_are_noted(level, needed):
    gold = [[(0, 4, "PER")], [(0, 3, "LOC")]] * 10
    pred = [[(0, 4, "PER")], []] * 10
    pct = f"{level * 100:g}%"
    few = compare(gold, {"A": gold, "B": pred}, n_resamples=needed - 1, level=level, seed=0)
    assert [n for n in few.notes if "too few" in n] == [
        f"{needed - 1} resamples are too few for {pct} intervals: they need at least {needed} "
        "(resamples × (1 − level)/2 ≥ 1, so that some resample lies beyond each end); with "
        "fewer, an interval is not meaningful and need not contain the score."]
    enough = compare(gold, {"A": gold, "B": pred}, n_resamples=needed, level=level, seed=0)
    assert not [n for n in enough.notes if "too few" in n]  # (A is right: its intervals are flat)
    one = confidence_intervals(gold, pred, n_resamples=1)
    assert one.notes[0].startswith("1 resample is too few for 95% intervals: they need at "
                                   "least 40 ")
    assert "1 resample is too few" in render_comparison(one)
    # one resample gives every interval zero width whatever the documents: no note claims
    # that the documents contribute alike
    assert not [n for n in one.notes if "zero width" in n]


def test_few_units_are_noted_as_unreliable():
    # two documents: the paired bootstrap's p-value is far below the randomization test's
    gold = [[(0, 4, "PER"), (6, 9, "LOC")], [(0, 4, "PER")]]
    pred = [[(0, 4, "PER")], []]
    res = compare(gold, {"A": gold, "B": pred}, n_resamples=1000, seed=0)
    assert res.notes == ("only 2 documents are resampled: with fewer than 10 documents, "
                         "bootstrap intervals and p-values are unreliable (the resamples take "
                         "few distinct values and understate the spread).",)
    assert res.to_dict()["notes"] == list(res.notes)
    tags = [["B-PER", "O"], ["O", "B-LOC"], ["B-PER", "I-PER"]]
    one = compare(tags[:1], {"A": tags[:1], "B": [["O", "O"]]}, n_resamples=100,
                  unit="sentence")
    assert one.notes[-1].startswith("only 1 sentence is resampled: with fewer than 10 "
                                    "sentences, ")
    nine = compare(tags * 3, {"A": tags * 3}, n_resamples=100, unit="sentence")
    assert nine.notes[-1].startswith("only 9 sentences are resampled")
    ten = compare(tags * 3 + tags[:1], {"A": tags * 3 + tags[:1]}, n_resamples=100,
                  unit="sentence")
    assert not [n for n in ten.notes if "resampled" in n]


FLAT_NOTE = ("{n} bootstrap intervals have zero width ({names}): all {r} resamples gave the same "
             "value of each, as every document contributes alike to them (e.g. a system right on "
             "every document, or two systems that agree on every one); an interval of zero width "
             "says nothing about their uncertainty.")


def test_intervals_every_resample_of_which_is_equal_are_noted_in_one_note():
    # A is right everywhere; B finds every PER and no LOC: its precision is 1 and its macro
    # recall 1/2 (PER 1, LOC 0) in every resample; A and B are the same on 'same'
    gold = [[(0, 4, "PER")], [(0, 3, "LOC")]] * 10
    pred = [[(0, 4, "PER")], []] * 10
    res = compare(gold, {"A": gold, "B": pred, "C": gold}, n_resamples=200, seed=0)
    a = res.system("A")
    assert a.micro.f1 == a.macro.recall == Estimate(1.0, 1.0, 1.0)
    assert res.system("B").macro.recall == Estimate(0.5, 0.5, 0.5)
    assert res.pairs[1].difference == Estimate(0.0, 0.0, 0.0)  # A vs C
    flat = [n for n in res.notes if "zero width" in n]
    # A's and C's 6 scores, B's micro P and macro F1, P, R, and the difference A - C
    assert flat == [FLAT_NOTE.format(n=17, r=200, names="A micro P, A micro R, A micro F1, "
                                     "A macro F1 and 13 more")]
    assert res.notes[-1].startswith("Holm–Bonferroni")  # the last note, as before
    one = confidence_intervals(gold, pred, n_resamples=200, seed=0)
    assert one.notes == (FLAT_NOTE.format(n=4, r=200, names="system micro P, system macro F1, "
                                          "system macro P and system macro R"),)
    assert one.to_dict()["notes"] == list(one.notes)
    # intervals that move say nothing; nor do fewer than 10 documents (a note says so already)
    four = [[(0, 4, "PER")], [(0, 3, "LOC")], [(0, 4, "PER")], [(0, 3, "LOC")]] * 5
    moving = [[(0, 4, "PER")], [(0, 3, "LOC")], [], [(0, 3, "PER")]] * 5
    assert confidence_intervals(four, moving, n_resamples=200).notes == ()
    assert "zero width" not in " ".join(compare(gold[:8], {"A": gold[:8]}).notes)


def test_undefined_resamples_are_no_other_value():
    # one document holds entities: the resamples without it leave every score undefined
    # (zero_division nan), and those with it all give one value
    gold = [[(0, 4, "PER")]] + [[]] * 19
    pred = [[(0, 4, "PER"), (6, 9, "LOC")]] + [[]] * 19
    res = confidence_intervals(gold, pred, n_resamples=300, seed=0, zero_division=math.nan)
    assert math.isnan(res.systems[0].micro.precision.low)
    assert res.notes[0] == (
        "6 scores take one value (system micro P, system micro R, system micro F1, system "
        "macro F1 and 2 more) on every bootstrap resample that defines them (some of the 300 "
        "resamples leave them undefined), as every document contributes alike to them (e.g. "
        "few documents hold entities); an interval of zero width would say nothing about "
        "their uncertainty.")
    assert res.notes[1].startswith("No bootstrap interval of 6 scores (system micro P, ")
    assert len(res.notes) == 2
    assert resampling.single_value(np.array([np.nan, 0.25, np.nan, 0.25 + 1e-15]))
    assert not resampling.single_value(np.array([0.25, np.nan, 0.5]))
    assert not resampling.single_value(np.array([np.nan, np.nan]))


# 20 documents: PER in 18, the rare ORG in 2. A finds every entity; B finds both ORG and
# predicts one wrong PER, so a resample that draws none of these 3 documents leaves its
# precision undefined (zero_division nan); C predicts nothing (undefined on all the data)
RARE_GOLD = [[(0, 4, "PER")]] * 18 + [[(0, 3, "ORG")]] * 2
RARE_B = [[(5, 9, "PER")]] + [[]] * 17 + [[(0, 3, "ORG")]] * 2
UNDEFINED_NOTE = ("No bootstrap interval of 3 scores (B micro P, B macro P and Δ micro P of A "
                  "vs B) and no p-value of A vs B (paired bootstrap): in {} of 1000 resamples "
                  "they are undefined (no predicted entity among the documents drawn, "
                  "zero_division=nan), as too few documents hold entities to resample; pass "
                  "zero_division=0 or 1 for intervals and p-values.")


def test_intervals_and_p_values_some_resamples_leave_undefined_are_noted():
    res = compare(RARE_GOLD, {"A": RARE_GOLD, "B": RARE_B}, metric="precision", seed=0,
                  zero_division=math.nan)
    b, pair = res.system("B"), res.pairs[0]
    assert b.micro.precision.value == pytest.approx(2 / 3)
    assert math.isnan(b.micro.precision.low)
    assert math.isnan(b.macro.precision.high)
    assert math.isnan(pair.difference.low)
    assert not math.isnan(pair.difference.value)
    # the undefined resamples are neither as extreme as the data nor less: no p-value
    assert math.isnan(pair.p_bootstrap)
    assert 0 < pair.p_randomization <= 1  # no permutation leaves a score undefined
    undefined = [n for n in res.notes if n.startswith("No bootstrap interval")]
    assert len(undefined) == 1
    count = int(re.search(r"in (\d+) of 1000", undefined[0]).group(1))
    assert 0 < count < 100  # about (17/20)**20 = 4% of the resamples
    assert undefined == [UNDEFINED_NOTE.format(count)]
    data = json.loads(res.to_json())
    assert data["pairs"][0]["p_bootstrap"] is None
    assert data["notes"] == list(res.notes)
    # with zero_division 0 (the default) or 1 every resample has a value
    for fill in (0.0, 1.0):
        other = compare(RARE_GOLD, {"A": RARE_GOLD, "B": RARE_B}, metric="precision", seed=0,
                        zero_division=fill)
        assert not math.isnan(other.pairs[0].p_bootstrap)
        assert not math.isnan(other.system("B").micro.precision.low)
        assert not [n for n in other.notes if "undefined" in n]


def test_a_score_undefined_on_all_the_data_gets_a_note_and_no_p_value():
    # C predicts nothing: its precision is NaN (what zero_division nan asks for), and so is
    # the difference; a p-value of it would claim what cannot be measured. One note says so,
    # not the note on undefined resamples
    nothing = [[]] * 20
    res = compare(RARE_GOLD, {"A": RARE_GOLD, "C": nothing}, metric="precision", seed=0,
                  zero_division=math.nan)
    assert math.isnan(res.system("C").micro.precision.value)
    pair = res.pairs[0]
    assert math.isnan(pair.difference.value)
    assert math.isnan(pair.p_bootstrap)
    assert math.isnan(pair.p_randomization)
    assert [n for n in res.notes if "undefined" in n] == [
        "3 scores (C micro P, C macro P and Δ micro P of A vs C) are undefined (no predicted "
        "entity in the data, zero_division=nan), and so are their bootstrap intervals and the "
        "p-values of A vs C; pass zero_division=0 or 1 to give them a value."]


def test_an_undefined_p_value_counts_in_the_holm_family_as_never_rejected():
    nothing = [[]] * 20
    res = compare(RARE_GOLD, {"A": RARE_GOLD, "B": RARE_B, "C": nothing}, metric="precision",
                  seed=0, zero_division=math.nan, baseline="A")
    b_vs_a, c_vs_a = res.pairs
    assert math.isnan(b_vs_a.p_bootstrap)
    assert math.isnan(b_vs_a.p_bootstrap_holm)
    assert math.isnan(c_vs_a.p_randomization_holm)
    assert b_vs_a.p_randomization_holm == min(1.0, 2 * b_vs_a.p_randomization)
    page = render_comparison(res, digits=2)
    assert "B vs A" in page
    assert "nan" in page
    assert json.loads(res.to_json())["pairs"][1]["p_randomization_holm"] is None


def test_comparison_notes_name_the_p_values_the_resamples_leave_undefined():
    from nerscore.analysis.significance.notes import comparison_notes

    point = np.full((2, 2, 3), 0.5)
    boot = np.tile(np.linspace(0.0, 1.0, 10), (2, 2, 3, 1))
    boot[1] *= 0.5
    boot[1, 0, 1, :3] = np.nan  # B's micro recall: 3 undefined resamples
    perm = {(0, 1): np.where(np.arange(10) < 4, np.nan, 0.1)}  # and 4 permutations
    notes = comparison_notes(["A", "B"], [(0, 1)], point, boot, perm, metric="f1",
                             average="micro", bootstrap_p=True, n_units=20, unit="document")
    assert notes == [
        "No bootstrap interval of B micro R and no p-value of A vs B (randomization): in up "
        "to 4 of 10 resamples they are undefined (no gold entity (R) or no entity at all (F1) "
        "among the documents drawn, zero_division=nan), as too few documents hold entities to "
        "resample; pass zero_division=0 or 1 for intervals and p-values."]
    point[1, 0, 1] = np.nan  # undefined on all the data: a note of its own
    assert comparison_notes(["A", "B"], [(0, 1)], point, boot, {}, metric="recall",
                            average="micro", bootstrap_p=True, n_units=20,
                            unit="sentence") == [
        "2 scores (B micro R and Δ micro R of A vs B) are undefined (no gold entity in the "
        "data, zero_division=nan), and so are their bootstrap intervals and the p-values of A "
        "vs B; pass zero_division=0 or 1 to give them a value."]


def test_the_two_notes_on_undefined_scores_say_which_they_are():
    from nerscore.analysis.significance import notes

    assert not hasattr(notes, "undefined_note")
    assert notes.undefined_scores_note(["B micro F1"], [], ["f1"]) == (
        "B micro F1 is undefined (no entity at all in the data, zero_division=nan), and so is "
        "its bootstrap interval; pass zero_division=0 or 1 to give it a value.")
    assert notes.undefined_resamples_note(["B micro F1"], [], [3], ["f1"], 10, "document") == (
        "No bootstrap interval of B micro F1: in 3 of 10 resamples it is undefined (no entity at "
        "all among the documents drawn, zero_division=nan), as too few documents hold entities "
        "to resample; pass zero_division=0 or 1 for intervals.")


SET_TO_ZERO_TAIL = "; pass zero_division=0, 1 or nan to choose the value of undefined scores."


def test_warn_notes_the_scores_it_set_to_zero():
    # C predicts nothing: "warn" gives its precision 0.0, on all the data and in every
    # resample, and a note says so (not the note on intervals of zero width)
    nothing = [[]] * 20
    res = compare(RARE_GOLD, {"A": RARE_GOLD, "C": nothing}, metric="precision", seed=0,
                  zero_division="warn")
    assert res.system("C").micro.precision == Estimate(0.0, 0.0, 0.0)
    assert res.notes[-1] == (
        "2 scores (C micro P and C macro P) are ill-defined (no predicted entity in the data) "
        "and set to 0.0, and so are their bootstrap intervals" + SET_TO_ZERO_TAIL)
    # A's 6 scores, C's recall and F1 (0 on every document), the difference of precision
    flat = next(n for n in res.notes if "zero width" in n)
    assert flat.startswith("11 bootstrap intervals have zero width")
    # the scores and intervals are those of zero_division=0, which gives no such note
    zero = compare(RARE_GOLD, {"A": RARE_GOLD, "C": nothing}, metric="precision", seed=0)
    assert zero.systems == res.systems
    assert zero.pairs == res.pairs
    assert not [n for n in zero.notes if "ill-defined" in n]
    assert next(n for n in zero.notes if "zero width" in n).startswith("13 bootstrap")
    assert json.loads(res.to_json())["notes"] == list(res.notes)


def test_warn_notes_macro_averages_that_count_zero_for_a_label():
    gold = [[(0, 4, "PER")], [(0, 3, "LOC")]] * 10
    pred = [[(0, 4, "PER")], [(0, 3, "MISC")]] * 10  # LOC never predicted, MISC not in gold
    res = confidence_intervals(gold, pred, seed=0, n_resamples=50, zero_division="warn")
    assert res.notes[-1] == (
        "2 scores (system macro P and system macro R) average 0.0 for the labels whose score is "
        "ill-defined (no predicted entity (P) or no gold entity (R) in the data)"
        + SET_TO_ZERO_TAIL)
    for value in (0.0, 1.0, math.nan):
        other = confidence_intervals(gold, pred, seed=0, n_resamples=50, zero_division=value)
        assert not [n for n in other.notes if "ill-defined" in n]


def test_comparison_notes_name_the_scores_warn_set_to_zero():
    from nerscore.analysis.significance.notes import comparison_notes

    point = np.full((2, 2, 3), 0.5)
    boot = np.tile(np.linspace(0.0, 1.0, 12), (2, 2, 3, 1))
    boot[1] *= 0.5
    ones = point.copy()
    point[1, 0, 0] = point[1, 1, 0] = 0.0  # B's micro and macro P: ill-defined, 0.0
    ones[1, 0, 0] = ones[1, 1, 0] = 1.0
    boot[1, :, 0] = 0.0
    ones[0, 1, 1] = 0.75  # A's macro R counts 0.0 for a label
    notes = comparison_notes(["A", "B"], [(0, 1)], point, boot, {}, metric="f1",
                             average="micro", bootstrap_p=True, n_units=20, unit="document",
                             ones=ones)
    assert notes == [
        "2 scores (B micro P and B macro P) are ill-defined (no predicted entity in the data) "
        "and set to 0.0, and so are their bootstrap intervals; A macro R averages 0.0 for the "
        "labels whose recall is ill-defined (no gold entity in the data)" + SET_TO_ZERO_TAIL]
    # without `ones` (another zero_division) the intervals of zero width are noted as such
    assert comparison_notes(["A", "B"], [(0, 1)], point, boot, {}, metric="f1",
                            average="micro", bootstrap_p=True, n_units=20,
                            unit="document")[0].startswith(
        "2 bootstrap intervals have zero width (B micro P and B macro P)")


def test_strict_mode_notes_each_systems_tag_runs_read_as_no_entity():
    gold = [["I-PER", "I-PER", "O"], ["B-LOC", "O", "O"]]
    systems = {"a": [["B-PER", "I-PER", "O"], ["I-LOC", "O", "O"]],
               "b": [["B-PER", "I-PER", "O"], ["B-LOC", "O", "O"]]}
    result = nerscore.compare(gold, systems, scheme="IOB2", mode="strict", n_resamples=10,
                              seed=0, zero_division=0)
    said = [n for n in result.notes if "Strict mode" in n]
    assert said == [
        "a: Strict mode (IOB2) read 1 gold and 1 predicted tag runs as no entity: an IOB2 "
        "entity begins with B. Lenient mode (mode='lenient') reads them as entities.",
        "b: Strict mode (IOB2) read 1 gold and 0 predicted tag run as no entity: an IOB2 "
        "entity begins with B. Lenient mode (mode='lenient') reads it as an entity.",
    ]
