"""``nerscore diagnose``, run in-process through ``main(argv)``."""

from __future__ import annotations

import json

import pytest

from nerscore.cli import main
from tests.paths import TESTS

DATA = TESTS / "data" / "diagnostics"
TRAIN, TEST, PRED = (str(DATA / n) for n in ("train.conll", "test.conll", "pred.conll"))


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(["diagnose", *argv])
    out, err = capsys.readouterr()
    assert "Traceback" not in err
    return status, out, err


def test_text_report(capsys):
    status, out, err = run(capsys, "--train", TRAIN, "--test", TEST, "--pred", PRED,
                           "--scheme", "IOB2")
    assert status == 0, err
    assert out.startswith("dataset diagnostics: 1 error, 7 warnings, 1 info\n")
    assert "[warning] confused_labels (LOC, PER):" in out
    assert "train.conll:200 ('O' -> 'I-PER')" in out


def test_json_report(capsys):
    status, out, _ = run(capsys, "--train", TRAIN, "--test", TEST, "--format", "json",
                         "--min-instances", "2")
    assert status == 0
    data = json.loads(out)
    kinds = {f["kind"] for f in data["findings"]}
    assert "few_instances" not in kinds
    assert {"missing_in_train", "missing_in_test", "distribution_shift",
            "seen_overlap"} <= kinds
    assert data["skipped"]["confused_labels"] == "no prediction given"
    assert data["settings"]["min_instances"] == 2


def test_clean_files_report_no_findings(capsys):
    status, out, _ = run(capsys, "--train", str(DATA / "clean_train.conll"),
                         "--test", str(DATA / "clean_test.conll"),
                         "--pred", str(DATA / "clean_pred.conll"), "--scheme", "BIO")
    assert status == 0
    assert out.startswith("dataset diagnostics: 0 errors, 0 warnings, 0 info")
    assert "no findings" in out


def test_markdown_to_a_file(capsys, tmp_path):
    target = tmp_path / "diag.md"
    status, out, _ = run(capsys, "--train", TRAIN, "--test", TEST, "--format", "markdown",
                         "--output", str(target))
    assert status == 0
    assert out == ""
    text = target.read_text(encoding="utf-8")
    assert text.startswith("## Dataset diagnostics")
    assert text.endswith("\n")


def test_span_files(capsys):
    status, out, _ = run(capsys, "--train", str(DATA / "spans_train.jsonl"),
                         "--test", str(DATA / "spans_test.jsonl"), "--format", "json")
    assert status == 0
    data = json.loads(out)
    assert data["skipped"]["invalid_transitions"] == "span input has no tags"
    assert data["seen"]["n_test"] == 16


def test_usage_errors_exit_2(capsys):
    status, _, err = run(capsys, "--test", TEST)
    assert status == 2
    assert "--train" in err
    status, _, err = run(capsys, "--train", TRAIN, "--test", str(DATA / "spans_test.jsonl"))
    assert status == 2
    assert "all as span files" in err
    status, _, err = run(capsys, "--train", str(DATA / "spans_train.jsonl"),
                         "--test", str(DATA / "spans_test.jsonl"), "--scheme", "IOB2")
    assert status == 2
    assert "--scheme says how the tags of tag files are read" in err
    status, _, err = run(capsys, "--train", TRAIN, "--test", TEST, "--mode", "strict")
    assert status == 2
    assert "needs --scheme" in err
    status, _, err = run(capsys, "--train", TRAIN, "--test", TEST, "--shift-threshold", "0.5")
    assert status == 2
    status, _, err = run(capsys, "--train", TRAIN, "--test", TEST, "--pred", PRED,
                         "--match", "token")
    assert status == 2
    assert "entity matcher" in err


def test_data_errors_exit_1(capsys, tmp_path):
    status, _, err = run(capsys, "--train", str(tmp_path / "nope.conll"), "--test", TEST)
    assert status == 1
    assert "cannot read TRAIN" in err
    short = tmp_path / "short.conll"
    short.write_text("Anna B-PER\n", encoding="utf-8")
    status, _, err = run(capsys, "--train", TRAIN, "--test", TEST, "--pred", str(short))
    assert status == 1
    assert "error:" in err


def test_help_shows_an_example(capsys):
    status, out, _ = run(capsys, "--help")
    assert status == 0
    assert "nerscore diagnose --train train.conll --test test.conll" in out
    assert "--min-instances" in out


def test_listed_in_the_top_level_help(capsys):
    assert main(["--help"]) == 0
    assert "diagnose" in capsys.readouterr().out


@pytest.mark.parametrize("fmt", ["text", "json", "markdown"])
def test_the_advice_names_commands_not_library_calls(capsys, fmt):
    status, out, _ = run(capsys, "--train", TRAIN, "--test", TEST, "--format", fmt)
    assert status == 0
    assert "breakdown(" not in out
    assert ("report the score on unseen entities too (nerscore diagnose --pred PRED and "
            "nerscore report --train TRAIN show it)") in out


@pytest.mark.parametrize(("test", "suffix"), [(TEST, ".conll"),
                                              (str(DATA / "spans_test.jsonl"), ".jsonl")])
def test_an_empty_train_file_is_noted(capsys, tmp_path, test, suffix):
    empty = tmp_path / f"empty{suffix}"
    empty.write_text("", encoding="utf-8")
    status, out, err = run(capsys, "--train", str(empty), "--test", test)
    assert status == 0, err
    said = ("train holds no sequences: every test label counts as missing from training and no "
            "test entity as seen in training; check that the training data was given.")
    assert f"note: {said}" in out
    assert f"nerscore diagnose: warning: --train {empty}: {said}" in err


def test_a_train_file_that_is_the_test_data_is_noted(capsys, tmp_path):
    copy = tmp_path / "train.conll"
    copy.write_bytes((DATA / "test.conll").read_bytes())
    status, out, err = run(capsys, "--train", str(copy), "--test", TEST, "--pred", PRED)
    assert status == 0, err
    assert ("note: train and test hold the same data (the same 14 sequences with the same "
            "entities): every test entity counts as seen in training") in out
    assert f"warning: --train {copy}: train and test hold the same data" in err
    status, out, err = run(capsys, "--train", TRAIN, "--test", TEST)
    assert "same data" not in out + err
