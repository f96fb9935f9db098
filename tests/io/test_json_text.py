"""JSON text read with one located error (malformed, or nested too deeply), and written in any encoding."""

from __future__ import annotations

import importlib

import pytest

from nerscore.errors import FormatError
from nerscore.io._json_text import json_object_line, parse_json
from nerscore.values.documents import Document

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


@pytest.mark.parametrize(("text", "where", "message"), [
    ('{"a": "Ann', {"source": "f.json"},
     r"^f.json, line 1: malformed JSON \(Unterminated string starting at column 7\)\.$"),
    ('{"a": "A\tn"}', {"source": "f.json"},
     r"^f.json, line 1: malformed JSON \(Invalid control character at column 9\)\.$"),
    ('{"a": "Ann', {"source": "f.parquet", "where": "metadata 'm'"},
     r"metadata 'm': malformed JSON \(Unterminated string starting at line 1, column 7\)\.$"),
    ('{"a": "Ann', {}, r"^malformed JSON \(Unterminated string starting at line 1, column 7\)$"),
])
def test_a_problem_that_ends_in_at_is_followed_by_one_at(text, where, message):
    with pytest.raises(FormatError, match=message):
        parse_json(text, **where)


def test_what_the_file_should_hold_is_said():
    with pytest.raises(FormatError, match=r"malformed JSON \(.*\); each line must hold one JSON "
                                          r"object\.$"):
        parse_json("{", "f.jsonl", 2, expect="each line must hold one JSON object")


@pytest.mark.parametrize(("raw", "obj"), [
    ('{"id": "a"}', {"id": "a"}), ('{"id": "a"}\r', {"id": "a"}), ("", None), (" \t\r", None),
])
def test_a_json_lines_line_is_one_object_or_blank(raw, obj):
    assert json_object_line(raw, "f.jsonl", 2) == obj


@pytest.mark.parametrize(("expected", "message"), [
    ({}, "f.jsonl, line 4: expected a JSON object; got list."),
    ({"expected": "a JSON object with 'id'"},
     "f.jsonl, line 4: expected a JSON object with 'id'; got list."),
])
def test_a_json_lines_line_that_is_no_object_says_what_it_should_be(expected, message):
    with pytest.raises(FormatError) as info:
        json_object_line("[1, 2]", "f.jsonl", 4, **expected)
    assert (str(info.value), info.value.source, info.value.line) == (message, "f.jsonl", 4)
    with pytest.raises(FormatError, match=r"^f.jsonl, line 4: malformed JSON .*; each line must "
                                          r"hold one JSON object\.$"):
        json_object_line("{", "f.jsonl", 4, **expected)


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


@pytest.mark.parametrize(
    ("line", "field", "escape"),
    [
        (r'{"id": "a", "text": "\ud800 Anna"}', "'text'", r"\ud800"),
        (r'{"text": "x\uDC00"}', "'text'", r"\uDC00"),
        (r'{"text": "\ud83d\ude00 ok", "spans": [[0, 1, "P\ud83d"]]}', "'spans'[0][2]", r"\ud83d"),
        (r'{"text": "\ud83d\ud83d\ude00"}', "'text'", r"\ud83d"),
        (r'{"text": "\\\ud83d"}', "'text'", r"\ud83d"),
        (r'{"meta": {"\udfff": 1}}', "a key of 'meta'", r"\udfff"),
        (r'["\ud800"]', "[0]", r"\ud800"),
    ],
)
def test_half_a_surrogate_pair_is_located(line, field, escape):
    with pytest.raises(FormatError) as info:
        parse_json(line, "f.jsonl", 4)
    assert str(info.value) == (
        f"f.jsonl, line 4: {field} holds the escape {escape}, half of a UTF-16 surrogate pair "
        "without its other half; JSON text writes a character beyond U+FFFF as the character "
        r"itself or as a whole surrogate pair (\ud83d\ude00 for U+1F600).")
    assert info.value.line == 4


@pytest.mark.parametrize("line", [
    r'{"text": "\ud83d\ude00 \uD83D\uDE00"}',  # whole pairs, in either case
    r'{"text": "\\ud800 \\\\udc00"}',  # an escaped backslash, then the letters ud800
    r'{"text": "\ud7ff \ue000 \u00e9"}',  # either side of the surrogates
])
def test_whole_pairs_and_lookalikes_are_read(line):
    assert "\ud800" not in parse_json(line, "f.jsonl")["text"]


def test_half_a_surrogate_pair_is_found_on_its_line_of_a_whole_file():
    text = '[\n{"text": "\\ud83d\\ude00"},\n{"text": "ok",\n "label": "\\udc00"}\n]'
    with pytest.raises(FormatError, match=r"^f.json, line 4: \[1\]\['label'\] holds the escape "
                                          r"\\udc00, half"):
        parse_json(text, "f.json")


def test_without_a_file_half_a_surrogate_pair_is_kept():
    assert parse_json(r'["\ud800"]') == ["\ud800"]


@pytest.mark.parametrize("encoding", ["ascii", "latin-1", "cp1252"])
@pytest.mark.parametrize("fmt", ["jsonl", "label_studio", "doccano", "prodigy"])
def test_json_written_in_a_narrow_encoding_escapes_what_it_cannot_encode(tmp_path, fmt,
                                                                          encoding):
    module = importlib.import_module(f"nerscore.io.{fmt}")
    docs = [Document("a", [(0, 3, "PÉR"), (8, 14, "PER")], 'Zoë met Łukasz "\\é" 😀'),
            Document("b", [(0, 4, "LOC")], "Łódź")]
    path = tmp_path / "out.json"
    getattr(module, f"write_{fmt}")(docs, path, encoding=encoding)
    text = path.read_bytes().decode(encoding)
    assert "\\u0141ukasz" in text  # Ł and 😀: in no such encoding
    assert "\\ud83d\\ude00" in text
    assert ("\\u00eb" in text) == (encoding == "ascii")  # ë: escaped only where it must be
    back = getattr(module, f"read_{fmt}")(path, encoding=encoding)
    read = back if fmt == "jsonl" else (
        back.documents("unknown") if fmt == "label_studio" else back.documents)
    assert read == docs


@pytest.mark.parametrize("fmt", ["jsonl", "label_studio", "doccano", "prodigy"])
def test_json_written_as_utf8_holds_the_characters(tmp_path, fmt):
    module = importlib.import_module(f"nerscore.io.{fmt}")
    path = tmp_path / "out.json"
    getattr(module, f"write_{fmt}")([Document("a", [(0, 3, "PÉR")], "Zoë 😀")], path)
    text = path.read_text(encoding="utf-8")
    assert "Zoë 😀" in text
    assert "PÉR" in text
    assert "\\u" not in text
