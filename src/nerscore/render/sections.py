"""Sections appended to a rendered report (breakdowns, confidence intervals)."""

from __future__ import annotations

__all__ = ["titled_section"]


def titled_section(out: str, title: str, body: str) -> str:
    r"""``out``, a blank line, ``title``, a blank line and ``body``: a section appended to a report.

    Examples
    --------
    >>> titled_section("report\n", "scores by length", "table\n")
    'report\n\nscores by length\n\ntable\n'
    """
    sep = "\n" if out.endswith("\n") else "\n\n"
    return f"{out}{sep}{title}\n\n{body}"
