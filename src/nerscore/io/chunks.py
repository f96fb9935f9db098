"""Both sides of a scoring run as aligned chunks: the readers behind :mod:`nerscore.accumulate.files`.

Files are read chunk by chunk by the chunked reader of their format
(:attr:`nerscore.io.formats.Format.chunks`) and the two sides are cut into
pairs of chunks of the same sentences or documents (:func:`pair_chunks`),
with the readers' notes, and the format's pair check where both sides have
one format, counted over the whole files.
"""

from __future__ import annotations

import functools
import os
import queue
import sys
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, TypeVar, cast

from nerscore.errors import LengthMismatchError
from nerscore.io.defaults import CHUNK_SIZE
from nerscore.values.tags import EncodedTags

if TYPE_CHECKING:
    from nerscore.io.formats import Format

__all__ = [
    "CHUNK_SIZE",
    "ChunkPairs",
    "NotStreamable",
    "ReadAhead",
    "chunk_pairs",
    "pair_chunks",
    "release_freed_memory",
    "slice_tags",
    "usable_cpus",
]

T = TypeVar("T")


class NotStreamable(Exception):
    """The inputs cannot be scored chunk by chunk with the same result; ``reason`` says why."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


# --------------------------------------------------------------------------- chunk pairing


def slice_tags(tags: EncodedTags, start: int, stop: int) -> EncodedTags:
    """Sequences ``start`` to ``stop`` (exclusive) of encoded tags, same vocabulary.

    The slice's sequences keep their numbers in the file (``first``).

    Examples
    --------
    >>> enc = EncodedTags.from_lists([["B-X"], ["O", "O"], ["I-X"]])
    >>> part = slice_tags(enc, 1, 3)
    >>> part.to_lists(), part.first, part.describe(2)
    ([['O', 'O'], ['I-X']], 1, 'token 0 of sentence 2')
    """
    o0, o1 = int(tags.offsets[start]), int(tags.offsets[stop])
    return EncodedTags(
        tags.ids[o0:o1], tags.offsets[start : stop + 1] - o0, tags.vocab, tags.source,
        None if tags.lines is None else tags.lines[o0:o1],
        None if tags.tokens is None else tags.tokens[o0:o1], tags.first + start,
    )


def _length(chunk: Any) -> int:
    if isinstance(chunk, EncodedTags):
        return chunk.n_sequences
    return len(chunk)


def _cut(chunk: Any, start: int, stop: int) -> Any:
    if start == 0 and stop == _length(chunk):
        return chunk
    if isinstance(chunk, EncodedTags):
        return slice_tags(chunk, start, stop)
    if hasattr(chunk, "slice"):
        return chunk.slice(start, stop)
    return chunk[start:stop]


def pair_chunks(gold: Iterable[T], pred: Iterable[T], *,
                names: tuple[str | None, str | None] = (None, None),
                unit: str = "sequences", layout: str = "",
                hint: Callable[[], str] = str) -> Iterator[tuple[T, T]]:
    """Pair two streams of chunks cut at different places into chunks of equal length.

    Chunks are sentence or document sequences: lists, :class:`EncodedTags`
    or :class:`~nerscore.io.conll.ConllCorpus` (anything with ``len`` and
    slicing). Empty chunks are skipped.

    Parameters
    ----------
    gold, pred : iterable
        The chunks of each side.
    names : tuple of str or None
        The two sides' files, for messages (None: "Gold", "the prediction").
    unit : str
        What a chunk holds, in messages (``"sentences"``, ``"documents"``).
    layout : str
        How the format separates them, in messages (CoNLL: ``", separated
        by blank lines"``), as :meth:`~nerscore.errors.LengthMismatchError.of_counts`
        takes it.
    hint : callable
        ``hint()``: a further sentence for that message, asked for when the
        counts are known to differ (default: none).

    Raises
    ------
    LengthMismatchError
        When one stream holds more sequences than the other; the message
        counts both (the longer one is read to its end).

    Examples
    --------
    >>> list(pair_chunks([[1, 2, 3], [4]], [[1], [2, 3, 4]]))
    [([1], [1]), ([2, 3], [2, 3]), ([4], [4])]
    """
    g_it, p_it = iter(gold), iter(pred)

    def advance(it: Iterator[T]) -> T | None:
        for chunk in it:
            if _length(chunk):
                return chunk
        return None

    g, p = advance(g_it), advance(p_it)
    gi = pi = 0
    n_done = 0
    while g is not None and p is not None:
        n = min(_length(g) - gi, _length(p) - pi)
        yield _cut(g, gi, gi + n), _cut(p, pi, pi + n)
        n_done += n
        gi += n
        pi += n
        if gi == _length(g):
            g, gi = advance(g_it), 0
        if pi == _length(p):
            p, pi = advance(p_it), 0
    if g is not None:
        n_rest = _length(g) - gi + sum(_length(c) for c in g_it)
        raise LengthMismatchError.of_counts(names[0], n_done + n_rest, names[1], n_done,
                                            unit=unit, layout=layout, hint=hint())
    if p is not None:
        n_rest = _length(p) - pi + sum(_length(c) for c in p_it)
        raise LengthMismatchError.of_counts(names[0], n_done, names[1], n_done + n_rest,
                                            unit=unit, layout=layout, hint=hint())



# --------------------------------------------------------------------------- files


class ReadAhead(Generic[T]):
    """The items of ``items``, produced by a thread of their own up to ``depth`` items ahead.

    Reading and scanning a file is NumPy work that runs outside the global
    interpreter lock, so the two sides of a scoring run are read at the same
    time as each other and as the scoring of the chunks already read. The
    items come out in their order, the same as without the thread; an
    exception raised while producing an item is raised where that item
    would have come. :meth:`close` (also on leaving a ``with`` block) stops
    the thread after the item it is producing and closes ``items`` in it.

    ``threaded`` defaults to whether the process may run on more than one
    CPU (:func:`usable_cpus`): on one, a thread gains nothing, and the items
    are produced here, each when asked for (so ``taskset -c 0 nerscore score
    ...`` reads the two files one chunk after the other, as on one core).

    Examples
    --------
    >>> with ReadAhead(iter(range(5)), depth=2) as numbers:
    ...     list(numbers)
    [0, 1, 2, 3, 4]
    >>> def failing():
    ...     yield 1
    ...     raise ValueError("line 7: no label")
    >>> with ReadAhead(failing()) as items:
    ...     next(items)
    ...     next(items)
    Traceback (most recent call last):
    ValueError: line 7: no label
    """

    def __init__(self, items: Iterable[T], *, depth: int = 1,
                 threaded: bool | None = None) -> None:
        self._items = items
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._it: Iterator[T] | None = None
        if threaded is None:
            threaded = usable_cpus() > 1
        if not threaded:
            self._it = iter(items)
            return
        self._handoff: queue.Queue[tuple[int, Any]] = queue.Queue(maxsize=depth)
        self._thread = threading.Thread(target=self._produce, name="nerscore-read-ahead",
                                        daemon=True)
        self._thread.start()

    def _hand_over(self, entry: tuple[int, Any]) -> bool:
        while not self._stop.is_set():
            try:
                self._handoff.put(entry, timeout=_POLL)
            except queue.Full:
                continue
            return True
        return False

    def _produce(self) -> None:
        it = iter(self._items)
        try:
            for item in it:
                if not self._hand_over((_ITEM, item)):
                    return
            self._hand_over((_END, None))
        except BaseException as exc:  # raised in the consumer, where the item would come
            self._hand_over((_RAISED, exc))
        finally:
            _close(it)

    def __iter__(self) -> ReadAhead[T]:
        return self

    def __next__(self) -> T:
        if self._stop.is_set():
            raise StopIteration
        if self._it is not None:  # one CPU: no thread
            return next(self._it)
        kind, value = self._handoff.get()
        if kind == _ITEM:
            return cast(T, value)
        self.close()
        if kind == _RAISED:
            raise value
        raise StopIteration

    def close(self) -> None:
        """Stop the thread (after the item it is producing) and let it close ``items``."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(_JOIN)
        elif self._it is not None:
            _close(self._it)

    def __enter__(self) -> ReadAhead[T]:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def usable_cpus() -> int:
    """How many CPUs this process may run on (its affinity where the system tells it).

    Examples
    --------
    >>> usable_cpus() >= 1
    True
    """
    affinity = getattr(os, "sched_getaffinity", None)
    return len(affinity(0)) if affinity is not None else os.cpu_count() or 1


def release_freed_memory() -> None:
    """Hand the memory that threads have freed back to the system, where the C library can.

    glibc keeps what a thread frees in that thread's own heap (its *arena*),
    out of reach of the other threads: after a whole file is read in a
    thread, its temporary arrays would stay in the process's resident memory
    (some 75 MB after 2M tokens). ``malloc_trim`` releases the free pages of
    every heap; where the C library has no such call this does nothing.

    Examples
    --------
    >>> release_freed_memory()
    """
    trim = _malloc_trim()
    if trim is not None:
        trim(0)


@functools.cache
def _malloc_trim() -> Callable[[int], int] | None:
    if not sys.platform.startswith("linux"):
        return None
    import ctypes

    try:
        return cast("Callable[[int], int]", getattr(ctypes.CDLL(None), "malloc_trim", None))
    except OSError:  # no C library to load
        return None


def _close(it: Iterator[Any]) -> None:
    """Close a generator (runs its ``finally`` blocks: files it opened); other iterators as they are."""
    close = getattr(it, "close", None)
    if close is not None:
        close()


#: What the thread of :class:`ReadAhead` hands over: an item, the end, an exception.
_ITEM, _END, _RAISED = 0, 1, 2
#: Seconds between the producer's checks that the consumer is gone, and that the
#: consumer waits for the producer to finish its item (reading a pipe may not end).
_POLL, _JOIN = 0.05, 5.0


@dataclass
class ChunkPairs:
    """Both sides as streams of aligned chunk pairs, and their notes once read."""

    pairs: Iterator[tuple[Any, Any, Sequence[Any] | None]]
    notes: Callable[[], tuple[str, ...]]
    token_notes: Callable[[], tuple[str, ...]] = tuple
    #: ``(bytes of gold read so far, size of gold)``; ``(0, 0)`` where unknown.
    position: Callable[[], tuple[int, int]] = lambda: (0, 0)


def chunk_pairs(gold: str, pred: str, fmts: tuple[Format, Format], one_file: bool,
                chunk_size: int, gold_options: Mapping[str, Any],
                pred_options: Mapping[str, Any], strict_tokens: bool) -> ChunkPairs:
    """Both files as pairs of aligned chunks of at most ``chunk_size`` sentences or documents.

    ``one_file``: both sides are read from ``gold`` (its notes are counted once).

    Raises
    ------
    NotStreamable
        For a format read whole (BRAT), for tags against spans, and (while
        iterating) for span files that do not list the same documents in
        the same order.
    LengthMismatchError
        While iterating, worded as the format's pair check words it for the
        whole files: for two CoNLL files with different numbers of sentences,
        how they are separated and the first sentence whose lengths differ
        (both files are then read to their ends, as when read whole).
    """
    g_fmt, p_fmt = fmts
    g_read, p_read = g_fmt.chunks, p_fmt.chunks
    if g_read is None or p_read is None:
        raise NotStreamable(f"{(g_fmt if g_read is None else p_fmt).name} files are read whole")
    kind = g_fmt.kind_of(gold, gold_options)
    if p_fmt.kind_of(pred, pred_options) != kind:
        raise NotStreamable("one side holds tags and the other spans")
    g = g_read(gold, chunk_size, g_fmt.reader_options(gold_options))
    p = p_read(pred, chunk_size, p_fmt.reader_options(pred_options))
    check = None
    if g_fmt is p_fmt and g_fmt.pair_check is not None:
        check = g_fmt.pair_check(gold, pred, strict_tokens=strict_tokens)

    # what the pair check knows of the format (CoNLL: how its sentences are separated, and
    # where one's lengths differ) is said as the whole files' check says it
    layout = "" if check is None else check.layout

    def hint() -> str:
        return "" if check is None else check.hint

    def pairs() -> Iterator[tuple[Any, Any, Sequence[Any] | None]]:
        with ReadAhead(g.chunks) as g_chunks, ReadAhead(p.chunks) as p_chunks:
            unit = "documents" if kind == "spans" else "sentences"
            paired = pair_chunks(g_chunks, p_chunks, names=(gold, pred), unit=unit,
                                 layout=layout, hint=hint)
            for gc, pc in paired:
                if check is not None:
                    try:
                        check.add(gc, pc)
                    except LengthMismatchError:
                        # a sentence whose lengths differ: where the numbers of sentences
                        # differ too, the files' count error (read to their ends) says so
                        for _ in paired:
                            pass
                        raise
                y_true, y_pred = g.data(gc), p.data(pc)
                if kind == "spans" and [d.id for d in y_true] != [d.id for d in y_pred]:
                    raise NotStreamable(
                        "the span files do not list the same documents in the same order")
                yield y_true, y_pred, g.texts(gc)

    def pair_notes() -> tuple[str, ...]:
        return () if check is None else check.notes()

    def notes() -> tuple[str, ...]:
        return g.notes() + (() if one_file else p.notes()) + pair_notes()

    return ChunkPairs(pairs(), notes, pair_notes, g.position)
