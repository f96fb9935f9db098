"""The ``mention`` matcher (nerscore.matching.mention)."""

from __future__ import annotations

import pytest

import nerscore
from nerscore import Document
from nerscore.errors import OptionError

TEXT = "Paris is in France. Paris Hilton visited Paris."
GOLD = [Document("d1", [(0, 5, "LOC"), (12, 18, "LOC"), (20, 32, "PER"), (41, 46, "LOC")], TEXT)]


def counts(pred, **options):
    r = nerscore.evaluate(GOLD, pred, match="mention", zero_division=0.0, **options)
    return r.micro.tp, r.micro.fp, r.micro.fn


def test_offsets_do_not_matter_only_strings_and_labels():
    # both Paris predictions at the first occurrence: exact gets one, mention gets both
    pred = [Document("d1", [(0, 5, "LOC"), (0, 5, "LOC"), (12, 18, "LOC"), (20, 32, "PER")],
                     TEXT)]
    assert counts(pred) == (4, 0, 0)
    exact = nerscore.evaluate(GOLD, pred, zero_division=0.0).micro
    assert (exact.tp, exact.fp, exact.fn) == (3, 1, 1)


def test_multiset_and_label():
    pred = [Document("d1", [(0, 5, "LOC"), (0, 5, "LOC"), (41, 46, "LOC"), (20, 32, "LOC")],
                     TEXT)]
    assert counts(pred) == (2, 2, 2)


def test_documents_are_kept_apart():
    gold = [Document("a", [(0, 5, "LOC")], "Paris"), Document("b", [], "Paris")]
    pred = [Document("a", [], "Paris"), Document("b", [(0, 5, "LOC")], "Paris")]
    r = nerscore.evaluate(gold, pred, match="mention", zero_division=0.0).micro
    assert (r.tp, r.fp, r.fn) == (0, 1, 1)


@pytest.mark.parametrize(("normalize", "tp"), [("exact", 0), ("casefold", 1), ("loose", 1)])
def test_normalize_option(normalize, tp):
    gold = [Document("a", [(0, 5, "LOC")], "Paris paris")]
    pred = [Document("a", [(6, 11, "LOC")], "Paris paris")]
    r = nerscore.evaluate(gold, pred, match="mention", normalize=normalize, zero_division=0.0)
    assert r.micro.tp == tp
    assert r.options == {"normalize": normalize}


def test_tags_with_tokens_compare_token_strings():
    r = nerscore.evaluate([["B-LOC", "O", "B-LOC"]], [["O", "O", "B-LOC"]], match="mention",
                          zero_division=0.0)
    # no tokens: the offsets stand for the strings, as exact matching, and a note says so
    assert (r.micro.tp, r.micro.fn) == (1, 1)
    assert any("had no document texts" in n for n in r.notes)


def test_token_spans_with_token_texts(tmp_path):
    path = tmp_path / "g.conll"
    path.write_text("Paris B-LOC\nand O\nParis B-LOC\n\n")
    pred_path = tmp_path / "p.conll"
    pred_path.write_text("Paris O\nand O\nParis B-LOC\n\n")
    r = nerscore.score_files(path, pred_path, match="mention", zero_division=0.0).report
    assert (r.micro.tp, r.micro.fp, r.micro.fn) == (1, 0, 1)


def test_bad_normalize_is_an_option_error():
    with pytest.raises(OptionError, match="Expected `normalize` to be one of 'exact'"):
        nerscore.evaluate(GOLD, GOLD, match="mention", normalize="fuzzy")


def test_normalize_choices_are_those_of_the_mention_module() -> None:
    from nerscore.decode.mentions import NORMALIZATIONS
    from nerscore.matching import get_matcher
    from nerscore.matching.mention import NORMALIZATIONS as listed

    (option,) = get_matcher("mention").options
    assert listed == option.choices == NORMALIZATIONS
