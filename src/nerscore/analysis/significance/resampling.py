"""The resampling engine: resample weights, resampled counts and their scores.

Nothing here runs a matcher. Every resample is a weighting of the per-unit
count arrays (``units x columns``; the columns hold every system's counts):

- **bootstrap**: resample ``r`` draws ``n`` units with replacement; its counts
  are ``W[r] @ C`` where ``W[r, j]`` is how often unit ``j`` was drawn.
  Units whose rows of ``C`` are identical (the same counts in every column,
  e.g. sentences without an entity) are interchangeable, so only how often
  each *class* of identical units was drawn matters; a class of ``m`` units
  is drawn ``Multinomial(n, m / n)`` times. :func:`bootstrap_plan` finds the
  classes and :func:`bootstrap_weights` draws the weights (see there for the
  stream of random numbers);
- **randomization**: resample ``r`` swaps the two systems' counts of unit
  ``j`` when ``S[r, j] = 1`` (a fair coin); system A's counts become
  ``A + S[r] @ (B - A)`` and B's ``B - S[r] @ (B - A)``. Only units where
  ``B - A`` is not zero need a coin (swapping the others changes nothing).

The random numbers are drawn block by block (:func:`bootstrap_weights`,
:func:`swap_blocks`), each block with one call of the generator per kind of
draw; the block size depends only on the number of units, so a seed gives the
same resamples on every machine. Scores of many resamples are computed at once
by :func:`prf_scores`, which follows :func:`nerscore.reduce_counts` operation
by operation (micro: sums then ratios; macro: the mean over labels with a
gold or predicted entity, skipping ``nan``).
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

__all__ = [
    "AVERAGES",
    "METRICS",
    "BootstrapPlan",
    "bootstrap_plan",
    "bootstrap_weights",
    "collapsed_notes",
    "exact_dtype",
    "identical_rows",
    "named",
    "prf_scores",
    "resampling_notes",
    "rngs",
    "single_value",
    "swap_blocks",
]

IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]

#: The scores of every resample, in this order.
METRICS: tuple[str, ...] = ("precision", "recall", "f1")
#: The averages of every resample, in this order.
AVERAGES: tuple[str, ...] = ("micro", "macro")

# One block of resamples holds at most this many draws of units (or coins).
_BLOCK = 1 << 22
#: A class of at least this many identical units is drawn as a whole (one binomial
#: draw per resample instead of one draw per unit).
WHOLE_CLASS = 24
#: Fewer units than this make bootstrap intervals and p-values unreliable (a note says so).
FEW_UNITS = 10
#: Resampled values this close together are one value (rounding): :func:`single_value`.
SAME = 1e-12
#: The note on intervals of zero width names at most this many scores.
NAMED = 4
# Multiplier of the row hash (an odd 64-bit constant: the golden ratio's bits).
_HASH = np.uint64(0x9E3779B97F4A7C15)


def rngs(seed: int | None) -> tuple[np.random.Generator, np.random.Generator]:
    """Independent generators for the bootstrap and the randomization test of one seed.

    The two streams are spawned from ``numpy.random.SeedSequence(seed)``, so the
    bootstrap's resamples do not depend on whether the randomization test runs.
    """
    boot, swap = np.random.SeedSequence(seed).spawn(2)
    return np.random.default_rng(boot), np.random.default_rng(swap)


def resampling_notes(n_resamples: int, level: float, n_units: int, unit: str,
                     what: str = "bootstrap intervals and p-values") -> list[str]:
    """Notes on what these resamples cannot tell: too few resamples, too few units.

    A percentile interval at ``level`` needs ``R × (1 − level) / 2 ≥ 1``
    (some resample beyond each end); below :data:`FEW_UNITS` units the
    bootstrap takes few distinct values and understates the spread
    (docs/significance.md); with one unit every resample is that unit.
    ``what`` names what the resamples give.

    Examples
    --------
    >>> resampling_notes(1000, 0.95, 50, "document")
    []
    >>> for n in resampling_notes(1, 0.95, 2, "document"):
    ...     print(n)
    1 resample is too few for 95% intervals: they need at least 40 (resamples × (1 − level)/2 ≥ 1, so that some resample lies beyond each end); with fewer, an interval is not meaningful and need not contain the score.
    only 2 documents are resampled: with fewer than 10 documents, bootstrap intervals and p-values are unreliable (the resamples take few distinct values and understate the spread).
    >>> print(resampling_notes(1000, 0.95, 1, "document", "bootstrap intervals")[0])
    only 1 document is resampled: with fewer than 10 documents, bootstrap intervals are unreliable (every resample is that document, so an interval is the estimate itself).
    """
    notes = []
    needed = math.ceil(2 / (1 - level) - 1e-9)
    if n_resamples < needed:
        few = "1 resample is" if n_resamples == 1 else f"{n_resamples} resamples are"
        notes.append(f"{few} too few for {level * 100:g}% intervals: they need at least "
                     f"{needed} (resamples × (1 − level)/2 ≥ 1, so that some resample lies "
                     "beyond each end); with fewer, an interval is not meaningful and need not "
                     "contain the score.")
    if n_units < FEW_UNITS:
        drawn = f"1 {unit} is" if n_units == 1 else f"{n_units} {unit}s are"
        why = (f"every resample is that {unit}, so an interval is the estimate itself"
               if n_units == 1 else "the resamples take few distinct values and understate "
               "the spread")
        notes.append(f"only {drawn} resampled: with fewer than {FEW_UNITS} {unit}s, {what} "
                     f"are unreliable ({why}).")
    return notes


def single_value(values: FloatArray) -> bool:
    """Whether the defined values of ``values`` take one value (within :data:`SAME`).

    NaN (an undefined score) is no value: it never makes two values distinct.

    Examples
    --------
    >>> single_value(np.array([0.5, 0.5, np.nan])), single_value(np.array([0.5, 0.25]))
    (True, False)
    >>> single_value(np.array([np.nan, np.nan]))
    False
    """
    defined = values[~np.isnan(values)]
    return bool(defined.size) and float(defined.max()) - float(defined.min()) <= SAME


def named(names: Sequence[str]) -> str:
    """``names`` as a note lists them: the first :data:`NAMED`, then how many more.

    Examples
    --------
    >>> named(["A"]), named(["A", "B", "C"]), named(list("ABCDEF"))
    ('A', 'A, B and C', 'A, B, C, D and 2 more')
    """
    if len(names) == 1:
        return names[0]
    last = f"{len(names) - NAMED} more" if len(names) > NAMED else names[-1]
    return f"{', '.join(names[:NAMED] if len(names) > NAMED else names[:-1])} and {last}"


def collapsed_notes(resampled: Mapping[str, FloatArray], n_units: int, unit: str,
                    alike: str = "a system right on every {unit}, or two systems that agree "
                                  "on every one") -> list[str]:
    """One note naming the scores whose resamples all take one value (:func:`single_value`).

    The percentile interval of such a score has zero width (``[0.50, 0.50]``)
    whatever the level: every resampled unit contributes alike to it, and the
    interval says nothing about its uncertainty. Below :data:`FEW_UNITS`
    units there is no such note: :func:`resampling_notes` says that the
    resamples take few distinct values (one, with one unit); nor with one
    resample, which :func:`resampling_notes` calls too few.

    Parameters
    ----------
    resampled : mapping of str to array of float
        Each score whose interval is reported, by the name the note gives it,
        to its values on the resamples (every array as long).
    n_units : int
        Units resampled.
    unit : str
        What is resampled (``"document"``, ``"sentence"``).
    alike : str
        Examples of units that contribute alike (``{unit}`` is replaced).

    Returns
    -------
    list of str
        No note, or one naming the first :data:`NAMED` scores and how many
        more. When some of their resamples leave a score undefined (NaN), the
        note speaks of the resamples that define the scores.

    Examples
    --------
    >>> flat = np.full(1000, 0.5)
    >>> scores = {"A micro P": flat, "A micro R": flat + np.arange(1000)}
    >>> print(collapsed_notes(scores, 50, "document")[0])
    the bootstrap interval of A micro P has zero width: all 1000 resamples gave the same value, as every document contributes alike to it (e.g. a system right on every document, or two systems that agree on every one); an interval of zero width says nothing about its uncertainty.
    >>> half = np.where(np.arange(1000) % 2 == 0, 0.5, np.nan)  # undefined is no other value
    >>> print(collapsed_notes(dict.fromkeys("PQRST", half), 50, "document")[0])
    5 scores take one value (P, Q, R, S and 1 more) on every bootstrap resample that defines them (some of the 1000 resamples leave them undefined), as every document contributes alike to them (e.g. few documents hold entities); an interval of zero width would say nothing about their uncertainty.
    >>> for note in collapsed_notes({"P": half, "R": flat}, 50, "document"):  # one note each
    ...     print(note[:60])
    the bootstrap interval of R has zero width: all 1000 resampl
    P takes one value on every bootstrap resample that defines i
    >>> collapsed_notes({"P": flat[:1]}, 50, "document")  # one resample: no contributions compared
    []
    """
    if n_units < FEW_UNITS or len(next(iter(resampled.values()), ())) < 2:
        return []  # one resample gives every score one value: the too-few note says it
    flat = [name for name, values in resampled.items() if single_value(values)]
    if not flat:
        return []
    n = len(resampled[flat[0]])
    partly = [name for name in flat if np.isnan(resampled[name]).any()]
    whole = [name for name in flat if name not in partly]
    notes = []
    if whole:
        one = len(whole) == 1
        it, its = ("it", "its") if one else ("them", "their")
        head = (f"the bootstrap interval of {named(whole)} has zero width" if one else
                f"{len(whole)} bootstrap intervals have zero width ({named(whole)})")
        notes.append(f"{head}: all {n} resample{'' if n == 1 else 's'} gave the same value"
                     f"{'' if one else ' of each'}, as every {unit} contributes alike to {it} "
                     f"(e.g. {alike.format(unit=unit)}); an interval of zero width says nothing "
                     f"about {its} uncertainty.")
    if partly:
        one = len(partly) == 1
        it, its = ("it", "its") if one else ("them", "their")
        head = (f"{named(partly)} takes one value" if one else
                f"{len(partly)} scores take one value ({named(partly)})")
        notes.append(f"{head} on every bootstrap resample that defines {it} (some of the {n} "
                     f"resamples leave {it} undefined), as every {unit} contributes alike to "
                     f"{it} (e.g. few {unit}s hold entities); an interval of zero width would "
                     f"say nothing about {its} uncertainty.")
    return notes


def _rows_per_block(n_units: int) -> int:
    return max(1, _BLOCK // max(n_units, 1))


def _exactly(values: FloatArray, dtype: type[np.integer[Any]]) -> npt.NDArray[Any] | None:
    """``values`` cast to the integer ``dtype`` when that is exact (whole numbers in range)."""
    if values.size:
        info = np.iinfo(dtype)
        lo, hi = float(values.min()), float(values.max())
        if not info.min <= lo <= hi <= info.max:  # also false for nan
            return None
    small = values.astype(dtype)
    return small if np.array_equal(small, values) else None


def _row_words(blocks: Sequence[npt.NDArray[Any]]) -> npt.NDArray[np.uint64]:
    """The rows of the blocks side by side as 64-bit words, exactly (equal rows, equal words)."""
    dtype: type[np.generic] = np.float64
    for small in (np.uint8, np.uint16):
        if all(_exactly(b, small) is not None for b in blocks):
            dtype = small
            break
    n, cols = blocks[0].shape[0], sum(b.shape[1] for b in blocks)
    per_word = 8 // np.dtype(dtype).itemsize
    packed = np.zeros((n, -(-cols // per_word) * per_word), dtype=dtype)
    at = 0
    for b in blocks:
        packed[:, at:at + b.shape[1]] = b if dtype is not np.float64 else b + 0.0  # -0.0 as 0.0
        at += b.shape[1]
    return packed.view(np.uint64)


def identical_rows(
    counts: npt.NDArray[Any] | Sequence[npt.NDArray[Any]],
) -> tuple[IntArray, IntArray, IntArray]:
    """Classes of identical rows, numbered in order of their first row.

    Parameters
    ----------
    counts : array of numbers, shape (n, columns), or a sequence of them
        The rows; a sequence of arrays with ``n`` rows each is read as one
        array of their columns side by side.

    Returns
    -------
    of_row : array of int, shape (n,)
        The class of each row.
    first : array of int
        The first row of each class (increasing).
    sizes : array of int
        The number of rows of each class.

    Examples
    --------
    >>> of_row, first, sizes = identical_rows(np.array([[1.0, 0], [0, 0], [1, 0], [0, 0]]))
    >>> of_row.tolist(), first.tolist(), sizes.tolist()
    ([0, 1, 0, 1], [0, 1], [2, 2])
    """
    blocks = [counts] if isinstance(counts, np.ndarray) else list(counts)
    n = blocks[0].shape[0]
    if n == 0:
        empty = np.zeros(0, dtype=np.int64)
        return empty, empty, empty
    words = _row_words(blocks)
    key = np.zeros(n, dtype=np.uint64)
    for j in range(words.shape[1]):
        key ^= words[:, j]
        key *= _HASH
        key ^= key >> np.uint64(31)
    _, first, of_row, sizes = np.unique(key, return_index=True, return_inverse=True,
                                        return_counts=True)
    if not np.array_equal(words[first[of_row]], words):  # two rows share a hash: exactly
        rows = np.ascontiguousarray(words).view(np.dtype((np.void, 8 * words.shape[1])))[:, 0]
        _, first, of_row, sizes = np.unique(rows, return_index=True, return_inverse=True,
                                            return_counts=True)
    order = np.argsort(first, kind="stable")
    rank = np.empty_like(order)
    rank[order] = np.arange(len(order))
    return (rank[of_row.reshape(-1)].astype(np.int64), first[order].astype(np.int64),
            sizes[order].astype(np.int64))


@dataclass(frozen=True, eq=False)
class BootstrapPlan:
    """How the bootstrap draws units: large classes of identical units as a whole, others singly.

    Attributes
    ----------
    n_units : int
        Units of the data (each resample draws this many).
    whole : array of int
        The first unit of each class of at least :data:`WHOLE_CLASS` identical
        units, in order of first occurrence; the class is drawn as a whole.
    sizes : array of int
        Units of each of these classes.
    single : array of int
        Every other unit, in order; each is drawn singly.
    """

    n_units: int
    whole: IntArray
    sizes: IntArray
    single: IntArray

    @property
    def columns(self) -> IntArray:
        """The unit behind each column of the weights: ``whole``, then ``single``."""
        return np.concatenate([self.whole, self.single])


def bootstrap_plan(counts: npt.NDArray[Any] | Sequence[npt.NDArray[Any]]) -> BootstrapPlan:
    """Group the units (rows of ``counts``, every system's counts) for :func:`bootstrap_weights`.

    ``counts`` is an array with one row per unit, or a sequence of them read
    side by side (as :func:`identical_rows` does).

    Examples
    --------
    >>> counts = np.array([[0.0, 0.0]] * 30 + [[1.0, 0.0], [0.0, 2.0], [1.0, 0.0]])
    >>> plan = bootstrap_plan(counts)
    >>> plan.whole.tolist(), plan.sizes.tolist(), plan.single.tolist()
    ([0], [30], [30, 31, 32])
    """
    of_row, first, sizes = identical_rows(counts)
    whole = sizes >= WHOLE_CLASS
    return BootstrapPlan(len(of_row), first[whole], sizes[whole],
                         np.flatnonzero(~whole[of_row]).astype(np.int64))


def bootstrap_weights(
    rng: np.random.Generator, plan: BootstrapPlan, n_resamples: int,
    dtype: type[np.floating[Any]] = np.float64,
) -> Iterator[npt.NDArray[np.floating[Any]]]:
    """Bootstrap weights, block of resamples by block: ``(rows, len(plan.columns))`` arrays.

    Row ``r`` says how often resample ``r`` draws each class of ``plan.whole``
    (any of its units) and each unit of ``plan.single``; it adds up to
    ``n_units``. Its distribution is that of ``n`` draws of units with
    replacement, each unit with probability ``1 / n``.

    The stream of random numbers: blocks hold ``max(1, 2**22 // n_units)``
    resamples (the last one fewer). For each block, one
    ``rng.multinomial(n, [m_1/n, ..., m_K/n, s/n], size=rows)`` call draws how
    often each class (``m_k`` units) and the ``s`` single units as a group are
    drawn (no call without classes, no last category without single units);
    then one ``rng.integers(0, s, N, dtype=int64)`` call draws the ``N``
    single units of all its resamples, resample after resample. Without
    classes this is ``rng.integers(0, n, (rows, n))``.

    Examples
    --------
    >>> boot, _ = rngs(0)
    >>> plan = bootstrap_plan(np.array([[0.0]] * 30 + [[1.0], [2.0]]))
    >>> w = np.concatenate(list(bootstrap_weights(boot, plan, 3)))
    >>> w.shape, w.sum(axis=1).tolist()
    ((3, 3), [32.0, 32.0, 32.0])
    """
    n, n_whole, n_single = plan.n_units, len(plan.whole), len(plan.single)
    p = np.concatenate([plan.sizes, [n_single] if n_single else []]) / max(n, 1)
    step = _rows_per_block(n)
    for start in range(0, n_resamples, step):
        rows = min(step, n_resamples - start)
        out = np.empty((rows, n_whole + n_single), dtype=dtype)
        if n_whole:
            drawn = rng.multinomial(n, p, size=rows)
            out[:, :n_whole] = drawn[:, :n_whole]
            singles = drawn[:, n_whole] if n_single else np.zeros(rows, dtype=np.int64)
        else:
            singles = np.full(rows, n, dtype=np.int64)
        if n_single:
            idx = rng.integers(0, n_single, int(singles.sum()), dtype=np.int64)
            ends = np.cumsum(singles)
            for r in range(rows):
                out[r, n_whole:] = np.bincount(idx[ends[r] - singles[r]:ends[r]],
                                               minlength=n_single)
        yield out


def swap_blocks(
    rng: np.random.Generator, n_units: int, n_resamples: int
) -> Iterator[npt.NDArray[np.uint8]]:
    """The randomization test's swap matrix (0 or 1, each with probability 1/2), by blocks.

    ``n_units`` are the units that get a coin (those where the systems'
    counts differ). Blocks hold ``max(1, 2**22 // n_units)`` rows (the last
    one fewer). The coins of a block, row after row, are the bits of
    ``rng.bit_generator.random_raw(ceil(rows * n_units / 64))``: coin ``j`` is
    bit ``j % 64`` (least significant first) of raw number ``j // 64``.

    Examples
    --------
    >>> _, swap = rngs(0)
    >>> blocks = list(swap_blocks(swap, 50, 4))
    >>> [b.shape for b in blocks], sorted({int(v) for b in blocks for v in b.ravel()})
    ([(4, 50)], [0, 1])
    """
    step = _rows_per_block(n_units)
    for start in range(0, n_resamples, step):
        rows = min(step, n_resamples - start)
        raw = rng.bit_generator.random_raw(-(-rows * n_units // 64))
        octets = np.asarray(raw, dtype="<u8").view(np.uint8)
        coins = np.unpackbits(octets, count=rows * n_units, bitorder="little")
        yield coins.reshape(rows, n_units)


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
    big = max(float(values.max(initial=0.0)), -float(values.min(initial=0.0)))
    if big * max(n_units, 1) < 2**24 and _exactly(values, np.int32) is not None:
        return np.float32
    return np.float64


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
