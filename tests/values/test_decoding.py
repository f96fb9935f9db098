"""The decoding options as one value: an outside tag spelled as an entity tag is refused everywhere."""

from __future__ import annotations

import pytest

import nerscore
from nerscore.errors import OptionError
from nerscore.values.decoding import Decoding

TAGS = [["B-PER", "O"]]


def _conll(tmp_path):
    path = tmp_path / "a.conll"
    path.write_text("Anna B-PER\nleft O\n", encoding="utf-8")
    return str(path)


CALLS = {
    "Decoding": lambda tmp, **kw: Decoding(**kw),
    "evaluate": lambda tmp, **kw: nerscore.evaluate(TAGS, TAGS, **kw),
    "f1_score": lambda tmp, **kw: nerscore.f1_score(TAGS, TAGS, **kw),
    "tags_to_entities": lambda tmp, **kw: nerscore.tags_to_entities(TAGS, **kw),
    "score_files": lambda tmp, **kw: nerscore.score_files(_conll(tmp), _conll(tmp), **kw),
}


@pytest.mark.parametrize("call", CALLS)
@pytest.mark.parametrize(("kwargs", "message"), [
    ({"outside": "B-PER"}, "outside='B-PER' is spelled as an entity tag (prefix 'B', type "
     "'PER'): the tags would not say whether a token is outside every entity or in one. Give an "
     "outside tag that no entity tag spells, e.g. outside='O'."),
    ({"outside": "I"}, "outside='I' is spelled as an entity tag (the bare prefix 'I'):"),
    ({"outside": "PER_S", "suffix": True, "delimiter": "_"}, "outside='PER_S' is spelled as an "
     "entity tag (prefix 'S', type 'PER'):"),
])
def test_an_outside_tag_spelled_as_an_entity_tag_is_refused(tmp_path, call, kwargs, message):
    with pytest.raises(OptionError) as info:
        CALLS[call](tmp_path, scheme="IOB2", **kwargs)
    assert message in str(info.value)
    assert info.value.option == "outside"


@pytest.mark.parametrize("outside", ["O", "NONE", "B-", "X-PER", "OUT_B", "-"])
def test_an_outside_tag_that_no_entity_tag_spells_is_taken(outside):
    report = nerscore.evaluate([["B-PER", outside]], [["B-PER", outside]], scheme="IOB2",
                               outside=outside)
    assert (report.micro.tp, report.micro.fp, report.micro.fn) == (1, 0, 0)
