"""``nerscore score GOLD RUN1 RUN2 ... --runs``: every run checked as ``score GOLD RUN`` checks it."""

from __future__ import annotations

import pytest

from nerscore.cli import main


def test_a_run_with_more_sentences_is_named_as_score_names_it(capsys, tmp_path):
    gold, good, bad = tmp_path / "g.conll", tmp_path / "p1.conll", tmp_path / "p2.conll"
    gold.write_text("Anna B-PER\n", encoding="utf-8")
    good.write_text("Anna B-PER\n", encoding="utf-8")
    bad.write_text("Anna B-PER\n\nBob O\n", encoding="utf-8")
    assert main(["score", str(gold), str(bad)]) == 1
    alone = capsys.readouterr().err
    assert main(["score", str(gold), str(good), str(bad), "--runs"]) == 1
    err = capsys.readouterr().err
    assert err == alone
    assert err.startswith(f"nerscore score: error: {gold} has 1 sentence but {bad} has 2;")


def test_every_run_whose_documents_differ_from_gold_is_named(capsys, tmp_path):
    gold, good = tmp_path / "g.conll", tmp_path / "p1.conll"
    gold.write_text("Anna B-PER\n\nBob O\n", encoding="utf-8")
    good.write_text("Anna B-PER\n\nBob O\n", encoding="utf-8")
    short, shorter = tmp_path / "p2.conll", tmp_path / "p3.conll"
    short.write_text("Anna B-PER\n", encoding="utf-8")
    shorter.write_text("Anna O\n", encoding="utf-8")
    assert main(["score", str(gold), str(good), str(short), str(shorter), "--runs"]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"nerscore score: error: 2 runs cannot be scored: {gold} has 2 "
                          f"sentences but {short} has 1;")
    assert f" {gold} has 2 sentences but {shorter} has 1;" in err
    assert len(err.splitlines()) == 1
    # span files joined by id: the library's error, after the run's file
    spans = tmp_path / "g.jsonl"
    spans.write_text('{"id": "a", "spans": [[0, 4, "PER"]]}\n', encoding="utf-8")
    runs = []
    for name, doc in (("s1", "a"), ("s2", "x"), ("s3", "y")):
        runs.append(tmp_path / f"{name}.jsonl")
        runs[-1].write_text(f'{{"id": "{doc}", "spans": [[0, 4, "PER"]]}}\n', encoding="utf-8")
    assert main(["score", str(spans), *map(str, runs), "--runs"]) == 1
    err = capsys.readouterr().err
    none = "None of the 1 predicted document ids appear among the 1 gold ids (gold: 'a'; "
    assert err.startswith(f"nerscore score: error: 2 runs cannot be scored: {runs[1]}: {none}"
                          "predicted: 'x'); check that both sides use the same ids. "
                          f"{runs[2]}: {none}predicted: 'y');")
    assert main(["score", str(spans), *map(str, runs[:2]), "--runs"]) == 1
    assert capsys.readouterr().err.startswith(f"nerscore score: error: {runs[1]}: {none}")


def test_a_run_whose_tokens_differ_is_warned_about_as_score_warns(capsys, tmp_path):
    gold, pred = tmp_path / "g.conll", tmp_path / "p.conll"
    gold.write_text("Anna B-PER\nleft O\n", encoding="utf-8")
    pred.write_text("Anna B-PER\nleaves O\n", encoding="utf-8")
    assert main(["score", str(gold), str(pred), "--format", "json"]) == 0
    warned = [line for line in capsys.readouterr().err.splitlines() if "differ" in line]
    assert main(["score", str(gold), str(pred), str(pred), "--runs"]) == 0
    err = capsys.readouterr().err.splitlines()
    assert warned
    assert err == [*warned * 2, f"nerscore score: warning: runs 1 and 2 are the same file ({pred}): "
                   "one run counts as two, so the mean leans to it and the SD over runs "
                   "understates the spread; give each run once."]


def test_the_readers_notes_are_printed_once_per_file_as_score_prints_them(capsys, tmp_path):
    gold, run1, run2 = tmp_path / "g.conll", tmp_path / "p1.conll", tmp_path / "p2.conll"
    gold.write_text("-DOCSTART- O\n\nAnna B-PER\n", encoding="utf-8")
    run1.write_text("# a comment\nAnna B-PER\n", encoding="utf-8")
    run2.write_text("-DOCSTART- O\n\n-DOCSTART- O\n\nAnna B-PER\n", encoding="utf-8")
    said = []
    for run in (run1, run2):
        assert main(["score", str(gold), str(run), "--comments", "--format", "markdown"]) == 0
        said.append(capsys.readouterr().err.splitlines())
    assert said[0][0] == f"nerscore score: note: {gold}: 1 -DOCSTART- line read as document boundary"
    assert said[0][1] == f"nerscore score: note: {run1}: 1 comment line skipped"
    assert said[1][1] == f"nerscore score: note: {run2}: 2 -DOCSTART- lines read as document boundaries"
    assert main(["score", str(gold), str(run1), str(run2), str(run1), "--runs", "--comments"]) == 0
    err = capsys.readouterr().err.splitlines()
    assert err[:3] == [said[0][0], said[0][1], said[1][1]]
    assert err[3].startswith(f"nerscore score: warning: runs 1 and 3 are the same file ({run1})")
    assert len(err) == 4


def test_the_notes_of_scoring_are_printed_once_naming_the_runs_they_are_about(capsys, tmp_path):
    gold, run1, run2 = tmp_path / "g.conll", tmp_path / "p1.conll", tmp_path / "p2.conll"
    gold.write_text("Anna B-PER\nin O\nParis B-LOC\n", encoding="utf-8")
    run1.write_text("Anna B-PER\nin O\nParis B-GPE\n", encoding="utf-8")
    run2.write_text("Anna B-PER\nin O\nParis O\n", encoding="utf-8")
    assert main(["score", str(gold), str(run1), "--map", "GPE=LOC", "--format", "json"]) == 0
    scored = capsys.readouterr().out
    renamed = "Labels renamed (--map): GPE -> LOC (0 gold, 1 predicted entity)."
    assert renamed in scored
    assert main(["score", str(gold), str(run1), str(run2), str(run1), "--runs",
                 "--map", "GPE=LOC"]) == 0
    notes = [line for line in capsys.readouterr().err.splitlines() if "(--map)" in line]
    assert notes == [f"nerscore score: note: {run1}: {renamed}",
                     f"nerscore score: note: {run1}: Labels merged (--map): GPE and LOC "
                     "are scored as LOC."]
    assert main(["score", str(gold), str(run1), str(run1), "--runs", "--map", "GPE=LOC"]) == 0
    notes = [line for line in capsys.readouterr().err.splitlines() if "(--map)" in line]
    assert notes[0] == f"nerscore score: note: {renamed}"


def test_an_undefined_score_names_the_runs_it_is_about(capsys, tmp_path):
    gold, empty, some = tmp_path / "g.conll", tmp_path / "p1.conll", tmp_path / "p2.conll"
    gold.write_text("Anna B-PER\nin O\nParis B-LOC\n", encoding="utf-8")
    empty.write_text("Anna O\nin O\nParis O\n", encoding="utf-8")
    some.write_text("Anna B-PER\nin O\nParis O\n", encoding="utf-8")
    assert main(["score", str(gold), str(empty), "--format", "json"]) == 0
    alone = capsys.readouterr().err
    assert "ill-defined" in alone
    assert str(empty) not in alone
    assert main(["score", str(gold), str(empty), str(some), "--runs"]) == 0
    (err,) = capsys.readouterr().err.splitlines()
    assert err.startswith(f"nerscore score: note: {empty}: Precision is ill-defined and set to "
                          "0.0 for 'LOC', 'PER' (no predicted entities); "
                          f"{empty}: Precision is ill-defined and set to 0.0 for 'micro average'")
    assert f"; {some}: Precision is ill-defined and set to 0.0 for 'LOC' " in err
    copy = tmp_path / "copy.conll"
    copy.write_bytes(empty.read_bytes())
    assert main(["score", str(gold), str(empty), str(copy), "--runs"]) == 0
    assert capsys.readouterr().err == (
        f"nerscore score: warning: runs 1 and 2 are the same file: {empty} and {copy} have "
        "identical content: one run counts as two, so the mean leans to it and the SD over runs "
        f"understates the spread; give each run once.\n{alone}")


def test_undefined_scores_past_the_third_are_counted(capsys, tmp_path):
    gold = tmp_path / "g.conll"
    gold.write_text("Anna B-PER\nin O\nParis B-LOC\n", encoding="utf-8")
    runs = []
    for k in range(5):
        run = tmp_path / f"p{k}.conll"
        run.write_text(f"Anna B-PER\nin B-X{k}\nParis O\n", encoding="utf-8")
        runs.append(str(run))
    assert main(["score", str(gold), *runs, "--runs"]) == 0
    (err,) = capsys.readouterr().err.splitlines()
    assert err.startswith("nerscore score: note: Precision is ill-defined and set to 0.0 for "
                          "'LOC' (no predicted entities); ")
    assert err.count("Recall is ill-defined") == 2
    assert f"{runs[1]}: Recall is ill-defined and set to 0.0 for 'X1' (no gold entities); " \
           "... (3 more). Pass --zero-division 0, 1 or nan" in err


def _span_runs(tmp_path):
    gold = tmp_path / "g.jsonl"
    gold.write_text('{"id": "a", "text": "Anna", "spans": [[0, 4, "PER"]]}\n', encoding="utf-8")
    return str(gold), str(gold), str(gold)


@pytest.mark.parametrize(("flags", "message"), [
    (["--scheme", "IOB2"], "--scheme says how the tags of tag files are read (CoNLL, Parquet "
     "tags, JSON Lines token records); the inputs are span files (jsonl): leave it out."),
    (["--token-column", "1"], "--token-column applies to no input; the inputs are jsonl files"),
    (["--layer", "Entity"], "--layer applies to no input; the inputs are jsonl files"),
    (["--align", "first"], "--align says which occurrence of a repeated string a mention of "
     "model outputs takes; "),
    (["--workers", "2"], "--workers scores chunks of the files on a local Dask cluster; --runs "
     "reads every run whole: leave it out."),
    (["--workers", "2", "--chunk-sentences", "5"], "--chunk-sentences, --workers read or score "
     "the files chunk by chunk; --runs reads every run whole: leave them out."),
    (["--objective", "f1"], "--objective says what --threshold-from maximises; --runs scores "
     "every run as it is: leave it out."),
    (["--ci", "--confusion"], "--confusion, --ci add to the scores of one PRED; --runs "
     "summarises the runs (mean ± SD over runs): leave them out."),
])
def test_an_option_the_runs_have_no_use_for_is_a_usage_error(capsys, tmp_path, flags, message):
    status = main(["score", *_span_runs(tmp_path), "--runs", *flags])
    out, err = capsys.readouterr()
    assert (status, out) == (2, "")
    assert message in err
    assert len(err.splitlines()) == 1


def test_a_format_that_renders_no_runs_summary_is_one_sentence(capsys, tmp_path):
    status = main(["score", *_span_runs(tmp_path), "--runs", "--format", "html"])
    err = capsys.readouterr().err
    assert status == 2
    assert err == ("nerscore score: error: --runs: The html format does not render a runs "
                   "summary; formats that do: text, json, markdown. See 'nerscore score --help'.\n")


def test_model_outputs_as_runs_are_refused_with_the_convert_hint(capsys, tmp_path):
    gold, _, _ = _span_runs(tmp_path)
    llm = tmp_path / "llm.jsonl"
    llm.write_text('{"id": "a", "output": "PER: Anna"}\n', encoding="utf-8")
    assert main(["score", gold, str(llm), gold, "--runs"]) == 2
    err = capsys.readouterr().err
    assert f"--runs takes prediction files with offsets; {llm} holds model outputs: " in err
    assert "nerscore convert" in err


def test_a_run_without_scores_under_a_threshold_is_named(capsys, tmp_path):
    gold = tmp_path / "g.jsonl"
    gold.write_text('{"id": "a", "spans": [[0, 4, "PER"]]}\n', encoding="utf-8")
    scored = tmp_path / "p1.jsonl"
    scored.write_text('{"id": "a", "spans": [[0, 4, "PER", 0.9]]}\n', encoding="utf-8")
    status = main(["score", str(gold), str(scored), str(gold), "--runs", "--threshold", "0.5"])
    out, err = capsys.readouterr()
    assert (status, out) == (1, "")
    assert err.startswith(f"nerscore score: error: {gold}: span (0, 4, 'PER') of document 'a' "
                          "has no score (1 span(s) of the file have none); --threshold keeps ")


def test_a_threshold_over_tag_runs_is_a_usage_error(capsys, tmp_path):
    gold = tmp_path / "g.conll"
    gold.write_text("Anna B-PER\n", encoding="utf-8")
    status = main(["score", str(gold), str(gold), str(gold), "--runs", "--threshold", "0.5"])
    assert status == 2
    assert (f"error: --threshold keeps the predictions scored at least a threshold, so it needs "
            f"span files whose predictions have scores; '{gold}' is read as conll tags, which "
            "carry no score.") in capsys.readouterr().err


@pytest.mark.parametrize(("more", "flags", "message"), [
    ([], ["--mode", "strict"], "--mode strict needs --scheme"),
    ([], ["--outside", "B-X"], "--outside B-X is spelled as an entity tag"),
    ([], ["--threshold", "0.5"], "--threshold keeps the predictions scored at least a threshold"),
    (["s.jsonl"], [], "(jsonl) against conll gold: give every file as tags, or every file as "
                      "spans"),
])
def test_usage_errors_come_before_any_run_is_read(capsys, tmp_path, monkeypatch, more, flags,
                                                  message):
    """GOLD's bytes cannot be decoded: read, they would be the error."""
    from nerscore.io.formats import Format

    gold, run = tmp_path / "g.conll", tmp_path / "p.conll"
    gold.write_bytes(b"Anna B-PER\n\nBob\xff O\n")
    run.write_text("Anna B-PER\n\nBob O\n", encoding="utf-8")
    (tmp_path / "s.jsonl").write_text('{"id": "a", "spans": [[0, 4, "PER"]]}\n',
                                      encoding="utf-8")

    def read(*args, **kwargs):
        raise AssertionError("a file was read")

    monkeypatch.setattr(Format, "load", read)
    more = [str(tmp_path / name) for name in more]
    status = main(["score", str(gold), str(run), *more, "--runs", *flags])
    out, err = capsys.readouterr()
    assert (status, out) == (2, "")
    assert message in err
