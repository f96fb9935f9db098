"""Fixed-shape tensor steps: dropping ignored positions and decoding entity spans.

Every function here keeps the shapes of its inputs (no ``nonzero``, no
boolean-mask indexing, no ``.item()``), so it runs on any device without a
device-to-host synchronisation and can be captured in a CUDA graph.

Entities of one row are disjoint token spans. A side's spans are described
position by position (shape ``(B, L)``):

* ``start[b, x]`` — an entity begins at token ``x``;
* ``stop[b, x]`` — the first boundary ``y > x`` at which an entity may end
  (for a token inside an entity: that entity's end; at a start: the end of
  the entity beginning there);
* ``label[b, x]`` — the label index of token ``x`` (``K`` for outside).
"""

from __future__ import annotations

from typing import NamedTuple

import torch

from nerscore.torch._tables import (
    INSIDE,
    LENIENT_END,
    LENIENT_START,
    STRICT_CLOSE,
    STRICT_START,
    TagTables,
)

__all__ = ["Spans", "compact", "decode_spans", "lookup", "next_boundary", "select"]


def select(mask: torch.Tensor, a: torch.Tensor | int, b: torch.Tensor | int) -> torch.Tensor:
    """``torch.where(mask, a, b)`` for integers, by arithmetic (several times faster on CPU).

    Examples
    --------
    >>> select(torch.tensor([True, False]), torch.tensor([1, 2]), -1).tolist()
    [1, -1]
    """
    return b + mask * (a - b) if isinstance(a, torch.Tensor) else a + ~mask * (b - a)


def lookup(table: torch.Tensor, index: torch.Tensor) -> torch.Tensor:
    """``table[index]`` for a 1-d table (``index_select`` on the flattened index)."""
    return table.index_select(0, index.reshape(-1)).view(index.shape)


class Spans(NamedTuple):
    """The entity spans of one side, position by position (see the module docstring)."""

    start: torch.Tensor
    stop: torch.Tensor
    label: torch.Tensor


def compact(
    preds: torch.Tensor, target: torch.Tensor, ignore_index: int, fill: int
) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """Remove the positions where ``target == ignore_index`` from both sides.

    The remaining tokens of every row move to its front, in order (the
    sequence closes up, so an entity interrupted by ignored positions stays
    one entity); the freed tail is filled with ``fill``. One scatter with a
    destination computed by cumulative sums; no data-dependent shape.

    Returns
    -------
    preds, target : tensor of int64, shape (B, L)
    valid : tensor of bool, shape (B, L)
        The kept tokens (a prefix of every row).

    Examples
    --------
    >>> p, t, v = compact(torch.tensor([[5, 6, 7, 8]]), torch.tensor([[1, -100, 2, 3]]),
    ...                   -100, 0)
    >>> p.tolist(), t.tolist(), v.tolist()
    ([[5, 7, 8, 0]], [[1, 2, 3, 0]], [[True, True, True, False]])
    """
    keep = target != ignore_index
    length = target.shape[1]
    kept = keep.cumsum(1)
    n_kept = kept[:, -1:]
    pos = torch.arange(length, device=target.device)
    # kept tokens go to (number kept so far) - 1, dropped ones after all kept ones
    dest = select(keep, kept - 1, n_kept + pos - kept)
    out_t = torch.empty_like(target).scatter_(1, dest, select(keep, target, fill))
    out_p = torch.empty_like(target).scatter_(1, dest, select(keep, preds, fill))
    return out_p, out_t, pos < n_kept


def next_boundary(boundary: torch.Tensor) -> torch.Tensor:
    """For every token ``x``, the first ``y > x`` with ``boundary[:, y]`` (or ``L``).

    ``boundary`` has shape ``(B, L + 1)``; boundary ``y`` lies before token ``y``.

    Examples
    --------
    >>> next_boundary(torch.tensor([[True, False, True, False, True]])).tolist()
    [[2, 2, 4, 4]]
    """
    length = boundary.shape[1] - 1
    y = torch.arange(1, length + 1, device=boundary.device)
    cand = select(boundary[:, 1:], y, length)
    return cand.flip(1).cummin(1).values.flip(1)


def _pair_flags(ids: torch.Tensor, tables: TagTables, pair: torch.Tensor) -> torch.Tensor:
    """Decoder flags of every (previous, current) pair, shape ``(B, L + 1)``.

    Pair ``y`` is (token ``y - 1``, token ``y``) with the virtual outside id
    before token 0 and after token ``L - 1``.
    """
    v = tables.n_tags
    edge = torch.full_like(ids[:, :1], v)
    ext = torch.cat([edge, ids, edge], 1)
    return lookup(pair, ext[:, :-1] * (v + 1) + ext[:, 1:])


def decode_spans(ids: torch.Tensor, tables: TagTables) -> Spans:
    """Entity spans of compacted tag ids ``(B, L)`` (padding: the virtual outside id).

    ``lenient``: an entity starts at every start event and runs to the next
    end event (the two alternate under the lenient rules). ``strict``
    (seqeval's strict mode): a chunk opens at the first start pattern of a
    run of inside transitions, runs to the end of that run and counts only
    if the pair there closes it.
    """
    label_of, pair = tables.on(ids.device)
    flags = _pair_flags(ids, tables, pair)
    label = lookup(label_of, ids)
    if tables.mode.value == "lenient":
        start = (flags[:, :-1] & LENIENT_START) != 0
        stop = next_boundary((flags & LENIENT_END) != 0)
        return Spans(start, stop, label)
    head = (flags & INSIDE) == 0
    can_start = (flags & STRICT_START) != 0
    stop = next_boundary(head)
    # only the first start of a run of inside transitions opens a chunk
    n_starts = can_start.cumsum(1)
    before_run = (head * (n_starts - can_start.long())).cummax(1).values
    first = can_start & (n_starts - before_run == 1)
    closes = ((flags & STRICT_CLOSE) != 0).gather(1, stop)
    return Spans(first[:, :-1] & closes, stop, label)
