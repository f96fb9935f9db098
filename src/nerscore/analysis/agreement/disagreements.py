"""Where annotators disagree: groups of overlapping entities that not everyone marked alike.

In each document, the entities of every annotator who annotated it are
grouped into clusters of overlapping entities (chains of overlaps, across
annotators). A cluster is a :class:`~nerscore.analysis.agreement.results.Disagreement`
unless every annotator of the document marked exactly the same
``(start, end, label)`` entities in it. Its kind:

- ``"boundary"``: the annotators who marked something there differ in bounds;
- ``"label"``: they all give the same bounds, but labels differ;
- ``"missing"``: they all agree, and some annotators marked nothing.
"""

from __future__ import annotations

import numpy as np

from nerscore.analysis.agreement.inputs import Annotated
from nerscore.analysis.agreement.results import Disagreement

__all__ = ["find_disagreements"]


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
    names = annotated.names
    rows = []
    for a, cols in enumerate(annotated.entities):
        labels = cols.labels
        for d, s, e, lab in zip(cols.seq.tolist(), cols.start.tolist(), cols.end.tolist(),
                                cols.label.tolist(), strict=True):
            rows.append((d, s, e, a, labels[lab]))
    rows.sort()
    out: list[Disagreement] = []
    k = 0
    while k < len(rows):
        d, start, end = rows[k][0], rows[k][1], rows[k][2]
        j = k + 1
        while j < len(rows) and rows[j][0] == d and (rows[j][1] < end or rows[j][1] == start):
            end = max(end, rows[j][2])
            j += 1
        group = rows[k:j]
        k = j
        annotators = np.flatnonzero(annotated.present[:, d]).tolist()
        marks = [frozenset((s, e, lab) for _, s, e, a, lab in group if a == x)
                 for x in annotators]
        if len(set(marks)) == 1:
            continue
        spans = {names[x]: tuple(sorted(m)) for x, m in zip(annotators, marks, strict=True)}
        out.append(Disagreement(annotated.document_name(d), start, end, _kind(marks), spans))
    return tuple(out)
