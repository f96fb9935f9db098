"""Offsets of annotation tools: UTF-16 code units read as Python indices, decided per span."""

from __future__ import annotations

from collections import Counter

import pytest

import nerscore
from nerscore.errors import FormatError
from nerscore.io._tool_spans import ToolSpan, python_offsets, utf16_positions
from nerscore.io.jsonl import read_jsonl, write_jsonl
from nerscore.values.documents import Document

TEXT = "\U0001F600 Anna and \U0001F389 Bob"  # two characters beyond U+FFFF


def u16(i):
    return len(TEXT[:i].encode("utf-16-le")) // 2


def test_utf16_positions_skip_the_middle_of_surrogate_pairs():
    pos = utf16_positions(TEXT)
    assert pos is not None
    assert 1 not in pos
    assert all(TEXT[pos[u16(i)]] == TEXT[i] for i in range(len(TEXT)))
    assert utf16_positions("caf\u00e9") is None  # within the BMP both readings agree


@pytest.mark.parametrize("units", ["auto", "utf16"])
def test_each_span_with_text_is_read_the_way_its_text_says(units):
    anna, bob = TEXT.index("Anna"), TEXT.index("Bob")
    spans = [ToolSpan(u16(anna), u16(anna) + 4, "PER", "Anna"),
             ToolSpan(u16(bob), u16(bob) + 3, "PER", "Bob")]
    counts: Counter[str] = Counter()
    out = python_offsets(TEXT, spans, units=units, counts=counts)
    assert [TEXT[s.start:s.end] for s in out] == ["Anna", "Bob"]
    assert counts == {"utf16": 2}


def test_mixed_readings_in_one_document_are_each_resolved_in_auto_mode():
    anna, bob = TEXT.index("Anna"), TEXT.index("Bob")
    spans = [ToolSpan(anna, anna + 4, "PER", "Anna"),  # Python offsets
             ToolSpan(u16(bob), u16(bob) + 3, "PER", "Bob")]  # UTF-16 offsets
    out = python_offsets(TEXT, spans)
    assert [TEXT[s.start:s.end] for s in out] == ["Anna", "Bob"]


def test_spans_without_text_follow_the_spans_with_text_of_their_document():
    anna, bob = TEXT.index("Anna"), TEXT.index("Bob")
    spans = [ToolSpan(u16(anna), u16(anna) + 4, "PER", "Anna"),
             ToolSpan(u16(bob), u16(bob) + 3, "PER")]
    counts: Counter[str] = Counter()
    out = python_offsets(TEXT, spans, counts=counts)
    assert [TEXT[s.start:s.end] for s in out] == ["Anna", "Bob"]
    assert counts == {"utf16": 2, "utf16_guessed": 1}


def test_a_utf16_offset_inside_a_surrogate_pair_is_an_error():
    with pytest.raises(FormatError, match=r"span \(1, 3, 'X'\) falls inside a character beyond "
                                          "U\\+FFFF"):
        python_offsets(TEXT, [ToolSpan(1, 3, "X")], units="utf16")


@pytest.mark.parametrize(("span", "problem"), [
    (ToolSpan(3, 99, "X"), "ends beyond the text, which has 18 UTF-16 code units"),
    (ToolSpan(-1, 3, "X"), "has a negative start"),
    (ToolSpan(9, 3, "X"), "has start > end"),
])
def test_utf16_offsets_outside_the_text_are_named_as_such(span, problem):
    with pytest.raises(FormatError, match=rf"'X'\) {problem}; fix the offsets"):
        python_offsets(TEXT, [span], units="utf16")


@pytest.mark.parametrize(("text", "length"), [("a", "1 character"), ("ab", "2 characters")])
def test_a_span_beyond_the_text_names_its_length_in_characters(text, length):
    with pytest.raises(FormatError, match=rf"\(0, 5, 'X'\) ends beyond the text, which has {length};"):
        python_offsets(text, [ToolSpan(0, 5, "X")])


def test_without_text_offsets_are_only_checked_for_order():
    assert python_offsets(None, [ToolSpan(5, 9, "X")])[0].start == 5
    with pytest.raises(FormatError, match="has start > end"):
        python_offsets(None, [ToolSpan(9, 5, "X")])


def test_json_nested_too_deeply_is_a_format_error(tmp_path):
    from nerscore.io._tool_spans import json_lines, load_json

    deep = "[" * 100_000 + "]" * 100_000
    whole, lines = tmp_path / "export.json", tmp_path / "export.jsonl"
    whole.write_text('{\n"a": "[{",\n"b": ' + deep + "\n}\n")
    lines.write_text('{"a": 1}\n' + deep + "\n")
    with pytest.raises(FormatError, match=r"export.json, line 3: JSON nested too deeply to read "
                                          r"\(100001 nested arrays or objects, more than"):
        load_json(whole, "utf-8")
    with pytest.raises(FormatError, match=r"export.jsonl, line 2: JSON nested too deeply"):
        list(json_lines(lines, "utf-8"))


def test_a_json_lines_export_holds_one_object_a_line(tmp_path):
    from nerscore.io._tool_spans import json_lines

    path = tmp_path / "export.jsonl"
    path.write_text('{"a": 1}\r\n\n{"b": 2}\n[3]\n')
    lines = json_lines(path, "utf-8")
    assert [next(lines), next(lines)] == [(1, {"a": 1}), (3, {"b": 2})]
    with pytest.raises(FormatError, match=r"export.jsonl, line 4: expected a JSON object; got "
                                          r"list\.$"):
        next(lines)


def test_a_long_label_and_span_text_are_cut_in_the_message():
    text = "Anna " * 40
    span = ToolSpan(0, len(text), "L" * 500, "x" * len(text))
    with pytest.raises(FormatError) as info:
        python_offsets(text, [span], units="python", source="a.json")
    message = str(info.value)
    assert f"{'L' * 60!r}... (500 characters)" in message
    assert f"covers {'x' * 60!r}... (200 characters) but the text has " in message
    assert f"{text[:60]!r}... (200 characters) there" in message
    assert len(message) < 400


@pytest.mark.parametrize("fmt", ["doccano", "label-studio", "prodigy"])
def test_document_ids_survive_a_round_trip(tmp_path, fmt):
    ids = ["12", "007", "\u0663", "0", "d1"]
    src = tmp_path / "in.jsonl"
    write_jsonl([Document(i, [(0, 4, "PER")], "Anna") for i in ids], src)
    assert nerscore.convert_file(src, tmp_path / "tool", to_format=fmt).notes() == ()
    nerscore.convert_file(tmp_path / "tool", tmp_path / "back.jsonl", from_format=fmt)
    assert [d.id for d in read_jsonl(tmp_path / "back.jsonl")] == ids
