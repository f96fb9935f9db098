"""Candidate pairs: every gold/predicted pair of spans that overlap, found without a pair loop.

Overlap-based matchers (``semeval``, ``overlap``, ``threshold``) start from
the same question: which gold spans overlap which predicted spans of the
same sequence? :func:`candidate_pairs` answers it for a whole corpus with
sorting and :func:`numpy.searchsorted`.

Two half-open spans ``g`` and ``p`` of positive length overlap iff
``max(g.start, p.start) < min(g.end, p.end)``. Every such pair falls in
exactly one of two cases, each a range query on sorted starts:

- ``g.start <= p.start < g.end`` (the prediction starts inside the gold span);
- ``p.start < g.start < p.end`` (the gold span starts strictly inside the prediction).

Zero-length spans (``start == end``) overlap nothing; they pair only with
an identical zero-length span of the other side (docs/matchers/semeval.md, docs/matchers/threshold.md).

Discontinuous entities are searched by their extents, and the pairs whose
fragment sets share no unit are then dropped (docs/fragments.md); the
overlap of a pair is the number of units its two fragment sets share.

The module also holds what those matchers share after the candidate search:
:func:`greedy_matching` (one-to-one pairs, best first) and
:func:`alignment_from_pairs`.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from nerscore.errors import InvalidSpanError
from nerscore.matching.alignment import Alignment
from nerscore.values.fragments import pair_overlap
from nerscore.values.spans import EntityColumns, unify_labels

__all__ = ["alignment_from_pairs", "candidate_pairs", "check_contiguous", "greedy_matching",
           "group_keys", "isolated"]

IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]
BoolArray = npt.NDArray[np.bool_]


def group_keys(
    gold: EntityColumns, pred: EntityColumns, *, same_label: bool
) -> tuple[IntArray, IntArray, IntArray, IntArray]:
    """Sortable int64 keys ``group * width + position`` for starts and ends of both sides.

    A group is a sequence (or a (sequence, label) pair with ``same_label``).
    Returns ``(g_start, g_end, p_start, p_end)``, comparable within and across
    sides.
    """
    if same_label:
        gold, pred = unify_labels(gold, pred)
    n_lab = max(len(gold.labels), 1) if same_label else 1
    width = int(max(gold.end.max(initial=0), pred.end.max(initial=0))) + 1
    n_seq = int(max(gold.seq.max(initial=0), pred.seq.max(initial=0))) + 1
    if n_seq * n_lab * width < 2**62:
        gg = gold.seq * n_lab + gold.label if same_label else gold.seq
        pg = pred.seq * n_lab + pred.label if same_label else pred.seq
        starts_ends = (gold.start, gold.end, pred.start, pred.end)
    else:  # compress groups and positions to ranks (order is preserved)
        cols = [gold.seq, gold.label] if same_label else [gold.seq]
        pcols = [pred.seq, pred.label] if same_label else [pred.seq]
        both = np.concatenate([np.stack(cols, axis=1), np.stack(pcols, axis=1)])
        _, inv = np.unique(both, axis=0, return_inverse=True)
        inv = inv.reshape(-1).astype(np.int64)
        gg, pg = inv[: len(gold)], inv[len(gold):]
        pos = np.concatenate([gold.start, gold.end, pred.start, pred.end])
        values, rank = np.unique(pos, return_inverse=True)
        rank = rank.reshape(-1).astype(np.int64)
        width = len(values) + 1
        ng, np_ = len(gold), len(pred)
        starts_ends = (
            rank[:ng], rank[ng: 2 * ng], rank[2 * ng: 2 * ng + np_], rank[2 * ng + np_:]
        )
    gs, ge, ps, pe = (
        (grp * width + x).astype(np.int64)
        for grp, x in zip((gg, gg, pg, pg), starts_ends, strict=True)
    )
    return gs, ge, ps, pe


def _range_join(
    sorted_keys: IntArray, lo_keys: IntArray, hi_keys: IntArray, *, lo_side: str
) -> tuple[IntArray, IntArray]:
    """For each query ``q``, every position ``i`` of ``sorted_keys`` within its range.

    The range is ``[lo, hi)`` (``lo_side="left"``) or ``(lo, hi)``
    (``lo_side="right"``). Returns ``(query index, position)`` arrays.
    """
    lo = np.searchsorted(sorted_keys, lo_keys, side=lo_side)  # type: ignore[call-overload]
    hi = np.searchsorted(sorted_keys, hi_keys, side="left")
    n = np.maximum(hi - lo, 0)
    total = int(n.sum())
    q = np.repeat(np.arange(len(lo_keys), dtype=np.int64), n)
    if total == 0:
        return q, q
    # positions lo[q] + 0, 1, ..., n[q] - 1 for every query, in one pass
    offsets = np.cumsum(n) - n
    pos = np.arange(total, dtype=np.int64) - np.repeat(offsets - lo, n)
    return q, pos


def candidate_pairs(
    gold: EntityColumns, pred: EntityColumns, *, same_label: bool = False
) -> tuple[IntArray, IntArray, IntArray]:
    """All overlapping (gold row, predicted row) pairs of the same sequence.

    Parameters
    ----------
    gold, pred : EntityColumns
        Both sides; rows are referred to by their index.
    same_label : bool
        Only pair spans whose labels are equal (by name).

    Returns
    -------
    gi, pi : array of int
        Gold and predicted row indices of each pair, sorted by ``(gi, pi)``.
    overlap : array of int
        Length of the intersection of each pair: the units the fragment sets
        share (0 only for two identical zero-length spans).

    Notes
    -----
    Cost is ``O((n + k) log n)`` for ``n`` spans and ``k`` pairs; there is no
    loop over pairs. Spans that merely touch (``g.end == p.start``) do not
    overlap. A zero-length span pairs only with an identical zero-length span.

    Examples
    --------
    >>> from nerscore.values.spans import EntityColumns
    >>> g = EntityColumns([0, 0, 1], [0, 5, 2], [4, 9, 2], [0, 0, 0], ("A",))
    >>> p = EntityColumns([0, 0, 1, 1], [2, 9, 2, 0], [6, 12, 2, 5], [0, 0, 0, 0], ("A",))
    >>> gi, pi, ov = candidate_pairs(g, p)
    >>> gi.tolist(), pi.tolist(), ov.tolist()
    ([0, 1, 2], [0, 0, 2], [2, 1, 0])
    """
    z = np.zeros(0, dtype=np.int64)
    if len(gold) == 0 or len(pred) == 0:
        return z, z.copy(), z.copy()
    gs, ge, ps, pe = group_keys(gold, pred, same_label=same_label)
    g_pos = np.flatnonzero(gs < ge)
    p_pos = np.flatnonzero(ps < pe)
    parts_g: list[IntArray] = []
    parts_p: list[IntArray] = []

    # both range queries take their queries in sorted order: the binary searches
    # then walk memory forwards, which is much faster than queries in row order
    # when the rows are not sorted by position (e.g. by label within a sequence)
    g_order = g_pos[np.argsort(gs[g_pos], kind="stable")]
    p_order = p_pos[np.argsort(ps[p_pos], kind="stable")]

    # case 1: g.start <= p.start < g.end
    q, pos = _range_join(ps[p_order], gs[g_order], ge[g_order], lo_side="left")
    parts_g.append(g_order[q])
    parts_p.append(p_order[pos])

    # case 2: p.start < g.start < p.end
    q, pos = _range_join(gs[g_order], ps[p_order], pe[p_order], lo_side="right")
    parts_g.append(g_order[pos])
    parts_p.append(p_order[q])

    # zero-length spans: identical spans only (many-to-many among equal keys)
    g_zero = np.flatnonzero(gs == ge)
    p_zero = np.flatnonzero(ps == pe)
    if len(g_zero) and len(p_zero):
        pz_order = p_zero[np.argsort(ps[p_zero], kind="stable")]
        # keys equal to the gold key: the closed range [k, k], i.e. [k, k + 1)
        q, pos = _range_join(ps[pz_order], gs[g_zero], gs[g_zero] + 1, lo_side="left")
        parts_g.append(g_zero[q])
        parts_p.append(pz_order[pos])

    gi = np.concatenate(parts_g)
    pi = np.concatenate(parts_p)
    if len(gold) * len(pred) < 2**62:
        order = np.argsort(gi * len(pred) + pi, kind="stable")
    else:  # pragma: no cover - needs more than 2**31 rows a side
        order = np.lexsort((pi, gi))
    gi, pi = gi[order], pi[order]
    if gold.fragments is not None or pred.fragments is not None:
        overlap = pair_overlap(gold, gi, pred, pi)
        keep = (overlap > 0) | (gold.start[gi] == gold.end[gi])  # identical empty spans stay
        return gi[keep], pi[keep], overlap[keep]
    overlap = np.minimum(gold.end[gi], pred.end[pi]) - np.maximum(gold.start[gi], pred.start[pi])
    return gi, pi, overlap.astype(np.int64)


def isolated(gi: IntArray, pi: IntArray, n_g: int, n_p: int) -> BoolArray:
    """For each pair: its gold and its predicted row are in no other pair.

    Any one-to-one selection that takes a pair whenever it can takes these.

    Examples
    --------
    >>> isolated(np.array([0, 1, 1]), np.array([0, 1, 2]), 2, 3).tolist()
    [True, False, False]
    """
    deg_g = np.bincount(gi, minlength=n_g)
    deg_p = np.bincount(pi, minlength=n_p)
    return np.asarray((deg_g[gi] == 1) & (deg_p[pi] == 1))


def greedy_matching(
    g: IntArray, p: IntArray, n_g: int, n_p: int, *, small: int = 2048
) -> BoolArray:
    """Which edges the sequential greedy one-to-one matching takes, edges given best first.

    ``g`` and ``p`` are the node ids (below ``n_g`` and ``n_p``) of each
    edge. An edge that is the best remaining edge of both its nodes is taken
    by the sequential pass too, so whole batches of such edges are taken at
    once while more than ``small`` edges remain; when batches get small (long
    chains of preferences) the rest goes through one plain loop.

    Examples
    --------
    >>> greedy_matching(np.array([0, 0, 1]), np.array([0, 1, 0]), 2, 2).tolist()
    [True, False, False]
    """
    taken = np.zeros(len(g), dtype=bool)
    used_g = np.zeros(n_g, dtype=bool)
    used_p = np.zeros(n_p, dtype=bool)
    alive = np.arange(len(g), dtype=np.int64)
    while len(alive) > small:
        ga, pa = g[alive], p[alive]
        k = np.arange(len(alive), dtype=np.int64)
        best_g = np.full(n_g, len(alive), dtype=np.int64)
        best_p = np.full(n_p, len(alive), dtype=np.int64)
        np.minimum.at(best_g, ga, k)
        np.minimum.at(best_p, pa, k)
        dominant = (best_g[ga] == k) & (best_p[pa] == k)
        chosen = alive[dominant]
        taken[chosen] = True
        used_g[g[chosen]] = True
        used_p[p[chosen]] = True
        alive = alive[~(used_g[ga] | used_p[pa])]
        if 8 * (len(k) - len(alive)) < len(k):  # progress is slow: finish sequentially
            break
    ug = used_g.tolist()
    up = used_p.tolist()
    for e, a, b in zip(alive.tolist(), g[alive].tolist(), p[alive].tolist(), strict=True):
        if not ug[a] and not up[b]:
            ug[a] = up[b] = True
            taken[e] = True
    return taken


def alignment_from_pairs(
    gold: EntityColumns, pred: EntityColumns, pairs_gold: IntArray, pairs_pred: IntArray,
    credit: FloatArray,
) -> Alignment:
    """The :class:`Alignment` of these pairs: every row in no pair is missed or spurious."""
    g_used = np.zeros(len(gold), dtype=bool)
    g_used[pairs_gold] = True
    p_used = np.zeros(len(pred), dtype=bool)
    p_used[pairs_pred] = True
    return Alignment(
        gold, pred, pairs_gold, pairs_pred, credit,
        np.flatnonzero(~g_used).astype(np.int64, copy=False),
        np.flatnonzero(~p_used).astype(np.int64, copy=False),
    )


def check_contiguous(gold: EntityColumns, pred: EntityColumns, what: str, why: str) -> None:
    """Raise unless every entity of both sides is contiguous (a reference tool's domain).

    Raises
    ------
    InvalidSpanError
        Naming the first discontinuous entity and the way out
        (``discontinuous='extent'``).
    """
    for side, cols in (("gold", gold), ("predicted", pred)):
        if cols.fragments is None:
            continue
        many = np.flatnonzero(cols.discontinuous())
        r = int(many[0])
        span = (int(cols.start[r]), int(cols.end[r]), cols.labels[int(cols.label[r])])
        raise InvalidSpanError(
            f"{what} cannot score discontinuous entities ({why}); found {len(many)} {side} "
            f"entit{'y' if len(many) == 1 else 'ies'} of several fragments, the first "
            f"{span!r} with fragments {[list(f) for f in cols.fragments.row(r)]} in "
            f"sequence {int(cols.seq[r])}. Pass discontinuous='extent' to read them as their "
            "extents, or leave out the compat option.",
            document=int(cols.seq[r]), spans=[span],
        )
