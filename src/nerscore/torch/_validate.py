"""The checks of the values of a batch: NaN or infinite logits, label ids out of range.

They need the data on the host, so they run only when asked
(``validate=True``), with one device-to-host synchronisation per batch, or
after a table lookup has failed (to say where; the hot loop pays nothing).

Only the scored positions are checked: those whose target is not the
``ignore_index`` (for the logits with ``word_ids``: every subword of a
word, since all of them enter the aggregation). What lies at ignored
positions (padding, ``-100`` predictions, masked logits) is dropped unread.
"""

from __future__ import annotations

import torch

from nerscore.errors import InputTypeError, InvalidTagError
from nerscore.torch._checks import NAMES, Names

__all__ = ["check_values", "first_true"]


def first_true(mask: torch.Tensor) -> torch.Tensor:
    """Flat row-major index of the first ``True`` of ``mask``; ``mask.numel()`` if none.

    Examples
    --------
    >>> first_true(torch.tensor([[False, False], [True, True]])).item()
    2
    >>> first_true(torch.zeros(0, 3, dtype=torch.bool)).item()
    0
    """
    flat = mask.reshape(-1)
    n = flat.numel()
    if n == 0:
        return torch.zeros((), dtype=torch.int64, device=mask.device)
    pos = torch.arange(n, device=mask.device)
    return torch.where(flat, pos, n).amin()


def _position(shape: tuple[int, ...], flat: int) -> tuple[int, ...]:
    out = []
    for size in reversed(shape):
        out.append(flat % size)
        flat //= size
    return tuple(reversed(out))


def _where(pos: tuple[int, ...]) -> str:
    words = ("batch", "token", "class")
    return ", ".join(f"{w} {p}" for w, p in zip(words, pos, strict=False))


def check_values(preds: torch.Tensor, target: torch.Tensor, *, n_tags: int,
                 ignore_index: int, word_ids: torch.Tensor | None = None,
                 names: Names = NAMES) -> None:
    """Raise for the first out-of-range label id or non-finite logit at a scored position.

    One device-to-host synchronisation when everything is valid. The
    tensors have passed :func:`nerscore.torch._checks.check_batch`.

    Raises
    ------
    InvalidTagError
        A label id of ``target`` (or of ``preds`` ids) outside
        ``0 .. n_tags - 1`` that is not the ``ignore_index``; ``sentence``
        and ``index`` are its batch and token index.
    InputTypeError
        A NaN or an infinite value in the logits.

    Examples
    --------
    >>> check_values(torch.tensor([[1, 7]]), torch.tensor([[1, 0]]), n_tags=3,
    ...              ignore_index=-100)
    Traceback (most recent call last):
    ...
    nerscore.errors.InvalidTagError: `preds` holds label id 7 at batch 0, token 1 (position [0, 1]); label ids must lie in 0..2 (one per tag of the tag list) or, in the target, be the ignore index -100. Fix the ids or pass the tag list they index.
    """
    scored = target != ignore_index
    t_bad = scored & ((target < 0) | (target >= n_tags))
    if preds.dim() == 3:
        region = scored if word_ids is None else word_ids >= 0
        p_bad = region.unsqueeze(-1) & ~torch.isfinite(preds)
    else:
        p_bad = scored & ((preds < 0) | (preds >= n_tags))
    t_first, p_first = torch.stack([first_true(t_bad), first_true(p_bad)]).tolist()
    if t_first < t_bad.numel():
        _raise(target, t_first, names.target, n_tags, ignore_index)
    if p_first < p_bad.numel():
        _raise(preds, p_first, names.preds, n_tags, ignore_index)


def _raise(x: torch.Tensor, flat: int, name: str, n_tags: int, ignore_index: int) -> None:
    pos = _position(tuple(x.shape), flat)
    value = x.reshape(-1)[flat].item()
    where = f"{_where(pos)} (position {list(pos)})"
    if x.is_floating_point():
        raise InputTypeError(
            f"`{name}` (logits of shape {tuple(x.shape)}) holds {value} at {where}. "
            "NaN or infinite logits have no arg-max to score; check the model's outputs "
            "(a diverged loss, a mask filled with -inf at a scored position).")
    raise InvalidTagError(
        f"`{name}` holds label id {value} at {where}; label ids must lie in "
        f"0..{n_tags - 1} (one per tag of the tag list) or, in the target, be the ignore "
        f"index {ignore_index}. Fix the ids or pass the tag list they index.",
        tag=str(value), sentence=pos[0], index=pos[1])
