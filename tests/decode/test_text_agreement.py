"""The check that both sides give each document the same text."""

from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

import nerscore
from nerscore.decode.text_agreement import (
    EXCERPT,
    SHOWN,
    TextMismatch,
    TextMismatches,
    compare_texts,
    first_difference,
)
from nerscore.errors import TextMismatchWarning
from nerscore.values.documents import Document


@pytest.mark.parametrize(("a", "b", "pos"), [
    ("abc", "abd", 2), ("abc", "abc!", 3), ("", "x", 0), ("naïve", "naive", 2),
    ("😀a", "😀b", 1), ("a\ud800b", "a\ud800c", 2), ("a\ud800", "a\udc00", 1),
    ("\udfff", "\udfff!", 1),
])
def test_first_difference(a, b, pos):
    assert first_difference(a, b) == pos
    assert first_difference(b, a) == pos


#: Any text: half surrogate pairs included, and few characters, so that texts share prefixes.
texts = st.text(st.sampled_from("ab\ud800\udbff\udc00\udfff😀\x00\U0010ffff"), max_size=8) | st.text()


@settings(max_examples=300, deadline=None)
@given(a=texts, b=texts)
def test_first_difference_of_any_text(a, b):
    pos = first_difference(a, b)
    assert a[:pos] == b[:pos]
    assert pos == min(len(a), len(b)) or a[pos] != b[pos]


def test_evaluate_names_texts_differing_after_half_a_surrogate_pair():
    gold = [Document("a", [(0, 1, "X")], "a\ud800b went")]
    pred = [Document("a", [(0, 1, "X")], "a\ud800b left")]
    with pytest.warns(TextMismatchWarning, match=r"document 'a' from character 4 \(gold 'went', "
                                                  r"prediction 'left'\)"):
        report = nerscore.evaluate(gold, pred)
    assert report.micro.f1 == 1.0


def test_nothing_to_compare():
    m = compare_texts(["a", "b"], ["x", None], ["x", "y"])
    assert not m
    assert m.count == 0


def test_every_differing_document_is_counted_and_the_first_ones_named():
    n = SHOWN + 3
    gold = [f"doc {k} gold" for k in range(n)]
    pred = [f"doc {k} pred" for k in range(n)]
    m = compare_texts([f"d{k}" for k in range(n)], gold, pred)
    assert m.count == n
    assert [x.document for x in m.shown] == [f"d{k}" for k in range(SHOWN)]
    note = m.note()
    assert note.startswith(f"{n} documents have different texts in gold and prediction: "
                           "document 'd0' from character 6 (gold 'gold', prediction 'pred'); ")
    assert note.endswith("; and 3 more. Offsets are read against the gold text; give both "
                         "sides the same texts.")


def test_excerpts_are_short():
    m = compare_texts(None, ["x" + "a" * 100], ["x" + "b" * 100])
    assert m.shown == (TextMismatch(0, 1, "a" * EXCERPT, "b" * EXCERPT),)
    assert "document 0 from character 1" in m.note()


def test_chunks_add_up_to_the_whole():
    gold = ["a", "b", "c", "d"]
    pred = ["a", "B", "c", "D"]
    whole = compare_texts(None, gold, pred)
    first = compare_texts(None, gold[:2], pred[:2])
    second = compare_texts(None, gold[2:], pred[2:]).shifted(2)
    assert first + second == whole
    assert [x.document for x in whole.shown] == [1, 3]
    ids = compare_texts(["x", "y"], ["a", "b"], ["A", "b"])
    assert ids.shifted(5) == ids  # ids do not move


def test_warns_once_with_the_note():
    m = compare_texts(["a"], ["Anna"], ["Anne"])
    with pytest.warns(TextMismatchWarning) as w:
        m.warn()
    assert [str(x.message) for x in w] == [m.note()]
    assert issubclass(TextMismatchWarning, UserWarning)
    TextMismatches().warn()  # nothing to say: no warning (filterwarnings=error)


def test_annotators_are_named_in_place_of_gold_and_prediction():
    m = compare_texts(["d1"], ["Anna went"], ["Anna left"])
    note = m.note(("ann", "bob"))
    assert note == ("1 document has a different text for annotators 'ann' and 'bob': document "
                    "'d1' from character 5 (ann 'went', bob 'left'). Offsets are read against "
                    "the first annotator's text; give every annotator the same texts.")
    with pytest.warns(TextMismatchWarning) as w:
        m.warn(("ann", "bob"))
    assert [str(x.message) for x in w] == [note]
