"""Shared options of the ``nerscore`` subcommands.

Each ``add_*`` helper adds one group of options to a subcommand's parser,
with choices taken from the library's own option sets (:class:`Scheme`,
:class:`Mode`, the matcher registry), and a matching ``*_kwargs`` helper
turns the parsed values into the keyword arguments of the library call.
Values are checked as they are parsed (the types of
:mod:`~nerscore.cli._arg_types`) and combinations here, so a bad one is a
usage error (exit status 2).
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence
from typing import Any

from nerscore.cli._arg_types import (
    TagText,
    column_index,
    confidence_level,
    enum_type,
    non_negative_int,
    option_type,
    positive_float,
    positive_int,
    quote_list,
    text_encoding,
    zero_division,
)
from nerscore.cli._flags import command_flags, keywords_to_flags, matcher_options, side_encoding
from nerscore.values.schemes import Mode, Scheme

__all__ = [
    "UsageError",
    "add_conll_options",
    "add_match_options",
    "add_resampling_options",
    "add_score_options",
    "add_side_options",
    "add_tag_options",
    "compat_of",
    "conll_kwargs",
    "match_kwargs",
    "matches",
    "resampling_kwargs",
    "side_conll_kwargs",
    "tag_kwargs",
]


def compat_of() -> dict[str, tuple[str, ...]]:
    """The reference tools each matcher can reproduce (its ``compat`` choices).

    Returns
    -------
    dict of str to tuple of str
    """
    from nerscore.matching import get_matcher

    return {name: option.choices for name in matches()
            for option in get_matcher(name).options if option.name == "compat"}


def matches() -> tuple[str, ...]:
    """Values of ``--match``: every registered matcher.

    Returns
    -------
    tuple of str
    """
    from nerscore.matching.registry import matcher_names

    return matcher_names()


class UsageError(Exception):
    """A combination of options that cannot work together (exit status 2)."""


def check_distinct(names: Sequence[str], source: str, fix: str) -> None:
    """Refuse names given twice, naming the first name that is.

    Examples
    --------
    >>> check_distinct(["A", "B", "A"], "--names", "give one distinct name per PRED")
    Traceback (most recent call last):
    ...
    nerscore.cli._options.UsageError: --names must be distinct, but 'A' is given twice; give one distinct name per PRED
    """
    twice = next((n for k, n in enumerate(names) if n in names[:k]), None)
    if twice is not None:
        raise UsageError(f"{source} must be distinct, but {twice!r} is given twice; {fix}")


def add_tag_options(parser: argparse.ArgumentParser, *, scheme_required: bool = False) -> None:
    """Add ``--scheme``, ``--suffix``, ``--tag-delimiter`` and ``--outside``.

    Parameters
    ----------
    parser : argparse.ArgumentParser
        The subcommand's parser.
    scheme_required : bool
        Whether ``--scheme`` must be given.
    """
    group = parser.add_argument_group("tags")
    schemes = ", ".join(s.value for s in Scheme)
    group.add_argument(
        "--scheme", type=enum_type(Scheme, "scheme"), required=scheme_required,
        default=None, metavar="SCHEME",
        help=f"tagging scheme: {schemes} (BIO and BIOES are accepted too)"
             + ("" if scheme_required else "; required by --mode strict"),
    )
    group.add_argument("--suffix", action="store_true",
                       help="tags are written TYPE-PREFIX (PER-B) instead of PREFIX-TYPE")
    group.add_argument("--tag-delimiter", action=TagText, default="-", metavar="CHAR",
                       help="between prefix and type (default: '-')")
    group.add_argument("--outside", action=TagText, default="O", metavar="TAG",
                       help="the outside tag (default: 'O')")


def tag_kwargs(args: argparse.Namespace) -> dict[str, Any]:
    """Keyword arguments of the tag options for the library's tag functions.

    Parameters
    ----------
    args : argparse.Namespace
        Parsed arguments.

    Returns
    -------
    dict
        ``suffix``, ``delimiter`` and ``outside``.

    Raises
    ------
    UsageError
        For an outside tag spelled as an entity tag (``--outside B-PER``, a
        bare ``B``) or a delimiter made of a prefix letter (``--tag-delimiter
        B``), refused as :class:`~nerscore.values.decoding.Decoding` refuses
        them.
    """
    from nerscore.errors import OptionError
    from nerscore.values.decoding import Decoding

    out = {"suffix": args.suffix, "delimiter": args.tag_delimiter, "outside": args.outside}
    try:
        Decoding(**out)
    except OptionError as exc:
        if exc.option not in ("outside", "delimiter"):
            raise  # as the library says it, where the options are used
        raise UsageError(keywords_to_flags(str(exc), command_flags(args)).rstrip(".")) from None
    return out


def add_conll_options(parser: argparse.ArgumentParser, *, writes: bool = False) -> None:
    """Add the options of :func:`nerscore.io.conll.read_conll`.

    Parameters
    ----------
    parser : argparse.ArgumentParser
        The subcommand's parser.
    writes : bool
        Whether the command writes its output in ``--encoding`` too (``convert``).
    """
    group = parser.add_argument_group("CoNLL files")
    group.add_argument("--token-column", type=column_index, default=0, metavar="N",
                       help="0-based column of the token; negative counts from the end "
                            "(default: 0, the first)")
    group.add_argument("--label-column", type=column_index, default=-1, metavar="N",
                       help="0-based column of the label; negative counts from the end "
                            "(default: -1, the last)")
    group.add_argument("--delimiter-columns", choices=("auto", "tab", "space"), default="auto",
                       help="how columns are separated: 'space' splits at runs of "
                            "whitespace, 'tab' at tabs only (tokens may hold spaces), "
                            "'auto' picks 'tab' when every token line has a tab "
                            "(default: auto)")
    group.add_argument("--comments", action="store_true",
                       help="skip lines starting with '#' (counted in the report's notes)")
    group.add_argument("--encoding", type=text_encoding, default="utf-8", metavar="ENCODING",
                       help=f"encoding of the input files{' and of OUT' if writes else ''} "
                            "(default: utf-8); utf-16 needs a byte "
                            "order mark, else pass utf-16-le or utf-16-be")


def conll_kwargs(args: argparse.Namespace) -> dict[str, Any]:
    """Keyword arguments for :func:`nerscore.io.conll.read_conll`.

    Parameters
    ----------
    args : argparse.Namespace
        Parsed arguments.

    Returns
    -------
    dict
    """
    return {
        "token_column": args.token_column,
        "label_column": args.label_column,
        "column_delimiter": args.delimiter_columns,
        "comments": args.comments,
        "encoding": args.encoding,
    }


def add_side_options(parser: argparse.ArgumentParser) -> None:
    """Add ``--gold-column``, ``--pred-column``, ``--gold-encoding`` and ``--pred-encoding``.

    Parameters
    ----------
    parser : argparse.ArgumentParser
        The ``score`` parser.
    """
    group = parser.add_argument_group("per side (GOLD, PRED)")
    for side, name in (("gold", "GOLD"), ("pred", "PRED")):
        group.add_argument(
            f"--{side}-column", type=column_index, default=None, metavar="N",
            help=f"CoNLL: label column of {name} (default: --label-column); without PRED, "
                 f"the column of GOLD that holds the {'gold' if side == 'gold' else 'predicted'}"
                 " labels",
        )
    for side, name in (("gold", "GOLD"), ("pred", "PRED")):
        group.add_argument(f"--{side}-encoding", type=text_encoding, default=None,
                           metavar="ENCODING",
                           help=f"encoding of {name} (default: --encoding)")


def side_conll_kwargs(args: argparse.Namespace, side: str) -> dict[str, Any]:
    """:func:`conll_kwargs` with the label column and encoding of one side.

    Parameters
    ----------
    args : argparse.Namespace
        Parsed arguments.
    side : {"gold", "pred"}

    Returns
    -------
    dict
    """
    kwargs = conll_kwargs(args)
    column = getattr(args, f"{side}_column", None)
    if column is not None:
        kwargs["label_column"] = column
    kwargs["encoding"] = side_encoding(args, side)
    return kwargs


def add_match_options(parser: argparse.ArgumentParser) -> None:
    """Add ``--match``, one flag per matcher option, and ``--discontinuous`` and ``--subset``.

    Each :class:`~nerscore.matching.Option` becomes ``Option.flag``: a
    switch for a boolean option, a choice for an option with ``choices``,
    else a value checked by the option's own parser. The options every
    matcher takes (:data:`~nerscore.matching.registry.ENTITY_OPTIONS`) come
    last.

    Parameters
    ----------
    parser : argparse.ArgumentParser
        The subcommand's parser.
    """
    group = parser.add_argument_group("matching")
    group.add_argument("--match", choices=matches(), default="exact",
                       help="how entities are matched (default: exact)")
    for name, uses in matcher_options().items():
        first = uses[0][1]
        helps = "; ".join(f"{m}: {keywords_to_flags(o.help)}" + ("" if isinstance(o.default, bool) or o.default
                                              is None else f" (default: {o.default})")
                          for m, o in uses)
        dest = name.replace("-", "_")
        if isinstance(first.default, bool):
            group.add_argument(first.flag, dest=dest, action="store_const",
                               const=not first.default, default=None, help=helps)
        elif any(o.choices for _, o in uses):
            choices = list(dict.fromkeys(c for _, o in uses for c in o.choices if c is not None))
            group.add_argument(first.flag, dest=dest, choices=choices, default=None,
                               help=helps)
        else:
            group.add_argument(first.flag, dest=dest, type=option_type(first), default=None,
                               metavar=name.upper(), help=helps)
    from nerscore.matching.registry import ENTITY_OPTIONS

    entities = parser.add_argument_group("entities (docs/fragments.md)")
    for option in ENTITY_OPTIONS:
        default = "" if option.default is None else f" (default: {option.default})"
        if option.choices:
            entities.add_argument(option.flag, dest=option.name, choices=list(option.choices),
                                  default=None, help=keywords_to_flags(option.help) + default)
        else:
            entities.add_argument(option.flag, dest=option.name, type=option_type(option),
                                  default=None, metavar="T", help=option.help + default)


def match_kwargs(args: argparse.Namespace) -> dict[str, Any]:
    """The options of the chosen matcher, checked against what it accepts.

    Parameters
    ----------
    args : argparse.Namespace
        Parsed arguments.

    Returns
    -------
    dict
        Keyword arguments for the matcher (only those given), with
        ``discontinuous``, ``subset`` and the label operations when given.

    Raises
    ------
    UsageError
        When an option does not apply to ``--match``.
    """
    from nerscore.cli._labels import label_kwargs
    from nerscore.matching import get_matcher
    from nerscore.matching.registry import ENTITY_OPTIONS

    entities = {o.name: getattr(args, o.name) for o in ENTITY_OPTIONS
                if getattr(args, o.name, None) is not None}
    return {**_matcher_kwargs(args, get_matcher), **entities, **label_kwargs(args)}


def _matcher_kwargs(args: argparse.Namespace, get_matcher: Callable[[str], Any]) -> dict[str, Any]:
    """The options of ``--match`` given on the command line (see :func:`match_kwargs`)."""
    options = matcher_options()
    given: dict[str, Any] = {}
    for name, uses in options.items():
        value = getattr(args, name.replace("-", "_"), None)
        if value is not None:
            given[name] = (uses[0][1].flag, value)
    if not given:
        return {}
    accepted = set(get_matcher(args.match).defaults)
    wrong = [flag for option, (flag, _) in given.items() if option not in accepted]
    if wrong:
        takes = ", ".join(sorted(options[o][0][1].flag for o in accepted if o in options))
        raise UsageError(
            f"{quote_list(wrong)} do{'es' if len(wrong) == 1 else ''} not apply to "
            f"--match {args.match} (it takes {takes or 'no options'})"
        )
    compat = given.get("compat", (None, None))[1]
    if compat is not None and compat not in compat_of().get(args.match, ()):
        raise UsageError(f"--compat {compat} does not apply to --match {args.match}")
    return {option: value for option, (_, value) in given.items()}


def add_score_options(parser: argparse.ArgumentParser) -> None:
    """Add ``--mode``, ``--beta``, ``--zero-division`` and ``--digits``.

    Parameters
    ----------
    parser : argparse.ArgumentParser
        The subcommand's parser.
    """
    group = parser.add_argument_group("scores")
    group.add_argument("--mode", type=enum_type(Mode, "mode"), default="lenient",
                       metavar="MODE",
                       help="decoding of tags: " + ", ".join(m.value for m in Mode)
                            + " (default: lenient)")
    group.add_argument("--beta", type=positive_float, default=1.0,
                       help="weight of recall in the F-score (default: 1)")
    group.add_argument("--zero-division", type=zero_division, default="warn",
                       metavar="{warn,0,1,nan}",
                       help="value of an undefined ratio; 'warn' gives 0 and a note "
                            "(default: warn)")
    group.add_argument("--digits", type=non_negative_int, default=2, metavar="N",
                       help="decimals in text reports (default: 2)")


def add_resampling_options(parser: argparse.ArgumentParser, *, ci: bool = False,
                           off: bool = False) -> None:
    """Add ``--resamples``, ``--level`` and ``--seed`` (and ``--ci`` when ``ci``).

    Parameters
    ----------
    parser : argparse.ArgumentParser
        The subcommand's parser.
    ci : bool
        Add ``--ci``, which turns the bootstrap intervals on.
    off : bool
        ``--resamples 0`` turns the intervals off (``agree``, whose intervals
        come without asking); else it is refused.
    """
    group = parser.add_argument_group("bootstrap (docs/significance.md)")
    if ci:
        group.add_argument("--ci", action="store_true",
                           help="also give percentile bootstrap confidence intervals of the "
                                "micro and macro scores, resampling documents (sentences when "
                                "the files have no -DOCSTART- lines)")
    group.add_argument("--resamples", type=non_negative_int if off else positive_int,
                       default=None, metavar="N",
                       help="bootstrap resamples (default: 1000; 0: no intervals)" if off
                       else "bootstrap resamples (default: 1000)")
    group.add_argument("--level", type=confidence_level, default=None, metavar="L",
                       help="confidence level of the intervals (default: 0.95)")
    group.add_argument("--seed", type=non_negative_int, default=None, metavar="S",
                       help="random seed of the resamples (default: 0)")


def resampling_kwargs(args: argparse.Namespace) -> dict[str, Any]:
    """``n_resamples``, ``level`` and ``seed`` for :func:`nerscore.compare`, defaults filled in.

    Parameters
    ----------
    args : argparse.Namespace
        Parsed arguments.

    Returns
    -------
    dict

    Raises
    ------
    UsageError
        When ``--resamples``, ``--level`` or ``--seed`` is given to a parser
        with ``--ci`` but ``--ci`` is not (``agree``, where ``--resamples 0``
        turns the intervals off, refuses ``--level`` and ``--seed`` with it).
    """
    given = [flag for flag, dest in (("--resamples", "resamples"), ("--level", "level"),
                                     ("--seed", "seed")) if getattr(args, dest) is not None]
    if given and getattr(args, "ci", True) is False:
        raise UsageError(f"{quote_list(given)} need{'s' if len(given) == 1 else ''} --ci")
    return {
        "n_resamples": 1000 if args.resamples is None else args.resamples,
        "level": 0.95 if args.level is None else args.level,
        "seed": 0 if args.seed is None else args.seed,
    }
