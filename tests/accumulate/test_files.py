"""Chunk-by-chunk scoring equals scoring the whole files, byte for byte."""

from __future__ import annotations

import io
import json
import re

import numpy as np
import pytest

import nerscore
from nerscore.accumulate.files import (
    FileScoring,
    NotStreamable,
    pair_chunks,
    score_files,
    slice_tags,
    stream_score,
)
from nerscore.cli import main
from nerscore.errors import FormatError
from nerscore.io.conll import ConllChunks, read_conll
from nerscore.io.jsonl import iter_jsonl, read_jsonl
from tests.conftest import random_tag_corpus
from tests.paths import ROOT

MATCHERS = [("exact", {}), ("exact", {"labeled": False}), ("semeval", {}), ("overlap", {}),
            ("overlap", {"assignment": "optimal"}), ("threshold", {}), ("token", {})]


def _write_conll(path, gold, pred, *, rng, docstart_every=7, comments=False, crlf=False):
    """Gold and prediction files with -DOCSTART- lines, optional comments; some tokens differ."""
    eol = "\r\n" if crlf else "\n"
    g_lines, p_lines = [], []
    for k, (gs, ps) in enumerate(zip(gold, pred, strict=True)):
        if k % docstart_every == 0:
            g_lines += ["-DOCSTART- -X- O", ""]
            p_lines += ["-DOCSTART- -X- O", ""]
        if comments and k % 5 == 0:
            g_lines.append(f"# sentence {k}")
            p_lines.append(f"# sentence {k}")
        for i, (a, b) in enumerate(zip(gs, ps, strict=True)):
            tok = f"w{k}_{i}"
            g_lines.append(f"{tok} X {a}")
            p_lines.append(f"{tok if rng.random() > 0.02 else tok.upper()} X {b}")
        g_lines.append("")
        p_lines.append("")
    path.joinpath("gold.conll").write_text(eol.join(g_lines), newline="")
    path.joinpath("pred.conll").write_text(eol.join(p_lines), newline="")
    return path / "gold.conll", path / "pred.conll"


def _corpus(rng, n=300):
    gold = [s for s in random_tag_corpus(rng, n_sentences=n, max_len=14) if s]
    pred = [[t if rng.random() > 0.2 else ("O" if t != "O" else "B-PER") for t in s]
            for s in gold]
    return gold, pred


@pytest.fixture
def conll_files(tmp_path, rng):
    gold, pred = _corpus(rng)
    return _write_conll(tmp_path, gold, pred, rng=rng, comments=True)


# ------------------------------------------------------------------------------ readers


@pytest.mark.parametrize(("chunk", "block"), [(1, 1 << 22), (3, 64), (None, 200), (1000, 7)])
def test_conll_chunks_equal_whole_file(conll_files, chunk, block):
    gold, _ = conll_files
    whole = read_conll(gold, comments=True)
    chunks = ConllChunks(gold, chunk_size=chunk, block_size=block, comments=True)
    parts = list(chunks)
    assert len(parts) > 1
    assert [s for c in parts for s in c.to_lists()] == whole.to_lists()
    assert [t for c in parts for t in c.tokens] == list(whole.tokens)
    assert np.concatenate([c.lines for c in parts]).tolist() == whole.lines.tolist()
    assert chunks.notes() == whole.notes()
    assert (chunks.n_sentences, chunks.n_tokens) == (whole.n_sentences, whole.n_tokens)
    assert list(chunks)
    assert chunks.notes() == whole.notes()


def test_conll_slice_keeps_documents_and_tokens():
    corpus = read_conll(io.StringIO("-DOCSTART- O\n\na O\n\nb B-X\n\n-DOCSTART- O\n\nc O\n"))
    assert corpus.documents.tolist() == [0, 2]
    assert corpus.slice(1, 3).documents.tolist() == [1]
    assert corpus.slice(0, 1).documents.tolist() == [0]
    assert list(corpus.slice(1, 2).tokens) == ["b"]
    assert corpus.slice(2, 2).n_tokens == 0


def test_conll_chunks_old_mac_line_endings():
    text = "a O\rb B-X\r\rc O\r"
    assert [c.to_lists() for c in ConllChunks(io.StringIO(text))] == \
        [read_conll(io.StringIO(text)).to_lists()]


def test_conll_chunks_delimiter_decided_late_is_an_error():
    # the first block reads as tab columns; a later line has no tab
    text = "New York\tB-LOC\n\n" * 3 + "x O\n"
    with pytest.raises(FormatError, match="column delimiter"):
        list(ConllChunks(io.StringIO(text), block_size=8))
    assert read_conll(io.StringIO(text)).column_delimiter == "space"


def test_iter_jsonl_equals_read_jsonl(tmp_path):
    lines = [json.dumps({"id": f"d{k}", "text": "Anna flew", "spans": [[0, 4, "PER"]]})
             for k in range(11)]
    path = tmp_path / "a.jsonl"
    path.write_text("\ufeff" + "\r\n".join(lines[:5]) + "\n\n" + "\n".join(lines[5:]) + "\n")
    chunks = list(iter_jsonl(path, chunk_size=4, block_size=16))
    assert [len(c) for c in chunks] == [4, 4, 3]
    assert [d for c in chunks for d in c] == read_jsonl(path)


def test_iter_jsonl_refuses_duplicates_across_chunks(tmp_path):
    path = tmp_path / "a.jsonl"
    path.write_text('{"id": "a", "spans": []}\n{"id": "b", "spans": []}\n{"id": "a", "spans": []}\n')
    with pytest.raises(FormatError, match="already used on line 1"):
        list(iter_jsonl(path, chunk_size=1))


def test_pair_chunks_and_slices():
    enc = nerscore.EncodedTags.from_lists([["B-X"], ["O", "O"], ["I-X"]])
    pairs = list(pair_chunks([enc], [slice_tags(enc, 0, 1), slice_tags(enc, 1, 3)]))
    assert [(a.to_lists(), b.to_lists()) for a, b in pairs] == [
        ([["B-X"]], [["B-X"]]), ([["O", "O"], ["I-X"]], [["O", "O"], ["I-X"]])]
    with pytest.raises(nerscore.LengthMismatchError, match=r"^Gold has 2 sequences but the "
                                                          r"prediction has 1;"):
        list(pair_chunks([[1, 2]], [[1]]))
    with pytest.raises(nerscore.LengthMismatchError, match=r"^g has 1 sentence but p has 4;"):
        list(pair_chunks([[1]], [[1, 2], [], [3, 4]], names=("g", "p"), unit="sentences"))


# ------------------------------------------------------------------------------ library


@pytest.mark.parametrize(("match", "options"), MATCHERS)
def test_score_files_equals_in_memory(conll_files, tmp_path, match, options):
    gold, pred = conll_files
    aligns = match != "token"
    kw = dict(match=match, zero_division=0, confusion=aligns,
              gold_options={"comments": True}, pred_options={"comments": True}, **options)
    streamed = score_files(gold, pred, chunk_size=4,
                           errors=tmp_path / "s.jsonl" if aligns else None, **kw)
    whole = score_files(gold, pred, stream=False,
                        errors=tmp_path / "w.jsonl" if aligns else None, **kw)
    assert streamed.streamed
    assert streamed.n_chunks > 20
    assert not whole.streamed
    assert streamed.report.to_json() == whole.report.to_json()
    assert streamed.report.notes == whole.report.notes
    assert any("tokens differ" in n for n in streamed.report.notes)
    assert streamed.token_notes == whole.token_notes
    if aligns:
        assert streamed.confusion.labels == whole.confusion.labels
        assert np.array_equal(streamed.confusion.matrix, whole.confusion.matrix)
        assert (tmp_path / "s.jsonl").read_bytes() == (tmp_path / "w.jsonl").read_bytes()
        assert streamed.n_errors == whole.n_errors > 0


def test_score_files_equals_evaluate(conll_files):
    gold, pred = conll_files
    g, p = read_conll(gold, comments=True), read_conll(pred, comments=True)
    report = nerscore.evaluate(g.tags, p.tags, match="semeval", zero_division=0)
    res = score_files(gold, pred, chunk_size=2, match="semeval", zero_division=0,
                      gold_options={"comments": True}, pred_options={"comments": True})
    assert res.report.to_dict()["schemas"] == report.to_dict()["schemas"]
    assert res.report.counts == report.counts


def test_one_file_two_columns(tmp_path, rng):
    gold, pred = _corpus(rng, 60)
    lines = []
    for gs, ps in zip(gold, pred, strict=True):
        lines += [f"t {a} {b}" for a, b in zip(gs, ps, strict=True)] + [""]
    path = tmp_path / "both.conll"
    path.write_text("\n".join(lines))
    kw = dict(gold_options={"label_column": -2}, pred_options={"label_column": -1},
              zero_division=0)
    a = score_files(path, None, chunk_size=3, **kw)
    b = score_files(path, None, stream=False, **kw)
    assert a.streamed
    assert a.report.to_json() == b.report.to_json()


@pytest.mark.parametrize(("kw", "reason"), [
    ({"match": "threshold", "compat": "kaggle"}, "kaggle"),
    ({"mode": "conlleval"}, "warned"),
])
def test_fallbacks_give_the_in_memory_result(tmp_path, rng, conll_files, kw, reason):
    gold, pred = conll_files
    if reason == "warned":  # S-X S-X: conlleval's merged chunks, counted per chunk
        g = [s for s in random_tag_corpus(rng, n_sentences=200, letters="BIES") if s]
        gold, pred = _write_conll(tmp_path, g, g[::-1][:0] or g, rng=rng, comments=True)
    opts = dict(gold_options={"comments": True}, pred_options={"comments": True},
                zero_division=0, **kw)
    with pytest.raises(NotStreamable, match=reason):
        stream_score(gold, pred, FileScoring.from_keywords(chunk_size=3, **opts))
    with pytest.warns(nerscore.ConllevalMergeWarning) if reason == "warned" else \
            _no_warning():
        res = score_files(gold, pred, chunk_size=3, **opts)
    assert not res.streamed
    assert reason in res.fallback


class _no_warning:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


def test_length_mismatch_raises_the_in_memory_error(tmp_path, conll_files):
    gold, pred = conll_files
    short = tmp_path / "short.conll"
    short.write_text(pred.read_text().rsplit("\n\n", 3)[0] + "\n")
    with pytest.raises(nerscore.LengthMismatchError) as streamed:
        score_files(gold, short, chunk_size=3, gold_options={"comments": True})
    with pytest.raises(nerscore.LengthMismatchError) as whole:
        score_files(gold, short, stream=False, gold_options={"comments": True})
    assert str(streamed.value) == str(whole.value)


def _jsonl(path, docs):
    path.write_text("".join(json.dumps(d) + "\n" for d in docs))
    return path


def _span_docs(rng, n=40):
    gold, pred = [], []
    for k in range(n):
        text = "x" * 60
        starts = sorted({10 * int(s) for s in rng.integers(0, 5, 4)})
        spans = [(s, s + int(rng.integers(1, 6))) for s in starts]
        g = [[s, e, ["PER", "LOC"][int(rng.integers(2))]] for s, e in spans]
        p = [[s + int(rng.integers(0, 2)), e, lab] for s, e, lab in g if rng.random() > 0.2]
        gold.append({"id": f"doc{k}", "text": text, "spans": g})
        pred.append({"id": f"doc{k}", "text": text, "spans": p})
    return gold, pred


@pytest.mark.parametrize("match", ["exact", "semeval", "overlap", "threshold"])
def test_jsonl_in_the_same_order_streams(tmp_path, rng, match):
    gold, pred = _span_docs(rng)
    g, p = _jsonl(tmp_path / "g.jsonl", gold), _jsonl(tmp_path / "p.jsonl", pred)
    a = score_files(g, p, chunk_size=3, match=match, zero_division=0, confusion=True,
                    errors=tmp_path / "a.csv")
    b = score_files(g, p, stream=False, match=match, zero_division=0, confusion=True,
                    errors=tmp_path / "b.csv")
    assert a.streamed
    assert a.n_chunks == 14
    assert a.report.to_json() == b.report.to_json()
    assert (tmp_path / "a.csv").read_bytes() == (tmp_path / "b.csv").read_bytes()
    assert np.array_equal(a.confusion.matrix, b.confusion.matrix)


@pytest.mark.parametrize("ids", [True, False])
def test_jsonl_with_differing_texts_streams_with_the_whole_note(tmp_path, rng, ids):
    """Differing texts in several chunks: one note and one warning, as on the whole files."""
    gold, pred = _span_docs(rng, n=12)
    for k in (1, 4, 5, 11):
        pred[k]["text"] = "x" * k + "y" + "x" * (59 - k)
    if not ids:
        for d in (*gold, *pred):
            del d["id"]
    g, p = _jsonl(tmp_path / "g.jsonl", gold), _jsonl(tmp_path / "p.jsonl", pred)
    with pytest.warns(nerscore.TextMismatchWarning) as streamed_w:
        a = score_files(g, p, chunk_size=3, zero_division=0, errors=tmp_path / "a.jsonl")
    with pytest.warns(nerscore.TextMismatchWarning) as whole_w:
        b = score_files(g, p, stream=False, zero_division=0, errors=tmp_path / "b.jsonl")
    assert a.streamed
    assert a.n_chunks == 4
    assert a.report.notes == b.report.notes
    assert a.report.to_json() == b.report.to_json()
    assert (tmp_path / "a.jsonl").read_bytes() == (tmp_path / "b.jsonl").read_bytes()
    assert [str(w.message) for w in streamed_w] == [str(w.message) for w in whole_w]
    name = "'doc5'" if ids else "'6'"  # JSON Lines documents without ids: their line
    assert len(streamed_w) == 1
    assert a.report.notes[0].startswith("4 documents have different texts in gold and "
                                        "prediction: document ")
    assert f"document {name} from character 5 (gold 'xxxxxxxxxxxxxxxxxxxx', prediction " \
           "'yxxxxxxxxxxxxxxxxxxx')" in a.report.notes[0]


def test_jsonl_in_another_order_falls_back(tmp_path, rng):
    gold, pred = _span_docs(rng)
    g = _jsonl(tmp_path / "g.jsonl", gold)
    p = _jsonl(tmp_path / "p.jsonl", pred[::-1][:-3])
    a = score_files(g, p, chunk_size=3, zero_division=0)
    assert not a.streamed
    assert "same order" in a.fallback
    assert a.report.to_json() == nerscore.evaluate(read_jsonl(g), read_jsonl(p),
                                                   zero_division=0).to_json()


@pytest.mark.parametrize("bad", ["a line without a label", "an encoding error"])
def test_errors_file_not_written_on_a_reader_error(tmp_path, conll_files, bad):
    """A reader's error late in a file: raised chunk by chunk, as reading whole raises it."""
    gold, pred = conll_files
    broken = tmp_path / "broken.conll"
    text = pred.read_bytes()
    cut = text.rindex(b"\n\nw", 0, len(text) - 200) + 2
    middle = b"w1\n" if bad == "a line without a label" else b"w1 X \xff\xfe\n"
    broken.write_bytes(text[:cut] + middle + text[cut:])
    out = tmp_path / "err.jsonl"
    job = FileScoring(chunk_size=3, gold_options={"comments": True},
                      pred_options={"comments": True})
    with pytest.raises(FormatError) as streamed:
        stream_score(gold, broken, job, errors=out)
    assert not out.exists()
    assert not [f for f in tmp_path.iterdir() if f.name.endswith((".partial", ".tmp"))]
    with pytest.raises(FormatError) as whole:
        score_files(gold, broken, stream=False, gold_options={"comments": True},
                    pred_options={"comments": True})
    assert str(streamed.value) == str(whole.value)


def test_errors_file_not_written_on_fallback(tmp_path, monkeypatch):
    """Later lines that choose another column delimiter: the files are read whole."""
    from nerscore.io import _conll_stream

    monkeypatch.setattr(_conll_stream, "STREAM_BLOCK_SIZE", 16)
    gold = tmp_path / "g.conll"
    gold.write_text("New York\tN\tB-LOC\n\n" * 3 + "x y O\n")
    out = tmp_path / "err.jsonl"
    with pytest.raises(NotStreamable, match="column delimiter"):
        stream_score(gold, gold, FileScoring(chunk_size=1), errors=out)
    assert not out.exists()
    assert not [f for f in tmp_path.iterdir() if f.name.endswith((".partial", ".tmp"))]


def test_errors_file_not_written_on_an_input_error(tmp_path, conll_files):
    gold, pred = conll_files
    out = tmp_path / "err.jsonl"
    with pytest.raises(FormatError, match=r"Token \d+ of sentence \d+ differs"):
        stream_score(gold, pred, FileScoring(chunk_size=3, strict_tokens=True,
                                             gold_options={"comments": True},
                                             pred_options={"comments": True}), errors=out)
    assert not out.exists()
    assert not [f for f in tmp_path.iterdir() if f.name.endswith((".partial", ".tmp"))]


# ------------------------------------------------------------------------------ command line


def _run(capsys, *argv):
    status = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return status, out, err


@pytest.mark.parametrize("fmt", ["text", "json", "markdown", "conlleval", "seqeval", "html"])
def test_cli_streaming_is_byte_identical(capsys, tmp_path, conll_files, fmt, monkeypatch):
    gold, pred = conll_files
    common = [gold, pred, "--comments", "--format", fmt, "--confusion",
              "--zero-division", "0"]
    s = _run(capsys, "score", *common, "--chunk-sentences", "3", "--errors", tmp_path / "s.csv")
    w = _run(capsys, "score", *common, "--chunk-sentences", "0", "--errors", tmp_path / "w.csv")
    assert s[0] == w[0] == 0
    assert s[1] == w[1]
    assert s[2].replace("s.csv", "") == w[2].replace("w.csv", "")
    assert (tmp_path / "s.csv").read_bytes() == (tmp_path / "w.csv").read_bytes()


def test_cli_streams_by_default(capsys, conll_files, monkeypatch):
    import nerscore.accumulate.files as streaming

    seen = []
    real = streaming.stream_score

    def spy(*args, **kwargs):
        res = real(*args, **kwargs)
        seen.append(res.n_chunks)
        return res

    monkeypatch.setattr(streaming, "stream_score", spy)
    gold, pred = conll_files
    status, out, _ = _run(capsys, "score", gold, pred, "--comments", "--chunk-sentences", "5")
    assert status == 0
    assert seen
    assert seen[0] > 10
    assert "precision" in out


def test_cli_same_file_note_and_errors(capsys, tmp_path, conll_files):
    gold, _ = conll_files
    s = _run(capsys, "score", gold, gold, "--comments", "--format", "json",
             "--chunk-sentences", "2")
    w = _run(capsys, "score", gold, gold, "--comments", "--format", "json",
             "--chunk-sentences", "0")
    assert s == w
    assert "same file" in s[2]
    bad = tmp_path / "bad.conll"
    bad.write_text(re.sub(r"(?m)^w30_0 .*$", "w30_0", gold.read_text()))
    s = _run(capsys, "score", gold, bad, "--comments", "--chunk-sentences", "2")
    w = _run(capsys, "score", gold, bad, "--comments", "--chunk-sentences", "0")
    assert s == w
    assert s[0] == 1


def test_stream_score_reports_bytes_read_of_a_conll_gold_file():

    from nerscore.accumulate.files import FileScoring, stream_score

    example = ROOT / "examples" / "conll2000"
    calls: list[tuple[int, int]] = []
    stream_score(example / "gold.conll", example / "pred.conll", FileScoring(chunk_size=5),
                 progress=lambda d, t: calls.append((d, t)))
    size = (example / "gold.conll").stat().st_size
    assert calls[-1] == (size, size)
    assert all(t == size and 0 < d <= size for d, t in calls)
    assert [d for d, _ in calls] == sorted(d for d, _ in calls)


def test_strict_mode_sums_the_tag_runs_it_reads_as_no_entity_over_chunks(tmp_path, capsys):
    gold, pred = tmp_path / "gold.conll", tmp_path / "pred.conll"
    gold.write_text("a I-PER\nb I-PER\n\nc B-LOC\n\nd I-ORG\n\ne B-ORG\n", encoding="utf-8")
    pred.write_text("a B-PER\nb I-PER\n\nc I-LOC\n\nd I-ORG\n\ne I-MISC\n", encoding="utf-8")
    kw = dict(scheme="IOB2", mode="strict", zero_division=0)
    streamed = score_files(gold, pred, chunk_size=1, **kw)
    whole = score_files(gold, pred, stream=False, **kw)
    assert streamed.streamed
    assert streamed.n_chunks == 4
    note = ("Strict mode (IOB2) read 2 gold and 3 predicted tag runs as no entity: an IOB2 "
            "entity begins with B. Lenient mode (mode='lenient') reads them as entities.")
    assert streamed.report.notes == whole.report.notes == (note,)
    assert streamed.report.to_json() == whole.report.to_json()
    s = _run(capsys, "score", gold, pred, "--scheme", "IOB2", "--mode", "strict",
             "--chunk-sentences", "1")
    w = _run(capsys, "score", gold, pred, "--scheme", "IOB2", "--mode", "strict",
             "--chunk-sentences", "0")
    assert s == w
    flagged = note.replace("(mode='lenient')", "(--mode lenient)")
    assert s[1].endswith(f"note: {flagged}\n")  # the text output holds the notes
