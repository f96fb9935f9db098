"""Every public callable is documented in numpydoc style with runnable examples."""

import inspect
import re

import pytest

import nerscore

PUBLIC = [getattr(nerscore, name) for name in nerscore.__all__ if not name.startswith("_")]
FUNCTIONS = [obj for obj in PUBLIC if inspect.isfunction(obj)]


@pytest.mark.parametrize("obj", PUBLIC, ids=lambda o: getattr(o, "__name__", repr(o)))
def test_has_summary_line(obj):
    doc = inspect.getdoc(obj)
    assert doc, f"{obj} has no docstring"
    assert doc.splitlines()[0].strip().endswith("."), doc.splitlines()[0]


@pytest.mark.parametrize("func", FUNCTIONS, ids=lambda f: f.__name__)
def test_functions_have_examples_and_documented_parameters(func):
    doc = inspect.getdoc(func) or ""
    assert "Examples\n--------" in doc, f"{func.__name__} has no Examples section"
    params = [p for p in inspect.signature(func).parameters.values()
              if p.kind is not inspect.Parameter.VAR_KEYWORD]
    if "Parameters\n----------" not in doc:
        return  # documented by reference to a sibling (e.g. precision_score -> fbeta_score)
    body = doc.split("Parameters\n----------", 1)[1]
    body = re.split(r"\n\n[A-Z][a-z]+( [A-Z][a-z]+)?\n-+\n", body)[0]
    documented = set()
    for line in body.splitlines():
        if line and not line.startswith(" "):
            names = line.split(" : ")[0]
            documented.update(n.strip().lstrip("*") for n in names.split(","))
    missing = [p.name for p in params if p.name not in documented]
    assert not missing, f"{func.__name__}: undocumented parameters {missing}"


def test_namespace_is_complete_and_lazy():
    import subprocess
    import sys

    for name in nerscore.__all__:
        assert getattr(nerscore, name) is not None
    code = "import sys, nerscore; print(sorted(m for m in sys.modules if m.startswith('nerscore')))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "['nerscore', 'nerscore._moved', 'nerscore._version']"
    with pytest.raises(AttributeError, match="no attribute 'nope'"):
        nerscore.nope  # noqa: B018


def test_all_lists_exactly_the_exports():
    assert set(nerscore.__all__) == {*nerscore._EXPORTS, "__version__"}


def test_the_stub_is_the_one_list_of_public_names():
    """The run-time reader of ``__init__.pyi`` agrees with Python's own parser of it."""
    import ast
    from pathlib import Path

    stub = Path(nerscore.__file__).with_suffix(".pyi")
    tree = ast.parse(stub.read_text(encoding="utf-8"))
    expected = {a.asname or a.name: node.module for node in tree.body
                if isinstance(node, ast.ImportFrom) for a in node.names}
    assert expected == nerscore._EXPORTS
    assert all(a.asname == a.name for node in tree.body if isinstance(node, ast.ImportFrom)
               for a in node.names)  # `X as X`: re-exported for type checkers
    assert nerscore.__all__ == sorted(expected)
