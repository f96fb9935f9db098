"""``--map``, ``--map-file``, ``--keep`` and ``--drop`` in score, compare and report."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from nerscore.cli import main
from tests.paths import DATA, EXAMPLES

GOLD = str(EXAMPLES / "conll2000" / "gold.conll")
PRED = str(EXAMPLES / "conll2000" / "pred.conll")
PRED2 = str(EXAMPLES / "conll2000" / "pred_discard.conll")


def run(capsys, *argv):
    status = main(list(argv))
    out, err = capsys.readouterr()
    assert "Traceback" not in err
    return status, out, err


def _json(capsys, *argv):
    status, out, err = run(capsys, "score", GOLD, PRED, "--format", "json", *argv)
    assert status == 0, err
    return json.loads(out), err


@pytest.mark.parametrize("chunks", ["0", "7"])  # in memory, and streamed in chunks
def test_score_maps_and_drops_and_says_so(capsys, chunks):
    got, _ = _json(capsys, "--map", "ADJP=NP", "--map", "ADVP=NP", "--drop", "SBAR,PP",
                   "--chunk-sentences", chunks)
    assert sorted(got["labels"]) == ["NP", "VP"]
    assert got["labels"]["NP"]["n_gold"] == 262 + 6 + 8
    assert got["notes"] == [
        "Labels renamed (--map): ADJP -> NP (6 gold, 1 predicted entity); ADVP -> NP "
        "(8 gold, 11 predicted entities).",
        "Labels merged (--map): ADJP, ADVP and NP are scored as NP.",
        "Labels removed (--drop): PP (90 gold, 107 predicted entities); SBAR (6 gold, 3 "
        "predicted entities).",
    ]


def test_keep_equals_drop_of_the_rest(capsys):
    kept, _ = _json(capsys, "--keep", "NP", "--keep", "VP")
    dropped, _ = _json(capsys, "--drop", "ADJP,ADVP,PP,SBAR")
    assert kept["overall"] == dropped["overall"]


def test_map_file_and_map_flags(capsys, tmp_path):
    path = tmp_path / "map.json"
    path.write_text('{"ADJP": "NP", "ADVP": "VP"}')  # --map ADVP=NP wins
    from_file, _ = _json(capsys, "--map-file", str(path), "--map", "ADVP=NP")
    flags, _ = _json(capsys, "--map", "ADJP=NP", "--map", "ADVP=NP")
    assert from_file["overall"] == flags["overall"]


def test_an_unknown_label_is_a_warning_and_scoring_goes_on(capsys):
    got, err = _json(capsys, "--keep", "NP,VPP")
    assert list(got["labels"]) == ["NP"]
    assert ("warning: The label operations name 'VPP', which is not a label of the data; the "
            "labels are 'ADJP', 'ADVP', 'NP', 'PP', 'SBAR', 'VP'. Did you mean 'VP'?") in err


@pytest.mark.parametrize(("argv", "hint"), [
    # --drop names labels after --map: VP is V by then, so V is the label meant
    (["--map", "VP=V", "--drop", "VPP"], "Did you mean 'V', the new name of 'VP' (--map)?"),
    (["--map", "VP=V", "--map", "ADJP=V", "--keep", "VPP,NPX"],
     "Did you mean 'V', the new name of 'ADJP' and 'VP' (--map), or 'NP'?"),
    # --map names labels of the data: VP is the label meant
    (["--map", "VPP=V", "--map", "VP=W"], "Did you mean 'VP'?"),
    # a label the map leaves as it is
    (["--map", "NP=N", "--drop", "VPP"], "Did you mean 'VP'?"),
])
def test_an_unknown_label_suggests_a_label_the_operation_can_name(capsys, argv, hint):
    status, _, err = run(capsys, "score", GOLD, PRED, *argv)
    assert status == 0, err
    assert ("'ADJP', 'ADVP', 'NP', 'PP', 'SBAR', 'VP'. " + hint + "\n") in err


@pytest.mark.parametrize("command", ["score", "convert"])
def test_keep_of_a_label_renamed_away_is_a_warning_naming_its_new_name(capsys, tmp_path,
                                                                      command):
    # --keep names labels after --map: NP is N by then, so nothing is kept
    argv = [GOLD, PRED] if command == "score" else [PRED, str(tmp_path / "p.jsonl"),
                                                    "--from-scheme", "IOB2"]
    status, _, err = run(capsys, command, *argv, "--map", "NP=N", "--keep", "NP,VP")
    assert status == 0, err
    assert (f"nerscore {command}: warning: The label operations keep 'NP' (--keep), which is "
            "renamed to 'N' (--map) first: labels are kept by their new names, so no entity is "
            "kept as 'NP'. Did you mean 'N'?\n") in err
    status, _, err = run(capsys, command, *argv, "--map", "NP=N", "--drop", "NP")
    assert ("warning: The label operations drop 'NP' (--drop), which is renamed to 'N' (--map) "
            "first: labels are dropped by their new names, so no entity is dropped as 'NP'. Did "
            "you mean 'N'?") in err
    status, _, err = run(capsys, command, *argv, "--map", "NP=N", "--keep", "N")
    assert "The label operations" not in err


@pytest.mark.parametrize(("argv", "message"), [
    (["--keep", "NP", "--drop", "VP"], "argument --drop: not allowed with argument --keep"),
    (["--map", "NP"], "expected OLD=NEW"),
    (["--map", "NP=X=Y"], "argument --map: expected OLD=NEW with one '=' (e.g. GPE=LOC); got "
                          "'NP=X=Y' (a label holding '=' is given in --map-file). "
                          "See 'nerscore score --help'.\n"),
])
def test_bad_label_options_are_usage_errors(capsys, argv, message):
    status, _, err = run(capsys, "score", GOLD, PRED, *argv)
    assert status == 2
    assert message in err


def test_one_label_mapped_twice_is_a_usage_error_naming_the_flag(capsys):
    status, _, err = run(capsys, "score", GOLD, PRED, "--map", "NP=A", "--map", "NP=B")
    assert (status, err) == (2, "nerscore score: error: --map maps 'NP' twice: to 'A' and 'B'; "
                                "give one new label per label. See 'nerscore score --help'.\n")
    status, _, err = run(capsys, "score", GOLD, PRED, "--map", "NP=A", "--map", "NP=A")
    assert (status, err) == (0, "")


def test_a_bad_map_file_is_an_error_naming_it(capsys, tmp_path):
    path = tmp_path / "map.json"
    path.write_text("[1]")
    status, _, err = run(capsys, "score", GOLD, PRED, "--map-file", str(path))
    assert status == 1
    assert f"{path}: expected one JSON object of labels" in err


@pytest.mark.parametrize(("content", "message"), [
    (b'{"NP": null}', '"NP" maps to null; expected a new label (a non-empty string), such as '
                      '{"GPE": "LOC"}.'),
    (b'{"NP": ""}', '"NP" maps to ""; expected a new label'),
    (b'{"NP": 3}', '"NP" maps to 3; expected a new label'),
    (b'{"NP": "A", "": "B"}', 'the key "" is no label; give each label (a non-empty string) its '
                              'new label'),
    (b'{"NP": "A", "NP": "B"}', 'the label "NP" is mapped twice; keep one of its entries.'),
    ('{"NP": "\u00c9"}'.encode("latin-1"), ", line 1: cannot decode byte 0xc9 as UTF-8; a label "
                                          "map is a JSON file, which is UTF-8: save it as UTF-8."),
])
def test_a_bad_map_file_entry_is_named(capsys, tmp_path, content, message):
    path = tmp_path / "map.json"
    path.write_bytes(content)
    status, out, err = run(capsys, "score", GOLD, PRED, "--map-file", str(path))
    assert (status, out) == (1, "")
    assert err.startswith(f"nerscore score: error: {path}")
    assert message in err
    assert len(err.splitlines()) == 1


def test_a_map_file_may_have_a_byte_order_mark(capsys, tmp_path):
    path = tmp_path / "map.json"
    path.write_bytes(b'\xef\xbb\xbf{"NP": "X"}')
    got, _ = _json(capsys, "--map-file", str(path))
    assert "X" in got["labels"]


def test_compare_and_report_take_them(capsys, tmp_path):
    status, out, err = run(capsys, "compare", GOLD, PRED, PRED2, "--names", "a", "b",
                           "--resamples", "20", "--drop", "PP", "--format", "json")
    assert status == 0, err
    assert "a: Labels removed (--drop): PP (90 gold, 107 predicted entities)." in \
        json.loads(out)["notes"]
    page = tmp_path / "r.html"
    status, _, err = run(capsys, "report", GOLD, PRED, "--map-file",
                         str(DATA / "label_ops" / "map.json"), "--keep", "NP", "-o", str(page))
    assert status == 0, err
    html = page.read_text()
    assert "Labels removed (--keep): ADJP (6 gold, 1 predicted entity)" in html
    assert "not a label of the data" in err  # the map names GPE and FAC


def test_convert_applies_them_to_the_entities_written(capsys, tmp_path):
    import nerscore
    from nerscore.io.formats import get_format

    out = tmp_path / "pred.jsonl"
    status, _, err = run(capsys, "convert", PRED, str(out), "--from-scheme", "IOB2",
                         "--map", "ADJP=NP", "--drop", "SBAR")
    assert status == 0, err
    assert "Labels renamed (--map): ADJP -> NP (1 entity)." in err
    assert "Labels merged (--map): ADJP and NP are written as NP." in err
    assert "Labels removed (--drop): SBAR (3 entities)." in err
    docs = get_format("jsonl").load(out).data
    labels = {e.label for d in docs for e in d.spans}
    assert labels == {"ADVP", "NP", "PP", "VP"}
    # converting with the operations, then scoring, gives the scores of scoring with them
    conll = tmp_path / "pred.conll"
    assert main(["convert", PRED, str(conll), "--from-scheme", "IOB2", "--map", "ADJP=NP",
                 "--drop", "SBAR"]) == 0
    gold = tmp_path / "gold.conll"
    assert main(["convert", GOLD, str(gold), "--from-scheme", "IOB2", "--map", "ADJP=NP",
                 "--drop", "SBAR"]) == 0
    with_ops = nerscore.score_files(GOLD, PRED, labels_map={"ADJP": "NP"}, drop=["SBAR"],
                                    scheme="IOB2")
    converted = nerscore.score_files(gold, conll, scheme="IOB2")
    assert with_ops.report.counts.to_dict() == converted.report.counts.to_dict()


def test_convert_of_tags_needs_their_scheme(capsys, tmp_path):
    status, _, err = run(capsys, "convert", PRED, str(tmp_path / "x.conll"), "--keep", "NP")
    assert status == 2
    assert err == ("nerscore convert: error: Label operations act on entities: pass the scheme "
                   "of the input tags to decode them, e.g. --from-scheme IOB2 (nerscore never "
                   "guesses it). See 'nerscore convert --help'.\n")


def test_the_notes_name_the_flags_given(capsys, tmp_path):
    mapping = tmp_path / "map.json"
    mapping.write_text('{"ADJP": "NP"}', encoding="utf-8")
    status, out, err = run(capsys, "score", GOLD, PRED, "--map-file", str(mapping), "--keep",
                           "NP", "--format", "json")
    assert status == 0, err
    notes = json.loads(out)["notes"]
    assert notes[0].startswith("Labels renamed (--map-file): ADJP -> NP (")
    assert notes[1] == "Labels merged (--map-file): ADJP and NP are scored as NP."
    assert notes[2].startswith("Labels removed (--keep): ")
    status, out, err = run(capsys, "score", GOLD, PRED, "--map-file", str(mapping), "--map",
                           "ADVP=NP")
    assert status == 0, err
    assert "note: Labels renamed (--map-file/--map): ADJP -> NP (" in out


def test_the_notes_quote_labels_and_paths_holding_keywords_as_they_are(capsys, tmp_path,
                                                                       monkeypatch):
    # flags replace the library's keywords in the notes, never in the user's labels and paths
    monkeypatch.chdir(tmp_path)
    gold = Path("mode=strict.conll")
    gold.write_text("a B-mode=X\nb I-mode=X\nc O\n(x) B-keep\n\n")
    pred = Path("p.conll")
    pred.write_text("a B-mode=X\nb O\nc B-(drop)\n(x) B-keep\n\n")
    status, out, err = run(capsys, "score", str(gold), str(pred), "--keep", "mode=Y,keep",
                           "--format", "json")
    assert status == 0, err
    assert ("warning: The label operations name 'mode=Y', which is not a label of the data; the "
            "labels are '(drop)', 'keep', 'mode=X'. Did you mean 'mode=X'?") in err
    assert json.loads(out)["notes"] == [
        "Labels removed (--keep): (drop) (0 gold, 1 predicted entity); mode=X (1 gold, "
        "1 predicted entity)."]
    status, _, err = run(capsys, "score", str(gold), str(pred), "--map", "(drop)=keep=Y")
    assert "got '(drop)=keep=Y'" in err
    status, _, err = run(capsys, "validate", str(gold), "--scheme", "IOBES")
    assert f"note: {gold}: 2 invalid transitions" in err
    assert f"`nerscore repair {gold} --scheme IOBES` fixes them" in err
