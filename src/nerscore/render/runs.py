"""Text and JSON of :class:`~nerscore.analysis.runs.Runs`: scores over several runs of one system."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from nerscore.analysis.runs import Runs, RunStat

__all__ = ["render_runs_json", "render_runs_text"]

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


def render_runs_text(runs: Runs, digits: int = 2, *, gold: str = "gold", match: str = "exact") -> str:
    """The summary as a text table: mean ± SD per score, the F-beta SE and interval, stability.

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
    n = len(runs.reports)
    level = f"{runs.level * 100:g}%"
    head = ["", "precision", "recall", "f1-score", "f1 SE", f"f1 {level} CI", "runs"]
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
    widths = [max(len(r[i]) for r in [head, *(r for r in rows if r)]) for i in range(len(head))]
    widths[0] = max(widths[0], 9)

    def line(cells: list[str]) -> str:
        return "  ".join(c.rjust(w) for c, w in zip(cells, widths, strict=True)).rstrip()

    out = [f"{n} run{'s' if n != 1 else ''} against {gold} -- match={match}; mean ± SD over "
           f"runs, SE = SD/√n, {level} t interval of the mean", "", line(head), ""]
    out += ["" if r is None else line(r) for r in rows]
    out += ["", "runs: " + ", ".join(runs.names)]
    stab = runs.stability()
    unstable = runs.unstable()
    out.append(f"gold entities found by every run: {stab.get(n, 0)}, by none: {stab.get(0, 0)}"
               f", by some runs only: {len(unstable)}")
    for doc, start, end, label, k in unstable[:SHOWN]:
        out.append(f"  {doc} [{start}, {end}) {label}: found by {k} of {n} runs")
    if len(unstable) > SHOWN:
        out.append(f"  ... {len(unstable) - SHOWN} more (all of them in --format json)")
    return "\n".join(out)


def render_runs_json(runs: Runs, digits: int = 2) -> str:
    """The summary as JSON (:meth:`Runs.to_dict`); ``digits`` is not used (full precision)."""
    return json.dumps(runs.to_dict(), indent=2, ensure_ascii=False)
