"""Agreement between annotators as text or Markdown (the ``agreement`` kind of every text format).

:func:`render_agreement` writes: the pairwise F1 matrix with its mean, the
per-label mean ± SD, the token-level kappa and alpha (all tokens and
labelled tokens), the least-agreed documents, the counts of disagreements
by kind, and the notes. Documents are named by the result's ``unit``
(sentences, for tag input).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from nerscore.render.table import table_lines
from nerscore.values.wording import counted

if TYPE_CHECKING:
    from nerscore.analysis.agreement.results import Agreement

__all__ = ["counted", "render_agreement", "uncompared"]

#: Least-agreed documents listed.
N_DOCUMENTS = 10


def _num(x: float, digits: int) -> str:
    return "-" if math.isnan(x) else f"{x:.{digits}f}"


def uncompared(result: Agreement) -> int:
    """Documents only one annotator has: in no pair, so not among the least-agreed documents."""
    return result.n_documents - len(result.documents)


def _heading(text: str, markdown: bool) -> list[str]:
    return ["", f"## {text}", ""] if markdown else ["", text]


def render_agreement(result: Agreement, *, format: str = "text",  # noqa: A002 - as render_result
                     digits: int = 2) -> str:
    """An :class:`~nerscore.Agreement` as plain text or Markdown.

    Parameters
    ----------
    result : Agreement
        What :func:`nerscore.agreement` returned.
    format : {"text", "markdown"}
        Aligned plain-text tables or Markdown tables.
    digits : int
        Decimals of every number.

    Returns
    -------
    str

    Examples
    --------
    >>> import nerscore
    >>> a = nerscore.agreement([[["B-X", "O"]], [["B-X", "O"]]], n_resamples=0)
    >>> print(render_agreement(a).splitlines()[0])
    agreement of 2 annotators over 1 sentence; entity F1 by exact match
    """
    md = format == "markdown"
    unit = result.unit
    names = result.names
    f1 = result.f1
    ci = result.intervals.get("mean_f1")
    interval = ""
    if ci is not None and not math.isnan(ci.low):
        interval = (f" [{_num(ci.low, digits)}, {_num(ci.high, digits)}] "
                    f"({result.level:.0%} bootstrap over {unit}s)")
    lines = [f"agreement of {len(names)} annotators over {counted(result.n_documents, unit)}; "
             f"entity F1 by {result.match} match"]
    lines += _heading("pairwise entity F1 (micro" + ("" if f1.symmetric else
                      "; rows are the reference") + ")", md)
    lines += table_lines(["", *names], [[n, *(_num(x, digits) for x in row)]
                                        for n, row in zip(names, f1.matrix, strict=True)],
                         markdown=md)
    lines += ["", f"mean pairwise F1: {_num(f1.mean(), digits)} (SD {_num(f1.sd(), digits)})"
              f"{interval}"]
    lines += _heading("per label", md)
    tl = result.tokens
    rows = []
    for lab in f1.per_label:
        pl = tl.per_label.get(lab, {})
        rows.append([lab, _num(f1.mean(lab), digits), _num(f1.sd(lab), digits),
                     *(_num(pl[k].mean_cohen, digits) if k in pl else "-"
                       for k in ("all", "labelled")),
                     *(_num(pl[k].alpha, digits) if k in pl else "-"
                       for k in ("all", "labelled"))])
    lines += table_lines(["label", "mean F1", "SD F1", "kappa (all)", "kappa (labelled)",
                          "alpha (all)", "alpha (labelled)"], rows, markdown=md)
    lines += _heading(f"token level ({tl.units})", md)
    if tl.overall is None:
        lines.append(tl.reason)
    else:
        rows = [[subset, _num(t.mean_cohen, digits), _num(t.fleiss, digits),
                 _num(t.alpha, digits), str(t.n_tokens)] for subset, t in tl.overall.items()]
        lines += table_lines(["tokens", "mean Cohen's kappa", "Fleiss' kappa",
                              "Krippendorff's alpha", "n"], rows, markdown=md)
        ac = result.intervals.get("alpha")
        if ac is not None and not math.isnan(ac.low):
            lines += ["", f"alpha (all tokens): {_num(ac.value, digits)} "
                      f"[{_num(ac.low, digits)}, {_num(ac.high, digits)}]"]
    alone = uncompared(result)
    lines += _heading(f"least-agreed {unit}s (of {len(result.documents)}" + (
        f"; {alone} with a single annotator left out" if alone else "") + ")", md)
    rows = [[d.document, _num(d.mean, digits), _num(d.sd, digits), str(d.n_entities)]
            for d in result.documents[:N_DOCUMENTS]]
    lines += table_lines([unit, "mean F1", "SD F1", "shared entities"], rows, markdown=md)
    counts: dict[str, int] = {}
    for d in result.disagreements:
        counts[d.kind] = counts.get(d.kind, 0) + 1
    lines += _heading("disagreements", md)
    lines.append(f"{len(result.disagreements)} in all: " + ", ".join(
        f"{counts.get(k, 0)} {k}" for k in ("missing", "label", "boundary")))
    lines += [f"note: {n}" for n in result.notes]
    return "\n".join(lines)
