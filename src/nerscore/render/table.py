"""Text and Markdown tables: the one layout of the tables the commands print.

The first column (labels, names) is left-aligned and the others (numbers)
right-aligned, two spaces apart. A cell longer than
:data:`~nerscore.errors.QUOTED` characters (a label pasted from a sentence,
say) is written whole but overflows its row, rather than widening every row
of its column.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from nerscore.errors import QUOTED

__all__ = ["column_width", "markdown_cell", "table_lines"]


def column_width(cells: Iterable[str]) -> int:
    """The width of a column of ``cells``: its longest cell of at most ``QUOTED`` characters.

    Examples
    --------
    >>> column_width(["LOC", "PER", "X" * 500])
    3
    """
    return max((len(c) for c in cells if len(c) <= QUOTED), default=0)


def markdown_cell(text: str) -> str:
    r"""``text`` as one Markdown table cell: ``|`` escaped, each line break a space.

    Other white space is kept as it is (labels ``'LOC'`` and ``'LOC '`` are
    two labels).

    Examples
    --------
    >>> markdown_cell("PER|ORG\nLOC ")
    'PER\\|ORG LOC '
    """
    return " ".join(text.splitlines()).replace("|", "\\|")


def table_lines(header: Sequence[str], rows: Sequence[Sequence[str]], *,
                markdown: bool = False) -> list[str]:
    r"""``rows`` under ``header``, as lines of text without trailing spaces, or of Markdown.

    Markdown cells have ``|`` escaped and line breaks written as spaces.

    Examples
    --------
    >>> print("\n".join(table_lines(["label", "F1"], [["LOC", "0.50"], ["PER|ORG", "1.00"]])))
    label      F1
    LOC      0.50
    PER|ORG  1.00
    >>> print("\n".join(table_lines(["label", "F1"], [["PER|ORG", "1.00"]], markdown=True)))
    | label | F1 |
    |---|---:|
    | PER\|ORG | 1.00 |
    >>> print("\n".join(table_lines(["label", "n"], [["LOC", "1"], ["X" * 70, "2"]])))
    label  n
    LOC    1
    XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX  2
    """
    if markdown:
        def md(cells: Sequence[str]) -> str:
            return "| " + " | ".join(map(markdown_cell, cells)) + " |"

        align = "|" + "|".join("---" if k == 0 else "---:" for k in range(len(header))) + "|"
        return [md(header), align, *(md(r) for r in rows)]
    widths = [column_width(r[k] for r in [header, *rows]) for k in range(len(header))]
    return ["  ".join(c.ljust(widths[0]) if k == 0 else c.rjust(widths[k])
                      for k, c in enumerate(r)).rstrip() for r in [header, *rows]]
