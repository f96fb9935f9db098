"""What :func:`~nerscore.convert_file` checks of its options, before it reads anything.

Each raises an :class:`~nerscore.errors.OptionError` naming the option to
change: a misuse of the call (a usage error on the command line).
"""

from __future__ import annotations

import codecs
import re
from collections.abc import Mapping
from typing import Any

from nerscore.errors import OptionError, option_error, quoted
from nerscore.io.formats import Format
from nerscore.values.label_ops import LabelOps

__all__ = ["check_unused", "check_writable", "narrow_encoding", "output_kinds", "spelling"]


def output_kinds(fout: Format) -> tuple[str, ...]:
    """What files of ``fout`` can be written to hold: its kind, or those it has a writer of.

    A format whose files hold tags or spans (``kind`` a callable) is written
    with what it has a writer of: Parquet either (``parquet_kind``, else
    what the input holds), JSON Lines spans (it reads token records, and
    writes span documents only).

    Examples
    --------
    >>> from nerscore.io.formats import get_format
    >>> [output_kinds(get_format(name)) for name in ("conll", "jsonl", "parquet")]
    [('tags',), ('spans',), ('tags', 'spans')]
    """
    if isinstance(fout.kind, str):
        return (fout.kind,)
    kinds = tuple(kind for kind, writer in (("tags", fout.write_tags), ("spans", fout.write_spans))
                  if writer is not None)
    return kinds if len(kinds) == 1 else ("tags", "spans")


def spelling(*, optional: bool = False, **given: Any) -> dict[str, Any]:
    """The spelling options given, checked: a bool for ``suffix``, a non-empty str for the others.

    With ``optional`` (the ``to_`` options) None means not given and is left out.

    Examples
    --------
    >>> spelling(optional=True, to_suffix=None, to_delimiter="_", to_outside=None)
    {'to_delimiter': '_'}
    >>> spelling(suffix=False, delimiter=None, outside="O")
    Traceback (most recent call last):
    ...
    nerscore.errors.OptionError: Expected `delimiter` to be a non-empty str; got None.
    """
    out = {k: v for k, v in given.items() if v is not None or not optional}
    none = " or None" if optional else ""
    for name, value in out.items():
        if name.endswith("suffix"):
            if not isinstance(value, bool):
                raise option_error(name, f"a bool{none}", value)
        elif not isinstance(value, str) or not value:
            raise option_error(name, f"a non-empty str{none}", value)
    return out


def narrow_encoding(fout: Format, encoding: str) -> bool:
    """Whether ``fout`` files are text in ``encoding``, which cannot write every character.

    JSON text can (a format whose ``escapes`` is true): it writes what the
    encoding cannot encode as escapes.

    Examples
    --------
    >>> from nerscore.io.formats import get_format
    >>> narrow_encoding(get_format("brat"), "latin-1"), narrow_encoding(get_format("brat"), "utf-8")
    (True, False)
    >>> narrow_encoding(get_format("jsonl"), "ascii")
    False
    """
    if fout.escapes:
        return False
    try:
        return "encoding" in fout.options and not codecs.lookup(encoding).name.startswith("utf")
    except LookupError:  # not an encoding: the reader or the writer says so
        return False


def check_writable(fout: Format, in_tags: bool, out_tags: bool, to_syntax: Mapping[str, Any],
                   respelled: Mapping[str, Any], ops: LabelOps, encoding: str) -> None:
    """Refuse an output spelling or a label map that writes what ``fout`` cannot hold.

    That is a character of ``fout.label_forbids`` in a label, or one that
    ``encoding`` cannot write in a text format; the message names the option.
    """
    forbids = re.compile(fout.label_forbids) if fout.label_forbids else None
    encoded = narrow_encoding(fout, encoding)
    given = []
    if out_tags:
        for name, what, example in (("outside", "outside tag", "O"),
                                    ("delimiter", "tag delimiter", "-")):
            value, option = to_syntax[name], f"to_{name}"  # the option to change
            if option in respelled:
                shown = f"The {what} {quoted(value)} of the output ({option})"
            elif in_tags:
                shown = f"The {what} {quoted(value)} of the input, and of the output ({name}),"
            else:
                shown, option = f"The {what} {quoted(value)} of the output ({name})", name
            given.append((value, option if option in respelled else name, shown,
                          f"give the output one without it, e.g. {option}={example!r}"))
    for old, new in ops.labels_map:
        given.append((new, "labels_map", f"The label {quoted(new)} that the label map "
                                         f"(labels_map) renames {quoted(old)} to",
                      "map it to a label without it"))
    other = "Parquet" if out_tags else "JSON Lines, Parquet"
    for value, option, shown, fix in given:
        bad = forbids.search(value) if forbids is not None else None
        if bad is not None:
            raise OptionError(f"{shown} holds {quoted(bad.group())}, which no label of a "
                              f"{fout.name} file can hold: {fix}, or convert to another format "
                              f"({other}).", option=option)
        try:
            if encoded:
                value.encode(encoding)
        except UnicodeEncodeError as exc:
            raise OptionError(f"{shown} holds {quoted(value[exc.start])}, which {encoding} "
                              f"cannot encode: {fix}, or write the output in another encoding, "
                              "e.g. encoding='utf-8'.", option=option) from None


def check_unused(src: str, dst: str, fout: Format, in_tags: bool, out_kind: str, *,
                  from_scheme: str | None, mode: str, misaligned: str, labels_as: str,
                  parquet_kind: str | None, syntax: dict[str, Any],
                  respelled: dict[str, Any]) -> None:
    """Refuse an option given a value other than its default where the conversion has no use for it."""
    held = "tags" if in_tags else "spans"
    decoded = in_tags and from_scheme is not None  # tags read with their scheme
    scheme = "pass the scheme of the input tags too, e.g. from_scheme='IOB2'"
    if mode != "lenient" and not decoded:
        how = scheme if in_tags else f"{src} holds spans: leave it out"
        raise OptionError(f"mode={mode!r} says how tags are decoded with their scheme; {how}.",
                          option="mode")
    for name, value in respelled.items():
        if out_kind != "tags":
            raise OptionError(f"{name}={value!r} spells the output tags; {dst} gets {out_kind}: "
                              "leave it out.", option=name)
    for name, default in (("suffix", False), ("delimiter", "-"), ("outside", "O")):
        value, to_name = syntax[name], f"to_{name}"
        if value == default:
            continue
        if in_tags and not decoded and not respelled:  # labels copied as they are
            how = (f"the input tags are copied as they are: {scheme}, or respell them, e.g. "
                   f"{to_name}={default!r}")
        elif not in_tags and out_kind != "tags":
            how = f"{src} holds spans and {dst} gets {out_kind}: leave it out"
        elif not in_tags and to_name in respelled:
            how = f"{src} holds spans and the output tags have their own spelling: leave it out"
        else:
            continue
        raise OptionError(f"{name}={value!r} spells the input tags, and the output tags unless "
                          f"they have their own spelling ({to_name}); {how}.", option=name)
    if misaligned != "error" and (in_tags or out_kind != "tags"):
        raise OptionError(f"misaligned={misaligned!r} applies to spans written as tags; {src} "
                          f"holds {held} and {dst} gets {out_kind}: leave it out.",
                          option="misaligned")
    both = len(output_kinds(fout)) == 2  # a format written with tags or spans (Parquet)
    if parquet_kind is not None and not both:
        raise OptionError(f"parquet_kind={parquet_kind!r} applies to Parquet output; {dst} is a "
                          f"{fout.name} file: leave it out.", option="parquet_kind")
    if labels_as != "int" and not (both and out_kind == "tags"):
        raise OptionError(f"labels_as={labels_as!r} applies to Parquet tag output; {dst} gets "
                          f"{fout.name} {out_kind}: leave it out.", option="labels_as")
