r"""A CoNLL file read in blocks: sentence by sentence (:func:`iter_conll`) or chunk by chunk (:class:`ConllChunks`).

Memory stays bounded by the block size plus the longest sentence, however
long the file; every sentence reads as :func:`nerscore.io.conll.read_conll`
reads it, and so does every error. Both are importable from
:mod:`nerscore.io.conll`.
"""

from __future__ import annotations

import codecs
import os
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

from nerscore.errors import FormatError, quoted
from nerscore.io import _conll_source
from nerscore.io._bytes import count_newlines
from nerscore.io._conll_blocks import WholeBlocks, delimiter_changed, file_error
from nerscore.io._conll_corpus import ConllCorpus, Sentence, reader_notes
from nerscore.io._conll_lines import ScanOptions
from nerscore.io._conll_scan import DelimiterVote, assemble, parse_blocks, scan_block
from nerscore.io._conll_source import (
    ColumnDelimiter,
    Source,
    check_options,
    check_source,
    name_of,
)
from nerscore.io._textfile import check_not_wide, decode_error, naming

__all__ = ["STREAM_BLOCK_SIZE", "ConllChunks", "iter_conll", "iter_conll_chunks"]

#: Blocks of the streaming reader: scanning takes ~150 bytes per byte of block at its peak
#: (read at call time by the format's chunk reader: tests shrink it).
STREAM_BLOCK_SIZE = 1 << 20


def iter_conll(
    source: Source,
    *,
    token_column: int = 0,
    label_column: int = -1,
    column_delimiter: ColumnDelimiter = "auto",
    comments: bool = False,
    encoding: str = "utf-8",
    docstart: str | None = "-DOCSTART-",
    block_size: int = _conll_source.BLOCK_SIZE,
) -> Iterator[Sentence]:
    r"""Stream a CoNLL file sentence by sentence, reading it in blocks.

    Memory stays bounded by ``block_size`` plus the longest run of lines
    without a blank line.

    Parameters
    ----------
    source : path or file object
        A file name, or an open file (binary or text).
    token_column, label_column, comments, encoding, docstart
        As in :func:`~nerscore.io.conll.read_conll`.
    column_delimiter : {"auto", "tab", "space"}
        As in :func:`~nerscore.io.conll.read_conll`, except that with ``"auto"`` the first block
        with tokens decides for the whole file.
    block_size : int
        Bytes read at a time.

    Yields
    ------
    Sentence
        With its file lines, index and document.

    Examples
    --------
    >>> import io
    >>> text = "a O\nb B-X\n\n-DOCSTART- O\n\nc I-Y\n"
    >>> [(s.labels, s.index, s.document) for s in iter_conll(io.StringIO(text), block_size=8)]
    [(('O', 'B-X'), 0, None), (('I-Y',), 1, 0)]
    """
    codec = check_options(token_column, label_column, column_delimiter, encoding)
    if isinstance(block_size, bool) or not isinstance(block_size, int) or block_size < 1:
        raise ValueError(f"Expected `block_size` to be a positive integer; got {quoted(block_size)}.")
    name = name_of(source)
    options = ScanOptions(name, int(token_column), int(label_column), comments, docstart,
                          encoding)
    n_sentences = 0
    n_documents = 0
    delimiter: str = column_delimiter
    for data, first_line, _ in _stream_blocks(source, codec, name, encoding, block_size):
        scan = scan_block(data, 0, len(data), first_line, options, delimiter, False)
        (block,), decided = parse_blocks([scan], delimiter)
        if scan.n_tokens:
            delimiter = decided
        corpus = assemble([block], data, name, decided)
        for sentence in corpus:
            doc = sentence.document
            if doc is not None:
                doc += n_documents
            elif n_documents:
                doc = n_documents - 1
            yield Sentence(sentence.tokens, sentence.labels, sentence.lines,
                           sentence.index + n_sentences, doc, name)
        n_sentences += len(corpus)
        n_documents += len(corpus.documents)


class ConllChunks:
    r"""A CoNLL file read in chunks of whole sentences: an iterable of :class:`ConllCorpus`.

    The file is read ``block_size`` bytes at a time and cut at blank lines;
    each block's sentences are yielded as corpora of at most ``chunk_size``
    sentences, so memory stays bounded by the block size plus the longest
    sentence, however long the file. Every chunk is read exactly as
    :func:`~nerscore.io.conll.read_conll` reads the same sentences (file lines, token strings,
    errors naming file and line); sentence indices and ``documents`` are the
    chunk's own, and its tags know the number of its first sentence in the
    file (``tags.first``), so that a message about them names the file's
    sentence. The totals of the file are counted while reading
    (:attr:`n_sentences`, :attr:`n_tokens`, :attr:`n_documents`,
    :attr:`n_comments`) and :meth:`notes` equals :meth:`ConllCorpus.notes`
    of the whole file once every chunk has been read.

    An error of the file is the one :func:`~nerscore.io.conll.read_conll` raises, word for
    word: once a block fails on its columns, the rest of the file is read
    on, block by block and without keeping it, as far as needed to tell the
    first error of the whole file (a later byte that cannot be decoded comes
    first; see :mod:`nerscore.io._conll_blocks`). Only where the later lines
    choose another column delimiter than the chunks were read with is it
    another error (:meth:`is_file_error`).

    Parameters
    ----------
    source : path or file object
        A file name (the chunks can then be iterated again), or an open
        file (read once).
    chunk_size : int or None
        Most sentences per chunk; None yields one chunk per block.
    block_size : int
        Bytes read at a time (default 1 MiB: scanning a block takes about
        100 times its size at the peak).
    token_column, label_column, column_delimiter, comments, encoding, docstart
        As in :func:`~nerscore.io.conll.read_conll`. With ``column_delimiter="auto"`` the blocks
        read so far decide; a later block that would change the decision of
        :func:`~nerscore.io.conll.read_conll` for the whole file raises :class:`FormatError`
        (name the delimiter with ``column_delimiter``).
    token_heads : bool
        Also read the first bytes of every token as one word, for comparing
        the tokens with another file's (the scorer's reader: the words are
        then read by the thread that reads the file, not by the one that
        compares).

    Examples
    --------
    >>> import io
    >>> text = "-DOCSTART- O\n\na O\nb B-X\n\nc I-Y\n\nd O\n"
    >>> chunks = ConllChunks(io.StringIO(text), chunk_size=2)
    >>> [c.to_lists() for c in chunks]
    [[['O', 'B-X'], ['I-Y']], [['O']]]
    >>> chunks.n_sentences, chunks.n_tokens, chunks.notes()
    (3, 4, ('1 -DOCSTART- line read as document boundary',))
    >>> [c.tags.first for c in ConllChunks(io.StringIO(text), chunk_size=2)]
    [0, 2]
    """

    def __init__(
        self,
        source: Source,
        *,
        chunk_size: int | None = 10_000,
        block_size: int = STREAM_BLOCK_SIZE,
        token_column: int = 0,
        label_column: int = -1,
        column_delimiter: ColumnDelimiter = "auto",
        comments: bool = False,
        encoding: str = "utf-8",
        docstart: str | None = "-DOCSTART-",
        token_heads: bool = False,
    ) -> None:
        self._codec = check_options(token_column, label_column, column_delimiter, encoding)
        self.token_heads = token_heads
        for what, value in (("block_size", block_size), ("chunk_size", chunk_size)):
            if value is None and what == "chunk_size":
                continue
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(f"Expected `{what}` to be a positive integer; got {quoted(value)}.")
        self.source = source
        self.name = name_of(source)
        self.chunk_size = chunk_size
        self.block_size = block_size
        self.encoding = encoding
        self.column_delimiter: str = column_delimiter
        self._options = ScanOptions(self.name, int(token_column), int(label_column), comments,
                                    docstart, encoding)
        self._reset()

    def _reset(self) -> None:
        self.n_sentences = 0
        self.n_tokens = 0
        self.n_documents = 0
        self.n_comments = 0
        #: UTF-8 bytes of the input read so far (its size in bytes for UTF-8 files).
        self.bytes_read = 0
        self._unsettled: FormatError | None = None

    def notes(self) -> tuple[str, ...]:
        """What the reader counted and did not turn into tokens (see :meth:`ConllCorpus.notes`)."""
        return reader_notes(self.name, self.n_documents, self.n_comments)

    def is_file_error(self, error: BaseException) -> bool:
        """Whether ``error``, raised by the chunks, is the one :func:`~nerscore.io.conll.read_conll` raises for the file.

        A :class:`FormatError` is, but for a later change of column delimiter
        (read whole, the file may have no error at all).
        """
        return isinstance(error, FormatError) and error is not self._unsettled

    def __iter__(self) -> Iterator[ConllCorpus]:
        self._reset()
        given = self.column_delimiter if self.column_delimiter in ("tab", "space") else "auto"
        vote = DelimiterVote()
        used: str | None = None
        # where read_conll cuts the file: with tabs asked, the error of a block depends on it
        whole = WholeBlocks(_conll_source.BLOCK_SIZE) if given == "tab" else None
        blocks = _stream_blocks(self.source, self._codec, self.name, self.encoding, self.block_size)
        for data, first_line, bom in blocks:
            self.bytes_read += len(data)
            cuts = whole.feed(data) if whole is not None else []
            scan = scan_block(data, 0, len(data), first_line, self._options, given, False)
            decided = given
            if given == "auto":
                vote.add(scan)
                decided = vote.decision()
                if used is not None and decided != used:
                    last = first_line + data.count(b"\n")
                    self._unsettled = delimiter_changed(self.name, used, decided, last,
                                                        first_line)
                    raise self._unsettled
                if scan.n_tokens:
                    used = decided
            try:
                (block,), _ = parse_blocks([scan], decided)
            except FormatError as exc:  # the whole file's error may be a later one
                del scan
                error, settled = file_error(exc, data, first_line, blocks, self._options,
                                            decided, vote if given == "auto" else None,
                                            None if whole is None else (whole, cuts))
                self._unsettled = None if settled else error
                raise error from None
            del scan
            corpus = assemble([block], data, self.name, decided)
            corpus = replace(corpus, tags=corpus.tags.starting_at(self.n_sentences), bom=bom)
            if self.token_heads and corpus._text is not None:
                corpus = replace(corpus, _text=corpus._text.with_heads())
            self.n_comments += corpus.n_comments
            self.n_documents += len(corpus.documents)
            n = len(corpus)
            if n == 0:  # only blank lines, comments or -DOCSTART-: its bytes still count
                yield corpus
                continue
            step = self.chunk_size or n
            for a in range(0, n, step):
                part = corpus if step >= n else corpus.slice(a, min(a + step, n))
                self.n_sentences += len(part)
                self.n_tokens += part.n_tokens
                yield part


def iter_conll_chunks(source: Source, *, chunk_size: int | None = 10_000,
                      **options: Any) -> ConllChunks:
    r"""A CoNLL file as chunks of at most ``chunk_size`` sentences (see :class:`ConllChunks`).

    Examples
    --------
    >>> import io
    >>> [len(c) for c in iter_conll_chunks(io.StringIO("a O\n\nb O\n\nc O\n"), chunk_size=2)]
    [2, 1]
    """
    return ConllChunks(source, chunk_size=chunk_size, **options)


def _stream_blocks(
    source: Source, codec: str, name: str | None, encoding: str, block_size: int
) -> Iterator[tuple[bytes, int, bool]]:
    """UTF-8 blocks of the input that end at a blank line, their first line, and the BOM.

    The BOM (see :func:`~nerscore.io._conll_source.to_utf8`) is true for a first block after one.
    """
    check_source(source)
    own = isinstance(source, (str, os.PathLike))
    fh: Any = open(os.fspath(source), "rb") if own else source  # type: ignore[arg-type]  # noqa: SIM115
    try:
        decoder = codecs.getincrementaldecoder(codec)()
        pending = b""
        line = 1
        first = True
        bom = False
        while True:
            with naming(name or "<input>"):
                chunk = fh.read(block_size)
            final = not chunk
            # UTF-8 bytes are kept as read and checked block by block (see _checked)
            raw = codec == "utf-8" and isinstance(chunk, bytes)
            if raw:
                data = chunk
                if first and (len(pending) + len(chunk) >= len(codecs.BOM_UTF8) or final):
                    bom = (pending + chunk).startswith(codecs.BOM_UTF8)
                    data, pending, first = (pending + chunk).removeprefix(codecs.BOM_UTF8), b"", False
                    check_not_wide(data[:256], name, encoding)
            else:
                if isinstance(chunk, str):
                    text = chunk
                else:
                    try:
                        text = decoder.decode(chunk, final=final)
                    except UnicodeError as exc:  # UnicodeDecodeError, or no byte order mark
                        raise decode_error(exc, chunk, name, encoding,
                                           line + pending.count(b"\n")) from None
                if first and text:
                    bom = text.startswith("\ufeff")
                    text = text.removeprefix("\ufeff")
                    first = False
                data = text.encode("utf-8")
            pending += data
            if final:
                if line == 1 and b"\r" in pending and b"\n" not in pending:
                    pending = pending.replace(b"\r", b"\n")  # old Mac line endings
                if pending or line == 1:
                    yield _checked(pending, raw, name, encoding, line), line, bom
                return
            cut = _last_blank_line(pending)
            if cut > 0:
                block, pending = pending[:cut], pending[cut:]
                yield _checked(block, raw, name, encoding, line), line, bom
                bom = False
                line += count_newlines(block)
    finally:
        if own:
            fh.close()


def _last_blank_line(data: bytes) -> int:
    """Offset just after the newline that starts the last blank line of ``data`` (0 if none)."""
    for start in (max(len(data) - (1 << 16), 0), 0):  # the last 64 KiB hold one, most often
        cut = max(data.rfind(b"\n\n", start), data.rfind(b"\n\r\n", start)) + 1
        if cut > 0 or not start:
            return cut
    return 0


def _checked(block: bytes, raw: bool, name: str | None, encoding: str, line: int) -> bytes:
    """``block``, after checking that bytes kept as read are UTF-8 (a block ends at a newline)."""
    if raw:
        try:
            block.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise decode_error(exc, block, name, encoding, line) from None
    return block
