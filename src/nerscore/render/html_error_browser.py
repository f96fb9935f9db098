"""The error browser of the HTML report, as JavaScript (part of :data:`~nerscore.render.html_assets.SCRIPT`).

It reads the JSON block ``#nerscore-data`` and renders the errors of the
chosen system, category, label and document, each in its context with the
gold and predicted entities painted over the text. It runs inside the
script's function, after the tables' enhancements, and uses their helpers
(``$``, ``$$``, ``el``); every element is built with ``textContent``.
"""

from __future__ import annotations

__all__ = ["ERROR_BROWSER"]

ERROR_BROWSER = r"""
// ------------------------------------------------------------------ error browser
var dataNode = document.getElementById("nerscore-data");
if (!dataNode) { document.body.dataset.ready = "1"; return; }
var D = JSON.parse(dataNode.textContent);
var CATS = D.categories;
var controls = $(".err-controls");
var pageSize = Number(controls.dataset.pageSize) || 50;
var state = { sys: 0, cat: -1, label: -2, doc: -1, page: 0 };

// Each entity table gets the index of every row's first entity, and the fragments of
// its discontinuous entities by index; each error the indices and labels of its
// entities (-1 for an absent side).
function indexTable(T) {
  T.off = new Int32Array(T.n.length + 1);
  for (var r = 0; r < T.n.length; r++) T.off[r + 1] = T.off[r] + T.n[r];
  T.fr = {};
  (T.frags || []).forEach(function (f) {
    var parts = [];
    for (var i = 1; i < f.length; i += 2) parts.push([f[i], f[i] + f[i + 1]]);
    T.fr[f[0]] = parts;
  });
}
D.golds.forEach(indexTable);
D.systems.forEach(function (S) {
  indexTable(S.pred);
  var G = D.golds[S.gold], P = S.pred, E = S.errors, n = E.cat.length;
  E.gi = new Int32Array(n); E.pi = new Int32Array(n);
  E.gl = new Int32Array(n); E.pl = new Int32Array(n);
  for (var k = 0; k < n; k++) {
    E.gi[k] = E.g[k] < 0 ? -1 : G.off[E.row[k]] + E.g[k];
    E.pi[k] = E.p[k] < 0 ? -1 : P.off[E.row[k]] + E.p[k];
    E.gl[k] = E.gi[k] < 0 ? -1 : G.label[E.gi[k]];
    E.pl[k] = E.pi[k] < 0 ? -1 : P.label[E.pi[k]];
  }
});

function docName(r) {
  var d = D.docs ? D.docs[r] : null;
  return d !== null && d !== undefined ? d : "sequence " + D.seq[r];
}
function docText(r) {   // a str, a token list, or null
  var t = D.texts ? D.texts[r] : null;
  if (t === null || t === undefined) return null;
  return typeof t === "string" ? t : t.map(function (i) { return D.tokens[i]; });
}
function lowerBound(a, x) {
  var lo = 0, hi = a.length;
  while (lo < hi) { var mid = (lo + hi) >> 1; if (a[mid] < x) lo = mid + 1; else hi = mid; }
  return lo;
}
// One span per entity; a discontinuous entity gives one span per fragment, all with its
// index k, its label drawn after the last one.
function entities(T, r, side) {
  var out = [];
  for (var k = T.off[r]; k < T.off[r + 1]; k++) {
    var label = D.labels[T.label[k]], parts = T.fr[k];
    (parts || [[T.start[k], T.start[k] + T.len[k]]]).forEach(function (p, i, all) {
      var sp = { s: p[0], e: p[1], label: label, side: side, k: k, err: null, cur: false };
      if (parts) { sp.frag = i + 1; sp.nfrag = all.length; }
      if (i < all.length - 1) sp.last = false;
      out.push(sp);
    });
  }
  return out;
}
function rowSpans(S, r) {
  return entities(D.golds[S.gold], r, "g").concat(entities(S.pred, r, "p"));
}

// Spans by start; at one start an empty span first, then the longest, gold before predicted.
function spanOrder(x, y) {
  return x.s - y.s || (y.s === y.e) - (x.s === x.e) || y.e - x.e
    || (x.side === y.side ? 0 : x.side === "g" ? -1 : 1);
}
// Write units [a, b) of text t into parent: every span is one element around all of its
// units (its label last), nested in the spans that hold it. A span that crosses the end of
// an enclosing one is cut there, and its rest continues after it.
function paint(parent, t, a, b, spans) {
  var tokens = typeof t !== "string";
  var queue = spans.map(function (sp) { return Object.assign({ last: true }, sp); }).sort(spanOrder);
  var root = { s: a, e: b, kids: [], sp: null, up: null }, stack = [root];
  for (var i = 0; i < queue.length; i++) {
    var sp = queue[i];
    while (stack.length > 1 && stack[stack.length - 1].e <= sp.s) stack.pop();
    var top = stack[stack.length - 1];
    if (sp.e > top.e) {
      var rest = Object.assign({}, sp, { s: top.e });
      sp = Object.assign({}, sp, { e: top.e, last: false });
      var j = i + 1;
      while (j < queue.length && spanOrder(queue[j], rest) <= 0) j++;
      queue.splice(j, 0, rest);
    }
    var node = { s: sp.s, e: sp.e, kids: [], sp: sp, up: top };
    top.kids.push(node);
    stack.push(node);
  }
  emit(parent, root);

  function emit(into, node) {
    var parts = [], x = node.s;
    function units(y) {
      if (y <= x) return;
      if (tokens) { for (var u = x; u < y; u++) parts.push(t[u]); } else parts.push(t.slice(x, y));
    }
    node.kids.forEach(function (kid) { units(kid.s); parts.push(element(kid)); x = Math.max(x, kid.e); });
    units(node.e);
    var buf = "";
    parts.forEach(function (p, i) {   // tokens: one space between neighbours
      var sep = tokens && i > 0 ? " " : "";
      if (typeof p === "string") { buf += sep + p; return; }
      buf += sep;
      if (buf) into.appendChild(document.createTextNode(buf));
      buf = "";
      into.appendChild(p);
    });
    if (buf) into.appendChild(document.createTextNode(buf));
  }
  function element(node) {
    var sp = node.sp, up = node.up.sp;
    var box = el("span", sp.side);
    if (sp.frag) {   // the boxes of one discontinuous entity are styled and linked together
      box.classList.add("frag");
      box.dataset.ent = sp.side + sp.k;
      box.title = "fragment " + sp.frag + " of " + sp.nfrag + " of one "
        + (sp.side === "g" ? "gold" : "predicted") + " " + sp.label + " entity";
    }
    var twin = up && up.s === sp.s && up.e === sp.e && up.err === sp.err;
    if (sp.err && !twin) box.classList.add("e-" + sp.err);
    if (sp.cur) box.classList.add("cur");
    if (sp.s === sp.e) box.appendChild(el("span", sp.side === "g" ? "lg" : "lp", "\u2205 " + sp.label));
    else {
      emit(box, node);
      if (sp.last) box.appendChild(el("span", sp.side === "g" ? "lg" : "lp", sp.label));
    }
    return box;
  }
}

function sideText(T, i, t) {
  if (i < 0) return "\u2014";
  var parts = T.fr[i] || [[T.start[i], T.start[i] + T.len[i]]];
  var c = t === null ? null : parts.map(function (p) {
    return typeof t === "string" ? t.slice(p[0], p[1]) : t.slice(p[0], p[1]).join(" ");
  }).join(" \u2026 ");
  return D.labels[T.label[i]] + (c === null ? "" : " \u201c" + c + "\u201d") + " "
    + parts.map(function (p) { return "[" + p[0] + ", " + p[1] + ")"; }).join(" + ");
}
// Pointing at a fragment highlights every fragment of its entity.
function linkFragments(ev, on) {
  var box = ev.target.closest ? ev.target.closest(".frag") : null;
  if (box) $$('.frag[data-ent="' + box.dataset.ent + '"]', box.closest(".ctx, .doctext") || document)
    .forEach(function (x) { x.classList.toggle("linked", on); });
}
document.addEventListener("mouseover", function (ev) { linkFragments(ev, true); });
document.addEventListener("mouseout", function (ev) { linkFragments(ev, false); });

function contextOf(S, k) {
  var E = S.errors, r = E.row[k], t = docText(r);
  if (t === null) return null;
  var G = D.golds[S.gold], P = S.pred, gi = E.gi[k], pi = E.pi[k];
  var lo = Infinity, hi = -Infinity;
  if (gi >= 0) { lo = G.start[gi]; hi = G.start[gi] + G.len[gi]; }
  if (pi >= 0) { lo = Math.min(lo, P.start[pi]); hi = Math.max(hi, P.start[pi] + P.len[pi]); }
  var pad = typeof t === "string" ? 60 : 8;
  var a = Math.max(0, lo - pad), b = Math.min(t.length, hi + pad);
  var spans = rowSpans(S, r).filter(function (sp) {   // in the window (an empty span: inside it)
    return sp.s === sp.e ? sp.s >= a && sp.s <= b : sp.s < b && sp.e > a;
  });
  spans.forEach(function (sp) {
    sp.s = Math.max(sp.s, a); sp.e = Math.min(sp.e, b);
    if (sp.k === (sp.side === "g" ? gi : pi)) { sp.err = CATS[E.cat[k]]; sp.cur = true; }
  });
  var box = el("div", "ctx");
  if (a > 0) box.appendChild(document.createTextNode("\u2026 "));
  paint(box, t, a, b, spans);
  if (b < t.length) box.appendChild(document.createTextNode(" \u2026"));
  return box;
}

function renderDoc(r, S) {
  var view = $("#err-doc-view");
  view.textContent = "";
  if (r < 0) return;
  view.appendChild(el("h3", "", "Document " + docName(r)));
  var t = docText(r);
  if (t === null) {
    view.appendChild(el("p", "", "No text for this document: errors are listed by offsets."));
    return;
  }
  var E = S.errors, spans = rowSpans(S, r);
  for (var k = lowerBound(E.row, r), hi = lowerBound(E.row, r + 1); k < hi; k++) {
    spans.forEach(function (sp) {
      if (sp.k === (sp.side === "g" ? E.gi[k] : E.pi[k])) sp.err = CATS[E.cat[k]];
    });
  }
  var box = el("div", "doctext");
  paint(box, t, 0, t.length, spans);
  view.appendChild(box);
}

// ------------------------------------------------- filters: label, document search
var docInput = $("#err-doc"), docList = $("#err-doc-list"), docCount = $("#err-doc-count");
var docClear = $("#err-doc-clear"), lowerNames = null, MAX_SHOWN = 20;

function fillOptions() {
  var S = D.systems[state.sys], E = S.errors, n = E.cat.length;
  var labelSel = $("#err-label");
  labelSel.length = 1;
  var used = new Set();
  for (var k = 0; k < n; k++) { used.add(E.gl[k]); used.add(E.pl[k]); }
  var labels = D.labels.map(function (name, i) { return [name, i]; })
    .filter(function (p) { return used.has(p[1]); })
    .sort(function (x, y) { return x[0] < y[0] ? -1 : x[0] > y[0] ? 1 : 0; });
  var frag = document.createDocumentFragment();
  labels.forEach(function (p) { var o = el("option", "", p[0]); o.value = p[1]; frag.appendChild(o); });
  labelSel.appendChild(frag);
  S.perRow = new Int32Array(D.seq.length);
  for (k = 0; k < n; k++) S.perRow[E.row[k]]++;
}
function plural(n, one, many) { return n.toLocaleString("en") + " " + (n === 1 ? one : many); }
function closeDocs() {
  docList.hidden = true;
  docInput.setAttribute("aria-expanded", "false");
  docInput.removeAttribute("aria-activedescendant");
}
// The documents with errors whose name contains the query: exact match first, then
// names that start with it, then the others, each in document order.
function searchDocs(query) {
  var S = D.systems[state.sys], q = query.trim().toLowerCase(), groups = [[], [], []];
  if (lowerNames === null) lowerNames = D.seq.map(function (_, r) { return docName(r).toLowerCase(); });
  for (var r = 0; r < lowerNames.length; r++) {
    if (S.perRow[r] === 0) continue;
    var at = lowerNames[r].indexOf(q);
    if (at >= 0) groups[lowerNames[r] === q ? 0 : at === 0 ? 1 : 2].push(r);
  }
  return groups[0].concat(groups[1], groups[2]);
}
function showDocs() {
  var query = docInput.value;
  docList.textContent = "";
  if (query.trim() === "") {
    closeDocs();
    docCount.textContent = "";
    if (state.doc !== -1) chooseDoc(-1);
    return;
  }
  var S = D.systems[state.sys], hits = searchDocs(query);
  docCount.textContent = hits.length === 0 ? "no document with errors matches"
    : plural(hits.length, "document matches", "documents match")
      + (hits.length > MAX_SHOWN ? " (first " + MAX_SHOWN + " shown)" : "");
  hits.slice(0, MAX_SHOWN).forEach(function (r, i) {
    var li = el("li", "");
    li.id = "err-doc-opt-" + i;
    li.setAttribute("role", "option");
    li.dataset.row = r;
    li.appendChild(el("span", "name", docName(r)));
    li.appendChild(el("span", "n", plural(S.perRow[r], "error", "errors")));
    docList.appendChild(li);
  });
  docList.hidden = hits.length === 0;
  docInput.setAttribute("aria-expanded", String(hits.length > 0));
}
function chooseDoc(r) {
  state.doc = r;
  state.page = 0;
  docInput.value = r < 0 ? "" : docName(r);
  docClear.hidden = r < 0;
  docCount.textContent = "";
  closeDocs();
  refresh();
}
function moveActive(step) {
  var opts = $$("li", docList), at = opts.findIndex(function (o) { return o.classList.contains("active"); });
  if (!opts.length) return;
  if (at >= 0) { opts[at].classList.remove("active"); opts[at].removeAttribute("aria-selected"); }
  var next = opts[at < 0 ? (step > 0 ? 0 : opts.length - 1) : (at + step + opts.length) % opts.length];
  next.classList.add("active");
  next.setAttribute("aria-selected", "true");
  docInput.setAttribute("aria-activedescendant", next.id);
  next.scrollIntoView({ block: "nearest" });
}
docInput.addEventListener("input", showDocs);
docInput.addEventListener("focus", function () { if (docInput.value && state.doc < 0) showDocs(); });
docInput.addEventListener("blur", closeDocs);
docInput.addEventListener("keydown", function (ev) {
  if (ev.key === "ArrowDown" || ev.key === "ArrowUp") {
    if (docList.hidden) showDocs();
    moveActive(ev.key === "ArrowDown" ? 1 : -1);
    ev.preventDefault();
  } else if (ev.key === "Enter") {
    var o = docList.hidden ? null : $("li.active", docList) || $("li", docList);
    if (o) chooseDoc(Number(o.dataset.row));
    ev.preventDefault();
  } else if (ev.key === "Escape") closeDocs();
});
docList.addEventListener("mousedown", function (ev) { ev.preventDefault(); });  // keep the focus
docList.addEventListener("click", function (ev) {
  var o = ev.target.closest("li");
  if (o) chooseDoc(Number(o.dataset.row));
});
docClear.addEventListener("click", function () { chooseDoc(-1); });

function refresh() {
  var S = D.systems[state.sys], E = S.errors, n = E.cat.length;
  var counts = CATS.map(function () { return 0; });
  var shown = [];
  for (var k = 0; k < n; k++) {
    if (state.label !== -2 && E.gl[k] !== state.label && E.pl[k] !== state.label) continue;
    if (state.doc !== -1 && E.row[k] !== state.doc) continue;
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
  var list = $("#err-list"), G = D.golds[S.gold];
  list.textContent = "";
  list.start = first + 1;
  var frag = document.createDocumentFragment();
  for (var i = first; i < last; i++) {
    var k2 = shown[i], r = E.row[k2], t = docText(r), cat = CATS[E.cat[k2]];
    var li = el("li", "err cat-" + cat);
    li.dataset.cat = cat;
    var head = el("div", "head");
    head.appendChild(el("span", "badge cat-" + cat, cat.replace(/_/g, " ")));
    var doc = el("button", "doc", docName(r));
    doc.type = "button";
    doc.dataset.row = r;
    head.appendChild(doc);
    head.appendChild(document.createTextNode("  gold: " + sideText(G, E.gi[k2], t)
      + "  \u2192  predicted: " + sideText(S.pred, E.pi[k2], t)));
    li.appendChild(head);
    var ctx = contextOf(S, k2);
    if (ctx) li.appendChild(ctx);
    frag.appendChild(li);
  }
  list.appendChild(frag);
  renderDoc(state.doc, S);
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
$("#err-list").addEventListener("click", function (ev) {
  var b = ev.target.closest("button.doc");
  if (!b) return;
  chooseDoc(Number(b.dataset.row));
  $("#err-doc-view").scrollIntoView();
});
$("#err-prev").addEventListener("click", function () { state.page -= 1; refresh(); });
$("#err-next").addEventListener("click", function () { state.page += 1; refresh(); });
var sysSel = $("#err-system");
if (sysSel) sysSel.addEventListener("change", function () {
  state = { sys: Number(sysSel.value), cat: -1, label: -2, doc: -1, page: 0 };
  fillOptions();
  chooseDoc(-1);
});
fillOptions();
refresh();
document.body.dataset.ready = "1";
"""
