"""Checks of one span item as users write it (nerscore.values.span_checks)."""

import pytest

from nerscore.errors import InvalidSpanError
from nerscore.values.span_checks import check_span, coerce_region


@pytest.mark.parametrize(("length", "words"), [(1, "1 character"), (3, "3 characters")])
def test_a_span_beyond_the_text_names_its_length_singular_for_one(length, words):
    with pytest.raises(InvalidSpanError, match=f"ends beyond the text, which has {words};"):
        check_span(0, 9, "X", document="a", text_length=length)
    with pytest.raises(InvalidSpanError, match=rf"ends beyond the text, which has {words}\.$"):
        coerce_region((0, 9), document="a", text_length=length)
