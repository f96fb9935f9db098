"""Values quoted into messages (errors.quoted): short ones whole, long ones cut with their length."""

from __future__ import annotations

import pytest

from nerscore.errors import QUOTED, describe_location, option_error, quoted


@pytest.mark.parametrize("value", ["B-PER", "", "l'été\t", "x" * QUOTED, None, 3, ("a", 1)])
def test_short_values_are_quoted_as_repr_quotes_them(value):
    assert quoted(value) == repr(value)


def test_long_values_are_cut_with_their_length():
    assert quoted("B-" + "X" * 10_000_000) == (
        repr("B-" + "X" * (QUOTED - 2)) + "... (10000002 characters)")
    assert quoted("é" * (QUOTED + 1)) == repr("é" * QUOTED) + f"... ({QUOTED + 1} characters)"
    long_list = list(range(1000))
    text = repr(long_list)
    assert quoted(long_list) == f"{text[:QUOTED + 2]}... ({len(text)} characters)"


def test_messages_quote_through_it():
    token = "A" * 100_000
    where = describe_location(sentence=0, index=1, token=token, source="p.conll", line=2)
    assert where == f"token 1 ({quoted(token)}) of sentence 0 (p.conll, line 2)"
    assert len(str(option_error("average", "one of 'micro'", "m" * 100_000))) < 200
