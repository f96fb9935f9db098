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

**Compat.** ``compat="loio"`` reproduces the loio-metrics library's
``calc_counters_with_partial`` (a pointer walk that consumes one gold span
per prediction), quirks included (see :func:`match_overlap`).

**Discontinuous entities** (docs/fragments.md): the rule holds on fragment
sets — two spans overlap when their fragments share a unit, ``|a|`` is the
total length of a's fragments, and spans of one label on one side must not
share a unit (their extents may interleave). ``compat="loio"`` refuses
them.

**Limitations.** Within one label and one side, spans must not overlap
(touching is fine); the greedy walk favours the earliest prediction, which
``assignment="optimal"`` replaces by a one-to-one matching maximising the
sum of factors.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from nerscore.errors import InvalidSpanError, OptionError, option_error
from nerscore.matching._loio import pointer_walk
from nerscore.matching._overlap_fragments import (
    conflict_error,
    factor,
    fragment_pairs,
    optimal_pairs,
)
from nerscore.matching.alignment import MatchResult
from nerscore.matching.candidates import alignment_from_pairs, check_contiguous, group_keys
from nerscore.matching.exact import multiset_pairs
from nerscore.matching.registry import Matcher, Option, choice
from nerscore.values.counts import Counts
from nerscore.values.options import OptionEnum
from nerscore.values.spans import EntityColumns, unify_labels

if TYPE_CHECKING:
    from nerscore.decode.inputs import Prepared

__all__ = ["MATCHER", "Assignment", "Overlapping", "check_compat", "check_s", "match_overlap"]

IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]
BoolArray = npt.NDArray[np.bool_]

_COMPATS = ("loio",)


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


check_compat = choice("compat", (*_COMPATS, None))


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
    side: EntityColumns, name: str, order: IntArray, conflict: BoolArray,
    doc_ids: Sequence[str] | None,
) -> InvalidSpanError:
    """The error for overlapping spans: the rows of every chain of two or more."""
    cluster = np.cumsum(~conflict) - 1
    size = np.bincount(cluster)
    return conflict_error(side, name, order[size[cluster] > 1], doc_ids)


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


# --------------------------------------------------------------------------- compat="loio"


def _loio_pairs(
    gs: IntArray, ge: IntArray, ps: IntArray, pe: IntArray,
    exact_g: IntArray, exact_p: IntArray, p_rest: IntArray,
) -> tuple[IntArray, IntArray, IntArray]:
    """The loio-metrics walk after the exact matches: pairs, plus the lone zero-length predictions.

    Every gold span left (zero-length ones included) takes part, sorted by
    (start, end); of the predictions only those of positive length
    (``p_rest``, sorted by start). Zero-length predictions left over are
    returned apart: the library counts them as exact matches.
    """
    g_left = np.ones(len(gs), dtype=bool)
    g_left[exact_g] = False
    g_rows = np.flatnonzero(g_left)
    g_rows = g_rows[np.lexsort((ge[g_rows], gs[g_rows]))]
    wg, wp = pointer_walk(gs[g_rows], ge[g_rows], ps[p_rest], pe[p_rest])
    p_left = ps == pe
    p_left[exact_p] = False
    return g_rows[wg], p_rest[wp], np.flatnonzero(p_left).astype(np.int64)


# --------------------------------------------------------------------------- matcher


def match_overlap(
    gold: EntityColumns,
    pred: EntityColumns,
    *,
    s: float = 0.75,
    assignment: str | Assignment = "greedy",
    overlapping: str | Overlapping = "error",
    compat: str | None = None,
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
    compat : {None, "loio"}
        ``"loio"`` reproduces the loio-metrics library's
        ``calc_counters_with_partial`` instead of the article's rule, quirks
        included (see Notes). It needs ``assignment="greedy"``.

    Returns
    -------
    MatchResult
        Counts with ``exact`` (exact matches), ``credit`` (``s · Σ factor``),
        ``n_pred = |A|`` and ``n_gold = |E|`` per label. The alignment pairs
        exact matches with credit 1.0 and credited partial matches with
        their ``s · factor`` (0.0 when ``s=0``); gold spans consumed without
        credit are missed, uncredited predictions are spurious. With
        ``overlapping="merge"`` the alignment refers to the merged spans.
        With ``compat="loio"``, ``extra["compat"]`` is ``"loio"`` and
        ``extra["loio_unmatched_exact"]`` the number of zero-length
        predictions counted as exact without a partner (see Notes).

    Raises
    ------
    InvalidSpanError
        When spans of one label overlap on one side and
        ``overlapping="error"``; the message lists the spans of the first
        such document.
    OptionError
        For ``s`` outside ``[0, 1]``, an unknown option value, or
        ``compat="loio"`` with ``assignment="optimal"`` (a ``ValueError``).

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

    ``compat="loio"`` (per document and label, after the same validation or
    merging of overlapping spans):

    1. exact matches are the spans with equal start and end on both sides,
       as multisets, and are removed;
    2. the remaining predictions of positive length, by start, are walked
       once with a pointer into the remaining gold spans sorted by (start,
       end), zero-length gold included: gold spans that end at or before the
       prediction's start are skipped; if the gold span under the pointer
       starts before the prediction ends, the prediction earns
       ``|a ∩ e| / max(|a|, |e|)`` against it and the pointer moves on by
       *one*: other gold spans the prediction overlapped stay available;
    3. ``TP = exact + s · Σ factor``, ``FP = |A| − TP``, ``FN = |E| − TP``.

    Two quirks of the library are reproduced. (a) A zero-length prediction
    with no identical gold span takes no part in the walk and still counts
    as an exact match: ``exact`` grows by one although no gold span is
    found, so ``FN = |E| − TP`` is one lower than the gold spans actually
    missed, and can be negative (one such prediction and no gold: TP 1,
    FN −1). Such a prediction has no partner, so in the alignment it is
    spurious; ``extra["loio_unmatched_exact"]`` counts them (and a note says
    so), and the credits of the alignment add up to ``TP`` minus that
    count. (b) A zero-length gold span strictly inside a prediction can be
    the gold span under the pointer; it is then that prediction's partner
    with factor 0 (a pair with credit 0.0 in the alignment), and the
    prediction earns nothing. A zero-length gold span at a prediction's
    start is skipped, one at its end is not reached.

    The walk runs in closed form for the predictions whose only candidate
    gold span has no other candidate (always a pair); the rest, few on real
    data, go through one Python loop over all documents at once. Without
    zero-length spans, on spans where every prediction overlaps at most one
    gold span and vice versa, ``compat="loio"`` equals the default.

    Source: S. Sotnyk, "Yet another way of NER systems evaluation"
    (loio-metrics). ``assignment="optimal"`` goes beyond the article.

    Examples
    --------
    >>> from nerscore.values.spans import EntityColumns
    >>> g = EntityColumns([0, 0], [190, 351], [346, 473], [0, 0], ("PARTY",))
    >>> p = EntityColumns([0] * 4, [0, 190, 330, 351], [86, 325, 346, 473], [0] * 4,
    ...                   ("PARTY",))
    >>> c = match_overlap(g, p).counts["PARTY"]
    >>> c.exact, round(c.tp, 6), round(c.fp, 6), round(c.fn, 6)
    (1, 1.649038, 2.350962, 0.350962)
    >>> round(match_overlap(g, p, s=1.0).counts["PARTY"].credit, 6)
    0.865385

    The loio-metrics library credits ``(14,20)`` against ``(10,20)``, which
    the article's rule lets ``(0,12)`` consume:

    >>> g = EntityColumns([0, 0], [0, 10], [8, 20], [0, 0], ("X",))
    >>> p = EntityColumns([0, 0], [0, 14], [12, 20], [0, 0], ("X",))
    >>> round(match_overlap(g, p, s=1.0).counts["X"].tp, 6)
    0.666667
    >>> round(match_overlap(g, p, s=1.0, compat="loio").counts["X"].tp, 6)
    1.266667
    """
    return _match(gold, pred, s=s, assignment=assignment, overlapping=overlapping,
                  compat=compat)


def _match(
    gold: EntityColumns, pred: EntityColumns, *, s: float = 0.75,
    assignment: str | Assignment = "greedy", overlapping: str | Overlapping = "error",
    compat: str | None = None, doc_ids: Sequence[str] | None = None,
) -> MatchResult:
    """:func:`match_overlap`, naming documents by ``doc_ids`` in errors when given."""
    s = check_s(s)
    how = Assignment.parse(assignment, name="assignment")
    policy = Overlapping.parse(overlapping, name="overlapping")
    mode = check_compat(compat)
    if mode == "loio" and how is Assignment.OPTIMAL:
        raise OptionError(
            "compat='loio' reproduces the loio-metrics library's walk and cannot be combined "
            "with assignment='optimal'; use assignment='greedy' (the default) with it, or "
            "compat=None for the optimal assignment.",
            option="assignment",
        )
    gold, pred = unify_labels(gold, pred)
    extra: dict[str, Any] = {}
    if gold.fragments is not None or pred.fragments is not None:
        if mode == "loio":
            check_contiguous(gold, pred, "compat='loio'",
                             "the loio-metrics library scores contiguous spans")
        gold, pred, exact_g, exact_p, part_g, part_p, merged = fragment_pairs(
            gold, pred, optimal=how is Assignment.OPTIMAL,
            merge=policy is Overlapping.MERGE, doc_ids=doc_ids)
        if merged["gold"] or merged["pred"]:
            extra["merged"] = merged
        return _result(gold, pred, s, exact_g, exact_p, part_g, part_p,
                       np.zeros(0, dtype=np.int64), extra)

    gs, ge, ps, pe = group_keys(gold, pred, same_label=True)
    g_order, p_order = _sorted_positive(gs, ge), _sorted_positive(ps, pe)
    g_conf = _overlaps_earlier(g_order, gs, ge)
    p_conf = _overlaps_earlier(p_order, ps, pe)
    merged = {"gold": int(g_conf.sum()), "pred": int(p_conf.sum())}
    if merged["gold"] or merged["pred"]:
        if policy is Overlapping.ERROR:
            if merged["gold"]:
                raise _describe_conflicts(gold, "gold", g_order, g_conf, doc_ids)
            raise _describe_conflicts(pred, "predicted", p_order, p_conf, doc_ids)
        if merged["gold"]:
            gold = _merge(gold, g_order, g_conf)
        if merged["pred"]:
            pred = _merge(pred, p_order, p_conf)
        extra["merged"] = merged
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

    # 2.-3. the remaining spans
    g_rows, p_rows = g_order[~g_hit], p_order[~hit]
    lone = np.zeros(0, dtype=np.int64)  # compat="loio": zero-length predictions taken as exact
    if mode == "loio":
        part_g, part_p, lone = _loio_pairs(gs, ge, ps, pe, exact_g, exact_p, p_rows)
        extra["compat"] = "loio"
        extra["loio_unmatched_exact"] = len(lone)
    elif how is Assignment.GREEDY:
        args = (g_rows, gs[g_rows], ge[g_rows], p_rows, ps[p_rows], pe[p_rows])
        part_g, part_p = _greedy(*args)
    else:
        args = (g_rows, gs[g_rows], ge[g_rows], p_rows, ps[p_rows], pe[p_rows])
        part_g, part_p = optimal_pairs(gold, pred, *args)
    return _result(gold, pred, s, exact_g, exact_p, part_g, part_p, lone, extra)


def _result(
    gold: EntityColumns, pred: EntityColumns, s: float, exact_g: IntArray, exact_p: IntArray,
    part_g: IntArray, part_p: IntArray, lone: IntArray, extra: dict[str, Any],
) -> MatchResult:
    """Counts and alignment of the exact and partial pairs (``lone``: see compat="loio")."""
    part_credit = s * factor(gold, pred, part_g, part_p)

    n_lab = len(gold.labels)
    counts = Counts(
        gold.labels,
        np.bincount(gold.label[exact_g], minlength=n_lab)
        + np.bincount(pred.label[lone], minlength=n_lab),
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
    notes = overlap_notes(extra, counts)
    if notes:
        extra["notes"] = notes
    return MatchResult(counts, alignment, extra)


def overlap_notes(extra: Mapping[str, Any], counts: Counts) -> list[str]:
    """The notes on spans merged away and on compat='loio''s lone exact matches.

    Rebuilt from the result's ``extra`` and counts, so that they also hold
    for counts summed over batches (:class:`~nerscore.EntityScorer`).
    """
    notes = []
    merged = extra.get("merged", {})
    for key, name, left in (("gold", "gold", counts.n_gold), ("pred", "predicted", counts.n_pred)):
        n = int(merged.get(key, 0))
        if n:
            after = int(np.sum(left))
            notes.append(f"overlap: merged {n} overlapping {name} spans into their "
                         f"neighbours ({after + n} -> {after} {name} spans).")
    lone = int(extra.get("loio_unmatched_exact", 0))
    if lone:
        notes.append(
            f"overlap (compat='loio'): {lone} zero-length predicted span(s) with no "
            "identical gold span were counted as exact matches, as loio-metrics does; "
            "they have no partner and are listed as spurious in the alignment."
        )
    return notes


def _run(prep: Prepared, **options: Any) -> MatchResult:
    """The registry's ``run``: :func:`match_overlap`, naming documents by their ids."""
    return _match(prep.gold, prep.pred, doc_ids=prep.doc_ids, **options)


MATCHER = Matcher(
    "overlap",
    "partial-overlap credit with a stimulation factor s (the Loio method)",
    _run,
    options=(
        Option("s", 0.75, check_s, "stimulation factor in [0, 1]: the weight of partial credit"),
        Option("assignment", Assignment.GREEDY.value,
               lambda v: Assignment.parse(v, name="assignment").value,
               "'greedy' (the article's walk) or 'optimal' (largest sum of credit)",
               tuple(a.value for a in Assignment)),
        Option("overlapping", Overlapping.ERROR.value,
               lambda v: Overlapping.parse(v, name="overlapping").value,
               "overlapping spans of one label on one side: 'error' or 'merge'",
               tuple(o.value for o in Overlapping)),
        Option("compat", None, check_compat,
               "'loio' reproduces the loio-metrics library (calc_counters_with_partial)",
               _COMPATS),
    ),
    notes=overlap_notes,
)
