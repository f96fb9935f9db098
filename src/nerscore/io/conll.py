r"""CoNLL column files: a fast reader, a streaming reader and a writer.

A CoNLL file has one token per line, whitespace-separated columns (the token
first, tags in later columns) and blank lines between sentences. Real files
differ in many small ways; this module reads all of these:

- columns separated by runs of whitespace (tabs and spaces mixed), or by tabs
  only when a column holds spaces (detected per file, or chosen with
  ``column_delimiter``); leading and trailing whitespace of a line, the
  ``\r`` of CRLF line endings and a byte-order mark are ignored;
- ``-DOCSTART-`` lines are document boundaries, not tokens: they end the
  current sentence and are counted (:attr:`ConllCorpus.documents`);
- lines starting with ``#`` are comments when ``comments=True`` (counted);
- any encoding Python knows (``encoding``); undecodable bytes are an error
  naming the file, the line and the ``encoding`` option.

The reader does not split lines one by one in Python: it scans the whole
file (or a block of it) with NumPy, interns the label column into integer
ids without creating a string per token, and decodes token strings only
when they are looked at. Every token keeps its 1-based file line, so errors
found later (an invalid tag, a length mismatch) name the file and line.

The work is split over private modules: ``_conll_scan`` (bytes to columns),
``_conll_corpus`` (:class:`ConllCorpus`, :class:`Sentence`), ``_conll_align``
(:func:`check_aligned`), ``_conll_write`` (:func:`write_conll`) and ``_bytes``
(byte machinery shared with the conlleval reader); every public name is
importable from here. :data:`FORMAT` is the ``conll`` entry of
:mod:`nerscore.io.formats`.
"""

from __future__ import annotations

import codecs
import os
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import replace
from typing import IO, Any, Literal

import numpy as np

from nerscore.errors import FormatError, quoted
from nerscore.io._bytes import count_newlines
from nerscore.io._conll_align import TokenDiff, check_aligned
from nerscore.io._conll_blocks import WholeBlocks, block_spans, delimiter_changed, file_error
from nerscore.io._conll_corpus import ConllCorpus, Sentence, reader_notes
from nerscore.io._conll_fields import LABEL_FORBIDS
from nerscore.io._conll_scan import (
    DelimiterVote,
    ScanOptions,
    assemble,
    parse_blocks,
    scan_block,
)
from nerscore.io._conll_write import write_conll
from nerscore.io._textfile import (
    UTF8_CODECS,
    check_not_wide,
    decode_error,
    decode_text,
    file_codec,
    naming,
)
from nerscore.io.formats import ChunkStream, Format, ReadResult, lazy, register_format

__all__ = [
    "FORMAT",
    "ConllChunks",
    "ConllCorpus",
    "Sentence",
    "TokenDiff",
    "check_aligned",
    "iter_conll",
    "iter_conll_chunks",
    "read_conll",
    "write_conll",
]

ColumnDelimiter = Literal["auto", "tab", "space"]
Source = str | os.PathLike[str] | IO[bytes] | IO[str]

_DELIMITERS = ("auto", "tab", "space")
_BLOCK_SIZE = 1 << 22
#: Blocks of the streaming reader: scanning takes ~150 bytes per byte of block at its peak.
_STREAM_BLOCK_SIZE = 1 << 20
_BOM = b"\xef\xbb\xbf"


# ----------------------------------------------------------------------------- reading


def _check_options(
    token_column: int, label_column: int, column_delimiter: str, encoding: str
) -> str:
    for name, value in (("token_column", token_column), ("label_column", label_column)):
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
            raise ValueError(
                f"Expected `{name}` to be an integer column index (0 is the first column, "
                f"-1 the last); got {quoted(value)}."
            )
    if column_delimiter not in _DELIMITERS:
        raise ValueError(
            "Expected `column_delimiter` to be one of 'auto', 'tab' or 'space'; "
            f"got {quoted(column_delimiter)}."
        )
    return file_codec(encoding)


def _name_of(source: Source) -> str | None:
    if isinstance(source, (str, os.PathLike)):
        return os.fspath(source)
    name = getattr(source, "name", None)
    return name if isinstance(name, str) else None


def _read_bytes(source: Source) -> bytes | str:
    if isinstance(source, (str, os.PathLike)):
        with naming(source), open(source, "rb") as fh:
            return fh.read()
    data = source.read()
    if not isinstance(data, (bytes, str)):
        raise TypeError(f"Expected a path or a file object; got {type(source).__name__}.")
    return data

def _to_utf8(raw: bytes | str, codec: str, name: str | None,
             encoding: str) -> tuple[bytes, bool, bool]:
    """The input as UTF-8 bytes without BOM, whether it still needs validating, and the BOM.

    UTF-8 input is returned as it is and validated block by block while it
    is parsed; other encodings are decoded (and so validated) here. The BOM
    counts where the decoded text began with it (not the mark a codec such
    as ``utf-8-sig`` consumes, nor one read as ``ascii``, which has none).
    """
    if isinstance(raw, str):
        bom = raw.startswith("\ufeff")
        data = raw.removeprefix("\ufeff").encode("utf-8")
        pending = False
    elif codec in UTF8_CODECS:
        bom = codec == "utf-8" and raw.startswith(codecs.BOM_UTF8)
        data = raw.removeprefix(codecs.BOM_UTF8)
        check_not_wide(data[:256], name, encoding)
        pending = True
    else:
        try:
            text = decode_text(raw, codec)
        except UnicodeError as exc:
            raise decode_error(exc, raw, name, encoding) from None
        bom = text.startswith("\ufeff")
        data = text.removeprefix("\ufeff").encode("utf-8")
        pending = False
    if b"\r" in data and b"\n" not in data:  # old Mac line endings
        data = data.replace(b"\r", b"\n")
    return data, pending, bom


def read_conll(
    source: Source,
    *,
    token_column: int = 0,
    label_column: int = -1,
    column_delimiter: ColumnDelimiter = "auto",
    comments: bool = False,
    encoding: str = "utf-8",
    docstart: str | None = "-DOCSTART-",
) -> ConllCorpus:
    r"""Read a CoNLL column file into a :class:`ConllCorpus`.

    Parameters
    ----------
    source : path or file object
        A file name, or an open file (binary or text).
    token_column, label_column : int
        0-based column indices; negative counts from the end (default: the
        first column is the token, the last the label).
    column_delimiter : {"auto", "tab", "space"}
        ``"space"`` splits at runs of whitespace (spaces and tabs mixed);
        ``"tab"`` splits at every tab only (tokens may contain spaces, a
        column may be empty); ``"auto"`` chooses ``"tab"`` when every token
        line has a tab, every line has the same number of tab-separated
        columns and some column holds a space or is empty, and ``"space"``
        otherwise.
    comments : bool
        Skip lines whose first character is ``#`` (and count them).
    encoding : str
        The file's encoding.
    docstart : str or None
        First field of document-boundary lines; None reads them as tokens.

    Returns
    -------
    ConllCorpus
        Its ``tags`` attribute is the label column as
        :class:`~nerscore.EncodedTags` with file lines and tokens.

    Raises
    ------
    FormatError
        For a line without the asked columns, or bytes that cannot be
        decoded; the message names the file and line.
    ValueError
        For an invalid option.
    OSError
        When the file cannot be opened.

    See Also
    --------
    iter_conll : the same, streamed sentence by sentence.
    write_conll : the reverse.

    Notes
    -----
    Spaces, tabs, ``\r`` and the other ASCII control characters separate
    words; leading and trailing whitespace of a line is ignored, and a line
    of whitespace only is blank.

    Examples
    --------
    >>> import io
    >>> text = "-DOCSTART- -X- O\n\nNew York\tNNP\tB-LOC\r\nMüller\tNNP\tB-PER\r\n"
    >>> corpus = read_conll(io.StringIO(text))
    >>> corpus.to_lists(), list(corpus.tokens), corpus.lines.tolist()
    ([['B-LOC', 'B-PER']], ['New York', 'Müller'], [3, 4])
    >>> corpus.column_delimiter, corpus.documents.tolist()
    ('tab', [0])
    """
    codec = _check_options(token_column, label_column, column_delimiter, encoding)
    name = _name_of(source)
    data, validate, bom = _to_utf8(_read_bytes(source), codec, name, encoding)
    options = ScanOptions(name, int(token_column), int(label_column), comments, docstart,
                          encoding)
    scans = [scan_block(data, a, b, line, options, column_delimiter, validate)
             for a, b, line in block_spans(data, _BLOCK_SIZE)]
    blocks, delimiter = parse_blocks(scans, column_delimiter)
    corpus = assemble(blocks, data, name, delimiter)
    return replace(corpus, bom=True) if bom else corpus


def iter_conll(
    source: Source,
    *,
    token_column: int = 0,
    label_column: int = -1,
    column_delimiter: ColumnDelimiter = "auto",
    comments: bool = False,
    encoding: str = "utf-8",
    docstart: str | None = "-DOCSTART-",
    block_size: int = _BLOCK_SIZE,
) -> Iterator[Sentence]:
    r"""Stream a CoNLL file sentence by sentence, reading it in blocks.

    Memory stays bounded by ``block_size`` plus the longest run of lines
    without a blank line.

    Parameters
    ----------
    source : path or file object
        A file name, or an open file (binary or text).
    token_column, label_column, comments, encoding, docstart
        As in :func:`read_conll`.
    column_delimiter : {"auto", "tab", "space"}
        As in :func:`read_conll`, except that with ``"auto"`` the first block
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
    codec = _check_options(token_column, label_column, column_delimiter, encoding)
    if isinstance(block_size, bool) or not isinstance(block_size, int) or block_size < 1:
        raise ValueError(f"Expected `block_size` to be a positive integer; got {quoted(block_size)}.")
    name = _name_of(source)
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
    :func:`read_conll` reads the same sentences (file lines, token strings,
    errors naming file and line); sentence indices and ``documents`` are the
    chunk's own, and its tags know the number of its first sentence in the
    file (``tags.first``), so that a message about them names the file's
    sentence. The totals of the file are counted while reading
    (:attr:`n_sentences`, :attr:`n_tokens`, :attr:`n_documents`,
    :attr:`n_comments`) and :meth:`notes` equals :meth:`ConllCorpus.notes`
    of the whole file once every chunk has been read.

    An error of the file is the one :func:`read_conll` raises, word for
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
        As in :func:`read_conll`. With ``column_delimiter="auto"`` the blocks
        read so far decide; a later block that would change the decision of
        :func:`read_conll` for the whole file raises :class:`FormatError`
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
        block_size: int = _STREAM_BLOCK_SIZE,
        token_column: int = 0,
        label_column: int = -1,
        column_delimiter: ColumnDelimiter = "auto",
        comments: bool = False,
        encoding: str = "utf-8",
        docstart: str | None = "-DOCSTART-",
        token_heads: bool = False,
    ) -> None:
        self._codec = _check_options(token_column, label_column, column_delimiter, encoding)
        self.token_heads = token_heads
        for what, value in (("block_size", block_size), ("chunk_size", chunk_size)):
            if value is None and what == "chunk_size":
                continue
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(f"Expected `{what}` to be a positive integer; got {quoted(value)}.")
        self.source = source
        self.name = _name_of(source)
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
        """Whether ``error``, raised by the chunks, is the one :func:`read_conll` raises for the file.

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
        whole = WholeBlocks(_BLOCK_SIZE) if given == "tab" else None
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

    The BOM (see :func:`_to_utf8`) is true for a first block after one.
    """
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
                if first and (len(pending) + len(chunk) >= len(_BOM) or final):
                    bom = (pending + chunk).startswith(_BOM)
                    data, pending, first = (pending + chunk).removeprefix(_BOM), b"", False
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


# ----------------------------------------------------------------------------- the format


def _sentence_tokens(corpus: ConllCorpus) -> Sequence[list[str]] | None:
    return corpus.tags.sentence_tokens()


def _read(path: str, options: Mapping[str, Any]) -> ReadResult:
    corpus = read_conll(path, **options)
    return ReadResult(corpus.tags, corpus.notes(), lambda: _sentence_tokens(corpus), corpus,
                      tuple(int(d) for d in corpus.documents.tolist()))


def _tags_of(corpus: ConllCorpus) -> Any:
    return corpus.tags


def _chunks(path: str, chunk_size: int, options: Mapping[str, Any]) -> ChunkStream:
    reader = ConllChunks(path, chunk_size=chunk_size, block_size=_STREAM_BLOCK_SIZE,
                         token_heads=True, **options)
    size = os.path.getsize(path) if os.path.isfile(path) else 0

    def position() -> tuple[int, int]:
        return min(reader.bytes_read, size), size

    return ChunkStream(reader, _tags_of, _sentence_tokens, reader.notes, position,
                       reader.is_file_error)


#: The ``conll`` format: any file name no other format claims is CoNLL.
FORMAT = register_format(Format(
    "conll", "CoNLL column files: a token per line, labels in a column, blank lines between "
    "sentences", kind="tags", read=_read,
    suffixes=(".conll", ".conll03", ".iob", ".iob2", ".bio", ".bioes", ".bilou", ".tsv", ".txt",
              ".train", ".dev", ".test", ".testa", ".testb"),
    chunks=_chunks,
    options=("token_column", "label_column", "column_delimiter", "comments", "encoding",
             "docstart"),
    pair_check=TokenDiff,
    write_tags=lazy("nerscore.io.convert.writing", "write_conll_tag_chunks"),
    read_tag_chunks=lazy("nerscore.io.convert.reading", "read_conll_chunks"),
    relabel=lazy("nerscore.io.convert.writing", "relabel_conll"),
    progress_unit="bytes", label_forbids=LABEL_FORBIDS,
))
