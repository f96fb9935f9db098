"""Reading JSON that a model cut short or wrote slightly wrong, counting every repair.

Only repairs with one reading are made (docs/llm.md):

- a trailing comma before ``]`` or ``}`` is removed;
- an output cut short is cut back to its last complete value (an array
  element or an object member's value) and the open strings, arrays and
  objects are closed, so the element being written when the output stopped
  is dropped, never guessed;
- a Python literal (single quotes, ``True``/``None``) is read as Python.

Anything else is not repaired: the caller reports a parse failure.
"""

from __future__ import annotations

import ast
import re
from typing import Any

from nerscore.errors import FormatError
from nerscore.io._json_text import parse_json

__all__ = ["find_json", "load_json", "matching_end"]


def find_json(text: str) -> tuple[int, str] | None:
    r"""Where a JSON array or object starts in ``text``, and its text (fences removed).

    The first fenced block (```` ``` ```` or ```` ```json ````) is taken when
    there is one; otherwise the text from the first ``[`` or ``{`` that opens
    an array of values or an object (``[{``, ``["``, ``[[``, ``[]``, ``{"``,
    ...), so prose around the JSON and Markdown links (``[Paris](LOC)``) are
    told apart.

    Examples
    --------
    >>> find_json('Sure! ```json\n[{"a": 1}]\n``` Done.')
    (14, '[{"a": 1}]\n')
    >>> find_json('The answer: [{"a": 1}] and more.')
    (12, '[{"a": 1}] and more.')
    >>> find_json("[Paris](LOC) is a city") is None
    True
    """
    fence = text.find("```")
    if fence >= 0:
        body = text.find("\n", fence)
        if body >= 0 and not text[fence + 3:body].strip(" \t").count(" "):
            close = text.find("```", body + 1)
            inner = text[body + 1:close if close >= 0 else len(text)]
            at = _start(inner)
            if at is not None:
                return body + 1 + at, inner[at:]
    at = _start(text)
    if at is None:
        return None
    return at, text[at:]


_OPENING = re.compile(r"""[\[{](?=\s*(?:[\[{"'\]}]|$))""")


def _start(text: str) -> int | None:
    """The first ``[`` or ``{`` that opens JSON-looking content (a value or a closing bracket next)."""
    found = _OPENING.search(text)
    return None if found is None else found.start()


def matching_end(text: str, at: int) -> int:
    """The end of the value opened at ``at`` (the end of ``text`` when it is never closed)."""
    depth, in_str, esc = 0, "", False
    for i in range(at, len(text)):
        ch = text[i]
        if in_str:
            if esc:
                esc = False
            elif ch == "\\":
                esc = True
            elif ch == in_str:
                in_str = ""
        elif ch in "\"'":
            in_str = ch
        elif ch in "[{":
            depth += 1
        elif ch in "]}":
            depth -= 1
            if depth == 0:
                return i + 1
    return len(text)


def load_json(text: str) -> tuple[Any, list[str]] | tuple[None, list[str]]:
    """Read ``text`` as JSON, repairing it where there is one reading; return the value and repairs.

    Returns ``(None, [message])`` when it cannot be read (the message says
    where it broke).

    Examples
    --------
    >>> load_json('[{"text": "Paris", "label": "LOC"},]')
    ([{'text': 'Paris', 'label': 'LOC'}], ['removed 1 trailing comma(s)'])
    >>> load_json('[{"text": "Paris", "label": "LOC"}, {"text": "Fra')
    ([{'text': 'Paris', 'label': 'LOC'}], ['closed a JSON output cut short, dropping its last 15 characters'])
    >>> load_json("{'LOC': ['Paris']}")
    ({'LOC': ['Paris']}, ['read a Python literal (single quotes) as JSON'])
    """
    try:
        return parse_json(text), []
    except FormatError as exc:
        first = exc
    cleaned, n_commas, cut, closers = _scan(text)
    repairs = [f"removed {n_commas} trailing comma(s)"] if n_commas else []
    if closers or cut < len(text.rstrip()):
        dropped = len(text.rstrip()) - cut
        repairs.append("closed a JSON output cut short"
                       + (f", dropping its last {dropped} character{'s' if dropped > 1 else ''}"
                          if dropped > 0 else ""))
    candidate = cleaned + closers
    if repairs:
        try:
            return parse_json(candidate), repairs
        except FormatError:
            pass
    try:
        value = ast.literal_eval(text.strip())
    except (ValueError, SyntaxError, MemoryError, RecursionError):
        value = None
    if isinstance(value, (list, dict)):
        return value, ["read a Python literal (single quotes) as JSON"]
    return None, [str(first)]


def _scan(text: str) -> tuple[str, int, int, str]:
    """Trailing commas removed, and for a value never closed: where to cut it and what closes it.

    Returns the cleaned text up to the cut, the number of commas removed, the
    cut's position in ``text``, and the closing brackets (empty when the
    value is complete).
    """
    out: list[str] = []
    stack: list[str] = []  # "[" or "{k" (object, expecting a key) or "{v" (expecting a value)
    in_str = esc = False
    commas = 0
    safe_out, safe_pos = 0, 0
    safe_stack: list[str] | None = None
    i = 0
    n = len(text)
    while i < n:
        ch = text[i]
        if in_str:
            out.append(ch)
            if esc:
                esc = False
            elif ch == "\\":
                esc = True
            elif ch == '"':
                in_str = False
                if stack and stack[-1] != "{k":  # a complete value (not a key)
                    safe_out, safe_pos, safe_stack = len(out), i + 1, list(stack)
            i += 1
            continue
        if ch == '"':
            in_str = True
            out.append(ch)
        elif ch == ",":
            j = i + 1
            while j < n and text[j] in " \t\r\n":
                j += 1
            if j < n and text[j] in "]}":
                commas += 1
            else:
                out.append(ch)
                if stack and stack[-1] == "{v":
                    stack[-1] = "{k"
        elif ch == ":" and stack and stack[-1] == "{k":
            stack[-1] = "{v"
            out.append(ch)
        elif ch in "[{":
            stack.append("[" if ch == "[" else "{k")
            out.append(ch)
        elif ch in "]}":
            if stack:
                stack.pop()
            out.append(ch)
            if stack and stack[-1] != "{k":
                safe_out, safe_pos, safe_stack = len(out), i + 1, list(stack)
            elif not stack:
                return "".join(out), commas, i + 1, ""
        else:
            out.append(ch)
            if ch.isalnum() and stack and stack[-1] != "{k" and (
                    i + 1 < n and not text[i + 1].isalnum() and text[i + 1] != "."):
                safe_out, safe_pos, safe_stack = len(out), i + 1, list(stack)
        i += 1
    if not stack and not in_str:
        return "".join(out), commas, n, ""
    if safe_stack is None:
        return "", commas, 0, ""
    kept = "".join(out[:safe_out])
    closers = "".join("]" if s == "[" else "}" for s in reversed(safe_stack))
    return kept, commas, safe_pos, closers
