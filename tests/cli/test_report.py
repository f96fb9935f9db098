"""``nerscore report``: PRED read beside GOLD; a TRAIN with the bytes of GOLD not read again."""

from __future__ import annotations

import shutil
import threading

from nerscore.cli import main
from nerscore.io.formats import Format
from tests.paths import TESTS

DATA = TESTS / "data" / "diagnostics"


def _page(tmp_path, monkeypatch, train, name: str,
          threads: dict[str, str] | None = None) -> tuple[str, list[str]]:
    loaded: list[str] = []
    load = Format.load

    def recording_load(self, path, options=None):  # type: ignore[no-untyped-def]
        loaded.append(str(path))
        if threads is not None:
            threads[str(path)] = threading.current_thread().name
        return load(self, path, options)

    monkeypatch.setattr(Format, "load", recording_load)
    out = tmp_path / f"{name}.html"
    assert main(["report", str(DATA / "test.conll"), str(DATA / "pred.conll"), "--train",
                 str(train), "--scheme", "IOB2", "-o", str(out), "-q"]) == 0
    return out.read_text(encoding="utf-8"), loaded


def test_a_train_file_with_the_bytes_of_gold_reuses_gold_as_read(tmp_path, monkeypatch):
    copy = tmp_path / "copy.conll"
    shutil.copyfile(DATA / "test.conll", copy)
    same, loaded = _page(tmp_path, monkeypatch, copy, "same")
    assert sorted(loaded) == [str(DATA / "pred.conll"), str(DATA / "test.conll")]
    longer = tmp_path / "longer.conll"  # one more blank line: other bytes, the same sentences
    longer.write_bytes(copy.read_bytes() + b"\n")
    read, loaded = _page(tmp_path, monkeypatch, longer, "read")
    assert loaded[-1] == str(longer)
    assert read == same
    other, _ = _page(tmp_path, monkeypatch, DATA / "train.conll", "other")
    assert other != same


def test_the_prediction_file_is_read_in_a_thread_beside_gold(tmp_path, monkeypatch):
    threads: dict[str, str] = {}
    _page(tmp_path, monkeypatch, DATA / "train.conll", "threads", threads)
    assert threads == {str(DATA / "test.conll"): threading.current_thread().name,
                       str(DATA / "pred.conll"): "nerscore-read-ahead",
                       str(DATA / "train.conll"): threading.current_thread().name}
