r"""How a block of CoNLL lines is split into fields: the scanner's line splitting.

Two ways to the same lines and columns (:mod:`~nerscore.io._conll_scan`
chooses): a block whose lines hold the same number of fields split by single
tabs or single spaces needs only the positions of its newlines and
delimiters (:func:`delimited_lines`); any other block is split into words,
runs of bytes above the space, so ``\r`` and tabs separate them
(:func:`word_lines`). Each finds the token and label columns of every token
line under each candidate delimiter, or the error of the first line without
them (:class:`Where` words it).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from nerscore.errors import FormatError, quoted

__all__ = [
    "EMPTY_FIELD",
    "HASH",
    "DelimitedLines",
    "Found",
    "Ranges",
    "ScanOptions",
    "Where",
    "WordLines",
    "delimited_lines",
    "word_lines",
]

IntArray = npt.NDArray[np.int64]
Ranges = tuple[IntArray, IntArray, IntArray, IntArray]
#: the columns of one delimiter, or how to compute them when that delimiter is chosen
Found = Ranges | FormatError | Callable[[], Ranges | FormatError]

#: Bytes up to this one (space, tab, CR and the other control characters) separate words.
_SPACE = 32
_TAB, _NEWLINE, _CR, HASH = 9, 10, 13, ord("#")
#: How the error of an empty tab-separated field starts (:func:`~nerscore.io._conll_scan.is_empty_field_error`).
EMPTY_FIELD = "Empty "


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
class WordLines:
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
                    where: Where, column_delimiter: str, columns: dict[str, Found],
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


def word_lines(b: npt.NDArray[np.uint8]) -> WordLines:
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
    return WordLines(n_lines, cl, wstart[fw], wend[lw], wend[fw], fw, lw, wstart, wend)


@dataclass(frozen=True, eq=False)
class DelimitedLines:
    """A block of lines of ``k + 1`` fields split by single delimiter bytes (:func:`delimited_lines`)."""

    n_lines: int
    content: IntArray
    cstart: IntArray
    cend: IntArray
    first_end: IntArray
    delimiter: int
    #: per content line, the positions of its ``k`` delimiters
    delims: IntArray

    def add_columns(self, b: npt.NDArray[np.uint8], is_token: npt.NDArray[np.bool_],
                    where: Where, column_delimiter: str, columns: dict[str, Found],
                    counts: dict[str, tuple[int, int]]) -> None:
        """As :meth:`WordLines.add_columns`: both delimiters split these lines alike."""
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
    def ranges(delims: IntArray, where: Where, delimiter: str) -> Ranges | FormatError:
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


def _word_tab_columns(b: npt.NDArray[np.uint8], where: Where, key: str) -> Ranges | FormatError:
    """Tab columns of a block without tabs: what :func:`word_lines` gives (an error)."""
    lines = word_lines(b)
    columns: dict[str, Found] = {}
    lines.add_columns(b, np.isin(lines.content, where.lines), where, "tab", columns, {})
    found = columns[key]
    return found() if callable(found) else found


def delimited_lines(b: npt.NDArray[np.uint8]) -> DelimitedLines | None:
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
    return DelimitedLines(n_lines, cl, cstart, cend, delims[:, 0], delimiter, delims)


def _spread(n_cols: IntArray) -> tuple[int, int]:
    return (int(n_cols.min()), int(n_cols.max())) if len(n_cols) else (0, 0)


#: How a WebAnno TSV file begins (``#FORMAT=WebAnno TSV 3.3``).
WEBANNO_HEAD = b"#FORMAT=WebAnno TSV"


@dataclass(frozen=True, eq=False)
class Where:
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
            "the delimiter with `column_delimiter` (--delimiter-columns)."
            + self._hash_hint(content),
            source=opt.source,
            line=line,
        )

    def _hash_hint(self, content: str) -> str:
        """The advice for a line starting with ``#``: a WebAnno TSV file's format, or comments."""
        if not content.startswith("#"):
            return ""
        if self.first_line == 1 and self.data[self.start : self.start + 32].lstrip(
                b"\xef\xbb\xbf").startswith(WEBANNO_HEAD):
            return (" The file is WebAnno TSV (its first line says so): read it as format "
                    "'webanno' (--gold-format webanno, --pred-format webanno, ...).")
        if self.opt.comments:
            return ""
        return " If the line is a comment, skip comment lines with `comments=True` (--comments)."

    def empty_error(self, k: int, which: str) -> FormatError:
        line = self.first_line + int(self.lines[k])
        return FormatError(
            f"{EMPTY_FIELD}{which} column at line {line} of {self.opt.source or 'the input'} (columns "
            "split at tabs). Fill it in, or read the file with column_delimiter='space' "
            "(--delimiter-columns space).",
            source=self.opt.source,
            line=line,
        )


def _column_indices(
    n_cols: IntArray, where: Where, delimiter: str
) -> tuple[IntArray, IntArray] | FormatError:
    tok = _resolve_column(where.opt.token_column, n_cols)
    lab = _resolve_column(where.opt.label_column, n_cols)
    bad = (tok < 0) | (lab < 0) | (tok == lab)
    if bad.any():
        k = int(np.flatnonzero(bad)[0])
        return where.column_error(k, int(n_cols[k]), delimiter)
    return tok, lab


def _space_columns(
    n_cols: IntArray, first_word: IntArray, wstart: IntArray, wend: IntArray, where: Where
) -> Ranges | FormatError:
    found = _column_indices(n_cols, where, "space")
    if isinstance(found, FormatError):
        return found
    tok, lab = first_word + found[0], first_word + found[1]
    return wstart[tok], wend[tok], wstart[lab], wend[lab]


def _tab_columns(
    n_cols: IntArray, tab_lo: IntArray, tabs: IntArray, cs: IntArray, ce: IntArray,
    wstart: IntArray, wend: IntArray, where: Where,
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

