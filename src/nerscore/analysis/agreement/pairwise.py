"""Pairwise entity F1 between annotators, per label and per document, through the matcher registry.

Each ordered pair ``(i, j)`` is scored as one evaluation with annotator
``i`` as the reference and ``j`` as the prediction, over the documents both
annotated; the per-document counts come from
:func:`~nerscore.analysis.significance.sequence_counts`, so the F1 of any
set of documents is ``2 tp / (n_i + n_j)`` of their summed counts. An entity
of either annotator that overlaps an ignore region of either of them (of its
label, or of every label) is left out of the pair, as scoring leaves out a
prediction in a gold ignore region
(:func:`~nerscore.analysis.agreement.ignored.outside_regions`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from nerscore.analysis.agreement.ignored import outside_regions
from nerscore.analysis.agreement.inputs import Annotated
from nerscore.analysis.significance.units import sequence_counts
from nerscore.values.spans import EntityColumns

__all__ = ["SYMMETRIC", "PairCounts", "pair_counts", "pair_mean_sd"]

FloatArray = npt.NDArray[np.float64]

#: Matchers whose F1 does not depend on which annotator is the reference: one
#: evaluation per unordered pair (the others are run both ways).
SYMMETRIC = frozenset({"exact", "token"})


@dataclass(frozen=True, eq=False)
class PairCounts:
    """Per ordered pair, per document and label: ``tp`` and ``n_i + n_j``.

    Attributes
    ----------
    pairs : list of (int, int)
        The ordered pairs evaluated.
    tp, total : array of float, shape (n_pairs, n_docs, n_labels)
        Matched credit, and entities of both annotators.
    labels : tuple of str
        The label columns.
    both : array of bool, shape (n_pairs, n_docs)
        Whether both annotators annotated the document.
    """

    pairs: list[tuple[int, int]]
    tp: FloatArray
    total: FloatArray
    labels: tuple[str, ...]
    both: npt.NDArray[np.bool_]

    def f1(self, tp: FloatArray, total: FloatArray) -> FloatArray:
        """``2 tp / total``, NaN where ``total`` is 0."""
        out = np.full(np.shape(tp), np.nan)
        np.divide(2 * tp, total, out=out, where=total > 0)
        return out

    def matrix(self, n: int, values: FloatArray) -> FloatArray:
        """An ``n x n`` matrix of one value per pair (mirrored when only one way was run)."""
        m = np.eye(n)
        for (i, j), v in zip(self.pairs, values, strict=True):
            m[i, j] = v
            if (j, i) not in self.pairs:
                m[j, i] = v
        return m


def pair_mean_sd(f1: FloatArray, both: npt.NDArray[np.bool_]) -> tuple[FloatArray, FloatArray]:
    """Per document (column), mean and SD of ``f1`` over the pairs that annotated it.

    NaN where a pair's F1 is NaN (no entity on either side) or no pair has the
    document (``numpy.mean`` and ``numpy.std`` of the pairs, as bratiaa).
    """
    n_pairs = both.sum(axis=0)
    undefined = (both & np.isnan(f1)).any(axis=0) | (n_pairs == 0)
    safe = np.maximum(n_pairs, 1)
    values = np.where(both, np.nan_to_num(f1), 0.0)
    mean = values.sum(axis=0) / safe
    dev = np.where(both, values - mean[None, :], 0.0)
    sd = np.sqrt((dev * dev).sum(axis=0) / safe)
    return np.where(undefined, np.nan, mean), np.where(undefined, np.nan, sd)


def _restrict(c: EntityColumns, docs: npt.NDArray[np.bool_]) -> EntityColumns:
    return c.take(docs[c.seq]) if len(c) else c


def pair_counts(annotated: Annotated, match: str, options: Mapping[str, Any]) -> PairCounts:
    """Score every pair of annotators with ``match`` (see the module docstring)."""
    n = len(annotated.names)
    ordered = match not in SYMMETRIC
    pairs = [(i, j) for i in range(n) for j in range(n) if i != j and (ordered or i < j)]
    labels = annotated.labels
    n_docs = annotated.n_documents
    tp = np.zeros((len(pairs), n_docs, len(labels)))
    total = np.zeros((len(pairs), n_docs, len(labels)))
    both = np.zeros((len(pairs), n_docs), dtype=bool)
    index = {lab: k for k, lab in enumerate(labels)}
    decoding = annotated.decoding
    for p, (i, j) in enumerate(pairs):
        docs = annotated.present[i] & annotated.present[j]
        both[p] = docs
        if annotated.tags is not None and decoding is not None and not annotated.relabelled:
            sc = sequence_counts(annotated.tags[i], annotated.tags[j], match=match,
                                 scheme=decoding.scheme, mode=decoding.mode,
                                 suffix=decoding.suffix, delimiter=decoding.delimiter,
                                 outside=decoding.outside, **options)
        else:
            ref, other = outside_regions(
                annotated, [_restrict(annotated.entities[a], docs) for a in (i, j)], (i, j))
            sc = sequence_counts(ref, other, match=match, **options)
        cols = [index[lab] for lab in sc.labels]
        rows = sc.n_sequences
        tp[p, :rows, cols] = sc.tp.T if len(cols) else 0
        total[p, :rows, cols] = (sc.n_pred + sc.n_gold).T if len(cols) else 0
    return PairCounts(pairs, tp, total, labels, both)
