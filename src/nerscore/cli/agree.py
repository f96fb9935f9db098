"""The ``agree`` and ``adjudicate`` subcommands: agreement between annotators, and a voted gold.

``nerscore agree A B [C ...]`` reads one file (or BRAT folder) per
annotator and prints :func:`nerscore.agreement`'s result;
``nerscore adjudicate A B C -o gold.conll`` writes :func:`nerscore.adjudicate`'s
documents in any writable format and prints a summary of what was decided
(docs/agreement.md).
"""

from __future__ import annotations

import argparse
import dataclasses
import itertools
import os
from typing import TYPE_CHECKING, Any

from nerscore.cli import _formats as fm, _options as opt
from nerscore.cli._labels import add_label_options, label_flags, label_kwargs
from nerscore.cli._output import (
    add_quiet_option,
    declare_files,
    output_renderer,
    write_result,
)

if TYPE_CHECKING:
    from nerscore.io.formats import Format, ReadResult

    Subparsers = argparse._SubParsersAction[argparse.ArgumentParser]

__all__ = ["register", "run_adjudicate", "run_agree"]

AGREE_DESCRIPTION = """\
Agreement between annotators of the same documents, one file (or BRAT folder)
per annotator: pairwise entity F1 under any matcher (a matrix, its mean and
per label), token-level Cohen's kappa (every pair), Fleiss' kappa and
Krippendorff's alpha, overall and per label, over all tokens and over the
tokens some annotator labelled; the least-agreed documents; the disagreements
by kind; bootstrap intervals over documents. Documents are joined by id (or
position); one that some annotator lacks is reported and left out of the pairs
that lack it. What lies in an annotator's ignore regions is left out, as score
leaves out predictions in gold's: a pair's F1 leaves out the entities that
overlap a region of either annotator of their label, the disagreements those
overlapping any annotator's region, kappa and alpha the tokens in regions; a
note counts them. --format html writes one page with the F1 heat map and every
disagreement in its sentence. spaCy .spacy files are read by their doc.ents,
or with --spans-key KEY by the span group doc.spans[KEY], which may hold
overlapping (nested) entities.
"""

AGREE_EXAMPLES = """\
examples:
  nerscore agree ann1.conll ann2.conll ann3.conll --names ana ben cai
  nerscore agree project/ann1 project/ann2 --format html -o agreement.html
  nerscore agree a.jsonl b.jsonl --match overlap --format json
  nerscore agree a.spacy b.spacy --spans-key sc
  nerscore agree ana.tsv ben.tsv --input-format webanno --layer Entity --feature label
"""

ADJUDICATE_DESCRIPTION = """\
One annotation from several by voting: an entity (same span and label) is kept
when at least --min-votes annotators marked it (default: a strict majority of
each document's annotators). Overlapping winners that no annotator marked
together conflict: more votes win, then the longer span, then the earlier
start, then the label in alphabetical order; ties are listed. Ignore regions are
voted on the same way (a kept one that overlaps an accepted entity of its label
is dropped); the summary counts them. The output format follows the -o name (or
--output-format): CoNLL in the input's scheme (--scheme; IOB2 when not given),
JSON Lines, a BRAT folder, or a spaCy .spacy file; --spans-key KEY reads and
writes .spacy files' span group doc.spans[KEY], which may hold the overlapping
(nested) entities that doc.ents cannot.
"""

ADJUDICATE_EXAMPLES = """\
examples:
  nerscore adjudicate ann1.conll ann2.conll ann3.conll -o gold.conll
  nerscore adjudicate a.jsonl b.jsonl c.jsonl d.jsonl --min-votes 3 -o gold.jsonl
  nerscore adjudicate a.spacy b.spacy c.spacy --spans-key sc -o gold.spacy
  nerscore adjudicate a.jsonl b.jsonl c.jsonl --input-format doccano --offsets utf16 -o gold.jsonl
"""


def _common(p: argparse.ArgumentParser) -> None:
    p.add_argument("files", metavar="FILE", nargs="+",
                   help="one annotation file (or BRAT folder) per annotator, two or more; or "
                        "one Label Studio export (--input-format label-studio) holding several "
                        "annotators")
    p.add_argument("--names", metavar="NAME", nargs="+", default=None,
                   help="one name per FILE (default: the file names)")
    p.add_argument("--input-format", type=fm.format_name, default=None, metavar="FORMAT",
                   help=fm.format_help("every FILE"))
    from nerscore.values.schemes import Mode

    p.add_argument("--mode", type=opt.enum_type(Mode, "mode"), default="lenient",
                   metavar="MODE", help="decoding of tags: lenient (default) or strict")
    add_quiet_option(p)
    opt.add_tag_options(p)
    opt.add_conll_options(p)
    fm.add_tool_options(p, annotator=False)
    add_label_options(p)


def register(subparsers: Subparsers) -> None:
    """Add the ``agree`` and ``adjudicate`` subcommands.

    Parameters
    ----------
    subparsers : argparse._SubParsersAction
        From ``ArgumentParser.add_subparsers()``.
    """
    p: argparse.ArgumentParser = subparsers.add_parser(
        "agree", help="agreement between annotators: F1, kappa, alpha, disagreements",
        description=AGREE_DESCRIPTION, epilog=AGREE_EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter, allow_abbrev=False)
    _common(p)
    p.add_argument("--format", default="text", metavar="FORMAT",
                   help="output format: text, markdown, json, html, or one a plugin registers "
                        "(default: text)")
    p.add_argument("-o", "--output", metavar="FILE", default=None,
                   help="write the result to FILE (default: standard output)")
    p.add_argument("--tags", action="store_true",
                   help="token level: compare raw tags instead of entity labels")
    p.add_argument("--tokenizer", choices=("words", "whitespace"), default="words",
                   help="tokens of span files with text (default: words)")
    p.add_argument("--digits", type=opt.non_negative_int, default=2, metavar="N",
                   help="decimals (default: 2)")
    fm.add_spans_key_option(p)
    opt.add_resampling_options(p, off=True)
    opt.add_match_options(p)
    declare_files(p, inputs=("files",), outputs={"output": "--output"})
    p.set_defaults(func=run_agree)

    q: argparse.ArgumentParser = subparsers.add_parser(
        "adjudicate", help="one annotation from several by majority vote",
        description=ADJUDICATE_DESCRIPTION, epilog=ADJUDICATE_EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter, allow_abbrev=False)
    _common(q)
    q.add_argument("--min-votes", type=opt._positive_int, default=None, metavar="N",
                   help="votes an entity needs, 1 to the number of annotators (default: a "
                        "strict majority)")
    q.add_argument("-o", "--output", metavar="PATH", required=True,
                   help="the adjudicated file (a folder for BRAT)")
    q.add_argument("--output-format", type=fm.format_name, default=None, metavar="FORMAT",
                   help="format of --output (default: guessed from its name)")
    fm.add_spans_key_option(q, sides=("every FILE", "the output"))
    declare_files(q, inputs=("files",), outputs={"output": "--output"})
    q.set_defaults(func=run_adjudicate)


def _note(command: str, message: str, kind: str = "note") -> None:
    from nerscore.cli._output import note

    note(command, message, kind=kind)


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


def _read(args: argparse.Namespace, command: str, output: Format | None = None
          ) -> tuple[dict[str, Any], dict[str, Any], list[ReadResult]]:
    """``{name: data}`` of the files, the tag options, and what was read.

    ``output`` is the format of ``adjudicate``'s output, which ``--spans-key``
    may name the span group of.
    """
    if len(args.files) == 1 and fm.input_format(args.files[0], args.input_format).name == (
            "label-studio"):
        _check_flags(args, [fm.input_format(args.files[0], args.input_format)], output)
        return _read_export(args, command)
    names = args.names if args.names is not None else [
        os.path.basename(os.path.normpath(f)) for f in args.files]
    if len(args.files) < 2:
        raise opt.UsageError(f"{command} needs two or more FILEs (one per annotator), or one "
                             "export holding several annotators (--input-format label-studio)")
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
        fm.check_span_options(args, (fmt for _, _, fmt in files))
    _check_flags(args, [fmt for _, _, fmt in files], output)
    tag_kw: dict[str, Any] = {}
    if kind == "tags":
        if args.mode == "strict" and args.scheme is None:
            raise opt.UsageError("--mode strict needs --scheme (nerscore never guesses it)")
        tag_kw = {"scheme": args.scheme, "mode": args.mode, **opt.tag_kwargs(args)}
    from nerscore.errors import OptionError

    try:
        read = [fmt.load(path, o) for (_, path, fmt), o in zip(files, options, strict=True)]
    except OptionError as exc:  # a FILE of several annotators: the reader's advice is score's
        if exc.option != "annotator" or "; choose " not in str(exc):
            raise
        raise opt.UsageError(
            f"{str(exc).split('; choose ')[0]}; {command} takes one annotator per FILE: give "
            "that export alone (--input-format label-studio) to compare its annotators, or "
            "export each annotator's annotations to a file of its own") from None
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
            _note(command, n)
    return dict(zip(names, (r.data for r in read), strict=True)), tag_kw, read


def _identical_files(args: argparse.Namespace, names: list[str]) -> tuple[str, ...]:
    """A note per pair of annotators whose files hold the same bytes."""
    from nerscore.io.atomic import same_content

    if len(args.files) != len(names):  # one export holding every annotator
        return ()
    return tuple(
        f"annotators {x!r} and {y!r} are the same file: {a} and {b} have identical content, "
        "so one annotation counts as two annotators."
        for (x, a), (y, b) in itertools.combinations(zip(names, args.files, strict=True), 2)
        if same_content(a, b))


def _token_notes(read: list[ReadResult], command: str) -> tuple[str, ...]:
    """The tokens that differ between two annotators' files, every pair; each also a warning."""
    from nerscore.io.formats import pair_notes

    notes = tuple(n for a, b in itertools.combinations(read, 2) for n in pair_notes(a, b))
    for n in notes:
        _note(command, n, kind="warning")
    return notes


def _read_export(args: argparse.Namespace, command: str) -> tuple[dict[str, Any],
                                                                  dict[str, Any], list[Any]]:
    """``{annotator: documents}`` of one Label Studio export holding several annotators."""
    from nerscore.io.label_studio import read_label_studio

    export = read_label_studio(args.files[0], encoding=args.encoding or "utf-8",
                               offsets=args.offsets)
    annotators = list(export.annotators)
    if len(annotators) < 2:
        raise opt.UsageError(f"{args.files[0]} holds the annotations of {len(annotators)} "
                             f"annotator(s); {command} needs two or more")
    names = args.names if args.names is not None else annotators
    if len(names) != len(annotators):
        raise opt.UsageError(f"--names gives {len(names)} name(s) for the {len(annotators)} "
                             f"annotators of {args.files[0]} ({', '.join(annotators)})")
    for n in export.notes(annotators):
        _note(command, n)
    return {str(name): export.documents(a) for name, a in zip(names, annotators, strict=True)}, {}, []


def run_agree(args: argparse.Namespace) -> int:
    """Run ``nerscore agree``.

    Parameters
    ----------
    args : argparse.Namespace
        Parsed arguments.

    Returns
    -------
    int
        The exit status (0).
    """
    import nerscore
    from nerscore.analysis.agreement.compute import undefined_note

    renderer = output_renderer(args, "agreement")
    ops = list(label_flags(args).values())
    if args.tags and ops:
        raise opt.UsageError(f"{', '.join(ops)} act on entities, but --tags compares the raw "
                             "tags of every token; leave out --tags or the label operations")
    data, tag_kw, read = _read(args, "agree")
    if args.tags and not tag_kw:
        raise opt.UsageError("--tags compares the raw tags of every token, but the FILEs hold "
                             "spans; leave --tags out")
    file_notes = _identical_files(args, list(data)) + _token_notes(read, "agree")
    resampling = {k: v for k, v in opt.resampling_kwargs(args).items() if v is not None}
    result = nerscore.agreement(data, match=args.match, tags=args.tags,
                                tokenizer=args.tokenizer, **resampling, **tag_kw,
                                **opt.match_kwargs(args))
    # the note of no entity, named by its files and said on stderr in every format
    undefined = undefined_note(result.n_documents, relabelled=bool(ops))
    if undefined in result.notes:
        named = undefined_note(result.n_documents, f" of {', '.join(args.files)}",
                               relabelled=bool(ops))
        file_notes = (named, *file_notes)
        result = dataclasses.replace(result, notes=tuple(n for n in result.notes
                                                         if n != undefined))
        if args.format == "text":
            _note("agree", named)
    if file_notes:
        result = dataclasses.replace(result, notes=file_notes + result.notes)
    if args.format not in ("text",):
        for n in result.notes:
            _note("agree", n)
    write_result(renderer.functions["agreement"](result, args.digits), args.output)
    if args.output is not None:
        _note("agree", f"wrote {args.output}")
    return 0


def run_adjudicate(args: argparse.Namespace) -> int:
    """Run ``nerscore adjudicate``.

    Parameters
    ----------
    args : argparse.Namespace
        Parsed arguments.

    Returns
    -------
    int
        The exit status (0).
    """
    import nerscore
    from nerscore.io.convert import write_documents, write_output
    from nerscore.io.convert.reading import TagChunk, WriteOptions
    from nerscore.io.formats import guess_format

    out_fmt = guess_format(args.output, args.output_format)
    data, tag_kw, read = _read(args, "adjudicate", out_fmt)
    if args.min_votes is not None and args.min_votes > len(data):
        raise opt.UsageError(f"--min-votes {args.min_votes} is more than the {len(data)} "
                             f"annotators; give a number from 1 to {len(data)}")
    for n in _identical_files(args, list(data)):
        _note("adjudicate", n)
    _token_notes(read, "adjudicate")
    docs, stats = nerscore.adjudicate(data, min_votes=args.min_votes, **tag_kw,
                                      **label_kwargs(args))
    if tag_kw:
        writer = out_fmt.write_tags
        if writer is None:
            raise opt.UsageError(f"the inputs are tag files but --output is a {out_fmt.name} "
                                 "file, which holds spans; write CoNLL (or Parquet)")
        first = read[0].data
        lengths = first.lengths.tolist()
        tags = nerscore.entities_to_tags(
            [nerscore.Entity(e.span, e.label, k) for k, d in enumerate(docs) for e in d.spans],
            lengths, scheme=args.scheme or "IOB2", suffix=args.suffix,
            delimiter=args.tag_delimiter, outside=args.outside)
        tokens = first.sentence_tokens()
        starts = [int(x) for x in (read[0].documents or ())]
        chunk = TagChunk(nerscore.EncodedTags.from_lists(tags), tokens, documents=starts)
        options = WriteOptions(outside=args.outside)
        write_output(out_fmt, args.output, lambda path: writer([chunk], path, options))
        for n in options.notes:
            _note("adjudicate", n, kind="warning")
    else:
        if out_fmt.write_spans is None:
            raise opt.UsageError(f"the inputs are span files but --output is a {out_fmt.name} "
                                 "file, which holds tags; write JSON Lines or BRAT")
        spans_key = args.spans_key if "spans_key" in out_fmt.options else None
        for n in write_documents(docs, args.output, out_fmt, spans_key=spans_key):
            _note("adjudicate", n, kind="warning")
    for line in stats.summary().splitlines():
        _note("adjudicate", line)
    for n in stats.notes:
        _note("adjudicate", n)
    _note("adjudicate", f"wrote {args.output}")
    return 0
