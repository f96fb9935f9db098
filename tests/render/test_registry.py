"""The renderer registry: every --format and render_result resolve formats here."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

import nerscore
from nerscore.cli import main
from nerscore.errors import OptionError
from nerscore.render import registry
from tests.paths import EXAMPLES

GOLD = str(EXAMPLES / "conll2000" / "gold.conll")
PRED = str(EXAMPLES / "conll2000" / "pred.conll")

PLUGIN = '''
"""A renderer from outside nerscore: one module, registered on import."""
from nerscore.render.registry import Renderer, register_renderer


def _scores(output, digits):
    m = output.report.micro
    return f"tsv\\tmicro\\t{m.precision:.{digits}f}\\t{m.recall:.{digits}f}\\t{m.fbeta:.{digits}f}"


RENDERER = register_renderer(Renderer("tsv", "one tab-separated line", {"scores": _scores}))
'''


@pytest.fixture
def clean_registry(monkeypatch):
    monkeypatch.setattr(registry, "_REGISTRY", dict(registry._REGISTRY))
    monkeypatch.setattr(registry, "_PLUGINS_LOADED", [False])
    yield
    sys.modules.pop("nerscore_tsv_plugin", None)


def _plugin(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "nerscore_tsv_plugin.py").write_text(PLUGIN, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))


def test_built_in_formats_and_kinds():
    assert registry.renderer_names() == ("text", "json", "markdown", "html", "seqeval",
                                         "conlleval")
    assert registry.renderer_names("diagnostics") == ("text", "json", "markdown")
    assert registry.get_renderer("html").extras == frozenset({"confusion"})


def test_unknown_format_suggests_the_close_match():
    with pytest.raises(OptionError, match="Did you mean 'markdown'"):
        registry.get_renderer("markdwn")


def test_a_new_renderer_is_one_module_registered_by_a_call(capsys, tmp_path, monkeypatch,
                                                           clean_registry):
    _plugin(tmp_path, monkeypatch)
    import nerscore_tsv_plugin  # noqa: F401 - registers "tsv"

    report = nerscore.evaluate([["B-PER", "O"]], [["B-PER", "O"]])
    assert nerscore.render_result(report, format="tsv") == "tsv\tmicro\t1.00\t1.00\t1.00"
    assert main(["score", GOLD, PRED, "--format", "tsv", "--digits", "3"]) == 0
    assert capsys.readouterr().out == "tsv\tmicro\t0.688\t0.808\t0.743\n"


def test_a_new_renderer_from_an_entry_point(capsys, tmp_path, monkeypatch, clean_registry):
    _plugin(tmp_path, monkeypatch)

    class EntryPoint:
        name, value = "tsv", "nerscore_tsv_plugin"

    def entry_points(group: str) -> list[EntryPoint]:
        return [EntryPoint()] if group == registry.ENTRY_POINT_GROUP else []

    monkeypatch.setattr("importlib.metadata.entry_points", entry_points)
    assert main(["score", GOLD, PRED, "--format", "tsv"]) == 0
    assert capsys.readouterr().out.startswith("tsv\tmicro\t0.69\t")
    # a format that cannot show an extra says which formats can
    assert main(["score", GOLD, PRED, "--format", "tsv", "--confusion"]) == 2
    assert ("--confusion works with --format text, json, markdown, html, seqeval or conlleval, "
            "not tsv") in capsys.readouterr().err


def test_every_command_format_goes_through_the_registry(capsys):
    assert main(["score", GOLD, PRED, "--format", "nope"]) == 2
    assert "--format: Unknown output format 'nope'" in capsys.readouterr().err
    assert main(["compare", GOLD, PRED, PRED, "--names", "a", "b", "--format", "html",
                 "--resamples", "10"]) == 2
    assert "does not render a comparison" in capsys.readouterr().err


def test_score_output_is_the_report_and_its_extras():
    report = nerscore.evaluate([["B-PER", "O"]], [["B-LOC", "O"]], zero_division=0)
    cm = nerscore.confusion_from_report(report)
    out = nerscore.ScoreOutput(report, confusion=cm)
    data = json.loads(nerscore.render_result(out, format="json"))
    assert data["confusion"] == cm.to_dict()
    text = nerscore.render_result(out, format="text")
    assert text.startswith(nerscore.render_text(report))
    assert "confusion matrix (rows: gold, columns: predicted)" in text
    with pytest.raises(OptionError, match="does not show the breakdown"):
        nerscore.render_result(nerscore.ScoreOutput(report, breakdown=nerscore.breakdown_from_report(
            report, by="length")), format="seqeval")
