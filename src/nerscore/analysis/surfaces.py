"""Surface forms of entities, and whether each was seen in training.

An entity's surface form is its covered tokens joined by single spaces, or
its covered text with each whitespace run made one space. It is *seen* when
a training entity has the same surface form and label (``docs/diagnostics.md``).

A file's tokens are never made into a string per entity for this: the
surface forms of all sides are cut from the files' bytes in one gather per
side (:meth:`~nerscore.io._conll_text.FieldView.joined_lines`) and
numbered by their bytes (:func:`~nerscore.io._intern.intern_tokens`), so that
seen or not is a comparison of integers.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from nerscore.values.spans import EntityColumns
from nerscore.values.tags import Slices

if TYPE_CHECKING:
    from nerscore.decode.inputs import Prepared

__all__ = ["Side", "seen_flags", "surfaces", "texts_of"]

IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]
#: Entities and the texts (or token lists) of their sequences.
Side = tuple[EntityColumns, Sequence[Any] | None]
#: The surface forms of a side's rows: as lines of bytes (``joined_lines``) or as strings.
_Lines = tuple[bytes, IntArray]


def texts_of(prep: Prepared) -> Sequence[Any] | None:
    """Per sequence, the text (str) or token list that offsets refer to, when the input has it.

    Spans give their documents' texts; tags read from a file give their tokens.
    """
    if prep.texts is None:
        return None
    if isinstance(prep.texts, Slices):  # a file's tokens: read only where an entity covers them
        return prep.texts
    return list(prep.texts)


def surfaces(cols: EntityColumns, texts: Sequence[Any] | None) -> list[str] | None:
    """The surface form of every row: covered tokens joined by a space, or the covered text.

    Whitespace runs become one space. None when ``texts`` is None, a
    sequence has no text, or an entity lies outside its text.

    Examples
    --------
    >>> cols = EntityColumns([0, 1], [0, 4], [2, 12], [0, 0], ("PER",), 2)
    >>> surfaces(cols, [["Ann", "Lee", "ran"], "Hi, Bob  Lee!"])
    ['Ann Lee', 'Bob Lee']
    """
    found = _surface_forms(cols, texts, as_bytes=False)
    assert not isinstance(found, tuple)
    return found


def seen_flags(known: Side, *queries: Side) -> list[BoolArray | None] | None:
    """For every row of each query: whether a row of ``known`` has its surface form and label.

    Parameters
    ----------
    known : (EntityColumns, texts)
        The training entities and the texts or token lists of their sequences.
    *queries : (EntityColumns, texts)
        The entities to look up, each with its texts.

    Returns
    -------
    list of bool arrays, or None
        One array per query (None for a query whose surface forms are
        unknown); None when those of ``known`` are unknown (see
        :func:`surfaces`).

    Examples
    --------
    >>> train = EntityColumns([0, 0], [0, 2], [1, 3], [0, 1], ("LOC", "PER"), 1)
    >>> test = EntityColumns([0, 0, 0], [0, 1, 2], [1, 2, 3], [0, 1, 1], ("PER", "LOC"), 1)
    >>> seen_flags((train, [["Paris", "in", "Ann"]]), (test, [["Ann", "Paris", "Ann"]]))
    [array([ True,  True, False])]
    """
    sides = (known, *queries)
    # as bytes when every side with texts is a file's tokens, else every side as strings
    as_bytes = all(isinstance(texts, Slices) and hasattr(texts.flat, "joined_lines")
                   for _, texts in sides if texts is not None)
    forms = [_surface_forms(cols, texts, as_bytes=as_bytes) for cols, texts in sides]
    if forms[0] is None:
        return None
    labels: dict[str, int] = {}
    codes = [np.array([labels.setdefault(x, len(labels)) for x in cols.labels],
                      dtype=np.int64)[cols.label] for cols, _ in sides]
    width = max(len(labels), 1)
    keys = [None if ids is None else ids * width + code
            for ids, code in zip(_numbered(forms), codes, strict=True)]
    seen = keys[0]
    assert seen is not None
    return [None if k is None else np.isin(k, seen) for k in keys[1:]]


def _surface_forms(
    cols: EntityColumns, texts: Sequence[Any] | None, *, as_bytes: bool
) -> _Lines | list[str] | None:
    """:func:`surfaces`; with ``as_bytes``, a file's tokens as lines of bytes (``joined_lines``)."""
    if texts is None or (len(cols) and int(cols.seq.max()) >= len(texts)):
        return None
    if isinstance(texts, Slices):  # a file's tokens: joined for all rows at once
        if len(cols) and bool((cols.end > np.diff(texts.offsets)[cols.seq]).any()):
            return None
        if as_bytes and hasattr(texts.flat, "joined_lines"):
            first = texts.offsets[cols.seq] + cols.start
            lines: _Lines = texts.flat.joined_lines(first, first + (cols.end - cols.start))
            return lines
        return texts.join_ranges(cols.seq, cols.start, cols.end)
    out: list[str] = []
    for q, s, e in zip(cols.seq.tolist(), cols.start.tolist(), cols.end.tolist(), strict=True):
        item = texts[q]
        if item is None or e > len(item):
            return None
        part = item[s:e]
        out.append(" ".join(part.split()) if isinstance(item, str) else " ".join(map(str, part)))
    return out


def _numbered(forms: Sequence[_Lines | list[str] | None]) -> list[IntArray | None]:
    """One id per row of every side, equal for equal surface forms over all sides.

    Strings are numbered in a dict; lines of bytes (all sides, then) by their
    bytes, hashed and checked (:func:`~nerscore.io._intern.intern_tokens`).
    """
    if any(isinstance(f, list) for f in forms):
        index: dict[str, int] = {}
        numbered: list[IntArray | None] = []
        for f in forms:
            assert not isinstance(f, tuple)  # the caller cut no side as bytes then
            numbered.append(None if f is None else np.fromiter(
                (index.setdefault(x, len(index)) for x in f), dtype=np.int64))
        return numbered
    from nerscore.io._intern import intern_tokens

    parts = [f for f in forms if isinstance(f, tuple)]
    shifts = np.cumsum([0, *(len(out) for out, _ in parts[:-1])]).tolist()
    starts = np.concatenate([at[:-1] + s for (_, at), s in zip(parts, shifts, strict=True)])
    ends = np.concatenate([at[1:] - 1 + s for (_, at), s in zip(parts, shifts, strict=True)])
    data = np.frombuffer(b"".join(out for out, _ in parts), dtype=np.uint8)
    ids, _ = intern_tokens(data, starts, ends)  # a line's newline is left out
    pieces = iter(np.split(ids, np.cumsum([len(at) - 1 for _, at in parts])[:-1]))
    return [None if f is None else next(pieces) for f in forms]
