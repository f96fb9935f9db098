"""What :func:`nerscore.cli.main` does around every command."""

from __future__ import annotations

import gc

from nerscore.cli import main
from tests.paths import DATA


def test_full_collections_are_deferred_while_a_command_runs_and_restored_after(monkeypatch,
                                                                               capsys):
    """Span readers build millions of acyclic objects: a full collection only walks them."""
    seen: list[tuple[int, ...]] = []
    real = gc.set_threshold

    def recorded(*thresholds: int) -> None:
        seen.append(thresholds)
        real(*thresholds)

    before = gc.get_threshold()
    monkeypatch.setattr(gc, "set_threshold", recorded)
    gold = str(DATA / "llm" / "gold.jsonl")
    for args in (["score", gold, gold], ["score", gold, str(DATA / "missing.jsonl")]):
        seen.clear()
        assert main(args) in (0, 1)
        assert seen == [(before[0], before[1], max(before[2], 1000)), before]
        assert gc.get_threshold() == before
    assert "missing.jsonl" in capsys.readouterr().err
