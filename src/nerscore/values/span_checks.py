"""One span item as users write it: reading it and checking its fields.

A span is ``(start, end, label)`` (or ``(start, end, label, score)``), a
``{"start", "end", "label"}`` dict (with optional ``"fragments"`` and
``"score"``) or an :class:`~nerscore.Entity`; an ignore region is ``(start,
end)``, ``(start, end, label)``, a dict, a Span or an Entity. Every check
raises :class:`~nerscore.errors.InvalidSpanError` naming the document, the
span and the fix.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Union

import numpy as np

from nerscore.errors import InputTypeError, InvalidSpanError, quoted
from nerscore.values.fragments import normalize_fragments
from nerscore.values.spans import Entity, EntityColumns, Span

__all__ = ["INT_TYPES", "SpanLike", "beyond_text", "check_fragments", "check_score", "check_span",
           "coerce_region", "coerce_regions", "coerce_span", "describe_doc", "first_unscored",
           "fragments_of", "is_int", "score_of"]

#: One span as users write it: ``(start, end, label)``, ``{"start", "end", "label"}`` or Entity.
SpanLike = Union[Entity, Sequence[Any], Mapping[str, Any]]  # noqa: UP007 (runtime alias, 3.10)

INT_TYPES = (int, np.integer)


def is_int(x: object) -> bool:
    """Whether ``x`` is an integer (Python or NumPy), not a bool."""
    return isinstance(x, INT_TYPES) and not isinstance(x, (bool, np.bool_))


def beyond_text(text_length: int) -> str:
    """The problem of a span that ends past a text of ``text_length`` characters.

    Examples
    --------
    >>> beyond_text(1), beyond_text(4)
    ('ends beyond the text, which has 1 character', 'ends beyond the text, which has 4 characters')
    """
    unit = "character" if text_length == 1 else "characters"
    return f"ends beyond the text, which has {text_length} {unit}"


def describe_doc(name: str | int) -> str:
    """How messages name a document: ``document 'id'`` or ``document 3``."""
    return f"document {quoted(name)}" if isinstance(name, str) else f"document {name}"


def first_unscored(pred: EntityColumns, doc_ids: Sequence[str] | None = None) -> str:
    """Where the first prediction without a score is, for messages ('' when all have one).

    The first in document order, then by start; a document is named by its
    id, or by its position when ``doc_ids`` is None.

    Examples
    --------
    >>> cols = EntityColumns([1, 0, 1], [5, 9, 2], [9, 12, 4], [0, 0, 0], ("PER",),
    ...                      score=[np.nan, 0.5, np.nan])
    >>> first_unscored(cols, ["a", "b"]), first_unscored(cols)
    ("the first is (2, 4, 'PER') of document 'b'", "the first is (2, 4, 'PER') of document 1")
    """
    rows = np.flatnonzero(np.isnan(pred.score)) if pred.score is not None else np.arange(len(pred))
    if not len(rows):
        return ""
    k = int(rows[np.lexsort((pred.start[rows], pred.seq[rows]))[0]])
    seq = int(pred.seq[k])
    doc = describe_doc(doc_ids[seq] if doc_ids is not None else seq)
    span = (int(pred.start[k]), int(pred.end[k]), pred.labels[int(pred.label[k])])
    return f"the first is {quoted(span)} of {doc}"


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
        if not isinstance(item.span, Span):
            raise InvalidSpanError(
                f"Entity{num} of {where} has span {quoted(item.span)}, not a Span; write "
                "Entity(Span(start, end), label).",
                document=document,
            )
        s, e, lab = item.span.start, item.span.end, item.label
    elif isinstance(item, Mapping):
        missing = [k for k in ("start", "end", "label") if k not in item]
        if missing:
            raise InvalidSpanError(
                f"Span{num} {quoted(item)} of {where} lacks the key(s) {', '.join(map(repr, missing))}; "
                "write spans as {'start': int, 'end': int, 'label': str}.",
                document=document,
            )
        s, e, lab = item["start"], item["end"], item["label"]
    elif isinstance(item, (tuple, list)) and len(item) in (3, 4):
        s, e, lab = item[:3]
    else:
        raise InvalidSpanError(
            f"Item{num} {quoted(item)} of {where} is not a span; write spans as (start, end, label) "
            "or (start, end, label, score) tuples, {'start', 'end', 'label'} dicts or Entity "
            "objects.",
            document=document,
        )
    if not (is_int(s) and is_int(e)):
        raise InvalidSpanError(
            f"Span{num} {quoted(item)} of {where} needs integer offsets; got start {quoted(s)} and end {quoted(e)}.",
            document=document,
        )
    if not isinstance(lab, str):
        raise InvalidSpanError(
            f"Span{num} {quoted(item)} of {where} needs a str label; got {type(lab).__name__} {quoted(lab)}.",
            document=document,
        )
    return int(s), int(e), lab


def score_of(item: object) -> Any:
    """The score an item gives (a mapping's ``"score"``, a 4-tuple's last field, an Entity's), or None."""
    if isinstance(item, Entity):
        return item.score
    if isinstance(item, Mapping):
        return item.get("score")
    if isinstance(item, (tuple, list)) and len(item) == 4:
        return item[3]
    return None


def check_score(value: object, *, document: str | int, span: object, side: str = "",
                index: int | None = None) -> float | None:
    """A span's score as a float (None stays None: unscored).

    Raises
    ------
    InvalidSpanError
        For a score that is not a real number (a bool, a string) or is NaN
        or infinite.

    Examples
    --------
    >>> check_score(0.75, document="d", span=(0, 4, "PER", 0.75))
    0.75
    >>> check_score("high", document="d", span=(0, 4, "PER", "high"), index=2)
    Traceback (most recent call last):
    ...
    nerscore.errors.InvalidSpanError: Span 2 (0, 4, 'PER', 'high') of document 'd' has score 'high'; a score is a finite number (the system's confidence), or None for an unscored span.
    """
    if value is None:
        return None
    if isinstance(value, (int, float, np.integer, np.floating)) and not isinstance(
            value, (bool, np.bool_)):
        x = float(value)
        if np.isfinite(x):
            return x
    where = describe_doc(document) + (f" of {side}" if side else "")
    what = "Span" if index is None else f"Span {index}"
    raise InvalidSpanError(
        f"{what} {quoted(span)} of {where} has score {quoted(value)}; a score is a finite number (the "
        "system's confidence), or None for an unscored span.", document=document)


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
        problem = beyond_text(text_length)
        fix = "offsets are Python str indices into the document text"
    else:
        return
    raise InvalidSpanError(f"{what} {quoted(span)} of {where} {problem}; {fix}.", document=document,
                           spans=[span])


def fragments_of(item: object) -> Any:
    """The fragments an item gives (a mapping's ``"fragments"``, an Entity's), or None."""
    if isinstance(item, Entity):
        return item.fragments or None
    if isinstance(item, Mapping):
        return item.get("fragments")
    return None


def check_fragments(
    raw: object, start: int, end: int, label: str, *, document: str | int, side: str = "",
    index: int | None = None,
) -> tuple[tuple[int, int], ...] | None:
    """The fragments of span ``(start, end, label)``, normalized; None when it is contiguous.

    Raises
    ------
    InvalidSpanError
        When the fragments are not a list of ``[start, end]`` pairs, overlap,
        are empty among several, or do not span ``[start, end)`` (the span of
        a discontinuous entity is its extent), naming document and span.

    Examples
    --------
    >>> check_fragments([[19, 29], [0, 4]], 0, 29, "D", document="d")
    ((0, 4), (19, 29))
    >>> check_fragments([[0, 4], [19, 29]], 0, 30, "D", document="d")
    Traceback (most recent call last):
    ...
    nerscore.errors.InvalidSpanError: Span (0, 30, 'D') of document 'd' has fragments [[0, 4], [19, 29]] that span [0, 29), not [0, 30); start and end of a discontinuous span are its extent (first start to last end).
    """
    if raw is None:
        return None
    where = describe_doc(document) + (f" of {side}" if side else "")
    what = "Span" if index is None else f"Span {index}"
    span = (start, end, label)
    if isinstance(raw, (str, bytes)) or not isinstance(raw, (Sequence, tuple)):
        raise InvalidSpanError(
            f"{what} {quoted(span)} of {where} has fragments {quoted(raw)}; write them as a list of "
            "[start, end] pairs.", document=document, spans=[span])
    try:
        pairs = normalize_fragments(raw)
    except ValueError as exc:
        raise InvalidSpanError(f"{what} {quoted(span)} of {where}: {exc}", document=document,
                               spans=[span]) from None
    extent = (pairs[0][0], pairs[-1][1])
    if extent != (start, end):
        raise InvalidSpanError(
            f"{what} {quoted(span)} of {where} has fragments {[list(p) for p in pairs]} that span "
            f"[{extent[0]}, {extent[1]}), not [{start}, {end}); start and end of a "
            "discontinuous span are its extent (first start to last end).",
            document=document, spans=[span])
    return pairs if len(pairs) > 1 else None


def coerce_region(
    item: object, *, document: str | int, text_length: int | None, index: int | None = None,
) -> Span | Entity:
    """One ignore region: a :class:`Span` (every label) or an :class:`Entity` (its label only).

    Regions are written ``[start, end]`` or ``[start, end, label]`` (lists or
    tuples), ``{"start", "end"[, "label"]}`` dicts, Span or Entity objects.

    Raises
    ------
    InvalidSpanError
        For anything else, a region that covers no unit, or one reaching
        beyond the text, naming document and region.

    Examples
    --------
    >>> coerce_region([0, 10], document="d", text_length=None)
    Span(start=0, end=10)
    >>> coerce_region({"start": 4, "end": 8, "label": "PER"}, document="d", text_length=None)
    Entity(span=Span(start=4, end=8), label='PER', sentence=0)
    >>> coerce_region([5, 5], document="d", text_length=None, index=0)
    Traceback (most recent call last):
    ...
    nerscore.errors.InvalidSpanError: Ignore region 0 [5, 5] of document 'd' covers no unit; a region is [start, end) with start < end.
    """
    where = describe_doc(document)
    what = "Ignore region" + ("" if index is None else f" {index}")
    label: object = None
    if isinstance(item, Span):
        s, e = item.start, item.end
    elif isinstance(item, Entity) and not item.fragments:
        s, e, label = item.start, item.end, item.label
    elif isinstance(item, Mapping) and "start" in item and "end" in item:
        s, e, label = item["start"], item["end"], item.get("label")
    elif isinstance(item, (tuple, list)) and len(item) in (2, 3):
        s, e = item[0], item[1]
        label = item[2] if len(item) == 3 else None
    else:
        raise InvalidSpanError(
            f"{what} {quoted(item)} of {where} is not a region; write [start, end] for every label "
            "or [start, end, label] for one label.", document=document)
    shown = item if not isinstance(item, (Span, Entity)) else [s, e, *([label] if label else [])]
    if not (is_int(s) and is_int(e)) or (label is not None and not isinstance(label, str)):
        raise InvalidSpanError(
            f"{what} {quoted(shown)} of {where} needs integer offsets and a str label (or none).",
            document=document)
    if not 0 <= s < e:
        raise InvalidSpanError(
            f"{what} {quoted(shown)} of {where} covers no unit; a region is [start, end) with "
            "start < end.", document=document)
    if text_length is not None and e > text_length:
        raise InvalidSpanError(
            f"{what} {quoted(shown)} of {where} {beyond_text(text_length)}.", document=document)
    span = Span(int(s), int(e))
    return span if label is None else Entity(span, str(label))


def coerce_regions(items: object, *, document: str | int,
                   text_length: int | None) -> tuple[Span | Entity, ...]:
    """Every ignore region of a document (see :func:`coerce_region`)."""
    if items is None:
        return ()
    if isinstance(items, (str, bytes)) or not isinstance(items, Sequence):
        raise InputTypeError(
            f"Expected the ignore regions of {describe_doc(document)} to be a list of "
            f"[start, end] or [start, end, label]; got {type(items).__name__}.")
    return tuple(coerce_region(item, document=document, text_length=text_length, index=i)
                 for i, item in enumerate(items))
