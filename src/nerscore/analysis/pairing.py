"""The one pairing of gold and predicted entities that every analysis view reads.

The confusion matrix (:mod:`~nerscore.analysis.confusion`), the error
listing (:mod:`~nerscore.analysis.errors`), the HTML error browser and the
``confused_labels`` diagnostic all read :func:`analysis_alignment`, so a
gold entity has the same partner (or none) in every view:

1. the matcher's own pairing (its registry entry's ``analysis``; for
   ``"exact"``: identical bounds, same-label pairs first, then identical
   bounds across labels);
2. then the entities it left unpaired are paired one-to-one with
   overlapping ones of the same sequence, in this order of preference: any
   overlap with the same label, then any overlap; inside a class, larger
   overlap first, then earlier gold start, then earlier predicted start (the
   priorities of the SemEval ``strict`` alignment,
   ``docs/matchers/semeval.md``). These pairs get credit 0.

So a prediction that overlaps a gold entity is never counted as a miss and
a spurious prediction in one view and as a pair in another, whichever
matcher scored the report.

Step 2 takes one of two paths with the same pairs, chosen by the data: when
no two leftovers of one side overlap (entities decoded from tags), one sweep
over both sides in position order (:func:`flat_leftover_pairs`); otherwise
the general candidate search (:func:`leftover_pairs`).
"""

from __future__ import annotations

import weakref

import numpy as np
import numpy.typing as npt

from nerscore.errors import OptionError
from nerscore.matching.alignment import Alignment
from nerscore.matching.candidates import candidate_pairs, greedy_matching
from nerscore.matching.registry import get_matcher
from nerscore.values.order import lexsort
from nerscore.values.spans import EntityColumns

__all__ = ["analysis_alignment", "flat_leftover_pairs", "leftover_pairs", "pair_leftovers"]

IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]


def pair_leftovers(base: Alignment) -> Alignment:
    """``base`` with its unpaired entities paired one-to-one with overlapping ones.

    Parameters
    ----------
    base : Alignment
        Any alignment; its pairs are kept as they are.

    Returns
    -------
    Alignment
        ``base``'s pairs, then the new pairs (credit 0); ``missed`` and
        ``spurious`` hold what is still unpaired.

    Examples
    --------
    >>> from nerscore.values.spans import EntityColumns
    >>> from nerscore.matching.exact import boundary_alignment
    >>> g = EntityColumns([0, 0], [0, 5], [4, 9], [0, 1], ("LOC", "ORG"))
    >>> p = EntityColumns([0, 0], [0, 6], [4, 9], [0, 0], ("LOC", "ORG"))
    >>> a = pair_leftovers(boundary_alignment(g, p))
    >>> a.pairs_gold.tolist(), a.pairs_pred.tolist(), a.credit.tolist()
    ([0, 1], [0, 1], [1.0, 0.0])
    """
    gold, pred = base.gold, base.pred
    g_rest, p_rest = base.missed, base.spurious
    found = flat_leftover_pairs(gold, pred, g_rest, p_rest)
    og, op = found if found is not None else leftover_pairs(gold, pred, g_rest, p_rest)
    g_paired = np.zeros(len(gold), dtype=bool)
    g_paired[og] = True
    p_paired = np.zeros(len(pred), dtype=bool)
    p_paired[op] = True
    return Alignment(
        gold, pred,
        np.concatenate([base.pairs_gold, og]).astype(np.int64),
        np.concatenate([base.pairs_pred, op]).astype(np.int64),
        np.concatenate([base.credit, np.zeros(len(og))]).astype(np.float64),
        g_rest[~g_paired[g_rest]].astype(np.int64),
        p_rest[~p_paired[p_rest]].astype(np.int64),
    )


def leftover_pairs(
    gold: EntityColumns, pred: EntityColumns, g_rest: IntArray, p_rest: IntArray
) -> tuple[IntArray, IntArray]:
    """The new pairs of :func:`pair_leftovers`, for any entities (the general path).

    Parameters
    ----------
    gold, pred : EntityColumns
        Both sides, coded against one label vocabulary.
    g_rest, p_rest : array of int
        The unpaired rows of each side.

    Returns
    -------
    og, op : array of int
        Gold and predicted rows of each new pair, best first: every
        overlapping pair is sorted by the order of preference (the module
        docstring; then bounds, labels and rows, so no two tie) and taken
        when neither of its entities is taken yet.
    """
    gi, pi, ov = candidate_pairs(gold.take(g_rest), pred.take(p_rest))
    gi, pi = g_rest[gi], p_rest[pi]
    keep = ov > 0  # identical zero-length spans were paired by bounds already
    gi, pi, ov = gi[keep], pi[keep], ov[keep]
    order = _preference(gold, pred, gi, pi, ov)
    gi, pi = gi[order], pi[order]
    taken = greedy_matching(gi, pi, len(gold), len(pred))
    return gi[taken], pi[taken]


def _preference(
    gold: EntityColumns, pred: EntityColumns, gi: IntArray, pi: IntArray, ov: IntArray
) -> IntArray:
    """The order of preference of pairs ``(gi, pi)`` of overlap ``ov``, best first."""
    return lexsort((
        pi, gi, pred.label[pi], gold.label[gi], pred.end[pi], gold.end[gi],
        pred.start[pi], gold.start[gi], -ov, gold.label[gi] != pred.label[pi],
    ))


def _flat_side(cols: EntityColumns, rows: IntArray, width: int) -> tuple[IntArray, IntArray, IntArray] | None:
    """``rows`` of positive length in position order, with their start and end keys.

    A key is ``seq * width + offset``. Returns None unless the rows are flat:
    no two of them overlap (in position order, each ends at or before the
    next one's start).
    """
    rows = rows[cols.start[rows] < cols.end[rows]]  # a zero-length span overlaps nothing
    base = cols.seq[rows] * width
    start = base + cols.start[rows]
    end = base + cols.end[rows]
    if len(rows) > 1 and not bool((start[1:] >= start[:-1]).all()):
        order = np.argsort(start, kind="stable")
        rows, start, end = rows[order], start[order], end[order]
    if len(rows) > 1 and not bool((end[:-1] <= start[1:]).all()):
        return None
    return rows, start, end


def flat_leftover_pairs(
    gold: EntityColumns, pred: EntityColumns, g_rest: IntArray, p_rest: IntArray
) -> tuple[IntArray, IntArray] | None:
    """:func:`leftover_pairs` by one sweep, when neither side's leftovers overlap each other.

    Parameters
    ----------
    gold, pred : EntityColumns
        Both sides, coded against one label vocabulary.
    g_rest, p_rest : array of int
        The unpaired rows of each side.

    Returns
    -------
    (og, op) or None
        The pairs of :func:`leftover_pairs`, in its order; None when an
        entity has several fragments or two leftovers of one side overlap
        (then :func:`leftover_pairs` answers).

    Notes
    -----
    Entities decoded from tags are flat. When both sides' leftovers are flat
    (ignoring zero-length ones, which overlap nothing), the gold entities a
    prediction overlaps are a run of consecutive gold entities in position
    order (two binary searches find it), and two consecutive predictions
    share at most one gold entity (and the other way round). Listing the
    pairs prediction by prediction therefore lists them in position order,
    where the pairs of one gold entity, and those of one prediction, are
    consecutive.

    The greedy choice of :func:`leftover_pairs` takes a pair iff no pair it
    shares an entity with and that comes before it is taken; so only the
    order of pairs sharing an entity matters. Two pairs sharing a gold entity
    have the same gold start and differ in predicted start (flat, positive
    length), two sharing a prediction the other way round; either way the
    order of preference compares label agreement, then overlap, then the
    other entity's start, which grows along the position order. So the packed
    key ``(label differs, -overlap, position)`` orders every two such pairs
    as the preference does, and no two pairs tie. A pair that comes first
    among the remaining pairs of its gold entity and of its prediction is
    taken by the greedy pass too; those are found for all runs at once, round
    after round, and when rounds take few pairs the rest go through one
    plain loop in key order. The taken pairs are finally sorted by the whole
    order of preference.

    Examples
    --------
    >>> from nerscore.values.spans import EntityColumns
    >>> g = EntityColumns([0, 0], [0, 5], [4, 9], [0, 1], ("LOC", "ORG"))
    >>> p = EntityColumns([0, 0, 0], [2, 4, 7], [4, 6, 9], [1, 1, 0], ("LOC", "ORG"))
    >>> og, op = flat_leftover_pairs(g, p, np.arange(2), np.arange(3))
    >>> og.tolist(), op.tolist()
    ([1, 0], [1, 0])
    >>> flat_leftover_pairs(g, g, np.arange(2), np.array([0, 0])) is None  # overlapping rows
    True
    """
    if gold.fragments is not None or pred.fragments is not None:
        return None
    z = np.zeros(0, dtype=np.int64)
    if len(g_rest) == 0 or len(p_rest) == 0:
        return z, z
    # bounds over whole columns: a larger width keeps the keys' order
    if min(gold.seq.min(), pred.seq.min(), gold.start.min(), pred.start.min()) < 0:
        return None
    width = int(max(gold.end.max(), pred.end.max())) + 1
    n_seq = int(max(gold.seq.max(), pred.seq.max())) + 1
    if n_seq * width >= 2**62:
        return None
    g_side = _flat_side(gold, g_rest, width)
    p_side = _flat_side(pred, p_rest, width)
    if g_side is None or p_side is None:
        return None
    g_rows, gs, ge = g_side
    p_rows, ps, pe = p_side
    # the gold entities that overlap prediction j: those ending after it starts and
    # starting before it ends, rows lo[j] to hi[j] - 1 (ends grow with starts)
    lo = np.searchsorted(ge, ps, side="right")
    n = np.maximum(np.searchsorted(gs, pe, side="left") - lo, 0)
    ej = np.repeat(np.arange(len(p_rows), dtype=np.int64), n)
    if len(ej) == 0:
        return z, z
    ei = np.arange(len(ej), dtype=np.int64) - np.repeat(np.cumsum(n) - n - lo, n)
    gi, pi = g_rows[ei], p_rows[ej]
    ov = np.minimum(gold.end[gi], pred.end[pi]) - np.maximum(gold.start[gi], pred.start[pi])
    worst = int(ov.max()) + 1
    if 2 * worst * len(ej) >= 2**62:
        return None
    differ = gold.label[gi] != pred.label[pi]
    key = (differ * worst + (worst - 1 - ov)) * len(ej) + np.arange(len(ej))
    taken = _greedy_runs(ei, ej, key, len(g_rows), len(p_rows))
    gi, pi, ov = gi[taken], pi[taken], ov[taken]
    order = _preference(gold, pred, gi, pi, ov)
    return gi[order], pi[order]


def _greedy_runs(
    ei: IntArray, ej: IntArray, key: IntArray, n_g: int, n_p: int, *, small: int = 64
) -> BoolArray:
    """Greedy one-to-one choice of edges ``(ei, ej)``, smallest ``key`` first.

    The edges are in position order (``ei`` and ``ej`` never decrease), the
    keys are distinct. While more than ``small`` edges are left, each round
    takes every edge whose key is the smallest of its gold run and of its
    predicted run among the edges left, then drops the edges that share an
    entity with a taken one; the rest go through :func:`greedy_matching` in
    key order.
    """
    taken = np.zeros(len(ei), dtype=bool)
    used_g = np.zeros(n_g, dtype=bool)
    used_p = np.zeros(n_p, dtype=bool)
    alive = np.arange(len(ei), dtype=np.int64)
    while len(alive) > small:
        ga, pa, ka = ei[alive], ej[alive], key[alive]
        best = np.ones(len(alive), dtype=bool)
        for node in (ga, pa):
            head = np.flatnonzero(np.concatenate(([True], node[1:] != node[:-1])))
            low = np.minimum.reduceat(ka, head)
            best &= ka == np.repeat(low, np.diff(np.append(head, len(ka))))
        chosen = alive[best]
        taken[chosen] = True
        used_g[ei[chosen]] = True
        used_p[ej[chosen]] = True
        before = len(alive)
        alive = alive[~(used_g[ga] | used_p[pa])]
        if 8 * (before - len(alive)) < before:  # progress is slow: finish sequentially
            break
    # the edges left touch no taken entity: the plain greedy pass over them, best first
    alive = alive[np.argsort(key[alive])]
    taken[alive] = greedy_matching(ei[alive], ej[alive], n_g, n_p)
    return taken


def analysis_alignment(match: str, alignment: Alignment | None) -> Alignment:
    """The pairing that every analysis view reads for a report of matcher ``match``.

    Parameters
    ----------
    match : str
        The matcher that produced ``alignment``.
    alignment : Alignment or None
        The matcher's alignment (``Report.alignment``).

    Returns
    -------
    Alignment
        The matcher's analysis pairing, then overlapping leftovers paired
        (see the module docstring).

    Raises
    ------
    OptionError
        When there is no alignment (``match="token"``).

    Examples
    --------
    >>> import nerscore
    >>> r = nerscore.evaluate([[(0, 10, "LOC")]], [[(2, 10, "ORG")]], match="threshold",
    ...                       zero_division=0.0)
    >>> a = analysis_alignment(r.match, r.alignment)
    >>> a.pairs_gold.tolist(), a.pairs_pred.tolist(), a.missed.tolist(), a.spurious.tolist()
    ([0], [0], [], [])
    """
    if alignment is None:
        raise OptionError(
            f"match={match!r} does not pair entities: it has no entity alignment, so no "
            "confusion matrix and no error listing; use an entity matcher such as "
            "match='exact'."
        )
    global _last
    last = _last
    if last is not None and last[0] == match and last[1]() is alignment:
        return last[2]  # the views of one report (confusion, errors, page) pair it once
    paired = pair_leftovers(get_matcher(match).analysis(alignment))
    _last = (match, weakref.ref(alignment, _forget), paired)
    return paired


#: The last pairing made, with its matcher and (weakly) its alignment: alignments are
#: immutable, and the pairing is let go with the alignment it was made from.
_last: tuple[str, weakref.ref[Alignment], Alignment] | None = None


def _forget(ref: weakref.ref[Alignment]) -> None:
    global _last
    if _last is not None and _last[1] is ref:
        _last = None
