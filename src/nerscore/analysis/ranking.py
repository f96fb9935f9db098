"""Scored predictions in score order, each marked correct or not: what every curve reads.

A threshold keeps the predictions scored at or above it. Which of them are
true positives is decided by **score-ordered greedy matching** (as COCO-style
detection evaluation does): predictions are taken from the highest score
down, and each claims its best gold partner that no higher-scored prediction
has claimed. A prediction's fate then depends only on the predictions scored
above it, so one pass over all predictions gives the true positives at every
threshold at once (docs/curves.md).

- ``exact``: the k-th highest-scored prediction of a (sequence, start, end,
  label[, fragments]) key is correct iff gold has at least k entities of that
  key. This is exactly the matcher's own multiset counting at every
  threshold.
- ``threshold``: a prediction's candidates are the gold entities of its
  label overlapping it by at least ``t`` of both spans; among them it claims
  the best unclaimed one by the matcher's own priority (larger ratio, then
  smaller ratio, then position). Predictions of equal score are taken in
  that priority too, so with every score equal this is the matcher's own
  assignment; with distinct scores a higher-scored prediction may claim a
  gold entity that the matcher would give to a better-overlapping one.
- ``overlap`` and ``semeval``: see :mod:`nerscore.analysis.ranking_pairs`;
  a prediction earns the credit of its pair (partial credit for
  ``overlap``, 0.5 for a SemEval ``partial`` match).

Other matchers (``token``, ``mention``) have no one-pass score-ordered form
here; asking for them is an error naming the ones that have.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from nerscore.analysis.ranking_pairs import DEFAULT_SCHEMA, overlap_credit, semeval_credit
from nerscore.errors import InputTypeError, OptionError
from nerscore.matching.candidates import greedy_matching
from nerscore.matching.exact import row_keys
from nerscore.matching.registry import get_matcher
from nerscore.matching.threshold import position_rank, qualifying_pairs
from nerscore.values.span_checks import first_unscored
from nerscore.values.spans import EntityColumns, unify_labels

__all__ = ["RANKED_MATCHERS", "Ranked", "rank_predictions", "scores_of"]

IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]
BoolArray = npt.NDArray[np.bool_]

#: The matchers whose true positives at every threshold come from one score-ordered pass.
RANKED_MATCHERS = ("exact", "threshold", "overlap", "semeval")


@dataclass(frozen=True, eq=False)
class Ranked:
    """The predictions from the highest score down, with what each one counts as.

    Attributes
    ----------
    score : array of float
        The scores, descending (ties in row order).
    credit : array of float
        What each prediction adds to the true positives: 1.0 or 0.0, or
        partial credit (``overlap``, SemEval ``partial``).
    label : array of int
        The label each prediction counts under (an index into ``labels``):
        its own, or, for ``exact`` with ``labeled=False`` and for
        ``semeval``, its gold partner's.
    rows : array of int
        Each prediction's row in the prepared predicted columns.
    n_gold : array of int
        Gold entities per label.
    labels : tuple of str
        The label vocabulary.
    """

    score: FloatArray
    credit: FloatArray
    label: IntArray
    rows: IntArray
    n_gold: IntArray
    labels: tuple[str, ...]

    @property
    def correct(self) -> BoolArray:
        """Whether each prediction earns any credit."""
        return np.asarray(self.credit > 0)


def scores_of(pred: EntityColumns, doc_ids: Sequence[str] | None = None) -> FloatArray:
    """The predictions' scores; an error when some prediction has none.

    Raises
    ------
    InputTypeError
        When a prediction has no score, saying how many, which is the first
        (its document named from ``doc_ids``, by position when None) and how
        to give them.

    Examples
    --------
    >>> scores_of(EntityColumns([0], [0], [4], [0], ("PER",), score=[0.5])).tolist()
    [0.5]
    >>> scores_of(EntityColumns([0], [0], [4], [0], ("PER",)))
    Traceback (most recent call last):
    ...
    nerscore.errors.InputTypeError: Curves and calibration need a score on every prediction; 1 of the 1 predictions have none (the first is (0, 4, 'PER') of document 0). Give each predicted span a score: a dict's 'score', a tuple's fourth field (start, end, label, score), a JSON Lines span's "score" or Entity(..., score=...).
    """
    score = pred.score
    missing = pred.n_unscored
    if missing:
        raise InputTypeError(
            f"Curves and calibration need a score on every prediction; {missing} of the "
            f"{len(pred)} predictions have none ({first_unscored(pred, doc_ids)}). Give each "
            "predicted span a score: a dict's "
            "'score', a tuple's fourth field (start, end, label, score), a JSON Lines span's "
            "\"score\" or Entity(..., score=...).")
    assert score is not None or not len(pred)
    return np.zeros(0) if score is None else score


def rank_predictions(gold: EntityColumns, pred: EntityColumns, match: str,
                     options: dict[str, Any], doc_ids: Sequence[str] | None = None) -> Ranked:
    """Mark every prediction correct or not under score-ordered greedy matching.

    Parameters
    ----------
    gold, pred : EntityColumns
        Both sides as they are matched; every prediction has a score.
    match : str
        One of :data:`RANKED_MATCHERS`.
    options : dict
        The matcher's resolved options (for ``semeval``: ``schema``).
    doc_ids : list of str, optional
        The documents' ids, to name the first prediction without a score.

    Returns
    -------
    Ranked

    Raises
    ------
    OptionError
        For another matcher, or ``compat="kaggle"``.

    Examples
    --------
    >>> g = EntityColumns([0, 0], [0, 5], [4, 9], [0, 0], ("PER",))
    >>> p = EntityColumns([0, 0, 0], [0, 0, 5], [4, 4, 9], [0, 0, 0], ("PER",),
    ...                   score=[0.2, 0.9, 0.5])
    >>> r = rank_predictions(g, p, "exact", {"labeled": True})
    >>> r.score.tolist(), r.credit.tolist(), r.rows.tolist()
    ([0.9, 0.5, 0.2], [1.0, 1.0, 0.0], [1, 2, 0])
    """
    if match not in RANKED_MATCHERS:
        get_matcher(match)  # an unknown name gets the registry's message
        raise OptionError(
            f"Threshold curves and calibration support match='exact', 'threshold', 'overlap' "
            f"and 'semeval' (score-ordered greedy matching, docs/curves.md); got "
            f"match={match!r}. Score "
            f"{match!r} at a fixed threshold with min_score instead.", option="match")
    gold, pred = unify_labels(gold, pred)
    score = scores_of(pred, doc_ids)
    n_gold = np.bincount(gold.label, minlength=len(gold.labels)).astype(np.int64)
    # highest score first, ties in row order; the order within one score does not matter to
    # any point of a curve (a threshold keeps all of them or none)
    order = np.argsort(-score, kind="stable").astype(np.int64)
    label = pred.label
    if match == "exact":
        correct, label = _exact(gold, pred, order, labeled=bool(options.get("labeled", True)))
        credit = correct.astype(np.float64)
    elif match == "overlap":
        credit = overlap_credit(gold, pred, score, float(options.get("s", 0.75)))
    elif match == "semeval":
        if list(gold.labels) != sorted(gold.labels):  # the matcher's tie-breaks use sorted ids
            vocab = sorted(gold.labels)
            gold, pred = gold.with_labels(vocab), pred.with_labels(vocab)
            n_gold = np.bincount(gold.label, minlength=len(vocab)).astype(np.int64)
        credit, label = semeval_credit(gold, pred, score,
                                       str(options.get("schema", DEFAULT_SCHEMA)))
    else:
        if options.get("compat") is not None:
            raise OptionError(
                f"Threshold curves use the default threshold matcher; compat="
                f"{options['compat']!r} has no score-ordered form. Leave compat out.",
                option="compat")
        credit = _threshold(gold, pred, score, float(options.get("t", 0.5))).astype(np.float64)
    return Ranked(score[order], credit[order], label[order], order, n_gold, gold.labels)


def _exact(gold: EntityColumns, pred: EntityColumns, order: IntArray, *,
           labeled: bool) -> tuple[BoolArray, IntArray]:
    """Per prediction (row order): correct, and the label it counts under.

    ``order`` is the predictions' score order (highest first).
    """
    kg, kp = row_keys(gold, pred, labeled=labeled)
    n = len(pred)
    # by key, then in score order: the rank of each prediction within its key
    by_key = order[np.argsort(kp[order], kind="stable")]
    keys = kp[by_key]
    head = np.ones(n, dtype=bool)
    head[1:] = keys[1:] != keys[:-1]
    run_start = np.flatnonzero(head)
    rank = np.arange(n) - run_start[np.cumsum(head) - 1]
    g_order = np.argsort(kg, kind="stable")
    g_keys = kg[g_order]
    first = np.searchsorted(g_keys, keys, side="left")
    n_same = np.searchsorted(g_keys, keys, side="right") - first
    hit = rank < n_same
    correct = np.zeros(n, dtype=bool)
    correct[by_key] = hit
    label = pred.label.copy()
    if not labeled:  # a paired prediction counts under its partner's label, as the matcher does
        partner = g_order[(first + rank)[hit]]
        label[by_key[hit]] = gold.label[partner]
    return correct, label


def _threshold(gold: EntityColumns, pred: EntityColumns, score: FloatArray,
               t: float) -> BoolArray:
    """Per prediction (row order): correct."""
    gi, pi, hi, lo = qualifying_pairs(gold, pred, t)
    p_rank = position_rank(pred, np.arange(len(pred), dtype=np.int64))
    g_rank = position_rank(gold, np.arange(len(gold), dtype=np.int64))
    # score first; within a score, the matcher's own priority
    best = np.lexsort((p_rank[pi], g_rank[gi], -lo, -hi, -score[pi]))
    taken = greedy_matching(gi[best], pi[best], len(gold), len(pred))
    correct = np.zeros(len(pred), dtype=bool)
    correct[pi[best][taken]] = True
    return correct
