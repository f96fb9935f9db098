"""``--map``, ``--map-file``, ``--keep`` and ``--drop`` in score, compare and report."""

from __future__ import annotations

import json

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
        "Labels renamed (labels_map): ADJP -> NP (6 gold, 1 predicted entity); ADVP -> NP "
        "(8 gold, 11 predicted entities).",
        "Labels merged by labels_map: ADJP, ADVP and NP are scored as NP.",
        "Labels removed (keep/drop): PP (90 gold, 107 predicted entities); SBAR (6 gold, 3 "
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


@pytest.mark.parametrize(("argv", "message"), [
    (["--keep", "NP", "--drop", "VP"], "argument --drop: not allowed with argument --keep"),
    (["--map", "NP"], "expected OLD=NEW"),
])
def test_bad_label_options_are_usage_errors(capsys, argv, message):
    status, _, err = run(capsys, "score", GOLD, PRED, *argv)
    assert status == 2
    assert message in err


def test_one_label_mapped_twice_is_an_error(capsys):
    status, _, err = run(capsys, "score", GOLD, PRED, "--map", "NP=A", "--map", "NP=B")
    assert status == 1
    assert "`labels_map` maps 'NP' twice: to 'A' and 'B'" in err


def test_a_bad_map_file_is_an_error_naming_it(capsys, tmp_path):
    path = tmp_path / "map.json"
    path.write_text("[1]")
    status, _, err = run(capsys, "score", GOLD, PRED, "--map-file", str(path))
    assert status == 1
    assert f"{path}: expected one JSON object of labels" in err


def test_compare_and_report_take_them(capsys, tmp_path):
    status, out, err = run(capsys, "compare", GOLD, PRED, PRED2, "--names", "a", "b",
                           "--resamples", "20", "--drop", "PP", "--format", "json")
    assert status == 0, err
    assert "a: Labels removed (keep/drop): PP (90 gold, 107 predicted entities)." in \
        json.loads(out)["notes"]
    page = tmp_path / "r.html"
    status, _, err = run(capsys, "report", GOLD, PRED, "--map-file",
                         str(DATA / "label_ops" / "map.json"), "--keep", "NP", "-o", str(page))
    assert status == 0, err
    html = page.read_text()
    assert "Labels removed (keep/drop): ADJP (6 gold, 1 predicted entity)" in html
    assert "not a label of the data" in err  # the map names GPE and FAC
