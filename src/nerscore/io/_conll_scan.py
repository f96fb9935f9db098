r"""The CoNLL scanner behind :func:`~nerscore.io.conll.read_conll`: bytes to columns.

A block of whole lines is split with NumPy, without Python work per line:
words are runs of bytes above the space (so ``\r`` and tabs separate
them); a block whose lines hold the same number of fields split by single
tabs or single spaces (files as tools write them) needs only the positions
of its newlines and delimiters, and takes that shorter way to the same
result. Lines are split into content lines, ``-DOCSTART-`` lines, comments
and blank lines, and the token and label columns of every token line are
found both at runs of whitespace and at tabs, so that ``"auto"`` can choose
the delimiter for a whole file (:func:`decide`). The label column is
interned into integer ids (:func:`~nerscore.io._bytes.intern_ranges`).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from nerscore.errors import FormatError, quoted
from nerscore.io._bytes import intern_ranges
from nerscore.io._conll_corpus import ConllCorpus
from nerscore.io._conll_text import ConllText, FieldView, PosArray
from nerscore.io._textfile import decode_error
from nerscore.values.tags import EncodedTags

__all__ = [
    "Block",
    "DelimiterVote",
    "Scan",
    "ScanOptions",
    "assemble",
    "column_error",
    "decide",
    "is_empty_field_error",
    "parse_blocks",
    "scan_block",
]

IntArray = npt.NDArray[np.int64]
Ranges = tuple[IntArray, IntArray, IntArray, IntArray]
#: the columns of one delimiter, or how to compute them when that delimiter is chosen
Found = Ranges | FormatError | Callable[[], Ranges | FormatError]

#: Bytes up to this one (space, tab, CR and the other control characters) separate words.
_SPACE = 32
_TAB, _NEWLINE, _CR, _HASH = 9, 10, 13, ord("#")
#: How the error of an empty tab-separated field starts (:func:`is_empty_field_error`).
_EMPTY_FIELD = "Empty "


@dataclass(frozen=True)
class ScanOptions:
    """The options of :func:`~nerscore.io.conll.read_conll` that scanning needs."""

    source: str | None
    token_column: int
    label_column: int
    comments: bool
    docstart: str | None
    encoding: str


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
    return str(error).startswith(_EMPTY_FIELD)


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
    path (:func:`_delimited_lines`); any other block is split into words
    (:func:`_word_lines`). Both give the same lines and columns.
    """
    if validate:
        try:
            data[start:stop].decode("utf-8")
        except UnicodeDecodeError as exc:
            raise decode_error(exc, data[start:stop], opt.source, opt.encoding,
                               first_line) from None
    b = np.frombuffer(data, dtype=np.uint8, count=stop - start, offset=start)
    lines: _DelimitedLines | _WordLines | None = _delimited_lines(b)
    if lines is None:
        lines = _word_lines(b)
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
        is_comment = (b[cstart] == _HASH) & ~is_doc
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
    where = _Where(data, start, first_line, tl, cstart, cend, opt)
    columns: dict[str, Found] = {}
    counts: dict[str, tuple[int, int]] = {}
    lines.add_columns(b, is_token, where, column_delimiter, columns, counts)
    return Scan(b, start, offsets, np.add(tl, first_line, dtype=np.int64), documents,
                 int(is_comment.sum()), len(tl), columns, counts)


@dataclass(frozen=True, eq=False)
class _WordLines:
    """A block split into words (runs of bytes above the space) and lines of words."""

    n_lines: int
    #: the content lines (0-based line numbers), where their text starts and ends
    content: IntArray
    cstart: IntArray
    cend: IntArray
    #: where the first word of each content line ends
    first_end: IntArray
    first_word: IntArray
    last_word: IntArray
    wstart: IntArray
    wend: IntArray

    def add_columns(self, b: npt.NDArray[np.uint8], is_token: npt.NDArray[np.bool_],
                    where: _Where, column_delimiter: str, columns: dict[str, Found],
                    counts: dict[str, tuple[int, int]]) -> None:
        """The token and label ranges of the token lines under each candidate delimiter."""
        tfw, tcs, tce = self.first_word[is_token], where.cstart, where.cend
        wstart, wend = self.wstart, self.wend
        if column_delimiter in ("auto", "space"):
            n_cols = self.last_word[is_token] - tfw + 1
            counts["space"] = _spread(n_cols)
            columns["space"] = _space_columns(n_cols, tfw, wstart, wend, where)
        if column_delimiter in ("auto", "tab"):
            tabs = np.flatnonzero(b == _TAB)
            tab_lo = np.searchsorted(tabs, tcs)
            n_cols = np.searchsorted(tabs, tce) - tab_lo + 1
            key = "tab" if (n_cols > 1).all() else "tab!"
            counts[key] = _spread(n_cols)
            columns[key] = functools.partial(_tab_columns, n_cols, tab_lo, tabs, tcs, tce,
                                             wstart, wend, where)


def _word_lines(b: npt.NDArray[np.uint8]) -> _WordLines:
    """Any block: words are runs of bytes above the space, lines end at newlines."""
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
    return _WordLines(n_lines, cl, wstart[fw], wend[lw], wend[fw], fw, lw, wstart, wend)


@dataclass(frozen=True, eq=False)
class _DelimitedLines:
    """A block of lines of ``k + 1`` fields split by single delimiter bytes (:func:`_delimited_lines`)."""

    n_lines: int
    content: IntArray
    cstart: IntArray
    cend: IntArray
    first_end: IntArray
    delimiter: int
    #: per content line, the positions of its ``k`` delimiters
    delims: IntArray

    def add_columns(self, b: npt.NDArray[np.uint8], is_token: npt.NDArray[np.bool_],
                    where: _Where, column_delimiter: str, columns: dict[str, Found],
                    counts: dict[str, tuple[int, int]]) -> None:
        """As :meth:`_WordLines.add_columns`: both delimiters split these lines alike."""
        n_tokens = len(where.lines)
        delims = self.delims if n_tokens == len(self.delims) else self.delims[is_token]
        n = delims.shape[1] + 1
        spread = (n, n) if n_tokens else (0, 0)
        ranges = functools.partial(self.ranges, delims, where)
        if column_delimiter in ("auto", "space"):
            counts["space"] = spread
            columns["space"] = functools.partial(ranges, "space")
        if column_delimiter in ("auto", "tab"):
            if self.delimiter == _TAB:
                counts["tab"] = spread
                columns["tab"] = functools.partial(ranges, "tab")
            else:  # no tabs: every line is one tab-separated column
                key = "tab!" if n_tokens else "tab"
                counts[key] = (1, 1) if n_tokens else (0, 0)
                columns[key] = functools.partial(_word_tab_columns, b, where, key)

    @staticmethod
    def ranges(delims: IntArray, where: _Where, delimiter: str) -> Ranges | FormatError:
        """The token and label ranges of the token lines, all of ``k + 1`` fields."""
        if not len(delims):  # no token line (only -DOCSTART- lines or comments): no columns
            return where.cstart, where.cend, where.cstart, where.cend
        k = delims.shape[1]
        cols = [c if c >= 0 else k + 1 + c
                for c in (where.opt.token_column, where.opt.label_column)]
        if not (0 <= cols[0] <= k and 0 <= cols[1] <= k and cols[0] != cols[1]):
            found = _column_indices(np.full(len(delims), k + 1, dtype=np.int64), where,
                                    delimiter)
            assert isinstance(found, FormatError)
            return found
        out = []
        for col in cols:
            out.append(where.cstart if col == 0 else delims[:, col - 1] + 1)
            out.append(where.cend if col == k else delims[:, col])
        return out[0], out[1], out[2], out[3]


def _word_tab_columns(b: npt.NDArray[np.uint8], where: _Where, key: str) -> Ranges | FormatError:
    """Tab columns of a block without tabs: what :func:`_word_lines` gives (an error)."""
    lines = _word_lines(b)
    columns: dict[str, Found] = {}
    lines.add_columns(b, np.isin(lines.content, where.lines), where, "tab", columns, {})
    found = columns[key]
    return found() if callable(found) else found


def _delimited_lines(b: npt.NDArray[np.uint8]) -> _DelimitedLines | None:
    r"""The lines of a block of ``k + 1`` fields per line, split by one delimiter byte.

    Every content line holds the same number ``k >= 1`` of one delimiter (a
    tab, or a space) with a field on either side, and every other byte up to
    the space is a newline or a carriage return right before one: no empty
    field, no whitespace at either end of a line, no blank line holding
    spaces. Such a block needs only the positions of its newlines and
    delimiters, not of every word. None for any other block.
    """
    n = len(b)
    n_tab = int(np.count_nonzero(b == _TAB))
    n_space = int(np.count_nonzero(b == _SPACE))
    if n < 2 or (n_tab and n_space) or not (n_tab or n_space):
        return None
    delimiter = _TAB if n_tab else _SPACE
    nl = np.flatnonzero(b == _NEWLINE)
    if not len(nl):
        return None
    cr = b[nl - 1] == _CR
    cr[0] &= nl[0] > 0  # a first line of the block that is empty
    n_cr = int(np.count_nonzero(cr))
    if int(np.count_nonzero(b <= _SPACE)) != len(nl) + n_tab + n_space + n_cr:
        return None  # other whitespace, or a carriage return inside a line
    n_lines = len(nl) + 1  # the part after the last newline is a (possibly empty) line
    ends = np.empty(n_lines, dtype=np.int64)
    np.subtract(nl, cr, out=ends[:-1])
    ends[-1] = n
    starts = np.empty(n_lines, dtype=np.int64)
    starts[0] = 0
    np.add(nl, 1, out=starts[1:])
    cl = np.flatnonzero(ends > starts)
    k, rest = divmod(n_tab + n_space, len(cl)) if len(cl) else (0, 1)
    if rest or not k:
        return None
    cstart, cend = starts[cl], ends[cl]
    delims = np.flatnonzero(b == delimiter).reshape(-1, k)
    if not ((delims[:, 0] > cstart).all() and (delims[:, -1] < cend - 1).all()
            and (k == 1 or (np.diff(delims, axis=1) > 1).all())):
        return None  # lines of other lengths, an empty field, or a delimiter at either end
    return _DelimitedLines(n_lines, cl, cstart, cend, delims[:, 0], delimiter, delims)


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
    opt: ScanOptions

    def column_error(self, k: int, n_cols: int, delimiter: str) -> FormatError:
        opt = self.opt
        line = self.first_line + int(self.lines[k])
        s = self.start
        content = self.data[s + int(self.cstart[k]) : s + int(self.cend[k])].decode(
            "utf-8", "replace")
        return FormatError(
            f"Expected a token column ({opt.token_column}) and a different label column "
            f"({opt.label_column}); line {line} of {opt.source or 'the input'} has {n_cols} "
            f"column{'s' if n_cols != 1 else ''} ({quoted(content)}, split at "
            f"{'tabs' if delimiter == 'tab' else 'whitespace'}). Fix the line, or choose the "
            "columns with `token_column`/`label_column` (--token-column/--label-column) and "
            "the delimiter with `column_delimiter` (--delimiter-columns).",
            source=opt.source,
            line=line,
        )

    def empty_error(self, k: int, which: str) -> FormatError:
        line = self.first_line + int(self.lines[k])
        return FormatError(
            f"{_EMPTY_FIELD}{which} column at line {line} of {self.opt.source or 'the input'} (columns "
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

