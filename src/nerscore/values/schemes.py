"""Tagging schemes as tables, read by one generic decoder and validator.

A scheme is data: which prefix letters it uses (its *dialect*), which
letters are valid, which transitions between tags are valid (same type or
different type), and the chunk patterns of seqeval 1.2.2's strict mode.
The letters are mapped to five canonical classes ``O B I E S`` first, so
BILOU is IOBES written with ``L``/``U`` and BMES is IOBES with ``M``.

References: Ramshaw & Marcus (1995) for IOB1; Tjong Kim Sang & Veenstra (1999)
for IOB2/IOE1/IOE2; Ratinov & Roth (2009) for BILOU; seqeval 1.2.2
``seqeval/scheme.py`` for the strict chunk patterns.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from itertools import product

from nerscore.values.options import OptionEnum

__all__ = ["SCHEMES", "Mode", "Scheme", "SchemeTable", "get_scheme"]

# Canonical letter classes. DOT and OTHER, OPEN and CLOSE exist only for the
# compatibility decoders (seqeval's default mode and the Perl conlleval script).
O, B, I, E, S, DOT, OTHER, OPEN, CLOSE = range(9)
N_CLASSES = 9
CLASS_NAMES = ("O", "B", "I", "E", "S", ".", "?", "[", "]")
ENTITY_CLASSES = frozenset({B, I, E, S})
ALL = frozenset({O, B, I, E, S})

#: Letters understood when no scheme is given (``U``/``L``/``M`` are aliases).
DEFAULT_LETTERS: Mapping[str, int] = {"B": B, "I": I, "E": E, "S": S, "U": S, "L": E, "M": I}


class Scheme(OptionEnum):
    """The tagging schemes nerscore reads and writes."""

    IO = "IO"
    IOB1 = "IOB1"
    IOB2 = "IOB2"
    IOE1 = "IOE1"
    IOE2 = "IOE2"
    IOBES = "IOBES"
    BILOU = "BILOU"
    BMES = "BMES"

    @classmethod
    def _aliases(cls) -> dict[str, str]:
        return {"BIO": "IOB2", "BIOES": "IOBES", "IOBES": "IOBES", "BIOLU": "BILOU"}


class Mode(OptionEnum):
    """How tag sequences are decoded into entities (docs/schemes.md)."""

    LENIENT = "lenient"
    STRICT = "strict"
    CONLLEVAL = "conlleval"


Cond = str  # "any" | "same" | "diff"
Pattern = tuple[int, int, Cond]


def _expand(*patterns: tuple[frozenset[int] | int, frozenset[int] | int, Cond]) -> frozenset[Pattern]:
    out: set[Pattern] = set()
    for prev, cur, cond in patterns:
        prevs = prev if isinstance(prev, frozenset) else frozenset({prev})
        curs = cur if isinstance(cur, frozenset) else frozenset({cur})
        out.update((p, c, cond) for p, c in product(prevs, curs))
    return frozenset(out)


@dataclass(frozen=True)
class SchemeTable:
    """One tagging scheme as data.

    Attributes
    ----------
    scheme : Scheme
        Its name.
    letters : Mapping[str, int]
        Prefix letter -> canonical class (the dialect).
    valid : frozenset of (prev, cur, cond)
        Valid transitions between canonical classes; ``cond`` is ``"any"``,
        ``"same"`` (same type only) or ``"diff"``. A sequence starts and ends
        with an implicit ``O``.
    start, inside, end : frozenset of (prev, cur, cond)
        seqeval 1.2.2's strict-mode chunk patterns.
    """

    scheme: Scheme
    letters: Mapping[str, int]
    valid: frozenset[Pattern]
    start: frozenset[Pattern]
    inside: frozenset[Pattern]
    end: frozenset[Pattern]

    @property
    def classes(self) -> frozenset[int]:
        """Canonical classes the scheme uses (O included)."""
        return frozenset(self.letters.values()) | {O}

    def is_valid(self, prev: int, cur: int, same: bool) -> bool:
        """Whether ``cur`` may follow ``prev`` (``same``: the types are equal)."""
        cond = "same" if same else "diff"
        return (prev, cur, "any") in self.valid or (prev, cur, cond) in self.valid


_BIO = {"B": B, "I": I}
_IOE = {"I": I, "E": E}
_BIES = {"B": B, "I": I, "E": E, "S": S}
_IOBES_START = _expand((ALL, B, "any"), (ALL, S, "any"))
_IOBES_INSIDE = _expand((B, I, "same"), (B, E, "same"), (I, I, "same"), (I, E, "same"))
_IOBES_END = _expand((S, ALL, "any"), (E, ALL, "any"))
_IOBES_VALID = _expand(
    (frozenset({O, E, S}), frozenset({O, B, S}), "any"),
    (frozenset({B, I}), frozenset({I, E}), "same"),
)


def _iobes(scheme: Scheme, letters: Mapping[str, int]) -> SchemeTable:
    return SchemeTable(scheme, letters, _IOBES_VALID, _IOBES_START, _IOBES_INSIDE, _IOBES_END)


SCHEMES: Mapping[Scheme, SchemeTable] = {
    Scheme.IO: SchemeTable(
        Scheme.IO,
        {"I": I},
        _expand((frozenset({O, I}), frozenset({O, I}), "any")),
        _expand((O, I, "any"), (I, I, "diff")),
        _expand((I, I, "same"),),
        _expand((I, O, "any"), (I, I, "diff")),
    ),
    Scheme.IOB1: SchemeTable(
        Scheme.IOB1,
        _BIO,
        _expand(
            (frozenset({O, B, I}), frozenset({O, I}), "any"),
            (frozenset({B, I}), B, "same"),
        ),
        _expand((O, I, "any"), (I, I, "diff"), (B, I, "any"), (I, B, "same"), (B, B, "same")),
        _expand((B, I, "same"), (I, I, "same")),
        _expand(
            (I, I, "diff"), (I, O, "any"), (I, B, "any"), (B, O, "any"), (B, I, "diff"),
            (B, B, "same"),
        ),
    ),
    Scheme.IOB2: SchemeTable(
        Scheme.IOB2,
        _BIO,
        _expand(
            (frozenset({O, B, I}), frozenset({O, B}), "any"),
            (frozenset({B, I}), I, "same"),
        ),
        _expand((ALL, B, "any"),),
        _expand((B, I, "same"), (I, I, "same")),
        _expand(
            (I, O, "any"), (I, I, "diff"), (I, B, "any"), (B, O, "any"), (B, I, "diff"),
            (B, B, "any"),
        ),
    ),
    Scheme.IOE1: SchemeTable(
        Scheme.IOE1,
        _IOE,
        _expand(
            (frozenset({O, I}), frozenset({O, I, E}), "any"),
            (E, frozenset({I, E}), "same"),
        ),
        _expand((O, I, "any"), (I, I, "diff"), (E, I, "any"), (E, E, "same")),
        _expand((I, I, "same"), (I, E, "same")),
        _expand((I, I, "diff"), (I, O, "any"), (I, E, "diff"), (E, I, "same"), (E, E, "same")),
    ),
    Scheme.IOE2: SchemeTable(
        Scheme.IOE2,
        _IOE,
        _expand(
            (frozenset({O, E}), frozenset({O, I, E}), "any"),
            (I, frozenset({I, E}), "same"),
        ),
        _expand(
            (O, I, "any"), (O, E, "any"), (E, I, "any"), (E, E, "any"), (I, I, "diff"),
            (I, E, "diff"),
        ),
        _expand((I, E, "same"), (I, I, "same")),
        _expand((E, ALL, "any"),),
    ),
    Scheme.IOBES: _iobes(Scheme.IOBES, _BIES),
    Scheme.BILOU: _iobes(Scheme.BILOU, {"B": B, "I": I, "L": E, "U": S}),
    Scheme.BMES: _iobes(Scheme.BMES, {"B": B, "M": I, "E": E, "S": S}),
}


def get_scheme(name: str | Scheme) -> SchemeTable:
    """Look a scheme's table up by name (``"BIO"`` and ``"BIOES"`` are aliases).

    Examples
    --------
    >>> get_scheme("BIO").scheme
    <Scheme.IOB2: 'IOB2'>
    >>> sorted(get_scheme("BILOU").letters)
    ['B', 'I', 'L', 'U']
    """
    try:
        scheme = Scheme.parse(name, name="scheme")
    except ValueError as exc:
        from nerscore.errors import SchemeError

        raise SchemeError(str(exc)) from None
    return SCHEMES[scheme]


@dataclass(frozen=True)
class EventRules:
    """Chunk boundary rules of the event decoder (lenient and compat modes).

    An entity *ends* between tokens p and c when ``(p, c)`` is in ``end`` or
    ``p`` is in ``end_on_type_change`` and the types differ; it *starts* at
    c when ``(p, c)`` is in ``start`` or ``c`` is in ``start_on_type_change``
    and the types differ.
    """

    end: frozenset[tuple[int, int]]
    start: frozenset[tuple[int, int]]
    end_on_type_change: frozenset[int]
    start_on_type_change: frozenset[int]


#: docs/schemes.md lenient mode (seqeval's default mode and conlleval for O/B/I/E).
LENIENT = EventRules(
    end=frozenset(
        {(p, c) for p in (E, S) for c in ALL}
        | {(p, c) for p in (B, I) for c in (B, S, O)}
    ),
    start=frozenset(
        {(p, c) for p in ALL for c in (B, S)}
        | {(p, c) for p in (E, S, O) for c in (E, I)}
    ),
    end_on_type_change=frozenset({B, I, E, S}),
    start_on_type_change=frozenset({B, I, E, S}),
)
