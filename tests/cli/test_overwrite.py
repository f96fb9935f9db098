"""No command writes over its own input, and every written file appears whole or not at all."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

import nerscore
from nerscore.cli import main
from nerscore.io.atomic import same_file
from tests.paths import ROOT

EXAMPLE = ROOT / "examples" / "conll2000"


@pytest.fixture
def files(tmp_path: Path) -> dict[str, Path]:
    out = {}
    for name in ("gold.conll", "pred.conll", "pred_discard.conll", "merged.txt"):
        shutil.copy(EXAMPLE / name, tmp_path / name)
        out[name.split(".")[0]] = tmp_path / name
    (tmp_path / "gold.jsonl").write_text(
        '{"id": "a", "text": "Anna flew", "spans": [[0, 4, "PER"]]}\n', encoding="utf-8")
    (tmp_path / "pred.jsonl").write_text(
        '{"id": "a", "text": "Anna flew", "spans": [[5, 9, "PER"]]}\n', encoding="utf-8")
    out["gold_jsonl"], out["pred_jsonl"] = tmp_path / "gold.jsonl", tmp_path / "pred.jsonl"
    (tmp_path / "llm.jsonl").write_text(
        '{"id": "a", "mentions": [{"text": "Anna", "label": "person"}]}\n', encoding="utf-8")
    (tmp_path / "map.json").write_text('{"PER": "X"}', encoding="utf-8")
    (tmp_path / "alias.jsonl").write_text('{"PER": ["person"]}', encoding="utf-8")
    for name in ("llm.jsonl", "map.json", "alias.jsonl"):
        out[name.replace(".", "_")] = tmp_path / name
    return out


def _spellings(path: Path) -> dict[str, str]:
    """The same file named four ways: as is, with ./ segments, a symlink, a hard link."""
    folder = path.parent
    (folder / "sym.link").symlink_to(path)
    os.link(path, folder / "hard.link")
    return {"plain": str(path), "dotted": str(folder / "." / "sub" / ".." / path.name),
            "symlink": str(folder / "sym.link"), "hardlink": str(folder / "hard.link")}


# Each command line names the file it must not overwrite as {victim}.
COMMANDS = {
    "score -o gold": (["score", "{gold}", "{pred}", "-o", "{victim}"], "gold"),
    "score -o pred": (["score", "{gold}", "{pred}", "--output", "{victim}"], "pred"),
    "score --errors gold": (["score", "{gold_jsonl}", "{pred_jsonl}", "--errors", "{victim}"],
                            "gold_jsonl"),
    "repair -o file": (["repair", "{pred}", "--scheme", "IOB2", "-o", "{victim}"], "pred"),
    "validate --output file": (["validate", "{gold}", "{pred}", "--scheme", "IOB2", "--output",
                                "{victim}"], "pred"),
    "convert": (["convert", "{gold}", "{victim}"], "gold"),
    "conlleval --output file": (["conlleval", "{merged}", "--output", "{victim}"], "merged"),
    "report -o pred": (["report", "{gold}", "{pred}", "{pred_discard}", "-o", "{victim}"],
                       "pred_discard"),
    "compare --output pred": (["compare", "{gold}", "{pred}", "{pred_discard}", "--output",
                               "{victim}", "--resamples", "10"], "pred"),
    "diagnose -o train": (["diagnose", "--train", "{pred}", "--test", "{gold}", "-o",
                           "{victim}"], "pred"),
    "score -o --map-file": (["score", "{gold_jsonl}", "{pred_jsonl}", "--map-file", "{map_json}",
                             "-o", "{victim}"], "map_json"),
    "convert --map-file": (["convert", "{gold_jsonl}", "{victim}", "--map-file", "{map_json}"],
                           "map_json"),
    "score --errors --label-alias": (["score", "{gold_jsonl}", "{llm_jsonl}", "--label-alias",
                                      "{alias_jsonl}", "--errors", "{victim}"], "alias_jsonl"),
}


@pytest.mark.parametrize("spelling", ["plain", "dotted", "symlink", "hardlink"])
@pytest.mark.parametrize("case", sorted(COMMANDS))
def test_no_command_writes_over_its_input(capsys, files, case, spelling):
    argv, victim_key = COMMANDS[case]
    victim = files[victim_key]
    (victim.parent / "sub").mkdir()
    before = victim.read_bytes()
    names = {k: str(v) for k, v in files.items()} | {"victim": _spellings(victim)[spelling]}
    status = main([a.format(**names) for a in argv])
    err = capsys.readouterr().err
    assert status == 2, err
    assert "writing there would destroy it; give another file name" in err
    assert "Traceback" not in err
    assert victim.read_bytes() == before


def test_two_outputs_of_one_command_cannot_be_one_file(capsys, files, tmp_path):
    target = str(tmp_path / "out.jsonl")
    status = main(["score", str(files["gold_jsonl"]), str(files["pred_jsonl"]), "--output",
                   target, "--errors", target])
    err = capsys.readouterr().err
    assert status == 2
    assert "are the same file" in err
    assert not Path(target).exists()


def test_standard_streams_and_other_names_still_work(capsys, files, tmp_path):
    assert main(["score", str(files["gold"]), str(files["pred"]), "-o", "-"]) == 0
    assert "micro avg" in capsys.readouterr().out
    assert main(["score", str(files["gold"]), str(files["pred"]), "-o", os.devnull]) == 0
    assert os.path.exists(os.devnull)
    assert not os.path.isfile(os.devnull)
    out = tmp_path / "report.txt"
    assert main(["score", str(files["gold"]), str(files["pred"]), "-o", str(out)]) == 0
    assert "micro avg" in out.read_text(encoding="utf-8")


@pytest.mark.parametrize("argv", [
    ["score", "{gold}", "{pred}", "-o", "{out}"],
    ["repair", "{pred}", "--scheme", "IOB2", "-o", "{out}"],
    ["convert", "{gold}", "{out}"],
    ["conlleval", "{merged}", "--output", "{out}"],
    ["report", "{gold}", "{pred}", "-o", "{out}"],
    ["score", "{gold_jsonl}", "{pred_jsonl}", "--errors", "{out_jsonl}"],
])
def test_an_interrupted_write_leaves_the_old_file(capsys, files, tmp_path, monkeypatch, argv):
    out = tmp_path / "keep.conll"
    out.write_text("old content\n", encoding="utf-8")
    out.chmod(0o640)
    out_jsonl = tmp_path / "keep.jsonl"
    out_jsonl.write_text("old content\n", encoding="utf-8")
    names = {k: str(v) for k, v in files.items()} | {"out": str(out),
                                                      "out_jsonl": str(out_jsonl)}

    def interrupted(src: str, dst: str) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "replace", interrupted)
    status = main([a.format(**names) for a in argv])
    capsys.readouterr()
    assert status == 130
    assert out.read_text(encoding="utf-8") == "old content\n"
    assert out_jsonl.read_text(encoding="utf-8") == "old content\n"
    leftovers = [p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")]
    assert leftovers == []
    monkeypatch.undo()
    assert main([a.format(**names) for a in argv]) == 0
    capsys.readouterr()
    written = out_jsonl if "--errors" in argv else out
    assert written.read_text(encoding="utf-8") != "old content\n"
    assert (written.stat().st_mode & 0o777) == (0o640 if written is out else 0o644 & ~_umask())


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def test_convert_file_refuses_its_source_by_any_spelling(files):
    link = files["gold"].parent / "g.link"
    link.symlink_to(files["gold"])
    with pytest.raises(ValueError, match="would be overwritten"):
        nerscore.convert_file(files["gold"], link)
    assert files["gold"].read_bytes() == (EXAMPLE / "gold.conll").read_bytes()


def test_same_file_of_paths_that_do_not_exist(tmp_path):
    assert same_file(tmp_path / "a" / ".." / "x", tmp_path / "x")
    assert not same_file(tmp_path / "x", tmp_path / "y")


# Each command line writes its result to {out}.
WRITERS = {
    "score -o": ["score", "{gold}", "{pred}", "-o", "{out}"],
    "score --errors": ["score", "{gold}", "{pred}", "--errors", "{out}"],
    "score --errors, in memory": ["score", "{gold}", "{pred}", "--errors", "{out}",
                                  "--match", "overlap"],
    "report -o": ["report", "{gold}", "{pred}", "-o", "{out}"],
    "convert": ["convert", "{gold}", "{out}", "--to-format", "conll"],
    "conlleval --output": ["conlleval", "{merged}", "--output", "{out}"],
    "repair -o": ["repair", "{pred}", "--scheme", "IOB2", "-o", "{out}"],
}


@pytest.mark.parametrize("case", sorted(WRITERS))
def test_an_output_that_is_a_folder_is_named_as_given(capsys, files, tmp_path, case):
    folder = tmp_path / ("errors.jsonl" if "--errors" in WRITERS[case] else "results")
    folder.mkdir()
    before = sorted(p.name for p in tmp_path.iterdir())
    names = {k: str(v) for k, v in files.items()} | {"out": str(folder)}
    status = main([a.format(**names) for a in WRITERS[case]])
    err = capsys.readouterr().err
    assert status == 1, err
    assert f"'{folder}': Is a directory; give the name of a file" in err
    assert ".tmp" not in err
    assert sorted(p.name for p in tmp_path.iterdir()) == before
    assert list(folder.iterdir()) == []


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
@pytest.mark.parametrize("case", sorted(WRITERS))
def test_a_full_device_is_named_with_its_flag(capsys, files, tmp_path, case):
    out = "/dev/full"
    if "--errors" in WRITERS[case]:  # the suffix says the format of the error file
        out = str(tmp_path / "full.jsonl")
        os.symlink("/dev/full", out)
    names = {k: str(v) for k, v in files.items()} | {"out": out}
    status = main([a.format(**names) for a in WRITERS[case]])
    err = capsys.readouterr().err
    assert status == 1, err
    flag = "--errors" if "--errors" in WRITERS[case] else "OUT" if case == "convert" else "--output"
    assert f"cannot write {flag} '{out}': No space left on device." in err
    assert "Errno" not in err


def _brat(folder: Path) -> Path:
    folder.mkdir()
    (folder / "d.txt").write_text("Anna flew\n", encoding="utf-8")
    (folder / "d.ann").write_text("T1\tPER 0 4\tAnna\n", encoding="utf-8")
    return folder


@pytest.mark.parametrize("where", ["out", "out/deeper", "."])
def test_convert_refuses_an_output_inside_its_input_folder(capsys, tmp_path, where):
    ann = _brat(tmp_path / "ann")
    before = sorted(p.name for p in ann.rglob("*"))
    out = str(ann / where)
    status = main(["convert", str(ann), out, "--to-format", "brat"])
    err = capsys.readouterr().err
    assert status == 2, err
    if where == ".":  # the input folder itself
        assert f"error: OUT {out} is the input {ann}: writing there would destroy it" in err
    else:
        assert (f"error: OUT {out} is inside the input folder {ann}: the next read of {ann} "
                "would pick up what is written there; give a path outside it") in err
    assert sorted(p.name for p in ann.rglob("*")) == before


def test_convert_refuses_an_output_folder_holding_its_input(capsys, tmp_path):
    top = tmp_path / "top"
    top.mkdir()
    ann = _brat(top / "ann")
    for src in (ann, ann / "d.ann"):
        status = main(["convert", str(src), str(top), "--to-format", "brat"])
        err = capsys.readouterr().err
        assert status == 2, err
        assert (f"error: OUT {top} is a folder holding the input {src}: writing there would mix "
                "the output with it; give a path that does not hold it") in err
    assert sorted(p.name for p in top.rglob("*")) == ["ann", "d.ann", "d.txt"]
    assert main(["convert", str(ann), str(tmp_path / "annex"), "--to-format", "brat"]) == 0


def test_adjudicate_refuses_an_output_inside_an_annotators_folder(capsys, tmp_path):
    a, b = _brat(tmp_path / "a"), _brat(tmp_path / "b")
    status = main(["adjudicate", str(a), str(b), "-o", str(b / "gold"), "--output-format",
                   "brat"])
    assert status == 2
    assert f"error: --output {b / 'gold'} is inside the input folder {b}" in (
        capsys.readouterr().err)


def test_convert_file_refuses_an_output_inside_its_input_folder_and_the_reverse(tmp_path):
    ann = _brat(tmp_path / "ann")
    with pytest.raises(ValueError, match="is inside the input folder"):
        nerscore.convert_file(ann, ann / "out", to_format="brat")
    with pytest.raises(ValueError, match="is a folder holding the input"):
        nerscore.convert_file(ann, tmp_path, to_format="brat")
    assert not (ann / "out").exists()
