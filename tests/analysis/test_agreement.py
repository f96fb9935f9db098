"""Agreement between annotators (nerscore.analysis.agreement), against the reference packages."""

from __future__ import annotations

import itertools
import math
import random
import re
from typing import Any

import numpy as np
import pytest

import nerscore
from nerscore.analysis.agreement import TokenAgreement, agreement
from nerscore.analysis.agreement.inputs import join_annotations
from nerscore.analysis.significance.results import Estimate
from nerscore.errors import FormatError, InputTypeError, LengthMismatchError, OptionError
from tests.paths import DATA

BRAT = DATA / "agreement" / "brat"
CONLL = DATA / "agreement" / "conll"
ANNOTATORS = ("ann1", "ann2", "ann3")

sklearn_metrics = pytest.importorskip("sklearn.metrics")
krippendorff = pytest.importorskip("krippendorff")
inter_rater = pytest.importorskip("statsmodels.stats.inter_rater")


# --------------------------------------------------------------------------- the recipe

def _token_labels(text: str, spans: list[tuple[int, int, str]], pattern: str) -> list[str]:
    """A token's label: the label of an entity sharing a character with it, else O."""
    out = []
    for m in re.finditer(pattern, text):
        labs = {lab for s, e, lab in spans if s < m.end() and m.start() < e}
        assert len(labs) <= 1
        out.append(labs.pop() if labs else "O")
    return out


def _reference(rows: list[list[str | None]]) -> dict[str, Any]:
    """Cohen per pair, Fleiss (complete tokens) and alpha (all) by the reference packages."""
    cats = sorted({x for r in rows for x in r if x is not None})
    code = {c: i for i, c in enumerate(cats)}
    n = len(rows)
    cohen = {}
    for i, j in itertools.combinations(range(n), 2):
        both = [(a, b) for a, b in zip(rows[i], rows[j], strict=True)
                if a is not None and b is not None]
        cohen[i, j] = sklearn_metrics.cohen_kappa_score([a for a, _ in both],
                                                        [b for _, b in both])
    complete = [k for k in range(len(rows[0])) if all(r[k] is not None for r in rows)]
    table = np.zeros((len(complete), len(cats)))
    for u, k in enumerate(complete):
        for r in rows:
            table[u, code[r[k]]] += 1
    fleiss = inter_rater.fleiss_kappa(table, method="fleiss")
    data = np.array([[np.nan if x is None else code[x] for x in r] for r in rows], dtype=float)
    alpha = krippendorff.alpha(reliability_data=data, level_of_measurement="nominal")
    return {"cohen": cohen, "fleiss": fleiss, "alpha": alpha}


def _check(result: TokenAgreement, ref: dict[str, Any]) -> None:
    for (i, j), kappa in ref["cohen"].items():
        assert result.cohen[i][j] == pytest.approx(kappa, abs=1e-9)
        assert result.cohen[j][i] == result.cohen[i][j]
    assert result.fleiss == pytest.approx(ref["fleiss"], abs=1e-9)
    assert result.alpha == pytest.approx(ref["alpha"], abs=1e-9)


def _random_docs(seed: int, n_docs: int = 12) -> dict[str, dict[str, nerscore.Document]]:
    rng = random.Random(seed)
    words = ["Anna", "met", "Bob", "in", "Paris", ",", "at", "ACME", "Corp.", "today", "."]
    labels = ["PER", "LOC", "ORG"]
    out: dict[str, dict[str, nerscore.Document]] = {n: {} for n in ("x", "y", "z", "w")}
    for d in range(n_docs):
        text = " ".join(rng.choice(words) for _ in range(rng.randint(5, 20)))
        bounds = [m.span() for m in re.finditer(r"\S+", text)]
        for name in out:
            if name == "w" and d % 4 == 0:
                continue  # w did not annotate every fourth document
            spans, k = [], 0
            while k < len(bounds):
                if rng.random() < 0.35:
                    length = rng.randint(1, 3)
                    last = min(k + length, len(bounds)) - 1
                    spans.append((bounds[k][0], bounds[last][1], rng.choice(labels)))
                    k = last + 2
                else:
                    k += 1
            out[name][f"doc{d}"] = nerscore.Document(f"doc{d}", spans, text=text)
    return out


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_token_coefficients_equal_the_reference_packages(seed: int) -> None:
    sets = _random_docs(seed)
    result = agreement(sets, tokenizer="whitespace", n_resamples=0)
    names = list(sets)
    doc_ids = list(sets["x"])
    rows: list[list[str | None]] = []
    for name in names:
        row: list[str | None] = []
        for d in doc_ids:
            text = sets["x"][d].text
            assert text is not None
            doc = sets[name].get(d)
            labels = _token_labels(text, [(e.start, e.end, e.label) for e in doc.spans]
                                   if doc else [], r"\S+")
            row += labels if doc else [None] * len(labels)
        rows.append(row)
    assert result.tokens.overall is not None
    _check(result.tokens.overall["all"], _reference(rows))
    labelled = [k for k in range(len(rows[0])) if any(r[k] not in (None, "O") for r in rows)]
    _check(result.tokens.overall["labelled"], _reference([[r[k] for k in labelled]
                                                          for r in rows]))
    for lab in ("PER", "LOC", "ORG"):
        binary = [[None if x is None else str(x == lab) for x in r] for r in rows]
        _check(result.tokens.per_label[lab]["all"], _reference(binary))
        keep = [k for k in range(len(rows[0])) if any(r[k] == lab for r in rows)]
        _check(result.tokens.per_label[lab]["labelled"],
               _reference([[r[k] for k in keep] for r in binary]))
    assert result.notes
    assert "'doc0' (missing for w)" in result.notes[0]


def _conll(name: str) -> Any:
    return nerscore.read_conll(CONLL / f"{name}.conll")


def test_tag_input_equals_the_reference_packages_on_the_conll_fixture() -> None:
    sets = {n: _conll(n) for n in ANNOTATORS}
    result = agreement(sets, n_resamples=0)
    rows: list[list[str | None]] = [
        [t if t == "O" else t[2:] for sent in sets[n].tags.to_lists() for t in sent]
        for n in ANNOTATORS]
    assert result.tokens.overall is not None
    _check(result.tokens.overall["all"], _reference(rows))
    raw = agreement(sets, tags=True, n_resamples=0)
    assert raw.tokens.overall is not None
    _check(raw.tokens.overall["all"], _reference(
        [[t for sent in sets[n].tags.to_lists() for t in sent] for n in ANNOTATORS]))
    assert raw.tokens.units == "tags"
    assert "B-NP" in raw.tokens.per_label


@pytest.mark.parametrize("match", nerscore.matching.registry.matcher_names())
def test_pairwise_f1_is_the_matchers_f1(match: str) -> None:
    sets = {n: _conll(n) for n in ANNOTATORS}
    result = agreement(sets, match=match, n_resamples=0)
    for (i, a), (j, b) in itertools.permutations(enumerate(ANNOTATORS), 2):
        report = nerscore.evaluate(sets[a], sets[b], match=match, zero_division=0.0)
        f1 = report.micro.fbeta
        assert result.f1.matrix[i][j] == pytest.approx(f1, abs=1e-12), (a, b)
    if result.f1.symmetric:
        for a, b in itertools.combinations(ANNOTATORS, 2):
            ab = nerscore.evaluate(sets[a], sets[b], match=match).micro.fbeta
            ba = nerscore.evaluate(sets[b], sets[a], match=match).micro.fbeta
            assert ab == pytest.approx(ba, abs=1e-12)


def test_symmetric_matchers_are_symmetric() -> None:
    sets = {n: nerscore.read_brat(BRAT / n) for n in ANNOTATORS}
    for match in ("exact", "token"):
        m = np.array(agreement(sets, match=match, n_resamples=0).f1.matrix)
        assert np.array_equal(m, m.T)
        assert agreement(sets, match=match, n_resamples=0).f1.symmetric


# --------------------------------------------------------------------------- bratiaa

@pytest.fixture(scope="module")
def bratiaa_agree() -> object:
    saved = np.geterr()
    try:
        agree = pytest.importorskip("bratiaa.agree")
    finally:
        np.seterr(**saved)  # bratiaa changes NumPy's error handling when imported
    return agree


def test_instance_level_equals_bratiaa(bratiaa_agree: object) -> None:
    ref = bratiaa_agree.compute_f1_agreement(str(BRAT))  # type: ignore[attr-defined]
    sets = {n: nerscore.read_brat(BRAT / n) for n in ANNOTATORS}
    result = agreement(sets, n_resamples=0)
    mean, sd = ref.mean_sd_total()
    assert (result.f1.mean(), result.f1.sd()) == pytest.approx((mean, sd), abs=1e-12)
    means, sds = ref.mean_sd_per_label()
    for k, lab in enumerate(ref.labels):
        assert result.f1.mean(lab) == pytest.approx(means[k], abs=1e-12)
        assert result.f1.sd(lab) == pytest.approx(sds[k], abs=1e-12)
    means, sds = ref.mean_sd_per_document()
    ours = {d.document + ".ann": d for d in result.documents}
    for k, doc in enumerate(ref.documents):
        assert ours[doc].mean == pytest.approx(means[k], abs=1e-12)
        assert ours[doc].sd == pytest.approx(sds[k], abs=1e-12)


def test_token_level_f1_equals_bratiaa(bratiaa_agree: object) -> None:
    from bratiaa.utils import tokenize

    ref = bratiaa_agree.compute_f1_agreement(  # type: ignore[attr-defined]
        str(BRAT), token_func=tokenize)
    sets = {n: nerscore.read_brat(BRAT / n) for n in ANNOTATORS}
    result = agreement(sets, tokenizer="whitespace", n_resamples=0)
    means, sds = ref.mean_sd_per_label()
    for k, lab in enumerate(ref.labels):
        pairs = [result.tokens.f1[lab][i][j] for i, j in itertools.combinations(range(3), 2)]
        assert float(np.mean(pairs)) == pytest.approx(means[k], abs=1e-12)
        assert float(np.std(pairs)) == pytest.approx(sds[k], abs=1e-12)
    means, sds = ref.mean_sd_per_document()
    for k, doc in enumerate(ref.documents):
        mean, sd = result.tokens.documents[doc.removesuffix(".ann")]
        assert mean == pytest.approx(means[k], abs=1e-12)
        assert sd == pytest.approx(sds[k], abs=1e-12)


# --------------------------------------------------------------------------- the rest

def test_missing_documents_are_left_out_of_the_pairs_that_lack_them() -> None:
    a = {"d1": [(0, 4, "PER")], "d2": [(0, 3, "LOC")]}
    b = {"d1": [(0, 4, "PER")]}
    c = {"d1": [(0, 4, "ORG")], "d2": [(0, 3, "LOC")]}
    result = agreement({"a": a, "b": b, "c": c}, n_resamples=0)
    assert result.f1.matrix[0][1] == 1.0  # d2 is not scored as "b found nothing"
    assert result.f1.matrix[0][2] == 0.5
    assert "'d2' (missing for b)" in result.notes[0]
    docs = {d.document: d for d in result.documents}
    assert set(docs["d2"].f1) == {"a/c"}
    assert result.tokens.overall is None or result.tokens.units == "offsets"


def test_pairs_that_share_no_document_are_named_in_a_note() -> None:
    a = {"d1": [(0, 4, "PER")]}
    b = {"d2": [(0, 3, "LOC")]}
    c = {"d2": [(0, 3, "LOC")]}
    result = agreement({"a": a, "b": b, "c": c}, n_resamples=0)
    assert math.isnan(result.f1.mean())
    assert ("2 pairs of annotators share no document (a and b; a and c): their entity F1 and "
            "Cohen's kappa are undefined, and so are the means over pairs (NaN, - in the "
            "tables); give every pair some documents in common.") in result.notes
    shared = agreement({"a": a, "b": {**b, **a}}, n_resamples=0)
    assert not any("share no document" in n for n in shared.notes)


def test_an_annotator_without_documents_lacks_every_one() -> None:
    a = [nerscore.Document("d1", [(0, 4, "PER")], "Anna ran"),
         nerscore.Document("d2", [(0, 3, "LOC")], "Rio")]
    b = [nerscore.Document("d1", [(0, 4, "PER")], "Anna ran")]
    result = agreement({"a": a, "b": b, "c": []}, n_resamples=0)
    assert result.f1.matrix[0][1] == 1.0
    assert math.isnan(result.f1.matrix[0][2])  # no document in common
    assert result.notes[0].endswith("'d1' (missing for c); 'd2' (missing for b, c).")
    docs, _ = nerscore.adjudicate({"a": a, "b": b, "c": []})
    assert [(d.id, len(d.spans)) for d in docs] == [("d1", 1), ("d2", 1)]
    with pytest.raises(LengthMismatchError, match="different numbers of documents"):
        agreement({"a": [[(0, 4, "PER")]], "b": []})  # without ids: paired by position


def test_documents_no_two_annotators_share_are_an_error() -> None:
    a = {"d1": [(0, 4, "PER")], "d2": []}
    with pytest.raises(FormatError, match="No document is annotated by two or more annotators"):
        agreement({"a": a, "b": {"D1": [(0, 4, "PER")]}, "c": {"D2": []}})
    # one document that two of three share is enough
    result = agreement({"a": a, "b": {"d1": [(0, 4, "PER")]}, "c": {"D2": []}}, n_resamples=0)
    assert result.f1.matrix[0][1] == 1.0


def test_overlapping_entities_leave_only_the_per_label_numbers() -> None:
    a = [[(0, 10, "ORG"), (0, 4, "PER")]]
    b = [[(0, 10, "ORG")]]
    result = agreement([a, b], n_resamples=0)
    assert result.tokens.overall is None
    assert "two or more labels" in result.tokens.reason
    assert math.isnan(result.tokens.per_label["ORG"]["all"].alpha)  # one category only
    assert result.tokens.per_label["PER"]["all"].cohen[0][1] == pytest.approx(0.0)


def test_the_reason_without_overall_numbers_names_the_document() -> None:
    a = {"d1": [(0, 4, "PER")], "d2": [(0, 10, "ORG"), (0, 4, "PER")]}
    b = {"d1": [(0, 4, "PER")], "d2": [(0, 10, "ORG")]}
    reason = agreement([a, b], n_resamples=0).tokens.reason
    assert "the first is token 0 of document 'd2')" in reason


@pytest.mark.parametrize("at", [4, 5, 11])
def test_a_zero_length_entity_labels_no_token(at: int) -> None:
    text = "Ana visited New York."  # 5 is inside "visited", 4 and 11 are its edges
    a = {"d": nerscore.Document("d", [(0, 3, "PER"), (at, at, "MISC")], text=text)}
    b = {"d": nerscore.Document("d", [(0, 3, "PER")], text=text)}
    result = agreement([a, b], n_resamples=0)
    assert result.f1.matrix[0][1] == pytest.approx(2 / 3)  # still an entity
    assert result.tokens.overall is not None
    assert result.tokens.overall["all"].alpha == 1.0
    assert math.isnan(result.tokens.per_label["MISC"]["all"].alpha)


def test_disagreements_are_grouped_with_who_said_what() -> None:
    sets = [[["B-PER", "I-PER", "O", "B-LOC", "O", "B-ORG"]],
            [["B-PER", "O", "O", "B-MISC", "O", "B-ORG"]],
            [["B-PER", "I-PER", "O", "B-LOC", "O", "O"]]]
    result = agreement(sets, names=["x", "y", "z"], n_resamples=0)
    found = [(d.start, d.end, d.kind, d.missing_by) for d in result.disagreements]
    assert found == [(0, 2, "boundary", ()), (3, 4, "label", ()), (5, 6, "missing", ("z",))]
    assert result.disagreements[1].spans == {"x": ((3, 4, "LOC"),), "y": ((3, 4, "MISC"),),
                                             "z": ((3, 4, "LOC"),)}


def test_bootstrap_intervals_are_reproducible_and_hold_the_estimate() -> None:
    sets = {n: nerscore.read_brat(BRAT / n) for n in ANNOTATORS}
    a = agreement(sets, n_resamples=200, seed=7)
    b = agreement(sets, n_resamples=200, seed=7)
    assert a.intervals == b.intervals
    for est in a.intervals.values():
        assert est.low <= est.value <= est.high
        assert est.low < est.high


def test_documents_no_pair_shares_are_not_resampled() -> None:
    a = {"d1": [(0, 3, "PER"), (5, 8, "LOC")], "d2": [(0, 3, "PER")]}
    b = {"d1": [(0, 3, "PER"), (5, 8, "ORG")], "d3": [(0, 3, "PER")]}
    result = agreement([a, b], n_resamples=200)
    # only d1 is shared: every resample is d1 alone, never d2 or d3 without a pair
    assert result.intervals["mean_f1"] == Estimate(0.5, 0.5, 0.5)
    assert result.intervals["alpha"].low == result.intervals["alpha"].high


def test_an_interval_undefined_in_some_resamples_is_noted() -> None:
    a = [["B-PER", "O"], ["O", "O"]]
    result = agreement([a, a], n_resamples=200)
    assert result.f1.mean() == 1.0
    assert math.isnan(result.intervals["mean_f1"].low)
    assert math.isnan(result.intervals["alpha"].low)
    few, f1_note, alpha_note = result.notes
    assert few == ("only 2 sentences are resampled: with fewer than 10 sentences, bootstrap "
                   "intervals are unreliable (the resamples take few distinct values and "
                   "understate the spread).")
    assert re.fullmatch(r"No bootstrap interval of the mean pairwise F1: in \d+ of 200 "
                        r"resamples some pair of annotators has no entity in the sentences "
                        r"drawn, so its F1 is undefined \(too few sentences with entities to "
                        r"resample\)\.", f1_note)
    assert alpha_note.startswith("No bootstrap interval of alpha: in ")
    assert alpha_note.endswith("(too few sentences with entities to resample).")
    docs = agreement([{"d1": [(0, 3, "PER")], "d2": []}] * 2, n_resamples=200)  # spans
    assert f1_note.replace("sentence", "document") in docs.notes


def test_too_few_resamples_or_documents_are_noted_as_compare_notes_them() -> None:
    sets = {n: nerscore.read_brat(BRAT / n) for n in ANNOTATORS}
    assert agreement(sets, n_resamples=10).notes[-1] == (
        "10 resamples are too few for 95% intervals: they need at least 40 (resamples × "
        "(1 − level)/2 ≥ 1, so that some resample lies beyond each end); with fewer, an "
        "interval is not meaningful and need not contain the score.")
    assert not any("resample" in n for n in agreement(sets, n_resamples=40).notes)
    result = agreement({n: {"d1": [(0, 3, "PER")]} for n in "ab"}, n_resamples=100)
    assert result.intervals["mean_f1"] == Estimate(1.0, 1.0, 1.0)
    assert result.notes == (
        "only 1 document is resampled: with fewer than 10 documents, bootstrap intervals are "
        "unreliable (every resample is that document, so an interval is the estimate itself).",)


def test_intervals_every_resample_of_which_is_equal_are_noted() -> None:
    # the annotators agree on all 12 documents: F1 and alpha are 1 in every resample
    docs = {f"d{i}": [(0, 3, "PER"), (4, 7, "LOC")] for i in range(12)}
    result = agreement({"a": docs, "b": docs}, n_resamples=100)
    assert result.intervals["mean_f1"] == result.intervals["alpha"] == Estimate(1.0, 1.0, 1.0)
    assert result.notes == (
        "2 bootstrap intervals have zero width (the mean pairwise F1 and alpha): all 100 "
        "resamples gave the same value of each, as every document contributes alike to them "
        "(e.g. annotators who agree on every document, or documents annotated alike); an "
        "interval of zero width says nothing about their uncertainty.",)
    # an interval withheld for undefined resamples keeps its own note alone (the resamples
    # that draw the one document with entities all give F1 1)
    sparse = {f"d{i}": [] for i in range(11)} | {"d11": [(0, 3, "PER")]}
    notes = agreement({"a": sparse, "b": sparse}, n_resamples=100).notes
    assert len(notes) == 1
    assert notes[0].startswith("No bootstrap interval of the mean pairwise F1: in ")


def test_documents_are_sorted_least_agreed_first() -> None:
    sets = {n: nerscore.read_brat(BRAT / n) for n in ANNOTATORS}
    means = [d.mean for d in agreement(sets, n_resamples=0).documents]
    assert means == sorted(means)


def test_bad_input_says_what_and_where() -> None:
    with pytest.raises(OptionError, match="two or more annotation sets; got 1"):
        agreement([[["O"]]])
    with pytest.raises(LengthMismatchError, match="Sentence 0 has 2 tokens for annotator 'A'"):
        agreement([[["O", "O"]], [["O"]]])
    with pytest.raises(InputTypeError, match="Some annotation sets are tag sequences"):
        agreement([[["B-X"]], [[(0, 1, "X")]]])
    with pytest.raises(OptionError, match="`names` to give one name per annotation set"):
        agreement([[["O"]], [["O"]]], names=["a"])
    with pytest.raises(OptionError, match="tokenizer"):
        agreement([[[(0, 1, "X")]], [[(0, 1, "X")]]], tokenizer="nltk")
    with pytest.raises(OptionError, match="labled"):
        agreement([[["O"]], [["O"]]], labled=False)


def test_an_annotator_without_any_span_is_read_as_spans() -> None:
    result = agreement([[[(0, 4, "PER")], []], [[], []]], n_resamples=0)
    assert result.f1.matrix[0][1] == 0.0
    assert result.tokens.units == "offsets"


def test_a_reader_yielding_several_annotators_plugs_in() -> None:
    export = {"ann": {"d": nerscore.Document("d", [(0, 4, "PER")], text="Anna left")},
              "bob": {"d": nerscore.Document("d", [(0, 4, "PER")], text="Anna left")}}
    joined = join_annotations(export)
    assert joined.names == ("ann", "bob")
    assert joined.texts == ("Anna left",)
    assert agreement(export, n_resamples=0).f1.matrix[0][1] == 1.0


def test_label_operations_act_on_every_annotators_entities() -> None:
    sets = {"a": {"d": [(0, 5, "GPE"), (6, 9, "MISC")]}, "b": {"d": [(0, 5, "LOC")]}}
    plain = agreement(sets, n_resamples=0)
    mapped = agreement(sets, n_resamples=0, labels_map={"GPE": "LOC"}, drop=["MISC"])
    assert plain.f1.matrix[0][1] == 0.0
    assert mapped.f1.matrix[0][1] == 1.0
    assert "Labels merged (labels_map): GPE and LOC are written as LOC." in mapped.notes
    # the same for tags: the pairs are scored on the relabelled entities
    tags = {"a": [["B-GPE", "I-GPE", "O", "B-MISC"]], "b": [["B-LOC", "I-LOC", "O", "O"]]}
    assert agreement(tags, n_resamples=0, labels_map={"GPE": "LOC"},
                     drop=["MISC"]).f1.matrix[0][1] == 1.0
    with pytest.raises(OptionError, match="tags=True compares the raw tags"):
        agreement(tags, n_resamples=0, tags=True, drop=["MISC"])
    with pytest.warns(nerscore.UnknownLabelWarning, match="'GEP'"):
        agreement(sets, n_resamples=0, labels_map={"GEP": "LOC"})


def test_adjudication_votes_after_the_label_operations() -> None:
    sets = {"a": {"d": [(0, 5, "GPE")]}, "b": {"d": [(0, 5, "LOC")]}, "c": {"d": []}}
    docs, _ = nerscore.adjudicate(sets)
    assert docs[0].spans == ()
    docs, stats = nerscore.adjudicate(sets, labels_map={"GPE": "LOC"})
    assert [(e.start, e.end, e.label) for e in docs[0].spans] == [(0, 5, "LOC")]
    assert any("GPE -> LOC" in n for n in stats.notes)


def test_annotators_with_different_texts_are_warned_and_noted() -> None:
    doc = nerscore.Document
    sets = {"a": [doc("d1", [(4, 10, "PER")], text="Por Viruca"), doc("d2", [], text="same")],
            "b": [doc("d1", [(4, 10, "PER")], text="tot Viruca"), doc("d2", [], text="same")],
            "c": [doc("d1", [(4, 10, "PER")], text="Por Viruca"), doc("d2", [], text="same")]}
    with pytest.warns(nerscore.TextMismatchWarning) as w:
        result = agreement(sets, n_resamples=0)
    expected = [f"1 document has a different text for annotators {x!r} and {y!r}: document "
                f"'d1' from character 0 ({x} {tx!r}, {y} {ty!r}). Offsets are read against "
                "the first annotator's text; give every annotator the same texts."
                for x, y, tx, ty in (("a", "b", "Por Viruca", "tot Viruca"),
                                     ("b", "c", "tot Viruca", "Por Viruca"))]
    assert [str(x.message) for x in w] == expected
    assert list(result.notes) == expected
    with pytest.warns(nerscore.TextMismatchWarning):  # adjudication joins them alike
        _, stats = nerscore.adjudicate(sets)
    assert list(stats.notes) == expected
    same = {n: [doc("d1", [(0, 1, "A")], text="x")] for n in "ab"}
    assert agreement(same, n_resamples=0).notes == ()  # filterwarnings=error: no warning


def test_a_document_only_one_annotator_has_is_not_among_the_least_agreed() -> None:
    a = {"d1": [(0, 4, "PER")], "d2": [(0, 3, "LOC"), (4, 6, "PER")]}
    b = {"d1": [(0, 4, "PER")]}
    result = agreement({"a": a, "b": b}, n_resamples=0)
    assert [(d.document, d.n_entities) for d in result.documents] == [("d1", 1)]
    assert result.n_documents == 2
    assert "'d2' (missing for b)" in result.notes[0]


def test_labels_only_one_annotator_uses_are_noted() -> None:
    result = agreement({"a": {"d1": [(0, 3, "PER"), (4, 7, "LOC")]},
                        "b": {"d1": [(0, 3, "PER"), (4, 7, "ORG")]},
                        "c": {"d1": [(0, 3, "PER"), (4, 7, "ORG")]}}, n_resamples=0)
    assert result.notes == ("1 label(s) are used by one annotator only, so no pair agrees on "
                            "them and their F1 and kappa are 0 (or undefined): LOC (only a).",)
    tagged = agreement([[["B-PER", "B-X", "B-Y"]], [["B-PER", "O", "O"]],
                        [["B-PER", "O", "B-Y"]]], n_resamples=0)
    assert tagged.notes[0].endswith(": X (only A).")


def test_the_token_count_leaves_out_documents_only_one_annotator_has() -> None:
    text = {"d1": "Ana met Bob", "d2": "Cy ran far away"}
    a = [nerscore.Document("d1", (nerscore.Entity(nerscore.Span(0, 3), "PER"),), text=text["d1"]),
         nerscore.Document("d2", (nerscore.Entity(nerscore.Span(0, 2), "PER"),), text=text["d2"])]
    b = [nerscore.Document("d1", (nerscore.Entity(nerscore.Span(0, 3), "PER"),), text=text["d1"])]
    result = agreement({"a": a, "b": b}, n_resamples=0)
    assert result.tokens.overall is not None
    assert result.tokens.overall["all"].n_tokens == 3  # d1's, not d2's four
    assert result.tokens.overall["labelled"].n_tokens == 1
    assert result.tokens.per_label["PER"]["labelled"].n_tokens == 1
    alone = agreement({"a": a[:1], "b": b}, n_resamples=0)
    assert alone.tokens.overall is not None
    assert alone.tokens.overall["all"] == result.tokens.overall["all"]


def test_agreement_without_any_entity_says_why_it_is_undefined() -> None:
    result = agreement([[["O", "O"], ["O"]], [["O", "O"], ["O"]]], n_resamples=0)
    assert math.isnan(result.f1.mean())
    assert result.notes == (  # tag input: every sentence is a unit
        "no annotator marked any entity in the 2 sentences, so their agreement is undefined: "
        "the entity F1 needs an entity, and kappa and alpha need two different labels.",)
    dropped = agreement([{"d": [(0, 3, "PER")]}, {"d": [(0, 3, "PER")]}], drop=["PER"],
                        n_resamples=0)
    assert ("no entity is left after the label operations in the document, so their agreement "
            "is undefined: the entity F1 needs an entity, and kappa and alpha need two different "
            "labels.") in dropped.notes
    assert agreement([[], []], n_resamples=0).notes == (
        "the annotations hold no sentences, so their agreement is undefined.",)
    assert agreement([{}, {}], n_resamples=0).notes == (
        "the annotations hold no documents, so their agreement is undefined.",)


# --------------------------------------------------------------------------- ignore regions

def _doc(spans: list[tuple[int, int, str]], ignore: list[Any] | None = None,
         text: str | None = "Anna met Bob in Rome") -> list[nerscore.Document]:
    return [nerscore.Document("d", spans, text=text, ignore=ignore or ())]


def test_an_entity_in_the_other_annotators_ignore_region_is_left_out_of_every_number() -> None:
    # tokens Anna met Bob in Rome; B left "Rome" unannotated
    a = _doc([(0, 4, "PER"), (9, 12, "PER"), (16, 20, "LOC")])
    b = _doc([(0, 4, "PER"), (9, 12, "LOC")], ignore=[(16, 20)])
    result = agreement({"a": a, "b": b}, n_resamples=0)
    assert result.f1.matrix[0][1] == 2 * 1 / (2 + 2)  # Rome left out: 1 of 2 and 2
    assert result.f1.per_label["LOC"][0][1] == 0.0  # b's LOC Bob alone
    overall = result.tokens.overall
    assert overall is not None
    assert overall["all"].n_tokens == 4
    # a: PER O PER O, b: PER O LOC O; p_o = 3/4, p_e = (2*1 + 2*2)/16
    assert overall["all"].cohen[0][1] == pytest.approx((12 / 16 - 6 / 16) / (1 - 6 / 16))
    assert result.tokens.per_label["LOC"]["labelled"].n_tokens == 1  # Bob, not Rome
    assert [(d.start, d.end, d.kind) for d in result.disagreements] == [(9, 12, "label")]
    assert result.documents[0].mean == 0.5
    assert result.notes[0] == (
        "Ignore regions: 1 entity overlaps an annotator's ignore region of its label (or of "
        "every label) and is left out of the entity F1 of the pairs with that annotator and of "
        "the disagreements; 1 token(s) lie in ignore regions and are left out of kappa, alpha and "
        "token F1 (for a region of one label: of that label's numbers, and of the overall ones "
        "where an annotator gave the token that label).")
    plain = agreement({"a": a, "b": _doc([(0, 4, "PER"), (9, 12, "LOC")])}, n_resamples=0)
    assert plain.f1.matrix[0][1] == 2 / 5
    assert not any("Ignore regions" in n for n in plain.notes)


def test_an_entity_both_annotators_agree_on_but_one_region_is_f1_one() -> None:
    a = _doc([(0, 4, "PER"), (16, 20, "LOC")])
    b = _doc([(0, 4, "PER")], ignore=[(15, 18)])  # any overlap, as scoring's ignore regions
    result = agreement({"a": a, "b": b}, n_resamples=0)
    assert result.f1.matrix[0][1] == 1.0
    assert result.disagreements == ()
    assert result.tokens.overall is not None
    assert result.tokens.overall["all"].alpha == 1.0
    assert [n for n in result.notes if "one annotator only" in n] == []


def test_a_region_of_one_label_leaves_out_that_labels_entities_and_tokens() -> None:
    a = _doc([(0, 4, "PER"), (16, 20, "LOC")])
    of_loc = agreement({"a": a, "b": _doc([(0, 4, "PER")], ignore=[(16, 20, "LOC")])},
                       n_resamples=0)
    assert of_loc.f1.matrix[0][1] == 1.0
    overall = of_loc.tokens.overall
    assert overall is not None
    assert overall["all"].n_tokens == 4
    assert of_loc.tokens.per_label["LOC"]["all"].n_tokens == 4
    assert of_loc.tokens.per_label["PER"]["all"].n_tokens == 5
    of_per = agreement({"a": a, "b": _doc([(0, 4, "PER")], ignore=[(16, 20, "PER")])},
                       n_resamples=0)
    assert of_per.f1.matrix[0][1] == 2 / 3  # a's LOC Rome is compared: b annotated LOC there
    assert [(d.start, d.kind) for d in of_per.disagreements] == [(16, "missing")]
    overall = of_per.tokens.overall
    assert overall is not None
    assert overall["all"].n_tokens == 5
    assert of_per.tokens.per_label["PER"]["all"].n_tokens == 4
    assert of_per.tokens.per_label["LOC"]["all"].n_tokens == 5
    assert of_per.notes[0].startswith("Ignore regions: 1 token(s) lie in ignore regions")


def test_a_pair_leaves_out_the_regions_of_its_own_two_annotators() -> None:
    a = _doc([(0, 4, "PER"), (16, 20, "LOC")])
    b = _doc([(0, 4, "PER")])
    c = _doc([(0, 4, "PER")], ignore=[(16, 20)])
    result = agreement({"a": a, "b": b, "c": c}, n_resamples=0)
    m = result.f1.matrix
    assert (m[0][1], m[0][2], m[1][2]) == (2 / 3, 1.0, 1.0)  # only c did not annotate Rome
    assert result.disagreements == ()
    assert result.documents[0].n_entities == 1


def test_regions_of_documents_without_text_stay_in_their_document() -> None:
    a = [nerscore.Document("d1", [(0, 3, "PER"), (4, 7, "LOC")]),
         nerscore.Document("d2", [(0, 2, "PER")])]
    b = [nerscore.Document("d1", [(0, 3, "PER")], ignore=[(4, 50)]),
         nerscore.Document("d2", [(0, 2, "PER")])]
    result = agreement({"a": a, "b": b}, n_resamples=0)
    overall = result.tokens.overall
    assert overall is not None
    assert overall["all"].n_tokens == 9 - 3
    assert overall["all"].alpha == 1.0
    assert "3 token(s) lie in ignore regions" in result.notes[0]


def test_an_annotator_without_documents_is_said_to_have_none_when_no_document_is_shared() -> None:
    with pytest.raises(FormatError, match=r"\(ids of 'a': 'd1'; 'b': none\)"):
        agreement({"a": {"d1": [(0, 4, "PER")]}, "b": {}})


def test_tag_runs_strict_mode_reads_as_no_entity_are_counted_per_annotator() -> None:
    tags = {"ana": [["B-PER", "O", "I-LOC"]], "ben": [["B-PER", "O", "B-LOC"]]}
    result = agreement(tags, scheme="IOB2", mode="strict", n_resamples=0)
    assert result.notes[0] == (
        "Strict mode (IOB2) read 1 tag run as no entity (ana 1, ben 0): an IOB2 entity begins "
        "with B. Lenient mode (mode='lenient') reads it as an entity.")
    _, stats = nerscore.adjudicate(tags, scheme="IOB2", mode="strict")
    assert any(n.startswith("Strict mode (IOB2) read 1 tag run") for n in stats.notes)
    assert not any("Strict" in n for n in agreement(tags, n_resamples=0).notes)


@pytest.mark.parametrize(("annotations", "named"), [
    ({"ann1": [[(0, 2, "PER")]], "ann2": [[(0, 2, "PER"), (1, 0, "X")]]}, "annotations['ann2']"),
    ([[[(0, 2, "PER")]], [[(0, 2, "PER"), (1, 0, "X")]]], "annotations[1]"),
])
def test_a_bad_span_names_the_annotation_set_it_is_in(annotations: Any, named: str) -> None:
    # as a bad tag does; not 'y_true', which agreement does not take
    with pytest.raises(nerscore.InvalidSpanError,
                       match=re.escape(f"Span 1 (1, 0, 'X') of document 0 of {named} has start")):
        agreement(annotations)
