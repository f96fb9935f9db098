"""What the command imports before it has work to do."""

from __future__ import annotations

import subprocess
import sys

import pytest


def _modules_after(args: list[str]) -> set[str]:
    code = ("import sys\nfrom nerscore.cli import main\ntry:\n    main(" + repr(args) + ")\n"
            "finally:\n    print(' '.join(sorted(sys.modules)), file=sys.stderr)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    return set(out.stderr.split())


def test_version_imports_neither_numpy_nor_a_subcommand(capsys):
    from nerscore.cli import main

    assert main(["--version"]) == 0
    assert capsys.readouterr().out.startswith("nerscore ")
    modules = _modules_after(["--version"])
    assert "numpy" not in modules
    assert not any(m.startswith("nerscore.cli.") for m in modules)


@pytest.mark.parametrize("args", [["--help"], ["score", "--help"]])
def test_help_still_lists_every_subcommand_and_option(args, capsys):
    from nerscore.cli import main

    assert main(args) == 0
    out = capsys.readouterr().out
    assert ("conlleval" in out and "report" in out) if args == ["--help"] else "--match" in out


#: Modules a plain ``score`` of two CoNLL files has no use for.
_NOT_FOR_CONLL = ("nerscore.cli.llm_systems", "nerscore.decode.mentions", "nerscore.io.llm_output",
                  "nerscore.io.llm_records", "nerscore.io.jsonl", "nerscore.analysis.confusion",
                  "nerscore.analysis.errors", "nerscore.analysis.error_table")


def test_score_of_conll_files_imports_no_model_output_or_error_modules(tmp_path):
    gold, pred = tmp_path / "g.conll", tmp_path / "p.conll"
    gold.write_text("Jonas B-PER\nleft O\n\n")
    pred.write_text("Jonas B-PER\nleft O\n\n")
    modules = _modules_after(["score", str(gold), str(pred), "-q"])
    assert "nerscore.accumulate.files" in modules  # it took the streaming path
    assert not set(_NOT_FOR_CONLL) & modules
