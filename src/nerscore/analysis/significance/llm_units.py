"""Per-document counts of model outputs, for confidence intervals and comparisons (docs/llm.md).

:func:`nerscore.evaluate_llm` scores the aligned mentions of every document
with a matcher, then adds the mentions it could not place (unaligned, or
dropped by snapping) as false positives. Resampling needs the same counts
split by document: :func:`llm_sequence_counts` gives one row per gold
document (the documents are the resampling unit) whose column sums are the
report's counts, exactly:

- the aligned mentions count in their document as the matcher counts them;
- each lost mention adds a false positive (under ``match="token"``, its
  characters or tokens) to its own document's row;
- a parse failure is a document that predicts nothing: its gold entities are
  all missed in its row;
- an output for a document gold does not have gets a row of its own, with
  no gold entities.

The rows are keyed by document id, so :func:`nerscore.compare` pairs them
with another system's documents (model outputs or an ordinary span file)
by id.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from nerscore.analysis.significance.units import SequenceCounts, counts_of_run
from nerscore.matching import get_matcher
from nerscore.scoring.llm import (
    AlignedOutputs,
    align_outputs,
    lost_columns,
    run_on_columns,
    warn_label_ops,
)
from nerscore.values.documents import Document
from nerscore.values.label_ops import label_notes

__all__ = ["aligned_counts_and_notes", "aligned_sequence_counts", "llm_sequence_counts"]


def aligned_sequence_counts(aligned: AlignedOutputs, *, match: str = "exact",
                            token_units: bool = False, **options: Any) -> SequenceCounts:
    """Per-document counts of outputs already aligned (:func:`nerscore.scoring.llm.align_outputs`).

    Parameters
    ----------
    aligned : AlignedOutputs
        What :func:`~nerscore.scoring.llm.align_outputs` returned.
    match : str
        The matcher.
    token_units : bool
        Whether the gold spans are token indices (outputs aligned with ``tokens``).
    **options
        The matcher's options.

    Returns
    -------
    SequenceCounts
        One row per gold document (ids set), then one per output whose
        document gold does not have.
    """
    return aligned_counts_and_notes(aligned, match=match, token_units=token_units,
                                    **options)[0]


def aligned_counts_and_notes(aligned: AlignedOutputs, *, match: str = "exact",
                             token_units: bool = False, **options: Any,
                             ) -> tuple[SequenceCounts, tuple[str, ...]]:
    """:func:`aligned_sequence_counts` and the notes on what the label operations changed.

    The notes are those a report of the same outputs gives
    (:func:`~nerscore.values.label_ops.label_notes`), over the aligned
    and the lost mentions together.
    """
    options = dict(options)
    if match == "mention":
        options.setdefault("normalize", aligned.summary.normalize)
    aligns = get_matcher(match).aligns
    lost_items = aligned.lost_items
    run = run_on_columns(aligned.gold, aligned.columns(), match, options, align=aligns,
                         warn_labels=not lost_items)
    sc = counts_of_run(run, match)
    tallies = dict(run.result.counts.tallies)
    if sc.ids is None:  # no documents: nothing but lost mentions
        sc = SequenceCounts(sc.labels, sc.tp, sc.n_pred, sc.n_gold,
                            tuple(str(d.id) for d in aligned.gold))
    if lost_items:
        docs, pred = lost_columns(lost_items, aligned.lost_ids, token_units=token_units)
        opts = {k: v for k, v in options.items() if k not in ("discontinuous", "subset")}
        lost_run = run_on_columns(docs, pred, match, opts, align=aligns, warn_labels=False)
        for key, n in lost_run.result.counts.tallies.items():
            tallies[key] = tallies.get(key, 0) + n
        warn_label_ops(options, tallies)
        sc = _add_rows(sc, counts_of_run(lost_run, match), [str(d.id) for d in docs])
    return sc, label_notes(tallies)


def _add_rows(sc: SequenceCounts, more: SequenceCounts, ids: list[str]) -> SequenceCounts:
    """``sc`` with the rows of ``more`` (keyed by ``ids``) added to its rows of the same id."""
    labels = tuple(sorted(set(sc.labels) | set(more.labels)))
    sc, more = sc.select(labels), more.select(labels)
    known = list(sc.ids or ())
    at = {name: k for k, name in enumerate(known)}
    new = [name for name in ids if name not in at]
    for name in new:
        at[name] = len(at)
    shape = (len(at), len(labels))
    tp, n_pred, n_gold = np.zeros(shape), np.zeros(shape, np.int64), np.zeros(shape, np.int64)
    tp[: sc.n_sequences], n_pred[: sc.n_sequences] = sc.tp, sc.n_pred
    n_gold[: sc.n_sequences] = sc.n_gold
    rows = np.array([at[name] for name in ids], dtype=np.int64)
    np.add.at(tp, rows, more.tp)
    np.add.at(n_pred, rows, more.n_pred)
    np.add.at(n_gold, rows, more.n_gold)
    return SequenceCounts(labels, tp, n_pred, n_gold, (*known, *new))


def llm_sequence_counts(
    y_true: Sequence[Document], y_pred: object, *, match: str = "exact",
    align: str = "sequential", normalize: str = "exact", snap: str = "contract",
    label_aliases: Mapping[str, Sequence[str] | str] | None = None,
    output_format: str = "auto", tokens: Sequence[Sequence[str]] | None = None,
    labels: Sequence[str] | None = None, **options: Any,
) -> SequenceCounts:
    """Per-document counts of model outputs whose sums are :func:`nerscore.evaluate_llm`'s counts.

    Give the result to :func:`nerscore.confidence_intervals` or, as one
    system among others, to :func:`nerscore.compare`: the documents are
    resampled, a parse failure being a document whose gold entities are all
    missed, and each unaligned mention a false positive of its document.

    Parameters
    ----------
    y_true, y_pred, match, align, normalize, snap, label_aliases, output_format, tokens, labels
        As :func:`nerscore.evaluate_llm`.
    **options
        The matcher's options.

    Returns
    -------
    SequenceCounts
        One row per gold document, keyed by document id.

    Examples
    --------
    >>> from nerscore import Document
    >>> gold = [Document("a", [(0, 4, "PER")], "Anna in Lyon"),
    ...         Document("b", [(0, 5, "LOC")], "Paris")]
    >>> sc = llm_sequence_counts(gold, ['[{"text": "Anna", "label": "PER"}, '
    ...                                 '{"text": "Rome", "label": "LOC"}]', "no idea"])
    >>> sc.ids, sc.labels, sc.tp.tolist(), sc.n_pred.tolist(), sc.n_gold.tolist()
    (('a', 'b'), ('LOC', 'PER'), [[0.0, 1.0], [0.0, 0.0]], [[1, 1], [0, 0]], [[0, 1], [1, 0]])
    >>> import nerscore
    >>> ci = nerscore.confidence_intervals(gold, sc, n_resamples=50)
    >>> ci.systems[0].micro.precision.value, ci.n_units
    (0.5, 2)
    """
    aligned = align_outputs(y_true, y_pred, align=align, normalize=normalize, snap=snap,
                            label_aliases=label_aliases, output_format=output_format,
                            tokens=tokens, labels=labels)
    return aligned_sequence_counts(aligned, match=match, token_units=tokens is not None,
                                   **options)
