"""The HTML report's Curves section in Chromium: three inline SVG pictures, nothing fetched."""

from __future__ import annotations

import json
import os
import random
import shutil

from nerscore.cli import main
from tests.paths import ROOT


def _scored(n_docs: int = 60, seed: int = 0):
    rng = random.Random(seed)
    gold, pred = [], []
    for d in range(n_docs):
        g, p = [], []
        for k in range(8):
            s, e = 20 * k, 20 * k + rng.randint(3, 12)
            lab = rng.choice(("PER", "LOC", "ORG"))
            g.append([s, e, lab])
            r = rng.random()
            if r < 0.7:
                p.append([s, e, lab, round(min(1.0, rng.betavariate(5, 2)), 4)])
            elif r < 0.85:
                p.append([s + 1, e, lab, round(rng.betavariate(2, 4), 4)])
        p.append([170, 175, "LOC", round(rng.betavariate(2, 5), 4)])
        gold.append({"id": f"d{d}", "spans": g})
        pred.append({"id": f"d{d}", "spans": p})
    return gold, pred


def test_report_of_scored_predictions_draws_the_three_pictures(page, tmp_path, artifacts):
    gold, pred = _scored()
    paths = []
    for name, docs in (("gold", gold), ("pred", pred)):
        path = tmp_path / f"{name}.jsonl"
        path.write_text("".join(json.dumps(x) + "\n" for x in docs), encoding="utf-8")
        paths.append(str(path))
    out = tmp_path / "curves.html"
    assert main(["report", *paths, "-o", str(out), "--zero-division", "0"]) == 0
    page.goto(out.as_uri())
    page.wait_for_selector("body[data-ready='1']")
    section = page.locator("#curves")
    assert section.is_visible()
    svgs = section.locator("svg")
    assert svgs.count() == 3
    for k in range(3):
        box = svgs.nth(k).bounding_box()
        assert box is not None
        assert box["width"] > 300
        assert box["height"] > 200
    titles = [svgs.nth(k).get_attribute("aria-label") for k in range(3)]
    assert titles == ["Precision–recall", "F1 against threshold", "Reliability"]
    assert section.locator("polyline").count() == 8  # micro and three labels, twice
    assert "Operating point (circled): best F1 at threshold" in section.inner_text()
    page.click("nav a[href='#curves']")
    shot = artifacts / "curves.png"
    section.screenshot(path=str(shot))
    assert shot.stat().st_size > 10_000
    if os.environ.get("NERSCORE_UPDATE_SCREENSHOT") == "1":
        shutil.copyfile(shot, ROOT / "docs" / "images" / "curves.png")
