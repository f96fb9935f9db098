"""Surface forms and seen flags: a file's bytes give what its tokens as strings give."""

from __future__ import annotations

import contextlib
from unittest import mock

import numpy as np
from hypothesis import given, settings, strategies as st

from nerscore.analysis.surfaces import seen_flags, surfaces
from nerscore.io import _intern
from nerscore.io.conll import read_conll
from nerscore.values.spans import EntityColumns


def test_surfaces_of_file_tokens_equal_those_of_token_lists(tmp_path) -> None:
    path = tmp_path / "g.conll"
    path.write_text("New\tB-LOC\nYork\tI-LOC\n\nü b\tB-PER\n", encoding="utf-8")
    tokens = read_conll(path).tags.sentence_tokens()
    cols = EntityColumns([0, 0, 1], [0, 1, 0], [2, 2, 1], [0, 0, 1], ("LOC", "PER"), 2)
    assert surfaces(cols, tokens) == surfaces(cols, [list(t) for t in tokens]) == [
        "New York", "York", "ü b"]
    beyond = EntityColumns([1], [0], [2], [0], ("LOC",), 2)
    assert surfaces(beyond, tokens) is None
    assert surfaces(beyond, [list(t) for t in tokens]) is None


#: tokens sharing prefixes and lengths around the 8-byte words the bytes are hashed by
_TOKENS = ["a", "ab", "abcdefgh", "abcdefghi", "abcdefgh i", "ü", "üü", "Ann", "Ann Lee",
           "New-York-City", "x" * 17, "x" * 16]
_LABELS = ["PER", "LOC", "ORG"]


def _write(path, sentences: list[list[str]]) -> None:
    path.write_text("".join("".join(f"{t}\tO\n" for t in s) + "\n" for s in sentences),
                    encoding="utf-8")


@st.composite
def _side(draw: st.DrawFn) -> tuple[list[list[str]], EntityColumns]:
    sentences = draw(st.lists(st.lists(st.sampled_from(_TOKENS), min_size=1, max_size=5),
                              min_size=1, max_size=4))
    rows = draw(st.lists(st.tuples(st.integers(0, len(sentences) - 1), st.integers(0, 4),
                                   st.integers(1, 3), st.integers(0, 2)), max_size=12))
    seq, start, end, label = [], [], [], []
    for q, s, n, lab in rows:
        s = min(s, len(sentences[q]) - 1)
        seq.append(q), start.append(s), end.append(min(s + n, len(sentences[q])))
        label.append(lab)
    labels = tuple(draw(st.permutations(_LABELS)))  # each side numbers the labels its own way
    return sentences, EntityColumns(seq, start, end, label, labels, len(sentences))


@settings(max_examples=60, deadline=None)
@given(train=_side(), test=_side(), collide=st.booleans())
def test_seen_flags_of_file_bytes_equal_those_of_strings(tmp_path_factory, train, test,
                                                         collide):
    tmp = tmp_path_factory.mktemp("seen")
    (train_sents, train_cols), (test_sents, test_cols) = train, test
    _write(tmp / "train.conll", train_sents)
    _write(tmp / "test.conll", test_sents)
    files = [read_conll(tmp / f"{n}.conll").tags.sentence_tokens() for n in ("train", "test")]
    # a hash of the length alone: equal lengths collide, and the bytes must still decide
    with mock.patch.object(_intern, "_MULT", np.uint64(0)) if collide else contextlib.nullcontext():
        from_bytes = seen_flags((train_cols, files[0]), (test_cols, files[1]))
    from_strings = seen_flags((train_cols, train_sents), (test_cols, test_sents))
    mixed = seen_flags((train_cols, files[0]), (test_cols, test_sents))
    known = set(zip(surfaces(train_cols, train_sents),
                    [train_cols.labels[k] for k in train_cols.label.tolist()], strict=True))
    expected = [(f, test_cols.labels[k]) in known for f, k in zip(
        surfaces(test_cols, test_sents), test_cols.label.tolist(), strict=True)]
    for found in (from_bytes, from_strings, mixed):
        assert found is not None
        assert found[0] is not None
        assert found[0].tolist() == expected


def test_unknown_surface_forms_give_none():
    cols = EntityColumns([0], [0], [2], [0], ("PER",), 1)
    short = EntityColumns([0], [0], [1], [0], ("PER",), 1)
    assert seen_flags((cols, [["a"]]), (short, [["a"]])) is None  # train's entity past its text
    assert seen_flags((short, [["a"]]), (cols, [["a"]]), (short, None)) == [None, None]
    found = seen_flags((short, None), (short, [["a"]]))
    assert found is None
