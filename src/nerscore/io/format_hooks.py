"""What the hooks of a :class:`~nerscore.io.formats.Format` return, and helpers to write them.

A format's whole-file reader returns a :class:`ReadResult`, its chunked
reader a :class:`ChunkStream`, its pair check a :class:`PairCheck`, its
reader of every annotator of one export :class:`AnnotatorSets`;
:class:`Counted` counts what a writer writes, and :func:`lazy` names a hook
whose module is imported on the first call. :mod:`nerscore.io.formats`
re-exports every name.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol

from nerscore.errors import NerscoreError

if TYPE_CHECKING:
    from nerscore.io.formats import Format
    from nerscore.values.documents import Document

__all__ = ["AnnotatorSets", "ChunkStream", "Counted", "PairCheck", "ReadResult", "any_input_error",
           "lazy"]


def _no_texts(*_: Any) -> None:
    return None


def _itself(chunk: Any) -> Any:
    return chunk


def _unknown_position() -> tuple[int, int]:
    return 0, 0


def _never(_: BaseException) -> bool:
    return False


def any_input_error(error: BaseException) -> bool:
    """``ChunkStream.file_error`` of a reader whose chunks raise the whole-file reader's error.

    For a format whose chunked reader reads as its whole-file reader does,
    stage by stage (or reads on, keeping nothing, to find an earlier
    stage's error), every input error it raises is the file's.
    """
    return isinstance(error, NerscoreError)


class ReadResult(NamedTuple):
    """A whole file as a reader gives it.

    Attributes
    ----------
    data : EncodedTags or list of Document
        What is scored: tag sequences (a tag format) or documents (a span format).
    notes : tuple of str
        What the reader counted and did not turn into data (merged entities,
        document boundaries, comments), as sentences naming the file.
    texts : callable
        ``texts()``: the tokens of each sentence, or None where the file
        has none (error listings show them); called only when needed.
    source : object
        The reader's own object (e.g. :class:`~nerscore.io.conll.ConllCorpus`),
        which the format's pair check receives.
    documents : tuple of int
        Sentence indices at which a document starts (CoNLL ``-DOCSTART-``
        lines; bootstrap intervals resample documents); empty when none.
    path : str
        The file (set by :meth:`~nerscore.io.formats.Format.load`).
    file_format : Format or None
        The format it was read as (set by :meth:`~nerscore.io.formats.Format.load`).
    """

    data: Any
    notes: tuple[str, ...] = ()
    texts: Callable[[], Sequence[list[str]] | None] = _no_texts
    source: Any = None
    documents: tuple[int, ...] = ()
    path: str = ""
    file_format: Format | None = None


class AnnotatorSets(NamedTuple):
    """Every annotator's documents of one export of several (Label Studio, Prodigy, INCEpTION).

    Attributes
    ----------
    documents : dict of str to list of Document
        Annotator -> the documents it annotated, in order of first
        appearance; a document an annotator did not annotate is not in its
        list.
    notes : tuple of str
        What the reader counted and left out, as sentences naming the file.
    """

    documents: dict[str, list[Document]]
    notes: tuple[str, ...] = ()


class ChunkStream(NamedTuple):
    """A file read chunk by chunk, for streaming.

    Attributes
    ----------
    chunks : iterable
        Consecutive chunks of whole sentences or documents; each has ``len``
        and is sliced with ``chunk.slice(a, b)`` or ``chunk[a:b]`` (chunks of
        the two sides are cut to equal lengths).
    data : callable
        ``data(chunk)``: the chunk as :class:`~nerscore.EncodedTags` or a list
        of :class:`~nerscore.Document` (default: the chunk itself).
    texts : callable
        ``texts(chunk)``: the tokens of each sentence of the chunk, or None.
    notes : callable
        ``notes()``: the reader's notes on the whole file, once every chunk
        has been read.
    position : callable
        ``position()``: ``(bytes read, size of the file)``; ``(0, 0)`` where
        unknown (the progress bar).
    file_error : callable
        ``file_error(exc)``: whether an error raised while reading ``chunks``
        is the one the format's whole-file reader raises for the file (the
        chunks having read on as far as needed to tell it); by default
        never, and the streaming scorer reads the files whole to raise it
        (:func:`any_input_error`: always, for a reader that tells it).
    """

    chunks: Iterable[Any]
    data: Callable[[Any], Any] = _itself
    texts: Callable[[Any], Sequence[list[str]] | None] = _no_texts
    notes: Callable[[], tuple[str, ...]] = tuple
    position: Callable[[], tuple[int, int]] = _unknown_position
    file_error: Callable[[BaseException], bool] = _never


class Counted:
    """Chunks passed through once, counted: for writers, which return how much they wrote.

    Examples
    --------
    >>> chunks = Counted([["a", "b"], ["c"]])
    >>> list(chunks.items()), chunks.count
    (['a', 'b', 'c'], 3)
    """

    def __init__(self, chunks: Iterable[Sequence[Any]]) -> None:
        self.chunks = chunks
        self.count = 0

    def __iter__(self) -> Iterator[Sequence[Any]]:
        for chunk in self.chunks:
            self.count += len(chunk)
            yield chunk

    def items(self) -> Iterator[Any]:
        """Every item of every chunk, in order."""
        for chunk in self:
            yield from chunk


class PairCheck(Protocol):
    """What a format checks between a gold and a prediction file of that format.

    :func:`~nerscore.io.formats.pair_notes` adds the two whole files' reader objects once; the
    streaming reader adds aligned chunk pairs in order. :meth:`notes` then
    holds the notes on the whole files.

    A check may also have ``files_error()``: after :meth:`add` has raised
    and the later pairs have been added too, the error that adding the
    whole files at once raises (CoNLL: the first sentence whose lengths
    differ, or the first differing token counted over the whole files). The
    streaming scorer then raises that error without reading the files whole;
    for a check without it, it reads them whole to raise the error.

    Attributes
    ----------
    layout : str
        How the format separates its sentences, said in the error for files
        that hold different numbers of them (CoNLL: ``", separated by blank
        lines"``; see :meth:`~nerscore.errors.LengthMismatchError.of_counts`).
    hint : str
        A further sentence for that error, once :meth:`add` has met a pair
        whose lengths differ ("" until then; the first such pair's).
    """

    layout: str
    hint: str

    def add(self, gold: Any, pred: Any) -> None:
        """Check one aligned pair (raise for what cannot be scored)."""

    def notes(self) -> tuple[str, ...]:
        """What was found that does not stop scoring."""


class _Lazy:
    """A function of a module imported on the first call (picklable)."""

    def __init__(self, module: str, name: str) -> None:
        self.module, self.name = module, name

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return getattr(importlib.import_module(self.module), self.name)(*args, **kwargs)

    def __repr__(self) -> str:
        return f"lazy({self.module!r}, {self.name!r})"


def lazy(module: str, name: str) -> Callable[..., Any]:
    """The function ``name`` of ``module``, imported when first called.

    For hooks of a :class:`Format` whose code lives in a module that the
    format's own module should not import up front.

    Parameters
    ----------
    module : str
        Dotted module path.
    name : str
        The function's name in it.

    Returns
    -------
    callable

    Examples
    --------
    >>> dumps = lazy("json", "dumps")
    >>> dumps([1])
    '[1]'
    """
    return _Lazy(module, name)
