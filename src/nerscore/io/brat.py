r"""BRAT standoff annotations: a folder of ``.txt`` texts with ``.ann`` annotation files.

Each ``.ann`` line is one annotation; only text-bound ones (``T``) are
entities::

    T1<TAB>PER 4 17<TAB>Viruca Atanes
    T2<TAB>LOC 20 26;31 37<TAB>Madrid Berlin

- Offsets are half-open Python ``str`` indices into the ``.txt`` file exactly
  as stored (a ``\r\n`` is two characters, a leading byte order mark is
  character 0 — as the brat tool counts them), written with the digits 0-9
  alone (``+4``, ``1_0`` or other scripts' digits are an error), as brat
  writes them: one space between start and end, ``;`` between fragments
  (any other white space, or spaces more or elsewhere, is an error).
- Every offset is checked against the text, and the quoted text against the
  text slice (fragments joined by one space; a newline inside the slice
  matches a space): a mismatch is an error naming file, line and both strings.
- A discontinuous entity (``s e;s e``) keeps its fragments
  (docs/fragments.md); fragments separated only by white space in the text
  are one fragment (brat splits a span at a line break), and such joins are
  counted. Fragments that share a character are an error.
- Attributes (``A``, ``M``), relations (``R``), events (``E``),
  normalisations (``N``), notes (``#``) and equivalences (``*``) are counted
  and ignored; any other line is an error. Blank lines are skipped; CRLF and a
  byte order mark in ``.ann`` files are handled.
- Document ids are the ``.txt`` paths relative to the folder, without the
  suffix, with ``/`` separators (``esp/esp.train-doc-100``); sub-folders are
  read too, in sorted order. A ``.txt`` without ``.ann`` is a document without
  entities (listed in the stats); an ``.ann`` without ``.txt`` is an error.
"""

from __future__ import annotations

import os
import re
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING, Any, NamedTuple

from nerscore.errors import FormatError, quoted
from nerscore.io._brat_ann import parse_ann
from nerscore.io._textfile import read_text
from nerscore.io.atomic import atomic_files
from nerscore.io.formats import Counted, Format, ReadResult, register_format
from nerscore.values.documents import Document

if TYPE_CHECKING:
    from nerscore.io.convert.reading import WriteOptions

__all__ = ["FORMAT", "BratData", "BratStats", "annotation_sets", "read_brat", "write_brat"]

#: What a label cannot hold: an ``.ann`` line's type and offsets are split at white space.
_LABEL_FORBIDS = re.compile(r"\s")


@dataclass(frozen=True)
class BratStats:
    """What :func:`read_brat` read, merged and ignored.

    Attributes
    ----------
    documents : int
        Documents read.
    entities : int
        Text-bound (``T``) annotations read.
    labels : mapping of str to int
        Entities per label, sorted by label.
    discontinuous : int
        Entities of two or more fragments (after joining, see ``joined``).
    joined : int
        Entities with fragments separated only by white space in the text,
        joined into one fragment.
    ignored : mapping of str to int
        Ignored lines per kind (``attribute``, ``relation``, ``event``,
        ``normalization``, ``note``, ``equivalence``).
    without_ann : tuple of str
        Ids of documents whose ``.ann`` file is missing (read as no entities).
    """

    documents: int = 0
    entities: int = 0
    labels: Mapping[str, int] = field(default_factory=dict)
    discontinuous: int = 0
    joined: int = 0
    ignored: Mapping[str, int] = field(default_factory=dict)
    without_ann: tuple[str, ...] = ()

    def notes(self) -> tuple[str, ...]:
        """One line per thing worth telling the user (joined, ignored, missing).

        Examples
        --------
        >>> BratStats(documents=2, entities=5, joined=1, ignored={"relation": 3}).notes()
        ('1 entity had fragments separated only by white space, joined into one fragment (brat splits a span at a line break).', 'Ignored 3 relation line(s).')
        """
        out = []
        if self.joined:
            out.append(
                f"{self.joined} "
                + ("entity had" if self.joined == 1 else "entities had")
                + " fragments separated only by white space, joined into one fragment (brat "
                "splits a span at a line break)."
            )
        out += [f"Ignored {n} {kind} line(s)." for kind, n in sorted(self.ignored.items())]
        if self.without_ann:
            shown = ", ".join(repr(i) for i in self.without_ann[:5])
            more = f", ... ({len(self.without_ann) - 5} more)" if len(self.without_ann) > 5 else ""
            out.append(
                f"{len(self.without_ann)} document(s) have no .ann file and were read as having "
                f"no entities: {shown}{more}."
            )
        return tuple(out)


class BratData(NamedTuple):
    """The documents of a BRAT folder and what was done reading them."""

    documents: list[Document]
    stats: BratStats


def _doc_id(path: Path, root: Path) -> str:
    return PurePosixPath(*path.relative_to(root).with_suffix("").parts).as_posix()


def read_brat(path: str | os.PathLike[str], *, encoding: str = "utf-8") -> BratData:
    r"""Read BRAT standoff documents (``.txt`` + ``.ann``) with their entities.

    Parameters
    ----------
    path : str or path-like
        A folder (read recursively), or one ``.txt``/``.ann`` file of a pair.
    encoding : str
        Text encoding of the files.

    Returns
    -------
    BratData
        ``(documents, stats)``: documents sorted by id, each with its text
        and its entities in file order (discontinuous ones with their
        fragments); :class:`BratStats` says what was joined and ignored
        (``stats.notes()`` gives it as sentences).

    Raises
    ------
    FormatError
        For a folder without any ``.txt``/``.ann`` file, a malformed line, a quoted text
        that differs from the text, duplicate ids, an ``.ann`` without ``.txt``,
        or undecodable bytes.
    InvalidSpanError
        For offsets out of the text or reversed, or fragments sharing a
        character, naming file and line.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> root = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (root / "d1.txt").write_text("Por Viruca Atanes Madrid")
    >>> _ = (root / "d1.ann").write_text("T1\tPER 4 17\tViruca Atanes\nT2\tLOC 18 24\tMadrid\n")
    >>> docs, stats = read_brat(root)
    >>> docs[0].id, [(e.start, e.end, e.label) for e in docs[0].spans]
    ('d1', [(4, 17, 'PER'), (18, 24, 'LOC')])
    >>> dict(stats.labels)
    {'LOC': 1, 'PER': 1}

    A discontinuous entity keeps its fragments:

    >>> _ = (root / "d2.txt").write_text("lung cancer in the upper lobe")
    >>> _ = (root / "d2.ann").write_text("T1\tDisorder 0 4;19 29\tlung upper lobe\n")
    >>> read_brat(root).documents[1].spans[0].fragments
    (Span(start=0, end=4), Span(start=19, end=29))
    """
    root = Path(path)
    if root.is_file():
        if root.suffix not in (".txt", ".ann"):
            raise ValueError(
                f"Expected a folder or a .txt/.ann file; got {os.fspath(path)!r}."
            )
        txts = [root.with_suffix(".txt")]
        base = root.parent
        if not txts[0].is_file():
            raise FormatError(
                f"{os.fspath(root)}: no text file {txts[0].name!r} beside it; BRAT offsets need "
                "the text.", source=os.fspath(root),
            )
    elif root.is_dir():
        base = root
        txts = sorted(root.rglob("*.txt"), key=lambda p: _doc_id(p, root))
        orphans = sorted(
            p for p in root.rglob("*.ann") if not p.with_suffix(".txt").is_file()
        )
        if not txts and not orphans:
            raise FormatError(
                f"{os.fspath(root)}: the folder has no .ann/.txt files; BRAT documents are "
                "NAME.txt files (with their NAME.ann beside them) in the folder or its "
                "subfolders.", source=os.fspath(root),
            )
        if orphans:
            raise FormatError(
                f"{os.fspath(orphans[0])}: no text file {orphans[0].with_suffix('.txt').name!r} "
                f"beside it ({len(orphans)} .ann file(s) without text); BRAT offsets need the "
                "text.", source=os.fspath(orphans[0]),
            )
    else:
        raise FileNotFoundError(f"No such file or folder: {os.fspath(path)!r}.")
    counts: Counter[str] = Counter()
    labels: Counter[str] = Counter()
    docs: list[Document] = []
    without: list[str] = []
    for txt in txts:
        doc_id = _doc_id(txt, base)
        text = read_text(txt, encoding=encoding, strip_bom=False)
        ann = txt.with_suffix(".ann")
        if ann.is_file():
            ents = parse_ann(read_text(ann, encoding=encoding), text, source=os.fspath(ann),
                              doc_id=doc_id, counts=counts)
        else:
            ents = []
            without.append(doc_id)
        labels.update(e.label for e in ents)
        docs.append(Document(doc_id, tuple(ents), text, source=os.fspath(ann)))
    discont = counts.pop("discontinuous", 0)
    joined = counts.pop("joined", 0)
    stats = BratStats(
        documents=len(docs),
        entities=sum(labels.values()),
        labels=dict(sorted(labels.items())),
        discontinuous=discont,
        joined=joined,
        ignored=dict(sorted(counts.items())),
        without_ann=tuple(without),
    )
    return BratData(docs, stats)


def _target(folder: Path, doc: Document) -> Path:
    doc_id = doc.id
    rel = PurePosixPath(doc_id)
    if (not doc_id or not rel.parts or rel.is_absolute() or ".." in rel.parts or "\\" in doc_id
            or doc_id.endswith("/")):
        raise ValueError(_about(
            doc, f"document id {quoted(doc_id)} cannot be used as a BRAT file name; ids must be "
            "relative paths without '..' (e.g. 'esp/doc-1')."))
    return folder.joinpath(*rel.parts[:-1], rel.parts[-1] + ".txt")


def write_brat(
    documents: Iterable[Document], path: str | os.PathLike[str], *, encoding: str = "utf-8",
    overwrite: bool = False, encodings: Callable[[Document], tuple[str, str, str]] | None = None,
) -> None:
    r"""Write documents as BRAT standoff: ``<id>.txt`` and ``<id>.ann`` under a folder.

    Entities are written as ``T1``, ``T2``, ... in document order (a
    discontinuous one as ``START END;START END``); sub-folders named by the
    ids are created. Reading the folder back with :func:`read_brat` gives
    equal documents (fragments separated only by white space come back as
    one). BRAT has no ignore regions: documents with some are refused
    (:func:`nerscore.convert_file` counts them as not kept). The files are
    written together: on an error none is (:func:`~nerscore.io.atomic.atomic_files`).

    Parameters
    ----------
    documents : iterable of Document
        Documents with text (BRAT offsets need it).
    path : str or path-like
        The folder (created if needed).
    encoding : str
        Text encoding of the files.
    overwrite : bool
        Replace existing files (otherwise an existing file is an error).
    encodings : callable, optional
        For each document, the encoding of its ``.txt`` file, that of its
        ``.ann`` file and what the ``.ann`` file begins with (a byte-order
        mark, or ``""``), instead of ``encoding`` (:func:`nerscore.convert_file`
        writes each file of a BRAT folder it read in the byte order of that
        file, with its mark: the mark of a ``.txt`` file is character 0 of
        the text).

    Raises
    ------
    ValueError
        For a document without text or with ignore regions, an id that is not
        a relative path or is that of an earlier document, or a label BRAT
        cannot store (empty or with whitespace); the message names the file
        and line the document was read from, where known.
    FileExistsError
        For an existing file when ``overwrite`` is false.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> root = pathlib.Path(tempfile.mkdtemp())
    >>> write_brat([Document("d1", [(0, 4, "PER")], "Anna flew")], root)
    >>> (root / "d1.ann").read_text()
    'T1\tPER 0 4\tAnna\n'
    >>> read_brat(root).documents == [Document("d1", [(0, 4, "PER")], "Anna flew")]
    True
    """
    folder = Path(path)
    planned: set[Path] = set()
    with atomic_files() as files:
        for doc in documents:
            if doc.text is None:
                raise ValueError(f"{doc.named()} has no text; BRAT files need it.")
            if doc.ignore:
                raise ValueError(_about(doc, f"document {quoted(doc.id)} has ignore regions, "
                                        "which BRAT files cannot hold; drop them first "
                                        "(dataclasses.replace(doc, ignore=()))."))
            txt = _target(folder, doc)
            ann = txt.with_suffix(".ann")
            lines = []
            for k, ent in enumerate(doc.spans, 1):
                if not ent.label or _LABEL_FORBIDS.search(ent.label):
                    raise ValueError(_about(
                        doc, f"label {quoted(ent.label)} of document {quoted(doc.id)} cannot be "
                        "written to BRAT; labels must be non-empty and without whitespace. "
                        "Rename it (labels_map), or convert to another format (JSON Lines, "
                        "Parquet)."))
                text = " ".join(doc.text[f.start : f.end] for f in ent.parts)
                text = text.replace("\r\n", " ").replace("\n", " ")
                offsets = ";".join(f"{f.start} {f.end}" for f in ent.parts)
                lines.append(f"T{k}\t{ent.label} {offsets}\t{text}\n")
            if txt in planned:
                raise ValueError(_about(doc, f"document id {quoted(doc.id)} is that of an "
                                        "earlier document, and BRAT writes one .txt and .ann "
                                        "pair per id: give the documents different ids."))
            planned.update((txt, ann))
            if not overwrite:
                for p in (txt, ann):
                    if p.exists():
                        raise FileExistsError(
                            f"{os.fspath(p)} exists; pass overwrite=True to replace it."
                        )
            txt_encoding, ann_encoding, mark = (
                (encoding, encoding, "") if encodings is None else encodings(doc))
            with open(files.path(txt), "w", encoding=txt_encoding, newline="") as fh:
                fh.write(doc.text)
            with open(files.path(ann), "w", encoding=ann_encoding, newline="\n") as fh:
                fh.write(mark)
                fh.writelines(lines)


def _about(doc: Document, text: str) -> str:
    """``text``, about ``doc``, after where it was read (when known).

    Examples
    --------
    >>> _about(Document("d1", source="a.jsonl", line=2), "label 'A B' of document 'd1' ...")
    "a.jsonl, line 2: label 'A B' of document 'd1' ..."
    >>> _about(Document("d1"), "label 'A B' of document 'd1' ...")
    "Label 'A B' of document 'd1' ..."
    """
    where = doc.where()
    return f"{where}: {text}" if where else text[:1].upper() + text[1:]


def annotation_sets(folder: str | os.PathLike[str]) -> list[str]:
    """The subfolders of ``folder`` that hold documents of the same names: several annotation sets.

    A BRAT folder of one annotation set per annotator (``ana/doc1.ann``,
    ``ben/doc1.ann``; or ``annotation/ana/doc1.ann``: the sets lie in the
    first folder, down from ``folder`` through folders whose one entry is a
    folder, that holds documents or several folders) reads as one corpus
    whose document ids name the set (``ana/doc1``, ``ben/doc1``).

    Returns
    -------
    list of str
        Each subfolder that holds documents (``.txt`` or ``.ann`` files, at
        any depth), relative to ``folder`` with ``/`` separators, sorted;
        empty unless there are two or more and a document's id within its
        set is found in two or more of them.

    Examples
    --------
    >>> import pathlib, tempfile
    >>> root = pathlib.Path(tempfile.mkdtemp())
    >>> for name in ("annotation/ana/d1.ann", "annotation/ben/d1.ann", "annotation/ben/d2.ann"):
    ...     (root / name).parent.mkdir(parents=True, exist_ok=True)
    ...     _ = (root / name).write_text("")
    >>> annotation_sets(root)
    ['annotation/ana', 'annotation/ben']
    >>> annotation_sets(root / "annotation/ben")  # one set: no documents of the same name
    []
    """
    root = Path(folder)
    try:
        base = root
        while True:
            entries = sorted(base.iterdir()) if base.is_dir() else []
            folders = [p for p in entries if p.is_dir()]
            if len(folders) != 1 or any(p.suffix in (".txt", ".ann") for p in entries):
                break
            base = folders[0]
        ids = {sub: {_doc_id(p, sub) for pattern in ("*.txt", "*.ann") for p in sub.rglob(pattern)}
               for sub in folders}
    except OSError:  # a folder that cannot be listed: the reader says so
        return []
    sets = [sub for sub in folders if ids[sub]]
    counts = Counter(i for sub in sets for i in ids[sub])
    if len(sets) < 2 or max(counts.values()) < 2:
        return []
    return [PurePosixPath(*sub.relative_to(root).parts).as_posix() for sub in sets]


# ----------------------------------------------------------------------------- the format


def _read(path: str, options: Mapping[str, Any]) -> ReadResult:
    data = read_brat(path, **options)
    return ReadResult(data.documents, tuple(f"{path}: {n}" for n in data.stats.notes()),
                      source=data)


def _write_spans(chunks: Iterable[list[Document]], target: str, options: WriteOptions) -> int:
    """Write the documents; each read from a BRAT file pair is written as that pair was.

    Its ``.txt`` and ``.ann`` files in the byte order of those read, and the
    ``.ann`` file with the byte-order mark its reader skipped
    (:meth:`~nerscore.io.convert.reading.WriteOptions.written_like`); the
    mark of a ``.txt`` file is character 0 of the text, written with it.
    """
    documents = Counted(chunks)

    def encodings(doc: Document) -> tuple[str, str, str]:
        if doc.source is None or not doc.source.endswith(".ann"):  # not read from BRAT files
            return options.encoding, options.encoding, ""
        txt = options.written_like(os.fspath(Path(doc.source).with_suffix(".txt")))[0]
        ann, mark = (options.written_like(doc.source) if os.path.isfile(doc.source)
                     else (txt, ""))
        options.bom_kept = options.bom_kept or bool(mark)
        return txt, ann, mark

    write_brat(documents.items(), target, encoding=options.encoding, encodings=encodings)
    return documents.count


def _mark_files(path: str) -> list[str]:
    """The ``.ann`` files of ``path`` (a folder, or a file of a pair): their marks are skipped."""
    root = Path(path)
    txts = [root] if root.is_file() else sorted(root.rglob("*.txt")) if root.is_dir() else []
    return [os.fspath(ann) for ann in (t.with_suffix(".ann") for t in txts) if ann.is_file()]


#: The ``brat`` format: a folder (or one ``.ann`` file of a pair), read whole.
FORMAT = register_format(Format(
    "brat", "BRAT standoff: a folder of .txt texts with .ann annotations", kind="spans",
    read=_read, suffixes=(".ann",), folder=True, options=("encoding",),
    write_spans=_write_spans, keeps=("fragments",), label_forbids=_LABEL_FORBIDS.pattern,
    mark_files=_mark_files,
))
