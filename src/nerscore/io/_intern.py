"""Interning many short byte strings of a file (tokens) into integer ids, without a str each.

:func:`intern_tokens` hashes every string from the 8-byte words of its bytes,
reading only as many words as the string is long (most tokens fit in one),
sorts the hashes once, and checks every string against the first string of
its hash, so the ids are exact; only the distinct strings are decoded. The
rare strings longer than :data:`~nerscore.io._bytes.LONG` bytes are interned
aside, by a dict of their bytes.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from nerscore.io._bytes import GOLDEN, WORD, with_long_strings, word_view, words_at

__all__ = ["intern_tokens"]

IntArray = npt.NDArray[np.int64]
ByteArray = npt.NDArray[np.uint8]
WordArray = npt.NDArray[np.uint64]

#: Strings hashed at a time (bounds the temporary arrays).
_BLOCK = 1 << 18
#: Multiplier of the hash (a module constant, so a test can force collisions).
_MULT = GOLDEN


def intern_tokens(b: ByteArray, starts: IntArray, ends: IntArray) -> tuple[IntArray, tuple[str, ...]]:
    """Ids (in order of first occurrence) of the UTF-8 strings ``b[starts[i]:ends[i]]``.

    Parameters
    ----------
    b : array of uint8
        The bytes (a file's contents).
    starts, ends : array of int
        Byte range of every string.

    Returns
    -------
    ids : array of int
        Per string, the index of its value in ``vocab``.
    vocab : tuple of str
        The distinct strings, decoded, in order of first occurrence.

    Examples
    --------
    >>> b = np.frombuffer(b"Ann saw Ann and Annabella Lee saw", dtype=np.uint8)
    >>> ids, vocab = intern_tokens(b, np.array([0, 4, 8, 12, 16, 26, 30]),
    ...                            np.array([3, 7, 11, 15, 25, 29, 33]))
    >>> ids.tolist(), vocab
    ([0, 1, 0, 2, 3, 4, 1], ('Ann', 'saw', 'and', 'Annabella', 'Lee'))
    """
    return with_long_strings(_intern_words, b, np.asarray(starts, dtype=np.int64),
                             np.asarray(ends, dtype=np.int64))


def _intern_words(b: ByteArray, starts: IntArray, ends: IntArray) -> tuple[IntArray, tuple[str, ...]]:
    """:func:`intern_tokens` of strings of at most :data:`~nerscore.io._bytes.LONG` bytes."""
    n = len(starts)
    if n == 0:
        return np.zeros(0, dtype=np.int64), ()
    starts = np.asarray(starts, dtype=np.int64)
    lens = np.asarray(ends, dtype=np.int64) - starts
    view = word_view(b)
    key = np.empty(n, dtype=WORD)
    head = np.empty(n, dtype=WORD)  # the first word of every string, kept for the check
    for lo in range(0, n, _BLOCK):
        s, ln = starts[lo : lo + _BLOCK], lens[lo : lo + _BLOCK]
        w = words_at(b, view, s, ln)
        head[lo : lo + len(s)] = w
        k = w * _MULT + ln.astype(WORD)
        sub = np.flatnonzero(ln > 8)
        at = 8
        while len(sub):  # the further words of the strings that long only
            k[sub] = k[sub] * _MULT + words_at(b, view, s[sub] + at, ln[sub] - at)
            at += 8
            sub = sub[ln[sub] > at]
        key[lo : lo + len(s)] = k
    ranked = np.sort(key)  # a plain sort and a hash table: no argsort, no binary search
    values = ranked[np.concatenate([[True], ranked[1:] != ranked[:-1]])]
    del ranked
    table = _Table(values)
    inv = np.empty(n, dtype=np.int64)
    first = np.full(len(values), n, dtype=np.int64)
    for lo in range(0, n, _BLOCK):  # blocks: bounded temporaries
        part = inv[lo : lo + _BLOCK]
        part[:] = table.find(key[lo : lo + _BLOCK])
        np.minimum.at(first, part, np.arange(lo, lo + len(part), dtype=np.int64))
    del key
    for lo in range(0, n, _BLOCK):
        sl = slice(lo, lo + _BLOCK)
        if not _same(b, view, starts[sl], lens[sl], head[sl], first[inv[sl]], starts, lens, head):
            return _exact(b, starts, lens)  # two strings share a hash: practically never
    order = np.argsort(first, kind="stable")
    rank = np.empty(len(order), dtype=np.int64)
    rank[order] = np.arange(len(order))
    return rank[inv], _decode(b, starts, lens, first[order])


class _Table:
    """Where each of some distinct hashes is: an open-addressing table of >= 4 slots per value.

    Indexed by the top bits of the hash, filled and probed for many keys at once.
    """

    def __init__(self, values: WordArray) -> None:
        bits = max(2, (4 * len(values) - 1).bit_length())
        self.values, self.mask, self.shift = values, (1 << bits) - 1, np.uint64(64 - bits)
        self.slots = np.full(1 << bits, -1, dtype=np.int64)
        pos = (values >> self.shift).astype(np.int64)
        pending = np.arange(len(values), dtype=np.int64)
        while len(pending):  # each round, the values whose slot is free claim it (one per slot)
            at = pos[pending]
            free = self.slots[at] == -1
            self.slots[at[free]] = pending[free]
            won = np.zeros(len(pending), dtype=bool)
            won[free] = self.slots[at[free]] == pending[free]
            pending = pending[~won]
            pos[pending] = (pos[pending] + 1) & self.mask

    def find(self, key: WordArray) -> IntArray:
        """The index in ``values`` of every key (each is one of the values)."""
        out = np.empty(len(key), dtype=np.int64)
        todo = np.arange(len(key), dtype=np.int64)
        slot = (key >> self.shift).astype(np.int64)
        while len(todo):  # a key's value lies before the first free slot from its own
            cand = self.slots[slot]
            hit = self.values[cand] == key[todo]
            out[todo[hit]] = cand[hit]
            todo, slot = todo[~hit], (slot[~hit] + 1) & self.mask
        return out


def _same(b: ByteArray, view: WordArray | None, starts: IntArray, lens: IntArray,
          head: WordArray, rep: IntArray, all_starts: IntArray, all_lens: IntArray,
          all_head: WordArray) -> bool:
    """Whether every string equals string ``rep[i]`` of ``all_*`` (its hash's first), bytewise."""
    if not (np.array_equal(lens, all_lens[rep]) and np.array_equal(head, all_head[rep])):
        return False
    sub = np.flatnonzero(lens > 8)
    at = 8
    while len(sub):
        mine = words_at(b, view, starts[sub] + at, lens[sub] - at)
        theirs = words_at(b, view, all_starts[rep[sub]] + at, lens[sub] - at)
        if not np.array_equal(mine, theirs):
            return False
        at += 8
        sub = sub[lens[sub] > at]
    return True


def _decode(b: ByteArray, starts: IntArray, lens: IntArray, which: IntArray) -> tuple[str, ...]:
    return tuple(b[s : s + n].tobytes().decode("utf-8")
                 for s, n in zip(starts[which].tolist(), lens[which].tolist(), strict=True))


def _exact(b: ByteArray, starts: IntArray, lens: IntArray) -> tuple[IntArray, tuple[str, ...]]:
    """:func:`intern_tokens` by decoding every string (the exact path after a hash collision)."""
    index: dict[str, int] = {}
    ids = np.array([index.setdefault(t, len(index)) for t in _decode(
        b, starts, lens, np.arange(len(starts)))], dtype=np.int64)
    return ids, tuple(index)
