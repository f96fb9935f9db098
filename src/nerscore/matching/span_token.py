"""``token`` scores of span inputs (docs/matchers/token.md): units (characters or tokens) per label.

Every span covers the units ``start .. end - 1`` of its document (characters
for character offsets, tokens for token offsets). Per label, a unit is gold
if some gold span of that label covers it, predicted likewise, and a true
positive when both are true; a unit covered twice by one side counts once,
and a unit covered by spans of two labels counts under each label (nested
entities of different labels). Zero-length spans cover no unit, and a
discontinuous span covers the units of its fragments only (not those of its
gaps; docs/fragments.md). There is no "outside" class and no accuracy: span
inputs carry no per-unit tags.

The computation never expands spans into units: per (document, label) the
spans are merged into disjoint intervals and the two sides intersected with
one sorted sweep, all in NumPy.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from nerscore.values.counts import Counts
from nerscore.values.spans import EntityColumns, unify_labels

__all__ = ["span_token_counts"]

IntArray = npt.NDArray[np.int64]


def _order(group: IntArray, pos: IntArray, big: int) -> IntArray:
    """Row order by (group, pos): one int64 key when it fits (timsort merges sorted runs)."""
    if len(group) == 0 or int(group.max()) < (2**62) // big:
        return np.argsort(group * big + pos, kind="stable")
    return np.lexsort((pos, group))


def _union(cols: EntityColumns, n_lab: int) -> tuple[IntArray, IntArray, IntArray]:
    """Disjoint sorted intervals per group ``seq * n_lab + label``: (group, start, end)."""
    keep = cols.end > cols.start
    g = cols.seq[keep] * n_lab + cols.label[keep]
    s = cols.start[keep]
    e = cols.end[keep]
    if len(g) == 0:
        z = np.zeros(0, dtype=np.int64)
        return z, z, z
    big = int(e.max()) + 1
    order = _order(g, s, big)
    g, s, e = g[order], s[order], e[order]
    # running maximum of ends inside each group (groups are sorted, so offsetting
    # every value by group * big makes one global running maximum restart per group)
    reach = np.maximum.accumulate(e + g * big)
    prev = np.empty_like(reach)
    prev[0] = -1
    prev[1:] = reach[:-1]
    new = np.ones(len(g), dtype=bool)
    new[1:] = (g[1:] != g[:-1]) | (s[1:] + g[1:] * big > prev[1:])
    heads = np.flatnonzero(new)
    return g[heads], s[heads], np.maximum.reduceat(e, heads)


def _label_sums(g: IntArray, weights: IntArray, n_lab: int) -> IntArray:
    """Sum ``weights`` per label (``g % n_lab``); exact for sums below 2**53."""
    if n_lab == 0:
        return np.zeros(0, dtype=np.int64)
    return np.bincount(g % n_lab, weights=weights, minlength=n_lab).astype(np.int64)


def span_token_counts(gold: EntityColumns, pred: EntityColumns) -> Counts:
    """Per-label unit counts of two span corpora (see the module docstring).

    Parameters
    ----------
    gold, pred : EntityColumns
        Both sides; ``seq`` is the document index.

    Returns
    -------
    Counts
        Per label: units in both (``tp``), predicted units, gold units.

    Examples
    --------
    >>> from nerscore.values.spans import EntityColumns
    >>> g = EntityColumns([0, 0], [0, 10], [4, 16], [0, 1], ("LOC", "PER"))
    >>> p = EntityColumns([0, 0, 1], [0, 12, 0], [6, 16, 3], [0, 1, 1], ("LOC", "PER"))
    >>> span_token_counts(g, p).to_dict()
    {'LOC': {'tp': 4, 'n_pred': 6, 'n_gold': 4}, 'PER': {'tp': 4, 'n_pred': 7, 'n_gold': 6}}
    """
    gold, pred = unify_labels(gold.pieces(), pred.pieces())
    n_lab = len(gold.labels)
    gg, gs, ge = _union(gold, n_lab)
    pg, ps, pe = _union(pred, n_lab)
    # sweep: +1 at every start, -1 at every end; where two intervals are open
    # (one per side, as each side's intervals are disjoint) the units are shared
    grp = np.concatenate([gg, gg, pg, pg])
    pos = np.concatenate([gs, ge, ps, pe])
    delta = np.concatenate([np.ones_like(gs), -np.ones_like(ge),
                            np.ones_like(ps), -np.ones_like(pe)])
    order = _order(grp, pos, int(pos.max(initial=0)) + 1)
    grp, pos, delta = grp[order], pos[order], delta[order]
    cover = np.cumsum(delta)
    both = (cover[:-1] == 2) & (grp[1:] == grp[:-1])
    shared = _label_sums(grp[:-1][both], np.diff(pos)[both], n_lab)
    return Counts(gold.labels, shared, _label_sums(pg, pe - ps, n_lab),
                  _label_sums(gg, ge - gs, n_lab))
