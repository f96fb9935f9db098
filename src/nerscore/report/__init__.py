"""Reports: one data object and separate renderers."""

from nerscore.report._model import Report, Row
from nerscore.report.html import render_html
from nerscore.report.json import report_to_dict, report_to_json
from nerscore.report.text import render_markdown, render_text

__all__ = ["Report", "Row", "render_html", "render_markdown", "render_text", "report_to_dict", "report_to_json"]
