"""Text and Markdown renderings of a :class:`~nerscore.analysis.significance.Comparison`.

P-values are shown with at least three decimals (:func:`format_p_value`):
a resampled p-value is ``(1 + k) / (1 + R)``, never 0; at its floor
``1 / (1 + R)`` (no resample as extreme as the data) it is shown as
``< 1/(1+R)`` rounded up to the decimals shown, and any other value below
the last decimal as ``< 0.001``.
"""

from __future__ import annotations

import math

from nerscore.analysis.significance.results import Comparison, Estimate, RunSpread
from nerscore.errors import option_error
from nerscore.render.sections import titled_section
from nerscore.render.table import table_lines

__all__ = ["format_p_value", "intervals_section", "render_comparison"]

_NAMES = {"precision": "P", "recall": "R", "f1": "F1"}


def _num(x: float | None, digits: int) -> str:
    if x is None or math.isnan(x):
        return "nan"
    return f"{x:.{digits}f}"


def _est(e: Estimate, digits: int) -> str:
    return f"{_num(e.value, digits)} [{_num(e.low, digits)}, {_num(e.high, digits)}]"


def _signed(e: Estimate, digits: int) -> str:
    def s(x: float) -> str:
        return "nan" if math.isnan(x) else f"{x:+.{digits}f}"

    return f"{s(e.value)} [{s(e.low)}, {s(e.high)}]"


def format_p_value(p: float | None, n_resamples: int, *, digits: int = 3) -> str:
    """A resampled p-value as shown: ``"0.042"``, ``"< 0.001"`` at the floor, ``"-"`` for None.

    Parameters
    ----------
    p : float or None
        ``(1 + k) / (1 + R)``, or None for a test that was not run.
    n_resamples : int
        ``R``.
    digits : int
        Decimals shown (at least 3).

    Returns
    -------
    str
        At the floor ``1 / (1 + R)`` (``k = 0``: the test cannot tell smaller
        p-values apart), ``"< "`` and the floor rounded up to ``digits``
        decimals; a value below ``10**-digits``, ``"< 0.001"`` (for 3
        decimals); otherwise the value rounded.

    Examples
    --------
    >>> format_p_value(1 / 1000, 999), format_p_value(1 / 1001, 1000)
    ('< 0.001', '< 0.001')
    >>> format_p_value(1 / 201, 200), format_p_value(2 / 201, 200)
    ('< 0.005', '0.010')
    >>> format_p_value(10 / 10001, 10000), format_p_value(11 / 10001, 10000)
    ('< 0.001', '0.001')
    >>> format_p_value(1.0, 10), format_p_value(None, 10)
    ('1.000', '-')
    """
    if p is None:
        return "-"
    digits = max(digits, 3)
    if math.isnan(p):
        return "nan"
    scale = 10.0 ** digits
    floor = 1.0 / (1 + n_resamples)
    if abs(p - floor) <= 1e-12:
        return f"< {math.ceil(floor * scale - 1e-9) / scale:.{digits}f}"
    if p < 1 / scale:  # below the last decimal shown
        return f"< {1 / scale:.{digits}f}"
    return f"{p:.{digits}f}"


def _runs_table(r: Comparison, digits: int, md: bool) -> list[str]:
    """Each system's runs: how many, and mean ± SD over runs of each score."""
    cols = [("precision", "micro"), ("recall", "micro"), ("f1", "micro"), ("f1", "macro")]
    header = ["system", "runs", *(f"{a} {_NAMES[m]} mean ± SD" for m, a in cols)]
    rows = [[s.name, str(s.runs.n_runs), *(_mean_sd(s.runs, m, a, digits) for m, a in cols)]
            for s in r.systems if s.runs is not None]
    return table_lines(header, rows, markdown=md)


def _mean_sd(spread: RunSpread, metric: str, average: str, digits: int) -> str:
    """``"mean ± SD"``; ``"mean ± -"`` for one run (no SD)."""
    sd = "-" if spread.n_runs == 1 else _num(spread.sd(metric, average), digits)
    return f"{_num(spread.mean(metric, average), digits)} ± {sd}"


def render_comparison(
    result: Comparison, *, format: str = "text", digits: int = 4,  # noqa: A002 - the public name
) -> str:
    """The scores with intervals, then the pairwise tests, as text or Markdown.

    Parameters
    ----------
    result : Comparison
        From :func:`nerscore.compare` or :func:`nerscore.confidence_intervals`.
    format : {"text", "markdown"}
        Plain aligned columns, or Markdown tables.
    digits : int
        Decimals of scores (p-values get at least 3).

    Returns
    -------
    str

    Examples
    --------
    >>> import nerscore
    >>> gold = [["B-PER", "O"], ["B-LOC", "O"]] * 5
    >>> pred = [["B-PER", "O"], ["O", "O"]] * 5
    >>> res = nerscore.compare(gold, {"A": gold, "B": pred}, n_resamples=50, unit="sentence")
    >>> for line in render_comparison(res, digits=2).splitlines()[2:4]:
    ...     print(line)
    system            micro P            micro R           micro F1           macro F1
    A       1.00 [1.00, 1.00]  1.00 [1.00, 1.00]  1.00 [1.00, 1.00]  1.00 [1.00, 1.00]
    """
    if format not in ("text", "markdown"):
        raise option_error("format", "one of 'text', 'markdown'", format)
    if isinstance(digits, bool) or not isinstance(digits, int) or digits < 0:
        raise option_error("digits", "a whole number >= 0", digits)
    md = format == "markdown"
    r = result
    pct = f"{r.level * 100:g}%"
    seed = "no seed" if r.seed is None else f"seed {r.seed}"
    runs = any(s.runs is not None for s in r.systems)
    what = f"{r.n_units} {r.unit}{'' if r.n_units == 1 else 's'}" + (" and the runs of each system" if runs else "")
    head = (f"{r.match} matching, {what} resampled{' together' if runs else ''}; {pct} "
            f"percentile bootstrap intervals ({r.n_resamples} "
            f"resample{'' if r.n_resamples == 1 else 's'}, {seed})")
    lines = [f"**{head}**" if md else head, ""]
    header = ["system", "micro P", "micro R", "micro F1", "macro F1"]
    if runs:
        header = ["system", *(f"mean {h}" for h in header[1:])]
    rows = [[s.name, _est(s.micro.precision, digits), _est(s.micro.recall, digits),
             _est(s.micro.f1, digits), _est(s.macro.f1, digits)] for s in r.systems]
    lines += table_lines(header, rows, markdown=md)
    if runs:
        lines += ["", *_runs_table(r, digits, md)]
    if r.pairs:
        score = f"{r.average} {_NAMES[r.metric]}"

        def p(x: float | None) -> str:
            return format_p_value(x, r.n_resamples, digits=digits)

        header = ["a vs b", f"Δ {score} [{pct} CI]", "p (paired bootstrap)",
                  "p (randomization)"]
        rows = [[f"{x.a} vs {x.b}", _signed(x.difference, digits), p(x.p_bootstrap),
                 p(x.p_randomization)] for x in r.pairs]
        for test, name in (("p_bootstrap_holm", "Holm p (bootstrap)"),
                           ("p_randomization_holm", "Holm p (randomization)")):
            if any(getattr(x, test) is not None for x in r.pairs):
                header.append(name)
                for row, x in zip(rows, r.pairs, strict=True):
                    row.append(p(getattr(x, test)))
        lines += ["", *table_lines(header, rows, markdown=md)]
    for n in r.notes:
        lines += ["", f"note: {n}"]
    return "\n".join(lines) + "\n"


def intervals_section(out: str, result: Comparison, *, markdown: bool = False,
                      digits: int = 2) -> str:
    """``out`` followed by confidence intervals under their title (``nerscore score --ci``).

    Parameters
    ----------
    out : str
        What comes before (a rendered report).
    result : Comparison
        From :func:`nerscore.confidence_intervals`.
    markdown : bool
        Markdown (a ``##`` title and a table), else text.
    digits : int
        Decimals of the scores.

    Returns
    -------
    str
    """
    title = "## Confidence intervals" if markdown else "confidence intervals"
    table = render_comparison(result, format="markdown" if markdown else "text", digits=digits)
    return titled_section(out, title, table)
