"""The defaults of :func:`nerscore.convert_file` that ``nerscore convert --help`` shows.

A module of its own, importing nothing, so that the command line can show
them without importing the conversion (and NumPy) to build its parser.
"""

from __future__ import annotations

__all__ = ["CHUNK_SIZE"]

#: Sentences or documents a conversion reads, converts and writes at a time.
CHUNK_SIZE = 10_000
