"""Notes on what a comparison's intervals and p-values cannot tell.

Four kinds, one note each per comparison, naming the scores as the tables do
(``A micro P``, ``Δ micro F1 of A vs B``; the pairs as ``A vs B``):

- intervals of zero width, every resample giving the score one value
  (:func:`.resampling.collapsed_notes`);
- scores undefined on all the data (:func:`undefined_scores_note`): with
  ``zero_division=nan`` a score of a system that predicts no entity
  (precision), of data without gold entities (recall) or without either
  (F1) is NaN itself, and so are its interval, a difference that involves
  it and the p-values of that difference;
- scores set to 0.0 because they are ill-defined on all the data
  (:func:`set_to_zero_note`), with ``zero_division="warn"`` (the command
  line's default): the scores that ``zero_division=nan`` leaves undefined,
  and the averages that count 0.0 for some of what they average (a label
  without predicted entities, in a macro precision) -- what the warnings of
  :func:`nerscore.evaluate` name;
- intervals and p-values that some resamples leave undefined
  (:func:`undefined_resamples_note`). With ``zero_division=nan`` a score is
  NaN on a resample that draws no predicted entity (precision), no gold
  entity (recall) or neither (F1), and so is a difference that involves it.
  The interval and the p-value are then NaN: the percentile interval or the
  p-value of the resamples that define the score would be those of another
  statistic (the score given that the resample holds entities), biased
  towards the units that hold them, so none is given (docs/significance.md,
  "Undefined resamples").

Only ``zero_division=nan`` gives the second and the last, and only ``"warn"``
the third: ``0`` and ``1`` give every score a value, and no such note.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Mapping, Sequence

import numpy as np

from nerscore.analysis.significance.resampling import (
    AVERAGES,
    METRICS,
    FloatArray,
    collapsed_notes,
    named,
)

__all__ = ["comparison_notes", "set_to_zero_note", "undefined_resamples_note",
           "undefined_scores_note"]

#: The short names of the metrics, as the tables give them.
SHORT = {"precision": "P", "recall": "R", "f1": "F1"}
#: What a resample that leaves each metric undefined lacks.
_LACKS = {"precision": "no predicted entity", "recall": "no gold entity",
          "f1": "no entity at all"}
#: Each system's scores ``(average, metric)``, in the order of the table (micro P, R, F1,
#: then macro F1, P, R).
_SHOWN = [(0, 0), (0, 1), (0, 2), (1, 2), (1, 0), (1, 1)]


def _counted(what: Sequence[str], many: str) -> str:
    """``"A micro P"``, or ``"3 scores (A micro P, B micro P and C micro P)"``."""
    return what[0] if len(what) == 1 else f"{len(what)} {many} ({named(what)})"


def _lacks(metrics: Collection[str]) -> str:
    """What leaves ``metrics`` undefined: ``"no predicted entity (P) or no gold entity (R)"``."""
    kinds = [m for m in METRICS if m in metrics]
    if len(kinds) == 1:
        return _LACKS[kinds[0]]
    return " or ".join([", ".join(f"{_LACKS[m]} ({SHORT[m]})" for m in kinds[:-1]),
                        f"{_LACKS[kinds[-1]]} ({SHORT[kinds[-1]]})"])


def undefined_scores_note(scores: Sequence[str], pairs: Sequence[str],
                          metrics: Collection[str]) -> str:
    """The note on the scores that are undefined on all the data (NaN with ``zero_division=nan``).

    Parameters
    ----------
    scores : sequence of str
        The scores that are NaN, by the names the tables give them.
    pairs : sequence of str
        The pairs whose difference is among them (``"A vs B"``): their
        p-values are NaN too.
    metrics : collection of str
        Their metrics (:data:`.resampling.METRICS`).

    Returns
    -------
    str

    Examples
    --------
    >>> print(undefined_scores_note(["B micro P"], [], ["precision"]))
    B micro P is undefined (no predicted entity in the data, zero_division=nan), and so is its bootstrap interval; pass zero_division=0 or 1 to give it a value.
    >>> print(undefined_scores_note(["B micro P", "B macro P", "Δ micro P of A vs B"], ["A vs B"],
    ...                             ["precision"]))
    3 scores (B micro P, B macro P and Δ micro P of A vs B) are undefined (no predicted entity in the data, zero_division=nan), and so are their bootstrap intervals and the p-values of A vs B; pass zero_division=0 or 1 to give them a value.
    """
    one = len(scores) == 1
    also = "its bootstrap interval" if one else "their bootstrap intervals"
    if pairs:
        also += f" and the p-values of {named(pairs)}"
    return (f"{_counted(scores, 'scores')} {'is' if one else 'are'} undefined ({_lacks(metrics)} "
            f"in the data, zero_division=nan), and so {'is' if one and not pairs else 'are'} "
            f"{also}; pass zero_division=0 or 1 to give {'it' if one else 'them'} a value.")


def set_to_zero_note(scores: Mapping[str, str], averaging: Mapping[str, str] | None = None,
                     parts: str = "labels") -> str:
    """The note on the scores that ``zero_division="warn"`` set to 0.0, ill-defined on all the data.

    Parameters
    ----------
    scores : mapping of str to str
        The scores ill-defined on all the data (those ``zero_division=nan``
        leaves undefined), by the names the tables give them, to their metric
        (:data:`.resampling.METRICS`). Every resample leaves them undefined
        too: their intervals are 0.0 as well.
    averaging : mapping of str to str, optional
        The averages that count 0.0 for some of what they average, and are
        not ill-defined themselves, to their metric.
    parts : str
        What these average (``"labels"``; ``"labels or runs"``).

    Returns
    -------
    str

    Examples
    --------
    >>> print(set_to_zero_note({"B micro P": "precision", "B macro P": "precision"}))
    2 scores (B micro P and B macro P) are ill-defined (no predicted entity in the data) and set to 0.0, and so are their bootstrap intervals; pass zero_division=0, 1 or nan to choose the value of undefined scores.
    >>> print(set_to_zero_note({}, {"A macro P": "precision", "B macro R": "recall"}))
    2 scores (A macro P and B macro R) average 0.0 for the labels whose score is ill-defined (no predicted entity (P) or no gold entity (R) in the data); pass zero_division=0, 1 or nan to choose the value of undefined scores.
    """
    clauses = []
    if scores:
        one = len(scores) == 1
        clauses.append(
            f"{_counted(list(scores), 'scores')} {'is' if one else 'are'} ill-defined "
            f"({_lacks(set(scores.values()))} in the data) and set to 0.0, and so "
            f"{'is its bootstrap interval' if one else 'are their bootstrap intervals'}")
    if averaging:
        kinds = set(averaging.values())
        which = "score" if len(kinds) > 1 else {"f1": "F1"}.get(*kinds, *kinds)
        clauses.append(
            f"{_counted(list(averaging), 'scores')} average{'s' if len(averaging) == 1 else ''} "
            f"0.0 for the {parts} whose {which} is ill-defined ({_lacks(kinds)} in the data)")
    return "; ".join(clauses) + ("; pass zero_division=0, 1 or nan to choose the value of "
                                 "undefined scores.")


def undefined_resamples_note(intervals: Sequence[str], p_values: Sequence[str],
                   undefined: Sequence[int], metrics: Collection[str], n_resamples: int,
                   unit: str) -> str:
    """The note on the intervals and p-values that some resamples leave undefined.

    Parameters
    ----------
    intervals : sequence of str
        The scores without an interval, by the names the tables give them.
    p_values : sequence of str
        The pairs without a p-value (``"A vs B"``; ``"A vs B (randomization)"``
        when the pair's other test gave one).
    undefined : sequence of int
        How many resamples leave each of them undefined (one or more each).
    metrics : collection of str
        Their metrics (:data:`.resampling.METRICS`).
    n_resamples : int
        Resamples of each test.
    unit : str
        What is resampled (``"document"``, ``"sentence"``).

    Returns
    -------
    str

    Examples
    --------
    >>> print(undefined_resamples_note(["B micro P"], [], [37], ["precision"], 1000, "document"))
    No bootstrap interval of B micro P: in 37 of 1000 resamples it is undefined (no predicted entity among the documents drawn, zero_division=nan), as too few documents hold entities to resample; pass zero_division=0 or 1 for intervals.
    >>> print(undefined_resamples_note(["B micro P", "B micro F1", "Δ micro F1 of A vs B"],
    ...                                ["A vs B"], [37, 2, 40, 40], ["precision", "f1"], 1000,
    ...                                "document"))
    No bootstrap interval of 3 scores (B micro P, B micro F1 and Δ micro F1 of A vs B) and no p-value of A vs B: in up to 40 of 1000 resamples they are undefined (no predicted entity (P) or no entity at all (F1) among the documents drawn, zero_division=nan), as too few documents hold entities to resample; pass zero_division=0 or 1 for intervals and p-values.
    """
    heads = []
    if intervals:
        heads.append(f"No bootstrap interval of {_counted(intervals, 'scores')}")
    if p_values:
        heads.append(f"{'no' if intervals else 'No'} p-value of {_counted(p_values, 'pairs')}")
    most = max(undefined)
    count = f"{'' if min(undefined) == most else 'up to '}{most} of {n_resamples}"
    lacks = _lacks(metrics)
    one = len(intervals) + len(p_values) == 1
    gives = " and ".join(w for w, some in (("intervals", intervals), ("p-values", p_values))
                         if some)
    return (f"{' and '.join(heads)}: in {count} resamples {'it is' if one else 'they are'} "
            f"undefined ({lacks} among the {unit}s drawn, zero_division=nan), as too few "
            f"{unit}s hold entities to resample; pass zero_division=0 or 1 for {gives}.")


def _nan_count(values: FloatArray) -> int:
    return int(np.isnan(values).sum())


def comparison_notes(
    names: Sequence[str], pairs: Sequence[tuple[int, int]], point: FloatArray,
    boot: FloatArray, perm: Mapping[tuple[int, int], FloatArray], *, metric: str,
    average: str, bootstrap_p: bool, n_units: int, unit: str, ones: FloatArray | None = None,
    parts: str = "labels",
) -> list[str]:
    """The notes on a comparison's intervals of zero width, its undefined scores and resamples.

    Parameters
    ----------
    names : sequence of str
        The systems.
    pairs : sequence of (int, int)
        The pairs compared, ``(a, b)`` for ``score(a) - score(b)``.
    point, boot : array of float
        Every system's scores on all the data, ``(k, 2, 3)``, and on the
        bootstrap resamples, ``(k, 2, 3, R)`` (``[system, average, metric]``).
    perm : mapping of (int, int) to array of float
        The differences of the pairs on the randomization test's
        permutations (no entry: the test did not run).
    metric, average : str
        The score the pairs compare.
    bootstrap_p : bool
        Whether the pairs have a paired bootstrap p-value.
    n_units : int
        Units resampled.
    unit : str
        What is resampled.
    ones : array of float, optional
        With ``zero_division="warn"``: every system's scores on all the data
        (as ``point``, where an ill-defined ratio is 0.0) with 1.0 for an
        ill-defined ratio instead. A score that differs is one that
        :func:`set_to_zero_note` names: the whole of it the ill-defined
        value (0.0 here, 1.0 there) or partly.
    parts : str
        What the averages of ``point`` average (:func:`set_to_zero_note`).

    Returns
    -------
    list of str
        The note of :func:`.resampling.collapsed_notes` on every interval
        shown (each system's micro P, R, F1, then macro F1, P, R: the order of
        the table; then the difference of each pair), leaving out the scores
        set to 0.0 because they are ill-defined (the note on them says so);
        then those of :func:`set_to_zero_note`, :func:`undefined_scores_note`
        and :func:`undefined_resamples_note`.
    """
    ai, mi = AVERAGES.index(average), METRICS.index(metric)
    short = SHORT[metric]
    shown: dict[str, tuple[str, float, FloatArray]] = {
        f"{name} {AVERAGES[a]} {SHORT[METRICS[m]]}": (METRICS[m], float(point[s, a, m]),
                                                        boot[s, a, m])
        for s, name in enumerate(names) for a, m in _SHOWN}
    for a, b in pairs:
        shown[f"Δ {average} {short} of {names[a]} vs {names[b]}"] = (
            metric, float(point[a, ai, mi] - point[b, ai, mi]), boot[a, ai, mi] - boot[b, ai, mi])
    zero: dict[str, str] = {}  # ill-defined, and set to 0.0
    partly: dict[str, str] = {}  # averaging 0.0 for some ill-defined part
    if ones is not None:
        for s, name in enumerate(names):
            for a, m in _SHOWN:
                value, other = float(point[s, a, m]), float(ones[s, a, m])
                key = f"{name} {AVERAGES[a]} {SHORT[METRICS[m]]}"
                if value == 0.0 and other == 1.0:
                    zero[key] = METRICS[m]
                elif value != other:
                    partly[key] = METRICS[m]
    notes = collapsed_notes({k: v for k, (_, _, v) in shown.items() if k not in zero},
                            n_units, unit)
    if zero or partly:
        notes.append(set_to_zero_note(zero, partly, parts))
    nan_scores = [k for k, (_, value, _) in shown.items() if math.isnan(value)]
    if nan_scores:
        nan_pairs = [f"{names[a]} vs {names[b]}" for a, b in pairs
                     if (bootstrap_p or (a, b) in perm)
                     and math.isnan(float(point[a, ai, mi] - point[b, ai, mi]))]
        notes.append(undefined_scores_note(nan_scores, nan_pairs,
                                           {shown[k][0] for k in nan_scores}))
    intervals = [k for k, (_, value, v) in shown.items()
                 if not math.isnan(value) and np.isnan(v).any()]
    undefined = [_nan_count(shown[k][2]) for k in intervals]
    metrics = {shown[k][0] for k in intervals}
    p_values = []
    for a, b in pairs:
        d = float(point[a, ai, mi] - point[b, ai, mi])
        if math.isnan(d):  # undefined on all the data: so is every p-value of the pair
            continue
        tests = {"paired bootstrap": boot[a, ai, mi] - boot[b, ai, mi]} if bootstrap_p else {}
        if (a, b) in perm:
            tests["randomization"] = perm[(a, b)]
        lost = [test for test, values in tests.items() if np.isnan(values).any()]
        if lost:
            pair = f"{names[a]} vs {names[b]}"
            p_values.append(pair if len(lost) == len(tests) else f"{pair} ({lost[0]})")
            undefined.append(max(_nan_count(tests[test]) for test in lost))
            metrics.add(metric)
    if intervals or p_values:
        notes.append(undefined_resamples_note(intervals, p_values, undefined, metrics,
                                              boot.shape[-1], unit))
    return notes
