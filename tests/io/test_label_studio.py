"""Label Studio exports: annotators, predictions, cancelled annotations, UTF-16 offsets."""

from __future__ import annotations

import json

import pytest

import nerscore
from nerscore.errors import AnnotatorChoiceError, FormatError, OptionError
from nerscore.io.formats import get_format
from nerscore.io.label_studio import read_label_studio, select, write_label_studio
from nerscore.values.documents import Document
from tests.paths import DATA

EXPORT = DATA / "label_studio" / "export.json"
T2 = "ACME \U0001F600 opened an office in Paris."


def task(task_id, text, annotations=(), predictions=()):
    return {"id": task_id, "data": {"text": text}, "annotations": list(annotations),
            "predictions": list(predictions)}


def labels(start, end, label, text=None, **extra):
    value = {"start": start, "end": end, "labels": [label] if isinstance(label, str) else label}
    if text is not None:
        value["text"] = text
    return {"id": f"r{start}", "type": "labels", "from_name": "label", "to_name": "text",
            "value": value, **extra}


def write(tmp_path, tasks):
    path = tmp_path / "export.json"
    path.write_text(json.dumps(tasks, ensure_ascii=False), encoding="utf-8")
    return path


def test_the_export_holds_two_annotators_a_cancelled_one_and_predictions():
    ls = read_label_studio(EXPORT)
    assert ls.annotators == ("1", "2")
    assert ls.cancelled == {"2": 1}
    assert ls.model_versions == ("ner-v1",)
    assert [d.span_texts() for d in ls.documents("1")] == [["Anna Smith", "Berlin"],
                                                          ["ACME", "Paris"]]
    assert [d.id for d in ls.documents(2)] == ["1"]  # the cancelled task is not a document
    assert ls.unannotated("2") == ["2"]
    assert ls.counts == {"ignored:choices": 1, "utf16": 1}
    assert ls.counts_by == {"1": {"utf16": 1}, "2": {"ignored:choices": 1},
                            "predictions:ner-v1": {}}
    assert len(ls.notes()) == 3
    assert ls.notes(["predictions:ner-v1"]) == ()


def test_prediction_scores_are_kept_per_span():
    spans = read_label_studio(EXPORT).spans("predictions")
    assert [(s.label, s.score) for s in spans["1"]] == [("PER", 0.98), ("LOC", 0.91)]
    assert [(s.text, s.score) for s in spans["2"]] == [("ACME", 0.87)]


def test_utf16_offsets_are_detected_from_the_span_text_and_converted(tmp_path):
    p = T2.index("Paris")
    path = write(tmp_path, [task(1, T2, [{"completed_by": 1, "result": [
        labels(p + 1, p + 6, "LOC", "Paris"),  # UTF-16: the emoji counts two
        labels(0, 4, "ORG", "ACME"),
    ]}])])
    ls = read_label_studio(path)
    assert ls.documents("1")[0].span_texts() == ["Paris", "ACME"]
    assert ls.counts == {"utf16": 1}
    assert "1 span(s) had offsets counting UTF-16 code units" in ls.notes()[0]


def test_each_span_is_read_the_way_its_text_says(tmp_path):
    # One annotation with both readings on a text with an emoji: "Paris" in
    # code points (as current Label Studio stores them) and in UTF-16 code
    # units (as exports before the code-point fix did).
    text = "\U0001F600 Paris and Paris"
    path = write(tmp_path, [task(1, text, [{"completed_by": 1, "result": [
        labels(2, 7, "LOC", "Paris"), labels(13, 18, "LOC", "Paris")]}])])
    ls = read_label_studio(path)
    assert [(e.start, e.end) for e in ls.documents("1")[0].spans] == [(2, 7), (12, 17)]
    assert ls.counts == {"utf16": 1}


def test_a_line_break_stored_as_backslash_n_in_the_span_text_is_the_same_text(tmp_path):
    # Label Studio stores a line break inside a span's text as the two characters \n.
    text = "\U0001F431 Warning:\n\U0001F431 This is a test"
    stored = "Warning:\\n\U0001F431 This is a test"
    path = write(tmp_path, [task(1, text, [{"completed_by": 1, "result": [
        labels(2, 27, "MSG", stored), labels(3, 29, "MSG", stored)]}])])
    ls = read_label_studio(path)
    assert [(e.start, e.end) for e in ls.documents("1")[0].spans] == [(2, 27), (2, 27)]
    assert ls.counts == {"utf16": 1}


def test_offsets_python_refuses_utf16_offsets(tmp_path):
    p = T2.index("Paris")
    path = write(tmp_path, [task(1, T2, [{"completed_by": 1, "result": [
        labels(p + 1, p + 6, "LOC", "Paris")]}])])
    with pytest.raises(FormatError, match=r"task 1, annotation 1, result 'r\d+': the span "
                                          r"\(28, 33, 'LOC'\) says it covers 'Paris' but the "
                                          r"text has 'aris\.' there \(and 'Paris' reading them "
                                          r"as UTF-16 code units\)"):
        read_label_studio(path, offsets="python")


def test_a_span_text_found_in_neither_reading_is_an_error(tmp_path):
    path = write(tmp_path, [task(5, "Anna flew", [{"completed_by": 1, "result": [
        labels(0, 4, "PER", "Anne")]}])])
    with pytest.raises(FormatError, match="task 5, annotation 1, result 'r0': the span "
                                          r"\(0, 4, 'PER'\) says it covers 'Anne' but the text "
                                          "has 'Anna' there; fix the offsets"):
        read_label_studio(path)


def test_gold_of_one_annotator_against_the_predictions():
    docs, notes = select(read_label_studio(EXPORT), "2")
    assert docs[1].ignore  # task 2: annotator 2 cancelled it
    assert not docs[1].spans
    assert "1 cancelled (skipped) annotation(s), left out: '2': 1." in notes[0]
    assert "1 task(s) without an annotation of '2'" in notes[-1]
    pred, _ = select(read_label_studio(EXPORT), side="pred")
    report = nerscore.evaluate(docs, pred, zero_division=0)
    # task 1: PER 'Anna' vs 'Anna Smith' (fp + fn), LOC 'Berlin' (tp);
    # task 2 is unannotated: the predicted ORG counts neither way
    assert (report.micro.tp, report.micro.fp, report.micro.fn) == (1, 1, 1)


def test_several_annotators_need_a_choice_for_gold():
    ls = read_label_studio(EXPORT)
    with pytest.raises(OptionError, match=r"holds annotations of 2 annotators \('1', '2'\); "
                                          r"choose the gold one with annotator=NAME\.$"):
        select(ls)
    with pytest.raises(OptionError, match=r"no annotator '3'; the annotators are '1', '2'\."):
        ls.documents("3")


def test_the_error_of_an_unchosen_annotator_says_which_there_are(tmp_path):
    with pytest.raises(AnnotatorChoiceError) as exc:
        select(read_label_studio(EXPORT), side=None)
    assert (exc.value.source, exc.value.annotators, exc.value.option) == (
        str(EXPORT), ("1", "2"), "annotator")
    path = write(tmp_path, [{"id": 1, "data": {"text": "Anna"}, "predictions": [
        {"model_version": "v1", "result": [labels(0, 4, "PER", "Anna")]}]}])
    with pytest.raises(AnnotatorChoiceError, match=r"holds no annotations in its 1 task; read "
                       r"its predictions with annotator='predictions'\.$") as exc:
        select(read_label_studio(path), side=None)
    assert exc.value.annotators == ()
    path = write(tmp_path, [{"id": 1, "data": {"text": "Anna"}, "annotations": []},
                            {"id": 2, "data": {"text": "Bob"}}])
    with pytest.raises(AnnotatorChoiceError, match=r"holds no annotations in its 2 tasks; export "
                       r"the project once its tasks are annotated\.$"):
        select(read_label_studio(path))


@pytest.mark.parametrize("value", [{}, "", 0, False, {"result": []}])
def test_annotations_that_are_not_a_list_are_an_error(tmp_path, value):
    # an empty object (or string, 0, false) was read as no annotations
    path = write(tmp_path, [{"id": 1, "data": {"text": "Anna"}, "annotations": value}])
    with pytest.raises(FormatError, match=r"task 1: expected 'annotations' to be a list of "
                                          r"objects; got "):
        read_label_studio(path)


def test_the_format_reads_every_annotator_of_an_export():
    ls = read_label_studio(EXPORT)
    sets = get_format("label-studio").annotators(str(EXPORT), {"offsets": "auto"})
    assert sets.documents == {"1": ls.documents("1"), "2": ls.documents("2")}
    assert sets.notes == ls.notes(["1", "2"])


@pytest.mark.parametrize(("unnamed", "note"), [
    (1, "1 annotation names no annotator (no 'completed_by'): read as annotator 'unknown'."),
    (2, "2 annotations name no annotator (no 'completed_by'): read as annotator 'unknown'."),
])
def test_annotations_naming_no_annotator_are_counted_for_agreement(tmp_path, unnamed, note):
    named = {"completed_by": 1, "result": [labels(0, 4, "PER", "Anna")]}
    nobody = [{"result": []}, {"completed_by": {"username": "x"}, "result": []}][:unnamed]
    path = write(tmp_path, [task(k, "Anna flew", [named, nobody[k - 1]])
                            for k in range(1, unnamed + 1)])
    ls = read_label_studio(path)
    assert ls.annotators == ("1", "unknown")
    assert ls.counts == {"no_annotator": unnamed}
    assert ls.notes() == ()  # who made them matters where annotators are compared
    assert ls.notes(unnamed=True) == (f"{path}: {note}",)
    sets = get_format("label-studio").annotators(str(path), {})
    assert sets.notes == (f"{path}: {note}",)
    assert [d.id for d in sets.documents["unknown"]] == [str(k) for k in range(1, unnamed + 1)]


@pytest.mark.parametrize(("who", "annotator"), [
    ({"id": None, "email": "ann@example.org"}, "ann@example.org"),
    ({"id": 7, "email": None}, "7"),
    ({"id": None, "email": None}, "unknown"),
])
def test_a_null_id_or_email_names_no_one(tmp_path, who, annotator):
    path = write(tmp_path, [task(1, "Anna flew", [
        {"completed_by": who, "result": [labels(0, 4, "PER", "Anna")]}])])
    ls = read_label_studio(path)
    assert ls.annotators == (annotator,)
    assert ls.counts == ({"no_annotator": 1} if annotator == "unknown" else {})


def test_annotators_named_by_email_and_repeated_annotations(tmp_path):
    who = {"id": 4, "email": "ann@example.org"}
    path = write(tmp_path, [task(1, "Anna flew", [
        {"completed_by": who, "result": [labels(0, 4, "ORG", "Anna")]},
        {"completed_by": who, "result": [labels(0, 4, "PER", "Anna")]},
    ])])
    ls = read_label_studio(path)
    assert ls.annotators == ("4",)
    assert ls.documents("ann@example.org")[0].spans[0].label == "PER"  # the last one
    assert ls.counts == {"repeated": 1}
    assert "1 task(s) had two annotations of one annotator" in ls.notes()[0]


def test_the_note_on_results_that_are_not_spans_names_each_type_and_its_count(tmp_path):
    choice = {"type": "choices", "value": {"choices": ["ok"]}}
    path = write(tmp_path, [task(1, "Anna flew", [{"completed_by": 1, "result": [
        choice, {"type": "rating", "value": {"rating": 4}}, choice, choice, "not an object",
        {"type": "malformed"}, {"value": {}},
    ]}])])
    ls = read_label_studio(path)
    assert ls.notes() == (
        f"{path}: ignored results that are not spans: 3 results of type 'choices', 1 result of "
        "type 'malformed', 1 result of type 'rating', 2 results without a 'type'.",)
    assert ls.counts == {"ignored:choices": 3, "ignored:malformed": 1, "ignored:rating": 1,
                         "untyped": 2}


def test_several_labels_other_results_and_model_versions(tmp_path):
    path = write(tmp_path, [task(1, "Anna flew", [{"completed_by": 1, "result": [
        labels(0, 4, ["PER", "ORG"], "Anna"),
        {"type": "relation", "from_id": "a", "to_id": "b"},
        {"type": "textarea", "value": {"text": ["note"]}},
    ]}], [{"model_version": "a", "result": [labels(0, 4, "PER")]},
          {"model_version": "b", "result": [], "score": 0.2}])])
    ls = read_label_studio(path)
    assert [e.label for e in ls.documents("1")[0].spans] == ["PER", "ORG"]
    assert ls.counts == {"ignored:relation": 1, "ignored:textarea": 1, "multi_label": 1}
    with pytest.raises(OptionError, match=r"predictions of 2 models \('a', 'b'\); choose one "
                                          r"with annotator='predictions:VERSION'"):
        select(ls, side="pred")
    docs, _ = select(ls, "predictions:a", side="pred")
    assert ls.counts_by["predictions:a"] == {}
    assert [(d.id, len(d.spans)) for d in docs] == [("1", 1)]
    assert [len(d.spans) for d in select(ls, "predictions:b")[0]] == [0]


def test_a_span_with_no_label_is_counted_and_noted(tmp_path):
    path = write(tmp_path, [task(1, "Anna flew", [{"completed_by": 1, "result": [
        labels(0, 4, [], "Anna"), labels(5, 9, "X", "flew")]}])])
    ls = read_label_studio(path)
    assert [e.label for e in ls.documents("1")[0].spans] == ["X"]
    assert ls.counts == {"no_label": 1}
    assert ls.notes() == (f"{path}: 1 span(s) had an empty list of labels: left out.",)


@pytest.mark.parametrize(("content", "message"), [
    ('{"a": 1', r"line 1: malformed JSON"),
    ('"text"', r"expected a JSON array of tasks"),
    ('[{"id": 1, "data": {"image": 1}}]', r"task 1 has no string 'data.text'"),
    ('[{"id": 1, "data": {"text": "a"}}, {"id": 1, "data": {"text": "b"}}]',
     r"task id 1 appears twice"),
    ('[{"id": 1, "data": {"text": "a"}, "annotations": [{"result": [{"type": "labels", '
     '"value": {"start": "0", "end": 1, "labels": ["X"]}}]}]}]',
     r"expected 'value' with integer 'start' and 'end'"),
])
def test_malformed_exports_are_errors_naming_the_place(tmp_path, content, message):
    path = tmp_path / "bad.json"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(FormatError, match=message):
        read_label_studio(path)


def test_written_tasks_read_back_equal(tmp_path):
    docs = read_label_studio(EXPORT).documents("1")
    out = tmp_path / "tasks.json"
    write_label_studio(docs, out)
    back = read_label_studio(out)
    assert back.documents("unknown") == docs
    # Python offsets, and each result stores its text; the tasks name no annotator
    assert back.counts == {"no_annotator": len(docs)}
    assert json.loads(out.read_text(encoding="utf-8"))[1]["annotations"][0]["result"][1][
        "value"] == {"start": 27, "end": 32, "text": "Paris", "labels": ["LOC"]}
    with pytest.raises(ValueError, match="has no text"):
        write_label_studio([Document("x", [(0, 1, "X")])], tmp_path / "x.json")


def test_min_json_exports_are_refused_with_advice_and_old_completions_read(tmp_path):
    path = write(tmp_path, [{"id": 1, "text": "Anna", "label": [{"start": 0, "end": 4,
                                                                 "labels": ["PER"]}]}])
    with pytest.raises(FormatError, match=r"task 1 has no 'data' object.*JSON-MIN"):
        read_label_studio(path)
    old = write(tmp_path, [{"id": 1, "data": {"text": "Anna"}, "completions": [
        {"completed_by": 1, "result": [labels(0, 4, "PER", "Anna")]}]}])
    assert read_label_studio(old).documents("1")[0].span_texts() == ["Anna"]


def test_a_second_prediction_of_one_model_replaces_the_first_counted(tmp_path):
    path = write(tmp_path, [task(1, "Anna flew", [], [
        {"model_version": "m", "result": [labels(0, 4, "ORG")]},
        {"model_version": "m", "result": [labels(0, 4, "PER")]}])])
    ls = read_label_studio(path)
    assert [e.label for e in ls.predictions()[0].spans] == ["PER"]
    _, notes = select(ls, side="pred")
    assert notes == (f"{path}: 1 task(s) had two annotations of one annotator (or two "
                     "predictions of one model): the last one was read.",)


def test_prediction_scores_reach_the_entities_and_min_score():
    pred, _ = select(read_label_studio(EXPORT), side="pred")
    assert [[e.score for e in d.spans] for d in pred] == [[0.98, 0.91], [0.87]]
    gold, _ = select(read_label_studio(EXPORT), "1")
    at_95 = nerscore.evaluate(gold, pred, min_score=0.95, zero_division=0)
    assert at_95.micro.fp + at_95.micro.tp == 1  # only the 0.98 prediction is kept
