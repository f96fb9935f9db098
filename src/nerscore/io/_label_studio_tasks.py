"""Reading the parts of a Label Studio task: its text, annotations, annotator and span results."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

from nerscore.errors import FormatError, quoted
from nerscore.io._json_text import json_kind
from nerscore.io._tool_spans import ToolSpan

__all__ = ["annotator_of", "result_spans", "task_records", "task_text"]


def task_text(task: dict[str, Any], source: str, where: str) -> str:
    """The text of a task: ``data.text``, or the one string field of ``data``."""
    data = task.get("data")
    if not isinstance(data, dict):
        hint = (" This looks like a JSON-MIN or CSV-style export: export the project as JSON."
                if "text" in task else "")
        raise FormatError(f"{source}: {where} has no 'data' object; a Label Studio task is "
                          "{\"data\": {\"text\": ...}, \"annotations\": [...]}." + hint,
                          source=source)
    text = data.get("text")
    if isinstance(text, str):
        return text
    strings = [k for k, v in data.items() if isinstance(v, str)]
    if text is None and len(strings) == 1:
        return str(data[strings[0]])
    raise FormatError(f"{source}: {where} has no string 'data.text' (its data has "
                      f"{', '.join(map(quoted, data)) or 'no fields'}); nerscore reads the text "
                      "of a task from data.text.", source=source)


def task_records(task: dict[str, Any], keys: tuple[str, ...], source: str,
                 where: str) -> list[dict[str, Any]]:
    """The annotations (or predictions) of a task: a list of objects."""
    key = next((k for k in keys if task.get(k) is not None), keys[0])
    records = task.get(key)
    if records is None:
        return []
    if not isinstance(records, list) or not all(isinstance(r, dict) for r in records):
        raise FormatError(f"{source}: {where}: expected {key!r} to be a list of objects; got "
                          f"{json.dumps(records)[:80]}.", source=source)
    return records


def annotator_of(ann: dict[str, Any], aliases: dict[str, str]) -> str | None:
    """Who made an annotation (``completed_by``), recording an email's id in ``aliases``.

    None where the annotation names no one (no ``completed_by``, or one
    without an ``id`` or ``email`` that is not null).
    """
    who = ann.get("completed_by")
    if isinstance(who, dict):
        ident, email = who.get("id"), who.get("email")
        if ident is None and email is None:
            return None
        name = str(email if ident is None else ident)
        if email is not None:
            aliases[str(email)] = name
        return name
    return None if who is None else str(who)


def result_spans(result: Any, where: str, score: Any, source: str,
                 counts: Counter[str]) -> list[ToolSpan]:
    """The spans of the ``labels`` results of a ``result`` list; other results are counted."""
    if not isinstance(result, list):
        raise FormatError(f"{source}: {where}: expected 'result' to be a list; got "
                          f"{json_kind(result)}.", source=source)
    out = []
    for k, item in enumerate(result):
        kind = item.get("type") if isinstance(item, dict) else None
        if kind != "labels":
            counts[f"ignored:{kind}" if kind else "untyped"] += 1
            continue
        at = f"{where}, result {quoted(item.get('id', k))}"
        value = item.get("value")
        ok = isinstance(value, dict) and all(
            isinstance(value.get(f), int) and not isinstance(value.get(f), bool)
            for f in ("start", "end"))
        labels = value.get("labels") if isinstance(value, dict) else None
        if not ok or not isinstance(labels, list) or not all(isinstance(x, str) for x in labels):
            raise FormatError(f"{source}: {at}: expected 'value' with integer 'start' and 'end' "
                              f"and a list of 'labels'; got {json.dumps(value)[:120]}.",
                              source=source)
        assert isinstance(value, dict)
        text = value.get("text") if isinstance(value.get("text"), str) else None
        s = item.get("score", score)
        conf = float(s) if isinstance(s, int | float) and not isinstance(s, bool) else None
        if len(labels) != 1:
            counts["multi_label" if labels else "no_label"] += 1
        out += [ToolSpan(value["start"], value["end"], label, text, conf, at) for label in labels]
    return out
