"""Run the examples of the documentation pages from the repository root.

The pages read sample files by paths relative to the repository root
(``tests/data/...``), so every doctest collected from ``docs/`` starts there,
whatever directory pytest was started from.
"""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(autouse=True)
def _run_from_repository_root(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
