"""Span and Entity: the constructors and the path for fields a reader has checked."""

from __future__ import annotations

import copy
import dataclasses
import pickle

import numpy as np
import pytest

from nerscore.errors import InvalidSpanError
from nerscore.matching.overlap import match_overlap
from nerscore.values.documents import Document
from nerscore.values.spans import Entity, EntityColumns, Span


@pytest.mark.parametrize(("start", "end"), [(3, 1), (-1, 2), (-2, -1)])
def test_a_reversed_or_negative_span_is_refused(start, end):
    with pytest.raises(ValueError, match=(
            rf"^A span needs 0 <= start <= end; got start={start}, end={end}\.$")):
        Span(start, end)


def test_span_fields_stay_frozen():
    span = Span(0, 2)
    with pytest.raises(dataclasses.FrozenInstanceError):
        span.start = 1  # type: ignore[misc]
    assert dataclasses.replace(span, end=5) == Span(0, 5)
    with pytest.raises(ValueError, match="got start=0, end=-1"):
        dataclasses.replace(span, end=-1)


@pytest.mark.parametrize(("start", "end", "label"), [(0, 0, "X"), (3, 9, "PER"), (0, 2**70, "")])
def test_checked_entity_is_the_constructed_one(start, end, label):
    built = Entity._checked(start, end, label)
    ref = Entity(Span(start, end), label)
    assert type(built) is Entity
    assert type(built.span) is Span
    assert built == ref
    assert hash(built) == hash(ref)
    assert repr(built) == repr(ref)
    assert [getattr(built, f.name) for f in dataclasses.fields(Entity)] == [
        getattr(ref, f.name) for f in dataclasses.fields(Entity)]
    assert pickle.loads(pickle.dumps(built)) == ref
    assert copy.deepcopy(built) == ref
    with pytest.raises(dataclasses.FrozenInstanceError):
        built.label = "Y"  # type: ignore[misc]


def test_documents_of_every_shape_hold_the_same_entities():
    ref = (Entity(Span(0, 4), "PER"), Entity(Span(5, 5), "LOC"))
    shapes = [
        [(0, 4, "PER"), (5, 5, "LOC")],
        [[0, 4, "PER"], [5, 5, "LOC"]],
        [{"start": 0, "end": 4, "label": "PER"}, {"start": 5, "end": 5, "label": "LOC"}],
        [{"start": 0, "end": 4, "label": "PER", "token_start": 0},
         {"label": "LOC", "end": 5, "start": 5}],
        list(ref),
    ]
    for spans in shapes:
        for text in (None, "Anna flew"):
            doc = Document("d", spans, text)
            assert doc.spans == ref
            assert [type(e.span) for e in doc.spans] == [Span, Span]


@pytest.mark.parametrize(("span", "message"), [
    ({"start": 0, "end": 4, "fragments": [[0, 4]]}, r"lacks the key\(s\) 'label'"),
    ({"start": 0, "end": 4, "label": "X", "score": "high"}, "has score 'high'"),
    ({"start": 0, "end": 10, "label": "X"}, "ends beyond the text"),
    ({"start": 0, "end": 4.0, "label": "X"}, "needs integer offsets"),
    ((0, 4), "is not a span"),
    ((4, 0, "X"), "has start > end"),
    ([0, 4, 7], "needs a str label"),
])
def test_a_span_off_the_fast_path_is_refused_as_before(span, message):
    with pytest.raises(InvalidSpanError, match=message):
        Document("d", [(0, 1, "X"), span], "Anna flew")


@pytest.mark.parametrize(("start", "end", "what"), [
    (0.5, 2, r"its start is float 0\.5"),
    (1.0, 2, r"its start is float 1\.0"),
    (0, 2.5, r"its end is float 2\.5"),
    (True, 2, r"its start is bool True"),
    (np.True_, 2, r"its start is bool np\.True_"),
    (np.float64(1), 2, r"its start is float64 np\.float64\(1\.0\)"),
    ("0", 2, r"its start is str '0'"),
    (0, None, r"its end is NoneType None"),
])
def test_a_span_of_offsets_that_are_no_integers_is_refused_when_built(start, end, what):
    """Not later, where one path would cut 0.5 to 0 and another refuse it."""
    pattern = rf"^Span\(.*\) needs integer offsets \(int or a NumPy integer\); {what}\. "
    with pytest.raises(InvalidSpanError, match=pattern):
        Span(start, end)
    with pytest.raises(InvalidSpanError, match=pattern):
        Entity(Span(start, end), "PER")


def test_numpy_integer_offsets_are_stored_as_int():
    span = Span(np.int64(3), np.uint8(7))
    assert (span, type(span.start), type(span.end)) == (Span(3, 7), int, int)
    assert repr(Entity(span, "X")) == "Entity(span=Span(start=3, end=7), label='X', sentence=0)"
    with pytest.raises(InvalidSpanError, match="got start=-1, end=2"):
        Span(np.int64(-1), 2)


@pytest.mark.parametrize("column", ["seq", "start", "end", "label"])
@pytest.mark.parametrize("value", [0.5, np.nan, "a"])
def test_entity_columns_refuse_values_that_are_no_whole_numbers(column, value):
    """A cast would cut 0.5 to 0: the overlap matchers would score another span."""
    values = {"seq": [0, 0], "start": [0, 1], "end": [2, 3], "label": [0, 0]}
    values[column] = [values[column][0], value]
    with pytest.raises(InvalidSpanError, match=rf"^EntityColumns needs integers in `{column}`; "
                                               rf"row 1 has {value!r}\.$"):
        EntityColumns(*values.values(), ("PER",))


def test_entity_columns_read_whole_floats_and_build_int_spans():
    cols = EntityColumns([0.0, 1.0], np.array([0.0, 1.0]), [2, 3], [0, 0], ("PER",))
    assert cols.start.dtype == np.int64
    assert cols.to_entities() == [Entity(Span(0, 2), "PER", 0), Entity(Span(1, 3), "PER", 1)]
    assert {type(e.start) for e in cols.to_entities()} == {int}
    with pytest.raises(InvalidSpanError, match="got start=3, end=2"):
        EntityColumns([0], [3], [2], [0], ("PER",)).to_entities()


def test_scoring_columns_of_a_half_offset_is_an_error_not_a_number():
    gold = EntityColumns.from_entities([Entity(Span(0, 2), "PER")])
    with pytest.raises(InvalidSpanError, match=r"row 0 has 0\.5"):
        match_overlap(gold, EntityColumns([0], [0.5], [2], [0], ("PER",)))
    with pytest.raises(InvalidSpanError, match=r"`sentence`; row 0 has 0\.5"):
        EntityColumns.from_entities([Entity._checked(0, 2, "PER", 0.5)])  # type: ignore[arg-type]
