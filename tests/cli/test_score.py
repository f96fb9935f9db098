"""The ``nerscore`` command line, run in-process through ``main(argv)``."""

from __future__ import annotations

import codecs
import csv
import json
import os
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

from nerscore.cli import main
from nerscore.io.conll import read_conll
from tests.paths import ROOT, TESTS

ROOT = ROOT
DATA = TESTS / "data" / "conll"
EXAMPLE = ROOT / "examples" / "conll2000"
GOLD = str(DATA / "gold.conll")
PRED = str(DATA / "pred.conll")


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    assert "Traceback" not in err
    return status, out, err


# ---------------------------------------------------------------------------------- score


def test_readme_example_prints_a_clean_report(capsys):
    status, out, err = run(capsys, "score", str(EXAMPLE / "gold.conll"),
                           str(EXAMPLE / "pred.conll"))
    assert status == 0
    assert err == ""
    lines = out.splitlines()
    assert lines[0] == "nerscore 0.1.0 -- match=exact, labeled=True, scheme=auto, mode=lenient"
    assert ("   micro avg       0.69       0.81       0.74        459        539    371    168"
            "     88") in lines
    assert ("          NP       0.65       0.79       0.71        262        317    206    111"
            "     56") in lines
    assert lines[-1] == "accuracy: 0.84 (961 tokens, 40 sequences)"


def test_conlleval_format_matches_the_perl_script(capsys):
    status, out, err = run(capsys, "score", str(EXAMPLE / "gold.conll"),
                           str(EXAMPLE / "pred.conll"), "--format", "conlleval")
    assert (status, err) == (0, "")
    assert out == (DATA / "conll2000-conlleval.txt").read_text(encoding="utf-8")


def test_seqeval_format_matches_seqeval(capsys):
    seqeval_metrics = pytest.importorskip("seqeval.metrics")
    gold = read_conll(EXAMPLE / "gold.conll").to_lists()
    pred = read_conll(EXAMPLE / "pred.conll").to_lists()
    for digits in ("2", "4"):
        status, out, err = run(capsys, "score", str(EXAMPLE / "gold.conll"),
                               str(EXAMPLE / "pred.conll"), "--format", "seqeval",
                               "--digits", digits)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            expected = seqeval_metrics.classification_report(gold, pred, digits=int(digits))
        assert (status, err) == (0, "")
        assert out == expected


def test_json_format_has_counts_and_notes(capsys):
    status, out, _ = run(capsys, "score", GOLD, PRED, "--format", "json",
                         "--zero-division", "0")
    data = json.loads(out)
    assert status == 0
    assert (data["overall"]["tp"], data["overall"]["n_pred"], data["overall"]["n_gold"]) == (
        3, 4, 4)
    assert data["labels"]["MISC"]["n_gold"] == 0
    assert data["notes"] == [f"{GOLD}: 1 -DOCSTART- line read as document boundary"]
    assert (data["n_sequences"], data["n_tokens"]) == (3, 15)


def test_markdown_format_and_notes_on_stderr(capsys):
    status, out, err = run(capsys, "score", GOLD, PRED, "--format", "markdown",
                           "--zero-division", "1")
    assert status == 0
    assert out.splitlines()[2] == ("| label | precision | recall | F1 | support | predicted | TP | FP "
                                   "| FN |")
    assert "| **micro avg** | 0.75 | 0.75 | 0.75 | 4 | 4 |" in out
    assert err == (f"nerscore score: note: {GOLD}: 1 -DOCSTART- line read as document "
                   "boundary\n")


def test_messy_prediction_file_is_scored_with_one_warning_and_one_note(capsys):
    """CRLF, BOM, mixed tab/space, rewritten tokens, I- after O, a type gold never uses."""
    status, out, err = run(capsys, "score", GOLD, str(DATA / "pred_messy.conll"))
    assert status == 0
    assert "   micro avg       0.75       0.75       0.75          4          4" in out
    warning, undefined = err.splitlines()
    assert warning.startswith("nerscore score: warning: 2 of 15 tokens differ between ")
    assert "'Müller' (" in warning
    assert "gold.conll, line 4) vs 'Muller' (" in warning
    assert "pred_messy.conll, line 2)" in warning
    assert warning.endswith("Pass --strict-tokens to make this an error.")
    assert undefined == (
        "nerscore score: note: Precision is ill-defined and set to 0.0 for 'ORG' (no "
        "predicted entities); Recall is ill-defined and set to 0.0 for 'MISC' (no gold "
        "entities). Pass --zero-division 0, 1 or nan to choose the value of undefined scores.")
    assert "note: 2 of 15 tokens differ" in out  # also kept in the report


def test_zero_division_value_silences_the_note(capsys):
    status, out, err = run(capsys, "score", GOLD, PRED, "--zero-division", "nan",
                           "--digits", "3")
    assert (status, err) == (0, "")
    assert "        MISC      0.000        nan      0.000          0          1" in out
    assert "         ORG        nan      0.000      0.000          1          0" in out


def test_strict_mode_and_strict_tokens(capsys):
    status, out, _ = run(capsys, "score", GOLD, str(DATA / "pred_messy.conll"), "--mode",
                         "strict", "--scheme", "BIO", "--zero-division", "0")
    assert status == 0
    assert "scheme=IOB2, mode=strict" in out
    assert "   micro avg       0.67       0.50       0.57          4          3" in out
    status, out, err = run(capsys, "score", GOLD, str(DATA / "pred_messy.conll"),
                           "--strict-tokens")
    assert (status, out) == (1, "")
    assert err.startswith("nerscore score: error: Token 1 of sentence 0 differs between the "
                          f"files: 'Müller' ({GOLD}, line 4) vs 'Muller' (")
    assert len(err.splitlines()) == 1


@pytest.mark.parametrize(
    ("pred", "message"),
    [
        ("pred_short_sentence.conll",
         f"Sentence 1 has 6 tokens in {GOLD} (lines 11-16) but 5 in {DATA}/"
         "pred_short_sentence.conll (lines 9-13); every sentence needs one predicted tag per "
         "gold token."),
        ("pred_missing_sentence.conll",
         f"{GOLD} has 3 sentences but {DATA}/pred_missing_sentence.conll has 2; both files "
         "must list the same sentences in the same order"),
        ("pred_one_column.conll",
         f"line 4 of {DATA}/pred_one_column.conll has 1 column ('in', split at whitespace)"),
        ("pred_latin1.conll",
         f"Cannot decode byte 0xfc as utf-8 ({DATA}/pred_latin1.conll, line 2): the file is in "
         "another encoding. Pass its encoding with the `encoding` option (--encoding on the "
         "command line), e.g. --encoding latin-1 or --encoding cp1252."),
        ("no-such-file.conll",
         f"cannot read PRED '{DATA}/no-such-file.conll': No such file or directory."),
    ],
)
def test_bad_input_is_one_line_naming_what_and_where(capsys, pred, message):
    status, out, err = run(capsys, "score", GOLD, str(DATA / pred))
    assert (status, out) == (1, "")
    assert err.startswith("nerscore score: error: ")
    assert message in err
    assert len(err.splitlines()) == 1


def test_encoding_option(capsys):
    latin = str(DATA / "pred_latin1.conll")
    status, out, err = run(capsys, "score", latin, latin, "--encoding", "latin-1",
                           "--zero-division", "0")
    # the same file on both sides now says so (and nothing else)
    assert (status, err) == (0, f"nerscore score: note: gold and prediction are the same file "
                                f"({latin}); the scores compare it with itself.\n")
    assert "accuracy: 1.00 (15 tokens, 3 sequences)" in out
    spans = str(TESTS / "data" / "diagnostics" / "spans_test.jsonl")
    for codec in ("klingon", "rot13", "zlib"):  # unknown, or no text encoding
        for files in ((GOLD, PRED), (spans, spans)):
            status, _, err = run(capsys, "score", *files, "--encoding", codec)
            assert status == 2
            assert (f"argument --encoding: expected a text encoding Python knows (e.g. utf-8, "
                    f"latin-1, cp1252); got {codec!r}") in err
    for codec in ("idna", "punycode"):  # text, but of host names
        status, _, err = run(capsys, "score", GOLD, PRED, "--encoding", codec)
        assert status == 2
        assert f"got {codec!r}, which encodes host names, not files. See" in err
    for flag in ("--gold-encoding", "--pred-encoding"):
        status, _, err = run(capsys, "score", GOLD, PRED, flag, "rot13")
        assert status == 2
        assert f"argument {flag}: expected a text encoding Python knows" in err


def test_a_huge_beta_scores_the_recall(capsys):
    gold, pred = str(EXAMPLE / "gold.conll"), str(EXAMPLE / "pred.conll")
    status, out, err = run(capsys, "score", gold, pred, "--beta", "1e308", "--format", "json")
    assert (status, err) == (0, "")  # no warning of an overflow
    overall = json.loads(out)["overall"]
    assert overall["fbeta"] == overall["recall"] != overall["precision"]


_UTF16_TEXTS = {".conll": "Anna B-PER\nlebt O\n\n",
                ".jsonl": '{"id": "a", "text": "Anna", "spans": [[0, 4, "PER"]]}\n'}


@pytest.mark.parametrize("suffix", sorted(_UTF16_TEXTS))
@pytest.mark.parametrize(("flag", "codec"), [("--encoding", "utf-16-be"),
                                             ("--gold-encoding", "utf-16-le")])
def test_utf16_without_byte_order_mark_names_the_file(capsys, tmp_path, suffix, flag, codec):
    """The advice names the flag given: --encoding for both files, --gold-encoding for GOLD."""
    text = _UTF16_TEXTS[suffix]
    gold, pred = tmp_path / f"gold{suffix}", tmp_path / f"pred{suffix}"
    gold.write_bytes(text.encode(codec))
    if flag == "--encoding":
        pred = gold
    else:
        pred.write_text(text, encoding="utf-8")
    status, out, err = run(capsys, "score", str(gold), str(pred), flag, "utf-16")
    assert (status, out) == (1, "")
    assert err == (f"nerscore score: error: Cannot decode the file as utf-16 ({gold}, line 1): "
                   "UTF-16 stream does not start with BOM. Pass its encoding with the `encoding` "
                   f"option ({flag} on the command line), e.g. {flag} utf-16-le or "
                   f"{flag} utf-16-be for UTF-16 without a byte order mark.\n")
    status, out, _ = run(capsys, "score", str(gold), str(pred), flag, codec)
    assert status == 0


def test_invalid_tag_names_file_and_line(capsys, tmp_path):
    bad = tmp_path / "bad.conll"
    bad.write_text("Jonas B-PER\nMüller X-PER\nlives O\n", encoding="utf-8")
    status, _, err = run(capsys, "score", str(bad), str(bad))
    assert status == 1
    assert (f"Invalid tag 'X-PER' at token 1 ('Müller') of sentence 0 ({bad}, line 2)"
            in err)


def test_a_prefix_with_an_empty_type_is_an_invalid_tag(capsys, tmp_path):
    gold, pred = tmp_path / "gold.conll", tmp_path / "pred.conll"
    gold.write_text("a\tB-PER\nb\tO\n\nc\tB-LOC\n", encoding="utf-8")
    pred.write_text("a\tB-\nb\tO\n\nc\tB-LOC\n", encoding="utf-8")
    where = f"at token 0 ('a') of sentence 0 ({pred}, line 1): its type is empty"
    status, out, err = run(capsys, "score", str(gold), str(pred))
    assert (status, out) == (1, "")
    assert f"Invalid tag 'B-' {where}" in err
    status, out, err = run(capsys, "validate", str(pred), "--scheme", "IOB2")
    assert status == 1
    assert out.startswith(f"Invalid tag 'B-' {where}")
    assert "1 invalid tag under IOB2" in err


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["score", GOLD, PRED, "--scheme", "XYZ"],
         "argument --scheme: expected one of 'IO', 'IOB1', 'IOB2', 'IOE1', 'IOE2', 'IOBES', "
         "'BILOU' or 'BMES'; got 'XYZ'"),
        (["score", GOLD, PRED, "--mode", "fuzzy"],
         "argument --mode: expected one of 'lenient', 'strict' or 'conlleval'; got 'fuzzy'"),
        (["score", GOLD, PRED, "--zero-division", "2"],
         "argument --zero-division: expected one of 'warn', '0', '1' or 'nan'; got '2'"),
        (["score", GOLD, PRED, "--digits", "-1"], "argument --digits: expected a whole number"),
        (["score", GOLD, PRED, "--beta", "0"], "argument --beta: expected a positive number"),
        (["score", GOLD, PRED, "--beta", "inf"], "argument --beta: expected a positive number"),
        (["score", GOLD, PRED, "--match", "fuzzy"], "argument --match: invalid choice: 'fuzzy'"),
        (["score", GOLD, PRED, "--t", "0.5"],
         "'--t' does not apply to --match exact (it takes --unlabeled)"),
        (["score", GOLD, PRED, "--match", "overlap", "--t", "0.5", "--unlabeled"],
         "'--unlabeled' or '--t' do not apply to --match overlap (it takes --assignment, "
         "--compat, --overlapping, --s)"),
        (["score", GOLD, PRED, "--match", "semeval", "--compat", "kaggle"],
         "--compat kaggle does not apply to --match semeval"),
        (["score", GOLD, PRED, "--match", "threshold", "--t", "0"],
         "argument --t: expected a number in (0, 1]; got '0'"),
        (["score", GOLD, PRED, "--mode", "strict"], "--mode strict needs --scheme"),
        (["score", GOLD, "pred.jsonl"], "cannot score jsonl predictions of spans against conll gold of tags"),
        (["score", GOLD, PRED, "--errors", "errors.txt"],
         "--errors needs a .jsonl or .csv file name; got 'errors.txt'"),
        (["score", GOLD, PRED, "--match", "token", "--confusion"],
         "--errors and --confusion need an entity matcher"),
        (["score", GOLD], "give PRED, or read gold and predicted labels from two columns of "
                          "GOLD with --gold-column N --pred-column M"),
        (["validate", GOLD], "the following arguments are required: --scheme"),
        (["frobnicate"], "invalid choice: 'frobnicate'"),
        (["score", GOLD, PRED, "--strict"], "unrecognized arguments: --strict"),
    ],
)
def test_usage_errors_exit_2(capsys, argv, message):
    status, out, err = run(capsys, *argv)
    assert (status, out) == (2, "")
    assert message in err


@pytest.mark.parametrize(
    ("argv", "line"),
    [
        (["score", GOLD, PRED, "--beta", "-1"],
         "nerscore score: error: argument --beta: expected a positive number; got '-1'. "
         "See 'nerscore score --help'."),
        (["score", GOLD, PRED, "--strict"],
         "nerscore score: error: unrecognized arguments: --strict. See 'nerscore score --help'."),
        (["score"], "nerscore score: error: the following arguments are required: GOLD. "
                    "See 'nerscore score --help'."),
        (["conlleval", "-x", "-y"], "nerscore conlleval: error: unrecognized arguments: -x -y. "
                                    "See 'nerscore conlleval --help'."),
    ],
)
def test_argument_errors_are_one_line_of_the_subcommand(capsys, argv, line):
    # the subcommand's usage (dozens of lines) is not printed over the error
    status, out, err = run(capsys, *argv)
    assert (status, out, err) == (2, "", line + "\n")


@pytest.mark.parametrize(
    "argv",
    [
        ["score", GOLD, "--format", "json", PRED],
        ["score", "--format", "json", GOLD, PRED],
        ["score", GOLD, "--format", "json", "--digits", "3", PRED],
        ["score", "-", "--format", "json", PRED],
    ],
)
def test_files_may_follow_options(capsys, monkeypatch, argv):
    # PRED is optional: argparse alone fills it with nothing at GOLD --option PRED
    expected = run(capsys, "score", GOLD, PRED, "--format", "json",
                   *(["--digits", "3"] if "--digits" in argv else []))
    with open(GOLD, encoding="utf-8") as fh:
        monkeypatch.setattr(sys, "stdin", fh)
        got = run(capsys, *argv)
    assert got[0] == 0
    assert got[1].replace("<stdin>", GOLD) == expected[1]


def test_compare_files_may_follow_options(capsys, tmp_path):
    other = tmp_path / "other.conll"
    other.write_bytes(Path(PRED).read_bytes())
    argv = ["--resamples", "20", "--seed", "1", "--format", "json"]
    expected = run(capsys, "compare", GOLD, PRED, str(other), *argv)
    got = run(capsys, "compare", GOLD, PRED, *argv, str(other))
    assert got == expected
    assert expected[0] == 0


def test_a_word_left_over_by_both_parses_is_told_as_before(capsys):
    status, out, err = run(capsys, "score", GOLD, "--nope", "x", PRED)
    assert (status, out) == (2, "")
    assert f"unrecognized arguments: --nope x {PRED}" in err


def test_no_command_prints_help_and_exits_2(capsys):
    status, out, err = run(capsys)
    assert (status, out) == (2, "")
    assert "score" in err
    assert "validate" in err
    assert "repair" in err
    assert "conlleval" in err


def test_help_and_version_exit_0(capsys):
    status, out, _ = run(capsys, "score", "--help")
    assert status == 0
    assert "--strict-tokens" in out
    assert "--delimiter-columns" in out
    status, out, _ = run(capsys, "--version")
    assert status == 0
    assert out.startswith("nerscore ")


@pytest.mark.parametrize(
    ("options", "header"),
    [
        (["--match", "token"], "match=token, scheme=auto, mode=lenient"),
        (["--match", "exact", "--unlabeled"], "match=exact, labeled=False"),
        (["--match", "semeval"], "match=semeval, scheme=auto"),
        (["--match", "overlap", "--s", "0.5", "--assignment", "optimal"],
         "match=overlap, s=0.5, assignment=optimal"),
        (["--match", "threshold", "--t", "0.6"], "match=threshold, t=0.6"),
        (["--match", "semeval", "--compat", "nervaluate"], "match=semeval, compat=nervaluate"),
        (["--match", "threshold", "--compat", "kaggle"], "match=threshold, compat=kaggle"),
        (["--beta", "2"], "beta=2"),
    ],
)
def test_matchers_and_their_options(capsys, options, header):
    status, out, err = run(capsys, "score", str(EXAMPLE / "gold.conll"),
                           str(EXAMPLE / "pred.conll"), "--zero-division", "0", *options)
    assert (status, err) == (0, "")
    assert header in out.splitlines()[0]


def test_errors_file_and_confusion_matrix(capsys, tmp_path):
    jsonl = tmp_path / "errors.jsonl"
    status, out, err = run(capsys, "score", GOLD, PRED, "--zero-division", "0", "--errors",
                           str(jsonl), "--confusion")
    assert status == 0
    assert err == f"nerscore score: note: wrote 1 entity error to {jsonl}\n"
    (record,) = [json.loads(line) for line in jsonl.read_text(encoding="utf-8").splitlines()]
    assert (record["sequence"], record["gold_label"], record["pred_label"]) == (1, "ORG", "MISC")
    assert record["gold_text"] == "Acme Corp"
    assert "confusion matrix (rows: gold, columns: predicted)" in out
    assert "ORG          0     1    0    0     0" in out
    table = tmp_path / "errors.csv"
    run(capsys, "score", GOLD, PRED, "--zero-division", "0", "--errors", str(table))
    with table.open(encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh))
    assert [r["gold_label"] for r in rows] == ["ORG"]
    status, out, _ = run(capsys, "score", GOLD, PRED, "--zero-division", "0", "--format",
                         "json", "--confusion")
    assert json.loads(out)["confusion"]["labels"] == ["LOC", "MISC", "ORG", "PER", "none"]


def test_span_files(capsys, tmp_path):
    gold = tmp_path / "gold.jsonl"
    pred = tmp_path / "pred.jsonl"
    gold.write_text('{"id": "a", "text": "Anna flew to Berlin", "spans": [[0, 4, "PER"], '
                    '[13, 19, "LOC"]]}\n', encoding="utf-8")
    pred.write_text('{"id": "a", "text": "Anna flew to Berlin", "spans": [[0, 4, "PER"], '
                    '[10, 19, "LOC"]]}\n', encoding="utf-8")
    status, out, err = run(capsys, "score", str(gold), str(pred), "--match", "overlap",
                           "--s", "1", "--format", "json")
    assert (status, err) == (0, "")
    assert json.loads(out)["overall"]["tp"] == pytest.approx(1 + 6 / 9)
    brat = tmp_path / "brat"
    brat.mkdir()
    (brat / "d1.txt").write_text("Anna flew to Berlin", encoding="utf-8")
    (brat / "d1.ann").write_text("T1\tPER 0 4\tAnna\n", encoding="utf-8")
    (brat / "d2.txt").write_text("nothing", encoding="utf-8")
    status, out, err = run(capsys, "score", str(brat), str(brat), "--format", "json")
    assert (status, err) == (0, f"nerscore score: note: gold and prediction are the same file "
                                f"({brat}); the scores compare it with itself.\n")
    data = json.loads(out)
    assert data["overall"]["tp"] == 1
    assert any("d2" in n for n in data["notes"])
    status, _, err = run(capsys, "score", str(gold), str(pred), "--scheme", "BIO")
    assert status == 2
    assert ("--scheme says how the tags of tag files are read (CoNLL, Parquet tags, JSON Lines token records); the inputs "
            "are span files (jsonl): leave it out") in err
    status, _, err = run(capsys, "score", str(gold), str(pred), "--suffix", "--scheme", "BIO",
                         "--strict-tokens")
    assert status == 2  # every option of tags given, in one message
    assert ("error: --scheme, --suffix say how the tags of tag files are read (CoNLL, Parquet "
            "tags, JSON Lines token records); the inputs are span files (jsonl): leave them out.") in err
    status, _, err = run(capsys, "score", str(gold), str(pred), "--gold-format", "conll",
                         "--pred-format", "conll")
    assert status == 1  # read as CoNLL: a JSON line has one column
    assert "has 1 column" not in err or "line 1" in err


def _brat_pair(tmp_path):
    text = "lung cancer in the upper lobe was found"
    for side, ann in (("gold", "T1\tDisorder 0 4;19 29\tlung upper lobe\n"
                               "T2\tDisorder 5 11\tcancer\n"),
                      ("pred", "T1\tDisorder 0 29\tlung cancer in the upper lobe\n"
                               "T2\tDisorder 5 11\tcancer\n")):
        (tmp_path / side).mkdir()
        (tmp_path / side / "d.txt").write_text(text, encoding="utf-8")
        (tmp_path / side / "d.ann").write_text(ann, encoding="utf-8")
    return str(tmp_path / "gold"), str(tmp_path / "pred")


def test_discontinuous_entities_on_the_command_line(capsys, tmp_path):
    gold, pred = _brat_pair(tmp_path)
    status, out, err = run(capsys, "score", gold, pred, "--format", "json")
    assert (status, err) == (0, "")
    data = json.loads(out)
    assert (data["overall"]["tp"], data["overall"]["fp"], data["overall"]["fn"]) == (1, 1, 1)
    assert data["entities"]["gold"] == {"discontinuous": 1}
    status, out, _ = run(capsys, "score", gold, pred, "--discontinuous", "extent",
                         "--format", "json")
    data = json.loads(out)
    assert (status, data["overall"]["tp"], data["entities"]["discontinuous"]) == (0, 2, "extent")
    status, out, _ = run(capsys, "score", gold, pred, "--subset", "discontinuous",
                         "--zero-division", "0")
    assert status == 0
    assert out.splitlines()[0].endswith("match=exact, labeled=True, subset=discontinuous")
    assert "note: Only the discontinuous entities were scored" in out
    for match in ("semeval", "threshold", "token"):
        status, out, _ = run(capsys, "score", gold, gold, "--match", match, "--format", "json")
        assert (status, json.loads(out)["overall"]["f1"]) == (0, 1.0)
    status, _, err = run(capsys, "score", gold, pred, "--discontinuous", "merge")
    assert status == 2
    assert "argument --discontinuous: invalid choice: 'merge'" in err
    status, _, err = run(capsys, "score", GOLD, PRED, "--subset", "discontinuous")
    assert status != 0
    assert "needs span input" in err


# ------------------------------------------------------------------------------- validate


def test_validate_lists_every_issue_with_its_line(capsys):
    path = str(DATA / "invalid_iob2.conll")
    status, out, err = run(capsys, "validate", path, "--scheme", "IOB2", "--comments")
    assert status == 1
    assert out.splitlines() == [
        f"Invalid transition start of sentence -> 'I-PER' at token 0 ('Jonas') of sentence 0 "
        f"({path}, line 2): the IOB2 scheme does not allow it.",
        f"Invalid transition 'O' -> 'I-ORG' at token 1 ('works') of sentence 1 ({path}, "
        "line 7): the IOB2 scheme does not allow it.",
        f"Invalid transition 'B-ORG' -> 'I-LOC' at token 4 ('Corp') of sentence 1 ({path}, "
        "line 10): the IOB2 scheme does not allow it.",
    ]
    assert err == (f"nerscore validate: note: {path}: 3 invalid transitions under IOB2 (8 "
                   f"tokens in 2 sentences); `nerscore repair {path} --scheme IOB2 --comments` "
                   "fixes them\n")


def test_validate_invalid_tags_and_valid_files(capsys):
    path = str(DATA / "invalid_iob2.conll")
    status, out, err = run(capsys, "validate", path, "--scheme", "IOB2")
    assert status == 1
    assert out.startswith(f"Invalid tag 'line' at token 0 ('#') of sentence 0 ({path}, "
                          "line 1)")
    assert "1 invalid tag and 2 invalid transitions under IOB2" in err
    assert "repair" not in err
    status, out, err = run(capsys, "validate", GOLD, PRED, "--scheme", "BIO")
    assert (status, out) == (0, "")
    assert err.splitlines() == [
        f"nerscore validate: note: {GOLD}: valid IOB2 (15 tokens in 3 sentences)",
        f"nerscore validate: note: {PRED}: valid IOB2 (15 tokens in 3 sentences)",
    ]


def test_validate_warns_of_a_file_without_tokens(capsys, tmp_path):
    empty = tmp_path / "empty.conll"
    empty.write_text("")
    docstart = tmp_path / "docstart.conll"
    docstart.write_text("-DOCSTART- -X- -X- O\n\n")
    status, out, err = run(capsys, "validate", str(empty), str(docstart), GOLD, "--scheme", "IOB2")
    assert (status, out) == (0, "")  # nothing invalid: the warnings say nothing was checked
    assert err.splitlines() == [
        f"nerscore validate: warning: {empty}: no tokens (the file is empty), so no tag was "
        "validated; is it the file you meant?",
        f"nerscore validate: warning: {docstart}: no tokens (only -DOCSTART- lines and blank "
        "lines), so no tag was validated; is it the file you meant?",
        f"nerscore validate: note: {GOLD}: valid IOB2 (15 tokens in 3 sentences)",
    ]


# --------------------------------------------------------------------------------- repair


def test_repair_rewrites_only_the_label_column(capsys, tmp_path):
    src = DATA / "invalid_iob2.conll"
    out_path = tmp_path / "fixed.conll"
    status, out, err = run(capsys, "repair", str(src), "--scheme", "IOB2", "--comments", "-o",
                           str(out_path))
    assert (status, out) == (0, "")
    assert err == (f"nerscore repair: note: changed 3 of 8 tags in 2 sentences of {src} "
                   f"(method begin, scheme IOB2); wrote {out_path}\n")
    expected = src.read_text(encoding="utf-8")
    for old, new in (("Jonas\tNNP\tI-PER", "Jonas\tNNP\tB-PER"),
                     ("works\tVBZ\tI-ORG", "works\tVBZ\tB-ORG"),
                     ("Corp\tNNP\tI-LOC", "Corp\tNNP\tB-LOC")):
        expected = expected.replace(old, new)
    assert out_path.read_text(encoding="utf-8") == expected
    status, _, _ = run(capsys, "validate", str(out_path), "--scheme", "IOB2", "--comments")
    assert status == 0


def test_repair_discard_to_stdout_keeps_crlf(capsys, tmp_path):
    src = tmp_path / "crlf.conll"
    src.write_bytes(b"a\tO\r\nb\tI-X\r\nc\tI-X\r\n\r\nd\tB-Y\r\n")
    status, out, err = run(capsys, "repair", str(src), "--scheme", "IOB2", "--method",
                           "discard")
    assert status == 0
    assert out == "a\tO\r\nb\tO\r\nc\tO\r\n\r\nd\tB-Y\r\n"
    assert "changed 2 of 4 tags in 1 sentence of" in err


@pytest.mark.parametrize("encoding", ["utf-8", "utf-8-sig"])
def test_repair_keeps_a_byte_order_mark_as_convert_does(capsys, tmp_path, encoding):
    src = tmp_path / "bom.conll"
    src.write_bytes(b"\xef\xbb\xbfAnna\tI-PER\nleft\tO\n")
    fixed = b"\xef\xbb\xbfAnna\tB-PER\nleft\tO\n"
    out_path = tmp_path / "fixed.conll"
    status, _, err = run(capsys, "repair", str(src), "--scheme", "IOB2", "--encoding",
                         encoding, "-o", str(out_path))
    assert status == 0
    assert out_path.read_bytes() == fixed
    assert "byte-order mark" not in err
    converted = tmp_path / "converted.conll"
    assert run(capsys, "convert", str(src), str(converted), "--encoding", encoding)[0] == 0
    assert converted.read_bytes() == src.read_bytes()  # convert keeps it too
    status, out, err = run(capsys, "repair", str(src), "--scheme", "IOB2", "--encoding",
                           encoding)
    # the mark utf-8-sig reads is the codec's, as utf-16's is: not written to standard output
    assert (status, out.encode("utf-8")) == (0, fixed if encoding == "utf-8" else fixed[3:])
    assert "byte-order mark" not in err


@pytest.mark.parametrize("encoding", ["utf-16-le", "utf-16-be", "utf-32-le", "utf-32-be",
                                      "utf-16", "utf-32"])
def test_repair_and_convert_keep_the_byte_order_mark_of_utf16_and_utf32(capsys, tmp_path,
                                                                         encoding):
    """Read as utf-16-le (and the like) the mark is U+FEFF; utf-16 and utf-32 write their own."""
    mark = "" if encoding in ("utf-16", "utf-32") else "\ufeff"  # the codec writes it
    src = tmp_path / "bom.conll"
    src.write_bytes((mark + "Anna\tI-PER\r\nleft\tO\r\n\r\nBo\tI-PER\r\n").encode(encoding))
    fixed = (mark + "Anna\tB-PER\r\nleft\tO\r\n\r\nBo\tB-PER\r\n").encode(encoding)
    assert src.read_bytes()[:2] in (b"\xff\xfe", b"\xfe\xff", b"\x00\x00")
    out_path = tmp_path / "fixed.conll"
    status, _, err = run(capsys, "repair", str(src), "--scheme", "IOB2", "--encoding",
                         encoding, "-o", str(out_path))
    assert status == 0, err
    assert out_path.read_bytes() == fixed
    assert "byte-order mark" not in err
    converted = tmp_path / "converted.conll"
    status, _, err = run(capsys, "convert", str(src), str(converted), "--encoding", encoding)
    assert (status, converted.read_bytes()) == (0, src.read_bytes())
    assert "byte-order mark" not in err
    # to standard output (UTF-8 here) the mark of the text is written in UTF-8
    status, out, err = run(capsys, "repair", str(src), "--scheme", "IOB2", "--encoding",
                           encoding)
    assert (status, out) == (0, mark + "Anna\tB-PER\r\nleft\tO\r\n\r\nBo\tB-PER\r\n")
    assert "byte-order mark" not in err



@pytest.mark.parametrize(("encoding", "mark"), [("utf-16", codecs.BOM_UTF16_BE),
                                                ("utf-32", codecs.BOM_UTF32_BE),
                                                ("utf-16", codecs.BOM_UTF16_LE),
                                                ("utf-32", codecs.BOM_UTF32_LE)])
def test_repair_and_convert_write_utf16_and_utf32_back_in_the_byte_order_read(
        capsys, tmp_path, encoding, mark):
    """Not big-endian input written back little-endian (the machine's order) under its mark."""
    order = encoding + ("-be" if mark in (codecs.BOM_UTF16_BE, codecs.BOM_UTF32_BE) else "-le")
    src = tmp_path / "bom.conll"
    src.write_bytes(mark + "Anna\tI-PER\nleft\tO\n".encode(order))
    out_path = tmp_path / "fixed.conll"
    status, _, err = run(capsys, "repair", str(src), "--scheme", "IOB2", "--encoding",
                         encoding, "-o", str(out_path))
    assert status == 0, err
    assert out_path.read_bytes() == mark + "Anna\tB-PER\nleft\tO\n".encode(order)
    converted = tmp_path / "converted.conll"
    status, _, err = run(capsys, "convert", str(src), str(converted), "--encoding", encoding)
    assert (status, converted.read_bytes()) == (0, src.read_bytes())
    relabeled = tmp_path / "relabeled.conll"  # the label column rewritten, the rest kept
    status, _, err = run(capsys, "convert", str(src), str(relabeled), "--encoding", encoding,
                         "--from-scheme", "IOB2", "--map", "PER=P")
    assert (status, relabeled.read_bytes()) == (
        0, mark + "Anna\tB-P\nleft\tO\n".encode(order))
    spans = tmp_path / "spans.jsonl"
    status, _, err = run(capsys, "convert", str(src), str(spans), "--encoding", encoding,
                         "--from-scheme", "IOB2")
    assert status == 0, err
    assert spans.read_bytes() == mark + (json.dumps(
        {"id": "1", "text": "Anna left", "spans": [{"start": 0, "end": 4, "label": "PER"}]})
        + "\n").encode(order)
    assert "byte-order mark" not in err


def _repaired_and_converted(capsys, tmp_path, src, encoding: str, fixed: bytes) -> tuple[str, str]:
    """``src`` repaired to a file (``fixed``) and converted to CoNLL (its bytes, twice), then
    repaired to standard output and converted to JSON Lines: that output and that warning."""
    out_path = tmp_path / "fixed.conll"
    status, _, err = run(capsys, "repair", str(src), "--scheme", "IOB2", "--encoding",
                         encoding, "-o", str(out_path))
    assert status == 0, err
    assert out_path.read_bytes() == fixed
    assert "byte-order mark" not in err
    for argv in ((), ("--from-scheme", "IOB2", "--to-scheme", "IOB1")):
        converted = tmp_path / "converted.conll"  # written whole, rewritten, and read back
        status, _, err = run(capsys, "convert", str(src), str(converted), "--encoding",
                             encoding, *argv)
        assert (status, converted.read_bytes()) == (0, src.read_bytes()), argv
        assert "byte-order mark" not in err
    status, out, err = run(capsys, "repair", str(src), "--scheme", "IOB2", "--encoding",
                           encoding)  # to standard output (UTF-8 here)
    assert status == 0, err
    spans = tmp_path / "spans.jsonl"
    status, _, err = run(capsys, "convert", str(src), str(spans), "--encoding", encoding,
                         "--from-scheme", "IOB2")
    assert status == 0
    return out, err


@pytest.mark.parametrize("encoding", ["utf-16", "utf-32"])
@pytest.mark.parametrize("order", ["le", "be"])
def test_repair_and_convert_keep_a_u_feff_right_after_the_mark_of_utf16_and_utf32(
        capsys, tmp_path, encoding, order):
    """The codec reads the first mark as its own; the second is the text's first character."""
    mark = {"utf-16": codecs.BOM_UTF16_LE, "utf-32": codecs.BOM_UTF32_LE}[encoding]
    if order == "be":
        mark = mark[::-1]
    src = tmp_path / "bom.conll"
    src.write_bytes(mark + "\ufeffAnna\tI-PER\nleft\tO\n".encode(f"{encoding}-{order}"))
    fixed = mark + "\ufeffAnna\tB-PER\nleft\tO\n".encode(f"{encoding}-{order}")
    out, err = _repaired_and_converted(capsys, tmp_path, src, encoding, fixed)
    assert out == "\ufeffAnna\tB-PER\nleft\tO\n"  # in its encoding
    assert (f"nerscore convert: warning: {src} began with a second {encoding.upper()} "
            f"byte-order mark, not written to {tmp_path / 'spans.jsonl'}.\n") in err


@pytest.mark.parametrize("encoding", ["utf-8-sig", "utf-8"])
def test_repair_and_convert_keep_two_utf8_marks(capsys, tmp_path, encoding):
    """utf-8-sig reads the first mark as its own, as utf-16 does; the second is the text's.

    Read as utf-8, the first is the text's mark and the second a character of the first token.
    """
    src = tmp_path / "bom.conll"
    src.write_bytes(codecs.BOM_UTF8 * 2 + b"Anna\tI-PER\nleft\tO\n")
    out, err = _repaired_and_converted(capsys, tmp_path, src, encoding,
                                       codecs.BOM_UTF8 * 2 + b"Anna\tB-PER\nleft\tO\n")
    text = "\ufeffAnna\tB-PER\nleft\tO\n"  # the text's marks
    assert out == (text if encoding == "utf-8-sig" else "\ufeff" + text)
    name = "a second UTF-8" if encoding == "utf-8-sig" else "a UTF-8"
    assert (f"nerscore convert: warning: {src} began with {name} byte-order mark, not written "
            f"to {tmp_path / 'spans.jsonl'}.\n") in err


def test_repair_says_when_standard_output_cannot_hold_a_utf16_byte_order_mark(capsys,
                                                                              monkeypatch,
                                                                              tmp_path):
    import io

    src = tmp_path / "bom.conll"
    src.write_bytes("\ufeffAnna\tI-PER\n".encode("utf-16-le"))
    stdout = io.TextIOWrapper(io.BytesIO(), encoding="latin-1", newline="")
    monkeypatch.setattr(sys, "stdout", stdout)
    assert main(["repair", str(src), "--scheme", "IOB2", "--encoding", "utf-16-le"]) == 0
    assert stdout.buffer.getvalue() == b"Anna\tB-PER\n"
    assert (f"nerscore repair: warning: {src} began with a UTF-16-LE byte-order mark, not "
            "written to standard output, whose encoding (latin-1) has none.\n"
            in capsys.readouterr().err)


def test_repair_says_when_standard_output_cannot_hold_a_byte_order_mark(capsys, monkeypatch,
                                                                         tmp_path):
    import io

    src = tmp_path / "bom.conll"
    src.write_bytes(b"\xef\xbb\xbfAnna\tI-PER\n")
    stdout = io.TextIOWrapper(io.BytesIO(), encoding="latin-1", newline="")
    monkeypatch.setattr(sys, "stdout", stdout)
    assert main(["repair", str(src), "--scheme", "IOB2"]) == 0
    assert stdout.buffer.getvalue() == b"Anna\tB-PER\n"
    assert (f"nerscore repair: warning: {src} began with a UTF-8 byte-order mark, not written "
            "to standard output, whose encoding (latin-1) has none.\n" in capsys.readouterr().err)


def test_repair_refuses_tags_the_scheme_does_not_know(capsys):
    status, out, err = run(capsys, "repair", PRED, "--scheme", "IOE2")
    assert (status, out) == (1, "")
    assert err.startswith(f"nerscore repair: error: Invalid tag 'B-PER' at token 0 ('Jonas') "
                          f"of sentence 0 ({PRED}, line 1): prefix 'B' is not used by the IOE2 "
                          "scheme")
    assert "Repair cannot guess what it means; fix the tag by hand (4 invalid tags in all)." in err


# ------------------------------------------------------------------------------ conlleval


def test_conlleval_subcommand_is_registered(capsys):
    status, out, _ = run(capsys, "conlleval", str(EXAMPLE / "merged.txt"))
    assert status == 0
    assert out == (DATA / "conll2000-conlleval.txt").read_text(encoding="utf-8")


def test_entry_point_stays_the_function_after_a_run(capsys):
    import nerscore.cli

    run(capsys, "--version")
    assert callable(nerscore.cli.main)
    assert nerscore.cli.main is main


# ------------------------------------------------------------------------ installed command


def test_installed_script_calls_the_entry_point():
    script = Path(sys.executable).with_name("nerscore")
    if not script.exists():
        pytest.skip("nerscore is not installed next to this Python")
    assert "from nerscore.cli import main" in script.read_text(encoding="utf-8")


def test_python_dash_m_nerscore_runs_the_readme_example():
    proc = subprocess.run(
        [sys.executable, "-m", "nerscore", "score", str(EXAMPLE / "gold.conll"),
         str(EXAMPLE / "pred.conll")],
        capture_output=True, text=True, timeout=60, check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == ""
    assert "   micro avg       0.69       0.81       0.74        459        539" in proc.stdout


@pytest.mark.parametrize("extra", [[], ["--output", "OUT"]])
def test_a_result_standard_output_cannot_encode_says_how_to_write_it(tmp_path, extra):
    gold, pred = tmp_path / "gold.conll", tmp_path / "pred.conll"
    gold.write_text("Zoë B-PÉR\nleft O\n", encoding="utf-8")
    pred.write_text("Zoë O\nleft O\n", encoding="utf-8")
    out = tmp_path / "report.txt"
    proc = subprocess.run(
        [sys.executable, "-m", "nerscore", "score", str(gold), str(pred), "--zero-division", "0",
         *[str(out) if a == "OUT" else a for a in extra]],
        capture_output=True, timeout=60, check=False,
        env={**os.environ, "PYTHONIOENCODING": "ascii"},
    )
    err = proc.stderr.decode("ascii")
    assert "Traceback" not in err
    if extra:  # the file is UTF-8 whatever standard output takes
        assert proc.returncode == 0, err
        assert "PÉR" in out.read_text(encoding="utf-8")
    else:
        assert proc.returncode == 1
        assert err.startswith("nerscore score: error: standard output takes ascii text only, "
                              "which cannot hold '\\xc9' of the result. Send the result with "
                              "--output FILE (UTF-8), or set PYTHONIOENCODING=utf-8.")


def test_an_input_nested_too_deeply_is_one_line(capsys, tmp_path):
    deep = tmp_path / "map.json"
    deep.write_text('{"PER": ' + "[" * 100_000 + "]" * 100_000 + "}")
    status, out, err = run(capsys, "score", GOLD, PRED, "--map-file", str(deep))
    assert (status, out) == (1, "")
    assert err == (f"nerscore score: error: {deep}, line 1: JSON nested too deeply to read "
                   "(100001 nested arrays or objects, more than Python's JSON reader can "
                   "follow).\n")


def test_bad_tag_in_the_prediction_file_is_located(capsys, tmp_path):
    gold, pred = tmp_path / "gold.conll", tmp_path / "pred.conll"
    gold.write_text("a B-PER\nb O\n\n", encoding="utf-8")
    pred.write_text("a B-PER\nb X-PER\n\n", encoding="utf-8")
    status, out, err = run(capsys, "score", str(gold), str(pred))
    assert (status, out) == (1, "")
    assert "Invalid tag 'X-PER' at token 1 ('b') of sentence 0" in err
    assert "pred.conll, line 2" in err


# ----------------------------------------------------------- no traceback, no silent number


def test_same_file_as_gold_and_prediction_is_noted(capsys, tmp_path):
    copy = tmp_path / "copy.conll"
    copy.write_bytes(Path(GOLD).read_bytes())
    status, out, err = run(capsys, "score", GOLD, str(copy), "--format", "json")
    assert status == 0
    note = (f"gold and prediction are the same file: {GOLD} and {copy} have identical content, "
            "so the scores compare it with itself.")
    assert err == f"nerscore score: note: {note}\n"
    assert note in json.loads(out)["notes"]
    status, out, err = run(capsys, "score", GOLD, GOLD)
    assert f"note: gold and prediction are the same file ({GOLD})" in out
    assert "nerscore score: note: gold and prediction are the same file" in err
    status, _, err = run(capsys, "score", GOLD, PRED)
    assert "same file" not in err
    # two label columns of one file are two different sides
    status, _, err = run(capsys, "score", GOLD, GOLD, "--gold-column", "-1", "--pred-column", "1")
    assert "same file" not in err


def test_empty_files_show_accuracy_as_undefined(capsys, tmp_path):
    gold, pred = tmp_path / "g.conll", tmp_path / "p.conll"
    gold.write_text("")
    pred.write_text("\n")
    status, out, _ = run(capsys, "score", str(gold), str(pred), "--zero-division", "0")
    assert status == 0
    assert "accuracy: n/a (0 tokens, 0 sequences)" in out
    assert "note: no tokens: accuracy is undefined." in out
    assert "accuracy: 0.00" not in out
    status, out, _ = run(capsys, "score", str(gold), str(pred), "--format", "json",
                         "--zero-division", "0")
    assert json.loads(out)["accuracy"] is None


def test_errors_give_flags_not_python_keywords(capsys, tmp_path):
    gold, pred = tmp_path / "g.jsonl", tmp_path / "p.jsonl"
    gold.write_text('{"id": "a", "spans": [[0, 4, "A"], [2, 6, "A"]]}\n')
    pred.write_text('{"id": "a", "spans": [[0, 4, "A"]]}\n')
    status, _, err = run(capsys, "score", str(gold), str(pred), "--match", "overlap")
    assert status == 1
    assert "--overlapping merge" in err
    assert "overlapping='merge'" not in err
    gold.write_text('{"id": "a", "spans": [[3, 3, "A"]]}\n')
    status, _, err = run(capsys, "score", str(gold), str(pred), "--match", "threshold",
                         "--compat", "kaggle")
    assert status == 1
    assert err.startswith("nerscore score: error: --compat kaggle cannot score zero-length spans")
    assert "(without --compat)" in err
    assert "compat=" not in err


def test_one_file_with_gold_and_predicted_columns(capsys, tmp_path):
    both = tmp_path / "both.txt"
    both.write_text("Anna NNP B-PER B-PER\nflew VBD O B-LOC\n\nBerlin NNP B-LOC B-LOC\n")
    status, out, err = run(capsys, "score", str(both), "--gold-column", "-2",
                           "--pred-column", "-1", "--format", "json", "--zero-division", "0")
    assert (status, err) == (0, "")
    data = json.loads(out)
    assert (data["overall"]["tp"], data["overall"]["n_gold"], data["overall"]["n_pred"]) == (
        2, 2, 3)
    assert data["n_tokens"] == 3
    # columns counted from the start work too
    status, out2, _ = run(capsys, "score", str(both), "--gold-column", "2", "--pred-column", "3",
                          "--format", "json", "--zero-division", "0")
    assert json.loads(out2)["overall"] == data["overall"]
    status, _, err = run(capsys, "score", str(both), "--gold-column", "2")
    assert status == 2
    assert "give PRED, or read gold and predicted labels from two columns of GOLD" in err
    status, _, err = run(capsys, "score", str(both), "--gold-column", "5", "--pred-column", "3")
    assert status == 1
    assert "both.txt" in err


def test_label_columns_and_encodings_per_side(capsys, tmp_path):
    gold = tmp_path / "gold.conll"
    gold.write_text("Zoë B-PER X\nlebt O X\n", encoding="utf-8")
    pred = tmp_path / "pred.conll"
    pred.write_bytes("Zoë B-PER\nlebt B-LOC\n".encode("latin-1"))
    status, out, err = run(capsys, "score", str(gold), str(pred), "--gold-column", "1",
                           "--pred-encoding", "latin-1", "--format", "json",
                           "--zero-division", "0")
    assert (status, err) == (0, "")
    data = json.loads(out)
    assert (data["overall"]["tp"], data["overall"]["n_pred"]) == (1, 2)
    # --encoding is the default of both sides; --gold-encoding overrides it for GOLD
    status, _, err = run(capsys, "score", str(gold), str(pred), "--gold-column", "1",
                         "--encoding", "latin-1", "--gold-encoding", "utf-8",
                         "--zero-division", "0")
    assert (status, err) == (0, "")
    status, _, err = run(capsys, "score", str(gold), str(pred), "--gold-column", "1")
    assert status == 1
    assert "pred.conll" in err
    assert "Cannot decode byte 0xeb as utf-8" in err
    # --pred-column on the PRED side, the default label column on GOLD
    pred.write_bytes("Zoë B-PER 7\nlebt O 7\n".encode("latin-1"))
    status, out, _ = run(capsys, "score", str(gold), str(pred), "--gold-column", "1",
                         "--pred-column", "1", "--pred-encoding", "latin-1", "--format", "json")
    assert json.loads(out)["overall"]["f1"] == 1.0


def test_per_side_columns_do_not_apply_to_span_files(capsys, tmp_path):
    gold = tmp_path / "g.jsonl"
    gold.write_text('{"id": "a", "spans": []}\n')
    status, _, err = run(capsys, "score", str(gold), str(gold), "--gold-column", "1")
    assert status == 2
    assert "--gold-column applies to no input; the inputs are jsonl files" in err
    status, _, err = run(capsys, "score", str(gold), "--gold-column", "1", "--pred-column", "2")
    assert status == 2
    assert "read one CoNLL file" in err


def test_a_missing_optional_dependency_is_one_line(capsys, monkeypatch, tmp_path):
    import sys

    monkeypatch.setitem(sys.modules, "pyarrow", None)
    status, _, err = run(capsys, "convert", str(EXAMPLE / "gold.conll"),
                           str(tmp_path / "x.parquet"))
    assert status == 1
    assert err.startswith("nerscore convert: error: This feature of nerscore requires pyarrow; "
                          "install with: pip install 'nerscore[parquet]'")
    assert "Traceback" not in err


def test_differing_document_texts_are_said_by_every_command(capsys, tmp_path):
    """Same id, other text: score, report and compare all say which document and where."""
    gold, pred, pred2 = tmp_path / "g.jsonl", tmp_path / "p.jsonl", tmp_path / "q.jsonl"
    gold.write_text('{"id": "a", "text": "Anna flew", "spans": [[0, 4, "PER"]]}\n')
    pred.write_text('{"id": "a", "text": "Anne flew", "spans": [[0, 4, "PER"]]}\n')
    pred2.write_text('{"id": "a", "text": "Anna flew", "spans": [[0, 4, "PER"]]}\n')
    note = ("1 document has a different text in gold and prediction: document 'a' from "
            "character 3 (gold 'a flew', prediction 'e flew'). Offsets are read against the "
            "gold text; give both sides the same texts.")
    for fmt in ("text", "json"):
        status, out, err = run(capsys, "score", str(gold), str(pred), "--format", fmt)
        assert status == 0
        assert (f"note: {note}" in out.splitlines()) if fmt == "text" else \
            json.loads(out)["notes"] == [note]
        assert f"nerscore score: warning: {note}" in err.splitlines()
    html = tmp_path / "r.html"
    status, _, err = run(capsys, "report", str(gold), str(pred), "-o", str(html))
    assert status == 0
    from html import escape

    assert escape(note) in html.read_text(encoding="utf-8")
    status, out, err = run(capsys, "compare", str(gold), str(pred), str(pred2), "--names",
                           "p", "q", "--resamples", "20")
    assert status == 0
    assert f"note: p: {note}" in out.splitlines()


@pytest.mark.parametrize("extra", [[], ["--chunk-sentences", "0"]])
@pytest.mark.parametrize("name", ["gold.conll", "gold.jsonl"])
def test_utf16_gold_read_as_utf8_is_refused(capsys, tmp_path, name, extra):
    """A BOM-less UTF-16 file with no encoding given is an error, streamed or read whole."""
    text = _UTF16_TEXTS[name[4:]]
    gold, pred = tmp_path / name, tmp_path / ("pred" + name[4:])
    gold.write_bytes(text.encode("utf-16-le"))
    pred.write_text(text, encoding="utf-8")
    status, out, err = run(capsys, "score", str(gold), str(pred), *extra)
    assert (status, out) == (1, "")
    assert err == (f"nerscore score: error: Cannot read the file as utf-8 ({gold}, line 1): it "
                   "holds a zero byte beside each character, as UTF-16 text does. Pass its "
                   "encoding with the `encoding` option (--encoding on the command line), "
                   "e.g. --encoding utf-16-le.\n")


@pytest.mark.parametrize(("command", "extra"), [
    ("score", ()), ("score", ("--ci", "--resamples", "10")),
    ("compare", ("--names", "a", "b", "--resamples", "10")), ("validate", ()),
])
@pytest.mark.parametrize(("flags", "shown"), [
    (("--outside", "B-PER"), "--outside B-PER is spelled as an entity tag (prefix 'B', type "
     "'PER'): the tags would not say whether a token is outside every entity or in one. Give an "
     "outside tag that no entity tag spells, e.g. --outside O. See 'nerscore {command} --help'."),
    (("--outside", "B"), "--outside B is spelled as an entity tag (the bare prefix 'B'):"),
    (("--outside", "PER_E", "--suffix", "--tag-delimiter", "_"), "--outside PER_E is spelled as "
     "an entity tag (prefix 'E', type 'PER'):"),
    # no tag could be read: a delimiter of a prefix letter, an empty one or outside tag
    (("--tag-delimiter", "B"), "--tag-delimiter B is made of the prefix letter 'B': the tag "
     "'BBTYPE' would split inside its prefix, not read back as prefix 'B', type 'TYPE'. Give a "
     "delimiter of other characters, e.g. --tag-delimiter -."),
    (("--tag-delimiter", ""), "argument --tag-delimiter: expected at least one character; got "
     "''."),
    (("--outside", ""), "argument --outside: expected at least one character; got ''."),
])
def test_an_outside_tag_spelled_as_an_entity_tag_is_a_usage_error(capsys, tmp_path, command,
                                                                  extra, flags, shown):
    gold = tmp_path / "g.conll"
    gold.write_text("Anna B-PER\nleft O\n")
    files = [str(gold)] * (1 if command == "validate" else 3 if command == "compare" else 2)
    status, out, err = run(capsys, command, *files, "--scheme", "IOBES", *flags, *extra)
    assert (status, out) == (2, "")
    assert err.startswith(f"nerscore {command}: error: ")
    assert shown.format(command=command) in err
    assert len(err.splitlines()) == 1


@pytest.mark.parametrize("ci", [[], ["--ci"]])  # the streamed and the in-memory path
def test_a_span_beyond_the_other_sides_text_names_its_file_and_whose_text(capsys, tmp_path, ci):
    gold, pred = tmp_path / "gold.jsonl", tmp_path / "pred.jsonl"
    gold.write_text('{"id": "a", "spans": [[0, 4, "PER"], [10, 16, "LOC"]]}\n', encoding="utf-8")
    pred.write_text('{"id": "a", "text": "Anna went", "spans": []}\n', encoding="utf-8")
    status, out, err = run(capsys, "score", str(gold), str(pred), *ci)
    assert (status, out) == (1, "")
    assert err == (f"nerscore score: error: {gold}: Span 1 (10, 16, 'LOC') of document 'a' ends "
                   "beyond the text, which has 9 characters; offsets are Python str indices "
                   "into the document text. GOLD gives no text, so its spans are checked against "
                   "PRED's text of the same document: check that both sides hold the same "
                   "documents, with the same ids.\n")


def test_strict_mode_says_how_many_tag_runs_it_read_as_no_entity(capsys, tmp_path):
    gold, pred = tmp_path / "g.conll", tmp_path / "p.conll"
    gold.write_text("Anna I-PER\nLee I-PER\n", encoding="utf-8")
    pred.write_text("Anna B-PER\nLee I-PER\n", encoding="utf-8")
    status, out, err = run(capsys, "score", str(gold), str(pred), "--scheme", "IOB2", "--mode",
                           "strict", "--format", "json", "--zero-division", "0")
    assert status == 0
    assert json.loads(out)["overall"]["n_gold"] == 0  # seqeval's strict reading
    note = ("Strict mode (IOB2) read 1 gold and 0 predicted tag run as no entity: an IOB2 entity "
            "begins with B. Lenient mode (--mode lenient) reads it as an entity.")
    assert json.loads(out)["notes"] == [note]
    status, _, err = run(capsys, "score", str(gold), str(pred), "--scheme", "IOB2", "--mode",
                         "strict", "--format", "markdown", "--zero-division", "0")
    assert err == f"nerscore score: note: {note}\n"
    status, _, err = run(capsys, "score", str(gold), str(pred), "--scheme", "IOB2",
                         "--format", "json", "--zero-division", "0")
    assert "Strict mode" not in err


@pytest.mark.parametrize(("argv", "message"), [
    (["--mode", "strict"], "--mode strict needs --scheme"),
    (["--mode", "strict", "--chunk-sentences", "0"], "--mode strict needs --scheme"),
    (["--outside", "B-X", "--chunk-sentences", "0"], "--outside B-X is spelled as an entity tag"),
])
def test_usage_errors_come_before_any_file_is_read(capsys, tmp_path, monkeypatch, argv,
                                                   message):
    """GOLD's bytes cannot be decoded: read, they would be the error."""
    from nerscore.io import conll
    from nerscore.io.formats import Format

    gold = tmp_path / "gold.conll"
    gold.write_bytes(b"a O\n\nb\xff O\n")

    def read(*args, **kwargs):
        raise AssertionError("a file was read")

    monkeypatch.setattr(Format, "load", read)
    monkeypatch.setattr(conll.ConllChunks, "__iter__", read)
    status, out, err = run(capsys, "score", str(gold), PRED, *argv)
    assert (status, out) == (2, "")
    assert message in err
