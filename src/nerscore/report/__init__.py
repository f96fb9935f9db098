"""Reports: one data object (:mod:`nerscore.report.model`) and separate renderers.

Every renderer is a function over a :class:`Report`: ``render_text``,
``render_markdown``, ``render_html``, ``render_seqeval`` and
``render_conlleval``; ``Report.to_dict()``/``to_json()`` give the JSON form.
Names are imported on first use.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

_EXPORTS = {
    "Report": "nerscore.report.model",
    "Row": "nerscore.report.model",
    "render_conlleval": "nerscore.report.conlleval",
    "render_html": "nerscore.report.html",
    "render_markdown": "nerscore.report.text",
    "render_seqeval": "nerscore.report.seqeval",
    "render_text": "nerscore.report.text",
}

__all__ = [
    "Report",
    "Row",
    "render_conlleval",
    "render_html",
    "render_markdown",
    "render_seqeval",
    "render_text",
]


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'nerscore.report' has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)


if TYPE_CHECKING:  # pragma: no cover
    from nerscore.report.conlleval import render_conlleval
    from nerscore.report.html import render_html
    from nerscore.report.model import Report, Row
    from nerscore.report.seqeval import render_seqeval
    from nerscore.report.text import render_markdown, render_text
