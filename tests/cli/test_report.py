"""``nerscore report --train``: a TRAIN with the bytes of GOLD is not read a second time."""

from __future__ import annotations

import shutil

from nerscore.cli import main
from nerscore.io.formats import Format
from tests.paths import TESTS

DATA = TESTS / "data" / "diagnostics"


def _page(tmp_path, monkeypatch, train, name: str) -> tuple[str, list[str]]:
    loaded: list[str] = []
    load = Format.load
    monkeypatch.setattr(Format, "load", lambda self, path, options=None: (
        loaded.append(str(path)), load(self, path, options))[1])
    out = tmp_path / f"{name}.html"
    assert main(["report", str(DATA / "test.conll"), str(DATA / "pred.conll"), "--train",
                 str(train), "--scheme", "IOB2", "-o", str(out), "-q"]) == 0
    return out.read_text(encoding="utf-8"), loaded


def test_a_train_file_with_the_bytes_of_gold_reuses_gold_as_read(tmp_path, monkeypatch):
    copy = tmp_path / "copy.conll"
    shutil.copyfile(DATA / "test.conll", copy)
    same, loaded = _page(tmp_path, monkeypatch, copy, "same")
    assert loaded == [str(DATA / "test.conll"), str(DATA / "pred.conll")]
    longer = tmp_path / "longer.conll"  # one more blank line: other bytes, the same sentences
    longer.write_bytes(copy.read_bytes() + b"\n")
    read, loaded = _page(tmp_path, monkeypatch, longer, "read")
    assert loaded[-1] == str(longer)
    assert read == same
    other, _ = _page(tmp_path, monkeypatch, DATA / "train.conll", "other")
    assert other != same
