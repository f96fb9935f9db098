"""The shape of the package: stage folders, no import cycle, the docs and the contract agree."""

from __future__ import annotations

import ast
import re
import subprocess
import sys
import warnings

import pytest

import nerscore
from nerscore import _moved
from tests.paths import ROOT

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib

PACKAGE = ROOT / "src" / "nerscore"
#: The one declared upward import (Report.__str__ shows the text table).
DECLARED = {("nerscore.scoring.report", "nerscore.render.text")}


def test_at_most_18_top_level_entries():
    entries = sorted(p.name for p in PACKAGE.iterdir()
                     if p.name not in ("__init__.py", "__init__.pyi", "__main__.py", "py.typed",
                                       "__pycache__"))
    assert len(entries) <= 18, entries


def _module_name(path) -> str:
    rel = path.relative_to(PACKAGE.parent).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _imports() -> dict[str, set[str]]:
    """Module -> the nerscore modules it imports (at any level, type-checking blocks excluded)."""
    modules = {_module_name(p): p for p in PACKAGE.rglob("*.py")}
    graph: dict[str, set[str]] = {m: set() for m in modules}
    for name, path in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        skip = {id(n) for node in ast.walk(tree) if isinstance(node, ast.If)
                and "TYPE_CHECKING" in ast.unparse(node.test) for n in ast.walk(node)}
        for node in ast.walk(tree):
            if id(node) in skip:
                continue
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                targets = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
            for t in targets:
                if t in modules and t != name:
                    graph[name].add(t)
    return graph


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))
    for v in graph:
        if v not in index:
            visit(v)
    return out


def test_no_import_cycle_but_the_declared_hook():
    graph = _imports()
    for a, b in DECLARED:
        graph[a].discard(b)
    # a package's __init__ importing its own submodules is not a cycle of stages
    for m in graph:
        graph[m] = {t for t in graph[m] if not t.startswith(m + ".")}
    assert _cycles(graph) == []


def test_the_cycle_finder_finds_cycles():
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def _contract_layers() -> list[list[str]]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    layers = config["tool"]["importlinter"]["contracts"][0]["layers"]
    return [[m.strip() for m in re.split(r"[|:]", layer)] for layer in layers]


def _documented_layers() -> list[list[str]]:
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    rows = [line for line in text.splitlines() if line.startswith("| `nerscore")]
    return [re.findall(r"`(nerscore[\w.]*)`", row.split("|")[1]) for row in rows]


def test_architecture_page_and_layer_contract_agree():
    assert _documented_layers() == _contract_layers()


def test_every_stage_folder_is_a_layer():
    layered = {m for layer in _contract_layers() for m in layer}
    top = {f"nerscore.{p.stem}" for p in PACKAGE.iterdir()
           if (p.is_dir() and (p / "__init__.py").exists()) or (p.suffix == ".py"
                                                                  and p.stem != "__init__"
                                                                  and p.stem != "__main__")}
    assert top == layered


@pytest.mark.parametrize("old", sorted(_moved.MOVED))
def test_old_module_paths_still_work_with_a_deprecation_warning(old):
    code = (f"import warnings; warnings.simplefilter('error');\n"
            f"try:\n    import {old}\nexcept DeprecationWarning as w:\n    print('warned:', w)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    first = min((m for m in _moved.MOVED if old == m or old.startswith(m + ".")), key=len)
    assert out.startswith(f"warned: {first} has moved to {_moved.MOVED[first][0]}")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        module = __import__(old, fromlist=["_"])
        public = [n for n in dir(module) if not n.startswith("_")]
        assert public
        for target in _moved.MOVED[old]:
            new = __import__(target, fromlist=["_"])
            for name in getattr(new, "__all__", ()):
                assert getattr(module, name) is getattr(new, name)


def test_old_names_of_the_analysis_module_still_work():
    with pytest.warns(DeprecationWarning, match="moved to nerscore.analysis.errors"):
        from nerscore.analysis import list_errors  # noqa: F401
    assert nerscore.list_errors is nerscore.analysis.errors.list_errors
