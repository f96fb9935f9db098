"""Tests for nerscore.io.chunks: reading ahead in a thread, pairing the two sides."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator

import pytest

import nerscore.io.chunks
import nerscore.io.conll
from nerscore.accumulate.files import FileScoring
from nerscore.errors import FormatError, LengthMismatchError
from nerscore.io.chunks import NotStreamable, ReadAhead, chunk_pairs, pair_chunks
from nerscore.io.conll import ConllChunks

MAIN = threading.current_thread().name


class _Source:
    """Items 0, 1, ... made in whatever thread iterates them; records what happened."""

    def __init__(self, n: int, fail_at: int | None = None) -> None:
        self.n, self.fail_at = n, fail_at
        self.made: list[int] = []
        self.threads: set[str] = set()
        self.closed = False

    def __iter__(self) -> Iterator[int]:
        try:
            for i in range(self.n):
                if i == self.fail_at:
                    raise FormatError(f"line {i}: no label", line=i)
                self.threads.add(threading.current_thread().name)
                self.made.append(i)
                yield i
        finally:
            self.closed = True


@pytest.mark.parametrize(("threaded", "depth"), [(True, 1), (True, 3), (False, 1)])
def test_items_come_in_order_from_another_thread(threaded, depth):
    src = _Source(200)
    with ReadAhead(src, depth=depth, threaded=threaded) as items:
        assert list(items) == list(range(200))
    assert src.threads == {"nerscore-read-ahead" if threaded else MAIN}
    assert src.closed


@pytest.mark.parametrize("threaded", [True, False])
def test_an_error_comes_where_its_item_would_have_come(threaded):
    src = _Source(10, fail_at=4)
    got = []
    with ReadAhead(src, threaded=threaded) as items, \
            pytest.raises(FormatError, match="line 4: no label") as info:
        got.extend(items)
    assert got == [0, 1, 2, 3]
    assert info.value.line == 4
    assert src.closed
    with ReadAhead(_Source(0), threaded=threaded) as empty:
        assert list(empty) == []
        assert list(empty) == []  # exhausted stays exhausted


@pytest.mark.parametrize("threaded", [True, False])
def test_closing_early_stops_the_thread_and_closes_the_source(threaded):
    src = _Source(10_000)
    items = ReadAhead(src, depth=2, threaded=threaded)
    assert [next(items), next(items)] == [0, 1]
    items.close()
    assert src.closed
    assert items._thread is None if not threaded else not items._thread.is_alive()
    # taken, queued, the one in hand
    assert len(src.made) <= (2 + 2 + 1 if threaded else 2)
    with pytest.raises(StopIteration):
        next(items)


@pytest.mark.parametrize("threaded", [True, False])
def test_an_error_of_the_consumer_stops_the_thread(threaded):
    src = _Source(10_000)

    def consume() -> None:
        with ReadAhead(src, threaded=threaded) as items:
            for i in items:
                if i == 3:
                    raise KeyError(i)

    with pytest.raises(KeyError):
        consume()
    assert src.closed
    assert len(src.made) <= (3 + 1 + 1 + 1 if threaded else 4)


@pytest.mark.parametrize(("cpus", "where"), [(1, MAIN), (2, "nerscore-read-ahead")])
def test_a_thread_only_where_the_process_has_several_cpus(monkeypatch, cpus, where):
    monkeypatch.setattr(nerscore.io.chunks, "usable_cpus", lambda: cpus)
    src = _Source(5)
    with ReadAhead(src) as items:
        assert list(items) == list(range(5))
    assert src.threads == {where}


def test_a_producer_waiting_on_a_slow_consumer_is_freed_at_once():
    src = _Source(100)
    items = ReadAhead(src)
    next(items)
    time.sleep(0.2)  # the thread has filled the hand-over and waits
    start = time.perf_counter()
    items.close()
    assert time.perf_counter() - start < 1.0
    assert not items._thread.is_alive()


def test_chunk_pairs_reads_both_files_in_threads_of_their_own(tmp_path, monkeypatch):
    gold, pred = tmp_path / "g.conll", tmp_path / "p.conll"
    gold.write_text("a B-X\nb I-X\n\nc O\n", encoding="utf-8")
    pred.write_text("a B-X\nb O\n\nc B-Y\n", encoding="utf-8")
    seen: list[tuple[str, str]] = []
    real_iter = ConllChunks.__iter__

    def recording_iter(self: ConllChunks) -> Iterator[object]:
        for chunk in real_iter(self):
            seen.append((str(self.name), threading.current_thread().name))
            yield chunk

    monkeypatch.setattr(ConllChunks, "__iter__", recording_iter)
    monkeypatch.setattr(nerscore.io.chunks, "usable_cpus", lambda: 2)
    job = FileScoring.from_keywords()
    inputs = chunk_pairs(str(gold), str(pred), job.formats(str(gold), str(pred)), False,
                         1, job.gold_options, job.pred_options, job.strict_tokens)
    pairs = [(t.to_lists(), p.to_lists()) for t, p, _ in inputs.pairs]
    assert pairs == [([["B-X", "I-X"]], [["B-X", "O"]]), ([["O"]], [["B-Y"]])]
    assert sorted(seen) == sorted([(str(gold), "nerscore-read-ahead")] * 2
                                  + [(str(pred), "nerscore-read-ahead")] * 2)
    assert MAIN != "nerscore-read-ahead"


def _pairs(gold, pred, chunk_size=1):
    """Every pair, then the error of the whole files that pairing them found."""
    job = FileScoring.from_keywords()
    inputs = chunk_pairs(str(gold), str(pred), job.formats(str(gold), str(pred)), False,
                         chunk_size, job.gold_options, job.pred_options, job.strict_tokens)
    pairs = list(inputs.pairs)
    error = inputs.errors.error()
    if error is not None:
        raise error
    return pairs


@pytest.mark.parametrize("chunk_size", [1, 2, 100])
def test_a_side_with_more_sentences_is_named_with_both_counts(tmp_path, chunk_size):
    gold, pred = tmp_path / "g.conll", tmp_path / "p.conll"
    gold.write_text("a B-X\n", encoding="utf-8")
    pred.write_text("a B-X\n\nb O\n\nc O\n", encoding="utf-8")
    with pytest.raises(LengthMismatchError) as info:
        _pairs(gold, pred, chunk_size)
    assert str(info.value) == (f"{gold} has 1 sentence but {pred} has 3; both files must list "
                               "the same sentences in the same order, separated by blank lines.")
    assert (info.value.expected, info.value.actual) == (1, 3)
    with pytest.raises(LengthMismatchError, match=rf"^{pred} has 3 sentences but {gold} has 1;"):
        _pairs(pred, gold, chunk_size)


def test_span_files_with_more_documents_on_one_side_are_read_whole(tmp_path):
    """Read whole, span documents are joined by id: a missing document is a note, no error."""
    gold, pred = tmp_path / "g.jsonl", tmp_path / "p.jsonl"
    gold.write_text('{"id": "a", "spans": []}\n{"id": "b", "spans": []}\n', encoding="utf-8")
    pred.write_text('{"id": "a", "spans": []}\n', encoding="utf-8")
    with pytest.raises(NotStreamable, match="do not list the same documents"):
        _pairs(gold, pred)
    res = nerscore.score_files(gold, pred, chunk_size=1, zero_division=0)
    assert not res.streamed
    assert res.report.notes == ("1 gold document(s) have no prediction and count as predicting "
                                "no entities: 'b'.",)


@pytest.mark.parametrize(("gold_text", "pred_text"), [
    ("a B-X\n", "a B-X\n\nb O\n"),  # counts differ
    ("a B-X\nb O\n\nc O\n", "a B-X\n\nb O\n\nc O\n"),  # counts and a length differ
    ("a B-X\nb O\n\nc O\n", "a B-X\n\nc O\n"),  # a length differs
])
@pytest.mark.parametrize("chunk_size", [1, 100])
def test_a_mismatch_says_the_same_streamed_or_read_whole(tmp_path, gold_text, pred_text,
                                                         chunk_size):
    from nerscore.accumulate.files import score_shard

    gold, pred = tmp_path / "g.conll", tmp_path / "p.conll"
    gold.write_text(gold_text, encoding="utf-8")
    pred.write_text(pred_text, encoding="utf-8")
    with pytest.raises(LengthMismatchError) as streamed:  # what each worker of --workers runs
        score_shard(gold, pred, FileScoring.from_keywords(chunk_size=chunk_size))
    with pytest.raises(LengthMismatchError) as whole:
        nerscore.io.conll.check_aligned(nerscore.io.conll.read_conll(gold),
                                        nerscore.io.conll.read_conll(pred))
    assert str(streamed.value) == str(whole.value)


def test_pair_chunks_says_how_conll_separates_its_sentences(tmp_path):
    from nerscore.io._conll_align import TokenDiff

    gold, pred = tmp_path / "g.conll", tmp_path / "p.conll"
    gold.write_text("a B-X\n", encoding="utf-8")
    pred.write_text("a B-X\n\nb O\n", encoding="utf-8")
    with pytest.raises(LengthMismatchError) as streamed:
        list(pair_chunks(ConllChunks(gold, chunk_size=1), ConllChunks(pred, chunk_size=1),
                         names=(str(gold), str(pred)), unit="sentences",
                         layout=TokenDiff.layout))
    with pytest.raises(LengthMismatchError) as whole:
        nerscore.io.conll.check_aligned(nerscore.io.conll.read_conll(gold),
                                        nerscore.io.conll.read_conll(pred))
    assert str(streamed.value) == str(whole.value) == (
        f"{gold} has 1 sentence but {pred} has 2; both files must list the same sentences in "
        "the same order, separated by blank lines.")
