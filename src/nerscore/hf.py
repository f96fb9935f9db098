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

Bad input is an error that names the array (``predictions``, ``labels``)
and the position: label ids outside ``0 .. len(label_list) - 1`` (other
than ``-100``) always, and with ``validate=True`` (the default) NaN or
infinite logits. In ``batch_eval_metrics`` mode with tensors,
``validate=True`` costs one device-to-host synchronisation per batch;
``validate=False`` leaves the values unchecked there, as
:func:`nerscore.torch.count_entities` does by default.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from nerscore.errors import (
    InputTypeError,
    InvalidTagError,
    LengthMismatchError,
    OptionError,
    SchemeError,
    option_error,
    unknown_choice,
)
from nerscore.scoring.counting import count_matches
from nerscore.scoring.reduction import reduce_counts
from nerscore.values.counts import Counts
from nerscore.values.schemes import Mode, Scheme
from nerscore.values.tags import EncodedTags

__all__ = ["TokenClassificationMetrics", "compute_metrics", "preprocess_logits_for_metrics",
           "scored_spans"]

IGNORE_INDEX = -100


def _is_tensor(x: object) -> bool:
    return type(x).__module__.split(".")[0] == "torch"


def _unpack(eval_pred: Any) -> tuple[Any, Any]:
    """``(predictions, label_ids)`` of an ``EvalPrediction`` (or a 2-tuple)."""
    if hasattr(eval_pred, "predictions") and hasattr(eval_pred, "label_ids"):
        preds, labels = eval_pred.predictions, eval_pred.label_ids
    elif isinstance(eval_pred, (tuple, list)) and len(eval_pred) >= 2:
        preds, labels = eval_pred[0], eval_pred[1]
    else:
        raise InputTypeError(f"Expected an EvalPrediction or a (predictions, label_ids) "
                             f"pair; got {type(eval_pred).__name__}.")
    if isinstance(preds, (tuple, list)) and preds:
        preds = preds[0]  # models returning extra outputs: logits come first
    return preds, labels


def _check_options(scheme: object, mode: object, validate: object) -> tuple[str | None, str]:
    """The canonical scheme and mode (``lenient`` or ``strict``); ``validate`` a bool."""
    modes = (Mode.LENIENT.value, Mode.STRICT.value)
    try:
        mode_name = Mode.parse(mode, name="mode").value
    except ValueError:
        mode_name = None
    if mode_name not in modes:
        raise OptionError(unknown_choice("mode", mode, modes), option="mode")
    scheme_name = None
    if scheme is not None:
        try:
            scheme_name = Scheme.parse(scheme, name="scheme").value
        except ValueError:
            raise SchemeError(unknown_choice("scheme", scheme, tuple(s.value for s in Scheme))
                              ) from None
    if not isinstance(validate, bool):
        raise option_error("validate", "True or False", validate)
    assert mode_name is not None
    return scheme_name, mode_name


def _array(x: Any, name: str) -> npt.NDArray[Any]:
    """``x`` (a NumPy array, a tensor, nested lists) as a NumPy array."""
    try:
        if _is_tensor(x):
            x = x.detach().cpu()
            if x.dtype.is_floating_point and x.element_size() < 4:
                x = x.float()  # bfloat16 has no NumPy dtype; widening keeps the arg-max
            x = x.numpy()
        return np.asarray(x)
    except (ValueError, TypeError) as exc:
        raise InputTypeError(f"Expected `{name}` to be an array; got {type(x).__name__} "
                             f"that NumPy cannot read ({exc}).") from None


def _is_int(a: npt.NDArray[Any]) -> bool:
    return a.dtype.kind in "iu"


def _bad_id(ids: npt.NDArray[Any], keep: npt.NDArray[np.bool_], name: str,
            n_tags: int) -> None:
    """Raise for the first id outside ``[0, n_tags)`` at a kept position."""
    bad = keep & ((ids < 0) | (ids >= n_tags))
    if bad.any():
        row, col = (int(i) for i in np.argwhere(bad)[0])
        value = int(ids[row, col])
        raise InvalidTagError(
            f"`{name}` holds label id {value} at sequence {row}, token {col} (position "
            f"[{row}, {col}]); label ids must lie in 0..{n_tags - 1} (one per tag of "
            f"`label_list`) or, in the labels, be the ignore index {IGNORE_INDEX}. Fix the "
            "ids or pass the label list they index.", tag=str(value), sentence=row,
            index=col)


def _non_finite(logits: npt.NDArray[Any], keep: npt.NDArray[np.bool_]) -> None:
    """Raise for the first NaN or infinite logit at a kept position."""
    bad = keep[..., None] & ~np.isfinite(logits)
    if bad.any():
        pos = tuple(int(i) for i in np.argwhere(bad)[0])
        raise InputTypeError(
            f"`predictions` (logits of shape {logits.shape}) holds {logits[pos]} at "
            f"sequence {pos[0]}, token {pos[1]}, class {pos[2]} (position {list(pos)}). NaN "
            "or infinite logits have no arg-max to score; check the model's outputs (a "
            "diverged loss, a mask filled with -inf at a scored position).")


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
                 mode: str = "lenient", validate: bool = True) -> None:
        tags: tuple[object, ...] = ()
        if isinstance(label_list, Iterable) and not isinstance(label_list, (str, bytes)):
            tags = tuple(label_list)
        if not tags or not all(isinstance(t, str) for t in tags):
            raise InputTypeError("Expected `label_list` to be a non-empty sequence of tag "
                                 "strings (label id -> tag).")
        self.label_list = tuple(str(t) for t in tags)
        self.scheme, self.mode = _check_options(scheme, mode, validate)
        self.validate = validate
        # check the tags now, not at the end of the first evaluation
        ids = EncodedTags(np.arange(len(self.label_list)),
                          np.array([0, len(self.label_list)]), self.label_list)
        count_matches(ids, ids, scheme=self.scheme, mode=self.mode)
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

        Raises
        ------
        InputTypeError
            Arrays of a wrong dtype (float label ids, integer logits, ``bool``)
            or number of dimensions, logits without one class per label; with
            ``validate``, NaN or infinite logits.
        LengthMismatchError
            Predictions and label ids of different ``N`` or ``L``.
        InvalidTagError
            A label id outside ``0 .. len(label_list) - 1`` (other than ``-100``).
        """
        preds = _array(predictions, "predictions")
        labels = _array(label_ids, "labels")
        n_tags = len(self.label_list)
        if labels.ndim != 2 or not _is_int(labels):
            raise InputTypeError(f"Expected integer label ids `labels` of shape (N, L); got "
                                 f"{labels.dtype} of shape {labels.shape}.")
        if preds.ndim == 3:
            if preds.dtype.kind != "f":
                raise InputTypeError(f"Expected floating-point logits `predictions` of shape "
                                     f"(N, L, C); got {preds.dtype}.")
            if preds.shape[-1] != n_tags:
                raise InputTypeError(
                    f"Expected logits `predictions` with {n_tags} classes (one per tag of "
                    f"`label_list`) in the last dimension; got shape {preds.shape}.")
        elif preds.ndim != 2 or not _is_int(preds):
            raise InputTypeError(
                f"Expected `predictions` to be integer label ids (N, L) or floating-point "
                f"logits (N, L, C); got {preds.dtype} of shape {preds.shape}.")
        for dim, what in ((0, "number of sequences"), (1, "sequence length")):
            if preds.shape[dim] != labels.shape[dim]:
                raise LengthMismatchError(
                    f"Expected predictions and label ids of the same N and L; the "
                    f"{what} differs: {preds.shape[dim]} in `predictions` (shape "
                    f"{preds.shape}) and {labels.shape[dim]} in `labels` (shape "
                    f"{labels.shape}).", expected=labels.shape[dim], actual=preds.shape[dim])
        keep = labels != IGNORE_INDEX
        if preds.ndim == 3:
            if self.validate:
                _non_finite(preds, keep)
            preds = preds.argmax(-1)
        _bad_id(labels, keep, "labels", n_tags)
        _bad_id(preds, keep, "predictions", n_tags)
        gold = EncodedTags.from_padded(labels.astype(np.int64), vocab=self.label_list,
                                       mask=keep)
        pred = EncodedTags.from_padded(preds.astype(np.int64), vocab=self.label_list,
                                       mask=keep)
        return count_matches(gold, pred, scheme=self.scheme, mode=self.mode)

    def _add_tensors(self, preds: Any, labels: Any) -> None:
        from nerscore.torch._checks import Names
        from nerscore.torch._tables import tag_tables
        from nerscore.torch.functional import counted

        tables = tag_tables(self.label_list, self.scheme, self.mode)
        counts, tokens = counted(preds, labels, tables, validate=self.validate,
                                 names=Names("predictions", "labels"),
                                 ignore_index=IGNORE_INDEX)
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
                    mode: str = "lenient", validate: bool = True) -> TokenClassificationMetrics:
    """A ``compute_metrics`` callable for a token-classification ``Trainer``.

    Parameters
    ----------
    label_list : sequence of str
        Tag of every label id (``model.config.id2label`` in id order).
    scheme : str, optional
        Tagging scheme; required by ``mode="strict"``.
    mode : {"lenient", "strict"}
        ``lenient`` is seqeval's default mode, ``strict`` its strict mode
        (the tag runs it reads as no entity are not counted here;
        :func:`nerscore.evaluate` on the tag strings notes them).
    validate : bool
        Refuse NaN or infinite logits at scored positions (label not
        ``-100``), naming the position. Label ids out of range are refused,
        with their position, either way, except for CUDA tensors in
        ``batch_eval_metrics`` mode: there the check costs a device-to-host
        synchronisation per batch and runs only with ``validate`` (without
        it a bad id is a device-side assertion).

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
    >>> f((logits, np.array([[1, 2, -100, 0], [1, 0, 9, -100]])))
    Traceback (most recent call last):
    ...
    nerscore.errors.InvalidTagError: `labels` holds label id 9 at sequence 1, token 2 (position [1, 2]); label ids must lie in 0..2 (one per tag of `label_list`) or, in the labels, be the ignore index -100. Fix the ids or pass the label list they index.
    """
    return TokenClassificationMetrics(label_list, scheme=scheme, mode=mode, validate=validate)


def scored_spans(eval_pred: Any, label_list: Sequence[str], *, rule: str = "min",
                 scheme: str | None = None, mode: str = "lenient") -> tuple[list[Any], list[Any]]:
    """Gold and scored predicted spans from a token classifier's logits, for curves and calibration.

    Each token's score is the softmax probability of its arg-max tag; an
    entity's score is the ``rule`` (``"min"``, ``"mean"`` or ``"first"``) over
    its tokens' scores; the ``-100`` positions are left out, as
    :func:`compute_metrics` leaves them out (docs/curves.md).

    Parameters
    ----------
    eval_pred : EvalPrediction or (logits, label_ids)
        Logits ``(n, length, classes)`` (arrays or tensors) and label ids
        ``(n, length)``.
    label_list : sequence of str
        Tag of every label id.
    rule : {"min", "mean", "first"}
        How an entity's score is made from its tokens'.
    scheme, mode : optional
        How tags are decoded.

    Returns
    -------
    (gold, pred)
        Per sequence, ``(start, end, label)`` and ``(start, end, label,
        score)`` spans in token offsets: ``nerscore.threshold_curve(gold,
        pred)``.

    Examples
    --------
    >>> logits = np.log(np.array([[[0.1, 0.8, 0.1], [0.2, 0.1, 0.7], [0.9, 0.05, 0.05]]]))
    >>> gold, pred = scored_spans((logits, np.array([[1, 2, -100]])), ["O", "B-PER", "I-PER"])
    >>> gold, [(s, e, lab, round(x, 4)) for s, e, lab, x in pred[0]]
    ([[(0, 2, 'PER')]], [(0, 2, 'PER', 0.7)])
    """
    from nerscore.decode.scored import scored_span_lists
    from nerscore.values.decoding import Decoding

    logits, labels = _unpack(eval_pred)
    x = _array(logits, "predictions").astype(np.float64)
    ids = _array(labels, "labels")
    if x.ndim != 3 or ids.shape != x.shape[:2]:
        raise LengthMismatchError(
            f"Expected logits of shape (n, length, classes) and label ids of shape (n, length); "
            f"got {x.shape} and {ids.shape}.", expected=x.ndim, actual=ids.ndim)
    keep = ids != IGNORE_INDEX
    _bad_id(ids, keep, "labels", len(label_list))
    _non_finite(x, keep)
    x = x - x.max(axis=-1, keepdims=True)
    probs = np.exp(x)
    probs /= probs.sum(axis=-1, keepdims=True)
    pred_ids = probs.argmax(-1)
    token_scores = np.take_along_axis(probs, pred_ids[..., None], axis=-1)[..., 0]
    gold, pred = scored_span_lists(pred_ids, token_scores, keep, list(label_list),
                                   gold_ids=np.where(keep, ids, 0), rule=rule,
                                   decoding=Decoding(scheme, mode))
    assert gold is not None
    return gold, pred
