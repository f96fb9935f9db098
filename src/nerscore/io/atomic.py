"""Writing files so that nothing the user has is lost: atomic replacement and same-file checks.

Every file nerscore writes goes through :func:`atomic_path` (or
:func:`atomic_open`): the content is written to a temporary file in the
target's folder and renamed over the target only once it is complete, so an
interrupted run leaves the old file (or none), never half a file; the files of
a folder written together (BRAT) go through :func:`atomic_files`, which puts
them all in place at the end, or none of them: a rename that fails partway
puts back the files it had replaced (kept under a second name until every
file is in place) and removes those that were new. Targets that
are not regular files (``/dev/null``, a named pipe, a terminal) are written in
place, since renaming over them would replace the device itself. An error
while writing names the target, never the temporary file: a folder given as
the target, a full disk (``ENOSPC``), a rename that fails.

:func:`same_file` tells whether two paths name one file, through symbolic
links, ``./`` spellings and hard links; the command line uses it to refuse an
output that is one of the command's inputs; :func:`inside` whether a path
lies inside a folder, to refuse an output inside an input folder (a BRAT
folder is read with its subfolders, so the next read would pick the output
up) or an output folder holding an input. :func:`same_content` tells whether
two files hold the same bytes; the command line notes inputs that do (the
same file given as gold and prediction, or as two annotators).
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import tempfile
from collections.abc import Iterator
from typing import IO, Any

__all__ = ["AtomicFile", "AtomicFiles", "atomic_files", "atomic_open", "atomic_path", "inside",
           "same_content", "same_file"]

_Path = str | os.PathLike[str]

#: Errors that only writing raises: one that names no file is the target's.
_WRITE_ERRORS = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EFBIG})


def same_file(a: _Path, b: _Path) -> bool:
    """Whether two paths name the same file.

    Parameters
    ----------
    a, b : str or path-like
        Paths; either may not exist.

    Returns
    -------
    bool
        True when both exist and are one file (symbolic and hard links
        followed), or when neither exists and both resolve to the same path.

    Examples
    --------
    >>> import pathlib, tempfile
    >>> tmp = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (tmp / "gold.conll").write_text("a O")
    >>> (tmp / "link.conll").symlink_to(tmp / "gold.conll")
    >>> same_file(tmp / "gold.conll", tmp / "." / "link.conll")
    True
    >>> same_file(tmp / "gold.conll", tmp / "report.txt")
    False
    """
    try:
        return os.path.samefile(a, b)
    except OSError:  # one of them does not exist (yet)
        return os.path.realpath(a) == os.path.realpath(b)


def inside(path: _Path, folder: _Path) -> bool:
    """Whether ``path`` lies inside the existing folder ``folder``, at any depth.

    Parameters
    ----------
    path : str or path-like
        A path; it may not exist.
    folder : str or path-like
        A path; False unless it is a folder.

    Returns
    -------
    bool
        True when ``path`` (symbolic links and ``..`` resolved) is below
        ``folder``; False for the folder itself (:func:`same_file` tells that).

    Examples
    --------
    >>> import pathlib, tempfile
    >>> tmp = pathlib.Path(tempfile.mkdtemp())
    >>> (tmp / "ann").mkdir()
    >>> inside(tmp / "ann" / "out" / "new", tmp / "ann"), inside(tmp / "ann", tmp)
    (True, True)
    >>> inside(tmp / "ann", tmp / "ann"), inside(tmp / "annex", tmp / "ann")
    (False, False)
    """
    top = os.path.realpath(folder)
    if not os.path.isdir(top):
        return False
    below = os.path.realpath(path)
    return below != top and os.path.commonpath([below, top]) == top


def same_content(a: _Path, b: _Path, block: int = 1 << 20) -> bool:
    """Whether two paths are regular files holding the same bytes (read a block at a time).

    Parameters
    ----------
    a, b : str or path-like
        Paths; False when either is not a regular file or cannot be read.
    block : int
        Bytes read at a time.

    Returns
    -------
    bool

    Examples
    --------
    >>> import pathlib, tempfile
    >>> tmp = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (tmp / "a.conll").write_text("Ana B-PER")
    >>> _ = (tmp / "b.conll").write_text("Ana B-PER")
    >>> _ = (tmp / "c.conll").write_text("Ana B-LOC")
    >>> same_content(tmp / "a.conll", tmp / "b.conll"), same_content(tmp / "a.conll", tmp / "c.conll")
    (True, False)
    >>> same_content(tmp, tmp / "missing.conll")
    False
    """
    try:
        if not (os.path.isfile(a) and os.path.isfile(b)) or (
                os.path.getsize(a) != os.path.getsize(b)):
            return False
        with open(a, "rb") as fa, open(b, "rb") as fb:
            while True:
                x = fa.read(block)
                if x != fb.read(block):
                    return False
                if not x:
                    return True
    except OSError:
        return False


def _is_special(path: str) -> bool:
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return False
    return not stat.S_ISREG(mode) and not stat.S_ISDIR(mode)


class AtomicFile:
    """A file replaced whole: written under a temporary name, renamed over the target at the end.

    :func:`atomic_path` is this as a context manager; a writer that spans
    several calls (records written chunk by chunk) keeps one and calls
    :meth:`commit` or :meth:`discard`.

    Parameters
    ----------
    path : str or path-like
        The file to (re)place. An existing file keeps its permission bits;
        a new one gets the usual ones (``0o666`` less the umask). A device or
        a pipe is written in place.

    Attributes
    ----------
    tmp : str
        Where to write.

    Examples
    --------
    >>> import pathlib, tempfile
    >>> target = pathlib.Path(tempfile.mkdtemp()) / "out.txt"
    >>> f = AtomicFile(target)
    >>> _ = pathlib.Path(f.tmp).write_text("new")
    >>> target.exists()
    False
    >>> f.commit()
    >>> target.read_text()
    'new'
    """

    def __init__(self, path: _Path) -> None:
        self.target = os.fspath(path)
        if os.path.isdir(self.target) or self.target.endswith(("/", os.sep)):
            raise IsADirectoryError(errno.EISDIR, "Is a directory; give the name of a file "
                                                  "to write (in it, or elsewhere)", self.target)
        self.in_place = _is_special(self.target)
        if self.in_place:
            self.tmp = self.target
            return
        folder, name = os.path.split(os.path.abspath(self.target))
        try:
            fd, self.tmp = tempfile.mkstemp(prefix=f".{name}.", suffix=".tmp", dir=folder)
        except OSError as exc:  # name the file asked for, not the temporary one
            why = exc.strerror if os.path.isdir(folder) else "No such folder"
            raise OSError(exc.errno, f"{why} (the new content is written to a temporary file "
                                     f"in {folder} first, then renamed)", self.target) from None
        os.close(fd)
        try:
            mode = stat.S_IMODE(os.stat(self.target).st_mode)
        except OSError:
            umask = os.umask(0)
            os.umask(umask)
            mode = 0o666 & ~umask
        os.chmod(self.tmp, mode)

    def claim(self, exc: BaseException) -> None:
        """Make an error met while writing name the target instead of the temporary file.

        An :class:`OSError` about the temporary file, or one that only
        writing raises (no space left, quota, file too large) and that names
        no file, gets the target as its ``filename``; others are left as
        they are.

        Examples
        --------
        >>> import pathlib, tempfile
        >>> f = AtomicFile(pathlib.Path(tempfile.mkdtemp()) / "out.txt")
        >>> exc = OSError(errno.ENOSPC, "No space left on device")
        >>> f.claim(exc)
        >>> exc.filename == f.target
        True
        >>> f.discard()
        """
        if not isinstance(exc, OSError):
            return
        if exc.filename == self.tmp or (exc.filename is None and exc.errno in _WRITE_ERRORS):
            exc.filename, exc.filename2 = self.target, None

    def commit(self) -> None:
        """Put the written file in place of the target (removed again if that fails)."""
        if not self.in_place:
            try:
                os.replace(self.tmp, self.target)
            except BaseException as exc:
                self.discard()
                self.claim(exc)
                raise

    def discard(self) -> None:
        """Remove what was written; the target stays as it was."""
        if not self.in_place:
            with contextlib.suppress(OSError):
                os.unlink(self.tmp)


@contextlib.contextmanager
def atomic_path(path: _Path) -> Iterator[str]:
    """A temporary path to write in, renamed over ``path`` when the block ends without error.

    Parameters
    ----------
    path : str or path-like
        The file to (re)place. An existing file keeps its permission bits;
        a new one gets the usual ones (``0o666`` less the umask).

    Yields
    ------
    str
        Where to write: a hidden file beside ``path`` (or ``path`` itself when
        it is a device or a pipe). On an exception it is removed and ``path``
        is left as it was.

    Examples
    --------
    >>> import pathlib, tempfile
    >>> target = pathlib.Path(tempfile.mkdtemp()) / "out.txt"
    >>> _ = target.write_text("old")
    >>> try:
    ...     with atomic_path(target) as tmp:
    ...         _ = pathlib.Path(tmp).write_text("half")
    ...         raise KeyboardInterrupt
    ... except KeyboardInterrupt:
    ...     pass
    >>> target.read_text(), sorted(p.name for p in target.parent.iterdir())
    ('old', ['out.txt'])
    >>> with atomic_path(target) as tmp:
    ...     _ = pathlib.Path(tmp).write_text("new")
    >>> target.read_text()
    'new'
    """
    f = AtomicFile(path)
    try:
        yield f.tmp
    except BaseException as exc:
        f.discard()
        f.claim(exc)
        raise
    f.commit()


class AtomicFiles:
    """Files written together, each under a temporary name, renamed over their targets at the end.

    :func:`atomic_files` is this as a context manager. :meth:`path` gives
    where to write one file, creating its folders; :meth:`discard` removes
    every file written and the folders created, so that nothing is left.
    """

    def __init__(self) -> None:
        self.files: list[AtomicFile] = []
        self.folders: list[str] = []  # created, in the order they were

    def path(self, target: _Path) -> str:
        """Where to write the file ``target`` (its missing folders created)."""
        missing, folder = [], os.path.dirname(os.path.abspath(target))
        while not os.path.isdir(folder) and os.path.dirname(folder) != folder:
            missing.append(folder)
            folder = os.path.dirname(folder)
        for folder in reversed(missing):
            os.mkdir(folder)
            self.folders.append(folder)
        self.files.append(AtomicFile(target))
        return self.files[-1].tmp

    def claim(self, exc: BaseException) -> None:
        """Make an error about a temporary file name its target (:meth:`AtomicFile.claim`)."""
        for f in self.files:
            f.claim(exc)

    def commit(self) -> None:
        """Put every written file in place of its target: all of them, or none.

        The file a target holds is kept under a second name beside it (a hard
        link, the target staying in place; where the file system has none, the
        file is moved there) until every file is in place. When a rename
        fails partway (or the run is interrupted), the targets already
        replaced get their old files back, those that were new are removed
        with the folders created, and the error names its target; a target
        that cannot be put back keeps its old file under that second name
        (``.NAME.*.old``). Devices and pipes, written in place, are not undone.
        """
        replaced: list[tuple[str, str | None]] = []  # (target, its old file) as they were put
        try:
            for f in self.files:
                if f.in_place:
                    continue
                replaced.append((f.target, _keep_old(f.target)))
                os.replace(f.tmp, f.target)
        except BaseException as exc:
            for target, old in reversed(replaced):
                with contextlib.suppress(OSError):
                    _put_back(target, old)
            self.discard()
            self.claim(exc)
            raise
        for _, old in replaced:
            if old is not None:
                with contextlib.suppress(OSError):
                    os.unlink(old)

    def discard(self) -> None:
        """Remove what was written and the folders created; the targets stay as they were."""
        for f in self.files:
            f.discard()
        for folder in reversed(self.folders):
            with contextlib.suppress(OSError):
                os.rmdir(folder)


def _keep_old(target: str) -> str | None:
    """A name beside ``target`` that holds its file too (None when there is no such file).

    A hard link, so that ``target`` stays in place until it is replaced;
    where the file system has none, the file is moved there.
    """
    if not os.path.lexists(target):
        return None
    folder, name = os.path.split(os.path.abspath(target))
    for _ in range(100):
        old = os.path.join(folder, f".{name}.{os.urandom(4).hex()}.old")
        try:
            os.link(target, old, follow_symlinks=False)
            return old
        except FileExistsError:
            continue
        except (OSError, NotImplementedError):  # no hard links here: move it aside
            break
    fd, old = tempfile.mkstemp(prefix=f".{name}.", suffix=".old", dir=folder)
    os.close(fd)
    try:
        os.replace(target, old)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(old)
        raise
    return old


def _put_back(target: str, old: str | None) -> None:
    """``target`` as it was before :func:`_keep_old` gave ``old``: its old file, or none."""
    if old is None:
        os.unlink(target)
        return
    try:
        now, was = os.lstat(target), os.lstat(old)
    except FileNotFoundError:  # moved aside, and not replaced
        os.replace(old, target)
        return
    if (now.st_dev, now.st_ino) == (was.st_dev, was.st_ino):  # linked, and not replaced:
        os.unlink(old)  # a rename between two names of one file would do nothing
    else:
        os.replace(old, target)


@contextlib.contextmanager
def atomic_files() -> Iterator[AtomicFiles]:
    """Files that are all put in place when the block ends without error, or none of them.

    Yields
    ------
    AtomicFiles
        ``files.path(target)`` is where to write ``target``. On an exception
        every file written is removed, and every folder created, leaving the
        targets as they were.

    Examples
    --------
    >>> import pathlib, tempfile
    >>> root = pathlib.Path(tempfile.mkdtemp())
    >>> try:
    ...     with atomic_files() as files:
    ...         _ = pathlib.Path(files.path(root / "a.txt")).write_text("a")
    ...         _ = pathlib.Path(files.path(root / "sub" / "b.txt")).write_text("b")
    ...         raise ValueError("the third cannot be written")
    ... except ValueError:
    ...     pass
    >>> sorted(p.name for p in root.iterdir())
    []
    >>> with atomic_files() as files:
    ...     _ = pathlib.Path(files.path(root / "sub" / "b.txt")).write_text("b")
    >>> (root / "sub" / "b.txt").read_text()
    'b'
    """
    files = AtomicFiles()
    try:
        yield files
    except BaseException as exc:
        files.discard()
        files.claim(exc)
        raise
    files.commit()


@contextlib.contextmanager
def atomic_open(path: _Path, mode: str = "w", **kwargs: Any) -> Iterator[IO[Any]]:
    """``open(path, mode, **kwargs)`` on a temporary file that replaces ``path`` at the end.

    Parameters
    ----------
    path : str or path-like
        The file to write.
    mode : str
        ``"w"`` or ``"wb"``.
    **kwargs
        Passed to :func:`open` (``encoding``, ``newline``).

    Yields
    ------
    file object

    Examples
    --------
    >>> import pathlib, tempfile
    >>> target = pathlib.Path(tempfile.mkdtemp()) / "out.txt"
    >>> with atomic_open(target, encoding="utf-8") as fh:
    ...     _ = fh.write("done")
    >>> target.read_text()
    'done'
    """
    if mode not in ("w", "wb"):
        raise ValueError(f"atomic_open writes whole files: mode 'w' or 'wb', not {mode!r}.")
    with atomic_path(path) as tmp, open(tmp, mode, **kwargs) as fh:
        yield fh
