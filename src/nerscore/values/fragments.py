"""Discontinuous entities: the fragments of an entity, one by one and as columns.

An entity drawn in pieces (``[lung] cancer in the [upper lobe]``) has
several *fragments*: half-open spans, sorted, disjoint and not touching (two
touching fragments cover the same units as one, so they are one). Its span
is its extent, from the first start to the last end. A contiguous entity is
the one-fragment case and stores no fragments at all (docs/fragments.md).

On the hot path :class:`Fragments` are optional columns beside the entity
columns (CSR offsets into flat ``start``/``end`` arrays); they are None unless
some entity has two or more fragments, so corpora without discontinuous
entities pay nothing. The functions below answer what the matchers ask of
two entities: their lengths, whether their fragment sets are equal, and how
many units their fragment sets share.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from nerscore.errors import quoted

if TYPE_CHECKING:
    from nerscore.values.spans import EntityColumns

__all__ = ["Fragments", "fragment_keys", "normalize_fragments", "pair_overlap",
           "same_fragments"]

IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]


def _is_int(x: object) -> bool:
    return isinstance(x, (int, np.integer)) and not isinstance(x, (bool, np.bool_))


def normalize_fragments(pairs: Iterable[Any]) -> tuple[tuple[int, int], ...]:
    """Fragments ``(start, end)`` sorted by start, touching ones joined.

    A single fragment may be empty (a zero-length entity); fragments of an
    entity with several must each cover at least one unit and must not
    overlap.

    Raises
    ------
    ValueError
        For a fragment that is not two integers ``0 <= start <= end``, an
        empty fragment among several, or two fragments sharing a unit.

    Examples
    --------
    >>> normalize_fragments([(19, 29), (0, 4)])
    ((0, 4), (19, 29))
    >>> normalize_fragments([[0, 4], [4, 9]])
    ((0, 9),)
    >>> normalize_fragments([(0, 5), (3, 9)])
    Traceback (most recent call last):
    ...
    ValueError: fragments [0, 5) and [3, 9) overlap; the fragments of one entity are disjoint.
    """
    out: list[tuple[int, int]] = []
    for item in pairs:
        if hasattr(item, "start") and hasattr(item, "end"):
            s, e = item.start, item.end
        elif isinstance(item, (tuple, list)) and len(item) == 2:
            s, e = item
        else:
            raise ValueError(f"a fragment is a [start, end] pair; got {quoted(item)}.")
        if not (_is_int(s) and _is_int(e)):
            raise ValueError(f"a fragment needs integer offsets; got {quoted(item)}.")
        if not 0 <= s <= e:
            raise ValueError(f"a fragment needs 0 <= start <= end; got [{s}, {e}).")
        out.append((int(s), int(e)))
    if not out:
        raise ValueError("an entity needs at least one fragment.")
    if len(out) == 1:
        return (out[0],)
    out.sort()
    for s, e in out:
        if s == e:
            raise ValueError(f"fragment [{s}, {e}) is empty; every fragment of an entity with "
                             "several covers at least one unit.")
    joined = [out[0]]
    for s, e in out[1:]:
        ps, pe = joined[-1]
        if s < pe:
            raise ValueError(f"fragments [{ps}, {pe}) and [{s}, {e}) overlap; the fragments "
                             "of one entity are disjoint.")
        if s == pe:
            joined[-1] = (ps, e)
        else:
            joined.append((s, e))
    return tuple(joined)


@dataclass(frozen=True, eq=False)
class Fragments:
    """The fragments of every row of some entity columns, in CSR form.

    Row ``i`` has the fragments ``start[offsets[i]:offsets[i + 1]]`` (and
    ``end`` likewise), sorted and disjoint; a contiguous row has exactly one,
    its own span.

    Examples
    --------
    >>> f = Fragments.from_lists([None, ((0, 4), (19, 29))], [5, 0], [11, 29])
    >>> f.offsets.tolist(), f.start.tolist(), f.end.tolist()
    ([0, 1, 3], [5, 0, 19], [11, 4, 29])
    >>> f.counts().tolist(), f.lengths().tolist()
    ([1, 2], [6, 14])
    """

    offsets: IntArray
    start: IntArray
    end: IntArray

    @classmethod
    def from_lists(
        cls, fragments: Sequence[Sequence[tuple[int, int]] | None], start: Sequence[int] | IntArray,
        end: Sequence[int] | IntArray,
    ) -> Fragments | None:
        """Columns from one fragment list per row (None or empty: the row's own span).

        None when no row has two or more fragments.
        """
        many = [i for i, f in enumerate(fragments) if f and len(f) > 1]
        if not many:
            return None
        counts = np.ones(len(fragments), dtype=np.int64)
        counts[many] = [len(fragments[i]) for i in many]  # type: ignore[arg-type]
        offsets = np.zeros(len(counts) + 1, dtype=np.int64)
        np.cumsum(counts, out=offsets[1:])
        flat_s = np.empty(int(offsets[-1]), dtype=np.int64)
        flat_e = np.empty(int(offsets[-1]), dtype=np.int64)
        one = counts == 1  # the row's own span (a one-fragment list is that span too)
        flat_s[offsets[:-1][one]] = np.asarray(start, dtype=np.int64)[one]
        flat_e[offsets[:-1][one]] = np.asarray(end, dtype=np.int64)[one]
        for i in many:
            f = fragments[i]
            assert f is not None
            a = int(offsets[i])
            flat_s[a:a + len(f)] = [x for x, _ in f]
            flat_e[a:a + len(f)] = [y for _, y in f]
        return cls(offsets, flat_s, flat_e)

    @classmethod
    def single(cls, start: IntArray, end: IntArray) -> Fragments:
        """One fragment per row: the rows' own spans."""
        return cls(np.arange(len(start) + 1, dtype=np.int64), start, end)

    def __len__(self) -> int:
        return len(self.offsets) - 1

    def counts(self) -> IntArray:
        """Fragments per row."""
        return np.diff(self.offsets)

    def lengths(self) -> IntArray:
        """Units per row: the total length of its fragments."""
        if len(self) == 0:
            return np.zeros(0, dtype=np.int64)
        return np.add.reduceat(self.end - self.start, self.offsets[:-1]).astype(np.int64)

    def rows(self) -> IntArray:
        """The row of every fragment."""
        return np.repeat(np.arange(len(self), dtype=np.int64), self.counts())

    def row(self, i: int) -> tuple[tuple[int, int], ...]:
        """The fragments of row ``i`` as ``(start, end)`` pairs."""
        a, b = int(self.offsets[i]), int(self.offsets[i + 1])
        return tuple(zip(self.start[a:b].tolist(), self.end[a:b].tolist(), strict=True))

    def take(self, rows: npt.ArrayLike) -> Fragments | None:
        """The fragments of ``rows`` (indices or a boolean mask); None when all are contiguous."""
        r = np.asarray(rows)
        if r.dtype == bool:
            r = np.flatnonzero(r)
        r = r.astype(np.int64, copy=False)
        counts = self.counts()[r]
        if not (counts > 1).any():
            return None
        offsets = np.zeros(len(r) + 1, dtype=np.int64)
        np.cumsum(counts, out=offsets[1:])
        flat = np.arange(int(offsets[-1]), dtype=np.int64) + np.repeat(
            self.offsets[r] - offsets[:-1], counts)
        return Fragments(offsets, self.start[flat], self.end[flat])


def _parts(cols: EntityColumns) -> Fragments:
    return cols.fragments if cols.fragments is not None else Fragments.single(cols.start,
                                                                              cols.end)


def fragment_keys(a: EntityColumns, b: EntityColumns) -> tuple[IntArray, IntArray]:
    """One int per row of each side: 0 for a contiguous row, else an id of its fragment set.

    Two rows with equal extents have equal fragment sets iff their keys are
    equal (ids are shared by both sides).

    Examples
    --------
    >>> from nerscore.values.spans import Entity, EntityColumns
    >>> a = EntityColumns.from_entities([Entity.from_fragments([(0, 4), (19, 29)], "D")])
    >>> b = EntityColumns.from_entities([Entity.from_fragments([(0, 4), (19, 29)], "D"),
    ...                                  Entity.from_fragments([(0, 4), (20, 29)], "D")])
    >>> [k.tolist() for k in fragment_keys(a, b)]
    [[1], [1, 2]]
    """
    ids: dict[tuple[int, ...], int] = {}
    out = []
    for cols in (a, b):
        key = np.zeros(len(cols), dtype=np.int64)
        f = cols.fragments
        if f is not None:
            for i in np.flatnonzero(f.counts() > 1).tolist():
                lo, hi = int(f.offsets[i]), int(f.offsets[i + 1])
                bounds = tuple(np.stack([f.start[lo:hi], f.end[lo:hi]], axis=1).ravel().tolist())
                key[i] = ids.setdefault(bounds, len(ids) + 1)
        out.append(key)
    return out[0], out[1]


def same_fragments(a: EntityColumns, ra: IntArray, b: EntityColumns, rb: IntArray) -> BoolArray:
    """For each pair of rows ``(ra[k], rb[k])``: the two have the same fragment set.

    Without fragments on either side this is equality of the bounds.
    """
    same = (a.start[ra] == b.start[rb]) & (a.end[ra] == b.end[rb])
    if a.fragments is None and b.fragments is None:
        return np.asarray(same)
    ka, kb = fragment_keys(a, b)
    return np.asarray(same & (ka[ra] == kb[rb]))


def pair_overlap(a: EntityColumns, ra: IntArray, b: EntityColumns, rb: IntArray) -> IntArray:
    """For each pair of rows: the units their fragment sets share (0 when none).

    Examples
    --------
    >>> from nerscore.values.spans import Entity, EntityColumns, Span
    >>> g = EntityColumns.from_entities([Entity.from_fragments([(0, 4), (19, 29)], "D")])
    >>> p = EntityColumns.from_entities([Entity(Span(0, 29), "D"), Entity(Span(5, 11), "D")])
    >>> pair_overlap(g, np.array([0, 0]), p, np.array([0, 1])).tolist()
    [14, 0]
    """
    ra = np.asarray(ra, dtype=np.int64)
    rb = np.asarray(rb, dtype=np.int64)
    out: IntArray = np.maximum(
        np.minimum(a.end[ra], b.end[rb]) - np.maximum(a.start[ra], b.start[rb]), 0
    ).astype(np.int64)
    if a.fragments is None and b.fragments is None:
        return out
    fa, fb = _parts(a), _parts(b)
    ca, cb = fa.counts()[ra], fb.counts()[rb]
    multi = np.flatnonzero((ca > 1) | (cb > 1))
    if len(multi) == 0:
        return out
    na, nb = ca[multi], cb[multi]
    n = na * nb
    pair = np.repeat(np.arange(len(multi), dtype=np.int64), n)
    within = np.arange(int(n.sum()), dtype=np.int64) - np.repeat(np.cumsum(n) - n, n)
    ia = fa.offsets[ra[multi]][pair] + within // nb[pair]
    ib = fb.offsets[rb[multi]][pair] + within % nb[pair]
    inter = np.maximum(np.minimum(fa.end[ia], fb.end[ib]) - np.maximum(fa.start[ia], fb.start[ib]),
                       0)
    out[multi] = np.bincount(pair, weights=inter, minlength=len(multi)).astype(np.int64)
    return out
