"""Hugging Face ``Trainer`` helpers: seqeval-style metrics without Python lists of tags.

:func:`compute_metrics` builds the ``compute_metrics`` callable of a
token-classification ``Trainer``. It returns the keys and values of the
usual ``evaluate.load("seqeval")`` recipe (seqeval 1.2.2's
``classification_report`` and ``accuracy_score`` on the tag strings with the
``-100`` positions removed), plus macro averages, but never builds a Python
string per token: label ids go straight into :class:`nerscore.EncodedTags`.

Both ways the ``Trainer`` calls it work:

* the default: one call with NumPy arrays for the whole evaluation set
  (pure NumPy; PyTorch is not needed);
* ``batch_eval_metrics=True``: one call per batch with the batch's tensors
  (already gathered across processes by the ``Trainer``) and
  ``compute_result=True`` on the last one. Counts accumulate on the device
  (:mod:`nerscore.torch`) and reach the host once, at the end.

Neither ``transformers`` nor ``torch`` is imported by this module.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from nerscore.scoring.metrics import count_matches
from nerscore.scoring.reduction import reduce_counts
from nerscore.values.counts import Counts
from nerscore.values.tags import EncodedTags

__all__ = ["TokenClassificationMetrics", "compute_metrics", "preprocess_logits_for_metrics"]

IGNORE_INDEX = -100


def _is_tensor(x: object) -> bool:
    return type(x).__module__.split(".")[0] == "torch"


def _unpack(eval_pred: Any) -> tuple[Any, Any]:
    """``(predictions, label_ids)`` of an ``EvalPrediction`` (or a 2-tuple)."""
    if hasattr(eval_pred, "predictions") and hasattr(eval_pred, "label_ids"):
        preds, labels = eval_pred.predictions, eval_pred.label_ids
    else:
        preds, labels = eval_pred[0], eval_pred[1]
    if isinstance(preds, (tuple, list)) and not _is_tensor(preds):
        preds = preds[0]  # models returning extra outputs: logits come first
    return preds, labels


def preprocess_logits_for_metrics(logits: Any, labels: Any) -> Any:
    """Arg-max the logits on their device before the ``Trainer`` gathers them.

    Pass as ``Trainer(preprocess_logits_for_metrics=...)``: the ``Trainer`` then
    gathers label ids ``(B, L)`` instead of logits ``(B, L, C)``. A tuple of
    outputs is reduced to its first element (the logits).

    Examples
    --------
    >>> preprocess_logits_for_metrics(np.array([[[0.1, 0.9], [0.8, 0.2]]]), None).tolist()
    [[1, 0]]
    """
    if isinstance(logits, (tuple, list)):
        logits = logits[0]
    return logits.argmax(-1)


class TokenClassificationMetrics:
    """The callable returned by :func:`compute_metrics` (see there).

    Holds the counts of the batches seen so far in ``batch_eval_metrics``
    mode; they are cleared when a result is returned.
    """

    def __init__(self, label_list: Sequence[str], *, scheme: str | None = None,
                 mode: str = "lenient") -> None:
        if isinstance(label_list, str) or not all(isinstance(t, str) for t in label_list):
            raise TypeError("Expected `label_list` to be a sequence of tag strings "
                            "(label id -> tag).")
        self.label_list = tuple(label_list)
        self.scheme = scheme
        self.mode = mode
        # validate the options and tags now, not at the end of the first evaluation
        count_matches(EncodedTags(np.arange(len(self.label_list)),
                                  np.array([0, len(self.label_list)]), self.label_list),
                      EncodedTags(np.arange(len(self.label_list)),
                                  np.array([0, len(self.label_list)]), self.label_list),
                      scheme=scheme, mode=mode)
        self._counts: Counts | None = None
        self._device_counts: Any = None

    def __call__(self, eval_pred: Any, compute_result: bool | None = None) -> dict[str, Any]:
        """Score one ``EvalPrediction``; with ``compute_result``, accumulate batches."""
        preds, labels = _unpack(eval_pred)
        if compute_result is None:
            return self.metrics(self.count(preds, labels))
        if _is_tensor(preds) and _is_tensor(labels):
            self._add_tensors(preds, labels)
        else:
            batch = self.count(preds, labels)
            self._counts = batch if self._counts is None else self._counts + batch
        if not compute_result:
            return {}
        counts = self._take()
        return self.metrics(counts)

    def reset(self) -> None:
        """Forget the batches accumulated so far."""
        self._counts = None
        self._device_counts = None

    def count(self, predictions: Any, label_ids: Any) -> Counts:
        """Counts of predictions (logits ``(N, L, C)`` or ids ``(N, L)``) against label ids.

        Positions where ``label_ids`` is ``-100`` are removed from both sides.
        """
        if _is_tensor(predictions):
            predictions = predictions.detach().cpu().numpy()
        if _is_tensor(label_ids):
            label_ids = label_ids.detach().cpu().numpy()
        preds = np.asarray(predictions)
        labels = np.asarray(label_ids)
        if preds.ndim == 3:
            preds = preds.argmax(-1)
        if preds.shape != labels.shape or labels.ndim != 2:
            raise ValueError(f"Expected predictions (N, L) or (N, L, C) and label ids (N, L) "
                             f"of the same N and L; got {preds.shape} and {labels.shape}.")
        keep = labels != IGNORE_INDEX
        gold = EncodedTags.from_padded(labels.astype(np.int64), vocab=self.label_list,
                                       mask=keep)
        pred = EncodedTags.from_padded(preds.astype(np.int64), vocab=self.label_list,
                                       mask=keep)
        return count_matches(gold, pred, scheme=self.scheme, mode=self.mode)

    def _add_tensors(self, preds: Any, labels: Any) -> None:
        from nerscore.torch._tables import tag_tables
        from nerscore.torch.functional import batch_counts

        tables = tag_tables(self.label_list, self.scheme, self.mode)
        counts, tokens = batch_counts(preds, labels, tables, ignore_index=IGNORE_INDEX)
        if self._device_counts is None:
            self._device_counts = (counts, tokens)
        else:
            c0, t0 = self._device_counts
            self._device_counts = (c0 + counts, t0 + tokens)

    def _take(self) -> Counts:
        counts = self._counts if self._counts is not None else Counts()
        if self._device_counts is not None:
            from nerscore.torch._tables import tag_tables

            c, n = (x.cpu().numpy() for x in self._device_counts)
            labels = tag_tables(self.label_list, self.scheme, self.mode).labels
            counts = counts + Counts(labels, c[0], c[1], c[2], tokens=int(n[0]),
                                     tokens_correct=int(n[1]))
        self.reset()
        return counts

    @staticmethod
    def metrics(counts: Counts) -> dict[str, Any]:
        """The seqeval-recipe dict of counts (zero for undefined ratios), plus macro means."""
        per = reduce_counts(counts, average=None, zero_division=0.0)
        out: dict[str, Any] = {}
        prec, rec, f1, support = per.precision, per.recall, per.fbeta, per.support
        if not (isinstance(prec, dict) and isinstance(rec, dict) and isinstance(f1, dict)
                and isinstance(support, dict)):  # pragma: no cover - average=None gives dicts
            raise TypeError("reduce_counts(average=None) did not return per-label dicts")
        for lab in prec:
            out[lab] = {"precision": prec[lab], "recall": rec[lab], "f1": f1[lab],
                        "number": support[lab]}
        micro = reduce_counts(counts, average="micro", zero_division=0.0)
        out["overall_precision"] = micro.precision
        out["overall_recall"] = micro.recall
        out["overall_f1"] = micro.fbeta
        out["overall_accuracy"] = counts.tokens_correct / counts.tokens if counts.tokens else 0.0
        macro = reduce_counts(counts, average="macro", zero_division=0.0)
        out["macro_precision"] = macro.precision
        out["macro_recall"] = macro.recall
        out["macro_f1"] = macro.fbeta
        return out


def compute_metrics(label_list: Sequence[str], *, scheme: str | None = None,
                    mode: str = "lenient") -> TokenClassificationMetrics:
    """A ``compute_metrics`` callable for a token-classification ``Trainer``.

    Parameters
    ----------
    label_list : sequence of str
        Tag of every label id (``model.config.id2label`` in id order).
    scheme : str, optional
        Tagging scheme; required by ``mode="strict"``.
    mode : {"lenient", "strict"}
        ``lenient`` is seqeval's default mode, ``strict`` its strict mode.

    Returns
    -------
    TokenClassificationMetrics
        Called as ``f(eval_pred)`` (the default) or
        ``f(eval_pred, compute_result=...)`` (``batch_eval_metrics=True``). It
        returns, like ``evaluate.load("seqeval")``, ``{label: {"precision",
        "recall", "f1", "number"}}`` for every label with a gold or predicted
        entity, ``overall_precision``, ``overall_recall``, ``overall_f1``,
        ``overall_accuracy``, and also ``macro_precision``, ``macro_recall``,
        ``macro_f1``. Undefined ratios are 0 (seqeval gives 0 with a warning).

    Examples
    --------
    >>> from types import SimpleNamespace
    >>> f = compute_metrics(["O", "B-PER", "I-PER"])
    >>> labels = np.array([[1, 2, -100, 0], [1, 0, 0, -100]])
    >>> logits = np.eye(3)[np.array([[1, 2, 0, 0], [1, 2, 0, 0]])]
    >>> out = f(SimpleNamespace(predictions=logits, label_ids=labels))
    >>> out["PER"], out["overall_accuracy"]
    ({'precision': 0.5, 'recall': 0.5, 'f1': 0.5, 'number': 2}, 0.8333333333333334)
    """
    return TokenClassificationMetrics(label_list, scheme=scheme, mode=mode)
