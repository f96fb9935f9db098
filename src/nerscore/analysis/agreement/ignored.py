"""The annotators' ignore regions in agreement: what each number leaves out (docs/agreement.md).

A region (a document's ``ignore``: a stretch its annotator did not
annotate, for every label or for one) is read as scoring reads a gold
document's regions (:mod:`nerscore.decode.ignore`, whose overlap rule is
used here):

- the entity F1 of a pair leaves out every entity of either annotator that
  overlaps a region of either annotator of its label (or of every label);
- the disagreements, and the entities every annotator marked, leave out the
  entities that overlap a region of any annotator of the document;
- the token numbers leave out the tokens in a region of any annotator (a
  token is in a region it shares a character with): the per-label numbers
  of the region's label (of every label, for a region of every label); the
  overall numbers, where a token has one label of all, leave out a token in
  a region of every label, and one in a region of one label when some
  annotator gave the token that label (as the entity F1 leaves out the
  entities of the region's label, and compares the others).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

import numpy as np

from nerscore.analysis.agreement.inputs import Annotated
from nerscore.decode.ignore import Regions
from nerscore.values.spans import Entity, EntityColumns

__all__ = ["ignored_note", "outside_regions", "region_columns", "without_ignored"]


def _regions(annotated: Annotated, who: Sequence[int]) -> Regions:
    assert annotated.regions is not None
    return Regions([tuple(r for a in who for r in annotated.regions[a][d])
                    for d in range(annotated.n_documents)])


def outside_regions(annotated: Annotated, cols: Sequence[EntityColumns],
                    who: Sequence[int]) -> list[EntityColumns]:
    """Each of ``cols`` without the entities overlapping a region of the annotators ``who``.

    Examples
    --------
    >>> from nerscore.analysis.agreement.inputs import join_annotations
    >>> from nerscore import Document
    >>> a = join_annotations([[Document("d", [(0, 4, "PER"), (9, 12, "LOC")])],
    ...                       [Document("d", [(9, 12, "LOC")], ignore=[(2, 6, "PER")])]])
    >>> [c.start.tolist() for c in outside_regions(a, a.entities, [0])]
    [[0, 9], [9]]
    >>> [c.start.tolist() for c in outside_regions(a, a.entities, [0, 1])]
    [[9], [9]]
    """
    if annotated.regions is None:
        return list(cols)
    regions = _regions(annotated, who)
    return [regions.outside(c)[0] for c in cols]


def without_ignored(annotated: Annotated) -> tuple[Annotated, int]:
    """Every annotator's entities outside every annotator's regions; how many were left out."""
    if annotated.regions is None:
        return annotated, 0
    regions = _regions(annotated, range(len(annotated.names)))
    kept = [regions.outside(cols) for cols in annotated.entities]
    n = sum(k for _, k in kept)
    if not n:
        return annotated, 0
    return dataclasses.replace(annotated, entities=tuple(c for c, _ in kept)), n


def region_columns(annotated: Annotated) -> EntityColumns | None:
    """Every annotator's regions as columns, labelled ``labels + (every label,)``.

    A region of a label no annotator's entity has is left out (it concerns
    no class of the numbers); None when there is no region left.
    """
    if annotated.regions is None:
        return None
    index = {lab: k for k, lab in enumerate(annotated.labels)}
    every = len(index)
    rows = [(d, r.start, r.end, index[r.label] if isinstance(r, Entity) else every)
            for docs in annotated.regions for d, doc in enumerate(docs) for r in doc
            if not isinstance(r, Entity) or r.label in index]
    if not rows:
        return None
    seq, start, end, label = (np.array(c, dtype=np.int64) for c in zip(*rows, strict=True))
    return EntityColumns(seq, start, end, label, (*annotated.labels, ""), annotated.n_documents)


def ignored_note(n_entities: int, n_tokens: int) -> tuple[str, ...]:
    """The note counting what the ignore regions left out (none when nothing was).

    Examples
    --------
    >>> print(ignored_note(1, 3)[0])
    Ignore regions: 1 entity overlaps an annotator's ignore region of its label (or of every label) and is left out of the entity F1 of the pairs with that annotator and of the disagreements; 3 token(s) lie in ignore regions and are left out of kappa, alpha and token F1 (for a region of one label: of that label's numbers, and of the overall ones where an annotator gave the token that label).
    >>> ignored_note(0, 0)
    ()
    """
    parts = []
    if n_entities:
        one = n_entities == 1
        parts.append(f"{n_entities} {'entity overlaps' if one else 'entities overlap'} an "
                     f"annotator's ignore region of {'its' if one else 'their'} label (or of "
                     f"every label) and {'is' if one else 'are'} left out of the entity F1 of the "
                     "pairs with that annotator and of the disagreements")
    if n_tokens:
        parts.append(f"{n_tokens} token(s) lie in ignore regions and are left out of kappa, alpha "
                     "and token F1 (for a region of one label: of that label's numbers, and of "
                     "the overall ones where an annotator gave the token that label)")
    return (f"Ignore regions: {'; '.join(parts)}.",) if parts else ()
