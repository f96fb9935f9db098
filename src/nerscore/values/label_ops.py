r"""Label operations: rename, keep or drop entity labels before matching (docs/label-ops.md).

Three options that every scorer takes besides the matcher's own:

- ``labels_map``: a mapping ``{old: new}`` (``{"GPE": "LOC"}``); a label not
  in it stays as it is. Two labels mapped to one, or one mapped to a label
  that the data also has, are merged; the report says so;
- ``keep``: the labels scored (after ``labels_map``); every other entity
  is removed from both sides;
- ``drop``: the labels removed from both sides (after ``labels_map``).

``keep`` and ``drop`` exclude each other. The operations act on decoded
entities, so a mapped label never joins two adjacent entities into one.
:class:`LabelOps` holds the three as one validated value; public functions
take them as keywords (in ``**options``) and split them off with
:meth:`LabelOps.split`. What they did is counted in
:attr:`nerscore.Counts.tallies` (mergeable over batches) under keys
``"labels:<side>:map:<old>><new>"`` (:func:`map_name`: a ``>`` or ``\`` in
either label is written ``\>`` or ``\\``), ``"labels:<side>:drop:<label>"`` and
``"labels:<side>:into:<label>"`` (entities that already had a label others
were mapped to), and the labels the input had under ``"labels:any:seen:<label>"``;
:func:`label_notes` turns them into the report's notes.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from nerscore.errors import FormatError, OptionError, quoted

__all__ = ["LABEL_MAP_EXAMPLE", "LabelOps", "check_label_map", "label_notes", "map_name", "odd_label_notes",
           "seen_labels", "tally_key"]

_PREFIX = "labels:"

#: A label map as JSON, the example of messages about one.
LABEL_MAP_EXAMPLE = '{"GPE": "LOC"}'


def _label(value: object, what: str) -> str:
    if not isinstance(value, str) or not value:
        raise OptionError(f"Expected every label of `{what}` to be a non-empty str; got "
                          f"{value!r}.", option=what)
    return value


def _labels(value: object, what: str) -> tuple[str, ...]:
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, Iterable) or isinstance(value, Mapping):
        raise OptionError(f"Expected `{what}` to be a list of labels; got {value!r}.",
                          option=what)
    return tuple(dict.fromkeys(_label(v, what) for v in value))


@dataclass(frozen=True)
class LabelOps:
    """The ``labels_map``, ``keep`` and ``drop`` options as one validated value.

    Parameters
    ----------
    labels_map : mapping of str to str, optional
        New label of each label to rename.
    keep : list of str, optional
        Labels to score (after renaming); all others are removed.
    drop : list of str, optional
        Labels to remove (after renaming).

    Examples
    --------
    >>> ops, rest = LabelOps.split({"labels_map": {"GPE": "LOC"}, "drop": ["MISC"], "t": 0.5})
    >>> ops.labels_map, ops.drop, rest
    ((('GPE', 'LOC'),), ('MISC',), {'t': 0.5})
    >>> ops.new_label("GPE"), ops.new_label("MISC"), ops.new_label("PER")
    ('LOC', None, 'PER')
    >>> LabelOps(keep=["PER"], drop=["LOC"])
    Traceback (most recent call last):
    ...
    nerscore.errors.OptionError: Give `keep` or `drop`, not both: keep=['PER'] scores only those labels, drop=['LOC'] removes those.
    """

    labels_map: tuple[tuple[str, str], ...] = ()
    keep: tuple[str, ...] | None = None
    drop: tuple[str, ...] = ()

    #: The keywords, as public functions take them.
    KEYWORDS = ("labels_map", "keep", "drop")

    def __init__(self, labels_map: Mapping[str, str] | Iterable[tuple[str, str]] | None = None,
                 keep: Iterable[str] | None = None, drop: Iterable[str] | None = None) -> None:
        pairs: tuple[tuple[str, str], ...] = ()
        if labels_map is not None:
            items = labels_map.items() if isinstance(labels_map, Mapping) else labels_map
            try:
                pairs = tuple((_label(a, "labels_map"), _label(b, "labels_map"))
                              for a, b in items)
            except (TypeError, ValueError) as exc:
                if isinstance(exc, OptionError):
                    raise
                raise OptionError(f"Expected `labels_map` to be a mapping of labels to new "
                                  f"labels (e.g. {{'GPE': 'LOC'}}); got {labels_map!r}.",
                                  option="labels_map") from None
            seen: dict[str, str] = {}
            for a, b in pairs:
                if seen.get(a, b) != b:
                    raise OptionError(f"`labels_map` maps {a!r} twice: to {seen[a]!r} and "
                                      f"{b!r}; give one new label per label.",
                                      option="labels_map")
                seen[a] = b
            pairs = tuple((a, b) for a, b in seen.items() if a != b)
        kept = None if keep is None else _labels(keep, "keep")
        dropped = () if drop is None else _labels(drop, "drop")
        if kept is not None and dropped:
            raise OptionError(f"Give `keep` or `drop`, not both: keep={list(kept)} scores only "
                              f"those labels, drop={list(dropped)} removes those.",
                              option="keep")
        object.__setattr__(self, "labels_map", pairs)
        object.__setattr__(self, "keep", kept)
        object.__setattr__(self, "drop", dropped)

    @classmethod
    def split(cls, options: Mapping[str, Any]) -> tuple[LabelOps, dict[str, Any]]:
        """The label operations given among ``options``, and the other options."""
        mine = {k: options[k] for k in cls.KEYWORDS if k in options}
        return cls(**mine), {k: v for k, v in options.items() if k not in cls.KEYWORDS}

    def __bool__(self) -> bool:
        """Whether any operation is given."""
        return bool(self.labels_map) or self.keep is not None or bool(self.drop)

    def given(self) -> dict[str, Any]:
        """The operations given, as keywords (empty when none).

        Examples
        --------
        >>> LabelOps(labels_map={"GPE": "LOC"}, keep=["LOC"]).given()
        {'labels_map': {'GPE': 'LOC'}, 'keep': ['LOC']}
        """
        out: dict[str, Any] = {}
        if self.labels_map:
            out["labels_map"] = dict(self.labels_map)
        if self.keep is not None:
            out["keep"] = list(self.keep)
        if self.drop:
            out["drop"] = list(self.drop)
        return out

    def new_label(self, label: str) -> str | None:
        """What ``label`` becomes: its new name, or None when the entity is removed."""
        new = dict(self.labels_map).get(label, label)
        if self.keep is not None and new not in self.keep:
            return None
        return None if new in self.drop else new

    def unknown(self, labels: Iterable[str]) -> list[str]:
        """The labels named by the operations that ``labels`` (the data's) cannot produce.

        Examples
        --------
        >>> LabelOps(labels_map={"GEP": "LOC"}, drop=["MISC", "LOC"]).unknown(["GPE", "LOC"])
        ['GEP', 'MISC']
        """
        have = set(labels)
        mapped = have | {b for a, b in self.labels_map if a in have}
        named = [a for a, _ in self.labels_map if a not in have]
        named += [x for x in (*(self.keep or ()), *self.drop) if x not in mapped]
        return list(dict.fromkeys(named))

    def renamed_away(self, labels: Iterable[str]) -> list[tuple[str, str]]:
        """The labels ``keep`` or ``drop`` name that ``labels_map`` renames, and no label becomes.

        ``keep`` and ``drop`` name labels after renaming: a label of the
        data (``labels``) that the map renames is no label any more, unless
        another one is renamed to it. Each is given with its new name.

        Examples
        --------
        >>> LabelOps(labels_map={"PER": "P_X"}, keep=["PER", "LOC"]).renamed_away(["PER", "LOC"])
        [('PER', 'P_X')]
        >>> LabelOps(labels_map={"PER": "P_X", "MISC": "PER"}, drop=["PER"]).renamed_away(
        ...     ["PER", "MISC"])
        []
        """
        have = set(labels)
        renamed = dict(self.labels_map)
        after = {renamed.get(x, x) for x in have}
        named = dict.fromkeys((*(self.keep or ()), *self.drop))
        return [(x, renamed[x]) for x in named if x in have and x in renamed and x not in after]


def _tally(tallies: Mapping[str, int]) -> dict[str, dict[str, dict[str, int]]]:
    """``{what: {key: {side: n}}}`` of the label tallies."""
    out: dict[str, dict[str, dict[str, int]]] = {}
    for key, n in tallies.items():
        if not key.startswith(_PREFIX) or not n:
            continue
        side, what, name = key[len(_PREFIX):].split(":", 2)
        out.setdefault(what, {}).setdefault(name, {})[side] = int(n)
    return out


def _sides(counts: Mapping[str, int]) -> str:
    g, p = counts.get("gold", 0), counts.get("pred", 0)
    return f"{g} gold, {p} predicted entit{'y' if p == 1 else 'ies'}"


def _one(counts: Mapping[str, int]) -> str:
    n = counts.get("gold", 0)
    return f"{n} entit{'y' if n == 1 else 'ies'}"


def label_notes(tallies: Mapping[str, int], *, one_side: bool = False) -> tuple[str, ...]:
    """The report's notes on what the label operations did (none when they did nothing).

    Parameters
    ----------
    tallies : mapping of str to int
        :attr:`nerscore.Counts.tallies`.
    one_side : bool
        The tallies count one file (a conversion: its side is ``gold``):
        the notes give one number per label, and merged labels are "written as".

    Returns
    -------
    tuple of str

    Examples
    --------
    >>> for n in label_notes({"labels:gold:map:GPE>LOC": 2, "labels:pred:map:GPE>LOC": 1,
    ...                       "labels:gold:into:LOC": 3, "labels:pred:drop:MISC": 4}):
    ...     print(n)
    Labels renamed (labels_map): GPE -> LOC (2 gold, 1 predicted entity).
    Labels merged (labels_map): GPE and LOC are scored as LOC.
    Labels removed (keep/drop): MISC (0 gold, 4 predicted entities).
    """
    t = _tally(tallies)
    out = []
    maps = t.get("map", {})
    count = _one if one_side else _sides
    if maps:
        pairs = sorted((_split_map(k), v) for k, v in maps.items())
        shown = "; ".join(f"{_shown(a)} -> {_shown(b)} ({count(v)})" for (a, b), v in pairs)
        out.append(f"Labels renamed (labels_map): {shown}.")
        sources: dict[str, list[str]] = {}
        for (a, b), _ in pairs:
            sources.setdefault(b, []).append(a)
        for b in t.get("into", {}):
            sources.setdefault(b, []).append(b)
        for b, srcs in sources.items():
            if len(srcs) > 1:
                names = [_shown(x) for x in sorted(srcs)]
                out.append(f"Labels merged (labels_map): {', '.join(names[:-1])} and "
                           f"{names[-1]} are {'written' if one_side else 'scored'} as {_shown(b)}.")
    drops = t.get("drop", {})
    if drops:
        shown = "; ".join(f"{_shown(k)} ({count(v)})" for k, v in sorted(drops.items()))
        out.append(f"Labels removed (keep/drop): {shown}.")
    return tuple(out)


def odd_label_notes(sizes: Mapping[str, tuple[int, int]]) -> tuple[str, ...]:
    """Notes on labels with white space around them (or made of white space only).

    Such a label is scored as a label of its own: ``' LOC'`` is not ``'LOC'``,
    though a table shows it as if it were. It is nearly always a stray space
    in the data, so the report says so. (The empty label ``''`` is the label
    of untyped entities, not noted.)

    Parameters
    ----------
    sizes : mapping of str to (int, int)
        Every label of the report: its numbers of gold and of predicted
        entities. Labels without entities are not noted.

    Returns
    -------
    tuple of str

    Examples
    --------
    >>> for n in odd_label_notes({"LOC": (3, 2), " LOC": (0, 1), " ": (1, 0), "": (4, 4)}):
    ...     print(n)
    Label ' ' is only white space (1 gold, 0 predicted entities); it is scored as a label of its own. Give those entities a label.
    Label ' LOC' has white space around it (0 gold, 1 predicted entity), so it is scored apart from 'LOC', which the data also has. Strip the labels, or rename it (labels_map={' LOC': 'LOC'}, or --map-file).
    """
    out = []
    for label, (n_gold, n_pred) in sorted(sizes.items()):
        if not label or label == label.strip() or not n_gold + n_pred:
            continue
        counted = _sides({"gold": n_gold, "pred": n_pred})
        bare = label.strip()
        if not bare:
            out.append(f"Label {label!r} is only white space ({counted}); it is scored as a "
                       "label of its own. Give those entities a label.")
            continue
        also = ", which the data also has" if sum(sizes.get(bare, (0, 0))) else ""
        out.append(f"Label {label!r} has white space around it ({counted}), so it is scored "
                   f"apart from {bare!r}{also}. Strip the labels, or rename it "
                   f"(labels_map={{{label!r}: {bare!r}}}, or --map-file).")
    return tuple(out)


def _json(value: Any) -> str:
    """``value`` as JSON (as it stands in the file), cut short when long."""
    return quoted(value, lambda v: json.dumps(v, ensure_ascii=False))


def check_label_map(data: object, source: str, repeated: str | None = None) -> dict[str, str]:
    """The label map that the JSON value ``data`` of file ``source`` holds, checked.

    Parameters
    ----------
    data : object
        The file's JSON value: one object ``{"old": "new", ...}``.
    source : str
        The file, for messages.
    repeated : str, optional
        A key that the file's object has twice (a JSON reader keeps the last).

    Raises
    ------
    FormatError
        When ``data`` is not one object, or has an entry that is not a label
        (a non-empty string) mapped to a label, or a label twice; the message
        names the file and the entry.

    Examples
    --------
    >>> check_label_map({"GPE": "LOC", "FAC": "LOC"}, "map.json")
    {'GPE': 'LOC', 'FAC': 'LOC'}
    >>> check_label_map({"GPE": "LOC", "FAC": None}, "map.json")
    Traceback (most recent call last):
    ...
    nerscore.errors.FormatError: map.json: "FAC" maps to null; expected a new label (a non-empty string), such as {"GPE": "LOC"}.
    """
    example = f"such as {LABEL_MAP_EXAMPLE}"
    if not isinstance(data, dict):
        raise FormatError(f"{source}: expected one JSON object of labels to new labels, "
                          f"{example}; got {type(data).__name__}.", source=source)
    if repeated is not None:
        raise FormatError(f"{source}: the label {_json(repeated)} is mapped twice; keep "
                          "one of its entries.", source=source)
    for old, new in data.items():
        if not old:
            raise FormatError(f'{source}: the key "" is no label; give each label (a non-empty '
                              f"string) its new label, {example}.", source=source)
        if not isinstance(new, str) or not new:
            raise FormatError(f"{source}: {_json(old)} maps to {_json(new)}; "
                              f"expected a new label (a non-empty string), {example}.",
                              source=source)
    return data


def tally_key(side: str, what: str, name: str) -> str:
    """The key of one label tally (see the module documentation)."""
    return f"{_PREFIX}{side}:{what}:{name}"


def map_name(old: str, new: str) -> str:
    r"""The name of a renaming's tally: ``<old>><new>``, a ``>`` or ``\`` in a label escaped.

    Labels may hold ``>`` themselves (hierarchical ones such as
    ``ORG>COMPANY``), so the separator is the only unescaped one.

    Examples
    --------
    >>> map_name("GPE", "LOC"), map_name("ORG>COMPANY", "ORG")
    ('GPE>LOC', 'ORG\\>COMPANY>ORG')
    >>> _split_map(map_name("ORG>COMPANY", "ORG")), _split_map(map_name("a\\", "b>"))
    (('ORG>COMPANY', 'ORG'), ('a\\', 'b>'))
    """
    return f"{_escaped(old)}>{_escaped(new)}"


def _escaped(label: str) -> str:
    return label.replace("\\", "\\\\").replace(">", "\\>")


def _split_map(name: str) -> tuple[str, str]:
    """The old and the new label of a :func:`map_name`."""
    parts = ["", ""]
    k = 0
    chars = iter(name)
    for c in chars:
        if c == "\\":
            parts[k] += next(chars, "")
        elif c == ">" and k == 0:
            k = 1
        else:
            parts[k] += c
    return parts[0], parts[1]


def _shown(label: str) -> str:
    """A label as the notes list it: as it is, or quoted when it would not read as one."""
    odd = not label or label != label.strip() or any(x in label for x in (" -> ", "; ", ", ", " and "))
    return quoted(label) if odd else label


def seen_labels(tallies: Mapping[str, int]) -> list[str]:
    """The labels the input had before the operations (``labels:any:seen:<label>`` tallies).

    Examples
    --------
    >>> seen_labels({"labels:any:seen:PER": 2, "labels:gold:drop:PER": 1})
    ['PER']
    """
    return sorted(_tally(tallies).get("seen", {}))
