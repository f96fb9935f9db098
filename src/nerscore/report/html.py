"""A self-contained HTML page of a :class:`Report` (standard library only).

The page has no scripts and no external resources: inline CSS, every value
escaped with :func:`html.escape`. Rendering never recomputes scores.
"""

from __future__ import annotations

from html import escape
from typing import Any

from nerscore.report.model import Report, Row
from nerscore.report.text import report_header

__all__ = ["render_html"]

_CSS = """
body { font-family: system-ui, -apple-system, "Segoe UI", sans-serif; margin: 2rem; color: #1b1f24; }
h1 { font-size: 1.4rem; margin-bottom: .2rem; }
p.meta { color: #57606a; margin-top: 0; }
table { border-collapse: collapse; margin: 1rem 0 2rem; }
th, td { padding: .3rem .8rem; border-bottom: 1px solid #d0d7de; text-align: right; }
th:first-child, td:first-child { text-align: left; }
thead th { border-bottom: 2px solid #57606a; }
tr.avg td { font-weight: 600; background: #f6f8fa; }
td.bar { min-width: 8rem; text-align: left; }
td.bar span { display: inline-block; height: .7rem; background: #2f81f7; border-radius: 2px; }
ul.notes { color: #57606a; }
"""


def _num(x: Any, digits: int) -> str:
    if isinstance(x, float):
        return "nan" if x != x else f"{x:.{digits}f}"
    return escape(str(x))


def _bar(value: float) -> str:
    width = 0.0 if value != value else max(0.0, min(1.0, value)) * 8
    return f'<td class="bar"><span style="width:{width:.2f}rem"></span></td>'


def _row(name: str, row: Row, digits: int, css: str = "") -> str:
    cls = f' class="{css}"' if css else ""
    cells = [escape(name), _num(row.precision, digits), _num(row.recall, digits),
             _num(row.fbeta, digits), _num(row.n_gold, digits), _num(row.n_pred, digits),
             _num(row.tp, digits)]
    return f"<tr{cls}>" + "".join(f"<td>{c}</td>" for c in cells) + _bar(row.fbeta) + "</tr>"


def render_html(report: Report, *, digits: int = 2, title: str = "nerscore report") -> str:
    """A self-contained HTML page: per-label table, averages, schemas and notes.

    Parameters
    ----------
    report : Report
    digits : int
        Decimals shown.
    title : str
        Page title (escaped).

    Returns
    -------
    str
        A complete ``<!DOCTYPE html>`` document with inline CSS and no scripts.

    Examples
    --------
    >>> import nerscore
    >>> page = render_html(nerscore.evaluate([["B-<b>", "O"]], [["B-<b>", "O"]]))
    >>> page.startswith("<!DOCTYPE html>"), "&lt;b&gt;" in page, "<b>" in page
    (True, True, False)
    """
    f_name = "F1" if report.beta == 1.0 else f"F{report.beta:g}"
    head = ("<tr><th>label</th><th>precision</th><th>recall</th>"
            f"<th>{escape(f_name)}</th><th>support</th><th>predicted</th><th>tp</th>"
            "<th></th></tr>")
    rows = [_row(lab, row, digits) for lab, row in report.labels.items()]
    rows += [_row("micro avg", report.micro, digits, "avg"),
             _row("macro avg", report.macro, digits, "avg"),
             _row("weighted avg", report.weighted, digits, "avg")]
    parts = [
        "<!DOCTYPE html>", '<html lang="en">', "<head>", '<meta charset="utf-8">',
        f"<title>{escape(title)}</title>", f"<style>{_CSS}</style>", "</head>", "<body>",
        f"<h1>{escape(title)}</h1>",
        f'<p class="meta">nerscore {escape(report.version)} — {escape(report_header(report))}</p>',
        f"<table><thead>{head}</thead><tbody>{''.join(rows)}</tbody></table>",
    ]
    if report.accuracy is not None or report.n_tokens is not None:
        acc = "n/a" if report.accuracy is None else _num(report.accuracy, digits)
        parts.append(f"<p>Token accuracy: <strong>{acc}</strong> "
                     f"({_num(report.n_tokens, digits)} tokens, "
                     f"{_num(report.n_sequences, digits)} sequences)</p>")
    schemas = report.extra.get("schemas")
    if schemas:
        cols = ("correct", "incorrect", "partial", "missed", "spurious", "possible", "actual",
                "precision", "recall", "f1")
        body = "".join(
            f"<tr><td>{escape(name)}</td>"
            + "".join(f"<td>{_num(t['overall'][c], digits)}</td>" for c in cols) + "</tr>"
            for name, t in schemas.items()
        )
        parts.append("<h2>SemEval-2013 schemas</h2><table><thead><tr><th>schema</th>"
                     + "".join(f"<th>{c}</th>" for c in cols)
                     + f"</tr></thead><tbody>{body}</tbody></table>")
    if report.notes:
        parts.append('<h2>Notes</h2><ul class="notes">'
                     + "".join(f"<li>{escape(n)}</li>" for n in report.notes) + "</ul>")
    parts += ["</body>", "</html>", ""]
    return "\n".join(parts)
