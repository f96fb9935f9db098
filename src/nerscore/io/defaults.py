"""Defaults of the chunked readers that the command line shows in its help.

A module of its own, importing nothing, so that ``nerscore convert --help``
and ``nerscore score --help`` can show them without importing the readers
(and NumPy) to build their parsers.
"""

from __future__ import annotations

__all__ = ["CHUNK_SIZE"]

#: Sentences or documents read (and scored or converted) at a time.
CHUNK_SIZE = 10_000
