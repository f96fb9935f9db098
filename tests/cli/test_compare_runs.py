"""``nerscore compare GOLD --system A=a1,a2 --system B=b1,b2``, run in-process through ``main``."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import nerscore
from tests.cli.test_compare import _conll, _flat_files, run

N_DOCS, PER_DOC = 20, 3


@pytest.fixture
def runs(tmp_path: Path) -> tuple[str, dict[str, list[str]], list, dict[str, list]]:
    """Gold and two systems of three runs each, as CoNLL files with -DOCSTART- lines."""
    rng = np.random.default_rng(0)
    vocab = ["O", "O", "B-PER", "I-PER", "B-LOC"]
    gold = [[[str(t) for t in rng.choice(vocab, 5)] for _ in range(PER_DOC)]
            for _ in range(N_DOCS)]
    files: dict[str, list[str]] = {}
    data: dict[str, list] = {}
    for name, rate in (("A", 0.05), ("B", 0.4)):
        for k in range(3):
            pred = [[[t if rng.random() > rate else "O" for t in s] for s in d] for d in gold]
            files.setdefault(name, []).append(_conll(tmp_path / f"{name}{k}.conll", pred))
            data.setdefault(name, []).append(pred)
    return _conll(tmp_path / "gold.conll", gold), files, gold, data


def _system(name: str, files: list[str]) -> list[str]:
    return ["--system", f"{name}={','.join(files)}"]


def test_compare_runs_text_says_documents_and_runs_were_resampled(capsys, runs):
    gold, files, *_ = runs
    status, out, err = run(capsys, "compare", gold, *_system("A", files["A"]),
                           *_system("B", files["B"]), "--resamples", "100")
    assert status == 0, err
    lines = out.splitlines()
    assert lines[0].startswith(f"exact matching, {N_DOCS} documents and the runs of each "
                               "system resampled together;")
    header = next(i for i, line in enumerate(lines) if line.startswith("system  runs"))
    assert [line.split()[:2] for line in lines[header + 1:header + 3]] == [["A", "3"],
                                                                           ["B", "3"]]
    assert any(line.startswith("A vs B") for line in lines)
    assert "note: documents and runs were resampled together" in out
    assert ("note: with several runs per system only the paired bootstrap is defined (approximate "
            "randomization has no run-aware version): p-values are the bootstrap's.\n"
            in err)  # --method both became bootstrap


def test_compare_runs_json_equals_the_api(capsys, runs):
    gold, files, gold_docs, data = runs
    status, out, err = run(capsys, "compare", gold, *_system("A", files["A"]),
                           *_system("B", files["B"][:2]), "--resamples", "100", "--seed", "2",
                           "--format", "json", "--metric", "recall")
    assert status == 0, err
    flat = [s for d in gold_docs for s in d]
    ref = nerscore.compare_runs(
        flat, {"A": {f: [s for d in p for s in d] for f, p in zip(files["A"], data["A"],
                                                                    strict=True)},
               "B": {f: [s for d in p for s in d] for f, p in zip(files["B"][:2], data["B"],
                                                                    strict=False)}},
        n_resamples=100, seed=2, metric="recall", documents=range(0, N_DOCS * PER_DOC, PER_DOC),
        zero_division="warn")  # the command line's default
    got = json.loads(out)
    assert got == json.loads(ref.to_json())
    assert got["zero_division"] == "warn"  # as score's JSON records it
    assert [s["runs"]["n_runs"] for s in got["systems"]] == [3, 2]


@pytest.mark.parametrize(("extra", "message"), [
    (["--method", "randomization"], "--method randomization swaps two systems' predictions"),
    (["--names", "x", "y"], "--names names PRED files"),
    (["--system", "A=x.conll"], "the names of --system must be distinct, but 'A' is given "
     "twice"),
    (["--system", "C"], "expected NAME=RUN1[,RUN2,...]"),
    (["--system", "C=a,,b"], "an empty file name"),
    (["--system", "C=a,a"], "--system C lists a run file twice"),
    (["--baseline", "nobody"], "--baseline 'nobody' is none of the systems (A, B)"),
    (["--threshold-from", "g", "d"], "does not apply to --system runs"),
])
def test_compare_runs_usage_errors_exit_2(capsys, runs, extra, message):
    gold, files, *_ = runs
    status, _, err = run(capsys, "compare", gold, *_system("A", files["A"]),
                         *_system("B", files["B"]), *extra)
    assert status == 2
    assert message in err


def test_pred_files_and_systems_are_exclusive(capsys, runs):
    gold, files, *_ = runs
    status, _, err = run(capsys, "compare", gold, files["A"][0], *_system("B", files["B"]))
    assert status == 2
    assert "give PRED files (one run per system) or --system" in err
    status, _, err = run(capsys, "compare", gold)
    assert status == 2
    assert "give one PRED file per system, or --system" in err


def test_missing_run_file_and_unequal_documents_exit_1(capsys, runs, tmp_path):
    gold, files, *_ = runs
    status, _, err = run(capsys, "compare", gold, *_system("A", files["A"]),
                         *_system("B", [files["B"][0], str(tmp_path / "missing.conll")]))
    assert status == 1
    assert "cannot read PRED" in err
    assert "missing.conll" in err
    g = tmp_path / "g.jsonl"
    g.write_text('{"id": "a", "text": "Jo", "spans": [[0, 2, "PER"]]}\n'
                 '{"id": "b", "text": "Ed", "spans": []}\n', encoding="utf-8")
    short = tmp_path / "short.jsonl"
    short.write_text('{"id": "a", "text": "Jo", "spans": [[0, 2, "PER"]]}\n', encoding="utf-8")
    twin = tmp_path / "twin.jsonl"
    twin.write_text(g.read_text(encoding="utf-8"), encoding="utf-8")
    status, _, err = run(capsys, "compare", str(g), "--system", f"A={g},{short}",
                         "--system", f"B={g},{twin}", "--resamples", "10")
    assert status == 1
    assert f"run '{short}' of system 'A' does not predict the same documents as gold" in err


def test_model_output_runs_are_refused_with_the_convert_hint(capsys):
    data = Path(__file__).resolve().parents[1] / "data" / "llm"
    llm = str(data / "llm.jsonl")
    status, _, err = run(capsys, "compare", str(data / "gold.jsonl"), "--system", f"A={llm}",
                         "--system", f"B={llm}")
    assert status == 2
    assert f"{llm} holds model outputs" in err
    assert "nerscore convert" in err


def test_compare_runs_notes_intervals_every_resample_of_which_is_equal(capsys, tmp_path):
    gold, pred = _flat_files(tmp_path)  # every PER found, no LOC: precision 1 in every resample
    again = tmp_path / "again.conll"
    again.write_text(Path(pred).read_text(encoding="utf-8") + "\n", encoding="utf-8")
    status, out, err = run(capsys, "compare", gold, *_system("A", [pred, str(again)]),
                           *_system("B", [gold]), "--resamples", "100")
    assert status == 0, err
    assert ("note: 10 bootstrap intervals have zero width (A micro P, A macro F1, A macro P, "
            "A macro R and 6 more): all 100 resamples gave the same value of each") in out


def test_compare_runs_notes_intervals_that_resamples_leave_undefined(capsys, tmp_path):
    from tests.cli.test_compare import UNDEFINED, _rare_files

    gold, a, b = _rare_files(tmp_path)
    again = {}
    for name, path in (("A", a), ("B", b)):
        again[name] = tmp_path / f"{name}2.conll"
        again[name].write_text(Path(path).read_text(encoding="utf-8") + "\n", encoding="utf-8")
    argv = ["compare", gold, *_system("A", [a, str(again["A"])]),
            *_system("B", [b, str(again["B"])]), "--resamples", "200", "--metric", "precision"]
    status, out, err = run(capsys, *argv, "--zero-division", "nan")
    assert status == 0, err
    assert ("note: No bootstrap interval of 3 scores (B micro P, B macro P and Δ micro P of A "
            "vs B) and no p-value of A vs B: in 2 of 200 "
            + UNDEFINED.format("they are", "intervals and p-values")) in out
    status, out, err = run(capsys, *argv)
    assert status == 0, err
    assert "undefined" not in out


def test_compare_runs_notes_scores_ill_defined_and_set_to_zero(capsys, tmp_path):
    from tests.cli.test_compare import SET_TO_ZERO, _rare_files

    gold, a, _ = _rare_files(tmp_path)
    nothing = [_conll(tmp_path / f"none{i}.conll", [[["O", "O"]]] * 20) for i in (1, 2)]
    a2 = tmp_path / "a2.conll"
    a2.write_text(Path(a).read_text(encoding="utf-8") + "\n", encoding="utf-8")
    argv = ["compare", gold, *_system("A", [a, str(a2)]), "--resamples", "50"]
    # every run of N predicts nothing: N's precision is ill-defined, set to 0.0
    status, out, err = run(capsys, *argv, *_system("N", nothing))
    assert status == 0, err
    assert SET_TO_ZERO.format("N") in out.splitlines()
    # one run of N predicts nothing: N's mean counts 0.0 for it
    status, out, err = run(capsys, *argv, *_system("N", [nothing[0], str(a2)]))
    assert status == 0, err
    assert ("note: 2 scores (N micro P and N macro P) average 0.0 for the labels or runs whose "
            "precision is ill-defined (no predicted entity in the data); pass --zero-division 0, "
            "1 or nan to choose the value of undefined scores.") in out.splitlines()
    status, out, err = run(capsys, *argv, *_system("N", nothing), "--zero-division", "1")
    assert status == 0, err
    assert "ill-defined" not in out + err
