"""Which gold span goes with which prediction under the SemEval schemas (:mod:`nerscore.matching.semeval`).

The pairs of the three alignments the four schemas use — ``strict``,
``bounds`` (shared by ``exact`` and ``partial``) and ``type`` — as gold rows and
predicted rows, formed one of two ways: the order-independent greedy alignment
(:func:`align_default`) or a replay of nervaluate 1.2.1's input-order loops
(:func:`nervaluate_pairs`); and the checks of the sides they need
(:func:`prepare_sides`, :func:`check_nervaluate_domain`). How the pairs are
counted and scored is :mod:`nerscore.matching.semeval`'s.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import numpy.typing as npt

from nerscore.errors import InvalidSpanError
from nerscore.matching.candidates import greedy_matching, isolated
from nerscore.values.fragments import same_fragments
from nerscore.values.spans import EntityColumns, unify_labels

__all__ = ["align_default", "check_nervaluate_domain", "nervaluate_pairs", "prepare_sides"]

IntArray = npt.NDArray[np.int64]

# Conflict sets up to this size are resolved by a plain loop; larger ones by rounds
# of "locally best" edges, which take whole batches of pairs at once.
_SMALL = 2048


def prepare_sides(gold: EntityColumns, pred: EntityColumns) -> tuple[EntityColumns, EntityColumns]:
    """One sorted label vocabulary for both sides; reject reversed or negative spans."""
    gold, pred = unify_labels(gold, pred)
    if list(gold.labels) != sorted(gold.labels):
        vocab = sorted(gold.labels)
        gold, pred = gold.with_labels(vocab), pred.with_labels(vocab)
    _refuse(gold, pred, lambda c: (c.start > c.end) | (c.start < 0),
            "{n} {side} span(s) need 0 <= start <= end; the first is {first} in sequence "
            "{seq}. Fix the offsets (spans are half-open: end is exclusive).")
    return gold, pred


def _refuse(gold: EntityColumns, pred: EntityColumns,
            wrong: Callable[[EntityColumns], npt.NDArray[np.bool_]], message: str) -> None:
    """Raise InvalidSpanError for the first side with spans that ``wrong`` marks.

    ``message`` is formatted with ``n`` (how many), ``side``, ``first`` (the
    first such span) and ``seq`` (its sequence); the error lists up to 20.
    """
    for side, cols in (("gold", gold), ("predicted", pred)):
        bad = np.flatnonzero(wrong(cols))
        if len(bad):
            spans = [(int(cols.start[r]), int(cols.end[r]), cols.labels[int(cols.label[r])])
                     for r in bad[:20].tolist()]
            s, e, lab = spans[0]
            seq = int(cols.seq[bad[0]])
            raise InvalidSpanError(
                message.format(n=len(bad), side=side, first=f"({s}, {e}, {lab!r})", seq=seq),
                document=seq, spans=spans)


# ---------------------------------------------------------------------------
# default alignment: one-to-one greedy in priority order


def align_default(
    gold: EntityColumns, pred: EntityColumns, gi: IntArray, pi: IntArray, ov: IntArray
) -> dict[str, tuple[IntArray, IntArray]]:
    """The strict, bounds and type alignments as (gold rows, pred rows) of the pairs."""
    simple = isolated(gi, pi, len(gold), len(pred))  # taken by every schema
    c = np.flatnonzero(~simple)
    if len(c) == 0:
        return {name: (gi, pi) for name in ("strict", "bounds", "type")}
    cg, cp, cov = gi[c], pi[c], ov[c]
    gs, ge, gl = gold.start[cg], gold.end[cg], gold.label[cg]
    ps, pe, pl = pred.start[cp], pred.end[cp], pred.label[cp]
    same_bounds = same_fragments(gold, cg, pred, cp)
    same_label = gl == pl
    # every tie-break below the priority class, most significant last (np.lexsort)
    base = np.lexsort((cp, cg, pl, gl, pe, ge, ~same_label, ps, gs, -cov))
    ug, lg = np.unique(cg, return_inverse=True)
    up, lp = np.unique(cp, return_inverse=True)
    lg, lp = lg.reshape(-1), lp.reshape(-1)
    classes = {
        "strict": ~(same_bounds & same_label),
        "bounds": ~same_bounds,
        "type": ~same_label,
    }
    out = {}
    for name, worse in classes.items():
        order = base[np.argsort(worse[base], kind="stable")]
        taken = order[greedy_matching(lg[order], lp[order], len(ug), len(up), small=_SMALL)]
        mask = simple.copy()
        mask[c[taken]] = True
        rows = np.flatnonzero(mask)
        out[name] = (gi[rows], pi[rows])
    return out


# ---------------------------------------------------------------------------
# compat="nervaluate": input-order greedy matching, per prediction


def nervaluate_pairs(
    gold: EntityColumns, pred: EntityColumns, gi: IntArray, pi: IntArray, ov: IntArray
) -> dict[str, tuple[IntArray, IntArray]]:
    """The pairs nervaluate 1.2.1 forms: the strict, bounds and type alignments.

    ``gi, pi, ov`` are the overlapping pairs; rows are in input order inside
    each sequence. A pair whose prediction and gold span overlap nothing else
    is formed by every strategy; the rest are replayed one by one.
    """
    # nervaluate's "sufficient overlap": at least 1% of the gold span (inclusive ends)
    glen = (gold.end - gold.start)[gi]
    ok = (ov / glen) * 100.0 >= 1.0
    gi, pi, ov = gi[ok], pi[ok], ov[ok]
    simple = isolated(gi, pi, len(gold), len(pred))
    c = np.flatnonzero(~simple)
    # conflicts: replay nervaluate's loops, predictions in row order, golds in row order
    c = c[np.lexsort((gi[c], pi[c]))]
    cg, cp = gi[c], pi[c]
    same_bounds = (gold.start[cg] == pred.start[cp]) & (gold.end[cg] == pred.end[cp])
    same_label = gold.label[cg] == pred.label[cp]
    dist = np.abs(gold.start[cg] - pred.start[cp]) + np.abs(gold.end[cg] - pred.end[cp])
    chosen = _replay(cg.tolist(), cp.tolist(), same_bounds.tolist(), same_label.tolist(),
                     dist.tolist(), len(gold))
    out = {}
    for name, picks in chosen.items():
        mask = simple.copy()
        mask[c[np.asarray(picks, dtype=np.int64)]] = True
        rows = np.flatnonzero(mask)
        out[name] = (gi[rows], pi[rows])
    return out


def _replay(
    eg: list[int], ep: list[int], sb: list[bool], sl: list[bool], dist: list[int], n_gold: int
) -> dict[str, list[int]]:
    """Replay nervaluate's per-prediction loops over the conflicting pairs (by prediction)."""
    # nervaluate's exact and partial strategies pick the same pairs: keep one ("bounds")
    matched = {name: bytearray(n_gold) for name in ("strict", "bounds", "type")}
    picks: dict[str, list[int]] = {name: [] for name in matched}
    exact_of = {"strict": [a and b for a, b in zip(sb, sl, strict=True)], "bounds": sb}
    n = len(eg)
    a = 0
    while a < n:
        b = a
        while b < n and ep[b] == ep[a]:
            b += 1
        for name, is_exact in exact_of.items():
            used = matched[name]
            first = -1
            pick = -1
            for k in range(a, b):
                if used[eg[k]]:
                    continue
                if is_exact[k]:
                    pick = k
                    break
                if first < 0:
                    first = k
            pick = pick if pick >= 0 else first
            if pick >= 0:
                used[eg[pick]] = 1
                picks[name].append(pick)
        used = matched["type"]
        best = -1
        first = -1
        for k in range(a, b):
            if used[eg[k]]:
                continue
            if sl[k]:
                if best < 0 or dist[k] < dist[best]:
                    best = k
            elif first < 0:
                first = k
        pick = best if best >= 0 else first
        if pick >= 0:
            used[eg[pick]] = 1
            picks["type"].append(pick)
        a = b
    return picks


def check_nervaluate_domain(gold: EntityColumns, pred: EntityColumns) -> None:
    """Reject zero-length spans: nervaluate's spans have inclusive ends."""
    _refuse(gold, pred, lambda c: c.start == c.end,
            "compat='nervaluate' cannot score zero-length spans: {n} {side} span(s) have "
            "start == end, the first {first} in sequence {seq}. nervaluate's spans have "
            "inclusive ends, so they need end > start; drop those spans or use the default "
            "alignment (compat=None).")
