"""A read CoNLL file (io/_conll_corpus.ConllCorpus): its label column rewritten in place."""

from __future__ import annotations

import io

import pytest

from nerscore.io.conll import read_conll, write_conll


def test_long_fields_are_quoted_short_in_errors():
    long = "B X" + "Y" * 100_000
    corpus = read_conll(io.StringIO("a O\n"))
    with pytest.raises(ValueError, match=r"^Cannot write the label") as info:
        corpus.replace_labels([[long]])
    assert str(info.value) == (f"Cannot write the label {long[:60]!r}... (100003 characters) of "
                               "token 0 ('a') of sentence 0 (line 1) to a CoNLL line: its fields, "
                               "separated by spaces, must be non-empty and free of white space "
                               "and control characters. Give the token another label.")
    with pytest.raises(ValueError, match=r"^Cannot write 'B XYYY.*'\.\.\. \(100003 characters\) "
                                         r"\(token 0 of sentence 0, tokens\)") as info:
        write_conll(io.StringIO(), [[long]], [["O"]])
    assert len(str(info.value)) < 300
