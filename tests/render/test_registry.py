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


def _plugin(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, suffixes: tuple[str, ...] = ()
            ) -> None:
    text = PLUGIN.replace('{"scores": _scores}', f'{{"scores": _scores}}, suffixes={suffixes!r}'
                          ) if suffixes else PLUGIN
    (tmp_path / "nerscore_tsv_plugin.py").write_text(text, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))


def _entry_point(monkeypatch: pytest.MonkeyPatch) -> None:
    """Installed as a package that names the plugin in the entry point group."""
    class EntryPoint:
        name, value = "tsv", "nerscore_tsv_plugin"

    def entry_points(group: str) -> list[EntryPoint]:
        return [EntryPoint()] if group == registry.ENTRY_POINT_GROUP else []

    monkeypatch.setattr("importlib.metadata.entry_points", entry_points)


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


def test_the_suffix_of_a_renderer_from_an_entry_point_chooses_it(capsys, tmp_path, monkeypatch,
                                                                   clean_registry):
    """As the suffixes of the built-in formats do (docs/reports.md), in every case of the rule."""
    _plugin(tmp_path, monkeypatch, suffixes=(".tsv",))
    _entry_point(monkeypatch)
    target = tmp_path / "s.TSV"
    assert main(["score", GOLD, PRED, "-o", str(target)]) == 0
    assert target.read_text(encoding="utf-8") == "tsv\tmicro\t0.69\t0.81\t0.74\n"
    capsys.readouterr()
    # --format and a suffix that names another format disagree, either way round
    target = tmp_path / "s.tsv"
    assert main(["score", GOLD, PRED, "--format", "json", "-o", str(target)]) == 2
    assert (f"error: --format json and --output {target} disagree: the suffix .tsv names the "
            "tsv format. Leave out --format to write tsv, or give --output a name that ends in "
            ".json.") in capsys.readouterr().err
    assert main(["score", GOLD, PRED, "--format", "tsv", "-o", str(tmp_path / "s.md")]) == 2
    assert ("Leave out --format to write markdown, or give --output a name that ends in .tsv."
            in capsys.readouterr().err)
    assert not target.exists()
    # a command that does not write it says so, and writes its default
    target = tmp_path / "c.tsv"
    assert main(["compare", GOLD, PRED, PRED.replace("pred", "pred_discard"), "--resamples",
                 "50", "--output", str(target)]) == 0
    assert (f"note: --output {target}: the suffix .tsv names tsv, which nerscore compare does "
            "not write, so the file holds text; --format chooses text, json or markdown"
            in capsys.readouterr().err)
    assert target.read_text(encoding="utf-8").startswith("exact matching, 40 sentences")
    assert main(["score", "--help"]) == 0
    assert ("the suffix of the output file names, .json, .md, .html or a plugin format's own"
            in " ".join(capsys.readouterr().out.split()))


def _scores(output: nerscore.ScoreOutput, digits: int) -> str:
    return f"{output.report.micro.fbeta:.{digits}f}"


def test_a_suffix_names_one_format(monkeypatch, clean_registry):
    monkeypatch.setattr("importlib.metadata.entry_points", lambda group: [])
    renderer = registry.Renderer("mine", "mine", {"scores": _scores}, suffixes=(".mine",))
    with pytest.raises(OptionError, match=r"^Renderer 'yours' claims \.json, which names the "
                                          r"json format already; choose other suffixes \(--format "
                                          r"yours writes it to a file of any name\)\.$"):
        registry.register_renderer(registry.Renderer("yours", "yours", {"scores": _scores},
                                                     suffixes=(".json",)))
    registry.register_renderer(renderer)
    with pytest.raises(OptionError, match=r"claims \.mine, which names the mine format already"):
        registry.register_renderer(registry.Renderer("yours", "yours", {"scores": _scores},
                                                     suffixes=(".yours", ".mine")))
    assert "yours" not in registry.renderer_names()
    # a renderer of the same name replaces it, suffixes and all
    registry.register_renderer(registry.Renderer("mine", "mine", {"scores": _scores},
                                                 suffixes=(".mn",)))
    formats = registry.suffix_formats()
    assert (formats[".mn"], formats[".json"], ".mine" in formats) == ("mine", "json", False)
    assert registry.suffix_format(".md") == "markdown"
    for bad in (("tsv",), (".TSV",), (".tsv.gz",), (".",), ".tsv"):
        with pytest.raises(OptionError, match=r"^Renderer 'bad': expected `suffixes` as a tuple "
                                              r"of lower-case file name suffixes"):
            registry.Renderer("bad", "bad", {"scores": _scores}, suffixes=bad)  # type: ignore[arg-type]


def test_plain_text_suffixes_name_no_format_and_load_no_plugin(capsys, tmp_path, monkeypatch,
                                                                clean_registry):
    """``-o scores.txt`` is the default format, without the cost of looking for plugins."""
    def no_lookup(group):
        raise AssertionError("entry points looked up")

    monkeypatch.setattr("importlib.metadata.entry_points", no_lookup)
    target = tmp_path / "s.TXT"
    assert main(["score", GOLD, PRED, "-o", str(target), "--format", "json"]) == 0
    assert target.read_text(encoding="utf-8").startswith("{")
    assert main(["score", GOLD, PRED, "-o", str(tmp_path / "s.log")]) == 0
    assert (tmp_path / "s.log").read_text(encoding="utf-8").startswith("nerscore ")
    assert registry.suffix_format(".text") is None
    with pytest.raises(OptionError, match=r"^Renderer 'mine' claims \.log, \.txt, which is "
                                          r"plain text and names no format; choose other "):
        registry.register_renderer(registry.Renderer("mine", "mine", {"scores": _scores},
                                                     suffixes=(".txt", ".log")))


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
