"""A self-contained HTML page of one or several :class:`Report` objects.

One file with inline CSS, inline JavaScript and no external resource, so it
opens offline, from ``file://``, years later. The tables (summary, averages,
per label, confusion matrix) are written as HTML and readable without the
script; the script sorts them, switches the confusion matrix between counts
and shares, and renders the error browser from the errors embedded as
compact JSON (integer columns and string tables), a page at a time. Every piece of user text is escaped with
:func:`html.escape` (in the JSON block, ``<``, ``>`` and ``&`` are escaped
too). Rendering never recomputes scores.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from html import escape
from typing import Any

from nerscore.analysis.confusion import ConfusionMatrix, confusion_from_report
from nerscore.errors import OptionError
from nerscore.render.html_assets import CSS, SCRIPT
from nerscore.render.html_errors import browser_markup, error_payload, script_json
from nerscore.render.html_llm import (
    llm_summary_table,
    outputs_markup,
    outputs_payload,
    unaligned_section,
)
from nerscore.render.html_sections import (
    averages_table,
    confusion_section,
    diagnostics_section,
    labels_table,
    notes_section,
    num,
    schemas_section,
    significance_section,
    summary_facts,
)
from nerscore.render.registry import Renderer, ScoreOutput, register_renderer
from nerscore.render.text import report_header
from nerscore.scoring.report import Report

__all__ = ["HTML", "render_html"]


def _systems(
    report: Report, systems: Mapping[str, Report] | None, name: str
) -> dict[str, Report]:
    if not systems:
        return {name: report}
    out = dict(systems)
    if any(r is report for r in out.values()):
        return out
    if name in out:
        raise ValueError(f"Expected `name` ({name!r}) to differ from the names in `systems`; "
                         "rename one, or pass `report` as one of `systems`.")
    return {name: report, **out}


def _as_dict(obj: Any, what: str) -> dict[str, Any]:
    if isinstance(obj, Mapping):
        return dict(obj)
    to_dict = getattr(obj, "to_dict", None)
    if to_dict is None:
        raise TypeError(f"Expected `{what}` to have a to_dict() method (or be a mapping); "
                        f"got {type(obj).__name__}.")
    data = to_dict()
    if not isinstance(data, Mapping):
        raise TypeError(f"Expected `{what}.to_dict()` to return a mapping; "
                        f"got {type(data).__name__}.")
    return dict(data)


def _no_curves(missing: Mapping[str, Report]) -> str:
    """Why the systems in ``missing`` have no curves: no scores, or how many predictions lack one.

    Examples
    --------
    >>> import nerscore
    >>> gold = {"d": [(0, 4, "A")]}
    >>> some = nerscore.evaluate(gold, {"d": [(0, 4, "A", 0.9), (5, 6, "A"), (7, 8, "A")]})
    >>> none = nerscore.evaluate(gold, {"d": [(0, 4, "A")]})
    >>> print(_no_curves({"a": some, "b": none, "c": none}))
    <p>No curves for b, c: their predictions have no scores.</p><p>No curves for a: 2 of its 3 predictions lack a score (curves need one on every prediction).</p>
    """
    unscored, partly, given = [], [], []
    for name, r in missing.items():
        pred = getattr(r.alignment, "pred", None)
        k, n = (pred.n_unscored, len(pred)) if pred is not None else (0, 0)
        if 0 < k < n:
            partly.append(f"<p>No curves for {escape(name)}: {k} of its {n} predictions "
                          f"{'lacks' if k == 1 else 'lack'} a score (curves need one on every "
                          "prediction).</p>")
        elif k == 0 < n:  # scored, but no curve was given
            given.append(escape(name))
        else:
            unscored.append(escape(name))
    head = (f"<p>No curves for {', '.join(unscored)}: their predictions have no scores.</p>"
            if unscored else "")
    tail = f"<p>No curves given for {', '.join(given)}.</p>" if given else ""
    return head + "".join(partly) + tail


def _counted(n: int | None, unit: str, digits: int) -> str:
    """A count and its unit, singular for 1 (``n/a`` for an unknown count)."""
    return f"{num(n, digits)} {unit}{'' if n == 1 else 's'}"


def _section(ident: str, title: str, body: str) -> str:
    return f'<section id="{ident}"><h2>{escape(title)}</h2>{body}</section>'


def render_html(
    report: Report,
    *,
    systems: Mapping[str, Report] | None = None,
    comparison: Any = None,
    diagnostics: Any = None,
    errors: bool = True,
    confusion: bool | ConfusionMatrix = True,
    texts: Sequence[Any] | None = None,
    digits: int = 2,
    title: str = "nerscore report",
    name: str = "system",
    page_size: int = 50,
    curve: Any = None,
    calibration: Any = None,
    model_outputs: Mapping[str, Mapping[str, str]] | None = None,
) -> str:
    """A self-contained HTML page: summary, per-label table, confusion matrix, error browser.

    Parameters
    ----------
    report : Report
        The evaluation to show.
    systems : mapping of str to Report, optional
        Several systems scored against the same gold, shown side by side in
        this order (one column per system in the summary and per-label
        tables; a confusion matrix each; a system picker in the error
        browser). ``report`` is shown first under ``name`` unless it is one
        of the values.
    comparison : object with ``to_dict()``, optional
        Significance results (e.g. from ``nerscore.compare``; the keys of
        ``Comparison.to_dict()``): a table of the systems' scores with
        their intervals, a table of the pairs with the difference, its
        interval and the p-values, and the settings in one line.
    diagnostics : object with ``to_dict()``, or mapping of str to one, optional
        Dataset diagnostics (e.g. from ``nerscore.diagnose``; the keys of
        ``Diagnostics.to_dict()``): the findings by severity with their
        advice, the entities per label, the checks not run and the
        settings in one line. A mapping gives each system's diagnostics
        (its prediction's findings differ) under the system's name.
    errors : bool
        Include the error browser: the sequences that hold an error, with
        their entities, ids and texts, embedded as compact JSON
        (:func:`nerscore.render.html_errors.error_payload`), and a search
        box over the documents with errors.
    confusion : bool or ConfusionMatrix
        Include the confusion matrix heat map: True for each system's own
        (:func:`nerscore.confusion_from_report`), or the matrix to show for
        ``report`` (e.g. one summed over chunks).
    texts : sequence, optional
        One text (str; character offsets) or token list (token offsets) per
        sequence, shown in the error browser (those of the sequences with
        errors); defaults to ``report.texts``.
    digits : int
        Decimals shown.
    title : str
        Page title (escaped).
    name : str
        The name of ``report`` among ``systems``.
    page_size : int
        Errors per page of the error browser.
    curve : Curve, or mapping of str to Curve, optional
        The threshold curve of scored predictions (:func:`nerscore.threshold_curve`):
        a "Curves" section draws precision against recall and F1 against
        threshold as inline SVG, the best-F1 operating point circled
        (docs/curves.md); with ``calibration`` (:func:`nerscore.calibration`)
        also the reliability diagram. A mapping gives each system's curve
        under its name: the section then draws every system's micro curve in
        one picture, then each system's pictures, and names each system
        without a curve with why (its predictions have no scores, or how
        many of them lack one). Without calibration, scores outside
        ``[0, 1]`` get a line saying why there is no reliability diagram.
    calibration : Calibration, or mapping of str to Calibration, optional
        See ``curve`` (a mapping when ``curve`` is one).
    model_outputs : mapping of str to mapping of str to str, optional
        Per system scored from model outputs (:func:`nerscore.evaluate_llm`),
        the raw output of each document by id: shown, escaped, beside its
        unaligned mentions and parse failures and under the document the
        error browser opens (:mod:`nerscore.render.html_llm`). The summary of
        such systems is a table of the Summary section either way.

    Returns
    -------
    str
        A complete ``<!DOCTYPE html>`` document.

    Raises
    ------
    TypeError
        When ``comparison`` or ``diagnostics`` has no ``to_dict()``.
    ValueError
        When ``texts`` does not hold one item per sequence.

    Notes
    -----
    Reports of ``match="token"`` pair no entities: their page has no
    confusion matrix and no error browser, and says so.

    Examples
    --------
    >>> import nerscore
    >>> page = render_html(nerscore.evaluate([["B-<b>", "O"]], [["B-<b>", "O"]]))
    >>> page.startswith("<!DOCTYPE html>"), "&lt;b&gt;" in page, "<b>" in page
    (True, True, False)
    """
    shown = _systems(report, systems, name)
    first = next(iter(shown.values()))
    several = len(shown) > 1
    nav = [("summary", "Summary"), ("labels", "Per label")]
    body = []

    summary = ['<div class="cols"><div><h3>Scoring</h3>' + summary_facts(shown, digits)
               + "</div><div><h3>Averages</h3>" + averages_table(shown, digits)]
    if not several and (first.accuracy is not None or first.n_tokens is not None):
        acc = "n/a" if first.accuracy is None else num(first.accuracy, digits)
        summary.append(f"<p>Token accuracy: <strong>{acc}</strong> "
                       f"({_counted(first.n_tokens, 'token', digits)}, "
                       f"{_counted(first.n_sequences, 'sequence', digits)})</p>")
    summary.append("</div></div>")
    for sys_name, r in shown.items():
        schemas = schemas_section(r, digits)
        if schemas:
            who = f" ({escape(sys_name)})" if several else ""
            summary.append(f"<h3>SemEval-2013 schemas{who}</h3>{schemas}")
    llm = llm_summary_table(shown, digits)
    if llm:
        summary.append(f"<h3>Model outputs</h3>{llm}")
    notes = notes_section(shown)
    if notes:
        summary.append(f"<h3>Notes</h3>{notes}")
    body.append(_section("summary", "Summary", "".join(summary)))
    body.append(_section("labels", "Per label", labels_table(shown, digits)))
    if curve is not None:
        from nerscore.render.html_curves import curves_section, systems_curves_section

        nav.append(("curves", "Curves"))
        if isinstance(curve, Mapping):
            cals = calibration if isinstance(calibration, Mapping) else None
            html = systems_curves_section(curve, cals, digits=digits)
            html += _no_curves({n: r for n, r in shown.items() if n not in curve})
        else:
            html = curves_section(curve, calibration, digits=digits)
        body.append(_section("curves", "Curves", html))

    if comparison is not None:
        nav.append(("significance", "Significance"))
        body.append(_section("significance", "Significance",
                             significance_section(_as_dict(comparison, "comparison"), digits)))
    if diagnostics is not None:
        nav.append(("diagnostics", "Diagnostics"))
        if isinstance(diagnostics, Mapping) and diagnostics and all(
                hasattr(v, "to_dict") for v in diagnostics.values()):  # one per system
            found = "".join(
                f'<h3 class="system">{escape(str(k))}</h3>'
                + diagnostics_section(_as_dict(v, "diagnostics"), digits)
                for k, v in diagnostics.items())
        else:
            found = diagnostics_section(_as_dict(diagnostics, "diagnostics"), digits)
        body.append(_section("diagnostics", "Diagnostics", found))
    if confusion is not False:
        given = {} if confusion is True else {id(report): confusion}
        nav.append(("confusion", "Confusion matrix"))
        body.append(_section("confusion", "Confusion matrix",
                             _confusion(shown, digits, given)))
    data = None
    if errors:
        nav.append(("errors", "Errors"))
        data, why = error_payload(shown, texts)
        inner = (browser_markup([s["name"] for s in data["systems"]], page_size) if data
                 else f"<p>No error listing: {escape(why)}.</p>")
        inner += unaligned_section(shown, model_outputs)
        body.append(_section("errors", "Errors", inner))

    links = "".join(f'<a href="#{i}">{escape(t)}</a>' for i, t in nav)
    parts = [
        "<!DOCTYPE html>", '<html lang="en">', "<head>", '<meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{escape(title)}</title>", f"<style>{CSS}</style>", "</head>", "<body>",
        f"<h1>{escape(title)}</h1>",
        f'<p class="meta">nerscore {escape(first.version)} — '
        f"{escape(report_header(first))}</p>",
        f"<nav>{links}</nav>",
        *body,
    ]
    if data is not None:
        parts.append(f'<script type="application/json" id="nerscore-data">'
                     f"{script_json(data)}</script>")
        raw = outputs_markup(outputs_payload(model_outputs, data["docs"]))
        parts += [raw] if raw else []
    parts += [f"<script>{SCRIPT}</script>", "</body>", "</html>", ""]
    return "\n".join(parts)


def _confusion(
    systems: Mapping[str, Report], digits: int, given: Mapping[int, ConfusionMatrix]
) -> str:
    views = ('<div class="cm-view" role="group" aria-label="view">'
             '<button type="button" data-view="raw" aria-pressed="true">counts</button>'
             '<button type="button" data-view="row" aria-pressed="false">share of gold '
             "(rows sum to 1)</button>"
             '<button type="button" data-view="col" aria-pressed="false">share of predicted '
             "(columns sum to 1)</button></div>")
    tables = []
    for name, r in systems.items():
        head = f"<h3>{escape(name)}</h3>" if len(systems) > 1 else ""
        try:
            cm = given[id(r)] if id(r) in given else confusion_from_report(r)
        except OptionError:
            tables.append(f"{head}<p>No confusion matrix: the report of match="
                          f"{escape(repr(r.match))} holds no pairing of entities.</p>")
            continue
        tables.append(head + confusion_section(cm, digits, name))
    return (views + "<p>Rows: gold labels; columns: predicted labels; <em>none</em>: no "
            "partner (missed gold entities in the last column, spurious predictions in the "
            "last row).</p>" + "".join(tables))


def _scores(output: ScoreOutput, digits: int) -> str:
    confusion: bool | ConfusionMatrix = True if output.confusion is None else output.confusion
    return render_html(output.report, digits=digits, confusion=confusion)


def _agreement(result: Any, digits: int) -> str:
    from nerscore.render.html_agreement import render_agreement_html

    return render_agreement_html(result, digits)


HTML = register_renderer(Renderer("html", "a self-contained HTML page",
                                  {"scores": _scores, "agreement": _agreement},
                                  frozenset({"confusion"})))
