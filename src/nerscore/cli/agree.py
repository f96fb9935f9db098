"""The ``agree`` and ``adjudicate`` subcommands: agreement between annotators, and a voted gold.

``nerscore agree A B [C ...]`` reads one file (or BRAT folder) per
annotator, or one export holding several (:mod:`nerscore.cli._annotator_files`),
and prints :func:`nerscore.agreement`'s result;
``nerscore adjudicate A B C -o gold.conll`` writes :func:`nerscore.adjudicate`'s
documents in any writable format and prints a summary of what was decided
(docs/agreement.md).
"""

from __future__ import annotations

import argparse
import dataclasses
from typing import TYPE_CHECKING

from nerscore.cli import _formats as fm, _options as opt
from nerscore.cli._annotator_files import identical_files, read_annotators, token_notes
from nerscore.cli._arg_types import display_name, enum_type, non_negative_int, positive_int
from nerscore.cli._labels import add_label_options, label_flags, label_kwargs
from nerscore.cli._output import (
    FormatGiven,
    add_quiet_option,
    declare_files,
    declare_formats,
    note,
    output_renderer,
    write_result,
)
from nerscore.cli._unused import LABEL_OPS, Table, Unused, refuse_unused

if TYPE_CHECKING:
    Subparsers = argparse._SubParsersAction[argparse.ArgumentParser]

__all__ = ["register", "run_adjudicate", "run_agree"]

_TAGS = Unused("--tags", "tags", False, "compares the raw tags of every token")
#: The options of the bootstrap intervals, which ``--resamples 0`` turns off.
_INTERVALS = Table("apply to the bootstrap intervals", (
    Unused("--level", "level", None, "sets the confidence level of the bootstrap intervals"),
    Unused("--seed", "seed", None, "seeds the resamples of the bootstrap intervals"),
))

AGREE_DESCRIPTION = """\
Agreement between annotators of the same documents, one file (or BRAT folder)
per annotator, or one export holding several (a Label Studio export; a Prodigy
dataset from prodigy db-out, whose examples of one input are told apart by
_annotator_id or _session_id, rejected and ignored ones counted and left out;
an INCEpTION project export folder, annotation/DOC/USER.tsv, its curation left
out): pairwise entity F1 under any matcher (a matrix, its mean and per label),
token-level Cohen's kappa (every pair), Fleiss' kappa and Krippendorff's alpha,
overall and per label, over all tokens and over the tokens some annotator
labelled; the least-agreed documents; the disagreements by kind; bootstrap
intervals over documents. Documents are joined by id (or position); one that
some annotator lacks is reported and left out of the pairs that lack it. Tag
files (CoNLL) are paired sentence by sentence, each sentence a document: the
output counts sentences. What
lies in an annotator's ignore regions is left out, as score leaves out
predictions in gold's: a pair's F1 leaves out the entities that overlap a
region of either annotator of their label, the disagreements those overlapping
any annotator's region, kappa and alpha the tokens in regions; a note counts
them. --format html writes one page with the F1 heat map and every disagreement
in its sentence. spaCy .spacy files are read by their doc.ents, or with
--spans-key KEY by the span group doc.spans[KEY], which may hold overlapping
(nested) entities.
"""

AGREE_EXAMPLES = """\
examples:
  nerscore agree ann1.conll ann2.conll ann3.conll --names ana ben cai
  nerscore agree dataset.jsonl --input-format prodigy
  nerscore agree inception_export/
  nerscore agree project/ann1 project/ann2 -o agreement.html
  nerscore agree a.jsonl b.jsonl --match overlap --format json
  nerscore agree a.spacy b.spacy --spans-key sc
  nerscore agree ana.tsv ben.tsv --input-format webanno --layer Entity --feature label
"""

ADJUDICATE_DESCRIPTION = """\
One annotation from several by voting: an entity (same span and label) is kept
when at least --min-votes annotators marked it (default: a strict majority of
each document's annotators). The annotators are one FILE each, or those of one
Label Studio, Prodigy or INCEpTION export (as in agree). Overlapping winners
that no annotator marked together conflict: more votes win, then the longer
span, then the earlier start, then the label in alphabetical order; ties are
listed. Ignore regions are voted on the same way (a kept one that overlaps an
accepted entity of its label is dropped); the summary counts them. The output
format follows the -o name (or --output-format), guessed as an input's is, and
must hold what the FILEs hold (checked before they are read): for tag files
CoNLL in the input's scheme (--scheme; IOB2 when not given) or Parquet; for
span files JSON Lines, a BRAT folder, Parquet, a spaCy .spacy file, or Label
Studio, doccano or Prodigy JSON (named with --output-format). A name no format
claims by its suffix is CoNLL, noted. --spans-key KEY reads and writes .spacy
files' span group doc.spans[KEY], which may hold the overlapping (nested)
entities that doc.ents cannot.
"""

ADJUDICATE_EXAMPLES = """\
examples:
  nerscore adjudicate ann1.conll ann2.conll ann3.conll -o gold.conll
  nerscore adjudicate a.jsonl b.jsonl c.jsonl d.jsonl --min-votes 3 -o gold.jsonl
  nerscore adjudicate export.json --input-format label-studio -o gold.jsonl
  nerscore adjudicate inception_export/ -o gold.jsonl
  nerscore adjudicate a.spacy b.spacy c.spacy --spans-key sc -o gold.spacy
  nerscore adjudicate a.jsonl b.jsonl c.jsonl --input-format doccano --offsets utf16 -o gold.jsonl
"""


def _common(p: argparse.ArgumentParser) -> None:
    p.add_argument("files", metavar="FILE", nargs="+",
                   help="one annotation file (or BRAT folder) per annotator, two or more; or "
                        "one export holding several annotators (--input-format label-studio "
                        "or prodigy, or an INCEpTION project export folder)")
    p.add_argument("--names", metavar="NAME", nargs="+", default=None, type=display_name,
                   help="one name per FILE, or per annotator of one export (default: the file "
                        "names, or the export's annotators)")
    p.add_argument("--input-format", type=fm.format_name, default=None, metavar="FORMAT",
                   help=fm.format_help("every FILE"))
    from nerscore.values.schemes import Mode

    p.add_argument("--mode", type=enum_type(Mode, "mode"), default="lenient",
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
    p.add_argument("--format", default="text", metavar="FORMAT", action=FormatGiven,
                   help="output format: text, markdown, json, html, or one a plugin registers "
                        "(default: text, or the one the suffix of the output file names: "
                        ".json, .md, .html)")
    declare_formats(p, kind="agreement")
    p.add_argument("-o", "--output", metavar="FILE", default=None,
                   help="write the result to FILE (default: standard output)")
    p.add_argument("--tags", action="store_true",
                   help="token level: compare raw tags instead of entity labels")
    p.add_argument("--tokenizer", choices=("words", "whitespace"), default="words",
                   help="tokens of span files with text (default: words)")
    p.add_argument("--digits", type=non_negative_int, default=2, metavar="N",
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
    q.add_argument("--min-votes", type=positive_int, default=None, metavar="N",
                   help="votes an entity needs, 1 to the number of annotators (default: a "
                        "strict majority)")
    q.add_argument("-o", "--output", metavar="PATH", required=True,
                   help="the adjudicated file (a folder for BRAT)")
    q.add_argument("--output-format", type=fm.format_name, default=None, metavar="FORMAT",
                   help="format of --output (default: guessed from its name; a name no format "
                        "claims is conll, noted)")
    fm.add_spans_key_option(q, sides=("every FILE", "the output"))
    declare_files(q, inputs=("files",), outputs={"output": "--output"})
    q.set_defaults(func=run_adjudicate)


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
    if args.tags:
        refuse_unused(args, LABEL_OPS, f"{_TAGS.flag} {_TAGS.what}",
                      then=f", or leave out {_TAGS.flag}")
    if args.resamples == 0:
        refuse_unused(args, _INTERVALS, "--resamples 0 turns them off",
                      then=", or give --resamples 1 or more")
    data, tag_kw, read = read_annotators(args, "agree")
    if not tag_kw:
        refuse_unused(args, _TAGS, "the FILEs hold spans")
    file_notes = identical_files(args, list(data)) + token_notes(read, "agree")
    resampling = {k: v for k, v in opt.resampling_kwargs(args).items() if v is not None}
    result = nerscore.agreement(data, match=args.match, tags=args.tags,
                                tokenizer=args.tokenizer, **resampling, **tag_kw,
                                **opt.match_kwargs(args))
    # the note of no entity, named by its files and said on stderr in every format
    undefined = undefined_note(result.n_documents, relabelled=bool(ops), unit=result.unit)
    if undefined in result.notes:
        named = undefined_note(result.n_documents, f" of {', '.join(args.files)}",
                               relabelled=bool(ops), unit=result.unit)
        file_notes = (named, *file_notes)
        result = dataclasses.replace(result, notes=tuple(n for n in result.notes
                                                         if n != undefined))
        if args.format == "text":
            note("agree", named)
    if file_notes:
        result = dataclasses.replace(result, notes=file_notes + result.notes)
    if args.format not in ("text",):
        for n in result.notes:
            note("agree", n)
    write_result(renderer.functions["agreement"](result, args.digits), args.output)
    if args.output is not None:
        note("agree", f"wrote {args.output}")
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
    data, tag_kw, read = read_annotators(args, "adjudicate", out_fmt)
    if args.min_votes is not None and args.min_votes > len(data):
        raise opt.UsageError(f"--min-votes {args.min_votes} is more than the {len(data)} "
                             f"annotators; give a number from 1 to {len(data)}")
    for n in identical_files(args, list(data)):
        note("adjudicate", n)
    token_notes(read, "adjudicate")
    docs, stats = nerscore.adjudicate(data, min_votes=args.min_votes, **tag_kw,
                                      **label_kwargs(args))
    guessed = fm.guessed_output_note(args.output, out_fmt, args.output_format,
                                     name="--output", format_flag="--output-format")
    if guessed is not None:
        note("adjudicate", guessed)
    if tag_kw:
        writer = out_fmt.write_tags
        assert writer is not None  # checked before reading
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
            note("adjudicate", n, kind="warning")
    else:
        spans_key = args.spans_key if "spans_key" in out_fmt.options else None
        for n in write_documents(docs, args.output, out_fmt, spans_key=spans_key):
            note("adjudicate", n, kind="warning")
    for line in stats.summary().splitlines():
        note("adjudicate", line)
    for n in stats.notes:
        note("adjudicate", n)
    note("adjudicate", f"wrote {args.output}")
    return 0
