r"""WebAnno TSV 3 files, as INCEpTION and WebAnno export them: spans of a named layer.

A file is one document: a header naming the layers and their features, then
sentences of one token per line::

    #FORMAT=WebAnno TSV 3.3
    #T_SP=de.tudarmstadt.ukp.dkpro.core.api.ner.type.NamedEntity|identifier|value


    #Text=Anna Smith flew to Berlin.
    1-1	0-4	Anna	*[1]	PER[1]
    1-2	5-10	Smith	*[1]	PER[1]
    1-3	11-15	flew	_	_

- Each feature of each layer is one column after the token, in header
  order. The layer is chosen by name (``layer=``: the full name or its last
  part, default ``NamedEntity``) and the label is one of its features
  (``feature=``, default ``value``).
- Each token has an id of its own (``SENTENCE-TOKEN``); a repeated one is an
  error.
- A span over several tokens carries an id (``PER[1]``) on each; stacked
  annotations on one token are separated by ``|`` (``PER[1]|ORG[2]``); ``_``
  is no annotation; ``*`` is an annotation without a value for the feature,
  counted and not scored. ``\`` escapes the characters the format uses.
- Offsets (``0-4``) count UTF-16 code units (INCEpTION is written in Java):
  they are converted to Python indices, counted. The document's text is the
  sentences' ``#Text`` placed at their first token; what lies between
  sentences is not in the file and is read as spaces. Every token is checked
  against that text.
- A folder is read as one document per ``.tsv`` file (id: the path relative to
  the folder, without ``.tsv``); ``annotator=USER`` reads only the files
  named ``USER.tsv``, each document named by its folder.
- INCEpTION's (and WebAnno's) project export keeps one file per annotator and
  document, ``annotation/DOC/USER.tsv``, and the curated documents in
  ``curation/DOC/CURATION_USER.tsv``: a folder laid out so (the rule:
  :mod:`nerscore.io._webanno_export`) is read as one annotator's documents,
  each named by its folder DOC: ``annotator=USER``'s (``CURATION_USER`` for
  the curated ones), or the only annotator's, noted; an export of several
  annotators read without ``annotator`` is an error naming them.
  :func:`read_webanno_annotators` reads every annotator's documents, which
  ``nerscore agree`` and ``adjudicate`` compare.
"""

from __future__ import annotations

import os
import re
from collections import Counter
from collections.abc import Mapping
from pathlib import Path, PurePosixPath
from typing import Any, NamedTuple

from nerscore.decode.span_sides import quoted_ids
from nerscore.errors import FormatError, OptionError, quoted
from nerscore.io._textfile import read_text
from nerscore.io._tool_spans import (
    ToolSpan,
    entities,
    utf16_note,
    utf16_positions,
    utf16_problem,
)
from nerscore.io._webanno_export import find_export, held_files, layout_problem
from nerscore.io.formats import AnnotatorSets, Format, ReadResult, register_format
from nerscore.values.documents import Document
from nerscore.values.wording import counted

__all__ = ["FORMAT", "NAMED_ENTITY", "WebAnnoAnnotators", "WebAnnoData", "read_webanno",
           "read_webanno_annotators"]

#: The named-entity layer of DKPro Core, INCEpTION's and WebAnno's default NER layer.
NAMED_ENTITY = "de.tudarmstadt.ukp.dkpro.core.api.ner.type.NamedEntity"

_ROW = re.compile(r"(\d+)-(\d+)(?:\.\d+)?\Z")
_OFFSETS = re.compile(r"(\d+)-(\d+)\Z")
_ITEM = re.compile(r"(.*?)(?<!\\)\[(\d+)\]\Z", re.DOTALL)
_SPLIT = re.compile(r"(?<!\\)\|")
_UNESCAPE = re.compile(r"\\(.)", re.DOTALL)


class WebAnnoData(NamedTuple):
    """The documents of WebAnno TSV files, their spans, and what reading counted.

    Attributes
    ----------
    documents : list of Document
        One per file.
    spans : dict of str to list of ToolSpan
        Document id -> its spans (Python offsets).
    counts : dict of str to int
        ``no_value`` (annotations without a value for the feature, not
        scored), ``stacked`` (tokens with several annotations of the layer),
        ``utf16`` (spans whose offsets changed from UTF-16 code units),
        ``short`` and ``long`` (token lines of fewer or more annotation
        columns than the header's layers declare; a missing column is read
        as ``_``, an extra one not at all).
    layer, feature : str
        What was read.
    path : str
        The file or folder.
    annotator : str or None
        The annotator whose files were read (``annotator=``, or the only
        one of a project export).
    selection : tuple of str
        What reading a project export noted: whose annotations were read
        when no annotator was named, the documents without that annotator's
        file.
    """

    documents: list[Document]
    spans: dict[str, list[ToolSpan]]
    counts: dict[str, int]
    layer: str
    feature: str
    path: str
    annotator: str | None = None
    selection: tuple[str, ...] = ()

    def notes(self) -> tuple[str, ...]:
        """What reading counted and chose, as sentences naming the file.

        Examples
        --------
        >>> WebAnnoData([], {}, {"no_value": 1}, NAMED_ENTITY, "value", "x.tsv").notes()
        ("x.tsv: 1 NamedEntity annotation(s) have no 'value' (shown as *): not scored.",)
        """
        return self.selection + _count_notes(self.counts, self.layer, self.feature, self.path)


class WebAnnoAnnotators(NamedTuple):
    """Every annotator's documents of an INCEpTION project export.

    Attributes
    ----------
    documents : dict of str to list of Document
        Annotator -> the documents it has a file of, sorted by name; the
        annotators in alphabetical order (the curation last, when read).
    counts : dict of str to int
        As :attr:`WebAnnoData.counts`, summed over the annotators.
    layer, feature : str
        What was read.
    curation : tuple of str
        The curation's annotators (``CURATION_USER``) left out.
    path : str
        The folder.
    empty : tuple of str
        The document folders of ``annotation/`` that hold no ``.tsv`` file,
        and whose document no annotator read has: not read.
    others : tuple of str
        The files of the document folders that are not ``.tsv`` files
        (:attr:`ExportFiles.others <nerscore.io._webanno_export.ExportFiles>`):
        not read.
    """

    documents: dict[str, list[Document]]
    counts: dict[str, int]
    layer: str
    feature: str
    curation: tuple[str, ...]
    path: str
    empty: tuple[str, ...] = ()
    others: tuple[str, ...] = ()

    def notes(self) -> tuple[str, ...]:
        """What reading left out and counted, as sentences naming the folder.

        Examples
        --------
        >>> WebAnnoAnnotators({}, {}, NAMED_ENTITY, "value", (), "p", ("c.txt",)).notes()
        ("p: 1 document folder(s) of annotation/ hold no .tsv file, so no annotator's annotations of them are read: 'c.txt'.",)
        """
        out = tuple(f"{self.path}: the curated documents ({quoted(name)}, curation/DOC/"
                    f"{name}.tsv) are left out: they are the adjudication, not an annotator's."
                    for name in self.curation)
        if self.empty:
            out += (f"{self.path}: {len(self.empty)} document folder(s) of annotation/ hold no "
                    ".tsv file, so no annotator's annotations of them are read: "
                    f"{quoted_ids(self.empty)}.",)
        if self.others:
            out += (f"{self.path}: the document folders hold {held_files(self.others)} that "
                    f"{'is' if len(self.others) == 1 else 'are'} not WebAnno TSV, so "
                    f"{'it is' if len(self.others) == 1 else 'they are'} not read: "
                    f"{quoted_ids(self.others)}.",)
        return out + _count_notes(self.counts, self.layer, self.feature, self.path)


def _count_notes(c: Mapping[str, int], layer: str, feature: str, path: str) -> tuple[str, ...]:
    out = []
    short = layer.rsplit(".", 1)[-1]
    if c.get("no_value"):
        out.append(f"{c['no_value']} {short} annotation(s) have no {quoted(feature)} (shown "
                   "as *): not scored.")
    if c.get("stacked"):
        out.append(f"{c['stacked']} token(s) carry stacked {short} annotations (read as "
                   "separate spans).")
    if c.get("utf16"):
        out.append(utf16_note(c["utf16"]))
    for key, fewer, then in (("short", "fewer", "the missing ones are read as empty ('_')"),
                             ("long", "more", "the extra ones are not read")):
        if c.get(key):
            out.append(f"{counted(c[key], 'token line')} {'has' if c[key] == 1 else 'have'} "
                       f"{fewer} annotation columns than the header's layers declare: {then}.")
    return tuple(f"{path}: {n}" for n in out)


def _unescape(text: str) -> str:
    return _UNESCAPE.sub(lambda m: m.group(1), text)


class _Header(NamedTuple):
    column: int  # index of the label column among the annotation columns
    layer: str
    feature: str
    columns: int  # how many annotation columns the layers declare


def _header(lines: list[str], source: str, layer: str, feature: str | None) -> _Header:
    if not lines or not lines[0].startswith("#FORMAT=WebAnno TSV 3"):
        got = lines[0][:40] if lines else "an empty file"
        raise FormatError(f"{source}, line 1: expected '#FORMAT=WebAnno TSV 3.x'; got {got!r}. "
                          "Export the document as 'WebAnno TSV v3' from INCEpTION/WebAnno.",
                          source=source, line=1)
    layers: list[tuple[str, str, list[str], int]] = []  # kind, name, features, first column
    column = 0
    for line in lines[1:]:
        if not line.startswith("#T_"):
            if line.startswith("#Text=") or _ROW.match(line.split("\t", 1)[0]):
                break
            continue
        kind, _, spec = line.partition("=")
        name, *features = spec.split("|")
        layers.append((kind[1:], name, features, column))
        column += max(1, len(features))
    spans = [entry for entry in layers if entry[0] == "T_SP"]
    wanted = [entry for entry in spans
              if layer in (entry[1], entry[1].rsplit(".", 1)[-1])]
    if len(wanted) != 1:
        listed = ", ".join(quoted(e[1]) for e in spans) or "none"
        problem = "has several span layers named" if wanted else "has no span layer"
        raise OptionError(f"{source} {problem} {quoted(layer)}; its span layers are {listed}. Choose "
                          "one with layer=NAME (--layer NAME).", option="layer")
    _, name, features, first = wanted[0]
    if feature is None:
        feature = "value" if "value" in features or not features else (
            features[0] if len(features) == 1 else "")
        if not feature:
            raise OptionError(f"{source}: layer {quoted(name)} has the features "
                              f"{', '.join(map(quoted, features))}; choose the label with "
                              "feature=NAME (--feature NAME).", option="feature")
    if features and feature not in features:
        raise OptionError(f"{source}: layer {quoted(name)} has no feature {quoted(feature)}; its features "
                          f"are {', '.join(map(quoted, features))}.", option="feature")
    return _Header(first + (features.index(feature) if features else 0), name, feature, column)


def _document(path: Path, doc_id: str, *, encoding: str, layer: str, feature: str | None,
              counts: Counter[str]) -> tuple[Document, list[ToolSpan], _Header]:
    source = os.fspath(path)
    lines = [line.removesuffix("\r") for line in read_text(path, encoding=encoding).split("\n")]
    head = _header(lines, source, layer, feature)
    pieces: list[str] = []  # the text, sentence by sentence, with the gaps between them
    units = 0  # UTF-16 length of the pieces
    sentence: list[str] = []
    tokens: list[tuple[int, int, int, str]] = []  # line, begin, end, token (UTF-16 offsets)
    open_spans: dict[str, list[Any]] = {}  # id -> [begin, end, label, line]
    found: list[list[Any]] = []
    ids: dict[str, int] = {}  # token id -> its line
    placed = True
    for n, line in enumerate(lines, 1):
        if line.startswith("#Text="):
            if placed:
                sentence, placed = [], False
            sentence.append(_unescape(line[len("#Text="):]))
            continue
        if not line.strip() or line.startswith("#"):
            continue
        cells = line.split("\t")
        if len(cells) < 3 or not _ROW.match(cells[0]) or not _OFFSETS.match(cells[1]):
            raise FormatError(f"{source}, line {n}: expected 'SENT-TOKEN<TAB>BEGIN-END<TAB>TOKEN"
                              f"<TAB>...'; got {line[:60]!r}.", source=source, line=n)
        if ids.setdefault(cells[0], n) != n:
            raise FormatError(f"{source}, line {n}: token id {quoted(cells[0])} is repeated "
                              f"(first on line {ids[cells[0]]}); each token has an id of its own "
                              "(SENTENCE-TOKEN), so rows were copied or renumbered and the spans "
                              "read from them could be wrong. Re-export the document from "
                              "INCEpTION or WebAnno as 'WebAnno TSV v3'.", source=source, line=n)
        begin, end = (int(x) for x in cells[1].split("-"))
        if not placed:
            text = "\n".join(sentence)
            if begin < units:
                raise FormatError(f"{source}, line {n}: the sentence starts at {begin}, before "
                                  f"the end of the previous one ({units}).", source=source,
                                  line=n)
            pieces += [" " * (begin - units), text]
            units = begin + len(text.encode("utf-16-le")) // 2
            placed = True
        tokens.append((n, begin, end, _unescape(cells[2])))
        annotations = cells[3:]
        if len(annotations) != head.columns and not (  # a tab may end the line
                len(annotations) == head.columns + 1 and not annotations[-1]):
            counts["short" if len(annotations) < head.columns else "long"] += 1
        cell = annotations[head.column] if head.column < len(annotations) else "_"
        if cell in ("_", ""):
            continue
        items = _SPLIT.split(cell)
        if len(items) > 1:
            counts["stacked"] += 1
        for k, item in enumerate(items):
            m = _ITEM.match(item)
            value, ident = (m.group(1), m.group(2)) if m else (item, None)
            if value == "*":
                if ident is None or ident not in open_spans:
                    counts["no_value"] += 1
                    open_spans.setdefault(ident or f"{n}:{k}", [begin, end, None, n])
                continue
            if ident is not None and ident in open_spans:
                span = open_spans[ident]
                span[0], span[1] = min(span[0], begin), max(span[1], end)
                continue
            span = [begin, end, _unescape(value), n]
            open_spans[ident or f"{n}:{k}"] = span
            found.append(span)
    text = "".join(pieces)
    positions = utf16_positions(text)

    def py(offset: int, n: int) -> int:
        if positions is None:
            return offset
        if offset not in positions:
            problem = utf16_problem(positions, 0, offset, ends="lies")
            raise FormatError(f"{source}, line {n}: offset {offset} {problem}.", source=source,
                              line=n)
        return positions[offset]

    for n, begin, end, token in tokens:
        b, e = py(begin, n), py(end, n)
        if text[b:e] != token:
            raise FormatError(f"{source}, line {n}: the token {quoted(token)} at {begin}-{end} "
                              f"is {quoted(text[b:e])} in the sentence text (#Text); the file is "
                              "inconsistent.", source=source, line=n)
    spans = []
    for begin, end, label, n in found:
        b, e = py(begin, n), py(end, n)
        if (b, e) != (begin, end):
            counts["utf16"] += 1
        spans.append(ToolSpan(b, e, label, text[b:e], where=f"line {n}"))
    spans.sort(key=lambda s: (s.start, s.end))
    doc = Document(doc_id, entities(spans), text, source=source)
    return doc, spans, head


def read_webanno(path: str | os.PathLike[str], *, encoding: str = "utf-8",
                 layer: str = "NamedEntity", feature: str | None = None,
                 annotator: str | None = None) -> WebAnnoData:
    r"""Read WebAnno TSV 3 files: the spans of one layer, labelled by one feature.

    Parameters
    ----------
    path : str or path-like
        A ``.tsv`` file (one document), a folder of them (read recursively,
        sorted), or an INCEpTION project export (``annotation/DOC/USER.tsv``;
        the rule: :mod:`nerscore.io._webanno_export`).
    encoding : str
        Text encoding of the files.
    layer : str
        The span layer: its full name (``webanno.custom.Entity``) or the last
        part of it (``NamedEntity``, the default).
    feature : str, optional
        The feature holding the label (default: ``value``, or the layer's only
        feature).
    annotator : str, optional
        In a project export, the annotator to read (``CURATION_USER``: the
        curated documents); default: the only one. In another folder, read
        only the files named ``ANNOTATOR.tsv``. Either way each document is
        named by its folder.

    Returns
    -------
    WebAnnoData
        ``documents``, ``spans``, ``counts``; ``notes()``.

    Raises
    ------
    FormatError
        For a file that is not WebAnno TSV 3, malformed token lines, or
        tokens that disagree with the sentence text.
    OptionError
        For a layer or feature the file does not have, listing those it has;
        for an ``annotator`` a project export does not have.
    AnnotatorChoiceError
        For a project export of several annotators, without ``annotator``.

    Examples
    --------
    >>> data = read_webanno("tests/data/webanno/news.tsv")
    >>> [(s.label, s.text) for s in data.spans["news"]]
    [('PER', 'Anna Smith'), ('LOC', 'Berlin'), ('ORG', 'ACME'), ('ORG', 'ACME Paris'), ('LOC', 'Paris')]
    >>> data.counts
    {'no_value': 1, 'stacked': 2, 'utf16': 3}
    """
    root = Path(path)
    selection: tuple[str, ...] = ()
    export = find_export(root) if root.is_dir() else None
    if export is not None:
        annotator, chosen = export.choose(annotator), annotator is not None
        files = export.files[annotator]
        selection = export.notes(annotator, chosen=chosen)
    elif root.is_dir():
        pattern = "*.tsv" if annotator is None else f"{annotator}.tsv"
        found = sorted(p for p in root.rglob(pattern) if p.is_file())
        if not found:
            raise FormatError(f"{os.fspath(root)}: no {pattern} file in the folder or its "
                              "subfolders.", source=os.fspath(root))

        def name(p: Path) -> str:
            rel = p.relative_to(root)
            rel = rel.parent if annotator is not None else rel.with_suffix("")
            return PurePosixPath(*rel.parts).as_posix()

        files = [(name(p), p) for p in found]
    elif root.is_file():
        if annotator is not None:  # one file is one annotator's: nothing to choose from
            raise OptionError(f"annotator={annotator!r} chooses the files of an annotator in "
                              f"a folder; {os.fspath(path)} is one file: leave it out.",
                              option="annotator")
        files = [(root.stem, root)]
    else:
        raise FileNotFoundError(f"No such file or folder: {os.fspath(path)!r}.")
    read = _read_files(files, encoding=encoding, layer=layer, feature=feature)
    return WebAnnoData(read.documents, read.spans, read.counts, read.layer, read.feature,
                       os.fspath(path), annotator, selection)


class _Files(NamedTuple):
    documents: list[Document]
    spans: dict[str, list[ToolSpan]]
    counts: dict[str, int]
    layer: str
    feature: str


def _read_files(files: list[tuple[str, Path]], *, encoding: str, layer: str,
                feature: str | None) -> _Files:
    """The documents of ``(name, file)`` pairs, their spans and counts; one header at least."""
    counts: Counter[str] = Counter()
    docs, spans = [], {}
    head = None
    for doc_id, f in files:
        doc, found, head = _document(f, doc_id, encoding=encoding, layer=layer,
                                     feature=feature, counts=counts)
        docs.append(doc)
        spans[doc.id] = found
    assert head is not None
    return _Files(docs, spans, dict(sorted(counts.items())), head.layer, head.feature)


def read_webanno_annotators(path: str | os.PathLike[str], *, encoding: str = "utf-8",
                            layer: str = "NamedEntity", feature: str | None = None,
                            curation: bool = False) -> WebAnnoAnnotators:
    r"""Read every annotator's documents of an INCEpTION project export.

    Parameters
    ----------
    path : str or path-like
        The export's folder (``annotation/DOC/USER.tsv``, the rule:
        :mod:`nerscore.io._webanno_export`), or its ``annotation/`` folder.
    encoding, layer, feature
        As :func:`read_webanno`.
    curation : bool
        Whether to read the curated documents (``curation/DOC/CURATION_USER.tsv``)
        as one more annotator; by default they are left out, noted.

    Returns
    -------
    WebAnnoAnnotators
        ``documents`` by annotator (a document an annotator has no file of
        is not in its list), ``counts``; ``notes()``.

    Raises
    ------
    FormatError
        For a folder that is not a project export, one without WebAnno TSV
        files, and as :func:`read_webanno`.

    Examples
    --------
    >>> import pathlib, shutil, tempfile
    >>> tmp = pathlib.Path(tempfile.mkdtemp())
    >>> for name in ("annotation/news.txt/anna", "annotation/news.txt/ben",
    ...              "curation/news.txt/CURATION_USER"):
    ...     (tmp / name).parent.mkdir(parents=True, exist_ok=True)
    ...     _ = shutil.copy("tests/data/webanno/news.tsv", tmp / f"{name}.tsv")
    >>> sets = read_webanno_annotators(tmp)
    >>> {who: [d.id for d in docs] for who, docs in sets.documents.items()}
    {'anna': ['news.txt'], 'ben': ['news.txt']}
    >>> sets.notes()[0].endswith("are left out: they are the adjudication, not an annotator's.")
    True
    """
    source = os.fspath(path)
    export = find_export(path) if Path(path).is_dir() else None
    if export is None:
        problem = layout_problem(path)
        if problem is not None:
            raise FormatError(problem, source=source)
        raise FormatError(f"{source} is not an INCEpTION project export: it holds no folder "
                          "annotation/ whose document folders hold one USER.tsv file per "
                          "annotator (annotation/DOC/USER.tsv).", source=source)
    export.check()
    left = () if curation else export.curation
    counts: Counter[str] = Counter()
    documents: dict[str, list[Document]] = {}
    layer_read, feature_read = layer, feature or ""
    for name, files in export.files.items():
        if name in left:
            continue
        read = _read_files(files, encoding=encoding, layer=layer, feature=feature)
        documents[name] = read.documents
        counts.update(read.counts)
        layer_read, feature_read = read.layer, read.feature
    read_docs = {d.id for docs in documents.values() for d in docs}
    empty = tuple(doc for doc in export.empty if doc not in read_docs)
    return WebAnnoAnnotators(documents, dict(sorted(counts.items())), layer_read,
                             feature_read, left, source, empty, export.others)


def _read(path: str, options: Mapping[str, Any]) -> ReadResult:
    data = read_webanno(path, **options)
    return ReadResult(data.documents, data.notes(), source=data)


def _annotators(path: str, options: Mapping[str, Any]) -> AnnotatorSets:
    """A project export's annotators; a file or other folder is one annotator's, named by it.

    A folder laid out as an export that is not one (:func:`layout_problem`)
    is an error saying why, not one annotator's folder of documents.
    """
    folder = Path(path).is_dir()
    export = find_export(path) if folder else None
    problem = layout_problem(path) if folder and (export is None or not export.files) else None
    if problem is not None:
        raise FormatError(problem, source=path)
    if export is None:
        data = read_webanno(path, **options)
        return AnnotatorSets({os.path.basename(os.path.normpath(path)): data.documents},
                             data.notes())
    sets = read_webanno_annotators(path, **{k: v for k, v in options.items()
                                            if k != "annotator"})
    return AnnotatorSets(sets.documents, sets.notes())


def _is_export(folder: str) -> bool:
    """Whether ``folder`` is a project export holding a WebAnno TSV file."""
    try:
        export = find_export(folder)
    except FormatError:  # an annotator in both annotation/ and curation/: said on reading
        return True
    return export is not None and bool(export.files)


#: The ``webanno`` format: WebAnno TSV 3 (``.tsv`` is CoNLL unless the format is named).
FORMAT = register_format(Format(
    "webanno", "WebAnno TSV 3 (INCEpTION): spans of a named layer, stacked, with [n] ids",
    kind="spans", read=_read, folder=False,
    options=("encoding", "layer", "feature", "annotator"),
    detect=_is_export, annotators=_annotators,
))
