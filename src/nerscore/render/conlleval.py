"""The conlleval script's report, to the byte (``docs/differences.md``).

:func:`format_conlleval` prints a :class:`~nerscore.Counts` the way the Perl
``conlleval`` script (version 2004-01-26) prints its counts: the same
``printf`` formats (C rounding, so 3.125 is ``3.12``), one line per type
sorted by byte value, the *predicted* count at the end of each line, and
the empty type printed twice when gold and prediction both have untyped
chunks. Widths are counted in bytes of UTF-8, as the script counts them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from nerscore.values.counts import Counts

if TYPE_CHECKING:
    from nerscore.scoring.report import Report

from nerscore.render.registry import Renderer, ScoreOutput, register_renderer

__all__ = ["CONLLEVAL", "format_conlleval", "render_conlleval"]

_ENC = ("utf-8", "surrogateescape")


def _ratio(num: int, den: int) -> float:
    return 100 * num / den if den > 0 else 0.0


def _fb1(precision: float, recall: float) -> float:
    return 2 * precision * recall / (precision + recall) if precision + recall > 0 else 0.0


def _pad(label: str, width: int, *, left: bool) -> str:
    fill = " " * max(0, width - len(label.encode(*_ENC)))
    return label + fill if left else fill + label


def _printed_types(counts: Counts) -> list[int]:
    """Label indices in the script's order: by bytes; ``""`` once per side that has it."""
    found = [i for i in range(len(counts.labels))
             if counts.n_gold[i] > 0 or counts.n_pred[i] > 0]
    found.sort(key=lambda i: counts.labels[i].encode(*_ENC))
    out: list[int] = []
    for i in found:
        out.append(i)
        if counts.labels[i] == "" and counts.n_gold[i] > 0 and counts.n_pred[i] > 0:
            out.append(i)
    return out


def render_conlleval(report: Report, *, latex: bool = False) -> str:
    """Render a report (of tag inputs) as the conlleval script's report; see :func:`format_conlleval`.

    Examples
    --------
    >>> import nerscore
    >>> r = nerscore.evaluate([["B-PER", "O"]], [["B-PER", "O"]], mode="conlleval")
    >>> print(render_conlleval(r).splitlines()[0])
    processed 2 tokens with 1 phrases; found: 1 phrases; correct: 1.
    """
    return format_conlleval(report.counts, latex=latex)


def format_conlleval(counts: Counts, *, latex: bool = False) -> str:
    r"""Format counts as the conlleval script's report.

    Parameters
    ----------
    counts : Counts
        Per-label correct chunks (``exact``), found guessed (``n_pred``) and
        found correct (``n_gold``), with ``tokens`` and ``tokens_correct``.
        Labels with no found chunk on either side get no line but count in
        the overall numbers, as in the script.
    latex : bool
        The script's ``-l`` table instead of the text report.

    Returns
    -------
    str
        The report, ending with a newline.

    Examples
    --------
    >>> from nerscore import Counts
    >>> c = Counts.from_dict({"X": (1, 32, 1)})
    >>> c = Counts(c.labels, c.exact, c.n_pred, c.n_gold, tokens=32, tokens_correct=1)
    >>> print(format_conlleval(c), end="")
    processed 32 tokens with 1 phrases; found: 32 phrases; correct: 1.
    accuracy:   3.12%; precision:   3.12%; recall: 100.00%; FB1:   6.06
                    X: precision:   3.12%; recall: 100.00%; FB1:   6.06  32
    >>> print(format_conlleval(c, latex=True), end="")
            & Precision &  Recall  & F$_{\beta=1} \\\hline
    X       &    3.12\% & 100.00\% &   6.06 \\\hline
    Overall &    3.12\% & 100.00\% &   6.06 \\\hline
    """
    correct = int(counts.exact.sum())
    found_pred = int(counts.n_pred.sum())
    found_gold = int(counts.n_gold.sum())
    precision = _ratio(correct, found_pred)
    recall = _ratio(correct, found_gold)
    fb1 = _fb1(precision, recall)
    rows = []
    for i in _printed_types(counts):
        p = _ratio(int(counts.exact[i]), int(counts.n_pred[i]))
        r = _ratio(int(counts.exact[i]), int(counts.n_gold[i]))
        rows.append((counts.labels[i], p, r, _fb1(p, r), int(counts.n_pred[i])))
    if latex:
        out = ["        & Precision &  Recall  & F$_{\\beta=1} \\\\\\hline"]
        out.extend(
            f"\n{_pad(lab, 7, left=True)} &  {p:6.2f}\\% & {r:6.2f}\\% & {f:6.2f} \\\\"
            for lab, p, r, f, _ in rows
        )
        out.append("\\hline\n")
        out.append(
            f"Overall &  {precision:6.2f}\\% & {recall:6.2f}\\% & {fb1:6.2f} \\\\\\hline\n"
        )
        return "".join(out)
    out = [
        f"processed {counts.tokens} tokens with {found_gold} phrases; "
        f"found: {found_pred} phrases; correct: {correct}.\n"
    ]
    if counts.tokens > 0:
        accuracy = 100 * counts.tokens_correct / counts.tokens
        out.append(
            f"accuracy: {accuracy:6.2f}%; precision: {precision:6.2f}%; "
            f"recall: {recall:6.2f}%; FB1: {fb1:6.2f}\n"
        )
    out.extend(
        f"{_pad(lab, 17, left=False)}: precision: {p:6.2f}%; recall: {r:6.2f}%; "
        f"FB1: {f:6.2f}  {n}\n"
        for lab, p, r, f, n in rows
    )
    return "".join(out)


def _scores(output: ScoreOutput, digits: int) -> str:
    out = render_conlleval(output.report)
    if output.confusion is not None:
        from nerscore.render.confusion import confusion_section

        out = confusion_section(out, output.confusion, digits=digits)
    return out


CONLLEVAL = register_renderer(Renderer("conlleval", "the conlleval script's report",
                                       {"scores": _scores}, frozenset({"confusion"})))
