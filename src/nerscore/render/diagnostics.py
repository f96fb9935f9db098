"""Dataset diagnostics as plain text or Markdown."""

from __future__ import annotations

import math

from nerscore.analysis.diagnostics import SEVERITIES, Diagnostics
from nerscore.analysis.findings import pct
from nerscore.errors import option_error
from nerscore.render.breakdown import render_breakdown
from nerscore.render.table import markdown_cell, table_lines

__all__ = ["render_diagnostics"]


def _summary(d: Diagnostics) -> list[str]:
    counts = ", ".join(f"{d.count(s)} {s}{'s' if d.count(s) != 1 and s != 'info' else ''}"
                       for s in SEVERITIES)
    n_tr, n_te = sum(d.train_counts.values()), sum(d.test_counts.values())
    lines = [f"dataset diagnostics: {counts}",
             f"train: {n_tr} entities in {d.n_train_sequences} sequences; test: {n_te} entities "
             f"in {d.n_test_sequences} sequences; label shift (total variation): "
             + ("n/a" if math.isnan(d.total_variation) else f"{d.total_variation:.3f}")]
    if d.seen is not None:
        share = d.seen["share"]
        lines.append(f"seen in training: {d.seen['n_seen']} of {d.seen['n_test']} test entities"
                     + ("" if math.isnan(share) else f" ({pct(share)})"))
    return lines


def _label_rows(d: Diagnostics) -> tuple[list[str], list[list[str]]]:
    n_tr, n_te = sum(d.train_counts.values()), sum(d.test_counts.values())
    head = ["label", "train", "train %", "test", "test %"] + (
        ["pred"] if d.pred_counts is not None else [])
    rows = []
    for lab in d.labels:
        a, b = d.train_counts[lab], d.test_counts[lab]
        row = [lab, str(a), pct(a / n_tr) if n_tr else "-", str(b), pct(b / n_te) if n_te
               else "-"]
        if d.pred_counts is not None:
            row.append(str(d.pred_counts[lab]))
        rows.append(row)
    return head, rows


def render_diagnostics(result: Diagnostics, *, format: str = "text", digits: int = 2) -> str:  # noqa: A002
    """Diagnostics as plain text or Markdown: summary, label counts, findings, checks not run.

    Parameters
    ----------
    result : Diagnostics
        From :func:`diagnose`.
    format : {"text", "markdown"}
        Plain text, or Markdown with tables.
    digits : int
        Decimals of the scores of seen and unseen entities.

    Returns
    -------
    str
        No trailing spaces, no final newline.

    Examples
    --------
    >>> from nerscore import diagnose
    >>> d = diagnose([["B-PER", "O"]] * 15 + [["B-LOC"]] * 15, [["B-PER", "O"], ["B-LOC"]])
    >>> print(render_diagnostics(d))
    dataset diagnostics: 0 errors, 0 warnings, 0 info
    train: 30 entities in 30 sequences; test: 2 entities in 2 sequences; label shift (total variation): 0.000
    <BLANKLINE>
    label  train  train %  test  test %
    LOC       15    50.0%     1   50.0%
    PER       15    50.0%     1   50.0%
    <BLANKLINE>
    no findings
    <BLANKLINE>
    not checked: confused_labels (no prediction given); invalid_transitions (no scheme given); seen_overlap (surface forms unknown: no texts or tokens); unseen_gap (no prediction given)
    """
    if format not in ("text", "markdown"):
        raise option_error("format", "'text' or 'markdown'", format)
    head, rows = _label_rows(result)
    skipped = "; ".join(f"{k} ({v})" for k, v in result.skipped.items())
    if format == "text":
        out = [*_summary(result), ""]
        out += table_lines(head, rows) if rows else ["no entities"]
        out.append("")
        if not result.findings:
            out.append("no findings")
        for f in result.findings:
            labels = f" ({', '.join(f.labels)})" if f.labels else ""
            out.append(f"[{f.severity}] {f.kind}{labels}: {f.message}")
            out.append(f"    advice: {f.advice}")
        if result.seen_scores is not None:
            out += ["", render_breakdown(result.seen_scores, digits=digits)]
        if skipped:
            out += ["", f"not checked: {skipped}"]
        out += [f"note: {n}" for n in result.notes]
        return "\n".join(line.rstrip() for line in out)
    summary = _summary(result)
    out = ["## Dataset diagnostics", "", summary[0][len("dataset diagnostics: "):].capitalize()
           + ".", "", *(f"- {s}" for s in summary[1:]), ""]
    if rows:
        out += [*table_lines(head, rows, markdown=True), ""]
    out += ["### Findings", ""]
    if result.findings:
        out += ["| severity | kind | labels | finding | advice |", "|---|---|---|---|---|"]
        out += [f"| {f.severity} | {f.kind} | {markdown_cell(', '.join(f.labels))} | "
                f"{markdown_cell(f.message)} | {markdown_cell(f.advice)} |" for f in result.findings]
    else:
        out.append("No findings.")
    if result.seen_scores is not None:
        out += ["", "### Seen and unseen entities", "",
                render_breakdown(result.seen_scores, format="markdown", digits=digits)]
    if skipped:
        out += ["", f"Not checked: {markdown_cell(skipped)}."]
    if result.notes:
        out += ["", *(f"- Note: {markdown_cell(n)}" for n in result.notes)]
    return "\n".join(line.rstrip() for line in out)
