"""Comparing systems: bootstrap confidence intervals and paired significance tests.

See docs/significance.md for the definitions. In short, with ``R``
resamples of the ``n`` units (documents or sentences):

- a score's interval is the percentile bootstrap interval: the
  ``(1 - level) / 2`` and ``(1 + level) / 2`` quantiles (NumPy's default,
  linear interpolation) of the score over the ``R`` bootstrap resamples;
- the **paired bootstrap** resamples the same units for every system. With
  ``d`` the observed difference ``score(A) - score(B)`` and ``d*_r`` its value
  on resample ``r``, the p-value is the two-sided shifted-null test of
  Berg-Kirkpatrick et al. (2012): ``(1 + #{r : |d*_r - d| >= |d|}) / (1 + R)``;
- **approximate randomization** swaps the two systems' counts of each unit
  with probability 1/2; with ``d*_r`` the difference on permutation ``r``,
  the p-value is ``(1 + #{r : |d*_r| >= |d|}) / (1 + R)``.

Comparisons ``>=`` count values within ``1e-12`` of ``|d|`` as ties (so
that rounding cannot decide them). An interval or p-value that some
resample leaves undefined (``zero_division=nan``) is NaN, and a note says
why (:mod:`.notes`). No matcher runs per resample: every
resample is a weighting of the per-unit counts (:mod:`.resampling`), scored by
:mod:`.resampled_scores`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from nerscore.analysis.significance.adjustment import adjusted_pairs
from nerscore.analysis.significance.notes import comparison_notes
from nerscore.analysis.significance.resampled_scores import (
    CountTable,
    estimates,
    p_value,
    point_scores,
    quantiles,
    run_resamples,
)
from nerscore.analysis.significance.resampling import AVERAGES, METRICS, resampling_notes
from nerscore.analysis.significance.results import (
    Comparison,
    Estimate,
    PairResult,
    SystemScores,
)
from nerscore.analysis.significance.units import SequenceCounts, counts_of_run
from nerscore.errors import NerscoreError, OptionError, option_error
from nerscore.matching import get_matcher
from nerscore.scoring.counting import run_matcher
from nerscore.values.decoding import Decoding
from nerscore.values.ratios import check_zero_division
from nerscore.values.schemes import Mode, Scheme

__all__ = ["compare", "confidence_intervals"]

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]

METHODS: tuple[str, ...] = ("both", "bootstrap", "randomization")
UNITS: tuple[str, ...] = ("document", "sentence")


# --------------------------------------------------------------------------- checks


def check_choice(name: str, value: object, valid: Sequence[str]) -> str:
    if not isinstance(value, str) or value not in valid:
        raise option_error(name, "one of " + ", ".join(repr(v) for v in valid), value)
    return value


def check_settings(n_resamples: object, level: object, seed: object) -> None:
    if isinstance(n_resamples, bool) or not isinstance(n_resamples, (int, np.integer)) or (
        n_resamples < 1
    ):
        raise option_error("n_resamples", "a whole number >= 1", n_resamples)
    if isinstance(level, bool) or not isinstance(level, (int, float)) or not 0 < level < 1:
        raise option_error("level", "a number between 0 and 1 (exclusive)", level)
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, (int, np.integer))
                             or seed < 0):
        raise option_error("seed", "a whole number >= 0 or None", seed)


# --------------------------------------------------------------------------- units


def join_units(parts: list[SequenceCounts], names: list[str]) -> list[SequenceCounts]:
    """Put every system's rows in one order of units, with one label set."""
    labels = tuple(sorted(set().union(*(p.labels for p in parts))))
    parts = [p.select(labels) for p in parts]
    if all(p.ids is not None for p in parts):
        order: dict[str, int] = {}
        for p in parts:
            for i in p.ids or ():
                order.setdefault(i, len(order))
        out = []
        for p in parts:
            rows = np.array([order[i] for i in p.ids or ()], dtype=np.int64)
            out.append(_scatter(p, rows, len(order)))
        parts = out
    else:
        n = max(p.n_sequences for p in parts)
        parts = [_scatter(p, np.arange(p.n_sequences, dtype=np.int64), n) for p in parts]
    for p, name in zip(parts[1:], names[1:], strict=True):
        if not np.array_equal(p.n_gold, parts[0].n_gold):
            raise ValueError(
                f"System {name!r} sees other gold counts than {names[0]!r}; every system "
                "must be scored against the same gold data (same documents, in the same order "
                "or with the same ids)."
            )
    return parts


def _scatter(p: SequenceCounts, rows: npt.NDArray[np.int64], n: int) -> SequenceCounts:
    if len(rows) == n and bool((rows == np.arange(n)).all()):
        return p
    shape = (n, len(p.labels))
    tp, n_pred, n_gold = np.zeros(shape), np.zeros(shape, np.int64), np.zeros(shape, np.int64)
    tp[rows], n_pred[rows], n_gold[rows] = p.tp, p.n_pred, p.n_gold
    return SequenceCounts(p.labels, tp, n_pred, n_gold)


def _compare_counts(
    parts: list[SequenceCounts], names: list[str], pairs: list[tuple[int, int]], *,
    metric: str, average: str, method: str, n_resamples: int, level: float, seed: int | None,
    fill: float, unit: str, warn: bool = False,
    progress: Callable[[int, int], None] | None = None,
) -> tuple[tuple[SystemScores, ...], tuple[PairResult, ...], list[str]]:
    mi, ai = METRICS.index(metric), AVERAGES.index(average)
    point, boot, perm = run_resamples(parts, pairs, n_resamples=n_resamples, seed=seed, fill=fill,
                             metric=mi, average=ai,
                             randomization=method in ("randomization", "both"),
                             progress=progress)
    systems = tuple(
        SystemScores(name, estimates(point[s, 0], boot[s, 0], level),
                     estimates(point[s, 1], boot[s, 1], level))
        for s, name in enumerate(names)
    )
    out = []
    for a, b in pairs:
        d = float(point[a, ai, mi] - point[b, ai, mi])
        d_boot = boot[a, ai, mi] - boot[b, ai, mi]
        p_boot = p_perm = None
        if method in ("bootstrap", "both"):
            p_boot = p_value(d_boot, d, shifted=True)
        if (a, b) in perm:
            p_perm = p_value(perm[(a, b)], d, shifted=False)
        out.append(PairResult(names[a], names[b], Estimate(d, *quantiles(d_boot, level)),
                              p_boot, p_perm))
    # "warn": the scores that an undefined ratio's value changes are set to 0.0 (a note)
    ones = point_scores(CountTable.of_parts(parts), len(parts), 1.0) if warn else None
    notes = comparison_notes(names, pairs, point, boot, perm, metric=metric, average=average,
                             bootstrap_p=method in ("bootstrap", "both"),
                             n_units=parts[0].n_sequences, unit=unit, ones=ones)
    return systems, adjusted_pairs(out), notes


def compared_pairs(names: list[str], baseline: str | None) -> list[tuple[int, int]]:
    """Every pair ``(a, b)``, ``a`` first; or every system against ``baseline`` (as ``b``)."""
    if baseline is None:
        return [(a, b) for a in range(len(names)) for b in range(a + 1, len(names))]
    if baseline not in names:
        raise OptionError(
            f"Expected `baseline` to be the name of one of the systems "
            f"({', '.join(repr(n) for n in names)}); got {baseline!r}.", option="baseline")
    base = names.index(baseline)
    return [(a, base) for a in range(len(names)) if a != base]


def resample_units(
    parts: list[SequenceCounts], tags: bool, unit: str, documents: Sequence[int] | None,
    notes: list[str],
) -> tuple[list[SequenceCounts], str]:
    """The per-sequence counts grouped into the units resampled, and the unit used.

    Tag sequences are grouped into documents by ``documents`` (without it
    each sentence is a unit, and a note says so); span inputs are documents
    already, so ``unit="sentence"`` and ``documents`` are errors for them.
    """
    if not tags:
        if unit == "sentence":
            raise OptionError("unit='sentence' needs tag sequences; span inputs are resampled "
                              "by document (unit='document').", option="unit")
        if documents is not None:
            raise OptionError("`documents` groups the sentences of tag sequences; span inputs "
                              "are documents already.", option="documents")
        return parts, unit
    if unit == "document":
        if documents is None:
            notes.append("no document boundaries (`documents`, or -DOCSTART- lines of a CoNLL "
                         "file): each sentence is resampled as a unit.")
            return parts, "sentence"
        return [p.group(documents) for p in parts], unit
    return parts, unit


# --------------------------------------------------------------------------- API


def compare(
    y_true: object,
    systems: Mapping[str, object] | Sequence[object],
    *,
    match: str = "exact",
    scheme: str | Scheme | None = None,
    mode: str | Mode = "lenient",
    metric: str = "f1",
    average: str = "micro",
    method: str = "both",
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
    """Compare systems on one gold set: bootstrap intervals and paired significance tests.

    Every system is matched against gold once; the per-unit counts are then
    resampled (no matcher runs per resample). The systems share the bootstrap
    resamples (a paired bootstrap). With two or more pairs, each p-value also
    gets its Holm–Bonferroni adjustment over the family of pairs compared,
    and a note names the family.

    Parameters
    ----------
    y_true : tag sequences, EncodedTags, or span documents
        Gold, as for :func:`nerscore.evaluate`.
    systems : mapping of name to prediction, or a sequence of predictions
        The predictions (named ``"system 1"``, ``"system 2"``, ... when a
        sequence is given). A prediction may also be its per-unit counts, a
        :class:`SequenceCounts` (e.g. of model outputs:
        :func:`~nerscore.analysis.significance.llm_units.llm_sequence_counts`),
        paired with the others by document id.
    match : str
        The matcher (``"exact"``, ``"semeval"`` (strict schema),
        ``"overlap"``, ``"threshold"``, ``"token"``).
    scheme, mode, suffix, delimiter, outside : optional
        How tags are decoded; see :func:`nerscore.tags_to_entities`.
    metric : {"f1", "precision", "recall"}
        The score the pairs compare.
    average : {"micro", "macro"}
        Its average.
    method : {"both", "bootstrap", "randomization"}
        Which p-values: both tests' (default), the paired bootstrap's, or
        approximate randomization's. Intervals always come from the
        bootstrap.
    baseline : str, optional
        The name of one system: compare every other system with it
        (``score(system) - score(baseline)``) instead of every pair; the
        Holm–Bonferroni family is then these comparisons.
    n_resamples : int
        Resamples of each method (``R``).
    level : float
        Confidence level of the intervals, in (0, 1).
    seed : int or None
        Seed of the resamples (None: fresh randomness).
    unit : {"document", "sentence"}
        What is resampled. Span inputs are documents. Tag sequences are
        sentences; with ``unit="document"`` they are grouped into documents
        by ``documents``, and without it each sequence is its own unit (a
        note says so).
    documents : sequence of int, optional
        Index of the first sentence of each document (as
        :attr:`nerscore.io.conll.ConllCorpus.documents` gives for
        ``-DOCSTART-`` lines); sentences before the first one form a
        document of their own.
    zero_division : 0.0, 1.0, nan or "warn"
        Value of undefined ratios in every resample. ``"warn"`` is 0.0,
        without a warning per resample: a note names the scores it set to
        0.0, ill-defined on all the data, and the averages that count 0.0
        for some of their labels.
    progress : callable, optional
        Called as ``progress(done, total)`` after each block of resamples
        (bootstrap, then randomization); for progress bars.
    **options
        The matcher's options.

    Returns
    -------
    Comparison

    Raises
    ------
    OptionError
        For an invalid option, or a ``baseline`` that names no system.
    UnsplittableCountsError
        When the matcher's counts cannot be split by unit.
    NerscoreError
        What scoring a system raises for its predictions (a bad span, a
        missing score with ``min_score``, documents that do not pair), its
        message led by the system's name (``"B: ..."``).

    Examples
    --------
    >>> gold = [["B-PER", "O"], ["B-LOC", "O"], ["B-ORG", "I-ORG"], ["O", "B-PER"]] * 5
    >>> good = [["B-PER", "O"], ["B-LOC", "O"], ["B-ORG", "I-ORG"], ["O", "B-PER"]] * 5
    >>> poor = [["B-PER", "O"], ["O", "O"], ["B-ORG", "O"], ["O", "B-PER"]] * 5
    >>> res = compare(gold, {"good": good, "poor": poor}, n_resamples=200, unit="sentence")
    >>> round(res.system("poor").micro.f1.value, 4)
    0.5714
    >>> pair = res.pairs[0]
    >>> round(pair.difference.value, 4), pair.p_bootstrap < 0.01, pair.p_randomization < 0.01
    (0.4286, True, True)
    >>> three = compare(gold, {"good": good, "poor": poor, "same": good}, n_resamples=200,
    ...                 unit="sentence", baseline="poor")
    >>> [(p.a, p.b, p.p_randomization_holm < 0.05) for p in three.pairs]
    [('good', 'poor', True), ('same', 'poor', True)]
    >>> three.notes[-1]
    "Holm–Bonferroni adjusted p-values over the 2 comparisons of each system with the baseline 'poor'."
    """
    check_choice("metric", metric, METRICS)
    check_choice("average", average, AVERAGES)
    check_choice("method", method, METHODS)
    check_choice("unit", unit, UNITS)
    check_settings(n_resamples, level, seed)
    zd = check_zero_division(zero_division)
    fill = 0.0 if zd == "warn" else float(zd)
    if isinstance(systems, Mapping):
        named = [(str(k), v) for k, v in systems.items()]
    elif isinstance(systems, Sequence) and not isinstance(systems, (str, bytes)):
        named = [(f"system {i + 1}", v) for i, v in enumerate(systems)]
    else:
        raise OptionError("`systems` must be a mapping {name: prediction} or a sequence of "
                          "predictions.", option="systems")
    if not named:
        raise OptionError("`systems` is empty: give at least one prediction.", option="systems")
    decoding = Decoding(scheme, mode, suffix, delimiter, outside)
    matcher = get_matcher(match)
    parts, resolved, tags, ran = [], {}, False, False
    notes: list[str] = []
    for name, y_pred in named:
        if isinstance(y_pred, SequenceCounts):  # counted already (e.g. llm_sequence_counts)
            parts.append(y_pred)
            continue
        ran = True
        try:
            run = run_matcher(y_true, y_pred, match, decoding, options, align=matcher.aligns)
        except NerscoreError as exc:  # which of the systems: its name first, as in the notes
            exc.args = (f"{name}: {exc}", *exc.args[1:])
            raise
        resolved, tags = run.options, run.prep.tags is not None
        parts.append(counts_of_run(run, match))
        notes += [f"{name}: {n}" for n in run.prep.notes]  # joins, differing texts
        notes += [f"{name}: {n}" for n in run.tally_notes()]  # labels_map, drop
    names = [n for n, _ in named]
    pairs = compared_pairs(names, baseline)
    parts = join_units(parts, names)
    used_unit = unit
    if not ran:  # every system's per-unit counts given: `documents` groups their rows
        if documents is not None:
            parts = [p.group(documents) for p in parts]
        resolved = matcher.resolve({k: v for k, v in options.items() if k in matcher.defaults})
    else:
        parts, used_unit = resample_units(parts, tags, unit, documents, notes)
    n_units = parts[0].n_sequences
    if n_units == 0:
        raise ValueError("Nothing to resample: the input has no sentences or documents.")
    notes += resampling_notes(int(n_resamples), float(level), n_units, used_unit)
    systems_out, pair_results, flat = _compare_counts(
        parts, names, pairs, metric=metric, average=average, method=method,
        n_resamples=int(n_resamples), level=float(level), seed=None if seed is None else int(seed),
        fill=fill, unit=used_unit, warn=zd == "warn", progress=progress,
    )
    notes += flat
    result = Comparison(
        systems_out, pair_results, metric, average, method, int(n_resamples), float(level),
        None if seed is None else int(seed), used_unit, n_units, match, dict(resolved), zd,
        tuple(notes), baseline,
    )
    if len(pairs) > 1:
        notes.append(f"Holm–Bonferroni adjusted p-values over {result.family}.")
        result = dataclasses.replace(result, notes=tuple(notes))
    return result


def confidence_intervals(
    y_true: object,
    y_pred: object,
    *,
    match: str = "exact",
    scheme: str | Scheme | None = None,
    mode: str | Mode = "lenient",
    n_resamples: int = 1000,
    level: float = 0.95,
    seed: int | None = 0,
    unit: str = "document",
    documents: Sequence[int] | None = None,
    zero_division: Any = 0.0,
    progress: Callable[[int, int], None] | None = None,
    **options: Any,
) -> Comparison:
    """Percentile bootstrap intervals of one system's micro and macro precision, recall and F1.

    The same as :func:`compare` with one system (named ``"system"``): a
    :class:`Comparison` without pairs.

    Parameters
    ----------
    y_true, y_pred : tag sequences, EncodedTags, or span documents
        Gold and prediction.
    match : str
        The matcher.
    scheme, mode : optional
        How tags are decoded.
    n_resamples, level, seed, unit, documents, zero_division, progress : optional
        As for :func:`compare`.
    **options
        The matcher's options, and ``suffix``, ``delimiter``, ``outside``.

    Returns
    -------
    Comparison

    Examples
    --------
    >>> gold = [[(0, 4, "PER")], [(2, 6, "LOC")], [(0, 3, "ORG")]] * 10
    >>> pred = [[(0, 4, "PER")], [(2, 5, "LOC")], [(0, 3, "ORG")]] * 10
    >>> ci = confidence_intervals(gold, pred, n_resamples=300, seed=1).systems[0].micro.f1
    >>> round(ci.value, 4), ci.low <= ci.value <= ci.high
    (0.6667, True)
    """
    return compare(y_true, {"system": y_pred}, match=match, scheme=scheme, mode=mode,
                   method="bootstrap", n_resamples=n_resamples, level=level, seed=seed, unit=unit,
                   documents=documents, zero_division=zero_division, progress=progress,
                   **options)
