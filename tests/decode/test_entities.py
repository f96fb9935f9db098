import numpy as np
import pytest

import nerscore
from nerscore import Entity, Span, entities_to_tags, tags_to_entities
from nerscore.decode.entities import decode_counted
from nerscore.errors import InputTypeError, InvalidSpanError, InvalidTagError, SchemeError
from tests.conftest import random_tag_corpus


def gpc(gold, pred, **kw):
    g = set(tags_to_entities(gold, **kw))
    p = set(tags_to_entities(pred, **kw))
    return len(g), len(p), len(g & p)


def s(text):
    return text.split()


# docs/schemes.md: (gold, pred, lenient G/P/C, strict G/P/C, strict scheme)
DECODING_EXAMPLES = [
    (s("B-PER I-PER O"), s("I-PER I-PER O"), (1, 1, 1), (1, 0, 0), "IOB2"),
    (s("B-PER I-PER O"), s("B-PER I-LOC O"), (1, 2, 0), (1, 1, 0), "IOB2"),
    (s("B-PER B-LOC I-LOC"), s("B-PER I-LOC I-LOC"), (2, 2, 2), (2, 1, 1), "IOB2"),
    (s("B-PER I-PER I-PER"), s("B-PER I-PER B-PER"), (1, 2, 0), (1, 2, 0), "IOB2"),
    (s("I-ORG I-ORG O I-PER"), s("B-ORG I-ORG O B-PER"), (2, 2, 2), (0, 2, 0), "IOB2"),
    (s("S-PER S-PER O"), s("S-PER S-PER O"), (2, 2, 2), (2, 2, 2), "IOBES"),
    (s("B-MISC E-MISC B-MISC E-MISC"), s("B-MISC I-MISC I-MISC E-MISC"), (2, 1, 0), (2, 1, 0),
     "IOBES"),
    (s("U-PER U-PER B-LOC L-LOC U-LOC"), s("U-PER U-PER B-LOC L-LOC U-LOC"), (4, 4, 4),
     (4, 4, 4), "BILOU"),
    ([["O", "B-PER"], ["I-PER", "O"]], [["O", "B-PER"], ["I-PER", "O"]], (2, 2, 2), (1, 1, 1),
     "IOB2"),
    ([["B-A"], ["O"]], [["O"], ["B-A"]], (1, 1, 0), (1, 1, 0), "IOB2"),
]


@pytest.mark.parametrize(("gold", "pred", "lenient", "strict", "scheme"), DECODING_EXAMPLES)
def test_spec_2_5_lenient_and_strict(gold, pred, lenient, strict, scheme):
    assert gpc(gold, pred) == lenient
    assert gpc(gold, pred, scheme=scheme, mode="strict") == strict


def test_entities_carry_sentence_identity():
    ents = tags_to_entities([["B-A"], ["B-A"]])
    assert ents == [Entity(Span(0, 1), "A", 0), Entity(Span(0, 1), "A", 1)]


def test_prefix_split_at_first_delimiter_suffix_at_last():
    (e,) = tags_to_entities(["B-ARGM-LOC"])
    assert e.label == "ARGM-LOC"
    (e,) = tags_to_entities(["ARGM-LOC-B"], suffix=True)
    assert e.label == "ARGM-LOC"
    (e,) = tags_to_entities(["B_PER", "I_PER"], delimiter="_")
    assert (e.label, e.end) == ("PER", 2)


def test_untyped_tags_have_empty_label():
    assert tags_to_entities(["B", "I", "O", "B"]) == [
        Entity(Span(0, 2), ""), Entity(Span(3, 4), "")
    ]


def test_custom_outside_tag():
    assert len(tags_to_entities(["NONE", "B-X"], outside="NONE")) == 1
    with pytest.raises(InvalidTagError, match="'O'"):
        tags_to_entities(["O", "B-X"], outside="NONE")


def test_io_scheme_bare_labels_and_runs():
    ents = tags_to_entities(["PER", "PER", "O", "I-LOC", "LOC", "PER"], scheme="IO")
    assert [(e.start, e.end, e.label) for e in ents] == [(0, 2, "PER"), (3, 5, "LOC"),
                                                        (5, 6, "PER")]


def test_bmes_letters():
    ents = tags_to_entities(["B-X", "M-X", "E-X", "S-Y"], scheme="BMES", mode="strict")
    assert [(e.start, e.end, e.label) for e in ents] == [(0, 3, "X"), (3, 4, "Y")]


def test_aliases_in_lenient_mode():
    assert len(tags_to_entities(["U-PER", "U-PER"])) == 2
    assert len(tags_to_entities(["B-X", "M-X", "L-X"])) == 1


def test_invalid_tag_names_tag_sentence_and_token():
    with pytest.raises(InvalidTagError, match=r"'X-PER' at token 1 of sentence 1") as ei:
        tags_to_entities([["O"], ["O", "X-PER"]])
    assert (ei.value.tag, ei.value.sentence, ei.value.index) == ("X-PER", 1, 1)


def test_bare_label_hints_io_scheme():
    with pytest.raises(InvalidTagError, match="scheme='IO'"):
        tags_to_entities(["PER"])


def test_scheme_letters_enforced():
    with pytest.raises(InvalidTagError, match="not used by the IOB2 scheme"):
        tags_to_entities(["S-PER"], scheme="BIO")


def test_strict_requires_scheme():
    with pytest.raises(SchemeError, match="needs an explicit scheme"):
        tags_to_entities(["B-PER"], mode="strict")


def test_unknown_scheme_and_mode():
    with pytest.raises(SchemeError, match="Expected `scheme` to be one of"):
        tags_to_entities(["B-PER"], scheme="BIOX", mode="strict")
    with pytest.raises(ValueError, match="Expected `mode` to be one of"):
        tags_to_entities(["B-PER"], mode="loose")


def test_empty_inputs():
    assert tags_to_entities([]) == []
    assert tags_to_entities([[], []]) == []
    assert tags_to_entities([["O", "O"]], scheme="IOB2", mode="strict") == []


@pytest.mark.parametrize(
    ("scheme", "expected"),
    [
        ("IO", ["I-A", "I-A", "I-A", "O", "I-B"]),
        ("IOB1", ["I-A", "I-A", "B-A", "O", "I-B"]),
        ("IOB2", ["B-A", "I-A", "B-A", "O", "B-B"]),
        ("IOE1", ["I-A", "E-A", "I-A", "O", "I-B"]),
        ("IOE2", ["I-A", "E-A", "E-A", "O", "E-B"]),
        ("IOBES", ["B-A", "E-A", "S-A", "O", "S-B"]),
        ("BILOU", ["B-A", "L-A", "U-A", "O", "U-B"]),
        ("BMES", ["B-A", "E-A", "S-A", "O", "S-B"]),
    ],
)
def test_entities_to_tags_every_scheme(scheme, expected):
    ents = [Entity(Span(0, 2), "A"), Entity(Span(2, 3), "A"), Entity(Span(4, 5), "B")]
    assert entities_to_tags(ents, 5, scheme=scheme) == [expected]


def test_entities_to_tags_suffix_and_untyped():
    ents = [Entity(Span(0, 2), "A"), Entity(Span(3, 4), "")]
    assert entities_to_tags(ents, [4], scheme="IOB2", suffix=True) == [["A-B", "A-I", "O", "B"]]


def test_entities_to_tags_rejects_overlap_and_out_of_range():
    with pytest.raises(InvalidSpanError, match="overlap"):
        entities_to_tags([Entity(Span(0, 2), "A"), Entity(Span(1, 3), "B")], 4)
    with pytest.raises(InvalidSpanError, match="outside the sentence"):
        entities_to_tags([Entity(Span(2, 5), "A")], 4)


def test_encoded_tags_input_equals_lists(rng):
    from tests.conftest import random_tag_corpus

    corpus = random_tag_corpus(rng, letters="BIES")
    enc = nerscore.EncodedTags.from_lists(corpus)
    assert tags_to_entities(enc) == tags_to_entities(corpus)


def test_encoded_tags_checks_ids():
    with pytest.raises(ValueError, match="index `vocab`"):
        nerscore.EncodedTags(np.array([0, 3]), np.array([0, 2]), ("O", "B-X"))


@pytest.mark.parametrize("n_types", [3, 700])
def test_pair_table_and_per_token_events_agree(monkeypatch, n_types):
    from nerscore.decode import decoder as _decode
    from tests.conftest import random_tag_corpus

    rng = np.random.default_rng(n_types)
    types = tuple(f"T{k}" for k in range(n_types))
    corpus = [*random_tag_corpus(rng, n_sentences=300, letters="BIES", types=types), []]
    monkeypatch.setattr(_decode, "MAX_TABLE_IDS", 10**6)
    with_table = tags_to_entities(corpus)
    monkeypatch.setattr(_decode, "MAX_TABLE_IDS", 0)
    per_token = tags_to_entities(corpus)
    assert with_table == per_token
    assert len(with_table) > 100
    from nerscore.compat.seqeval import get_entities

    flat_starts = np.cumsum([0] + [len(s) + 1 for s in corpus])
    expected = sorted(
        Entity(Span(b - flat_starts[k], e + 1 - flat_starts[k]), lab, k)
        for lab, b, e in get_entities(corpus)
        for k in [int(np.searchsorted(flat_starts, b, side="right")) - 1]
    )
    assert per_token == expected


# --- a prefix with an empty type ---------------------------------------------------------

EMPTY_TYPE_CASES = [
    ({}, "B-"), ({}, "I-"), ({}, "E-"), ({}, "S-"), ({}, "U-"), ({}, "L-"), ({}, "M-"),
    ({"suffix": True}, "-B"),
    ({"delimiter": "_"}, "B_"),
    *[({"scheme": sc}, f"{letter}-") for sc in nerscore.Scheme
      for letter in nerscore.get_scheme(sc).letters],
    *[({"scheme": sc, "mode": "strict"}, f"{letter}-") for sc in nerscore.Scheme
      for letter in nerscore.get_scheme(sc).letters],
]


@pytest.mark.parametrize(("kw", "tag"), EMPTY_TYPE_CASES)
def test_a_prefix_with_an_empty_type_is_an_invalid_tag_in_every_mode(kw, tag):
    with pytest.raises(InvalidTagError, match="its type is empty") as e:
        tags_to_entities([["O"], ["O", tag, "O"]], **kw)
    assert (e.value.tag, e.value.sentence, e.value.index) == (tag, 1, 1)
    assert str(e.value).startswith(f"Invalid tag {tag!r} at token 1 of sentence 1: ")


def test_a_prefix_with_an_empty_type_in_a_file_names_file_and_line(tmp_path):
    from nerscore.io.conll import read_conll

    path = tmp_path / "pred.conll"
    path.write_text("a\tB-PER\nb\tO\n\nc\tO\nd\tB-\n", encoding="utf-8")
    tags = read_conll(path).tags
    with pytest.raises(InvalidTagError) as e:
        tags_to_entities(tags)
    assert (e.value.source, e.value.line, e.value.sentence, e.value.index) == (
        str(path), 5, 1, 1)
    assert f"token 1 ('d') of sentence 1 ({path}, line 5)" in str(e.value)


def test_conlleval_mode_keeps_the_scripts_reading_of_an_empty_type():
    # the Perl script reads "B-" as prefix B with the empty type, as it reads a bare "B"
    ents = tags_to_entities(["B-", "I-", "O", "B"], mode="conlleval")
    assert [(e.start, e.end, e.label) for e in ents] == [(0, 2, ""), (3, 4, "")]


# ------------------------------------------------------------ tag runs strict mode drops

_SCHEME_LETTERS = {"IO": "I", "IOB1": "BI", "IOB2": "BI", "IOE1": "IE", "IOE2": "IE",
                   "IOBES": "BIES", "BILOU": "BILU", "BMES": "BMES"}


def _unread_reference(sentences, scheme):
    """Tokens with entity tags that no strict entity covers, cut where lenient mode cuts."""
    strict = tags_to_entities(sentences, scheme=scheme, mode="strict")
    lenient = tags_to_entities(sentences, scheme=scheme)
    covered = {(e.sentence, i) for e in strict for i in range(e.start, e.end)}
    cuts = {(e.sentence, i) for e in lenient for i in (e.start, e.end)}
    runs = 0
    for k, sent in enumerate(sentences):
        loose = [t != "O" and (k, i) not in covered for i, t in enumerate(sent)]
        runs += sum(on and (i == 0 or not loose[i - 1] or (k, i) in cuts)
                    for i, on in enumerate(loose))
    return runs


@pytest.mark.parametrize(("sentences", "scheme", "unread"), [
    ([s("I-PER I-PER")], "IOB2", 1),
    ([s("I-PER I-LOC O B-ORG I-ORG")], "IOB2", 2),
    ([s("B-PER I-PER"), s("I-PER")], "IOB2", 1),  # a sentence boundary ends every entity
    ([s("B-PER I-PER O")], "IOBES", 1),
    ([s("B-PER B-PER E-PER")], "IOBES", 1),
    ([s("B-PER B-PER O")], "IOBES", 2),  # lenient mode reads two entities there
    ([s("U-PER B-LOC I-LOC")], "BILOU", 1),
    ([s("I-PER E-PER I-LOC")], "IOE2", 1),
    ([s("I-PER I-LOC")], "IO", 0),  # every IO run is an entity
    ([s("B-PER I-PER O B-LOC")], "IOB2", 0),
])
def test_strict_mode_counts_the_tag_runs_it_reads_as_no_entity(sentences, scheme, unread):
    enc = nerscore.EncodedTags.from_lists(sentences)
    cols, n = decode_counted(enc, nerscore.Decoding(scheme, "strict"))
    assert n == unread == _unread_reference(sentences, scheme)
    assert cols.to_entities() == tags_to_entities(sentences, scheme=scheme, mode="strict")
    for mode in ("lenient", "conlleval"):  # they read every run as an entity
        assert decode_counted(enc, nerscore.Decoding(scheme, mode))[1] == 0


@pytest.mark.parametrize("scheme", sorted(_SCHEME_LETTERS))
def test_strict_tag_runs_equal_a_token_by_token_count(rng, scheme):
    for _ in range(20):
        sentences = random_tag_corpus(rng, n_sentences=8, max_len=10,
                                      letters=_SCHEME_LETTERS[scheme], types=("A", "B"))
        enc = nerscore.EncodedTags.from_lists(sentences)
        n = decode_counted(enc, nerscore.Decoding(scheme, "strict"))[1]
        assert n == _unread_reference(sentences, scheme)


@pytest.mark.parametrize(("tags", "message"), [
    ([["B-PER", None]], r"every tag of `tags` to be a str; token 1 of sentence 0 is NoneType"),
    (["B-PER", 3], r"token 1 of sentence 0 is int 3"),
    ([["B-PER"], None], r"list of tag sequences; item 1 is NoneType None"),
    ([["B-PER"], "OO"], r"list of tag sequences; item 1 is str 'OO'"),
    ((t for t in ["B-PER"]), r"got generator\. Pass a list"),
    ("B-PER", r"got a single string"),
])
def test_tags_that_are_not_tag_sequences_are_named_where_they_are(tags, message):
    """A tag that is no string, a sentence that is no sequence: an input error with its place."""
    with pytest.raises(InputTypeError, match=message):
        tags_to_entities(tags)



def test_entities_to_tags_refuses_a_discontinuous_entity():
    """Writing its extent would tag the gap between its fragments as part of the entity."""
    ent = Entity.from_fragments([(0, 1), (2, 3)], "A")
    with pytest.raises(InvalidSpanError, match=r"discontinuous \(fragments \[\(0, 1\), \(2, 3\)\]"):
        entities_to_tags([ent], 3)
    assert entities_to_tags([Entity(ent.span, ent.label)], 3) == [["B-A", "I-A", "I-A"]]


@pytest.mark.parametrize(("entities", "lengths", "error", "message"), [
    ([[(0, 2, "A")]], [3], InputTypeError, r"item 0 is list \[\(0, 2, 'A'\)\]\. Write a span"),
    ([Entity(Span(0, 2), "A")], -1, nerscore.OptionError, r"`lengths`.*got -1"),
    ([Entity(Span(0, 2), "A")], [3.0], nerscore.OptionError, r"`lengths`.*got \[3\.0\]"),
    ([Entity(Span(0, 2), "A")], None, nerscore.OptionError, r"`lengths`.*got None"),
])
def test_entities_to_tags_names_what_it_cannot_read(entities, lengths, error, message):
    with pytest.raises(error, match=message):
        entities_to_tags(entities, lengths)
    assert entities_to_tags([Entity(Span(0, 2), "A")], np.array([2])) == [["B-A", "I-A"]]
