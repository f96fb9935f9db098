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

The work is split over private modules: ``_conll_source`` (options, and the
source's bytes as UTF-8), ``_conll_blocks`` (where the file is cut into blocks, and
a whole file's error told block by block), ``_conll_scan`` (bytes to columns, the
lines split into fields by ``_conll_lines``), ``_conll_stream``
(:func:`iter_conll`, :class:`ConllChunks`: the file read in blocks),
``_conll_corpus`` (:class:`ConllCorpus`, :class:`Sentence`), ``_conll_text``
(the file's bytes and field ranges, decoded when read), ``_conll_align``
(:func:`check_aligned`), ``_conll_fields`` (what a writer checks),
``_conll_write`` (:func:`write_conll`) and ``_bytes`` (byte machinery shared
with the conlleval reader); every public name is importable from here.
:data:`FORMAT` is the ``conll`` entry of :mod:`nerscore.io.formats`.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from nerscore.io import _conll_source, _conll_stream
from nerscore.io._conll_align import TokenDiff, check_aligned
from nerscore.io._conll_blocks import block_spans
from nerscore.io._conll_corpus import ConllCorpus, Sentence
from nerscore.io._conll_fields import LABEL_FORBIDS
from nerscore.io._conll_lines import ScanOptions
from nerscore.io._conll_scan import assemble, parse_blocks, scan_block
from nerscore.io._conll_source import (
    ColumnDelimiter,
    Source,
    check_options,
    name_of,
    read_bytes,
    to_utf8,
)
from nerscore.io._conll_stream import (
    ConllChunks,
    iter_conll,
    iter_conll_chunks,
)
from nerscore.io._conll_write import write_conll
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

# ----------------------------------------------------------------------------- reading


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
    codec = check_options(token_column, label_column, column_delimiter, encoding)
    name = name_of(source)
    data, validate, bom = to_utf8(read_bytes(source), codec, name, encoding)
    options = ScanOptions(name, int(token_column), int(label_column), comments, docstart,
                          encoding)
    scans = [scan_block(data, a, b, line, options, column_delimiter, validate)
             for a, b, line in block_spans(data, _conll_source.BLOCK_SIZE)]
    blocks, delimiter = parse_blocks(scans, column_delimiter)
    corpus = assemble(blocks, data, name, delimiter)
    return replace(corpus, bom=True) if bom else corpus


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
    reader = ConllChunks(path, chunk_size=chunk_size, block_size=_conll_stream.STREAM_BLOCK_SIZE,
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
