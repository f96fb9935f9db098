"""Reports: one data object (:mod:`nerscore.scoring.report`) and separate renderers.

Every renderer is a function over a :class:`Report`: ``render_text``,
``render_markdown``, ``render_html``, ``render_seqeval`` and
``render_conlleval``; ``Report.to_dict()``/``to_json()`` give the JSON form.
Names are imported on first use.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

_EXPORTS = {
    "Report": "nerscore.scoring.report",
    "Row": "nerscore.scoring.report",
    "render_conlleval": "nerscore.render.conlleval",
    "render_html": "nerscore.render.html",
    "render_markdown": "nerscore.render.text",
    "render_seqeval": "nerscore.render.seqeval",
    "render_text": "nerscore.render.text",
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
        raise AttributeError(f"module 'nerscore.render' has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)


if TYPE_CHECKING:  # pragma: no cover
    from nerscore.render.conlleval import render_conlleval
    from nerscore.render.html import render_html
    from nerscore.render.seqeval import render_seqeval
    from nerscore.render.text import render_markdown, render_text
    from nerscore.scoring.report import Report, Row
