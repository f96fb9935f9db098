"""Byte machinery shared by the readers: 8-byte words at any offset, and string interning.

Both CoNLL readers (:mod:`nerscore.io.conll` and :mod:`nerscore.io.conlleval_reader`)
look at fields of a file without making a Python string per field: a field
is read as a few little-endian 8-byte words gathered with one NumPy index
per word from :func:`word_view`, and the words are hashed.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import numpy.typing as npt

__all__ = ["GOLDEN", "LONG", "WORD", "count_newlines", "intern_ranges", "low_bytes",
           "raw_words_at", "with_long_strings", "word_view", "words_at"]

IntArray = npt.NDArray[np.int64]
ByteArray = npt.NDArray[np.uint8]
WordArray = npt.NDArray[np.uint64]

#: 8 bytes read little-endian: the first byte is the lowest.
WORD = np.dtype("<u8")
#: Multiplier of Fibonacci hashing (2**64 divided by the golden ratio).
GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_LOW_BYTES = np.array([(1 << (8 * k)) - 1 for k in range(8)] + [(1 << 64) - 1], dtype=WORD)


def word_view(buf: bytes | ByteArray) -> WordArray | None:
    """A read-only view whose element ``i`` is ``buf[i:i + 8]`` as one little-endian word.

    Parameters
    ----------
    buf : bytes or array of uint8
        The bytes (an array may start anywhere in a larger buffer).

    Returns
    -------
    array of uint64 or None
        ``len(buf) - 7`` overlapping words, or None when ``buf`` is shorter
        than 8 bytes.

    Examples
    --------
    >>> view = word_view(b"abcdefghij")
    >>> len(view), int(view[2]).to_bytes(8, "little")
    (3, b'cdefghij')
    >>> word_view(b"short") is None
    True
    """
    if len(buf) < 8:
        return None
    view: Any = np.ndarray((len(buf) - 7,), dtype=WORD, buffer=buf, strides=(1,))
    view.flags.writeable = False
    return view  # type: ignore[no-any-return]


def words_at(
    b: ByteArray, view: WordArray | None, pos: IntArray, remaining: IntArray
) -> WordArray:
    r"""``b[pos : pos + min(remaining, 8)]`` of every position as one zero-padded word.

    Parameters
    ----------
    b : array of uint8
        The bytes.
    view : array of uint64 or None
        ``word_view(b)``.
    pos : array of int
        Start of each word.
    remaining : array of int
        Bytes of each field left from ``pos`` (bytes past 8 are not read,
        bytes past ``remaining`` are zero).

    Returns
    -------
    array of uint64

    Examples
    --------
    >>> b = np.frombuffer(b"Jonas left", dtype=np.uint8)
    >>> w = words_at(b, word_view(b), np.array([0, 6]), np.array([5, 4]))
    >>> [int(x).to_bytes(8, "little") for x in w]
    [b'Jonas\x00\x00\x00', b'left\x00\x00\x00\x00']
    """
    out = raw_words_at(b, view, pos)
    out &= low_bytes(remaining)
    return out


def raw_words_at(b: ByteArray, view: WordArray | None, pos: IntArray) -> WordArray:
    r"""``b[pos : pos + 8]`` of every position as one word, zero-padded past the end of ``b``.

    Examples
    --------
    >>> b = np.frombuffer(b"Jonas left", dtype=np.uint8)
    >>> [int(x).to_bytes(8, "little") for x in raw_words_at(b, word_view(b), np.array([0, 6]))]
    [b'Jonas le', b'left\x00\x00\x00\x00']
    """
    last = len(b) - 8
    past = bool(len(pos)) and int(pos.max()) > last
    out: WordArray
    if view is None:
        out = np.empty(len(pos), dtype=WORD)
    else:
        out = view[np.minimum(pos, last) if past else pos]
    tail = np.flatnonzero(pos > last) if past else ()
    for i in tail:  # the last few bytes of the buffer
        p = int(pos[i])
        out[i] = np.frombuffer(b[p : p + 8].tobytes().ljust(8, b"\0"), dtype=WORD)[0]
    return out


def count_newlines(data: bytes | memoryview) -> int:
    r"""``data.count(b"\n")``, in one vectorised pass (bytes.count is a byte-by-byte loop).

    Examples
    --------
    >>> count_newlines(b"a\nb\n\n")
    3
    """
    return int(np.count_nonzero(np.frombuffer(data, dtype=np.uint8) == 10))


def low_bytes(n: IntArray) -> WordArray:
    """Per element, the mask keeping the ``n`` lowest bytes of a word (all of them from 8 on)."""
    mask: WordArray = _LOW_BYTES[np.clip(n, 0, 8)]
    return mask


#: Strings longer than this many bytes are interned by a dict of their bytes
#: (:func:`with_long_strings`): read as 8-byte words, each would cost a NumPy
#: pass per word, and :func:`intern_ranges` a row that wide for every string.
LONG = 64

Interner = Callable[[ByteArray, IntArray, IntArray], tuple[IntArray, tuple[str, ...]]]


def with_long_strings(
    intern: Interner, b: ByteArray, starts: IntArray, ends: IntArray
) -> tuple[IntArray, tuple[str, ...]]:
    """``intern(b, starts, ends)``, with the strings longer than :data:`LONG` bytes interned aside.

    The few long strings (a run-on line, a label pasted with its sentence)
    are looked up in a dict of their bytes, so the work stays linear in the
    bytes whatever their lengths; ``intern`` sees only the short ones. The
    ids are numbered in order of first occurrence over all strings, as
    ``intern`` numbers them.

    Examples
    --------
    >>> b = np.frombuffer(b"O " + b"X" * 70 + b" O " + b"X" * 70, dtype=np.uint8)
    >>> ids, vocab = with_long_strings(intern_ranges, b, np.array([0, 2, 73, 75]),
    ...                                np.array([1, 72, 74, 145]))
    >>> ids.tolist(), [len(v) for v in vocab]
    ([0, 1, 0, 1], [1, 70])
    """
    long = (ends - starts) > LONG
    if not long.any():
        return intern(b, starts, ends)
    at_short, at_long = np.flatnonzero(~long), np.flatnonzero(long)
    short_ids, short_vocab = intern(b, starts[at_short], ends[at_short])
    seen = np.maximum.accumulate(short_ids) if len(short_ids) else short_ids
    new = np.flatnonzero(np.diff(seen, prepend=-1) > 0)  # where each id occurs first
    index: dict[bytes, int] = {}
    long_first: list[int] = []
    long_ids = np.empty(len(at_long), dtype=np.int64)
    spans = zip(at_long.tolist(), starts[at_long].tolist(), ends[at_long].tolist(), strict=True)
    for k, (at, s, e) in enumerate(spans):
        i = long_ids[k] = index.setdefault(b[s:e].tobytes(), len(index))
        if i == len(long_first):
            long_first.append(at)
    order = np.argsort(np.concatenate([at_short[new], np.array(long_first, dtype=np.int64)]),
                       kind="stable")
    rank = np.empty(len(order), dtype=np.int64)
    rank[order] = np.arange(len(order))
    ids = np.empty(len(starts), dtype=np.int64)
    ids[at_short] = rank[short_ids]
    ids[at_long] = rank[long_ids + len(short_vocab)]
    every = (*short_vocab, *(key.decode("utf-8") for key in index))
    return ids, tuple(every[i] for i in order.tolist())


def intern_ranges(
    b: ByteArray, starts: IntArray, ends: IntArray
) -> tuple[IntArray, tuple[str, ...]]:
    """Integer ids (first-occurrence order) of the UTF-8 byte strings ``b[starts:ends]``.

    Each string is read as 8-byte words (one gather per word) and hashed;
    the hash is checked against the bytes, so a collision only costs a
    slower exact pass. Strings longer than :data:`LONG` bytes are interned
    aside (:func:`with_long_strings`).

    Parameters
    ----------
    b : array of uint8
        The bytes.
    starts, ends : array of int
        Byte range of every string.

    Returns
    -------
    ids : array of int
        Per string, its id: the index of its value in ``vocab``.
    vocab : tuple of str
        The distinct strings, decoded, in order of first occurrence.

    Examples
    --------
    >>> b = np.frombuffer(b"B-PER O B-PER I-PER", dtype=np.uint8)
    >>> ids, vocab = intern_ranges(b, np.array([0, 6, 8, 14]), np.array([5, 7, 13, 19]))
    >>> ids.tolist(), vocab
    ([0, 1, 0, 2], ('B-PER', 'O', 'I-PER'))
    """
    return with_long_strings(_intern_words, b, starts, ends)


def _intern_words(
    b: ByteArray, starts: IntArray, ends: IntArray
) -> tuple[IntArray, tuple[str, ...]]:
    """:func:`intern_ranges` of strings of at most :data:`LONG` bytes."""
    n = len(starts)
    if n == 0:
        return np.zeros(0, dtype=np.int64), ()
    lens = ends - starts
    n_words = -(-int(lens.max()) // 8)
    view = word_view(b)
    exact = n_words <= 1  # no field holds a NUL byte: the word itself is the string
    if exact:  # labels, mostly: one gather, the bytes past each string masked off
        key = raw_words_at(b, view, starts)
        key &= _LOW_BYTES[lens]
    else:
        words = np.empty((n, n_words), dtype=WORD)
        for k in range(n_words):
            words[:, k] = words_at(b, view, starts + 8 * k, lens - 8 * k)
        key = words[:, 0].copy()
        key = key * GOLDEN + lens.astype(np.uint64)
        for k in range(1, n_words):
            key = key * GOLDEN + words[:, k]
    ids, first = _first_seen_ids(key)
    if not exact:
        rep = first[ids]
        if not (np.array_equal(words, words[rep]) and np.array_equal(lens, lens[rep])):
            # a hash collision (practically never): exact byte-string keys
            full = np.concatenate([words, lens.astype(np.uint64)[:, None]], axis=1)
            _, first, inv = np.unique(full.view(f"V{8 * (n_words + 1)}").reshape(-1),
                                      return_index=True, return_inverse=True)
            order = np.argsort(first, kind="stable")
            rank = np.empty(len(order), dtype=np.int64)
            rank[order] = np.arange(len(order))
            ids, first = rank[inv.reshape(-1)], first[order]
    vocab = tuple(b[int(starts[i]) : int(ends[i])].tobytes().decode("utf-8")
                  for i in first.tolist())
    return ids, vocab


#: Keys whose distinct values are taken first (see :func:`_first_seen_ids`).
_HEAD = 4096


def _first_seen_ids(key: WordArray) -> tuple[IntArray, IntArray]:
    """Per key, the id of its value (values numbered in order of first occurrence), and per id that occurrence.

    A file has few distinct labels, nearly all of them in its first lines:
    the distinct values of the first :data:`_HEAD` keys are numbered and put
    in a table by their Fibonacci hash, and one lookup of every key finds
    its id. The keys not found (values first seen past the head, or a value
    whose slot another one took) are few: their values are numbered after
    the head's, and only they are looked up again, by binary search.

    Examples
    --------
    >>> ids, first = _first_seen_ids(np.array([7, 3, 7, 9, 3], dtype=np.uint64))
    >>> ids.tolist(), first.tolist()
    ([0, 1, 0, 2, 1], [0, 1, 3])
    """
    values, first = np.unique(key[:_HEAD], return_index=True)
    if not len(values):
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    seen = np.argsort(first)
    values, first = values[seen], first[seen]
    table = np.zeros(_SLOTS, dtype=np.int64)
    table[(values * GOLDEN) >> _SHIFT] = np.arange(len(values))
    ids = table[(key * GOLDEN) >> _SHIFT]
    missing = values[ids] != key
    if missing.any():
        at = np.flatnonzero(missing)
        more, where = np.unique(key[at], return_index=True)
        new = ~np.isin(more, values)  # not a head value whose slot another one took
        later = np.argsort(at[where[new]])  # all first seen past the head, after the head's
        values = np.concatenate([values, more[new][later]])
        first = np.concatenate([first, at[where[new]][later]])
        by_value = np.argsort(values)
        ids[at] = by_value[np.searchsorted(values[by_value], key[at])]
    return ids, first.astype(np.int64)


#: Slots of the hash table of :func:`_first_seen_ids`: ``2 ** (64 - _SHIFT)``.
_SLOTS = 1 << 16
_SHIFT = np.uint64(64 - 16)
