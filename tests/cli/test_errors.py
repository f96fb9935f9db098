"""Errors of the command line: every OS error names the file and its role; no raw bytes."""

from __future__ import annotations

import os

import pytest

from nerscore.cli import main
from tests.paths import EXAMPLES

GOLD = str(EXAMPLES / "conll2000" / "gold.conll")
PRED = str(EXAMPLES / "conll2000" / "pred.conll")


def run(capsys, *argv: str) -> tuple[int, str]:
    status = main(list(argv))
    err = capsys.readouterr().err
    assert "Traceback" not in err
    return status, err


@pytest.mark.skipif(not os.path.exists("/proc/self/mem"), reason="needs /proc")
def test_a_read_error_without_a_file_name_names_the_file_and_its_side(capsys):
    status, err = run(capsys, "score", GOLD, "/proc/self/mem")
    assert status == 1
    assert "cannot read PRED '/proc/self/mem': Input/output error." in err


def test_missing_inputs_and_unwritable_outputs_say_which(capsys, tmp_path):
    status, err = run(capsys, "score", GOLD, str(tmp_path / "nope.conll"))
    assert "cannot read PRED" in err
    assert status == 1
    status, err = run(capsys, "report", GOLD, PRED, "--train", str(tmp_path / "t.conll"),
                      "-o", str(tmp_path / "r.html"))
    assert "cannot read TRAIN" in err
    target = tmp_path / "no" / "such" / "x.json"
    status, err = run(capsys, "score", GOLD, PRED, "-o", str(target))
    assert status == 1
    assert f"cannot write --output {str(target)!r}: No such folder" in err


def test_conlleval_on_a_tab_separated_file_keeps_the_status_and_hints(capsys, tmp_path):
    path = tmp_path / "tab.txt"
    path.write_bytes(b"a\tB-LOC\tB-LOC\nb\tO\tO\n\nc d\tO\tO\n")
    status, err = run(capsys, "conlleval", str(path))
    assert status == 255
    assert err.splitlines()[-1] == ("nerscore conlleval: hint: the file has tabs; if its fields "
                                    "are tab-separated, pass -d '\\t'")
    status, err = run(capsys, "conlleval", "-d", "\\t", str(path))
    assert status == 0


def test_conlleval_never_writes_control_bytes_to_the_terminal(capsysbinary, tmp_path):
    path = tmp_path / "bin.dat"
    path.write_bytes(b"\x1b[2J\x07\xff\x00\nb O O\n")
    status = main(["conlleval", str(path)])
    err = capsysbinary.readouterr().err
    assert status == 255
    assert b"\x1b" not in err
    assert b"\x07" not in err
    assert b"\\x1b[2J\\x07" in err
