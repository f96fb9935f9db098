"""Megabyte-long tokens and labels: messages quote them short, the table stays narrow."""

from __future__ import annotations

from pathlib import Path

import pytest

from nerscore.cli import main

LONG = 1_000_000


def _write(path: Path, text: str) -> str:
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_a_line_without_breaks_is_quoted_short(tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    gold = _write(tmp_path / "one", "A O\n")
    pred = _write(tmp_path / "huge", "A" * LONG)
    assert main(["score", gold, pred]) == 1
    err = capsys.readouterr().err
    assert f"('{'A' * 60}'... ({LONG} characters), split at whitespace)" in err
    assert len(err) < 600


def test_a_long_label_is_written_whole_in_its_own_row_and_quoted_short_in_notes(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    label = "X" * LONG
    gold = _write(tmp_path / "g", "A B-PER\n")
    pred = _write(tmp_path / "p", f"A B-{label}\n")
    assert main(["score", gold, pred]) == 0
    out, err = capsys.readouterr()
    assert "\n         PER       0.00       0.00       0.00          1" in out
    assert f"{label}       0.00       0.00       0.00          0" in out  # whole, not padded
    assert "weighted avg       0.00" in out
    assert len(out) < LONG + 2000
    assert f"for '{'X' * 60}'... ({LONG} characters) (no gold entities)" in err
    assert len(err) < 600


def test_long_tokens_that_differ_are_quoted_short(tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    gold = _write(tmp_path / "g", "A" * LONG + " O\n")
    pred = _write(tmp_path / "p", "B" * LONG + " O\n")
    assert main(["score", gold, pred, "-q"]) == 0
    assert main(["score", gold, pred, "--strict-tokens"]) == 1
    err = capsys.readouterr().err
    assert f"'{'A' * 60}'... ({LONG} characters) ({gold}, line 1) vs '{'B' * 60}'... " in err
    assert len(err) < 800


@pytest.mark.parametrize("command", ["score {gold} {pred} --confusion",
                                     "diagnose --train {gold} --test {pred}"])
def test_a_long_label_widens_no_other_row_of_the_tables(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str) -> None:
    label = "X" * LONG
    gold = _write(tmp_path / "g", "A B-PER\nb O\n")
    pred = _write(tmp_path / "p", f"A B-{label}\nb B-PER\n")
    assert main(command.format(gold=gold, pred=pred).split()) == 0
    out = capsys.readouterr().out
    assert len(out) < 4 * LONG  # the label in the score table, a row and a column header at most
    assert max(len(line) for line in out.splitlines() if label not in line) < 200
