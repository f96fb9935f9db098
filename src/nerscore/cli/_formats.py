"""Input formats on the command line: the format options, and the formats and reader options of the files.

Every format comes from the registry (:mod:`nerscore.io.formats`): a format
option takes any registered name (checked when it is given, so that start-up
reads no plugin), each file gets the reader options of the CoNLL group that
its format takes, and a reading option that no input's format takes is a
usage error rather than ignored.
"""

from __future__ import annotations

import argparse
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from nerscore.cli import _options as opt
from nerscore.cli._unused import Table, Unused, it, refuse_unused

if TYPE_CHECKING:
    from nerscore.io.formats import Format

__all__ = [
    "add_dataset_options",
    "add_input_format_options",
    "add_spans_key_option",
    "add_tool_options",
    "check_reader_flags",
    "check_spans_key",
    "format_help",
    "format_name",
    "guessed_output",
    "guessed_output_note",
    "input_format",
    "reader_options",
    "same_kind",
    "tool_kwargs",
    "writers_of",
]

_NO_INPUT = "applies to no input"
_SPANS_KEY = Unused("--spans-key", "spans_key", None, "names a span group of .spacy files")
#: Reader keyword -> the reading option every file shares.
_SHARED = {keyword: Unused(flag, flag[2:].replace("-", "_"), default, _NO_INPUT)
           for keyword, flag, default in (
               ("token_column", "--token-column", 0), ("label_column", "--label-column", -1),
               ("column_delimiter", "--delimiter-columns", "auto"),
               ("comments", "--comments", False), ("encoding", "--encoding", "utf-8"),
               ("offsets", "--offsets", "auto"), ("layer", "--layer", "NamedEntity"),
               ("feature", "--feature", None), ("annotator", "--annotator", None),
               ("split", "--split", None), ("column", "--column", None),
               ("tokens_column", "--tokens-column", None), ("units", "--units", None),
               ("spans_key", "--spans-key", None))}
#: Reader keyword -> per-side flag (``{side}`` is gold or pred), unset unless given.
_PER_SIDE = {"label_column": "{side}-column", "encoding": "{side}-encoding",
             "annotator": "{side}-annotator"}
#: The reader keywords of annotation-tool formats, set by :func:`add_tool_options`.
_TOOL = ("offsets", "layer", "feature")


def format_name(value: str) -> str:
    """An argparse ``type``: a registered format name (the registry's error otherwise).

    Parameters
    ----------
    value : str
        What was given.

    Returns
    -------
    str
        The name.
    """
    from nerscore.errors import OptionError
    from nerscore.io.formats import get_format

    try:
        return get_format(value).name
    except OptionError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def format_help(what: str) -> str:
    """The help of a format option for ``what`` (its default: guessed from the name).

    Parameters
    ----------
    what : str
        What the option is the format of (``"GOLD"``).

    Returns
    -------
    str
    """
    return (f"format of {what}: conll, jsonl, brat, parquet, label-studio, doccano, prodigy, "
            "webanno, hf, spacy or one a package adds "
            "(docs/formats.md); default: from the name: .jsonl/.json is jsonl, .parquet "
            "parquet, .spacy spacy, a Hugging Face dataset folder hf, an INCEpTION project "
            "export folder webanno, another folder or .ann file brat, "
            "anything else conll")


def add_input_format_options(parser: argparse.ArgumentParser) -> None:
    """Add ``--gold-format`` and ``--pred-format``.

    Parameters
    ----------
    parser : argparse.ArgumentParser
        The subcommand's parser.
    """
    group = parser.add_argument_group("input formats")
    for side in ("gold", "pred"):
        group.add_argument(f"--{side}-format", type=format_name, default=None, metavar="FORMAT",
                           help=format_help(side.upper()))
    add_dataset_options(group)


def add_dataset_options(parser: argparse.ArgumentParser | argparse._ArgumentGroup, *,
                        sides: tuple[str, str] | None = None) -> None:
    """Add ``--split``, ``--column``, ``--tokens-column`` (records of tokens), ``--units`` and ``--spans-key`` (spaCy files).

    Parameters
    ----------
    parser : argparse.ArgumentParser or argument group
        Where to add them.
    sides : (str, str), optional
        What is read and what is written, when the command writes a
        ``.spacy`` file too (``convert``: ``("IN", "OUT")``; see
        :func:`add_spans_key_option`).
    """
    parser.add_argument("--split", default=None, metavar="NAME",
                        help="the split of a Hugging Face dataset on disk (train, "
                             "validation, test, ...); needed when it has several")
    parser.add_argument("--column", default=None, metavar="KEY",
                        help="the key of the tags of records of tokens: JSON Lines token "
                             "records (default: the first of ner_tags, tags, labels and ner "
                             "that the first record has; given, the file is read as token "
                             "records), Hugging Face datasets (default: ner_tags), Parquet tag "
                             "files (default: labels)")
    parser.add_argument("--tokens-column", default=None, metavar="KEY",
                        help="the key of the tokens of those records (default: tokens)")
    parser.add_argument("--units", choices=("char", "token"), default=None,
                        help="spaCy .spacy files: spans by character (default) or token "
                             "offsets")
    add_spans_key_option(parser, sides=sides)


def add_spans_key_option(parser: argparse.ArgumentParser | argparse._ArgumentGroup, *,
                         sides: tuple[str, str] | None = None) -> None:
    """Add ``--spans-key``: the span group of spaCy ``.spacy`` files instead of ``doc.ents``.

    Parameters
    ----------
    parser : argparse.ArgumentParser or argument group
        Where to add it.
    sides : (str, str), optional
        What is read and what is written (``("IN", "OUT")``), when the
        command writes a ``.spacy`` file too: the help says that the group is
        written there as well (:func:`check_spans_key` checks that some file
        is a ``.spacy`` file).
    """
    spans_help = ("spaCy .spacy files: read the span group doc.spans[KEY] instead of "
                  "doc.ents")
    if sides is not None:
        read, written = sides
        spans_help = ("spaCy .spacy files: the span group doc.spans[KEY] instead of "
                      f"doc.ents, read from {read} and written to {written} (the same KEY when "
                      "both are .spacy); written spans may overlap, and "
                      f"{written}'s doc.ents is left unannotated")
    parser.add_argument("--spans-key", default=None, metavar="KEY", help=spans_help)


def check_spans_key(args: argparse.Namespace, formats: Iterable[Format], where: str) -> None:
    """Refuse ``--spans-key`` when no input and no output is a file of a format that takes it.

    A command that writes a ``.spacy`` file too uses this, and leaves
    ``spans_key`` out of :func:`check_reader_flags` (which looks at the
    inputs only).

    Parameters
    ----------
    args : argparse.Namespace
        Parsed arguments.
    formats : iterable of Format
        The formats of the inputs and of the output.
    where : str
        What the files are, for the message (``"IN is a jsonl file and OUT a
        conll file"``).

    Raises
    ------
    UsageError
    """
    if not any("spans_key" in f.options for f in formats):
        refuse_unused(args, _SPANS_KEY, where)


def add_tool_options(parser: argparse.ArgumentParser, *, sides: bool = True,
                     annotator: bool = True) -> None:
    """Add the reading options of annotation-tool exports (Label Studio, doccano, Prodigy, WebAnno).

    Parameters
    ----------
    parser : argparse.ArgumentParser
        The subcommand's parser.
    sides : bool
        ``--gold-annotator`` and ``--pred-annotator`` (commands with GOLD and
        PRED), else one ``--annotator`` (``convert``).
    annotator : bool
        Whether to add the annotator options at all: ``agree`` and
        ``adjudicate`` compare every annotator, so they have none.
    """
    group = parser.add_argument_group("annotation-tool exports (docs/formats.md)")
    if annotator and sides:
        group.add_argument("--gold-annotator", default=None, metavar="NAME",
                           help="label-studio, prodigy, webanno folders: the annotator whose "
                                "annotations are GOLD (default: the only one)")
        group.add_argument("--pred-annotator", default=None, metavar="NAME",
                           help="the annotator whose annotations are PRED; label-studio: "
                                "'predictions' (the default) or 'predictions:MODEL_VERSION'")
    elif annotator:
        group.add_argument("--annotator", default=None, metavar="NAME",
                           help="label-studio, prodigy, webanno folders: the annotator to read "
                                "(label-studio: or 'predictions')")
    group.add_argument("--offsets", choices=("auto", "python", "utf16"), default="auto",
                       help="label-studio, doccano: what offsets count: characters (python), "
                            "UTF-16 code units as in a browser (utf16), or decided from the "
                            "span texts, or by word boundaries where there are none, as in "
                            "doccano (auto, the default)")
    group.add_argument("--layer", default="NamedEntity", metavar="NAME",
                       help="webanno: the span layer to read, by its name or its last part "
                            "(default: NamedEntity)")
    group.add_argument("--feature", default=None, metavar="NAME",
                       help="webanno: the layer's feature holding the label (default: value)")


def tool_kwargs(args: argparse.Namespace, side: str | None = None) -> dict[str, Any]:
    """The annotation-tool reading options given (or their defaults), for one side.

    Parameters
    ----------
    args : argparse.Namespace
        Parsed arguments.
    side : {"gold", "pred"}, optional
        The side of the file: formats whose files hold both sides (Label
        Studio: annotations and predictions) take it as ``side``.

    Returns
    -------
    dict
    """
    out = {k: getattr(args, k) for k in _TOOL if hasattr(args, k)}
    annotator = getattr(args, f"{side}_annotator", None) if side else None
    if annotator is None:
        annotator = getattr(args, "annotator", None)
    if annotator is not None:
        out["annotator"] = annotator
    if side is not None:
        out["side"] = side
    return out


def input_format(path: str, given: str | None) -> Format:
    """The format of ``path``: ``given``, else guessed from its name.

    Parameters
    ----------
    path : str
        The file.
    given : str, optional
        The format option's value.

    Returns
    -------
    Format
    """
    from nerscore.io.formats import guess_format

    return guess_format(path, given)


def guessed_output(path: str, fmt: Format, given: str | None) -> bool:
    """Whether ``fmt`` is the format of an output ``path`` that no format claims (CoNLL).

    An output is guessed as an input is (:func:`nerscore.io.formats.guess_format`):
    a name no format claims by its suffix (``gold``, ``gold.out``) is
    CoNLL. A command that writes such a file says so in a note (its name is
    no sign of what it holds, and nothing reads it back to catch a wrong
    guess).

    Parameters
    ----------
    path : str
        The output.
    fmt : Format
        Its format, as guessed.
    given : str, optional
        The output format option's value.

    Returns
    -------
    bool

    Examples
    --------
    >>> from nerscore.io.formats import guess_format
    >>> [guessed_output(p, guess_format(p), None) for p in ("gold", "gold.conll", "gold.jsonl")]
    [True, False, False]
    """
    import os

    from nerscore.io.formats import FALLBACK_FORMAT

    return (given is None and fmt.name == FALLBACK_FORMAT and not fmt.claim(path)
            and not path.endswith(("/", os.sep)) and not os.path.isdir(path))


def guessed_output_note(path: str, fmt: Format, given: str | None, *, name: str,
                        format_flag: str) -> str | None:
    """The note of a command that writes ``path`` in a format guessed for a name no format claims.

    One rule for every command that writes a data file whose format comes
    from the output's name (``convert``, ``adjudicate``):
    :func:`guessed_output` decides, and this says it.

    Parameters
    ----------
    path : str
        The output.
    fmt : Format
        Its format, as guessed.
    given : str, optional
        The output format option's value.
    name : str
        How the command line names the output (``"--output"``, ``"OUT"``).
    format_flag : str
        The output format option (``"--output-format"``, ``"--to-format"``).

    Returns
    -------
    str or None
        None when the format was given or the name claims it.

    Examples
    --------
    >>> from nerscore.io.formats import guess_format
    >>> print(guessed_output_note("gold", guess_format("gold"), None, name="OUT",
    ...                           format_flag="--to-format"))
    OUT gold has no suffix a format claims, so it is written as a conll file, as an input so named is read; name it with a format's suffix (.conll, .jsonl, ...) or give --to-format to write another format.
    >>> guessed_output_note("gold.conll", guess_format("gold.conll"), None, name="OUT",
    ...                     format_flag="--to-format") is None
    True
    """
    if not guessed_output(path, fmt, given):
        return None
    return (f"{name} {path} has no suffix a format claims, so it is written as a {fmt.name} "
            "file, as an input so named is read; name it with a format's suffix (.conll, "
            f".jsonl, ...) or give {format_flag} to write another format.")


def writers_of(kind: str, format_flag: str) -> str:
    """The registered formats that write ``kind``, each as a name says it, for advice.

    Parameters
    ----------
    kind : {"tags", "spans"}
        What is to be written.
    format_flag : str
        The output format option (``--output-format``), for the formats that
        claim no suffix.

    Returns
    -------
    str

    Examples
    --------
    >>> writers_of("tags", "--output-format")
    'conll (.conll) or parquet (.parquet)'
    """
    from nerscore.io.formats import format_names, get_format

    named, flagged = [], []
    for name in format_names():
        fmt = get_format(name)
        if (fmt.write_tags if kind == "tags" else fmt.write_spans) is None:
            continue
        if fmt.folder:
            named.append(f"{name} (a folder)")
        elif fmt.suffixes:
            named.append(f"{name} ({fmt.suffixes[0]})")
        else:
            flagged.append(name)
    listed = _listed(named)
    if flagged:
        listed += (f"; or, with {format_flag}, {_listed(flagged)}" if named
                   else f"{_listed(flagged)} (with {format_flag})")
    return listed


def _listed(names: Sequence[str]) -> str:
    return " or ".join([", ".join(names[:-1]), names[-1]] if len(names) > 1 else names)


def reader_options(args: argparse.Namespace, fmt: Format, side: str | None = None) -> dict[str, Any]:
    """The reading options given (or their defaults) that the readers of ``fmt`` take.

    Parameters
    ----------
    args : argparse.Namespace
        Parsed arguments of a command with the CoNLL options.
    fmt : Format
        The file's format.
    side : {"gold", "pred"}, optional
        The side of the file, for ``--gold-column`` and ``--gold-encoding``.

    Returns
    -------
    dict
    """
    given = opt.conll_kwargs(args) if side is None else opt.side_conll_kwargs(args, side)
    given.update(tool_kwargs(args, side))
    for name in ("split", "column", "tokens_column", "units", "spans_key"):
        if getattr(args, name, None) is not None:
            given[name] = getattr(args, name)
    return {k: v for k, v in given.items() if k in fmt.options}


def check_reader_flags(args: argparse.Namespace, files: Sequence[tuple[str | None, Format]], *,
                       ignore: Sequence[str] = ()) -> None:
    """Refuse a reading option given that no file's format takes.

    Parameters
    ----------
    args : argparse.Namespace
        Parsed arguments.
    files : sequence of (side, Format)
        Every input file's side (``"gold"``, ``"pred"`` or None) and format.
    ignore : sequence of str
        Reader keywords the command uses otherwise too (``convert`` writes
        its output in ``--encoding``).

    Raises
    ------
    UsageError
        Naming the options and the formats of the files.
    """
    refused = [row for keyword, row in _SHARED.items() if keyword not in ignore
               and not any(keyword in f.options for _, f in files)]
    for keyword, template in _PER_SIDE.items():
        for side, fmt in files:
            if side is None or keyword in fmt.options:
                continue
            flag = "--" + template.format(side=side)
            row = Unused(flag, flag[2:].replace("-", "_"), None, _NO_INPUT)
            if row not in refused:
                refused.append(row)
    names = ", ".join(dict.fromkeys(f.name for _, f in files))
    refuse_unused(args, Table("apply to no input", tuple(refused)), lambda given: (
        f"the inputs are {names} files, whose readers do not take {it(given)}"),
        then=", or set the format options if a format was guessed wrongly from the file name")


def same_kind(files: Sequence[tuple[str, str, Format, dict[str, Any]]], advice: str) -> str:
    """What every file holds (``"tags"`` or ``"spans"``), the same for all.

    Parameters
    ----------
    files : sequence of (label, path, Format, reader options)
        The inputs; ``label`` names one in the message (``"GOLD"``).
    advice : str
        What to do, for the message (which format options to set).

    Returns
    -------
    str

    Raises
    ------
    UsageError
        When some hold tags and others spans (a file that cannot be opened
        is taken to hold what the first one holds: its reader says why).
    """
    label0, path0, fmt0, options0 = files[0]
    first = fmt0.kind_of(path0, options0)
    # a later file that cannot be read takes the first one's kind: its error comes when it is
    # read, after the first file's reader error (files are read in order)
    kinds = [(label0, fmt0, first), *((label, fmt, fmt.kind_of(path, options, unread=first))
                                      for label, path, fmt, options in files[1:])]
    if len({k for *_, k in kinds}) > 1:
        shown = ", ".join(f"{label} is {fmt.name} ({kind})" for label, fmt, kind in kinds)
        raise opt.UsageError(f"give all files as tag files or all as span files; {shown} "
                             f"({advice})")
    return kinds[0][2]
