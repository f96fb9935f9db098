r"""CSV text as RFC 4180 quotes it, the same on every Python version.

A row is its cells joined by commas, a newline after each row. A cell is the
value's ``str`` (an empty cell for None); a cell holding a comma, a double
quote, a carriage return or a newline is put between double quotes, its
quotes doubled. That is what ``csv.writer`` writes on Python 3.13; on older
versions it does not: 3.10's refuses a NUL character, and 3.11's and 3.12's
leave a lone carriage return unquoted, which ends the row for a reader. The
error listing and the curve table are written with these functions.

Examples
--------
>>> print(rows_text([["label", "text"], ["PER", 'Ann "A", Lee'], [None, 0.5]]), end="")
label,text
PER,"Ann ""A"", Lee"
,0.5
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

__all__ = ["cell", "rows_text", "string_cells"]

_QUOTED = re.compile(r'[,"\r\n]')


def cell(value: Any) -> str:
    r"""One value as a cell.

    Examples
    --------
    >>> cell(None), cell(3), cell("a,b"), cell("x\ry"), cell('say "hi" now')
    ('', '3', '"a,b"', '"x\ry"', '"say ""hi"" now"')
    """
    text = "" if value is None else value if isinstance(value, str) else str(value)
    return '"' + text.replace('"', '""') + '"' if _QUOTED.search(text) else text


def string_cells(values: Iterable[str | None]) -> list[str]:
    """A column of strings (None: an empty cell) as cells, found to need quotes by one search.

    Examples
    --------
    >>> string_cells(["Ann", None, "Lee, Bo", ""])
    ['Ann', '', '"Lee, Bo"', '']
    """
    cells: list[str] = ["" if v is None else v for v in values]
    joined = "".join(cells)
    if _QUOTED.search(joined) is None:  # nearly always
        return cells
    ends = np.cumsum([len(c) for c in cells])
    hits = [m.start() for m in _QUOTED.finditer(joined)]
    for k in sorted(set(np.searchsorted(ends, hits, side="right").tolist())):
        cells[k] = cell(cells[k])
    return cells


def rows_text(rows: Iterable[Sequence[Any]]) -> str:
    """The rows as CSV text (each value made a cell by :func:`cell`)."""
    return "".join(",".join(map(cell, row)) + "\n" for row in rows)
