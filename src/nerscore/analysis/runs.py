"""Several runs of one system (seeds, sampled outputs, prompt variants): mean ± SD, and stability.

Run-to-run variance is often larger than the differences people report.
:func:`score_runs` scores every run against the same gold and gives, for
precision, recall and F-beta, micro and per label (docs/curves.md):

- the mean over runs and the sample standard deviation (``n − 1``);
- the standard error ``SD / √n`` (what seqscore's ``score`` prints for
  several files, with the mean F1 — nerscore's numbers equal its);
- a Student-t confidence interval of the mean, ``mean ± t(1 − α/2, n − 1)·SE``;

and, per gold entity, in how many runs a prediction matched it: the entities
found by some runs only are the unstable ones. A label that a run neither
has in gold nor predicts has no score in that run and is averaged over the
runs that have it (``n`` says over how many).
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

import numpy as np
import numpy.typing as npt

from nerscore.errors import (
    LengthMismatchError,
    NerscoreError,
    OptionError,
    caught_warnings,
    option_error,
    user_stacklevel,
)
from nerscore.scoring.metrics import evaluate
from nerscore.scoring.report import Report

__all__ = ["RunStat", "Runs", "naming_runs", "raise_for_runs", "score_runs", "t_quantile"]

IntArray = npt.NDArray[np.int64]
METRICS = ("precision", "recall", "fbeta")


def _betacf(a: float, b: float, x: float) -> float:
    """The continued fraction of the incomplete beta function (modified Lentz)."""
    tiny = 1e-300
    qab, qap, qam = a + b, a + 1.0, a - 1.0
    c, d = 1.0, 1.0 - qab * x / qap
    d = 1.0 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 500):
        m2 = 2 * m
        aa = m * (b - m) * x / ((qam + m2) * (a + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + aa / (c if abs(c) > tiny else tiny)
        h *= d * c
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + aa / (c if abs(c) > tiny else tiny)
        delta = d * c
        h *= delta
        if abs(delta - 1.0) < 1e-15:
            break
    return h


def _incomplete_beta(a: float, b: float, x: float) -> float:
    """The regularized incomplete beta function ``I_x(a, b)``."""
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    front = math.exp(math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b)
                     + a * math.log(x) + b * math.log1p(-x))
    if x < (a + 1.0) / (a + b + 2.0):
        return front * _betacf(a, b, x) / a
    return 1.0 - front * _betacf(b, a, 1.0 - x) / b


def _t_cdf(t: float, df: float) -> float:
    tail = 0.5 * _incomplete_beta(df / 2.0, 0.5, df / (df + t * t))
    return 1.0 - tail if t >= 0 else tail


def t_quantile(p: float, df: float) -> float:
    """The ``p`` quantile of Student's t distribution with ``df`` degrees of freedom.

    Examples
    --------
    >>> round(t_quantile(0.975, 2), 6), round(t_quantile(0.975, 1e9), 6)
    (4.302653, 1.959964)
    """
    if p == 0.5:
        return 0.0
    if p < 0.5:
        return -t_quantile(1.0 - p, df)
    lo, hi = 0.0, 1.0
    while _t_cdf(hi, df) < p:
        hi *= 2.0
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        if _t_cdf(mid, df) < p:
            lo = mid
        else:
            hi = mid
        if hi - lo < 1e-12 * max(1.0, hi):
            break
    return 0.5 * (lo + hi)


@dataclass(frozen=True)
class RunStat:
    """One score over runs: mean, sample SD, standard error and a t interval of the mean.

    With one run SD, SE and the interval are NaN.
    """

    mean: float
    sd: float
    se: float
    low: float
    high: float
    n: int
    values: tuple[float, ...] = ()

    @classmethod
    def of(cls, values: Sequence[float], level: float) -> RunStat:
        """The statistics of ``values`` (one per run; NaN values are left out).

        Examples
        --------
        >>> s = RunStat.of([0.8, 0.9, 0.7], 0.95)
        >>> round(s.mean, 4), round(s.sd, 4), round(s.se, 4), round(s.low, 4), round(s.high, 4)
        (0.8, 0.1, 0.0577, 0.5516, 1.0484)
        """
        xs = [float(v) for v in values if v == v]
        n = len(xs)
        nan = float("nan")
        if n == 0:
            return cls(nan, nan, nan, nan, nan, 0, tuple(values))
        mean = math.fsum(xs) / n
        if n == 1:
            return cls(mean, nan, nan, nan, nan, 1, tuple(values))
        sd = math.sqrt(math.fsum((x - mean) ** 2 for x in xs) / (n - 1))
        se = sd / math.sqrt(n)
        half = t_quantile(0.5 + level / 2.0, n - 1) * se
        return cls(mean, sd, se, mean - half, mean + half, n, tuple(values))

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe values (NaN as None)."""
        return {k: (None if isinstance(v, float) and v != v else
                    [None if x != x else x for x in v] if isinstance(v, tuple) else v)
                for k, v in self.__dict__.items()}


@dataclass(frozen=True, eq=False)
class Runs:
    """The scores of several runs against one gold, summarised.

    Attributes
    ----------
    reports : tuple of Report
        One report per run.
    names : tuple of str
        The runs' names.
    overall : dict of str to RunStat
        Micro ``precision``, ``recall`` and ``fbeta`` over runs.
    per_label : dict of str to dict of str to RunStat
        The same per label.
    found : array of int
        For every gold entity (row of ``gold``), the number of runs that
        found it (a prediction matched it with credit).
    level : float
        The confidence level of the intervals.
    source : str
        What the gold is called in rendered output (its file name on the
        command line).
    """

    render_kind: ClassVar[str] = "runs"

    reports: tuple[Report, ...]
    names: tuple[str, ...]
    overall: Mapping[str, RunStat]
    per_label: Mapping[str, Mapping[str, RunStat]]
    found: IntArray
    gold: Any = field(default=None, repr=False)
    doc_ids: Any = field(default=None, repr=False)
    level: float = 0.95
    source: str = "gold"

    def unstable(self) -> list[tuple[str | int, int, int, str, int]]:
        """The gold entities found by some runs but not all: ``(document, start, end, label, runs)``.

        ``document`` is the document id when the input has ids, else the
        index of the sentence or document.
        """
        n = len(self.reports)
        rows = np.flatnonzero((self.found > 0) & (self.found < n))
        g = self.gold
        out = []
        for i in rows.tolist():
            q = int(g.seq[i])
            doc = self.doc_ids[q] if self.doc_ids is not None else q
            out.append((doc, int(g.start[i]), int(g.end[i]), g.labels[int(g.label[i])],
                        int(self.found[i])))
        return out

    def stability(self) -> dict[int, int]:
        """How many gold entities were found by 0, 1, ..., n runs."""
        counts = np.bincount(self.found, minlength=len(self.reports) + 1)
        return {k: int(v) for k, v in enumerate(counts.tolist())}

    def to_dict(self) -> dict[str, Any]:
        """The summary as JSON-safe data."""
        return {
            "runs": list(self.names),
            "level": self.level,
            "overall": {m: s.to_dict() for m, s in self.overall.items()},
            "labels": {lab: {m: s.to_dict() for m, s in stats.items()}
                       for lab, stats in self.per_label.items()},
            "stability": {str(k): v for k, v in self.stability().items()},
            "unstable": [{"document": d, "start": s, "end": e, "label": lab, "runs": k}
                         for d, s, e, lab, k in self.unstable()],
        }


def _found(report: Report, n_gold: int) -> IntArray:
    """Per gold row: 1 when a prediction matched it with credit in this report."""
    out = np.zeros(n_gold, dtype=np.int64)
    a = report.alignment
    if a is not None:
        out[a.pairs_gold[a.credit > 0]] = 1
    return out


def naming_runs(names: Sequence[str], per_run: Sequence[Iterable[str]]) -> list[tuple[str, str]]:
    """The notes (or warnings) of several runs, each once, naming the runs unless every run has it.

    Parameters
    ----------
    names : list of str
        The name of each run (a name given twice is one run).
    per_run : list of iterables of str
        What each run said, in the order of ``names``.

    Returns
    -------
    list of (str, str)
        Each text as the runs said it, and as it is shown: as is when every
        run said it, else after the names of the runs that did
        (``RUN1, RUN2: text``).

    Examples
    --------
    >>> for n in naming_runs(["r1.conll", "r2.conll", "r1.conll"],
    ...                      [("Labels renamed: GPE -> LOC.", "No tokens."), ("No tokens.",),
    ...                       ("Labels renamed: GPE -> LOC.", "No tokens.")]):
    ...     print(n[1])
    r1.conll: Labels renamed: GPE -> LOC.
    No tokens.
    """
    runs: dict[str, dict[str, None]] = {}
    for name, said in zip(names, per_run, strict=True):
        for text in said:
            runs.setdefault(text, {})[name] = None
    every = len(set(names))
    return [(text, text if len(seen) == every else f"{', '.join(seen)}: {text}")
            for text, seen in runs.items()]


def raise_for_runs(failed: Sequence[tuple[str, NerscoreError]], *, named: bool = False) -> None:
    """Raise the error of the first run that failed, its message naming every run that did.

    Parameters
    ----------
    failed : sequence of (str, NerscoreError)
        The name of each run that failed and its error, in run order;
        nothing is raised when it is empty.
    named : bool
        The names are file paths, and a message that holds its run's path
        names it already (a reader's message): it is not put after the name.

    Raises
    ------
    NerscoreError
        The first error (its type and attributes), its message naming the runs.

    Examples
    --------
    >>> from nerscore.errors import FormatError
    >>> raise_for_runs([("r2", FormatError("No id matches."))])
    Traceback (most recent call last):
    ...
    nerscore.errors.FormatError: r2: No id matches.
    >>> raise_for_runs([("r2.jsonl", FormatError("No id matches.")),
    ...                 ("r3.jsonl", FormatError("r3.jsonl has no document."))], named=True)
    Traceback (most recent call last):
    ...
    nerscore.errors.FormatError: 2 runs cannot be scored: r2.jsonl: No id matches. r3.jsonl has no document.
    """
    if not failed:
        return
    said = [str(exc) if named and name in str(exc) else f"{name}: {exc}" for name, exc in failed]
    head = f"{len(failed)} runs cannot be scored: " if len(failed) > 1 else ""
    exc = failed[0][1]
    exc.args = (head + " ".join(said),)
    raise exc


def score_runs(
    y_true: object,
    runs: Sequence[object],
    *,
    names: Sequence[str] | None = None,
    level: float = 0.95,
    match: str = "exact",
    beta: float = 1.0,
    zero_division: Any = "warn",
    labels: Sequence[str] | None = None,
    **options: Any,
) -> Runs:
    """Score several runs of one system against one gold: mean ± SD over runs, and stability.

    Parameters
    ----------
    y_true : tags or spans
        Gold, as every scorer takes it.
    runs : list
        The predictions of each run, each as ``y_pred`` of
        :func:`nerscore.evaluate`.
    names : list of str, optional
        One name per run (``run1``, ``run2``, ... by default).
    level : float
        The confidence level of the t intervals (0.95).
    match, beta, zero_division, labels, **options
        As :func:`nerscore.evaluate` takes them (the matcher's options,
        the decoding and entity options).

    Returns
    -------
    Runs

    Raises
    ------
    NerscoreError
        What scoring a run raises for its data (a document one side lacks, a
        sentence count that differs), its message after the run's name; the
        errors of every such run in one message.

    Warns
    -----
    UserWarning
        What scoring a run warns (an ``UndefinedMetricWarning`` for a run
        that predicts no entity, say), once: as is when every run warns it,
        else after the names of the runs it is about (``run2: ...``).

    Examples
    --------
    >>> gold = [["B-PER", "O", "B-LOC"], ["B-ORG", "O"]]
    >>> runs = [[["B-PER", "O", "B-LOC"], ["B-ORG", "O"]],
    ...         [["B-PER", "O", "O"], ["B-ORG", "O"]],
    ...         [["B-PER", "O", "B-LOC"], ["O", "O"]]]
    >>> summary = score_runs(gold, runs, zero_division=0)
    >>> f1 = summary.overall["fbeta"]
    >>> round(f1.mean, 4), round(f1.sd, 4), f1.n
    (0.8667, 0.1155, 3)
    >>> summary.stability(), summary.unstable()
    ({0: 0, 1: 0, 2: 2, 3: 1}, [(0, 2, 3, 'LOC', 2), (1, 0, 1, 'ORG', 2)])
    """
    if isinstance(runs, (str, bytes)) or not isinstance(runs, Sequence) or len(runs) < 1:
        raise option_error("runs", "a list of one or more predictions", runs)
    if not (isinstance(level, float) and 0.0 < level < 1.0):
        raise option_error("level", "a float in (0, 1)", level)
    run_names = tuple(names) if names is not None else tuple(
        f"run{k + 1}" for k in range(len(runs)))
    if len(run_names) != len(runs):
        raise LengthMismatchError(f"Got {len(run_names)} names for {len(runs)} runs; give one "
                                  "name per run.", expected=len(runs), actual=len(run_names))
    reports = []
    caught: list[list[warnings.WarningMessage]] = []
    failed: list[tuple[str, NerscoreError]] = []
    for name, y_pred in zip(run_names, runs, strict=True):
        with caught_warnings() as run_caught:
            try:
                reports.append(evaluate(y_true, y_pred, match=match, beta=beta,
                                        zero_division=zero_division, labels=labels, **options))
            except OptionError:  # the same options for every run: said once, as it is
                raise
            except NerscoreError as exc:  # this run's data: every such run is named
                failed.append((name, exc))
        caught.append(run_caught)
    raise_for_runs(failed)
    categories = {str(w.message): w.category for run_caught in caught for w in run_caught}
    for said, shown in naming_runs(run_names, [[str(w.message) for w in c] for c in caught]):
        warnings.warn(shown, categories[said], stacklevel=user_stacklevel())
    overall = {m: RunStat.of([getattr(r.micro, m) for r in reports], level) for m in METRICS}
    names_seen = list(dict.fromkeys(lab for r in reports for lab in r.labels))
    per_label = {
        lab: {m: RunStat.of([getattr(r.labels[lab], m) if lab in r.labels else float("nan")
                             for r in reports], level) for m in METRICS}
        for lab in sorted(names_seen)
    }
    first = reports[0].alignment
    gold = None if first is None else first.gold
    n_gold = 0 if gold is None else len(gold)
    found = np.zeros(n_gold, dtype=np.int64)
    for r in reports:
        found += _found(r, n_gold)
    return Runs(tuple(reports), run_names, overall, per_label, found, gold, reports[0].doc_ids, level)
