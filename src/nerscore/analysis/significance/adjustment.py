"""Multiple comparisons: the Holm–Bonferroni adjustment of a family of p-values.

Testing ``m`` pairs of systems at level ``α`` each rejects some true null
hypothesis with probability up to ``m·α``. Holm's step-down procedure (Holm
1979) controls that family-wise error rate at ``α`` and never rejects less
than Bonferroni's: with the p-values sorted ``p(1) ≤ … ≤ p(m)``, the
adjusted p-value of ``p(i)`` is

    max over j ≤ i of min(1, (m − j + 1) · p(j))

and a pair is significant at ``α`` when its adjusted p-value is ``≤ α``.
:func:`adjusted_pairs` adjusts the pairs of a comparison.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence

import numpy as np

from nerscore.analysis.significance.results import PairResult

__all__ = ["adjusted_pairs", "holm_bonferroni"]


def holm_bonferroni(p_values: Sequence[float]) -> list[float]:
    """Holm–Bonferroni adjusted p-values, in the order given.

    Parameters
    ----------
    p_values : sequence of float
        The family's p-values, each in [0, 1].

    Returns
    -------
    list of float
        One adjusted p-value per input: at least the input, at most 1, and
        in the same order as the inputs (ties keep equal values).

    Raises
    ------
    ValueError
        For a p-value outside [0, 1] or NaN.

    Examples
    --------
    >>> holm_bonferroni([0.01, 0.04, 0.03])
    [0.03, 0.06, 0.06]
    >>> holm_bonferroni([0.5])
    [0.5]
    """
    p = np.asarray(p_values, dtype=np.float64)
    if p.ndim != 1 or np.isnan(p).any() or (p < 0).any() or (p > 1).any():
        raise ValueError(f"Expected p-values in [0, 1]; got {list(p_values)!r}.")
    m = len(p)
    order = np.argsort(p, kind="stable")
    steps = np.minimum(1.0, (m - np.arange(m)) * p[order])
    adjusted = np.empty(m, dtype=np.float64)
    adjusted[order] = np.maximum.accumulate(steps)
    return [float(x) for x in adjusted]


def adjusted_pairs(pairs: list[PairResult]) -> tuple[PairResult, ...]:
    """The pairs with Holm–Bonferroni adjusted p-values over all of them (two or more).

    An undefined p-value (NaN) stays NaN, and counts in the family as a pair
    never rejected (``p = 1``): the others are adjusted for the whole family.
    """
    if len(pairs) < 2:
        return tuple(pairs)
    holm: dict[str, list[float | None]] = {}
    for test in ("p_bootstrap", "p_randomization"):
        values = [getattr(p, test) for p in pairs]
        if None in values:
            holm[test] = [None] * len(pairs)
            continue
        undefined = [math.isnan(v) for v in values]
        adjusted = holm_bonferroni([1.0 if u else v for u, v in zip(undefined, values,
                                                                     strict=True)])
        holm[test] = [math.nan if u else v for u, v in zip(undefined, adjusted, strict=True)]
    return tuple(
        dataclasses.replace(p, p_bootstrap_holm=holm["p_bootstrap"][i],
                            p_randomization_holm=holm["p_randomization"][i])
        for i, p in enumerate(pairs))
