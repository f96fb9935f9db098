"""Flags every subcommand shares: ``--output``, ``--quiet``, examples in ``--help``, progress bars."""

from __future__ import annotations

import contextlib
import io
import json

import pytest

from nerscore.cli import SUBCOMMANDS, main
from tests.paths import ROOT, TESTS

ROOT = ROOT
DATA = TESTS / "data" / "conll"
EXAMPLE = ROOT / "examples" / "conll2000"
GOLD, PRED = str(EXAMPLE / "gold.conll"), str(EXAMPLE / "pred.conll")


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    assert "Traceback" not in err
    return status, out, err


@pytest.mark.parametrize("command", sorted(SUBCOMMANDS))
def test_every_subcommand_help_shows_examples(capsys, command):
    status, out, _ = run(capsys, command, "--help")
    assert status == 0
    assert "examples:" in out
    examples = out.split("examples:", 1)[1].splitlines()
    assert sum(line.strip().startswith(f"nerscore {command} ") for line in examples) >= 2


@pytest.mark.parametrize("command", sorted(SUBCOMMANDS))
def test_the_help_examples_parse_and_leave_the_format_to_the_output_suffix(capsys, command):
    """Every example is a command line the parser takes, and none passes a --format that
    the suffix of its -o FILE chooses already."""
    import os
    import shlex

    from nerscore.cli import build_parser
    from nerscore.cli._output import _suffix_format

    _status, out, _ = run(capsys, command, "--help")
    examples = out.split("examples:", 1)[1].replace("\\\n", " ").splitlines()
    lines = [e.strip() for e in examples if e.strip().startswith(f"nerscore {command} ")]
    assert lines
    parser = build_parser(command)
    for line in lines:
        argv = shlex.split(line.split(" < ")[0])[1:]  # no redirection
        args, extra = parser.parse_known_args(argv)
        assert extra == [], line
        given = getattr(args, "format_given", False)
        output = getattr(args, "output", None)
        if given and output not in (None, "-"):
            suffix = os.path.splitext(output)[1].lower()
            named, writes = _suffix_format(args, suffix) if suffix else (None, False)
            assert not (writes and named == args.format), (
                f"{line}: the suffix {suffix} chooses --format {named}; leave it out")


@pytest.mark.parametrize("command", sorted(SUBCOMMANDS))
def test_every_subcommand_takes_quiet(capsys, command):
    _status, out, _ = run(capsys, command, "--help")
    assert "--quiet" in out


@pytest.mark.parametrize("argv", [
    ["score", GOLD, PRED],
    ["score", GOLD, PRED, "--format", "json"],
    ["validate", str(DATA / "invalid_iob2.conll"), "--scheme", "IOB2"],
    ["compare", GOLD, PRED, PRED.replace("pred", "pred_discard"), "--resamples", "50"],
    ["conlleval", str(EXAMPLE / "merged.txt")],
])
def test_output_writes_the_result_to_a_file(capsys, tmp_path, argv):
    status, out, _ = run(capsys, *argv)
    target = tmp_path / "result.txt"
    status2, out2, _ = run(capsys, *argv, "--output", str(target))
    assert status2 == status
    assert out2 == ""
    assert target.read_text(encoding="utf-8") == out


def test_quiet_silences_notes_and_warnings_but_not_errors(capsys):
    argv = ["score", GOLD, PRED, "--format", "markdown", "--breakdown", "length"]
    status, out, err = run(capsys, *argv)
    assert status == 0
    assert "note:" in err
    status, out_q, err_q = run(capsys, *argv, "--quiet")
    assert (status, out_q, err_q) == (0, out, "")
    status, _, err = run(capsys, "validate", str(DATA / "invalid_iob2.conll"), "--scheme",
                         "IOB2", "-q")
    assert status == 1
    assert err == ""
    status, _, err = run(capsys, "score", GOLD, "missing.conll", "--quiet")
    assert status == 1
    assert "error: cannot read PRED" in err


def _nothing() -> contextlib.AbstractContextManager[None]:
    return contextlib.nullcontext()


def test_score_breakdown_text_markdown_json(capsys):
    import nerscore
    from nerscore.analysis.breakdowns import breakdown_from_report
    from nerscore.render.breakdown import render_breakdown

    report = nerscore.evaluate(nerscore.read_conll(GOLD).tags, nerscore.read_conll(PRED).tags)
    for by in ("length", "document"):
        with pytest.warns(nerscore.UndefinedMetricWarning) if by == "length" else _nothing():
            expected = breakdown_from_report(report, by=by)
        status, out, _ = run(capsys, "score", GOLD, PRED, "--breakdown", by)
        assert status == 0
        assert out.rstrip().endswith(render_breakdown(expected).rstrip())
        assert f"scores by {by}" in out
        status, out, _ = run(capsys, "score", GOLD, PRED, "--breakdown", by, "--format",
                             "markdown")
        assert render_breakdown(expected, format="markdown").rstrip() in out
        status, out, _ = run(capsys, "score", GOLD, PRED, "--breakdown", by, "--format", "json")
        assert json.loads(out)["breakdown"] == json.loads(json.dumps(expected.to_dict()))


def test_score_breakdown_refuses_other_formats(capsys):
    status, _, err = run(capsys, "score", GOLD, PRED, "--breakdown", "length", "--format",
                         "conlleval")
    assert status == 2
    assert "--breakdown works with" in err


def test_commands_print_no_progress_when_stderr_is_not_a_terminal(capsys, tmp_path):
    status, _, err = run(capsys, "score", GOLD, PRED, "--chunk-sentences", "5", "--ci",
                         "--resamples", "20")
    assert status == 0
    assert "\r" not in err
    status, _, err = run(capsys, "compare", GOLD, PRED, PRED, "--names", "a", "b",
                         "--resamples", "20")
    assert status == 0
    assert "\r" not in err


def test_report_with_two_systems_has_the_comparison(capsys, tmp_path):
    import nerscore

    page = tmp_path / "r.html"
    discard = PRED.replace("pred", "pred_discard")
    status, _, err = run(capsys, "report", GOLD, PRED, discard, "--names", "pred", "discard",
                         "--resamples", "100", "--seed", "3", "-o", str(page))
    assert status == 0, err
    html = page.read_text(encoding="utf-8")
    assert '<section id="significance">' in html
    gold, pred, disc = (nerscore.read_conll(p).tags for p in (GOLD, PRED, discard))
    expected = nerscore.compare(gold, {"pred": pred, "discard": disc}, n_resamples=100, seed=3,
                                zero_division="warn")
    p_value = expected.pairs[0].to_dict()["p_bootstrap"]
    assert f"{p_value:g}"[:4] in html.split('<section id="significance">')[1]
    one = tmp_path / "one.html"
    assert run(capsys, "report", GOLD, PRED, "-o", str(one))[0] == 0
    assert 'id="significance"' not in one.read_text(encoding="utf-8")
    status, _, err = run(capsys, "report", GOLD, PRED, "--resamples", "10", "-o", str(one))
    assert status == 2
    assert "two or more PRED" in err


def test_report_with_train_has_the_diagnostics(capsys, tmp_path):
    page = tmp_path / "r.html"
    status, _, err = run(capsys, "report", GOLD, PRED, "--train", str(DATA / "gold.conll"),
                         "-o", str(page))
    assert status == 0, err
    html = page.read_text(encoding="utf-8")
    section = html.split('<section id="diagnostics">')[1]
    assert '<table class="findings">' in section
    import nerscore

    train, gold, pred = (nerscore.read_conll(p).tags for p in (DATA / "gold.conll", GOLD, PRED))
    expected = nerscore.diagnose(train, gold, pred=pred)
    assert expected.findings
    for finding in expected.to_dict()["findings"]:
        assert f"<td>{finding['kind']}</td>" in section


def test_readme_compare_example_is_the_real_output(capsys, monkeypatch):
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    command = ("nerscore compare examples/conll2000/gold.conll examples/conll2000/pred.conll "
               "examples/conll2000/pred_discard.conll --names pred discard")
    block = readme.split(f"$ {command}\n", 1)[1].split("```", 1)[0]
    monkeypatch.chdir(ROOT)
    status, out, _ = run(capsys, *command.split()[1:])
    assert status == 0
    assert out == block


def test_pred_discard_is_the_repaired_prediction(capsys, tmp_path):
    target = tmp_path / "d.conll"
    assert run(capsys, "repair", PRED, "--scheme", "IOB2", "--method", "discard", "-o",
               str(target))[0] == 0
    assert target.read_bytes() == (EXAMPLE / "pred_discard.conll").read_bytes()


def test_report_diagnoses_every_system(capsys, tmp_path):
    page = tmp_path / "r.html"
    discard = PRED.replace("pred", "pred_discard")
    status, _, err = run(capsys, "report", GOLD, PRED, discard, "--names", "raw", "discard",
                         "--train", str(DATA / "gold.conll"), "-o", str(page), "--resamples",
                         "20")
    assert status == 0, err
    section = page.read_text(encoding="utf-8").split('<section id="diagnostics">')[1]
    section = section.split("</section>")[0]
    assert section.count('<h3 class="system">') == 2
    raw, disc = section.split('<h3 class="system">')[1:]
    assert raw.startswith("raw</h3>")
    assert disc.startswith("discard</h3>")
    import nerscore

    train, gold = (nerscore.read_conll(p).tags for p in (DATA / "gold.conll", GOLD))
    counts = []
    for part, path in ((raw, PRED), (disc, discard)):
        found = nerscore.diagnose(train, gold, pred=nerscore.read_conll(path).tags)
        confused = sum(f.kind == "confused_labels" for f in found.findings)
        assert part.count("<td>confused_labels</td>") == confused
        counts.append(confused)
    assert counts[0] != counts[1]  # each system's own prediction findings


class _GoneReader(io.StringIO):
    """A stream whose reader went away once ``after`` was written (as `| head` does)."""

    def __init__(self, after: str) -> None:
        super().__init__()
        self.after = after

    def write(self, text: str) -> int:
        if self.after in self.getvalue():
            raise BrokenPipeError(32, "Broken pipe")
        return super().write(text)


@pytest.mark.parametrize("stream", ["stdout", "stderr"])
def test_a_reader_going_away_ends_the_command_quietly(monkeypatch, tmp_path, stream):
    # all-O files: the table goes to stdout, then a note on undefined scores to stderr
    gold, pred = tmp_path / "gold.conll", tmp_path / "pred.conll"
    gold.write_text("Jonas O\nleft O\n")
    pred.write_text("Jonas O\nleft O\n\n")
    gone = _GoneReader("nerscore")
    monkeypatch.setattr(f"sys.{stream}", gone)
    assert main(["score", str(gold), str(pred)]) == 0
    assert "nerscore" in gone.getvalue()


# ------------------------------------------------------- the format the output's name asks for

DISCARD = PRED.replace("pred", "pred_discard")


@pytest.mark.parametrize(("argv", "name", "fmt"), [
    (["score", GOLD, PRED], "s.json", "json"),
    (["score", GOLD, PRED], "s.JSON", "json"),
    (["score", GOLD, PRED], "s.md", "markdown"),
    (["score", GOLD, PRED], "s.markdown", "markdown"),
    (["score", GOLD, PRED], "s.html", "html"),
    (["score", GOLD, PRED], "s.htm", "html"),
    (["score", GOLD, PRED, "--confusion"], "s.md", "markdown"),
    (["score", GOLD, PRED, PRED, "--runs"], "r.json", "json"),
    (["diagnose", "--train", GOLD, "--test", GOLD, "--pred", PRED], "d.md", "markdown"),
    (["diagnose", "--train", GOLD, "--test", GOLD, "--pred", PRED], "d.json", "json"),
    (["compare", GOLD, PRED, DISCARD, "--resamples", "50"], "c.json", "json"),
    (["compare", GOLD, PRED, DISCARD, "--resamples", "50"], "c.md", "markdown"),
    (["agree", GOLD, PRED], "a.html", "html"),
    (["agree", GOLD, PRED], "a.md", "markdown"),
])
def test_the_suffix_of_the_output_chooses_the_format(capsys, tmp_path, argv, name, fmt):
    status, out, err = run(capsys, *argv, "--format", fmt)
    target = tmp_path / name
    status2, out2, err2 = run(capsys, *argv, "--output", str(target))
    assert (status2, out2) == (status, "")
    assert target.read_text(encoding="utf-8") == out
    wrote = f"nerscore {argv[0]}: note: wrote {target}"
    said = [line for line in err2.splitlines() if line != wrote]
    assert said == err.splitlines()  # nothing more said


@pytest.mark.parametrize("name", ["s.txt", "s.out", "s", "s.csv"])
def test_another_suffix_keeps_the_default_format(capsys, tmp_path, name):
    status, out, err = run(capsys, "score", GOLD, PRED)
    target = tmp_path / name
    assert run(capsys, "score", GOLD, PRED, "-o", str(target)) == (status, "", err)
    assert target.read_text(encoding="utf-8") == out


@pytest.mark.parametrize(("argv", "name", "said"), [
    (["compare", GOLD, PRED, DISCARD, "--resamples", "50"], "c.html",
     "the suffix .html names html, which nerscore compare does not write, so the file holds "
     "text; --format chooses text, json or markdown"),
    (["diagnose", "--train", GOLD, "--test", GOLD], "d.html",
     "the suffix .html names html, which nerscore diagnose does not write, so the file holds "
     "text; --format chooses text, json or markdown"),
    (["score", GOLD, PRED, PRED, "--runs"], "r.html",
     "the suffix .html names html, which nerscore score --runs does not write, so the file "
     "holds text; --format chooses text, json or markdown"),
])
def test_a_suffix_of_a_format_the_command_does_not_write_is_noted(capsys, tmp_path, argv,
                                                                  name, said):
    status, out, _ = run(capsys, *argv)
    target = tmp_path / name
    status2, _, err = run(capsys, *argv, "--output", str(target))
    assert status2 == status
    assert target.read_text(encoding="utf-8") == out
    command = argv[0]
    assert f"nerscore {command}: note: --output {target}: {said}\n" in err
    _, _, err = run(capsys, *argv, "--output", str(target), "--format", "text")
    assert "does not write" not in err  # the format was chosen


def test_format_and_a_suffix_that_names_another_format_are_a_usage_error(capsys, tmp_path):
    target = tmp_path / "s.md"
    status, out, err = run(capsys, "score", GOLD, PRED, "--format", "json", "-o", str(target))
    assert (status, out) == (2, "")
    assert err == (f"nerscore score: error: --format json and --output {target} disagree: the "
                   "suffix .md names the markdown format. Leave out --format to write markdown, "
                   "or give --output a name that ends in .json. See 'nerscore score --help'.\n")
    assert not target.exists()
    status, _, err = run(capsys, "score", GOLD, PRED, "--format", "text", "-o", str(target))
    assert status == 2
    assert (f"Leave out --format to write markdown, or give --output a name with no suffix of a "
            f"format (e.g. {tmp_path / 's'}.txt)") in err
    # the same format by another suffix is no disagreement
    assert run(capsys, "score", GOLD, PRED, "--format", "markdown", "-o",
               str(tmp_path / "s.markdown"))[0] == 0


def test_an_extra_the_suffixs_format_cannot_show_says_where_the_format_came_from(capsys, tmp_path):
    target = tmp_path / "s.html"
    status, _, err = run(capsys, "score", GOLD, PRED, "--breakdown", "length", "-o", str(target))
    assert status == 2
    assert (f"error: --breakdown works with --format text, json or markdown, not html, which "
            f"the suffix of --output {target} names: give one of them with --format.") in err


def test_curve_writes_the_format_its_output_names(capsys, tmp_path):
    from tests.cli.test_thresholds import DEV_GOLD, DEV_PRED, write

    gold, pred = write(tmp_path / "g.jsonl", DEV_GOLD), write(tmp_path / "p.jsonl", DEV_PRED)
    for fmt in ("json", "svg", "csv"):
        status, out, _ = run(capsys, "curve", gold, pred, "--format", fmt)
        target = tmp_path / f"curve.{fmt}"
        assert run(capsys, "curve", gold, pred, "-o", str(target)) == (status, "", "")
        assert target.read_text(encoding="utf-8") == out
    status, csv, _ = run(capsys, "curve", gold, pred)
    assert run(capsys, "curve", gold, pred, "-o", str(tmp_path / "c.txt")) == (0, "", "")
    assert (tmp_path / "c.txt").read_text(encoding="utf-8") == csv
    status, _, err = run(capsys, "curve", gold, pred, "--format", "svg", "-o",
                         str(tmp_path / "pr.png"))
    assert status == 2
    assert (f"error: --format svg and --output {tmp_path / 'pr.png'} disagree: the suffix .png "
            "names the png format. Leave out --format to write png, or give --output a name "
            "that ends in .svg.") in err
    pytest.importorskip("matplotlib")
    png = tmp_path / "pr.png"
    assert run(capsys, "curve", gold, pred, "-o", str(png)) == (0, "", "")
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_a_note_folds_line_breaks_but_keeps_the_spaces_of_quoted_values(capsys):
    from nerscore.cli._output import note

    note("score", "text 'Bob  went' differs\n    from 'Bob went';\n\n  check it.", kind="warning")
    assert capsys.readouterr().err == (
        "nerscore score: warning: text 'Bob  went' differs from 'Bob went'; check it.\n")
