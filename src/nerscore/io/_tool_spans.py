"""Spans as annotation tools store them: offsets that may count UTF-16 code units, and scores.

Label Studio, doccano and INCEpTION/WebAnno compute offsets in a browser or in
Java, where a string is a sequence of UTF-16 code units: a character outside
the Basic Multilingual Plane (most emoji) counts two, while a Python ``str``
counts it once. :func:`python_offsets` reads a tool's offsets either way and
decides which reading the file uses: from the span's own text where the tool
stores it (``value.text`` in Label Studio), else from word boundaries
(docs/formats/label-studio.md, docs/formats/doccano.md). Every reader of an
annotation tool keeps its spans as :class:`ToolSpan` records, with the
tool's confidence score where it has one.
"""

from __future__ import annotations

import json
import os
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from typing import Any

from nerscore.errors import FormatError, quoted
from nerscore.io._json_text import JSON_ESCAPES, json_object_line, parse_json
from nerscore.io._textfile import read_text
from nerscore.io.atomic import atomic_open
from nerscore.values.documents import Document
from nerscore.values.span_checks import beyond_text
from nerscore.values.spans import Entity, Span

__all__ = [
    "UNITS", "ToolSpan", "check_units", "covers", "entities", "json_lines", "load_json", "python_offsets",
    "utf16_note", "utf16_positions", "utf16_problem",
]

#: What a tool's offsets count: decided per document, Python characters, or UTF-16 code units.
UNITS = ("auto", "python", "utf16")


@dataclass(frozen=True)
class ToolSpan:
    """One span as an annotation tool stores it.

    Attributes
    ----------
    start, end : int
        Offsets into the document's text (after :func:`python_offsets`:
        Python ``str`` indices).
    label : str
        The label.
    text : str or None
        The covered text as the tool stores it (Label Studio's
        ``value.text``), checked against the offsets.
    score : float or None
        The tool's confidence in the span (a Label Studio prediction, a
        Prodigy span), where it has one.
    where : str
        Where the span is in the file, for messages (``"task 3, result 'x1'"``).
    """

    start: int
    end: int
    label: str
    text: str | None = None
    score: float | None = None
    where: str = ""


def entities(spans: Sequence[ToolSpan]) -> tuple[Entity, ...]:
    """The spans as entities (start, end, label), in order, with the tool's score when it has one.

    Examples
    --------
    >>> entities([ToolSpan(0, 4, "PER", score=0.9)])
    (Entity(span=Span(start=0, end=4), label='PER', sentence=0, score=0.9),)
    """
    return tuple(Entity(Span(s.start, s.end), s.label, score=s.score) for s in spans)


def text_of(doc: Document, what: str) -> str:
    """The text of ``doc``; every annotation tool stores it, so a document without it is an error."""
    if doc.text is None:
        raise ValueError(f"{doc.named()} has no text; {what} need it.")
    return doc.text


def record_id(doc_id: str) -> int | str:
    """A document id as the tools write it: an id that is an integer as written, as an integer.

    Only ids that read back the same are written as integers (not ``"007"``,
    nor digits of other scripts).

    Examples
    --------
    >>> [record_id(i) for i in ("12", "007", "\u0663", "0", "d1")]
    [12, '007', '\u0663', 0, 'd1']
    """
    same = doc_id.isascii() and doc_id.isdigit() and str(int(doc_id)) == doc_id
    return int(doc_id) if same else doc_id


def write_json_lines(documents: Iterable[Document], path: str | os.PathLike[str],
                     record: Callable[[Document], dict[str, Any]], *, encoding: str) -> None:
    r"""Write ``record(doc)`` of every document as one JSON line, atomically.

    What ``encoding`` cannot encode is written as JSON escapes (``\u00eb``).
    """
    with atomic_open(path, "w", encoding=encoding, errors=JSON_ESCAPES, newline="\n") as fh:
        for doc in documents:
            fh.write(json.dumps(record(doc), ensure_ascii=False) + "\n")


def check_units(units: str) -> str:
    """``units`` checked against :data:`UNITS`.

    Examples
    --------
    >>> check_units("utf16")
    'utf16'
    >>> check_units("utf-16")
    Traceback (most recent call last):
    ...
    ValueError: Expected `offsets` to be one of 'auto', 'python' or 'utf16'; got 'utf-16'.
    """
    if units not in UNITS:
        raise ValueError(f"Expected `offsets` to be one of 'auto', 'python' or 'utf16'; got "
                         f"{units!r}.")
    return units


def load_json(path: str | os.PathLike[str], encoding: str) -> Any:
    """The JSON document of ``path``; one that cannot be read is a :class:`FormatError` naming the line."""
    return parse_json(read_text(path, encoding=encoding), os.fspath(path))


def json_lines(path: str | os.PathLike[str], encoding: str,
               ) -> Iterator[tuple[int, dict[str, Any]]]:
    """``(line number, object)`` for each non-blank line of a JSON Lines file.

    Raises
    ------
    FormatError
        For a line that is not one JSON object, naming file and line.
    """
    source = os.fspath(path)
    for n, raw in enumerate(read_text(path, encoding=encoding).split("\n"), 1):
        obj = json_object_line(raw, source, n)
        if obj is not None:
            yield n, obj


def utf16_note(n: int, how: str = "") -> str:
    """The note on ``n`` spans whose UTF-16 offsets were converted; ``how`` says more.

    Examples
    --------
    >>> utf16_note(3)
    '3 span(s) had offsets counting UTF-16 code units (characters beyond U+FFFF count two), converted to character offsets.'
    """
    return (f"{n} span(s) had offsets counting UTF-16 code units (characters beyond U+FFFF "
            f"count two), converted to character offsets{f' ({how})' if how else ''}.")


def utf16_positions(text: str) -> dict[int, int] | None:
    """UTF-16 offset -> Python index, for a text with characters beyond U+FFFF (else None).

    Offsets that fall inside a surrogate pair have no entry.

    Examples
    --------
    >>> utf16_positions("abc") is None
    True
    >>> utf16_positions("\U0001F600 ok")
    {0: 0, 2: 1, 3: 2, 4: 3, 5: 4}
    """
    if text.isascii() or len(text.encode("utf-16-le")) == 2 * len(text):
        return None
    out: dict[int, int] = {}
    u = 0
    for i, ch in enumerate(text):
        out[u] = i
        u += 2 if ord(ch) > 0xFFFF else 1
    out[u] = len(text)
    return out


def utf16_problem(positions: dict[int, int], start: int, end: int, *, ends: str = "ends") -> str:
    """Why UTF-16 offsets ``start``, ``end`` have no Python index in :func:`utf16_positions`.

    ``ends`` is the verb of an end beyond the text (``"lies"`` for a single offset).

    Examples
    --------
    >>> positions = utf16_positions("\U0001F600 ok")
    >>> utf16_problem(positions, 1, 3)
    'falls inside a character beyond U+FFFF when read as UTF-16 code units'
    >>> utf16_problem(positions, 3, 9)
    'ends beyond the text, which has 5 UTF-16 code units'
    >>> utf16_problem(positions, -2, 3)
    'has a negative start'
    """
    if start < 0 or end < start:
        return "has a negative start" if start < 0 else "has start > end"
    length = max(positions)
    if end > length:
        return f"{ends} beyond the text, which has {length} UTF-16 code unit{'s' * (length != 1)}"
    return "falls inside a character beyond U+FFFF when read as UTF-16 code units"


def _clean(text: str, i: int) -> bool:
    """Whether ``i`` is a plausible span boundary: not between two word characters."""
    return i <= 0 or i >= len(text) or not (text[i - 1].isalnum() and text[i].isalnum())


def _fits(text: str, s: int, e: int) -> bool:
    return 0 <= s <= e <= len(text)


def python_offsets(
    text: str | None, spans: Sequence[ToolSpan], *, units: str = "auto", source: str = "",
    counts: Counter[str] | None = None,
) -> list[ToolSpan]:
    """The spans with Python ``str`` offsets, the tool's unit detected (or given).

    Parameters
    ----------
    text : str or None
        The document's text; without it the offsets are kept as they are.
    spans : sequence of ToolSpan
        Spans of one document with the tool's offsets.
    units : {"auto", "python", "utf16"}
        What the offsets count. ``"auto"`` decides per span where the span
        stores its text (the reading that gives that text), else per
        document from the spans with text, else by word boundaries: the
        UTF-16 reading is taken only when it cuts fewer words than the
        Python reading. Only texts with characters beyond U+FFFF differ.
    source : str
        The file, for messages.
    counts : Counter, optional
        Receives ``"utf16"`` (spans converted) and ``"utf16_guessed"``
        (converted by word boundaries, no stored text).

    Returns
    -------
    list of ToolSpan

    Raises
    ------
    FormatError
        For a span whose stored text is not at its offsets in either
        reading, or whose offsets fall outside the text.

    Examples
    --------
    >>> text = "\U0001F600 Anna"
    >>> python_offsets(text, [ToolSpan(3, 7, "PER", text="Anna")])[0].start
    2
    >>> python_offsets(text, [ToolSpan(2, 6, "PER", text="Anna")])[0].start
    2
    """
    units = check_units(units)
    positions = None if text is None else utf16_positions(text)
    if text is None or positions is None or units == "python":
        for span in spans:
            _check(text, span, span.start, span.end, source)
        return list(spans)

    def utf16(span: ToolSpan) -> tuple[int, int] | None:
        s, e = positions.get(span.start), positions.get(span.end)
        return None if s is None or e is None else (s, e)

    if units == "utf16":
        decided: str | None = "utf16"
    else:
        votes = Counter(_vote(text, span, utf16(span)) for span in spans if span.text is not None)
        votes.pop(None, None)
        if votes:
            decided = "utf16" if votes["utf16"] > votes["python"] else "python"
        else:
            decided = _by_words(text, spans, utf16)
    out = []
    for span in spans:
        reading = decided
        if units == "auto" and span.text is not None:
            reading = _vote(text, span, utf16(span)) or decided
        if reading == "utf16":
            pair = utf16(span)
            if pair is None:
                raise _bad(source, span, text, utf16_problem(positions, span.start, span.end))
            _check(text, span, pair[0], pair[1], source)
            if pair != (span.start, span.end) and counts is not None:
                counts["utf16"] += 1
                if span.text is None and units == "auto":
                    counts["utf16_guessed"] += 1
            out.append(replace(span, start=pair[0], end=pair[1]))
        else:
            _check(text, span, span.start, span.end, source)
            out.append(span)
    return out


def covers(stored: str | None, actual: str) -> bool:
    r"""Whether a tool's stored span text ``stored`` is the text ``actual`` at the offsets.

    Label Studio stores each line break inside a span as the two characters
    ``\n`` (a backslash and ``n``); such a text is the same mention.

    Examples
    --------
    >>> covers("Paris", "Paris"), covers("Rue\\nParis", "Rue\nParis"), covers("Rue", "Rua")
    (True, True, False)
    """
    if stored is None or stored == actual:
        return True
    return "\\n" in stored and stored == actual.replace("\r", "\\n").replace("\n", "\\n")


def _vote(text: str, span: ToolSpan, pair: tuple[int, int] | None) -> str | None:
    if _fits(text, span.start, span.end) and covers(span.text, text[span.start:span.end]):
        return "python"
    if pair is not None and covers(span.text, text[pair[0]:pair[1]]):
        return "utf16"
    return None


def _by_words(text: str, spans: Sequence[ToolSpan], utf16: Any) -> str:
    def cuts(pairs: list[tuple[int, int] | None]) -> int:
        return sum(2 if p is None or not _fits(text, *p) else
                   (not _clean(text, p[0])) + (not _clean(text, p[1])) for p in pairs)

    as_python = cuts([(s.start, s.end) for s in spans])
    as_utf16 = cuts([utf16(s) for s in spans])
    return "utf16" if as_utf16 < as_python else "python"


def _bad(source: str, span: ToolSpan, text: str | None, problem: str) -> FormatError:
    where = f"{source}: " if source else ""
    at = f"{span.where}: " if span.where else ""
    return FormatError(f"{where}{at}the span ({span.start}, {span.end}, {quoted(span.label)}) "
                       f"{problem}; fix the offsets in the file.", source=source or None)


def _check(text: str | None, span: ToolSpan, s: int, e: int, source: str) -> None:
    if s < 0 or e < s:
        raise _bad(source, span, text, "has a negative start" if s < 0 else "has start > end")
    if text is None:
        return
    if e > len(text):
        raise _bad(source, span, text, beyond_text(len(text)))
    if not covers(span.text, text[s:e]):
        other = ""
        positions = utf16_positions(text)
        if positions is not None:
            a, b = positions.get(span.start), positions.get(span.end)
            if a is not None and b is not None:
                other = f" (and {quoted(text[a:b])} reading them as UTF-16 code units)"
        raise _bad(source, span, text, f"says it covers {quoted(span.text)} but the text "
                   f"has {quoted(text[span.start:span.end])} there{other}")
