"""nerscore.compat.seqeval against seqeval 1.2.2: same entities, bits, text, dicts and warnings."""

from __future__ import annotations

import inspect
import math
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import nerscore
import nerscore.compat._seqeval_core as core
import nerscore.compat.seqeval as ns
from nerscore.errors import (
    InvalidTagError,
    LengthMismatchError,
    SchemeError,
    UndefinedMetricWarning,
)
from nerscore.matching import Matcher
from nerscore.render.seqeval import format_seqeval, seqeval_report_dict, seqeval_rows
from nerscore.values.counts import Counts
from nerscore.values.spans import EntityColumns

try:
    import seqeval.metrics as sm
    import seqeval.metrics.v1 as sv1
    import seqeval.scheme as ss
    from seqeval.metrics.sequence_labeling import (
        get_entities as s_get_entities,
        precision_recall_fscore_support as s_prfs,
    )
except ImportError:  # pragma: no cover - reference not installed
    sm = None

needs_seqeval = pytest.mark.skipif(sm is None, reason="seqeval 1.2.2 is not installed")

DATA = Path(__file__).resolve().parents[1] / "data" / "seqeval"
AVERAGES = (None, "micro", "macro", "weighted")
SCHEMES = ("IOB1", "IOB2", "IOE1", "IOE2", "IOBES", "BILOU")
SCHEME_LETTERS = {
    "IOB1": "BI", "IOB2": "BI", "IOE1": "IE", "IOE2": "IE", "IOBES": "BIES", "BILOU": "BILU",
}


# ----------------------------------------------------------------------------- helpers


def call(f: Any, *args: Any, **kwargs: Any) -> tuple[Any, list[tuple[type, str]], set[str]]:
    """Result (or the exception), metric warnings in order, and the set of tag warnings."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            result = f(*args, **kwargs)
        except Exception as exc:
            result = exc
    metric = [(w.category, str(w.message)) for w in caught if "NE tag" not in str(w.message)]
    tags = {str(w.message) for w in caught if "NE tag" in str(w.message)}
    assert all(w.category is UserWarning for w in caught if "NE tag" in str(w.message))
    return result, metric, tags


def bits(x: Any) -> bytes:
    return np.asarray(x, dtype=np.float64).tobytes()


def assert_same_scores(ours: Any, ref: Any) -> None:
    """Bit-identical floats, equal supports, seqeval's container types."""
    assert isinstance(ours, tuple), ours
    assert len(ours) == 4
    for o, r in zip(ours[:3], ref[:3], strict=True):
        assert isinstance(o, np.ndarray) == isinstance(r, np.ndarray)
        if not isinstance(o, np.ndarray):
            assert type(o) is float
        assert bits(o) == bits(r), (ours, ref)
    assert np.array_equal(np.asarray(ours[3]), np.asarray(ref[3])), (ours, ref)
    if not isinstance(ours[3], np.ndarray):
        assert type(ours[3]) is int


def assert_same_warnings(ours: list[tuple[type, str]], ref: list[tuple[type, str]]) -> None:
    assert [m for _, m in ours] == [m for _, m in ref]
    assert all(issubclass(c, UndefinedMetricWarning) for c, _ in ours)


def plain_dict(d: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
    return {k: {kk: (vv.item() if hasattr(vv, "item") else vv) for kk, vv in v.items()}
            for k, v in d.items()}


def has_entities(y_true: list[list[str]], y_pred: list[list[str]], **kw: Any) -> bool:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        counts = core.count(y_true, y_pred, match="exact", **kw)
    return len(counts.labels) > 0


def read_conll(path: Path) -> tuple[list[list[str]], list[list[str]]]:
    y_true: list[list[str]] = []
    y_pred: list[list[str]] = []
    st: list[str] = []
    sp: list[str] = []
    for line in path.read_text(encoding="utf-8").splitlines():
        fields = line.split()
        if not fields:
            if st:
                y_true.append(st)
                y_pred.append(sp)
                st, sp = [], []
            continue
        st.append(fields[-2])
        sp.append(fields[-1])
    if st:
        y_true.append(st)
        y_pred.append(sp)
    return y_true, y_pred


# Tags of seqeval's default mode: well-formed, untyped, odd prefixes (U L M . lowercase x),
# hyphenated and underscore types, no delimiter, doubled delimiters.
_DEFAULT_LETTERS = list("BIESOBIEO") + list("ULM.xb")
_DEFAULT_TYPES = ["PER", "LOC", "A-B", "_", "ORG"]
_ODD_WHOLE = [".", "O-PER", "BPER", "B--X", "B-", "I-", "IX-Y", "-", "U", "PER"]
_ODD_WHOLE_SUFFIX = [".", "PER-O", "PERB", "X--B", "-B", "-I", "X-YI", "-", "U", "PER"]


def default_tag(rng: np.random.Generator, suffix: bool) -> str:
    r = rng.random()
    if r < 0.3:
        return "O"
    if r < 0.36:
        pool = _ODD_WHOLE_SUFFIX if suffix else _ODD_WHOLE
        return pool[int(rng.integers(len(pool)))]
    letter = _DEFAULT_LETTERS[int(rng.integers(len(_DEFAULT_LETTERS)))]
    if r < 0.42:
        return letter
    typ = _DEFAULT_TYPES[int(rng.integers(len(_DEFAULT_TYPES)))]
    return f"{typ}-{letter}" if suffix else f"{letter}-{typ}"


def strict_tag(rng: np.random.Generator, letters: str, suffix: bool) -> str:
    if rng.random() < 0.3:
        return "O"
    letter = letters[int(rng.integers(len(letters)))]
    r = rng.random()
    if r < 0.1:
        return letter
    types = ["PER", "LOC", "-X-", "A-B", "_"] if r < 0.2 else ["PER", "LOC"]
    typ = types[int(rng.integers(len(types)))]
    return f"{typ}-{letter}" if suffix else f"{letter}-{typ}"


def make_pair(
    rng: np.random.Generator, tag: Any, *, max_sentences: int = 5, max_len: int = 9
) -> tuple[list[list[str]], list[list[str]]]:
    n = int(rng.integers(1, max_sentences + 1))
    y_true = [[tag() for _ in range(int(rng.integers(0, max_len)))] for _ in range(n)]
    p_change = rng.choice([0.0, 0.2, 0.5, 1.0])
    y_pred = [[tag() if rng.random() < p_change else t for t in s] for s in y_true]
    if rng.random() < 0.05:  # an all-O side
        side = y_true if rng.random() < 0.5 else y_pred
        for s in side:
            s[:] = ["O"] * len(s)
    return y_true, y_pred


def entity_set(cols: EntityColumns) -> set[tuple[int, str, int, int]]:
    return {(e.sentence, e.label, e.start, e.end) for e in cols.to_entities()}


# ----------------------------------------------------------------------------- differential


@needs_seqeval
def test_get_entities_matches_seqeval_on_random_tags():
    rng = np.random.default_rng(20240601)
    for k in range(2500):
        suffix = k % 4 == 3
        y_true, _ = make_pair(rng, lambda s=suffix: default_tag(rng, s))
        ref, _, ref_tags = call(s_get_entities, y_true, suffix)
        ours, _, our_tags = call(ns.get_entities, y_true, suffix)
        assert ours == ref, y_true
        assert our_tags == ref_tags
        flat = y_true[0]
        assert call(ns.get_entities, flat, suffix)[0] == call(s_get_entities, flat, suffix)[0]


@needs_seqeval
def test_default_mode_scores_reports_and_warnings_match_seqeval():
    rng = np.random.default_rng(7)
    n_with_entities = 0
    for k in range(800):
        suffix = k % 5 == 4
        y_true, y_pred = make_pair(rng, lambda s=suffix: default_tag(rng, s))
        any_entities = has_entities(y_true, y_pred, suffix=suffix, table=None)
        n_with_entities += any_entities
        zd = ["warn", 0, 1][k % 3]
        beta = [1.0, 0.5, 2.0, 0.0, math.inf, 1][k % 6]
        for average in AVERAGES:
            kw = {"average": average, "zero_division": zd, "suffix": suffix}
            if k % 7 == 0:
                kw["beta"] = beta
            ref, ref_w, ref_t = call(s_prfs, y_true, y_pred, **kw)
            ours, our_w, our_t = call(ns.precision_recall_fscore_support, y_true, y_pred, **kw)
            assert our_t == ref_t
            if average == "macro" and not any_entities:
                continue  # seqeval: nan with RuntimeWarning; see test_macro_without_labels_...
            assert_same_scores(ours, ref)
            assert_same_warnings(our_w, ref_w)
        name = ("precision_score", "recall_score", "f1_score")[k % 3]
        average = AVERAGES[(k // 3) % 4]
        if average != "macro" or any_entities:
            kw = {"average": average, "zero_division": zd, "suffix": suffix}
            ref, ref_w, _ = call(getattr(sm, name), y_true, y_pred, **kw)
            ours, our_w, _ = call(getattr(ns, name), y_true, y_pred, **kw)
            assert bits(ours) == bits(ref)
            assert_same_warnings(our_w, ref_w)
        digits = [2, 4, 0, 1, 7, 13][k % 6]
        output_dict = k % 4 == 1
        ref, ref_w, _ = call(sm.classification_report, y_true, y_pred, digits=digits,
                             suffix=suffix, output_dict=output_dict, zero_division=zd)
        ours, our_w, _ = call(ns.classification_report, y_true, y_pred, digits=digits,
                              suffix=suffix, output_dict=output_dict, zero_division=zd)
        if not any_entities and not output_dict:
            assert isinstance(ref, ValueError)  # seqeval: max() of an empty sequence
            assert isinstance(ours, str)
            continue
        if not any_entities:  # the macro row is nan in both (the mean of nothing)
            assert math.isnan(ref.pop("macro avg")["precision"])
            assert math.isnan(ours.pop("macro avg")["precision"])
            # NumPy's RuntimeWarnings there are one UndefinedMetricWarning of ours
            assert any(w[0] is RuntimeWarning for w in ref_w)
            assert our_w[-1][1] == MACRO_OVER_NOTHING
            ref_w = [w for w in ref_w if w[0] is not RuntimeWarning]
            our_w = our_w[:-1]
        if output_dict:
            assert ours == plain_dict(ref)
            assert all(type(v) in (float, int) for row in ours.values() for v in row.values())
        else:
            assert ours == ref
        assert_same_warnings(our_w, ref_w)
        assert ns.performance_measure(y_true, y_pred) == sm.performance_measure(y_true, y_pred)
        if sum(map(len, y_true)):
            assert bits(ns.accuracy_score(y_true, y_pred)) == bits(
                sm.accuracy_score(y_true, y_pred))
    assert n_with_entities > 600


@needs_seqeval
@pytest.mark.parametrize("scheme", SCHEMES)
def test_strict_entities_match_seqeval(scheme):
    rng = np.random.default_rng(SCHEMES.index(scheme))
    letters = SCHEME_LETTERS[scheme] + "O"
    seq_scheme = getattr(ss, scheme)
    table = core.check_scheme(scheme)
    n_errors = 0
    for k in range(1000):
        suffix = k % 4 == 3
        extra = "" if k % 10 else ("IOBESUL" + "x.")[k // 10 % 9]  # sometimes a bad prefix
        pool = letters + extra
        y_true, y_pred = make_pair(rng, lambda p=pool, s=suffix: strict_tag(rng, p, s))
        ref = call(lambda yt=y_true, yp=y_pred, s=suffix: [
            {(e.sent_id, e.tag, e.start, e.end)
             for sentence in ss.Entities(y, seq_scheme, s).entities for e in sentence}
            for y in (yt, yp)
        ])[0]
        if isinstance(ref, Exception):
            assert isinstance(ref, (KeyError, ValueError))  # seqeval raises: so do we
            with pytest.raises(InvalidTagError) as info:
                core._decode_both(y_true, y_pred, suffix=suffix, table=table)
            # the reported tag is one seqeval rejects too
            bad = info.value.tag
            assert bad[-1 if suffix else 0] not in SCHEME_LETTERS[scheme] + "O"
            n_errors += 1
            continue
        gold, pred = core._columns(*core._decode_both(y_true, y_pred, suffix=suffix, table=table))
        assert [entity_set(gold), entity_set(pred)] == ref, (y_true, y_pred)
    assert 20 < n_errors < 300


@needs_seqeval
@pytest.mark.parametrize("scheme", SCHEMES)
def test_strict_mode_scores_and_reports_match_seqeval(scheme):
    rng = np.random.default_rng(len(scheme) * 1000 + ord(scheme[-1]))
    letters = SCHEME_LETTERS[scheme] + "O"
    seq_scheme = getattr(ss, scheme)
    for k in range(400):
        suffix = k % 4 == 3
        y_true, y_pred = make_pair(rng, lambda s=suffix: strict_tag(rng, letters, s))
        table = core.check_scheme(scheme)
        any_entities = has_entities(y_true, y_pred, suffix=suffix, table=table)
        zd = ["warn", 0, 1][k % 3]
        our_scheme = [scheme, getattr(ns, scheme), seq_scheme][k % 3]
        for average in AVERAGES:
            if average == "macro" and not any_entities:
                continue
            kw = {"average": average, "zero_division": zd, "suffix": suffix}
            ref, ref_w, ref_t = call(sv1.precision_recall_fscore_support, y_true, y_pred,
                                     scheme=seq_scheme, **kw)
            ours, our_w, our_t = call(ns.precision_recall_fscore_support, y_true, y_pred,
                                      mode="strict", scheme=our_scheme, **kw)
            assert our_t == ref_t == set()
            assert_same_scores(ours, ref)
            assert_same_warnings(our_w, ref_w)
        average = AVERAGES[k % 4]
        if average != "macro" or any_entities:
            kw = {"average": average, "zero_division": zd, "suffix": suffix, "mode": "strict"}
            ref, ref_w, _ = call(sm.f1_score, y_true, y_pred, scheme=seq_scheme, **kw)
            ours, our_w, _ = call(ns.f1_score, y_true, y_pred, scheme=our_scheme, **kw)
            assert bits(ours) == bits(ref)
            assert_same_warnings(our_w, ref_w)
        if not any_entities:
            continue
        output_dict = k % 3 == 1
        kw = {"digits": 2 + k % 3, "suffix": suffix, "output_dict": output_dict,
              "zero_division": zd, "mode": "strict"}
        ref, ref_w, _ = call(sm.classification_report, y_true, y_pred, scheme=seq_scheme, **kw)
        ours, our_w, _ = call(ns.classification_report, y_true, y_pred, scheme=our_scheme, **kw)
        assert ours == (plain_dict(ref) if output_dict else ref)
        assert_same_warnings(our_w, ref_w)


@needs_seqeval
def test_conll2000_matches_seqeval_live():
    y_true, y_pred = read_conll(DATA / "conll2000.txt")
    for kw in ({}, {"mode": "strict", "scheme": ss.IOB2}):
        ref, ref_w, _ = call(sm.classification_report, y_true, y_pred, digits=4, **kw)
        ours, our_w, _ = call(ns.classification_report, y_true, y_pred, digits=4, **kw)
        assert ours == ref
        assert_same_warnings(our_w, ref_w)
    assert ns.get_entities(y_pred) == s_get_entities(y_pred)


@needs_seqeval
def test_signatures_mirror_seqeval():
    from seqeval.metrics import sequence_labeling as sl

    for name in ("accuracy_score", "classification_report", "f1_score", "get_entities",
                 "performance_measure", "precision_recall_fscore_support", "precision_score",
                 "recall_score"):
        ref = inspect.signature(getattr(sl, name)).parameters
        ours = inspect.signature(getattr(ns, name)).parameters
        assert list(ours)[: len(ref)] == list(ref), name
        for p in ref.values():
            q = ours[p.name]
            assert q.kind == p.kind, (name, p.name)
            assert q.default == p.default, (name, p.name)
        for extra in list(ours)[len(ref):]:  # extensions are keyword-only with defaults
            assert ours[extra].kind is inspect.Parameter.KEYWORD_ONLY
            assert ours[extra].default is not inspect.Parameter.empty


@needs_seqeval
@pytest.mark.parametrize("scheme", SCHEMES)
def test_scheme_tables_hold_seqeval_patterns(scheme):
    from nerscore.values import schemes as sc

    seq_scheme = getattr(ss, scheme)
    canonical = {"I": sc.I, "O": sc.O, "B": sc.B, "E": sc.E, "S": sc.S, "U": sc.S, "L": sc.E}
    allowed = [p for p in ss.Prefix if p in seq_scheme.allowed_prefix and p is not ss.Prefix.ANY]
    classes = {canonical[p.name] for p in allowed}

    def expand(patterns):
        out = set()
        for prev, cur, cond in patterns:
            for p in allowed:
                for c in allowed:
                    if p in prev and c in cur:
                        out.add((canonical[p.name], canonical[c.name], cond.name.lower()))
        return out

    table = core.check_scheme(scheme)
    for name in ("start", "inside", "end"):
        ours = {(p, c, cond) for p, c, cond in getattr(table, name)
                if p in classes and c in classes}
        assert ours == expand(getattr(seq_scheme, f"{name}_patterns")), name


@needs_seqeval
def test_seqeval_scheme_classes_are_accepted():
    y_true = [["B-PER", "I-PER", "O"], ["I-LOC", "O"]]
    y_pred = [["B-PER", "I-PER", "O"], ["B-LOC", "O"]]
    for scheme in (ss.IOB2, ns.IOB2, "IOB2", "BIO"):
        assert ns.f1_score(y_true, y_pred, mode="strict", scheme=scheme) == 2 / 3


# ----------------------------------------------------------------------------- golden files


def test_conll2000_report_is_byte_identical():
    y_true, y_pred = read_conll(DATA / "conll2000.txt")
    expected = (DATA / "expected-default.txt").read_text(encoding="utf-8")
    assert ns.classification_report(y_true, y_pred, digits=4) == expected
    s_true, s_pred = read_conll(DATA / "conll2000-suffix.txt")
    assert ns.classification_report(s_true, s_pred, digits=4, suffix=True) == expected
    strict = (DATA / "expected-strict-iob2.txt").read_text(encoding="utf-8")
    with pytest.warns(UndefinedMetricWarning, match="Precision and F-score are ill-defined"):
        got = ns.classification_report(y_true, y_pred, digits=4, mode="strict", scheme=ns.IOB2)
    assert got == strict
    assert ns.f1_score(y_true, y_pred) == pytest.approx(0.7435, abs=5e-5)


# ----------------------------------------------------------------------------- docs examples


SEED_TRUE = [["O", "O", "O", "B-MISC", "I-MISC", "I-MISC", "O"], ["B-PER", "I-PER", "O"]]
SEED_PRED = [["O", "O", "B-MISC", "I-MISC", "I-MISC", "I-MISC", "O"], ["B-PER", "I-PER", "O"]]


def test_spec4_seqeval_parity_examples():
    assert ns.f1_score(SEED_TRUE, SEED_PRED) == 0.5
    assert ns.classification_report(SEED_TRUE, SEED_PRED) == (
        "              precision    recall  f1-score   support\n"
        "\n"
        "        MISC       0.00      0.00      0.00         1\n"
        "         PER       1.00      1.00      1.00         1\n"
        "\n"
        "   micro avg       0.50      0.50      0.50         2\n"
        "   macro avg       0.50      0.50      0.50         2\n"
        "weighted avg       0.50      0.50      0.50         2\n"
    )
    y_true, y_pred = [["B-A", "B-B", "O", "B-A"]], [["O", "B-B", "B-C", "B-A"]]
    prfs = ns.precision_recall_fscore_support
    micro = prfs(y_true, y_pred, average="micro")
    assert [round(v, 4) for v in micro[:3]] == [0.6667, 0.6667, 0.6667]
    macro = prfs(y_true, y_pred, average="macro", zero_division=0)
    assert [round(v, 4) for v in macro[:3]] == [0.6667, 0.5, 0.5556]
    weighted = prfs(y_true, y_pred, average="weighted", zero_division=0)
    assert [round(v, 4) for v in weighted[:3]] == [1.0, 0.6667, 0.7778]


# docs/schemes.md: (gold, pred, lenient G/P/C, strict G/P/C, strict scheme). seqeval's default mode
# equals lenient except for #8, whose U/L tags it does not know (U-PER U-PER is one entity).
DECODING_EXAMPLES = [
    ([["B-PER", "I-PER", "O"]], [["I-PER", "I-PER", "O"]], (1, 1, 1), (1, 0, 0), "IOB2"),
    ([["B-PER", "I-PER", "O"]], [["B-PER", "I-LOC", "O"]], (1, 2, 0), (1, 1, 0), "IOB2"),
    ([["B-PER", "B-LOC", "I-LOC"]], [["B-PER", "I-LOC", "I-LOC"]], (2, 2, 2), (2, 1, 1), "IOB2"),
    ([["B-PER", "I-PER", "I-PER"]], [["B-PER", "I-PER", "B-PER"]], (1, 2, 0), (1, 2, 0), "IOB2"),
    ([["I-ORG", "I-ORG", "O", "I-PER"]], [["B-ORG", "I-ORG", "O", "B-PER"]], (2, 2, 2),
     (0, 2, 0), "IOB2"),
    ([["S-PER", "S-PER", "O"]], [["S-PER", "S-PER", "O"]], (2, 2, 2), (2, 2, 2), "IOBES"),
    ([["B-MISC", "E-MISC", "B-MISC", "E-MISC"]], [["B-MISC", "I-MISC", "I-MISC", "E-MISC"]],
     (2, 1, 0), (2, 1, 0), "IOBES"),
    ([["U-PER", "U-PER", "B-LOC", "L-LOC", "U-LOC"]], [["U-PER", "U-PER", "B-LOC", "L-LOC",
     "U-LOC"]], (2, 2, 2), (4, 4, 4), "BILOU"),
    ([["O", "B-PER"], ["I-PER", "O"]], [["O", "B-PER"], ["I-PER", "O"]], (2, 2, 2), (1, 1, 1),
     "IOB2"),
    ([["B-A"], ["O"]], [["O"], ["B-A"]], (1, 1, 0), (1, 1, 0), "IOB2"),
]


def gpc(y_true: Any, y_pred: Any, table: Any) -> tuple[int, int, int]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        c = core.count(y_true, y_pred, suffix=False, table=table, match="exact")
    return int(c.n_gold.sum()), int(c.n_pred.sum()), int(c.exact.sum())


@pytest.mark.parametrize(("y_true", "y_pred", "default", "strict", "scheme"), DECODING_EXAMPLES)
def test_spec25_decoding_examples(y_true, y_pred, default, strict, scheme):
    assert gpc(y_true, y_pred, None) == default
    assert gpc(y_true, y_pred, core.check_scheme(scheme)) == strict


def test_default_mode_quirks():
    with pytest.warns(UserWarning, match="U-PER seems not to be NE tag"):
        assert ns.get_entities(["U-PER", "U-PER"]) == [("PER", 0, 1)]
    with pytest.warns(UserWarning, match="U seems not to be NE tag"):  # stale begin, across
        assert ns.get_entities([["B"], ["U", "I-X"]]) == [("_", 0, 0), ("_", 0, 2), ("X", 3, 3)]
    with pytest.warns(UserWarning, match=r"\. seems not to be NE tag"):
        assert ns.get_entities([["B", "."], ["I", "O"]]) == [("_", 3, 3)]
    assert ns.get_entities(["B-ARG-LOC", "I-ARG-LOC"]) == [("ARG-LOC", 0, 1)]
    assert ns.get_entities(["ARG-LOC-B", "ARG-LOC-I"], suffix=True) == [("ARG-LOC", 0, 1)]
    assert ns.get_entities([[], ["B-X"]]) == [("X", 1, 1)]


@needs_seqeval
@pytest.mark.parametrize("suffix", [False, True])
def test_an_empty_type_is_read_as_seqeval_reads_it(suffix):
    """The native API refuses ``B-``; the drop-in reads it as seqeval does, as type ``_``."""
    def tags(text):
        return [t[::-1] if suffix else t for t in text.split()]

    y_true = [tags("B- I- O B-PER B-"), tags("I- I-PER O")]
    y_pred = [tags("B- O O B-PER B-"), tags("B- I- O")]
    for seq in (y_true, y_pred, y_true[0]):
        assert call(ns.get_entities, seq, suffix)[0] == call(s_get_entities, seq, suffix)[0]
    assert ns.get_entities(tags("B- I- O"), suffix) == [("_", 0, 1)]
    for output_dict in (False, True):
        kw = {"suffix": suffix, "output_dict": output_dict}
        ref, ref_w, _ = call(sm.classification_report, y_true, y_pred, **kw)
        ours, our_w, _ = call(ns.classification_report, y_true, y_pred, **kw)
        assert ours == (plain_dict(ref) if output_dict else ref)
        assert_same_warnings(our_w, ref_w)
    for scheme, gold, pred in (("IOB2", "B- I- O B-PER", "B- O O B-PER"),
                               ("IOBES", "B- E- O S-PER", "S- O O S-PER")):
        kw = {"suffix": suffix, "mode": "strict", "output_dict": True}
        strict_true, strict_pred = [tags(gold)], [tags(pred)]
        ref, ref_w, _ = call(sm.classification_report, strict_true, strict_pred,
                             scheme=getattr(ss, scheme), **kw)
        ours, our_w, _ = call(ns.classification_report, strict_true, strict_pred,
                              scheme=scheme, **kw)
        assert ours == plain_dict(ref)
        assert_same_warnings(our_w, ref_w)
        assert "_" in ours


# ----------------------------------------------------------------------------- defined results


MACRO_OVER_NOTHING = ("The macro average over no labels is undefined (neither y_true nor y_pred "
                      "has an entity) and set to nan, as seqeval 1.2.2 sets it; `zero_division` "
                      "does not apply to it.")


@needs_seqeval
@pytest.mark.parametrize("zero_division", ["warn", 0, 1])
def test_report_without_entities_is_seqevals_dict_and_the_text_shows_it(zero_division):
    ref, ref_w = call(sm.classification_report, [["O"]], [["O"]], output_dict=True,
                      zero_division=zero_division)[:2]
    ours, our_w = call(ns.classification_report, [["O"]], [["O"]], output_dict=True,
                       zero_division=zero_division)[:2]
    assert all(math.isnan(ref["macro avg"][k]) and math.isnan(ours["macro avg"][k])
               for k in ("precision", "recall", "f1-score"))
    assert str(ours) == str(plain_dict(ref))  # nan != nan: compare the printed dicts
    assert all(type(v) in (float, int) for row in ours.values() for v in row.values())
    # NumPy's RuntimeWarnings of the mean of nothing become one warning of our own
    assert any(c is RuntimeWarning for c, _ in ref_w)
    assert not any(issubclass(c, RuntimeWarning) for c, _ in our_w)
    assert_same_warnings(our_w, [w for w in ref_w if w[0] is not RuntimeWarning] + [
        (UndefinedMetricWarning, MACRO_OVER_NOTHING)])
    # the text (seqeval fails there) shows the dict's values, with the same warnings
    assert isinstance(call(sm.classification_report, [["O"]], [["O"]])[0], ValueError)
    text, text_w = call(ns.classification_report, [["O", "O"]], [["O", "O"]],
                        zero_division=zero_division)[:2]
    value = {"warn": "0.00", 0: "0.00", 1: "1.00"}[zero_division]
    assert text == (
        "              precision    recall  f1-score   support\n"
        "\n"
        "\n"
        f"   micro avg       {value}      {value}      {value}         0\n"
        "   macro avg        nan       nan       nan         0\n"
        f"weighted avg       {value}      {value}      {value}         0\n"
    )
    assert text_w == our_w


@needs_seqeval
@pytest.mark.parametrize("zero_division", ["warn", 0, 1, math.nan])
def test_macro_without_labels_is_seqevals_nan_without_numpy_warnings(zero_division):
    y = [["O"]]
    for name in ("precision_score", "recall_score", "f1_score"):
        ref, ref_w, _ = call(getattr(sm, name), y, y, average="macro",
                             zero_division=zero_division)
        ours, our_w, _ = call(getattr(ns, name), y, y, average="macro",
                              zero_division=zero_division)
        assert math.isnan(ours)
        assert math.isnan(ref)
        # NumPy 1 ends the message with a full stop, NumPy 2 does not
        assert any(m.startswith("Mean of empty slice") for _, m in ref_w)
        assert [m for _, m in our_w] == [MACRO_OVER_NOTHING]
        assert issubclass(our_w[0][0], UndefinedMetricWarning)
    p, r, f, s = call(ns.precision_recall_fscore_support, y, y, average="macro")[0]
    assert all(math.isnan(x) for x in (p, r, f))
    assert s == 0
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no RuntimeWarning either when this one is ignored
        warnings.filterwarnings("ignore", category=UndefinedMetricWarning)
        assert math.isnan(ns.f1_score(y, y, average="macro", zero_division=zero_division))
    # the native API keeps its documented zero_division value
    assert nerscore.f1_score(y, y, average="macro", zero_division=0.0) == 0.0


def test_empty_corpus_and_zero_tokens():
    with pytest.warns(UndefinedMetricWarning):
        assert ns.f1_score([], []) == 0.0
    for empty in ([], [[]], [[], []]):
        p, r, f, s = ns.precision_recall_fscore_support(empty, empty, zero_division=0)
        assert len(p) == len(r) == len(f) == len(s) == 0
        assert ns.precision_recall_fscore_support(empty, empty, average="weighted",
                                                  zero_division=0) == (0.0, 0.0, 0.0, 0)
    with pytest.warns(UndefinedMetricWarning):
        assert ns.accuracy_score([], []) == 0.0
    assert ns.performance_measure([], []) == {"TP": 0, "FP": 0, "FN": 0, "TN": 0}
    assert ns.get_entities([]) == []


def test_strict_needs_a_scheme_and_scheme_needs_strict():
    with pytest.raises(SchemeError, match="mode='strict' needs an explicit scheme"):
        ns.f1_score(SEED_TRUE, SEED_PRED, mode="strict")
    with pytest.raises(SchemeError, match="mode='strict' needs an explicit scheme"):
        ns.classification_report(SEED_TRUE, SEED_PRED, mode="strict")
    with pytest.raises(SchemeError, match="only used with mode='strict'"):
        ns.precision_score(SEED_TRUE, SEED_PRED, scheme=ns.IOB2)
    with pytest.raises(SchemeError, match="Expected `scheme`"):
        ns.recall_score(SEED_TRUE, SEED_PRED, mode="strict", scheme=int)
    with pytest.raises(SchemeError):
        ns.recall_score(SEED_TRUE, SEED_PRED, mode="strict", scheme="IOX")
    assert ns.f1_score(SEED_TRUE, SEED_PRED, mode="lenient") == 0.5


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"mode": "Strict"}, "Expected `mode` to be one of None, 'strict' or 'lenient'; got 'Strict'."),
        ({"sample_weight": [1, 2]}, "Expected `sample_weight` to be None"),
        ({"zero_division": "0"}, "Expected `zero_division` to be one of"),
        ({"zero_division": 2}, "Expected `zero_division` to be one of"),
        ({"average": "mirco"},
         "Expected `average` to be one of 'micro', 'macro', 'weighted' or None; got 'mirco'."),
        ({"match": "fuzzy"}, "Expected `match` to be one of"),
    ],
)
def test_invalid_options_raise(kwargs, message):
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
        ns.f1_score(SEED_TRUE, SEED_PRED, **kwargs)


def test_invalid_beta_and_digits_raise():
    with pytest.raises(ValueError, match="Expected `beta` to be a non-negative number; got -1"):
        ns.precision_recall_fscore_support(SEED_TRUE, SEED_PRED, beta=-1)
    with pytest.raises(ValueError, match="Expected `beta`"):
        ns.precision_recall_fscore_support(SEED_TRUE, SEED_PRED, beta=math.nan)
    with pytest.raises(ValueError, match="Expected `digits` to be a non-negative integer"):
        ns.classification_report(SEED_TRUE, SEED_PRED, digits=-1)
    with pytest.raises(ValueError, match="Expected `digits`"):
        ns.classification_report(SEED_TRUE, SEED_PRED, digits=2.0)


def test_beta_zero_and_infinity_follow_seqeval():
    y_true, y_pred = [["B-A", "B-A", "O"]], [["B-A", "O", "B-A"]]
    p, r, f0, _ = ns.precision_recall_fscore_support(y_true, y_pred, average="micro", beta=0)
    assert f0 == p
    _, r, finf, _ = ns.precision_recall_fscore_support(y_true, y_pred, average="micro",
                                                        beta=math.inf)
    assert finf == r


def test_invalid_tags_raise_clear_errors():
    with pytest.raises(InvalidTagError, match=r"Invalid y_true tag '' at token 1 of sentence 0") \
            as info, pytest.warns(UserWarning, match="seems not to be NE tag"):
        ns.f1_score([["O", ""]], [["O", "O"]])
    assert info.value.sentence == 0
    assert info.value.index == 1
    with pytest.raises(InvalidTagError, match=r"prefix 'E' is not allowed by the IOB2 scheme"):
        ns.f1_score([["O"], ["B-A", "E-A"]], [["O"], ["O", "O"]], mode="strict", scheme="IOB2")
    with pytest.raises(InvalidTagError, match=r"token 0 \('X-A'\)|'X-A'.*not a prefix"):
        ns.f1_score([["O"]], [["X-A"]], mode="strict", scheme=ns.IOBES)
    with pytest.raises(TypeError, match="mix"):
        ns.get_entities([["B-A"], "O"])


def test_length_mismatch_raises_instead_of_truncating():
    with pytest.raises(LengthMismatchError, match="Sentence 1 has 2 gold tags but 1 predicted"):
        ns.accuracy_score([["O"], ["O", "B-A"]], [["O"], ["O"]])
    with pytest.raises(LengthMismatchError):
        ns.performance_measure([["O", "O"]], [["O"]])
    with pytest.raises(LengthMismatchError):
        ns.f1_score([["O", "O"]], [["O"], ["O"]])


def test_inputs_beyond_lists_of_lists():
    as_tuples = [tuple(s) for s in SEED_TRUE], [tuple(s) for s in SEED_PRED]
    assert ns.f1_score(*as_tuples) == 0.5
    assert ns.f1_score(SEED_TRUE[1], SEED_PRED[1]) == 1.0  # a flat list is one sentence


def test_match_is_passed_to_the_matcher(monkeypatch):
    seen = {}

    class Result:
        counts = Counts.from_dict({"MISC": (1, 1, 1), "PER": (0, 1, 1), "ZZZ": (0, 0, 0)})

    def fake(gold: EntityColumns, pred: EntityColumns) -> Result:
        seen["gold"], seen["pred"] = gold, pred
        return Result()

    entry = Matcher.on_entities("fake", "a test double", fake)
    real = core.get_matcher
    monkeypatch.setattr(core, "get_matcher", lambda name: entry if name == "fake" else real(name))
    assert ns.f1_score(SEED_TRUE, SEED_PRED, match="fake") == 0.5
    assert entity_set(seen["gold"]) == {(0, "MISC", 3, 6), (1, "PER", 0, 2)}
    assert entity_set(seen["pred"]) == {(0, "MISC", 2, 6), (1, "PER", 0, 2)}
    report = ns.classification_report(SEED_TRUE, SEED_PRED, match="fake", output_dict=True)
    assert list(report)[:2] == ["MISC", "PER"]  # labels without entities are left out
    assert ns.f1_score(SEED_TRUE, SEED_PRED, match="exact") == 0.5


def test_match_uses_nerscore_matchers():
    # docs/matchers/threshold.md: MISC gold [3, 6) and prediction [2, 6) overlap by 3/3 and 3/4 >= 0.5
    assert ns.f1_score(SEED_TRUE, SEED_PRED, match="threshold") == 1.0
    assert ns.f1_score(SEED_TRUE, SEED_PRED, match="exact") == 0.5


def test_extension_schemes_bmes_and_strings():
    y_true = [["B-X", "M-X", "E-X", "S-Y", "O"]]
    y_pred = [["B-X", "M-X", "M-X", "S-Y", "O"]]
    assert ns.precision_recall_fscore_support(y_true, y_pred, mode="strict", scheme="BMES",
                                              average="micro") == (1.0, 0.5, 2 / 3, 2)
    with pytest.raises(InvalidTagError, match="'M' is not a prefix seqeval knows"):
        ns.f1_score(y_true, y_pred, mode="strict", scheme="BIOES")


# ----------------------------------------------------------------------------- render from counts


def test_render_seqeval_from_counts():
    counts = Counts.from_dict({"LOC": (3, 4, 5), "A-VERY-LONG-LABEL": (0, 0, 2), "X": (0, 0, 0)})
    with pytest.warns(UndefinedMetricWarning, match="no predicted samples"):
        text = format_seqeval(counts, digits=3)
    lines = text.splitlines()
    assert lines[0] == " " * 17 + " " + "".join(f" {h:>9}" for h in
                                                ("precision", "recall", "f1-score", "support"))
    assert lines[2] == "A-VERY-LONG-LABEL      0.000     0.000     0.000         2"
    assert lines[3] == "              LOC      0.750     0.600     0.667         5"
    assert len(lines) == 8
    assert text.endswith("\n")
    d = seqeval_report_dict(counts, zero_division=0)
    assert list(d) == ["A-VERY-LONG-LABEL", "LOC", "micro avg", "macro avg", "weighted avg"]
    assert d["micro avg"] == {"precision": 0.75, "recall": 3 / 7, "f1-score": 2 * 0.75 * (3 / 7)
                              / (0.75 + 3 / 7), "support": 7}
    labels, averages = seqeval_rows(counts, zero_division=1)
    assert labels[0][1] == 1.0
    assert averages[2][0] == "weighted avg"
