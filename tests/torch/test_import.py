"""Optional dependencies: clear install hints, and nothing imported that is not needed."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _run(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], cwd=ROOT,
                          capture_output=True, text=True, timeout=120, check=False)


def test_missing_torch_gives_the_install_hint():
    proc = _run("""
        import sys
        sys.modules["torch"] = None
        try:
            import nerscore.torch
        except ImportError as exc:
            print(exc)
    """)
    assert proc.returncode == 0, proc.stderr
    assert "pip install 'nerscore[torch]'" in proc.stdout


def test_missing_torchmetrics_gives_the_install_hint():
    proc = _run("""
        import sys
        sys.modules["torchmetrics"] = None
        import nerscore.torch
        print(nerscore.torch.count_entities.__name__)
        try:
            nerscore.torch.EntityMetric
        except ImportError as exc:
            print(exc)
    """)
    assert proc.returncode == 0, proc.stderr
    assert "count_entities" in proc.stdout
    assert "pip install 'nerscore[torchmetrics]'" in proc.stdout


def test_nerscore_and_hf_import_neither_torch_nor_transformers():
    proc = _run("""
        import sys
        import nerscore, nerscore.hf
        nerscore.f1_score([["B-PER"]], [["B-PER"]])
        print(sorted(m for m in ("torch", "transformers", "torchmetrics") if m in sys.modules))
    """)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "[]"
