"""Fuzzing: whatever users pass, nerscore answers with a result or a located NerscoreError.

Arbitrary tag strings and nested lists, arbitrary span tuples and dicts
(negative, reversed, huge, float, None and bool values), and arbitrary bytes
as CoNLL, JSON Lines and BRAT files go through the public functions (with
every registered matcher) and through the command line in-process. The
allowed outcomes are a result, or a :class:`nerscore.NerscoreError` whose
message names the side or the place; the command line exits 0, 1 or 2, says
why on standard error, and never shows a traceback. Any other exception fails.
"""

from __future__ import annotations

import contextlib
import io
import re
import tempfile
import warnings
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings, strategies as st

import nerscore
from nerscore.cli import main
from nerscore.matching import get_matcher, matcher_names

# bounded so that the whole file runs in about half a minute on two cores
_CHECKS = [HealthCheck.too_slow, HealthCheck.filter_too_much]
FUZZ = settings(max_examples=1000, deadline=None, database=None, suppress_health_check=_CHECKS)
FUZZ_CLI = settings(max_examples=400, deadline=None, database=None,
                    suppress_health_check=_CHECKS)

#: Words that say which side or which place a data error is about.
LOCATED = re.compile(
    r"gold|y_true|predict|y_pred|file|line|sentence|token|document|\.conll|\.jsonl|\.ann",
    re.IGNORECASE,
)

# ----------------------------------------------------------------------------- strategies

TAG_WORDS = ["O", "B-PER", "I-PER", "E-PER", "S-LOC", "U-LOC", "L-LOC", "M-X", "I-LOC",
             "B-", "-", "B", "I", "", "PER-B", "B-PER-X", "o", " B-PER"]
tag = st.one_of(st.sampled_from(TAG_WORDS), st.text(max_size=6))
odd = st.one_of(st.none(), st.booleans(), st.integers(-3, 3), st.floats(allow_nan=True),
                st.binary(max_size=3))
tag_item = st.one_of(tag, tag, tag, odd)
tag_sequences = st.one_of(
    st.lists(st.lists(tag, max_size=6), max_size=4),
    st.lists(st.lists(tag_item, max_size=6), max_size=4),
    st.lists(tag_item, max_size=6),
    st.lists(st.one_of(st.lists(tag, max_size=4), tag_item), max_size=4),
    st.lists(st.lists(st.integers(-2, 5), max_size=4), min_size=1, max_size=3),
)

offset = st.one_of(st.integers(-3, 30), st.integers(-3, 30), st.integers(),
                   st.floats(allow_nan=True, allow_infinity=True), st.none(), st.booleans())
label = st.one_of(st.sampled_from(["PER", "LOC", "ORG", ""]), st.text(max_size=4), st.none(),
                  st.integers(0, 3))
span_tuple = st.one_of(
    st.tuples(st.integers(0, 20), st.integers(0, 20), st.sampled_from(["PER", "LOC"])),
    st.tuples(offset, offset, label),
    st.lists(st.one_of(offset, label), max_size=4).map(tuple),
)
span_dict = st.one_of(
    st.fixed_dictionaries({"start": offset, "end": offset, "label": label}),
    st.dictionaries(st.sampled_from(["start", "end", "label", "id", "spans", "x"]),
                    st.one_of(offset, label), max_size=4),
)
span = st.one_of(span_tuple, span_tuple, span_dict)
doc_spans = st.lists(span, max_size=4)
doc_id = st.one_of(st.sampled_from(["a", "b", "c"]), st.integers(0, 2), st.none(),
                   st.booleans())
doc_dict = st.dictionaries(
    st.sampled_from(["id", "text", "spans", "entities"]),
    st.one_of(doc_id, st.text(max_size=12), doc_spans, st.none()),
    max_size=4,
)
span_inputs = st.one_of(
    st.lists(doc_spans, max_size=3),
    doc_spans,
    st.lists(doc_dict, max_size=3),
    st.dictionaries(st.sampled_from(["a", "b", "c"]), doc_spans, max_size=3),
    st.dictionaries(st.one_of(st.integers(0, 2), st.none()), doc_spans, max_size=2),
)
side = st.one_of(tag_sequences, span_inputs, odd, st.text(max_size=5))


@st.composite
def matcher_options(draw: st.DrawFn) -> tuple[str, dict[str, Any]]:
    """A matcher name and some valid options of it."""
    name = draw(st.sampled_from(matcher_names()))
    options: dict[str, Any] = {}
    for option in get_matcher(name).options:
        if not draw(st.booleans()):
            continue
        if option.choices:
            options[option.name] = draw(st.sampled_from([*option.choices, option.default]))
        elif isinstance(option.default, bool):
            options[option.name] = draw(st.booleans())
        elif isinstance(option.default, float):
            options[option.name] = draw(st.sampled_from([0.25, 0.5, 1.0]))
    return name, options


decoding = st.one_of(
    st.just({}),
    st.fixed_dictionaries({"suffix": st.booleans(), "delimiter": st.sampled_from(["-", "_", ""]),
                           "outside": st.sampled_from(["O", "NONE", ""])}),
    st.fixed_dictionaries({"scheme": st.sampled_from(["IOB2", "IOBES", "BILOU", "IO"]),
                           "mode": st.sampled_from(["lenient", "strict", "conlleval"])}),
    st.fixed_dictionaries({"mode": st.sampled_from(["lenient", "conlleval"])}),
)

# ------------------------------------------------------------------------------------ API


def _check_error(exc: nerscore.NerscoreError) -> None:
    message = str(exc)
    assert message, f"{type(exc).__name__} without a message"
    if not isinstance(exc, nerscore.OptionError):
        assert LOCATED.search(message), f"unlocated {type(exc).__name__}: {message}"


def _call(fn: Any, *args: Any, **kwargs: Any) -> None:
    """Call ``fn``: a result, or a NerscoreError that names the side or the place."""
    error = None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            fn(*args, **kwargs)
        except nerscore.NerscoreError as exc:
            error = exc
    if error is not None:
        _check_error(error)


@FUZZ
@given(y_true=side, y_pred=side, match=matcher_options(), dec=decoding)
def test_api_answers_or_raises_a_located_error(
    y_true: Any, y_pred: Any, match: tuple[str, dict[str, Any]], dec: dict[str, Any]
) -> None:
    name, options = match
    _call(nerscore.evaluate, y_true, y_pred, match=name, **dec, **options)
    _call(nerscore.f1_score, y_true, y_pred, match=name, **dec, **options)
    _call(nerscore.count_matches, y_true, y_pred, match=name, **dec, **options)
    if get_matcher(name).aligns:
        _call(nerscore.confusion_matrix, y_true, y_pred, match=name, **dec, **options)
        _call(nerscore.list_errors, y_true, y_pred, match=name, **dec, **options)


@FUZZ
@given(y_true=tag_sequences, y_pred=tag_sequences, dec=decoding)
def test_api_on_tags(y_true: Any, y_pred: Any, dec: dict[str, Any]) -> None:
    _call(nerscore.evaluate, y_true, y_pred, **dec)
    _call(nerscore.f1_score, y_true, y_pred, average=None, **dec)
    _call(nerscore.evaluate, y_true, y_pred, match="token", **dec)


@FUZZ
@given(y_true=span_inputs, y_pred=span_inputs, match=matcher_options())
def test_api_on_spans(y_true: Any, y_pred: Any, match: tuple[str, dict[str, Any]]) -> None:
    name, options = match
    _call(nerscore.evaluate, y_true, y_pred, match=name, **options)
    if get_matcher(name).aligns:
        _call(nerscore.list_errors, y_true, y_pred, match=name, **options)


# ------------------------------------------------------------------------------------ CLI

CONLL_LINES = [b"Anna B-PER B-PER", b"flew O O", b"Berlin B-LOC I-LOC", b"", b"-DOCSTART- O O",
               b"# c", b"x\tI-ORG\tO", b"a b", b"\xff\xfe", b"\r", b"\t\t", b"x B-PER"]
conll_bytes = st.one_of(
    st.binary(max_size=60),
    st.lists(st.sampled_from(CONLL_LINES), max_size=8).map(b"\n".join),
)
JSONL_LINES = [b'{"id": "a", "text": "Anna flew", "spans": [[0, 4, "PER"]]}',
               b'{"id": "b", "spans": [{"start": 0, "end": 2, "label": "X"}]}',
               b'{"text": "x"}', b'{"id": 1, "entities": []}', b"[1, 2]", b"{", b"",
               b'{"id": "a", "spans": [[5, 1, "PER"]]}', b'{"spans": [[0, 1e400, null]]}',
               b'{"id": "c", "text": "ab", "spans": [["0", 1, "X"]]}']
jsonl_bytes = st.one_of(
    st.binary(max_size=60),
    st.lists(st.sampled_from(JSONL_LINES), max_size=5).map(b"\n".join),
)
ANN_LINES = [b"T1\tPER 0 4\tAnna", b"T2\tLOC 5 9;10 12\tflew", b"T3\tX 3 1\t", b"#1\tnote",
             b"A1\tNeg T1", b"T1\tPER 0 4\tAnna", b"T4 PER 0 4", b"R1\tRel Arg1:T1 Arg2:T2",
             b"T5\tPER 0 99\tx", b"T6\t 0 1\tA"]
ann_bytes = st.one_of(
    st.binary(max_size=60),
    st.lists(st.sampled_from(ANN_LINES), max_size=5).map(b"\n".join),
)
SCORE_FLAGS = [[], ["--format", "json"], ["--format", "conlleval"], ["--format", "seqeval"],
               ["--format", "html"], ["--format", "markdown"], ["--confusion"],
               ["--match", "semeval"], ["--match", "overlap"], ["--match", "threshold"],
               ["--match", "token"], ["--match", "threshold", "--compat", "kaggle"],
               ["--mode", "strict", "--scheme", "IOB2"], ["--mode", "conlleval"],
               ["--strict-tokens"], ["--comments"], ["--delimiter-columns", "tab"],
               ["--zero-division", "0"], ["--encoding", "latin-1"], ["--label-column", "1"],
               ["--token-column", "-1", "--label-column", "0"], ["--pred-encoding", "latin-1"],
               ["--gold-column", "-2", "--pred-column", "-1"], ["--gold-column", "1"],
               ["--errors", "ERRORS.jsonl"], ["--errors", "ERRORS.csv", "--confusion"],
               ["--suffix", "--tag-delimiter", "_"], ["--outside", "NONE", "--beta", "2"]]


def _stream() -> io.TextIOWrapper:
    """A text stream with a ``buffer`` (``nerscore conlleval`` writes bytes)."""
    return io.TextIOWrapper(io.BytesIO(), encoding="utf-8", errors="replace")


def _text(stream: io.TextIOWrapper) -> str:
    stream.flush()
    raw = stream.buffer
    assert isinstance(raw, io.BytesIO)
    return raw.getvalue().decode("utf-8", errors="replace")


def _run_cli(argv: list[str]) -> tuple[int, str, str]:
    out, err = _stream(), _stream()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main(argv)
    stdout, stderr = _text(out), _text(err)
    allowed = (0, 1, 2, 255) if argv[0] == "conlleval" else (0, 1, 2)  # the script's 255
    assert status in allowed, (argv, status, stderr)
    assert "Traceback" not in stderr + stdout
    if status:
        assert stderr.strip(), (argv, status)
    return status, stdout, stderr


def _write(folder: Path, name: str, data: bytes, fmt: str) -> str:
    if fmt == "brat":
        doc = folder / name
        doc.mkdir()
        (doc / "d.txt").write_bytes(b"Anna flew to Berlin")
        (doc / "d.ann").write_bytes(data)
        return str(doc)
    path = folder / f"{name}.{fmt}"
    path.write_bytes(data)
    return str(path)


@FUZZ_CLI
@given(data=st.data(), fmt=st.sampled_from(["conll", "jsonl", "brat"]),
       flags=st.sampled_from(SCORE_FLAGS))
def test_cli_score_on_arbitrary_files(data: st.DataObject, fmt: str, flags: list[str]) -> None:
    content = {"conll": conll_bytes, "jsonl": jsonl_bytes, "brat": ann_bytes}[fmt]
    gold, pred = data.draw(content), data.draw(content)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        files = [_write(folder, "gold", gold, fmt), _write(folder, "pred", pred, fmt)]
        if data.draw(st.booleans(), label="one file"):  # GOLD only: the one-file layout
            files = files[:1]
        flags = [str(folder / f) if f.startswith("ERRORS") else f for f in flags]
        _run_cli(["score", *files, *flags])


@FUZZ_CLI
@given(content=conll_bytes, command=st.sampled_from(["validate", "repair"]),
       scheme=st.sampled_from(["IOB2", "IOBES", "IO", "BILOU"]))
def test_cli_validate_and_repair_on_arbitrary_files(content: bytes, command: str,
                                                    scheme: str) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = _write(Path(tmp), "in", content, "conll")
        _run_cli([command, path, "--scheme", scheme])


@FUZZ_CLI
@given(content=conll_bytes, flags=st.sampled_from([[], ["-r"], ["-d", "\t"], ["-o", "X"]]))
def test_cli_conlleval_on_arbitrary_files(content: bytes, flags: list[str]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = _write(Path(tmp), "in", content, "conll")
        _run_cli(["conlleval", *flags, path])
