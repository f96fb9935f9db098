"""The pieces of :func:`nerscore.convert_file`: chunks, layouts, readers and the result.

A tag input is read as :class:`TagChunk` objects (labels, tokens, the other
CoNLL columns, ``-DOCSTART-`` positions), a span input as lists of
:class:`~nerscore.Document`; :class:`Layout` is how CoNLL lines are laid out.
"""

from __future__ import annotations

import codecs
import itertools
import json
import os
import re
from collections.abc import Callable, Generator, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from nerscore.errors import FormatError, describe_location, quoted
from nerscore.io.convert.marks import (
    BYTE_ORDER_MARKS,
    READING_CODECS,
    byte_order_mark,
    text_after_mark,
    written_encoding,
)
from nerscore.values.label_ops import LabelOps
from nerscore.values.tags import EncodedTags, Slices

if TYPE_CHECKING:
    from nerscore.values.documents import Document

__all__ = [
    "BYTE_ORDER_MARKS",
    "CONLL_KEY",
    "ConversionResult",
    "Layout",
    "Options",
    "TagChunk",
    "WriteOptions",
    "began_with_bom",
    "mark_name",
    "read_conll_chunks",
    "read_parquet_tag_chunks",
]

#: Parquet metadata key of the CoNLL line layout.
CONLL_KEY = "nerscore.conll"

Progress = Callable[[int, int], None]


@dataclass
class ConversionResult:
    """What :func:`convert_file` wrote, and what it had to change.

    Attributes
    ----------
    from_format, to_format : str
        The formats read and written.
    to_kind : {"tags", "spans"}
        What the output holds.
    n_sequences : int
        Sentences (tag output) or documents (span output) written.
    n_entities : int
        Entities read (decoded from tags, or spans of the input).
    repaired : int
        Malformed chunks read the lenient way and written well-formed.
    dropped_malformed : int
        Malformed chunks dropped (``mode="strict"``).
    merged : int
        Entities lost by the target scheme (IO cannot separate adjacent
        entities of one label).
    adjusted, dropped_spans : int
        Spans moved to token boundaries, and spans that kept no token.
    skipped_empty : int
        Documents without tokens, which a CoNLL file cannot hold.
    dropped_ids : int
        Document ids that a tag file cannot keep (documents become sentences).
    spaced_tokens : int
        Tokens containing white space, which do not split back into the same
        tokens once joined into a document text.
    extents : int
        Discontinuous entities written as their extents (first start to last
        end): tags, and span formats without fragments, cannot hold them.
    dropped_regions : int
        Ignore regions not kept (the output format cannot hold them).
    dropped_scores : int
        Span scores not kept (tags, and span formats without scores, cannot
        hold them).
    reader_notes : list of str
        What the readers counted (merged discontinuous BRAT entities, ...)
        and what the output format cannot keep.
    """

    from_format: str
    to_format: str
    to_kind: str = "tags"
    n_sequences: int = 0
    n_entities: int = 0
    repaired: int = 0
    dropped_malformed: int = 0
    merged: int = 0
    adjusted: int = 0
    dropped_spans: int = 0
    skipped_empty: int = 0
    dropped_ids: int = 0
    spaced_tokens: int = 0
    extents: int = 0
    dropped_regions: int = 0
    dropped_scores: int = 0
    reader_notes: list[str] = field(default_factory=list)

    def notes(self) -> tuple[str, ...]:
        """Everything repaired, dropped or not kept, as sentences (empty when nothing was).

        Examples
        --------
        >>> ConversionResult("conll", "jsonl", repaired=2).notes()
        ('2 malformed chunks read the lenient way and written well-formed.',)
        """
        counts = (
            (self.repaired, "malformed chunk read the lenient way and written well-formed",
             "malformed chunks read the lenient way and written well-formed"),
            (self.dropped_malformed, "malformed chunk dropped (strict mode)",
             "malformed chunks dropped (strict mode)"),
            (self.merged, "entity merged into a neighbour of the same label by the target "
             "scheme", "entities merged into a neighbour of the same label by the target "
             "scheme"),
            (self.adjusted, "span not on word boundaries moved to word boundaries",
             "spans not on word boundaries moved to word boundaries"),
            (self.dropped_spans, "span covering no whole word dropped",
             "spans covering no whole word dropped"),
            (self.skipped_empty, "document without tokens left out (CoNLL cannot hold it)",
             "documents without tokens left out (CoNLL cannot hold them)"),
            (self.dropped_ids, "document id not kept (each document becomes one sentence)",
             "document ids not kept (each document becomes one sentence)"),
            (self.spaced_tokens, "token containing white space joined into the text (it will "
             "not split back into the same token)", "tokens containing white space joined "
             "into the text (they will not split back into the same tokens)"),
            (self.extents, "discontinuous entity written as its extent (the output cannot "
             "hold fragments)", "discontinuous entities written as their extents (the output "
             "cannot hold fragments)"),
            (self.dropped_regions, "ignore region not kept (the output cannot hold it)",
             "ignore regions not kept (the output cannot hold them)"),
            (self.dropped_scores, "span score not kept (the output cannot hold it)",
             "span scores not kept (the output cannot hold them)"),
        )
        out = [f"{n} {one if n == 1 else many}." for n, one, many in counts if n]
        return (*out, *self.reader_notes)



@dataclass
class TagChunk:
    """A chunk of tag sequences with what a CoNLL line may carry besides the label.

    ``extra`` holds the other columns by position in the line; ``documents``
    the ``-DOCSTART-`` lines, each as the index of the sentence it comes
    before (the chunk's length for one after its last sentence; a chunk may
    hold ``-DOCSTART-`` lines and no sentence), and ``document_fields`` the
    fields of each of these lines, as the reader splits them (empty when
    not known; None for a line not found). ``origin`` is what the
    sentences were read as, for messages (:meth:`where`): the tags of the
    input (default: ``labels``; their ``first`` numbers the sentences as
    the file does), or the span document each sentence was made of.
    """

    labels: EncodedTags
    tokens: Sequence[list[str]] | None
    extra: dict[int, list[list[str]]] = field(default_factory=dict)
    documents: list[int] = field(default_factory=list)
    origin: EncodedTags | Sequence[Document] | None = None
    document_fields: list[list[str] | None] = field(default_factory=list)

    def where(self, sentence: int, index: int) -> str:
        """Token ``index`` of the chunk's sentence ``sentence``, as the input names it.

        Examples
        --------
        >>> import dataclasses
        >>> tags = dataclasses.replace(EncodedTags.from_lists([["O"], ["B-X", "I-X"]]),
        ...                            source="a.conll")
        >>> TagChunk(tags, None, origin=tags.starting_at(10)).where(1, 1)
        'token 1 of sentence 11 (a.conll)'
        >>> from nerscore.values.documents import Document
        >>> TagChunk(tags, None, origin=[Document("d1", source="a.jsonl", line=3)]).where(0, 0)
        "token 0 of document 'd1' (a.jsonl, line 3)"
        """
        origin = self.labels if self.origin is None else self.origin
        if isinstance(origin, EncodedTags):
            pos = int(origin.offsets[sentence]) + index
            seq, idx = origin.locate(pos)
            line = None if origin.lines is None else int(origin.lines[pos])
            return describe_location(sentence=seq, index=idx, source=origin.source, line=line)
        doc, where = origin[sentence], origin[sentence].where()
        return f"token {index} of document {quoted(doc.id)}" + (f" ({where})" if where else "")

    def source(self, sentence: int) -> str | None:
        """The file the chunk's sentence ``sentence`` was read from, where known."""
        origin = self.labels if self.origin is None else self.origin
        return origin.source if isinstance(origin, EncodedTags) else origin[sentence].source


@dataclass
class Layout:
    """How CoNLL lines are laid out: columns, delimiter, line ends, blank line at the end.

    ``delimiter`` is ``"tab"`` when the first token line separates its
    columns with tabs (even where splitting at whitespace reads the same
    columns), so that a file converted and converted back keeps its bytes;
    ``bom`` whether the file began with a byte-order mark (:func:`began_with_bom`),
    and ``after_mark`` whether that mark followed the one its encoding reads
    as its own (``utf-8-sig``, ``utf-16``, ``utf-32``): U+FEFF, the first
    character of the text (:func:`~nerscore.io.convert.marks.text_after_mark`),
    which a CoNLL file written in such an encoding gets after the codec's mark.
    """

    n_columns: int = 2
    token_column: int = 0
    label_column: int = 1
    delimiter: str = "space"
    blank_at_end: bool = True
    line_ending: str = "\n"
    bom: bool = False
    after_mark: bool = False

    def to_json(self) -> str:
        r"""The layout as the JSON kept in the Parquet metadata (``bom`` and ``after_mark`` only when true).

        Examples
        --------
        >>> Layout(n_columns=4, label_column=3).to_json()
        '{"n_columns": 4, "token_column": 0, "label_column": 3, "delimiter": "space", "blank_at_end": true, "line_ending": "\\n"}'
        """
        return json.dumps({k: v for k, v in self.__dict__.items()
                           if v or k not in ("bom", "after_mark")})

    def docstart(self, outside: str) -> list[str]:
        """The fields of a ``-DOCSTART-`` line as the CoNLL writer writes it: ``-DOCSTART- -X- ... O``.

        Examples
        --------
        >>> Layout(n_columns=4, label_column=3).docstart("O")
        ['-DOCSTART-', '-X-', '-X-', 'O']
        """
        fields = ["-X-"] * max(self.n_columns, 2)
        fields[self.token_column], fields[self.label_column] = "-DOCSTART-", outside
        return fields

    def update(self, **values: Any) -> None:
        """Set the given fields of the layout, as the reader finds them."""
        for k, v in values.items():
            setattr(self, k, v)

    def update_from_json(self, value: object, source: str) -> None:
        """Set the fields kept in the metadata of Parquet file ``source`` (:meth:`to_json`).

        Raises
        ------
        FormatError
            When ``value`` is not a JSON object of fields of the layout with
            values of their types.

        Examples
        --------
        >>> layout = Layout()
        >>> layout.update_from_json({"n_columns": 4, "label_column": 3}, "f.parquet")
        >>> layout.n_columns, layout.label_column
        (4, 3)
        >>> layout.update_from_json({"n_columns": "4"}, "f.parquet")
        Traceback (most recent call last):
        ...
        nerscore.errors.FormatError: f.parquet, metadata 'nerscore.conll': expected the CoNLL layout that nerscore writes, a JSON object of n_columns (int), token_column (int), label_column (int), delimiter (str), blank_at_end (bool), line_ending (str), bom (bool), after_mark (bool); got {"n_columns": "4"}. Convert the CoNLL file again, or remove the metadata.
        """
        types = {k: type(v) for k, v in Layout().__dict__.items()}
        fields: dict[str, Any] = value if isinstance(value, dict) else {"": None}
        if all(k in types and type(v) is types[k] for k, v in fields.items()):
            problem = _layout_problem({**self.__dict__, **fields})
        else:
            named = ", ".join(f"{k} ({t.__name__})" for k, t in types.items())
            problem = f"expected the CoNLL layout that nerscore writes, a JSON object of {named}"
        if problem is not None:
            shown = quoted(json.dumps(value, ensure_ascii=False), str)
            raise FormatError(f"{source}, metadata {CONLL_KEY!r}: {problem}; got {shown}. "
                              "Convert the CoNLL file again, or remove the metadata.",
                              source=source)
        self.update(**fields)


def _layout_problem(layout: dict[str, Any]) -> str | None:
    """What makes a layout of the right types one the CoNLL writer cannot follow; None if nothing."""
    n, tok, lab = layout["n_columns"], layout["token_column"], layout["label_column"]
    if n < 2:
        return "expected n_columns of at least 2 (a token and a label)"
    if not (0 <= tok < n and 0 <= lab < n) or tok == lab:
        return (f"expected token_column and label_column to be two different columns from 0 "
                f"to {n - 1} (n_columns {n})")
    if layout["delimiter"] not in ("space", "tab"):
        return "expected delimiter \"space\" or \"tab\""
    if layout["line_ending"] not in ("\n", "\r\n"):
        return "expected line_ending \"\\n\" or \"\\r\\n\""
    return None


@dataclass
class WriteOptions:
    """What the writer of the output format gets besides the chunks.

    Attributes
    ----------
    encoding : str
        Text encoding of the output: ``utf-16`` and ``utf-32`` of a text
        input in the byte order read
        (:func:`~nerscore.io.convert.marks.written_encoding`).
    labels_as : {"int", "string"}
        Parquet tags: integer labels with a vocabulary, or strings.
    outside : str
        The outside tag of the output (the label of CoNLL ``-DOCSTART-`` lines).
    layout : Layout
        How CoNLL lines are laid out, as the tag reader found it.
    spans_key : str, optional
        spaCy ``.spacy`` output: the span group ``doc.spans[KEY]`` the spans
        are written to instead of ``doc.ents``.
    bom_kept : bool
        Set by a writer that wrote the byte-order mark the input began with
        (CoNLL: ``layout.bom``), or kept it (in the layout of a Parquet file);
        :func:`~nerscore.convert_file` notes one that no writer kept.
    from_outside : str, optional
        The outside tag of the input: a ``-DOCSTART-`` line copied from it
        (CoNLL to CoNLL) whose label is this one gets ``outside`` instead.
    notes : list of str
        What the writer could not keep, as sentences (a writer appends them;
        :func:`~nerscore.convert_file` reports them with its own notes).
    read_as : str, optional
        The encoding a text input (a file, or a folder of them) was read in
        (None for another input): with ``bom``, what
        :func:`~nerscore.io.convert.marks.byte_order_mark` writes.
        ``encoding`` writes what ``utf-16`` and ``utf-32`` read in the byte
        order read (:func:`~nerscore.io.convert.marks.written_encoding`);
        for each file of a folder, :meth:`written_like` says it.
    """

    encoding: str = "utf-8"
    labels_as: str = "int"
    outside: str = "O"
    layout: Layout = field(default_factory=Layout)
    spans_key: str | None = None
    from_outside: str | None = None
    notes: list[str] = field(default_factory=list)
    bom_kept: bool = False
    read_as: str | None = None

    def written_like(self, source: str) -> tuple[str, str]:
        r"""How an output file written from the text file ``source`` is written, as a single output of it.

        Its encoding (:func:`~nerscore.io.convert.marks.written_encoding`:
        ``utf-16`` and ``utf-32`` in the byte order of ``source``) and what it
        begins with to keep the byte-order mark that ``source`` began with
        (:func:`~nerscore.io.convert.marks.byte_order_mark`, ``""`` for none),
        which its reader skipped. ``(encoding, "")`` where no text input was
        read, or ``source`` is no file.

        Examples
        --------
        >>> import pathlib, tempfile
        >>> src = pathlib.Path(tempfile.mkdtemp()) / "a.ann"
        >>> _ = src.write_bytes(codecs.BOM_UTF8 + b"T1\tPER 0 4\tAnna\n")
        >>> WriteOptions(read_as="utf-8").written_like(str(src))
        ('utf-8', '\ufeff')
        >>> WriteOptions(encoding="utf-16", read_as="utf-16").written_like(str(src) + ".txt")
        ('utf-16', '')
        """
        if self.read_as is None or not os.path.isfile(source):
            return self.encoding, ""
        encoding = written_encoding(source, self.read_as)
        mark = byte_order_mark(began_with_bom(source, self.read_as), encoding, self.read_as)
        return encoding, mark or ""


@dataclass
class Options:
    """What a conversion was asked to do, and where it counts what it changed.

    ``syntax`` spells the input tags, ``to_syntax`` the output tags (the
    keywords ``suffix``, ``delimiter`` and ``outside`` of each); ``unread``
    gathers the tags of a label vocabulary that no token has and that could
    not be re-spelled.
    """

    from_scheme: str | None
    to_scheme: str | None
    mode: str
    misaligned: str
    syntax: dict[str, Any]
    to_syntax: dict[str, Any]
    result: ConversionResult
    n_docs: int = 0
    label_ops: LabelOps = field(default_factory=LabelOps)
    label_tallies: dict[str, int] = field(default_factory=dict)
    unread: set[str] = field(default_factory=set)


# ------------------------------------------------------------------------------ reading


def _split_line(line: str, delimiter: str) -> list[str]:
    return line.strip().split("\t") if delimiter == "tab" else line.split()


def _first_line(path: str, line_no: int, encoding: str) -> str:
    """Line ``line_no`` of the file as it is (line end included)."""
    with open(path, encoding=encoding, newline="") as fh:
        for k, line in enumerate(fh, 1):
            if k == line_no:
                return line.lstrip("\ufeff")
    return ""


def began_with_bom(path: str, encoding: str) -> bool:
    """Whether the file ``path``, read as ``encoding``, began with a byte-order mark.

    The mark is U+FEFF as the first character of the text, which every
    reader of text files skips (the CoNLL reader's ``corpus.bom``): the
    first bytes of a Unicode encoding that reads them as U+FEFF
    (:data:`BYTE_ORDER_MARKS`: ``EF BB BF`` in ``utf-8``, ``FF FE`` in
    ``utf-16-le``, ``00 00 FE FF`` in ``utf-32-be``, ...). The mark that
    ``utf-8-sig``, ``utf-16`` and ``utf-32`` read themselves (``utf-16``
    and ``utf-32`` take the byte order from it) is not counted: it belongs
    to the encoding, which writes one of its own to every output; a U+FEFF
    right after it is, the first character of the text
    (:func:`~nerscore.io.convert.marks.text_after_mark`).
    """
    if text_after_mark(path, encoding):
        return True
    try:
        mark = BYTE_ORDER_MARKS.get(codecs.lookup(encoding).name)
        if mark is None:  # no Unicode encoding, or one that reads the mark itself
            return False
        with open(path, "rb") as fh:
            return fh.read(len(mark)) == mark
    except (LookupError, OSError):  # not an encoding, not a file: the reader says so
        return False


def mark_name(encoding: str) -> str:
    """The byte-order mark that :func:`began_with_bom` found, as messages name it.

    Read as ``utf-8-sig``, ``utf-16`` or ``utf-32``, it is the second mark, after the codec's own.

    Examples
    --------
    >>> [mark_name(e) for e in ("utf-8", "utf-8-sig", "UTF-16LE", "utf_32_be", "utf-16")]
    ['UTF-8', 'second UTF-8', 'UTF-16-LE', 'UTF-32-BE', 'second UTF-16']
    """
    name = codecs.lookup(encoding).name
    if name == "utf-8-sig":
        return "second UTF-8"
    return f"second {name.upper()}" if name in READING_CODECS else name.upper()


def _docstart_lines(path: str, mark: str, encoding: str) -> Iterator[str]:
    r"""The text of each ``-DOCSTART-`` line of a CoNLL file, in order, read as needed.

    A ``-DOCSTART-`` line is one whose first field is ``mark`` (fields are
    separated by the characters up to the space, as the reader splits them).

    Examples
    --------
    >>> import pathlib, tempfile
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "a.conll"
    >>> text = "\ufeff-DOCSTART- O\r\n\na O\n\n -DOCSTART-\tx\n-DOCSTARTS O\n"
    >>> _ = path.write_text(text, encoding="utf-8", newline="")
    >>> list(_docstart_lines(str(path), "-DOCSTART-", "utf-8"))
    ['-DOCSTART- O\r', ' -DOCSTART-\tx']
    """
    head = re.compile(r"[\x00-\x09\x0b-\x20]*\Z")  # what may come before the mark
    rest, first = "", True
    # what cannot be decoded is the reader's error, met in its own time
    with open(path, encoding=encoding, errors="replace", newline="") as fh:
        while True:
            block = fh.read(1 << 20)
            if first:
                block, first = block.removeprefix("\ufeff"), False
            text = rest + block
            cut = len(text) if not block else text.rfind("\n") + 1  # whole lines only
            text, rest = text[:cut], text[cut:]
            at = text.find(mark)
            while at >= 0:  # few lines hold the mark: found at the speed of str.find
                start = text.rfind("\n", 0, at) + 1
                end = text.find("\n", at)
                end = len(text) if end < 0 else end
                after = text[at + len(mark):at + len(mark) + 1]
                if head.match(text, start, at) and (not after or after <= " "):
                    yield text[start:end]
                at = text.find(mark, end)
            if not block:
                return


def _blank_at_end(path: str) -> bool:
    with open(path, "rb") as fh:
        fh.seek(max(0, os.path.getsize(path) - 8))
        tail = fh.read()
    return tail.endswith((b"\n\n", b"\n\r\n"))


def split_rows(tags: EncodedTags, values: Sequence[str]) -> Sequence[list[str]]:
    """``values`` (one per token) cut into the sentences of ``tags``."""
    return Slices(values, tags.offsets)


def read_conll_chunks(path: str, chunk_size: int, options: Mapping[str, Any], layout: Layout,
                      progress: Progress | None) -> Generator[TagChunk, None, tuple[str, ...]]:
    """A CoNLL file as tag chunks of ``chunk_size`` sentences, noting its layout.

    Returns (as the generator's value) the notes of what it read and passed
    on in no chunk: the comment lines skipped.
    """
    from nerscore.io._conll_corpus import reader_notes
    from nerscore.io.conll import ConllChunks

    main = ConllChunks(path, chunk_size=chunk_size, **options)
    total = os.path.getsize(path)
    encoding = options.get("encoding", "utf-8")
    mark = options.get("docstart", "-DOCSTART-")
    docstarts = _docstart_lines(path, mark, encoding) if mark else iter(())
    readers: list[tuple[int, Iterator[Any]]] | None = None  # set at the first token line
    for k, chunk in enumerate(main):
        if readers is None and chunk.n_tokens:  # chunks before hold -DOCSTART- lines only
            line = _first_line(path, int(chunk.lines[0]), encoding)
            n = len(_split_line(line, chunk.column_delimiter))
            tok, lab = (c % n for c in (options.get("token_column", 0),
                                        options.get("label_column", -1)))
            body = line.rstrip("\r\n")
            tabbed = chunk.column_delimiter == "tab" or ("\t" in body and len(body.split("\t")) == n)
            layout.update(n_columns=n, token_column=tok, label_column=lab,
                          delimiter="tab" if tabbed else "space",
                          line_ending="\r\n" if line.endswith("\r\n") else "\n",
                          blank_at_end=_blank_at_end(path), bom=began_with_bom(path, encoding),
                          after_mark=text_after_mark(path, encoding))
            same = {**options, "column_delimiter": chunk.column_delimiter}
            readers = [(c, itertools.islice(ConllChunks(path, chunk_size=chunk_size,
                                                        **{**same, "label_column": c}), k, None))
                       for c in range(n) if c not in (tok, lab)]  # from this chunk on
        extra = {c: next(r).to_lists() for c, r in readers or ()}
        documents = [int(d) for d in chunk.documents.tolist()]
        fields = [None if line is None else _split_line(line, chunk.column_delimiter)
                  for line in (next(docstarts, None) for _ in documents)]
        yield TagChunk(chunk.tags, split_rows(chunk.tags, chunk.tokens), extra, documents,
                       document_fields=fields)
        if progress is not None:
            progress(min(main.bytes_read, total), total)
    return reader_notes(path, 0, main.n_comments)


def read_parquet_tag_chunks(path: str, chunk_size: int, options: Mapping[str, Any],
                            layout: Layout, progress: Progress | None) -> Iterator[TagChunk]:
    """A Parquet tag file as tag chunks, restoring the CoNLL layout kept in its metadata."""
    from nerscore.io.parquet import (
        iter_parquet_columns,
        iter_parquet_tags,
        parquet_json,
        parquet_shape,
    )

    meta = parquet_json(path, CONLL_KEY)
    if meta is not None:
        layout.update_from_json(meta, path)
    names, total = parquet_shape(path)
    extra_names = [c for c in names if re.fullmatch(r"column_\d+", c)]
    wanted = extra_names + (["document"] if "document" in names else [])
    side = iter_parquet_columns(path, wanted, chunk_size=chunk_size)
    done = 0
    for tags in iter_parquet_tags(path, chunk_size=chunk_size, **options):
        cols = next(side) if wanted else {}
        tokens = split_rows(tags, tags.tokens) if tags.tokens is not None else None
        extra = {int(c.split("_")[1]): cols[c] for c in extra_names}
        docs = [i for i, d in enumerate(cols.get("document", ())) if d]
        yield TagChunk(EncodedTags(tags.ids, tags.offsets, tags.vocab, tags.source,
                                   first=tags.first), tokens, extra, docs)
        done += tags.n_sequences
        if progress is not None:
            progress(done, total)
