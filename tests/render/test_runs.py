"""The runs summary through the renderer registry: text, markdown and json."""

from __future__ import annotations

import dataclasses
import json

import pytest

import nerscore
from nerscore.cli import main
from nerscore.errors import OptionError
from nerscore.render.registry import get_renderer, render_result, renderer_names

GOLD = [["B-PER", "O", "B-LOC"], ["B-ORG", "O"]]
RUNS = [[["B-PER", "O", "B-LOC"], ["B-ORG", "O"]],
        [["B-PER", "O", "O"], ["B-ORG", "O"]],
        [["B-PER", "O", "B-LOC"], ["O", "O"]]]


@pytest.fixture
def summary():
    return nerscore.score_runs(GOLD, RUNS, zero_division=0)


def test_runs_is_a_renderer_kind(summary):
    assert renderer_names("runs") == ("text", "json", "markdown")
    assert json.loads(render_result(summary, format="json")) == summary.to_dict()
    text = render_result(summary, format="text", digits=3)
    assert text.splitlines()[0].startswith("3 runs against gold -- match=exact")
    micro = next(x for x in text.splitlines() if x.startswith("micro avg"))
    assert "0.867 ± 0.115" in micro
    md = render_result(summary, format="markdown").splitlines()
    assert md[2] == "| label | precision | recall | f1-score | f1 SE | f1 95% CI | runs |"
    assert md[3] == "|---|---:|---:|---:|---:|---:|---:|"
    assert md[-2:] == ["- 0 [2, 3) LOC: found by 2 of 3 runs",
                       "- 1 [0, 1) ORG: found by 2 of 3 runs"]
    with pytest.raises(OptionError, match=r"The seqeval format does not render a runs summary; "
                                          r"formats that do: text, json, markdown\."):
        get_renderer("seqeval", kind="runs")


def _files(tmp_path):
    def write(name, docs):
        path = tmp_path / name
        path.write_text("\n\n".join("\n".join(f"w {t}" for t in doc) for doc in docs) + "\n",
                        encoding="utf-8")
        return str(path)
    return write("gold.conll", GOLD), [write(f"run{k}.conll", r) for k, r in enumerate(RUNS)]


@pytest.mark.parametrize("fmt", ["text", "json", "markdown"])
def test_the_command_line_renders_every_format_of_the_registry(tmp_path, capsys, fmt, summary):
    gold, runs = _files(tmp_path)
    status = main(["score", gold, *runs, "--runs", "--zero-division", "0", "--format", fmt])
    out, err = capsys.readouterr()
    assert (status, err) == (0, "")
    expected = render_result(dataclasses.replace(summary, names=tuple(runs), source=gold),
                             format=fmt)
    if fmt == "json":
        assert json.loads(out) == json.loads(expected)
    else:
        assert out.rstrip("\n") == expected


def test_a_format_without_a_runs_renderer_is_a_usage_error(tmp_path, capsys):
    gold, runs = _files(tmp_path)
    assert main(["score", gold, *runs, "--runs", "--format", "seqeval"]) == 2
    assert "formats that do: text, json, markdown" in capsys.readouterr().err
