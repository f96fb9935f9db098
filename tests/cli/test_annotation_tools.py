"""Annotation-tool exports on the command line: annotators per side, round trips through convert."""

from __future__ import annotations

import json

import pytest

from nerscore.cli import main
from nerscore.io.doccano import read_doccano
from nerscore.io.jsonl import read_jsonl
from nerscore.io.label_studio import read_label_studio
from nerscore.io.prodigy import read_prodigy
from tests.paths import DATA

EXPORT = str(DATA / "label_studio" / "export.json")
LS = ("--gold-format", "label-studio", "--pred-format", "label-studio")


def run(capsys, *argv):
    status = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    assert "Traceback" not in err
    return status, out, err


def overall(out):
    o = json.loads(out)["overall"]
    return o["tp"], o["fp"], o["fn"]


def test_one_export_scores_an_annotator_against_the_predictions(capsys):
    status, out, err = run(capsys, "score", EXPORT, EXPORT, *LS, "--gold-annotator", "1",
                           "--format", "json")
    assert status == 0, err
    assert overall(out) == (3, 0, 1)  # the prediction misses 'Paris'
    # what reading annotator 1 counted; nothing for the predictions; not "the same file"
    assert json.loads(out)["notes"] == [f"{EXPORT}: 1 span(s) had offsets counting UTF-16 code "
                                        "units (characters beyond U+FFFF count two), converted "
                                        "to character offsets."]


def test_two_annotators_against_each_other(capsys):
    status, out, err = run(capsys, "score", EXPORT, EXPORT, *LS, "--gold-annotator", "1",
                           "--pred-annotator", "2", "--format", "json")
    assert status == 0, err
    # task 1: PER 'Anna Smith' vs 'Anna' (fn + fp), LOC (tp); task 2: annotator 2 cancelled it
    assert overall(out) == (1, 1, 3)
    assert any("without an annotation of '2'" in n for n in json.loads(out)["notes"])


def test_without_a_gold_annotator_the_error_lists_them(capsys):
    status, _, err = run(capsys, "score", EXPORT, EXPORT, *LS)
    assert status == 1
    assert "holds annotations of 2 annotators ('1', '2'); choose the gold one" in err
    assert "--gold-annotator NAME" in err


def test_compare_and_report_read_the_sides_of_an_export(capsys, tmp_path):
    status, out, err = run(capsys, "compare", EXPORT, EXPORT, EXPORT, *LS, "--gold-annotator",
                           "1", "--names", "a", "b", "--resamples", "10",
                           "--format", "json")
    assert status == 0, err
    assert [s["micro"]["recall"]["value"] for s in json.loads(out)["systems"]] == [0.75, 0.75]
    page = tmp_path / "r.html"
    status, _, err = run(capsys, "report", EXPORT, EXPORT, *LS, "--gold-annotator", "1",
                         "-o", page)
    assert status == 0, err
    assert "Paris" in page.read_text(encoding="utf-8")


def test_tool_options_are_refused_for_files_that_do_not_take_them(capsys, tmp_path):
    gold = tmp_path / "g.jsonl"
    gold.write_text('{"id": "1", "spans": []}\n', encoding="utf-8")
    status, _, err = run(capsys, "score", gold, gold, "--layer", "Entity")
    assert status == 2
    assert "--layer applies to no input" in err
    status, _, err = run(capsys, "score", gold, gold, "--gold-annotator", "1")
    assert status == 2
    assert "--gold-annotator applies to no input" in err


def test_webanno_gold_against_prodigy_predictions(capsys, tmp_path):
    web = tmp_path / "1850475491.tsv"  # named as the prodigy input hash: ids pair
    lines = (DATA / "webanno" / "news.tsv").read_text(encoding="utf-8").split("\n")
    web.write_text("\n".join(lines[:13]) + "\n", encoding="utf-8")
    status, out, err = run(capsys, "score", web, DATA / "prodigy" / "ner.jsonl", "--gold-format",
                           "webanno", "--pred-format", "prodigy", "--format", "json")
    assert status == 0, err
    # the prodigy file's second accepted example has no gold document: 2 false positives
    assert overall(out) == (2, 2, 0)


@pytest.mark.parametrize(("fmt", "source", "extra", "read"), [
    ("label-studio", EXPORT, ("--annotator", "1"), lambda p: read_label_studio(p).documents(
        "unknown")),
    ("doccano", str(DATA / "doccano" / "entities.jsonl"), (), lambda p: read_doccano(
        p).documents),
    ("prodigy", str(DATA / "prodigy" / "ner.jsonl"), (), lambda p: read_prodigy(p).documents),
])
def test_convert_there_and_back_keeps_every_span(capsys, tmp_path, fmt, source, extra, read):
    there, back, again = tmp_path / "a.jsonl", tmp_path / f"b.{fmt}", tmp_path / "c.jsonl"
    status, _, err = run(capsys, "convert", source, there, "--from-format", fmt, *extra)
    assert status == 0, err
    status, _, err = run(capsys, "convert", there, back, "--to-format", fmt)
    assert status == 0, err
    assert [d.to_dict() for d in read(back)] == [d.to_dict() for d in read_jsonl(there)]
    status, _, err = run(capsys, "convert", back, again, "--from-format", fmt)
    assert status == 0, err
    assert read_jsonl(again) == read_jsonl(there)
    assert "(0 kept" not in err


def test_convert_reads_the_predictions_of_an_export(capsys, tmp_path):
    status, _, err = run(capsys, "convert", EXPORT, tmp_path / "p.jsonl", "--from-format",
                         "label-studio", "--annotator", "predictions")
    assert status == 0, err
    assert [d.span_texts() for d in read_jsonl(tmp_path / "p.jsonl")] == [
        ["Anna Smith", "Berlin"], ["ACME"]]


def test_convert_writes_extents_of_discontinuous_spans_and_counts_them(capsys, tmp_path):
    src = tmp_path / "d.jsonl"
    src.write_text('{"id": "1", "text": "lung and lobe", "spans": [{"start": 0, "end": 13, '
                   '"label": "D", "fragments": [[0, 4], [9, 13]]}]}\n', encoding="utf-8")
    status, _, err = run(capsys, "convert", src, tmp_path / "o.jsonl", "--to-format", "doccano")
    assert status == 0, err
    assert "discontinuous" in err
    assert read_doccano(tmp_path / "o.jsonl").documents[0].span_texts() == ["lung and lobe"]


def test_convert_and_diagnose_name_the_annotator_with_annotator(capsys, tmp_path):
    status, _, err = run(capsys, "convert", EXPORT, tmp_path / "a.jsonl", "--from-format",
                         "label-studio")
    assert status == 1
    assert "choose one with annotator=NAME (--annotator NAME)" in err
    status, out, err = run(capsys, "diagnose", "--train", EXPORT, "--test", EXPORT,
                           "--input-format", "label-studio", "--annotator", "1")
    assert status == 0, err
    assert "LOC" in out


def test_a_doccano_note_names_the_offsets_flag(capsys, tmp_path):
    src = DATA / "doccano" / "entities.jsonl"
    status, _, err = run(capsys, "convert", src, tmp_path / "o.jsonl", "--from-format", "doccano")
    assert status == 0, err
    assert ("doccano stores no span text; pass --offsets python or --offsets utf16 to say "
            "which)." in err)
    assert "offsets=" not in err


def test_convert_says_what_it_does_with_the_tasks_an_annotator_left(capsys, tmp_path):
    out = tmp_path / "o.jsonl"
    status, _, err = run(capsys, "convert", EXPORT, out, "--from-format", "label-studio",
                         "--annotator", "2")
    assert status == 0, err
    assert (f"nerscore convert: warning: {EXPORT}: 1 task(s) without an annotation of '2' "
            "(cancelled or not done) are kept without entities, their whole text a region to "
            "ignore.\n") in err
    assert "scored" not in err
    assert [(d.id, len(d.spans), len(d.ignore)) for d in read_jsonl(out)] == [("1", 2, 0),
                                                                             ("2", 0, 1)]
    # scoring keeps its wording
    status, out, err = run(capsys, "score", EXPORT, EXPORT, *LS, "--gold-annotator", "2",
                           "--format", "json")
    assert status == 0, err
    assert (f"{EXPORT}: 1 task(s) without an annotation of '2' (cancelled or not done) are not "
            "scored: predictions there count neither way.") in json.loads(out)["notes"]
