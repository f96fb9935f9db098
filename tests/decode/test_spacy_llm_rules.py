"""``compat="spacy-llm"``: the same spans as spacy-llm's ``spacy.NER.v2`` task on the same answers."""

from __future__ import annotations

import itertools

import pytest

import nerscore
from nerscore import Document, Mention, align_mentions, parse_llm_output
from nerscore.errors import OptionError
from tests.paths import DATA

LABELS = ("PER", "LOC", "ORG", "MISC")
SENTENCE = ["Paris", "is", "in", "France", ".", "Paris", "Hilton", "visited", "Paris", "."]
RESPONSES = [
    "PER: Paris Hilton\nLOC: Paris, France, London",
    "LOC: paris, PARIS\nPER: Paris Hilton, Hilton",  # case, a repeat, a span inside another
    "LOC: Paris\nLOC: Paris",  # the same line twice
    "loc: France.\nper: is\nMISC: Paris Hil",  # a phrase with no whole token: contract drops it
    "GPE: Paris\nLOC: Fr, n",  # a label outside the task; substrings inside words
    "Here are the entities:\nPER: Paris Hilton\nThat's all.",
    "LOC: ",
    "",
]


def spacy_llm_spans(tokens, response):
    spacy = pytest.importorskip("spacy")
    registry = pytest.importorskip("spacy_llm.registry").registry
    from spacy.tokens import Doc

    task = registry.llm_tasks.get("spacy.NER.v2")(labels=",".join(LABELS))
    doc = Doc(spacy.blank("en").vocab, words=tokens)
    (done,) = task.parse_responses([[doc]], [[response]])
    return [(e.start, e.end, e.label_) for e in done.ents]


def nerscore_spans(tokens, response):
    parsed = parse_llm_output(response, format="spacy-llm")
    mentions = [m for m in parsed.mentions if m.label.upper() in LABELS]
    mentions = [Mention(m.text, m.label.upper()) for m in mentions]
    a = align_mentions(tokens, mentions, compat="spacy-llm")
    return [(e.start, e.end, e.label) for e in a.entities], a


@pytest.mark.parametrize("response", RESPONSES)
def test_same_spans_as_spacy_llm(response):
    assert nerscore_spans(SENTENCE, response)[0] == spacy_llm_spans(SENTENCE, response)


def _fixture_sentences():
    docs = nerscore.read_brat(DATA / "brat" / "conll2002" / "esp")
    docs = getattr(docs, "documents", docs)
    for doc in docs[:3]:
        for line in (doc.text or "").split("\n")[:12]:
            if line.strip():
                yield line.replace(",", " ,").replace(".", " .").replace("(", "( ").replace(
                    ")", " )").split()


@pytest.mark.parametrize("tokens", list(_fixture_sentences()))
def test_same_spans_on_real_sentences(tokens):
    # answers that name every capitalised word and every pair of capitalised words
    caps = [t for t in tokens if t[:1].isupper()]
    pairs = [f"{a} {b}" for a, b in itertools.pairwise(tokens)
             if a[:1].isupper() and b[:1].isupper()]
    response = f"ORG: {', '.join(caps)}\nMISC: {', '.join(pairs)}\nLOC: {', '.join(caps[:2])}"
    assert nerscore_spans(tokens, response)[0] == spacy_llm_spans(tokens, response)


def test_what_spacy_llm_drops_is_counted():
    response = "LOC: Paris, Paris, London\nPER: Paris Hil, is, Hil"
    spans, a = nerscore_spans(SENTENCE, response)
    assert spans == spacy_llm_spans(SENTENCE, response)
    assert spans == [(0, 1, "LOC"), (1, 2, "PER"), (5, 6, "LOC"), (8, 9, "LOC")]
    # the repeated Paris, London (not in the text), Paris Hil (snapped to 'Paris', which the
    # LOC span took), and Hil (no whole token: dropped by snapping)
    assert [m.text for m in a.unaligned] == ["Paris", "London", "Paris Hil"]
    assert [m.text for m in a.dropped] == ["Hil"]


def test_evaluate_llm_with_spacy_llm_alignment():
    gold = [Document("1", [(0, 1, "LOC"), (3, 4, "LOC"), (5, 7, "PER"), (8, 9, "LOC")])]
    r = nerscore.evaluate_llm(gold, ["PER: Paris Hilton\nLOC: Paris, France, London\nGPE: x"],
                              tokens=[SENTENCE], align="spacy-llm", zero_division=0.0)
    # spacy-llm places Paris at both free occurrences; London and the GPE line are counted
    assert (r.micro.tp, r.micro.fp, r.micro.fn) == (4, 2, 0)
    assert r.extra["llm"]["unaligned"] == 2
    assert r.extra["llm"]["policy"] == "spacy-llm"


def test_compat_needs_tokens():
    with pytest.raises(OptionError, match="compat='spacy-llm' aligns to spaCy tokens"):
        align_mentions("Paris", [Mention("Paris", "LOC")], compat="spacy-llm")
    with pytest.raises(OptionError, match="Expected `compat` to be one of 'spacy-llm'"):
        align_mentions(["Paris"], [], compat="spacy")
