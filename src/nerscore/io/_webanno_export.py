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
per file. The annotators are the file names without ``.tsv``: those of
``annotation/`` in alphabetical order, then those of ``curation/``
(``CURATION_USER``, the adjudicated gold), whose documents are the
*curated* ones: they are read when chosen (``annotator='CURATION_USER'``)
and left out when the annotators are compared.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import NamedTuple

from nerscore.decode.inputs import quoted_ids
from nerscore.errors import AnnotatorChoiceError, FormatError, OptionError, quoted

__all__ = ["PARTS", "ExportFiles", "find_export"]

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
    """

    path: str
    files: dict[str, list[tuple[str, Path]]]
    curation: tuple[str, ...]
    documents: tuple[str, ...]
    where: dict[str, str]

    def annotators(self) -> tuple[str, ...]:
        """Every annotator, the curation's last."""
        return tuple(self.files)

    def check(self) -> None:
        """Raise FormatError for an export without a WebAnno TSV file."""
        if not self.files:
            raise FormatError(f"{self.path} is an INCEpTION project export without WebAnno TSV "
                              "files (no annotation/DOC/USER.tsv nor curation/DOC/USER.tsv); "
                              "export the project in the format 'WebAnno TSV v3'.",
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
        lacking = [doc for doc in self.documents if doc not in have]
        if lacking:
            out.append(f"{self.path}: {len(lacking)} document(s) of the export have no file of "
                       f"{quoted(annotator)} and are not read: {quoted_ids(lacking)}.")
        return tuple(out)


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
    >>> export = find_export(tmp)
    >>> export.annotators(), export.curation, export.documents
    (('ann', 'eve', 'CURATION_USER'), ('CURATION_USER',), ('a.txt', 'b.txt'))
    >>> find_export(tmp / "annotation").annotators()
    ('ann', 'eve')
    >>> _ = (tmp / "notes.tsv").write_text("")  # a .tsv file beside: a folder of documents
    >>> find_export(tmp) is None
    True
    """
    root = Path(folder)
    whole = any((root / part).is_dir() for part in PARTS)
    if not whole and root.name not in PARTS:
        return None
    found: dict[str, dict[str, dict[str, Path]]] = {part: {} for part in PARTS}
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
            return None
        found[part].setdefault(path.stem, {})[doc] = path
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
                       tuple(documents), where)
