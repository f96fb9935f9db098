"""spaCy ``.spacy`` files: reading, writing, and spaCy's own scorer on the same docs."""

from __future__ import annotations

import json

import pytest

import nerscore
from nerscore.cli import main
from nerscore.errors import FormatError, OptionError
from nerscore.io.docbin import read_docbin, write_docbin
from nerscore.io.formats import guess_format
from nerscore.values.documents import Document
from tests.paths import DATA

spacy = pytest.importorskip("spacy")
from spacy.scorer import Scorer, get_ner_prf  # noqa: E402
from spacy.tokens import Doc, DocBin, Span  # noqa: E402
from spacy.training import Example  # noqa: E402

GOLD = DATA / "spacy" / "conll2000_gold.spacy"
PRED = DATA / "spacy" / "conll2000_pred.spacy"


def _docs(path):
    return list(DocBin().from_disk(path).get_docs(spacy.vocab.Vocab()))


@pytest.mark.parametrize("units", ["char", "token"])
def test_scores_equal_spacys_scorer_on_the_same_docs(units):
    examples = [Example(p, g) for p, g in zip(_docs(PRED), _docs(GOLD), strict=True)]
    theirs = Scorer.score_spans(examples, "ents")
    prf = get_ner_prf(examples)
    ours = nerscore.score_files(GOLD, PRED, gold_options={"units": units},
                                pred_options={"units": units}, zero_division=0).report
    for key, value in (("p", ours.micro.precision), ("r", ours.micro.recall),
                       ("f", ours.micro.f1)):
        # spaCy adds 1e-100 to every denominator: equal to the last bits
        assert theirs[f"ents_{key}"] == pytest.approx(value, rel=1e-12, abs=0)
        assert prf[f"ents_{key}"] == pytest.approx(value, rel=1e-12, abs=0)
    assert set(theirs["ents_per_type"]) == set(ours.labels)
    for label, row in ours.labels.items():
        for key, value in (("p", row.precision), ("r", row.recall), ("f", row.f1)):
            assert theirs["ents_per_type"][label][key] == pytest.approx(value, abs=1e-12)
            assert prf["ents_per_type"].get(label, {"p": 0.0, "r": 0.0, "f": 0.0})[key] == \
                pytest.approx(value, abs=1e-12)


def test_the_docbins_hold_the_conll_example():
    conll = nerscore.score_files(DATA.parent.parent / "examples" / "conll2000" / "gold.conll",
                                 DATA.parent.parent / "examples" / "conll2000" / "pred.conll")
    ours = nerscore.score_files(GOLD, PRED)
    assert ours.report.counts.to_dict() == conll.report.counts.to_dict()
    assert ours.streamed


def test_character_and_token_offsets_and_texts():
    docs, notes = read_docbin(GOLD)
    assert notes == ()
    assert docs[0].id == "1"
    assert docs[0].text.startswith("Rockwell International Corp. 's")
    assert [(e.start, e.end, e.label) for e in docs[0].spans[:2]] == [(0, 28, "NP"),
                                                                      (29, 42, "NP")]
    tokens, _ = read_docbin(GOLD, units="token")
    assert [(e.start, e.end) for e in tokens[0].spans[:2]] == [(0, 3), (3, 6)]
    assert tokens[0].text is None
    assert guess_format(GOLD).name == "spacy"


def test_span_groups_and_missing_annotation_are_read_and_counted(tmp_path):
    vocab = spacy.vocab.Vocab()
    doc = Doc(vocab, words=["Anna", "met", "Bo", "in", "Paris"],
              ents=["B-PER", "O", "B-PER", "", ""])  # the last two tokens: no annotation
    doc.spans["sc"] = [Span(doc, 0, 1, label="PER"), doc[0:3]]
    path = tmp_path / "d.spacy"
    DocBin(docs=[doc, Doc(vocab, words=["x"])]).to_disk(path)
    docs, notes = read_docbin(path)
    assert [(e.start, e.end, e.label) for e in docs[0].spans] == [(0, 4, "PER"), (9, 11, "PER")]
    assert notes == (f"{path}: 3 tokens in 2 documents have no entity annotation (missing, "
                     "not O); they are read as outside every entity.",)
    docs, notes = read_docbin(path, spans_key="sc")
    assert [(e.start, e.end, e.label) for e in docs[0].spans] == [(0, 4, "PER"), (0, 11, "")]
    assert notes == (f"{path}: 1 document have no span group 'sc'; read as having no span.",)


def test_round_trip_through_json_lines_loses_nothing(tmp_path, capsys):
    jsonl = tmp_path / "gold.jsonl"
    back = tmp_path / "back.spacy"
    assert main(["convert", str(GOLD), str(jsonl)]) == 0
    assert main(["convert", str(jsonl), str(back)]) == 0
    capsys.readouterr()
    first, _ = read_docbin(GOLD)
    second, _ = read_docbin(back)
    assert [(d.text, d.spans) for d in first] == [(d.text, d.spans) for d in second]
    assert main(["score", str(GOLD), str(back), "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["overall"]["f1"] == 1.0


def test_writing_keeps_texts_with_any_whitespace(tmp_path):
    docs = [Document("a", [(0, 4, "PER"), (10, 19, "LOC")], "Anna\n\t in  Le Mans ."),
            Document("b", [], "")]
    path = tmp_path / "w.spacy"
    assert write_docbin(path, docs) == 2
    got, _ = read_docbin(path)
    assert [(d.text, [(e.start, e.end, e.label) for e in d.spans]) for d in got] == [
        ("Anna\n\t in  Le Mans .", [(0, 4, "PER"), (10, 19, "LOC")]), ("", [])]


def test_write_errors(tmp_path):
    with pytest.raises(FormatError, match="Document 'a' has no text"):
        write_docbin(tmp_path / "x.spacy", [Document("a", [(0, 1, "X")])])
    with pytest.raises(FormatError, match=r"the span 2-6 \(LOC\) is empty or overlaps "
                                          r"another; .*\(spans_key='KEY'\)"):
        write_docbin(tmp_path / "x.spacy", [Document("a", [(0, 4, "PER"), (2, 6, "LOC")],
                                                     "Anna Smith")])
    write_docbin(tmp_path / "g.spacy", [Document("a", [(0, 4, "PER"), (2, 6, "LOC")],
                                                 "Anna Smith")], spans_key="sc")
    docs, _ = read_docbin(tmp_path / "g.spacy", spans_key="sc")
    assert [(e.start, e.end) for e in docs[0].spans] == [(0, 4), (2, 6)]
    with pytest.raises(FormatError, match=r"the span 10-10 \(END\) cannot be a spaCy span"):
        write_docbin(tmp_path / "e.spacy", [Document("a", [(0, 4, "PER"), (10, 10, "END")],
                                                     "Anna Smith")], spans_key="sc")


def test_convert_names_the_file_of_spans_doc_ents_cannot_hold(tmp_path, capsys):
    src = tmp_path / "d.jsonl"
    src.write_text('{"id": "a", "text": "Anna", "spans": []}\n'
                   '{"id": "b", "text": "Anna Smith", "spans": [[0, 4, "PER"], [2, 6, "LOC"]]}\n',
                   encoding="utf-8")
    assert main(["convert", str(src), str(tmp_path / "d.spacy")]) == 1
    assert capsys.readouterr().err == (
        f"nerscore convert: error: {src}, line 2: document 'b': the span 2-6 (LOC) is empty or "
        "overlaps another; spaCy's doc.ents cannot hold it. Remove it (a label operation such as "
        "--drop LOC does), write the spans to a span group doc.spans[KEY] (--spans-key KEY), "
        "or convert to a format that holds them (JSON Lines, Parquet, BRAT).\n")


def test_convert_with_spans_key_writes_overlapping_spans_to_a_span_group(tmp_path, capsys):
    src = tmp_path / "nested.jsonl"
    nerscore.write_jsonl([
        Document("a", [(0, 12, "ORG"), (8, 12, "LOC"), (8, 12, "CITY")], "Bank of Rome"),
        Document("b", [{"start": 0, "end": 12, "label": "PER", "fragments": [[0, 4], [9, 12]]},
                       (0, 4, "PER"), (9, 12, "PER")], "Anna and Bob left", ignore=[(13, 17)]),
        Document("c", [], "nothing here"),
    ], src)
    out = tmp_path / "nested.spacy"
    assert main(["convert", str(src), str(out), "--spans-key", "sc"]) == 0
    assert capsys.readouterr().err == (
        "nerscore convert: warning: 1 discontinuous entity written as its extent (the output "
        "cannot hold fragments).\n"
        "nerscore convert: warning: 1 ignore region not kept (the output cannot hold it).\n"
        "nerscore convert: warning: 3 document ids not kept (a .spacy file stores no ids: its "
        "documents are read back as 1, 2, ... in file order).\n"
        f"nerscore convert: note: wrote 3 documents (jsonl to spacy) to {out}\n")
    docs = _docs(out)
    assert [[(s.start_char, s.end_char, s.label_) for s in d.spans["sc"]] for d in docs] == [
        [(0, 12, "ORG"), (8, 12, "LOC"), (8, 12, "CITY")],
        [(0, 12, "PER"), (0, 4, "PER"), (9, 12, "PER")], []]
    # doc.ents is left unannotated (missing), not "no entity"
    assert all(t.ent_iob == 0 for d in docs for t in d)
    assert not any(d.ents for d in docs)
    back = tmp_path / "back.jsonl"
    assert main(["convert", str(out), str(back), "--spans-key", "sc"]) == 0
    assert capsys.readouterr().err == f"nerscore convert: note: wrote 3 documents (spacy to " \
                                      f"jsonl) to {back}\n"
    read = nerscore.read_jsonl(back)
    assert [(d.text, [(e.start, e.end, e.label, e.fragments) for e in d.spans]) for d in read] == [
        ("Bank of Rome", [(0, 12, "ORG", ()), (8, 12, "LOC", ()), (8, 12, "CITY", ())]),
        ("Anna and Bob left", [(0, 12, "PER", ()), (0, 4, "PER", ()), (9, 12, "PER", ())]),
        ("nothing here", [])]
    # .spacy to .spacy: the key names the group read and the group written
    again = tmp_path / "again.spacy"
    assert main(["convert", str(out), str(again), "--spans-key", "sc"]) == 0
    assert [[(s.start, s.end, s.label_) for s in d.spans["sc"]] for d in _docs(again)] == \
        [[(s.start, s.end, s.label_) for s in d.spans["sc"]] for d in docs]
    # read without the key: doc.ents, unannotated, as the note says
    docs_ents, notes = read_docbin(out)
    assert [d.spans for d in docs_ents] == [(), (), ()]
    assert notes == (f"{out}: 9 tokens in 3 documents have no entity annotation (missing, not "
                     "O); they are read as outside every entity.",)


def test_spans_key_is_refused_when_neither_side_is_a_spacy_file(tmp_path, capsys):
    src = tmp_path / "d.jsonl"
    src.write_text('{"id": "a", "text": "Anna", "spans": [[0, 4, "PER"]]}\n', encoding="utf-8")
    assert main(["convert", str(src), str(tmp_path / "d.conll"), "--spans-key", "sc"]) == 2
    assert ("nerscore convert: error: --spans-key names a span group of .spacy files; IN is a "
            "jsonl file and OUT a conll file: leave it out. See") in capsys.readouterr().err


def test_convert_help_says_spans_key_names_the_group_read_and_written(capsys):
    assert main(["convert", "--help"]) == 0
    text = " ".join(capsys.readouterr().out.split())
    assert ("--spans-key KEY spaCy .spacy files: the span group doc.spans[KEY] instead of "
            "doc.ents, read from IN and written to OUT (the same KEY when both are .spacy); "
            "written spans may overlap, and OUT's doc.ents is left unannotated") in text
    assert "nerscore convert nested.jsonl nested.spacy --spans-key sc" in text


def _span_group_file(path, *groups):
    """A .spacy file of one document per group of (start, end, label) token spans in doc.spans["sc"]."""
    vocab = spacy.vocab.Vocab()
    docs = []
    for spans in groups:
        doc = Doc(vocab, words=["Bank", "of", "Rome", "opened"])
        doc.spans["sc"] = [Span(doc, a, b, label=label) for a, b, label in spans]
        docs.append(doc)
    DocBin(docs=docs).to_disk(path)
    return str(path)


def test_agree_compares_the_overlapping_spans_of_a_span_group(tmp_path, capsys):
    a = _span_group_file(tmp_path / "a.spacy", [(0, 3, "ORG"), (2, 3, "LOC")],
                         [(0, 1, "ORG")])
    b = _span_group_file(tmp_path / "b.spacy", [(0, 3, "ORG"), (2, 3, "GPE")],
                         [(0, 1, "ORG")])
    assert main(["agree", a, b, "--spans-key", "sc", "--resamples", "0",
                 "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["f1"]["matrix"] == [[1.0, 2 / 3], [2 / 3, 1.0]]
    assert data["disagreements"]["counts"] == {"label": 1}
    # read by doc.ents, which these files leave unannotated: no entity at all
    assert main(["agree", a, b, "--resamples", "0"]) == 0
    assert "have no entity annotation" in capsys.readouterr().err


def test_adjudicate_writes_overlapping_spans_to_a_span_group(tmp_path, capsys):
    files = [_span_group_file(tmp_path / f"{k}.spacy", [(0, 3, "ORG"), (2, 3, label)])
             for k, label in (("a", "LOC"), ("b", "LOC"), ("c", "GPE"))]
    out = tmp_path / "gold.spacy"
    assert main(["adjudicate", *files, "--spans-key", "sc", "-o", str(out)]) == 0
    assert "3 candidate entities: 2 accepted (1 unanimous), 1 below the quorum" in \
        capsys.readouterr().err
    docs = _docs(out)
    assert [(s.start, s.end, s.label_) for s in docs[0].spans["sc"]] == [(0, 3, "ORG"),
                                                                      (2, 3, "LOC")]
    assert not docs[0].ents
    read, _ = read_docbin(out, spans_key="sc")
    assert [(e.start, e.end, e.label) for e in read[0].spans] == [(0, 12, "ORG"), (8, 12, "LOC")]
    # the group read from .spacy FILEs, written to a file of another format
    jsonl = tmp_path / "gold.jsonl"
    assert main(["adjudicate", *files, "--spans-key", "sc", "-o", str(jsonl)]) == 0
    assert [(e.start, e.end, e.label) for e in nerscore.read_jsonl(jsonl)[0].spans] == [
        (0, 12, "ORG"), (8, 12, "LOC")]
    # and to doc.ents without the key: refused, with advice that adjudicate now takes
    inputs = []
    for name in ("x.jsonl", "y.jsonl"):
        (tmp_path / name).write_text(jsonl.read_text(encoding="utf-8"), encoding="utf-8")
        inputs.append(str(tmp_path / name))
    capsys.readouterr()
    assert main(["adjudicate", *inputs, "-o", str(tmp_path / "ents.spacy")]) == 1
    assert "(--spans-key KEY)" in capsys.readouterr().err
    assert main(["adjudicate", *inputs, "--spans-key", "sc", "-o", str(out)]) == 0
    doc = _docs(out)[0]
    assert [(s.start, s.end, s.label_) for s in doc.spans["sc"]] == [(0, 3, "ORG"),
                                                                 (2, 3, "LOC")]


def test_spans_key_of_agree_and_adjudicate_needs_a_spacy_file(tmp_path, capsys):
    files = []
    for name in ("a.jsonl", "b.jsonl"):
        (tmp_path / name).write_text('{"id": "a", "text": "Anna", "spans": [[0, 4, "PER"]]}\n',
                                     encoding="utf-8")
        files.append(str(tmp_path / name))
    assert main(["agree", *files, "--spans-key", "sc"]) == 2
    assert ("nerscore agree: error: --spans-key applies to no input; the inputs are jsonl "
            "files, whose readers do not take it") in capsys.readouterr().err
    assert main(["adjudicate", *files, "--spans-key", "sc", "-o",
                 str(tmp_path / "gold.jsonl")]) == 2
    assert ("nerscore adjudicate: error: --spans-key names a span group of .spacy files; the "
            "FILEs are jsonl files and --output a jsonl file: leave it out. See") in capsys.readouterr().err
    assert not (tmp_path / "gold.jsonl").exists()
    assert main(["adjudicate", "--help"]) == 0
    text = " ".join(capsys.readouterr().out.split())
    assert ("--spans-key KEY spaCy .spacy files: the span group doc.spans[KEY] instead of "
            "doc.ents, read from every FILE and written to the output") in text


def test_convert_counts_the_ids_a_docbin_cannot_keep(tmp_path):
    src = tmp_path / "d.jsonl"
    src.write_text("".join(f'{{"id": "{i}", "text": "Anna", "spans": [[0, 4, "PER"]]}}\n'
                           for i in ("1", "doc-2", "3", "x")), encoding="utf-8")
    res = nerscore.convert_file(src, tmp_path / "d.spacy")
    assert res.notes() == ("2 document ids not kept (a .spacy file stores no ids: its documents "
                           "are read back as 1, 2, ... in file order).",)
    docs, _ = read_docbin(tmp_path / "d.spacy")
    assert [d.id for d in docs] == ["1", "2", "3", "4"]


def test_read_errors(tmp_path):
    bad = tmp_path / "bad.spacy"
    bad.write_bytes(b"not a docbin")
    with pytest.raises(FormatError, match=r"bad\.spacy: not a spaCy DocBin"):
        read_docbin(bad)
    with pytest.raises(OptionError, match="Expected `units` to be one of 'char', 'token'"):
        read_docbin(GOLD, units="word")


def test_command_line_options(capsys):
    assert main(["score", str(GOLD), str(PRED), "--units", "token", "--spans-key", "x",
                 "--format", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["overall"]["n_gold"] == 0
    assert any("40 documents have no span group 'x'" in n for n in out["notes"])
