"""The loio-metrics library's pointer walk, for ``match="overlap", compat="loio"``.

Kept apart from :mod:`nerscore.matching.overlap` for size only; the rule and
its quirks are documented in :func:`nerscore.matching.overlap.match_overlap`
and docs/matchers/overlap.md.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

__all__ = ["pointer_walk"]

IntArray = npt.NDArray[np.int64]


def _coverage(lo: IntArray, hi: IntArray, n: int) -> IntArray:
    """How many of the ranges ``[lo, hi)`` cover each of ``n`` positions."""
    keep = lo < hi
    d = np.bincount(lo[keep], minlength=n + 1) - np.bincount(hi[keep], minlength=n + 1)
    out: IntArray = np.cumsum(d[:n]).astype(np.int64)
    return out


def _isolated(
    gs: IntArray, ge: IntArray, ps: IntArray, pe: IntArray
) -> tuple[npt.NDArray[np.bool_], IntArray]:
    """Predictions with exactly one candidate gold span that has no other candidate.

    A gold span is a *candidate* of a prediction when it starts before the
    prediction ends and ends after it starts (the two tests of the walk).
    Gold spans of positive length are disjoint, so a prediction's candidates
    among them form one range in start order; zero-length gold spans are
    candidates when they lie strictly inside. Returns a flag per prediction
    and the partner of each prediction (-1 when it has none).
    """
    pos = np.flatnonzero(gs < ge)
    zero = np.flatnonzero(gs == ge)
    lo = np.searchsorted(ge[pos], ps, side="right")  # first ending after a starts
    hi = np.maximum(np.searchsorted(gs[pos], pe, side="left"), lo)  # ... starting before a ends
    zlo = np.searchsorted(gs[zero], ps, side="right")  # strictly inside
    zhi = np.maximum(np.searchsorted(gs[zero], pe, side="left"), zlo)
    n_pos, n_zero = hi - lo, zhi - zlo
    partner = np.full(len(ps), -1, dtype=np.int64)
    one_pos = (n_pos == 1) & (n_zero == 0)
    one_zero = (n_pos == 0) & (n_zero == 1)
    partner[one_pos] = pos[lo[one_pos]]
    partner[one_zero] = zero[zlo[one_zero]]
    n_cand = np.zeros(len(gs), dtype=np.int64)  # candidate predictions of each gold span
    n_cand[pos] = _coverage(lo, hi, len(pos))
    n_cand[zero] = _coverage(zlo, zhi, len(zero))
    ok = partner >= 0
    ok[ok] = n_cand[partner[ok]] == 1
    return ok, partner


def pointer_walk(
    gs: IntArray, ge: IntArray, ps: IntArray, pe: IntArray
) -> tuple[IntArray, IntArray]:
    """The pairs of the loio-metrics walk: ``(gold positions, predicted positions)``.

    Parameters
    ----------
    gs, ge : array of int
        Packed start and end keys of the gold spans left after the exact
        matches, sorted by (start, end); zero-length ones included.
    ps, pe : array of int
        Packed keys of the predictions left after the exact matches, of
        positive length, sorted by start (they are disjoint).

    Notes
    -----
    The walk: for each prediction in order, skip the gold spans under the
    pointer that end at or before the prediction's start; if the gold span
    now under the pointer starts before the prediction ends, pair them and
    move the pointer on by one. Packed keys embed the (document, label)
    group, so one walk over all groups is the walk of each group: gold of an
    earlier group ends before any later prediction starts, and gold of a
    later group starts after it ends.

    A prediction whose only candidate gold span (see :func:`_isolated`) has
    no other candidate is always paired with it, and taking such pairs out
    changes nothing for the others: the walk is run in Python only over the
    remaining spans, which are few on real data.
    """
    p_ok, partner = _isolated(gs, ge, ps, pe)
    g_ok = np.zeros(len(gs), dtype=bool)
    g_ok[partner[p_ok]] = True
    out_g = [partner[p_ok]]
    out_p = [np.flatnonzero(p_ok).astype(np.int64)]
    g_rest = np.flatnonzero(~g_ok)
    p_rest = np.flatnonzero(~p_ok)
    gsl, gel = gs[g_rest].tolist(), ge[g_rest].tolist()
    n = len(gsl)
    walk_g: list[int] = []
    walk_p: list[int] = []
    i = 0
    for k, a, b in zip(p_rest.tolist(), ps[p_rest].tolist(), pe[p_rest].tolist(), strict=True):
        while i < n and gel[i] <= a:
            i += 1
        if i == n:
            break
        if gsl[i] < b:
            walk_g.append(i)
            walk_p.append(k)
            i += 1
    out_g.append(g_rest[np.asarray(walk_g, dtype=np.int64)])
    out_p.append(np.asarray(walk_p, dtype=np.int64))
    return np.concatenate(out_g), np.concatenate(out_p)
