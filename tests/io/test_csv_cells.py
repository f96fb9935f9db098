"""CSV cells: quoted where a comma, a quote, CR or LF would end them; read back as written."""

from __future__ import annotations

import csv
import io
import sys

import pytest
from hypothesis import given, settings, strategies as st

from nerscore.io.csv_cells import cell, rows_text, string_cells

VALUE = st.one_of(st.none(), st.integers(), st.text(st.sampled_from(',"\r\n\x00a é'), max_size=6))


@pytest.mark.parametrize(("value", "expected"), [
    (None, ""), ("", ""), ("plain", "plain"), (12, "12"), (0.25, "0.25"),
    ("a,b", '"a,b"'), ('5" tall', '"5"" tall"'), ("cr\ronly", '"cr\ronly"'),
    ("two\nlines", '"two\nlines"'), ("crlf\r\n", '"crlf\r\n"'), ("nul\x00", "nul\x00"),
    (" padded ", " padded "), ("tab\there", "tab\there"),
])
def test_a_cell_is_quoted_only_where_a_reader_would_cut_it(value, expected):
    assert cell(value) == expected
    assert string_cells([value if not isinstance(value, (int, float)) else str(value)]) == [
        expected]


def test_string_cells_finds_each_cell_that_needs_quotes():
    values = ["", None, "a,", "", ",b", "c", None, '"', "d\r"]
    assert string_cells(values) == [cell(v) for v in values]
    assert string_cells([]) == []


@settings(max_examples=200, deadline=None)
@given(st.lists(st.lists(VALUE, min_size=2, max_size=4), min_size=1, max_size=5))
def test_rows_read_back_as_written(rows):
    text = rows_text(rows)
    assert text.count("\n") >= len(rows)
    for row in rows:
        strings = [v for v in row if not isinstance(v, int)]
        assert string_cells(strings) == [cell(v) for v in strings]
    if sys.version_info < (3, 11) and "\x00" in text:  # 3.10's reader refuses NUL
        return
    back = list(csv.reader(io.StringIO(text, newline="")))
    assert back == [["" if v is None else str(v) for v in row] for row in rows]
