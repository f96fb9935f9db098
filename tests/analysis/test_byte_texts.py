"""A file's covered texts as bytes: the same texts, and the same JSON, as the strings give."""

from __future__ import annotations

import csv
import io
import itertools
import json
import sys

import numpy as np
from hypothesis import given, settings, strategies as st

from nerscore import evaluate
from nerscore.analysis.byte_texts import ByteTexts
from nerscore.analysis.errors import FIELDS, ErrorTable, error_table, errors_from_report
from nerscore.io._conll_text import FieldView
from nerscore.io.conll import read_conll
from nerscore.values.tags import Slices

ENCODE = json.JSONEncoder(ensure_ascii=False).encode
#: What JSON escapes (quote, backslash, every control character), and what it leaves alone.
AWKWARD = ['"', "\\", 'a"b', "c\\d", "\x00", "\x01", "x\x1fy", "\t", "\r", "\x0b", "\x7f", "ü",
           "😀", "e\u2028f", "\u00a0", "日本", "\\u0041", "/", "'", "null", "Ann", ""]
TOKEN = st.one_of(st.sampled_from(AWKWARD), st.text(st.characters(blacklist_characters="\n",
                                                                   blacklist_categories=("Cs",)),
                                                    max_size=4))


def _view(tokens: list[str]) -> FieldView:
    """The tokens one a line, as a CoNLL file's token column."""
    raw = [t.encode("utf-8") for t in tokens]
    ends = np.cumsum([len(r) + 1 for r in raw], dtype=np.int64) - 1
    return FieldView(b"\n".join(raw) + b"\n", ends - [len(r) for r in raw], ends)


@settings(max_examples=200, deadline=None)
@given(st.lists(TOKEN, min_size=1, max_size=12), st.data())
def test_lines_and_json_equal_the_strings(tokens: list[str], data: st.DataObject) -> None:
    """Each text is its tokens joined by spaces; its JSON is ``json``'s, quotes and all."""
    n = len(tokens)
    ranges = data.draw(st.lists(st.tuples(st.integers(-1, n), st.integers(0, n)), max_size=15))
    first = np.array([a for a, _ in ranges], dtype=np.int64)
    stop = np.array([max(a, b) for a, b in ranges], dtype=np.int64)
    present = first >= 0
    view = _view(tokens)
    out, at = view.joined_lines(np.where(present, first, 0), np.where(present, stop, 0))
    texts = ByteTexts(out, at, present)
    expected = [" ".join(tokens[a:b]) if a >= 0 else None for a, b in zip(first, stop, strict=True)]
    assert view.join_ranges(first[present], stop[present]) == [t for t in expected if t is not None]
    assert texts.tolist() == list(texts) == expected
    assert [texts[k] for k in range(len(expected))] == expected
    assert texts[1:] == expected[1:]
    assert texts[::2] == expected[::2]
    assert texts[::-1] == expected[::-1]
    assert texts[-2::-3] == expected[-2::-3]
    assert texts.count(None) == expected.count(None)
    quoted = [b"null" if t is None else b'"' + j + b'"' for t, j in zip(expected, texts.json_bytes(),
                                                                      strict=True)]
    assert quoted == [ENCODE(t).encode("utf-8") for t in expected]


def _table(tokens: list[str], tags: list[list[str]]) -> tuple[ErrorTable, list[list[str]]]:
    """The errors of each tag sequence against all O-but-one, texts cut from a token column."""
    lengths = [len(t) for t in tags]
    offsets = np.cumsum([0, *lengths], dtype=np.int64)
    view = _view(tokens)
    sentences = [tokens[a:b] for a, b in itertools.pairwise(offsets.tolist())]
    pred = [["B-X" if k == 1 else "O" for k in range(len(t))] for t in tags]
    report = evaluate(tags, pred, zero_division=0)
    return error_table(report, texts=Slices(view, offsets)), sentences


@settings(max_examples=100, deadline=None)
@given(st.lists(st.lists(st.tuples(TOKEN, st.sampled_from(["B-A", "I-A", "B-X", "O"])),
                         min_size=1, max_size=8), min_size=1, max_size=8))
def test_writers_equal_one_record_at_a_time(sentences: list[list[tuple[str, str]]]) -> None:
    """JSON Lines and CSV of a file's texts equal those of the records, written one by one."""
    tokens = [t for s in sentences for t, _ in s]
    table, by_sentence = _table(tokens, [[lab for _, lab in s] for s in sentences])
    assert isinstance(table.gold_text, ByteTexts)
    records = list(table)
    assert records == errors_from_report(
        evaluate([[lab for _, lab in s] for s in sentences],
                 [["B-X" if k == 1 else "O" for k in range(len(s))] for s in sentences],
                 zero_division=0), texts=by_sentence)
    assert table.to_string("jsonl") == "".join(ENCODE(r.to_dict()) + "\n" for r in records)
    raw = io.BytesIO()
    table.write_to(raw, "jsonl", block=3)
    assert raw.getvalue() == table.to_string("jsonl").encode("utf-8")
    rows = [[None if k in ("gold_fragments", "pred_fragments") else v
             for k, v in r.to_dict().items()] for r in records]
    text = table.to_string("csv")
    assert text == "".join(",".join(map(_csv_cell, row)) + "\n" for row in [list(FIELDS), *rows])
    if sys.version_info >= (3, 11) or "\x00" not in text:  # 3.10's reader refuses NUL
        cells = [["" if v is None else str(v) for v in row] for row in rows]
        assert list(csv.reader(io.StringIO(text, newline="")))[1:] == cells


def _csv_cell(value: object) -> str:
    """A CSV cell as RFC 4180 quotes it: empty for None, quoted where it holds , " CR or LF."""
    cell = "" if value is None else str(value)
    return '"' + cell.replace('"', '""') + '"' if any(c in cell for c in ',"\r\n') else cell


def test_a_file_read_by_the_reader(tmp_path) -> None:
    """Quotes, backslashes, control characters and emoji of a CoNLL file, CRLF predictions."""
    words = ['"Bo"', "m\\x", "a\x01b", "ü😀", "x\x02y", "end"]
    gold = tmp_path / "g.conll"
    pred = tmp_path / "p.conll"
    gold.write_bytes("".join(f"{w}\t{t}\n" for w, t in zip(
        words, ["B-A", "I-A", "I-A", "O", "B-B", "I-B"], strict=True)).encode("utf-8"))
    pred.write_bytes("".join(f"{w} {t}\r\n" for w, t in zip(
        words, ["B-A", "B-A", "I-A", "B-B", "B-B", "O"], strict=True)).encode("utf-8"))
    g, p = read_conll(gold), read_conll(pred)
    report = evaluate(g.tags, p.tags, zero_division=0)
    table = error_table(report, texts=g.tags.sentence_tokens())
    assert isinstance(table.pred_text, ByteTexts)
    records = list(table)
    assert [(r.gold_text, r.pred_text) for r in records] == [
        (None, '"Bo"'), ('"Bo" m\\x a\x01b', "m\\x a\x01b"), (None, "ü😀"),
        ("x\x02y end", "x\x02y")]
    assert table.to_string("jsonl") == "".join(ENCODE(r.to_dict()) + "\n" for r in records)
