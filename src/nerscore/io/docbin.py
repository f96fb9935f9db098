"""spaCy corpora: ``.spacy`` files (``DocBin``), read and written with spaCy.

Needs spaCy (``pip install 'nerscore[spacy]'``), imported only when such a
file is read or written. Each ``Doc`` is one document whose spans are its
entities (``doc.ents``), or the span group named by ``spans_key``
(``doc.spans[key]``), as:

- ``units="char"`` (default): character offsets into ``doc.text``, the text
  kept (files of other span formats can be scored against them);
- ``units="token"``: token offsets (``span.start``, ``span.end``), as spaCy's
  own scorer compares them.

Documents have no ids in a ``DocBin``: they are numbered ``"1"``,
``"2"``, ... in file order, so a gold and a predicted file of the same
texts pair up one to one (written by :func:`~nerscore.convert_file`, the ids
that this numbering does not give back are counted in a note). Tokens whose entity annotation is missing
(``token.ent_iob == 0``; partially annotated documents) are counted in a
note and read as outside every entity.
"""

from __future__ import annotations

import itertools
import os
from collections.abc import Iterable, Iterator, Mapping
from typing import TYPE_CHECKING, Any

from nerscore.errors import FormatError, OptionError, quoted, require
from nerscore.io.formats import ChunkStream, Counted, Format, ReadResult, register_format
from nerscore.values.documents import Document

if TYPE_CHECKING:
    from nerscore.io.convert.reading import WriteOptions

__all__ = ["FORMAT", "UNITS", "iter_docbin_documents", "read_docbin", "write_docbin"]

#: The offsets a ``.spacy`` file is read in.
UNITS = ("char", "token")

_Path = str | os.PathLike[str]


def _spacy() -> Any:
    return require("spacy", extra="spacy")


def _check_units(units: str) -> str:
    if units not in UNITS:
        raise OptionError(f"Expected `units` to be one of 'char', 'token'; got {units!r}.",
                          option="units")
    return units


def _docs(path: _Path) -> Iterator[Any]:
    spacy = _spacy()
    source = os.fspath(path)
    try:
        docbin = spacy.tokens.DocBin().from_disk(source)
    except (ValueError, KeyError, TypeError) as exc:
        raise FormatError(f"{source}: not a spaCy DocBin (.spacy) file ({exc}).",
                          source=source) from None
    return iter(docbin.get_docs(spacy.vocab.Vocab()))


class _Tally:
    """What the reader counts over a whole file, for its notes."""

    def __init__(self, source: str, spans_key: str | None) -> None:
        self.source = source
        self.spans_key = spans_key
        self.missing_tokens = 0
        self.missing_docs = 0
        self.no_group = 0

    def notes(self) -> tuple[str, ...]:
        out = []
        if self.missing_tokens:
            out.append(f"{self.source}: {self.missing_tokens} token"
                       f"{'s' if self.missing_tokens != 1 else ''} in {self.missing_docs} "
                       f"document{'s' if self.missing_docs != 1 else ''} have no entity "
                       "annotation (missing, not O); they are read as outside every entity.")
        if self.no_group:
            out.append(f"{self.source}: {self.no_group} document"
                       f"{'s' if self.no_group != 1 else ''} have no span group "
                       f"{quoted(self.spans_key)}; read as having no span.")
        return tuple(out)


def _document(doc: Any, k: int, units: str, spans_key: str | None, tally: _Tally,
              source: str) -> Document:
    if spans_key is None:
        spans = doc.ents
        missing = sum(1 for t in doc if t.ent_iob == 0)
        if missing:
            tally.missing_tokens += missing
            tally.missing_docs += 1
    elif spans_key in doc.spans:
        spans = doc.spans[spans_key]
    else:
        tally.no_group += 1
        spans = ()
    if units == "char":
        items: Any = [(s.start_char, s.end_char, s.label_) for s in spans]
        return Document(str(k), items, doc.text, source=source)
    tokens: Any = [(s.start, s.end, s.label_) for s in spans]
    return Document(str(k), tokens, source=source)


def iter_docbin_documents(path: _Path, *, units: str = "char", spans_key: str | None = None,
                          chunk_size: int = 10_000,
                          tally: _Tally | None = None) -> Iterator[list[Document]]:
    """Stream the documents of a ``.spacy`` file, ``chunk_size`` at a time.

    Parameters
    ----------
    path : path
        The file.
    units : {"char", "token"}
        Character or token offsets.
    spans_key : str, optional
        A span group (``doc.spans[spans_key]``) instead of ``doc.ents``.
    chunk_size : int
        Most documents per chunk.
    tally : optional
        Counts what the notes report (internal).

    Yields
    ------
    list of Document
    """
    _check_units(units)
    source = os.fspath(path)
    tally = tally if tally is not None else _Tally(source, spans_key)
    chunk: list[Document] = []
    for k, doc in enumerate(_docs(source), start=1):
        chunk.append(_document(doc, k, units, spans_key, tally, source))
        if len(chunk) >= chunk_size:
            yield chunk
            chunk = []
    if chunk:
        yield chunk


def read_docbin(path: _Path, *, units: str = "char",
                spans_key: str | None = None) -> tuple[list[Document], tuple[str, ...]]:
    """A whole ``.spacy`` file as documents, and the reader's notes.

    Examples
    --------
    >>> import pathlib, tempfile
    >>> import spacy
    >>> from spacy.tokens import Doc, DocBin
    >>> doc = Doc(spacy.vocab.Vocab(), words=["Anna", "met", "Bo", "."],
    ...           ents=["B-PER", "O", "B-PER", "O"])
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "docs.spacy"
    >>> DocBin(docs=[doc]).to_disk(path)
    >>> docs, notes = read_docbin(path)
    >>> docs[0].text, [(e.start, e.end, e.label) for e in docs[0].spans]
    ('Anna met Bo . ', [(0, 4, 'PER'), (9, 11, 'PER')])
    >>> [(e.start, e.end) for e in read_docbin(path, units="token")[0][0].spans]
    [(0, 1), (2, 3)]
    """
    tally = _Tally(os.fspath(path), spans_key)
    docs = [d for chunk in iter_docbin_documents(path, units=units, spans_key=spans_key,
                                                 tally=tally) for d in chunk]
    return docs, tally.notes()


def write_docbin(path: _Path, documents: Iterable[Document], *,
                 spans_key: str | None = None) -> int:
    """Write documents with texts as a ``.spacy`` file, their spans as entities.

    Each document's text becomes a ``Doc`` whose tokens are cut at
    whitespace and at every span boundary (so that every span is whole
    tokens; ``doc.text`` is the text, whitespace included); its spans become
    ``doc.ents``, or the span group ``doc.spans[spans_key]``, which may hold
    overlapping spans. A document written to a span group has no entity
    annotation (every ``token.ent_iob`` is 0, spaCy's "missing"): an
    ``ner`` component trained on the file learns nothing from it rather
    than that its tokens are outside every entity, and the file read without
    ``spans_key`` has no span and a note that says so.

    Parameters
    ----------
    path : path
        The file written.
    documents : iterable of Document
        Documents with texts.
    spans_key : str, optional
        The span group to write the spans to, instead of ``doc.ents``.

    Returns
    -------
    int
        Documents written.

    Raises
    ------
    FormatError
        For a document without text (a ``Doc`` needs its words), and, in
        ``doc.ents``, for overlapping or empty spans, which spaCy's entities
        cannot hold (a span group can: ``spans_key``).

    Examples
    --------
    >>> import pathlib, tempfile
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "out.spacy"
    >>> write_docbin(path, [Document("a", [(0, 4, "PER"), (9, 16, "LOC")], "Anna  in Le Mans.")])
    1
    >>> docs, _ = read_docbin(path)
    >>> docs[0].text, [(e.start, e.end, e.label) for e in docs[0].spans]
    ('Anna  in Le Mans.', [(0, 4, 'PER'), (9, 16, 'LOC')])
    >>> write_docbin(path, [Document("a", [(0, 12, "ORG"), (8, 12, "LOC")], "Bank of Rome")],
    ...              spans_key="sc")
    1
    >>> docs, _ = read_docbin(path, spans_key="sc")
    >>> [(e.start, e.end, e.label) for e in docs[0].spans]
    [(0, 12, 'ORG'), (8, 12, 'LOC')]
    """
    spacy = _spacy()
    vocab = spacy.vocab.Vocab()
    docbin = spacy.tokens.DocBin(store_user_data=False)
    n_docs = 0
    for d in documents:
        if d.text is None:
            raise FormatError(f"{d.named()} has no text: a spaCy Doc needs its words; give "
                              "documents with texts (JSON Lines \"text\", BRAT .txt).",
                              source=d.source, line=d.line)
        doc = _make_doc(spacy, vocab, d)
        spans = [(e, doc.char_span(e.start, e.end, label=e.label)) for e in d.spans]
        where = d.where()
        where = f"{where}: " if where else ""
        if spans_key is not None:
            for e, s in spans:
                if s is None:
                    raise FormatError(
                        f"{where}document {quoted(d.id)}: the span {e.start}-{e.end} ({e.label}) "
                        "cannot be a spaCy span (spaCy has no empty span at the end of a "
                        "text); remove it.", source=d.source, line=d.line)
            doc.spans[spans_key] = [s for _, s in spans]
        else:
            end = -1
            for e, s in sorted(spans, key=lambda p: (p[0].start, p[0].end)):
                if s is None or e.start < end or e.start == e.end:
                    raise FormatError(
                        f"{where}document {quoted(d.id)}: the span {e.start}-{e.end} "
                        f"({e.label}) is empty or overlaps another; spaCy's doc.ents "
                        "cannot hold it. Remove it (a label operation such as "
                        f"drop={e.label!r} does), write the spans to a span group "
                        "doc.spans[KEY] (spans_key='KEY'), or convert to a format that holds "
                        "them (JSON Lines, Parquet, BRAT).", source=d.source, line=d.line)
                end = e.end
            doc.ents = [s for _, s in spans]
        docbin.add(doc)
        n_docs += 1
    docbin.to_disk(os.fspath(path))
    return n_docs


def _make_doc(spacy: Any, vocab: Any, d: Document) -> Any:
    """A ``Doc`` of ``d.text``: tokens cut at whitespace and at every span boundary."""
    text = d.text or ""
    starts = {e.start for e in d.spans}
    ends = {e.end for e in d.spans}
    cuts = {0, len(text), *starts, *ends}
    cuts.update(i for i, ch in enumerate(text) if ch.isspace())
    cuts.update(i + 1 for i, ch in enumerate(text) if ch.isspace())
    bounds = sorted(c for c in cuts if 0 <= c <= len(text))
    words: list[str] = []
    spaces: list[bool] = []
    for a, b in itertools.pairwise(bounds):
        piece = text[a:b]
        if (piece == " " and words and not spaces[-1] and not words[-1].isspace()
                and a not in starts and b not in ends):
            spaces[-1] = True  # one space after a word: its trailing whitespace
            continue
        words.append(piece)
        spaces.append(False)
    return spacy.tokens.Doc(vocab, words=words, spaces=spaces)


# ----------------------------------------------------------------------------- the format


def _reader(options: Mapping[str, Any]) -> dict[str, Any]:
    out = {k: v for k, v in options.items() if v is not None}
    _check_units(out.get("units", "char"))
    return out


def _read(path: str, options: Mapping[str, Any]) -> ReadResult:
    docs, notes = read_docbin(path, **_reader(options))
    return ReadResult(docs, notes)


def _chunks(path: str, chunk_size: int, options: Mapping[str, Any]) -> ChunkStream:
    opts = _reader(options)
    tally = _Tally(path, opts.get("spans_key"))
    return ChunkStream(iter_docbin_documents(path, chunk_size=chunk_size, tally=tally, **opts),
                       notes=tally.notes)


def _write_spans(chunks: Iterable[list[Document]], target: str, options: WriteOptions) -> int:
    """Write the documents; ids other than their numbers 1, 2, ... are counted in a note."""
    renamed = [0]

    def numbered() -> Iterator[Document]:
        for k, d in enumerate(Counted(chunks).items(), 1):
            renamed[0] += d.id != str(k)
            yield d

    n = write_docbin(target, numbered(), spans_key=options.spans_key)
    if renamed[0]:
        options.notes.append(
            f"{renamed[0]} document id{'s' if renamed[0] != 1 else ''} not kept (a .spacy file "
            "stores no ids: its documents are read back as 1, 2, ... in file order).")
    return n


#: The ``spacy`` format: ``.spacy`` DocBin files (needs spaCy).
FORMAT = register_format(Format(
    "spacy", "spaCy DocBin (.spacy): doc.ents or a span group, by character or token offsets",
    kind="spans", read=_read, suffixes=(".spacy",), chunks=_chunks,
    options=("units", "spans_key"), write_spans=_write_spans,
))
