"""The data behind the HTML report's error browser, as compact JSON.

The page renders errors with its script, a page at a time, from columns of
integers: one array per field rather than one object per record, so that a
hundred thousand errors stay a few megabytes and parse in milliseconds.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from html import escape
from typing import Any

import numpy as np

from nerscore.analysis.errors import ErrorCategory, errors_from_report
from nerscore.analysis.pairing import analysis_alignment
from nerscore.errors import OptionError
from nerscore.scoring.report import Report
from nerscore.values.spans import EntityColumns

__all__ = ["CATEGORIES", "browser_markup", "error_payload", "script_json"]

#: Error categories in the page's order, with their display names.
CATEGORIES = tuple((c.value, c.value.replace("_", " ")) for c in ErrorCategory)
_CAT_INDEX = {c: i for i, c in enumerate(ErrorCategory)}


def script_json(data: Any) -> str:
    r"""JSON safe inside ``<script type="application/json">``: ``<``, ``>`` and ``&`` escaped.

    Examples
    --------
    >>> print(script_json({"t": "</script><b>&"}))
    {"t":"\u003c/script\u003e\u003cb\u003e\u0026"}
    """
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


class _Vocab:
    """One label vocabulary for every system of the page."""

    def __init__(self) -> None:
        self.index: dict[str, int] = {}

    def code(self, label: str | None) -> int:
        if label is None:
            return -1
        return self.index.setdefault(label, len(self.index))

    def codes(self, labels: Sequence[str]) -> np.ndarray[Any, np.dtype[np.int64]]:
        return np.array([self.code(lab) for lab in labels], dtype=np.int64)


def _columns(cols: EntityColumns, vocab: _Vocab) -> dict[str, list[int]]:
    """Entity columns sorted by sequence, start and end, with labels in the page vocabulary."""
    codes = vocab.codes(cols.labels)
    label = codes[cols.label] if len(cols) else np.zeros(0, dtype=np.int64)
    order = np.lexsort((cols.end, cols.start, cols.seq))
    return {"seq": cols.seq[order].tolist(), "start": cols.start[order].tolist(),
            "end": cols.end[order].tolist(), "label": label[order].tolist()}


def _errors(report: Report, n_seq: int, vocab: _Vocab) -> dict[str, list[int]]:
    # the page slices covered text itself: no texts here, so none is copied per record
    records = errors_from_report(report, texts=[None] * n_seq)
    keys = ("cat", "seq", "gs", "ge", "gl", "ps", "pe", "pl")
    out: dict[str, list[int]] = {k: [] for k in keys}
    cat, seq, gs, ge, gl, ps, pe, pl = (out[k] for k in keys)
    code = vocab.code
    for r in records:
        cat.append(_CAT_INDEX[r.category])
        seq.append(r.sequence)
        gs.append(-1 if r.gold_start is None else r.gold_start)
        ge.append(-1 if r.gold_end is None else r.gold_end)
        gl.append(code(r.gold_label))
        ps.append(-1 if r.pred_start is None else r.pred_start)
        pe.append(-1 if r.pred_end is None else r.pred_end)
        pl.append(code(r.pred_label))
    return out




def _texts(texts: Sequence[Any] | None, n: int) -> list[Any] | None:
    if texts is None:
        return None
    if isinstance(texts, str):
        raise TypeError("Expected `texts` to hold one text (str) or token list per sequence; "
                        "got a single str. Wrap it in a list.")
    out: list[Any] = []
    for item in texts:
        if item is None or isinstance(item, str):
            out.append(item)
        else:
            out.append([str(t) for t in item])
    if len(out) != n:
        raise ValueError(f"Expected `texts` to hold one item per sequence ({n}); "
                         f"got {len(out)}.")
    return out


def error_payload(
    systems: Mapping[str, Report], texts: Sequence[Any] | None
) -> tuple[dict[str, Any] | None, str]:
    """The browser's data for every system, or None and the reason there is none.

    Returns
    -------
    (dict or None, str)
        ``labels`` (the vocabulary), ``docs`` (ids or None), ``texts`` (str,
        token list or None per sequence), ``golds`` (distinct gold entity
        tables) and ``systems``: per system its ``name``, ``gold`` (index
        into ``golds``), ``pred`` entity columns and ``errors`` columns
        (``cat`` index into the categories; -1 for an absent side).
    """
    vocab = _Vocab()
    golds: list[dict[str, list[int]]] = []
    out_systems = []
    n_seq = 0
    doc_ids = None
    reasons = []
    for name, report in systems.items():
        try:
            base = analysis_alignment(report.match, report.alignment)
        except OptionError:
            reasons.append(f"the report of {name} (match={report.match!r}) holds no pairing "
                           "of entities")
            continue
        n = max(base.gold.n_sequences, base.pred.n_sequences, report.n_sequences or 0)
        n_seq = max(n_seq, n)
        gold = _columns(base.gold, vocab)
        if gold not in golds:
            golds.append(gold)
        out_systems.append({"name": name, "gold": golds.index(gold),
                            "pred": _columns(base.pred, vocab),
                            "errors": _errors(report, n, vocab)})
        if doc_ids is None and report.doc_ids is not None:
            doc_ids = [None if d is None else str(d) for d in report.doc_ids]
    if not out_systems:
        return None, "; ".join(reasons)
    if texts is None:
        texts = next((r.texts for r in systems.values() if r.texts is not None), None)
    return {
        "categories": [c for c, _ in CATEGORIES],
        "labels": list(vocab.index),
        "docs": doc_ids,
        "nSeq": n_seq,
        "texts": _texts(texts, n_seq),
        "golds": golds,
        "systems": out_systems,
    }, ""


def browser_markup(names: Sequence[str], page_size: int) -> str:
    """The error browser's controls; the script fills in the list, counts and options."""
    pick = ""
    if len(names) > 1:
        opts = "".join(f'<option value="{i}">{escape(n)}</option>' for i, n in enumerate(names))
        pick = (f'<label>system <select id="err-system">{opts}</select></label>')
    cats = "".join(
        f'<button type="button" class="cat cat-{c}" data-cat="{c}" aria-pressed="false">'
        f'{escape(label)} <span class="n"></span></button>' for c, label in CATEGORIES)
    return (
        f'<div class="err-controls" data-page-size="{page_size}">{pick}'
        '<div class="cats" role="group" aria-label="category">'
        '<button type="button" class="cat cat-all" data-cat="" aria-pressed="true">'
        f'all <span class="n"></span></button>{cats}</div>'
        '<label>label <select id="err-label"><option value="">all labels</option></select>'
        '</label> <label>document <select id="err-doc"><option value="">all documents'
        "</option></select></label></div>"
        '<div class="legend"><span class="g">gold</span> <span class="p">predicted</span> '
        + "".join(f'<span class="e-{c}">{escape(label)}</span> ' for c, label in CATEGORIES)
        + "</div>"
        '<p id="err-count" aria-live="polite"></p><div id="err-doc-view"></div>'
        '<div class="pager"><button type="button" id="err-prev">previous</button> '
        '<span id="err-page"></span> <button type="button" id="err-next">next</button></div>'
        '<ol id="err-list"></ol>'
        "<noscript><p>The error browser needs JavaScript.</p></noscript>"
    )
