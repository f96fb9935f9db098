"""The error browser's payload: JSON made from arrays equals that of lists; entities found in rows."""

from __future__ import annotations

import itertools
import json

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from nerscore.render.html_errors import IntColumn, TokenRows, script_json


def _rows(seed: int) -> tuple[TokenRows, list[list[int]]]:
    rng = np.random.default_rng(seed)
    counts = rng.integers(0, 6, 40)
    counts[[0, -1]] = [0, 3] if seed else [2, 0]  # empty rows first or last too
    ids = rng.integers(0, 1234, int(counts.sum()))
    cuts = np.concatenate([[0], np.cumsum(counts)])
    lists = [ids[a:b].tolist() for a, b in itertools.pairwise(cuts)]
    return TokenRows(ids, cuts), lists


@pytest.mark.parametrize("seed", [0, 1])
def test_token_rows_are_their_lists_and_write_their_json(seed):
    rows, lists = _rows(seed)
    assert rows == lists
    assert lists == rows
    assert list(rows) == lists
    assert rows[3] == lists[3]
    assert rows[-1] == lists[-1]
    assert rows[1:4] == lists[1:4]
    assert rows.to_json() == json.dumps(lists, separators=(",", ":"))
    data = {"seq": [1, 2], "texts": rows, "tokens": ["<a>", "b&"], "x": None}
    assert script_json(data) == script_json({**data, "texts": lists})


def test_no_rows_and_rows_without_tokens():
    assert TokenRows(np.zeros(0, dtype=np.int64), np.zeros(1, dtype=np.int64)).to_json() == "[]"
    none = TokenRows(np.zeros(0, dtype=np.int64), np.zeros(3, dtype=np.int64))
    assert none.to_json() == "[[],[]]"
    assert none == [[], []]
    assert TokenRows(np.array([7]), np.array([0, 1])) != [[8]]


def _plain(data):
    """``data`` with every column as the list it equals."""
    if isinstance(data, dict):
        return {k: _plain(v) for k, v in data.items()}
    if isinstance(data, (list, TokenRows, IntColumn)):
        return [_plain(v) for v in data]
    return data


def test_int_columns_are_their_lists_and_write_their_json():
    col = IntColumn(np.array([5, -1, 0, 40000, 5]))
    assert col == [5, -1, 0, 40000, 5]
    assert col != [5, -1, 0, 40000, 6]
    assert col == IntColumn(np.array([5, -1, 0, 40000, 5]))
    assert col[3] == 40000
    assert col[1:3] == [-1, 0]
    assert repr(col) == "[5, -1, 0, 40000, 5]"
    assert col.to_json() == "[5,-1,0,40000,5]"
    sparse = IntColumn(np.array([0, 10**9, 7]))  # a wide range: written as json writes it
    assert sparse.to_json() == "[0,1000000000,7]"
    assert IntColumn(np.zeros(0, dtype=np.int64)).to_json() == "[]"


def test_script_json_of_columns_anywhere_equals_that_of_their_lists():
    rows, _ = _rows(0)
    data = {"a": [{"cat": IntColumn(np.array([1, 2])), "f": [[0, 1, 2]]}, {"x": 1.5}],
            "t": rows, "n": {1: IntColumn(np.array([3]))}, "s": "</script>", "e": []}
    assert script_json(data) == script_json(_plain(data))
    assert json.loads(script_json(data))["n"] == {"1": [3]}


def test_the_error_payload_of_a_file_writes_the_json_of_its_lists():
    import nerscore
    from nerscore.io.conll import read_conll
    from nerscore.render.html_errors import error_payload
    from tests.paths import ROOT

    example = ROOT / "examples" / "conll2000"
    gold, pred = read_conll(example / "gold.conll"), read_conll(example / "pred.conll")
    report = nerscore.evaluate(gold.tags, pred.tags)
    data, _ = error_payload({"s": report}, gold.tags.sentence_tokens())
    assert isinstance(data["texts"], TokenRows)
    assert isinstance(data["systems"][0]["errors"]["cat"], IntColumn)
    plain = _plain(data)
    assert data == plain
    assert script_json(data) == script_json(plain)
    assert len(plain["systems"][0]["errors"]["cat"]) > 50


def _within_row_by_sorting(table, query):
    """The reference: every entity of table and query numbered by one sort of all five keys."""
    keys = ("row", "start", "end", "label", "frag")
    n = len(table["row"])
    rows = np.concatenate([np.stack([table[k] for k in keys], axis=1),
                           np.stack([query[k] for k in keys], axis=1)])
    if not len(rows):
        return np.zeros(0, dtype=np.int64)
    order = np.lexsort(rows.T[::-1])
    ranked = rows[order]
    distinct = np.ones(len(rows), dtype=bool)
    distinct[1:] = (ranked[1:] != ranked[:-1]).any(axis=1)
    same = np.empty(len(rows), dtype=np.int64)
    same[order] = np.cumsum(distinct) - 1
    at = np.full(int(same.max()) + 1, -1, dtype=np.int64)
    at[same[:n][::-1]] = np.arange(n)[::-1]
    first = np.searchsorted(table["row"], query["row"])
    return np.where(query["label"] >= 0, at[same[n:]] - first, -1)


@settings(max_examples=200, deadline=None)
@given(entities=st.lists(st.tuples(*(st.integers(0, 3) for _ in range(5))), max_size=40),
       queries=st.lists(st.tuples(*(st.integers(-1, 3) for _ in range(5))), max_size=40),
       picks=st.lists(st.integers(0, 39), max_size=20))
def test_finding_entities_within_their_rows_equals_sorting_them_all(entities, queries, picks):
    from nerscore.render.html_errors import _within_row

    # a table as pages hold them: sorted by row, start, end and fragment set (labels unsorted)
    rows = sorted(entities, key=lambda e: (e[0], e[1], e[2], e[4]))
    table = {k: np.array([e[i] for e in rows], dtype=np.int64)
             for i, k in enumerate(("row", "start", "end", "label", "frag"))}
    # queries: entities of the table (as error records name them), and others
    asked = [rows[k] for k in picks if k < len(rows)] + [q for q in queries if q[0] >= 0]
    query = {k: np.array([q[i] for q in asked], dtype=np.int64)
             for i, k in enumerate(("row", "start", "end", "label", "frag"))}
    assert _within_row(table, query).tolist() == _within_row_by_sorting(table, query).tolist()
