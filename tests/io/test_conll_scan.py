"""The CoNLL scanner: the one-delimiter fast path gives what splitting into words gives."""

from __future__ import annotations

import dataclasses
import io

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from nerscore.errors import FormatError
from nerscore.io import _conll_blocks, _conll_lines, _conll_scan
from nerscore.io._conll_lines import ScanOptions
from nerscore.io._conll_scan import parse_blocks, scan_block
from nerscore.io.conll import ConllChunks, iter_conll, read_conll


def _options(**kw: object) -> ScanOptions:
    base: dict[str, object] = {"source": "x.conll", "token_column": 0, "label_column": -1,
                               "comments": False, "docstart": "-DOCSTART-", "encoding": "utf-8"}
    base.update(kw)
    return ScanOptions(**base)  # type: ignore[arg-type]


def _resolved(scan: _conll_scan.Scan) -> dict[str, object]:
    """Everything a scan holds, with the lazily computed columns computed."""
    out: dict[str, object] = {
        "offsets": scan.offsets.tolist(), "lines": scan.lines.tolist(),
        "documents": scan.documents.tolist(), "n_comments": scan.n_comments,
        "n_tokens": scan.n_tokens, "counts": dict(scan.counts),
    }
    for key, found in scan.columns.items():
        value = found() if callable(found) else found
        out[key] = str(value) if isinstance(value, FormatError) else [
            np.asarray(x).tolist() for x in value]
    return out


def _both(data: bytes, monkeypatch: pytest.MonkeyPatch, delimiter: str = "auto",
          **kw: object) -> tuple[dict[str, object], dict[str, object], bool]:
    opt = _options(**kw)
    fast_taken = _conll_lines.delimited_lines(np.frombuffer(data, dtype=np.uint8)) is not None
    fast = _resolved(scan_block(data, 0, len(data), 1, opt, delimiter, False))
    with monkeypatch.context() as m:
        m.setattr(_conll_scan, "delimited_lines", lambda b: None)
        words = _resolved(scan_block(data, 0, len(data), 1, opt, delimiter, False))
    return fast, words, fast_taken


@pytest.mark.parametrize("text", [
    "Jonas\tB-PER\nleft\tO\n\nx\tO\n",
    "Jonas B-PER\r\nleft O\r\n\r\nx O\r\n",
    "\nJonas NNP B-NP B-PER\nleft VBD B-VP O\n\n",
    "-DOCSTART- -X- -X- O\n\nEU NNP B-NP B-ORG\n",
    "a\tO\nb\tO",                     # no newline at the end
])
def test_fast_path_takes_one_delimiter_blocks(text, monkeypatch):
    fast, words, taken = _both(text.encode(), monkeypatch)
    assert taken
    assert fast == words


@pytest.mark.parametrize("text", [
    "Jonas  B-PER\nleft O\n",        # two spaces
    "Jonas B-PER \nleft O\n",        # trailing space
    " Jonas B-PER\n",                # leading space
    "New York\tB-LOC\nx\tO\n",       # a space inside a tab-separated field
    "a b O\nc O\n",                  # lines of different lengths
    "a O\n  \nb O\n",                # a blank line of spaces
    "a\rO\n",                        # a carriage return inside a line
    "a\x0bO\n",                      # other whitespace
    "a\t\tO\nb\t\tO\n",              # an empty field
    "a\nb\n",                        # one column
])
def test_fast_path_leaves_other_blocks_to_the_word_split(text, monkeypatch):
    fast, words, taken = _both(text.encode(), monkeypatch)
    assert not taken
    assert fast == words


@pytest.mark.parametrize(("delimiter", "token_column", "label_column"), [
    ("auto", 0, -1), ("tab", 0, -1), ("space", 0, -1), ("auto", 1, 3), ("auto", -4, 0),
    ("auto", 0, 5), ("auto", 2, 2), ("tab", 0, 1),
])
def test_fast_path_columns_and_errors(delimiter, token_column, label_column, monkeypatch):
    for text in ("a NN B-NP B-X\nb NN I-NP O\n", "a\tNN\tB-NP\tB-X\r\n\r\nb\tNN\tI-NP\tO\r\n"):
        fast, words, taken = _both(text.encode(), monkeypatch, delimiter,
                                   token_column=token_column, label_column=label_column)
        assert taken
        assert fast == words


_WORDS = st.text(st.sampled_from("ab-XÜ#"), min_size=1, max_size=10)
_LABELS = st.sampled_from(["O", "B-PER", "I-PER", "B-LONGLABEL", "I-X"])


@st.composite
def delimited_texts(draw: st.DrawFn) -> bytes:
    """Mostly well-formed one-delimiter files, with the occasional defect."""
    n_cols = draw(st.integers(1, 4))
    sep = draw(st.sampled_from([" ", "\t"]))
    lines = []
    for _ in range(draw(st.integers(0, 30))):
        kind = draw(st.sampled_from(["token"] * 8 + ["blank", "docstart", "comment", "odd"]))
        if kind == "blank":
            lines.append("")
        elif kind == "docstart":
            lines.append(sep.join(["-DOCSTART-"] + ["O"] * (n_cols - 1)))
        elif kind == "comment":
            lines.append("# " + draw(_WORDS))
        elif kind == "odd":
            lines.append(draw(st.sampled_from([" ", "a  O", "a O ", "a\tb O", "x"])))
        else:
            lines.append(sep.join([draw(_WORDS) for _ in range(n_cols - 1)] + [draw(_LABELS)]))
    eol = draw(st.sampled_from(["\n", "\r\n"]))
    text = eol.join(lines) + draw(st.sampled_from(["", eol, eol + eol]))
    return text.encode("utf-8")


@settings(max_examples=300, deadline=None)
@given(delimited_texts(), st.booleans(), st.sampled_from(["auto", "tab", "space"]))
def test_fast_path_equals_word_split(data, comments, delimiter):
    with pytest.MonkeyPatch.context() as monkeypatch:
        fast, words, _ = _both(data, monkeypatch, delimiter, comments=comments)
    assert fast == words


@settings(max_examples=100, deadline=None)
@given(delimited_texts(), st.integers(1, 64))
def test_bytes_stream_like_text_stream(data, block_size):
    """Bytes kept as read (checked as UTF-8) read like the same text decoded first."""
    text = data.decode("utf-8")

    def read(source: io.IOBase) -> object:
        try:
            return [(s.tokens, s.labels, s.lines, s.document)
                    for s in iter_conll(source, block_size=block_size)]
        except FormatError as exc:
            return str(exc)

    assert read(io.BytesIO(data)) == read(io.StringIO(text))


def test_bytes_stream_drops_a_split_byte_order_mark_and_names_bad_lines():
    data = b"\xef\xbb\xbfa O\n\nb B-X\n"
    for size in (1, 2, 3, 4, 100):
        sents = list(iter_conll(io.BytesIO(data), block_size=size))
        assert [s.tokens for s in sents] == [("a",), ("b",)]
    bad = b"a O\n\nb O\n\nc O\n\nd\xff O\n"
    for size in (1, 5, 100):
        with pytest.raises(FormatError, match=r"byte 0xff .*line 7") as info:
            list(iter_conll(io.BytesIO(bad), block_size=size))
        assert info.value.line == 7


def test_blocks_without_a_blank_line_in_the_last_64_kib(tmp_path):
    """Blocks end at blank lines found past the window searched first."""
    sentence = "\n".join(f"w{i} O" for i in range(20_000)) + "\n\n"
    path = tmp_path / "long.conll"
    path.write_bytes((sentence * 3).encode())
    streamed = iter_conll(path, block_size=100_000)
    assert [len(s.labels) for s in streamed] == [20_000] * 3
    data = path.read_bytes()
    for text, blank in ((data, b"\n\n"), (data.replace(b"\n", b"\r\n"), b"\n\r\n")):
        stops, start = [], 0
        while start < len(text):  # the first blank line at least 1 KiB on, searched plainly
            found = text.find(blank, start + (1 << 10))
            start = len(text) if found < 0 else found + 1
            stops.append(start)
        assert [stop for _, stop, _ in _conll_blocks.block_spans(text, 1 << 10)] == stops
        assert len(stops) == 4
    assert len(read_conll(path)) == 3


def test_parse_blocks_of_a_fast_block_choose_a_delimiter():
    data = b"a\tB-X\nb\tO\n\nc\tO\n"
    scan = scan_block(data, 0, len(data), 1, _options(), "auto", False)
    (block,), delimiter = parse_blocks([scan], "auto")
    assert delimiter == "space"  # tabs and whitespace give the same columns
    assert block.vocab == ("B-X", "O")
    assert block.ids.tolist() == [0, 1, 1]


def test_file_positions_are_32_bit_below_2_gib_and_64_bit_past_it():
    data = b"a\tB-X\nbb\tO\n"
    scan = scan_block(data, 0, len(data), 1, _options(), "auto", False)
    near = dataclasses.replace(scan, start=2**31 - len(data) - 1)
    past = dataclasses.replace(scan, start=2**31 + 5)
    for moved, dtype in ((near, np.int32), (past, np.int64)):
        (block,), _ = parse_blocks([moved], "auto")
        assert block.token_start.dtype == dtype
        assert (block.token_start - moved.start).tolist() == [0, 6]
        assert (block.label_end - moved.start).tolist() == [5, 10]


def test_assembling_empties_the_list_of_blocks():
    data = b"a B-X\n\nb O\n"
    scan = scan_block(data, 0, len(data), 1, _options(), "auto", False)
    blocks, delimiter = parse_blocks([scan], "auto")
    corpus = _conll_scan.assemble(blocks, data, "x.conll", delimiter)
    assert blocks == []
    assert corpus.to_lists() == [["B-X"], ["O"]]
    assert list(corpus.tokens) == ["a", "b"]


def test_interning_tokens_equals_interning_labels() -> None:
    """Tokens (many distinct strings, one hash sort) are numbered as labels (few) are."""
    import random

    import numpy as np

    from nerscore.io._bytes import intern_ranges
    from nerscore.io._intern import intern_tokens

    rng = random.Random(0)
    words = [rng.choice(["O", "B-PER", "a-rather-long-token-x", "ü", "", f"tok{rng.randrange(200)}"])
             for _ in range(3000)]
    data = " ".join(words).encode("utf-8")
    lens = [len(w.encode("utf-8")) for w in words]
    starts = np.cumsum([0, *(n + 1 for n in lens[:-1])])
    ends = starts + np.array(lens)
    b = np.frombuffer(data, dtype=np.uint8)
    ids, vocab = intern_tokens(b, starts, ends)
    assert [vocab[i] for i in ids.tolist()] == words
    assert vocab == tuple(dict.fromkeys(words))
    assert (ids == intern_ranges(b, starts, ends)[0]).all()


def test_a_long_line_is_quoted_short_in_the_column_error(tmp_path) -> None:
    path = tmp_path / "one_column.conll"
    path.write_text("A" * 1_000_000 + "\n", encoding="utf-8")
    with pytest.raises(FormatError) as info:
        read_conll(path)
    message = str(info.value)
    assert f"has 1 column ('{'A' * 60}'... (1000000 characters), split at whitespace)" in message
    assert len(message) < 600


def test_no_token_line_in_a_block_of_delimited_lines() -> None:
    """A block of -DOCSTART- lines only has no columns to look for (label column 2)."""
    data = b"-DOCSTART- O\n\n" * 3 + b"a\tN\tO\n"
    assert read_conll(io.BytesIO(data), label_column=2).to_lists() == [["O"]]
    chunks = ConllChunks(io.BytesIO(data), block_size=8, label_column=2)
    assert [s for c in chunks for s in c.to_lists()] == [["O"]]
