"""``-`` for one input file: standard input, with the format given or sniffed."""

from __future__ import annotations

import io
import json
import os
import sys

import pytest

from nerscore.cli import main
from nerscore.cli._stdin import sniff_format
from tests.paths import EXAMPLES

GOLD = EXAMPLES / "conll2000" / "gold.conll"
PRED = EXAMPLES / "conll2000" / "pred.conll"
PRED2 = EXAMPLES / "conll2000" / "pred_discard.conll"


class _Stdin(io.TextIOWrapper):
    def __init__(self, data: bytes, tty: bool = False) -> None:
        super().__init__(io.BytesIO(data), encoding="utf-8")
        self._tty = tty

    def isatty(self) -> bool:
        return self._tty


def run(capsys, monkeypatch, data, *argv, tty=False):
    monkeypatch.setattr(sys, "stdin", _Stdin(data, tty))
    status = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    assert "Traceback" not in err
    return status, out, err


def _overall(out):
    return json.loads(out)["overall"]


def test_a_conll_prediction_from_standard_input_scores_as_the_file(capsys, monkeypatch):
    status, out, err = run(capsys, monkeypatch, PRED.read_bytes(), "score", GOLD, "-",
                           "--format", "json")
    assert status == 0, err
    status, want, _ = run(capsys, monkeypatch, b"", "score", GOLD, PRED, "--format", "json")
    assert _overall(out) == _overall(want)


def test_gold_from_standard_input_and_the_temporary_file_is_removed(capsys, monkeypatch,
                                                                   tmp_path):
    monkeypatch.setattr("tempfile.tempdir", str(tmp_path))
    status, out, err = run(capsys, monkeypatch, GOLD.read_bytes(), "score", "-", PRED,
                           "--format", "json")
    assert status == 0, err
    assert _overall(out)["tp"] == 371
    assert os.listdir(tmp_path) == []


def test_json_lines_and_parquet_are_sniffed(capsys, monkeypatch, tmp_path):
    pytest.importorskip("pyarrow")
    gold = tmp_path / "g.jsonl"
    gold.write_text('{"id": "a", "text": "Anna met Bo", "spans": [{"start": 0, "end": 4, '
                    '"label": "PER"}, {"start": 9, "end": 11, "label": "PER"}]}\n')
    pred = b'{"id": "a", "spans": [{"start": 0, "end": 4, "label": "PER"}]}\n'
    status, out, err = run(capsys, monkeypatch, pred, "score", gold, "-", "--format", "json")
    assert status == 0, err
    assert (_overall(out)["tp"], _overall(out)["n_gold"]) == (1, 2)
    pq, pred_file = tmp_path / "p.parquet", tmp_path / "p.jsonl"
    pred_file.write_bytes(pred)
    assert main(["convert", str(pred_file), str(pq)]) == 0
    capsys.readouterr()
    status, out2, err = run(capsys, monkeypatch, pq.read_bytes(), "score", gold, "-",
                            "--format", "json")
    assert status == 0, err
    assert _overall(out2) == _overall(out)


def test_a_given_format_wins_over_the_sniffed_one(capsys, monkeypatch):
    pytest.importorskip("pyarrow")
    status, _, err = run(capsys, monkeypatch, PRED.read_bytes(), "score", GOLD, "-",
                         "--pred-format", "parquet")
    assert status == 1
    assert "<stdin>: not a Parquet file" in err  # read as the format given


def test_compare_and_convert_read_one_input_from_standard_input(capsys, monkeypatch, tmp_path):
    status, out, err = run(capsys, monkeypatch, PRED2.read_bytes(), "compare", GOLD, PRED, "-",
                           "--names", "pred", "discard", "--resamples", "20", "--format",
                           "json")
    assert status == 0, err
    assert [s["name"] for s in json.loads(out)["systems"]] == ["pred", "discard"]
    target = tmp_path / "pred.jsonl"
    status, _, err = run(capsys, monkeypatch, PRED.read_bytes(), "convert", "-", target,
                         "--from-scheme", "IOB2")
    assert status == 0, err
    assert len(target.read_text().splitlines()) == 40


@pytest.mark.parametrize(("data", "argv", "tty", "message"), [
    (b"x", ["score", "-", "-"], False, "standard input can be read once"),
    (b"", ["score", str(GOLD), "-"], False, "standard input ('-') is empty"),
    (b"x", ["score", str(GOLD), "-"], True, "'-' reads standard input, but it is a terminal"),
])
def test_standard_input_usage_errors(capsys, monkeypatch, data, argv, tty, message):
    status, _, err = run(capsys, monkeypatch, data, *argv, tty=tty)
    assert status == 2
    assert message in err


def test_a_label_map_from_standard_input(capsys, monkeypatch, tmp_path):
    mapping = {"NP": "X", "VP": "X"}
    path = tmp_path / "map.json"
    path.write_text(json.dumps(mapping), encoding="utf-8")
    expected = run(capsys, monkeypatch, b"", "score", GOLD, PRED, "--map-file", path,
                   "--format", "json")
    got = run(capsys, monkeypatch, json.dumps(mapping).encode(), "score", GOLD, PRED,
              "--map-file", "-", "--format", "json")
    assert got[0] == expected[0] == 0
    assert _overall(got[1]) == _overall(expected[1])
    assert "X" in json.loads(got[1])["labels"]
    status, _, err = run(capsys, monkeypatch, b'{"NP": 3}', "score", GOLD, PRED,
                         "--map-file", "-")
    assert status == 1
    assert err.startswith('nerscore score: error: <stdin>: "NP" maps to 3')
    status, _, err = run(capsys, monkeypatch, b'{"NP": "X"}', "score", "-", PRED,
                         "--map-file", "-")
    assert status == 2
    assert "standard input can be read once" in err


def test_sniff_format():
    assert sniff_format(b"\xef\xbb\xbf\n  {") == "jsonl"
    assert sniff_format(b"") == "conll"
    assert sniff_format(b"-DOCSTART- O\n") == "conll"


def test_notes_warnings_and_the_result_name_standard_input_stdin(capsys, monkeypatch, tmp_path):
    stderr = sys.stderr
    status, out, err = run(capsys, monkeypatch, PRED.read_bytes(), "score", "-", PRED)
    assert status == 0, err
    assert sys.stderr is stderr  # put back when the command ends
    same = f"gold and prediction are the same file: <stdin> and {PRED} have identical content"
    assert f"nerscore score: note: {same}" in err
    assert same in out  # the note among the result's notes
    differing = GOLD.read_text(encoding="utf-8").replace("Rockwell", "Trust", 1)
    status, out, err = run(capsys, monkeypatch, differing.encode(), "score", "-", PRED,
                           "--format", "json", "--output", tmp_path / "scores.json")
    assert status == 0, err
    assert "nerscore score: warning: 1 of 961 tokens differ between <stdin> and " in err
    written = (tmp_path / "scores.json").read_text(encoding="utf-8")
    assert "differ between <stdin> and " in written
    status, out, err = run(capsys, monkeypatch, PRED.read_bytes(), "score", GOLD, "-", PRED2,
                           "--runs")
    assert status == 0, err
    assert "runs: <stdin>, " in out
    assert "nerscore-stdin" not in out + err + written
    status, _, err = run(capsys, monkeypatch, b"Rockwell B-NP\n", "score", "-", PRED)
    assert status == 1
    assert err.startswith("nerscore score: error: <stdin> has 1 sentence but ")


def test_report_of_standard_input_names_it_stdin(capsys, monkeypatch, tmp_path):
    """The default page is report.html; a PRED read from standard input is the system 'stdin'."""
    monkeypatch.chdir(tmp_path)
    status, _, err = run(capsys, monkeypatch, GOLD.read_bytes(), "report", "-", PRED)
    assert status == 0, err
    assert err.startswith("nerscore report: note: wrote report.html (system 'pred', ")
    first = (tmp_path / "report.html").read_text(encoding="utf-8")
    status, _, err = run(capsys, monkeypatch, PRED.read_bytes(), "report", GOLD, "-",
                         "--output", "stdin.html")
    assert status == 0, err
    assert err.startswith("nerscore report: note: wrote stdin.html (system 'stdin', ")
    page = (tmp_path / "stdin.html").read_text(encoding="utf-8")
    assert '"name":"stdin"' in page
    assert sorted(os.listdir(tmp_path)) == ["report.html", "stdin.html"]
    assert "nerscore-stdin" not in first + page


def test_error_records_of_standard_input_name_no_temporary_file(capsys, monkeypatch, tmp_path):
    gold = b'{"id": "a", "text": "Anna met Bo", "spans": [[0, 4, "PER"], [9, 11, "PER"]]}\n'
    pred = tmp_path / "p.jsonl"
    pred.write_text('{"id": "a", "spans": [[0, 4, "PER"]]}\n', encoding="utf-8")
    written = ""
    for fmt in ("jsonl", "csv"):
        errors = tmp_path / f"errors.{fmt}"
        status, _, err = run(capsys, monkeypatch, gold, "score", "-", pred, "--errors", errors)
        assert status == 0, err
        written += errors.read_text(encoding="utf-8")
    record = json.loads((tmp_path / "errors.jsonl").read_text(encoding="utf-8"))
    assert (record["doc_id"], record["gold_text"]) == ("a", "Bo")
    assert "stdin" not in written  # nor the temporary file (nerscore-stdin-...)
