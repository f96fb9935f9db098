"""The habits CI checks: ruff, mypy --strict and the import-linter layer contracts.

These run the same commands as ``.pre-commit-config.yaml``; each fails with
the tool's own report.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent


def _run(tool: str, *args: str) -> None:
    exe = BIN / tool
    if not exe.exists():
        found = shutil.which(tool)
        if found is None:
            pytest.fail(f"{tool} is not installed; it is in the test dependency group")
        exe = Path(found)
    proc = subprocess.run([str(exe), *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=600, check=False)
    assert proc.returncode == 0, f"{tool} {' '.join(args)} failed:\n{proc.stdout}\n{proc.stderr}"


def test_ruff():
    _run("ruff", "check", "src", "tests", "benchmarks")


def test_mypy_strict():
    _run("mypy")


def test_import_layers():
    _run("lint-imports")


def test_modules_stay_small():
    big = {str(p.relative_to(ROOT)): n for p in (ROOT / "src").rglob("*.py")
           if (n := len(p.read_text(encoding="utf-8").splitlines())) > 600}
    assert big == {}, f"modules over 600 lines: {big}"
