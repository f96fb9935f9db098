"""Parquet tag and span files: round trips, streaming, and scores equal to CoNLL/JSONL."""

from __future__ import annotations

import json

import numpy as np
import pytest

import nerscore
from nerscore.accumulate.files import score_files
from nerscore.cli import main
from nerscore.errors import FormatError
from nerscore.io.conll import read_conll
from nerscore.io.jsonl import read_jsonl

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")

from nerscore.io.parquet import (  # noqa: E402
    iter_parquet_documents,
    iter_parquet_tags,
    read_parquet,
    write_parquet_documents,
    write_parquet_tags,
)

GOLD = "examples/conll2000/gold.conll"
PRED = "examples/conll2000/pred.conll"


@pytest.mark.parametrize("labels_as", ["int", "string"])
def test_tags_round_trip(tmp_path, labels_as):
    corpus = read_conll(GOLD)
    path = tmp_path / "g.parquet"
    write_parquet_tags(path, corpus.tags, labels_as=labels_as, row_group_size=7)
    back = read_parquet(path)
    assert back.to_lists() == corpus.to_lists()
    assert list(back.tokens) == list(corpus.tokens)
    chunks = list(iter_parquet_tags(path, chunk_size=5))
    assert sum(c.n_sequences for c in chunks) == corpus.n_sentences
    assert all(c.n_sequences <= 5 for c in chunks)
    assert [c.first for c in chunks] == list(range(0, corpus.n_sentences, 5))  # as in the file
    assert chunks[2].describe(0) == f"token 0 ('{corpus.tokens[int(corpus.tags.offsets[10])]}') " \
                                    f"of sentence 10 ({path})"
    field = pq.ParquetFile(path).schema_arrow.field("labels").type.value_type
    assert pa.types.is_integer(field) == (labels_as == "int")


def test_int_labels_go_straight_to_ids(tmp_path):
    path = tmp_path / "t.parquet"
    table = pa.table({"labels": pa.array([[0, 1, 2], [2]], type=pa.list_(pa.int8()))})
    table = table.replace_schema_metadata({"nerscore.vocab.labels": json.dumps(["B-X", "I-X", "O"])})
    pq.write_table(table, path)
    (enc,) = iter_parquet_tags(path)
    assert enc.ids.tolist() == [0, 1, 2, 2]
    assert enc.vocab == ("B-X", "I-X", "O")
    assert enc.tokens is None


def test_dictionary_labels(tmp_path):
    path = tmp_path / "t.parquet"
    values = pa.array(["B-X", "O", "O"]).dictionary_encode()
    arr = pa.ListArray.from_arrays(pa.array([0, 2, 3], pa.int32()), values)
    pq.write_table(pa.table({"labels": arr}), path)
    assert read_parquet(path).to_lists() == [["B-X", "O"], ["O"]]


def test_int_labels_without_vocabulary_are_an_error(tmp_path):
    path = tmp_path / "t.parquet"
    pq.write_table(pa.table({"labels": pa.array([[0, 1]], type=pa.list_(pa.int32()))}), path)
    with pytest.raises(FormatError, match="no vocabulary"):
        read_parquet(path)


DEEP = "[" * 100_000 + "]" * 100_000


@pytest.mark.parametrize(("vocab", "message"), [
    (b'["B-X", "I-X" "O"]', "malformed JSON (Expecting ',' delimiter at line 1, column 15)."),
    (b'["B-X",\n ' + DEEP.encode() + b"]", "(line 2): JSON nested too deeply to read (100001 "
                                            "nested arrays or objects"),
    (b'["B-X", "\xc9"]', "cannot decode byte 0xc9 (byte 9) as UTF-8"),
])
def test_a_vocabulary_that_is_not_json_is_located(tmp_path, vocab, message):
    path = tmp_path / "t.parquet"
    table = pa.table({"labels": pa.array([[0, 1, 2], [2]], type=pa.list_(pa.int8()))})
    pq.write_table(table.replace_schema_metadata({"nerscore.vocab.labels": vocab}), path)
    with pytest.raises(FormatError) as info:
        read_parquet(path)
    assert str(info.value).startswith(f"{path}, metadata 'nerscore.vocab.labels'")
    assert message in str(info.value)


def test_spans_round_trip_and_streaming(tmp_path):
    docs = [nerscore.Document(f"d{k}", [(0, 4, "PER"), (5, 7, "LOC")][: k % 3], "Anna in NY")
            for k in range(25)]
    path = tmp_path / "d.parquet"
    write_parquet_documents(path, docs, row_group_size=4)
    assert read_parquet(path) == docs
    assert [len(c) for c in iter_parquet_documents(path, chunk_size=10)] == [10, 10, 5]


@pytest.mark.parametrize("match", ["exact", "semeval", "token"])
def test_parquet_scores_equal_conll(tmp_path, match):
    write_parquet_tags(tmp_path / "g.parquet", read_conll(GOLD).tags, row_group_size=9)
    write_parquet_tags(tmp_path / "p.parquet", read_conll(PRED).tags, labels_as="string")
    aligns = match != "token"
    a = score_files(tmp_path / "g.parquet", tmp_path / "p.parquet", chunk_size=4, match=match,
                    zero_division=0, confusion=aligns,
                    errors=tmp_path / "a.jsonl" if aligns else None)
    b = score_files(GOLD, PRED, stream=False, match=match, zero_division=0, confusion=aligns,
                    errors=tmp_path / "b.jsonl" if aligns else None)
    assert a.streamed
    assert a.n_chunks > 5
    assert a.report.to_dict()["labels"] == b.report.to_dict()["labels"]
    assert a.report.n_tokens == b.report.n_tokens
    if aligns:
        assert np.array_equal(a.confusion.matrix, b.confusion.matrix)
        assert (tmp_path / "a.jsonl").read_bytes() == (tmp_path / "b.jsonl").read_bytes()


def test_cli_scores_parquet(tmp_path, capsys):
    write_parquet_tags(tmp_path / "g.parquet", read_conll(GOLD).tags)
    write_parquet_tags(tmp_path / "p.parquet", read_conll(PRED).tags)
    assert main(["score", str(tmp_path / "g.parquet"), str(tmp_path / "p.parquet"),
                 "--format", "json"]) == 0
    streamed = json.loads(capsys.readouterr().out)
    assert main(["score", GOLD, PRED, "--format", "json"]) == 0
    whole = json.loads(capsys.readouterr().out)
    assert streamed["overall"] == whole["overall"]
    assert streamed["labels"] == whole["labels"]


def _scores(docs):
    return [[e.score for e in d.spans] for d in docs]


def test_span_scores_round_trip(tmp_path):
    docs = [nerscore.Document("a", [(0, 4, "PER", 0.9), (5, 7, "LOC")], "Anna in NY"),
            nerscore.Document("b", [{"start": 0, "end": 9, "label": "X", "score": 0.25,
                                     "fragments": [[0, 2], [6, 9]]}, (3, 5, "Y", 1)])]
    path = tmp_path / "s.parquet"
    write_parquet_documents(path, docs)
    back = read_parquet(path)
    assert back == docs
    assert _scores(back) == [[0.9, None], [0.25, 1.0]]
    assert back[1].spans[0].fragments == docs[1].spans[0].fragments
    field = pq.read_schema(path).field("spans").type.value_type.field("score")
    assert field.type == pa.float64()
    # files without scores, and scores of another numeric type, read as well
    table = pa.table({"id": ["a"], "spans": pa.array(
        [[{"start": 0, "end": 4, "label": "PER", "score": 0.5}]],
        type=pa.list_(pa.struct([("start", pa.int32()), ("end", pa.int32()),
                                 ("label", pa.string()), ("score", pa.float32())])))})
    pq.write_table(table, tmp_path / "f32.parquet")
    assert _scores(read_parquet(tmp_path / "f32.parquet")) == [[0.5]]


def test_scored_parquet_gives_the_curve_of_the_jsonl(tmp_path, capsys):
    gold = [{"id": "a", "spans": [[0, 4, "PER"], [10, 16, "LOC"]]}]
    pred = [{"id": "a", "spans": [[0, 4, "PER", 0.9], [10, 16, "PER", 0.4],
                                  [20, 22, "LOC", 0.6]]}]
    paths = {}
    for name, records in (("gold", gold), ("pred", pred)):
        paths[name] = tmp_path / f"{name}.jsonl"
        paths[name].write_text("".join(json.dumps(r) + "\n" for r in records), "utf-8")
        assert main(["convert", str(paths[name]), str(tmp_path / f"{name}.parquet"), "-q"]) == 0
    assert _scores(read_parquet(tmp_path / "pred.parquet")) == [[0.9, 0.4, 0.6]]
    capsys.readouterr()
    outs = []
    for ext in ("jsonl", "parquet"):
        assert main(["curve", str(tmp_path / f"gold.{ext}"), str(tmp_path / f"pred.{ext}"),
                     "--format", "json"]) == 0
        outs.append(json.loads(capsys.readouterr().out))
    assert outs[0] == outs[1]
    assert outs[1]["micro"]["best"]["threshold"] == 0.9


def test_a_file_that_is_not_parquet_is_named_with_how_to_read_it(tmp_path, capsys):
    text = tmp_path / "g.conll"
    text.write_text("Anna B-PER\n", encoding="utf-8")
    with pytest.raises(FormatError, match=r"g\.conll: not a Parquet file \(pyarrow: Parquet "
                                          r"magic bytes not found in footer\)\. Read it in its "
                                          r"own format") as info:
        read_parquet(text)
    assert info.value.source == str(text)
    whole = tmp_path / "whole.parquet"
    write_parquet_tags(whole, read_conll(GOLD).tags)
    cut = tmp_path / "cut.parquet"
    cut.write_bytes(whole.read_bytes()[:40] + whole.read_bytes()[-8:])  # the footer, no data
    with pytest.raises(FormatError, match=r"cut\.parquet: not a Parquet file \(pyarrow: "):
        list(iter_parquet_tags(cut))
    with pytest.raises(FileNotFoundError) as missing:  # the system's error, as for any format
        read_parquet(tmp_path / "missing.parquet")
    assert (missing.value.filename, missing.value.strerror) == (
        str(tmp_path / "missing.parquet"), "No such file or directory")
    assert main(["score", str(whole), str(tmp_path / "missing.parquet")]) == 1
    assert capsys.readouterr().err == (f"nerscore score: error: cannot read PRED "
                                       f"{str(tmp_path / 'missing.parquet')!r}: No such file or "
                                       "directory.\n")
    assert main(["score", str(text), str(text), "--gold-format", "parquet"]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"nerscore score: error: {text}: not a Parquet file (pyarrow: ")
    assert "convert it to Parquet with nerscore convert" in err


@pytest.mark.parametrize(("columns", "message"), [
    ({"spans": [[{"start": 0, "end": 5}]]},
     "a.parquet: the spans of column 'spans' have no field 'label' (their fields: start, end); "
     "each needs the fields 'start', 'end' and 'label'."),
    ({"spans": [[[0, 5]]]},
     "a.parquet: column 'spans' holds list<element: list<element: int64>>, not a list of structs; "
     "each row's spans are structs with the fields 'start', 'end' and 'label'."),
    ({"spans": [[{"start": 0, "end": 5, "label": "X"}]], "ignore": [[{"start": 0}]]},
     "a.parquet: the ignore regions of column 'ignore' have no field 'end' (their fields: "
     "start); each needs the fields 'start' and 'end'."),
    ({"id": ["d1", None], "spans": [[], [{"start": 0, "end": 1, "label": "X"}]]},
     "a.parquet, row 1 (counting from 0): no id (a null in column 'id'). Give every row an "
     "id, or leave out the column to number the rows 1, 2, ... in file order."),
])
def test_span_files_of_another_shape_are_named_errors(tmp_path, capsys, monkeypatch, columns,
                                                      message):
    """Not a traceback (a span without its label), nor a document named 'None' (a null id)."""
    columns = {"id": ["d1"], **columns}
    monkeypatch.chdir(tmp_path)
    pq.write_table(pa.table(columns), "a.parquet")
    write_parquet_documents("g.parquet", [nerscore.Document(d, []) for d in ("d1", "d2")])
    with pytest.raises(FormatError) as info:
        read_parquet("a.parquet")
    assert str(info.value) == message
    assert main(["score", "g.parquet", "a.parquet"]) == 1
    assert capsys.readouterr().err == f"nerscore score: error: {message}\n"


def test_a_span_error_of_a_span_file_names_the_file_and_row(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    pq.write_table(pa.table({"id": ["d1", "d2"], "text": ["Alice", "IBM"], "spans": [
        [{"start": 0, "end": 5, "label": "PER"}], [{"start": 0, "end": 9, "label": "ORG"}]]}),
        "a.parquet")
    message = ("a.parquet, row 1 (counting from 0): Span 0 (0, 9, 'ORG') of document 'd2' ends "
               "beyond the text, which has 3 characters; offsets are Python str indices into "
               "the document text.")
    with pytest.raises(nerscore.errors.InvalidSpanError) as info:
        read_parquet("a.parquet")
    assert (str(info.value), info.value.document) == (message, "d2")
    assert main(["score", "a.parquet", "a.parquet"]) == 1
    assert capsys.readouterr().err == f"nerscore score: error: {message}\n"


def test_a_duplicate_id_names_the_file_and_both_rows_as_json_lines_names_its_lines(
        tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    ids = ["d0", "d1", "d2", "d1"]
    pq.write_table(pa.table({"id": ids, "spans": pa.array([[]] * 4, type=pa.list_(pa.struct(
        [("start", pa.int64()), ("end", pa.int64()), ("label", pa.string())])))}),
        "a.parquet", row_group_size=2)  # the two rows in two batches
    (tmp_path / "a.jsonl").write_text("".join(json.dumps({"id": i, "spans": []}) + "\n"
                                              for i in ids))
    message = ("a.parquet, row 3 (counting from 0): document id 'd1' was already used on row 1; "
               "ids must be unique.")
    with pytest.raises(FormatError) as info:
        read_parquet("a.parquet", chunk_size=2)
    assert (str(info.value), info.value.source) == (message, "a.parquet")
    with pytest.raises(FormatError) as info:
        read_jsonl("a.jsonl")
    assert str(info.value) == ("a.jsonl, line 4: document id 'd1' was already used on line 2; "
                               "ids must be unique.")
    assert main(["score", "a.parquet", "a.parquet"]) == 1
    assert capsys.readouterr().err.endswith(f"nerscore score: error: {message}\n")


@pytest.mark.parametrize(("ids", "kind", "got", "hint"), [
    ([1.0, 2.0], pa.float64(), "1.0", "; pandas turns a column of integers with a missing value "
     "into floats: cast it to 'Int64' or str before writing it"),
    ([None, 2.5], pa.float32(), "2.5", "; pandas turns a column of integers with a missing value "
     "into floats: cast it to 'Int64' or str before writing it"),
    ([True, False], pa.bool_(), "True", ""),
])
def test_ids_that_are_not_strings_or_integers_are_an_error_as_in_json_lines(
        tmp_path, capsys, monkeypatch, ids, kind, got, hint):
    """Not the document ids '1.0' and '2.0': JSON Lines refuses an id 1.0 too."""
    monkeypatch.chdir(tmp_path)
    row = ids.index(next(i for i in ids if i is not None))
    pq.write_table(pa.table({"id": pa.array(ids, type=kind), "text": ["Ann", "Bo"],
                             "spans": [[{"start": 0, "end": 3, "label": "PER"}], []]}),
                   "a.parquet")
    message = (f"a.parquet, row {row} (counting from 0): expected the ids of column 'id' to be "
               f"strings or integers; got {got} (the column holds {kind}). Write the ids as "
               f"strings or integers{hint}.")
    with pytest.raises(FormatError) as info:
        read_parquet("a.parquet")
    assert str(info.value) == message
    (tmp_path / "a.jsonl").write_text(json.dumps({"id": ids[row], "spans": []}) + "\n")
    with pytest.raises(FormatError, match="expected 'id' to be a string or an integer; got"):
        read_jsonl("a.jsonl")
    assert main(["score", "a.parquet", "a.parquet"]) == 1
    assert capsys.readouterr().err.endswith(f"nerscore score: error: {message}\n")


@pytest.mark.parametrize("kind", [pa.int64(), pa.uint8(), pa.large_string(),
                                  pa.dictionary(pa.int32(), pa.string())])
def test_ids_of_strings_or_integers_are_read_as_strings(tmp_path, kind):
    path = tmp_path / "a.parquet"
    ids = pa.array(["1", "2"]).cast(kind) if kind != pa.large_string() else pa.array(
        ["1", "2"], type=kind)
    pq.write_table(pa.table({"id": ids, "spans": pa.array([[], []], type=pa.list_(pa.struct(
        [("start", pa.int64()), ("end", pa.int64()), ("label", pa.string())])))}), path)
    assert [d.id for d in read_parquet(path)] == ["1", "2"]
