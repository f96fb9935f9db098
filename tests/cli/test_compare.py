"""``nerscore compare`` and ``nerscore score --ci``, run in-process through ``main(argv)``."""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest

import nerscore
from nerscore.analysis.significance import holm_bonferroni
from nerscore.cli import main
from tests.paths import ROOT

EXAMPLE = ROOT / "examples" / "conll2000"
GOLD = str(EXAMPLE / "gold.conll")
PRED = str(EXAMPLE / "pred.conll")


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    assert "Traceback" not in err
    return status, out, err


def _conll(path: Path, docs: list[list[list[str]]]) -> str:
    lines = []
    for doc in docs:
        lines += ["-DOCSTART- O", ""]
        for sentence in doc:
            lines += [f"w{i} {tag}" for i, tag in enumerate(sentence)] + [""]
    path.write_text("\n".join(lines), encoding="utf-8")
    return str(path)


@pytest.fixture
def files(tmp_path: Path) -> tuple[str, str, str, list, list, list]:
    rng = np.random.default_rng(0)
    vocab = ["O", "O", "B-PER", "I-PER", "B-LOC"]
    gold = [[[str(t) for t in rng.choice(vocab, 6)] for _ in range(3)] for _ in range(30)]
    good = [[[t if rng.random() > 0.05 else "O" for t in s] for s in d] for d in gold]
    poor = [[[t if rng.random() > 0.4 else "O" for t in s] for s in d] for d in gold]
    return (_conll(tmp_path / "gold.conll", gold), _conll(tmp_path / "good.conll", good),
            _conll(tmp_path / "poor.conll", poor), gold, good, poor)


def test_compare_text_resamples_documents(capsys, files):
    g, a, b, *_ = files
    status, out, err = run(capsys, "compare", g, a, b, "--names", "good", "poor",
                           "--resamples", "300")
    assert status == 0, err
    assert "30 documents resampled" in out
    assert "good vs poor" in out
    header = next(line for line in out.splitlines() if line.startswith("a vs b"))
    assert re.split(r"\s{2,}", header)[-2:] == ["p (paired bootstrap)", "p (randomization)"]
    row = next(line for line in out.splitlines() if line.startswith("good vs poor"))
    # both tests by default; no resample as extreme: the floor 1/301, rounded up
    assert re.split(r"\s{2,}", row)[-2:] == ["< 0.004", "< 0.004"]
    assert "Holm" not in out  # one pair: nothing to adjust


def test_compare_json_to_a_file_equals_the_api(capsys, files, tmp_path):
    g, a, b, gold, good, poor = files
    target = tmp_path / "out.json"
    status, out, err = run(capsys, "compare", g, a, b, "--names", "A", "B", "--format", "json",
                           "--output", str(target), "--resamples", "100", "--seed", "4",
                           "--unit", "sentence", "--metric", "recall", "--average", "macro")
    assert status == 0, err
    assert out == ""
    assert f"wrote {target}" in err
    data = json.loads(target.read_text(encoding="utf-8"))
    flat = [[s for d in docs for s in d] for docs in (gold, good, poor)]
    ref = nerscore.compare(flat[0], {"A": flat[1], "B": flat[2]}, n_resamples=100, seed=4,
                           unit="sentence", metric="recall", average="macro",
                           zero_division="warn")  # the command line's default
    assert data == json.loads(ref.to_json())


@pytest.mark.parametrize(("flags", "expected"), [
    ([], "warn"), (["--zero-division", "warn"], "warn"), (["--zero-division", "0"], 0.0),
    (["--zero-division", "1"], 1.0), (["--zero-division", "nan"], None),
])
def test_the_json_records_zero_division_as_score_s_does(capsys, flags, expected):
    status, out, err = run(capsys, "compare", GOLD, PRED, PRED, "--names", "A", "B",
                           "--format", "json", "--resamples", "20", *flags)
    assert status == 0, err
    assert json.loads(out)["zero_division"] == expected
    status, out, err = run(capsys, "score", GOLD, PRED, "--ci", "--format", "json",
                           "--resamples", "20", *flags)
    assert status == 0, err
    data = json.loads(out)
    assert data["zero_division"] == data["confidence_intervals"]["zero_division"] == expected


def test_compare_markdown_and_span_files(capsys, tmp_path):
    gold = tmp_path / "gold.jsonl"
    pred = tmp_path / "pred.jsonl"
    gold.write_text('{"id": "a", "text": "Jonas Smith", "spans": [[0, 5, "PER"]]}\n'
                    '{"id": "b", "text": "in Paris", "spans": [[3, 8, "LOC"]]}\n',
                    encoding="utf-8")
    pred.write_text('{"id": "a", "text": "Jonas Smith", "spans": [[0, 11, "PER"]]}\n'
                    '{"id": "b", "text": "in Paris", "spans": [[3, 8, "LOC"]]}\n',
                    encoding="utf-8")
    status, out, err = run(capsys, "compare", str(gold), str(pred), str(gold), "--format",
                           "markdown", "--match", "overlap", "--resamples", "50")
    assert status == 0, err
    assert "| system | micro P |" in out
    assert "overlap matching, 2 documents resampled" in out


@pytest.mark.parametrize(("argv", "message"), [
    (["--names", "only-one"], "one name per PRED"),
    (["--names", "x", "x"], "--names must be distinct, but 'x' is given twice; give one "
     "distinct name per PRED"),
    (["--names", "x", ""], "argument --names: expected a name to show in the output; got ''"),
    (["--names", " ", "x"], "got ' ', which shows as nothing"),
    (["--beta", "2"], "--beta weighs recall in the F-score; compare scores precision, recall and "
     "F1: leave it out."),
    (["--s", "0.5"], "does not apply to --match exact"),
    (["--resamples", "0"], "expected a whole number >= 1"),
    (["--level", "1.5"], "between 0 and 1"),
    (["--baseline", "nobody"], "--baseline 'nobody' is none of the systems"),
])
def test_compare_usage_errors_exit_2(capsys, files, argv, message):
    g, a, b, *_ = files
    status, _, err = run(capsys, "compare", g, a, b, *argv)
    assert status == 2
    assert message in err


@pytest.mark.parametrize("baseline", [None, "good"])
def test_compare_three_systems_adds_holm_columns(capsys, files, baseline):
    g, a, b, *_ = files
    argv = ["compare", g, a, b, g, "--names", "good", "poor", "gold", "--resamples", "200",
            "--format", "json"]
    if baseline is not None:
        argv += ["--baseline", baseline]
    status, out, err = run(capsys, *argv)
    assert status == 0, err
    data = json.loads(out)
    pairs = [(p["a"], p["b"]) for p in data["pairs"]]
    if baseline is None:
        assert pairs == [("good", "poor"), ("good", "gold"), ("poor", "gold")]
        family = "all 3 pairs of the 3 systems"
    else:
        assert pairs == [("poor", "good"), ("gold", "good")]
        family = "the 2 comparisons of each system with the baseline 'good'"
    assert data["baseline"] == baseline
    for test in ("p_bootstrap", "p_randomization"):
        raw = [p[test] for p in data["pairs"]]
        assert [p[f"{test}_holm"] for p in data["pairs"]] == \
            holm_bonferroni(raw)
    assert f"Holm–Bonferroni adjusted p-values over {family}." in err
    text_argv = [x for x in argv if x not in ("--format", "json")]
    status, out, err = run(capsys, *text_argv)
    header = next(line for line in out.splitlines() if line.startswith("a vs b"))
    assert header.endswith("Holm p (bootstrap)  Holm p (randomization)")
    assert f"note: Holm–Bonferroni adjusted p-values over {family}." in out.splitlines()


def test_compare_data_error_exits_1(capsys, files, tmp_path):
    g, a, *_ = files
    status, _, err = run(capsys, "compare", g, a, str(tmp_path / "missing.conll"))
    assert status == 1
    assert "cannot read PRED" in err


def test_compare_help_has_an_example(capsys):
    status, out, _ = run(capsys, "compare", "--help")
    assert status == 0
    assert "nerscore compare gold.conll model_a.conll model_b.conll" in out


def test_score_ci_text_and_json(capsys):
    status, out, err = run(capsys, "score", GOLD, PRED, "--ci", "--resamples", "200")
    assert status == 0, err
    report, _, intervals = out.partition("confidence intervals")
    assert report.startswith("nerscore ")
    assert "40 sentences resampled" in intervals
    status, out, err = run(capsys, "score", GOLD, PRED, "--ci", "--format", "json",
                           "--resamples", "200", "--level", "0.9", "--seed", "1")
    assert status == 0, err
    data = json.loads(out)
    ci = data["confidence_intervals"]
    assert ci["level"] == 0.9
    assert ci["seed"] == 1
    f1 = ci["systems"][0]["micro"]["f1"]
    assert f1["value"] == data["overall"]["f1"]
    assert f1["low"] <= f1["value"] <= f1["high"]


@pytest.mark.parametrize(("argv", "message"), [
    (["--resamples", "10"], "'--resamples' needs --ci"),
    (["--ci", "--resamples", "0"], "--resamples: expected a whole number >= 1; got '0'"),
    (["--ci", "--format", "html"], "--ci works with --format text, json or markdown"),
])
def test_score_ci_usage_errors(capsys, argv, message):
    status, _, err = run(capsys, "score", GOLD, PRED, *argv)
    assert status == 2
    assert message in err


@pytest.mark.parametrize("systems", [("{a}", "{a}", "--names", "A", "B"),
                                     ("--system", "A={a}", "--system", "B={a}")])
def test_a_file_given_for_two_systems_has_its_notes_once(capsys, files, systems):
    g, a, *_ = files
    status, _, err = run(capsys, "compare", g, *(s.format(a=a) for s in systems),
                         "--resamples", "20")
    assert status == 0, err
    lines = err.splitlines()
    assert f"nerscore compare: note: {a}: 30 -DOCSTART- lines read as document boundaries" in lines
    assert len(lines) == len(set(lines)), err


def test_compare_notes_too_few_resamples_and_too_few_documents(capsys, files, tmp_path):
    g, a, b, *_ = files
    status, out, err = run(capsys, "compare", g, a, b, "--resamples", "1", "--seed", "0")
    assert status == 0, err
    assert ("note: 1 resample is too few for 95% intervals: they need at least 40 "
            "(resamples × (1 − level)/2 ≥ 1") in out
    status, out, err = run(capsys, "compare", g, a, b, "--resamples", "19", "--level", "0.9",
                           "--format", "json")
    assert status == 0, err
    assert json.loads(out)["notes"][0].startswith("19 resamples are too few for 90% "
                                                  "intervals: they need at least 20 ")
    gold = tmp_path / "gold.jsonl"
    gold.write_text('{"id": "a", "spans": [[0, 4, "PER"], [6, 9, "LOC"]]}\n'
                    '{"id": "b", "spans": [[0, 4, "PER"]]}\n', encoding="utf-8")
    pred = tmp_path / "pred.jsonl"
    pred.write_text('{"id": "a", "spans": [[0, 4, "PER"]]}\n{"id": "b", "spans": []}\n',
                    encoding="utf-8")
    status, out, err = run(capsys, "compare", str(gold), str(gold), str(pred), "--format",
                           "markdown", "--seed", "0")
    assert status == 0, err
    assert ("only 2 documents are resampled: with fewer than 10 documents, bootstrap "
            "intervals and p-values are unreliable") in out


def _flat_files(tmp_path: Path) -> tuple[str, str]:
    """20 documents; the prediction finds every PER and no LOC (precision 1 in every resample)."""
    gold = [[["B-PER", "O"]], [["O", "B-LOC"]]] * 10
    pred = [[["B-PER", "O"]], [["O", "O"]]] * 10
    return _conll(tmp_path / "gold.conll", gold), _conll(tmp_path / "pred.conll", pred)


FLAT = ("bootstrap intervals have zero width ({}): all 100 resamples gave the same value of "
        "each, as every document contributes alike to them")


def test_compare_notes_intervals_every_resample_of_which_is_equal(capsys, tmp_path):
    gold, pred = _flat_files(tmp_path)
    status, out, err = run(capsys, "compare", gold, pred, gold, "--names", "P", "G",
                           "--resamples", "100")
    assert status == 0, err
    assert "G       1.00 [1.00, 1.00]" in out
    note = next(line for line in out.splitlines() if "zero width" in line)
    assert note.startswith("note: 10 " + FLAT.format("P micro P, P macro F1, P macro P, "
                                                     "P macro R and 6 more"))
    status, out, err = run(capsys, "compare", gold, pred, gold, "--names", "P", "G",
                           "--resamples", "100", "--format", "json")
    assert [n for n in json.loads(out)["notes"] if "zero width" in n] == [note[6:]]
    assert f"nerscore compare: note: {note[6:]}" in err


def test_score_ci_notes_intervals_every_resample_of_which_is_equal(capsys, tmp_path):
    gold, pred = _flat_files(tmp_path)
    status, out, err = run(capsys, "score", gold, pred, "--ci", "--resamples", "100")
    assert status == 0, err
    intervals = out[out.index("confidence intervals"):]
    assert "system  1.00 [1.00, 1.00]" in intervals
    assert "note: 4 " + FLAT.format("system micro P, system macro F1, system macro P and "
                                    "system macro R") in intervals


def _rare_files(tmp_path: Path) -> tuple[str, str, str]:
    """20 documents, PER in 18 and the rare ORG in 2: gold, A (every entity) and B.

    B finds both ORG and predicts one wrong PER: a resample that draws none of these 3
    documents leaves its precision undefined under --zero-division nan.
    """
    gold = [[["B-PER", "O"]]] * 18 + [[["O", "B-ORG"]]] * 2
    b = [[["O", "B-PER"]]] + [[["O", "O"]]] * 17 + [[["O", "B-ORG"]]] * 2
    return (_conll(tmp_path / "gold.conll", gold), _conll(tmp_path / "a.conll", gold),
            _conll(tmp_path / "b.conll", b))


UNDEFINED = ("resamples {} undefined (no predicted entity among the documents drawn, "
             "--zero-division nan), as too few documents hold entities to resample; pass "
             "--zero-division 0 or 1 for {}.")


def test_compare_notes_intervals_and_p_values_that_resamples_leave_undefined(capsys, tmp_path):
    gold, a, b = _rare_files(tmp_path)
    argv = ["compare", gold, a, b, "--names", "A", "B", "--resamples", "200", "--metric",
            "precision", "--zero-division", "nan"]
    status, out, err = run(capsys, *argv)
    assert status == 0, err
    assert "B         0.67 [nan, nan]" in out
    assert "A vs B    +0.33 [nan, nan]                   nan            < 0.005\n" in out
    note = next(line for line in out.splitlines() if "undefined (" in line)
    assert note == ("note: No bootstrap interval of 3 scores (B micro P, B macro P and Δ micro "
                    "P of A vs B) and no p-value of A vs B (paired bootstrap): in 2 of 200 "
                    + UNDEFINED.format("they are", "intervals and p-values"))
    status, out, err = run(capsys, *argv, "--format", "json")
    data = json.loads(out)
    assert data["pairs"][0]["p_bootstrap"] is None
    assert note[6:] in data["notes"]
    # the default --zero-division gives every resample a value
    status, out, err = run(capsys, *argv[:-2])
    assert status == 0, err
    assert "undefined" not in out + err
    assert "nan" not in out


def test_score_ci_notes_intervals_that_resamples_leave_undefined(capsys, tmp_path):
    gold, _, b = _rare_files(tmp_path)
    status, out, err = run(capsys, "score", gold, b, "--ci", "--resamples", "200",
                           "--zero-division", "nan")
    assert status == 0, err
    intervals = out[out.index("confidence intervals"):]
    assert "system  0.67 [nan, nan]" in intervals
    assert ("note: No bootstrap interval of 2 scores (system micro P and system macro P): in "
            "2 of 200 " + UNDEFINED.format("they are", "intervals")) in intervals
    status, out, err = run(capsys, "score", gold, b, "--ci", "--resamples", "200")
    assert status == 0, err
    assert "undefined" not in out[out.index("confidence intervals"):]


def test_compare_and_score_ci_note_scores_undefined_on_all_the_data(capsys, tmp_path):
    """A system that predicts nothing has no precision under --zero-division nan: said so."""
    gold, a, _ = _rare_files(tmp_path)
    nothing = _conll(tmp_path / "none.conll", [[["O", "O"]]] * 20)
    argv = ["compare", gold, a, nothing, "--names", "A", "N", "--resamples", "50", "--metric",
            "precision", "--zero-division", "nan"]
    status, out, err = run(capsys, *argv)
    assert status == 0, err
    assert "N          nan [nan, nan]" in out
    assert ("note: 3 scores (N micro P, N macro P and Δ micro P of A vs N) are undefined (no "
            "predicted entity in the data, --zero-division nan), and so are their bootstrap "
            "intervals and the p-values of A vs N; pass --zero-division 0 or 1 to give them a "
            "value.") in out.splitlines()
    status, out, err = run(capsys, "score", gold, nothing, "--ci", "--resamples", "50",
                           "--zero-division", "nan")
    assert status == 0, err
    intervals = out[out.index("confidence intervals"):]
    assert re.search(r"^system +nan \[nan, nan\]", intervals, re.M)
    assert ("note: 2 scores (system micro P and system macro P) are undefined (no predicted "
            "entity in the data, --zero-division nan), and so are their bootstrap intervals; "
            "pass --zero-division 0 or 1 to give them a value.") in intervals.splitlines()
    # the default --zero-division (warn) scores them 0, as before: no such note (another one)
    status, out, err = run(capsys, *argv[:-2])
    assert status == 0, err
    assert "nan [" not in out
    assert "are undefined" not in out + err


SET_TO_ZERO = ("note: 2 scores ({0} micro P and {0} macro P) are ill-defined (no predicted entity "
               "in the data) and set to 0.0, and so are their bootstrap intervals; pass "
               "--zero-division 0, 1 or nan to choose the value of undefined scores.")


def test_compare_and_score_ci_note_scores_ill_defined_and_set_to_zero(capsys, tmp_path):
    """A system that predicts nothing has no precision: the default (warn) sets it to 0.0 and says so."""
    gold, a, _ = _rare_files(tmp_path)
    nothing = _conll(tmp_path / "none.conll", [[["O", "O"]]] * 20)
    argv = ["compare", gold, a, nothing, "--names", "A", "N", "--resamples", "50"]
    status, out, err = run(capsys, *argv)
    assert status == 0, err
    assert re.search(r"^N +0.00 \[0.00, 0.00\]", out, re.M)
    lines = out.splitlines()
    assert SET_TO_ZERO.format("N") in lines
    # not intervals of zero width because every document contributes alike: the 11 are
    # A's 6 scores, N's recall and F1 (0 on every document) and the difference of F1
    flat = next(line for line in lines if "zero width" in line)
    assert flat.startswith("note: 11 bootstrap intervals have zero width")
    status, out, err = run(capsys, *argv, "--format", "json")
    assert status == 0, err
    assert SET_TO_ZERO.format("N")[6:] in json.loads(out)["notes"]
    status, out, err = run(capsys, "score", gold, nothing, "--ci", "--resamples", "50")
    assert status == 0, err
    intervals = out[out.index("confidence intervals"):]
    assert SET_TO_ZERO.format("system") in intervals.splitlines()
    status, out, err = run(capsys, "score", gold, nothing, "--ci", "--resamples", "50",
                           "--format", "json")
    assert status == 0, err
    assert SET_TO_ZERO.format("system")[6:] in json.loads(out)["confidence_intervals"]["notes"]
    # a value chosen: no note, as score gives no warning; nan: the note on undefined scores
    for value in ("0", "1", "nan"):
        status, out, err = run(capsys, *argv, "--zero-division", value)
        assert status == 0, err
        assert "ill-defined" not in out + err
        status, out, err = run(capsys, "score", gold, nothing, "--ci", "--resamples", "50",
                               "--zero-division", value)
        assert status == 0, err
        assert "ill-defined" not in out + err


def test_compare_notes_macro_averages_of_labels_set_to_zero(capsys, tmp_path):
    gold, pred = _flat_files(tmp_path)  # no LOC predicted: its precision is ill-defined
    status, out, err = run(capsys, "compare", gold, pred, gold, "--names", "P", "G",
                           "--resamples", "100")
    assert status == 0, err
    assert ("note: P macro P averages 0.0 for the labels whose precision is ill-defined (no "
            "predicted entity in the data); pass --zero-division 0, 1 or nan to choose the "
            "value of undefined scores.") in out.splitlines()
    status, out, err = run(capsys, "compare", gold, pred, gold, "--names", "P", "G",
                           "--resamples", "100", "--zero-division", "0")
    assert status == 0, err
    assert "ill-defined" not in out + err


def test_a_pred_that_is_gold_is_noted_as_score_notes_it(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    copy = tmp_path / "copy.conll"
    copy.write_bytes(Path(GOLD).read_bytes())
    status, _, err = run(capsys, "compare", GOLD, GOLD, str(copy), PRED, "--resamples", "10")
    assert status == 0
    assert (f"nerscore compare: note: gold and prediction are the same file ({GOLD}); the "
            "scores compare it with itself.") in err.splitlines()
    assert (f"nerscore compare: note: gold and prediction are the same file: {GOLD} and {copy} "
            "have identical content, so the scores compare it with itself.") in err.splitlines()
    status, _, err = run(capsys, "compare", GOLD, PRED, str(copy), "--names", "a", "b",
                         "--resamples", "10")
    assert sum("same file" in line for line in err.splitlines()) == 1


def test_compare_names_the_pred_file_given_twice(capsys, files):
    g, a, *_ = files
    status, _, err = run(capsys, "compare", g, a, a)
    assert status == 2
    assert (f"the PRED file names must be distinct, but {a!r} is given twice; give each PRED "
            "once, or --names with one distinct name per PRED") in err
