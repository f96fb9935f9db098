"""Agreement between annotators as one self-contained HTML page (the ``html`` format's ``agreement``).

The page holds the pairwise F1 matrix as a heat map, the per-label table, the
token-level coefficients, the least-agreed documents and a disagreement
browser: every disagreement in its sentence (or a window of its text), one
line per annotator with that annotator's entities marked, filterable by kind,
label and document, fifty to a page; documents are named by the result's
``unit`` (sentences, for tag input). Inline CSS and script, nothing fetched;
user text is escaped (:func:`html.escape`, and ``<``, ``>``, ``&`` in the JSON).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from html import escape
from typing import TYPE_CHECKING, Any

from nerscore.render.agreement import uncompared
from nerscore.render.html_assets import CSS
from nerscore.render.html_errors import script_json
from nerscore.values.wording import counted

if TYPE_CHECKING:
    from nerscore.analysis.agreement.results import Agreement, Disagreement

__all__ = ["render_agreement_html"]

#: Characters of text shown on each side of a disagreement in a document without sentences.
WINDOW = 60

_CSS = """
td.heat { text-align: right; font-variant-numeric: tabular-nums; }
.dis { border-bottom: 1px solid var(--line); padding: .4rem 0; }
.dis .who { display: inline-block; min-width: 7rem; color: var(--muted); }
.dis mark { background: #ddf4ff; border-radius: 3px; padding: 0 .15rem; }
.dis mark sub { color: var(--muted); font-size: .7rem; margin-left: .15rem; }
.kind { font-weight: 600; margin-right: .6rem; }
.filters select, .filters button { font: inherit; margin-right: .5rem; }
"""

_SCRIPT = r"""
(function () {
  const data = JSON.parse(document.getElementById('dis-data').textContent);
  const esc = s => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  const kind = document.getElementById('f-kind'), label = document.getElementById('f-label');
  const doc = document.getElementById('f-doc'), out = document.getElementById('dis-list');
  const info = document.getElementById('dis-info');
  let page = 0;
  function line(ctx, spans) {
    let html = '', at = 0;
    for (const [s, e, lab] of spans) {
      if (s < at) continue;
      html += esc(ctx.slice(at, s)) + '<mark>' + esc(ctx.slice(s, e)) + '<sub>' +
        esc(lab) + '</sub></mark>';
      at = e;
    }
    return html + esc(ctx.slice(at));
  }
  function shown() {
    return data.items.filter(d => (!kind.value || d.kind === kind.value) &&
      (!label.value || d.labels.includes(label.value)) && (!doc.value || d.doc === doc.value));
  }
  function draw() {
    const items = shown(), n = items.length, pages = Math.max(1, Math.ceil(n / 50));
    page = Math.min(page, pages - 1);
    info.textContent = n + ' disagreement(s); page ' + (page + 1) + ' of ' + pages;
    out.innerHTML = items.slice(page * 50, page * 50 + 50).map(d =>
      '<div class="dis"><span class="kind">' + esc(d.kind) + '</span>@UNIT@ ' + esc(d.doc) +
      d.lines.map(([who, spans]) => '<div><span class="who">' + esc(who) + '</span>' +
        line(d.ctx, spans) + '</div>').join('') + '</div>').join('');
  }
  for (const el of [kind, label, doc]) el.addEventListener('change', () => { page = 0; draw(); });
  document.getElementById('p-prev').addEventListener('click', () => { page = Math.max(0, page - 1); draw(); });
  document.getElementById('p-next').addEventListener('click', () => { page += 1; draw(); });
  draw();
})();
"""


def _num(x: float, digits: int) -> str:
    return "&ndash;" if math.isnan(x) else f"{x:.{digits}f}"


def _heat(x: float) -> str:
    if math.isnan(x):
        return ""
    v = max(0.0, min(1.0, x))
    return f' style="background: rgba(47,129,247,{0.1 + 0.6 * v:.3f})"'


def _matrix(names: Sequence[str], m: Sequence[Sequence[float]], digits: int) -> str:
    head = "".join(f"<th>{escape(n)}</th>" for n in names)
    rows = "".join(
        f"<tr><th>{escape(n)}</th>" + "".join(
            f'<td class="heat"{_heat(x)}>{_num(x, digits)}</td>' for x in row) + "</tr>"
        for n, row in zip(names, m, strict=True))
    return f"<table><thead><tr><th></th>{head}</tr></thead><tbody>{rows}</tbody></table>"


def _table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    head = "".join(f"<th>{h}</th>" for h in header)
    body = "".join("<tr>" + "".join(
        f"<td>{c}</td>" if k == 0 else f'<td class="num">{c}</td>' for k, c in enumerate(r))
        + "</tr>" for r in rows)
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def _context(result: Agreement, d: Disagreement) -> tuple[str, Any]:
    """The text shown, and a function mapping entity bounds to its characters."""
    source = result.texts.get(d.document) if result.texts is not None else None
    if isinstance(source, (list, tuple)):  # tokens of a sentence
        starts, at = [], 0
        for tok in source:
            starts.append(at)
            at += len(tok) + 1
        ends = [s + len(t) for s, t in zip(starts, source, strict=True)]

        def tokens(s: int, e: int) -> tuple[int, int]:
            if e <= s:
                return starts[s] if s < len(starts) else at, starts[s] if s < len(starts) else at
            return starts[s], ends[min(e, len(ends)) - 1]

        return " ".join(source), tokens
    if isinstance(source, str):
        lo = max(0, d.start - WINDOW)
        hi = min(len(source), d.end + WINDOW)
        prefix = "… " if lo else ""

        def chars(s: int, e: int) -> tuple[int, int]:
            return s - lo + len(prefix), e - lo + len(prefix)

        return prefix + source[lo:hi] + (" …" if hi < len(source) else ""), chars
    return f"[{d.start}, {d.end})", lambda s, e: (0, 0)


def _payload(result: Agreement) -> dict[str, Any]:
    items = []
    for d in result.disagreements:
        ctx, where = _context(result, d)
        lines = [[who, [[*where(s, e), lab] for s, e, lab in spans]]
                 for who, spans in d.spans.items()]
        labels = sorted({lab for spans in d.spans.values() for _, _, lab in spans})
        items.append({"doc": d.document, "kind": d.kind, "ctx": ctx, "lines": lines,
                      "labels": labels})
    return {"items": items}


def render_agreement_html(result: Agreement, digits: int = 2) -> str:
    """An :class:`~nerscore.Agreement` as one self-contained HTML page.

    Parameters
    ----------
    result : Agreement
        What :func:`nerscore.agreement` returned.
    digits : int
        Decimals of every number.

    Returns
    -------
    str

    Examples
    --------
    >>> import nerscore
    >>> a = nerscore.agreement([[["B-X", "O"]], [["B-X", "B-Y"]]], n_resamples=0)
    >>> page = render_agreement_html(a)
    >>> page.startswith("<!DOCTYPE html>"), "dis-data" in page
    (True, True)
    """
    unit = result.unit
    names = result.names
    f1 = result.f1
    tl = result.tokens
    per_label = _table(
        ["label", "mean F1", "SD F1", "kappa (all)", "kappa (labelled)", "alpha (all)",
         "alpha (labelled)"],
        [[escape(lab), _num(f1.mean(lab), digits), _num(f1.sd(lab), digits),
          *(_num(tl.per_label[lab][k].mean_cohen, digits) for k in ("all", "labelled")),
          *(_num(tl.per_label[lab][k].alpha, digits) for k in ("all", "labelled"))]
         for lab in f1.per_label if lab in tl.per_label])
    if tl.overall is None:
        tokens = f"<p>{escape(tl.reason)}</p>"
    else:
        tokens = _table(["tokens", "mean Cohen's kappa", "Fleiss' kappa",
                         "Krippendorff's alpha", "n"],
                        [[k, _num(t.mean_cohen, digits), _num(t.fleiss, digits),
                          _num(t.alpha, digits), str(t.n_tokens)]
                         for k, t in tl.overall.items()])
        tokens += "<h3>Cohen's kappa, all tokens</h3>" + _matrix(names, tl.overall["all"].cohen,
                                                                 digits)
    documents = _table([unit, "mean F1", "SD F1", "shared entities"],
                       [[escape(d.document), _num(d.mean, digits), _num(d.sd, digits),
                         str(d.n_entities)] for d in result.documents[:50]])
    ci = result.intervals.get("mean_f1")
    interval = ""
    if ci is not None and not math.isnan(ci.low):
        interval = (f" [{_num(ci.low, digits)}, {_num(ci.high, digits)}], {result.level:.0%} "
                    f"bootstrap over {unit}s")
    labels = sorted({lab for d in result.disagreements for s in d.spans.values()
                     for _, _, lab in s})
    docs = list(dict.fromkeys(d.document for d in result.disagreements))
    opts = "".join(f'<option value="{escape(x)}">{escape(x)}</option>' for x in labels)
    dopts = "".join(f'<option value="{escape(x)}">{escape(x)}</option>' for x in docs)
    notes = "".join(f"<li>{escape(n)}</li>" for n in result.notes)
    alone = uncompared(result)
    return (
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
        "<title>nerscore agreement</title>"
        f"<style>{CSS}{_CSS}</style></head><body>"
        f"<h1>Agreement of {len(names)} annotators</h1>"
        f"<p class=\"meta\">{counted(result.n_documents, unit)}; "
        f"entity F1 by {escape(result.match)} match; "
        "mean pairwise F1 "
        f"{_num(f1.mean(), digits)} (SD {_num(f1.sd(), digits)}){interval}</p>"
        + (f"<ul>{notes}</ul>" if notes else "")
        + "<h2>Pairwise entity F1</h2>"
        + ("" if f1.symmetric else "<p>Rows are the reference.</p>")
        + _matrix(names, f1.matrix, digits)
        + "<h2>Per label</h2>" + per_label
        + f"<h2>Token level ({escape(tl.units)})</h2>" + tokens
        + f"<h2>Least-agreed {unit}s</h2>" + (
            f"<p>{alone} {unit}(s) with a single annotator are in no pair and not listed.</p>"
            if alone else "") + documents
        + "<h2>Disagreements</h2><div class=\"filters\">"
        "<select id=\"f-kind\" aria-label=\"kind\"><option value=\"\">every kind</option>"
        "<option>missing</option><option>label</option><option>boundary</option></select>"
        f"<select id=\"f-label\" aria-label=\"label\"><option value=\"\">every label</option>"
        f"{opts}</select><select id=\"f-doc\" aria-label=\"{unit}\"><option value=\"\">"
        f"every {unit}</option>{dopts}</select>"
        "<button type=\"button\" id=\"p-prev\">previous</button>"
        "<button type=\"button\" id=\"p-next\">next</button> <span id=\"dis-info\"></span>"
        "</div><div id=\"dis-list\"></div>"
        f"<script type=\"application/json\" id=\"dis-data\">{script_json(_payload(result))}"
        f"</script><script>{_SCRIPT.replace('@UNIT@', unit)}</script></body></html>\n"
    )
