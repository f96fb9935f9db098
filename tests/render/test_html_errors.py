"""The error browser's token rows: JSON made from one array equals the JSON of the lists."""

from __future__ import annotations

import itertools
import json

import numpy as np
import pytest

from nerscore.render.html_errors import TokenRows, script_json


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
