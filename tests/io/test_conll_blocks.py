"""A CoNLL file read block by block fails with the error of the whole file, word for word."""

from __future__ import annotations

import io
import itertools

import pytest
from hypothesis import given, settings, strategies as st

from nerscore.errors import FormatError
from nerscore.io import _conll_source
from nerscore.io._conll_blocks import WholeBlocks, block_spans
from nerscore.io.conll import ConllChunks, read_conll

GOOD = b"c N O\n\n"


def _error(read):
    with pytest.raises(FormatError) as info:
        read()
    return info.value


def _same_error(data, block_sizes=(8, 64, 1 << 20), **options):
    """The chunks' error at every block size is read_conll's: message, type and attributes."""
    whole = _error(lambda: read_conll(io.BytesIO(data), **options))
    for size in block_sizes:
        chunks = ConllChunks(io.BytesIO(data), chunk_size=2, block_size=size, **options)
        streamed = _error(lambda chunks=chunks: list(chunks))
        assert chunks.is_file_error(streamed)
        assert type(streamed) is type(whole)
        assert (str(streamed), vars(streamed)) == (str(whole), vars(whole))
    return whole


@pytest.mark.parametrize("encoding", ["utf-8", "cp1252", "utf-16"])
def test_a_late_encoding_error_comes_before_an_early_line_without_a_label(encoding):
    text = b"a N O\n\nb\n\n" + GOOD * 30 + b"d N BAD\n"
    data = text.decode().encode(encoding)
    bad = {"utf-8": b"\xe9", "cp1252": b"\x81", "utf-16": b"\x00\xd8"}[encoding]
    at = data.index("BAD".encode(encoding if encoding != "utf-16" else "utf-16-le"))
    error = _same_error(data[:at] + bad + data[at:], encoding=encoding)
    assert str(error).startswith("Cannot decode byte")
    assert error.line == 65


def test_a_late_line_without_a_label_is_named_by_its_file_line():
    error = _same_error(GOOD * 40 + b"d\n" + GOOD)
    assert error.line == 81
    assert "line 81 of the input has 1 column ('d'" in str(error)


def test_label_column_missing_on_some_lines():
    data = b"a N O\n" + GOOD * 20 + b"b N\n\n" + GOOD * 5
    error = _same_error(data, label_column=2)
    assert error.line == 42


@pytest.mark.parametrize(("whole_block", "first"), [(1 << 22, "line 35 of"),
                                                     (100, "Empty label column at line 11")])
def test_tabs_a_block_of_the_whole_file_names_its_missing_column_first(
        monkeypatch, whole_block, first):
    """Read whole, a block's line without the asked column comes before its empty field.

    In one block of the whole file, the missing column of line 35 is its
    error; cut between the two lines, the block of line 11 fails first.
    """
    monkeypatch.setattr(_conll_source, "BLOCK_SIZE", whole_block)
    good = b"a\tN\tO\n\n"
    data = good * 5 + b"b\tN\t \tx\n\n" + good * 11 + b"c\tO\n\n" + good * 3
    error = _same_error(data, column_delimiter="tab", label_column=2)
    assert first in str(error)


def test_later_lines_choosing_another_delimiter_are_not_the_files_error():
    """Read whole, this file is split at whitespace and reads; its first block alone, at tabs."""
    data = b"New York\tN\n\n" + b"x y O\n" * 8
    assert read_conll(io.BytesIO(data), label_column=2).to_lists() == [["N"], ["O"] * 8]
    chunks = ConllChunks(io.BytesIO(data), block_size=8, label_column=2)
    error = _error(lambda: list(chunks))
    assert not chunks.is_file_error(error)
    assert "Cannot tell the column delimiter of the input" in str(error)


# ------------------------------------------------------------------------- property


_LINES = st.sampled_from([
    b"w X O", b"w\tX\tO", b"v B-PER", b"v\tI-PER", b"q O", b"w X O", b"", b"", b"",
    b"-DOCSTART- O", b"tok", b"a\tb\tc", b"a b\tB-X", b"w \xff X", b"x  y   O", b"t\tO",
    b"# c", b"a\t\tO", b"a\tN\t \tx", b"a\tN\tO\tP",
])


@settings(max_examples=300, deadline=None)
@given(lines=st.lists(_LINES, min_size=1, max_size=40), eol=st.sampled_from([b"\n", b"\r\n"]),
       delimiter=st.sampled_from(["auto", "tab", "space"]), label=st.sampled_from([-1, 1, 2]),
       comments=st.booleans(), whole_block=st.sampled_from([1, 16, 64, 1 << 22]),
       block=st.sampled_from([1, 8, 40, 1 << 20]), encoding=st.sampled_from(["utf-8", "cp1252"]))
def test_chunks_fail_as_the_whole_file(lines, eol, delimiter, label, comments, whole_block,
                                       block, encoding):
    data = eol.join(lines) + eol
    options = dict(column_delimiter=delimiter, label_column=label, comments=comments,
                   encoding=encoding)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(_conll_source, "BLOCK_SIZE", whole_block)
        whole = _raised(lambda: read_conll(io.BytesIO(data), **options))
        chunks = ConllChunks(io.BytesIO(data), chunk_size=3, block_size=block, **options)
        streamed = _raised(lambda: list(chunks))
    if streamed is None or chunks.is_file_error(streamed):  # else it says the delimiter changed
        assert _said(streamed) == _said(whole)


def _raised(read):
    try:
        read()
    except FormatError as exc:
        return exc
    return None


def _said(error):
    return None if error is None else (type(error), str(error), vars(error))


@settings(max_examples=200, deadline=None)
@given(sentences=st.lists(st.integers(1, 5), min_size=1, max_size=30),
       size=st.integers(1, 80), cuts=st.sets(st.integers(0, 29)),
       eol=st.sampled_from([b"\n", b"\r\n"]))
def test_whole_blocks_are_the_blocks_of_the_whole_file(sentences, size, cuts, eol):
    """Fed at any blank lines, the cuts are where read_conll cuts the whole text."""
    data = b"".join((b"tok O" + eol) * n + eol for n in sentences)
    # the streaming reader cuts a block after the newline that starts a blank line
    starts = [k + 1 for k in range(len(data)) if data.startswith(b"\n" + eol, k)]
    pieces = [0, *sorted(starts[k] for k in cuts if k < len(starts)), len(data)]
    blocks, found = WholeBlocks(size), []
    for a, b in itertools.pairwise(pieces):
        found += [a + c for c in blocks.feed(data[a:b])]
    assert found == [start for start, _, _ in block_spans(data, size)][1:]
