"""Adjudication by voting (nerscore.adjudicate)."""

from __future__ import annotations

import pytest

import nerscore
from nerscore.errors import FormatError, OptionError
from tests.paths import DATA

CONLL = DATA / "agreement" / "conll"


def _spans(doc: nerscore.Document) -> list[tuple[int, int, str]]:
    return [(e.start, e.end, e.label) for e in doc.spans]


def test_a_strict_majority_wins_by_default() -> None:
    docs, stats = nerscore.adjudicate([
        {"d": [(0, 5, "PER"), (9, 12, "LOC")], "e": []},
        {"d": [(0, 5, "PER")], "e": [(0, 1, "X")]},
        {"d": [(0, 5, "ORG"), (9, 12, "LOC")], "e": [(0, 1, "X")]},
    ])
    assert [_spans(d) for d in docs] == [[(0, 5, "PER"), (9, 12, "LOC")], [(0, 1, "X")]]
    assert (stats.candidates, stats.accepted, stats.below_quorum, stats.unanimous) == (4, 3, 1, 0)


def test_a_quorum_among_four_needs_three() -> None:
    sets = [{"d": [(0, 2, "A")]}, {"d": [(0, 2, "A")]}, {"d": [(0, 2, "B")]},
            {"d": [(0, 2, "B")]}]
    docs, stats = nerscore.adjudicate(sets)
    assert _spans(docs[0]) == []
    assert stats.below_quorum == 2


def test_overlapping_winners_conflict_votes_then_length_decide_and_ties_are_listed() -> None:
    sets = [{"d": [(0, 4, "PER")]}, {"d": [(0, 4, "PER")]}, {"d": [(2, 8, "ORG")]},
            {"d": [(2, 8, "ORG")]}, {"d": [(0, 4, "PER")]}]
    docs, stats = nerscore.adjudicate(sets, min_votes=2)
    assert _spans(docs[0]) == [(0, 4, "PER")]  # 3 votes against 2
    assert (stats.conflicts, stats.ties) == (1, ())
    docs, stats = nerscore.adjudicate(sets[:4], min_votes=2)
    assert _spans(docs[0]) == [(2, 8, "ORG")]  # 2 against 2: the longer span
    assert stats.conflicts == 1
    assert [(t.kept, t.dropped, t.votes) for t in stats.ties] == [
        ((2, 8, "ORG"), (0, 4, "PER"), 2)]
    assert "tie in document d: kept (2, 8, 'ORG'), dropped (0, 4, 'PER')" in stats.summary()


def test_entities_one_annotator_nests_are_not_a_conflict() -> None:
    sets = [{"d": [(0, 10, "ORG"), (0, 4, "PER")]}, {"d": [(0, 10, "ORG"), (0, 4, "PER")]}]
    docs, stats = nerscore.adjudicate(sets)
    assert _spans(docs[0]) == [(0, 4, "PER"), (0, 10, "ORG")]
    assert stats.conflicts == 0


def test_a_document_some_annotators_lack_counts_only_its_annotators() -> None:
    docs, stats = nerscore.adjudicate([{"d": [(0, 1, "X")], "e": [(0, 1, "Y")]},
                                       {"d": [(0, 1, "X")]}, {"d": []}])
    assert [_spans(d) for d in docs] == [[(0, 1, "X")], [(0, 1, "Y")]]  # e: 1 of 1
    assert stats.notes == ("1 document(s) are not annotated by every annotator and are "
                           "decided by the annotators who have them: 'e' (missing for B, C).",)


def test_documents_no_two_annotators_share_are_an_error() -> None:
    with pytest.raises(FormatError, match=r"No document is annotated by two or more annotators, "
                       r"so there is nothing to compare \(ids of 'A': 'd1', 'd2'; 'B': 'x1'\)"):
        nerscore.adjudicate([{"d1": [(0, 1, "X")], "d2": []}, {"x1": [(0, 1, "X")]}])


def test_tag_files_adjudicate_to_tags() -> None:
    sets = [nerscore.read_conll(CONLL / f"ann{k}.conll") for k in (1, 2, 3)]
    docs, stats = nerscore.adjudicate(sets)
    lengths = sets[0].tags.lengths.tolist()
    tags = nerscore.entities_to_tags(
        [nerscore.Entity(e.span, e.label, k) for k, d in enumerate(docs) for e in d.spans],
        lengths, scheme="IOB2")
    gold = sets[0].tags.to_lists()
    assert stats.n_documents == len(gold)
    report = nerscore.evaluate(gold, tags)
    assert 0.9 < report.micro.fbeta < 1.0  # two perturbed copies rarely outvote the original


def test_one_annotation_set_is_refused_in_words_of_adjudication() -> None:
    with pytest.raises(OptionError) as exc:
        nerscore.adjudicate({"ann": [["B-PER"]]})
    assert str(exc.value) == ("Adjudication votes among two or more annotation sets, one per "
                              "annotator; got 1.")
    with pytest.raises(OptionError, match=r"^Agreement needs two or more annotation sets; got "
                                          r"1\.$"):
        nerscore.agreement({"ann": [["B-PER"]]})


def test_min_votes_is_checked() -> None:
    with pytest.raises(OptionError, match=r"`min_votes` to be an integer from 1 to 2"):
        nerscore.adjudicate([[["O"]], [["O"]]], min_votes=3)


def test_entities_of_a_document_only_one_annotator_has_are_not_unanimous() -> None:
    _, stats = nerscore.adjudicate([{"d": [(0, 1, "X")], "e": [(0, 1, "Y"), (2, 3, "Z")]},
                                    {"d": [(0, 1, "X")]}, {"d": [(0, 1, "X")]}])
    assert (stats.accepted, stats.unanimous, stats.single) == (3, 1, 2)
    assert ("3 candidate entities: 3 accepted (1 unanimous, 2 single annotator), 0 below the "
            "quorum" in stats.summary())


def _regions(doc: nerscore.Document) -> list[tuple[int, int, str | None]]:
    return [(r.start, r.end, getattr(r, "label", None)) for r in doc.ignore]


def test_ignore_regions_are_voted_on_like_entities_and_what_is_dropped_is_counted() -> None:
    text = "Anna went to Paris today"
    sets = {
        "a": [nerscore.Document("d", [(0, 4, "PER")], text=text,
                                ignore=[(13, 18), (19, 24, "LOC")])],
        "b": [nerscore.Document("d", [(0, 4, "PER")], text=text, ignore=[(13, 18)])],
        "c": [nerscore.Document("d", [(0, 4, "PER"), (13, 18, "LOC")], text=text,
                                ignore=[(5, 9, "PER")])],
    }
    docs, stats = nerscore.adjudicate(sets)
    assert _regions(docs[0]) == [(13, 18, None)]  # two of three: a majority
    assert (stats.regions, stats.regions_kept, stats.regions_below_quorum,
            stats.regions_overlapping) == (3, 1, 2, 0)
    assert ("3 candidate ignore regions: 1 kept, 2 below the quorum, 0 dropped for overlapping "
            "an accepted entity of their label") in stats.summary()
    # with one vote enough, LOC at 13-18 is accepted: the region of every label there goes
    docs, stats = nerscore.adjudicate(sets, min_votes=1)
    assert _spans(docs[0]) == [(0, 4, "PER"), (13, 18, "LOC")]
    assert _regions(docs[0]) == [(5, 9, "PER"), (19, 24, "LOC")]
    assert (stats.regions_kept, stats.regions_overlapping) == (2, 1)


def test_ignore_regions_follow_label_operations() -> None:
    doc = nerscore.Document("d", [(5, 7, "GPE"), (8, 9, "MISC")],
                            ignore=[(0, 2, "GPE"), (3, 4, "MISC")])
    sets = [{"d": doc}, {"d": doc}]
    docs, stats = nerscore.adjudicate(sets, labels_map={"GPE": "LOC"}, drop=["MISC"])
    assert _regions(docs[0]) == [(0, 2, "LOC")]
    assert "Ignore regions removed with their labels (keep/drop): MISC (2 regions)." in stats.notes


def test_documents_without_ignore_regions_say_nothing_of_them() -> None:
    _, stats = nerscore.adjudicate([{"d": [(0, 1, "X")]}, {"d": [(0, 1, "X")]}])
    assert stats.regions == 0
    assert "ignore" not in stats.summary()


def test_a_region_is_dropped_by_the_overlap_rule_of_scoring_ignore_regions() -> None:
    # every entity and every region is accepted (one vote is enough); a region goes when it
    # covers an accepted entity as an ignore region covers a prediction in scoring
    gap = nerscore.Entity.from_fragments([(20, 22), (30, 32)], "X")
    entities = [nerscore.Entity(nerscore.Span(10, 10), "X"), gap,
                nerscore.Entity(nerscore.Span(40, 45), "Y")]
    regions = [
        (8, 10),          # ends where the zero-length entity sits: kept
        (10, 12),         # holds the zero-length entity's position: dropped
        (23, 29, "X"),    # between the fragments of X: kept
        (31, 35, "X"),    # over the second fragment: dropped
        (40, 42, "Z"),    # over Y, of another label: kept
        (45, 50, "Y"),    # touches Y's end (half-open): kept
        (44, 50, "Y"),    # over Y, of its label: dropped
        (41, 43),         # over Y, of every label: dropped
    ]
    sets = {"a": [nerscore.Document("d", entities)],
            "b": [nerscore.Document("d", [], ignore=regions)]}
    docs, stats = nerscore.adjudicate(sets, min_votes=1)
    assert _spans(docs[0]) == [(10, 10, "X"), (20, 32, "X"), (40, 45, "Y")]
    assert _regions(docs[0]) == [(8, 10, None), (23, 29, "X"), (40, 42, "Z"), (45, 50, "Y")]
    assert (stats.regions, stats.regions_kept, stats.regions_overlapping) == (8, 4, 4)


def test_the_summary_counts_one_of_a_kind_in_the_singular() -> None:
    _, stats = nerscore.adjudicate([{"d": [(0, 4, "PER")]}, {"d": [(2, 6, "ORG")]}],
                                   min_votes=1)
    assert stats.summary().splitlines() == [
        "2 annotators (A, B), 1 document; quorum: 1 vote",
        "2 candidate entities: 1 accepted (0 unanimous), 0 below the quorum, 1 dropped in "
        "conflicts (1 tie)",
        "tie in document d: kept (0, 4, 'PER'), dropped (2, 6, 'ORG') (1 vote each)",
    ]
    _, stats = nerscore.adjudicate([{"d": [(0, 4, "PER")]}, {"d": [(0, 4, "PER")]}])
    assert "1 candidate entity: 1 accepted (1 unanimous)" in stats.summary()
