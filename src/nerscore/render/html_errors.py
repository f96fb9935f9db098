"""The data behind the HTML report's error browser, as compact JSON.

The page renders errors with its script, a page at a time, from columns of
integers: one array per field rather than one object per record, every
string (label, token) once in a table and referenced by index, and only the
sequences that hold an error, so that a hundred thousand errors stay a few
megabytes and parse in a fraction of a second.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping, Sequence
from html import escape
from typing import Any, overload

import numpy as np

from nerscore.analysis.errors import ErrorCategory, ErrorTable, error_table
from nerscore.analysis.pairing import analysis_alignment
from nerscore.errors import OptionError
from nerscore.scoring.report import Report
from nerscore.values.spans import EntityColumns
from nerscore.values.tags import Slices

__all__ = ["CATEGORIES", "IntColumn", "TokenRows", "browser_markup", "error_payload",
           "script_json"]

#: Error categories in the page's order, with their display names (unaligned mentions have
#: no offsets: the page lists them apart, render/html_llm.py).
CATEGORIES = tuple((c.value, c.value.replace("_", " ")) for c in ErrorCategory
                   if c is not ErrorCategory.UNALIGNED)


def script_json(data: Any) -> str:
    r"""JSON safe inside ``<script type="application/json">``: ``<``, ``>`` and ``&`` escaped.

    Examples
    --------
    >>> print(script_json({"t": "</script><b>&"}))
    {"t":"\u003c/script\u003e\u003cb\u003e\u0026"}
    """
    return _encode(data).replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def _encode(data: Any) -> str:
    """``data`` as JSON; columns (:class:`TokenRows`, :class:`IntColumn`) come encoded already.

    A dict (of str keys) or list holding columns is its items' JSON joined,
    which is what :func:`json.dumps` writes; anything else is :func:`json.dumps`'s.
    """
    if isinstance(data, (TokenRows, IntColumn)):
        return data.to_json()
    if isinstance(data, dict) and _has_columns(data) and all(isinstance(k, str) for k in data):
        return "{" + ",".join(f"{_dumps(k)}:{_encode(v)}" for k, v in data.items()) + "}"
    if isinstance(data, list) and _has_columns(data):
        return "[" + ",".join(_encode(v) for v in data) + "]"
    return _dumps(data)


def _has_columns(data: Any) -> bool:
    """Whether ``data`` holds a column, through dicts and lists of dicts or columns."""
    if isinstance(data, (TokenRows, IntColumn)):
        return True
    if isinstance(data, dict):
        return any(_has_columns(v) for v in data.values())
    if isinstance(data, list) and data and isinstance(data[0], (dict, list, TokenRows, IntColumn)):
        return any(_has_columns(v) for v in data)
    return False


def _dumps(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"), allow_nan=False,
                      default=_plain)


def _plain(value: Any) -> Any:
    """A column where :func:`json.dumps` meets one: its list (a dict with keys not str)."""
    if isinstance(value, (TokenRows, IntColumn)):
        return list(value)
    raise TypeError(f"Object of type {type(value).__name__} is not JSON serializable")


class IntColumn(Sequence[int]):
    """Integers held as one array; equal to the list of them, written as JSON in one join.

    Examples
    --------
    >>> col = IntColumn(np.array([3, -1, 3, 10]))
    >>> col == [3, -1, 3, 10], col[1], col, col.to_json()
    (True, -1, [3, -1, 3, 10], '[3,-1,3,10]')
    """

    __hash__ = None  # type: ignore[assignment]

    def __init__(self, values: IntArray) -> None:
        self.values = np.asarray(values, dtype=np.int64)

    def __len__(self) -> int:
        return len(self.values)

    @overload
    def __getitem__(self, index: int) -> int: ...

    @overload
    def __getitem__(self, index: slice) -> list[int]: ...

    def __getitem__(self, index: int | slice) -> int | list[int]:
        return self.values[index].tolist()  # type: ignore[no-any-return]

    def __eq__(self, other: object) -> bool:
        if isinstance(other, IntColumn):
            return bool(np.array_equal(self.values, other.values))
        if not isinstance(other, list):
            return NotImplemented
        return bool(self.values.tolist() == other)

    def __repr__(self) -> str:
        return repr(self.values.tolist())

    def to_json(self) -> str:
        """The integers as a JSON array: one string per value in their range, joined once."""
        v = self.values
        if not len(v):
            return "[]"
        lo, hi = int(v.min()), int(v.max())
        if hi - lo > 4 * len(v) + 1024:  # sparse values (large offsets): as json writes them
            return _dumps(v.tolist())
        table = np.array([f"{i}," for i in range(lo, hi + 1)], dtype=object)
        return "[" + "".join(table[v - lo].tolist())[:-1] + "]"


class TokenRows(Sequence[list[int]]):
    """Rows of token indices held as one array: row ``r`` is ``ids[cuts[r]:cuts[r + 1]]``.

    A sequence of lists of int (equal to the list of those lists), whose
    JSON (:meth:`to_json`, what :func:`script_json` writes) is made without
    a Python object per token.

    Examples
    --------
    >>> rows = TokenRows(np.array([0, 1, 0, 2]), np.array([0, 3, 3, 4]))
    >>> rows == [[0, 1, 0], [], [2]], rows[2], rows.to_json()
    (True, [2], '[[0,1,0],[],[2]]')
    """

    __hash__ = None  # type: ignore[assignment]

    def __init__(self, ids: IntArray, cuts: IntArray) -> None:
        self.ids, self.cuts = ids, cuts

    def __len__(self) -> int:
        return len(self.cuts) - 1

    @overload
    def __getitem__(self, index: int) -> list[int]: ...

    @overload
    def __getitem__(self, index: slice) -> list[list[int]]: ...

    def __getitem__(self, index: int | slice) -> list[int] | list[list[int]]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        r = range(len(self))[index]
        return self.ids[int(self.cuts[r]) : int(self.cuts[r + 1])].tolist()  # type: ignore[no-any-return]

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, (list, TokenRows)):
            return NotImplemented
        return len(self) == len(other) and all(a == b for a, b in zip(self, other, strict=True))

    def __repr__(self) -> str:
        return repr(list(self))

    def to_json(self) -> str:
        """The rows as JSON (``[[0,1,0],[],[2]]``): one string per distinct index, joined once."""
        rows, n = len(self), len(self.ids)
        if rows == 0:
            return "[]"
        counts = np.diff(self.cuts)
        v = int(self.ids.max()) + 1 if n else 0
        table = np.array([*(f"{i}," for i in range(v)), *(f"{i}]," for i in range(v))],
                         dtype=object)
        last = np.zeros(n, dtype=np.int64)
        last[self.cuts[1:][counts > 0] - 1] = v  # a row's last index closes the row
        out = np.empty(n + rows, dtype=object)
        opens = self.cuts[:-1] + np.arange(rows)  # each row: "[", then its indices
        out[opens] = "["
        out[opens[counts == 0]] = "[],"
        out[np.arange(n) + np.repeat(np.arange(1, rows + 1), counts)] = table[self.ids + last]
        return "[" + "".join(out.tolist())[:-1] + "]"


class _Vocab:
    """A string table: each distinct string once, referenced by its index."""

    def __init__(self) -> None:
        self.index: dict[str, int] = {}

    def code(self, label: str | None) -> int:
        if label is None:
            return -1
        return self.index.setdefault(label, len(self.index))

    def codes(self, labels: Sequence[str]) -> np.ndarray[Any, np.dtype[np.int64]]:
        return np.array([self.code(lab) for lab in labels], dtype=np.int64)


IntArray = np.ndarray[Any, np.dtype[np.int64]]
Frags = tuple[tuple[int, int], ...]
_KEYS = ("row", "start", "end", "label", "frag")


class _FragIds:
    """One number per distinct fragment set (0: a contiguous entity)."""

    def __init__(self) -> None:
        self.index: dict[Frags, int] = {}
        self.parts: dict[int, Frags] = {}

    def code(self, frags: Frags | None) -> int:
        if not frags:
            return 0
        k = self.index.setdefault(frags, len(self.index) + 1)
        self.parts[k] = frags
        return k


def _table(cols: EntityColumns, rows: IntArray, vocab: _Vocab,
           frag_ids: _FragIds) -> dict[str, IntArray]:
    """The entities of the sequences ``rows`` (sorted), sorted by row and offsets.

    Columns ``row`` (an index into ``rows``), ``start``, ``end``, ``label``
    (an index into the page's label table) and ``frag`` (0, or the number of
    a discontinuous entity's fragment set in ``frag_ids``).
    """
    keep = np.flatnonzero(np.isin(cols.seq, rows))
    seq, start, end = cols.seq[keep], cols.start[keep], cols.end[keep]
    label = vocab.codes(cols.labels)[cols.label[keep]]
    frag = np.zeros(len(keep), dtype=np.int64)
    f = cols.fragments
    if f is not None:
        many = f.counts()[keep] > 1
        frag[many] = [frag_ids.code(f.row(int(r))) for r in keep[many]]
    order = np.lexsort((frag, end, start, seq))
    return {"row": np.searchsorted(rows, seq[order]), "start": start[order],
            "end": end[order], "label": label[order], "frag": frag[order]}


def _table_json(table: Mapping[str, IntArray], n_rows: int,
                frag_ids: _FragIds) -> dict[str, Any]:
    """A table as the page stores it: ``n`` entities per row; ``start``, ``len``, ``label``.

    With discontinuous entities also ``frags``: per such entity its index in
    the table, then the start and length of each fragment.
    """
    out: dict[str, Any] = {
        "n": IntColumn(np.bincount(table["row"], minlength=n_rows)),
        "start": IntColumn(table["start"]), "len": IntColumn(table["end"] - table["start"]),
        "label": IntColumn(table["label"])}
    many = np.flatnonzero(table["frag"] > 0)
    if len(many):
        out["frags"] = [[k, *(x for a, b in frag_ids.parts[int(table["frag"][k])]
                              for x in (a, b - a))] for k in many.tolist()]
    return out


def _within_row(table: Mapping[str, IntArray], query: Mapping[str, IntArray]) -> IntArray:
    """Where each queried entity is among its row's entities of ``table``; -1 for label -1.

    ``table`` is sorted by row, then start, end and fragment set (:func:`_table`):
    each query is found by a binary search within its row, all queries at
    once, then among the entities of the same bounds the first of its label.
    """
    row = query["row"]
    first = np.searchsorted(table["row"], row)
    stop = np.searchsorted(table["row"], row, side="right")
    bounds = ("start", "end", "frag")
    asked = query["label"] >= 0  # an absent side is not looked for
    lo, hi = first.copy(), stop.copy()
    todo = np.flatnonzero(asked & (lo < hi))
    while len(todo):  # lo: the first entity of the row not before the query's bounds
        mid = (lo[todo] + hi[todo]) // 2
        before = np.zeros(len(todo), dtype=bool)
        tied = np.ones(len(todo), dtype=bool)
        for key in bounds:
            t, q = table[key][mid], query[key][todo]
            before |= tied & (t < q)
            tied &= t == q
        lo[todo[before]] = mid[before] + 1
        hi[todo[~before]] = mid[~before]
        todo = todo[lo[todo] < hi[todo]]
    out = np.where(asked, -1 - first, -1)  # -1 - first: not in the table
    todo = np.flatnonzero(asked)
    at = lo[todo]
    while len(todo):  # the entities of the same bounds, in order, up to one of the same label
        ok = at < stop[todo]
        todo, at = todo[ok], at[ok]
        for key in bounds:
            ok = table[key][at] == query[key][todo]
            todo, at = todo[ok], at[ok]
        hit = table["label"][at] == query["label"][todo]
        out[todo[hit]] = at[hit] - first[todo[hit]]
        todo, at = todo[~hit], at[~hit] + 1
    return out


def _errors(
    records: ErrorTable, rows: IntArray, vocab: _Vocab,
    gold: Mapping[str, IntArray], pred: Mapping[str, IntArray], frag_ids: _FragIds,
) -> dict[str, IntColumn]:
    """Errors as columns: category, row, and each side as an index into its row's entities.

    Read from the records' columns (:class:`~nerscore.analysis.errors.ErrorTable`):
    no record is made.
    """
    codes = np.array([*(vocab.code(lab) for lab in records.labels), -1], dtype=np.int64)

    def frags(values: list[Frags | None] | None) -> IntArray:
        if values is None:
            return np.zeros(len(records), dtype=np.int64)
        return np.array([frag_ids.code(f) for f in values], dtype=np.int64)

    row = np.searchsorted(rows, records.sequence)
    g = _within_row(gold, dict(zip(_KEYS, (
        row, records.gold_start, records.gold_end, codes[records.gold_label],
        frags(records.gold_fragments)), strict=True)))
    p = _within_row(pred, dict(zip(_KEYS, (
        row, records.pred_start, records.pred_end, codes[records.pred_label],
        frags(records.pred_fragments)), strict=True)))
    return {"cat": IntColumn(records.category), "row": IntColumn(row), "g": IntColumn(g),
            "p": IntColumn(p)}


def _texts(
    texts: Sequence[Any] | None, n: int, rows: Sequence[int]
) -> tuple[Sequence[Any] | None, list[str] | None]:
    """The texts of ``rows`` and the token table they index.

    Each row's text is a str (character offsets), a list of indices into the
    token table (token offsets) or None. The token table holds each distinct
    token once, the most frequent first (so the common ones get short
    indices); it is None when no text is a token list.
    """
    if texts is None:
        return None, None
    if isinstance(texts, str):
        raise TypeError("Expected `texts` to hold one text (str) or token list per sequence; "
                        "got a single str. Wrap it in a list.")
    items = texts if isinstance(texts, Slices) else list(texts)  # a file's: read by row
    if len(items) != n:
        raise ValueError(f"Expected `texts` to hold one item per sequence ({n}); "
                         f"got {len(items)}.")
    if isinstance(items, Slices) and hasattr(items.flat, "intern_ranges"):
        return _file_tokens(items, rows)
    picked = [items[q] for q in rows]
    lists = [[str(t) for t in item] for item in picked
             if item is not None and not isinstance(item, str)]
    if not lists:
        return picked, None
    table = [t for t, _ in Counter(t for tokens in lists for t in tokens).most_common()]
    index = {t: i for i, t in enumerate(table)}
    coded = iter([[index[t] for t in tokens] for tokens in lists])
    return [item if item is None or isinstance(item, str) else next(coded)
            for item in picked], table


def _file_tokens(items: Slices, rows: Sequence[int]) -> tuple[TokenRows, list[str]]:
    """:func:`_texts` of a file's tokens: the rows' token bytes interned at once, no str per token."""
    at = np.asarray(rows, dtype=np.int64)
    first, stop = items.offsets[at], items.offsets[at + 1]
    ids, vocab = items.flat.intern_ranges(first, stop)  # type: ignore[attr-defined]
    # most frequent first, ties in order of first appearance (Counter.most_common)
    order = np.argsort(-np.bincount(ids, minlength=len(vocab)), kind="stable")
    rank = np.empty(len(order), dtype=np.int64)
    rank[order] = np.arange(len(order))
    cuts = np.concatenate([[0], np.cumsum(stop - first)]).astype(np.int64)
    return TokenRows(rank[ids], cuts), [vocab[i] for i in order.tolist()]


def error_payload(
    systems: Mapping[str, Report], texts: Sequence[Any] | None
) -> tuple[dict[str, Any] | None, str]:
    """The browser's data for every system, or None and the reason there is none.

    Only the sequences with an error in some system (the *rows*) are
    embedded: their entities, ids and texts. Every string is stored once
    (labels, tokens) and every record is a set of integer columns.

    Returns
    -------
    (dict or None, str)
        ``categories``; ``labels`` (the label table); per row its ``seq``
        (sequence index), ``docs`` (id or None; None when there are no ids)
        and ``texts`` (see ``tokens``; None when there are no texts; a
        :class:`TokenRows` for a file's tokens);
        ``tokens`` (the token table, most frequent first, or None);
        ``golds`` (distinct gold entity tables: per row its number of
        entities ``n``, then per entity ``start``, ``len`` and ``label``,
        sorted by row and offsets; with discontinuous entities ``frags``:
        per such entity ``[index, start, len, start, len, ...]``, one start
        and length per fragment) and ``systems``: per system its ``name``,
        ``gold`` (index into ``golds``), ``pred`` (an entity table) and
        ``errors`` (columns ``cat``, an index into ``categories``, ``row``,
        and ``g`` and ``p``, the index of the gold and predicted entity among
        the row's entities, -1 for an absent side).

    Examples
    --------
    >>> import nerscore
    >>> r = nerscore.evaluate([["B-A", "I-A", "O"], ["O"]], [["O", "B-A", "O"], ["O"]],
    ...                       zero_division=0.0)
    >>> data, _ = error_payload({"s": r}, [["x", "y", "x"], ["z"]])
    >>> data["seq"], data["tokens"], data["texts"], data["golds"][0]
    ([0], ['x', 'y'], [[0, 1, 0]], {'n': [1], 'start': [0], 'len': [2], 'label': [0]})
    >>> data["systems"][0]["errors"]
    {'cat': [3], 'row': [0], 'g': [0], 'p': [0]}
    """
    vocab = _Vocab()
    usable = []
    reasons = []
    for name, report in systems.items():
        try:
            base = analysis_alignment(report.match, report.alignment)
        except OptionError:
            reasons.append(f"the report of {name} (match={report.match!r}) holds no pairing "
                           "of entities")
            continue
        n = max(base.gold.n_sequences, base.pred.n_sequences, report.n_sequences or 0)
        # the page slices covered text itself: no texts here, so none is copied per record
        usable.append((name, report, base, n, error_table(report, texts=[None] * n)))
    if not usable:
        return None, "; ".join(reasons)
    rows = np.unique(np.concatenate([np.zeros(0, dtype=np.int64),
                                     *(records.sequence for *_, records in usable)]))
    golds: list[dict[str, Any]] = []
    out_systems = []
    frag_ids = _FragIds()
    for name, _, base, _, records in usable:
        gold = _table(base.gold, rows, vocab, frag_ids)
        pred = _table(base.pred, rows, vocab, frag_ids)
        errors = _errors(records, rows, vocab, gold, pred, frag_ids)
        gold_json = _table_json(gold, len(rows), frag_ids)
        if gold_json not in golds:
            golds.append(gold_json)
        out_systems.append({"name": name, "gold": golds.index(gold_json),
                            "pred": _table_json(pred, len(rows), frag_ids), "errors": errors})
    ids = next((r.doc_ids for _, r, *_ in usable if r.doc_ids is not None), None)
    docs = None if ids is None else [
        None if q >= len(ids) or ids[q] is None else str(ids[q]) for q in rows.tolist()]
    if texts is None:
        texts = next((r.texts for _, r, *_ in usable if r.texts is not None), None)
    row_texts, tokens = _texts(texts, max(n for *_, n, _ in usable), rows.tolist())
    return {
        "categories": [c for c, _ in CATEGORIES],
        "labels": list(vocab.index),
        "seq": rows.tolist(),
        "docs": docs,
        "texts": row_texts,
        "tokens": tokens,
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
        '</label> <span class="doc-search"><label for="err-doc">document</label> '
        '<input type="search" id="err-doc" placeholder="search by name" autocomplete="off" '
        'role="combobox" aria-autocomplete="list" aria-expanded="false" '
        'aria-controls="err-doc-list"> <button type="button" id="err-doc-clear" hidden>'
        'all documents</button> <span id="err-doc-count" aria-live="polite"></span>'
        '<ul id="err-doc-list" role="listbox" aria-label="documents" hidden></ul></span></div>'
        '<div class="legend"><span class="g">gold</span> <span class="p">predicted</span> '
        + "".join(f'<span class="e-{c}">{escape(label)}</span> ' for c, label in CATEGORIES)
        + "</div>"
        '<p id="err-count" aria-live="polite"></p><div id="err-doc-view"></div>'
        '<div class="pager"><button type="button" id="err-prev">previous</button> '
        '<span id="err-page"></span> <button type="button" id="err-next">next</button></div>'
        '<ol id="err-list"></ol>'
        "<noscript><p>The error browser needs JavaScript.</p></noscript>"
    )
