"""Both sides of a scoring run as aligned chunks: the readers behind :mod:`nerscore.accumulate.files`.

Files are read chunk by chunk (:class:`~nerscore.io.conll.ConllChunks`,
:func:`~nerscore.io.jsonl.iter_jsonl`, :mod:`nerscore.io.parquet`) and the
two sides are cut into pairs of chunks of the same sentences or documents
(:func:`pair_chunks`), with the readers' notes counted over the whole files.
"""

from __future__ import annotations

import itertools
import os
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

import numpy as np

from nerscore.errors import LengthMismatchError
from nerscore.values.tags import EncodedTags

__all__ = [
    "CHUNK_SIZE",
    "FORMATS",
    "ChunkPairs",
    "NotStreamable",
    "chunk_pairs",
    "guess_format",
    "pair_chunks",
    "read_whole",
    "slice_tags",
]

T = TypeVar("T")

CHUNK_SIZE = 10_000

FORMATS = ("conll", "jsonl", "brat", "parquet")

class NotStreamable(Exception):
    """The inputs cannot be scored chunk by chunk with the same result; ``reason`` says why."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def guess_format(path: str | os.PathLike[str], given: str | None = None) -> str:
    """The format of ``path``: ``given``, else from the name.

    ``.jsonl``/``.json``/``.ndjson`` is JSON Lines, ``.parquet``/``.pq``
    Parquet, a folder or ``.ann`` file BRAT, anything else CoNLL. Every
    command and :func:`nerscore.convert_file` guess this way.

    Examples
    --------
    >>> guess_format("gold.jsonl"), guess_format("pred.parquet"), guess_format("x.conll")
    ('jsonl', 'parquet', 'conll')
    >>> guess_format("a.conll", "brat")
    'brat'
    """
    if given is not None:
        if given not in FORMATS:
            raise ValueError(f"Expected a format among {FORMATS}; got {given!r}.")
        return given
    p = os.fspath(path)
    lower = p.lower()
    if lower.endswith((".jsonl", ".json", ".ndjson")):
        return "jsonl"
    if lower.endswith((".parquet", ".pq")):
        return "parquet"
    if lower.endswith(".ann") or os.path.isdir(p) or lower.endswith(("/", os.sep)):
        return "brat"
    return "conll"


# --------------------------------------------------------------------------- chunk pairing


def slice_tags(tags: EncodedTags, start: int, stop: int) -> EncodedTags:
    """Sequences ``start`` to ``stop`` (exclusive) of encoded tags, same vocabulary.

    Examples
    --------
    >>> enc = EncodedTags.from_lists([["B-X"], ["O", "O"], ["I-X"]])
    >>> slice_tags(enc, 1, 3).to_lists()
    [['O', 'O'], ['I-X']]
    """
    o0, o1 = int(tags.offsets[start]), int(tags.offsets[stop])
    return EncodedTags(
        tags.ids[o0:o1], tags.offsets[start : stop + 1] - o0, tags.vocab, tags.source,
        None if tags.lines is None else tags.lines[o0:o1],
        None if tags.tokens is None else tags.tokens[o0:o1],
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


def pair_chunks(gold: Iterable[T], pred: Iterable[T]) -> Iterator[tuple[T, T]]:
    """Pair two streams of chunks cut at different places into chunks of equal length.

    Chunks are sentence or document sequences: lists, :class:`EncodedTags`
    or :class:`~nerscore.io.conll.ConllCorpus` (anything with ``len`` and
    slicing). Empty chunks are skipped.

    Raises
    ------
    LengthMismatchError
        When one stream holds more sequences than the other.

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
    if g is not None or p is not None:
        side = "gold" if g is not None else "the prediction"
        raise LengthMismatchError(
            f"After {n_done} sequences {side} has more; both sides must hold the same "
            "sequences in the same order.",
            expected=n_done, actual=n_done,
        )



# --------------------------------------------------------------------------- files


@dataclass
class ChunkPairs:
    """Both sides as streams of aligned chunk pairs, and their notes once read."""

    pairs: Iterator[tuple[Any, Any, Sequence[Any] | None]]
    notes: Callable[[], tuple[str, ...]]
    token_notes: Callable[[], tuple[str, ...]] = tuple
    #: ``(bytes of gold read so far, size of gold)``; ``(0, 0)`` where unknown.
    position: Callable[[], tuple[int, int]] = lambda: (0, 0)


def _conll_inputs(gold: str, pred: str, one_file: bool, chunk_size: int,
                  gold_options: Mapping[str, Any], pred_options: Mapping[str, Any],
                  strict_tokens: bool) -> ChunkPairs:
    from nerscore.io.conll import ConllChunks, TokenDiff

    g = ConllChunks(gold, chunk_size=chunk_size, **gold_options)
    p = ConllChunks(pred, chunk_size=chunk_size, **pred_options)
    diff = TokenDiff(g.name, p.name, strict_tokens=strict_tokens)

    def pairs() -> Iterator[tuple[Any, Any, Sequence[Any] | None]]:
        for gc, pc in pair_chunks(g, p):
            if not np.array_equal(gc.tags.offsets, pc.tags.offsets):
                lg, lp = gc.tags.lengths, pc.tags.lengths
                k = int(np.flatnonzero(lg != lp)[0])
                raise LengthMismatchError("A sentence has different lengths in the files.",
                                          expected=int(lg[k]), actual=int(lp[k]))
            diff.add(gc, pc)
            tokens = list(gc.tokens)
            offsets = gc.tags.offsets.tolist()
            texts = [tokens[a:b] for a, b in itertools.pairwise(offsets)]
            yield gc.tags, pc.tags, texts

    def notes() -> tuple[str, ...]:
        return g.notes() + (() if one_file else p.notes()) + diff.notes()

    size = os.path.getsize(gold) if os.path.isfile(gold) else 0

    def position() -> tuple[int, int]:
        return min(g.bytes_read, size), size

    return ChunkPairs(pairs(), notes, diff.notes, position)


def _span_chunks(path: str, fmt: str, chunk_size: int,
                 options: Mapping[str, Any]) -> Iterator[list[Any]]:
    if fmt == "jsonl":
        from nerscore.io.jsonl import iter_jsonl

        return iter_jsonl(path, chunk_size=chunk_size, **options)
    from nerscore.io.parquet import iter_parquet_documents

    return iter_parquet_documents(path, chunk_size=chunk_size, **options)


def _span_inputs(gold: str, pred: str, fmts: tuple[str, str], chunk_size: int,
                 gold_options: Mapping[str, Any], pred_options: Mapping[str, Any]) -> ChunkPairs:
    def pairs() -> Iterator[tuple[Any, Any, Sequence[Any] | None]]:
        g = _span_chunks(gold, fmts[0], chunk_size, gold_options)
        p = _span_chunks(pred, fmts[1], chunk_size, pred_options)
        for gc, pc in pair_chunks(g, p):
            if [d.id for d in gc] != [d.id for d in pc]:
                raise NotStreamable(
                    "the span files do not list the same documents in the same order")
            yield gc, pc, None

    return ChunkPairs(pairs(), tuple)


def _parquet_tag_inputs(gold: str, pred: str, chunk_size: int,
                        gold_options: Mapping[str, Any],
                        pred_options: Mapping[str, Any]) -> ChunkPairs:
    from nerscore.io.parquet import iter_parquet_tags

    def pairs() -> Iterator[tuple[Any, Any, Sequence[Any] | None]]:
        g = iter_parquet_tags(gold, chunk_size=chunk_size, **gold_options)
        p = iter_parquet_tags(pred, chunk_size=chunk_size, **pred_options)
        for gc, pc in pair_chunks(g, p):
            texts = None
            if gc.tokens is not None:
                tokens = list(gc.tokens)
                o = gc.offsets.tolist()
                texts = [tokens[a:b] for a, b in itertools.pairwise(o)]
            yield gc, pc, texts

    return ChunkPairs(pairs(), tuple)


def _is_span_parquet(path: str, options: Mapping[str, Any]) -> bool:
    from nerscore.io.parquet import parquet_kind

    return parquet_kind(path, **options) == "spans"


def chunk_pairs(gold: str, pred: str, fmts: tuple[str, str], one_file: bool, chunk_size: int,
            gold_options: Mapping[str, Any], pred_options: Mapping[str, Any],
            strict_tokens: bool) -> ChunkPairs:
    """Both files as pairs of aligned chunks of at most ``chunk_size`` sentences or documents.

    Raises
    ------
    NotStreamable
        For BRAT folders, and for tags against spans.
    """
    if "brat" in fmts:
        raise NotStreamable("BRAT folders are read whole")
    if fmts == ("conll", "conll"):
        return _conll_inputs(gold, pred, one_file, chunk_size, gold_options, pred_options,
                             strict_tokens)
    kinds = tuple(
        "tags" if f == "conll" else "spans" if f == "jsonl" else
        ("spans" if _is_span_parquet(path, opts) else "tags")
        for f, path, opts in zip(fmts, (gold, pred), (gold_options, pred_options),
                                 strict=True)
    )
    if kinds[0] != kinds[1]:
        raise NotStreamable("one side holds tags and the other spans")
    if kinds[0] == "spans":
        return _span_inputs(gold, pred, fmts, chunk_size, gold_options, pred_options)
    if fmts != ("parquet", "parquet"):
        raise NotStreamable("CoNLL and Parquet tag files are scored in memory together")
    return _parquet_tag_inputs(gold, pred, chunk_size, gold_options, pred_options)



def read_whole(path: str, fmt: str, options: Mapping[str, Any]) -> tuple[Any, tuple[str, ...]]:
    """A whole span or Parquet file for scoring, with the reader's notes."""
    if fmt == "jsonl":
        from nerscore.io.jsonl import read_jsonl

        return read_jsonl(path, **options), ()
    if fmt == "brat":
        from nerscore.io.brat import read_brat

        data = read_brat(path, **options)
        return data.documents, tuple(f"{path}: " + n for n in data.stats.notes())
    if fmt == "parquet":
        from nerscore.io.parquet import read_parquet

        return read_parquet(path, **options), ()
    raise NotStreamable(f"cannot score {fmt} against another format")
