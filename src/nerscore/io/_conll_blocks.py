"""Where a CoNLL file is cut into blocks, and the error of the whole file told block by block.

:func:`~nerscore.io.conll.read_conll` scans a file in blocks of about
``_BLOCK_SIZE`` bytes that end at blank lines (:func:`block_spans`);
:class:`WholeBlocks` tells the same cuts while the file streams by.

:class:`~nerscore.io.conll.ConllChunks` reads a file one block at a time, and
a block that fails does not always fail with the error of the whole file.
Read whole, a file goes through three steps, each over all of it:

1. its text is decoded, or checked to be UTF-8: the first byte that cannot
   be decoded is the error, however late in the file;
2. with ``column_delimiter="auto"``, the delimiter is chosen for the whole
   file (:class:`~nerscore.io._conll_scan.DelimiterVote`);
3. its columns are split block by block (:func:`block_spans`): the first
   block with an error raises, its first line without the asked columns,
   or else (columns split at tabs) its first empty field.

So once a block of the streaming reader fails on its columns,
:func:`file_error` reads on from it, without keeping what it reads: to the
end of the file for a later byte that cannot be decoded and for the
delimiter vote, and, columns split at tabs, to the end of the whole-file
block that fails first. A byte that cannot be decoded is always the file's
error: no block before it failed.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator

from nerscore.errors import FormatError
from nerscore.io._bytes import count_newlines
from nerscore.io._conll_lines import ScanOptions
from nerscore.io._conll_scan import (
    DelimiterVote,
    column_error,
    is_empty_field_error,
    scan_block,
)

__all__ = ["WholeBlocks", "block_spans", "delimiter_changed", "file_error", "next_blank_line"]

Blocks = Iterator[tuple[bytes, int, bool]]


def next_blank_line(data: bytes, pos: int) -> int:
    """Offset just after the first newline at or after ``pos`` that starts a blank line."""
    for stop in (pos + (1 << 16), len(data)):  # the next 64 KiB hold one, most often
        cuts = [c for c in (data.find(b"\n\n", pos, stop), data.find(b"\n\r\n", pos, stop))
                if c >= 0]
        if cuts:
            return min(cuts) + 1
    return -1


def block_spans(data: bytes, size: int) -> list[tuple[int, int, int]]:
    """``(start, stop, first line)`` of blocks of about ``size`` bytes ending at blank lines."""
    out = []
    start, line = 0, 1
    while start < len(data):
        stop = next_blank_line(data, start + size) if start + size < len(data) else -1
        stop = len(data) if stop < 0 else stop
        out.append((start, stop, line))
        line += count_newlines(memoryview(data)[start:stop])
        start = stop
    return out or [(0, 0, 1)]


class WholeBlocks:
    r"""Where :func:`~nerscore.io.conll.read_conll` cuts a file into blocks, told as the file streams by.

    Read whole, a block ends at the first blank line that starts ``size``
    bytes or more after its start (the newline before the blank line ends
    it). :meth:`feed` takes the streaming reader's blocks in order, each
    ending at a newline, and gives the cuts that fall in each.

    Examples
    --------
    >>> blocks = WholeBlocks(4)
    >>> blocks.feed(b"a O\n\nb O\n"), blocks.feed(b"\nc O\n\nd O\n")
    ([], [0, 5])
    >>> [stop for _, stop, _ in block_spans(b"a O\n\nb O\n\nc O\n\nd O\n", 4)]
    [9, 14, 19]
    """

    def __init__(self, size: int) -> None:
        self.size = size
        self.fed = 0  # bytes fed so far
        self.next_from = size  # where the next blank line is looked for
        self.tail = b""  # the last bytes fed: a blank line may begin in them

    def feed(self, data: bytes) -> list[int]:
        """The cuts in ``data`` (offsets in it), the block that follows those fed so far."""
        text = self.tail + data
        base = self.fed - len(self.tail)
        cuts = []
        while self.next_from - base < len(text):
            found = next_blank_line(text, max(self.next_from - base, 0))
            if found < 0:
                break
            cut = base + found
            cuts.append(cut - self.fed)
            self.next_from = cut + self.size
        self.fed += len(data)
        self.tail = text[-2:]
        return cuts


def delimiter_changed(name: str | None, used: str, decided: str, last: int,
                      line: int) -> FormatError:
    """The error of a file whose later lines choose another column delimiter than its first ones.

    Examples
    --------
    >>> print(delimiter_changed("a.conll", "tab", "space", 9, 4))
    Cannot tell the column delimiter of a.conll from its first lines: they read as 'tab' columns, the lines up to 9 as 'space'. Name it with column_delimiter='space' (--delimiter-columns space).
    """
    return FormatError(
        f"Cannot tell the column delimiter of {name or 'the input'} from its first lines: they "
        f"read as {used!r} columns, the lines up to {last} as {decided!r}. Name it with "
        f"column_delimiter={decided!r} (--delimiter-columns {decided}).",
        source=name, line=line,
    )


def file_error(error: FormatError, data: bytes, first_line: int, rest: Blocks,
               options: ScanOptions, delimiter: str, vote: DelimiterVote | None,
               whole: tuple[WholeBlocks, list[int]] | None) -> tuple[FormatError, bool]:
    """The error of the whole file, once the block ``data`` failed with ``error`` under ``delimiter``.

    The blocks before ``data`` were read without an error under
    ``delimiter``; ``rest`` yields the blocks after it and raises the first
    byte that cannot be decoded (read whole, the file's error).

    Parameters
    ----------
    error : FormatError
        The block's error of its columns.
    data, first_line : bytes, int
        The block, and the number of its first line.
    rest : iterator of (bytes, int, bool)
        The blocks after it (their bytes, first line and byte-order mark).
    options : ScanOptions
        How the file is read.
    delimiter : {"space", "tab"}
        The delimiter the block was split with.
    vote : DelimiterVote or None
        With ``column_delimiter="auto"``: the vote of the blocks so far,
        ``data`` included (the blocks of ``rest`` are added).
    whole : (WholeBlocks, list of int) or None
        With ``column_delimiter="tab"``: the whole file's blocks, fed up to
        ``data``, and where they begin in ``data``.

    Returns
    -------
    (FormatError, bool)
        The error, and whether it is the one that reading the whole file
        raises: not when the whole file chooses another delimiter than the
        blocks read so far (the error then says so).
    """
    last = first_line + count_newlines(data)  # the last line read: said if the vote changes
    if whole is not None:
        error = _first_whole_block_error(data, first_line, rest, options, *whole) or error
    for block, line, _ in rest:  # to the end: a byte that cannot be decoded comes first
        if vote is not None:
            vote.add(scan_block(block, 0, len(block), line, options, "auto", False))
            last = line + count_newlines(block)
    if vote is not None and vote.decision() != delimiter:
        return delimiter_changed(options.source, delimiter, vote.decision(), last,
                                 first_line), False
    return error, True


def _first_whole_block_error(data: bytes, first_line: int, rest: Blocks, options: ScanOptions,
                             whole: WholeBlocks, cuts: list[int]) -> FormatError | None:
    """Columns split at tabs: the error of the first whole-file block that fails.

    Its first line without the asked columns, else its first empty field:
    ``data`` and the blocks after it are split at the whole file's cuts,
    and read to the end of that block.
    """
    candidate: FormatError | None = None
    while True:
        starts = [0, *cuts, len(data)]
        for a, b in itertools.pairwise(starts):
            if a in cuts and candidate is not None:  # the whole-file block ended
                return candidate
            if b <= a:
                continue
            line = first_line + data.count(b"\n", 0, a)
            error = column_error(scan_block(data, a, b, line, options, "tab", False), "tab")
            if error is None:
                continue
            if not is_empty_field_error(error):
                return error
            candidate = candidate or error
        following = next(rest, None)
        if following is None:
            return candidate
        data, first_line, _ = following
        cuts = whole.feed(data)
