"""Inline CSS and JavaScript of the HTML report (no external resources).

The script enhances server-rendered tables (sorting, the metric picker, the
confusion matrix views) and renders the error browser from the JSON block
``#nerscore-data`` (:mod:`~nerscore.render.html_error_browser`, the script's second
part). It builds every element with ``textContent``, never
``innerHTML``, so text from the data cannot become markup.
"""

from __future__ import annotations

from nerscore.render.html_error_browser import ERROR_BROWSER

__all__ = ["CSS", "SCRIPT"]

CSS = """
:root { --ink: #1b1f24; --muted: #57606a; --line: #d0d7de; --bar: rgba(47,129,247,.22);
  --missed: #cf222e; --spurious: #9a6700; --wrong_label: #8250df; --wrong_boundary: #0969da;
  --wrong_label_and_boundary: #bc4c00; }
body { font-family: system-ui, -apple-system, "Segoe UI", sans-serif; margin: 1.5rem 2rem;
  color: var(--ink); line-height: 1.4; }
h1 { font-size: 1.4rem; margin-bottom: .2rem; }
h2 { font-size: 1.15rem; margin-top: 2rem; border-bottom: 1px solid var(--line); }
h3 { font-size: 1rem; }
p.meta { color: var(--muted); margin-top: 0; }
.cols { display: flex; flex-wrap: wrap; gap: 0 3rem; align-items: flex-start; }
span.ci { color: var(--muted); }
nav a { margin-right: 1rem; color: #0969da; }
table { border-collapse: collapse; margin: .8rem 0 1.2rem; }
th, td { padding: .25rem .7rem; border-bottom: 1px solid var(--line); text-align: left; }
thead th { border-bottom: 2px solid var(--muted); white-space: nowrap; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
td.ratio { background: linear-gradient(90deg, var(--bar) var(--w), transparent var(--w)); }
tbody.avg th, tbody.avg td { font-weight: 600; background-color: #f6f8fa; }
tbody.avg td.ratio { background: linear-gradient(90deg, var(--bar) var(--w), #f6f8fa var(--w)); }
th.sys { text-align: center; }
button.sort { font: inherit; font-weight: 600; border: 0; background: none; cursor: pointer;
  padding: 0; color: inherit; }
th[aria-sort="ascending"] button.sort::after { content: " \\25B2"; }
th[aria-sort="descending"] button.sort::after { content: " \\25BC"; }
.metric-pick button, .cm-view button, .cats button, .pager button, #err-doc-clear {
  font: inherit; border: 1px solid var(--line); background: #f6f8fa; border-radius: 4px;
  padding: .15rem .55rem; margin: 0 .2rem .3rem 0; cursor: pointer; }
button[aria-pressed="true"] { background: #0969da; color: #fff; border-color: #0969da; }
button:disabled { opacity: .45; cursor: default; }
table.cm td { text-align: right; min-width: 2.6rem; font-variant-numeric: tabular-nums; }
table.cm td.diag { background: rgba(26,127,55,var(--a)); }
table.cm td.off { background: rgba(207,34,46,var(--a)); }
table.cm td.dark { color: #fff; }
table.cm th.corner { color: var(--muted); font-weight: 400; }
ul.notes { color: var(--muted); }
.sev { display: inline-block; font-size: .8rem; font-weight: 600; color: #fff;
  border-radius: 3px; padding: 0 .4rem; background: var(--muted); }
.sev-error { background: var(--missed); }
.sev-warning { background: var(--spurious); }
.sev-info { background: #0969da; }
table.findings td { vertical-align: top; }
table.findings td:nth-child(2) { font-family: ui-monospace, SFMono-Regular, Menlo, monospace;
  font-size: .85rem; }
table.findings td:nth-child(4) { width: 38%; }
table.findings td:nth-child(5) { width: 34%; }
details { color: var(--muted); font-size: .85rem; }
summary { cursor: pointer; }
p.settings, div.settings { color: var(--muted); font-size: .9rem; }
p.settings strong { color: var(--ink); font-weight: 600; }
td.est { white-space: nowrap; }
td.est .ci { display: block; font-size: .85em; }
table.systems .cmp { background: #f6f8fa; }
table.pairs td.est .ci { display: inline; }
.err-controls label { margin-right: .3rem; }
.doc-search { position: relative; display: inline-block; }
#err-doc { font: inherit; width: 16rem; padding: .1rem .3rem; }
#err-doc-count, #err-doc-list .n { color: var(--muted); }
#err-doc-list { position: absolute; left: 0; top: 100%; z-index: 3; min-width: 24rem;
  max-height: 20rem; overflow: auto; margin: .15rem 0 0; padding: .2rem 0; list-style: none;
  background: #fff; border: 1px solid var(--line); border-radius: 4px;
  box-shadow: 0 4px 12px rgba(0,0,0,.15); }
#err-doc-list li { display: flex; justify-content: space-between; gap: 1.5rem;
  padding: .15rem .6rem; cursor: pointer; }
#err-doc-list li:hover, #err-doc-list li.active { background: #ddf4ff; }
.legend span { margin-right: .6rem; padding: 0 .3rem; }
#err-list { padding-left: 2.2rem; }
#err-list li { margin: .5rem 0; padding: .3rem .6rem; border-left: 4px solid var(--line); }
.badge { display: inline-block; font-size: .8rem; font-weight: 600; color: #fff;
  border-radius: 3px; padding: 0 .35rem; margin-right: .4rem; }
button.doc { font: inherit; border: 0; background: none; color: #0969da; cursor: pointer;
  padding: 0; text-decoration: underline; }
.ctx, .doctext { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: .88rem;
  white-space: pre-wrap; word-break: break-word; margin-top: .2rem; }
.doctext { border: 1px solid var(--line); padding: .6rem; max-height: 24rem; overflow: auto; }
.g { border-bottom: 2px solid #1a7f37; }
.p { background: #ddf4ff; }
.lg, .lp { font-family: system-ui, sans-serif; font-size: .7rem; border-radius: 3px;
  padding: 0 .2rem; margin: 0 .1rem; vertical-align: super; }
.lg { color: #1a7f37; border: 1px solid #1a7f37; }
.lp { color: #0550ae; background: #ddf4ff; }
.cur { font-weight: 700; }
.g.frag { border-bottom-style: dashed; }
.p.frag { background: repeating-linear-gradient(135deg, #ddf4ff 0 5px, #c5e6fb 5px 10px); }
.frag.linked { box-shadow: 0 0 0 2px #d4a72c; border-radius: 2px; }
"""

#: One rule per category: the badge colour, the list border and the highlight outline.
CSS += "".join(
    f".cat-{c}.badge {{ background: var(--{c}); }}\n"
    f"#err-list li.cat-{c} {{ border-left-color: var(--{c}); }}\n"
    f".e-{c} {{ outline: 2px solid var(--{c}); outline-offset: 1px; }}\n"
    for c in ("missed", "spurious", "wrong_label", "wrong_boundary",
              "wrong_label_and_boundary")
)

_TABLES = r"""
(function () {
"use strict";
function $(s, r) { return (r || document).querySelector(s); }
function $$(s, r) { return Array.prototype.slice.call((r || document).querySelectorAll(s)); }
function el(tag, cls, text) {
  var e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined && text !== null) e.textContent = text;
  return e;
}
function fmtCount(v) {
  if (isNaN(v)) return "nan";
  return Number.isInteger(v) ? String(v) : v.toFixed(4);
}
function fmtRatio(v, digits) { return isNaN(v) ? "nan" : v.toFixed(digits); }

// ------------------------------------------------------------------ sortable tables
function sortKey(cell) {
  if (cell.classList.contains("num")) {
    var n = Number(cell.dataset.v);
    return isNaN(n) ? null : n;
  }
  return cell.dataset.v !== undefined ? cell.dataset.v : cell.textContent;
}
function compare(a, b, asc) {
  if (a === b) return 0;
  if (a === null) return 1;          // undefined values last, either way
  if (b === null) return -1;
  var c = (typeof a === "number" && typeof b === "number") ? a - b
    : String(a).localeCompare(String(b));
  return asc ? c : -c;
}
function initSort(table) {
  var heads = table.tHead.rows[table.tHead.rows.length - 1].cells;
  Array.prototype.forEach.call(heads, function (th, i) {
    var button = $("button.sort", th);
    if (!button) return;
    button.addEventListener("click", function () {
      var asc = th.getAttribute("aria-sort") !== "ascending";
      Array.prototype.forEach.call(heads, function (h) { h.removeAttribute("aria-sort"); });
      th.setAttribute("aria-sort", asc ? "ascending" : "descending");
      var body = table.tBodies[0];
      var rows = Array.prototype.slice.call(body.rows);
      var keys = new Map(rows.map(function (r) { return [r, sortKey(r.cells[i])]; }));
      rows.sort(function (a, b) { return compare(keys.get(a), keys.get(b), asc); });
      rows.forEach(function (r) { body.appendChild(r); });
    });
  });
}
$$("table.sortable").forEach(initSort);

// ------------------------------------------------- metric picker (several systems)
$$(".metric-pick").forEach(function (pick) {
  var table = pick.nextElementSibling;
  var digits = Number(table.dataset.digits);
  $$("button", pick).forEach(function (b) {
    b.addEventListener("click", function () {
      $$("button", pick).forEach(function (o) { o.setAttribute("aria-pressed", String(o === b)); });
      var m = b.dataset.metric;
      var key = m.replace(/_([a-z])/g, function (_, c) { return c.toUpperCase(); });
      var ratio = m === "precision" || m === "recall" || m === "fbeta";
      $$("td.sysv", table).forEach(function (td) {
        if (td.dataset[key] === undefined) return;
        var v = Number(td.dataset[key]);
        td.dataset.v = td.dataset[key];
        td.textContent = ratio ? fmtRatio(v, digits) : fmtCount(v);
        td.classList.toggle("ratio", ratio);
        td.style.setProperty("--w", ratio && !isNaN(v) ? (Math.max(0, Math.min(1, v)) * 100) + "%" : "0%");
      });
    });
  });
});

// ------------------------------------------------------- confusion matrix views
function shade(td, a) {
  td.style.setProperty("--a", a.toFixed(3));
  td.classList.toggle("dark", a > 0.55);
}
function showView(view) {
  $$(".cm-view button").forEach(function (b) {
    b.setAttribute("aria-pressed", String(b.dataset.view === view));
  });
  $$("table.cm").forEach(function (table) {
    var digits = Number(table.dataset.digits);
    var cells = $$("td[data-raw]", table);
    var top = Math.max.apply(null, [1].concat(cells.map(function (c) { return Number(c.dataset.raw); })));
    table.dataset.view = view;
    cells.forEach(function (td) {
      if (view === "raw") {
        td.textContent = td.dataset.raw;
        shade(td, Number(td.dataset.raw) / top);
      } else {
        var v = Number(td.dataset[view]);
        td.textContent = v.toFixed(digits);
        shade(td, v);
      }
    });
  });
}
$$(".cm-view button").forEach(function (b) {
  b.addEventListener("click", function () { showView(b.dataset.view); });
});
if ($("table.cm")) showView("raw");
"""

#: The whole script: the tables' enhancements, then the error browser.
SCRIPT = _TABLES + ERROR_BROWSER + "})();\n"
