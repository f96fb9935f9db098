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



def test_an_option_s_file_that_cannot_be_read_is_named_with_its_option(capsys, tmp_path):
    status, err = run(capsys, "score", GOLD, PRED, "--map-file", str(tmp_path))
    assert status == 1
    assert f"cannot read --map-file {str(tmp_path)!r}: Is a directory." in err


GOLD_ERRORS = {
    "conll, an encoding error": ("g.conll", b"a B-PER\nx O\n\n" * 20 + b"b\xff O\n",
                                 "Cannot decode byte 0xff as utf-8 ({gold}, line 61)"),
    "conll, a line without a label": ("g.conll", b"a B-PER\nx O\n\n" * 20 + b"b\n",
                                      "line 61 of {gold} has 1 column ('b',"),
    "jsonl, malformed JSON": ("g.jsonl", b"".join(b'{"id": "%d", "text": "a", "spans": []}\n' % k
                                                  for k in range(5)) + b"{x\n",
                              "{gold}, line 6: malformed JSON"),
}


@pytest.mark.parametrize("case", list(GOLD_ERRORS))
def test_gold_s_reader_error_comes_before_a_prediction_that_cannot_be_read(capsys, tmp_path,
                                                                          monkeypatch, case):
    """Read whole, gold is read first: read in chunks, its error late in the file still comes first."""
    from nerscore.io import _conll_stream

    monkeypatch.setattr(_conll_stream, "STREAM_BLOCK_SIZE", 64)  # gold's first chunks read well
    name, data, said = GOLD_ERRORS[case]
    gold = tmp_path / name
    gold.write_bytes(data)
    pred = tmp_path / ("missing" + gold.suffix)
    streamed = run(capsys, "score", str(gold), str(pred), "--chunk-sentences", "1")
    whole = run(capsys, "score", str(gold), str(pred), "--chunk-sentences", "0")
    assert streamed == whole
    status, err = streamed
    assert status == 1
    assert err.startswith("nerscore score: error: ")
    assert said.format(gold=gold) in err
    assert "PRED" not in err
    # gold read to its end without one: the prediction's error, on either path
    gold.write_bytes(data.rpartition(b"\n\n" if name.endswith(".conll") else b"\n{")[0] + b"\n")
    streamed = run(capsys, "score", str(gold), str(pred), "--chunk-sentences", "1")
    assert streamed == run(capsys, "score", str(gold), str(pred), "--chunk-sentences", "0")
    assert streamed == (1, f"nerscore score: error: cannot read PRED {str(pred)!r}: No such file "
                           "or directory.\n")



@pytest.mark.parametrize("layout", ["tags", "spans"])
def test_a_parquet_gold_s_reader_error_comes_before_a_prediction_that_cannot_be_read(
        capsys, tmp_path, monkeypatch, layout):
    """As for CoNLL and JSON Lines: the kind of the missing file does not open it first."""
    pa = pytest.importorskip("pyarrow")
    import pyarrow.parquet as pq

    from nerscore.io import parquet

    monkeypatch.setattr(parquet, "_BATCH", 4)  # gold's first batches read well
    gold, pred = tmp_path / "g.parquet", tmp_path / "missing.parquet"

    def write(bad):
        if layout == "tags":
            labels = [["B-PER", "O"]] * 20 + [["B-PER", None] if bad else ["O"]]
            pq.write_table(pa.table({"labels": labels}), gold, row_group_size=4)
            return f"{gold}: column 'labels' has null labels."
        ids = [f"d{k}" for k in range(20)] + ["d1" if bad else "d20"]
        span = pa.struct([("start", pa.int64()), ("end", pa.int64()), ("label", pa.string())])
        pq.write_table(pa.table({"id": ids, "spans": pa.array([[]] * 21, type=pa.list_(span))}),
                       gold, row_group_size=4)
        return (f"{gold}, row 20 (counting from 0): document id 'd1' was already used on row 1; "
                "ids must be unique.")

    said = write(bad=True)
    streamed = run(capsys, "score", str(gold), str(pred), "--chunk-sentences", "1")
    assert streamed == run(capsys, "score", str(gold), str(pred), "--chunk-sentences", "0")
    assert streamed == (1, f"nerscore score: error: {said}\n")
    write(bad=False)  # gold read to its end without one: the prediction's error, named
    streamed = run(capsys, "score", str(gold), str(pred), "--chunk-sentences", "1")
    assert streamed == run(capsys, "score", str(gold), str(pred), "--chunk-sentences", "0")
    assert streamed == (1, f"nerscore score: error: cannot read PRED {str(pred)!r}: No such file "
                           "or directory.\n")


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


@pytest.mark.parametrize(("argv", "flag"), [
    (("{g}", "{p}", "--gold-encoding", "utf-16"), "--gold-encoding"),
    (("{p}", "{g}", "--pred-encoding", "utf-16"), "--pred-encoding"),
    (("{p}", "{b}", "{g}", "--runs", "--pred-encoding", "utf-16"), "--pred-encoding"),
    (("{g}", "{g}", "--encoding", "utf-16-le", "--pred-encoding", "utf-16"), "--pred-encoding"),
    (("{g}", "{p}", "--encoding", "utf-16", "--pred-encoding", "utf-8"), "--encoding"),
    (("{p}", "{g}", "--encoding", "utf-16", "--gold-encoding", "utf-8"), "--encoding"),
])
def test_decoding_advice_names_the_flag_that_gave_the_files_encoding(capsys, tmp_path, argv,
                                                                       flag):
    utf16, utf8 = tmp_path / "u16.conll", tmp_path / "u8.conll"
    utf16.write_bytes("Anna B-PER\n".encode("utf-16-le"))  # no byte order mark
    utf8.write_text("Anna B-PER\n", encoding="utf-8")
    (tmp_path / "bom.conll").write_bytes("Anna B-PER\n".encode("utf-16"))
    status, err = run(capsys, "score", *(a.format(g=utf16, p=utf8, b=tmp_path / "bom.conll")
                                         for a in argv))
    assert status == 1
    assert err.startswith(f"nerscore score: error: Cannot decode the file as utf-16 ({utf16}, "
                          "line 1)")
    assert err.endswith(f"`encoding` option ({flag} on the command line), e.g. {flag} utf-16-le "
                        f"or {flag} utf-16-be for UTF-16 without a byte order mark.\n")


def test_a_systems_file_is_advised_its_pred_encoding(capsys, tmp_path):
    gold, bom, no_bom = tmp_path / "g.conll", tmp_path / "a.conll", tmp_path / "b.conll"
    gold.write_text("Anna B-PER\n", encoding="utf-8")
    bom.write_bytes("Anna B-PER\n".encode("utf-16"))
    no_bom.write_bytes("Anna B-PER\n".encode("utf-16-le"))
    status, err = run(capsys, "compare", str(gold), "--system", f"A={bom}",
                      "--system", f"B={no_bom}", "--pred-encoding", "utf-16")
    assert status == 1
    assert f"({no_bom}, line 1)" in err
    assert "e.g. --pred-encoding utf-16-le" in err
    assert "--encoding" not in err


def test_conlleval_run_alone_is_the_subcommand(tmp_path):
    # `python -m nerscore.cli.conlleval` stops as the script does, and refuses what
    # `nerscore conlleval` refuses, each in one line
    import subprocess
    import sys

    path = tmp_path / "bad.txt"
    path.write_bytes(b"a B-X B-X\nb I-X\n")

    def alone(*argv: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "nerscore.cli.conlleval", *argv],
                              capture_output=True, text=True, stdin=subprocess.DEVNULL,
                              check=False)

    done = alone(str(path))
    assert (done.returncode, done.stderr) == (1, "unexpected number of features: 2 (3)\n")
    done = alone("-d", "[", str(path))
    assert done.returncode == 2
    assert done.stderr.startswith("nerscore conlleval: error: cannot use -d '['")
    done = alone(str(path), "--output", str(path))
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1
    assert "is the input" in done.stderr
    assert path.read_bytes() == b"a B-X B-X\nb I-X\n"


@pytest.mark.parametrize("command", [
    ["report", "{gold}", "{pred}", "-o", "{out}"],
    ["compare", "{gold}", "{pred}", "{gold}"],
    ["agree", "{gold}", "{pred}"],
    ["score", "{gold}", "{pred}", "{pred}", "--runs"],
])
def test_every_command_gives_gold_s_reader_error_before_a_parquet_file_it_cannot_open(
        capsys, tmp_path, command):
    """Files are read in order: the kind of a missing Parquet file does not open it first."""
    pytest.importorskip("pyarrow")
    gold = tmp_path / "g.jsonl"
    gold.write_text('{"id": "a", "spans": [[0, 1, "PER"]]}\n{"id": "b", "spans": [[0, 1\n')
    pred = tmp_path / "missing.parquet"
    argv = [a.format(gold=gold, pred=pred, out=tmp_path / "r.html") for a in command]
    assert main(argv) == 1
    err = capsys.readouterr().err
    assert f"{gold}, line 2: malformed JSON" in err
    assert "missing.parquet" not in err
