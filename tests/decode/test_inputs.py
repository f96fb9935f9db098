"""Span inputs of the Python API: detection, joining by id, validation, scoring."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import nerscore
from nerscore.decode.entities import tags_to_entities
from nerscore.decode.inputs import prepare
from nerscore.errors import FormatError, InvalidSpanError, LengthMismatchError
from nerscore.matching.span_token import span_token_counts
from nerscore.matching.token import token_counts
from nerscore.values.decoding import Decoding
from nerscore.values.documents import Document
from nerscore.values.spans import Entity, EntityColumns, Span
from tests.conftest import random_tag_corpus


def rows(cols: EntityColumns):
    return sorted(
        (q, s, e, cols.labels[lab])
        for q, s, e, lab in zip(cols.seq.tolist(), cols.start.tolist(), cols.end.tolist(),
                                cols.label.tolist(), strict=True)
    )


def test_tags_and_spans_cannot_be_mixed():
    with pytest.raises(TypeError, match="y_true looks like tag sequences but y_pred like spans"):
        prepare([["B-PER"]], [[(0, 1, "PER")]])


def test_empty_inputs_are_defined():
    r = nerscore.evaluate([], [], zero_division=0.0)
    assert r.n_sequences == 0
    assert r.micro.f1 == 0.0
    r = nerscore.evaluate({}, {}, zero_division=0.0)
    assert (r.n_sequences, r.scheme, r.mode, r.n_tokens) == (0, None, None, None)
    r = nerscore.evaluate([[], []], [[], [(0, 2, "X")]], zero_division=0.0)
    assert r.n_sequences == 2
    assert r.labels["X"].n_pred == 1


# ----------------------------------------------------------------------------- span forms


FORMS = {
    "tuples": [[(0, 4, "PER"), (10, 16, "LOC")], [], [(2, 3, "ORG")]],
    "lists": [[[0, 4, "PER"], [10, 16, "LOC"]], [], [[2, 3, "ORG"]]],
    "dicts": [[{"start": 0, "end": 4, "label": "PER"}, {"start": 10, "end": 16, "label": "LOC"}],
              [], [{"start": 2, "end": 3, "label": "ORG", "text": "x"}]],
    "entities": [[Entity(Span(0, 4), "PER"), Entity(Span(10, 16), "LOC")], [],
                 [Entity(Span(2, 3), "ORG")]],
    "mixed": [[(0, 4, "PER"), {"start": 10, "end": 16, "label": "LOC"}], [],
              [Entity(Span(2, 3), "ORG")]],
    "numpy": [[(np.int64(0), np.int32(4), "PER"), (10, 16, "LOC")], [], [(2, 3, "ORG")]],
}


@pytest.mark.parametrize("form", FORMS)
def test_every_span_form_gives_the_same_columns(form):
    p = prepare(FORMS[form], FORMS["tuples"])
    assert rows(p.gold) == [(0, 0, 4, "PER"), (0, 10, 16, "LOC"), (2, 2, 3, "ORG")]
    assert p.gold.labels == ("LOC", "ORG", "PER")  # sorted
    assert p.gold.n_sequences == 3
    assert p.tags is None
    assert p.scheme is None
    assert p.mode is None
    assert p.doc_ids is None
    assert p.texts is None
    assert p.notes == ()


def test_documents_dicts_and_mappings_join_by_id():
    gold = [Document("a", [(0, 4, "PER")], "Anna went"), Document("b", [(0, 1, "X")])]
    as_dicts = [{"id": "a", "text": "Anna went", "spans": [[0, 4, "PER"]]},
                {"id": "b", "entities": [{"start": 0, "end": 1, "label": "X"}]}]
    pred = {"b": [(0, 1, "X")], "a": [(5, 9, "V")]}
    for g in (gold, as_dicts):
        p = prepare(g, pred)
        assert p.doc_ids == ["a", "b"]
        assert p.texts == ["Anna went", None]
        assert rows(p.gold) == [(0, 0, 4, "PER"), (1, 0, 1, "X")]
        assert rows(p.pred) == [(0, 5, 9, "V"), (1, 0, 1, "X")]
        assert p.notes == ()


def test_mapping_values_may_be_documents():
    p = prepare({"a": Document("a", [(0, 1, "X")], "xy")}, {"a": [(0, 2, "X")]})
    assert p.texts == ["xy"]
    assert rows(p.pred) == [(0, 0, 2, "X")]


def test_integer_ids_in_document_dicts_are_strings():
    p = prepare([{"id": 7, "spans": []}], {"7": []})
    assert p.doc_ids == ["7"]


def test_missing_and_extra_ids_are_reported_not_dropped():
    gold = {"a": [(0, 1, "X")], "b": [(0, 1, "X")], "c": []}
    pred = {"a": [(0, 1, "X")], "z": [(0, 1, "X"), (2, 3, "Y")]}
    p = prepare(gold, pred)
    assert p.doc_ids == ["a", "b", "c", "z"]
    assert p.notes == (
        "2 gold document(s) have no prediction and count as predicting no entities: 'b', 'c'.",
        "1 predicted document(s) are not in the gold data; their 2 span(s) count as false "
        "positives: 'z'.",
    )
    r = nerscore.evaluate(gold, pred, zero_division=0.0)
    assert r.notes == p.notes
    assert r.micro.tp == 1
    assert r.micro.n_gold == 2
    assert r.micro.n_pred == 3
    assert r.doc_ids == ["a", "b", "c", "z"]


def test_many_missing_ids_are_abbreviated():
    gold = {f"d{i}": [] for i in range(8)}
    p = prepare(gold, {"d0": []})
    assert p.notes[0].endswith("'d1', 'd2', 'd3', 'd4', 'd5', ... (2 more).")


def test_no_common_id_is_an_error():
    with pytest.raises(FormatError, match="None of the 1 predicted document ids appear among the "
                                          "2 gold ids"):
        prepare({"doc1": [], "doc2": []}, {"1": []})


def test_one_document_each_named_for_its_file_pairs_whatever_the_names():
    # a BRAT .ann or WebAnno TSV file is one document named for the file: gold.ann, pred.ann
    gold = [Document("gold", [(0, 3, "PER")], "Ann", source="x/gold.ann")]
    pred = [Document("pred", [(0, 3, "PER")], "Ann", source="y/pred.tsv")]
    r = nerscore.evaluate(gold, pred)
    assert (r.micro.tp, r.micro.fp, r.micro.fn) == (1, 0, 0)
    assert ("x/gold.ann and y/pred.tsv each hold one document, named for its file ('gold' and "
            "'pred'): the two are scored as one document.") in r.notes
    # not when either id is not its file's name, or a document has a line (a record of a file)
    for other in (Document("p", [(0, 3, "PER")], "Ann", source="y/pred.tsv"),
                  Document("pred", [(0, 3, "PER")], "Ann", source="y/pred.jsonl", line=1),
                  Document("pred", [(0, 3, "PER")], "Ann")):
        with pytest.raises(FormatError, match="None of the 1 predicted document ids"):
            prepare(gold, [other])
    with pytest.raises(FormatError, match="None of the 2 predicted document ids"):
        prepare(gold, [pred[0], Document("q", source="y/q.ann")])


def test_duplicate_ids_are_an_error():
    with pytest.raises(FormatError, match="Document id 'a' appears twice in y_pred: documents 0 "
                                          "and 2"):
        prepare([Document("a"), Document("b")],
                [Document("a"), Document("b"), Document("a")])


def test_a_long_document_id_is_quoted_short():
    doc_id = "d" * 10_000
    with pytest.raises(FormatError) as info:
        prepare([Document(doc_id)], [Document(doc_id), Document(doc_id)])
    assert str(info.value) == (
        f"Document id '{'d' * 60}'... (10000 characters) appears twice in y_pred: documents 0 "
        "and 1; ids must be unique."
    )
    with pytest.raises(InvalidSpanError) as span_info:
        prepare({doc_id: [(0, 1, "X")]}, {doc_id: [(2, 1, "X")]})
    assert f"of document '{'d' * 60}'... (10000 characters) of " in str(span_info.value)
    assert len(str(span_info.value)) < 300


def test_duplicate_ids_name_files_and_lines():
    docs = [Document("a", source="p.jsonl", line=1), Document("a", source="p.jsonl", line=5)]
    with pytest.raises(FormatError, match=r"\(p.jsonl, line 1 and p.jsonl, line 5\)"):
        prepare([Document("a")], docs)


def test_positional_pairing_with_documents():
    gold = [Document("a", [(0, 1, "X")]), Document("b")]
    p = prepare(gold, [[(0, 1, "X")], []])
    assert p.doc_ids == ["a", "b"]
    with pytest.raises(LengthMismatchError, match="Gold has 2 documents but the prediction "
                                                  "has 1"):
        prepare(gold, [[]])


def test_mapping_cannot_pair_with_a_plain_list():
    with pytest.raises(TypeError, match="y_true is a mapping of document ids but y_pred is a "
                                        "plain list"):
        prepare({"a": []}, [[]])


def test_documents_need_all_or_no_ids():
    with pytest.raises(TypeError, match="Document 1 of `y_true` has no 'id' but others have"):
        prepare([{"id": "a", "spans": []}, {"spans": []}], [[], []])
    p = prepare([{"text": "ab", "spans": []}, {"spans": []}], [[], []])
    assert p.doc_ids is None
    assert p.texts == ["ab", None]


def test_dict_that_is_neither_span_nor_document():
    with pytest.raises(TypeError, match=r"neither span keys .* nor document keys"):
        prepare([{"begin": 0, "end": 1, "type": "X"}], [[]])


def test_documents_with_both_spans_and_entities():
    with pytest.raises(TypeError, match="has both 'spans' and 'entities'"):
        prepare([{"id": "a", "spans": [], "entities": []}], {"a": []})


NOTE_A = ("1 document has a different text in gold and prediction: document 'a' from "
          "character 5 (gold 'went', prediction 'left'). Offsets are read against the gold "
          "text; give both sides the same texts.")


@pytest.mark.parametrize("form", ["documents", "dicts", "mapping", "mixed", "positional"])
def test_different_texts_warn_and_are_noted(form):
    g, p = Document("a", [(0, 4, "PER")], "Anna went"), Document("a", [(0, 4, "PER")],
                                                                  "Anna left")
    if form == "documents":
        y_true, y_pred = [g], [p]
    elif form == "dicts":
        y_true, y_pred = [g.to_dict()], [p.to_dict()]
    elif form == "mapping":
        y_true, y_pred = {"a": g}, {"a": p}
    elif form == "mixed":
        y_true, y_pred = [g], {"a": p}
    else:
        y_true = [{"text": g.text, "spans": g.spans}]
        y_pred = [{"text": p.text, "spans": p.spans}]
    with pytest.warns(nerscore.TextMismatchWarning) as w:
        prep = prepare(y_true, y_pred)
    assert len(w) == 1
    note = NOTE_A if form != "positional" else NOTE_A.replace("document 'a'", "document 0")
    assert str(w[0].message) == note
    assert prep.texts == ["Anna went"]
    assert prep.notes == (note,)
    assert prep.text_mismatches.count == 1
    with pytest.warns(nerscore.TextMismatchWarning):
        report = nerscore.evaluate(y_true, y_pred)
    assert report.notes == (note,)
    assert report.micro.tp == 1


def test_different_texts_after_the_join_notes():
    gold = [Document("a", [], "Anna went"), Document("b", [], "x")]
    pred = [Document("a", [], "Anna left"), Document("c", [], "y")]
    with pytest.warns(nerscore.TextMismatchWarning):
        prep = prepare(gold, pred)
    assert prep.join_notes[0].startswith("1 gold document(s) have no prediction")
    assert prep.notes == (*prep.join_notes, NOTE_A)


def test_same_texts_or_one_side_without_text_say_nothing():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        prep = prepare([Document("a", [], "Anna")], [Document("a", [], "Anna")])
        assert prep.notes == ()
        prep = prepare([Document("a", [], "Anna")], {"a": []})
        assert prep.notes == ()


def test_tag_options_are_refused_for_spans():
    with pytest.raises(ValueError, match=r"scheme='IOB2', mode='strict' only apply to tag "
                                         "sequences"):
        prepare([[(0, 1, "X")]], [[]], Decoding(scheme="IOB2", mode="strict"))
    with pytest.raises(ValueError, match="suffix=True only applies to tag sequences"):
        nerscore.evaluate([[(0, 1, "X")]], [[]], suffix=True)


# ----------------------------------------------------------------------------- validation


@pytest.mark.parametrize(
    ("y_pred", "message"),
    [
        ([[(0, 1, "X")], [(0, 2, "X"), (5, 3, "Y")]],
         r"Span 1 \(5, 3, 'Y'\) of document 1 of y_pred has start > end; spans are half-open"),
        ([[(-1, 3, "Y")], []], r"Span 0 \(-1, 3, 'Y'\) of document 0 of y_pred has a negative "
                               "start; offsets count from 0"),
        ([[(0, 1.0, "Y")], []], r"Span 0 \(0, 1.0, 'Y'\) of document 0 of y_pred needs integer "
                                "offsets"),
        ([[(True, 1, "Y")], []], r"needs integer offsets; got start True"),
        ([[(0, 1, 5)], []], r"Span 0 \(0, 1, 5\) of document 0 of y_pred needs a str label; "
                            "got int 5"),
        ([[(0, 1)], []], r"Item 0 \(0, 1\) of document 0 of y_pred is not a span"),
        ([[{"start": 0, "end": 1}], []], r"lacks the key\(s\) 'label'"),
        ([[(4, 3, "A"), (6, 5, "B"), (8, 7, "C")], []],
         r"Span 0 \(4, 3, 'A'\) of document 0 of y_pred \(and 2 more invalid spans\) has start "
         "> end"),
    ],
)
def test_invalid_spans(y_pred, message):
    with pytest.raises(InvalidSpanError, match=message):
        prepare([[], []], y_pred)


def test_spans_beyond_the_text_of_the_joined_document():
    gold = [Document("a", [(0, 4, "PER")], "Anna")]
    with pytest.raises(InvalidSpanError, match=r"Span 0 \(2, 6, 'PER'\) of document 'a' of "
                                               "y_pred ends beyond the text, which has 4 "
                                               "characters") as info:
        prepare(gold, {"a": [(2, 6, "PER")]})
    assert info.value.document == "a"
    assert info.value.spans == [(2, 6, "PER")]


def test_document_validates_itself():
    with pytest.raises(InvalidSpanError, match=r"Span 1 \(3, 9, 'X'\) of document 'd' ends "
                                               "beyond the text, which has 5 characters"):
        Document("d", [(0, 1, "X"), (3, 9, "X")], "hello")
    with pytest.raises(TypeError, match="Expected `id` to be a str; got int 3"):
        Document(3)  # type: ignore[arg-type]
    doc = Document("d", [(0, 0, "BLANK")], "")
    assert doc.spans == (Entity(Span(0, 0), "BLANK"),)
    assert Document("d", [], "x", source="a") == Document("d", (), "x", source="b")


# ----------------------------------------------------------------------------- scoring


def _as_spans(tags, scheme=None):
    ents = tags_to_entities(tags, scheme=scheme) if tags else []
    out = [[] for _ in tags]
    for e in ents:
        out[e.sentence].append((e.start, e.end, e.label))
    return out


@pytest.mark.parametrize("seed", range(5))
def test_span_inputs_score_like_the_tags_they_come_from(seed):
    rng = np.random.default_rng(seed)
    y_true = random_tag_corpus(rng, n_sentences=30)
    y_pred = [[t if rng.random() < 0.8 else "O" for t in s] for s in y_true]
    y_pred = [s[:1] + ["B-LOC" if t == "I-PER" else t for t in s[1:]] for s in y_pred]
    by_tags = nerscore.count_matches(y_true, y_pred)
    by_spans = nerscore.count_matches(_as_spans(y_true), _as_spans(y_pred))
    assert by_spans.to_dict() == by_tags.to_dict()
    r = nerscore.evaluate(_as_spans(y_true), _as_spans(y_pred), zero_division=0.0)
    assert r.micro == nerscore.evaluate(y_true, y_pred, zero_division=0.0).micro
    assert r.scheme is None
    assert r.mode is None
    assert r.accuracy is None
    # token scores over units equal token scores over tags (lenient decoding covers every
    # typed non-O token)
    from nerscore.values.tag_input import encode_pair

    tok = token_counts(*encode_pair(y_true, y_pred))
    units = nerscore.count_matches(_as_spans(y_true), _as_spans(y_pred), match="token")
    assert units.to_dict() == tok.to_dict()


def test_evaluate_spans_end_to_end_exact():
    text = "Anna Smith flew from New York to Paris."
    gold = [Document("d1", [(0, 10, "PER"), (21, 29, "LOC"), (33, 38, "LOC")], text)]
    pred = {"d1": [(0, 4, "PER"), (21, 29, "LOC"), (33, 38, "ORG"), (33, 38, "LOC")]}
    r = nerscore.evaluate(gold, pred, zero_division=0.0)
    assert r.labels["LOC"].tp == 2
    assert r.labels["LOC"].n_pred == 2
    assert r.labels["PER"].tp == 0
    assert r.labels["ORG"].n_pred == 1
    assert r.micro.precision == 0.5
    assert r.micro.recall == pytest.approx(2 / 3)
    assert r.texts == [text]
    assert r.doc_ids == ["d1"]
    assert nerscore.f1_score(gold, pred) == pytest.approx(4 / 7)
    res = nerscore.match_entities(gold, pred)
    assert res.alignment.missed.tolist() == [0]


def test_token_scores_of_spans_count_units():
    # nested entities of different labels: each unit counts under each label
    gold = [[(0, 10, "ORG"), (0, 4, "LOC")]]
    pred = [[(0, 6, "ORG"), (0, 4, "LOC"), (3, 8, "ORG")]]  # ORG overlaps itself: units once
    r = nerscore.evaluate(gold, pred, match="token", zero_division=0.0)
    assert (r.labels["ORG"].tp, r.labels["ORG"].n_pred, r.labels["ORG"].n_gold) == (8, 8, 10)
    assert (r.labels["LOC"].tp, r.labels["LOC"].n_pred, r.labels["LOC"].n_gold) == (4, 4, 4)
    assert r.accuracy is None
    assert r.n_tokens is None


def _naive_units(gold, pred):
    def units(side):
        out = {}
        for d, spans in enumerate(side):
            for s, e, lab in spans:
                out.setdefault(lab, set()).update((d, i) for i in range(s, e))
        return out

    g, p = units(gold), units(pred)
    labels = sorted(set(g) | set(p) | {lab for side in (gold, pred) for sp in side
                                       for _, _, lab in sp})
    return {lab: {"tp": len(g.get(lab, set()) & p.get(lab, set())),
                  "n_pred": len(p.get(lab, set())), "n_gold": len(g.get(lab, set()))}
            for lab in labels}


_span = st.tuples(st.integers(0, 30), st.integers(0, 8), st.sampled_from("ABC")).map(
    lambda t: (t[0], t[0] + t[1], t[2]))
_corpus = st.lists(st.lists(_span, max_size=6), min_size=1, max_size=4)


@settings(max_examples=200, deadline=None)
@given(_corpus, _corpus)
def test_span_token_counts_match_a_naive_count(gold, pred):
    n = max(len(gold), len(pred))
    gold = gold + [[]] * (n - len(gold))
    pred = pred + [[]] * (n - len(pred))
    p = prepare(gold, pred)
    assert span_token_counts(p.gold, p.pred).to_dict() == _naive_units(gold, pred)


def test_scorer_accepts_spans():
    scorer = nerscore.EntityScorer(zero_division=0.0)
    scorer.update([[(0, 1, "X")]], [[(0, 1, "X")]])
    scorer.update({"a": [(0, 2, "Y")]}, {"a": []})
    assert scorer.compute().micro.recall == 0.5


def test_large_input_is_columnar():
    rng = np.random.default_rng(0)
    n_docs, per_doc = 2000, 10
    starts = rng.integers(0, 1000, size=(n_docs, per_doc)).tolist()
    labels = ["PER", "LOC", "ORG"]
    docs = [[(s, s + 3, labels[s % 3]) for s in row] for row in starts]
    p = prepare(docs, docs)
    assert len(p.gold) == n_docs * per_doc
    assert p.gold.n_sequences == n_docs
    assert p.gold.seq.dtype == np.int64
    assert p.gold.labels == ("LOC", "ORG", "PER")
    assert nerscore.count_matches(docs, docs).to_dict()["PER"]["tp"] == sum(
        s % 3 == 0 for row in starts for s in row)


def test_what_a_reader_returns_is_scored_as_it_is(tmp_path):
    import nerscore
    from tests.paths import DATA, EXAMPLES

    gold = nerscore.read_conll(EXAMPLES / "conll2000" / "gold.conll")
    pred = nerscore.read_conll(EXAMPLES / "conll2000" / "pred.conll")
    report = nerscore.evaluate(gold, pred)
    assert report.to_dict() == nerscore.evaluate(gold.tags, pred.tags).to_dict()
    assert nerscore.f1_score(gold, pred) == nerscore.f1_score(gold.to_lists(), pred.to_lists())
    # the tokens come along: error listings and the HTML page show the sentences
    assert list(report.texts[0]) == list(gold[0].tokens)
    record = next(r for r in nerscore.errors_from_report(report) if r.gold_text is not None)
    tokens = gold[record.sequence].tokens
    assert record.gold_text == " ".join(tokens[record.gold_start:record.gold_end])
    page = nerscore.render_html(report)
    assert all(f'"{t}"' in page for t in tokens)  # the sentence's tokens are embedded
    bare = nerscore.render_html(nerscore.evaluate(gold.to_lists(), pred.to_lists()))
    assert not any(f'"{t}"' in bare for t in tokens if t.isalpha() and len(t) > 3)
    brat = nerscore.read_brat(DATA / "brat" / "conll2002")
    assert nerscore.evaluate(brat, brat).micro.f1 == 1.0


def test_a_corpus_prepared_against_itself_is_decoded_once(monkeypatch):
    from nerscore.decode import inputs

    calls = []
    real = inputs.decode_counted
    monkeypatch.setattr(inputs, "decode_counted", lambda t, d: (calls.append(t), real(t, d))[1])
    lists = [["B-PER", "I-PER", "O"], ["B-LOC"]]
    tags = nerscore.EncodedTags.from_lists(lists)  # as read from a file: one object
    same = prepare(tags, tags)
    assert len(calls) == 1
    assert same.pred is same.gold
    other = prepare(tags, nerscore.EncodedTags.from_lists(lists))
    assert len(calls) == 3
    assert other.gold.to_entities() == same.gold.to_entities()
    assert other.pred.to_entities() == same.pred.to_entities()


def test_no_predicted_document_at_all_is_joined_by_id():
    """An empty prediction (an empty file) against documents with ids: every one lacks it."""
    gold = [nerscore.Document("a", [(0, 4, "PER")], "Anna B"),
            nerscore.Document("b", [(0, 4, "PER")], "Anna B")]
    report = nerscore.evaluate(gold, [], zero_division=0.0)
    assert (report.micro.tp, report.micro.fn, report.n_sequences) == (0, 2, 2)
    assert ("2 gold document(s) have no prediction and count as predicting no entities: 'a', "
            "'b'.") in report.notes


def test_a_flat_list_of_entities_keeps_their_sentences():
    """tags_to_entities gives one flat list: an entity never matches one of another sentence."""
    gold_tags = [["B-PER", "I-PER", "O"], ["B-LOC"], ["O", "B-ORG"], ["O"]]
    pred_tags = [["B-PER", "I-PER", "O"], ["O"], ["B-ORG", "B-LOC"], ["O"]]
    gold, pred = nerscore.tags_to_entities(gold_tags), nerscore.tags_to_entities(pred_tags)
    for match in ("exact", "semeval", "overlap"):
        on_entities = nerscore.evaluate(gold, pred, match=match, zero_division=0.0)
        on_tags = nerscore.evaluate(gold_tags, pred_tags, match=match, zero_division=0.0)
        assert on_entities.micro == on_tags.micro, match
    moved = [nerscore.Entity(nerscore.Span(0, 1), "PER", sentence=1)]
    still = [nerscore.Entity(nerscore.Span(0, 1), "PER", sentence=0)]
    assert nerscore.evaluate(still, moved, zero_division=0.0).micro.tp == 0
    with pytest.raises(nerscore.InvalidSpanError, match="has sentence -1"):
        nerscore.evaluate([nerscore.Entity._checked(0, 1, "PER", sentence=-1)], still)


_tag = st.sampled_from(["O", "B-A", "I-A", "B-B", "I-B", "E-A", "S-B"])
_tag_corpus = st.integers(0, 6).flatmap(lambda width: st.lists(
    st.lists(_tag, min_size=width, max_size=width), max_size=5))


@settings(max_examples=100, deadline=None)
@given(_tag_corpus, st.data())
def test_tag_arrays_score_as_the_same_lists(gold, data):
    """A 2-D array, a list of 1-D arrays or an object array give what the lists give."""
    pred = data.draw(st.tuples(*[st.lists(_tag, min_size=len(s), max_size=len(s))
                                 for s in gold]).map(list))
    width = len(gold[0]) if gold else 0
    lists = prepare(gold, pred, Decoding("IOBES"))
    expected = nerscore.evaluate(gold, pred, zero_division=0.0, scheme="IOBES", mode="strict")
    forms = [np.array(gold, dtype="<U3").reshape(len(gold), width),
             [np.array(s, dtype="<U3") for s in gold],
             np.array(gold, dtype=object).reshape(len(gold), width)]
    for form in forms:
        arrays = prepare(form, np.array(pred, dtype="<U3").reshape(len(pred), width),
                         Decoding("IOBES"))
        assert rows(arrays.gold) == rows(lists.gold)
        assert rows(arrays.pred) == rows(lists.pred)
        assert arrays.gold.n_sequences == lists.gold.n_sequences
        assert arrays.tokens_correct() == lists.tokens_correct()
        report = nerscore.evaluate(form, pred, zero_division=0.0, scheme="IOBES", mode="strict")
        assert report.to_dict() == expected.to_dict()
