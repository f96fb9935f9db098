"""``exact`` matching: same sequence, start, end and label (``docs/matchers/exact.md``).

Multiset semantics: a prediction duplicated twice against one gold entity is
one true positive and one false positive. ``labeled=False`` compares
boundaries only. The conlleval script, seqeval and spaCy's scorer all count
this way. Discontinuous entities match when their fragment sets are equal
(docs/fragments.md).
"""

from __future__ import annotations

import weakref
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from nerscore.errors import option_error
from nerscore.matching.alignment import Alignment, MatchResult
from nerscore.matching.registry import Matcher, Option
from nerscore.values.counts import Counts
from nerscore.values.fragments import fragment_keys
from nerscore.values.spans import EntityColumns, unify_labels

if TYPE_CHECKING:
    from nerscore.decode.inputs import Prepared

__all__ = ["boundary_alignment", "exact_counts", "match_exact", "multiset_pairs", "row_keys"]

IntArray = npt.NDArray[np.int64]


def row_keys(a: EntityColumns, b: EntityColumns, *, labeled: bool = True) -> tuple[IntArray, IntArray]:
    """One int64 key per row, equal iff (seq, start, end[, label]) and the fragments are equal."""
    if a.fragments is not None or b.fragments is not None:
        ka, kb = _extent_keys(a, b, labeled=labeled)
        fa, fb = fragment_keys(a, b)
        rows = np.stack([np.concatenate([ka, kb]), np.concatenate([fa, fb])], axis=1)
        _, inverse = np.unique(rows, axis=0, return_inverse=True)
        inverse = inverse.reshape(-1).astype(np.int64)
        return inverse[: len(a)], inverse[len(a):]
    return _extent_keys(a, b, labeled=labeled)


def _extent_keys(a: EntityColumns, b: EntityColumns, *,
                 labeled: bool) -> tuple[IntArray, IntArray]:
    """One int64 key per row, equal iff (seq, start, end[, label]) are equal."""
    n_lab = max(len(a.labels), 1) if labeled else 1
    hi = int(max(a.end.max(initial=0), b.end.max(initial=0))) + 1
    n_seq = int(max(a.seq.max(initial=0), b.seq.max(initial=0))) + 1
    if n_seq * hi * hi * n_lab < 2**62:
        def key(c: EntityColumns) -> IntArray:
            k = (c.seq * hi + c.start) * hi + c.end
            return k * n_lab + c.label if labeled else k
        return key(a), key(b)
    cols = ["seq", "start", "end"] + (["label"] if labeled else [])
    rows = np.concatenate([
        np.stack([getattr(a, c) for c in cols], axis=1),
        np.stack([getattr(b, c) for c in cols], axis=1),
    ])
    _, inverse = np.unique(rows, axis=0, return_inverse=True)
    inverse = inverse.reshape(-1).astype(np.int64)
    return inverse[: len(a)], inverse[len(a):]


def _strictly_increasing(k: IntArray) -> bool:
    return len(k) < 2 or bool((k[1:] > k[:-1]).all())


def multiset_pairs(kg: IntArray, kp: IntArray) -> tuple[IntArray, IntArray]:
    """Pair equal keys one-to-one (k-th occurrence with k-th occurrence).

    Pairs come in order of gold key. Keys that are already sorted and unique
    (what tag decoding produces) are paired with one binary search.
    """
    if _strictly_increasing(kg) and _strictly_increasing(kp):
        if len(kg) == 0 or len(kp) == 0:
            z = np.zeros(0, dtype=np.int64)
            return z, z
        pos = np.searchsorted(kp, kg)
        np.minimum(pos, len(kp) - 1, out=pos)
        hit = kp[pos] == kg
        return np.flatnonzero(hit).astype(np.int64), pos[hit].astype(np.int64)
    ng = len(kg)
    if ng == 0 or len(kp) == 0:
        z = np.zeros(0, dtype=np.int64)
        return z, z
    # one stable sort of both sides: equal keys form a run, gold rows first (in row
    # order), then predicted rows; the r-th gold row of a run pairs with its r-th
    # predicted row. (Timsort merges already sorted stretches in linear time.)
    both = np.concatenate([kg, kp])
    order = np.argsort(both, kind="stable")
    keys = both[order]
    eq = keys[1:] == keys[:-1]
    is_gold = order < ng
    if not (keys[2:] == keys[:-2]).any() and not (eq & (is_gold[1:] == is_gold[:-1])).any():
        at = np.flatnonzero(eq)  # no key twice on one side: equal neighbours are the pairs
        return order[at].astype(np.int64), (order[at + 1] - ng).astype(np.int64)
    head = np.ones(len(keys), dtype=bool)
    head[1:] = keys[1:] != keys[:-1]
    run_start = np.flatnonzero(head)
    run = np.cumsum(head) - 1
    n_gold_run = np.add.reduceat(is_gold.astype(np.int64), run_start)
    n_pred_run = np.diff(np.append(run_start, len(keys))) - n_gold_run
    rank = np.arange(len(keys)) - run_start[run]  # among the run's gold rows, for gold rows
    take = is_gold & (rank < n_pred_run[run])
    at = np.flatnonzero(take)
    gi = order[at]
    pi = order[at + n_gold_run[run[at]]] - ng
    return gi.astype(np.int64), pi.astype(np.int64)


def match_exact(
    gold: EntityColumns, pred: EntityColumns, *, labeled: bool = True
) -> MatchResult:
    """Match entities exactly; return counts and the alignment.

    Parameters
    ----------
    gold, pred : EntityColumns
        Both sides (label vocabularies are unified).
    labeled : bool
        Compare labels too (default). With ``False`` only boundaries count,
        and every count is reported under the gold label (predictions left
        unpaired under their own label).

    Returns
    -------
    MatchResult

    Examples
    --------
    >>> from nerscore.values.spans import EntityColumns
    >>> g = EntityColumns([0, 0], [0, 3], [2, 4], [0, 1], ("LOC", "PER"))
    >>> p = EntityColumns([0, 0], [0, 3], [2, 4], [0, 0], ("LOC", "PER"))
    >>> match_exact(g, p).counts.to_dict()
    {'LOC': {'tp': 1, 'n_pred': 2, 'n_gold': 1}, 'PER': {'tp': 0, 'n_pred': 0, 'n_gold': 1}}
    >>> match_exact(g, p, labeled=False).counts.to_dict()["PER"]
    {'tp': 1, 'n_pred': 1, 'n_gold': 1}
    """
    gold, pred = unify_labels(gold, pred)
    kg, kp = row_keys(gold, pred, labeled=labeled)
    gi, pi = multiset_pairs(kg, kp)
    n_lab = len(gold.labels)
    tp = np.bincount(gold.label[gi], minlength=n_lab)
    n_gold = np.bincount(gold.label, minlength=n_lab)
    n_pred_rows = pred.label.copy()
    if not labeled:  # a paired prediction counts under its gold label
        n_pred_rows[pi] = gold.label[gi]
    n_pred = np.bincount(n_pred_rows, minlength=n_lab)
    counts = Counts(gold.labels, tp, n_pred, n_gold)
    g_used = np.zeros(len(gold), dtype=bool)
    g_used[gi] = True
    p_used = np.zeros(len(pred), dtype=bool)
    p_used[pi] = True
    alignment = Alignment(
        gold, pred, gi, pi, np.ones(len(gi)), np.flatnonzero(~g_used), np.flatnonzero(~p_used)
    )
    if labeled:
        _LABELED.add(alignment)
    return MatchResult(counts, alignment)


#: The alignments :func:`match_exact` made with ``labeled=True`` (while they live):
#: alignments are immutable, so the analysis pairing of one of them
#: (:func:`boundary_alignment` on its columns) starts from it instead of matching again.
_LABELED: weakref.WeakSet[Alignment] = weakref.WeakSet()


def exact_counts(gold: EntityColumns, pred: EntityColumns) -> Counts:
    """Counts of :func:`match_exact` (labeled) without building the alignment."""
    gold, pred = unify_labels(gold, pred)
    kg, kp = row_keys(gold, pred)
    gi, _ = multiset_pairs(kg, kp)
    n_lab = len(gold.labels)
    return Counts(
        gold.labels,
        np.bincount(gold.label[gi], minlength=n_lab),
        np.bincount(pred.label, minlength=n_lab),
        np.bincount(gold.label, minlength=n_lab),
    )


def boundary_alignment(gold: EntityColumns, pred: EntityColumns) -> Alignment:
    """Pair entities with identical bounds, same-label pairs first.

    Same (sequence, start, end, label) entities are paired first, exactly as
    exact matching pairs them; the remaining entities with identical bounds
    are then paired across labels (each bound's leftovers in label order, so
    the result does not depend on input order). Hence the same-label pairs
    are exactly the true positives of exact matching.

    Parameters
    ----------
    gold, pred : EntityColumns
        Both sides.

    Returns
    -------
    Alignment
        ``credit`` is 1.0 for same-label pairs and 0.0 for the others.

    Examples
    --------
    >>> from nerscore.values.spans import EntityColumns
    >>> g = EntityColumns([0, 0], [0, 0], [2, 2], [0, 1], ("A", "B"))
    >>> p = EntityColumns([0, 0], [0, 3], [2, 4], [1, 0], ("A", "B"))
    >>> a = boundary_alignment(g, p)
    >>> a.pairs_gold.tolist(), a.pairs_pred.tolist(), a.missed.tolist(), a.spurious.tolist()
    ([1], [0], [0], [1])
    """
    gold, pred = unify_labels(gold, pred)
    first = match_exact(gold, pred, labeled=True).alignment
    assert first is not None
    return _add_boundary_pairs(first)


def _add_boundary_pairs(first: Alignment) -> Alignment:
    """:func:`boundary_alignment` from its first step, the labeled :func:`match_exact` alignment."""
    found = _unique_bounds_pairs(first)
    g_new, p_new, g_left, p_left = found if found is not None else _label_ordered_pairs(first)
    credit = np.concatenate([np.ones(len(first.pairs_gold)), np.zeros(len(g_new))])
    return Alignment(
        first.gold, first.pred,
        np.concatenate([first.pairs_gold, g_new]).astype(np.int64),
        np.concatenate([first.pairs_pred, p_new]).astype(np.int64), credit,
        np.sort(g_left).astype(np.int64), np.sort(p_left).astype(np.int64),
    )


#: What each path of :func:`_add_boundary_pairs` finds: the gold and predicted rows of the
#: new (cross-label) pairs, in order, then the gold and predicted rows left unpaired.
_BoundaryPairs = tuple[IntArray, IntArray, IntArray, IntArray]


def _label_ordered_pairs(first: Alignment) -> _BoundaryPairs:
    """:func:`_add_boundary_pairs` for any leftovers: each bound's leftovers in label order."""
    gold, pred = first.gold, first.pred
    g_rest = first.missed[np.argsort(gold.label[first.missed], kind="stable")]
    p_rest = first.spurious[np.argsort(pred.label[first.spurious], kind="stable")]
    second = match_exact(gold.take(g_rest), pred.take(p_rest), labeled=False).alignment
    assert second is not None
    return (g_rest[second.pairs_gold], p_rest[second.pairs_pred], g_rest[second.missed],
            p_rest[second.spurious])


def _unique_bounds_pairs(first: Alignment) -> _BoundaryPairs | None:
    """:func:`_add_boundary_pairs` when no two leftovers of one side share their bounds.

    Returns None when an entity has several fragments, or when the leftovers'
    (sequence, start, end) keys do not grow strictly along their rows on both
    sides (the general path answers). When they do, every bound has at most
    one leftover per side, so the label order of the general path picks
    nothing: the pairs are the bounds both sides have, in the order of the
    bounds, as the general path gives them.
    """
    gold, pred = first.gold, first.pred
    if gold.fragments is not None or pred.fragments is not None:
        return None
    gm, ps = first.missed, first.spurious
    if len(gm) == 0 or len(ps) == 0:
        gi = pi = np.zeros(0, dtype=np.int64)
    else:
        # bounds over whole columns: a larger bound keeps the keys' order and equality
        hi = int(max(gold.end.max(), pred.end.max())) + 1
        n_seq = int(max(gold.seq.max(), pred.seq.max())) + 1
        low = min(gold.seq.min(), gold.start.min(), gold.end.min(),
                  pred.seq.min(), pred.start.min(), pred.end.min())
        if n_seq * hi * hi >= 2**62 or low < 0:
            return None
        kg = (gold.seq[gm] * hi + gold.start[gm]) * hi + gold.end[gm]
        kp = (pred.seq[ps] * hi + pred.start[ps]) * hi + pred.end[ps]
        if not (_strictly_increasing(kg) and _strictly_increasing(kp)):
            return None
        gi, pi = multiset_pairs(kg, kp)  # sorted, unique keys: one binary search
    g_left = np.ones(len(gm), dtype=bool)
    g_left[gi] = False
    p_left = np.ones(len(ps), dtype=bool)
    p_left[pi] = False
    return gm[gi], ps[pi], gm[g_left], ps[p_left]


def _parse_labeled(value: object) -> bool:
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    raise option_error("labeled", "a bool", value)


def _count(prep: Prepared, *, labeled: bool) -> Counts:
    if labeled:
        return exact_counts(prep.gold, prep.pred)
    return match_exact(prep.gold, prep.pred, labeled=False).counts


def _analysis(alignment: Alignment) -> Alignment:
    if alignment in _LABELED:  # boundary_alignment's first step on the same columns
        return _add_boundary_pairs(alignment)
    return boundary_alignment(alignment.gold, alignment.pred)


MATCHER = Matcher.on_entities(
    "exact",
    "same sequence, start, end and label (conlleval, seqeval, spaCy)",
    match_exact,
    options=(Option("labeled", True, _parse_labeled,
                    "labeled=False compares boundaries only, not labels",
                    flag_name="unlabeled"),),
    count=_count,
    analysis=_analysis,
)
