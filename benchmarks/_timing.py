"""Small helpers shared by the benchmark scripts: timing, formatting, machine info."""

from __future__ import annotations

import gc
import importlib
import os
import platform
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


def timeit(
    fn: Callable[..., Any],
    make_args: Callable[[], tuple[Any, ...]],
    *,
    repeats: int,
    warmup: int = 1,
) -> list[float]:
    """Run ``fn(*make_args())`` ``warmup`` times untimed, then ``repeats`` timed runs.

    ``make_args`` is called outside the timed region before every run (e.g. to
    hand each run freshly built lists of strings).
    """
    for _ in range(warmup):
        fn(*make_args())
    times = []
    for _ in range(repeats):
        args = make_args()
        gc.collect()
        t0 = time.perf_counter()
        fn(*args)
        times.append(time.perf_counter() - t0)
        del args
    return times


@dataclass
class Task:
    """One thing to time: ``fn(*make_args())``, ``repeats`` times, after an optional warm-up."""

    fn: Callable[..., Any]
    make_args: Callable[[], tuple[Any, ...]]
    repeats: int
    warmup: bool = True


def interleaved(
    tasks: dict[str, Task], *, log: Callable[[str], None] | None = None
) -> dict[str, list[float]]:
    """Time several tasks round-robin, so that they share any drift in machine load.

    Round ``r`` runs, once each, the tasks that want more than ``r`` repeats;
    ``make_args`` is called outside the timed region before every run.
    """
    for name, task in tasks.items():
        if task.warmup:
            if log:
                log(f"  warm-up: {name}")
            task.fn(*task.make_args())
    times: dict[str, list[float]] = {name: [] for name in tasks}
    rounds = max((t.repeats for t in tasks.values()), default=0)
    for r in range(rounds):
        if log:
            log(f"  round {r + 1} of {rounds}")
        for name, task in tasks.items():
            if r >= task.repeats:
                continue
            args = task.make_args()
            gc.collect()
            t0 = time.perf_counter()
            task.fn(*args)
            times[name].append(time.perf_counter() - t0)
            del args
    return times


def median(times: list[float]) -> float:
    return statistics.median(times)


def fmt_time(seconds: float | None) -> str:
    if seconds is None:
        return "n/a"
    if seconds >= 1:
        return f"{seconds:.2f} s"
    if seconds >= 1e-3:
        return f"{seconds * 1e3:.1f} ms"
    return f"{seconds * 1e6:.0f} µs"


def fmt_rate(per_second: float | None, unit: str) -> str:
    if per_second is None:
        return "n/a"
    if per_second >= 1e6:
        return f"{per_second / 1e6:.1f} M {unit}/s"
    if per_second >= 1e3:
        return f"{per_second / 1e3:.1f} k {unit}/s"
    return f"{per_second:.0f} {unit}/s"


def optional(module: str) -> Any | None:
    """The module, or None when it does not exist (yet)."""
    try:
        return importlib.import_module(module)
    except ImportError:
        return None


def machine() -> str:
    """CPU model, core count, Python and NumPy versions, in one line."""
    import numpy as np

    model = platform.processor() or "unknown CPU"
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return (
        f"{model}, {cores} cores, Python {platform.python_version()}, NumPy {np.__version__}, "
        f"{platform.system()} {platform.machine()}"
    )


def table(header: list[str], rows: list[list[str]], align: str) -> str:
    """A Markdown table; ``align`` has one 'l' or 'r' per column."""
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]

    def line(cells: list[str]) -> str:
        out = [
            c.ljust(w) if a == "l" else c.rjust(w)
            for c, w, a in zip(cells, widths, align, strict=True)
        ]
        return "| " + " | ".join(out) + " |"

    sep = ["-" * (w - 1) + (":" if a == "r" else "-") for w, a in zip(widths, align, strict=True)]
    return "\n".join([line(header), line(sep), *(line(r) for r in rows)])
