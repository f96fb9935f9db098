"""Whether a system's entity scores mean what they say: reliability tables and ECE (docs/curves.md).

Scores in ``[0, 1]`` are put in ``bins`` equal-width bins (15 by default).
Bins are closed on the right, the first one on both sides: bin ``k`` of
``B`` holds the scores ``s`` with ``k/B < s <= (k+1)/B`` (and ``0`` goes to
the first), as scikit-learn's ``calibration_curve`` and the usual ECE code
bin them. For each bin:

- ``mean_score``: the mean score of its predictions (the confidence);
- ``accuracy``: the share of its predictions that are correct (true
  positives under score-ordered greedy matching of all predictions,
  :mod:`nerscore.analysis.ranking`); where pairs earn partial credit
  (``overlap``, SemEval ``partial``), the mean credit of its predictions.

The expected calibration error is ``ECE = Σ_b (n_b / N)·|accuracy_b −
mean_score_b|`` over the bins, and the maximum calibration error ``MCE =
max_b |accuracy_b − mean_score_b|`` over the bins that hold a prediction.
Calibration says nothing about gold entities no prediction found: that is
recall's business.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from nerscore.analysis.curves import scored_predictions
from nerscore.errors import InputTypeError, option_error
from nerscore.values.decoding import Decoding
from nerscore.values.schemes import Mode, Scheme

__all__ = ["Calibration", "CalibrationBin", "Reliability", "calibration", "reliability"]

FloatArray = npt.NDArray[np.float64]


@dataclass(frozen=True)
class CalibrationBin:
    """One score bin ``(lower, upper]``: its predictions, their mean score and the share correct.

    ``correct`` is the number of correct predictions (an int), or their
    summed credit (a float) where pairs earn partial credit.
    """

    lower: float
    upper: float
    count: int
    correct: float
    mean_score: float
    accuracy: float

    def to_dict(self) -> dict[str, Any]:
        """The bin as JSON-safe values (NaN, for an empty bin, as None)."""
        return {k: (None if isinstance(v, float) and v != v else v)
                for k, v in self.__dict__.items()}


@dataclass(frozen=True, eq=False)
class Reliability:
    """The reliability table of one set of predictions, and its calibration errors.

    Examples
    --------
    >>> r = reliability(np.array([0.9, 0.8, 0.3]), np.array([True, False, False]), bins=2)
    >>> [(b.count, b.mean_score, b.accuracy) for b in r.bins]
    [(1, 0.3, 0.0), (2, 0.8500000000000001, 0.5)]
    >>> round(r.ece, 4), round(r.mce, 4)
    (0.3333, 0.35)
    """

    bins: tuple[CalibrationBin, ...]
    n: int
    ece: float
    mce: float

    def to_dict(self) -> dict[str, Any]:
        """``{"n", "ece", "mce", "bins": [...]}`` (JSON-safe)."""
        return {"n": self.n, "ece": _nan_none(self.ece), "mce": _nan_none(self.mce),
                "bins": [b.to_dict() for b in self.bins]}


def _nan_none(x: float) -> float | None:
    return None if x != x else x


def reliability(score: FloatArray, correct: npt.NDArray[Any], *, bins: int = 15) -> Reliability:
    """The reliability table of scores in ``[0, 1]`` and whether each prediction is correct.

    ``correct`` is a bool per prediction, or its credit in ``[0, 1]``.
    Without predictions, ECE and MCE are NaN.
    """
    edges = np.linspace(0.0, 1.0, bins + 1)
    which = np.searchsorted(edges[1:-1], score, side="left")
    count = np.bincount(which, minlength=bins)
    hits = np.bincount(which, weights=correct.astype(np.float64), minlength=bins)
    whole = bool(np.all((correct == 0) | (correct == 1)))
    sums = np.bincount(which, weights=score, minlength=bins)
    out = []
    gaps = []
    for k in range(bins):
        n = int(count[k])
        mean = float(sums[k] / n) if n else float("nan")
        acc = float(hits[k] / n) if n else float("nan")
        hit = int(hits[k]) if whole else float(hits[k])
        out.append(CalibrationBin(float(edges[k]), float(edges[k + 1]), n, hit, mean, acc))
        if n:
            gaps.append((n, abs(acc - mean)))
    total = len(score)
    ece = sum(n * g for n, g in gaps) / total if total else float("nan")
    mce = max(g for _, g in gaps) if gaps else float("nan")
    return Reliability(tuple(out), total, float(ece), float(mce))


@dataclass(frozen=True, eq=False)
class Calibration:
    """Reliability tables of a scored system: over all predictions and per predicted label.

    Attributes
    ----------
    overall : Reliability
        Over every prediction.
    per_label : dict of str to Reliability
        Over the predictions of each label.
    bins : int
        The number of equal-width bins.
    match : str
        The matcher, and ``options`` its resolved options.
    """

    overall: Reliability
    per_label: Mapping[str, Reliability]
    bins: int
    match: str
    options: Mapping[str, Any] = field(default_factory=dict)

    @property
    def ece(self) -> float:
        """The expected calibration error over every prediction."""
        return self.overall.ece

    def to_dict(self) -> dict[str, Any]:
        """``{"match", "options", "bins", "overall", "labels"}`` (JSON-safe)."""
        return {"match": self.match, "options": dict(self.options), "bins": self.bins,
                "overall": self.overall.to_dict(),
                "labels": {k: v.to_dict() for k, v in self.per_label.items()}}


def _check_bins(bins: object) -> int:
    if isinstance(bins, (int, np.integer)) and not isinstance(bins, bool) and bins >= 1:
        return int(bins)
    raise option_error("bins", "a positive int", bins)


def calibration(
    y_true: object,
    y_pred: object,
    *,
    match: str = "exact",
    bins: int = 15,
    labels: Sequence[str] | None = None,
    scheme: str | Scheme | None = None,
    mode: str | Mode = "lenient",
    suffix: bool = False,
    delimiter: str = "-",
    outside: str = "O",
    **options: Any,
) -> Calibration:
    """Reliability table and expected calibration error of scored predictions (docs/curves.md).

    Parameters
    ----------
    y_true, y_pred : span documents
        Gold, and predictions with a score in ``[0, 1]`` each.
    match : {"exact", "threshold", "overlap", "semeval"}
        The matcher; a prediction is correct when score-ordered greedy
        matching makes it a true positive (``overlap`` and SemEval
        ``partial``: it counts its credit).
    bins : int
        The number of equal-width score bins (15).
    labels : list of str, optional
        Only these labels; ``per_label`` lists them in this order.
    scheme, mode, suffix, delimiter, outside : optional
        How tags would be decoded (span input is needed for scores).
    **options
        The matcher's options, ``discontinuous``, ``subset``, and the label
        operations ``labels_map``, ``keep``, ``drop`` (applied first).

    Returns
    -------
    Calibration

    Raises
    ------
    InputTypeError
        When a prediction has no score, or a score outside ``[0, 1]``.

    Examples
    --------
    >>> gold = {"d": [(0, 4, "PER"), (10, 16, "LOC")]}
    >>> pred = {"d": [(0, 4, "PER", 0.9), (10, 16, "PER", 0.8), (20, 22, "LOC", 0.2)]}
    >>> cal = calibration(gold, pred, bins=5)
    >>> [(b.lower, b.upper, b.count, b.accuracy) for b in cal.overall.bins if b.count]
    [(0.0, 0.2, 1, 0.0), (0.6000000000000001, 0.8, 1, 0.0), (0.8, 1.0, 1, 1.0)]
    >>> round(cal.ece, 4), cal.per_label["PER"].n
    (0.3667, 2)
    """
    n_bins = _check_bins(bins)
    decoding = Decoding(scheme, mode, suffix, delimiter, outside)
    ranked, resolved, _ = scored_predictions(y_true, y_pred, match=match, labels=labels,
                                             decoding=decoding, options=options)
    outside_range = (ranked.score < 0) | (ranked.score > 1)
    if outside_range.any():
        k = int(np.count_nonzero(outside_range))
        raise InputTypeError(
            f"Calibration needs scores in [0, 1] (probabilities); {k} of the "
            f"{len(ranked.score)} predictions are scored outside it (from "
            f"{float(ranked.score.min()):g} to {float(ranked.score.max()):g}). Map the scores "
            "to probabilities first (e.g. exp of a log-probability).")
    overall = reliability(ranked.score, ranked.credit, bins=n_bins)
    names = list(labels) if labels is not None else list(ranked.labels)
    index = {x: i for i, x in enumerate(ranked.labels)}
    per_label = {}
    for name in names:
        mine = ranked.label == index.get(name, -1)
        per_label[name] = reliability(ranked.score[mine], ranked.credit[mine], bins=n_bins)
    return Calibration(overall, per_label, n_bins, match, resolved)
