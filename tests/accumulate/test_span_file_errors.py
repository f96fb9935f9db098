"""A JSON Lines or Parquet reader's error, found chunk by chunk, is the one reading whole raises.

Read whole, a JSON Lines file is checked one stage after another over the
whole file (its bytes decoded, every line read as JSON, every id's type,
ids given for all records or none, then each document), and a Parquet file
one batch of rows after another: ``stream_score`` raises the same error,
word for word and with the same attributes, without reading the files whole,
for damage early and late in either file and of every kind.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

import pytest

from nerscore.accumulate.files import FileScoring, score_files, stream_score
from nerscore.cli import main
from nerscore.errors import NerscoreError

N = 40  # documents


def _records(ids=True):
    out = []
    for k in range(N):
        record = {"text": f"Anna flew to Berlin on day {k}",
                  "spans": [[0, 4, "PER"], [13, 19, "LOC"]][: 1 + k % 2]}
        out.append({"id": f"d{k}", **record} if ids else record)
    return out


@dataclass(frozen=True)
class Damage:
    """Record ``k`` written as ``what`` makes it (a reader's error)."""

    what: str
    k: int

    def __call__(self, line: bytes) -> bytes:
        record = json.loads(line)
        if self.what == "an undecodable byte":
            return line.replace(b"Anna", b"Ann\xe9")
        if self.what == "a malformed line":
            return line[:-2]
        if self.what == "a list":
            return b"[1, 2]"
        if self.what == "half a surrogate pair":
            return line.replace(b"Anna", b"\\ud800nna")
        if self.what == "no id":
            record.pop("id")
        elif self.what == "an id":
            record = {"id": f"x{self.k}", **record}
        elif self.what == "an id of the wrong type":
            record["id"] = 1.5
        elif self.what == "a duplicate id":
            record["id"] = "d0"
        elif self.what == "a span beyond its text":
            record["spans"] = [[0, 99, "PER"]]
        elif self.what == "no spans":
            record.pop("spans")
        elif self.what == "a text that is a number":
            record["text"] = 5
        return json.dumps(record).encode()


KINDS = ["an undecodable byte", "a malformed line", "a list", "half a surrogate pair", "no id",
         "an id of the wrong type", "a duplicate id", "a span beyond its text", "no spans",
         "a text that is a number"]


def _write(path, damages, *, ids=True, layout="plain", cut=False):
    """The records as JSON Lines, damaged; ``layout``: LF, or CRLF with a BOM and blank lines."""
    lines = [json.dumps(r).encode() for r in _records(ids)]
    for damage in damages:
        lines[damage.k] = damage(lines[damage.k])
    if layout != "plain":
        lines = [b"\xef\xbb\xbf" + lines[0], *(
            line if k % 9 else b"  \r\n" + line for k, line in enumerate(lines[1:], 1))]
    end = b"\n" if layout == "plain" else b"\r\n"
    path.write_bytes(b"".join(line + end for line in lines) + (b"\xc3" if cut else b""))
    return path


@pytest.fixture(params=["one block", "blocks of 64 bytes"])
def blocks(request, monkeypatch):
    """The chunked reader decodes a file in one block, or in many (errors after chunks scored)."""
    if request.param != "one block":
        from nerscore.io import jsonl

        monkeypatch.setattr(jsonl, "_STREAM_BLOCK_SIZE", 64)
    return request.param


def _same_error(gold, pred, sizes=(1, 7), **kw):
    """The error of the whole files; streaming raises it at every chunk size, attributes and all."""
    with pytest.raises(NerscoreError) as whole:
        score_files(gold, pred, stream=False, **kw)
    for size in sizes:
        with pytest.raises(NerscoreError) as streamed:
            stream_score(gold, pred, FileScoring.from_keywords(chunk_size=size, **kw))
        assert type(streamed.value) is type(whole.value)
        assert str(streamed.value) == str(whole.value)
        assert vars(streamed.value) == vars(whole.value)
    return whole.value


EARLY, LATE = 2, 37

#: name -> (gold damages, prediction damages, options of both files)
CASES: dict[str, tuple[list[Damage], list[Damage], dict]] = {
    **{f"prediction: {what}, {when}": ([], [Damage(what, k)], {})
       for what in KINDS for when, k in (("early", EARLY), ("late", LATE))},
    **{f"gold: {what}, late": ([Damage(what, LATE)], [], {}) for what in KINDS},
    "a span beyond its text early, an undecodable byte late: the byte": (
        [], [Damage("a span beyond its text", EARLY), Damage("an undecodable byte", LATE)], {}),
    "a malformed line early, an undecodable byte late: the byte": (
        [], [Damage("a malformed line", EARLY), Damage("an undecodable byte", LATE)], {}),
    "a malformed line early, a character cut at the end of the file: the cut character": (
        [], [Damage("a malformed line", EARLY)], {"cut": True}),
    "a duplicate id early, a malformed line late: the line": (
        [], [Damage("a duplicate id", EARLY), Damage("a malformed line", LATE)], {}),
    "an id of the wrong type early, a list late: the list": (
        [], [Damage("an id of the wrong type", EARLY), Damage("a list", LATE)], {}),
    "a span beyond its text early, an id of the wrong type late: the id": (
        [], [Damage("a span beyond its text", EARLY), Damage("an id of the wrong type", LATE)],
        {}),
    "a text that is a number early, a record without an id late: the record": (
        [], [Damage("a text that is a number", EARLY), Damage("no id", LATE)], {}),
    "no id early, an id of the wrong type late: the id": (
        [], [Damage("no id", EARLY), Damage("an id of the wrong type", LATE)], {}),
    "two records without ids: the first": (
        [], [Damage("no id", 20), Damage("no id", LATE)], {}),
    "no ids, a span beyond its text early, an id late: the first record": (
        [], [Damage("a span beyond its text", EARLY), Damage("an id", LATE)], {"ids": False}),
    "no ids, an id late": ([], [Damage("an id", LATE)], {"ids": False}),
    "no spans early, a text that is a number late: the first": (
        [], [Damage("no spans", EARLY), Damage("a text that is a number", LATE)], {}),
    "gold late, prediction early: gold's reader fails first": (
        [Damage("a span beyond its text", LATE)], [Damage("an undecodable byte", 0)], {}),
    "gold: a malformed line early, an undecodable byte late; prediction early": (
        [Damage("a malformed line", EARLY), Damage("an undecodable byte", LATE)],
        [Damage("a list", 0)], {}),
    "both late": ([Damage("a duplicate id", LATE)], [Damage("a malformed line", LATE)], {}),
}


@pytest.mark.parametrize("layout", ["plain", "CRLF, a BOM and blank lines"])
@pytest.mark.parametrize("case", list(CASES))
def test_jsonl_reader_errors_streamed_are_the_whole_files_errors(tmp_path, blocks, case,
                                                                 layout):
    gold_damages, pred_damages, options = CASES[case]
    cut = options.get("cut", False)
    ids = options.get("ids", True)
    gold = _write(tmp_path / "gold.jsonl", gold_damages, ids=ids, layout=layout)
    pred = _write(tmp_path / "pred.jsonl", pred_damages, ids=ids, layout=layout, cut=cut)
    error = _same_error(gold, pred, zero_division=0)
    assert str(gold if gold_damages else pred) in str(error)


def _never_called(*args, **kwargs):
    raise AssertionError("read whole")


def test_a_jsonl_reader_error_raised_without_reading_the_files_whole(tmp_path, monkeypatch):
    """A span error early and a bad byte late: the whole file's error, found chunk by chunk."""
    from nerscore.io import jsonl

    gold = _write(tmp_path / "gold.jsonl", [])
    pred = _write(tmp_path / "pred.jsonl", [Damage("a span beyond its text", EARLY),
                                            Damage("an undecodable byte", LATE)])
    with pytest.raises(NerscoreError) as whole:
        score_files(gold, pred, stream=False)
    monkeypatch.setattr(jsonl, "_STREAM_BLOCK_SIZE", 64)
    monkeypatch.setattr(jsonl, "read_jsonl", _never_called)
    with pytest.raises(NerscoreError) as streamed:
        score_files(gold, pred, chunk_size=3)
    assert str(streamed.value) == str(whole.value)
    assert f"Cannot decode byte 0xe9 as utf-8 ({pred}, line {LATE + 1})" in str(whole.value)


# ------------------------------------------------------------------------------ command line


def _run(capsys, *argv):
    status = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return status, out, err


@pytest.mark.parametrize("chunk", ["1", "3", "7"])
@pytest.mark.parametrize("case", [
    "prediction: a span beyond its text, late",
    "prediction: an undecodable byte, late",
    "a span beyond its text early, an undecodable byte late: the byte",
    "no ids, a span beyond its text early, an id late: the first record",
    "gold late, prediction early: gold's reader fails first",
])
def test_cli_jsonl_reader_errors_as_read_whole(capsys, tmp_path, blocks, whole_reads, chunk,
                                               case):
    """Standard error, output and exit status of reading whole, without reading whole."""
    gold_damages, pred_damages, options = CASES[case]
    ids = options.get("ids", True)
    gold = _write(tmp_path / "gold.jsonl", gold_damages, ids=ids)
    pred = _write(tmp_path / "pred.jsonl", pred_damages, ids=ids)
    errors = tmp_path / "e.jsonl"
    argv = ("score", gold, pred, "--errors", errors, "--chunk-sentences")
    streamed = _run(capsys, *argv, chunk)
    assert whole_reads == []  # found chunk by chunk
    whole = _run(capsys, *argv, "0")
    assert whole_reads[0] == str(gold)
    assert streamed == whole
    assert streamed[:2] == (1, "")
    assert streamed[2].startswith("nerscore score: error: ")
    assert not errors.exists()


# ------------------------------------------------------------------------------------ Parquet


@pytest.fixture
def batches(monkeypatch):
    """Parquet files read whole in batches of 8 rows (of 10,000 otherwise)."""
    from nerscore.io import parquet

    monkeypatch.setattr(parquet, "_BATCH", 8)


def _tag_file(path, edits=()):
    """A Parquet file of integer labels (their vocabulary in its metadata), edited as given."""
    pa = pytest.importorskip("pyarrow")
    import pyarrow.parquet as pq

    rows = [[(k + i) % 3 for i in range(2 + k % 3)] for k in range(N)]
    for k, row in edits:
        rows[k] = row
    table = pa.table({"labels": pa.array(rows, type=pa.list_(pa.int64()))})
    table = table.replace_schema_metadata({"nerscore.vocab.labels": '["O", "B-PER", "I-PER"]'})
    pq.write_table(table, path, row_group_size=5)
    return path


PARQUET_TAG_CASES = {
    "a label id outside the vocabulary, late": [(35, [0, 7])],
    "two label ids outside it, in one batch: the range of the batch": [(33, [0, 7]), (38, [9])],
    "a label id outside the vocabulary, then a null label in the same batch: the null": [
        (9, [5]), (14, [0, None])],
    "a label id outside the vocabulary, then a null row in the same batch: the null": [
        (17, [5]), (22, None)],
    "a null label early, a label id outside the vocabulary in a later batch": [
        (3, [None]), (30, [4])],
}


@pytest.mark.parametrize("case", list(PARQUET_TAG_CASES))
def test_parquet_tag_reader_errors(tmp_path, batches, case):
    gold = _tag_file(tmp_path / "gold.parquet")
    pred = _tag_file(tmp_path / "pred.parquet", PARQUET_TAG_CASES[case])
    error = _same_error(gold, pred, sizes=(1, 3, 7, 20), zero_division=0)
    assert str(pred) in str(error)
    _same_error(pred, gold, sizes=(3,), zero_division=0)


def _span_file(path, edits=()):
    """A Parquet span file of the records, rows edited as given (``k -> (id, text, spans)``)."""
    pa = pytest.importorskip("pyarrow")
    import pyarrow.parquet as pq

    rows = [(r["id"], r["text"], r["spans"]) for r in _records()]
    for k, row in edits:
        rows[k] = row
    span = pa.struct([("start", pa.int64()), ("end", pa.int64()), ("label", pa.string())])
    pq.write_table(pa.table({
        "id": [i for i, _, _ in rows], "text": [t for _, t, _ in rows],
        "spans": pa.array([[dict(zip(("start", "end", "label"), s, strict=True)) for s in spans]
                           for _, _, spans in rows], type=pa.list_(span)),
    }), path, row_group_size=5)
    return path


PARQUET_SPAN_CASES = {
    "a duplicate id, late": [(LATE, ("d3", "x", []))],
    "a span beyond its text, late": [(LATE, ("d37", "Ann", [[0, 4, "PER"]]))],
    "a duplicate id early, a span beyond its text late": [
        (EARLY, ("d1", "x", [])), (LATE, ("d37", "Ann", [[0, 4, "PER"]]))],
    "a span beyond its text early, a duplicate id late": [
        (EARLY, ("d2", "Ann", [[0, 4, "PER"]])), (LATE, ("d1", "x", []))],
}


@pytest.mark.parametrize("case", list(PARQUET_SPAN_CASES))
def test_parquet_span_reader_errors(tmp_path, batches, case):
    gold = _span_file(tmp_path / "gold.parquet")
    pred = _span_file(tmp_path / "pred.parquet", PARQUET_SPAN_CASES[case])
    error = _same_error(gold, pred, sizes=(1, 3, 7, 20), zero_division=0)
    assert ("was already used on row" in str(error)) == case.startswith("a duplicate id")
    _same_error(pred, gold, sizes=(3,), zero_division=0)


@pytest.mark.parametrize("layout", ["tags", "spans"])
def test_a_parquet_gold_s_reader_error_comes_before_a_prediction_that_cannot_be_opened(
        tmp_path, batches, layout):
    """Read whole, gold is read first, as for CoNLL and JSON Lines files."""
    if layout == "tags":
        gold = _tag_file(tmp_path / "gold.parquet", PARQUET_TAG_CASES[
            "a label id outside the vocabulary, late"])
    else:
        gold = _span_file(tmp_path / "gold.parquet", PARQUET_SPAN_CASES["a duplicate id, late"])
    pred = tmp_path / "missing.parquet"
    assert _same_error(gold, pred, sizes=(1, 3, 20), zero_division=0).source == str(gold)
    not_parquet = tmp_path / "pred.parquet"  # nor one that is not a Parquet file
    not_parquet.write_text("Anna B-PER\n")
    assert _same_error(gold, not_parquet, sizes=(3,), zero_division=0).source == str(gold)
    clean = (_tag_file if layout == "tags" else _span_file)(tmp_path / "clean.parquet")
    with pytest.raises(FileNotFoundError) as info:  # gold read to its end without one
        stream_score(clean, pred, FileScoring.from_keywords(chunk_size=3))
    assert info.value.filename == str(pred)
    with pytest.raises(FileNotFoundError):
        score_files(clean, pred, stream=False)
