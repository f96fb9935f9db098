"""Dataset diagnostics: each finding fires on a crafted split and stays silent on a clean one."""

from __future__ import annotations

import json
import math

import pytest

import nerscore
from nerscore import diagnose, render_diagnostics
from nerscore.analysis.diagnostics import KINDS
from nerscore.errors import InputTypeError, OptionError

DATA = "tests/data/diagnostics/"


def conll(name: str) -> nerscore.EncodedTags:
    return nerscore.read_conll(DATA + name).tags


def words(n: int, prefix: str) -> list[str]:
    return [f"{prefix}{k}" for k in range(n)]


def corpus(counts: dict[str, int], prefix: str) -> tuple[list[list[str]], list[list[str]]]:
    """One sentence per entity: ``<name> went .`` with a fresh name each time."""
    tags, tokens = [], []
    for label, n in counts.items():
        for name in words(n, f"{prefix}{label}"):
            tags.append([f"B-{label}", "O", "O"])
            tokens.append([name, "went", "."])
    return tags, tokens


CLEAN = {"PER": 20, "LOC": 20}


def clean_split() -> dict[str, object]:
    train, train_tokens = corpus(CLEAN, "tr")
    test, test_tokens = corpus({"PER": 10, "LOC": 10}, "te")
    return {"train": train, "test": test, "train_texts": train_tokens,
            "test_texts": test_tokens}


def test_clean_split_has_no_finding_with_every_check_run():
    split = clean_split()
    d = diagnose(split["train"], split["test"], pred=split["test"], scheme="IOB2",
                 train_texts=split["train_texts"], test_texts=split["test_texts"])
    assert d.findings == ()
    assert dict(d.skipped) == {}
    assert d.total_variation == 0.0
    assert dict(d.seen or {}) == {"n_test": 20, "n_seen": 0, "share": 0.0}


def test_clean_files_have_no_finding():
    d = diagnose(conll("clean_train.conll"), conll("clean_test.conll"),
                 pred=conll("clean_pred.conll"), scheme="IOB2")
    assert d.findings == ()
    assert dict(d.skipped) == {}


def test_crafted_files_trigger_every_kind():
    d = diagnose(conll("train.conll"), conll("test.conll"), pred=conll("pred.conll"),
                 scheme="IOB2")
    assert d.kinds == set(KINDS)
    assert [f.severity for f in d.findings] == sorted(
        (f.severity for f in d.findings), key=("error", "warning", "info").index)
    assert d.train_counts == {"LOC": 30, "MISC": 0, "ORG": 3, "PER": 31}
    assert d.pred_counts == {"LOC": 0, "MISC": 0, "ORG": 0, "PER": 12}
    data = json.loads(d.to_json())
    assert data["format_version"] == 1
    assert {f["kind"] for f in data["findings"]} == set(KINDS)
    assert data["seen_scores"]["buckets"][0]["name"] == "seen"


def test_label_presence_and_few_instances():
    train, _ = corpus({"PER": 20, "LOC": 20, "ORG": 4}, "a")
    test, _ = corpus({"PER": 10, "LOC": 10, "MISC": 2}, "b")
    d = diagnose(train, test, min_instances=15)
    got = {(f.kind, f.labels, f.severity) for f in d.findings}
    assert got == {("missing_in_train", ("MISC",), "error"),
                   ("missing_in_test", ("ORG",), "warning"),
                   ("few_instances", ("ORG",), "warning")}
    few = d.of_kind("few_instances")[0]
    assert dict(few.numbers) == {"train": 4, "min_instances": 15}
    assert few.advice
    assert diagnose(train, test, min_instances=4).of_kind("few_instances") == []


def test_distribution_shift_needs_effect_and_significance():
    train, _ = corpus({"PER": 50, "LOC": 50}, "a")
    test, _ = corpus({"PER": 40, "LOC": 10}, "b")
    d = diagnose(train, test)
    (f,) = d.of_kind("distribution_shift")
    assert f.labels == ("LOC",)
    assert math.isclose(f.numbers["ratio"], 0.4)
    assert f.numbers["z"] < -1.96
    assert math.isclose(d.total_variation, 0.3)
    # the same ratio on a handful of entities is not significant
    small_test, _ = corpus({"PER": 4, "LOC": 1}, "c")
    assert diagnose(train, small_test).of_kind("distribution_shift") == []
    # a significant but small change is not reported
    test2, _ = corpus({"PER": 300, "LOC": 200}, "d")
    assert diagnose(train, test2).of_kind("distribution_shift") == []
    assert diagnose(train, test, shift_threshold=3.0).of_kind("distribution_shift") == []


def test_confused_labels_from_the_confusion_matrix():
    split = clean_split()
    test = split["test"]
    pred = [list(s) for s in test]
    for s in pred[:3]:  # 3 of 10 PER predicted as LOC
        s[0] = "B-LOC"
    d = diagnose(split["train"], test, pred=pred)
    (f,) = d.of_kind("confused_labels")
    assert f.labels == ("PER", "LOC")
    assert (f.numbers["count"], f.numbers["gold_total"], f.numbers["reverse_count"]) == (3, 10, 0)
    assert diagnose(split["train"], test, pred=pred,
                    confusion_threshold=0.5).of_kind("confused_labels") == []
    assert "confused_labels" in diagnose(split["train"], test).skipped


def test_invalid_transitions_per_side_with_locations():
    split = clean_split()
    train = [list(s) for s in split["train"]]
    train[2] = ["O", "I-PER", "O"]
    train[5] = ["I-LOC", "O", "O"]
    pred = [list(s) for s in split["test"]]
    pred[0] = ["I-PER", "O", "O"]
    d = diagnose(train, split["test"], pred=pred, scheme="IOB2")
    by_side = {f.numbers["side"]: f for f in d.of_kind("invalid_transitions")}
    assert set(by_side) == {"train", "pred"}
    assert by_side["train"].severity == "warning"
    assert by_side["pred"].severity == "info"
    assert by_side["train"].numbers["count"] == 2
    assert [(x["sentence"], x["index"]) for x in by_side["train"].numbers["first"]] == [
        (2, 1), (5, 0)]
    assert diagnose(train, split["test"]).skipped["invalid_transitions"] == "no scheme given"
    strict = diagnose(train, split["test"], scheme="IOB2", mode="strict")
    assert "strict decoding drops" in strict.of_kind("invalid_transitions")[0].advice


def test_seen_overlap_and_unseen_gap():
    train, train_tokens = corpus({"PER": 20, "LOC": 20}, "x")
    test = [["B-PER", "O", "O"]] * 6 + [["B-LOC", "O", "O"]] * 4
    test_tokens = [[f"xPER{k}", "went", "."] for k in range(6)] + [
        [f"new{k}", "went", "."] for k in range(4)]
    pred = [["B-PER", "O", "O"]] * 6 + [["O", "O", "O"]] * 4
    d = diagnose(train, test, pred=pred, train_texts=train_tokens, test_texts=test_tokens)
    assert dict(d.seen or {}) == {"n_test": 10, "n_seen": 6, "share": 0.6}
    assert {f.kind for f in d.findings} == {"seen_overlap", "unseen_gap"}
    gap = d.of_kind("unseen_gap")[0]
    assert (gap.numbers["seen_f1"], gap.numbers["unseen_f1"]) == (1.0, 0.0)
    assert d.seen_scores is not None
    assert d.seen_scores["unseen"].n_gold == 4
    quiet = diagnose(train, test, pred=pred, train_texts=train_tokens, test_texts=test_tokens,
                     seen_threshold=0.7)
    assert quiet.kinds == {"unseen_gap"}
    blind = diagnose(train, test)
    assert blind.seen is None
    assert blind.skipped["seen_overlap"].startswith("surface forms unknown")


def test_span_documents_use_their_texts():
    train = nerscore.read_jsonl(DATA + "spans_train.jsonl")
    test = nerscore.read_jsonl(DATA + "spans_test.jsonl")
    d = diagnose(train, test)
    assert d.skipped["invalid_transitions"] == "span input has no tags"
    assert d.seen is not None
    assert d.seen["n_test"] == 16
    assert "missing_in_train" in d.kinds
    assert d.settings["scheme"] is None


def test_test_documents_are_counted_without_the_predictions_extra_ones():
    train = {"t1": [(0, 3, "PER")]}
    test = {"d1": [(0, 3, "PER")], "d2": []}
    pred = {"d1": [(0, 3, "PER")], "d2": [], "x": [(0, 1, "PER")], "y": []}
    d = diagnose(train, test, pred=pred)
    assert (d.n_train_sequences, d.n_test_sequences) == (1, 2)
    assert d.test_counts == {"PER": 1}
    assert any("2 predicted document(s) are not in the gold data" in n for n in d.notes)


def test_refusals():
    with pytest.raises(InputTypeError, match="train is tag sequences but test is span"):
        diagnose([["B-A"]], [[(0, 1, "A")]])
    for kw in ({"min_instances": -1}, {"shift_threshold": 1.0}, {"confusion_threshold": 2},
               {"seen_threshold": "x"}, {"gap_threshold": math.nan}):
        with pytest.raises(OptionError):
            diagnose([["B-A"]], [["B-A"]], **kw)
    with pytest.raises(OptionError, match="pass pred"):
        diagnose([["B-A"]], [["B-A"]], labeled=False)
    with pytest.raises(OptionError, match="token"):
        diagnose([["B-A"]], [["B-A"]], pred=[["B-A"]], match="token")


def test_rendering():
    d = diagnose(conll("train.conll"), conll("test.conll"), pred=conll("pred.conll"),
                 scheme="IOB2")
    text = render_diagnostics(d)
    assert text.startswith("dataset diagnostics: 1 error, 7 warnings, 1 info")
    assert "[error] missing_in_train (MISC):" in text
    assert "in training  precision" in text
    md = render_diagnostics(d, format="markdown")
    assert md.startswith("## Dataset diagnostics\n\n1 error, 7 warnings, 1 info.")
    assert "| severity | kind | labels | finding | advice |" in md
    assert "| error | missing_in_train | MISC |" in md
    assert all(line == line.rstrip() for line in md.splitlines())
    with pytest.raises(OptionError, match="format"):
        render_diagnostics(d, format="html")


def test_an_empty_train_side_is_noted_and_takes_the_test_s_form():
    test = [nerscore.Document("a", [(0, 4, "PER")], "Anna flew")]
    for train in ([], {}):
        d = diagnose(train, test)
        assert d.n_train_sequences == 0
        assert d.notes[0].startswith("train holds no sequences: every test label counts as "
                                     "missing from training")
    assert diagnose([], [["B-PER", "O"]]).notes[0].startswith("train holds no sequences")


def test_train_that_is_the_test_data_is_noted():
    tags = [["B-PER", "O"], ["O", "B-LOC"]]
    same = ("train and test hold the same data (the same 2 sequences with the same entities): "
            "every test entity counts as seen in training")
    assert diagnose(tags, tags).notes[0].startswith(same)
    assert diagnose(tags, [list(s) for s in tags], pred=tags).notes[0].startswith(same)
    assert diagnose(tags, [["B-PER", "O"], ["B-LOC", "O"]]).notes == ()
    docs = [nerscore.Document("a", [(0, 4, "PER")], "Anna flew")]
    other = [nerscore.Document("a", [(0, 4, "PER")], "Anne flew")]  # other text
    assert diagnose(docs, other).notes == ()
    assert "1 sequence with" in diagnose(docs, list(docs)).notes[0]
