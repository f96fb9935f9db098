"""Where annotators disagree: groups of overlapping entities that not everyone marked alike.

In each document, the entities of every annotator who annotated it are
grouped into clusters of overlapping entities (chains of overlaps, across
annotators). A cluster is a :class:`~nerscore.analysis.agreement.results.Disagreement`
unless every annotator of the document marked exactly the same
``(start, end, label)`` entities in it. Its kind:

- ``"boundary"``: the annotators who marked something there differ in bounds;
- ``"label"``: they all give the same bounds, but labels differ;
- ``"missing"``: they all agree, and some annotators marked nothing.

The clusters are found on sorted integer columns; only the clusters in
disagreement become Python objects.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from nerscore.analysis.agreement.inputs import Annotated
from nerscore.analysis.agreement.results import Disagreement

__all__ = ["annotated_shared", "find_disagreements"]

IntArray = npt.NDArray[np.int64]


class _Rows(NamedTuple):
    """Every annotator's distinct entities, sorted by document, start, end, label, annotator."""

    doc: IntArray
    start: IntArray
    end: IntArray
    label: IntArray
    who: IntArray


def _rows(annotated: Annotated) -> _Rows:
    cols = annotated.entities
    doc = np.concatenate([c.seq for c in cols]).astype(np.int64)
    start = np.concatenate([c.start for c in cols]).astype(np.int64)
    end = np.concatenate([c.end for c in cols]).astype(np.int64)
    label = np.concatenate([c.label for c in cols]).astype(np.int64)
    who = np.concatenate([np.full(len(c), a, dtype=np.int64) for a, c in enumerate(cols)])
    order = np.lexsort((who, label, end, start, doc))
    r = _Rows(doc[order], start[order], end[order], label[order], who[order])
    if len(order) > 1:  # an annotator's duplicate entity votes once
        dup = np.zeros(len(order), dtype=bool)
        dup[1:] = ((r.doc[1:] == r.doc[:-1]) & (r.start[1:] == r.start[:-1])
                   & (r.end[1:] == r.end[:-1]) & (r.label[1:] == r.label[:-1])
                   & (r.who[1:] == r.who[:-1]))
        keep = ~dup
        r = _Rows(*(x[keep] for x in r))
    return r


def _key_starts(r: _Rows) -> npt.NDArray[np.bool_]:
    """Where a new distinct ``(doc, start, end, label)`` begins."""
    new = np.ones(len(r.doc), dtype=bool)
    new[1:] = ((r.doc[1:] != r.doc[:-1]) | (r.start[1:] != r.start[:-1])
               | (r.end[1:] != r.end[:-1]) | (r.label[1:] != r.label[:-1]))
    return new


def annotated_shared(annotated: Annotated) -> IntArray:
    """Per document, the entities every annotator of it marked."""
    r = _rows(annotated)
    out = np.zeros(annotated.n_documents, dtype=np.int64)
    if not len(r.doc):
        return out
    new = _key_starts(r)
    key = np.cumsum(new) - 1
    votes = np.bincount(key)
    first = np.flatnonzero(new)
    n_present = annotated.present.sum(axis=0)
    full = votes == n_present[r.doc[first]]
    np.add.at(out, r.doc[first[full]], 1)
    return out


def _kind(marks: list[frozenset[tuple[int, int, str]]]) -> str:
    marked = [m for m in marks if m]
    bounds = {frozenset((s, e) for s, e, _ in m) for m in marked}
    if len(bounds) > 1:
        return "boundary"
    if len(set(marked)) > 1:
        return "label"
    return "missing"


def find_disagreements(annotated: Annotated) -> tuple[Disagreement, ...]:
    """Every cluster of overlapping entities the annotators do not all share.

    Examples
    --------
    >>> from nerscore.analysis.agreement.inputs import join_annotations
    >>> a = join_annotations([[["B-PER", "I-PER", "O", "B-LOC"]], [["B-PER", "O", "O", "B-LOC"]],
    ...                       [["B-ORG", "I-ORG", "O", "B-LOC"]]])
    >>> [(d.start, d.end, d.kind) for d in find_disagreements(a)]
    [(0, 2, 'boundary')]
    """
    r = _rows(annotated)
    n = len(r.doc)
    if n == 0:
        return ()
    # clusters: a row opens one when it starts at or after the furthest end so far in its document
    span = int(max(r.end.max(), r.start.max())) + 1
    reach = np.maximum.accumulate(r.doc * span + r.end)
    opens = np.ones(n, dtype=bool)
    opens[1:] = (r.doc[1:] * span + r.start[1:] >= reach[:-1]) & ~(
        (r.start[1:] == r.end[1:]) & (r.start[1:] == r.start[:-1]) & (r.doc[1:] == r.doc[:-1]))
    cluster = np.cumsum(opens) - 1
    n_clusters = int(cluster[-1]) + 1
    rows_in = np.bincount(cluster, minlength=n_clusters)
    keys_in = np.bincount(cluster[_key_starts(r)], minlength=n_clusters)
    first = np.flatnonzero(opens)
    n_present = annotated.present.sum(axis=0)[r.doc[first]]
    agreed = rows_in == keys_in * n_present
    # one distinct bound in the cluster: "label" with two labels or more, else "missing"
    new_bounds = np.ones(n, dtype=bool)
    new_bounds[1:] = (r.start[1:] != r.start[:-1]) | (r.end[1:] != r.end[:-1])
    new_bounds |= opens
    bounds_in = np.bincount(cluster[new_bounds], minlength=n_clusters)
    quick = np.where(keys_in > 1, "label", "missing")
    names, labels = annotated.names, annotated.labels
    ends = np.maximum.reduceat(r.end, first)
    edges = np.append(first, n).tolist()
    starts, whos, labs = r.start.tolist(), r.who.tolist(), r.label.tolist()
    end_list = r.end.tolist()
    docs = r.doc[first].tolist()
    present = [np.flatnonzero(col).tolist() for col in annotated.present.T]
    out: list[Disagreement] = []
    for c in np.flatnonzero(~agreed).tolist():
        lo, hi = edges[c], edges[c + 1]
        d = docs[c]
        annotators = present[d]
        by: dict[int, list[tuple[int, int, str]]] = {a: [] for a in annotators}
        for k in range(lo, hi):
            by[whos[k]].append((starts[k], end_list[k], labels[labs[k]]))
        kind = (str(quick[c]) if bounds_in[c] == 1 else
                _kind([frozenset(by[a]) for a in annotators]))
        out.append(Disagreement(annotated.document_name(d), starts[lo], int(ends[c]), kind,
                                {names[a]: tuple(by[a]) for a in annotators}))
    return tuple(out)
