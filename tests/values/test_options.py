"""Option sets: parsing user values, and the error for a value outside the set."""

from __future__ import annotations

import pytest

import nerscore
from nerscore.errors import NerscoreError, OptionError
from nerscore.values.schemes import Mode


def test_parse_accepts_members_and_strings_in_any_case():
    assert Mode.parse(" STRICT ") is Mode.STRICT
    assert Mode.parse(Mode.LENIENT) is Mode.LENIENT


def test_a_value_outside_the_set_is_an_option_error_naming_the_parameter():
    with pytest.raises(OptionError) as e:
        Mode.parse("fuzzy", name="mode")
    assert isinstance(e.value, NerscoreError)
    assert isinstance(e.value, ValueError)
    assert e.value.option == "mode"
    assert str(e.value) == ("Expected `mode` to be one of 'lenient', 'strict', 'conlleval'; "
                            "got 'fuzzy'.")
    with pytest.raises(OptionError, match="Expected `mode` to be one of"):
        nerscore.f1_score([["O"]], [["O"]], mode="fuzzy")
