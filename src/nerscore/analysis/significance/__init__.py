"""Comparing systems: per-unit counts, bootstrap intervals and significance tests.

- :func:`sequence_counts` splits one evaluation into per-sentence or
  per-document count arrays whose sums are the report's counts;
- :func:`compare` gives every system's scores with percentile bootstrap
  intervals and, for every pair, the difference with its interval and
  p-values from the paired bootstrap and from approximate randomization,
  Holm–Bonferroni adjusted over the pairs (:func:`holm_bonferroni`);
- :func:`confidence_intervals` is :func:`compare` for one system;
- :func:`compare_runs` compares systems with several runs each, resampling
  documents and runs together;

Definitions and formulas: docs/significance.md.
"""

from __future__ import annotations

from nerscore.analysis.significance.across_runs import RunDocumentsError, compare_runs
from nerscore.analysis.significance.adjustment import holm_bonferroni
from nerscore.analysis.significance.comparison import compare, confidence_intervals
from nerscore.analysis.significance.results import (
    Comparison,
    Estimate,
    PairResult,
    PRFEstimates,
    RunSpread,
    SystemScores,
)
from nerscore.analysis.significance.units import (
    SequenceCounts,
    UnsplittableCountsError,
    sequence_counts,
)

__all__ = [
    "Comparison",
    "Estimate",
    "PRFEstimates",
    "PairResult",
    "RunDocumentsError",
    "RunSpread",
    "SequenceCounts",
    "SystemScores",
    "UnsplittableCountsError",
    "compare",
    "compare_runs",
    "confidence_intervals",
    "holm_bonferroni",
    "sequence_counts",
]
