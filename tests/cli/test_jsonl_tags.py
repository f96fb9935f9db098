"""JSON Lines token records on the command line: read as the CoNLL files they were made from."""

from __future__ import annotations

import json

import pytest

from nerscore.cli import main
from nerscore.io.conll import read_conll
from tests.paths import DATA, EXAMPLES

EXAMPLE = EXAMPLES / "conll2000"
CONLL = DATA / "conll"


def run(capsys: pytest.CaptureFixture[str], *argv: object) -> tuple[int, str, str]:
    status = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    assert "Traceback" not in err
    return status, out, err


def as_jsonl(conll, path, *, key="ner_tags", tokens="tokens"):
    """``conll`` as token records, one sentence a line (``Dataset.to_json``'s layout)."""
    with open(path, "w", encoding="utf-8") as fh:
        for i, s in enumerate(read_conll(conll)):
            fh.write(json.dumps({"id": str(i), tokens: list(s.tokens), key: list(s.labels)})
                     + "\n")
    return path


@pytest.fixture
def pair(tmp_path):
    return (as_jsonl(EXAMPLE / "gold.conll", tmp_path / "gold.jsonl"),
            as_jsonl(EXAMPLE / "pred.conll", tmp_path / "pred.jsonl"))


def named(text, *pairs):
    for path, name in pairs:
        text = text.replace(str(path), name)
    return text


@pytest.mark.parametrize("extra", [
    [], ["--format", "json"], ["--chunk-sentences", "7", "--format", "json"],
    ["--chunk-sentences", "0", "--confusion"], ["--match", "overlap", "--format", "markdown"],
    ["--ci", "--resamples", "30", "--seed", "3"],
])
def test_score_prints_what_it_prints_for_the_conll_files(capsys, pair, extra):
    gold, pred = pair
    status, out, err = run(capsys, "score", gold, pred, *extra)
    assert status == 0, err
    status, conll_out, conll_err = run(capsys, "score", EXAMPLE / "gold.conll",
                                       EXAMPLE / "pred.conll", *extra)
    assert status == 0
    assert (out, err) == (conll_out, conll_err)


def test_errors_list_the_tokens(capsys, tmp_path, pair):
    for name, (g, p) in (("j", pair), ("c", (EXAMPLE / "gold.conll", EXAMPLE / "pred.conll"))):
        for chunks in ("0", "5"):
            status, _, err = run(capsys, "score", g, p, "--errors", tmp_path / f"{name}{chunks}.csv",
                                 "--chunk-sentences", chunks)
            assert status == 0, err
    listing = (tmp_path / "j0.csv").read_text(encoding="utf-8")
    assert "to provide" in listing  # the tokens of the entities
    assert listing == (tmp_path / "c0.csv").read_text(encoding="utf-8")
    assert listing == (tmp_path / "j5.csv").read_text(encoding="utf-8")


def test_messy_tokens_warn_and_strict_tokens_is_an_error(capsys, tmp_path):
    gold = as_jsonl(CONLL / "gold.conll", tmp_path / "g.jsonl")
    pred = as_jsonl(CONLL / "pred_messy.conll", tmp_path / "p.jsonl")
    status, _, err = run(capsys, "score", gold, pred, "--zero-division", "0")
    assert status == 0
    assert err == (f"nerscore score: warning: 2 of 15 tokens differ between {gold} and {pred}; "
                   f"the first is token 1 of sentence 0: 'Müller' ({gold}, line 1) vs 'Muller' "
                   f"({pred}, line 1); tags are compared by position. Pass --strict-tokens to "
                   "make this an error.\n")
    status, _, err = run(capsys, "score", gold, pred, "--strict-tokens")
    assert status == 1
    assert err.startswith(f"nerscore score: error: Token 1 of sentence 0 differs between the "
                          f"files: 'Müller' ({gold}, line 1) vs 'Muller' ({pred}, line 1)")


def test_report_and_compare_read_them(capsys, tmp_path, pair):
    gold, pred = pair
    page = tmp_path / "r.html"
    status, _, err = run(capsys, "report", gold, pred, "-o", page)
    assert status == 0, err
    assert "Rockwell" in page.read_text(encoding="utf-8")
    argv = ["--seed", "1", "--resamples", "50", "--names", "a", "b"]
    status, out, err = run(capsys, "compare", gold, pred, gold, *argv)
    assert status == 0, err
    conll = (EXAMPLE / "gold.conll", EXAMPLE / "pred.conll")
    _, conll_out, conll_err = run(capsys, "compare", conll[0], conll[1], conll[0], *argv)
    assert named(out + err, (gold, "G")) == named(conll_out + conll_err, (conll[0], "G"))


def test_convert_writes_the_conll_file(capsys, tmp_path, pair):
    out = tmp_path / "gold.conll"
    status, _, err = run(capsys, "convert", pair[0], out)
    assert status == 0, err
    assert "wrote 40 sentences (jsonl to conll)" in err
    assert read_conll(out).to_lists() == read_conll(EXAMPLE / "gold.conll").to_lists()


def test_column_and_tokens_column_name_the_keys(capsys, tmp_path):
    gold = as_jsonl(EXAMPLE / "gold.conll", tmp_path / "g.jsonl", key="bio", tokens="words")
    pred = as_jsonl(EXAMPLE / "pred.conll", tmp_path / "p.jsonl", key="bio", tokens="words")
    status, out, err = run(capsys, "score", gold, pred, "--column", "bio",
                           "--tokens-column", "words", "--format", "json")
    assert status == 0, err
    _, conll, _ = run(capsys, "score", EXAMPLE / "gold.conll", EXAMPLE / "pred.conll",
                      "--format", "json")
    assert json.loads(out)["overall"] == json.loads(conll)["overall"]
    status, _, err = run(capsys, "score", gold, pred)
    assert status == 1
    assert err == (f"nerscore score: error: {gold}, line 1: the record has no 'spans' (or "
                   "'entities'); write \"spans\": [] for a document without entities, so that a "
                   "record cut short is not read as predicting nothing.\n")
    status, _, err = run(capsys, "score", gold, pred, "--tokens-column", "words")
    assert status == 1
    assert err == (f"nerscore score: error: {gold}, line 1: the record has no tags under "
                   "'ner_tags', 'tags', 'labels' or 'ner': a record of tokens holds its tags "
                   "under one of them, or under the key named by the reader option column "
                   "(e.g. --column bio).\n")


def test_column_is_refused_where_no_input_takes_it(capsys):
    status, _, err = run(capsys, "score", EXAMPLE / "gold.conll", EXAMPLE / "pred.conll",
                         "--column", "bio")
    assert status == 2
    assert "--column applies to no input; the inputs are conll files" in err


def test_class_ids_say_how_to_name_them(capsys, tmp_path):
    gold = tmp_path / "g.jsonl"
    gold.write_text('{"id": "0", "tokens": ["Ann", "left"], "ner_tags": [1, 0]}\n')
    status, _, err = run(capsys, "score", gold, gold)
    assert status == 1
    assert err.startswith(f"nerscore score: error: {gold}, line 1: 'ner_tags' holds class ids, "
                          "not tags (token 0: 1)")
    assert "save_to_disk" in err


def test_token_records_against_span_documents_is_a_usage_error(capsys, tmp_path, pair):
    spans = tmp_path / "s.jsonl"
    spans.write_text('{"id": "0", "text": "x", "spans": []}\n')
    status, _, err = run(capsys, "score", pair[0], spans)
    assert status == 2
    assert "give both as tag files, or both as span files" in err


def test_standard_input_is_sniffed(capsys, monkeypatch, pair):
    import io
    import sys

    data = pair[1].read_bytes()
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))
    status, out, err = run(capsys, "score", pair[0], "-", "--format", "json")
    assert status == 0, err
    _, conll, _ = run(capsys, "score", EXAMPLE / "gold.conll", EXAMPLE / "pred.conll",
                      "--format", "json")
    assert json.loads(out)["overall"] == json.loads(conll)["overall"]
