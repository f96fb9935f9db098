"""Collection set-up for the whole repository: optional back-ends are skipped when absent."""

from __future__ import annotations

import importlib.util

collect_ignore_glob: list[str] = []
if importlib.util.find_spec("torch") is None:
    collect_ignore_glob += ["src/nerscore/torch/*", "tests/torch/*"]
elif importlib.util.find_spec("torchmetrics") is None:
    collect_ignore_glob += ["src/nerscore/torch/metric.py"]
if importlib.util.find_spec("spacy") is None:  # their examples read and write DocBin files
    collect_ignore_glob += ["src/nerscore/io/docbin.py", "docs/formats/spacy.md"]
if importlib.util.find_spec("pyarrow") is None:  # their examples build Arrow tables
    collect_ignore_glob += ["src/nerscore/io/hf_datasets.py", "src/nerscore/io/parquet.py",
                            "docs/formats/hf.md"]
