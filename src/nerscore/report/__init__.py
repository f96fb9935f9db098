"""Reports: one data object and separate renderers (imported on first use)."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

_EXPORTS = {
    "Report": "nerscore.report._model",
    "Row": "nerscore.report._model",
    "render_html": "nerscore.report.html",
    "render_markdown": "nerscore.report.text",
    "render_text": "nerscore.report.text",
    "report_to_dict": "nerscore.report.json",
    "report_to_json": "nerscore.report.json",
}

__all__ = [
    "Report",
    "Row",
    "render_html",
    "render_markdown",
    "render_text",
    "report_to_dict",
    "report_to_json",
]


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'nerscore.report' has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)


if TYPE_CHECKING:  # pragma: no cover
    from nerscore.report._model import Report, Row
    from nerscore.report.html import render_html
    from nerscore.report.json import report_to_dict, report_to_json
    from nerscore.report.text import render_markdown, render_text
