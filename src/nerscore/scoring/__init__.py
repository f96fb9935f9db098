"""Scoring: counts from matched entities, scores from counts, the report as data.

The functional API (:mod:`~nerscore.scoring.metrics`), the one reduction
from counts to scores (:mod:`~nerscore.scoring.reduction`) and the
:class:`~nerscore.scoring.report.Report` (:mod:`~nerscore.scoring.report`).
"""
