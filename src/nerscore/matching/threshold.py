"""``threshold`` matching (docs/matchers/threshold.md): one-to-one pairs above an overlap threshold.

**Definition.** The Feedback Prize 2021 / ArgMiner rule. Within one
(document, label), a gold span ``g`` and a predicted span ``p`` qualify iff
``|g ∩ p| / |g| ≥ t`` and ``|g ∩ p| / |p| ≥ t`` (inclusive; ``t`` in
``(0, 1]``, default 0.5). Qualifying pairs are taken one-to-one, best first:
larger ``max`` of the two ratios, then larger ``min``, then the earlier gold
span, then the earlier prediction. ``TP`` = pairs, ``FP = |P| − TP``,
``FN = |G| − TP``. Zero-length spans qualify only with an identical span.

**Worked example** (``t = 0.5``): gold ``[0, 10)`` and prediction
``[0, 5)`` qualify (ratios 0.5 and 1); gold ``[0, 10)`` and ``[0, 25)`` do
not (0.4). Gold ``[0, 5) [5, 10)`` against one prediction ``[0, 10)``: one
pair (TP 1), one gold span missed.

**Compat.** ``compat="kaggle"`` reproduces the competition's reference
scoring notebook with its quirks (see :func:`match_threshold`).

**Discontinuous entities** (docs/fragments.md): ``|g|`` is the total length
of g's fragments and ``|g ∩ p|`` the units the two fragment sets share.

**Limitations.** The rule ignores how much of a long span is covered once
the threshold is met; ``t ≤ 0.5`` lets one span qualify with two
neighbours, which the one-to-one assignment then resolves.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from nerscore.errors import InvalidSpanError, option_error
from nerscore.matching.alignment import MatchResult
from nerscore.matching.candidates import (
    alignment_from_pairs,
    candidate_pairs,
    check_contiguous,
    greedy_matching,
    isolated,
)
from nerscore.matching.exact import multiset_pairs, row_keys
from nerscore.matching.registry import Matcher, Option, choice
from nerscore.values.counts import Counts
from nerscore.values.spans import EntityColumns, unify_labels

__all__ = ["MATCHER", "check_t", "match_threshold", "position_rank", "qualifying_pairs"]

IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]

_COMPATS = ("kaggle",)


def check_t(t: object) -> float:
    """Validate the overlap threshold ``t``."""
    if isinstance(t, (int, float, np.integer, np.floating)) and not isinstance(t, bool):
        value = float(t)
        if 0.0 < value <= 1.0:  # NaN fails too
            return value
    raise option_error("t", "a number in (0, 1]", t)


check_compat = choice("compat", (*_COMPATS, None))


def _unique(a: IntArray) -> IntArray:
    """Sorted distinct values (by sorting; faster here than :func:`numpy.unique`)."""
    s = np.sort(a)
    keep = np.ones(len(s), dtype=bool)
    keep[1:] = s[1:] != s[:-1]
    return s[keep]


def _missing(a: IntArray, b: IntArray) -> IntArray:
    """Values of the sorted distinct ``a`` that are not in the sorted distinct ``b``."""
    if len(b) == 0:
        return a
    pos = np.minimum(np.searchsorted(b, a), len(b) - 1)
    out: IntArray = a[b[pos] != a]
    return out


def _by_position(side: EntityColumns) -> IntArray | None:
    """Row order by (document, label, start), or None when already in that order."""
    if len(side) < 2:
        return None
    n_lab = max(len(side.labels), 1)
    width = int(side.start.max()) + 1
    if (side.n_sequences + 1) * n_lab * width < 2**62:
        key = (side.seq * n_lab + side.label) * width + side.start
        if bool(np.all(key[1:] >= key[:-1])):
            return None
        return np.argsort(key, kind="stable").astype(np.int64)  # timsort: nearly sorted input
    return np.lexsort((side.start, side.label, side.seq)).astype(np.int64)


def qualifying_pairs(
    gold: EntityColumns, pred: EntityColumns, t: float
) -> tuple[IntArray, IntArray, FloatArray, FloatArray]:
    """Qualifying pairs ``(gi, pi)`` with their larger and smaller overlap ratio."""
    # candidate search is several times faster on inputs sorted by
    # (document, label, start): its range queries then walk memory in order
    g_order, pred_order = _by_position(gold), _by_position(pred)
    gi, pi, inter = candidate_pairs(
        gold if g_order is None else gold.take(g_order),
        pred if pred_order is None else pred.take(pred_order),
        same_label=True,
    )
    if g_order is not None:
        gi = g_order[gi]
    if pred_order is not None:
        pi = pred_order[pi]
    len_g = gold.lengths()[gi]
    len_p = pred.lengths()[pi]
    zero = len_g == 0  # candidate pairs of zero length are identical spans
    r_g = np.ones(len(gi))
    r_p = np.ones(len(gi))
    np.divide(inter, len_g, out=r_g, where=~zero)
    np.divide(inter, len_p, out=r_p, where=~zero)
    ok = (r_g >= t) & (r_p >= t)
    r_g, r_p = r_g[ok], r_p[ok]
    return gi[ok], pi[ok], np.maximum(r_g, r_p), np.minimum(r_g, r_p)


def position_rank(side: EntityColumns, rows: IntArray) -> IntArray:
    """Rank (indexed by row) of ``rows`` ordered by (start, end, row)."""
    order = rows[np.lexsort((rows, side.end[rows], side.start[rows]))]
    rank = np.zeros(len(side), dtype=np.int64)
    rank[order] = np.arange(len(order), dtype=np.int64)
    return rank


def _one_to_one(
    gold: EntityColumns, pred: EntityColumns,
    gi: IntArray, pi: IntArray, hi: FloatArray, lo: FloatArray,
) -> tuple[IntArray, IntArray]:
    """Greedy one-to-one selection of qualifying pairs, best first.

    Pairs whose gold and prediction qualify with nothing else are taken at
    once; the rest, sorted best first, go through :func:`greedy_matching`.
    """
    alone = isolated(gi, pi, len(gold), len(pred))
    out_g, out_p = [gi[alone]], [pi[alone]]
    rest = np.flatnonzero(~alone)
    if len(rest):
        rg, rp = gi[rest], pi[rest]
        g_rank = position_rank(gold, _unique(rg))
        p_rank = position_rank(pred, _unique(rp))
        order = np.lexsort((p_rank[rp], g_rank[rg], -lo[rest], -hi[rest]))
        rg, rp = rg[order], rp[order]
        taken = greedy_matching(rg, rp, len(gold), len(pred))
        out_g.append(rg[taken])
        out_p.append(rp[taken])
    return np.concatenate(out_g), np.concatenate(out_p)


def _default_pairs(
    gold: EntityColumns, pred: EntityColumns, t: float
) -> tuple[IntArray, IntArray]:
    """Pairs of the default mode: (gold rows, predicted rows).

    Identical spans (same document, label, start and end) have both ratios
    1, the first priority class, and within it gold and predicted copies are
    taken in row order. So they are paired first, one-to-one (the r-th gold
    copy with the r-th predicted copy), exactly as the sequential greedy
    would; those rows can then take part in no other pair. Afterwards every
    identical span left over has no identical partner left, so zero-length
    spans (which pair only with identical spans) drop out, and only the
    remaining rows go through the candidate search and the conflict rounds.
    """
    kg, kp = row_keys(gold, pred)
    eg, ep = multiset_pairs(kg, kp)
    g_used = np.zeros(len(gold), dtype=bool)
    g_used[eg] = True
    p_used = np.zeros(len(pred), dtype=bool)
    p_used[ep] = True
    g_rest = np.flatnonzero(~g_used & (gold.start < gold.end))
    p_rest = np.flatnonzero(~p_used & (pred.start < pred.end))
    if len(g_rest) == 0 or len(p_rest) == 0:
        return eg, ep
    g_sub, p_sub = gold.take(g_rest), pred.take(p_rest)
    gi, pi, hi, lo = qualifying_pairs(g_sub, p_sub, t)
    rg, rp = _one_to_one(g_sub, p_sub, gi, pi, hi, lo)
    return np.concatenate([eg, g_rest[rg]]), np.concatenate([ep, p_rest[rp]])


def _kaggle(gold: EntityColumns, pred: EntityColumns, t: float) -> MatchResult:
    """The Feedback Prize 2021 reference scoring (see :func:`match_threshold`)."""
    check_contiguous(gold, pred, "compat='kaggle'", "the reference scores contiguous spans")
    for side, name in ((gold, "gold"), (pred, "predicted")):
        zero = np.flatnonzero(side.start == side.end)
        if len(zero):
            r = int(zero[0])
            raise InvalidSpanError(
                f"compat='kaggle' cannot score zero-length spans (the reference compares "
                f"sets of word indices); found {len(zero)} {name} span(s), the first "
                f"[{int(side.start[r])}, {int(side.end[r])}) "
                f"{side.labels[int(side.label[r])]} in document {int(side.seq[r])}. "
                "Remove them, or use the default mode (compat=None).",
                document=int(side.seq[r]),
                spans=[(int(side.start[r]), int(side.end[r]), side.labels[int(side.label[r])])],
            )
    n_lab = len(gold.labels)
    gi, pi, hi, _ = qualifying_pairs(gold, pred, t)
    # each gold keeps its qualifying prediction with the largest max ratio
    # (ties: the earliest prediction in input order)
    order = np.lexsort((pi, -hi, gi))
    gi, pi = gi[order], pi[order]
    first = np.ones(len(gi), dtype=bool)
    first[1:] = gi[1:] != gi[:-1]
    sel_g, sel_p = gi[first], pi[first]
    # gold spans of one document with identical extents select as one
    key = row_keys(gold, gold)[0]
    rep = np.zeros(len(sel_g), dtype=bool)
    rep[np.unique(key[sel_g], return_index=True)[1]] = True

    n_gold = np.bincount(gold.label, minlength=n_lab)
    n_pred = np.bincount(pred.label, minlength=n_lab)
    tp = np.bincount(gold.label[sel_g[rep]], minlength=n_lab)
    p_sel = np.zeros(len(pred), dtype=bool)
    p_sel[sel_p] = True
    fp = n_pred - np.bincount(pred.label[p_sel], minlength=n_lab)
    fn = n_gold - np.bincount(gold.label[sel_g], minlength=n_lab)
    # the reference's outer join: one extra FP (FN) per label when some
    # document has gold (predictions) of it but no predictions (gold)
    g_doc = _unique(gold.seq * n_lab + gold.label)
    p_doc = _unique(pred.seq * n_lab + pred.label)
    scored = n_gold > 0
    extra_fp = np.zeros(n_lab, dtype=bool)
    extra_fp[_missing(g_doc, p_doc) % max(n_lab, 1)] = True
    extra_fn = np.zeros(n_lab, dtype=bool)
    extra_fn[_missing(p_doc, g_doc) % max(n_lab, 1)] = True
    fp = fp + (extra_fp & scored)
    fn = fn + (extra_fn & scored)

    table: dict[str, dict[str, Any]] = {}
    for i in np.flatnonzero(scored).tolist():
        t_p, f_p, f_n = int(tp[i]), int(fp[i]), int(fn[i])
        table[gold.labels[i]] = {
            "tp": t_p, "fp": f_p, "fn": f_n, "f1": t_p / (t_p + 0.5 * (f_p + f_n)),
        }
    f1s = [row["f1"] for row in table.values()]
    score = sum(f1s) / len(f1s) if f1s else float("nan")
    counts = Counts(gold.labels, tp, tp + fp, np.where(scored, tp + fn, 0))
    alignment = alignment_from_pairs(gold, pred, sel_g, sel_p, rep.astype(np.float64))
    extra: dict[str, Any] = {"t": t, "compat": "kaggle",
                             "kaggle": {"score": score, "labels": table}}
    note = _join_note(gold.labels, extra_fp & scored, extra_fn & scored)
    if note:
        extra["notes"] = [note]
    return MatchResult(counts, alignment, extra)


def _join_note(labels: tuple[str, ...], added_fp: npt.NDArray[np.bool_],
               added_fn: npt.NDArray[np.bool_]) -> str | None:
    """Say how many FP/FN the reference's outer join added, and for which labels."""
    parts = []
    for added, what, why in ((added_fp, "false positive", "gold of it but no prediction"),
                             (added_fn, "false negative", "predictions of it but no gold")):
        names = [labels[i] for i in np.flatnonzero(added).tolist()]
        if names:
            plural = "s" if len(names) != 1 else ""
            parts.append(f"{len(names)} {what}{plural} ({', '.join(names)}: some document "
                         f"has {why})")
    if not parts:
        return None
    return ("compat='kaggle' adds what the reference's outer join adds, one per label: "
            + " and ".join(parts) + "; n_pred and n_gold include them, so the totals exceed "
            "the number of spans.")


def match_threshold(
    gold: EntityColumns,
    pred: EntityColumns,
    *,
    t: float = 0.5,
    compat: str | None = None,
) -> MatchResult:
    """Match spans one-to-one when both overlap ratios reach a threshold (docs/matchers/threshold.md).

    Parameters
    ----------
    gold, pred : EntityColumns
        Gold and predicted spans (tokens or characters); ``seq`` is the
        document index.
    t : float
        Threshold in ``(0, 1]`` for ``|g ∩ p| / |g|`` and ``|g ∩ p| / |p|``
        (inclusive). ``t=1`` is exact matching.
    compat : {None, "kaggle"}
        ``"kaggle"`` reproduces the Feedback Prize 2021 reference notebook,
        quirks included (see Notes).

    Returns
    -------
    MatchResult
        Counts with ``exact`` = pairs (TP), ``n_pred``, ``n_gold`` per label;
        the alignment lists the pairs (credit 1.0), missed gold and spurious
        predictions. ``extra["t"]`` is the threshold; with
        ``compat="kaggle"`` also ``extra["kaggle"] = {"score": ..., "labels":
        {label: {"tp", "fp", "fn", "f1"}}}``.

    Raises
    ------
    ValueError
        For ``t`` outside ``(0, 1]`` or an unknown ``compat``.
    InvalidSpanError
        For zero-length spans with ``compat="kaggle"`` (outside the
        reference's domain).

    Notes
    -----
    Default mode. Within one (document, label), qualifying pairs are taken
    one-to-one in this order: larger maximum ratio, then larger minimum
    ratio, then the earlier gold span, then the earlier prediction; "earlier"
    means smaller ``(start, end)``, and identical spans fall back to their row
    order (which cannot change any count). The result does not depend on the
    order of documents or spans.

    ``compat="kaggle"``: each gold span keeps its qualifying prediction with
    the largest maximum ratio (ties: the earliest prediction in input
    order), and one prediction may serve several gold spans, each a TP; gold
    spans of one document and label with identical extents count as one.
    ``FP`` = predictions selected by no gold span, plus one for a label when
    some document has gold spans of it but no prediction of it; ``FN`` =
    gold spans with no qualifying prediction, plus one for a label when some
    document has predictions of it but no gold (the reference's outer join).
    Per label ``F1 = TP / (TP + (FP + FN) / 2)``; ``score`` is the mean F1
    over the labels present in gold (NaN when there is no gold at all, as in
    the reference). To keep the counts consistent with that table, a scored
    label reports ``n_pred = TP + FP`` and ``n_gold = TP + FN`` (so P, R and
    F1 from the counts equal the reference's); these can differ from the
    number of spans. Labels only predicted are not scored by the reference;
    their counts are ``TP = 0`` and ``n_pred`` = their predictions. In the
    alignment, every gold span with a selection is paired with it; of gold
    spans with identical extents only the first row has credit 1.0, the
    others 0.0, so the credits add up to TP.

    Source: Feedback Prize - Evaluating Student Writing (Kaggle, 2021),
    evaluation page and reference scoring notebook; ArgMiner.

    Examples
    --------
    >>> from nerscore.values.spans import EntityColumns
    >>> g = EntityColumns([0, 0], [0, 5], [5, 10], [0, 0], ("Claim",))
    >>> p = EntityColumns([0], [0], [10], [0], ("Claim",))
    >>> match_threshold(g, p).counts.to_dict()
    {'Claim': {'tp': 1, 'n_pred': 1, 'n_gold': 2}}
    >>> match_threshold(g, p, compat="kaggle").extra["kaggle"]["score"]
    1.0
    """
    t = check_t(t)
    mode = check_compat(compat)
    gold, pred = unify_labels(gold, pred)
    if mode == "kaggle":
        return _kaggle(gold, pred, t)
    pg, pp = _default_pairs(gold, pred, t)
    n_lab = len(gold.labels)
    counts = Counts(
        gold.labels,
        np.bincount(gold.label[pg], minlength=n_lab),
        np.bincount(pred.label, minlength=n_lab),
        np.bincount(gold.label, minlength=n_lab),
    )
    alignment = alignment_from_pairs(gold, pred, pg, pp, np.ones(len(pg)))
    return MatchResult(counts, alignment, {"t": t})


MATCHER = Matcher.on_entities(
    "threshold",
    "one-to-one pairs overlapping at least t of both spans (Feedback Prize 2021)",
    match_threshold,
    options=(
        Option("t", 0.5, check_t, "threshold in (0, 1] for both overlap ratios"),
        Option("compat", None, check_compat,
               "'kaggle' reproduces the Feedback Prize reference notebook", _COMPATS),
    ),
)
