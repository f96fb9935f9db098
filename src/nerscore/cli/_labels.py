"""The label operations on the command line: ``--map``, ``--map-file``, ``--keep``, ``--drop``.

A command adopts them with two lines: :func:`add_label_options` on its
parser, and :func:`label_kwargs` merged into the keywords it passes to the
library (``labels_map``, ``keep``, ``drop``; docs/label-ops.md). Commands
whose keywords come from :func:`nerscore.cli._options.match_kwargs` get them
from there.
"""

from __future__ import annotations

import argparse
from typing import Any

__all__ = ["add_label_options", "label_flags", "label_kwargs", "label_pair"]


def label_pair(value: str) -> tuple[str, str]:
    """An argparse ``type``: ``OLD=NEW`` as a pair of labels.

    Parameters
    ----------
    value : str
        What was given.

    Returns
    -------
    tuple of str

    Examples
    --------
    >>> label_pair("GPE=LOC")
    ('GPE', 'LOC')

    One ``=`` only: a label holding ``=`` is given in ``--map-file``.

    >>> label_pair("NP=X=Y")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: expected OLD=NEW with one '=' (e.g. GPE=LOC); got 'NP=X=Y' (a label holding '=' is given in --map-file)
    """
    old, sep, new = value.partition("=")
    old, new = old.strip(), new.strip()
    if "=" in new:
        raise argparse.ArgumentTypeError(
            f"expected OLD=NEW with one '=' (e.g. GPE=LOC); got {value!r} (a label holding '=' "
            "is given in --map-file)")
    if not sep or not old or not new:
        raise argparse.ArgumentTypeError(f"expected OLD=NEW (e.g. GPE=LOC); got {value!r}")
    return old, new


def _labels(value: str) -> list[str]:
    found = [v.strip() for v in value.split(",") if v.strip()]
    if not found:
        raise argparse.ArgumentTypeError(f"expected labels separated by commas; got {value!r}")
    return found


def add_label_options(parser: argparse.ArgumentParser) -> None:
    """Add ``--map OLD=NEW`` (repeatable), ``--map-file FILE``, ``--keep`` and ``--drop``.

    Parameters
    ----------
    parser : argparse.ArgumentParser
        The subcommand's parser.
    """
    group = parser.add_argument_group("labels (docs/label-ops.md)")
    which = group.add_mutually_exclusive_group()
    group.add_argument("--map", dest="label_map", metavar="OLD=NEW", type=label_pair,
                       action=_Renamings, default=None,
                       help="rename entity label OLD to NEW on both sides before matching "
                            "(repeatable; two labels renamed to one are merged)")
    group.add_argument("--map-file", dest="label_map_file", metavar="FILE", default=None,
                       help='a JSON object of renamings, e.g. {"GPE": "LOC", "FAC": "LOC"}, '
                            "in UTF-8 (whatever --encoding says); - for standard input; --map entries "
                            "win")
    which.add_argument("--keep", dest="keep_labels", metavar="LABELS", type=_labels,
                       action="extend", default=None,
                       help="score only these labels (after renaming; comma-separated, "
                            "repeatable)")
    which.add_argument("--drop", dest="drop_labels", metavar="LABELS", type=_labels,
                       action="extend", default=None,
                       help="remove entities of these labels from both sides (after "
                            "renaming; comma-separated, repeatable)")


class _Renamings(argparse.Action):
    """``--map OLD=NEW``, repeatable: a label given two new labels is a usage error."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: Any, option_string: str | None = None) -> None:
        pairs: list[tuple[str, str]] = list(getattr(namespace, self.dest, None) or ())
        old, label = values
        earlier = dict(pairs).get(old, label)
        if earlier != label:
            parser.error(f"--map maps {old!r} twice: to {earlier!r} and {label!r}; give one "
                         "new label per label")
        setattr(namespace, self.dest, [*pairs, values])


def label_kwargs(args: argparse.Namespace) -> dict[str, Any]:
    """The label operations given, as the library's keywords (empty when none, or not added).

    Parameters
    ----------
    args : argparse.Namespace
        Parsed arguments of a command with :func:`add_label_options`.

    Returns
    -------
    dict
        ``labels_map``, ``keep`` and ``drop``, those given.

    Notes
    -----
    A ``--map`` entry wins over the ``--map-file`` entry of its label (two
    ``--map`` entries giving one label two new labels are refused while parsing).
    """
    out: dict[str, Any] = {}
    pairs: list[tuple[str, str]] = list(getattr(args, "label_map", None) or ())
    if getattr(args, "label_map_file", None) is not None:
        from nerscore.io.label_map import read_label_map

        given = {old for old, _ in pairs}
        pairs = [p for p in read_label_map(args.label_map_file).items()
                 if p[0] not in given] + pairs
    if pairs:
        out["labels_map"] = pairs
    keep, drop = getattr(args, "keep_labels", None), getattr(args, "drop_labels", None)
    if keep is not None:
        out["keep"] = keep
    if drop is not None:
        out["drop"] = drop
    return out


def label_flags(args: argparse.Namespace) -> dict[str, str]:
    """The flags that gave each label operation, by the library's keyword (none when none given).

    For the notes on what the operations did (:func:`nerscore.cli._flags.flagged`).

    Parameters
    ----------
    args : argparse.Namespace
        Parsed arguments.

    Returns
    -------
    dict of str to str

    Examples
    --------
    >>> label_flags(argparse.Namespace(label_map=[("A", "B")], label_map_file="m.json",
    ...                                keep_labels=None, drop_labels=["C"]))
    {'labels_map': '--map-file/--map', 'drop': '--drop'}
    """
    out: dict[str, str] = {}
    maps = [flag for flag, dest in (("--map-file", "label_map_file"), ("--map", "label_map"))
            if getattr(args, dest, None) is not None]
    if maps:
        out["labels_map"] = "/".join(maps)
    for keyword, dest in (("keep", "keep_labels"), ("drop", "drop_labels")):
        if getattr(args, dest, None) is not None:
            out[keyword] = f"--{keyword}"
    return out
