"""JSON Lines files of model outputs: which files hold them, and how their records are read."""

from __future__ import annotations

import pytest

from nerscore.io.llm_records import is_llm_file


@pytest.mark.parametrize(("content", "expected"), [
    (b'{"id": "a", "output": "LOC: Paris"}\n', True),
    (b'\xef\xbb\xbf\n{"id": "a", "mentions": []}\r\n', True),
    (b'{"id": "a",\r "output": "LOC: Paris"}\n', True),  # lines end at "\n" only
    (b'{"id": "a", "spans": []}\n', False),
    (b'{"id": "a", "output": "x"\n', False),
    (b'[' * 100_000 + b'\n', False),
])
def test_a_file_of_model_outputs_is_told_by_its_first_record(tmp_path, content, expected):
    path = tmp_path / "pred.jsonl"
    path.write_bytes(content)
    assert is_llm_file(path) is expected


def test_a_line_that_is_no_object_is_told_what_a_model_output_record_holds(tmp_path):
    from nerscore.errors import FormatError
    from nerscore.io.llm_records import read_llm_records

    path = tmp_path / "pred.jsonl"
    path.write_text('{"id": "a", "output": "LOC: Paris"}\n["b", "LOC: Lyon"]\n')
    with pytest.raises(FormatError) as info:
        read_llm_records(path)
    assert str(info.value) == (
        f"{path}, line 2: expected a JSON object with 'id' and 'output' (or 'mentions'), and "
        "optionally 'text'; got list.")
