"""Scoring model outputs (nerscore.scoring.llm): the worked example, every matcher, the fixture set."""

from __future__ import annotations

import json
import warnings

import pytest

import nerscore
from nerscore import Document, Mention, evaluate_llm, read_llm_records
from nerscore.errors import FormatError, InputTypeError, OptionError
from tests.paths import DATA

TEXT = "Paris is in France. Paris Hilton visited Paris."
GOLD = [Document("d1", [(0, 5, "LOC"), (12, 18, "LOC"), (20, 32, "PER"), (41, 46, "LOC")], TEXT)]
OUTPUT = ('```json [{"text":"Paris","label":"LOC"},{"text":"France","label":"LOC"},'
          '{"text":"Paris Hilton","label":"PER"},{"text":"Paris","label":"LOC"},'
          '{"text":"London","label":"LOC"}] ```')
TRAP = [Mention("Paris", "LOC"), Mention("Paris", "LOC"), Mention("France", "LOC"),
        Mention("Paris Hilton", "PER")]


def tpfpfn(report):
    return report.micro.tp, report.micro.fp, report.micro.fn


@pytest.mark.parametrize(("output", "align", "match", "expected"), [
    (OUTPUT, "sequential", "exact", (4, 1, 0)),
    (OUTPUT, "first", "exact", (3, 2, 1)),
    (OUTPUT, "sequential", "mention", (4, 1, 0)),
    (OUTPUT, "first", "mention", (4, 1, 0)),
    (TRAP, "sequential", "exact", (4, 0, 0)),
    (TRAP, "all", "exact", (4, 0, 0)),
    (TRAP, "first", "exact", (3, 1, 1)),
])
def test_worked_example(output, align, match, expected):
    r = evaluate_llm(GOLD, [output], align=align, match=match, zero_division=0.0)
    assert tpfpfn(r) == expected


@pytest.mark.parametrize("match", ["exact", "semeval", "overlap", "threshold", "mention"])
def test_an_unaligned_mention_is_a_false_positive_under_every_matcher(match):
    r = evaluate_llm(GOLD, [OUTPUT], match=match, zero_division=0.0)
    assert tpfpfn(r) == (4, 1, 0)
    assert r.extra["llm"]["unaligned_mentions"] == [{"id": "d1", "text": "London",
                                                      "label": "LOC"}]


def test_token_matcher_counts_the_unaligned_characters():
    r = evaluate_llm(GOLD, [OUTPUT], match="token", zero_division=0.0)
    assert tpfpfn(r) == (28, len("London"), 0)


def test_semeval_tables_count_the_unaligned_as_spurious():
    r = evaluate_llm(GOLD, [OUTPUT], match="semeval", zero_division=0.0)
    strict = r.to_dict()["schemas"]["strict"]["overall"]
    assert (strict["correct"], strict["spurious"], strict["actual"]) == (4, 1, 5)


def test_the_report_states_the_llm_summary():
    r = evaluate_llm(GOLD, [OUTPUT], zero_division=0.0)
    llm = r.to_dict()["llm"]
    assert {k: llm[k] for k in ("documents", "parse_failures", "repaired", "mentions",
                                "unaligned", "ambiguous", "policy", "normalize")} == {
        "documents": 1, "parse_failures": 0, "repaired": 0, "mentions": 5, "unaligned": 1,
        "ambiguous": 0, "policy": "sequential", "normalize": "exact"}
    assert llm["hallucination_rate"] == 0.2
    assert r.notes[0] == (
        "LLM output: 1 document, 0 parse failures, 0 repaired outputs, 5 mentions, 1 unaligned "
        "(hallucination rate 20.0%), 0 ambiguous alignments, 0 out-of-schema labels; "
        "align='sequential', normalize='exact'.")


@pytest.mark.parametrize("output", [
    '[{"text": "Paris", "label": "LOC"}, {"text": "France"}, "Lyon", {"text": 5, "label": "LOC"}]',
    [{"text": "Paris", "label": "LOC"}, {"text": "France"}, "Lyon", {"text": 5, "label": "LOC"}],
    '{"LOC": ["Paris", 7], "PER": {"name": "x"}, "ORG": ["Acme"]}',
    '{"entities": [{"text": "Paris", "label": "LOC"}], "reasoning": "France is a country"}',
])
def test_items_that_are_no_mention_are_counted_and_named_not_dropped_silently(output):
    r = evaluate_llm(GOLD, [output], zero_division=0.0)
    llm = r.extra["llm"]
    assert llm["skipped"] == len(llm["skipped_items"]) > 0
    assert all(item["id"] == "d1" for item in llm["skipped_items"])
    note = next(n for n in r.notes if "were left out" in n)
    assert note.startswith(f"{llm['skipped']} item(s) of the outputs could not be read as mentions")
    assert any(f"document 'd1': {what}" in note for what in ("item", "label", "key"))
    assert r.micro.tp == 1


def test_an_output_with_every_item_readable_skips_nothing():
    r = evaluate_llm(GOLD, [OUTPUT], zero_division=0.0)
    assert (r.extra["llm"]["skipped"], r.extra["llm"]["skipped_items"]) == (0, [])
    assert not any("were left out" in n for n in r.notes)


@pytest.mark.parametrize("count", [evaluate_llm, nerscore.llm_sequence_counts])
def test_a_label_operation_on_a_label_of_the_data_does_not_warn(count):
    # the unaligned 'London' (LOC) is scored apart: PER is a label of the data all the same
    kw = {"zero_division": 0.0} if count is evaluate_llm else {}
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        count(GOLD, [OUTPUT], drop=["PER"], **kw)


@pytest.mark.parametrize("count", [evaluate_llm, nerscore.llm_sequence_counts])
def test_an_unknown_label_warns_once_naming_every_label_of_the_data(count):
    kw = {"zero_division": 0.0} if count is evaluate_llm else {}
    with pytest.warns(nerscore.UnknownLabelWarning) as caught:
        count(GOLD, [[*TRAP, Mention("London", "ORG")]], drop=["PRE"], **kw)
    assert [str(w.message) for w in caught] == [
        "The label operations name 'PRE', which is not a label of the data; the labels are "
        "'LOC', 'ORG', 'PER'. Did you mean 'PER'?"]


def test_a_parse_failure_misses_every_gold_entity_and_is_counted():
    r = evaluate_llm(GOLD, ["I'm sorry, I cannot do that."], zero_division=0.0)
    assert tpfpfn(r) == (0, 0, 4)
    assert r.extra["llm"]["parse_failures"] == 1
    assert any(n.startswith("Parse failures (their gold entities count as missed): "
                            "document 'd1'") for n in r.notes)


def test_labels_casefold_aliases_and_out_of_schema():
    out = [[{"text": "Paris", "label": "loc"}, {"text": "France", "label": "place"},
            {"text": "Paris Hilton", "label": "Person"}, {"text": "Paris", "label": "City"}]]
    r = evaluate_llm(GOLD, out, label_aliases={"LOC": ["place"], "PER": "person"},
                     zero_division=0.0)
    assert tpfpfn(r) == (3, 1, 1)
    assert r.extra["llm"]["out_of_schema"] == 1
    assert r.extra["llm"]["schema_labels"] == {"City": 1}
    assert r.labels["City"].n_pred == 1
    without = evaluate_llm(GOLD, out, zero_division=0.0)
    assert without.extra["llm"]["schema_labels"] == {"City": 1, "Person": 1, "place": 1}


def test_bad_label_aliases():
    with pytest.raises(OptionError, match=r"Aliases are given to 'GPE' \(label_aliases\), which is "):
        evaluate_llm(GOLD, [OUTPUT], label_aliases={"GPE": ["place"]})
    with pytest.raises(OptionError, match="label alias 'X' is given to both 'LOC' and 'PER'"):
        evaluate_llm(GOLD, [OUTPUT], label_aliases={"LOC": ["x"], "PER": ["X"]})


def test_outputs_by_id_and_missing_outputs():
    gold = [*GOLD, Document("d2", [(0, 4, "PER")], "Anna")]
    r = evaluate_llm(gold, {"d2": "PER: Anna"}, zero_division=0.0)
    assert tpfpfn(r) == (1, 0, 4)
    with pytest.raises(InputTypeError, match="Gold has 2 documents but 1 outputs were given"):
        evaluate_llm(gold, ["PER: Anna"])


def test_records_of_a_file_without_ids_that_do_not_pair_with_gold_name_the_file(tmp_path):
    from nerscore.errors import FormatError

    path = tmp_path / "llm.jsonl"
    path.write_text('{"output": "PER: Anna"}\n{"output": "PER: Bob"}\n', encoding="utf-8")
    with pytest.raises(FormatError, match=r"llm.jsonl has 2 records without an 'id' but gold "
                                          r"has 1 document; records without ids are paired"):
        evaluate_llm(GOLD, nerscore.read_llm_records(path))


def test_ignore_regions_of_the_gold_remove_the_aligned_predictions_in_them():
    """The gold side is prepared once for alignment and scoring, ignore regions aside."""
    text = "Paris and Lyon, not Rome"
    plain = Document("b", [(0, 5, "LOC")], text)
    gold = [Document("a", [(0, 5, "LOC")], text, ignore=[(10, 14)]), plain]
    out = ['[{"text": "Paris", "label": "LOC"}, {"text": "Lyon", "label": "LOC"}]'] * 2
    r = evaluate_llm(gold, out, zero_division=0.0)
    assert tpfpfn(r) == (2, 1, 0)
    assert (r.entities["ignore_regions"], r.entities["pred"]["ignored"]) == (1, 1)
    assert r.entities == nerscore.evaluate(
        gold, [[(0, 5, "LOC"), (10, 14, "LOC")]] * 2, zero_division=0.0).entities
    assert tpfpfn(evaluate_llm([plain, Document("c", [(0, 5, "LOC")], text)], out,
                               zero_division=0.0)) == (2, 2, 0)


def test_gold_needs_text():
    with pytest.raises(InputTypeError, match="has no text to align"):
        evaluate_llm([Document("a", [(0, 1, "X")])], ["X: a"])


def test_token_gold_is_snapped():
    gold = [Document("s", [(0, 2, "PER"), (3, 5, "LOC")])]
    tokens = [["Paris", "Hilton", "visited", "New", "York", "."]]
    out = ["PER: Paris Hil\nLOC: New York"]
    r = evaluate_llm(gold, out, tokens=tokens, zero_division=0.0)
    assert tpfpfn(r) == (1, 1, 1)
    assert r.extra["llm"]["snapped"] == 1
    r = evaluate_llm(gold, out, tokens=tokens, snap="expand", zero_division=0.0)
    assert tpfpfn(r) == (2, 0, 0)
    r = evaluate_llm(gold, out, tokens=tokens, snap="strict", zero_division=0.0)
    assert tpfpfn(r) == (1, 1, 1)
    assert r.extra["llm"]["dropped"] == 1


# ------------------------------------------------------------------ the fixture set

LLM_DIR = DATA / "llm"
ALIASES = {"ORG": ["organization"], "PER": ["person"]}


def test_fixture_formats():
    records = read_llm_records(LLM_DIR / "llm.jsonl")
    assert [r.parsed.format for r in records] == [
        "json-list", "json-dict", "xml", "json-list", "json-list", "markdown", "label-lines",
        "item-lines", "at-hash", "json-list", "failed"]
    assert [r.id for r in records if r.parsed.repaired] == ["s04"]


@pytest.mark.parametrize("match", ["exact", "mention", "semeval", "threshold"])
def test_fixture_scores(match):
    gold = nerscore.read_jsonl(LLM_DIR / "gold.jsonl")
    records = read_llm_records(LLM_DIR / "llm.jsonl")
    r = evaluate_llm(gold, records, match=match, label_aliases=ALIASES, zero_division=0.0)
    # 45 gold entities; missed: Rusia (s02, labelled LOC), Polonia (s04, cut off),
    # Francia (s08, labelled Country) and the 4 of s11 (a parse failure);
    # false positives: Rusia/LOC, Francia/Country, Italia (s08, not in the sentence)
    assert tpfpfn(r) == (38, 3, 7)
    llm = r.extra["llm"]
    assert (llm["documents"], llm["parse_failures"], llm["repaired"], llm["mentions"],
            llm["unaligned"], llm["out_of_schema"], llm["rewritten"]) == (11, 1, 1, 41, 1, 1, 19)
    assert llm["unaligned_mentions"] == [{"id": "s08", "text": "Italia", "label": "ORG"}]
    assert llm["schema_labels"] == {"Country": 1}


def test_fixture_without_aliases_tells_schema_from_recognition():
    gold = nerscore.read_jsonl(LLM_DIR / "gold.jsonl")
    records = read_llm_records(LLM_DIR / "llm.jsonl")
    r = evaluate_llm(gold, records, zero_division=0.0)
    # 'Misc' is 'MISC' once case is folded; the other labels need aliases
    assert r.extra["llm"]["schema_labels"] == {"Country": 1, "Organization": 4, "person": 2}
    assert r.labels["MISC"].tp == 5
    assert (r.labels["Organization"].n_pred, r.labels["Organization"].tp) == (4, 0)
    assert tpfpfn(r) == (33, 8, 12)


def test_records_reader_errors(tmp_path):
    path = tmp_path / "llm.jsonl"
    path.write_text(json.dumps({"id": "a", "spans": []}) + "\n")
    with pytest.raises(FormatError, match=r"line 1: expected a model output"):
        read_llm_records(path)
    path.write_text('{"id": "a", "output": "x", "mentions": []}\n')
    with pytest.raises(FormatError, match="has both 'output' and 'mentions'"):
        read_llm_records(path)
    path.write_text('{"id": "a", "mentions": [{"text": "Paris", "label": "LOC"}]}\n'
                    '{"id": "b", "mentions": 3}\n')
    records = read_llm_records(path)
    assert records[0].parsed.mentions == [Mention("Paris", "LOC")]
    assert records[1].parsed.failed


def test_outputs_without_gold_are_unaligned_and_gold_without_output_is_noted():
    gold = [*GOLD, Document("d2", [(0, 3, "PER")], "Ann")]
    r = evaluate_llm(gold, {"d1": "", "d9": "LOC: Paris"}, zero_division=0.0)
    assert tpfpfn(r) == (0, 1, 5)
    llm = r.extra["llm"]
    assert (llm["without_output"], llm["without_gold"], llm["unaligned"]) == (["d2"], ["d9"], 1)
    assert "1 gold document(s) have no output and count as predicting nothing: 'd2'." in r.notes


def test_outputs_of_no_gold_id_are_an_error(tmp_path):
    # as for span files: no id in common is the wrong pair of files, not a score of 0
    with pytest.raises(FormatError, match=r"^None of the 2 model output ids appear among the 1 "
                       r"gold ids \(gold: 'd1'; outputs: 'd8', 'd9'\); check that both sides "
                       r"use the same ids\.$"):
        evaluate_llm(GOLD, {"d8": "", "d9": "LOC: Paris"})
    path = tmp_path / "llm.jsonl"
    path.write_text('{"id": "d9", "output": "LOC: Paris"}\n')
    with pytest.raises(FormatError) as exc:
        evaluate_llm(GOLD, read_llm_records(path))
    assert exc.value.source == str(path)
    assert evaluate_llm(GOLD, {}, zero_division=0.0).extra["llm"]["without_output"] == ["d1"]


def test_records_without_ids_pair_by_position(tmp_path):
    path = tmp_path / "llm.jsonl"
    path.write_text('{"output": "LOC: Paris"}\n')
    records = read_llm_records(path)
    assert (records[0].id, records[0].numbered) == ("1", True)
    r = evaluate_llm(GOLD, records, zero_division=0.0)
    assert tpfpfn(r) == (1, 0, 3)


def test_the_span_reader_points_model_outputs_to_evaluate_llm():
    with pytest.raises(FormatError, match=r"line 1: the record holds a model output \('output' "
                                          r"or 'mentions'\), not spans"):
        nerscore.read_jsonl(LLM_DIR / "llm.jsonl")
