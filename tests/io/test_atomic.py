"""Atomic writing: an error names the file asked for, never the temporary one."""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest

from nerscore.io.atomic import AtomicFile, atomic_open


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
