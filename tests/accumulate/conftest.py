"""Fixtures of the tests of scoring files."""

from __future__ import annotations

import pytest


@pytest.fixture
def whole_reads(monkeypatch):
    """The files read whole (``Format.load``) while it is in use."""
    from nerscore.io.formats import Format

    seen = []
    real = Format.load

    def load(self, path, options=None):
        seen.append(str(path))
        return real(self, path, options)

    monkeypatch.setattr(Format, "load", load)
    return seen
