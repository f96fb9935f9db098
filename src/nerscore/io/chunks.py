"""Both sides of a scoring run as aligned chunks: the readers behind :mod:`nerscore.accumulate.files`.

Files are read chunk by chunk by the chunked reader of their format
(:attr:`nerscore.io.formats.Format.chunks`) and the two sides are cut into
pairs of chunks of the same sentences or documents (:func:`pair_chunks`),
with the readers' notes, and the format's pair check where both sides have
one format, counted over the whole files. Tag chunks are numbered as the
files' sentences (:attr:`~nerscore.EncodedTags.first`), and an input error
found in a chunk is kept (:class:`FirstError`) while the rest of the files
is read, until it is known to be the one that reading them whole raises.
"""

from __future__ import annotations

import functools
import os
import queue
import sys
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Generic, TypeVar, cast

from nerscore.errors import LengthMismatchError, NerscoreError
from nerscore.io.defaults import CHUNK_SIZE
from nerscore.values.tags import EncodedTags

if TYPE_CHECKING:
    from nerscore.io.formats import Format

__all__ = [
    "CHUNK_SIZE",
    "ChunkPairs",
    "FirstError",
    "NotStreamable",
    "ReadAhead",
    "chunk_pairs",
    "cut_chunks",
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


def cut_chunks(chunks: Iterable[T], size: int) -> Iterator[T]:
    """The chunks of ``chunks``, each cut into chunks of at most ``size`` sequences.

    Examples
    --------
    >>> list(cut_chunks([[1, 2, 3, 4, 5], [], [6]], 2))
    [[1, 2], [3, 4], [5], [], [6]]
    """
    for chunk in chunks:
        n = _length(chunk)
        if n <= size:
            yield chunk
            continue
        for a in range(0, n, size):
            yield _cut(chunk, a, min(a + size, n))


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


class FirstError:
    """The input error that reading a pair of files whole raises, found chunk by chunk.

    Read whole, a pair of files is checked one stage after another, each
    stage over the whole files: the readers (gold, then prediction), the
    format's pair check (the numbers of sentences, their lengths, the
    tokens), then the scoring's stages (the scorer numbers them: lower comes
    first). Chunk by chunk, an error found in one chunk is that error only
    if no earlier stage fails in a later chunk; so once one is found, the
    rest of the files is read and checked for the earlier stages only
    (:meth:`wants`), and :meth:`error` tells which error it is. A reader's
    error comes before all of them: where the reader tells that it is the
    one of the whole file (:attr:`~nerscore.io.formats.ChunkStream.file_error`),
    it is raised as it is, the prediction's once gold has been read to its
    end without one (:meth:`is_file_error`).

    Attributes
    ----------
    check : PairCheck or None
        The format's pair check (its ``files_error()`` says its error for
        the whole files).
    readers : dict of str to (Exception, bool)
        What the reader of ``"gold"`` or ``"pred"`` raised, and whether it is
        the error that reading its file whole raises.
    unresolved : Exception or None
        An error whose wording for the whole files cannot be told chunk by
        chunk (a reader's, or one the scorer does not know the stage of):
        the files must be read whole to raise it.
    counts : LengthMismatchError or None
        The files hold different numbers of sentences (found at their ends).
    pair : Exception or None
        The first error of the format's pair check.
    stage, scoring : int, Exception or None
        The earliest scoring error found and its stage.

    Examples
    --------
    >>> found = FirstError()
    >>> found.failed(3, NerscoreError("an invalid tag in sentence 7"))
    >>> found.wants(2), found.wants(3)
    (True, False)
    >>> found.failed(2, NerscoreError("sentence 9 has 2 gold tags but 3 predicted tags"))
    >>> str(found.error())
    'sentence 9 has 2 gold tags but 3 predicted tags'
    """

    def __init__(self, check: Any = None) -> None:
        self.check = check
        self.unresolved: Exception | None = None
        self.counts: LengthMismatchError | None = None
        self.pair: Exception | None = None
        self.stage: int | None = None
        self.scoring: Exception | None = None
        self.readers: dict[str, tuple[Exception, bool]] = {}

    @property
    def found(self) -> bool:
        """Whether an error has been found (scoring stops there)."""
        return (self.unresolved is not None or self.counts is not None or self.pair is not None
                or self.scoring is not None)

    def wants(self, stage: int) -> bool:
        """Whether a later chunk's error of scoring stage ``stage`` would come first."""
        if self.unresolved is not None or self.counts is not None or self.pair is not None:
            return False
        return self.stage is None or stage < self.stage

    def failed(self, stage: int, error: Exception) -> None:
        """A scoring error of ``stage`` in the chunk read last."""
        if self.wants(stage):
            self.stage, self.scoring = stage, error

    def pair_failed(self, error: Exception) -> None:
        """The pair check raised ``error``: its check gives the error of the whole files."""
        if self.pair is None:
            self.pair = error
            if not callable(getattr(self.check, "files_error", None)):
                self.unresolved = error  # a check that cannot say it for the whole files

    def error(self) -> Exception | None:
        """Once every chunk has been read: the error the whole files raise (None: none).

        Only where nothing is :attr:`unresolved`.
        """
        if self.counts is not None:
            return self.counts
        if self.pair is not None:
            whole = self.check.files_error()
            return self.pair if whole is None else whole
        return self.scoring

    def in_scoring(self) -> bool:
        """Whether the error is the scoring's (reading whole, raised after the files are compared)."""
        return self.counts is None and self.pair is None and self.scoring is not None

    def side_of(self, error: BaseException) -> str | None:
        """``"gold"`` or ``"pred"``: whose reader raised ``error`` (None: no reader's)."""
        for side, (raised, _) in self.readers.items():
            if raised is error:
                return side
        return None

    def is_file_error(self, error: BaseException) -> bool:
        """Whether ``error`` is a reader's error that reading the files whole raises as it is."""
        side = self.side_of(error)
        return side is not None and self.readers[side][1]


def _marked(chunks: Iterable[T], found: FirstError, side: str,
            file_error: Callable[[BaseException], bool]) -> Iterator[T]:
    """The chunks of a reader; an error it raises is kept as the reader's (``found.readers``).

    An :class:`OSError` (the file cannot be opened or read) is the whole
    file's error too, whatever the format: read whole, it fails the same way.
    """
    try:
        yield from chunks
    except Exception as exc:
        found.readers[side] = (exc, isinstance(exc, OSError) or bool(file_error(exc)))
        raise


@dataclass
class ChunkPairs:
    """Both sides as streams of aligned chunk pairs, and their notes once read.

    ``errors`` keeps the input errors found while pairing (the pair check's,
    the numbers of sentences); the pairs go on to the ends of the files
    after one (see :class:`FirstError`), a reader's error is raised (the
    prediction's once gold has been read to its end, where it is the one
    of the whole file: read whole, gold is read first).
    """

    pairs: Iterator[tuple[Any, Any, Sequence[Any] | None]]
    notes: Callable[[], tuple[str, ...]]
    token_notes: Callable[[], tuple[str, ...]] = tuple
    #: ``(bytes of gold read so far, size of gold)``; ``(0, 0)`` where unknown.
    position: Callable[[], tuple[int, int]] = lambda: (0, 0)
    errors: FirstError = field(default_factory=FirstError)


def chunk_pairs(gold: str, pred: str, fmts: tuple[Format, Format], one_file: bool,
                chunk_size: int, gold_options: Mapping[str, Any],
                pred_options: Mapping[str, Any], strict_tokens: bool) -> ChunkPairs:
    """Both files as pairs of aligned chunks of at most ``chunk_size`` sentences or documents.

    ``one_file``: both sides are read from ``gold`` (its notes are counted once).

    Tag chunks are numbered as the files' sentences (``first``: the
    sentences paired before them), whatever their reader did.

    The errors of the pair check and a difference in the numbers of
    sentences are kept in ``errors`` (:class:`FirstError`), worded as the
    format's pair check words them for the whole files (for two CoNLL files
    with different numbers of sentences: how they are separated and the
    first sentence whose lengths differ); the pairs go on to the ends of
    the files.

    Raises
    ------
    NotStreamable
        For a format read whole (BRAT), for tags against spans, and (while
        iterating) for span files that do not list the same documents in
        the same order (or as many).
    """
    g_fmt, p_fmt = fmts
    g_read, p_read = g_fmt.chunks, p_fmt.chunks
    if g_read is None or p_read is None:
        raise NotStreamable(f"{(g_fmt if g_read is None else p_fmt).name} files are read whole")
    kind = g_fmt.kind_of(gold, gold_options)
    if p_fmt.kind_of(pred, pred_options, unread=kind) != kind:  # gold read first, as whole
        raise NotStreamable("one side holds tags and the other spans")
    g = g_read(gold, chunk_size, g_fmt.reader_options(gold_options))
    p = p_read(pred, chunk_size, p_fmt.reader_options(pred_options))
    check = None
    if g_fmt is p_fmt and g_fmt.pair_check is not None:
        check = g_fmt.pair_check(gold, pred, strict_tokens=strict_tokens)
    found = FirstError(check)

    # what the pair check knows of the format (CoNLL: how its sentences are separated, and
    # where one's lengths differ) is said as the whole files' check says it
    layout = "" if check is None else check.layout

    def hint() -> str:
        return "" if check is None else check.hint

    def aligned(g_chunks: Iterator[Any], p_chunks: Iterator[Any],
                ) -> Iterator[tuple[Any, Any, Sequence[Any] | None]]:
        unit = "documents" if kind == "spans" else "sentences"
        paired = pair_chunks(g_chunks, p_chunks, names=(gold, pred), unit=unit,
                             layout=layout, hint=hint)
        n = 0  # sentences paired so far
        try:
            for gc, pc in paired:
                if check is not None:
                    try:
                        check.add(gc, pc)
                    except NerscoreError as exc:  # said at the end, for the whole files
                        found.pair_failed(exc)
                y_true, y_pred = g.data(gc), p.data(pc)
                if kind == "spans":
                    if [d.id for d in y_true] != [d.id for d in y_pred]:
                        raise NotStreamable(_ORDER)
                elif isinstance(y_true, EncodedTags) and isinstance(y_pred, EncodedTags):
                    y_true, y_pred = y_true.starting_at(n), y_pred.starting_at(n)
                    n += y_true.n_sequences
                yield y_true, y_pred, g.texts(gc)
        except LengthMismatchError as exc:
            if found.side_of(exc) is not None:
                raise
            if kind == "spans":  # documents are joined by id when read whole
                raise NotStreamable(_ORDER) from None
            found.counts = exc  # read to the ends of both files, as when read whole

    def pairs() -> Iterator[tuple[Any, Any, Sequence[Any] | None]]:
        with ReadAhead(_marked(g.chunks, found, "gold", g.file_error)) as g_chunks, \
                ReadAhead(_marked(p.chunks, found, "pred", p.file_error)) as p_chunks:
            try:
                yield from aligned(g_chunks, p_chunks)
            except Exception as exc:
                if found.side_of(exc) == "pred" and found.is_file_error(exc):
                    for _ in g_chunks:  # read whole, gold's reader fails first
                        pass
                raise

    def pair_notes() -> tuple[str, ...]:
        return () if check is None else check.notes()

    def notes() -> tuple[str, ...]:
        return g.notes() + (() if one_file else p.notes()) + pair_notes()

    return ChunkPairs(pairs(), notes, pair_notes, g.position, found)


_ORDER = "the span files do not list the same documents in the same order"
