"""Fixed-shape matching of two sides' spans into per-label count tensors.

``exact``: a gold and a predicted entity match when they start at the same
token, end at the same token and have the same label. Within one row the
entities of a side are disjoint, so a match is a position where both sides
start an entity with equal ``stop`` and ``label``.

``threshold`` (``t`` in ``[0.5, 1]``): a gold span ``g`` and a predicted span
``p`` of the same label qualify when ``|g ∩ p| / |g| >= t`` and
``|g ∩ p| / |p| >= t``; pairs are taken one-to-one, best first (larger
maximum ratio, larger minimum ratio, earlier gold, earlier prediction), as
:func:`nerscore.match_threshold` does. On tensors the greedy reduces to a
closed form:

* Overlapping pairs have disjoint intersections, so each pair is found at
  one position: where its intersection begins (a start of ``g`` or ``p``
  covered by the other span).
* For ``t > 0.5`` a span qualifies with at most one span of the other side
  (two disjoint partners would each need more than half of it): every
  qualifying pair is taken.
* For ``t = 0.5`` a span qualifies with at most two partners, each covering
  exactly half of it, so the qualifying pairs form paths along the sentence
  (two disjoint interval families overlap without cycles). A pair whose two
  spans both have two partners has ratios ``(0.5, 0.5)``, the lowest
  priority; only the two end pairs of a path can rank higher. Ties among
  ``(0.5, 0.5)`` pairs fall to the earlier gold, then the earlier
  prediction, which is left-to-right order along the path. Taking the end
  pairs first and then every other pair from the left gives ``ceil(m / 2)``
  pairs on a path of ``m`` pairs, in every case.

So the true positives of a label are the sum of ``ceil(m / 2)`` over its
paths of qualifying pairs (``m = 1`` throughout when ``t > 0.5``): with the
pairs in position order, consecutive pairs sharing a span form a path, and
the ``k``-th pair of a path (from 0) counts when ``k`` is even. Below 0.5 a
span can have more partners and the greedy order no longer has such a form;
those thresholds are refused.
"""

from __future__ import annotations

import torch

from nerscore.torch._spans import Spans, lookup

__all__ = ["count_labels", "covering", "exact_hits", "min_overlap", "threshold_hits"]

#: largest ``2 (K + 1)^2`` joint table of :func:`count_labels` (beyond: one pass per count)
MAX_JOINT = 1 << 20


def _at_starts(side: Spans, n_labels: int) -> torch.Tensor:
    """The label of every entity at its start; ``n_labels`` elsewhere (int32)."""
    return (side.label - n_labels).mul_(side.start).add_(n_labels)


def count_labels(tp: torch.Tensor, gold: Spans, pred: Spans, n_labels: int) -> torch.Tensor:
    """Per-label ``[tp, n_pred, n_gold]``, shape ``(3, K)``, from matches and starts.

    A match ``tp[b, x]`` lies where the gold or the predicted entity of the
    pair starts, and both have the same label. So one ``scatter_add`` of the
    joint key (match, gold label starting at ``x``, predicted label starting
    at ``x``) into a small fixed-size table gives all three counts (no
    ``bincount``, whose size depends on the data on CUDA).

    Examples
    --------
    >>> s = lambda start, label: Spans(torch.tensor([start]), torch.tensor([[9] * 3]),
    ...                                torch.tensor([label], dtype=torch.int32))
    >>> gold = s([True, False, True], [0, 1, 1])
    >>> pred = s([True, True, False], [0, 0, 1])
    >>> count_labels(torch.tensor([[True, False, False]]), gold, pred, 2).tolist()
    [[1, 0], [2, 0], [1, 1]]
    """
    w = n_labels + 1
    g = _at_starts(gold, n_labels)
    p = _at_starts(pred, n_labels)
    if g.dtype == torch.int16 and 2 * w * w > 1 << 15:  # the keys need int32
        g, p = g.to(torch.int32), p.to(torch.int32)
    ones = torch.ones((), dtype=torch.int64, device=g.device)
    if 2 * w * w > MAX_JOINT:
        hit_label = torch.minimum(g, p).sub_(n_labels).mul_(tp).add_(n_labels)
        flat = torch.cat([g.reshape(-1), (p + w).reshape(-1), (hit_label + 2 * w).reshape(-1)])
        out = torch.zeros(3 * w, dtype=torch.int64, device=g.device)
        out.scatter_add_(0, flat.long(), ones.expand(flat.shape))
        n_gold, n_pred, hits = out.view(3, w)[:, :n_labels]
        return torch.stack([hits, n_pred, n_gold])
    key = g.mul_(w).add_(p).add_(tp, alpha=w * w).reshape(-1).long()  # (tp, g, p)
    joint = torch.zeros(2 * w * w, dtype=torch.int64, device=g.device)
    joint.scatter_add_(0, key, ones.expand(key.shape))
    joint = joint.view(2, w, w)
    n_gold = joint.sum((0, 2))[:n_labels]
    n_pred = joint.sum((0, 1))[:n_labels]
    # a match is labelled by the side that starts there (both, if both do)
    hits = joint[1, :n_labels].sum(1) + joint[1, n_labels, :n_labels]
    return torch.stack([hits, n_pred, n_gold])


def exact_hits(gold: Spans, pred: Spans) -> torch.Tensor:
    """Exactly matched entities, marked at their start."""
    return gold.start & pred.start & (gold.stop == pred.stop) & (gold.label == pred.label)


def _position_bits(length: int) -> tuple[int, torch.dtype]:
    """Bits of a position ``<= length`` and the dtype holding two of them side by side."""
    bits = (length + 1).bit_length()
    return bits, torch.int32 if 2 * bits <= 31 else torch.int64


def covering(side: Spans) -> tuple[torch.Tensor, int]:
    """The span each token lies in, packed: ``stop << bits | first`` (and ``bits``).

    ``first`` is one more than the latest start at or before the token (0
    without one) and ``stop`` the end of the span starting there (0 without
    one); the token lies in that span when ``stop`` is past it. The spans of
    a row are disjoint, so the ends at successive starts grow: one running
    maximum of the packed values at the starts gives both.

    Examples
    --------
    >>> side = Spans(torch.tensor([[True, False, False, True]]), torch.tensor([[2, 2, 4, 4]]),
    ...              torch.zeros(1, 4, dtype=torch.int32))
    >>> latest, bits = covering(side)
    >>> (latest >> bits).tolist(), (latest & ((1 << bits) - 1)).tolist()
    ([[2, 2, 2, 4]], [[1, 1, 1, 4]])
    """
    length = side.start.shape[1]
    bits, dtype = _position_bits(length)
    pos = torch.arange(1, length + 1, dtype=dtype, device=side.start.device)
    packed = side.stop.to(dtype).bitwise_left_shift_(bits).bitwise_or_(pos).mul_(side.start)
    return packed.cummax(1).values, bits


def min_overlap(t: float, length: int, device: torch.device) -> torch.Tensor:
    """``m[n]``: the least overlap ``k`` with ``k / n >= t`` in float64, for ``n <= length``.

    ``k / n`` grows with ``k``, so ``inter / n >= t`` (the float64 test of
    :func:`nerscore.match_threshold`) is ``inter >= m[n]``. ``ceil(n * t)`` is
    off by at most one from ``m[n]`` (one rounding), so ``m[n]`` is the
    least of its neighbours passing the test; built on the device, no copy.

    Examples
    --------
    >>> min_overlap(0.5, 4, torch.device("cpu")).tolist()
    [0, 1, 1, 2, 2]
    """
    n = torch.arange(length + 1, dtype=torch.float64, device=device)
    k = torch.ceil(n * t)
    safe = n.clamp(min=1)
    m = torch.where((k - 1) / safe >= t, k - 1, torch.where(k / safe >= t, k, k + 1))
    return torch.where(n == 0, 0.0, m).to(torch.int32)


def threshold_hits(both: Spans, t: float) -> torch.Tensor:
    """Taken threshold pairs, marked where their overlap begins (see the module docstring).

    ``both`` holds the gold rows, then the predicted rows (``(2B, L)``).
    """
    gold, pred = both.halves()
    b, length = gold.start.shape
    latest, bits = covering(both)
    mask = (1 << bits) - 1
    pos = torch.arange(length, dtype=latest.dtype, device=latest.device)
    stop = latest >> bits
    first = latest & mask  # (one more than the start)
    inside = latest >= ((pos + 1) << bits)  # the token lies in the latest span
    pair = inside[:b] & inside[b:] & (gold.start | pred.start) & (gold.label == pred.label)
    inter = torch.minimum(stop[:b], stop[b:]).sub_(pos)
    need = lookup(min_overlap(t, length, latest.device), stop.sub_(first).add_(1))  # |span|
    qual = pair.logical_and_(inter >= need[:b]).logical_and_(inter >= need[b:])
    if t > 0.5:  # every qualifying pair is taken
        return qual
    # the latest qualifying pair before each one: does it share the gold or the predicted span?
    g_first, p_first = first[:b], first[b:]
    last = (g_first << bits).bitwise_or_(p_first).mul_(qual).cummax(1).values
    prev = torch.cat([torch.zeros_like(last[:, :1]), last[:, :-1]], 1)
    head = qual & ((prev >> bits) != g_first) & ((prev & mask) != p_first)
    seen = qual.cumsum(1, dtype=latest.dtype).sub_(1)  # qualifying pairs before this one
    before_head = (seen * head).cummax(1).values
    return qual & (((seen - before_head) & 1) == 0)  # even position on its path, from 0
