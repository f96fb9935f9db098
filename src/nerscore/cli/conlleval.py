"""``nerscore conlleval``: the Perl conlleval script's report, to the byte (SPEC §7.1).

The input is read as bytes and split with NumPy, block by block, with no
Python work per line for a one-byte field delimiter (any other delimiter
takes a per-line path with the same results). Distinct pairs of tags are
hashed from 8-byte words of the buffer and parsed once each; the script's
counting runs as array operations (:func:`nerscore._conlleval_rules.score_rows`).
"""

from __future__ import annotations

import argparse
import re
import sys
from dataclasses import dataclass
from typing import TYPE_CHECKING, BinaryIO

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    from nerscore._conlleval_rules import ConllevalResult

    IntArray = npt.NDArray[np.int64]
    BoolArray = npt.NDArray[np.bool_]

__all__ = ["register", "run"]

DESCRIPTION = """\
Score a CoNLL file the way the Perl conlleval script (version 2004-01-26) does,
with byte-identical output: one token per line, fields separated by DELIM, the
second-to-last field the gold tag and the last one the predicted tag; an empty
line or a line whose first field is -X- ends a sentence (a -DOCSTART- line is
an ordinary token). Tags are split at the first '-' into prefix and type;
chunks follow the script's rules, including its quirks (S/U/L prefixes are not
understood, so S-PER S-PER is one chunk; [ and ] tags are one-token chunks).

Differences from the script, all where the script breaks: lines may end in LF
or CRLF (a carriage return before the line feed is removed; the script keeps it
in the last tag, so on CRLF files it miscounts or stops with a field-count
error), and a UTF-8 byte order mark at the start of the input is ignored.
Perl's own interpreter warnings are not printed.
"""

EPILOG = """\
exit status: 0 on success; as the script, 1 when a line has a different number
of fields than the first non-empty line ('unexpected number of features: N (M)')
and 255 when the lines have a single field; 1 for a file that cannot be read;
2 for a -d pattern that is not a valid regular expression.
"""

_META = frozenset(b"\\^$.|?*+()[]{}")
_BOUNDARY = b"-X-"
_BOM = b"\xef\xbb\xbf"


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``conlleval`` subcommand to a CLI's subparsers.

    Parameters
    ----------
    subparsers : argparse._SubParsersAction
        From ``ArgumentParser.add_subparsers()``.
    """
    parser = subparsers.add_parser(
        "conlleval",
        help="the Perl conlleval script's report, byte for byte",
        description=DESCRIPTION,
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
        allow_abbrev=False,
    )
    add_arguments(parser)
    parser.set_defaults(func=run)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the subcommand's options to ``parser``.

    Parameters
    ----------
    parser : argparse.ArgumentParser
        The ``conlleval`` parser.
    """
    parser.add_argument(
        "-d", dest="delimiter", metavar="DELIM", default=" ",
        help="field delimiter, a Perl-style regular expression as in the script "
             "(default: a single space; use '\\t' for tabs)",
    )
    parser.add_argument(
        "-o", dest="otag", metavar="OTAG", default="O",
        help="outside tag of raw (-r) input (default: O)",
    )
    parser.add_argument(
        "-r", dest="raw", action="store_true",
        help="raw tags without B-/I- prefixes: every tag other than the outside tag is "
             "a one-token chunk",
    )
    parser.add_argument("-l", dest="latex", action="store_true", help="LaTeX table output")
    parser.add_argument(
        "-q", "--quiet", action="store_true",
        help="do not print the note on standard error that the script's rules merged "
             "adjacent chunks that mode 'lenient' keeps apart (the report is unchanged)",
    )
    parser.add_argument("file", metavar="FILE", nargs="?", default=None,
                        help="input file (default: standard input)")


class _ScriptExit(Exception):
    """The script would stop here with this message on stderr and this status."""

    def __init__(self, stderr: bytes, status: int) -> None:
        super().__init__(stderr)
        self.stderr = stderr
        self.status = status


@dataclass
class _Input:
    """The input as rows: per block of lines, per line a pair id or -1 (sentence boundary)."""

    blocks: list[IntArray]
    pairs: list[tuple[bytes, bytes]]  # distinct (gold tag, predicted tag)


class _FieldCheck:
    """The script's field-count checks, in its order; ``ref`` carries over blocks."""

    def __init__(self, delim: bytes | re.Pattern[bytes]) -> None:
        self.delim = delim
        self.ref = -1

    def first_problem(self, n_fields: IntArray, boundary: BoolArray) -> int:
        """Index of the first line where the script stops (-1 if none)."""
        import numpy as np

        if self.ref < 0:
            nonempty = np.flatnonzero(n_fields > 0)
            if not len(nonempty):
                return -1
            self.ref = int(n_fields[nonempty[0]])
        bad = ((n_fields > 0) & (n_fields != self.ref)) | ((n_fields == 1) & ~boundary)
        return int(np.argmax(bad)) if bad.any() else -1

    def stop(self, n_fields: int, line: bytes) -> _ScriptExit:
        """The script's message and status for a line with ``n_fields`` fields."""
        if n_fields != self.ref:
            return _ScriptExit(b"unexpected number of features: %d (%d)\n" % (n_fields, self.ref),
                               1)
        field = _perl_split(self.delim, line)[0]
        return _ScriptExit(
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
        raise _ScriptExit(
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


def _read_slow(data: bytes, delim: bytes | re.Pattern[bytes]) -> _Input:
    """Any delimiter: one Python split per line."""
    import numpy as np

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
    return _Input([np.array(rows, dtype=np.int64)], list(index))


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
        import numpy as np

        self.data = data
        self.delim = delim
        self.buf = np.frombuffer(data, dtype=np.uint8)
        self.words = np.ndarray((len(data) - 7,), dtype="<u8", buffer=data, strides=(1,))
        head = bytes(64) + data[:64]  # words that begin before the data
        self.head = np.ndarray((len(head) - 7,), dtype="<u8", buffer=head, strides=(1,))
        self.masks = np.array(_MASKS, dtype=np.uint64)
        self.index: dict[tuple[bytes, bytes], int] = {}

    def read(self, check: _FieldCheck) -> _Input | None:
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
        return _Input(blocks, list(self.index))

    def block(self, start: int, stop: int, check: _FieldCheck) -> IntArray | None:
        """Rows of the lines in ``data[start:stop]``."""
        import numpy as np

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
        slot = (key * np.uint64(0x9E3779B97F4A7C15)) >> np.uint64(48)
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


def _parse_tags(
    tags: list[bytes], parsed: dict[tuple[bytes, bytes], int], *, raw: bool, otag: bytes
) -> list[int]:
    """Raw tags -> ids of their parsed ``(prefix, type)`` in ``parsed`` (grown as needed)."""
    out = []
    for tag in tags:
        if raw:
            if tag == otag:
                tag = b"O"
            if tag != b"O":
                tag = b"B-" + tag
        prefix, sep, typ = tag.partition(b"-")
        if not sep or typ == b"0":
            typ = b""
        out.append(parsed.setdefault((prefix, typ), len(parsed)))
    return out


def evaluate_bytes(
    data: bytes, *, delimiter: str = " ", raw: bool = False, otag: str = "O"
) -> tuple[ConllevalResult, bytes]:
    """Score a conlleval input; return ``(ConllevalResult, notes for stderr)``.

    Raises ``_ScriptExit`` where the script stops.
    """
    import numpy as np

    from nerscore._conlleval_rules import lenient_letter, merge_note, prefix_class, score_rows

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

    parsed: dict[tuple[bytes, bytes], int] = {(b"O", b""): 0}
    o = otag.encode("utf-8", "surrogateescape")
    pair_gold = _parse_tags([g for g, _ in read.pairs], parsed, raw=raw, otag=o)
    pair_pred = _parse_tags([p for _, p in read.pairs], parsed, raw=raw, otag=o)
    type_names = sorted({t.decode("utf-8", "surrogateescape") for _, t in parsed})
    type_id = {t.encode("utf-8", "surrogateescape"): i for i, t in enumerate(type_names)}
    keys = list(parsed)
    prefixes = [p.decode("utf-8", "surrogateescape") for p, _ in keys]
    classes = np.array([prefix_class(p) for p in prefixes], dtype=np.int8)
    letters = np.array([lenient_letter(p) for p in prefixes], dtype=np.int8)
    types = np.array([type_id[t] for _, t in keys], dtype=np.int64)

    # sentence boundaries (-1) become one more pair: O on both sides
    outside = len(read.pairs)
    for rows in read.blocks:
        rows[rows < 0] = outside
    result = score_rows(
        read.blocks, np.array([*pair_gold, 0], dtype=np.int64),
        np.array([*pair_pred, 0], dtype=np.int64), outside,
        classes=classes, types=types, letters=letters, type_names=tuple(type_names),
    )
    flat = np.concatenate(read.blocks) if len(result.merged_gold) + len(result.merged_pred) \
        else None

    notes = b""
    firsts = []
    for side, name, merged in ((0, "gold", result.merged_gold),
                               (1, "predicted", result.merged_pred)):
        if len(merged) and flat is not None:
            i = int(merged[0])
            shown = " -> ".join(
                repr(read.pairs[int(flat[j])][side].decode("utf-8", "surrogateescape"))
                for j in (i - 1, i)
            )
            firsts.append((len(merged), f"{shown} in the {name} column", f"line {i + 1}"))
    if firsts:
        total = sum(n for n, _, _ in firsts)
        _, first, where = firsts[0]
        notes = ("nerscore conlleval: note: " + merge_note(total, first, where) + "\n").encode(
            "utf-8", "surrogateescape")
    return result, notes


def run(args: argparse.Namespace) -> int:
    """Run ``nerscore conlleval`` with parsed arguments; return the exit status.

    Parameters
    ----------
    args : argparse.Namespace
        With ``delimiter``, ``otag``, ``raw``, ``latex``, ``quiet`` and ``file``.

    Returns
    -------
    int
        0; the status the script stops with (1 or 255); 1 for a file that
        cannot be read; 2 for a bad ``-d`` pattern.
    """
    stdout: BinaryIO = sys.stdout.buffer
    stderr: BinaryIO = sys.stderr.buffer
    try:
        if args.file is None or args.file == "-":
            data = sys.stdin.buffer.read()
        else:
            with open(args.file, "rb") as fh:
                data = fh.read()
    except OSError as exc:
        stderr.write(
            f"nerscore conlleval: error: cannot open {args.file!r}: {exc.strerror}.\n"
            .encode("utf-8", "surrogateescape"))
        stderr.flush()
        return 1
    try:
        result, notes = evaluate_bytes(data, delimiter=args.delimiter, raw=args.raw,
                                       otag=args.otag)
    except _ScriptExit as exc:
        stderr.write(exc.stderr)
        stderr.flush()
        return exc.status
    from nerscore.report.conlleval import render_conlleval

    stdout.write(render_conlleval(result.counts, latex=args.latex).encode("utf-8", "surrogateescape"))
    stdout.flush()
    if notes and not getattr(args, "quiet", False):
        stderr.write(notes)
        stderr.flush()
    return 0


def main(argv: list[str] | None = None) -> int:
    """Run the subcommand alone (``python -m nerscore.cli.conlleval``)."""
    parser = argparse.ArgumentParser(
        prog="nerscore conlleval", description=DESCRIPTION, epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter, allow_abbrev=False,
    )
    add_arguments(parser)
    return run(parser.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
