"""Registry-driven invariants that every metric and matcher must satisfy."""

import numpy as np
import pytest

import nerscore
from nerscore.matching import MATCHERS
from tests.conftest import random_tag_corpus

#: matcher -> (options, symmetric under swapping gold and prediction)
CASES = {
    "exact": ({}, True),
    "token": ({}, True),
    "semeval": ({}, True),
    "overlap": ({"assignment": "optimal"}, True),
    "threshold": ({}, True),
    "mention": ({"normalize": "casefold"}, True),
}
METRICS = [nerscore.precision_score, nerscore.recall_score, nerscore.f1_score,
           nerscore.fbeta_score]


def test_every_matcher_is_covered():
    assert set(CASES) == {*MATCHERS, "token"}


def corpus_pair(seed=0, n=40):
    rng = np.random.default_rng(seed)
    gold = random_tag_corpus(rng, n_sentences=n, letters="BI")
    pred = [[t if rng.random() < 0.75 else str(rng.choice(["O", "B-PER", "I-LOC"])) for t in s]
            for s in gold]
    return gold, pred


@pytest.mark.parametrize("match", sorted(CASES))
def test_identical_inputs_score_one(match):
    gold, _ = corpus_pair()
    opts = CASES[match][0]
    r = nerscore.evaluate(gold, gold, match=match, **opts)
    assert (r.micro.precision, r.micro.recall, r.micro.f1) == (1.0, 1.0, 1.0)


@pytest.mark.parametrize("match", sorted(CASES))
def test_sentence_order_does_not_matter(match):
    gold, pred = corpus_pair(1)
    opts = CASES[match][0]
    perm = np.random.default_rng(2).permutation(len(gold))
    a = nerscore.count_matches(gold, pred, match=match, **opts)
    b = nerscore.count_matches([gold[i] for i in perm], [pred[i] for i in perm], match=match,
                               **opts)
    assert a == b


@pytest.mark.parametrize("match", sorted(m for m, (_, sym) in CASES.items() if sym))
def test_swapping_true_and_pred_swaps_p_and_r(match):
    gold, pred = corpus_pair(3)
    opts = CASES[match][0]
    a = nerscore.evaluate(gold, pred, match=match, zero_division=0.0, **opts)
    b = nerscore.evaluate(pred, gold, match=match, zero_division=0.0, **opts)
    assert a.micro.precision == pytest.approx(b.micro.recall)
    assert a.micro.recall == pytest.approx(b.micro.precision)
    assert a.micro.f1 == pytest.approx(b.micro.f1)


@pytest.mark.parametrize("match", sorted(CASES))
def test_batched_scorer_equals_one_call(match):
    gold, pred = corpus_pair(4)
    opts = CASES[match][0]
    scorer = nerscore.EntityScorer(match=match, zero_division=0.0, **opts)
    for k in range(0, len(gold), 9):
        scorer.update(gold[k:k + 9], pred[k:k + 9])
    whole = nerscore.evaluate(gold, pred, match=match, zero_division=0.0, **opts)
    assert scorer.counts == whole.counts
    assert scorer.compute().micro == whole.micro


@pytest.mark.parametrize("metric", METRICS)
@pytest.mark.parametrize("average", ["micro", "macro", "weighted", None])
def test_metric_functions_agree_with_report(metric, average):
    gold, pred = corpus_pair(5)
    r = nerscore.evaluate(gold, pred, zero_division=0.0)
    value = metric(gold, pred, average=average, zero_division=0.0)
    field = {"precision_score": "precision", "recall_score": "recall"}.get(metric.__name__, "f1")
    if average is None:
        assert value == pytest.approx({k: getattr(v, field) for k, v in r.labels.items()})
    else:
        assert value == pytest.approx(getattr(getattr(r, average), field))


def _plain(x):
    """A result as plain data, to compare results of different inputs."""
    if hasattr(x, "to_dict"):
        return x.to_dict()
    if isinstance(x, np.ndarray):
        return x.tolist()
    if isinstance(x, (list, tuple)):
        return [_plain(v) for v in x]
    if hasattr(x, "__dataclass_fields__"):
        return {k: _plain(getattr(x, k)) for k in x.__dataclass_fields__}
    return x


def _scored(gold, pred):
    scorer = nerscore.EntityScorer(zero_division=0.0)
    scorer.update(gold, pred)
    return scorer.compute()


def _words(tags):
    return [[f"w{i}" for i in range(len(s))] for s in tags]


def _written(gold, pred):
    import io

    out = io.StringIO()
    nerscore.write_conll(out, gold, pred)
    return out.getvalue()


#: Every public function that takes tags, called on (gold, prediction).
TAG_FUNCTIONS = {
    "evaluate": lambda g, p: nerscore.evaluate(g, p, zero_division=0.0),
    "precision_score": lambda g, p: nerscore.precision_score(g, p, average=None, zero_division=0),
    "recall_score": lambda g, p: nerscore.recall_score(g, p, zero_division=0.0),
    "f1_score": lambda g, p: nerscore.f1_score(g, p, scheme="IOB2", mode="strict",
                                               zero_division=0.0),
    "fbeta_score": lambda g, p: nerscore.fbeta_score(g, p, beta=2.0, zero_division=0.0),
    "accuracy_score": nerscore.accuracy_score,
    "classification_report": lambda g, p: nerscore.classification_report(g, p, zero_division=0.0),
    "count_matches": lambda g, p: nerscore.count_matches(g, p, match="token"),
    "match_entities": lambda g, p: nerscore.match_entities(g, p, match="semeval"),
    "EntityScorer.update": _scored,
    "confusion_matrix": nerscore.confusion_matrix,
    "list_errors": nerscore.list_errors,
    "breakdown": lambda g, p: nerscore.breakdown(g, p, by="seen", train=g, zero_division=0.0,
                                                 texts=_words(g), train_texts=_words(g)),
    "compare": lambda g, p: nerscore.compare(g, {"a": p, "b": g}, n_resamples=20),
    "confidence_intervals": lambda g, p: nerscore.confidence_intervals(g, p, n_resamples=20),
    "sequence_counts": nerscore.sequence_counts,
    "score_runs": lambda g, p: nerscore.score_runs(g, [p, g]),
    "compare_runs": lambda g, p: nerscore.compare_runs(g, {"a": [p, g], "b": [g, p]},
                                                       n_resamples=20),
    "diagnose": lambda g, p: nerscore.diagnose(g, g, pred=p, min_instances=1),
    "agreement": lambda g, p: nerscore.agreement({"x": g, "y": p}, n_resamples=20),
    "adjudicate": lambda g, p: nerscore.adjudicate([g, p, p]),
    "tags_to_entities": lambda g, p: nerscore.tags_to_entities(p),
    "validate_tags": lambda g, p: nerscore.validate_tags(p, scheme="IOB2"),
    "repair_tags": lambda g, p: nerscore.repair_tags(p, scheme="IOB2"),
    "tags_to_char_spans": lambda g, p: nerscore.tags_to_char_spans(
        p[1], _words(p)[1], text=" ".join(_words(p)[1])),
    "write_conll": _written,
}
#: Public functions with an argument named like a tag input that take spans only.
SPANS_ONLY = {"calibration", "threshold_curve", "evaluate_llm", "llm_sequence_counts"}


def test_every_function_taking_tags_is_covered():
    import inspect

    taking = set()
    for name in nerscore.__all__:
        obj = getattr(nerscore, name)
        funcs = {name: obj} if inspect.isfunction(obj) else {
            f"{name}.{m}": f for m, f in vars(obj).items()
            if inspect.isfunction(f) and not m.startswith("_")} if inspect.isclass(obj) else {}
        for qual, f in funcs.items():
            if {"y_true", "tags", "annotations", "train"} & set(inspect.signature(f).parameters):
                taking.add(qual)
    taking.add("write_conll")
    assert taking - SPANS_ONLY == set(TAG_FUNCTIONS)


def _array_forms(gold, pred):
    """The same corpus as a 2-D array, lists of 1-D arrays and a 2-D object array."""
    width = max(map(len, gold + pred))
    pad = [s + ["O"] * (width - len(s)) for s in gold], [s + ["O"] * (width - len(s)) for s in pred]
    return {
        "lists of arrays": (pad, [np.array(s) for s in pad[0]], [np.array(s) for s in pad[1]]),
        "2-D array": (pad, np.array(pad[0]), np.array(pad[1])),
        "2-D object array": (pad, np.array(pad[0], dtype=object), np.array(pad[1], dtype=object)),
    }


@pytest.mark.filterwarnings("ignore::nerscore.UndefinedMetricWarning")
@pytest.mark.parametrize("form", ["lists of arrays", "2-D array", "2-D object array"])
@pytest.mark.parametrize("name", sorted(TAG_FUNCTIONS))
def test_every_function_taking_tags_reads_arrays_as_lists(name, form):
    gold, pred = corpus_pair(6, n=12)
    (g, p), ga, pa = _array_forms(gold, pred)[form]
    fn = TAG_FUNCTIONS[name]
    assert _plain(fn(ga, pa)) == _plain(fn(g, p))
    assert _plain(fn(g, pa)) == _plain(fn(g, p))


@pytest.mark.parametrize("name", sorted(TAG_FUNCTIONS))
def test_every_function_taking_tags_names_a_tag_that_is_no_string(name):
    gold, pred = corpus_pair(7, n=4)
    bad = [np.array(s, dtype=object) for s in pred]
    bad[1] = np.array([*pred[1], None], dtype=object)
    gold[1] = [*gold[1], "O"]
    sentence = 0 if name == "tags_to_char_spans" else 1  # it takes one sentence
    with pytest.raises(nerscore.InputTypeError, match=rf"token {len(pred[1])} of sentence "
                                                      rf"{sentence} is NoneType None"):
        TAG_FUNCTIONS[name](gold, bad)
