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

from nerscore.torch._spans import Spans, lookup, select

__all__ = ["count_labels", "covering", "exact_hits", "min_overlap", "threshold_hits"]

#: largest ``2 (K + 1)^2`` joint table of :func:`count_labels` (beyond: one pass per count)
MAX_JOINT = 1 << 20


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
    ...                                torch.tensor([label]))
    >>> gold = s([True, False, True], [0, 1, 1])
    >>> pred = s([True, True, False], [0, 0, 1])
    >>> count_labels(torch.tensor([[True, False, False]]), gold, pred, 2).tolist()
    [[1, 0], [2, 0], [1, 1]]
    """
    w = n_labels + 1
    g = select(gold.start, gold.label, n_labels)
    p = select(pred.start, pred.label, n_labels)
    if 2 * w * w > MAX_JOINT:
        hit_label = select(tp, torch.minimum(g, p), n_labels)
        flat = torch.cat([g.reshape(-1), (p + w).reshape(-1), (hit_label + 2 * w).reshape(-1)])
        out = torch.zeros(3 * w, dtype=torch.int64, device=g.device)
        out.scatter_add_(0, flat, torch.ones_like(flat))
        n_gold, n_pred, hits = out.view(3, w)[:, :n_labels]
        return torch.stack([hits, n_pred, n_gold])
    key = (tp.long() * w + g) * w + p
    joint = torch.zeros(2 * w * w, dtype=torch.int64, device=g.device)
    joint.scatter_add_(0, key.reshape(-1), torch.ones_like(key.reshape(-1)))
    joint = joint.view(2, w, w)
    n_gold = joint.sum((0, 2))[:n_labels]
    n_pred = joint.sum((0, 1))[:n_labels]
    # a match is labelled by the side that starts there (both, if both do)
    hits = joint[1, :n_labels].sum(1) + joint[1, n_labels, :n_labels]
    return torch.stack([hits, n_pred, n_gold])


def exact_hits(gold: Spans, pred: Spans) -> torch.Tensor:
    """Exactly matched entities, marked at their start."""
    return gold.start & pred.start & (gold.stop == pred.stop) & (gold.label == pred.label)


def covering(side: Spans) -> tuple[torch.Tensor, torch.Tensor]:
    """``(first, covered)``: the start of the span covering each token, and whether one does.

    ``first`` is the latest start at or before the token; the token lies in
    that span when both share the same ``stop``.
    """
    length = side.start.shape[1]
    pos = torch.arange(length, device=side.start.device)
    first = select(side.start, pos, -1).cummax(1).values
    at_first = side.stop.gather(1, first.clamp(min=0))
    return first, (first >= 0) & (at_first == side.stop)


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
    return torch.where(n == 0, 0.0, m).long()


def threshold_hits(gold: Spans, pred: Spans, t: float) -> torch.Tensor:
    """Taken threshold pairs, marked where their overlap begins (see the module docstring)."""
    g_first, g_cov = covering(gold)
    p_first, p_cov = covering(pred)
    length = gold.start.shape[1]
    pos = torch.arange(length, device=gold.start.device)
    pair = g_cov & p_cov & (gold.start | pred.start) & (gold.label == pred.label)
    inter = torch.minimum(gold.stop, pred.stop) - pos
    m = min_overlap(t, length, gold.start.device)
    len_g = (gold.stop - g_first).clamp(0, length)
    len_p = (pred.stop - p_first).clamp(0, length)
    qual = pair & (inter >= lookup(m, len_g)) & (inter >= lookup(m, len_p))
    # previous qualifying pair of the row: does it share the gold or the predicted span?
    prev_g = select(qual, g_first, -1).cummax(1).values
    prev_p = select(qual, p_first, -1).cummax(1).values
    prev_g = torch.cat([torch.full_like(prev_g[:, :1], -1), prev_g[:, :-1]], 1)
    prev_p = torch.cat([torch.full_like(prev_p[:, :1], -1), prev_p[:, :-1]], 1)
    head = qual & (g_first != prev_g) & (p_first != prev_p)
    seen = qual.cumsum(1)  # qualifying pairs so far, this one included
    before_head = (head * (seen - 1)).cummax(1).values
    rank = seen - 1 - before_head  # position of the pair on its path, from 0
    return qual & ((rank & 1) == 0)
