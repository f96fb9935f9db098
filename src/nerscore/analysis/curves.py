"""Precision, recall and F-beta at every threshold of scored predictions (docs/curves.md).

A system that scores its entities has one operating point per threshold:
the predictions scored at or above it. :func:`threshold_curve` gives all of
them from one sort, for every distinct score, micro and per label:

- ``precision = tp / n_pred`` over the predictions at or above the threshold;
- ``recall = tp / n_gold`` over *all* gold entities, so gold that no
  prediction ever finds keeps recall below 1 at every threshold;
- ``F-beta = (1 + β²)·tp / (β²·n_gold + n_pred)``;
- average precision, step-wise as scikit-learn defines it,
  ``AP = Σ (R_k − R_{k−1})·P_k`` over the thresholds from the highest down
  (``R_0 = 0``), with that recall;
- the threshold of the best F-beta (the highest such threshold on a tie), or
  the one an objective chooses (:meth:`PRCurve.choose`).

True positives come from score-ordered greedy matching
(:mod:`nerscore.analysis.ranking`). The curve describes the candidates the
system emitted: a span model's candidates after its own decoding, not the
ones its decoder discarded.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from nerscore.analysis.ranking import Ranked, rank_predictions
from nerscore.analysis.ranking_pairs import curve_options
from nerscore.decode.inputs import prepare
from nerscore.decode.label_ops import apply_label_ops, check_label_ops
from nerscore.errors import OptionError, option_error
from nerscore.matching.registry import get_matcher
from nerscore.scoring.counting import select_entities
from nerscore.values.decoding import Decoding
from nerscore.values.label_ops import LabelOps
from nerscore.values.ratios import check_beta, fbeta_terms
from nerscore.values.schemes import Mode, Scheme
from nerscore.values.selection import Selection, min_score_note

__all__ = ["Curve", "OperatingPoint", "PRCurve", "parse_objective", "scored_predictions",
           "threshold_curve"]

IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]

_OBJECTIVE = re.compile(r"^(precision|recall)@([0-9]*\.?[0-9]+)$")


def parse_objective(objective: str) -> tuple[str, float | None]:
    """``"f1"``, ``"fbeta"``, ``"precision@R"`` or ``"recall@P"`` as (kind, bound).

    Examples
    --------
    >>> parse_objective("precision@0.9"), parse_objective("F1")
    (('precision', 0.9), ('f1', None))
    >>> parse_objective("precision@2")
    Traceback (most recent call last):
    ...
    nerscore.errors.OptionError: Expected `objective` to be 'f1', 'fbeta', 'precision@R' (the best precision at recall >= R) or 'recall@P' (the best recall at precision >= P), R and P in [0, 1]; got 'precision@2'.
    """
    text = objective.strip().lower() if isinstance(objective, str) else objective
    if text in ("f1", "fbeta"):
        return str(text), None
    m = _OBJECTIVE.match(text) if isinstance(text, str) else None
    if m is None or not 0.0 <= float(m.group(2)) <= 1.0:
        raise option_error(
            "objective", "'f1', 'fbeta', 'precision@R' (the best precision at recall >= R) or "
            "'recall@P' (the best recall at precision >= P), R and P in [0, 1]", objective)
    return m.group(1), float(m.group(2))


@dataclass(frozen=True)
class OperatingPoint:
    """The scores of the predictions at or above one threshold.

    ``objective`` says how the threshold was chosen (``"f1"``,
    ``"precision@0.9"``, ...) or ``"fixed"``. ``tp`` is an int, or a float
    where pairs earn partial credit (``overlap``, SemEval ``partial``).
    """

    threshold: float
    precision: float
    recall: float
    fbeta: float
    tp: float
    n_pred: int
    n_gold: int
    beta: float = 1.0
    objective: str = "fixed"

    def to_dict(self) -> dict[str, Any]:
        """The point as JSON-safe values (NaN as None)."""
        return {k: (None if isinstance(v, float) and v != v else v)
                for k, v in self.__dict__.items()}


@dataclass(frozen=True, eq=False)
class PRCurve:
    """One precision–recall curve: cumulative counts at every distinct score, highest first.

    Attributes
    ----------
    threshold : array of float
        The distinct scores, descending; point ``k`` keeps the predictions
        scored at least ``threshold[k]``.
    tp : array of int or float
        True positives at each threshold: the summed credit of the
        predictions (floats where pairs earn partial credit).
    n_pred : array of int
        Predictions at each threshold.
    n_gold : int
        Gold entities (the denominator of recall at every point).
    beta : float
        The beta of :attr:`fbeta`.

    Examples
    --------
    >>> c = PRCurve(np.array([0.9, 0.5, 0.2]), np.array([1, 2, 2]), np.array([1, 2, 3]), 4)
    >>> c.precision.tolist(), c.recall.tolist()
    ([1.0, 1.0, 0.6666666666666666], [0.25, 0.5, 0.5])
    >>> c.average_precision, c.best.threshold, c.best.fbeta
    (0.5, 0.5, 0.6666666666666666)
    >>> c.choose("recall@0.6").threshold, c.at(0.6).n_pred
    (0.5, 1)
    """

    threshold: FloatArray
    tp: IntArray | FloatArray
    n_pred: IntArray
    n_gold: int
    beta: float = 1.0

    def __len__(self) -> int:
        return len(self.threshold)

    @property
    def precision(self) -> FloatArray:
        """``tp / n_pred`` at each threshold (every point has a prediction)."""
        return np.asarray(self.tp / self.n_pred, dtype=np.float64)

    @property
    def recall(self) -> FloatArray:
        """``tp / n_gold`` at each threshold (NaN without gold entities)."""
        if self.n_gold == 0:
            return np.full(len(self), np.nan)
        return np.asarray(self.tp / self.n_gold, dtype=np.float64)

    @property
    def fbeta(self) -> FloatArray:
        """F-beta at each threshold."""
        num, den = fbeta_terms(self.tp, self.n_gold, self.n_pred, self.beta)
        return np.asarray(num / den, dtype=np.float64)

    @property
    def average_precision(self) -> float:
        """``Σ (R_k − R_{k−1})·P_k`` (scikit-learn's step-wise AP, recall over all gold).

        NaN without gold entities; 0.0 without predictions.
        """
        if self.n_gold == 0:
            return float("nan")
        r = self.recall
        return float(np.sum(np.diff(r, prepend=0.0) * self.precision))

    def point(self, k: int, objective: str = "fixed") -> OperatingPoint:
        """The operating point at index ``k``."""
        return OperatingPoint(float(self.threshold[k]), float(self.precision[k]),
                              float(self.recall[k]), float(self.fbeta[k]), self.tp[k].item(),
                              int(self.n_pred[k]), self.n_gold, self.beta, objective)

    def at(self, threshold: float) -> OperatingPoint:
        """The scores of the predictions scored at least ``threshold``.

        Above the highest score nothing is predicted: precision is then NaN
        (undefined), recall and F-beta 0.
        """
        k = int(np.searchsorted(-self.threshold, -float(threshold), side="right")) - 1
        if k < 0:
            nan = float("nan")
            return OperatingPoint(float(threshold), nan, 0.0 if self.n_gold else nan, 0.0, 0,
                                  0, self.n_gold, self.beta)
        p = self.point(k)
        return OperatingPoint(float(threshold), p.precision, p.recall, p.fbeta, p.tp,
                              p.n_pred, p.n_gold, p.beta)

    @property
    def best(self) -> OperatingPoint | None:
        """The point of the best F-beta (the highest threshold on a tie); None when empty."""
        return self.choose("fbeta") if len(self) else None

    def choose(self, objective: str = "f1") -> OperatingPoint:
        """The point an objective chooses.

        ``"f1"``: the best F1; ``"fbeta"``: the best F-beta at this curve's
        beta; ``"precision@R"``: the best precision among the points of
        recall at least R; ``"recall@P"``: the best recall among the points
        of precision at least P. Ties go to the highest threshold.

        Raises
        ------
        OptionError
            For an unknown objective, a curve without points, or a bound no
            point reaches (naming the best value there is).
        """
        kind, bound = parse_objective(objective)
        if not len(self):
            raise OptionError(f"No threshold to choose for objective {objective!r}: there are "
                              "no scored predictions.", option="objective")
        if kind == "f1":
            value = 2 * self.tp / (self.n_gold + self.n_pred)
            ok = np.ones(len(self), dtype=bool)
        elif kind == "fbeta":
            value, ok = self.fbeta, np.ones(len(self), dtype=bool)
        else:
            other = self.recall if kind == "precision" else self.precision
            value = self.precision if kind == "precision" else self.recall
            ok = other >= float(bound or 0.0)
            if not ok.any():
                what = "recall" if kind == "precision" else "precision"
                top = float(np.nanmax(other)) if not np.isnan(other).all() else float("nan")
                raise OptionError(
                    f"No threshold reaches {what} {bound:g} (objective {objective!r}); the "
                    f"highest {what} of any threshold is {top:.4f}. Lower the bound.",
                    option="objective")
        masked = np.where(ok, value, -np.inf)
        k = int(np.argmax(masked))  # the first maximum: the highest threshold
        return self.point(k, str(objective).strip().lower())

    def to_dict(self) -> dict[str, Any]:
        """The points and the summary numbers as JSON-safe values."""
        best = self.best
        return {
            "n_gold": self.n_gold,
            "average_precision": _nan_none(self.average_precision),
            "best": None if best is None else best.to_dict(),
            "points": [
                {"threshold": t, "tp": tp, "n_pred": n, "precision": p,
                 "recall": _nan_none(r), "fbeta": f}
                for t, tp, n, p, r, f in zip(
                    self.threshold.tolist(), self.tp.tolist(), self.n_pred.tolist(),
                    self.precision.tolist(), self.recall.tolist(), self.fbeta.tolist(),
                    strict=True)
            ],
        }


def _nan_none(x: float) -> float | None:
    return None if x != x else x


def curve_of(score: FloatArray, credit: npt.NDArray[Any], n_gold: int,
             beta: float = 1.0) -> PRCurve:
    """The curve of predictions given in descending score order, with each one's credit.

    The true positives are the cumulative sums of the credit: ints when
    every credit is 0 or 1, floats otherwise.

    Examples
    --------
    >>> c = curve_of(np.array([0.9, 0.9, 0.4]), np.array([True, False, True]), 3)
    >>> c.threshold.tolist(), c.tp.tolist(), c.n_pred.tolist()
    ([0.9, 0.4], [1, 2], [2, 3])
    >>> curve_of(np.array([0.9, 0.4]), np.array([0.5, 1.0]), 2).tp.tolist()
    [0.5, 1.5]
    """
    n = len(score)
    last = np.flatnonzero(np.append(score[1:] != score[:-1], True)) if n else np.zeros(
        0, dtype=np.int64)
    whole = bool(np.all((credit == 0) | (credit == 1)))
    tp: IntArray | FloatArray = np.zeros(0, dtype=np.int64)
    if n:
        tp = (np.cumsum(credit, dtype=np.int64) if whole
              else np.cumsum(credit, dtype=np.float64))[last]
    return PRCurve(score[last].astype(np.float64), tp, (last + 1).astype(np.int64),
                   int(n_gold), beta)


@dataclass(frozen=True, eq=False)
class Curve:
    """The threshold curve of a scored system: micro and per label.

    Attributes
    ----------
    micro : PRCurve
        Over every label (the labels asked for, with ``labels=``).
    per_label : dict of str to PRCurve
        One curve per label (each over that label's predictions and gold).
    match : str
        The matcher, and ``options`` its resolved options.
    beta : float
        The beta of every F-beta.
    notes : tuple of str
        How the documents were joined (documents one side lacks, texts that
        differ), as :attr:`nerscore.Report.notes` says it.
    """

    micro: PRCurve
    per_label: Mapping[str, PRCurve]
    match: str
    options: Mapping[str, Any] = field(default_factory=dict)
    beta: float = 1.0
    notes: tuple[str, ...] = ()

    def choose(self, objective: str = "f1") -> OperatingPoint:
        """The micro operating point an objective chooses (see :meth:`PRCurve.choose`)."""
        return self.micro.choose(objective)

    @property
    def best(self) -> OperatingPoint | None:
        """The micro point of the best F-beta."""
        return self.micro.best

    def to_dict(self) -> dict[str, Any]:
        """``{"match", "options", "beta", "micro", "labels": {label: curve}}`` (JSON-safe)."""
        return {"match": self.match, "options": dict(self.options), "beta": self.beta,
                "micro": self.micro.to_dict(),
                "labels": {k: v.to_dict() for k, v in self.per_label.items()}}

    def rows(self) -> list[dict[str, Any]]:
        """One flat row per point (``label`` is ``"micro"`` or a label): for CSV files."""
        out = []
        for name, c in [("micro", self.micro), *self.per_label.items()]:
            for p in c.to_dict()["points"]:
                out.append({"label": name, **p, "n_gold": c.n_gold})
        return out


def scored_predictions(
    y_true: object, y_pred: object, *, match: str, labels: Sequence[str] | None,
    decoding: Decoding, options: Mapping[str, Any],
) -> tuple[Ranked, dict[str, Any], tuple[str, ...]]:
    """Prepare both sides, select entities and rank the predictions.

    Returns the ranked predictions, the resolved options and the notes of
    the join (:attr:`nerscore.decode.inputs.Prepared.notes`).
    """
    label_ops, options = LabelOps.split(options)
    selection, rest = Selection.split(options)
    if match in ("overlap", "semeval"):
        resolved = curve_options(match, rest)
    elif match in ("exact", "threshold"):
        resolved = get_matcher(match).resolve(rest)
    else:
        resolved = rest
    prep = prepare(y_true, y_pred, decoding)
    if label_ops:  # as a score applies them (its warnings on their labels are not repeated)
        check_label_ops(label_ops, match, prep.tags is not None)
        prep = apply_label_ops(prep, label_ops, warn=False)
    prep = select_entities(prep, selection)
    gold, pred = prep.gold, prep.pred
    if labels is not None:
        if isinstance(labels, str) or not all(isinstance(x, str) for x in labels):
            raise option_error("labels", "a list of label names or None", labels)
        keep = set(labels)
        gold = gold.take(np.isin(gold.label, [i for i, x in enumerate(gold.labels) if x in keep]))
        pred = pred.take(np.isin(pred.label, [i for i, x in enumerate(pred.labels) if x in keep]))
    notes = prep.notes
    if selection.min_score is not None:
        notes += (min_score_note(selection.min_score, prep.tallies.get("pred_below_min_score", 0)),)
    return rank_predictions(gold, pred, match, resolved, prep.doc_ids), resolved, notes


def threshold_curve(
    y_true: object,
    y_pred: object,
    *,
    match: str = "exact",
    labels: Sequence[str] | None = None,
    beta: float = 1.0,
    scheme: str | Scheme | None = None,
    mode: str | Mode = "lenient",
    suffix: bool = False,
    delimiter: str = "-",
    outside: str = "O",
    **options: Any,
) -> Curve:
    """Precision, recall and F-beta at every distinct prediction score (docs/curves.md).

    Parameters
    ----------
    y_true, y_pred : span documents
        Gold, and predictions with a score each (a dict's ``"score"``, a
        tuple's fourth field, ``Entity.score``, a JSON Lines span's
        ``"score"``).
    match : {"exact", "threshold", "overlap", "semeval"}
        The matcher; true positives come from score-ordered greedy matching
        (:mod:`nerscore.analysis.ranking`): for ``overlap`` the summed
        partial credit, for ``semeval`` one schema's (``schema=``).
    labels : list of str, optional
        Score only these labels (entities of others are left out before
        matching); ``per_label`` then lists them in this order.
    beta : float
        The beta of F-beta.
    scheme, mode, suffix, delimiter, outside : optional
        How tags would be decoded (tag sequences carry no scores, so curves
        need span input).
    **options
        The matcher's options (``labeled``, ``t``, ``s``; for ``semeval``
        the ``schema``: ``"strict"`` (default), ``"exact"``, ``"partial"``
        or ``"type"``), ``discontinuous``, ``subset``, and the label
        operations ``labels_map``, ``keep``, ``drop`` (applied first, as a
        score applies them).

    Returns
    -------
    Curve

    Raises
    ------
    InputTypeError
        When a prediction has no score.
    OptionError
        For ``match="token"`` or ``"mention"``, or an option with no
        score-ordered form (``compat``, ``assignment="optimal"``,
        ``overlapping="merge"``).

    Examples
    --------
    >>> gold = {"d": [(0, 4, "PER"), (10, 16, "LOC"), (20, 25, "PER")]}
    >>> pred = {"d": [(0, 4, "PER", 0.9), (10, 16, "PER", 0.7), (20, 25, "PER", 0.6)]}
    >>> curve = threshold_curve(gold, pred)
    >>> curve.micro.threshold.tolist(), curve.micro.precision.tolist()
    ([0.9, 0.7, 0.6], [1.0, 0.5, 0.6666666666666666])
    >>> curve.micro.recall.tolist()
    [0.3333333333333333, 0.3333333333333333, 0.6666666666666666]
    >>> curve.best.threshold, round(curve.best.fbeta, 4), round(curve.micro.average_precision, 4)
    (0.6, 0.6667, 0.5556)
    >>> sorted(curve.per_label), curve.per_label["LOC"].n_gold, len(curve.per_label["LOC"])
    (['LOC', 'PER'], 1, 0)
    >>> threshold_curve({**gold, "e": [(0, 3, "PER")]}, pred).notes
    ("1 gold document(s) have no prediction and count as predicting no entities: 'e'.",)
    """
    beta = check_beta(beta)
    decoding = Decoding(scheme, mode, suffix, delimiter, outside)
    ranked, resolved, notes = scored_predictions(y_true, y_pred, match=match, labels=labels,
                                                 decoding=decoding, options=options)
    micro = curve_of(ranked.score, ranked.credit, int(ranked.n_gold.sum()), beta)
    names = list(labels) if labels is not None else list(ranked.labels)
    index = {x: i for i, x in enumerate(ranked.labels)}
    per_label: dict[str, PRCurve] = {}
    for name in names:
        k = index.get(name)
        if k is None:
            per_label[name] = curve_of(np.zeros(0), np.zeros(0, dtype=bool), 0, beta)
            continue
        mine = ranked.label == k
        per_label[name] = curve_of(ranked.score[mine], ranked.credit[mine],
                                   int(ranked.n_gold[k]), beta)
    return Curve(micro, per_label, match, resolved, beta, notes)
