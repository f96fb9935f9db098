"""Unaligned mentions of model outputs as error records of their own kind (docs/llm.md).

A mention that alignment could not place in its document's text has no
offsets, so it is none of the span errors of :mod:`nerscore.analysis.errors`.
:func:`unaligned_errors` lists each as an :class:`~nerscore.analysis.errors.ErrorRecord`
of category ``unaligned``: its document, its text (``pred_text``) and its
label (``pred_label``), no gold side and no offsets. Like ``spurious``, each
is one false positive of its label.
"""

from __future__ import annotations

from nerscore.analysis.errors import ErrorCategory, ErrorRecord
from nerscore.scoring.report import Report

__all__ = ["unaligned_errors"]


def unaligned_errors(report: Report) -> list[ErrorRecord]:
    """One ``unaligned`` record per unaligned mention of a report of :func:`nerscore.evaluate_llm`.

    Parameters
    ----------
    report : Report
        A report; one that is not of model outputs has no unaligned mentions.

    Returns
    -------
    list of ErrorRecord
        In the report's order. ``sequence`` is the index of the mention's
        document, -1 for an output whose document gold does not have.

    Examples
    --------
    >>> import nerscore
    >>> gold = [nerscore.Document("d1", [(0, 5, "LOC")], "Paris")]
    >>> r = nerscore.evaluate_llm(gold, ["LOC: Paris, London"], zero_division=0.0)
    >>> [(e.category.value, e.sequence, e.doc_id, e.pred_text, e.pred_label, e.pred_start)
    ...  for e in unaligned_errors(r)]
    [('unaligned', 0, 'd1', 'London', 'LOC', None)]
    """
    found = report.extra.get("llm", {}).get("unaligned_mentions") or ()
    at = {str(d): k for k, d in reversed(list(enumerate(report.doc_ids or ())))}
    return [ErrorRecord(ErrorCategory.UNALIGNED, at.get(str(m["id"]), -1), str(m["id"]), None,
                        None, None, None, None, str(m["label"]), pred_text=str(m["text"]))
            for m in found]
