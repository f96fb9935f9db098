"""Reading model outputs as mentions (nerscore.io.llm_output, nerscore.io._json_repair)."""

from __future__ import annotations

import json

import pytest

import nerscore
from nerscore import Mention, parse_llm_output
from nerscore.errors import OptionError
from nerscore.io._json_repair import load_json

LIST = '[{"text": "Paris", "label": "LOC"}, {"text": "Anna", "label": "PER"}]'
PAIRS = [("Paris", "LOC"), ("Anna", "PER")]


def pairs(parsed):
    return [(m.text, m.label) for m in parsed.mentions]


@pytest.mark.parametrize("output", [
    LIST,
    f"```json\n{LIST}\n```",
    f"```\n{LIST}\n```",
    f"```json {LIST} ```",
    f"Sure! Here are the entities:\n{LIST}\nHope this helps.",
    f"The entities are {LIST}.",
])
def test_json_list_bare_fenced_or_among_prose(output):
    parsed = parse_llm_output(output)
    assert (parsed.format, pairs(parsed), parsed.problems, parsed.repairs) == (
        "json-list", PAIRS, (), ())


@pytest.mark.parametrize(("text_key", "label_key"), [
    ("text", "label"), ("entity", "type"), ("mention", "entity_type"), ("span", "label"),
])
def test_json_list_key_names(text_key, label_key):
    parsed = parse_llm_output(f'[{{"{text_key}": "Paris", "{label_key}": "LOC"}}]')
    assert pairs(parsed) == [("Paris", "LOC")]


def test_json_offsets_are_kept():
    parsed = parse_llm_output('[{"text": "Paris", "label": "LOC", "start": 4, "end": 9}]')
    assert parsed.mentions == [Mention("Paris", "LOC", 4, 9)]


def test_json_dict_by_label_and_wrapped_list():
    parsed = parse_llm_output('{"LOC": ["Paris", "Lyon"], "PER": ["Anna"], "ORG": []}')
    assert parsed.format == "json-dict"
    assert pairs(parsed) == [("Paris", "LOC"), ("Lyon", "LOC"), ("Anna", "PER")]
    wrapped = parse_llm_output('{"entities": [{"text": "Paris", "label": "LOC"}]}')
    assert (wrapped.format, pairs(wrapped)) == ("json-list", [("Paris", "LOC")])


@pytest.mark.parametrize("extra", ['"reasoning": "Paris is a city"', '"count": 1',
                                   '"explanation": ["Paris is a city"]'])
def test_an_entity_list_beside_other_keys_is_read_as_the_list(extra):
    # read as a dict of labels, the entities would be skipped and the other key a mention
    parsed = parse_llm_output('{"entities": [{"text": "Paris", "label": "LOC"}], ' + extra + "}")
    assert (parsed.format, pairs(parsed)) == ("json-list", [("Paris", "LOC")])
    key = extra.split('"')[1]
    assert len(parsed.problems) == 1
    assert parsed.problems[0].startswith(f"key {key!r} (")
    assert parsed.problems[0].endswith("beside the entity list 'entities' is not read; skipped")


def test_a_long_value_beside_the_entity_list_is_named_cut_short():
    reasoning = "Paris is the capital of France. " * 40
    parsed = parse_llm_output(json.dumps({"entities": [{"text": "Paris", "label": "LOC"}],
                                          "reasoning": reasoning}))
    (problem,) = parsed.problems
    assert problem.startswith("key 'reasoning' ('Paris is the capital of France. Paris")
    assert "'... (1280 characters)) beside the entity list" in problem
    assert len(problem) < 200  # the value is 1,280 characters


def test_a_dict_of_labels_named_like_a_wrapper_is_still_a_dict_of_labels():
    parsed = parse_llm_output('{"entities": ["Paris"], "LOC": ["Lyon"]}')
    assert (parsed.format, pairs(parsed)) == ("json-dict", [("Paris", "entities"),
                                                            ("Lyon", "LOC")])


def test_items_without_text_or_label_are_skipped_and_located():
    parsed = parse_llm_output('[{"text": "Paris"}, {"label": "LOC"}, 3, {"text": "Lyon", '
                              '"label": "LOC"}]')
    assert pairs(parsed) == [("Lyon", "LOC")]
    assert [p.split(" (")[0] for p in parsed.problems] == ["item 1", "item 2", "item 3"]
    assert "no label key" in parsed.problems[0]
    assert "no text key" in parsed.problems[1]


def test_truncated_json_is_closed_and_the_cut_element_dropped():
    parsed = parse_llm_output('```json\n[{"text": "Paris", "label": "LOC"}, {"text": "Ly')
    assert pairs(parsed) == [("Paris", "LOC")]
    assert parsed.repaired
    assert parsed.repairs == ("closed a JSON output cut short, dropping its last 14 characters",)


def test_a_cut_of_one_character_is_counted_in_the_singular():
    parsed = parse_llm_output('[{"text": "Paris", "label": "LOC"}{')
    assert parsed.repairs == ("closed a JSON output cut short, dropping its last 1 character",)


def test_truncated_dict_keeps_complete_strings():
    parsed = parse_llm_output('{"LOC": ["Paris", "Lyon"], "PER": ["An')
    assert pairs(parsed) == [("Paris", "LOC"), ("Lyon", "LOC")]


def test_trailing_commas_and_python_literals_are_repaired():
    parsed = parse_llm_output('[{"text": "Paris", "label": "LOC",},]')
    assert pairs(parsed) == [("Paris", "LOC")]
    assert parsed.repairs == ("removed 2 trailing comma(s)",)
    parsed = parse_llm_output("[{'text': 'Paris', 'label': 'LOC'}]")
    assert pairs(parsed) == [("Paris", "LOC")]
    assert parsed.repairs == ("read a Python literal (single quotes) as JSON",)


def test_unrepairable_json_is_a_located_parse_failure():
    parsed = parse_llm_output('Answer:\n[{"text": "Paris" "label": "LOC"}]')
    assert parsed.failed
    assert parsed.mentions == []
    assert parsed.problems == (
        "malformed JSON (Expecting ',' delimiter at line 1, column 19) in the JSON starting at "
        "line 2",)


@pytest.mark.parametrize("output", ["I cannot help with that.", "Paris is a city", "{", "["])
def test_unreadable_output_is_a_failure_not_an_exception(output):
    parsed = parse_llm_output(output)
    assert parsed.failed
    assert parsed.mentions == []
    assert len(parsed.problems) == 1


@pytest.mark.parametrize("output", ["", "  ", "None", "none.", "[]", "{}"])
def test_empty_answers_have_no_mentions_and_are_not_failures(output):
    parsed = parse_llm_output(output)
    assert parsed.mentions == []
    assert not parsed.failed


def test_not_a_string_is_a_failure():
    parsed = parse_llm_output(None)
    assert parsed.failed
    assert parsed.problems == ("expected the output to be a string; got null",)


@pytest.mark.parametrize(("output", "fmt"), [
    ("<PER>Anna</PER> flew to <LOC>Paris</LOC>.", "xml"),
    ("[Anna](PER) flew to [Paris](LOC).", "markdown"),
    ("@@Anna##PER flew to @@Paris##LOC.", "at-hash"),
])
def test_inline_markup_gives_the_written_text_and_offsets(output, fmt):
    parsed = parse_llm_output(output)
    assert parsed.format == fmt
    assert parsed.text == "Anna flew to Paris."
    assert parsed.mentions == [Mention("Anna", "PER", 0, 4), Mention("Paris", "LOC", 13, 18)]


def test_label_lines_and_item_lines():
    parsed = parse_llm_output("Entities:\nLOC: Paris, Lyon\nPER: Anna\nORG: none")
    assert parsed.format == "label-lines"
    assert pairs(parsed) == [("Paris", "LOC"), ("Lyon", "LOC"), ("Anna", "PER")]
    parsed = parse_llm_output("1. Paris (LOC)\n2. Anna (PER)\n- \"Lyon\" (LOC)")
    assert parsed.format == "item-lines"
    assert pairs(parsed) == [("Paris", "LOC"), ("Anna", "PER"), ("Lyon", "LOC")]


def test_a_named_format_reads_only_that_format():
    assert parse_llm_output("LOC: Paris", format="json").failed
    assert parse_llm_output(LIST, format="json").format == "json-list"
    assert pairs(parse_llm_output("<LOC>Paris</LOC>", format="xml")) == [("Paris", "LOC")]
    assert parse_llm_output("<LOC>Paris</LOC>", format="lines").failed


def test_unknown_format_is_an_option_error():
    with pytest.raises(OptionError, match="Expected `format` to be one of 'auto', 'json'"):
        parse_llm_output(LIST, format="yaml")


def test_load_json_of_an_output_nested_too_deeply_is_malformed():
    assert load_json("[" * 100_000) == (None, ["malformed JSON (nested too deeply to read)"])


@pytest.mark.parametrize("output", ["[" * 100_000 + "]" * 100_000, "[" * 100_000,
                                    'Sure: [{"text": ' + "[" * 100_000 + "]" * 100_000 + "}]"])
def test_an_output_nested_too_deeply_is_a_parse_failure(output):
    parsed = parse_llm_output(output, format="json")
    assert parsed.failed
    assert parsed.problems[0].startswith("malformed JSON (nested too deeply to read) in the JSON")


def test_load_json_reports_where_it_broke():
    value, problems = load_json('{"a": 1 "b": 2}')
    assert value is None
    assert problems == ["malformed JSON (Expecting ',' delimiter at line 1, column 9)"]


def test_public_names():
    assert nerscore.parse_llm_output is parse_llm_output
    assert nerscore.ParsedOutput([], "failed").failed
