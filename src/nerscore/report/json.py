"""``Report.to_dict()`` / ``to_json()``: the stable, versioned JSON form."""

from __future__ import annotations

import json
import math
from typing import Any

from nerscore.report._model import Report

__all__ = ["FORMAT_VERSION", "report_to_dict", "report_to_json"]

FORMAT_VERSION = 1


def _clean(value: Any) -> Any:
    if isinstance(value, float) and math.isnan(value):
        return None
    if isinstance(value, dict):
        return {k: _clean(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_clean(v) for v in value]
    return value


def report_to_dict(report: Report) -> dict[str, Any]:
    """The report as plain JSON-safe data (``nan`` becomes ``None``)."""
    out: dict[str, Any] = {
        "format_version": FORMAT_VERSION,
        "match": report.match,
        "options": dict(report.options),
        "scheme": report.scheme,
        "mode": report.mode,
        "beta": report.beta,
        "zero_division": report.zero_division,
        "overall": report.micro.to_dict(),
        "macro": report.macro.to_dict(),
        "weighted": report.weighted.to_dict(),
        "labels": {lab: row.to_dict() for lab, row in report.labels.items()},
        "accuracy": report.accuracy,
        "n_sequences": report.n_sequences,
        "n_tokens": report.n_tokens,
        "notes": list(report.notes),
        "version": report.version,
    }
    out.update(report.extra)
    return _clean(out)  # type: ignore[no-any-return]


def report_to_json(report: Report, *, indent: int | None = 2) -> str:
    """The report as a JSON string."""
    return json.dumps(report_to_dict(report), indent=indent, ensure_ascii=False)
