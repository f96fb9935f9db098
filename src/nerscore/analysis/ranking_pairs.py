"""Score-ordered greedy matching for ``overlap`` and ``semeval``: what each prediction earns.

Both matchers pair a gold entity with at most one prediction and give the
pair a credit. Along a threshold curve the pairs are formed by
**score-ordered greedy matching** (docs/curves.md): predictions are taken from
the highest score down, and each claims its best gold partner that no
higher-scored prediction has claimed. A prediction's credit then depends
only on the predictions scored above it, so one pass gives the credit at
every threshold; the curve's true positives are cumulative sums of it.

- ``overlap`` (stimulation factor ``s``): the candidates of a prediction
  are the gold entities of its label and document that it overlaps (a
  zero-length span: only an identical one). An identical gold entity earns
  1, another ``s · |a ∩ e| / max(|a|, |e|)``, the matcher's partial credit.
  The prediction claims the unclaimed candidate of the largest credit (then
  the earlier gold entity); a pair that would earn nothing (``s = 0``)
  claims nothing, so ``s = 0`` is the ``exact`` curve.
- ``semeval`` (one ``schema``): the candidates are the overlapping gold
  entities of any label, as the matcher's; the prediction claims the best
  unclaimed one by the matcher's own priority (the schema's class — same
  bounds and label for ``strict``, same bounds for ``exact`` and
  ``partial``, same label for ``type`` — then larger overlap, earlier gold
  start, earlier predicted start, ...). It earns 1 for COR, 0.5 for PAR
  (``partial``) and 0 for INC; an unpaired prediction is SPU. A paired
  prediction counts under its gold entity's label, a spurious one under its
  own, as the matcher counts them. Predictions of equal score are taken in
  that priority too, so with every score equal the curve's one point is the
  matcher's own assignment.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import numpy as np
import numpy.typing as npt

from nerscore.errors import OptionError, option_error
from nerscore.matching._overlap_fragments import factor
from nerscore.matching.candidates import candidate_pairs, greedy_matching, isolated
from nerscore.matching.registry import get_matcher
from nerscore.matching.semeval import SCHEMAS
from nerscore.values.fragments import same_fragments
from nerscore.values.spans import EntityColumns

__all__ = ["DEFAULT_SCHEMA", "curve_options", "overlap_credit", "semeval_credit"]

IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]

#: The SemEval schema of a curve when none is asked for.
DEFAULT_SCHEMA = "strict"


def curve_options(match: str, options: Mapping[str, Any]) -> dict[str, Any]:
    """The matcher options a curve uses, checked; defaults filled in.

    ``semeval`` takes ``schema`` (``"strict"``, ``"exact"``, ``"partial"``
    or ``"type"``; ``"strict"`` by default) besides its own options. Options
    that pick an assignment other than the score-ordered one are refused:
    ``compat`` (``overlap``, ``semeval``), ``assignment="optimal"`` and
    ``overlapping="merge"`` (``overlap``; the score-ordered matching is
    one-to-one and needs no merging, so overlapping spans are accepted).

    Raises
    ------
    OptionError
        For an unknown option, a bad value, or an option with no
        score-ordered form.

    Examples
    --------
    >>> curve_options("overlap", {"s": 1})
    {'s': 1.0}
    >>> curve_options("semeval", {"schema": "partial"})
    {'schema': 'partial'}
    >>> curve_options("semeval", {"schema": "ent_type"})
    Traceback (most recent call last):
    ...
    nerscore.errors.OptionError: Expected `schema` to be one of 'strict', 'exact', 'partial' or 'type'; got 'ent_type'.
    """
    rest = dict(options)
    schema = rest.pop("schema", DEFAULT_SCHEMA) if match == "semeval" else None
    resolved = get_matcher(match).resolve(rest)
    if resolved.get("compat") is not None:
        raise OptionError(
            f"Threshold curves use the default {match} matcher; compat={resolved['compat']!r} "
            "has no score-ordered form. Leave compat out.", option="compat")
    if match == "semeval":
        if schema not in SCHEMAS:
            raise option_error("schema", "one of 'strict', 'exact', 'partial' or 'type'", schema)
        return {"schema": schema}
    for name, default in (("assignment", "greedy"), ("overlapping", "error")):
        if resolved[name] != default:
            raise OptionError(
                f"Threshold curves match overlap one-to-one by score (docs/curves.md); "
                f"{name}={resolved[name]!r} has no score-ordered form. Leave {name} out.",
                option=name)
    return {"s": resolved["s"]}


def _claim(g: IntArray, p: IntArray, keys: Callable[[IntArray], tuple[Any, ...]],
           n_gold: int, n_pred: int) -> tuple[IntArray, IntArray]:
    """The candidate pairs taken, and their predictions.

    ``keys(rows)`` gives the :func:`numpy.lexsort` keys (most significant
    last) of the pairs at ``rows``, best first. A pair whose gold entity and
    prediction are in no other pair is taken whatever the order, so only
    the others are sorted and matched.
    """
    alone = isolated(g, p, n_gold, n_pred)
    rest = np.flatnonzero(~alone)
    order = rest[np.lexsort(keys(rest))] if len(rest) else rest
    taken = np.concatenate([np.flatnonzero(alone),
                            order[greedy_matching(g[order], p[order], n_gold, n_pred)]])
    return taken, p[taken]


def overlap_credit(gold: EntityColumns, pred: EntityColumns, score: FloatArray,
                   s: float) -> FloatArray:
    """Per prediction (row order): its credit under score-ordered overlap matching.

    Both sides share one label vocabulary.

    Examples
    --------
    >>> g = EntityColumns([0], [0], [10], [0], ("A",))
    >>> p = EntityColumns([0, 0], [0, 0], [5, 10], [0, 0], ("A",), score=[0.9, 0.4])
    >>> overlap_credit(g, p, p.score, 1.0).tolist()
    [0.5, 0.0]
    """
    gi, pi, _ = candidate_pairs(gold, pred, same_label=True)
    exact = same_fragments(gold, gi, pred, pi)
    credit = np.ones(len(gi), dtype=np.float64)
    part = np.flatnonzero(~exact)
    credit[part] = s * factor(gold, pred, gi[part], pi[part])
    earns = credit > 0
    gi, pi, credit = gi[earns], pi[earns], credit[earns]
    def keys(r: IntArray) -> tuple[Any, ...]:
        # score, then credit, then the earlier gold entity, then the earlier prediction (pairs
        # still tied are duplicates: which of them is taken changes no count)
        g, q = gi[r], pi[r]
        return (pred.end[q], pred.start[q], gold.end[g], gold.start[g], -credit[r], -score[q])

    taken, rows = _claim(gi, pi, keys, len(gold), len(pred))
    out = np.zeros(len(pred), dtype=np.float64)
    out[rows] = credit[taken]
    return out


def semeval_credit(gold: EntityColumns, pred: EntityColumns, score: FloatArray,
                   schema: str) -> tuple[FloatArray, IntArray]:
    """Per prediction (row order): its credit and the label it counts under, for one schema.

    Both sides share one sorted label vocabulary (the matcher's tie-breaks
    compare label ids).

    Examples
    --------
    >>> g = EntityColumns([0], [0], [10], [0], ("A", "B"))
    >>> p = EntityColumns([0, 0], [0, 0], [10, 10], [1, 0], ("A", "B"), score=[0.9, 0.4])
    >>> credit, label = semeval_credit(g, p, p.score, "strict")
    >>> credit.tolist(), label.tolist()
    ([0.0, 0.0], [0, 0])
    >>> semeval_credit(g, p, p.score, "exact")[0].tolist()
    [1.0, 0.0]
    """
    gi, pi, ov = candidate_pairs(gold, pred)
    same_bounds = same_fragments(gold, gi, pred, pi)
    gl, pl = gold.label[gi], pred.label[pi]
    same_label = gl == pl
    good = {"strict": same_bounds & same_label, "exact": same_bounds,
            "partial": same_bounds, "type": same_label}[schema]
    # partial: 1 for COR (same bounds), 0.5 for PAR; the other schemas: 1 for COR
    credit = np.where(same_bounds, 1.0, 0.5) if schema == "partial" else good.astype(np.float64)
    def keys(r: IntArray) -> tuple[Any, ...]:
        # the matcher's priority (its class, then every tie-break), under the score
        g, q = gi[r], pi[r]
        return (q, g, pl[r], gl[r], pred.end[q], gold.end[g], ~same_label[r], pred.start[q],
                gold.start[g], -ov[r], ~good[r], -score[q])

    taken, rows = _claim(gi, pi, keys, len(gold), len(pred))
    out = np.zeros(len(pred), dtype=np.float64)
    out[rows] = credit[taken]
    label = pred.label.copy()
    label[rows] = gl[taken]
    return out, label
