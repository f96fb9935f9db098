"""Discontinuous entities in the value types: Entity, EntityColumns, Document, span_columns."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from nerscore.errors import InputTypeError, InvalidSpanError
from nerscore.values.documents import Document, span_columns
from nerscore.values.fragments import Fragments, fragment_keys, pair_overlap, same_fragments
from nerscore.values.selection import Selection
from nerscore.values.spans import Entity, EntityColumns, Span

LUNG = Entity.from_fragments([(0, 4), (19, 29)], "Disorder")


def test_an_entity_of_fragments_spans_its_extent():
    assert LUNG.span == Span(0, 29)
    assert LUNG.fragments == (Span(0, 4), Span(19, 29))
    assert LUNG.discontinuous
    assert LUNG.parts == LUNG.fragments
    assert Entity(Span(0, 4), "X").parts == (Span(0, 4),)
    assert repr(LUNG) == ("Entity(span=Span(start=0, end=29), label='Disorder', sentence=0, "
                          "fragments=(Span(start=0, end=4), Span(start=19, end=29)))")


def test_one_fragment_and_touching_fragments_are_contiguous():
    assert Entity.from_fragments([(3, 7)], "X") == Entity(Span(3, 7), "X")
    assert Entity.from_fragments([(3, 5), (5, 7)], "X") == Entity(Span(3, 7), "X")
    assert Entity(Span(3, 7), "X", fragments=(Span(3, 7),)) == Entity(Span(3, 7), "X")
    assert not Entity.from_fragments([(3, 5), (5, 7)], "X").discontinuous


@pytest.mark.parametrize(("fragments", "message"), [
    ([(0, 5), (3, 9)], r"fragments \[0, 5\) and \[3, 9\) overlap"),
    ([(0, 5), (7, 7)], r"fragment \[7, 7\) is empty"),
    ([(0, 5), (9, 4)], r"needs 0 <= start <= end"),
    ([(0, 5), ("a", 9)], r"needs integer offsets"),
    ([(0, 5), (1, 2, 3)], r"is a \[start, end\] pair"),
    ([], r"at least one fragment"),
])
def test_malformed_fragments_are_refused(fragments, message):
    with pytest.raises(ValueError, match=message):
        Entity.from_fragments(fragments, "X")


def test_a_long_malformed_fragment_is_quoted_short():
    spec = "0-4 " * 500  # a fragment list pasted as one string
    with pytest.raises(ValueError, match="pair") as info:
        Entity.from_fragments([spec], "X")
    assert str(info.value) == ("a fragment is a [start, end] pair; got "
                               f"{spec[:60]!r}... (2000 characters).")
    with pytest.raises(ValueError, match="integer offsets") as info:
        Entity.from_fragments([(0, 5), ("a" * 100, 9)], "X")
    assert str(info.value) == ("a fragment needs integer offsets; got "
                               f"{repr(('a' * 100, 9))[:62]}... (107 characters).")


def test_fragments_must_span_the_entity():
    with pytest.raises(ValueError, match=r"span \[0, 29\), not its span \[0, 30\)"):
        Entity(Span(0, 30), "X", fragments=(Span(0, 4), Span(19, 29)))


def test_entities_sort_and_hash_with_their_fragments():
    other = Entity.from_fragments([(0, 4), (20, 29)], "Disorder")
    assert sorted([other, LUNG]) == [LUNG, other]
    assert len({LUNG, other, Entity.from_fragments([(19, 29), (0, 4)], "Disorder")}) == 2


def test_columns_without_discontinuous_rows_have_no_fragments():
    cols = EntityColumns.from_entities([Entity(Span(0, 4), "A"), Entity(Span(5, 9), "A")])
    assert cols.fragments is None
    given_one = EntityColumns(cols.seq, cols.start, cols.end, cols.label, cols.labels, 1,
                              Fragments.single(cols.start, cols.end))
    assert given_one.fragments is None
    assert cols.lengths().tolist() == [4, 4]
    assert cols.pieces() is cols
    assert cols.extent() is cols


def test_columns_take_sort_and_round_trip_fragments():
    ents = [Entity(Span(5, 11), "D"), LUNG, Entity.from_fragments([(1, 2), (6, 8), (9, 10)], "E", 1)]
    cols = EntityColumns.from_entities(ents)
    assert cols.to_entities() == ents
    assert cols.fragment_counts().tolist() == [1, 2, 3]
    assert cols.lengths().tolist() == [6, 14, 4]
    assert cols.take([1, 2]).to_entities() == ents[1:]
    assert cols.take([0]).fragments is None
    assert cols.take(np.array([False, True, False])).to_entities() == [LUNG]
    assert cols.sorted().to_entities() == [LUNG, ents[0], ents[2]]
    assert cols.with_labels(("A", "D", "Disorder", "E")).to_entities() == ents
    pieces = cols.pieces()
    assert list(zip(pieces.seq.tolist(), pieces.start.tolist(), pieces.end.tolist(),
                    strict=True)) == [(0, 5, 11), (0, 0, 4), (0, 19, 29), (1, 1, 2), (1, 6, 8),
                                      (1, 9, 10)]
    assert cols.extent().to_entities() == [ents[0], Entity(Span(0, 29), "Disorder"),
                                           Entity(Span(1, 10), "E", 1)]


def test_pairs_compare_and_overlap_by_fragments():
    g = EntityColumns.from_entities([LUNG, Entity(Span(5, 11), "Disorder")])
    p = EntityColumns.from_entities([Entity(Span(0, 29), "Disorder"), LUNG,
                                     Entity.from_fragments([(2, 6), (20, 22)], "Disorder")])
    gi = np.array([0, 0, 0, 1, 1])
    pi = np.array([0, 1, 2, 0, 2])
    assert pair_overlap(g, gi, p, pi).tolist() == [14, 14, 4, 6, 1]
    assert same_fragments(g, gi, p, pi).tolist() == [False, True, False, False, False]
    kg, kp = fragment_keys(g, p)
    assert kg[0] == kp[1] != 0
    assert kg[1] == kp[0] == 0


def test_documents_read_fragments_from_dicts_and_entities():
    text = "lung cancer in the upper lobe was found"
    doc = Document("d", [{"start": 0, "end": 29, "label": "Disorder",
                          "fragments": [[19, 29], [0, 4]]}, LUNG, (5, 11, "Disorder")], text)
    assert doc.spans[:2] == (LUNG, LUNG)
    assert doc.span_texts() == ["lung … upper lobe", "lung … upper lobe", "cancer"]
    assert Document.to_dict(doc)["spans"][0] == {
        "start": 0, "end": 29, "label": "Disorder", "fragments": [[0, 4], [19, 29]]}


@pytest.mark.parametrize(("span", "message"), [
    ({"start": 0, "end": 30, "label": "D", "fragments": [[0, 4], [19, 29]]},
     r"Span 0 \(0, 30, 'D'\) of document 'd' has fragments \[\[0, 4\], \[19, 29\]\] that span "
     r"\[0, 29\), not \[0, 30\)"),
    ({"start": 0, "end": 29, "label": "D", "fragments": [[0, 5], [4, 29]]},
     r"Span 0 \(0, 29, 'D'\) of document 'd': fragments \[0, 5\) and \[4, 29\) overlap"),
    ({"start": 0, "end": 29, "label": "D", "fragments": "0 4;19 29"},
     r"has fragments '0 4;19 29'; write them as a list of \[start, end\] pairs"),
    ({"start": 0, "end": 29, "label": "D", "fragments": []},
     r"an entity needs at least one fragment"),
])
def test_bad_fragments_name_document_and_span(span, message):
    with pytest.raises(InvalidSpanError, match=message):
        Document("d", [span])
    with pytest.raises(InvalidSpanError, match=message.replace("Span 0", "Span 0")):
        span_columns([[span]], names=["d"])


def test_span_columns_carry_fragments_only_when_there_are_some():
    plain = span_columns([[(0, 4, "A")], [{"start": 1, "end": 2, "label": "B", "x": 1}]],
                         names=["a", "b"])
    assert plain.fragments is None
    mixed = span_columns([[(5, 11, "D"), LUNG], [{"start": 0, "end": 29, "label": "D",
                                                  "fragments": [[0, 4], [19, 29]]}]],
                         names=["a", "b"])
    assert mixed.fragment_counts().tolist() == [1, 2, 2]
    assert mixed.to_entities()[2] == Entity.from_fragments([(0, 4), (19, 29)], "D", 1)


def test_ignore_regions_of_a_document():
    doc = Document("d", [], "lung cancer in the upper lobe",
                   ignore=[(0, 4), [5, 11, "D"], {"start": 12, "end": 14},
                           Entity(Span(15, 18), "E"), Span(19, 24)])
    assert doc.ignore == (Span(0, 4), Entity(Span(5, 11), "D"), Span(12, 14),
                          Entity(Span(15, 18), "E"), Span(19, 24))
    assert doc.to_dict()["ignore"] == [[0, 4], [5, 11, "D"], [12, 14], [15, 18, "E"], [19, 24]]
    assert Document("e", [], ignore=[]).ignore == ()
    with pytest.raises(InvalidSpanError, match=r"Ignore region 0 \[0, 40\] of document 'd' "
                                               r"ends beyond the text, which has 4 characters"):
        Document("d", [], "text", ignore=[[0, 40]])
    with pytest.raises(InvalidSpanError, match=r"Ignore region 1 \[3, 3\] of document 'd' covers "
                                               r"no unit"):
        Document("d", [], ignore=[[0, 1], [3, 3]])
    with pytest.raises(InvalidSpanError, match=r"Ignore region 0 'x' of document 'd' is not a "
                                               r"region"):
        Document("d", [], ignore=["x"])
    with pytest.raises(InvalidSpanError, match=r"needs integer offsets and a str label"):
        Document("d", [], ignore=[[0, 1, 2]])
    with pytest.raises(InputTypeError, match=r"ignore regions of document 'd' to be a list"):
        Document("d", [], ignore="0 4")


def test_selection_counts_then_selects():
    cols = EntityColumns.from_entities([LUNG, Entity(Span(5, 11), "Disorder")])
    none = EntityColumns.empty(("Disorder",))
    gold, pred, tallies = Selection(subset="discontinuous").apply(cols, none)
    assert gold.to_entities() == [LUNG]
    assert len(pred) == 0
    assert tallies == {"gold_discontinuous": 1}
    gold, _, _ = Selection(discontinuous="extent", subset="discontinuous").apply(cols, none)
    assert gold.to_entities() == [Entity(Span(0, 29), "Disorder")]
    assert Selection.split({"discontinuous": "Extent", "labeled": False}) == (
        Selection("extent"), {"labeled": False})
    with pytest.raises(ValueError, match=r"Expected `discontinuous` to be one of 'fragments', "
                                         r"'extent'; got 'merge'"):
        Selection(discontinuous="merge")


@st.composite
def fragment_lists(draw):
    """Disjoint, non-touching fragments in any order."""
    n = draw(st.integers(1, 4))
    cuts = sorted(draw(st.lists(st.integers(0, 60), min_size=2 * n, max_size=2 * n,
                                unique=True)))
    frags = [(cuts[2 * i], cuts[2 * i + 1]) for i in range(n)]
    frags = [f for i, f in enumerate(frags) if i == 0 or f[0] > frags[i - 1][1]]
    return draw(st.permutations(frags))


@settings(max_examples=100, deadline=None)
@given(frags=fragment_lists())
def test_fragment_order_does_not_matter(frags):
    e = Entity.from_fragments(frags, "X")
    assert e == Entity.from_fragments(sorted(frags), "X")
    assert [(f.start, f.end) for f in e.parts] == sorted(frags)
    assert EntityColumns.from_entities([e]).lengths().tolist() == [sum(b - a for a, b in frags)]
