"""Tests of the span-list reader behind every span scorer (``nerscore.values.documents.span_columns``).

Its fast path splits homogeneous lists of spans into columns with C-level
passes; whatever it cannot vouch for goes through the per-span checks. These
tests compare it with a span-by-span reference built on the same per-span
checks, on valid and invalid inputs alike.
"""

from __future__ import annotations

import enum

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from nerscore.errors import InputTypeError, InvalidSpanError
from nerscore.values.documents import check_score, check_span, coerce_span, score_of, span_columns
from nerscore.values.spans import Entity, Span


def reference(span_lists, side="y_pred"):
    """Columns, or the InvalidSpanError raised, span by span."""
    rows = []
    for d, spans in enumerate(span_lists):
        for i, item in enumerate(spans):
            s, e, lab = coerce_span(item, document=d, side=side, index=i)
            rows.append((d, i, s, e, lab, score_of(item)))
    bad = [r for r in rows if r[2] < 0 or r[3] < r[2]]
    if bad:
        d, i, s, e, lab, _ = bad[0]
        others = len(bad) - 1
        extra = f" (and {others} more invalid span{'s' * (others != 1)})" if others else ""
        check_span(s, e, lab, document=d, text_length=None, side=side, extra=extra, index=i)
    for d, i, s, e, lab, x in rows:
        check_score(x, document=d, span=(s, e, lab, x), side=side, index=i)
    vocab = tuple(sorted({r[4] for r in rows}))
    return (
        [r[0] for r in rows], [r[2] for r in rows], [r[3] for r in rows],
        [vocab.index(r[4]) for r in rows], vocab,
    )


def columns(span_lists, side="y_pred"):
    cols = span_columns(span_lists, names=range(len(span_lists)), side=side)
    for col in (cols.seq, cols.start, cols.end, cols.label):
        assert col.dtype == np.int64
    return (cols.seq.tolist(), cols.start.tolist(), cols.end.tolist(), cols.label.tolist(),
            cols.labels)


def outcome(fn, span_lists):
    try:
        return fn(span_lists)
    except InvalidSpanError as err:
        return ("error", str(err))


class Offset(enum.IntEnum):
    TWO = 2


good_offset = st.integers(0, 30)
any_offset = st.one_of(
    good_offset, good_offset, good_offset, st.integers(-3, -1), st.booleans(),
    st.sampled_from([1.0, 2.5, None, "3", np.int64(4), np.int32(1), Offset.TWO, np.True_]),
)
any_label = st.one_of(
    st.sampled_from(["PER", "LOC", "ORG"]), st.sampled_from(["PER", "LOC"]),
    st.sampled_from([5, None, b"PER", ("PER",)]),
)


@st.composite
def item(draw, offset=any_offset, label=any_label):
    s, e, lab = draw(offset), draw(offset), draw(label)
    shape = draw(st.sampled_from(["tuple", "tuple", "list", "dict", "short", "long", "longer",
                                  "str"]))
    if shape == "tuple":
        return (s, e, lab)
    if shape == "list":
        return [s, e, lab]
    if shape == "dict":
        return {"start": s, "end": e, "label": lab}
    if shape == "short":
        return (s, e)
    if shape == "long":
        return (s, e, lab, draw(st.sampled_from([0.5, 1, -2.0, None, "extra", float("nan"),
                                                 True, np.float32(0.25)])))
    if shape == "longer":
        return (s, e, lab, 0.5, "extra")
    return "abc"


def valid_item():
    return st.tuples(good_offset, st.integers(0, 10), st.sampled_from(["PER", "LOC"])).map(
        lambda t: (t[0], t[0] + t[1], t[2])
    )


# ---------------------------------------------------------------- properties


@settings(max_examples=300, deadline=None)
@given(st.lists(st.lists(item(), max_size=4), max_size=4))
def test_equals_span_by_span_reference(span_lists):
    assert outcome(columns, span_lists) == outcome(reference, span_lists)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.lists(valid_item(), max_size=5), min_size=1, max_size=4),
    st.data(),
)
def test_one_bad_span_among_valid_ones(span_lists, data):
    # a single bad value anywhere (not only first) is found
    d = data.draw(st.integers(0, len(span_lists) - 1))
    spans = span_lists[d]
    k = data.draw(st.integers(0, len(spans)))
    bad = data.draw(item())
    span_lists = [list(x) for x in span_lists]
    span_lists[d].insert(k, bad)
    assert outcome(columns, span_lists) == outcome(reference, span_lists)


# ---------------------------------------------------------------- examples


def test_valid_shapes_give_the_same_columns():
    tuples = [[(0, 4, "PER"), (5, 9, "LOC")], [], [(2, 2, "PER")]]
    want = ([0, 0, 2], [0, 5, 2], [4, 9, 2], [1, 0, 1], ("LOC", "PER"))
    assert columns(tuples) == want
    assert columns([[list(x) for x in d] for d in tuples]) == want
    assert columns([[{"start": s, "end": e, "label": x, "score": 1.0} for s, e, x in d]
                    for d in tuples]) == want
    assert columns([[Entity(Span(s, e), x) for s, e, x in d] for d in tuples]) == want
    mixed = [[(0, 4, "PER"), [5, 9, "LOC"]], [], [{"start": 2, "end": 2, "label": "PER"}]]
    assert columns(mixed) == want
    assert columns([[]]) == ([], [], [], [], ())


def test_numpy_and_intenum_offsets_are_integers():
    spans = [[(np.int64(1), 3, "A"), (Offset.TWO, np.int32(7), "B")]]
    assert columns(spans) == ([0, 0], [1, 2], [3, 7], [0, 1], ("A", "B"))


@pytest.mark.parametrize(
    ("bad", "message"),
    [
        ((True, 1, "Y"), r"Span 2 \(True, 1, 'Y'\) of document 1 of y_pred needs integer "
                         "offsets; got start True and end 1"),
        ((0, False, "Y"), r"needs integer offsets; got start 0 and end False"),
        ((np.True_, 1, "Y"), r"needs integer offsets"),
        ((0, 1.0, "Y"), r"Span 2 \(0, 1.0, 'Y'\) of document 1 of y_pred needs integer"),
        ((0, "1", "Y"), r"needs integer offsets; got start 0 and end '1'"),
        ((0, 1, 5), r"Span 2 \(0, 1, 5\) of document 1 of y_pred needs a str label; got int 5"),
        ((0, 1, ["Y"]), r"needs a str label; got list \['Y'\]"),
        ((0, 1), r"Item 2 \(0, 1\) of document 1 of y_pred is not a span"),
        ((0, 1, "Y", "Z"), r"Span 2 \(0, 1, 'Y', 'Z'\) of document 1 of y_pred has score 'Z'; "
                           "a score is a finite number"),
        ((0, 1, "Y", 0.5, 1), r"Item 2 \(0, 1, 'Y', 0.5, 1\) of document 1 of y_pred is not a "
                              "span"),
        ("abc", r"Item 2 'abc' of document 1 of y_pred is not a span"),
        ({"start": 0, "end": 1}, r"Span 2 .* of document 1 of y_pred lacks the key\(s\) 'label'"),
        ((5, 3, "Y"), r"Span 2 \(5, 3, 'Y'\) of document 1 of y_pred has start > end"),
        ((-1, 3, "Y"), r"Span 2 \(-1, 3, 'Y'\) of document 1 of y_pred has a negative start"),
    ],
)
def test_bad_span_after_many_good_ones(bad, message):
    # the bad span hides among thousands of good ones, not in first place
    good = [[(i, i + 2, "X") for i in range(0, 3000, 3)], [(0, 1, "X"), (1, 2, "X"), bad]]
    with pytest.raises(InvalidSpanError, match=message):
        span_columns(good, names=range(2), side="y_pred")


def test_several_bad_spans_are_counted():
    spans = [[(0, 1, "X")] * 100 + [(4, 3, "A"), (6, 5, "B")], [(9, 8, "C")]]
    with pytest.raises(InvalidSpanError, match=r"Span 100 \(4, 3, 'A'\) of document 0 of y_true "
                                               r"\(and 2 more invalid spans\) has start > end"):
        span_columns(spans, names=range(2), side="y_true")


def test_spans_beyond_the_text():
    with pytest.raises(InvalidSpanError, match=r"Span 1 \(3, 9, 'X'\) of document 'b' ends "
                                               "beyond the text, which has 5 characters"):
        span_columns([[(0, 9, "X")], [(0, 1, "X"), (3, 9, "X")]], names=["a", "b"],
                     text_lengths=[None, 5])


def test_offsets_beyond_int64_are_a_clear_error():
    import nerscore

    with pytest.raises(InvalidSpanError, match=r"beyond the 64-bit integer range") as ei:
        nerscore.evaluate({"d": [(0, 2**63, "A")]}, {"d": []})
    assert ei.value.document == "d"


def test_a_span_with_a_long_label_is_quoted_short():
    label = "L" * 10_000
    with pytest.raises(InvalidSpanError) as info:
        check_span(5, 2, label, document="d", text_length=None)
    assert str(info.value) == (
        f"Span (5, 2, '{'L' * 54}... (10010 characters) of document 'd' has start > end; "
        "spans are half-open [start, end) with start <= end."
    )
    with pytest.raises(InvalidSpanError, match=r"got start '0000.*'\.\.\. \(10000 characters\) "
                                               r"and end 1\.$"):
        coerce_span(("0" * 10_000, 1, "PER"), document="d")


@pytest.mark.parametrize(("entity", "message"), [
    # Entity(...) refuses these when built; an entity built without checks is caught here
    (Entity._checked(0.5, 1, "A"), r"needs integer offsets; got start 0\.5 and end 1"),  # type: ignore[arg-type]
    (Entity._checked(0, 1, 5), r"needs a str label; got int 5"),  # type: ignore[arg-type]
])
def test_an_entity_that_is_no_span_is_named_for_what_it_is(entity, message):
    """Scoring an entity built without checks says what is wrong (not an int64 overflow)."""
    with pytest.raises(InvalidSpanError, match=message):
        span_columns([[entity]], names=[0])


@pytest.mark.parametrize(("args", "message"), [
    (((0, 1), "A"), r"span must be a Span; got tuple \(0, 1\)\. Write Entity\(Span\(0, 1\)"),
    ((Span(0, 1), 5), r"label must be a str; got int 5"),
    ((Span(0, 1), "A", "s1"), r"sentence must be an integer >= 0 .*; got str 's1'"),
    ((Span(0, 1), "A", -1), r"sentence must be an integer >= 0 .*; got int -1"),
    ((Span(0, 1), "A", True), r"got bool True"),
])
def test_an_entity_checks_its_fields_when_built(args, message):
    with pytest.raises(InputTypeError, match=message):
        Entity(*args)
    plain = Entity(Span(0, 1), np.str_("A"), np.int64(2))
    assert (type(plain.label), type(plain.sentence)) == (str, int)
    assert plain == Entity(Span(0, 1), "A", 2)
