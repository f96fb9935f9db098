"""The HTML report's parts for model outputs: the summary, the unaligned mentions, the raw outputs.

For every system scored from model outputs (a report of
:func:`nerscore.evaluate_llm`, whose ``extra["llm"]`` holds the summary):

- :func:`llm_summary_table`: documents, parse failures, repaired outputs,
  mentions, unaligned mentions and the hallucination rate, ambiguous
  alignments, out-of-schema labels, policy and normalisation, one column per
  system (in the Summary section);
- :func:`unaligned_section`: the unaligned mentions as an error kind of their
  own (they have no offsets, so the error browser, which shows spans in the
  text, cannot place them) and the parse failures, each with the model's raw
  output of its document in a ``<details>`` block (in the Errors section);
- :func:`outputs_payload` and :data:`OUTPUTS_SCRIPT`: the raw output of each
  document the error browser lists, embedded as JSON and shown, escaped (as
  text, never markup), under the document the browser opens.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from html import escape
from typing import Any

from nerscore.render.html_errors import script_json
from nerscore.render.html_sections import num
from nerscore.scoring.report import Report

__all__ = ["OUTPUTS_SCRIPT", "llm_summary_table", "outputs_markup", "outputs_payload",
           "unaligned_section"]

#: Rows listed per system and kind (unaligned mentions, parse failures); a note gives the rest.
MAX_ROWS = 1000

_ROWS = (("documents", "documents"), ("parse failures", "parse_failures"),
         ("repaired outputs", "repaired"), ("mentions", "mentions"),
         ("unaligned mentions", "unaligned"), ("hallucination rate", "hallucination_rate"),
         ("ambiguous alignments", "ambiguous"), ("out-of-schema labels", "out_of_schema"),
         ("policy", "policy"), ("normalisation", "normalize"))

#: Shows the raw output of the document the error browser opens (``#err-doc-view``).
OUTPUTS_SCRIPT = r"""
(function () {
var node = document.getElementById("nerscore-llm-outputs");
var view = document.getElementById("err-doc-view");
if (!node || !view) return;
var O = JSON.parse(node.textContent);
function show() {
  var h = view.querySelector("h3");
  if (!h || view.querySelector(".llm-raw")) return;
  var sel = document.getElementById("err-system");
  var sys = sel ? sel.options[sel.selectedIndex].text : Object.keys(O)[0];
  var raw = (O[sys] || {})[h.textContent.replace(/^Document /, "")];
  if (raw === undefined) return;
  var box = document.createElement("details");
  box.className = "llm-raw";
  var s = document.createElement("summary");
  s.textContent = "model output";
  var pre = document.createElement("pre");
  pre.textContent = raw;
  box.appendChild(s);
  box.appendChild(pre);
  view.appendChild(box);
}
new MutationObserver(show).observe(view, { childList: true });
})();
"""


def _llm(systems: Mapping[str, Report]) -> dict[str, Mapping[str, Any]]:
    return {name: r.extra["llm"] for name, r in systems.items()
            if isinstance(r.extra.get("llm"), Mapping)}


def llm_summary_table(systems: Mapping[str, Report], digits: int) -> str:
    r"""What reading and aligning the model outputs counted, one column per such system.

    Parameters
    ----------
    systems : mapping of str to Report
        The systems of the page.
    digits : int
        Decimals of the hallucination rate (as a percentage).

    Returns
    -------
    str
        An HTML table; empty when no system was scored from model outputs.

    Examples
    --------
    >>> import nerscore
    >>> gold = [nerscore.Document("d", [(0, 4, "PER")], "Anna <b>")]
    >>> r = nerscore.evaluate_llm(gold, ["PER: Anna, <i>"], zero_division=0.0)
    >>> t = llm_summary_table({"m": r}, 1)
    >>> '<td>unaligned mentions</td><td class="num">1</td>' in t, "50.0%" in t
    (True, True)
    """
    found = _llm(systems)
    if not found:
        return ""
    head = "".join(f"<th>{escape(name)}</th>" for name in found)
    rows = []
    for title, key in _ROWS:
        cells = []
        for s in found.values():
            v = s.get(key)
            text = (f"{100 * v:.{digits}f}%" if key == "hallucination_rate" and v is not None
                    else num(v, digits) if isinstance(v, (int, float)) else escape(str(v)))
            numeric = isinstance(v, (int, float))
            cells.append(f'<td class="num">{text}</td>' if numeric else f"<td>{text}</td>")
        rows.append(f"<tr><td>{escape(title)}</td>{''.join(cells)}</tr>")
    return (f'<table class="llm"><thead><tr><th>model outputs</th>{head}</tr></thead>'
            f"<tbody>{''.join(rows)}</tbody></table>")


def _raw(outputs: Mapping[str, str], doc: str) -> str:
    raw = outputs.get(doc)
    if raw is None:
        return ""
    return (f'<details class="llm-raw"><summary>model output</summary>'
            f"<pre>{escape(raw)}</pre></details>")


def unaligned_section(systems: Mapping[str, Report],
                      outputs: Mapping[str, Mapping[str, str]] | None) -> str:
    """The unaligned mentions (an error kind of their own) and parse failures, per system.

    Parameters
    ----------
    systems : mapping of str to Report
        The systems of the page.
    outputs : mapping of str to mapping of str to str, optional
        Per system, the raw output of each document (by id).

    Returns
    -------
    str
        HTML; empty when no system was scored from model outputs.

    Examples
    --------
    >>> import nerscore
    >>> gold = [nerscore.Document("d", [(0, 4, "PER")], "Anna")]
    >>> r = nerscore.evaluate_llm(gold, ["PER: Anna, <i>"], zero_division=0.0)
    >>> html = unaligned_section({"m": r}, {"m": {"d": "PER: Anna, <i>"}})
    >>> "<td>&lt;i&gt;</td><td>PER</td>" in html, "<pre>PER: Anna, &lt;i&gt;</pre>" in html
    (True, True)
    """
    found = _llm(systems)
    parts = []
    for name, s in found.items():
        raw = (outputs or {}).get(name, {})
        who = f" ({escape(name)})" if len(systems) > 1 else ""
        mentions = list(s.get("unaligned_mentions") or ())
        failures = list(s.get("parse_failure_list") or ())
        parts.append(f'<h3>Unaligned mentions{who}</h3><p>{len(mentions)} mention(s) the '
                     "model gave that are not in the text of their document (or whose every "
                     "occurrence was taken): each is one false positive, listed here as "
                     "<em>unaligned</em> since it has no place in the text.</p>")
        if mentions:
            rows = "".join(
                f"<tr><td>{escape(str(m['id']))}</td><td>{escape(str(m['text']))}</td>"
                f"<td>{escape(str(m['label']))}</td><td>{_raw(raw, str(m['id']))}</td></tr>"
                for m in mentions[:MAX_ROWS])
            parts.append('<table class="unaligned"><thead><tr><th>document</th><th>mention'
                         "</th><th>label</th><th>output</th></tr></thead>"
                         f"<tbody>{rows}</tbody></table>" + _more(len(mentions)))
        if failures:
            rows = "".join(
                f"<tr><td>{escape(str(f['id']))}</td><td>{escape(str(f['problem']))}</td>"
                f"<td>{_raw(raw, str(f['id']))}</td></tr>" for f in failures[:MAX_ROWS])
            parts.append(f"<h3>Parse failures{who}</h3><p>{len(failures)} output(s) nothing "
                         "could be read from: every gold entity of their document is missed."
                         '</p><table class="failures"><thead><tr><th>document</th><th>problem'
                         f"</th><th>output</th></tr></thead><tbody>{rows}</tbody></table>"
                         + _more(len(failures)))
    return "".join(parts)


def _more(n: int) -> str:
    return f"<p>The first {MAX_ROWS} of {n} are listed.</p>" if n > MAX_ROWS else ""


def outputs_payload(outputs: Mapping[str, Mapping[str, str]] | None,
                    docs: Sequence[str | None] | None) -> dict[str, dict[str, str]]:
    """The raw outputs of the documents the error browser lists, per system.

    Parameters
    ----------
    outputs : mapping of str to mapping of str to str, optional
        Per system, the raw output of each document (by id).
    docs : sequence of str or None, optional
        The ids of the documents the browser lists (its payload's ``docs``).

    Returns
    -------
    dict of str to dict of str to str

    Examples
    --------
    >>> outputs_payload({"m": {"a": "LOC: Paris", "b": "x"}}, ["a", None])
    {'m': {'a': 'LOC: Paris'}}
    """
    if not outputs or not docs:
        return {}
    listed = [d for d in docs if d is not None]
    return {name: {d: raw[d] for d in listed if d in raw} for name, raw in outputs.items()}


def outputs_markup(payload: Mapping[str, Mapping[str, str]]) -> str:
    r"""The payload as a JSON block and the script that shows it ("" for an empty payload).

    Parameters
    ----------
    payload : mapping
        From :func:`outputs_payload`.

    Returns
    -------
    str

    Examples
    --------
    >>> print(outputs_markup({"m": {"a": "</script>"}})[:91])
    <script type="application/json" id="nerscore-llm-outputs">{"m":{"a":"\u003c/script\u003e"}}
    """
    if not any(payload.values()):
        return ""
    return (f'<script type="application/json" id="nerscore-llm-outputs">'
            f"{script_json(dict(payload))}</script><script>{OUTPUTS_SCRIPT}</script>")
