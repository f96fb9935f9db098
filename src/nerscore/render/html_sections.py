"""Server-rendered parts of the HTML report: summary, per-label table, heat map, tables.

Every function returns an HTML fragment; every piece of user text goes through
:func:`html.escape`. Numbers are written twice where the page's script needs
them: as the cell's text and as a ``data-v`` attribute holding the raw value
(the sort key), so sorting and view toggles never parse formatted text.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from html import escape
from typing import Any

from nerscore.analysis.confusion import ConfusionMatrix
from nerscore.render.text import format_count
from nerscore.scoring.report import Report, Row

__all__ = [
    "averages_table",
    "confusion_section",
    "findings_section",
    "generic",
    "labels_table",
    "notes_section",
    "schemas_section",
    "summary_facts",
]

#: The metrics of a row, in column order: (key, header, kind).
METRICS = (
    ("precision", "precision", "ratio"),
    ("recall", "recall", "ratio"),
    ("fbeta", "F1", "ratio"),
    ("n_gold", "support", "count"),
    ("n_pred", "predicted", "count"),
    ("tp", "TP", "count"),
    ("fp", "FP", "count"),
    ("fn", "FN", "count"),
)


def f_name(report: Report) -> str:
    """The F column's name: ``F1``, or ``F2`` etc. for another beta."""
    return "F1" if report.beta == 1.0 else f"F{report.beta:g}"


def num(x: Any, digits: int) -> str:
    """A value as cell text: floats with ``digits`` decimals, ``nan``, ``n/a`` for None."""
    if x is None:
        return "n/a"
    if isinstance(x, float):
        return "nan" if x != x else f"{x:.{digits}f}"
    return escape(str(x))


def _raw(x: float) -> str:
    """The ``data-v`` sort key of a number (``NaN`` sorts last)."""
    return "NaN" if x != x else repr(float(x))


def metric_value(row: Row, key: str) -> float:
    """One metric of a row by key (``fp`` and ``fn`` are derived)."""
    return float(getattr(row, key))


def metric_cell(row: Row | None, key: str, kind: str, digits: int) -> str:
    """A ``<td>`` with text, sort key and, for ratios, a bar (CSS variable ``--w``)."""
    if row is None:
        return '<td class="num" data-v="NaN">–</td>'
    value = metric_value(row, key)
    if kind == "ratio":
        width = 0.0 if value != value else max(0.0, min(1.0, value)) * 100
        return (f'<td class="num ratio" style="--w:{width:.1f}%" data-v="{_raw(value)}">'
                f"{num(value, digits)}</td>")
    return f'<td class="num" data-v="{_raw(value)}">{format_count(value)}</td>'


def _th(text: str, *, sort: bool = True, cls: str = "") -> str:
    c = f' class="{cls}"' if cls else ""
    if not sort:
        return f"<th{c}>{escape(text)}</th>"
    return f'<th{c}><button type="button" class="sort">{escape(text)}</button></th>'


def _options(report: Report) -> str:
    bits = [f"{k}={v}" for k, v in report.options.items() if v is not None]
    return ", ".join(bits) or "–"


def summary_facts(systems: Mapping[str, Report], digits: int) -> str:
    """How each system was scored, and the sizes: one column per system."""
    names = list(systems)
    rows: list[tuple[str, list[str]]] = [
        ("matcher", [escape(r.match) for r in systems.values()]),
        ("options", [escape(_options(r)) for r in systems.values()]),
        ("scheme", [escape(r.scheme or ("auto" if r.mode else "–")) for r in systems.values()]),
        ("mode", [escape(r.mode or "–") for r in systems.values()]),
        ("beta", [escape(f"{r.beta:g}") for r in systems.values()]),
        ("zero division", [escape(str(r.zero_division)) for r in systems.values()]),
        ("sequences", [num(r.n_sequences, digits) for r in systems.values()]),
        ("tokens", [num(r.n_tokens, digits) for r in systems.values()]),
        ("gold entities", [format_count(r.micro.n_gold) for r in systems.values()]),
        ("predicted entities", [format_count(r.micro.n_pred) for r in systems.values()]),
        ("token accuracy", [num(r.accuracy, digits) for r in systems.values()]),
        ("nerscore", [escape(r.version) for r in systems.values()]),
    ]
    head = "<tr><th></th>" + "".join(f"<th>{escape(n)}</th>" for n in names) + "</tr>"
    body = "".join(f'<tr><th scope="row">{escape(k)}</th>'
                   + "".join(f"<td>{v}</td>" for v in vals) + "</tr>" for k, vals in rows)
    return f'<table class="facts" id="facts"><thead>{head}</thead><tbody>{body}</tbody></table>'


_AVERAGES = (("micro avg", "micro"), ("macro avg", "macro"), ("weighted avg", "weighted"))
_AVG_METRICS = ("precision", "recall", "fbeta", "tp", "fp", "fn")


def averages_table(systems: Mapping[str, Report], digits: int) -> str:
    """Micro, macro and weighted averages: P, R, F, TP, FP, FN for each system."""
    first = next(iter(systems.values()))
    heads = [h if k != "fbeta" else f_name(first) for k, h, _ in METRICS if k in _AVG_METRICS]
    group = "".join(f'<th colspan="{len(heads)}" class="sys">{escape(n)}</th>' for n in systems)
    sub = "".join(_th(h, sort=False) for _ in systems for h in heads)
    kinds = {k: kind for k, _, kind in METRICS}
    body = []
    for title, attr in _AVERAGES:
        cells = "".join(metric_cell(getattr(r, attr), k, kinds[k], digits)
                        for r in systems.values() for k in _AVG_METRICS)
        body.append(f'<tr><th scope="row">{title}</th>{cells}</tr>')
    return (f'<table class="averages" id="averages"><thead><tr><th></th>{group}</tr>'
            f"<tr><th></th>{sub}</tr></thead><tbody>{''.join(body)}</tbody></table>")


def labels_table(systems: Mapping[str, Report], digits: int) -> str:
    """The per-label table, sortable by any column (the page's script sorts it).

    One system: every metric of :data:`METRICS` as a column, then the three
    averages in a separate, unsorted body. Several systems: support, then one
    column per system showing the metric picked with the buttons above the
    table (F by default); each cell carries every metric in ``data-*``.
    """
    reports = list(systems.values())
    labels = sorted({lab for r in reports for lab in r.labels})
    if len(reports) == 1:
        (report,) = reports
        heads = [h if k != "fbeta" else f_name(report) for k, h, _ in METRICS]
        head = "<tr>" + _th("label") + "".join(_th(h) for h in heads) + "</tr>"

        def row(name: str, r: Row, scope: str = "") -> str:
            cells = "".join(metric_cell(r, k, kind, digits) for k, _, kind in METRICS)
            first = f'<th scope="row">{escape(name)}</th>' if scope else \
                f'<td data-v="{escape(name)}">{escape(name)}</td>'
            return f"<tr>{first}{cells}</tr>"

        body = "".join(row(lab, report.labels[lab]) for lab in labels)
        avgs = "".join(row(t, getattr(report, a), "row") for t, a in _AVERAGES)
        return (f'<table class="labels sortable" id="labels"><thead>{head}</thead>'
                f'<tbody class="rows">{body}</tbody><tbody class="avg">{avgs}</tbody></table>')
    buttons = "".join(
        f'<button type="button" data-metric="{k}" aria-pressed="{str(k == "fbeta").lower()}">'
        f"{escape(h if k != 'fbeta' else f_name(reports[0]))}</button>"
        for k, h, _ in METRICS if k != "n_gold")
    head = ("<tr>" + _th("label") + _th("support")
            + "".join(_th(n, cls="sys") for n in systems) + "</tr>")

    def multi(lab: str, rows: Sequence[Row | None], scope: bool = False) -> str:
        support = next((r.n_gold for r in rows if r is not None), 0)
        cells = [f'<td class="num" data-v="{support}">{format_count(support)}</td>']
        for r in rows:
            if r is None:
                cells.append('<td class="num sysv" data-v="NaN">–</td>')
                continue
            data = " ".join(f'data-{k.replace("_", "-")}="{_raw(metric_value(r, k))}"'
                            for k, _, _ in METRICS)
            value = r.fbeta
            width = 0.0 if value != value else max(0.0, min(1.0, value)) * 100
            cells.append(f'<td class="num ratio sysv" style="--w:{width:.1f}%" '
                         f'data-v="{_raw(value)}" {data}>{num(value, digits)}</td>')
        first = (f'<th scope="row">{escape(lab)}</th>' if scope
                 else f'<td data-v="{escape(lab)}">{escape(lab)}</td>')
        return f"<tr>{first}{''.join(cells)}</tr>"

    body = "".join(multi(lab, [r.labels.get(lab) for r in reports]) for lab in labels)
    avgs = "".join(multi(t, [getattr(r, a) for r in reports], True) for t, a in _AVERAGES)
    return (f'<div class="metric-pick" role="group" aria-label="metric">{buttons}</div>'
            f'<table class="labels sortable multi" id="labels" data-digits="{digits}">'
            f'<thead>{head}</thead><tbody class="rows">{body}</tbody>'
            f'<tbody class="avg">{avgs}</tbody></table>')


def schemas_section(report: Report, digits: int) -> str:
    """SemEval-2013 overall rows per schema, when the report has them."""
    schemas = report.extra.get("schemas")
    if not schemas:
        return ""
    cols = ("correct", "incorrect", "partial", "missed", "spurious", "possible", "actual",
            "precision", "recall", "f1")
    body = "".join(
        f"<tr><td>{escape(name)}</td>"
        + "".join(f'<td class="num">{num(t["overall"][c], digits)}</td>' for c in cols)
        + "</tr>" for name, t in schemas.items())
    return ("<table class=\"schemas\"><thead><tr><th>schema</th>"
            + "".join(f"<th>{c}</th>" for c in cols)
            + f"</tr></thead><tbody>{body}</tbody></table>")


def notes_section(systems: Mapping[str, Report]) -> str:
    """Repairs, merges, joins and every other note, per system."""
    parts = []
    for name, r in systems.items():
        if not r.notes:
            continue
        who = f"<h3>{escape(name)}</h3>" if len(systems) > 1 else ""
        parts.append(who + '<ul class="notes">'
                     + "".join(f"<li>{escape(n)}</li>" for n in r.notes) + "</ul>")
    return "".join(parts)


def _norm(m: Any, axis: int) -> Any:
    import numpy as np

    m = np.asarray(m, dtype=np.float64)
    denom = m.sum(axis=axis, keepdims=True)
    return np.divide(m, denom, out=np.zeros_like(m), where=denom != 0)


def confusion_section(cm: ConfusionMatrix, digits: int, system: str = "") -> str:
    """The confusion matrix as a heat map: a table whose cells the script recolours.

    Each cell holds its raw count and its row and column shares (``data-raw``,
    ``data-row``, ``data-col``); the page opens on the raw counts, shaded by
    their share of the largest cell. Diagonal cells (agreement) and the others
    (confusions, misses, spurious predictions) are shaded in different colours.
    """
    raw = cm.matrix.tolist()
    by_row, by_col = _norm(cm.matrix, 1).tolist(), _norm(cm.matrix, 0).tolist()
    names = [*cm.labels, "none"]
    top = max([v for row in raw for v in row] + [1])
    n = len(names)
    head = ('<tr><th class="corner">gold \\ predicted</th>'
            + "".join(f'<th scope="col">{escape(x)}</th>' for x in names) + "</tr>")
    rows = []
    for i in range(n):
        cells = []
        for j in range(n):
            v = raw[i][j]
            kind = "diag" if i == j and i < n - 1 else "off"
            title = f"gold {names[i]} → predicted {names[j]}: {v}"
            cells.append(
                f'<td class="{kind}" style="--a:{v / top:.3f}" data-raw="{v}" '
                f'data-row="{by_row[i][j]:.6g}" data-col="{by_col[i][j]:.6g}" '
                f'title="{escape(title)}">{v}</td>')
        rows.append(f'<tr><th scope="row">{escape(names[i])}</th>{"".join(cells)}</tr>')
    sys_attr = f' data-system="{escape(system)}"' if system else ""
    return (f'<table class="cm"{sys_attr} data-digits="{digits}"><thead>{head}</thead>'
            f"<tbody>{''.join(rows)}</tbody></table>")


# ----------------------------------------------------------------- generic dict rendering


def _scalar(x: Any) -> str:
    if x is None:
        return "–"
    if isinstance(x, bool):
        return "yes" if x else "no"
    if isinstance(x, float):
        if math.isnan(x):
            return "nan"
        if x != 0 and abs(x) < 1e-3:
            return f"{x:.2e}"
        return f"{x:.4f}"
    return escape(str(x))


def _is_scalar(x: Any) -> bool:
    return x is None or isinstance(x, (str, int, float, bool))


def _is_estimate(value: Any) -> bool:
    """A mapping ``{"value", "low", "high"}`` of numbers: an estimate and its interval."""
    return (isinstance(value, Mapping) and set(value) == {"value", "low", "high"}
            and all(_is_scalar(v) for v in value.values()))


def generic(value: Any, depth: int = 0) -> str:
    """Any JSON-like value as HTML: records become tables, mappings key/value tables.

    A list of mappings is one table (the union of their keys as columns); a
    mapping of mappings is one table with a row per key; ``{"value", "low",
    "high"}`` is shown as ``value [low, high]``; any other mapping a
    two-column table; a list of scalars a comma-separated list; nesting
    recurses (to a depth of 6, then the value's ``repr``).
    """
    if _is_scalar(value):
        return _scalar(value)
    if depth > 6:
        return escape(repr(value))
    if _is_estimate(value):  # a value with its interval
        return (f"{_scalar(value['value'])} <span class=\"ci\">[{_scalar(value['low'])}, "
                f"{_scalar(value['high'])}]</span>")
    if isinstance(value, Mapping):
        items = list(value.items())
        if items and all(isinstance(v, Mapping) and not _is_estimate(v) for _, v in items):
            cols = list(dict.fromkeys(k for _, v in items for k in v))
            head = "<tr><th></th>" + "".join(f"<th>{escape(str(c))}</th>" for c in cols) + "</tr>"
            body = "".join(
                f'<tr><th scope="row">{escape(str(k))}</th>'
                + "".join(f"<td>{generic(v.get(c), depth + 1)}</td>" for c in cols) + "</tr>"
                for k, v in items)
            return f'<table class="generic"><thead>{head}</thead><tbody>{body}</tbody></table>'
        body = "".join(f'<tr><th scope="row">{escape(str(k))}</th>'
                       f"<td>{generic(v, depth + 1)}</td></tr>" for k, v in items)
        return f'<table class="generic kv"><tbody>{body}</tbody></table>'
    if isinstance(value, (list, tuple)):
        if value and all(isinstance(v, Mapping) for v in value):
            cols = list(dict.fromkeys(k for v in value for k in v))
            head = "".join(f"<th>{escape(str(c))}</th>" for c in cols)
            body = "".join("<tr>" + "".join(f"<td>{generic(v.get(c), depth + 1)}</td>"
                                            for c in cols) + "</tr>" for v in value)
            return (f'<table class="generic"><thead><tr>{head}</tr></thead>'
                    f"<tbody>{body}</tbody></table>")
        return ", ".join(generic(v, depth + 1) for v in value)
    return escape(repr(value))


_SEVERITY_ORDER = {"error": 0, "high": 0, "warning": 1, "medium": 1, "info": 2, "low": 2}


def findings_section(data: Mapping[str, Any]) -> str:
    """Diagnostic findings (kind, severity, label(s), numbers, advice) as a table.

    Other keys of ``data`` are shown after it with :func:`generic`.
    """
    findings = data.get("findings") or []
    parts = []
    if findings:
        ordered = sorted(
            (f for f in findings if isinstance(f, Mapping)),
            key=lambda f: _SEVERITY_ORDER.get(str(f.get("severity", "")).lower(), 3))
        rows = []
        for f in ordered:
            sev = str(f.get("severity", ""))
            labels = f.get("labels", f.get("label"))
            nums = f.get("numbers")
            known = {"kind", "severity", "label", "labels", "numbers", "advice"}
            rest = {k: v for k, v in f.items() if k not in known}
            rows.append(
                f'<tr class="sev-{escape(sev.lower())}"><td><span class="sev">{escape(sev)}'
                f"</span></td><td>{escape(str(f.get('kind', '')))}</td>"
                f"<td>{generic(labels)}</td><td>{generic(nums)}</td>"
                f"<td>{escape(str(f.get('advice', '')))}"
                + (f"<div>{generic(rest)}</div>" if rest else "") + "</td></tr>")
        parts.append('<table class="findings"><thead><tr><th>severity</th><th>kind</th>'
                     "<th>label(s)</th><th>numbers</th><th>advice</th></tr></thead>"
                     f"<tbody>{''.join(rows)}</tbody></table>")
    else:
        parts.append("<p>No findings.</p>")
    rest = {k: v for k, v in data.items() if k != "findings"}
    if rest:
        parts.append(generic(rest))
    return "".join(parts)
