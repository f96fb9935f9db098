"""``nerscore conlleval`` and ``mode="conlleval"`` against the Perl script's recorded output."""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import subprocess
import sys
import warnings

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import nerscore
from nerscore import Counts, EncodedTags, tags_to_entities
from nerscore.cli import conlleval as cli
from nerscore.decode.conlleval_rules import ConllevalMergeWarning, decode_conlleval, split_tag
from nerscore.io import conlleval as reader
from nerscore.render.conlleval import format_conlleval
from tests.conlleval_oracle import ScriptStopped, conlleval
from tests.paths import TESTS

DATA = TESTS / "data" / "conlleval"
CASES = DATA / "cases"
GENERATED = json.loads((DATA / "generated.json").read_text(encoding="utf-8"))


class _Std:
    def __init__(self, data: bytes = b"") -> None:
        self.buffer = io.BytesIO(data)


def run_cli(argv: list[str], stdin: bytes = b"", monkeypatch=None) -> tuple[bytes, bytes, int]:
    """Run the subcommand in-process; return (stdout, stderr, status)."""
    parser = argparse.ArgumentParser()
    cli.add_arguments(parser)
    args = parser.parse_args(argv)
    out, err, inp = _Std(), _Std(), _Std(stdin)
    old = sys.stdout, sys.stderr, sys.stdin
    sys.stdout, sys.stderr, sys.stdin = out, err, inp  # type: ignore[assignment]
    try:
        status = cli.run(args)
    finally:
        sys.stdout, sys.stderr, sys.stdin = old
    return out.buffer.getvalue(), err.buffer.getvalue(), status


def _case_options(name: str) -> list[str]:
    return {"21-tab-delim": ["-d", "\\t"], "22-raw": ["-r"]}.get(name, [])


CASE_NAMES = sorted(p.stem for p in CASES.glob("*.txt"))


# --- recorded output of the Perl script -------------------------------------------------

@pytest.mark.parametrize("name", CASE_NAMES)
def test_recorded_case(name):
    src = CASES / f"{name}.txt"
    out, err, status = run_cli([*_case_options(name), "-q", str(src)])
    assert out == (CASES / f"{name}.out").read_bytes()
    assert status == int((CASES / f"{name}.rc").read_text())
    if (CASES / f"{name}.err").exists():
        assert err == (CASES / f"{name}.err").read_bytes()


@pytest.mark.parametrize("name", CASE_NAMES)
def test_recorded_case_on_stdin(name):
    out, _, status = run_cli([*_case_options(name), "-q"], (CASES / f"{name}.txt").read_bytes())
    assert out == (CASES / f"{name}.out").read_bytes()
    assert status == int((CASES / f"{name}.rc").read_text())


@pytest.mark.parametrize(
    ("options", "expected"),
    [(["-r", "-o", "O"], "22-raw.o.out"), (["-l"], "22-raw.latex.out"), (["-r"], "22-raw.out")],
)
def test_raw_and_latex_options(options, expected):
    out, _, status = run_cli([*options, str(CASES / "22-raw.txt")])
    assert (out, status) == ((CASES / expected).read_bytes(), 0)


@pytest.mark.parametrize(
    ("options", "expected"),
    [([], "expected.txt"), (["-l"], "expected-latex.txt"), (["-r"], "expected-raw.txt")],
)
def test_conll2000_example(options, expected):
    out, err, status = run_cli([*options, str(DATA / "conll2000" / "input.txt")])
    assert out == (DATA / "conll2000" / expected).read_bytes()
    assert (err, status) == (b"", 0)


def test_conll2000_numbers_from_spec():
    out, _, _ = run_cli([str(DATA / "conll2000" / "input.txt")])
    text = out.decode()
    assert text.startswith("processed 961 tokens with 459 phrases; found: 539 phrases; "
                           "correct: 371.\naccuracy:  84.08%; precision:  68.83%; "
                           "recall:  80.83%; FB1:  74.35\n")


def test_conll2000_suffix_tags_read_as_the_script_reads_them():
    # "NP-B" is prefix "NP" (an unknown prefix) with type "B"
    out, _, _ = run_cli([str(DATA / "conll2000" / "input-suffix.txt")])
    assert out == (DATA / "conll2000" / "expected-suffix.txt").read_bytes()


def test_conll2002_spanish_system():
    out, _, status = run_cli([str(DATA / "conll2002-es" / "es.preds")])
    assert out == (DATA / "conll2002-es" / "expected.txt").read_bytes()
    assert status == 0


@pytest.mark.parametrize("case", GENERATED, ids=[c["name"] for c in GENERATED])
def test_generated_case(case):
    out, err, status = run_cli([*case["args"], "-q"], case["input"].encode("utf-8"))
    assert out.decode("utf-8") == case["stdout"]
    assert status == case["rc"]
    if case["rc"]:
        assert err.decode("utf-8") == case["stderr"]


def _oracle(data: bytes, args: list[str]) -> tuple[bytes, bytes, int]:
    opts = {"delimiter": b" ", "raw": False, "otag": b"O", "latex": False}
    it = iter(args)
    for a in it:
        if a == "-d":
            opts["delimiter"] = next(it).encode()
        elif a == "-o":
            opts["otag"] = next(it).encode()
        elif a == "-r":
            opts["raw"] = True
        elif a == "-l":
            opts["latex"] = True
    try:
        return conlleval(data, **opts), b"", 0  # type: ignore[arg-type]
    except ScriptStopped as exc:
        return b"", exc.stderr, exc.status


@pytest.mark.parametrize("case", GENERATED, ids=[c["name"] for c in GENERATED])
def test_oracle_matches_recorded_output(case):
    """The slow line-by-line model reproduces the script (so it can judge random input)."""
    out, err, status = _oracle(case["input"].encode("utf-8"), case["args"])
    assert (out.decode(), status) == (case["stdout"], case["rc"])
    if status:
        assert err.decode() == case["stderr"]


@pytest.mark.parametrize("name", CASE_NAMES)
def test_oracle_matches_recorded_cases(name):
    out, _, status = _oracle((CASES / f"{name}.txt").read_bytes(), _case_options(name))
    assert out == (CASES / f"{name}.out").read_bytes()
    assert status == int((CASES / f"{name}.rc").read_text())


# --- random input: fast path == slow path == line-by-line model -------------------------

PREFIXES = ["B", "I", "E", "S", "O", "U", "L", "M", "[", "]", ".", "b", "x", ""]
TYPES = ["PER", "LOC", "0", "", "A-B", "é"]


@st.composite
def conll_files(draw):
    n_types = draw(st.integers(1, len(TYPES)))
    types = TYPES[:n_types]

    def tag():
        prefix = draw(st.sampled_from(PREFIXES))
        typ = draw(st.sampled_from(types))
        return prefix if draw(st.booleans()) and typ == "" else f"{prefix}-{typ}"

    lines = []
    for _ in range(draw(st.integers(0, 60))):
        kind = draw(st.integers(0, 19))
        if kind == 0:
            lines.append("")
        elif kind == 1:
            lines.append("-X- x O O")
        elif kind == 2:
            lines.append("-DOCSTART- x O O")
        else:
            gold = tag()
            pred = gold if draw(st.booleans()) else tag()
            lines.append(f"w x {gold} {pred}")
    text = "\n".join(lines) + draw(st.sampled_from(["\n", ""]))
    return text.encode("utf-8")


@settings(max_examples=250, deadline=None)
@given(conll_files(), st.sampled_from([[], ["-l"], ["-r"], ["-r", "-o", "PER"]]))
def test_random_input_matches_line_by_line_model(data, args):
    expected = _oracle(data, args)
    got = run_cli([*args, "-q"], data)
    assert got[0] == expected[0]
    assert got[2] == expected[2]


def _rows(read):
    flat = np.concatenate(read.blocks) if read.blocks else np.zeros(0, dtype=np.int64)
    return [read.pairs[i] if i >= 0 else None for i in flat.tolist()]


@settings(max_examples=150, deadline=None)
@given(conll_files(), st.sampled_from([40, 200, 1 << 20]))
def test_fast_and_slow_readers_agree(data, block):
    with _block_size(block):
        _fast_equals_slow(data)


def _fast_or_public(fast_reader, data):
    """The fast reader's rows, or the public reader's when the fast one declines."""
    rows = fast_reader.read(reader._FieldCheck(b" "))
    return rows if rows is not None else reader.read_conlleval(data, delimiter=" ")


def _fast_equals_slow(data):
    data = data if data.endswith(b"\n") or not data else data + b"\n"
    try:
        slow = reader._read_slow(data, b" ")
    except reader.ScriptExit as exc:
        stopped = (exc.stderr, exc.status)
    else:
        stopped = None
    if len(data) < 64:
        return
    fast_reader = reader._FastReader(data, 32)
    if stopped is not None:
        # the fast reader stops as the script does, or declines (a hash slot shared by two
        # tails) and the public reader's slow path stops the same way
        with pytest.raises(reader.ScriptExit) as exc:
            _fast_or_public(fast_reader, data)
        assert (exc.value.stderr, exc.value.status) == stopped
        return
    assert _rows(_fast_or_public(fast_reader, data)) == _rows(slow)


@contextlib.contextmanager
def _block_size(size):
    old = reader._BLOCK
    reader._BLOCK = size
    try:
        yield
    finally:
        reader._BLOCK = old


def test_small_blocks_give_the_same_report(monkeypatch):
    data = (DATA / "conll2002-es" / "es.preds").read_bytes()
    expected = (DATA / "conll2002-es" / "expected.txt").read_bytes()
    head = data[:data.index(b"\n\n", 20_000) + 2]
    whole_head = run_cli([], head)[0]
    for size in (100, 4096):
        monkeypatch.setattr(reader, "_BLOCK", size)
        assert run_cli([], data)[0] == expected
    monkeypatch.setattr(reader, "_BLOCK", 1)  # a block boundary after every byte
    assert run_cli([], head)[0] == whole_head


def test_table_and_direct_decisions_agree(monkeypatch):
    import nerscore.decode.conlleval_rules as rules

    data = b"".join(
        f"w {g} {p}\n".encode()
        for g, p in zip(["B-A", "I-A", "S-A", "[-A", "O", ".-B", "E-B", "]-A"] * 30,
                        ["B-A", "E-A", "S-A", "[-A", "I-B", ".-B", "E-B", "B-A"] * 30, strict=True)
    )
    expected = run_cli([], data)
    monkeypatch.setattr(rules, "_TABLE_LIMIT", 0)
    assert run_cli([], data) == expected
    assert expected[0] == _oracle(data, [])[0]


def test_long_tags_take_the_slow_path():
    long = "B-" + "X" * 40
    data = f"a {long} {long}\nb O O\n".encode()
    data += b"w O O\n" * 20
    assert reader._FastReader(data, 32).read(reader._FieldCheck(b" ")) is None
    assert run_cli([], data)[0] == _oracle(data, [])[0]


# --- where nerscore differs from the script on purpose ----------------------------------

def test_crlf_input_scores_as_lf_input():
    lf = (DATA / "conll2000" / "input.txt").read_bytes()
    crlf = lf.replace(b"\n", b"\r\n")
    assert run_cli([], crlf)[0] == run_cli([], lf)[0] == \
        (DATA / "conll2000" / "expected.txt").read_bytes()


def test_bom_is_ignored():
    data = (CASES / "08-x-boundary.txt").read_bytes()
    assert run_cli([], b"\xef\xbb\xbf" + data)[0] == (CASES / "08-x-boundary.out").read_bytes()


def test_help_states_the_crlf_difference():
    parser = argparse.ArgumentParser(prog="nerscore conlleval", description=cli.DESCRIPTION,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    cli.add_arguments(parser)
    text = parser.format_help()
    assert "CRLF" in text
    assert "carriage return" in text


def test_merge_note_on_stderr_and_quiet():
    data = (CASES / "03-iobes-merge.txt").read_bytes()
    out, err, status = run_cli([], data)
    assert status == 0
    assert out == (CASES / "03-iobes-merge.out").read_bytes()
    assert err.startswith(b"nerscore conlleval: note: conlleval rules merged 3 pairs")
    assert b"'S-PER' -> 'S-PER' in the gold column at line 2" in err
    assert run_cli(["-q"], data)[1] == b""
    assert run_cli([], (CASES / "01-begin-repair.txt").read_bytes())[1] == b""


def test_unreadable_file(tmp_path):
    out, err, status = run_cli([str(tmp_path / "missing.txt")])
    assert (out, status) == (b"", 1)
    assert b"cannot open" in err
    assert b"missing.txt" in err


def test_bad_regex_delimiter():
    out, err, status = run_cli(["-d", "(", str(CASES / "01-begin-repair.txt")])
    assert (out, status) == (b"", 2)
    assert b"-d '('" in err


def test_single_field_lines_stop_like_the_script():
    out, err, status = run_cli([], b"5x\nb\n")
    assert (out, status) == (b"", 255)
    assert err == b"feature length is 5. \nconlleval: unexpected number of features in line 5x\n"


# --- the whole command ------------------------------------------------------------------

def test_module_entry_point():
    src = CASES / "12-rounding.txt"
    proc = subprocess.run([sys.executable, "-m", "nerscore.cli.conlleval", str(src)],
                          capture_output=True, check=False)
    assert proc.stdout == (CASES / "12-rounding.out").read_bytes()
    assert proc.returncode == 0


def test_nerscore_cli_main(capfd):
    main = getattr(pytest.importorskip("nerscore.cli"), "main", None)
    if main is None:
        pytest.skip("nerscore.cli.main does not exist yet")
    proc = subprocess.run(
        [sys.executable, "-c", "import sys; from nerscore.cli import main; sys.exit(main())",
         "conlleval", str(CASES / "23-field-mismatch.txt")],
        capture_output=True, check=False,
    )
    assert (proc.stdout, proc.returncode) == (b"", 1)
    assert proc.stderr == (CASES / "23-field-mismatch.err").read_bytes()
    proc = subprocess.run(
        [sys.executable, "-c", "import sys; from nerscore.cli import main; sys.exit(main())",
         "conlleval", "-d", "\\t", str(CASES / "21-tab-delim.txt")],
        capture_output=True, check=False,
    )
    assert proc.stdout == (CASES / "21-tab-delim.out").read_bytes()


# --- render_conlleval -------------------------------------------------------------------

def _counts(rows, tokens=0, tokens_correct=0):
    c = Counts.from_dict(rows)
    return Counts(c.labels, c.exact, c.n_pred, c.n_gold, tokens=tokens,
                  tokens_correct=tokens_correct)


def test_render_c_rounding():
    text = format_conlleval(_counts({"X": (1, 32, 1)}, 32, 1))
    assert "accuracy:   3.12%; precision:   3.12%;" in text


def test_render_untyped_line_twice_only_when_both_sides_have_it():
    both = format_conlleval(_counts({"": (1, 2, 2)}, 5, 3)).splitlines()
    assert both[2] == both[3] == \
        "                 : precision:  50.00%; recall:  50.00%; FB1:  50.00  2"
    gold_only = format_conlleval(_counts({"": (0, 0, 2)}, 5, 3)).splitlines()
    assert len(gold_only) == 3


def test_render_pads_by_utf8_bytes_and_sorts_by_bytes():
    text = format_conlleval(_counts({"Ω": (0, 1, 0), "Z": (0, 1, 0)}, 2, 0))
    lines = text.splitlines()
    assert lines[2].startswith(" " * 16 + "Z:")
    assert lines[3].startswith(" " * 15 + "Ω:")  # two bytes in UTF-8


def test_render_no_tokens_and_unprinted_types():
    assert format_conlleval(Counts()) == \
        "processed 0 tokens with 0 phrases; found: 0 phrases; correct: 0.\n"
    # a type that only closes a correct chunk counts overall but gets no line
    text = format_conlleval(_counts({"X": (0, 1, 1), "Y": (1, 0, 0)}, 4, 4))
    assert "correct: 1." in text
    assert "Y:" not in text


# --- mode="conlleval" in the core API (docs/schemes.md) ---------------------------------------

def s(text):
    return text.split()


DECODING_EXAMPLES = [
    ([s("B-PER I-PER O")], [s("I-PER I-PER O")], (1, 1, 1), False),
    ([s("B-PER I-PER O")], [s("B-PER I-LOC O")], (1, 2, 0), False),
    ([s("B-PER B-LOC I-LOC")], [s("B-PER I-LOC I-LOC")], (2, 2, 2), False),
    ([s("B-PER I-PER I-PER")], [s("B-PER I-PER B-PER")], (1, 2, 0), False),
    ([s("I-ORG I-ORG O I-PER")], [s("B-ORG I-ORG O B-PER")], (2, 2, 2), False),
    ([s("S-PER S-PER O")], [s("S-PER S-PER O")], (1, 1, 1), True),
    ([s("B-MISC E-MISC B-MISC E-MISC")], [s("B-MISC I-MISC I-MISC E-MISC")], (1, 1, 1), True),
    ([s("U-PER U-PER B-LOC L-LOC U-LOC")], [s("U-PER U-PER B-LOC L-LOC U-LOC")], (2, 2, 2),
     True),
    ([s("O B-PER"), s("I-PER O")], [s("O B-PER"), s("I-PER O")], (2, 2, 2), False),
    ([s("B-A"), s("O")], [s("O"), s("B-A")], (1, 1, 0), False),
]


@pytest.mark.parametrize(("gold", "pred", "expected", "merges"), DECODING_EXAMPLES)
def test_spec_2_5_conlleval_column(gold, pred, expected, merges):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        g = set(tags_to_entities(gold, mode="conlleval"))
        p = set(tags_to_entities(pred, mode="conlleval"))
    assert (len(g), len(p), len(g & p)) == expected
    merge_warnings = [w for w in caught if issubclass(w.category, ConllevalMergeWarning)]
    assert bool(merge_warnings) == merges
    assert len(merge_warnings) == len(caught)


def test_spec_2_5_rows_through_the_cli():
    # the same rows as one file each: the script's numbers agree with the API's
    for gold, pred, (n_gold, n_pred, n_correct), _ in DECODING_EXAMPLES:
        lines = []
        for gs, ps in zip(gold, pred, strict=True):
            lines += [f"w {a} {b}" for a, b in zip(gs, ps, strict=True)] + [""]
        out = run_cli(["-q"], "\n".join(lines).encode())[0].decode()
        assert out.startswith(f"processed {sum(map(len, gold))} tokens with {n_gold} phrases; "
                              f"found: {n_pred} phrases; correct: {n_correct}.")


def test_merge_warning_text():
    with pytest.warns(ConllevalMergeWarning, match=r"'S-PER' -> 'S-PER' at token 1 of sentence 0"):
        tags_to_entities(["S-PER", "S-PER"], mode="conlleval")


def test_decode_brackets_dots_and_untyped():
    ents = tags_to_entities(s("[-NP I-NP ]-NP O [-VP B I"), mode="conlleval")
    assert [(e.start, e.end, e.label) for e in ents] == [
        (0, 1, "NP"), (2, 3, "NP"), (4, 5, "VP"), (5, 7, "")]
    # a "." tag never ends a chunk: capped at the end of the sentence
    ents = tags_to_entities([s("B-X .-X"), s("I-X")], mode="conlleval")
    assert [(e.sentence, e.start, e.end) for e in ents] == [(0, 0, 2), (1, 0, 1)]


def test_split_tag_like_the_script():
    assert split_tag("B-ARGM-LOC") == ("B", "ARGM-LOC")
    assert split_tag("B-0") == ("B", "")
    assert split_tag("B_PER", "_") == ("B", "PER")


@settings(max_examples=150, deadline=None)
@given(st.lists(st.lists(st.sampled_from(
    ["O", "B-A", "I-A", "E-A", "S-A", "B-B", "I-B", "[-A", "]-B", ".-A", "x-B", "B", "I"]),
    max_size=12), max_size=6))
def test_decoded_entities_are_the_scripts_found_chunks(sentences):
    """One entity per start event: per-type entity counts equal the script's found counts."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConllevalMergeWarning)
        cols = decode_conlleval(EncodedTags.from_lists(sentences))
    found: dict[str, int] = {}
    for k in cols.label.tolist():
        found[cols.labels[k]] = found.get(cols.labels[k], 0) + 1
    lines = []
    for sent in sentences:
        lines += [f"w {t} O" for t in sent] + [""]
    out = run_cli(["-q"], "\n".join(lines).encode())[0].decode()
    total = int(out.split(" phrases;")[0].rsplit(" ", 1)[1])
    assert total == sum(found.values())
    assert np.all(cols.start < cols.end)


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_bio_correct_count_equals_span_intersection(data):
    """On O/B/I tags the script's correct count is the exact-match count of the spans."""
    tags = st.sampled_from(["O", "B-A", "I-A", "B-B", "I-B"])
    lengths = data.draw(st.lists(st.integers(0, 10), max_size=6))
    gold = [data.draw(st.lists(tags, min_size=n, max_size=n)) for n in lengths]
    pred = [data.draw(st.lists(tags, min_size=n, max_size=n)) for n in lengths]
    n_correct = len(set(tags_to_entities(gold, mode="conlleval"))
                    & set(tags_to_entities(pred, mode="conlleval")))
    lines = []
    for gs, ps in zip(gold, pred, strict=True):
        lines += [f"w {a} {b}" for a, b in zip(gs, ps, strict=True)] + [""]
    out = run_cli([], "\n".join(lines).encode())[0].decode()
    assert out.split("\n")[0].endswith(f"correct: {n_correct}.")
    assert nerscore.count_matches(gold, pred, mode="conlleval").total().exact == n_correct


def test_an_empty_type_is_read_as_the_script_reads_it():
    """``B-`` is prefix B with the empty type there, not an invalid tag as in the native API."""
    data = (b"a x B-PER B-\nb x O O\n\nc x B- B-LOC\nd x I- I-\ne x B-0 B-\n\n"
            b"f x B-LOC B-LOC\ng x I-LOC I-\n")
    # gold: PER, "" (c-d), "" (e; type "0" counts as empty), LOC; prediction: "" (a), LOC,
    # "" (d), "" (e), LOC, ""; only the chunk at e is correct
    expected = _oracle(data, [])
    assert expected[0].startswith(
        b"processed 7 tokens with 4 phrases; found: 6 phrases; correct: 1.\n")
    assert b"\n                 : precision:  25.00%; recall:  50.00%;" in expected[0]
    assert run_cli([], data) == expected
    sentences = [[line.split() for line in block.splitlines()]
                 for block in data.decode().split("\n\n")]
    gold = [[w[2] for w in sent] for sent in sentences]
    pred = [[w[3] for w in sent] for sent in sentences]
    total = nerscore.count_matches(gold, pred, mode="conlleval").total()
    assert (total.n_gold, total.n_pred, total.exact) == (4, 6, 1)


def test_the_merge_warning_quotes_long_tags_short():
    tag = "S-" + "P" * 100_000
    with pytest.warns(ConllevalMergeWarning) as caught:
        tags_to_entities([tag, tag], mode="conlleval")
    quoted = f"'{tag[:60]}'... (100002 characters)"
    assert f"{quoted} -> {quoted} at token 1 of sentence 0" in str(caught[0].message)
    assert len(str(caught[0].message)) < 800
