"""Scores on predicted spans: read from every span shape, carried, never matched on."""

from __future__ import annotations

import math

import numpy as np
import pytest

import nerscore
from nerscore import Document, Entity, EntityColumns, Span
from nerscore.decode.inputs import prepare_spans
from nerscore.errors import InputTypeError, InvalidSpanError
from nerscore.io.jsonl import read_jsonl, write_jsonl
from nerscore.values.selection import Selection

GOLD = {"d": [(0, 4, "PER"), (5, 9, "LOC")]}


def test_the_score_is_not_part_of_the_entity():
    a = Entity(Span(0, 4), "PER", score=0.9)
    b = Entity(Span(0, 4), "PER")
    assert a == b
    assert hash(a) == hash(b)
    assert {a, b} == {a}
    assert repr(a) == "Entity(span=Span(start=0, end=4), label='PER', sentence=0, score=0.9)"
    assert Entity.from_fragments([(0, 1), (3, 4)], "X", score=0.5).score == 0.5


@pytest.mark.parametrize("shape", ["tuple", "list", "dict", "entity", "document", "mixed"])
def test_every_span_shape_carries_its_score(shape):
    raw = [(0, 4, "PER", 0.9), (5, 9, "PER", 0.25)]
    items = {
        "tuple": raw,
        "list": [list(x) for x in raw],
        "dict": [{"start": s, "end": e, "label": lab, "score": x} for s, e, lab, x in raw],
        "entity": [Entity(Span(s, e), lab, score=x) for s, e, lab, x in raw],
        "document": Document("d", raw).spans,
        "mixed": [raw[0], {"start": 5, "end": 9, "label": "PER", "score": 0.25}],
    }[shape]
    pred = prepare_spans(GOLD, {"d": list(items)}).pred
    assert pred.score is not None
    assert pred.score.tolist() == [0.9, 0.25]


def test_unscored_inputs_have_no_score_column_and_the_same_columns():
    plain = prepare_spans(GOLD, {"d": [(0, 4, "PER")]}).pred
    scored = prepare_spans(GOLD, {"d": [(0, 4, "PER", 0.5)]}).pred
    assert plain.score is None
    for col in ("seq", "start", "end", "label"):
        assert getattr(plain, col).tolist() == getattr(scored, col).tolist()


def test_some_spans_without_a_score_are_nan():
    pred = prepare_spans(GOLD, {"d": [{"start": 0, "end": 4, "label": "PER", "score": 0.5},
                                      {"start": 5, "end": 9, "label": "LOC"}]}).pred
    assert pred.score[0] == 0.5
    assert math.isnan(pred.score[1])


def test_scores_never_change_matching():
    pred = {"d": [(0, 4, "PER", 0.1), (5, 9, "PER", 0.99)]}
    plain = {"d": [(0, 4, "PER"), (5, 9, "PER")]}
    for match in ("exact", "semeval", "overlap", "threshold", "token"):
        a = nerscore.evaluate(GOLD, pred, match=match, zero_division=0).to_dict()
        b = nerscore.evaluate(GOLD, plain, match=match, zero_division=0).to_dict()
        assert a == b, match


def test_columns_carry_scores_through_take_sort_and_relabel():
    cols = EntityColumns([0, 0, 1], [5, 0, 2], [9, 4, 3], [1, 0, 0], ("A", "B"),
                         score=[0.1, 0.2, 0.3])
    assert cols.sorted().score.tolist() == [0.2, 0.1, 0.3]
    assert cols.take([2]).score.tolist() == [0.3]
    assert cols.with_labels(("A", "B", "C")).score.tolist() == [0.1, 0.2, 0.3]
    assert [e.score for e in cols.to_entities()] == [0.1, 0.2, 0.3]
    assert EntityColumns.from_entities(cols.to_entities()).score.tolist() == [0.1, 0.2, 0.3]
    assert EntityColumns([0], [0], [1], [0], ("A",), score=[np.nan]).score is None


def test_json_lines_round_trip_keeps_scores(tmp_path):
    path = tmp_path / "pred.jsonl"
    path.write_text('{"id": "a", "spans": [{"start": 0, "end": 4, "label": "PER", "score": 0.75},'
                    ' [5, 9, "LOC", 0.5], [10, 12, "LOC"]]}\n', encoding="utf-8")
    docs = read_jsonl(path)
    assert [e.score for e in docs[0].spans] == [0.75, 0.5, None]
    write_jsonl(docs, tmp_path / "back.jsonl")
    assert [e.score for e in read_jsonl(tmp_path / "back.jsonl")[0].spans] == [0.75, 0.5, None]


def test_a_bad_score_in_a_file_names_the_line(tmp_path):
    path = tmp_path / "pred.jsonl"
    path.write_text('{"id": "a", "spans": []}\n{"id": "b", "spans": [[0, 4, "PER", "x"]]}\n',
                    encoding="utf-8")
    with pytest.raises(InvalidSpanError, match=r"pred.jsonl, line 2: Span 0 \[0, 4, 'PER', 'x'\] "
                                               r"of document 'b' has score 'x'"):
        read_jsonl(path)


@pytest.mark.parametrize("bad", [float("nan"), float("inf"), True, "0.5", [0.5]])
def test_bad_scores_are_refused(bad):
    with pytest.raises(InvalidSpanError, match="a score is a finite number"):
        prepare_spans(GOLD, {"d": [(0, 4, "PER", bad)]})
    with pytest.raises(InvalidSpanError, match="a score is a finite number"):
        Document("d", [{"start": 0, "end": 4, "label": "PER", "score": bad}])


def test_min_score_keeps_predictions_at_or_above_it_and_counts_the_rest():
    pred = {"d": [(0, 4, "PER", 0.5), (5, 9, "LOC", 0.49), (10, 12, "LOC", 0.9)]}
    report = nerscore.evaluate(GOLD, pred, min_score=0.5, zero_division=0)
    assert (report.micro.tp, report.micro.n_pred) == (1, 2)
    assert report.to_dict()["entities"]["below_min_score"] == 1
    scorer = nerscore.EntityScorer(min_score=0.5, zero_division=0)
    scorer.update(GOLD, pred)
    assert scorer.compute().micro.n_pred == 2
    # without min_score the report keeps its keys as before
    assert "min_score" not in nerscore.evaluate(GOLD, pred, zero_division=0).to_dict()["entities"]


def test_min_score_needs_scores():
    with pytest.raises(InputTypeError, match="1 of the 2 predictions have no score"):
        nerscore.evaluate(GOLD, {"d": [(0, 4, "PER", 0.5), (5, 9, "LOC")]}, min_score=0.5)
    with pytest.raises(nerscore.errors.OptionError,
                       match="Expected `min_score` to be a finite number or None; got True"):
        Selection(min_score=True)


def test_min_score_streams_the_same_as_in_memory(tmp_path):
    gold = tmp_path / "gold.jsonl"
    pred = tmp_path / "pred.jsonl"
    gold.write_text("".join(f'{{"id": "{i}", "spans": [[0, 4, "PER"], [5, 9, "LOC"]]}}\n'
                            for i in range(50)), encoding="utf-8")
    pred.write_text("".join(f'{{"id": "{i}", "spans": [[0, 4, "PER", {i / 50}], '
                            f'[5, 9, "PER", {1 - i / 50}]]}}\n' for i in range(50)),
                    encoding="utf-8")
    streamed = nerscore.score_files(gold, pred, chunk_size=7, min_score=0.3, zero_division=0)
    whole = nerscore.evaluate(read_jsonl(gold), read_jsonl(pred), min_score=0.3,
                              zero_division=0)
    assert streamed.report.to_dict()["labels"] == whole.to_dict()["labels"]
