"""Label operations (``labels_map``, ``keep``, ``drop``) in every scorer."""

from __future__ import annotations

import warnings

import pytest

import nerscore
from nerscore.decode.label_ops import relabel_entities
from nerscore.errors import OptionError, UnknownLabelWarning
from nerscore.values.label_ops import LabelOps, label_notes
from nerscore.values.spans import EntityColumns

GOLD = [["B-GPE", "I-GPE", "O", "B-LOC", "B-MISC"], ["B-FAC", "O", "B-PER"]]
PRED = [["B-LOC", "I-LOC", "O", "B-LOC", "O"], ["B-LOC", "O", "B-MISC"]]


def _relabelled(y, mapping):
    return [[t[:2] + mapping.get(t[2:], t[2:]) if t != "O" else t for t in s] for s in y]


def test_a_map_gives_the_scores_of_relabelled_input():
    mapping = {"GPE": "LOC", "FAC": "LOC"}
    got = nerscore.evaluate(GOLD, PRED, labels_map=mapping, zero_division=0)
    want = nerscore.evaluate(_relabelled(GOLD, mapping), _relabelled(PRED, mapping),
                             zero_division=0)
    assert got.counts.to_dict() == want.counts.to_dict()
    assert got.micro == want.micro


def test_drop_and_keep_remove_entities_from_both_sides():
    dropped = nerscore.evaluate(GOLD, PRED, drop=["MISC", "PER"], zero_division=0)
    kept = nerscore.evaluate(GOLD, PRED, keep=["GPE", "LOC", "FAC"], zero_division=0)
    assert dropped.counts.to_dict() == kept.counts.to_dict()
    assert sorted(dropped.labels) == ["FAC", "GPE", "LOC"]
    assert dropped.labels["LOC"].n_pred == 3  # the predicted MISC is gone: no false positive
    assert dropped.micro.n_gold == 3


def test_a_renamed_label_never_joins_adjacent_entities():
    # B-GPE I-LOC is two entities (lenient); rewriting the tags would make it one
    gold, pred = [["B-GPE", "I-LOC"]], [["B-LOC", "I-LOC"]]
    r = nerscore.evaluate(gold, pred, labels_map={"GPE": "LOC"}, zero_division=0)
    assert (r.labels["LOC"].n_gold, r.labels["LOC"].tp) == (2, 0)


def test_notes_say_what_was_renamed_merged_and_removed():
    r = nerscore.evaluate(GOLD, PRED, labels_map={"GPE": "LOC", "FAC": "LOC"}, drop=["MISC"],
                          zero_division=0)
    assert r.notes == (
        "Labels renamed (labels_map): FAC -> LOC (1 gold, 0 predicted entities); GPE -> LOC "
        "(1 gold, 0 predicted entities).",
        "Labels merged (labels_map): FAC, GPE and LOC are scored as LOC.",
        "Labels removed (keep/drop): MISC (1 gold, 1 predicted entity).",
    )
    assert nerscore.evaluate(GOLD, PRED, zero_division=0).notes == ()


def test_a_batched_scorer_gives_the_notes_and_counts_of_one_call():
    kw = {"labels_map": {"GPE": "LOC"}, "drop": ["PER"], "zero_division": 0}
    whole = nerscore.evaluate(GOLD, PRED, **kw)
    s = nerscore.EntityScorer(**kw)
    for g, p in zip(GOLD, PRED, strict=True):
        s.update([g], [p])
    batched = s.compute()
    assert batched.counts == whole.counts
    assert batched.notes == whole.notes


def test_an_unknown_label_warns_once_with_the_labels_of_the_data():
    with pytest.warns(UnknownLabelWarning, match=r"name 'MSIC', which is not a label of the "
                      r"data; the labels are 'FAC', 'GPE', 'LOC', 'MISC', 'PER'\. Did you "
                      r"mean 'MISC'\?"):
        nerscore.f1_score(GOLD, PRED, drop=["MSIC"])
    # a label that only one batch has is no unknown label of the whole input
    s = nerscore.EntityScorer(keep=["PER"], zero_division=0)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        s.update([GOLD[0]], [PRED[0]])
        s.update([GOLD[1]], [PRED[1]])
        s.compute()
    s.reset()
    s.update([GOLD[0]], [PRED[0]])
    with pytest.warns(UnknownLabelWarning, match="'PER'"):
        s.compute()


RENAMED_AWAY = (r"The label operations {} 'GPE' \({}\), which is renamed to 'LOC' "
                r"\(labels_map\) first: labels are {} by their new names, so no entity is {} "
                r"as 'GPE'\. Did you mean 'LOC'\?")


@pytest.mark.parametrize(("op", "verb"), [("keep", "kept"), ("drop", "dropped")])
def test_keep_or_drop_of_a_label_renamed_away_warns_with_its_new_name(op, verb):
    # keep and drop name labels after renaming: GPE is LOC by then, and no label is GPE
    message = RENAMED_AWAY.format(op, op, verb, verb)
    with pytest.warns(UnknownLabelWarning, match=message) as caught:
        nerscore.evaluate(GOLD, PRED, labels_map={"GPE": "LOC"}, **{op: ["GPE"]},
                          zero_division=0)
    assert len([w for w in caught if w.category is UnknownLabelWarning]) == 1
    s = nerscore.EntityScorer(labels_map={"GPE": "LOC"}, **{op: ["GPE"]}, zero_division=0)
    s.update(GOLD, PRED)
    with pytest.warns(UnknownLabelWarning, match=message):
        s.compute()
    # a label that another is renamed to is one after renaming: no warning
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        nerscore.evaluate(GOLD, PRED, labels_map={"GPE": "LOC", "FAC": "GPE"}, **{op: ["GPE"]},
                          zero_division=0)
        nerscore.evaluate(GOLD, PRED, labels_map={"GPE": "LOC"}, **{op: ["LOC"]},
                          zero_division=0)


def test_spans_and_every_entity_matcher_take_them():
    gold = [[(0, 4, "GPE"), (10, 14, "MISC")]]
    pred = [[(0, 4, "LOC"), (10, 13, "MISC")]]
    for match in ("exact", "semeval", "overlap", "threshold", "token"):
        r = nerscore.evaluate(gold, pred, match=match, labels_map={"GPE": "LOC"},
                              drop=["MISC"], zero_division=0)
        assert list(r.labels) == ["LOC"], match
        assert r.micro.f1 == 1.0, match


def test_token_matcher_on_tags_refuses_them():
    with pytest.raises(OptionError, match="match='token' counts the tags"):
        nerscore.evaluate(GOLD, PRED, match="token", keep=["LOC"])


@pytest.mark.parametrize(("kw", "message"), [
    ({"keep": ["A"], "drop": ["B"]}, "Give `keep` or `drop`, not both"),
    ({"labels_map": {"A": 1}}, "Expected every label of `labels_map` to be a non-empty str"),
    ({"labels_map": [("A", "B"), ("A", "C")]}, "maps 'A' twice"),
    ({"labels_map": "A=B"}, "Expected `labels_map` to be a mapping"),
    ({"keep": {"A": 1}}, "Expected `keep` to be a list of labels"),
])
def test_bad_label_operations_are_refused(kw, message):
    with pytest.raises(OptionError, match=message):
        nerscore.evaluate(GOLD, PRED, **kw)


def test_relabel_entities_codes_against_the_new_labels():
    cols = EntityColumns.from_entities([], labels=("A", "B"))
    new, tallies = relabel_entities(cols, LabelOps({"A": "B"}))
    assert (new.labels, len(new), tallies) == (("B",), 0, {})
    assert relabel_entities(cols, LabelOps())[0] is cols


def test_a_label_holding_the_separator_is_renamed_and_merged_by_its_whole_name():
    # hierarchical labels hold '>': the notes still tell the old label from the new one
    gold = [nerscore.Document("d", [(0, 1, "ORG>COMPANY"), (2, 3, "ORG")], text="a b c")]
    pred = [nerscore.Document("d", [(0, 1, "ORG>COMPANY"), (4, 5, "a\\b>")], text="a b c")]
    r = nerscore.evaluate(gold, pred, zero_division=0,
                          labels_map={"ORG>COMPANY": "ORG", "a\\b>": "X>Y"})
    assert r.notes[:2] == (
        "Labels renamed (labels_map): ORG>COMPANY -> ORG (1 gold, 1 predicted entity); "
        "a\\b> -> X>Y (0 gold, 1 predicted entity).",
        "Labels merged (labels_map): ORG and ORG>COMPANY are scored as ORG.",
    )


def test_the_notes_quote_labels_that_would_not_read_as_one():
    gold = [nerscore.Document("d", [(0, 1, " PER"), (2, 3, "A and B")], text="a b c")]
    r = nerscore.evaluate(gold, gold, labels_map={" PER": "PER", "A and B": "C, D"})
    assert r.notes[0] == ("Labels renamed (labels_map): ' PER' -> PER (1 gold, 1 predicted "
                          "entity); 'A and B' -> 'C, D' (1 gold, 1 predicted entity).")
    r = nerscore.evaluate(gold, gold, drop=[" PER"])
    assert r.notes[0] == "Labels removed (keep/drop): ' PER' (1 gold, 1 predicted entity)."


def test_label_notes_ignore_other_tallies():
    assert label_notes({"gold_discontinuous": 2, "labels:any:seen:X": 1}) == ()


def test_a_label_with_white_space_around_it_is_noted_and_scored_apart():
    gold = [nerscore.Document("d", [(0, 4, "PER"), (14, 19, "LOC")], text="Anna lives in Paris")]
    pred = [nerscore.Document("d", [(0, 4, "PER"), (14, 19, "LOC ")], text="Anna lives in Paris")]
    r = nerscore.evaluate(gold, pred, zero_division=0)
    assert sorted(r.labels) == ["LOC", "LOC ", "PER"]  # scored as it is given: nothing repaired
    assert ("Label 'LOC ' has white space around it (0 gold, 1 predicted entity), so it is "
            "scored apart from 'LOC', which the data also has. Strip the labels, or rename it "
            "(labels_map={'LOC ': 'LOC'}, or --map-file).") in r.notes
    renamed = nerscore.evaluate(gold, pred, zero_division=0, labels_map={"LOC ": "LOC"})
    assert renamed.micro.f1 == 1.0
    assert not any("white space" in n for n in renamed.notes)


def test_the_untyped_label_and_plain_labels_get_no_note():
    for gold in ([["B", "I", "O", "B-PER"]], [nerscore.Document("d", [(0, 1, "")])]):
        r = nerscore.evaluate(gold, gold)
        assert not any("white space" in n for n in r.notes)


def test_label_operations_keep_the_scores_of_the_predictions():
    gold = {"d": [(0, 4, "A"), (10, 12, "B")]}
    pred = {"d": [(0, 4, "A", 0.9), (10, 12, "B", 0.5), (20, 24, "A", 0.1)]}
    report = nerscore.evaluate(gold, pred, min_score=0.5, drop=["B"], zero_division=0)
    assert (report.micro.tp, report.micro.fp, report.micro.fn) == (1, 0, 0)
    report = nerscore.evaluate(gold, pred, min_score=0.5, labels_map={"B": "A"},
                               zero_division=0)
    assert (report.micro.tp, report.micro.fp, report.micro.fn) == (2, 0, 0)
