"""The format registry (nerscore.io.formats): built-ins, guessing, errors, and a format added from outside."""

from __future__ import annotations

import importlib
import importlib.metadata
import json
import pickle
import sys
import textwrap

import pytest

import nerscore
from nerscore.cli import main
from nerscore.errors import OptionError
from nerscore.io import format_hooks, formats
from nerscore.io.formats import (
    Format,
    ReadResult,
    format_names,
    get_format,
    guess_format,
    register_format,
)
from nerscore.io.jsonl import read_jsonl, write_jsonl

BUILTINS = {
    "conll": ("tags", ".conll"),
    "jsonl": (None, ".jsonl"),  # span documents, or token records read as tags
    "brat": ("spans", ".ann"),
    "parquet": (None, ".parquet"),  # tags or spans, as the file says
    "label-studio": ("spans", None),  # named: .json is JSON Lines
    "doccano": ("spans", None),
    "prodigy": ("spans", None),
    "webanno": ("spans", None),
    "hf": ("tags", ".arrow"),
    "spacy": ("spans", ".spacy"),
}


@pytest.fixture
def registry(monkeypatch):
    """A registry of its own for one test: what it registers is gone afterwards."""
    formats.format_names()
    monkeypatch.setattr(formats, "_REGISTRY", dict(formats._REGISTRY))
    monkeypatch.setattr(formats, "_plugins_loaded", False)
    monkeypatch.setattr(importlib.metadata, "entry_points", lambda **_: [])
    return formats._REGISTRY


# ------------------------------------------------------------------------------ built-ins


def test_the_builtins_are_listed_with_kinds_and_suffixes(registry):
    assert format_names()[:len(BUILTINS)] == tuple(BUILTINS)
    for name, (kind, suffix) in BUILTINS.items():
        fmt = get_format(name)
        assert fmt.name == name
        assert suffix in fmt.suffixes if suffix else not fmt.suffixes
        assert fmt.kind == kind if kind is not None else callable(fmt.kind)
    assert get_format("jsonl").suffixes == (".jsonl", ".json", ".ndjson")
    assert get_format("parquet").suffixes == (".parquet", ".pq")
    assert get_format("brat").folder
    assert get_format("brat").chunks is None  # read whole
    assert get_format("conll").pair_check is not None


def test_every_hook_of_the_builtins_resolves(registry):
    for name in BUILTINS:
        fmt = get_format(name)
        for hook in (fmt.write_tags, fmt.write_spans, fmt.read_tag_chunks, fmt.relabel):
            if isinstance(hook, format_hooks._Lazy):
                assert callable(getattr(importlib.import_module(hook.module), hook.name))
        assert pickle.loads(pickle.dumps(fmt)).name == name  # sent to Dask workers


@pytest.mark.parametrize(("path", "name"), [
    ("gold.jsonl", "jsonl"), ("gold.JSON", "jsonl"), ("x.ndjson", "jsonl"),
    ("pred.parquet", "parquet"), ("pred.pq", "parquet"),
    ("doc.ann", "brat"), ("corpus/", "brat"),
    ("x.conll", "conll"), ("eng.testa", "conll"), ("train", "conll"), ("x.txt", "conll"),
])
def test_guessing_from_the_name(registry, path, name):
    assert guess_format(path).name == name


def test_guessing_folders(registry, tmp_path):
    assert guess_format(tmp_path).name == "brat"
    (tmp_path / "data.jsonl").mkdir()
    assert guess_format(tmp_path / "data.jsonl").name == "jsonl"  # the suffix wins
    assert guess_format(tmp_path, "conll").name == "conll"  # a given format wins


def test_a_conll_name_imports_no_other_format(registry, monkeypatch):
    import nerscore.io

    for name in ("jsonl", "brat", "parquet"):
        registry.pop(name, None)
        monkeypatch.delitem(sys.modules, f"nerscore.io.{name}", raising=False)
        monkeypatch.delattr(nerscore.io, name, raising=False)
    assert guess_format("gold.conll").name == "conll"
    assert not {"nerscore.io.jsonl", "nerscore.io.brat", "nerscore.io.parquet"} & set(sys.modules)
    assert guess_format("gold.jsonl").name == "jsonl"
    assert "nerscore.io.parquet" not in sys.modules


def test_an_unknown_name_is_an_error_with_a_suggestion(registry, capsys):
    with pytest.raises(OptionError, match=r"Unknown format 'jsnol'; the formats are 'conll', "
                                          r"'jsonl', 'brat', 'parquet', 'label-studio', "
                                          r"'doccano', 'prodigy', 'webanno', 'hf', 'spacy'\. Did you mean 'jsonl'\?"):
        get_format("jsnol")
    with pytest.raises(OptionError, match="Did you mean 'parquet'"):
        nerscore.score_files("g.x", "p.x", gold_format="PARQUET")
    assert main(["score", "g.conll", "p.conll", "--gold-format", "conl"]) == 2
    err = capsys.readouterr().err
    assert "argument --gold-format: Unknown format 'conl'" in err
    assert "Did you mean 'conll'?" in err
    assert main(["convert", "a.conll", "b.x", "--to-format", "brt"]) == 2
    assert "Did you mean 'brat'?" in capsys.readouterr().err


def test_reader_options_are_checked_against_the_format(registry, tmp_path):
    path = tmp_path / "g.jsonl"
    write_jsonl([nerscore.Document("a", [(0, 1, "X")], "x")], path)
    with pytest.raises(OptionError, match="'label_column' for jsonl files; they take 'encoding'"):
        nerscore.score_files(path, path, gold_options={"label_column": 2})


def test_registering_refuses_clashes(registry):
    jsonl = get_format("jsonl")
    assert register_format(jsonl) is jsonl  # the same record again: nothing happens
    with pytest.raises(OptionError, match="'jsonl' is already registered"):
        register_format(Format("jsonl", "another", kind="spans", read=jsonl.read))
    with pytest.raises(OptionError, match=r"claims \.ndjson, which format 'jsonl' claims"):
        register_format(Format("lines", "more lines", kind="spans", read=jsonl.read,
                               suffixes=(".ndjson",)))
    with pytest.raises(OptionError, match="kind"):
        Format("odd", "odd", kind="entities", read=jsonl.read)
    with pytest.raises(OptionError, match="lower-case file name endings"):
        Format("odd", "odd", kind="spans", read=jsonl.read, suffixes=("JSON",))
    with pytest.raises(OptionError, match="format name"):
        Format("My Format", "odd", kind="spans", read=jsonl.read)
    assert "lines" not in format_names()


# ---------------------------------------------------------------- a format from outside

PLUGIN = '''
"""A JSON array of documents: [{"id", "text", "spans": [{"start", "end", "label"}]}, ...]."""

import json

from nerscore import Document
from nerscore.io.formats import Format, ReadResult, register_format


def read(path, options):
    with open(path, encoding=options.get("encoding", "utf-8")) as fh:
        rows = json.load(fh)
    return ReadResult([Document(r["id"], [(s["start"], s["end"], s["label"])
                                          for s in r["spans"]], r.get("text")) for r in rows])


def write_spans(chunks, target, options):
    docs = [d.to_dict() for chunk in chunks for d in chunk]
    with open(target, "w", encoding=options.encoding) as fh:
        json.dump(docs, fh)
    return len(docs)


FORMAT = register_format(Format(
    "docs", "a JSON array of documents", kind="spans", read=read, suffixes=(".docs",),
    options=("encoding",), write_spans=write_spans,
))
'''


@pytest.fixture
def plugin(registry, tmp_path, monkeypatch):
    """The module of a format, written outside the package, importable; unloaded afterwards."""
    name = "nerscore_test_docs_format"
    (tmp_path / "plugin").mkdir()
    (tmp_path / "plugin" / f"{name}.py").write_text(textwrap.dedent(PLUGIN), encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path / "plugin"))
    yield name
    sys.modules.pop(name, None)


def _documents():
    gold = [nerscore.Document("a", [(0, 4, "PER"), (13, 19, "LOC")], "Anna flew to Berlin"),
            nerscore.Document("b", [(0, 4, "ORG")], "Acme hired Bo")]
    pred = [nerscore.Document("a", [(0, 4, "PER"), (13, 19, "ORG")], "Anna flew to Berlin"),
            nerscore.Document("b", [(0, 4, "ORG")], "Acme hired Bo")]
    return gold, pred


def _write_docs(path, docs):
    path.write_text(json.dumps([d.to_dict() for d in docs]), encoding="utf-8")
    return path


def _check_the_plugin_format_works(tmp_path, capsys):
    gold, pred = _documents()
    g, p = _write_docs(tmp_path / "g.docs", gold), _write_docs(tmp_path / "p.docs", pred)
    expected = nerscore.evaluate(gold, pred, zero_division=0)
    # the command line
    assert main(["score", str(g), str(p), "--format", "json", "--zero-division", "0"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["overall"]["f1"] == pytest.approx(expected.micro.f1)
    assert out["overall"]["f1"] == pytest.approx(2 / 3)
    # the library: read whole (the format has no chunked reader)
    res = nerscore.score_files(g, p, zero_division=0)
    assert res.report.to_dict()["labels"] == expected.to_dict()["labels"]
    assert (res.streamed, res.fallback) == (False, "docs files are read whole")
    # against JSON Lines: both hold spans
    write_jsonl(pred, tmp_path / "p.jsonl")
    mixed = nerscore.score_files(g, tmp_path / "p.jsonl", zero_division=0)
    assert mixed.report.micro.f1 == pytest.approx(2 / 3)
    # converting both ways
    conv = nerscore.convert_file(g, tmp_path / "g.jsonl")
    assert (conv.from_format, conv.to_format, conv.n_sequences) == ("docs", "jsonl", 2)
    assert read_jsonl(tmp_path / "g.jsonl") == gold
    nerscore.convert_file(tmp_path / "g.jsonl", tmp_path / "back.docs")
    assert json.loads((tmp_path / "back.docs").read_text()) == [d.to_dict() for d in gold]
    assert main(["convert", str(g), str(tmp_path / "g.conll"), "--to-scheme", "IOB2"]) == 0
    assert "wrote 2 sentences (docs to conll)" in capsys.readouterr().err


def test_a_format_registered_by_its_module(plugin, tmp_path, capsys):
    module = importlib.import_module(plugin)
    assert get_format("docs") is module.FORMAT
    assert format_names() == (*BUILTINS, "docs")
    assert guess_format("x.docs") is module.FORMAT
    _check_the_plugin_format_works(tmp_path, capsys)


def test_a_format_registered_by_an_entry_point(plugin, tmp_path, capsys, monkeypatch):
    point = importlib.metadata.EntryPoint(name="docs", value=f"{plugin}:FORMAT",
                                          group=formats.ENTRY_POINT_GROUP)
    seen = []

    def entry_points(*, group):
        seen.append(group)
        return [point] if group == formats.ENTRY_POINT_GROUP else []

    monkeypatch.setattr(importlib.metadata, "entry_points", entry_points)
    assert guess_format("gold.conll").name == "conll"
    assert guess_format("gold.jsonl").name == "jsonl"
    assert seen == []  # names the built-ins claim never read the entry points
    assert plugin not in sys.modules
    assert guess_format("x.docs").name == "docs"
    assert seen == [formats.ENTRY_POINT_GROUP]
    _check_the_plugin_format_works(tmp_path, capsys)
    gold, _ = _documents()
    named = _write_docs(tmp_path / "gold.json.txt", gold)  # named by --gold-format only
    assert main(["score", str(named), str(named), "--gold-format", "docs", "--pred-format",
                 "docs", "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["overall"]["f1"] == 1.0


def test_an_entry_point_that_registers_nothing_is_an_error(registry, monkeypatch):
    point = importlib.metadata.EntryPoint(name="nothing", value="json",
                                          group=formats.ENTRY_POINT_GROUP)
    monkeypatch.setattr(importlib.metadata, "entry_points",
                        lambda *, group: [point] if group == formats.ENTRY_POINT_GROUP else [])
    with pytest.raises(OptionError, match="registers no format named 'nothing'"):
        get_format("nothing")


def test_a_read_result_is_what_the_readers_give(registry, tmp_path):
    path = tmp_path / "g.conll"
    path.write_text("-DOCSTART- O\n\nAnn B-PER\n\nBo O\n", encoding="utf-8")
    res = get_format("conll").load(path)
    assert isinstance(res, ReadResult)
    assert res.data.to_lists() == [["B-PER"], ["O"]]
    assert list(res.texts()) == [["Ann"], ["Bo"]]
    assert res.documents == (0,)
    assert res.path == str(path)
    assert res.file_format is get_format("conll")
    assert res.notes == (f"{path}: 1 -DOCSTART- line read as document boundary",)
