"""``nerscore curve GOLD PRED``: the threshold curve as CSV, JSON, SVG or PNG."""

from __future__ import annotations

import csv
import io
import json

import pytest

import nerscore
from nerscore.cli import main
from tests.cli.test_thresholds import DEV_GOLD, DEV_PRED, write


@pytest.fixture
def files(tmp_path):
    return write(tmp_path / "gold.jsonl", DEV_GOLD), write(tmp_path / "pred.jsonl", DEV_PRED)


def run(capsys, *argv):
    status = main(list(argv))
    out, err = capsys.readouterr()
    assert "Traceback" not in err
    return status, out, err


def test_csv_rows_are_the_curves_points(capsys, files):
    status, out, err = run(capsys, "curve", *files)
    assert (status, err) == (0, "")
    rows = list(csv.DictReader(io.StringIO(out)))
    curve = nerscore.threshold_curve(DEV_GOLD, DEV_PRED)
    assert len(rows) == len(curve.rows())
    micro = [r for r in rows if r["label"] == "micro"]
    assert [float(r["threshold"]) for r in micro] == curve.micro.threshold.tolist()
    assert [int(r["tp"]) for r in micro] == curve.micro.tp.tolist()


def test_json_holds_the_curve_and_the_calibration(capsys, files):
    status, out, _ = run(capsys, "curve", *files, "--format", "json", "--bins", "5")
    assert status == 0
    data = json.loads(out)
    assert data["micro"]["best"]["threshold"] == 0.4
    assert data["calibration"]["bins"] == 5
    assert data["calibration"]["overall"]["n"] == 5


@pytest.mark.parametrize(("plot", "label"), [("pr", "Precision–recall"),
                                             ("f1", "F1 against threshold"),
                                             ("reliability", "Reliability")])
def test_svg_pictures(capsys, files, plot, label):
    status, out, _ = run(capsys, "curve", *files, "--format", "svg", "--plot", plot)
    assert status == 0
    assert out.startswith('<svg xmlns="http://www.w3.org/2000/svg"')
    assert f'aria-label="{label}"' in out


def test_png_picture(capsys, files, tmp_path):
    pytest.importorskip("matplotlib")
    target = tmp_path / "pr.png"
    status, _, _ = run(capsys, "curve", *files, "--format", "png", "-o", str(target))
    assert status == 0
    assert target.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_usage_and_data_errors(capsys, files, tmp_path):
    status, _, err = run(capsys, "curve", *files, "--format", "png")
    assert (status, "--format png needs -o FILE" in err) == (2, True)
    status, out, err = run(capsys, "curve", *files, "--match", "token")
    assert (status, out) == (2, "")  # a usage error, before any file is read
    assert ("error: nerscore curve traces precision and recall over the scores of predictions, "
            "which --match token does not rank (docs/curves.md): give --match exact, threshold, "
            "overlap or semeval.") in err
    status, _, err = run(capsys, "curve", *files, "--schema", "type")
    assert (status, "--match exact has no SemEval schemas: leave it out, or give --match semeval"
            in err) == (2, True)
    plain = write(tmp_path / "plain.jsonl", DEV_GOLD)
    status, _, err = run(capsys, "curve", files[0], plain)
    assert status == 1
    assert "need a score on every prediction; 4 of the 4 predictions have none" in err


@pytest.mark.parametrize(("argv", "message"), [
    (["--beta", "0"], "argument --beta: expected a positive number; got '0'"),
    (["--beta", "inf"], "argument --beta: expected a positive number; got 'inf'"),
    (["--bins", "0"], "argument --bins: expected a whole number >= 1; got '0'"),
])
def test_bad_numbers_are_usage_errors(capsys, files, argv, message):
    status, out, err = run(capsys, "curve", *files, *argv)
    assert (status, out) == (2, "")
    assert message in err


@pytest.mark.parametrize(("argv", "kwargs"), [
    (["--match", "overlap", "--s", "0.5"], {"match": "overlap", "s": 0.5}),
    (["--match", "semeval"], {"match": "semeval"}),
    (["--match", "semeval", "--schema", "type"], {"match": "semeval", "schema": "type"}),
])
def test_partial_credit_matchers(capsys, files, argv, kwargs):
    status, out, err = run(capsys, "curve", *files, "--format", "json", *argv)
    assert (status, err) == (0, "")
    data = json.loads(out)
    curve = nerscore.threshold_curve(DEV_GOLD, DEV_PRED, **kwargs)
    assert data["micro"] == curve.micro.to_dict()
    assert data["options"] == dict(curve.options)
    assert data["calibration"]["match"] == kwargs["match"]


def test_documents_one_side_lacks_and_no_prediction_are_noted(capsys, files, tmp_path):
    pred = write(tmp_path / "part.jsonl", [DEV_PRED[0], {"id": "zz", "spans": [[0, 1, "X", 0.5]]}])
    status, out, err = run(capsys, "curve", files[0], pred)
    assert status == 0
    assert out.startswith("label,threshold")
    assert err == ("nerscore curve: note: 1 gold document(s) have no prediction and count as "
                   "predicting no entities: 'b'.\n"
                   "nerscore curve: note: 1 predicted document(s) are not in the gold data; "
                   "their 1 span(s) count as false positives: 'zz'.\n")
    none = write(tmp_path / "none.jsonl", [{"id": "a", "spans": []}, {"id": "b", "spans": []}])
    status, out, err = run(capsys, "curve", files[0], none)
    assert (status, out.splitlines()) == (0, ["label,threshold,tp,n_pred,n_gold,precision,"
                                              "recall,fbeta"])
    assert err == f"nerscore curve: note: {none} has no prediction: the curve has no point.\n"
    assert run(capsys, "curve", files[0], none, "-q")[2] == ""


def test_predictions_below_the_threshold_are_counted_in_a_note(capsys, files):
    # DEV_PRED scores 0.95, 0.7, 0.6, 0.4 and 0.3: two fall below 0.5
    status, out, err = run(capsys, "curve", *files, "--threshold", "0.5")
    assert status == 0
    assert err == ("nerscore curve: note: Threshold: only predictions scored at least 0.5 were "
                   "scored (--threshold); 2 predictions below it were removed.\n")
    micro = [r for r in csv.DictReader(io.StringIO(out)) if r["label"] == "micro"]
    assert min(float(r["threshold"]) for r in micro) == 0.6


def test_an_unscored_prediction_names_the_file(capsys, files, tmp_path):
    unscored = write(tmp_path / "unscored.jsonl", [{"id": "a", "spans": [[0, 4, "PER", None]]}])
    status, _, err = run(capsys, "curve", files[0], unscored)
    assert status == 1
    assert err.startswith(f"nerscore curve: error: {unscored}: Curves and calibration need a "
                          "score on every prediction; 1 of the 1 predictions have none")


def test_json_says_why_the_calibration_is_null(capsys, files, tmp_path):
    logits = write(tmp_path / "logits.jsonl", [{"id": "a", "spans": [[0, 4, "PER", 2.5]]}])
    status, out, err = run(capsys, "curve", files[0], logits, "--format", "json")
    assert status == 0
    assert json.loads(out)["calibration"] is None
    assert ('nerscore curve: note: "calibration" is null: Calibration needs scores in [0, 1] '
            "(probabilities); 1 of the 1 predictions are scored outside it") in err


def test_a_span_beyond_the_gold_text_names_the_prediction_file(capsys, tmp_path):
    gold = write(tmp_path / "gold.jsonl", [{"id": "a", "text": "Anna", "spans": []}])
    pred = write(tmp_path / "pred.jsonl", [{"id": "a", "spans": [[0, 9, "PER", 0.5]]}])
    status, _, err = run(capsys, "curve", gold, pred)
    assert status == 1
    assert err == (f"nerscore curve: error: {pred}: Span 0 (0, 9, 'PER') of document 'a' ends "
                   "beyond the text, which has 4 characters; offsets are Python str indices "
                   "into the document text. PRED gives no text, so its spans are checked against "
                   "GOLD's text of the same document: check that both sides hold the same "
                   "documents, with the same ids.\n")
