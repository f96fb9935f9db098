"""INCEpTION's and WebAnno's project export: one WebAnno TSV 3 file per annotator and document.

A project exported in the WebAnno TSV 3 format keeps each annotator's
annotations of each document in ``annotation/DOC/USER.tsv`` and the curated
ones in ``curation/DOC/CURATION_USER.tsv`` (DOC is the source document's
name, often with its extension: ``news1.txt/``), beside ``source/`` (the
documents as imported), ``exportedproject*.json`` and folders of other files.

:func:`find_export` recognises such a folder. A folder is a project export when

- it holds a folder ``annotation/`` or ``curation/`` (or both), and every
  ``.tsv`` file under it lies one folder down in one of them
  (``annotation/DOC/USER.tsv``) or anywhere in ``source/`` (the source
  documents, never read); or
- it is itself named ``annotation`` or ``curation`` and every ``.tsv`` file
  under it lies one folder down (``DOC/USER.tsv``).

Any other folder (``train/doc1.tsv``, ``dev/doc2.tsv``; or one holding a
``.tsv`` file elsewhere beside ``annotation/``) is a folder of documents, one
per file, and so is one whose document folders hold no ``.tsv`` file but
files of formats that nerscore reads (``annotation/SET/doc.ann`` and
``doc.txt`` of BRAT), unless INCEpTION's marks lie beside ``annotation/``
(``exportedproject*.json``, ``source/``); :func:`layout_problem` says why a folder laid out as an export is
not read as one (the ``.tsv`` files that lie elsewhere, or the other files
its document folders hold in place of WebAnno TSV). The annotators are the
file names without ``.tsv``: those of ``annotation/`` in alphabetical order,
then those of ``curation/`` (``CURATION_USER``, the adjudicated gold), whose
documents are the *curated* ones: they are read when chosen
(``annotator='CURATION_USER'``) and left out when the annotators are
compared. A document folder of ``annotation/`` without a ``.tsv`` file
(a document no annotator has a file of) is counted in :attr:`ExportFiles.empty`.
"""

from __future__ import annotations

import os
from collections import Counter
from pathlib import Path, PurePosixPath
from typing import NamedTuple

from nerscore.decode.span_sides import quoted_ids
from nerscore.errors import AnnotatorChoiceError, FormatError, OptionError, quoted

__all__ = ["PARTS", "ExportFiles", "find_export", "held_files", "layout_problem"]

#: The folders of an export that hold annotations: the annotators', the curated documents.
PARTS = ("annotation", "curation")


class ExportFiles(NamedTuple):
    """The WebAnno TSV files of a project export, by annotator.

    Attributes
    ----------
    path : str
        The folder given.
    files : dict of str to list of (str, Path)
        Annotator -> its (document, file) pairs, sorted by document; the
        annotators of ``annotation/`` in alphabetical order, then those of
        ``curation/``.
    curation : tuple of str
        The annotators whose files lie in ``curation/`` (``CURATION_USER``).
    documents : tuple of str
        Every document (DOC folder) that holds a file, sorted.
    where : dict of str to str
        Annotator -> where its files lie (``annotation/DOC/anna.tsv``).
    empty : tuple of str
        The document folders of ``annotation/`` that hold no ``.tsv`` file,
        sorted: documents no annotator has a file of.
    others : tuple of str
        The files of the document folders that are not ``.tsv`` files
        (``annotation/DOC/USER.zip`` of an export in another format), as
        paths relative to the folder, sorted.
    """

    path: str
    files: dict[str, list[tuple[str, Path]]]
    curation: tuple[str, ...]
    documents: tuple[str, ...]
    where: dict[str, str]
    empty: tuple[str, ...] = ()
    others: tuple[str, ...] = ()

    def annotators(self) -> tuple[str, ...]:
        """Every annotator, the curation's last."""
        return tuple(self.files)

    def check(self) -> None:
        """Raise FormatError for an export without a WebAnno TSV file, naming what it holds.

        Examples
        --------
        >>> ExportFiles("p", {}, (), (), {}, ("a.txt",), ("annotation/a.txt/ann.xmi",)).check()
        Traceback (most recent call last):
        ...
        nerscore.errors.FormatError: p is an INCEpTION project export without WebAnno TSV files (no annotation/DOC/USER.tsv nor curation/DOC/USER.tsv; its document folders hold 1 .xmi file, which nerscore does not read: 'annotation/a.txt/ann.xmi'); export the project in the format 'WebAnno TSV v3'.
        """
        if not self.files:
            how = " as an export's annotations" if _read_by_nerscore(self.others) else ""
            held = (f"; its document folders hold {held_files(self.others)}, which nerscore "
                    f"does not read{how}: {quoted_ids(self.others)}" if self.others else "")
            raise FormatError(f"{self.path} is an INCEpTION project export without WebAnno TSV "
                              f"files (no annotation/DOC/USER.tsv nor curation/DOC/USER.tsv"
                              f"{held}); export the project in the format 'WebAnno TSV v3'.",
                              source=self.path)

    def choose(self, annotator: str | None) -> str:
        """The annotator to read: ``annotator``, else the only one.

        Raises
        ------
        AnnotatorChoiceError
            Without ``annotator``, for an export of several annotators.
        OptionError
            For an ``annotator`` the export does not have.
        FormatError
            For an export without a WebAnno TSV file.
        """
        names = self.annotators()
        listed = ", ".join(map(quoted, names))
        self.check()
        if annotator is None:
            if len(names) > 1:
                raise AnnotatorChoiceError(
                    f"{self.path} is an INCEpTION project export holding annotations of "
                    f"{len(names)} annotators ({listed}); choose one with "
                    "annotator=NAME.", source=self.path, annotators=names)
            return names[0]
        if annotator not in self.files:
            raise OptionError(f"{self.path}: no annotator {quoted(annotator)} in the project "
                              f"export; its annotators are {listed}.", option="annotator")
        return annotator

    def notes(self, annotator: str, *, chosen: bool) -> tuple[str, ...]:
        """Whose files were read, when no one was ``chosen``; the documents it lacks.

        Examples
        --------
        >>> export = ExportFiles("p", {"ann": [("a.txt", Path("p/annotation/a.txt/ann.tsv"))]},
        ...                      (), ("a.txt", "b.txt"), {"ann": "annotation/DOC/ann.tsv"})
        >>> for note in export.notes("ann", chosen=False):
        ...     print(note)
        p: an INCEpTION project export of one annotator: read the annotations of 'ann' (annotation/DOC/ann.tsv), each document named by its folder DOC.
        p: 1 document(s) of the export have no file of 'ann' and are not read: 'b.txt'.
        """
        out = []
        if not chosen:
            out.append(f"{self.path}: an INCEpTION project export of one annotator: read the "
                       f"annotations of {quoted(annotator)} ({self.where[annotator]}), each "
                       "document named by its folder DOC.")
        have = {doc for doc, _ in self.files[annotator]}
        lacking = [doc for doc in sorted({*self.documents, *self.empty}) if doc not in have]
        if lacking:
            out.append(f"{self.path}: {len(lacking)} document(s) of the export have no file of "
                       f"{quoted(annotator)} and are not read: {quoted_ids(lacking)}.")
        return tuple(out)


def held_files(paths: tuple[str, ...] | list[str]) -> str:
    """``paths`` counted by suffix: ``2 .zip files and 1 file without a suffix``.

    Examples
    --------
    >>> held_files(["annotation/a.txt/ann.zip", "annotation/a.txt/ben.zip", "annotation/b/x"])
    '2 .zip files and 1 file without a suffix'
    >>> held_files(["a/x.ann", "a/x.txt", "a/y.ann", "a/y.xmi"])
    '2 .ann files, 1 .txt file and 1 .xmi file'
    """
    counts = Counter(PurePosixPath(p).suffix.lower() for p in paths)
    kinds = [f"{n} {suffix + ' ' if suffix else ''}file{'' if n == 1 else 's'}"
             f"{'' if suffix else ' without a suffix'}" for suffix, n in counts.most_common()]
    return "".join(kinds) if len(kinds) < 2 else f"{', '.join(kinds[:-1])} and {kinds[-1]}"


def _read_by_nerscore(paths: tuple[str, ...] | list[str]) -> bool:
    """Whether ``paths`` are files of formats nerscore reads: each a name a format claims.

    Examples
    --------
    >>> _read_by_nerscore(["set/doc.ann", "set/doc.txt"]), _read_by_nerscore(["doc/anna.xmi"])
    (True, False)
    >>> _read_by_nerscore(["set/doc.ann", "doc/anna.xmi"]), _read_by_nerscore([])
    (False, False)
    """
    from nerscore.io.formats import format_names, get_format

    formats = [get_format(name) for name in format_names()] if paths else []
    return bool(paths) and all(any(f.claim(p) for f in formats) for p in paths)


def _marked(root: Path, whole: bool) -> bool:
    """Whether INCEpTION's marks of an export (``exportedproject*.json``, ``source/``) lie there.

    Beside ``annotation/`` and ``curation/``: in ``root``, or above it when it
    is one of them.
    """
    base = root if whole else root.parent
    return (base / "source").is_dir() or any(p.is_file() for p in
                                              base.glob("exportedproject*.json"))


class _Scan(NamedTuple):
    """What an export-shaped folder holds: the files in place, and the rest."""

    whole: bool  # the export's folder, not its annotation/ or curation/ alone
    found: dict[str, dict[str, dict[str, Path]]]  # part -> annotator -> document -> file
    stray: list[str]  # .tsv files elsewhere, relative to the folder
    empty: list[str]  # document folders of annotation/ without a .tsv file
    others: list[str]  # files of the document folders that are not .tsv files


def _scan(root: Path) -> _Scan | None:
    """The files of ``root`` when it is shaped as an export (or its part); None otherwise."""
    whole = any((root / part).is_dir() for part in PARTS)
    if not whole and root.name not in PARTS:
        return None
    found: dict[str, dict[str, dict[str, Path]]] = {part: {} for part in PARTS}
    stray = []
    for path in sorted(root.rglob("*.tsv")):
        if not path.is_file():  # a DOC folder named after a .tsv document
            continue
        rel = path.relative_to(root).parts
        if whole and rel[0] == "source":
            continue
        if whole and len(rel) == 3 and rel[0] in PARTS:
            part, doc = rel[0], rel[1]
        elif not whole and len(rel) == 2:
            part, doc = root.name, rel[0]
        else:
            stray.append(PurePosixPath(*rel).as_posix())
            continue
        found[part].setdefault(path.stem, {})[doc] = path
    empty: list[str] = []
    others: list[str] = []
    for part in PARTS:
        folder = root / part if whole else root if root.name == part else None
        if folder is None or not folder.is_dir():
            continue
        for doc_folder in sorted(p for p in folder.iterdir() if p.is_dir()):
            files = sorted(p for p in doc_folder.iterdir() if p.is_file())
            others += [PurePosixPath(*p.relative_to(root).parts).as_posix() for p in files
                       if p.suffix.lower() != ".tsv"]
            if part == "annotation" and not any(p.suffix.lower() == ".tsv" for p in files):
                empty.append(doc_folder.name)
    return _Scan(whole, found, stray, empty, others)


def find_export(folder: str | os.PathLike[str]) -> ExportFiles | None:
    """The annotators' files of the project export ``folder``; None for another folder.

    Examples
    --------
    >>> import pathlib, tempfile
    >>> tmp = pathlib.Path(tempfile.mkdtemp())
    >>> for name in ("annotation/b.txt/eve.tsv", "annotation/a.txt/ann.tsv",
    ...              "curation/a.txt/CURATION_USER.tsv", "source/a.tsv"):
    ...     (tmp / name).parent.mkdir(parents=True, exist_ok=True)
    ...     _ = (tmp / name).write_text("")
    >>> (tmp / "annotation/c.txt").mkdir()  # a document no annotator has a file of
    >>> export = find_export(tmp)
    >>> export.annotators(), export.curation, export.documents, export.empty
    (('ann', 'eve', 'CURATION_USER'), ('CURATION_USER',), ('a.txt', 'b.txt'), ('c.txt',))
    >>> find_export(tmp / "annotation").annotators()
    ('ann', 'eve')
    >>> _ = (tmp / "notes.tsv").write_text("")  # a .tsv file beside: a folder of documents
    >>> find_export(tmp) is None
    True

    Document folders of files that nerscore reads in another format, and
    no ``.tsv`` file, are a folder of documents too, unless INCEpTION's marks
    lie beside them:

    >>> brat = pathlib.Path(tempfile.mkdtemp())
    >>> for name in ("annotation/set1/doc.ann", "annotation/set1/doc.txt"):
    ...     (brat / name).parent.mkdir(parents=True, exist_ok=True)
    ...     _ = (brat / name).write_text("")
    >>> find_export(brat) is None, find_export(brat / "annotation") is None
    (True, True)
    >>> _ = (brat / "exportedproject1.json").write_text("{}")
    >>> find_export(brat).files, find_export(brat / "annotation").files
    ({}, {})
    """
    root = Path(folder)
    scan = _scan(root)
    if scan is None or scan.stray:
        return None
    found, whole = scan.found, scan.whole
    if (not any(found.values()) and _read_by_nerscore(scan.others)
            and not _marked(root, whole)):
        return None  # a folder of documents in another format (BRAT: SET/doc.ann, doc.txt)
    twice = sorted(set(found["annotation"]) & set(found["curation"]))
    if twice:
        raise FormatError(f"{os.fspath(folder)}: {quoted(twice[0])} has files in both "
                          "annotation/ and curation/, so the annotators cannot be told apart; "
                          "keep one of the two.", source=os.fspath(folder))
    files: dict[str, list[tuple[str, Path]]] = {}
    where: dict[str, str] = {}
    for part in PARTS:
        for name in sorted(found[part]):
            files[name] = sorted(found[part][name].items())
            where[name] = f"{part + '/' if whole else ''}DOC/{name}.tsv"
    documents = sorted({doc for pairs in files.values() for doc, _ in pairs})
    return ExportFiles(os.fspath(folder), files, tuple(sorted(found["curation"])),
                       tuple(documents), where, tuple(scan.empty), tuple(scan.others))


def layout_problem(folder: str | os.PathLike[str]) -> str | None:
    """Why ``folder``, laid out as a project export, is not read as one; None when it is, or is not one.

    A folder with an ``annotation/`` or ``curation/`` folder (or named so)
    is not an export when ``.tsv`` files lie elsewhere than
    ``annotation/DOC/USER.tsv``, ``curation/DOC/USER.tsv`` and ``source/``
    (it is read as a folder of documents, one per ``.tsv`` file); nor is it one of
    WebAnno TSV when its document folders hold other files and no ``.tsv``
    file (an export in another format, such as XMI). A folder whose
    document folders hold files nerscore reads in another format (BRAT's
    ``.ann`` and ``.txt``) and no ``.tsv`` file is no export, and has no
    problem, unless INCEpTION's marks lie beside them
    (``exportedproject*.json``, ``source/``).

    Examples
    --------
    >>> import pathlib, tempfile
    >>> tmp = pathlib.Path(tempfile.mkdtemp())
    >>> for name in ("annotation/a.txt/ann.tsv", "annotation/a.txt/sub/x.tsv"):
    ...     (tmp / name).parent.mkdir(parents=True, exist_ok=True)
    ...     _ = (tmp / name).write_text("")
    >>> print(layout_problem(tmp).replace(str(tmp), "export"))
    export is laid out as an INCEpTION project export, but 1 .tsv file lies outside annotation/DOC/USER.tsv, curation/DOC/USER.tsv and source/: 'annotation/a.txt/sub/x.tsv', so it is not read as an export (whose every .tsv file is one annotator's file of one document). Move that file out of the folder (or remove it) to read the export's annotators.
    >>> (tmp / "annotation/a.txt/sub/x.tsv").unlink()
    >>> layout_problem(tmp) is None
    True
    """
    root = Path(folder)
    scan = _scan(root) if root.is_dir() else None
    if scan is None:
        return None
    path = os.fspath(folder)
    if scan.stray:
        n = len(scan.stray)
        where = ("annotation/DOC/USER.tsv, curation/DOC/USER.tsv and source/" if scan.whole
                 else f"{root.name}/DOC/USER.tsv")
        files = "that file" if n == 1 else "those files"
        return (f"{path} is laid out as an INCEpTION project export, but {n} .tsv "
                f"file{' lies' if n == 1 else 's lie'} outside {where}: "
                f"{quoted_ids(scan.stray)}, so it is not read as an export (whose every .tsv "
                f"file is one annotator's file of one document). Move {files} out of the folder "
                f"(or remove {'it' if n == 1 else 'them'}) to read the export's annotators.")
    export = find_export(root)
    if export is not None and not export.files and export.others:
        try:
            export.check()
        except FormatError as exc:
            return str(exc)
    return None
