"""The agreement page in a real browser: the disagreement browser's filters and pages."""

from __future__ import annotations

from pathlib import Path

import nerscore
from nerscore.render.html_agreement import render_agreement_html

DATA = Path(__file__).resolve().parents[1] / "data" / "agreement"


def test_disagreements_filter_and_page(page, tmp_path):
    sets = {n: nerscore.read_brat(DATA / "brat" / n) for n in ("ann1", "ann2", "ann3")}
    result = nerscore.agreement(sets, n_resamples=0)
    path = tmp_path / "agreement.html"
    path.write_text(render_agreement_html(result), encoding="utf-8")
    page.goto(path.as_uri())
    total = len(result.disagreements)
    assert page.inner_text("#dis-info").startswith(f"{total} disagreement(s); page 1 of ")
    assert page.locator("#dis-list > .dis").count() == min(50, total)
    labels = sum(d.kind == "label" for d in result.disagreements)
    page.select_option("#f-kind", "label")
    assert page.inner_text("#dis-info").startswith(f"{labels} disagreement(s)")
    first = next(d for d in result.disagreements if d.kind == "label")
    box = page.locator("#dis-list > .dis").first
    assert box.locator("mark").count() == sum(len(s) for s in first.spans.values())
    page.click("#p-next")
    assert "page 2 of" in page.inner_text("#dis-info")
