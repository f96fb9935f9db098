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
that rounding cannot decide them). No matcher runs per resample: every
resample is a weighting of the per-unit counts (:mod:`.resampling`).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from nerscore.analysis.significance.resampling import (
    AVERAGES,
    METRICS,
    bootstrap_blocks,
    exact_dtype,
    multiplicities,
    prf_scores,
    rngs,
    swap_blocks,
)
from nerscore.analysis.significance.units import SequenceCounts, counts_of_run
from nerscore.errors import OptionError, option_error
from nerscore.matching import get_matcher
from nerscore.scoring.metrics import run_matcher
from nerscore.values.decoding import Decoding
from nerscore.values.ratios import check_zero_division
from nerscore.values.schemes import Mode, Scheme

__all__ = [
    "Comparison",
    "Estimate",
    "PairResult",
    "SystemScores",
    "compare",
    "confidence_intervals",
]

FloatArray = npt.NDArray[np.float64]

METHODS: tuple[str, ...] = ("bootstrap", "randomization", "both")
UNITS: tuple[str, ...] = ("document", "sentence")
#: Differences within this distance of the observed one count as ties.
TIE = 1e-12


@dataclass(frozen=True)
class Estimate:
    """A score with its percentile bootstrap interval ``[low, high]``."""

    value: float
    low: float
    high: float

    def to_dict(self) -> dict[str, float | None]:
        """``{"value", "low", "high"}``; NaN as None."""
        return {k: _json_float(getattr(self, k)) for k in ("value", "low", "high")}


@dataclass(frozen=True)
class PRFEstimates:
    """Precision, recall and F1 of one average, each with its interval."""

    precision: Estimate
    recall: Estimate
    f1: Estimate

    def to_dict(self) -> dict[str, dict[str, float | None]]:
        """``{metric: estimate}``."""
        return {m: getattr(self, m).to_dict() for m in METRICS}


@dataclass(frozen=True)
class SystemScores:
    """One system's micro and macro scores with bootstrap intervals."""

    name: str
    micro: PRFEstimates
    macro: PRFEstimates

    def get(self, metric: str, average: str = "micro") -> Estimate:
        """The estimate of ``metric`` (precision, recall, f1) under ``average`` (micro, macro)."""
        est: Estimate = getattr(getattr(self, average), metric)
        return est

    def to_dict(self) -> dict[str, Any]:
        """``{"name", "micro": {...}, "macro": {...}}``."""
        return {"name": self.name, "micro": self.micro.to_dict(), "macro": self.macro.to_dict()}


@dataclass(frozen=True)
class PairResult:
    """Two systems compared: the difference ``score(a) - score(b)`` and its p-values.

    ``difference`` carries the paired bootstrap interval of the difference;
    a p-value is None when its test was not run.
    """

    a: str
    b: str
    difference: Estimate
    p_bootstrap: float | None
    p_randomization: float | None

    def to_dict(self) -> dict[str, Any]:
        """``{"a", "b", "difference", "p_bootstrap", "p_randomization"}``."""
        return {"a": self.a, "b": self.b, "difference": self.difference.to_dict(),
                "p_bootstrap": self.p_bootstrap, "p_randomization": self.p_randomization}


@dataclass(frozen=True)
class Comparison:
    """The result of :func:`compare` (or of :func:`confidence_intervals`): data only.

    Attributes
    ----------
    systems : tuple of SystemScores
        Each system's scores and intervals, in the order given.
    pairs : tuple of PairResult
        Every pair ``(a, b)`` with ``a`` listed before ``b``.
    metric, average : str
        The score the pairs compare (e.g. ``"f1"``, ``"micro"``).
    method : str
        ``"bootstrap"``, ``"randomization"`` or ``"both"``: which p-values.
    n_resamples, level, seed : int, float, int or None
        Resampling settings (intervals are at ``level``).
    unit : str
        ``"document"`` or ``"sentence"``: what is resampled.
    n_units : int
        How many units there are.
    match : str
        The matcher; ``options`` its effective options.
    zero_division : float
        Value of undefined ratios in every resample.
    notes : tuple of str
        Anything the reader should know: each system's input notes (documents
        one side lacks, documents whose texts differ), prefixed with its name;
        units that fell back to sentences.
    """

    systems: tuple[SystemScores, ...]
    pairs: tuple[PairResult, ...]
    metric: str
    average: str
    method: str
    n_resamples: int
    level: float
    seed: int | None
    unit: str
    n_units: int
    match: str
    options: dict[str, Any] = field(default_factory=dict)
    zero_division: float = 0.0
    notes: tuple[str, ...] = ()

    def system(self, name: str) -> SystemScores:
        """The scores of the system called ``name``."""
        for s in self.systems:
            if s.name == name:
                return s
        raise KeyError(f"No system named {name!r}; the systems are "
                       f"{', '.join(repr(s.name) for s in self.systems)}.")

    def to_dict(self) -> dict[str, Any]:
        """A JSON-safe dict (NaN as None)."""
        return {
            "match": self.match, "options": dict(self.options), "metric": self.metric,
            "average": self.average, "method": self.method, "n_resamples": self.n_resamples,
            "level": self.level, "seed": self.seed, "unit": self.unit, "n_units": self.n_units,
            "zero_division": _json_float(self.zero_division),
            "systems": [s.to_dict() for s in self.systems],
            "pairs": [p.to_dict() for p in self.pairs],
            "notes": list(self.notes),
        }

    def to_json(self, *, indent: int | None = 2) -> str:
        """:meth:`to_dict` as JSON text."""
        return json.dumps(self.to_dict(), indent=indent, ensure_ascii=False)


def _json_float(x: float) -> float | None:
    return None if isinstance(x, float) and np.isnan(x) else x


# --------------------------------------------------------------------------- checks


def _check_choice(name: str, value: object, valid: Sequence[str]) -> str:
    if not isinstance(value, str) or value not in valid:
        raise option_error(name, "one of " + ", ".join(repr(v) for v in valid), value)
    return value


def _check_settings(n_resamples: object, level: object, seed: object) -> None:
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


def _join_units(parts: list[SequenceCounts], names: list[str]) -> list[SequenceCounts]:
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


# --------------------------------------------------------------------------- engine


def _quantiles(values: FloatArray, level: float) -> tuple[float, float]:
    lo, hi = np.quantile(values, [(1 - level) / 2, (1 + level) / 2])
    return float(lo), float(hi)


def _p_value(extreme: npt.NDArray[np.bool_]) -> float:
    return float((1 + int(extreme.sum())) / (1 + len(extreme)))


def _run(
    parts: list[SequenceCounts], *, n_resamples: int, seed: int | None, fill: float,
    metric: int, average: int, randomization: bool,
    progress: Callable[[int, int], None] | None = None,
) -> tuple[FloatArray, FloatArray, dict[tuple[int, int], FloatArray]]:
    """Point scores ``(k, 2, 3)``, bootstrap scores ``(k, 2, 3, R)``, randomization diffs."""
    total = n_resamples * (2 if randomization and len(parts) > 1 else 1)
    k = len(parts)
    n, n_lab = parts[0].n_sequences, len(parts[0].labels)
    n_gold = parts[0].n_gold.astype(np.float64)
    cols = [n_gold] + [a for p in parts for a in (p.tp, p.n_pred.astype(np.float64))]
    counts = np.ascontiguousarray(np.concatenate(cols, axis=1))
    totals = counts.sum(axis=0)

    def split(m: FloatArray, s: int) -> tuple[FloatArray, FloatArray, FloatArray]:
        base = n_lab * (1 + 2 * s)
        return m[:, base:base + n_lab], m[:, base + n_lab:base + 2 * n_lab], m[:, :n_lab]

    point = np.stack([prf_scores(*split(totals[None, :], s), fill=fill)[:, :, 0]
                      for s in range(k)])
    boot_rng, swap_rng = rngs(seed)
    boot = np.empty((k, 2, 3, n_resamples), dtype=np.float64)
    dtype = exact_dtype(counts, n)
    fast = counts.astype(dtype)
    done = 0
    for idx in bootstrap_blocks(boot_rng, n, n_resamples):
        m = (multiplicities(idx, n, dtype) @ fast).astype(np.float64)
        rows = slice(done, done + len(m))
        for s in range(k):
            boot[s, :, :, rows] = prf_scores(*split(m, s), fill=fill)
        done += len(m)
        if progress is not None:
            progress(done, total)
    perm: dict[tuple[int, int], FloatArray] = {}
    if randomization and k > 1:
        pairs = [(a, b) for a in range(k) for b in range(a + 1, k)]
        diffs = np.concatenate(
            [np.concatenate([parts[b].tp - parts[a].tp, parts[b].n_pred - parts[a].n_pred],
                            axis=1) for a, b in pairs], axis=1).astype(np.float64)
        for a, b in pairs:
            perm[(a, b)] = np.empty(n_resamples, dtype=np.float64)
        done = 0
        gold_tot = totals[:n_lab][None, :]
        dtype = exact_dtype(diffs, n)
        fast = diffs.astype(dtype)
        for swap in swap_blocks(swap_rng, n, n_resamples):
            shift = (swap.astype(dtype) @ fast).astype(np.float64)
            rows = slice(done, done + len(shift))
            for j, (a, b) in enumerate(pairs):
                d = shift[:, 2 * n_lab * j:2 * n_lab * (j + 1)]
                ta, pa, _ = split(totals[None, :], a)
                tb, pb, _ = split(totals[None, :], b)
                sa = prf_scores(ta + d[:, :n_lab], pa + d[:, n_lab:], gold_tot, fill=fill)
                sb = prf_scores(tb - d[:, :n_lab], pb - d[:, n_lab:], gold_tot, fill=fill)
                perm[(a, b)][rows] = sa[average, metric] - sb[average, metric]
            done += len(shift)
            if progress is not None:
                progress(n_resamples + done, total)
    return point, boot, perm


def _estimates(point: FloatArray, boot: FloatArray, level: float) -> PRFEstimates:
    est = [Estimate(float(point[i]), *_quantiles(boot[i], level)) for i in range(3)]
    return PRFEstimates(*est)


def _compare_counts(
    parts: list[SequenceCounts], names: list[str], *, metric: str, average: str, method: str,
    n_resamples: int, level: float, seed: int | None, fill: float,
    progress: Callable[[int, int], None] | None = None,
) -> tuple[tuple[SystemScores, ...], tuple[PairResult, ...]]:
    mi, ai = METRICS.index(metric), AVERAGES.index(average)
    point, boot, perm = _run(parts, n_resamples=n_resamples, seed=seed, fill=fill, metric=mi,
                             average=ai, randomization=method in ("randomization", "both"),
                             progress=progress)
    systems = tuple(
        SystemScores(name, _estimates(point[s, 0], boot[s, 0], level),
                     _estimates(point[s, 1], boot[s, 1], level))
        for s, name in enumerate(names)
    )
    pairs = []
    for a in range(len(parts)):
        for b in range(a + 1, len(parts)):
            d = float(point[a, ai, mi] - point[b, ai, mi])
            d_boot = boot[a, ai, mi] - boot[b, ai, mi]
            p_boot = p_perm = None
            if method in ("bootstrap", "both"):
                p_boot = _p_value(np.abs(d_boot - d) >= abs(d) - TIE)
            if (a, b) in perm:
                p_perm = _p_value(np.abs(perm[(a, b)]) >= abs(d) - TIE)
            pairs.append(PairResult(names[a], names[b],
                                    Estimate(d, *_quantiles(d_boot, level)), p_boot, p_perm))
    return systems, tuple(pairs)


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
    method: str = "bootstrap",
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
    resamples (a paired bootstrap).

    Parameters
    ----------
    y_true : tag sequences, EncodedTags, or span documents
        Gold, as for :func:`nerscore.evaluate`.
    systems : mapping of name to prediction, or a sequence of predictions
        The predictions (named ``"system 1"``, ``"system 2"``, ... when a
        sequence is given).
    match : str
        The matcher (``"exact"``, ``"semeval"`` (strict schema),
        ``"overlap"``, ``"threshold"``, ``"token"``).
    scheme, mode, suffix, delimiter, outside : optional
        How tags are decoded; see :func:`nerscore.tags_to_entities`.
    metric : {"f1", "precision", "recall"}
        The score the pairs compare.
    average : {"micro", "macro"}
        Its average.
    method : {"bootstrap", "randomization", "both"}
        Which p-values: the paired bootstrap's, approximate randomization's,
        or both. Intervals always come from the bootstrap.
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
        Value of undefined ratios in every resample (``"warn"`` is 0.0,
        without a warning per resample).
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
        For an invalid option.
    UnsplittableCountsError
        When the matcher's counts cannot be split by unit.

    Examples
    --------
    >>> gold = [["B-PER", "O"], ["B-LOC", "O"], ["B-ORG", "I-ORG"], ["O", "B-PER"]] * 5
    >>> good = [["B-PER", "O"], ["B-LOC", "O"], ["B-ORG", "I-ORG"], ["O", "B-PER"]] * 5
    >>> poor = [["B-PER", "O"], ["O", "O"], ["B-ORG", "O"], ["O", "B-PER"]] * 5
    >>> res = compare(gold, {"good": good, "poor": poor}, n_resamples=200, unit="sentence")
    >>> round(res.system("poor").micro.f1.value, 4)
    0.5714
    >>> pair = res.pairs[0]
    >>> round(pair.difference.value, 4), pair.p_bootstrap < 0.01
    (0.4286, True)
    """
    _check_choice("metric", metric, METRICS)
    _check_choice("average", average, AVERAGES)
    _check_choice("method", method, METHODS)
    _check_choice("unit", unit, UNITS)
    _check_settings(n_resamples, level, seed)
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
    parts, resolved, tags = [], {}, False
    notes: list[str] = []
    for name, y_pred in named:
        run = run_matcher(y_true, y_pred, match, decoding, options, align=matcher.aligns)
        resolved, tags = run.options, run.prep.tags is not None
        parts.append(counts_of_run(run, match))
        notes += [f"{name}: {n}" for n in run.prep.notes]  # joins, differing texts
    names = [n for n, _ in named]
    parts = _join_units(parts, names)
    used_unit = unit
    if not tags:
        if unit == "sentence":
            raise OptionError("unit='sentence' needs tag sequences; span inputs are resampled "
                              "by document (unit='document').", option="unit")
        if documents is not None:
            raise OptionError("`documents` groups the sentences of tag sequences; span inputs "
                              "are documents already.", option="documents")
    elif unit == "document":
        if documents is None:
            used_unit = "sentence"
            notes.append("no document boundaries (`documents`, or -DOCSTART- lines of a CoNLL "
                         "file): each sentence is resampled as a unit.")
        else:
            parts = [p.group(documents) for p in parts]
    n_units = parts[0].n_sequences
    if n_units == 0:
        raise ValueError("Nothing to resample: the input has no sentences or documents.")
    systems_out, pairs = _compare_counts(
        parts, names, metric=metric, average=average, method=method,
        n_resamples=int(n_resamples), level=float(level), seed=None if seed is None else int(seed),
        fill=fill, progress=progress,
    )
    return Comparison(
        systems_out, pairs, metric, average, method, int(n_resamples), float(level),
        None if seed is None else int(seed), used_unit, n_units, match, dict(resolved), fill,
        tuple(notes),
    )


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
                   n_resamples=n_resamples, level=level, seed=seed, unit=unit,
                   documents=documents, zero_division=zero_division, progress=progress,
                   **options)
