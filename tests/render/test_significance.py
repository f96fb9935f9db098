"""How p-values and the Holm columns of a comparison are shown (nerscore.render.significance)."""

from __future__ import annotations

import dataclasses

import pytest

from nerscore.analysis.significance import compare
from nerscore.render.significance import format_p_value, render_comparison


@pytest.mark.parametrize(("p", "r", "digits", "shown"), [
    (1 / 1000, 999, 3, "< 0.001"),      # the floor of R = 999
    (1 / 1001, 1000, 3, "< 0.001"),     # 0.000999: never printed as 0.001
    (1 / 201, 200, 3, "< 0.005"),       # the floor, rounded up
    (1 / 201, 200, 4, "< 0.0050"),
    (2 / 201, 200, 3, "0.010"),
    (5 / 10001, 10000, 3, "< 0.001"),   # below the last decimal, not the floor
    (10 / 10001, 10000, 4, "0.0010"),
    (11 / 10001, 10000, 3, "0.001"),
    (1.0, 99, 2, "1.000"),              # at least three decimals
    (None, 99, 3, "-"),
])
def test_format_p_value(p, r, digits, shown):
    assert format_p_value(p, r, digits=digits) == shown


def test_floor_and_holm_columns_in_text_and_markdown():
    gold = [["B-PER", "O"], ["B-LOC", "O"], ["B-ORG", "I-ORG"]] * 8
    poor = [["B-PER", "O"], ["O", "O"], ["O", "O"]] * 8
    res = compare(gold, {"gold": gold, "poor": poor, "copy": gold}, n_resamples=99,
                  unit="sentence", seed=0)
    text = render_comparison(res, digits=2).splitlines()
    header = next(line for line in text if line.startswith("a vs b"))
    assert header.split("  ")[-1].strip() == "Holm p (randomization)"
    row = next(line for line in text if line.startswith("gold vs poor"))
    assert "< 0.010" in row  # 1/(1+99), the floor of both tests
    assert text[-1] == "note: Holm–Bonferroni adjusted p-values over all 3 pairs of the 3 systems."
    md = render_comparison(res, format="markdown")
    assert "| p (paired bootstrap) | p (randomization) | Holm p (bootstrap) | Holm p " \
           "(randomization) |" in md
    # a test that was not run shows "-" and gets no Holm column
    boot = dataclasses.replace(res, pairs=tuple(
        dataclasses.replace(p, p_randomization=None, p_randomization_holm=None)
        for p in res.pairs))
    header = next(line for line in render_comparison(boot).splitlines()
                  if line.startswith("a vs b"))
    assert header.endswith("p (randomization)  Holm p (bootstrap)")
