"""Type, shape and device checks of the tensors given to the scorers (no host synchronisation).

Everything here reads tensor metadata only (``dim``, ``shape``, ``dtype``,
``device``), so the checks run on every call, in the hot loop and under
``torch.compile(fullgraph=True)``. The checks of the *values* (NaN logits,
label ids out of range) need the data and live in
:mod:`nerscore.torch._validate`.

The errors name the tensor as the caller calls it (:class:`Names`:
``preds``/``target`` for :func:`nerscore.torch.count_entities` and the
metric, ``predictions``/``labels`` for :mod:`nerscore.hf`).
"""

from __future__ import annotations

from typing import NamedTuple

import torch

from nerscore.errors import InputTypeError, LengthMismatchError

__all__ = ["NAMES", "Names", "check_batch", "check_scores", "check_target", "check_word_ids",
           "is_integer"]


class Names(NamedTuple):
    """What the caller calls the predictions and the targets (for messages)."""

    preds: str = "preds"
    target: str = "target"
    word_ids: str = "word_ids"


#: The names of :func:`nerscore.torch.count_entities` and the metric.
NAMES = Names()


def is_integer(x: torch.Tensor) -> bool:
    """An integer dtype (``bool`` and complex are not)."""
    return not (x.is_floating_point() or x.is_complex() or x.dtype == torch.bool)


def _tensor(x: object, name: str) -> torch.Tensor:
    if not isinstance(x, torch.Tensor):
        raise InputTypeError(f"Expected `{name}` to be a torch.Tensor; got "
                             f"{type(x).__name__}. Convert it with torch.as_tensor.")
    return x


def check_scores(preds: object, name: str, n_tags: int | None = None) -> torch.Tensor:
    """Label ids ``(B, L)`` of an integer dtype, or floating logits ``(B, L, C)``.

    With ``n_tags``, logits must have one class per tag (``C == n_tags``).
    """
    preds = _tensor(preds, name)
    if preds.dim() == 3:
        if not preds.is_floating_point():
            raise InputTypeError(
                f"Expected floating-point logits in `{name}` of shape (B, L, C); got "
                f"{preds.dtype}. Pass label ids as (B, L), or convert the scores with "
                ".float().")
        if n_tags is not None and preds.shape[-1] != n_tags:
            raise InputTypeError(
                f"Expected logits `{name}` with {n_tags} classes (one per tag) in the last "
                f"dimension; got shape {tuple(preds.shape)}. Pass the tag list the model "
                "was trained with (id2label in id order).")
        return preds
    if preds.dim() != 2:
        raise InputTypeError(f"Expected `{name}` of shape (B, L) (label ids) or (B, L, C) "
                             f"(logits); got shape {tuple(preds.shape)}.")
    if not is_integer(preds):
        raise InputTypeError(
            f"Expected integer label ids in `{name}` of shape (B, L); got {preds.dtype}. "
            "Pass logits as (B, L, C), or label ids as an integer tensor.")
    return preds


def check_target(target: object, shape: tuple[int, ...] | None, names: Names) -> torch.Tensor:
    """Integer label ids ``(B, L)`` (with the batch size and length of ``shape``, if given)."""
    target = _tensor(target, names.target)
    if target.dim() != 2:
        raise InputTypeError(f"Expected `{names.target}` of shape (B, L); got shape "
                             f"{tuple(target.shape)}.")
    if not is_integer(target):
        raise InputTypeError(
            f"Expected integer label ids in `{names.target}`; got {target.dtype}. Convert "
            "them with .long() (float labels are never rounded silently).")
    if shape is not None:
        _same_shape(shape, names.preds, tuple(target.shape), names.target)
    return target


def check_word_ids(word_ids: object, shape: tuple[int, ...], name: str,
                   other: str) -> torch.Tensor:
    """Integer word ids ``(B, L)`` with the batch size and length of ``shape``."""
    word_ids = _tensor(word_ids, name)
    if word_ids.dim() != 2:
        raise InputTypeError(f"Expected `{name}` of shape {tuple(shape[:2])} to match "
                             f"`{other}`; got shape {tuple(word_ids.shape)}.")
    if not is_integer(word_ids):
        raise InputTypeError(f"Expected integer word ids in `{name}` (negative: no "
                             f"word); got {word_ids.dtype}.")
    _same_shape(tuple(word_ids.shape), name, shape[:2], other)
    return word_ids


def _same_shape(x: tuple[int, ...], name: str, ref: tuple[int, ...], ref_name: str) -> None:
    """``x`` (of ``name``) has the batch size and length of ``ref`` (the expected sizes)."""
    for dim, what, fix in ((0, "batch size", ""),
                           (1, "sequence length", " Pad both to the same length.")):
        if x[dim] != ref[dim]:
            raise LengthMismatchError(
                f"Expected `{name}` to match `{ref_name}` in the {what}; got {x[dim]} in "
                f"`{name}` and {ref[dim]} in `{ref_name}` (shapes {x} and {ref}).{fix}",
                expected=ref[dim], actual=x[dim])


def _same_device(x: torch.Tensor, name: str, preds: torch.Tensor, other: str) -> None:
    if x.device != preds.device:
        raise InputTypeError(f"Expected `{name}` on the device of `{other}` ({preds.device});"
                             f" got {x.device}. Move both to one device.")


def check_batch(preds: object, target: object, word_ids: object, *, n_tags: int,
                names: Names) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor | None]:
    """Check one batch: ``preds`` ids or logits, ``target`` ids, optional ``word_ids``.

    Raises
    ------
    InputTypeError
        Not a tensor, a wrong number of dimensions, a wrong dtype, logits
        without one class per tag, or tensors on different devices.
    LengthMismatchError
        A batch size or a sequence length that differs between the tensors.
    """
    p = check_scores(preds, names.preds, n_tags)
    t = check_target(target, tuple(p.shape[:2]), names)
    _same_device(t, names.target, p, names.preds)
    if word_ids is None:
        return p, t, None
    w = check_word_ids(word_ids, tuple(p.shape[:2]), names.word_ids, names.preds)
    _same_device(w, names.word_ids, p, names.preds)
    return p, t, w
