"""``nerscore score --ci`` and ``nerscore compare``: the units resampled, and the intervals."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from nerscore.cli import _options as opt
from nerscore.cli._progress import ProgressBar

if TYPE_CHECKING:
    from nerscore.io.formats import ReadResult

__all__ = ["documents_of", "intervals"]


def documents_of(gold: ReadResult, unit: str) -> list[int] | None:
    """The first sentence of each document of a tag file, when documents are resampled."""
    if unit != "document" or not gold.documents:
        return None
    return list(gold.documents)


def intervals(
    args: argparse.Namespace, y_true: Any, y_pred: Any, kwargs: dict[str, Any],
    gold: ReadResult | None,
) -> Any:
    """``score --ci``: the bootstrap intervals of the scores ``score`` reports.

    Parameters
    ----------
    args : argparse.Namespace
        Parsed arguments of ``score``.
    y_true, y_pred : object
        What was scored.
    kwargs : dict
        The tag and matcher options it was scored with.
    gold : ReadResult, optional
        The gold file as read (CoNLL -DOCSTART- lines give the documents).

    Returns
    -------
    Comparison or None
        None without ``--ci``.

    Raises
    ------
    UsageError
        For resampling options without ``--ci``.
    """
    import nerscore

    resampling = opt.resampling_kwargs(args)
    if not args.ci:
        return None
    documents = None if gold is None else documents_of(gold, "document")
    bar = ProgressBar("bootstrap", unit="resamples")
    try:
        return nerscore.confidence_intervals(
            y_true, y_pred, match=args.match, documents=documents,
            zero_division=args.zero_division, progress=bar, **resampling, **kwargs,
        )
    finally:
        bar.close()
