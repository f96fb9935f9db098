import math
import warnings

import pytest

import nerscore
from nerscore import Counts, UndefinedMetricWarning, reduce_counts

SEED_TRUE = [["O", "O", "O", "B-MISC", "I-MISC", "I-MISC", "O"], ["B-PER", "I-PER", "O"]]
SEED_PRED = [["O", "O", "B-MISC", "I-MISC", "I-MISC", "I-MISC", "O"], ["B-PER", "I-PER", "O"]]
ABC_TRUE = [["B-A", "B-B", "O", "B-A"]]
ABC_PRED = [["O", "B-B", "B-C", "B-A"]]


def test_spec_4_seed_example():
    assert nerscore.f1_score(SEED_TRUE, SEED_PRED) == pytest.approx(0.5, abs=5e-5)


@pytest.mark.parametrize(
    ("average", "p", "r", "f"),
    [
        ("micro", 0.6667, 0.6667, 0.6667),
        ("macro", 0.6667, 0.5, 0.5556),
        ("weighted", 1.0, 0.6667, 0.7778),
    ],
)
def test_spec_4_averages(average, p, r, f):
    kw = {"average": average, "zero_division": 0.0}
    assert round(nerscore.precision_score(ABC_TRUE, ABC_PRED, **kw), 4) == p
    assert round(nerscore.recall_score(ABC_TRUE, ABC_PRED, **kw), 4) == r
    assert round(nerscore.f1_score(ABC_TRUE, ABC_PRED, **kw), 4) == f


def test_per_label_dicts():
    f = nerscore.f1_score(ABC_TRUE, ABC_PRED, average=None, zero_division=0.0)
    assert f == pytest.approx({"A": 2 / 3, "B": 1.0, "C": 0.0})


def test_zero_division_warn_names_label_and_parameter():
    with pytest.warns(UndefinedMetricWarning, match=r"Recall is ill-defined .* 'C' .*zero_division"):
        nerscore.recall_score(ABC_TRUE, ABC_PRED, average="macro")


@pytest.mark.parametrize(("zd", "expected"), [(0.0, 0.5), (1.0, 5 / 6)])
def test_zero_division_values(zd, expected):
    assert nerscore.recall_score(ABC_TRUE, ABC_PRED, average="macro", zero_division=zd) == (
        pytest.approx(expected))


def test_zero_division_nan_is_skipped_by_means_and_kept_per_label():
    r = nerscore.recall_score(ABC_TRUE, ABC_PRED, average=None, zero_division=float("nan"))
    assert math.isnan(r["C"])
    assert nerscore.recall_score(ABC_TRUE, ABC_PRED, average="macro",
                                 zero_division=float("nan")) == pytest.approx(0.75)


def test_empty_corpus_defined_results():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert nerscore.f1_score([["O"]], [["O"]], zero_division=1.0) == 1.0
        assert nerscore.f1_score([], [], zero_division=0.0) == 0.0
        assert nerscore.f1_score([["O"]], [["O"]], average="macro", zero_division=0.0) == 0.0
    with pytest.warns(UndefinedMetricWarning):
        assert nerscore.f1_score([["O"]], [["O"]]) == 0.0


def test_beta_formula():
    # tp=1, n_pred=1, n_gold=2: F2 = 5*1 / (4*2 + 1)
    f2 = nerscore.fbeta_score([["B-A", "O", "B-A"]], [["B-A", "O", "O"]], beta=2.0)
    assert f2 == pytest.approx(5 / 9)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"average": "mirco"}, "Expected `average` to be one of 'micro', 'macro', 'weighted'"),
        ({"zero_division": 2}, "Expected `zero_division` to be one of 'warn', 0.0, 1.0 or nan"),
        ({"beta": -1}, "Expected `beta` to be a positive number"),
        ({"match": "fuzzy"}, "Expected `match` to be one of 'exact'"),
    ],
)
def test_argument_errors(kwargs, message):
    fn = nerscore.fbeta_score if "beta" in kwargs else nerscore.f1_score
    with pytest.raises(ValueError, match=message):
        fn(ABC_TRUE, ABC_PRED, **kwargs)


def test_unknown_matcher_option():
    with pytest.raises(TypeError, match=r"Unknown keyword 'colour'\. The keywords are 'average', "
                                        r"'zero_division', 'labels', 'beta', 'match', .* and the "
                                        r"options of match='exact': 'labeled'\."):
        nerscore.f1_score(ABC_TRUE, ABC_PRED, colour="red")


def test_length_mismatch_names_sentence_and_lengths():
    with pytest.raises(nerscore.LengthMismatchError, match="Sentence 1 has 2 gold tags but 3"):
        nerscore.f1_score([["O"], ["O", "O"]], [["O"], ["O", "O", "O"]])
    with pytest.raises(nerscore.LengthMismatchError, match="Gold has 2 sentences but the pre"):
        nerscore.f1_score([["O"], ["O"]], [["O"]])


def test_labels_restrict_and_order():
    with pytest.warns(nerscore.UnknownLabelWarning, match="`labels` names 'Z'"):
        f = nerscore.f1_score(ABC_TRUE, ABC_PRED, average=None, labels=["B", "A", "Z"],
                              zero_division=0.0)
    assert list(f) == ["B", "A", "Z"]
    assert f["Z"] == 0.0


def test_accuracy_raw_tag_equality():
    assert nerscore.accuracy_score(SEED_TRUE, SEED_PRED) == pytest.approx(8 / 10)


def test_accuracy_on_spans_points_to_token_matching():
    with pytest.raises(nerscore.InputTypeError, match="needs tag sequences; for span inputs use"):
        nerscore.accuracy_score({"d": [(0, 1, "A")]}, {"d": []})


def test_token_match():
    c = nerscore.count_matches(ABC_TRUE, ABC_PRED, match="token")
    assert c.to_dict() == {
        "A": {"tp": 1, "n_pred": 1, "n_gold": 2},
        "B": {"tp": 1, "n_pred": 1, "n_gold": 1},
        "C": {"tp": 0, "n_pred": 1, "n_gold": 0},
    }


def test_exact_unlabeled():
    f = nerscore.f1_score([["B-A", "O"]], [["B-B", "O"]], labeled=False)
    assert f == 1.0


def test_report_contract_keys():
    r = nerscore.evaluate(ABC_TRUE, ABC_PRED, zero_division=0.0)
    d = r.to_dict()
    assert d["format_version"] == 1
    assert d["match"] == "exact"
    assert d["mode"] == "lenient"
    for key in ("overall", "macro", "weighted"):
        assert {"tp", "n_pred", "n_gold", "precision", "recall", "f1"} <= set(d[key])
    assert set(d["labels"]) == {"A", "B", "C"}
    assert d["overall"]["tp"] == 2
    assert d["accuracy"] == 0.5
    import json

    assert json.loads(r.to_json()) == d


def test_reduce_counts_and_report_agree():
    r = nerscore.evaluate(ABC_TRUE, ABC_PRED, zero_division=0.0)
    s = reduce_counts(r.counts, average="macro", zero_division=0.0)
    assert (s.precision, s.recall, s.fbeta) == (r.macro.precision, r.macro.recall, r.macro.f1)


def test_fractional_counts_reduce_exactly():
    c = Counts(("A",), [1], [4], [2], credit=[0.5])
    s = reduce_counts(c)
    assert (s.precision, s.recall) == (1.5 / 4, 1.5 / 2)


def test_render_text_and_markdown_show_every_label():
    r = nerscore.evaluate(ABC_TRUE, ABC_PRED, zero_division=0.0)
    text = nerscore.render_text(r)
    assert "scheme=auto, mode=lenient" in text
    for lab in ("A", "B", "C", "micro avg", "macro avg", "weighted avg"):
        assert lab in text
    assert "| **macro avg** | 0.67 | 0.50 | 0.56 | 3 | 3 |" in nerscore.render_markdown(r)


def test_report_states_effective_matcher_options_and_matcher_notes():
    g = {"d": [(0, 10, "A"), (2, 4, "B")]}
    p = {"d": [(0, 8, "A"), (1, 3, "A")]}
    r = nerscore.evaluate(g, p, match="overlap", overlapping="merge", zero_division=0.0)
    assert r.options == {"overlapping": "merge", "s": 0.75, "assignment": "greedy",
                         "compat": None}
    assert r.notes == ("overlap: merged 1 overlapping predicted spans into their neighbours "
                       "(2 -> 1 predicted spans).",)
    d = r.to_dict()
    assert d["options"]["s"] == 0.75
    assert d["notes"] == list(r.notes)


def test_semeval_text_report_shows_every_schema():
    g = {"d": [(0, 10, "A"), (20, 30, "B")]}
    p = {"d": [(0, 5, "A"), (20, 30, "C")]}
    text = nerscore.render_text(nerscore.evaluate(g, p, match="semeval", zero_division=0.0))
    lines = text.splitlines()
    assert "SemEval-2013 schemas" in text
    partial = next(line for line in lines if line.strip().startswith("partial "))
    assert partial.split() == ["partial", "1", "0", "1", "0", "0", "2", "2", "0.75", "0.75",
                               "0.75"]


@pytest.mark.parametrize("bad", ["X-PER", "B_PER", "b-per"])
def test_bad_predicted_tag_is_a_located_error(bad):
    """A tag only the prediction uses is reported like one of gold (it used to crash)."""
    with pytest.raises(nerscore.InvalidTagError, match=rf"Invalid tag '{bad}' at token 1 of "
                                                        "sentence 0"):
        nerscore.f1_score([["B-PER", "O"]], [["B-PER", bad]])


def test_report_prints_as_its_table():
    report = nerscore.evaluate([["B-PER", "O"]], [["B-PER", "O"]])
    assert str(report) == nerscore.render_text(report)
    assert repr(report) == ("Report(match='exact', labels=1, precision=1.0000, recall=1.0000, "
                            "f1=1.0000)")


# ------------------------------------------------------------- no traceback, no silent number


@pytest.mark.parametrize(("y_true", "y_pred"), [([], []), ([[]], [[]])])
def test_accuracy_without_tokens_is_undefined_not_zero(y_true, y_pred):
    r = nerscore.evaluate(y_true, y_pred, zero_division=0.0)
    assert r.accuracy is None
    assert r.n_tokens == 0
    assert "no tokens: accuracy is undefined." in r.notes
    assert r.to_dict()["accuracy"] is None
    assert "accuracy: n/a (0 tokens," in nerscore.render_text(r)
    assert "Accuracy: n/a" in nerscore.render_markdown(r)
    assert "Token accuracy: <strong>n/a</strong>" in nerscore.render_html(r)
    assert "note: no tokens: accuracy is undefined." in str(r)
    # with tokens: a number, and no such note
    r = nerscore.evaluate([["O"]], [["O"]], zero_division=0.0)
    assert r.accuracy == 1.0
    assert not any("no tokens" in n for n in r.notes)


@pytest.mark.parametrize("fn", [nerscore.f1_score, nerscore.precision_score,
                                nerscore.recall_score, nerscore.fbeta_score, nerscore.evaluate])
@pytest.mark.parametrize("beta", [-1, 0, float("nan"), float("inf"), "2"])
def test_a_bad_beta_says_beta_must_be_positive(fn, beta):
    with pytest.raises(nerscore.OptionError, match="Expected `beta` to be a positive number") as e:
        fn(SEED_TRUE, SEED_PRED, beta=beta)
    assert "Unknown option" not in str(e.value)
    assert isinstance(e.value, ValueError)


@pytest.mark.parametrize("beta", [1e154, 1e200, 1e308])
def test_a_huge_beta_scores_the_recall(beta):
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no overflow on the way
        r = nerscore.evaluate(SEED_TRUE, SEED_PRED, beta=beta)
    assert r.micro.fbeta == r.micro.recall == 0.5
    assert {k: v.fbeta for k, v in r.labels.items()} == {k: v.recall
                                                         for k, v in r.labels.items()}


def test_beta_is_routed_to_the_scores_not_the_matcher():
    # precision and recall do not depend on beta: a valid one is accepted
    assert nerscore.precision_score(SEED_TRUE, SEED_PRED, beta=2) == nerscore.precision_score(
        SEED_TRUE, SEED_PRED)
    assert nerscore.f1_score(SEED_TRUE, SEED_PRED, beta=1.0) == 0.5
    with pytest.raises(nerscore.OptionError, match=r"f1_score is the F-score with beta=1; got "
                                                   r"beta=2. Use fbeta_score\(..., beta=2\)"):
        nerscore.f1_score(SEED_TRUE, SEED_PRED, beta=2)
    with pytest.raises(nerscore.OptionError, match="count_matches does not take `beta`: it is a "
                                                   "scoring parameter"):
        nerscore.count_matches(SEED_TRUE, SEED_PRED, beta=2)
    with pytest.raises(nerscore.OptionError, match="Expected `beta` to be a positive number"):
        nerscore.count_matches(SEED_TRUE, SEED_PRED, beta=-1)
    with pytest.raises(nerscore.OptionError, match="evaluate does not take `average`"):
        nerscore.evaluate(SEED_TRUE, SEED_PRED, average="macro")


def test_integer_label_ids_point_to_encoded_tags():
    np = pytest.importorskip("numpy")
    for ids in ([[1, 0]], [1, 0], np.array([[1, 0]])):
        with pytest.raises(TypeError, match=r"`y_true` holds integers, not tag strings or spans"
                                            r".*EncodedTags.from_padded\(ids, vocab=") as e:
            nerscore.f1_score(ids, [[1, 1]])
        assert isinstance(e.value, nerscore.NerscoreError)
    with pytest.raises(TypeError, match="`y_pred` holds integers"):
        nerscore.f1_score([["B-PER", "O"]], [[1, 1]])
    enc = nerscore.EncodedTags.from_padded([[1, 0]], vocab=["O", "B-PER"], lengths=[2])
    assert nerscore.f1_score(enc, enc) == 1.0


def test_a_tag_that_is_not_a_string_names_side_and_place():
    with pytest.raises(TypeError, match=r"Expected every tag of `y_pred` to be a str; token 1 of "
                                        r"sentence 0 is NoneType None") as e:
        nerscore.f1_score([["B-PER", "O"]], [["B-PER", None]])
    assert isinstance(e.value, nerscore.NerscoreError)


@pytest.mark.parametrize("fn", [nerscore.f1_score, nerscore.evaluate,
                                nerscore.classification_report])
def test_undefined_metric_warnings_point_at_the_callers_line(fn):
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        fn([["O"]], [["O"]])
    assert w
    for warning in w:
        assert issubclass(warning.category, UndefinedMetricWarning)
        assert warning.filename == __file__


def test_count_matches_warnings_point_at_the_callers_line():
    gold = [nerscore.Document("a", [(0, 4, "PER")], text="Anna")]
    pred = [nerscore.Document("a", [(0, 4, "PER")], text="Anne")]
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        nerscore.count_matches(gold, pred)
    assert [x.filename for x in w] == [__file__]
    assert w[0].category is nerscore.TextMismatchWarning
    assert "different text in gold and prediction" in str(w[0].message)


def test_conlleval_merge_warnings_point_at_the_callers_line():
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        nerscore.f1_score([["S-PER", "S-PER"]], [["S-PER", "S-PER"]], mode="conlleval")
    assert [x.category for x in w] == [nerscore.ConllevalMergeWarning] * 2
    assert {x.filename for x in w} == {__file__}


@pytest.mark.parametrize("match", ["exact", "semeval", "overlap", "threshold", "token"])
@pytest.mark.parametrize("mode", ["lenient", "strict"])
def test_a_prefix_with_an_empty_type_is_an_invalid_tag_when_scoring(match, mode):
    gold = [["B-PER", "O"], ["B-LOC"]]
    pred = [["B-", "O"], ["B-LOC"]]
    with pytest.raises(nerscore.InvalidTagError, match="its type is empty") as e:
        nerscore.evaluate(gold, pred, match=match, mode=mode, scheme="IOB2")
    assert (e.value.tag, e.value.sentence, e.value.index) == ("B-", 0, 0)
    with pytest.raises(nerscore.InvalidTagError, match="Invalid tag 'B-' at token 0 of sent"):
        nerscore.f1_score(pred, gold, match=match, mode=mode, scheme="IOB2")


def test_strict_mode_notes_the_tag_runs_it_reads_as_no_entity():
    gold = [["I-PER", "I-PER", "O", "B-LOC"]]
    pred = [["B-PER", "I-PER", "O", "I-LOC"]]
    report = nerscore.evaluate(gold, pred, scheme="IOB2", mode="strict", zero_division=0)
    assert (report.labels["PER"].n_gold, report.labels["LOC"].n_pred) == (0, 0)
    note = ("Strict mode (IOB2) read 1 gold and 1 predicted tag runs as no entity: an IOB2 "
            "entity begins with B. Lenient mode (mode='lenient') reads them as entities.")
    assert report.notes[-1] == note
    # the counts are the entities' alone, as count_matches and the tensor counts give them
    assert report.counts == nerscore.count_matches(gold, pred, scheme="IOB2", mode="strict")
    assert not report.counts.tallies
    lenient = nerscore.evaluate(gold, pred, scheme="IOB2", zero_division=0)
    assert not any("Strict mode" in n for n in lenient.notes)
    # the token matcher scores the tags themselves: nothing of entities to say
    token = nerscore.evaluate(gold, pred, scheme="IOB2", mode="strict", match="token",
                              zero_division=0)
    assert not any("Strict mode" in n for n in token.notes)
    # summed over batches as over the whole input
    scorer = nerscore.EntityScorer(scheme="BILOU", mode="strict", zero_division=0)
    scorer.update([["B-PER", "I-PER"]], [["U-PER", "U-PER"]])
    scorer.update([["L-PER"], ["I-A", "I-B"]], [["O"], ["U-A", "U-B"]])
    assert scorer.strict_unread == (4, 0)
    assert scorer.compute().notes[-1] == (
        "Strict mode (BILOU) read 4 gold and 0 predicted tag runs as no entity: a BILOU entity "
        "is B, I..., L or one U. Lenient mode (mode='lenient') reads them as entities.")
    whole = nerscore.evaluate([["B-PER", "I-PER"], ["L-PER"], ["I-A", "I-B"]],
                              [["U-PER", "U-PER"], ["O"], ["U-A", "U-B"]], scheme="BILOU",
                              mode="strict", zero_division=0)
    assert whole.notes == scorer.compute().notes
    other = nerscore.EntityScorer(scheme="BILOU", mode="strict", zero_division=0)
    other.update([["I-A"]], [["I-B"]])
    assert (scorer + other).strict_unread == (5, 1)
