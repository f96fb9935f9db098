"""Agreement rendered as text, Markdown, JSON and HTML (exact strings for the text formats)."""

from __future__ import annotations

import json

import pytest

import nerscore
from nerscore.render.agreement import render_agreement
from nerscore.render.html_agreement import render_agreement_html
from tests.paths import DATA

EXPECTED = DATA / "agreement" / "expected"

A = [["B-PER", "O", "B-LOC", "I-LOC"], ["B-PER", "O", "B-PER"]]
B = [["B-PER", "O", "B-LOC", "I-LOC"], ["B-PER", "O", "O"]]
C = [["B-PER", "O", "B-ORG", "I-ORG"], ["B-PER", "O", "B-PER"]]


@pytest.fixture(scope="module")
def result() -> nerscore.Agreement:
    return nerscore.agreement({"A": A, "B": B, "C": C}, n_resamples=0)


@pytest.mark.parametrize(("fmt", "name"), [("text", "worked.txt"), ("markdown", "worked.md")])
def test_text_formats_are_stable(result: nerscore.Agreement, fmt: str, name: str) -> None:
    expected = (EXPECTED / name).read_text(encoding="utf-8")
    assert render_agreement(result, format=fmt) + "\n" == expected
    assert nerscore.render_result(result, format=fmt) + "\n" == expected


def test_json_is_the_dict(result: nerscore.Agreement) -> None:
    data = json.loads(nerscore.render_result(result, format="json"))
    assert data == json.loads(result.to_json())
    assert data["f1"]["matrix"][0][1] == pytest.approx(6 / 7)
    assert data["disagreements"]["counts"] == {"label": 1, "missing": 1}
    assert data["intervals"]["mean_f1"]["low"] is None  # no resamples


def test_html_page_escapes_and_holds_every_section() -> None:
    sets = {"<x>": [[(0, 4, "PER")]], "y": [[(0, 4, "LOC")]]}
    page = render_agreement_html(nerscore.agreement(sets, n_resamples=0))
    assert "<x>" not in page
    assert "&lt;x&gt;" in page
    for section in ("Pairwise entity F1", "Per label", "Token level", "Least-agreed documents",
                    "Disagreements"):
        assert f"<h2>{section}" in page
    assert nerscore.render_result(nerscore.agreement(sets, n_resamples=0),
                                  format="html") == page


def test_documents_only_one_annotator_has_are_counted_not_listed() -> None:
    result = nerscore.agreement({"a": {"d1": [(0, 4, "PER")], "d2": [(0, 3, "LOC")]},
                                 "b": {"d1": [(0, 4, "PER")]}}, n_resamples=0)
    lines = render_agreement(result).splitlines()
    at = lines.index("least-agreed documents (of 1; 1 with a single annotator left out)")
    assert lines[at + 2].startswith("d1 ")
    assert not any(line.startswith("d2 ") for line in lines)
    assert [d["document"] for d in json.loads(result.to_json())["documents"]] == ["d1"]
    page = render_agreement_html(result)
    assert "<p>1 document(s) with a single annotator are in no pair and not listed.</p>" in page
    assert "<td>d2</td>" not in page


def test_a_long_label_overflows_its_row_instead_of_widening_every_row() -> None:
    long = "X" * 1000
    result = nerscore.agreement([[["B-PER", f"B-{long}"]], [["B-PER", "O"]]], n_resamples=0)
    lines = render_agreement(result).splitlines()
    table = lines[lines.index("per label") + 1:]
    assert table[0].startswith("label  mean F1")
    assert table[1].startswith("PER       1.00")
    assert table[2].startswith(f"{long}     0.00")
