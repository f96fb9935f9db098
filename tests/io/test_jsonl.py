"""JSON Lines span files (nerscore.io.jsonl)."""

from __future__ import annotations

import json

import pytest

import nerscore
from nerscore.errors import FormatError, InvalidSpanError, OptionError
from nerscore.io.jsonl import iter_jsonl, read_jsonl, write_jsonl
from nerscore.values.documents import Document


def streamed(path, **options):
    """The documents of ``path`` as :func:`iter_jsonl` reads them, in one list."""
    return [doc for chunk in iter_jsonl(path, **options) for doc in chunk]


def write(tmp_path, name, content, encoding="utf-8"):
    path = tmp_path / name
    path.write_bytes(content.encode(encoding) if isinstance(content, str) else content)
    return path


def spans(doc):
    return [(e.start, e.end, e.label) for e in doc.spans]


def test_read_spacy_and_prodigy_styles(tmp_path):
    path = write(tmp_path, "a.jsonl", "\n".join([
        json.dumps({"id": "d1", "text": "Anna flew to Berlin",
                    "spans": [{"start": 0, "end": 4, "label": "PER", "token_start": 0,
                               "token_end": 0}]}),
        json.dumps({"id": "d2", "text": "Paris", "entities": [[0, 5, "LOC"]]}),
        json.dumps({"id": 3, "text": "x", "spans": []}),
        "",
    ]))
    docs = read_jsonl(path)
    assert [d.id for d in docs] == ["d1", "d2", "3"]
    assert spans(docs[0]) == [(0, 4, "PER")]
    assert spans(docs[1]) == [(0, 5, "LOC")]
    assert docs[2].spans == ()
    assert docs[2].text == "x"
    assert (docs[1].source, docs[1].line) == (str(path), 2)


def test_crlf_bom_blank_lines_and_unicode_separators(tmp_path):
    text = "Zoë\u2028Berlin"
    line1 = json.dumps({"id": "a", "text": text, "spans": [[4, 10, "LOC"]]}, ensure_ascii=False)
    line2 = json.dumps({"id": "b", "spans": []})
    path = write(tmp_path, "a.jsonl", "\ufeff" + line1 + "\r\n\r\n  \r\n" + line2 + "\r\n")
    docs = read_jsonl(path)
    assert [d.id for d in docs] == ["a", "b"]
    assert docs[0].text == text
    assert docs[0].span_texts() == ["Berlin"]
    assert docs[1].line == 4


def test_records_without_ids_are_numbered(tmp_path):
    path = write(tmp_path, "a.jsonl", '{"spans": []}\n\n{"spans": [[0, 1, "X"]]}\n')
    assert [d.id for d in read_jsonl(path)] == ["1", "2"]


def test_some_ids_missing_is_an_error(tmp_path):
    path = write(tmp_path, "a.jsonl", '{"id": "a"}\n{"spans": []}\n')
    with pytest.raises(FormatError, match=r"a.jsonl, line 2: the record has no 'id' but others "
                                          "have") as info:
        read_jsonl(path)
    assert info.value.line == 2
    assert info.value.source == str(path)


def test_duplicate_ids_name_both_lines(tmp_path):
    path = write(tmp_path, "a.jsonl",
                 '{"id": "a", "spans": []}\n{"id": "b", "spans": []}\n\n{"id": "a"}\n')
    with pytest.raises(FormatError, match=r"line 4: document id 'a' was already used on line 1"):
        read_jsonl(path)


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ('{"id": "a", "spans": [}', r"line 2: malformed JSON \(Expecting value at column 23\)"),
        ("[1, 2]", r"line 2: expected a JSON object with 'id', 'text' and 'spans'; got list"),
        ('{"id": "a", "spans": {"start": 0}}', "line 2: expected 'spans' to be a list"),
        ('{"id": "a", "spans": [], "entities": []}', "line 2: the record has both 'spans' and "
                                                     "'entities'"),
        ('{"id": "a", "spans": [], "output": "LOC: Paris"}',
         r"line 2: the record has both 'spans' and 'output' \(a model output\); keep one of them: "
         r"'spans' to score the spans, 'output' to score the model output \(docs/llm.md\)\."),
        ('{"id": "a", "mentions": [], "entities": []}', "line 2: the record has both 'entities' "
                                                        "and 'mentions'"),
        ('{"id": [1], "spans": []}', r"line 2: expected 'id' to be a string or an integer; "
                                     r"got \[1\]"),
        ('{"id": "a", "text": 5}', "line 2: expected 'text' to be a string; got number"),
    ],
)
def test_malformed_records(tmp_path, line, message):
    path = write(tmp_path, "bad.jsonl", '{"id": "z", "spans": []}\n' + line + "\n")
    with pytest.raises(FormatError, match=message):
        read_jsonl(path)


@pytest.mark.parametrize(
    ("record", "message"),
    [
        ({"id": "a", "text": "Anna", "spans": [[0, 4, "PER"], [2, 9, "X"]]},
         r"bad.jsonl, line 1: Span 1 \(2, 9, 'X'\) of document 'a' ends beyond the text, which "
         "has 4 characters"),
        ({"id": "a", "spans": [{"start": 5, "end": 2, "label": "X"}]},
         r"line 1: Span 0 \(5, 2, 'X'\) of document 'a' has start > end"),
        ({"id": "a", "spans": [[-3, 2, "X"]]}, "line 1: .* has a negative start"),
        ({"id": "a", "spans": [[0, 2]]}, r"line 1: Item 0 \[0, 2\] of document 'a' is not a span"),
        ({"id": "a", "spans": [{"start": 0, "end": 1}]}, r"lacks the key\(s\) 'label'"),
        ({"id": "a", "spans": [["0", 1, "X"]]}, "needs integer offsets"),
    ],
)
def test_invalid_spans_name_file_line_document_and_span(tmp_path, record, message):
    path = write(tmp_path, "bad.jsonl", json.dumps(record) + "\n")
    with pytest.raises(InvalidSpanError, match=message) as info:
        read_jsonl(path)
    assert info.value.document == "a"


@pytest.mark.parametrize("read", [read_jsonl, streamed])
def test_encoding_errors_name_the_option(tmp_path, read):
    path = write(tmp_path, "latin.jsonl", '{"id": "z", "spans": []}\n{"id": "a", "text": "Zoë", "spans": []}\n',
                 encoding="latin-1")
    with pytest.raises(FormatError) as info:
        read(path)
    assert str(info.value) == (
        f"Cannot decode byte 0xeb as utf-8 ({path}, line 2): the file is in another encoding. "
        "Pass its encoding with the `encoding` option (--encoding on the command line), e.g. "
        "encoding='latin-1' or encoding='cp1252'.")
    assert (info.value.source, info.value.line) == (str(path), 2)
    assert read(path, encoding="latin-1")[1].text == "Zoë"


@pytest.mark.parametrize("read", [read_jsonl, streamed])
def test_utf16_without_byte_order_mark_names_the_file(tmp_path, read):
    path = write(tmp_path, "le.jsonl", '{"id": "a", "text": "Anna", "spans": [[0, 4, "PER"]]}\n',
                 encoding="utf-16-le")
    with pytest.raises(FormatError) as info:
        read(path, encoding="utf-16")
    assert str(info.value) == (
        f"Cannot decode the file as utf-16 ({path}, line 1): UTF-16 stream does not start with "
        "BOM. Pass its encoding with the `encoding` option (--encoding on the command line), "
        "e.g. encoding='utf-16-le' or encoding='utf-16-be' for UTF-16 without a byte order mark.")
    assert read(path, encoding="utf-16-le")[0].spans[0].label == "PER"


@pytest.mark.parametrize("block_size", [1, 3, 1 << 20])
def test_streamed_decoding_errors_name_the_line_in_any_block(tmp_path, block_size):
    path = write(tmp_path, "latin.jsonl", b'{"spans": []}\n' * 3 + b'{"text": "Zo\xeb", "spans": []}\n')
    with pytest.raises(FormatError, match=r"Cannot decode byte 0xeb as utf-8 \(.*, line 4\)"):
        list(iter_jsonl(path, block_size=block_size))


@pytest.mark.parametrize("encoding", ["idna", "klingon"])
def test_streaming_refuses_encodings_no_file_is_written_in(tmp_path, encoding):
    path = write(tmp_path, "gold.jsonl", '{"spans": []}\n')
    with pytest.raises(OptionError, match=f"got {encoding!r}"):
        list(iter_jsonl(path, encoding=encoding))


def test_write_read_round_trip(tmp_path):
    docs = [Document("a", [(0, 4, "PER"), (5, 5, "BLANK")], "Anna: é\u2028"),
            Document("b", [(3, 9, "X")])]
    path = tmp_path / "out.jsonl"
    write_jsonl(docs, path)
    assert read_jsonl(path) == docs
    assert "é" in path.read_text(encoding="utf-8")


def test_gold_and_prediction_files_join_by_id(tmp_path):
    gold = write(tmp_path, "gold.jsonl", "\n".join(json.dumps(r) for r in [
        {"id": "a", "text": "Anna flew to Berlin", "spans": [[0, 4, "PER"], [13, 19, "LOC"]]},
        {"id": "b", "text": "Paris", "spans": [[0, 5, "LOC"]]},
        {"id": "c", "text": "Rome", "spans": [[0, 4, "LOC"]]},
    ]))
    pred = write(tmp_path, "pred.jsonl", "\n".join(json.dumps(r) for r in [
        {"id": "b", "spans": [[0, 5, "LOC"]]},
        {"id": "a", "spans": [[0, 4, "PER"], [13, 18, "LOC"]]},
        {"id": "z", "spans": [[0, 1, "PER"]]},
    ]))
    r = nerscore.evaluate(read_jsonl(gold), read_jsonl(pred), zero_division=0.0)
    assert (r.micro.tp, r.micro.n_pred, r.micro.n_gold) == (2, 4, 4)
    assert r.doc_ids == ["a", "b", "c", "z"]
    assert r.notes == (
        "1 gold document(s) have no prediction and count as predicting no entities: 'c'.",
        "1 predicted document(s) are not in the gold data; their 1 span(s) count as false "
        "positives: 'z'.",
    )


def test_prediction_spans_are_checked_against_the_gold_text(tmp_path):
    gold = write(tmp_path, "gold.jsonl", json.dumps({"id": "a", "text": "Anna", "spans": []}))
    pred = write(tmp_path, "pred.jsonl", json.dumps({"id": "a", "spans": [[0, 7, "PER"]]}))
    with pytest.raises(InvalidSpanError, match="of document 'a' of y_pred ends beyond the text"):
        nerscore.evaluate(read_jsonl(gold), read_jsonl(pred))


def test_a_record_without_spans_is_a_located_error(tmp_path):
    path = write(tmp_path, "cut.jsonl",
                 '{"id": "a", "text": "Anna", "spans": []}\n{"id": "b", "text": "Bo"}\n')
    with pytest.raises(FormatError, match=r"cut.jsonl, line 2: the record has no 'spans' \(or "
                                          r"'entities'\); write \"spans\": \[\] for a document "
                                          "without entities") as info:
        read_jsonl(path)
    assert (info.value.source, info.value.line) == (str(path), 2)
    path = write(tmp_path, "null.jsonl", '{"id": "a", "entities": null}\n')
    with pytest.raises(FormatError, match="line 1: expected 'entities' to be a list of spans; "
                                          "got null"):
        read_jsonl(path)
    # an explicit empty list stays a document without entities
    path = write(tmp_path, "empty.jsonl", '{"id": "a", "spans": []}\n{"id": "b", "entities": []}\n')
    assert [d.spans for d in read_jsonl(path)] == [(), ()]


def test_a_line_nested_too_deeply_is_located(tmp_path):
    path = tmp_path / "deep.jsonl"
    path.write_text('{"id": "a", "text": "x", "spans": []}\n'
                    + '{"id": "b", "spans": ' + "[" * 100_000 + "]" * 100_000 + "}\n")
    with pytest.raises(FormatError, match=r"deep.jsonl, line 2: JSON nested too deeply to read"):
        read_jsonl(path)


@pytest.mark.parametrize("read", [read_jsonl, lambda path: list(iter_jsonl(path))])
def test_half_a_surrogate_pair_in_a_text_is_located(tmp_path, read):
    path = write(tmp_path, "pred.jsonl", '{"id": "a", "text": "x", "spans": []}\n'
                 '{"id": "b", "text": "\\ud800 Anna", "spans": [[2, 6, "PER"]]}\n')
    with pytest.raises(FormatError, match=r"pred.jsonl, line 2: 'text' holds the escape \\ud800, "
                                          r"half of a UTF-16 surrogate pair without its other half; "
                                          r"JSON text writes a character beyond U\+FFFF"):
        read(path)


# ------------------------------------------------------- the chunked reader's errors are read_jsonl's


def test_streamed_mixed_ids_name_the_first_record_without_one(tmp_path):
    """A file numbered from its first record, with an id later: read whole, record 1 is named."""
    path = write(tmp_path, "a.jsonl", '\n{"spans": []}\n{"spans": []}\n{"id": "x", "spans": []}\n')
    for read in (read_jsonl, lambda path: streamed(path, chunk_size=1)):
        with pytest.raises(FormatError, match=r"a.jsonl, line 2: the record has no 'id'") as info:
            read(path)
        assert info.value.line == 2


#: Damage to one line of a JSON Lines file: each a reader's error of one of read_jsonl's stages.
DAMAGE = {
    "a byte of another encoding": lambda line: line.replace(b"Anna", b"Ann\xe9"),
    "malformed JSON": lambda line: line[:-3],
    "a list": lambda line: b"[1, 2]",
    "half a surrogate pair": lambda line: line.replace(b"Anna", b"\\ud800nna"),
    "nested too deeply": lambda line: b'{"x": ' + b"[" * 3000 + b"]" * 3000 + b"}",
    "an id of the wrong type": lambda line: b'{"id": 1.5, "spans": []}',
    "no id": lambda line: b'{"spans": []}',
    "an id": lambda line: b'{"id": "new", "spans": []}',
    "a duplicate id": lambda line: b'{"id": "d0", "spans": []}',
    "a span beyond its text": lambda line: b'{"id": "new", "text": "Ann", "spans": [[0, 9, "X"]]}',
    "no spans": lambda line: b'{"id": "new", "text": "x"}',
    "a text that is a number": lambda line: b'{"id": "new", "text": 5, "spans": []}',
}


def _outcome(read, path, **options):
    try:
        read(path, **options)
    except (FormatError, InvalidSpanError) as exc:
        return type(exc), str(exc), vars(exc)
    return None


@pytest.mark.parametrize("seed", range(4))
def test_streamed_errors_are_read_jsonls_for_damage_anywhere(tmp_path, seed):
    """Damage of any kinds at random lines, CRLF, a BOM, blank lines, a character cut at the end.

    Read whole, the file is decoded before its lines are read, every line is read as JSON before
    any id is looked at, and the ids are checked together before the documents: the chunked
    reader reads on after a failing line to raise the same error, at any chunk and block size.
    """
    import random

    rng = random.Random(seed)
    path = tmp_path / "f.jsonl"
    for _ in range(60):
        ids = rng.random() < 0.7
        lines = [json.dumps({**({"id": f"d{k}"} if ids else {}), "text": f"Anna {k}",
                             "spans": [[0, 4, "PER"]]}).encode() for k in range(30)]
        for _ in range(rng.randint(1, 3)):
            at = rng.randrange(len(lines))
            lines[at] = DAMAGE[rng.choice(list(DAMAGE))](lines[at])
        if rng.random() < 0.3:
            lines = [b"\xef\xbb\xbf" + lines[0], *(b"  " if k % 7 == 0 else line
                                                   for k, line in enumerate(lines[1:], 1))]
        end = b"\r\n" if rng.random() < 0.3 else b"\n"
        path.write_bytes(end.join(lines) + end + (b"\xc3" if rng.random() < 0.1 else b""))
        whole = _outcome(read_jsonl, path)
        for chunk_size, block_size in ((1, 1), (3, 7), (7, 64), (10_000, 1 << 20)):
            assert _outcome(streamed, path, chunk_size=chunk_size, block_size=block_size) == whole


@pytest.mark.parametrize("encoding", ["utf-16", "utf-32", "cp1252", "utf-8-sig"])
def test_streamed_errors_are_read_jsonls_in_other_encodings(tmp_path, encoding):
    """A line that cannot be read early, a byte that cannot be decoded late: the byte."""
    lines = [json.dumps({"id": f"d{k}", "text": "Zoë", "spans": []}, ensure_ascii=False)
             for k in range(20)]
    lines[2] = lines[2][:-2]
    data = "\n".join(lines).encode(encoding)
    bad = {"utf-16": b"\x00\xdc", "utf-32": b"\x00\x00\x11\x00", "cp1252": b"\x81",
           "utf-8-sig": b"\xff"}[encoding]
    at = len(data) - 8 * len(bad)
    path = write(tmp_path, "f.jsonl", data[:at] + bad + data[at:])
    whole = _outcome(read_jsonl, path, encoding=encoding)
    assert whole is not None
    assert "Cannot decode" in whole[1]
    for block_size in (1, 5, 64, 1 << 20):
        assert _outcome(streamed, path, encoding=encoding, block_size=block_size) == whole


@pytest.mark.parametrize(("documents", "message"), [
    ([[(0, 1, "A")]], r"Document objects; item 0 is list \[\(0, 1, 'A'\)\]\. Make one with"),
    ({"a": [(0, 1, "A")]}, r"item 0 is str 'a'"),
    (None, r"an iterable of Document objects; got NoneType"),
])
def test_write_jsonl_names_what_is_not_a_document(tmp_path, documents, message):
    """Spans instead of documents: an input error, and no file."""
    from nerscore.errors import InputTypeError

    with pytest.raises(InputTypeError, match=message):
        write_jsonl(documents, tmp_path / "out.jsonl")
    assert list(tmp_path.iterdir()) == []
