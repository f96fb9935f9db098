"""Annotation-tool exports on the command line: annotators per side, round trips through convert."""

from __future__ import annotations

import json

import pytest

from nerscore.cli import main
from nerscore.io.doccano import read_doccano
from nerscore.io.jsonl import read_jsonl
from nerscore.io.label_studio import read_label_studio
from nerscore.io.prodigy import read_prodigy
from tests.io.webanno_fixtures import ANNOTATORS, write_export
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
    assert "choose one with --annotator NAME." in err
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


def webanno_annotators(tmp_path, *labels):
    """One WebAnno TSV per annotator, its entities on a layer of two features (kind, label)."""
    paths = []
    for k, label in enumerate(labels):
        path = tmp_path / f"ann{k}" / "doc.tsv"  # the same document id in every file
        path.parent.mkdir()
        path.write_text("#FORMAT=WebAnno TSV 3.3\n#T_SP=webanno.custom.Entity|kind|label\n\n\n"
                        "#Text=Anna flew to Berlin\n1-1\t0-4\tAnna\tperson\tPER\t\n"
                        "1-2\t5-9\tflew\t_\t_\t\n1-3\t10-12\tto\t_\t_\t\n"
                        f"1-4\t13-19\tBerlin\tplace\t{label}\t\n", encoding="utf-8")
        paths.append(path)
    return paths


def test_agree_reads_webanno_entities_on_the_layer_and_feature_given(capsys, tmp_path):
    files = webanno_annotators(tmp_path, "LOC", "ORG")
    common = ("agree", *files, "--input-format", "webanno", "--names", "a", "b",
              "--resamples", "0", "--format", "json")
    status, _, err = run(capsys, *common)
    assert status == 1
    assert "no span layer 'NamedEntity'" in err
    assert "(--layer NAME)" in err
    status, out, err = run(capsys, *common, "--layer", "Entity", "--feature", "label")
    assert status == 0, err
    assert json.loads(out)["f1"]["mean"] == 0.5  # 'Berlin' is LOC for a, ORG for b
    status, out, err = run(capsys, *common, "--layer", "Entity", "--feature", "kind")
    assert status == 0, err
    assert json.loads(out)["f1"]["mean"] == 1.0


def test_adjudicate_reads_webanno_entities_on_the_layer_and_feature_given(capsys, tmp_path):
    files = webanno_annotators(tmp_path, "LOC", "ORG", "LOC")
    out = tmp_path / "gold.jsonl"
    status, _, err = run(capsys, "adjudicate", *files, "--input-format", "webanno", "--names",
                         "a", "b", "c", "--layer", "Entity", "--feature", "label", "-o", out)
    assert status == 0, err
    assert [(d.id, [(e.start, e.end, e.label) for e in d.spans]) for d in read_jsonl(out)] == [
        ("doc", [(0, 4, "PER"), (13, 19, "LOC")])]


def test_agree_and_adjudicate_read_doccano_offsets_as_given(capsys, tmp_path):
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    lines = (DATA / "doccano" / "entities.jsonl").read_text(encoding="utf-8")
    a.write_text(lines, encoding="utf-8")
    b.write_text(lines.replace('"LOC", "start_offset": 19', '"GPE", "start_offset": 19'),
                 encoding="utf-8")
    guessed = "decided by word boundaries: doccano stores no span text; pass --offsets python"
    status, _, err = run(capsys, "agree", a, b, "--input-format", "doccano", "--resamples", "0")
    assert status == 0, err
    assert guessed in err
    status, _, err = run(capsys, "agree", a, b, "--input-format", "doccano", "--resamples", "0",
                         "--offsets", "utf16")
    assert status == 0, err
    assert guessed not in err
    out = tmp_path / "gold.jsonl"
    for offsets, paris in (("auto", (27, 32)), ("python", (28, 33))):
        status, _, err = run(capsys, "adjudicate", a, b, "--input-format", "doccano",
                             "--offsets", offsets, "-o", out)
        assert status == 0, err
        assert [(e.start, e.end) for e in read_jsonl(out)[1].spans][-1] == paris


def test_agree_reads_one_label_studio_export_with_the_offsets_given(capsys):
    status, _, err = run(capsys, "agree", EXPORT, "--input-format", "label-studio",
                         "--offsets", "python")
    assert status == 1
    assert "says it covers 'Paris' but the text has 'aris.' there" in err
    status, _, err = run(capsys, "agree", EXPORT, "--input-format", "label-studio",
                         "--offsets", "utf16", "--resamples", "0")
    assert status == 0, err
    status, _, err = run(capsys, "adjudicate", EXPORT, "--input-format", "label-studio",
                         "--layer", "Entity", "-o", "unused.jsonl")
    assert status == 2
    assert "--layer applies to no input; the inputs are label-studio files" in err


@pytest.mark.parametrize("command", [("agree",), ("adjudicate", "-o", "unused.conll")])
def test_agree_and_adjudicate_refuse_tool_options_for_conll_files(capsys, command):
    files = [DATA / "agreement" / "conll" / f"ann{k}.conll" for k in (1, 2)]
    status, _, err = run(capsys, command[0], *files, *command[1:], "--offsets", "python",
                         "--layer", "Entity", "--feature", "label")
    assert status == 2
    assert ("--offsets, --layer, --feature apply to no input; the inputs are conll files, whose "
            "readers do not take them") in err


def test_score_refuses_an_inception_export_of_several_annotators_without_a_choice(
        capsys, tmp_path):
    export = write_export(tmp_path / "export")
    status, _, err = run(capsys, "score", export, export)
    assert status == 1
    # not 5 documents named news1.txt/anna, news1.txt/ben, ...: an error naming the annotators
    assert err == (f"nerscore score: error: {export} is an INCEpTION project export holding "
                   "annotations of 4 annotators ('anna', 'ben', 'cai', 'CURATION_USER'); choose "
                   "one with --gold-annotator NAME.\n")


def test_the_advice_to_choose_an_annotator_names_the_flag_of_the_command(capsys, tmp_path):
    export = write_export(tmp_path / "export")
    status, _, err = run(capsys, "convert", export, str(tmp_path / "out.conll"))
    assert status == 1
    assert err.endswith("; choose one with --annotator NAME.\n"), err
    gold = tmp_path / "gold.jsonl"
    gold.write_text(json.dumps({"text": "Ann", "spans": [], "_input_hash": 1,
                                "_annotator_id": "x", "answer": "accept"}) + "\n")
    status, _, err = run(capsys, "score", str(gold), export, "--gold-format", "prodigy")
    assert status == 1
    assert err.endswith("; choose one with --pred-annotator NAME.\n"), err


def test_score_reads_the_annotators_of_an_inception_export_chosen(capsys, tmp_path):
    export = write_export(tmp_path / "export")
    status, out, err = run(capsys, "score", export, export, "--gold-annotator", "CURATION_USER",
                           "--pred-annotator", "ben", "--format", "json")
    assert status == 0, err
    # news1.txt: ben misses PER 'Bob'; news2.tsv is not curated: ben's 2 spans there are fp
    assert overall(out) == (2, 2, 1)
    notes = json.loads(out)["notes"]
    assert (f"{export}: 1 document(s) of the export have no file of 'CURATION_USER' and are "
            "not read: 'news2.tsv'.") in notes
    assert not any("the same file" in n for n in notes)  # two annotators of one export


def test_score_reads_an_inception_export_of_one_annotator_with_a_note(capsys, tmp_path):
    export = write_export(tmp_path / "export", {"anna": ANNOTATORS["anna"]}, {})
    pred = tmp_path / "pred.jsonl"
    status, _, err = run(capsys, "convert", export, pred)
    assert status == 0, err
    status, out, err = run(capsys, "score", export, pred, "--format", "json")
    assert status == 0, err
    assert overall(out) == (5, 0, 0)
    assert json.loads(out)["notes"][0] == (
        f"{export}: an INCEpTION project export of one annotator: read the annotations of 'anna' "
        "(annotation/DOC/anna.tsv), each document named by its folder DOC.")
    assert [(d.id, d.span_texts()) for d in read_jsonl(pred)] == [
        ("news1.txt", ["Anna", "Bob", "Paris"]), ("news2.tsv", ["Cy", "Rome"])]


def test_two_annotators_of_one_prodigy_file_are_not_the_same_file(capsys, tmp_path):
    dataset = tmp_path / "ds.jsonl"
    dataset.write_text("".join(json.dumps({
        "text": "Ann ran", "spans": [{"start": 0, "end": 3, "label": label}], "answer": "accept",
        "_input_hash": 1, "_annotator_id": who}) + "\n" for who, label in (("x", "PER"),
                                                                          ("y", "ORG"))),
        encoding="utf-8")
    status, out, err = run(capsys, "score", dataset, dataset, "--gold-format", "prodigy",
                           "--pred-format", "prodigy", "--gold-annotator", "x",
                           "--pred-annotator", "y", "--format", "json")
    assert status == 0, err
    assert overall(out) == (0, 1, 1)
    assert not any("the same file" in n for n in json.loads(out)["notes"])
    status, out, err = run(capsys, "score", dataset, dataset, "--gold-format", "prodigy",
                           "--pred-format", "prodigy", "--gold-annotator", "x",
                           "--pred-annotator", "x", "--format", "json")
    assert any("the same file" in n for n in json.loads(out)["notes"])


def test_an_annotator_for_one_webanno_file_is_refused_naming_the_flag_given(capsys):
    news = str(DATA / "webanno" / "news.tsv")
    status, _, err = run(capsys, "score", news, news, "--gold-format", "webanno",
                         "--pred-format", "webanno", "--gold-annotator", "x")
    assert status == 1
    assert err.startswith("nerscore score: error: --gold-annotator x chooses the files of an "
                          "annotator in a folder; "), err
