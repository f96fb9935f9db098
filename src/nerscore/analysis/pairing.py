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

__all__ = ["analysis_alignment", "pair_leftovers"]

IntArray = npt.NDArray[np.int64]


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
    gi, pi, ov = candidate_pairs(gold.take(g_rest), pred.take(p_rest))
    gi, pi = g_rest[gi], p_rest[pi]
    keep = ov > 0  # identical zero-length spans were paired by bounds already
    gi, pi, ov = gi[keep], pi[keep], ov[keep]
    order = lexsort((
        pi, gi, pred.label[pi], gold.label[gi], pred.end[pi], gold.end[gi],
        pred.start[pi], gold.start[gi], -ov, gold.label[gi] != pred.label[pi],
    ))
    gi, pi = gi[order], pi[order]
    taken = greedy_matching(gi, pi, len(gold), len(pred))
    og, op = gi[taken], pi[taken]
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
