"""Input formats on the command line: every command reads every registered format alike."""

from __future__ import annotations

import json

import pytest

from nerscore.cli import main
from nerscore.io.conll import read_conll
from tests.paths import ROOT

EXAMPLE = ROOT / "examples" / "conll2000"
GOLD, PRED = str(EXAMPLE / "gold.conll"), str(EXAMPLE / "pred.conll")


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    assert "Traceback" not in err
    return status, out, err


@pytest.fixture
def parquet_pred(tmp_path):
    pytest.importorskip("pyarrow")
    from nerscore.io.parquet import write_parquet_tags

    path = tmp_path / "pred.parquet"
    write_parquet_tags(path, read_conll(PRED).tags)
    return path


@pytest.mark.parametrize("chunks", ["5", "0"])
def test_conll_gold_scores_parquet_predictions(capsys, parquet_pred, chunks):
    status, out, err = run(capsys, "score", GOLD, parquet_pred, "--format", "json",
                           "--chunk-sentences", chunks)
    assert status == 0, err
    _, whole, _ = run(capsys, "score", GOLD, PRED, "--format", "json")
    assert json.loads(out)["overall"] == json.loads(whole)["overall"]


def test_parquet_with_ci_and_in_report(capsys, tmp_path, parquet_pred):
    status, out, err = run(capsys, "score", GOLD, parquet_pred, "--ci", "--resamples", "20")
    assert status == 0, err
    assert "confidence intervals" in out
    page = tmp_path / "r.html"
    status, _, err = run(capsys, "report", GOLD, parquet_pred, "-o", page)
    assert status == 0, err
    assert page.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")


@pytest.mark.parametrize(("argv", "message"), [
    (["score", GOLD, "{pq}", "--pred-encoding", "latin-1"],
     "--pred-encoding applies to no input; the inputs are conll, parquet files"),
    (["score", "{pq}", "{pq}", "--comments"], "--comments applies to no input"),
    (["score", "{pq}", "{pq}", "--gold-column", "1", "--encoding", "latin-1"],
     "--encoding, --gold-column apply to no input"),
    (["convert", "{jsonl}", "{tmp}/x.conll", "--token-column", "2"],
     "--token-column applies to no input; the inputs are jsonl files"),
])
def test_reading_options_no_input_takes_are_refused(capsys, tmp_path, parquet_pred, argv,
                                                   message):
    (tmp_path / "g.jsonl").write_text('{"id": "a", "text": "x", "spans": []}\n')
    argv = [a.format(pq=parquet_pred, jsonl=tmp_path / "g.jsonl", tmp=tmp_path) for a in argv]
    status, _, err = run(capsys, *argv)
    assert status == 2
    assert message in err


def test_reading_options_one_input_takes_are_used(capsys, parquet_pred):
    status, out, err = run(capsys, "score", GOLD, parquet_pred, "--comments", "--format", "json")
    assert status == 0, err
    assert json.loads(out)["overall"]["f1"] > 0


def test_compare_prints_every_reader_note(capsys, tmp_path):
    gold = tmp_path / "g.conll"
    gold.write_text("-DOCSTART- O\n\nAnn B-PER\n\nBo O\n", encoding="utf-8")
    status, _, err = run(capsys, "compare", gold, gold, gold, "--names", "a", "b",
                         "--resamples", "10", "--zero-division", "0")
    assert status == 0, err
    assert f"{gold}: 1 -DOCSTART- line read as document boundary" in err
