"""The file formats: one :class:`Format` record per format, and the registry that finds them.

A format module defines one module-level ``FORMAT = register_format(Format(...))``:
its name, the file names it claims, whether it holds tags or spans, its
readers (whole file, and chunk by chunk for streaming), its writers for
:func:`nerscore.convert_file` and the reader options it takes. Every command
and library function that opens a file asks this registry, so adding a
format means writing one module:

- a built-in format is one more line in :data:`BUILTIN_FORMATS`;
- a format of another package calls :func:`register_format` when its module
  is imported, or names its record (or its module) as an entry point in the
  group ``nerscore.formats``, whose name is the format's name.

Built-in formats are imported when first needed (a name, or a file name
that no format imported so far claims); entry points are read only when
neither the built-ins nor the formats registered so far resolve a name or a
file name, so that start-up does not pay for them. See ``docs/formats.md``.
"""

from __future__ import annotations

import importlib
import os
import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from nerscore.errors import FormatError, OptionError, closest
from nerscore.io.format_hooks import (
    AnnotatorSets,
    ChunkStream,
    Counted,
    PairCheck,
    ReadResult,
    lazy,
)

if TYPE_CHECKING:
    from nerscore.io.convert.reading import Layout, TagChunk, WriteOptions
    from nerscore.values.documents import Document
    from nerscore.values.tags import EncodedTags

__all__ = [
    "BUILTIN_FORMATS",
    "ENTRY_POINT_GROUP",
    "FALLBACK_FORMAT",
    "AnnotatorSets",
    "ChunkStream",
    "Counted",
    "Format",
    "PairCheck",
    "ReadResult",
    "format_names",
    "get_format",
    "guess_format",
    "lazy",
    "pair_notes",
    "register_format",
]

#: Built-in format name -> the module that registers it, in the order they are listed.
BUILTIN_FORMATS: dict[str, str] = {
    "conll": "nerscore.io.conll",
    "jsonl": "nerscore.io.jsonl",
    "brat": "nerscore.io.brat",
    "parquet": "nerscore.io.parquet",
    "label-studio": "nerscore.io.label_studio",
    "doccano": "nerscore.io.doccano",
    "prodigy": "nerscore.io.prodigy",
    "webanno": "nerscore.io.webanno",
    "hf": "nerscore.io.hf_datasets",
    "spacy": "nerscore.io.docbin",
}
#: The format of a file name that no format claims.
FALLBACK_FORMAT = "conll"
#: Entry-point group of formats defined in other packages.
ENTRY_POINT_GROUP = "nerscore.formats"

_KINDS = ("tags", "spans")
_NAME = re.compile(r"[a-z][a-z0-9_-]*\Z")

Progress = Callable[[int, int], None]


@dataclass(frozen=True, eq=False, repr=False)
class Format:
    r"""One file format: how to recognise, read and write it.

    Attributes
    ----------
    name : str
        The format's name (``--gold-format NAME``, ``gold_format=NAME``):
        lower-case letters, digits, ``-`` and ``_``.
    summary : str
        One line for the documentation and error messages.
    kind : {"tags", "spans"} or callable
        What its files hold; ``kind(path, options)`` for a format whose
        files hold either (Parquet).
    read : callable
        ``read(path, options) -> ReadResult``: a whole file.
    suffixes : tuple of str
        Lower-case file name endings that are this format (``".jsonl"``).
    folder : bool
        Whether a directory (or a name ending in ``/``) is this format.
    chunks : callable, optional
        ``chunks(path, chunk_size, options) -> ChunkStream``: the file in
        chunks of at most ``chunk_size`` sentences or documents; None for a
        format read whole.
    options : tuple of str
        The keyword options of its readers (``encoding``, ``label_column``,
        ...): the command line passes each file only those its format takes.
    pair_check : callable, optional
        ``pair_check(gold_path, pred_path, strict_tokens=False) -> PairCheck``:
        what is compared between a gold and a prediction file of this format
        (CoNLL: the sentences, their lengths and tokens).
    write_tags, write_spans : callable, optional
        ``write_tags(chunks, target, options) -> int``: tag chunks
        (:class:`~nerscore.io.convert.reading.TagChunk`) written to
        ``target``; ``write_spans(chunks, target, options) -> int``: lists of
        documents. Both return the sentences or documents written and get
        :class:`~nerscore.io.convert.reading.WriteOptions`; None where the
        format cannot hold that kind.
    read_tag_chunks : callable, optional
        ``read_tag_chunks(path, chunk_size, options, layout, progress)``:
        tag chunks with what a line carries besides the label (other
        columns, document starts, the line layout), for conversions that
        keep them; default: the chunks of ``chunks`` with their tokens. A
        generator may return notes of what it read and passed on in no
        chunk (comment lines skipped), reported with the conversion's.
    relabel : callable, optional
        ``relabel(source, target, options, new_labels, progress,
        write_options) -> int``: the file written again in this format with
        ``new_labels(tags)`` for each chunk, every other byte kept
        (converting between schemes) but the outside tag of lines that hold
        one besides the tokens' (CoNLL ``-DOCSTART-`` lines), written as
        ``write_options`` says.
    progress_unit : {"rows", "bytes"}
        What the ``progress(done, total)`` calls of its readers count.
    keeps : tuple of str
        What its span writer keeps besides start, end and label:
        ``"fragments"`` (discontinuous spans), ``"ignore"`` (ignore
        regions; docs/fragments.md) and ``"score"`` (the confidence of each
        span). :func:`~nerscore.convert_file` writes the rest as extents, or
        leaves it out, and counts it.
    label_forbids : str
        A regular expression matching a character that no label of its
        files can hold (CoNLL and BRAT: white space); empty where any label
        can be written. :func:`~nerscore.convert_file` refuses, before it
        writes anything, an outside tag, tag delimiter or label map that
        would write one.
    detect : callable, optional
        ``detect(folder) -> bool``: whether a folder is this format by what
        it holds (a Hugging Face dataset's JSON files, an INCEpTION project
        export's ``annotation/DOC/USER.tsv``); a folder that no format
        detects is the first ``folder`` format's (BRAT).
    annotators : callable, optional
        ``annotators(path, options) -> AnnotatorSets``: every annotator's
        documents of one file that holds several (a Label Studio export, a
        Prodigy dataset, an INCEpTION project export folder), which
        ``nerscore agree`` and ``adjudicate`` compare; None where a file
        holds one annotator's.
    escapes : bool
        Whether its writers write every character in any ``encoding``, as
        JSON text does (a JSON escape, ``\u00eb``, for a character the
        encoding cannot encode): :func:`~nerscore.convert_file` then refuses
        no character for the encoding (it refuses those that CoNLL and BRAT
        output cannot encode).
    mark_files : callable, optional
        ``mark_files(path) -> list of str``: the text files of the input
        ``path`` whose byte-order mark its reader skips, where they are not
        ``path`` itself (BRAT: the ``.ann`` files of a folder, or of the pair
        given; a ``.txt`` file's mark is character 0 of its text);
        :func:`~nerscore.convert_file` notes the marks they began with that
        the output goes without. Default: ``path``, where it is a file.

    Records compare by identity: one record is one format.
    """

    name: str
    summary: str
    kind: str | Callable[[str, Mapping[str, Any]], str]
    read: Callable[[str, Mapping[str, Any]], ReadResult]
    suffixes: tuple[str, ...] = ()
    folder: bool = False
    chunks: Callable[[str, int, Mapping[str, Any]], ChunkStream] | None = None
    options: tuple[str, ...] = ()
    pair_check: Callable[..., PairCheck] | None = None
    write_tags: Callable[[Iterable[TagChunk], str, WriteOptions], int] | None = None
    write_spans: Callable[[Iterable[list[Document]], str, WriteOptions], int] | None = None
    read_tag_chunks: Callable[
        [str, int, Mapping[str, Any], Layout, Progress | None], Iterator[TagChunk]
    ] | None = None
    relabel: Callable[
        [str, str, Mapping[str, Any], Callable[[EncodedTags], EncodedTags], Progress | None,
         WriteOptions], int
    ] | None = None
    progress_unit: str = "rows"
    keeps: tuple[str, ...] = ()
    label_forbids: str = ""
    detect: Callable[[str], bool] | None = None
    annotators: Callable[[str, Mapping[str, Any]], AnnotatorSets] | None = None
    escapes: bool = False
    mark_files: Callable[[str], Sequence[str]] | None = None

    def __post_init__(self) -> None:
        where = f"Format {self.name!r}"
        if not isinstance(self.name, str) or not _NAME.match(self.name):
            raise OptionError(f"Expected a format name of lower-case letters, digits, '-' and "
                              f"'_', starting with a letter; got {self.name!r}.", option="name")
        if not callable(self.kind) and self.kind not in _KINDS:
            raise OptionError(f"{where}: expected `kind` 'tags', 'spans' or a callable "
                              f"(path, options) -> kind; got {self.kind!r}.", option="kind")
        if not callable(self.read):
            raise OptionError(f"{where}: `read` must be callable (path, options) -> ReadResult.",
                              option="read")
        bad = [s for s in self.suffixes
               if not isinstance(s, str) or not s.startswith(".") or s != s.lower()]
        if not isinstance(self.suffixes, tuple) or bad:
            raise OptionError(f"{where}: expected `suffixes` as a tuple of lower-case file name "
                              f"endings starting with '.' (e.g. ('.jsonl',)); got "
                              f"{self.suffixes!r}.", option="suffixes")
        if not isinstance(self.options, tuple) or not all(isinstance(o, str)
                                                          for o in self.options):
            raise OptionError(f"{where}: expected `options` as a tuple of keyword names; got "
                              f"{self.options!r}.", option="options")
        if self.progress_unit not in ("rows", "bytes"):
            raise OptionError(f"{where}: expected `progress_unit` 'rows' or 'bytes'; got "
                              f"{self.progress_unit!r}.", option="progress_unit")
        if (not isinstance(self.keeps, tuple)
                or not set(self.keeps) <= {"fragments", "ignore", "score"}):
            raise OptionError(f"{where}: expected `keeps` as a tuple of 'fragments', 'ignore' "
                              f"and 'score'; got {self.keeps!r}.", option="keeps")
        try:
            re.compile(self.label_forbids)
        except (TypeError, re.error):
            raise OptionError(f"{where}: expected `label_forbids` as a regular expression "
                              f"(str); got {self.label_forbids!r}.",
                              option="label_forbids") from None
        if not isinstance(self.escapes, bool):
            raise OptionError(f"{where}: expected `escapes` as a bool; got {self.escapes!r}.",
                              option="escapes")

    def __repr__(self) -> str:
        return f"<Format {self.name!r}: {self.summary}>"

    def kind_of(self, path: str | os.PathLike[str],
                options: Mapping[str, Any] | None = None, *, unread: str | None = None) -> str:
        """What the file ``path`` holds: ``"tags"`` or ``"spans"``.

        ``unread``: the kind to answer where the file cannot be opened, or
        is not of this format (an :class:`OSError` or a :class:`FormatError`),
        leaving its error to its reader. A prediction file takes its gold
        file's kind so: read whole, gold is read first, and its reader's
        error comes before that of a prediction file that cannot be read.

        Examples
        --------
        >>> get_format("jsonl").kind_of("gold.jsonl")
        'spans'
        """
        if isinstance(self.kind, str):
            return self.kind
        try:
            kind = self.kind(os.fspath(path), dict(options or {}))
        except (OSError, FormatError):
            if unread is None:
                raise
            return unread
        if kind not in _KINDS:
            raise OptionError(f"The {self.name} format says {os.fspath(path)} holds {kind!r}; "
                              "expected 'tags' or 'spans'.", option="kind")
        return kind

    def reader_options(self, options: Mapping[str, Any] | None) -> dict[str, Any]:
        """``options`` checked against what the readers of this format take.

        Raises
        ------
        OptionError
            For an option the format's readers do not take, listing those they do.

        Examples
        --------
        >>> get_format("jsonl").reader_options({"encoding": "latin-1"})
        {'encoding': 'latin-1'}
        >>> get_format("jsonl").reader_options({"comments": True})
        Traceback (most recent call last):
        ...
        nerscore.errors.OptionError: Unknown reader option 'comments' for jsonl files; they take 'encoding', 'column', 'tokens_column'.
        """
        given = dict(options or {})
        unknown = [k for k in given if k not in self.options]
        if unknown:
            takes = ", ".join(repr(o) for o in self.options) or "no options"
            raise OptionError(f"Unknown reader option {', '.join(map(repr, unknown))} for "
                              f"{self.name} files; they take {takes}.", option=unknown[0])
        return given

    def load(self, path: str | os.PathLike[str],
             options: Mapping[str, Any] | None = None) -> ReadResult:
        r"""The whole file ``path``, read with ``options``.

        Examples
        --------
        >>> import pathlib, tempfile
        >>> tmp = pathlib.Path(tempfile.mkdtemp()) / "g.conll"
        >>> _ = tmp.write_text("Ann B-PER\nleft O\n")
        >>> res = get_format("conll").load(tmp)
        >>> res.data.to_lists(), list(res.texts())
        ([['B-PER', 'O']], [['Ann', 'left']])
        """
        p = os.fspath(path)
        result = self.read(p, self.reader_options(options))
        return result._replace(path=p, file_format=self)

    def claim(self, path: str) -> int:
        """The length of the longest of :attr:`suffixes` that ``path`` ends with (0: none)."""
        lower = path.lower()
        return max((len(s) for s in self.suffixes if lower.endswith(s)), default=0)


def pair_notes(gold: ReadResult, pred: ReadResult, *,
               strict_tokens: bool = False) -> tuple[str, ...]:
    r"""The pair check of two whole files of one format (empty when their formats differ).

    Raises what the check raises (CoNLL: sentences of different lengths).

    Examples
    --------
    >>> import pathlib, tempfile
    >>> tmp = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (tmp / "g.conll").write_text("Ann B-PER\n")
    >>> _ = (tmp / "p.conll").write_text("ann B-PER\n")
    >>> conll = get_format("conll")
    >>> notes = pair_notes(conll.load(tmp / "g.conll"), conll.load(tmp / "p.conll"))
    >>> notes[0].startswith("1 of 1 tokens differ between")
    True
    """
    fmt = gold.file_format
    if fmt is None or fmt is not pred.file_format or fmt.pair_check is None:
        return ()
    check = fmt.pair_check(gold.path, pred.path, strict_tokens=strict_tokens)
    check.add(gold.source, pred.source)
    return check.notes()


# --------------------------------------------------------------------------- the registry

_REGISTRY: dict[str, Format] = {}
_plugins_loaded = False


def _load_builtin(name: str) -> Format:
    """The built-in format ``name``, its module imported (and registered again if need be)."""
    module = importlib.import_module(BUILTIN_FORMATS[name])
    found = _REGISTRY.get(name)
    if found is None:  # the module was imported before the registry was emptied
        found = register_format(module.FORMAT)
    return found


def _load_builtins() -> None:
    for name in BUILTIN_FORMATS:
        if name not in _REGISTRY:
            _load_builtin(name)


def _load_plugins() -> None:
    """Import every format named by an entry point of :data:`ENTRY_POINT_GROUP` (once)."""
    global _plugins_loaded
    if _plugins_loaded:
        return
    from importlib.metadata import entry_points

    for ep in entry_points(group=ENTRY_POINT_GROUP):
        try:
            obj = ep.load()
        except Exception as exc:  # a broken plugin: say which, whatever it raised
            raise OptionError(
                f"The format plugin {ep.name!r} ({ep.value}) cannot be loaded: {exc} Fix or "
                "uninstall the package that provides it.", option="format") from exc
        if isinstance(obj, Format) and _REGISTRY.get(obj.name) is not obj:
            register_format(obj)
        if ep.name not in _REGISTRY:
            raise OptionError(
                f"The entry point {ep.name!r} ({ep.value}) of group {ENTRY_POINT_GROUP!r} "
                f"registers no format named {ep.name!r}: it must name a Format record, or a "
                "module that calls register_format, under the format's name.", option="format")
    _plugins_loaded = True


def register_format(fmt: Format) -> Format:
    """Add a format to the registry; returns it (``FORMAT = register_format(Format(...))``).

    Parameters
    ----------
    fmt : Format
        The record. Registering the same record again does nothing.

    Returns
    -------
    Format
        ``fmt``.

    Raises
    ------
    OptionError
        When another format has the name, or claims one of the suffixes.

    Examples
    --------
    >>> register_format(get_format("jsonl")) is get_format("jsonl")
    True
    """
    if not isinstance(fmt, Format):
        raise OptionError(f"Expected a nerscore.io.formats.Format; got {type(fmt).__name__}.",
                          option="format")
    if fmt.name not in BUILTIN_FORMATS:
        _load_builtins()  # so that a clash with a built-in is seen
    old = _REGISTRY.get(fmt.name)
    if old is fmt:
        return fmt
    if old is not None:
        raise OptionError(f"A format named {fmt.name!r} is already registered ({old.summary}); "
                          "register yours under another name.", option="name")
    for other in _REGISTRY.values():
        shared = sorted(set(fmt.suffixes) & set(other.suffixes))
        if shared:
            raise OptionError(
                f"Format {fmt.name!r} claims {', '.join(shared)}, which format "
                f"{other.name!r} claims already; choose other suffixes (a file is read as "
                f"{fmt.name!r} whatever its name with --gold-format/--pred-format {fmt.name} or "
                f"gold_format={fmt.name!r}).", option="suffixes")
    _REGISTRY[fmt.name] = fmt
    return fmt


def _known() -> list[str]:
    builtins = [n for n in BUILTIN_FORMATS if n in _REGISTRY]
    return builtins + [n for n in _REGISTRY if n not in BUILTIN_FORMATS]


def format_names() -> tuple[str, ...]:
    """Every format name: the built-ins, then those of other packages in registration order.

    Returns
    -------
    tuple of str

    Examples
    --------
    >>> format_names()[:4]
    ('conll', 'jsonl', 'brat', 'parquet')
    """
    _load_builtins()
    _load_plugins()
    return tuple(_known())


def get_format(name: str | Format) -> Format:
    """The format called ``name`` (a :class:`Format` is returned as it is).

    Parameters
    ----------
    name : str or Format
        A registered format name.

    Returns
    -------
    Format

    Raises
    ------
    OptionError
        For an unknown name: the message lists the known ones and the close match.

    Examples
    --------
    >>> get_format("parquet").suffixes
    ('.parquet', '.pq')
    >>> get_format("jsnol")
    Traceback (most recent call last):
    ...
    nerscore.errors.OptionError: Unknown format 'jsnol'; the formats are 'conll', 'jsonl', 'brat', 'parquet', 'label-studio', 'doccano', 'prodigy', 'webanno', 'hf', 'spacy'. Did you mean 'jsonl'?
    """
    if isinstance(name, Format):
        return name
    if isinstance(name, str):
        found = _REGISTRY.get(name)
        if found is not None:
            return found
        if name in BUILTIN_FORMATS:
            return _load_builtin(name)
    names = format_names()
    if isinstance(name, str) and name in _REGISTRY:  # registered by an entry point
        return _REGISTRY[name]
    close = closest(str(name), names)
    hint = f" Did you mean {close!r}?" if close else ""
    raise OptionError(f"Unknown format {name!r}; the formats are "
                      f"{', '.join(repr(n) for n in names)}.{hint}", option="format")


def _claimed(path: str, formats: Sequence[Format]) -> Format | None:
    """The format with the longest suffix ``path`` ends with; else a folder format for a folder."""
    best, size = None, 0
    for fmt in formats:
        k = fmt.claim(path)
        if k > size:
            best, size = fmt, k
    if best is not None:
        return best
    if os.path.isdir(path) or path.endswith(("/", os.sep)):
        if os.path.isdir(path):
            found = next((f for f in formats if f.detect is not None and f.detect(path)), None)
            if found is not None:
                return found
        return next((f for f in formats if f.folder), None)
    return None


def guess_format(path: str | os.PathLike[str], given: str | Format | None = None) -> Format:
    """The format of ``path``: ``given``, else the one its name says.

    ``.jsonl``/``.json``/``.ndjson`` is JSON Lines, ``.parquet``/``.pq``
    Parquet, a folder or ``.ann`` file BRAT, anything else CoNLL; a suffix
    of a registered format is that format. Every command and
    :func:`nerscore.convert_file` guess this way.

    Parameters
    ----------
    path : str or path-like
        The file (or folder).
    given : str or Format, optional
        The format named by the user, which wins.

    Returns
    -------
    Format

    Raises
    ------
    OptionError
        For an unknown ``given``.

    Examples
    --------
    >>> [guess_format(p).name for p in ("gold.jsonl", "pred.parquet", "x.conll", "eng.testa")]
    ['jsonl', 'parquet', 'conll', 'conll']
    >>> guess_format("a.conll", "brat").name
    'brat'
    """
    if given is not None:
        return get_format(given)
    p = os.fspath(path)
    loaded = [_REGISTRY[n] for n in _known()]
    suffixed = [f for f in loaded if f.claim(p)]
    if suffixed:
        return max(suffixed, key=lambda f: f.claim(p))
    for name in BUILTIN_FORMATS:  # the rest of the built-ins, one at a time
        if name not in _REGISTRY and _load_builtin(name).claim(p):
            return _REGISTRY[name]
    if os.path.isdir(p):  # a folder: every built-in may detect it
        _load_builtins()
    found = _claimed(p, [_REGISTRY[n] for n in _known()])
    if found is None and not _plugins_loaded:
        _load_plugins()
        found = _claimed(p, [_REGISTRY[n] for n in _known()])
    return found if found is not None else get_format(FALLBACK_FORMAT)
