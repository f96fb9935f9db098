"""JSON text read with one located error: malformed, or nested too deeply."""

from __future__ import annotations

import pytest

from nerscore.errors import FormatError
from nerscore.io._json_text import parse_json

DEEP = "[" * 100_000 + "]" * 100_000


def test_a_value_is_read_as_json_reads_it():
    assert parse_json('{"a": [1, "x"]}', "f.json") == {"a": [1, "x"]}
    assert parse_json('[1, 2] and some prose', prefix=True) == [1, 2]


def test_malformed_json_names_the_line_of_the_file():
    text = '{\n"a": 1,\n"b": [1 2]\n}'
    with pytest.raises(FormatError, match=r"^f.json, line 13: malformed JSON \(Expecting ',' "
                                          r"delimiter at column 9\)\.$") as info:
        parse_json(text, "f.json", 11)
    assert (info.value.source, info.value.line) == ("f.json", 13)


def test_what_the_file_should_hold_is_said():
    with pytest.raises(FormatError, match=r"malformed JSON \(.*\); each line must hold one JSON "
                                          r"object\.$"):
        parse_json("{", "f.jsonl", 2, expect="each line must hold one JSON object")


def test_json_nested_too_deeply_names_the_line_where_it_is_deepest():
    text = '{\n"a": "[[[[",\n"b": ' + DEEP + "\n}"
    with pytest.raises(FormatError, match=r"^f.json, line 3: JSON nested too deeply to read "
                                          r"\(100001 nested arrays or objects, more than "
                                          r"Python's JSON reader can follow\)\.$") as info:
        parse_json(text, "f.json")
    assert info.value.line == 3


@pytest.mark.parametrize("prefix", [False, True])
def test_without_a_file_the_message_is_the_problem_alone(prefix):
    with pytest.raises(FormatError, match=r"^malformed JSON \(nested too deeply to read\)$"):
        parse_json(DEEP, prefix=prefix)
    with pytest.raises(FormatError, match=r"^malformed JSON \(Expecting value at line 2, "
                                          r"column 1\)$"):
        parse_json("[\n", prefix=prefix)
