"""Comparing systems that have several runs each: documents and runs resampled together.

See docs/significance.md, "Several runs per system". Each system has runs
``1 … K_s`` (seeds, sampled outputs, prompt variants) that predict the same
documents. Every run is matched against gold once and split into per-unit
counts (:func:`.units.counts_of_run`); no matcher runs per resample.

- A system's **score** is the mean over its runs of each run's score (micro
  or macro precision, recall, F1); its **spread** is the sample standard
  deviation over runs (``n − 1``).
- **Bootstrap replicate** ``r`` (two-stage): (1) draws ``n`` units with
  replacement — the weights ``W[r]`` of :func:`.resampling.bootstrap_weights`,
  the same for every run of every system, so the test is paired over
  documents; (2) for each system ``s`` with ``K_s > 1`` runs, draws ``K_s`` of
  its runs with replacement — how often each is drawn, ``V[r, s]``, is
  ``Multinomial(K_s, 1/K_s each)``, independently for each system (runs are
  not paired across systems); (3) ``θ*_r(s) = Σ_k V[r, s, k] / K_s · θ(run k
  on W[r])``.
- Interval, difference and p-value are those of :func:`.comparison.compare`
  on these replicates: percentile interval; ``d = θ(A) − θ(B)``; the
  shifted-null p-value ``(1 + #{r : |d*_r − d| ≥ |d|}) / (1 + R)``.

Random numbers: ``numpy.random.SeedSequence(seed).spawn(3)``; the first stream
draws the units exactly as :func:`.comparison.compare`'s bootstrap does, the
third draws the runs (one ``rng.multinomial(K_s, [1/K_s] * K_s, size=R)`` call
per system with several runs, in the order of the systems). So with one run
per system the replicates are those of the document bootstrap.

Approximate randomization swaps two systems' counts unit by unit; with several
runs per system there is no one-to-one counterpart to swap with, so only the
bootstrap is offered (an error says so). When every system has one run,
:func:`compare_runs` is :func:`.comparison.compare` (both tests available),
and a note says so.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from nerscore.analysis.significance.adjustment import adjusted_pairs
from nerscore.analysis.significance.comparison import (
    METHODS,
    UNITS,
    check_choice,
    check_settings,
    compare,
    compared_pairs,
    join_units,
    resample_units,
)
from nerscore.analysis.significance.notes import comparison_notes
from nerscore.analysis.significance.resampled_scores import (
    CountTable,
    bootstrap_scores,
    estimates,
    p_value,
    point_scores,
    quantiles,
    ticker,
)
from nerscore.analysis.significance.resampling import (
    AVERAGES,
    METRICS,
    resampling_notes,
)
from nerscore.analysis.significance.results import (
    Comparison,
    Estimate,
    PairResult,
    RunSpread,
    SystemScores,
)
from nerscore.analysis.significance.units import SequenceCounts, counts_of_run
from nerscore.errors import LengthMismatchError, NerscoreError, OptionError, option_error
from nerscore.matching import get_matcher
from nerscore.scoring.counting import run_matcher
from nerscore.values.decoding import Decoding
from nerscore.values.documents import Document
from nerscore.values.ratios import check_zero_division
from nerscore.values.schemes import Mode, Scheme
from nerscore.values.spans import Entity

__all__ = ["RESAMPLED_TOGETHER", "RunDocumentsError", "compare_runs", "runs_bootstrap"]

FloatArray = npt.NDArray[np.float64]

#: The note every run-aware comparison carries.
RESAMPLED_TOGETHER = (
    "documents and runs were resampled together: each bootstrap resample draws the units with "
    "replacement (the same for every run of every system) and, for each system, its runs with "
    "replacement; a system's score is the mean over the runs drawn."
)


class RunDocumentsError(NerscoreError, ValueError):
    """The runs of a system do not predict the same documents as gold."""


def _is_one_prediction(first: object) -> bool:
    """Whether ``first``, the first item of a system's value, is a sentence or a document.

    A sentence (a list of tags), a document (a list of spans: tuples, span
    dicts or entities) or a document with an id is the start of *one*
    prediction; the first of several runs is itself a whole prediction.
    """
    if isinstance(first, Document) or (isinstance(first, Mapping) and (
            {"spans", "entities"} & set(first))):
        return True
    if not isinstance(first, Sequence) or isinstance(first, (str, bytes)) or not len(first):
        return False
    inner = first[0]
    return isinstance(inner, (str, tuple, Entity)) or (isinstance(inner, Mapping)
                                                      and "start" in inner)


def _runs_of(systems: object) -> list[tuple[str, list[tuple[str, object]]]]:
    """``[(system, [(run name, prediction), ...]), ...]`` from the mapping users pass."""
    if not isinstance(systems, Mapping) or not systems:
        raise OptionError(
            "`systems` must be a non-empty mapping {name: runs}, where runs is a list of "
            "predictions or a mapping {run name: prediction}.", option="systems")
    out = []
    for name, runs in systems.items():
        if isinstance(runs, Mapping):
            named = [(str(k), v) for k, v in runs.items()]
        elif isinstance(runs, Sequence) and not isinstance(runs, (str, bytes)):
            if len(runs) and _is_one_prediction(runs[0]):
                raise OptionError(
                    f"System {name!r} looks like one prediction (its first item is a sentence "
                    "or a document), not a list of runs; give its runs as a list of "
                    f"predictions: {{{name!r}: [run_1, run_2, ...]}}.", option="systems")
            named = [(f"run {i + 1}", v) for i, v in enumerate(runs)]
        else:
            raise OptionError(
                f"The runs of system {name!r} must be a list of predictions or a mapping "
                f"{{run name: prediction}}; got {type(runs).__name__}.", option="systems")
        if not named:
            raise OptionError(f"System {name!r} has no runs: give at least one prediction.",
                              option="systems")
        out.append((str(name), named))
    return out


def _run_counts(
    y_true: object, y_pred: object, where: str, match: str, decoding: Decoding,
    options: Mapping[str, Any], notes: list[str],
) -> tuple[SequenceCounts, dict[str, Any], bool]:
    """One run's per-unit counts, its matcher's options and whether the input was tags."""
    matcher = get_matcher(match)
    try:
        run = run_matcher(y_true, y_pred, match, decoding, options, align=matcher.aligns)
    except LengthMismatchError as e:
        raise LengthMismatchError(
            f"{where}: {e} Every run must predict the same sentences or documents as gold.",
            expected=e.expected, actual=e.actual, sentence=e.sentence) from e
    if run.prep.join_notes:
        raise RunDocumentsError(
            f"{where} does not predict the same documents as gold ({run.prep.join_notes[0]}). "
            "Runs are resampled together with the documents, so every run must predict "
            "exactly gold's documents; give each run every document (an empty one where it "
            "found no entity).")
    notes += [f"{where}: {n}" for n in run.prep.notes]
    notes += [f"{where}: {n}" for n in run.tally_notes()]
    return counts_of_run(run, match), run.options, run.prep.tags is not None


def runs_bootstrap(
    parts: list[SequenceCounts], owner: Sequence[int], n_resamples: int, seed: int | None,
    fill: float, progress: Callable[[int, int], None] | None = None,
) -> tuple[FloatArray, FloatArray, FloatArray]:
    """Scores of every run, and every system's mean over runs on the two-stage bootstrap.

    Parameters
    ----------
    parts : list of SequenceCounts
        Every run's per-unit counts, rows in one order of units, one label set
        (as :func:`.comparison._join_units` gives).
    owner : sequence of int
        The system (``0 … k − 1``) of each part; a system's parts are its runs,
        in order.
    n_resamples, seed, fill, progress
        As for :func:`compare_runs` (``fill`` is the value of undefined ratios).

    Returns
    -------
    run_point : array, shape (n_parts, 2, 3)
        Each run's scores on all the data (``[average, metric]``, the order of
        :data:`.resampling.AVERAGES` and :data:`.resampling.METRICS`).
    point : array, shape (k, 2, 3)
        Each system's mean over its runs.
    boot : array, shape (k, 2, 3, R)
        Each system's mean over the runs drawn, on every replicate.
    """
    tick = ticker(progress, n_resamples)
    own = np.asarray(owner, dtype=np.int64)
    k = int(own.max()) + 1
    counts = CountTable.of_parts(parts)
    run_point = point_scores(counts, len(parts), fill)
    units_seq, _, runs_seq = np.random.SeedSequence(seed).spawn(3)
    run_boot = bootstrap_scores(counts, len(parts), np.random.default_rng(units_seq), n_resamples,
                          fill, tick)
    run_rng = np.random.default_rng(runs_seq)
    point = _means(run_point, own)
    boot = np.empty((k, 2, 3, n_resamples))
    for s in range(k):
        mine = np.flatnonzero(own == s)
        if len(mine) == 1:
            boot[s] = run_boot[mine[0]]
            continue
        drawn = run_rng.multinomial(len(mine), np.full(len(mine), 1 / len(mine)),
                                    size=n_resamples) / len(mine)
        boot[s] = np.einsum("rk,kamr->amr", drawn, run_boot[mine])
    return run_point, point, boot


def _means(run_point: FloatArray, own: npt.NDArray[np.int64]) -> FloatArray:
    """Each system's mean over its runs of the runs' scores ``(n_parts, 2, 3)``."""
    return np.stack([run_point[own == s].mean(axis=0) for s in range(int(own.max()) + 1)])


def _spread(runs: list[str], values: FloatArray) -> RunSpread:
    per = {avg: {m: tuple(float(v) for v in values[:, a, i]) for i, m in enumerate(METRICS)}
           for a, avg in enumerate(AVERAGES)}
    return RunSpread(tuple(runs), per["micro"], per["macro"])


def compare_runs(
    y_true: object,
    systems: Mapping[str, Sequence[object] | Mapping[str, object]],
    *,
    match: str = "exact",
    scheme: str | Scheme | None = None,
    mode: str | Mode = "lenient",
    metric: str = "f1",
    average: str = "micro",
    method: str = "bootstrap",
    baseline: str | None = None,
    n_resamples: int = 1000,
    level: float = 0.95,
    seed: int | None = 0,
    unit: str = "document",
    documents: Sequence[int] | None = None,
    zero_division: Any = 0.0,
    suffix: bool = False,
    delimiter: str = "-",
    outside: str = "O",
    progress: Callable[[int, int], None] | None = None,
    **options: Any,
) -> Comparison:
    """Compare systems with several runs each, resampling documents and runs together.

    Each system's score is the mean over its runs of the run's score, shown
    with its standard deviation over runs (:class:`RunSpread`); intervals and
    the paired test come from a two-stage bootstrap that draws the documents
    (shared by every run of every system) and, per system, the runs, both
    with replacement. A note in the result says so.

    Parameters
    ----------
    y_true : tag sequences, EncodedTags, or span documents
        Gold, as for :func:`nerscore.evaluate`.
    systems : mapping of name to runs
        Each system's runs: a list of predictions (named ``"run 1"``,
        ``"run 2"``, ...) or a mapping ``{run name: prediction}``. Every run
        must predict gold's sentences or documents.
    match, scheme, mode, suffix, delimiter, outside : optional
        As for :func:`compare`.
    metric : {"f1", "precision", "recall"}
        The score the pairs compare.
    average : {"micro", "macro"}
        Its average.
    method : {"bootstrap", "both", "randomization"}
        Which p-values. With several runs in any system only ``"bootstrap"``
        is defined; the other two are accepted only when every system has
        one run (then this is :func:`compare`).
    baseline, n_resamples, level, seed, unit, documents, zero_division, progress
        As for :func:`compare`.
    **options
        The matcher's options.

    Returns
    -------
    Comparison
        ``systems[i].runs`` holds every run's scores; the scores with
        intervals are means over runs.

    Raises
    ------
    OptionError
        For an invalid option, a system without runs, or ``method`` other than
        ``"bootstrap"`` with several runs.
    RunDocumentsError, LengthMismatchError
        When a run does not predict gold's documents or sentences.
    UnsplittableCountsError
        When the matcher's counts cannot be split by unit.

    See Also
    --------
    compare : one prediction per system.

    Notes
    -----
    Definitions: docs/significance.md, "Several runs per system".

    Examples
    --------
    >>> gold = [[(0, 4, "PER")], [(0, 3, "LOC")], [(0, 5, "ORG")], [(2, 6, "PER")]] * 5
    >>> a1 = [[(0, 4, "PER")], [(0, 3, "LOC")], [(0, 5, "ORG")], [(2, 6, "PER")]] * 5
    >>> a2 = [[(0, 4, "PER")], [(0, 3, "LOC")], [(0, 5, "ORG")], []] * 5
    >>> b1 = [[(0, 4, "PER")], [], [(0, 5, "ORG")], []] * 5
    >>> b2 = [[(0, 4, "PER")], [], [], []] * 5
    >>> res = compare_runs(gold, {"A": [a1, a2], "B": [b1, b2]}, n_resamples=200)
    >>> a = res.system("A")
    >>> [round(f, 4) for f in a.runs.micro["f1"]], round(a.micro.f1.value, 4)
    ([1.0, 0.8571], 0.9286)
    >>> round(a.runs.sd("f1"), 4), a.runs.n_runs
    (0.101, 2)
    >>> pair = res.pairs[0]
    >>> round(pair.difference.value, 4), pair.difference.low > 0, pair.p_bootstrap < 0.05
    (0.3952, True, True)
    >>> res.notes[0].startswith("documents and runs were resampled together")
    True
    """
    check_choice("metric", metric, METRICS)
    check_choice("average", average, AVERAGES)
    check_choice("method", method, METHODS)
    check_choice("unit", unit, UNITS)
    check_settings(n_resamples, level, seed)
    named = _runs_of(systems)
    common: dict[str, Any] = dict(
        match=match, scheme=scheme, mode=mode, metric=metric, average=average,
        baseline=baseline, n_resamples=n_resamples, level=level, seed=seed, unit=unit,
        documents=documents, zero_division=zero_division, suffix=suffix, delimiter=delimiter,
        outside=outside, progress=progress)
    if all(len(runs) == 1 for _, runs in named):
        res = compare(y_true, {name: runs[0][1] for name, runs in named}, method=method,
                      **common, **options)
        note = ("every system has one run: the ordinary comparison (units resampled; no runs "
                "to resample).")
        return dataclasses.replace(res, notes=(note, *res.notes))
    if method != "bootstrap":
        several = next(name for name, runs in named if len(runs) > 1)
        raise option_error(
            "method", "'bootstrap' when a system has several runs (approximate randomization "
            "swaps two systems' counts unit by unit, and runs have no one-to-one counterpart "
            f"across systems; system {several!r} has several runs)", method)
    zd = check_zero_division(zero_division)
    fill = 0.0 if zd == "warn" else float(zd)
    decoding = Decoding(scheme, mode, suffix, delimiter, outside)
    names = [name for name, _ in named]
    pairs = compared_pairs(names, baseline)
    notes: list[str] = [RESAMPLED_TOGETHER]
    parts, owner, labels = [], [], []
    resolved: dict[str, Any] = {}
    tags = False
    for s, (name, runs) in enumerate(named):
        if len(runs) == 1:
            notes.append(f"system {name!r} has one run: only its units are resampled (its "
                         "run-to-run variation is unknown and counts as none).")
        for run_name, y_pred in runs:
            where = f"run {run_name!r} of system {name!r}"
            sc, resolved, tags = _run_counts(y_true, y_pred, where, match, decoding, options,
                                             notes)
            parts.append(sc)
            owner.append(s)
            labels.append(where)
    parts = join_units(parts, labels)
    parts, used_unit = resample_units(parts, tags, unit, documents, notes)
    n_units = parts[0].n_sequences
    if n_units == 0:
        raise ValueError("Nothing to resample: the input has no sentences or documents.")
    notes += resampling_notes(int(n_resamples), float(level), n_units, used_unit)
    run_point, point, boot = runs_bootstrap(parts, owner, int(n_resamples),
                                            None if seed is None else int(seed), fill, progress)
    lvl = float(level)
    own = np.asarray(owner)
    systems_out = tuple(
        SystemScores(name, estimates(point[s, 0], boot[s, 0], lvl),
                     estimates(point[s, 1], boot[s, 1], lvl),
                     _spread([r for r, _ in named[s][1]], run_point[own == s]))
        for s, name in enumerate(names))
    mi, ai = METRICS.index(metric), AVERAGES.index(average)
    out = []
    for a, b in pairs:
        d = float(point[a, ai, mi] - point[b, ai, mi])
        d_boot = boot[a, ai, mi] - boot[b, ai, mi]
        out.append(PairResult(names[a], names[b], Estimate(d, *quantiles(d_boot, lvl)),
                              p_value(d_boot, d, shifted=True), None))
    ones = None
    if zd == "warn":  # the scores that an undefined ratio's value changes: a note
        ones = _means(point_scores(CountTable.of_parts(parts), len(parts), 1.0), own)
    notes += comparison_notes(names, pairs, point, boot, {}, metric=metric, average=average,
                              bootstrap_p=True, n_units=n_units, unit=used_unit, ones=ones,
                              parts="labels or runs")
    result = Comparison(
        systems_out, adjusted_pairs(out), metric, average, "bootstrap", int(n_resamples), lvl,
        None if seed is None else int(seed), used_unit, n_units, match, dict(resolved), zd,
        tuple(notes), baseline)
    if len(pairs) > 1:
        notes.append(f"Holm–Bonferroni adjusted p-values over {result.family}.")
        result = dataclasses.replace(result, notes=tuple(notes))
    return result
