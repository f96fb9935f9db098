"""The matcher registry: option resolution and its messages for unknown keywords."""

from __future__ import annotations

import pytest

import nerscore
from nerscore.errors import OptionError
from nerscore.matching import get_matcher

GOLD = [["B-PER", "O", "B-LOC"]]
PRED = [["B-PER", "O", "O"]]
EVALUATE_KEYWORDS = ("'match', 'scheme', 'mode', 'beta', 'zero_division', 'labels', 'suffix', "
                     "'delimiter', 'outside', 'discontinuous', 'subset', 'min_score', 'labels_map', 'keep', 'drop'")


def _message(call):
    with pytest.raises(OptionError) as e:
        call()
    assert isinstance(e.value, TypeError)
    assert isinstance(e.value, ValueError)
    return str(e.value)


def test_a_misspelt_keyword_of_evaluate_is_named_with_its_close_match():
    assert _message(lambda: nerscore.evaluate(GOLD, PRED, mathc="exact")) == (
        f"Unknown keyword 'mathc'; did you mean 'match'? The keywords are {EVALUATE_KEYWORDS} "
        "and the options of match='exact': 'labeled'.")


def test_a_misspelt_keyword_of_entity_scorer_is_named_with_its_close_match():
    assert _message(lambda: nerscore.EntityScorer(schem="BIO")) == (
        "Unknown keyword 'schem'; did you mean 'scheme'? The keywords are 'scheme', 'mode', "
        "'match', 'beta', 'zero_division', 'labels', 'suffix', 'delimiter', 'outside', "
        "'confusion', 'on_errors', 'whole_input', 'discontinuous', 'subset', 'min_score', 'labels_map', 'keep', 'drop' and the options of "
        "match='exact': 'labeled'.")


@pytest.mark.parametrize(
    ("call", "typo", "meant"),
    [
        (lambda: nerscore.f1_score(GOLD, PRED, averge="macro"), "averge", "average"),
        (lambda: nerscore.f1_score(GOLD, PRED, zero_divison=0.0), "zero_divison", "zero_division"),
        (lambda: nerscore.f1_score(GOLD, PRED, lables=["PER"]), "lables", "labels"),
        (lambda: nerscore.precision_score(GOLD, PRED, bta=1.0), "bta", "beta"),
        (lambda: nerscore.fbeta_score(GOLD, PRED, sufix=True), "sufix", "suffix"),
        (lambda: nerscore.recall_score(GOLD, PRED, delimter="_"), "delimter", "delimiter"),
        (lambda: nerscore.evaluate(GOLD, PRED, outsde="O"), "outsde", "outside"),
        (lambda: nerscore.evaluate(GOLD, PRED, zero_divsion=0.0), "zero_divsion", "zero_division"),
        (lambda: nerscore.evaluate(GOLD, PRED, labled=False), "labled", "labeled"),
        (lambda: nerscore.evaluate(GOLD, PRED, match="overlap", assigment="greedy"), "assigment",
         "assignment"),
        (lambda: nerscore.count_matches(GOLD, PRED, moed="strict"), "moed", "mode"),
        (lambda: nerscore.classification_report(GOLD, PRED, sheme="BIO"), "sheme", "scheme"),
        (lambda: nerscore.confusion_matrix(GOLD, PRED, shceme="BIO"), "shceme", "scheme"),
        (lambda: nerscore.list_errors(GOLD, PRED, mach="exact"), "mach", "match"),
        (lambda: nerscore.EntityScorer(zero_divison=0.0), "zero_divison", "zero_division"),
        (lambda: nerscore.EntityScorer(match="threshold", tt=0.5), "tt", "t"),
    ],
)
def test_every_entry_point_suggests_its_own_keywords_and_the_matchers(call, typo, meant):
    assert _message(call).startswith(f"Unknown keyword {typo!r}; did you mean {meant!r}? ")


def test_only_keywords_the_function_takes_are_suggested_and_listed():
    # EntityScorer has no `average`; count_matches has no scoring keywords
    message = _message(lambda: nerscore.EntityScorer(averge="macro"))
    assert message.startswith("Unknown keyword 'averge'. The keywords are 'scheme',")
    assert "'average'" not in message
    message = _message(lambda: nerscore.count_matches(GOLD, PRED, zero_divison=0.0))
    assert message == (
        "Unknown keyword 'zero_divison'. The keywords are 'scheme', 'mode', 'match', 'suffix', "
        "'delimiter', 'outside', 'discontinuous', 'subset', 'min_score', 'labels_map', 'keep', 'drop' and the options of match='exact': "
        "'labeled'.")


def test_an_option_of_another_matcher_is_named_as_such():
    assert _message(lambda: nerscore.evaluate(GOLD, PRED, t=0.5)) == (
        "Unknown keyword 't' (an option of match='threshold', not of match='exact'). The "
        f"keywords are {EVALUATE_KEYWORDS} and the options of match='exact': 'labeled'.")
    assert _message(lambda: nerscore.evaluate(GOLD, PRED, match="token", compat=None)) == (
        "Unknown keyword 'compat' (an option of match='semeval' and match='overlap' and "
        f"match='threshold', not of match='token'). The keywords are {EVALUATE_KEYWORDS} "
        "(match='token' has no options).")


def test_several_unknown_keywords_are_all_named():
    assert _message(lambda: nerscore.evaluate(GOLD, PRED, mathc="exact", colour="red")) == (
        "Unknown keywords 'mathc' (did you mean 'match'?), 'colour'. The keywords are "
        f"{EVALUATE_KEYWORDS} and the options of match='exact': 'labeled'.")


def test_resolve_called_directly_lists_the_decoding_keywords():
    with pytest.raises(OptionError, match=r"^Unknown keyword 'labled'; did you mean 'labeled'\? "
                                          r"The keywords are 'match', 'scheme', 'mode', "):
        get_matcher("exact").resolve({"labled": False})


def test_valid_options_resolve_with_defaults():
    assert get_matcher("threshold").resolve({"t": 1}) == {"t": 1.0, "compat": None}
