"""The entity confusion matrix as a text or Markdown table."""

from __future__ import annotations

from nerscore.analysis.confusion import NONE, ConfusionMatrix
from nerscore.render.table import markdown_cell, table_lines

__all__ = ["confusion_section", "render_confusion", "render_confusion_markdown"]


def render_confusion(cm: ConfusionMatrix, *, digits: int = 2) -> str:
    """The matrix as a fixed-width text table: gold labels down, predictions across.

    Parameters
    ----------
    cm : ConfusionMatrix
        Raw or normalised.
    digits : int
        Decimals of normalised cells.

    Returns
    -------
    str
        Lines without trailing spaces, no final newline.

    Examples
    --------
    >>> cm = ConfusionMatrix(("LOC", "PER"), [[1, 0, 1], [1, 2, 0], [0, 1, 0]])
    >>> print(render_confusion(cm))
    gold/pred  LOC  PER  none
    LOC          1    0     1
    PER          1    2     0
    none         0    1     0
    >>> print(render_confusion(cm.normalize("true")))
    gold/pred   LOC   PER  none
    LOC        0.50  0.00  0.50
    PER        0.33  0.67  0.00
    none       0.00  1.00  0.00
    """
    names, cells = _cell_texts(cm, digits)
    rows = [[name, *row] for name, row in zip(names, cells, strict=True)]
    return "\n".join(table_lines(["gold/pred", *names], rows))


def _cell_texts(cm: ConfusionMatrix, digits: int) -> tuple[list[str], list[list[str]]]:
    """Row/column names (``none`` last) and the formatted cells."""
    none = NONE if NONE not in cm.labels else f"({NONE})"
    names = [*cm.labels, none]
    if cm.normalized_by is None:
        cells = [[str(int(v)) for v in row] for row in cm.matrix.tolist()]
    else:
        cells = [[f"{v:.{digits}f}" for v in row] for row in cm.matrix.tolist()]
    return names, cells


def render_confusion_markdown(cm: ConfusionMatrix, *, digits: int = 2) -> str:
    r"""The matrix as a Markdown table: gold labels down, predictions across.

    Parameters
    ----------
    cm : ConfusionMatrix
        Raw or normalised.
    digits : int
        Decimals of normalised cells.

    Returns
    -------
    str
        A header row, an alignment row and one row per gold label plus
        ``none``; ``|`` in labels is escaped. No final newline.

    Examples
    --------
    >>> cm = ConfusionMatrix(("LOC", "PER"), [[1, 0, 1], [1, 2, 0], [0, 1, 0]])
    >>> print(render_confusion_markdown(cm))
    | gold \ pred | LOC | PER | none |
    |---|---:|---:|---:|
    | **LOC** | 1 | 0 | 1 |
    | **PER** | 1 | 2 | 0 |
    | **none** | 0 | 1 | 0 |
    """
    names, cells = _cell_texts(cm, digits)
    esc = [markdown_cell(n) for n in names]
    lines = ["| gold \\ pred | " + " | ".join(esc) + " |",
             "|---|" + "---:|" * len(names)]
    lines += [f"| **{name}** | " + " | ".join(row) + " |"
              for name, row in zip(esc, cells, strict=True)]
    return "\n".join(lines)


def confusion_section(out: str, cm: ConfusionMatrix, *, markdown: bool = False,
                      digits: int = 2) -> str:
    """``out`` followed by the matrix under its title, as ``nerscore score --confusion`` prints it.

    Parameters
    ----------
    out : str
        What comes before (a rendered report).
    cm : ConfusionMatrix
    markdown : bool
        A Markdown table under a bold title, else a text table.
    digits : int
        Decimals of a normalised matrix.

    Returns
    -------
    str
    """
    if markdown:
        table = render_confusion_markdown(cm, digits=digits)
        return (f"{out.rstrip()}\n\n**Confusion matrix** (rows: gold, columns: predicted)\n\n"
                f"{table}\n")
    sep = "\n" if out.endswith("\n") else "\n\n"
    table = render_confusion(cm, digits=digits)
    return f"{out}{sep}confusion matrix (rows: gold, columns: predicted)\n{table}\n"
