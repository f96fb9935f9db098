"""Hypothesis round trips and invariants of decoding, repair and counting."""

import itertools

import numpy as np
from hypothesis import HealthCheck, given, settings, strategies as st

import nerscore
from nerscore import Counts, Entity, Span, entities_to_tags, tags_to_entities
from nerscore.decode.validation import repair_tags

SCHEMES = ["IO", "IOB1", "IOB2", "IOE1", "IOE2", "IOBES", "BILOU", "BMES"]
LABELS = ["PER", "LOC", "ARG-1", ""]
SETTINGS = settings(max_examples=150, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


@st.composite
def corpora(draw, *, io=False):
    """Sentence lengths and non-overlapping entities (IO: no adjacent same-label ones)."""
    n_sent = draw(st.integers(0, 5))
    lengths, ents = [], []
    for k in range(n_sent):
        n = draw(st.integers(0, 10))
        lengths.append(n)
        pos = 0
        prev_end, prev_label = -1, None
        while pos < n:
            pos += draw(st.integers(0, 2))
            if pos >= n:
                break
            size = draw(st.integers(1, min(4, n - pos)))
            label = draw(st.sampled_from(LABELS))
            if io and prev_end == pos and prev_label == label:
                pos += 1
                continue
            ents.append(Entity(Span(pos, pos + size), label, k))
            prev_end, prev_label = pos + size, label
            pos += size
    return lengths, sorted(ents)


@SETTINGS
@given(data=st.data(), scheme=st.sampled_from(SCHEMES))
def test_entities_to_tags_then_decode_is_identity(data, scheme):
    lengths, ents = data.draw(corpora(io=scheme == "IO"))
    tags = entities_to_tags(ents, lengths, scheme=scheme)
    assert tags_to_entities(tags, scheme=scheme) == ents
    if scheme != "IOE1":  # seqeval's strict IOE1 misses an E- chunk after O (documented)
        assert tags_to_entities(tags, scheme=scheme, mode="strict") == ents


@SETTINGS
@given(data=st.data(), scheme=st.sampled_from(["IOB2", "IOBES", "BILOU", "BMES", "IOE2"]))
def test_suffix_round_trip(data, scheme):
    lengths, ents = data.draw(corpora())
    tags = entities_to_tags(ents, lengths, scheme=scheme, suffix=True, delimiter="_")
    assert tags_to_entities(tags, scheme=scheme, suffix=True, delimiter="_") == ents


LETTERS = {"IOB1": "BI", "IOB2": "BI", "IOE2": "IE", "IOBES": "BIES", "BILOU": "BILU",
           "BMES": "BMES"}


@st.composite
def raw_tags(draw, letters):
    n_sent = draw(st.integers(0, 4))
    out = []
    for _ in range(n_sent):
        out.append(draw(st.lists(
            st.one_of(st.just("O"), st.builds(lambda a, b: f"{a}-{b}",
                                              st.sampled_from(letters),
                                              st.sampled_from(["A", "B"]))),
            max_size=8)))
    return out


@SETTINGS
@given(data=st.data(), scheme=st.sampled_from(sorted(LETTERS)))
def test_repair_then_decode_equals_decode_of_raw(data, scheme):
    tags = data.draw(raw_tags(LETTERS[scheme]))
    begin = repair_tags(tags, scheme=scheme, method="begin")
    discard = repair_tags(tags, scheme=scheme, method="discard")
    lenient = tags_to_entities(tags, scheme=scheme)
    assert tags_to_entities(begin, scheme=scheme) == lenient
    assert tags_to_entities(begin, scheme=scheme, mode="strict") == lenient
    strict = tags_to_entities(tags, scheme=scheme, mode="strict")
    assert tags_to_entities(discard, scheme=scheme, mode="strict") == strict
    assert tags_to_entities(discard, scheme=scheme) == strict
    assert repair_tags(begin, scheme=scheme) == begin  # idempotent


@SETTINGS
@given(data=st.data())
def test_counts_merge_in_any_grouping(data):
    tags_t = data.draw(raw_tags("BI"))
    tags_p = [[data.draw(st.sampled_from(["O", "B-A", "I-A", "B-B"])) for _ in s] for s in tags_t]
    whole = nerscore.count_matches(tags_t, tags_p)
    cuts = sorted(data.draw(st.lists(st.integers(0, len(tags_t)), max_size=3)))
    bounds = [0, *cuts, len(tags_t)]
    parts = [nerscore.count_matches(tags_t[a:b], tags_p[a:b]) for a, b in itertools.pairwise(bounds)]
    assert sum(reversed(parts), Counts()) == whole
    assert sum(parts) == whole


@SETTINGS
@given(data=st.data())
def test_swapping_gold_and_prediction_swaps_p_and_r(data):
    tags_t = data.draw(raw_tags("BIES"))
    tags_p = [[data.draw(st.sampled_from(["O", "B-A", "I-A", "S-B", "E-A"])) for _ in s]
              for s in tags_t]
    for avg in ("micro", "macro"):
        a = nerscore.reduce_counts(nerscore.count_matches(tags_t, tags_p), average=avg,
                                   zero_division=0.0)
        b = nerscore.reduce_counts(nerscore.count_matches(tags_p, tags_t), average=avg,
                                   zero_division=0.0)
        assert np.isclose(a.precision, b.recall)
        assert np.isclose(a.recall, b.precision)
        assert np.isclose(a.fbeta, b.fbeta)
