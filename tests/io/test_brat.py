"""BRAT standoff files (nerscore.io.brat) on the CoNLL-2002 sample and crafted cases."""

from __future__ import annotations

import codecs
import re
import shutil
from collections import Counter

import numpy as np
import pytest

import nerscore
from nerscore.errors import FormatError, InvalidSpanError
from nerscore.io.brat import BratStats, read_brat, write_brat
from nerscore.io.jsonl import read_jsonl
from nerscore.values.documents import Document
from nerscore.values.spans import Entity, Span
from tests.paths import TESTS

DATA = TESTS / "data" / "brat" / "conll2002"


def spans(doc):
    return [(e.start, e.end, e.label) for e in doc.spans]


def make(tmp_path, text, ann, name="doc", *, raw=False):
    (tmp_path / f"{name}.txt").write_bytes(text if raw else text.encode("utf-8"))
    (tmp_path / f"{name}.ann").write_bytes(ann if raw else ann.encode("utf-8"))
    return tmp_path


# ----------------------------------------------------------------------------- real data


def test_reads_the_conll2002_sample():
    docs, stats = read_brat(DATA)
    assert len(docs) == 20
    assert stats.documents == 20
    assert stats.entities == 816
    assert dict(stats.labels) == {"LOC": 165, "MISC": 118, "ORG": 246, "PER": 287}
    assert Counter(e.label for d in docs for e in d.spans) == stats.labels
    assert docs[0].id == "esp/esp.train-doc-100"
    assert [d.id for d in docs] == sorted(d.id for d in docs)
    assert spans(docs[0])[:2] == [(4, 17, "PER"), (18, 24, "LOC")]
    assert docs[0].span_texts()[:2] == ["Viruca Atanes", "Madrid"]
    assert stats.notes() == ()
    assert stats.ignored == {}
    assert stats.discontinuous == 0


def test_round_trip_is_identical(tmp_path):
    docs, stats = read_brat(DATA)
    write_brat(docs, tmp_path)
    again, stats2 = read_brat(tmp_path)
    assert again == docs
    assert stats2 == stats
    for doc in docs:  # the files themselves come back byte for byte
        for suffix in (".txt", ".ann"):
            assert (tmp_path / (doc.id + suffix)).read_bytes() == \
                (DATA / (doc.id + suffix)).read_bytes()


def test_reading_one_file_of_a_pair():
    docs, _stats = read_brat(DATA / "ned" / "ned.train-doc-118.ann")
    assert [d.id for d in docs] == ["ned.train-doc-118"]
    assert spans(docs[0])[0] == (65, 83, "PER")
    assert read_brat(DATA / "ned" / "ned.train-doc-118.txt").documents == docs


def _perturb(docs, rng):
    """Predictions from gold: drop, relabel, shift, add; plus the naive exact-match count."""
    pred = []
    for doc in docs:
        out = []
        for e in doc.spans:
            r = rng.random()
            if r < 0.1:
                continue  # dropped
            if r < 0.2:
                out.append((e.start, e.end, "MISC" if e.label != "MISC" else "PER"))
            elif r < 0.3:
                out.append((e.start, max(e.start + 1, e.end - 1), e.label))
            else:
                out.append((e.start, e.end, e.label))
        if rng.random() < 0.5:
            out.append((0, 3, "ORG"))
        pred.append(Document(doc.id, out))
    return pred


def test_evaluate_on_brat_against_a_naive_count():
    docs, _ = read_brat(DATA)
    pred = _perturb(docs, np.random.default_rng(7))
    r = nerscore.evaluate(docs, pred, zero_division=0.0)
    for label in ("LOC", "MISC", "ORG", "PER"):
        g = Counter((d.id, e.start, e.end) for d in docs for e in d.spans if e.label == label)
        p = Counter((d.id, e.start, e.end) for d in pred for e in d.spans if e.label == label)
        assert r.labels[label].tp == sum((g & p).values())
        assert r.labels[label].n_gold == sum(g.values())
        assert r.labels[label].n_pred == sum(p.values())
    assert r.micro.n_gold == 816
    assert r.texts == [d.text for d in docs]
    assert r.notes == ()
    shuffled = {d.id: [(e.start, e.end, e.label) for e in d.spans] for d in reversed(pred)}
    assert nerscore.evaluate(docs, shuffled, zero_division=0.0).micro == r.micro


# ----------------------------------------------------------------------------- crafted cases


def test_discontinuous_entities_keep_their_fragments(tmp_path):
    make(tmp_path, "New and old York", "T1\tLOC 0 3;12 16\tNew York\nT2\tX 4 7\tand\n")
    docs, stats = read_brat(tmp_path)
    assert spans(docs[0]) == [(0, 16, "LOC"), (4, 7, "X")]
    assert docs[0].spans[0].fragments == (Span(0, 3), Span(12, 16))
    assert docs[0].span_texts() == ["New … York", "and"]
    assert stats.discontinuous == 1
    assert stats.notes() == ()


def test_fragments_in_any_order_are_sorted(tmp_path):
    make(tmp_path, "New and old York", "T1\tLOC 12 16;0 3\tYork New\n")
    assert read_brat(tmp_path).documents[0].spans[0].fragments == (Span(0, 3), Span(12, 16))


def test_fragments_split_at_white_space_are_one_fragment(tmp_path):
    # brat splits a span at a line break: "upper\nlobe" is written 19 24;25 29
    text = "lung cancer in the upper\nlobe\n"
    ann = ("T1\tDisorder 0 4;19 24;25 29\tlung upper lobe\n"
           "T2\tDisorder 19 24;25 29\tupper lobe\n"
           "T3\tDisorder 5 11;12 14\tcancer in\n")
    docs, stats = read_brat(make(tmp_path, text, ann))
    t1, t2, t3 = docs[0].spans
    assert t1.fragments == (Span(0, 4), Span(19, 29))
    assert (t2.span, t2.fragments) == (Span(19, 29), ())
    assert (t3.span, t3.fragments) == (Span(5, 14), ())
    assert (stats.discontinuous, stats.joined) == (1, 3)
    assert stats.notes() == ("3 entities had fragments separated only by white space, joined "
                             "into one fragment (brat splits a span at a line break).",)


def test_overlapping_fragments_are_an_error(tmp_path):
    make(tmp_path, "New and old York", "T1\tLOC 0 7;4 16\tNew and and old York\n")
    with pytest.raises(InvalidSpanError, match=r"doc.ann, line 1: the fragments '0 7;4 16' of "
                                               r"T1 in document 'doc': fragments \[0, 7\) and "
                                               r"\[4, 16\) overlap"):
        read_brat(tmp_path)


def test_write_brat_writes_fragments_and_reads_them_back(tmp_path):
    doc = Document("d", [Entity.from_fragments([(0, 4), (19, 29)], "Disorder"),
                         (5, 11, "Disorder")], "lung cancer in the upper lobe was found")
    write_brat([doc], tmp_path)
    assert (tmp_path / "d.ann").read_text() == (
        "T1\tDisorder 0 4;19 29\tlung upper lobe\nT2\tDisorder 5 11\tcancer\n")
    assert read_brat(tmp_path).documents == [doc]
    with pytest.raises(ValueError, match="Document 'd' has ignore regions"):
        write_brat([Document("d", [], "text", ignore=[(0, 4)])], tmp_path, overwrite=True)


def test_other_annotations_are_counted_and_ignored(tmp_path):
    ann = "\n".join([
        "T1\tPER 0 4\tAnna", "T2\tLOC 11 17\tBerlin", "A1\tNegated T1", "M2\tConfidence T1 High",
        "R1\tLives Arg1:T1 Arg2:T2", "E1\tMove:T1 Dest:T2", "N1\tReference T2 GeoNames:2950159",
        "#1\tAnnotatorNotes T1\tcheck this", "*\tEquiv T1 T2", "",
    ])
    make(tmp_path, "Anna lives Berlin", ann)
    docs, stats = read_brat(tmp_path)
    assert spans(docs[0]) == [(0, 4, "PER"), (11, 17, "LOC")]
    assert dict(stats.ignored) == {"attribute": 2, "equivalence": 1, "event": 1, "normalization": 1,
                                   "note": 1, "relation": 1}
    assert "Ignored 2 attribute line(s)." in stats.notes()


def test_text_mismatch_names_file_line_and_both_strings(tmp_path):
    make(tmp_path, "Anna lives in Berlin", "T1\tPER 0 4\tAnna\nT2\tLOC 14 20\tBerlim\n")
    with pytest.raises(FormatError, match=r"doc.ann, line 2: the text of T2 is 'Berlim' but the "
                                          r"\.txt file has 'Berlin' at 14 20") as info:
        read_brat(tmp_path)
    assert info.value.line == 2


def test_a_span_beyond_a_text_of_one_character_says_1_character(tmp_path):
    make(tmp_path, "A", "T1\tPER 0 4\tAnna")
    with pytest.raises(InvalidSpanError, match="'doc' ends beyond the text, which has 1 character;"):
        read_brat(tmp_path)


@pytest.mark.parametrize(
    ("ann", "message"),
    [
        ("T1\tPER 0 99\tAnna", r"doc.ann, line 1: span \(0, 99, 'PER'\) of T1 in document 'doc' "
                               "ends beyond the text, which has 10 characters"),
        ("T1\tPER 4 0\tAnna", r"line 1: span \(4, 0, 'PER'\) of T1 .* has start > end"),
    ],
)
def test_offsets_out_of_range_or_reversed(tmp_path, ann, message):
    make(tmp_path, "Anna lives", ann)
    with pytest.raises(InvalidSpanError, match=message) as info:
        read_brat(tmp_path)
    assert info.value.document == "doc"


@pytest.mark.parametrize(
    ("ann", "message"),
    [
        ("X1\tfoo", r"line 1: unknown annotation 'X1'"),
        ("T1\tPER 0 four\tAnna", r"line 1: cannot read the offsets '0 four' of T1 \('four' is "
                                  r"not a number in the digits 0-9\); expected 'START END' or "
                                  r"'START END;START END\.\.\.', each offset a character index "
                                  r"written with the digits 0-9 alone\.$"),
        ("T1\tPER +0 4\tAnna", r"offsets '\+0 4' of T1 \('\+0' is not a number in the digits"),
        ("T1\tPER 0 1_0\tAnna lives", r"offsets '0 1_0' of T1 \('1_0' is not a number in the"),
        ("T1\tPER \u0660 \u0664\tAnna", r"offsets '\u0660 \u0664' of T1 \('\u0660' is not a "
                                         r"number in the digits 0-9\)"),
        ("T1\tPER -1 4\tAnna", r"offsets '-1 4' of T1 \('-1' is not a number in the digits"),
        ("T1\tPER 0 4;5\tAnna", r"offsets '0 4;5' of T1 \('5' is not two offsets\)"),
        ("T1\tPER 0\u20034\tAnna", r"offsets '0\\u20034' of T1 \(they are separated by "
                                   r"'\\u2003', not by spaces\)"),
        ("T1\tPER 0\x1c4\tAnna", r"offsets '0\\x1c4' of T1 \(they are separated by '\\x1c', "
                                 r"not by spaces\)"),
        ("T1\tPER 0 4;5\x1f9\tAnna", r"\(they are separated by '\\x1f', not by spaces\)"),
        ("T1\tPER 0\x0b4\tAnna", r"\(they are separated by '\\x0b', not by spaces\)"),
        ("T1\tPER 0  4\tAnna", r"offsets '0  4' of T1 \('0  4' is not two offsets separated by "
                               r"one space\); expected 'START END'"),
        ("T1\tPER  0 4\tAnna", r"offsets ' 0 4' of T1 \(' 0 4' is not two offsets separated"),
        ("T1\tPER 0 4; 5 9\tAnna", r"\(' 5 9' is not two offsets separated by one space\)"),
        ("T1\tPER 0 4 \tAnna", r"\('0 4 ' is not two offsets separated by one space\)"),
        ("T1\tPER 0 " + "4" * 5000 + "\tAnna", r"\(an offset has more digits than Python reads\)"),
        ("T1", r"line 1: expected 'ID<TAB>LABEL START END<TAB>TEXT'"),
        ("T1\t 0 4\tAnna", r"line 1: T1 has no label \(' 0 4' begins with a space\); a "
                           r"text-bound annotation line is 'T1<TAB>LABEL START END<TAB>TEXT': "
                           r"write the entity's label before its offsets \(e\.g\. "
                           r"'T1<TAB>PER 0 4'\)\.$"),
        ("T1\tPER 0 4\tAnna\nT1\tPER 5 10\tlives", "line 2: annotation id 'T1' was already used "
                                                  "on line 1"),
    ],
)
def test_malformed_ann_lines(tmp_path, ann, message):
    make(tmp_path, "Anna lives", ann)
    with pytest.raises(FormatError, match=message):
        read_brat(tmp_path)


def test_crlf_and_bom_in_ann_files(tmp_path):
    make(tmp_path, b"Anna lives", b"\xef\xbb\xbfT1\tPER 0 4\tAnna\r\n\r\nT2\tV 5 10\tlives\r\n",
         raw=True)
    docs, _ = read_brat(tmp_path)
    assert spans(docs[0]) == [(0, 4, "PER"), (5, 10, "V")]


@pytest.mark.parametrize("encoding", ["utf-16", "utf-32", "utf-8-sig", "utf-8"])
def test_a_folder_converted_keeps_the_byte_order_and_marks_of_each_file(tmp_path, encoding):
    """Each file as a single file is written back: in its byte order, with the mark it began with.

    The mark of a .txt file is character 0 of the text; that of a .ann file, which the reader
    skips, is written back as a CoNLL file's is.
    """
    src, out = tmp_path / "in", tmp_path / "out"
    (src / "sub").mkdir(parents=True)
    if encoding.startswith("utf-8"):  # the codec's mark, or none
        orders = [("utf-8", codecs.BOM_UTF8 if encoding == "utf-8-sig" else b"")]
    else:  # a file of each byte order, under its mark
        orders = [(f"{encoding}-{o}", "\ufeff".encode(f"{encoding}-{o}")) for o in ("le", "be")]
    files = {}
    for k, (codec, mark) in enumerate(orders):
        # U+FEFF first: after the codec's mark, or the file's own mark in utf-8
        text, ann = "\ufeffAnna flew", "T1\tPER 1 5\tAnna\n"
        files[f"d{k}.txt"] = mark + text.encode(codec)
        files[f"d{k}.ann"] = mark + ("\ufeff" + ann).encode(codec)
        files[f"sub/e{k}.txt"] = mark + "Bo ran".encode(codec)  # no .ann: one is written
    for name, data in files.items():
        (src / name).write_bytes(data)
    res = nerscore.convert_file(src, out, encoding=encoding, to_format="brat")
    assert not any("byte-order" in n for n in res.notes())
    for name, data in files.items():
        assert (out / name).read_bytes() == data, name
    for k, (_, mark) in enumerate(orders):
        assert (out / f"sub/e{k}.ann").read_bytes() == mark  # in the order of its .txt
    name = f"d{len(orders) - 1}"  # a pair given by its .ann file (big-endian, where two orders)
    res = nerscore.convert_file(src / f"{name}.ann", tmp_path / "one", encoding=encoding,
                                to_format="brat")
    assert not any("byte-order" in n for n in res.notes())
    assert (tmp_path / "one" / f"{name}.ann").read_bytes() == files[f"{name}.ann"]


@pytest.mark.parametrize("encoding", ["utf-8", "utf-16-le"])
def test_the_marks_of_ann_files_converted_to_another_format_are_counted(tmp_path, encoding):
    """An output of another format goes without the marks of the .ann files: one note counts them.

    The mark of a .txt file is character 0 of the text: it is written with it, and the offsets
    still count it.
    """
    src = tmp_path / "in"
    (src / "sub").mkdir(parents=True)
    mark = "\ufeff".encode(encoding)
    files = {"d1.txt": mark + "Anna flew".encode(encoding),
             "d1.ann": mark + "T1\tPER 1 5\tAnna\n".encode(encoding),
             "d2.txt": "Bo ran".encode(encoding),
             "d2.ann": mark + "T1\tPER 0 2\tBo\n".encode(encoding),
             "d3.txt": "Cy sat".encode(encoding), "d3.ann": "T1\tPER 0 2\tCy\n".encode(encoding),
             "sub/e.txt": mark + "Di".encode(encoding)}  # no .ann: its text keeps the mark
    for name, data in files.items():
        (src / name).write_bytes(data)
    out = tmp_path / "out.jsonl"
    name = codecs.lookup(encoding).name.upper()
    res = nerscore.convert_file(src, out, encoding=encoding)
    assert [n for n in res.notes() if "byte-order" in n] == [
        f"2 .ann files of {src} began with a {name} byte-order mark, not written to {out}."]
    docs = {d.id: d for d in read_jsonl(out, encoding=encoding)}
    assert docs["d1"].text == "\ufeffAnna flew"
    assert [docs["d1"].text[e.start:e.end] for e in docs["d1"].spans] == ["Anna"]
    assert docs["sub/e"].text == "\ufeffDi"
    (src / "d1.ann").write_bytes(files["d1.ann"].removeprefix(mark))
    res = nerscore.convert_file(src, tmp_path / "out.conll", encoding=encoding,
                                misaligned="expand", to_scheme="IOB2")
    assert (f"{src / 'd2.ann'} began with a {name} byte-order mark, not written to "
            f"{tmp_path / 'out.conll'}.") in res.notes()  # one is named
    res = nerscore.convert_file(src, tmp_path / "out", encoding=encoding, to_format="brat")
    assert not any("byte-order" in n for n in res.notes())  # BRAT writes them back


def test_a_pair_given_by_its_txt_file_notes_the_mark_of_its_ann_file_only(tmp_path):
    """The mark of the .txt file is kept in the text; that of the .ann file, the one lost, is named."""
    txt, ann, out = tmp_path / "d.txt", tmp_path / "d.ann", tmp_path / "d.jsonl"
    txt.write_bytes(codecs.BOM_UTF8 + b"Anna flew")
    ann.write_bytes(b"T1\tPER 1 5\tAnna\n")
    res = nerscore.convert_file(txt, out, from_format="brat")
    assert not any("byte-order" in n for n in res.notes())
    assert out.read_bytes().startswith(b'{"id": "d", "text": "\xef\xbb\xbfAnna flew"')
    ann.write_bytes(codecs.BOM_UTF8 + ann.read_bytes())
    lost = f"{ann} began with a UTF-8 byte-order mark, not written to {out}."
    for given in (txt, ann):
        assert [n for n in nerscore.convert_file(given, out, from_format="brat").notes()
                if "byte-order" in n] == [lost]


def test_crlf_in_the_text_counts_two_characters(tmp_path):
    make(tmp_path, b"Anna\r\nlives", b"T1\tV 6 11\tlives\n", raw=True)
    docs, _ = read_brat(tmp_path)
    assert docs[0].span_texts() == ["lives"]
    make(tmp_path, b"Anna\r\nlives", b"T1\tV 5 10\tlives\n", raw=True)
    with pytest.raises(FormatError, match="CRLF line endings, counted as two characters"):
        read_brat(tmp_path)


def test_newline_inside_an_entity_matches_a_space(tmp_path):
    make(tmp_path, "New\nYork", "T1\tLOC 0 8\tNew York\n")
    docs, _ = read_brat(tmp_path)
    assert spans(docs[0]) == [(0, 8, "LOC")]
    out = tmp_path / "out"
    write_brat(docs, out)
    assert read_brat(out).documents == docs


def test_missing_files(tmp_path):
    (tmp_path / "a.txt").write_text("Anna")
    docs, stats = read_brat(tmp_path)
    assert docs == [Document("a", (), "Anna")]
    assert stats.without_ann == ("a",)
    assert stats.notes() == ("1 document(s) have no .ann file and were read as having no "
                             "entities: 'a'.",)
    (tmp_path / "b.ann").write_text("T1\tX 0 1\tA\n")
    with pytest.raises(FormatError, match=r"b.ann: no text file 'b.txt' beside it"):
        read_brat(tmp_path)
    with pytest.raises(FileNotFoundError):
        read_brat(tmp_path / "nothing")


def test_encoding_errors_name_the_option(tmp_path):
    make(tmp_path, "Zoë".encode("latin-1"), b"T1\tPER 0 3\tZo\xeb\n", raw=True)
    with pytest.raises(FormatError, match=r"Cannot decode byte 0xeb as utf-8 \(.*doc\.txt, line 1\)"):
        read_brat(tmp_path)
    assert read_brat(tmp_path, encoding="latin-1").documents[0].span_texts() == ["Zoë"]


def test_write_brat_refuses_what_brat_cannot_hold(tmp_path):
    with pytest.raises(ValueError, match="Document 'a' has no text"):
        write_brat([Document("a", [(0, 1, "X")])], tmp_path)
    with pytest.raises(ValueError, match=r"Document id '\.\./a' cannot be used"):
        write_brat([Document("../a", [], "x")], tmp_path)
    with pytest.raises(ValueError, match="Label 'A B' of document 'a' cannot be written"):
        write_brat([Document("a", [(0, 1, "A B")], "x")], tmp_path)
    write_brat([Document("sub/a", [(0, 1, "X")], "x")], tmp_path)
    with pytest.raises(FileExistsError, match="pass overwrite=True"):
        write_brat([Document("sub/a", [], "y")], tmp_path)
    write_brat([Document("sub/a", [], "y")], tmp_path, overwrite=True)
    assert read_brat(tmp_path).documents == [Document("sub/a", [], "y")]


def test_stats_notes_plural_and_many_missing():
    stats = BratStats(discontinuous=2, joined=1, without_ann=tuple("abcdefg"))
    assert stats.notes() == (
        "1 entity had fragments separated only by white space, joined into one fragment "
        "(brat splits a span at a line break).",
        "7 document(s) have no .ann file and were read as having no entities: 'a', 'b', 'c', "
        "'d', 'e', ... (2 more).",
    )


def test_copy_of_data_folder_reads_the_same(tmp_path):
    shutil.copytree(DATA / "esp", tmp_path / "esp")
    docs, stats = read_brat(tmp_path)
    assert len(docs) == 10
    assert all(d.id.startswith("esp/") for d in docs)
    assert stats.entities == sum(len(d.spans) for d in docs)


def test_an_empty_folder_says_it_has_no_brat_files(tmp_path, capsys):
    (tmp_path / "notes.md").write_text("nothing here")
    with pytest.raises(FormatError, match=r"the folder has no \.ann/\.txt files") as info:
        read_brat(tmp_path)
    assert info.value.source == str(tmp_path)
    from nerscore.cli import main

    gold, pred = tmp_path / "gold", tmp_path / "pred"
    gold.mkdir()
    pred.mkdir()
    assert main(["score", str(gold), str(pred)]) == 1
    err = capsys.readouterr().err
    assert f"{gold}: the folder has no .ann/.txt files" in err
    assert "without ids" not in err


def test_write_brat_names_the_document_and_writes_nothing(tmp_path):
    docs = [Document("d1", [(0, 1, "X")], "x"),
            Document("../d2", [], "y", source="a.jsonl", line=7)]
    with pytest.raises(ValueError, match=re.escape(
            "a.jsonl, line 7: document id '../d2' cannot be used as a BRAT file name")):
        write_brat(docs, tmp_path / "out")
    assert not (tmp_path / "out").exists()
    twice = [Document("d1", [], "x"), Document("d1", [], "y")]
    with pytest.raises(ValueError, match="Document id 'd1' is that of an earlier document"):
        write_brat(twice, tmp_path / "out", overwrite=True)
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize(
    ("files", "expected"),
    [
        (["ana/d1.ann", "ben/d1.txt", "ben/d2.ann"], ["ana", "ben"]),
        (["annotation/ana/d1.ann", "annotation/ben/d1.ann", "annotation.conf"],
         ["annotation/ana", "annotation/ben"]),  # down through a folder of one folder
        (["ana/b1/d1.ann", "ben/b1/d1.ann", "cai/notes.md", "README.txt"], ["ana", "ben"]),
        (["ana/b1/d1.ann", "ben/b2/d1.ann"], []),  # ids within a set: b1/d1 and b2/d1
        (["train/d1.ann", "test/d2.ann"], []),  # no document of the same name
        (["ana/d1.ann"], []),  # one set
        (["d1.ann", "sub/d1.ann"], []),  # documents beside one folder: the folder is no set
    ],
)
def test_annotation_sets_are_folders_with_documents_of_the_same_names(tmp_path, files,
                                                                      expected):
    from nerscore.io.brat import annotation_sets

    for name in files:
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("", encoding="utf-8")
    assert annotation_sets(tmp_path) == expected
    assert annotation_sets(tmp_path / "missing") == []
