"""Scoring: counts from matched entities, scores from counts, the report as data.

The functional API (counting in :mod:`~nerscore.scoring.counting`, scores
and reports in :mod:`~nerscore.scoring.metrics`), the one reduction from
counts to scores (:mod:`~nerscore.scoring.reduction`) and the
:class:`~nerscore.scoring.report.Report` (:mod:`~nerscore.scoring.report`).
"""
