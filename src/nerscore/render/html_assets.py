"""Inline CSS and JavaScript of the HTML report (no external resources).

The script enhances server-rendered tables (sorting, the metric picker, the
confusion matrix views) and renders the error browser from the JSON block
``#nerscore-data``. It builds every element with ``textContent``, never
``innerHTML``, so text from the data cannot become markup.
"""

from __future__ import annotations

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
.metric-pick button, .cm-view button, .cats button, .pager button {
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
.findings .sev { font-weight: 600; }
.sev-error .sev, .sev-high .sev { color: var(--missed); }
.sev-warning .sev, .sev-medium .sev { color: var(--spurious); }
table.generic { font-size: .92rem; }
.err-controls label { margin-right: 1rem; }
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
"""

#: One rule per category: the badge colour, the list border and the highlight outline.
CSS += "".join(
    f".cat-{c}.badge {{ background: var(--{c}); }}\n"
    f"#err-list li.cat-{c} {{ border-left-color: var(--{c}); }}\n"
    f".e-{c} {{ outline: 2px solid var(--{c}); outline-offset: 1px; }}\n"
    for c in ("missed", "spurious", "wrong_label", "wrong_boundary",
              "wrong_label_and_boundary")
)

SCRIPT = r"""
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

// ------------------------------------------------------------------ error browser
var dataNode = document.getElementById("nerscore-data");
if (!dataNode) { document.body.dataset.ready = "1"; return; }
var D = JSON.parse(dataNode.textContent);
var CATS = D.categories;
var controls = $(".err-controls");
var pageSize = Number(controls.dataset.pageSize) || 50;
var state = { sys: 0, cat: -1, label: -2, doc: -1, page: 0 };

function docName(q) {
  return D.docs && D.docs[q] !== null && D.docs[q] !== undefined ? D.docs[q] : "sequence " + q;
}
function lowerBound(a, x) {
  var lo = 0, hi = a.length;
  while (lo < hi) { var mid = (lo + hi) >> 1; if (a[mid] < x) lo = mid + 1; else hi = mid; }
  return lo;
}
function entities(T, q, side) {
  var out = [];
  for (var k = lowerBound(T.seq, q), hi = lowerBound(T.seq, q + 1); k < hi; k++) {
    out.push({ s: T.start[k], e: T.end[k], label: D.labels[T.label[k]], side: side, err: null, cur: false });
  }
  return out;
}
function docText(q) { return D.texts ? D.texts[q] : null; }
function unitCount(t) { return t === null || t === undefined ? 0 : t.length; }
function cover(t, s, e) {
  if (t === null || t === undefined) return null;
  return typeof t === "string" ? t.slice(s, e) : t.slice(s, e).join(" ");
}

// Write units [a, b) of text t into parent, with every span highlighted.
function paint(parent, t, a, b, spans) {
  var tokens = typeof t !== "string";
  var points = [a, b];
  spans.forEach(function (sp) {
    if (sp.s > a && sp.s < b) points.push(sp.s);
    if (sp.e > a && sp.e < b) points.push(sp.e);
  });
  points = Array.from(new Set(points)).sort(function (x, y) { return x - y; });
  if (a > 0) parent.appendChild(document.createTextNode("\u2026 "));
  function chips(at, ending) {
    spans.forEach(function (sp) {
      var hit = ending ? (sp.e === at && sp.s < sp.e) : (sp.s === at && sp.e === at);
      if (!hit) return;
      var chip = el("span", sp.side === "g" ? "lg" : "lp", (ending ? "" : "\u2205 ") + sp.label);
      if (sp.err) chip.classList.add("e-" + sp.err);
      parent.appendChild(chip);
    });
  }
  for (var i = 0; i + 1 < points.length; i++) {
    var x = points[i], y = points[i + 1];
    chips(x, false);
    if (tokens && i > 0) parent.appendChild(document.createTextNode(" "));
    var piece = el("span", "", tokens ? t.slice(x, y).join(" ") : t.slice(x, y));
    spans.forEach(function (sp) {
      if (sp.s <= x && sp.e >= y && sp.s < sp.e) {
        piece.classList.add(sp.side);
        if (sp.err) piece.classList.add("e-" + sp.err);
        if (sp.cur) piece.classList.add("cur");
      }
    });
    if (piece.className === "") parent.appendChild(piece.firstChild || document.createTextNode(""));
    else parent.appendChild(piece);
    chips(y, true);
  }
  if (points.length === 1) chips(a, false);
  if (b < unitCount(t)) parent.appendChild(document.createTextNode(" \u2026"));
}

function sideText(label, s, e, t) {
  if (label === -1) return "\u2014";
  var c = cover(t, s, e);
  return D.labels[label] + (c === null ? "" : " \u201c" + c + "\u201d") + " [" + s + ", " + e + ")";
}

function contextOf(E, k, sys) {
  var q = E.seq[k], t = docText(q);
  var box = el("div", "ctx");
  if (t === null || t === undefined) return null;
  var lo = Math.min.apply(null, [E.gs[k], E.ps[k]].filter(function (v) { return v >= 0; }));
  var hi = Math.max(E.ge[k], E.pe[k]);
  var pad = typeof t === "string" ? 60 : 8;
  var a = Math.max(0, lo - pad), b = Math.min(t.length, hi + pad);
  var spans = entities(D.golds[sys.gold], q, "g").concat(entities(sys.pred, q, "p"));
  spans = spans.filter(function (sp) {   // overlapping the window (an empty span: inside it)
    return sp.s === sp.e ? sp.s >= a && sp.s <= b : sp.s < b && sp.e > a;
  });
  spans.forEach(function (sp) {
    sp.s = Math.max(sp.s, a); sp.e = Math.min(sp.e, b);
    var mine = (sp.side === "g" && E.gl[k] >= 0 && sp.s === Math.max(E.gs[k], a) && sp.e === Math.min(E.ge[k], b) && sp.label === D.labels[E.gl[k]])
      || (sp.side === "p" && E.pl[k] >= 0 && sp.s === Math.max(E.ps[k], a) && sp.e === Math.min(E.pe[k], b) && sp.label === D.labels[E.pl[k]]);
    if (mine) { sp.err = CATS[E.cat[k]]; sp.cur = true; }
  });
  paint(box, t, a, b, spans);
  return box;
}

function renderDoc(q, sys) {
  var view = $("#err-doc-view");
  view.textContent = "";
  if (q < 0) return;
  view.appendChild(el("h3", "", "Document " + docName(q)));
  var t = docText(q);
  if (t === null || t === undefined) {
    view.appendChild(el("p", "", "No text for this document: errors are listed by offsets."));
    return;
  }
  var E = sys.errors;
  var spans = entities(D.golds[sys.gold], q, "g").concat(entities(sys.pred, q, "p"));
  for (var k = lowerBound(E.seq, q), hi = lowerBound(E.seq, q + 1); k < hi; k++) {
    spans.forEach(function (sp) {
      if ((sp.side === "g" && sp.s === E.gs[k] && sp.e === E.ge[k] && E.gl[k] >= 0 && sp.label === D.labels[E.gl[k]])
          || (sp.side === "p" && sp.s === E.ps[k] && sp.e === E.pe[k] && E.pl[k] >= 0 && sp.label === D.labels[E.pl[k]])) {
        sp.err = CATS[E.cat[k]];
      }
    });
  }
  var box = el("div", "doctext");
  paint(box, t, 0, unitCount(t), spans);
  view.appendChild(box);
}

function fillOptions() {
  var sys = D.systems[state.sys], E = sys.errors;
  var labelSel = $("#err-label"), docSel = $("#err-doc");
  labelSel.length = 1; docSel.length = 1;
  var used = new Set(E.gl.concat(E.pl));
  var labels = D.labels.map(function (name, i) { return [name, i]; })
    .filter(function (p) { return used.has(p[1]); })
    .sort(function (x, y) { return x[0] < y[0] ? -1 : x[0] > y[0] ? 1 : 0; });
  var frag = document.createDocumentFragment();
  labels.forEach(function (p) { var o = el("option", "", p[0]); o.value = p[1]; frag.appendChild(o); });
  labelSel.appendChild(frag);
  var perDoc = new Map();
  E.seq.forEach(function (q) { perDoc.set(q, (perDoc.get(q) || 0) + 1); });
  frag = document.createDocumentFragment();
  Array.from(perDoc.keys()).sort(function (x, y) { return x - y; }).forEach(function (q) {
    var o = el("option", "", docName(q) + " (" + perDoc.get(q) + ")");
    o.value = q;
    frag.appendChild(o);
  });
  docSel.appendChild(frag);
}

function refresh() {
  var sys = D.systems[state.sys], E = sys.errors, n = E.cat.length;
  var counts = CATS.map(function () { return 0; });
  var shown = [];
  for (var k = 0; k < n; k++) {
    if (state.label !== -2 && E.gl[k] !== state.label && E.pl[k] !== state.label) continue;
    if (state.doc !== -1 && E.seq[k] !== state.doc) continue;
    counts[E.cat[k]]++;
    if (state.cat === -1 || E.cat[k] === state.cat) shown.push(k);
  }
  var total = counts.reduce(function (x, y) { return x + y; }, 0);
  $$(".cats button").forEach(function (b) {
    var c = b.dataset.cat === "" ? -1 : CATS.indexOf(b.dataset.cat);
    $(".n", b).textContent = "(" + (c === -1 ? total : counts[c]) + ")";
    b.setAttribute("aria-pressed", String(c === state.cat));
  });
  var pages = Math.max(1, Math.ceil(shown.length / pageSize));
  state.page = Math.min(state.page, pages - 1);
  var first = state.page * pageSize, last = Math.min(shown.length, first + pageSize);
  $("#err-count").textContent = shown.length === 0 ? "No errors match."
    : "Showing " + (first + 1) + "\u2013" + last + " of " + shown.length + " errors";
  $("#err-page").textContent = "page " + (state.page + 1) + " of " + pages;
  $("#err-prev").disabled = state.page === 0;
  $("#err-next").disabled = state.page >= pages - 1;
  var list = $("#err-list");
  list.textContent = "";
  list.start = first + 1;
  var frag = document.createDocumentFragment();
  for (var i = first; i < last; i++) {
    var k2 = shown[i], q = E.seq[k2], t = docText(q), cat = CATS[E.cat[k2]];
    var li = el("li", "err cat-" + cat);
    li.dataset.cat = cat;
    var head = el("div", "head");
    head.appendChild(el("span", "badge cat-" + cat, cat.replace(/_/g, " ")));
    var doc = el("button", "doc", docName(q));
    doc.type = "button";
    doc.dataset.seq = q;
    head.appendChild(doc);
    head.appendChild(document.createTextNode("  gold: " + sideText(E.gl[k2], E.gs[k2], E.ge[k2], t)
      + "  \u2192  predicted: " + sideText(E.pl[k2], E.ps[k2], E.pe[k2], t)));
    li.appendChild(head);
    var ctx = contextOf(E, k2, sys);
    if (ctx) li.appendChild(ctx);
    frag.appendChild(li);
  }
  list.appendChild(frag);
  renderDoc(state.doc, sys);
}

$$(".cats button").forEach(function (b) {
  b.addEventListener("click", function () {
    state.cat = b.dataset.cat === "" ? -1 : CATS.indexOf(b.dataset.cat);
    state.page = 0;
    refresh();
  });
});
$("#err-label").addEventListener("change", function (ev) {
  state.label = ev.target.value === "" ? -2 : Number(ev.target.value);
  state.page = 0;
  refresh();
});
$("#err-doc").addEventListener("change", function (ev) {
  state.doc = ev.target.value === "" ? -1 : Number(ev.target.value);
  state.page = 0;
  refresh();
});
$("#err-list").addEventListener("click", function (ev) {
  var b = ev.target.closest("button.doc");
  if (!b) return;
  state.doc = Number(b.dataset.seq);
  $("#err-doc").value = b.dataset.seq;
  state.page = 0;
  refresh();
  $("#err-doc-view").scrollIntoView();
});
$("#err-prev").addEventListener("click", function () { state.page -= 1; refresh(); });
$("#err-next").addEventListener("click", function () { state.page += 1; refresh(); });
var sysSel = $("#err-system");
if (sysSel) sysSel.addEventListener("change", function () {
  state = { sys: Number(sysSel.value), cat: -1, label: -2, doc: -1, page: 0 };
  fillOptions();
  refresh();
});
fillOptions();
refresh();
document.body.dataset.ready = "1";
})();
"""
