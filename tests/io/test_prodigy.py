"""Prodigy JSONL: accepted examples only, tokens checked, scores kept, annotators chosen."""

from __future__ import annotations

import json

import pytest

from nerscore.errors import AnnotatorChoiceError, FormatError, OptionError
from nerscore.io.formats import get_format
from nerscore.io.prodigy import read_prodigy, read_prodigy_annotators, write_prodigy
from tests.paths import DATA

NER = DATA / "prodigy" / "ner.jsonl"


def write(tmp_path, *records):
    path = tmp_path / "p.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path


def example(text="Anna flew", spans=({"start": 0, "end": 4, "label": "PER"},), **extra):
    return {"text": text, "spans": list(spans), **extra}


def test_only_accepted_examples_are_read_and_the_rest_counted():
    data = read_prodigy(NER)
    assert [d.id for d in data.documents] == ["1850475491", "-40178912"]
    assert data.counts == {"accept": 2, "ignore": 1, "reject": 1}
    assert data.annotators == ("ner_news-anna",)
    assert data.notes() == (f"{NER}: 2 example(s) read; left out: 1 rejected, 1 ignored.",)


def test_span_scores_are_kept(tmp_path):
    path = write(tmp_path, example(spans=[{"start": 0, "end": 4, "label": "PER", "score": 0.7}],
                                   answer="accept"))
    assert read_prodigy(path).spans["1"][0].score == 0.7


def test_examples_without_answer_are_read_as_accepted(tmp_path):
    path = write(tmp_path, example(), example(text="Bob ran"))
    data = read_prodigy(path)
    assert [d.id for d in data.documents] == ["1", "2"]
    assert data.notes() == (f"{path}: 2 example(s) without 'answer' were read as accepted.",)


def test_spans_are_checked_against_their_tokens(tmp_path):
    tokens = [{"text": "Anna", "start": 0, "end": 4, "id": 0},
              {"text": "flew", "start": 5, "end": 9, "id": 1}]
    bad = example(tokens=tokens, answer="accept",
                  spans=[{"start": 0, "end": 4, "token_start": 0, "token_end": 1, "label": "P"}])
    with pytest.raises(FormatError, match=r"line 1: span 0 \(0, 4, 'P'\) does not match its "
                                          r"tokens 0\.\.1, which cover 0\.\.9"):
        read_prodigy(write(tmp_path, bad))
    bad["spans"][0]["token_end"] = 5
    with pytest.raises(FormatError, match="token_end 5, but the example has 2 tokens"):
        read_prodigy(write(tmp_path, bad))


def test_two_annotators_of_one_input_need_a_choice(tmp_path):
    path = write(tmp_path, example(_input_hash=7, answer="accept", _annotator_id="ds-ann"),
                 example(_input_hash=7, answer="accept", _annotator_id="ds-bob", spans=[]))
    with pytest.raises(AnnotatorChoiceError, match=r"line 2: a second accepted example of "
                       r"input 7 \(first on line 1, annotator 'ds-ann'; this one 'ds-bob'\)"):
        read_prodigy(path)
    bob = read_prodigy(path, annotator="ds-bob")
    assert [(d.id, d.spans) for d in bob.documents] == [("7", ())]
    assert bob.counts == {"accept": 1, "other_annotator": 1}
    with pytest.raises(OptionError, match="no annotator 'ds-eve'; the annotators"):
        read_prodigy(path, annotator="ds-eve")


@pytest.mark.parametrize(("record", "message"), [
    (example(answer="maybe"), "unknown answer 'maybe'"),
    ({"spans": []}, "expected a string 'text'"),
    (example(spans=[{"start": 0, "label": "X"}]), "span 0 is .*; expected"),
    (example(spans=[{"start": 0, "end": 40, "label": "X"}]), "ends beyond the text"),
])
def test_malformed_examples_are_errors_naming_the_line(tmp_path, record, message):
    with pytest.raises(FormatError, match=message):
        read_prodigy(write(tmp_path, record))


def test_mixed_ids_are_an_error(tmp_path):
    path = write(tmp_path, example(_input_hash=1), example())
    with pytest.raises(FormatError, match="identified by number but earlier ones by _input_hash"):
        read_prodigy(path)


def test_written_examples_read_back_equal(tmp_path):
    docs = read_prodigy(NER).documents
    write_prodigy(docs, tmp_path / "out.jsonl")
    assert read_prodigy(tmp_path / "out.jsonl").documents == docs


def test_the_error_of_several_annotators_names_them_all(tmp_path):
    path = write(tmp_path, example(_input_hash=7, _annotator_id="ann"),
                 example(_input_hash=7, _annotator_id="bob"),
                 example(_input_hash=8, _annotator_id="cai"))
    with pytest.raises(AnnotatorChoiceError) as exc:
        read_prodigy(path)
    assert (exc.value.source, exc.value.line, exc.value.option) == (str(path), 2, "annotator")
    assert exc.value.annotators == ("ann", "bob", "cai")


@pytest.mark.parametrize(("who", "said"), [({"_annotator_id": "ann"}, "by annotator 'ann'"),
                                           ({}, "naming no annotator")])
def test_one_annotator_accepting_an_input_twice_is_an_error(tmp_path, who, said):
    path = write(tmp_path, example(_input_hash=7, **who), example(_input_hash=7, **who))
    message = (f"{path}, line 2: a second accepted example of input 7 {said} (the first is on "
               "line 1); keep one of the two.")
    with pytest.raises(FormatError) as exc:
        read_prodigy(path)
    assert str(exc.value) == message
    if who:
        with pytest.raises(FormatError) as exc:
            read_prodigy_annotators(path)
        assert str(exc.value) == message


def test_an_annotator_id_is_read_as_its_text_and_a_clash_of_spellings_says_so(tmp_path):
    # 7 and "7" name one annotator: annotator="7" reads the examples of both
    path = write(tmp_path, example(_input_hash=1, _annotator_id=7),
                 example(text="Bob ran", _input_hash=2, _annotator_id="7"),
                 example(_input_hash=1, _annotator_id="8", spans=[]))
    assert [d.id for d in read_prodigy(path, annotator="7").documents] == ["1", "2"]
    assert {who: len(docs) for who, docs in read_prodigy_annotators(path).documents.items()} == {
        "7": 2, "8": 1}
    # their two accepted examples of one input are one annotator's, and the error names both
    path = write(tmp_path, example(_input_hash=1, _annotator_id=7),
                 example(_input_hash=1, _session_id="7"),
                 example(_input_hash=1, _annotator_id="8", spans=[]))
    message = (f"{path}, line 2: a second accepted example of input 1 by annotator '7' (the "
               "first is on line 1; this one's _session_id is \"7\", the first's _annotator_id "
               "7, and a value is read as its text, so both name annotator '7'); keep one of "
               "the two, or give the two annotators distinct ids.")
    for read in (read_prodigy_annotators, lambda p: read_prodigy(p, annotator="7")):
        with pytest.raises(FormatError) as exc:
            read(path)
        assert str(exc.value) == message


def test_every_annotators_examples_are_read(tmp_path):
    path = write(tmp_path,
                 example(_input_hash=1, _annotator_id="ann", answer="accept"),
                 example(_input_hash=1, _annotator_id="bob", answer="accept", spans=[]),
                 example(_input_hash=2, _annotator_id="bob", answer="reject"),
                 example(text="Bob ran", _input_hash=3, _session_id="cai", answer="accept"),
                 example(_input_hash=2, _annotator_id="ann", answer="ignore"),
                 example(_input_hash=1, answer="accept"),
                 example(text="Bob ran", _input_hash=3, _annotator_id="ann"))
    data = read_prodigy_annotators(path)
    assert {who: [(d.id, len(d.spans)) for d in docs] for who, docs in data.documents.items()} == {
        "ann": [("1", 1), ("3", 1)], "bob": [("1", 0)], "cai": [("3", 1)]}
    assert data.counts == {"accept": 3, "ignore": 1, "no_annotator": 1, "no_answer": 1,
                           "reject": 1}
    assert data.notes() == (
        f"{path}: 4 example(s) read; left out: 1 rejected, 1 ignored, 1 naming no annotator "
        "(_annotator_id or _session_id).",
        f"{path}: 1 example(s) without 'answer' were read as accepted.")
    assert get_format("prodigy").annotators(str(path), {"encoding": None}) == (
        data.documents, data.notes())


def test_an_annotator_who_accepted_nothing_has_no_documents(tmp_path):
    path = write(tmp_path, example(_input_hash=1, _annotator_id="ann", answer="accept"),
                 example(_input_hash=1, _annotator_id="bob", answer="reject"))
    assert {k: len(v) for k, v in read_prodigy_annotators(path).documents.items()} == {
        "ann": 1, "bob": 0}


def test_a_null_annotator_id_falls_back_to_the_session_id(tmp_path):
    path = write(tmp_path, example(_input_hash=1, _annotator_id=None, _session_id="ann"),
                 example(_input_hash=1, _annotator_id="bob", _session_id="bob"))
    data = read_prodigy_annotators(path)
    assert {k: len(v) for k, v in data.documents.items()} == {"ann": 1, "bob": 1}
    assert "no_annotator" not in data.counts
    assert [d.id for d in read_prodigy(path, annotator="ann").documents] == ["1"]


def test_several_annotators_without_input_hashes_cannot_be_joined(tmp_path):
    path = write(tmp_path, example(_annotator_id="ann"), example(_annotator_id="bob"))
    with pytest.raises(FormatError, match=r"have neither _input_hash nor meta\.id, so the "
                                          "examples of one input by different annotators"):
        read_prodigy_annotators(path)
    one = write(tmp_path, example(_annotator_id="ann"), example(text="Bob ran", _annotator_id="ann"))
    assert [d.id for d in read_prodigy_annotators(one).documents["ann"]] == ["1", "2"]
