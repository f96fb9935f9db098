r"""Covered texts of error records kept as the file's UTF-8 bytes, one a line.

The texts an error listing gives for a CoNLL file are runs of its token
column joined by spaces. Cut from the file's bytes all at once
(:meth:`~nerscore.io._conll_text.FieldView.joined_lines`), they are held
one a line (``Ann Lee\nBob\n``, an empty line where a record has none): a
:class:`ByteTexts` column. A text
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

__all__ = ["ByteTexts"]

IntArray = npt.NDArray[np.int64]
_QUOTE, _BACKSLASH = ord('"'), ord("\\")


class ByteTexts(Sequence[str | None]):
    r"""One text or None per record, held as UTF-8 bytes one a line.

    Record ``k`` is the line ``data[at[k]:at[k + 1] - 1]`` (then a newline):
    its text, or nothing where it has none (``present[k]`` false), as
    :meth:`~nerscore.io._conll_text.FieldView.joined_lines` makes them. A
    text holds no newline.

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
            if step != 1:  # a copy of the texts taken
                return ByteTexts(*_copy(self.tolist()[k]))
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
            hit = np.searchsorted(self.at, where + lo, side="right") - 1  # ascending
            first = np.ones(len(hit), dtype=bool)
            np.not_equal(hit[1:], hit[:-1], out=first[1:])  # (np.unique would import numpy.ma)
            for k in hit[first].tolist():
                lines[k] = encode_basestring(lines[k].decode("utf-8"))[1:-1].encode("utf-8")
        return lines


def _copy(texts: list[str | None]) -> tuple[bytes, IntArray, npt.NDArray[np.bool_]]:
    """The arguments of a :class:`ByteTexts` of ``texts``."""
    lines = [(t or "").encode("utf-8") + b"\n" for t in texts]
    at = np.cumsum([0, *map(len, lines)], dtype=np.int64)
    return b"".join(lines), at, np.array([t is not None for t in texts], dtype=bool)
