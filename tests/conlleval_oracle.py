"""A slow, line-by-line model of the Perl conlleval script (2004-01-26), for tests only.

It follows the script statement by statement (one loop over lines, the
``inCorrect`` flag, hashes of counts, Perl's ``sort`` and ``printf``) on
bytes, so that the vectorised implementation can be compared with it on
random input. It is checked against every recorded output of the real
script in ``tests/data/conlleval``. Fields are split with a literal
delimiter or a Python regular expression (the recorded cases use only
delimiters whose meaning is the same in both). Perl's own interpreter
warnings are not modelled.
"""

from __future__ import annotations

import re


class ScriptStopped(Exception):
    def __init__(self, stderr: bytes, status: int) -> None:
        super().__init__(stderr)
        self.stderr = stderr
        self.status = status


def _split(delimiter: bytes, line: bytes) -> list[bytes]:
    fields: list[bytes] = []
    pos = 0
    for m in re.finditer(delimiter, line):
        if m.start() == m.end() and (m.start() == pos or m.start() == len(line)):
            continue
        fields.append(line[pos:m.start()])
        fields.extend(g if g is not None else b"" for g in m.groups())
        pos = m.end()
    fields.append(line[pos:])
    while fields and not fields[-1]:
        fields.pop()
    return fields


def _end_of_chunk(prev_tag: bytes, tag: bytes, prev_type: bytes, typ: bytes) -> bool:
    end = False
    if (prev_tag, tag) in {(b"B", b"B"), (b"B", b"O"), (b"I", b"B"), (b"I", b"O"),
                           (b"E", b"E"), (b"E", b"I"), (b"E", b"O")}:
        end = True
    if prev_tag != b"O" and prev_tag != b"." and prev_type != typ:
        end = True
    if prev_tag in (b"]", b"["):
        end = True
    return end


def _start_of_chunk(prev_tag: bytes, tag: bytes, prev_type: bytes, typ: bytes) -> bool:
    start = False
    if (prev_tag, tag) in {(b"B", b"B"), (b"I", b"B"), (b"O", b"B"), (b"O", b"I"),
                           (b"E", b"E"), (b"E", b"I"), (b"O", b"E")}:
        start = True
    if tag != b"O" and tag != b"." and prev_type != typ:
        start = True
    if tag in (b"[", b"]"):
        start = True
    return start


def _split_tag(tag: bytes) -> tuple[bytes, bytes]:
    m = re.fullmatch(rb"([^-]*)-(.*)", tag, re.DOTALL)
    if m:
        return m.group(1), m.group(2)
    return tag, b""


def _perl_d(value: bytes) -> bytes:
    m = re.match(rb"\s*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?", value)
    return str(int(float(m.group(0)))).encode() if m else b"0"


def conlleval(data: bytes, *, delimiter: bytes = b" ", raw: bool = False, otag: bytes = b"O",
              latex: bool = False) -> bytes:
    """The script's standard output for ``data``; raises ScriptStopped where it exits."""
    if delimiter == b"\\t":
        delimiter = b"\t"
    elif not re.search(rb"[\\^$.|?*+()\[\]{}]", delimiter):
        delimiter = re.escape(delimiter)
    boundary = b"-X-"
    correct_chunk = correct_tags = found_correct = found_guessed = token_counter = 0
    in_correct = False
    last_correct, last_guessed = b"O", b"O"
    last_correct_type, last_guessed_type = b"", b""
    n_features = -1
    correct_by: dict[bytes, int] = {}
    found_correct_by: dict[bytes, int] = {}
    found_guessed_by: dict[bytes, int] = {}

    lines = data.split(b"\n")
    if data.endswith(b"\n"):
        lines.pop()
    if data == b"":
        lines = []
    for line in lines:
        features = _split(delimiter, line)
        if n_features < 0:
            n_features = len(features) - 1
        elif n_features != len(features) - 1 and len(features) != 0:
            raise ScriptStopped(b"unexpected number of features: %d (%d)\n"
                                % (len(features), n_features + 1), 1)
        if len(features) == 0 or features[0] == boundary:
            features = [boundary, b"O", b"O"]
        if len(features) < 2:
            raise ScriptStopped(
                b"feature length is " + _perl_d(features[0]) + b". \n"
                b"conlleval: unexpected number of features in line " + line + b"\n", 255)
        if raw:
            if features[-1] == otag:
                features[-1] = b"O"
            if features[-2] == otag:
                features[-2] = b"O"
            if features[-1] != b"O":
                features[-1] = b"B-" + features[-1]
            if features[-2] != b"O":
                features[-2] = b"B-" + features[-2]
        guessed, guessed_type = _split_tag(features.pop())
        correct, correct_type = _split_tag(features.pop())
        guessed_type = b"" if guessed_type in (b"", b"0") else guessed_type
        correct_type = b"" if correct_type in (b"", b"0") else correct_type
        first_item = features[0] if features else None
        if first_item == boundary:
            guessed = b"O"

        end_c = _end_of_chunk(last_correct, correct, last_correct_type, correct_type)
        end_g = _end_of_chunk(last_guessed, guessed, last_guessed_type, guessed_type)
        start_c = _start_of_chunk(last_correct, correct, last_correct_type, correct_type)
        start_g = _start_of_chunk(last_guessed, guessed, last_guessed_type, guessed_type)
        if in_correct:
            if end_c and end_g and last_guessed_type == last_correct_type:
                in_correct = False
                correct_chunk += 1
                correct_by[last_correct_type] = correct_by.get(last_correct_type, 0) + 1
            elif end_c != end_g or guessed_type != correct_type:
                in_correct = False
        if start_c and start_g and guessed_type == correct_type:
            in_correct = True
        if start_c:
            found_correct += 1
            found_correct_by[correct_type] = found_correct_by.get(correct_type, 0) + 1
        if start_g:
            found_guessed += 1
            found_guessed_by[guessed_type] = found_guessed_by.get(guessed_type, 0) + 1
        if first_item != boundary:
            if correct == guessed and guessed_type == correct_type:
                correct_tags += 1
            token_counter += 1
        last_guessed, last_correct = guessed, correct
        last_guessed_type, last_correct_type = guessed_type, correct_type
    if in_correct:
        correct_chunk += 1
        correct_by[last_correct_type] = correct_by.get(last_correct_type, 0) + 1

    out = []
    if not latex:
        precision = 100 * correct_chunk / found_guessed if found_guessed > 0 else 0.0
        recall = 100 * correct_chunk / found_correct if found_correct > 0 else 0.0
        fb1 = 2 * precision * recall / (precision + recall) if precision + recall > 0 else 0.0
        out.append(b"processed %d tokens with %d phrases; found: %d phrases; correct: %d.\n"
                   % (token_counter, found_correct, found_guessed, correct_chunk))
        if token_counter > 0:
            out.append(b"accuracy: %6.2f%%; precision: %6.2f%%; recall: %6.2f%%; FB1: %6.2f\n"
                       % (100 * correct_tags / token_counter, precision, recall, fb1))
    sorted_types: list[bytes] = []
    last_type: bytes | None = None
    for i in sorted([*found_correct_by, *found_guessed_by]):
        if not last_type or last_type != i:  # Perl: "" is false, so it repeats
            sorted_types.append(i)
        last_type = i
    rows = []
    for i in sorted_types:
        c = correct_by.get(i, 0)
        fg = found_guessed_by.get(i, 0)
        fc = found_correct_by.get(i, 0)
        precision = 100 * c / fg if fg else 0.0
        recall = 100 * c / fc if fc else 0.0
        fb1 = 0.0 if precision + recall == 0.0 else 2 * precision * recall / (precision + recall)
        rows.append((i, precision, recall, fb1, fg))
    if not latex:
        for i, precision, recall, fb1, fg in rows:
            out.append(b"%17s: precision: %6.2f%%; recall: %6.2f%%; FB1: %6.2f  %d\n"
                       % (i, precision, recall, fb1, fg))
    else:
        out.append(b"        & Precision &  Recall  & F$_{\\beta=1} \\\\\\hline")
        for i, precision, recall, fb1, _ in rows:
            out.append(b"\n%-7s &  %6.2f\\%% & %6.2f\\%% & %6.2f \\\\"
                       % (i, precision, recall, fb1))
        out.append(b"\\hline\n")
        precision = 100 * correct_chunk / found_guessed if found_guessed > 0 else 0.0
        recall = 100 * correct_chunk / found_correct if found_correct > 0 else 0.0
        fb1 = 2 * precision * recall / (precision + recall) if precision + recall > 0 else 0.0
        out.append(b"Overall &  %6.2f\\%% & %6.2f\\%% & %6.2f \\\\\\hline\n"
                   % (precision, recall, fb1))
    return b"".join(out)
