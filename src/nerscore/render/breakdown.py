"""Breakdowns (scores per entity length, document, seen/unseen) as text or Markdown tables."""

from __future__ import annotations

import math

from nerscore.analysis.breakdowns import Breakdown, Bucket
from nerscore.errors import option_error
from nerscore.render.sections import titled_section
from nerscore.render.table import table_lines

__all__ = ["breakdown_section", "render_breakdown"]


def _cells(b: Bucket, digits: int) -> list[str]:
    def f(x: float) -> str:
        return "nan" if math.isnan(x) else f"{x:.{digits}f}"

    def c(x: float) -> str:
        return str(x) if isinstance(x, int) else f"{x:.{digits}f}"

    return [b.name, f(b.precision), f(b.recall), f(b.f1), c(b.tp), c(b.tp_pred),
            str(b.n_pred), str(b.n_gold)]


_HEAD = ["", "precision", "recall", "f1", "tp", "tp_pred", "n_pred", "n_gold"]


def render_breakdown(result: Breakdown, *, format: str = "text", digits: int = 2) -> str:  # noqa: A002
    """A breakdown as a text or Markdown table, the overall row last.

    Parameters
    ----------
    result : Breakdown
        From :func:`breakdown` or :func:`breakdown_from_report`.
    format : {"text", "markdown"}
        Fixed-width text, or a Markdown table.
    digits : int
        Decimals of scores.

    Returns
    -------
    str
        No trailing spaces, no final newline.

    Examples
    --------
    >>> from nerscore import breakdown
    >>> b = breakdown([["B-PER", "I-PER", "O", "B-LOC"]], [["B-PER", "I-PER", "O", "O"]],
    ...               zero_division=0.0)
    >>> print(render_breakdown(b))
    entity length (tokens)  precision  recall    f1  tp  tp_pred  n_pred  n_gold
    1                            0.00    0.00  0.00   0        0       0       1
    2                            1.00    1.00  1.00   1        1       1       1
    overall                      1.00    0.50  0.67   1        1       1       2
    """
    if format not in ("text", "markdown"):
        raise option_error("format", "'text' or 'markdown'", format)
    title = {"length": f"entity length ({result.unit})", "document": "document",
             "seen": "in training"}[result.by]
    rows = [_cells(b, digits) for b in (*result.buckets, result.overall)]
    head = [title, *_HEAD[1:]]
    return "\n".join(table_lines(head, rows, markdown=format == "markdown"))


def breakdown_section(out: str, result: Breakdown, *, markdown: bool = False,
                      digits: int = 2) -> str:
    """``out`` followed by the breakdown under its title (``nerscore score --breakdown``).

    Parameters
    ----------
    out : str
        What comes before (a rendered report).
    result : Breakdown
    markdown : bool
        Markdown (a ``##`` title and a table), else text.
    digits : int
        Decimals of the scores.

    Returns
    -------
    str
    """
    table = render_breakdown(result, format="markdown" if markdown else "text", digits=digits)
    title = f"## Scores by {result.by}" if markdown else f"scores by {result.by}"
    return titled_section(out, title, table.rstrip() + "\n")
