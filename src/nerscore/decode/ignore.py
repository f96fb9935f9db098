"""Regions nobody annotated: what a prediction there counts as (docs/fragments.md).

Partially annotated or silver data marks regions without annotation
(``Document(..., ignore=...)``, JSON Lines ``"ignore"``): ``[start, end]``
for every label, ``[start, end, label]`` for one label. Before matching:

- a predicted entity that overlaps a region of its label (or of every
  label) — one of its fragments shares a unit with it, or, for a
  zero-length prediction, its position lies inside it — is removed: it is
  neither a true nor a false positive, and it is counted;
- a gold entity that overlaps a region of its label cannot exist (a region
  says nobody annotated that label there): an error names the document, the
  entity and the region.

Regions of the gold documents apply; those of predicted documents are not
used (a note names the documents whose regions differ from gold's).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from nerscore.errors import InvalidSpanError, quoted
from nerscore.values.documents import describe_doc
from nerscore.values.spans import Entity, EntityColumns, Span

__all__ = ["Regions", "apply_ignore", "ignore_predictions"]

IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]


class Regions:
    """The ignore regions of every document as columns: ``seq``, ``start``, ``end``, ``label``.

    ``label`` is the region's label, or None for a region of every label.

    Examples
    --------
    >>> r = Regions([[Span(0, 4)], [], [Entity(Span(2, 3), "PER")]])
    >>> len(r), r.seq.tolist(), r.label
    (2, [0, 2], [None, 'PER'])
    """

    def __init__(self, regions: Sequence[Sequence[Span | Entity]]) -> None:
        flat = [(q, r) for q, rs in enumerate(regions) for r in rs]
        self.seq = np.array([q for q, _ in flat], dtype=np.int64)
        self.start = np.array([r.start for _, r in flat], dtype=np.int64)
        self.end = np.array([r.end for _, r in flat], dtype=np.int64)
        self.label: list[str | None] = [r.label if isinstance(r, Entity) else None
                                        for _, r in flat]

    @classmethod
    def _columns(cls, seq: IntArray, start: IntArray, end: IntArray,
                 label: list[str | None]) -> Regions:
        out = cls.__new__(cls)
        out.seq, out.start, out.end, out.label = seq, start, end, label
        return out

    def __len__(self) -> int:
        return len(self.seq)

    def hits(self, cols: EntityColumns) -> tuple[IntArray, IntArray]:
        """Rows of ``cols`` overlapping a region of their label, with one such region each."""
        pieces = cols.pieces()
        owner = cols.fragments.rows() if cols.fragments is not None else np.arange(len(cols))
        lab_of = {lab: i for i, lab in enumerate(cols.labels)}
        n_lab = len(cols.labels) + 1  # group label 0: every label
        # group label 0: every label; -1: a label these columns do not have
        region_lab = np.array([0 if lab is None else lab_of[lab] + 1 if lab in lab_of else -1
                               for lab in self.label], dtype=np.int64).reshape(-1)
        known = region_lab >= 0
        rows, found = [], []
        for every in (True, False):
            mine = known & ((region_lab == 0) if every else (region_lab > 0))
            if not mine.any() or len(pieces) == 0:
                continue
            r_idx = np.flatnonzero(mine)
            r_group = self.seq[r_idx] * n_lab + region_lab[r_idx]
            p_group = pieces.seq * n_lab + (0 if every else pieces.label + 1)
            hit, which = _overlapping(r_group, self.start[r_idx], self.end[r_idx],
                                      p_group, pieces.start, pieces.end)
            rows.append(owner[hit])
            found.append(r_idx[which])
        if not rows:
            z = np.zeros(0, dtype=np.int64)
            return z, z
        row = np.concatenate(rows)
        region = np.concatenate(found)
        first = np.unique(row, return_index=True)[1]
        return row[first].astype(np.int64), region[first].astype(np.int64)

    def covering(self, cols: EntityColumns) -> BoolArray:
        """Which regions overlap some row of ``cols`` of their label (in their sequence).

        The rule is that of :meth:`hits`: each region is tried alone against
        the rows of its sequence.

        Examples
        --------
        >>> cols = EntityColumns([0, 0], [0, 7], [4, 7], [0, 1], ("D", "X"))
        >>> Regions([[Span(3, 5), Span(7, 9), Entity(Span(0, 2), "X")]]).covering(cols).tolist()
        [True, True, False]
        """
        n = len(self)
        out = np.zeros(n, dtype=bool)
        if n == 0 or len(cols) == 0:
            return out
        # every region paired with each row of its sequence, the pairs of region i in sequence i
        order = np.argsort(cols.seq, kind="stable")
        first = np.searchsorted(cols.seq[order], self.seq, side="left")
        count = np.searchsorted(cols.seq[order], self.seq, side="right") - first
        region = np.repeat(np.arange(n, dtype=np.int64), count)
        at = np.arange(int(count.sum())) - np.repeat(np.cumsum(count) - count, count)
        pairs = dataclasses.replace(cols.take(order[np.repeat(first, count) + at]), seq=region,
                                    n_sequences=n)
        alone = Regions._columns(np.arange(n, dtype=np.int64), self.start, self.end, self.label)
        hit, _ = alone.hits(pairs)
        out[region[hit]] = True
        return out

    def outside(self, cols: EntityColumns) -> tuple[EntityColumns, int]:
        """The rows of ``cols`` overlapping no region of their label, and how many were removed.

        Examples
        --------
        >>> cols = EntityColumns([0, 0], [0, 20], [4, 25], [0, 1], ("D", "X"))
        >>> kept, n = Regions([[Entity(Span(18, 30), "D")]]).outside(cols)
        >>> kept.start.tolist(), n
        ([0, 20], 0)
        >>> kept, n = Regions([[Span(3, 30)]]).outside(cols)
        >>> kept.start.tolist(), n
        ([], 2)
        """
        if len(self) == 0 or len(cols) == 0:
            return cols, 0
        hit, _ = self.hits(cols)
        if not len(hit):
            return cols, 0
        keep = np.ones(len(cols), dtype=bool)
        keep[hit] = False
        return cols.take(keep), len(hit)


def _overlapping(
    r_group: IntArray, r_start: IntArray, r_end: IntArray,
    p_group: IntArray, p_start: IntArray, p_end: IntArray,
) -> tuple[IntArray, IntArray]:
    """Pieces overlapping a region of their group, and the (first listed) region of each."""
    width = int(max(r_end.max(initial=0), p_end.max(initial=0))) + 1
    rs = r_group * width + r_start
    re_ = r_group * width + r_end
    order = np.argsort(rs, kind="stable")
    rs, re_ = rs[order], re_[order]
    reach = np.maximum.accumulate(re_)  # regions sorted by start: the furthest end so far
    ps = p_group * width + p_start
    pe = p_group * width + p_end
    zero = p_start == p_end
    # the last region starting before the piece ends (at or before its position if empty)
    k = np.where(zero, np.searchsorted(rs, ps, side="right"),
                 np.searchsorted(rs, pe, side="left")) - 1
    kc = np.maximum(k, 0)
    hit = (k >= 0) & (reach[kc] > ps)
    pieces = np.flatnonzero(hit)
    # a region that reaches the piece: the one with the furthest end up to k
    far = np.zeros(len(reach), dtype=np.int64)
    if len(reach):
        is_new = np.ones(len(reach), dtype=bool)
        is_new[1:] = re_[1:] > reach[:-1]
        far = np.maximum.accumulate(np.where(is_new, np.arange(len(reach)), 0))
    return pieces.astype(np.int64), order[far[kc[pieces]]].astype(np.int64)


def apply_ignore(
    gold: EntityColumns, pred: EntityColumns, regions: Regions, names: Sequence[str | int], *,
    where: Sequence[str] | None = None, annotator: str | None = None,
) -> tuple[EntityColumns, int]:
    """The predictions outside the ignore regions, and how many were removed.

    ``where`` says where each document was read (``"a.jsonl, line 2"``, or
    empty), for the error; ``annotator`` names whose entities and regions
    ``gold`` and ``regions`` are where they are not gold's (agreement).

    Raises
    ------
    InvalidSpanError
        For a gold entity overlapping a region of its label, naming the
        document, the entity and the region.

    Examples
    --------
    >>> g = EntityColumns([0], [0], [4], [0], ("D",))
    >>> p = EntityColumns([0, 0], [0, 20], [4, 25], [0, 0], ("D",))
    >>> kept, n = apply_ignore(g, p, Regions([[Span(18, 30)]]), ["d1"])
    >>> kept.start.tolist(), n
    ([0], 1)
    >>> apply_ignore(p, g, Regions([[Entity(Span(18, 30), "D")]]), ["d1"])
    Traceback (most recent call last):
    ...
    nerscore.errors.InvalidSpanError: Gold span (20, 25, 'D') of document 'd1' lies in the ignore region [18, 30, 'D'], where nobody annotated D; a gold entity cannot be there. Fix the region or the span.
    """
    if len(regions) == 0:
        return pred, 0
    bad, region = regions.hits(gold)
    if len(bad):
        i, r = int(bad[0]), int(region[0])
        k = int(gold.seq[i])
        lab = gold.labels[int(gold.label[i])]
        span = (int(gold.start[i]), int(gold.end[i]), lab)
        frags = ""
        if gold.fragments is not None and gold.fragments.counts()[i] > 1:
            frags = f" (fragments {[list(f) for f in gold.fragments.row(i)]})"
        r_lab = regions.label[r]
        shown = [int(regions.start[r]), int(regions.end[r]), *([r_lab] if r_lab else [])]
        nobody = "nobody annotated " + (r_lab if r_lab else "any label")
        whose = "gold " if annotator is None else ""
        more = (f" ({len(bad) - 1} more {whose}span(s) lie in ignore regions)" if len(bad) > 1
                else "")
        read = f"{where[k]}: " if where is not None and where[k] else ""
        head = "Gold span" if annotator is None else f"annotator {quoted(annotator)}: Span"
        entity = "a gold entity" if annotator is None else "an entity of the same annotator"
        raise InvalidSpanError(
            f"{read}{head} {span!r}{frags} of {describe_doc(names[k])} lies in the ignore region "
            f"{shown!r}, where {nobody}; {entity} cannot be there. Fix the region or the "
            f"span.{more}",
            document=names[k], spans=[span],
        )
    return regions.outside(pred)


def ignore_predictions(
    gold: EntityColumns, pred: EntityColumns, g_regions: Sequence[Sequence[Span | Entity]],
    p_regions: Sequence[Sequence[Span | Entity]], names: Sequence[str | int], *,
    where: Sequence[str] | None = None, annotator: str | None = None,
) -> tuple[EntityColumns, dict[str, int], list[str]]:
    """Apply gold's regions (one list per document) to the predictions; tallies and notes.

    The note names the predicted documents whose own regions differ from
    gold's (they are not used). ``where`` and ``annotator``: as
    :func:`apply_ignore` takes them.
    """
    differ = [str(names[k]) for k, (a, b) in enumerate(zip(g_regions, p_regions, strict=True))
              if b and set(a) != set(b)]
    notes = []
    if differ:
        shown = ", ".join(repr(d) for d in differ[:5])
        more = f", ... ({len(differ) - 5} more)" if len(differ) > 5 else ""
        notes.append(
            f"Ignore regions are taken from the gold documents; the regions of {len(differ)} "
            f"predicted document(s) differ from gold's and are not used: {shown}{more}."
        )
    regions = Regions(g_regions)
    kept, n_ignored = apply_ignore(gold, pred, regions, names, where=where, annotator=annotator)
    return kept, {"pred_ignored": n_ignored, "ignore_regions": len(regions)}, notes
