"""Documents: labelled character (or token) spans, with a document id and optionally the text.

Span inputs come in several shapes (docs/index.md): per document, a list of
``(start, end, label)`` tuples, of ``{"start", "end", "label"}`` dicts or of
:class:`~nerscore.Entity` objects; documents with an id and text
(:class:`Document`, or ``{"id", "text", "spans"}`` dicts); and mappings
``{doc_id: spans}``. Offsets are half-open ``[start, end)`` with
``0 <= start <= end``, and ``end <= len(text)`` when the text is known.

The private helper :func:`span_columns` turns many documents' spans into
integer NumPy columns in one pass (the hot path behind every scorer);
:class:`Document` is the value type at the API boundary.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from itertools import chain
from operator import attrgetter, itemgetter
from typing import Any, Union, cast

import numpy as np
import numpy.typing as npt

from nerscore.errors import InputTypeError, InvalidSpanError
from nerscore.values.spans import Entity, Span
from nerscore.values.tags import encode_strings

__all__ = ["Document", "SpanLike", "check_span", "coerce_span", "describe_doc", "is_int", "span_columns"]

IntArray = npt.NDArray[np.int64]

#: One span as users write it: ``(start, end, label)``, ``{"start", "end", "label"}`` or Entity.
SpanLike = Union[Entity, Sequence[Any], Mapping[str, Any]]  # noqa: UP007 (runtime alias, 3.10)

_INT_TYPES = (int, np.integer)


def is_int(x: object) -> bool:
    """Whether ``x`` is an integer (Python or NumPy), not a bool."""
    return isinstance(x, _INT_TYPES) and not isinstance(x, (bool, np.bool_))


def describe_doc(name: str | int) -> str:
    """How messages name a document: ``document 'id'`` or ``document 3``."""
    return f"document {name!r}" if isinstance(name, str) else f"document {name}"


def coerce_span(
    item: object, *, document: str | int, side: str = "", index: int | None = None
) -> tuple[int, int, str]:
    """Read one span-like item as ``(start, end, label)``, checking its types.

    Raises
    ------
    InvalidSpanError
        When the item is not a span or its fields have the wrong types.
    """
    where = describe_doc(document) + (f" of {side}" if side else "")
    num = "" if index is None else f" {index}"
    if isinstance(item, Entity):
        return item.start, item.end, item.label
    if isinstance(item, Mapping):
        missing = [k for k in ("start", "end", "label") if k not in item]
        if missing:
            raise InvalidSpanError(
                f"Span{num} {item!r} of {where} lacks the key(s) {', '.join(map(repr, missing))}; "
                "write spans as {'start': int, 'end': int, 'label': str}.",
                document=document,
            )
        s, e, lab = item["start"], item["end"], item["label"]
    elif isinstance(item, (tuple, list)) and len(item) == 3:
        s, e, lab = item
    else:
        raise InvalidSpanError(
            f"Item{num} {item!r} of {where} is not a span; write spans as (start, end, label) "
            "tuples, {'start', 'end', 'label'} dicts or Entity objects.",
            document=document,
        )
    if not (is_int(s) and is_int(e)):
        raise InvalidSpanError(
            f"Span{num} {item!r} of {where} needs integer offsets; got start {s!r} and end {e!r}.",
            document=document,
        )
    if not isinstance(lab, str):
        raise InvalidSpanError(
            f"Span{num} {item!r} of {where} needs a str label; got {type(lab).__name__} {lab!r}.",
            document=document,
        )
    return int(s), int(e), lab


def check_span(
    start: int, end: int, label: str, *, document: str | int, text_length: int | None,
    side: str = "", extra: str = "", index: int | None = None,
) -> None:
    """Raise :class:`InvalidSpanError` unless ``0 <= start <= end (<= text_length)``."""
    where = describe_doc(document) + (f" of {side}" if side else "") + extra
    span = (start, end, label)
    what = "Span" if index is None else f"Span {index}"
    if start < 0:
        problem, fix = "has a negative start", "offsets count from 0"
    elif end < start:
        problem = "has start > end"
        fix = "spans are half-open [start, end) with start <= end"
    elif text_length is not None and end > text_length:
        problem = f"ends beyond the text, which has {text_length} characters"
        fix = "offsets are Python str indices into the document text"
    else:
        return
    raise InvalidSpanError(f"{what} {span!r} of {where} {problem}; {fix}.", document=document,
                           spans=[span])


@dataclass(frozen=True, slots=True)
class Document:
    """A document: its id, its labelled spans and optionally its text.

    Parameters
    ----------
    id : str
        Document id; gold and predicted documents are paired by it.
    spans : sequence of span-like
        ``(start, end, label)`` tuples, ``{"start", "end", "label"}`` dicts or
        :class:`~nerscore.Entity` objects, half-open; stored as a tuple of
        ``Entity`` in the order given (``Entity.sentence`` is 0).
    text : str, optional
        The text the offsets index (Python ``str`` indices). When given,
        every span must end within it.
    source : str, optional
        File the document was read from (for messages; ignored by ``==``).
    line : int, optional
        1-based line of ``source`` where the document starts (ignored by ``==``).

    Raises
    ------
    InvalidSpanError
        For a span that is malformed, reversed, negative or beyond the text,
        naming the document and the span.

    Examples
    --------
    >>> doc = Document("d1", [(0, 4, "PER"), {"start": 13, "end": 19, "label": "LOC"}],
    ...                text="Anna flew to Berlin")
    >>> [(e.start, e.end, e.label) for e in doc.spans]
    [(0, 4, 'PER'), (13, 19, 'LOC')]
    >>> doc.span_texts()
    ['Anna', 'Berlin']
    >>> Document("d2", [(3, 1, "PER")])
    Traceback (most recent call last):
    ...
    nerscore.errors.InvalidSpanError: Span 0 (3, 1, 'PER') of document 'd2' has start > end; spans are half-open [start, end) with start <= end.
    """

    id: str
    spans: tuple[Entity, ...] = ()
    text: str | None = None
    source: str | None = field(default=None, compare=False)
    line: int | None = field(default=None, compare=False)

    def __post_init__(self) -> None:
        if not isinstance(self.id, str):
            raise InputTypeError(
                f"Expected `id` to be a str; got {type(self.id).__name__} {self.id!r}."
            )
        if self.text is not None and not isinstance(self.text, str):
            raise InputTypeError(
                f"Expected `text` of document {self.id!r} to be a str or None; "
                f"got {type(self.text).__name__}."
            )
        if isinstance(self.spans, (str, bytes)) or not isinstance(self.spans, Sequence):
            raise InputTypeError(
                f"Expected `spans` of document {self.id!r} to be a sequence of spans; "
                f"got {type(self.spans).__name__}."
            )
        n = len(self.text) if self.text is not None else None
        out: list[Entity] = []
        append = out.append
        for i, item in enumerate(cast("Sequence[Any]", self.spans)):
            # fast paths for the common exact types; anything else, or anything wrong,
            # goes through the general checks, which raise naming the span
            kind = type(item)
            if kind is Entity:
                if item.sentence == 0 and (n is None or item.span.end <= n):
                    append(item)
                    continue
            elif kind is tuple or kind is list or kind is dict:
                try:
                    s, e, lab = (item if kind is not dict
                                 else (item["start"], item["end"], item["label"]))
                except (ValueError, KeyError):
                    pass
                else:
                    if (type(s) is int and type(e) is int and type(lab) is str and 0 <= s <= e
                            and (n is None or e <= n)):
                        append(Entity(Span(s, e), lab))
                        continue
            s, e, lab = coerce_span(item, document=self.id, index=i)
            check_span(s, e, lab, document=self.id, text_length=n, index=i)
            append(item if isinstance(item, Entity) and item.sentence == 0
                   else Entity(Span(s, e), lab))
        object.__setattr__(self, "spans", tuple(out))

    def span_texts(self) -> list[str]:
        """The text of every span (requires ``text``)."""
        if self.text is None:
            raise ValueError(f"Document {self.id!r} has no text.")
        t = self.text
        return [t[e.start : e.end] for e in self.spans]

    def to_dict(self) -> dict[str, Any]:
        """``{"id", "text", "spans": [{"start", "end", "label"}]}`` (``text`` only when known).

        Examples
        --------
        >>> Document("a", [(0, 1, "X")]).to_dict()
        {'id': 'a', 'spans': [{'start': 0, 'end': 1, 'label': 'X'}]}
        """
        out: dict[str, Any] = {"id": self.id}
        if self.text is not None:
            out["text"] = self.text
        out["spans"] = [{"start": e.start, "end": e.end, "label": e.label} for e in self.spans]
        return out


def _int_column(values: Sequence[Any], n: int) -> IntArray | None:
    """Integer column of the ``n`` ``values``, or None when some value is not an integer.

    Integers are ``int`` or NumPy integers, never ``bool``; None too when a
    value does not fit in int64.
    """
    if n == 0:
        return np.zeros(0, dtype=np.int64)
    try:
        # one C-level pass instead of a type check per value: the sum stays an
        # int only over ints and int subclasses (a float, str, None, NumPy
        # scalar, 0-d array, Fraction or Decimal makes it fail or change type)
        plain = type(sum(values)) is int
    except TypeError:
        plain = False
    if not plain:  # e.g. NumPy integers: check every type
        kinds = set(map(type, values))
        if not all(issubclass(k, _INT_TYPES) and not issubclass(k, (bool, np.bool_))
                   for k in kinds):
            return None
    try:
        col = np.fromiter(values, dtype=np.int64, count=n)
    except OverflowError:
        return None
    if plain:
        # the sum let bools (int subclasses) through; they read as 0 or 1
        small = np.flatnonzero((col >> 1) == 0).tolist()
        if small and bool in set(map(type, map(values.__getitem__, small))):
            return None
    return col


def span_columns(
    span_lists: Sequence[Sequence[object]],
    *,
    names: Sequence[str | int],
    text_lengths: Sequence[int | None] | None = None,
    side: str = "",
) -> tuple[IntArray, IntArray, IntArray, IntArray, tuple[str, ...]]:
    """Columns ``seq, start, end, label`` and the sorted label vocabulary of many documents.

    ``label`` indexes the vocabulary. Validation is vectorised; the first
    bad span raises :class:`InvalidSpanError` naming its document
    (``names[seq]``) and the number of other bad spans.
    """
    n_docs = len(span_lists)
    lengths = np.fromiter(map(len, span_lists), dtype=np.int64, count=n_docs)
    seq = np.repeat(np.arange(n_docs, dtype=np.int64), lengths)
    flat: list[Any] = list(chain.from_iterable(span_lists))
    n = len(flat)
    fields = _fast_fields(flat)
    cols = None if fields is None else _encode_fields(*fields, n)
    if fields is None or cols is None:
        # the general reader raises naming the first offending span
        fields = _slow_fields(flat, seq, names, side)
        cols = _encode_fields(*fields, n)
        if cols is None:  # every span is well-formed: an offset overflows int64
            big = 2**63
            i = next((j for j, (s, e) in enumerate(zip(fields[0], fields[1], strict=True))
                      if not (-big <= s < big and -big <= e < big)), 0)
            k = int(seq[i]) if len(seq) else 0
            span = (fields[0][i], fields[1][i], fields[2][i]) if n else (0, 0, "")
            raise InvalidSpanError(
                f"Span {span} of document {names[k]!r}{f' ({side})' if side else ''} has an "
                "offset beyond the 64-bit integer range; offsets must be string or token "
                "indices.",
                document=names[k], spans=[span],
            )
    labels = fields[2]
    start, end, label, vocab = cols
    tl = None
    if text_lengths is not None:
        tl = np.array([-1 if n is None else n for n in text_lengths], dtype=np.int64)
    bad = (start < 0) | (end < start)
    if tl is not None and len(seq):
        limit = tl[seq]
        bad |= (limit >= 0) & (end > limit)
    if bad.any():
        rows = np.flatnonzero(bad)
        i = int(rows[0])
        k = int(seq[i])
        others = len(rows) - 1
        extra = f" (and {others} more invalid span{'s' * (others != 1)})" if others else ""
        first = int(np.searchsorted(seq, k, side="left"))
        check_span(int(start[i]), int(end[i]), labels[i], document=names[k],
                   text_length=None if tl is None or tl[k] < 0 else int(tl[k]), side=side,
                   extra=extra, index=i - first)
    return seq, start, end, label, vocab


def _encode_fields(
    starts: Sequence[Any], ends: Sequence[Any], labels: Sequence[Any], n: int
) -> tuple[IntArray, IntArray, IntArray, tuple[str, ...]] | None:
    """Integer columns and encoded labels of the field lists, or None when a field is wrong."""
    start = _int_column(starts, n)
    if start is None:
        return None
    end = _int_column(ends, n)
    if end is None:
        return None
    try:  # raises TypeError for a label that is not a str (or not hashable)
        label, vocab = encode_strings(labels, sort=True)
    except TypeError:
        return None
    return start, end, label, vocab


def _fast_fields(flat: list[Any]) -> tuple[Sequence[Any], Sequence[Any], Sequence[Any]] | None:
    """Split homogeneous span items into three field lists (C-level loops), or None."""
    if not flat:
        return (), (), ()
    kinds = set(map(type, flat))
    getters: tuple[Any, Any, Any]
    if kinds <= {tuple, list}:
        getters = itemgetter(0), itemgetter(1), itemgetter(2)
    elif kinds == {dict}:
        getters = itemgetter("start"), itemgetter("end"), itemgetter("label")
    elif kinds == {Entity}:
        getters = attrgetter("span.start"), attrgetter("span.end"), attrgetter("label")
    else:
        return None
    try:
        s, e, lab = (list(map(g, flat)) for g in getters)
    except (KeyError, IndexError):
        return None
    # every tuple has at least 3 items (else IndexError): exactly 3 iff they add up to 3n
    if kinds != {dict} and kinds != {Entity} and sum(map(len, flat)) != 3 * len(flat):
        return None
    return s, e, lab


def _slow_fields(
    flat: list[Any], seq: IntArray, names: Sequence[str | int], side: str
) -> tuple[list[int], list[int], list[str]]:
    s_out: list[int] = []
    e_out: list[int] = []
    l_out: list[str] = []
    doc_of = seq.tolist()
    first = 0
    for i, item in enumerate(flat):
        if i == 0 or doc_of[i] != doc_of[i - 1]:
            first = i
        s, e, lab = coerce_span(item, document=names[doc_of[i]], side=side, index=i - first)
        s_out.append(s)
        e_out.append(e)
        l_out.append(lab)
    return s_out, e_out, l_out
