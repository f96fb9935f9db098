"""Value types of the ``nerscore`` options: argparse ``type`` callables and actions.

Each one turns an option's text into the value the library takes, or
refuses it with an :class:`argparse.ArgumentTypeError` that says what was
expected and what was given, so a bad value is a usage error (exit status 2):
option sets (:func:`enum_type`), numbers in a range (:func:`non_negative_int`,
:func:`positive_int`, :func:`positive_float`, :func:`confidence_level`),
column indices, ``--zero-division``, text encodings, shown names and tag
texts, and the values of matcher options (:func:`option_type`).
"""

from __future__ import annotations

import argparse
import math
import re
from collections.abc import Callable, Sequence
from typing import Any

from nerscore.cli._flags import keywords_to_flags
from nerscore.values.options import OptionEnum

__all__ = [
    "TagText",
    "column_index",
    "confidence_level",
    "display_name",
    "enum_type",
    "float_type",
    "non_negative_int",
    "option_type",
    "positive_float",
    "positive_int",
    "quote_list",
    "text_encoding",
    "zero_division",
]


def quote_list(values: Sequence[str]) -> str:
    """The values quoted, as one list in a sentence.

    Examples
    --------
    >>> quote_list(["a", "b", "c"])
    "'a', 'b' or 'c'"
    >>> quote_list(["a"])
    "'a'"
    """
    items = [repr(v) for v in values]
    return ", ".join(items[:-1]) + f" or {items[-1]}" if len(items) > 1 else items[0]


def enum_type(enum: type[OptionEnum], name: str) -> Callable[[str], str]:
    """An argparse ``type`` accepting any spelling ``enum.parse`` accepts.

    Parameters
    ----------
    enum : OptionEnum subclass
        The option set (aliases such as ``BIO`` are accepted).
    name : str
        The option's name, for the error message.

    Returns
    -------
    callable
        Turning a string into the member's value.
    """

    def parse(value: str) -> str:
        try:
            return str(enum.parse(value, name=name).value)
        except ValueError:
            valid = quote_list([m.value for m in enum])
            raise argparse.ArgumentTypeError(
                f"expected one of {valid}; got {value!r}"
            ) from None

    parse.__name__ = name
    return parse


def float_type(valid: Callable[[float], bool], expected: str) -> Callable[[str], float]:
    """An argparse ``type`` for a number that ``valid`` accepts (``expected`` names them)."""

    def parse(value: str) -> float:
        try:
            x = float(value)
        except ValueError:
            x = math.nan
        if not valid(x):
            raise argparse.ArgumentTypeError(f"expected {expected}; got {value!r}")
        return x

    return parse


positive_float = float_type(lambda x: x > 0 and not math.isinf(x), "a positive number")


def non_negative_int(value: str) -> int:
    """An argparse type: a whole number, 0 or more."""
    try:
        x = int(value)
    except ValueError:
        x = -1
    if x < 0:
        raise argparse.ArgumentTypeError(f"expected a whole number >= 0; got {value!r}")
    return x


def display_name(value: str) -> str:
    """An argparse type: a name the output shows (of a system, an annotator), not blank.

    Examples
    --------
    >>> display_name("ana")
    'ana'
    >>> display_name(" ")
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: expected a name to show in the output; got ' ', which shows as nothing
    """
    if not value.strip():
        raise argparse.ArgumentTypeError(
            f"expected a name to show in the output; got {value!r}, which shows as nothing")
    return value


class TagText(argparse.Action):
    """An argparse action: a tag or a tag delimiter, which cannot be empty.

    Nor ``--`` where argparse takes it out of ``--tag-delimiter=--`` as the
    end of the options, leaving no value (Python 3.11 does; 3.13 keeps it).
    """

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: Any, option_string: str | None = None) -> None:
        if not isinstance(values, str) or not values:
            raise argparse.ArgumentError(self, "expected at least one character; got ''" if values
                                         == "" else "cannot be '--', which argparse reads as the "
                                         "end of the options")
        setattr(namespace, self.dest, values)


def text_encoding(value: str) -> str:
    """An argparse type: an encoding text files are written in (``io._textfile.file_codec``)."""
    from nerscore.errors import OptionError
    from nerscore.io._textfile import file_codec

    try:
        file_codec(value)
    except OptionError as exc:
        message = str(exc).removeprefix("Expected `encoding` to be ").removesuffix(".")
        raise argparse.ArgumentTypeError(f"expected {message}") from None
    return value


def column_index(value: str) -> int:
    """An argparse type: a column index, 0-based, negative from the end."""
    try:
        return int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected a column index (0 is the first, -1 the last); got {value!r}"
        ) from None


_ZERO_DIVISION: dict[str, str | float] = {"warn": "warn", "0": 0.0, "1": 1.0, "nan": math.nan}


def zero_division(value: str) -> str | float:
    """An argparse type: ``--zero-division``, the value of an undefined ratio."""
    key = value.strip().lower()
    key = {"0.0": "0", "1.0": "1"}.get(key, key)
    if key not in _ZERO_DIVISION:
        raise argparse.ArgumentTypeError(
            f"expected one of 'warn', '0', '1' or 'nan'; got {value!r}"
        )
    return _ZERO_DIVISION[key]


confidence_level = float_type(lambda x: 0 < x < 1, "a number between 0 and 1 (exclusive)")


def positive_int(value: str) -> int:
    """An argparse type: a whole number, 1 or more."""
    try:
        x = int(value)
    except ValueError:
        x = 0
    if x < 1:
        raise argparse.ArgumentTypeError(f"expected a whole number >= 1; got {value!r}")
    return x


def _literal(text: str) -> Any:
    """A flag's text as the value a Python caller would pass (numbers as numbers)."""
    try:
        return float(text) if any(c in text for c in ".eE") else int(text)
    except ValueError:
        return text


def option_type(option: Any) -> Callable[[str], Any]:
    """An argparse type: a value that the matcher option ``option`` parses."""

    def parse(text: str) -> Any:
        from nerscore.errors import OptionError

        try:
            return option.parse(_literal(text))
        except OptionError as exc:
            m = re.match(r"Expected `\w+` to be (.*?); got ", str(exc))
            message = f"expected {m.group(1)}; got {text!r}" if m else str(exc)
            raise argparse.ArgumentTypeError(keywords_to_flags(message)) from None

    parse.__name__ = option.name  # argparse names the type in its messages
    return parse
