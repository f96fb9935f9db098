"""Character spans <-> token spans <-> tags (nerscore.decode.offsets)."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings, strategies as st

from nerscore.decode.offsets import (
    SpanConversion,
    align_tokens,
    char_spans_to_tags,
    char_spans_to_token_spans,
    tags_to_char_spans,
    token_spans_to_char_spans,
)
from nerscore.errors import FormatError, InvalidSpanError, LengthMismatchError
from nerscore.io.brat import read_brat
from nerscore.values.documents import Document
from nerscore.values.spans import Entity, Span
from tests.paths import TESTS

BRAT = TESTS / "data" / "brat" / "conll2002"
SCHEMES = ["IOB1", "IOB2", "IOE1", "IOE2", "IOBES", "BILOU", "BMES", "IO"]

TEXT = "Anna Smith flew to New York."
TOKENS = ["Anna", "Smith", "flew", "to", "New", "York", "."]
OFFSETS = [(0, 4), (5, 10), (11, 15), (16, 18), (19, 22), (23, 27), (27, 28)]


def triples(ents):
    return [(e.start, e.end, e.label) for e in ents]


def simple_tokens(text):
    return [(m.start(), m.end()) for m in re.finditer(r"\w+|[^\w\s]", text)]


# ----------------------------------------------------------------------------- align_tokens


def test_align_tokens_gives_offsets():
    assert [(s.start, s.end) for s in align_tokens(TOKENS, TEXT)] == OFFSETS


def test_align_tokens_rejects_a_token_not_in_the_text():
    with pytest.raises(FormatError, match=r"Token 2 \('flies'\) does not follow token 1"):
        align_tokens(["Anna", "Smith", "flies"], TEXT)


def test_align_tokens_rejects_skipped_text():
    # "Smith" is missing: finding "flew" would skip real text, not whitespace
    with pytest.raises(FormatError, match=r"Token 1 .'flew'. does not follow"):
        align_tokens(["Anna", "flew"], TEXT)


def test_align_tokens_rejects_empty_tokens():
    with pytest.raises(FormatError, match="Token 1 is ''"):
        align_tokens(["Anna", ""], TEXT)


def test_a_long_token_and_the_text_it_misses_are_quoted_short():
    token = "x" * 10_000
    with pytest.raises(FormatError) as info:
        align_tokens(["Anna", token], "Anna " + "y" * 20_000)
    assert str(info.value) == (
        f"Token 1 ('{'x' * 60}'... (10000 characters)) does not follow token 0 in the text: at "
        f"character 4 the text reads ' {'y' * 59}'... (10000 characters); tokens must appear in "
        "the text in order, unchanged, separated only by whitespace."
    )


# ----------------------------------------------------------------------------- token <-> char


def test_token_spans_to_char_spans_with_strings_or_offsets():
    spans = [(0, 2, "PER"), (4, 6, "LOC")]
    expected = [(0, 10, "PER"), (19, 27, "LOC")]
    assert triples(token_spans_to_char_spans(spans, TOKENS, text=TEXT)) == expected
    assert triples(token_spans_to_char_spans(spans, OFFSETS)) == expected
    spans_as_spans = [Span(*o) for o in OFFSETS]
    assert triples(token_spans_to_char_spans(spans, spans_as_spans)) == expected


def test_zero_length_token_spans():
    ents = token_spans_to_char_spans([(2, 2, "X"), (7, 7, "Y")], OFFSETS)
    assert triples(ents) == [(11, 11, "X"), (28, 28, "Y")]
    back = char_spans_to_token_spans(ents, OFFSETS)
    assert triples(back.spans) == [(2, 2, "X"), (7, 7, "Y")]
    assert back.adjusted == ()
    assert back.dropped == ()


def test_token_span_beyond_the_tokens():
    with pytest.raises(InvalidSpanError, match=r"Token span 0 \(5, 8, 'X'\) ends beyond the 7"):
        token_spans_to_char_spans([(5, 8, "X")], OFFSETS)


def test_token_strings_need_the_text():
    with pytest.raises(TypeError, match="pass text="):
        token_spans_to_char_spans([(0, 1, "X")], TOKENS)


def test_bad_token_offsets():
    with pytest.raises(ValueError, match=r"Token 1 has offsets \(3, 6\)"):
        token_spans_to_char_spans([], [(0, 4), (3, 6)])
    with pytest.raises(ValueError, match="within the text"):
        char_spans_to_token_spans([], [(0, 4), (5, 60)], text=TEXT)


def test_char_spans_aligned():
    res = char_spans_to_token_spans([(0, 10, "PER"), (19, 27, "LOC"), (27, 28, "P")], TOKENS,
                                    text=TEXT)
    assert triples(res.spans) == [(0, 2, "PER"), (4, 6, "LOC"), (6, 7, "P")]
    assert res.notes() == ()


def test_char_span_misaligned_is_an_error_by_default():
    with pytest.raises(InvalidSpanError,
                       match=r"Span \(1, 10, 'PER'\) \('nna Smith'\) of document 0 does not start "
                             r"and end on token boundaries \(token 0 is \[0, 4\); token 1 is \[5, 10\)\); pass "
                             r"misaligned='expand'"):
        char_spans_to_token_spans([(1, 10, "PER")], TOKENS, text=TEXT)


def test_misaligned_error_names_the_document():
    doc = Document("d7", [(19, 25, "LOC")], TEXT)
    with pytest.raises(InvalidSpanError, match="of document 'd7'") as info:
        char_spans_to_token_spans(doc, OFFSETS)
    assert info.value.document == "d7"
    assert info.value.spans == [(19, 25, "LOC")]


def test_expand_and_contract():
    spans = [(1, 10, "PER"), (20, 27, "LOC"), (19, 25, "MISC")]
    exp = char_spans_to_token_spans(spans, TOKENS, text=TEXT, misaligned="expand")
    assert triples(exp.spans) == [(0, 2, "PER"), (4, 6, "LOC"), (4, 6, "MISC")]
    assert len(exp.adjusted) == 3
    assert exp.dropped == ()
    assert exp.adjusted[0] == (Entity(Span(1, 10), "PER"), Entity(Span(0, 2), "PER"))
    con = char_spans_to_token_spans(spans, TOKENS, text=TEXT, misaligned="contract")
    assert triples(con.spans) == [(1, 2, "PER"), (5, 6, "LOC"), (4, 5, "MISC")]
    assert len(con.adjusted) == 3


def test_spans_keeping_no_token_are_dropped_and_counted():
    # (4, 5) is the space between "Anna" and "Smith"; (1, 3) lies inside "Anna"
    spans = [(4, 5, "A"), (1, 3, "B"), (0, 4, "C")]
    exp = char_spans_to_token_spans(spans, OFFSETS, misaligned="expand")
    assert triples(exp.spans) == [(0, 1, "B"), (0, 1, "C")]
    assert exp.dropped == (Entity(Span(4, 5), "A"),)
    con = char_spans_to_token_spans(spans, OFFSETS, misaligned="contract")
    assert triples(con.spans) == [(0, 1, "C")]
    assert len(con.dropped) == 2
    assert con.notes() == ("2 span(s) covering no whole token were dropped.",)
    assert exp.notes() == (
        "1 span(s) not aligned to token boundaries were moved to token boundaries.",
        "1 span(s) covering no whole token were dropped.",
    )


def test_zero_length_misaligned_goes_to_the_boundary_before():
    with pytest.raises(InvalidSpanError):
        char_spans_to_token_spans([(2, 2, "X")], OFFSETS)
    res = char_spans_to_token_spans([(2, 2, "X")], OFFSETS, misaligned="expand")
    assert triples(res.spans) == [(0, 0, "X")]
    assert len(res.adjusted) == 1


def test_unknown_misaligned_option():
    with pytest.raises(ValueError, match=r"Expected `misaligned` to be one of 'error', 'expand', "
                                         r"'contract'; got 'grow'\."):
        char_spans_to_token_spans([], OFFSETS, misaligned="grow")


def test_char_span_beyond_the_text():
    with pytest.raises(InvalidSpanError, match="ends beyond the text, which has 28 characters"):
        char_spans_to_token_spans([(20, 40, "X")], TOKENS, text=TEXT)


# ----------------------------------------------------------------------------- tags <-> char


@pytest.mark.parametrize("scheme", SCHEMES)
def test_tags_round_trip_example(scheme):
    spans = [(0, 10, "PER"), (19, 27, "LOC")]
    tags = char_spans_to_tags(spans, TOKENS, text=TEXT, scheme=scheme)
    assert len(tags) == len(TOKENS)
    back = tags_to_char_spans(tags, TOKENS, text=TEXT, scheme=scheme)
    assert triples(back) == spans


def test_char_spans_to_tags_with_a_document():
    doc = Document("d", [(0, 10, "PER"), (27, 28, "P")], TEXT)
    assert char_spans_to_tags(doc, TOKENS) == ["B-PER", "I-PER", "O", "O", "O", "O", "B-P"]


def test_char_spans_to_tags_rejects_zero_length_and_misaligned_and_overlaps():
    with pytest.raises(InvalidSpanError, match="zero-length; tags cannot encode"):
        char_spans_to_tags([(4, 4, "X")], OFFSETS)
    with pytest.raises(InvalidSpanError, match="does not start and end on token boundaries"):
        char_spans_to_tags([(0, 3, "X")], OFFSETS)
    with pytest.raises(InvalidSpanError, match="overlap"):
        char_spans_to_tags([(0, 10, "X"), (5, 10, "Y")], OFFSETS)


def test_tags_to_char_spans_length_mismatch():
    with pytest.raises(LengthMismatchError, match="Got 2 tags for 7 tokens"):
        tags_to_char_spans(["O", "O"], OFFSETS)


def test_span_conversion_is_a_value():
    assert SpanConversion(()) == SpanConversion((), (), ())


# ----------------------------------------------------------------------------- properties

_WORDS = st.text(alphabet="abcXYZé,.-", min_size=1, max_size=5)
_SPACES = st.text(alphabet=" \n\t", min_size=1, max_size=3)


@st.composite
def tokenised_documents(draw):
    words = draw(st.lists(_WORDS, min_size=0, max_size=12))
    lead = draw(st.text(alphabet=" \n", max_size=2))
    text = lead
    for k, w in enumerate(words):
        if k:
            text += draw(_SPACES)
        text += w
    text += draw(st.text(alphabet=" \n", max_size=2))
    # non-overlapping token ranges with labels
    cuts = sorted(draw(st.sets(st.integers(0, len(words)), max_size=8)))
    ents = []
    for a, b in zip(cuts[::2], cuts[1::2], strict=False):
        if a < b and draw(st.booleans()):
            ents.append((a, b, draw(st.sampled_from(["PER", "LOC", "ORG"]))))
    return words, text, ents


@settings(max_examples=200, deadline=None)
@given(tokenised_documents(), st.sampled_from(SCHEMES))
def test_char_spans_tags_char_spans_round_trip(doc, scheme):
    words, text, token_ents = doc
    if scheme == "IO":  # IO cannot separate touching entities of one label
        token_ents = [e for k, e in enumerate(token_ents)
                      if not (k and token_ents[k - 1][1] == e[0] and token_ents[k - 1][2] == e[2])]
    chars = triples(token_spans_to_char_spans(token_ents, words, text=text))
    for s, e, _ in chars:
        assert text[s:e].strip() == text[s:e]  # aligned spans never start or end in whitespace
    tags = char_spans_to_tags(chars, words, text=text, scheme=scheme)
    assert triples(tags_to_char_spans(tags, words, text=text, scheme=scheme)) == sorted(chars)
    back = char_spans_to_token_spans(chars, words, text=text)
    assert triples(back.spans) == token_ents
    assert back.adjusted == ()


@settings(max_examples=200, deadline=None)
@given(tokenised_documents(), st.data())
def test_expand_covers_and_contract_stays_inside(doc, data):
    words, text, _ = doc
    n = len(text)
    s = data.draw(st.integers(0, n))
    e = data.draw(st.integers(s, n))
    offsets = align_tokens(words, text)
    covered = {i for o in offsets for i in range(o.start, o.end)}
    wanted = set(range(s, e)) & covered
    exp = char_spans_to_token_spans([(s, e, "X")], words, text=text, misaligned="expand")
    con = char_spans_to_token_spans([(s, e, "X")], words, text=text, misaligned="contract")
    for res in (exp, con):
        assert len(res.spans) + len(res.dropped) == 1
    if s < e:
        if exp.spans:
            (ent,) = token_spans_to_char_spans(exp.spans, words, text=text)
            assert wanted <= set(range(ent.start, ent.end))
        else:
            assert not wanted
        if con.spans:
            (ent,) = token_spans_to_char_spans(con.spans, words, text=text)
            assert s <= ent.start <= ent.end <= e


# ----------------------------------------------------------------------------- real data


@pytest.mark.parametrize("scheme", SCHEMES)
def test_brat_spans_survive_tags_with_a_simple_tokeniser(scheme):
    docs, stats = read_brat(BRAT)
    n_aligned = 0
    for doc in docs:
        toks = simple_tokens(doc.text)
        conv = char_spans_to_token_spans(doc, toks, misaligned="contract")
        moved = {x for x, _ in conv.adjusted}
        aligned = [a for a in doc.spans if a not in moved]
        n_aligned += len(aligned)
        ents = triples(aligned)
        if scheme == "IO":  # drop entities touching one of the same label (in tokens)
            tok = triples(char_spans_to_token_spans(ents, toks).spans)
            ents = [e for k, e in enumerate(ents)
                    if not (k and tok[k - 1][1] == tok[k][0] and tok[k - 1][2] == tok[k][2])]
        tags = char_spans_to_tags(ents, toks, text=doc.text, scheme=scheme)
        assert triples(tags_to_char_spans(tags, toks, text=doc.text, scheme=scheme)) == \
            sorted(ents)
    assert stats.entities == 816
    assert n_aligned == 816  # the CoNLL entities all sit on word/punctuation boundaries


def test_discontinuous_and_zero_length_spans_to_tags_name_the_file_and_line():
    doc = Document("d1", [Entity.from_fragments([(0, 4), (9, 12)], "PER")],
                   text="Anna and Bob left", source="a.jsonl", line=2)
    tokens = doc.text.split()
    with pytest.raises(InvalidSpanError, match=re.escape(
            "a.jsonl, line 2: span (0, 12, 'PER') of document 'd1' is discontinuous (fragments "
            "[[0, 4], [9, 12]]); tags cannot encode fragments. Give its extent, Entity(span, "
            "label), instead (nerscore convert writes it as its extent and counts it).")):
        char_spans_to_tags(doc, tokens)
    empty = Document("d1", [(13, 13, "X")], text=doc.text, source="a.jsonl", line=2)
    with pytest.raises(InvalidSpanError, match=re.escape(
            "a.jsonl, line 2: span (13, 13, 'X') of document 'd1' is zero-length; tags cannot "
            "encode zero-length spans. Remove it (nerscore convert drops it and counts it).")):
        char_spans_to_tags(empty, tokens)
