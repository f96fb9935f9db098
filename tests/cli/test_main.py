"""What :func:`nerscore.cli.main` does around every command."""

from __future__ import annotations

import gc
import json

import pytest

from nerscore.cli import main
from tests.paths import DATA


def test_the_collector_is_paused_while_a_command_runs_and_restored_after(monkeypatch, capsys):
    """Span readers build millions of acyclic objects: a collection only walks them."""
    from nerscore.cli import commands

    run = commands.run_score
    paused: list[bool] = []

    def run_score(args):
        paused.append(not gc.isenabled())
        return run(args)

    monkeypatch.setattr(commands, "run_score", run_score)
    gold = str(DATA / "llm" / "gold.jsonl")
    assert main(["score", gold, gold]) == 0
    assert main(["score", gold, str(DATA / "missing.jsonl")]) == 1
    assert paused == [True, True]
    assert gc.isenabled()  # on again, also after a failing command
    assert "missing.jsonl" in capsys.readouterr().err
    gc.disable()
    try:
        assert main(["score", gold, gold]) == 0
        assert not gc.isenabled()  # left off, as it was
    finally:
        gc.enable()


@pytest.mark.parametrize("kind", ["conll", "jsonl"])
def test_a_command_leaves_no_cyclic_garbage_that_grows_with_its_input(tmp_path, capsys, kind):
    """Why the collector can be paused: the garbage of a run does not grow with its chunks."""
    n = 2000
    if kind == "conll":
        gold, pred = tmp_path / "gold.conll", tmp_path / "pred.conll"
        gold.write_text("".join(f"w{i} B-PER\nx I-PER\ny O\n\n" for i in range(n)))
        pred.write_text("".join(f"w{i} B-{'PER' if i % 3 else 'LOC'}\nx O\ny O\n\n"
                                for i in range(n)))
        extra = ["--errors", str(tmp_path / "errors.jsonl"), "--confusion"]
    else:
        gold, pred = tmp_path / "gold.jsonl", tmp_path / "pred.jsonl"
        for path, end in ((gold, 9), (pred, 4)):
            path.write_text("".join(json.dumps({"id": str(i), "text": "Anna Smith",
                                                "spans": [[0, end, "PER"]]}) + "\n"
                                    for i in range(n)))
        extra = []
    argv = ["score", str(gold), str(pred), "--chunk-sentences", "1", *extra]
    assert main(argv) == 0  # imports and caches first
    gc.collect()
    gc.disable()
    try:
        assert main(argv) == 0
        garbage = gc.collect()
    finally:
        gc.enable()
    capsys.readouterr()
    assert garbage < n / 2, f"{garbage} objects in reference cycles after {n} chunks"
