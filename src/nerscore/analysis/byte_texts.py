r"""Covered texts of error records kept as the file's UTF-8 bytes, one a line.

The texts an error listing gives for a CoNLL file are runs of its token
column joined by spaces. Cut from the file's bytes all at once
(:func:`joined_ranges`), they are held one a line (``Ann Lee\nBob\n``, an
empty line where a record has none): a :class:`ByteTexts` column. A text
without ``"``, ``\`` or a byte below 0x20 is, between double quotes, its
own JSON string (``json.JSONEncoder(ensure_ascii=False)`` leaves every
other character as it is), so the JSON Lines writer takes the bytes as they
are (:meth:`ByteTexts.json_bytes`) and escapes only the few others; strings
are decoded only when records or CSV rows are made, all at once.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from json.encoder import encode_basestring
from typing import Any, overload

import numpy as np
import numpy.typing as npt

__all__ = ["ByteTexts", "joined_ranges"]

IntArray = npt.NDArray[np.int64]
_QUOTE, _NEWLINE, _SPACE, _BACKSLASH = (ord(c) for c in '"\n \\')


def joined_ranges(data: bytes, starts: npt.NDArray[Any], ends: npt.NDArray[Any],
                  first: IntArray, stop: IntArray) -> tuple[bytes, IntArray]:
    r"""The strings ``first[k]:stop[k]`` of each range ``k``, joined by spaces, one a line.

    String ``j`` is ``data[starts[j]:ends[j]]`` and holds no newline. One
    gather for all ranges, no string made per range or per token.

    Parameters
    ----------
    data : bytes
        The file's bytes.
    starts, ends : array of int
        Where each string lies in ``data``.
    first, stop : array of int
        The strings of each range (``stop[k] >= first[k]``; an empty range
        is an empty line).

    Returns
    -------
    out : bytes
        The line of each range in turn, each ended by a newline.
    at : array of int
        Where the line of range ``k`` starts in ``out``, then ``len(out)``.

    Examples
    --------
    >>> out, at = joined_ranges(b"Ann B\nLee I\nleft O\n", np.array([0, 6, 12]),
    ...                         np.array([3, 9, 16]), np.array([0, 2, 1, 1]),
    ...                         np.array([2, 3, 1, 2]))
    >>> out, at.tolist()
    (b'Ann Lee\nleft\n\nLee\n', [0, 8, 13, 14, 18])
    """
    first = np.asarray(first, dtype=np.int64)
    counts = np.asarray(stop, dtype=np.int64) - first
    if not len(counts):
        return b"", np.zeros(1, dtype=np.int64)
    empty = counts == 0
    some_empty = bool(empty.any())
    if some_empty:  # an empty range: one token of no bytes
        first, counts = np.where(empty, -1, first), np.where(empty, 1, counts)
    before = np.cumsum(counts) - counts
    tok = np.arange(int(counts.sum()), dtype=np.int64) + np.repeat(first - before, counts)
    if some_empty:
        real = np.flatnonzero(tok >= 0)
        t_start = np.zeros(len(tok), dtype=np.int64)
        t_len = t_start.copy()
        t_start[real] = starts[tok[real]]
        t_len[real] = ends[tok[real]] - t_start[real]
    else:
        t_start = starts[tok].astype(np.int64)
        t_len = ends[tok].astype(np.int64) - t_start
    width = t_len + 1  # each token, then a space (a newline after a range's last)
    at = np.cumsum(width) - width
    src = np.arange(int(at[-1] + width[-1]), dtype=np.int64) + np.repeat(t_start - at, width)
    src[at + t_len] = 0  # the separators read some byte, then are overwritten
    out = np.frombuffer(data, dtype=np.uint8)[src] if len(data) else np.zeros(len(src),
                                                                               dtype=np.uint8)
    out[at + t_len] = _SPACE
    last = before + counts - 1
    out[at[last] + t_len[last]] = _NEWLINE
    return out.tobytes(), np.append(at[before], len(out))


class ByteTexts(Sequence[str | None]):
    r"""One text or None per record, held as UTF-8 bytes one a line.

    Record ``k`` is the line ``data[at[k]:at[k + 1] - 1]`` (then a newline):
    its text, or nothing where it has none (``present[k]`` false), as
    :func:`joined_ranges` makes them. A text holds no newline.

    Examples
    --------
    >>> t = ByteTexts(b'a b\n\n\xc3\xbc\n', np.array([0, 4, 5, 8]),
    ...               np.array([True, False, True]))
    >>> len(t), t[0], t[1], t[2], t[1:], t.tolist()
    (3, 'a b', None, 'ü', ByteTexts([None, 'ü']), ['a b', None, 'ü'])
    >>> t.json_bytes()
    [b'a b', b'', b'\xc3\xbc']
    """

    __slots__ = ("at", "data", "present")

    def __init__(self, data: bytes, at: IntArray, present: npt.NDArray[np.bool_]) -> None:
        self.data = data
        self.at = at
        self.present = present

    def __len__(self) -> int:
        return len(self.present)

    @overload
    def __getitem__(self, k: int) -> str | None: ...

    @overload
    def __getitem__(self, k: slice) -> ByteTexts: ...

    def __getitem__(self, k: int | slice) -> str | ByteTexts | None:
        if isinstance(k, slice):
            a, b, step = k.indices(len(self))
            if step != 1:
                return ByteTexts(*_copy(self[a : max(a, b)].tolist()[::step]))
            return ByteTexts(self.data, self.at[a : max(a, b) + 1], self.present[a:b])
        if not self.present[k]:
            return None
        k %= len(self)
        return self.data[int(self.at[k]) : int(self.at[k + 1]) - 1].decode("utf-8")

    def __iter__(self) -> Iterator[str | None]:
        return iter(self.tolist())

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Sequence) or isinstance(other, (str, bytes)):
            return NotImplemented
        return self.tolist() == list(other)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"ByteTexts({self.tolist()!r})"

    def count(self, value: Any) -> int:
        """How many records have the text ``value`` (None: how many have none)."""
        if value is None:
            return len(self) - int(np.count_nonzero(self.present))
        return self.tolist().count(value)

    def _lines(self) -> bytes:
        """The records' lines, without the last newline."""
        return self.data[int(self.at[0]) : int(self.at[-1]) - 1]

    def tolist(self) -> list[str | None]:
        """The texts as str (None where absent): one decode for all."""
        if not len(self):
            return []
        texts: list[Any] = self._lines().decode("utf-8").split("\n")
        for k in np.flatnonzero(~self.present).tolist():
            texts[k] = None
        return texts

    def json_bytes(self) -> list[bytes]:
        r"""Each text as ``json.JSONEncoder(ensure_ascii=False)`` writes it, UTF-8, less the quotes.

        A text holding no ``"``, ``\`` or byte below 0x20 is its line as it
        is; the others (rare) are decoded and escaped one by one. A record
        without text has an empty line (the writer gives it ``null``).
        """
        if not len(self):
            return []
        lines = self._lines().split(b"\n")
        lo = int(self.at[0])
        arr = np.frombuffer(self.data, dtype=np.uint8, count=int(self.at[-1]) - lo, offset=lo)
        special = (arr < 0x20) | (arr == _QUOTE) | (arr == _BACKSLASH)
        if int(np.count_nonzero(special)) != len(self):  # more than the newlines
            special[self.at[1:] - lo - 1] = False
            where = np.flatnonzero(special)
            for k in np.unique(np.searchsorted(self.at, where + lo, side="right") - 1).tolist():
                lines[k] = encode_basestring(lines[k].decode("utf-8"))[1:-1].encode("utf-8")
        return lines


def _copy(texts: list[str | None]) -> tuple[bytes, IntArray, npt.NDArray[np.bool_]]:
    """The arguments of a :class:`ByteTexts` of ``texts``."""
    lines = [(t or "").encode("utf-8") + b"\n" for t in texts]
    at = np.cumsum([0, *map(len, lines)], dtype=np.int64)
    return b"".join(lines), at, np.array([t is not None for t in texts], dtype=bool)
