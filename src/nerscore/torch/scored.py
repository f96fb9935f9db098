"""Scored spans from logits tensors, for threshold curves and calibration (docs/curves.md).

The soft-max and arg-max run on the tensors' device; the decoding of the
spans runs on the host (one transfer of ``(B, L)`` ids and scores), so call
this at evaluation time, not inside a CUDA graph.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import torch

from nerscore.decode.scored import check_rule, scored_span_lists
from nerscore.errors import InputTypeError, LengthMismatchError
from nerscore.values.decoding import Decoding

__all__ = ["scored_spans"]


def scored_spans(
    preds: torch.Tensor, target: torch.Tensor, labels: Sequence[str], *, rule: str = "min",
    probs: bool = False, ignore_index: int = -100, scheme: str | None = None,
    mode: str = "lenient",
) -> tuple[list[list[Any]], list[list[Any]]]:
    """Gold and scored predicted spans per sequence from ``(B, L, C)`` logits and ``(B, L)`` ids.

    Each token's score is the probability of its arg-max tag (the soft-max
    of ``preds``, or ``preds`` itself with ``probs=True``); an entity's score
    is the ``rule`` over its tokens' scores: ``"min"`` (the least sure token),
    ``"mean"`` or ``"first"`` (the ``B-`` token's). The ``ignore_index``
    positions of ``target`` are left out, as :func:`count_entities` leaves
    them out.

    Parameters
    ----------
    preds : torch.Tensor
        Logits (or probabilities, ``probs=True``) of shape ``(B, L, C)``.
    target : torch.Tensor
        Gold label ids of shape ``(B, L)``.
    labels : sequence of str
        Tag of every class id.
    rule : {"min", "mean", "first"}
        How an entity's score is made from its tokens'.
    probs : bool
        ``preds`` are probabilities already.
    ignore_index : int
        Label id of the positions that are not scored.
    scheme, mode : optional
        How tags are decoded.

    Returns
    -------
    (gold, pred)
        Per sequence, ``(start, end, label)`` and ``(start, end, label, score)``
        spans in token offsets: ``nerscore.threshold_curve(gold, pred)``.

    Raises
    ------
    LengthMismatchError
        For shapes that do not fit.
    InputTypeError
        For integer ``preds`` (arg-max ids carry no probability).

    Examples
    --------
    >>> logits = torch.log(torch.tensor([[[0.1, 0.8, 0.1], [0.2, 0.1, 0.7], [0.9, 0.05, 0.05]]]))
    >>> gold, pred = scored_spans(logits, torch.tensor([[1, 2, -100]]), ["O", "B-PER", "I-PER"],
    ...                           rule="mean")
    >>> gold, [(s, e, lab, round(x, 4)) for s, e, lab, x in pred[0]]
    ([[(0, 2, 'PER')]], [(0, 2, 'PER', 0.75)])
    """
    rule = check_rule(rule)
    if not preds.dtype.is_floating_point:
        raise InputTypeError("Expected `preds` to be logits or probabilities (a float tensor of "
                             "shape (B, L, C)); arg-max ids carry no score.")
    if preds.dim() != 3 or tuple(target.shape) != tuple(preds.shape[:2]):
        raise LengthMismatchError(
            f"Expected preds of shape (B, L, C) and target of shape (B, L); got "
            f"{tuple(preds.shape)} and {tuple(target.shape)}.",
            expected=preds.dim(), actual=target.dim())
    if preds.shape[-1] != len(labels):
        raise LengthMismatchError(f"preds has {preds.shape[-1]} classes but `labels` names "
                                  f"{len(labels)}; give one tag per class.",
                                  expected=len(labels), actual=int(preds.shape[-1]))
    with torch.no_grad():
        p = preds.detach().float()
        p = p if probs else p.softmax(-1)
        score, ids = p.max(-1)
        keep = target != ignore_index
        gold_ids = torch.where(keep, target, torch.zeros_like(target))
    gold, pred = scored_span_lists(ids.cpu().numpy(), score.double().cpu().numpy(),
                                   keep.cpu().numpy(), list(labels),
                                   gold_ids=gold_ids.cpu().numpy(), rule=rule,
                                   decoding=Decoding(scheme, mode))
    assert gold is not None
    return gold, pred
