"""Documents: labelled character (or token) spans, with a document id and optionally the text.

Span inputs come in several shapes (docs/index.md): per document, a list of
``(start, end, label)`` tuples, of ``{"start", "end", "label"}`` dicts or of
:class:`~nerscore.Entity` objects; documents with an id and text
(:class:`Document`, or ``{"id", "text", "spans"}`` dicts); and mappings
``{doc_id: spans}``. Offsets are half-open ``[start, end)`` with
``0 <= start <= end``, and ``end <= len(text)`` when the text is known.

A predicted span may carry the system's confidence: a dict's ``"score"``,
a tuple's fourth field ``(start, end, label, score)`` or ``Entity.score``
(docs/curves.md); it never affects matching.

A discontinuous span has ``"fragments": [[start, end], ...]`` beside its
``start`` and ``end`` (its extent), or is an Entity with fragments
(docs/fragments.md). A document may name regions nobody annotated
(``ignore``): predictions there are neither true nor false positives.

The private helper :func:`span_columns` turns many documents' spans into
integer NumPy columns in one pass (the hot path behind every scorer);
:class:`Document` is the value type at the API boundary.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import chain
from operator import attrgetter, countOf, itemgetter, methodcaller
from typing import Any, cast

import numpy as np
import numpy.typing as npt

from nerscore.errors import InputTypeError, InvalidSpanError, quoted
from nerscore.values.fragments import Fragments
from nerscore.values.span_checks import (
    INT_TYPES,
    SpanLike,
    check_fragments,
    check_score,
    check_span,
    coerce_region,
    coerce_regions,
    coerce_span,
    describe_doc,
    fragments_of,
    is_int,
    score_of,
)
from nerscore.values.spans import Entity, EntityColumns, Span
from nerscore.values.tags import encode_strings

__all__ = ["Document", "SpanLike", "check_fragments", "check_score", "check_span",
           "coerce_region", "coerce_regions", "coerce_span", "describe_doc", "fragments_of",
           "is_int", "score_of", "span_columns"]

IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]
#: Field lists of many spans: starts, ends, labels, fragments (or None), scores (or None).
_Fields = tuple[Sequence[Any], Sequence[Any], Sequence[Any], Sequence[Any] | None,
                Sequence[Any] | None]


@dataclass(frozen=True, slots=True)
class Document:
    """A document: its id, its labelled spans and optionally its text.

    Parameters
    ----------
    id : str
        Document id; gold and predicted documents are paired by it.
    spans : sequence of span-like
        ``(start, end, label)`` tuples, ``{"start", "end", "label"}`` dicts
        (with ``"fragments": [[start, end], ...]`` for a discontinuous span,
        ``start`` and ``end`` then being its extent) or :class:`~nerscore.Entity`
        objects, half-open; stored as a tuple of ``Entity`` in the order given
        (``Entity.sentence`` is 0).
    text : str, optional
        The text the offsets index (Python ``str`` indices). When given,
        every span must end within it.
    source : str, optional
        File the document was read from (for messages; ignored by ``==``).
    line : int, optional
        1-based line of ``source`` where the document starts (ignored by ``==``).
    ignore : sequence, optional
        Regions nobody annotated: ``[start, end]`` for every label or
        ``[start, end, label]`` for one label (or dicts, Span and Entity
        objects); stored as Span (every label) and Entity (one label)
        objects. A prediction overlapping a region of its label is neither a
        true nor a false positive; a gold span there is an error when scored
        (docs/fragments.md).

    Raises
    ------
    InvalidSpanError
        For a span that is malformed, reversed, negative or beyond the text,
        or whose fragments are malformed, and for a malformed region, naming
        the document and the span.

    Examples
    --------
    >>> doc = Document("d1", [(0, 4, "PER"), {"start": 13, "end": 19, "label": "LOC"}],
    ...                text="Anna flew to Berlin")
    >>> [(e.start, e.end, e.label) for e in doc.spans]
    [(0, 4, 'PER'), (13, 19, 'LOC')]
    >>> doc.span_texts()
    ['Anna', 'Berlin']
    >>> doc = Document("d3", [{"start": 0, "end": 29, "label": "Disorder",
    ...                         "fragments": [[0, 4], [19, 29]]}],
    ...                text="lung cancer in the upper lobe", ignore=[(5, 11, "Disorder")])
    >>> doc.spans[0].fragments, doc.ignore
    ((Span(start=0, end=4), Span(start=19, end=29)), (Entity(span=Span(start=5, end=11), label='Disorder', sentence=0),))
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
    ignore: tuple[Span | Entity, ...] = ()

    def __post_init__(self) -> None:
        if not isinstance(self.id, str):
            raise InputTypeError(
                f"Expected `id` to be a str; got {type(self.id).__name__} {quoted(self.id)}."
            )
        if self.text is not None and not isinstance(self.text, str):
            raise InputTypeError(
                f"Expected `text` of document {quoted(self.id)} to be a str or None; "
                f"got {type(self.text).__name__}."
            )
        if isinstance(self.spans, (str, bytes)) or not isinstance(self.spans, Sequence):
            raise InputTypeError(
                f"Expected `spans` of document {quoted(self.id)} to be a sequence of spans; "
                f"got {type(self.spans).__name__}."
            )
        n = len(self.text) if self.text is not None else None
        out: list[Entity] = []
        append = out.append
        checked = Entity._checked
        limit = n if n is not None else math.inf  # every end is within no text
        for i, item in enumerate(cast("Sequence[Any]", self.spans)):
            # fast paths for the common exact types; anything else, or anything wrong,
            # goes through the general checks, which raise naming the span
            kind = type(item)
            if kind is dict:
                # three keys, or more without fragments or score (which the checks read)
                if len(item) == 3 or ("fragments" not in item and "score" not in item):
                    try:
                        s, e, lab = item["start"], item["end"], item["label"]
                    except KeyError:
                        pass
                    else:
                        if (type(s) is int and type(e) is int and type(lab) is str
                                and 0 <= s <= e and e <= limit):
                            append(checked(s, e, lab))
                            continue
            elif kind is Entity:
                if item.sentence == 0 and (n is None or item.span.end <= n):
                    append(item)
                    continue
            elif kind is tuple or kind is list:
                try:
                    s, e, lab = item
                except ValueError:
                    pass
                else:
                    if (type(s) is int and type(e) is int and type(lab) is str and 0 <= s <= e
                            and e <= limit):
                        append(checked(s, e, lab))
                        continue
            s, e, lab = coerce_span(item, document=self.id, index=i)
            check_span(s, e, lab, document=self.id, text_length=n, index=i)
            frags = check_fragments(fragments_of(item), s, e, lab, document=self.id, index=i)
            score = check_score(score_of(item), document=self.id, span=item, index=i)
            append(item if isinstance(item, Entity) and item.sentence == 0
                   else Entity(Span(s, e), lab, 0,
                               () if frags is None else tuple(Span(a, b) for a, b in frags),
                               score))
        object.__setattr__(self, "spans", tuple(out))
        if self.ignore:
            object.__setattr__(self, "ignore", coerce_regions(self.ignore, document=self.id,
                                                              text_length=n))
        elif self.ignore != ():
            object.__setattr__(self, "ignore", ())

    def span_texts(self) -> list[str]:
        """The text of every span (requires ``text``); a discontinuous span's fragments joined by `` … ``."""
        if self.text is None:
            raise ValueError(f"Document {quoted(self.id)} has no text.")
        t = self.text
        return [" … ".join(t[f.start : f.end] for f in e.fragments) if e.fragments
                else t[e.start : e.end] for e in self.spans]

    def where(self) -> str:
        """Where the document was read, for messages: file and line, the file alone, or ``""``.

        Examples
        --------
        >>> Document("d1", source="a.jsonl", line=2).where(), Document("d1").where()
        ('a.jsonl, line 2', '')
        """
        # the join (not a format) of what is known: a source that is not a str raises as before
        if not self.source:
            return "" if self.line is None else f"line {self.line}"
        return ", ".join((self.source,) if self.line is None else (self.source, f"line {self.line}"))

    def named(self) -> str:
        """The document as a message starts with it: where it was read (when known), then its id.

        Examples
        --------
        >>> Document("d1", source="a.jsonl", line=2).named(), Document("d1").named()
        ("a.jsonl, line 2: document 'd1'", "Document 'd1'")
        """
        where = self.where()
        return f"{where}: document {quoted(self.id)}" if where else f"Document {quoted(self.id)}"

    def to_dict(self) -> dict[str, Any]:
        """``{"id", "text", "spans": [{"start", "end", "label"}], "ignore"}`` (``text`` only when known).

        A discontinuous span also has ``"fragments"``; ``"ignore"`` (``[start,
        end]`` or ``[start, end, label]``) is there only when the document
        has regions.

        Examples
        --------
        >>> Document("a", [(0, 1, "X")]).to_dict()
        {'id': 'a', 'spans': [{'start': 0, 'end': 1, 'label': 'X'}]}
        >>> Document("b", [Entity.from_fragments([(0, 1), (3, 4)], "X")], ignore=[(6, 9)]).to_dict()
        {'id': 'b', 'spans': [{'start': 0, 'end': 4, 'label': 'X', 'fragments': [[0, 1], [3, 4]]}], 'ignore': [[6, 9]]}
        """
        out: dict[str, Any] = {"id": self.id}
        if self.text is not None:
            out["text"] = self.text
        spans = []
        for e in self.spans:
            span: dict[str, Any] = {"start": e.start, "end": e.end, "label": e.label}
            if e.fragments:
                span["fragments"] = [[f.start, f.end] for f in e.fragments]
            if e.score is not None:
                span["score"] = e.score
            spans.append(span)
        out["spans"] = spans
        if self.ignore:
            out["ignore"] = [region_list(r) for r in self.ignore]
        return out


def region_list(region: Span | Entity) -> list[Any]:
    """An ignore region as it is written: ``[start, end]`` or ``[start, end, label]``."""
    if isinstance(region, Entity):
        return [region.start, region.end, region.label]
    return [region.start, region.end]


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
        if not all(issubclass(k, INT_TYPES) and not issubclass(k, (bool, np.bool_))
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
) -> EntityColumns:
    """The spans of many documents as entity columns (``seq`` is the document's index).

    Labels are coded against their sorted vocabulary; the columns have
    fragments when some span is discontinuous. Validation is vectorised;
    the first bad span raises :class:`InvalidSpanError` naming its document
    (``names[seq]``) and the number of other bad spans.
    """
    n_docs = len(span_lists)
    lengths = np.fromiter(map(len, span_lists), dtype=np.int64, count=n_docs)
    seq = np.repeat(np.arange(n_docs, dtype=np.int64), lengths)
    flat: list[Any] = list(chain.from_iterable(span_lists))
    n = len(flat)
    fields = _fast_fields(flat)
    cols = None if fields is None else _encode_fields(*fields[:3], n)
    if fields is None or cols is None:
        # the general reader raises naming the first offending span
        fields = _slow_fields(flat, seq, names, side)
        cols = _encode_fields(*fields[:3], n)
        if cols is None:  # every span is well-formed: an offset overflows int64
            big = 2**63
            i = next((j for j, (s, e) in enumerate(zip(fields[0], fields[1], strict=True))
                      if not (-big <= s < big and -big <= e < big)), 0)
            k = int(seq[i]) if len(seq) else 0
            span = (fields[0][i], fields[1][i], fields[2][i]) if n else (0, 0, "")
            raise InvalidSpanError(
                f"Span {quoted(span)} of document {quoted(names[k])}{f' ({side})' if side else ''} has an "
                "offset beyond the 64-bit integer range; offsets must be string or token "
                "indices.",
                document=names[k], spans=[span],
            )
    labels = fields[2]
    start, end, label, vocab = cols
    tl = None
    if text_lengths is not None:
        tl = np.fromiter(text_lengths if None not in text_lengths else
                         (-1 if n is None else n for n in text_lengths), dtype=np.int64,
                         count=len(text_lengths))
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
    fragments = None
    if fields[3] is not None:
        fragments = _fragment_columns(fields[3], start, end, labels, seq, names, side)
    scores = None if fields[4] is None else _score_column(fields[4], start, end, labels, seq, names,
                                                         side)
    return EntityColumns(seq, start, end, label, vocab, n_docs, fragments, scores)


def _fragment_columns(
    raw: Sequence[Any], start: IntArray, end: IntArray, labels: Sequence[Any], seq: IntArray,
    names: Sequence[str | int], side: str,
) -> Fragments | None:
    """The checked fragments of every span (``raw``: what each span gives, None for none)."""
    lists: list[tuple[tuple[int, int], ...] | None] = [None] * len(raw)
    starts = start.tolist()
    ends = end.tolist()
    for i, f in enumerate(raw):
        if f is not None:
            k = int(seq[i])
            first = int(np.searchsorted(seq, k, side="left"))
            lists[i] = check_fragments(f, starts[i], ends[i], labels[i], document=names[k],
                                       side=side, index=i - first)
    return Fragments.from_lists(lists, start, end)


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


_FRAGMENTS, _SCORE = attrgetter("fragments"), attrgetter("score")


def _fast_fields(flat: list[Any]) -> _Fields | None:
    """Split homogeneous span items into field lists (C-level loops), or None.

    The fourth list holds what each span gives as fragments (None when no
    span has any), the fifth its score (None when no span has one); dicts
    with fragments go through the general reader.
    """
    if not flat:
        return (), (), (), None, None
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
    except (KeyError, IndexError, AttributeError):  # read (and named) span by span
        return None
    frags: list[Any] | None = None
    scores: list[Any] | None = None
    if kinds == {dict}:
        # dicts of exactly three keys have none; a dict with fragments is read span by span
        if sum(map(len, flat)) != 3 * len(flat):
            if any(map(methodcaller("__contains__", "fragments"), flat)):
                return None
            if any(map(methodcaller("__contains__", "score"), flat)):
                scores = list(map(methodcaller("get", "score"), flat))
    elif kinds == {Entity}:
        # the common case, no fragments and no score, without a list of either
        if any(map(_FRAGMENTS, flat)):
            frags = [f or None for f in map(_FRAGMENTS, flat)]
        if countOf(map(_SCORE, flat), None) != len(flat):
            scores = list(map(_SCORE, flat))
    else:
        # every tuple has at least 3 items (else IndexError): exactly 3 (or all 4, the
        # fourth a score) iff they add up to 3n (4n)
        total = sum(map(len, flat))
        if total == 4 * len(flat) and set(map(len, flat)) == {4}:
            scores = list(map(itemgetter(3), flat))
        elif total != 3 * len(flat):
            return None
    return s, e, lab, frags, scores


def _slow_fields(flat: list[Any], seq: IntArray, names: Sequence[str | int], side: str) -> _Fields:
    s_out: list[int] = []
    e_out: list[int] = []
    l_out: list[str] = []
    f_out: list[Any] = []
    x_out: list[Any] = []
    doc_of = seq.tolist()
    first = 0
    for i, item in enumerate(flat):
        if i == 0 or doc_of[i] != doc_of[i - 1]:
            first = i
        s, e, lab = coerce_span(item, document=names[doc_of[i]], side=side, index=i - first)
        s_out.append(s)
        e_out.append(e)
        l_out.append(lab)
        f_out.append(fragments_of(item))
        x_out.append(score_of(item))
    return (s_out, e_out, l_out, f_out if any(f is not None for f in f_out) else None,
            x_out if any(x is not None for x in x_out) else None)


def _score_column(raw: Sequence[Any], start: IntArray, end: IntArray, labels: Sequence[Any],
                  seq: IntArray, names: Sequence[str | int], side: str) -> FloatArray:
    """The scores as floats (NaN: unscored); the first bad one raises naming its span."""
    kinds = set(map(type, raw))
    if kinds == {float}:  # the common case: one C-level pass
        col = np.fromiter(raw, dtype=np.float64, count=len(raw))
        if np.isfinite(col).all():
            return col
    ok = all(k is type(None) or (issubclass(k, (int, float, np.integer, np.floating))
                                 and not issubclass(k, (bool, np.bool_))) for k in kinds)
    col = np.full(len(raw), np.nan)
    if ok:
        col = np.array([np.nan if x is None else x for x in raw], dtype=np.float64)
        ok = bool(np.isfinite(col[[x is not None for x in raw]]).all())
    if not ok:
        for i, x in enumerate(raw):
            k = int(seq[i])
            first = int(np.searchsorted(seq, k, side="left"))
            check_score(x, document=names[k], span=(int(start[i]), int(end[i]), labels[i], x),
                        side=side, index=i - first)
    return col
