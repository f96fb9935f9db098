"""Server-rendered parts of the HTML report: summary, per-label table, heat map, tables.

Every function returns an HTML fragment; every piece of user text goes through
:func:`html.escape`. Numbers are written twice where the page's script needs
them: as the cell's text and as a ``data-v`` attribute holding the raw value
(the sort key), so sorting and view toggles never parse formatted text.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from html import escape
from typing import Any

from nerscore.analysis.confusion import ConfusionMatrix
from nerscore.render.text import format_count
from nerscore.scoring.report import Report, Row

__all__ = [
    "averages_table",
    "confusion_section",
    "diagnostics_section",
    "labels_table",
    "notes_section",
    "prose",
    "schemas_section",
    "significance_section",
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


# ------------------------------------------------------------ diagnostics and significance


def prose(text: Any) -> str:
    """User text as HTML: escaped, and any text between two backticks set as code.

    Examples
    --------
    >>> prose("pass `documents` <here>")
    'pass <code>documents</code> &lt;here&gt;'
    """
    return re.sub(r"`([^`]+)`", r"<code>\1</code>", escape(str(text)))


def _value(x: Any, digits: int) -> str:
    """A value of a settings line or a finding's numbers, as escaped text."""
    if x is None:
        return "not given"
    if isinstance(x, bool):
        return "yes" if x else "no"
    if isinstance(x, float):
        return "nan" if math.isnan(x) else f"{x:.{digits}g}"
    if isinstance(x, Mapping):
        return ", ".join(f"{escape(str(k))}={escape(str(v))}" for k, v in x.items())
    if isinstance(x, (list, tuple)):
        return "; ".join(_value(v, digits) for v in x)
    return escape(str(x))


def _pairs(items: Mapping[str, Any], digits: int) -> str:
    """``key value · key value``: a settings line or a finding's numbers."""
    return " · ".join(f"<span>{escape(str(k).replace('_', ' '))} <strong>{_value(v, digits)}"
                      "</strong></span>" for k, v in items.items())


def _unknown(data: Mapping[str, Any], known: Sequence[str], digits: int) -> str:
    """The entries of ``data`` that a section does not lay out, so that none goes unseen."""
    rest = {k: v for k, v in data.items() if k not in known}
    return f'<p class="settings">Also given: {_pairs(rest, digits)}</p>' if rest else ""


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


_SEVERITY_ORDER = {"error": 0, "warning": 1, "info": 2}


def _finding_row(f: Mapping[str, Any]) -> str:
    sev = str(f.get("severity", ""))
    labels = f.get("labels", f.get("label")) or ()
    labels = [labels] if isinstance(labels, str) else list(labels)
    numbers = f.get("numbers") or {}
    message = f.get("message")
    what = prose(message) if message else _pairs(numbers, 4)
    if message and numbers:
        what += f'<details><summary>numbers</summary>{_pairs(numbers, 4)}</details>'
    rest = {k: v for k, v in f.items()
            if k not in ("kind", "severity", "label", "labels", "numbers", "message", "advice")}
    if rest:
        what += f'<div class="settings">{_pairs(rest, 4)}</div>'
    return (f'<tr><td><span class="sev sev-{escape(sev.lower())}">{escape(sev)}</span>'
            f"</td><td>{escape(str(f.get('kind', '')))}</td>"
            f"<td>{escape(', '.join(str(x) for x in labels))}</td><td>{what}</td>"
            f"<td>{prose(f.get('advice', ''))}</td></tr>")


def _label_counts(labels: Mapping[str, Mapping[str, int]]) -> str:
    sides = [s for s in ("train", "test", "pred") if any(s in c for c in labels.values())]
    totals = {s: sum(c.get(s, 0) for c in labels.values()) for s in sides}
    head = "".join(f'<th class="num">{"predicted" if s == "pred" else s}</th>' for s in sides)

    def cell(counts: Mapping[str, int], side: str) -> str:
        n = counts.get(side, 0)
        share = (f' <span class="ci">{_pct(n / totals[side])}</span>'
                 if totals[side] and side != "pred" else "")
        return f'<td class="num">{format_count(n)}{share}</td>'

    body = "".join(f'<tr><th scope="row">{escape(lab)}</th>'
                   + "".join(cell(c, s) for s in sides) + "</tr>" for lab, c in labels.items())
    return (f'<table class="counts"><thead><tr><th>label</th>{head}</tr></thead>'
            f"<tbody>{body}</tbody></table>")


def _seen_table(scores: Mapping[str, Any], digits: int) -> str:
    rows = [*scores.get("buckets", []), scores.get("overall")]
    body = "".join(
        f'<tr><th scope="row">{escape(str(b.get("name", "")))}</th>'
        f'<td class="num">{format_count(b.get("n_gold", 0))}</td>'
        f'<td class="num">{format_count(b.get("n_pred", 0))}</td>'
        + "".join(f'<td class="num">{num(b.get(m) if defined else None, digits)}</td>'
                  for m, defined in (("precision", b.get("n_pred")), ("recall", b.get("n_gold")),
                                     ("f1", b.get("n_pred") and b.get("n_gold")))) + "</tr>"
        for b in rows if isinstance(b, Mapping))
    return ('<table class="counts"><thead><tr><th>entities</th><th class="num">gold</th>'
            '<th class="num">predicted</th><th class="num">precision</th>'
            '<th class="num">recall</th><th class="num">F1</th></tr></thead>'
            f"<tbody>{body}</tbody></table>")


def diagnostics_section(data: Mapping[str, Any], digits: int) -> str:
    """Diagnostic findings, label counts, checks not run and settings (``Diagnostics.to_dict()``).

    The findings are a table, most severe first: the severity as a badge,
    the kind, the labels, what was found (the numbers in a sentence, and
    all of them one click away) and the advice. Then the entities per label
    and side, the sizes, the label shift and the share of test entities seen
    in training in a few sentences, the scores of seen and unseen entities,
    the checks that did not run and why, and the settings in one line.

    Parameters
    ----------
    data : mapping
        ``Diagnostics.to_dict()``, or any mapping with some of its keys;
        keys this section does not lay out are listed after it.
    digits : int
        Decimals of the scores of seen and unseen entities.

    Returns
    -------
    str
        An HTML fragment.

    Examples
    --------
    >>> page = diagnostics_section({"findings": [{"kind": "few_instances",
    ...     "severity": "warning", "labels": ["ORG"], "message": "'ORG' has 1 training instance.",
    ...     "advice": "Add training examples.", "numbers": {"train": 1}}]}, 2)
    >>> '<span class="sev sev-warning">warning</span>' in page
    True
    >>> "<td>few_instances</td>" in page
    True
    """
    findings = [f if isinstance(f, Mapping) else {"message": f}
                for f in data.get("findings") or []]
    findings.sort(key=lambda f: _SEVERITY_ORDER.get(str(f.get("severity", "")).lower(), 3))
    n_sev = {s: sum(1 for f in findings if f.get("severity") == s) for s in _SEVERITY_ORDER}
    parts = [f'<p class="lead"><strong>{len(findings)} finding{"s" if len(findings) != 1 else ""}'
             "</strong>" + (": " + ", ".join(
                 f'{n} <span class="sev sev-{s}">{s if s == "info" or n == 1 else s + "s"}</span>'
                 for s, n in n_sev.items() if n) if findings else "") + ".</p>"]
    if findings:
        parts.append('<table class="findings"><thead><tr><th>severity</th><th>kind</th>'
                     "<th>labels</th><th>finding</th><th>advice</th></tr></thead><tbody>"
                     + "".join(_finding_row(f) for f in findings) + "</tbody></table>")
    else:
        parts.append("<p>No findings: every check that ran passed.</p>")
    facts = []
    labels = data.get("labels") if isinstance(data.get("labels"), Mapping) else {}
    if "n_train_sequences" in data or "n_test_sequences" in data:
        sizes = [f"{side}: " + (f"{format_count(sum(c.get(key, 0) for c in labels.values()))} "
                                "entities in " if labels else "")
                 + f"{_value(data.get(f'n_{key}_sequences'), 4)} sequence"
                 + ("" if data.get(f"n_{key}_sequences") == 1 else "s")
                 for side, key in (("Train", "train"), ("test", "test"))]
        facts.append("; ".join(sizes) + ".")
    tv = data.get("total_variation", math.nan)
    if "total_variation" in data:
        facts.append("Label shift between train and test (total variation): "
                     + ("n/a" if tv is None else f"<strong>{tv:.3f}</strong>")
                     + " (0: the same shares, 1: no label in common).")
    seen = data.get("seen")
    if isinstance(seen, Mapping):
        share = seen.get("share")
        facts.append(f"Seen in training: <strong>{_value(seen.get('n_seen'), 4)}</strong> of "
                     f"{_value(seen.get('n_test'), 4)} test entities"
                     + (f" ({_pct(share)})" if isinstance(share, float) else "")
                     + " have a surface form and label that occur in the training data.")
    if facts:
        parts.append(f"<p>{' '.join(facts)}</p>")
    if labels:
        parts.append("<h3>Entities per label</h3>" + _label_counts(labels))
    if isinstance(data.get("seen_scores"), Mapping):
        parts.append("<h3>Seen and unseen entities</h3>"
                     + _seen_table(data["seen_scores"], digits))
    skipped = data.get("skipped") or {}
    if skipped:
        parts.append("<p>Not checked: " + "; ".join(
            f"<code>{escape(str(k))}</code> ({prose(v)})" for k, v in skipped.items()) + ".</p>")
    parts += [f'<p class="note">Note: {prose(n)}</p>' for n in data.get("notes") or []]
    if data.get("settings"):
        parts.append(f'<p class="settings">Settings: {_pairs(data["settings"], 4)}</p>')
    known = ("format_version", "settings", "labels", "n_train_sequences", "n_test_sequences",
             "total_variation", "seen", "seen_scores", "findings", "skipped", "notes")
    return "".join(parts) + _unknown(data, known, 4)


_METRIC_NAMES = {"precision": "P", "recall": "R", "f1": "F1"}
_METHODS = {"bootstrap": "paired bootstrap", "randomization": "approximate randomization",
            "both": "paired bootstrap and approximate randomization"}


def _estimate(e: Any, digits: int, *, signed: bool = False) -> str:
    """``value [low, high]`` of an estimate ``{"value", "low", "high"}``."""
    if not isinstance(e, Mapping):
        return "–"

    def f(x: Any) -> str:
        if x is None or (isinstance(x, float) and math.isnan(x)):
            return "nan"
        return f"{x:+.{digits}f}" if signed else f"{x:.{digits}f}"

    return (f'{f(e.get("value"))} <span class="ci">[{f(e.get("low"))}, '
            f'{f(e.get("high"))}]</span>')


def _p_value(p: Any, n_resamples: Any, *, floor: bool = True, ran: bool = False) -> str:
    """A p-value as the text report shows it (``< 0.001`` at the floor), or "not run".

    NaN, and None of a test that ran (``ran``: JSON's NaN), are "nan": undefined.
    """
    from nerscore.render.significance import format_p_value

    if p is None and not ran:
        return "not run"
    if p is None or (isinstance(p, float) and math.isnan(p)):
        return "nan"
    if not floor or not isinstance(n_resamples, int):
        return f"{p:.3f}" if p >= 0.001 else "&lt; 0.001"
    return escape(format_p_value(p, n_resamples))


def significance_section(data: Mapping[str, Any], digits: int) -> str:
    """Scores with intervals, pairwise tests and settings (``Comparison.to_dict()``).

    One table of systems (micro and macro precision, recall and F1, each
    with its percentile bootstrap interval), one table of pairs (the
    difference of the compared score, its interval and the p-values), the
    notes, and the settings in one line.

    Parameters
    ----------
    data : mapping
        ``Comparison.to_dict()``, or any mapping with some of its keys;
        keys this section does not lay out are listed after it.
    digits : int
        Decimals of scores, differences and p-values (at least 4).

    Returns
    -------
    str
        An HTML fragment.

    Examples
    --------
    >>> page = significance_section({"level": 0.9, "pairs": [{"a": "A", "b": "B",
    ...     "difference": {"value": 0.1, "low": 0.05, "high": 0.15}, "p_bootstrap": 0.002,
    ...     "p_randomization": None}]}, 2)
    >>> "+0.1000" in page, "[+0.0500, +0.1500]" in page, "not run" in page
    (True, True, True)
    """
    d = max(digits, 4)
    level = data.get("level")
    pct = f"{100 * level:g}%" if isinstance(level, (int, float)) else "the"
    metric, average = data.get("metric", "f1"), data.get("average", "micro")
    score = f"{average} {_METRIC_NAMES.get(metric, metric)}"
    parts = []
    systems = [s for s in data.get("systems") or [] if isinstance(s, Mapping)]
    if systems:
        cols = [(a, m) for a in ("micro", "macro") for m in ("precision", "recall", "f1")]
        head = "".join(f'<th class="num{" cmp" if (a, m) == (average, metric) else ""}">'
                       f"{a} {_METRIC_NAMES[m]}</th>" for a, m in cols)
        body = "".join(
            f'<tr><th scope="row">{escape(str(s.get("name", "")))}</th>'
            + "".join(f'<td class="num est{" cmp" if (a, m) == (average, metric) else ""}">'
                      f"{_estimate((s.get(a) or {}).get(m), d)}</td>"
                      for a, m in cols) + "</tr>" for s in systems)
        parts.append(f"<h3>Scores with {pct} confidence intervals</h3>"
                     f'<table class="systems"><thead><tr><th>system</th>{head}</tr></thead>'
                     f"<tbody>{body}</tbody></table>")
    pairs = [p for p in data.get("pairs") or [] if isinstance(p, Mapping)]
    if pairs:
        r = data.get("n_resamples")
        method = data.get("method")  # None in JSON: not run, or undefined when the test ran
        ran = {"p_bootstrap": method in ("bootstrap", "both"),
               "p_randomization": method in ("randomization", "both")}
        holm = [f"{k}_holm" for k in ran if any(p.get(f"{k}_holm") is not None for p in pairs)
                or (ran[k] and len(pairs) > 1)]
        body = "".join(
            f'<tr><td>{escape(str(p.get("a", "")))}</td><td>{escape(str(p.get("b", "")))}</td>'
            f'<td class="num est">{_estimate(p.get("difference"), d, signed=True)}</td>'
            + "".join(f'<td class="num">{_p_value(p.get(k), r, ran=ran[k])}</td>' for k in ran)
            + "".join(f'<td class="num">{_p_value(p.get(k), r, floor=False, ran=True)}</td>'
                      for k in holm)
            + "</tr>" for p in pairs)
        holm_head = "".join(
            f'<th class="num">Holm p ({"paired bootstrap" if "bootstrap" in k else "randomization"})'
            "</th>" for k in holm)
        parts.append(f"<h3>Differences ({score} of A minus B)</h3>"
                     '<table class="pairs"><thead><tr><th>A</th><th>B</th>'
                     f'<th class="num">Δ {escape(score)} [{pct} CI]</th>'
                     '<th class="num">p (paired bootstrap)</th>'
                     f'<th class="num">p (randomization)</th>{holm_head}</tr></thead>'
                     f"<tbody>{body}</tbody></table>")
    parts += [f'<p class="note">Note: {prose(n)}</p>' for n in data.get("notes") or []]
    settings = {k: data[k] for k in ("match", "options", "metric", "average", "n_units", "unit",
                                     "method", "n_resamples", "level", "seed", "zero_division",
                                     "baseline")
                if k in data and not (k == "baseline" and data[k] is None)}
    if "method" in settings:
        settings["method"] = _METHODS.get(settings["method"], settings["method"])
    if settings:
        parts.append(f'<p class="settings">Settings: {_pairs(settings, 4)}</p>')
    known = ("systems", "pairs", "notes", "baseline", *settings)
    return "".join(parts) + _unknown(data, known, 4)
