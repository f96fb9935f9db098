"""The JSON Lines writer of ErrorTable: framing and short tables folded into few pieces."""

from __future__ import annotations

import json

import numpy as np
from hypothesis import given, settings, strategies as st

from nerscore.analysis.error_table import ErrorCategory, ErrorRecord, ErrorTable, _int_strs

ENCODE = json.JSONEncoder(ensure_ascii=False).encode
CATS = list(ErrorCategory)


def _lines(records: list[ErrorRecord]) -> str:
    return "".join(ENCODE(r.to_dict()) + "\n" for r in records)


@settings(max_examples=150, deadline=None)
@given(st.integers(1, 200), st.integers(1, 12), st.sampled_from([3, 40, 400, 70_000, 10**9]),
       st.sampled_from([0, 2**16 - 5, 10**6]), st.booleans(), st.integers(0, 2**32 - 1))
def test_lines_equal_one_encoder_per_record(n, n_labels, width, base, texts, seed):
    """Short and long tables, merged or not, cached and uncached offsets: the same lines."""
    rng = np.random.default_rng(seed)
    labels = [f"L{k}" for k in range(n_labels)]
    records = []
    for k in range(n):
        cat = CATS[int(rng.integers(0, 5))]
        gold = cat is not ErrorCategory.SPURIOUS
        pred = cat is not ErrorCategory.MISSED
        gs, ps = (base + int(rng.integers(0, width)) for _ in range(2))
        records.append(ErrorRecord(
            cat, base + k * int(rng.integers(1, 3)), None,
            gs if gold else None, gs + 1 + int(rng.integers(0, 3)) if gold else None,
            labels[int(rng.integers(0, n_labels))] if gold else None,
            ps if pred else None, ps + 1 if pred else None,
            labels[int(rng.integers(0, n_labels))] if pred else None,
            f'g"{k}' if gold and texts else None, f"p\\ü{k}" if pred and texts else None))
    table = ErrorTable.from_records(records)
    assert table.to_string("jsonl") == _lines(records)


def test_all_absent_and_one_record():
    rec = ErrorRecord(ErrorCategory.UNALIGNED, 3, "d", None, None, None, None, None, "X",
                      None, "Bo")
    assert ErrorTable.from_records([rec]).to_string("jsonl") == _lines([rec])


def test_int_strs_cached_and_not():
    assert _int_strs(5, 8) == [b"5", b"6", b"7", b"8"]
    assert _int_strs(2**16 - 1, 2**16 + 1) == [b"65535", b"65536", b"65537"]
    assert _int_strs(-2, 0) == [b"-2", b"-1", b"0"]


@settings(max_examples=30, deadline=None)
@given(st.integers(1, 60), st.integers(1, 40))
def test_lines_joined_a_slice_at_a_time(n, joined):
    """The pieces of the lines are joined a few at a time: every piece, once, in order."""
    import nerscore.analysis.error_table as module

    records = [ErrorRecord(CATS[k % 5], k, None, k, k + 2, "A", k + 1, k + 3, "B",
                           f"ü{k}", f'"{k}') for k in range(n)]
    table = ErrorTable.from_records(records)
    saved = module._JOINED
    module._JOINED = joined
    try:
        assert table.to_string("jsonl") == _lines(records)
    finally:
        module._JOINED = saved
