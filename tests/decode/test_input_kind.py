"""Telling tag sequences from spans."""

from __future__ import annotations

import pytest

from nerscore.decode.input_kind import input_kind
from nerscore.values.documents import Document
from nerscore.values.spans import Entity, Span


@pytest.mark.parametrize(
    ("y_true", "y_pred", "kind"),
    [
        ([["B-PER", "O"]], [["O", "O"]], "tags"),
        (["B-PER", "O"], ["O", "O"], "tags"),
        ([[(0, 1, "X")]], [[]], "spans"),
        ([[]], [[(0, 1, "X")]], "spans"),
        ([[], [{"start": 0, "end": 1, "label": "X"}]], [[], []], "spans"),
        ([[Entity(Span(0, 1), "X")]], [[]], "spans"),
        ([(0, 1, "X")], [], "spans"),
        ({}, {}, "spans"),
        ([Document("a")], [], "spans"),
        ([{"id": "a", "spans": []}], [], "spans"),
        ([], [], "tags"),
        ([[], []], [[], []], "tags"),
    ],
)
def test_input_kind(y_true, y_pred, kind):
    assert input_kind(y_true, y_pred) == kind
