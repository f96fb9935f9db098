"""Fragments and ignore regions through the readers, the writers and convert_file."""

from __future__ import annotations

import json

import pytest

import nerscore
from nerscore import Document, Entity, Span
from nerscore.errors import FormatError, InvalidSpanError
from nerscore.io.brat import read_brat, write_brat
from nerscore.io.jsonl import iter_jsonl, read_jsonl, write_jsonl

TEXT = "lung cancer in the upper lobe was found"
LUNG = Entity.from_fragments([(0, 4), (19, 29)], "Disorder")
DOC = Document("d", [LUNG, (5, 11, "Disorder")], TEXT, ignore=[(30, 33), (34, 39, "Disorder")])


def test_jsonl_reads_and_writes_fragments_and_regions(tmp_path):
    path = tmp_path / "gold.jsonl"
    write_jsonl([DOC], path)
    line = json.loads(path.read_text())
    assert line["spans"][0] == {"start": 0, "end": 29, "label": "Disorder",
                                "fragments": [[0, 4], [19, 29]]}
    assert line["spans"][1] == {"start": 5, "end": 11, "label": "Disorder"}
    assert line["ignore"] == [[30, 33], [34, 39, "Disorder"]]
    assert read_jsonl(path) == [DOC]
    assert [d for c in iter_jsonl(path) for d in c] == [DOC]


@pytest.mark.parametrize(("record", "message"), [
    ({"spans": [{"start": 0, "end": 30, "label": "D", "fragments": [[0, 4], [19, 29]]}]},
     r"line 1: Span 0 \(0, 30, 'D'\) of document '1' has fragments \[\[0, 4\], \[19, 29\]\] "
     r"that span \[0, 29\), not \[0, 30\)"),
    ({"spans": [], "ignore": [[5, 2]]},
     r"line 1: Ignore region 0 \[5, 2\] of document '1' covers no unit"),
])
def test_jsonl_errors_name_file_and_line(tmp_path, record, message):
    path = tmp_path / "bad.jsonl"
    path.write_text(json.dumps({"text": TEXT, **record}) + "\n")
    with pytest.raises(InvalidSpanError, match=message):
        read_jsonl(path)


def test_jsonl_ignore_must_be_a_list(tmp_path):
    path = tmp_path / "bad.jsonl"
    path.write_text('{"spans": [], "ignore": "all"}\n')
    with pytest.raises(FormatError, match=r"bad.jsonl, line 1: expected 'ignore' to be a list"):
        read_jsonl(path)


def test_parquet_reads_and_writes_fragments_and_regions(tmp_path):
    pytest.importorskip("pyarrow")
    from nerscore.io.parquet import read_parquet, write_parquet_documents

    path = tmp_path / "gold.parquet"
    docs = [DOC, Document("e", [(0, 4, "X")], "Anna")]
    write_parquet_documents(path, docs)
    assert read_parquet(path) == docs


def test_scoring_files_keeps_fragments_and_regions(tmp_path):
    gold, pred = tmp_path / "gold.jsonl", tmp_path / "pred.jsonl"
    write_jsonl([DOC], gold)
    write_jsonl([Document("d", [(0, 29, "Disorder"), (5, 11, "Disorder"), (35, 39, "Disorder")],
                          TEXT)], pred)
    res = nerscore.score_files(gold, pred, zero_division=0.0)
    r = res.report
    assert (r.micro.tp, r.micro.fp, r.micro.fn) == (1, 1, 1)
    assert r.entities["gold"]["discontinuous"] == 1
    assert r.entities["pred"]["ignored"] == 1
    extent = nerscore.score_files(gold, pred, zero_division=0.0, discontinuous="extent").report
    assert (extent.micro.tp, extent.micro.fp, extent.micro.fn) == (2, 0, 0)


def test_convert_keeps_fragments_where_the_format_can_hold_them(tmp_path):
    src = tmp_path / "gold.jsonl"
    write_jsonl([DOC], src)
    res = nerscore.convert_file(src, tmp_path / "brat", to_format="brat")
    assert res.notes() == ("2 ignore regions not kept (the output cannot hold them).",)
    [back] = read_brat(tmp_path / "brat").documents
    assert back.spans == DOC.spans
    assert back.ignore == ()
    res = nerscore.convert_file(tmp_path / "brat", tmp_path / "again.jsonl")
    assert res.notes() == ()
    assert read_jsonl(tmp_path / "again.jsonl")[0].spans == DOC.spans


def test_convert_to_tags_writes_extents_and_counts_them(tmp_path):
    src = tmp_path / "gold.jsonl"
    write_jsonl([Document("d", [LUNG], TEXT, ignore=[(30, 33)])], src)
    res = nerscore.convert_file(src, tmp_path / "gold.conll")
    assert set(res.notes()) == {
        "1 discontinuous entity written as its extent (the output cannot hold fragments).",
        "1 ignore region not kept (the output cannot hold it).",
        "1 document id not kept (each document becomes one sentence).",
    }
    tags = nerscore.read_conll(tmp_path / "gold.conll").tags.to_lists()
    assert tags == [["B-Disorder", "I-Disorder", "I-Disorder", "I-Disorder", "I-Disorder",
                     "I-Disorder", "O", "O"]]


def test_convert_to_parquet_and_back_keeps_everything(tmp_path):
    pytest.importorskip("pyarrow")
    src = tmp_path / "gold.jsonl"
    write_jsonl([DOC], src)
    assert nerscore.convert_file(src, tmp_path / "g.parquet").notes() == ()
    assert nerscore.convert_file(tmp_path / "g.parquet", tmp_path / "g.jsonl").notes() == ()
    assert read_jsonl(tmp_path / "g.jsonl") == [DOC]


def test_brat_whitespace_split_fragments_score_as_one(tmp_path):
    """Splitting a fragment at white space, as brat does at a line break, changes nothing."""
    text = "lung cancer in the upper\nlobe was found"
    for name, ann in (("one", "T1\tDisorder 0 4;19 29\tlung upper lobe\n"),
                      ("split", "T1\tDisorder 0 4;19 24;25 29\tlung upper lobe\n")):
        (tmp_path / name).mkdir()
        (tmp_path / name / "d.txt").write_text(text)
        (tmp_path / name / "d.ann").write_text(ann)
    one, split = read_brat(tmp_path / "one"), read_brat(tmp_path / "split")
    assert one.documents == split.documents
    assert (one.stats.joined, split.stats.joined) == (0, 1)
    r = nerscore.evaluate(split.documents, one.documents)
    assert r.micro.f1 == 1.0


def test_char_to_token_spans_converts_fragment_by_fragment():
    text = "lung cancer in the upper\nlobe was found"
    tokens = text.split()
    conv = nerscore.char_spans_to_token_spans(
        Document("d", [Entity.from_fragments([(0, 4), (19, 24), (25, 29)], "D")], text),
        tokens, text=text)
    assert conv.spans == (Entity.from_fragments([(0, 1), (4, 6)], "D"),)
    back = nerscore.token_spans_to_char_spans([(4, 6, "D")], tokens, text=text)
    assert back == [Entity(Span(19, 29), "D")]
    with pytest.raises(InvalidSpanError, match=r"is discontinuous .* tags cannot encode"):
        nerscore.char_spans_to_tags([LUNG], TEXT.split(), text=TEXT)


def test_write_brat_refuses_ignore_regions(tmp_path):
    with pytest.raises(ValueError, match="has ignore regions, which BRAT files cannot hold"):
        write_brat([DOC], tmp_path)
