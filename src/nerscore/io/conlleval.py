"""The input of ``nerscore conlleval`` as rows, read the way the Perl conlleval script does.

The script (version 2004-01-26) splits every line with Perl's ``split`` at
a delimiter pattern (empty trailing fields dropped); the second-to-last
field is the gold tag and the last one the predicted tag. An empty line or
a line whose first field is ``-X-`` ends a sentence; a ``-DOCSTART-`` line
is an ordinary token. The script stops with exit status 1 when a line has
a different number of fields than the first non-empty line, and with 255
when a token line has a single field (:class:`ScriptExit` carries the
message and status).

The input is read as bytes and split with NumPy, block by block, with no
Python work per line for a one-byte field delimiter (any other delimiter
takes a per-line path with the same results). Distinct pairs of tags are
hashed from 8-byte words of the buffer (:func:`~nerscore.io._bytes.word_view`)
and split once each. How the rows are scored is
:func:`nerscore.decode.conlleval_rules.score_conlleval`.

Unlike :func:`~nerscore.io.conll.read_conll`, which reads columns at runs of
whitespace and reads ``-DOCSTART-`` lines as document boundaries, this
reader keeps the script's own rules, quirks included.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from nerscore.io._bytes import GOLDEN, word_view

__all__ = ["ConllevalRows", "ScriptExit", "read_conlleval"]

IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]

_META = frozenset(b"\\^$.|?*+()[]{}")
_BOUNDARY = b"-X-"
_BOM = b"\xef\xbb\xbf"


class ScriptExit(Exception):
    """The script would stop here with this message on stderr and this exit status.

    Parameters
    ----------
    stderr : bytes
        What the script prints on standard error.
    status : int
        Its exit status.
    """

    def __init__(self, stderr: bytes, status: int) -> None:
        super().__init__(stderr)
        self.stderr = stderr
        self.status = status


@dataclass
class ConllevalRows:
    """The input as rows: per block of lines, per line a pair id or -1 (sentence boundary).

    Attributes
    ----------
    blocks : list of array of int
        Consecutive blocks of lines; per line, the index of its pair of tags
        in ``pairs``, or -1 for a sentence boundary.
    pairs : list of (bytes, bytes)
        The distinct ``(gold tag, predicted tag)`` pairs.
    """

    blocks: list[IntArray]
    pairs: list[tuple[bytes, bytes]]


def read_conlleval(data: bytes, *, delimiter: str = " ") -> ConllevalRows:
    r"""Split a conlleval input into rows of tag pairs, or stop where the script stops.

    A UTF-8 byte order mark at the start is ignored and a carriage return
    before a line feed is removed (the script keeps it in the last tag).

    Parameters
    ----------
    data : bytes
        The whole input.
    delimiter : str
        The field delimiter, a Perl-style regular expression as the script's
        ``-d`` option (``"\\t"`` for tabs).

    Returns
    -------
    ConllevalRows

    Raises
    ------
    ScriptExit
        Where the script stops (a line with another number of fields), and
        with status 2 for a delimiter that is not a valid regular expression.

    Examples
    --------
    >>> rows = read_conlleval(b"a B-X O\r\nb I-X I-X\n-X- O O\n\nc O O\n")
    >>> [r.tolist() for r in rows.blocks], rows.pairs
    ([[0, 1, -1, -1, 2]], [(b'B-X', b'O'), (b'I-X', b'I-X'), (b'O', b'O')])
    >>> read_conlleval(b"a B-X O\nb O\n")
    Traceback (most recent call last):
    ...
    nerscore.io.conlleval.ScriptExit: b'unexpected number of features: 2 (3)\n'
    """
    if data.startswith(_BOM):
        data = data[3:]
    if b"\r" in data:  # one memchr; the two-byte search is ten times slower
        data = data.replace(b"\r\n", b"\n")
    if not data.endswith(b"\n") and data:
        data += b"\n"
    delim = _pattern(delimiter)
    read = None
    if isinstance(delim, bytes) and len(delim) == 1 and delim != b"\n" and len(data) >= 64:
        read = _FastReader(data, delim[0]).read(_FieldCheck(delim))
    if read is None:
        read = _read_slow(data, delim)
    return read


class _FieldCheck:
    """The script's field-count checks, in its order; ``ref`` carries over blocks."""

    def __init__(self, delim: bytes | re.Pattern[bytes]) -> None:
        self.delim = delim
        self.ref = -1

    def first_problem(self, n_fields: IntArray, boundary: BoolArray) -> int:
        """Index of the first line where the script stops (-1 if none)."""
        if self.ref < 0:
            nonempty = np.flatnonzero(n_fields > 0)
            if not len(nonempty):
                return -1
            self.ref = int(n_fields[nonempty[0]])
        bad = ((n_fields > 0) & (n_fields != self.ref)) | ((n_fields == 1) & ~boundary)
        return int(np.argmax(bad)) if bad.any() else -1

    def stop(self, n_fields: int, line: bytes) -> ScriptExit:
        """The script's message and status for a line with ``n_fields`` fields."""
        if n_fields != self.ref:
            return ScriptExit(b"unexpected number of features: %d (%d)\n" % (n_fields, self.ref),
                              1)
        field = _perl_split(self.delim, line)[0]
        return ScriptExit(
            b"feature length is %s. \nconlleval: unexpected number of features in line %s\n"
            % (_perl_int(field).encode(), line),
            255,
        )


def _pattern(delimiter: str) -> bytes | re.Pattern[bytes]:
    """The field delimiter: literal bytes when that is what the Perl regex means."""
    d = delimiter.encode("utf-8", "surrogateescape")
    if d == b"\\t":
        return b"\t"
    if len(d) == 2 and d[0:1] == b"\\" and not d[1:2].isalnum():
        return d[1:2]
    if d and not any(b in _META for b in d):
        return d
    try:
        return re.compile(d)
    except re.error as exc:
        raise ScriptExit(
            f"nerscore conlleval: error: cannot use -d {delimiter!r} as a regular "
            f"expression: {exc}. Give a plain delimiter such as ' ', ',' or '\\t'.\n"
            .encode("utf-8", "surrogateescape"),
            2,
        ) from None


def _perl_split(delim: bytes | re.Pattern[bytes], line: bytes) -> list[bytes]:
    """Perl's ``split(/DELIM/, line)``: empty trailing fields are dropped."""
    if isinstance(delim, bytes):
        fields = line.split(delim)
    else:
        fields = []
        pos = 0
        for m in delim.finditer(line):
            if m.end() == m.start() and (m.start() == pos or m.start() == len(line)):
                continue  # Perl: no empty match where the last one ended, none at the end
            fields.append(line[pos:m.start()])
            fields.extend(g if g is not None else b"" for g in m.groups())
            pos = m.end()
        fields.append(line[pos:])
    while fields and not fields[-1]:
        fields.pop()
    return fields


def _read_slow(data: bytes, delim: bytes | re.Pattern[bytes]) -> ConllevalRows:
    """Any delimiter: one Python split per line."""
    lines = data.split(b"\n")
    if data.endswith(b"\n") or not data:
        lines.pop()
    check = _FieldCheck(delim)
    index: dict[tuple[bytes, bytes], int] = {}
    rows = []
    for i, line in enumerate(lines):
        fields = _perl_split(delim, line)
        n = len(fields)
        is_b = not fields or fields[0] == _BOUNDARY
        if check.ref < 0 and n:
            check.ref = n
        if (n and n != check.ref) or (n == 1 and not is_b):
            raise check.stop(n, lines[i])
        rows.append(-1 if is_b else index.setdefault((fields[-2], fields[-1]), len(index)))
    return ConllevalRows([np.array(rows, dtype=np.int64)], list(index))


_BLOCK = 1 << 20  # bytes per block of lines: small arrays, reused memory
_MASKS = [  # per word w of a tail and per tail size, the mask keeping the tail's bytes
    [~((1 << (8 * (8 - min(max(n - 8 * w, 0), 8)))) - 1) & (2**64 - 1) for n in range(65)]
    for w in range(8)
]


class _FastReader:
    """Splits a buffer that ends with a newline on a one-byte delimiter, block by block.

    Every field ends at a separator (the delimiter or a newline). A line's tags
    are the bytes from the start of its second-to-last field to the end of its
    last one; that *tail* is keyed by its length and the 8-byte words that end
    at its end (read from one unaligned ``uint64`` view of the buffer, the
    bytes before the tail masked off), and the keys are made dense with a
    65,536-slot table. Distinct tails are few; each is split in Python once.
    Working block by block keeps the arrays small: fresh memory is what costs.
    """

    def __init__(self, data: bytes, delim: int) -> None:
        self.data = data
        self.delim = delim
        self.buf = np.frombuffer(data, dtype=np.uint8)
        words = word_view(data)
        head = word_view(bytes(64) + data[:64])  # words that begin before the data
        if words is None or head is None:
            raise ValueError(f"Expected 64 bytes or more; got {len(data)}.")
        self.words, self.head = words, head
        self.masks = np.array(_MASKS, dtype=np.uint64)
        self.index: dict[tuple[bytes, bytes], int] = {}

    def read(self, check: _FieldCheck) -> ConllevalRows | None:
        """All blocks (None when a tail is too long or two tails share a hash slot)."""
        blocks = []
        start = 0
        while start < len(self.data):
            stop = self.data.find(b"\n", min(start + _BLOCK, len(self.data)) - 1) + 1
            rows = self.block(start, stop, check)
            if rows is None:
                return None
            blocks.append(rows)
            start = stop
        return ConllevalRows(blocks, list(self.index))

    def block(self, start: int, stop: int, check: _FieldCheck) -> IntArray | None:
        """Rows of the lines in ``data[start:stop]``."""
        buf = self.buf
        part = buf[start:stop]
        mask = part == self.delim
        mask |= part == 10
        sep = np.flatnonzero(mask)
        sep += start
        nl = np.flatnonzero(buf[sep] == 10)  # per line: index into ``sep`` of its newline
        n_lines = len(nl)
        sep_ext = np.empty(len(sep) + 1, dtype=np.int64)  # field j: (sep_ext[j], sep_ext[j+1])
        sep_ext[0] = start - 1
        sep_ext[1:] = sep
        nl_pos = sep[nl]
        first = np.zeros(n_lines, dtype=np.int64)  # index of each line's first field
        first[1:] = nl[:-1] + 1
        last = nl.copy()
        before = buf[np.maximum(nl_pos - 1, 0)]
        todo = np.flatnonzero((before == self.delim) | (before == 10) | (nl_pos == start))
        while len(todo):  # drop empty trailing fields (one pass per field dropped)
            todo = todo[sep_ext[last[todo] + 1] - sep_ext[last[todo]] == 1]
            last[todo] -= 1
            todo = todo[last[todo] >= first[todo]]
        n_fields = last - first + 1

        line_start = sep_ext[first] + 1
        boundary = n_fields == 0
        dash = np.flatnonzero(buf[np.minimum(line_start, len(buf) - 1)] == 45)
        if len(dash):  # a first field "-X-"
            s0 = line_start[dash]
            x = (sep_ext[first[dash] + 1] - s0 == 3) & (buf[s0 + 1] == 88) & (buf[s0 + 2] == 45)
            boundary[dash[x & (n_fields[dash] > 0)]] = True
        bad = check.first_problem(n_fields, boundary)
        if bad >= 0:
            line = self.data[int(line_start[bad]):int(nl_pos[bad])]
            raise check.stop(int(n_fields[bad]), line)

        tagged = np.flatnonzero(n_fields >= 2)
        tagged = tagged[~boundary[tagged]]
        tag_last = last[tagged]
        end = sep_ext[tag_last + 1]
        size = end - sep_ext[tag_last - 1] - 1
        n_words = (int(size.max(initial=0)) + 7) // 8
        if n_words > 8:
            return None
        early = np.flatnonzero(end < 8 * n_words)
        key = size.astype(np.uint64)
        prime = np.uint64(0x100000001B3)
        cols = []
        at = end - 8
        small = int(size.min(initial=0))
        for w in range(n_words):
            col = self.words[np.maximum(at, 0) if len(early) else at]
            if len(early):
                col[early] = self.head[at[early] + 64]
            if 8 * w + 8 > small:
                col &= self.masks[w][size]
            cols.append(col)
            key *= prime
            key ^= col
            at -= 8
        slot = (key * GOLDEN) >> np.uint64(48)
        table = np.full(1 << 16, -1, dtype=np.int64)
        table[slot] = np.arange(len(key), dtype=np.int64)
        rep = table[slot]
        if not ((size[rep] == size).all() and all(bool((c[rep] == c).all()) for c in cols)):
            return None  # two tails share a slot: extremely rare
        used = np.flatnonzero(table >= 0)
        ids = np.full(1 << 16, -1, dtype=np.int64)
        sep_byte = bytes([self.delim])
        for slot_id, e, n in zip(used.tolist(), end[table[used]].tolist(),
                                 size[table[used]].tolist(), strict=True):
            gold, _, pred = self.data[e - n:e].partition(sep_byte)
            ids[slot_id] = self.index.setdefault((gold, pred), len(self.index))
        rows = np.full(n_lines, -1, dtype=np.int64)
        rows[tagged] = ids[slot]
        return rows


def _perl_int(field: bytes) -> str:
    """What Perl's ``printf "%d"`` prints for a string (the script's die message)."""
    m = re.match(rb"\s*([+-]?)(inf(inity)?|nan)", field, re.IGNORECASE)
    if m:
        word = "NaN" if m.group(2).lower() == b"nan" else "Inf"
        return ("-" if m.group(1) == b"-" and word == "Inf" else "") + word
    m = re.match(rb"\s*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?", field)
    if not m:
        return "0"
    value = float(m.group(0))
    return str(int(value)) if abs(value) < 2.0**63 else "-1"
