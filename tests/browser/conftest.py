"""A headless Chromium for the browser tests: Debian's ``chromium`` driven by Playwright.

The browser comes from the system package (installed here with apt-get when it is missing and
we are root, as in CI); Playwright only drives it (``executable_path``), so nothing is ever
downloaded by ``playwright install``. Where Chromium cannot be had, the tests skip and say why.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

ARTIFACTS = Path(__file__).parent / "artifacts"


def _install_chromium() -> str | None:
    """Install Debian's chromium package; the reason it failed, or None."""
    if shutil.which("apt-get") is None:
        return "Chromium is not installed and there is no apt-get to install it"
    if hasattr(os, "geteuid") and os.geteuid() != 0:
        return "Chromium is not installed (apt-get install -y chromium needs root)"
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    for cmd in (["apt-get", "update", "-q"], ["apt-get", "install", "-y", "-q", "chromium"]):
        try:
            proc = subprocess.run(cmd, capture_output=True, text=True, timeout=900, env=env,
                                  check=False)
        except (OSError, subprocess.TimeoutExpired) as exc:
            return f"{' '.join(cmd)} failed: {exc}"
        if proc.returncode != 0:
            tail = (proc.stderr or proc.stdout).strip().splitlines()[-1:]
            return f"{' '.join(cmd)} failed: {' '.join(tail)}"
    return None


@contextlib.contextmanager
def _one_installer() -> Iterator[None]:
    """Hold a machine-wide lock: parallel test workers install the package one at a time."""
    with open(Path(tempfile.gettempdir()) / "nerscore-chromium.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


@pytest.fixture(scope="session")
def chromium_path() -> str:
    path = shutil.which("chromium") or shutil.which("chromium-browser")
    if path is None:
        with _one_installer():
            path = shutil.which("chromium")
            why = _install_chromium() if path is None else None
            path = shutil.which("chromium")
        if path is None:
            pytest.skip(why or "Chromium could not be installed")
    return path


@pytest.fixture(scope="session")
def browser(chromium_path):
    sync_api = pytest.importorskip(
        "playwright.sync_api", reason="playwright (test dependency group) is not installed")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=chromium_path, args=["--no-sandbox"])
        yield b
        b.close()


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    pg = context.new_page()
    problems: list[str] = []
    pg.on("pageerror", lambda exc: problems.append(str(exc)))
    pg.on("requestfailed", lambda req: problems.append(f"request {req.url}"))
    pg.problems = problems
    yield pg
    context.close()
    assert problems == [], problems


@pytest.fixture(scope="session")
def artifacts() -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS
