import pytest

import nerscore
from nerscore.decode.validation import repair_tags, validate_tags
from nerscore.errors import InvalidTagError
from nerscore.values.tags import EncodedTags


def test_invalid_transition_names_token_sentence_file_and_line():
    tags = [["O"], ["O", "O", "O", "I-PER"]]
    enc = EncodedTags.from_lists(tags)
    enc = EncodedTags(enc.ids, enc.offsets, enc.vocab, source="pred.conll",
                      lines=[1, 3, 4, 5, 6], tokens=["x", "a", "b", "c", "Jonas"])
    (issue,) = validate_tags(enc, scheme="IOB2").issues
    assert issue.message.startswith(
        "Invalid transition 'O' -> 'I-PER' at token 3 ('Jonas') of sentence 1 "
        "(pred.conll, line 6)"
    )
    assert "repair_tags(method='begin')" in issue.message
    assert (issue.kind, issue.sentence, issue.index, issue.line) == ("invalid_transition", 1, 3, 6)


def test_returns_all_problems():
    res = validate_tags([["I-A", "B-B", "I-A"], ["E-A"]], scheme="IOB2")
    kinds = [(i.kind, i.sentence, i.index) for i in res.issues]
    assert kinds == [
        ("invalid_transition", 0, 0),
        ("invalid_transition", 0, 2),
        ("invalid_tag", 1, 0),
    ]
    assert res.count("invalid_tag") == 1
    assert not res.is_valid


@pytest.mark.parametrize(
    ("scheme", "tags", "n_issues"),
    [
        ("IOB2", ["B-A", "I-A", "O", "B-A"], 0),
        ("IOB1", ["B-A"], 1),
        ("IOB1", ["I-A", "B-A", "I-B"], 0),
        ("IOE1", ["E-A", "O"], 1),
        ("IOE1", ["E-A", "I-A", "O"], 0),
        ("IOE2", ["I-A", "O"], 1),
        ("IOE2", ["I-A", "E-A", "E-B"], 0),
        ("IOBES", ["B-A", "I-A", "E-A", "S-B"], 0),
        ("IOBES", ["B-A", "S-A"], 1),
        ("BILOU", ["B-A", "L-A", "U-A"], 0),
        ("BILOU", ["I-A"], 2),
        ("BMES", ["B-A", "M-A", "E-A"], 0),
        ("IO", ["I-A", "I-B", "O"], 0),
    ],
)
def test_scheme_tables(scheme, tags, n_issues):
    assert len(validate_tags(tags, scheme=scheme).issues) == n_issues


def test_sentence_end_issue_sits_on_last_token():
    (issue,) = validate_tags([["O", "B-X"]], scheme="IOBES").issues
    assert (issue.index, issue.tag, issue.previous) == (1, None, "B-X")


def test_repair_begin_and_discard():
    raw = ["O", "I-PER", "I-PER", "B-LOC", "I-ORG"]
    assert repair_tags(raw, scheme="IOB2") == ["O", "B-PER", "I-PER", "B-LOC", "B-ORG"]
    assert repair_tags(raw, scheme="IOB2", method="discard") == ["O", "O", "O", "B-LOC", "O"]
    assert repair_tags([["B-X", "O"]], scheme="IOBES") == [["S-X", "O"]]


def test_repair_leaves_valid_sentences_alone():
    corpus = [["PER", "O"], ["I-PER"]]
    assert repair_tags(corpus, scheme="IO") == corpus


def test_repair_rejects_tags_outside_scheme():
    with pytest.raises(InvalidTagError, match="cannot guess"):
        repair_tags(["E-X"], scheme="IOB2")


def test_repair_method_is_checked():
    with pytest.raises(ValueError, match="Expected `method` to be one of 'begin', 'discard'"):
        repair_tags(["B-X"], scheme="IOB2", method="fix")


def test_lenient_equals_strict_on_valid_iob2(rng):
    from tests.conftest import random_tag_corpus

    corpus = repair_tags(random_tag_corpus(rng), scheme="IOB2")
    assert validate_tags(corpus, scheme="IOB2").is_valid
    assert nerscore.tags_to_entities(corpus) == nerscore.tags_to_entities(
        corpus, scheme="IOB2", mode="strict")


@pytest.mark.parametrize("scheme", ["IOB1", "IOB2", "IOE2", "IOBES", "BILOU", "BMES"])
def test_a_prefix_with_an_empty_type_is_an_invalid_tag(scheme):
    letter = sorted(nerscore.get_scheme(scheme).letters)[0]
    tag = f"{letter}-"
    enc = EncodedTags.from_lists([["O"], ["O", tag]])
    enc = EncodedTags(enc.ids, enc.offsets, enc.vocab, source="pred.conll", lines=[1, 3, 4],
                      tokens=["x", "a", "b"])
    result = validate_tags(enc, scheme=scheme)
    assert not result.is_valid
    (issue,) = result.issues
    assert (issue.kind, issue.tag, issue.sentence, issue.index, issue.line) == (
        "invalid_tag", tag, 1, 1, 4)
    assert issue.message.startswith(
        f"Invalid tag {tag!r} at token 1 ('b') of sentence 1 (pred.conll, line 4): "
        "its type is empty")
    with pytest.raises(InvalidTagError, match="its type is empty"):
        repair_tags([["O"], ["O", tag]], scheme=scheme)


def test_long_tags_are_quoted_short() -> None:
    long_tag, long_label = "Q-" + "X" * 100_000, "B-" + "Y" * 100_000
    res = validate_tags([[long_tag, "O", "I" + long_label[1:]]], scheme="IOB2")
    for issue in res.issues:
        assert len(issue.message) < 500
    assert res.issues[0].message.startswith(
        f"Invalid tag '{long_tag[:60]}'... (100002 characters) at token 0 of sentence 0")
    assert f"'O' -> '{'I-' + 'Y' * 58}'... (100002 characters) at token 2" in res.issues[1].message
    assert res.issues[0].tag == long_tag  # the structured attributes keep the whole value
    with pytest.raises(InvalidTagError) as info:
        nerscore.tags_to_entities([[long_tag]], scheme="IOB2", mode="strict")
    assert len(str(info.value)) < 500
    assert info.value.tag == long_tag
