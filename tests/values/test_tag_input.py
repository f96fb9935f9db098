"""Tag input: the one reading of what users pass as tags (lists, NumPy arrays, one sentence)."""

from __future__ import annotations

import numpy as np
import pytest

import nerscore
from nerscore.errors import InputTypeError
from nerscore.values.tag_input import encode_lists, tag_sequences

LISTS = [["B-PER", "I-PER", "O"], ["O", "B-LOC", "O"]]


@pytest.mark.parametrize(("tags", "expected", "flat"), [
    (np.array(LISTS), LISTS, False),
    (np.array(LISTS, dtype=object), LISTS, False),
    ([np.array(s) for s in LISTS], LISTS, False),
    ((np.array(LISTS[0]), LISTS[1]), LISTS, False),
    ([np.array(["O"]), np.array([], dtype="<U1")], [["O"], []], False),
    (np.array(["B-PER", "O"]), [["B-PER", "O"]], True),
    (np.array(["B-PER", "O"], dtype=object), [["B-PER", "O"]], True),
    (np.empty((2, 0), dtype=float), [[], []], False),
    (np.array([]), [], False),
])
def test_arrays_are_read_as_the_same_lists(tags, expected, flat):
    sequences, one = tag_sequences(tags, "y_true")
    assert [list(s) for s in sequences] == expected
    assert one is flat
    assert all(type(t) is str for s in sequences for t in s)  # no NumPy strings in the vocabulary
    assert encode_lists(tags, "y_true").vocab == nerscore.EncodedTags.from_lists(expected).vocab


def test_lists_of_lists_pass_unchanged():
    """The common case costs one type check: the very lists come back."""
    assert tag_sequences(LISTS, "y_true") == (LISTS, False)
    assert tag_sequences(LISTS[0], "y_true")[0][0] is LISTS[0]


@pytest.mark.parametrize(("tags", "message"), [
    (np.array([[1, 0]]), r"`y_true` to be a str; token 0 of sentence 0 is int 1 \(an array of "
                         r"dtype int64\)\. Label ids need their vocabulary: nerscore\.EncodedTags"),
    ([np.array(["O"]), np.array([2], dtype=np.uint8)], r"token 0 of sentence 1 is int 2 \(an "
                                                       r"array of dtype uint8\)"),
    (np.array([[1.5]]), r"token 0 of sentence 0 is float 1\.5 \(an array of dtype float64\)\.$"),
    (np.array([True]), r"token 0 of sentence 0 is bool True"),
    (np.array([[b"B-X"]]), r"is bytes b'B-X' \(an array of dtype \|S3\)\. Decode bytes to str "
                           r"first"),
    (np.array([["B-X", None]], dtype=object), r"token 1 of sentence 0 is NoneType None\.$"),
    ([np.array(["O"]), np.array(["O", 3], dtype=object)], r"token 1 of sentence 1 is int 3\.$"),
    (np.array("B-X"), r"`y_true` to be a 1-D array of tags or a 2-D array with one row of tags "
                      r"per sentence; got an array of shape \(\)"),
    (np.zeros((1, 1, 1), dtype="<U1"), r"got an array of shape \(1, 1, 1\)"),
    ([["O"], np.array([["O"]])], r"item 1 of `y_true` to be a 1-D array of tags; got an array "
                                 r"of shape \(1, 1\)"),
])
def test_arrays_without_tag_strings_name_the_place_and_the_dtype(tags, message):
    with pytest.raises(InputTypeError, match=message):
        encode_lists(tags, "y_true")


def test_a_flat_sequence_is_no_sentence_where_sentences_are_required():
    with pytest.raises(InputTypeError, match=r"item 0 is str 'a'"):
        encode_lists(np.array(["a", "b"]), "tokens", one=False)
    assert encode_lists(np.array([["a", "b"]]), "tokens", one=False).to_lists() == [["a", "b"]]
