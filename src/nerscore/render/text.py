"""Plain-text and Markdown tables of a :class:`Report` (no recomputation)."""

from __future__ import annotations

from typing import Any

from nerscore.render.registry import Renderer, ScoreOutput, register_renderer
from nerscore.render.table import column_width, markdown_cell
from nerscore.scoring.report import Report, Row
from nerscore.values.wording import counted

__all__ = [
    "MARKDOWN", "TEXT", "format_count", "render_markdown", "render_rich",
    "render_text", "report_header",
]

#: Decimals of a fractional count (partial credit).
COUNT_DIGITS = 4


def _fmt(x: float, digits: int) -> str:
    return "nan" if x != x else f"{x:.{digits}f}"


def format_count(x: float) -> str:
    """A count as shown in reports: whole numbers as integers, fractions with 4 decimals.

    Parameters
    ----------
    x : int or float
        A count (``tp``, ``fp``, ``fn``, ...); fractional under partial credit.

    Returns
    -------
    str

    Examples
    --------
    >>> format_count(3), format_count(2.0), format_count(1.6490384615384617), format_count(-0.25)
    ('3', '2', '1.6490', '-0.2500')
    """
    if isinstance(x, float):
        if x != x:
            return "nan"
        if not x.is_integer():
            return f"{x:.{COUNT_DIGITS}f}"
    return str(int(x))


def report_header(report: Report) -> str:
    """The one-line summary of a report: matcher, options, entity selection, scheme and mode."""
    bits = [f"match={report.match}"]
    bits += [f"{k}={v}" for k, v in report.options.items() if v is not None]
    entities = getattr(report, "entities", {})
    if entities.get("discontinuous", "fragments") != "fragments":
        bits.append(f"discontinuous={entities['discontinuous']}")
    if entities.get("subset") is not None:
        bits.append(f"subset={entities['subset']}")
    if report.scheme is not None or report.mode is not None:
        bits.append(f"scheme={report.scheme or 'auto'}")
        bits.append(f"mode={report.mode}")
    if report.beta != 1.0:
        bits.append(f"beta={report.beta:g}")
    return ", ".join(bits)


def _rows(report: Report) -> list[tuple[str, Row]]:
    return list(report.labels.items())


def _averages(report: Report) -> list[tuple[str, Row]]:
    return [("micro avg", report.micro), ("macro avg", report.macro),
            ("weighted avg", report.weighted)]


_COUNT_HEADS = ("tp", "fp", "fn")


def render_text(report: Report, *, digits: int = 2) -> str:
    """A fixed-width table: one row per label, then micro, macro and weighted averages.

    Parameters
    ----------
    report : Report
    digits : int
        Decimals shown.

    Returns
    -------
    str

    Examples
    --------
    >>> import nerscore
    >>> r = nerscore.evaluate([["B-PER", "I-PER", "O"]], [["B-PER", "I-PER", "O"]])
    >>> print(nerscore.render_text(r))  # doctest: +NORMALIZE_WHITESPACE
    nerscore 0.1.0 -- match=exact, labeled=True, scheme=auto, mode=lenient
    <BLANKLINE>
                   precision  recall  f1-score  support  predicted  tp  fp  fn
    <BLANKLINE>
              PER       1.00    1.00      1.00        1          1   1   0   0
    <BLANKLINE>
        micro avg       1.00    1.00      1.00        1          1   1   0   0
        macro avg       1.00    1.00      1.00        1          1   1   0   0
     weighted avg       1.00    1.00      1.00        1          1   1   0   0
    <BLANKLINE>
    accuracy: 1.00 (3 tokens, 1 sequence)
    """
    width = max(column_width(report.labels), len("weighted avg"))
    f_name = "f1-score" if report.beta == 1.0 else f"f{report.beta:g}-score"
    cols = ("precision", "recall", f_name, "support", "predicted")
    colw = max(len(c) for c in cols[:3])
    named = [*_rows(report), *_averages(report)]
    counts = [[format_count(c) for c in (row.tp, row.fp, row.fn)] for _, row in named]
    cw = [max([5, *(len(c[k]) for c in counts)]) for k in range(len(_COUNT_HEADS))]
    lines = [f"nerscore {report.version} -- {report_header(report)}", ""]
    head = f"{'':>{width}}  " + "  ".join(f"{c:>{colw if i < 3 else 9}}" for i, c in
                                          enumerate(cols))
    head += "".join(f"  {h:>{w}}" for h, w in zip(_COUNT_HEADS, cw, strict=True))
    lines += [head.rstrip(), ""]

    def line(k: int) -> str:
        name, row = named[k]
        vals = [_fmt(row.precision, digits), _fmt(row.recall, digits), _fmt(row.fbeta, digits)]
        sup = f"{row.n_gold:>9}  {row.n_pred:>9}"
        sup += "".join(f"  {v:>{w}}" for v, w in zip(counts[k], cw, strict=True))
        return f"{name:>{width}}  " + "  ".join(f"{v:>{colw}}" for v in vals) + "  " + sup

    n_labels = len(report.labels)
    lines += [line(k) for k in range(n_labels)]
    lines.append("")
    lines += [line(k) for k in range(n_labels, len(named))]
    if report.accuracy is not None or report.n_tokens is not None:
        lines += ["", f"accuracy: {_accuracy(report, digits)} "
                      f"({counted(report.n_tokens, 'token')}, "
                      f"{counted(report.n_sequences, 'sequence')})"]
    lines += _schema_lines(report, digits)
    if report.notes:
        lines += [""] + [f"note: {n}" for n in report.notes]
    return "\n".join(lines)


def _accuracy(report: Report, digits: int) -> str:
    """The token accuracy, or ``n/a`` when it is undefined (no tokens)."""
    return "n/a" if report.accuracy is None else _fmt(report.accuracy, digits)


_SCHEMA_COLS = ("correct", "incorrect", "partial", "missed", "spurious", "possible", "actual")


def _schema_lines(report: Report, digits: int) -> list[str]:
    """SemEval-2013 overall rows per schema, when the report has them."""
    schemas = report.extra.get("schemas")
    if not schemas:
        return []
    heads = [*_SCHEMA_COLS, "precision", "recall", "f1-score"]
    out = ["", "SemEval-2013 schemas (overall; per label in the JSON report):",
           f"{'':>8}  " + "  ".join(f"{h:>9}" for h in heads)]
    for name, table in schemas.items():
        row = table["overall"]
        vals = [str(row[c]) for c in _SCHEMA_COLS]
        vals += [_fmt(row[k], digits) for k in ("precision", "recall", "f1")]
        out.append(f"{name:>8}  " + "  ".join(f"{v:>9}" for v in vals))
    return out


def render_markdown(report: Report, *, digits: int = 2) -> str:
    """A Markdown table of the same rows as :func:`render_text`.

    Parameters
    ----------
    report : Report
    digits : int
        Decimals shown.

    Returns
    -------
    str

    Examples
    --------
    >>> import nerscore
    >>> r = nerscore.evaluate([["B-PER", "O"]], [["B-PER", "O"]])
    >>> print(nerscore.render_markdown(r).splitlines()[4])
    | PER | 1.00 | 1.00 | 1.00 | 1 | 1 | 1 | 0 | 0 |
    """
    f_name = "F1" if report.beta == 1.0 else f"F{report.beta:g}"
    out = [f"**nerscore {report.version}** — {report_header(report)}", "",
           f"| label | precision | recall | {f_name} | support | predicted | TP | FP | FN |",
           "|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    rows = [*_rows(report), *((f"**{n}**", r) for n, r in _averages(report))]
    for name, row in rows:
        label = markdown_cell(name)
        out.append(
            f"| {label} | {_fmt(row.precision, digits)} | {_fmt(row.recall, digits)} | "
            f"{_fmt(row.fbeta, digits)} | {row.n_gold} | {row.n_pred} | "
            f"{format_count(row.tp)} | {format_count(row.fp)} | {format_count(row.fn)} |"
        )
    if report.accuracy is not None or report.n_tokens is not None:
        out += ["", f"Accuracy: {_accuracy(report, digits)}"]
    return "\n".join(out)


def render_rich(report: Report) -> Any:
    """A ``rich.table.Table`` (rich is imported only when this is called)."""
    from nerscore.errors import require

    table_mod = require("rich.table", extra="rich")
    table = table_mod.Table(title=f"nerscore — {report_header(report)}")
    for c in ("label", "precision", "recall", "F", "support", "predicted", "TP", "FP", "FN"):
        table.add_column(c, justify="left" if c == "label" else "right")
    for name, row in [*_rows(report), *_averages(report)]:
        table.add_row(name, _fmt(row.precision, 2), _fmt(row.recall, 2), _fmt(row.fbeta, 2),
                      str(row.n_gold), str(row.n_pred), format_count(row.tp),
                      format_count(row.fp), format_count(row.fn))
    return table


def _scores(output: ScoreOutput, digits: int, markdown: bool) -> str:
    """The report, then each extra under its title (the sections are imported only when present)."""
    out = (render_markdown if markdown else render_text)(output.report, digits=digits)
    if output.confusion is not None:
        from nerscore.render.confusion import confusion_section

        out = confusion_section(out, output.confusion, markdown=markdown, digits=digits)
    if output.breakdown is not None:
        from nerscore.render.breakdown import breakdown_section

        out = breakdown_section(out, output.breakdown, markdown=markdown, digits=digits)
    if output.intervals is not None:
        from nerscore.render.significance import intervals_section

        out = intervals_section(out, output.intervals, markdown=markdown, digits=digits)
    return out


def _comparison(result: Any, digits: int, markdown: bool) -> str:
    from nerscore.render.significance import render_comparison

    return render_comparison(result, format="markdown" if markdown else "text", digits=digits)


def _diagnostics(result: Any, digits: int, markdown: bool) -> str:
    from nerscore.render.diagnostics import render_diagnostics

    return render_diagnostics(result, format="markdown" if markdown else "text", digits=digits)


def _agreement(result: Any, digits: int, markdown: bool) -> str:
    from nerscore.render.agreement import render_agreement

    return render_agreement(result, format="markdown" if markdown else "text", digits=digits)


def _runs(result: Any, digits: int, markdown: bool) -> str:
    from nerscore.render.runs import render_runs_markdown, render_runs_text

    return (render_runs_markdown if markdown else render_runs_text)(result, digits)


def _functions(markdown: bool) -> dict[str, Any]:
    return {"scores": lambda o, d: _scores(o, d, markdown),
            "comparison": lambda r, d: _comparison(r, d, markdown),
            "diagnostics": lambda r, d: _diagnostics(r, d, markdown),
            "agreement": lambda r, d: _agreement(r, d, markdown),
            "runs": lambda r, d: _runs(r, d, markdown)}


_ALL_EXTRAS = frozenset({"confusion", "breakdown", "intervals"})

TEXT = register_renderer(Renderer("text", "aligned plain-text tables", _functions(False),
                                  _ALL_EXTRAS, shows_notes=True))
MARKDOWN = register_renderer(Renderer("markdown", "Markdown tables", _functions(True),
                                      _ALL_EXTRAS))
