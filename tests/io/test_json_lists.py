import json

from hypothesis import given, settings, strategies as st

from nerscore.io.json_lists import _decode_each, read_json_lists
from nerscore.io.llm_output import read_output


def test_read_json_lists_reads_in_bulk_what_read_output_reads():
    outputs = [
        '[{"text": "Paris", "label": "LOC"}, {"text": "Lyon", "label": "LOC"}]',
        '[{"text": 1, "label": "LOC"}]', '[{"text": "a", "label": null}]', '["Paris", "LOC"]',
        '[{"text": "a", "label": "B"}, "x"]', '[{"text": "a", "label": "B", "start": 0, "end": 1}]',
        '[{"entity": "a", "label": "B"}]', '[{"text": "a", "label": "B"}] and some prose',
        '[{"text": "a", "label": "B"}', '```json\n[{"text": "a", "label": "B"}]\n```',
        '[{"text": "a", "label": "B", "score": 1}]', '[{"text": "a", "label": "B", "end": 3}]',
        '[{"text": ["a"], "label": "B"}]', '[{"text": "a", "label": "B"}, [1]]', None,
        [{"text": "a", "label": "B"}], '[{"text": "\\u00e9t\\u00e9", "label": "X"}]', "[]",
    ]
    cols = read_json_lists(outputs)
    bulk = sorted(set(range(len(outputs))) - set(cols.rest))
    assert bulk == [0, 7, 9, 10, 16]
    for k in bulk:
        read = read_output(outputs[k])
        rows = [j for j, d in enumerate(cols.doc.tolist()) if d == k]
        assert read.format == "json-list"
        assert not read.problems
        assert not read.repairs
        assert [(cols.texts[j], cols.vocab[cols.label[j]], None, None) for j in rows] == read.items
    assert read_json_lists(outputs[:1], format="lines").rest == [0]


def _as_read_output_reads(outputs):
    """Read in bulk: each output read as read_output reads it, and all those the decoder reads."""
    cols = read_json_lists(outputs)
    docs = cols.doc.tolist()
    bulk = sorted(set(docs))
    assert sorted(set(range(len(outputs))) - set(cols.rest)) == bulk
    assert docs == sorted(docs)
    for k in bulk:
        read = read_output(outputs[k])
        assert (read.format, read.problems, read.repairs) == ("json-list", (), ())
        rows = [j for j, d in enumerate(docs) if d == k]
        assert [(cols.texts[j], cols.vocab[cols.label[j]], None, None) for j in rows] == read.items
    assert set(_decode_each(list(range(len(outputs))), outputs)[0]) <= set(bulk)
    return cols


def test_json_dumps_layout_and_near_misses_read_as_decoding_each_does():
    dumped = [json.dumps([{"text": t, "label": lab}], ensure_ascii=False) for t, lab in
              [("Paris", "LOC"), ("\u00e9t\u00e9", "X"), ("\U0001d518", "Y"), ("", "E"),
               ("a b", "")]]
    # labels packed into one integer (up to eight ASCII characters) and read as strings
    long = ['[{"text": "a", "label": "ORGANIZATION"}, {"text": "b", "label": "LOCATION"}]',
            '[{"text": "c", "label": "PERSON"}, {"text": "d", "label": "ORG"}]']
    for group in (long, long[1:], [*long[1:], dumped[1]]):
        cols = _as_read_output_reads(group)
        assert [cols.vocab[c] for c in cols.label] == [
            lab for o in group for lab in (it["label"] for it in json.loads(o))]
    outputs = [
        *dumped,
        '[{"text": "a", "label": "B"}, {"text": "c", "label": "D"}]',
        '[{"text": "a"}, {"text": "a", "label": "b", "label": "c"}]',  # marks balanced, keys not
        '[{"text": "a", "label": "}, {"text": "b"}]',
        '[{"text": "a\\"b", "label": "B"}]',  # an escape: decoded, not split
        '[{"text": "a\\tb", "label": "B"}]',
        '[{"text": "a\\u0001b", "label": "B"}]',
        '[{"text": "a\\tb", "label": "B"}, {"text": "\\u0000", "label": "B"}]',
        '[{"text": "a\tb", "label": "B"}]',  # a raw control character: not JSON
        '[{"text": "a\\u0002", "label": "B"}]', '[{"text": "a\x02", "label": "B"}]',
        '[{"text": "a\x00", "label": "B"}]', '[{"text": "a\x01", "label": "B"}]',
        '[{"text": "}]', '[{"text": "a", "label": "B"}]]', '[{"text": "x", "label": "y", "z": "w"}]',
        '[{"text": "a", "label": "B"},{"text": "c", "label": "D"}]',
        '[{"text": "a", "label": "B"}, {"text": "c", "label": "D", "start": "1"}]',
        '[{"text": "```", "label": "B"}]', '[{"text": "\\ud800", "label": "B"}]',
        '[{"text": "\ud800", "label": "B"}]',
        '[{"text": "a", "label": "B"}, {"text": "c", "label": "D"}',
        *dumped,
        # where find_json finds the list: not after other JSON, in a fence only when its info
        # string has no inner blank
        'Meta {"a": 1} [{"text": "a", "label": "B"}]',
        'Meta {"a": 1}\n```json\n[{"text": "a", "label": "B"}]\n```',
        '[{"text": "a", "label": "B"}] ```j s\n[{"text": "c", "label": "D"}]',
        '[{"text": "a", "label": "B"}] ```js\n[{"text": "c", "label": "D"}]',
    ]
    cols = _as_read_output_reads(outputs)
    assert cols.texts[:6] == ["Paris", "\u00e9t\u00e9", "\U0001d518", "", "a b", "a"]
    assert cols.rest[:2] == [6, 7]
    assert _as_read_output_reads(outputs[5:7]).rest == [1]
    assert _as_read_output_reads([outputs[7]]).rest == [0]


# pieces of what lies between the framing: the framing itself, quotes, escapes, raw control
# characters, a lone surrogate (raw and escaped), a code fence
_PIECES = ['"}, {"text": "', '", "label": "', '"', "\\", '\\"', "\\u0041", "\\n", "\n", "\x00",
           "\x01", "\x02", "\\u0002", "\u00e9", "\\ud800", "\ud800", "```", "a", "B", " ", "}",
           "{", ",", ":", "[", "]"]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(
    st.lists(st.tuples(st.text(max_size=6), st.text(max_size=4)), min_size=0, max_size=4).map(
        lambda items: json.dumps([{"text": t, "label": lab} for t, lab in items],
                                 ensure_ascii=False)),
    st.lists(st.sampled_from(_PIECES), max_size=8).map(
        lambda ps: '[{"text": "' + "".join(ps) + '"}]'),
    st.tuples(st.sampled_from(["", "Sure: ", "```json\n", "```\n", "``` json\n", "[x] ",
                               "```js on\n", "Note {x}: ", "```json", "a ```\n", "```\n```\n",
                               "x\n```\t\n", "```\n[x]\n", 'Meta {"a": 1} ',
                               '[{"text": "z", "label": "Y"}] ```j s\n']),
              st.lists(st.tuples(st.sampled_from(["a", '"', "}]", "\\", "```"]),
                                 st.sampled_from(["B", "}]"])), min_size=1, max_size=3),
              st.sampled_from(["", "\n```", "\n``` Done.", " and [more]", "]", '"}]'])).map(
        lambda t: t[0] + json.dumps([{"text": a, "label": b} for a, b in t[1]],
                                    ensure_ascii=False) + t[2])), max_size=6))
def test_bulk_reading_is_reading_each_output(outputs):
    _as_read_output_reads(outputs)
