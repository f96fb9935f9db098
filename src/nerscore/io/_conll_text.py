"""The bytes of a read CoNLL file and where its fields lie, decoded only when looked at.

:class:`ConllText` holds the file as UTF-8 bytes and the byte ranges of the
token and label fields; :class:`FieldView` is one column's strings over those
bytes, decoded when read, joined or interned a range at a time without a
string made per token. :class:`~nerscore.io._conll_corpus.ConllCorpus` keeps
both, and the reader (:mod:`nerscore.io._conll_scan`) makes them.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from typing import Any, overload

import numpy as np
import numpy.typing as npt

from nerscore.io._bytes import word_view, words_at
from nerscore.io._intern import intern_tokens

__all__ = ["ConllText", "FieldView", "PosArray"]

IntArray = npt.NDArray[np.int64]
#: Byte positions in a file (int32 below 2 GiB, else int64).
PosArray = npt.NDArray[np.signedinteger[Any]]

#: Tokens interned at a time by :meth:`FieldView.interned`.
_INTERN_BLOCK = 1 << 19


class FieldView(Sequence[str]):
    """Strings of one column, decoded from the file's bytes only when read."""

    __slots__ = ("_all", "_data", "_ends", "_lock", "_starts")

    def __init__(self, data: bytes, starts: PosArray, ends: PosArray) -> None:
        self._data = data
        self._starts = starts
        self._ends = ends
        self._all: tuple[IntArray, tuple[str, ...]] | None = None
        self._lock = threading.Lock()

    def __getstate__(self) -> tuple[bytes, PosArray, PosArray]:
        return self._data, self._starts, self._ends

    def __setstate__(self, state: tuple[bytes, PosArray, PosArray]) -> None:
        self.__init__(*state)  # type: ignore[misc]

    def __len__(self) -> int:
        return len(self._starts)

    @overload
    def __getitem__(self, index: int) -> str: ...

    @overload
    def __getitem__(self, index: slice) -> list[str]: ...

    def __getitem__(self, index: int | slice) -> str | list[str]:
        if isinstance(index, slice):
            data = self._data
            return [
                data[s:e].decode("utf-8")
                for s, e in zip(self._starts[index].tolist(), self._ends[index].tolist(),
                                strict=True)
            ]
        i = int(index)
        return self._data[int(self._starts[i]) : int(self._ends[i])].decode("utf-8")

    def __iter__(self) -> Iterator[str]:
        return iter(self[:])

    def joined_lines(self, first: IntArray, stop: IntArray) -> tuple[bytes, IntArray]:
        r"""The tokens ``first[k]:stop[k]`` of each range ``k``, joined by spaces, one a line, as bytes.

        One gather over the file's bytes for all ranges, no string made per
        range or per token; an empty range is an empty line.

        Parameters
        ----------
        first, stop : array of int
            The tokens of each range (``stop[k] >= first[k]``).

        Returns
        -------
        out : bytes
            The line of each range in turn, each ended by a newline.
        at : array of int
            Where the line of range ``k`` starts in ``out``, then ``len(out)``.

        Examples
        --------
        >>> v = FieldView(b"Ann B\nLee I\nleft O\n", np.array([0, 6, 12]), np.array([3, 9, 16]))
        >>> out, at = v.joined_lines(np.array([0, 2, 1, 1]), np.array([2, 3, 1, 2]))
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
            t_start[real] = self._starts[tok[real]]
            t_len[real] = self._ends[tok[real]] - t_start[real]
        else:
            t_start = self._starts[tok].astype(np.int64)
            t_len = self._ends[tok].astype(np.int64) - t_start
        width = t_len + 1  # each token, then a space (a newline after a range's last)
        at = np.cumsum(width) - width
        src = np.arange(int(at[-1] + width[-1]), dtype=np.int64) + np.repeat(t_start - at, width)
        sep = at + t_len
        src[sep] = 0  # the separators read some byte, then are overwritten
        data = self._data
        out = np.frombuffer(data, dtype=np.uint8)[src] if len(data) else np.zeros(len(src),
                                                                                   dtype=np.uint8)
        out[sep] = ord(" ")
        last = before + counts - 1
        out[sep[last]] = ord("\n")  # a token holds no newline
        return out.tobytes(), np.append(at[before], len(out))

    def join_ranges(self, first: IntArray, stop: IntArray) -> list[str]:
        r"""The tokens ``first[k]:stop[k]`` of each range ``k``, joined by single spaces.

        The lines of :meth:`joined_lines`, decoded at once.

        Examples
        --------
        >>> v = FieldView(b"Ann B\nLee I\nleft O\n", np.array([0, 6, 12]), np.array([3, 9, 16]))
        >>> v.join_ranges(np.array([0, 2, 1]), np.array([2, 3, 1]))
        ['Ann Lee', 'left', '']
        """
        out, at = self.joined_lines(first, stop)
        return out[:-1].decode("utf-8").split("\n") if len(at) > 1 else []

    def intern_ranges(self, first: IntArray, stop: IntArray) -> tuple[IntArray, tuple[str, ...]]:
        """Ids of the tokens ``first[k]:stop[k]`` of every range (concatenated) and the strings.

        Ids number the distinct strings in order of first appearance; the
        bytes are hashed, not decoded token by token.

        Examples
        --------
        >>> v = FieldView(b"a b a c", np.array([0, 2, 4, 6]), np.array([1, 3, 5, 7]))
        >>> ids, vocab = v.intern_ranges(np.array([2, 0]), np.array([4, 2]))
        >>> ids.tolist(), vocab
        ([0, 1, 0, 2], ('a', 'c', 'b'))
        """
        first = np.asarray(first, dtype=np.int64)
        counts = np.asarray(stop, dtype=np.int64) - first
        tok = np.arange(int(counts.sum()), dtype=np.int64) + np.repeat(
            first - (np.cumsum(counts) - counts), counts)
        if self._all is None and not self._lock.locked():
            return intern_tokens(np.frombuffer(self._data, dtype=np.uint8),
                                 self._starts[tok].astype(np.int64),
                                 self._ends[tok].astype(np.int64))
        # every token interned already (or being interned): renumber the ranges' ids
        ids, vocab = self.interned()
        ids = ids[tok]
        seen = np.full(len(vocab), len(ids), dtype=np.int64)
        np.minimum.at(seen, ids, np.arange(len(ids), dtype=np.int64))  # first occurrences
        used = np.flatnonzero(seen < len(ids))
        used = used[np.argsort(seen[used])]
        new = np.empty(len(vocab), dtype=np.int64)
        new[used] = np.arange(len(used), dtype=np.int64)
        return new[ids], tuple(vocab[i] for i in used.tolist())

    def interned(self) -> tuple[IntArray, tuple[str, ...]]:
        """:meth:`intern_ranges` of every token, computed once (by whichever thread asks first).

        Once it is computed, or while another thread computes it,
        :meth:`intern_ranges` renumbers its ids instead of hashing the
        ranges' bytes again (the report computes it in a thread of its own
        while it scores).

        Examples
        --------
        >>> v = FieldView(b"a b a c", np.array([0, 2, 4, 6]), np.array([1, 3, 5, 7]))
        >>> ids, vocab = v.interned()
        >>> ids.tolist(), vocab
        ([0, 1, 0, 2], ('a', 'b', 'c'))
        >>> ids, vocab = v.intern_ranges(np.array([2, 0]), np.array([4, 2]))
        >>> ids.tolist(), vocab
        ([0, 1, 0, 2], ('a', 'c', 'b'))
        """
        with self._lock:
            if self._all is None:
                self._all = self._intern_all()
            return self._all

    def _intern_all(self) -> tuple[IntArray, tuple[str, ...]]:
        """Every token interned a block at a time (bounded temporaries), the blocks' ids joined."""
        b = np.frombuffer(self._data, dtype=np.uint8)
        ids = np.empty(len(self), dtype=np.int64)
        index: dict[str, int] = {}
        for a in range(0, len(self), _INTERN_BLOCK):
            z = min(a + _INTERN_BLOCK, len(self))
            local, words = intern_tokens(b, self._starts[a:z].astype(np.int64),
                                         self._ends[a:z].astype(np.int64))
            # a block's words in order of first occurrence: new ones numbered in that order
            joined = np.fromiter((index.setdefault(w, len(index)) for w in words),
                                 dtype=np.int64, count=len(words))
            ids[a:z] = joined[local]
        return ids, tuple(index)

    def __repr__(self) -> str:
        head = self[:5]
        more = ", ..." if len(self) > 5 else ""
        return f"<{len(self)} tokens: {', '.join(map(repr, head))}{more}>"


@dataclass(frozen=True, eq=False)
class ConllText:
    r"""The file as UTF-8 bytes and the byte ranges of the token and label fields.

    ``token_head``, where the reader computed it (:meth:`with_heads`), holds
    the first 8 bytes of each token as one little-endian word, zero past the
    token's end: what comparing two files' tokens reads first (see
    :class:`~nerscore.io._conll_align.TokenDiff`; :meth:`heads` computes the
    words where the reader did not).

    Examples
    --------
    >>> text = ConllText(b"Ann B\nvon O\n", np.array([0, 6]), np.array([3, 9]),
    ...                  np.array([4, 10]), np.array([5, 11])).with_heads()
    >>> [int(w).to_bytes(8, "little") for w in text.token_head]
    [b'Ann\x00\x00\x00\x00\x00', b'von\x00\x00\x00\x00\x00']
    >>> text.part(1, 2).token_head.tolist() == text.token_head[1:].tolist()
    True
    >>> text.part(0, 1).heads().tolist() == text.heads()[:1].tolist()
    True
    """

    data: bytes
    token_start: PosArray
    token_end: PosArray
    label_start: PosArray
    label_end: PosArray
    token_head: npt.NDArray[np.uint64] | None = None

    def heads(self) -> npt.NDArray[np.uint64]:
        """:attr:`token_head`, computed here when the reader did not."""
        if self.token_head is not None:
            return self.token_head
        b = np.frombuffer(self.data, dtype=np.uint8)
        start = self.token_start
        return words_at(b, word_view(b), start, self.token_end - start)

    def with_heads(self) -> ConllText:
        """The same text with :attr:`token_head` computed."""
        return replace(self, token_head=self.heads())

    def part(self, start: int, stop: int) -> ConllText:
        """Tokens ``start`` to ``stop`` (exclusive), over the same bytes."""
        cut = slice(start, stop)
        return ConllText(self.data, self.token_start[cut], self.token_end[cut],
                         self.label_start[cut], self.label_end[cut],
                         None if self.token_head is None else self.token_head[cut])
