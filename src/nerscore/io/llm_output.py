"""Reading what a generative model answered as mentions (docs/llm.md).

:func:`parse_llm_output` reads one model output, whatever shape the model
chose, as a list of :class:`~nerscore.values.mentions.Mention`:

========================  =====================================================
format                    example
========================  =====================================================
``json-list``             ``[{"text": "Paris", "label": "LOC"}]`` (keys ``text`` /
                          ``entity`` / ``mention`` / ``span`` and ``label`` /
                          ``type`` / ``entity_type``; optional ``start``/``end``)
``json-dict``             ``{"LOC": ["Paris", "Lyon"]}``
``xml``                   ``<LOC>Paris</LOC> is nice``
``markdown``              ``[Paris](LOC) is nice``
``at-hash``               ``@@Paris##LOC is nice``
``label-lines``           ``LOC: Paris, Lyon`` (one label a line)
``item-lines``            ``- Paris (LOC)`` (one mention a line)
========================  =====================================================

JSON may sit in a code fence or among prose, and is repaired where the
repair has one reading (:mod:`nerscore.io._json_repair`); every repair is
listed in :attr:`ParsedOutput.repairs`. An output nothing can be read from
is a parse failure (``format="failed"``), never an exception.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any, NamedTuple

from nerscore.errors import FormatError, option_error, quoted
from nerscore.io._json_repair import find_json, load_json, matching_end
from nerscore.io._json_text import json_kind, parse_json
from nerscore.values.mentions import Mention, ParsedOutput

__all__ = ["LLM_FORMATS", "Item", "RawOutput", "items_from_json",
           "mentions_from_json", "parse_llm_output", "read_output"]

#: One mention on the hot path: ``(text, label, start, end)`` (offsets None when not given).
Item = tuple[str, str, "int | None", "int | None"]


class RawOutput(NamedTuple):
    """What a reader found, as plain tuples (the hot path of :func:`nerscore.evaluate_llm`).

    :func:`parse_llm_output` returns the same as a :class:`ParsedOutput` of
    :class:`Mention` values.
    """

    items: list[Item]
    format: str
    problems: tuple[str, ...] = ()
    repairs: tuple[str, ...] = ()
    text: str | None = None

    @property
    def failed(self) -> bool:
        """Whether nothing could be read."""
        return self.format == "failed"

TEXT_KEYS = ("text", "entity", "mention", "span", "name", "word")
LABEL_KEYS = ("label", "type", "entity_type", "entity_group", "category")
WRAPPER_KEYS = ("entities", "mentions", "spans", "named_entities", "ner", "results")

_XML = re.compile(r"<([A-Za-z][\w.-]*)>(.*?)</\1\s*>", re.DOTALL)
_MARKDOWN = re.compile(r"\[([^\[\]\n]+)\]\(([A-Za-z][\w .-]*)\)")
_AT_HASH = re.compile(r"@@(.+?)##([A-Za-z][\w-]*)")
_LABEL_LINE = re.compile(r"^\s*(?:[-*\u2022]\s*)?\**([A-Za-z][\w-]*)\**\s*:\s*(.*?)\s*$")
_ITEM_LINE = re.compile(r"^\s*(?:[-*\u2022]|\d+[.)])\s*(.+?)\s*\(([A-Za-z][\w -]*)\)\s*[.;,]?\s*$")
_NOTHING = frozenset({"", "none", "n/a", "na", "-", "null", "nil", "[]", "no entities"})


def _inline(pattern: re.Pattern[str], name: str) -> Callable[[str], RawOutput | None]:
    def read(output: str) -> RawOutput | None:
        parts: list[str] = []
        mentions: list[Item] = []
        at = length = 0
        for m in pattern.finditer(output):
            parts.append(output[at:m.start()])
            length += m.start() - at
            inner, label = m.group(1), m.group(2)
            if name == "xml":
                inner, label = m.group(2), m.group(1)
            parts.append(inner)
            mentions.append((inner, label.strip(), length, length + len(inner)))
            length += len(inner)
            at = m.end()
        if not mentions:
            return None
        parts.append(output[at:])
        return RawOutput(mentions, name, text="".join(parts))

    return read


def _split_values(value: str) -> list[str]:
    out = []
    for part in value.split(","):
        item = part.strip().strip("\"'`").strip()
        if item.lower() not in _NOTHING:
            out.append(item)
    return out


def _read_lines(output: str) -> RawOutput | None:
    mentions: list[Item] = []
    kinds: set[str] = set()
    for line in output.splitlines():
        item = _ITEM_LINE.match(line)
        if item:
            mentions.append((item.group(1).strip("\"'`*"), item.group(2).strip(), None, None))
            kinds.add("item-lines")
            continue
        lab = _LABEL_LINE.match(line)
        if lab:
            values = _split_values(lab.group(2))
            mentions.extend((v, lab.group(1), None, None) for v in values)
            kinds.add("label-lines")
    if not kinds:
        return None
    name = kinds.pop() if len(kinds) == 1 else "label-lines"
    return RawOutput(mentions, name)


def mentions_from_json(value: Any) -> tuple[list[Mention], list[str], str] | None:
    """Mentions of a JSON value (list of objects or pairs, or ``{label: [strings]}``).

    Returns the mentions, the problems (items skipped, each named by its
    number) and the format (``"json-list"`` or ``"json-dict"``); None when the
    value has neither shape.

    Examples
    --------
    >>> mentions_from_json({"LOC": ["Paris", "Lyon"], "PER": "Anna"})[0]
    [Mention(text='Paris', label='LOC', start=None, end=None), Mention(text='Lyon', label='LOC', start=None, end=None), Mention(text='Anna', label='PER', start=None, end=None)]
    >>> mentions_from_json([{"entity": "Paris"}, ["Lyon", "LOC"]])[1]
    ["item 1 ({'entity': 'Paris'}) has no label key ('label', 'type', 'entity_type', 'entity_group', 'category'); skipped"]
    """
    read = items_from_json(value)
    if read is None:
        return None
    return [Mention(*item) for item in read[0]], read[1], read[2]


def items_from_json(value: Any) -> tuple[list[Item], list[str], str] | None:
    """:func:`mentions_from_json` with the mentions as ``(text, label, start, end)`` tuples."""
    if isinstance(value, dict):
        for key in WRAPPER_KEYS:
            if isinstance(value.get(key), list) and len(value) == 1:
                return items_from_json(value[key])
        wrapped = [key for key in WRAPPER_KEYS if _holds_objects(value.get(key))]
        if len(wrapped) == 1:  # {"entities": [{...}], "reasoning": "..."}: no label holds objects
            key = wrapped[0]
            read = items_from_json(value[key])
            if read is not None:  # a list always reads
                others = [f"key {k!r} ({quoted(v)}) beside the entity list {key!r} is not read; "
                          "skipped" for k, v in value.items() if k != key]
                return read[0], [*read[1], *others], read[2]
        items: list[Item] = []
        problems: list[str] = []
        for label, listed in value.items():
            seq = [listed] if isinstance(listed, str) else listed
            if not isinstance(seq, list):
                problems.append(f"label {label!r}: expected a list of strings; got {quoted(listed)}; "
                                "skipped")
                continue
            for k, item in enumerate(seq, 1):
                if isinstance(item, str):
                    if item.strip().lower() not in _NOTHING:
                        items.append((item, str(label), None, None))
                else:
                    problems.append(f"label {label!r}, item {k}: expected a string; got "
                                    f"{quoted(item)}; skipped")
        return items, problems, "json-dict"
    if isinstance(value, list):
        items, problems = [], []
        for k, obj in enumerate(value, 1):
            if type(obj) is dict:  # the common case, without a function call
                text, label = obj.get("text"), obj.get("label")
                if (type(text) is str and type(label) is str and "start" not in obj
                        and "end" not in obj):
                    items.append((text, label, None, None))
                    continue
            found, problem = _item(obj, k)
            if found is not None:
                items.append(found)
            else:
                problems.append(problem)
        return items, problems, "json-list"
    return None


def _holds_objects(value: Any) -> bool:
    """Whether ``value`` is a list with an object (or a pair) among its items: no label's strings."""
    return isinstance(value, list) and any(isinstance(x, (dict, list)) for x in value)


def _item(item: Any, k: int) -> tuple[Item | None, str]:
    if isinstance(item, (list, tuple)) and len(item) == 2 and all(isinstance(x, str) for x in item):
        return (item[0], item[1], None, None), ""
    if not isinstance(item, Mapping):
        return None, f"item {k} ({quoted(item)}) is not an object with a text and a label; skipped"
    text = next((item[key] for key in TEXT_KEYS if key in item), None)
    label = next((item[key] for key in LABEL_KEYS if key in item), None)
    if not isinstance(text, str):
        return None, (f"item {k} ({quoted(item)}) has no text key ({', '.join(map(repr, TEXT_KEYS))}) "
                      "holding a string; skipped")
    if not isinstance(label, str):
        return None, (f"item {k} ({quoted(item)}) has no label key "
                      f"({', '.join(map(repr, LABEL_KEYS))}); skipped")
    start, end = item.get("start"), item.get("end")
    if isinstance(start, int) and isinstance(end, int) and _is_int(start) and _is_int(end):
        return (text, label, start, end), ""
    return (text, label, None, None), ""


def _is_int(x: object) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _read_json(output: str) -> RawOutput | None:
    found = find_json(output)
    if found is None:
        return None
    at, body = found
    try:  # well-formed JSON, prose after it ignored
        value, repairs = parse_json(body, prefix=True), []
    except FormatError:
        value, repairs = load_json(body[:matching_end(body, 0)])
    if value is None:
        line = output.count("\n", 0, at) + 1
        return RawOutput([], "failed", (f"{repairs[0]} in the JSON starting at line {line}",))
    read = items_from_json(value)
    if read is None:
        return None
    items, problems, name = read
    return RawOutput(items, name, tuple(problems), tuple(repairs))


def _read_spacy_llm(output: str) -> RawOutput | None:
    """``LABEL: a, b`` lines as spacy-llm's ``spacy.NER.v2`` parser reads them.

    Every line with a colon: the label before the first colon, the phrases
    after it split at commas and stripped (quotes and "none" kept, empty
    phrases skipped).
    """
    items: list[Item] = []
    for line in output.strip().split("\n"):
        if line and ":" in line:
            label, phrases = line.split(":", 1)
            items.extend((p.strip(), label.strip(), None, None)
                         for p in phrases.strip().split(",") if p.strip())
    return RawOutput(items, "spacy-llm") if items else None


_READERS: dict[str, Callable[[str], RawOutput | None]] = {
    "json": _read_json,
    "xml": _inline(_XML, "xml"),
    "markdown": _inline(_MARKDOWN, "markdown"),
    "at-hash": _inline(_AT_HASH, "at-hash"),
    "lines": _read_lines,
    "spacy-llm": _read_spacy_llm,
}

#: The ``format=`` values of :func:`parse_llm_output`, ``"auto"`` first.
LLM_FORMATS = ("auto", *_READERS)


def parse_llm_output(output: object, *, format: str = "auto") -> ParsedOutput:  # noqa: A002
    r"""Read a generative model's answer as mentions; a parse failure is a result, never raised.

    Parameters
    ----------
    output : str
        The model's output as it was returned.
    format : {"auto", "json", "xml", "markdown", "at-hash", "lines", "spacy-llm"}
        Which reader to use; ``"auto"`` (default) tries JSON (fenced, bare or
        among prose), then XML-like tags, Markdown links, ``@@text##LABEL``
        and finally ``LABEL: a, b`` / ``- a (LABEL)`` lines. ``"spacy-llm"``
        reads ``LABEL: a, b`` lines exactly as spacy-llm's ``spacy.NER.v2``
        task does (never chosen by ``"auto"``).

    Returns
    -------
    ParsedOutput
        ``.mentions``, ``.format`` (what it was read as; ``"failed"`` when
        nothing could be read, ``"empty"`` for an empty or "none" answer),
        ``.problems`` and ``.repairs``.

    Raises
    ------
    OptionError
        For an unknown ``format``.

    See Also
    --------
    nerscore.align_mentions : place the mentions in the source text.

    Examples
    --------
    >>> out = parse_llm_output('```json\n[{"text": "Paris", "label": "LOC"}]\n```')
    >>> out.format, out.mentions
    ('json-list', [Mention(text='Paris', label='LOC', start=None, end=None)])
    >>> parse_llm_output("<PER>Anna</PER> flew to <LOC>Paris</LOC>.").text
    'Anna flew to Paris.'
    >>> parse_llm_output("LOC: Paris, Lyon\nPER: Anna").mentions[1]
    Mention(text='Lyon', label='LOC', start=None, end=None)
    >>> bad = parse_llm_output("I cannot help with that.")
    >>> bad.failed, bad.problems
    (True, ('no entity list found: not JSON, inline markup or label lines',))
    """
    read = read_output(output, format=format)
    raw = output if isinstance(output, str) else repr(output)
    return ParsedOutput([Mention(*item) for item in read.items], read.format, read.problems,
                        read.repairs, read.text, raw=raw)


def read_output(output: object, *, format: str = "auto") -> RawOutput:  # noqa: A002
    """:func:`parse_llm_output` with the mentions as ``(text, label, start, end)`` tuples.

    Examples
    --------
    >>> read_output("LOC: Paris").items
    [('Paris', 'LOC', None, None)]
    """
    if format not in LLM_FORMATS:
        raise option_error("format", "one of " + ", ".join(map(repr, LLM_FORMATS)), format)
    if not isinstance(output, str):
        return RawOutput([], "failed", (f"expected the output to be a string; got "
                                        f"{json_kind(output)}",))
    if output.strip().strip(".").lower() in _NOTHING:
        return RawOutput([], "empty")
    failed: RawOutput | None = None
    for name, reader in _READERS.items():
        if format != name and (format != "auto" or name == "spacy-llm"):
            continue
        parsed = reader(output)
        if parsed is not None and parsed.failed:
            failed = failed or parsed
        elif parsed is not None and (parsed.items or failed is None):
            return parsed
    if failed is not None:
        return failed
    what = "not JSON, inline markup or label lines" if format == "auto" else f"format={format!r}"
    return RawOutput([], "failed", (f"no entity list found: {what}",))
