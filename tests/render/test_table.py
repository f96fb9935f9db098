"""Markdown table cells: one way of making any text one cell."""

from __future__ import annotations

import nerscore
from nerscore.render.confusion import render_confusion_markdown
from nerscore.render.table import markdown_cell
from nerscore.render.text import render_markdown


def test_a_cell_escapes_pipes_and_folds_line_breaks_only():
    assert markdown_cell("A|B") == "A\\|B"
    assert markdown_cell("a\nb\r\nc") == "a b c"
    assert markdown_cell("LOC  ") == "LOC  "  # 'LOC  ' is a label of its own


def test_the_confusion_matrix_and_the_report_write_a_label_alike():
    gold = [["B-A|B", "O"]]
    pred = [["B-A|B", "B-X"]]
    report = nerscore.evaluate(gold, pred, zero_division=0)
    assert "| A\\|B |" in render_markdown(report)
    assert "| A\\|B |" in render_confusion_markdown(nerscore.confusion_matrix(gold, pred))
