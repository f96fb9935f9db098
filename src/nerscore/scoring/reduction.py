"""The one place where counts are divided into scores (docs/reduction.md)."""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from nerscore.errors import (
    InputTypeError,
    OptionError,
    UnknownLabelWarning,
    closest,
    option_error,
    user_stacklevel,
)
from nerscore.values.counts import Counts
from nerscore.values.options import OptionEnum
from nerscore.values.ratios import (
    ZeroDivision,
    check_beta,
    check_zero_division,
    fbeta_terms,
    safe_divide,
)

__all__ = ["PRF", "Average", "check_labels", "parse_average", "reduce_all", "select_labels"]

FloatArray = npt.NDArray[np.float64]


class Average(OptionEnum):
    """How per-label scores are combined (``None`` keeps them per label)."""

    MICRO = "micro"
    MACRO = "macro"
    WEIGHTED = "weighted"


def parse_average(average: object) -> Average | None:
    """Check an ``average`` option: one of the :class:`Average` values or None.

    Examples
    --------
    >>> parse_average("MACRO"), parse_average(None)
    (<Average.MACRO: 'macro'>, None)
    >>> parse_average("mirco")
    Traceback (most recent call last):
    ...
    nerscore.errors.OptionError: Expected `average` to be one of 'micro', 'macro', 'weighted' or None; got 'mirco'.
    """
    if average is None:
        return None
    try:
        return Average.parse(average)
    except OptionError:
        valid = ", ".join(repr(m.value) for m in Average)
        raise option_error("average", f"one of {valid} or None", average) from None


def check_labels(labels: object) -> Sequence[str] | None:
    """Check a ``labels`` option: None or a sequence of label names (not one string).

    Examples
    --------
    >>> check_labels("PER")
    Traceback (most recent call last):
    ...
    nerscore.errors.OptionError: Expected `labels` to be a list of label names (str), such as ['PER']; got 'PER'.
    """
    if labels is None:
        return None
    if (isinstance(labels, str) or not isinstance(labels, Sequence)
            or not all(isinstance(lab, str) for lab in labels)):
        example = [labels] if isinstance(labels, str) else ["PER"]
        raise option_error("labels", f"a list of label names (str), such as {example!r}", labels)
    return labels


def select_labels(counts: Counts, labels: Sequence[str] | None) -> Counts:
    """The counts of ``labels`` in that order; by default the labels with an entity.

    A label of ``labels`` with no gold and no predicted entity is kept (its
    scores take the ``zero_division`` value) with an
    :class:`~nerscore.errors.UnknownLabelWarning` that names it, suggests a
    close label name and lists the labels with entities.

    Examples
    --------
    >>> c = Counts.from_dict({"LOC": (1, 1, 1), "PER": (0, 1, 2)})
    >>> select_labels(c, ["PER"]).labels
    ('PER',)
    >>> import warnings
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     select_labels(c, ["PRE", "LOC"]).labels
    ('PRE', 'LOC')
    >>> print(caught[0].message)
    `labels` names 'PRE' (did you mean 'PER'?), which has no gold and no predicted entity: its scores are the zero_division value. The labels with entities are 'LOC', 'PER'.
    """
    present = counts.present()
    asked = check_labels(labels)
    if asked is None:
        return present
    missing = [lab for lab in dict.fromkeys(asked) if lab not in present.labels]
    if missing:
        named = []
        for lab in missing:
            close = closest(lab, present.labels)
            named.append(f"{lab!r} (did you mean {close!r}?)" if close else repr(lab))
        what = ("which has" if len(missing) == 1 else "which have") + " no gold and no predicted "
        what += "entity: its scores are" if len(missing) == 1 else "entity: their scores are"
        existing = (f"The labels with entities are {', '.join(map(repr, present.labels))}."
                    if present.labels else "No label has an entity.")
        warnings.warn(
            f"`labels` names {', '.join(named)}, {what} the zero_division value. {existing}",
            UnknownLabelWarning,
            stacklevel=user_stacklevel(),
        )
    return counts.select(asked)


@dataclass(frozen=True)
class PRF:
    """Precision, recall and F-beta with the counts behind them (plain Python numbers)."""

    precision: float
    recall: float
    fbeta: float
    tp: float
    n_pred: int
    n_gold: int


def _prf(
    tp: FloatArray, n_pred: FloatArray, n_gold: FloatArray, names: Sequence[str], beta: float,
    zero_division: ZeroDivision,
) -> tuple[FloatArray, FloatArray, FloatArray]:
    p = safe_divide(tp, n_pred, zero_division=zero_division, metric="Precision", names=names,
                    reason="no predicted entities")
    r = safe_divide(tp, n_gold, zero_division=zero_division, metric="Recall", names=names,
                    reason="no gold entities")
    num, den = fbeta_terms(tp, n_gold, n_pred, beta)
    f = safe_divide(num, den, zero_division=zero_division,
                    metric="F-score", names=names, reason="no gold and no predicted entities")
    return p, r, f


def _mean(values: FloatArray, weights: FloatArray | None = None) -> float:
    keep = ~np.isnan(values)
    if not keep.any():
        return float("nan")
    if weights is None:
        return float(values[keep].mean())
    return float(np.average(values[keep], weights=weights[keep]))


def reduce_all(
    counts: Counts,
    *,
    beta: float = 1.0,
    zero_division: ZeroDivision = "warn",
    labels: Sequence[str] | None = None,
) -> tuple[dict[str, PRF], dict[str, PRF]]:
    """Per-label scores and the three averages, warning once per undefined ratio.

    Returns ``(per_label, averages)`` where ``averages`` has the keys
    ``"micro"``, ``"macro"`` and ``"weighted"``. Labels default to those with
    a gold or predicted entity; macro and weighted means skip ``nan`` values.
    """
    sel = select_labels(counts, labels)
    names = list(sel.labels)
    tp = np.asarray(sel.tp, dtype=np.float64)
    n_pred = sel.n_pred.astype(np.float64)
    n_gold = sel.n_gold.astype(np.float64)
    p, r, f = _prf(tp, n_pred, n_gold, names, beta, zero_division)
    per_label = {
        lab: PRF(float(p[i]), float(r[i]), float(f[i]), _num(tp[i]), int(n_pred[i]),
                 int(n_gold[i]))
        for i, lab in enumerate(names)
    }
    tot = (np.array([tp.sum()]), np.array([n_pred.sum()]), np.array([n_gold.sum()]))
    mp, mr, mf = _prf(*tot, ["micro average"], beta, zero_division)
    totals = (_num(tot[0][0]), int(tot[1][0]), int(tot[2][0]))
    averages = {"micro": PRF(float(mp[0]), float(mr[0]), float(mf[0]), *totals)}
    if names:
        averages["macro"] = PRF(_mean(p), _mean(r), _mean(f), *totals)
    else:
        fill = _empty_fill(zero_division, "macro average")
        averages["macro"] = PRF(fill, fill, fill, *totals)
    if n_gold.sum() > 0:
        averages["weighted"] = PRF(
            _mean(p, n_gold), _mean(r, n_gold), _mean(f, n_gold), *totals
        )
    else:
        fill = _empty_fill(zero_division, "weighted average")
        averages["weighted"] = PRF(fill, fill, fill, *totals)
    return per_label, averages


def _empty_fill(zero_division: ZeroDivision, name: str) -> float:
    return float(safe_divide([0.0], [0.0], zero_division=zero_division, metric="The score",
                             names=[name], reason="no gold entities to weight or average")[0])


def _num(x: float) -> float:
    """A count as an int when it is whole (exact counts stay integers)."""
    v = float(x)
    return int(v) if v.is_integer() else v


@dataclass(frozen=True)
class Scores:
    """Precision, recall, F-beta and support, averaged or per label.

    With ``average=None`` every field is a ``{label: value}`` dict; otherwise
    a plain number (``support`` is the number of gold entities).
    """

    precision: float | dict[str, float]
    recall: float | dict[str, float]
    fbeta: float | dict[str, float]
    support: int | dict[str, int]


def reduce_counts(
    counts: Counts,
    *,
    beta: float = 1.0,
    average: str | Average | None = "micro",
    zero_division: ZeroDivision = "warn",
    labels: Sequence[str] | None = None,
) -> Scores:
    """Turn counts into scores: the one reduction every scorer uses.

    Parameters
    ----------
    counts : Counts
        From :func:`nerscore.count_matches` (or summed over batches).
    beta : float
        Weight of recall in F-beta.
    average : {"micro", "macro", "weighted"} or None
        ``micro`` sums counts over labels; ``macro`` is the unweighted mean
        over labels with a gold or predicted entity; ``weighted`` weights by
        gold support; ``None`` returns per-label dicts.
    zero_division : "warn", 0.0, 1.0 or nan
        Value of a ratio with a zero denominator; ``"warn"`` gives 0.0 and an
        :class:`~nerscore.UndefinedMetricWarning` naming the label.
    labels : list of str, optional
        Labels to report and average over, in this order. A label with no
        gold and no predicted entity warns (:class:`~nerscore.UnknownLabelWarning`).

    Returns
    -------
    Scores

    Notes
    -----
    ``P = tp / n_pred``, ``R = tp / n_gold``,
    ``F_beta = (1 + beta^2) tp / (beta^2 n_gold + n_pred)``.

    Examples
    --------
    >>> c = Counts.from_dict({"A": (1, 2, 2), "B": (1, 1, 1), "C": (0, 1, 0)})
    >>> s = reduce_counts(c, average="macro", zero_division=0.0)
    >>> round(s.precision, 4), round(s.recall, 4), round(s.fbeta, 4)
    (0.5, 0.5, 0.5)
    """
    if not isinstance(counts, Counts):
        raise InputTypeError(
            f"Expected `counts` to be Counts (from nerscore.count_matches or "
            f"Counts.from_dict); got {type(counts).__name__}.")
    beta = check_beta(beta)
    zero_division = check_zero_division(zero_division)
    avg = parse_average(average)
    sel = select_labels(counts, labels)
    names = list(sel.labels)
    tp = np.asarray(sel.tp, dtype=np.float64)
    n_pred = sel.n_pred.astype(np.float64)
    n_gold = sel.n_gold.astype(np.float64)
    if avg is Average.MICRO:
        p, r, f = _prf(np.array([tp.sum()]), np.array([n_pred.sum()]), np.array([n_gold.sum()]),
                       ["micro average"], beta, zero_division)
        return Scores(float(p[0]), float(r[0]), float(f[0]), int(n_gold.sum()))
    if avg is not None and (not names or (avg is Average.WEIGHTED and n_gold.sum() == 0)):
        fill = _empty_fill(zero_division, f"{avg.value} average")
        return Scores(fill, fill, fill, int(n_gold.sum()))
    p, r, f = _prf(tp, n_pred, n_gold, names, beta, zero_division)
    if avg is None:
        return Scores(
            dict(zip(names, p.tolist(), strict=False)), dict(zip(names, r.tolist(), strict=False)),
            dict(zip(names, f.tolist(), strict=False)), dict(zip(names, n_gold.astype(int).tolist(), strict=False)),
        )
    w = n_gold if avg is Average.WEIGHTED else None
    return Scores(_mean(p, w), _mean(r, w), _mean(f, w), int(n_gold.sum()))
