"""CoNLL reading, streaming, writing and the gold/prediction alignment checks."""

from __future__ import annotations

import codecs
import io
import re

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import nerscore
from nerscore.errors import FormatError, InvalidTagError, LengthMismatchError
from nerscore.io import _bytes, _conll_align, _conll_source, conll
from nerscore.io.conll import (
    ConllCorpus,
    Sentence,
    check_aligned,
    iter_conll,
    read_conll,
    write_conll,
)
from tests.paths import TESTS

DATA = TESTS / "data" / "conll"

GOLD_LABELS = [
    ["B-PER", "I-PER", "O", "O", "B-LOC", "I-LOC", "O"],
    ["O", "O", "O", "B-ORG", "I-ORG", "O"],
    ["B-LOC", "O"],
]
PRED_LABELS = [
    ["B-PER", "I-PER", "O", "O", "B-LOC", "I-LOC", "O"],
    ["O", "O", "O", "B-MISC", "I-MISC", "O"],
    ["B-LOC", "O"],
]


def read_text(text: str, **kwargs: object) -> ConllCorpus:
    return read_conll(io.StringIO(text), **kwargs)  # type: ignore[arg-type]


def reference_read(text: str, *, label_column: int = -1, docstart: bool = True) -> list[list[str]]:
    """A deliberately simple line-by-line reader to compare the fast one with."""
    sents: list[list[str]] = []
    cur: list[str] = []
    for line in text.replace("\r\n", "\n").split("\n"):
        fields = line.split()
        if not fields or (docstart and fields[0] == "-DOCSTART-"):
            if cur:
                sents.append(cur)
                cur = []
            continue
        cur.append(fields[label_column])
    if cur:
        sents.append(cur)
    return sents


# ------------------------------------------------------------------------------------ reading


def test_reads_gold_file_with_docstart_lines_and_tokens():
    corpus = read_conll(DATA / "gold.conll")
    assert corpus.to_lists() == GOLD_LABELS
    assert corpus.source == str(DATA / "gold.conll")
    assert corpus.n_sentences == 3
    assert corpus.n_tokens == 15
    assert corpus.tokens[1] == "Müller"
    assert corpus.lines.tolist()[:2] == [3, 4]  # line 1 is -DOCSTART-, line 2 blank
    assert corpus.documents.tolist() == [0]
    assert corpus.column_delimiter == "space"
    assert corpus.notes() == (f"{DATA / 'gold.conll'}: 1 -DOCSTART- line read as document "
                              "boundary",)
    s = corpus[1]
    assert s == Sentence(("He", "works", "for", "Acme", "Corp", "."),
                         ("O", "O", "O", "B-ORG", "I-ORG", "O"))
    assert s.lines == (11, 12, 13, 14, 15, 16)
    assert (s.index, s.document, s.source) == (1, 0, str(DATA / "gold.conll"))
    assert corpus[-1].labels == ("B-LOC", "O")
    assert [len(x) for x in corpus] == [7, 6, 2]
    with pytest.raises(IndexError, match="out of range for 3 sentences"):
        corpus[3]


def test_messy_file_reads_like_the_clean_one():
    """BOM, CRLF, mixed tab/space columns, trailing whitespace."""
    messy = read_conll(DATA / "pred_messy.conll")
    clean = read_conll(DATA / "pred.conll")
    expected = [s[:] for s in PRED_LABELS]
    expected[0][0] = "I-PER"
    assert messy.to_lists() == expected
    assert clean.to_lists() == PRED_LABELS
    assert messy.tokens[0] == "Jonas"  # no BOM in the first token
    assert messy.tokens[5] == "York"
    assert messy.column_delimiter == "space"  # not every line has a tab
    assert messy.lines.tolist() == clean.lines.tolist()


def test_tags_carry_file_lines_into_decoding_errors():
    corpus = read_text("a B-X\nb S-X\n\nc O\n")
    corpus = read_conll(DATA / "invalid_iob2.conll")
    with pytest.raises(InvalidTagError, match=r"Invalid tag 'line' at token 0 \('#'\) of "
                       r"sentence 0 \(.*invalid_iob2.conll, line 1\)") as info:
        nerscore.evaluate(corpus.tags, corpus.tags)
    assert info.value.line == 1
    assert "line 10" in corpus.tags.describe(8)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("", []),
        ("\n\n  \n\t\n", []),
        ("a O", [["O"]]),  # no final newline
        ("a O\n\n\n\nb B-X\n", [["O"], ["B-X"]]),
        ("a O\n \t \nb B-X\n", [["O"], ["B-X"]]),  # whitespace-only line is blank
        ("  a   O  \n", [["O"]]),
        ("a O\r\n\r\nb B-X\r\n", [["O"], ["B-X"]]),
        ("a O\rb B-X\r\rc O\r", [["O", "B-X"], ["O"]]),  # old Mac line endings
        ("\ufeffa O\n", [["O"]]),
        ("-DOCSTART- O\na O\n-DOCSTART- O\nb O\n", [["O"], ["O"]]),
    ],
)
def test_line_and_whitespace_variants(text, expected):
    corpus = read_text(text)
    assert corpus.to_lists() == expected
    if expected:
        assert corpus.tokens[0] == "a"


def test_empty_input_gives_an_empty_corpus():
    corpus = read_text("")
    assert (len(corpus), corpus.n_tokens, corpus.notes()) == (0, 0, ())
    assert corpus.tags.offsets.tolist() == [0]


def test_docstart_lines_are_boundaries_and_counted():
    text = "-DOCSTART- -X- O\n\na O\nb O\n-DOCSTART- -X- O\nc B-X\n\nd O\n"
    corpus = read_text(text)
    assert corpus.to_lists() == [["O", "O"], ["B-X"], ["O"]]
    assert corpus.documents.tolist() == [0, 1]
    assert [s.document for s in corpus] == [0, 1, 1]
    assert corpus.notes() == ("2 -DOCSTART- lines read as document boundaries",)
    as_tokens = read_text(text, docstart=None)
    assert as_tokens.n_tokens == 6
    assert as_tokens.documents.tolist() == []


def test_comments_are_skipped_only_when_asked():
    text = "# sent_id = 1\na O\n# inside\nb B-X\n\n#\tO\n"
    assert read_text(text).to_lists() == [["1", "O", "inside", "B-X"], ["O"]]
    corpus = read_text(text, comments=True)
    assert corpus.to_lists() == [["O", "B-X"]]
    assert corpus.lines.tolist() == [2, 4]
    assert corpus.n_comments == 3
    assert corpus.notes() == ("3 comment lines skipped",)


@pytest.mark.parametrize(
    ("token_column", "label_column", "tokens", "labels"),
    [
        (0, -1, ["w1", "w2"], ["P1", "P2"]),
        (0, 2, ["w1", "w2"], ["G1", "G2"]),
        (0, -2, ["w1", "w2"], ["G1", "G2"]),
        (1, 0, ["N1", "N2"], ["w1", "w2"]),
        (-1, 1, ["P1", "P2"], ["N1", "N2"]),
    ],
)
def test_columns_are_selectable(token_column, label_column, tokens, labels):
    corpus = read_text("w1 N1 G1 P1\nw2 N2 G2 P2\n", token_column=token_column,
                       label_column=label_column)
    assert list(corpus.tokens) == tokens
    assert corpus.to_lists() == [labels]


def test_missing_column_names_file_and_line():
    with pytest.raises(FormatError, match=r"line 4 of .*pred_one_column.conll has 1 column "
                       r"\('in', split at whitespace\)") as info:
        read_conll(DATA / "pred_one_column.conll")
    assert info.value.line == 4
    assert info.value.source == str(DATA / "pred_one_column.conll")
    with pytest.raises(FormatError, match=r"line 2 of the input has 3 columns"):
        read_text("a b c d\ne f g\n", label_column=3)
    with pytest.raises(FormatError, match="--token-column/--label-column"):
        read_text("a b\n", token_column=1, label_column=-1)


def test_tab_files_keep_spaces_inside_tokens():
    corpus = read_conll(DATA / "tab_spaces.conll")
    assert corpus.column_delimiter == "tab"
    assert list(corpus.tokens) == ["New York", "is", "San  Francisco"]
    assert corpus.to_lists() == [["B-LOC", "O"], ["B-LOC"]]
    spaced = read_conll(DATA / "tab_spaces.conll", column_delimiter="space")
    assert list(spaced.tokens) == ["New", "is", "San"]
    assert spaced.to_lists() == [["B-LOC", "O"], ["B-LOC"]]


def test_tab_mode_fields_are_trimmed_and_empty_fields_are_errors():
    corpus = read_text(" a \t N \t B-X \r\nb\tN\tO\t\n", column_delimiter="tab")
    assert list(corpus.tokens) == ["a", "b"]
    assert corpus.to_lists() == [["B-X", "O"]]
    # the empty column keeps the label in the third column
    corpus = read_text("a\t\tB-X\nb\tN\tO\n", column_delimiter="tab", label_column=2)
    assert corpus.to_lists() == [["B-X", "O"]]
    with pytest.raises(FormatError, match=r"Empty label column at line 2 of the input"):
        read_text("a\tN\tO\nb\tN\t \tx\n", column_delimiter="tab", label_column=2)
    with pytest.raises(FormatError, match=r"line 1 of the input has 1 column"):
        read_text("a O\n", column_delimiter="tab")


def test_a_line_of_one_column_starting_with_a_hash_names_the_comments_option():
    with pytest.raises(FormatError, match=r"has 1 column \('#c'.*If the line is a comment, skip "
                                          r"comment lines with `comments=True`"):
        read_text("#c\na O\n")
    with pytest.raises(FormatError) as info:
        read_text("a\nb O\n")
    assert "comment" not in str(info.value)


def test_a_webanno_tsv_file_read_as_conll_names_its_format():
    head = "#FORMAT=WebAnno TSV 3.3\n#T_SP=webanno.custom.Ner|value\n\n\n#Text=Ann\n"
    for text in (head, "\ufeff" + head):
        with pytest.raises(FormatError) as info:
            read_text(text + "1-1\t0-3\tAnn\tPER\n", comments=False)
        assert str(info.value).endswith("The file is WebAnno TSV (its first line says so): read "
                                        "it as format 'webanno' (--gold-format webanno, "
                                        "--pred-format webanno, ...).")
    with pytest.raises(FormatError) as info:  # not for a '#FORMAT=' line further on
        read_text("a O\n\n" + head)
    assert "WebAnno" not in str(info.value)


def test_auto_delimiter_is_decided_per_file():
    assert read_text("a b\tO\nc\tB-X\n").column_delimiter == "tab"
    assert read_text("a b\tO\nc\tB-X\n").tokens[0] == "a b"
    mixed = read_text("a b\tO\nc B-X\n")
    assert mixed.column_delimiter == "space"
    assert mixed.to_lists() == [["O", "B-X"]]


def test_auto_delimiter_looks_at_the_whole_file(monkeypatch):
    # blocks vote; a later block without tabs makes the whole file space-separated
    monkeypatch.setattr(_conll_source, "BLOCK_SIZE", 8)
    text = "a\tO\nb\tO\n\nc d O\n\ne\tB-X\n"
    corpus = read_text(text)
    assert corpus.column_delimiter == "space"
    assert corpus.to_lists() == [["O", "O"], ["O"], ["B-X"]]
    assert list(corpus.tokens) == ["a", "b", "c", "e"]
    # a column holding a space early in the file makes the whole file tab-separated
    corpus = read_text("New York\tB-LOC\n\nx\tO\n\ny\tO\n")
    assert corpus.column_delimiter == "tab"
    assert list(corpus.tokens) == ["New York", "x", "y"]
    streamed = list(iter_conll(io.StringIO("New York\tB-LOC\n\nx\tO\n"), block_size=4))
    assert [s.tokens for s in streamed] == [("New York",), ("x",)]
    # the same columns either way: whitespace (mixed files stay readable)
    corpus = read_text("Jonas\tNNP B-PER\nleft \tVBD\tO\n")
    assert corpus.column_delimiter == "space"
    assert corpus.to_lists() == [["B-PER", "O"]]
    # an empty tab column on every line: tabs
    corpus = read_text("Jonas\t\tB-PER\nleft\t\tO\n", label_column=2)
    assert corpus.column_delimiter == "tab"
    assert corpus.to_lists() == [["B-PER", "O"]]


def test_encodings():
    latin = DATA / "pred_latin1.conll"
    with pytest.raises(FormatError, match=r"Cannot decode byte 0xfc as utf-8 \(.*"
                       r"pred_latin1.conll, line 2\).*`encoding` option \(--encoding") as info:
        read_conll(latin)
    assert info.value.line == 2
    corpus = read_conll(latin, encoding="latin-1")
    assert corpus.tokens[1] == "Müller"
    assert corpus.to_lists() == PRED_LABELS
    for codec in ("no-such-codec", "rot13", "base64", "idna", "punycode"):
        with pytest.raises(ValueError, match="Expected `encoding` to be a text encoding"):
            read_conll(latin, encoding=codec)


@pytest.mark.parametrize("stream", [False, True])
def test_utf16_without_byte_order_mark(tmp_path, stream):
    path = tmp_path / "be.conll"
    path.write_bytes("Anna B-PER\nlebt O\n\n".encode("utf-16-be"))

    def read(encoding):
        if stream:
            return [list(s.labels) for s in iter_conll(path, encoding=encoding)]
        return read_conll(path, encoding=encoding).to_lists()

    with pytest.raises(FormatError) as info:  # not read in the machine's byte order
        read("utf-16")
    assert str(info.value) == (
        f"Cannot decode the file as utf-16 ({path}, line 1): UTF-16 stream does not start with "
        "BOM. Pass its encoding with the `encoding` option (--encoding on the command line), "
        "e.g. encoding='utf-16-le' or encoding='utf-16-be' for UTF-16 without a byte order mark.")
    assert (info.value.source, info.value.line) == (str(path), 1)
    assert read("utf-16-be") == [["B-PER", "O"]]


def test_utf16_and_file_objects(tmp_path):
    path = tmp_path / "u16.conll"
    path.write_text("Müller B-PER\n\nx O\n", encoding="utf-16")
    corpus = read_conll(path, encoding="utf-16")
    assert corpus.tokens[0] == "Müller"
    assert corpus.to_lists() == [["B-PER"], ["O"]]
    with open(path, "rb") as fh:
        assert read_conll(fh, encoding="utf-16").to_lists() == [["B-PER"], ["O"]]
    assert read_conll(io.BytesIO(b"a O\n")).to_lists() == [["O"]]


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"token_column": "0"}, "Expected `token_column` to be an integer"),
        ({"label_column": 1.0}, "Expected `label_column` to be an integer"),
        ({"column_delimiter": "comma"}, "Expected `column_delimiter` to be one of 'auto', "
                                        "'tab' or 'space'; got 'comma'"),
    ],
)
def test_option_errors(kwargs, message):
    with pytest.raises(ValueError, match=message):
        read_text("a O\n", **kwargs)


def test_missing_file_is_an_oserror(tmp_path):
    with pytest.raises(FileNotFoundError):
        read_conll(tmp_path / "nope.conll")


def test_many_and_long_labels_are_interned_exactly():
    labels = [f"B-LABEL_{i:03d}_{'x' * (i % 13)}" for i in range(150)] + ["O", "I-A", "B"]
    text = "".join(f"t{i} {lab}\n" for i, lab in enumerate(labels * 3))
    corpus = read_text(text)
    assert corpus.to_lists() == [labels * 3]
    assert corpus.tags.vocab == tuple(labels)  # first-occurrence order


def test_hash_collisions_fall_back_to_exact_keys(monkeypatch):
    # with a zero multiplier every key is the last 8-byte word: labels collide
    monkeypatch.setattr(_bytes, "GOLDEN", np.uint64(0))
    labels = ["AAAAAAAAB-SAME", "CCCCCCCCB-SAME", "O", "B-SAME"]
    corpus = read_text("".join(f"t {lab}\n" for lab in labels))
    assert corpus.to_lists() == [labels]


def test_control_characters_separate_columns():
    corpus = read_text("a\x0bX\nb\x00X\x00\nc\x0cX\n")
    assert corpus.to_lists() == [["X", "X", "X"]]
    assert list(corpus.tokens) == ["a", "b", "c"]


# ----------------------------------------------------------------------------- property test

_SEPS = st.sampled_from([" ", "  ", "\t", " \t", "\t "])
_WORDS = st.sampled_from(["a", "Müller", "東京", "#", "-X-", "x-y", "B-PER", "O", "."])
_LABELS = st.sampled_from(["O", "B-PER", "I-PER", "B-LOC", "I-ORG", "B-ARGM-LOC", "U-X",
                           "B-VERY_LONG_TYPE_NAME", "E"])


@st.composite
def conll_texts(draw):
    lines = []
    n_cols = draw(st.integers(2, 4))
    for _ in range(draw(st.integers(0, 25))):
        kind = draw(st.sampled_from(["token"] * 6 + ["blank", "space-blank", "docstart"]))
        if kind == "blank":
            lines.append("")
        elif kind == "space-blank":
            lines.append(draw(st.sampled_from([" ", "\t", " \t "])))
        elif kind == "docstart":
            lines.append("-DOCSTART- -X- O")
        else:
            fields = [draw(_WORDS) for _ in range(n_cols - 1)] + [draw(_LABELS)]
            line = "".join(f + draw(_SEPS) for f in fields[:-1]) + fields[-1]
            lines.append(draw(st.sampled_from(["", " ", "\t"])) + line
                         + draw(st.sampled_from(["", " ", "\t "])))
    eol = draw(st.sampled_from(["\n", "\r\n"]))
    return eol.join(lines) + draw(st.sampled_from(["", eol]))


@settings(max_examples=200, deadline=None)
@given(conll_texts(), st.integers(1, 40))
def test_fast_reader_equals_simple_reader(text, block_size):
    expected = reference_read(text)
    corpus = read_text(text, column_delimiter="space")
    assert corpus.to_lists() == expected
    streamed = list(iter_conll(io.StringIO(text), block_size=block_size,
                               column_delimiter="space"))
    assert [list(s.labels) for s in streamed] == expected
    assert [s.tokens for s in streamed] == [s.tokens for s in corpus]
    assert [s.lines for s in streamed] == [s.lines for s in corpus]
    assert [s.document for s in streamed] == [s.document for s in corpus]
    # the line numbers point at the lines the labels came from
    lines = text.replace("\r\n", "\n").split("\n")
    for s in corpus:
        for line, label in zip(s.lines, s.labels, strict=True):
            assert lines[line - 1].split()[-1] == label


_FIELDS = st.sampled_from(["a", "New York", "b  c", "Müller", "x"])


@settings(max_examples=150, deadline=None)
@given(st.lists(st.lists(_FIELDS, min_size=2, max_size=2), min_size=1, max_size=12),
       st.sets(st.integers(0, 11)), st.integers(1, 30))
def test_tab_files_read_like_a_tab_split(rows, blanks, block_size):
    lines, expected, cur = [], [], []
    for i, (token, mid) in enumerate(rows):
        label = f"B-{i}"
        lines.append(f"{token} \t{mid}\t {label}")
        cur.append((token, label))
        if i in blanks:
            lines.append("")
            expected.append(cur)
            cur = []
    expected += [cur] if cur else []
    text = "\n".join(lines) + "\n"
    for corpus in (read_text(text), read_text(text, column_delimiter="tab")):
        assert [list(zip(s.tokens, s.labels, strict=True)) for s in corpus] == expected
    streamed = iter_conll(io.StringIO(text), block_size=block_size, column_delimiter="tab")
    assert [list(zip(s.tokens, s.labels, strict=True)) for s in streamed] == expected


# ------------------------------------------------------------------------------- streaming


def test_iter_conll_streams_a_file(tmp_path):
    path = tmp_path / "x.conll"
    path.write_bytes(b"\xef\xbb\xbfa O\r\nb B-X\r\n\r\n-DOCSTART- O\r\n\r\nc I-Y\r\n\r\nd O")
    sents = list(iter_conll(path, block_size=3))
    assert [s.labels for s in sents] == [("O", "B-X"), ("I-Y",), ("O",)]
    assert [s.index for s in sents] == [0, 1, 2]
    assert [s.document for s in sents] == [None, 0, 0]
    assert [s.lines for s in sents] == [(1, 2), (6,), (8,)]
    assert sents[0].tokens == ("a", "b")
    assert sents[0].source == str(path)


def test_iter_conll_reports_decoding_errors_with_line(tmp_path):
    path = tmp_path / "x.conll"
    path.write_bytes(b"a O\n\nb O\n\nc\xe9 O\n")
    with pytest.raises(FormatError, match=r"x.conll, line 5"):
        list(iter_conll(path, block_size=4))
    with pytest.raises(ValueError, match="Expected `block_size` to be a positive integer"):
        list(iter_conll(path, block_size=0))


# ---------------------------------------------------------------------------- two files


def test_check_aligned_accepts_equal_tokens_and_notes_differences():
    gold = read_conll(DATA / "gold.conll")
    assert check_aligned(gold, read_conll(DATA / "pred.conll")) == ()
    (note,) = check_aligned(gold, read_conll(DATA / "pred_messy.conll"))
    assert note.startswith("2 of 15 tokens differ between ")
    assert ("the first is token 1 of sentence 0: 'Müller' (" in note)
    assert ("gold.conll, line 4) vs 'Muller' (" in note)
    assert ("pred_messy.conll, line 2)" in note)


def test_strict_tokens_makes_a_difference_an_error():
    gold = read_conll(DATA / "gold.conll")
    with pytest.raises(FormatError, match=r"Token 1 of sentence 0 differs between the files: "
                       r"'Müller' \(.*gold.conll, line 4\) vs 'Muller' \(.*pred_messy.conll, "
                       r"line 2\); 2 of 15 tokens differ") as info:
        check_aligned(gold, read_conll(DATA / "pred_messy.conll"), strict_tokens=True)
    assert info.value.line == 2


def test_check_aligned_names_the_sentence_and_both_lengths():
    gold = read_conll(DATA / "gold.conll")
    with pytest.raises(LengthMismatchError, match=r"Sentence 1 has 6 tokens in .*gold.conll "
                       r"\(lines 11-16\) but 5 in .*pred_short_sentence.conll \(lines 9-13\)"
                       ) as info:
        check_aligned(gold, read_conll(DATA / "pred_short_sentence.conll"))
    assert (info.value.sentence, info.value.expected, info.value.actual) == (1, 6, 5)
    with pytest.raises(LengthMismatchError, match=r"gold.conll has 3 sentences but .*"
                       r"pred_missing_sentence.conll has 2") as info:
        check_aligned(gold, read_conll(DATA / "pred_missing_sentence.conll"))
    assert (info.value.expected, info.value.actual) == (3, 2)


def test_check_aligned_points_at_the_first_length_difference():
    gold = read_text("a O\nb O\n\nc O\n\nd O\n")
    pred = read_text("a O\n\nb O\n\nc O\n\nd O\n")
    with pytest.raises(LengthMismatchError, match=r"has 3 sentences but prediction has 4.*"
                       r"sentence 0: 2 tokens in gold \(lines 1-2\) vs 1 in prediction "
                       r"\(line 1\)"):
        check_aligned(gold, pred)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(st.text("ab\u00e9", min_size=1, max_size=20),
                          st.text("ab\u00e9", min_size=1, max_size=20)), max_size=30))
def test_differing_tokens_are_found_word_by_word(pairs):
    gold = read_text("".join(f"{g} O\n" for g, _ in pairs))
    pred = read_text("".join(f"{p} O\n" for _, p in pairs))
    differ = _conll_align._differing_fields(gold._text, pred._text)  # type: ignore[arg-type]
    assert differ.tolist() == [i for i, (g, p) in enumerate(pairs) if g != p]


# ------------------------------------------------------------------------------- rewriting


def test_replace_labels_keeps_everything_else():
    path = DATA / "pred_messy.conll"
    corpus = read_conll(path)
    labels = corpus.to_lists()
    labels[0][0] = "B-PER"
    labels[2][0] = "B-GPE"
    text, n = corpus.replace_labels(labels)
    original = path.read_bytes().decode("utf-8")
    assert original.startswith("\ufeff")  # the byte-order mark is kept too
    assert n == 2
    assert text == original.replace("Jonas\tNNP\tI-PER", "Jonas\tNNP\tB-PER").replace(
        "Paris NNP B-LOC", "Paris NNP B-GPE")
    assert read_text(text).to_lists() == labels


def test_replace_labels_checks_shape_and_labels():
    corpus = read_text("a O\nb O\n")
    with pytest.raises(LengthMismatchError, match="Sentence 0 has 2 tokens in the corpus but 1"):
        corpus.replace_labels([["O"]])
    with pytest.raises(InvalidTagError, match="^Cannot write the label 'B X' of token 1 "
                                              r"\('b'\) of sentence 0 \(line 2\) to a CoNLL"):
        corpus.replace_labels([["O", "B X"]])


def test_replace_labels_names_where_a_label_cannot_be_written(tmp_path):
    path = tmp_path / "g.conll"
    path.write_text("a O\n\nb O\nc O\n", encoding="utf-8")
    corpus = read_conll(path)
    with pytest.raises(InvalidTagError) as info:
        corpus.replace_labels([["O"], ["O", "B-NEW\tYORK"]])
    exc = info.value
    assert (exc.tag, exc.sentence, exc.index, exc.source, exc.line) == (
        "B-NEW\tYORK", 1, 1, str(path), 4)
    assert str(exc) == (
        f"Cannot write the label 'B-NEW\\tYORK' of token 1 ('c') of sentence 1 ({path}, line 4) "
        "to a CoNLL line: its fields, separated by spaces, must be non-empty and free of white "
        "space and control characters. Give the token another label.")
    # a label of the vocabulary that no token has is not written, so not refused
    labels = nerscore.EncodedTags(np.array([0, 0, 0]), np.array([0, 1, 3]), ("O", "B X"))
    assert corpus.replace_labels(labels) == (path.read_text(encoding="utf-8"), 0)
    # a space is one column where tabs separate the columns
    tabbed = read_text("a\tO\n", column_delimiter="tab")
    assert tabbed.replace_labels([["B-NEW YORK"]]) == ("a\tB-NEW YORK\n", 1)
    with pytest.raises(InvalidTagError, match="separated by tabs, must be non-empty and free of "
                                              "tabs and line breaks"):
        tabbed.replace_labels([[""]])


@pytest.mark.parametrize(
    ("encoding", "mark", "bom"),
    [
        ("utf-8", "\ufeff", True),
        ("utf-8", "", False),
        ("utf-8-sig", "", False),  # the codec reads and writes the mark itself
        ("utf-16", "", False),
        ("utf-16-le", "\ufeff", True),
    ],
)
def test_a_relabelled_corpus_keeps_the_byte_order_mark_of_its_file(tmp_path, encoding, mark,
                                                                    bom):
    """Written in its encoding, the relabelled text is the file with the new labels, mark and all.

    Whether the whole file is read, streamed in chunks, or written with ``write_conll``.
    """
    path, out = tmp_path / "g.conll", tmp_path / "out.conll"
    path.write_text(mark + "Anna I-PER\nleft O\n\nBob O\n\n", encoding=encoding)
    out.write_text(mark + "Anna B-PER\nleft O\n\nBob O\n\n", encoding=encoding)
    expected = out.read_bytes()
    labels = [["B-PER", "O"], ["O"]]
    corpus = read_conll(path, encoding=encoding)
    assert corpus.bom is bom
    text, n = corpus.replace_labels(labels)
    assert n == 1
    out.write_text(text, encoding=encoding, newline="")
    assert out.read_bytes() == expected
    chunks = list(conll.ConllChunks(path, chunk_size=None, block_size=8, encoding=encoding))
    assert [c.bom for c in chunks] == [bom, False, False]  # the last: the final blank line
    parts = [labels[:1], labels[1:], []]
    assert "".join(c.replace_labels(k)[0] for c, k in zip(chunks, parts, strict=True)) == text
    assert corpus.slice(0, 1).bom is bom
    assert corpus.slice(1, 2).bom is False
    write_conll(out, [list(s.tokens) for s in corpus], labels, encoding=encoding, bom=corpus.bom)
    assert out.read_bytes() == expected


@pytest.mark.parametrize("encoding", ["utf-8-sig", "utf-16"])
def test_a_mark_after_the_codecs_own_is_the_bom_of_every_reader(tmp_path, encoding):
    """The codec reads the first mark; the readers skip a second one as the file's mark."""
    path, out = tmp_path / "g.conll", tmp_path / "out.conll"
    path.write_text("\ufeffAnna I-PER\nleft O\n", encoding=encoding)
    mark = {"utf-8-sig": codecs.BOM_UTF8, "utf-16": codecs.BOM_UTF16}[encoding]
    assert path.read_bytes().startswith(mark * 2)
    corpus = read_conll(path, encoding=encoding)
    chunks = list(conll.ConllChunks(path, chunk_size=None, encoding=encoding))
    assert (corpus.bom, chunks[0].bom) == (True, True)
    assert list(corpus.tokens) == list(chunks[0].tokens) == ["Anna", "left"]
    for text in (corpus.replace_labels([["B-PER", "O"]])[0],
                 chunks[0].replace_labels([["B-PER", "O"]])[0]):
        out.write_text(text, encoding=encoding, newline="")
        assert out.read_bytes() == path.read_bytes().replace(b"I", b"B")


def test_write_conll_writes_one_byte_order_mark_where_the_encoding_has_one(tmp_path):
    path = tmp_path / "out.conll"
    write_conll(path, [["a"]], [["O"]], bom=True)
    assert path.read_bytes() == b"\xef\xbb\xbfa O\n\n"
    write_conll(path, [["a"]], [["O"]], encoding="utf-8-sig", bom=True)  # not twice
    assert path.read_bytes() == b"\xef\xbb\xbfa O\n\n"
    out = io.StringIO()
    write_conll(out, [["a"]], [["O"]], bom=True)
    assert out.getvalue() == "\ufeffa O\n\n"
    with pytest.raises(ValueError, match=r"^Cannot write a byte-order mark in latin-1, which has "
                                         r"none: write the file in UTF-8 \(encoding='utf-8'\), "
                                         r"or without the mark \(bom=False\)\.$"):
        write_conll(path, [["a"]], [["O"]], encoding="latin-1", bom=True)
    assert path.read_bytes() == b"\xef\xbb\xbfa O\n\n"  # nothing written


# --------------------------------------------------------------------------------- writing


def test_write_conll_round_trip(tmp_path):
    path = tmp_path / "out.conll"
    tokens = [["Jonas", "Müller"], ["Hi"], ["x"]]
    write_conll(path, tokens, [["B-PER", "I-PER"], ["O"], ["O"]], [["B-PER", "B-LOC"], ["O"],
                ["O"]], documents=[0, 2])
    text = path.read_text(encoding="utf-8")
    assert text.startswith("-DOCSTART- O O\n\nJonas B-PER B-PER\n")
    back = read_conll(path, label_column=1)
    assert [list(s.tokens) for s in back] == tokens
    assert back.to_lists() == [["B-PER", "I-PER"], ["O"], ["O"]]
    assert back.documents.tolist() == [0, 2]
    assert read_conll(path).to_lists() == [["B-PER", "B-LOC"], ["O"], ["O"]]


def test_write_conll_tab_allows_spaces_in_tokens():
    out = io.StringIO()
    write_conll(out, [["New York"]], [["B-LOC"]], column_delimiter="tab")
    assert out.getvalue() == "New York\tB-LOC\n\n"
    assert read_text(out.getvalue()).tokens[0] == "New York"


@pytest.mark.parametrize(
    ("tokens", "labels", "message"),
    [
        ([["New York"]], [["B-LOC"]], r"Cannot write 'New York' \(token 0 of sentence 0, "
                                      r"tokens\).*column_delimiter='tab'"),
        ([["a", ""]], [["O", "O"]], r"Cannot write '' \(token 1 of sentence 0, tokens\)"),
        ([["a"]], [["B-X\n"]], r"Cannot write 'B-X\\n' \(token 0 of sentence 0, column 1\)"),
        ([["a", "b\x01c"]], [["O", "O"]], r"Cannot write 'b\\x01c' \(token 1 of sentence 0, "
                                         r"tokens\): a field must be non-empty and free of "
                                         r"white space and control characters"),
    ],
)
def test_write_conll_refuses_fields_that_break_the_format(tokens, labels, message):
    with pytest.raises(ValueError, match=message):
        write_conll(io.StringIO(), tokens, labels)


def test_write_conll_checks_shapes():
    with pytest.raises(LengthMismatchError, match="Sentence 0 has 2 tokens in tokens but 1 in "
                                                  "column 1"):
        write_conll(io.StringIO(), [["a", "b"]], [["O"]])
    with pytest.raises(ValueError, match="Expected `column_delimiter` to be one of 'space' or "
                                         "'tab'; got ','"):
        write_conll(io.StringIO(), [["a"]], column_delimiter=",")  # type: ignore[arg-type]


def test_scoring_two_files_end_to_end():
    gold = read_conll(DATA / "gold.conll")
    pred = read_conll(DATA / "pred_messy.conll")
    report = nerscore.evaluate(gold.tags, pred.tags, zero_division=0.0)
    assert (report.micro.tp, report.micro.n_pred, report.micro.n_gold) == (3, 4, 4)
    assert report.labels["MISC"].n_gold == 0
    assert report.labels["ORG"].n_pred == 0
    strict = nerscore.evaluate(gold.tags, pred.tags, scheme="IOB2", mode="strict",
                               zero_division=0.0)
    assert strict.micro.tp == 2  # the I-PER chunk after O is dropped


def test_the_scorers_chunk_reader_reads_the_token_heads(tmp_path):
    """Streamed for scoring, each chunk carries its tokens' first words; other readers do not."""
    path = tmp_path / "g.conll"
    path.write_text("Ann B-PER\nvon I-PER\nHeidelberg-Süd O\n\nBob O\n", encoding="utf-8")
    chunks = list(conll.FORMAT.chunks(str(path), 1, {}).chunks)
    whole = read_conll(path)._text.with_heads()
    heads = [c._text.token_head.tolist() for c in chunks]
    assert heads == [whole.token_head[:3].tolist(), whole.token_head[3:].tolist()]
    assert int(whole.token_head[2]).to_bytes(8, "little") == b"Heidelbe"
    assert all(c._text.token_head is None for c in conll.ConllChunks(path, chunk_size=1))


@pytest.mark.parametrize(("data", "line", "byte"), [
    (codecs.BOM_UTF8 + b"Anna B-PER\nleft O\n\n", 1, "0xef"),  # a UTF-8 mark: no mark in ASCII
    ("Anna B-PER\nleft O\n\nZoë O\n\n".encode(), 4, "0xc3"),  # UTF-8 beyond ASCII
], ids=["mark", "beyond-ascii"])
def test_ascii_input_holding_other_bytes_is_refused_by_every_reader(tmp_path, data, line, byte):
    """Read whole or streamed, bytes that ASCII cannot hold are a decoding error naming the line."""
    path = tmp_path / "g.conll"
    path.write_bytes(data)
    expected = (rf"^Cannot decode byte {byte} as ascii \({re.escape(str(path))}, line {line}\): "
                "the file is in another encoding")
    with pytest.raises(FormatError, match=expected) as whole:
        read_conll(path, encoding="ascii")
    with pytest.raises(FormatError, match=expected) as streamed:
        list(conll.ConllChunks(path, chunk_size=None, encoding="ascii"))
    assert str(whole.value) == str(streamed.value)
    assert whole.value.line == streamed.value.line == line
    path.write_bytes(data.removeprefix(codecs.BOM_UTF8).replace("ë".encode(), b"e"))
    assert read_conll(path, encoding="ascii").tokens[0] == "Anna"


@pytest.mark.parametrize(("args", "message"), [
    (([["B-PER"]], "out.conll"), r"`target` \(the first argument\) to be a path.*got list"),
    (("out.conll", "B-PER"), r"tokens to be a list of sentences.*got str"),
    ((None, [["a"]]), r"`target`.*got NoneType"),
    (("out.conll", [["a", None]]), r"`tokens` to be a str; token 1 of sentence 0 is NoneType"),
    (("out.conll", [["a"]], [[3]]), r"`column 1` to be a str; token 0 of sentence 0 is int 3"),
    (("out.conll", [["a"], "b"]), r"item 1 is str 'b'"),
])
def test_write_conll_names_arguments_it_cannot_write(tmp_path, monkeypatch, args, message):
    """Arguments swapped or malformed: an input error, and no file (a string is no corpus)."""
    monkeypatch.chdir(tmp_path)
    with pytest.raises(nerscore.InputTypeError, match=message):
        nerscore.write_conll(*args)
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("source", [3, None, b"file.conll"])
@pytest.mark.parametrize("read", [conll.read_conll, lambda s: list(conll.iter_conll(s))])
def test_a_source_that_is_no_path_or_file_is_an_input_error(read, source):
    with pytest.raises(nerscore.InputTypeError, match="Expected a path or a file object; got"):
        read(source)


@pytest.mark.parametrize("options", [{"label_column": "x"}, {"token_column": 1.0},
                                     {"column_delimiter": "comma"}])
def test_bad_reader_options_are_option_errors(options):
    with pytest.raises(nerscore.OptionError, match="Expected `"):
        conll.read_conll(io.StringIO("a O\n"), **options)


def test_write_conll_takes_encoded_tags_as_columns(tmp_path):
    from nerscore.values.tags import EncodedTags

    gold = [["B-PER", "O"], ["O"]]
    pred = EncodedTags.from_lists([["B-PER", "B-LOC"], ["O"]])
    out = tmp_path / "x.conll"
    write_conll(out, [["Ann", "left"], ["Hi"]], gold, pred)
    assert out.read_text() == "Ann B-PER B-PER\nleft O B-LOC\n\nHi O O\n\n"
    with pytest.raises(nerscore.errors.LengthMismatchError):
        write_conll(out, [["Ann"], ["Hi"]], gold, pred)
