"""``nerscore score GOLD RUN1 RUN2 ... --runs``: every run checked as ``score GOLD RUN`` checks it."""

from __future__ import annotations

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
    assert err.startswith(f"nerscore score: error: {gold} has 1 sentences but {bad} has 2;")


def test_a_run_whose_tokens_differ_is_warned_about_as_score_warns(capsys, tmp_path):
    gold, pred = tmp_path / "g.conll", tmp_path / "p.conll"
    gold.write_text("Anna B-PER\nleft O\n", encoding="utf-8")
    pred.write_text("Anna B-PER\nleaves O\n", encoding="utf-8")
    assert main(["score", str(gold), str(pred), "--format", "json"]) == 0
    warned = [line for line in capsys.readouterr().err.splitlines() if "differ" in line]
    assert main(["score", str(gold), str(pred), str(pred), "--runs"]) == 0
    err = capsys.readouterr().err.splitlines()
    assert warned
    assert err == warned * 2
