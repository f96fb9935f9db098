"""JSON: every result as one JSON object (the public contract of ``docs/json.md``)."""

from __future__ import annotations

import json
from typing import Any

from nerscore.render.registry import Renderer, ScoreOutput, register_renderer

__all__ = ["JSON", "scores_to_dict"]


def scores_to_dict(output: ScoreOutput) -> dict[str, Any]:
    """The report's dict, with a key for each extra present.

    The keys are ``"confusion"``, ``"breakdown"`` and ``"confidence_intervals"``.

    Examples
    --------
    >>> import nerscore
    >>> report = nerscore.evaluate([["B-PER"]], [["B-LOC"]], zero_division=0)
    >>> cm = nerscore.confusion_from_report(report)
    >>> sorted(scores_to_dict(ScoreOutput(report, confusion=cm)))[:4]
    ['accuracy', 'beta', 'confusion', 'entities']
    """
    data = output.report.to_dict()
    if output.confusion is not None:
        data["confusion"] = output.confusion.to_dict()
    if output.breakdown is not None:
        data["breakdown"] = output.breakdown.to_dict()
    if output.intervals is not None:
        data["confidence_intervals"] = output.intervals.to_dict()
    return data


def _dumps(data: Any) -> str:
    return json.dumps(data, indent=2, ensure_ascii=False)


JSON = register_renderer(Renderer(
    "json", "one JSON object (docs/json.md)",
    {"scores": lambda o, d: _dumps(scores_to_dict(o)),
     "comparison": lambda r, d: _dumps(r.to_dict()),
     "diagnostics": lambda r, d: _dumps(r.to_dict()),
     "agreement": lambda r, d: _dumps(r.to_dict()),
     "runs": lambda r, d: _dumps(r.to_dict())},
    frozenset({"confusion", "breakdown", "intervals"}), shows_notes=True,
))
