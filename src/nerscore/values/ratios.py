"""Ratios whose denominator may be zero: the ``zero_division`` policy, and ``beta``.

Every score nerscore reports is a ratio of counts; an undefined one (no
predicted, no gold entity) takes the value of ``zero_division``, with an
:class:`~nerscore.errors.UndefinedMetricWarning` naming the label when it is
``"warn"``.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from nerscore.errors import UndefinedMetricWarning, option_error, quoted, user_stacklevel

__all__ = ["ZeroDivision", "check_beta", "check_zero_division", "fbeta_terms", "safe_divide"]

FloatArray = npt.NDArray[np.float64]
#: ``"warn"``, or the value (0.0, 1.0, nan) an undefined ratio takes
ZeroDivision = str | float


def check_zero_division(value: object) -> ZeroDivision:
    """Validate ``zero_division`` ("warn", 0, 1 or nan)."""
    if isinstance(value, str) and value == "warn":
        return value
    if isinstance(value, (int, float)) and not isinstance(value, bool) and (
        value in (0, 1) or math.isnan(value)
    ):
        return float(value)
    raise option_error("zero_division", "one of 'warn', 0.0, 1.0 or nan", value)


def check_beta(beta: object) -> float:
    """Validate ``beta`` (a positive number, not infinite)."""
    if isinstance(beta, bool) or not isinstance(beta, (int, float)) or not 0 < beta < math.inf:
        raise option_error("beta", "a positive number", beta)
    return float(beta)


#: Beyond this beta, the terms of F-beta are divided by beta² (which would overflow).
_HUGE_BETA = 1e75


def fbeta_terms(
    tp: npt.ArrayLike, n_gold: npt.ArrayLike, n_pred: npt.ArrayLike, beta: float
) -> tuple[FloatArray, FloatArray]:
    """Numerator and denominator of ``F-beta = (1 + β²)·tp / (β²·n_gold + n_pred)``.

    Both are finite for every beta: beyond ``beta = 1e75`` they are divided
    by ``β²``, so F-beta tends to the recall as beta grows (and to the
    precision as it shrinks). The denominator is 0 only without gold and
    predicted entities.

    Examples
    --------
    >>> num, den = fbeta_terms([1], [4], [2], 1e300)
    >>> (num / den).tolist()  # the recall, 1 of 4
    [0.25]
    >>> [float((n / d)[0]) for n, d in (fbeta_terms([1], [4], [2], b) for b in (1.0, 1e-300))]
    [0.3333333333333333, 0.5]
    """
    tp_ = np.asarray(tp, dtype=np.float64)
    gold = np.asarray(n_gold, dtype=np.float64)
    pred = np.asarray(n_pred, dtype=np.float64)
    if beta <= _HUGE_BETA:
        b2 = beta * beta
        return (1 + b2) * tp_, b2 * gold + pred
    inv = (1 / beta) ** 2  # may be 0: the terms of the recall
    den = gold + inv * pred
    # predictions without gold: F-beta is 0 (tp is 0), not undefined
    return (1 + inv) * tp_, np.where((den == 0) & (pred > 0), 1.0, den)


def safe_divide(
    num: npt.ArrayLike,
    den: npt.ArrayLike,
    *,
    zero_division: ZeroDivision,
    metric: str,
    names: Sequence[str],
    reason: str,
) -> FloatArray:
    """``num / den``, with ``zero_division`` where ``den == 0`` (warning if "warn")."""
    n = np.asarray(num, dtype=np.float64)
    d = np.asarray(den, dtype=np.float64)
    undefined = d == 0
    out = np.divide(n, d, out=np.zeros_like(n), where=~undefined)
    if undefined.any():
        fill = 0.0 if zero_division == "warn" else float(zero_division)
        out[undefined] = fill
        if zero_division == "warn":
            bad = [names[int(i)] for i in np.flatnonzero(undefined)]
            shown = ", ".join(quoted(b) for b in bad[:10]) + (" ..." if len(bad) > 10 else "")
            warnings.warn(
                f"{metric} is ill-defined and set to 0.0 for {shown} ({reason}). "
                "Pass `zero_division` (0.0, 1.0 or nan) to choose the value and silence "
                "this warning.",
                UndefinedMetricWarning,
                stacklevel=user_stacklevel(),
            )
    return out
