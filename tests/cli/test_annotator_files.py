"""The annotators of ``agree`` and ``adjudicate``: one FILE each, or one export of several."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from nerscore.cli import main
from tests.io.webanno_fixtures import ANNOTATORS, write_export
from tests.paths import DATA

CONLL = [str(DATA / "agreement" / "conll" / f"ann{k}.conll") for k in (1, 2, 3)]


# --------------------------------------------------------------- one FILE per annotator


def test_agree_refuses_one_file_and_bad_names(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["agree", CONLL[0]]) == 2
    assert "two or more FILEs" in capsys.readouterr().err
    assert main(["agree", *CONLL, "--names", "a"]) == 2
    assert "--names gives 1 name(s) for 3 FILE(s)" in capsys.readouterr().err
    assert main(["agree", CONLL[0], CONLL[1], CONLL[0], "--names", "a", "b", "c"]) == 2
    assert (f"error: FILE {CONLL[0]} is given twice (FILEs 1 and 3); give each annotator's "
            "file once" in capsys.readouterr().err)
    assert main(["agree", *CONLL, "--names", "a", "b", "a"]) == 2
    assert ("error: --names must be distinct, but 'a' is given twice; give --names with one "
            "distinct name per FILE" in capsys.readouterr().err)


def test_agree_reads_the_annotators_of_one_label_studio_export(
        capsys: pytest.CaptureFixture[str]) -> None:
    export = str(DATA / "label_studio" / "export.json")
    assert main(["agree", export, "--input-format", "label-studio", "--resamples", "1",
                 "--format", "json"]) == 0
    captured = capsys.readouterr()
    data = json.loads(captured.out)
    assert data["annotators"] == ["1", "2"]
    assert "not annotated by every annotator" in captured.err
    assert main(["agree", export, "--input-format", "label-studio", "--names", "x"]) == 2
    assert "annotators of" in capsys.readouterr().err
    assert main(["agree", export, "--input-format", "label-studio", "--spans-key", "sc"]) == 2
    assert ("error: --spans-key applies to no input; the inputs are label-studio files"
            in capsys.readouterr().err)


def test_agree_notes_the_annotations_of_a_label_studio_export_that_name_no_annotator(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    result = [{"type": "labels", "value": {"start": 0, "end": 4, "labels": ["PER"]}}]
    export = tmp_path / "export.json"
    export.write_text(json.dumps([{"id": 1, "data": {"text": "Anna flew"}, "annotations": [
        {"completed_by": 1, "result": result}, {"result": result}]}]), encoding="utf-8")
    for command in (["agree"], ["adjudicate", "-o", str(tmp_path / "out.json")]):
        assert main([*command, str(export), "--input-format", "label-studio"]) == 0
        assert (f"note: {export}: 1 annotation names no annotator (no 'completed_by'): read as "
                "annotator 'unknown'." in capsys.readouterr().err)


def test_a_file_given_twice_is_a_usage_error_even_when_it_does_not_exist(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    missing = str(tmp_path / "missing.conll")
    again = str(tmp_path / "." / "missing.conll")
    assert main(["agree", missing, again, "--names", "a", "b"]) == 2
    assert (f"error: FILE {missing} is given twice (FILEs 1 and 2); give each annotator's file "
            "once" in capsys.readouterr().err)


def test_agree_refuses_a_file_without_documents(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    full, empty, other = (tmp_path / n for n in ("full.conll", "empty.conll", "other.conll"))
    full.write_text("Anna B-PER\n", encoding="utf-8")
    empty.write_text("", encoding="utf-8")
    other.write_text("\n\n", encoding="utf-8")
    assert main(["agree", str(full), str(empty)]) == 1
    assert capsys.readouterr().err == (
        f"nerscore agree: error: {empty} holds no documents (no sentence, no token), so there "
        "is nothing to compare; give each annotator's file of the same documents (set "
        "--input-format if a format was guessed wrongly).\n")
    assert main(["agree", str(empty), str(other)]) == 1
    assert f"error: {empty}, {other} hold no documents" in capsys.readouterr().err
    spans = tmp_path / "a.jsonl"
    spans.write_text('{"id": "d", "text": "Anna", "spans": [[0, 4, "PER"]]}\n', encoding="utf-8")
    (tmp_path / "b.jsonl").write_text("", encoding="utf-8")
    assert main(["agree", str(spans), str(tmp_path / "b.jsonl")]) == 1
    assert f"error: {tmp_path / 'b.jsonl'} holds no documents, so there is nothing" in \
        capsys.readouterr().err
    assert main(["adjudicate", str(full), str(empty), "-o", str(tmp_path / "gold.conll")]) == 1
    assert f"adjudicate: error: {empty} holds no documents" in capsys.readouterr().err
    assert not (tmp_path / "gold.conll").exists()


@pytest.mark.parametrize("command", ["agree", "adjudicate"])
def test_several_exports_of_several_annotators_each_say_how_to_compare_them(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str) -> None:
    task = {"id": 1, "data": {"text": "Anna went home"}, "annotations": [
        {"completed_by": {"email": who}, "result": [
            {"type": "labels", "value": {"start": 0, "end": 4, "labels": ["PER"]}}]}
        for who in ("a@x", "b@x")]}
    files = [tmp_path / "one.json", tmp_path / "two.json"]
    for path in files:
        path.write_text(json.dumps([task]), encoding="utf-8")
    extra = ["-o", str(tmp_path / "adj.jsonl")] if command == "adjudicate" else []
    assert main([command, *map(str, files), "--input-format", "label-studio", *extra]) == 2
    assert capsys.readouterr().err == (
        f"nerscore {command}: error: {files[0]} holds annotations of 2 annotators ('a@x', "
        f"'b@x'); {command} takes one annotator per FILE: give that export alone "
        "(--input-format label-studio) to compare its annotators, or export each annotator's "
        f"annotations to a file of its own. See 'nerscore {command} --help'.\n")


# --------------------------------------------------------------- one Prodigy dataset, several annotators

#: Two inputs: "Ann met Bob in Paris" (11) and "Cy left Rome" (22).
ANN, CY = "Ann met Bob in Paris", "Cy left Rome"
PRODIGY = [  # (text, input, annotator, answer, spans)
    (ANN, 11, "x", "accept", [(0, 3, "PER"), (8, 11, "PER"), (15, 20, "LOC")]),
    (ANN, 11, "y", "accept", [(0, 3, "PER"), (15, 20, "LOC")]),
    (CY, 22, "x", "accept", [(0, 2, "PER"), (8, 12, "LOC")]),
    (ANN, 11, "z", "accept", [(0, 3, "PER"), (8, 11, "PER"), (15, 20, "LOC")]),
    (CY, 22, "y", "accept", [(0, 2, "PER"), (8, 12, "ORG")]),
    (CY, 22, "z", "reject", [(0, 2, "PER")]),
    ("Dee sang", 33, "x", "ignore", []),
]


def prodigy_dataset(path: Path, *, without: str = "") -> str:
    """A ``prodigy db-out`` file of :data:`PRODIGY`, leaving out annotator ``without``."""
    path.write_text("".join(json.dumps({
        "text": text, "spans": [{"start": a, "end": b, "label": lab} for a, b, lab in spans],
        "answer": answer, "_input_hash": h, "_task_hash": h, "_annotator_id": f"ds-{who}",
        "_session_id": f"ds-{who}"}) + "\n"
        for text, h, who, answer, spans in PRODIGY if who != without), encoding="utf-8")
    return str(path)


def test_agree_compares_the_two_annotators_of_one_prodigy_dataset(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    dataset = prodigy_dataset(tmp_path / "ds.jsonl", without="z")
    assert main(["agree", dataset, "--input-format", "prodigy", "--resamples", "0",
                 "--format", "json"]) == 0
    out, err = capsys.readouterr()
    data = json.loads(out)
    assert data["annotators"] == ["ds-x", "ds-y"]
    assert data["n_documents"] == 2
    # x has 5 entities, y 4, and 3 agree (PER Ann, LOC Paris, PER Cy): F1 = 2*3/(5+4)
    assert data["f1"]["matrix"][0][1] == pytest.approx(2 / 3)
    assert err.startswith(f"nerscore agree: note: {dataset}: 4 example(s) read; left out: 1 "
                          "ignored.\n")
    assert main(["agree", dataset, "--input-format", "prodigy", "--resamples", "0",
                 "--names", "ana", "ben"]) == 0
    out = capsys.readouterr().out
    assert "mean pairwise F1: 0.67 (SD 0.00)" in out
    assert "ana  1.00  0.67\nben  0.67  1.00" in out


def test_agree_compares_three_annotators_of_one_prodigy_dataset_where_one_lacks_an_input(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    dataset = prodigy_dataset(tmp_path / "ds.jsonl")
    assert main(["agree", dataset, "--input-format", "prodigy", "--resamples", "0",
                 "--format", "json"]) == 0
    out, err = capsys.readouterr()
    data = json.loads(out)
    assert data["annotators"] == ["ds-x", "ds-y", "ds-z"]
    # z rejected input 22, so x-z and y-z are scored on input 11 alone:
    # x-y 2*3/(5+4); x-z 2*3/(3+3); y-z 2*2/(2+3)
    matrix = data["f1"]["matrix"]
    assert [matrix[0][1], matrix[0][2], matrix[1][2]] == pytest.approx([2 / 3, 1.0, 0.8])
    assert data["f1"]["mean"] == pytest.approx((2 / 3 + 1.0 + 0.8) / 3)
    assert ("1 document(s) are not annotated by every annotator and are left out of the pairs and "
            "statistics that lack them: '22' (missing for ds-z).") in data["notes"]
    assert (f"nerscore agree: note: {dataset}: 5 example(s) read; left out: 1 rejected, "
            "1 ignored.\n") in err


@pytest.mark.parametrize("command", ["agree", "adjudicate"])
def test_an_annotator_who_accepted_no_example_is_left_out_noted(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str) -> None:
    dataset = tmp_path / "ds.jsonl"
    prodigy_dataset(dataset, without="z")
    with dataset.open("a", encoding="utf-8") as fh:
        fh.write(json.dumps({"text": CY, "spans": [], "answer": "reject", "_input_hash": 22,
                             "_annotator_id": "ds-w"}) + "\n")
    extra = (["-o", str(tmp_path / "adj.jsonl")] if command == "adjudicate" else
             ["--resamples", "0", "--format", "json"])
    assert main([command, str(dataset), "--input-format", "prodigy", *extra]) == 0
    out, err = capsys.readouterr()
    # kept, w would share no document with anyone and leave every mean undefined
    assert (f"nerscore {command}: note: {dataset}: 1 annotator(s) have no document (every "
            "annotation of theirs is left out) and are not compared: 'ds-w'.\n") in err
    if command == "agree":
        data = json.loads(out)
        assert data["annotators"] == ["ds-x", "ds-y"]
        assert data["f1"]["mean"] == pytest.approx(2 / 3)
    else:
        assert "2 annotators (ds-x, ds-y), 2 documents" in err


@pytest.mark.parametrize("command", ["agree", "adjudicate"])
def test_an_export_of_fewer_than_two_annotators_with_documents_is_a_data_error(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str) -> None:
    dataset = tmp_path / "ds.jsonl"
    dataset.write_text("".join(json.dumps(
        {"text": ANN, "spans": [], "answer": answer, "_input_hash": 11,
         "_annotator_id": who}) + "\n" for who, answer in (("ana", "accept"), ("ben", "reject"))),
        encoding="utf-8")
    extra = ["-o", str(tmp_path / "adj.jsonl")] if command == "adjudicate" else []
    assert main([command, str(dataset), "--input-format", "prodigy", *extra]) == 1
    assert capsys.readouterr().err.endswith(
        f"nerscore {command}: error: {dataset} holds 2 annotator(s) ('ana', 'ben'), 1 with "
        f"documents; {command} needs two or more annotators of the same documents: give an "
        "export of several, or one FILE per annotator.\n")
    # an export of its curation alone: the note of the left-out curation comes first
    export = str(write_export(tmp_path / "export", {}))
    assert main([command, export, *extra]) == 1
    assert capsys.readouterr().err == (
        f"nerscore {command}: note: {export}: the curated documents ('CURATION_USER', "
        "curation/DOC/CURATION_USER.tsv) are left out: they are the adjudication, not an "
        f"annotator's.\nnerscore {command}: error: {export} holds no annotator's annotations; "
        f"{command} needs two or more annotators of the same documents: give an export of "
        "several, or one FILE per annotator.\n")


@pytest.mark.parametrize("command", ["agree", "adjudicate"])
def test_names_of_an_export_s_annotators_are_one_distinct_name_each(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str) -> None:
    dataset = prodigy_dataset(tmp_path / "ds.jsonl")
    extra = ["-o", str(tmp_path / "adj.jsonl")] if command == "adjudicate" else []
    # two annotators named alike were one, the other's documents silently dropped
    assert main([command, dataset, "--input-format", "prodigy", "--names", "a", "a", "b",
                 *extra]) == 2
    assert capsys.readouterr().err.endswith(
        f"nerscore {command}: error: --names must be distinct, but 'a' is given twice; give one "
        f"distinct name per annotator of {dataset} ('ds-x', 'ds-y', 'ds-z'). See 'nerscore "
        f"{command} --help'.\n")
    assert main([command, dataset, "--input-format", "prodigy", "--names", "a", *extra]) == 2
    assert capsys.readouterr().err.endswith(
        f"error: --names gives 1 name(s) for the 3 annotators of {dataset} ('ds-x', 'ds-y', "
        f"'ds-z'); give one name per annotator, in that order. See 'nerscore {command} "
        "--help'.\n")


@pytest.mark.parametrize(("without", "kept"), [
    # two annotators: a document needs both votes
    ("z", {"11": [[0, 3, "PER"], [15, 20, "LOC"]], "22": [[0, 2, "PER"]]}),
    # three: input 11 needs 2 of its 3 annotators, input 22 both of its 2 (z rejected it)
    ("", {"11": [[0, 3, "PER"], [8, 11, "PER"], [15, 20, "LOC"]], "22": [[0, 2, "PER"]]}),
])
def test_adjudicate_votes_among_the_annotators_of_one_prodigy_dataset(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], without: str,
        kept: dict[str, list[list[object]]]) -> None:
    dataset = prodigy_dataset(tmp_path / "ds.jsonl", without=without)
    out = tmp_path / "gold.jsonl"
    assert main(["adjudicate", dataset, "--input-format", "prodigy", "-o", str(out)]) == 0
    written = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert {d["id"]: [[s["start"], s["end"], s["label"]] for s in d["spans"]]
            for d in written} == kept
    assert [d["text"] for d in written] == [ANN, CY]
    err = capsys.readouterr().err
    assert f"nerscore adjudicate: note: {dataset}: " in err
    assert f"nerscore adjudicate: note: wrote {out}\n" in err


@pytest.mark.parametrize("command", ["agree", "adjudicate"])
def test_several_prodigy_datasets_of_several_annotators_say_how_to_compare_them(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str) -> None:
    files = [prodigy_dataset(tmp_path / "one.jsonl"), prodigy_dataset(tmp_path / "two.jsonl")]
    extra = ["-o", str(tmp_path / "adj.jsonl")] if command == "adjudicate" else []
    assert main([command, *files, "--input-format", "prodigy", *extra]) == 2
    assert capsys.readouterr().err == (
        f"nerscore {command}: error: {files[0]} holds annotations of 3 annotators ('ds-x', "
        f"'ds-y', 'ds-z'); {command} takes one annotator per FILE: give that export alone "
        "(--input-format prodigy) to compare its annotators, or export each annotator's "
        f"annotations to a file of its own. See 'nerscore {command} --help'.\n")


def test_a_label_studio_export_among_others_is_named_whole(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    task = {"id": 1, "data": {"text": "Anna went home"}, "annotations": [
        {"completed_by": {"email": who}, "result": [
            {"type": "labels", "value": {"start": 0, "end": 4, "labels": ["PER"]}}]}
        for who in ("ann; choose me", "bob")]}
    files = [tmp_path / "one.json", tmp_path / "two.json"]
    for path in files:
        path.write_text(json.dumps([task]), encoding="utf-8")
    assert main(["agree", *map(str, files), "--input-format", "label-studio"]) == 2
    assert capsys.readouterr().err == (
        f"nerscore agree: error: {files[0]} holds annotations of 2 annotators ('ann; choose me', "
        "'bob'); agree takes one annotator per FILE: give that export alone (--input-format "
        "label-studio) to compare its annotators, or export each annotator's annotations to a "
        "file of its own. See 'nerscore agree --help'.\n")


def test_a_label_studio_export_of_predictions_only_among_others_says_it_holds_no_annotator(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = {"id": 1, "data": {"text": "Anna went home"}}
    files = [tmp_path / "one.json", tmp_path / "two.json"]
    files[0].write_text(json.dumps([{**text, "predictions": [
        {"model_version": "v1", "result": []}]}]), encoding="utf-8")
    files[1].write_text(json.dumps([{**text, "annotations": [{"result": []}]}]),
                        encoding="utf-8")
    assert main(["agree", *map(str, files), "--input-format", "label-studio"]) == 2
    assert capsys.readouterr().err == (
        f"nerscore agree: error: {files[0]} holds annotations of no annotator; agree takes one "
        "annotator's annotations per FILE. See 'nerscore agree --help'.\n")


# --------------------------------------------------------------- one INCEpTION project export


def test_agree_compares_the_annotators_of_one_inception_export(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    export = str(write_export(tmp_path / "export"))
    assert main(["agree", export, "--resamples", "0", "--format", "json"]) == 0
    out, err = capsys.readouterr()
    data = json.loads(out)
    assert data["annotators"] == ["anna", "ben", "cai"]  # the curation left out
    assert data["n_documents"] == 2
    # anna has 5 entities, ben 4, and 3 agree (PER Anna, LOC Paris, PER Cy); cai has
    # news1.txt alone, so anna-cai and ben-cai are scored on it: 2*3/(3+3) and 2*2/(2+3)
    matrix = data["f1"]["matrix"]
    assert [matrix[0][1], matrix[0][2], matrix[1][2]] == pytest.approx([2 / 3, 1.0, 0.8])
    assert data["f1"]["mean"] == pytest.approx((2 / 3 + 1.0 + 0.8) / 3)
    assert ("1 document(s) are not annotated by every annotator and are left out of the pairs and "
            "statistics that lack them: 'news2.tsv' (missing for cai).") in data["notes"]
    assert err.startswith(f"nerscore agree: note: {export}: the curated documents "
                          "('CURATION_USER', curation/DOC/CURATION_USER.tsv) are left out: they "
                          "are the adjudication, not an annotator's.\n")
    assert main(["agree", export + "/annotation", "--input-format", "webanno", "--resamples",
                 "0", "--names", "a", "b", "c"]) == 0
    assert "mean pairwise F1: 0.82 (SD 0.14)" in capsys.readouterr().out


def test_adjudicate_votes_among_the_annotators_of_one_inception_export(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    export = str(write_export(tmp_path / "export"))
    out = tmp_path / "gold.jsonl"
    assert main(["adjudicate", export, "-o", str(out)]) == 0
    written = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    # news1.txt: 2 of its 3 annotators; news2.tsv: both of its 2 (cai lacks it)
    assert {d["id"]: [[s["start"], s["end"], s["label"]] for s in d["spans"]]
            for d in written} == {"news1.txt": [[0, 4, "PER"], [9, 12, "PER"], [16, 21, "LOC"]],
                                  "news2.tsv": [[0, 2, "PER"]]}
    assert "3 annotators (anna, ben, cai), 2 documents" in capsys.readouterr().err


@pytest.mark.parametrize("command", ["agree", "adjudicate"])
def test_an_inception_export_among_other_files_says_how_to_compare_its_annotators(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str) -> None:
    export = str(write_export(tmp_path / "export"))
    other = str(write_export(tmp_path / "other", {"anna": ANNOTATORS["anna"]}, {}))
    extra = ["-o", str(tmp_path / "adj.jsonl")] if command == "adjudicate" else []
    assert main([command, export, other, *extra]) == 2
    assert capsys.readouterr().err == (
        f"nerscore {command}: error: {export} holds annotations of 4 annotators ('anna', 'ben', "
        f"'cai', 'CURATION_USER'); {command} takes one annotator per FILE: give that export "
        "alone (--input-format webanno) to compare its annotators, or export each annotator's "
        f"annotations to a file of its own. See 'nerscore {command} --help'.\n")


@pytest.mark.parametrize("command", ["agree", "adjudicate"])
@pytest.mark.parametrize("fmt", [[], ["--input-format", "webanno"]])
def test_an_export_with_a_tsv_file_one_level_too_deep_names_the_file(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str,
        fmt: list[str]) -> None:
    export = write_export(tmp_path / "export")
    stray = export / "annotation" / "news1.txt" / "sub" / "x.tsv"
    stray.parent.mkdir()
    stray.write_text("notes\n", encoding="utf-8")
    extra = ["-o", str(tmp_path / "adj.jsonl")] if command == "adjudicate" else []
    assert main([command, str(export), *fmt, *extra]) == 1
    assert capsys.readouterr().err == (
        f"nerscore {command}: error: {export} is laid out as an INCEpTION project export, but 1 "
        ".tsv file lies outside annotation/DOC/USER.tsv, curation/DOC/USER.tsv and source/: "
        "'annotation/news1.txt/sub/x.tsv', so it is not read as an export (whose every .tsv "
        "file is one annotator's file of one document). Move that file out of the folder (or "
        "remove it) to read the export's annotators.\n")


@pytest.mark.parametrize("command", ["agree", "adjudicate"])
@pytest.mark.parametrize("fmt", [[], ["--input-format", "webanno"]])
def test_an_export_in_xmi_says_what_it_holds_and_how_to_export_it(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str,
        fmt: list[str]) -> None:
    export = tmp_path / "export"
    (export / "annotation" / "news1.txt").mkdir(parents=True)
    for user in ("anna", "ben"):
        (export / "annotation" / "news1.txt" / f"{user}.xmi").write_text("<xmi/>",
                                                                        encoding="utf-8")
    (export / "exportedproject1.json").write_text("{}", encoding="utf-8")
    extra = ["-o", str(tmp_path / "adj.jsonl")] if command == "adjudicate" else []
    assert main([command, str(export), *fmt, *extra]) == 1
    assert capsys.readouterr().err == (
        f"nerscore {command}: error: {export} is an INCEpTION project export without WebAnno "
        "TSV files (no annotation/DOC/USER.tsv nor curation/DOC/USER.tsv; its document folders "
        "hold 2 .xmi files, which nerscore does not read: 'annotation/news1.txt/anna.xmi', "
        "'annotation/news1.txt/ben.xmi'); export the project in the format 'WebAnno TSV "
        "v3'.\n")


@pytest.mark.parametrize("command", ["agree", "adjudicate"])
@pytest.mark.parametrize("root", ["", "annotation"])
def test_one_brat_folder_shaped_as_an_export_is_a_folder_of_documents(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str, root: str) -> None:
    # annotation/SET/doc.ann and doc.txt: BRAT files, not an INCEpTION export in another format
    folder = tmp_path / "brat"
    for user, label in (("set1", "PER"), ("set2", "LOC")):
        (folder / "annotation" / user).mkdir(parents=True)
        (folder / "annotation" / user / "doc.txt").write_text("Anna in Paris", encoding="utf-8")
        (folder / "annotation" / user / "doc.ann").write_text(f"T1\t{label} 0 4\tAnna\n",
                                                            encoding="utf-8")
    extra = ["-o", str(tmp_path / "adj.jsonl")] if command == "adjudicate" else []
    assert main([command, str(folder / root), *extra]) == 2
    sets = [str(folder / "annotation" / user) for user in ("set1", "set2")]
    given = f" -o {tmp_path / 'adj.jsonl'}" if command == "adjudicate" else ""
    assert capsys.readouterr().err == (
        f"nerscore {command}: error: {folder / root} is one BRAT folder holding 2 annotation "
        f"sets (folders whose documents have the same names); {command} takes one FILE per "
        f"annotator: give each set's folder as its own FILE: 'nerscore {command}{given} "
        f"{' '.join(sets)}'. See 'nerscore {command} --help'.\n")
    extra = (["-o", str(tmp_path / "adj.jsonl")] if command == "adjudicate" else
             ["--resamples", "0", "--format", "json"])
    assert main([command, *sets, *extra]) == 0, capsys.readouterr().err


def _brat_document(folder: Path, name: str) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{name}.txt").write_text("Anna in Paris", encoding="utf-8")
    (folder / f"{name}.ann").write_text("T1\tPER 0 4\tAnna\n", encoding="utf-8")


def test_one_brat_folder_of_many_annotators_sets_names_the_first_five(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # one folder per annotator's BRAT export, each with the same documents (in batches)
    folder = tmp_path / "exports"
    users = ["ana", "ben", "cai", "dan", "eve", "fay", "gus"]
    for user in users:
        _brat_document(folder / user / "batch1", "doc1")
    (folder / "README.txt").write_text("exported by the tool", encoding="utf-8")
    assert main(["agree", str(folder), "--input-format", "brat"]) == 2
    shown = " ".join(str(folder / user) for user in users[:5])
    assert capsys.readouterr().err == (
        f"nerscore agree: error: {folder} is one BRAT folder holding 7 annotation sets (folders "
        "whose documents have the same names); agree takes one FILE per annotator: give each "
        f"set's folder as its own FILE: 'nerscore agree {shown}' and 2 more. See 'nerscore agree "
        "--help'.\n")


def test_one_brat_folder_whose_folders_share_no_document_is_one_annotators(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # a corpus split by folder (train/test) is not several annotation sets
    folder = tmp_path / "corpus"
    _brat_document(folder / "train", "doc1")
    _brat_document(folder / "test", "doc2")
    assert main(["agree", str(folder)]) == 2
    assert capsys.readouterr().err == (
        "nerscore agree: error: agree needs two or more FILEs (one per annotator), or one export "
        "holding several annotators (--input-format label-studio, prodigy or webanno). See "
        "'nerscore agree --help'.\n")


@pytest.mark.parametrize("command", ["agree", "adjudicate"])
def test_a_document_folder_of_an_export_without_a_file_is_noted(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str) -> None:
    export = write_export(tmp_path / "export")
    (export / "annotation" / "news3.txt").mkdir()
    extra = (["-o", str(tmp_path / "adj.jsonl")] if command == "adjudicate" else
             ["--resamples", "0", "--format", "json"])
    assert main([command, str(export), *extra]) == 0
    assert (f"nerscore {command}: note: {export}: 1 document folder(s) of annotation/ hold no "
            ".tsv file, so no annotator's annotations of them are read: 'news3.txt'.\n"
            in capsys.readouterr().err)
