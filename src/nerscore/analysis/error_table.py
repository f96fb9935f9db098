"""Error records as columns: the one place that builds a record's fields and writes them.

An error listing of a large corpus holds a hundred thousand records. They are
kept as NumPy columns (category, sequence, the bounds and label id of each
side) plus the covered texts, in an :class:`ErrorTable`; an
:class:`ErrorRecord` is made only when one is read, and the JSON Lines and
CSV writers format whole columns at once (:meth:`ErrorTable.to_string`).
"""

from __future__ import annotations

import io
import json
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, fields, replace
from json.encoder import encode_basestring
from typing import IO, Any, overload

import numpy as np
import numpy.typing as npt

from nerscore.analysis.byte_texts import ByteTexts
from nerscore.io.csv_cells import cell, string_cells
from nerscore.values.options import OptionEnum

__all__ = ["FIELDS", "ErrorCategory", "ErrorRecord", "ErrorTable"]

IntArray = npt.NDArray[np.int64]
Frags = tuple[tuple[int, int], ...]


class ErrorCategory(OptionEnum):
    """The kinds of entity error."""

    MISSED = "missed"
    SPURIOUS = "spurious"
    WRONG_LABEL = "wrong_label"
    WRONG_BOUNDARY = "wrong_boundary"
    WRONG_LABEL_AND_BOUNDARY = "wrong_label_and_boundary"
    UNALIGNED = "unaligned"


CATEGORIES = tuple(ErrorCategory)
_CAT_INDEX = {c: i for i, c in enumerate(CATEGORIES)}


@dataclass(frozen=True, slots=True)
class ErrorRecord:
    """One error: a gold entity, a prediction, or a mismatched pair of both.

    Offsets are half-open, in the units of the input: tokens for tag
    sequences, characters for character spans.

    Attributes
    ----------
    category : ErrorCategory
        What went wrong (see :mod:`nerscore.analysis.errors`).
    sequence : int
        Index of the sentence or document.
    doc_id : str or None
        Document id, when the input had ids.
    gold_start, gold_end, gold_label : int, int, str, or None
        The gold entity (None for ``spurious``).
    pred_start, pred_end, pred_label : int, int, str, or None
        The prediction (None for ``missed``).
    gold_text, pred_text : str or None
        The covered text (tokens joined by spaces for token input), when
        text or tokens are known; a discontinuous entity's fragments joined
        by `` … ``.
    gold_fragments, pred_fragments : tuple of (int, int), or None
        The fragments of a discontinuous entity (None for a contiguous one
        or an absent side); written ``"0 4;19 29"`` in CSV.

    Examples
    --------
    >>> r = ErrorRecord(ErrorCategory.MISSED, 0, None, 3, 5, "PER", None, None, None)
    >>> r.to_dict()["category"], r.to_dict()["gold_label"]
    ('missed', 'PER')
    """

    category: ErrorCategory
    sequence: int
    doc_id: str | None
    gold_start: int | None
    gold_end: int | None
    gold_label: str | None
    pred_start: int | None
    pred_end: int | None
    pred_label: str | None
    gold_text: str | None = None
    pred_text: str | None = None
    gold_fragments: Frags | None = None
    pred_fragments: Frags | None = None

    def to_dict(self) -> dict[str, Any]:
        """The record as a JSON-safe dictionary (field order kept).

        Returns
        -------
        dict
        """
        out = {name: getattr(self, name) for name in FIELDS}
        out["category"] = self.category.value
        for side in ("gold_fragments", "pred_fragments"):
            if out[side] is not None:
                out[side] = [list(f) for f in out[side]]
        return out

    def shifted(self, offset: int) -> ErrorRecord:
        """The same record with ``sequence`` moved by ``offset`` (a batch within a corpus).

        Examples
        --------
        >>> ErrorRecord(ErrorCategory.MISSED, 0, None, 3, 5, "PER", None, None, None).shifted(7).sequence
        7
        """
        return replace(self, sequence=self.sequence + offset)


#: Column order of :func:`~nerscore.analysis.errors.write_errors`.
FIELDS: tuple[str, ...] = tuple(f.name for f in fields(ErrorRecord))


@dataclass(frozen=True, eq=False)
class ErrorTable(Sequence[ErrorRecord]):
    """Error records held as columns; a sequence of :class:`ErrorRecord` made on access.

    Attributes
    ----------
    category : array of int
        Index into :class:`ErrorCategory` (in its order).
    sequence : array of int
        Sentence or document of each record.
    gold_start, gold_end, gold_label, pred_start, pred_end, pred_label : array of int
        Bounds and label (an index into ``labels``) of each side; -1 where
        the side is absent.
    labels : tuple of str
        The label table.
    doc_id : list of (str or None), or None
        Per record; None when the input had no ids.
    gold_text, pred_text : sequence of (str or None), or None
        Per record; None when no text is known. The texts of a CoNLL file
        stay its bytes (:class:`~nerscore.analysis.byte_texts.ByteTexts`)
        until read.
    gold_fragments, pred_fragments : list of (fragments or None), or None
        Per record; None when no entity is discontinuous.

    Examples
    --------
    >>> t = ErrorTable.from_records([
    ...     ErrorRecord(ErrorCategory.SPURIOUS, 0, None, None, None, None, 1, 2, "LOC")])
    >>> len(t), t[0].pred_label, t.shifted(3)[0].sequence
    (1, 'LOC', 3)
    >>> print(t.to_string("csv"), end="")
    category,sequence,doc_id,gold_start,gold_end,gold_label,pred_start,pred_end,pred_label,\
gold_text,pred_text,gold_fragments,pred_fragments
    spurious,0,,,,,1,2,LOC,,,,
    """

    category: IntArray
    sequence: IntArray
    gold_start: IntArray
    gold_end: IntArray
    gold_label: IntArray
    pred_start: IntArray
    pred_end: IntArray
    pred_label: IntArray
    labels: tuple[str, ...]
    doc_id: list[str | None] | None = None
    gold_text: Sequence[str | None] | None = None
    pred_text: Sequence[str | None] | None = None
    gold_fragments: list[Frags | None] | None = None
    pred_fragments: list[Frags | None] | None = None

    def __len__(self) -> int:
        return len(self.category)

    @overload
    def __getitem__(self, k: int) -> ErrorRecord: ...

    @overload
    def __getitem__(self, k: slice) -> list[ErrorRecord]: ...

    def __getitem__(self, k: int | slice) -> ErrorRecord | list[ErrorRecord]:
        if isinstance(k, slice):
            return [self[i] for i in range(*k.indices(len(self)))]
        n = len(self)
        if not -n <= k < n:
            raise IndexError(f"record {k} of {n}")
        k %= n
        labels = self.labels

        def item(values: Sequence[Any] | None) -> Any:
            return None if values is None else values[k]

        def num(values: IntArray) -> int | None:
            v = int(values[k])
            return v if v >= 0 else None

        def label(values: IntArray) -> str | None:
            v = int(values[k])
            return labels[v] if v >= 0 else None

        return ErrorRecord(
            CATEGORIES[int(self.category[k])], int(self.sequence[k]), item(self.doc_id),
            num(self.gold_start), num(self.gold_end), label(self.gold_label),
            num(self.pred_start), num(self.pred_end), label(self.pred_label),
            item(self.gold_text), item(self.pred_text),
            item(self.gold_fragments), item(self.pred_fragments))

    def __iter__(self) -> Iterator[ErrorRecord]:
        return (self[k] for k in range(len(self)))

    def shifted(self, offset: int) -> ErrorTable:
        """The same records with ``sequence`` moved by ``offset`` (a batch within a corpus)."""
        return replace(self, sequence=self.sequence + offset) if offset else self

    def rows(self, start: int, stop: int) -> ErrorTable:
        """Records ``start`` to ``stop`` (exclusive) as a table.

        Examples
        --------
        >>> t = ErrorTable.from_records([ErrorRecord(ErrorCategory.MISSED, k, None, 0, 1, "X",
        ...                                          None, None, None) for k in range(5)])
        >>> t.rows(1, 3).sequence.tolist()
        [1, 2]
        """
        cut = slice(start, stop)

        def part(values: Sequence[Any] | None) -> Any:
            return None if values is None else values[cut]

        return ErrorTable(
            self.category[cut], self.sequence[cut], self.gold_start[cut], self.gold_end[cut],
            self.gold_label[cut], self.pred_start[cut], self.pred_end[cut],
            self.pred_label[cut], self.labels, part(self.doc_id), part(self.gold_text),
            part(self.pred_text), part(self.gold_fragments), part(self.pred_fragments))

    def write_to(self, fh: IO[str] | IO[bytes], format: str = "jsonl",  # noqa: A002
                 *, header: bool = True, block: int = 1 << 16) -> None:
        """Write :meth:`to_string` to ``fh`` (text, or bytes as UTF-8), ``block`` records at a time.

        ``header=False`` leaves out the CSV header row.
        """
        binary = _is_binary(fh)
        for k, start in enumerate(range(0, max(len(self), 1), block)):
            part = self.rows(start, start + block)
            if format != "csv":  # JSON Lines are made as UTF-8 bytes
                raw = _to_jsonl(part)
                fh.write(raw if binary else raw.decode("utf-8"))  # type: ignore[arg-type]
                continue
            text = _to_csv(part)
            if k or not header:
                text = text.split("\n", 1)[1]
            fh.write(text.encode("utf-8") if binary else text)  # type: ignore[arg-type]

    @classmethod
    def from_records(cls, records: Iterable[ErrorRecord]) -> ErrorTable:
        """The columns of any records (an :class:`ErrorTable` is returned as it is)."""
        if isinstance(records, ErrorTable):
            return records
        recs = list(records)
        index: dict[str, int] = {}

        def ints(name: str) -> IntArray:
            return np.array([-1 if (v := getattr(r, name)) is None else v for r in recs],
                            dtype=np.int64)

        def label_ids(name: str) -> IntArray:
            return np.array([-1 if (v := getattr(r, name)) is None
                             else index.setdefault(v, len(index)) for r in recs], dtype=np.int64)

        def column(name: str) -> list[Any] | None:
            values = [getattr(r, name) for r in recs]
            return values if any(v is not None for v in values) else None

        return cls(
            np.array([_CAT_INDEX[ErrorCategory(r.category)] for r in recs], dtype=np.int64),
            ints("sequence"), ints("gold_start"), ints("gold_end"), label_ids("gold_label"),
            ints("pred_start"), ints("pred_end"), label_ids("pred_label"), tuple(index),
            column("doc_id"), column("gold_text"), column("pred_text"),
            column("gold_fragments"), column("pred_fragments"))

    def to_string(self, format: str = "jsonl") -> str:  # noqa: A002 - the writers' name
        """The records as JSON Lines or CSV (see :func:`~nerscore.analysis.errors.write_errors`)."""
        if format == "csv":
            return _to_csv(self)
        return _to_jsonl(self).decode("utf-8")


def _is_binary(fh: IO[Any]) -> bool:
    return "b" in getattr(fh, "mode", "") or isinstance(fh, (io.BufferedIOBase, io.RawIOBase))


# --------------------------------------------------------------------------- CSV
#
# One row per record, the cells quoted as :mod:`nerscore.io.csv_cells` quotes
# them; the columns are made at once, the fixed ones from tables.


def _csv_ints(values: IntArray) -> list[str]:
    """Each value in decimal, an empty cell for -1 (an absent side)."""
    col = _decimals(values, b"")
    if isinstance(col, bytes):
        return [""] * len(values)
    if isinstance(col, _Coded):
        return _lookup([x.decode("ascii") for x in col.table], col.codes)
    return [x.decode("ascii") for x in col]


def _csv_fragments(frags: Frags | None) -> str:
    """Fragments as BRAT writes them (``0 4;19 29``); an empty cell for None."""
    return "" if frags is None else ";".join(f"{a} {b}" for a, b in frags)


def _to_csv(t: ErrorTable) -> str:
    """A header row of :data:`FIELDS`, then one row per record."""
    n = len(t)
    labels = [*(cell(x) for x in t.labels), ""]  # -1 -> an empty cell
    frags = [[_csv_fragments(f) for f in side] if side else [""] * n
             for side in (t.gold_fragments, t.pred_fragments)]
    none = [None] * n
    columns: list[Sequence[str]] = [
        _lookup([c.value for c in CATEGORIES], t.category), _csv_ints(t.sequence),
        string_cells(t.doc_id or none), _csv_ints(t.gold_start), _csv_ints(t.gold_end),
        _lookup(labels, t.gold_label), _csv_ints(t.pred_start), _csv_ints(t.pred_end),
        _lookup(labels, t.pred_label), string_cells(t.gold_text or none),
        string_cells(t.pred_text or none), *frags,
    ]
    rows = [",".join(FIELDS), *map(",".join, zip(*columns, strict=True))]
    return "\n".join(rows) + "\n"


def _lookup(table: Sequence[Any], codes: IntArray) -> list[Any]:
    """``[table[c] for c in codes]``: one NumPy gather of the values' references, one ``tolist``."""
    out: list[Any] = np.fromiter(table, dtype=object, count=len(table))[codes].tolist()
    return out


# --------------------------------------------------------------------------- JSON Lines
#
# A line is the fields' JSON values between fixed framing (``{"category": ``,
# ``, "sequence": ``, ...), all as UTF-8 bytes. Each field becomes one of three
# kinds of column: the same bytes in every record (``bytes``), a code per
# record into a short table of values (``_Coded``: categories, labels, offsets
# of a short range) or one value per record (``list``). Framing is folded into
# the tables of the coded columns beside it, and two short tables into one, so
# that a line is only a few pieces; the columns are interleaved in one flat
# list, joined a slice at a time. The texts of a file are its bytes as they
# are, the quotes (or ``null``) folded into the framing around them
# (:meth:`~nerscore.analysis.byte_texts.ByteTexts.json_bytes`).


class _Coded:
    """A column whose record ``k`` is ``table[codes[k]]``."""

    __slots__ = ("codes", "table")

    def __init__(self, table: list[bytes], codes: IntArray) -> None:
        self.table = table
        self.codes = codes


_Column = bytes | _Coded | list[bytes]
#: ``str(k)`` (UTF-8) of the non-negative offsets and sequences met so far (see :func:`_int_strs`).
_INTS: list[bytes] = []
_MOST_CACHED = 1 << 16
#: Pieces joined at a time (see :func:`_to_jsonl`).
_JOINED = 1 << 14


def _int_strs(lo: int, hi: int) -> list[bytes]:
    """``str(k)`` of ``lo`` to ``hi`` (inclusive) as bytes; small non-negative ones are made once."""
    if lo < 0 or hi >= _MOST_CACHED:
        return _ascii_ints(list(range(lo, hi + 1)))
    if hi >= len(_INTS):
        _INTS.extend(_ascii_ints(list(range(len(_INTS), hi + 1))))
    return _INTS[lo : hi + 1]


def _ascii_ints(values: list[int]) -> list[bytes]:
    """``str(v)`` of each value as bytes: one ``str`` of the list, split."""
    return str(values)[1:-1].encode("ascii").split(b", ") if values else []


def _utf8(text: str) -> bytes:
    return text.encode("utf-8")


def _decimals(values: IntArray, absent: bytes) -> _Column:
    """Each value in decimal, ``absent`` for -1 (an absent side); ``absent`` alone when all are."""
    present = values >= 0
    if not present.any():
        return absent
    lo, hi = int(values[present].min()), int(values.max())
    if hi - lo > 4 * len(values):  # spread out: one str per value
        out = _ascii_ints(values.tolist())
        for k in np.flatnonzero(~present).tolist():
            out[k] = absent
        return out
    # offsets and the sequences of a batch span a short range: a table of the range
    return _Coded([absent, *_int_strs(lo, hi)], np.where(present, values - (lo - 1), 0))


def _json_ints(values: IntArray) -> _Column:
    """Each value as JSON, ``null`` for -1 (an absent side); one ``null`` when all are."""
    return _decimals(values, b"null")


def _json_strings(values: Sequence[Any] | None) -> _Column:
    """Each value as a JSON string, ``null`` for None; one ``null`` when there are no values.

    ``encode_basestring`` value by value: faster than encoding the values
    joined into one string and splitting it again.
    """
    if values is None:
        return b"null"
    n_none = values.count(None) if isinstance(values, (list, ByteTexts)) else sum(
        v is None for v in values)
    if n_none == len(values):
        return b"null"
    return [b"null" if v is None else _utf8(encode_basestring(v)) for v in values]


def _json_texts(values: Sequence[Any] | None) -> list[_Column]:
    """:func:`_json_strings`; a file's texts as their bytes, the quotes (or ``null``) around them.

    The quotes are two coded columns (``null`` and nothing where a record
    has no text), which :func:`_pieces` folds into the framing around them.
    """
    if not isinstance(values, ByteTexts) or values.count(None) == len(values):
        return [_json_strings(values)]
    codes = values.present.astype(np.int64)
    return [_Coded([b"null", b'"'], codes), values.json_bytes(), _Coded([b"", b'"'], codes)]


def _json_fragments(values: list[Frags | None] | None) -> _Column:
    """Each fragment list as JSON (``[[0, 4], [19, 29]]``), ``null`` for None."""
    if values is None or all(v is None for v in values):
        return b"null"
    return [b"null" if v is None else json.dumps([list(f) for f in v]).encode("ascii")
            for v in values]


def _json_labels(ids: IntArray, labels: tuple[str, ...]) -> _Column:
    """Each label id as its JSON string, ``null`` for -1."""
    if not (ids >= 0).any():
        return b"null"
    return _Coded([*(_utf8(encode_basestring(x)) for x in labels), b"null"],  # -1 -> null
                  np.where(ids >= 0, ids, len(labels)))


def _pieces(columns: list[_Column], n: int) -> list[_Column]:
    """The columns of a line as few pieces: framing and short tables folded together.

    A table of at most a quarter as many values as there are records takes the
    framing before it (else the coded column before it takes it, or it stays a
    piece of its own) and is merged with a coded column just before it when
    their product is that short too.
    """
    limit = max(n, 32)
    out: list[_Column] = []
    framing = b""

    def place(text: bytes) -> None:  # framing after the last piece
        last = out[-1] if out else None
        if isinstance(last, _Coded) and 4 * len(last.table) <= limit:
            out[-1] = _Coded([x + text for x in last.table], last.codes)
        else:
            out.append(text)

    for col in columns:
        if isinstance(col, bytes):
            framing += col
            continue
        if isinstance(col, _Coded) and 4 * len(col.table) <= limit:
            if framing:
                col = _Coded([framing + x for x in col.table], col.codes)
                framing = b""
            last = out[-1] if out else None
            if isinstance(last, _Coded) and 4 * len(last.table) * len(col.table) <= limit:
                out[-1] = _Coded([x + y for x in last.table for y in col.table],
                                 last.codes * len(col.table) + col.codes)
                continue
        elif framing:
            place(framing)
            framing = b""
        out.append(col)
    if framing:
        place(framing)
    return out


def _to_jsonl(t: ErrorTable) -> bytes:
    """One JSON object per record, as ``json.JSONEncoder(ensure_ascii=False)`` writes it, UTF-8.

    Each field becomes one column of JSON values; the framing and the short
    columns are folded into few pieces (see :func:`_pieces`), which are
    interleaved in one flat list and joined.
    """
    n = len(t)
    if not n:
        return b""
    cats = _Coded([_utf8(encode_basestring(c.value)) for c in CATEGORIES], t.category)
    values: list[list[_Column]] = [[v] for v in (
        cats, _json_ints(t.sequence),
        _json_strings(t.doc_id), _json_ints(t.gold_start), _json_ints(t.gold_end),
        _json_labels(t.gold_label, t.labels), _json_ints(t.pred_start),
        _json_ints(t.pred_end), _json_labels(t.pred_label, t.labels))]
    values += [_json_texts(t.gold_text), _json_texts(t.pred_text),
               [_json_fragments(t.gold_fragments)], [_json_fragments(t.pred_fragments)]]
    line: list[_Column] = []
    for k, (name, value) in enumerate(zip(FIELDS, values, strict=True)):
        line += [f'{", " if k else "{"}"{name}": '.encode("ascii"), *value]
    pieces = _pieces([*line, b"}\n"], n)
    width = len(pieces)
    flat: list[bytes] = [b""] * (n * width)
    for k, piece in enumerate(pieces):
        if isinstance(piece, bytes):
            flat[k::width] = [piece] * n
        elif isinstance(piece, _Coded):
            flat[k::width] = _lookup(piece.table, piece.codes)
        else:
            flat[k::width] = piece
    # bytes.join keeps a buffer record per item: joined a slice at a time it stays small
    return b"".join([b"".join(flat[a : a + _JOINED]) for a in range(0, len(flat), _JOINED)])
