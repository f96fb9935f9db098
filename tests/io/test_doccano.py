"""doccano JSONL exports: both shapes, ids, UTF-16 offsets decided by word boundaries."""

from __future__ import annotations

import json

import pytest

from nerscore.errors import FormatError
from nerscore.io.doccano import read_doccano, write_doccano
from tests.paths import DATA

LABEL, ENTITIES = DATA / "doccano" / "label.jsonl", DATA / "doccano" / "entities.jsonl"


def write(tmp_path, *records):
    path = tmp_path / "d.jsonl"
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records),
                    encoding="utf-8")
    return path


def test_the_two_export_shapes_give_the_same_documents():
    label, entities = read_doccano(LABEL), read_doccano(ENTITIES)
    assert [d.span_texts() for d in label.documents] == [["Anna Smith", "Berlin"],
                                                         ["ACME", "Paris"]]
    assert entities.documents == label.documents
    assert label.counts == {"label": 2}
    assert entities.counts == {"entities": 2, "relations": 1, "utf16": 1, "utf16_guessed": 1}
    assert entities.notes()[1].endswith("ignored 1 relation(s).")


def test_offsets_can_be_given(tmp_path):
    as_python = read_doccano(ENTITIES, offsets="python")
    assert as_python.documents[1].span_texts() == ["ACME", "aris."]
    as_utf16 = read_doccano(ENTITIES, offsets="utf16")  # converted as told, nothing decided
    assert as_utf16.documents[1].span_texts() == ["ACME", "Paris"]
    assert as_utf16.counts == {"entities": 2, "relations": 1, "utf16": 1}
    assert as_utf16.notes()[0].endswith("converted to character offsets.")
    assert read_doccano(LABEL, offsets="utf16").documents[1].span_texts() == ["ACME", " Pari"]
    with pytest.raises(ValueError, match="Expected `offsets` to be one of"):
        read_doccano(LABEL, offsets="bytes")


def test_the_word_boundary_rule_keeps_python_offsets_that_cut_no_word(tmp_path):
    text = "\U0001F600\U0001F600 Anna met Bob"
    path = write(tmp_path, {"id": 1, "text": text, "label": [[3, 7, "PER"], [12, 15, "PER"]]})
    data = read_doccano(path)
    assert data.documents[0].span_texts() == ["Anna", "Bob"]
    assert data.counts == {"label": 1}


def test_records_without_ids_are_numbered(tmp_path):
    path = write(tmp_path, {"text": "a", "label": []}, {"text": "b", "label": [[0, 1, "X"]]})
    assert [d.id for d in read_doccano(path).documents] == ["1", "2"]


@pytest.mark.parametrize(("record", "message"), [
    ({"id": 1, "text": "a", "label": ["positive"]}, "this is a text classification export"),
    ({"id": 1, "text": "a"}, "expected one of 'label'"),
    ({"id": 1, "text": "a", "label": [], "entities": []}, "got 'label', 'entities'"),
    ({"id": 1, "label": []}, "expected a string 'text'"),
    ({"id": 1, "text": "a", "label": [[0, 1]]}, r"span 0 is \[0, 1\]; expected \[start, end, "),
    ({"id": 1, "text": "a", "entities": [{"start_offset": 0, "label": "X"}]},
     "entity 0 is .*; expected"),
    ({"id": 1, "text": "ab", "label": [[0, 5, "X"]]}, "ends beyond the text"),
])
def test_malformed_records_are_errors_naming_the_line(tmp_path, record, message):
    path = write(tmp_path, {"id": 0, "text": "x", "label": []}, record)
    with pytest.raises(FormatError, match=message) as info:
        read_doccano(path)
    assert "d.jsonl" in str(info.value)
    assert "line 2" in str(info.value)


def test_duplicate_and_mixed_ids_are_errors(tmp_path):
    dup = write(tmp_path, {"id": 1, "text": "a", "label": []}, {"id": 1, "text": "b", "label": []})
    with pytest.raises(FormatError, match="line 2: document id '1' was already used on line 1"):
        read_doccano(dup)
    mixed = write(tmp_path, {"id": 1, "text": "a", "label": []}, {"text": "b", "label": []})
    with pytest.raises(FormatError, match="line 2: the record has no 'id'"):
        read_doccano(mixed)


def test_written_files_read_back_equal(tmp_path):
    docs = read_doccano(ENTITIES).documents
    write_doccano(docs, tmp_path / "out.jsonl")
    assert read_doccano(tmp_path / "out.jsonl").documents == docs
    assert (tmp_path / "out.jsonl").read_text(encoding="utf-8") == LABEL.read_text(
        encoding="utf-8").replace('"Comments": [], ', "")


def test_the_older_labels_key_is_read(tmp_path):
    path = write(tmp_path, {"id": 3, "text": "Anna flew", "labels": [[0, 4, "PER"]]})
    assert read_doccano(path).documents[0].span_texts() == ["Anna"]


def test_a_long_duplicate_id_is_cut_in_the_message(tmp_path):
    long_id = "d" * 1000
    dup = write(tmp_path, {"id": long_id, "text": "a", "label": []},
                {"id": long_id, "text": "b", "label": []})
    with pytest.raises(FormatError, match=r"line 2: document id 'd{60}'\.\.\. \(1000 "
                                          r"characters\) was already used on line 1") as info:
        read_doccano(dup)
    assert long_id not in str(info.value)
