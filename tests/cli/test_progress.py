"""The progress bar: drawn on a terminal only, after about a second, with sizes as people read them."""

from __future__ import annotations

import io

from nerscore.cli._progress import ProgressBar, render_progress


def test_render_progress():
    assert render_progress(0, 0, label="x", width=4) == "x [....]   0% 0 / 0"
    assert render_progress(3, 4, unit="resamples", width=4) == "[###.]  75% 3 / 4 resamples"
    assert render_progress(5_000_000, 10_000_000, unit="bytes", width=2) == (
        "[#.]  50% 5.0 MB / 10.0 MB")


class _Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_bar_draws_only_on_a_terminal():
    tty = _Tty()
    bar = ProgressBar("reading", unit="bytes", stream=tty, delay=0, interval=0)
    bar(50, 100)
    bar(100, 100)
    bar.close()
    text = tty.getvalue()
    assert text.startswith("\rreading [")
    assert "100%" in text
    assert text.endswith("\r")
    pipe = io.StringIO()
    bar = ProgressBar("reading", stream=pipe, delay=0, interval=0)
    assert not bar.enabled
    bar(50, 100)
    bar.close()
    assert pipe.getvalue() == ""


def test_progress_bar_waits_about_a_second():
    tty = _Tty()
    bar = ProgressBar("reading", stream=tty)  # default delay: short work shows nothing
    bar(1, 2)
    bar.close()
    assert tty.getvalue() == ""
