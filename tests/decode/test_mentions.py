"""Placing mentions in the source text (nerscore.decode.mentions)."""

from __future__ import annotations

import pytest

import nerscore
from nerscore import Mention, align_mentions, parse_llm_output
from nerscore.decode.mentions import normalize_mention, normalize_text
from nerscore.errors import OptionError

TEXT = "Paris is in France. Paris Hilton visited Paris."
OUTPUT = [Mention("Paris", "LOC"), Mention("France", "LOC"), Mention("Paris Hilton", "PER"),
          Mention("Paris", "LOC"), Mention("London", "LOC")]
TRAP = [Mention("Paris", "LOC"), Mention("Paris", "LOC"), Mention("France", "LOC"),
        Mention("Paris Hilton", "PER")]


def spans(alignment):
    return [(e.start, e.end, e.label) for e in alignment.entities]


def test_sequential_takes_the_kth_free_occurrence():
    a = align_mentions(TEXT, OUTPUT)
    assert spans(a) == [(0, 5, "LOC"), (12, 18, "LOC"), (20, 32, "PER"), (41, 46, "LOC")]
    assert a.unaligned == [Mention("London", "LOC")]
    assert (a.ambiguous, a.n_mentions, a.policy, a.normalize) == (0, 5, "sequential", "exact")


def test_first_takes_the_first_occurrence_for_every_repeat():
    a = align_mentions(TEXT, OUTPUT, policy="first")
    assert spans(a) == [(0, 5, "LOC"), (0, 5, "LOC"), (12, 18, "LOC"), (20, 32, "PER")]
    assert a.unaligned == [Mention("London", "LOC")]
    assert a.ambiguous == 2


def test_all_takes_every_free_occurrence_of_each_string():
    a = align_mentions(TEXT, [Mention("Paris", "LOC"), Mention("Paris Hilton", "PER")],
                       policy="all")
    assert spans(a) == [(0, 5, "LOC"), (20, 32, "PER"), (41, 46, "LOC")]


@pytest.mark.parametrize("policy", ["sequential", "first", "all"])
def test_a_string_inside_an_aligned_longer_one_is_not_free(policy):
    a = align_mentions(TEXT, TRAP, policy=policy)
    assert (20, 32, "PER") in spans(a)
    assert not any(s == 20 and e == 25 for s, e, _ in spans(a))


def test_extra_repeats_are_unaligned_under_sequential():
    a = align_mentions("EFE - Madrid (EFE).", [Mention("EFE", "ORG")] * 3)
    assert spans(a) == [(0, 3, "ORG"), (14, 17, "ORG")]
    assert len(a.unaligned) == 1


def test_ambiguous_counts_mentions_with_more_occurrences_than_mentions():
    a = align_mentions("Cuba y Cuba", [Mention("Cuba", "ORG")])
    assert (spans(a), a.ambiguous) == ([(0, 4, "ORG")], 1)


def test_all_counts_a_second_label_for_one_string_as_ambiguous():
    a = align_mentions("Cuba y Cuba", [Mention("Cuba", "ORG"), Mention("Cuba", "LOC")],
                       policy="all")
    assert (spans(a), a.ambiguous) == ([(0, 4, "ORG"), (7, 11, "ORG")], 1)


@pytest.mark.parametrize(("normalize", "found"), [
    ("exact", []), ("casefold", [(4, 9)]), ("loose", [(4, 9), (15, 28)]),
])
def test_normalizations(normalize, found):
    text = "Vio PARÍS y la Casa   Blanca."
    a = align_mentions(text, [Mention("parís", "LOC"), Mention('"Casa Blanca",', "LOC")],
                       normalize=normalize)
    assert [(s, e) for s, e, _ in spans(a)] == found
    assert len(a.unaligned) == 2 - len(found)


def test_normalize_maps_back_to_original_offsets():
    text, origin = normalize_text("Straße  X", "loose")
    assert text == "strasse x"
    a = align_mentions("Die Straße  X.", [Mention("STRASSE X", "LOC")], normalize="loose")
    assert spans(a) == [(4, 13, "LOC")]
    assert origin[-1] == 8
    assert normalize_mention("«Paris»", "loose") == "paris"


def test_offsets_are_kept_when_they_point_at_the_text():
    a = align_mentions(TEXT, [Mention("Paris", "LOC", 41, 46), Mention("Paris", "LOC")])
    assert spans(a) == [(0, 5, "LOC"), (41, 46, "LOC")]
    assert a.offsets_rejected == 0


def test_wrong_offsets_are_counted_and_the_string_is_placed():
    a = align_mentions(TEXT, [Mention("France", "LOC", 0, 6)])
    assert (spans(a), a.offsets_rejected) == ([(12, 18, "LOC")], 1)


def test_inline_markup_copied_exactly_uses_its_offsets():
    parsed = parse_llm_output("<LOC>Paris</LOC> is in France. Paris Hilton visited "
                              "<LOC>Paris</LOC>.")
    a = align_mentions(TEXT, parsed)
    assert (spans(a), a.rewritten, a.ambiguous) == ([(0, 5, "LOC"), (41, 46, "LOC")], 0, 0)


def test_rewritten_inline_markup_is_mapped_back_and_counted():
    parsed = parse_llm_output("[Paris](LOC) is in France, and [Paris Hilton](PER) visited it.")
    a = align_mentions(TEXT, parsed)
    assert spans(a) == [(0, 5, "LOC"), (20, 32, "PER")]
    assert a.rewritten > 0
    assert a.unaligned == []


TOKENS = ["Paris", "Hilton", "visited", "New", "York", "."]


@pytest.mark.parametrize(("snap", "expected", "snapped", "dropped"), [
    ("contract", [(0, 1, "PER"), (3, 5, "LOC")], 1, 0),
    ("expand", [(0, 2, "PER"), (3, 5, "LOC")], 1, 0),
    ("strict", [(3, 5, "LOC")], 0, 1),
])
def test_token_input_snaps_to_token_boundaries(snap, expected, snapped, dropped):
    a = align_mentions(TOKENS, [Mention("Paris Hil", "PER"), Mention("New York", "LOC")],
                       snap=snap)
    assert spans(a) == expected
    assert (a.snapped, len(a.dropped)) == (snapped, dropped)


def test_contract_drops_a_span_holding_no_whole_token():
    a = align_mentions(TOKENS, [Mention("isit", "X")])
    assert (spans(a), len(a.dropped)) == ([], 1)


@pytest.mark.parametrize(("keyword", "value"), [
    ("policy", "last"), ("normalize", "fuzzy"), ("snap", "nearest")])
def test_unknown_choices_are_option_errors(keyword, value):
    with pytest.raises(OptionError, match=f"Expected `{keyword}` to be one of"):
        align_mentions(TEXT, [], **{keyword: value})


def test_public_names():
    assert nerscore.align_mentions is align_mentions
    assert isinstance(align_mentions("", []), nerscore.MentionAlignment)
