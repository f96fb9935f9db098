"""``overlap`` matching (docs/matchers/overlap.md): partial-overlap credit with a stimulation factor.

**Definition.** The method of S. Sotnyk, "Yet another way of NER systems
evaluation" (loio-metrics), for character spans. Every label is evaluated on
its own (nested entities of *different* labels are normal). For each
(document, label), with gold spans ``E`` and predicted spans ``A`` and a
stimulation factor ``s`` in ``[0, 1]``:

1. spans equal on both sides are exact matches (zero-length ones included);
2. the remaining zero-length spans get no partial credit;
3. the remaining predictions are walked in order of start; a prediction ``a``
   whose still-available overlapping gold spans ``T`` are not empty earns
   ``factor = |a ∩ e1| / max(|a|, |e1|)`` with ``e1`` the first span of
   ``T``, and *every* span of ``T`` becomes unavailable;
4. ``TP = exact + s · Σ factor``, ``FP = |A| − TP``, ``FN = |E| − TP``.

**Worked example** (the article's contract parties, ``s = 0.75``): gold
``[190, 346) [351, 473)``, predicted ``[0, 86) [190, 325) [330, 346)
[351, 473)`` → one exact match; ``[190, 325)`` earns ``135/156``; TP
1.649038, P 0.412260, R 0.824519, F1 0.549679.

**Limitations.** Within one label and one side, spans must not overlap
(touching is fine); the greedy walk favours the earliest prediction, which
``assignment="optimal"`` replaces by a one-to-one matching maximising the
sum of factors.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from nerscore._enum import OptionEnum
from nerscore.counts import Counts
from nerscore.errors import InvalidSpanError, option_error
from nerscore.matching.alignment import MatchResult
from nerscore.matching.candidates import alignment_from_pairs, group_keys
from nerscore.matching.exact import multiset_pairs
from nerscore.matching.registry import Matcher, Option
from nerscore.types import EntityColumns, unify_labels

__all__ = ["MATCHER", "Assignment", "Overlapping", "check_s", "match_overlap"]

IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]
BoolArray = npt.NDArray[np.bool_]

_MAX_LISTED = 8  # offending spans shown in an error message


class Assignment(OptionEnum):
    """How partial matches are assigned (``assignment=``)."""

    GREEDY = "greedy"
    OPTIMAL = "optimal"


class Overlapping(OptionEnum):
    """What to do with overlapping spans of one label on one side (``overlapping=``)."""

    ERROR = "error"
    MERGE = "merge"


def check_s(s: object) -> float:
    """Validate the stimulation factor ``s``."""
    if isinstance(s, (int, float, np.integer, np.floating)) and not isinstance(s, bool):
        value = float(s)
        if 0.0 <= value <= 1.0:  # NaN fails too
            return value
    raise option_error("s", "a number in [0, 1]", s)


# --------------------------------------------------------------------------- keys


def _sorted_positive(ks: IntArray, ke: IntArray) -> IntArray:
    """Rows of positive length, sorted by packed start key (stable)."""
    nz = np.flatnonzero(ks < ke)
    return nz[np.argsort(ks[nz], kind="stable")]


def _overlaps_earlier(order: IntArray, ks: IntArray, ke: IntArray) -> BoolArray:
    """Flag each row of ``order`` that overlaps an earlier row of its group.

    Packed keys embed the group, so one running maximum of end keys over the
    whole sorted array restarts at every group by itself.
    """
    c = np.zeros(len(order), dtype=bool)
    if len(order) > 1:
        run_max = np.maximum.accumulate(ke[order])
        c[1:] = ks[order][1:] < run_max[:-1]
    return c


# --------------------------------------------------------------------------- validation


def _describe_conflicts(
    side: EntityColumns, name: str, order: IntArray, conflict: BoolArray
) -> InvalidSpanError:
    """The error for overlapping spans: the first document's spans, plus totals."""
    cluster = np.cumsum(~conflict) - 1
    size = np.bincount(cluster)
    rows = order[size[cluster] > 1]
    docs = np.unique(side.seq[rows])
    doc = int(docs[0])
    here = np.sort(rows[side.seq[rows] == doc])
    here = here[np.lexsort((side.end[here], side.start[here], side.label[here]))]
    spans = [
        (int(side.start[r]), int(side.end[r]), side.labels[int(side.label[r])]) for r in here
    ]
    shown = ", ".join(f"[{a}, {b}) {lab}" for a, b, lab in spans[:_MAX_LISTED])
    if len(spans) > _MAX_LISTED:
        shown += f" and {len(spans) - _MAX_LISTED} more"
    total = ""
    if len(docs) > 1:
        total = f" In all, {len(rows)} {name} spans in {len(docs)} documents overlap."
    return InvalidSpanError(
        f"Overlapping {name} spans of the same label in document {doc}: {shown}. "
        f"The overlap matcher needs the {name} spans of one label to be disjoint "
        "(touching is fine); fix or remove them, or pass overlapping='merge' to glue "
        f"overlapping spans into one.{total}",
        document=doc,
        spans=spans,
    )


def _merge(side: EntityColumns, order: IntArray, conflict: BoolArray) -> EntityColumns:
    """Glue every chain of overlapping spans into one span (the first row keeps it)."""
    first_pos = np.flatnonzero(~conflict)
    end = side.end.copy()
    end[order[first_pos]] = np.maximum.reduceat(side.end[order], first_pos)
    keep = np.ones(len(side), dtype=bool)
    keep[order[conflict]] = False
    return EntityColumns(
        side.seq[keep], side.start[keep], end[keep], side.label[keep], side.labels,
        side.n_sequences,
    )


# --------------------------------------------------------------------------- assignment


def _factor(
    gold: EntityColumns, pred: EntityColumns, gi: IntArray, pi: IntArray
) -> FloatArray:
    """``|a ∩ e| / max(|a|, |e|)`` for each pair (all of positive length)."""
    gs, ge, ps, pe = gold.start[gi], gold.end[gi], pred.start[pi], pred.end[pi]
    inter = np.minimum(ge, pe) - np.maximum(gs, ps)
    return np.asarray(inter / np.maximum(ge - gs, pe - ps), dtype=np.float64)


def _greedy(
    g_rows: IntArray, gs: IntArray, ge: IntArray,
    p_rows: IntArray, ps: IntArray, pe: IntArray,
) -> tuple[IntArray, IntArray]:
    """The article's walk, in closed form.

    Spans of one side and group are disjoint and sorted by start, so their
    ends are sorted too. A gold span is still available when a prediction
    reaches it iff no earlier prediction overlapped it, so every gold span is
    consumed by the *first* prediction that overlaps it: ``first(e)``. A
    prediction ``a`` is credited iff some gold has ``first(e) == a``, against
    the earliest such gold. ``first`` is one :func:`numpy.searchsorted`.
    """
    z = np.zeros(0, dtype=np.int64)
    if len(p_rows) == 0 or len(g_rows) == 0:
        return z, z
    k = np.searchsorted(pe, gs, side="right")  # first prediction ending after e starts
    kc = np.minimum(k, len(p_rows) - 1)
    ok = (k < len(p_rows)) & (ps[kc] < ge)  # ... and starting before e ends
    ei = np.flatnonzero(ok)
    f = k[ei]  # non-decreasing
    first = np.ones(len(f), dtype=bool)
    first[1:] = f[1:] != f[:-1]
    return g_rows[ei[first]], p_rows[f[first]]


def _optimal(
    gold: EntityColumns, pred: EntityColumns,
    g_rows: IntArray, gs: IntArray, ge: IntArray,
    p_rows: IntArray, ps: IntArray, pe: IntArray,
) -> tuple[IntArray, IntArray]:
    """One-to-one matching of maximum total factor.

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
    w = _factor(gold, pred, g_rows[ee], p_rows[ea])

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


# --------------------------------------------------------------------------- matcher


def match_overlap(
    gold: EntityColumns,
    pred: EntityColumns,
    *,
    s: float = 0.75,
    assignment: str | Assignment = "greedy",
    overlapping: str | Overlapping = "error",
) -> MatchResult:
    """Match character spans with partial-overlap credit (the "Loio" method, docs/matchers/overlap.md).

    Parameters
    ----------
    gold, pred : EntityColumns
        Gold and predicted spans; ``seq`` is the document index.
    s : float
        Stimulation factor in ``[0, 1]``: the weight of partial credit.
        ``s=0`` is exact matching; ``s=1`` credits overlap without penalty.
    assignment : {"greedy", "optimal"}
        ``"greedy"`` is the article's walk over predictions in order of
        start. ``"optimal"`` pairs the remaining spans one-to-one so that the
        sum of factors is largest (exact matches are still taken first and
        zero-length spans still match only exactly).
    overlapping : {"error", "merge"}
        Overlapping spans of one label on one side raise an error (default),
        or are glued into one span first (``"merge"``; the number of merged
        spans is reported in ``extra["merged"]`` and ``extra["notes"]``).

    Returns
    -------
    MatchResult
        Counts with ``exact`` (exact matches), ``credit`` (``s · Σ factor``),
        ``n_pred = |A|`` and ``n_gold = |E|`` per label. The alignment pairs
        exact matches with credit 1.0 and credited partial matches with
        their ``s · factor`` (0.0 when ``s=0``); gold spans consumed without
        credit are missed, uncredited predictions are spurious. With
        ``overlapping="merge"`` the alignment refers to the merged spans.

    Raises
    ------
    InvalidSpanError
        When spans of one label overlap on one side and
        ``overlapping="error"``; the message lists the spans of the first
        such document.
    ValueError
        For ``s`` outside ``[0, 1]`` or an unknown option value.

    Notes
    -----
    ``TP = exact + s · Σ factor`` with ``factor = |a ∩ e1| / max(|a|, |e1|)``;
    ``FP = |A| − TP``, ``FN = |E| − TP``.

    Order: the article walks predictions "by start". Once validated, the
    positive-length spans of one label, side and document are disjoint, so
    their starts are distinct and there are no ties; ``e1`` is the
    available overlapping gold span with the smallest start. The result
    therefore does not depend on the order of documents or spans.

    The walk is computed without a loop: every gold span is consumed by the
    first prediction overlapping it, and a prediction is credited iff it is
    the first to overlap some gold span (against the earliest of those).

    Source: S. Sotnyk, "Yet another way of NER systems evaluation"
    (loio-metrics). ``assignment="optimal"`` goes beyond the article.

    Examples
    --------
    >>> from nerscore.types import EntityColumns
    >>> g = EntityColumns([0, 0], [190, 351], [346, 473], [0, 0], ("PARTY",))
    >>> p = EntityColumns([0] * 4, [0, 190, 330, 351], [86, 325, 346, 473], [0] * 4,
    ...                   ("PARTY",))
    >>> c = match_overlap(g, p).counts["PARTY"]
    >>> c.exact, round(c.tp, 6), round(c.fp, 6), round(c.fn, 6)
    (1, 1.649038, 2.350962, 0.350962)
    >>> round(match_overlap(g, p, s=1.0).counts["PARTY"].credit, 6)
    0.865385
    """
    s = check_s(s)
    how = Assignment.parse(assignment, name="assignment")
    policy = Overlapping.parse(overlapping, name="overlapping")
    gold, pred = unify_labels(gold, pred)
    extra: dict[str, Any] = {}

    gs, ge, ps, pe = group_keys(gold, pred, same_label=True)
    g_order, p_order = _sorted_positive(gs, ge), _sorted_positive(ps, pe)
    g_conf = _overlaps_earlier(g_order, gs, ge)
    p_conf = _overlaps_earlier(p_order, ps, pe)
    merged = {"gold": int(g_conf.sum()), "pred": int(p_conf.sum())}
    if merged["gold"] or merged["pred"]:
        if policy is Overlapping.ERROR:
            if merged["gold"]:
                raise _describe_conflicts(gold, "gold", g_order, g_conf)
            raise _describe_conflicts(pred, "predicted", p_order, p_conf)
        notes = []
        if merged["gold"]:
            n_before = len(gold)
            gold = _merge(gold, g_order, g_conf)
            notes.append(f"overlap: merged {merged['gold']} overlapping gold spans into "
                         f"their neighbours ({n_before} -> {len(gold)} gold spans).")
        if merged["pred"]:
            n_before = len(pred)
            pred = _merge(pred, p_order, p_conf)
            notes.append(f"overlap: merged {merged['pred']} overlapping predicted spans into "
                         f"their neighbours ({n_before} -> {len(pred)} predicted spans).")
        extra["merged"] = merged
        extra["notes"] = notes
        gs, ge, ps, pe = group_keys(gold, pred, same_label=True)
        g_order, p_order = _sorted_positive(gs, ge), _sorted_positive(ps, pe)

    # 1. exact matches: positive-length starts are unique per (document, label)
    sg_start = gs[g_order]
    pos = np.searchsorted(sg_start, ps[p_order])
    posc = np.minimum(pos, max(len(g_order) - 1, 0))
    hit = np.zeros(len(p_order), dtype=bool)
    if len(g_order):
        hit = (pos < len(g_order)) & (sg_start[posc] == ps[p_order]) & (
            ge[g_order][posc] == pe[p_order]
        )
    g_hit = np.zeros(len(g_order), dtype=bool)
    g_hit[pos[hit]] = True
    xg, xp = g_order[pos[hit]], p_order[hit]
    # ... and zero-length ones (a multiset: duplicates are allowed)
    gz, pz = np.flatnonzero(gs == ge), np.flatnonzero(ps == pe)
    zg, zp = multiset_pairs(gs[gz], ps[pz])
    exact_g = np.concatenate([xg, gz[zg]])
    exact_p = np.concatenate([xp, pz[zp]])

    # 2.-3. the remaining positive-length spans
    g_rows, p_rows = g_order[~g_hit], p_order[~hit]
    args = (g_rows, gs[g_rows], ge[g_rows], p_rows, ps[p_rows], pe[p_rows])
    if how is Assignment.GREEDY:
        part_g, part_p = _greedy(*args)
    else:
        part_g, part_p = _optimal(gold, pred, *args)
    part_credit = s * _factor(gold, pred, part_g, part_p)

    n_lab = len(gold.labels)
    counts = Counts(
        gold.labels,
        np.bincount(gold.label[exact_g], minlength=n_lab),
        np.bincount(pred.label, minlength=n_lab),
        np.bincount(gold.label, minlength=n_lab),
        np.bincount(gold.label[part_g], weights=part_credit, minlength=n_lab).astype(
            np.float64
        ),
    )
    alignment = alignment_from_pairs(
        gold, pred,
        np.concatenate([exact_g, part_g]).astype(np.int64),
        np.concatenate([exact_p, part_p]).astype(np.int64),
        np.concatenate([np.ones(len(exact_g)), part_credit]),
    )
    return MatchResult(counts, alignment, extra)


MATCHER = Matcher.on_entities(
    "overlap",
    "partial-overlap credit with a stimulation factor s (the Loio method)",
    match_overlap,
    options=(
        Option("s", 0.75, check_s, "stimulation factor in [0, 1]: the weight of partial credit"),
        Option("assignment", Assignment.GREEDY.value,
               lambda v: Assignment.parse(v, name="assignment").value,
               "'greedy' (the article's walk) or 'optimal' (largest sum of credit)"),
        Option("overlapping", Overlapping.ERROR.value,
               lambda v: Overlapping.parse(v, name="overlapping").value,
               "overlapping spans of one label on one side: 'error' or 'merge'"),
    ),
)
