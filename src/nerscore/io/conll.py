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
"""

from __future__ import annotations

import codecs
import os
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from itertools import chain
from typing import IO, Any, Literal, overload

import numpy as np
import numpy.typing as npt

from nerscore._tags import EncodedTags
from nerscore.errors import FormatError, LengthMismatchError

__all__ = [
    "ConllCorpus",
    "Sentence",
    "check_aligned",
    "iter_conll",
    "read_conll",
    "write_conll",
]

IntArray = npt.NDArray[np.int64]
#: Byte positions in a file (int32 below 2 GiB, else int64).
PosArray = npt.NDArray[np.signedinteger[Any]]
ColumnDelimiter = Literal["auto", "tab", "space"]
Source = str | os.PathLike[str] | IO[bytes] | IO[str]

_DELIMITERS = ("auto", "tab", "space")
#: Bytes up to this one (space, tab, CR and the other control characters) separate words.
_SPACE = 32
_TAB, _NEWLINE, _HASH = 9, 10, ord("#")
_UTF8_NAMES = frozenset({"utf-8", "utf-8-sig", "ascii"})
_BLOCK_SIZE = 1 << 22


# ----------------------------------------------------------------------------- value types


@dataclass(frozen=True, slots=True)
class Sentence:
    """One sentence of a CoNLL file: its tokens and labels, with provenance.

    Parameters
    ----------
    tokens : tuple of str
        The token column.
    labels : tuple of str
        The label column, one label per token.
    lines : tuple of int
        1-based file line of every token (not compared).
    index : int
        Position of the sentence in its file, from 0 (not compared).
    document : int or None
        Index of the ``-DOCSTART-`` document the sentence belongs to, or None
        before the first ``-DOCSTART-`` line (not compared).
    source : str or None
        The file (not compared).

    Examples
    --------
    >>> s = Sentence(("Jonas", "left"), ("B-PER", "O"), lines=(3, 4))
    >>> s == Sentence(("Jonas", "left"), ("B-PER", "O"))
    True
    >>> len(s)
    2
    """

    tokens: tuple[str, ...]
    labels: tuple[str, ...]
    lines: tuple[int, ...] = field(default=(), compare=False)
    index: int = field(default=0, compare=False)
    document: int | None = field(default=None, compare=False)
    source: str | None = field(default=None, compare=False)

    def __len__(self) -> int:
        return len(self.tokens)


class _FieldView(Sequence[str]):
    """Strings of one column, decoded from the file's bytes only when read."""

    __slots__ = ("_data", "_ends", "_starts")

    def __init__(self, data: bytes, starts: PosArray, ends: PosArray) -> None:
        self._data = data
        self._starts = starts
        self._ends = ends

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

    def __repr__(self) -> str:
        head = self[:5]
        more = ", ..." if len(self) > 5 else ""
        return f"<{len(self)} tokens: {', '.join(map(repr, head))}{more}>"


@dataclass(frozen=True, eq=False)
class _Text:
    """The file as UTF-8 bytes and the byte ranges of the token and label fields."""

    data: bytes
    token_start: PosArray
    token_end: PosArray
    label_start: PosArray
    label_end: PosArray


@dataclass(frozen=True, eq=False)
class ConllCorpus:
    r"""A CoNLL file read by :func:`read_conll`.

    Attributes
    ----------
    tags : EncodedTags
        The label column, with ``source``, ``lines`` and ``tokens`` filled:
        pass it to any scorer (``nerscore.evaluate(gold.tags, pred.tags)``) and
        errors name the file and line.
    column_delimiter : {"tab", "space"}
        How the columns were split (as detected or given).
    documents : array of int
        For every ``-DOCSTART-`` line, the index of the first sentence after it.
    n_comments : int
        Number of comment lines skipped (``comments=True``).

    Examples
    --------
    >>> import io
    >>> corpus = read_conll(io.StringIO("Jonas NNP B-PER\nleft VBD O\n\nHi UH O\n"))
    >>> len(corpus), corpus.n_tokens, corpus.to_lists()
    (2, 3, [['B-PER', 'O'], ['O']])
    >>> s = corpus[0]
    >>> s.tokens, s.labels, s.lines
    (('Jonas', 'left'), ('B-PER', 'O'), (1, 2))
    """

    tags: EncodedTags
    column_delimiter: str
    documents: IntArray
    n_comments: int = 0
    _text: _Text | None = field(default=None, repr=False)

    @property
    def source(self) -> str | None:
        """The file name (None for file objects without one)."""
        return self.tags.source

    @property
    def tokens(self) -> Sequence[str]:
        """Token strings of all sentences, concatenated (decoded on access)."""
        assert self.tags.tokens is not None
        return self.tags.tokens

    @property
    def lines(self) -> IntArray:
        """1-based file line of every token."""
        assert self.tags.lines is not None
        return self.tags.lines

    @property
    def n_sentences(self) -> int:
        """Number of sentences."""
        return self.tags.n_sequences

    @property
    def n_tokens(self) -> int:
        """Number of tokens."""
        return len(self.tags)

    def __len__(self) -> int:
        return self.tags.n_sequences

    def __getitem__(self, index: int) -> Sentence:
        n = len(self)
        k = int(index) + n if index < 0 else int(index)
        if not 0 <= k < n:
            raise IndexError(f"Sentence index {index} out of range for {n} sentences.")
        o0, o1 = int(self.tags.offsets[k]), int(self.tags.offsets[k + 1])
        vocab = self.tags.vocab
        return Sentence(
            tuple(self.tokens[o0:o1]),
            tuple(vocab[i] for i in self.tags.ids[o0:o1].tolist()),
            tuple(self.lines[o0:o1].tolist()),
            k,
            self._document_of(k),
            self.source,
        )

    def __iter__(self) -> Iterator[Sentence]:
        return map(self.__getitem__, range(len(self)))

    def _document_of(self, sentence: int) -> int | None:
        d = int(np.searchsorted(self.documents, sentence, side="right")) - 1
        return d if d >= 0 else None

    def to_lists(self) -> list[list[str]]:
        """The label column as one list of labels per sentence."""
        return self.tags.to_lists()

    def notes(self) -> tuple[str, ...]:
        r"""What the reader counted and did not turn into tokens, for reports.

        Examples
        --------
        >>> import io
        >>> text = "-DOCSTART- O\n\n# id 1\nHi O\n"
        >>> read_conll(io.StringIO(text), comments=True).notes()
        ('1 -DOCSTART- line read as document boundary', '1 comment line skipped')
        """
        where = f"{self.source}: " if self.source else ""
        out = []
        n_doc = len(self.documents)
        if n_doc:
            s = "s" if n_doc != 1 else ""
            out.append(f"{where}{n_doc} -DOCSTART- line{s} read as document boundar"
                       f"{'ies' if n_doc != 1 else 'y'}")
        if self.n_comments:
            s = "s" if self.n_comments != 1 else ""
            out.append(f"{where}{self.n_comments} comment line{s} skipped")
        return tuple(out)

    def replace_labels(self, labels: Sequence[Sequence[str]] | EncodedTags) -> tuple[str, int]:
        r"""The file's text with the label column rewritten, everything else untouched.

        Parameters
        ----------
        labels : list of list of str, or EncodedTags
            New labels, shaped like the corpus (one list per sentence).

        Returns
        -------
        text : str
            The file's text (other columns, comments, ``-DOCSTART-`` lines,
            blank lines and line endings kept; a byte-order mark is dropped).
        n_changed : int
            Number of labels that changed.

        Raises
        ------
        LengthMismatchError
            If ``labels`` is not shaped like the corpus.
        ValueError
            If a new label is empty or contains whitespace.

        Examples
        --------
        >>> import io
        >>> corpus = read_conll(io.StringIO("Jonas NNP I-PER\nleft VBD O\n"))
        >>> corpus.replace_labels([["B-PER", "O"]])
        ('Jonas NNP B-PER\nleft VBD O\n', 1)
        """
        text = self._text
        if text is None:
            raise ValueError("This corpus has no file text to rewrite.")
        new = labels if isinstance(labels, EncodedTags) else EncodedTags.from_lists(labels)
        _check_shape(self.tags, new, "the corpus", "the new labels")
        new_vocab = np.asarray(new.vocab, dtype=object)
        old_vocab = np.asarray(self.tags.vocab, dtype=object)
        new_flat = new_vocab[new.ids]
        old_flat = old_vocab[self.tags.ids]
        changed = np.flatnonzero(new_flat != old_flat)
        for lab in new.vocab:
            if not lab or _has_space(lab):
                raise ValueError(
                    f"Expected labels without whitespace; got {lab!r}. A label is one column."
                )
        data = text.data
        pieces: list[bytes] = []
        prev = 0
        starts, ends = text.label_start, text.label_end
        for pos in changed.tolist():
            pieces.append(data[prev : int(starts[pos])])
            pieces.append(str(new_flat[pos]).encode("utf-8"))
            prev = int(ends[pos])
        pieces.append(data[prev:])
        return b"".join(pieces).decode("utf-8"), len(changed)


# ----------------------------------------------------------------------------- reading


def _check_options(
    token_column: int, label_column: int, column_delimiter: str, encoding: str
) -> str:
    for name, value in (("token_column", token_column), ("label_column", label_column)):
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
            raise ValueError(
                f"Expected `{name}` to be an integer column index (0 is the first column, "
                f"-1 the last); got {value!r}."
            )
    if column_delimiter not in _DELIMITERS:
        raise ValueError(
            "Expected `column_delimiter` to be one of 'auto', 'tab' or 'space'; "
            f"got {column_delimiter!r}."
        )
    try:
        return codecs.lookup(encoding).name
    except (LookupError, TypeError):
        raise ValueError(
            f"Expected `encoding` to be a codec name Python knows (e.g. 'utf-8', 'latin-1', "
            f"'cp1252'); got {encoding!r}."
        ) from None


def _name_of(source: Source) -> str | None:
    if isinstance(source, (str, os.PathLike)):
        return os.fspath(source)
    name = getattr(source, "name", None)
    return name if isinstance(name, str) else None


def _read_bytes(source: Source) -> bytes | str:
    if isinstance(source, (str, os.PathLike)):
        with open(source, "rb") as fh:
            return fh.read()
    data = source.read()
    if not isinstance(data, (bytes, str)):
        raise TypeError(f"Expected a path or a file object; got {type(source).__name__}.")
    return data


def _decode_error(
    exc: UnicodeDecodeError, raw: bytes, name: str | None, encoding: str, first_line: int = 1
) -> FormatError:
    line = first_line + raw.count(b"\n", 0, exc.start)
    bad = raw[exc.start : exc.start + 1]
    where = f"{name or 'the input'}, line {line}"
    return FormatError(
        f"Cannot decode byte 0x{bad.hex()} as {encoding} ({where}): the file is in another "
        "encoding. Pass its encoding with the `encoding` option (--encoding on the command "
        "line), e.g. encoding='latin-1' or 'cp1252'.",
        source=name,
        line=line,
    )


def _to_utf8(raw: bytes | str, codec: str, name: str | None, encoding: str) -> tuple[bytes, bool]:
    """The input as UTF-8 bytes without BOM, and whether it still needs validating.

    UTF-8 input is returned as it is and validated block by block while it
    is parsed; other encodings are decoded (and so validated) here.
    """
    if isinstance(raw, str):
        data = raw.removeprefix("\ufeff").encode("utf-8")
        pending = False
    elif codec in _UTF8_NAMES:
        data = raw.removeprefix(codecs.BOM_UTF8)
        pending = True
    else:
        try:
            text = raw.decode(codec)
        except UnicodeDecodeError as exc:
            raise _decode_error(exc, raw, name, encoding) from None
        data = text.removeprefix("\ufeff").encode("utf-8")
        pending = False
    if b"\r" in data and b"\n" not in data:  # old Mac line endings
        data = data.replace(b"\r", b"\n")
    return data, pending


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
    data, validate = _to_utf8(_read_bytes(source), codec, name, encoding)
    options = _Options(name, int(token_column), int(label_column), comments, docstart,
                       encoding)
    scans = [_scan(data, a, b, line, options, column_delimiter, validate)
             for a, b, line in _block_spans(data, _BLOCK_SIZE)]
    blocks, delimiter = _parse_blocks(scans, column_delimiter)
    return _assemble(blocks, data, name, delimiter)


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
        raise ValueError(f"Expected `block_size` to be a positive integer; got {block_size!r}.")
    name = _name_of(source)
    options = _Options(name, int(token_column), int(label_column), comments, docstart,
                       encoding)
    n_sentences = 0
    n_documents = 0
    delimiter: str = column_delimiter
    for data, first_line in _stream_blocks(source, codec, name, encoding, block_size):
        scan = _scan(data, 0, len(data), first_line, options, delimiter, False)
        (block,), decided = _parse_blocks([scan], delimiter)
        if scan.n_tokens:
            delimiter = decided
        corpus = _assemble([block], data, name, decided)
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


def _next_blank_line(data: bytes, pos: int) -> int:
    """Offset just after the first newline at or after ``pos`` that starts a blank line."""
    cuts = [c for c in (data.find(b"\n\n", pos), data.find(b"\n\r\n", pos)) if c >= 0]
    return min(cuts) + 1 if cuts else -1


def _block_spans(data: bytes, size: int) -> list[tuple[int, int, int]]:
    """``(start, stop, first line)`` of blocks of about ``size`` bytes ending at blank lines."""
    out = []
    start, line = 0, 1
    while start < len(data):
        stop = _next_blank_line(data, start + size) if start + size < len(data) else -1
        stop = len(data) if stop < 0 else stop
        out.append((start, stop, line))
        line += data.count(b"\n", start, stop)
        start = stop
    return out or [(0, 0, 1)]


def _stream_blocks(
    source: Source, codec: str, name: str | None, encoding: str, block_size: int
) -> Iterator[tuple[bytes, int]]:
    """UTF-8 blocks of the input that end at a blank line, with their first line number."""
    own = isinstance(source, (str, os.PathLike))
    fh: Any = open(os.fspath(source), "rb") if own else source  # type: ignore[arg-type]  # noqa: SIM115
    try:
        decoder = codecs.getincrementaldecoder(codec)()
        pending = b""
        line = 1
        first = True
        while True:
            chunk = fh.read(block_size)
            final = not chunk
            if isinstance(chunk, str):
                text = chunk
            else:
                try:
                    text = decoder.decode(chunk, final=final)
                except UnicodeDecodeError as exc:
                    raise _decode_error(exc, chunk, name, encoding,
                                        line + pending.count(b"\n")) from None
            if first and text:
                text = text.removeprefix("\ufeff")
                first = False
            pending += text.encode("utf-8")
            if final:
                if pending or line == 1:
                    yield pending, line
                return
            cut = max(pending.rfind(b"\n\n"), pending.rfind(b"\n\r\n")) + 1
            if cut > 0:
                block, pending = pending[:cut], pending[cut:]
                yield block, line
                line += block.count(b"\n")
    finally:
        if own:
            fh.close()


def _has_space(s: str) -> bool:
    return any(c.isspace() for c in s)


@dataclass(frozen=True)
class _Options:
    source: str | None
    token_column: int
    label_column: int
    comments: bool
    docstart: str | None
    encoding: str


@dataclass(frozen=True, eq=False)
class _Block:
    """One parsed block: ids against its own vocabulary, positions in the whole text."""

    ids: IntArray
    vocab: tuple[str, ...]
    offsets: IntArray
    lines: IntArray
    token_start: PosArray
    token_end: PosArray
    label_start: PosArray
    label_end: PosArray
    documents: IntArray
    n_comments: int


Ranges = tuple[IntArray, IntArray, IntArray, IntArray]


@dataclass(frozen=True, eq=False)
class _Scan:
    """A block split into lines, sentences and words, with its columns under each delimiter.

    ``columns`` maps ``"space"``/``"tab"`` to the byte ranges (relative to
    ``start``) of the token and label fields, or to the error that delimiter
    gives; ``"tab"`` is there only when every token line has a tab.
    ``counts`` holds ``(min, max)`` of the number of columns per token line
    under each delimiter.
    """

    b: npt.NDArray[np.uint8]
    start: int
    offsets: IntArray
    lines: IntArray
    documents: IntArray
    n_comments: int
    n_tokens: int
    columns: dict[str, Ranges | FormatError]
    counts: dict[str, tuple[int, int]]


def _decide(scans: Sequence[_Scan]) -> str:
    """The delimiter of ``column_delimiter="auto"`` for a whole file.

    Tabs are the delimiter when every token line has one, every line has the
    same number of tab-separated columns, and splitting at whitespace would
    give other columns somewhere (a column holds a space, or is empty);
    otherwise runs of whitespace are, which also reads files mixing tabs and
    spaces.
    """
    with_tokens = [s for s in scans if s.n_tokens]
    if not with_tokens or any("tab" not in s.columns for s in with_tokens):
        return "space"

    def spread(kind: str) -> tuple[int, int]:
        return (min(s.counts[kind][0] for s in with_tokens),
                max(s.counts[kind][1] for s in with_tokens))

    ws_lo, ws_hi = spread("space")
    tab_lo, tab_hi = spread("tab")
    same = ws_lo == ws_hi == tab_lo
    return "tab" if tab_lo == tab_hi and not same else "space"


def _parse_blocks(
    scans: Sequence[_Scan], column_delimiter: str
) -> tuple[list[_Block], str]:
    """Extract and intern the columns of every block under one delimiter."""
    delimiter = _decide(scans) if column_delimiter == "auto" else column_delimiter
    return [_extract(scan, delimiter) for scan in scans], delimiter


def _assemble(
    blocks: list[_Block], data: bytes, source: str | None, delimiter: str
) -> ConllCorpus:
    """One corpus from consecutive blocks of ``data``."""
    index: dict[str, int] = {}
    ids, offsets, documents = [], [np.zeros(1, dtype=np.int64)], []
    n_sent = n_tok = 0
    for blk in blocks:
        remap = np.array([index.setdefault(t, len(index)) for t in blk.vocab], dtype=np.int64)
        ids.append(remap[blk.ids])
        offsets.append(blk.offsets[1:] + n_tok)
        documents.append(blk.documents + n_sent)
        n_sent += len(blk.offsets) - 1
        n_tok += len(blk.ids)

    def cat(parts: list[Any]) -> Any:
        return parts[0] if len(parts) == 1 else np.concatenate(parts)

    text = _Text(
        data,
        cat([blk.token_start for blk in blocks]),
        cat([blk.token_end for blk in blocks]),
        cat([blk.label_start for blk in blocks]),
        cat([blk.label_end for blk in blocks]),
    )
    tags = EncodedTags(cat(ids), cat(offsets), tuple(index), source,
                       cat([blk.lines for blk in blocks]),
                       _FieldView(data, text.token_start, text.token_end))
    return ConllCorpus(tags, delimiter, cat(documents),
                       sum(blk.n_comments for blk in blocks), text)


def _extract(scan: _Scan, delimiter: str) -> _Block:
    """The block's label ids and field ranges under ``delimiter`` (raising its error)."""
    found = scan.columns.get(delimiter)
    if found is None:  # "tab" asked for, but some token line has no tab
        found = scan.columns["tab!"]
    if isinstance(found, FormatError):
        raise found
    tok_s, tok_e, lab_s, lab_e = found
    ids, vocab = _intern(scan.b, lab_s, lab_e)
    s = scan.start
    # byte positions fit 32 bits below 2 GiB: half the memory for the four columns
    dtype = np.int32 if s + len(scan.b) < 2**31 else np.int64
    return _Block(ids, vocab, scan.offsets, scan.lines, (tok_s + s).astype(dtype),
                  (tok_e + s).astype(dtype), (lab_s + s).astype(dtype),
                  (lab_e + s).astype(dtype), scan.documents, scan.n_comments)


def _scan(
    data: bytes, start: int, stop: int, first_line: int, opt: _Options,
    column_delimiter: str, validate: bool,
) -> _Scan:
    """Split ``data[start:stop]`` (whole lines, the first being ``first_line``)."""
    if validate:
        try:
            data[start:stop].decode("utf-8")
        except UnicodeDecodeError as exc:
            raise _decode_error(exc, data[start:stop], opt.source, opt.encoding,
                                first_line) from None
    b = np.frombuffer(data, dtype=np.uint8, count=stop - start, offset=start)
    sep = b <= _SPACE
    word = ~sep
    flag = word.copy()
    flag[1:] &= sep[:-1]
    wstart = np.flatnonzero(flag)
    flag = word
    flag[:-1] &= sep[1:]
    wend = np.flatnonzero(flag) + 1
    del sep, word, flag
    nlpos = np.flatnonzero(b == _NEWLINE)
    n_lines = len(nlpos) + 1  # the part after the last newline is a (possibly empty) line
    bounds = np.empty(n_lines + 1, dtype=np.int64)
    bounds[0] = 0
    bounds[1:-1] = np.searchsorted(wstart, nlpos)
    bounds[-1] = len(wstart)
    cl = np.flatnonzero(np.diff(bounds))  # content lines (0-based)
    fw = bounds[cl]  # first word of each content line
    lw = bounds[cl + 1] - 1  # last word
    cstart, cend = wstart[fw], wend[lw]

    # line kinds
    is_doc = np.zeros(len(cl), dtype=bool)
    if opt.docstart:
        mark = opt.docstart.encode("utf-8")
        cand = (wend[fw] - cstart) == len(mark)
        if cand.any():
            idx = np.flatnonzero(cand)
            ok = np.ones(len(idx), dtype=bool)
            for j, byte in enumerate(mark):
                ok &= b[cstart[idx] + j] == byte
            is_doc[idx[ok]] = True
    is_comment = np.zeros(len(cl), dtype=bool)
    if opt.comments and len(cl):
        is_comment = (b[cstart] == _HASH) & ~is_doc
    is_token = ~(is_doc | is_comment)

    # sentences: a boundary is a blank line or a -DOCSTART- line; comments are skipped
    boundary = np.ones(n_lines, dtype=bool)
    boundary[cl] = False
    boundary[cl[is_doc]] = True
    seen = np.cumsum(boundary)
    tl = cl[is_token]
    new = np.ones(len(tl), dtype=bool)
    new[1:] = seen[tl[1:]] != seen[tl[:-1]]
    sent_first = np.flatnonzero(new)
    offsets = np.append(sent_first, len(tl)).astype(np.int64)
    documents = np.searchsorted(tl[sent_first], cl[is_doc]).astype(np.int64)

    # the token and label columns of every token line, under each candidate delimiter
    tfw, tcs, tce = fw[is_token], cstart[is_token], cend[is_token]
    where = _Where(data, start, first_line, tl, tcs, tce, opt)
    columns: dict[str, Ranges | FormatError] = {}
    counts: dict[str, tuple[int, int]] = {}
    if column_delimiter in ("auto", "space"):
        n_cols = lw[is_token] - tfw + 1
        counts["space"] = _spread(n_cols)
        columns["space"] = _space_columns(n_cols, tfw, wstart, wend, where)
    if column_delimiter in ("auto", "tab"):
        tabs = np.flatnonzero(b == _TAB)
        tab_lo = np.searchsorted(tabs, tcs)
        n_cols = np.searchsorted(tabs, tce) - tab_lo + 1
        key = "tab" if (n_cols > 1).all() else "tab!"
        counts[key] = _spread(n_cols)
        columns[key] = _tab_columns(n_cols, tab_lo, tabs, tcs, tce, wstart, wend, where)
    return _Scan(b, start, offsets, (tl + first_line).astype(np.int64), documents,
                 int(is_comment.sum()), len(tl), columns, counts)


def _spread(n_cols: IntArray) -> tuple[int, int]:
    return (int(n_cols.min()), int(n_cols.max())) if len(n_cols) else (0, 0)


@dataclass(frozen=True, eq=False)
class _Where:
    """What error messages need to name a token line."""

    data: bytes
    start: int
    first_line: int
    lines: IntArray
    cstart: IntArray
    cend: IntArray
    opt: _Options

    def column_error(self, k: int, n_cols: int, delimiter: str) -> FormatError:
        opt = self.opt
        line = self.first_line + int(self.lines[k])
        s = self.start
        content = self.data[s + int(self.cstart[k]) : s + int(self.cend[k])].decode(
            "utf-8", "replace")
        return FormatError(
            f"Expected a token column ({opt.token_column}) and a different label column "
            f"({opt.label_column}); line {line} of {opt.source or 'the input'} has {n_cols} "
            f"column{'s' if n_cols != 1 else ''} ({content!r}, split at "
            f"{'tabs' if delimiter == 'tab' else 'whitespace'}). Fix the line, or choose the "
            "columns with `token_column`/`label_column` (--token-column/--label-column) and "
            "the delimiter with `column_delimiter` (--delimiter-columns).",
            source=opt.source,
            line=line,
        )

    def empty_error(self, k: int, which: str) -> FormatError:
        line = self.first_line + int(self.lines[k])
        return FormatError(
            f"Empty {which} column at line {line} of {self.opt.source or 'the input'} (columns "
            "split at tabs). Fill it in, or read the file with column_delimiter='space' "
            "(--delimiter-columns space).",
            source=self.opt.source,
            line=line,
        )


def _column_indices(
    n_cols: IntArray, where: _Where, delimiter: str
) -> tuple[IntArray, IntArray] | FormatError:
    tok = _resolve_column(where.opt.token_column, n_cols)
    lab = _resolve_column(where.opt.label_column, n_cols)
    bad = (tok < 0) | (lab < 0) | (tok == lab)
    if bad.any():
        k = int(np.flatnonzero(bad)[0])
        return where.column_error(k, int(n_cols[k]), delimiter)
    return tok, lab


def _space_columns(
    n_cols: IntArray, first_word: IntArray, wstart: IntArray, wend: IntArray, where: _Where
) -> Ranges | FormatError:
    found = _column_indices(n_cols, where, "space")
    if isinstance(found, FormatError):
        return found
    tok, lab = first_word + found[0], first_word + found[1]
    return wstart[tok], wend[tok], wstart[lab], wend[lab]


def _tab_columns(
    n_cols: IntArray, tab_lo: IntArray, tabs: IntArray, cs: IntArray, ce: IntArray,
    wstart: IntArray, wend: IntArray, where: _Where,
) -> Ranges | FormatError:
    found = _column_indices(n_cols, where, "tab")
    if isinstance(found, FormatError):
        return found
    tok_s, tok_e = _tab_field(found[0], tab_lo, tabs, cs, ce, wstart, wend)
    lab_s, lab_e = _tab_field(found[1], tab_lo, tabs, cs, ce, wstart, wend)
    empty = (tok_s >= tok_e) | (lab_s >= lab_e)
    if empty.any():
        k = int(np.flatnonzero(empty)[0])
        return where.empty_error(k, "token" if tok_s[k] >= tok_e[k] else "label")
    return tok_s, tok_e, lab_s, lab_e


def _resolve_column(column: int, n_cols: IntArray) -> IntArray:
    """Per line, the 0-based column index, or -1 when the line has no such column."""
    idx = np.full(len(n_cols), column, dtype=np.int64) if column >= 0 else n_cols + column
    return np.where((idx >= 0) & (idx < n_cols), idx, -1)


def _tab_field(
    col: IntArray, tab_lo: IntArray, tabs: IntArray, cs: IntArray, ce: IntArray,
    wstart: IntArray, wend: IntArray,
) -> tuple[IntArray, IntArray]:
    """Byte range of tab-separated column ``col`` of every line, trimmed of whitespace."""
    lo = np.where(col == 0, cs, tabs[np.minimum(tab_lo + col - 1, len(tabs) - 1)] + 1) \
        if len(tabs) else cs.copy()
    last = tab_lo + col
    has_next = np.searchsorted(tabs, ce) > last
    hi = np.where(has_next, tabs[np.minimum(last, max(len(tabs) - 1, 0))], ce) \
        if len(tabs) else ce.copy()
    # trim: first word starting at or after lo, last word ending at or before hi
    s = wstart[np.minimum(np.searchsorted(wstart, lo), len(wstart) - 1)]
    e = wend[np.maximum(np.searchsorted(wend, hi, side="right") - 1, 0)]
    empty = (s >= hi) | (e <= lo)
    s = np.where(empty, lo, s)
    e = np.where(empty, lo, e)
    return s.astype(np.int64), e.astype(np.int64)


_MULT = np.uint64(0x9E3779B97F4A7C15)
_WORD = np.dtype("<u8")  # 8 bytes read little-endian: the first byte is the lowest
_LOW_BYTES = np.array([(1 << (8 * k)) - 1 for k in range(8)] + [(1 << 64) - 1], dtype=_WORD)


def _byte_rows(b: npt.NDArray[np.uint8]) -> npt.NDArray[np.uint8] | None:
    """A read-only ``(len(b) - 7, 8)`` view: row ``i`` is ``b[i:i + 8]``."""
    if len(b) < 8:
        return None
    return np.lib.stride_tricks.as_strided(b, shape=(len(b) - 7, 8), strides=(1, 1),
                                           writeable=False)


def _words(
    b: npt.NDArray[np.uint8], rows: npt.NDArray[np.uint8] | None, pos: IntArray,
    remaining: IntArray,
) -> npt.NDArray[np.uint64]:
    """``b[pos : pos + min(remaining, 8)]`` of every position as one zero-padded 8-byte word."""
    out = np.empty(len(pos), dtype=_WORD)
    safe = pos <= len(b) - 8
    if rows is not None:
        out[safe] = rows[pos[safe]].view(_WORD).reshape(-1)
    for i in np.flatnonzero(~safe).tolist():  # the last few bytes of the buffer
        p = int(pos[i])
        out[i] = np.frombuffer(b[p : p + 8].tobytes().ljust(8, b"\0"), dtype=_WORD)[0]
    return out & _LOW_BYTES[np.clip(remaining, 0, 8)]


def _intern(
    b: npt.NDArray[np.uint8], starts: IntArray, ends: IntArray
) -> tuple[IntArray, tuple[str, ...]]:
    """Integer ids (first-occurrence order) of the byte strings ``data[starts:ends]``.

    Each string is read as 8-byte words (one strided gather per word) and
    hashed; the hash is checked against the bytes, so a collision only costs
    a slower exact pass.
    """
    n = len(starts)
    if n == 0:
        return np.zeros(0, dtype=np.int64), ()
    lens = ends - starts
    n_words = -(-int(lens.max()) // 8)
    rows = _byte_rows(b)
    words = np.empty((n, n_words), dtype=_WORD)
    for k in range(n_words):
        words[:, k] = _words(b, rows, starts + 8 * k, lens - 8 * k)
    exact = n_words == 1  # no field holds a NUL byte: the word itself is the string
    key = words[:, 0].copy()
    if not exact:
        key = key * _MULT + lens.astype(np.uint64)
        for k in range(1, n_words):
            key = key * _MULT + words[:, k]
    values, first = _distinct(key)
    if not exact:
        rep = first[np.searchsorted(values, key)]
        if not (np.array_equal(words, words[rep]) and np.array_equal(lens, lens[rep])):
            # a hash collision (practically never): exact byte-string keys
            full = np.concatenate([words, lens.astype(np.uint64)[:, None]], axis=1)
            _, first, inv = np.unique(full.view(f"V{8 * (n_words + 1)}").reshape(-1),
                                      return_index=True, return_inverse=True)
            return _ranked(b, starts, ends, first, inv.reshape(-1))
    return _ranked(b, starts, ends, first, np.searchsorted(values, key))


def _ranked(
    b: npt.NDArray[np.uint8], starts: IntArray, ends: IntArray, first: IntArray, inv: IntArray
) -> tuple[IntArray, tuple[str, ...]]:
    """Renumber ids in order of first occurrence and decode the vocabulary."""
    order = np.argsort(first, kind="stable")
    rank = np.empty(len(order), dtype=np.int64)
    rank[order] = np.arange(len(order))
    vocab = tuple(
        b[int(starts[i]) : int(ends[i])].tobytes().decode("utf-8") for i in first[order].tolist()
    )
    return rank[inv].astype(np.int64), vocab


def _distinct(key: npt.NDArray[np.uint64]) -> tuple[npt.NDArray[np.uint64], IntArray]:
    """Sorted distinct values of ``key`` and the first index of each.

    A corpus has few distinct labels, so peeling them off one by one (each
    pass on what is left) beats sorting; many distinct values fall back to
    :func:`numpy.unique`.
    """
    found: list[int] = []
    rest = key
    rest_idx = np.arange(len(key))
    while len(rest):
        if len(found) >= 64:
            values, first = np.unique(key, return_index=True)
            return values, first.astype(np.int64)
        found.append(int(rest_idx[0]))
        keep = rest != rest[0]
        rest, rest_idx = rest[keep], rest_idx[keep]
    first = np.array(found, dtype=np.int64)
    order = np.argsort(key[first])
    return key[first][order], first[order]


# ----------------------------------------------------------------------------- two files


def _check_shape(a: EncodedTags, b: EncodedTags, a_name: str, b_name: str) -> None:
    if a.n_sequences != b.n_sequences:
        raise LengthMismatchError(
            f"{a_name} has {a.n_sequences} sentences but {b_name} has {b.n_sequences}.",
            expected=a.n_sequences, actual=b.n_sequences,
        )
    if not np.array_equal(a.offsets, b.offsets):
        la, lb = a.lengths, b.lengths
        k = int(np.flatnonzero(la != lb)[0])
        raise LengthMismatchError(
            f"Sentence {k} has {int(la[k])} tokens in {a_name} but {int(lb[k])} in {b_name}.",
            expected=int(la[k]), actual=int(lb[k]), sentence=k,
        )


def _sentence_lines(corpus: ConllCorpus, k: int) -> str:
    o0, o1 = int(corpus.tags.offsets[k]), int(corpus.tags.offsets[k + 1])
    first, last = int(corpus.lines[o0]), int(corpus.lines[o1 - 1])
    return f"line {first}" if first == last else f"lines {first}-{last}"


def check_aligned(
    gold: ConllCorpus, pred: ConllCorpus, *, strict_tokens: bool = False
) -> tuple[str, ...]:
    r"""Check that a gold and a prediction file list the same sentences and tokens.

    Parameters
    ----------
    gold, pred : ConllCorpus
        The two files, as read by :func:`read_conll`.
    strict_tokens : bool
        Make a differing token string an error instead of a note.

    Returns
    -------
    tuple of str
        Notes for the report: how many token strings differ and where the
        first one is (empty when all are equal).

    Raises
    ------
    LengthMismatchError
        When the number of sentences, or the length of a sentence, differs;
        the message names the sentence, both lengths and both files' lines.
    FormatError
        With ``strict_tokens=True``, at the first differing token.

    Examples
    --------
    >>> import io
    >>> g = read_conll(io.StringIO("Jonas B-PER\nleft O\n"))
    >>> p = read_conll(io.StringIO("jonas B-PER\nleft O\n"))
    >>> print(*check_aligned(g, p))  # doctest: +NORMALIZE_WHITESPACE
    1 of 2 tokens differ between gold and prediction; the first is token 0 of sentence 0:
    'Jonas' (gold, line 1) vs 'jonas' (prediction, line 1); tags are compared by position.
    """
    g, p = gold.tags, pred.tags
    gname, pname = gold.source or "gold", pred.source or "prediction"
    if g.n_sequences != p.n_sequences or not np.array_equal(g.offsets, p.offsets):
        lg, lp = g.lengths, p.lengths
        m = min(len(lg), len(lp))
        diff = np.flatnonzero(lg[:m] != lp[:m])
        if g.n_sequences != p.n_sequences:
            hint = ""
            if len(diff):
                k = int(diff[0])
                hint = (f" The first sentence whose length differs is sentence {k}: "
                        f"{int(lg[k])} tokens in {gname} ({_sentence_lines(gold, k)}) vs "
                        f"{int(lp[k])} in {pname} ({_sentence_lines(pred, k)}).")
            raise LengthMismatchError(
                f"{gname} has {g.n_sequences} sentences but {pname} has {p.n_sequences}; "
                f"both files must list the same sentences in the same order, separated by "
                f"blank lines.{hint}",
                expected=g.n_sequences, actual=p.n_sequences,
            )
        k = int(diff[0])
        raise LengthMismatchError(
            f"Sentence {k} has {int(lg[k])} tokens in {gname} ({_sentence_lines(gold, k)}) but "
            f"{int(lp[k])} in {pname} ({_sentence_lines(pred, k)}); every sentence needs one "
            "predicted tag per gold token.",
            expected=int(lg[k]), actual=int(lp[k]), sentence=k,
        )
    if gold._text is None or pred._text is None:
        return ()
    differ = _differing_fields(gold._text, pred._text)
    if not len(differ):
        return ()
    pos = int(differ[0])
    seq, idx = g.locate(pos)
    gl, pl = int(gold.lines[pos]), int(pred.lines[pos])
    gt, pt = gold.tokens[pos], pred.tokens[pos]
    what = (f"token {idx} of sentence {seq}: {gt!r} ({gname}, line {gl}) vs {pt!r} "
            f"({pname}, line {pl})")
    if strict_tokens:
        raise FormatError(
            f"Token {idx} of sentence {seq} differs between the files: {gt!r} ({gname}, line "
            f"{gl}) vs {pt!r} ({pname}, line {pl}); {len(differ)} of {len(g)} tokens differ. "
            "Check that both files hold the same text, or allow differing tokens "
            "(strict_tokens=False, without --strict-tokens).",
            source=pred.source, line=pl,
        )
    return (
        f"{len(differ)} of {len(g)} tokens differ between {gname} and {pname}; the first is "
        f"{what}; tags are compared by position.",
    )


def _differing_fields(a: _Text, b: _Text) -> IntArray:
    """Positions whose token strings differ between two texts of the same shape.

    Tokens of equal length are compared 8 bytes at a time; each round keeps
    only the tokens that are still equal and longer.
    """
    la = a.token_end - a.token_start
    lb = b.token_end - b.token_start
    differ = la != lb
    ba = np.frombuffer(a.data, dtype=np.uint8)
    bb = np.frombuffer(b.data, dtype=np.uint8)
    ra, rb = _byte_rows(ba), _byte_rows(bb)
    idx = np.flatnonzero(~differ & (la > 0))
    off = 0
    while len(idx):
        rest = la[idx] - off
        bad = _words(ba, ra, a.token_start[idx] + off, rest) != \
            _words(bb, rb, b.token_start[idx] + off, rest)
        differ[idx[bad]] = True
        idx = idx[~bad & (rest > 8)]
        off += 8
    return np.flatnonzero(differ)


# ----------------------------------------------------------------------------- writing


def write_conll(
    target: str | os.PathLike[str] | IO[str],
    tokens: Sequence[Sequence[str]],
    *columns: Sequence[Sequence[str]],
    column_delimiter: Literal["space", "tab"] = "space",
    documents: Sequence[int] = (),
    encoding: str = "utf-8",
) -> None:
    """Write sentences as a CoNLL column file (token first, then each column).

    Parameters
    ----------
    target : path or text file object
        Where to write.
    tokens : list of list of str
        One list of tokens per sentence.
    *columns : list of list of str
        Further columns (e.g. gold and predicted labels), shaped like ``tokens``.
    column_delimiter : {"space", "tab"}
        Between columns.
    documents : sequence of int
        Sentence indices before which a ``-DOCSTART-`` line is written.
    encoding : str
        Encoding of a file written by name.

    Raises
    ------
    LengthMismatchError
        When a column is not shaped like ``tokens``.
    ValueError
        For an empty field, or a field containing the delimiter or a line break.

    Examples
    --------
    >>> import io
    >>> out = io.StringIO()
    >>> write_conll(out, [["Jonas", "left"], ["Hi"]], [["B-PER", "O"], ["O"]],
    ...             [["B-PER", "B-LOC"], ["O"]])
    >>> print(out.getvalue(), end="")
    Jonas B-PER B-PER
    left O B-LOC
    <BLANKLINE>
    Hi O O
    <BLANKLINE>
    >>> read_conll(io.StringIO(out.getvalue()), label_column=1).to_lists()
    [['B-PER', 'O'], ['O']]
    """
    if column_delimiter not in ("space", "tab"):
        raise ValueError(
            f"Expected `column_delimiter` to be one of 'space' or 'tab'; got {column_delimiter!r}."
        )
    delim = "\t" if column_delimiter == "tab" else " "
    forbidden = re.compile(r"[\t\n\r\v\f]" if delim == "\t" else r"\s")
    cols = [tokens, *columns]
    names = ["tokens"] + [f"column {i + 1}" for i in range(len(columns))]
    enc = [EncodedTags.from_lists(c) if not isinstance(c, EncodedTags) else c for c in cols]
    for e, name in zip(enc[1:], names[1:], strict=True):
        _check_shape(enc[0], e, "tokens", name)
    for col, name in zip(cols, names, strict=True):
        flat = list(chain.from_iterable(col))
        if any(not f or forbidden.search(f) for f in dict.fromkeys(flat)):
            pos = next(i for i, f in enumerate(flat) if not f or forbidden.search(f))
            seq, idx = enc[0].locate(pos)
            rule = "tabs" if delim == "\t" else "spaces (or write with column_delimiter='tab')"
            raise ValueError(
                f"Cannot write {flat[pos]!r} (token {idx} of sentence {seq}, {name}): a field "
                f"must be non-empty and free of line breaks and {rule}."
            )
    doc_set = set(documents)
    width = len(cols)
    parts: list[str] = []
    for k, rows in enumerate(zip(*cols, strict=True)):
        if k in doc_set:
            parts.append(delim.join(["-DOCSTART-"] + ["O"] * (width - 1)) + "\n\n")
        parts.append("".join(delim.join(r) + "\n" for r in zip(*rows, strict=True)) + "\n")
    text = "".join(parts)
    if isinstance(target, (str, os.PathLike)):
        with open(target, "w", encoding=encoding, newline="\n") as fh:
            fh.write(text)
    else:
        target.write(text)
