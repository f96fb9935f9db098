"""Collection set-up for the whole repository: optional back-ends are skipped when absent."""

from __future__ import annotations

import importlib.util

collect_ignore_glob: list[str] = []
if importlib.util.find_spec("torch") is None:
    collect_ignore_glob += ["src/nerscore/torch/*", "tests/torch/*"]
elif importlib.util.find_spec("torchmetrics") is None:
    collect_ignore_glob += ["src/nerscore/torch/metric.py"]
