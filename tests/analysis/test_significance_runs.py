"""Systems with several runs each: documents and runs resampled together (compare_runs)."""

from __future__ import annotations

import math

import numpy as np
import pytest

import nerscore
from nerscore.analysis.significance import RunDocumentsError, compare, compare_runs
from nerscore.analysis.significance.across_runs import RESAMPLED_TOGETHER, runs_bootstrap
from nerscore.analysis.significance.comparison import join_units
from nerscore.analysis.significance.resampling import (
    AVERAGES,
    METRICS,
    bootstrap_plan,
    bootstrap_weights,
)
from nerscore.analysis.significance.results import Estimate
from nerscore.errors import LengthMismatchError, OptionError
from tests.analysis.test_significance import _eval, _gold_docs, _noisy, _retag, _tags

# Four documents; A finds everything (run 1) or misses the second PER (run 2), B finds
# PER and ORG (run 1) or only the first PER (run 2). Micro F1 of the runs, by hand:
#   A: 4/4 -> 1;  3 of 4 gold, 3 predicted -> 2*3/(4+3) = 6/7
#   B: 2 of 4, 2 predicted -> 2*2/(4+2) = 2/3;  1 of 4, 1 predicted -> 2/(4+1) = 2/5
GOLD = [[(0, 4, "PER")], [(0, 3, "LOC")], [(0, 5, "ORG")], [(2, 6, "PER")]]
A1 = [[(0, 4, "PER")], [(0, 3, "LOC")], [(0, 5, "ORG")], [(2, 6, "PER")]]
A2 = [[(0, 4, "PER")], [(0, 3, "LOC")], [(0, 5, "ORG")], []]
B1 = [[(0, 4, "PER")], [], [(0, 5, "ORG")], []]
B2 = [[(0, 4, "PER")], [], [], []]


def test_hand_checked_means_sds_and_difference():
    res = compare_runs(GOLD * 5, {"A": [A1 * 5, A2 * 5], "B": {"b1": B1 * 5, "b2": B2 * 5}},
                       n_resamples=300, seed=3)
    a, b = res.system("A"), res.system("B")
    assert a.runs is not None
    assert b.runs is not None
    assert a.runs.runs == ("run 1", "run 2")
    assert b.runs.runs == ("b1", "b2")
    assert a.runs.values("f1") == pytest.approx((1.0, 6 / 7))
    assert b.runs.values("f1") == pytest.approx((2 / 3, 2 / 5))
    assert a.micro.f1.value == pytest.approx((1 + 6 / 7) / 2)
    assert b.micro.f1.value == pytest.approx((2 / 3 + 2 / 5) / 2)
    assert a.runs.sd("f1") == pytest.approx((1 - 6 / 7) / math.sqrt(2))
    assert b.runs.sd("recall") == pytest.approx((0.5 - 0.25) / math.sqrt(2))
    assert a.runs.mean("precision") == 1.0
    assert a.runs.sd("precision") == 0.0
    pair = res.pairs[0]
    assert pair.difference.value == pytest.approx((1 + 6 / 7) / 2 - (2 / 3 + 2 / 5) / 2)
    assert pair.difference.low <= pair.difference.value <= pair.difference.high
    assert pair.p_randomization is None
    assert res.method == "bootstrap"
    assert res.notes[0] == RESAMPLED_TOGETHER
    # a fixed seed gives the same numbers; another seed other ones
    again = compare_runs(GOLD * 5, {"A": [A1 * 5, A2 * 5], "B": {"b1": B1 * 5, "b2": B2 * 5}},
                         n_resamples=300, seed=3)
    other = compare_runs(GOLD * 5, {"A": [A1 * 5, A2 * 5], "B": {"b1": B1 * 5, "b2": B2 * 5}},
                         n_resamples=300, seed=4)
    assert again == res
    assert other.pairs[0].difference != pair.difference


def test_agrees_with_brute_force_two_stage_resampling():
    """Every replicate re-scored with evaluate: the documented draws of documents and runs."""
    rng = np.random.default_rng(7)
    gold = _gold_docs(rng, 20)
    systems = {"a": [_noisy(rng, gold, 0.2) for _ in range(3)],
               "b": [_noisy(rng, gold, 0.4) for _ in range(2)]}
    n_res, seed, level = 30, 5, 0.9
    res = compare_runs(gold, systems, n_resamples=n_res, seed=seed, level=level)
    # the documents: bootstrap_weights over every run's counts, as compare draws them
    runs = [p for preds in systems.values() for p in preds]
    parts = [nerscore.sequence_counts(gold, p) for p in runs]
    labels = sorted(set().union(*(p.labels for p in parts)))
    parts = [p.select(labels) for p in parts]
    table = np.concatenate([parts[0].n_gold] + [c for p in parts for c in (p.tp, p.n_pred)],
                           axis=1).astype(np.float64)
    units_seq, _, runs_seq = np.random.SeedSequence(seed).spawn(3)
    plan = bootstrap_plan(table)
    weights = np.concatenate(list(bootstrap_weights(np.random.default_rng(units_seq), plan,
                                                    n_res)))
    drawn_docs = [np.repeat(plan.columns, w.astype(np.int64)) for w in weights]
    # the runs: one multinomial call per system, in order
    run_rng = np.random.default_rng(runs_seq)
    drawn_runs = {name: run_rng.multinomial(len(p), [1 / len(p)] * len(p), size=n_res)
                  for name, p in systems.items()}
    q = [(1 - level) / 2, (1 + level) / 2]
    boot = {}
    for name, preds in systems.items():
        point = np.mean([_eval(gold, p, "exact", {}) for p in preds], axis=0)
        rows = []
        for r, idx in enumerate(drawn_docs):
            g = [gold[i] for i in idx]
            per_run = [_eval(g, [p[i] for i in idx], "exact", {}) for p in preds]
            rows.append(sum(v * s for v, s in zip(drawn_runs[name][r], per_run, strict=True))
                        / len(preds))
        boot[name] = np.stack(rows, axis=-1)
        for ai, avg in enumerate(AVERAGES):
            for mi, metric in enumerate(METRICS):
                est = res.system(name).get(metric, avg)
                assert est.value == pytest.approx(point[ai, mi], abs=1e-12)
                lo, hi = np.quantile(boot[name][ai, mi], q)
                assert (est.low, est.high) == pytest.approx((lo, hi), abs=1e-12)
    pair = res.pairs[0]
    d = pair.difference.value
    d_boot = boot["a"][0, 2] - boot["b"][0, 2]
    assert (pair.difference.low, pair.difference.high) == pytest.approx(
        tuple(np.quantile(d_boot, q)), abs=1e-12)
    assert pair.p_bootstrap == (1 + np.sum(np.abs(d_boot - d) >= abs(d) - 1e-12)) / (1 + n_res)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_one_run_per_system_is_the_document_bootstrap(seed):
    rng = np.random.default_rng(seed)
    gold = _tags(rng, 40)
    preds = [_retag(rng, gold, 0.1), _retag(rng, gold, 0.3)]
    ref = compare(gold, {"a": preds[0], "b": preds[1]}, method="bootstrap", n_resamples=50,
                  seed=seed, unit="sentence")
    # the engine itself, one run each: the same replicates, number for number
    parts = join_units([nerscore.sequence_counts(gold, p) for p in preds], ["a", "b"])
    _, point, boot = runs_bootstrap(parts, [0, 1], 50, seed, 0.0)
    for s, name in enumerate(["a", "b"]):
        for ai, avg in enumerate(AVERAGES):
            for mi, metric in enumerate(METRICS):
                est = ref.system(name).get(metric, avg)
                assert est.value == point[s, ai, mi]
                assert (est.low, est.high) == tuple(
                    np.quantile(boot[s, ai, mi], [(1 - 0.95) / 2, (1 + 0.95) / 2]))
    # identical runs: drawing runs changes nothing, so the document bootstrap again
    res = compare_runs(gold, {"a": [preds[0]] * 3, "b": [preds[1]] * 2}, n_resamples=50,
                       seed=seed, unit="sentence")
    for got, want in zip(res.systems, ref.systems, strict=True):
        for avg in AVERAGES:
            for metric in METRICS:
                g, w = got.get(metric, avg), want.get(metric, avg)
                assert (g.value, g.low, g.high) == pytest.approx((w.value, w.low, w.high),
                                                                 abs=1e-12)
    assert res.pairs[0].p_bootstrap == ref.pairs[0].p_bootstrap
    # every system with one run: the ordinary comparison, both tests, and a note
    single = compare_runs(gold, {"a": [preds[0]], "b": [preds[1]]}, n_resamples=50,
                          seed=seed, unit="sentence", method="both")
    assert single.systems == compare(gold, {"a": preds[0], "b": preds[1]}, n_resamples=50,
                                     seed=seed, unit="sentence").systems
    assert single.pairs[0].p_randomization is not None
    assert single.notes[0].startswith("every system has one run: the ordinary comparison")


def test_tag_runs_grouped_into_documents():
    rng = np.random.default_rng(3)
    gold = _tags(rng, 30)
    runs = {"a": [_retag(rng, gold, 0.1) for _ in range(2)],
            "b": [_retag(rng, gold, 0.3) for _ in range(2)]}
    res = compare_runs(gold, runs, n_resamples=20, documents=[0, 10, 20])
    assert (res.unit, res.n_units) == ("document", 3)
    loose = compare_runs(gold, runs, n_resamples=20)
    assert (loose.unit, loose.n_units) == ("sentence", 30)
    assert any("each sentence is resampled" in n for n in loose.notes)


def test_a_system_with_one_run_beside_several_is_noted():
    res = compare_runs(GOLD * 3, {"A": [A1 * 3, A2 * 3], "B": [B1 * 3]}, n_resamples=20)
    assert res.system("B").runs is not None
    assert res.system("B").runs.n_runs == 1
    assert math.isnan(res.system("B").runs.sd("f1"))
    assert "system 'B' has one run: only its units are resampled" in res.notes[1]
    table = nerscore.render_comparison(res, digits=2).splitlines()
    assert table[8].split() == ["B", "1", "1.00", "±", "-", "0.50", "±", "-", "0.67", "±", "-",
                                "0.56", "±", "-"]


def test_runs_must_predict_the_same_documents():
    gold = [{"id": d, "text": "abcdefgh", "spans": s} for d, s in zip("wxyz", GOLD, strict=True)]
    full = [{"id": d, "text": "abcdefgh", "spans": s} for d, s in zip("wxyz", A1, strict=True)]
    with pytest.raises(RunDocumentsError, match=r"run 'run 2' of system 'A' does not predict "
                       r"the same documents as gold \(.*'z'.*\)\. .* every run must predict"):
        compare_runs(gold, {"A": [full, full[:3]], "B": [full, full]}, n_resamples=10)
    tags = [["B-PER", "O"], ["B-LOC"]]
    with pytest.raises(LengthMismatchError, match=r"^run 'short' of system 'A': .*Every run "
                       r"must predict the same sentences"):
        compare_runs(tags, {"A": {"full": tags, "short": tags[:1]}, "B": [tags, tags]},
                     n_resamples=10)


@pytest.mark.parametrize(("systems", "kw", "message"), [
    ({"A": [A1, A2], "B": [B1, B2]}, {"method": "both"},
     r"Expected `method` to be 'bootstrap' when a system has several runs .*system 'A'"),
    ({"A": [A1, A2], "B": [B1, B2]}, {"method": "randomization"}, "approximate randomization"),
    ({"A": A1, "B": [B1, B2]}, {}, r"System 'A' looks like one prediction .*\[run_1, run_2"),
    ({"A": [[{"start": 0, "end": 4, "label": "PER"}]], "B": [B1]}, {}, "looks like one"),
    ({"A": [{"id": "x", "spans": []}], "B": [B1]}, {}, "looks like one"),
    ({"A": [nerscore.Document("x", [])], "B": [B1]}, {}, "looks like one"),
    ({"A": [[nerscore.Entity(nerscore.Span(0, 4), "PER")]], "B": [B1]}, {}, "looks like one"),
    ({"A": [], "B": [B1]}, {}, "System 'A' has no runs"),
    ({"A": 3}, {}, "must be a list of predictions"),
    ([[A1, A2]], {}, "must be a non-empty mapping"),
    ({"A": [A1, A2]}, {"n_resamples": 0}, "whole number >= 1"),
])
def test_invalid_input(systems, kw, message):
    with pytest.raises(OptionError, match=message):
        compare_runs(GOLD, systems, **kw)


def test_few_units_and_few_resamples_are_noted():
    res = compare_runs(GOLD, {"A": [A1, A2], "B": [B1, B2]}, n_resamples=30, seed=0)
    assert res.notes[1].startswith("30 resamples are too few for 95% intervals: they need at "
                                   "least 40 ")
    assert res.notes[2].startswith("only 4 documents are resampled: with fewer than 10 "
                                   "documents, bootstrap intervals and p-values are unreliable")
    many = compare_runs(GOLD * 3, {"A": [A1 * 3, A2 * 3], "B": [B1 * 3, B2 * 3]},
                        n_resamples=40, seed=0)
    assert many.notes[0] == RESAMPLED_TOGETHER
    assert not [n for n in many.notes if "too few" in n or "resampled:" in n]


def test_a_mean_over_runs_every_resample_of_which_is_equal_is_noted():
    # every run predicts only right entities: the micro precision of A and B is 1 in every
    # resample, and A's macro precision too (B's moves: a label its run 2 never predicts
    # counts 0, and the runs drawn change)
    res = compare_runs(GOLD * 5, {"A": [A1 * 5, A2 * 5], "B": [B1 * 5, B2 * 5]},
                       n_resamples=300, seed=0)
    assert res.system("A").micro.precision == Estimate(1.0, 1.0, 1.0)
    assert res.notes[1:] == (
        "3 bootstrap intervals have zero width (A micro P, A macro P and B micro P): all 300 "
        "resamples gave the same value of each, as every document contributes alike to them "
        "(e.g. a system right on every document, or two systems that agree on every one); an "
        "interval of zero width says nothing about their uncertainty.",)


def test_means_over_runs_some_resamples_leave_undefined_are_noted():
    from tests.analysis.test_significance import RARE_B, RARE_GOLD

    # B's runs predict entities in 3 and 2 of the 20 documents: resamples that draw none of
    # them leave a run's precision, and so B's mean, undefined (zero_division nan)
    only_org = [[]] * 18 + [[(0, 3, "ORG")]] * 2
    res = compare_runs(RARE_GOLD, {"A": [RARE_GOLD, RARE_GOLD], "B": [RARE_B, only_org]},
                       metric="precision", n_resamples=300, seed=0, zero_division=math.nan)
    pair = res.pairs[0]
    assert math.isnan(res.system("B").micro.precision.low)
    assert math.isnan(pair.p_bootstrap)
    assert not math.isnan(pair.difference.value)
    note = res.notes[-1]
    assert note.startswith("No bootstrap interval of 3 scores (B micro P, B macro P and "
                           "Δ micro P of A vs B) and no p-value of A vs B: in ")
    assert note.endswith(" of 300 resamples they are undefined (no predicted entity among the "
                         "documents drawn, zero_division=nan), as too few documents hold "
                         "entities to resample; pass zero_division=0 or 1 for intervals and "
                         "p-values.")
    plain = compare_runs(RARE_GOLD, {"A": [RARE_GOLD, RARE_GOLD], "B": [RARE_B, only_org]},
                         metric="precision", n_resamples=300, seed=0)
    assert not [n for n in plain.notes if "undefined" in n]
    assert not math.isnan(plain.pairs[0].p_bootstrap)


def test_warn_notes_the_means_over_runs_set_to_zero():
    from tests.analysis.test_significance import RARE_GOLD, SET_TO_ZERO_TAIL

    nothing = [[]] * 20
    systems = {"A": [RARE_GOLD, RARE_GOLD], "N": [nothing, RARE_GOLD]}
    res = compare_runs(RARE_GOLD, systems, n_resamples=50, seed=0, zero_division="warn")
    assert res.system("N").micro.precision.value == 0.5  # the mean of 0.0 and 1.0
    assert res.notes[-1] == (
        "2 scores (N micro P and N macro P) average 0.0 for the labels or runs whose precision "
        "is ill-defined (no predicted entity in the data)" + SET_TO_ZERO_TAIL)
    systems["N"] = [nothing, list(nothing)]
    res = compare_runs(RARE_GOLD, systems, n_resamples=50, seed=0, zero_division="warn")
    assert res.notes[-1] == (
        "2 scores (N micro P and N macro P) are ill-defined (no predicted entity in the data) "
        "and set to 0.0, and so are their bootstrap intervals" + SET_TO_ZERO_TAIL)
    plain = compare_runs(RARE_GOLD, systems, n_resamples=50, seed=0)
    assert not [n for n in plain.notes if "ill-defined" in n]
    assert plain.systems == res.systems
