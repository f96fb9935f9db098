"""Discontinuous entities under every matcher: the worked example, references and invariants."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import nerscore
from nerscore import Document, Entity, Span
from nerscore.analysis.errors import errors_to_string
from nerscore.errors import InvalidSpanError, OptionError
from nerscore.matching._overlap_fragments import _hungarian

TEXT = "lung cancer in the upper lobe was found"
GOLD = [Document("d", [Entity.from_fragments([(0, 4), (19, 29)], "Disorder"),
                       (5, 11, "Disorder")], TEXT)]
SAME = [Document("d", [{"start": 0, "end": 29, "label": "Disorder",
                        "fragments": [[0, 4], [19, 29]]}, (5, 11, "Disorder")], TEXT)]
EXTENT = [Document("d", [(0, 29, "Disorder"), (5, 11, "Disorder")], TEXT)]
MATCHERS = ("exact", "semeval", "overlap", "threshold", "token")


def counts(y_true, y_pred, **kw):
    r = nerscore.evaluate(y_true, y_pred, zero_division=0.0, **kw)
    return r.micro.tp, r.micro.fp, r.micro.fn


# ----------------------------------------------------------------------------- worked example


@pytest.mark.parametrize("match", MATCHERS)
def test_the_same_two_entities_score_one(match):
    tp, fp, fn = counts(GOLD, SAME, match=match)
    assert (fp, fn) == (0, 0)
    assert tp == (20 if match == "token" else 2)


def test_the_worked_example_exact():
    assert counts(GOLD, SAME) == (2, 0, 0)
    assert counts(GOLD, EXTENT) == (1, 1, 1)
    assert counts(GOLD, EXTENT, discontinuous="extent") == (2, 0, 0)


def test_the_worked_example_under_the_other_matchers():
    # threshold: |g ∩ p| = 14 units of the 14 of gold and the 29 of the extent (0.48 < 0.5)
    assert counts(GOLD, EXTENT, match="threshold") == (1, 1, 1)
    assert counts(GOLD, EXTENT, match="threshold", t=0.4) == (2, 0, 0)
    # semeval: the extent overlaps both fragments, with other bounds
    tables = nerscore.evaluate(GOLD, EXTENT, match="semeval").extra["schemas"]
    assert [tables[s]["overall"][c] for s in ("strict", "partial", "type")
            for c in ("correct", "partial")] == [1, 0, 1, 1, 2, 0]
    # token: the 20 gold characters are predicted; the 9 of the gap are not gold
    assert counts(GOLD, EXTENT, match="token") == (20, 9, 0)
    # overlap: the extent would share characters with "cancer": merged into one prediction
    tp, fp, fn = counts(GOLD, EXTENT, match="overlap", overlapping="merge")
    assert tp == pytest.approx(0.75 * 14 / 29)
    assert (fp, fn) == pytest.approx((1 - tp, 2 - tp))  # one prediction left
    with pytest.raises(InvalidSpanError, match=r"Overlapping predicted spans"):
        nerscore.evaluate(GOLD, EXTENT, match="overlap")
    # ... and the fragments of one entity may surround another one of its label
    assert counts(GOLD, GOLD, match="overlap") == (2, 0, 0)


def test_the_report_says_how_many_entities_were_discontinuous():
    r = nerscore.evaluate(GOLD, EXTENT)
    assert r.entities == {"discontinuous": "fragments", "subset": None,
                          "gold": {"discontinuous": 1},
                          "pred": {"discontinuous": 0, "ignored": 0}, "ignore_regions": 0}
    assert r.to_dict()["entities"] == r.entities
    assert r.notes == ("Discontinuous entities (two or more fragments): 1 gold, 0 predicted; "
                       "matched by their fragments.",)
    assert "note: Discontinuous entities (two or more fragments): 1 gold" in str(r)
    assert nerscore.evaluate([[(0, 1, "A")]], [[(0, 1, "A")]]).notes == ()
    header = str(nerscore.evaluate(GOLD, EXTENT, discontinuous="extent")).splitlines()[0]
    assert header.endswith("match=exact, labeled=True, discontinuous=extent")


@pytest.mark.parametrize("match", MATCHERS)
def test_the_discontinuous_subset(match):
    r = nerscore.evaluate(GOLD, SAME, match=match, subset="discontinuous")
    assert (r.micro.n_gold, r.micro.n_pred) == ((14, 14) if match == "token" else (1, 1))
    r = nerscore.evaluate(GOLD, EXTENT, match=match, subset="discontinuous", zero_division=0.0)
    assert (r.micro.n_gold, r.micro.n_pred) == ((14, 0) if match == "token" else (1, 0))
    assert r.entities["subset"] == "discontinuous"
    assert "Only the discontinuous entities were scored (subset='discontinuous')." in r.notes


def test_subset_needs_spans_and_options_are_checked():
    with pytest.raises(OptionError, match=r"subset='discontinuous' needs span input"):
        nerscore.f1_score([["B-X"]], [["B-X"]], subset="discontinuous")
    with pytest.raises(OptionError, match=r"Expected `subset` to be one of 'discontinuous' or "
                                          r"None; got 'all'"):
        nerscore.evaluate(GOLD, SAME, subset="all")
    with pytest.raises(OptionError, match=r"Unknown keyword 'discontinous'; did you mean "
                                          r"'discontinuous'\?"):
        nerscore.evaluate(GOLD, SAME, discontinous="extent")
    # tags have no fragments: the option changes nothing there
    assert nerscore.f1_score([["B-X", "I-X"]], [["B-X", "O"]], discontinuous="extent") == 0.0


@pytest.mark.parametrize(("match", "compat"), [("semeval", "nervaluate"),
                                               ("threshold", "kaggle"), ("overlap", "loio")])
def test_reference_modes_refuse_fragments_and_take_extents(match, compat):
    with pytest.raises(InvalidSpanError, match=rf"compat='{compat}' cannot score discontinuous "
                                               r"entities .* the first \(0, 29, 'Disorder'\) "
                                               r"with fragments \[\[0, 4\], \[19, 29\]\]"):
        nerscore.evaluate(GOLD, SAME, match=match, compat=compat)
    more = {"overlapping": "merge"} if match == "overlap" else {}  # the extent meets "cancer"
    nerscore.evaluate(GOLD, SAME, match=match, compat=compat, discontinuous="extent", **more)


def test_every_public_function_and_the_scorer_take_the_options():
    kw = {"discontinuous": "extent"}
    assert nerscore.f1_score(GOLD, EXTENT, **kw) == 1.0
    assert nerscore.precision_score(GOLD, EXTENT) == 0.5
    assert nerscore.count_matches(GOLD, EXTENT, **kw).total().exact == 2
    assert len(nerscore.list_errors(GOLD, EXTENT, **kw)) == 0
    assert nerscore.confusion_matrix(GOLD, EXTENT, subset="discontinuous").matrix.tolist() == [
        [0, 1], [0, 0]]
    scorer = nerscore.EntityScorer(match="semeval", **kw)
    scorer.update(GOLD, EXTENT)
    scorer.update(GOLD, SAME)
    report = scorer.compute()
    assert report.micro.tp == 4
    assert report.entities["discontinuous"] == "extent"
    assert report.entities["gold"]["discontinuous"] == 2
    assert report.entities["pred"]["discontinuous"] == 1


def test_error_records_give_fragments():
    [rec] = nerscore.list_errors(GOLD, EXTENT)
    assert rec.category.value == "wrong_boundary"
    assert (rec.gold_fragments, rec.pred_fragments) == (((0, 4), (19, 29)), None)
    assert (rec.gold_text, rec.pred_text) == ("lung … upper lobe", "lung cancer in the upper lobe")
    assert rec.to_dict()["gold_fragments"] == [[0, 4], [19, 29]]
    csv = errors_to_string([rec], format="csv").splitlines()
    assert csv[0].endswith(",gold_fragments,pred_fragments")
    assert csv[1].endswith(",0 4;19 29,")


def test_exact_pairs_equal_fragment_sets_only():
    g = [[Entity.from_fragments([(0, 2), (5, 7)], "A"), Entity.from_fragments([(0, 2), (6, 7)], "A")]]
    p = [[Entity.from_fragments([(0, 2), (6, 7)], "A"), Entity.from_fragments([(0, 2), (5, 7)], "A"),
          Entity(Span(0, 7), "A")]]
    assert counts(g, p) == (2, 1, 0)
    assert counts(g, p, discontinuous="extent") == (2, 1, 0)
    assert counts(g, p, labeled=False) == (2, 1, 0)


def test_overlap_optimal_and_merge_with_fragments():
    g = [[Entity.from_fragments([(0, 4), (10, 14)], "A"), Entity(Span(5, 9), "A")]]
    p = [[Entity(Span(0, 4), "A"), Entity.from_fragments([(5, 9), (10, 14)], "A")]]
    greedy = nerscore.count_matches(g, p, match="overlap", s=1.0).total()
    optimal = nerscore.count_matches(g, p, match="overlap", s=1.0, assignment="optimal").total()
    # greedy: (0,4) takes the first gold (factor 4/8); the second prediction overlaps both
    # golds, the first consumed, so it takes (5,9) (factor 4/8); optimal finds the same total
    assert greedy.tp == pytest.approx(1.0)
    assert optimal.tp == pytest.approx(1.0)
    merged = nerscore.evaluate([[Entity.from_fragments([(0, 4), (10, 14)], "A"),
                                 Entity(Span(3, 6), "A")]], p, match="overlap",
                               overlapping="merge", zero_division=0.0)
    assert merged.extra["merged"] == {"gold": 1, "pred": 0}
    assert "overlap: merged 1 overlapping gold spans" in merged.notes[0]


def test_hungarian_finds_the_best_assignment():
    rng = np.random.default_rng(0)
    for _ in range(200):
        n_r, n_c = rng.integers(1, 5, size=2)
        w = rng.random((n_r, n_c)) * (rng.random((n_r, n_c)) < 0.6)
        pairs = _hungarian(w)
        best = max(
            sum(w[r, c] for r, c in zip(rows, cols, strict=False))
            for rows in itertools.permutations(range(n_r))
            for cols in itertools.permutations(range(n_c))
        )
        assert sum(w[r, c] for r, c in pairs) == pytest.approx(best)
        assert len({r for r, _ in pairs}) == len(pairs) == len({c for _, c in pairs})


# ----------------------------------------------------------------------------- properties

SETTINGS = settings(max_examples=60, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
OPTIONS = {"exact": {}, "semeval": {}, "threshold": {}, "token": {},
           "overlap": {"overlapping": "merge"},
           "overlap-optimal": {"overlapping": "merge", "assignment": "optimal"}}


@st.composite
def contiguous_docs(draw):
    """Contiguous spans of two labels in a few documents (two sides)."""
    def side():
        docs = []
        for _ in range(n_docs):
            spans = []
            for _ in range(draw(st.integers(0, 5))):
                s = draw(st.integers(0, 30))
                e = draw(st.integers(s, min(s + 8, 40)))
                spans.append((s, e, draw(st.sampled_from("AB"))))
            docs.append(spans)
        return docs
    n_docs = draw(st.integers(1, 3))
    return side(), side()


def _match_name(key):
    return key.split("-")[0]


@SETTINGS
@given(data=contiguous_docs())
def test_a_one_fragment_corpus_scores_exactly_as_before(data):
    """The fragment code paths give what the contiguous ones give, matcher by matcher.

    One discontinuous entity, identical on both sides, in a document of its own and of its
    own label, sends every matcher down its fragment path; every other count must equal
    the counts of the contiguous corpus, and so must the counts when the contiguous spans
    are written as (touching) fragments.
    """
    gold, pred = data
    extra = [Entity.from_fragments([(0, 1), (3, 4)], "ZZ")]
    for key, opts in OPTIONS.items():
        match = _match_name(key)
        plain = nerscore.count_matches(gold, pred, match=match, **opts)
        with_fragments = nerscore.count_matches([*gold, extra], [*pred, extra], match=match,
                                                **opts)
        assert with_fragments.tallies == {"gold_discontinuous": 1, "pred_discontinuous": 1}
        kept = with_fragments.select(plain.labels)
        assert kept.labels == plain.labels, key
        assert np.array_equal(kept.exact, plain.exact), key
        assert np.array_equal(kept.n_pred, plain.n_pred), key
        assert np.array_equal(kept.n_gold, plain.n_gold), key
        assert np.allclose(kept.tp, plain.tp), key
        assert {k: v for k, v in kept.extra.items() if not k.startswith("ZZ")}.keys() == \
            plain.extra.keys()
        for k, v in plain.extra.items():
            assert np.array_equal(kept.extra[k], v), (key, k)
        written = [[{"start": s, "end": e, "label": lab,
                     "fragments": [[s, (s + e) // 2], [(s + e) // 2, e]]} if e > s + 1
                    else (s, e, lab) for s, e, lab in doc] for doc in gold]
        assert nerscore.count_matches(written, pred, match=match, **opts) == plain, key


@st.composite
def fragment_docs(draw):
    """Documents with discontinuous spans on both sides (any order of fragments)."""
    def entity():
        n = draw(st.integers(1, 3))
        cuts = sorted(draw(st.lists(st.integers(0, 40), min_size=2 * n, max_size=2 * n,
                                    unique=True)))
        frags = [(cuts[2 * i], cuts[2 * i + 1]) for i in range(n)]
        frags = [f for i, f in enumerate(frags) if i == 0 or f[0] > frags[i - 1][1]]
        return draw(st.permutations(frags)), draw(st.sampled_from("AB"))

    n_docs = draw(st.integers(1, 3))
    return [[[entity() for _ in range(draw(st.integers(0, 4)))] for _ in range(n_docs)]
            for _ in range(2)]


def _as_dicts(docs):
    return [[{"start": min(a for a, _ in f), "end": max(b for _, b in f), "label": lab,
              "fragments": [list(x) for x in f]} for f, lab in doc] for doc in docs]


@SETTINGS
@given(data=fragment_docs(), seed=st.integers(0, 10))
def test_fragment_order_and_row_order_do_not_matter(data, seed):
    gold, pred = (_as_dicts(d) for d in data)
    rng = np.random.default_rng(seed)
    shuffled = [[{**x, "fragments": [x["fragments"][i] for i in rng.permutation(
        len(x["fragments"]))]} for x in (doc[i] for i in rng.permutation(len(doc)))]
        for doc in gold]
    for key, opts in OPTIONS.items():
        match = _match_name(key)
        a = nerscore.count_matches(gold, pred, match=match, **opts)
        b = nerscore.count_matches(shuffled, pred, match=match, **opts)
        assert a == b, key


@SETTINGS
@given(data=fragment_docs())
def test_swapping_sides_swaps_precision_and_recall(data):
    gold, pred = (_as_dicts(d) for d in data)
    for key, opts in OPTIONS.items():
        if key == "overlap":  # the article's walk favours earlier predictions
            continue
        match = _match_name(key)
        a = nerscore.evaluate(gold, pred, match=match, zero_division=0.0, **opts)
        b = nerscore.evaluate(pred, gold, match=match, zero_division=0.0, **opts)
        assert a.micro.precision == pytest.approx(b.micro.recall), key
        assert a.micro.recall == pytest.approx(b.micro.precision), key


@SETTINGS
@given(data=fragment_docs())
def test_identical_sides_score_one_and_extent_reads_extents(data):
    gold, _ = (_as_dicts(d) for d in data)
    if not any(gold):
        return
    extents = [[(x["start"], x["end"], x["label"]) for x in doc] for doc in gold]
    for key, opts in OPTIONS.items():
        match = _match_name(key)
        r = nerscore.evaluate(gold, gold, match=match, **opts)
        assert r.micro.f1 == 1.0, key
        if key != "token":
            assert nerscore.count_matches(gold, extents, match=match, discontinuous="extent",
                                          **opts).total().tp == pytest.approx(
                nerscore.count_matches(extents, extents, match=match, **opts).total().tp), key


@SETTINGS
@given(data=fragment_docs(), cut=st.integers(1, 30))
def test_batches_add_up_to_one_call(data, cut):
    gold, pred = (_as_dicts(d) for d in data)
    for key, opts in OPTIONS.items():
        match = _match_name(key)
        scorer = nerscore.EntityScorer(match=match, zero_division=0.0, **opts)
        for k in range(len(gold)):
            scorer.update(gold[k:k + 1], pred[k:k + 1])
        whole = nerscore.count_matches(gold, pred, match=match, **opts)
        assert scorer.counts == whole, key
