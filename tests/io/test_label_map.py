"""The ``--map-file`` label map: one JSON object of labels to new labels."""

from __future__ import annotations

import pytest

from nerscore.errors import FormatError
from nerscore.io.label_map import read_label_map
from tests.paths import DATA


def test_read_label_map(tmp_path):
    assert read_label_map(DATA / "label_ops" / "map.json") == {"GPE": "LOC", "FAC": "LOC"}
    bad = tmp_path / "bad.json"
    bad.write_text('{"GPE": ')
    with pytest.raises(FormatError, match=r"bad\.json, line 1: malformed JSON"):
        read_label_map(bad)
    bad.write_text('["GPE", "LOC"]')
    with pytest.raises(FormatError, match="expected one JSON object of labels"):
        read_label_map(bad)
    bad.write_text('{"GPE": "LOC", "FAC": null}')
    with pytest.raises(FormatError, match=r'bad\.json: "FAC" maps to null; expected a new label'):
        read_label_map(bad)


def test_a_label_map_nested_too_deeply_is_located(tmp_path):
    deep = tmp_path / "map.json"
    deep.write_text('{"PER": "LOC",\n "ORG": ' + "[" * 100_000 + "]" * 100_000 + "}")
    with pytest.raises(FormatError, match=r"map\.json, line 2: JSON nested too deeply to read "
                                          r"\(100001 nested arrays or objects"):
        read_label_map(deep)


def test_malformed_json_names_the_line_and_column(tmp_path):
    bad = tmp_path / "map.json"
    bad.write_text('{"PER": "LOC",\n "ORG" "X"}')
    with pytest.raises(FormatError) as info:
        read_label_map(bad)
    assert str(info.value) == (f"{bad}, line 2: malformed JSON (Expecting ':' delimiter at "
                               'column 8); a label map is one object such as {"GPE": "LOC"}.')
    assert info.value.line == 2
