"""An input error found chunk by chunk is the one reading the whole files raises, word for word.

``stream_score`` raises it itself (it does not read the files whole to find
it): numbered as in the files, and the first of the stages that reading
whole runs one after another (the readers, the pair check, the shapes, the
gold tags, the predicted tags), wherever in the files each one fails.
"""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from nerscore.accumulate.files import FileScoring, score_files, stream_score
from nerscore.cli import main
from nerscore.errors import FormatError, NerscoreError

TAGS = ["B-PER", "I-PER", "O", "B-LOC", "O"]
N = 40  # sentences


def _sentences():
    return [[(f"s{k}t{i}", TAGS[(k + i) % len(TAGS)]) for i in range(3 + k % 3)]
            for k in range(N)]


def _conll(path, sentences):
    path.write_text("".join("".join(f"{tok} X {tag}\n" for tok, tag in s) + "\n"
                            for s in sentences), encoding="utf-8")
    return path


def _files(tmp_path, gold_edits=(), pred_edits=()):
    """Gold and prediction CoNLL files of the same sentences, each edited as given."""
    out = []
    for name, edits in (("gold.conll", gold_edits), ("pred.conll", pred_edits)):
        sentences = _sentences()
        for edit in edits:
            edit(sentences)
        out.append(_conll(tmp_path / name, sentences))
    return out


def tag(k, i, value):
    def edit(sentences):
        sentences[k][i] = (sentences[k][i][0], value)
    return edit


def token(k, i, value):
    def edit(sentences):
        sentences[k][i] = (value, sentences[k][i][1])
    return edit


def shorter(k):
    def edit(sentences):
        del sentences[k][-1]
    return edit


def extra():
    def edit(sentences):
        sentences.append([("more", "O")])
    return edit


def _same_error(gold, pred, sizes=(1, 3, 7), **kw):
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


CONLL_CASES = {
    "bad gold tag, early": ([tag(1, 0, "X-PER")], []),
    "bad gold tag, late": ([tag(38, 2, "X-PER")], []),
    "bad predicted tag, late": ([], [tag(37, 1, "B-")]),
    "bad tags on both sides: the gold's comes first, however late": (
        [tag(39, 0, "X-PER")], [tag(0, 0, "Y-PER")]),
    "a bad tag, then a sentence whose lengths differ": ([tag(0, 1, "X-A")], [shorter(30)]),
    "a bad tag, then different numbers of sentences": ([tag(0, 1, "X-A")], [extra()]),
    "a sentence whose lengths differ, then different numbers of sentences": (
        [], [shorter(3), extra()]),
    "two sentences whose lengths differ": ([shorter(5)], [shorter(25)]),
}


@pytest.mark.parametrize("case", list(CONLL_CASES))
def test_conll_errors_streamed_are_the_whole_files_errors(tmp_path, case):
    gold, pred = _files(tmp_path, *CONLL_CASES[case])
    _same_error(gold, pred, zero_division=0)


def test_a_late_bad_gold_tag_is_named_by_its_file_sentence(tmp_path):
    gold, pred = _files(tmp_path, [tag(38, 2, "X-PER")])
    with pytest.raises(NerscoreError) as info:
        stream_score(gold, pred, FileScoring.from_keywords(chunk_size=3))
    assert str(info.value).startswith(f"Invalid tag 'X-PER' at token 2 ('s38t2') of sentence 38 "
                                      f"({gold}, line ")
    assert info.value.sentence == 38


@pytest.mark.parametrize("edits", [
    ([], [token(2, 0, "other"), token(20, 1, "more")]),  # counted over both chunks
    ([tag(1, 0, "X-A")], [token(9, 0, "other")]),  # the tokens come before the tags
    ([], [token(2, 0, "other"), shorter(33)]),  # the lengths come before the tokens
])
def test_strict_tokens_streamed_count_the_whole_files(tmp_path, edits):
    gold, pred = _files(tmp_path, *edits)
    _same_error(gold, pred, strict_tokens=True)


@pytest.mark.parametrize("kw", [
    {"scheme": "IOB2", "mode": "strict"},
    {"scheme": "IOB2"},
])
def test_a_prefix_the_scheme_lacks(tmp_path, kw):
    gold, pred = _files(tmp_path, [], [tag(35, 0, "E-PER")])
    error = _same_error(gold, pred, **kw)
    assert "prefix 'E' is not used by the IOB2 scheme" in str(error)


def test_two_label_columns_of_one_file(tmp_path):
    sentences = _sentences()
    sentences[36][1] = (sentences[36][1][0], "O X-LOC")
    path = tmp_path / "both.conll"
    path.write_text("".join("".join(f"{tok} {lab if ' ' in lab else lab + ' ' + lab}\n"
                                    for tok, lab in s) + "\n" for s in sentences))
    opts = dict(gold_options={"label_column": -2}, pred_options={"label_column": -1})
    _same_error(path, None, **opts)


# ---------------------------------------------------------------------------------- readers


@dataclass(frozen=True)
class Spoil:
    """Token ``i`` of sentence ``k`` written as ``line`` (bytes): a reader's error."""

    k: int
    i: int
    line: bytes

    def __call__(self, path):
        old = b"\n" + path.read_bytes()
        at = old.index(f"\ns{self.k}t{self.i} ".encode()) + 1
        path.write_bytes(old[1:at] + self.line + old[old.index(b"\n", at):])


def latin1(k, i):
    return Spoil(k, i, f"s{k}t{i}\xe9 X O".encode("latin-1"))


def no_label(k, i):
    return Spoil(k, i, f"s{k}t{i}".encode())


def _reader_files(tmp_path, gold_edits=(), pred_edits=()):
    """:func:`_files`, edited as given: the sentences first, then the bytes (:class:`Spoil`)."""
    sides = (gold_edits, pred_edits)
    files = _files(tmp_path, *([e for e in edits if not isinstance(e, Spoil)] for edits in sides))
    for path, edits in zip(files, sides, strict=True):
        for edit in edits:
            if isinstance(edit, Spoil):
                edit(path)
    return files


@pytest.fixture(params=["one block", "blocks of 64 bytes"])
def reader_blocks(request, monkeypatch):
    """The readers read a file in one block, or in many (an error comes after chunks scored)."""
    if request.param != "one block":
        from nerscore.io import _conll_stream

        monkeypatch.setattr(_conll_stream, "STREAM_BLOCK_SIZE", 64)
    return request.param


READER_CASES = {
    "gold: an encoding error, early": ([latin1(1, 0)], []),
    "gold: an encoding error, late": ([latin1(38, 1)], []),
    "gold: a line without a label, early": ([no_label(2, 1)], []),
    "gold: a line without a label, late": ([no_label(39, 0)], []),
    "prediction: an encoding error, early": ([], [latin1(0, 2)]),
    "prediction: an encoding error, late": ([], [latin1(37, 1)]),
    "prediction: a line without a label, early": ([], [no_label(1, 1)]),
    "prediction: a line without a label, late": ([], [no_label(39, 2)]),
    "gold late, prediction early: gold's reader fails first": (
        [no_label(38, 0)], [latin1(0, 0)]),
    "gold early, prediction late": ([latin1(1, 1)], [no_label(36, 0)]),
    "both late": ([latin1(39, 0)], [latin1(38, 0)]),
    "a line without a label early, an encoding error late: the encoding error": (
        [no_label(0, 1), latin1(35, 1)], []),
    "the same in the prediction": ([], [no_label(2, 0), latin1(39, 1)]),
    "a bad gold tag, then a reader's error": ([tag(0, 0, "X-A")], [no_label(33, 1)]),
    "a sentence whose lengths differ, then a reader's error": (
        [shorter(2)], [latin1(30, 0)]),
    "different numbers of sentences, then a reader's error": ([extra(), latin1(37, 0)], []),
    "a differing token, then a reader's error": ([], [token(3, 0, "x"), no_label(34, 0)]),
}


@pytest.mark.parametrize("case", list(READER_CASES))
def test_reader_errors_streamed_are_the_whole_files_errors(tmp_path, reader_blocks, case):
    gold_edits, pred_edits = READER_CASES[case]
    gold, pred = _reader_files(tmp_path, gold_edits, pred_edits)
    error = _same_error(gold, pred, strict_tokens=True)
    assert isinstance(error, FormatError)
    failed = gold if any(isinstance(e, Spoil) for e in gold_edits) else pred
    assert error.source == str(failed)


@pytest.mark.parametrize("spoil", [latin1(38, 1), no_label(39, 0)], ids=["encoding", "label"])
def test_gold_s_reader_error_comes_before_a_prediction_that_cannot_be_opened(tmp_path,
                                                                            reader_blocks, spoil):
    gold, pred = _reader_files(tmp_path, [spoil])
    pred.unlink()
    assert _same_error(gold, pred).source == str(gold)
    (tmp_path / "clean").mkdir()
    clean, _ = _reader_files(tmp_path / "clean")
    with pytest.raises(FileNotFoundError):  # gold read to its end without one
        stream_score(clean, pred, FileScoring.from_keywords(chunk_size=3))


@pytest.mark.parametrize(("side", "line"), [("gold", b"s35t1 O"), ("pred", b"s35t1 X O")])
def test_a_reader_error_in_one_file_of_two_label_columns(tmp_path, reader_blocks, side, line):
    """Columns 2 and 3 of one file: a line of two columns fails for gold, of three for pred."""
    path = _conll(tmp_path / "both.conll", [[(tok, f"{t} {t}") for tok, t in s]
                                            for s in _sentences()])
    Spoil(35, 1, line)(path)
    opts = dict(gold_options={"label_column": 2}, pred_options={"label_column": 3})
    error = _same_error(path, None, **opts)
    assert f"different label column ({2 if side == 'gold' else 3})" in str(error)


def test_a_reader_error_raised_without_reading_the_files_whole(tmp_path, monkeypatch):
    """Streaming raises it itself: the whole-file reader is never called."""
    from nerscore.io import _conll_stream, conll

    gold, pred = _reader_files(tmp_path, [tag(0, 0, "X-A")], [latin1(39, 0)])
    with pytest.raises(NerscoreError) as whole:
        score_files(gold, pred, stream=False)
    monkeypatch.setattr(_conll_stream, "STREAM_BLOCK_SIZE", 64)
    monkeypatch.setattr(conll, "read_conll", _never_called)
    with pytest.raises(NerscoreError) as streamed:
        score_files(gold, pred, chunk_size=3)
    assert str(streamed.value) == str(whole.value)
    assert "Cannot decode byte 0xe9" in str(whole.value)


def _never_called(*args, **kwargs):
    raise AssertionError("read whole")


def test_later_lines_choosing_another_delimiter_are_read_whole(tmp_path, monkeypatch):
    """Read whole, this file splits at whitespace and reads; its first blocks alone, at tabs."""
    from nerscore.io import _conll_stream

    monkeypatch.setattr(_conll_stream, "STREAM_BLOCK_SIZE", 16)
    gold = tmp_path / "g.conll"
    gold.write_text("New York\tN\tB-LOC\n\n" * 3 + "x y O\n")
    res = score_files(gold, gold, chunk_size=1)
    assert (res.streamed, res.report.to_json()) == (
        False, score_files(gold, gold, stream=False).report.to_json())


def test_parquet_tag_errors(tmp_path):
    pa = pytest.importorskip("pyarrow")
    import pyarrow.parquet as pq

    def write(name, rows):
        pq.write_table(pa.table({"labels": rows}), tmp_path / name)
        return tmp_path / name

    gold_rows = [[t for _, t in s] for s in _sentences()]
    bad = [list(r) for r in gold_rows]
    bad[33][0] = "X-PER"
    gold = write("g.parquet", gold_rows)
    assert "sentence 33" in str(_same_error(gold, write("bad.parquet", bad)))
    short = [list(r) for r in gold_rows]
    del short[31][-1]
    bad_short = [list(r) for r in bad]
    del bad_short[5][-1]
    assert "Sentence 31 has" in str(_same_error(gold, write("short.parquet", short)))
    _same_error(write("bad_gold.parquet", bad), write("bad_short.parquet", bad_short))
    more = [*bad, ["O"]]
    _same_error(gold, write("more.parquet", more))


# ------------------------------------------------------------------------------ command line


def _run(capsys, *argv):
    status = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return status, out, err


def _streamed_and_whole(capsys, whole_reads, *argv):
    streamed = _run(capsys, "score", *argv[:-1], "--chunk-sentences", argv[-1])
    assert whole_reads == []  # found chunk by chunk
    return streamed, _run(capsys, "score", *argv[:-1], "--chunk-sentences", "0")


@pytest.mark.parametrize("chunk", ["1", "3", "7"])
def test_cli_notes_come_before_the_error_as_read_whole(capsys, tmp_path, chunk, whole_reads):
    """Differing tokens (counted over the whole files) are said before an error of the tags."""
    gold, pred = _files(tmp_path, [tag(30, 0, "X-PER")], [token(2, 0, "a"), token(35, 0, "b")])
    errors = tmp_path / "e.jsonl"
    streamed, whole = _streamed_and_whole(capsys, whole_reads, gold, pred, "--errors", errors,
                                          chunk)
    assert streamed == whole
    assert streamed[0] == 1
    assert "2 of 159 tokens differ" in streamed[2]
    assert streamed[2].index("tokens differ") < streamed[2].index("Invalid tag")
    assert not errors.exists()


def test_cli_same_file_note_before_the_error(capsys, tmp_path, whole_reads):
    gold, _ = _files(tmp_path, [tag(30, 0, "X-PER")])
    copy = tmp_path / "copy.conll"
    copy.write_bytes(gold.read_bytes())
    streamed, whole = _streamed_and_whole(capsys, whole_reads, gold, copy, "4")
    assert streamed == whole
    assert "same file" in streamed[2]
    assert "sentence 30" in streamed[2]


@pytest.mark.parametrize("problem", ["a span beyond the text", "a duplicate id", "a bad line"])
def test_span_file_errors_are_the_readers(tmp_path, problem):
    """Span documents are checked by their reader (named by file, line and id), chunk by chunk."""
    import json

    docs = [{"id": f"d{k}", "text": "x" * 20, "spans": [[k % 5, k % 5 + 3, "PER"]]}
            for k in range(30)]
    gold = tmp_path / "g.jsonl"
    gold.write_text("".join(json.dumps(d) + "\n" for d in docs))
    lines = [json.dumps(d) for d in docs]
    if problem == "a span beyond the text":
        lines[27] = json.dumps(dict(docs[27], spans=[[10, 30, "PER"]]))
    elif problem == "a duplicate id":
        lines[27] = json.dumps(dict(docs[27], id="d2"))
    else:
        lines[27] = "{no json"
    pred = tmp_path / "p.jsonl"
    pred.write_text("".join(line + "\n" for line in lines))
    with pytest.raises(NerscoreError) as streamed:
        stream_score(gold, pred, FileScoring.from_keywords(chunk_size=4))
    with pytest.raises(NerscoreError) as whole:
        score_files(gold, pred, stream=False)
    assert str(streamed.value) == str(whole.value)
    assert "line 28" in str(whole.value)


@pytest.mark.parametrize("chunk", ["1", "3", "7"])
@pytest.mark.parametrize("case", [
    "gold late, prediction early: gold's reader fails first",
    "prediction: an encoding error, late",
    "a differing token, then a reader's error",
    "a bad gold tag, then a reader's error",
])
def test_cli_reader_errors_as_read_whole(capsys, tmp_path, reader_blocks, whole_reads, chunk,
                                         case):
    """Standard error, output and exit status of reading whole, without reading whole."""
    gold, pred = _reader_files(tmp_path, *READER_CASES[case])
    errors = tmp_path / "e.jsonl"
    streamed, whole = _streamed_and_whole(capsys, whole_reads, gold, pred, "--errors", errors,
                                          chunk)
    assert streamed == whole
    assert streamed[:2] == (1, "")
    assert streamed[2].startswith("nerscore score: error: ")
    assert streamed[2].count("\n") == 1  # the error alone: no note before it
    assert not errors.exists()
