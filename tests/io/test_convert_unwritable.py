"""``convert_file``: what the output format cannot hold, refused up front or located, nothing written."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import nerscore
from nerscore.errors import FormatError, OptionError
from nerscore.io.formats import Format, ReadResult


def write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


def parquet_tags(path: Path, tokens: list[list[str]], labels: list[list[str]]) -> Path:
    pytest.importorskip("pyarrow")
    from nerscore.io.parquet import write_parquet_tags

    write_parquet_tags(path, labels, tokens=tokens)
    return path


def listing(folder: Path) -> list[str]:
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*"))


@pytest.mark.parametrize(("src", "dst", "kwargs", "option", "message"), [
    ("a.conll", "b.conll", {"to_outside": "A B"}, "to_outside",
     "The outside tag 'A B' of the output (to_outside) holds ' ', which no label of a conll file "
     "can hold: give the output one without it, e.g. to_outside='O', or convert to another "
     "format (Parquet)."),
    ("a.conll", "b.conll", {"to_delimiter": " "}, "to_delimiter",
     "The tag delimiter ' ' of the output (to_delimiter) holds ' ', "),
    ("a.conll", "b.conll", {"from_scheme": "IOB2", "delimiter": "\t"}, "delimiter",
     "The tag delimiter '\\t' of the input, and of the output (delimiter), holds '\\t', which "
     "no label of a conll file can hold: give the output one without it, e.g. "
     "to_delimiter='-', "),
    ("a.conll", "b.conll", {"from_scheme": "IOB2", "outside": "A\x01B", "to_outside": "O",
                            "to_delimiter": "\x0b"}, "to_delimiter", "holds '\\x0b', "),
    ("a.jsonl", "b.conll", {"outside": "NO NE"}, "outside",
     "The outside tag 'NO NE' of the output (outside) holds ' ', "),
    ("a.conll", "b.conll", {"from_scheme": "IOB2", "labels_map": {"PER": "A B"}}, "labels_map",
     "The label 'A B' that the label map (labels_map) renames 'PER' to holds ' ', which no label "
     "of a conll file can hold: map it to a label without it, or convert to another format "
     "(Parquet)."),
    ("a.jsonl", "b/", {"labels_map": {"PER": "A\tB"}}, "labels_map",
     "which no label of a brat file can hold: map it to a label without it, or convert to "
     "another format (JSON Lines, Parquet)."),
    ("a.conll", "b.conll", {"to_outside": "Ö", "encoding": "ascii"}, "to_outside",
     "The outside tag 'Ö' of the output (to_outside) holds 'Ö', which ascii cannot encode: give "
     "the output one without it, e.g. to_outside='O', or write the output in another encoding, "
     "e.g. encoding='utf-8'."),
    ("a.jsonl", "b/", {"labels_map": {"PER": "PÉR"}, "encoding": "ascii"}, "labels_map",
     "holds 'É', which ascii cannot encode"),
    ("a.conll", "b.conll", {"from_scheme": "IOB2", "delimiter": ""}, "delimiter",
     "Expected `delimiter` to be a non-empty str; got ''."),
])
def test_an_option_the_output_cannot_hold_is_refused_before_anything_is_written(
        tmp_path, src, dst, kwargs, option, message):
    write(tmp_path / "a.conll", "Anna B-PER\nleft O\n")
    write(tmp_path / "a.jsonl", '{"id": "d", "text": "Anna left", "spans": [[0, 4, "PER"]]}\n')
    before = listing(tmp_path)
    with pytest.raises(OptionError) as info:
        nerscore.convert_file(tmp_path / src, f"{tmp_path}/{dst}", **kwargs)
    assert info.value.option == option
    assert message in str(info.value)
    assert listing(tmp_path) == before


@pytest.mark.parametrize(("dst", "kwargs"), [
    ("b.parquet", {"to_outside": "A B", "to_delimiter": " "}),  # Parquet holds any tag
    ("b.jsonl", {"labels_map": {"PER": "A B"}}),
    ("b.jsonl", {"labels_map": {"PER": "PÉR"}, "encoding": "ascii"}),  # JSON escapes any character
])
def test_an_option_the_output_can_hold_is_taken(tmp_path, dst, kwargs):
    if dst.endswith(".parquet"):
        pytest.importorskip("pyarrow")
    write(tmp_path / "a.conll", "Anna B-PER\nleft O\n")
    nerscore.convert_file(tmp_path / "a.conll", tmp_path / dst, from_scheme="IOB2", **kwargs)
    assert (tmp_path / dst).exists()


@pytest.mark.parametrize(("tokens", "labels", "message"), [
    ([["a"], ["New York", "b"]], [["O"], ["B-LOC", "O"]],
     "Cannot write the token 'New York' at token 0 of sentence 1 ({src}) to a CoNLL line: its "
     "fields, separated by spaces, must be non-empty and free of white space and control "
     "characters. Fix the input, or convert to another format (Parquet, JSON Lines)."),
    ([["a"], ["b", ""]], [["O"], ["O", "O"]], "Cannot write the token '' at token 1 of "
                                             "sentence 1 ({src}) to a CoNLL line"),
    ([["a"], ["b", "c"]], [["O"], ["O", "B-NEW YORK"]],
     "Cannot write the label 'B-NEW YORK' at token 1 of sentence 1 ({src}) to a CoNLL line: its "
     "fields, separated by spaces, must be non-empty and free of white space and control "
     "characters. Fix the input or rename the label (labels_map), or convert to another format "
     "(Parquet, JSON Lines)."),
    ([["a"], ["b", "c"]], [["O"], ["O", "B-X\x01"]], "Cannot write the label 'B-X\\x01' at "
                                                     "token 1 of sentence 1 ({src})"),
])
@pytest.mark.parametrize("chunk_size", [1, 10])
def test_the_conll_writer_names_the_sentence_and_token_of_the_file(tmp_path, tokens, labels,
                                                                   message, chunk_size):
    src = parquet_tags(tmp_path / "a.parquet", tokens, labels)
    out = write(tmp_path / "b.conll", "old\n")
    before = listing(tmp_path)
    with pytest.raises(FormatError) as info:
        nerscore.convert_file(src, out, chunk_size=chunk_size)
    assert str(info.value).startswith(message.format(src=src))
    assert info.value.source == str(src)
    assert out.read_text(encoding="utf-8") == "old\n"
    assert listing(tmp_path) == before


def test_spans_written_as_conll_name_the_document_and_line(tmp_path):
    src = write(tmp_path / "a.jsonl",
                '{"id": "d0", "text": "Anna", "spans": []}\n'
                '{"id": "d1", "text": "in New York", "spans": [[3, 11, "NEW CITY"]]}\n')
    with pytest.raises(FormatError, match=re.escape(
            f"Cannot write the label 'B-NEW CITY' at token 1 of document 'd1' ({src}, line 2) to "
            "a CoNLL line")):
        nerscore.convert_file(src, tmp_path / "b.conll", chunk_size=1)
    assert listing(tmp_path) == ["a.jsonl"]


def test_a_conll_copy_names_the_line_of_a_label_it_cannot_write(tmp_path):
    src = write(tmp_path / "a.conll", "a\tO\n\nb\tO\nc\tB-X\x0bY\n")  # tabs: \v is in the label
    with pytest.raises(FormatError, match=re.escape(
            f"Cannot write the label 'B-X\\x0bY' at token 1 of sentence 1 ({src}, line 4) to a "
            "CoNLL line: its fields, separated by tabs, must be non-empty and free of tabs and "
            "line breaks.")):
        nerscore.convert_file(src, tmp_path / "b.conll", to_outside="NONE", chunk_size=1,
                              conll_options={"column_delimiter": "tab"})
    assert listing(tmp_path) == ["a.conll"]


def test_a_tab_separated_file_keeps_labels_with_spaces(tmp_path):
    src = write(tmp_path / "a.conll", "New York\tB-BIG CITY\nis\tO\n")
    nerscore.convert_file(src, tmp_path / "b.conll")
    assert (tmp_path / "b.conll").read_text(encoding="utf-8") == src.read_text(encoding="utf-8")


@pytest.mark.parametrize(("dst", "message"), [
    ("b.conll", "Cannot write the token 'Zoë' at token 0 of sentence 1 ({src}) in ascii: it has "
                "no 'ë'. Write the output in an encoding that has it, e.g. encoding='utf-8'."),
    ("b/", "{src}: document '2': its text holds 'ë' (character 2), which ascii cannot "
           "encode. Write the output in an encoding that can, e.g. encoding='utf-8'."),
])
def test_what_the_encoding_cannot_write_is_located(tmp_path, dst, message):
    pytest.importorskip("pyarrow")
    src = tmp_path / "a.parquet"
    nerscore.convert_file(write(tmp_path / "a.conll", "Anna B-PER\n\nZoë B-PER\n"), src)
    before = listing(tmp_path)
    scheme = {} if dst == "b.conll" else {"from_scheme": "IOB2"}
    with pytest.raises(FormatError) as info:
        nerscore.convert_file(src, f"{tmp_path}/{dst}", encoding="ascii", chunk_size=1, **scheme)
    assert str(info.value).startswith(message.format(src=src))
    assert listing(tmp_path) == before


def test_brat_output_is_written_whole_or_not_at_all(tmp_path):
    src = write(tmp_path / "a.jsonl",
                '{"id": "d1", "text": "Anna", "spans": [[0, 4, "PER"]]}\n'
                '{"id": "sub/d2", "text": "Bob", "spans": [[0, 3, "A B"]]}\n')
    out = tmp_path / "out"
    out.mkdir()
    write(out / "keep.txt", "kept")
    with pytest.raises(ValueError, match=re.escape(
            f"{src}, line 2: label 'A B' of document 'sub/d2' cannot be written to BRAT; labels "
            "must be non-empty and without whitespace. Rename it (labels_map), or convert to "
            "another format (JSON Lines, Parquet).")):
        nerscore.convert_file(src, out, chunk_size=1)
    assert listing(out) == ["keep.txt"]
    nerscore.convert_file(src, out, labels_map={"A B": "X"})
    assert listing(out) == ["d1.ann", "d1.txt", "keep.txt", "sub", "sub/d2.ann", "sub/d2.txt"]


def test_a_format_says_what_its_labels_cannot_hold():
    with pytest.raises(OptionError, match="expected `label_forbids` as a regular expression"):
        Format("x", "x", kind="spans", read=lambda path, options: ReadResult([]),
               label_forbids="[")


@pytest.mark.parametrize("encoding", ["ascii", "latin-1"])
@pytest.mark.parametrize(("fmt", "read"), [
    ("jsonl", nerscore.read_jsonl),
    ("label-studio", lambda p, **kw: nerscore.read_label_studio(p, **kw).documents("unknown")),
    ("doccano", lambda p, **kw: nerscore.read_doccano(p, **kw).documents),
    ("prodigy", lambda p, **kw: nerscore.read_prodigy(p, **kw).documents),
])
def test_json_output_escapes_what_the_encoding_cannot_encode(tmp_path, fmt, read, encoding):
    docs = [nerscore.Document("1", [(0, 3, "PER"), (8, 14, "PER")], "Zoë met Łukasz 😀"),
            nerscore.Document("2", [(0, 4, "LOC")], "Łódź")]
    src = tmp_path / "a.jsonl"
    nerscore.write_jsonl(docs, src, encoding="ascii")  # ASCII: readable in either encoding
    out = tmp_path / "b.out"
    result = nerscore.convert_file(src, out, to_format=fmt, encoding=encoding,
                                   labels_map={"PER": "PÉR"}, chunk_size=1)
    assert result.n_sequences == 2
    text = out.read_bytes().decode(encoding)
    assert "\\u0141" in text
    assert ("\\u00c9" in text) == (encoding == "ascii")  # É: escaped only where it must be
    relabelled = [nerscore.Document(d.id, [(e.start, e.end, "PÉR" if e.label == "PER" else
                                            e.label) for e in d.spans], d.text) for d in docs]
    assert read(out, encoding=encoding) == relabelled
