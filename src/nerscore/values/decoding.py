"""How tag sequences are read: one value for the scheme, the mode and the tag syntax.

Public functions keep flat keyword-only options (``scheme=``, ``mode=``,
``suffix=``, ``delimiter=``, ``outside=``); they build one :class:`Decoding`
at the boundary, which validates everything once, and pass that value down.
The definitions are in ``docs/schemes.md``.
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

from nerscore.errors import OptionError, SchemeError, option_error
from nerscore.values.schemes import DEFAULT_LETTERS, Mode, Scheme, SchemeTable, get_scheme

__all__ = ["Decoding", "check_delimiter", "check_outside"]

_SCHEME_NAMES = "'IOB2' (or 'IOB1', 'IOE1', 'IOE2', 'IOBES', 'BILOU', 'BMES', 'IO')"


def _non_empty_str(name: str, value: object) -> str:
    if isinstance(value, str) and value:
        return value
    raise option_error(name, "a non-empty str", value)


def check_outside(outside: str, *, suffix: bool = False, delimiter: str = "-",
                  shown: str | None = None, name: str = "outside") -> None:
    """Refuse an outside tag spelled as an entity tag (``B-PER``, a bare ``B``).

    Such a tag would not say whether a token is outside every entity or in
    one: its prefix letter is one of a scheme's (``B``, ``I``, ``E``, ``S``,
    ``U``, ``L``, ``M``), alone or with a type after the delimiter (before
    it, with ``suffix``).

    Parameters
    ----------
    outside : str
        The outside tag.
    suffix : bool
        Tags are written ``TYPE-PREFIX``.
    delimiter : str
        Between prefix and type.
    shown : str, optional
        How the message names the option given (default: ``outside='...'``).
    name : str
        The option to change, named by the error.

    Raises
    ------
    OptionError
        Naming ``name``.

    Examples
    --------
    >>> check_outside("NONE"), check_outside("B-"), check_outside("OUT_B", suffix=True)
    (None, None, None)
    >>> check_outside("B-PER")
    Traceback (most recent call last):
    ...
    nerscore.errors.OptionError: outside='B-PER' is spelled as an entity tag (prefix 'B', type \
'PER'): the tags would not say whether a token is outside every entity or in one. Give an \
outside tag that no entity tag spells, e.g. outside='O'.
    """
    if not delimiter:  # no tag syntax to compare with; the delimiter's own check says so
        return
    if suffix:
        typ, sep, letter = outside.rpartition(delimiter)
    else:
        letter, sep, typ = outside.partition(delimiter)
    if letter not in DEFAULT_LETTERS or (sep and not typ):
        return
    what = f"prefix {letter!r}, type {typ!r}" if sep else f"the bare prefix {letter!r}"
    shown = f"{name}={outside!r}" if shown is None else shown
    raise OptionError(f"{shown} is spelled as an entity tag ({what}): the tags would not say "
                      "whether a token is outside every entity or in one. Give an outside tag "
                      f"that no entity tag spells, e.g. {name}='O'.", option=name)


def check_delimiter(delimiter: str, *, suffix: bool = False, name: str = "delimiter") -> None:
    """Refuse a tag delimiter made of one prefix letter (``B``, ``II``).

    A tag splits at its first delimiter (its last, with ``suffix``), which
    would be found inside the prefix: ``BBPER`` reads as prefix ``''``, type
    ``BPER``, so no tag with that prefix could be read back.

    Parameters
    ----------
    delimiter : str
        Between prefix and type.
    suffix : bool
        Tags are written ``TYPE-PREFIX``.
    name : str
        The option to change, named by the error.

    Raises
    ------
    OptionError
        Naming ``name``.

    Examples
    --------
    >>> check_delimiter("-"), check_delimiter("BX"), check_delimiter("O")
    (None, None, None)
    >>> check_delimiter("B")
    Traceback (most recent call last):
    ...
    nerscore.errors.OptionError: delimiter='B' is made of the prefix letter 'B': the tag 'BBTYPE' \
would split inside its prefix, not read back as prefix 'B', type 'TYPE'. Give a delimiter of \
other characters, e.g. delimiter='-'.
    """
    letter = delimiter[:1]
    if letter not in DEFAULT_LETTERS or delimiter != letter * len(delimiter):
        return
    tag = f"TYPE{delimiter}{letter}" if suffix else f"{letter}{delimiter}TYPE"
    raise OptionError(f"{name}={delimiter!r} is made of the prefix letter {letter!r}: the tag "
                      f"{tag!r} would split inside its prefix, not read back as prefix "
                      f"{letter!r}, type 'TYPE'. Give a delimiter of other characters, e.g. "
                      f"{name}='-'.", option=name)


@dataclass(frozen=True)
class Decoding:
    """The five decoding options as one validated value.

    Parameters
    ----------
    scheme : str or Scheme, optional
        ``IO``, ``IOB1``, ``IOB2``/``BIO``, ``IOE1``, ``IOE2``,
        ``IOBES``/``BIOES``, ``BILOU`` or ``BMES``. Required by
        ``mode="strict"``; when given, tags with prefixes the scheme does not
        use are an error.
    mode : {"lenient", "strict", "conlleval"}
        How malformed chunks are read (see ``docs/schemes.md``).
    suffix : bool
        Tags are written ``TYPE-PREFIX``.
    delimiter : str
        Between prefix and type; one made of a prefix letter (``B``) is
        refused (:func:`check_delimiter`).
    outside : str
        The outside tag; one spelled as an entity tag (``B-PER``, a bare
        ``B``) is refused (:func:`check_outside`).

    Raises
    ------
    SchemeError
        For an unknown scheme.
    ValueError
        For an unknown mode or a malformed option, naming it and what it
        expects (an :class:`~nerscore.errors.OptionError`).

    Examples
    --------
    >>> Decoding(scheme="BIO", mode="strict")
    Decoding(scheme=<Scheme.IOB2: 'IOB2'>, mode=<Mode.STRICT: 'strict'>, suffix=False, delimiter='-', outside='O')
    >>> Decoding(mode="lenient").given()
    []
    >>> Decoding(suffix=True, outside="NONE").given()
    ['suffix=True', "outside='NONE'"]
    """

    scheme: Scheme | None = None
    mode: Mode = Mode.LENIENT
    suffix: bool = False
    delimiter: str = "-"
    outside: str = "O"

    def __init__(
        self,
        scheme: str | Scheme | None = None,
        mode: str | Mode = Mode.LENIENT,
        suffix: bool = False,
        delimiter: str = "-",
        outside: str = "O",
    ) -> None:
        if scheme is not None:
            try:
                scheme = Scheme.parse(scheme, name="scheme")
            except ValueError as exc:
                raise SchemeError(str(exc)) from None
        if not isinstance(suffix, bool):
            raise option_error("suffix", "a bool", suffix)
        object.__setattr__(self, "scheme", scheme)
        object.__setattr__(self, "mode", Mode.parse(mode, name="mode"))
        object.__setattr__(self, "suffix", suffix)
        object.__setattr__(self, "delimiter", _non_empty_str("delimiter", delimiter))
        object.__setattr__(self, "outside", _non_empty_str("outside", outside))
        check_delimiter(self.delimiter, suffix=suffix)
        check_outside(self.outside, suffix=suffix, delimiter=self.delimiter)

    @property
    def table(self) -> SchemeTable | None:
        """The scheme's table, or None when no scheme was given."""
        return None if self.scheme is None else get_scheme(self.scheme)

    @property
    def scheme_name(self) -> str | None:
        """The scheme's canonical name (for reports)."""
        return None if self.scheme is None else self.scheme.value

    def check_decodable(self) -> None:
        """Raise when the mode cannot run with these options (``strict`` needs a scheme).

        Raises
        ------
        SchemeError
            For ``mode="strict"`` without a scheme.
        """
        if self.mode is Mode.STRICT and self.scheme is None:
            raise SchemeError(
                f"mode='strict' needs an explicit scheme: pass scheme={_SCHEME_NAMES}; "
                "nerscore never guesses it."
            )

    def given(self) -> list[str]:
        """The options that differ from the defaults, as ``name=value`` strings."""
        default = _DEFAULT
        out = []
        for f in fields(self):
            value: Any = getattr(self, f.name)
            if value != getattr(default, f.name):
                shown = value.value if hasattr(value, "value") else value
                out.append(f"{f.name}={shown!r}")
        return out


_DEFAULT = Decoding()
