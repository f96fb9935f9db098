"""Arbitrary annotation-tool files: a reader returns documents or raises a clear error, never crashes."""

from __future__ import annotations

import contextlib
import json
import tempfile
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings, strategies as st

from nerscore.errors import NerscoreError
from nerscore.io.doccano import read_doccano
from nerscore.io.label_studio import read_label_studio, select
from nerscore.io.prodigy import read_prodigy, read_prodigy_annotators
from nerscore.io.webanno import read_webanno
from tests.paths import DATA

FUZZ = settings(max_examples=150, deadline=None, database=None,
                suppress_health_check=list(HealthCheck))

KEYS = st.sampled_from([
    "id", "data", "text", "annotations", "predictions", "result", "value", "start", "end",
    "labels", "label", "type", "completed_by", "was_cancelled", "model_version", "score",
    "entities", "start_offset", "end_offset", "relations", "spans", "tokens", "token_start",
    "token_end", "answer", "_input_hash", "_annotator_id", "meta", "email", "completions",
])
SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-3, 40), st.floats(allow_nan=False),
                    st.sampled_from(["labels", "accept", "reject", "PER", "Anna", "", "a\U0001F600"]),
                    st.text(max_size=8))
JSON: Any = st.recursive(SCALARS, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(KEYS, inner, max_size=6)), max_leaves=30)

#: What a reader may raise: the errors the command line turns into one line.
CLEAR = (NerscoreError, OSError, ValueError)


def _paths(tree: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix]
    items = tree.items() if isinstance(tree, dict) else enumerate(tree) if isinstance(
        tree, list) else ()
    for key, value in items:
        out += _paths(value, (*prefix, key))
    return out


def _replaced(tree: Any, path: tuple[Any, ...], value: Any) -> Any:
    if not path:
        return value
    copy = json.loads(json.dumps(tree))
    node = copy
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    return copy


@st.composite
def _edited(draw: Any, tree: Any) -> Any:
    """``tree`` with one to three values (anywhere in it) replaced by arbitrary JSON."""
    for _ in range(draw(st.integers(1, 3))):
        tree = _replaced(tree, draw(st.sampled_from(_paths(tree))), draw(JSON))
    return tree


def _mutations(path: Path) -> Any:
    raw = path.read_bytes()
    return st.tuples(st.integers(0, len(raw)), st.integers(0, 8), st.binary(max_size=6)).map(
        lambda t: raw[:t[0]] + t[2] + raw[t[0] + t[1]:])


def _read(reader: Any, content: bytes, suffix: str, **kwargs: Any) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / f"f{suffix}"
        path.write_bytes(content)
        with contextlib.suppress(CLEAR):
            out = reader(path, **kwargs)
            if reader is read_label_studio:
                for side in ("gold", "pred"):
                    with contextlib.suppress(CLEAR):
                        select(out, side=side)


@FUZZ
@given(tasks=st.one_of(JSON, st.lists(st.dictionaries(KEYS, JSON, max_size=6), max_size=4)))
def test_label_studio_on_arbitrary_json(tasks: Any) -> None:
    _read(read_label_studio, json.dumps(tasks).encode(), ".json")


@FUZZ
@given(content=_mutations(DATA / "label_studio" / "export.json"))
def test_label_studio_on_damaged_exports(content: bytes) -> None:
    _read(read_label_studio, content, ".json")


@FUZZ
@given(tasks=_edited(json.loads((DATA / "label_studio" / "export.json").read_text("utf-8"))))
def test_label_studio_on_exports_with_values_replaced(tasks: Any) -> None:
    _read(read_label_studio, json.dumps(tasks).encode(), ".json")


def _lines(name: str) -> list[Any]:
    return [json.loads(line) for line in (DATA / name).read_text("utf-8").splitlines()]


@FUZZ
@given(data=st.data(), which=st.sampled_from([("doccano/entities.jsonl", read_doccano),
                                               ("doccano/label.jsonl", read_doccano),
                                               ("prodigy/ner.jsonl", read_prodigy),
                                               ("prodigy/ner.jsonl", read_prodigy_annotators)]))
def test_jsonl_exports_with_values_replaced(data: st.DataObject, which: Any) -> None:
    name, reader = which
    records = data.draw(_edited(_lines(name)))
    content = "".join(json.dumps(r) + "\n" for r in records) if isinstance(records, list) else (
        json.dumps(records))
    _read(reader, content.encode(), ".jsonl")


@FUZZ
@given(records=st.lists(st.dictionaries(KEYS, JSON, max_size=6), max_size=4),
       reader=st.sampled_from([read_doccano, read_prodigy, read_prodigy_annotators]))
def test_jsonl_exports_on_arbitrary_records(records: list[Any], reader: Any) -> None:
    _read(reader, "".join(json.dumps(r) + "\n" for r in records).encode(), ".jsonl")


@FUZZ
@given(data=st.data(), which=st.sampled_from([("doccano", "entities.jsonl", read_doccano),
                                               ("doccano", "label.jsonl", read_doccano),
                                               ("prodigy", "ner.jsonl", read_prodigy),
                                               ("webanno", "news.tsv", read_webanno)]))
def test_readers_on_damaged_example_files(data: st.DataObject, which: Any) -> None:
    folder, name, reader = which
    content = data.draw(_mutations(DATA / folder / name))
    _read(reader, content, Path(name).suffix)
