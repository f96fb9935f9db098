"""Per-sentence views of flat token arrays: :class:`Slices`.

The one way nerscore splits flat token arrays into sentences: the tokens of
sentence ``k`` are ``flat[offsets[k]:offsets[k + 1]]``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import overload

import numpy as np
import numpy.typing as npt

__all__ = ["Slices"]

IntArray = npt.NDArray[np.int64]


class Slices(Sequence[list[str]]):
    """Per-sequence slices of a flat sequence, cut on demand (no copy until read).

    The one way nerscore splits flat token arrays into sentences: the tokens
    of sentence ``k`` are ``flat[offsets[k]:offsets[k + 1]]``.

    Examples
    --------
    >>> s = Slices(["a", "b", "c"], np.array([0, 2, 3]))
    >>> len(s), s[1], s[-1], list(s), s[1:]
    (2, ['c'], ['c'], [['a', 'b'], ['c']], [['c']])
    """

    def __init__(self, flat: Sequence[str], offsets: IntArray) -> None:
        self.flat = flat
        self.offsets = offsets

    def __len__(self) -> int:
        return len(self.offsets) - 1

    def __repr__(self) -> str:
        return f"<tokens of {len(self)} sequences>"

    @overload
    def __getitem__(self, k: int) -> list[str]: ...

    @overload
    def __getitem__(self, k: slice) -> list[list[str]]: ...

    def __getitem__(self, k: int | slice) -> list[str] | list[list[str]]:
        if isinstance(k, slice):
            return [self[i] for i in range(*k.indices(len(self)))]
        n = len(self)
        if k < 0:
            k += n
        if not 0 <= k < n:
            raise IndexError(f"sequence {k} of {n}")
        return list(self.flat[int(self.offsets[k]) : int(self.offsets[k + 1])])

    def join_ranges(self, seq: IntArray, start: IntArray, end: IntArray) -> list[str]:
        """The items ``start[k]:end[k]`` of sequence ``seq[k]`` (within it), joined by spaces.

        A file's token column joins them all at once (``flat.join_ranges``).

        >>> Slices(["a", "b", "c"], np.array([0, 2, 3])).join_ranges(*np.array([[0, 1], [0, 0],
        ...                                                                     [2, 1]]))
        ['a b', 'c']
        """
        first, stop, flat = self.offsets[seq] + start, self.offsets[seq] + end, self.flat
        if hasattr(flat, "join_ranges"):
            return list(flat.join_ranges(first, stop))
        return [" ".join(map(str, flat[a:b]))
                for a, b in zip(first.tolist(), stop.tolist(), strict=True)]

    def view(self, k: int) -> Sequence[str]:
        """Sequence ``k`` without reading its items: a slice of it reads only what it covers.

        Examples
        --------
        >>> s = Slices(["a", "b", "c"], np.array([0, 2, 3]))
        >>> v = s.view(0)
        >>> len(v), v[1:], v[0]
        (2, ['b'], 'a')
        """
        if not 0 <= k < len(self):
            raise IndexError(f"sequence {k} of {len(self)}")
        return _SliceView(self.flat, int(self.offsets[k]), int(self.offsets[k + 1]))


class _SliceView(Sequence[str]):
    """``flat[start:stop]``, read item by item or slice by slice (see :meth:`Slices.view`)."""

    __slots__ = ("flat", "start", "stop")

    def __init__(self, flat: Sequence[str], start: int, stop: int) -> None:
        self.flat, self.start, self.stop = flat, start, stop

    def __len__(self) -> int:
        return self.stop - self.start

    @overload
    def __getitem__(self, k: int) -> str: ...

    @overload
    def __getitem__(self, k: slice) -> list[str]: ...

    def __getitem__(self, k: int | slice) -> str | list[str]:
        if isinstance(k, slice):
            a, b, step = k.indices(len(self))
            if step != 1:
                return [self[i] for i in range(a, b, step)]
            return list(self.flat[self.start + a : self.start + max(a, b)])
        n = len(self)
        if not -n <= k < n:
            raise IndexError(f"token {k} of {n}")
        return self.flat[self.start + k % n]
