"""``nerscore.convert_file`` and ``nerscore convert``: formats, schemes, counts of what changed."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

import nerscore
from nerscore.cli import main
from nerscore.io.conll import read_conll
from nerscore.io.jsonl import read_jsonl
from nerscore.io.parquet import read_parquet
from tests.paths import ROOT, TESTS

ROOT = ROOT
GOLD = TESTS / "data" / "conll" / "gold.conll"
EXAMPLE = ROOT / "examples" / "conll2000"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    assert "Traceback" not in err
    return status, out, err


def test_conll_parquet_conll_is_byte_identical(capsys, tmp_path):
    pytest.importorskip("pyarrow")
    pq, back = tmp_path / "g.parquet", tmp_path / "g.conll"
    assert run(capsys, "convert", str(GOLD), str(pq))[0] == 0
    status, out, err = run(capsys, "convert", str(pq), str(back))
    assert (status, out) == (0, "")
    assert "wrote 3 sentences (parquet to conll)" in err
    assert back.read_bytes() == GOLD.read_bytes()


@pytest.mark.parametrize(("layout", "message"), [
    (b'{"n_columns": 4,', "metadata 'nerscore.conll': malformed JSON (Expecting property name "
                         "enclosed in double quotes at line 1, column 17)."),
    (b'{"n_columns":\n ' + b"[" * 100_000 + b"]" * 100_000 + b"}",
     "metadata 'nerscore.conll' (line 2): JSON nested too deeply to read (100001 nested"),
    (b'["space"]', "metadata 'nerscore.conll': expected the CoNLL layout that nerscore writes, "
                   "a JSON object of n_columns (int), "),
    (b'{"n_columns": 4, "colour": "red"}', '; got {"n_columns": 4, "colour": "red"}. Convert '
                                          "the CoNLL file again, or remove the metadata."),
    # values of the right types that the CoNLL writer cannot follow
    (b'{"n_columns": 1}', "expected n_columns of at least 2 (a token and a label); got "),
    (b'{"n_columns": 4, "token_column": 5}', "expected token_column and label_column to be two different "
                             "columns from 0 to 3 (n_columns 4); got "),
    (b'{"n_columns": 4, "token_column": 3, "label_column": 3}', "two different columns"),
    (b'{"n_columns": 4, "label_column": -1}', "two different columns"),
    (b'{"n_columns": 4, "delimiter": "comma"}', 'expected delimiter "space" or "tab"; got '),
    (b'{"n_columns": 4, "line_ending": "\\r"}', 'expected line_ending "\\n" or "\\r\\n"; '
                                               'got {"n_columns": 4, "line_ending": "\\r"}.'),
    (b'{"n_columns": 4, "delimiter": "' + b"x" * 200 + b'"}',
     'xxxxxxxxxx... (233 characters). Convert'),
])
def test_a_conll_layout_that_cannot_be_read_is_located(capsys, tmp_path, layout, message):
    pq = pytest.importorskip("pyarrow.parquet")
    path, back = tmp_path / "g.parquet", tmp_path / "g.conll"
    nerscore.convert_file(GOLD, path)
    meta = {**pq.ParquetFile(path).metadata.metadata, b"nerscore.conll": layout}
    meta.pop(b"ARROW:schema")
    pq.write_table(pq.read_table(path).replace_schema_metadata(meta), path)
    status, out, err = run(capsys, "convert", str(path), str(back))
    assert (status, out) == (1, "")
    assert err.startswith(f"nerscore convert: error: {path}, ")
    assert message in err
    assert len(err.splitlines()) == 1


def test_parquet_labels_as_string_round_trip(tmp_path):
    pq = pytest.importorskip("pyarrow.parquet")
    path = tmp_path / "g.parquet"
    nerscore.convert_file(GOLD, path, labels_as="string")
    table = pq.read_table(path)
    assert str(table.schema.field("labels").type.value_type) == "string"
    assert table.column("column_1").to_pylist()[0][:2] == ["NNP", "NNP"]
    assert table.column("document").to_pylist() == [True, False, False]
    nerscore.convert_file(path, tmp_path / "back.conll")
    assert (tmp_path / "back.conll").read_bytes() == GOLD.read_bytes()


def test_conll_jsonl_conll_keeps_tokens_and_labels(capsys, tmp_path):
    jsonl, back = tmp_path / "g.jsonl", tmp_path / "g.conll"
    status, _, err = run(capsys, "convert", str(GOLD), str(jsonl), "--from-scheme", "IOB2")
    assert status == 0
    assert "1 -DOCSTART- line not kept: jsonl documents are the sentences" in err
    docs = read_jsonl(jsonl)
    assert docs[0].text == "Jonas Müller lives in New York ."
    assert [(e.start, e.end, e.label) for e in docs[0].spans] == [(0, 12, "PER"), (22, 30, "LOC")]
    assert run(capsys, "convert", str(jsonl), str(back))[0] == 0
    a, b = read_conll(GOLD), read_conll(back)
    assert b.to_lists() == a.to_lists()
    assert list(b.tokens) == list(a.tokens)


def test_iob2_bilou_iob2_round_trip(capsys, tmp_path):
    bilou, back = tmp_path / "bilou.conll", tmp_path / "iob2.conll"
    assert run(capsys, "convert", str(GOLD), str(bilou), "--from-scheme", "IOB2",
               "--to-scheme", "BILOU")[0] == 0
    labels = read_conll(bilou).to_lists()
    assert labels[2] == ["U-LOC", "O"]
    assert labels[0][:2] == ["B-PER", "L-PER"]
    assert run(capsys, "convert", str(bilou), str(back), "--from-scheme", "BILOU",
               "--to-scheme", "IOB2")[0] == 0
    assert back.read_bytes() == GOLD.read_bytes()


def test_malformed_chunks_are_counted_repaired_or_dropped(capsys, tmp_path):
    pred = EXAMPLE / "pred.conll"
    status, _, err = run(capsys, "convert", str(pred), str(tmp_path / "a.conll"),
                         "--from-scheme", "IOB2")
    assert status == 0
    assert "84 malformed chunks read the lenient way and written well-formed" in err
    status, _, err = run(capsys, "convert", str(pred), str(tmp_path / "b.conll"),
                         "--from-scheme", "IOB2", "--mode", "strict")
    assert "84 malformed chunks dropped (strict mode)" in err
    strict = nerscore.tags_to_entities(read_conll(pred).tags, scheme="IOB2", mode="strict")
    assert nerscore.tags_to_entities(read_conll(tmp_path / "b.conll").tags,
                                     scheme="IOB2", mode="strict") == strict
    # --quiet: the counts are not printed, the file is still written
    status, out, err = run(capsys, "convert", str(pred), str(tmp_path / "c.conll"),
                           "--from-scheme", "IOB2", "--quiet")
    assert (status, out, err) == (0, "", "")
    assert (tmp_path / "c.conll").read_bytes() == (tmp_path / "a.conll").read_bytes()


def test_io_merges_adjacent_entities_and_says_so(tmp_path):
    src = tmp_path / "a.conll"
    src.write_text("a B-X\nb B-X\nc O\n", encoding="utf-8")
    res = nerscore.convert_file(src, tmp_path / "b.conll", from_scheme="IOB2", to_scheme="IO")
    assert res.merged == 1
    assert any("merged" in n for n in res.notes())
    assert read_conll(tmp_path / "b.conll").to_lists() == [["I-X", "I-X", "O"]]


def test_spans_to_tags_misaligned(capsys, tmp_path):
    src = tmp_path / "d.jsonl"
    src.write_text(json.dumps({"id": "d1", "text": "New York-based Acme",
                               "spans": [[0, 8, "LOC"], [15, 19, "ORG"]]}) + "\n",
                   encoding="utf-8")
    status, _, err = run(capsys, "convert", str(src), str(tmp_path / "x.conll"))
    assert status == 1
    assert "pass --misaligned expand or 'contract' to move it" in err
    for how, first in (("expand", ["B-LOC", "I-LOC", "B-ORG"]), ("contract", ["B-LOC", "O",
                                                                             "B-ORG"])):
        out = tmp_path / f"{how}.conll"
        status, _, err = run(capsys, "convert", str(src), str(out), "--misaligned", how,
                             "--to-scheme", "IOB2")
        assert status == 0
        assert "1 span not on word boundaries moved to word boundaries" in err
        corpus = read_conll(out)
        assert list(corpus.tokens) == ["New", "York-based", "Acme"]
        assert corpus.to_lists() == [first]


def test_spans_to_tags_drop_zero_length_spans_and_count_them(tmp_path):
    src = tmp_path / "d.jsonl"
    src.write_text(json.dumps({"id": "d1", "text": "Anna met Bob", "spans": [
        [0, 4, "PER"], [4, 4, "GAP"], [12, 12, "END"]]}) + "\n", encoding="utf-8")
    res = nerscore.convert_file(src, tmp_path / "d.conll")
    assert "2 spans covering no whole word dropped." in res.notes()
    assert read_conll(tmp_path / "d.conll").to_lists() == [["B-PER", "O", "O"]]


def test_overlapping_spans_to_tags_is_an_error_naming_file_and_document(capsys, tmp_path):
    src = tmp_path / "d.jsonl"
    lines = [{"id": "d1", "text": "Anna", "spans": []},
             {"id": "d2", "text": "New York City", "spans": [[0, 8, "LOC"], [4, 13, "GPE"]]}]
    src.write_text("".join(json.dumps(x) + "\n" for x in lines), encoding="utf-8")
    status, _, err = run(capsys, "convert", str(src), str(tmp_path / "d.conll"),
                         "--misaligned", "expand")
    assert status == 1
    assert err == (f"nerscore convert: error: {src}, line 2: the spans 'New York' ('LOC') and "
                   "'York City' ('GPE') of document 'd2' share a word; tags cannot hold "
                   "overlapping spans. Remove one of them (a label operation such as --drop GPE "
                   "does), or convert to a span format (JSON Lines, Parquet, BRAT).\n")
    assert not (tmp_path / "d.conll").exists()


def test_brat_and_parquet_spans(tmp_path):
    pytest.importorskip("pyarrow")
    folder = tmp_path / "brat"
    res = nerscore.convert_file(GOLD, folder, to_format="brat", from_scheme="IOB2")
    assert res.to_kind == "spans"
    assert res.n_sequences == 3
    assert (folder / "1.ann").read_text(encoding="utf-8").startswith("T1\tPER 0 12\tJonas Müller")
    nerscore.convert_file(folder, tmp_path / "s.parquet")
    docs = read_parquet(tmp_path / "s.parquet")
    assert [d.id for d in docs] == ["1", "2", "3"]
    nerscore.convert_file(tmp_path / "s.parquet", tmp_path / "t.conll")
    assert read_conll(tmp_path / "t.conll").to_lists() == read_conll(GOLD).to_lists()


def test_streams_chunk_by_chunk_with_progress(tmp_path):
    calls: list[tuple[int, int]] = []
    res = nerscore.convert_file(EXAMPLE / "pred.conll", tmp_path / "p.jsonl",
                                from_scheme="IOB2", chunk_size=7,
                                progress=lambda d, t: calls.append((d, t)))
    size = (EXAMPLE / "pred.conll").stat().st_size
    assert res.n_sequences == 40
    assert calls
    assert calls[-1] == (size, size)
    assert len(read_jsonl(tmp_path / "p.jsonl")) == 40


@pytest.mark.parametrize(("argv", "message", "code"), [
    (["x.conll", "y.jsonl"], "--from-scheme IOB2 (nerscore never guesses it). See", 2),
    (["x.conll", "y.conll", "--to-scheme", "BILOU"], "--from-scheme IOB2 (nerscore never guesses "
     "it). See 'nerscore convert --help'.", 2),
    (["y.jsonl", "z.conll", "--from-scheme", "IOB2"], "holds spans: without --from-scheme", 2),
    (["y.jsonl", "z.jsonl", "--to-scheme", "IOB2"], "gets spans: without --to-scheme", 2),
    (["x.conll", "x.conll"], "is the input", 2),
    (["x.conll", "y.tsv", "--to-format", "webanno"],
     "error: The webanno format has no writer of spans: convert to another format. See", 2),
    # options that apply to nothing in the conversion asked for
    (["x.conll", "z.conll", "--mode", "strict"], "error: --mode strict says how tags are decoded "
     "with their scheme; pass the scheme of the input tags too, e.g. --from-scheme IOB2. See", 2),
    (["y.jsonl", "z.conll", "--mode", "conlleval"], "y.jsonl holds spans: leave it out.", 2),
    (["x.conll", "z.conll", "--misaligned", "expand"], "error: --misaligned expand applies to "
     "spans written as tags;", 2),
    (["y.jsonl", "z.jsonl", "--misaligned", "contract"], "z.jsonl gets spans: leave it out.", 2),
    (["x.conll", "z.conll", "--parquet-kind", "tags"], "error: --parquet-kind tags applies to "
     "Parquet output;", 2),
    (["x.conll", "z.conll", "--labels-as", "string"], "error: --labels-as string applies to "
     "Parquet tag output;", 2),
    (["y.jsonl", "z.parquet", "--labels-as", "string"], "z.parquet gets parquet spans: leave it "
     "out.", 2),
    (["y.jsonl", "z.jsonl", "--suffix"], "error: --suffix spells the input tags, and the "
     "output tags unless they have their own spelling (--to-suffix/--to-prefix);", 2),
    (["y.jsonl", "z.parquet", "--tag-delimiter", "_"], "z.parquet gets spans: leave it out.", 2),
    (["x.conll", "z.conll", "--outside", "NONE"], "error: --outside NONE spells the input tags, "
     "and the output tags unless they have their own spelling (--to-outside); the input tags "
     "are copied as they are: pass the scheme of the input tags too, e.g. --from-scheme IOB2, "
     "or respell them, e.g. --to-outside O.", 2),
])
def test_convert_refuses_what_it_cannot_do(capsys, tmp_path, argv, message, code):
    src = tmp_path / "x.conll"
    src.write_text("a B-X\n", encoding="utf-8")
    (tmp_path / "y.jsonl").write_text('{"id": "1", "text": "a", "spans": []}\n', encoding="utf-8")
    argv = [str(tmp_path / a) if a.startswith(("x.", "y.", "z.")) else a for a in argv]
    status, _, err = run(capsys, "convert", *argv)
    assert status == code
    assert message in err
    assert not (tmp_path / "z.conll").exists()
    assert not (tmp_path / "z.parquet").exists()


def test_tag_spelling_flags_apply_where_tags_are_decoded_or_written(capsys, tmp_path):
    src = tmp_path / "x.conll"
    src.write_text("a NONE\nb X-B\nc X-I\n\n", encoding="utf-8")
    spans = tmp_path / "x.jsonl"
    assert run(capsys, "convert", str(src), str(spans), "--from-scheme", "IOB2", "--suffix",
               "--outside", "NONE")[0] == 0
    assert [(e.start, e.end) for e in read_jsonl(spans)[0].spans] == [(2, 5)]
    back = tmp_path / "back.conll"
    assert run(capsys, "convert", str(spans), str(back), "--suffix", "--outside", "NONE",
               "--tag-delimiter", "-")[0] == 0
    assert back.read_text(encoding="utf-8") == src.read_text(encoding="utf-8")


def test_what_a_format_cannot_keep_is_counted(tmp_path):
    src = tmp_path / "tab.conll"
    src.write_text("New York\tB-LOC\nis\tO\n\nAnn\tB-PER\n", encoding="utf-8")
    res = nerscore.convert_file(src, tmp_path / "s.jsonl", from_scheme="IOB2")
    assert "1 token containing white space joined into the text" in " ".join(res.notes())
    back = nerscore.convert_file(tmp_path / "s.jsonl", tmp_path / "b.conll")
    assert "2 document ids not kept (each document becomes one sentence)." in back.notes()


@pytest.mark.parametrize(("to_format", "kept"), [
    ("jsonl", True), ("parquet", True), ("brat", False), ("label-studio", False),
    ("doccano", False), ("prodigy", False), ("conll", False),
])
def test_span_scores_are_kept_or_counted(tmp_path, to_format, kept):
    if to_format == "parquet":
        pytest.importorskip("pyarrow")
    src = tmp_path / "pred.jsonl"
    src.write_text(json.dumps({"id": "d1", "text": "Anna met Bob", "spans": [
        {"start": 0, "end": 4, "label": "PER", "score": 0.9},
        {"start": 9, "end": 12, "label": "PER", "score": 0.4}]}) + "\n", encoding="utf-8")
    res = nerscore.convert_file(src, tmp_path / "out", to_format=to_format)
    lost = "2 span scores not kept (the output cannot hold them)."
    assert (lost in res.notes()) is not kept
    if kept:
        back = nerscore.convert_file(tmp_path / "out", tmp_path / "back.jsonl",
                                     from_format=to_format)
        assert back.notes() == ()
        assert [e.score for e in read_jsonl(tmp_path / "back.jsonl")[0].spans] == [0.9, 0.4]


@pytest.mark.parametrize("text", [
    "a B-X\nb I-X\n\nc O\n\n",          # a blank line ends the last sentence
    "a B-X\nb I-X\n\nc O\n\n\n",        # two
    "# c\na B-X\n\nc O\n\n# end\n",     # a comment after the last sentence
    "-DOCSTART- -X- O\n\na B-X\n\n",
])
def test_conll_to_conll_keeps_the_layout_to_the_last_byte(tmp_path, text):
    src, dst = tmp_path / "a.conll", tmp_path / "b.conll"
    src.write_bytes(text.encode())
    nerscore.convert_file(src, dst, from_scheme="IOB2", to_scheme="IOB2",
                          conll_options={"comments": "# c" in text})
    assert dst.read_bytes() == src.read_bytes()


@pytest.mark.parametrize("target", ["b.jsonl", "b.parquet"])
def test_comment_lines_a_span_or_parquet_output_cannot_hold_are_counted(tmp_path, target):
    if target.endswith(".parquet"):
        pytest.importorskip("pyarrow")
    src = tmp_path / "a.conll"
    src.write_text("# c\na B-X\n\n# d\nc O\n\n# end\n", encoding="utf-8")
    res = nerscore.convert_file(src, tmp_path / target, from_scheme="IOB2", chunk_size=1,
                                conll_options={"comments": True})
    assert res.notes() == (f"{src}: 3 comment lines skipped",)


def through_parquet(folder: Path, text: bytes, chunk_size: int = 10_000,
                    labels_as: str = "int") -> tuple[bytes, tuple[str, ...]]:
    """``text`` as CoNLL converted to Parquet and back, and the notes of the way there."""
    src = folder / "a.conll"
    src.write_bytes(text)
    res = nerscore.convert_file(src, folder / "a.parquet", chunk_size=chunk_size,
                                labels_as=labels_as)
    nerscore.convert_file(folder / "a.parquet", folder / "b.conll", chunk_size=chunk_size)
    return (folder / "b.conll").read_bytes(), res.notes()


@pytest.mark.parametrize("chunk_size", [1, 2, 10_000])
@pytest.mark.parametrize("text", [
    "Anna\tB-PER\r\nleft\tO\r\n\r\nBo\tB-PER\r\n",   # tabs and CRLF, as shared tasks ship them
    "Anna\tB-PER\nleft\tO\n\nBo\tB-PER\n\n",
    "Anna NNP B-PER\r\nleft VBD O\r\n\r\n",
    # -DOCSTART- lines: before the first sentence (a chunk of its own), before a later one
    "-DOCSTART- O\n\na B-X\n",
    "-DOCSTART- O\n\na B-X\n\n-DOCSTART- O\n\nb O\n\nc I-X\n",
    "a B-X\n\n-DOCSTART- O\n\nb O\n",
    "-DOCSTART-\t-X-\t-X-\tO\r\n\r\nAnna\tNNP\tB-NP\tB-PER\r\n\r\n-DOCSTART-\t-X-\t-X-\tO\r\n"
    "\r\nBo\tNNP\tB-NP\tB-PER\r\nleft\tVBD\tB-VP\tO\r\n",
    # a byte-order mark, kept in the layout
    "\ufeffAnna B-PER\nleft O\n",
    "\ufeff-DOCSTART- O\n\na B-X\n",
])
def test_conll_through_parquet_and_back_gives_the_same_bytes(tmp_path, text, chunk_size):
    pytest.importorskip("pyarrow")
    assert through_parquet(tmp_path, text.encode(), chunk_size) == (text.encode(), ())


@st.composite
def conll_files(draw: st.DrawFn) -> bytes:
    """A small CoNLL file as nerscore writes one: documents of sentences, extra columns."""
    n_columns = draw(st.integers(2, 4))
    delimiter = draw(st.sampled_from([" ", "\t"]))
    end = draw(st.sampled_from(["\n", "\r\n"]))
    word = st.text("abXé-", min_size=1, max_size=3)
    label = st.sampled_from(["O", "B-PER", "I-PER", "B-LOC"])
    docstart = delimiter.join(["-DOCSTART-", *["-X-"] * (n_columns - 2), "O"]) + end
    blocks = []
    for k in range(draw(st.integers(1, 3))):
        if k or draw(st.booleans()):  # sentences may come before the first -DOCSTART-
            blocks.append(docstart)
        for _ in range(draw(st.integers(1, 3))):
            rows = draw(st.lists(st.tuples(word, st.lists(word, min_size=n_columns - 2,
                                                          max_size=n_columns - 2), label),
                                 min_size=1, max_size=3))
            blocks.append("".join(delimiter.join([w, *extra, tag]) + end
                                  for w, extra, tag in rows))
    return (end.join(blocks) + (end if draw(st.booleans()) else "")).encode()


@settings(max_examples=60, deadline=None)
@given(conll_files(), st.integers(1, 4), st.sampled_from(["int", "string"]))
def test_any_conll_file_through_parquet_and_back_gives_the_same_bytes(text, chunk_size,
                                                                     labels_as):
    pytest.importorskip("pyarrow")
    with tempfile.TemporaryDirectory() as folder:
        assert through_parquet(Path(folder), text, chunk_size, labels_as) == (text, ())


@pytest.mark.parametrize(("text", "kept"), [
    ("-DOCSTART- O\n\n-DOCSTART- O\n\na B-X\n", "-DOCSTART- O\n\na B-X\n"),  # an empty document
    ("a B-X\n\n-DOCSTART- O\n", "a B-X\n"),  # a -DOCSTART- line after the last sentence
])
def test_docstart_lines_a_parquet_file_cannot_flag_are_counted(tmp_path, text, kept):
    pytest.importorskip("pyarrow")
    for chunk_size in (1, 10_000):
        back, notes = through_parquet(tmp_path, text.encode(), chunk_size)
        assert back == kept.encode()
        assert notes == ("1 -DOCSTART- line not kept: the document column of a Parquet tag "
                         "file flags the sentence after each, and it has none of its own (an "
                         "empty document, or the end of the file).",)


@pytest.mark.parametrize(("text", "written"), [
    ("-DOCSTART- -X- O extra\n\na NNP B-X\n", "-DOCSTART- -X- O\n\na NNP B-X\n"),  # more
    ("-DOCSTART-\n\na NNP B-X\n", "-DOCSTART- -X- O\n\na NNP B-X\n"),  # fewer
    ("-DOCSTART- NN O\n\na NNP B-X\n", "-DOCSTART- -X- O\n\na NNP B-X\n"),  # other values
    ("-DOCSTART- -X- B-X\n\na NNP B-X\n", "-DOCSTART- -X- O\n\na NNP B-X\n"),
    ("-DOCSTART-\t-X-\tO\textra\r\n\r\na\tNNP\tB-X\r\n\r\n-DOCSTART-\t-X-\tO\r\n\r\nb\tNN\tO\r\n",
     "-DOCSTART-\t-X-\tO\r\n\r\na\tNNP\tB-X\r\n\r\n-DOCSTART-\t-X-\tO\r\n\r\nb\tNN\tO\r\n"),
])
def test_docstart_lines_whose_fields_a_parquet_file_cannot_keep_are_counted(tmp_path, text,
                                                                            written):
    pytest.importorskip("pyarrow")
    shown = repr("\t".join(["-DOCSTART-", "-X-", "O"]) if "\t" in text else "-DOCSTART- -X- O")
    for chunk_size in (1, 10_000):
        back, notes = through_parquet(tmp_path, text.encode(), chunk_size)
        assert back == written.encode()
        assert notes == (f"1 -DOCSTART- line whose fields differ from {shown} not kept as it "
                         "was: a Parquet tag file flags where each document starts, not the "
                         f"fields of its line; CoNLL written from it has {shown} there.",)
    # its label is the input's outside tag, whatever the output's
    src = tmp_path / "o.conll"
    src.write_bytes(b"-DOCSTART- -X- OUT\n\na NNP B-X\n")
    assert nerscore.convert_file(src, tmp_path / "o.parquet", outside="OUT",
                                 to_outside="O").notes() == ()


@pytest.mark.parametrize("encoding", ["utf-8", "utf-8-sig"])
def test_a_byte_order_mark_is_written_back_by_conll_and_noted_where_lost(tmp_path, encoding):
    src = tmp_path / "a.conll"
    src.write_bytes(b"\xef\xbb\xbfAnna B-PER\nleft O\n")
    res = nerscore.convert_file(src, tmp_path / "b.conll", from_scheme="IOB2", to_scheme="BILOU",
                                encoding=encoding)
    assert res.notes() == ()
    assert (tmp_path / "b.conll").read_bytes() == b"\xef\xbb\xbfAnna U-PER\nleft O\n"
    lost = f"{src} began with a UTF-8 byte-order mark, not written to {tmp_path / 'a.jsonl'}."
    res = nerscore.convert_file(src, tmp_path / "a.jsonl", from_scheme="IOB2", encoding=encoding)
    assert (lost in res.notes()) is (encoding == "utf-8")  # utf-8-sig writes one
    again = tmp_path / "a.jsonl"
    res = nerscore.convert_file(again, tmp_path / "c.jsonl", encoding=encoding)
    assert (tmp_path / "c.jsonl").read_bytes().startswith(b"\xef\xbb\xbf") is (
        encoding == "utf-8-sig")
    # read as Latin-1 the three bytes are characters of the first token, written back
    res = nerscore.convert_file(src, tmp_path / "d.conll", encoding="latin-1")
    assert res.notes() == ()
    assert (tmp_path / "d.conll").read_bytes() == src.read_bytes()


@pytest.mark.parametrize("encoding", ["utf-16-le", "utf-16-be", "utf-32-le", "utf-32-be"])
def test_a_utf16_or_utf32_byte_order_mark_is_written_back_by_conll(tmp_path, encoding):
    """Read as utf-16-le (and the like) the mark is U+FEFF, which a CoNLL output writes back."""
    src = tmp_path / "a.conll"
    src.write_bytes("\ufeffAnna B-PER\nleft O\n".encode(encoding))
    res = nerscore.convert_file(src, tmp_path / "b.conll", from_scheme="IOB2", to_scheme="BILOU",
                                encoding=encoding)
    assert res.notes() == ()
    assert (tmp_path / "b.conll").read_bytes() == "\ufeffAnna U-PER\nleft O\n".encode(encoding)
    res = nerscore.convert_file(src, tmp_path / "a.jsonl", from_scheme="IOB2", encoding=encoding)
    assert (f"{src} began with a {encoding.upper()} byte-order mark, not written to "
            f"{tmp_path / 'a.jsonl'}.") in res.notes()
    pytest.importorskip("pyarrow")
    assert nerscore.convert_file(src, tmp_path / "a.parquet", encoding=encoding).notes() == ()
    nerscore.convert_file(tmp_path / "a.parquet", tmp_path / "c.conll", encoding=encoding)
    assert (tmp_path / "c.conll").read_bytes() == src.read_bytes()
    nerscore.convert_file(tmp_path / "a.parquet", tmp_path / "d.conll")  # in UTF-8
    assert (tmp_path / "d.conll").read_bytes() == b"\xef\xbb\xbfAnna B-PER\nleft O\n"


@pytest.mark.parametrize(("encoding", "mark"), [("utf-16", b"\xff\xfe"), ("utf-16", b"\xfe\xff"),
                                                ("utf-32", b"\x00\x00\xfe\xff"),
                                                ("utf-8-sig", b"\xef\xbb\xbf")])
def test_a_mark_after_the_codecs_own_comes_back_from_parquet(tmp_path, encoding, mark):
    """Kept in the layout of the Parquet file as the text's first character, after the codec's mark."""
    pytest.importorskip("pyarrow")
    base = {b"\xff\xfe": "utf-16-le", b"\xfe\xff": "utf-16-be", b"\x00\x00\xfe\xff": "utf-32-be",
            b"\xef\xbb\xbf": "utf-8"}[mark]
    src = tmp_path / "a.conll"
    src.write_bytes(mark + "\ufeffAnna B-PER\nleft O\n".encode(base))
    assert nerscore.convert_file(src, tmp_path / "a.parquet", encoding=encoding).notes() == ()
    res = nerscore.convert_file(tmp_path / "a.parquet", tmp_path / "b.conll", encoding=encoding)
    assert res.notes() == ()
    # in the machine's byte order: a Parquet file keeps no byte order
    assert (tmp_path / "b.conll").read_bytes() == "\ufeffAnna B-PER\nleft O\n".encode(encoding)
    nerscore.convert_file(tmp_path / "a.parquet", tmp_path / "c.conll")  # in UTF-8
    assert (tmp_path / "c.conll").read_bytes() == b"\xef\xbb\xbfAnna B-PER\nleft O\n"
    nerscore.convert_file(tmp_path / "a.parquet", tmp_path / "d.parquet")
    nerscore.convert_file(tmp_path / "d.parquet", tmp_path / "d.conll", encoding=encoding)
    assert (tmp_path / "d.conll").read_bytes() == (tmp_path / "b.conll").read_bytes()


def test_a_byte_order_mark_a_parquet_file_keeps_is_noted_where_lost(tmp_path):
    pytest.importorskip("pyarrow")
    src = tmp_path / "a.conll"
    src.write_bytes(b"\xef\xbb\xbfAnna B-PER\nleft O\n")
    nerscore.convert_file(src, tmp_path / "a.parquet")
    lost = (f"{tmp_path / 'a.parquet'} keeps the byte-order mark of the CoNLL file it was "
            "written from, not written to {}.")
    for out, kw in (("b.conll", {"encoding": "latin-1"}), ("b.jsonl", {"from_scheme": "IOB2"})):
        res = nerscore.convert_file(tmp_path / "a.parquet", tmp_path / out, **kw)
        assert lost.format(tmp_path / out) in res.notes()
    res = nerscore.convert_file(tmp_path / "a.parquet", tmp_path / "b.conll")
    assert res.notes() == ()


def test_a_byte_order_mark_lost_is_a_warning_of_the_command(capsys, tmp_path):
    src = tmp_path / "a.jsonl"
    src.write_bytes(b'\xef\xbb\xbf{"id": "1", "text": "Anna left", "spans": []}\n')
    out = tmp_path / "b.jsonl"
    status, _, err = run(capsys, "convert", str(src), str(out))
    assert status == 0, err
    assert (f"nerscore convert: warning: {src} began with a UTF-8 byte-order mark, not written "
            f"to {out}.\n") in err
    assert out.read_bytes() == src.read_bytes()[3:]
    pytest.importorskip("pyarrow")
    status, _, err = run(capsys, "convert", str(src), str(tmp_path / "b.parquet"))
    assert "byte-order mark" in err


@pytest.mark.parametrize("to_format", ["jsonl", "doccano", "brat", "spacy", "parquet"])
def test_documents_in_memory_are_written_with_the_notes_of_a_conversion(tmp_path, to_format):
    from nerscore.io.convert import write_documents
    from nerscore.io.formats import guess_format

    pytest.importorskip({"spacy": "spacy", "parquet": "pyarrow"}.get(to_format, "json"))
    docs = [nerscore.Document("d1", [
        {"start": 0, "end": 12, "label": "PER", "fragments": [[0, 4], [9, 12]]},
        {"start": 13, "end": 17, "label": "X", "score": 0.5}], "Anna and Bob left",
        ignore=[(5, 8)])]
    fmt = guess_format("x", to_format)
    src = tmp_path / "in.jsonl"
    nerscore.write_jsonl(docs, src)
    expected = nerscore.convert_file(src, tmp_path / "c", to_format=to_format).notes()
    assert write_documents(docs, str(tmp_path / "w"), fmt) == expected
    assert bool(expected) is (to_format not in ("jsonl", "parquet"))


@pytest.mark.parametrize(("to_format", "need"), [
    ("conll", ": tags need the words of the text as tokens."),
    ("spacy", ": a spaCy Doc needs its words;"),
    ("doccano", "; doccano files need it."),
    ("brat", "; BRAT files need it."),
])
def test_a_document_without_text_is_an_error_naming_file_and_line(capsys, tmp_path, to_format,
                                                                   need):
    if to_format == "spacy":
        pytest.importorskip("spacy")
    src = tmp_path / "d.jsonl"
    src.write_text('{"id": "d0", "text": "x", "spans": []}\n{"id": "d1", "spans": []}\n',
                   encoding="utf-8")
    status, _, err = run(capsys, "convert", str(src), str(tmp_path / "out"), "--to-format",
                         to_format)
    assert status == 1
    assert err.startswith(f"nerscore convert: error: {src}, line 2: document 'd1' has no "
                          f"text{need}")


@pytest.mark.parametrize("chunk_size", ["1", "2", "10000"])
def test_a_span_off_word_boundaries_is_an_error_naming_file_and_line(capsys, tmp_path,
                                                                     chunk_size):
    src = tmp_path / "d.jsonl"
    src.write_text('{"id": "d0", "text": "x", "spans": []}\n'
                   '{"id": "d1", "text": "New York-based", "spans": [[0, 8, "LOC"]]}\n',
                   encoding="utf-8")
    status, _, err = run(capsys, "convert", str(src), str(tmp_path / "d.conll"), "--chunk-size",
                         chunk_size)
    assert status == 1
    assert err.startswith(f"nerscore convert: error: {src}, line 2: span (0, 8, 'LOC') "
                          "('New York') of document 'd1' does not start and end on token "
                          "boundaries")
