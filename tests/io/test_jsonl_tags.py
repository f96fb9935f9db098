"""JSON Lines token records read as tags (nerscore.io.jsonl_tags, the jsonl format)."""

from __future__ import annotations

import json
import re

import pytest
from hypothesis import given, settings, strategies as st

import nerscore
from nerscore.errors import FormatError, LengthMismatchError, NerscoreError, OptionError
from nerscore.io.conll import read_conll
from nerscore.io.convert.checks import output_kinds
from nerscore.io.formats import get_format, guess_format
from nerscore.io.jsonl import read_jsonl
from nerscore.io.jsonl_tags import iter_jsonl_tags, jsonl_kind, read_jsonl_tags
from tests.paths import DATA, EXAMPLES

CONLL = DATA / "conll"
EXAMPLE = EXAMPLES / "conll2000"


def records_of(conll, encoding="utf-8"):
    """The sentences of a CoNLL file as token records, as ``Dataset.to_json`` writes them."""
    return [{"id": str(i), "tokens": list(s.tokens), "ner_tags": list(s.labels)}
            for i, s in enumerate(read_conll(conll, encoding=encoding))]


def write_records(path, records, *, key="ner_tags", line_end="\n", prefix=""):
    lines = [json.dumps({(key if k == "ner_tags" else k): v for k, v in r.items()},
                        ensure_ascii=False) for r in records]
    path.write_text(prefix + "".join(line + line_end for line in lines), encoding="utf-8")
    return path


def as_jsonl(tmp_path, conll, name=None, **kwargs):
    """``conll`` written as a JSON Lines file of token records."""
    encoding = kwargs.pop("encoding", "utf-8")
    return write_records(tmp_path / (name or conll.stem + ".jsonl"),
                         records_of(conll, encoding), **kwargs)


def streamed(path, **options):
    chunks = list(iter_jsonl_tags(path, **options))
    return [s for c in chunks for s in c.tags.to_lists()], chunks


def error_of(call, *args, **kwargs):
    with pytest.raises(NerscoreError) as info:
        call(*args, **kwargs)
    return type(info.value), str(info.value)


# ------------------------------------------------------------------------------- sniffing


def test_a_token_file_is_read_as_tags_and_a_span_file_as_before(tmp_path):
    tags = as_jsonl(tmp_path, CONLL / "gold.conll")
    spans = tmp_path / "spans.jsonl"
    spans.write_text('{"id": "a", "text": "Ann", "tokens": ["Ann"], "spans": [[0, 3, "PER"]]}\n')
    fmt = guess_format(tags)
    assert fmt.name == "jsonl"
    assert fmt.kind_of(tags) == "tags"
    assert fmt.kind_of(spans) == "spans"
    data = fmt.load(tags).data
    assert data.to_lists() == read_conll(CONLL / "gold.conll").to_lists()
    assert fmt.load(spans).data == read_jsonl(spans)


@pytest.mark.parametrize(("content", "kind"), [
    ('\ufeff\r\n  \n{"tokens": ["a"], "tags": ["O"]}\r\n', "tags"),  # mark, blank lines, CRLF
    ('{"tokens": ["a"], "labels": ["O"]}\n{"spans": []}\n', "tags"),  # the first record decides
    ('{"tokens": ["a"], "ner": ["O"]}\n', "tags"),
    ('{"tokens": ["a"], "bio": ["O"]}\n', "tags"),  # no tag key known: the reader says so
    ('{"tokens": ["a"], "ner_tags": ["O"], "text": "a"}\n', "spans"),
    ('{"tokens": ["a"], "ner_tags": ["O"], "spans": []}\n', "spans"),
    ('{"tokens": ["a"], "ner_tags": ["O"], "output": "x"}\n', "spans"),
    ('{"tokens": "a b", "ner_tags": ["O"]}\n', "spans"),
    ('{"words": ["a"], "ner_tags": ["O"]}\n', "spans"),
    ('{"tokens": ["a"], "ner_tags": [\n', "spans"),  # malformed: the span reader says so
    ('[1, 2]\n', "spans"),
    ("", "spans"),
    ("\n\n", "spans"),
])
def test_the_first_record_decides(tmp_path, content, kind):
    path = tmp_path / "f.jsonl"
    path.write_text(content, encoding="utf-8")
    assert jsonl_kind(path) == kind
    assert get_format("jsonl").kind_of(path) == kind


def test_the_sniff_reads_the_file_in_its_encoding(tmp_path):
    path = tmp_path / "f.jsonl"
    path.write_text('{"tokens": ["Zoë"], "ner_tags": ["B-PER"]}\n', encoding="utf-16")
    assert jsonl_kind(path, encoding="utf-16") == "tags"
    assert jsonl_kind(path) == "spans"  # read as UTF-8 it is no JSON: the reader says why
    assert read_jsonl_tags(path, encoding="utf-16").tags.tokens == ["Zoë"]


def test_the_options_of_token_records_read_any_file_as_token_records(tmp_path):
    path = tmp_path / "f.jsonl"
    path.write_text('{"words": ["a"], "bio": ["B-X"]}\n')
    assert jsonl_kind(path, column="bio") == jsonl_kind(path, tokens_column="words") == "tags"
    assert jsonl_kind(tmp_path / "missing.jsonl", column="bio") == "tags"  # its reader fails
    tags = read_jsonl_tags(path, column="bio", tokens_column="words").tags
    assert (tags.to_lists(), tags.tokens) == ([["B-X"]], ["a"])
    spans = tmp_path / "s.jsonl"
    spans.write_text('{"id": "a", "spans": []}\n')
    _, message = error_of(get_format("jsonl").load, spans, {"column": "bio"})
    assert message == (f"{spans}, line 1: the record has 'spans', but the reader option column "
                       "or tokens_column reads a file of token records: every record must hold "
                       "tokens and tags only (no 'spans', 'entities', 'text', 'output' or "
                       "'mentions'). Give a file of span documents or one of token records, not "
                       "both in one.")
    with pytest.raises(OptionError, match="Expected `column` to be a str"):
        read_jsonl_tags(path, column=3)


def test_no_file_and_a_folder_are_spans_left_to_the_reader(tmp_path):
    assert jsonl_kind(tmp_path / "missing.jsonl") == "spans"
    assert jsonl_kind(tmp_path) == "spans"
    with pytest.raises(FileNotFoundError):
        get_format("jsonl").load(tmp_path / "missing.jsonl")


def test_the_tag_keys_in_order_and_other_keys_ignored(tmp_path):
    path = tmp_path / "f.jsonl"
    path.write_text('{"id": 7, "tokens": ["a", "b"], "pos_tags": ["DT", "NN"], '
                    '"labels": ["B-X", "I-X"], "tags": ["O", "O"]}\n'
                    '{"tokens": [], "tags": [], "labels": []}\n')
    records = read_jsonl_tags(path)
    assert records.tags.to_lists() == [["O", "O"], []]  # 'tags' comes before 'labels'
    assert records.record_lines.tolist() == [1, 2]
    assert read_jsonl_tags(path, column="labels").tags.to_lists() == [["B-X", "I-X"], []]


def test_span_records_without_spans_say_when_a_file_is_read_as_token_records(tmp_path):
    path = tmp_path / "f.jsonl"
    path.write_text('{"text": "a", "tokens": ["a"], "ner_tags": ["O"]}\n')
    _, message = error_of(get_format("jsonl").load, path)
    assert message == (
        f"{path}, line 1: the record has no 'spans' (or 'entities'); write \"spans\": [] for a "
        "document without entities, so that a record cut short is not read as predicting "
        "nothing. It has a list of 'tokens': a file is read as token records (one sentence a "
        "line, with its tags) when its first record has a list of 'tokens' and none of "
        "'spans', 'entities', 'text', 'output' and 'mentions' (docs/formats.md).")
    path.write_text('{"id": "a"}\n')  # no tokens: the message as before
    assert error_of(read_jsonl, path)[1].endswith("is not read as predicting nothing.")


# -------------------------------------------------------------------- as CoNLL files read


@pytest.mark.parametrize(("gold", "pred", "encoding"), [
    (EXAMPLE / "gold.conll", EXAMPLE / "pred.conll", "utf-8"),
    (CONLL / "gold.conll", CONLL / "pred.conll", "utf-8"),
    (CONLL / "gold.conll", CONLL / "pred_messy.conll", "utf-8"),
    (CONLL / "gold.conll", CONLL / "pred_latin1.conll", "latin-1"),
])
def test_the_same_corpus_scores_as_its_conll_files(tmp_path, gold, pred, encoding):
    g = as_jsonl(tmp_path, gold, "gold.jsonl")
    p = as_jsonl(tmp_path, pred, "pred.jsonl", encoding=encoding)
    for stream, chunk_size in ((False, 10_000), (True, 10_000), (True, 1), (True, 7)):
        kwargs = {"stream": stream, "chunk_size": chunk_size, "zero_division": 0,
                  "confusion": True}
        jsonl = nerscore.score_files(g, p, errors=tmp_path / "j.jsonl", **kwargs)
        conll = nerscore.score_files(gold, pred, errors=tmp_path / "c.jsonl",
                                     pred_options={"encoding": encoding}, **kwargs)
        assert jsonl.streamed == stream
        assert jsonl.report.counts == conll.report.counts
        assert jsonl.report.micro == conll.report.micro
        assert jsonl.report.accuracy == conll.report.accuracy
        assert jsonl.confusion.matrix.tolist() == conll.confusion.matrix.tolist()
        names = {str(gold): "GOLD", str(pred): "PRED", str(g): "GOLD", str(p): "PRED"}

        def named(notes, names=names):
            out = []
            for n in notes:
                for path, name in names.items():
                    n = n.replace(path, name)
                out.append(re.sub(r"line \d+", "line N", n))  # a sentence's line, or a token's
            return out

        # CoNLL's notes of -DOCSTART- lines have no JSON Lines counterpart; the token notes do
        conll_notes = [n for n in conll.report.notes if "-DOCSTART-" not in n]
        assert named(jsonl.report.notes) == named(conll_notes)
        assert (tmp_path / "j.jsonl").read_text() == (tmp_path / "c.jsonl").read_text()


def test_token_notes_say_lines_as_conll_says_them(tmp_path):
    g = as_jsonl(tmp_path, CONLL / "gold.conll", "g.jsonl")
    p = as_jsonl(tmp_path, CONLL / "pred_messy.conll", "p.jsonl")
    res = nerscore.score_files(g, p, zero_division=0)
    assert res.token_notes == (
        f"2 of 15 tokens differ between {g} and {p}; the first is token 1 of sentence 0: "
        f"'Müller' ({g}, line 1) vs 'Muller' ({p}, line 1); tags are compared by position.",)
    whole = nerscore.score_files(g, p, zero_division=0, stream=False)
    assert whole.token_notes == res.token_notes
    for stream in (True, False):
        with pytest.raises(FormatError) as info:
            nerscore.score_files(g, p, strict_tokens=True, stream=stream, chunk_size=1)
        assert str(info.value) == (
            f"Token 1 of sentence 0 differs between the files: 'Müller' ({g}, line 1) vs "
            f"'Muller' ({p}, line 1); 2 of 15 tokens differ. Check that both files hold the "
            "same text, or allow differing tokens (strict_tokens=False, without "
            "--strict-tokens).")


@pytest.mark.parametrize(("pred", "message"), [
    ("pred_short_sentence.conll",
     "Sentence 1 has 6 tokens in {g} (line 2) but 5 in {p} (line 2); every sentence needs one "
     "predicted tag per gold token."),
    ("pred_missing_sentence.conll",
     "{g} has 3 sentences but {p} has 2; both files must list the same sentences in the same "
     "order, one a line."),
])
def test_sentences_that_differ_are_errors_naming_lines(tmp_path, pred, message):
    g = as_jsonl(tmp_path, CONLL / "gold.conll", "g.jsonl")
    p = as_jsonl(tmp_path, CONLL / pred, "p.jsonl")
    expected = message.format(g=g, p=p)
    for stream in (True, False):
        assert error_of(nerscore.score_files, g, p, stream=stream, chunk_size=1) == (
            LengthMismatchError, expected)


def test_an_empty_sentence_has_its_line(tmp_path):
    g, p = tmp_path / "g.jsonl", tmp_path / "p.jsonl"
    g.write_text('{"tokens": ["a"], "tags": ["O"]}\n{"tokens": [], "tags": []}\n')
    p.write_text('{"tokens": ["a"], "tags": ["O"]}\n\n{"tokens": ["b"], "tags": ["O"]}\n')
    for stream in (True, False):
        assert error_of(nerscore.score_files, g, p, stream=stream)[1] == (
            f"Sentence 1 has 0 tokens in {g} (line 2) but 1 in {p} (line 3); every sentence "
            "needs one predicted tag per gold token.")
    assert nerscore.score_files(g, g, zero_division=0).report.n_sequences == 2


def test_an_invalid_tag_names_the_token_and_its_line(tmp_path):
    g = tmp_path / "g.jsonl"
    g.write_text('{"tokens": ["Ann"], "ner_tags": ["B-PER"]}\n'
                 '{"tokens": ["Bo", "Lee"], "ner_tags": ["B-PER", "X-PER"]}\n')
    for stream in (True, False):
        _, message = error_of(nerscore.score_files, g, g, stream=stream, chunk_size=1)
        assert message.startswith(
            f"Invalid tag 'X-PER' at token 1 ('Lee') of sentence 1 ({g}, line 2): ")


def test_streamed_chunks_are_the_whole_file(tmp_path):
    path = as_jsonl(tmp_path, EXAMPLE / "gold.conll", line_end="\r\n", prefix="\ufeff")
    whole = read_jsonl_tags(path)
    for chunk_size, block_size in ((1, 64), (7, 1 << 20), (40, 300), (1000, 17)):
        lists, chunks = streamed(path, chunk_size=chunk_size, block_size=block_size)
        assert lists == whole.tags.to_lists()
        assert [c.tags.first for c in chunks] == list(range(0, 40, chunk_size))
        assert [t for c in chunks for t in c.tags.tokens] == whole.tags.tokens
        assert [n for c in chunks for n in c.tags.lines.tolist()] == whole.tags.lines.tolist()


@settings(max_examples=60, deadline=None)
@given(st.lists(st.lists(st.tuples(st.text(min_size=1, max_size=5),
                                   st.sampled_from(["O", "B-PER", "I-PER", "B-LOC", "I-X"])),
                         max_size=6), max_size=12),
       st.integers(1, 5), st.sampled_from(["\n", "\r\n"]))
def test_records_read_back_whole_and_in_chunks(tmp_path_factory, sentences, chunk_size, end):
    path = tmp_path_factory.mktemp("records") / "f.jsonl"
    text = "".join(json.dumps({"tokens": [t for t, _ in s], "ner_tags": [g for _, g in s]})
                   + end for s in sentences)
    path.write_text(text, encoding="utf-8", newline="")
    if not sentences:
        assert jsonl_kind(path) == "spans"
        return
    tags = read_jsonl_tags(path).tags
    assert tags.to_lists() == [[g for _, g in s] for s in sentences]
    assert list(tags.sentence_tokens()) == [[t for t, _ in s] for s in sentences]
    assert streamed(path, chunk_size=chunk_size, block_size=16)[0] == tags.to_lists()


# ----------------------------------------------------------------------------- errors


def _a(tokens, tags, key="ner_tags"):
    return json.dumps({"tokens": tokens, key: tags})


@pytest.mark.parametrize(("second", "message"), [
    (_a(["a", "b"], ["O"]),
     "'tokens' holds 2 tokens but 'ner_tags' 1 tags; a record needs one tag per token."),
    (_a(["a", "b"], ["O", None]),
     "token 1 of 'ner_tags' is null None; expected each tag to be a string."),
    (_a(["a", "b"], ["O", ["B-X"]]),
     "token 1 of 'ner_tags' is list ['B-X']; expected each tag to be a string."),
    (_a(["a", "b"], [3, 0]),
     "'ner_tags' holds class ids, not tags (token 0: 3), as Dataset.to_json writes a "
     "ClassLabel column. Save the dataset with dataset.save_to_disk(DIR) and read DIR instead "
     "(the hf format names the ids: docs/formats/hf.md), or write the tag names: "
     "dataset.features['ner_tags'].feature.int2str of the ids, mapped with the column "
     "declared a list of strings (docs/formats.md)."),
    (_a(["a", 5], ["O", "O"]),
     "token 1 of 'tokens' is number 5; expected a list of strings (the sentence's tokens)."),
    (_a("a b", ["O", "O"]),
     "expected 'tokens' to be a list of strings (the sentence's tokens); got string."),
    (_a(["a"], "O"), "expected 'ner_tags' to be a list of tags, one per token; got string."),
    (_a(["a"], ["O"], key="tags"),
     "the record has no 'ner_tags'; every record of a file of token records holds its tokens "
     "under 'tokens' and its tags under 'ner_tags', as the first one (line 1) does."),
    ('{"ner_tags": ["O"]}',
     "the record has no 'tokens'; every record of a file of token records holds its tokens "
     "under 'tokens' and its tags under 'ner_tags', as the first one (line 1) does."),
    ('{"id": "a", "text": "a", "spans": []}',
     "the record has 'spans', but the first record (line 1) is a token record: every record "
     "must hold tokens and tags only (no 'spans', 'entities', 'text', 'output' or "
     "'mentions'). Give a file of span documents or one of token records, not both in one."),
    ('{"tokens": ["a"], "ner_tags": ["O"]',
     "malformed JSON (Expecting ',' delimiter at column 36); each line must hold one JSON "
     "object."),
    ('["a"]', "expected a JSON object with 'tokens' and their tags; got list."),
])
def test_a_bad_record_is_an_error_naming_file_and_line(tmp_path, second, message):
    path = tmp_path / "f.jsonl"
    path.write_text(_a(["Ann"], ["B-PER"]) + "\n\n" + second + "\n" + _a(["x"], ["O"]) + "\n",
                    encoding="utf-8")
    expected = (FormatError, f"{path}, line 3: {message}")
    assert error_of(read_jsonl_tags, path) == expected
    for chunk_size in (1, 5):
        assert error_of(streamed, path, chunk_size=chunk_size) == expected
    other = as_jsonl(tmp_path, CONLL / "gold.conll", "other.jsonl")
    for stream in (True, False):  # read by the format, as the scorer reads it
        assert error_of(nerscore.score_files, path, other, stream=stream) == expected


def test_a_first_record_without_tags_names_the_keys_looked_for(tmp_path):
    path = tmp_path / "f.jsonl"
    path.write_text('{"tokens": ["a"], "bio": ["O"]}\n')
    assert error_of(get_format("jsonl").load, path) == (FormatError, (
        f"{path}, line 1: the record has no tags under 'ner_tags', 'tags', 'labels' or 'ner': a "
        "record of tokens holds its tags under one of them, or under the key named by the "
        "reader option column (e.g. column='bio')."))


def test_bytes_that_cannot_be_decoded_come_before_a_bad_record(tmp_path):
    path = tmp_path / "f.jsonl"
    good = _a(["a"], ["O"]) + "\n"
    path.write_bytes(((_a(["a", "b"], ["O"]) + "\n") + good * 50).encode() + b'{"tokens": ["\xff"]}\n')
    expected = error_of(read_jsonl_tags, path)
    assert expected[1].startswith(f"Cannot decode byte 0xff as utf-8 ({path}, line 52)")
    assert error_of(streamed, path, chunk_size=1, block_size=64) == expected


# ----------------------------------------------------------------------------- convert


def test_converted_to_conll_it_is_the_conll_file(tmp_path):
    src = as_jsonl(tmp_path, EXAMPLE / "gold.conll")
    res = nerscore.convert_file(src, tmp_path / "out.conll")
    assert (res.from_format, res.to_format, res.to_kind, res.n_sequences) == (
        "jsonl", "conll", "tags", 40)
    assert read_conll(tmp_path / "out.conll").to_lists() == read_conll(
        EXAMPLE / "gold.conll").to_lists()
    assert list(read_conll(tmp_path / "out.conll").tokens) == list(
        read_conll(EXAMPLE / "gold.conll").tokens)


def test_json_lines_output_is_still_span_documents(tmp_path):
    assert output_kinds(get_format("jsonl")) == ("spans",)
    assert output_kinds(get_format("parquet")) == ("tags", "spans")
    res = nerscore.convert_file(CONLL / "gold.conll", tmp_path / "out.jsonl", from_scheme="IOB2")
    assert res.to_kind == "spans"
    assert read_jsonl(tmp_path / "out.jsonl")[0].text == "Jonas Müller lives in New York ."
    with pytest.raises(OptionError, match="Decoding tags into spans needs the scheme"):
        nerscore.convert_file(CONLL / "gold.conll", tmp_path / "out2.jsonl")
    with pytest.raises(OptionError, match="parquet_kind='tags' applies to Parquet output"):
        nerscore.convert_file(CONLL / "gold.conll", tmp_path / "out3.jsonl", from_scheme="IOB2",
                              parquet_kind="tags")
    src = as_jsonl(tmp_path, CONLL / "gold.conll", "tags.jsonl")  # token records to spans
    nerscore.convert_file(src, tmp_path / "spans.jsonl", from_scheme="IOB2")
    assert (tmp_path / "spans.jsonl").read_text() == (tmp_path / "out.jsonl").read_text()


@pytest.mark.parametrize("tokens", [["#x"], ["#x", "y"]])
def test_an_invalid_tag_of_a_token_starting_with_a_hash_gives_no_comment_hint(tmp_path, tokens):
    # the hint fits a CoNLL line; a token record's line starts with '{'
    tags = ["Z-PER"] + ["O"] * (len(tokens) - 1)
    path = write_records(tmp_path / "g.jsonl", [{"tokens": tokens, "ner_tags": tags}])
    with pytest.raises(nerscore.errors.InvalidTagError) as info:
        nerscore.score_files(path, path, scheme="IOB2")
    assert "comment" not in str(info.value)
    conll = tmp_path / "g.conll"
    conll.write_text("#x Z-PER\n")
    with pytest.raises(nerscore.errors.InvalidTagError, match="if it is a comment"):
        nerscore.score_files(conll, conll, scheme="IOB2")
