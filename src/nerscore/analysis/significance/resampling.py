"""The resampling engine: random index matrices, resampled counts and their scores.

Nothing here runs a matcher. Every resample is a weighting of the per-unit
count arrays (``units x columns``):

- **bootstrap**: resample ``r`` draws ``n`` units with replacement,
  ``idx[r] = rng.integers(0, n, n)``; its counts are ``W[r] @ C`` where
  ``W[r, j]`` is how often unit ``j`` was drawn;
- **randomization**: resample ``r`` swaps the two systems' counts of unit
  ``j`` when ``S[r, j] = 1`` (a fair coin); system A's counts become
  ``A + S[r] @ (B - A)`` and B's ``B - S[r] @ (B - A)``.

The random matrices are drawn block by block (:func:`bootstrap_blocks`,
:func:`swap_blocks`), each block with one call of the generator; the block
size depends only on the number of units, so a seed gives the same
resamples on every machine. Scores of many resamples are computed at once
by :func:`prf_scores`, which follows :func:`nerscore.reduce_counts` operation
by operation (micro: sums then ratios; macro: the mean over labels with a
gold or predicted entity, skipping ``nan``).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np
import numpy.typing as npt

__all__ = [
    "AVERAGES",
    "METRICS",
    "bootstrap_blocks",
    "exact_dtype",
    "multiplicities",
    "prf_scores",
    "rngs",
    "swap_blocks",
]

IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]

#: The scores of every resample, in this order.
METRICS: tuple[str, ...] = ("precision", "recall", "f1")
#: The averages of every resample, in this order.
AVERAGES: tuple[str, ...] = ("micro", "macro")

# One block of random numbers holds at most this many values (32 MiB of float64
# weights); bincount works on sub-blocks of at most _SUB values, which stay in cache.
_BLOCK = 1 << 22
_SUB = 1 << 17


def rngs(seed: int | None) -> tuple[np.random.Generator, np.random.Generator]:
    """Independent generators for the bootstrap and the randomization test of one seed.

    The two streams are spawned from ``numpy.random.SeedSequence(seed)``, so the
    bootstrap's resamples do not depend on whether the randomization test runs.
    """
    boot, swap = np.random.SeedSequence(seed).spawn(2)
    return np.random.default_rng(boot), np.random.default_rng(swap)


def _rows_per_block(n_units: int) -> int:
    return max(1, _BLOCK // max(n_units, 1))


def bootstrap_blocks(
    rng: np.random.Generator, n_units: int, n_resamples: int
) -> Iterator[npt.NDArray[np.int32]]:
    """The bootstrap index matrix, block of rows by block of rows.

    Row ``r`` lists the ``n_units`` units drawn (with replacement) for
    resample ``r``. Blocks hold ``max(1, 2**22 // n_units)`` rows (the last
    one fewer), each drawn with one ``rng.integers(0, n_units, (rows,
    n_units), dtype=int32)`` call.

    Examples
    --------
    >>> boot, _ = rngs(0)
    >>> [b.shape for b in bootstrap_blocks(boot, 5, 3)]
    [(3, 5)]
    """
    step = _rows_per_block(n_units)
    for start in range(0, n_resamples, step):
        rows = min(step, n_resamples - start)
        yield rng.integers(0, n_units, size=(rows, n_units), dtype=np.int32)


def swap_blocks(
    rng: np.random.Generator, n_units: int, n_resamples: int
) -> Iterator[npt.NDArray[np.uint8]]:
    """The randomization test's swap matrix (0 or 1, each with probability 1/2), by blocks.

    Blocks are as in :func:`bootstrap_blocks`; each is one
    ``rng.integers(0, 2, (rows, n_units), dtype=uint8)`` call.

    Examples
    --------
    >>> _, swap = rngs(0)
    >>> sorted({int(v) for b in swap_blocks(swap, 50, 4) for v in b.ravel()})
    [0, 1]
    """
    step = _rows_per_block(n_units)
    for start in range(0, n_resamples, step):
        rows = min(step, n_resamples - start)
        yield rng.integers(0, 2, size=(rows, n_units), dtype=np.uint8)


def exact_dtype(values: FloatArray, n_units: int) -> type[np.floating[Any]]:
    """``float32`` when products with ``n_units``-long 0/1/count rows stay exact in it.

    That holds when every value is a whole number and ``max |value| * n_units <
    2**24`` (every partial sum of a resample is then a whole number below
    2**24); otherwise ``float64``. Matrix products in ``float32`` take half
    the time and memory, with the same (exact) results.

    Examples
    --------
    >>> exact_dtype(np.array([[1.0, 2.0]]), 1000).__name__, exact_dtype(np.array([[0.5]]), 10).__name__
    ('float32', 'float64')
    """
    big = float(np.abs(values).max(initial=0.0))
    if big * max(n_units, 1) < 2**24 and bool(np.all(values == np.round(values))):
        return np.float32
    return np.float64


def multiplicities(
    idx: npt.NDArray[np.integer[Any]], n_units: int,
    dtype: type[np.floating[Any]] = np.float64,
) -> npt.NDArray[np.floating[Any]]:
    """How often each unit is drawn in each row of ``idx``: a ``(rows, n_units)`` array.

    Examples
    --------
    >>> multiplicities(np.array([[0, 0, 2], [1, 2, 2]]), 3).tolist()
    [[2.0, 0.0, 1.0], [0.0, 1.0, 2.0]]
    """
    rows = idx.shape[0]
    out = np.empty((rows, n_units), dtype=dtype)
    sub = max(1, _SUB // max(n_units, 1))
    for a in range(0, rows, sub):
        b = min(rows, a + sub)
        shift = (np.arange(b - a, dtype=np.int64) * n_units)[:, None]
        flat = np.bincount((idx[a:b] + shift).ravel(), minlength=(b - a) * n_units)
        out[a:b] = flat.reshape(b - a, n_units)
    return out


def _ratio(num: FloatArray, den: FloatArray, fill: float) -> FloatArray:
    out = np.full(np.broadcast_shapes(num.shape, den.shape), fill, dtype=np.float64)
    np.divide(num, den, out=out, where=den != 0)
    return out


def _macro(values: FloatArray, present: npt.NDArray[np.bool_], fill: float) -> FloatArray:
    """Mean over the present labels of each row, skipping nan; ``fill`` where none is present."""
    keep = present & ~np.isnan(values)
    total = np.where(keep, values, 0.0).sum(axis=-1)
    n = keep.sum(axis=-1)
    out = np.full(total.shape, np.nan, dtype=np.float64)
    np.divide(total, n, out=out, where=n > 0)
    out[~present.any(axis=-1)] = fill
    return out


def prf_scores(
    tp: FloatArray, n_pred: FloatArray, n_gold: FloatArray, *, fill: float
) -> FloatArray:
    """Micro and macro precision, recall and F1 of many count rows at once.

    Parameters
    ----------
    tp, n_pred, n_gold : array of float, shape (rows, n_labels)
        Per-label counts of each row (a resample).
    fill : float
        The value of an undefined ratio (``zero_division``: 0.0, 1.0 or nan).

    Returns
    -------
    array of float, shape (2, 3, rows)
        ``[average, metric, row]`` in the order of :data:`AVERAGES` and
        :data:`METRICS`.

    Examples
    --------
    >>> tp = np.array([[1.0, 1.0, 0.0]]); n_pred = np.array([[1.0, 1.0, 1.0]])
    >>> n_gold = np.array([[2.0, 1.0, 0.0]])
    >>> prf_scores(tp, n_pred, n_gold, fill=0.0).round(4)[:, :, 0].tolist()
    [[0.6667, 0.6667, 0.6667], [0.6667, 0.5, 0.5556]]
    """
    out = np.empty((2, 3, tp.shape[0]), dtype=np.float64)
    t, p, g = tp.sum(axis=1), n_pred.sum(axis=1), n_gold.sum(axis=1)
    out[0, 0] = _ratio(t, p, fill)
    out[0, 1] = _ratio(t, g, fill)
    out[0, 2] = _ratio((1 + 1.0) * t, 1.0 * g + p, fill)
    present = (n_pred > 0) | (n_gold > 0)
    out[1, 0] = _macro(_ratio(tp, n_pred, fill), present, fill)
    out[1, 1] = _macro(_ratio(tp, n_gold, fill), present, fill)
    out[1, 2] = _macro(_ratio((1 + 1.0) * tp, 1.0 * n_gold + n_pred, fill), present, fill)
    return out
