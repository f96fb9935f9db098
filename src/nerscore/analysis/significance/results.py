"""What a comparison of systems gives: scores with intervals, pairs with p-values (data only).

:func:`~nerscore.analysis.significance.compare` builds these; they render
with :func:`nerscore.render_comparison` and serialise with
:meth:`Comparison.to_dict` (JSON-safe, NaN as None).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

import numpy as np

from nerscore.analysis.significance.resampling import METRICS

__all__ = ["Comparison", "Estimate", "PRFEstimates", "PairResult", "RunSpread", "SystemScores"]


@dataclass(frozen=True)
class Estimate:
    """A score with its percentile bootstrap interval ``[low, high]``."""

    value: float
    low: float
    high: float

    def to_dict(self) -> dict[str, float | None]:
        """``{"value", "low", "high"}``; NaN as None."""
        return {k: _json_float(getattr(self, k)) for k in ("value", "low", "high")}


@dataclass(frozen=True)
class PRFEstimates:
    """Precision, recall and F1 of one average, each with its interval."""

    precision: Estimate
    recall: Estimate
    f1: Estimate

    def to_dict(self) -> dict[str, dict[str, float | None]]:
        """``{metric: estimate}``."""
        return {m: getattr(self, m).to_dict() for m in METRICS}


@dataclass(frozen=True)
class RunSpread:
    """A system's scores run by run (:func:`~nerscore.compare_runs`), with mean and SD over runs.

    Attributes
    ----------
    runs : tuple of str
        The runs' names, in order.
    micro, macro : dict of str to tuple of float
        ``{"precision", "recall", "f1"}`` -> the score of each run.

    Examples
    --------
    >>> s = RunSpread(("a", "b", "c"), {"precision": (1.0, 0.5, 0.75), "recall": (1.0, 1.0, 1.0),
    ...               "f1": (1.0, 0.5, 0.75)}, {})
    >>> s.n_runs, s.mean("f1"), s.sd("f1")
    (3, 0.75, 0.25)
    """

    runs: tuple[str, ...]
    micro: dict[str, tuple[float, ...]]
    macro: dict[str, tuple[float, ...]]

    @property
    def n_runs(self) -> int:
        """Number of runs."""
        return len(self.runs)

    def values(self, metric: str, average: str = "micro") -> tuple[float, ...]:
        """The score of each run."""
        per: dict[str, tuple[float, ...]] = getattr(self, average)
        return per[metric]

    def mean(self, metric: str, average: str = "micro") -> float:
        """The mean over runs."""
        return float(np.mean(self.values(metric, average)))

    def sd(self, metric: str, average: str = "micro") -> float:
        """The sample standard deviation over runs (``n − 1``; NaN for one run)."""
        v = self.values(metric, average)
        return float(np.std(v, ddof=1)) if len(v) > 1 else float("nan")

    def to_dict(self) -> dict[str, Any]:
        """``{"runs", "n_runs", "micro": {metric: {"mean", "sd", "values"}}, "macro": ...}``."""
        out: dict[str, Any] = {"runs": list(self.runs), "n_runs": self.n_runs}
        for avg in ("micro", "macro"):
            out[avg] = {m: {"mean": _json_float(self.mean(m, avg)),
                            "sd": _json_float(self.sd(m, avg)),
                            "values": [_json_float(x) for x in self.values(m, avg)]}
                        for m in METRICS}
        return out


@dataclass(frozen=True)
class SystemScores:
    """One system's micro and macro scores with bootstrap intervals.

    ``runs`` is None for one prediction per system; from
    :func:`~nerscore.compare_runs` it holds every run's scores, and the
    scores with intervals are means over the runs.
    """

    name: str
    micro: PRFEstimates
    macro: PRFEstimates
    runs: RunSpread | None = None

    def get(self, metric: str, average: str = "micro") -> Estimate:
        """The estimate of ``metric`` (precision, recall, f1) under ``average`` (micro, macro)."""
        est: Estimate = getattr(getattr(self, average), metric)
        return est

    def to_dict(self) -> dict[str, Any]:
        """``{"name", "micro": {...}, "macro": {...}}``, and ``"runs"`` when there are runs."""
        out: dict[str, Any] = {"name": self.name, "micro": self.micro.to_dict(), "macro": self.macro.to_dict()}
        if self.runs is not None:
            out["runs"] = self.runs.to_dict()
        return out


@dataclass(frozen=True)
class PairResult:
    """Two systems compared: the difference ``score(a) - score(b)`` and its p-values.

    ``difference`` carries the paired bootstrap interval of the difference;
    a p-value is None when its test was not run, and NaN when it is undefined
    (the difference, or some resample of it, is; a note says why).
    ``p_bootstrap_holm`` and
    ``p_randomization_holm`` are the Holm–Bonferroni adjusted p-values over
    the family of every pair compared (:attr:`Comparison.family`); None with
    fewer than two pairs or when the test was not run.
    """

    a: str
    b: str
    difference: Estimate
    p_bootstrap: float | None
    p_randomization: float | None
    p_bootstrap_holm: float | None = None
    p_randomization_holm: float | None = None

    def to_dict(self) -> dict[str, Any]:
        """``{"a", "b", "difference", "p_bootstrap", "p_randomization", ..._holm}``; NaN as None."""
        tests = ("p_bootstrap", "p_randomization", "p_bootstrap_holm", "p_randomization_holm")
        return {"a": self.a, "b": self.b, "difference": self.difference.to_dict(),
                **{t: _json_float(getattr(self, t)) for t in tests}}


@dataclass(frozen=True)
class Comparison:
    """The result of :func:`compare` (or of :func:`confidence_intervals`): data only.

    Attributes
    ----------
    systems : tuple of SystemScores
        Each system's scores and intervals, in the order given.
    pairs : tuple of PairResult
        Every pair ``(a, b)`` with ``a`` listed before ``b``; with a
        ``baseline``, every other system ``a`` against it (``b``).
    metric, average : str
        The score the pairs compare (e.g. ``"f1"``, ``"micro"``).
    method : str
        ``"bootstrap"``, ``"randomization"`` or ``"both"``: which p-values.
    n_resamples, level, seed : int, float, int or None
        Resampling settings (intervals are at ``level``).
    unit : str
        ``"document"`` or ``"sentence"``: what is resampled.
    n_units : int
        How many units there are.
    match : str
        The matcher; ``options`` its effective options.
    zero_division : float or "warn"
        Value of undefined ratios in every resample, as given: ``"warn"``
        sets them to 0.0 and says so in a note (``to_dict`` writes it as
        :meth:`nerscore.Report.to_dict` does).
    baseline : str or None
        The system every other one was compared with, or None (all pairs).
    notes : tuple of str
        Anything the reader should know: each system's input notes (documents
        one side lacks, documents whose texts differ), prefixed with its name;
        units that fell back to sentences; too few resamples for the
        intervals' level, or too few units for the bootstrap to be reliable;
        intervals of zero width; scores and resamples that are undefined, or
        that ``zero_division="warn"`` set to 0.0 (:mod:`.notes`); which family
        of pairs the Holm–Bonferroni adjustment covered.
    llm : dict of str to dict
        For each system given as model outputs, what reading and aligning
        them counted (:meth:`nerscore.LLMSummary.to_dict`); empty otherwise.
    """

    #: what :func:`nerscore.render_result` renders it as
    render_kind: ClassVar[str] = "comparison"

    systems: tuple[SystemScores, ...]
    pairs: tuple[PairResult, ...]
    metric: str
    average: str
    method: str
    n_resamples: int
    level: float
    seed: int | None
    unit: str
    n_units: int
    match: str
    options: dict[str, Any] = field(default_factory=dict)
    zero_division: float | str = 0.0
    notes: tuple[str, ...] = ()
    baseline: str | None = None
    llm: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)

    @property
    def family(self) -> str:
        """The family of comparisons the Holm–Bonferroni adjustment covers, in words."""
        if self.baseline is not None:
            return (f"the {len(self.pairs)} comparisons of each system with the baseline "
                    f"{self.baseline!r}")
        return f"all {len(self.pairs)} pairs of the {len(self.systems)} systems"

    def system(self, name: str) -> SystemScores:
        """The scores of the system called ``name``."""
        for s in self.systems:
            if s.name == name:
                return s
        raise KeyError(f"No system named {name!r}; the systems are "
                       f"{', '.join(repr(s.name) for s in self.systems)}.")

    def to_dict(self) -> dict[str, Any]:
        """A JSON-safe dict (NaN as None)."""
        return {
            "match": self.match, "options": dict(self.options), "metric": self.metric,
            "average": self.average, "method": self.method, "n_resamples": self.n_resamples,
            "level": self.level, "seed": self.seed, "unit": self.unit, "n_units": self.n_units,
            "zero_division": (self.zero_division if isinstance(self.zero_division, str)
                              else _json_float(self.zero_division)),
            "baseline": self.baseline,
            "systems": [s.to_dict() for s in self.systems],
            "pairs": [p.to_dict() for p in self.pairs],
            "notes": list(self.notes),
            **({"llm": {k: dict(v) for k, v in self.llm.items()}} if self.llm else {}),
        }

    def to_json(self, *, indent: int | None = 2) -> str:
        """:meth:`to_dict` as JSON text."""
        return json.dumps(self.to_dict(), indent=indent, ensure_ascii=False)


def _json_float(x: float | None) -> float | None:
    return None if isinstance(x, float) and np.isnan(x) else x
