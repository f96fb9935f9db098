"""The resampling engine of :mod:`.comparison` and :mod:`.across_runs`: scores on the data and on every resample.

Every system's per-unit counts are read as one table (:class:`CountTable`);
the point scores come from its column sums, the bootstrap scores from
weightings of its rows (the same weights for every system: a paired
bootstrap) and the randomization differences from swapping two systems'
rows unit by unit. No matcher runs per resample. Then the percentile
intervals (:func:`quantiles`, :func:`estimates`) and the p-values
(:func:`p_value`). Definitions: docs/significance.md.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from nerscore.analysis.significance.resampling import (
    bootstrap_plan,
    bootstrap_weights,
    exact_dtype,
    prf_scores,
    rngs,
    swap_blocks,
)
from nerscore.analysis.significance.results import Estimate, PRFEstimates
from nerscore.analysis.significance.units import SequenceCounts

__all__ = ["TIE", "CountTable", "bootstrap_scores", "estimates", "p_value", "point_scores", "quantiles",
           "randomization_diffs", "run_resamples", "ticker"]

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]

#: Differences within this distance of the observed one count as ties.
TIE = 1e-12


def quantiles(values: FloatArray, level: float) -> tuple[float, float]:
    """The percentile interval of ``values`` at ``level`` (NumPy's linear interpolation)."""
    lo, hi = np.quantile(values, [(1 - level) / 2, (1 + level) / 2])
    return float(lo), float(hi)


def p_value(resampled: FloatArray, d: float, *, shifted: bool) -> float:
    """``(1 + #{r : |d*_r - d| >= |d|}) / (1 + R)`` (``shifted``) or with ``|d*_r| >= |d|``.

    NaN when ``d`` or some ``d*_r`` is undefined (NaN): a resample that
    leaves the difference undefined is neither as extreme as the data nor
    less (:mod:`.notes`).
    """
    if math.isnan(d) or np.isnan(resampled).any():
        return float("nan")
    centred = resampled - d if shifted else resampled
    return float((1 + int((np.abs(centred) >= abs(d) - TIE).sum())) / (1 + len(resampled)))


@dataclass(frozen=True, eq=False)
class CountTable:
    """Every system's per-unit counts, read as one table: gold, then ``tp`` and ``n_pred`` of each.

    The table is never built whole: the resampling needs its column sums, the
    classes of its identical rows and the rows of a few units.
    """

    blocks: list[npt.NDArray[Any]]  # the table's column blocks, (units, n_labels) each
    n_labels: int

    @classmethod
    def of_parts(cls, parts: list[SequenceCounts]) -> CountTable:
        """The table of the systems' per-unit counts, in one order of units and labels."""
        blocks = [parts[0].n_gold] + [a for p in parts for a in (p.tp, p.n_pred)]
        return cls(blocks, len(parts[0].labels))

    @property
    def totals(self) -> FloatArray:
        """The column sums, as one row: the counts of all the data."""
        sums = [np.einsum("ij->j", b) for b in self.blocks]  # (einsum: no pass per row)
        return np.concatenate(sums).astype(np.float64)[None, :]

    def rows(self, units: IntArray) -> FloatArray:
        """The table's rows of ``units``."""
        return np.concatenate([b[units] for b in self.blocks], axis=1).astype(np.float64)

    def of(self, m: FloatArray, s: int) -> tuple[FloatArray, FloatArray, FloatArray]:
        """``tp``, ``n_pred`` and ``n_gold`` of system ``s`` in the columns of ``m``."""
        n, base = self.n_labels, self.n_labels * (1 + 2 * s)
        return m[:, base:base + n], m[:, base + n:base + 2 * n], m[:, :n]


def point_scores(counts: CountTable, k: int, fill: float) -> FloatArray:
    """Scores ``(k, 2, 3)`` of every system on all the data (``fill`` for undefined ratios)."""
    totals = counts.totals
    return np.stack([prf_scores(*counts.of(totals, s), fill=fill)[:, :, 0] for s in range(k)])


def bootstrap_scores(
    counts: CountTable, k: int, rng: np.random.Generator, n_resamples: int, fill: float,
    tick: Callable[[int], None],
) -> FloatArray:
    """Scores ``(k, 2, 3, R)`` of every system on the bootstrap resamples (shared weights)."""
    plan = bootstrap_plan(counts.blocks)
    rows = counts.rows(plan.columns)  # the weights multiply only these rows
    dtype = exact_dtype(rows, plan.n_units)
    rows = rows.astype(dtype)
    resampled = np.empty((n_resamples, rows.shape[1]), dtype=np.float64)
    done = 0
    for weights in bootstrap_weights(rng, plan, n_resamples, dtype):
        resampled[done:done + len(weights)] = weights @ rows
        done += len(weights)
        tick(len(weights))
    return np.stack([prf_scores(*counts.of(resampled, s), fill=fill) for s in range(k)])


def randomization_diffs(
    parts: list[SequenceCounts], counts: CountTable, pairs: list[tuple[int, int]],
    rng: np.random.Generator, n_resamples: int, fill: float, metric: int, average: int,
    tick: Callable[[int], None],
) -> dict[tuple[int, int], FloatArray]:
    """Differences ``score(a) - score(b)`` of every pair on the permutations."""
    n_lab = counts.n_labels
    # only units where the two systems of some pair differ get a coin: swapping
    # the others changes nothing
    differ = np.zeros(parts[0].n_sequences, dtype=np.bool_)
    for a, b in pairs:
        differ |= (parts[a].tp != parts[b].tp).any(axis=1)
        differ |= (parts[a].n_pred != parts[b].n_pred).any(axis=1)
    units = np.flatnonzero(differ)
    diffs = np.concatenate(
        [np.concatenate([parts[b].tp[units] - parts[a].tp[units],
                         parts[b].n_pred[units] - parts[a].n_pred[units]], axis=1)
         for a, b in pairs], axis=1).astype(np.float64)
    dtype = exact_dtype(diffs, len(units))
    fast = diffs.astype(dtype)
    shift = np.empty((n_resamples, fast.shape[1]), dtype=np.float64)
    done = 0
    for swap in swap_blocks(rng, len(units), n_resamples):
        shift[done:done + len(swap)] = swap.astype(dtype) @ fast
        done += len(swap)
        tick(len(swap))
    totals = counts.totals
    perm = {}
    for j, (a, b) in enumerate(pairs):
        d = shift[:, 2 * n_lab * j:2 * n_lab * (j + 1)]
        (ta, pa, gold), (tb, pb, _) = counts.of(totals, a), counts.of(totals, b)
        sa = prf_scores(ta + d[:, :n_lab], pa + d[:, n_lab:], gold, fill=fill)
        sb = prf_scores(tb - d[:, :n_lab], pb - d[:, n_lab:], gold, fill=fill)
        perm[(a, b)] = sa[average, metric] - sb[average, metric]
    return perm


def ticker(progress: Callable[[int, int], None] | None, total: int) -> Callable[[int], None]:
    """``tick(rows)``: count ``rows`` more resamples done and tell ``progress(done, total)``."""
    done = 0

    def tick(rows: int) -> None:
        nonlocal done
        done += rows
        if progress is not None:
            progress(done, total)

    return tick


def run_resamples(
    parts: list[SequenceCounts], pairs: list[tuple[int, int]], *, n_resamples: int,
    seed: int | None, fill: float, metric: int, average: int, randomization: bool,
    progress: Callable[[int, int], None] | None = None,
) -> tuple[FloatArray, FloatArray, dict[tuple[int, int], FloatArray]]:
    """Point scores ``(k, 2, 3)``, bootstrap scores ``(k, 2, 3, R)``, randomization diffs of ``pairs``."""
    randomization = randomization and bool(pairs)
    tick = ticker(progress, n_resamples * (2 if randomization else 1))
    k = len(parts)
    counts = CountTable.of_parts(parts)
    point = point_scores(counts, k, fill)
    boot_rng, swap_rng = rngs(seed)
    boot = bootstrap_scores(counts, k, boot_rng, n_resamples, fill, tick)
    perm: dict[tuple[int, int], FloatArray] = {}
    if randomization:
        perm = randomization_diffs(parts, counts, pairs, swap_rng, n_resamples, fill, metric,
                              average, tick)
    return point, boot, perm


def estimates(point: FloatArray, boot: FloatArray, level: float) -> PRFEstimates:
    """Precision, recall and F-score with their intervals, from the point and the bootstrap scores."""
    est = [Estimate(float(point[i]), *quantiles(boot[i], level)) for i in range(3)]
    return PRFEstimates(*est)
