"""Text and Markdown of :class:`~nerscore.analysis.runs.Runs`: scores over several runs of one system.

Both are the ``"runs"`` kind of the ``text`` and ``markdown`` renderers
(:mod:`nerscore.render.registry`); the ``json`` renderer writes
:meth:`Runs.to_dict`. ``nerscore score GOLD RUN1 RUN2 ... --runs --format
text|json|markdown`` and ``nerscore.render_result(runs, format=...)`` go
through the registry.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from nerscore.render.table import column_width, markdown_cell

if TYPE_CHECKING:
    from nerscore.analysis.runs import Runs, RunStat

__all__ = ["render_runs_markdown", "render_runs_text"]

#: Unstable gold entities listed by the text output (all of them are in the JSON).
SHOWN = 20


def _cell(s: RunStat, digits: int) -> str:
    if s.n == 0:
        return "-"
    if s.n == 1:
        return f"{s.mean:.{digits}f}"
    return f"{s.mean:.{digits}f} ± {s.sd:.{digits}f}"


def _ci(s: RunStat, digits: int) -> str:
    if s.n < 2:
        return "-"
    return f"[{s.low:.{digits}f}, {s.high:.{digits}f}]"


def _header(runs: Runs, gold: str | None, match: str | None) -> tuple[int, str, str]:
    n = len(runs.reports)
    level = f"{runs.level * 100:g}%"
    match = match if match is not None else (runs.reports[0].match if runs.reports else "exact")
    gold = gold if gold is not None else runs.source
    return n, level, (f"{n} run{'s' if n != 1 else ''} against {gold} -- match={match}; mean ± "
                      f"SD over runs, SE = SD/√n, {level} t interval of the mean")


def _rows(runs: Runs, digits: int) -> list[list[str] | None]:
    """One row per label, None for the gap, then the micro row."""
    rows: list[list[str] | None] = []
    for item in [*runs.per_label.items(), None, ("micro avg", runs.overall)]:
        if item is None:
            rows.append(None)
            continue
        name, stats = item
        f = stats["fbeta"]
        rows.append([name, _cell(stats["precision"], digits), _cell(stats["recall"], digits),
                     _cell(f, digits), "-" if f.n < 2 else f"{f.se:.{digits}f}", _ci(f, digits),
                     str(f.n)])
    return rows


def _stability(runs: Runs, n: int, markdown: bool) -> list[str]:
    stab = runs.stability()
    unstable = runs.unstable()
    out = [f"gold entities found by every run: {stab.get(n, 0)}, by none: {stab.get(0, 0)}"
           f", by some runs only: {len(unstable)}"]
    lead = "- " if markdown else "  "
    if markdown and unstable:
        out.append("")
    for doc, start, end, label, k in unstable[:SHOWN]:
        out.append(f"{lead}{doc} [{start}, {end}) {label}: found by {k} of {n} runs")
    if len(unstable) > SHOWN:
        out.append(f"{lead}... {len(unstable) - SHOWN} more (all of them in --format json)")
    return out


def render_runs_text(runs: Runs, digits: int = 2, *, gold: str | None = None,
                     match: str | None = None) -> str:
    """The summary as a text table: mean ± SD per score, the F-beta SE and interval, stability.

    ``gold`` (default: ``runs.source``) and ``match`` (default: the
    runs' matcher) name them in the first line.

    Examples
    --------
    >>> from nerscore.analysis.runs import score_runs
    >>> summary = score_runs([["B-X", "O"]], [[["B-X", "O"]], [["O", "B-X"]]], zero_division=0)
    >>> print(render_runs_text(summary))
    2 runs against gold -- match=exact; mean ± SD over runs, SE = SD/√n, 95% t interval of the mean
    <BLANKLINE>
                 precision       recall     f1-score  f1 SE      f1 95% CI  runs
    <BLANKLINE>
            X  0.50 ± 0.71  0.50 ± 0.71  0.50 ± 0.71   0.50  [-5.85, 6.85]     2
    <BLANKLINE>
    micro avg  0.50 ± 0.71  0.50 ± 0.71  0.50 ± 0.71   0.50  [-5.85, 6.85]     2
    <BLANKLINE>
    runs: run1, run2
    gold entities found by every run: 0, by none: 0, by some runs only: 1
      0 [0, 1) X: found by 1 of 2 runs
    """
    n, level, title = _header(runs, gold, match)
    head = ["", "precision", "recall", "f1-score", "f1 SE", f"f1 {level} CI", "runs"]
    rows = _rows(runs, digits)
    widths = [column_width(r[i] for r in [head, *(r for r in rows if r)])
              for i in range(len(head))]
    widths[0] = max(widths[0], 9)

    def line(cells: list[str]) -> str:
        return "  ".join(c.rjust(w) for c, w in zip(cells, widths, strict=True)).rstrip()

    out = [title, "", line(head), ""]
    out += ["" if r is None else line(r) for r in rows]
    out += ["", "runs: " + ", ".join(runs.names)]
    return "\n".join(out + _stability(runs, n, markdown=False))


def render_runs_markdown(runs: Runs, digits: int = 2, *, gold: str | None = None,
                         match: str | None = None) -> str:
    """The summary as a Markdown table, with the runs and the stability below it.

    Examples
    --------
    >>> from nerscore.analysis.runs import score_runs
    >>> summary = score_runs([["B-X", "O"]], [[["B-X", "O"]], [["O", "B-X"]]], zero_division=0)
    >>> print(render_runs_markdown(summary))
    2 runs against gold -- match=exact; mean ± SD over runs, SE = SD/√n, 95% t interval of the mean
    <BLANKLINE>
    | label | precision | recall | f1-score | f1 SE | f1 95% CI | runs |
    |---|---:|---:|---:|---:|---:|---:|
    | X | 0.50 ± 0.71 | 0.50 ± 0.71 | 0.50 ± 0.71 | 0.50 | [-5.85, 6.85] | 2 |
    | micro avg | 0.50 ± 0.71 | 0.50 ± 0.71 | 0.50 ± 0.71 | 0.50 | [-5.85, 6.85] | 2 |
    <BLANKLINE>
    runs: run1, run2
    <BLANKLINE>
    gold entities found by every run: 0, by none: 0, by some runs only: 1
    <BLANKLINE>
    - 0 [0, 1) X: found by 1 of 2 runs
    """
    n, level, title = _header(runs, gold, match)
    out = [title, "", f"| label | precision | recall | f1-score | f1 SE | f1 {level} CI | runs |",
           "|---|---:|---:|---:|---:|---:|---:|"]
    for r in _rows(runs, digits):
        if r is not None:
            out.append("| " + " | ".join([markdown_cell(r[0]), *r[1:]]) + " |")
    out += ["", "runs: " + ", ".join(markdown_cell(x) for x in runs.names), ""]
    return "\n".join(out + _stability(runs, n, markdown=True))
