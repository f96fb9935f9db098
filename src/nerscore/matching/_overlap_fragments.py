"""The ``overlap`` matcher's assignments: the optimal one, and every step for discontinuous entities.

Kept apart from :mod:`nerscore.matching.overlap` for size; the rule is
documented there and in docs/matchers/overlap.md. With discontinuous
entities (docs/fragments.md) the same rule holds on fragment sets: two
entities overlap when their fragment sets share a unit, ``|a|`` is the total
length of a's fragments, and spans of one label on one side must not share
a unit (their extents may interleave). The article's walk is then computed
from the overlap pairs (every gold span is consumed by the first prediction
overlapping it), and ``assignment="optimal"`` solves the components holding
a discontinuous entity with the Hungarian method (their overlap graph can
have crossing edges) and the rest as for contiguous spans.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from nerscore.errors import InvalidSpanError
from nerscore.matching.candidates import candidate_pairs, group_keys
from nerscore.matching.exact import multiset_pairs, row_keys
from nerscore.values.fragments import Fragments, pair_overlap
from nerscore.values.spans import EntityColumns

__all__ = ["factor", "fragment_pairs", "optimal_pairs"]

IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]

_MAX_LISTED = 8  # offending spans shown in an error message


def factor(gold: EntityColumns, pred: EntityColumns, gi: IntArray, pi: IntArray) -> FloatArray:
    """``|a ∩ e| / max(|a|, |e|)`` for each pair (all of positive length; units of fragments)."""
    inter = pair_overlap(gold, gi, pred, pi)
    return np.asarray(inter / np.maximum(gold.lengths()[gi], pred.lengths()[pi]),
                      dtype=np.float64)


def optimal_pairs(
    gold: EntityColumns, pred: EntityColumns,
    g_rows: IntArray, gs: IntArray, ge: IntArray,
    p_rows: IntArray, ps: IntArray, pe: IntArray,
) -> tuple[IntArray, IntArray]:
    """One-to-one matching of maximum total factor, for contiguous spans.

    The overlap graph of two sets of disjoint intervals has no crossing
    edges: with edges sorted by (prediction, gold), the gold index never
    decreases. Two edges conflict iff they share an endpoint, and the edges
    conflicting with edge ``m`` among those before it form one block
    ``[q(m), m)``. A maximum-weight matching is then a weighted
    interval-scheduling recursion ``D(m) = max(D(m-1), w(m) + D(q(m)-1))``,
    solved for all connected components at once (one vectorised step per
    position inside a component).
    """
    z = np.zeros(0, dtype=np.int64)
    if len(p_rows) == 0 or len(g_rows) == 0:
        return z, z
    lo = np.searchsorted(ge, ps, side="right")  # first gold ending after a starts
    hi = np.searchsorted(gs, pe, side="left")  # first gold starting at/after a ends
    n = np.maximum(hi - lo, 0)
    total = int(n.sum())
    if total == 0:
        return z, z
    ea = np.repeat(np.arange(len(p_rows), dtype=np.int64), n)
    offsets = np.cumsum(n) - n
    ee = np.arange(total, dtype=np.int64) - np.repeat(offsets - lo, n)
    w = factor(gold, pred, g_rows[ee], p_rows[ea])

    idx = np.arange(total, dtype=np.int64)
    same_a = np.zeros(total, dtype=bool)
    same_e = np.zeros(total, dtype=bool)
    same_a[1:] = ea[1:] == ea[:-1]
    same_e[1:] = ee[1:] == ee[:-1]
    run_a = np.maximum.accumulate(np.where(same_a, 0, idx))
    run_e = np.maximum.accumulate(np.where(same_e, 0, idx))
    q = np.minimum(run_a, run_e)  # start of the block conflicting with each edge
    c0 = np.flatnonzero(~(same_a | same_e))
    size = np.diff(np.append(c0, total))

    chosen = np.zeros(total, dtype=bool)
    chosen[c0[size == 1]] = True
    big = np.flatnonzero(size > 1)
    if len(big):
        # forward: best[m] = best total over edges c0..m of m's component
        best = np.zeros(total, dtype=np.float64)
        take = np.zeros(total, dtype=bool)
        starts, sizes = c0[big], size[big]
        for j in range(int(sizes.max())):
            active = sizes > j
            start = starts[active]
            m = start + j
            without = np.where(m > start, best[np.maximum(m - 1, 0)], 0.0)
            before = q[m] - 1
            with_ = w[m] + np.where(before >= start, best[np.maximum(before, 0)], 0.0)
            take[m] = with_ > without
            best[m] = np.where(take[m], with_, without)
        # backward: follow the choices from the last edge of each component
        cur, bound = starts + sizes - 1, starts
        while len(cur):
            t = take[cur]
            chosen[cur[t]] = True
            cur = np.where(t, q[cur] - 1, cur - 1)
            keep = cur >= bound
            cur, bound = cur[keep], bound[keep]
    return g_rows[ee[chosen]], p_rows[ea[chosen]]


# --------------------------------------------------------------------------- discontinuous


def _conflicts(side: EntityColumns) -> tuple[IntArray, IntArray]:
    """Pairs ``i < j`` of positive-length rows of one label sharing a unit."""
    i, j, _ = candidate_pairs(side, side, same_label=True)
    keep = (i < j) & (side.start[i] < side.end[i]) & (side.start[j] < side.end[j])
    return i[keep], j[keep]


def _components(n: int, a: IntArray, b: IntArray) -> IntArray:
    """A component id per node of the graph with edges ``(a[k], b[k])``: its smallest node."""
    parent = list(range(n))

    def find(x: int) -> int:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for x, y in zip(a.tolist(), b.tolist(), strict=True):
        rx, ry = find(x), find(y)
        if rx != ry:
            parent[max(rx, ry)] = min(rx, ry)
    return np.array([find(x) for x in range(n)], dtype=np.int64)


def conflict_error(side: EntityColumns, name: str, rows: IntArray,
                   doc_ids: Sequence[str] | None, *,
                   by_fragments: bool = False) -> InvalidSpanError:
    """The error for spans of one label that overlap: the first document's spans, plus totals.

    ``rows`` are the overlapping spans. The document is named by its id when
    ``doc_ids`` are known (documents given as a mapping), else by its
    0-based index; a discontinuous span is shown fragment by fragment.
    ``by_fragments``: overlap was judged on fragments (the message says so).
    """
    rows = np.unique(rows)
    docs = np.unique(side.seq[rows])
    doc = int(docs[0])
    here = rows[side.seq[rows] == doc]
    here = here[np.lexsort((side.end[here], side.start[here], side.label[here]))]
    spans = [(int(side.start[r]), int(side.end[r]), side.labels[int(side.label[r])])
             for r in here]
    counts = None if side.fragments is None else side.fragments.counts()

    def show(r: int) -> str:
        if counts is not None and side.fragments is not None and counts[r] > 1:
            parts = ";".join(f"{a} {b}" for a, b in side.fragments.row(r))
            return f"[{parts}] {side.labels[int(side.label[r])]}"
        return f"[{int(side.start[r])}, {int(side.end[r])}) {side.labels[int(side.label[r])]}"

    shown = ", ".join(show(int(r)) for r in here[:_MAX_LISTED])
    if len(here) > _MAX_LISTED:
        shown += f" and {len(here) - _MAX_LISTED} more"
    total = ""
    if len(docs) > 1:
        total = f" In all, {len(rows)} {name} spans in {len(docs)} documents overlap."
    document: str | int = doc
    named = str(doc)
    if doc_ids is not None and doc < len(doc_ids):
        document = doc_ids[doc]
        named = repr(document)
    touching = ("touching is fine" if not by_fragments else
                "touching is fine; the fragments of a discontinuous span count, not its extent")
    return InvalidSpanError(
        f"Overlapping {name} spans of the same label in document {named}: {shown}. "
        f"The overlap matcher needs the {name} spans of one label to be disjoint "
        f"({touching}); fix or remove them, or pass overlapping='merge' to glue overlapping "
        f"spans into one.{total}",
        document=document, spans=spans,
    )


def _merge(side: EntityColumns, i: IntArray, j: IntArray) -> tuple[EntityColumns, int]:
    """Glue every group of spans sharing units into one (the union of their fragments).

    The group's first row keeps it; returns the columns and the number of
    rows merged away.
    """
    n = len(side)
    comp = _components(n, i, j)
    heads = comp == np.arange(n)
    parts = side.fragments if side.fragments is not None else Fragments.single(side.start,
                                                                                side.end)
    groups: dict[int, list[tuple[int, int]]] = {}
    for r in np.flatnonzero(~heads).tolist():
        head = int(comp[r])
        groups.setdefault(head, list(parts.row(head))).extend(parts.row(r))
    lists: list[tuple[tuple[int, int], ...] | None] = [None] * n
    for r in np.flatnonzero(parts.counts() > 1).tolist():
        lists[r] = parts.row(r)
    start, end = side.start.copy(), side.end.copy()
    for head, frags in groups.items():
        joined = _union(frags)
        lists[head] = tuple(joined)
        start[head], end[head] = joined[0][0], joined[-1][1]
    merged = EntityColumns(side.seq, start, end, side.label, side.labels, side.n_sequences,
                           Fragments.from_lists(lists, start, end))
    return merged.take(heads), int(np.count_nonzero(~heads))


def _union(frags: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Intervals joined where they overlap or touch."""
    out: list[tuple[int, int]] = []
    for s, e in sorted(set(frags)):
        if out and s <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], e))
        else:
            out.append((s, e))
    return out


def _position_rank(side: EntityColumns) -> IntArray:
    """Rank of every row by (sequence, label, start, end, row)."""
    order = np.lexsort((np.arange(len(side)), side.end, side.start, side.label, side.seq))
    rank = np.empty(len(side), dtype=np.int64)
    rank[order] = np.arange(len(side), dtype=np.int64)
    return rank


def _walk(gold: EntityColumns, pred: EntityColumns, gi: IntArray,
          pi: IntArray) -> tuple[IntArray, IntArray]:
    """The article's walk, from the overlap pairs.

    Every gold span is consumed by the first prediction (by start) that
    overlaps it; a prediction consuming some gold span is credited against
    the earliest of them.
    """
    z = np.zeros(0, dtype=np.int64)
    if len(gi) == 0:
        return z, z
    rp, rg = _position_rank(pred)[pi], _position_rank(gold)[gi]
    first = np.full(len(gold), np.iinfo(np.int64).max, dtype=np.int64)
    np.minimum.at(first, gi, rp)
    consumed = rp == first[gi]
    cg, cp, crg = gi[consumed], pi[consumed], rg[consumed]
    order = np.lexsort((crg, cp))
    cg, cp = cg[order], cp[order]
    head = np.ones(len(cp), dtype=bool)
    head[1:] = cp[1:] != cp[:-1]
    return cg[head].astype(np.int64), cp[head].astype(np.int64)


def _hungarian(weight: FloatArray) -> list[tuple[int, int]]:
    """Row/column pairs of a maximum-weight assignment of a (small) non-negative matrix."""
    n_r, n_c = weight.shape
    n = max(n_r, n_c)
    cost = np.zeros((n + 1, n + 1))
    cost[1:n_r + 1, 1:n_c + 1] = -weight
    u, v = np.zeros(n + 1), np.zeros(n + 1)
    match = np.zeros(n + 1, dtype=np.int64)  # column -> row (1-based; 0: free)
    for row in range(1, n + 1):
        match[0] = row
        col0 = 0
        best = np.full(n + 1, np.inf)
        prev = np.zeros(n + 1, dtype=np.int64)
        used = np.zeros(n + 1, dtype=bool)
        while True:
            used[col0] = True
            r0 = match[col0]
            free = ~used
            free[0] = False
            reduced = cost[r0] - u[r0] - v
            better = free & (reduced < best)
            best[better] = reduced[better]
            prev[better] = col0
            cand = np.where(free, best, np.inf)
            col1 = int(np.argmin(cand))
            delta = cand[col1]
            u[match[used]] += delta
            v[used] -= delta
            best[free] -= delta
            col0 = col1
            if match[col0] == 0:
                break
        while col0:
            col1 = int(prev[col0])
            match[col0] = match[col1]
            col0 = col1
    return [(int(match[c]) - 1, c - 1) for c in range(1, n + 1)
            if 0 < match[c] <= n_r and c <= n_c]


def _optimal(gold: EntityColumns, pred: EntityColumns, gi: IntArray,
             pi: IntArray) -> tuple[IntArray, IntArray]:
    """Maximum total factor over the overlap pairs ``(gi, pi)``, one-to-one."""
    z = np.zeros(0, dtype=np.int64)
    if len(gi) == 0:
        return z, z
    n_g = len(gold)
    comp = _components(n_g + len(pred), gi, pi + n_g)
    fragmented = np.zeros(n_g + len(pred), dtype=bool)
    fragmented[:n_g] = gold.discontinuous()
    fragmented[n_g:] = pred.discontinuous()
    hard = np.zeros(n_g + len(pred), dtype=bool)
    hard[comp[fragmented]] = True
    edge_hard = hard[comp[gi]]
    out_g, out_p = [], []
    # components without a discontinuous entity: the interval recursion
    easy_g = np.unique(gi[~edge_hard])
    easy_p = np.unique(pi[~edge_hard])
    if len(easy_g):
        g_sub, p_sub = gold.take(easy_g), pred.take(easy_p)
        gs, ge, ps, pe = group_keys(g_sub, p_sub, same_label=True)
        go, po = np.argsort(gs, kind="stable"), np.argsort(ps, kind="stable")
        rg, rp = optimal_pairs(g_sub, p_sub, go, gs[go], ge[go], po, ps[po], pe[po])
        out_g.append(easy_g[rg])
        out_p.append(easy_p[rp])
    # the others: the Hungarian method, component by component, rows in position order
    hg, hp = gi[edge_hard], pi[edge_hard]
    w = factor(gold, pred, hg, hp)
    g_rank, p_rank = _position_rank(gold), _position_rank(pred)
    for c in np.unique(comp[hg]).tolist():
        here = comp[hg] == c
        eg, ep, ew = hg[here], hp[here], w[here]
        rows = np.unique(eg)
        rows = rows[np.argsort(g_rank[rows])]
        cols = np.unique(ep)
        cols = cols[np.argsort(p_rank[cols])]
        matrix = np.zeros((len(rows), len(cols)))
        matrix[_index(rows, eg), _index(cols, ep)] = ew
        for a, b in _hungarian(matrix):
            if matrix[a, b] > 0:
                out_g.append(np.array([rows[a]], dtype=np.int64))
                out_p.append(np.array([cols[b]], dtype=np.int64))
    if not out_g:
        return z, z
    return np.concatenate(out_g).astype(np.int64), np.concatenate(out_p).astype(np.int64)


def _index(order: IntArray, values: IntArray) -> IntArray:
    """The position in ``order`` (distinct values) of each of ``values``."""
    pos = np.empty(int(order.max()) + 1, dtype=np.int64)
    pos[order] = np.arange(len(order), dtype=np.int64)
    return pos[values]


def fragment_pairs(
    gold: EntityColumns, pred: EntityColumns, *, optimal: bool, merge: bool,
    doc_ids: Sequence[str] | None,
) -> tuple[EntityColumns, EntityColumns, IntArray, IntArray, IntArray, IntArray,
           dict[str, int]]:
    """The overlap matcher's pairs when some entity is discontinuous (labels unified).

    Returns both sides (merged when ``merge``), the exact pairs, the partial
    pairs and the numbers merged away per side (the notes on them:
    :func:`~nerscore.matching.overlap.overlap_notes`).
    """
    merged = {"gold": 0, "pred": 0}
    sides = {"gold": gold, "pred": pred}
    for key, name in (("gold", "gold"), ("pred", "predicted")):
        side = sides[key]
        i, j = _conflicts(side)
        if len(i):
            if not merge:
                raise conflict_error(side, name, np.concatenate([i, j]), doc_ids, by_fragments=True)
            sides[key], merged[key] = _merge(side, i, j)
    gold, pred = sides["gold"], sides["pred"]
    # 1. exact matches: the same fragments (a multiset, zero-length spans included)
    kg, kp = row_keys(gold, pred)
    exact_g, exact_p = multiset_pairs(kg, kp)
    # 2.-3. the remaining spans of positive length
    g_left = gold.start < gold.end
    g_left[exact_g] = False
    p_left = pred.start < pred.end
    p_left[exact_p] = False
    gi, pi, _ = candidate_pairs(gold, pred, same_label=True)
    keep = g_left[gi] & p_left[pi]
    gi, pi = gi[keep], pi[keep]
    part_g, part_p = _optimal(gold, pred, gi, pi) if optimal else _walk(gold, pred, gi, pi)
    return gold, pred, exact_g, exact_p, part_g, part_p, merged
