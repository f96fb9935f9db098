"""seqeval 1.2.2's classification report, as text or as a dict, from a report's counts.

The layout is seqeval's (and scikit-learn's): a header, one row per label
(sorted), a blank line, the micro, macro and weighted averages, and a final
blank line; the label column is ``max(longest label, 12, digits)`` wide and
every number column 9. The numbers come from
:func:`nerscore.decode.seqeval_rules.prf_support`, seqeval's own arithmetic, so
they are bit-identical to seqeval's. Rendering never counts: it only reads
counts (from :func:`nerscore.count_matches`, the seqeval compatibility
functions, or summed batches).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from nerscore.decode.seqeval_rules import prf_support
from nerscore.errors import option_error
from nerscore.render.registry import Renderer, ScoreOutput, register_renderer
from nerscore.scoring.report import Report
from nerscore.values.counts import Counts
from nerscore.values.ratios import check_zero_division

__all__ = [
    "SEQEVAL",
    "check_digits", "format_seqeval", "render_seqeval", "seqeval_report_dict", "seqeval_rows",
]

Row = tuple[str, float, float, float, int]

_HEADERS = ("precision", "recall", "f1-score", "support")
_AVERAGES = ("micro", "macro", "weighted")


def check_digits(digits: object) -> int:
    """Validate the ``digits`` of a seqeval report."""
    if isinstance(digits, bool) or not isinstance(digits, (int, np.integer)) or digits < 0:
        raise option_error("digits", "a non-negative integer", digits)
    return int(digits)


def seqeval_rows(
    counts: Counts, *, zero_division: Any = "warn"
) -> tuple[list[Row], list[Row]]:
    """The label rows and the three average rows of seqeval's report.

    Labels are those with a gold or predicted entity, sorted. Warnings are
    issued as seqeval issues them: once for the per-label scores and once
    for each average.

    Parameters
    ----------
    counts : Counts
        Per-label counts.
    zero_division : "warn", 0, 1 or nan
        Value of undefined ratios (``"warn"``: 0.0 and an
        :class:`~nerscore.UndefinedMetricWarning`).

    Returns
    -------
    (label_rows, average_rows) : tuple of lists
        Rows ``(name, precision, recall, f1, support)`` with plain Python
        numbers; the averages are named ``"micro avg"``, ``"macro avg"`` and
        ``"weighted avg"``.

    Examples
    --------
    >>> c = Counts.from_dict({"MISC": (0, 1, 1), "PER": (1, 1, 1)})
    >>> labels, averages = seqeval_rows(c)
    >>> labels
    [('MISC', 0.0, 0.0, 0.0, 1), ('PER', 1.0, 1.0, 1.0, 1)]
    >>> averages[0]
    ('micro avg', 0.5, 0.5, 0.5, 2)
    """
    zd = check_zero_division(zero_division)
    present = counts.present()
    sel = present.select(sorted(present.labels))
    tp, n_pred, n_gold = sel.tp, sel.n_pred, sel.n_gold
    p, r, f, s = prf_support(tp, n_pred, n_gold, average=None, zero_division=zd)
    label_rows = [
        (name, float(p[i]), float(r[i]), float(f[i]), int(s[i]))
        for i, name in enumerate(sel.labels)
    ]
    average_rows: list[Row] = []
    for average in _AVERAGES:
        ap, ar, af, asup = prf_support(tp, n_pred, n_gold, average=average, zero_division=zd)
        average_rows.append((f"{average} avg", float(ap), float(ar), float(af), int(asup)))
    return label_rows, average_rows


def render_seqeval(report: Report, *, digits: int = 2) -> str:
    """Render a report as seqeval 1.2.2's ``classification_report`` text.

    The numbers come from the report's counts with seqeval's own arithmetic
    (bit-identical to seqeval), honouring the report's ``zero_division``; see
    :func:`format_seqeval`.

    Examples
    --------
    >>> import nerscore
    >>> r = nerscore.evaluate([["B-PER", "O"]], [["B-PER", "O"]])
    >>> print(render_seqeval(r, digits=3).splitlines()[2])
             PER      1.000     1.000     1.000         1
    """
    return format_seqeval(report.counts, digits=digits, zero_division=report.zero_division)


def format_seqeval(counts: Counts, *, digits: int = 2, zero_division: Any = "warn") -> str:
    """Format counts as seqeval 1.2.2's ``classification_report`` text.

    Parameters
    ----------
    counts : Counts
        Per-label counts.
    digits : int
        Decimals of the scores (also a lower bound on the label column width).
    zero_division : "warn", 0, 1 or nan
        Value of undefined ratios.

    Returns
    -------
    str
        The report, ending with a newline as seqeval's does. Without any
        entity (where seqeval fails) the label rows are absent and the macro
        row shows ``nan``, the value of seqeval's report dict.

    Raises
    ------
    ValueError
        For a negative or non-integer ``digits`` or an unknown
        ``zero_division``.

    Examples
    --------
    >>> c = Counts.from_dict({"MISC": (0, 1, 1), "PER": (1, 1, 1)})
    >>> print(format_seqeval(c))
                  precision    recall  f1-score   support
    <BLANKLINE>
            MISC       0.00      0.00      0.00         1
             PER       1.00      1.00      1.00         1
    <BLANKLINE>
       micro avg       0.50      0.50      0.50         2
       macro avg       0.50      0.50      0.50         2
    weighted avg       0.50      0.50      0.50         2
    <BLANKLINE>
    """
    digits = check_digits(digits)
    label_rows, average_rows = seqeval_rows(counts, zero_division=zero_division)
    name_width = max((len(row[0]) for row in label_rows), default=0)
    width = max(name_width, len("weighted avg"), digits)

    def line(row: Row) -> str:
        name, p, r, f, support = row
        scores = "".join(f" {v:>9.{digits}f}" for v in (p, r, f))
        return f"{name:>{width}s} {scores} {support:>9}"

    header = f"{'':>{width}s} " + "".join(f" {h:>9}" for h in _HEADERS)
    body = [line(row) for row in label_rows] + [""]
    body += [line(row) for row in average_rows] + [""]
    return header + "\n\n" + "\n".join(body)


def seqeval_report_dict(
    counts: Counts, *, zero_division: Any = "warn"
) -> dict[str, dict[str, float | int]]:
    """Counts as seqeval 1.2.2's ``classification_report(..., output_dict=True)``.

    Parameters
    ----------
    counts : Counts
        Per-label counts.
    zero_division : "warn", 0, 1 or nan
        Value of undefined ratios.

    Returns
    -------
    dict
        ``{label or "micro avg"/"macro avg"/"weighted avg": {"precision",
        "recall", "f1-score", "support"}}`` with plain Python numbers.

    Examples
    --------
    >>> c = Counts.from_dict({"PER": (1, 2, 1)})
    >>> seqeval_report_dict(c)["PER"]
    {'precision': 0.5, 'recall': 1.0, 'f1-score': 0.6666666666666666, 'support': 1}

    Without any entity the macro average is ``nan`` (with an
    :class:`~nerscore.UndefinedMetricWarning`), as seqeval returns it.
    """
    label_rows, average_rows = seqeval_rows(counts, zero_division=zero_division)
    return {
        name: {"precision": p, "recall": r, "f1-score": f, "support": s}
        for name, p, r, f, s in label_rows + average_rows
    }


def _scores(output: ScoreOutput, digits: int) -> str:
    out = render_seqeval(output.report, digits=digits)
    if output.confusion is not None:
        from nerscore.render.confusion import confusion_section

        out = confusion_section(out, output.confusion, digits=digits)
    return out


SEQEVAL = register_renderer(Renderer("seqeval", "seqeval's classification report",
                                     {"scores": _scores}, frozenset({"confusion"})))
