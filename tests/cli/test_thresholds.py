"""``nerscore score --threshold`` and ``--threshold-from DEV_GOLD DEV_PRED --objective``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import nerscore
from nerscore.cli import main

DEV_GOLD = [{"id": "a", "spans": [[0, 4, "PER"], [10, 16, "LOC"], [20, 25, "PER"]]},
            {"id": "b", "spans": [[0, 6, "ORG"]]}]
DEV_PRED = [{"id": "a", "spans": [[0, 4, "PER", 0.95], [10, 16, "PER", 0.7],
                                  [20, 25, "PER", 0.6]]},
            {"id": "b", "spans": [{"start": 0, "end": 6, "label": "ORG", "score": 0.4},
                                  [8, 9, "ORG", 0.3]]}]
TEST_GOLD = [{"id": "t", "spans": [[0, 5, "PER"], [9, 12, "LOC"], [14, 18, "PER"]]}]
TEST_PRED = [{"id": "t", "spans": [[0, 5, "PER", 0.8], [9, 12, "LOC", 0.35],
                                   [14, 18, "PER", 0.5]]}]


def write(path, records):
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return str(path)


@pytest.fixture
def files(tmp_path):
    return {name: write(tmp_path / f"{name}.jsonl", data) for name, data in
            (("dev_gold", DEV_GOLD), ("dev_pred", DEV_PRED), ("gold", TEST_GOLD),
             ("pred", TEST_PRED))}


def run(capsys, *argv):
    status = main(list(argv))
    out, err = capsys.readouterr()
    assert "Traceback" not in err
    return status, out, err


def test_threshold_chosen_on_dev_is_applied_to_test(capsys, files):
    status, out, err = run(capsys, "score", files["gold"], files["pred"], "--threshold-from",
                           files["dev_gold"], files["dev_pred"], "--format", "json",
                           "--zero-division", "0")
    assert (status, err) == (0, "")
    report = json.loads(out)
    # chosen on dev: 0.4 (best F1 0.75); on test the LOC prediction (0.35) falls below it
    assert report["entities"]["min_score"] == 0.4
    assert report["entities"]["below_min_score"] == 1
    assert report["overall"]["tp"] == 2
    assert report["overall"]["n_pred"] == 2
    assert ("Threshold: only predictions scored at least 0.4 were scored (--threshold-from); "
            "1 prediction below it was removed.") in report["notes"]
    assert any(n.startswith(f"Threshold 0.4 chosen on {files['dev_gold']} and "
                            f"{files['dev_pred']} (objective f1): there precision 0.7500, "
                            "recall 0.7500, F1 0.7500.") for n in report["notes"])
    # the same as the API's two steps
    curve = nerscore.threshold_curve(DEV_GOLD, DEV_PRED)
    api = nerscore.evaluate(TEST_GOLD, TEST_PRED, min_score=curve.choose("f1").threshold,
                            zero_division=0)
    assert (api.micro.tp, api.micro.n_pred) == (2, 2)


def test_objectives_on_the_command_line(capsys, files):
    status, out, _ = run(capsys, "score", files["gold"], files["pred"], "--threshold-from",
                         files["dev_gold"], files["dev_pred"], "--objective", "recall@0.9",
                         "--format", "json", "--zero-division", "0")
    assert status == 0
    assert json.loads(out)["entities"]["min_score"] == 0.95
    status, _, err = run(capsys, "score", files["gold"], files["pred"], "--threshold-from",
                         files["dev_gold"], files["dev_pred"], "--objective", "precision@0.9")
    assert status == 1
    assert err == ("nerscore score: error: No threshold reaches recall 0.9 (objective "
                   "'precision@0.9'); the highest recall of any threshold is 0.7500. Lower the "
                   "bound.\n")


def test_choosing_on_the_scored_files_is_warned_about(capsys, files):
    status, out, err = run(capsys, "score", files["dev_gold"], files["dev_pred"],
                           "--threshold-from", files["dev_gold"], files["dev_pred"],
                           "--zero-division", "0")
    assert status == 0
    assert err.startswith("nerscore score: warning: The threshold was chosen on the same files "
                          "it is reported on, so these scores are optimistic")
    assert "note: The threshold was chosen on the same files" in out


def test_a_fixed_threshold(capsys, files):
    status, out, _ = run(capsys, "score", files["gold"], files["pred"], "--threshold", "0.6",
                         "--format", "json", "--zero-division", "0")
    assert status == 0
    report = json.loads(out)
    assert (report["overall"]["tp"], report["overall"]["n_pred"]) == (1, 1)
    assert report["entities"]["below_min_score"] == 2



@pytest.mark.parametrize(("argv", "message"), [
    (["--objective", "f1"], "--objective needs --threshold-from DEV_GOLD DEV_PRED"),
    (["--threshold", "0.5", "--threshold-from", "DG", "DP"],
     "give --threshold T or --threshold-from DEV_GOLD DEV_PRED, not both"),
    (["--threshold", "high"], "argument --threshold: expected a finite number or None; got "
                              "'high'"),
])
def test_usage_errors(capsys, files, argv, message):
    status, _, err = run(capsys, "score", files["gold"], files["pred"], *argv)
    assert status == 2
    assert message in err


@pytest.mark.parametrize("command", ["score", "compare"])
def test_threshold_from_with_a_matcher_that_ranks_nothing_is_a_usage_error(capsys, files,
                                                                           command):
    systems = ["--names", "a", "b"] if command == "compare" else []
    preds = [files["pred"]] * (2 if command == "compare" else 1)
    dev_preds = [files["dev_pred"]] * len(preds)
    status, out, err = run(capsys, command, files["gold"], *preds, *systems, "--match", "token",
                           "--threshold-from", files["dev_gold"], *dev_preds)
    assert (status, out) == (2, "")
    assert ("error: --threshold-from chooses a threshold on a curve of precision and recall "
            "over the scores of predictions, which --match token does not rank "
            "(docs/curves.md): give --match exact, threshold, overlap or semeval, or a fixed "
            "--threshold T.") in err


def test_unscored_predictions_with_a_threshold_are_an_error(capsys, files, tmp_path):
    plain = write(tmp_path / "plain.jsonl", TEST_GOLD)
    status, _, err = run(capsys, "score", files["gold"], plain, "--threshold", "0.5")
    assert status == 1
    assert ("error: --threshold 0.5 keeps the predictions scored at least 0.5, but 3 of the 3 "
            "predictions have no score (the first is (0, 5, 'PER') of document 't'); ") in err
    assert err.endswith(", or score them all (without --threshold).\n")


def test_compare_at_each_systems_own_dev_threshold(capsys, files, tmp_path):
    # system b scores everything lower: its own dev threshold is lower too
    lower = [{"id": d["id"], "spans": [[*s[:3], s[3] / 2] if isinstance(s, list)
                                       else {**s, "score": s["score"] / 2} for s in d["spans"]]}
             for d in DEV_PRED]
    dev_b = write(tmp_path / "dev_b.jsonl", lower)
    test_b = write(tmp_path / "test_b.jsonl", [{"id": "t", "spans": [
        [*s[:3], s[3] / 2] for s in TEST_PRED[0]["spans"]]}])
    status, out, err = run(capsys, "compare", files["gold"], files["pred"], test_b,
                           "--names", "a", "b", "--threshold-from", files["dev_gold"],
                           files["dev_pred"], dev_b, "--zero-division", "0", "--format", "json",
                           "--resamples", "50")
    assert status == 0
    assert "a: threshold 0.4 chosen on" in err
    assert "b: threshold 0.2 chosen on" in err
    data = json.loads(out)
    a, b = data["systems"]
    assert (a["name"], b["name"]) == ("a", "b")
    assert a["micro"] == b["micro"]  # the same predictions kept, each at its own threshold
    assert a["micro"]["recall"]["value"] == 2 / 3


def test_compare_threshold_from_needs_one_dev_file_per_system(capsys, files):
    status, _, err = run(capsys, "compare", files["gold"], files["pred"], files["pred"],
                         "--names", "a", "b", "--threshold-from", files["dev_gold"],
                         files["dev_pred"])
    assert status == 2
    assert "--threshold-from takes DEV_GOLD and one DEV_PRED per system: 3 files for 2 " in err


@pytest.mark.parametrize(("match", "extra", "threshold", "note"), [
    ("overlap", ["--s", "1"], 0.4, "(objective f1): there precision 0.6875, recall 0.6875"),
    ("semeval", [], 0.4, "(objective f1, SemEval strict): there precision 0.5000"),
    ("semeval", ["--schema", "partial"], 0.4, "(objective f1, SemEval partial): there "
                                              "precision 0.8750"),
])
def test_threshold_from_dev_with_partial_credit_matchers(capsys, files, match, extra,
                                                         threshold, note):
    dev_pred = [{"id": "a", "spans": [[0, 3, "PER", 0.95], [10, 16, "PER", 0.7],
                                      [20, 25, "PER", 0.6]]}, DEV_PRED[1]]
    write(Path(files["dev_pred"]), dev_pred)
    status, out, err = run(capsys, "score", files["gold"], files["pred"], "--threshold-from",
                           files["dev_gold"], files["dev_pred"], "--match", match, *extra,
                           "--format", "json", "--zero-division", "0")
    assert (status, err) == (0, "")
    report = json.loads(out)
    assert report["entities"]["min_score"] == threshold
    assert any(note in n for n in report["notes"]), report["notes"]


def test_schema_needs_semeval_and_threshold_from(capsys, files):
    status, _, err = run(capsys, "score", files["gold"], files["pred"], "--schema", "partial")
    assert status == 2
    assert "--schema needs --threshold-from" in err
    status, _, err = run(capsys, "score", files["gold"], files["pred"], "--threshold-from",
                         files["dev_gold"], files["dev_pred"], "--schema", "partial")
    assert status == 2
    assert ("--schema says which SemEval schema a threshold curve traces; --match exact has no "
            "SemEval schemas: leave it out, or give --match semeval.") in err


@pytest.mark.parametrize("argv", [["--match", "overlap"], ["--match", "semeval", "--schema",
                                                           "partial"]])
def test_compare_threshold_from_with_partial_credit_matchers(capsys, files, argv):
    status, _, err = run(capsys, "compare", files["gold"], files["pred"], files["pred"],
                         "--names", "a", "b", "--threshold-from", files["dev_gold"],
                         files["dev_pred"], files["dev_pred"], *argv, "--zero-division", "0",
                         "--format", "json", "--resamples", "20")
    assert status == 0
    assert "a: threshold 0.4 chosen on" in err
    assert "b: threshold 0.4 chosen on" in err


def test_unscored_development_and_test_predictions_name_their_file(capsys, files, tmp_path):
    plain = write(tmp_path / "plain.jsonl", DEV_GOLD)
    status, _, err = run(capsys, "score", files["gold"], files["pred"], "--threshold-from",
                         files["dev_gold"], plain)
    assert status == 1
    assert f"error: {plain}: Curves and calibration need a score on every prediction" in err
    status, _, err = run(capsys, "compare", files["gold"], files["pred"], files["pred"],
                         "--names", "a", "b", "--threshold-from", files["dev_gold"],
                         files["dev_pred"], plain)
    assert status == 1
    assert f"error: {plain}: Curves and calibration need a score on every prediction" in err
    test = write(tmp_path / "test.jsonl", [{"id": "t", "spans": [[0, 5, "PER", 0.8],
                                                                  [9, 12, "LOC"]]}])
    status, _, err = run(capsys, "compare", files["gold"], files["pred"], test,
                         "--names", "a", "b", "--threshold-from", files["dev_gold"],
                         files["dev_pred"], files["dev_pred"])
    assert status == 1
    assert (f"error: {test}: span (9, 12, 'LOC') of document 't' has no score; "
            "--threshold-from keeps each system's predictions scored at least its threshold, so "
            "every span of PRED needs a score.\n") in err


@pytest.mark.parametrize("objective", ["precision@2", "f2", "recall@"])
def test_an_unknown_objective_is_a_usage_error_naming_the_flag(capsys, files, objective):
    status, out, err = run(capsys, "score", files["gold"], files["pred"], "--threshold-from",
                           files["dev_gold"], files["dev_pred"], "--objective", objective)
    assert (status, out) == (2, "")
    assert err.startswith("nerscore score: error: argument --objective: expected f1, fbeta, "
                          "precision@R ")
    assert f"got {objective!r}. See 'nerscore score --help'." in err


@pytest.mark.parametrize(("flags", "flag"), [(["--threshold", "0.5"], "--threshold"),
                                             (["--threshold-from", "DEV"], "--threshold-from")])
def test_a_threshold_over_tag_files_is_a_usage_error(capsys, files, tmp_path, flags, flag):
    conll = tmp_path / "p.conll"
    conll.write_text("Anna B-PER\n", encoding="utf-8")
    if flag == "--threshold-from":
        flags = [flag, files["dev_gold"], files["dev_pred"]]
    status, _, err = run(capsys, "score", str(conll), str(conll), *flags)
    assert status == 2
    assert (f"error: {flag} keeps the predictions scored at least a threshold, so it needs span "
            f"files whose predictions have scores; '{conll}' is read as conll tags, which carry "
            "no score.") in err


def test_unscored_predictions_under_a_dev_threshold_name_the_file_and_the_flag(capsys, files,
                                                                               tmp_path):
    plain = write(tmp_path / "plain.jsonl", TEST_GOLD)
    status, _, err = run(capsys, "score", files["gold"], plain, "--threshold-from",
                         files["dev_gold"], files["dev_pred"])
    assert status == 1
    assert err == (f"nerscore score: error: {plain}: span (0, 5, 'PER') of document 't' has no "
                   "score (3 span(s) of the file have none); --threshold-from keeps the "
                   "predictions scored at least 0.4, so every predicted span needs a score (a "
                   "JSON Lines span's \"score\"), or score them all without --threshold-from.\n")


def test_a_dev_span_beyond_the_other_sides_text_names_its_file(capsys, files, tmp_path):
    dev_gold = write(tmp_path / "dev_gold_text.jsonl", [{"id": "a", "text": "Anna", "spans": []},
                                                        {"id": "b", "text": "x", "spans": []}])
    status, _, err = run(capsys, "score", files["gold"], files["pred"], "--threshold-from",
                         dev_gold, files["dev_pred"])
    assert status == 1
    assert err.startswith(f"nerscore score: error: {files['dev_pred']}: Span 1 (10, 16, 'PER') "
                          "of document 'a' (and 3 more invalid spans) ends beyond the text, "
                          "which has 4 characters; ")
    assert err.endswith("DEV_PRED gives no text, so its spans are checked against DEV_GOLD's "
                        "text of the same document: check that both sides hold the same "
                        "documents, with the same ids.\n")
