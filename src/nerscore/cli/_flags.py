"""Advice written for Python callers, as the command line's flags.

Library messages name their options as keywords (``overlapping='merge'``);
:func:`keywords_to_flags` rewrites them as the flags a command takes
(``--overlapping merge``), and :func:`side_flags` says which flag gave an
option for the one file an error is about (``--gold-encoding`` rather than
``--encoding``).
"""

from __future__ import annotations

import argparse
import re
from collections.abc import Mapping
from typing import Any

__all__ = ["keywords_to_flags", "matcher_options", "side_encoding", "side_flags"]

#: Library keyword -> CLI flag, for advice written for Python callers.
_KEYWORD_FLAGS = {
    "scheme": "--scheme", "mode": "--mode", "match": "--match", "beta": "--beta",
    "zero_division": "--zero-division", "suffix": "--suffix", "delimiter": "--tag-delimiter",
    "outside": "--outside", "column_delimiter": "--delimiter-columns",
    "encoding": "--encoding", "token_column": "--token-column",
    "label_column": "--label-column", "comments": "--comments",
    "from_scheme": "--from-scheme", "to_scheme": "--to-scheme", "min_score": "--threshold",
    "misaligned": "--misaligned", "drop": "--drop", "spans_key": "--spans-key",
}
#: The options GOLD and PRED may each have their own flag for (``--gold-encoding``).
_SIDE_OPTIONS = ("encoding",)
_KEYWORD: list[re.Pattern[str]] = []  # compiled on first use: it needs the matcher registry


def matcher_options() -> dict[str, list[tuple[str, Any]]]:
    """Every matcher option by keyword, with the matchers that take it (registry order).

    Returns
    -------
    dict of str to list of (matcher name, Option)
    """
    from nerscore.matching import get_matcher
    from nerscore.matching.registry import matcher_names

    out: dict[str, list[tuple[str, Any]]] = {}
    for name in matcher_names():
        for option in get_matcher(name).options:
            out.setdefault(option.name, []).append((name, option))
    return out


def _keyword_flags() -> tuple[re.Pattern[str], dict[str, str], dict[str, bool]]:
    """The keyword pattern, keyword -> flag, and the defaults of the boolean matcher options."""
    flags = dict(_KEYWORD_FLAGS)
    switches: dict[str, bool] = {}
    for name, uses in matcher_options().items():
        option = uses[0][1]
        flags[name] = option.flag
        if isinstance(option.default, bool):
            switches[name] = option.default
    if not _KEYWORD:
        _KEYWORD.append(re.compile(
            r"(?<![\w.`])(" + "|".join(sorted(flags, key=len, reverse=True)) + r")="
            r"(?:'([^']*)'|\"([^\"]*)\"|(True|False|None|-?[\w.]+))"))
    return _KEYWORD[0], flags, switches


def keywords_to_flags(message: str, given: Mapping[str, str] | None = None) -> str:
    """Rewrite advice written as Python keywords (``compat='kaggle'``) as flags (``--compat kaggle``).

    Parameters
    ----------
    message : str
        The advice.
    given : mapping of str to str, optional
        Keyword -> the flag that gave it instead of the usual one
        (:func:`side_flags`); the usual flag, where the message names it, is
        rewritten too.

    Returns
    -------
    str

    Examples
    --------
    >>> keywords_to_flags("fix them, or pass overlapping='merge' to glue them")
    'fix them, or pass --overlapping merge to glue them'
    >>> keywords_to_flags("use labeled=False, or the default (compat=None)")
    'use --unlabeled, or the default (without --compat)'
    >>> keywords_to_flags("the `encoding` option (--encoding on the command line), e.g. "
    ...                   "encoding='latin-1'", {"encoding": "--gold-encoding"})
    'the `encoding` option (--gold-encoding on the command line), e.g. --gold-encoding latin-1'
    """
    given = dict(given or {})
    if "=" not in message and not given:
        return message
    pattern, flags, switches = _keyword_flags()
    for name, option in given.items():
        message = re.sub(rf"(?<![\w-]){re.escape(flags[name])}(?![\w-])", option, message)
    flags.update(given)

    def flag(m: re.Match[str]) -> str:
        name = m.group(1)
        quoted = m.group(2) if m.group(2) is not None else m.group(3)
        value = quoted if quoted is not None else m.group(4)
        option = flags[name]
        if name in switches:  # a switch turns the option away from its default
            return option if value == str(not switches[name]) else f"without {option}"
        if quoted is None and value in ("None", "False"):
            return f"without {option}"
        if quoted is None and value == "True":
            return option
        return f"{option} {value}"

    return pattern.sub(flag, message)


def side_encoding(args: argparse.Namespace, side: str) -> str:
    """The encoding of one side: ``--gold-encoding``/``--pred-encoding``, else ``--encoding``.

    Parameters
    ----------
    args : argparse.Namespace
        Parsed arguments.
    side : {"gold", "pred"}

    Returns
    -------
    str
    """
    value = getattr(args, f"{side}_encoding", None)
    return str(args.encoding if value is None else value)


def side_flags(args: argparse.Namespace | None, source: object,
               message: str = "") -> dict[str, str]:
    """The flags that gave the options of the file ``source``, where a side has its own.

    ``--gold-encoding`` for GOLD, ``--pred-encoding`` for a PRED (a run, a
    system's file), when given. A file given as both sides is the side whose
    encoding ``message`` names (``Cannot decode ... as utf-16``), else GOLD,
    which is read first.

    Parameters
    ----------
    args : argparse.Namespace or None
        The parsed command line.
    source : str or None
        The file an error is about.
    message : str
        The error.

    Returns
    -------
    dict of str to str
        Keyword -> flag, for :func:`keywords_to_flags`.

    Examples
    --------
    >>> args = argparse.Namespace(gold="g.conll", pred="p.conll", more_preds=["g.conll"],
    ...                           encoding="utf-8", gold_encoding=None, pred_encoding="utf-16")
    >>> side_flags(args, "p.conll"), side_flags(args, "g.conll", "Cannot decode it as utf-8 (")
    ({'encoding': '--pred-encoding'}, {})
    >>> side_flags(args, "g.conll", "Cannot decode the file as utf-16 (g.conll, line 1)")
    {'encoding': '--pred-encoding'}
    """
    if args is None or not isinstance(source, str):
        return {}
    from nerscore.io.atomic import same_file

    sides = []
    for side, dests in (("gold", ("gold",)), ("pred", ("pred", "more_preds", "preds"))):
        given = [getattr(args, dest, None) for dest in dests]
        files = [p for v in given for p in (v if isinstance(v, (list, tuple)) else [v])
                 if isinstance(p, str)]
        if any(same_file(source, p) for p in files):
            sides.append(side)
    if len(sides) > 1:
        sides = [s for s in sides if f" as {side_encoding(args, s)} (" in message] or sides
    return {name: f"--{sides[0]}-{name}" for name in _SIDE_OPTIONS
            if sides and getattr(args, f"{sides[0]}_{name}", None) is not None}
