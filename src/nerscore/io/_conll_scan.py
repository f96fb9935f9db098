r"""The CoNLL scanner behind :func:`~nerscore.io.conll.read_conll`: bytes to columns.

A block of whole lines is split with NumPy, without Python work per line:
words are runs of bytes above the space (so ``\r`` and tabs separate
them); a block whose lines hold the same number of fields split by single
tabs or single spaces (files as tools write them) needs only the positions
of its newlines and delimiters, and takes that shorter way to the same
result (:mod:`~nerscore.io._conll_lines`). Lines are split into content lines,
``-DOCSTART-`` lines, comments and blank lines, and the token and label columns
of every token line are found both at runs of whitespace and at tabs, so that
``"auto"`` can choose the delimiter for a whole file (:func:`decide`). The label
column is interned into integer ids (:func:`~nerscore.io._bytes.intern_ranges`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from nerscore.errors import FormatError
from nerscore.io._bytes import intern_ranges
from nerscore.io._conll_corpus import ConllCorpus
from nerscore.io._conll_lines import (
    EMPTY_FIELD,
    HASH,
    DelimitedLines,
    Found,
    Ranges,
    ScanOptions,
    Where,
    WordLines,
    delimited_lines,
    word_lines,
)
from nerscore.io._conll_text import ConllText, FieldView, PosArray
from nerscore.io._textfile import decode_error
from nerscore.values.tags import EncodedTags

__all__ = [
    "Block",
    "DelimiterVote",
    "Scan",
    "assemble",
    "column_error",
    "decide",
    "is_empty_field_error",
    "parse_blocks",
    "scan_block",
]

IntArray = npt.NDArray[np.int64]


@dataclass(frozen=True, eq=False)
class Block:
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


@dataclass(frozen=True, eq=False)
class Scan:
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
    columns: dict[str, Found]
    counts: dict[str, tuple[int, int]]


class DelimiterVote:
    """The ``column_delimiter="auto"`` decision over the blocks added so far.

    Keeps only the column-count spreads, so a streaming reader can add its
    blocks one by one and see whether a later block changes the decision.
    """

    def __init__(self) -> None:
        self.n_with_tokens = 0
        self.all_tab = True
        self.space = (0, 0)
        self.tab = (0, 0)

    def add(self, scan: Scan) -> None:
        """Count one block (blocks without tokens do not vote)."""
        if not scan.n_tokens:
            return
        if "tab" not in scan.columns:
            self.all_tab = False
        for kind in ("space", "tab"):
            lo, hi = scan.counts.get(kind, (0, 0))
            old = getattr(self, kind)
            setattr(self, kind, (lo, hi) if not self.n_with_tokens else
                    (min(old[0], lo), max(old[1], hi)))
        self.n_with_tokens += 1

    def decision(self) -> str:
        """``"tab"`` or ``"space"`` (see :func:`decide`)."""
        if not self.n_with_tokens or not self.all_tab:
            return "space"
        ws_lo, ws_hi = self.space
        tab_lo, tab_hi = self.tab
        same = ws_lo == ws_hi == tab_lo
        return "tab" if tab_lo == tab_hi and not same else "space"


def decide(scans: Sequence[Scan]) -> str:
    """The delimiter of ``column_delimiter="auto"`` for a whole file.

    Tabs are the delimiter when every token line has one, every line has the
    same number of tab-separated columns, and splitting at whitespace would
    give other columns somewhere (a column holds a space, or is empty);
    otherwise runs of whitespace are, which also reads files mixing tabs and
    spaces.
    """
    vote = DelimiterVote()
    for scan in scans:
        vote.add(scan)
    return vote.decision()


def parse_blocks(scans: list[Scan], column_delimiter: str) -> tuple[list[Block], str]:
    """Extract and intern the columns of every block under one delimiter.

    Empties ``scans`` as it goes, so that a block's scan is freed once its
    columns are extracted (a whole file is never held twice).
    """
    delimiter = decide(scans) if column_delimiter == "auto" else column_delimiter
    scans.reverse()
    blocks = []
    while scans:
        blocks.append(_extract(scans.pop(), delimiter))
    return blocks, delimiter


def assemble(
    blocks: list[Block], data: bytes, source: str | None, delimiter: str
) -> ConllCorpus:
    """One corpus from consecutive blocks of ``data``.

    Empties ``blocks`` and joins one column at a time, freeing the blocks'
    parts of each column once joined (the columns are never held twice).
    """
    index: dict[str, int] = {}
    ids, offsets, documents = [], [np.zeros(1, dtype=np.int64)], []
    n_sent = n_tok = 0
    for blk in blocks:
        remap = [index.setdefault(t, len(index)) for t in blk.vocab]
        same = remap == list(range(len(remap)))  # the first block's, always
        ids.append(blk.ids if same else np.array(remap, dtype=np.int64)[blk.ids])
        offsets.append(blk.offsets[1:] + n_tok)
        documents.append(blk.documents + n_sent)
        n_sent += len(blk.offsets) - 1
        n_tok += len(blk.ids)
    names = ("token_start", "token_end", "label_start", "label_end", "lines")
    parts = {name: [getattr(blk, name) for blk in blocks] for name in names}
    n_comments = sum(blk.n_comments for blk in blocks)
    blocks.clear()

    def cat(columns: list[Any]) -> Any:
        joined = columns[0] if len(columns) == 1 else np.concatenate(columns)
        columns.clear()
        return joined

    text = ConllText(data, *(cat(parts[name]) for name in names[:4]))
    tags = EncodedTags(cat(ids), cat(offsets), tuple(index), source, cat(parts["lines"]),
                       FieldView(data, text.token_start, text.token_end))
    return ConllCorpus(tags, delimiter, cat(documents), n_comments, text)


def _columns(scan: Scan, delimiter: str) -> Ranges | FormatError:
    found = scan.columns.get(delimiter)
    if found is None:  # "tab" asked for, but some token line has no tab
        found = scan.columns["tab!"]
    if callable(found):  # computed only for the delimiter chosen
        found = found()
    return found


def column_error(scan: Scan, delimiter: str) -> FormatError | None:
    """The error :func:`parse_blocks` raises for the block under ``delimiter`` (None: none).

    A line without the asked columns comes first, then (columns split at
    tabs) an empty field (:func:`is_empty_field_error`), each the first of
    the block.
    """
    found = _columns(scan, delimiter)
    return found if isinstance(found, FormatError) else None


def is_empty_field_error(error: FormatError) -> bool:
    """Whether ``error`` is of an empty tab-separated field, not of a line without the columns."""
    return str(error).startswith(EMPTY_FIELD)


def _extract(scan: Scan, delimiter: str) -> Block:
    """The block's label ids and field ranges under ``delimiter`` (raising its error)."""
    found = _columns(scan, delimiter)
    if isinstance(found, FormatError):
        raise found
    tok_s, tok_e, lab_s, lab_e = found
    ids, vocab = intern_ranges(scan.b, lab_s, lab_e)
    s = scan.start
    # byte positions fit 32 bits below 2 GiB: half the memory for the four columns
    dtype = np.int32 if s + len(scan.b) < 2**31 else np.int64
    cols = [np.add(x, s, dtype=dtype) for x in (tok_s, tok_e, lab_s, lab_e)]
    return Block(ids, vocab, scan.offsets, scan.lines, cols[0], cols[1], cols[2], cols[3],
                 scan.documents, scan.n_comments)


def scan_block(
    data: bytes, start: int, stop: int, first_line: int, opt: ScanOptions,
    column_delimiter: str, validate: bool,
) -> Scan:
    """Split ``data[start:stop]`` (whole lines, the first being ``first_line``).

    Lines whose fields are separated by single delimiter bytes take the fast
    path (:func:`delimited_lines`); any other block is split into words
    (:func:`word_lines`). Both give the same lines and columns.
    """
    if validate:
        try:
            data[start:stop].decode("utf-8")
        except UnicodeDecodeError as exc:
            raise decode_error(exc, data[start:stop], opt.source, opt.encoding,
                               first_line) from None
    b = np.frombuffer(data, dtype=np.uint8, count=stop - start, offset=start)
    lines: DelimitedLines | WordLines | None = delimited_lines(b)
    if lines is None:
        lines = word_lines(b)
    n_lines, cl, cstart = lines.n_lines, lines.content, lines.cstart

    # line kinds
    is_doc = np.zeros(len(cl), dtype=bool)
    if opt.docstart:
        mark = opt.docstart.encode("utf-8")
        cand = (lines.first_end - cstart) == len(mark)
        if cand.any():
            idx = np.flatnonzero(cand)
            ok = np.ones(len(idx), dtype=bool)
            for j, byte in enumerate(mark):
                ok &= b[cstart[idx] + j] == byte
            is_doc[idx[ok]] = True
    is_comment = np.zeros(len(cl), dtype=bool)
    if opt.comments and len(cl):
        is_comment = (b[cstart] == HASH) & ~is_doc
    is_token = ~(is_doc | is_comment)

    # sentences: a boundary is a blank line or a -DOCSTART- line; comments are skipped
    if is_token.all():  # no -DOCSTART- line or comment: a gap between lines is a blank line
        tl = cl
        new = np.empty(len(tl), dtype=bool)
        new[:1] = True
        np.greater(tl[1:] - tl[:-1], 1, out=new[1:])
    else:
        boundary = np.ones(n_lines, dtype=bool)
        boundary[cl] = False
        boundary[cl[is_doc]] = True
        seen = np.cumsum(boundary)
        tl = cl[is_token]
        new = np.ones(len(tl), dtype=bool)
        new[1:] = seen[tl[1:]] != seen[tl[:-1]]
    sent_first = np.flatnonzero(new)
    offsets = np.append(sent_first, len(tl)).astype(np.int64, copy=False)
    documents = np.searchsorted(tl[sent_first], cl[is_doc]).astype(np.int64)

    # the token and label columns of every token line, under each candidate delimiter
    cend = lines.cend
    if len(tl) != len(cl):
        cstart, cend = cstart[is_token], cend[is_token]
    where = Where(data, start, first_line, tl, cstart, cend, opt)
    columns: dict[str, Found] = {}
    counts: dict[str, tuple[int, int]] = {}
    lines.add_columns(b, is_token, where, column_delimiter, columns, counts)
    return Scan(b, start, offsets, np.add(tl, first_line, dtype=np.int64), documents,
                 int(is_comment.sum()), len(tl), columns, counts)
