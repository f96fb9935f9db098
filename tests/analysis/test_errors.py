"""Error listing: categories, texts, writers."""

from __future__ import annotations

import csv
import io
import json
import sys
from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from nerscore import EncodedTags, evaluate
from nerscore.analysis.errors import (
    FIELDS,
    ErrorCategory,
    ErrorRecord,
    ErrorTable,
    error_table,
    errors_from_report,
    errors_to_string,
    list_errors,
    write_errors,
)
from nerscore.errors import InvalidSpanError, LengthMismatchError
from nerscore.matching.exact import match_exact
from nerscore.values.spans import EntityColumns

LABELS = ("DATE", "LOC", "MISC", "ORG", "PER")
TEXT = "Ann Lee met Bob in New York and Paris on Monday."


def char_columns(items: list[tuple[str, str]], text: str = TEXT) -> EntityColumns:
    starts = [text.index(s) for s, _ in items]
    return EntityColumns(
        [0] * len(items), starts, [b + len(s) for b, (s, _) in zip(starts, items, strict=True)],
        [LABELS.index(lab) for _, lab in items], LABELS, 1,
    )


GOLD = [("Ann Lee", "PER"), ("Bob", "PER"), ("New York", "LOC"), ("Paris", "LOC"),
        ("Monday", "DATE")]
PRED = [("Ann", "PER"), ("Bob", "ORG"), ("York", "ORG"), ("Paris", "LOC"), ("met", "MISC")]

EXPECTED = [  # category, gold text/label, pred text/label, in text order
    ("wrong_boundary", "Ann Lee", "PER", "Ann", "PER"),
    ("spurious", None, None, "met", "MISC"),
    ("wrong_label", "Bob", "PER", "Bob", "ORG"),
    ("wrong_label_and_boundary", "New York", "LOC", "York", "ORG"),
    ("missed", "Monday", "DATE", None, None),
]


def summary(records):
    return [(r.category.value, r.gold_text, r.gold_label, r.pred_text, r.pred_label)
            for r in records]


def test_every_category_with_character_text():
    recs = list_errors(char_columns(GOLD), char_columns(PRED), texts=[TEXT], doc_ids=["d1"])
    assert summary(recs) == EXPECTED
    assert {r.category for r in recs} == set(ErrorCategory) - {ErrorCategory.UNALIGNED}
    first = recs[0]
    assert first == ErrorRecord(ErrorCategory.WRONG_BOUNDARY, 0, "d1", 0, 7, "PER", 0, 3, "PER",
                                "Ann Lee", "Ann")
    assert all(r.doc_id == "d1" for r in recs)


TOKENS = ["Ann", "Lee", "met", "Bob", "in", "New", "York", "and", "Paris", "on", "Monday", "."]
GOLD_TAGS = ["B-PER", "I-PER", "O", "B-PER", "O", "B-LOC", "I-LOC", "O", "B-LOC", "O",
             "B-DATE", "O"]
PRED_TAGS = ["B-PER", "O", "B-MISC", "B-ORG", "O", "O", "B-ORG", "O", "B-LOC", "O", "O", "O"]


def test_every_category_with_tokens():
    recs = list_errors([GOLD_TAGS], [PRED_TAGS], texts=[TOKENS])
    assert summary(recs) == EXPECTED
    assert [(r.gold_start, r.gold_end, r.pred_start, r.pred_end) for r in recs] == [
        (0, 2, 0, 1), (None, None, 2, 3), (3, 4, 3, 4), (5, 7, 6, 7), (10, 11, None, None)]
    assert all(r.doc_id is None and r.sequence == 0 for r in recs)


def test_file_tokens_give_the_texts_of_token_lists(tmp_path):
    """A file's token column is joined for all records at once; a pair with the gold
    entity's bounds (``wrong_label``) takes the gold text."""
    from nerscore.io.conll import read_conll

    for name, tags in (("g", GOLD_TAGS), ("p", PRED_TAGS)):
        (tmp_path / name).write_text("".join(f"{t}\t{x}\n" for t, x in zip(TOKENS, tags,
                                                                         strict=True)))
    g, p = read_conll(tmp_path / "g"), read_conll(tmp_path / "p")
    table = error_table(evaluate(g.tags, p.tags, zero_division=0),
                        texts=g.tags.sentence_tokens())
    assert list(table) == list_errors([GOLD_TAGS], [PRED_TAGS], texts=[TOKENS])
    assert [(r.gold_text, r.pred_text) for r in table if r.category.value == "wrong_label"] == [
        ("Bob", "Bob")]


def test_tag_offsets_without_text():
    recs = list_errors([GOLD_TAGS], [PRED_TAGS])
    assert [r.gold_text for r in recs] == [None] * 5
    assert [r.category.value for r in recs] == [e[0] for e in EXPECTED]


def test_tokens_carried_by_encoded_tags():
    gold = EncodedTags.from_lists([GOLD_TAGS])
    gold = EncodedTags(gold.ids, gold.offsets, gold.vocab, tokens=TOKENS)
    recs = list_errors(gold, [PRED_TAGS])
    assert summary(recs) == EXPECTED


def test_documents_give_text_and_ids():
    def doc(items):
        c = char_columns(items)
        return [{"id": "d1", "text": TEXT,
                 "spans": [(s, e, LABELS[lab]) for s, e, lab in
                           zip(c.start.tolist(), c.end.tolist(), c.label.tolist(), strict=True)]}]

    recs = list_errors(doc(GOLD), doc(PRED))
    assert summary(recs) == EXPECTED
    assert {r.doc_id for r in recs} == {"d1"}
    report = evaluate(doc(GOLD), doc(PRED), zero_division=0.0)
    assert errors_from_report(report) == recs


def test_from_report_matches_list_errors():
    report = evaluate([GOLD_TAGS], [PRED_TAGS], zero_division=0.0)
    assert errors_from_report(report, texts=[TOKENS]) == list_errors([GOLD_TAGS], [PRED_TAGS], texts=[TOKENS])
    assert errors_from_report(report) == list_errors([GOLD_TAGS], [PRED_TAGS])
    token_report = evaluate([GOLD_TAGS], [PRED_TAGS], match="token", zero_division=0.0)
    with pytest.raises(ValueError, match=r"match='token'.*no error listing"):
        errors_from_report(token_report)


def test_several_sentences_are_sorted_and_never_paired_across():
    y_true = [["B-PER", "O"], ["O", "O"], ["B-LOC", "I-LOC"]]
    y_pred = [["O", "O"], ["B-PER", "O"], ["B-LOC", "B-LOC"]]
    recs = list_errors(y_true, y_pred, doc_ids=["a", "b", "c"])
    assert [(r.sequence, r.doc_id, r.category.value) for r in recs] == [
        (0, "a", "missed"), (1, "b", "spurious"), (2, "c", "wrong_boundary"),
        (2, "c", "spurious")]


# ---------------------------------------------------------------------------
# alignment priorities


def cols(rows, labels=("A", "B")):
    return EntityColumns([0] * len(rows), [r[0] for r in rows], [r[1] for r in rows],
                         [labels.index(r[2]) for r in rows], labels, 1)


def cats(gold_rows, pred_rows):
    return [(r.category.value, r.gold_start, r.gold_end, r.pred_start, r.pred_end)
            for r in list_errors(cols(gold_rows), cols(pred_rows))]


def test_exact_bounds_before_same_label():
    assert cats([(0, 5, "A")], [(0, 5, "B"), (1, 4, "A")]) == [
        ("wrong_label", 0, 5, 0, 5), ("spurious", None, None, 1, 4)]


def test_same_label_before_larger_overlap():
    assert cats([(0, 10, "A")], [(0, 8, "B"), (2, 6, "A")]) == [
        ("spurious", None, None, 0, 8), ("wrong_boundary", 0, 10, 2, 6)]


def test_larger_overlap_first():
    assert cats([(0, 10, "A")], [(0, 3, "A"), (4, 9, "A")]) == [
        ("spurious", None, None, 0, 3), ("wrong_boundary", 0, 10, 4, 9)]
    # one prediction over two gold entities pairs with the larger overlap
    assert cats([(0, 3, "A"), (3, 10, "A")], [(1, 10, "A")]) == [
        ("missed", 0, 3, None, None), ("wrong_boundary", 3, 10, 1, 10)]


def test_touching_spans_do_not_overlap_and_zero_length_spans():
    assert cats([(0, 3, "A")], [(3, 6, "A")]) == [
        ("missed", 0, 3, None, None), ("spurious", None, None, 3, 6)]
    # zero-length spans pair only with an identical span
    assert cats([(2, 2, "A"), (5, 5, "A")], [(2, 2, "B"), (4, 6, "A")]) == [
        ("wrong_label", 2, 2, 2, 2), ("spurious", None, None, 4, 6),
        ("missed", 5, 5, None, None)]


def test_exact_matches_are_not_errors():
    assert list_errors(cols([(0, 2, "A"), (0, 2, "A")]), cols([(0, 2, "A")])) == [
        ErrorRecord(ErrorCategory.MISSED, 0, None, 0, 2, "A", None, None, None)]


# ---------------------------------------------------------------------------
# consistency with exact matching, order independence (property tests)

rows = st.lists(
    st.tuples(st.integers(0, 2), st.integers(0, 8), st.integers(0, 4), st.integers(0, 2)),
    max_size=12,
)


def columns(rs):
    return EntityColumns([r[0] for r in rs], [r[1] for r in rs], [r[1] + r[2] for r in rs],
                         [r[3] for r in rs], ("A", "B", "C"), 3)


@settings(max_examples=200, deadline=None)
@given(g=rows, p=rows, seed=st.integers(0, 1000))
def test_records_account_for_every_exact_error(g, p, seed):
    gold, pred = columns(g), columns(p)
    recs = list_errors(gold, pred)
    counts = match_exact(gold, pred).counts
    fn = Counter(r.gold_label for r in recs if r.gold_label is not None)
    fp = Counter(r.pred_label for r in recs if r.pred_label is not None)
    for lab in counts.labels:
        assert fn[lab] == counts[lab].fn, lab
        assert fp[lab] == counts[lab].fp, lab
    for r in recs:
        same_bounds = (r.gold_start, r.gold_end) == (r.pred_start, r.pred_end)
        same_label = r.gold_label == r.pred_label
        if r.category is ErrorCategory.WRONG_LABEL:
            assert same_bounds
            assert not same_label
        elif r.category is ErrorCategory.WRONG_BOUNDARY:
            assert same_label
            assert not same_bounds
        elif r.category is ErrorCategory.WRONG_LABEL_AND_BOUNDARY:
            assert not same_label
            assert not same_bounds
        if r.gold_start is not None and r.pred_start is not None and not same_bounds:
            assert max(r.gold_start, r.pred_start) < min(r.gold_end, r.pred_end)
    # every gold and predicted entity is in at most one record
    assert sum(r.gold_label is not None for r in recs) == sum(fn.values())
    # row order does not matter
    rng = np.random.default_rng(seed)
    shuffled = list_errors(gold.take(rng.permutation(len(gold))),
                           pred.take(rng.permutation(len(pred))))
    assert shuffled == recs


# ---------------------------------------------------------------------------
# writers


def records():
    return list_errors(char_columns(GOLD), char_columns(PRED), texts=[TEXT], doc_ids=["d,1"])


def test_jsonl_round_trip(tmp_path):
    recs = records()
    path = tmp_path / "errors.jsonl"
    assert write_errors(recs, path) == len(recs)
    lines = path.read_text(encoding="utf-8").splitlines()
    assert [json.loads(line) for line in lines] == [r.to_dict() for r in recs]
    assert list(json.loads(lines[0])) == list(FIELDS)
    assert errors_to_string(recs) == path.read_text(encoding="utf-8")


def test_csv_round_trip(tmp_path):
    recs = records()
    path = tmp_path / "errors.csv"
    assert write_errors(recs, str(path), format="csv") == len(recs)
    with open(path, encoding="utf-8", newline="") as fh:
        got = list(csv.DictReader(fh))
    want = [{k: "" if v is None else str(v) for k, v in r.to_dict().items()} for r in recs]
    assert got == want
    assert got[0]["doc_id"] == "d,1"


def test_csv_quotes_what_ends_a_cell_on_every_python():
    """A NUL is written as it is; a comma, a quote, a lone CR or a LF is quoted (RFC 4180)."""
    text = "a\x00b c,d e\"f g\rh i\nj k"
    g = EntityColumns([0] * 5, [0, 4, 8, 12, 16], [3, 7, 11, 15, 19], [0, 0, 0, 0, 1],
                      ("X", 'Y,"Z'))
    out = errors_to_string(list_errors(g, EntityColumns.empty(), texts=[text]), format="csv")
    assert out == ",".join(FIELDS) + "\n" + (
        "missed,0,,0,3,X,,,,a\x00b,,,\n"
        'missed,0,,4,7,X,,,,"c,d",,,\n'
        'missed,0,,8,11,X,,,,"e""f",,,\n'
        'missed,0,,12,15,X,,,,"g\rh",,,\n'
        'missed,0,,16,19,"Y,""Z",,,,"i\nj",,,\n')
    if sys.version_info >= (3, 11):  # 3.10's reader refuses NUL
        back = list(csv.reader(io.StringIO(out, newline="")))
        assert [(r[5], r[9]) for r in back[1:]] == [
            ("X", "a\x00b"), ("X", "c,d"), ("X", 'e"f'), ("X", "g\rh"), ('Y,"Z', "i\nj")]


def test_writers_to_file_objects_and_unicode():
    text = "Zoë Ångström visited Köln."
    g = EntityColumns([0, 0], [0, 21], [12, 25], [1, 0], ("LOC", "PER"))
    p = EntityColumns([0], [0], [3], [1], ("LOC", "PER"))
    recs = list_errors(g, p, texts=[text])
    assert [(r.gold_text, r.pred_text) for r in recs] == [("Zoë Ångström", "Zoë"), ("Köln", None)]
    buf = io.StringIO()
    write_errors(recs, buf, format="jsonl")
    assert "Zoë Ångström" in buf.getvalue()
    buf = io.StringIO()
    write_errors(recs, buf, format="csv")
    assert [row["gold_text"] for row in csv.DictReader(io.StringIO(buf.getvalue()))] == [
        "Zoë Ångström", "Köln"]


def test_empty(tmp_path):
    assert list_errors([], []) == []
    assert list_errors([[]], [[]]) == []
    assert list_errors([["O"]], [["O"]], texts=[["x"]]) == []
    assert list_errors(EntityColumns.empty(), EntityColumns.empty()) == []
    path = tmp_path / "e.csv"
    assert write_errors([], path, format="csv") == 0
    assert path.read_text(encoding="utf-8") == ",".join(FIELDS) + "\n"
    assert errors_to_string([]) == ""


# ---------------------------------------------------------------------------
# bad input


def test_bad_format():
    with pytest.raises(ValueError, match="Expected `format` to be one of 'jsonl', 'csv'; got 'tsv'"):
        write_errors([], io.StringIO(), format="tsv")


def test_texts_must_match_sequences():
    with pytest.raises(LengthMismatchError, match=r"one item per sequence \(2\); got 1"):
        list_errors([["B-PER"], ["O"]], [["O"], ["O"]], texts=[["Ann"]])
    with pytest.raises(LengthMismatchError, match=r"one id per sequence \(1\); got 2"):
        list_errors([["B-PER"]], [["O"]], doc_ids=["a", "b"])
    with pytest.raises(TypeError, match="got a single str"):
        list_errors([["B-PER"]], [["O"]], texts="Ann")


def test_span_past_end_of_text():
    g = EntityColumns([0], [0], [10], [0], ("A",))
    with pytest.raises(InvalidSpanError, match=r"Span \[0, 10\) is out of range .*document 'x'"):
        list_errors(g, EntityColumns.empty(("A",)), texts=["short"], doc_ids=["x"])


# ---------------------------------------------------------------------------
# the vectorised alignment against a plain sequential greedy reference


def reference_pairs(gold: EntityColumns, pred: EntityColumns) -> Counter:
    """Sequential greedy over all overlapping pairs, in the documented priority order.

    Returns the pairs as a multiset of ((seq, start, end, label) of gold, same of pred).
    """
    g = list(zip(gold.seq.tolist(), gold.start.tolist(), gold.end.tolist(),
                 gold.label.tolist(), strict=True))
    p = list(zip(pred.seq.tolist(), pred.start.tolist(), pred.end.tolist(),
                 pred.label.tolist(), strict=True))
    cands = []
    for i, (gs, ga, gb, gl) in enumerate(g):
        for j, (ps, pa, pb, pl) in enumerate(p):
            if gs != ps:
                continue
            same = (ga, gb) == (pa, pb)
            ov = min(gb, pb) - max(ga, pa)
            if not same and ov <= 0:
                continue
            key = (not same, gl != pl, -ov, ga, pa, gb, pb, gl, pl)
            cands.append((key, i, j))
    cands.sort()
    gu, pu, out = set(), set(), Counter()
    for _, i, j in cands:
        if i not in gu and j not in pu:
            gu.add(i)
            pu.add(j)
            out[(g[i], p[j])] += 1
    return out


def pairs_of(records):
    return Counter(
        ((r.sequence, r.gold_start, r.gold_end, LABELS3.index(r.gold_label)),
         (r.sequence, r.pred_start, r.pred_end, LABELS3.index(r.pred_label)))
        for r in records if r.gold_label is not None and r.pred_label is not None)


LABELS3 = ("A", "B", "C")


@pytest.mark.parametrize("seed", range(6))
def test_alignment_equals_sequential_greedy(seed):
    rng = np.random.default_rng(seed)
    n = 300

    def side():
        start = rng.integers(0, 400, n)
        return EntityColumns(rng.integers(0, 2, n), start, start + rng.integers(0, 12, n),
                             rng.integers(0, 3, n), LABELS3, 2)

    gold, pred = side(), side()
    want = reference_pairs(gold, pred)
    exact = Counter({k: v for k, v in want.items() if k[0][1:] == k[1][1:]})
    got = pairs_of(list_errors(gold, pred))
    assert got == want - exact


def test_chains_of_overlaps_stay_fast_and_greedy():
    n = 3000
    s = np.arange(n) * 2
    gold = EntityColumns(np.zeros(n), s, s + 3, np.zeros(n), ("A",))
    pred = EntityColumns(np.zeros(n), s + 1, s + 4, np.zeros(n), ("A",))
    recs = list_errors(gold, pred)
    # greedy by earlier gold start, then earlier pred start: gold k goes with pred k
    assert [r.category.value for r in recs] == ["wrong_boundary"] * n
    assert all(r.pred_start == r.gold_start + 1 for r in recs)


# --------------------------------------------------------------------------- columns and writers


def _one_by_one(records: list[ErrorRecord], fmt: str) -> str:
    """What the writers wrote before they wrote columns: one encoder or csv row per record."""
    buf = io.StringIO()
    if fmt == "jsonl":
        encode = json.JSONEncoder(ensure_ascii=False).encode
        for rec in records:
            buf.write(encode(rec.to_dict()) + "\n")
        return buf.getvalue()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(FIELDS)
    for rec in records:
        d = rec.to_dict()
        writer.writerow([";".join(f"{a} {b}" for a, b in v) if isinstance(v, list)
                         else "" if v is None else v for v in (d[f] for f in FIELDS)])
    return buf.getvalue()


AWKWARD = ["a\\nb", 'say "hi"', "x\ny", "tab\tü", "", "100%", "a,b", "\x01"]


@pytest.mark.parametrize("fmt", ["jsonl", "csv"])
def test_column_writers_equal_one_encoder_per_record(fmt: str) -> None:
    cats = list(ErrorCategory)
    records = [
        ErrorRecord(cats[k % 5], k, None if k % 3 else f"d{k}%s",
                    None if k % 5 == 1 else k, None if k % 5 == 1 else k + 2,
                    None if k % 5 == 1 else "PER",
                    None if k % 5 == 0 else k + 1, None if k % 5 == 0 else k + 3,
                    None if k % 5 == 0 else 'O"RG',
                    None if k % 5 == 1 else AWKWARD[k % len(AWKWARD)],
                    None if k % 5 == 0 else AWKWARD[(k + 3) % len(AWKWARD)],
                    ((0, 2), (5, 9)) if k == 4 else None, None)
        for k in range(40)]
    assert errors_to_string(records, format=fmt) == _one_by_one(records, fmt)
    table = ErrorTable.from_records(records)
    assert list(table) == records
    assert table.shifted(5)[3] == records[3].shifted(5)


@pytest.mark.parametrize("fmt", ["jsonl", "csv"])
def test_column_writers_on_a_file(tmp_path, fmt: str) -> None:
    gold = tmp_path / "g.conll"
    pred = tmp_path / "p.conll"
    gold.write_text("Ann\tB-PER\nLee\tI-PER\nm\\x\tO\n\n\"Bo\"\tB-ORG\nü\tI-ORG\n", encoding="utf-8")
    pred.write_text("Ann B-PER\r\nLee O\r\nm\\x B-LOC\r\n\r\n\"Bo\" B-ORG\r\nü B-ORG\r\n",
                    encoding="utf-8")
    from nerscore.io.conll import read_conll

    g, p = read_conll(gold), read_conll(pred)
    report = evaluate(g.tags, p.tags, zero_division=0)
    table = error_table(report, texts=g.tags.sentence_tokens())
    records = errors_from_report(report, texts=[list(s.tokens) for s in g])
    assert list(table) == records
    assert [(r.gold_text, r.pred_text) for r in records] == [
        ("Ann Lee", "Ann"), (None, "m\\x"), ('"Bo" ü', '"Bo"'), (None, "ü")]
    assert ErrorTable.from_records(table).to_string(fmt) == _one_by_one(records, fmt)


@pytest.mark.parametrize("fmt", ["jsonl", "csv"])
def test_writing_in_blocks_equals_writing_at_once(fmt: str) -> None:
    recs = list_errors([["B-A", "O", "B-B"]] * 20, [["O", "B-A", "B-C"]] * 20,
                       texts=[["x", "y", "z"]] * 20)
    table = ErrorTable.from_records(recs)
    text, raw = io.StringIO(), io.BytesIO()
    table.write_to(text, fmt, block=7)
    table.write_to(raw, fmt, block=1000)
    assert text.getvalue() == raw.getvalue().decode("utf-8") == errors_to_string(recs, format=fmt)
    headless = io.StringIO()
    table.write_to(headless, fmt, header=False, block=5)
    assert headless.getvalue() == (text.getvalue().split("\n", 1)[1] if fmt == "csv"
                                   else text.getvalue())
