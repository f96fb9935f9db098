"""The progress bar of long commands, drawn on standard error when it is a terminal.

Work that lasts over about a second shows one line, redrawn in place:
what is in progress, a bar, the share done and the counts (sizes in
bytes as :func:`size_text` writes them). Nothing is drawn when standard
error is not a terminal or ``--quiet`` is given. Standard library only.
"""

from __future__ import annotations

import sys
import time
from typing import TextIO

from nerscore.cli._output import is_quiet

__all__ = ["ProgressBar", "render_progress", "size_text"]


def size_text(n: float) -> str:
    """A size in bytes as people read it.

    Examples
    --------
    >>> size_text(512), size_text(45_310), size_text(2_000_000)
    ('512 B', '45.3 kB', '2.0 MB')
    """
    for unit in ("B", "kB", "MB", "GB"):
        if n < 1000 or unit == "GB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1000
    return f"{n:.1f} TB"  # pragma: no cover - the loop returns at GB


def render_progress(done: int, total: int, *, label: str = "", unit: str = "",
                    width: int = 24) -> str:
    """One line of a progress bar (without the carriage return that redraws it).

    Parameters
    ----------
    done, total : int
        Work done and all the work (``total <= 0``: unknown, shown as 0%).
    label : str
        What is in progress.
    unit : str
        ``"bytes"`` shows sizes (kB, MB, ...); anything else follows the counts.
    width : int
        Characters of the bar.

    Returns
    -------
    str

    Examples
    --------
    >>> render_progress(512_000, 2_048_000, label="reading", unit="bytes", width=8)
    'reading [##......]  25% 512.0 kB / 2.0 MB'
    >>> render_progress(1000, 1000, label="bootstrap", unit="resamples", width=4)
    'bootstrap [####] 100% 1000 / 1000 resamples'
    """
    frac = min(max(done / total, 0.0), 1.0) if total > 0 else 0.0
    filled = int(frac * width)
    bar = "#" * filled + "." * (width - filled)
    if unit == "bytes":
        count = f"{size_text(done)} / {size_text(total)}"
    else:
        count = f"{done} / {total}" + (f" {unit}" if unit else "")
    head = f"{label} " if label else ""
    return f"{head}[{bar}] {frac:4.0%} {count}"


class ProgressBar:
    """A progress bar on standard error, drawn only when it is a terminal.

    Call it as ``bar(done, total)``; it draws nothing during the first
    ``delay`` seconds (short work shows no bar), then redraws the line at most
    every ``interval`` seconds. :meth:`close` clears the line. Nothing is ever
    written when the stream is not a terminal or ``--quiet`` was given.

    Parameters
    ----------
    label : str
        What is in progress.
    unit : str
        As for :func:`render_progress`.
    stream : text file, optional
        Where to draw (default: ``sys.stderr``).
    delay, interval : float
        Seconds before the first drawing, and between drawings.

    Examples
    --------
    >>> import io
    >>> bar = ProgressBar("reading", stream=io.StringIO(), delay=0)
    >>> bar.enabled                      # a StringIO is not a terminal
    False
    >>> bar(5, 10); bar.close(); bar.stream.getvalue()
    ''
    """

    def __init__(self, label: str, *, unit: str = "", stream: TextIO | None = None,
                 delay: float = 1.0, interval: float = 0.1) -> None:
        self.label = label
        self.unit = unit
        self.stream = sys.stderr if stream is None else stream
        isatty = getattr(self.stream, "isatty", None)
        self.enabled = bool(isatty is not None and isatty()) and not is_quiet()
        self.delay = delay
        self.interval = interval
        self._start = time.monotonic()
        self._last = -float("inf")
        self._width = 0

    def __call__(self, done: int, total: int) -> None:
        if not self.enabled:
            return
        now = time.monotonic()
        if now - self._start < self.delay or (now - self._last < self.interval
                                               and done < total):
            return
        self._last = now
        line = render_progress(done, total, label=self.label, unit=self.unit)
        pad = " " * max(self._width - len(line), 0)
        self._width = len(line)
        self.stream.write("\r" + line + pad)
        self.stream.flush()

    def close(self) -> None:
        """Clear the bar's line (when one was drawn)."""
        if self._width:
            self.stream.write("\r" + " " * self._width + "\r")
            self.stream.flush()
            self._width = 0
