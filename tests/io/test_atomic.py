"""Atomic writing: an error names the file asked for, never the temporary one; files written together are put in place all, or none."""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest

from nerscore.io.atomic import AtomicFile, atomic_files, atomic_open


@pytest.mark.parametrize("spelling", ["folder", "folder/"])
def test_a_folder_as_the_target_is_named_as_given(tmp_path, spelling):
    (tmp_path / "folder").mkdir()
    target = str(tmp_path / spelling)
    with pytest.raises(IsADirectoryError) as info, atomic_open(target) as fh:
        fh.write("never")
    assert info.value.filename == target
    assert "give the name of a file" in info.value.strerror
    assert sorted(p.name for p in tmp_path.iterdir()) == ["folder"]  # no temporary file left
    assert list((tmp_path / "folder").iterdir()) == []


def test_a_new_name_ending_in_a_separator_is_a_folder_too(tmp_path):
    with pytest.raises(IsADirectoryError):
        AtomicFile(str(tmp_path / "new") + os.sep)
    assert list(tmp_path.iterdir()) == []


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
def test_a_full_device_names_the_target():
    with pytest.raises(OSError, match="No space left") as info, \
            atomic_open("/dev/full", encoding="utf-8") as fh:
        fh.write("result\n")
    assert info.value.errno == errno.ENOSPC
    assert info.value.filename == "/dev/full"


def _fail_while_writing(target: Path, exc: BaseException) -> None:
    with atomic_open(target) as fh:
        fh.write("half")
        raise exc


def test_a_full_disk_names_the_target_not_the_temporary_file(tmp_path):
    target = tmp_path / "out.txt"
    with pytest.raises(OSError, match="No space left") as info:
        _fail_while_writing(target, OSError(errno.ENOSPC, "No space left on device"))
    assert info.value.filename == str(target)
    assert not target.exists()
    assert list(tmp_path.iterdir()) == []


def test_other_errors_in_the_block_are_left_as_they_are(tmp_path):
    target = tmp_path / "out.txt"
    missing = FileNotFoundError(errno.ENOENT, "No such file", str(tmp_path / "in.conll"))
    with pytest.raises(FileNotFoundError) as info:  # a reader's error, not the writer's
        _fail_while_writing(target, missing)
    assert info.value.filename == str(tmp_path / "in.conll")
    with pytest.raises(OSError, match="Input/output") as info2:  # may be a read: no file named
        _fail_while_writing(target, OSError(errno.EIO, "Input/output error"))
    assert info2.value.filename is None


def test_a_failed_rename_names_the_target(tmp_path, monkeypatch):
    target = tmp_path / "out.txt"

    def refused(src: str, dst: str) -> None:
        raise PermissionError(errno.EACCES, "Permission denied", src, dst)

    monkeypatch.setattr(os, "replace", refused)
    with pytest.raises(PermissionError) as info, atomic_open(target) as fh:
        fh.write("new")
    assert (info.value.filename, info.value.filename2) == (str(target), None)
    assert list(Path(tmp_path).iterdir()) == []


def _fail_on_call(monkeypatch: pytest.MonkeyPatch, n: int) -> list[tuple[str, str]]:
    """``os.replace`` refusing its ``n``-th call (counting from 1); the calls are recorded."""
    calls: list[tuple[str, str]] = []
    real = os.replace

    def replace(src: str, dst: str) -> None:
        calls.append((os.fspath(src), os.fspath(dst)))
        if len(calls) == n:
            raise PermissionError(errno.EACCES, "Permission denied", src, dst)
        real(src, dst)

    monkeypatch.setattr(os, "replace", replace)
    return calls


def _write_three(root: Path) -> None:
    with atomic_files() as files:
        for name in ("a.txt", "sub/b.txt", "c.txt"):
            Path(files.path(root / name)).write_text(f"new {name}", encoding="utf-8")


def _tree(root: Path) -> dict[str, str]:
    return {str(p.relative_to(root)): p.read_text(encoding="utf-8") if p.is_file() else "/"
            for p in sorted(root.rglob("*"))}


@pytest.mark.parametrize("failing", [1, 2, 3])
def test_a_rename_failing_partway_puts_every_file_back(tmp_path, monkeypatch, failing):
    (tmp_path / "a.txt").write_text("old a", encoding="utf-8")
    (tmp_path / "c.txt").write_text("old c", encoding="utf-8")
    before = _tree(tmp_path)
    _fail_on_call(monkeypatch, failing)
    with pytest.raises(PermissionError) as info:
        _write_three(tmp_path)
    name = ("a.txt", "sub/b.txt", "c.txt")[failing - 1]
    assert (info.value.filename, info.value.filename2) == (str(tmp_path / name), None)
    assert _tree(tmp_path) == before  # a and c as they were; b, its folder, no file aside


def test_files_put_in_place_leave_nothing_aside(tmp_path):
    (tmp_path / "a.txt").write_text("old a", encoding="utf-8")
    (tmp_path / "c.txt").write_text("old c", encoding="utf-8")
    os.link(tmp_path / "c.txt", tmp_path / "c-link.txt")  # another name of the old c
    _write_three(tmp_path)
    assert _tree(tmp_path) == {"a.txt": "new a.txt", "c-link.txt": "old c", "c.txt": "new c.txt",
                               "sub": "/", "sub/b.txt": "new sub/b.txt"}


def test_without_hard_links_the_old_file_is_moved_aside_and_back(tmp_path, monkeypatch):
    (tmp_path / "a.txt").write_text("old a", encoding="utf-8")
    (tmp_path / "c.txt").write_text("old c", encoding="utf-8")
    before = _tree(tmp_path)

    def no_links(*args: object, **kwargs: object) -> None:
        raise OSError(errno.EPERM, "Operation not permitted")

    monkeypatch.setattr(os, "link", no_links)
    # a aside, a in place, b in place, c aside, c refused: b removed, a and c back
    _fail_on_call(monkeypatch, 5)
    with pytest.raises(PermissionError):
        _write_three(tmp_path)
    assert _tree(tmp_path) == before
    monkeypatch.undo()
    monkeypatch.setattr(os, "link", no_links)
    _write_three(tmp_path)
    assert _tree(tmp_path) == {"a.txt": "new a.txt", "c.txt": "new c.txt", "sub": "/",
                               "sub/b.txt": "new sub/b.txt"}
