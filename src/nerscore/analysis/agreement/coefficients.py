r"""Chance-corrected agreement coefficients over per-unit categories (docs/agreement.md).

Every function takes integer categories (``0 .. k-1``) and returns ``nan``
when the coefficient is undefined (expected disagreement zero: every unit
in one category), never a number made up for the case.

- :func:`cohen_kappa`: two raters, :math:`\\kappa = (p_o - p_e) / (1 - p_e)`
  with :math:`p_e = \\sum_c p_{1c} p_{2c}` (Cohen 1960; what
  ``sklearn.metrics.cohen_kappa_score`` computes);
- :func:`fleiss_kappa`: ``n`` raters on every unit (Fleiss 1971; statsmodels'
  ``fleiss_kappa(..., method="fleiss")``);
- :func:`alpha_parts` and :func:`alpha_from_parts`: Krippendorff's alpha,
  nominal, with missing ratings (Krippendorff 2011): units with fewer than
  two ratings are not pairable and drop out.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

__all__ = ["alpha_from_parts", "alpha_parts", "category_counts", "cohen_from_confusion",
           "cohen_kappa", "fleiss_kappa"]

IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]


def cohen_kappa(a: IntArray, b: IntArray, k: int) -> float:
    """Cohen's kappa of two raters' categories (same units, ``0 <= category < k``).

    Examples
    --------
    >>> cohen_kappa(np.array([0, 1, 1, 0]), np.array([0, 1, 0, 0]), 2)
    0.5
    """
    if len(a) == 0:
        return float("nan")
    return cohen_from_confusion(np.bincount(a * k + b, minlength=k * k).reshape(k, k))


def cohen_from_confusion(confusion: npt.NDArray[np.int64]) -> float:
    """Cohen's kappa of a ``k x k`` confusion table of two raters (what sklearn computes).

    Examples
    --------
    >>> cohen_from_confusion(np.array([[2, 0], [1, 1]]))
    0.5
    """
    conf = confusion.astype(np.float64)
    n = conf.sum()
    if n == 0:
        return float("nan")
    k = conf.shape[0]
    expected = np.outer(conf.sum(axis=1), conf.sum(axis=0)) / n
    off = ~np.eye(k, dtype=bool)
    denominator = float(expected[off].sum())
    if denominator == 0:
        return float("nan")
    return 1.0 - float(conf[off].sum()) / denominator


def category_counts(categories: IntArray, rated: npt.NDArray[np.bool_], k: int) -> IntArray:
    """``(n_units, k)``: how many raters put each unit in each category.

    ``categories`` and ``rated`` have shape ``(n_raters, n_units)``; a unit
    a rater did not rate (``rated`` False) is not counted.
    """
    n_units = categories.shape[1]
    out = np.empty((n_units, k), dtype=np.int64)
    all_rated = bool(rated.all())
    for c in range(k):
        hit = categories == c
        out[:, c] = np.count_nonzero(hit if all_rated else hit & rated, axis=0)
    return out


def fleiss_kappa(table: IntArray) -> float:
    """Fleiss' kappa of a ``(n_units, k)`` count table with the same number of raters per unit.

    Examples
    --------
    >>> round(fleiss_kappa(np.array([[3, 0], [0, 3], [2, 1]])), 4)
    0.55
    """
    n_units = table.shape[0]
    if n_units == 0:
        return float("nan")
    n = int(table[0].sum())
    p_j = table.sum(axis=0).astype(np.float64) / (n_units * n)
    p_i = (_row_squares(table) - n) / (n * (n - 1))
    p_bar = float(p_i.mean())
    p_e = float((p_j * p_j).sum())
    if p_e == 1.0:
        return float("nan")
    return (p_bar - p_e) / (1.0 - p_e)


def _row_squares(table: IntArray) -> FloatArray:
    """``sum_c table[:, c] ** 2`` (column by column: fast for few columns)."""
    out = np.zeros(table.shape[0], dtype=np.float64)
    for c in range(table.shape[1]):
        col = table[:, c].astype(np.float64)
        out += col * col
    return out


def alpha_parts(table: IntArray) -> tuple[FloatArray, IntArray]:
    r"""Per unit, the observed disagreement and the pairable values of Krippendorff's alpha.

    Returns
    -------
    disagreement : array of float, shape (n_units,)
        :math:`(m_u^2 - \\sum_c n_{uc}^2) / (m_u - 1)` (0 for units with
        fewer than two ratings).
    values : array of int, shape (n_units, k)
        :math:`n_{uc}` of the pairable units (``m_u >= 2``), 0 elsewhere.
    """
    m = np.zeros(table.shape[0], dtype=np.int64)
    for c in range(table.shape[1]):
        m += table[:, c]
    pairable = m >= 2
    values = table if pairable.all() else np.where(pairable[:, None], table, 0)
    mf = m.astype(np.float64)
    num = mf * mf - _row_squares(values)
    dis = np.zeros(len(m), dtype=np.float64)
    dis[pairable] = num[pairable] / (mf[pairable] - 1.0)
    return dis, values


def alpha_from_parts(disagreement: float, n_c: FloatArray) -> float:
    r"""Krippendorff's alpha (nominal) from summed :func:`alpha_parts`.

    :math:`\\alpha = 1 - (n - 1) \\frac{\\sum_u D_u}{n^2 - \\sum_c n_c^2}`.

    Examples
    --------
    >>> dis, values = alpha_parts(np.array([[3, 0], [0, 3], [2, 1]]))
    >>> round(alpha_from_parts(float(dis.sum()), values.sum(axis=0).astype(float)), 4)
    0.6
    """
    n = float(n_c.sum())
    expected = n * n - float((n_c * n_c).sum())
    if expected == 0:
        return float("nan")
    return 1.0 - (n - 1.0) * disagreement / expected
