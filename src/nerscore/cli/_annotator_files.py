"""The annotators of ``nerscore agree`` and ``adjudicate``: one FILE each, or one export of several.

:func:`read_annotators` reads one file (or folder) per annotator, or one file
whose format holds several annotators' annotations (a Label Studio export, a
Prodigy dataset, an INCEpTION project export: the formats with an
``annotators`` reader), and returns
``{annotator: data}``. A FILE of several annotators among several FILEs is a
usage error that says how to compare them.
"""

from __future__ import annotations

import argparse
import itertools
import os
from typing import TYPE_CHECKING, Any

from nerscore.cli import _formats as fm, _options as opt
from nerscore.cli._output import note
from nerscore.cli._unused import check_span_inputs

if TYPE_CHECKING:
    from nerscore.errors import AnnotatorChoiceError
    from nerscore.io.formats import Format, ReadResult

__all__ = ["export_formats", "identical_files", "read_annotators", "token_notes"]


def export_formats() -> list[str]:
    """The built-in formats whose one file may hold several annotators (``label-studio``, ...)."""
    from nerscore.io.formats import BUILTIN_FORMATS, get_format

    return [name for name in BUILTIN_FORMATS if get_format(name).annotators is not None]


def _check_flags(args: argparse.Namespace, formats: list[Format],
                 output: Format | None) -> None:
    """Refuse a reading option that no FILE's format takes (``--spans-key``: nor the output's)."""
    ignore: tuple[str, ...] = ()
    if output is not None:
        names = ", ".join(dict.fromkeys(f.name for f in formats))
        fm.check_spans_key(args, [*formats, output],
                           f"the FILEs are {names} files and --output a {output.name} file")
        ignore = ("spans_key",)
    fm.check_reader_flags(args, [(None, fmt) for fmt in formats], ignore=ignore)


def _check_output(args: argparse.Namespace, output: Format | None, kind: str) -> None:
    """Refuse an output format that cannot hold what the annotators' files hold, before reading.

    The advice lists the registered formats that write ``kind``.
    """
    if output is None or (output.write_tags if kind == "tags" else output.write_spans):
        return
    if fm.guessed_output(args.output, output, args.output_format):
        what = (f"--output {args.output} has no suffix a format claims, so it is a "
                f"{output.name} file")
    else:
        what = f"--output is a {output.name} file"
    other = "spans" if kind == "tags" else "tags"
    holds = (f"which holds {other}" if (output.write_spans if kind == "tags" else output.write_tags)
             else "which nerscore does not write")
    raise opt.UsageError(f"the inputs are {kind[:-1]} files but {what}, {holds}; write a format "
                         f"that holds {kind}: {fm.writers_of(kind, '--output-format')}")


def _several(exc: AnnotatorChoiceError, fmt: Format, command: str) -> str:
    """The advice for a FILE of several annotators (or of none) among others."""
    from nerscore.errors import quoted

    who = exc.annotators
    if not who:
        return (f"{exc.source} holds annotations of no annotator; {command} takes one "
                "annotator's annotations per FILE")
    held = (f"{len(who)} annotators ({', '.join(map(quoted, who))})" if len(who) > 1
            else "several annotators")
    alone = (f"give that export alone (--input-format {fmt.name}) to compare its annotators, or "
             if fmt.annotators is not None else "")
    return (f"{exc.source} holds annotations of {held}; {command} takes one annotator per FILE: "
            f"{alone}export each annotator's annotations to a file of its own")


def _check_layout(path: str, given: str | None) -> None:
    """Raise FormatError for one FILE laid out as an INCEpTION export that is not read as one.

    Such a folder (a stray ``.tsv`` file deeper than ``annotation/DOC/``, or
    document folders of XMI files and no WebAnno TSV) is guessed as a
    folder of documents, whose one FILE would get the advice to give two
    FILEs: the error says which files break the layout instead.
    """
    if given is not None or not os.path.isdir(path):
        return
    from nerscore.errors import FormatError
    from nerscore.io._webanno_export import layout_problem

    problem = layout_problem(path)
    if problem is not None:
        raise FormatError(problem, source=path)


#: Set folders the advice for one BRAT folder of several annotation sets names.
_SETS_SHOWN = 5


def _check_sets(args: argparse.Namespace, command: str) -> None:
    """Raise UsageError for one BRAT folder that holds several annotators' annotation sets.

    Such a folder (``ana/doc.ann`` and ``ben/doc.ann``, or
    ``annotation/SET/doc.ann``) reads as one annotator's documents; the
    error gives the command that compares the sets: each set's folder as
    a FILE of its own (the first :data:`_SETS_SHOWN`, then how many more).
    """
    path = args.files[0]
    if not os.path.isdir(path) or fm.input_format(path, args.input_format).name != "brat":
        return
    import shlex

    from nerscore.io.brat import annotation_sets

    sets = [shlex.quote(os.path.join(path, *s.split("/"))) for s in annotation_sets(path)]
    if not sets:
        return
    output = getattr(args, "output", None)
    given = f" -o {shlex.quote(output)}" if output is not None else ""
    more = len(sets) - _SETS_SHOWN
    raise opt.UsageError(
        f"{path} is one BRAT folder holding {len(sets)} annotation sets (folders whose "
        f"documents have the same names); {command} takes one FILE per annotator: give each "
        f"set's folder as its own FILE: 'nerscore {command}{given} "
        f"{' '.join(sets[:_SETS_SHOWN])}'{f' and {more} more' if more > 0 else ''}")


def read_annotators(args: argparse.Namespace, command: str, output: Format | None = None
                    ) -> tuple[dict[str, Any], dict[str, Any], list[ReadResult]]:
    """``{name: data}`` of the annotators, the tag options, and the files read one per annotator.

    Parameters
    ----------
    args : argparse.Namespace
        Parsed arguments of ``agree`` or ``adjudicate``.
    command : str
        Its name, for messages.
    output : Format, optional
        The format of ``adjudicate``'s output, which ``--spans-key`` may name
        the span group of, and which must hold what the FILEs hold (checked
        before they are read).

    Returns
    -------
    (dict, dict, list of ReadResult)
        The data by annotator; the tag options (empty for spans); what was
        read, one per FILE (empty for one export of several annotators).

    Raises
    ------
    UsageError
        For FILEs and names that do not fit, a FILE of several annotators
        among others, or an ``output`` that cannot hold what they hold.
    FormatError
        For one FILE laid out as an INCEpTION project export that is not
        read as one, naming the files that break the layout.
    """
    if len(args.files) == 1:
        fmt = fm.input_format(args.files[0], args.input_format)
        if fmt.annotators is not None:
            _check_flags(args, [fmt], output)
            _check_output(args, output, fmt.kind_of(args.files[0], fm.reader_options(args, fmt)))
            return _read_export(args, fmt, command), {}, []
    names = args.names if args.names is not None else [
        os.path.basename(os.path.normpath(f)) for f in args.files]
    if len(args.files) < 2:
        _check_layout(args.files[0], args.input_format)
        _check_sets(args, command)
        names = export_formats()
        listed = " or ".join([", ".join(names[:-1]), names[-1]] if len(names) > 1 else names)
        raise opt.UsageError(f"{command} needs two or more FILEs (one per annotator), or one "
                             f"export holding several annotators (--input-format {listed})")
    if len(names) != len(args.files):
        raise opt.UsageError(f"--names gives {len(names)} name(s) for {len(args.files)} FILE(s); "
                             "give one name per FILE")
    from nerscore.io.atomic import same_file

    for (i, a), (j, b) in itertools.combinations(enumerate(args.files), 2):
        if same_file(a, b):
            raise opt.UsageError(f"FILE {a} is given twice (FILEs {i + 1} and {j + 1}); give "
                                 "each annotator's file once")
    twice = next((n for k, n in enumerate(names) if n in names[:k]), None)
    if twice is not None:
        source = "--names" if args.names is not None else "the FILE names"
        raise opt.UsageError(f"{source} must be distinct, but {twice!r} is given twice; give "
                             "--names with one distinct name per FILE")
    files = [(path, path, fm.input_format(path, args.input_format)) for path in args.files]
    options = [fm.reader_options(args, fmt) for _, _, fmt in files]
    kind = fm.same_kind([(label, path, fmt, o) for (label, path, fmt), o
                         in zip(files, options, strict=True)],
                        "set --input-format if a format was guessed wrongly")
    if kind == "spans":
        check_span_inputs(args, (fmt for _, _, fmt in files))
    _check_flags(args, [fmt for _, _, fmt in files], output)
    _check_output(args, output, kind)
    tag_kw: dict[str, Any] = {}
    if kind == "tags":
        if args.mode == "strict" and args.scheme is None:
            raise opt.UsageError("--mode strict needs --scheme (nerscore never guesses it)")
        tag_kw = {"scheme": args.scheme, "mode": args.mode, **opt.tag_kwargs(args)}
    from nerscore.errors import AnnotatorChoiceError

    read = []
    for (_, path, fmt), o in zip(files, options, strict=True):
        try:
            read.append(fmt.load(path, o))
        except AnnotatorChoiceError as exc:  # the reader's advice is score's
            raise opt.UsageError(_several(exc, fmt, command)) from None
    empty = [r.path for r in read if len(r.data) == 0]
    if empty:
        from nerscore.errors import FormatError

        what = " (no sentence, no token)" if kind == "tags" else ""
        raise FormatError(f"{', '.join(empty)} {'holds' if len(empty) == 1 else 'hold'} no "
                          f"documents{what}, so there is nothing to compare; "
                          "give each annotator's file of the same documents (set "
                          "--input-format if a format was guessed wrongly).", source=empty[0])
    for r in read:
        for n in r.notes:
            note(command, n)
    return dict(zip(names, (r.data for r in read), strict=True)), tag_kw, read


def _read_export(args: argparse.Namespace, fmt: Format, command: str) -> dict[str, Any]:
    """``{annotator: documents}`` of one export holding several annotators.

    An annotator without documents (every annotation cancelled, rejected or
    ignored) is left out, noted; fewer than two left is an error naming them.
    """
    from nerscore.errors import FormatError, quoted

    assert fmt.annotators is not None
    path = args.files[0]
    sets = fmt.annotators(path, fm.reader_options(args, fmt))
    annotators = list(sets.documents)
    listed = ", ".join(map(quoted, annotators)) or "none"
    for n in sets.notes:
        note(command, n)
    names = [str(n) for n in args.names] if args.names is not None else annotators
    if args.names is not None and len(names) != len(annotators):
        raise opt.UsageError(f"--names gives {len(names)} name(s) for the {len(annotators)} "
                             f"annotators of {path} ({listed}); give one name per annotator, "
                             "in that order")
    twice = next((n for k, n in enumerate(names) if n in names[:k]), None)
    if twice is not None:
        raise opt.UsageError(f"--names must be distinct, but {twice!r} is given twice; give one "
                             f"distinct name per annotator of {path} ({listed})")
    empty = [a for a in annotators if not sets.documents[a]]
    if empty:
        note(command, f"{path}: {len(empty)} annotator(s) have no document (every annotation "
                       f"of theirs is left out) and are not compared: "
                       f"{', '.join(map(quoted, empty))}.")
    kept = {name: sets.documents[a] for name, a in zip(names, annotators, strict=True)
            if a not in empty}
    if len(kept) < 2:
        who = (f"{len(annotators)} annotator(s) ({listed})" if annotators
               else "no annotator's annotations")
        with_docs = f", {len(kept)} with documents" if empty else ""
        raise FormatError(f"{path} holds {who}{with_docs}; {command} needs two or more "
                          "annotators of the same documents: give an export of several, or one "
                          "FILE per annotator.", source=path)
    return kept


def identical_files(args: argparse.Namespace, names: list[str]) -> tuple[str, ...]:
    """A note per pair of annotators whose files hold the same bytes."""
    from nerscore.io.atomic import same_content

    if len(args.files) != len(names):  # one export holding every annotator
        return ()
    return tuple(
        f"annotators {x!r} and {y!r} are the same file: {a} and {b} have identical content, "
        "so one annotation counts as two annotators."
        for (x, a), (y, b) in itertools.combinations(zip(names, args.files, strict=True), 2)
        if same_content(a, b))


def token_notes(read: list[ReadResult], command: str) -> tuple[str, ...]:
    """The tokens that differ between two annotators' files, every pair; each also a warning.

    Raises
    ------
    LengthMismatchError
        For two files whose sentences differ in number or length, worded
        for annotators (not for a gold and a prediction).
    """
    from nerscore.errors import LengthMismatchError
    from nerscore.io._conll_align import ONE_TAG_PER_TOKEN
    from nerscore.io.formats import pair_notes

    try:
        notes = tuple(n for a, b in itertools.combinations(read, 2) for n in pair_notes(a, b))
    except LengthMismatchError as exc:
        message = str(exc).replace(ONE_TAG_PER_TOKEN, "every annotator must tag the same tokens")
        raise LengthMismatchError(message, sentence=exc.sentence, expected=exc.expected,
                                  actual=exc.actual) from None
    for n in notes:
        note(command, n, kind="warning")
    return notes
