"""Per-document counts of model outputs: their sums are evaluate_llm's counts; intervals and comparisons."""

from __future__ import annotations

import numpy as np
import pytest

import nerscore
from nerscore import Document, Mention, evaluate_llm, llm_sequence_counts, read_llm_records
from tests.paths import DATA

LLM_DIR = DATA / "llm"
ALIASES = {"ORG": ["organization"], "PER": ["person"]}
TEXT = "Paris is in France. Paris Hilton visited Paris."
GOLD = [Document("d1", [(0, 5, "LOC"), (12, 18, "LOC"), (20, 32, "PER"), (41, 46, "LOC")],
                 TEXT)]
OUTPUT = [Mention("Paris", "LOC"), Mention("France", "LOC"), Mention("Paris Hilton", "PER"),
          Mention("Paris", "LOC"), Mention("London", "LOC")]
MATCHERS = ["exact", "semeval", "overlap", "threshold", "token", "mention"]


def totals(sc):
    return {lab: (c["tp"], c["n_pred"], c["n_gold"]) for lab, c in sc.totals().items()}


def report_totals(report):
    return {lab: (c["tp"], c["n_pred"], c["n_gold"])
            for lab, c in report.counts.to_dict().items()
            if c["n_pred"] or c["n_gold"]}


@pytest.mark.parametrize("match", MATCHERS)
@pytest.mark.parametrize("align", ["sequential", "first"])
def test_rows_sum_to_the_report_on_the_fixture_set(match, align):
    gold = nerscore.read_jsonl(LLM_DIR / "gold.jsonl")
    records = read_llm_records(LLM_DIR / "llm.jsonl")
    options = {"overlapping": "merge"} if match == "overlap" and align == "first" else {}
    kw = {"match": match, "align": align, "label_aliases": ALIASES, **options}
    sc = llm_sequence_counts(gold, records, **kw)
    assert totals(sc) == report_totals(evaluate_llm(gold, records, zero_division=0.0, **kw))
    assert sc.ids == tuple(f"s{k:02d}" for k in range(1, 12))


@pytest.mark.parametrize("match", MATCHERS)
def test_an_unaligned_mention_is_a_false_positive_of_its_own_document(match):
    gold = [*GOLD, Document("d2", [(0, 4, "PER")], "Anna slept.")]
    sc = llm_sequence_counts(gold, {"d1": OUTPUT, "d2": [Mention("Anna", "PER")]}, match=match)
    assert totals(sc) == report_totals(evaluate_llm(gold, {"d1": OUTPUT, "d2": [
        Mention("Anna", "PER")]}, match=match, zero_division=0.0))
    loc = sc.labels.index("LOC")
    extra = len("London") if match == "token" else 1
    assert sc.n_pred[0, loc] - sc.tp[0, loc] == extra  # London, in d1's row
    assert sc.n_pred[1].sum() == sc.tp[1].sum()        # d2: nothing spurious


def test_token_gold_rows_count_tokens():
    tokens = [["Paris", "Hilton", "visited", "New", "York", "."], ["Anna", "slept"]]
    gold = [Document("1", [(0, 2, "PER"), (3, 5, "LOC")]), Document("2", [(0, 1, "PER")])]
    outputs = ["PER: Paris Hil\nLOC: New York, Old York", "nothing to see"]
    for match in ("exact", "token"):
        sc = llm_sequence_counts(gold, outputs, match=match, tokens=tokens)
        r = evaluate_llm(gold, outputs, match=match, tokens=tokens, zero_division=0.0)
        assert totals(sc) == report_totals(r)
    # "nothing to see" is a parse failure: the second sentence misses Anna
    assert sc.n_gold[1].sum() == 1
    assert sc.tp[1].sum() == 0
    assert sc.n_pred[1].sum() == 0


def test_outputs_for_documents_gold_lacks_get_their_own_row():
    sc = llm_sequence_counts(GOLD, {"d1": OUTPUT[:4], "zz": [Mention("Rome", "LOC")]})
    assert sc.ids == ("d1", "zz")
    assert sc.n_gold[1].sum() == 0
    assert sc.n_pred[1].sum() == 1


def test_intervals_are_centred_on_the_report():
    gold = nerscore.read_jsonl(LLM_DIR / "gold.jsonl")
    records = read_llm_records(LLM_DIR / "llm.jsonl")
    r = evaluate_llm(gold, records, label_aliases=ALIASES, zero_division=0.0)
    sc = llm_sequence_counts(gold, records, label_aliases=ALIASES)
    ci = nerscore.confidence_intervals(gold, sc, n_resamples=200, seed=3)
    micro = ci.systems[0].micro
    assert (micro.precision.value, micro.recall.value, micro.f1.value) == pytest.approx(
        (r.micro.precision, r.micro.recall, r.micro.f1))
    assert micro.f1.low < micro.f1.value < micro.f1.high
    assert (ci.unit, ci.n_units, ci.options) == ("document", 11, {"labeled": True})


def test_compare_pairs_model_outputs_with_a_span_file_by_id():
    gold = nerscore.read_jsonl(LLM_DIR / "gold.jsonl")
    records = read_llm_records(LLM_DIR / "llm.jsonl")
    sc = llm_sequence_counts(gold, records, label_aliases=ALIASES)
    perfect = list(reversed(gold))  # joined by id, not by position
    res = nerscore.compare(gold, {"llm": sc, "perfect": perfect}, n_resamples=200)
    assert res.system("perfect").micro.f1.value == 1.0
    r = evaluate_llm(gold, records, label_aliases=ALIASES, zero_division=0.0)
    assert res.system("llm").micro.f1.value == pytest.approx(r.micro.f1)
    assert res.pairs[0].difference.value == pytest.approx(r.micro.f1 - 1.0)


def test_documents_group_the_rows_of_counts_given():
    gold = [Document(str(k), [(0, 1, "A")], "x y") for k in range(4)]
    sc = llm_sequence_counts(gold, ["A: x", "A: y", "A: x", "nothing"])
    res = nerscore.confidence_intervals(gold, sc, documents=[0, 2], n_resamples=20)
    assert res.n_units == 2
    assert np.isclose(res.systems[0].micro.recall.value, 0.5)
