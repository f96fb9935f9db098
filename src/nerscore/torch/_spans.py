"""Fixed-shape tensor steps: dropping ignored positions and decoding entity spans.

Every function here keeps the shapes of its inputs (no ``nonzero``, no
boolean-mask indexing, no ``.item()``), so it runs on any device without a
device-to-host synchronisation and can be captured in a CUDA graph. Tag
ids, labels and positions are int16 (int32 for very long rows: a quarter or
half the memory traffic of int64); only the indices of ``scatter`` are
int64, as it requires.

Entities of one row are disjoint token spans. A side's spans are described
position by position (shape ``(B, L)``):

* ``start[b, x]`` — an entity begins at token ``x``;
* ``stop[b, x]`` — the first boundary ``y > x`` at which an entity may end
  (for a token inside an entity: that entity's end; at a start: the end of
  the entity beginning there; after the last boundary of a row, a value
  above ``L``);
* ``label[b, x]`` — the label index of token ``x`` (``K`` for outside).

Both sides are decoded together: the gold rows, then the predicted rows, of
one ``(2B, L)`` tensor.
"""

from __future__ import annotations

from typing import NamedTuple

import torch

from nerscore.errors import InputTypeError
from nerscore.torch._tables import CLOSE, MAX_INT16_LENGTH, TagTables, far_bit

__all__ = ["MAX_LENGTH", "Spans", "compact", "decode_spans", "lookup", "next_boundary",
           "small_dtype"]

#: Longest row the decoders take (positions are int32 at most, with the far bit above them).
MAX_LENGTH = (1 << 29) - 1


def lookup(table: torch.Tensor, index: torch.Tensor) -> torch.Tensor:
    """``table[index]`` for a 1-d table (``index_select`` on the flattened index)."""
    return table.index_select(0, index.reshape(-1)).view(index.shape)


class Spans(NamedTuple):
    """The entity spans of one side, position by position (see the module docstring)."""

    start: torch.Tensor
    stop: torch.Tensor
    label: torch.Tensor

    def halves(self) -> tuple[Spans, Spans]:
        """The gold and the predicted spans of a stacked ``(2B, L)`` decoding."""
        b = self.start.shape[0] // 2
        return (Spans(self.start[:b], self.stop[:b], self.label[:b]),
                Spans(self.start[b:], self.stop[b:], self.label[b:]))


def small_dtype(length: int) -> torch.dtype:
    """The dtype of tag ids, labels and positions of rows of ``length`` tokens.

    int16 up to :data:`~nerscore.torch._tables.MAX_INT16_LENGTH` tokens, else int32.
    """
    return torch.int16 if length <= MAX_INT16_LENGTH else torch.int32


def compact(
    preds: torch.Tensor, target: torch.Tensor, ignore_index: int, tables: TagTables,
) -> tuple[torch.Tensor, torch.Tensor]:
    """Both sides' tag ids without the positions where ``target == ignore_index``.

    The kept tokens of every row move to its front, in order (the sequence
    closes up, so an entity interrupted by ignored positions stays one
    entity), gold in rows ``[0, B)`` and the prediction in rows ``[B, 2B)``
    of one tensor, between a virtual outside id ``V`` before and after every
    row (which also fills the freed tail). The ids are looked up in a table
    of ``[0, V)``, so any other id fails (the ignored positions are read as
    id 0: what lies there is never checked). One scatter per side with a
    destination computed by a cumulative sum; no data-dependent shape.

    Returns
    -------
    ids : tensor of int16 or int32, shape (2B, L + 3)
        Column 0 and the columns from ``L + 1`` on are the virtual id (the
        last one is where the ignored positions went).
    tokens : tensor of int64, shape (2,)
        Kept tokens, and those whose predicted id equals the target's.

    Examples
    --------
    >>> from nerscore.torch._tables import tag_tables
    >>> tt = tag_tables(("O", "B-X", "I-X"), None, "lenient")
    >>> ids, tokens = compact(torch.tensor([[1, 0, 2, 2]]), torch.tensor([[1, -100, 2, 0]]),
    ...                       -100, tt)
    >>> ids[:, :-1].tolist(), tokens.tolist()
    ([[3, 1, 2, 0, 3, 3], [3, 1, 2, 2, 3, 3]], [3, 2])
    """
    rows, length = target.shape
    dtype = small_dtype(length)
    table = tables.on(target.device, dtype).ids
    keep = target != ignore_index
    gold = lookup(table, target.long() * keep)
    pred = lookup(table, preds.long() * keep)
    tokens = torch.stack([keep.sum(), ((gold == pred) & keep).sum()])
    # kept tokens go to (number kept so far) - 1, dropped ones to the last column
    dest = keep.cumsum(1)  # int64, as scatter wants
    dest.sub_(length + 2).mul_(keep).add_(length + 1)
    ids = torch.full((2 * rows, length + 3), tables.n_tags, dtype=dtype, device=target.device)
    ids[:rows, 1:].scatter_(1, dest, gold)
    ids[rows:, 1:].scatter_(1, dest, pred)
    return ids, tokens


def next_boundary(key: torch.Tensor) -> torch.Tensor:
    """Reverse running minimum: ``out[:, x] = min(key[:, x:])``.

    With ``key[:, x]`` the boundary after token ``x`` encoded so that nearer
    boundaries are smaller (``2 y + flag``, and the far bit added where
    there is none), it gives for every token the next boundary and its flag.

    Examples
    --------
    >>> next_boundary(torch.tensor([[4, 9, 8, 7]])).tolist()
    [[4, 7, 7, 7]]
    """
    return key.flip(1).cummin(1).values.flip(1)


def decode_spans(ids: torch.Tensor, tables: TagTables) -> Spans:
    """Entity spans of the compacted ids of :func:`compact`: ``(2B, L)`` tensors.

    The gold rows come first. ``lenient``: an entity starts at every start
    event and runs to the next end event (the two alternate under the
    lenient rules). ``strict`` (seqeval's strict mode): a chunk opens at the
    first start pattern of a run of inside transitions, runs to the end of
    that run and counts only if the pair there closes it.
    """
    length = ids.shape[1] - 3
    if length > MAX_LENGTH:
        raise InputTypeError(f"Expected sequences of at most {MAX_LENGTH} tokens; got "
                             f"{length}.")
    dev, bits = tables.on(ids.device, ids.dtype), tables.id_bits
    # pair y: (token y - 1, token y), the virtual id before token 0 and after token L - 1
    key = (ids[:, :length + 1].to(torch.int32) << bits).bitwise_or_(ids[:, 1:length + 2])
    flags = lookup(dev.pair, key)  # (2B, L + 1)
    label = lookup(dev.label, key)[:, :length]
    can_start = lookup(dev.start, key)
    far = far_bit(ids.dtype)
    y2 = torch.arange(2, 2 * length + 2, 2, dtype=ids.dtype, device=ids.device)
    # the boundary after token x: pair x + 1; nearer boundaries have smaller keys (the
    # pair table holds just the far and close bits). After the last boundary of a row
    # (no entity there) the stop is above L.
    nearest = next_boundary(flags[:, 1:] + y2)
    stop = nearest >> 1
    if tables.mode.value == "lenient":
        return Spans(can_start[:, :length], stop, label)
    closes = (nearest & CLOSE) != 0  # (a run always ends at the last pair: never far)
    if not tables.starts_in_runs:  # a start pattern always begins a run
        return Spans(can_start[:, :length] & closes, stop, label)
    # only the first start pattern of a run of inside transitions opens a chunk
    head = (flags & far) == 0
    n_starts = can_start.cumsum(1, dtype=torch.int32)
    before_run = (n_starts - can_start.int()).mul_(head).cummax(1).values
    first = can_start[:, :-1] & ((n_starts - before_run)[:, :-1] == 1)
    return Spans(first & closes, stop, label)
