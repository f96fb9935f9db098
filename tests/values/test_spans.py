"""Span and Entity: the constructors and the path for fields a reader has checked."""

from __future__ import annotations

import copy
import dataclasses
import pickle

import pytest

from nerscore.errors import InvalidSpanError
from nerscore.values.documents import Document
from nerscore.values.spans import Entity, Span


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
