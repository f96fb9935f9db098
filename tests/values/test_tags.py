"""Tag vocabulary parsing: which tags are valid, and what class and label each has."""

from __future__ import annotations

import pytest

from nerscore.values.decoding import Decoding
from nerscore.values.schemes import SCHEMES, Scheme
from nerscore.values.tags import parse_vocab


@pytest.mark.parametrize("scheme", [None, *Scheme])
def test_a_prefix_with_an_empty_type_is_invalid_in_every_scheme(scheme):
    letters = sorted(SCHEMES[scheme].letters) if scheme is not None else ["B", "I", "E", "S"]
    for suffix in (False, True):
        tags = [f"-{x}" if suffix else f"{x}-" for x in letters]
        pv = parse_vocab(["O", *tags], Decoding(scheme, suffix=suffix))
        assert sorted(pv.invalid) == list(range(1, len(tags) + 1)), (scheme, suffix, tags)
        assert all("its type is empty" in reason for reason in pv.invalid.values())
        assert "" not in pv.labels


def test_the_empty_type_reason_names_prefix_delimiter_and_fix():
    pv = parse_vocab(["B_"], Decoding(delimiter="_"))
    assert pv.invalid[0] == (
        "its type is empty: nothing follows the prefix 'B' and the delimiter '_'; "
        "write B_TYPE (or the bare prefix 'B' for an untyped entity)")
    pv = parse_vocab(["-E"], Decoding(suffix=True))
    assert pv.invalid[0].startswith("its type is empty: nothing precedes the delimiter '-' "
                                    "and the prefix 'E'; write TYPE-E")


def test_the_empty_tag_is_invalid_even_in_io():
    for scheme in (None, "IO", "IOB2"):
        pv = parse_vocab([""], Decoding(scheme))
        assert list(pv.invalid) == [0], scheme
    assert "write the outside tag 'O'" in parse_vocab([""], Decoding("IO")).invalid[0]


def test_a_bare_prefix_stays_an_untyped_tag():
    pv = parse_vocab(["B", "I", "B-PER"])
    assert not pv.invalid
    assert [pv.labels[i] for i in pv.label.tolist()] == ["", "", "PER"]
    pv = parse_vocab(["I", "PER"], Decoding("IO"))
    assert not pv.invalid
    assert [pv.labels[i] for i in pv.label.tolist()] == ["", "PER"]
