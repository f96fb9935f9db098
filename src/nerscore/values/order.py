"""Sorting rows by several integer columns at once.

:func:`numpy.lexsort` sorts by one column after another; on the short
columns of a batch (a few thousand error records or candidate pairs) that is
many passes. :func:`lexsort` gives the same order with one stable sort of
one packed key when the columns' value ranges multiply to less than
``2**62``, and falls back to :func:`numpy.lexsort` otherwise.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

__all__ = ["lexsort"]

IntArray = npt.NDArray[np.int64]


def lexsort(keys: Sequence[npt.NDArray[np.integer] | npt.NDArray[np.bool_]]) -> IntArray:
    """``np.lexsort(keys)``: the last key sorts first, ties keep their order.

    Parameters
    ----------
    keys : sequence of 1-D integer or bool arrays
        Columns of equal length, the least significant first (as for
        :func:`numpy.lexsort`).

    Returns
    -------
    array of int
        The stable order of the rows.

    Examples
    --------
    >>> import numpy as np
    >>> lexsort((np.array([1, 0, 0]), np.array([5, 5, -2]))).tolist()
    [2, 1, 0]
    >>> big = np.array([0, 2**40, 1])
    >>> lexsort((big, big, big)).tolist()
    [0, 2, 1]
    """
    n = len(keys[0]) if len(keys) else 0
    if n == 0:
        return np.zeros(0, dtype=np.int64)
    packed: IntArray | None = None
    size = 1
    for k in keys:
        k = np.asarray(k, dtype=np.int64)
        lo = int(k.min())
        span = int(k.max()) - lo + 1
        size *= span
        if size >= 2**62:
            return np.lexsort(keys).astype(np.int64)
        if span == 1:  # the same value in every row
            continue
        part = k - lo
        packed = part if packed is None else packed + part * (size // span)
    if packed is None:
        return np.arange(n, dtype=np.int64)
    return np.argsort(packed, kind="stable").astype(np.int64)
