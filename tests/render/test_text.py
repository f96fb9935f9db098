"""The text table of a report (nerscore.render.text)."""

import pytest

import nerscore


@pytest.mark.parametrize(("gold", "counts"), [
    ([["B-A"]], "(1 token, 1 sequence)"),
    ([["B-A", "O"]], "(2 tokens, 1 sequence)"),
    ([["B-A"], ["O"]], "(2 tokens, 2 sequences)"),
])
def test_accuracy_line_counts_tokens_and_sequences_in_the_singular_for_one(gold, counts):
    out = nerscore.render_text(nerscore.evaluate(gold, gold))
    assert out.splitlines()[-1] == f"accuracy: 1.00 {counts}"
