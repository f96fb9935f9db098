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

from nerscore.errors import UndefinedMetricWarning, option_error, user_stacklevel

__all__ = ["ZeroDivision", "check_beta", "check_zero_division", "safe_divide"]

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
    """Validate ``beta`` (a positive number)."""
    if isinstance(beta, bool) or not isinstance(beta, (int, float)) or not beta > 0:
        raise option_error("beta", "a positive number", beta)
    return float(beta)


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
            shown = ", ".join(repr(b) for b in bad[:10]) + (" ..." if len(bad) > 10 else "")
            warnings.warn(
                f"{metric} is ill-defined and set to 0.0 for {shown} ({reason}). "
                "Pass `zero_division` (0.0, 1.0 or nan) to choose the value and silence "
                "this warning.",
                UndefinedMetricWarning,
                stacklevel=user_stacklevel(),
            )
    return out
