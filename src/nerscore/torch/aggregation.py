"""Subword to word aggregation of token-classification outputs, on tensors.

A word is the set of subword positions sharing one ``word_ids`` value in a
row (negative: special tokens and padding, never part of a word). Words are
laid out in a ``(B, L, C)`` tensor at the slot ``word id - smallest word id
of the row`` (so windows of long documents whose word ids do not start at 0
work too); slots without a subword are empty and ignored by the scorers.

Strategies (``C`` scores per subword):

``first``
    The first subword's scores.
``mean_logits``
    The mean of the subwords' logits.
``max_per_class``
    The element-wise maximum of the subwords' logits.
``hf_average``
    The mean of the subwords' softmax probabilities (Hugging Face's
    token-classification pipeline, ``aggregation_strategy="average"``).
``hf_max``
    The probabilities of the subword whose largest probability is highest,
    the first such subword on ties (the pipeline's ``"max"``).

The word label is the arg-max of the aggregated scores. Everything is
fixed-shape (scatter with a reduction into a buffer with one spare slot for
positions outside every word).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

import torch

from nerscore.errors import OptionError
from nerscore.torch._checks import NAMES, check_scores, check_target, check_word_ids
from nerscore.torch._options import STRATEGIES, check_choice

__all__ = ["STRATEGIES", "aggregate_subwords", "word_ids_tensor", "word_targets"]


class _Encoding(Protocol):
    def word_ids(self, batch_index: int = 0) -> list[int | None]: ...

    def __getitem__(self, key: str) -> Any: ...


def word_ids_tensor(batch_encoding: _Encoding, *, device: torch.device | str | None = None,
                    length: int | None = None) -> torch.Tensor:
    """The ``(B, L)`` word-id tensor of a tokenizer's ``BatchEncoding`` (``None`` -> ``-1``).

    Parameters
    ----------
    batch_encoding : BatchEncoding
        The output of a fast tokenizer (anything with ``.word_ids(i)`` and
        ``["input_ids"]``).
    device : torch.device or str, optional
        Where to put the tensor.
    length : int, optional
        Pad (with ``-1``) or cut every row to this length (default: the
        longest row).

    Examples
    --------
    >>> class Enc:
    ...     def __init__(self, rows): self.rows = rows
    ...     def __getitem__(self, key): return [[0] * len(r) for r in self.rows]
    ...     def word_ids(self, i): return self.rows[i]
    >>> word_ids_tensor(Enc([[None, 0, 0, 1, None], [None, 0, None]])).tolist()
    [[-1, 0, 0, 1, -1], [-1, 0, -1, -1, -1]]
    """
    n = len(batch_encoding["input_ids"])
    rows: list[Sequence[int | None]] = [batch_encoding.word_ids(i) for i in range(n)]
    width = max((len(r) for r in rows), default=0) if length is None else length
    out = torch.full((n, width), -1, dtype=torch.int64)
    for i, row in enumerate(rows):
        vals = [-1 if w is None else int(w) for w in row[:width]]
        if vals:
            out[i, : len(vals)] = torch.tensor(vals, dtype=torch.int64)
    return out.to(device) if device is not None else out


def _slots(word_ids: torch.Tensor) -> torch.Tensor:
    """Word slot of every position; ``L`` (the spare slot) outside every word."""
    length = word_ids.shape[1]
    if length == 0:  # no position, no word (and no minimum to take)
        return word_ids.long()
    in_word = word_ids >= 0
    big = torch.iinfo(torch.int64).max
    masked = torch.where(in_word, word_ids.long(), big)
    rel = masked - masked.amin(1, keepdim=True)
    return torch.where(in_word & (rel < length), rel, length)


def _first_positions(slots: torch.Tensor) -> torch.Tensor:
    """First position of every word slot ``(B, L)``; ``L`` for an empty slot."""
    b, length = slots.shape
    pos = torch.arange(length, device=slots.device).expand(b, length)
    first = torch.full((b, length + 1), length, dtype=torch.int64, device=slots.device)
    first.scatter_reduce_(1, slots, pos, "amin", include_self=True)
    return first[:, :length]


def word_targets(target: torch.Tensor, word_ids: torch.Tensor, *,
                 ignore_index: int = -100) -> torch.Tensor:
    """Word-level targets ``(B, L)``: the label of each word's first subword.

    Empty word slots (and words whose first subword is ``ignore_index``) are
    ``ignore_index``.

    Examples
    --------
    >>> word_targets(torch.tensor([[-100, 1, -100, 2, -100]]),
    ...              torch.tensor([[-1, 0, 0, 1, -1]])).tolist()
    [[1, 2, -100, -100, -100]]
    """
    target = check_target(target, None, NAMES)
    word_ids = check_word_ids(word_ids, tuple(target.shape), "word_ids", "target")
    first = _first_positions(_slots(word_ids))
    length = target.shape[1]
    got = target.gather(1, first.clamp(max=max(length - 1, 0)))
    return torch.where(first < length, got, ignore_index)


def aggregate_subwords(scores: torch.Tensor, word_ids: torch.Tensor,
                       strategy: str = "first") -> tuple[torch.Tensor, torch.Tensor]:
    """Aggregate subword scores ``(B, L, C)`` into word scores ``(B, L, C)``.

    Parameters
    ----------
    scores : tensor, shape (B, L, C)
        Logits of every subword (``first`` also takes label ids ``(B, L)``).
    word_ids : tensor of int, shape (B, L)
        Word index of every subword; negative for special tokens and padding.
    strategy : str
        One of :data:`STRATEGIES` (see the module docstring).

    Returns
    -------
    word_scores : tensor, shape (B, L, C) (or (B, L) ids for ``first`` on ids)
        Zero in empty slots.
    has_word : tensor of bool, shape (B, L)
        The slots holding a word.

    Examples
    --------
    >>> logits = torch.tensor([[[0.0, 0.0], [1.0, 0.0], [0.0, 3.0], [2.0, 0.0]]])
    >>> w, has = aggregate_subwords(logits, torch.tensor([[-1, 0, 0, 1]]), "mean_logits")
    >>> w[0, :2].tolist(), has.tolist()
    ([[0.5, 1.5], [2.0, 0.0]], [[True, True, False, False]])
    >>> aggregate_subwords(logits, torch.tensor([[-1, 0, 0, 1]]), "hf_max")[0].argmax(-1)
    tensor([[1, 0, 0, 0]])
    """
    check_choice("strategy", strategy, STRATEGIES)
    scores = check_scores(scores, "scores")
    ids_only = scores.dim() == 2
    if ids_only and strategy != "first":
        raise OptionError(f"strategy={strategy!r} needs logits of shape (B, L, C); label "
                          "ids (B, L) can only be aggregated with strategy='first'.",
                          option="strategy")
    word_ids = check_word_ids(word_ids, tuple(scores.shape[:2]), "word_ids", "scores")
    slots = _slots(word_ids)
    first = _first_positions(slots)
    length = scores.shape[1]
    has_word = first < length
    if strategy == "first" and ids_only:
        got = scores.gather(1, first.clamp(max=max(length - 1, 0)))
        return torch.where(has_word, got, 0), has_word
    n_cls = scores.shape[2]
    b = scores.shape[0]
    idx = slots.unsqueeze(-1).expand(-1, -1, n_cls)
    keep = has_word.unsqueeze(-1)
    if strategy == "first":
        got = scores.gather(1, first.clamp(max=max(length - 1, 0)).unsqueeze(-1)
                            .expand(-1, -1, n_cls))
        return torch.where(keep, got, 0), has_word
    if strategy == "max_per_class":
        buf = torch.full((b, length + 1, n_cls), float("-inf"), dtype=scores.dtype,
                         device=scores.device)
        buf.scatter_reduce_(1, idx, scores, "amax", include_self=True)
        return torch.where(keep, buf[:, :length], 0), has_word
    if strategy == "mean_logits":
        return _mean(scores, slots, idx, length) * keep, has_word
    probs = scores.softmax(-1)
    if strategy == "hf_average":
        return _mean(probs, slots, idx, length) * keep, has_word
    # hf_max: the first subword whose top probability is the word's highest
    top = probs.amax(-1)
    best = torch.full((b, length + 1), float("-inf"), dtype=top.dtype, device=top.device)
    best.scatter_reduce_(1, slots, top, "amax", include_self=True)
    pos = torch.arange(length, device=scores.device).expand(b, length)
    is_best = top == best.gather(1, slots)
    where = torch.full((b, length + 1), length, dtype=torch.int64, device=scores.device)
    where.scatter_reduce_(1, slots, torch.where(is_best, pos, length), "amin", include_self=True)
    pick = where[:, :length].clamp(max=max(length - 1, 0))
    got = probs.gather(1, pick.unsqueeze(-1).expand(-1, -1, n_cls))
    return torch.where(keep, got, 0), has_word


def _mean(values: torch.Tensor, slots: torch.Tensor, idx: torch.Tensor,
          length: int) -> torch.Tensor:
    b, _, n_cls = values.shape
    total = torch.zeros((b, length + 1, n_cls), dtype=values.dtype, device=values.device)
    total.scatter_add_(1, idx, values)
    count = torch.zeros((b, length + 1), dtype=values.dtype, device=values.device)
    count.scatter_add_(1, slots, torch.ones_like(slots, dtype=values.dtype))
    return (total / count.clamp(min=1).unsqueeze(-1))[:, :length]
